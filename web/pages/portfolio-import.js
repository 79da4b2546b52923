// A broker's CSV uploaded to a portfolio: read here (UTF-8, else GBK as Chinese brokers export
// it, as `nofxi portfolio import` reads a file), previewed by the server — new rows, rows already
// recorded (skipped), every line's problems with its fix — and written only when confirmed.
import { api, enc } from '../api.js';
import { h } from '../dom.js';
import { fmtQty } from '../format.js';
import { t } from '../i18n.js';
import { tableWrap } from '../widgets.js';

/** The server's limit on a request body. */
const MAX_BODY = 2 * 1024 * 1024;

/** The file's text: UTF-8 (with or without a byte-order mark), else GBK; null when neither. */
async function readText(file) {
  const bytes = await file.arrayBuffer();
  for (const encoding of ['utf-8', 'gbk']) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      /* the next encoding */
    }
  }
  return null;
}

const alert = (kind, text) => h('div', { class: `alert ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);

function errorsTable(errors) {
  const rows = errors.flatMap((e) => e.problems.map((p) => h('tr', { 'data-line': e.line, 'data-field': p.field },
    h('td', { 'data-label': t('portfolio.col_line') }, String(e.line)),
    h('td', { 'data-label': t('portfolio.col_field') }, p.field),
    h('td', { 'data-label': t('portfolio.col_problem') }, p.problem),
    h('td', { 'data-label': t('portfolio.col_fix') }, p.fix))));
  return tableWrap(
    h('h3', { id: 'import-errors-title' }, t('portfolio.import_errors_caption')),
    h('table', { class: 'data cards-on-mobile', id: 'import-errors', 'aria-labelledby': 'import-errors-title' },
      h('thead', {}, h('tr', {}, ['line', 'field', 'problem', 'fix'].map((c) => h('th', { scope: 'col' }, t(`portfolio.col_${c}`))))),
      h('tbody', {}, rows)));
}

function rowsTable(rows) {
  const cols = ['line', 'status', 'date', 'type', 'code', 'quantity', 'price', 'amount', 'account'];
  const cell = (c, content) => h('td', { 'data-col': c, 'data-label': t(`portfolio.col_${c}`) }, content);
  return tableWrap(
    h('h3', { id: 'import-rows-title' }, t('portfolio.import_rows_caption')),
    h('table', { class: 'data cards-on-mobile', id: 'import-rows', 'aria-labelledby': 'import-rows-title' },
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, t(`portfolio.col_${c}`))))),
      h('tbody', {}, rows.map((r) => {
        const x = r.transaction;
        const code = x.instrument ? `${x.instrument.market}:${x.instrument.symbol}` : '—';
        const cash = ['DIVIDEND', 'DEPOSIT', 'WITHDRAWAL', 'FEE', 'INTEREST'].includes(x.kind);
        return h('tr', { 'data-line': r.line, 'data-status': r.status },
          cell('line', String(r.line)),
          cell('status', h('span', { class: `badge ${r.status === 'new' ? 'tone-ok' : ''}` }, t(`portfolio.status_${r.status}`))),
          cell('date', x.date),
          cell('type', t(`portfolio.kind_${x.kind}`)),
          cell('code', code),
          cell('quantity', cash ? '—' : fmtQty(x.quantity)),
          cell('price', cash ? '—' : x.price),
          cell('amount', cash ? `${x.amount} ${x.currency}` : '—'),
          cell('account', x.account));
      }))));
}

/** What the preview says, and the button that writes it. */
function previewView(plan, confirm) {
  const problems = plan.errors.length;
  const parts = [
    h('p', { class: 'import-summary', id: 'import-summary' },
      t('portfolio.import_summary', { new: plan.new, duplicates: plan.duplicates, problems })),
    plan.unknown_columns.length ? h('p', { class: 'muted' }, t('portfolio.import_unknown_columns', { columns: plan.unknown_columns.join(', ') })) : null,
    problems ? alert('error', t('portfolio.import_has_problems', { problems })) : null,
    problems ? errorsTable(plan.errors) : null,
    plan.duplicates ? h('p', { class: 'muted' }, t('portfolio.import_duplicates_note')) : null,
    plan.rows.length ? rowsTable(plan.rows) : null,
    plan.rows_total > plan.rows.length ? h('p', { class: 'muted' }, t('portfolio.import_rows_more', { shown: plan.rows.length, total: plan.rows_total })) : null,
  ];
  const button = h('button', { type: 'button', class: 'btn primary', id: 'import-confirm', disabled: problems > 0 || plan.new === 0, onclick: confirm },
    t('portfolio.import_confirm', { count: plan.new }));
  return [...parts.filter(Boolean), h('div', { class: 'form-actions' }, button)];
}

/** The upload panel of `portfolio`; `done(reply)` after a confirmed import. */
export function importPanel(portfolio, done, onCancel) {
  const input = h('input', { type: 'file', id: 'csv-file', name: 'file', accept: '.csv,.txt,text/csv,text/plain' });
  const result = h('div', { class: 'import-result', 'aria-live': 'polite' });
  let text = null;
  const send = (confirm) => api.post(`/api/portfolios/${enc(portfolio.name)}/import`, { csv: text, confirm });
  const show = (...nodes) => result.replaceChildren(...nodes);

  async function confirm(e) {
    e.currentTarget.disabled = true;
    try {
      const reply = await send(true);
      show(alert('ok', t('portfolio.import_done', { written: reply.written, duplicates: reply.duplicates })));
      done(reply);
    } catch (err) {
      show(alert('error', err.message));
    }
  }

  input.addEventListener('change', async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    show(h('p', { class: 'muted loading' }, t('portfolio.import_reading', { file: file.name })));
    text = await readText(file);
    if (text == null) return show(alert('error', t('portfolio.import_not_text', { file: file.name })));
    if (new Blob([JSON.stringify({ csv: text, confirm: true })]).size > MAX_BODY) {
      return show(alert('error', t('portfolio.import_too_big', { file: file.name })));
    }
    try {
      show(...previewView(await send(false), confirm));
    } catch (err) {
      show(alert('error', err.message));
    }
  });

  return h('div', { class: 'import-panel', id: 'import-panel' },
    h('div', { class: 'field' },
      h('label', { for: 'csv-file' }, t('portfolio.import_file')),
      input,
      h('p', { class: 'hint' }, t('portfolio.import_hint'))),
    result,
    onCancel ? h('div', { class: 'form-actions' }, h('button', { type: 'button', class: 'btn', onclick: onCancel }, t('common.cancel'))) : null);
}
