// Keyboard: the list of every shortcut, shown in the "?" dialog (#keys-dialog); the keys
// for the page's own controls (speed, theme, presenter mode, moving focus to a panel); and
// presenter mode. The grid's and playback's keys are heard in input.js; this table lists
// them too, so the dialog shows every key the page answers. Nothing here knows which lab
// runs.

const $ = (id) => document.getElementById(id);

// SHORTCUTS lists every key of the page, in the order the dialog shows them.
const SHORTCUTS = [
  { keys: ['Space'], what: 'Play or pause' },
  { keys: ['.', 'S'], what: 'One step' },
  { keys: [','], what: 'One step back' },
  { keys: ['>'], what: 'On to the next event of interest' },
  { keys: ['R'], what: 'Reset: the same run from the start' },
  { keys: ['[', ']'], what: 'Slower, faster' },
  { keys: ['+', '−'], what: 'Zoom in, zoom out' },
  { keys: ['0'], what: 'Show the whole pool' },
  { keys: ['←', '↑', '→', '↓'], what: 'Pan the grid when it has focus (with Shift: further)' },
  { keys: ['G'], what: 'Go to the settings' },
  { keys: ['I'], what: 'Inspect a buffer by its number' },
  { keys: ['L'], what: 'Go to the event log' },
  { keys: ['T'], what: 'Dark or light theme' },
  { keys: ['P'], what: 'Presenter mode: full screen, large type, high contrast' },
  { keys: ['?'], what: 'This list of shortcuts' },
  { keys: ['Esc'], what: 'Close this list or the buffer details; leave presenter mode' },
];

// typing reports whether a key pressed on target goes into a field.
function typing(target) {
  return target instanceof Element && Boolean(target.closest('input, select, textarea, [contenteditable]'));
}

// dialogOpen reports whether a modal dialog holds the keyboard; the page's shortcuts then
// rest.
export function dialogOpen() {
  return Boolean(document.querySelector('dialog[open]'));
}

// init builds the dialog and wires its keys and buttons. hooks.slower(), hooks.faster()
// move the speed one rung.
export function init(hooks) {
  const dialog = $('keys-dialog');
  const opener = $('keys-open');
  $('keys-list').replaceChildren(...SHORTCUTS.map((s) => {
    const tr = document.createElement('tr');
    const keys = document.createElement('td');
    s.keys.forEach((k, i) => {
      if (i > 0) keys.append(' ');
      const kbd = document.createElement('kbd');
      kbd.textContent = k;
      keys.append(kbd);
    });
    const what = document.createElement('td');
    what.textContent = s.what;
    tr.append(keys, what);
    return tr;
  }));

  let returnTo = null;
  const open = () => {
    if (dialog.open) return;
    returnTo = document.activeElement;
    dialog.showModal(); // modal: the rest of the page is inert, so focus stays inside
    $('keys-close').focus();
  };
  // restore gives focus back to where it was when the dialog opened, at once: the close
  // event comes a task later, after keys pressed meanwhile.
  const restore = () => {
    if (returnTo && returnTo.isConnected && typeof returnTo.focus === 'function') returnTo.focus();
    returnTo = null;
  };
  const close = () => {
    if (dialog.open) dialog.close();
    restore();
  };
  dialog.addEventListener('cancel', (e) => {
    e.preventDefault(); // Esc: closed here, so focus is restored at once
    close();
  });
  dialog.addEventListener('close', restore);
  // Tab and Shift+Tab go round the dialog's controls: a modal dialog makes the page inert,
  // but Tab would still leave for the browser's own controls.
  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const items = [...dialog.querySelectorAll('button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])')]
      .filter((x) => !x.disabled);
    if (!items.length) return;
    const i = items.indexOf(document.activeElement);
    const next = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i === items.length - 1 ? 0 : i + 1);
    if (items.length === 1 || i === -1 || next === 0 && !e.shiftKey || next === items.length - 1 && e.shiftKey) {
      e.preventDefault();
      items[next].focus();
    }
  });
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) close(); // a click on the backdrop
  });
  opener.addEventListener('click', open);
  $('keys-close').addEventListener('click', close);

  const present = $('present');
  present.addEventListener('click', () => setPresenting(!presenting()));
  document.addEventListener('fullscreenchange', () => {
    if (!document.fullscreenElement && presenting()) setPresenting(false, true);
  });

  window.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (dialogOpen()) return; // the dialog's own keys: Tab, Esc (which closes it)
    if (typing(e.target)) return;
    let handled = true;
    switch (e.key) {
      case '?': open(); break;
      case '[': hooks.slower(); break;
      case ']': hooks.faster(); break;
      case 'g': case 'G': focusFirst('#settings input, #settings select, #settings summary'); break;
      case 'i': case 'I': focusFirst('#inspect-buffer'); break;
      case 'l': case 'L': focusFirst('#event-log'); break;
      case 't': case 'T': $('theme').click(); break;
      case 'p': case 'P': setPresenting(!presenting()); break;
      case 'Escape':
        if (presenting()) setPresenting(false);
        handled = false; // the grid's Escape closes the buffer details too
        break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  }, { capture: true });
}

// focusFirst focuses the first enabled element matching selector.
function focusFirst(selector) {
  const el = [...document.querySelectorAll(selector)].find((x) => !x.disabled && !x.closest('[hidden]'));
  if (el) {
    el.focus();
    el.scrollIntoView({ block: 'nearest' });
  }
}

// presenting reports whether presenter mode is on.
function presenting() {
  return document.documentElement.classList.contains('presenter');
}

// setPresenting turns presenter mode on or off: large type and high contrast (style.css),
// and the whole screen when the browser allows it. The mode works without full screen too
// (a browser may refuse it, or an embedding page may not allow it).
function setPresenting(on, fromFullscreen = false) {
  document.documentElement.classList.toggle('presenter', on);
  const button = $('present');
  button.setAttribute('aria-pressed', String(on));
  button.textContent = on ? 'Leave presenter mode' : 'Present';
  if (fromFullscreen) return;
  const d = document;
  if (on && !d.fullscreenElement && d.documentElement.requestFullscreen && d.fullscreenEnabled) {
    d.documentElement.requestFullscreen().catch(() => {});
  } else if (!on && d.fullscreenElement && d.exitFullscreen) {
    d.exitFullscreen().catch(() => {});
  }
}
