// Pane labels: when the grid shows several pools side by side (a run that races them:
// bufferscope.view().panes), a label over each pane names it, with what the lab's page module
// adds (its paneCaption: the pane's modelled time, how far it got). For every lab alike.

export class PaneLabels {
  // grid is the canvas's container, in which the labels are placed over the canvas.
  constructor(grid) {
    this.grid = grid;
    this.nodes = [];
  }

  // show places a label over each pane of view v (none when it has one pool), written from
  // stats with caption(pane, stats) when the page module gives one, and marks the grid with
  // how many panes it shows (CSS gives a phone's grid the height for two).
  show(v, stats, caption) {
    if (!v || v.ok === false) return;
    const panes = v.panes || [];
    const n = String(Math.max(panes.length, 1));
    if (this.grid.dataset.panes !== n) this.grid.dataset.panes = n;
    while (this.nodes.length > panes.length) this.nodes.pop().remove();
    while (this.nodes.length < panes.length) {
      const node = document.createElement('div');
      node.className = 'pane-label';
      const name = document.createElement('strong');
      const more = document.createElement('span');
      node.append(name, more);
      this.grid.append(node);
      this.nodes.push(node);
    }
    panes.forEach((p, i) => {
      const node = this.nodes[i];
      node.id = `pane-label-${i}`;
      node.dataset.key = p.key;
      const style = { left: `${p.x}px`, top: `${p.y - p.head}px`, width: `${p.width}px`, height: `${p.head}px` };
      for (const [k, val] of Object.entries(style)) if (node.style[k] !== val) node.style[k] = val;
      if (node.title !== p.doc) node.title = p.doc;
      const [name, more] = node.children;
      if (name.textContent !== p.label) name.textContent = p.label;
      const text = (caption && stats && stats.panes && stats.panes[i] && caption(stats.panes[i], stats)) || '';
      const t = text ? ` · ${text}` : '';
      if (more.textContent !== t) more.textContent = t;
    });
  }
}
