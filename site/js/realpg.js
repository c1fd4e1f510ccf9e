// The "Real PostgreSQL 18" panel: PostgreSQL itself, built for WebAssembly (PGlite), in a
// module worker of its own (js/pglite/main.js), beside the simulation. Nothing of it loads with
// the page: the reader starts it, sees what it fetches as it arrives, runs the lab's SQL or
// their own, and closing the panel terminates the worker, whose memory goes with it.
//
// The build gives the page __PGLITE__: {worker, bytes, version}, the worker's URL and the bytes
// it fetches, or null when the build could not fetch PGlite; the panel then says so.
//
// It is one backend without background processes: no second session, no WAL writer,
// bgwriter or checkpointer of its own. A lab's SQL block that needs more than that says so
// (real: false with a reason) and is not offered here.

import { count, plural } from './format.js';
import { run as runJob, failure } from './experiments.js';

const $ = (id) => document.getElementById(id);
const INFO = __PGLITE__;

// mb is bytes in megabytes, as the panel tells the reader what a start costs.
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;

// lastValue is the first cell of the last row of the last result of sql that has rows: the
// count a lab's SQL ends with, as a number when it reads as one.
function lastValue(results, sql) {
  const last = results.filter((r) => r.fields.length).pop();
  if (!last || !last.rows.length) throw new Error(`no rows from ${sql.trim().split('\n').pop()}`);
  const v = last.rows[last.rows.length - 1][0];
  return typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}

export class RealPanel {
  // bs is the simulator's bridge, on whose grid the real pool is drawn; hooks.changed() is
  // called when the grid switches between the simulated pool and the real one.
  constructor(bs, hooks = {}) {
    this.bs = bs;
    this.hooks = hooks;
    this.poolShown = false; // the grid shows PostgreSQL 18's own buffers
    this.poolBeside = false; // in a pane beside the simulated pool's, not in its place
    this.worker = null;
    this.ready = null; // a promise of the worker's ready message while it starts or runs
    this.pending = new Map(); // id → {resolve, reject}
    this.nextId = 1;
    const card = $('real-card');
    if (!card) return; // a page without the panel
    card.hidden = false;
    if (!INFO) {
      $('real-intro').textContent = 'Real mode is missing from this build: the build could not fetch the PGlite package (PostgreSQL 18 for WebAssembly). Run make serve again with the npm registry reachable to get it.';
      $('real-start').hidden = true;
      return;
    }
    $('real-start').textContent = `Start PostgreSQL 18 (downloads ${mb(INFO.bytes)})`;
    $('real-start').title = 'The server, initdb and the file system image; less travels when the server compresses them.';
    $('real-start').addEventListener('click', () => this.open().catch(() => {}));
    $('real-close').addEventListener('click', () => this.close());
    $('real-run').addEventListener('click', () => this.runEditor());
    $('real-pool').addEventListener('click', () => (this.poolShown ? this.hidePool() : this.showPool(false)));
    $('real-beside').addEventListener('click', () => this.showPool(true));
    $('real-grid-back').addEventListener('click', () => this.hidePool());
    $('real-compare-run').addEventListener('click', () => this.compare().catch(() => {}));
    $('real-sql').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.runEditor();
      }
    });
  }

  // available says whether this build has the real PostgreSQL.
  get available() {
    return !!INFO && !!$('real-card');
  }

  // open starts the worker, unless it runs already, and resolves once PostgreSQL is ready.
  open() {
    if (!this.available) return Promise.reject(new Error('Real mode is missing from this build.'));
    if (this.ready) return this.ready;
    const w = new Worker(new URL(INFO.worker, document.baseURI).href, { type: 'module' });
    this.worker = w;
    $('real-start').hidden = true;
    $('real-close').hidden = false;
    $('real-job').hidden = false;
    $('real-status').textContent = `Downloading PostgreSQL 18 (${mb(INFO.bytes)})…`;
    $('real-progress').value = 0;
    this.ready = new Promise((resolve, reject) => {
      w.onmessage = (e) => {
        const m = e.data || {};
        if (m.type === 'progress') {
          this.progress(m);
        } else if (m.type === 'ready') {
          this.showReady(m);
          resolve(m);
        } else if (m.type === 'failed') {
          this.fail(`PostgreSQL 18 could not start: ${m.message}`);
          reject(new Error(m.message));
        } else if (m.type === 'result' || m.type === 'pool' || m.type === 'error') {
          const p = this.pending.get(m.id);
          if (!p) return;
          this.pending.delete(m.id);
          if (m.type !== 'error') p.resolve(m);
          else p.reject(Object.assign(new Error(m.error.message), { pg: m.error }));
        }
      };
      w.onerror = (e) => {
        e.preventDefault();
        this.fail(`PostgreSQL 18's worker failed: ${e.message || 'an error in its script'}`);
        reject(new Error(e.message || 'worker failed'));
      };
    });
    w.postMessage({ type: 'start' });
    return this.ready;
  }

  progress(m) {
    const bar = $('real-progress');
    if (m.what === 'downloading') {
      bar.max = m.total;
      bar.value = m.loaded;
      $('real-status').textContent = `Downloading PostgreSQL 18: ${mb(m.loaded)} of ${mb(m.total)}`;
    } else {
      bar.removeAttribute('value'); // compiling and initdb: no fraction to show
      $('real-status').textContent = m.what === 'downloaded' ? 'Downloaded; compiling…' : `${m.what[0].toUpperCase()}${m.what.slice(1)}…`;
    }
  }

  showReady(m) {
    $('real-job').hidden = true;
    $('real-console').hidden = false;
    this.showCompare();
    const s = m.settings || {};
    $('real-card').dataset.startMs = String(Math.round(m.startMs)); // for make bench
    $('real-card').dataset.transferred = String(m.transferred || 0);
    $('real-version').textContent = `${m.version}. shared_buffers ${s.shared_buffers}, vacuum_buffer_usage_limit ${s.vacuum_buffer_usage_limit}, io_combine_limit ${s.io_combine_limit}; started in ${(m.startMs / 1000).toFixed(1)} s.`;
  }

  fail(text) {
    $('real-job').hidden = true;
    $('real-error').hidden = false;
    $('real-error').textContent = text;
    this.terminate();
    $('real-start').hidden = false;
    $('real-close').hidden = true;
  }

  // close terminates the worker: PostgreSQL and its memory are gone; a new start runs initdb
  // again.
  close() {
    this.hidePool();
    this.terminate();
    $('real-start').hidden = false;
    $('real-close').hidden = true;
    $('real-job').hidden = true;
    $('real-console').hidden = true;
    $('real-compare').hidden = true;
    $('real-results').replaceChildren();
    $('real-error').hidden = true;
  }

  terminate() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = null;
    for (const p of this.pending.values()) p.reject(new Error('PostgreSQL 18 was closed'));
    this.pending.clear();
  }

  // exec runs sql and resolves with the worker's result message; a PostgreSQL error rejects
  // with err.pg, its fields as PostgreSQL words them.
  async exec(sql) {
    return this.request({ type: 'exec', sql });
  }

  // request sends the worker message m with an id of its own and resolves with its answer.
  async request(m) {
    await this.open();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...m, id });
    });
  }

  // showPool reads PostgreSQL 18's shared buffers from pg_buffercache and draws them on the
  // grid in place of the simulated pool, or beside it; again after each statement while they
  // are shown (beside then says where they were).
  async showPool(beside = this.poolBeside) {
    const buttons = [$('real-pool'), $('real-beside')];
    for (const b of buttons) b.disabled = true;
    try {
      const m = await this.request({ type: 'pool' });
      const r = this.bs.showRealPool({ server: m.server, nbuffers: m.nbuffers, relations: m.relations, rows: m.rows, beside });
      if (!r || r.ok === false) throw new Error(r ? r.error : 'the grid could not draw it');
      this.poolShown = true;
      this.poolBeside = beside;
      this.showPoolState(m.server, r);
    } catch (err) {
      this.showError(err.pg ? err : new Error(`PostgreSQL 18's buffers could not be drawn: ${err.message || err}`));
    } finally {
      for (const b of buttons) b.disabled = false;
    }
    if (this.hooks.changed) this.hooks.changed();
  }

  // hidePool brings the simulated pool back on the grid.
  hidePool() {
    if (!this.poolShown) return;
    this.bs.showSimulatedPool();
    this.poolShown = false;
    this.showPoolState();
    if (this.hooks.changed) this.hooks.changed();
  }

  // sync follows the bridge's stats: playing or stepping the simulation brings its pool back
  // in place of the real one, and a new run brings it back alone.
  sync(stats) {
    if (this.poolShown && stats && !stats.real) {
      this.poolShown = false;
      this.showPoolState();
      if (this.hooks.changed) this.hooks.changed();
    }
  }

  // showPoolState writes the toggle and the note over the grid: server and r (showRealPool's
  // answer) while the real pool is shown, nothing otherwise.
  showPoolState(server, r) {
    const button = $('real-pool');
    button.setAttribute('aria-pressed', String(this.poolShown));
    button.textContent = this.poolShown ? 'Back to the simulated pool' : 'Show its buffers on the grid';
    $('real-beside').hidden = this.poolShown;
    $('real-grid-note').hidden = !this.poolShown;
    if (this.poolShown) {
      const what = `${count(r.full)} of ${count(r.buffers)} hold pages of ${plural(r.relations, 'relation')}, ${count(r.dirty)} dirty, ${count(r.pinned)} pinned. `;
      $('real-grid-text').textContent = this.poolBeside
        ? `The last pane shows ${server}'s own shared buffers beside the simulated pool, read from pg_buffercache after the last statement: ${what}Hover a buffer for its row; the simulation plays on beside it.`
        : `The grid shows ${server}'s own shared buffers, read from pg_buffercache after the last statement: ${what}Hover a buffer for its row. Play or step to see the simulation again.`;
    }
  }

  // run shows sql in the editor, opening the panel, and runs it.
  async run(sql) {
    $('real-card').scrollIntoView({ block: 'nearest' });
    $('real-sql').value = sql;
    try {
      await this.open();
    } catch {
      return;
    }
    await this.runEditor();
  }

  // runEditor runs the editor's SQL and shows its results, or PostgreSQL's error; it
  // resolves with the results, or null after an error.
  async runEditor() {
    const sql = $('real-sql').value;
    if (!sql.trim()) return null;
    const run = $('real-run');
    run.disabled = true;
    $('real-error').hidden = true;
    $('real-ran').textContent = 'Running…';
    try {
      const r = await this.exec(sql);
      this.showResults(r.results);
      if (this.poolShown) await this.showPool(); // the grid shows the pool after the statement
      $('real-ran').textContent = `Ran in ${r.ms.toFixed(1)} ms (in WebAssembly on this device).`;
      return r.results;
    } catch (err) {
      $('real-ran').textContent = '';
      $('real-results').replaceChildren();
      this.showError(err);
      return null;
    } finally {
      run.disabled = false;
    }
  }

  // ask runs sql for a tour step or an exercise, in the editor as if the reader had typed it,
  // and resolves with the last value of its results (lastValue); PostgreSQL's error, shown in
  // the panel, rejects.
  async ask(sql) {
    await this.open();
    $('real-sql').value = sql;
    const results = await this.runEditor();
    if (!results) throw new Error($('real-error').textContent.split('\n')[0] || 'it failed');
    return lastValue(results, sql);
  }

  showError(err) {
    const e = err.pg || { message: String(err.message || err), severity: 'ERROR' };
    const lines = [`${e.severity || 'ERROR'}:  ${e.message}`];
    if (e.detail) lines.push(`DETAIL:  ${e.detail}`);
    if (e.hint) lines.push(`HINT:  ${e.hint}`);
    if (e.code) lines.push(`SQLSTATE: ${e.code}${e.position ? `, at character ${e.position}` : ''}`);
    const box = $('real-error');
    box.hidden = false;
    box.textContent = lines.join('\n');
  }

  showResults(results) {
    const out = [];
    for (const r of results) {
      if (!r.fields.length) continue; // a statement without rows (CREATE, SET, VACUUM)
      const wrap = document.createElement('div');
      wrap.className = 'table-wrap';
      const table = document.createElement('table');
      const head = table.createTHead().insertRow();
      for (const f of r.fields) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.textContent = f;
        head.append(th);
      }
      const body = table.createTBody();
      for (const row of r.rows) {
        const tr = body.insertRow();
        for (const v of row) tr.insertCell().textContent = v === null ? 'NULL' : String(v);
      }
      const caption = table.createCaption();
      caption.textContent = r.rowCount > r.rows.length
        ? `${count(r.rowCount)} rows; the first ${count(r.rows.length)} shown`
        : `${count(r.rowCount)} row${r.rowCount === 1 ? '' : 's'}`;
      wrap.append(table);
      out.push(wrap);
    }
    $('real-results').replaceChildren(...out);
  }

  // setLab is the lab shown: its page module's real, the cases its PostgreSQL 18 runs beside
  // the model, or nothing: {intro, run(ctx) → rows}, where ctx has exec(sql) → {results, ms},
  // sql(sql) → results, value(sql) → the last result's last row's first cell (a number when
  // it reads as one), model(args) → the lab's worker job "real" with args, and say(text) for
  // the status line; rows are as showComparison takes them.
  setLab(name, spec) {
    if (this.comparing) for (const job of this.comparing.jobs) job.abandon();
    this.lab = name;
    this.spec = spec || null;
    this.comparing = null;
    if ($('real-compare')) {
      $('real-compare-run').disabled = false;
      $('real-compare-out').replaceChildren();
      $('real-compare-status').textContent = '';
      this.showCompare();
    }
  }

  showCompare() {
    const box = $('real-compare');
    if (!box) return;
    box.hidden = !this.spec || !this.ready || $('real-console').hidden;
    if (this.spec) $('real-compare-intro').textContent = this.spec.intro;
  }

  // compare runs the lab's cases on PostgreSQL 18 and in the model (the lab's worker job
  // "real") and shows them side by side, each row saying whether the two agree and, where
  // they differ, why.
  async compare() {
    if (!this.spec || this.comparing) return;
    const spec = this.spec;
    const lab = this.lab;
    const button = $('real-compare-run');
    const status = $('real-compare-status');
    const say = (text) => { if (this.spec === spec) status.textContent = text; };
    button.disabled = true;
    $('real-compare-out').replaceChildren();
    const started = performance.now();
    const exec = (text) => this.exec(text);
    const sql = async (text) => (await exec(text)).results;
    const value = async (text) => lastValue(await sql(text), text);
    const model = (args) => {
      const job = runJob('real', { lab, ...args });
      this.comparing.jobs.push(job);
      return job.promise.then((r) => {
        if (!r) throw new Error('the model was cancelled');
        return r;
      });
    };
    this.comparing = { jobs: [] };
    try {
      const rows = await spec.run({ exec, sql, value, model, say });
      if (this.spec !== spec) return;
      this.showComparison(rows);
      say(`Ran in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    } catch (err) {
      if (this.spec !== spec) return;
      say('');
      this.showError(err.pg ? err : new Error(failure(err, 'The comparison could not run')));
    } finally {
      if (this.spec === spec) this.comparing = null;
      button.disabled = false;
    }
  }

  // showComparison writes rows ({what, real, model, unit, exact, note}) as a table: the case,
  // PostgreSQL 18's figure, the model's, and whether they agree; a row marked exact must give
  // the same count on both, and its note says why when it does not; any other row (a time)
  // is not compared, and its note says what each figure is.
  showComparison(rows) {
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    const table = document.createElement('table');
    table.id = 'real-compare-table';
    const head = table.createTHead().insertRow();
    for (const h of ['Case', 'PostgreSQL 18', 'Model', '']) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      head.append(th);
    }
    const body = table.createTBody();
    const notes = [];
    for (const r of rows) {
      const tr = body.insertRow();
      tr.dataset.exact = String(!!r.exact);
      const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? count(v) : v.toPrecision(3)) : String(v)) + (r.unit ? ` ${r.unit}` : '');
      tr.insertCell().textContent = r.what;
      const real = tr.insertCell();
      real.textContent = fmt(r.real);
      real.dataset.value = String(r.real);
      const model = tr.insertCell();
      model.textContent = fmt(r.model);
      model.dataset.value = String(r.model);
      const verdict = tr.insertCell();
      const same = r.real === r.model;
      if (r.exact) {
        verdict.textContent = same ? 'same' : 'differs';
        verdict.className = same ? '' : 'differs';
      } else {
        verdict.textContent = 'not compared';
      }
      if (r.note && (!same || !r.exact)) {
        // Rows with the same note share its number.
        let k = notes.findIndex((n) => n.note === r.note);
        if (k < 0) k = notes.push({ note: r.note, rows: [] }) - 1;
        notes[k].rows.push(r.what);
        verdict.textContent += ` (${k + 1})`;
      }
    }
    wrap.append(table);
    const out = [wrap];
    for (const [i, n] of notes.entries()) {
      const p = document.createElement('p');
      p.className = 'small';
      p.textContent = `(${i + 1}) ${n.rows.join('; ')}: ${n.note}`;
      out.push(p);
    }
    $('real-compare-out').replaceChildren(...out);
  }
}
