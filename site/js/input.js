// Input on the grid and keyboard shortcuts. Ebiten's own input handling assumes its canvas
// fills the window, so the page handles pointer, wheel and keys and tells the bridge what to
// do (zoom, pan, inspect). Keys and the wheel are heard by capturing listeners on window,
// the only place host.js lets them through; pointer events are heard on the canvas.

import { dialogOpen } from './keys.js';

const DRAG_THRESHOLD = 5; // pixels a pointer must move before a press becomes a drag
const WHEEL_STEP = 100; // wheel delta, in pixels, per zoom step
const PAN_STEP = 48; // pixels an arrow key pans; Shift pans five times as far

// init wires input for the canvas. hooks: hover(x, y) and leave() for the tooltip,
// select(x, y) for a click or tap, view(v) after zoom or pan, and the actions togglePlay,
// step, stepBack (comma) and nextEvent (">", Shift+Period) when given, reset, escape; and
// optionally wheel(), which returns false while the wheel should scroll the page rather
// than zoom the grid (an embed the reader has not clicked yet).
export function init(bs, canvas, hooks) {
  const pointers = new Map(); // pointerId → {x, y, x0, y0}
  let dragging = false;
  let pinch = 0; // distance between two pointers at the last zoom step
  let wheel = 0;

  const view = (v) => {
    canvas.classList.toggle('zoomed', Boolean(v && v.zoomed));
    hooks.view(v);
  };
  const distance = () => {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  const middle = () => {
    const [a, b] = [...pointers.values()];
    return [(a.x + b.x) / 2, (a.y + b.y) / 2];
  };

  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    try {
      canvas.setPointerCapture(e.pointerId); // keep the drag when the pointer leaves the grid
    } catch {
      // Not an active pointer (a synthetic event): the drag still works inside the grid.
    }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY });
    if (pointers.size === 2) pinch = distance();
    if (e.pointerType === 'mouse') canvas.focus({ preventScroll: true });
  });

  canvas.addEventListener('pointermove', (e) => {
    const p = pointers.get(e.pointerId);
    if (!p) {
      if (e.pointerType === 'mouse') hooks.hover(e.clientX, e.clientY);
      return;
    }
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    p.x = e.clientX;
    p.y = e.clientY;
    if (pointers.size === 2) {
      const d = distance();
      if (pinch > 0 && (d > pinch * 1.25 || d < pinch / 1.25)) {
        const [mx, my] = middle();
        view(bs.zoom(d > pinch ? 1 : -1, mx, my));
        pinch = d;
      }
      dragging = true;
      return;
    }
    if (!dragging && Math.hypot(e.clientX - p.x0, e.clientY - p.y0) < DRAG_THRESHOLD) return;
    if (!dragging) {
      dragging = true;
      canvas.classList.add('dragging');
      hooks.leave();
    }
    view(bs.pan(dx, dy));
  });

  const end = (e) => {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    pointers.delete(e.pointerId);
    if (e.type === 'pointerup' && !dragging && pointers.size === 0) hooks.select(e.clientX, e.clientY, e.pointerType);
    if (pointers.size === 0) {
      dragging = false;
      pinch = 0;
      canvas.classList.remove('dragging');
    }
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'mouse' && pointers.size === 0) hooks.leave();
  });

  window.addEventListener('wheel', (e) => {
    if (e.target !== canvas || hooks.wheel && !hooks.wheel()) return;
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;
    // A trackpad pinch arrives as a wheel with ctrlKey and small deltas.
    const step = e.ctrlKey ? WHEEL_STEP / 8 : WHEEL_STEP;
    wheel -= e.deltaY * unit;
    let v = null;
    while (Math.abs(wheel) >= step) {
      const dir = Math.sign(wheel);
      wheel -= dir * step;
      v = bs.zoom(dir, e.clientX, e.clientY);
    }
    if (v) {
      view(v);
      hooks.hover(e.clientX, e.clientY);
    }
  }, { capture: true, passive: false });

  window.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (dialogOpen()) return; // a dialog holds the keyboard
    if (e.key === 'Escape') {
      hooks.escape();
      return;
    }
    const t = e.target instanceof Element ? e.target : null;
    if (t && t.closest('input, select, textarea, [contenteditable], dialog')) return; // a dialog owns the keys
    const onButton = t && t.closest('button, a, summary');
    let handled = true;
    switch (e.key) {
      case ' ':
        if (onButton) return; // the button's own activation
        hooks.togglePlay();
        break;
      case '.': case 's': case 'S':
        hooks.step();
        break;
      case ',':
        if (!hooks.stepBack) return;
        hooks.stepBack();
        break;
      case '>':
        if (!hooks.nextEvent) return;
        hooks.nextEvent();
        break;
      case 'r': case 'R':
        hooks.reset();
        break;
      case '+': case '=':
        view(bs.zoom(1));
        break;
      case '-': case '_':
        view(bs.zoom(-1));
        break;
      case '0':
        view(bs.fit());
        break;
      case 'ArrowLeft': case 'ArrowRight': case 'ArrowUp': case 'ArrowDown': {
        if (t !== canvas) return;
        const d = e.shiftKey ? PAN_STEP * 5 : PAN_STEP;
        const dx = e.key === 'ArrowLeft' ? d : e.key === 'ArrowRight' ? -d : 0;
        const dy = e.key === 'ArrowUp' ? d : e.key === 'ArrowDown' ? -d : 0;
        view(bs.pan(dx, dy));
        break;
      }
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }, { capture: true });

  for (const [id, steps] of [['zoom-in', 1], ['zoom-out', -1]]) {
    document.getElementById(id).addEventListener('click', () => view(bs.zoom(steps)));
  }
  document.getElementById('zoom-fit').addEventListener('click', () => view(bs.fit()));
  view(bs.view());
}
