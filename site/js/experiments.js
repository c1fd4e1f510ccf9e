// The page's side of the experiment worker (js/worker/main.js running wasm/worker): long
// experiments run there, off the page's thread, with progress and a cancel. The worker is
// started on the first job. Jobs run one at a time, in the order they were asked for.

// WorkerError is a failure of the worker itself or of a job, in words for the reader.
export class WorkerError extends Error {}

let worker = null;
let nextId = 1;
const jobs = new Map(); // id → {resolve, reject, onProgress}

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
  w.onmessage = (e) => receive(w, e.data || {});
  w.onerror = (e) => {
    e.preventDefault();
    stop(w, `The experiment worker failed: ${e.message || 'unknown error'}`);
  };
  // The worker resolves URLs against its own script, so it gets absolute ones.
  w.postMessage({ type: 'init', execURL: absolute(__WASM_EXEC_URL__), wasmURL: absolute(__WORKER_WASM_URL__) });
  worker = w;
  return w;
}

// stop ends worker w and fails its jobs with message.
function stop(w, message) {
  w.terminate();
  if (worker === w) worker = null;
  for (const [id, j] of jobs) {
    if (j.worker === w) {
      jobs.delete(id);
      j.reject(new WorkerError(message));
    }
  }
}

function receive(w, msg) {
  if (msg.type === 'fatal') {
    stop(w, /memory/i.test(msg.message) ? 'The experiment ran out of memory: choose a smaller pool.' : msg.message);
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
// cancelled, and rejects with a WorkerError. onProgress(done, total, label) follows it.
// abandon is cancel for a job whose page has gone (another lab's tab was opened): the worker
// stops it, and neither its progress nor its promise is heard of again.
export function run(kind, params, onProgress) {
  let w;
  try {
    w = start();
  } catch (err) {
    return { promise: Promise.reject(err), cancel() {} };
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
    worker.terminate();
    worker = null;
  }
}
