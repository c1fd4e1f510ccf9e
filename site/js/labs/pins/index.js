// The pins lab's page: its introduction, the notes under its controls, the leftmost leaves
// drawn large with their items (leaves.js), a chart of the run's transactions per second
// slice by slice, and the comparisons of both policies run in the background (compare.js).
// Everything else (form, counters, legend, playback) is the page's own, built from the
// lab's tables.

import { tour, exercises } from './guide.js';
import { LeavesCard } from './leaves.js';
import { CompareCards, HTML as COMPARE } from './compare.js';

// The static HTML of the cards: no data is ever interpolated into it.
const WIDE = `    <section class="card leaves-card" id="pins-leaves-card" aria-labelledby="pins-leaves-heading">
      <div class="card-head">
        <h2 id="pins-leaves-heading">The leftmost leaves, the hottest</h2>
      </div>
      <p class="muted small leaf-key"><span aria-hidden="true">■</span> live item · <span aria-hidden="true">□</span> dead, not marked · <span aria-hidden="true">☒</span> LP_DEAD · 📌 pins · ✓ hint set · ✗ hint lost · ⏳ VACUUM waits for the pins</p>
      <div class="leaves" id="pins-leaves"></div>
      <p id="pins-leaves-summary" class="summary" aria-live="off"></p>
    </section>
    <section class="card chart-card" id="pins-slices-card" aria-labelledby="pins-slices-heading">
      <div class="card-head">
        <h2 id="pins-slices-heading">Transactions per second, slice by slice</h2>
      </div>
      <div class="chart" id="pins-slices" role="img" aria-labelledby="pins-slices-heading" aria-describedby="pins-slices-summary">
        <p class="chart-empty">The chart appears here once the first slice ends.</p>
      </div>
      <p id="pins-slices-summary" class="summary" aria-live="off"></p>
    </section>
${COMPARE}`;

const SVG_NS = 'http://www.w3.org/2000/svg';
let chart = null;
let summary = null;
let leaves = null;
let compare = null;
let last = '';

// draw plots the slices' TPS as a line from the numbers in csv, with the mean and the
// coefficient of variation written under it.
function draw(csv) {
  if (!chart || csv === last) return;
  last = csv;
  const ys = csv ? csv.split(',').map(Number) : [];
  if (ys.length === 0) return;
  const w = 600;
  const h = 160;
  const top = Math.max(...ys, 1);
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('width', '100%');
  svg.setAttribute('height', String(h));
  const line = document.createElementNS(SVG_NS, 'polyline');
  const step = ys.length > 1 ? w / (ys.length - 1) : 0;
  line.setAttribute('points', ys.map((y, i) => `${(i * step).toFixed(1)},${(h - 4 - (y / top) * (h - 8)).toFixed(1)}`).join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  svg.append(line);
  chart.replaceChildren(svg);
  const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sd = Math.sqrt(ys.reduce((a, b) => a + (b - mean) * (b - mean), 0) / ys.length);
  summary.textContent = `${ys.length} slices: mean ${Math.round(mean).toLocaleString()} TPS, lowest ${Math.round(Math.min(...ys)).toLocaleString()}, highest ${Math.round(top).toLocaleString()}, coefficient of variation ${(mean ? sd / mean : 0).toFixed(3)}.`;
}

export default {
  tour,
  exercises,

  // speed is the lab's speed when the reader chose none: a step is one event of the server
  // (a phase of a backend's transaction), so a 5 ms slice of the default load ends about
  // every half second.
  speed: (stats, reduced) => (reduced ? 2000 : 20000),
  intro: `<p>Index scans that find entries pointing at dead rows mark them <code>LP_DEAD</code> so later scans skip them. Before PostgreSQL 9.5 a scan kept its pin on the B-tree leaf, so the mark was always safe, but VACUUM's cleanup lock had to wait for the pin. Since 9.5 an MVCC scan of a logged index drops the pin, and may set the mark only if the page's LSN has not moved meanwhile: on hot pages many marks are lost.</p>
    <p>Run a pgbench-like load under each pin policy and watch hints set and lost, dead items, splits, VACUUM waiting for pins, and transactions per second. Hover a leaf to list its items.</p>`,
  settingsTitle: 'Server and load',

  mount({ bs, wide }) {
    wide.innerHTML = WIDE;
    chart = wide.querySelector('#pins-slices');
    summary = wide.querySelector('#pins-slices-summary');
    leaves = new LeavesCard(bs, wide.querySelector('#pins-leaves'), wide.querySelector('#pins-leaves-summary'));
    compare = new CompareCards();
    last = '';
  },

  loaded(params, stats) {
    if (compare) compare.loaded(params);
    if (leaves) leaves.update(stats, true);
  },

  update(s) {
    if (s && s.counters) draw(s.counters.sliceTPS || '');
    if (s && leaves) leaves.update(s);
  },

  theme() {
    if (compare) compare.redraw();
  },

  notes(params) {
    const out = {};
    if (params.policy === 'drop-pin' && params.logged === 'false') {
      out.policy = 'Before PostgreSQL 19 an unlogged index\'s LSN never moves, so its scans keep the pin: this run behaves like keep-pin.';
    }
    if (params.index_only === 'true') {
      out.index_only = 'Index-only scans never drop the leaf pin, under any policy.';
    }
    return out;
  },

  unmount() {
    if (compare) compare.cancel();
    chart = summary = leaves = compare = null;
    last = '';
  },
};
