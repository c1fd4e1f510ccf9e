// The embed's postMessage protocol (docs/embed.md): what a host page may send, how each
// message is checked, and the envelope of what the embed sends back. Every message in
// either direction is an object {bufferscope: 1, type, ...}; a request may carry an id,
// which the reply repeats. A message of the wrong shape is ignored with a console warning
// that says what was wrong; nothing here throws at the host's data, and only a message of
// the right shape is acted on. Messages quote what a host sent short (format.js quote) and
// are set as text.

import { MAX_STEP as MAX_ADDRESS_STEP } from './url.js';
import { count, quote } from './format.js';

// VERSION is the protocol's version, the value of every message's bufferscope field.
export const VERSION = 1;

// MAX_STEP is the most steps one step request may run: the bridge's bound
// (app.MaxStepsPerCall); longer runs play.
export const MAX_STEP = 1_000_000;

// MAX_SEEK is the furthest step a seek may go to: the address's and the bridge's bound.
const MAX_SEEK = MAX_ADDRESS_STEP;

// MAX_PARAMS is the most parameters one set request may name: a lab has a few dozen, and
// every key unknown to the lab comes back as a warning.
export const MAX_PARAMS = 64;

// MAX_ID is the longest id a request may carry, in characters: the reply repeats it.
export const MAX_ID = 256;

// REQUESTS are the types a host may send, each with the check of its fields: a function
// that returns the request's arguments or throws a RequestError naming what is wrong.
const REQUESTS = {
  // set changes parameters, as the address names them: the lab's, plus lab and speed.
  set(m) {
    if (!isPlainObject(m.params)) {
      const not = m.params === undefined ? '' : `, not ${describe(m.params)}`;
      throw new RequestError(`"params" must be an object of parameter names and values, such as {"shared_buffers": "1MB"}${not}`);
    }
    const entries = Object.entries(m.params);
    if (entries.length > MAX_PARAMS) throw new RequestError(`"params" may name at most ${MAX_PARAMS} parameters, not ${count(entries.length)}`);
    // Keys such as "__proto__" and "constructor" are names like others: with no prototype,
    // params holds them as its own, and the lab says they are not its parameters.
    const params = Object.create(null);
    for (const [k, v] of entries) {
      if (typeof v === 'number' && Number.isFinite(v)) params[k] = String(v);
      else if (typeof v === 'string' || typeof v === 'boolean') params[k] = String(v);
      else throw new RequestError(`parameter ${quote(k)} must be a string, a finite number or a boolean, not ${describe(v)}`);
    }
    return { params };
  },
  play: () => ({}),
  pause: () => ({}),
  // step runs n steps (1 when absent) and pauses.
  step(m) {
    if (m.n === undefined) return { n: 1 };
    return { n: wholeNumber(m.n, 'n', 1, MAX_STEP) };
  },
  // seek goes to step: back by replaying from the start, forward by stepping.
  seek(m) {
    if (m.step === undefined) throw new RequestError('"step" is missing: seek needs the step to go to, such as {"type": "seek", "step": 500}');
    return { step: wholeNumber(m.step, 'step', 0, MAX_SEEK) };
  },
  reset: () => ({}),
  // get asks for the current state, without changing anything.
  get: () => ({}),
};

// RequestError is a request of the wrong shape: its message says what was wrong.
class RequestError extends Error {}

// isPlainObject reports whether v is an object of names and values, as JSON and a
// structured clone of one give: not an array, a Map, a Date or another kind of object.
function isPlainObject(v) {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

// describe names a value for a message, without repeating a long one (quote).
function describe(v) {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${quote(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return `${quote(v).slice(1, -1)}n`;
  const kind = typeof v === 'object' && !isPlainObject(v) ? Object.prototype.toString.call(v).slice(8, -1) : typeof v;
  return `a${/^[aeiouAEIOU]/.test(kind) ? 'n' : ''} ${kind}`;
}

function wholeNumber(v, name, min, max) {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new RequestError(`"${name}" must be a whole number from ${min} to ${max.toLocaleString('en')}, not ${describe(v)}`);
  }
  return v;
}

// parse checks a message's data. It returns {type, id, args} for a request, or {error}
// naming what is wrong with it; id is undefined when the message has none, and is kept in
// the error too when the envelope was sound enough to reply to.
export function parse(data) {
  if (!isPlainObject(data)) return { error: `the message is ${describe(data)}, not an object {bufferscope: ${VERSION}, type: …}` };
  if (!Object.hasOwn(data, 'bufferscope')) return { error: `the message has no "bufferscope" field; send {bufferscope: ${VERSION}, type: …}` };
  if (data.bufferscope !== VERSION) return { error: `"bufferscope" is ${describe(data.bufferscope)}; this embed speaks version ${VERSION}` };
  let id;
  if (Object.hasOwn(data, 'id')) {
    const idOK = typeof data.id === 'string' ? data.id.length <= MAX_ID : typeof data.id === 'number' && Number.isFinite(data.id);
    if (!idOK) return { error: `"id" must be a string of at most ${MAX_ID} characters or a finite number, not ${describe(data.id)}` };
    id = data.id;
  }
  const known = Object.keys(REQUESTS);
  if (typeof data.type !== 'string' || !Object.hasOwn(REQUESTS, data.type)) {
    return { id, error: `"type" is ${describe(data.type)}; a host may send ${known.map((k) => `"${k}"`).join(', ')}` };
  }
  try {
    return { type: data.type, id, args: REQUESTS[data.type](data) };
  } catch (err) {
    if (err instanceof RequestError) return { id, type: data.type, error: `${data.type}: ${err.message}` };
    return { id, type: data.type, error: `${data.type}: ${String(err)}` };
  }
}

// envelope returns a message of the embed: {bufferscope: VERSION, type, ...fields}.
export function envelope(type, fields = {}) {
  return { ...fields, bufferscope: VERSION, type };
}

// normalOrigin returns the origin of a URL given as the embed's origin= parameter, or
// null when it is not an http(s) URL.
export function normalOrigin(text) {
  try {
    const u = new URL(text);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin;
  } catch {
    return null;
  }
}
