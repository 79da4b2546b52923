// Controls where people watch a trader (dashboard cards, the Traders list, the trader's page):
// start / stop, close one position, stop and close all. Each goes through the same HTTP calls
// as the API and the same confirmation policy as the chat (the server decides whether to ask:
// a live start, a stop of a running trader, every close), shows Starting… / Stopping… /
// Closing… while it runs, and says a refusal in the server's words, once, beside the control.
//
// Pages redraw on every live refresh, so what is in flight and what was refused are kept here,
// by trader, and every redraw shows them again until the action ends or is retried.
import { enc } from './api.js';
import { twoStep } from './confirm.js';
import { focusKey, h, notify, refocus } from './dom.js';
import { fmtExact } from './trades.js';
import { t, tOr } from './i18n.js';

const busy = new Map(); // trader id → 'start' | 'stop' | 'stop-close' | 'close:<symbol>:<side>'
const refused = new Map(); // trader id → the last refusal's words
const listeners = new Set();

/** Calls `fn` whenever an action starts or ends, for the page to redraw. */
export function onControlChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const changed = () => listeners.forEach((fn) => fn());

/** What is in flight for trader `id`, if anything. */
export const busyWith = (id) => busy.get(id) || null;

async function run(tr, what, call, done, asks = true, back = null) {
  if (busy.has(tr.id)) return;
  // Whether the server will ask first is its rule; the page knows it for a start only (a
  // paper start acts at once): until the answer, the controls wait in their usual words.
  busy.set(tr.id, asks ? 'asking' : what);
  refused.delete(tr.id);
  changed();
  // While the dialog asks, the controls wait (disabled, their usual words); once confirmed
  // they say what is being done.
  const steps = {
    onAsk: () => (busy.set(tr.id, 'asking'), changed()),
    onConfirmed: () => (busy.set(tr.id, what), changed()),
  };
  try {
    const r = await call(steps);
    if (r) done(r);
  } catch (err) {
    refused.set(tr.id, err.message);
  } finally {
    busy.delete(tr.id);
    changed();
    // The pressed control was disabled while it worked: focus goes back to it (or to what
    // replaced it, Start for Stop) once a redraw shows it usable.
    refocus(back);
  }
}

const sideWord = (side) => tOr(`side.${String(side).toLowerCase()}`, side);

/** The pressed button waits at once, before any page redraws it; `label` says what it does
 *  when that is already known (a paper start). Returns what names it for focus to come back
 *  to, when it had focus (pressed from the keyboard, or clicked). */
function pressed(e, label = null) {
  const b = e && e.currentTarget;
  if (!b) return null;
  const back = document.activeElement === b ? focusKey(b) : null;
  if (label) {
    b.textContent = label;
    b.setAttribute('aria-busy', 'true');
  }
  b.disabled = true;
  return back;
}

/** Starts or stops `tr` ({id, name}); a live start's Confirm looks as grave as a stop's. */
export function startStop(tr, verb, { live = false, back = null } = {}) {
  const path = `/api/traders/${enc(tr.id)}/${verb}`;
  return run(tr, verb, (steps) => twoStep('POST', path, { ...steps, confirmLabel: t(`trader.${verb}`), danger: verb === 'stop' || live }),
    () => notify(t(`trader.${verb}_done`, { name: tr.name }), 'ok'), verb === 'stop' || live, back);
}

/** Closes one position ({symbol, side, quantity}) of `tr` at market, after the dialog. */
export function closePosition(tr, p, back = null) {
  const path = `/api/traders/${enc(tr.id)}/positions/close`;
  const names = { name: tr.name, symbol: p.symbol, side: sideWord(p.side) };
  return run(tr, `close:${p.symbol}:${p.side}`,
    (steps) => twoStep('POST', path, { ...steps, body: { symbol: p.symbol, side: p.side }, title: t('trader.close_title'), confirmLabel: t('trader.close'), danger: true }),
    (r) => notify(r.object && r.object.waiting ? t('trader.close_waiting', names) : t('trader.close_done', names), 'ok'), true, back);
}

/** Stops `tr` and closes every open position, after the dialog. */
export function stopAndClose(tr, back = null) {
  const path = `/api/traders/${enc(tr.id)}/stop-and-close`;
  return run(tr, 'stop-close',
    (steps) => twoStep('POST', path, { ...steps, title: t('trader.stop_close_title'), confirmLabel: t('trader.close_all'), danger: true }),
    (r) => {
      const closed = (r.object && r.object.report && r.object.report.closed) || [];
      const list = closed.map((c) => `${c.symbol} ${sideWord(c.side)} ${fmtExact(c.quantity)}`).join(', ');
      notify(closed.length ? t('trader.stop_close_done', { name: tr.name, list }) : t('trader.stop_close_nothing', { name: tr.name }), 'ok');
    }, true, back);
}

/**
 * Start or Stop for `tr`, whichever its state allows (`running`), labelled Starting… /
 * Stopping… while in flight; `opts.ids` gives the buttons the page's own ids.
 */
export function startStopButton(tr, running, { live = false, small = false, ids = false } = {}) {
  const doing = busyWith(tr.id);
  const verb = running ? 'stop' : 'start';
  const label = doing === 'start' ? t('trader.starting') : doing === 'stop' ? t('trader.stopping') : t(`trader.${verb}`);
  return h('button', {
    type: 'button',
    class: ['btn', small && 'small', verb === 'stop' ? 'danger' : 'primary'],
    id: ids ? `trader-${verb}` : null,
    'data-action': verb,
    'data-focus': 'start-stop',
    'aria-label': t(`trader.${verb}_named`, { name: tr.name }),
    'aria-busy': doing === verb ? 'true' : null,
    disabled: !!doing,
    onclick: (e) => {
      const back = pressed(e, verb === 'start' && !live ? t('trader.starting') : null);
      startStop(tr, verb, { live, back });
    },
  }, label);
}

/** "Stop and close all" ("Close all" for a stopped trader), Stopping… / Closing… while in
 *  flight. */
export function stopCloseButton(tr, { small = false, running = true } = {}) {
  const doing = busyWith(tr.id);
  const idle = running ? t('trader.stop_close') : t('trader.close_all');
  return h('button', {
    type: 'button',
    class: ['btn', 'danger', small && 'small'],
    id: small ? null : 'trader-stop-close',
    'data-action': 'stop-close',
    'data-focus': 'stop-close',
    'aria-label': t(running ? 'trader.stop_close_named' : 'trader.close_all_named', { name: tr.name }),
    'aria-busy': doing === 'stop-close' ? 'true' : null,
    disabled: !!doing,
    onclick: (e) => stopAndClose(tr, pressed(e)),
  }, doing === 'stop-close' ? t(running ? 'trader.stopping' : 'trader.closing') : idle);
}

/** A position row's Close, Closing… while in flight. */
export function closeButton(tr, p) {
  const doing = busyWith(tr.id);
  const mine = doing === `close:${p.symbol}:${p.side}`;
  return h('button', {
    type: 'button',
    class: 'btn small danger',
    'data-action': 'close-position',
    'data-symbol': p.symbol,
    'data-side': p.side,
    'data-focus': `close:${p.symbol}:${p.side}`,
    'aria-label': t('trader.close_named', { name: tr.name, symbol: p.symbol, side: sideWord(p.side) }),
    'aria-busy': mine ? 'true' : null,
    disabled: !!doing,
    onclick: (e) => closePosition(tr, p, pressed(e)),
  }, mine ? t('trader.closing') : t('trader.close'));
}

/** Why the last action on `tr` was refused, in words, until the next one. */
export function refusal(tr, id = null) {
  const why = refused.get(tr.id);
  return why ? h('p', { class: 'alert error control-error', id, role: 'alert', 'data-trader-error': tr.id }, why) : null;
}
