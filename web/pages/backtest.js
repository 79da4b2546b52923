// #/backtest — run a backtest, poll its progress, show equity and stats. A new run clears the
// last one's result at once; its own result, once done, is scrolled to and focused.
import { api, enc } from '../api.js';
import { lineChart } from '../chart.js';
import { errorBox, h, pageHeader } from '../dom.js';
import { clearErrors, field, formError, setBusy, showErrors } from '../forms.js';
import { fmtMoney, fmtNum } from '../format.js';
import { curvePoints } from '../normalize.js';
import { figure, statsView } from '../figures.js';
import { t } from '../i18n.js';
import { tradeMarkers, tradesTable } from '../trades.js';
import { rawJson } from '../widgets.js';

/** Closed trades a result lists and marks on its chart, newest first. */
const SHOWN_TRADES = 200;

// The last run survives navigation: coming back re-attaches to it.
let lastRun = null; // {id, data}

const iso = (d) => d.toISOString().slice(0, 10);

export function mount(root) {
  const today = new Date();
  const monthAgo = new Date(today.getTime() - 30 * 86400000);
  const strategySel = field({ name: 'strategy', label: t('backtest.strategy'), type: 'select', required: true, options: [] });
  // What to replay: the simulated market, or a series `nofxi data download` stored.
  const dataSel = field({ name: 'data', label: t('backtest.data'), type: 'select', value: 'simulated', hint: t('backtest.data_hint'), options: [{ value: 'simulated', label: t('backtest.data_simulated') }] });
  const form = h('form', { id: 'backtest-form', class: 'resource-form backtest-form', novalidate: true },
    formError(),
    strategySel,
    dataSel,
    field({ name: 'symbols', label: t('backtest.symbols'), required: true, value: 'BTCUSDT', hint: t('backtest.symbols_hint') }),
    h('div', { class: 'field-row' },
      field({ name: 'start', label: t('backtest.start'), type: 'date', required: true, value: iso(monthAgo) }),
      field({ name: 'end', label: t('backtest.end'), type: 'date', required: true, value: iso(today) })),
    h('div', { class: 'field-row' },
      field({ name: 'initial_balance', label: t('field.initial_balance'), required: true, value: '1000', attrs: { inputmode: 'decimal' } }),
      field({ name: 'interval', label: t('backtest.interval'), type: 'select', value: '1h', options: ['15m', '1h', '4h', '1d'].map((v) => ({ value: v, label: v })) })),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'btn primary' }, t('backtest.run'))));
  const out = h('div', { class: 'backtest-out', 'aria-live': 'polite' });
  root.append(pageHeader(t('backtest.title')),
    h('div', { class: 'backtest-layout' },
      h('section', { class: 'card', 'aria-label': t('backtest.settings') }, form),
      h('section', { class: 'card', 'aria-labelledby': 'bt-result-title' }, h('h2', { id: 'bt-result-title', tabindex: '-1' }, t('backtest.result')), out)));

  let alive = true;
  let timer = null;

  api.get('/api/strategies').then((r) => {
    const sel = strategySel.querySelector('select');
    const items = (r && r.items) || [];
    sel.replaceChildren(...items.map((s) => h('option', { value: s.name || s.id, selected: !!s.is_active }, s.name || s.id)));
    if (!items.length) sel.append(h('option', { value: '' }, t('backtest.no_strategies')));
  }).catch((err) => out.replaceChildren(errorBox(err)));

  // Each downloaded series is a choice; choosing one sets the symbol, interval and dates to it.
  const series = new Map();
  api.get('/api/history').then((r) => {
    const sel = dataSel.querySelector('select');
    for (const m of (r && r.items) || []) {
      const spans = m.covered || [];
      if (!m.candles || !spans.length) continue;
      const key = `${m.exchange}|${m.symbol}|${m.interval}`;
      const from = iso(new Date(spans[0].from_ms));
      // Spans are half-open: the last day held is the one before `to_ms`. The end date asked
      // for is the day after it; the server cuts the range to what was downloaded.
      const end = spans[spans.length - 1].to_ms;
      const last = iso(new Date(end - 1));
      series.set(key, { ...m, from, to: iso(new Date(end + 86399999)) });
      const holes = (m.holes || []).length ? ` · ${t('backtest.data_holes', { n: m.holes.length })}` : '';
      sel.append(h('option', { value: key }, t('backtest.data_series', { exchange: m.exchange, symbol: m.symbol, interval: m.interval, from, to: last, candles: m.candles }) + holes));
    }
  }).catch(() => {});
  dataSel.querySelector('select').addEventListener('change', (e) => {
    const m = series.get(e.target.value);
    if (!m) return;
    const interval = form.querySelector('select[name=interval]');
    if (![...interval.options].some((o) => o.value === m.interval)) interval.append(h('option', { value: m.interval }, m.interval));
    interval.value = m.interval;
    form.querySelector('input[name=symbols]').value = m.symbol;
    form.querySelector('input[name=start]').value = m.from;
    form.querySelector('input[name=end]').value = m.to;
  });

  function render(data) {
    if (!data) {
      out.replaceChildren(h('p', { class: 'muted' }, t('backtest.idle')));
      return;
    }
    const pct = Math.round((Number(data.progress) || 0) * 100);
    const kids = [];
    if (data.status === 'running' || data.status === 'queued' || !data.result) {
      if (data.status !== 'failed') {
        kids.push(h('label', { for: 'backtest-progress', class: 'label' }, t('backtest.running', { pct })),
          h('progress', { id: 'backtest-progress', max: 1, value: Number(data.progress) || 0 }, `${pct}%`));
      }
    }
    if (data.status === 'failed') kids.push(h('div', { class: 'alert error', role: 'alert' }, t('backtest.failed', { error: data.error || '' })));
    const r = data.result;
    if (r) {
      // Offline the prices come from the simulated market, not history: never let a result
      // pass for a real backtest.
      if (r.data_source) kids.push(h('p', { class: 'data-source', id: 'backtest-data-source' }, t('backtest.ran_on', { source: r.data_source })));
      if (r.simulated) kids.push(h('p', { class: 'note warn', role: 'note' }, t('backtest.simulated_prices')));
      const pts = curvePoints(r.equity_curve || r.equity);
      // The newest trades, listed and marked: a long run's thousands would bury the page.
      const shownTrades = Array.isArray(r.trades) ? r.trades.slice(0, SHOWN_TRADES) : [];
      kids.push(pts.length
        ? lineChart({ series: [{ name: t('backtest.equity'), points: pts }], id: 'backtest-equity-chart', className: 'equity-chart', lineClass: 'equity-line', height: 240, area: true, format: (v) => fmtNum(v, 0, 2), label: t('backtest.equity'), markers: tradeMarkers(shownTrades) })
        : h('p', { class: 'empty-note' }, t('backtest.no_points')));
      if (r.stats) {
        // Its P&L from the first point of its curve (the initial balance), in its two parts.
        const view = { stats: r.stats, pnl_basis: pts.length ? pts[0].v : null, pnl_basis_kind: pts.length ? 'initial_balance' : null };
        const extra = [
          figure('final_equity', t('stat.final_equity'), fmtMoney(r.final_equity)),
          figure('cycles', t('stat.cycles'), String(r.cycles ?? '—')),
          typeof r.fills === 'number' ? figure('fills', t('stat.fills'), String(r.fills)) : null,
          figure('refused', t('stat.refused'), String(r.refused ?? 0)),
        ];
        kids.push(h('h3', {}, t('backtest.stats')), statsView(view, { extra }));
      }
      // Its closed trades, as a trader's page lists them (the trades its stats count).
      if (Array.isArray(r.trades)) {
        kids.push(h('h3', {}, t('backtest.trades', { n: r.trades.length })),
          tradesTable(shownTrades, { id: 'backtest-trades', total: r.trades.length }) || h('p', { class: 'muted', id: 'backtest-no-trades' }, t('backtest.no_trades')));
      }
      kids.push(rawJson(data));
    }
    out.replaceChildren(...kids);
  }

  let watched = null; // the run this page saw in progress: its result is shown to the reader

  /** The finished run's result, scrolled to and focused (the Run button was disabled). */
  function showResult() {
    const title = document.getElementById('bt-result-title');
    if (!title) return;
    title.scrollIntoView({ block: 'start', behavior: 'smooth' });
    title.focus({ preventScroll: true });
  }

  async function poll(id) {
    try {
      const data = await api.get(`/api/backtests/${enc(id)}`);
      // A poll of an earlier run answering late is not this run's.
      if (!alive || !lastRun || lastRun.id !== id) return;
      lastRun = { id, data };
      render(data);
      if (data.status === 'running' || data.status === 'queued' || (!data.result && data.status !== 'failed' && data.status !== 'done')) {
        watched = id;
        timer = setTimeout(() => poll(id), 500);
      } else {
        setBusy(form, false);
        if (watched === id) showResult();
        watched = null;
      }
    } catch (err) {
      if (!alive || !lastRun || lastRun.id !== id) return;
      out.replaceChildren(errorBox(err));
      setBusy(form, false);
    }
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const v = Object.fromEntries(new FormData(form));
    const body = {
      strategy: v.strategy,
      symbols: String(v.symbols || '').split(/[,\s，]+/).map((s) => s.trim().toUpperCase()).filter(Boolean),
      start: v.start,
      end: v.end,
      initial_balance: v.initial_balance,
      interval: v.interval,
      data: String(v.data || 'simulated').split('|')[0],
    };
    clearTimeout(timer);
    setBusy(form, true);
    // The last run's result goes at once: nothing stale stands beside the new settings.
    lastRun = null;
    render({ status: 'queued', progress: 0 });
    try {
      const r = await api.post('/api/backtests', body);
      lastRun = { id: r.id, data: { status: 'running', progress: 0 } };
      watched = r.id;
      render(lastRun.data);
      poll(r.id);
    } catch (err) {
      setBusy(form, false);
      render(null);
      showErrors(form, err);
    }
  });

  render(lastRun && lastRun.data);
  if (lastRun && (!lastRun.data || lastRun.data.status === 'running')) {
    setBusy(form, true);
    poll(lastRun.id);
  }
  return () => {
    alive = false;
    clearTimeout(timer);
  };
}
