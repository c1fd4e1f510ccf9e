// The drop lab's ways of writing sizes and times.

import { seconds } from '../../format.js';

// fraction writes blocks as a share of a pool of nbuffers, the way the drop lab names
// sizes: "NB/32", "NB/50", "NB/4.5"; "NB" for the whole pool.
export function fraction(blocks, nbuffers) {
  if (!(blocks > 0)) return '–';
  const k = nbuffers / blocks;
  if (k < 1.05) return 'NB';
  const digits = k >= 10 ? 0 : 1;
  return `NB/${Number(k.toFixed(digits))}`;
}

// timeScale writes how replay time relates to the reader's: "1 s here = 2.3 ms of replay".
export function timeScale(modelledPerWall) {
  if (!(modelledPerWall > 0) || !Number.isFinite(modelledPerWall)) return '';
  return `1 s here = ${seconds(modelledPerWall)} of replay`;
}

// nanoseconds writes a short duration given in seconds as "4.8 ns" or "160 ns".
export function nanoseconds(s) {
  if (!(s > 0)) return '–';
  const ns = s * 1e9;
  return ns < 10 ? `${ns.toFixed(1)} ns` : ns < 10000 ? `${Math.round(ns)} ns` : `${(ns / 1000).toFixed(1)} µs`;
}
