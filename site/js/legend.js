// The legend (#legend): every colour and mark of the grid, from the lab's legend
// (bufferscope.legend()), each with a swatch painted by the grid's own painter
// (bufferscope.swatch), so the legend always matches what is drawn.

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

function item(visual, label, desc, wide) {
  const li = document.createElement('li');
  if (wide) li.classList.add('wide');
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

function row(...nodes) {
  const d = document.createElement('div');
  d.className = 'pair';
  d.append(...nodes);
  return d;
}

// render draws the whole legend for the current run and theme. Entries that only move are
// left out when the reader asks for reduced motion, as the grid leaves them out too.
export function render(bs, { reducedMotion }) {
  const legend = bs.legend() || { roles: [], marks: [] };
  const rels = bs.relations() || [];
  const roles = [];
  const blocksOf = (names) => rels.filter((x) => names.includes(x.name)).reduce((n, x) => n + x.blocks, 0);
  // A role without a label continues the one before it: its swatch joins that entry's row
  // (the shades of one family of relations).
  for (let i = 0; i < legend.roles.length; i++) {
    const r = legend.roles[i];
    if (!r.label) continue;
    const sw = [swatch(bs, { role: i, usage: 5 })];
    const shapes = [r.pattern];
    let names = [...r.relations];
    for (let j = i + 1; j < legend.roles.length && !legend.roles[j].label; j++) {
      if (legend.roles[j].relations.length) {
        sw.push(swatch(bs, { role: j, usage: 5 }));
        shapes.push(legend.roles[j].pattern);
      }
      names = names.concat(legend.roles[j].relations);
    }
    if (!names.length) continue; // nothing in the pool has this colour
    const blocks = blocksOf(names);
    const size = `${count(blocks)} ${blocks === 1 ? 'block' : 'blocks'}`;
    let desc;
    if (names.length === 1 && names[0] === r.label) {
      const rel = rels.find((x) => x.name === names[0]);
      desc = `${size}${rel && !rel.permanent ? ', unlogged' : ''}`;
    } else {
      const who = names.length === 1 ? names[0] : `${names[0]} to ${names[names.length - 1]}`;
      desc = `${who}: ${count(names.length)} ${names.length === 1 ? 'relation' : 'relations'}, ${size}. ${r.doc || ''}`.trim();
    }
    // The shape each colour's cells also carry, in words, so no entry is told by colour alone.
    const known = shapes.filter(Boolean);
    if (known.length) desc = `${desc}${desc ? ' ' : ''}${known.length > 1 ? 'Shapes' : 'Shape'}: ${known.map(shapeName).join(', ')}.`;
    roles.push(item(sw.length > 1 ? row(...sw) : sw[0], r.label, desc, sw.length > 1));
  }
  $('legend-relations').replaceChildren(...roles);

  const marks = [];
  for (const m of legend.marks) {
    if (m.motion && reducedMotion) continue;
    let visual;
    if (m.key === 'usage') {
      visual = row(...[0, 1, 2, 3, 4, 5].map((u) => swatch(bs, { role: 0, usage: u })));
    } else {
      visual = swatch(bs, { mark: m.key });
    }
    marks.push(item(visual, m.label, m.doc, m.wide || m.key === 'usage'));
  }
  if (reducedMotion && legend.marks.some((m) => m.motion)) {
    const p = document.createElement('li');
    p.className = 'desc';
    p.textContent = 'Flashes and fading marks are off because your system asks for reduced motion.';
    marks.push(p);
  }
  $('legend-marks').replaceChildren(...marks);
}

// shapeName writes a pattern of grid.Patterns in words.
function shapeName(p) {
  return { plain: 'none', square: 'square', dash: 'dash', bar: 'bar', backslash: 'falling line', box: 'outlined square', plus: 'plus', slash: 'rising line' }[p] || p;
}

// showAggregate explains aggregated pixels when the current zoom has them.
export function showAggregate(view) {
  $('legend-aggregate').hidden = !(view && view.block > 1);
}
