// An example host page (embed-host.html): it frames embed.html with this page's own
// address and drives it through the postMessage API of docs/embed.md. It stands alone —
// it imports nothing of the playground — so it can be copied into another site, with the
// frame's address pointing at a deployed bufferscope.
//
// window.embedHost.send(message) sends a request and resolves with the embed's reply;
// window.embedHost.events lists the events received, newest last (the browser tests read
// both).

const $ = (id) => document.getElementById(id);
const frame = $('embed');
frame.src = `embed.html${location.search}`;
const embedOrigin = new URL(frame.src, location.href).origin;

const LOG_LIMIT = 200;
const events = [];
const waiting = new Map(); // id → resolve of the request's promise
let nextId = 1;

// send posts a request to the embed and resolves with its reply.
function send(message) {
  const id = `host-${nextId++}`;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    frame.contentWindow.postMessage({ bufferscope: 1, ...message, id }, embedOrigin);
    log('sent', { ...message, id });
  });
}

// log adds a line to the list of messages, newest first, keeping the last LOG_LIMIT.
function log(direction, m) {
  const li = document.createElement('li');
  const { bufferscope, counters, ...rest } = m;
  li.textContent = `${direction} ${m.type}${m.request ? ` (${m.request})` : ''}: ${JSON.stringify(rest)}`;
  li.dataset.type = m.type;
  const list = $('host-log');
  list.prepend(li);
  while (list.children.length > LOG_LIMIT) list.lastElementChild.remove();
}

// show writes what a message says about the run: its lab, step and counters.
function show(m) {
  const set = (id, v) => {
    const node = $(id);
    node.dataset.value = String(v);
    node.textContent = String(v);
  };
  if (m.lab !== undefined) set('host-status-lab', m.lab);
  if (m.step !== undefined) set('host-status-step', m.step);
  if (m.playing !== undefined) set('host-status-playing', m.playing ? 'yes' : 'no');
  if (m.counters) $('host-counters').textContent = JSON.stringify(m.counters, null, 1);
  if (m.lab !== undefined && $('host-lab').value !== m.lab) $('host-lab').value = m.lab;
}

window.addEventListener('message', (e) => {
  // Only the frame's messages, from the origin it was loaded from, in the embed's envelope.
  if (e.source !== frame.contentWindow || e.origin !== embedOrigin) return;
  const m = e.data;
  if (!m || typeof m !== 'object' || m.bufferscope !== 1) return;
  events.push(m);
  if (events.length > LOG_LIMIT) events.shift();
  log('received', m);
  show(m);
  // The embed shows a still until its reader plays it or a host asks it something; this
  // page drives it from the start, so it asks at once.
  if (m.type === 'still') send({ type: 'get' });
  if (m.type === 'ready') {
    $('host-lab').replaceChildren(...m.labs.map((l) => {
      const o = document.createElement('option');
      o.value = l.name;
      o.textContent = l.title;
      return o;
    }));
    $('host-lab').value = m.lab;
    for (const b of document.querySelectorAll('button, select')) b.disabled = false;
    document.body.dataset.ready = '1';
  }
  if (m.type === 'reply' && waiting.has(m.id)) {
    waiting.get(m.id)(m);
    waiting.delete(m.id);
  }
});

const onClick = (id, message) => $(id).addEventListener('click', () => send(message()));
onClick('host-play', () => ({ type: 'play' }));
onClick('host-pause', () => ({ type: 'pause' }));
onClick('host-step', () => ({ type: 'step' }));
onClick('host-reset', () => ({ type: 'reset' }));
onClick('host-get', () => ({ type: 'get' }));
const onSubmit = (id, message) => $(id).addEventListener('submit', (e) => {
  e.preventDefault();
  send(message());
});
// Numbers are sent as the reader typed them; the embed says what is wrong with a bad one.
onSubmit('host-step-form', () => ({ type: 'step', n: Number($('host-step-n').value) }));
onSubmit('host-seek-form', () => ({ type: 'seek', step: Number($('host-seek-to').value) }));
onSubmit('host-set-form', () => ({ type: 'set', params: { [$('host-key').value.trim()]: $('host-value').value } }));
$('host-lab').addEventListener('change', () => send({ type: 'set', params: { lab: $('host-lab').value } }));
$('host-bad').addEventListener('click', () => {
  const bad = { bufferscope: 1, type: 'step', n: 'many' };
  frame.contentWindow.postMessage(bad, embedOrigin);
  log('sent', bad);
});

window.embedHost = { send, events };
