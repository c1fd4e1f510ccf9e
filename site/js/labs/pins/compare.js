// The pins lab's comparisons, run in the experiment worker (the lab's compare and clients
// jobs, sim/labs/pins/jobs.go): the page's settings under both policies with the same seed,
// their TPS slice by slice on one chart; and TPS against clients for both policies. keep-pin
// is drawn solid and drop-pin dashed, and each is labelled, so the policies differ by more
// than colour. Times are simulated server time, as everywhere on the lab's page.

import { LogChart } from '../../chart.js';
import * as experiments from '../../experiments.js';
import { exportButtons } from '../../exports.js';
import { count, plural, seconds } from '../../format.js';

const $ = (id) => document.getElementById(id);

// SERIES are the two policies' lines: solid keep-pin, dashed drop-pin.
const SERIES = [
  { label: 'keep-pin', colour: '--chart-lookup' },
  { label: 'drop-pin', colour: '--chart-scan', dash: [6, 4] },
];

// TPS_LABEL is the y axis of every TPS chart: the unit the lab's counters declare (the
// cards' headings say it in words).
const TPS_LABEL = 'tps';

// sliceChart makes the chart of TPS per slice in container: simulated server time in ms
// across, tps up, both on linear axes from the data (tps from 0), one line per series.
export function sliceChart(container, series) {
  return new LogChart(container, {
    xLabel: 'simulated server time (ms)',
    yLabel: TPS_LABEL,
    xName: 'server time',
    xLog: false,
    yLog: false,
    series: series.map((s) => ({ ...s, points: false })),
    xValue: (x) => `${count(x)} ms`,
    yValue: (y) => count(y),
    height: 220,
  });
}

// sliceTimes returns the simulated server times, in ms, at which n slices of sliceSeconds
// end, the first being slice number first (from 0).
export function sliceTimes(first, n, sliceSeconds) {
  return Array.from({ length: n }, (_, i) => Number(((first + i + 1) * sliceSeconds * 1000).toPrecision(12)));
}

// sliceSummary writes the slices' TPS in words: how many slices of how much simulated
// server time, their mean, lowest and highest, and their coefficient of variation.
export function sliceSummary(ys, sliceSeconds) {
  const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sd = Math.sqrt(ys.reduce((a, b) => a + (b - mean) * (b - mean), 0) / ys.length);
  const lowest = Math.min(...ys);
  const highest = Math.max(...ys);
  return `${plural(ys.length, 'slice')} of ${seconds(sliceSeconds)} of simulated server time: mean ${count(mean)} tps, lowest ${count(lowest)}, highest ${count(highest)}, coefficient of variation ${(mean ? sd / mean : 0).toFixed(3)}.`;
}

// card is the markup of one experiment card named by prefix: its heading, its run, PNG and
// CSV buttons, a note, the body that shows the result, and its progress bar with Cancel.
const card = (prefix, heading, run, note, body) => `    <section class="card chart-card" id="${prefix}-card" aria-labelledby="${prefix}-heading">
      <div class="card-head">
        <h2 id="${prefix}-heading">${heading}</h2>
        <div class="card-actions">
          <button type="button" id="${prefix}-run" class="small-button">${run}</button>
          <button type="button" id="${prefix}-png" class="small-button" disabled>PNG</button>
          <button type="button" id="${prefix}-csv" class="small-button" disabled>CSV</button>
        </div>
      </div>
      <p class="muted small">${note}</p>
      ${body}
      <div class="job" id="${prefix}-job" hidden><progress id="${prefix}-progress"></progress> <span id="${prefix}-text"></span> <button type="button" id="${prefix}-cancel" class="small-button">Cancel</button></div>
      <p id="${prefix}-summary" class="summary"></p>
    </section>
`;

export const HTML = card('pins-compare', 'Both policies, same seed', 'Run both policies',
  'The settings above, run once keeping the leaf pin and once dropping it, in the background: TPS per slice of simulated server time, on one chart.',
  '<ul class="pins-compare-runs" id="pins-compare-runs"></ul><div class="chart" id="pins-compare" role="img" aria-labelledby="pins-compare-heading" aria-describedby="pins-compare-summary"></div>')
  + card('pins-clients', 'Transactions per second against clients', 'Run the sweep',
    'The published client counts, 10 to 800, under both policies with the settings above: 24 runs in the background.',
    '<div class="chart" id="pins-clients"></div>');

// job runs an experiment with a progress bar and cancel button named by prefix.
function job(prefix, kind, args, onDone) {
  const bar = $(`${prefix}-progress`);
  const text = $(`${prefix}-text`);
  $(`${prefix}-job`).hidden = false;
  bar.removeAttribute('value');
  text.textContent = 'Starting…';
  const j = experiments.run(kind, args, (done, total, label) => {
    bar.max = total;
    bar.value = done;
    text.textContent = `${done} of ${total} runs done (${label})`;
  });
  $(`${prefix}-cancel`).onclick = () => j.cancel();
  j.promise.then(onDone, (err) => {
    $(`${prefix}-summary`).textContent = experiments.failure(err, 'The chart could not be computed');
  }).finally(() => {
    $(`${prefix}-job`).hidden = true;
  });
  return j;
}

export class CompareCards {
  constructor() {
    this.params = {};
    this.key = '';
    this.compare = null;
    this.clients = null;
    this.jobs = [];
    this.chart = new LogChart($('pins-clients'), {
      xLabel: 'clients (logarithmic)',
      yLabel: TPS_LABEL,
      xName: 'clients',
      yLog: false,
      series: SERIES,
      xValue: (x) => count(x),
      yValue: (y) => count(y),
      height: 260,
    });
    this.slices = sliceChart($('pins-compare'), SERIES);
    $('pins-compare-run').addEventListener('click', () => this.runCompare());
    $('pins-clients-run').addEventListener('click', () => this.runClients());
    const compareTitle = 'bufferscope · pins: TPS per slice under both policies, same seed';
    const clientsTitle = 'TPS against clients, keep-pin and drop-pin';
    exportButtons($('pins-compare-csv').parentElement, {
      id: 'pins-compare', name: () => 'pins-slices', title: () => compareTitle, rows: () => this.compareRows(), png: () => this.slices.png(compareTitle),
    });
    exportButtons($('pins-clients-csv').parentElement, {
      id: 'pins-clients', name: () => 'pins-clients', title: () => clientsTitle, rows: () => this.clientRows(), png: () => this.chart.png(clientsTitle),
    });
  }

  // loaded forgets results of other settings (the policy and clients do not matter to
  // both; the comparison keeps its clients).
  loaded(params) {
    this.params = params;
    const { policy, ...rest } = params;
    const key = JSON.stringify(rest);
    if (key === this.key) return;
    this.key = key;
    this.cancel();
    this.compare = null;
    this.clients = null;
    this.show();
  }

  runCompare() {
    const key = this.key;
    this.jobs.push(job('pins-compare', 'compare', { lab: 'pins', ...this.params }, (res) => {
      if (res && this.key === key) this.compare = res;
      this.show();
    }));
  }

  runClients() {
    const key = this.key;
    const { clients, ...rest } = this.params;
    this.jobs.push(job('pins-clients', 'clients', { lab: 'pins', ...rest }, (res) => {
      if (res && this.key === key) this.clients = res;
      this.show();
    }));
  }

  show() {
    const c = this.compare;
    $('pins-compare-csv').disabled = $('pins-compare-png').disabled = !c;
    if (c) {
      const n = Math.max(...c.sliceTPS.map((ys) => ys.length));
      this.slices.setData(sliceTimes(c.firstSlice, n, c.sliceSeconds), c.sliceTPS);
      $('pins-compare-runs').replaceChildren(...c.policies.map((p, i) => {
        const li = document.createElement('li');
        li.dataset.policy = p;
        li.dataset.tps = String(c.tps[i]);
        li.textContent = `${p}${i > 0 ? ' (dashed)' : ' (solid)'}: ${count(c.tps[i])} tps, slice coefficient of variation ${c.sliceCV[i].toFixed(3)}, ${plural(c.hintsLost[i], 'hint')} lost`;
        return li;
      }));
      const d = c.tps[1] / c.tps[0] - 1;
      $('pins-compare-summary').textContent = `Dropping the pin gives ${(100 * Math.abs(d)).toFixed(1)}% ${d < 0 ? 'fewer' : 'more'} transactions per second here, with slices ${c.sliceCV[0] > 0 ? (c.sliceCV[1] / c.sliceCV[0]).toFixed(2) : '–'} times as uneven as keeping it (slices of ${seconds(c.sliceSeconds)} of simulated server time).`;
    } else {
      this.slices.setData(null);
      $('pins-compare-runs').replaceChildren();
      $('pins-compare-summary').textContent = '';
    }
    const k = this.clients;
    $('pins-clients-csv').disabled = $('pins-clients-png').disabled = !k;
    this.chart.setData(k ? k.clients : null, k ? k.tps : null);
    if (k) {
      const peak = (ys) => Math.max(...ys);
      const at = (ys) => k.clients[ys.indexOf(peak(ys))];
      const lastK = k.tps[0][k.tps[0].length - 1];
      const lastD = k.tps[1][k.tps[1].length - 1];
      $('pins-clients-summary').textContent = `keep-pin peaks at ${count(peak(k.tps[0]))} tps with ${plural(at(k.tps[0]), 'client')} and drop-pin at ${count(peak(k.tps[1]))} tps with ${plural(at(k.tps[1]), 'client')}; at ${plural(k.clients[k.clients.length - 1], 'client')} drop-pin runs ${count(lastD)} tps, ${(100 * (lastD / lastK - 1)).toFixed(1)}% against keep-pin's ${count(lastK)}.`;
    } else $('pins-clients-summary').textContent = '';
  }

  compareRows() {
    const c = this.compare;
    if (!c) return [];
    const n = Math.max(...c.sliceTPS.map((s) => s.length));
    const xs = sliceTimes(c.firstSlice, n, c.sliceSeconds);
    return [['slice', 'server_time_ms', ...c.policies.map((p) => `${p}_tps`)],
      ...xs.map((x, i) => [c.firstSlice + i + 1, x, ...c.sliceTPS.map((s) => s[i])])];
  }

  clientRows() {
    const k = this.clients;
    if (!k) return [];
    return [['clients', ...k.policies.map((p) => `${p}_tps`)], ...k.clients.map((x, i) => [x, ...k.tps.map((ys) => ys[i])])];
  }

  redraw() {
    this.chart.render();
    this.slices.render();
  }

  cancel() {
    for (const j of this.jobs) j.cancel();
    this.jobs = [];
  }

  // abandon stops the jobs under way for good: the lab's page is going.
  abandon() {
    for (const j of this.jobs) j.abandon();
    this.jobs = [];
  }
}
