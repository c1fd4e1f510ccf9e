// The pins lab's page: its introduction, the notes under its controls, the leftmost leaves
// drawn large with their items (leaves.js), a chart of the run's transactions per second
// slice by slice, and the comparisons of both policies run in the background (compare.js).
// Everything else (form, counters, legend, playback) is the page's own, built from the
// lab's tables.
//
// Time: a run simulates its duration divided by the time scale (600s at scale 1000 is
// 600 ms of the server's time, op by op). Every time this page shows counts in that
// simulated server time: the counters' server time and run length, the slices (5s is 5 ms),
// the charts' time axes and VACUUM's naptime; the notes under the durations say so, and TPS
// is per simulated second.

import { tour, exercises } from './guide.js';
import { REAL } from './real.js';
import { LeavesCard } from './leaves.js';
import { CompareCards, HTML as COMPARE, sliceChart, sliceSummary, sliceTimes } from './compare.js';
import { exportButtons } from '../../exports.js';
import { count, seconds } from '../../format.js';
import { SQL } from './sql.js';

// The static HTML of the cards: no data is ever interpolated into it.
const WIDE = `    <section class="card leaves-card" id="pins-leaves-card" aria-labelledby="pins-leaves-heading">
      <div class="card-head">
        <h2 id="pins-leaves-heading">The leftmost leaves, the hottest</h2>
      </div>
      <p class="muted small leaf-key"><span aria-hidden="true">■</span> live item · <span aria-hidden="true">□</span> dead, not marked · <span aria-hidden="true">☒</span> LP_DEAD · <span aria-hidden="true">▌</span> pinned · <span aria-hidden="true">✓</span> hints set · <span aria-hidden="true">✗</span> hints lost · dashed frame: VACUUM waits for the pins</p>
      <div class="leaves" id="pins-leaves"></div>
      <p id="pins-leaves-summary" class="summary" aria-live="off"></p>
    </section>
    <section class="card chart-card" id="pins-slices-card" aria-labelledby="pins-slices-heading">
      <div class="card-head">
        <h2 id="pins-slices-heading">Transactions per second, slice by slice</h2>
        <div class="actions" id="pins-slices-actions" role="group" aria-label="Export the chart"></div>
      </div>
      <p class="muted small" id="pins-slices-note">Each point is one slice of simulated server time, as pgbench --progress prints them.</p>
      <div class="chart" id="pins-slices" role="img" aria-labelledby="pins-slices-heading" aria-describedby="pins-slices-summary">
        <p class="chart-empty" id="pins-slices-empty">The chart appears here once the first slice ends.</p>
      </div>
      <p id="pins-slices-summary" class="summary" aria-live="off"></p>
    </section>
${COMPARE}`;

let chart = null;
let summary = null;
let leaves = null;
let compare = null;
let last = '';
let first = 0; // the number, from 0, of the first slice the chart shows
let exports = null;

// draw plots the slices' TPS (csv, the sliceTPS counter: the last slices finished) against
// the simulated server time at each slice's end, with the mean, lowest, highest and
// coefficient of variation written under it.
function draw(c) {
  const csv = c.sliceTPS || '';
  if (!chart || csv === last) return;
  last = csv;
  const ys = csv ? csv.split(',').map(Number) : [];
  document.getElementById('pins-slices-empty').hidden = ys.length > 0;
  if (ys.length === 0) {
    chart.setData(null);
    summary.textContent = '';
    if (exports) exports.enable(false);
    return;
  }
  // The counter holds the last slices finished by now: the first of them is slice n - len.
  first = Math.floor(Math.min(c.now, c.runLength) / c.sliceSeconds + 1e-9) - ys.length;
  const xs = sliceTimes(first, ys.length, c.sliceSeconds);
  chart.setData(xs, [ys]);
  if (exports) exports.enable(true);
  summary.textContent = sliceSummary(ys, c.sliceSeconds);
}

export default {
  tour,
  exercises,
  sql: SQL,
  real: REAL,

  // speed is the lab's speed when the reader chose none: a step is one event of the server
  // (a phase of a backend's transaction), so a 5 ms slice of the default load ends about
  // every half second.
  speed: (stats, reduced) => (reduced ? 2000 : 20000),
  intro: `<p>Index scans that find entries pointing at dead rows mark them <code>LP_DEAD</code> so later scans skip them. Before PostgreSQL 9.5 a scan kept its pin on the B-tree leaf, so the mark was always safe, but VACUUM's cleanup lock had to wait for the pin. Since 9.5 an MVCC scan of a logged index drops the pin, and may set the mark only if the page's LSN has not moved meanwhile: on hot pages many marks are lost.</p>
    <p>Every cell is a page of the table pgbench_accounts (its heap pages, marked with a square) or of its index. Watch scans pin pages (a bar down the cell's left), hints set (a tick) and lost (a cross) on the leaves, and, with the pin kept, VACUUM waiting (an hourglass); the legend shows each. Hover a page to see its items or tuples. A run simulates its duration divided by the time scale, and every time here counts in that simulated server time.</p>`,
  settingsTitle: 'Server and load',

  mount({ bs, wide }) {
    wide.innerHTML = WIDE;
    chart = sliceChart(wide.querySelector('#pins-slices'), [{ label: 'tps', colour: '--chart-lookup' }]);
    summary = wide.querySelector('#pins-slices-summary');
    leaves = new LeavesCard(bs, wide.querySelector('#pins-leaves'), wide.querySelector('#pins-leaves-summary'));
    compare = new CompareCards();
    last = '';
    const title = 'bufferscope · pins: transactions per second, slice by slice';
    exports = exportButtons(wide.querySelector('#pins-slices-actions'), {
      id: 'pins-slices',
      name: () => 'bufferscope-pins-slices',
      title: () => title,
      rows: () => (chart && chart.data ? [['slice', 'server_time_ms', 'tps'], ...chart.data[0].map((x, i) => [first + i + 1, x, chart.data[1][i]])] : []),
      png: () => chart.png(title),
    });
    exports.enable(false);
  },

  loaded(params, stats) {
    if (compare) compare.loaded(params);
    if (leaves) leaves.update(stats, true);
  },

  update(s) {
    if (s && s.counters) draw(s.counters);
    if (s && leaves) leaves.update(s);
  },

  theme() {
    if (chart) chart.render();
    if (compare) compare.redraw();
  },

  // notes say, under each duration, how long it is in simulated server time, the time every
  // counter and chart of the page counts in.
  notes(params, stats) {
    const out = {};
    const c = stats && stats.lab === 'pins' && stats.counters;
    if (c && c.runLength > 0) {
      const scale = count(Number(params.scale));
      out.duration = `Simulated: ${seconds(c.runLength)} of server time (the duration ÷ time scale ${scale}). The counters' server time and the charts count in it; TPS is per simulated second.`;
      out.slice = `Each slice is ${seconds(c.sliceSeconds)} of simulated server time (÷ ${scale}).`;
      out.naptime = `VACUUM starts ${seconds(c.naptimeSeconds)} of simulated server time after the last one ended (÷ ${scale}).`;
      out.scale = `${params.duration} of pgbench becomes ${seconds(c.runLength)} of the server's time, simulated op by op.`;
    }
    if (params.policy === 'drop-pin' && params.logged === 'false') {
      out.policy = 'Before PostgreSQL 19 an unlogged index\'s LSN never moves, so its scans keep the pin: this run behaves like keep-pin.';
    }
    if (params.index_only === 'true') {
      out.index_only = 'Index-only scans never drop the leaf pin, under any policy.';
    }
    return out;
  },

  unmount() {
    if (compare) compare.abandon();
    chart = summary = leaves = compare = exports = null;
    last = '';
  },
};
