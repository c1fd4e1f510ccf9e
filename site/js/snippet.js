// The embed snippet (#embed-dialog in index.html): the iframe code that shows the view on
// screen — embed.html with this page's address, so the same lab, parameters and speed — at
// a chosen size, ready to copy. It reads the address, which the page keeps current, and
// so knows nothing of labs.

const $ = (id) => document.getElementById(id);

// SIZES are the frame sizes offered, in CSS pixels; the first is the default.
const SIZES = [[700, 450], [960, 600]];

// LIMITS bound a custom size, in CSS pixels: below them the play bar does not fit.
const LIMITS = { width: [320, 2560], height: [240, 1600] };

// PAGE_ONLY are the main page's address keys that mean nothing to the embed: it never
// plays by itself (play=), opens at step 0 (step=) and has no guided tours or exercises
// (js/guide.js).
const PAGE_ONLY = ['play', 'step', 'tour', 'exercise', 'exseed'];

// embedURL returns the address of embed.html showing what the page at loc shows.
function embedURL(loc = location) {
  const u = new URL('embed.html', loc.href);
  // The query is kept as the page wrote it ("/" and "," unescaped), minus page-only keys.
  const parts = loc.search.replace(/^\?/, '').split('&')
    .filter((p) => p && !PAGE_ONLY.includes(decodeURIComponent(p.split('=')[0])));
  u.search = parts.length ? `?${parts.join('&')}` : '';
  return u.href;
}

// attr escapes text for a double-quoted HTML attribute.
const attr = (s) => String(s).replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

// iframeCode returns the HTML of an iframe showing src at width × height.
function iframeCode(src, width, height, title) {
  return `<iframe src="${attr(src)}" width="${width}" height="${height}" title="${attr(title)}" style="border: 0; max-width: 100%;" loading="lazy"></iframe>`;
}

// size reads one custom dimension; a value that is not a whole number in range gets the
// nearest bound (or the default for no number at all) and a note.
function size(input, [min, max], fallback, name, notes) {
  const text = input.value.trim();
  const v = Number(text);
  if (text === '' || !Number.isFinite(v)) {
    notes.push(`The ${name} must be a number of pixels from ${min} to ${max}; using ${fallback}.`);
    input.classList.add('invalid');
    return fallback;
  }
  const n = Math.min(max, Math.max(min, Math.round(v)));
  if (n !== v) {
    notes.push(`The ${name} must be a whole number of pixels from ${min} to ${max}; using ${n}.`);
    input.classList.add('invalid');
  } else {
    input.classList.remove('invalid');
  }
  return n;
}

// init wires the Embed button and its dialog; title() names the view shown, for the
// frame's title.
export function init(title) {
  const dialog = $('embed-dialog');
  const button = $('embed-button');
  if (!dialog || !button) return;
  const select = $('embed-size');
  const code = $('embed-code');
  const status = $('embed-copied');

  const write = () => {
    const notes = [];
    let w = SIZES[0][0];
    let h = SIZES[0][1];
    const custom = select.value === 'custom';
    $('embed-custom').hidden = !custom;
    if (custom) {
      w = size($('embed-width'), LIMITS.width, SIZES[0][0], 'width', notes);
      h = size($('embed-height'), LIMITS.height, SIZES[0][1], 'height', notes);
    } else {
      const m = /^(\d+)x(\d+)$/.exec(select.value);
      if (m) [w, h] = [Number(m[1]), Number(m[2])];
    }
    const src = embedURL();
    code.value = iframeCode(src, w, h, `bufferscope: ${title()}`);
    code.dataset.width = String(w);
    code.dataset.height = String(h);
    $('embed-preview').href = src;
    $('embed-note').textContent = notes.join(' ');
    status.textContent = '';
  };

  button.addEventListener('click', () => {
    write();
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    code.focus();
    code.select();
  });
  for (const id of ['embed-size', 'embed-width', 'embed-height']) $(id).addEventListener('input', write);
  $('embed-close').addEventListener('click', () => dialog.close());
  $('embed-copy').addEventListener('click', async () => {
    write();
    code.select();
    try {
      await navigator.clipboard.writeText(code.value);
      status.textContent = 'Copied.';
    } catch {
      // No clipboard access (permissions, an insecure page): the code is selected instead.
      status.textContent = 'Press Ctrl+C (⌘C) to copy the selected code.';
    }
  });
}
