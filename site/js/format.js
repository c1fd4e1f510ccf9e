// Number formatting for counters, labels and charts: one way to write each kind of number,
// with digit groups, and with the unit the lab's parameter and counter tables declare.

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const measured = new Intl.NumberFormat('en', { maximumSignificantDigits: 5 });

// count writes a whole number with thousands separators: 1,234,567; a fraction is rounded
// to the nearest whole number.
export function count(n) {
  return whole.format(n);
}

// percent writes a ratio from 0 to 1 as "93.4 %", or "–" before there is anything to divide.
export function percent(r, of) {
  return of > 0 ? `${(r * 100).toFixed(1)} %` : '–';
}

// share writes a ratio from 0 to 1 as a percentage as percent does, and one below 1 % with
// the two significant digits it needs: "0.051 %", "0.2 %", "17.3 %".
export function share(r) {
  const p = r * 100;
  if (!(p > 0)) return '0 %';
  if (p >= 1) return `${p.toFixed(1)} %`;
  return `${Number(p.toPrecision(2))} %`;
}

// number writes a measured quantity with digit groups and at most five significant digits:
// "4,013.8", "95.323", "0.5".
export function number(x) {
  return typeof x === 'number' && Number.isFinite(x) ? measured.format(x) : String(x);
}

// counterText writes one counter's value as the lab's counter table declares it (bufferscope
// labs()[i].counters): by its format, with digit groups, followed by its unit unless the
// format writes one ("s", "%") or the label already names it ("Pages vacuumed" in pages):
// "256 buffers", "4,013.8 tx/s", "92.3 %", "789 ms". all holds every counter, for ratios.
export function counterText(c, v, all = {}) {
  let t;
  switch (c.format) {
    case 'count': t = count(v); break;
    case 'ratio': return percent(v, c.of ? all[c.of] : 1);
    case 'seconds': return seconds(v);
    case 'bool': return v ? 'yes' : 'no';
    case 'number': t = number(v); break;
    default: return String(v);
  }
  const unit = c.unit || '';
  if (!unit || unit === 's' || unit === '%' || (c.label || '').toLowerCase().includes(unit.toLowerCase())) return t;
  return `${t} ${v === 1 && /^[a-z]+s$/.test(unit) ? unit.slice(0, -1) : unit}`;
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

// UNITS are the seconds in each unit a duration's text may use (sim.ParseDuration's).
const UNITS = { ps: 1e-12, ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1, min: 60, h: 3600 };

// durationText writes a duration as a parameter's text gives it ("100us", "2ms") the way
// seconds writes durations ("100 µs"); text it cannot read is returned as it is.
export function durationText(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ps|ns|us|µs|ms|s|min|h)\s*$/.exec(String(text));
  return m ? seconds(Number(m[1]) * UNITS[m[2]]) : String(text);
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

// MAX_QUOTED is how many characters of a value quote repeats (the tables' param.MaxQuoted).
const MAX_QUOTED = 64;

// quote writes a value from an address or a host page for a message, as the simulator's
// tables do (param.Quote): in double quotes, with control and invisible characters escaped
// (so a right-to-left mark cannot reorder the sentence around it), and cut after 64
// characters with its length when longer: "99999…" (100,000 characters). Messages are set
// as text, never as HTML; this keeps them short and legible.
export function quote(value) {
  const text = String(value);
  const chars = Array.from(text);
  const long = chars.length > MAX_QUOTED;
  const json = JSON.stringify(long ? `${chars.slice(0, MAX_QUOTED).join('')}…` : text)
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu, (c) => `\\u${c.codePointAt(0).toString(16).padStart(4, '0')}`);
  return long ? `${json} (${count(chars.length)} characters)` : json;
}

// plural writes a count with the word that fits it: "1 block", "2 blocks", "1,024 blocks".
// many defaults to one with an "s".
export function plural(n, one, many = `${one}s`) {
  return `${count(n)} ${n === 1 ? one : many}`;
}
