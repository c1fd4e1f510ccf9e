// The drop lab's settings form and counters. Every control goes through the bridge
// (bufferscope.load({lab: "drop", …})) and every change is written to the address; the
// counters follow stats().drop.

import * as errors from './errors.js';
import { set, text } from './counters.js';
import { count, seconds, fraction, timeScale } from './format.js';
import { saveCSV } from './download.js';

const $ = (id) => document.getElementById(id);

// SIMPLE maps the settings that one control holds to its id; tables and threshold are
// written by two controls each.
const SIMPLE = {
  shared_buffers: 'drop-shared-buffers',
  op: 'drop-op',
  transactions: 'drop-transactions',
  mode: 'drop-mode',
  policy: 'drop-policy',
};

// PROBLEM_IDS are the controls to mark when the bridge refused a setting.
const PROBLEM_IDS = {
  ...SIMPLE,
  tables: ['drop-count', 'drop-size'],
  threshold: ['drop-threshold'],
};

// LARGE_POOL is where building the pool starts to take seconds: 20GB.
export const LARGE_POOL = 2621440;

const GROUP = /^(\d+)x(NB\/)?(\d+)$/;

// parseGroups splits a tables setting ("100x1", "1xNB/32,10x5") into its groups.
function parseGroups(tables) {
  return String(tables).split(',').map((g) => {
    const m = GROUP.exec(g.trim());
    return m && { count: Number(m[1]), nb: Boolean(m[2]), size: Number(m[3]) };
  });
}

// DropLab ties the drop lab's form and counters to the bridge. hooks.loaded(result) runs
// after every rebuild.
export class DropLab {
  constructor(bs, state, hooks) {
    this.bs = bs;
    this.state = state;
    this.hooks = hooks;
    this.params = {};
    this.nbuffers = 0;
    this.tablesText = null; // several groups from the address, kept until count or size change
    this.last = null; // the last drop stats shown

    for (const id of Object.values(SIMPLE)) $(id).addEventListener('change', () => this.load(this.collect()));
    for (const id of ['drop-count', 'drop-size', 'drop-size-unit']) {
      $(id).addEventListener('change', () => {
        this.tablesText = null;
        this.load(this.collect());
      });
    }
    for (const id of ['drop-threshold', 'drop-threshold-unit']) $(id).addEventListener('change', () => this.load(this.collect()));
    $('drop-settings').addEventListener('submit', (e) => e.preventDefault());
    $('d-csv').addEventListener('click', () => this.exportCSV());
  }

  // collect reads the form as the bridge's load takes it.
  collect() {
    const p = {};
    for (const [key, id] of Object.entries(SIMPLE)) p[key] = $(id).value;
    const size = $('drop-size').value.trim();
    p.tables = this.tablesText || `${$('drop-count').value.trim()}x${$('drop-size-unit').value === 'nb' ? 'NB/' : ''}${size}`;
    const t = $('drop-threshold').value.trim();
    p.threshold = $('drop-threshold-unit').value === 'nb' ? `NB/${t}` : t;
    return p;
  }

  // fill shows normalised settings in the form.
  fill(p) {
    for (const [key, id] of Object.entries(SIMPLE)) {
      const node = $(id);
      const v = p[key];
      if (v === undefined) continue;
      if (![...node.options].some((o) => o.value === v)) {
        const o = document.createElement('option'); // a size from the address, such as 2GB
        o.value = v;
        o.textContent = v;
        node.append(o);
      }
      node.value = v;
    }
    const groups = parseGroups(p.tables || '');
    const first = groups[0];
    this.tablesText = groups.length > 1 ? p.tables : null;
    if (first) {
      $('drop-count').value = String(first.count);
      $('drop-size').value = String(first.size);
      $('drop-size-unit').value = first.nb ? 'nb' : 'blocks';
    }
    const th = /^NB\/(\d+)$/.exec(p.threshold || '');
    $('drop-threshold').value = th ? th[1] : String(p.threshold || 32);
    $('drop-threshold-unit').value = th ? 'nb' : 'blocks';
    for (const ids of Object.values(PROBLEM_IDS)) for (const id of [].concat(ids)) $(id).classList.remove('invalid');
  }

  // load rebuilds the replay from params and shows what was wrong with them under title,
  // or leaves that to the caller when title is null. It returns the bridge's result.
  load(params, title = 'A setting was not valid') {
    const res = this.bs.load({ ...params, lab: 'drop' });
    if (!res || res.ok === false) {
      errors.show('The replay could not be built', [res && res.error ? res.error : 'unknown error'], JSON.stringify(res));
    } else if (title && res.warnings && res.warnings.length) {
      errors.show(title, res.warnings.map((w) => `${w}.`));
    }
    if (res && res.params) {
      const { lab, ...p } = res.params;
      this.params = p;
      this.fill(p);
      for (const pr of res.problems || []) {
        for (const id of [].concat(PROBLEM_IDS[pr.key] || [])) $(id).classList.add('invalid');
      }
      const st = this.bs.stats();
      this.nbuffers = st.nbuffers;
      this.last = null;
      this.explain();
      this.state.set('drop', p);
      this.update(st);
    }
    this.hooks.loaded(res);
    return res;
  }

  // thresholdBlocks returns the threshold in blocks, as sim.Threshold.Resolve does.
  thresholdBlocks() {
    const m = /^NB\/(\d+)$/.exec(this.params.threshold || 'NB/32');
    return m ? Math.floor(this.nbuffers / Number(m[1])) : Number(this.params.threshold);
  }

  // explain writes the notes under the controls for the settings in effect.
  explain() {
    const p = this.params;
    if (!p.op || !this.nbuffers) return;
    const nb = this.nbuffers;
    const vacuum = p.op === 'vacuum';

    const sb = $('drop-sb-note');
    if (nb >= LARGE_POOL) {
      const bytes = nb * 96;
      const mem = bytes > 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
      sb.textContent = `${count(nb)} buffers: building and filling the pool takes seconds and about ${mem} of memory in your browser, and every full scan checks all of them. A phone may not manage it.`;
      sb.classList.add('warn');
      sb.hidden = false;
    } else {
      sb.hidden = true;
    }

    const groups = parseGroups(p.tables || '');
    let relations = 0;
    let blocks = 0;
    let largest = 0;
    let smallest = Infinity;
    for (const g of groups) {
      if (!g) continue;
      const size = g.nb ? Math.max(Math.floor(nb / g.size), 1) : g.size;
      relations += g.count;
      blocks += g.count * size;
      largest = Math.max(largest, size);
      smallest = Math.min(smallest, size);
    }
    const several = groups.length > 1 ? ` (${p.tables})` : '';
    const single = groups.length === 1 && groups[0];
    const size = single ? (single.nb ? Math.max(Math.floor(nb / single.size), 1) : single.size) : largest;
    let tables = `${count(relations)} ${relations === 1 ? 'relation' : 'relations'}${several}`;
    if (single) tables += ` of ${count(size)} ${size === 1 ? 'block' : 'blocks'}`;
    tables += `: ${count(blocks)} blocks in all, ${pct(blocks / nb)} of the pool.`;
    $('drop-tables-note').textContent = tables;

    $('drop-op-note').textContent = {
      drop: 'The replay of each commit record unlinks the relations\' files and drops all their buffers (DropRelationsAllBuffers).',
      truncate: 'TRUNCATE gives each table a new file; the commit\'s replay unlinks the old ones and drops their buffers (DropRelationsAllBuffers).',
      vacuum: 'VACUUM\'s records are replayed page by page, then each table is truncated to nothing (DropRelationBuffers on its main, free space map and visibility map forks).',
    }[p.op] || '';

    const tx = $('drop-transactions');
    tx.disabled = vacuum;
    $('drop-transactions-note').textContent = vacuum
      ? 'VACUUM cannot run inside a transaction block: each table is vacuumed and truncated on its own.'
      : p.transactions === 'single'
        ? `One commit drops all ${count(relations)} relations at once: their blocks count together against the threshold, and a full scan checks each buffer against all of them (by binary search beyond 20).`
        : 'Each relation is dropped by its own commit: one drop per relation.';

    $('drop-mode-note').textContent = p.mode === 'primary'
      ? 'On a primary the lookups never happen: smgrnblocks_cached knows a relation\'s exact size only in recovery, and without it PostgreSQL cannot be sure it found every buffer, so it scans the whole pool.'
      : 'While it replays WAL the startup process caches each fork\'s size (smgrnblocks_cached), so it knows exactly which blocks to look up.';

    const pg14 = p.policy === 'pg14';
    $('drop-policy-note').textContent = {
      pg14: 'When every size is cached and fewer blocks than the threshold are dropped, look each up; otherwise scan the pool.',
      pg13: 'Check every buffer descriptor for every drop, as PostgreSQL 13 and earlier do.',
      lookup: 'Look every block up whenever the sizes are cached, however many there are: the optimisation forced on, as in the test that chose the threshold.',
    }[p.policy] || '';

    for (const id of ['drop-threshold', 'drop-threshold-unit']) $(id).disabled = !pg14;
    const tb = this.thresholdBlocks();
    let tnote = `= ${count(tb)} blocks of ${count(nb)} (${fraction(tb, nb)}${p.threshold === 'NB/32' ? ', PostgreSQL\'s value' : ''}).`;
    if (!pg14) tnote = `Only PostgreSQL 14's choice uses the threshold (${count(tb)} blocks).`;
    else if (p.mode === 'primary') tnote += ' On a primary it does not matter: every drop scans.';
    else if (!vacuum) {
      const single = p.transactions === 'single';
      const hi = single ? blocks : largest;
      const lo = single ? blocks : smallest;
      if (hi < tb) tnote += ` Each drop here removes ${lo === hi ? '' : 'at most '}${count(hi)} blocks, below it: expect lookups.`;
      else if (lo >= tb) tnote += ` Each drop here removes ${lo === hi ? '' : 'at least '}${count(lo)} blocks, not below it: expect full scans.`;
      else tnote += ` The drops here remove ${count(lo)} to ${count(hi)} blocks: expect lookups for the small relations and full scans for the large.`;
    }
    $('drop-threshold-note').textContent = tnote;
    $('d-command').textContent = this.command();
  }

  // command is the headless command that runs the same replay.
  command() {
    const p = this.params;
    const args = [
      `--shared-buffers ${p.shared_buffers}`, `--tables ${p.tables}`, `--op ${p.op}`,
      ...(p.op === 'vacuum' ? [] : [`--transactions ${p.transactions}`]),
      `--mode ${p.mode}`, `--policy ${p.policy}`, `--threshold ${p.threshold}`,
    ];
    return `go run ./cmd/bufferscope drop ${args.join(' ')}`;
  }

  // update shows one stats object's drop counters.
  update(s) {
    const d = s.drop;
    if (!d) return;
    this.last = { ...d, step: s.step };
    // While the replay runs, the path of the drop under way; at the end, the whole run's
    // ("mixed" when drops took both), as bufferscope drop prints it.
    const path = d.done ? d.resultPath || d.path : d.path;
    const pathText = { scan: 'full scan', lookup: 'lookups', mixed: 'both paths' }[path] || (d.done ? 'nothing dropped' : 'not started');
    const badge = $('d-path');
    if (badge.dataset.value !== path || badge.textContent !== pathText) {
      badge.dataset.value = path;
      badge.textContent = pathText;
    }
    // relation is the index of the relation whose records are being replayed.
    const rel = Math.min(d.relation, d.relations);
    let progress = d.done
      ? `Done: ${count(d.relations)} ${d.relations === 1 ? 'relation' : 'relations'} dropped`
      : `Relation ${count(Math.min(rel + 1, d.relations))} of ${count(d.relations)}`;
    if (!d.done && d.path === 'scan' && d.cursor >= 0) progress += ` · checking buffer ${count(d.cursor)} of ${count(s.nbuffers)}`;
    set('d-progress', d.done ? d.relations : rel, progress);
    const bar = $('d-progress-bar');
    const v = d.done ? 1 : d.relations > 0 ? rel / d.relations : 0;
    if (Number(bar.value) !== v) bar.value = v;

    set('d-time', d.modelledSeconds, seconds(d.modelledSeconds));
    set('d-drop-time', d.dropSeconds, seconds(d.dropSeconds));
    set('d-descriptors', d.descriptorsChecked, count(d.descriptorsChecked));
    set('d-lookups', d.lookups, count(d.lookups));
    set('d-misses', d.lookupMisses, count(d.lookupMisses));
    set('d-invalidated', d.invalidated, count(d.invalidated));
    set('d-drops', d.drops, count(d.drops));
    set('d-step', s.step, count(s.step));
    text('d-threshold', this.params.policy === 'pg14'
      ? `Threshold: ${count(d.thresholdBlocks)} blocks (${fraction(d.thresholdBlocks, s.nbuffers)}) per drop.`
      : this.params.policy === 'pg13' ? 'PostgreSQL 13 scans the pool for every drop.' : 'Lookups are forced on whenever the sizes are cached.');
    let scale = timeScale(d.timeScale);
    if (s.error) scale = 'Stopped: reset to start again.';
    else if (!s.playing) scale = d.done ? `Replay finished in ${seconds(d.modelledSeconds)} of modelled time.` : 'Paused.';
    text('d-scale', scale);
    text('pool-size', `${s.sharedBuffers} · ${count(s.nbuffers)} buffers`);
  }

  // exportCSV saves the settings and counters of the replay, with the headless command's
  // columns first.
  exportCSV() {
    const p = this.params;
    const d = this.last || {};
    const rows = [
      ['shared_buffers', 'nbuffers', 'policy', 'path', 'descriptors_checked', 'lookups', 'buffers_invalidated', 'modelled_seconds',
        'lookup_misses', 'drops', 'drop_seconds', 'done', 'replay_steps', 'tables', 'op', 'transactions', 'mode', 'threshold', 'threshold_blocks'],
      [p.shared_buffers, this.nbuffers, p.policy, d.done ? d.resultPath : d.path, d.descriptorsChecked, d.lookups, d.invalidated, fixed(d.modelledSeconds),
        d.lookupMisses, d.drops, fixed(d.dropSeconds), d.done, d.step, p.tables, p.op, p.op === 'vacuum' ? 'per-relation' : p.transactions, p.mode, p.threshold, d.thresholdBlocks],
    ];
    saveCSV(rows, `bufferscope-drop-${p.shared_buffers}-${p.tables}-${p.op}-${p.policy}.csv`.replaceAll('/', '_'));
  }
}

// fixed writes seconds with nine decimals, whole nanoseconds, as the headless command does.
function fixed(s) {
  return typeof s === 'number' ? s.toFixed(9) : '';
}

// pct writes a share as a percentage with a sensible number of digits.
function pct(r) {
  const v = r * 100;
  return `${v >= 10 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toPrecision(1)} %`;
}
