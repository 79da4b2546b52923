// A hand-drawn SVG candlestick chart with trades marked where they filled: an entry ▲ (long)
// or ▼ (short) with its tip at the fill price, an exit ◆, a dashed line from each exit back to
// its entry (green when the trade made money, red when it lost). Every marker is reachable by
// keyboard and shows its tooltip on focus or under the pointer. Redraws when its width changes.
// Scales, grid, read-out and tooltips are chart.js's.
import { hoverReadout, markerId, niceTicks, redrawnOnResize, svgEl as s, tipOn } from './chart.js';
import { fmtShortTime, pnlClass, toNum } from './format.js';

const M = { top: 12, right: 12, bottom: 24, left: 64 };
const R = 6; // a marker's half size in px

/**
 * candleChart({ candles: [{open_time_ms, open, high, low, close}], intervalMs, markers, id,
 * className, label, height, format, timeFormat, readout })
 * `markers` as trades.js's `tradeMarkers` makes them (`{t, kind, side, price, text, entry}`);
 * the time axis spans the candles and every marker. `readout(candle)` is the hover text.
 */
export function candleChart(opts) {
  const { className = 'candle-chart', id, height = 260, label = '' } = opts;
  const svg = s('svg', { class: className, id, role: 'group', 'aria-label': label, height, preserveAspectRatio: 'none', 'data-interval-ms': opts.intervalMs });
  return redrawnOnResize(svg, opts.width || 640, (w) => render(svg, w, height, opts));
}

function render(svg, W, H, opts) {
  const { intervalMs, format = (v) => String(v), timeFormat = fmtShortTime, readout } = opts;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const candles = (opts.candles || [])
    .map((c) => ({ t: +c.open_time_ms, o: toNum(c.open), h: toNum(c.high), l: toNum(c.low), c: toNum(c.close), raw: c }))
    .filter((c) => [c.t, c.o, c.h, c.l, c.c].every(Number.isFinite))
    .sort((a, b) => a.t - b.t);
  const markers = (opts.markers || [])
    .map((m) => ({ ...m, tt: +m.t, p: toNum(m.price) }))
    .filter((m) => Number.isFinite(m.tt) && Number.isFinite(m.p));
  if (!candles.length) return;
  const step = intervalMs > 0 ? intervalMs : candles.length > 1 ? candles[1].t - candles[0].t : 60000;
  const times = [...candles.map((c) => c.t), ...markers.map((m) => m.tt)];
  const tMin = Math.min(...times);
  const tMax = Math.max(candles[candles.length - 1].t + step, ...markers.map((m) => m.tt));
  const prices = [...candles.flatMap((c) => [c.h, c.l]), ...markers.map((m) => m.p)];
  let vMin = Math.min(...prices);
  let vMax = Math.max(...prices);
  const pad = (vMax - vMin) * 0.08 || Math.abs(vMax) * 0.01 || 1;
  vMin -= pad;
  vMax += pad;

  const x0 = M.left;
  const x1 = W - M.right;
  const y0 = H - M.bottom;
  const y1 = M.top;
  const X = (tt) => x0 + ((tt - tMin) / (tMax - tMin || 1)) * (x1 - x0);
  const Y = (v) => y0 - ((v - vMin) / (vMax - vMin)) * (y0 - y1);

  const grid = s('g', { class: 'chart-grid' });
  for (const tk of niceTicks(vMin, vMax)) {
    const y = Y(tk).toFixed(1);
    grid.append(s('line', { x1: x0, x2: x1, y1: y, y2: y }));
    grid.append(s('text', { x: x0 - 6, y: +y + 4, 'text-anchor': 'end' }, format(tk)));
  }
  const span = tMax - tMin;
  grid.append(s('text', { x: x0, y: H - 6, 'text-anchor': 'start' }, timeFormat(tMin, span)));
  grid.append(s('text', { x: x1, y: H - 6, 'text-anchor': 'end' }, timeFormat(tMax, span)));
  // A middle label where there is room for three.
  if (x1 - x0 > 420) grid.append(s('text', { x: (x0 + x1) / 2, y: H - 6, 'text-anchor': 'middle' }, timeFormat(tMin + span / 2, span)));
  svg.append(grid);

  const slot = ((x1 - x0) * step) / (span || 1);
  const body = Math.max(1, Math.min(14, slot * 0.7));
  const bars = s('g', { class: 'candles' });
  for (const c of candles) {
    const x = X(c.t + step / 2);
    const dir = c.c >= c.o ? 'up' : 'down';
    // Its range stays readable for a test that checks the trades filled inside it.
    const g = s('g', { class: `candle ${dir}`, 'data-t': c.t, 'data-high': c.raw.high, 'data-low': c.raw.low });
    g.append(s('line', { class: 'candle-wick', x1: x.toFixed(1), x2: x.toFixed(1), y1: Y(c.h).toFixed(1), y2: Y(c.l).toFixed(1) }));
    const top = Y(Math.max(c.o, c.c));
    g.append(s('rect', { class: 'candle-body', x: (x - body / 2).toFixed(1), y: top.toFixed(1), width: body.toFixed(1), height: Math.max(1, Y(Math.min(c.o, c.c)) - top).toFixed(1) }));
    bars.append(g);
  }
  svg.append(bars);

  // Each exit joined to its entry: where the trade went and whether it paid.
  const links = s('g', { class: 'trade-links' });
  for (const m of markers) {
    if (m.kind !== 'exit' || !m.entry) continue;
    const et = +m.entry.t;
    const ep = toNum(m.entry.price);
    if (!Number.isFinite(et) || !Number.isFinite(ep)) continue;
    links.append(s('line', { class: `trade-link ${pnlClass(m.pnl)}`, x1: X(et).toFixed(1), y1: Y(ep).toFixed(1), x2: X(m.tt).toFixed(1), y2: Y(m.p).toFixed(1) }));
  }
  svg.append(links);

  hoverReadout(svg, W, { x0, x1, y0, y1 }, (px) => {
    const tt = tMin + ((px - x0) / (x1 - x0)) * span;
    const c = candles.find((k) => tt >= k.t && tt < k.t + step) || null;
    if (!c) return null;
    return { x: X(c.t + step / 2), text: readout ? readout(c.raw) : `${timeFormat(c.t, 0)}  ${format(c.c)}` };
  });

  // Markers last: above the candles and the read-out, for the pointer and the keyboard.
  const g = s('g', { class: 'chart-markers' });
  for (const m of [...markers].sort((a, b) => a.tt - b.tt)) {
    const x = X(m.tt);
    const y = Y(m.p);
    let d;
    if (m.kind === 'exit') d = `M${x.toFixed(1)},${(y - R).toFixed(1)}l${R},${R}l${-R},${R}l${-R},${-R}z`;
    else if (m.side === 'short') d = `M${x.toFixed(1)},${y.toFixed(1)}l${-R},${-R * 1.6}h${R * 2}z`;
    else d = `M${x.toFixed(1)},${y.toFixed(1)}l${-R},${R * 1.6}h${R * 2}z`;
    const side = m.side === 'short' ? 'short' : 'long';
    const mark = s('path', { d, class: `chart-marker marker-${m.kind === 'exit' ? 'exit' : 'entry'} side-${side}`, id: markerId(opts.id, m), 'data-t': m.tt, 'data-price': m.price });
    if (m.text) tipOn(mark, m.text);
    g.append(mark);
  }
  svg.append(g);
}

/** The key to a candle chart: `labels` {up, down, long, short, exit} say what each shape is. */
export function candleLegend(labels) {
  const ul = document.createElement('ul');
  ul.className = 'legend candle-legend';
  const shape = (cls, d) => {
    const svg = s('svg', { class: `legend-shape ${cls}`, viewBox: '0 0 14 14', width: 14, height: 14, 'aria-hidden': 'true' });
    svg.append(s('path', { d }));
    return svg;
  };
  const items = [
    ['up', shape('candle up', 'M4,2h6v10h-6z')],
    ['down', shape('candle down', 'M4,2h6v10h-6z')],
    ['long', shape('chart-marker marker-entry side-long', 'M7,2l6,10h-12z')],
    ['short', shape('chart-marker marker-entry side-short', 'M7,12l6,-10h-12z')],
    ['exit', shape('chart-marker marker-exit', 'M7,1l6,6l-6,6l-6,-6z')],
  ];
  for (const [key, icon] of items) {
    const li = document.createElement('li');
    li.dataset.legend = key;
    li.append(icon, document.createTextNode(labels[key]));
    ul.append(li);
  }
  return ul;
}
