// The drop lab's page logic beside the generic form and counters: the notes under its
// controls, and the replay card (the path under way, progress through the relations, the
// threshold and the pace of modelled time).

import { set, text } from '../../counters.js';
import { count, plural, seconds } from '../../format.js';
import { fraction, timeScale } from './format.js';

const $ = (id) => document.getElementById(id);

// LARGE_POOL is where building the pool starts to take seconds: 20GB.
export const LARGE_POOL = 2621440;

// RACE_MAX_LABEL is the largest pool the lab races (sim/labs/drop RaceMaxNBuffers); above it
// stats() has no panes.
const RACE_MAX_LABEL = '20GB';

// PATH_TEXT names the paths a side's drops took so far (counters pathSoFar).
const PATH_TEXT = { scan: 'full scan', lookup: 'lookups', mixed: 'both paths' };

// short writes a pane's label for a badge: "PG 14+".
const short = (label) => String(label).replace(/^PostgreSQL /, 'PG ');

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
    const pools = stats.panes ? stats.panes.length : 1;
    if (nb >= LARGE_POOL) {
      const bytes = nb * 96 * pools;
      const mem = bytes > 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
      const what = pools > 1 ? `building and filling the ${pools} pools of the race` : 'building and filling the pool';
      notes.shared_buffers = `${count(nb)} buffers: ${what} takes seconds and about ${mem} of memory in your browser, and every full scan checks all of them. A phone may not manage it.`;
      if (pools === 1) notes.shared_buffers += ` Above ${RACE_MAX_LABEL} the grid shows the policy chosen alone, without the race: two pools this large would need twice that.`;
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

  // caption writes one side's progress over its pool: modelled time and relations dropped.
  static caption(c) {
    if (!c) return '';
    const dropped = c.done ? c.relations : Math.min(c.relation, c.relations);
    return `${seconds(c.modelledSeconds)} · ${count(dropped)} of ${count(c.relations)} dropped`;
  }

  // update shows the replay card from one stats object: in a race, both sides.
  update(s) {
    const d = s.counters;
    if (!d) return;
    const panes = s.panes && s.panes.length > 1 ? s.panes : null;
    const sides = panes ? panes.map((p) => ({ c: p.counters, label: p.label })) : [{ c: d, label: '' }];
    sides.forEach((side, i) => this.side(i, side.c, side.label, s.nbuffers));
    $('d-path-1').hidden = !panes;
    $('d-rival').hidden = !panes;
    this.race(panes, s);
    text('d-threshold', this.params.policy === 'pg14'
      ? `Threshold: ${plural(d.thresholdBlocks, 'block')} (${fraction(d.thresholdBlocks, s.nbuffers)}) per drop.`
      : this.params.policy === 'pg13' ? 'PostgreSQL 13 scans the pool for every drop.' : 'Lookups are forced on whenever the sizes are cached.');
    let scale = timeScale(s.view && s.view.timeScale);
    if (s.error) scale = 'Stopped: reset to start again.';
    else if (!s.playing) scale = s.done ? `Replay finished in ${seconds(Math.max(...sides.map((x) => x.c.modelledSeconds)))} of modelled time.` : 'Paused.';
    text('d-scale', scale);
  }

  // side shows one side's badge and progress. The badge says the paths its drops have taken
  // so far (pathSoFar), which stays put between drops, so it does not flicker back to "not
  // started" while the replay runs; at the end, the whole replay's path, as bufferscope drop
  // prints it.
  side(i, c, label, nbuffers) {
    const suffix = i === 0 ? '' : `-${i}`;
    const path = c.done ? c.resultPath : c.pathSoFar || 'none';
    const pathText = PATH_TEXT[path] || (c.done ? 'nothing dropped' : 'not started');
    const shown = label ? `${short(label)} · ${pathText}` : pathText;
    const badge = $(`d-path${suffix}`);
    if (badge.dataset.value !== path || badge.textContent !== shown) {
      badge.dataset.value = path;
      badge.textContent = shown;
    }
    const rel = Math.min(c.relation, c.relations);
    let progress = c.done
      ? `Done: ${plural(c.relations, 'relation')} dropped`
      : `Relation ${count(Math.min(rel + 1, c.relations))} of ${count(c.relations)}`;
    if (!c.done && c.path === 'scan' && c.cursor >= 0) progress += ` · checking buffer ${count(c.cursor)} of ${count(nbuffers)}`;
    if (label) progress = `${label}: ${progress}`;
    set(`d-progress${suffix}`, c.done ? c.relations : rel, progress);
    const bar = $(`d-progress-bar${suffix}`);
    const v = c.done ? 1 : c.relations > 0 ? rel / c.relations : 0;
    if (Number(bar.value) !== v) bar.value = v;
  }

  // race says how the race stands: which side finished first, and by how much.
  race(panes, s) {
    if (!panes) {
      const alone = s.nbuffers > LARGE_POOL
        ? `The race is shown up to ${RACE_MAX_LABEL}: two pools of ${s.sharedBuffers} would need about twice the memory one does. Only the policy chosen replays here.`
        : '';
      set('d-race', 'none', alone);
      return;
    }
    const [a, b] = panes;
    const ta = a.counters.modelledSeconds;
    const tb = b.counters.modelledSeconds;
    let state = 'running';
    let words = `Racing on one modelled clock: ${a.label} and ${b.label} replay the same WAL on two copies of the same pool.`;
    if (a.counters.done && b.counters.done) {
      if (ta === tb) {
        state = 'tie';
        words = `Both finished in ${seconds(ta)}: here both scan the pool for every drop.`;
      } else {
        const [w, l, tw, tl] = ta < tb ? [a, b, ta, tb] : [b, a, tb, ta];
        state = w.key;
        words = `${w.label} finished first, in ${seconds(tw)}; ${l.label} took ${seconds(tl)}, ${Math.round(100 * (tl - tw) / tw)} % longer.`;
      }
    } else if (a.counters.done || b.counters.done) {
      const [w, l] = a.counters.done ? [a, b] : [b, a];
      state = w.key;
      words = `${w.label} finished first, in ${seconds(w.counters.modelledSeconds)}; ${l.label} is still replaying.`;
    }
    set('d-race', state, words);
  }
}
