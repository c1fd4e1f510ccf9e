// Number formatting for counters and labels.

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

// count writes a whole number with thousands separators: 1,234,567; a fraction is rounded
// to the nearest whole number.
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

// rungAbove returns the first speed of the slider's 1, 2, 5 ladder (1, 2, 5, 10, 20, …) that
// is at least x.
export function rungAbove(x) {
  const p = 10 ** Math.floor(Math.log10(Math.max(x, 1)));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= x);
}

// plural writes a count with the word that fits it: "1 block", "2 blocks", "1,024 blocks".
// many defaults to one with an "s".
export function plural(n, one, many = `${one}s`) {
  return `${count(n)} ${n === 1 ? one : many}`;
}
