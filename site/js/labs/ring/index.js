// The ring lab's page: its introduction, the notes under its controls, and a chart of
// VACUUM's duration and the foreground's misses against ring size, each on its own axis,
// computed in the experiment worker (the lab's sweep job) as soon as the lab opens, with
// progress and a cancel button. Everything else (form, counters, legend, playback) is the
// page's own, built from the lab's tables; numbers are written as format.js writes them.

import { LogChart } from '../../chart.js';
import * as experiments from '../../experiments.js';
import { exportButtons } from '../../exports.js';
import { count, percent, plural, seconds, share } from '../../format.js';
import { tour, exercises } from './guide.js';
import { REAL } from './real.js';
import { SQL } from './sql.js';

const $ = (id) => document.getElementById(id);

// The static HTML of the lab's cards: no data is ever interpolated into it.
const INTRO = `    <p>VACUUM reads a table through a small <em>ring</em> of shared buffers, so that it does not push everybody else's pages out. When the ring comes round to a page VACUUM dirtied moments ago, the page can only be written once the WAL is flushed up to its LSN. With a small ring nobody has flushed yet, so VACUUM waits for a WAL flush of its own again and again; with a larger one, committing clients and the WAL writer flush first, but VACUUM takes more buffers from the foreground.</p>
    <p>Under the grid the ring is drawn large, slot by slot: VACUUM's slot has a thick ring, the slot it reuses next a pointer, and a page that cannot be written before a WAL flush an hourglass. Under it the WAL bar shows what is inserted, what is flushed and where VACUUM waits. The chart below sweeps the ring size.</p>
`;
const WIDE = `    <section class="card chart-card" id="ring-card" aria-labelledby="ring-heading">
      <div class="card-head">
        <h2 id="ring-heading">VACUUM's duration and the foreground's misses against ring size</h2>
        <div class="actions" role="group" aria-label="Export the chart">
          <button type="button" id="ring-png" class="small-button" disabled>PNG</button>
          <button type="button" id="ring-csv" class="small-button" disabled>CSV</button>
        </div>
      </div>
      <p id="ring-desc" class="muted small"></p>
      <div class="chart" id="ring-chart" role="img" aria-labelledby="ring-heading" aria-describedby="ring-summary">
        <p class="chart-empty" id="ring-empty">The chart appears here.</p>
      </div>
      <div class="job" id="ring-job" hidden>
        <progress id="ring-progress" max="1"></progress>
        <span id="ring-progress-text" class="small muted" role="status"></span>
        <button type="button" id="ring-cancel" class="small-button">Cancel</button>
      </div>
      <div class="job-start" id="ring-start">
        <button type="button" id="ring-run" class="small-button">Compute the chart</button>
        <span id="ring-start-note" class="small muted"></span>
      </div>
      <p id="ring-summary" class="summary" aria-live="polite"></p>
    </section>
`;

// The ring sizes of the chart, in kB (sim/labs/ring DefaultSweepKB).
const RINGS = [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];

// AUTO_KB is the largest table the chart is computed for as soon as the lab opens or its
// settings change: ten VACUUMs of the 4GB default take seconds in the worker; larger tables
// wait for the reader's click.
const AUTO_KB = 4 * 1024 * 1024;

function size(kb) {
  return kb >= 1024 ? `${kb / 1024}MB` : `${kb}kB`;
}

// tableKB reads the table parameter in kB, or null.
function tableKB(text) {
  const m = /^(\d+)\s*(kB|MB|GB|TB)$/i.exec(String(text || '').trim());
  if (!m) return null;
  return Number(m[1]) * { kb: 1, mb: 1024, gb: 1024 ** 2, tb: 1024 ** 3 }[m[2].toLowerCase()];
}

// ringKB reads the ring parameter: null for default or 0.
function ringKB(text) {
  const m = /^(\d+)\s*(kB|MB|GB)$/i.exec(String(text || '').trim());
  if (!m) return null;
  return Number(m[1]) * { kb: 1, mb: 1024, gb: 1024 * 1024 }[m[2].toLowerCase()];
}

class RingCard {
  constructor() {
    this.params = {};
    this.result = null;
    this.failed = ''; // why the last computation failed, shown until the next
    this.key = '';
    this.job = null;
    this.cache = new Map(); // results by settings, so going back to them draws at once
    this.chart = new LogChart($('ring-chart'), {
      xLabel: 'ring size',
      yLabel: "VACUUM's duration",
      xName: 'ring',
      series: [
        { label: "VACUUM's duration", colour: '--chart-scan' },
        { label: "foreground misses (share of the clients' page accesses)", colour: '--chart-lookup', dash: [4, 4], axis: 2 },
      ],
      xValue: (x) => size(x),
      yValue: seconds,
      y2: { label: 'foreground misses', value: share },
      markers: () => this.markers(),
    });
    $('ring-cancel').addEventListener('click', () => this.job && this.job.cancel());
    $('ring-run').addEventListener('click', () => this.compute());
    const title = 'VACUUM and the foreground against ring size';
    exportButtons($('ring-png').parentElement, {
      id: 'ring', name: () => 'bufferscope-ring-chart', title: () => title, rows: () => this.rows(), png: () => this.chart.png(title),
    });
  }

  // settings are what the chart depends on: every parameter but the ring itself.
  settings() {
    const s = { ...this.params };
    delete s.ring;
    return s;
  }

  loaded(params) {
    this.params = params;
    const key = JSON.stringify(this.settings());
    $('ring-desc').textContent = `One VACUUM of a ${params.table} table per ring size from 128kB to 64MB, with shared_buffers ${params.shared_buffers}, ${plural(Number(params.clients), 'client')} and the other settings as above. Every ring is capped at NBuffers/8.`;
    if (key === this.key) {
      this.show();
      return;
    }
    this.key = key;
    if (this.job) this.job.cancel();
    this.result = this.cache.get(key) || null;
    this.failed = '';
    this.show();
    if (this.result) return;
    const kb = tableKB(params.table);
    if (kb !== null && kb <= AUTO_KB) {
      this.compute();
      return;
    }
    $('ring-start-note').textContent = `Ten VACUUMs of a ${params.table} table: about a minute in the background.`;
  }

  markers() {
    const kb = ringKB(this.params.ring);
    return kb ? [{ x: kb, label: `this run: ${size(kb)}`, colour: '--chart-threshold' }] : [];
  }

  compute() {
    const key = this.key;
    if (this.job) this.job.cancel();
    this.failed = '';
    $('ring-summary').textContent = '';
    $('ring-start').hidden = true;
    $('ring-start-note').textContent = '';
    $('ring-job').hidden = false;
    $('ring-card').dataset.state = 'running';
    const bar = $('ring-progress');
    bar.removeAttribute('value');
    $('ring-progress-text').textContent = 'Starting…';
    // done and total count pages vacuumed over the ten runs.
    const job = experiments.run('sweep', { lab: 'ring', ...this.settings(), rings: RINGS }, (done, total, label) => {
      bar.max = total;
      bar.value = done;
      const k = Math.min(Math.floor((done / total) * RINGS.length) + 1, RINGS.length);
      $('ring-progress-text').textContent = done >= total ? 'Drawing…' : `VACUUM ${k} of ${RINGS.length}, ${label}: ${percent(done / total, 1)} of all done`;
    });
    this.job = job;
    job.promise.then((res) => {
      if (res) this.cache.set(key, res); // null: cancelled
      if (this.key === key) this.result = res;
    }, (err) => {
      if (this.job !== job) return;
      this.failed = experiments.failure(err, 'The chart could not be computed');
      $('ring-card').dataset.state = 'failed';
    }).finally(() => {
      if (this.job !== job) return;
      this.job = null;
      const cancelled = !this.result && $('ring-card').dataset.state === 'running';
      $('ring-job').hidden = true;
      $('ring-start').hidden = Boolean(this.result);
      this.show();
      if (cancelled) {
        $('ring-card').dataset.state = 'cancelled';
        $('ring-summary').textContent = 'Cancelled: compute the chart when you want it.';
      }
    });
  }

  show() {
    const r = this.result;
    $('ring-png').disabled = $('ring-csv').disabled = !r;
    $('ring-empty').hidden = Boolean(r);
    if (!r) {
      this.chart.setData(null);
      $('ring-start').hidden = Boolean(this.job);
      if (!this.job) {
        $('ring-summary').textContent = this.failed;
        $('ring-card').dataset.state = this.failed ? 'failed' : 'waiting';
      }
      return;
    }
    $('ring-card').dataset.state = 'done';
    const miss = r.foregroundHitRatio.map((h) => Math.max(1 - h, 1e-6));
    this.chart.setData(r.rings, [r.vacuumSeconds, miss]);
    const i256 = r.rings.indexOf(256);
    const i16 = r.rings.indexOf(16384);
    if (i256 >= 0 && i16 >= 0) {
      $('ring-summary').textContent = `VACUUM takes ${seconds(r.vacuumSeconds[i256])} with a 256kB ring, where ${count(r.vacuumWalFlushes[i256])} of its writes wait for WAL, and ${seconds(r.vacuumSeconds[i16])} with 16MB, where ${count(r.vacuumWalFlushes[i16])} do; the foreground misses ${share(1 - r.foregroundHitRatio[i256])} of its page accesses with the first and ${share(1 - r.foregroundHitRatio[i16])} with the second (hit ratio ${percent(r.foregroundHitRatio[i256], 1)} and ${percent(r.foregroundHitRatio[i16], 1)}).`;
    }
  }

  rows() {
    const r = this.result;
    if (!r) return [];
    return [['ring_kb', 'ring_buffers', 'vacuum_seconds', 'vacuum_wal_flushes', 'foreground_hit_ratio', 'foreground_tps'],
      ...r.rings.map((kb, i) => [kb, r.ringBuffers[i], r.vacuumSeconds[i], r.vacuumWalFlushes[i], r.foregroundHitRatio[i], r.foregroundTps[i]])];
  }

  redraw() {
    this.chart.render();
  }

  // abandon stops the job under way for good: the lab's page is going.
  abandon() {
    if (this.job) this.job.abandon();
    this.job = null;
  }
}

let card = null;

export default {
  tour,
  exercises,
  sql: SQL,
  real: REAL,
  intro: INTRO,
  settingsTitle: 'VACUUM, its ring and the load beside it',
  settingsNote: 'Every change starts VACUUM again. The same settings and seed give the same run.',

  // speed: a step is one page vacuumed, one transaction or one round of the WAL writer.
  speed: (stats, reduced) => (reduced ? 1000 : 20000),

  mount({ wide }) {
    wide.innerHTML = WIDE;
    card = new RingCard();
  },

  loaded(params) {
    card.loaded(params);
  },

  notes(params, stats) {
    const kb = ringKB(params.ring);
    const cap = Math.floor(stats.nbuffers / 8);
    if (kb && kb / 8 > cap) {
      return { ring: `Capped at NBuffers/8: ${count(cap)} buffers (${size(cap * 8)}) at shared_buffers ${params.shared_buffers}.` };
    }
    if (params.ring === '0') return { ring: 'No ring: VACUUM reads through the whole pool, as the wraparound failsafe does.' };
    return {};
  },

  theme() {
    if (card) card.redraw();
  },

  unmount() {
    if (card) card.abandon();
    card = null;
  },
};
