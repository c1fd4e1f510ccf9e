// Light and dark themes: the system's preference unless the reader chose otherwise with
// the toggle, which is remembered. Also whether the reader asked for reduced motion.

const KEY = 'bufferscope-theme';
const darkQuery = matchMedia('(prefers-color-scheme: dark)');
const motionQuery = matchMedia('(prefers-reduced-motion: reduce)');

function stored() {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null;
  }
}

function store(v) {
  try {
    if (v) localStorage.setItem(KEY, v);
    else localStorage.removeItem(KEY);
  } catch {
    // Storage may be blocked; the choice then lasts until reload.
  }
}

let choice = stored();

// current returns the theme in effect: "light" or "dark".
export function current() {
  return choice || (darkQuery.matches ? 'dark' : 'light');
}

// reducedMotion reports whether the reader asked for less motion.
export function reducedMotion() {
  return motionQuery.matches;
}

function apply(button) {
  if (choice) document.documentElement.dataset.theme = choice;
  else delete document.documentElement.dataset.theme;
  if (button) button.setAttribute('aria-pressed', String(current() === 'dark'));
}

// init wires the toggle (#theme, when the page has one) and calls onChange(theme)
// whenever the theme in effect changes, and onMotion(reduced) when the motion preference
// does.
export function init(onChange, onMotion) {
  const button = document.getElementById('theme');
  apply(button);
  if (button) button.addEventListener('click', () => {
    const next = current() === 'dark' ? 'light' : 'dark';
    // Choosing what the system prefers anyway means following the system again.
    choice = next === (darkQuery.matches ? 'dark' : 'light') ? null : next;
    store(choice);
    apply(button);
    onChange(current());
  });
  darkQuery.addEventListener('change', () => {
    apply(button);
    onChange(current());
  });
  motionQuery.addEventListener('change', () => onMotion(motionQuery.matches));
}
