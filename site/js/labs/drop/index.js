// The drop lab's page: its introduction, the replay card, the chart of both paths and the
// measurement on this device. Everything else (form, counters, legend, playback) is the
// page's own, built from the lab's tables.

import { rungAbove } from '../../format.js';
import { DropLab } from './drop.js';
import { CurveCard } from './curve.js';
import { MeasureCard } from './measure.js';
import { tour, exercises } from './guide.js';
import { REAL } from './real.js';
import { SQL } from './sql.js';

// The static HTML of the lab's cards: no data is ever interpolated into it.
const INTRO = `    <p>When a table is dropped, truncated or vacuumed down to nothing, each of its pages must leave shared buffers. PostgreSQL finds them in one of two ways: it checks <em>every</em> buffer descriptor in the pool (a full scan, whose cost grows with shared_buffers), or it looks each of the relation's blocks up in the buffer mapping table (whose cost grows with the relation).</p>
    <p>Since PostgreSQL 14 a standby replaying the WAL looks blocks up when fewer than NBuffers/32 are dropped at once. Below, 14 races 13's full scan on two copies of the pool; the chart shows where one overtakes the other.</p>
`;
const PANEL = `    <section class="card replay" id="replay-card" aria-labelledby="replay-heading">
      <div class="card-head">
        <h2 id="replay-heading">Replay</h2>
        <div class="path-badges">
          <span id="d-path" class="path-badge" data-value="none">not started</span>
          <span id="d-path-1" class="path-badge" data-value="none" hidden>not started</span>
        </div>
      </div>
      <div class="replay-progress">
        <progress id="d-progress-bar" max="1" value="0" aria-labelledby="d-progress"></progress>
        <p id="d-progress" class="small" data-value="0">Relation 0 of 0</p>
      </div>
      <div class="replay-progress" id="d-rival" hidden>
        <progress id="d-progress-bar-1" max="1" value="0" aria-labelledby="d-progress-1"></progress>
        <p id="d-progress-1" class="small" data-value="0">Relation 0 of 0</p>
      </div>
      <p id="d-race" class="small" data-value="none"></p>
      <p id="d-threshold" class="small threshold-line"></p>
      <p id="d-scale" class="muted small" aria-live="off"></p>
    </section>
`;
const WIDE = `    <section class="card chart-card" id="curve-card" aria-labelledby="curve-heading">
      <div class="card-head">
        <h2 id="curve-heading">Full scan or lookups: modelled time against relation size</h2>
        <div class="actions" role="group" aria-label="Export the chart">
          <button type="button" id="curve-png" class="small-button" disabled>PNG</button>
          <button type="button" id="curve-csv" class="small-button" disabled>CSV</button>
        </div>
      </div>
      <p id="curve-desc" class="muted small"></p>
      <div class="chart-tools">
        <div class="segmented" role="radiogroup" aria-label="Time shown">
          <label><input type="radio" name="curve-measure" value="drop" checked> Dropping buffers</label>
          <label><input type="radio" name="curve-measure" value="replay"> Whole replay</label>
        </div>
      </div>
      <div class="chart" id="curve-chart" role="img" aria-labelledby="curve-heading" aria-describedby="curve-summary">
        <p class="chart-empty" id="curve-empty">The chart appears here.</p>
      </div>
      <div class="job" id="curve-job" hidden>
        <progress id="curve-progress" max="1"></progress>
        <span id="curve-progress-text" class="small muted" role="status"></span>
        <button type="button" id="curve-cancel" class="small-button">Cancel</button>
      </div>
      <div class="job-start" id="curve-start" hidden>
        <p id="curve-start-note" class="note warn"></p>
        <button type="button" id="curve-run" class="small-button">Compute the chart</button>
      </div>
      <p id="curve-summary" class="summary" aria-live="polite"></p>
      <details class="table-details">
        <summary>The experiment as a table</summary>
        <div class="table-wrap"><table id="curve-table"></table></div>
      </details>
    </section>

    <section class="card chart-card" id="measure-card" aria-labelledby="measure-heading">
      <div class="card-head">
        <h2 id="measure-heading">Measure on this device</h2>
        <div class="actions" role="group" aria-label="Export the measurement">
          <button type="button" id="measure-png" class="small-button" disabled>PNG</button>
          <button type="button" id="measure-csv" class="small-button" disabled>CSV</button>
        </div>
      </div>
      <p class="muted small">The model prices a descriptor check and a lookup from their parts (the tag's hash, the partition lock, a probe that misses the CPU cache once the mapping table outgrows it; descriptors that stream from memory once they outgrow it), and the crossover falls where those parts put it. Here the simulator's own full scan and its own lookups run for real in WebAssembly on your device, timed with your browser's clock.</p>
      <div class="measure-form">
        <div class="field">
          <label for="measure-pool">Pool to measure</label>
          <select id="measure-pool">
            <option value="16384">128MB · 16,384 buffers</option>
            <option value="65536">512MB · 65,536 buffers</option>
            <option value="131072" selected>1GB · 131,072 buffers</option>
            <option value="524288">4GB · 524,288 buffers</option>
            <option value="2621440">20GB · 2.6M buffers</option>
          </select>
        </div>
        <button type="button" id="measure-run" class="primary">Measure on this device</button>
      </div>
      <p id="measure-note" class="note"></p>
      <div class="job" id="measure-job" hidden>
        <progress id="measure-progress" max="1"></progress>
        <span id="measure-progress-text" class="small muted" role="status"></span>
        <button type="button" id="measure-cancel" class="small-button">Cancel</button>
      </div>
      <div class="chart" id="measure-chart" role="img" aria-labelledby="measure-heading" aria-describedby="measure-summary">
        <p class="chart-empty">Your device's crossover appears here.</p>
      </div>
      <p id="measure-summary" class="summary" aria-live="polite"></p>
      <p id="measure-detail" class="muted small"></p>
    </section>
`;

let lab = null;
let curve = null;
let measure = null;

export default {
  tour,
  exercises,
  sql: SQL,
  real: REAL,
  intro: INTRO,
  settingsTitle: 'What is dropped, and where',
  settingsNote: 'Every change starts the replay again. The replay is deterministic: the address of this page reproduces it exactly.',

  // speed is the lab's speed when the reader chose none. A step is one unit of replay (a
  // WAL record, a descriptor checked, a block looked up). A drop that scans is paced at
  // about one scan a second (the next speed of the slider's 1, 2, 5 ladder up from NBuffers);
  // one that looks its blocks up at about five relations a second, so that each lookup is
  // seen landing on its cell. Ten times slower for reduced motion.
  // A race always has a side that scans, whose steps are most of the race's: it is paced, as
  // a scan alone is, at about one scan a second, so that the cursor is seen to sweep.
  speed(stats, reduced, params) {
    const c = stats.counters || {};
    const blocks = c.largestDrop || 1;
    const threshold = c.thresholdBlocks || 0;
    const scans = params.policy === 'pg13' || params.mode === 'primary' || params.checkpoint === 'yes'
      || (params.policy !== 'lookup' && !(blocks < threshold));
    let top = scans ? rungAbove(stats.nbuffers) : rungAbove(5 * (blocks + 1));
    if (stats.panes) top = rungAbove(stats.nbuffers);
    return reduced ? Math.max(1, top / 10) : top;
  },

  ariaLabel: (s) => (s.panes
    ? `Two shared buffer pools of ${s.sharedBuffers}, ${s.nbuffers} buffers each, side by side while a standby replays the same drops under ${s.panes.map((p) => p.label).join(' and ')}, drawn as grids`
    : `Shared buffer pool of ${s.sharedBuffers} while a standby replays drops: ${s.nbuffers} buffers, drawn as a grid`),

  // paneCaption writes, over each pool of the race, how far its replay has got.
  paneCaption: (pane) => DropLab.caption(pane.counters),

  mount({ bs, panel, wide, pause }) {
    panel.innerHTML = PANEL;
    wide.innerHTML = WIDE;
    lab = new DropLab(bs);
    curve = new CurveCard(lab);
    // The replay pauses while the device is measured, and plays on afterwards if it was
    // playing and the reader has not paused, reset or changed it meanwhile.
    measure = new MeasureCard(lab, {
      before: () => {
        const s = bs.stats();
        pause();
        if (!s.playing) return null;
        return () => {
          const now = bs.stats();
          if (!now.playing && now.lab === s.lab && now.time.run === s.time.run) bs.play();
        };
      },
    });
  },

  loaded(params, stats) {
    lab.loaded(params, stats);
    curve.update();
    measure.update();
  },

  notes(params, stats) {
    lab.loaded(params, stats);
    return lab.notes(params, stats);
  },
  disabled: (params) => [...(params.op === 'vacuum' ? ['transactions'] : []), ...(params.policy === 'pg14' ? [] : ['threshold'])],
  update: (s) => lab.update(s),

  theme() {
    curve.redraw();
    measure.redraw();
  },

  unmount() {
    if (curve) curve.abandon();
    if (measure) measure.abandon();
    lab = curve = measure = null;
  },
};
