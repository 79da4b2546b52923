// Shared view pieces: status badge, key/value list, generic table, raw JSON block.
import { h } from './dom.js';
import { fmtValue } from './format.js';
import { t, tOr } from './i18n.js';

export function stateBadge(state) {
  const s = String(state || 'unknown').toLowerCase();
  const tone = s === 'running' ? 'ok' : s === 'stopped' ? 'idle' : 'warn';
  return h('span', { class: `badge state-${s} tone-${tone}` }, tOr(`state.${s}`, s));
}

/** <dl class="kv"> of an object's scalar entries; `fmt(key, value)` may return a node or string. */
export function kvList(obj, fmt = (k, v) => fmtValue(v), labelPrefix = 'stat') {
  return h('dl', { class: 'kv' }, Object.entries(obj || {}).filter(([, v]) => v !== undefined).map(([k, v]) =>
    h('div', {}, h('dt', {}, tOr(`${labelPrefix}.${k}`, k.replace(/_/g, ' '))), h('dd', {}, fmt(k, v)))));
}

// Column order for tables built from arbitrary objects; unknown columns go last.
const COL_ORDER = ['symbol', 'action', 'what', 'side', 'verdict', 'quantity', 'position_size_usd', 'leverage', 'confidence', 'price', 'entry_price', 'mark_price', 'stop_loss', 'take_profit', 'risk_usd', 'unrealized_pnl', 'ok', 'order_id', 'client_order_id', 'error', 'error_code', 'recovered', 'reason', 'reasoning'];

/** The box a table scrolls sideways in when it is wider than the page. While it does, the
 *  keyboard can reach it to scroll (a tab stop, named by its table's header row); while it
 *  fits, it is no tab stop. Every table-wrap is made here, so none is out of a keyboard's reach. */
export function tableWrap(...children) {
  const wrap = h('div', { class: 'table-wrap' }, ...children);
  if (typeof ResizeObserver === 'function') {
    const ro = new ResizeObserver(() => {
      // A redraw replaced it: let it go (a live page redraws its tables every cycle).
      if (!wrap.isConnected) return ro.disconnect();
      const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      if (scrolls && !wrap.hasAttribute('tabindex')) {
        wrap.setAttribute('tabindex', '0');
        wrap.setAttribute('role', 'region');
        const head = wrap.querySelector('thead');
        wrap.setAttribute('aria-label', head ? head.textContent.replace(/\s+/g, ' ').trim().slice(0, 80) : t('common.table'));
      } else if (!scrolls && wrap.getAttribute('tabindex') === '0') {
        ['tabindex', 'role', 'aria-label'].forEach((a) => wrap.removeAttribute(a));
      }
    });
    ro.observe(wrap);
  } else {
    wrap.setAttribute('tabindex', '0');
  }
  return wrap;
}

/** A scrolling table of an array of objects; columns are the union of keys unless given. */
export function dataTable(rows, columns, fmt = (k, v) => fmtValue(v), labelPrefix = 'col') {
  if (!rows || !rows.length) return null;
  const rank = (c) => (COL_ORDER.includes(c) ? COL_ORDER.indexOf(c) : COL_ORDER.length);
  const cols = columns || [...new Set(rows.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])))]
    .filter((c) => rows.some((r) => r && r[c] != null && r[c] !== '')) // drop all-empty columns
    .sort((a, b) => rank(a) - rank(b));
  const label = (c) => tOr(`${labelPrefix}.${c}`, c.replace(/_/g, ' '));
  return tableWrap(
    h('table', { class: 'data cards-on-mobile' },
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, label(c))))),
      h('tbody', {}, rows.map((r) => h('tr', {}, cols.map((c) => h('td', { 'data-label': label(c) }, fmt(c, r ? r[c] : null))))))));
}

export function rawJson(obj, summaryKey = 'common.raw_json') {
  return h('details', { class: 'raw' }, h('summary', {}, t(summaryKey)), h('pre', {}, JSON.stringify(obj, null, 2)));
}

/** "Reason: …" under a stopped trader: the stop reason and its detail. */
export function reasonLine(st) {
  if (!st.reason && !st.reasonCode) return null;
  const why = [st.reasonCode ? tOr(`stop_reason.${st.reasonCode}`, st.reasonCode) : null, st.reason].filter(Boolean).join(' — ');
  return h('p', { class: 'reason' }, t('trader.stopped_because', { reason: why }));
}

/**
 * The model a trader is bound to. While a running trader's engine still decides with the one
 * before (until its next cycle, `status.model_pending`), says which: the page never shows a
 * binding the engine is not using as if it were. `status` is a StatusView or a dashboard card.
 */
export function modelBinding(name, status) {
  const sv = status && status.status && typeof status.status === 'object' ? status.status : status;
  const used = sv && sv.model_pending ? sv.model_in_use : null;
  if (!used) return h('span', { class: 'model-binding' }, name);
  return h('span', { class: 'model-binding', 'data-pending': 'true' }, name, ' ',
    h('small', { class: 'muted pending-model' }, t('trader.model_pending', { used: used.name })));
}
