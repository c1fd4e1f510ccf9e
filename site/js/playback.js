// Playback, shared by the labs: play, step back, step, next event, reset, the logarithmic
// speed slider and the timeline. Each goes through the bridge; the speed and, while paused,
// the step are written to the address. Seeking back replays the run from its start, so a
// long seek or search runs a slice per frame with a progress bar and a Cancel button.

import * as errors from './errors.js';
import { count } from './format.js';
import { stopped } from './boot.js';

const $ = (id) => document.getElementById(id);

// speedWord names a speed in plain words, so the slider reads as more than a number.
function speedWord(value) {
  if (!Number.isFinite(value)) return 'fastest';
  if (value <= 2) return 'very slow';
  if (value <= 20) return 'slow';
  if (value <= 200) return 'steady';
  if (value <= 5000) return 'fast';
  if (value <= 200000) return 'very fast';
  return 'flat out';
}

export class Playback {
  // hooks.reset() runs after the run was started again, hooks.chose() when the reader
  // moved the speed slider.
  constructor(bs, state, hooks) {
    this.bs = bs;
    this.state = state;
    this.hooks = hooks;
    this.speeds = bs.speeds();
    this.events = []; // the lab's events of interest, from stats().time.events
    this.scrubbing = false; // the reader holds the timeline's thumb
    this.pendingSeek = null; // a timeline value waiting for the next frame
    this.lastMessage = '';
    this.building = false; // the band over the grid shows a build (showBuild)

    const slider = $('speed');
    slider.addEventListener('input', () => {
      const s = this.speeds[Number(slider.value)];
      if (s) {
        this.setSpeed(s.value);
        if (this.hooks.chose) this.hooks.chose();
      }
    });
    // A page may offer fewer buttons than these (embed.html has no timeline): each is
    // wired when it is there.
    const on = (id, type, fn) => { if ($(id)) $(id).addEventListener(type, fn); };
    on('play', 'click', () => this.togglePlay());
    on('step', 'click', () => this.step());
    on('step-back', 'click', () => this.stepBack());
    on('next-event', 'click', () => this.nextEvent());
    on('next-kind', 'change', () => this.labelNext());
    on('reset', 'click', () => this.reset());
    on('job-cancel', 'click', () => this.cancel());
    on('progress-cancel', 'click', () => this.cancel());

    const timeline = $('timeline');
    if (!timeline) return;
    timeline.addEventListener('pointerdown', () => { this.scrubbing = true; });
    const release = () => { this.scrubbing = false; };
    timeline.addEventListener('pointerup', release);
    timeline.addEventListener('pointercancel', release);
    timeline.addEventListener('change', release);
    timeline.addEventListener('input', () => {
      // One seek per frame however fast the thumb moves: seeking back replays the run.
      const first = this.pendingSeek === null;
      this.pendingSeek = Number(timeline.value);
      $('step-label').textContent = count(this.pendingSeek);
      if (first) requestAnimationFrame(() => {
        const v = this.pendingSeek;
        this.pendingSeek = null;
        if (v !== null) this.seek(v);
      });
    });
  }

  // setSpeed sets the playback speed, a number of steps per second or "max", and returns
  // the bridge's answer.
  setSpeed(value) {
    const res = this.bs.setSpeed(value);
    this.speeds = this.bs.speeds(); // each lab has its own ladder
    this.showSpeed(res);
    return res;
  }

  // showSpeed shows a speed ({speed, label, param}) on the slider and in the address,
  // also one set through the bridge by other code.
  showSpeed(res) {
    const slider = $('speed');
    slider.max = String(this.speeds.length - 1);
    const i = this.speeds.findIndex((s) => s.param === res.param);
    slider.value = String(i >= 0 ? i : nearest(this.speeds, res.speed));
    const word = speedWord(res.speed);
    slider.setAttribute('aria-valuetext', `${word}: ${res.label}`);
    $('speed-label').textContent = res.param === 'max' ? 'fastest' : `${word} · ${res.label}`;
    this.state.setSpeed(res.param);
  }

  // finished reports whether a lab whose run has an end (a replay) has reached it.
  finished() {
    return Boolean(this.bs.stats().done);
  }

  togglePlay() {
    if (this.bs.stats().playing) {
      this.bs.pause();
      return;
    }
    const res = this.play();
    if (res && res.ok === false) errors.show('The simulation cannot play', [res.error]);
  }

  // play plays, from the start again when the run has finished (the button's "Run again"),
  // and returns the bridge's answer.
  play() {
    if (this.finished()) this.reset();
    const res = this.bs.play();
    if (!res || res.ok !== false) this.state.setStep(null); // a playing run's step changes every frame
    return res;
  }

  step() {
    this.bs.pause();
    if (this.finished()) return;
    this.bs.step(1);
    this.state.setStep(this.bs.stats().step);
  }

  stepBack() {
    this.timeResult(this.bs.stepBack(), 'The run cannot step back');
  }

  // seek goes to a step of the run; a long seek goes on with a progress bar.
  seek(step) {
    return this.timeResult(this.bs.seek(step), 'The run cannot go to that step');
  }

  nextEvent() {
    const kind = ($('next-kind') && $('next-kind').value) || undefined;
    this.timeResult(this.bs.nextEvent(kind), 'The run cannot look for that event');
  }

  // showBuild shows a large pool being built (job, a stats().time.job of kind "build") in a
  // band over the grid, where the run in force stays in view, with its progress and Cancel;
  // with job null it takes the band away once the build is over.
  showBuild(job) {
    const band = $('progress');
    if (!band || !$('progress-cancel')) return;
    if (!job) {
      if (this.building) {
        this.building = false;
        band.hidden = true;
        band.classList.remove('band');
        $('progress-cancel').hidden = true;
      }
      return;
    }
    if (!this.building) {
      this.building = true;
      band.classList.add('band');
      band.hidden = false;
      $('progress-bar').hidden = false;
      $('progress-cancel').hidden = false;
    }
    // The bar shows how far; the words (a live region) change only with the stage, so that a
    // screen reader hears each stage once rather than every percent.
    $('progress-bar').value = job.done;
    const text = `${job.label}…`;
    if ($('progress-text').textContent !== text) $('progress-text').textContent = text;
  }

  cancel() {
    const res = this.bs.cancel();
    this.timeResult(res, 'The run could not stop');
    return res;
  }

  // timeResult shows what a seek, step back or search did, and writes the step to the
  // address once it is over.
  timeResult(res, title) {
    if (res && res.ok === false) errors.show(title, [res.error]);
    const st = this.bs.stats();
    this.update(st);
    return res;
  }

  reset() {
    this.bs.reset();
    this.state.setStep(null);
    this.hooks.reset();
  }

  // setEvents offers the lab's events of interest: the button names the one chosen, and a
  // list offers the others when there are several.
  setEvents(events) {
    const key = (events || []).map((e) => e.kind).join(',');
    if (key === this.events.map((e) => e.kind).join(',')) return;
    this.events = events || [];
    const select = $('next-kind');
    select.replaceChildren(...this.events.map((e) => {
      const o = document.createElement('option');
      o.value = e.kind;
      o.textContent = e.label;
      o.title = e.doc;
      return o;
    }));
    select.closest('label').hidden = this.events.length < 2;
    $('next-event').hidden = this.events.length === 0;
    this.labelNext();
  }

  labelNext() {
    const e = this.events.find((x) => x.kind === $('next-kind').value) || this.events[0];
    const button = $('next-event');
    button.textContent = e ? `Next ${e.label}` : 'Next event';
    button.title = e ? `Run on to just after the next ${e.label} (>)` : '';
  }

  // update shows the state of playback from a stats object: the play button's label and
  // whether it is pressed, the timeline, a job's progress and how the last one ended.
  update(s) {
    if (stopped()) return; // its controls stay disabled
    const play = $('play');
    const playing = Boolean(s.playing);
    let label = playing ? 'Pause' : 'Play';
    if (!playing && s.done) label = 'Run again';
    if (play.getAttribute('aria-pressed') !== String(playing)) play.setAttribute('aria-pressed', String(playing));
    if (play.textContent !== label) play.textContent = label;
    const t = s.time || { end: s.step, rewind: false, events: [], message: '', job: null };
    const busy = Boolean(t.job);
    this.showBuild(t.job && t.job.kind === 'build' ? t.job : null);
    $('step').disabled = Boolean(s.done);
    if (!$('timeline')) return; // a page without the timeline (embed.html) keeps no step
    $('step-back').disabled = !t.rewind || s.step === 0;
    this.setEvents(t.events);
    $('next-event').disabled = Boolean(s.done) || busy;

    const timeline = $('timeline');
    if (!this.scrubbing && this.pendingSeek === null) {
      const end = Math.max(t.end, s.step);
      if (timeline.max !== String(end)) timeline.max = String(end);
      if (timeline.value !== String(s.step)) timeline.value = String(s.step);
      timeline.disabled = end === 0;
      timeline.setAttribute('aria-valuetext', `step ${count(s.step)} of ${count(end)}`);
      $('step-label').textContent = count(s.step);
    }

    const job = $('job');
    job.hidden = !busy || t.job.kind === 'build'; // a build shows over the grid (showBuild)
    if (!job.hidden) {
      $('job-bar').value = t.job.done;
      $('job-text').textContent = `${t.job.label}… ${Math.floor(t.job.done * 100)}%`;
    }
    const msg = t.message || '';
    if (msg !== this.lastMessage) {
      this.lastMessage = msg;
    this.building = false; // the band over the grid shows a build (showBuild)
      $('time-status').textContent = msg;
    }
    // The step belongs in the address while the run stands still.
    if (playing) this.state.setStep(null);
    else if (!busy) this.state.setStep(s.step > 0 ? s.step : null);
  }
}

// nearest returns the index of the ladder step closest to speed on a log scale.
function nearest(speeds, speed) {
  let best = 0;
  let bestD = Infinity;
  speeds.forEach((s, i) => {
    if (!Number.isFinite(s.value)) return;
    const d = Math.abs(Math.log(s.value) - Math.log(Math.max(speed, 1e-9)));
    if (d < bestD) {
      best = i;
      bestD = d;
    }
  });
  return Number.isFinite(speed) ? best : speeds.length - 1;
}
