// Running the Go program with Ebiten's canvas inside the page layout.
//
// Ebiten's browser port assumes its canvas fills the page: while its package initialises it
// appends a canvas to document.body, and on every resize it sizes the canvas to
// document.body's client size. It also listens to keyboard, mouse, wheel and touch events on
// the canvas and cancels them, which would trap Tab and stop the page from scrolling.
//
// So, while Go runs (its start and every callback into it), document.body answers with the
// grid's container: the canvas goes there and takes the container's size. Go runs only
// inside WebAssembly calls made by wasm_exec.js's go.run and go._resume, which we wrap.
// Page code never sees the substitute: the bridge calls page callbacks from microtasks, after
// Go has returned. The page handles all input itself (input.js) and keeps those events from
// reaching Ebiten's canvas listeners.

// EBITEN_EVENTS are the events Ebiten listens to on its canvas and cancels.
const EBITEN_EVENTS = ['keydown', 'keyup', 'mousedown', 'mouseup', 'mousemove', 'wheel', 'touchstart', 'touchend', 'touchmove'];

// After the simulator has stopped (a Go panic ended Ebiten's game loop, or RunGame never
// ran: no WebGL2), Ebiten still redraws on every window resize, and outside its loop that
// panics ("NewImage cannot be called after RunGame finishes") and ends the Go program. So the
// resize listeners Go adds while it starts are wrapped, and freeze() turns them off. Once
// the Go program has exited, the callbacks it left behind (animation frames, timers,
// listeners) would throw "Go program has already exited" each time they fire; they are
// dropped instead: the page has said that the simulator stopped.

// runInContainer runs the Go program instance with go (a wasm_exec.js Go) so that Ebiten
// puts its canvas in container. It returns the canvas, the promise go.run returns, which
// settles when the Go program exits, and freeze, which turns off Ebiten's redraws on resize
// once the simulator has stopped.
export function runInContainer(go, instance, container) {
  const real = Object.getOwnPropertyDescriptor(Document.prototype, 'body');
  if (!real || typeof go._resume !== 'function') {
    throw new Error('this version of wasm_exec.js cannot be hosted in a page layout');
  }
  let depth = 0; // how many Go calls are running
  Object.defineProperty(document, 'body', {
    configurable: true,
    get() { return depth > 0 ? container : real.get.call(this); },
    set(v) { real.set.call(this, v); },
  });
  const resume = go._resume;
  go._resume = function () {
    if (this.exited) {
      // A callback of a Go program that has exited. A timer's would call again while its
      // timeout is pending (wasm_exec.js's workaround for golang/go#28975): none is.
      if (this._scheduledTimeouts) this._scheduledTimeouts.clear();
      return undefined;
    }
    depth++;
    try { return resume.call(this); } finally { depth--; }
  };

  let frozen = false;
  const own = Object.prototype.hasOwnProperty.call(window, 'addEventListener');
  const add = window.addEventListener;
  window.addEventListener = function (type, fn, ...rest) {
    const wrapped = type === 'resize' && typeof fn === 'function'
      ? function (e) { return frozen ? undefined : fn.call(this, e); }
      : fn;
    return add.call(this, type, wrapped, ...rest);
  };
  depth++;
  let exited;
  try {
    exited = go.run(instance);
  } finally {
    depth--;
    if (own) window.addEventListener = add;
    else delete window.addEventListener;
  }
  const canvas = container.querySelector('canvas');
  if (!canvas) throw new Error('the grid did not start (no canvas)');
  tidy(container, canvas);
  follow(container);
  shield(canvas);
  return { canvas, exited, freeze() { frozen = true; } };
}

// tidy undoes what Ebiten sets up for a canvas that fills the page.
function tidy(container, canvas) {
  for (const p of ['background-color', 'height', 'margin', 'padding']) container.style.removeProperty(p);
  for (const p of ['height', 'margin', 'padding']) document.documentElement.style.removeProperty(p);
  canvas.style.removeProperty('outline');
  canvas.tabIndex = 0; // Ebiten sets 1, which would put it first in the tab order
  const metas = document.head.querySelectorAll('meta[name="viewport"]');
  for (let i = 1; i < metas.length; i++) metas[i].remove(); // Ebiten adds a second one
  if (document.activeElement === canvas) canvas.blur(); // Ebiten focuses it at start
}

// follow tells Ebiten when the container changes size. Ebiten only re-reads the size on
// window resize events, and the container can change without one. The first call comes at
// once: Ebiten measured the container while its own styles still collapsed it.
function follow(container) {
  let w = -1, h = -1;
  new ResizeObserver(() => {
    if (container.clientWidth === w && container.clientHeight === h) return;
    w = container.clientWidth;
    h = container.clientHeight;
    window.dispatchEvent(new Event('resize'));
  }).observe(container);
}

// shield keeps the events Ebiten listens to from reaching its canvas listeners: they are
// stopped while capturing at window. Other capturing listeners on window still see them, so
// that is where the page listens for keys and the wheel; pointer events, which the page uses
// for the grid, are not touched.
function shield(canvas) {
  for (const type of EBITEN_EVENTS) {
    window.addEventListener(type, (e) => {
      if (e.target === canvas) e.stopPropagation();
    }, { capture: true, passive: true });
  }
}
