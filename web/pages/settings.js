// #/settings — the assistant's model (with its Test), this browser's language, theme and
// up/down colours, the engine as the server sees it, and API tokens in multi-user mode.
import { api, currentSession, enc } from '../api.js';
import { errorBox, h, loading, notify, pageHeader } from '../dom.js';
import { field, formError, setBusy, showErrors } from '../forms.js';
import { getLang, LANGS, setLang, t } from '../i18n.js';
import { COLORS, getColors, getTheme, setColors, setTheme, THEMES } from '../prefs.js';
import { testButton } from '../probe.js';
import { fmtTime } from '../format.js';
import { tableWrap } from '../widgets.js';

function section(id, title, ...body) {
  return h('section', { class: 'card settings-section', 'aria-labelledby': id }, h('h2', { id }, title), ...body);
}

function assistantModel(settings, reload) {
  const chosen = settings.assistant_model;
  const options = [{ value: '', label: t('settings.rules_only') }];
  for (const m of settings.models) {
    options.push({ value: m.id, label: m.usable ? `${m.name} (${m.provider})` : `${m.name} (${m.provider}) — ${t('settings.not_usable')}` });
  }
  const select = field({ name: 'model', label: t('settings.assistant_model'), type: 'select', options, value: chosen ? chosen.id : '', hint: t('settings.assistant_model_hint') });
  const control = select.querySelector('select');
  for (const opt of control.options) {
    const m = settings.models.find((x) => x.id === opt.value);
    if (m && !m.usable && m.id !== (chosen && chosen.id)) opt.disabled = true;
  }
  const form = h('form', { id: 'assistant-model-form', class: 'resource-form', novalidate: true },
    formError(),
    select,
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'btn primary' }, t('common.save'))));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    setBusy(form, true);
    try {
      const r = await api.put('/api/settings/assistant-model', { model: control.value || null });
      notify(r.assistant_model ? t('settings.model_set', { name: r.assistant_model.name }) : t('settings.model_cleared'), 'success');
      await reload('assistant-model-form');
    } catch (err) {
      showErrors(form, err);
    } finally {
      setBusy(form, false);
    }
  });
  const unusable = settings.models.filter((m) => !m.usable);
  return section('settings-assistant', t('settings.assistant'),
    h('p', { id: 'assistant-model-now' },
      chosen ? t('settings.model_now', { name: chosen.name, provider: chosen.provider }) : t('settings.model_none'),
      ' ', chosen ? testButton('models', chosen.id, chosen.name) : null),
    chosen && !chosen.usable ? h('p', { class: 'alert error' }, chosen.why_not) : null,
    settings.models.length ? form : h('p', { class: 'muted' }, t('settings.no_models'), ' ', h('a', { href: '#/resources/models' }, t('settings.add_model'))),
    unusable.length
      ? h('details', { class: 'why-not' }, h('summary', {}, t('settings.why_not_title', { count: unusable.length })),
        h('ul', { class: 'plain-list' }, unusable.map((m) => h('li', {}, h('strong', {}, m.name), ': ', m.why_not))))
      : null);
}

function radioGroup(name, legend, values, current, onPick) {
  return h('fieldset', { class: 'radio-group' }, h('legend', {}, legend),
    values.map((v) => {
      const id = `pref-${name}-${v}`;
      return h('label', { for: id, class: 'radio' },
        h('input', { type: 'radio', id, name, value: v, checked: v === current, onchange: () => onPick(v) }),
        ' ', t(`settings.${name}_${v.replace('-', '_')}`));
    }));
}

function appearance() {
  const langSel = h('select', { id: 'settings-lang' }, LANGS.map((l) => h('option', { value: l, selected: l === getLang() }, t(`lang.${l}`))));
  langSel.addEventListener('change', () => setLang(langSel.value));
  return section('settings-appearance', t('settings.appearance'),
    h('div', { class: 'field' }, h('label', { for: 'settings-lang' }, t('settings.language')), langSel),
    radioGroup('theme', t('settings.theme'), THEMES, getTheme(), setTheme),
    radioGroup('colors', t('settings.colors'), COLORS, getColors(), setColors),
    h('p', { class: 'hint' }, t('settings.browser_only')));
}

function engine(e) {
  const rows = [
    [t('settings.engine_state'), e.running ? t('settings.engine_running') : t('settings.engine_none')],
    [t('settings.engine_here'), e.in_this_server ? t('common.yes') : t('common.no')],
    e.sim_speed != null ? [t('settings.sim_speed'), `${e.sim_speed}×`] : null,
    [t('settings.traders_running'), String(e.traders_running)],
  ].filter(Boolean);
  return section('settings-engine', t('settings.engine'),
    h('dl', { class: 'kv', id: 'engine-state' }, rows.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v)))),
    h('p', { class: 'hint' }, t('settings.engine_hint')));
}

function tokens(list, reload) {
  if (list.mode !== 'users') return section('settings-tokens', t('settings.tokens'), h('p', { class: 'muted' }, t('settings.tokens_local')));
  const held = (currentSession() && currentSession().scopes) || [];
  const form = h('form', { id: 'token-form', class: 'resource-form', novalidate: true },
    formError(),
    field({ name: 'label', label: t('settings.token_label'), required: true }),
    h('fieldset', { class: 'checks' }, h('legend', {}, t('settings.token_scopes')),
      ['read', 'write', 'trade'].filter((s) => held.includes(s)).map((s) => h('label', { class: 'radio' }, h('input', { type: 'checkbox', name: 'scopes', value: s, checked: s === 'read' }), ' ', t(`settings.scope_${s}`)))),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'btn primary' }, t('settings.token_create'))));
  const shown = h('div', { id: 'token-made', role: 'status', 'aria-live': 'polite' });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    setBusy(form, true);
    try {
      const data = new FormData(form);
      const r = await api.post('/api/tokens', { label: data.get('label') || '', scopes: data.getAll('scopes') });
      await reload('token-form');
      const box = document.getElementById('token-made');
      if (box) {
        const code = h('code', { id: 'token-text' }, r.text);
        box.replaceChildren(h('div', { class: 'alert' }, h('p', {}, t('settings.token_once')), code, ' ',
          h('button', { type: 'button', class: 'btn small', onclick: () => navigator.clipboard && navigator.clipboard.writeText(r.text) }, t('settings.copy'))));
      }
    } catch (err) {
      showErrors(form, err);
    } finally {
      setBusy(form, false);
    }
  });
  const rows = list.items.map((tk) => h('tr', {},
    h('td', {}, tk.label), h('td', {}, h('code', {}, `nofxi_${tk.id}_…`)), h('td', {}, tk.scopes.join(', ')),
    h('td', {}, fmtTime(tk.created_at)), h('td', {}, tk.last_used_at ? fmtTime(tk.last_used_at) : '—'),
    h('td', {}, tk.revoked_at ? t('settings.token_revoked') : h('button', { type: 'button', class: 'btn small danger', 'aria-label': t('settings.token_revoke_named', { name: tk.label }), onclick: async (e) => {
      e.target.disabled = true;
      try {
        await api.del(`/api/tokens/${enc(tk.id)}`);
        await reload();
      } catch (err) {
        notify(err.message, 'error');
        e.target.disabled = false;
      }
    } }, t('settings.token_revoke')))));
  const table = list.items.length
    ? tableWrap( h('table', { class: 'data', id: 'token-table' },
      h('thead', {}, h('tr', {}, ['token_label', 'token_id', 'token_scopes', 'token_created', 'token_used', 'actions'].map((k) => h('th', { scope: 'col' }, t(`settings.${k}`))))),
      h('tbody', {}, rows)))
    : h('p', { class: 'muted' }, t('settings.no_tokens'));
  return section('settings-tokens', t('settings.tokens'), table, form, shown);
}

export function mount(root) {
  const body = h('div', { class: 'settings-page' }, loading());
  root.append(pageHeader(t('settings.title')), body);
  let alive = true;

  async function load(focusId) {
    const [settings, list] = await Promise.allSettled([api.get('/api/settings'), api.get('/api/tokens')]);
    if (!alive) return;
    if (settings.status === 'rejected') return body.replaceChildren(errorBox(settings.reason));
    body.replaceChildren(
      assistantModel(settings.value, load),
      appearance(),
      engine(settings.value.engine),
      list.status === 'fulfilled' ? tokens(list.value, load) : errorBox(list.reason));
    // A form that was just used keeps the keyboard where it was.
    const again = focusId && document.querySelector(`#${focusId} button[type=submit]`);
    if (again) again.focus({ preventScroll: true });
  }

  load();
  return () => {
    alive = false;
  };
}
