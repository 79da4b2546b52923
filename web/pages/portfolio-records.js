// A portfolio's records, newest first, each with a Correct button that opens the record form
// filled with it (the server keeps the corrected record in the original's place).
import { api, enc } from '../api.js';
import { errorBox, h, loading } from '../dom.js';
import { fmtQty } from '../format.js';
import { t } from '../i18n.js';
import { tableWrap } from '../widgets.js';

/** How many records show before "Show all". */
const FIRST = 20;
const CASH = ['DIVIDEND', 'DEPOSIT', 'WITHDRAWAL', 'FEE', 'INTEREST'];

function table(items, onCorrect) {
  const cols = ['date', 'type', 'code', 'quantity', 'price', 'amount', 'fee', 'account', 'note'];
  const cell = (c, content) => h('td', { 'data-col': c, 'data-label': t(`portfolio.col_${c}`) }, content);
  return tableWrap(
    h('table', { class: 'data cards-on-mobile', id: 'records-table' },
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, t(`portfolio.col_${c}`))), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('common.actions'))))),
      h('tbody', {}, items.map((r) => {
        const code = r.instrument ? `${r.instrument.market}:${r.instrument.symbol}` : '—';
        const cash = CASH.includes(r.kind);
        const what = `${r.date} ${t(`portfolio.kind_${r.kind}`)} ${r.instrument ? code : ''}`.trim();
        return h('tr', { 'data-record': r.id, 'data-kind': r.kind },
          cell('date', r.date),
          cell('type', t(`portfolio.kind_${r.kind}`)),
          cell('code', code),
          cell('quantity', cash ? '—' : fmtQty(r.quantity)),
          cell('price', cash ? '—' : r.price),
          cell('amount', cash ? `${r.amount} ${r.currency}` : '—'),
          cell('fee', r.fee == null ? t('portfolio.fee_computed') : r.fee),
          cell('account', r.account),
          cell('note', r.note || ''),
          h('td', { class: 'row-actions' },
            h('button', { type: 'button', class: 'btn small', 'data-action': 'correct', 'aria-label': t('portfolio.correct_named', { what }), onclick: () => onCorrect(r) }, t('portfolio.correct'))));
      }))));
}

/** The records section of `portfolio`; `onCorrect(record)` opens a correction. */
export function recordsSection(portfolio, onCorrect) {
  const body = h('div', {}, loading());
  let all = false;
  const render = (items) => {
    const newest = [...items].reverse();
    const shown = all ? newest : newest.slice(0, FIRST);
    const more = shown.length < newest.length
      ? h('p', {}, h('button', { type: 'button', class: 'btn', id: 'records-all', onclick: () => { all = true; render(items); } }, t('portfolio.records_all', { count: newest.length })))
      : '';
    body.replaceChildren(items.length ? table(shown, onCorrect) : h('p', { class: 'empty-note' }, t('portfolio.no_records')), more);
  };
  api.get(`/api/portfolios/${enc(portfolio.name)}/records`)
    .then((data) => render((data && data.items) || []))
    .catch((err) => body.replaceChildren(errorBox(err)));
  return h('section', { class: 'card', 'aria-labelledby': 'portfolio-records' },
    h('h2', { id: 'portfolio-records' }, t('portfolio.records')),
    h('p', { class: 'muted' }, t('portfolio.records_note')),
    body);
}
