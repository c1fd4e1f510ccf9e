// Charts of the labs, drawn by uPlot (site/vendor/uplot, MIT) on a canvas: time against
// relation size on logarithmic axes, or any series on linear ones, with vertical markers (a
// threshold, a crossover) and labelled dots drawn on the same canvas, so that the PNG export
// shows all of it.

import uPlot from '../vendor/uplot/uPlot.esm.js';

// FONT is the typeface of the charts and of the PNGs made of them and of tables.
export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif';

// colour resolves a CSS custom property of the page, which may be a light-dark() pair, to
// the colour the canvas should use in the theme in effect.
export function colour(name) {
  const probe = document.createElement('span');
  probe.hidden = true;
  probe.style.color = `var(${name})`;
  document.body.append(probe);
  const c = getComputedStyle(probe).color;
  probe.remove();
  return c;
}

// LogChart is one chart, with logarithmic x and y axes unless told otherwise.
//
// opts: title (for the PNG), xLabel, yLabel, series [{label, colour: '--chart-scan',
// dash?: [4, 4], points?: false to draw the line without dots, axis?: 2}], xValue(x) and
// yValue(y) to write a value on an axis or in the legend, xTicks(xs) the ticks of a
// logarithmic x axis (default: the data's xs), xLog and yLog (default true; false makes that
// axis linear, a linear y axis starting at 0), markers() → [{x, label, colour}] vertical
// lines, dots() → [{x, y, label, colour}], height in CSS pixels.
//
// Series of another quantity (a ratio beside seconds) take their own axis on the right:
// y2: {label, value(y)}, and axis: 2 on those series. Each axis is then drawn in the colour of
// its first series, with its own values and units.
export class LogChart {
  constructor(container, opts) {
    this.container = container;
    this.opts = { height: 300, xTicks: (xs) => xs, markers: () => [], dots: () => [], xLog: true, yLog: true, ...opts };
    this.data = null;
    this.u = null;
    this.width = 0;
    new ResizeObserver(() => {
      const w = this.container.clientWidth;
      if (w !== this.width && this.u) {
        this.width = w;
        this.u.setSize(this.size());
      }
    }).observe(container);
  }

  // size is the chart's size in CSS pixels: the container's width; shorter on a phone.
  size() {
    const w = Math.max(this.container.clientWidth, 240);
    return { width: w, height: Math.min(this.opts.height, Math.round(w * 0.75)) };
  }

  // setData shows xs (ascending) against each array of ys; null for none.
  setData(xs, ys) {
    this.data = xs ? [xs, ...ys] : null;
    this.render();
  }

  // hasData reports whether the chart shows anything.
  hasData() {
    return Boolean(this.u);
  }

  // render draws the chart again from its data: after new data, a change of markers or a
  // change of theme.
  render() {
    if (this.u) {
      this.u.destroy();
      this.u = null;
    }
    if (!this.data) return;
    const o = this.opts;
    const c = {
      text: colour('--text'), muted: colour('--muted'), line: colour('--line'), surface: colour('--surface'),
    };
    const series = o.series.map((s) => ({ ...s, stroke: colour(s.colour) }));
    this.colours = { ...c, series: series.map((s) => s.stroke) };
    const axis = {
      stroke: c.muted,
      font: `12px ${FONT}`,
      labelFont: `600 12px ${FONT}`,
      grid: { stroke: c.line, width: 1 },
      ticks: { stroke: c.line, width: 1, size: 4 },
      border: { show: true, stroke: c.line, width: 1 },
    };
    const range = (u, min, max) => (min > 0 && max > 0 ? [min / 1.35, max * 1.35] : [1, 10]);
    const y2 = o.y2 && series.some((s) => s.axis === 2) ? o.y2 : null;
    // With two axes each takes the colour of its series, so the eye finds which is which.
    const tint = (n) => {
      const s = y2 && series.find((x) => (x.axis === 2 ? 2 : 1) === n);
      return s ? { stroke: s.stroke } : {};
    };
    const valueOf = (s) => (s.axis === 2 && y2 ? y2.value : o.yValue);
    const linear = (from0) => (u, min, max) => {
      const lo = from0 ? Math.min(0, min) : min;
      const hi = max > lo ? max : lo + 1;
      return [lo, hi + (from0 ? 0.08 * (hi - lo) : 0)];
    };
    const self = this;
    this.width = this.container.clientWidth;
    this.u = new uPlot({
      ...this.size(),
      pxAlign: 0,
      cursor: { drag: { x: false, y: false }, points: { size: 8 } },
      legend: { live: true },
      scales: {
        x: o.xLog ? { time: false, distr: 3, log: 10, range } : { time: false, range: linear(false) },
        y: o.yLog ? { distr: 3, log: 10, range } : { range: linear(true) },
        ...(y2 ? { y2: { distr: 3, log: 10, range } } : {}),
      },
      axes: [
        o.xLog ? {
          ...axis, label: o.xLabel, size: 46, labelSize: 20, lineGap: 1.3,
          splits: (u) => o.xTicks(u.data[0]),
          filter: (u, splits) => splits, // every size, not only powers of ten
          // Every size gets a label when there is room; every other one on a narrow screen.
          values: (u, splits) => {
            const every = u.bbox.width / uPlot.pxRatio / splits.length < 52 ? 2 : 1;
            return splits.map((v, i) => (v == null || i % every ? '' : o.xValue(v)));
          },
        } : {
          ...axis, label: o.xLabel, size: 46, labelSize: 20, space: 64,
          values: (u, splits) => splits.map((v) => (v == null ? '' : o.xValue(v))),
        },
        {
          ...axis, ...tint(1), scale: 'y', label: o.yLabel, size: 64, labelSize: 20, space: 28,
          values: (u, splits) => splits.map((v) => (v == null || (o.yLog && !isPowerish(v)) ? '' : o.yValue(v))),
        },
        ...(y2 ? [{
          ...axis, ...tint(2), scale: 'y2', side: 1, label: y2.label, size: 64, labelSize: 20, space: 28,
          grid: { show: false },
          values: (u, splits) => splits.map((v) => (isPowerish(v) ? y2.value(v) : '')),
        }] : []),
      ],
      series: [
        { label: o.xName || 'size', value: (u, v) => (v == null ? '–' : o.xValue(v).replace('\n', ' · ')) },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.stroke,
          scale: s.axis === 2 && y2 ? 'y2' : 'y',
          width: 2,
          dash: s.dash,
          points: { show: s.points !== false, size: 6, stroke: s.stroke, fill: s.stroke },
          value: (u, v) => (v == null ? '–' : valueOf(s)(v)),
        })),
      ],
      hooks: { draw: [(u) => self.drawMarks(u), (u) => self.recordAxes(u)] },
    }, this.data, this.container);
  }

  // recordAxes writes what each axis drew — its side, label, font and tick values — on the
  // container as data-axes (JSON), for tests and tools that read the chart without its canvas.
  recordAxes(u) {
    const axes = u.axes.slice(1).map((a) => ({
      scale: a.scale,
      side: a.side === 1 ? 'right' : 'left',
      label: a.label,
      font: a.labelFont ? a.labelFont[0] : '',
      values: (a._values || []).filter((v) => v !== '' && v != null),
    }));
    this.container.dataset.axes = JSON.stringify(axes);
  }

  // drawMarks draws the markers and dots on the chart's canvas, in canvas pixels.
  drawMarks(u) {
    const ctx = u.ctx;
    const r = uPlot.pxRatio;
    const { left, top, width, height } = u.bbox;
    ctx.save();
    ctx.font = `600 ${12 * r}px ${FONT}`;
    ctx.textAlign = 'left'; // uPlot leaves the alignment of its last axis label
    ctx.textBaseline = 'top';
    let row = 0;
    for (const m of this.opts.markers()) {
      const x = u.valToPos(m.x, 'x', true);
      if (!(x >= left && x <= left + width)) continue;
      const stroke = colour(m.colour);
      ctx.strokeStyle = stroke;
      ctx.fillStyle = stroke;
      ctx.lineWidth = 1.5 * r;
      ctx.setLineDash((m.dash || [6, 4]).map((d) => d * r));
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
      const w = ctx.measureText(m.label).width;
      const tx = clamp(x + 6 * r + w > left + width ? x - 6 * r - w : x + 6 * r, left + 3 * r, left + width - w - 3 * r);
      const ty = top + (6 + 18 * row) * r;
      ctx.fillStyle = this.colours.surface;
      ctx.globalAlpha = 0.85;
      ctx.fillRect(tx - 3 * r, ty - 2 * r, w + 6 * r, 17 * r);
      ctx.globalAlpha = 1;
      ctx.fillStyle = stroke;
      ctx.fillText(m.label, tx, ty);
      row++;
    }
    ctx.setLineDash([]);
    for (const d of this.opts.dots()) {
      const x = u.valToPos(d.x, 'x', true);
      const y = u.valToPos(d.y, 'y', true);
      if (!(x >= left && x <= left + width && y >= top && y <= top + height)) continue;
      const stroke = colour(d.colour);
      ctx.beginPath();
      ctx.arc(x, y, 6 * r, 0, 2 * Math.PI);
      ctx.lineWidth = 2.5 * r;
      ctx.strokeStyle = stroke;
      ctx.fillStyle = this.colours.surface;
      ctx.fill();
      ctx.stroke();
      if (d.label) {
        const w = ctx.measureText(d.label).width;
        const tx = clamp(x - 10 * r - w < left ? x + 10 * r : x - 10 * r - w, left + 3 * r, left + width - w - 3 * r);
        ctx.textBaseline = 'bottom';
        ctx.fillStyle = stroke;
        ctx.fillText(d.label, tx, y - 6 * r);
        ctx.textBaseline = 'top';
      }
    }
    ctx.restore();
  }

  // png returns the chart as a PNG with its title and a legend, in the page's theme.
  png(title) {
    const u = this.u;
    if (!u) return Promise.resolve(null);
    const src = u.ctx.canvas;
    const r = uPlot.pxRatio;
    const pad = 16 * r;
    const titleH = 30 * r;
    const legendH = 26 * r;
    const out = document.createElement('canvas');
    out.width = src.width + 2 * pad;
    out.height = src.height + titleH + legendH + 2 * pad;
    const ctx = out.getContext('2d');
    ctx.fillStyle = this.colours.surface;
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.fillStyle = this.colours.text;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.font = `650 ${15 * r}px ${FONT}`;
    ctx.fillText(title, pad, pad);
    ctx.drawImage(src, pad, pad + titleH);
    let x = pad + 64 * r;
    const y = pad + titleH + src.height + 8 * r;
    ctx.font = `${13 * r}px ${FONT}`;
    this.opts.series.forEach((s, i) => {
      ctx.strokeStyle = this.colours.series[i];
      ctx.lineWidth = 2.5 * r;
      ctx.setLineDash((s.dash || []).map((d) => d * r));
      ctx.beginPath();
      ctx.moveTo(x, y + 8 * r);
      ctx.lineTo(x + 22 * r, y + 8 * r);
      ctx.stroke();
      ctx.fillStyle = this.colours.text;
      ctx.fillText(s.label, x + 28 * r, y);
      x += 28 * r + ctx.measureText(s.label).width + 24 * r;
    });
    return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
  }
}

function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(v, hi));
}

// isPowerish reports whether a log axis split is 1, 2 or 5 times a power of ten, the
// splits worth a label.
function isPowerish(v) {
  const m = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
  return [1, 2, 5].some((d) => Math.abs(m - d) < 1e-6);
}
