// The portfolio page's forms: a new portfolio, an account, one record (new or a correction),
// a price, an exchange rate. The server reads and checks every field (a record as the line of
// a CSV import, with the CLI's messages); a form only lays fields out and puts each refusal
// under the field it names.
import { api, enc } from '../api.js';
import { h } from '../dom.js';
import { clearErrors, field, formError, setBusy, showErrors } from '../forms.js';
import { t } from '../i18n.js';

const METHODS = ['fifo', 'average', 'lifo', 'hifo', 'specific'];
const KINDS = ['BUY', 'SELL', 'DIVIDEND', 'DEPOSIT', 'WITHDRAWAL', 'FEE', 'INTEREST', 'SPLIT', 'TRANSFER_IN', 'TRANSFER_OUT'];
const MARKETS = ['SH', 'SZ', 'BJ', 'HK', 'US', 'FUND', 'CRYPTO'];
/** The fields each kind of record takes (the others are hidden and not sent). */
const KIND_FIELDS = {
  trade: ['symbol', 'market', 'quantity', 'price', 'fee'],
  cash: ['amount'],
  DIVIDEND: ['symbol', 'market', 'amount', 'tax'],
  SPLIT: ['symbol', 'market', 'quantity'],
  TRANSFER_OUT: ['symbol', 'market', 'quantity'],
};
const fieldsOf = (kind) => KIND_FIELDS[kind] || (['DEPOSIT', 'WITHDRAWAL', 'FEE', 'INTEREST'].includes(kind) ? KIND_FIELDS.cash : KIND_FIELDS.trade);

/** Today on this computer's calendar, YYYY-MM-DD. */
export const today = () => new Date().toLocaleDateString('en-CA');

/** Where the server's field names sit in these forms. */
function formField(name) {
  if (name.startsWith('accounts')) return 'accounts';
  if (name.startsWith('instrument')) return 'symbol';
  return name;
}

/** Submits `form` with `send()`; refusals go under their fields, success to `done`. */
function wire(form, send, done) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    setBusy(form, true);
    try {
      done(await send());
    } catch (err) {
      const problems = (err.problems || []).map((p) => ({ ...p, field: formField(p.field) }));
      if (problems.some((p) => p.field === 'again')) form.querySelector('[data-name=again]')?.removeAttribute('hidden');
      showErrors(form, { message: err.message, problems });
    } finally {
      setBusy(form, false);
    }
  });
  return form;
}

function actions(submitKey, onCancel) {
  return h('div', { class: 'form-actions' },
    h('button', { type: 'submit', class: 'btn primary' }, t(submitKey)),
    onCancel ? h('button', { type: 'button', class: 'btn', onclick: onCancel }, t('common.cancel')) : null);
}

const value = (form, name) => {
  const el = form.elements[name];
  return el ? (el.type === 'checkbox' ? el.checked : el.value.trim()) : '';
};

/** "huatai, futu:HKD" → [{name: 'huatai'}, {name: 'futu', currency: 'HKD'}]. */
function accountList(text) {
  return text.split(/[,，\n]/).map((s) => s.trim()).filter(Boolean).map((spec) => {
    const at = spec.lastIndexOf(':');
    return at > 0 ? { name: spec.slice(0, at).trim(), currency: spec.slice(at + 1).trim() } : { name: spec };
  });
}

/** A new portfolio; `done(summary)` once created. */
export function newPortfolioForm(done, onCancel) {
  const form = h('form', { class: 'form portfolio-form', id: 'new-portfolio-form', novalidate: true },
    formError(),
    h('div', { class: 'field-row' },
      field({ name: 'name', label: t('portfolio.f_name'), required: true, placeholder: 'mine' }),
      field({ name: 'base_currency', label: t('portfolio.f_base_currency'), value: 'CNY', hint: t('portfolio.f_currency_hint') })),
    h('div', { class: 'field-row' },
      field({ name: 'cost_method', label: t('portfolio.f_cost_method'), type: 'select', value: 'fifo', options: METHODS.map((m) => ({ value: m, label: t(`portfolio.method_${m}`) })) }),
      field({ name: 'accounts', label: t('portfolio.f_accounts'), placeholder: 'huatai, futu:HKD', hint: t('portfolio.f_accounts_hint') })),
    actions('portfolio.create', onCancel));
  return wire(form, () => {
    const body = { name: value(form, 'name'), base_currency: value(form, 'base_currency'), cost_method: value(form, 'cost_method') };
    const accounts = accountList(value(form, 'accounts'));
    if (accounts.length) body.accounts = accounts;
    return api.post('/api/portfolios', body);
  }, done);
}

/** An account added to `portfolio`. */
export function accountForm(portfolio, done, onCancel) {
  const form = h('form', { class: 'form portfolio-form', id: 'account-form', novalidate: true },
    formError(),
    h('div', { class: 'field-row' },
      field({ name: 'name', label: t('portfolio.f_account_name'), required: true, placeholder: 'futu' }),
      field({ name: 'currency', label: t('portfolio.f_currency'), value: portfolio.base_currency, hint: t('portfolio.f_currency_hint') })),
    field({ name: 'broker', label: t('portfolio.f_broker') }),
    actions('portfolio.add_account', onCancel));
  return wire(form, () => api.post(`/api/portfolios/${enc(portfolio.name)}/accounts`,
    { name: value(form, 'name'), currency: value(form, 'currency'), broker: value(form, 'broker') }), done);
}

/** The values a stored record shows in the record form. */
function recordValues(r) {
  if (!r) return { type: 'BUY', date: today() };
  const i = r.instrument || {};
  return { type: r.kind, date: r.date, symbol: i.symbol || '', market: i.market || '', quantity: r.quantity, price: r.price, amount: r.amount, fee: r.fee ?? '', tax: r.tax, currency: r.currency, account: r.account, note: r.note };
}

/** One record, or the correction of `stored` ({id, ...record}); `done(reply)` once written. */
export function recordForm(portfolio, stored, done, onCancel) {
  const v = recordValues(stored);
  const accounts = portfolio.accounts || [];
  const f = (name, o = {}) => field({ name, label: t(`portfolio.f_${name}`), value: v[name] ?? '', ...o });
  const num = { attrs: { inputmode: 'decimal' } };
  const form = h('form', { class: 'form portfolio-form', id: 'record-form', novalidate: true, 'data-mode': stored ? 'correct' : 'record' },
    formError(),
    h('div', { class: 'field-row' },
      f('type', { type: 'select', required: true, options: KINDS.map((k) => ({ value: k, label: t(`portfolio.kind_${k}`) })) }),
      f('date', { type: 'date', required: true, attrs: { max: today() } })),
    h('div', { class: 'field-row' },
      f('symbol', { placeholder: '600519', hint: t('portfolio.f_symbol_hint') }),
      f('market', { type: 'select', options: [{ value: '', label: t('portfolio.f_market_auto') }, ...MARKETS.map((m) => ({ value: m, label: m }))] })),
    h('div', { class: 'field-row' }, f('quantity', num), f('price', num)),
    h('div', { class: 'field-row' }, f('amount', num), f('tax', num)),
    h('div', { class: 'field-row' },
      f('fee', { ...num, hint: t('portfolio.f_fee_hint') }),
      f('currency', { placeholder: portfolio.base_currency, hint: t('portfolio.f_record_currency_hint') })),
    accounts.length > 1
      ? f('account', { type: 'select', options: accounts.map((a) => ({ value: a.name, label: `${a.name} (${a.currency})` })) })
      : null,
    f('note'),
    field({ name: 'again', label: t('portfolio.f_again'), type: 'checkbox' }),
    actions(stored ? 'portfolio.save_correction' : 'portfolio.record', onCancel));
  form.querySelector('[data-name=again]').hidden = true;
  const kind = form.elements.namedItem('type');
  const sync = () => {
    const shown = fieldsOf(kind.value);
    for (const name of ['symbol', 'market', 'quantity', 'price', 'amount', 'tax', 'fee']) {
      form.querySelector(`[data-name=${name}]`).hidden = !shown.includes(name);
    }
  };
  kind.addEventListener('change', sync);
  sync();
  const path = `/api/portfolios/${enc(portfolio.name)}/records`;
  return wire(form, () => {
    const body = {};
    for (const el of form.elements) {
      if (!el.name || el.closest('[hidden]')) continue;
      body[el.name] = el.type === 'checkbox' ? el.checked : el.value.trim();
    }
    return stored ? api.request('PUT', `${path}/${enc(stored.id)}`, body) : api.post(path, body);
  }, done);
}

/** A price of one instrument on a day. */
export function priceForm(done, onCancel) {
  const form = h('form', { class: 'form portfolio-form', id: 'price-form', novalidate: true },
    formError(),
    h('div', { class: 'field-row' },
      field({ name: 'code', label: t('portfolio.f_code'), required: true, placeholder: '600519', hint: t('portfolio.f_code_hint') }),
      field({ name: 'price', label: t('portfolio.f_price'), required: true, attrs: { inputmode: 'decimal' } })),
    field({ name: 'date', label: t('portfolio.f_date'), type: 'date', value: today(), attrs: { max: today() } }),
    actions('portfolio.record_price', onCancel));
  return wire(form, () => api.post('/api/marks/prices',
    { code: value(form, 'code'), price: value(form, 'price'), date: value(form, 'date') }), done);
}

/** An exchange rate on a day: one `from` buys `rate` of `to`. */
export function rateForm(portfolio, done, onCancel) {
  const form = h('form', { class: 'form portfolio-form', id: 'rate-form', novalidate: true },
    formError(),
    h('div', { class: 'field-row' },
      field({ name: 'from', label: t('portfolio.f_from'), required: true, placeholder: 'HKD', hint: t('portfolio.f_currency_hint') }),
      field({ name: 'to', label: t('portfolio.f_to'), required: true, value: portfolio.base_currency })),
    h('div', { class: 'field-row' },
      field({ name: 'rate', label: t('portfolio.f_rate'), required: true, attrs: { inputmode: 'decimal' }, hint: t('portfolio.f_rate_hint') }),
      field({ name: 'date', label: t('portfolio.f_date'), type: 'date', value: today(), attrs: { max: today() } })),
    actions('portfolio.record_rate', onCancel));
  return wire(form, () => api.post('/api/marks/rates',
    { from: value(form, 'from'), to: value(form, 'to'), rate: value(form, 'rate'), date: value(form, 'date') }), done);
}
