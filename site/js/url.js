// The page's state in its address: every control writes the query string, and a reload
// reads it back (?shared_buffers=1GB&seed=7&distribution=uniform&speed=1000).

// PARAM_KEYS are the simulation's parameters, in the order sim.ParamKeys writes them.
export const PARAM_KEYS = ['shared_buffers', 'seed', 'version', 'clients', 'updates', 'distribution', 'zipf_s', 'os_cache', 'bgwriter_lru_maxpages'];

// PAGE_KEYS are the page's own settings: playback speed, and play=0 to open paused.
export const PAGE_KEYS = ['speed', 'play'];

// ALWAYS are written even when they have their default value, so a shared address names
// the pool and the run.
const ALWAYS = ['shared_buffers', 'seed', 'speed'];

// readQuery returns the parameters in the address, the page settings and the keys it does
// not know.
export function readQuery(search = location.search) {
  const q = new URLSearchParams(search);
  const params = {};
  const page = {};
  const unknown = [];
  for (const [k, v] of q) {
    if (PARAM_KEYS.includes(k)) params[k] = v;
    else if (PAGE_KEYS.includes(k)) page[k] = v;
    else unknown.push(k);
  }
  return { params, page, unknown };
}

// State tracks which keys belong in the address: those it was opened with, those the reader
// changed, and ALWAYS.
export class State {
  constructor(initial) {
    this.keys = new Set([...ALWAYS, ...Object.keys(initial.params), ...Object.keys(initial.page).filter((k) => k !== 'play')]);
  }

  touch(key) {
    this.keys.add(key);
  }

  // write replaces the query string with params (normalised by the bridge) and speed.
  write(params, speed) {
    const q = new URLSearchParams();
    for (const k of PARAM_KEYS) {
      if (this.keys.has(k) && params[k] !== undefined) q.set(k, params[k]);
    }
    if (this.keys.has('speed') && speed !== undefined) q.set('speed', speed);
    const search = `?${q.toString()}`;
    if (search !== location.search) {
      try {
        history.replaceState(history.state, '', search + location.hash);
      } catch {
        // A sandboxed frame may refuse; the page still works.
      }
    }
  }
}
