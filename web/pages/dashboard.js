// #/ — the traders' sum, one card per trader with its controls (start / stop, close a position,
// stop and close all) and its P&L in two parts, each with its basis, a comparison chart, live
// refresh from /api/stream (keyboard focus stays where it was through each redraw).
import { api } from '../api.js';
import { lineChart, legend } from '../chart.js';
import { closeButton, onControlChange, refusal, startStopButton, stopCloseButton } from '../controls.js';
import { coalesce, errorBox, h, keepFocus, loading, pageHeader } from '../dom.js';
import { fmtMoney, fmtNum, fmtPct, fmtQty, fmtSigned, fmtTime, pnlClass, toNum } from '../format.js';
import { t, tOr } from '../i18n.js';
import { onStream } from '../live.js';
import { pricesLine } from '../prices.js';
import { traderState } from '../normalize.js';
import { modelBinding, reasonLine, stateBadge } from '../widgets.js';
import { basisWords, clipText, pnlSplit, summaryRow } from '../figures.js';

const nameOf = (x) => (x && typeof x === 'object' ? x.name || x.account_name || x.id : x);

function equitySeries(tr) {
  return (tr.equity_curve || []).map((p) => ({ t: p.t, v: p.equity }));
}

function card(tr) {
  const curve = equitySeries(tr);
  const positions = tr.positions || [];
  const pnlCls = pnlClass(tr.pnl);
  // The model as the engine uses it: a new one shows as pending until the next cycle.
  const meta = [nameOf(tr.exchange), tr.model ? modelBinding(nameOf(tr.model), tr.status) : null, nameOf(tr.strategy)]
    .filter(Boolean)
    .flatMap((part, i) => (i ? [' · ', part] : [part]));
  const d = tr.last_decision;
  const st = traderState(tr);
  // A live account's prices are its venue's own: the card names no market for it.
  const live = tr.market == null;
  return h('article', { class: 'card trader-card', 'data-trader': tr.name, 'data-trader-id': tr.id },
    h('header', { class: 'card-head' },
      h('h2', {}, h('a', { href: `#/traders/${encodeURIComponent(tr.id)}` }, tr.name)),
      stateBadge(st.state)),
    reasonLine(st),
    meta.length ? h('p', { class: 'meta muted' }, meta) : null,
    h('div', { class: 'card-actions' },
      startStopButton(tr, tr.is_running, { live, small: true }),
      tr.is_running || positions.length ? stopCloseButton(tr, { small: true, running: tr.is_running }) : null),
    refusal(tr),
    h('dl', { class: 'kpis' },
      h('div', {}, h('dt', {}, t('dashboard.equity')), h('dd', {}, fmtMoney(tr.equity))),
      h('div', {}, h('dt', {}, t('dashboard.pnl')),
        h('dd', { class: pnlCls }, fmtSigned(tr.pnl), h('small', {}, fmtPct(tr.pnl_pct)))),
      h('div', {}, h('dt', {}, t('dashboard.positions')), h('dd', {}, String(positions.length)))),
    // The P&L's two parts, and what it is measured from.
    pnlSplit(tr.realized_pnl, tr.unrealized_pnl, positions.length),
    tr.pnl != null && tr.pnl_basis_kind ? h('p', { class: 'pnl-basis muted' }, t('figures.pnl'), ' ', basisWords(tr.pnl_basis_kind, tr.pnl_basis)) : null,
    // A paper trader's equity and P&L rest on its account's prices: simulated or a venue's.
    tr.market ? h('p', { class: 'prices-source muted' }, pricesLine(tr.market)) : null,
    curve.length
      ? lineChart({ series: [{ name: tr.name, points: curve }], className: `equity-chart ${pnlCls}`, lineClass: 'equity-line', height: 120, area: true, format: (v) => fmtNum(v, 0, 2), label: t('dashboard.equity_chart_label', { name: tr.name }) })
      : h('p', { class: 'empty-note' }, t('dashboard.no_cycles')),
    positions.length
      // A table with real header cells (read out, not shown: the card has no room for them).
      ? h('table', { class: 'pos-list' },
          h('caption', { class: 'visually-hidden' }, t('dashboard.positions')),
          h('thead', { class: 'visually-hidden' }, h('tr', {},
            ['symbol', 'side', 'quantity', 'unrealized_pnl'].map((c) => h('th', { scope: 'col' }, t(`col.${c}`))),
            h('th', { scope: 'col' }, t('common.actions')))),
          h('tbody', {}, positions.map((p) =>
            h('tr', {},
              h('td', { class: 'sym' }, p.symbol),
              h('td', {}, h('span', { class: `side side-${String(p.side).toLowerCase()}` }, tOr(`side.${String(p.side).toLowerCase()}`, p.side))),
              h('td', {}, fmtQty(p.quantity)),
              h('td', { class: `num ${pnlClass(p.unrealized_pnl)}` }, fmtSigned(p.unrealized_pnl)),
              h('td', { class: 'act' }, closeButton(tr, p))))))
      : null,
    d
      ? h('details', { class: 'last-decision' },
          h('summary', { 'data-focus': 'last-decision' }, t('dashboard.last_decision'), ' · ', h('time', {}, fmtTime(d.at)),
            // A paper trader's clock may run ahead of the wall clock (--sim-speed): say so.
            d.simulated ? ` (${t('trader.simulated')})` : '',
            Array.isArray(d.decisions) && d.decisions.length ? ` · ${d.decisions.map((x) => `${x.symbol} ${tOr(`decision_action.${x.action}`, x.action)}`).join(', ')}` : ''),
          d.error ? h('div', { class: 'alert error' }, clipText(d.error, `err-${tr.id}`)) : null,
          d.reasoning ? h('p', { class: 'reasoning' }, d.reasoning) : h('p', { class: 'muted' }, t('trader.no_reasoning')))
      : null,
    h('p', { class: 'card-foot' }, h('a', { href: `#/traders/${encodeURIComponent(tr.id)}` }, t('dashboard.open_trader'))));
}

function compare(traders) {
  const series = traders
    .map((tr) => {
      const pts = equitySeries(tr);
      const base = toNum(tr.initial_balance) || toNum(pts[0] && pts[0].v);
      return { name: tr.name, points: base ? pts.map((p) => ({ t: p.t, v: (toNum(p.v) / base - 1) * 100 })) : [] };
    })
    .filter((s) => s.points.length);
  if (!series.length) return null;
  return h('section', { class: 'card compare', 'aria-labelledby': 'compare-title' },
    h('h2', { id: 'compare-title' }, t('dashboard.compare')),
    lineChart({ series, id: 'compare-chart', className: 'compare-chart', lineClass: 'compare-line', height: 240, zero: true, format: (v) => `${fmtNum(v, 0, 1)}%`, label: t('dashboard.compare') }),
    legend(series.map((s) => s.name)));
}

function emptyGuide() {
  return h('section', { class: 'card empty-guide' },
    h('h2', {}, t('dashboard.empty_title')),
    h('p', {}, t('dashboard.empty_text')),
    h('ol', {},
      h('li', {}, h('a', { href: '#/resources/exchanges' }, t('dashboard.empty_step_exchange'))),
      h('li', {}, h('a', { href: '#/resources/models' }, t('dashboard.empty_step_model'))),
      h('li', {}, h('a', { href: '#/chat' }, t('dashboard.empty_step_chat')))));
}

export function mount(root) {
  const body = h('div', { class: 'dashboard' }, loading());
  root.append(pageHeader(t('dashboard.title')), body);
  let alive = true;
  let seq = 0;
  let traders = null; // as last read: a control's state change redraws them without a read
  let summary = null;
  function render() {
    if (!traders) return;
    if (!traders.length) return keepFocus(body, () => body.replaceChildren(emptyGuide()));
    const open = new Set([...body.querySelectorAll('.trader-card')].filter((c) => c.querySelector('details.last-decision[open]')).map((c) => c.dataset.traderId));
    const clips = new Set([...body.querySelectorAll('details.clip[open]')].map((d) => d.dataset.keep));
    const cards = traders.map(card);
    cards.forEach((c) => open.has(c.dataset.traderId) && c.querySelector('details.last-decision') && (c.querySelector('details.last-decision').open = true));
    cards.forEach((c) => c.querySelectorAll('details.clip').forEach((d) => clips.has(d.dataset.keep) && (d.open = true)));
    keepFocus(body, () => body.replaceChildren(...[summaryRow(summary), h('div', { class: 'card-grid' }, cards), compare(traders)].filter(Boolean)));
  }
  async function load() {
    const my = ++seq;
    try {
      const data = await api.get('/api/dashboard');
      if (!alive || my !== seq) return;
      traders = (data && data.traders) || [];
      summary = (data && data.summary) || null;
      render();
    } catch (err) {
      if (alive && my === seq) body.replaceChildren(errorBox(err));
    }
  }
  const refresh = coalesce(load, 500);
  const off = onStream(() => refresh());
  // Starting… / Stopping… at once; the new state once the action is done.
  const offControls = onControlChange(() => {
    if (!alive) return;
    render();
    load();
  });
  load();
  return () => {
    alive = false;
    refresh.cancel();
    off();
    offControls();
  };
}
