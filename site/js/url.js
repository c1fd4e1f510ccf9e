// The page's state in its address: every control writes the query string, and a reload
// reads it back. Free play: ?shared_buffers=1GB&seed=7&distribution=uniform&speed=1000.
// The drop lab: ?lab=drop&shared_buffers=20GB&tables=100x1&op=truncate&transactions=per-relation
// &mode=recovery&policy=pg14&threshold=NB/32&speed=10000.

// LABS are the labs of the page; free play is the default and has no lab= in the address.
export const LABS = ['free', 'drop'];

// PARAM_KEYS are each lab's simulation parameters, in the order the bridge writes them
// (sim.ParamKeys and sim.DropParamKeys).
export const PARAM_KEYS = {
  free: ['shared_buffers', 'seed', 'version', 'clients', 'updates', 'distribution', 'zipf_s', 'os_cache', 'bgwriter_lru_maxpages'],
  drop: ['shared_buffers', 'tables', 'op', 'transactions', 'mode', 'policy', 'threshold'],
};

// PAGE_KEYS are the page's own settings: the lab, the playback speed, and play=0 to open
// paused.
export const PAGE_KEYS = ['lab', 'speed', 'play'];

// ALWAYS are written even when they have their default value, so a shared address names
// the pool and the run (the speed is always written too). The drop lab writes every
// setting: its address is its experiment.
const ALWAYS = {
  free: ['shared_buffers', 'seed'],
  drop: PARAM_KEYS.drop,
};

// readQuery returns the lab in the address, its parameters, the page settings, the keys
// it does not know and a problem with lab= (or null).
export function readQuery(search = location.search) {
  const q = new URLSearchParams(search);
  let lab = q.get('lab') || 'free';
  let problem = null;
  if (!LABS.includes(lab)) {
    problem = `lab "${lab}" is not a lab of this page (${LABS.join(' or ')}); showing free play`;
    lab = 'free';
  }
  const params = {};
  const page = {};
  const unknown = [];
  for (const [k, v] of q) {
    if (PARAM_KEYS[lab].includes(k)) params[k] = v;
    else if (PAGE_KEYS.includes(k)) page[k] = v;
    else unknown.push(k);
  }
  return { lab, params, page, unknown, problem };
}

// State is what the address holds: the lab shown, each lab's parameters (normalised by the
// bridge) and speed, and which free-play keys belong in it (those it was opened with, those
// the reader changed, and ALWAYS).
export class State {
  constructor(initial) {
    this.lab = initial.lab;
    this.params = { free: {}, drop: {} };
    this.speed = { free: undefined, drop: undefined };
    this.keys = new Set(Object.keys(initial.params));
  }

  touch(key) {
    this.keys.add(key);
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

  // show makes lab the one in the address; a new history entry, so Back returns.
  show(lab) {
    if (lab === this.lab) return;
    this.lab = lab;
    this.write(true);
  }

  // follow makes lab the one shown after Back or Forward: the address is already there.
  follow(lab) {
    this.lab = lab;
  }

  // search returns the query string of the lab shown.
  search() {
    const lab = this.lab;
    const q = new URLSearchParams();
    if (lab !== 'free') q.set('lab', lab);
    const params = this.params[lab];
    for (const k of PARAM_KEYS[lab]) {
      if ((ALWAYS[lab].includes(k) || this.keys.has(k)) && params[k] !== undefined) q.set(k, params[k]);
    }
    if (this.speed[lab] !== undefined) q.set('speed', this.speed[lab]);
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
