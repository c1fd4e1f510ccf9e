// The legend (#legend): every colour and mark of the grid, each with a swatch painted by the
// grid's own painter (bufferscope.swatch), so the legend always matches what is drawn.

import { count } from './format.js';

const $ = (id) => document.getElementById(id);

// swatch returns a canvas showing one legend cell.
function swatch(bs, spec) {
  const s = bs.swatch({ size: 24, ...spec });
  const c = document.createElement('canvas');
  c.setAttribute('aria-hidden', 'true');
  if (!s || !s.data) return c; // a mark this build of the app does not paint
  c.width = s.width;
  c.height = s.height;
  c.getContext('2d').putImageData(new ImageData(s.data, s.width, s.height), 0, 0);
  return c;
}

function item(visual, label, desc) {
  const li = document.createElement('li');
  const text = document.createElement('div');
  const strong = document.createElement('strong');
  strong.textContent = label;
  text.append(strong);
  if (desc) {
    const d = document.createElement('div');
    d.className = 'desc';
    d.textContent = desc;
    text.append(d);
  }
  li.append(visual, text);
  return li;
}

// mark returns a canvas showing one of the drop lab's marks (bufferscope.swatch({mark})).
function mark(bs, name) {
  return swatch(bs, { mark: name });
}

// render draws the whole legend for the current pool, lab and theme. Flashes are described
// only when motion is allowed.
export function render(bs, { reducedMotion, lab = 'free' }) {
  if (lab === 'drop') {
    renderDrop(bs, { reducedMotion });
    return;
  }
  const rels = bs.relations() || [];
  $('legend-relations').replaceChildren(...rels.map((r) => item(
    swatch(bs, { rel: r.index, usage: 5 }),
    r.name,
    `${count(r.blocks)} ${r.blocks === 1 ? 'block' : 'blocks'}${r.permanent ? '' : ', unlogged'}`,
  )));

  const usage = document.createElement('div');
  usage.className = 'pair';
  for (let u = 0; u <= 5; u++) usage.append(swatch(bs, { rel: 0, usage: u }));
  const usageItem = item(usage, 'Usage count 0 to 5', 'Fuller colour and more ticks along the bottom the more the page was used. Each time the clock hand passes an unpinned buffer it lowers the count; at 0 the buffer is the next victim.');
  usageItem.classList.add('wide');

  const marks = [
    item(swatch(bs, { rel: -1 }), 'Empty buffer', 'Holds no page yet; new pages go here first.'),
    usageItem,
    item(swatch(bs, { rel: 0, usage: 3, dirty: true }), 'Dirty (corner triangle)', 'Changed in memory. Before the buffer can be reused the page must be written, and the WAL up to its LSN flushed first.'),
    item(swatch(bs, { rel: 0, usage: 3, pinned: true }), 'Pinned (bar on the left)', 'A backend is using the page right now; the clock sweep must skip it.'),
    item(swatch(bs, { rel: 0, usage: 2, hand: true }), 'Clock hand (ring)', 'The buffer the clock sweep looks at next. Markers in the rulers along the top and left edges point at it.'),
  ];
  if (!reducedMotion) {
    marks.push(
      item(swatch(bs, { rel: 0, usage: 1, read: 0.8 }), 'Flash', 'A page was just read into the buffer: a miss, after an eviction once the pool is full.'),
      item(swatch(bs, { rel: 0, usage: 1, write: 1 }), 'Ring flash', 'A dirty page was just written out.'),
    );
  }
  $('legend-marks').replaceChildren(...marks);
  if (reducedMotion) {
    const p = document.createElement('li');
    p.className = 'desc';
    p.textContent = 'Flashes for reads and writes are off because your system asks for reduced motion.';
    $('legend-marks').append(p);
  }
}

// DROP_SHADES is how many colours the dropped relations take in turn (grid.DropShades).
const DROP_SHADES = 4;

// renderDrop draws the drop lab's legend: the dropped relations and the rest of the pool,
// then the marks of the scan and the lookups.
function renderDrop(bs, { reducedMotion }) {
  const rels = bs.relations() || [];
  const dropped = rels.filter((r) => r.dropped !== false && r.name !== 'others');
  const rest = rels.filter((r) => !dropped.includes(r));
  const shades = document.createElement('div');
  shades.className = 'pair';
  for (const r of dropped.slice(0, DROP_SHADES)) shades.append(swatch(bs, { rel: r.index, usage: 3 }));
  const items = [];
  if (dropped.length) {
    const blocks = dropped.reduce((n, r) => n + r.blocks, 0);
    const names = dropped.length === 1 ? dropped[0].name : `${dropped[0].name} to ${dropped[dropped.length - 1].name}`;
    const rel = item(shades, `${names}: the ${dropped.length === 1 ? 'relation' : `${count(dropped.length)} relations`} dropped`,
      `${count(blocks)} ${blocks === 1 ? 'block' : 'blocks'} in all${dropped.length > DROP_SHADES ? `, in ${DROP_SHADES} shades in turn` : ''}.`);
    if (dropped.length > 1) rel.classList.add('wide');
    items.push(rel);
  }
  for (const r of rest) {
    items.push(item(swatch(bs, { rel: r.index, usage: 3 }), r.name, 'Pages of other relations, filling the rest of the pool: a full scan must check them all.'));
  }
  items.push(item(swatch(bs, { rel: -1 }), 'Empty buffer', 'On the freelist: a dropped page leaves its buffer empty.'));
  $('legend-relations').replaceChildren(...items);

  const marks = [
    item(mark(bs, 'cursor'), 'Scan cursor (ring)', 'The next descriptor the full scan checks; markers in the rulers point at it.'),
    item(mark(bs, 'checked'), 'Checked (blue tint)', 'Descriptors the full scan under way has already checked.'),
  ];
  if (!reducedMotion) marks.push(item(mark(bs, 'trail'), 'Just checked', 'Those it checked in the last half second, fading behind the cursor.'));
  marks.push(
    item(mark(bs, 'found'), 'Found by a lookup', 'A lookup in the buffer mapping table went straight to this buffer; a ring marks the latest.'),
    item(mark(bs, 'dropped'), 'Invalidated (red)', 'InvalidateBuffer emptied it: the page is discarded, unwritten.'),
  );
  const lane = item(pair(mark(bs, 'hit'), mark(bs, 'miss')), 'The lane under the grid',
    'A blue bar tracks the full scan through the pool. The tape shows the latest lookups, newest at the right: a bar in the relation\'s colour for a block that was in shared buffers, a hollow bar for one that was not. The lookups pay for every block, cached or not.');
  lane.classList.add('wide');
  marks.push(lane);
  if (reducedMotion) {
    const p = document.createElement('li');
    p.className = 'desc';
    p.textContent = 'Flashes and fading trails are off because your system asks for reduced motion.';
    marks.push(p);
  }
  $('legend-marks').replaceChildren(...marks);
}

function pair(...nodes) {
  const d = document.createElement('div');
  d.className = 'pair';
  d.append(...nodes);
  return d;
}

// showAggregate explains aggregated pixels when the current zoom has them.
export function showAggregate(view) {
  $('legend-aggregate').hidden = !(view && view.block > 1);
}
