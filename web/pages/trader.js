// #/traders/<id> — status, start/stop, stats, equity with its drawdown, the price chart with
// its trades, positions (each with Close), closed trades, decision journal.
import { api, enc } from '../api.js';
import { lineChart } from '../chart.js';
import { closeButton, onControlChange, refusal, startStopButton, stopCloseButton } from '../controls.js';
import { coalesce, errorBox, h, keepFocus, loading, notify } from '../dom.js';
import { drawdownView } from '../drawdown.js';
import { fmtMoney, fmtNum, fmtPct, fmtQty, fmtShortTime, fmtSigned, fmtTime, fmtValue, pnlClass } from '../format.js';
import { t, tOr } from '../i18n.js';
import { onStream } from '../live.js';
import { pricesLine } from '../prices.js';
import { normalizeCycle, traderState } from '../normalize.js';
import { tradeMarkers, tradesTable } from '../trades.js';
import { dataTable, kvList, modelBinding, rawJson, reasonLine, stateBadge } from '../widgets.js';
import { clipText, statsView } from '../figures.js';
import { pricePanel } from './trader-prices.js';

const PAGE = 50;
const MONEY = new Set(['final_equity', 'equity', 'initial_balance', 'balance', 'fee', 'fees', 'total_fees', 'avg_win', 'avg_loss', 'entry_price', 'mark_price', 'price']);
const PCT = new Set(['total_pnl_pct', 'pnl_pct', 'win_rate', 'max_drawdown_pct', 'return_pct', 'total_return_pct']);
MONEY.add('pnl_basis').add('total_fee').add('total_funding').add('wallet_balance').add('available').add('margin_used').add('position_size_usd').add('risk_usd').add('stop_loss').add('take_profit').add('liquidation_price');

export function fmtStat(k, v) {
  if (v == null || typeof v === 'object') return fmtValue(v);
  if (PCT.has(k)) return h('span', { class: k.includes('pnl') || k.includes('return') ? pnlClass(v) : '' }, fmtPct(v, k.includes('pnl') || k.includes('return')));
  if (k.includes('pnl') && !MONEY.has(k)) return h('span', { class: pnlClass(v) }, fmtSigned(v));
  if (MONEY.has(k)) return fmtMoney(v);
  if (k.includes('latency')) return `${fmtNum(v, 0, 0)} ms`;
  if (k === 'at' || k.endsWith('_at') || k === 't' || k.endsWith('_ms')) return fmtTime(v);
  if (k === 'action' && typeof v === 'string') return tOr(`decision_action.${v}`, v);
  if (k === 'what' && typeof v === 'string') return tOr(`order_what.${v}`, v.replace(/_/g, ' '));
  if (k === 'side' && typeof v === 'string') return h('span', { class: `side side-${v.toLowerCase()}` }, tOr(`side.${v.toLowerCase()}`, v));
  if (typeof v === 'number' || (typeof v === 'string' && /^-?\d+\.\d{5,}$/.test(v))) return fmtNum(v, 0, 4);
  return fmtValue(v);
}

function positionsTable(trader, items) {
  if (!items.length) return h('p', { class: 'muted' }, t('trader.no_positions'));
  // Each row closes its own position; the column holds the row's Close.
  const rows = items.map((p) => ({ ...p, close: p }));
  return dataTable(rows, ['symbol', 'side', 'quantity', 'entry_price', 'mark_price', 'unrealized_pnl', 'leverage', 'close'], (k, v) => {
    if (k === 'close') return closeButton(trader, v);
    if (k === 'quantity') return fmtQty(v);
    if (k === 'side') return h('span', { class: `side side-${String(v).toLowerCase()}` }, tOr(`side.${String(v).toLowerCase()}`, v));
    if (k === 'leverage') return v == null ? '—' : `${v}×`;
    return fmtStat(k, v);
  });
}

function section(titleKey, ...body) {
  const id = `sec-${titleKey.replace(/\W/g, '-')}`;
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, t(titleKey)), ...body);
}

function list(items) {
  return items && items.length ? h('ul', { class: 'plain-list' }, items.map((x) => h('li', {}, typeof x === 'string' ? clipText(x) : fmtValue(x)))) : null;
}

// A value that may be kilobytes long (an error holding a whole prompt) is clipped, not a wall.
const clipped = (fmt) => (k, v) => (typeof v === 'string' && v.length > 400 ? clipText(v) : fmt(k, v));

/** One cycle, collapsed; `open` holds the `data-keep` names of what the reader had open. */
function cycleView(c, open = new Set()) {
  const decisions = c.decisions || [];
  const ok = c.success !== false && !c.error;
  const n = c.cycle_number ?? '?';
  const sub = (key, node) => (node ? [h('h3', {}, t(key)), node] : null);
  const decFmt = (k, v) => (k === 'confidence' && typeof v === 'number' ? (v <= 1 ? fmtPct(v * 100, false) : `${v}%`) : fmtStat(k, v));
  const keep = (name) => ({ 'data-keep': `${name}-${n}`, open: open.has(`${name}-${n}`) });
  return h('details', { class: `cycle ${ok ? 'ok' : 'failed'}`, 'data-cycle': c.cycle_number, ...keep('cycle') },
    h('summary', {},
      h('span', { class: 'cycle-no' }, `#${c.cycle_number ?? '?'}`),
      h('time', {}, fmtTime(c.at)),
      h('span', { class: `badge ${ok ? 'tone-ok' : 'tone-bad'}` }, ok ? t('trader.cycle_ok') : t('trader.cycle_failed')),
      // The model this cycle decided with, as the engine journaled it.
      c.model && c.model.name ? h('span', { class: 'cycle-model muted' }, t('trader.cycle_model', { name: c.model.name })) : null,
      h('span', { class: 'muted' }, decisions.length ? decisions.map((d) => `${d.symbol} ${tOr(`decision_action.${d.action}`, d.action)}`).join(', ') : t('trader.no_decisions')),
      c.equity != null ? h('span', { class: 'cycle-eq' }, fmtMoney(c.equity)) : null),
    h('div', { class: 'cycle-body' },
      c.error ? h('div', { class: 'alert error' }, clipText(fmtValue(c.error), `err-${n}`, open.has(`err-${n}`))) : null,
      sub('trader.reasoning', c.reasoning ? h('p', { class: 'reasoning' }, c.reasoning) : null),
      sub('trader.decisions', dataTable(decisions, null, clipped(decFmt))),
      sub('trader.guard', dataTable(c.guard || [], null, clipped((k, v) => (k === 'verdict' ? h('span', { class: `verdict verdict-${v}` }, tOr(`verdict.${v}`, v)) : fmtStat(k, v))))),
      sub('trader.orders', dataTable(c.orders || [], null, clipped(fmtStat))),
      sub('trader.fills', dataTable(c.fills || [], null, clipped(fmtStat))),
      sub('trader.notes', list(c.notes)),
      sub('trader.invalid', list(c.invalid)),
      Object.keys(c.extra).length ? sub('trader.other', kvList(c.extra, clipped(fmtStat))) : null,
      // The prompt and the answer: collapsed, preformatted, wrapped.
      c.prompt ? h('details', { class: 'raw', ...keep('prompt') }, h('summary', {}, t('trader.prompt')), h('pre', {}, [c.prompt.system, c.prompt.user].filter(Boolean).join('\n\n---\n\n'))) : null,
      c.raw_response ? h('details', { class: 'raw', ...keep('answer') }, h('summary', {}, t('trader.raw_response')), h('pre', {}, c.raw_response)) : null,
      rawJson(c.raw)));
}

const QUIET_ACTIONS = new Set(['hold', 'wait']);

/** What a cycle did: `error` (it failed, or an order of it did), `action` (it decided or
 *  placed a trade) or `quiet` (nothing to do: no decision, or only hold / wait). */
export function cycleKind(c) {
  const orders = c.orders || [];
  if (c.success === false || c.error || orders.some((o) => o && (o.ok === false || o.error))) return 'error';
  const acted = orders.length || (c.fills || []).length || (c.decisions || []).some((d) => d && !QUIET_ACTIONS.has(String(d.action)));
  return acted ? 'action' : 'quiet';
}

const FILTERS = ['all', 'actions', 'errors'];

/** All cycles / actions only / errors only, as radio buttons. */
function journalFilter(current, onChange) {
  return h('fieldset', { class: 'journal-filter', id: 'journal-filter' },
    h('legend', {}, t('journal.filter_label')),
    FILTERS.map((value) => h('label', {},
      h('input', { type: 'radio', name: 'journal-filter', id: `journal-filter-${value}`, value, checked: current === value, onchange: () => onChange(value) }),
      t(`journal.filter_${value}`))));
}

/** A run of quiet cycles as one row that opens to them: "12 cycles with no trade decision,
 *  10:00–11:00". Named by its oldest cycle, which stays as newer ones join it. */
function quietGroup(run, open) {
  const newest = run[0];
  const oldest = run[run.length - 1];
  const span = Math.abs(Number(newest.at) - Number(oldest.at)) || 0;
  const key = `group-${oldest.cycle_number}`;
  return h('details', { class: 'cycle-group', 'data-group': oldest.cycle_number, 'data-keep': key, open: open.has(key) },
    h('summary', { 'data-focus': 'quiet-group' }, t('journal.quiet_group', { n: run.length, from: fmtShortTime(oldest.at, span), to: fmtShortTime(newest.at, span) })),
    h('div', { class: 'cycle-group-body' }, run.map((c) => cycleView(c, open))));
}

/** The cycles (newest first) the filter shows: every one, with runs of two or more quiet
 *  cycles grouped (the newest cycle always on its own), or only those with an action, or only
 *  the failed ones. */
function journalList(items, filter, open) {
  const cycles = items.map(normalizeCycle);
  if (filter !== 'all') {
    const want = filter === 'errors' ? 'error' : 'action';
    const shown = cycles.filter((c) => cycleKind(c) === want);
    return shown.length ? shown.map((c) => cycleView(c, open)) : [h('p', { class: 'muted empty-note' }, t(`journal.none_${filter}`, { n: cycles.length }))];
  }
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length >= 2) out.push(quietGroup(run, open));
    else run.forEach((c) => out.push(cycleView(c, open)));
    run = [];
  };
  cycles.forEach((c, i) => {
    if (i > 0 && cycleKind(c) === 'quiet') return run.push(c);
    flush();
    out.push(cycleView(c, open));
  });
  flush();
  return out;
}

/** The `data-keep` names of the details open under `el`. */
const keptOpen = (el) => new Set([...el.querySelectorAll('details[data-keep][open]')].map((d) => d.dataset.keep));

export function mount(root, { id }) {
  const body = h('div', { class: 'trader-page' }, loading());
  root.append(body);
  let alive = true;
  let trader = null;
  let account = null; // the trader's exchange account: a paper one says where its prices come from
  let older = []; // cycles paged in with "load older", kept across refreshes
  let noMore = false;
  let first = true;
  let filter = 'all'; // the journal's: all / actions / errors, kept across refreshes
  let shownJournal = null; // {journal, fetched} as last drawn, for the filter to redraw
  const names = new Map(); // "models/<id>" → its name, read once
  const prices = pricePanel(); // kept across redraws: it fetches its candles only on a change

  async function nameOf(kind, ref) {
    const key = `${kind}/${ref}`;
    if (!names.has(key)) {
      try {
        const o = await api.get(`/api/${kind}/${enc(ref)}`);
        names.set(key, (o && (o.name || o.account_name)) || ref);
      } catch {
        return ref;
      }
    }
    return names.get(key);
  }

  function moreButton(journal, fetched) {
    if (noMore || fetched < PAGE) return null;
    const last = journal[journal.length - 1];
    return h('p', { class: 'more' }, h('button', { type: 'button', class: 'btn', id: 'journal-more', onclick: async (e) => {
      e.target.disabled = true;
      try {
        const r = await api.get(`/api/traders/${enc(id)}/journal?limit=${PAGE}&before=${enc(last.cycle_number)}`);
        const items = (r && r.items) || [];
        if (items.length < PAGE) noMore = true;
        older = [...older, ...items];
        await load();
        const btn = document.getElementById('journal-more');
        if (btn) btn.focus({ preventScroll: true });
      } catch (err) {
        notify(err.message, 'error');
        e.target.disabled = false;
      }
    } }, t('trader.load_older')));
  }

  async function load() {
    const base = `/api/traders/${enc(id)}`;
    const [tr, st, stats, eq, pos, jr, tx] = await Promise.allSettled([
      api.get(base), api.get(`${base}/status`), api.get(`${base}/stats`), api.get(`${base}/equity`), api.get(`${base}/positions`), api.get(`${base}/journal?limit=${PAGE}`), api.get(`${base}/trades`),
    ]);
    if (!alive) return;
    if (tr.status === 'rejected') return body.replaceChildren(h('p', {}, h('a', { href: '#/' }, '← ', t('nav.dashboard'))), errorBox(tr.reason));
    trader = tr.value;
    document.title = `${trader.name} · nofxi`;
    const [model, exchange, strategy] = await Promise.all([nameOf('models', trader.ai_model_id), nameOf('exchanges', trader.exchange_id), nameOf('strategies', trader.strategy_id)]);
    if (!alive) return;
    const sv = st.status === 'fulfilled' ? st.value : null;
    const settings = { ai_model_id: model, exchange_id: exchange, strategy_id: strategy, initial_balance: trader.initial_balance, scan_interval_minutes: trader.scan_interval_minutes, is_cross_margin: trader.is_cross_margin };
    const status = traderState(st.status === 'fulfilled' ? st.value : trader);
    const running = status.state === 'running' || status.state === 'safe_mode' || status.state === 'waiting' || (status.state === 'unknown' && trader.is_running);
    account = await api.get(`/api/exchanges/${enc(trader.exchange_id)}`).catch(() => account);
    if (!alive) return;
    const points = eq.status === 'fulfilled' ? (eq.value.points || []).map((p) => ({ t: p.t, v: p.equity })) : [];
    const openPositions = pos.status === 'fulfilled' ? pos.value.items || [] : [];
    const open = keptOpen(body);
    const latest = jr.status === 'fulfilled' ? jr.value.items || [] : null;
    const journal = latest && [...latest, ...older.filter((o) => latest.every((n) => n.cycle_number !== o.cycle_number))];
    prices.update({ trader, account, trades: tx.status === 'fulfilled' ? tx.value.items || [] : null, positions: openPositions, points }).catch((e) => notify(e.message, 'error'));

    keepFocus(body, () => body.replaceChildren(
      h('p', { class: 'crumbs' }, h('a', { href: '#/' }, t('nav.dashboard')), ' / ', h('a', { href: '#/resources/traders' }, t('resources.kind.traders'))),
      h('div', { class: 'page-header' },
        h('div', { class: 'title-block' },
          h('h1', { tabindex: '-1' }, trader.name, ' ', stateBadge(status.state)),
          reasonLine(status),
          refusal(trader, 'trader-action-error'),
          account && account.exchange_type === 'paper' ? h('p', { class: 'prices-source', id: 'trader-prices' }, pricesLine(account.market)) : null,
          status.lastCycleAt ? h('p', { class: 'muted' }, t('trader.last_cycle', { at: fmtTime(status.lastCycleAt) }), status.simulated ? ` · ${t('trader.simulated')}` : '') : null),
        h('div', { class: 'actions' },
          // Starting on a live account trades real money: its Confirm looks as grave as a stop's.
          startStopButton(trader, running, { ids: true, live: !!account && account.exchange_type !== 'paper' && !account.testnet }),
          running || openPositions.length ? stopCloseButton(trader, { running }) : null)),
      h('div', { class: 'trader-grid' },
        // The P&L in its two parts, each with its basis; the ratios flagged below the sample.
        section('trader.stats', stats.status === 'fulfilled' ? statsView(stats.value) : errorBox(stats.reason)),
        section('trader.settings', kvList(settings, (k, v) => (k === 'ai_model_id' ? modelBinding(v, sv) : fmtStat(k, v)), 'field'))),
      section('trader.equity',
        points.length
          // Its closed trades' entries and exits sit on the curve, each with its tooltip.
          ? lineChart({ series: [{ name: trader.name, points }], id: 'trader-equity-chart', className: `equity-chart ${pnlClass(points[points.length - 1].v - points[0].v)}`, lineClass: 'equity-line', height: 220, area: true, format: (v) => fmtNum(v, 0, 2), label: t('dashboard.equity_chart_label', { name: trader.name }), markers: tx.status === 'fulfilled' ? tradeMarkers(tx.value.items) : [] })
          : h('p', { class: 'empty-note' }, t('dashboard.no_cycles')),
        // How far below its best it has been, and when it was deepest.
        points.length ? drawdownView(points, { id: 'trader-drawdown-chart', name: trader.name }) : null),
      section('trader.price_chart', prices.node),
      section('trader.positions', pos.status === 'fulfilled' ? positionsTable(trader, openPositions) : errorBox(pos.reason)),
      section('trader.trades',
        tx.status === 'rejected' ? errorBox(tx.reason)
          : tradesTable(tx.value.items || [], { id: 'trader-trades', total: tx.value.total }) || h('p', { class: 'muted', id: 'trader-trades-empty' }, t('trader.no_trades'))),
      section('trader.journal',
        journal == null ? errorBox(jr.reason)
          : journal.length ? h('div', { id: 'journal-box' }, journalBody(journal, latest.length, open))
          : h('p', { class: 'muted' }, t('dashboard.no_cycles')))));
    if (first) {
      first = false;
      const ae = document.activeElement;
      if (!ae || ae === document.body || ae.id === 'main') body.querySelector('h1').focus({ preventScroll: true });
    }
  }

  /** The journal's filter, its cycles as the filter shows them, and "load older". */
  function journalBody(journal, fetched, open) {
    shownJournal = { journal, fetched };
    return [journalFilter(filter, setFilter), h('div', { class: 'journal', 'data-filter': filter }, journalList(journal, filter, open)), moreButton(journal, fetched)];
  }

  function setFilter(value) {
    filter = value;
    const box = body.querySelector('#journal-box');
    if (!box || !shownJournal) return;
    keepFocus(box, () => box.replaceChildren(...journalBody(shownJournal.journal, shownJournal.fetched, keptOpen(box)).filter(Boolean)));
  }

  const refresh = coalesce(() => alive && load(), 1500);
  const off = onStream((type, d) => {
    if (!d || !d.trader_id || (trader && (d.trader_id === trader.id || d.trader_id === trader.name))) refresh();
  });
  // Starting… / Stopping… / Closing… at once; what changed once the action is done.
  const offControls = onControlChange(() => alive && load());
  load();
  return () => {
    alive = false;
    refresh.cancel();
    prices.stop();
    off();
    offControls();
  };
}
