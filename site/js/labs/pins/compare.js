// The pins lab's comparisons, run in the experiment worker (the lab's compare and clients
// jobs, sim/labs/pins/jobs.go): the page's settings under both policies with the same seed,
// their TPS slice by slice side by side; and TPS against clients for both policies. keep-pin
// is drawn solid and drop-pin dashed, and each is labelled, so the policies differ by more
// than colour.

import { LogChart } from '../../chart.js';
import * as experiments from '../../experiments.js';
import { exportButtons, svgPNG } from '../../exports.js';
import { count } from '../../format.js';

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

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
  'The settings above, run once keeping the leaf pin and once dropping it, in the background: TPS per slice, on one scale.',
  '<div class="pins-compare" id="pins-compare" role="img" aria-labelledby="pins-compare-heading" aria-describedby="pins-compare-summary"></div>')
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

// tpsLine draws TPS per slice, ys, as one line in a w×h SVG whose top is top: dashed for
// drop-pin.
export function tpsLine(ys, top, w, h, dashed = false) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('width', '100%');
  const step = ys.length > 1 ? w / (ys.length - 1) : 0;
  const line = document.createElementNS(SVG_NS, 'polyline');
  line.setAttribute('points', ys.map((y, i) => `${(i * step).toFixed(1)},${(h - 4 - (y / top) * (h - 8)).toFixed(1)}`).join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  if (dashed) line.setAttribute('stroke-dasharray', '6 4');
  svg.append(line);
  return svg;
}

// slicesSVG draws one policy's TPS per slice against a shared top.
function slicesSVG(ys, top, dashed, title) {
  const svg = tpsLine(ys, top, 300, 120, dashed);
  const fig = document.createElement('figure');
  const cap = document.createElement('figcaption');
  cap.textContent = title;
  fig.append(cap, svg);
  return fig;
}

export class CompareCards {
  constructor() {
    this.params = {};
    this.key = '';
    this.compare = null;
    this.clients = null;
    this.jobs = [];
    this.chart = new LogChart($('pins-clients'), {
      xLabel: 'clients',
      yLabel: 'transactions per second',
      xName: 'clients',
      series: [
        { label: 'keep-pin', colour: '--chart-lookup' },
        { label: 'drop-pin', colour: '--chart-scan', dash: [6, 4] },
      ],
      xValue: (x) => count(x),
      yValue: (y) => count(Math.round(y)),
      height: 260,
    });
    $('pins-compare-run').addEventListener('click', () => this.runCompare());
    $('pins-clients-run').addEventListener('click', () => this.runClients());
    const compareTitle = 'bufferscope · pins: TPS per slice under both policies, same seed';
    const clientsTitle = 'TPS against clients, keep-pin and drop-pin';
    exportButtons($('pins-compare-csv').parentElement, {
      id: 'pins-compare', name: () => 'pins-slices', title: () => compareTitle, rows: () => this.compareRows(), png: () => svgPNG($('pins-compare'), compareTitle),
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
      const top = Math.max(1, ...c.sliceTPS.flat());
      $('pins-compare').replaceChildren(...c.policies.map((p, i) => slicesSVG(c.sliceTPS[i], top, i > 0,
        `${p}: ${count(Math.round(c.tps[i]))} TPS, slice CV ${c.sliceCV[i].toFixed(3)}, ${count(c.hintsLost[i])} hints lost`)));
      const d = c.tps[1] / c.tps[0] - 1;
      $('pins-compare-summary').textContent = `Dropping the pin gives ${(100 * d).toFixed(1)}% ${d < 0 ? 'fewer' : 'more'} transactions per second here, with slices ${c.sliceCV[0] > 0 ? (c.sliceCV[1] / c.sliceCV[0]).toFixed(2) : '–'} times as uneven as keeping it.`;
    } else {
      $('pins-compare').replaceChildren();
      $('pins-compare-summary').textContent = '';
    }
    const k = this.clients;
    $('pins-clients-csv').disabled = $('pins-clients-png').disabled = !k;
    this.chart.setData(k ? k.clients : null, k ? k.tps : null);
    if (k) {
      const peak = (ys) => k.clients[ys.indexOf(Math.max(...ys))];
      $('pins-clients-summary').textContent = `keep-pin peaks at ${peak(k.tps[0])} clients and drop-pin at ${peak(k.tps[1])}; at ${k.clients[k.clients.length - 1]} clients drop-pin runs ${(100 * (k.tps[1][k.tps[1].length - 1] / k.tps[0][k.tps[0].length - 1] - 1)).toFixed(1)}% against keep-pin.`;
    } else $('pins-clients-summary').textContent = '';
  }

  compareRows() {
    const c = this.compare;
    if (!c) return [];
    const n = Math.max(...c.sliceTPS.map((s) => s.length));
    return [['slice', ...c.policies.map((p) => `${p}_tps`)],
      ...Array.from({ length: n }, (_, i) => [i + 1, ...c.sliceTPS.map((s) => s[i])])];
  }

  clientRows() {
    const k = this.clients;
    if (!k) return [];
    return [['clients', ...k.policies.map((p) => `${p}_tps`)], ...k.clients.map((x, i) => [x, ...k.tps.map((ys) => ys[i])])];
  }

  redraw() {
    this.chart.render();
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
