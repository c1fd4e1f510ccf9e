// The event log (#event-log): the lab's events of interest (labs()[i].events, counted by
// kind in stats().events) written as short sentences beside the grid, so what the canvas
// shows can also be read. The visible log keeps the last few entries, newest first; a
// polite live region (#event-live) tells screen readers a summary at most once every two
// seconds ("12 evictions, 3 WAL flushes in the last 2 seconds"), which they can follow
// while the run plays ten notifications a second. Nothing here knows which lab runs.

import { count, plural } from './format.js';

const $ = (id) => document.getElementById(id);

const KEEP = 30; // entries the visible log keeps
const ENTRY_MS = 1000; // while playing, at most one entry a second
const ANNOUNCE_MS = 2000; // at most one announcement every two seconds

// phrase writes n events of spec: "1 eviction", "12 evictions", "hint lost × 12".
function phrase(n, spec) {
  if (n === 1) return `1 ${spec.label}`;
  return spec.plural ? plural(n, spec.label, spec.plural) : `${spec.label} × ${count(n)}`;
}

// list joins the phrases of the kinds with events in counts, in the lab's order, or "".
function list(counts, specs) {
  return specs.filter((e) => counts[e.kind] > 0).map((e) => phrase(counts[e.kind], e)).join(', ');
}

export class EventLog {
  constructor() {
    this.log = $('event-log');
    this.live = $('event-live');
    this.toggle = $('event-announce');
    this.specs = [];
    this.timer = 0;
    this.toggle.addEventListener('change', () => {
      if (!this.toggle.checked) this.live.textContent = '';
    });
  }

  // build starts an empty log for lab.
  build(lab) {
    this.specs = lab.events || [];
    this.base = null; // the counts of the last stats
    this.from = 0; // the first step of the pending entry
    this.entry = {}; // counts since the last entry
    this.heard = {}; // counts since the last announcement
    this.heardFrom = performance.now();
    this.lastEntry = 0;
    this.lastAnnounce = 0;
    this.finished = false;
    this.log.replaceChildren();
    this.live.textContent = '';
    clearTimeout(this.timer);
  }

  // update reads one stats object: it adds what happened since the last one. While a seek
  // or a search is under way (stats().time.job) the run passes through steps it will not
  // stand at — a step back replays the run from step 0 — so the log waits for where it lands.
  update(s) {
    if (s.time && s.time.job) return;
    const ev = s.events || {};
    const kinds = this.specs.map((e) => e.kind);
    const run = s.time ? s.time.run : 0;
    if (!this.base || run !== this.run || s.step < this.step || kinds.some((k) => (ev[k] || 0) < (this.base[k] || 0))) {
      // A new run (reset, new settings), or the same run sought back: count from its state.
      if (this.base) {
        this.flushEntry(performance.now());
        this.add(run === this.run && s.step < this.step
          ? `Went back to step ${count(s.step)}.`
          : `Step ${count(s.step)}: the run started again.`);
      }
      this.run = run;
      this.base = { ...ev };
      this.step = s.step;
      this.from = s.step;
      this.entry = {};
      this.heard = {};
      this.finished = Boolean(s.done);
      return;
    }
    if (!list(this.heard, this.specs)) this.heardFrom = performance.now() - 100; // a notification's worth
    for (const k of kinds) {
      const d = (ev[k] || 0) - (this.base[k] || 0);
      if (d > 0) {
        this.entry[k] = (this.entry[k] || 0) + d;
        this.heard[k] = (this.heard[k] || 0) + d;
      }
    }
    this.base = { ...ev };
    this.playing = Boolean(s.playing);
    const last = this.step;
    this.step = s.step;
    if (s.step === last && !list(this.entry, this.specs)) return;
    const now = performance.now();
    if (!this.playing || now - this.lastEntry >= ENTRY_MS) this.flushEntry(now);
    if (s.done && !this.finished) {
      this.finished = true;
      this.flushEntry(now);
      this.add(`Step ${count(s.step)}: the run is finished.`);
      this.heardDone = true;
    }
    this.schedule();
  }

  // flushEntry writes the events counted since the last entry as one entry.
  flushEntry(now) {
    const what = list(this.entry, this.specs);
    if (what) {
      const steps = this.step - this.from > 1 ? `Steps ${count(this.from + 1)} to ${count(this.step)}` : `Step ${count(this.step)}`;
      this.add(`${steps}: ${what}.`);
    }
    this.entry = {};
    this.from = this.step;
    this.lastEntry = now;
  }

  // add puts one sentence at the top of the log and drops the oldest beyond KEEP.
  add(sentence) {
    const li = document.createElement('li');
    li.textContent = sentence;
    this.log.prepend(li);
    while (this.log.childElementCount > KEEP) this.log.lastElementChild.remove();
  }

  // schedule announces what was heard as soon as two seconds have passed since the last
  // announcement.
  schedule() {
    if (this.timer) return;
    const wait = Math.max(0, this.lastAnnounce + ANNOUNCE_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = 0;
      this.announce();
    }, wait);
  }

  announce() {
    const now = performance.now();
    let what = list(this.heard, this.specs);
    if (what && this.playing) {
      const secs = Math.max(2, Math.round((now - this.heardFrom) / 1000));
      what = `${what} in the last ${secs} seconds.`;
    } else if (what) {
      what = `${what} by step ${count(this.step)}.`;
    }
    if (this.heardDone) {
      what = `${what} The run is finished at step ${count(this.step)}.`.trim();
      this.heardDone = false;
    }
    this.heard = {};
    if (!what) return;
    this.lastAnnounce = now;
    if (this.toggle.checked) this.live.textContent = what;
  }
}
