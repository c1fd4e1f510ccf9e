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
//   `hash` as package sim does natively: in free play sim.New(params.Config()) then Step(n);
//   in the drop lab sim.NewDropLab(p.Experiment(), p.Policy) then Step(n), whatever the
//   speed and however the steps fell into frames.
//
// Two labs share the API; `load({lab})` chooses one:
// - "free" (the default): free play, a pgbench-like workload on the pool.
// - "drop": the drop lab. The pool holds the pages of relations t0, t1, … (`tables`) and
//   then of a relation named "others" until every buffer is used; then the WAL of `op` is
//   replayed and every relation's buffers are dropped, by a full scan of the descriptors or
//   by one lookup per block (sim/replay.go). A step is one unit of that replay: one WAL
//   record, one descriptor checked or one block looked up. The replay ends; then playback
//   pauses by itself, subscribers are told at once and `bufferscope:done` is dispatched.

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
    /** The drop lab's replay ended (playback has paused); detail is stats() without hash. */
    'bufferscope:done': CustomEvent<Stats>;
  }
}

/** Free play's parameter values as text, keyed as in a URL (sim.ParamKeys). Numbers are accepted too. */
export interface Params {
  lab?: 'free'; // the default; any value but "free" and "drop" is a problem, and free play
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

/**
 * The drop lab's parameter values as text (sim.DropParamKeys), read by sim.ParseDropParams.
 * Keys of free play are ignored. Defaults: 128MB, 100x1, drop, per-relation, recovery, pg14, NB/32.
 */
export interface DropParams {
  lab: 'drop';
  shared_buffers?: string; // "128kB" … "100GB"; a 100GB lab takes seconds and ~1.2 GB to build
  tables?: string; // COUNTxBLOCKS groups, comma-separated; BLOCKS may be NB/k: "100x1", "1xNB/32", "1x44800,100x490";
  //                  at most 100,000 relations and 2^27 blocks (1 TB) in all
  op?: string; // "drop" (DROP TABLE) | "truncate" | "vacuum" (VACUUM truncating emptied relations)
  transactions?: string; // "per-relation" | "single" (not with vacuum)
  mode?: string; // "recovery" (a standby replaying: sizes are cached) | "primary" (always a full scan)
  policy?: string; // "pg14" (lookups below the threshold) | "pg13" (always scan) | "lookup" (always look up when sizes are cached)
  threshold?: string; // BUF_DROP_FULL_SCAN_THRESHOLD in blocks ("512") or "NB/k"; default "NB/32"
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
  problems: ParamProblem[]; // key "lab" for an unknown lab, which loads free play
  /**
   * Every parameter of the lab loaded, normalised: "16384" → "128MB"; in the drop lab
   * tables "1xNB/32", threshold "NB/32" or "512", transactions "per-relation", mode "recovery".
   */
  params: Required<Params> | Required<DropParams>;
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
  lab: 'free' | 'drop';
  /** The drop lab's progress and counters; only when lab is "drop". */
  drop?: DropStats;
}

/**
 * Where the drop lab's replay stands (sim.DropProgress) and what it has done. Once done,
 * descriptorsChecked, lookups, invalidated, modelledSeconds and resultPath equal what
 * `bufferscope drop` prints for the same parameters (descriptors_checked, lookups,
 * buffers_invalidated, modelled_seconds, path), and `step` is the replay's number of units.
 */
export interface DropStats {
  done: boolean; // the replay is over (playback paused itself)
  path: 'scan' | 'lookup' | 'none'; // how the drop under way finds buffers; none between drops
  resultPath: '' | 'scan' | 'lookup' | 'mixed'; // the paths the drops took; "" until done
  relation: number; // index of the relation being dropped (the first of its transaction); = relations when done
  relationName: string; // "t3"; "" when done
  relations: number; // relations the experiment drops (t0 … t(relations-1)); "others" is not one
  cursor: number; // next descriptor the full scan under way checks, or -1 when no scan is under way
  descriptorsChecked: number; // by every scan so far
  lookups: number; // mapping-table lookups so far, one per block looked up
  lookupMisses: number; // lookups that found no buffer (the block was not in shared buffers)
  invalidated: number; // buffers dropped so far
  drops: number; // drop calls finished
  modelledSeconds: number; // virtual time of the replay so far (Result.Time); equals stats.now
  dropSeconds: number; // of which the drops' buffer work
  thresholdBlocks: number; // BUF_DROP_FULL_SCAN_THRESHOLD in blocks for this pool
  /**
   * Modelled seconds per second of wall time over about the last second: 0.0004 means one
   * second here shows 0.4 ms of the replay. 0 while paused and before a second has passed.
   */
  timeScale: number;
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
  /** The drop lab only. */
  drop?: {
    target: boolean; // it holds a page of a relation the experiment drops (t0 …), not of others
    checked: boolean; // the full scan under way has already checked its descriptor
  };
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
  /**
   * "#rrggbb" in the current theme. In the drop lab the colours tell roles apart: "others"
   * is a quiet grey, the dropped relations take four shades of one warm family in turn.
   */
  color: string;
  blocks: number; // main fork size
  permanent: boolean; // false for unlogged relations
  dropped?: boolean; // drop lab only: the experiment drops it (false for "others")
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

  /**
   * Rebuilds the simulation from params; bad values get safe defaults and warnings. The
   * old simulation is let go first when the two would not fit in memory together. Speed is
   * kept, clamped to the new lab's range.
   */
  load(params?: Params | DropParams): LoadResult;
  /** In the drop lab, play on a finished replay starts it again from the beginning (reset, then play). */
  play(): { ok: true; playing: true } | Failure;
  pause(): { ok: true; playing: false };
  /**
   * Runs exactly n steps (default 1), playing or paused. n is a whole number ≤ 1e8. In the
   * drop lab a step is one unit of the replay, and the steps stop where the replay ends.
   */
  step(n?: number): { ok: boolean; step: number; error?: string } | Failure;
  /**
   * Free play: 0 < x ≤ 1e7; drop lab: 0 < x ≤ 1e8; or Infinity or "max" (as many as a
   * frame's time allows). Anything else is clamped or kept, with a warning.
   */
  setSpeed(stepsPerSecond: number | string): { ok: true; speed: number; label: string; param: string; warnings: string[] };
  /**
   * The speed slider's ladder for the lab loaded: 1, 2, 5, 10 … 1M steps/s then max in free
   * play; … 100M then max in the drop lab. Ask again after load() changes the lab.
   */
  speeds(): Speed[];
  /** Starts the same run again: same parameters, same seed. */
  reset(): { ok: true } | Failure;
  /** The drop lab draws no random numbers: there a new seed replays the same run, with a warning. */
  setSeed(seed: number | string): { ok: true; seed: string; warnings: string[] } | Failure;
  /**
   * Applies one command as sim.ParseCommand reads it: "checkpoint", "pin b=0 rel=pgbench_branches blk=0", …
   * In the drop lab "step N" steps the replay; other commands act on the pool outside it
   * (a pinned buffer makes the replay stop with an error, as InvalidateBuffer would wait);
   * "until" is refused.
   */
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
  /**
   * Turns the animations off (true) or on: the read, write and drop flashes, and in the drop
   * lab the scan's fading trail and the misses' pulses. Positions still show: the scan's
   * cursor, the part it has checked, the lookups' rings and the lane's tape.
   */
  setReducedMotion(reduced: boolean): { ok: true; reducedMotion: boolean };
  /**
   * Paints one legend cell with the grid's painter: RGBA pixels of a size × size square.
   * rel is an index into relations(), drawn in the current lab's colours. With mark, paints
   * one of the drop lab's marks instead (DropMark), in the drop lab's colours.
   */
  swatch(spec: {
    rel?: number; // relation index, or -1 for an empty buffer
    usage?: number;
    dirty?: boolean;
    pinned?: boolean;
    hand?: boolean;
    read?: number; // read flash, 0 … 1
    write?: number; // write flash, 0 … 1
    drop?: number; // drop flash (InvalidateBuffer emptied it), 0 … 1
    size?: number; // 8 … 128, default 24
  } | { mark: DropMark; size?: number }): { width: number; height: number; data: Uint8ClampedArray } | Failure;
}

/**
 * What the drop lab draws, for the legend (swatch({mark})). The grid and its marks:
 * - "checked": the descriptors the full scan under way has checked are tinted blue (Theme.Probe);
 * - "trail": those it checked in the last half second more strongly, fading behind the cursor;
 * - "cursor": an ink ring, with markers in the rulers, on the next descriptor the scan checks;
 * - "found": a buffer a lookup found is tinted blue, fading, as the trail is (an ink ring marks the latest);
 * - "dropped": a buffer InvalidateBuffer emptied burns red, then fades to empty.
 * The lane under the grid: a track of the scan's progress through the pool (blue bar,
 * head at the cursor), and a tape of the latest lookups, newest at the right:
 * - "hit": a bar in the relation's colour: the block was in shared buffers and is dropped;
 * - "miss": a hollow blue bar, pulsing when new: the block was looked up and not found —
 *   the lookup path pays for every block, cached or not.
 * Pools beyond 131,072 buffers show a pixel per block of buffers: no flashes there; the
 * cursor's ring stands one pixel off its block.
 */
export type DropMark = 'checked' | 'trail' | 'cursor' | 'found' | 'dropped' | 'hit' | 'miss';
