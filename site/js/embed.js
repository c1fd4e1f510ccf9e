// The embed page (embed.html): one lab's grid, play bar and counters in a small frame,
// opened by the same address as index.html (?lab=NAME, the lab's parameters, speed), and
// driven by the reader or by the page that frames it through postMessage (docs/embed.md,
// js/embed-api.js). It uses the same page modules as index.html: the start-up, the
// address, playback, counters and input; nothing here knows which labs exist.
//
// Until its reader plays it, it shows a still of the lab made at build time (js/still.js)
// and loads nothing of the simulator. Unlike index.html it never plays by itself (play= is
// accepted and ignored), zooms with the wheel only once the reader has clicked or tabbed
// into it, and never adds history entries, which a frame would add to its host page's
// history.

import * as errors from './errors.js';
import * as theme from './theme.js';
import { Counters, showView } from './counters.js';
import { Playback } from './playback.js';
import { Tooltip, paneOf } from './inspect.js';
import { PaneLabels } from './panes.js';
import { init as initInput } from './input.js';
import { boot, enable, fatal, openLab, waitForFrame } from './boot.js';
import { readQuery, splitParams, State } from './url.js';
import { quote } from './format.js';
import * as api from './embed-api.js';
import * as still from './still.js';
import * as modules from './labs/index.js';

const $ = (id) => document.getElementById(id);
const pageOf = (name) => modules[name] || {};

// COUNTERS_EVERY is the least time between two counters events while a run moves, in ms:
// about four a second, which a host can show without falling behind.
const COUNTERS_EVERY = 250;


// framed reports whether the page is in a frame, the only time it posts events.
const framed = window.parent !== window;

// FULL_PAGE_KEYS are the main page's keys the embed does not read: it opens at step 0
// and has no guide. play= is accepted and ignored without a word (docs/embed.md).
const FULL_PAGE_KEYS = ['step', 'tour', 'exercise', 'exseed'];

// Host is the page that frames the embed, as postMessage reaches it.
class Host {
  // allowed is the only origin whose messages are heard and to which events go, "*" for
  // any, or null for none (an origin= that is not an address).
  constructor(allowed) {
    this.allowed = allowed;
  }

  // post sends an event to the parent frame, when there is one.
  post(type, fields) {
    if (!framed || this.allowed === null) return;
    try {
      window.parent.postMessage(api.envelope(type, fields), this.allowed);
    } catch (err) {
      console.warn(`bufferscope embed: could not post a "${type}" event: ${err}`);
    }
  }

  // reply answers a request from source (the window that sent it) at origin.
  reply(source, origin, fields) {
    if (!source || typeof source.postMessage !== 'function') return;
    try {
      source.postMessage(api.envelope('reply', fields), origin && origin !== 'null' ? origin : '*');
    } catch (err) {
      console.warn(`bufferscope embed: could not reply to ${origin}: ${err}`);
    }
  }

  // hears reports whether a message from origin may drive the embed.
  hears(origin) {
    return this.allowed === '*' || this.allowed !== null && origin === this.allowed;
  }
}

async function start() {
  errors.init();
  const query = readQuery();
  const problems = [...query.problems];
  // origin= is the embed's own key: the one page that may drive it.
  let allowed = '*';
  if (query.values.origin !== undefined) {
    allowed = api.normalOrigin(query.values.origin);
    if (!allowed) problems.push(`origin ${quote(query.values.origin)} is not an http or https address, so no page may drive this embed`);
    delete query.values.origin;
  }
  for (const k of FULL_PAGE_KEYS) {
    if (query.page[k] !== undefined) problems.push(`${k} ${quote(query.page[k])} is a setting of the full page; the embed ignored it`);
  }
  const host = new Host(allowed);
  let ready = false;
  // Until the reader plays it, the frame shows a still of the lab and fetches nothing of the
  // simulator; a request from a page the embed hears loads it too (docs/embed.md).
  const cover = still.show(query.lab, Object.keys(query.values).length > 0);
  const waiting = []; // messages that came before the simulator was ready
  let onMessage = (e) => {
    waiting.push(e);
    if (e.source !== window && host.hears(e.origin) && !api.parse(e.data).error) cover.wake();
  };
  window.addEventListener('message', (e) => onMessage(e));
  const first = still.stillOf(query.lab);
  host.post('still', { lab: first ? first.name : null, protocol: api.VERSION, labs: still.labs() });
  const asked = await cover.asked;
  $('progress').classList.add('band'); // the still stays in view while the simulator loads
  $('progress').hidden = false;

  const booted = await boot(__WASM_URL__, (d) => host.post('error', { message: d.message, fatal: d.fatal }));
  if (!booted) return;
  const { bs, canvas } = booted;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-describedby', 'grid-help');

  theme.init((t) => bs.setTheme(t), (reduced) => bs.setReducedMotion(reduced));

  const labs = bs.labs();
  const byName = (name) => labs.find((l) => l.name === name);
  const opened = openLab(labs, query);
  problems.unshift(...opened.problems);
  let lab = opened.lab;
  let page = pageOf(lab.name);
  let params = {}; // the lab's parameters in force, as the bridge normalised them
  const state = new State(labs, lab.name, Object.keys(opened.params));
  const counters = new Counters();
  const tooltip = new Tooltip();
  // chosen says whether the speed is the address's or the host's; otherwise the lab's page
  // module chooses it for its pool, as on index.html.
  let chosen = query.page.speed !== undefined;
  const defaultSpeed = () => (page.speed ? page.speed(bs.stats(), theme.reducedMotion(), params) : 1000);
  let playback = null;

  const showLink = () => {
    const href = `./${state.search()}`;
    const a = $('embed-open');
    if (a.getAttribute('href') !== href) a.setAttribute('href', href);
  };
  const showLab = () => {
    $('embed-lab').textContent = lab.title;
    document.title = `${lab.title} — bufferscope`;
    counters.build(lab);
  };
  const paneLabels = new PaneLabels($('grid'));
  const showGrid = (v, s) => {
    showView(v);
    paneLabels.show(v, s, page.paneCaption);
  };
  let knownRun = -1; // stats().time.run of the run shown
  const loaded = () => {
    tooltip.hide();
    const st = bs.stats();
    knownRun = st.time.run;
    showGrid(bs.view(), st);
    canvas.setAttribute('aria-label', page.ariaLabel
      ? page.ariaLabel(st)
      : `Shared buffer pool of ${st.sharedBuffers}: ${st.nbuffers} buffers, drawn as a grid`);
    counters.update(st, params);
    showLink();
  };

  // load shows lab (a description from bufferscope.labs()) with values, the lab's
  // parameters as text, and returns the bridge's answer.
  const load = (next, values) => {
    if (next !== lab) {
      lab = next;
      page = pageOf(lab.name);
      state.follow(lab.name); // no history entry: a frame's would be its host's
      showLab();
    }
    const res = bs.load({ ...values, lab: lab.name });
    if (res && res.params) {
      const { lab: _, ...p } = res.params;
      params = p;
      state.set(lab.name, p);
    }
    if (!res || res.ok === false) {
      errors.show('The simulation could not be rebuilt', [res && res.error ? res.error : 'unknown error']);
    } else if (playback) {
      // The bridge keeps a chosen speed, clamped to the lab's ladder; the slider shows
      // that ladder, which another lab changes.
      playback.setSpeed(chosen ? bs.stats().speedParam : defaultSpeed());
    }
    loaded();
    return res;
  };

  showLab();
  const built = load(lab, opened.params);
  playback = new Playback(bs, state, { reset: loaded, chose: () => { chosen = true; } });
  const sp = playback.setSpeed(chosen ? query.page.speed : defaultSpeed());
  problems.push(
    ...((built && built.warnings) || []),
    ...opened.unknown,
    ...(sp.warnings || []),
  );
  if (problems.length) errors.show('Some settings in the address were not valid', problems.map((w) => `${w}.`));

  // The reader arms the embed by clicking, tapping or tabbing into it; until then the
  // wheel scrolls the host page instead of zooming the grid.
  let armed = asked.reader; // the interaction that loaded the simulator was one
  for (const type of ['pointerdown', 'focusin', 'keydown']) {
    window.addEventListener(type, () => { armed = true; }, { capture: true, passive: true });
  }
  let pointer = null;
  initInput(bs, canvas, {
    hover(x, y) {
      pointer = [x, y];
      const info = bs.inspect(x, y);
      tooltip.show(info, x, y);
      bs.highlight(info ? info.buffer : null, paneOf(info));
    },
    leave() {
      pointer = null;
      tooltip.hide();
      bs.highlight(null);
    },
    select(x, y, type) {
      const info = bs.inspect(x, y);
      bs.highlight(info ? info.buffer : null, paneOf(info));
      pointer = info ? [x, y] : null;
      if (type !== 'mouse') tooltip.show(info, x, y);
    },
    view(v) {
      showView(v);
      if (pointer) tooltip.show(bs.inspect(...pointer), ...pointer);
    },
    togglePlay: () => playback.togglePlay(),
    step: () => playback.step(),
    reset: () => playback.reset(),
    escape() {
      pointer = null;
      tooltip.hide();
      bs.highlight(null);
    },
    wheel: () => armed,
  });

  // status is what every reply and state event carries.
  const status = () => {
    const s = bs.stats();
    return {
      lab: lab.name, params: { ...params }, speed: s.speedParam,
      step: s.step, now: s.now, playing: Boolean(s.playing), done: Boolean(s.done), error: s.error || null,
      counters: s.counters,
    };
  };
  let lastState = '';
  let lastCounters = { step: -1, at: 0, playing: false };
  const report = (s) => {
    const key = JSON.stringify([lab.name, params, s.speedParam, Boolean(s.playing), Boolean(s.done), s.error || null]);
    if (key !== lastState) {
      lastState = key;
      host.post('state', status());
    }
    const now = performance.now();
    const moved = s.step !== lastCounters.step;
    const stopped = lastCounters.playing && !s.playing;
    if ((moved || stopped) && (!s.playing || now - lastCounters.at >= COUNTERS_EVERY)) {
      lastCounters = { step: s.step, at: now, playing: Boolean(s.playing) };
      host.post('counters', { lab: lab.name, step: s.step, now: s.now, playing: Boolean(s.playing), done: Boolean(s.done), counters: s.counters });
    } else if (!moved) {
      lastCounters.playing = Boolean(s.playing);
    }
  };

  bs.subscribe((s) => {
    if (s.lab !== lab.name) return; // a notification from before a switch
    if (s.time.run !== knownRun && bs.stats().time.run !== knownRun) {
      // A run built over several frames (a large pool) took over, or its build was
      // cancelled: show the run in force and its values.
      const { lab: _, ...p } = bs.params().params;
      params = p;
      state.set(lab.name, p);
      loaded();
    }
    playback.update(s);
    counters.update(s, params);
    showGrid(bs.view(), s); // the canvas may have been resized
    if (pointer && tooltip.visible) tooltip.show(bs.inspect(...pointer), ...pointer);
    showLink();
    if (ready) report(s);
  });

  // The requests of docs/embed.md, each returning the fields of its reply.
  const requests = {
    set({ params: given }) {
      const { lab: name, speed, ...values } = given;
      const next = name === undefined ? lab : byName(name);
      if (!next) {
        return { ok: false, error: `lab ${quote(name)} is not a lab of this page (${labs.map((l) => l.name).join(', ')}); nothing changed` };
      }
      const split = splitParams(next, values);
      const warnings = [...split.unknown];
      let res = null;
      if (next !== lab || Object.keys(split.params).length > 0) {
        for (const k of Object.keys(split.params)) state.keys[next.name].add(k);
        const base = next === lab ? params : state.params[next.name];
        res = load(next, { ...base, ...split.params });
        if (!res || res.ok === false) return { ok: false, error: (res && res.error) || 'the simulation could not be rebuilt', warnings };
        warnings.push(...(res.warnings || []));
      }
      if (speed !== undefined) {
        chosen = true;
        warnings.push(...(playback.setSpeed(speed).warnings || []));
      }
      if (warnings.length) errors.show('Some settings from the host page were not valid', warnings.map((w) => `${w}.`));
      return { ok: true, warnings };
    },
    play() {
      const res = playback.play(); // as the Play button: a finished run starts again
      return res && res.ok === false ? { ok: false, error: res.error } : { ok: true };
    },
    pause() {
      bs.pause();
      return { ok: true };
    },
    step({ n }) {
      bs.pause();
      const res = bs.step(n);
      return res && res.ok === false ? { ok: false, error: res.error || 'the step failed' } : { ok: true };
    },
    async seek({ step }) {
      bs.pause();
      const res = bs.seek(step);
      // A long seek goes on a slice per frame: answer once it has ended.
      while (res && res.ok !== false && bs.stats().time.job) await new Promise((resolve) => setTimeout(resolve, 50));
      loaded();
      if (res && res.ok === false) return { ok: false, error: res.error || 'the seek failed' };
      const s = bs.stats();
      return s.step === step ? { ok: true } : { ok: true, warnings: [s.time.message || `the seek stopped at step ${s.step}`] };
    },
    reset() {
      playback.reset();
      return { ok: true };
    },
    get: () => ({ ok: true }),
  };

  // Requests run one at a time, in the order they came, so a seek that takes a while is
  // not interleaved with what follows it.
  let queue = Promise.resolve();
  onMessage = (e) => {
    if (e.source === window) return; // the page's own messages (extensions, tools)
    if (!host.hears(e.origin)) {
      const only = host.allowed === null ? 'an origin= that is not an address, so no page' : `origin=${host.allowed}, so only that page`;
      console.warn(`bufferscope embed: ignored a message from ${e.origin}: this embed was opened with ${only} may drive it`);
      return;
    }
    const m = api.parse(e.data);
    if (m.error) {
      console.warn(`bufferscope embed: ignored a message from ${e.origin}: ${m.error}`);
      if (m.id !== undefined) host.reply(e.source, e.origin, { id: m.id, request: m.type, ok: false, error: m.error });
      return;
    }
    queue = queue.then(async () => {
      let out;
      try {
        out = await requests[m.type](m.args);
      } catch (err) {
        out = { ok: false, error: `${m.type} failed: ${err && err.message || err}` };
        console.warn(`bufferscope embed: ${out.error}`);
      }
      const reply = { ...status(), ...out, request: m.type };
      if (m.id !== undefined) reply.id = m.id;
      host.reply(e.source, e.origin, reply);
    });
  };

  enable(['play', 'step', 'reset', 'speed']);
  // No autoplay: the reader (with the still's Play button) or the host page starts the run.
  await waitForFrame(bs, 0);
  $('progress').hidden = true;
  $('progress').classList.remove('band');
  still.remove();
  if (asked.play) playback.play();
  document.body.dataset.ready = '1';
  ready = true;
  host.post('ready', { ...status(), version: bs.version, protocol: api.VERSION, labs: labs.map((l) => ({ name: l.name, title: l.title })) });
  report(bs.stats());
  for (const e of waiting.splice(0)) onMessage(e);
}

start().catch((err) => fatal('The page could not start.', String(err && err.stack || err)));
