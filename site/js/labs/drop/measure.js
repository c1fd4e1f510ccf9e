// "Measure on this device" (#measure-card): sim.MeasureDrop, run by the experiment worker,
// times the simulator's real full scan and real lookups on this device for one relation of
// NBuffers/512 to NBuffers/4 blocks, and the chart shows where this device's crossover lies
// beside PostgreSQL's NBuffers/32.

import { LogChart } from '../../chart.js';
import * as experiments from '../../experiments.js';
import { exportButtons } from '../../exports.js';
import { count, plural, seconds } from '../../format.js';
import { fraction, nanoseconds } from './format.js';
import { DIVISORS, compact } from './curve.js';

const $ = (id) => document.getElementById(id);

// DEFAULT_LIMIT is the largest pool measured unless the reader asks for more: 1GB.
const DEFAULT_LIMIT = 131072;

export class MeasureCard {
  // hooks.before() runs before a measurement starts: the page pauses its replay, and returns
  // what to call once the measurement has ended (playing on, if it was playing).
  constructor(lab, hooks) {
    this.lab = lab;
    this.hooks = hooks;
    this.result = null;
    this.job = null;
    this.chosen = false; // the reader picked a pool
    this.chart = new LogChart($('measure-chart'), {
      xLabel: 'relation size (NB = NBuffers; blocks)',
      yLabel: 'time on this device',
      xName: 'relation',
      series: [
        { label: 'Full scan (measured)', colour: '--chart-scan' },
        { label: 'Lookups (measured)', colour: '--chart-lookup' },
      ],
      xValue: (x) => `${fraction(x, this.nb())}\n${compact(x)}`,
      yValue: seconds,
      markers: () => this.markers(),
      height: 280,
    });
    $('measure-pool').addEventListener('change', () => {
      this.chosen = true;
      this.note();
    });
    $('measure-run').addEventListener('click', () => this.run());
    $('measure-cancel').addEventListener('click', () => this.job && this.job.cancel());
    exportButtons($('measure-png').parentElement, {
      id: 'measure', name: () => `bufferscope-drop-measured-${this.nb()}`, title: () => this.title(), rows: () => this.rows(), png: () => this.chart.png(this.title()),
    });
    this.note();
  }

  nb() {
    return this.result ? this.result.nbuffers : Number($('measure-pool').value);
  }

  // update follows the lab's pool: the measured pool is the lab's, up to 1GB, until the
  // reader chooses one.
  update() {
    if (this.chosen || this.job) return;
    const want = Math.min(Math.max(this.lab.nbuffers, 16384), DEFAULT_LIMIT);
    const options = [...$('measure-pool').options].map((o) => Number(o.value));
    const best = options.filter((v) => v <= want).pop() || options[0];
    $('measure-pool').value = String(best);
    this.note();
  }

  note() {
    const nb = Number($('measure-pool').value);
    $('measure-note').textContent = nb > DEFAULT_LIMIT
      ? `A pool of ${count(nb)} buffers takes a few seconds to build and about ${Math.round(nb * 96 / 1e6)} MB of memory in the background. The replay above pauses while measuring, so that it does not compete for the processor.`
      : 'Takes a second or two. The replay above pauses while measuring, so that it does not compete for the processor.';
  }

  run() {
    if (this.job) return;
    const nb = Number($('measure-pool').value);
    const after = this.hooks.before();
    $('measure-run').disabled = true;
    $('measure-pool').disabled = true;
    $('measure-job').hidden = false;
    $('measure-card').dataset.state = 'running';
    $('measure-summary').textContent = '';
    $('measure-detail').textContent = '';
    const bar = $('measure-progress');
    bar.removeAttribute('value');
    $('measure-progress-text').textContent = 'Building the pool…';
    const job = experiments.run('measure', { lab: 'drop', nbuffers: nb, divisors: DIVISORS }, (done, total, label) => {
      bar.max = total;
      bar.value = done;
      $('measure-progress-text').textContent = `Measuring: ${label}`;
    });
    this.job = job;
    job.promise.then((res) => {
      if (!res) {
        $('measure-card').dataset.state = 'cancelled';
        $('measure-summary').textContent = this.result ? 'Cancelled. The chart shows the last measurement.' : 'Cancelled.';
        return;
      }
      this.result = res;
      this.show();
    }, (err) => {
      $('measure-card').dataset.state = 'failed';
      $('measure-summary').textContent = experiments.failure(err, 'The measurement failed');
    }).finally(() => {
      this.job = null;
      $('measure-job').hidden = true;
      $('measure-run').disabled = false;
      $('measure-pool').disabled = false;
      if (nb > DEFAULT_LIMIT) experiments.release();
      if (typeof after === 'function') after();
    });
  }

  markers() {
    const r = this.result;
    if (!r) return [];
    const out = [{ x: r.nbuffers / 32, label: 'PostgreSQL: NBuffers/32', colour: '--chart-threshold' }];
    if (r.crossover > 0) out.push({ x: r.crossover, label: `this device: ${fraction(r.crossover, r.nbuffers).replace('NB/', 'NBuffers/')}`, colour: '--chart-device', dash: [2, 3] });
    return out;
  }

  show() {
    const r = this.result;
    const sizes = r.sizes.slice().sort((a, b) => a.blocks - b.blocks);
    const positive = (v) => (v > 0 ? v : null); // a size too quick for the clock is left out
    this.chart.setData(sizes.map((s) => s.blocks), [sizes.map((s) => positive(s.scan)), sizes.map((s) => positive(s.lookup))]);
    $('measure-chart').querySelector('.chart-empty')?.remove();
    $('measure-summary').textContent = this.sentence();
    const ratio = r.perDescriptor > 0 ? r.perLookup / r.perDescriptor : 0;
    $('measure-detail').textContent = `Here checking a descriptor took ${took(r.perDescriptor)}, and a lookup ${took(r.perLookup)} on top of invalidating the buffer, which both paths do` +
      `${ratio > 0 ? ` (as much as ${ratio.toFixed(ratio < 10 ? 1 : 0)} checks)` : ''}; the model prices them from their parts (bufferscope drop --costs): 1.5 ns and 65 ns while they fit in the CPU cache, 5 ns and 145 ns beyond. ` +
      'The simulator\'s descriptors are smaller than PostgreSQL\'s 64 bytes and its lookups take no partition lock, so this is the crossover of its own data structures on your device. ' +
      `Pool of ${count(r.nbuffers)} buffers; each size was timed ${r.reps} times and the times averaged, leaving out pauses of the device` +
      (r.clockTick >= 20e-6 ? `. This browser's clock ticks in steps of about ${seconds(Math.round(r.clockTick * 1e6) / 1e6)}, so the smaller sizes are averages of a few ticks among many zeros, and rougher.` : '.');
    $('measure-png').disabled = false;
    $('measure-csv').disabled = false;
    $('measure-card').dataset.state = 'done';
  }

  // sentence states the result in words.
  sentence() {
    const r = this.result;
    const nb = r.nbuffers;
    const pg = `PostgreSQL assumes NBuffers/32 (${plural(nb / 32, 'block')} here)`;
    const name = (x) => fraction(x, nb).replace('NB/', 'NBuffers/').replace(/^NB$/, 'NBuffers');
    const blocks = r.sizes.map((s) => s.blocks);
    const lo = Math.min(...blocks);
    const hi = Math.max(...blocks);
    const sizes = r.sizes.slice().sort((a, b) => a.blocks - b.blocks);
    if (r.within) return `On this device the lookups stop winning at about ${name(r.crossover)} (${plural(Math.round(r.crossover), 'block')}); ${pg}.`;
    if (sizes[0].lookup >= sizes[0].scan) {
      return `On this device the full scan won already at ${name(lo)}, the smallest size measured${r.crossover > 0 ? `; the fitted lines meet at about ${name(r.crossover)}` : ''}. ${pg}.`;
    }
    let beyond = ', and a lookup cost no more than the scan\'s own work on a buffer it drops';
    if (r.crossover > hi) beyond = `; extrapolated, they would stop winning at about ${name(r.crossover)}`;
    else if (r.crossover > 0) beyond = ', where the two paths are about even';
    return `On this device the lookups won at every size measured, up to ${name(hi)}${beyond}. ${pg}.`;
  }

  rows() {
    const r = this.result;
    const rows = [['nbuffers', 'divisor', 'blocks', 'scan_seconds', 'lookup_seconds', 'samples', 'crossover_blocks', 'per_descriptor_seconds', 'per_lookup_seconds']];
    for (const s of r.sizes) {
      rows.push([r.nbuffers, s.divisor, s.blocks, s.scan.toExponential(6), s.lookup.toExponential(6), s.samples,
        r.crossover.toFixed(1), r.perDescriptor.toExponential(6), r.perLookup.toExponential(6)]);
    }
    return rows;
  }

  title() {
    return `bufferscope · drop: full scan and lookups measured on this device, ${count(this.result.nbuffers)} buffers`;
  }

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

// took writes a measured time, or says the browser's clock was too coarse to see it: without
// cross-origin isolation browsers round their clock to 0.1 ms or more.
function took(s) {
  return s > 0 ? nanoseconds(s) : 'less than this browser\'s clock can measure';
}
