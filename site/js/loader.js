// Downloading and starting the WebAssembly app, with progress.

// LoadError is a failure to download or start the app, with a message for the reader and
// the technical detail behind it.
export class LoadError extends Error {
  constructor(message, detail) {
    super(message);
    this.detail = detail || '';
  }
}

// download fetches the wasm at url and compiles it as it streams in, calling
// onProgress(loaded, total) as bytes arrive. total is 0 when unknown: when the server
// compresses the file (Content-Encoding), Content-Length counts the compressed bytes while
// the stream yields the decompressed ones, so it cannot be used. It returns
// {go, instance}, ready for go.run.
export async function download(url, onProgress) {
  if (typeof WebAssembly !== 'object' || typeof globalThis.Go !== 'function') {
    throw new LoadError('This browser cannot run the simulator: it needs WebAssembly.', 'WebAssembly or wasm_exec.js is missing');
  }
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new LoadError('The simulator could not be downloaded. Check your connection and reload the page.', String(err));
  }
  if (!res.ok) {
    throw new LoadError(`The simulator could not be downloaded (the server answered ${res.status}). Reload the page to try again.`, `GET ${url}: ${res.status} ${res.statusText}`);
  }
  const encoding = (res.headers.get('Content-Encoding') || 'identity').toLowerCase();
  const length = Number(res.headers.get('Content-Length')) || 0;
  const total = encoding === 'identity' ? length : 0;
  let loaded = 0;
  const count = (chunk) => {
    loaded += chunk.byteLength;
    onProgress(loaded, total);
  };
  onProgress(0, total);

  const go = new globalThis.Go();
  try {
    if (res.body && typeof WebAssembly.instantiateStreaming === 'function' && typeof TransformStream === 'function') {
      const counted = res.body.pipeThrough(new TransformStream({
        transform(chunk, ctl) { count(chunk); ctl.enqueue(chunk); },
      }));
      const streamed = new Response(counted, { headers: { 'Content-Type': 'application/wasm' } });
      const { instance } = await WebAssembly.instantiateStreaming(streamed, go.importObject);
      return { go, instance };
    }
    const bytes = await readAll(res, count);
    const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
    return { go, instance };
  } catch (err) {
    if (err instanceof LoadError) throw err;
    throw new LoadError('The simulator could not be started in this browser.', String(err && err.stack || err));
  }
}

// readAll reads a response body into one buffer, counting chunks as they arrive.
async function readAll(res, count) {
  if (!res.body) {
    const buf = await res.arrayBuffer();
    count(new Uint8Array(buf));
    return buf;
  }
  const reader = res.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    count(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

// captureGoOutput keeps the last lines the Go program wrote (panics go to stderr), for the
// error panel's technical details. wasm_exec.js writes through globalThis.fs.writeSync.
export function captureGoOutput(limit = 200) {
  const lines = [];
  const fs = globalThis.fs;
  if (!fs || typeof fs.writeSync !== 'function') return () => '';
  const decoder = new TextDecoder();
  const write = fs.writeSync.bind(fs);
  let partial = '';
  fs.writeSync = (fd, buf) => {
    partial += decoder.decode(buf);
    const parts = partial.split('\n');
    partial = parts.pop();
    lines.push(...parts);
    if (lines.length > limit) lines.splice(0, lines.length - limit);
    return write(fd, buf);
  };
  return () => lines.concat(partial ? [partial] : []).join('\n');
}
