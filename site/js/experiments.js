// The page's side of the experiment worker (js/worker/main.js running wasm/worker): long
// experiments run there, off the page's thread, with progress and a cancel. The worker is
// started on the first job. Jobs run one at a time, in the order they were asked for.
//
// A worker can die under a job: its Go program panics or runs out of memory (the worker
// script says so), the script fails (an error event), a message cannot be read (a
// messageerror event), or the worker goes silent, terminated without a word. Then every job
// it held rejects with a WorkerError whose stopped is true and whose message says "The
// experiment stopped: … Run it again."; the next job starts a fresh worker.

// WorkerError is a failure of the worker itself or of a job, in words for the reader.
// stopped is true when the worker died under the job, which a rerun may well get past.
export class WorkerError extends Error {
  constructor(message, stopped = false) {
    super(message);
    this.stopped = stopped;
  }
}

// failure is the sentence a card shows for err, a job's rejection: a dead worker's says what
// happened and to run it again; any other failure follows what, such as "The chart could
// not be computed".
export function failure(err, what) {
  return err instanceof WorkerError && err.stopped ? err.message : `${what}: ${err && err.message || err}`;
}

// A worker that says nothing for SILENT_MS while it holds jobs is taken for dead: a browser
// can end a worker without any event. The page asks it every PING_MS, and the worker script
// answers at once between the Go program's turns, which a job yields at least every 30 ms;
// building a pool of millions of buffers takes a few seconds in one turn, seconds more on a
// slow device, so the limit is generous: a job wrongly stopped is worse than one found dead
// late.
const PING_MS = 5000;
const SILENT_MS = 120000;

let worker = null;
let started = 0; // workers started, for the tests' hook
let nextId = 1;
const jobs = new Map(); // id → {resolve, reject, onProgress, worker}

function absolute(url) {
  return new URL(url, document.baseURI).href;
}

function start() {
  if (worker) return worker;
  if (!__WORKER_URL__ || !__WORKER_WASM_URL__) throw new WorkerError('This build of the site has no experiment worker.');
  if (typeof Worker !== 'function' || typeof WebAssembly !== 'object') {
    throw new WorkerError('This browser cannot run experiments in the background: it needs Web Workers and WebAssembly.');
  }
  const w = new Worker(absolute(__WORKER_URL__));
  w.heard = performance.now();
  w.onmessage = (e) => {
    w.heard = performance.now();
    receive(w, e.data || {});
  };
  w.onerror = (e) => {
    e.preventDefault();
    stop(w, `the experiment worker failed (${e.message || 'an error in its script'})`);
  };
  w.onmessageerror = () => stop(w, 'a message from the experiment worker could not be read');
  // The worker resolves URLs against its own script, so it gets absolute ones.
  w.postMessage({ type: 'init', execURL: absolute(__WASM_EXEC_URL__), wasmURL: absolute(__WORKER_WASM_URL__) });
  watchEvery(w, SILENT_MS);
  worker = w;
  started++;
  return w;
}

// watchEvery takes worker w for dead once it has said nothing for silent ms while it holds
// jobs, asking it in between.
function watchEvery(w, silent) {
  clearInterval(w.watch);
  w.silent = silent;
  w.watch = setInterval(() => watch(w), Math.min(PING_MS, silent / 3));
}

// watch asks worker w whether it still runs, and takes it for dead when it has said nothing
// for w.silent ms while it holds jobs.
function watch(w) {
  const holds = [...jobs.values()].some((j) => j.worker === w);
  if (!holds) {
    w.heard = performance.now();
    return;
  }
  if (performance.now() - w.heard > w.silent) {
    stop(w, `the experiment worker stopped answering for ${Math.round(w.silent / 1000)} seconds`);
    return;
  }
  w.postMessage({ type: 'ping' });
}

// stop ends worker w and fails its jobs: the experiment stopped because of why.
function stop(w, why) {
  w.terminate();
  clearInterval(w.watch);
  if (worker === w) worker = null;
  for (const [id, j] of jobs) {
    if (j.worker === w) {
      jobs.delete(id);
      j.reject(new WorkerError(`The experiment stopped: ${why}. Run it again.`, true));
    }
  }
}

function receive(w, msg) {
  if (msg.type === 'fatal') {
    stop(w, /memory/i.test(msg.message) ? 'it ran out of memory; choose a smaller pool' : msg.message);
    return;
  }
  const j = jobs.get(msg.id);
  if (!j) return;
  switch (msg.type) {
    case 'progress':
      if (j.onProgress) j.onProgress(msg.done, msg.total, msg.label);
      break;
    case 'result':
      jobs.delete(msg.id);
      j.resolve(msg);
      break;
    case 'cancelled':
      jobs.delete(msg.id);
      j.resolve(null);
      break;
    case 'error':
      jobs.delete(msg.id);
      j.reject(new WorkerError(msg.message));
      break;
    default:
  }
}

// run asks the worker for the job named kind of the lab params.lab names, with params. It returns
// {promise, cancel, abandon}: the promise resolves to the result, or to null when the job was
// cancelled, and rejects with a WorkerError (stopped when the worker died under it).
// onProgress(done, total, label) follows it. abandon is cancel for a job whose page has gone
// (another lab's tab was opened): the worker stops it, and neither its progress nor its
// promise is heard of again.
export function run(kind, params, onProgress) {
  let w;
  try {
    w = start();
  } catch (err) {
    return { promise: Promise.reject(err), cancel() {}, abandon() {} };
  }
  const id = nextId++;
  const promise = new Promise((resolve, reject) => {
    jobs.set(id, { resolve, reject, onProgress, worker: w });
  });
  w.postMessage({ ...params, type: kind, id });
  return {
    promise,
    cancel() {
      if (jobs.has(id)) w.postMessage({ type: 'cancel', id });
    },
    abandon() {
      if (jobs.delete(id)) w.postMessage({ type: 'cancel', id });
    },
  };
}

// release ends the worker when no job is waiting, giving its memory back to the system:
// a WebAssembly memory never shrinks, and a 100GB pool grows it to over a gigabyte.
export function release() {
  if (worker && jobs.size === 0) {
    clearInterval(worker.watch);
    worker.terminate();
    worker = null;
  }
}

// The tests' hook (build serve -test-hooks; esbuild drops it from the site readers get):
// bufferscopeTest.killWorker(how, silentMs?) makes the worker die at the next progress of a
// job: "panic" (its Go program panics), "error" (its script throws) or "close" (it ends
// itself without a word, found by the silence check, whose limit silentMs shortens for
// that worker only). bufferscopeTest.workersStarted() counts the workers started.
if (__TEST_HOOKS__) {
  globalThis.bufferscopeTest = {
    killWorker(how, silentMs) {
      const w = start();
      if (silentMs > 0) watchEvery(w, silentMs);
      w.postMessage({ type: '__dieForTest', how });
      return true;
    },
    workersStarted: () => started,
  };
}
