// Figures a trader can trust: a P&L in its two parts, realized and unrealized, each saying what
// it rests on; the ratios of trades flagged while there are too few trades for them to mean
// much (the server says so: `sample_too_small`, the same flag the chat reads); long texts
// clipped with a "Show all". Used by the dashboard, the trader's page and a backtest result.
import { h } from './dom.js';
import { fmtMoney, fmtNum, fmtPct, fmtSigned, pnlClass, toNum } from './format.js';
import { t } from './i18n.js';

/** "since its first start, at 1,000.00": what a trader's P&L is measured from. */
export function basisWords(kind, equity) {
  return kind && equity != null ? t(`figures.basis_${kind}`, { equity: fmtMoney(equity) }) : null;
}

/** The unrealized part's basis: how many positions it is on, when known. */
export function unrealizedWords(count) {
  return count == null ? t('figures.unrealized_basis_plain') : t('figures.unrealized_basis', { count });
}

const signed = (v) => h('span', { class: pnlClass(v) }, fmtSigned(v));

/** One figure of a <dl>: its label, its value and, under it, what it rests on. */
export function figure(key, label, value, basis = null) {
  return h('div', { 'data-kpi': key },
    h('dt', {}, label),
    h('dd', {}, value, basis ? h('small', { class: 'basis' }, basis) : null));
}

/** Realized and unrealized P&L side by side, each with its basis; null when not known. */
export function pnlSplit(realized, unrealized, positions) {
  if (realized == null || unrealized == null) return null;
  return h('dl', { class: 'kpis pnl-split' },
    figure('realized', t('figures.realized'), signed(realized), t('figures.realized_basis')),
    figure('unrealized', t('figures.unrealized'), signed(unrealized), unrealizedWords(positions)));
}

/** The sum across traders, over those that have figures. */
export function summaryRow(s) {
  if (!s || !s.traders) return null;
  return h('section', { class: 'card summary-row', id: 'dashboard-summary', 'aria-labelledby': 'summary-title' },
    h('header', { class: 'card-head' },
      h('h2', { id: 'summary-title' }, t('figures.summary_title')),
      h('span', { class: 'muted', 'data-kpi': 'running' }, t('figures.traders_running', { running: s.running, traders: s.traders }))),
    h('dl', { class: 'kpis summary-kpis' },
      figure('equity', t('figures.total_equity'), fmtMoney(s.equity)),
      figure('pnl', t('figures.pnl'), signed(s.pnl), t('figures.basis_sum')),
      figure('realized', t('figures.realized'), signed(s.realized_pnl), t('figures.realized_basis')),
      figure('unrealized', t('figures.unrealized'), signed(s.unrealized_pnl), unrealizedWords(s.open_positions)),
      figure('open_positions', t('figures.open_positions'), String(s.open_positions ?? 0))),
    s.counted < s.traders ? h('p', { class: 'muted small-note' }, t('figures.counted_note', { counted: s.counted, traders: s.traders })) : null);
}

/** Why there is no Sharpe ratio, in the page's language (the server's reason is English). */
function sharpeWhy(na) {
  const m = /^too few (trades|returns): (\d+)$/.exec(String(na || ''));
  if (m) return t(m[1] === 'trades' ? 'figures.sharpe_few_trades' : 'figures.sharpe_few_returns', { n: m[2] });
  return na ? t('figures.sharpe_flat') : '—';
}

/**
 * A trader's or a backtest's stats ({stats, pnl_basis, pnl_basis_kind, total_pnl_pct} or the
 * bare stats): the P&L with its parts and basis, then the trades and their ratios — flagged
 * when the sample is too small — and the drawdown. `extra` adds figures after the P&L.
 */
export function statsView(view, { extra = [] } = {}) {
  const s = view && view.stats && typeof view.stats === 'object' ? view.stats : view || {};
  const basis = basisWords(view && view.pnl_basis_kind, view && view.pnl_basis);
  const few = !!s.sample_too_small;
  const flag = () => (few ? h('span', { class: 'badge tone-warn sample-flag' }, t('figures.sample_flag')) : null);
  const ratio = (key, label, value) => {
    const f = figure(key, label, [value, ' ', flag()]);
    if (few) f.classList.add('flagged');
    return f;
  };
  const winRate = toNum(s.win_rate);
  const pct = view && view.total_pnl_pct != null ? [' ', h('small', { class: pnlClass(view.total_pnl_pct) }, fmtPct(view.total_pnl_pct))] : null;
  const funding = toNum(s.total_funding);
  return h('div', { class: 'stats-view' },
    h('h3', {}, t('figures.pnl_group')),
    h('dl', { class: 'kv figures' },
      figure('total_pnl', t('stat.total_pnl'), [signed(s.total_pnl), pct], basis),
      s.realized_pnl != null ? figure('realized', t('figures.realized'), signed(s.realized_pnl), t('figures.realized_basis')) : null,
      s.unrealized_pnl != null ? figure('unrealized', t('figures.unrealized'), signed(s.unrealized_pnl), unrealizedWords(s.open_positions)) : null,
      figure('total_fee', t('stat.total_fee'), fmtMoney(s.total_fee)),
      Number.isFinite(funding) && funding !== 0 ? figure('total_funding', t('stat.total_funding'), signed(s.total_funding)) : null,
      ...extra),
    h('h3', {}, t('figures.trades_group')),
    few ? h('p', { class: 'note warn sample-note', role: 'note' }, t('figures.sample_note', { trades: s.total_trades ?? 0, min: s.sample_min_trades || 20 })) : null,
    h('dl', { class: 'kv figures' },
      figure('total_trades', t('figures.closed_trades'), t('figures.trades_count', { total: s.total_trades ?? 0, wins: s.wins ?? 0, losses: s.losses ?? 0 })),
      ratio('win_rate', t('stat.win_rate'), Number.isFinite(winRate) ? fmtPct(winRate * 100, false) : '—'),
      ratio('profit_factor', t('stat.profit_factor'), s.profit_factor != null ? fmtNum(s.profit_factor, 2, 2) : '—'),
      ratio('avg_win', t('stat.avg_win'), s.avg_win != null ? fmtMoney(s.avg_win) : '—'),
      ratio('avg_loss', t('stat.avg_loss'), s.avg_loss != null ? fmtMoney(s.avg_loss) : '—'),
      figure('sharpe_ratio', t('stat.sharpe_ratio'), s.sharpe_ratio != null ? fmtNum(s.sharpe_ratio, 2, 2) : sharpeWhy(s.sharpe_na)),
      figure('max_drawdown_pct', t('stat.max_drawdown_pct'), fmtPct(s.max_drawdown_pct, false))));
}

const CLIP = 400;

function size(text) {
  const bytes = new TextEncoder().encode(text).length;
  return bytes < 1024 ? `${bytes} B` : `${fmtNum(bytes / 1024, 0, 1)} KB`;
}

/**
 * A text that may be long (a failed cycle's error can hold a whole prompt): as it is when
 * short; else its start, wrapped, with "Show all (12 KB)" opening the whole of it. `keep`
 * names it so a page that redraws can keep it open.
 */
export function clipText(text, keep = null, open = false) {
  const s = String(text ?? '');
  if (s.length <= CLIP) return s;
  return h('details', { class: 'clip', 'data-keep': keep, open },
    h('summary', { 'data-focus': keep ? `clip-${keep}` : null },
      h('span', { class: 'clip-head' }, `${s.slice(0, CLIP).trimEnd()}…`),
      ' ',
      h('span', { class: 'clip-more' }, t('journal.show_all', { size: size(s) })),
      h('span', { class: 'clip-less' }, t('journal.show_less'))),
    h('div', { class: 'clip-full' }, s));
}
