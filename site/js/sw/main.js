// The service worker (sw.js at the site's root, written by the build from this file): after
// a first visit the playground works offline, every lab and the experiment worker included.
//
// The build gives it two constants: __SW_CACHE__, the cache of this build ("bufferscope-" and
// a hash of every file it lists, so a new deploy gets a new name and a new sw.js), and
// __SW_FILES__, the site's files, relative to the scope: the pages and every hashed asset
// (the wasm modules, the worker's script and wasm, scripts, styles).
//
// - install: caches every file of this build (the browser's HTTP cache answers the hashed
//   assets the page has just loaded, so the first visit downloads little twice), then takes
//   over at once;
// - activate: deletes the caches of earlier builds, so a new deploy's files replace the old;
// - fetch: pages network first (a deploy shows at once), falling back to the cached page when
//   offline; hashed assets cache first (their names change with their bytes); anything else
//   of this origin network first with the cache behind it. Other origins are never fetched
//   here: the site makes no such request.

const CACHE = __SW_CACHE__;
const FILES = __SW_FILES__;
const PREFIX = 'bufferscope-';

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    event.respondWith(page(req, url));
  } else if (url.pathname.startsWith(new URL('assets/', self.registration.scope).pathname)) {
    event.respondWith(cacheFirst(req));
  } else {
    event.respondWith(networkFirst(req));
  }
});

// page answers a navigation from the network, or when offline with the cached page at the
// same path, whatever its query (?lab=ring), trying path.html as the host does for /embed.
async function page(req, url) {
  try {
    return await fetch(req);
  } catch (err) {
    const cache = await caches.open(CACHE);
    const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
    for (const candidate of [path, `${path}.html`]) {
      const hit = await cache.match(new URL(candidate, url.origin).href, { ignoreSearch: true });
      if (hit) return hit;
    }
    throw err;
  }
}

async function cacheFirst(req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}

async function networkFirst(req) {
  try {
    return await fetch(req);
  } catch (err) {
    const hit = await (await caches.open(CACHE)).match(req, { ignoreSearch: true });
    if (hit) return hit;
    throw err;
  }
}
