// The drop lab's page logic beside the generic form and counters: the notes under its
// controls, and the replay card (the path under way, progress through the relations, the
// threshold and the pace of modelled time).

import { set, text } from '../../counters.js';
import { count, plural, seconds } from '../../format.js';
import { fraction, timeScale } from './format.js';

const $ = (id) => document.getElementById(id);

// LARGE_POOL is where building the pool starts to take seconds: 20GB.
export const LARGE_POOL = 2621440;

// pct writes a share as a percentage with a sensible number of digits.
function pct(r) {
  const v = r * 100;
  return `${v >= 10 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toPrecision(1)} %`;
}

// DropLab holds the lab's settings as the bridge normalised them, for its notes, its
// replay card and its charts.
export class DropLab {
  constructor(bs) {
    this.bs = bs;
    this.params = {};
    this.nbuffers = 0;
  }

  // loaded takes the settings of a fresh replay.
  loaded(params, stats) {
    this.params = params;
    this.nbuffers = stats.nbuffers;
  }

  // thresholdBlocks returns the threshold in blocks, as sim.Threshold.Resolve does.
  thresholdBlocks() {
    const m = /^NB\/(\d+)$/.exec(this.params.threshold || 'NB/32');
    return m ? Math.floor(this.nbuffers / Number(m[1])) : Number(this.params.threshold);
  }

  // notes returns the words under the controls for the settings in effect.
  notes(p, stats) {
    const nb = stats.nbuffers;
    const notes = {};
    if (nb >= LARGE_POOL) {
      const bytes = nb * 96;
      const mem = bytes > 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
      notes.shared_buffers = `${count(nb)} buffers: building and filling the pool takes seconds and about ${mem} of memory in your browser, and every full scan checks all of them. A phone may not manage it.`;
      notes['shared_buffers:warn'] = true;
    }
    // The replay's own account of its drops (Experiment.DropBlocks), not a second reading
    // of the tables setting.
    const c = stats.counters || {};
    const relations = c.relations || 0;
    const blocks = c.blocks || 0;
    const largest = c.largestDrop || 0;
    const smallest = c.smallestDrop || 0;
    const per = smallest === largest ? `, ${plural(largest, 'block')} per drop` : `, ${count(smallest)} to ${plural(largest, 'block')} per drop`;
    notes.tables = `${plural(relations, 'relation')}${per}: ${plural(blocks, 'block')} in all, ${pct(blocks / nb)} of the pool.`;

    if (p.op === 'vacuum') notes.transactions = 'VACUUM cannot run inside a transaction block: each table is vacuumed and truncated on its own.';
    else if (p.transactions === 'single') notes.transactions = `One commit drops all ${count(relations)} relations at once: their blocks count together against the threshold, and a full scan checks each buffer against all of them (by binary search beyond 20).`;

    const pg14 = p.policy === 'pg14';
    const tb = this.thresholdBlocks();
    let tnote = `= ${plural(tb, 'block')} of ${count(nb)} (${fraction(tb, nb)}${p.threshold === 'NB/32' ? ', PostgreSQL\'s value' : ''}).`;
    if (!pg14) tnote = `Only PostgreSQL 14's choice uses the threshold (${plural(tb, 'block')}).`;
    else if (p.mode === 'primary') tnote += ' On a primary it does not matter: every drop scans.';
    else if (p.op !== 'vacuum') {
      const hi = largest;
      const lo = smallest;
      if (hi < tb) tnote += ` Each drop here removes ${lo === hi ? '' : 'at most '}${plural(hi, 'block')}, below it: expect lookups.`;
      else if (lo >= tb) tnote += ` Each drop here removes ${lo === hi ? '' : 'at least '}${plural(lo, 'block')}, not below it: expect full scans.`;
      else tnote += ` The drops here remove ${count(lo)} to ${plural(hi, 'block')}: expect lookups for the small relations and full scans for the large.`;
    }
    notes.threshold = tnote;
    return notes;
  }

  // update shows the replay card from one stats object.
  update(s) {
    const d = s.counters;
    if (!d) return;
    // While the replay runs, the path of the drop under way; at the end, the whole run's
    // ("mixed" when drops took both), as bufferscope drop prints it.
    const path = d.done ? d.resultPath || d.path : d.path;
    const pathText = { scan: 'full scan', lookup: 'lookups', mixed: 'both paths' }[path] || (d.done ? 'nothing dropped' : 'not started');
    const badge = $('d-path');
    if (badge.dataset.value !== path || badge.textContent !== pathText) {
      badge.dataset.value = path;
      badge.textContent = pathText;
    }
    const rel = Math.min(d.relation, d.relations);
    let progress = d.done
      ? `Done: ${plural(d.relations, 'relation')} dropped`
      : `Relation ${count(Math.min(rel + 1, d.relations))} of ${count(d.relations)}`;
    if (!d.done && d.path === 'scan' && d.cursor >= 0) progress += ` · checking buffer ${count(d.cursor)} of ${count(s.nbuffers)}`;
    set('d-progress', d.done ? d.relations : rel, progress);
    const bar = $('d-progress-bar');
    const v = d.done ? 1 : d.relations > 0 ? rel / d.relations : 0;
    if (Number(bar.value) !== v) bar.value = v;
    text('d-threshold', this.params.policy === 'pg14'
      ? `Threshold: ${plural(d.thresholdBlocks, 'block')} (${fraction(d.thresholdBlocks, s.nbuffers)}) per drop.`
      : this.params.policy === 'pg13' ? 'PostgreSQL 13 scans the pool for every drop.' : 'Lookups are forced on whenever the sizes are cached.');
    let scale = timeScale(s.view && s.view.timeScale);
    if (s.error) scale = 'Stopped: reset to start again.';
    else if (!s.playing) scale = d.done ? `Replay finished in ${seconds(d.modelledSeconds)} of modelled time.` : 'Paused.';
    text('d-scale', scale);
  }
}
