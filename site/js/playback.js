// Playback, shared by the labs: the play (run) button, step, reset and the logarithmic
// speed slider. Each goes through the bridge; the speed is written to the address.

import * as errors from './errors.js';

const $ = (id) => document.getElementById(id);

export class Playback {
  // hooks.reset() runs after the run was started again, hooks.chose() when the reader
  // moved the speed slider.
  constructor(bs, state, hooks) {
    this.bs = bs;
    this.state = state;
    this.hooks = hooks;
    this.speeds = bs.speeds();

    const slider = $('speed');
    slider.addEventListener('input', () => {
      const s = this.speeds[Number(slider.value)];
      if (s) {
        this.setSpeed(s.value);
        if (this.hooks.chose) this.hooks.chose();
      }
    });
    $('play').addEventListener('click', () => this.togglePlay());
    $('step').addEventListener('click', () => this.step());
    $('reset').addEventListener('click', () => this.reset());
  }

  // setSpeed sets the playback speed, a number of steps per second or "max", and returns
  // the bridge's answer.
  setSpeed(value) {
    const res = this.bs.setSpeed(value);
    this.speeds = this.bs.speeds(); // each lab has its own ladder
    const slider = $('speed');
    slider.max = String(this.speeds.length - 1);
    const i = this.speeds.findIndex((s) => s.param === res.param);
    slider.value = String(i >= 0 ? i : nearest(this.speeds, res.speed));
    slider.setAttribute('aria-valuetext', res.label);
    $('speed-label').textContent = res.label;
    this.state.setSpeed(res.param);
    return res;
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
    if (this.finished()) this.reset(); // "Run again"
    const res = this.bs.play();
    if (res && res.ok === false) errors.show('The simulation cannot play', [res.error]);
  }

  step() {
    this.bs.pause();
    if (this.finished()) return;
    this.bs.step(1);
  }

  reset() {
    this.bs.reset();
    this.hooks.reset();
  }

  // update shows the state of playback from a stats object: the play button's label and
  // whether it is pressed.
  update(s) {
    const play = $('play');
    const playing = Boolean(s.playing);
    let label = playing ? 'Pause' : 'Play';
    if (!playing && s.done) label = 'Run again';
    if (play.getAttribute('aria-pressed') !== String(playing)) play.setAttribute('aria-pressed', String(playing));
    if (play.textContent !== label) play.textContent = label;
    $('step').disabled = Boolean(s.done);
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
