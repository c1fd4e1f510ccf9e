// Exports: one helper gives every chart and table of the page its PNG and CSV buttons
// (exportButtons), with the drawing of a table or an SVG chart as a PNG; and the page's own
// export card, the same for every lab: the grid as a PNG, the pool as pg_buffercache rows
// and its I/O as pg_stat_io rows (bufferscope.gridPNG, pgBuffercache, pgStatIO).

import { save, saveCSV } from './download.js';
import { colour, FONT } from './chart.js';
import { count } from './format.js';

const $ = (id) => document.getElementById(id);

// exportButtons gives one chart or table its PNG and CSV buttons, #<id>-png and #<id>-csv:
// buttons of that id already in the page are used, missing ones are added to group.
// spec: id; name() the file name without extension; title() the PNG's title; rows() the
// table as arrays of values, the header first (may return a promise); png() a promise of a
// PNG Blob (default: the rows drawn as a table); labels {png, csv} for added buttons.
// It returns {enable(on)}: the buttons are disabled until there is something to save.
export function exportButtons(group, spec) {
  const labels = { png: 'PNG', csv: 'CSV', ...spec.labels };
  const title = () => (spec.title ? spec.title() : spec.name());
  const kinds = {
    csv: async () => {
      const rows = await spec.rows();
      if (rows && rows.length) saveCSV(rows, `${spec.name()}.csv`);
    },
    png: async () => {
      const blob = spec.png ? await spec.png() : await tablePNG(await spec.rows(), title());
      if (blob) save(blob, `${spec.name()}.png`);
    },
  };
  const buttons = [];
  for (const kind of ['png', 'csv']) {
    if (kind === 'csv' && !spec.rows) continue;
    let b = $(`${spec.id}-${kind}`);
    if (!b) {
      b = document.createElement('button');
      b.type = 'button';
      b.id = `${spec.id}-${kind}`;
      b.className = 'small-button';
      b.textContent = labels[kind];
      group.append(b);
    }
    b.dataset.export = kind;
    b.addEventListener('click', () => kinds[kind]().catch((err) => console.warn(`bufferscope: saving ${spec.id} as ${kind}:`, err)));
    buttons.push(b);
  }
  return {
    enable(on) {
      for (const b of buttons) b.disabled = !on;
    },
  };
}

// tableRows reads an HTML table as rows of cell texts, the header first.
export function tableRows(table) {
  return [...table.querySelectorAll('tr')].map((tr) => [...tr.cells].map((c) => c.textContent.trim()));
}

// themed returns the page's colours for drawing: background, text, muted text, lines.
function themed() {
  return { surface: colour('--surface'), text: colour('--text'), muted: colour('--muted'), line: colour('--line') };
}

// toBlob returns a canvas as a PNG Blob.
function toBlob(canvas) {
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

// tablePNG draws rows (the first the header) as a table under a title, in the page's theme.
// Numbers are right-aligned, as on the page.
export function tablePNG(rows, title) {
  if (!rows || !rows.length) return Promise.resolve(null);
  const r = Math.max(1, Math.round(window.devicePixelRatio || 1));
  const c = themed();
  const pad = 16 * r;
  const rowH = 22 * r;
  const titleH = 30 * r;
  const gap = 18 * r;
  const probe = document.createElement('canvas').getContext('2d');
  const cellFont = `${13 * r}px ${FONT}`;
  const headFont = `600 ${12 * r}px ${FONT}`;
  const text = rows.map((row) => row.map((v) => (v === null || v === undefined ? '' : String(v))));
  const widths = [];
  text.forEach((row, i) => {
    probe.font = i === 0 ? headFont : cellFont;
    row.forEach((v, j) => { widths[j] = Math.max(widths[j] || 0, probe.measureText(v).width); });
  });
  probe.font = `650 ${15 * r}px ${FONT}`;
  const tableW = widths.reduce((a, w) => a + w + gap, -gap);
  const out = document.createElement('canvas');
  out.width = Math.ceil(Math.max(tableW, probe.measureText(title).width) + 2 * pad);
  out.height = Math.ceil(titleH + rowH * text.length + 2 * pad);
  const ctx = out.getContext('2d');
  ctx.fillStyle = c.surface;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.textBaseline = 'middle';
  ctx.fillStyle = c.text;
  ctx.font = `650 ${15 * r}px ${FONT}`;
  ctx.fillText(title, pad, pad + 10 * r);
  const numeric = (v) => /^[-+]?[\d.,]+(e[-+]?\d+)?\s*\S{0,3}$/i.test(v);
  text.forEach((row, i) => {
    const y = pad + titleH + i * rowH;
    ctx.font = i === 0 ? headFont : cellFont;
    ctx.fillStyle = i === 0 ? c.muted : c.text;
    let x = pad;
    row.forEach((v, j) => {
      const right = i > 0 && numeric(v);
      ctx.textAlign = right ? 'right' : 'left';
      ctx.fillText(v, right ? x + widths[j] : x, y + rowH / 2);
      x += widths[j] + gap;
    });
    ctx.strokeStyle = c.line;
    ctx.lineWidth = r;
    ctx.beginPath();
    ctx.moveTo(pad, y + rowH - 0.5 * r);
    ctx.lineTo(pad + tableW, y + rowH - 0.5 * r);
    ctx.stroke();
  });
  return toBlob(out);
}

// LARGE_POOL is the pool past which the export card warns that pg_buffercache makes a large
// file, slow to write: about 36 bytes a row, so 1M buffers (8GB) make about 36 MB.
const LARGE_POOL = 1 << 20;

// ExportCard is the page's export card (#exports-card): the grid as a PNG, the pool as
// pg_buffercache rows, and the pool's I/O as pg_stat_io rows, shown as a table with its own
// PNG and CSV. A page without the card (a compact embed) gets an inert one.
export class ExportCard {
  constructor(bs) {
    this.bs = bs;
    this.lab = '';
    this.job = null;
    this.ioShown = ''; // the step the pg_stat_io table shows
    this.ioAt = 0; // when it was shown (performance.now)
    this.last = null; // the latest stats
    this.on = Boolean($('exports-card'));
    if (!this.on) return;
    exportButtons($('exports-actions'), {
      id: 'grid',
      labels: { png: 'Grid as PNG' },
      name: () => this.fileName('grid'),
      png: async () => {
        const r = this.bs.gridPNG();
        return r && r.ok ? new Blob([r.data], { type: 'image/png' }) : null;
      },
    }).enable(true);
    $('buffercache-csv').addEventListener('click', () => this.saveBuffercache());
    $('buffercache-cancel').addEventListener('click', () => { if (this.job) this.job.cancelled = 'reader'; });
    this.io = exportButtons($('statio-actions'), {
      id: 'statio',
      name: () => this.fileName('pg_stat_io'),
      title: () => `bufferscope · ${this.lab}: pg_stat_io at step ${this.stats().step}`,
      rows: () => this.statIORows(),
    });
    this.io.enable(true);
    $('statio-details').addEventListener('toggle', () => this.showIO());
  }

  // stats are the latest stats the page was given.
  stats() {
    return this.last || this.bs.stats();
  }

  fileName(what) {
    const s = this.stats();
    return `bufferscope-${this.lab}-${what}-${s.sharedBuffers || ''}-step${s.step}`.replaceAll('/', '_');
  }

  // loaded takes a new run: its lab, and its pool's size for the note about large files.
  loaded(lab, stats) {
    this.lab = lab.name;
    this.last = stats;
    if (!this.on) return;
    if (this.job) this.job.cancelled = 'run';
    const nb = stats.nbuffers;
    $('buffercache-note').textContent = nb > LARGE_POOL
      ? `This pool has ${count(nb)} buffers: the file holds one row each, about ${Math.round((nb * 36) / 1e6)} MB, and takes a while to write.`
      : `One row per buffer, ${count(nb)} rows, as SELECT * FROM pg_buffercache returns them.`;
    this.ioShown = '';
    this.showIO();
  }

  // update shows the pg_stat_io table again, when it is open and the run moved: at once
  // when paused, about once a second while playing.
  update(stats) {
    if (stats) this.last = stats;
    if (!this.on || !stats || `${stats.step}` === this.ioShown) return;
    if (stats.playing && performance.now() - this.ioAt < 1000) return;
    this.showIO(stats);
  }

  statIORows() {
    const io = this.bs.pgStatIO();
    return [io.columns, ...io.rows];
  }

  showIO(stats) {
    if (!$('statio-details').open) return;
    const s = stats || this.stats();
    this.ioShown = `${s.step}`;
    this.ioAt = performance.now();
    const io = this.bs.pgStatIO();
    $('statio-note').textContent = `Columns always empty here: ${io.notModelled}.`;
    const head = document.createElement('tr');
    for (const c of io.columns) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = c;
      head.append(th);
    }
    const body = io.rows.map((r) => {
      const tr = document.createElement('tr');
      for (const v of r) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.append(td);
      }
      return tr;
    });
    const thead = document.createElement('thead');
    thead.append(head);
    const tbody = document.createElement('tbody');
    tbody.append(...body);
    $('statio-table').replaceChildren(thead, tbody);
  }

  // saveBuffercache saves the pool as pg_buffercache rows, read in stretches between which
  // the page shows its progress and may cancel. The pool is read as it is when the save
  // starts: playback pauses meanwhile.
  async saveBuffercache() {
    if (this.job) return;
    const bs = this.bs;
    const st = this.stats();
    const wasPlaying = st.playing;
    bs.pause();
    const name = `${this.fileName('pg_buffercache')}.csv`;
    const job = { cancelled: false };
    this.job = job;
    const bar = $('buffercache-progress');
    $('buffercache-job').hidden = false;
    $('buffercache-csv').disabled = true;
    const parts = [];
    let from = 0;
    let dirty = 0;
    let valid = 0;
    try {
      for (;;) {
        const page = bs.pgBuffercache(from);
        if (!page.ok) throw new Error(page.error);
        parts.push(new Blob([page.csv])); // a Blob each, so a large pool's text need not stay in memory as strings
        dirty += page.dirty;
        valid += page.valid;
        bar.max = page.total;
        bar.value = page.next;
        $('buffercache-progress-text').textContent = `${count(page.next)} of ${count(page.total)} buffers`;
        if (page.next >= page.total) break;
        from = page.next;
        await new Promise((resolve) => setTimeout(resolve, 0)); // let the page draw
        if (job.cancelled) break;
      }
      if (!job.cancelled) {
        save(new Blob(parts, { type: 'text/csv' }), name);
        $('buffercache-note').textContent = `Saved ${name}: ${count(st.nbuffers)} buffers, ${count(valid)} holding a page, ${count(dirty)} of them dirty.`;
      } else if (job.cancelled === 'reader') {
        $('buffercache-note').textContent = 'Cancelled: nothing was saved.';
      }
    } catch (err) {
      $('buffercache-note').textContent = `pg_buffercache could not be saved: ${err.message}`;
    } finally {
      this.job = null;
      $('buffercache-job').hidden = true;
      $('buffercache-csv').disabled = false;
      if (wasPlaying && job.cancelled !== 'run') bs.play(); // a new run plays as it was told
    }
  }
}

// versionsText names the versions a block of SQL runs on (since, until), or '' for all.
function versionsText(b) {
  if (b.since && b.until) return `PostgreSQL ${b.since} to ${b.until}`;
  if (b.since) return `PostgreSQL ${b.since} and later`;
  if (b.until) return `PostgreSQL ${b.until} and earlier`;
  return '';
}

// SQLPanel shows, beside each lab, the SQL that shows the same effect on a real server: the
// page module's sql ({intro, blocks: [{title, note, code, since, until, needs, real}]}, or a
// function of the settings that returns one), each block with the versions it runs on (since,
// until), a copy button and, when the page has the real PostgreSQL (real, a RealPanel), a
// button that runs it there. needs names what a block needs beyond SQL sessions (pgbench).
// A block's real says how it runs in the page: absent, its code runs as written; {code, note},
// that variant runs instead (a second session's statement made by the same one), the note
// saying what differs; {reason}, it needs what that single backend lacks, and the block says
// so instead of offering to run.
export class SQLPanel {
  constructor(real) {
    this.real = real;
  }

  show(sql, params) {
    const s = typeof sql === 'function' ? sql(params || {}) : sql;
    const card = $('sql-card');
    if (!card) return; // a page without the panel (a compact embed)
    card.hidden = !s;
    if (!s) return;
    $('sql-intro').textContent = s.intro || '';
    $('sql-blocks').replaceChildren(...(s.blocks || []).map((b, i) => {
      const div = document.createElement('div');
      div.className = 'sql-block';
      const head = document.createElement('div');
      head.className = 'card-head';
      const h = document.createElement('h3');
      h.textContent = b.title;
      h.id = `sql-title-${i}`;

      const copy = document.createElement('button');
      copy.type = 'button';
      copy.className = 'small-button';
      copy.textContent = 'Copy';
      copy.setAttribute('aria-describedby', h.id);
      const pre = document.createElement('pre');
      // A long statement scrolls sideways: the block takes focus so keys can scroll it.
      pre.tabIndex = 0;
      pre.setAttribute('role', 'region');
      pre.setAttribute('aria-labelledby', h.id);
      const code = document.createElement('code');
      code.textContent = b.code.trim();
      pre.append(code);
      copy.addEventListener('click', async () => {
        try {
          await navigator.clipboard.writeText(code.textContent);
          copy.textContent = 'Copied';
        } catch {
          const range = document.createRange(); // no clipboard: select it for the reader
          range.selectNodeContents(code);
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          copy.textContent = 'Selected: press Ctrl+C';
        }
        setTimeout(() => { copy.textContent = 'Copy'; }, 2000);
      });
      const actions = document.createElement('div');
      actions.append(copy);
      if (this.real && this.real.available && !(b.real && b.real.reason)) {
        const run = document.createElement('button');
        run.type = 'button';
        run.className = 'small-button run-real';
        run.textContent = 'Run in PostgreSQL 18';
        run.setAttribute('aria-describedby', h.id);
        run.addEventListener('click', () => this.real.run(b.real && b.real.code ? b.real.code.trim() : code.textContent));
        actions.append(run);
      }
      head.append(h, actions);
      div.append(head);
      const versions = versionsText(b);
      if (versions) {
        const p = document.createElement('p');
        p.className = 'small sql-versions';
        p.textContent = `Runs on ${versions}.`;
        div.append(p);
      }
      if (b.note) {
        const p = document.createElement('p');
        p.className = 'muted small';
        p.textContent = b.note;
        div.append(p);
      }
      const realNote = b.real && (b.real.reason ? `Not runnable in the page's PostgreSQL 18: ${b.real.reason}` : b.real.note);
      if (this.real && this.real.available && realNote) {
        const p = document.createElement('p');
        p.className = 'muted small';
        p.textContent = realNote;
        div.append(p);
      }
      div.append(pre);
      return div;
    }));
  }
}
