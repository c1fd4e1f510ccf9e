// The error panel (#error-panel, role="alert"): parameter problems in plain words, and any
// failure to load or run the simulator, with the technical text folded away. A page holds
// an empty #error-panel where the panel goes; init fills it. index.html and embed.html share
// it, and boot.js's fatal is the one way a page shows that the simulator cannot go on.
//
// A fatal report replaces the Dismiss button with Reload, and stays: later messages (a
// control that no longer answers, say) do not cover it. Technical details, when there are
// any, fold away in a selectable <pre>, and Copy details puts them on the clipboard as plain
// text for a bug report.

const $ = (id) => document.getElementById(id);

// fatalShown says the panel holds a fatal report, which nothing replaces.
let fatalShown = false;

// build fills the empty #error-panel with its heading, buttons, list and details.
function build() {
  const panel = $('error-panel');
  if (panel.childElementCount) return;
  panel.innerHTML = `
    <div class="error-head">
      <h2 id="error-title">Something needs your attention</h2>
      <button type="button" id="error-dismiss" class="quiet" aria-label="Dismiss the message">Dismiss</button>
    </div>
    <ul id="error-list"></ul>
    <div class="error-actions" id="error-actions" hidden>
      <button type="button" id="error-reload" class="primary" hidden>Reload</button>
      <button type="button" id="error-copy" aria-describedby="error-copied">Copy details</button>
      <span id="error-copied" class="muted small" role="status"></span>
    </div>
    <details id="error-details" hidden>
      <summary>Technical details</summary>
      <pre id="error-text" tabindex="0" aria-label="Technical details, as plain text"></pre>
    </details>`;
  $('error-dismiss').addEventListener('click', clear);
  $('error-reload').addEventListener('click', () => location.reload());
  $('error-copy').addEventListener('click', copy);
}

// show fills the panel: a title, a list of plain-word messages and optional technical
// detail, shown only when the reader opens it. With {fatal: true} the simulator cannot go
// on: the panel offers Reload instead of Dismiss and keeps the report, ignoring what is
// shown after it.
export function show(title, messages, detail = '', { fatal = false } = {}) {
  build();
  if (fatalShown) return;
  fatalShown = fatal;
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
  $('error-dismiss').hidden = fatal;
  $('error-reload').hidden = !fatal;
  $('error-copy').hidden = !detail;
  $('error-copied').textContent = '';
  $('error-actions').hidden = !fatal && !detail;
  panel.dataset.fatal = fatal ? '1' : '';
  panel.hidden = false;
}

// copy puts the technical details on the clipboard; where the browser refuses, it opens
// them and selects their text for the reader to copy.
async function copy() {
  const text = $('error-text').textContent;
  const said = $('error-copied');
  try {
    await navigator.clipboard.writeText(text);
    said.textContent = 'Copied: paste the details into your bug report.';
  } catch {
    $('error-details').open = true;
    const range = document.createRange();
    range.selectNodeContents($('error-text'));
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    $('error-text').focus();
    said.textContent = 'This browser did not let the page copy: the details are selected below; press Ctrl+C (⌘C on a Mac) to copy them.';
  }
}

// clear hides the panel, unless it holds a fatal report.
export function clear() {
  if (fatalShown) return;
  $('error-panel').hidden = true;
}

export function init() {
  build();
}
