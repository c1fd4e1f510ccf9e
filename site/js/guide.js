// Guided tours and exercises, for every lab that declares them in its page module (js/labs/).
//
// A tour is a list of short steps. Each step may set parameters (those of the steps before it
// stay, so a step's address alone restores it), ask the reader to predict what will happen,
// run the simulation for a while, and explain what it did. The last step hands the lab back
// for free play. The address holds tour=K, so every step can be linked to.
//
// An exercise sets up a run from a seed, asks one question and checks the reader's answer by
// running the simulator on, then explains the answer from what the run did. The address holds
// exercise=ID and exseed=N, so the same question can be shared; "Another" draws a new seed.
//
// A lab's page module declares them as:
//
//	tour: [{ title, text, params?, predict?: { question, choices: [{ value, label }] },
//	         run?: { steps | toEnd: true | until(bs) → bool, speed? }, answer?(bs) → value, explain?(bs) → text }]
//	exercises: [{ id, title, make(rand) → { params, steps, question, choices },
//	              solve(bs, setup) → { answer, explain } }]
//
// where an exercise's question is text, or question(bs) → text, asked once its steps have run
// (to name what the run reached, such as where the clock hand stands),
// and rand() returns a number in [0, 1) drawn from the exercise's seed. Nothing here knows
// which labs exist.
//
// A step or an exercise may run on the page's real PostgreSQL 18 (js/realpg.js) instead of
// the simulator: a step's real: { sql: text | (bs) → text } runs the SQL there when the reader
// asks, and its answer and explain take the last value it returned, answer(bs, value) and
// explain(bs, value); an exercise with real: true has solve(bs, setup, real) resolve its
// answer, asking real.ask(sql) → that value.

import { el } from './controls.js';
import { quote } from './format.js';

const $ = (id) => document.getElementById(id);

// MAX_SOLVE_STEPS bounds the steps an exercise's check or a tour's run may take at once.
const MAX_SOLVE_STEPS = 20_000_000;

// rng returns a function drawing numbers in [0, 1) from seed (mulberry32): the same seed
// gives the same exercise in every browser.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// runSteps steps bs n times (at most MAX_SOLVE_STEPS), or to the run's end when n is
// Infinity, in calls the bridge accepts. It returns the steps taken.
export function runSteps(bs, n) {
  let left = Math.min(n, MAX_SOLVE_STEPS);
  let taken = 0;
  while (left > 0 && !bs.stats().done) {
    const before = bs.stats().step;
    const r = bs.step(Math.min(left, 1_000_000));
    if (!r || r.ok === false) break;
    const ran = bs.stats().step - before;
    if (ran <= 0) break;
    taken += ran;
    left -= ran;
  }
  return taken;
}

// yesNo are the choices of a yes-or-no prediction; counters reads the run's counters: for
// the labs' tours and exercises.
export const yesNo = [{ value: 'yes', label: 'yes' }, { value: 'no', label: 'no' }];
export const counters = (bs) => bs.stats().counters;

// pick returns one of xs, drawn with rand: for the exercises' randomised settings.
export const pick = (rand, xs) => xs[Math.floor(rand() * xs.length)];

// stepUntil steps bs one at a time until pred(bs) holds, at most limit steps; it returns
// whether pred came to hold.
export function stepUntil(bs, pred, limit = 100_000) {
  for (let i = 0; i < limit; i++) {
    if (pred(bs)) return true;
    if (bs.stats().done) return pred(bs);
    const r = bs.step(1);
    if (!r || r.ok === false) return false;
  }
  return pred(bs);
}

// parseIndex reads a 1-based step number from the address: 0 when absent, -1 when it is
// not a whole number from 1 to n.
function parseIndex(s, n) {
  if (s === undefined) return 0;
  const k = Number(s);
  return /^\s*[0-9]+\s*$/.test(s) && k >= 1 && k <= n ? k : -1;
}

// MAX_EXSEED is the largest exercise seed (mulberry32 draws from 32 bits).
const MAX_EXSEED = 2 ** 32 - 1;

// Guide shows the tour or an exercise of the lab shown. hooks:
//   load(params) — loads a lab's parameters through the form (form, address, bridge agree)
//   pause() — pauses playback
//   setSpeed(stepsPerSecond) — sets the playback speed a step's run asks for
//   setExtra(key, value) — writes a page key to the address (undefined removes it)
//   real — the real PostgreSQL's panel: available, and ask(sql) → the last value of its result
export class Guide {
  constructor(bs, hooks) {
    this.bs = bs;
    this.hooks = hooks;
    this.page = {};
    this.mode = null; // 'tour' | 'exercise' | null
    this.section = el('section', { id: 'guide', class: 'card guide', 'aria-labelledby': 'guide-heading' });
    const aside = $('controls');
    aside.prepend(this.section);
    this.watch = 0;
    this.shown = 0; // counts what the section has shown, so that a late answer finds it gone
  }

  // askReal runs sql on the real PostgreSQL for the view shown now, and resolves with its
  // value, or with undefined when the view has changed meanwhile; it throws PostgreSQL's
  // error.
  async askReal(sql) {
    const shown = this.shown;
    const v = await this.hooks.real.ask(sql);
    return shown === this.shown ? v : undefined;
  }

  // realMissing says why a step or an exercise cannot run on the real PostgreSQL, or ''.
  realMissing() {
    return this.hooks.real && this.hooks.real.available ? '' : 'This build has no real PostgreSQL: the build could not fetch PGlite.';
  }

  // show sets the lab page module whose tour and exercises are offered, closing any open one.
  show(page, lab) {
    this.page = page;
    this.lab = lab;
    this.close(false);
  }

  tour() { return this.page.tour || []; }
  exercises() { return this.page.exercises || []; }

  // openFromAddress opens what the address names: tour=K, or exercise=ID with exseed=N. It
  // returns what was wrong with those keys, in words, for the page to show with the
  // address's other problems.
  openFromAddress(pageKeys) {
    const problems = [];
    if (pageKeys.tour !== undefined) {
      const k = parseIndex(pageKeys.tour, this.tour().length);
      if (k > 0) this.startTour(k);
      else problems.push(this.tour().length
        ? `tour ${quote(pageKeys.tour)} is not a step of this lab's tour, 1 to ${this.tour().length}; the tour was not opened`
        : `this lab has no tour; tour ${quote(pageKeys.tour)} was ignored`);
      if (pageKeys.exercise !== undefined) problems.push(`exercise ${quote(pageKeys.exercise)} was ignored: the address names a step of the tour too, and the tour comes first`);
    } else if (pageKeys.exercise !== undefined) {
      const ex = this.exercises().find((e) => e.id === pageKeys.exercise);
      let seed;
      if (pageKeys.exseed !== undefined) {
        if (/^[0-9]+$/.test(pageKeys.exseed) && Number(pageKeys.exseed) <= MAX_EXSEED) seed = Number(pageKeys.exseed);
        else problems.push(`exseed ${quote(pageKeys.exseed)} is not a whole number from 0 to ${MAX_EXSEED}; a new one was drawn`);
      }
      if (ex) this.startExercise(ex, seed);
      else problems.push(`exercise ${quote(pageKeys.exercise)} is not an exercise of this lab (${this.exercises().map((e) => e.id).join(', ') || 'none'}); it was ignored`);
    }
    if (pageKeys.exseed !== undefined && (pageKeys.exercise === undefined || pageKeys.tour !== undefined)) {
      problems.push(`exseed ${quote(pageKeys.exseed)} was ignored: it is the seed of an exercise, and the address opens no exercise`);
    }
    if (!this.mode) this.renderIdle();
    return problems;
  }

  // renderIdle offers the tour and the exercises, when the lab has any.
  renderIdle() {
    const tour = this.tour();
    const exs = this.exercises();
    this.section.hidden = tour.length === 0 && exs.length === 0;
    const buttons = [];
    if (tour.length) buttons.push(el('button', { type: 'button', id: 'tour-start', class: 'primary small-button', onclick: () => this.startTour(1) }, `Take the tour (${tour.length} steps)`));
    for (const ex of exs) {
      buttons.push(el('button', { type: 'button', class: 'small-button', 'data-exercise': ex.id, onclick: () => this.startExercise(ex) }, `Exercise: ${ex.title}`));
    }
    this.section.replaceChildren(
      el('h2', { id: 'guide-heading', text: 'Learn' }),
      el('p', { class: 'muted small', text: 'A short guided tour of this lab, or a question the simulator checks.' }),
      el('div', { class: 'card-actions guide-actions' }, ...buttons),
    );
  }

  close(render = true) {
    this.shown++;
    const was = this.mode;
    this.mode = null;
    this.stopWatch();
    if (was) {
      this.hooks.setExtra('tour', undefined);
      this.hooks.setExtra('exercise', undefined);
      this.hooks.setExtra('exseed', undefined);
    }
    if (render) this.renderIdle();
  }

  // freePlay ends the tour and gives the reader back the settings and speed they had before
  // it (the lab's defaults when the tour was opened by a link), playing: a tour's small pools
  // and slow speeds are for its steps, not for free play.
  freePlay() {
    const before = this.before;
    this.close();
    if (!before) return;
    this.hooks.load(before.params);
    if (before.speed !== undefined) this.hooks.setSpeed(before.speed);
    this.bs.play();
  }

  stopWatch() {
    if (this.watch) cancelAnimationFrame(this.watch);
    this.watch = 0;
  }

  // paramsUpTo returns the parameters the tour's steps 1..k set, later ones winning.
  paramsUpTo(k) {
    const p = {};
    for (const s of this.tour().slice(0, k)) Object.assign(p, s.params || {});
    return p;
  }

  startTour(k) {
    if (this.mode !== 'tour') {
      const { params } = this.bs.params();
      const { lab: _, ...mine } = params || {};
      this.before = { params: mine, speed: this.bs.stats().speedParam };
    }
    this.mode = 'tour';
    this.hooks.setExtra('exercise', undefined);
    this.hooks.setExtra('exseed', undefined);
    this.tourStep(k);
  }

  tourStep(k) {
    this.stopWatch();
    const shown = ++this.shown;
    const steps = this.tour();
    const step = steps[k - 1];
    this.hooks.pause();
    this.hooks.load(this.paramsUpTo(k));
    this.hooks.setExtra('tour', String(k));
    this.section.hidden = false;

    const body = el('div', { class: 'guide-body' });
    const status = el('p', { class: 'guide-status', role: 'status', 'aria-live': 'polite' });
    let predicted = null;
    let realValue; // what the real PostgreSQL said, for a step that runs there
    const nav = el('div', { class: 'card-actions guide-nav' });
    const next = k < steps.length
      ? el('button', { type: 'button', id: 'tour-next', class: 'primary small-button', onclick: () => this.tourStep(k + 1) }, 'Next')
      : el('button', { type: 'button', id: 'tour-finish', class: 'primary small-button', onclick: () => this.freePlay() }, 'Free play');
    const back = el('button', { type: 'button', id: 'tour-back', class: 'small-button', onclick: () => this.tourStep(k - 1) }, 'Back');
    back.disabled = k === 1;
    const leave = el('button', { type: 'button', id: 'tour-close', class: 'quiet small-button', onclick: () => this.close() }, 'Leave the tour');

    body.append(el('p', { text: step.text }));
    const finish = () => {
      const parts = [];
      const who = step.real ? 'PostgreSQL 18' : 'the simulator';
      if (step.predict && step.answer) {
        const truth = String(step.answer(this.bs, realValue));
        const label = (v) => (step.predict.choices.find((c) => c.value === v) || { label: v }).label;
        if (predicted !== null) {
          parts.push(predicted === truth ? `Right: ${label(truth)}.` : `Not this time: you said ${label(predicted)}; ${who} says ${label(truth)}.`);
        } else parts.push(`${who[0].toUpperCase()}${who.slice(1)} says: ${label(truth)}.`);
      }
      if (step.explain) parts.push(step.explain(this.bs, realValue));
      status.textContent = parts.join(' ');
    };
    if (step.predict) {
      const fs = el('fieldset', { class: 'guide-predict' }, el('legend', { text: step.predict.question }));
      for (const c of step.predict.choices) {
        const id = `tour-choice-${c.value}`;
        const input = el('input', { type: 'radio', name: 'tour-choice', id, value: c.value });
        input.addEventListener('change', () => { predicted = c.value; });
        fs.append(el('div', { class: 'choice' }, input, el('label', { for: id, text: c.label })));
      }
      body.append(fs);
    }
    if (step.run) {
      const runBtn = el('button', { type: 'button', id: 'tour-run', class: 'primary small-button' }, 'Run it');
      const skip = el('button', { type: 'button', id: 'tour-skip', class: 'small-button', hidden: '' }, 'Skip to the result');
      const target = () => (step.run.toEnd || step.run.until ? Infinity : step.run.steps);
      let start = 0;
      const done = () => {
        this.stopWatch();
        this.hooks.pause();
        runBtn.disabled = true;
        skip.hidden = true;
        finish();
      };
      runBtn.addEventListener('click', () => {
        start = this.bs.stats().step;
        runBtn.disabled = true;
        skip.hidden = false;
        status.textContent = 'Running… watch the grid and the counters.';
        if (step.run.speed) this.hooks.setSpeed(step.run.speed);
        this.bs.play();
        const check = () => {
          const s = this.bs.stats();
          if (s.done || s.step - start >= target() || !s.playing || (step.run.until && step.run.until(this.bs))) { done(); return; }
          this.watch = requestAnimationFrame(check);
        };
        this.watch = requestAnimationFrame(check);
      });
      skip.addEventListener('click', () => {
        this.hooks.pause();
        if (step.run.until) stepUntil(this.bs, step.run.until);
        else runSteps(this.bs, target() - (this.bs.stats().step - start));
        done();
      });
      body.append(el('div', { class: 'card-actions' }, runBtn, skip));
    } else if (step.real) {
      const runBtn = el('button', { type: 'button', id: 'tour-real', class: 'primary small-button' }, 'Run it on PostgreSQL 18');
      const missing = this.realMissing();
      if (missing) {
        runBtn.disabled = true;
        status.textContent = missing;
      }
      runBtn.addEventListener('click', async () => {
        runBtn.disabled = true;
        status.textContent = 'Running it on PostgreSQL 18 (it starts the first time; the SQL and its results are in the real PostgreSQL panel)…';
        try {
          const v = await this.askReal(typeof step.real.sql === 'function' ? step.real.sql(this.bs) : step.real.sql);
          if (shown !== this.shown) return;
          realValue = v;
          finish();
        } catch (err) {
          if (shown !== this.shown) return;
          status.textContent = `PostgreSQL 18 could not run it: ${err.message}`;
          runBtn.disabled = false;
        }
      });
      body.append(el('div', { class: 'card-actions' }, runBtn));
    } else {
      finish();
    }
    nav.append(back, next, leave);
    this.section.replaceChildren(
      el('h2', { id: 'guide-heading', text: `Tour, step ${k} of ${steps.length}: ${step.title}` }),
      body, status, nav,
    );
    const heading = $('guide-heading');
    heading.tabIndex = -1;
    heading.focus({ preventScroll: false });
  }

  startExercise(ex, seed) {
    this.stopWatch();
    const shown = ++this.shown;
    this.mode = 'exercise';
    this.hooks.setExtra('tour', undefined);
    if (seed === undefined) seed = Math.floor(Math.random() * 2 ** 32);
    this.hooks.pause();
    const setup = ex.make(rng(seed));
    this.hooks.load(setup.params);
    if (setup.steps) runSteps(this.bs, setup.steps);
    this.hooks.setExtra('exercise', ex.id);
    this.hooks.setExtra('exseed', String(seed));
    this.section.hidden = false;

    const status = el('p', { class: 'guide-status', role: 'status', 'aria-live': 'polite' });
    const choices = el('div', { class: 'guide-choices', role: 'group', 'aria-label': 'Your answer' });
    for (const c of setup.choices) {
      choices.append(el('button', {
        type: 'button', class: 'small-button', 'data-answer': c.value,
        onclick: async () => {
          for (const b of choices.querySelectorAll('button')) b.disabled = true;
          let r;
          if (ex.real) {
            status.textContent = 'Asking PostgreSQL 18 (it starts the first time; the SQL and its results are in the real PostgreSQL panel)…';
            try {
              r = await ex.solve(this.bs, setup, { ask: (sql) => this.askReal(sql) });
            } catch (err) {
              if (shown !== this.shown) return;
              status.textContent = `PostgreSQL 18 could not answer: ${err.message}`;
              for (const b of choices.querySelectorAll('button')) b.disabled = false;
              return;
            }
            if (shown !== this.shown) return;
          } else r = ex.solve(this.bs, setup);
          const label = (v) => (setup.choices.find((x) => x.value === String(v)) || { label: String(v) }).label;
          const right = String(r.answer) === c.value;
          status.dataset.result = right ? 'right' : 'wrong';
          status.textContent = `${right ? 'Right' : `Not quite: the answer is ${label(r.answer)}`}. ${r.explain}`;
        },
      }, c.label));
    }
    const missing = ex.real ? this.realMissing() : '';
    if (missing) {
      for (const b of choices.querySelectorAll('button')) b.disabled = true;
      status.textContent = missing;
    }
    this.section.replaceChildren(
      el('h2', { id: 'guide-heading', text: `Exercise: ${ex.title}` }),
      el('p', { text: typeof setup.question === 'function' ? setup.question(this.bs) : setup.question }),
      choices, status,
      el('div', { class: 'card-actions' },
        el('button', { type: 'button', id: 'exercise-another', class: 'small-button', onclick: () => this.startExercise(ex) }, 'Another one'),
        el('button', { type: 'button', id: 'exercise-close', class: 'quiet small-button', onclick: () => this.close() }, 'Done')),
    );
  }
}
