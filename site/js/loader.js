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
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new LoadError('This browser cannot run the simulator: it needs WebAssembly, which is switched off or not supported here. '
      + 'Turn WebAssembly (or the JavaScript JIT) back on in the browser\'s settings, or open the page in a recent Firefox, Chrome, Edge or Safari, then reload.',
    'typeof WebAssembly is ' + typeof WebAssembly);
  }
  if (typeof globalThis.Go !== 'function') {
    throw new LoadError('The simulator could not be started: part of the page (wasm_exec.js) did not load. Reload the page to try again.', 'globalThis.Go is missing: wasm_exec.js did not run');
  }
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new LoadError('The simulator could not be downloaded: the connection failed. Check your connection and reload the page.', `GET ${url}: ${err}`);
  }
  if (!res.ok) {
    throw new LoadError(`The simulator could not be downloaded: the server answered ${res.status}${res.statusText ? ` (${res.statusText})` : ''}. `
      + 'Reload the page to try again; if it keeps failing, the site may be being updated: try again in a few minutes.', `GET ${url}: ${res.status} ${res.statusText}`);
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
    throw startError(url, err);
  }
}

// startError says in words why the downloaded module could not be compiled or started.
function startError(url, err) {
  const detail = `${url}: ${err && err.stack || err}`;
  const name = err && err.name;
  if (name === 'CompileError' || name === 'TypeError' && /MIME/i.test(String(err.message))) {
    return new LoadError('The simulator\'s file arrived damaged: it is not a WebAssembly program. Reload the page to download it again; '
      + 'if it keeps happening, something between you and the site (a proxy, a filter or an extension) may be changing the download.', detail);
  }
  if (name === 'TypeError') {
    return new LoadError('The download of the simulator broke off. Check your connection and reload the page.', detail);
  }
  if (name === 'RangeError' || /memory/i.test(String(err && err.message))) {
    return new LoadError('This device did not give the simulator enough memory to start. Close other tabs and reload the page.', detail);
  }
  return new LoadError('The simulator could not be started in this browser. Reload the page to try again, or open it in a recent Firefox, Chrome, Edge or Safari.', detail);
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
