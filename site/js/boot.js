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

// fatal shows that the simulator is not running, and why.
export function fatal(message, detail) {
  const p = $('progress');
  p.hidden = false;
  $('progress-bar').hidden = true;
  $('progress-text').textContent = 'The simulator is not running.';
  errors.show('The simulator could not run', [message], detail);
}

// waitForFrame resolves once the grid has drawn a frame after the given count.
export function waitForFrame(bs, after) {
  return new Promise((resolve) => {
    const check = () => {
      const s = bs.stats();
      if (s && s.frames > after) resolve();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

// boot downloads and starts the simulator in #grid. It returns {bs, canvas}, or null after
// showing why it could not (fatal), with the Go program's last output as technical details. onError(detail) hears the bridge's bufferscope:error
// events after the page's own handling, for pages that pass errors on.
export async function boot(wasmURL, onError = () => {}) {
  const goOutput = captureGoOutput();
  const grid = $('grid');
  let loaded;
  try {
    loaded = await download(wasmURL, showProgress);
  } catch (err) {
    const e = err instanceof LoadError ? err : new LoadError('The simulator could not be loaded.', String(err));
    fatal(e.message, e.detail);
    onError({ message: e.message, fatal: true });
    return null;
  }
  $('progress-text').textContent = 'Starting…';

  let started;
  try {
    started = runInContainer(loaded.go, loaded.instance, grid);
  } catch (err) {
    fatal('The simulator could not be started in this browser.', `${err && err.stack || err}\n${goOutput()}`);
    onError({ message: 'The simulator could not be started in this browser.', fatal: true });
    return null;
  }
  const { canvas, exited } = started;
  exited.then(() => {
    const out = goOutput();
    const memory = /out of memory/i.test(out);
    const message = memory
      ? 'The simulator ran out of memory. Choose a smaller shared_buffers and reload.'
      : 'The simulator stopped unexpectedly. Reload the page to start again.';
    fatal(message, out);
    onError({ message, fatal: true });
  });
  window.addEventListener('bufferscope:error', (e) => {
    const d = e.detail || {};
    if (d.fatal) fatal(d.message, goOutput());
    else errors.show('The simulation stopped', [d.message || 'unknown error'], goOutput());
    onError({ message: d.message || 'unknown error', fatal: Boolean(d.fatal) });
  });

  const bs = window.bufferscope;
  if (!bs) {
    fatal('The simulator started but did not answer.', goOutput());
    onError({ message: 'The simulator started but did not answer.', fatal: true });
    return null;
  }
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
