// The stage's fit: the grid takes the height left in the window once everything above it
// (header, intro, error panel, the stage's bar) and under it (hint, play bar) is placed, so
// the play bar is on screen on load at any window size and font size. CSS alone cannot know
// how long a lab's introduction wraps; this measures it, for every lab alike.

const MIN = 12; // rem: the grid is never smaller than this, the page scrolls instead
const MAX = 55; // rem: nor taller, on very tall windows
const FLOOR = 6; // rem: a box shrunk to a small pool keeps this much, for its lane and hover
const NARROW = '(max-width: 56.25em)'; // the one-column layout of style.css

// fitStage keeps grid's height fitted whenever the window, the header or the stage changes.
// It returns a function that fits it again now; give it need(width, height), the height the
// pool needs on a canvas that wide and at most that high (bufferscope.fitHeight), once the
// simulator runs, and the box shrinks to the pool: a pool that fills the width first leaves
// no blank band under it.
export function fitStage(grid) {
  const stage = grid.closest('.stage') || grid.parentElement;
  let queued = false;
  let need = null;
  const fit = () => {
    queued = false;
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    // Text in rem can leave the grid's top between two pixels, which blurs every cell's
    // edge: shifting it by a fraction of a pixel (position: relative, so nothing else
    // moves) puts it on a whole one.
    const prev = parseFloat(grid.style.top) || 0;
    const top0 = grid.getBoundingClientRect().top + scrollY - prev;
    const snap = Math.ceil(top0 - 0.001) - top0; // layout works in 64ths of a pixel: exact
    if (Math.abs(snap - prev) > 0.001) grid.style.top = snap > 0 ? `${snap}px` : '';
    if (matchMedia(NARROW).matches) {
      // One column: the canvas and the play bar come first, the grid about square.
      grid.style.removeProperty('height');
      return;
    }
    const top = top0 + snap;
    const s = stage.getBoundingClientRect();
    const below = s.bottom - grid.getBoundingClientRect().bottom; // hint and play bar
    const room = innerHeight - top - below - rem; // a rem of air under the play bar
    // An even number of pixels: Ebiten centres its screen in the canvas, and an odd size
    // puts it half a pixel off, which blurs the cells' edges.
    let h = 2 * Math.floor(Math.max(MIN * rem, Math.min(MAX * rem, room)) / 2);
    if (need) {
      // The canvas is the box inside its border.
      const border = grid.offsetHeight - grid.clientHeight;
      const n = need(grid.clientWidth, h - border);
      if (typeof n === 'number' && n >= 1) h = Math.min(h, 2 * Math.ceil(Math.max(n + border, FLOOR * rem) / 2));
    }
    if (Math.abs(grid.getBoundingClientRect().height - h) > 1) grid.style.height = `${h}px`;
  };
  const queue = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(fit);
  };
  addEventListener('resize', queue);
  const ro = new ResizeObserver(queue);
  for (const el of [document.querySelector('.masthead'), document.getElementById('error-panel'), stage]) {
    if (el) ro.observe(el);
  }
  fit();
  return (fn) => {
    if (fn) need = fn;
    fit();
  };
}
