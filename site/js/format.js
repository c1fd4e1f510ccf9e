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

// seconds writes a duration given in seconds, with a unit that suits it.
export function seconds(s) {
  if (!(s > 0)) return '0 s';
  if (s < 0.001) return `${(s * 1e6).toFixed(0)} µs`;
  if (s < 1) return `${(s * 1000).toFixed(1)} ms`;
  if (s < 120) return `${s.toFixed(2)} s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${(s / 3600).toFixed(1)} h`;
}

// megabytes writes a byte count as "3.1 MB".
export function megabytes(n) {
  return `${(n / 1e6).toFixed(1)} MB`;
}
