// Buffer details: the tooltip (#tooltip) that follows the pointer over the grid, and the
// inspector panel, which keeps showing the buffer the reader clicked, tapped or typed.

import { count, plural } from './format.js';

const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// paneOf returns the pane a buffer info describes: its index when the grid shows several
// pools, 0 otherwise.
export const paneOf = (info) => (info && info.pane ? info.pane.index : 0);

// TOOLTIP_ROWS is how many rows of a lab's table the tooltip shows; the inspector shows all.
const TOOLTIP_ROWS = 6;

// table renders a lab detail's table (its first row the header), at most rows body rows.
function table(rows, limit) {
  const t = el('table', undefined, 'detail-table');
  const head = el('tr');
  for (const h of rows[0]) head.append(el('th', h));
  t.append(el('thead'), el('tbody'));
  t.tHead.append(head);
  for (const r of rows.slice(1, 1 + limit)) {
    const tr = el('tr');
    for (const c of r) tr.append(el('td', c));
    t.tBodies[0].append(tr);
  }
  return t;
}

// describe renders what bufferscope.inspect or .buffer returned as nodes, the lab's details in
// the order its view gives them. Every value is set as text: relation names come from
// commands and are not trusted as HTML. compact shortens a lab's tables, for the tooltip.
export function describe(info, compact = false) {
  const frag = document.createDocumentFragment();
  const g = info.group;
  if (g) {
    frag.append(el('p', `${plural(g.count, 'buffer')} from ${count(g.first)}, one pixel`, 'info-title'));
    const dl = el('dl');
    const row = (k, v) => dl.append(el('dt', k), el('dd', v));
    row('Mostly', g.relation ? `${g.relation} (${count(g.relationCount)})` : 'empty');
    row('Empty', count(g.empty));
    row('Dirty', count(g.dirty));
    row('Pinned', count(g.pinned));
    row('Usage count 0', count(g.usage0));
    frag.append(dl, el('p', 'First buffer of the block:', 'muted small'));
  }
  frag.append(el('p', `Buffer ${count(info.buffer)}`, g ? '' : 'info-title'));
  const dl = el('dl');
  const row = (k, v, mono) => dl.append(el('dt', k), el('dd', v, mono ? 'mono' : ''));
  // Which pool, when the grid shows several side by side.
  if (info.pane) row('Pool', info.pane.label);
  if (info.empty) {
    row('Page', 'none: the buffer is empty');
  } else {
    row('Page', info.tag, true);
  }
  row('Flags', info.flags.length ? info.flags.join(' ') : 'none', true);
  row('Usage count', `${info.usage} of 5`);
  row('Pins', info.pins && info.pinnedBy.length ? `${info.pins} (${info.pinnedBy.join(', ')})` : String(info.pins));
  row('Page LSN', info.lsn, true);
  frag.append(dl);
  // What the lab adds about the buffer: worded lines from its view, some with a table.
  for (const d of Array.isArray(info.lab) ? info.lab : []) {
    const lines = el('dl', undefined, 'lab-details');
    lines.append(el('dt', String(d.label)), el('dd', String(d.value)));
    frag.append(lines);
    if (Array.isArray(d.table) && d.table.length > 1) {
      const limit = compact ? TOOLTIP_ROWS : d.table.length - 1;
      frag.append(el('div', undefined, 'table-wrap'));
      frag.lastChild.append(table(d.table, limit));
      if (d.table.length - 1 > limit) frag.append(el('p', `${plural(d.table.length - 1 - limit, 'more row')}: click the buffer to see them in the inspector.`, 'muted small'));
    }
  }
  return frag;
}

// Tooltip shows buffer details next to the pointer.
export class Tooltip {
  constructor() {
    this.node = $('tooltip');
  }

  // show places the tooltip near client point (x, y) with info, or hides it for null.
  show(info, x, y) {
    if (!info) {
      this.hide();
      return;
    }
    this.node.replaceChildren(describe(info, true));
    this.node.hidden = false;
    const r = this.node.getBoundingClientRect();
    const pad = 14;
    let left = x + pad;
    let top = y + pad;
    // Beside the point where it fits, else on the other side; never off the screen (its size
    // is bounded by the stylesheet).
    if (left + r.width > innerWidth - 8) left = x - pad - r.width;
    if (top + r.height > innerHeight - 8) top = y - pad - r.height;
    left = Math.max(8, Math.min(left, innerWidth - 8 - r.width));
    top = Math.max(8, Math.min(top, innerHeight - 8 - r.height));
    this.node.style.left = `${left}px`;
    this.node.style.top = `${top}px`;
  }

  hide() {
    this.node.hidden = true;
  }

  get visible() {
    return !this.node.hidden;
  }
}

// Inspector is the panel that follows one chosen buffer while the simulation runs.
export class Inspector {
  constructor(bs) {
    this.bs = bs;
    this.id = null;
    this.pane = 0; // the pool the followed buffer is in, when the grid shows several
    this.input = $('inspect-buffer');
    this.out = $('inspector');
    this.input.addEventListener('change', () => {
      const v = this.input.value.trim();
      this.select(v === '' ? null : Number(v));
    });
  }

  // select follows buffer id (null for none) of a pane (the one followed last when not
  // given) and rings it in the grid.
  select(id, pane = this.pane) {
    this.pane = pane;
    const n = this.bs.stats().nbuffers;
    if (id !== null && !(Number.isInteger(id) && id >= 0 && id < n)) {
      this.out.replaceChildren(el('p', `There is no buffer ${this.input.value}: this pool has buffers 0 to ${count(n - 1)}.`, 'muted'));
      $('inspector-live').textContent = `There is no buffer ${this.input.value}.`;
      this.id = null;
      this.bs.highlight(null);
      this.input.classList.add('invalid');
      return;
    }
    this.input.classList.remove('invalid');
    this.id = id;
    this.input.value = id === null ? '' : String(id);
    this.bs.highlight(id, this.pane);
    this.refresh();
    this.announce(id === null ? null : this.bs.buffer(id, this.pane));
  }

  // announce tells screen readers about the buffer the reader chose, once: the details
  // themselves change with every step and are not a live region.
  announce(info) {
    const live = $('inspector-live');
    if (!info || info.ok === false) {
      live.textContent = '';
      return;
    }
    const what = info.empty ? 'empty' : info.tag;
    const where = info.pane ? ` of ${info.pane.label}` : '';
    live.textContent = `Buffer ${count(info.buffer)}${where}: ${what}, usage count ${info.usage}, ${plural(info.pins, 'pin')}${info.dirty ? ', dirty' : ''}.`;
  }

  // refresh redraws the details of the followed buffer.
  refresh() {
    if (this.id === null) {
      this.out.replaceChildren(el('p', 'Click a cell, or type a buffer number.', 'muted'));
      return;
    }
    const info = this.bs.buffer(this.id, this.pane);
    if (!info || info.ok === false) {
      this.select(null);
      return;
    }
    this.out.replaceChildren(describe(info));
  }

  // clear stops following, after the pool was rebuilt.
  clear() {
    this.input.max = String(Math.max(0, this.bs.stats().nbuffers - 1));
    this.select(null);
  }
}
