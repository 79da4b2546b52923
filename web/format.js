// Number, money, percent and time formatting in the current language.
import { getLang, t } from './i18n.js';

const locale = () => (getLang() === 'zh' ? 'zh-CN' : 'en-US');
export const toNum = (v) => (v == null || v === '' ? NaN : Number(v));

export function fmtNum(v, min = 2, max = min) {
  const n = toNum(v);
  if (!Number.isFinite(n)) return '—';
  const shown = new Intl.NumberFormat(locale(), { minimumFractionDigits: min, maximumFractionDigits: max }).format(n);
  // A loss too small to show is no loss: "-0.00" reads 0.00.
  return /^-0([.,]0+)?$/.test(shown) ? shown.slice(1) : shown;
}

export const fmtMoney = (v) => fmtNum(v, 2, 2);
export const fmtQty = (v) => fmtNum(v, 0, 8);

export function fmtSigned(v, min = 2, max = min) {
  const n = toNum(v);
  if (!Number.isFinite(n)) return '—';
  return (n > 0 ? '+' : '') + fmtNum(n, min, max);
}

/** `v` is already a percent (2.5 means 2.5 %). */
export function fmtPct(v, signed = true) {
  const n = toNum(v);
  if (!Number.isFinite(n)) return '—';
  return (signed ? fmtSigned(n, 2) : fmtNum(n, 2)) + '%';
}

export function pnlClass(v) {
  const n = toNum(v);
  if (!Number.isFinite(n) || n === 0) return 'flat';
  return n > 0 ? 'pos' : 'neg';
}

export function fmtTime(ms) {
  if (ms == null || ms === '') return '—';
  const d = new Date(typeof ms === 'number' ? ms : Number(ms) || ms);
  if (Number.isNaN(d.getTime())) return String(ms);
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export function fmtShortTime(ms, spanMs = 0) {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const day = 86400000;
  // Past about a season the year matters ("Jan 1 … Dec 1" over seven years says nothing).
  const opts = spanMs > 180 * day ? { year: 'numeric', month: 'short', day: 'numeric' }
    : spanMs > 7 * day ? { month: 'short', day: 'numeric' }
    : spanMs > day * 0.8 ? { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' }
    : { hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(locale(), opts).format(d);
}

/** Render any scalar or object for a table cell. */
export function fmtValue(v) {
  if (v == null || v === '') return '—';
  if (typeof v === 'boolean') return v ? t('common.yes') : t('common.no');
  // A list of names or values reads as one ("bot, alpha"), not as code.
  if (Array.isArray(v) && v.every((x) => x == null || typeof x !== 'object')) return v.map(fmtValue).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
