// Number formatting for counters and labels.

const whole = new Intl.NumberFormat('en');

// count writes a whole number with thousands separators: 1,234,567.
export function count(n) {
  return whole.format(n);
}

// percent writes a ratio from 0 to 1 as "93.4 %", or "–" before there is anything to divide.
export function percent(r, of) {
  return of > 0 ? `${(r * 100).toFixed(1)} %` : '–';
}

// seconds writes a duration given in seconds, with a unit that suits it and three
// significant digits below a second: "160 ns", "4.80 µs", "11.3 ms", "2.04 s".
export function seconds(s) {
  if (!(s > 0)) return '0 s';
  if (s < 1e-6) return `${(s * 1e9).toFixed(0)} ns`;
  if (s < 1e-3) return `${three(s * 1e6)} µs`;
  if (s < 1) return `${three(s * 1e3)} ms`;
  if (s < 120) return `${s.toFixed(2)} s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${(s / 3600).toFixed(1)} h`;
}

// three writes x (1 ≤ x < 1000) with three significant digits.
function three(x) {
  return x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0);
}

// megabytes writes a byte count as "3.1 MB".
export function megabytes(n) {
  return `${(n / 1e6).toFixed(1)} MB`;
}

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
