// The two-step confirmation: first call returns a summary + token, a modal dialog asks, the
// second call carries the token. Used for start, stop, delete, and the edits the server asks
// about (a trader's model, account, strategy, interval…, by the chat's rule).
import { api } from './api.js';
import { focusKey, h, nothingFocused, refocus } from './dom.js';
import { t } from './i18n.js';

let dialog = null;

function ensureDialog() {
  if (dialog && document.body.contains(dialog)) return dialog;
  dialog = h(
    'dialog',
    { id: 'confirm-dialog', class: 'dialog', 'aria-labelledby': 'confirm-dialog-title', 'aria-describedby': 'confirm-dialog-summary' },
    h('form', { method: 'dialog', class: 'dialog-body' },
      h('h2', { id: 'confirm-dialog-title' }),
      h('p', { id: 'confirm-dialog-summary', class: 'summary' }),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'submit', value: 'cancel', class: 'btn', 'data-action': 'cancel' }),
        h('button', { type: 'submit', value: 'confirm', class: 'btn primary', 'data-action': 'confirm' }),
      ),
    ),
  );
  document.body.append(dialog);
  return dialog;
}

/** Shows `summary` in #confirm-dialog; resolves true on Confirm, false on Cancel / Escape.
 *  Focus goes back to what opened it, or to what replaced it in a redraw meanwhile. */
export function confirmDialog(summary, { title, confirmLabel, danger = false } = {}) {
  const d = ensureDialog();
  const opener = focusKey(document.activeElement);
  d.querySelector('#confirm-dialog-title').textContent = title || t('confirm.title');
  d.querySelector('#confirm-dialog-summary').textContent = summary;
  const ok = d.querySelector('[data-action="confirm"]');
  const cancel = d.querySelector('[data-action="cancel"]');
  ok.textContent = confirmLabel || t('confirm.confirm');
  ok.classList.toggle('danger', danger);
  cancel.textContent = t('confirm.cancel');
  d.returnValue = '';
  return new Promise((resolve) => {
    const onClose = () => {
      d.removeEventListener('close', onClose);
      resolve(d.returnValue === 'confirm');
      // The browser gives focus back to the opener only while it is still on the page.
      setTimeout(() => nothingFocused() && refocus(opener), 0);
    };
    d.addEventListener('close', onClose);
    if (typeof d.showModal === 'function') d.showModal();
    else d.setAttribute('open', '');
    cancel.focus();
  });
}

/**
 * Runs an action that may need a confirmation: the first call (with `opts.body`) either acts or
 * returns a summary and a token; then the dialog asks, and the same call with the token acts.
 * Returns the final response, or null when the user cancelled. Throws ApiError (409
 * stale_confirmation included) for the caller to show. `opts.onAsk` runs as the dialog opens,
 * `opts.onConfirmed` after its Confirm, before the second call.
 */
export async function twoStep(method, path, opts = {}) {
  const body = opts.body || {};
  const first = await api.request(method, path, body);
  if (!first || !first.confirm_required) return first;
  // `onAsk` / `onConfirmed` let a control say "waiting for your answer", then "doing it".
  if (opts.onAsk) opts.onAsk();
  const yes = await confirmDialog(first.summary, opts);
  if (!yes) return null;
  if (opts.onConfirmed) opts.onConfirmed();
  return api.request(method, path, { ...body, confirm: first.token });
}
