// Hand-drawn SVG line charts that redraw themselves when their width changes.
import { fmtShortTime, toNum } from './format.js';

const NS = 'http://www.w3.org/2000/svg';
const M = { top: 12, right: 14, bottom: 24, left: 58 };

/** An SVG element: `svgEl('rect', {x: 1, class: 'bar'}, text)`. */
export function svgEl(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, String(v));
  if (text != null) el.textContent = text;
  return el;
}

const s = svgEl;

/** Round values spanning [min, max] for about `count` grid lines. */
export function niceTicks(min, max, count = 4) {
  const span = max - min || Math.abs(max) || 1;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((st) => span / st <= count) || raw;
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(+v.toFixed(10));
  return ticks;
}

/**
 * lineChart({ series: [{name, points: [{t, v}]}], className, id, lineClass, height, format, zero, label, timeFormat, markers })
 * Every series gets `<path class="<lineClass> series-<i>">`; one or two points still draw a line.
 * `timeFormat(ms, spanMs)` labels the time axis and the read-out (default: fmtShortTime, which
 * shows the time of day over short spans; daily data passes a date-only format).
 * `markers: [{t, kind: 'entry' | 'exit', side, text}]` puts a mark on the first series at each
 * time (▲ a long's entry, ▼ a short's, ◆ an exit), `text` its tooltip; reachable by keyboard.
 * `area` fills under a single series, down to the bottom or, with `areaBase`, to that value.
 */
export function lineChart(opts) {
  const { className = 'chart', id, height = 200, label = '' } = opts;
  // With markers to focus it is a group a screen reader walks into, not one picture.
  const role = opts.markers && opts.markers.length ? 'group' : 'img';
  const svg = s('svg', { class: className, id, role, 'aria-label': label, height, preserveAspectRatio: 'none' });
  return redrawnOnResize(svg, opts.width || 640, (w) => render(svg, w, height, opts));
}

/** Draws `svg` now at `width` with `draw(width)`, and again whenever its width changes. */
export function redrawnOnResize(svg, width, draw) {
  svg.style.width = '100%';
  let drawn = 0;
  const at = (w) => {
    drawn = Math.max(240, Math.round(w));
    draw(drawn);
  };
  at(width);
  if (typeof ResizeObserver === 'function') {
    const ro = new ResizeObserver((entries) => {
      const w = entries[0].contentRect.width;
      if (w > 0 && Math.abs(w - drawn) > 1) at(w);
    });
    ro.observe(svg);
  }
  return svg;
}

function render(svg, W, H, opts) {
  const { series = [], lineClass = 'line', format = (v) => String(v), zero = false, area = false, timeFormat = fmtShortTime } = opts;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const all = series.flatMap((se) => se.points).filter((p) => Number.isFinite(toNum(p.v)) && Number.isFinite(+p.t));
  if (!all.length) return;
  let tMin = Math.min(...all.map((p) => +p.t));
  let tMax = Math.max(...all.map((p) => +p.t));
  let vMin = Math.min(...all.map((p) => toNum(p.v)));
  let vMax = Math.max(...all.map((p) => toNum(p.v)));
  if (zero) {
    vMin = Math.min(vMin, 0);
    vMax = Math.max(vMax, 0);
  }
  if (vMax - vMin < 1e-9) {
    const pad = Math.abs(vMax) * 0.01 || 1;
    vMin -= pad;
    vMax += pad;
  } else {
    const pad = (vMax - vMin) * 0.08;
    vMin -= pad;
    vMax += pad;
  }
  const single = tMax === tMin;
  const x0 = M.left;
  const x1 = W - M.right;
  const y0 = H - M.bottom;
  const y1 = M.top;
  const X = (tt) => (single ? (x0 + x1) / 2 : x0 + ((tt - tMin) / (tMax - tMin)) * (x1 - x0));
  const Y = (v) => y0 - ((v - vMin) / (vMax - vMin)) * (y0 - y1);

  const grid = s('g', { class: 'chart-grid' });
  for (const tk of niceTicks(vMin, vMax)) {
    const y = Y(tk).toFixed(1);
    grid.append(s('line', { x1: x0, x2: x1, y1: y, y2: y, class: tk === 0 && zero ? 'zero' : null }));
    grid.append(s('text', { x: x0 - 6, y: +y + 4, 'text-anchor': 'end' }, format(tk)));
  }
  const span = tMax - tMin;
  grid.append(s('text', { x: x0, y: H - 6, 'text-anchor': 'start' }, timeFormat(tMin, span)));
  if (!single) grid.append(s('text', { x: x1, y: H - 6, 'text-anchor': 'end' }, timeFormat(tMax, span)));
  svg.append(grid);

  series.forEach((se, i) => {
    const pts = se.points
      .map((p) => [+p.t, toNum(p.v)])
      .filter(([tt, v]) => Number.isFinite(tt) && Number.isFinite(v))
      .sort((a, b) => a[0] - b[0]);
    if (!pts.length) return;
    let d;
    if (pts.length === 1 || single) {
      const y = Y(pts[pts.length - 1][1]).toFixed(1);
      d = `M${x0},${y}H${x1}`;
    } else {
      d = pts.map(([tt, v], j) => `${j ? 'L' : 'M'}${X(tt).toFixed(1)},${Y(v).toFixed(1)}`).join('');
    }
    const cls = `series-${i % 8}`;
    if (area && series.length === 1) {
      const base = opts.areaBase != null ? Y(opts.areaBase).toFixed(1) : y0;
      const a = `${d}V${base}H${pts.length === 1 || single ? x0 : X(pts[0][0]).toFixed(1)}Z`;
      svg.append(s('path', { d: a, class: `chart-area ${cls}` }));
    }
    const path = s('path', { d, class: `${lineClass} ${cls}`, fill: 'none', 'vector-effect': 'non-scaling-stroke' });
    if (se.name) path.append(s('title', {}, se.name));
    svg.append(path);
    const [lt, lv] = pts[pts.length - 1];
    svg.append(s('circle', { cx: (pts.length === 1 || single ? x1 : X(lt)).toFixed(1), cy: Y(lv).toFixed(1), r: 3, class: `chart-dot ${cls}` }));
  });

  drawMarkers(svg, opts.markers, series[0], { tMin, tMax, X, Y, single, id: opts.id });

  // Hover read-out: nearest point of each series.
  hoverReadout(svg, W, { x0, x1, y0, y1 }, (px) => {
    const tt = single ? tMin : tMin + ((px - x0) / (x1 - x0)) * (tMax - tMin);
    const parts = [];
    let bestT = null;
    for (const se of series) {
      let best = null;
      for (const p of se.points) if (!best || Math.abs(+p.t - tt) < Math.abs(+best.t - tt)) best = p;
      if (best) {
        parts.push((series.length > 1 ? `${se.name}: ` : '') + format(toNum(best.v)));
        if (bestT == null) bestT = +best.t;
      }
    }
    if (bestT == null) return null;
    return { x: single ? px : X(bestT), text: `${timeFormat(bestT, 0)}  ${parts.join('  ')}` };
  });
}

/** A hover read-out on `svg` (drawn `W` wide, its plot in `box`): a vertical line and a label
 *  where `pick(px)` says (`{x, text}`, or null) for the pointer's x in the drawing's units. */
export function hoverReadout(svg, W, { x0, x1, y0, y1 }, pick) {
  const hover = s('g', { class: 'chart-hover', visibility: 'hidden' });
  const vline = s('line', { y1: y1, y2: y0 });
  const label = s('text', { y: y1 + 12 });
  hover.append(vline, label);
  svg.append(hover);
  svg.onpointermove = (ev) => {
    const r = svg.getBoundingClientRect();
    if (!r.width) return;
    const got = pick(((ev.clientX - r.left) / r.width) * W);
    if (!got) return;
    const { x, text } = got;
    vline.setAttribute('x1', x);
    vline.setAttribute('x2', x);
    label.textContent = text;
    const right = x > (x0 + x1) / 2;
    label.setAttribute('x', right ? x - 6 : x + 6);
    label.setAttribute('text-anchor', right ? 'end' : 'start');
    hover.setAttribute('visibility', 'visible');
  };
  svg.onpointerleave = () => hover.setAttribute('visibility', 'hidden');
}

/** Trade markers on `se`'s line: each at the line's value nearest its time. */
function drawMarkers(svg, markers, se, { tMin, tMax, X, Y, single, id }) {
  if (!markers || !markers.length || !se || single) return;
  const pts = se.points.map((p) => [+p.t, toNum(p.v)]).filter(([tt, v]) => Number.isFinite(tt) && Number.isFinite(v)).sort((a, b) => a[0] - b[0]);
  if (!pts.length) return;
  const g = s('g', { class: 'chart-markers' });
  for (const m of markers) {
    const tt = +m.t;
    if (!Number.isFinite(tt) || tt < tMin || tt > tMax) continue;
    // The last point at or before the marker: the equity the trade met.
    let lo = 0;
    let hi = pts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (pts[mid][0] <= tt) lo = mid;
      else hi = mid - 1;
    }
    const x = X(tt);
    const y = Y(pts[lo][1]);
    // The price chart's shapes (candles.js): ▲ a long's entry, ▼ a short's, ◆ an exit.
    const entry = m.kind === 'entry';
    const side = m.side === 'short' ? 'short' : 'long';
    const d = !entry ? `M${x.toFixed(1)},${(y - 5).toFixed(1)}l5,5l-5,5l-5,-5z`
      : side === 'short' ? `M${x.toFixed(1)},${(y - 2).toFixed(1)}l-5,-8h10z`
        : `M${x.toFixed(1)},${(y + 2).toFixed(1)}l-5,8h10z`;
    const mark = s('path', { d, class: `chart-marker marker-${entry ? 'entry' : 'exit'} side-${side}`, 'data-t': tt, id: markerId(id, m) });
    if (m.text) {
      mark.append(s('title', {}, m.text));
      // The pointer has the title; the keyboard reaches each marker and reads the same text.
      tipOn(mark, m.text, { hover: false });
    }
    g.append(mark);
  }
  svg.append(g);
}

/** A marker's id inside the chart `chartId`, the same on every redraw so focus stays on it. */
export function markerId(chartId, m) {
  return chartId ? `${chartId}-${m.kind}-${m.symbol || ''}-${m.t}`.replace(/[^\w-]/g, '_') : null;
}

// The page's one chart tooltip: beside the marker focused (or pointed at), inside the viewport.
let tip = null;
let tipOwner = null;
let tipWatch = null;

function hideTip(owner) {
  if (!tip || (owner && owner !== tipOwner)) return;
  tip.hidden = true;
  tipOwner = null;
  clearInterval(tipWatch);
}

/** The tooltip beside its marker: above it, or below where there is no room above. */
function placeTip() {
  if (!tip || tip.hidden || !tipOwner) return;
  const r = tipOwner.getBoundingClientRect();
  const left = Math.max(4, Math.min(r.left + r.width / 2 - tip.offsetWidth / 2, document.documentElement.clientWidth - tip.offsetWidth - 4));
  const above = r.top - tip.offsetHeight - 8;
  tip.style.left = `${Math.round(left)}px`;
  tip.style.top = `${Math.round(above >= 4 ? above : r.bottom + 8)}px`;
}

function showTip(el, text) {
  if (!tip || !tip.isConnected) {
    tip = document.createElement('div');
    tip.id = 'chart-tip';
    tip.className = 'chart-tip';
    tip.setAttribute('role', 'tooltip');
    document.body.append(tip);
    addEventListener('scroll', placeTip, { passive: true, capture: true });
  }
  tip.textContent = text;
  tip.hidden = false;
  tipOwner = el;
  placeTip();
  // A live page redraws its charts: a tooltip whose marker is gone goes with it.
  clearInterval(tipWatch);
  tipWatch = setInterval(() => !el.isConnected && hideTip(el), 300);
}

/** Makes `el` (an SVG marker) reachable by keyboard, read as `text`, and shows `text` in the
 *  chart tooltip while it has focus (and, with `hover`, while the pointer is on it). */
export function tipOn(el, text, { hover = true } = {}) {
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', text);
  el.addEventListener('focus', () => showTip(el, text));
  el.addEventListener('blur', () => hideTip(el));
  el.addEventListener('keydown', (e) => e.key === 'Escape' && hideTip(el));
  if (hover) {
    el.addEventListener('pointerenter', () => showTip(el, text));
    el.addEventListener('pointerleave', () => hideTip(el));
  }
}

/** `<ul class="legend">` matching the series colours. */
export function legend(names) {
  const ul = document.createElement('ul');
  ul.className = 'legend';
  names.forEach((n, i) => {
    const li = document.createElement('li');
    const sw = document.createElement('span');
    sw.className = `swatch series-${i % 8}`;
    sw.setAttribute('aria-hidden', 'true');
    li.append(sw, document.createTextNode(n));
    ul.append(li);
  });
  return ul;
}
