// The page's state in its address: every control writes the query string, and a reload
// reads it back. ?lab=NAME picks the lab (the first lab when absent); every other key is a
// parameter of that lab (its table, from bufferscope.labs()) or one of the page's own keys.
// Example: ?lab=drop&shared_buffers=20GB&tables=100x1&policy=pg14&speed=10000.
//
// A key given more than once takes its last value, as a reader who appends to an address
// expects, and the page says so. Every value reaches the page as text: messages quote it
// (format.js quote) and are set as text.

import { quote } from './format.js';

// PAGE_KEYS are the page's own settings: the lab, the playback speed, play=0 to open
// paused, step=N to open paused at step N of the run (written while the run stands still:
// paused, stepped or sought, never every frame), and the guide's tour step or exercise and
// its seed (js/guide.js).
export const PAGE_KEYS = ['lab', 'speed', 'play', 'step', 'tour', 'exercise', 'exseed'];

// EXTRA_KEYS are the page keys that State.setExtra writes, in this order.
const EXTRA_KEYS = ['tour', 'exercise', 'exseed'];

// MAX_STEP is the furthest step an address may name (the bridge's seek bound, 2^40).
export const MAX_STEP = 2 ** 40;

// readStep reads an address's step: a whole number from 0 to MAX_STEP. It returns
// {step} or {step: 0, problem} with the reason in words; no step gives {step: null}.
export function readStep(text) {
  if (text === undefined || text === null) return { step: null };
  const t = String(text).trim();
  if (!/^[0-9]+$/.test(t) || Number(t) > MAX_STEP) {
    return { step: 0, problem: `step ${quote(text)} is not a whole number from 0 to ${MAX_STEP.toLocaleString('en-US')}; starting at step 0` };
  }
  return { step: Number(t) };
}

// readPlay reads an address's play: 0 opens paused, 1 (or none) plays. It returns a
// problem in words for anything else, which plays.
export function readPlay(text) {
  if (text === undefined || text === '0' || text === '1') return null;
  return `play ${quote(text)} is not 0 (open paused) or 1 (play); playing`;
}

// readQuery splits the address into the lab named (or "" for none), the other keys and
// values, and the page's settings. Which keys belong to the lab is known once the labs are
// (splitParams). A key given more than once takes its last value; problems says so.
export function readQuery(search = location.search) {
  const q = new URLSearchParams(search);
  const values = Object.create(null); // "__proto__" and "constructor" are keys like others
  const page = Object.create(null);
  const times = new Map();
  for (const [k, v] of q) {
    times.set(k, (times.get(k) || 0) + 1);
    if (PAGE_KEYS.includes(k)) page[k] = v;
    else values[k] = v;
  }
  const problems = [];
  for (const [k, n] of times) {
    if (n > 1) problems.push(`${quote(k)} is given ${n} times; using the last, ${quote(k in page ? page[k] : values[k])}`);
  }
  return { lab: page.lab || '', values, page, problems };
}

// splitParams separates the values of lab's parameters from keys it does not know, and says
// in words (unknown) that those were ignored.
export function splitParams(lab, values) {
  const keys = new Set(lab.params.map((p) => p.key));
  const params = {};
  const unknown = [];
  for (const [k, v] of Object.entries(values)) {
    if (keys.has(k)) params[k] = v;
    else unknown.push(k);
  }
  return { params, unknown: unknown.map((k) => `${quote(k)} is not a setting of ${lab.title}; it was ignored`) };
}

// KEPT is the sessionStorage key under which State.keep leaves the other labs' settings.
const KEPT = 'bufferscope:kept-labs';

// State is what the address holds: the lab shown, each lab's parameters (normalised by the
// bridge) and speed, and which keys belong in it (those it was opened with, those the
// reader changed, and shared_buffers and seed, which name the pool and the run).
export class State {
  constructor(labs, first, initialKeys) {
    this.labs = labs; // bufferscope.labs()
    this.lab = first;
    this.params = {};
    this.speed = {};
    this.extra = {};
    this.step = null; // the step the run stands at, when paused; null while it plays
    this.keys = {};
    for (const l of labs) {
      this.params[l.name] = {};
      this.keys[l.name] = new Set(['shared_buffers', 'seed']);
    }
    for (const k of initialKeys) this.keys[first].add(k);
  }

  // keep stores the other labs' parameters for this tab (sessionStorage) before the page
  // reloads itself, and restore takes them back after, so that a lab left at 20GB is still
  // at 20GB: the address holds only the lab shown.
  keep() {
    const kept = {};
    for (const l of this.labs) {
      if (l.name !== this.lab) kept[l.name] = { params: this.params[l.name], keys: [...this.keys[l.name]] };
    }
    try {
      sessionStorage.setItem(KEPT, JSON.stringify(kept));
    } catch {
      // Storage may be refused (a sandboxed frame, private mode): the labs start afresh.
    }
  }

  restore() {
    let kept = null;
    try {
      kept = JSON.parse(sessionStorage.getItem(KEPT) || 'null');
      sessionStorage.removeItem(KEPT);
    } catch {
      return;
    }
    if (!kept || typeof kept !== 'object') return;
    for (const l of this.labs) {
      const k = kept[l.name];
      if (l.name === this.lab || !k || typeof k.params !== 'object' || !k.params || !Array.isArray(k.keys)) continue;
      const known = new Set(l.params.map((p) => p.key));
      for (const [key, v] of Object.entries(k.params)) if (known.has(key) && typeof v === 'string') this.params[l.name][key] = v;
      for (const key of k.keys) if (known.has(key)) this.keys[l.name].add(key);
    }
  }

  touch(key) {
    this.keys[this.lab].add(key);
  }

  // set records a lab's parameters and writes the address if that lab is shown.
  set(lab, params) {
    this.params[lab] = params;
    if (lab === this.lab) this.write();
  }

  // setSpeed records the speed of the lab shown, in its address form ("1000", "max").
  setSpeed(param) {
    this.speed[this.lab] = param;
    this.write();
  }

  // setExtra writes page key (one of EXTRA_KEYS) to the address, or removes it when value
  // is undefined. The keys belong to the lab shown and are dropped when it changes.
  setExtra(key, value) {
    if (value === undefined) delete this.extra[key];
    else this.extra[key] = value;
    this.write();
  }

  // setStep records the step the run stands still at, or null for none.
  setStep(step) {
    if (step === this.step) return;
    this.step = step;
    this.write();
  }

  // show makes lab the one in the address; a new history entry, so Back returns.
  show(lab) {
    if (lab === this.lab) return;
    this.lab = lab;
    this.extra = {};
    this.step = null;
    this.write(true);
  }

  // follow makes lab the one shown after Back or Forward: the address is already there.
  follow(lab) {
    this.lab = lab;
    this.step = null;
  }

  // search returns the query string of the lab shown.
  search() {
    const lab = this.labs.find((l) => l.name === this.lab);
    const q = new URLSearchParams();
    if (lab !== this.labs[0]) q.set('lab', this.lab);
    const params = this.params[this.lab];
    for (const p of lab ? lab.params : []) {
      if (this.keys[this.lab].has(p.key) && params[p.key] !== undefined) q.set(p.key, params[p.key]);
    }
    if (this.speed[this.lab] !== undefined) q.set('speed', this.speed[this.lab]);
    for (const k of EXTRA_KEYS) if (this.extra[k] !== undefined) q.set(k, this.extra[k]);
    if (this.step !== null) q.set('step', String(this.step));
    // "/" and "," may stand in a query as they are: threshold=NB/32, tables=1x44800,100x490.
    return `?${q.toString().replaceAll('%2F', '/').replaceAll('%2C', ',')}`;
  }

  write(push = false) {
    const search = this.search();
    if (search === location.search) return;
    try {
      if (push) history.pushState({ lab: this.lab }, '', search + location.hash);
      else history.replaceState(history.state, '', search + location.hash);
    } catch {
      // A sandboxed frame may refuse; the page still works.
    }
  }
}
