// bufferscope's page: downloads the simulator, starts it in the grid, and connects each
// lab's controls and counters, the legend, the buffer details and the drop lab's charts to
// it through the bridge (its API: bufferscope.d.ts).

import * as errors from './errors.js';
import * as theme from './theme.js';
import * as counters from './counters.js';
import * as legend from './legend.js';
import { Controls } from './controls.js';
import { Playback } from './playback.js';
import { DropLab } from './drop.js';
import { CurveCard } from './dropchart.js';
import { MeasureCard } from './measure.js';
import { Tooltip, Inspector } from './inspect.js';
import { init as initInput } from './input.js';
import { download, captureGoOutput, LoadError } from './loader.js';
import { runInContainer } from './host.js';
import { readQuery, State, LABS } from './url.js';
import { megabytes } from './format.js';

const $ = (id) => document.getElementById(id);

// FREE_SPEED and FREE_REDUCED are free play's speeds when the address names none, as
// wasm/playback's Default and DefaultReduced; the second when the reader asks for reduced
// motion.
const FREE_SPEED = 1000;
const FREE_REDUCED = 100;

// dropSpeed is the drop lab's speed for a pool of nbuffers when the address names none: a
// step is one unit of replay (a WAL record, a descriptor checked, a block looked up), so
// about one full scan a second, the next speed of the slider's 1, 2, 5 ladder up from
// NBuffers; ten times slower for reduced motion.
function dropSpeed(nbuffers, reduced) {
  const p = 10 ** Math.floor(Math.log10(Math.max(nbuffers, 1)));
  const top = [1, 2, 5, 10].map((m) => m * p).find((v) => v >= nbuffers);
  return reduced ? top / 10 : top;
}

// showLab shows the parts of the page that belong to lab, and marks its tab.
function showLab(lab) {
  document.body.dataset.lab = lab;
  for (const a of document.querySelectorAll('[data-lab-link]')) {
    if (a.dataset.labLink === lab) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

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
  showLab(query.lab);
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
  let lab = query.lab;

  const refreshLegend = () => legend.render(bs, { reducedMotion: theme.reducedMotion(), lab });
  // showView shows zoom and pan wherever the page mentions them.
  const showView = (v) => {
    if (!v || v.ok === false) return;
    counters.showView(v);
    legend.showAggregate(v);
    canvas.classList.toggle('zoomed', v.zoomed); // touch: pan the grid, not the page
  };
  const state = new State(query);
  let curve = null;
  let measure = null;
  let playback = null;
  // chosen says for each lab whether its speed is the reader's (from the address or the
  // slider); otherwise the drop lab's follows its pool.
  const chosen = { free: false, drop: false };
  chosen[lab] = query.page.speed !== undefined;
  // defaultSpeed is lab's speed when the reader chose none.
  const defaultSpeed = (l) => (l === 'drop'
    ? dropSpeed(bs.stats().nbuffers, theme.reducedMotion())
    : theme.reducedMotion() ? FREE_REDUCED : FREE_SPEED);
  const onLoaded = () => {
    inspector.clear();
    tooltip.hide();
    refreshLegend();
    showView(bs.view());
    const st = bs.stats();
    canvas.setAttribute('aria-label', lab === 'drop'
      ? `Shared buffer pool of ${st.sharedBuffers} while a standby replays drops: ${st.nbuffers} buffers, drawn as a grid`
      : `Shared buffer pool of ${st.sharedBuffers}: ${st.nbuffers} buffers, drawn as a grid`);
    if (lab === 'drop' && curve) {
      curve.update();
      measure.update();
      if (!chosen.drop) playback.setSpeed(defaultSpeed('drop'));
    }
  };
  const controls = new Controls(bs, state, { loaded: onLoaded });
  const drop = new DropLab(bs, state, { loaded: onLoaded });
  playback = new Playback(bs, state, { reset: onLoaded, chose: () => { chosen[lab] = true; } });
  curve = new CurveCard(drop);
  measure = new MeasureCard(drop, { before: () => bs.pause() });

  theme.init((t) => {
    bs.setTheme(t);
    refreshLegend();
    curve.redraw();
    measure.redraw();
  }, (reduced) => {
    bs.setReducedMotion(reduced);
    refreshLegend();
  });

  // The address first: bad values are explained and replaced with safe ones.
  showLab(lab);
  const res = (lab === 'drop' ? drop : controls).load(query.params, null);
  const sp = playback.setSpeed(query.page.speed !== undefined ? query.page.speed : defaultSpeed(lab));
  const problems = [
    ...(query.problem ? [query.problem] : []),
    ...((res && res.warnings) || []),
    ...query.unknown.map((k) => `"${k}" is not a setting of ${lab === 'drop' ? 'the drop lab' : 'free play'}; it was ignored`),
    ...(sp.warnings || []),
  ];
  if (problems.length) errors.show('Some settings in the address were not valid', problems.map((w) => `${w}.`));

  // switchLab shows another lab with the settings it had last (its defaults the first
  // time); fromAddress applies the address instead, after Back or Forward.
  const switchLab = (next, fromAddress = null) => {
    if (next === lab && !fromAddress) return;
    bs.pause();
    errors.clear();
    lab = next;
    if (fromAddress) state.follow(next);
    else state.show(next);
    showLab(next);
    const params = fromAddress ? fromAddress.params : state.params[next];
    const r = (next === 'drop' ? drop : controls).load(params, fromAddress ? 'Some settings in the address were not valid' : null);
    if (fromAddress) chosen[next] = fromAddress.page.speed !== undefined;
    const speed = fromAddress && chosen[next] ? fromAddress.page.speed : chosen[next] ? state.speed[next] : defaultSpeed(next);
    playback.setSpeed(speed);
    if (r && r.ok !== false) bs.play();
  };
  for (const a of document.querySelectorAll('[data-lab-link]')) {
    a.addEventListener('click', (e) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; // a new tab
      e.preventDefault();
      switchLab(a.dataset.labLink);
    });
  }
  window.addEventListener('popstate', () => {
    const q = readQuery();
    if (LABS.includes(q.lab)) switchLab(q.lab, q);
  });

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
    togglePlay: () => playback.togglePlay(),
    step: () => playback.step(),
    reset: () => playback.reset(),
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
    playback.update(s);
    if (lab === 'drop') drop.update(s);
    else counters.update(s);
    showView(bs.view()); // the canvas may have been resized
    if (pointer && tooltip.visible) tooltip.show(bs.inspect(...pointer), ...pointer);
    inspector.refresh();
  });

  for (const id of ['play', 'step', 'reset', 'speed', 'settings-fields', 'drop-fields', 'inspect-buffer']) $(id).disabled = false;
  if (query.page.play !== '0') bs.play();
  await waitForFrame(bs, 0);
  $('progress').hidden = true;
  document.body.dataset.ready = '1';
}

start().catch((err) => fatal('The page could not start.', String(err && err.stack || err)));
