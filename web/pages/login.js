// Login form for multi-user mode (GET /api/session answered 401).
import { api, setSession } from '../api.js';
import { h, pageHeader } from '../dom.js';
import { field, formError, setBusy, showErrors } from '../forms.js';
import { t } from '../i18n.js';

export function mount(root, { onLogin }) {
  const form = h('form', { id: 'login-form', class: 'resource-form login-form card', novalidate: true },
    formError(),
    field({ name: 'user', label: t('login.user'), required: true, attrs: { autocomplete: 'username' } }),
    field({ name: 'password', label: t('login.password'), type: 'password', required: true, attrs: { autocomplete: 'current-password' } }),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'btn primary' }, t('login.submit'))));
  form.querySelector('[name=password]').setAttribute('autocomplete', 'current-password');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    setBusy(form, true);
    try {
      const s = await api.post('/api/login', Object.fromEntries(new FormData(form)));
      setSession(s);
      onLogin();
    } catch (err) {
      showErrors(form, err);
    } finally {
      setBusy(form, false);
    }
  });
  root.append(pageHeader(t('login.title')), form);
  form.querySelector('input').focus();
}
