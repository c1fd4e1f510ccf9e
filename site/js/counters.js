// Free play's live counters (#c-*) and the pool summary above the grid, from the stats the
// bridge sends.

import { count, percent, seconds } from './format.js';

const $ = (id) => document.getElementById(id);

// set shows a counter: its value in data-value (which tests read) and its text.
export function set(id, value, text) {
  const node = $(id);
  const v = String(value);
  if (node.dataset.value === v && node.textContent === text) return;
  node.dataset.value = v;
  node.textContent = text;
}

// update shows one stats object.
export function update(s) {
  set('c-hit-ratio', s.hitRatio, percent(s.hitRatio, s.accesses));
  set('c-hits', s.hits, count(s.hits));
  set('c-misses', s.misses, count(s.misses));
  set('c-evictions', s.evictions, count(s.evictions));
  set('c-dirty-writes', s.dirtyWrites, count(s.dirtyWrites));
  set('c-bgwriter-writes', s.bgwriterWrites, count(s.bgwriterWrites));
  set('c-wal-flushes', s.walFlushes, count(s.walFlushes));
  set('c-wal-backend', s.walFlushesBackend, count(s.walFlushesBackend));
  set('c-wal-writer', s.walFlushesWriter, count(s.walFlushesWriter));
  set('c-time', s.now, seconds(s.now));
  set('c-step', s.step, count(s.step));

  const playing = Boolean(s.playing);
  let rate = 'Paused.';
  if (s.error) rate = 'Stopped: reset to start again.';
  else if (playing) rate = s.rate > 0 ? `Running at ${count(s.rate)} steps per second of your time.` : 'Running…';
  text('c-rate', rate);
  text('pool-size', `${s.sharedBuffers} · ${count(s.nbuffers)} buffers`);
}

// text sets a node's text when it differs, so updates ten times a second cost nothing
// when nothing changed.
export function text(id, t) {
  const node = $(id);
  if (node.textContent !== t) node.textContent = t;
}

// showView shows the zoom in the pool summary and the hint under the grid, and enables the
// zoom buttons that can act.
export function showView(view) {
  if (!view || view.ok === false) return;
  text('pool-scale', `· ${view.label}`);
  text('grid-help', view.block > 1
    ? `Each pixel stands for ${count(view.block * view.block)} buffers (${view.block} × ${view.block}); zoom in to see single buffers. Hover or tap to inspect, scroll or pinch to zoom, drag to pan.`
    : 'Each cell is one buffer. Hover or tap a cell to inspect it; scroll or pinch to zoom, drag to pan.');
  $('zoom-in').disabled = !view.canZoomIn;
  $('zoom-out').disabled = !view.canZoomOut;
  $('zoom-fit').disabled = !view.zoomed;
}
