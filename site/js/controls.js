// The settings form, built from the lab's parameter table (bufferscope.labs()[i].params):
// a select for a choice or for presets, a number box for a number, a text box otherwise.
// Every change goes through the bridge's load, which reads the values with the same table
// as the address and the headless command, and every change is written to the address.
// The lab's page module (js/labs/) may add notes under the controls and hide some.

import * as errors from './errors.js';

const $ = (id) => document.getElementById(id);

// controlId is the id of parameter key's control.
export const controlId = (key) => `p-${key}`;

// el makes an element: props are its attributes, with text its text, class its class and a
// function under an on… key a listener (onclick: the click's). Text under an on… key is
// dropped: an attribute would make it code.
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else if (/^on/i.test(k)) {
      if (typeof v === 'function') e.addEventListener(k.slice(2), v);
    } else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

// option returns an <option> for a choice or preset.
function option(o) {
  return el('option', { value: o.value, text: o.label || o.value });
}

// Controls ties the form to the bridge for one lab at a time.
// hooks.loaded(result) runs after every rebuild.
export class Controls {
  constructor(bs, state, hooks) {
    this.bs = bs;
    this.state = state;
    this.hooks = hooks;
    this.lab = null; // the lab description the form shows
    this.page = {}; // the lab's page module
    this.params = {};
    $('settings').addEventListener('submit', (e) => e.preventDefault());
  }

  // build makes the form for lab, described by bufferscope.labs(), with its page module.
  build(lab, page) {
    this.lab = lab;
    this.page = page;
    const main = [];
    const more = [];
    for (const f of lab.params) (f.advanced ? more : main).push(this.field(f));
    $('settings-main').replaceChildren(...main);
    $('settings-advanced').replaceChildren(...more);
    $('settings-more').hidden = more.length === 0;
    $('settings-heading').textContent = page.settingsTitle || 'Settings';
  }

  // field makes one parameter's control with its label and note.
  field(f) {
    const id = controlId(f.key);
    let input;
    if (f.kind === 'choice' || f.presets) {
      input = el('select', { id, name: f.key });
      input.append(...(f.choices || f.presets).map(option));
    } else if (f.kind === 'int' || f.kind === 'float' || f.kind === 'uint') {
      input = el('input', { id, name: f.key, type: 'number', inputmode: f.kind === 'float' ? 'decimal' : 'numeric' });
      if (f.min !== undefined) input.min = String(f.min);
      if (f.max !== undefined) input.max = String(f.max);
      input.step = f.kind === 'float' ? String(f.step || 'any') : '1';
      if (f.kind === 'uint') input.min = '0';
    } else {
      input = el('input', { id, name: f.key, type: 'text', spellcheck: 'false', autocomplete: 'off' });
    }
    input.value = f.default;
    input.title = f.doc;
    const noteId = `${id}-note`;
    input.setAttribute('aria-describedby', noteId);
    input.addEventListener('change', () => {
      this.state.touch(f.key);
      this.load(this.collect());
    });
    const label = el('label', { for: id, text: f.label });
    if (f.unit && f.kind !== 'choice' && f.unit !== 'size' && f.unit.toLowerCase() !== f.label.toLowerCase()) {
      label.append(' ', el('span', { class: 'muted', text: f.unit }));
    }
    const row = [input];
    if (f.key === 'seed') {
      const again = el('button', { type: 'button', id: 'new-seed', text: 'New seed' });
      again.addEventListener('click', () => {
        const r = new Uint32Array(1);
        crypto.getRandomValues(r);
        input.value = String((r[0] % 2147483646) + 1);
        this.state.touch('seed');
        this.load(this.collect());
      });
      row.push(again);
    }
    const narrow = (f.kind === 'int' || f.kind === 'float') && row.length === 1;
    return el('div', { class: narrow ? 'field' : 'field wide', id: `${id}-field` }, label,
      row.length > 1 ? el('div', { class: 'inline' }, ...row) : input,
      el('p', { id: noteId, class: 'note' }));
  }

  // collect reads the form as the bridge's load takes it.
  collect() {
    const p = {};
    for (const f of this.lab.params) p[f.key] = $(controlId(f.key)).value.trim();
    return p;
  }

  // fill shows normalised parameters, the ranges in force and each control's note.
  fill(params, limits = {}) {
    for (const f of this.lab.params) {
      const node = $(controlId(f.key));
      const v = params[f.key];
      if (!node || v === undefined) continue;
      if (node.tagName === 'SELECT' && ![...node.options].some((o) => o.value === v)) {
        node.append(option({ value: v })); // a value from the address the list does not offer
      }
      node.value = v;
      node.classList.remove('invalid');
      const lim = limits[f.key] || {};
      if (node.tagName === 'INPUT' && lim.min !== undefined) {
        node.min = String(lim.min);
        node.max = String(lim.max);
      }
      if (node.tagName === 'SELECT') {
        // What the values in force refuse is offered greyed out, with the reason, so that
        // nobody picks what would be refused (ring sizes on a server without the setting).
        const refused = lim.refused || {};
        for (const o of node.options) {
          const why = o.value === v ? undefined : refused[o.value];
          o.disabled = why !== undefined;
          o.title = why === undefined ? '' : `Not offered with these settings: ${why}`;
        }
      }
    }
    this.explain(params);
  }

  // explain writes each control's note: the page module's words for it, else the doc of
  // the choice made; and hides the controls the module says do not apply.
  explain(params) {
    const stats = this.bs.stats();
    const notes = (this.page.notes && this.page.notes(params, stats)) || {};
    const hidden = (this.page.hidden && this.page.hidden(params)) || [];
    const disabled = (this.page.disabled && this.page.disabled(params)) || [];
    for (const f of this.lab.params) {
      const id = controlId(f.key);
      const note = $(`${id}-note`);
      if (!note) continue;
      let t = notes[f.key];
      if (t === undefined && f.kind === 'choice') {
        const c = f.choices.find((o) => o.value === params[f.key]);
        t = c && c.doc ? c.doc : '';
      }
      note.textContent = t || '';
      note.hidden = !t;
      note.classList.toggle('warn', Boolean(notes[`${f.key}:warn`]));
      $(`${id}-field`).hidden = hidden.includes(f.key);
      $(id).disabled = disabled.includes(f.key);
    }
  }

  // load rebuilds the simulation from params and shows what was wrong with them under
  // title, or leaves that to the caller when title is null. It returns the bridge's result.
  load(params, title = 'A setting was not valid') {
    const res = this.bs.load({ ...params, lab: this.lab.name });
    if (!res || res.ok === false) {
      errors.show('The simulation could not be rebuilt', [res && res.error ? res.error : 'unknown error'], JSON.stringify(res));
    } else if (title && res.warnings && res.warnings.length) {
      errors.show(title, res.warnings.map((w) => `${w}.`));
    }
    if (res && res.params) {
      const { lab, ...p } = res.params;
      this.params = p;
      this.fill(p, res.limits);
      for (const pr of res.problems || []) {
        const node = $(controlId(pr.key));
        if (node) node.classList.add('invalid');
      }
      this.state.set(this.lab.name, p);
    }
    this.hooks.loaded(res);
    return res;
  }
}
