// The pins lab's page: its introduction, the notes under its controls, the leftmost leaves
// drawn large with their items (leaves.js), a chart of the run's transactions per second
// slice by slice, and the comparisons of both policies run in the background (compare.js).
// Everything else (form, counters, legend, playback) is the page's own, built from the
// lab's tables.

import { tour, exercises } from './guide.js';
import { LeavesCard } from './leaves.js';
import { CompareCards, HTML as COMPARE, tpsLine } from './compare.js';
import { exportButtons, svgPNG } from '../../exports.js';

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
        <div class="actions" id="pins-slices-actions" role="group" aria-label="Export the chart"></div>
      </div>
      <div class="chart" id="pins-slices" role="img" aria-labelledby="pins-slices-heading" aria-describedby="pins-slices-summary">
        <p class="chart-empty">The chart appears here once the first slice ends.</p>
      </div>
      <p id="pins-slices-summary" class="summary" aria-live="off"></p>
    </section>
${COMPARE}`;

let chart = null;
let summary = null;
let leaves = null;
let compare = null;
let last = '';
let exports = null;

// draw plots the slices' TPS as a line from the numbers in csv, with the mean and the
// coefficient of variation written under it.
function draw(csv) {
  if (!chart || csv === last) return;
  last = csv;
  const ys = csv ? csv.split(',').map(Number) : [];
  if (ys.length === 0) return;
  const h = 160;
  const svg = tpsLine(ys, Math.max(...ys, 1), 600, h);
  svg.setAttribute('height', String(h));
  chart.replaceChildren(svg);
  if (exports) exports.enable(true);
  const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sd = Math.sqrt(ys.reduce((a, b) => a + (b - mean) * (b - mean), 0) / ys.length);
  summary.textContent = `${ys.length} slices: mean ${Math.round(mean).toLocaleString()} TPS, lowest ${Math.round(Math.min(...ys)).toLocaleString()}, highest ${Math.round(top).toLocaleString()}, coefficient of variation ${(mean ? sd / mean : 0).toFixed(3)}.`;
}

// SQL is what a reader runs on a real server to see this lab's effect: the statements the
// fidelity harness runs (fidelity/lpdead.go), in psql, and a pgbench load like the lab's.
const SQL = {
  intro: 'make fidelity runs the first three on real servers of PostgreSQL 13 to 18 (pageinspect, autovacuum off); docs/fidelity.md sets its counts beside the simulation\'s. The last is a load like the lab\'s, not run by the harness.',
  blocks: [
    {
      title: 'Hints set by an index scan',
      note: 'One leaf page (block 1 of the index) whose 100 middle entries point at deleted rows. After the index scan, bt_page_items shows them marked dead (LP_DEAD).',
      code: `CREATE EXTENSION pageinspect;
CREATE TABLE lp_plain (id int PRIMARY KEY, filler text) WITH (autovacuum_enabled = off);
INSERT INTO lp_plain SELECT g, repeat('x', 400) FROM generate_series(1, 200) g;
VACUUM ANALYZE lp_plain;
DELETE FROM lp_plain WHERE id BETWEEN 50 AND 149;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT filler FROM lp_plain WHERE id BETWEEN 1 AND 200 ORDER BY id;
SELECT count(*) FROM bt_page_items('lp_plain_pkey', 1) WHERE dead;`,
    },
    {
      title: 'A hint lost: the page changed under the scan',
      note: 'Create lp_cursor_insert as lp_plain above (insert, VACUUM ANALYZE, delete). A cursor reads the leaf, another session inserts into it (its LSN moves), the cursor goes on: since 9.5 the scan had dropped its pin, so it may not mark the entries and none are dead.',
      code: `BEGIN;
DECLARE c CURSOR FOR SELECT filler FROM lp_cursor_insert WHERE id BETWEEN 1 AND 200 ORDER BY id;
FETCH 5 FROM c;
-- in another session: INSERT INTO lp_cursor_insert VALUES (201, 'new');
FETCH ALL FROM c;
CLOSE c;
COMMIT;
SELECT count(*) FROM bt_page_items('lp_cursor_insert_pkey', 1) WHERE dead;`,
    },
    {
      title: 'VACUUM waiting for a pin',
      note: 'Create pin_ios as lp_plain above. A cursor that keeps its pin (an index-only scan, or any scan before 9.5) blocks VACUUM\'s cleanup lock on the leaf; a third session sees it wait.',
      code: `-- session 1
BEGIN;
DECLARE c CURSOR FOR SELECT id FROM pin_ios WHERE id >= 1 ORDER BY id;
FETCH 1 FROM c;
-- session 2
VACUUM pin_ios;
-- session 3
SELECT pid, wait_event_type, wait_event, query
FROM pg_stat_activity WHERE wait_event = 'BufferPin';`,
    },
    {
      title: 'A load like the lab\'s: pgbench with Zipfian keys',
      note: 'Half SELECTs, half UPDATEs by key, keys skewed by random_zipfian; -P 5 prints the TPS of each 5-second slice, as the chart draws them. Save the two scripts, then run pgbench from a shell.',
      code: `-- select.sql
\\set aid random_zipfian(1, 100000 * :scale, 1.1)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;

-- update.sql
\\set aid random_zipfian(1, 100000 * :scale, 1.1)
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;

-- shell:
--   pgbench -i -s 10 bench
--   pgbench -n -c 40 -j 4 -T 600 -P 5 -f select.sql@1 -f update.sql@1 bench`,
    },
  ],
};

export default {
  tour,
  exercises,
  sql: SQL,

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
    const title = 'bufferscope · pins: transactions per second, slice by slice';
    exports = exportButtons(wide.querySelector('#pins-slices-actions'), {
      id: 'pins-slices',
      name: () => 'bufferscope-pins-slices',
      title: () => title,
      rows: () => [['slice', 'tps'], ...(last ? last.split(',') : []).map((tps, i) => [i + 1, tps])],
      png: () => svgPNG(chart && chart.querySelector('svg'), title),
    });
    exports.enable(false);
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
    if (compare) compare.abandon();
    chart = summary = leaves = compare = exports = null;
    last = '';
  },
};
