// bufferscope's page: downloads the simulator, starts it in the grid, and connects the
// controls, counters, legend and buffer details to it through the bridge (its API: bufferscope.d.ts).

import * as errors from './errors.js';
import * as theme from './theme.js';
import * as counters from './counters.js';
import * as legend from './legend.js';
import { Controls } from './controls.js';
import { Tooltip, Inspector } from './inspect.js';
import { init as initInput } from './input.js';
import { download, captureGoOutput, LoadError } from './loader.js';
import { runInContainer } from './host.js';
import { readQuery, State } from './url.js';
import { megabytes } from './format.js';

const $ = (id) => document.getElementById(id);

// DEFAULT_SPEED and REDUCED_SPEED match wasm/playback's Default and DefaultReduced.
const DEFAULT_SPEED = 1000;
const REDUCED_SPEED = 100;

function showProgress(loaded, total) {
  const bar = $('progress-bar');
  if (total > 0) {
    bar.max = total;
    bar.value = Math.min(loaded, total);
    $('progress-text').textContent = `Loading the simulator… ${megabytes(loaded)} of ${megabytes(total)}`;
  } else {
    bar.removeAttribute('value'); // indeterminate: the size is not known
    $('progress-text').textContent = loaded > 0 ? `Loading the simulator… ${megabytes(loaded)}` : 'Loading the simulator…';
  }
}

function fatal(message, detail) {
  const p = $('progress');
  p.hidden = false;
  $('progress-bar').hidden = true;
  $('progress-text').textContent = 'The simulator is not running.';
  errors.show('The simulator could not run', [message], detail);
}

// waitForFrame resolves once the grid has drawn a frame after the given count.
function waitForFrame(bs, after) {
  return new Promise((resolve) => {
    const check = () => {
      const s = bs.stats();
      if (s && s.frames > after) resolve();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

async function start() {
  errors.init();
  const query = readQuery();
  const goOutput = captureGoOutput();
  const grid = $('grid');

  let loaded;
  try {
    loaded = await download(__WASM_URL__, showProgress);
  } catch (err) {
    const e = err instanceof LoadError ? err : new LoadError('The simulator could not be loaded.', String(err));
    fatal(e.message, e.detail);
    return;
  }
  $('progress-text').textContent = 'Starting…';

  let started;
  try {
    started = runInContainer(loaded.go, loaded.instance, grid);
  } catch (err) {
    fatal('The simulator could not be started in this browser.', `${err && err.stack || err}\n${goOutput()}`);
    return;
  }
  const { canvas, exited } = started;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-describedby', 'grid-help legend-heading');
  exited.then(() => {
    const out = goOutput();
    const memory = /out of memory/i.test(out);
    fatal(memory
      ? 'The simulator ran out of memory. Choose a smaller shared_buffers and reload.'
      : 'The simulator stopped unexpectedly. Reload the page to start again.', out);
  });
  window.addEventListener('bufferscope:error', (e) => {
    const d = e.detail || {};
    if (d.fatal) fatal(d.message, goOutput());
    else errors.show('The simulation stopped', [d.message || 'unknown error'], goOutput());
  });

  const bs = window.bufferscope;
  if (!bs) {
    fatal('The simulator started but did not answer.', goOutput());
    return;
  }
  $('app-version').textContent = bs.version;
  bs.setTheme(theme.current());
  bs.setReducedMotion(theme.reducedMotion());

  const tooltip = new Tooltip();
  const inspector = new Inspector(bs);
  let pointer = null; // last client point over the grid, for live tooltip updates

  const refreshLegend = () => legend.render(bs, { reducedMotion: theme.reducedMotion() });
  // showView shows zoom and pan wherever the page mentions them.
  const showView = (v) => {
    if (!v || v.ok === false) return;
    counters.showView(v);
    legend.showAggregate(v);
    canvas.classList.toggle('zoomed', v.zoomed); // touch: pan the grid, not the page
  };
  const state = new State(query);
  const controls = new Controls(bs, state, {
    loaded() {
      inspector.clear();
      tooltip.hide();
      refreshLegend();
      showView(bs.view());
      const st = bs.stats();
      canvas.setAttribute('aria-label', `Shared buffer pool of ${st.sharedBuffers}: ${st.nbuffers} buffers, drawn as a grid`);
    },
  });

  theme.init((t) => {
    bs.setTheme(t);
    refreshLegend();
  }, (reduced) => {
    bs.setReducedMotion(reduced);
    refreshLegend();
  });

  // The address first: bad values are explained and replaced with safe ones.
  const res = controls.load(query.params, null);
  let speed = theme.reducedMotion() ? REDUCED_SPEED : DEFAULT_SPEED;
  if (query.page.speed !== undefined) speed = query.page.speed;
  const sp = controls.setSpeed(speed);
  const problems = [
    ...((res && res.warnings) || []),
    ...query.unknown.map((k) => `"${k}" is not a setting of this page; it was ignored`),
    ...(sp.warnings || []),
  ];
  if (problems.length) errors.show('Some settings in the address were not valid', problems.map((w) => `${w}.`));

  initInput(bs, canvas, {
    hover(x, y) {
      pointer = [x, y];
      const info = bs.inspect(x, y);
      tooltip.show(info, x, y);
      bs.highlight(info ? info.buffer : inspector.id);
    },
    leave() {
      pointer = null;
      tooltip.hide();
      bs.highlight(inspector.id);
    },
    select(x, y, type) {
      const info = bs.inspect(x, y);
      inspector.select(info ? info.buffer : null);
      if (type !== 'mouse') {
        pointer = info ? [x, y] : null;
        tooltip.show(info, x, y);
      }
    },
    view(v) {
      showView(v);
      if (pointer) tooltip.show(bs.inspect(...pointer), ...pointer);
    },
    togglePlay: () => controls.togglePlay(),
    step: () => controls.step(),
    reset: () => controls.reset(),
    escape() {
      pointer = null;
      tooltip.hide();
      inspector.select(null);
    },
  });

  // A tap elsewhere closes details a tap on the grid opened.
  document.addEventListener('pointerdown', (e) => {
    if (e.target !== canvas && pointer) {
      pointer = null;
      tooltip.hide();
      bs.highlight(inspector.id);
    }
  });

  bs.subscribe((s) => {
    counters.update(s);
    showView(bs.view()); // the canvas may have been resized
    if (pointer && tooltip.visible) tooltip.show(bs.inspect(...pointer), ...pointer);
    inspector.refresh();
  });

  for (const id of ['play', 'step', 'reset', 'speed', 'settings-fields', 'inspect-buffer']) $(id).disabled = false;
  if (query.page.play !== '0') bs.play();
  await waitForFrame(bs, 0);
  $('progress').hidden = true;
  document.body.dataset.ready = '1';
}

start().catch((err) => fatal('The page could not start.', String(err && err.stack || err)));
