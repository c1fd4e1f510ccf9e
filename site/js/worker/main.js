// The experiment worker: runs the worker wasm (wasm/worker, no Ebiten) off the page's
// thread, so that sweeps over pools of millions of buffers and timing measurements never
// freeze the page. experiments.js starts it and talks to it.
//
// The page's first message is {type: "init", execURL, wasmURL}: absolute URLs of Go's
// wasm_exec.js and the worker wasm (a worker resolves relative URLs against its own script,
// which lives elsewhere). Messages that arrive before the Go program is running wait; then
// every message goes to the Go program (bufferscopeWorker.handle), which answers with
// postMessage itself, beginning with {type: "ready"}. The script answers {type: "ping"}
// itself with {type: "pong"}, so the page knows the worker lives, and when the Go program
// exits (a panic, running out of memory) it posts {type: "fatal", message} with the reason
// the program gave.

let waiting = [];
let handle = null;

self.onmessage = (e) => {
  const msg = e.data;
  if (msg && msg.type === 'ping') {
    postMessage({ type: 'pong' });
  } else if (msg && msg.type === 'init') {
    start(msg).catch((err) => {
      postMessage({ type: 'fatal', message: `the experiment worker could not start (${err && err.message || err})` });
    });
  } else if (__TEST_HOOKS__ && msg && msg.type === '__dieForTest' && msg.how !== 'panic') {
    dieForTest(msg.how);
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

// goOutput keeps the last lines the Go program wrote (wasm_exec.js writes through
// fs.writeSync), where a panic or "fatal error: out of memory" says why it exited.
function goOutput(limit = 50) {
  const lines = [];
  const fs = self.fs;
  if (!fs || typeof fs.writeSync !== 'function') return () => [];
  const decoder = new TextDecoder();
  const write = fs.writeSync.bind(fs);
  let partial = ''; // Go writes a line in pieces: "panic: ", then the value
  fs.writeSync = (fd, buf) => {
    const parts = (partial + decoder.decode(buf)).split('\n');
    partial = parts.pop();
    lines.push(...parts);
    if (lines.length > limit) lines.splice(0, lines.length - limit);
    return write(fd, buf);
  };
  return () => (partial ? lines.concat(partial) : lines);
}

async function start({ execURL, wasmURL }) {
  if (handle) return;
  importScripts(sameOrigin(execURL));
  const output = goOutput();
  const go = new self.Go();
  const res = await fetch(sameOrigin(wasmURL));
  if (!res.ok) throw new Error(`GET ${wasmURL}: ${res.status} ${res.statusText}`);
  const { instance } = typeof WebAssembly.instantiateStreaming === 'function'
    ? await WebAssembly.instantiateStreaming(res, go.importObject)
    : await WebAssembly.instantiate(await res.arrayBuffer(), go.importObject);
  // The Go program installs bufferscopeWorker and says "ready" before go.run returns.
  go.run(instance).then(() => {
    handle = null;
    const why = output().find((l) => /^(panic|fatal error): /.test(l));
    postMessage({ type: 'fatal', message: why ? `the experiment worker crashed (${why})` : 'the experiment worker stopped' });
  });
  const api = self.bufferscopeWorker;
  if (!api) throw new Error('the worker wasm did not start');
  handle = (m) => api.handle(m);
  const early = waiting;
  waiting = [];
  early.forEach(handle);
}

// dieForTest is the tests' hook (build serve -test-hooks; esbuild drops it from the site
// readers get): at the next progress of a job the script throws ("error"), which the page
// hears as an error event, or ends the worker without a word ("close"). From then on
// nothing it posts reaches the page, as from a script that has failed: the job cannot
// finish first by chance. The Go program takes "panic" itself
// (wasm/worker/testhooks_on.go).
function dieForTest(how) {
  const post = self.postMessage.bind(self);
  let dead = false;
  self.postMessage = (m, ...rest) => {
    if (dead) return;
    post(m, ...rest);
    if (!m || m.type !== 'progress') return;
    dead = true;
    if (how === 'close') self.close();
    else setTimeout(() => { throw new Error('bufferscope test hook: the worker script fails mid-job'); });
  };
}
