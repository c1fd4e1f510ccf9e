// The leftmost leaves of the index drawn large: each leaf page a box of its items in page
// order, a live item a filled square, a dead one not yet marked a hollow square, an LP_DEAD
// one a square crossed out; its pins (▌, as the grid's bar), its LSN, a hint just set (✓) or
// lost (✗), as the grid marks them, and VACUUM waiting for its pins (a dashed frame). Every
// state has a shape and a word, not a colour alone. The view
// (wasm/labs/pins) describes the leaves in stats().view.leaves: buffer, block, LSN, pins, item
// states (L live, d dead, X LP_DEAD) and their counts, a recent hint, VACUUM waiting.

import { count, plural } from '../../format.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// COLUMNS is how many items a row of a leaf's box holds; CELL is an item's side in SVG units.
const COLUMNS = 32;
const CELL = 6;

// REFRESH_MS bounds how often the leaves are redrawn while the run plays.
const REFRESH_MS = 250;

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// itemsSVG draws a leaf's items from its states string (L live, d dead, X LP_DEAD).
function itemsSVG(states) {
  const rows = Math.max(1, Math.ceil(states.length / COLUMNS));
  const svg = svgEl('svg', { viewBox: `0 0 ${COLUMNS * CELL} ${rows * CELL}`, width: '100%', 'aria-hidden': 'true', class: 'leaf-items' });
  for (let i = 0; i < states.length; i++) {
    const x = (i % COLUMNS) * CELL + 0.75;
    const y = Math.floor(i / COLUMNS) * CELL + 0.75;
    const side = CELL - 1.5;
    const c = states[i];
    if (c === 'L') {
      svg.append(svgEl('rect', { x, y, width: side, height: side, class: 'item-live' }));
    } else {
      svg.append(svgEl('rect', { x: x + 0.4, y: y + 0.4, width: side - 0.8, height: side - 0.8, class: c === 'X' ? 'item-lpdead' : 'item-dead', fill: 'none', 'stroke-width': 0.8 }));
      if (c === 'X') {
        svg.append(svgEl('path', { d: `M${x} ${y}L${x + side} ${y + side}M${x + side} ${y}L${x} ${y + side}`, class: 'item-lpdead', 'stroke-width': 0.8 }));
      }
    }
  }
  return svg;
}

export class LeavesCard {
  constructor(bs, container, summary) {
    this.bs = bs;
    this.container = container;
    this.summary = summary;
    this.at = 0;
    this.key = '';
  }

  update(stats, force = false) {
    if (!this.container) return;
    const now = performance.now();
    if (!force && now - this.at < REFRESH_MS && stats.playing) return;
    this.at = now;
    const leaves = (stats.view && Array.isArray(stats.view.leaves)) ? stats.view.leaves : [];
    const key = JSON.stringify(leaves);
    if (key === this.key) return;
    this.key = key;
    this.container.replaceChildren(...leaves.map((l) => this.leaf(l)));
    const sum = (k) => leaves.reduce((a, l) => a + Number(l[k] || 0), 0);
    this.summary.textContent = leaves.length
      ? `The ${leaves.length} leftmost leaves hold ${count(sum('live'))} live items, ${count(sum('deadUnmarked'))} dead ones not marked and ${count(sum('lpDead'))} marked LP_DEAD${leaves.some((l) => l.vacuumWaiting) ? '; VACUUM is waiting for pins on one of them' : ''}.`
      : 'The leaves appear once the run has read them.';
  }

  leaf(l) {
    const fig = document.createElement('figure');
    fig.className = 'leaf';
    fig.dataset.buffer = String(l.buffer);
    if (l.vacuumWaiting) fig.classList.add('vacuum-waiting');
    const cap = document.createElement('figcaption');
    const badges = []; // [symbol, words]
    if (l.pins > 0) badges.push(['▌', `pinned by ${plural(l.pins, 'backend')}`]);
    if (l.recentHint === 'set') badges.push(['✓', 'hints set']);
    if (l.recentHint === 'lost') badges.push(['✗', 'hints lost']);
    if (l.vacuumWaiting) badges.push(['', 'VACUUM waits for its pins']);
    cap.textContent = `Leaf ${count(l.block)} · buffer ${count(l.buffer)} · LSN ${l.lsn} · ${plural(l.states.length, 'item')}`;
    const b = document.createElement('span');
    b.className = 'leaf-badges';
    b.textContent = badges.map(([sym, words]) => (sym ? `${sym} ${words}` : words)).join(' · ');
    cap.append(document.createElement('br'), b);
    fig.append(cap, itemsSVG(String(l.states || '')));
    fig.setAttribute('aria-label', `Leaf ${count(l.block)}: ${plural(l.live, 'live item')}, ${count(l.deadUnmarked)} dead not marked, ${count(l.lpDead)} LP_DEAD${badges.length ? `; ${badges.map(([, words]) => words).join(', ')}` : ''}`);
    return fig;
  }
}
