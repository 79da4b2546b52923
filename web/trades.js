// Closed trades as a table: the same rows for a trader (GET /api/traders/{id}/trades) and a
// backtest result. Prices, sizes, fees and P&L are the server's exact decimals, grouped for
// reading but never rounded through a float.
import { h } from './dom.js';
import { fmtTime, pnlClass } from './format.js';
import { getLang, t, tOr } from './i18n.js';

/** Decimals a money figure shows (the exact one is in its title). */
const MONEY_DP = 4;

/** "60,123.45" from "60123.45": the decimal string as given (trailing zeros dropped; with
 *  `dp`, rounded to that many decimals), its integer part grouped in the current language.
 *  Anything else is shown as it is. */
export function fmtExact(v, { signed = false, dp = null } = {}) {
  if (v == null || v === '') return '—';
  const s = String(v).trim();
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) return s;
  let [, sign, int, frac = ''] = m;
  // At most `dp` decimals, rounded half away from zero on the digits (never through a float).
  if (dp != null && frac.length > dp) {
    const up = Number(frac[dp]) >= 5;
    const scaled = BigInt(int + frac.slice(0, dp)) + (up ? 1n : 0n);
    const digits = scaled.toString().padStart(dp + 1, '0');
    int = digits.slice(0, digits.length - dp);
    frac = digits.slice(digits.length - dp);
  }
  const grouped = BigInt(int).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-US');
  const fraction = frac.replace(/0+$/, '');
  const zero = /^0*$/.test(int + frac);
  const shown = (sign === '-' && !zero ? '-' : signed && !zero && sign !== '-' ? '+' : '') + grouped;
  return fraction ? `${shown}.${fraction}` : shown;
}

/** "2 h 05 min", "3 d 4 h", "45 s": the two largest units of a span of milliseconds. */
export function fmtDuration(ms) {
  const n = Number(ms);
  if (!Number.isFinite(n) || n < 0) return '—';
  const s = Math.round(n / 1000);
  const parts = [['d', Math.floor(s / 86400)], ['h', Math.floor(s / 3600) % 24], ['min', Math.floor(s / 60) % 60], ['s', s % 60]];
  const first = parts.findIndex(([, v]) => v > 0);
  if (first < 0) return t('duration.s', { n: 0 });
  return parts.slice(first, first + 2).filter(([, v], i) => i === 0 || v > 0).map(([u, v]) => t(`duration.${u}`, { n: v })).join(' ');
}

const COLUMNS = ['symbol', 'side', 'quantity', 'entry_time_ms', 'entry_price', 'exit_time_ms', 'exit_price', 'duration_ms', 'fees', 'funding', 'pnl', 'exit_reason'];

function cell(k, row) {
  const v = row[k];
  switch (k) {
    case 'side':
      return h('span', { class: `side side-${String(v).toLowerCase()}` }, tOr(`side.${String(v).toLowerCase()}`, v));
    case 'entry_time_ms':
    case 'exit_time_ms':
      return Number.isFinite(Number(v)) ? h('time', { datetime: new Date(Number(v)).toISOString() }, fmtTime(v)) : '—';
    case 'duration_ms':
      return fmtDuration(v);
    // Money to 4 decimals (a fee of 0.4952115 reads 0.4952); the exact figure in the title.
    case 'pnl':
      return h('span', { class: pnlClass(v), title: `${fmtExact(v, { signed: true })} · ${t('trades.pnl_hint', { realized: fmtExact(row.realized_pnl, { signed: true }) })}` }, fmtExact(v, { signed: true, dp: MONEY_DP }));
    case 'funding':
      return h('span', { class: pnlClass(v), title: fmtExact(v, { signed: true }) }, fmtExact(v, { signed: true, dp: MONEY_DP }));
    case 'fees':
      return h('span', { title: fmtExact(v) }, fmtExact(v, { dp: MONEY_DP }));
    case 'quantity':
      // A partial exit says what it left open.
      return Number(row.remaining) > 0 ? [fmtExact(v), ' ', h('small', { class: 'muted' }, t('trades.remaining', { n: fmtExact(row.remaining) }))] : fmtExact(v);
    case 'exit_reason':
      return v ? tOr(`exit_reason.${v}`, v) : h('span', { class: 'muted', title: t('exit_reason.unknown_hint') }, t('exit_reason.unknown'));
    default:
      return fmtExact(v);
  }
}

/** The closed trades, newest first as given, with a line of totals; `null` when there are none. */
export function tradesTable(items, { id = null, total = null } = {}) {
  if (!items || !items.length) return null;
  // Funding shows only where the account books it.
  const cols = COLUMNS.filter((c) => c !== 'funding' || items.some((r) => r.funding != null));
  const label = (c) => t(`trades.col.${c}`);
  const wins = items.filter((r) => Number(r.pnl) > 0).length;
  // The shown rows' P&L added exactly (each row is an exact decimal), rounded only to show.
  const pnl = Number(items.reduce((acc, r) => addExact(acc, r.pnl) ?? acc, '0'));
  const shown = total != null && total > items.length ? t('trades.shown_of', { n: items.length, total }) : t(items.length === 1 ? 'trades.count_one' : 'trades.count', { n: items.length });
  return h('div', { class: 'trades', id },
    h('p', { class: 'trades-summary muted', id: id ? `${id}-summary` : null }, shown, ' · ', t('trades.wins', { n: wins }), ' · ', t('trades.net'), ' ',
      h('span', { class: pnlClass(pnl) }, (pnl > 0 ? '+' : '') + pnl.toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 }))),
    // Wider than its card on a desktop: the keyboard can reach it to scroll it.
    h('div', { class: 'table-wrap', tabindex: '0', role: id ? 'region' : null, 'aria-labelledby': id ? `${id}-summary` : null },
      h('table', { class: 'data cards-on-mobile trades-table' },
        h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, label(c))))),
        h('tbody', {}, items.map((r) => h('tr', { 'data-exit-reason': r.exit_reason || '', 'data-symbol': r.symbol },
          cols.map((c) => h('td', { 'data-label': label(c), class: c === 'pnl' || c.endsWith('price') || c === 'fees' || c === 'quantity' ? 'num' : null }, cell(c, r)))))))));
}

/** `a + b` of two decimal strings, exactly ("0.1" + "0.2" is "0.3"); `null` if either is no
 *  plain decimal. */
export function addExact(a, b) {
  const parse = (v) => {
    const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(String(v ?? '').trim());
    return m && { sign: m[1] === '-' ? -1n : 1n, int: m[2], frac: m[3] || '' };
  };
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  const dp = Math.max(x.frac.length, y.frac.length);
  const scaled = (p) => p.sign * BigInt(p.int + p.frac.padEnd(dp, '0'));
  const sum = scaled(x) + scaled(y);
  const digits = (sum < 0n ? -sum : sum).toString().padStart(dp + 1, '0');
  const int = digits.slice(0, digits.length - dp);
  const frac = dp ? `.${digits.slice(digits.length - dp)}` : '';
  return `${sum < 0n ? '-' : ''}${int}${frac}`;
}

/** Entry and exit markers of `items` (newest first, as the API lists them) for a chart's
 *  `markers`, each with its tooltip and where it was: `{t, kind, text, symbol, side ('long' |
 *  'short'), price}`, an exit also with its `pnl` and `entry: {t, price}`. A position's entry
 *  once, however many exits it had, with its whole size (what its exits closed and what is
 *  still open). */
export function tradeMarkers(items) {
  const out = [];
  const entries = new Map();
  for (const r of items || []) {
    const key = `${r.symbol}|${r.side}|${r.entry_time_ms}`;
    const seen = entries.get(key);
    if (seen) seen.quantity = addExact(seen.quantity, r.quantity);
    // The newest exit says what is still open.
    else entries.set(key, { r, quantity: addExact(r.quantity, r.remaining ?? '0') ?? r.quantity });
  }
  for (const r of items || []) {
    const sideKey = String(r.side).toLowerCase();
    const side = tOr(`side.${sideKey}`, r.side);
    const key = `${r.symbol}|${r.side}|${r.entry_time_ms}`;
    const entry = entries.get(key);
    if (entry && entry.r === r) {
      out.push({ t: r.entry_time_ms, kind: 'entry', symbol: r.symbol, side: sideKey, price: r.entry_price, text: t('trades.marker_entry', { symbol: r.symbol, side, quantity: fmtExact(entry.quantity), price: fmtExact(r.entry_price), time: fmtTime(r.entry_time_ms) }) });
    }
    const reason = r.exit_reason ? tOr(`exit_reason.${r.exit_reason}`, r.exit_reason) : t('exit_reason.unknown');
    out.push({ t: r.exit_time_ms, kind: 'exit', symbol: r.symbol, side: sideKey, price: r.exit_price, pnl: r.pnl, entry: { t: r.entry_time_ms, price: r.entry_price }, text: t('trades.marker_exit', { symbol: r.symbol, side, quantity: fmtExact(r.quantity), price: fmtExact(r.exit_price), pnl: fmtExact(r.pnl, { signed: true, dp: MONEY_DP }), reason, time: fmtTime(r.exit_time_ms) }) });
  }
  return out;
}
