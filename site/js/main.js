// bufferscope's page: downloads the simulator, starts it in the grid, and builds the lab
// shown — its tab, settings form, counters, legend and terminal command — from the lab's
// own tables (bufferscope.labs()), with what its page module (js/labs/) adds. Nothing here
// knows which labs exist.

import * as errors from './errors.js';
import * as theme from './theme.js';
import * as legend from './legend.js';
import { Counters, showView } from './counters.js';
import { ExportCard, SQLPanel } from './exports.js';
import { RealPanel } from './realpg.js';
import { Controls } from './controls.js';
import { Playback } from './playback.js';
import { Tooltip, Inspector, paneOf } from './inspect.js';
import { PaneLabels } from './panes.js';
import { init as initInput } from './input.js';
import { boot, enable, fatal, heldBytes, openLab, waitForFrame } from './boot.js';
import { readPlay, readQuery, readStep, splitParams, State } from './url.js';
import { Guide } from './guide.js';
import * as embedSnippet from './snippet.js';
import { EventLog } from './eventlog.js';
import { init as initKeys } from './keys.js';
import { fitStage } from './layout.js';
import * as modules from './labs/index.js';
import * as offline from './offline.js';

const $ = (id) => document.getElementById(id);

// pageOf returns lab's page module, or an empty one.
const pageOf = (name) => modules[name] || {};

// tabs builds the labs' tabs: links to each lab's address, so a new tab opens it too.
function tabs(labs, onSwitch) {
  const nav = $('lab-tabs');
  nav.replaceChildren(...labs.map((l, i) => {
    const a = document.createElement('a');
    a.href = i === 0 ? './' : `?lab=${encodeURIComponent(l.name)}`;
    a.id = `lab-${l.name}`;
    a.className = 'lab-tab';
    a.dataset.labLink = l.name;
    a.textContent = l.title;
    a.title = l.summary;
    a.addEventListener('click', (e) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; // a new tab
      e.preventDefault();
      onSwitch(l.name);
    });
    return a;
  }));
}

// markTab marks the tab of the lab shown.
function markTab(name) {
  document.body.dataset.lab = name;
  for (const a of document.querySelectorAll('[data-lab-link]')) {
    if (a.dataset.labLink === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

// A WebAssembly memory never shrinks: after a 100GB pool the tab keeps over a gigabyte
// however small the next pool is. So when a run of fewer than SMALL_POOL buffers (1GB)
// stands in a memory of more than HELD_LIMIT bytes, several times what such a run needs
// (about 100 MB at 1GB), the page starts the simulator again on the same address: a new Go
// program in a new memory, which gives the old one back.
const SMALL_POOL = 131072;
const HELD_LIMIT = 512 * 2 ** 20;

// tooMuchHeld reports whether the run described by stats st holds far more memory than it
// needs, left over from a larger pool.
const tooMuchHeld = (st) => st && st.nbuffers < SMALL_POOL && !(st.time && st.time.job) && heldBytes() > HELD_LIMIT;

// giveMemoryBack says over the grid why the simulator starts again, and reloads the page at
// its address, which holds the lab and its settings.
function giveMemoryBack() {
  document.body.dataset.restarting = '1';
  $('progress').classList.remove('band');
  $('progress').hidden = false;
  $('progress-bar').hidden = false;
  $('progress-bar').removeAttribute('value');
  $('progress-text').textContent = `Giving back the ${Math.round(heldBytes() / 2 ** 20)} MB the larger pool held: the simulator starts again…`;
  requestAnimationFrame(() => requestAnimationFrame(() => location.reload()));
}

// nudge moves the speed slider d rungs, as the reader would.
function nudge(d) {
  const slider = $('speed');
  const v = Math.max(0, Math.min(Number(slider.max), Number(slider.value) + d));
  if (slider.disabled || v === Number(slider.value)) return;
  slider.value = String(v);
  slider.dispatchEvent(new Event('input', { bubbles: true }));
}

async function start() {
  errors.init();
  initKeys({ slower: () => nudge(-1), faster: () => nudge(1) });
  const query = readQuery();
  const refit = fitStage($('grid'));
  const booted = await boot(__WASM_URL__);
  if (!booted) return;
  const { bs, canvas } = booted;
  refit((w, h) => bs.fitHeight(w, h)); // the box shrinks to the pool
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-describedby', 'grid-help legend-heading');
  $('app-version').textContent = bs.version;

  const labs = bs.labs();
  const byName = (name) => labs.find((l) => l.name === name);
  const opened = openLab(labs, query);
  const problems = [...query.problems, ...opened.problems];
  let lab = opened.lab;
  const first = { params: opened.params, unknown: opened.unknown };
  const state = new State(labs, lab.name, Object.keys(first.params));
  state.restore(); // the other labs' settings, when the page started the simulator again

  const tooltip = new Tooltip();
  const inspector = new Inspector(bs);
  const counters = new Counters();
  const exportCard = new ExportCard(bs);
  // The grid switches between the simulated pool and PostgreSQL 18's: another pool, another
  // legend.
  const realPanel = new RealPanel(bs, {
    changed: () => {
      inspector.clear();
      tooltip.hide();
      refit();
      refreshLegend();
      showGridView(bs.view());
    },
  });
  const sqlPanel = new SQLPanel(realPanel);
  const eventLog = new EventLog();
  let pointer = null; // last client point over the grid, for live tooltip updates
  let page = {};
  let playback = null;
  // chosen says for each lab whether its speed is the reader's (from the address or the
  // slider); otherwise the lab's page module chooses it for its pool.
  const chosen = {};
  chosen[lab.name] = query.page.speed !== undefined;
  const defaultSpeed = () => (page.speed ? page.speed(bs.stats(), theme.reducedMotion(), controls.params || {}) : 1000);

  const refreshLegend = () => legend.render(bs, { reducedMotion: theme.reducedMotion() });
  const paneLabels = new PaneLabels($('grid'));
  let lastStats = null; // the stats shown last, for the panes' labels
  const showGridView = (v) => {
    if (!v || v.ok === false) return;
    showView(v);
    paneLabels.show(v, lastStats, page.paneCaption);
    legend.showAggregate(v);
    canvas.classList.toggle('zoomed', v.zoomed); // touch: pan the grid, not the page
  };
  let knownRun = -1; // stats().time.run of the run the page built or adopted
  const onLoaded = (res) => {
    knownRun = bs.stats().time.run;
    if (tooMuchHeld(bs.stats())) {
      state.keep();
      giveMemoryBack();
      return;
    }
    refit(); // a new pool, or a lab with a lane under the grid
    inspector.clear();
    tooltip.hide();
    refreshLegend();
    const st = bs.stats();
    lastStats = st;
    showGridView(bs.view());
    canvas.setAttribute('aria-label', page.ariaLabel
      ? page.ariaLabel(st)
      : `Shared buffer pool of ${st.sharedBuffers}: ${st.nbuffers} buffers, drawn as a grid`);
    const params = controls.params;
    counters.command(params);
    counters.update(st, params);
    exportCard.loaded(lab, st);
    sqlPanel.show(page.sql, params);
    if (page.loaded) page.loaded(params, st);
    if (page.update) page.update(st);
    if (res && res.ok !== false && !chosen[lab.name] && playback) playback.setSpeed(defaultSpeed());
  };
  const controls = new Controls(bs, state, { loaded: onLoaded });
  playback = new Playback(bs, state, { reset: () => onLoaded(null), chose: () => { chosen[lab.name] = true; } });
  const guide = new Guide(bs, {
    load: (params) => {
      for (const k of Object.keys(params)) state.touch(k); // the guide's settings name its view
      return controls.load(params);
    },
    pause: () => bs.pause(),
    setSpeed: (x) => { chosen[lab.name] = true; playback.setSpeed(x); },
    setExtra: (key, value) => state.setExtra(key, value),
    real: realPanel,
  });
  // warnAddress shows, all together, what was wrong with the address.
  const warnAddress = (problems) => {
    if (problems.length) errors.show('Some settings in the address were not valid', problems.map((w) => `${w}.`));
  };

  // showIntro opens or folds the lab's introduction, which a phone shows folded under the tabs.
  const showIntro = (open) => {
    const intro = $('lab-intro');
    intro.classList.toggle('open', open);
    $('intro-more').setAttribute('aria-expanded', String(open));
    $('intro-more').textContent = open ? 'Less' : 'More about this lab';
    // Offered only when the folded introduction hides something.
    const clipped = !open && intro.scrollHeight > intro.clientHeight + 1;
    intro.classList.toggle('clipped', clipped);
    $('intro-more').hidden = !open && !clipped;
  };
  $('intro-more').addEventListener('click', () => showIntro(!$('lab-intro').classList.contains('open')));
  addEventListener('resize', () => showIntro($('lab-intro').classList.contains('open')));

  // show builds the page for lab: its intro, form, counters and the module's cards.
  const show = (next) => {
    if (page.unmount) page.unmount();
    lab = next;
    page = pageOf(lab.name);
    markTab(lab.name);
    $('lab-intro').innerHTML = page.intro || '';
    if (!page.intro) $('lab-intro').textContent = lab.summary;
    showIntro(false);
    $('lab-panel').replaceChildren();
    $('lab-wide').replaceChildren();
    $('settings-note').textContent = page.settingsNote
      || 'Every change starts the run again. The same settings and seed always give the same run, so the address of this page reproduces what you see.';
    controls.build(lab, page);
    counters.build(lab);
    eventLog.build(lab);
    if (page.mount) page.mount({ bs, panel: $('lab-panel'), wide: $('lab-wide'), pause: () => bs.pause() });
    guide.show(page, lab);
    realPanel.setLab(lab.name, page.real);
  };

  theme.init((t) => {
    bs.setTheme(t);
    refreshLegend();
    if (page.theme) page.theme(t);
  }, (reduced) => {
    bs.setReducedMotion(reduced);
    refreshLegend();
  });

  // switchLab shows another lab with the settings it had last (its defaults the first
  // time); fromAddress applies the address instead, after Back or Forward.
  const switchLab = (name, fromAddress = null) => {
    const next = byName(name);
    if (!next || next === lab && !fromAddress) return;
    bs.pause();
    const params = fromAddress ? splitParams(next, fromAddress.values).params : state.params[name];
    enterLab(next, name, params, fromAddress);
  };
  // enterLab is switchLab's work: the lab's page, its run, and playback or the address's step.
  const enterLab = (next, name, params, fromAddress) => {
    errors.clear();
    if (fromAddress) state.follow(name);
    else state.show(name);
    show(next);
    if (fromAddress) chosen[name] = fromAddress.page.speed !== undefined;
    const r = controls.load(params, null);
    const speed = fromAddress && chosen[name] ? fromAddress.page.speed : chosen[name] ? state.speed[name] : defaultSpeed();
    const sp = playback.setSpeed(speed);
    const at = fromAddress ? readStep(fromAddress.page.step) : { step: null };
    if (fromAddress) {
      warnAddress([
        ...fromAddress.problems,
        ...((r && r.warnings) || []),
        ...splitParams(next, fromAddress.values).unknown,
        ...(sp.warnings || []),
        ...(at.problem ? [at.problem] : []),
        ...guide.openFromAddress(fromAddress.page),
      ]);
    } else guide.renderIdle();
    if (at.step > 0) playback.seek(at.step);
    else if (r && r.ok !== false && !guide.mode && !(fromAddress && fromAddress.page.play === '0')) bs.play();
  };
  tabs(labs, (name) => switchLab(name));
  window.addEventListener('popstate', () => {
    const q = readQuery();
    switchLab(byName(q.lab) ? q.lab : labs[0].name, q);
  });

  // The address first: bad values are explained and replaced with safe ones.
  show(lab);
  const res = controls.load(first.params, null);
  const sp = playback.setSpeed(query.page.speed !== undefined ? query.page.speed : defaultSpeed());
  problems.push(
    ...((res && res.warnings) || []),
    ...first.unknown,
    ...(sp.warnings || []),
  );
  // A link to a moment: step=N opens paused at step N.
  const at = readStep(query.page.step);
  if (at.problem) problems.push(at.problem);
  const play = readPlay(query.page.play);
  if (play) problems.push(play);
  problems.push(...guide.openFromAddress(query.page));
  warnAddress(problems);

  initInput(bs, canvas, {
    hover(x, y) {
      pointer = [x, y];
      const info = bs.inspect(x, y);
      tooltip.show(info, x, y);
      if (info) bs.highlight(info.buffer, paneOf(info));
      else bs.highlight(inspector.id, inspector.pane);
    },
    leave() {
      pointer = null;
      tooltip.hide();
      bs.highlight(inspector.id, inspector.pane);
    },
    select(x, y, type) {
      const info = bs.inspect(x, y);
      inspector.select(info ? info.buffer : null, paneOf(info));
      if (type !== 'mouse') {
        pointer = info ? [x, y] : null;
        tooltip.show(info, x, y);
      }
    },
    view(v) {
      showGridView(v);
      if (pointer) tooltip.show(bs.inspect(...pointer), ...pointer);
    },
    togglePlay: () => playback.togglePlay(),
    step: () => playback.step(),
    stepBack: () => playback.stepBack(),
    nextEvent: () => playback.nextEvent(),
    reset: () => playback.reset(),
    escape() {
      if (bs.stats().time.job) playback.cancel();
      pointer = null;
      tooltip.hide();
      inspector.select(null);
    },
  });

  // A tap elsewhere closes details a tap on the grid opened.
  document.addEventListener('pointerdown', (e) => {
    if (e.target !== canvas && pointer) {
      pointer = null;
      tooltip.hide();
      bs.highlight(inspector.id, inspector.pane);
    }
  });

  // adopt brings the page in step with a run that other code built through the bridge
  // (load, setSeed or reset from a host page, an embed or the console): the tab, the form,
  // the address and the counters then show what runs.
  const adopt = (s) => {
    const next = byName(s.lab);
    if (!next) return;
    if (next !== lab) {
      state.show(next.name);
      show(next);
    }
    const { params: all, limits } = bs.params();
    const { lab: _, ...p } = all;
    for (const f of lab.params) {
      if (p[f.key] !== undefined && p[f.key] !== f.default) state.keys[lab.name].add(f.key);
    }
    controls.params = p;
    controls.fill(p, limits);
    state.set(lab.name, p);
    playback.speeds = bs.speeds();
    onLoaded(null);
  };

  bs.subscribe((s) => {
    // A run or a speed the page did not choose came through the bridge. Notifications can
    // be older than the page's own last change, so the bridge is asked what holds now.
    if (s.time && s.time.run !== knownRun || s.lab === lab.name && s.speedParam !== state.speed[lab.name]) {
      const now = bs.stats();
      if (now.time.run !== knownRun) adopt(now);
      if (now.speedParam !== state.speed[lab.name]) {
        playback.speeds = bs.speeds();
        playback.showSpeed({ speed: now.speed, label: now.speedLabel, param: now.speedParam });
      }
    }
    if (s.lab !== lab.name) return; // a notification from before a switch
    realPanel.sync(s);
    lastStats = s;
    playback.update(s);
    counters.update(s, controls.params);
    exportCard.update(s);
    eventLog.update(s);
    if (page.update) page.update(s);
    showGridView(bs.view()); // the canvas may have been resized
    if (pointer && tooltip.visible) tooltip.show(bs.inspect(...pointer), ...pointer);
    inspector.refresh();
  });

  enable(['play', 'step', 'step-back', 'next-event', 'next-kind', 'reset', 'speed', 'timeline', 'settings-fields', 'inspect-buffer']);
  embedSnippet.init(() => lab.title);
  // A long seek to the address's step shows its progress and can be cancelled.
  if (at.step !== null) {
    if (at.step > 0) playback.seek(at.step);
  } else if (query.page.play !== '0' && !guide.mode) bs.play();
  playback.update(bs.stats());
  await waitForFrame(bs, 0);
  $('progress').hidden = true;
  // Ebiten focused its canvas at start and host.js took the focus away, which leaves Tab's
  // starting point at the canvas; start it from the top again, so the first Tab reaches the
  // skip link. Not when the reader has focused something meanwhile.
  if (!document.activeElement || document.activeElement === document.body) {
    document.body.tabIndex = -1;
    document.body.focus({ preventScroll: true });
    document.body.removeAttribute('tabindex');
  }
  document.body.dataset.ready = '1';
  offline.keep();
}

start().catch((err) => fatal('The page could not start.', String(err && err.stack || err)));
