// The counters panel, built from the lab's counter descriptions (bufferscope.labs()[i].counters)
// and filled from stats().counters ten times a second; the pool summary above the grid; the
// headless command that runs the same experiment; and the counters as CSV.

import { count, counterText, plural } from './format.js';
import { exportButtons, tablePNG } from './exports.js';
import { stopped } from './boot.js';

const $ = (id) => document.getElementById(id);

// set shows a counter: its value in data-value (which tests read) and its text.
export function set(id, value, text) {
  const node = $(id);
  if (!node) return;
  const v = String(value);
  if (node.dataset.value === v && node.textContent === text) return;
  node.dataset.value = v;
  node.textContent = text;
}

// text sets a node's text when it differs, so updates ten times a second cost nothing
// when nothing changed.
export function text(id, t) {
  const node = $(id);
  if (node && node.textContent !== t) node.textContent = t;
}


// Counters shows one lab's counters.
export class Counters {
  constructor() {
    this.lab = null;
    this.last = null;
    const group = $('counters-csv') && $('counters-csv').parentElement; // not on every page (embed.html)
    if (group) {
      exportButtons(group, {
        id: 'counters',
        labels: { png: 'Counters as PNG' },
        name: () => this.fileName(),
        rows: () => this.rows(),
        png: () => this.png(),
      });
    }
  }

  // build lists lab's visible counters, the first one large.
  build(lab) {
    this.lab = lab;
    this.last = null;
    this.render([]);
  }

  // render lays the counters out for panes (stats().panes): one column of values for a run
  // of one pool, one column per pane, headed by its label, for a run that races several.
  // The first pane's values keep the ids c-KEY; the others' are c-KEY-pI.
  render(panes) {
    this.panes = panes.map((p) => p.key);
    const many = panes.length > 1;
    const rows = [];
    if (many) {
      const head = document.createElement('div');
      head.className = 'pane-head';
      const dt = document.createElement('dt');
      dt.textContent = 'Pool';
      head.append(dt, ...panes.map((p, i) => {
        const dd = document.createElement('dd');
        dd.id = `c-pane-${i}`;
        dd.textContent = p.label;
        dd.title = p.doc;
        return dd;
      }));
      rows.push(head);
    }
    let first = true;
    for (const c of this.lab.counters) {
      if (c.hidden) continue;
      const div = document.createElement('div');
      if (first) div.className = 'big';
      else if (c.sub) div.className = 'sub';
      first = false;
      const dt = document.createElement('dt');
      dt.textContent = c.label;
      if (c.doc) dt.title = c.doc;
      div.append(dt);
      for (let i = 0; i < Math.max(panes.length, 1); i++) {
        const dd = document.createElement('dd');
        dd.id = i === 0 ? `c-${c.key}` : `c-${c.key}-p${i}`;
        dd.dataset.value = '';
        dd.textContent = '–';
        div.append(dd);
      }
      rows.push(div);
    }
    const list = $('counter-list');
    list.classList.toggle('paned', many);
    if (many) list.style.setProperty('--panes', String(panes.length));
    else list.style.removeProperty('--panes');
    list.replaceChildren(...rows);
  }

  // update shows one stats object.
  update(s, params) {
    const all = s.counters || {};
    const panes = s.panes || [];
    if (panes.map((p) => p.key).join() !== this.panes.join()) this.render(panes);
    this.last = { stats: s, params };
    for (const c of this.lab.counters) {
      if (c.hidden) continue;
      if (all[c.key] !== undefined) set(`c-${c.key}`, all[c.key], counterText(c, all[c.key], all));
      for (let i = 1; i < panes.length; i++) {
        const v = (panes[i].counters || {})[c.key];
        if (v !== undefined) set(`c-${c.key}-p${i}`, v, counterText(c, v, panes[i].counters));
      }
    }
    let rate = 'Paused.';
    if (s.error) rate = 'Stopped: reset to start again.';
    else if (s.done) rate = `Finished after ${plural(s.step, 'step')}.`;
    else if (s.playing) rate = s.rate > 0 ? `Running at ${count(s.rate)} steps per second of your time.` : 'Running…';
    text('c-rate', rate);
    text('pool-size', `${s.sharedBuffers} · ${plural(s.nbuffers, 'buffer')}${panes.length > 1 ? ` · ${panes.length} pools` : ''}`);
  }

  // command shows the headless command that runs the lab with params.
  command(params) {
    const args = this.lab.params.filter((p) => p.flag && params[p.key] !== undefined)
      .map((p) => `${p.flag} ${quote(params[p.key])}`);
    text('terminal-command', `go run ./cmd/bufferscope ${this.lab.command} ${args.join(' ')}`);
  }

  // rows are the settings and every counter, by key, as one row under a header; a run that
  // races several pools gives a row per pool, named in a pane column.
  rows() {
    if (!this.last) return [];
    const { stats, params } = this.last;
    const keys = this.lab.params.map((p) => p.key);
    const counters = this.lab.counters.map((c) => c.key);
    const panes = stats.panes || [];
    if (panes.length > 1) {
      return [
        ['lab', 'pane', ...keys, ...counters],
        ...panes.map((p) => [this.lab.name, p.key, ...keys.map((k) => params[k]), ...counters.map((k) => p.counters[k])]),
      ];
    }
    return [
      ['lab', ...keys, ...counters],
      [this.lab.name, ...keys.map((k) => params[k]), ...counters.map((k) => stats.counters[k])],
    ];
  }

  fileName() {
    const { stats, params } = this.last || { stats: {}, params: {} };
    return `bufferscope-${this.lab.name}-${params.shared_buffers || ''}-step${stats.step}`.replaceAll('/', '_');
  }

  // png draws the counters as the panel shows them: label and value, one a line.
  png() {
    if (!this.last) return Promise.resolve(null);
    const all = this.last.stats.counters || {};
    const panes = this.last.stats.panes || [];
    const shown = this.lab.counters.filter((c) => !c.hidden && all[c.key] !== undefined);
    const rows = panes.length > 1
      ? [['Counter', ...panes.map((p) => p.label)], ...shown.map((c) => [c.label, ...panes.map((p) => counterText(c, p.counters[c.key], p.counters))])]
      : [['Counter', 'Value'], ...shown.map((c) => [c.label, counterText(c, all[c.key], all)])];
    return tablePNG(rows, `bufferscope · ${this.lab.title}: counters at step ${this.last.stats.step}`);
  }
}

// quote writes a value for a POSIX shell when it needs quoting.
function quote(v) {
  return /^[\w.,/+:=-]+$/.test(v) ? v : `'${String(v).replaceAll("'", "'\\''")}'`;
}

// showView shows the zoom in the pool summary and the hint under the grid, and enables the
// zoom buttons that can act.
export function showView(view) {
  if (!view || view.ok === false) return;
  text('pool-scale', `· ${view.label}`);
  text('grid-help', view.block > 1
    ? `Each pixel stands for ${count(view.block * view.block)} buffers (${view.block} × ${view.block}); zoom in to see single buffers. Hover or tap to inspect, scroll or pinch to zoom, drag to pan.`
    : 'Each cell is one buffer. Hover or tap a cell to inspect it; scroll or pinch to zoom, drag to pan.');
  $('zoom-in').disabled = stopped() || !view.canZoomIn;
  $('zoom-out').disabled = stopped() || !view.canZoomOut;
  $('zoom-fit').disabled = stopped() || !view.zoomed;
}
