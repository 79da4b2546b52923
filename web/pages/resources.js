// #/resources/<kind> — list, trash, create / edit forms, delete (two-step) and restore.
import { api, enc } from '../api.js';
import { twoStep } from '../confirm.js';
import { onControlChange, refusal, startStopButton } from '../controls.js';
import { errorBox, h, keepFocus, loading, nothingFocused, notify, pageHeader } from '../dom.js';
import { clearErrors, field, formError, opener, returnFocus, setBusy, showErrors } from '../forms.js';
import { fmtMoney, fmtTime, fmtValue } from '../format.js';
import { pricesLabel } from '../prices.js';
import { t, tOr } from '../i18n.js';
import { modelBinding, stateBadge, tableWrap } from '../widgets.js';
import { readStrategy, strategyEditor, strategyErrors } from '../strategy-form.js';
import { probeOutput, testButton } from '../probe.js';

export const KINDS = ['exchanges', 'models', 'strategies', 'traders'];
const SINGULAR = { exchanges: 'exchange', models: 'model', strategies: 'strategy', traders: 'trader' };

const yesNo = (v) => h('span', { class: `badge ${v ? 'tone-ok' : 'tone-idle'}` }, v ? t('common.yes') : t('common.no'));
const label = (o) => (o ? o.name || o.account_name || o.id : '—');

function columns(kind, ctx) {
  const byId = (list, id) => label(list.find((x) => x.id === id || x.name === id)) || id;
  switch (kind) {
    case 'exchanges':
      return [
        ['account_name', (o) => h('strong', {}, o.account_name)],
        ['exchange_type', (o) => [typeName(ctx, o.exchange_type), cannotTrade(ctx, o.exchange_type) ? [' ', h('span', { class: 'badge tone-warn', title: t('resources.cannot_trade_hint') }, t('resources.cannot_trade'))] : null]],
        ['market', (o) => (o.exchange_type === 'paper' ? h('span', { class: 'prices-source' }, pricesLabel(o.market)) : t('prices.own'))],
        // A paper account has no testnet: the column says nothing for it.
        ['testnet', (o) => (o.exchange_type === 'paper' ? '—' : yesNo(o.testnet))],
        ['enabled', (o) => yesNo(o.enabled)],
        ['credentials', (o) => credSummary(o)],
        ['updated_at', (o) => fmtTime(o.updated_at)],
      ];
    case 'models':
      return [
        ['name', (o) => h('strong', {}, o.name)],
        ['provider', (o) => providerName(ctx, o.provider)],
        ['model_name', (o) => o.effective_model_name || o.model_name || '—'],
        ['base_url', (o) => h('code', {}, o.effective_base_url || o.base_url || '—')],
        ['api_key', (o) => (o.has_api_key ? h('code', {}, o.api_key_masked || '••••') : t('resources.no_key'))],
        ['enabled', (o) => yesNo(o.enabled)],
      ];
    case 'strategies':
      return [
        ['name', (o) => h('strong', {}, o.name)],
        ['description', (o) => o.description || '—'],
        ['is_active', (o) => yesNo(o.is_active)],
      ];
    default:
      return [
        // Why its last start or stop was refused, in words, under its name.
        ['name', (o) => [h('a', { href: `#/traders/${enc(o.id)}` }, h('strong', {}, o.name)), refusal(o)]],
        ['exchange_id', (o) => byId(ctx.exchanges, o.exchange_id)],
        // As the engine uses it: a running trader's new model shows as pending until its next cycle.
        ['ai_model_id', (o) => modelBinding(byId(ctx.models, o.ai_model_id), (ctx.status || {})[o.id])],
        ['strategy_id', (o) => byId(ctx.strategies, o.strategy_id)],
        ['initial_balance', (o) => fmtMoney(o.initial_balance)],
        ['scan_interval_minutes', (o) => fmtValue(o.scan_interval_minutes)],
        ['is_running', (o) => stateBadge(o.is_running ? 'running' : 'stopped')],
      ];
  }
}

// A credential field in the words of its exchange: Hyperliquid's `api_key` is the agent
// wallet's private key, and its hint says which wallet; other types use the common label.
const credLabel = (type, c) => tOr(`exchange_field.${type}.${c}`, tOr(`field.${c}`, c));
const credHint = (type, c) => tOr(`exchange_hint.${type}.${c}`, t('resources.secret_hint'));

function credSummary(o) {
  const creds = Object.entries(o.credentials || {});
  if (!creds.length) return t('resources.no_credentials');
  return h('span', { class: 'creds' }, creds.map(([k, c]) => h('code', { title: credLabel(o.exchange_type, k) }, c && c.present ? c.masked || '••••' : t('resources.missing'))),
    o.credentials_complete === false ? h('span', { class: 'badge tone-warn' }, t('resources.incomplete')) : null);
}

const cap = (s) => String(s || '').replace(/^./, (c) => c.toUpperCase());
const typeName = (ctx, id) => { const ty = ctx.types.find((x) => x.id === id); return tOr(`exchange_type.${id}`, (ty && ty.name) || cap(id)); };
// A type nofxi does not trade on: an account an earlier nofxi made, kept as a config.
const cannotTrade = (ctx, id) => ctx.types.some((x) => x.id === id && x.can_trade === false);
const providerName = (ctx, id) => label(ctx.providers.find((x) => x.id === id)) || id;

function formFor(kind, ctx, obj) {
  const edit = !!obj;
  const o = obj || {};
  const one = SINGULAR[kind];
  const form = h('form', { id: `${one}-form`, class: 'resource-form', novalidate: true });
  const f = (name, opts = {}) => field({ name, label: tOr(`field.${name}`, name), value: o[name], ...opts });
  const fields = [];

  if (kind === 'exchanges') {
    const known = ctx.types.length ? ctx.types : [{ id: 'paper', name: 'Paper', credentials: [], offered: true }];
    // A new account may be only of a type offered for one (the ones nofxi trades on); an
    // account being edited keeps its own type, which then says it cannot trade.
    const types = known.filter((x) => x.offered !== false || (edit && x.id === o.exchange_type));
    const typeField = f('exchange_type', { type: 'select', required: true, value: o.exchange_type || types[0].id, options: types.map((x) => ({ value: x.id, label: typeName(ctx, x.id) + (x.can_trade === false ? ` (${t('resources.cannot_trade')})` : '') })), attrs: { disabled: edit } });
    const credBox = h('div', { class: 'cred-box' });
    const drawCreds = () => {
      const ty = types.find((x) => x.id === typeField.querySelector('select').value) || {};
      const creds = ty.credentials || [];
      credBox.replaceChildren(...creds.map((c) => {
        const cur = o.credentials && o.credentials[c];
        return field({ name: c, label: credLabel(ty.id, c), type: 'password', required: !edit, placeholder: cur && cur.present ? cur.masked : '', hint: edit ? t('resources.keep_secret') : credHint(ty.id, c) });
      }));
      credBox.hidden = !creds.length;
    };
    // A paper account's market source: the choices the server lists for the type, none for a
    // type that trades on its own venue's prices (the field is then hidden and not sent).
    const marketField = f('market', { type: 'select', value: o.market || 'simulated', hint: t('prices.hint'), options: [] });
    const drawMarket = () => {
      const ty = types.find((x) => x.id === typeField.querySelector('select').value) || {};
      const markets = ty.markets || [];
      const select = marketField.querySelector('select');
      const keep = select.value || o.market || 'simulated';
      select.replaceChildren(...markets.map((m) => h('option', { value: m }, pricesLabel(m))));
      if (markets.includes(keep)) select.value = keep;
      marketField.hidden = !markets.length;
    };
    typeField.querySelector('select').addEventListener('change', () => (drawCreds(), drawMarket()));
    drawCreds();
    drawMarket();
    // Testnet is a venue's: a paper account has none, so the box shows for the others only.
    const testnetField = f('testnet', { type: 'checkbox' });
    const drawTestnet = () => (testnetField.hidden = typeField.querySelector('select').value === 'paper');
    typeField.querySelector('select').addEventListener('change', drawTestnet);
    drawTestnet();
    fields.push(typeField, marketField, f('account_name', { required: true, placeholder: 'main' }), testnetField);
    if (edit) fields.push(f('enabled', { type: 'checkbox' }));
    fields.push(credBox);
  } else if (kind === 'models') {
    const provs = ctx.providers.length ? ctx.providers : [{ id: 'builtin', name: 'Builtin', needs_api_key: false }];
    const provField = f('provider', { type: 'select', required: true, value: o.provider || provs[0].id, options: provs.map((p) => ({ value: p.id, label: p.name || p.id })) });
    const modelField = f('model_name');
    const urlField = f('base_url', { placeholder: t('resources.default_placeholder'), attrs: { inputmode: 'url' } });
    const keyField = field({ name: 'api_key', label: t('field.api_key'), type: 'password', placeholder: o.has_api_key ? o.api_key_masked : '', hint: edit ? t('resources.keep_secret') : t('resources.secret_hint') });
    const sync = () => {
      const p = provs.find((x) => x.id === provField.querySelector('select').value) || {};
      modelField.querySelector('input').placeholder = p.default_model || '';
      urlField.querySelector('input').placeholder = p.default_base_url || t('resources.default_placeholder');
      keyField.hidden = p.id === 'builtin' && !o.has_api_key;
      // The builtin decider runs offline on its one rule set: no endpoint, no model to name.
      urlField.hidden = p.id === 'builtin';
      modelField.hidden = p.id === 'builtin';
      keyField.querySelector('input').required = !!p.needs_api_key && !o.has_api_key;
    };
    provField.querySelector('select').addEventListener('change', sync);
    sync();
    fields.push(f('name', { required: true }), provField, modelField, urlField, keyField);
    if (edit) fields.push(f('enabled', { type: 'checkbox' }));
  } else if (kind === 'strategies') {
    // The config as a form (coins, timeframes, indicators, limits, prompts), JSON as Advanced.
    fields.push(f('name', { required: true }), f('description', { type: 'textarea', rows: 2 }), strategyEditor(obj));
  } else {
    const opts = (list) => [{ value: '', label: t('resources.choose') }, ...list.map((x) => ({ value: x.id, label: label(x) }))];
    fields.push(
      f('name', { required: true, placeholder: 'btc-bot' }),
      f('exchange_id', { type: 'select', required: true, options: opts(ctx.exchanges) }),
      f('ai_model_id', { type: 'select', required: true, options: opts(ctx.models) }),
      f('strategy_id', { type: 'select', required: true, options: opts(ctx.strategies) }),
      f('initial_balance', { required: true, value: o.initial_balance ?? '1000', attrs: { inputmode: 'decimal' } }),
      f('scan_interval_minutes', { type: 'number', required: true, value: o.scan_interval_minutes ?? 5, attrs: { min: 1, step: 1 } }),
    );
  }

  form.append(
    formError(),
    ...fields,
    h('div', { class: 'form-actions' },
      h('button', { type: 'submit', class: 'btn primary' }, edit ? t('common.save') : t('common.create')),
      edit ? h('button', { type: 'button', class: 'btn', 'data-action': 'cancel-edit' }, t('common.cancel')) : null));
  return form;
}

/** Reads the form into an API body; on edit only the changed fields (secrets only when typed). */
function readForm(form, kind, obj) {
  const body = {};
  for (const el of form.elements) {
    if (!el.name || el.disabled || el.closest('[hidden]')) continue;
    let v = el.type === 'checkbox' ? el.checked : el.value;
    if (el.type === 'password') {
      if (v) body[el.name] = v;
      continue;
    }
    if (el.name === 'scan_interval_minutes' && v !== '') v = Number(v);
    // An amount typed with grouping ("1,000", "1 000", "1，000") is that amount.
    if (el.name === 'initial_balance') v = v.replace(/[\s,，_]/g, '');
    if (obj) {
      const old = obj[el.name];
      if ((old ?? '') === v || String(old ?? '') === String(v)) continue;
    } else if (v === '' && !el.required) continue;
    body[el.name] = v;
  }
  return body;
}

export function mount(root, { kind }) {
  const state = { trash: false, items: [], ctx: { types: [], providers: [], exchanges: [], models: [], strategies: [] }, editing: null };
  const tabs = h('nav', { class: 'tabs', 'aria-label': t('resources.title') },
    KINDS.map((k) => h('a', { href: `#/resources/${k}`, 'aria-current': k === kind ? 'page' : null }, t(`resources.kind.${k}`))));
  const trashBtn = h('button', { type: 'button', class: 'btn', 'aria-pressed': 'false', onclick: () => { state.trash = !state.trash; loadList(); } });
  const listTitle = h('h2', { id: 'list-title', tabindex: '-1' });
  const list = h('div', { class: 'resource-list' }, loading());
  // A row's Test says its result here, outside the table the refreshes redraw.
  const probed = kind === 'models' || kind === 'exchanges' ? probeOutput('probe-out') : null;
  const formTitle = h('h2', { id: 'form-title' });
  const formSlot = h('div');
  root.append(
    pageHeader(t('resources.title')),
    tabs,
    h('div', { class: 'resources-layout' },
      h('section', { class: 'card', 'aria-labelledby': 'list-title' }, h('div', { class: 'section-head' }, listTitle, trashBtn), probed, list),
      h('section', { class: 'card form-card', 'aria-labelledby': 'form-title' }, formTitle, formSlot)));
  let alive = true;
  let recheck = null;
  // Starting… / Stopping… at once, the trader's new state once done.
  const offControls = kind === 'traders' ? onControlChange(() => {
    if (!alive || state.trash) return;
    keepFocus(list, renderList);
    loadList();
  }) : () => {};

  async function loadCtx() {
    const want = { types: '/api/exchange-types', providers: '/api/providers', exchanges: '/api/exchanges', models: '/api/models', strategies: '/api/strategies' };
    const need = kind === 'exchanges' ? ['types'] : kind === 'models' ? ['providers'] : kind === 'traders' ? ['exchanges', 'models', 'strategies'] : [];
    const res = await Promise.allSettled(need.map((k) => api.get(want[k])));
    need.forEach((k, i) => (state.ctx[k] = res[i].status === 'fulfilled' ? res[i].value.items || [] : []));
  }

  async function loadList() {
    trashBtn.textContent = state.trash ? t('resources.show_active') : t('resources.show_trash');
    trashBtn.setAttribute('aria-pressed', String(state.trash));
    listTitle.textContent = state.trash ? t('resources.trash_of', { kind: t(`resources.kind.${kind}`) }) : t(`resources.kind.${kind}`);
    try {
      const r = await api.get(`/api/${kind}${state.trash ? '?deleted=true' : ''}`);
      if (!alive) return;
      state.items = (r && r.items) || [];
      if (kind === 'traders' && !state.trash) await loadStatuses();
      if (!alive) return;
      keepFocus(list, renderList);
    } catch (err) {
      if (alive) list.replaceChildren(errorBox(err));
    }
  }

  /**
   * What the engine says of each running trader: the model it decides with until its next
   * cycle. While a change waits for that cycle, read again until it is taken.
   */
  async function loadStatuses() {
    const running = state.items.filter((o) => o.is_running);
    const res = await Promise.allSettled(running.map((o) => api.get(`/api/traders/${enc(o.id)}/status`)));
    state.ctx.status = Object.fromEntries(running.map((o, i) => [o.id, res[i].status === 'fulfilled' ? res[i].value : null]));
    clearTimeout(recheck);
    if (!Object.values(state.ctx.status).some((st) => st && st.model_pending)) return;
    recheck = setTimeout(async () => {
      if (!alive) return;
      await loadStatuses();
      if (alive && !state.trash) keepFocus(list, renderList);
    }, 2000);
  }

  function renderList() {
    if (!state.items.length) {
      list.replaceChildren(h('p', { class: 'muted empty-note' }, state.trash ? t('resources.trash_empty') : t(`resources.empty.${kind}`)));
      return;
    }
    const cols = columns(kind, state.ctx);
    const head = (c) => tOr(`col.${c}`, tOr(`field.${c}`, c));
    list.replaceChildren(tableWrap(
      h('table', { class: 'data cards-on-mobile resource-table' },
        h('thead', {}, h('tr', {}, cols.map(([c]) => h('th', { scope: 'col' }, head(c))), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('common.actions'))))),
        h('tbody', {}, state.items.map((o) =>
          h('tr', { 'data-id': o.id },
            cols.map(([c, fn]) => h('td', { 'data-label': head(c) }, fn(o))),
            h('td', { class: 'row-actions' },
              state.trash
                ? h('button', { type: 'button', class: 'btn small', onclick: () => restore(o) }, t('resources.restore'))
                : [
                    // A trader starts and stops here too, asked as the chat asks.
                    kind === 'traders' ? startStopButton(o, o.is_running, { small: true, live: liveAccount(o) }) : null,
                    probed ? testButton(kind, o.id, label(o), probed) : null,
                    h('button', { type: 'button', class: 'btn small', 'aria-label': t('resources.edit_named', { name: label(o) }), onclick: () => startEdit(o) }, t('resources.edit')),
                    h('button', { type: 'button', class: 'btn small danger', 'aria-label': t('resources.delete_named', { name: label(o) }), onclick: () => remove(o) }, t('resources.delete')),
                  ])))))));
  }

  /** A trader on an exchange account (real or test money): its start is asked first. */
  function liveAccount(o) {
    const ex = state.ctx.exchanges.find((x) => x.id === o.exchange_id);
    return !!ex && ex.exchange_type !== 'paper';
  }

  function showForm(obj) {
    state.editing = obj;
    formTitle.textContent = obj ? t('resources.edit_title', { name: label(obj) }) : t(`resources.new.${kind}`);
    const form = formFor(kind, state.ctx, obj);
    form.addEventListener('submit', (e) => (e.preventDefault(), submit(form)));
    const cancel = form.querySelector('[data-action="cancel-edit"]');
    if (cancel) cancel.addEventListener('click', closeForm);
    formSlot.replaceChildren(form);
    return form;
  }

  /** Puts the edit form away: a blank form for a new one, focus back on what opened it. */
  function closeForm() {
    const back = state.opener;
    state.opener = null;
    showForm(null);
    returnFocus(back, formSlot.querySelector('input:not([disabled]), select:not([disabled]), textarea'));
  }

  async function startEdit(o) {
    state.opener = opener();
    let full = o;
    try {
      full = await api.get(`/api/${kind}/${enc(o.id)}`);
    } catch {
      /* fall back to the list row */
    }
    const form = showForm(full);
    form.scrollIntoView({ behavior: 'smooth', block: 'start' });
    const first = form.querySelector('input:not([disabled]), select:not([disabled]), textarea');
    if (first) first.focus({ preventScroll: true });
  }

  async function submit(form) {
    clearErrors(form);
    let body;
    const obj = state.editing;
    const problems = kind === 'strategies' ? strategyErrors : showErrors;
    try {
      body = kind === 'strategies' ? await readStrategy(form, obj) : readForm(form, kind, obj);
    } catch (err) {
      return problems(form, err);
    }
    if (obj && !Object.keys(body).length) return closeForm();
    setBusy(form, true);
    try {
      // An edit the server asks about (a trader's model, account, strategy, interval…, by the
      // chat's own rule) shows its summary first; Cancel changes nothing and keeps the form.
      const ask = { body, title: t('resources.confirm_edit_title'), confirmLabel: t('common.save') };
      const r = obj ? await twoStep('PATCH', `/api/${kind}/${enc(obj.id)}`, ask) : await api.post(`/api/${kind}`, body);
      if (obj && r === null) return notify(t('resources.not_changed'), 'info');
      notify(t(obj ? 'resources.saved' : 'resources.created', { name: label(r || obj) }), 'ok');
      closeForm();
      state.trash = false;
      await loadList();
    } catch (err) {
      problems(form, err);
    } finally {
      setBusy(form, false);
    }
  }

  async function remove(o) {
    try {
      const r = await twoStep('DELETE', `/api/${kind}/${enc(o.id)}`, { title: t('resources.delete_title'), confirmLabel: t('resources.delete'), danger: true });
      if (r) notify(t('resources.deleted', { name: label(o) }), 'ok');
    } catch (err) {
      notify(err.message, 'error');
    }
    if (state.editing && state.editing.id === o.id) showForm(null);
    await loadList();
    // The row went to the trash with its buttons: focus goes to the list it was in.
    if (nothingFocused()) listTitle.focus({ preventScroll: true });
  }

  async function restore(o) {
    try {
      await api.post(`/api/${kind}/${enc(o.id)}/restore`, {});
      notify(t('resources.restored', { name: label(o) }), 'ok');
    } catch (err) {
      notify(err.message, 'error');
    }
    await loadList();
    if (nothingFocused()) listTitle.focus({ preventScroll: true });
  }

  (async () => {
    await loadCtx();
    if (!alive) return;
    showForm(null);
    loadList();
  })();
  return () => {
    alive = false;
    clearTimeout(recheck);
    offControls();
  };
}
