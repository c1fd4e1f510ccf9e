// The experiment worker: runs the worker wasm (wasm/worker, no Ebiten) off the page's
// thread, so that sweeps over pools of millions of buffers and timing measurements never
// freeze the page. experiments.js starts it and talks to it.
//
// The page's first message is {type: "init", execURL, wasmURL}: absolute URLs of Go's
// wasm_exec.js and the worker wasm (a worker resolves relative URLs against its own script,
// which lives elsewhere). Messages that arrive before the Go program is running wait; then
// every message goes to the Go program (bufferscopeWorker.handle), which answers with
// postMessage itself, beginning with {type: "ready"}.

let waiting = [];
let handle = null;

self.onmessage = (e) => {
  const msg = e.data;
  if (msg && msg.type === 'init') {
    start(msg).catch((err) => {
      postMessage({ type: 'fatal', message: `The experiment worker could not start: ${err && err.message || err}` });
    });
  } else if (handle) {
    handle(msg);
  } else {
    waiting.push(msg);
  }
};

// sameOrigin returns url if it belongs to this site, and throws otherwise.
function sameOrigin(url) {
  const u = new URL(url);
  if (u.origin !== self.location.origin) throw new Error(`${url} is not on this site`);
  return u.href;
}

async function start({ execURL, wasmURL }) {
  if (handle) return;
  importScripts(sameOrigin(execURL));
  const go = new self.Go();
  const res = await fetch(sameOrigin(wasmURL));
  if (!res.ok) throw new Error(`GET ${wasmURL}: ${res.status} ${res.statusText}`);
  const { instance } = typeof WebAssembly.instantiateStreaming === 'function'
    ? await WebAssembly.instantiateStreaming(res, go.importObject)
    : await WebAssembly.instantiate(await res.arrayBuffer(), go.importObject);
  // The Go program installs bufferscopeWorker and says "ready" before go.run returns.
  go.run(instance).then(() => {
    handle = null;
    postMessage({ type: 'fatal', message: 'The experiment worker stopped.' });
  });
  const api = self.bufferscopeWorker;
  if (!api) throw new Error('the worker wasm did not start');
  handle = (m) => api.handle(m);
  const early = waiting;
  waiting = [];
  early.forEach(handle);
}
