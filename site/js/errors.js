// The error panel (#error-panel, role="alert"): parameter problems in plain words, and any
// failure to load or run the simulator, with the technical text folded away.

const $ = (id) => document.getElementById(id);

// show fills the panel: a title, a list of plain-word messages and optional technical
// detail, shown only when the reader opens it.
export function show(title, messages, detail = '') {
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
  $('error-dismiss').addEventListener('click', clear);
}
