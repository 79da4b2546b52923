// Drawdown from an equity curve: at each point how far equity stands below the highest it had
// reached by then, in percent (0 at a new high), drawn as a small area chart with the deepest
// drop named above it. Computed in floats from the exact equity, for drawing and reading only.
import { lineChart } from './chart.js';
import { fmtNum, fmtTime, toNum } from './format.js';
import { h } from './dom.js';
import { t } from './i18n.js';

/** `points` [{t, v}] (oldest first) → `{ series: [{t, v ≤ 0}], max: {pct, t, peak, peakT} | null }`:
 *  `max` the deepest drawdown (pct < 0), where it was and the peak it fell from. */
export function drawdown(points) {
  const series = [];
  let peak = -Infinity;
  let peakT = null;
  let max = null;
  for (const p of [...(points || [])].sort((a, b) => +a.t - +b.t)) {
    const v = toNum(p.v);
    const tt = +p.t;
    if (!Number.isFinite(v) || !Number.isFinite(tt)) continue;
    if (v > peak) {
      peak = v;
      peakT = tt;
    }
    const pct = peak > 0 ? ((v - peak) / peak) * 100 : 0;
    series.push({ t: tt, v: pct });
    if (pct < 0 && (!max || pct < max.pct)) max = { pct, t: tt, peak, peakT };
  }
  return { series, max };
}

/** The drawdown view under an equity chart: its caption and chart; `null` under two points. */
export function drawdownView(points, { id = null, name = '' } = {}) {
  const { series, max } = drawdown(points);
  if (series.length < 2) return null;
  const caption = max
    ? t('drawdown.max', { pct: fmtNum(max.pct, 2, 2), time: fmtTime(max.t), peak: fmtTime(max.peakT) })
    : t('drawdown.none');
  return h('figure', { class: 'drawdown', id: id && `${id}-view` },
    h('figcaption', { class: 'drawdown-caption' }, h('strong', {}, t('drawdown.title')), ' · ', h('span', { class: max ? 'neg' : 'muted', 'data-max-drawdown': max ? max.pct.toFixed(4) : '0' }, caption)),
    lineChart({ series: [{ name: t('drawdown.title'), points: series }], id, className: 'drawdown-chart', lineClass: 'drawdown-line', height: 110, area: true, areaBase: 0, zero: true, format: (v) => `${fmtNum(v, 0, 2)}%`, label: t('drawdown.label', { name }) }));
}
