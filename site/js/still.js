// What embed.html shows before its reader plays it: the lab's title and a still of its grid
// as it opens, drawn at build time by the app's own code (build/stills.go), and a Play
// button. Nothing of the simulator is fetched until the reader asks for it, so a page with
// several embeds costs its reader a few kilobytes per frame until one is played.
//
// The still and the titles come from __EMBED_STILLS__, which the build defines: a list of
// {name, title, src: {light, dark}, width, height} in the labs' order.

import * as theme from './theme.js';
import { megabytes } from './format.js';

const $ = (id) => document.getElementById(id);

// STILLS are the labs' stills; the first is the lab the page opens when the address names
// none, or a lab it does not have.
const STILLS = typeof __EMBED_STILLS__ !== 'undefined' ? __EMBED_STILLS__ : [];

// labs lists the labs as the host's events name them: [{name, title}].
export function labs() {
  return STILLS.map((s) => ({ name: s.name, title: s.title }));
}

// stillOf returns the still of the lab named name, or of the first lab.
export function stillOf(name) {
  return STILLS.find((s) => s.name === name) || STILLS[0] || null;
}

// show puts the still of the lab named name in #grid, with the lab's title and a Play button,
// and resolves once the reader asks for the simulator, or when wake is called (a host page's
// request): with {play, reader}, play true when the reader pressed Play, reader true when it
// was the reader who asked. A click on a link (Open in the full playground) is not one.
// custom says the address changes the lab's parameters, which the still, drawn at the
// defaults, does not show.
export function show(name, custom) {
  const s = stillOf(name);
  const grid = $('grid');
  let done = null;
  const asked = new Promise((resolve) => { done = resolve; });
  if (!s || !grid) return { asked: Promise.resolve({ play: false, reader: false }), wake: () => {} };

  $('embed-lab').textContent = s.title;
  document.title = `${s.title} — bufferscope`;
  $('progress').hidden = true;
  const cover = document.createElement('div');
  cover.className = 'still';
  cover.id = 'still';
  const img = document.createElement('img');
  img.className = 'grid-still';
  img.width = s.width;
  img.height = s.height;
  img.alt = custom
    ? `The ${s.title} lab's grid at its default settings; Play builds the settings of this address`
    : `The ${s.title} lab's grid as it opens`;
  img.src = s.src[theme.current()] || s.src.light;
  const play = document.createElement('button');
  play.type = 'button';
  play.id = 'still-play';
  play.className = 'primary still-play';
  play.textContent = 'Play';
  play.setAttribute('aria-describedby', 'still-note');
  const note = document.createElement('p');
  note.id = 'still-note';
  note.className = 'still-note';
  note.textContent = custom
    ? 'A picture at the default settings: Play loads the simulator with this address\u2019s.'
    : 'A picture: Play loads the simulator.';
  cover.append(img, play, note);
  grid.append(cover);
  if ($('c-rate')) $('c-rate').textContent = 'The counters appear once it plays.';
  document.body.dataset.still = '1';

  // The size of what Play fetches, as the server sends it (compressed), when it says.
  fetch(__WASM_URL__, { method: 'HEAD' }).then((r) => {
    const n = Number(r.headers.get('Content-Length'));
    if (r.ok && n > 0 && note.isConnected) note.textContent = note.textContent.replace('loads the simulator', `loads the simulator (${megabytes(n)})`);
  }, () => {});

  const listeners = [];
  const on = (target, type, fn, opts) => {
    target.addEventListener(type, fn, opts);
    listeners.push(() => target.removeEventListener(type, fn, opts));
  };
  const finish = (how) => {
    if (!done) return;
    for (const off of listeners.splice(0)) off();
    play.remove();
    note.remove();
    delete document.body.dataset.still;
    const d = done;
    done = null;
    d(how);
  };
  on(play, 'click', () => finish({ play: true, reader: true }));
  on(window, 'pointerdown', (e) => {
    if (e.target instanceof Element && (e.target.closest('a') || e.target === play)) return;
    finish({ play: false, reader: true });
  }, { capture: true, passive: true });
  on(window, 'keydown', (e) => {
    if (e.target === play || e.key === 'Tab' || e.key === 'Shift') return;
    finish({ play: false, reader: true });
  }, { capture: true, passive: true });
  return { asked, wake: () => finish({ play: false, reader: false }) };
}

// remove takes the still away, once the simulator draws the grid itself.
export function remove() {
  const cover = $('still');
  if (cover) cover.remove();
}
