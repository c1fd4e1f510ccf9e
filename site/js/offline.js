// Offline use: the main page asks the browser to keep the site (the service worker of
// js/sw/main.js, served as sw.js), so that after a first visit every lab and its experiments
// work without a connection. The embed does not ask: a frame in someone else's page should
// not start downloading the whole site before its reader has played it.

// keep registers the service worker once the page runs, so that its downloads (answered
// mostly by the browser's cache) never compete with the simulator's, and looks for a new
// deploy at once: browsers look by themselves only when a page has stayed idle a while, and
// a reader should not need two visits to get new files. A browser without service workers,
// or a page not served over https or from this machine, simply goes without.
export function keep() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('sw.js').then((reg) => {
    if (!reg.active) return undefined; // just installed: it is this deploy
    return reg.update().catch(() => {}); // offline: keep what is kept
  }, (err) => {
    console.warn(`bufferscope: the site cannot be kept for offline use: ${err}`);
  });
}
