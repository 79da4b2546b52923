// The trader page's price chart: candles of a symbol the trader trades over the time its equity
// curve and trades span, with its closed trades' entries and exits marked at their fill
// prices. The candles come from GET /api/market/klines with `source` set to the trader's own
// exchange account, so they are the prices it traded at: a paper account's simulated market
// read on its simulated timeline (the times its trades carry), the venue a paper account
// follows, or a live account's venue. Kept across the page's live redraws: it fetches candles
// only when what it shows would change, at most every few seconds.
import { api, enc } from '../api.js';
import { candleChart, candleLegend } from '../candles.js';
import { append, errorBox, h, keepFocus } from '../dom.js';
import { fmtNum, fmtShortTime } from '../format.js';
import { t } from '../i18n.js';
import { fmtExact, tradeMarkers } from '../trades.js';

const MINUTE = 60000;
// The intervals every source serves (Hyperliquid has no 6h), shortest first.
const INTERVALS = [['1m', 1], ['3m', 3], ['5m', 5], ['15m', 15], ['30m', 30], ['1h', 60], ['2h', 120], ['4h', 240], ['12h', 720], ['1d', 1440], ['1w', 10080]].map(([name, m]) => [name, m * MINUTE]);
// About this many candles across the span (half on a phone, where each would be a hairline);
// never more than the API's 1000.
const ACROSS = 120;
const NARROW = 600;
const MAX_CANDLES = 1000;
// The least time shown: a trader that ran ten minutes still gets an hour of context.
const MIN_SPAN = 60 * MINUTE;
// The least wall time between two fetches while the trader runs on (a remote venue's rate limit).
const REFETCH_MS = 5000;
// How long after a failed fetch it is tried again.
const RETRY_MS = 15000;
// At most this many symbols as buttons; more are a select.
const MAX_TABS = 4;

/** The interval that puts about `across` candles over `span` ms, and how many of them. */
export function intervalFor(span, across = ACROSS) {
  const found = INTERVALS.find(([, ms]) => span / ms <= across) || INTERVALS[INTERVALS.length - 1];
  return { name: found[0], ms: found[1], count: Math.min(MAX_CANDLES, Math.ceil(span / found[1]) + 2) };
}

/** The symbols to offer, most relevant first: traded (newest trade first), held, then the
 *  strategy's coins. */
export function symbolsOf(trades, positions, coins) {
  const out = [];
  for (const s of [...(trades || []).map((r) => r.symbol), ...(positions || []).map((p) => p.symbol), ...(coins || [])]) {
    const sym = String(s || '').trim().toUpperCase();
    if (sym && !out.includes(sym)) out.push(sym);
  }
  return out;
}

export function pricePanel() {
  const node = h('div', { class: 'price-panel', id: 'trader-prices-panel' });
  let chosen = null; // the symbol the user picked, kept across redraws
  let input = null;
  let shown = null; // { key, symbol, interval, report } of the candles drawn
  let failed = null; // { key, error } of the last fetch that failed
  let inFlight = null;
  let lastFetch = 0;
  let timer = null;
  let retry = null;
  let drawn = '';
  const coinsOf = new Map(); // strategy id → its coins, read once

  async function strategyCoins(id) {
    if (!id) return [];
    if (!coinsOf.has(id)) {
      try {
        const s = await api.get(`/api/strategies/${enc(id)}`);
        const coins = s && s.config && s.config.coin_source && s.config.coin_source.static_coins;
        coinsOf.set(id, Array.isArray(coins) ? coins : []);
      } catch {
        return [];
      }
    }
    return coinsOf.get(id);
  }

  /** What to show now: the symbol, the span, the request. */
  function plan() {
    const { trader, account, trades, positions, points, coins } = input;
    const symbols = symbolsOf(trades, positions, coins);
    if (!symbols.includes(chosen)) chosen = null;
    const symbol = chosen || symbols[0] || null;
    const times = [...points.map((p) => +p.t), ...trades.flatMap((r) => [+r.entry_time_ms, +r.exit_time_ms])].filter(Number.isFinite);
    if (!symbol || !times.length || !account) return { symbols, symbol, trader, account };
    let end = Math.max(...times);
    let start = Math.min(...times);
    if (end - start < MIN_SPAN) start = end - MIN_SPAN;
    const margin = (end - start) * 0.03;
    start -= margin;
    end += margin;
    const iv = intervalFor(end - start, document.documentElement.clientWidth < NARROW ? ACROSS / 2 : ACROSS);
    // The API counts from the first whole candle after `start_time`: one interval earlier
    // takes in the candle `start` falls in.
    const from = Math.floor(start / iv.ms) * iv.ms - iv.ms;
    const to = Math.ceil(end / iv.ms) * iv.ms;
    const query = new URLSearchParams({ symbol, interval: iv.name, limit: String(Math.min(MAX_CANDLES, Math.round((to - from) / iv.ms) + 1)), start_time: new Date(from).toISOString(), end_time: new Date(to).toISOString(), source: account.account_name });
    return { symbols, symbol, trader, account, iv, key: query.toString(), url: `/api/market/klines?${query}` };
  }

  async function fetchFor(p) {
    inFlight = p.key;
    lastFetch = Date.now();
    try {
      const report = await api.get(p.url);
      shown = { key: p.key, symbol: p.symbol, iv: p.iv, report };
      failed = null;
    } catch (error) {
      failed = { key: p.key, symbol: p.symbol, error };
      // Asked again a while later, whether or not the page has news by then.
      clearTimeout(retry);
      retry = setTimeout(() => {
        if (!input || !failed || failed.key !== p.key) return;
        failed = { ...failed, key: null };
        maybeFetch(plan());
      }, RETRY_MS);
    } finally {
      inFlight = null;
    }
    if (!input) return;
    // What was asked meanwhile (another symbol, a later span) is asked next.
    const next = plan();
    draw(next);
    maybeFetch(next);
  }

  function maybeFetch(p) {
    clearTimeout(timer);
    if (!p.key || inFlight || (shown && shown.key === p.key) || (failed && failed.key === p.key)) return;
    // A new symbol is fetched at once; the same one running on, at most every REFETCH_MS.
    const sameSymbol = (shown && shown.symbol === p.symbol) || (failed && failed.symbol === p.symbol);
    const wait = sameSymbol ? lastFetch + REFETCH_MS - Date.now() : 0;
    if (wait > 0) {
      timer = setTimeout(() => input && maybeFetch(plan()), wait);
      return;
    }
    fetchFor(p);
  }

  function symbolPicker(p) {
    if (p.symbols.length < 2) return null;
    const pick = (sym) => {
      chosen = sym;
      const next = plan();
      draw(next);
      maybeFetch(next);
    };
    if (p.symbols.length > MAX_TABS) {
      return h('label', { class: 'symbol-select' }, t('price_chart.symbol'), ' ',
        h('select', { id: 'price-symbol', onchange: (e) => pick(e.target.value) },
          p.symbols.map((sym) => h('option', { value: sym, selected: sym === p.symbol }, sym))));
    }
    return h('div', { class: 'symbol-tabs', role: 'group', 'aria-label': t('price_chart.symbol') },
      p.symbols.map((sym) => h('button', { type: 'button', class: 'btn small', id: `price-symbol-${sym}`, 'data-symbol': sym, 'aria-pressed': sym === p.symbol ? 'true' : 'false', onclick: () => pick(sym) }, sym)));
  }

  function body(p) {
    if (!p.account) return errorBox({ message: t('price_chart.no_account') });
    if (!p.symbol) return h('p', { class: 'empty-note', id: 'price-chart-empty' }, t('price_chart.no_symbol'));
    if (!p.key) return h('p', { class: 'empty-note', id: 'price-chart-empty' }, t('price_chart.not_run'));
    const have = shown && shown.symbol === p.symbol ? shown : null;
    const err = failed && failed.symbol === p.symbol ? failed.error : null;
    if (!have) {
      if (err) return h('div', { class: 'alert error', role: 'alert', id: 'price-chart-error' }, t('price_chart.failed', { symbol: p.symbol, error: err.message }));
      return h('p', { class: 'muted loading', id: 'price-chart-loading' }, t('price_chart.loading', { symbol: p.symbol }));
    }
    const { report, iv } = have;
    const candles = report.candles || [];
    const src = report.source || {};
    const markers = tradeMarkers(input.trades).filter((m) => String(m.symbol).toUpperCase() === p.symbol);
    const note = h('p', { class: 'muted price-source', id: 'price-chart-source' },
      t('price_chart.source', { source: src.label || src.name || '—', interval: report.interval || iv.name }),
      src.simulated_clock ? ` · ${t('trader.simulated')}` : '');
    if (!candles.length) return [note, h('p', { class: 'empty-note', id: 'price-chart-empty' }, t('price_chart.no_candles', { symbol: p.symbol }))];
    const readout = (c) => `${fmtShortTime(c.open_time_ms, 0)}  ${t('price_chart.ohlc', { open: fmtExact(c.open), high: fmtExact(c.high), low: fmtExact(c.low), close: fmtExact(c.close) })}`;
    return [
      note,
      candleChart({ candles, intervalMs: iv.ms, markers, id: 'trader-price-chart', label: t('price_chart.label', { symbol: p.symbol, name: p.trader.name }), height: 280, format: (v) => fmtNum(v, 0, Math.abs(v) >= 100 ? 2 : 6), readout }),
      candleLegend({ up: t('price_chart.legend_up'), down: t('price_chart.legend_down'), long: t('price_chart.legend_long'), short: t('price_chart.legend_short'), exit: t('price_chart.legend_exit') }),
      input.tradesFailed ? h('p', { class: 'alert error', id: 'price-chart-no-trades' }, t('price_chart.trades_failed'))
        : markers.length ? null : h('p', { class: 'muted', id: 'price-chart-no-trades' }, t('price_chart.no_trades', { symbol: p.symbol })),
      err ? h('p', { class: 'alert error', role: 'alert', id: 'price-chart-error' }, t('price_chart.stale', { error: err.message })) : null,
    ];
  }

  function draw(p) {
    // Redrawn only when what it shows changed: a marker under the pointer keeps its tooltip.
    const sig = JSON.stringify([p.symbols, p.symbol, p.key && shown && shown.key, failed && failed.key, failed && failed.error && failed.error.message, !!p.account, !!p.key, input.tradesFailed, input.trades.length, input.trades[0] && input.trades[0].exit_order_id]);
    if (sig === drawn) return;
    drawn = sig;
    keepFocus(node, () => {
      node.replaceChildren();
      append(node, [h('div', { class: 'price-toolbar' }, symbolPicker(p)), body(p)]);
    });
  }

  /** The page's latest reads: `trades` newest first (null: they could not be read), `points`
   *  the equity curve [{t, v}]. */
  async function update({ trader, account, trades, positions, points }) {
    const coins = await strategyCoins(trader && trader.strategy_id);
    input = { trader, account, trades: trades || [], tradesFailed: trades == null, positions: positions || [], points: points || [], coins };
    const p = plan();
    draw(p);
    maybeFetch(p);
  }

  function stop() {
    clearTimeout(timer);
    clearTimeout(retry);
    input = null;
  }

  return { node, update, stop };
}
