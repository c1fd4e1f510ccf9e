// The error panel (#error-panel, role="alert"): parameter problems in plain words, and any
// failure to load or run the simulator, with the technical text folded away. A page holds
// an empty #error-panel where the panel goes; init fills it.

const $ = (id) => document.getElementById(id);

// build fills the empty #error-panel with its heading, dismiss button, list and details.
function build() {
  const panel = $('error-panel');
  if (panel.childElementCount) return;
  panel.innerHTML = `
    <div class="error-head">
      <h2 id="error-title">Something needs your attention</h2>
      <button type="button" id="error-dismiss" class="quiet" aria-label="Dismiss the message">Dismiss</button>
    </div>
    <ul id="error-list"></ul>
    <details id="error-details" hidden>
      <summary>Technical details</summary>
      <pre id="error-text"></pre>
    </details>`;
  $('error-dismiss').addEventListener('click', clear);
}

// show fills the panel: a title, a list of plain-word messages and optional technical
// detail, shown only when the reader opens it.
export function show(title, messages, detail = '') {
  build();
  const panel = $('error-panel');
  $('error-title').textContent = title;
  const list = $('error-list');
  list.replaceChildren(...messages.map((m) => {
    const li = document.createElement('li');
    li.textContent = m;
    return li;
  }));
  $('error-text').textContent = detail;
  $('error-details').hidden = !detail;
  $('error-details').open = false;
  panel.hidden = false;
}

// clear hides the panel.
export function clear() {
  $('error-panel').hidden = true;
}

export function init() {
  build();
}
