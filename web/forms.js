// Form building blocks: labelled fields with a .field-error slot, error display.
import { focusKey, h, nothingFocused, refocus } from './dom.js';
import { t } from './i18n.js';

let seq = 0;

/**
 * field({name, label, type, value, options:[{value,label}], required, hint, placeholder, attrs})
 * Returns <div class="field"> with label, control and <div class="field-error" data-field=name>.
 */
export function field(o) {
  const id = `f-${o.name}-${++seq}`;
  const errId = `${id}-err`;
  const hintId = o.hint ? `${id}-hint` : null;
  const common = {
    id,
    name: o.name,
    required: !!o.required,
    'aria-describedby': [hintId, errId].filter(Boolean).join(' '),
    ...(o.attrs || {}),
  };
  let control;
  if (o.type === 'select') {
    control = h('select', common, (o.options || []).map((op) => h('option', { value: op.value }, op.label)));
    if (o.value != null) control.value = String(o.value);
  } else if (o.type === 'textarea') {
    control = h('textarea', { ...common, rows: o.rows || 3, placeholder: o.placeholder }, o.value ?? '');
  } else if (o.type === 'checkbox') {
    control = h('input', { ...common, type: 'checkbox', checked: !!o.value });
    return h('div', { class: 'field checkbox', 'data-name': o.name },
      h('label', { for: id }, control, ' ', o.label),
      o.hint && h('p', { class: 'hint', id: hintId }, o.hint),
      h('div', { class: 'field-error', 'data-field': o.name, id: errId, 'aria-live': 'polite' }));
  } else {
    control = h('input', {
      ...common,
      type: o.type || 'text',
      value: o.value ?? '',
      placeholder: o.placeholder,
      autocomplete: o.type === 'password' ? 'new-password' : 'off',
    });
  }
  return h('div', { class: 'field', 'data-name': o.name },
    h('label', { for: id }, o.label, o.required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null),
    control,
    o.hint && h('p', { class: 'hint', id: hintId }, o.hint),
    h('div', { class: 'field-error', 'data-field': o.name, id: errId, 'aria-live': 'polite' }));
}

export function formError() {
  return h('div', { class: 'form-error', role: 'alert', hidden: true });
}

export function clearErrors(form) {
  form.querySelectorAll('.field-error').forEach((e) => (e.textContent = ''));
  form.querySelectorAll('[aria-invalid]').forEach((e) => e.removeAttribute('aria-invalid'));
  const top = form.querySelector('.form-error');
  if (top) {
    top.textContent = '';
    top.hidden = true;
  }
}

/** Puts err.message at the top and each problem under its field. */
/** The server names a field by its key (`account_name`); under the field, say its label. */
function inWords(form, field, message) {
  const ctl = form.querySelector(`[name="${CSS.escape(field)}"]`);
  const label = ctl && ctl.id ? form.querySelector(`label[for="${CSS.escape(ctl.id)}"]`) : null;
  const name = label ? label.textContent.replace(/\s*\*\s*$/, '').trim() : '';
  return name ? message.split(`\`${field}\``).join(`“${name}”`) : message;
}

export function showErrors(form, err) {
  clearErrors(form);
  const top = form.querySelector('.form-error');
  const unplaced = [];
  for (const p of err.problems || []) {
    const slot = form.querySelector(`.field-error[data-field="${CSS.escape(p.field)}"]`);
    if (slot) {
      slot.textContent = inWords(form, p.field, p.message);
      const ctl = form.querySelector(`[name="${CSS.escape(p.field)}"]`);
      if (ctl) ctl.setAttribute('aria-invalid', 'true');
    } else unplaced.push(`${p.field}: ${p.message}`);
  }
  if (top) {
    // The server's message lists every problem again; when each sits under its field, the
    // first line is enough at the top.
    const msg = err.message || t('error.generic');
    const placed = (err.problems || []).length > 0 && unplaced.length === 0;
    top.textContent = [placed ? msg.split('\n')[0].replace(/:\s*$/, '') : msg, ...unplaced].join(' — ');
    top.hidden = false;
  }
  const first = form.querySelector('[aria-invalid="true"]');
  if (first) first.focus();
  else if (top) top.scrollIntoView({ block: 'nearest' });
}

/** What opened a form (the focused control), for focus to go back to when it is put away. */
export const opener = () => focusKey(document.activeElement);

/**
 * Focus after a form is put away (saved or cancelled): back on what opened it — or on what
 * replaced it when the list redrew (the same row's Edit) — else, if focus was lost, on
 * `fallback`. Keyboard users are never dropped at the top of the page.
 */
export function returnFocus(from, fallback = null) {
  if (from) return refocus(from);
  if (fallback && nothingFocused()) fallback.focus({ preventScroll: true });
}

export function setBusy(form, busy) {
  form.setAttribute('aria-busy', busy ? 'true' : 'false');
  form.querySelectorAll('button[type="submit"]').forEach((b) => (b.disabled = busy));
}
