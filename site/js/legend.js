// The legend (#legend): every colour and mark of the grid, each with a swatch painted by the
// grid's own painter (bufferscope.swatch), so the legend always matches what is drawn.

import { count } from './format.js';

const $ = (id) => document.getElementById(id);

// swatch returns a canvas showing one legend cell.
function swatch(bs, spec) {
  const s = bs.swatch({ size: 24, ...spec });
  const c = document.createElement('canvas');
  c.width = s.width;
  c.height = s.height;
  c.setAttribute('aria-hidden', 'true');
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

// render draws the whole legend for the current pool and theme. Flashes are described only
// when motion is allowed.
export function render(bs, { reducedMotion }) {
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

// showAggregate explains aggregated pixels when the current zoom has them.
export function showAggregate(view) {
  $('legend-aggregate').hidden = !(view && view.block > 1);
}
