// The JavaScript API of bufferscope's WebAssembly app: the global object `bufferscope`.
//
// It is installed by wasm/bridge_js.go when the Go program starts. Then the app calls
// `window.bufferscopeReady()` if the page defined it, and dispatches `bufferscope:ready` on
// window. This file is documentation and editor help only; the build does not bundle it.
//
// Rules that hold for every method:
// - It never throws. Bad arguments give `{ok: false, error}` or a warning and a safe value;
//   a Go panic inside a call is recovered and returned as `{ok: false, error}`.
// - Page callbacks (subscribers, events) run from microtasks, after the call that caused
//   them has returned, never inside Go.
// - The same parameters and seed and the same sequence of `step(n)` calls give the same
//   `hash` as package sim does natively.

export {};

declare global {
  interface Window {
    bufferscope?: Bufferscope;
    /** Called once when the bridge is installed, if defined. */
    bufferscopeReady?: () => void;
  }
  interface WindowEventMap {
    /** The bridge is installed. */
    'bufferscope:ready': CustomEvent<{ version: string }>;
    /** Playback stopped on an error (fatal: the grid cannot be drawn at all). */
    'bufferscope:error': CustomEvent<{ message: string; fatal?: boolean }>;
  }
}

/** Parameter values as text, keyed as in a URL (sim.ParamKeys). Numbers are accepted too. */
export interface Params {
  shared_buffers?: string; // "128kB" … "100GB", or a number of 8 kB buffers
  seed?: string; // 0 … 18446744073709551615; pass seeds above 2^53 as strings
  version?: string; // PostgreSQL major version, 14 … 19
  clients?: string; // 0 … min(1000, NBuffers/2)
  updates?: string; // % of accesses that change the page
  distribution?: string; // "uniform" | "zipfian"
  zipf_s?: string; // 1.001 … 1000
  os_cache?: string; // % of misses the kernel's page cache serves
  bgwriter_lru_maxpages?: string; // 0 turns the background writer off
}

export interface ParamProblem {
  key: string;
  value: string; // what was given
  problem: string; // why it was refused
  used: string; // the safe value used instead
}

export interface LoadResult {
  ok: boolean; // false only when the simulation could not be built; the old one stays
  error?: string;
  warnings: string[]; // one sentence per refused value
  problems: ParamProblem[];
  params: Required<Params>; // every parameter, normalised ("16384" → "128MB")
}

export interface Stats {
  step: number; // simulation steps so far
  now: number; // modelled time, seconds
  nbuffers: number;
  sharedBuffers: string; // "128MB"
  seed: string;
  version: number; // PostgreSQL major version
  accesses: number;
  hits: number;
  misses: number;
  hitRatio: number; // 0 … 1
  readsOSCache: number;
  readsDisk: number;
  evictions: number;
  dirtyWrites: number; // dirty victims written by backends
  bgwriterWrites: number;
  checkpointWrites: number;
  updates: number;
  walFlushes: number;
  walFlushesBackend: number; // forced by a backend writing a dirty victim
  walFlushesWriter: number; // done by the WAL writer
  walInsert: string; // LSN, "0/1008310"
  walFlushed: string;
  clockHand: number; // buffer the clock sweep examines next
  sweepPasses: number;
  playing: boolean;
  speed: number; // steps per second; Infinity for max
  speedLabel: string; // "1,000 steps/s", "max"
  speedParam: string; // "1000", "max": the URL form
  rate: number; // steps per second of wall time actually run, over the last second
  frames: number; // frames drawn with new pixels; > 0 once the grid has been drawn
  fps: number;
  tps: number;
  updateMs: number; // Go time per Ebiten tick, averaged over a second
  paintMs: number; // of which painting and uploading pixels
  error: string | null; // why playback stopped, until reset or load
  hash?: string; // Sim.Hash, 16 hex digits; only from stats(), not in subscriber calls
}

export interface BufferInfo {
  buffer: number;
  empty: boolean;
  tag: string | null; // "pgbench_accounts/main/12"
  relation: string | null;
  fork: string | null;
  block: number | null;
  flags: string[]; // BM_ flags without the prefix: "VALID", "TAG_VALID", "DIRTY", …
  usage: number; // usage count, 0 … 5
  pins: number; // backends pinning it (the shared refcount)
  pinnedBy: string[]; // "c3×1": workload client 3 holds one pin; "b0×2": command backend 0
  lsn: string; // page LSN
  dirty: boolean;
  valid: boolean;
  /** Set when the pixel under the point stands for a block of buffers. */
  group?: {
    first: number; // the block's top-left buffer, described above
    side: number; // the block is side × side buffers of the arrangement
    count: number;
    empty: number;
    dirty: number;
    pinned: number;
    relation: string; // the relation most of them hold, or ""
    relationCount: number;
    usage0: number;
  };
}

export interface Relation {
  index: number;
  name: string;
  color: string; // "#rrggbb" in the current theme
  blocks: number; // main fork size
  permanent: boolean; // false for unlogged relations
}

export interface View {
  zoomed: boolean; // closer than the zoom that shows the whole pool
  label: string; // "5 px per buffer", "36 buffers per pixel"
  cell: number; // pixels per buffer side (1 when block > 1)
  block: number; // buffers per pixel side (1 when cell ≥ 1)
  canZoomIn: boolean;
  canZoomOut: boolean;
  width: number; // canvas, CSS pixels
  height: number;
  cols: number; // the pool's arrangement: buffer id = row * cols + col
  rows: number;
}

export interface Speed {
  value: number; // steps per second; Infinity for max
  label: string;
  param: string;
}

export interface Failure {
  ok: false;
  error: string;
}

export interface Bufferscope {
  readonly version: string;

  /** Rebuilds the simulation from params; bad values get safe defaults and warnings. */
  load(params?: Params): LoadResult;
  play(): { ok: true; playing: true } | Failure;
  pause(): { ok: true; playing: false };
  /** Runs exactly n steps (default 1), playing or paused. n is a whole number ≤ 1e8. */
  step(n?: number): { ok: boolean; step: number; error?: string } | Failure;
  /** 0 < x ≤ 1e7, or Infinity or "max"; anything else is clamped or kept, with a warning. */
  setSpeed(stepsPerSecond: number | string): { ok: true; speed: number; label: string; param: string; warnings: string[] };
  /** The speed slider's ladder: 1, 2, 5, 10 … 1M steps/s, then max. */
  speeds(): Speed[];
  /** Starts the same run again: same parameters, same seed. */
  reset(): { ok: true } | Failure;
  setSeed(seed: number | string): { ok: true; seed: string } | Failure;
  /** Applies one command as sim.ParseCommand reads it: "checkpoint", "pin b=0 rel=pgbench_branches blk=0", … */
  apply(command: string): { ok: true } | Failure;
  stats(): Stats;
  /** fn(stats) runs at once, then about 10 times a second while anything changes. */
  subscribe(fn: (stats: Stats) => void): number | Failure;
  unsubscribe(id: number): { ok: boolean };

  /** The buffer under a point given in client (viewport) coordinates, or null. */
  inspect(clientX: number, clientY: number): BufferInfo | null;
  /** The buffer under a point given in canvas pixels, or null. */
  cellAt(x: number, y: number): BufferInfo | null;
  buffer(id: number): BufferInfo | null;
  relations(): Relation[];
  /** Sim.Hash of the whole state as 16 hex digits; reads the whole pool (slow for 100 GB). */
  snapshotHash(): string;

  /** Moves along the zoom ladder (positive is closer), about a client point or the centre. */
  zoom(steps: number, clientX?: number, clientY?: number): View | Failure;
  /** Moves the pool by dx, dy CSS pixels, as far as it can go. */
  pan(dx: number, dy: number): View | Failure;
  /** Shows the whole pool. */
  fit(): View;
  view(): View;
  /** Rings one buffer, as the inspector does; null or -1 for none. */
  highlight(id: number | null): { ok: true; buffer: number };
  setTheme(theme: 'light' | 'dark'): { ok: boolean; theme: string; error?: string };
  /** Turns the read and write flashes off (true) or on. */
  setReducedMotion(reduced: boolean): { ok: true; reducedMotion: boolean };
  /** Paints one legend cell with the grid's painter: RGBA pixels of a size × size square. */
  swatch(spec: {
    rel?: number; // relation index, or -1 for an empty buffer
    usage?: number;
    dirty?: boolean;
    pinned?: boolean;
    hand?: boolean;
    read?: number; // read flash, 0 … 1
    write?: number; // write flash, 0 … 1
    size?: number; // 8 … 128, default 24
  }): { width: number; height: number; data: Uint8ClampedArray };
}
