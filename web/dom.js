// Tiny DOM helpers: element builder, toasts, empty/error blocks.
import { t } from './i18n.js';
import { richText } from './rich.js';

const PROPS = new Set(['value', 'checked', 'selected', 'disabled', 'open', 'indeterminate', 'max', 'required', 'readOnly', 'multiple']);

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false || c === true) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** h('button', {class: 'x', onclick: fn, 'data-id': 1}, 'text', child…) */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  append(el, children);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (PROPS.has(k)) el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  return el;
}

export function toastRegion() {
  let r = document.getElementById('toasts');
  if (!r) {
    r = h('div', { id: 'toasts', class: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(r);
  }
  return r;
}

export function notify(message, kind = 'info') {
  const el = h('div', { class: `toast ${kind}` }, message);
  toastRegion().append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 8000 : 4000);
}

export function errorBox(err) {
  // The server's words may name a command to run: the page links to where it is done instead.
  return h('div', { class: 'alert error', role: 'alert' }, richText(err && err.message ? err.message : t('error.generic')));
}

export function loading() {
  return h('p', { class: 'muted loading' }, t('common.loading'));
}

export function pageHeader(title, ...extra) {
  return h('div', { class: 'page-header' }, h('h1', { tabindex: '-1' }, title), ...extra);
}

export function debounce(fn, ms) {
  let timer = null;
  const d = (...a) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...a), ms);
  };
  d.cancel = () => clearTimeout(timer);
  return d;
}

/** Runs fn once, `ms` after the first call of a burst (later calls in the burst join it), so a
 *  steady stream of events still refreshes at least every `ms`. */
export function coalesce(fn, ms) {
  let timer = null;
  const c = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, ms);
  };
  c.cancel = () => {
    clearTimeout(timer);
    timer = null;
  };
  return c;
}

// ---- keyboard focus across redraws -------------------------------------------------------
// Live pages redraw often (the dashboard on every cycle), and a control's words change as it
// works (Start → Starting… → Stop). Focus stays on the "same" control: the one with its id, or
// in the same scope (the cycle, journal group, trader card or table row it is in) with the same
// `data-focus` name (a control whose words change says what it is there), or failing that the
// same tag and link or words. A control busy with its action is disabled and cannot hold
// focus: it gets it back when a redraw shows it usable again.

const SCOPE = '[data-cycle],[data-group],[data-trader-id],[data-id]';
const scopeOf = (el) => {
  const s = el.closest(SCOPE);
  return s ? [s.dataset.cycle, s.dataset.group, s.dataset.traderId, s.dataset.id].map((x) => x ?? '').join('|') : '';
};
// A card's name and its "Open trader →" link go to the same place: both the target and the words
// tell them apart.
const words = (el) => `${el.getAttribute('href') || ''}|${el.textContent}`;

/** What names `el` across a redraw (null for nothing focused). */
export function focusKey(el) {
  if (!el || !(el instanceof Element) || el === document.body || el === document.documentElement) return null;
  return { id: el.id || null, scope: scopeOf(el), focus: el.dataset.focus ?? null, tag: el.tagName, text: words(el) };
}

/** The element in `container` that `key` names, if any. */
export function findByKey(container, key) {
  if (!key) return null;
  const byId = key.id ? document.getElementById(key.id) : null;
  if (byId && container.contains(byId)) return byId;
  const named = key.focus != null;
  const candidates = container.querySelectorAll(named ? `[data-focus="${CSS.escape(key.focus)}"]` : key.tag);
  return [...candidates].find((x) => scopeOf(x) === key.scope && (named || words(x) === key.text)) || null;
}

export const nothingFocused = () => {
  const a = document.activeElement;
  return !a || a === document.body || a === document.documentElement;
};

function tryFocus(el) {
  if (!el || el.disabled || !el.isConnected || !el.getClientRects().length) return false;
  el.focus({ preventScroll: true });
  return document.activeElement === el;
}

// A control to give focus back to once a redraw shows it usable, while nothing else took it.
let pending = null; // {key, until}
const PENDING_MS = 30000;

function resume(container) {
  if (!pending) return;
  if (Date.now() > pending.until || !nothingFocused()) {
    pending = null;
    return;
  }
  if (tryFocus(findByKey(container, pending.key))) pending = null;
}

/** Focus back on the control `key` names: now if it is there and usable, else on the first
 *  redraw that shows it so (a dialog closed, an action done, a form put away). */
export function refocus(key) {
  if (!key) return;
  if (tryFocus(findByKey(document, key))) {
    pending = null;
    return;
  }
  pending = { key, until: Date.now() + PENDING_MS };
}

/** Re-renders `container` with `render()` keeping keyboard focus on the "same" element. */
export function keepFocus(container, render) {
  const a = document.activeElement;
  const key = a && container.contains(a) ? focusKey(a) : null;
  render();
  if (key && !tryFocus(findByKey(container, key)) && nothingFocused()) pending = { key, until: Date.now() + PENDING_MS };
  resume(container);
}
