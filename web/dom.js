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

/** Re-renders `container` with `render()` keeping keyboard focus on the "same" element. */
export function keepFocus(container, render) {
  const a = document.activeElement;
  let key = null;
  if (a && a !== document.body && container.contains(a)) {
    const scope = a.closest('[data-cycle],[data-trader-id]');
    key = {
      id: a.id,
      scope: scope ? [scope.dataset.cycle ?? '', scope.dataset.traderId ?? ''] : null,
      tag: a.tagName,
      text: a.getAttribute('href') || a.textContent,
    };
  }
  render();
  if (!key) return;
  let el = key.id ? document.getElementById(key.id) : null;
  if (!el) {
    el = [...container.querySelectorAll(key.tag)].find((x) => {
      const sc = x.closest('[data-cycle],[data-trader-id]');
      const same = key.scope ? sc && sc.dataset.cycle === (key.scope[0] || undefined) && (sc.dataset.traderId ?? '') === key.scope[1] : !sc;
      return same && (x.getAttribute('href') || x.textContent) === key.text;
    });
  }
  if (el) el.focus({ preventScroll: true });
}
