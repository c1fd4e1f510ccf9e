// Starting the simulator, shared by every page that shows it (index.html, embed.html):
// download the wasm with progress, run it so Ebiten's canvas lands in the page's grid, and
// hand back the bridge; and open the lab the address names. Each page supplies the same
// few elements: #grid with #progress, #progress-bar and #progress-text inside it, and the
// error panel of errors.js.

import * as errors from './errors.js';
import * as theme from './theme.js';
import { download, captureGoOutput, LoadError } from './loader.js';
import { runInContainer } from './host.js';
import { splitParams } from './url.js';
import { megabytes, quote } from './format.js';

const $ = (id) => document.getElementById(id);

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

// The state of the simulator, for an error report: the bridge once it runs, the last stats
// and parameters it sent (used when it can no longer answer: its Go program exited), and
// whether it has stopped for good.
const sim = { bs: null, stats: null, params: null, stopped: false, freeze: null, memory: null };

// heldBytes is the size of the simulator's WebAssembly memory: what the tab holds for it,
// which never shrinks while its Go program runs.
export function heldBytes() {
  return sim.memory && sim.memory.buffer ? sim.memory.buffer.byteLength : 0;
}

// stopped reports whether the simulator has stopped for good (fatal was called).
export function stopped() {
  return sim.stopped;
}

// enable enables the controls with these ids, unless the simulator has already stopped.
export function enable(ids) {
  if (sim.stopped) return;
  for (const id of ids) if ($(id)) $(id).disabled = false;
}

// disableControls disables what needs a running simulator: playback, the timeline, zoom,
// the settings and the inspector, on either page.
function disableControls() {
  const needs = '.playback button, .playback input, .playback select, .zoom button, #settings-fields, #inspect-buffer';
  for (const el of document.querySelectorAll(needs)) el.disabled = true;
}

// call asks the bridge for what fn reads, or returns null when it cannot answer.
function call(fn) {
  try {
    const v = sim.bs ? fn(sim.bs) : null;
    return v && v.ok !== false ? v : null;
  } catch {
    return null; // the Go program has exited
  }
}

// report writes the plain-text report of a failure for a bug report: what happened, where,
// the lab, its parameters, seed and step, the app's version, the browser, the Go stack and
// the Go program's last output.
function report(message, detail, facts) {
  const st = call((bs) => bs.stats()) || sim.stats;
  const all = (call((bs) => bs.params()) || {}).params || sim.params;
  const { lab, ...params } = all || {};
  const version = sim.bs && typeof sim.bs.version === 'string' ? sim.bs.version : 'unknown (the simulator did not start)';
  const unknown = 'unknown (the simulator had not started a run)';
  const lines = [
    'bufferscope error report',
    `What happened: ${message}`,
  ];
  if (facts.where) lines.push(`Where: ${facts.where}`);
  if (facts.panic) lines.push(`Panic: ${facts.panic}`);
  lines.push(
    `Lab: ${(st && st.lab) || lab || unknown}`,
    `Parameters: ${all ? Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join(' ') : unknown}`,
    `Seed: ${st ? st.seed || '(none)' : unknown}`,
    `Step: ${st ? st.step : unknown}`,
    `App version: ${version}`,
    `Address: ${location.href}`,
    `Browser: ${navigator.userAgent}`,
    `Time: ${new Date().toISOString()}`,
  );
  if (facts.stack) lines.push('', 'Go stack:', facts.stack.trimEnd());
  if (detail) lines.push('', 'Details:', String(detail).trimEnd());
  return lines.join('\n');
}

// silence answers for a bridge whose Go program has exited, which would otherwise throw
// from every call: stats gives the last stats it sent, paused; the buffer lookups give
// null; every other method says the simulator has stopped.
function silence(bs) {
  if (!bs) return;
  const error = { ok: false, error: 'The simulator has stopped: reload the page to start again.' };
  const last = sim.stats ? { ...sim.stats, playing: false } : null;
  for (const k of Object.keys(bs)) {
    if (typeof bs[k] !== 'function') continue;
    if (k === 'stats') bs[k] = () => last;
    else if (k === 'inspect' || k === 'cellAt' || k === 'buffer') bs[k] = () => null;
    else bs[k] = () => error;
  }
}

// keepStill puts the grid as it was, drawn by the bridge (gridPNG), over the canvas that can
// no longer draw, and reports whether it could.
function keepStill() {
  const png = call((bs) => bs.gridPNG());
  const grid = $('grid');
  if (!png || !grid || grid.querySelector('.grid-still')) return Boolean(png);
  const img = document.createElement('img');
  img.className = 'grid-still';
  img.alt = 'The grid as it was when the simulator stopped';
  img.src = URL.createObjectURL(new Blob([png.data], { type: 'image/png' }));
  grid.append(img);
  return true;
}

// fatal shows that the simulator is not running, why and what to do, with a report of the
// failure (detail is its technical text; facts may add where, panic and the Go stack from
// the bridge's report of a crash). The controls that need the simulator are disabled; the
// grid keeps its last frame when the bridge can still draw it, and a message stands in for
// it otherwise.
export function fatal(message, detail = '', facts = {}) {
  const first = !sim.stopped;
  sim.stopped = true;
  if (sim.freeze) sim.freeze();
  document.body.dataset.stopped = '1';
  disableControls();
  if (!first) return; // the first report says what happened; the rest follows from it
  const st = call((bs) => bs.stats()) || sim.stats;
  const ran = Boolean(st && st.frames > 0); // the grid was drawn before it stopped
  const p = $('progress');
  p.hidden = false;
  $('progress-bar').hidden = true;
  $('progress-text').textContent = ran ? 'The simulator has stopped. Reload the page to start again.' : 'The simulator is not running.';
  p.classList.toggle('band', ran && keepStill());
  errors.show(ran ? 'The simulator stopped' : 'The simulator could not run', [message], report(message, detail, facts), { fatal: true });
}

// waitForFrame resolves once the grid has drawn a frame after the given count; never, once
// the simulator has stopped.
export function waitForFrame(bs, after) {
  return new Promise((resolve) => {
    const check = () => {
      if (sim.stopped) return;
      const s = bs.stats();
      if (s && s.frames > after) resolve();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

// boot downloads and starts the simulator in #grid. It returns {bs, canvas}, or null after
// showing why it could not (fatal), with the Go program's last output as technical details.
// onError(detail) hears the bridge's bufferscope:error events after the page's own
// handling, for pages that pass errors on.
export async function boot(wasmURL, onError = () => {}) {
  const goOutput = captureGoOutput();
  const grid = $('grid');
  let loaded;
  try {
    loaded = await download(wasmURL, showProgress);
  } catch (err) {
    const e = err instanceof LoadError ? err : new LoadError('The simulator could not be loaded. Reload the page to try again.', String(err));
    fatal(e.message, e.detail);
    onError({ message: e.message, fatal: true });
    return null;
  }
  $('progress-text').textContent = 'Starting…';

  let started;
  try {
    started = runInContainer(loaded.go, loaded.instance, grid);
  } catch (err) {
    const message = 'The simulator could not be started in this browser. Reload the page to try again, or use a recent Firefox, Chrome, Edge or Safari.';
    fatal(message, `${err && err.stack || err}\n${goOutput()}`);
    onError({ message, fatal: true });
    return null;
  }
  const { canvas, exited, freeze } = started;
  sim.freeze = freeze;
  sim.memory = loaded.instance.exports.mem || null;
  exited.then(() => {
    silence(window.bufferscope);
    const out = goOutput();
    const memory = /out of memory/i.test(out);
    const message = memory
      ? 'The simulator ran out of memory. Choose a smaller shared_buffers and reload the page.'
      : 'The simulator stopped unexpectedly (its Go program exited). Reload the page to start again.';
    fatal(message, out, { where: 'the Go program exited' });
    onError({ message, fatal: true });
  });
  window.addEventListener('bufferscope:error', (e) => {
    const d = e.detail || {};
    if (d.fatal) {
      fatal(d.message, [d.detail, goOutput()].filter(Boolean).join('\n'), { where: d.where, panic: d.panic, stack: d.stack });
    } else {
      errors.show('The simulation stopped', [d.message || 'unknown error'], goOutput());
    }
    onError({ message: d.message || 'unknown error', fatal: Boolean(d.fatal) });
  });

  const bs = window.bufferscope;
  if (!bs) {
    const message = 'The simulator started but did not answer. Reload the page to try again.';
    fatal(message, goOutput());
    onError({ message, fatal: true });
    return null;
  }
  sim.bs = bs;
  // The last state the bridge sent, for a report after its Go program has exited.
  bs.subscribe((s) => {
    if (!sim.stats || s.time.run !== sim.stats.time.run || s.lab !== sim.stats.lab) sim.params = (call((b) => b.params()) || {}).params || sim.params;
    sim.stats = s;
  });
  bs.setTheme(theme.current());
  bs.setReducedMotion(theme.reducedMotion());
  return { bs, canvas };
}

// openLab picks the lab the address (readQuery) names among labs (bufferscope.labs()), the
// first when it names none, and splits the address's values into that lab's parameters
// and the keys it does not know (unknown, in plain words, as splitParams says them).
// problems lists, in plain words, a lab name that is not a lab.
export function openLab(labs, query) {
  const problems = [];
  let lab = labs.find((l) => l.name === query.lab);
  if (!lab) {
    if (query.lab) problems.push(`lab ${quote(query.lab)} is not a lab of this page (${labs.map((l) => l.name).join(', ')}); showing ${labs[0].title}`);
    lab = labs[0];
  }
  const { params, unknown } = splitParams(lab, query.values);
  return { lab, params, unknown, problems };
}
