// The free-play settings form: each control goes through the bridge, and every change is
// written to the address.

import * as errors from './errors.js';
import { count } from './format.js';

const $ = (id) => document.getElementById(id);

// FIELDS maps each simulation parameter to its control's id.
const FIELDS = {
  shared_buffers: 'shared-buffers',
  seed: 'seed',
  version: 'version',
  clients: 'clients',
  updates: 'updates',
  distribution: 'distribution',
  zipf_s: 'zipf-s',
  os_cache: 'os-cache',
  bgwriter_lru_maxpages: 'bgwriter',
};

// EXACT_LIMIT is the largest pool drawn one cell per buffer (wasm/grid: MaxFlashBuffers).
const EXACT_LIMIT = 131072;

// Controls ties the form to the bridge. hooks.loaded(result) runs after every rebuild.
export class Controls {
  constructor(bs, state, hooks) {
    this.bs = bs;
    this.state = state;
    this.hooks = hooks;
    this.params = {};

    for (const [key, id] of Object.entries(FIELDS)) {
      $(id).addEventListener('change', () => {
        this.state.touch(key);
        this.load(this.collect());
      });
    }
    $('new-seed').addEventListener('click', () => {
      const r = new Uint32Array(1);
      crypto.getRandomValues(r);
      $('seed').value = String((r[0] % 2147483646) + 1);
      this.state.touch('seed');
      this.load(this.collect());
    });
    $('settings').addEventListener('submit', (e) => e.preventDefault());
  }

  // collect reads the form as the bridge's load takes it.
  collect() {
    const p = {};
    for (const [key, id] of Object.entries(FIELDS)) p[key] = $(id).value.trim();
    return p;
  }

  // fill shows normalised parameters in the form.
  fill(params) {
    for (const [key, id] of Object.entries(FIELDS)) {
      const node = $(id);
      const v = params[key];
      if (v === undefined) continue;
      if (node.tagName === 'SELECT' && ![...node.options].some((o) => o.value === v)) {
        // A size from the address that the list does not offer, such as 2GB.
        const o = document.createElement('option');
        o.value = v;
        o.textContent = v;
        node.append(o);
      }
      node.value = v;
      node.classList.remove('invalid');
    }
    $('zipf-field').hidden = params.distribution !== 'zipfian';
  }

  // describePool explains what a large pool costs, next to shared_buffers.
  describePool(nbuffers) {
    const note = $('shared-buffers-note');
    if (nbuffers <= EXACT_LIMIT) {
      note.hidden = true;
      return;
    }
    const bytes = nbuffers * 96;
    const mem = bytes > 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
    note.textContent = `${count(nbuffers)} buffers are drawn several to a pixel; zoom in to see single buffers. The simulation needs about ${mem} of memory in your browser, which a phone may not have.`;
    note.classList.toggle('warn', nbuffers > 4 * 1024 * 1024);
    note.hidden = false;
  }

  // load rebuilds the simulation from params and shows what was wrong with them under
  // title, or leaves that to the caller when title is null. It returns the bridge's result.
  load(params, title = 'A setting was not valid') {
    const res = this.bs.load({ ...params, lab: 'free' });
    if (!res || res.ok === false) {
      errors.show('The simulation could not be rebuilt', [res && res.error ? res.error : 'unknown error'], JSON.stringify(res));
    } else if (title && res.warnings && res.warnings.length) {
      errors.show(title, res.warnings.map((w) => `${w}.`));
    }
    if (res && res.params) {
      const { lab, ...params } = res.params;
      this.params = params;
      this.fill(params);
      for (const p of (res && res.problems) || []) {
        const id = FIELDS[p.key];
        if (id) $(id).classList.add('invalid');
      }
      const n = this.bs.stats().nbuffers;
      $('clients').max = String(Math.min(1000, Math.floor(n / 2)));
      this.describePool(n);
      this.state.set('free', this.params);
    }
    this.hooks.loaded(res);
    return res;
  }
}
