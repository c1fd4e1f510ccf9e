// The drop lab's chart (#curve-card): the modelled time of dropping one relation of
// NBuffers/512 to NBuffers/4 blocks by each path, for the lab's pool, operation and server,
// with the threshold marked and the crossover found. The experiments are package sim's own
// (RunDropExperiment under PostgreSQL 13's full scan and under forced lookups), run by the
// experiment worker.

import { LogChart } from '../../chart.js';
import * as experiments from '../../experiments.js';
import { exportButtons, tableRows } from '../../exports.js';
import { count, plural, seconds } from '../../format.js';
import { fraction } from './format.js';
import { LARGE_POOL } from './drop.js';

const $ = (id) => document.getElementById(id);

// DIVISORS are the relation sizes, NBuffers/k, of the published threshold test and NB/4.
export const DIVISORS = [512, 256, 128, 64, 32, 16, 8, 4];

const OPS = { drop: 'DROP TABLE', truncate: 'TRUNCATE', vacuum: 'VACUUM' };

// crossover returns where ys2 (lookups) first overtakes ys1 (the scan) as x grows, found by
// interpolating on the logarithmic axes: {x, y}, or null when it does not within xs.
export function crossover(xs, ys1, ys2) {
  const d = xs.map((_, i) => Math.log(ys2[i]) - Math.log(ys1[i]));
  if (d[0] >= 0) return d[0] === 0 ? { x: xs[0], y: ys1[0] } : null;
  for (let i = 0; i + 1 < xs.length; i++) {
    if (d[i] < 0 && d[i + 1] >= 0) {
      const t = d[i] / (d[i] - d[i + 1]);
      const lx = Math.log(xs[i]) + t * (Math.log(xs[i + 1]) - Math.log(xs[i]));
      const ly = Math.log(ys1[i]) + t * (Math.log(ys1[i + 1]) - Math.log(ys1[i]));
      return { x: Math.exp(lx), y: Math.exp(ly) };
    }
  }
  return null;
}

export class CurveCard {
  constructor(lab) {
    this.lab = lab; // the DropLab, for its settings
    this.cache = new Map(); // key → result
    this.result = null;
    this.key = '';
    this.job = null;
    this.measure = 'drop';
    this.chart = new LogChart($('curve-chart'), {
      xLabel: 'relation size (NB = NBuffers; blocks)',
      yLabel: 'modelled time',
      xName: 'relation',
      series: [
        { label: 'Full scan (PostgreSQL 13)', colour: '--chart-scan' },
        { label: 'Lookups (forced on)', colour: '--chart-lookup' },
      ],
      xValue: (x) => `${fraction(x, this.nbuffers())}\n${compact(x)}`,
      yValue: seconds,
      markers: () => this.markers(),
      dots: () => this.dots(),
    });
    for (const r of document.querySelectorAll('input[name="curve-measure"]')) {
      r.addEventListener('change', () => {
        this.measure = r.value;
        this.show();
      });
    }
    $('curve-cancel').addEventListener('click', () => this.job && this.job.cancel());
    $('curve-run').addEventListener('click', () => this.compute());
    exportButtons($('curve-png').parentElement, {
      id: 'curve', name: () => this.fileName(), title: () => this.title(), rows: () => this.rows(), png: () => this.chart.png(this.title()),
    });
    // The experiment's table as the page shows it, in the reader's units.
    const group = document.createElement('div');
    group.className = 'card-actions';
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', 'Export the table');
    $('curve-table').closest('.table-wrap').before(group);
    this.tableExports = exportButtons(group, {
      id: 'curve-table', name: () => `${this.fileName()}-table`, title: () => this.title(), rows: () => tableRows($('curve-table')),
    });
    this.tableExports.enable(false);
  }

  nbuffers() {
    return this.lab.nbuffers;
  }

  // settings are what the chart depends on: pool, operation and server.
  settings() {
    const p = this.lab.params;
    return { nbuffers: this.lab.nbuffers, op: p.op || 'drop', mode: p.mode || 'recovery', device: p.device || 'server', cost: p.cost || '' };
  }

  // update follows the lab's settings: a new experiment when the pool, operation or server
  // changed (at once for pools below 20GB, on request above), a new threshold otherwise.
  update() {
    const s = this.settings();
    const key = `${s.nbuffers}|${s.op}|${s.mode}|${s.device}|${s.cost}`;
    $('curve-desc').textContent = `One relation of NBuffers/512 to NBuffers/4 blocks dropped by ${OPS[s.op] || s.op} ${s.mode === 'primary' ? 'on a primary' : 'on a standby replaying the WAL'}, in a pool of ${this.lab.params.shared_buffers} (NB = ${count(s.nbuffers)} buffers): the lab's own replay, once under each path.`;
    if (key === this.key) {
      this.show(); // the threshold may have moved
      return;
    }
    this.key = key;
    if (this.job) this.job.cancel();
    this.result = this.cache.get(key) || null;
    this.show();
    if (this.result) return;
    if (s.nbuffers < LARGE_POOL) {
      this.compute();
      return;
    }
    this.prompt();
  }

  // prompt offers to compute the chart, saying what it costs for a large pool.
  prompt() {
    const nb = this.settings().nbuffers;
    let note = '';
    if (nb >= LARGE_POOL) {
      const big = nb >= 5 * LARGE_POOL;
      note = `At ${this.lab.params.shared_buffers} each of the 16 experiments builds and fills a pool of ${count(nb)} buffers in the background: ${big ? 'one to two minutes' : 'ten to twenty seconds'}, and about ${big ? '1.3 GB' : '300 MB'} of memory. The two paths run one after the other to halve the memory needed.`;
    }
    $('curve-start-note').textContent = note;
    $('curve-start').hidden = false;
  }

  // compute runs the experiments for the current settings in the worker.
  compute() {
    const s = this.settings();
    const key = this.key;
    if (this.job) this.job.cancel();
    $('curve-start').hidden = true;
    $('curve-job').hidden = false;
    $('curve-card').dataset.state = 'running';
    const bar = $('curve-progress');
    bar.removeAttribute('value');
    $('curve-progress-text').textContent = 'Starting the experiments…';
    const job = experiments.run('curve', { lab: 'drop', nbuffers: s.nbuffers, op: s.op, mode: s.mode, device: s.device, cost: s.cost, divisors: DIVISORS }, (done, total, label) => {
      bar.max = total;
      bar.value = done;
      $('curve-progress-text').textContent = `Experiment ${done} of ${total} done (${label})`;
    });
    this.job = job;
    job.promise.then((res) => {
      if (res) this.cache.set(key, res);
      if (this.key === key) this.result = res;
    }, (err) => {
      if (this.job !== job) return;
      $('curve-summary').textContent = experiments.failure(err, 'The chart could not be computed');
      $('curve-card').dataset.state = 'failed';
    }).finally(() => {
      if (this.job !== job) return;
      this.job = null;
      $('curve-job').hidden = true;
      if (s.nbuffers >= LARGE_POOL) experiments.release();
      if (this.result) {
        this.show();
        return;
      }
      if ($('curve-card').dataset.state === 'running') {
        $('curve-card').dataset.state = 'cancelled';
        $('curve-summary').textContent = 'Cancelled.';
      }
      this.prompt(); // to try again
    });
  }

  // series returns the sizes and the two paths' times from the result, in seconds.
  series() {
    const pts = this.result ? this.result.points.slice().sort((a, b) => a.blocks - b.blocks) : [];
    const field = this.measure === 'drop' ? 'dropSeconds' : 'seconds';
    return {
      pts,
      xs: pts.map((p) => p.blocks),
      scan: pts.map((p) => p.scan[field]),
      lookup: pts.map((p) => p.lookup[field]),
    };
  }

  thresholdLabel(tb) {
    const t = this.lab.params.threshold || 'NB/32';
    const name = t === 'NB/32' ? 'NBuffers/32' : t.startsWith('NB/') ? t.replace('NB/', 'NBuffers/') : `${plural(tb, 'block')}`;
    return `threshold: ${name}`;
  }

  markers() {
    const tb = this.lab.thresholdBlocks();
    return tb > 0 ? [{ x: tb, label: this.thresholdLabel(tb), colour: '--chart-threshold' }] : [];
  }

  dots() {
    const { xs, scan, lookup } = this.series();
    const c = xs.length ? crossover(xs, scan, lookup) : null;
    return c ? [{ x: c.x, y: c.y, label: `crossover ≈ ${fraction(c.x, this.nbuffers())}`, colour: '--text' }] : [];
  }

  // show draws the chart, the summary and the table from the result.
  show() {
    const has = Boolean(this.result);
    $('curve-png').disabled = !has;
    $('curve-csv').disabled = !has;
    this.tableExports.enable(has);
    $('curve-empty').hidden = has;
    if (!has) {
      this.chart.setData(null);
      if (!this.job) $('curve-summary').textContent = '';
      $('curve-table').replaceChildren();
      return;
    }
    $('curve-start').hidden = true;
    const { pts, xs, scan, lookup } = this.series();
    this.chart.setData(xs, [scan, lookup]);
    $('curve-summary').textContent = this.summary(xs, scan, lookup);
    this.table(pts);
    $('curve-card').dataset.state = 'done';
  }

  summary(xs, scan, lookup) {
    const nb = this.nbuffers();
    const s = this.settings();
    const tb = this.lab.thresholdBlocks();
    const what = this.measure === 'drop' ? 'dropping its buffers' : 'the whole replay';
    if (s.mode === 'primary') {
      return 'On a primary both curves are the full scan: the lookups need the exact size of every fork, which smgrnblocks_cached gives only in recovery.';
    }
    const c = crossover(xs, scan, lookup);
    const th = `PostgreSQL 14 switches to the full scan at ${this.thresholdLabel(tb).replace('threshold: ', '')} (${plural(tb, 'block')})`;
    if (!c) {
      return lookup[0] > scan[0]
        ? `In ${what}, the full scan wins at every size shown, from ${fraction(xs[0], nb)}. ${th}.`
        : `In ${what}, the lookups win at every size shown, up to ${fraction(xs[xs.length - 1], nb)}. ${th}.`;
    }
    return `In ${what}, the lookups are faster for a relation of up to about ${fraction(c.x, nb)} (${plural(Math.round(c.x), 'block')}), the full scan beyond. ${th}.`;
  }

  table(pts) {
    const head = ['Relation', 'Blocks', 'Full scan: dropping', 'Full scan: replay', 'Lookups: dropping', 'Lookups: replay', 'Faster'];
    const thead = document.createElement('thead');
    const hr = document.createElement('tr');
    for (const h of head) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      hr.append(th);
    }
    thead.append(hr);
    const tbody = document.createElement('tbody');
    const nb = this.nbuffers();
    for (const p of pts) {
      const tr = document.createElement('tr');
      const faster = p.lookup.path !== 'lookup' ? 'same path' : p.lookup.dropSeconds < p.scan.dropSeconds ? 'lookups' : 'full scan';
      for (const v of [fraction(p.blocks, nb), count(p.blocks), seconds(p.scan.dropSeconds), seconds(p.scan.seconds), seconds(p.lookup.dropSeconds), seconds(p.lookup.seconds), faster]) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.append(td);
      }
      tbody.append(tr);
    }
    $('curve-table').replaceChildren(thead, tbody);
  }

  rows() {
    const rows = [['nbuffers', 'op', 'mode', 'divisor', 'blocks',
      'scan_path', 'scan_descriptors_checked', 'scan_buffers_invalidated', 'scan_drop_seconds', 'scan_modelled_seconds',
      'lookup_path', 'lookup_lookups', 'lookup_buffers_invalidated', 'lookup_drop_seconds', 'lookup_modelled_seconds']];
    const r = this.result;
    for (const p of this.series().pts) {
      rows.push([r.nbuffers, r.op, r.mode, p.divisor, p.blocks,
        p.scan.path, p.scan.descriptorsChecked, p.scan.invalidated, p.scan.dropSeconds.toFixed(9), p.scan.seconds.toFixed(9),
        p.lookup.path, p.lookup.lookups, p.lookup.invalidated, p.lookup.dropSeconds.toFixed(9), p.lookup.seconds.toFixed(9)]);
    }
    return rows;
  }

  title() {
    const s = this.settings();
    return `bufferscope · drop: one relation dropped by ${OPS[s.op]} ${s.mode === 'primary' ? 'on a primary' : 'on a standby'}, shared_buffers ${this.lab.params.shared_buffers} (${this.measure === 'drop' ? 'dropping buffers' : 'whole replay'})`;
  }

  fileName() {
    const s = this.settings();
    return `bufferscope-drop-chart-${this.lab.params.shared_buffers}-${s.op}-${s.mode}`;
  }

  // redraw draws the chart again in the theme in effect.
  // cancel stops the experiment under way, when the lab is left.
  // abandon stops the job under way for good: the lab's page is going.
  abandon() {
    if (this.job) this.job.abandon();
    this.job = null;
  }

  redraw() {
    this.chart.render();
  }
}

// compact writes a block count briefly: 512, 4.1k, 1.6M.
export function compact(n) {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${Number((n / 1e3).toPrecision(2))}k`;
  return `${Number((n / 1e6).toPrecision(2))}M`;
}
