// #/portfolio — the user's portfolios; #/portfolio/<name>[?on=YYYY-MM-DD] — one on a day:
// value, P&L with what each figure means, holdings, allocation, performance, returns, warnings.
// Every figure is the server's (the portfolio crate's snapshot, as `nofxi portfolio show`
// prints it); this page only lays it out and formats it. `#/portfolio?new=1` opens the list
// with the new-portfolio form; a portfolio's page has a bar of actions (upload a CSV, record
// or correct a record, record a price or a rate, add an account) and its records.
import { api, enc } from '../api.js';
import { lineChart } from '../chart.js';
import { errorBox, h, loading, pageHeader } from '../dom.js';
import { fmtMoney, fmtNum, fmtPct, fmtQty, fmtShortTime, fmtSigned, pnlClass, toNum } from '../format.js';
import { t, tOr } from '../i18n.js';
import { portfolioActions } from './portfolio-actions.js';
import { newPortfolioForm } from './portfolio-forms.js';
import { recordsSection } from './portfolio-records.js';
import { tableWrap } from '../widgets.js';

const NS = 'http://www.w3.org/2000/svg';
const PERIODS = ['today', 'month_to_date', 'year_to_date', 'one_year', 'all'];

/** `SH:600519`, as the CLI and the allocation name an instrument. */
const instrumentKey = (i) => `${i.market}:${i.symbol}`;
/** A ratio (0.0078) as a percent (+0.78%). */
const ratioPct = (v, signed = true) => fmtPct(toNum(v) * 100, signed);
/** A day on the chart's axis: the date alone (fmtShortTime's long-span form), never a time. */
const dayLabel = (ms) => fmtShortTime(ms, Infinity);
/** A YYYY-MM-DD day as a time at its local noon, so no time zone moves it to another day. */
function dayMs(date) {
  const [y, m, d] = String(date).split('-').map(Number);
  return new Date(y, m - 1, d, 12).getTime();
}

function svgEl(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, String(v));
  if (text != null) el.textContent = text;
  return el;
}

/** Horizontal bars, one per slice, widths by weight; drawn in a fixed viewBox that scales. */
function allocationChart(slices, label, id) {
  const rowH = 26;
  const W = 480;
  const labelW = 110;
  const valueW = 70;
  const H = Math.max(1, slices.length) * rowH + 4;
  const svg = svgEl('svg', { class: 'allocation-chart', id, role: 'img', 'aria-label': label, viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'xMinYMin meet' });
  const barMax = W - labelW - valueW;
  slices.forEach((s, i) => {
    const weight = Math.max(0, toNum(s.weight.value));
    const y = i * rowH + 4;
    const g = svgEl('g', { class: 'bar-row', 'data-label': s.label });
    g.append(svgEl('title', {}, `${labelOf(s.label)}: ${fmtMoney(s.value)} (${ratioPct(s.weight.value, false)})`));
    g.append(svgEl('text', { x: labelW - 8, y: y + rowH / 2 + 1, 'text-anchor': 'end', class: 'bar-label' }, labelOf(s.label)));
    g.append(svgEl('rect', { x: labelW, y: y + 3, width: Math.max(1, weight * barMax).toFixed(1), height: rowH - 10, rx: 3, class: `bar series-${i % 8}` }));
    g.append(svgEl('text', { x: W - 4, y: y + rowH / 2 + 1, 'text-anchor': 'end', class: 'bar-value' }, ratioPct(s.weight.value, false)));
    svg.append(g);
  });
  return svg;
}

/** The allocation's cash slice in words; markets and currencies keep their codes. */
const labelOf = (label) => (label === 'CASH' ? t('portfolio.cash') : label);

function warningText(w) {
  if (w.warning === 'old_price') return t('portfolio.warning_old_price', { instrument: w.instrument, date: w.priced_at });
  if (w.warning === 'no_returns') return t('portfolio.warning_no_returns', { reason: w.reason });
  if (w.warning === 'negative_cash') return t('portfolio.warning_negative_cash', { account: w.account, amount: fmtMoney(w.amount), currency: w.currency });
  return tOr(`portfolio.warning_${w.warning}`, w.warning);
}

function warnings(list) {
  if (!list || !list.length) return null;
  return h('div', { class: 'alert warn portfolio-warnings', role: 'status' },
    h('strong', {}, t('portfolio.warnings')),
    h('ul', {}, list.map((w) => h('li', { 'data-warning': w.warning }, warningText(w)))));
}

/** A headline figure with its basis: as the tooltip and as a small line under it. */
function kpi(key, value, cls, basis) {
  return h('div', { 'data-kpi': key },
    h('dt', {}, t(`portfolio.${key}`)),
    h('dd', { class: cls, title: basis || null }, value, basis ? h('p', { class: 'basis muted' }, basis) : null));
}

function headline(shot) {
  const d = shot.described || {};
  const ccy = shot.base_currency;
  return h('section', { class: 'card portfolio-head', 'aria-label': t('portfolio.summary') },
    h('dl', { class: 'kpis portfolio-kpis' },
      kpi('value', `${fmtMoney(shot.value)} ${ccy}`, '', null),
      kpi('unrealized', fmtSigned(shot.unrealized.value), pnlClass(shot.unrealized.value), d.unrealized),
      kpi('realized', fmtSigned(shot.realized.value), pnlClass(shot.realized.value), d.realized)),
    shot.cash && shot.cash.length
      ? h('p', { class: 'cash-line muted' }, t('portfolio.cash'), ': ',
          shot.cash.map((c) => `${c.account} ${fmtMoney(c.amount)} ${c.currency}`).join(' · '))
      : null,
    h('p', { class: 'meta muted' }, t('portfolio.meta', { records: shot.records, method: tOr(`portfolio.method_${shot.cost_method}`, shot.cost_method), currency: ccy })));
}

function section(id, titleKey, ...body) {
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, t(titleKey)), ...body);
}

function holdingsTable(shot) {
  if (!shot.holdings.length) return h('p', { class: 'empty-note' }, t('portfolio.no_holdings'));
  const weights = new Map((shot.allocation.holding || []).map((s) => [s.label, s.weight.value]));
  const d = (shot.described && shot.described.holdings) || [];
  const cols = ['code', 'account', 'quantity', 'unit_cost', 'price', 'value', 'unrealized', 'realized', 'currency', 'weight'];
  const label = (c) => t(`portfolio.col_${c}`);
  const cell = (c, content, attrs = {}) => h('td', { 'data-col': c, 'data-label': label(c), ...attrs }, content);
  const rows = shot.holdings.map((hd, i) => {
    const key = instrumentKey(hd.key.instrument);
    const open = toNum(hd.quantity) !== 0;
    const weight = weights.get(`${hd.key.account} ${key}`);
    const old = hd.priced_at && hd.priced_at < shot.on;
    return h('tr', { 'data-holding': key, 'data-account': hd.key.account, class: open ? null : 'sold-out' },
      cell('code', h('span', { class: 'sym' }, key)),
      cell('account', hd.key.account),
      cell('quantity', fmtQty(hd.quantity)),
      cell('unit_cost', open ? fmtNum(hd.unit_cost, 2, 6) : '—'),
      cell('price', open ? [fmtNum(hd.price, 2, 6), old ? h('small', { class: 'priced-at warn', title: t('portfolio.priced_at_title', { date: hd.priced_at }) }, ` (${hd.priced_at})`) : null] : '—'),
      cell('value', fmtMoney(hd.market_value)),
      cell('unrealized', fmtSigned(hd.unrealized.value), { class: pnlClass(hd.unrealized.value), title: d[i] ? d[i].unrealized : null }),
      cell('realized', fmtSigned(hd.realized.value), { class: pnlClass(hd.realized.value), title: d[i] ? d[i].realized : null }),
      cell('currency', hd.key.instrument.currency),
      cell('weight', weight != null ? ratioPct(weight, false) : '—'));
  });
  return tableWrap(
    h('table', { class: 'data cards-on-mobile holdings-table', id: 'holdings-table' },
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', class: numeric(c) ? 'num' : null }, label(c))))),
      h('tbody', {}, rows)));
}

const numeric = (c) => !['code', 'account', 'currency'].includes(c);

function allocation(shot) {
  const a = shot.allocation;
  const part = (by, slices) =>
    h('div', { class: 'allocation-part', 'data-by': by },
      h('h3', {}, t(`portfolio.by_${by}`)),
      slices.length ? allocationChart(slices, t('portfolio.allocation_label', { by: t(`portfolio.by_${by}`) }), `allocation-${by}`) : h('p', { class: 'muted' }, '—'));
  return section('portfolio-allocation', 'portfolio.allocation',
    h('div', { class: 'allocation-grid' }, part('market', a.market || []), part('currency', a.currency || [])),
    h('p', { class: 'basis muted' }, t('portfolio.allocation_note', { date: shot.on, currency: shot.base_currency })));
}

function performance(curve) {
  const points = (curve && curve.points) || [];
  if (!points.length) return section('portfolio-performance', 'portfolio.performance', h('p', { class: 'empty-note' }, t('portfolio.no_curve')));
  const series = [{ name: t('portfolio.twr'), points: points.map((p) => ({ t: dayMs(p.date), v: toNum(p.twr) * 100 })) }];
  const last = points[points.length - 1];
  return section('portfolio-performance', 'portfolio.performance',
    lineChart({ series, id: 'performance-chart', className: `equity-chart performance-chart ${pnlClass(last.twr)}`, lineClass: 'equity-line', height: 200, zero: true, area: true, timeFormat: dayLabel, format: (v) => `${fmtNum(v, 0, 2)}%`, label: t('portfolio.performance_label', { name: curve.portfolio }) }),
    curve.described ? h('p', { class: 'basis muted' }, curve.described) : null);
}

function returnsTable(shot) {
  if (!shot.returns.length) return section('portfolio-returns', 'portfolio.returns', h('p', { class: 'empty-note' }, t('portfolio.no_returns')));
  const d = (shot.described && shot.described.returns) || [];
  const byPeriod = new Map(shot.returns.map((r, i) => [r.period, [r, d[i] || {}]]));
  const rows = PERIODS.filter((p) => byPeriod.has(p)).map((p) => {
    const [r, words] = byPeriod.get(p);
    const mw = r.money_weighted;
    return h('tr', { 'data-period': p },
      h('th', { scope: 'row' }, t(`portfolio.period_${p}`)),
      h('td', { 'data-col': 'time_weighted', 'data-label': t('portfolio.col_twr'), class: pnlClass(r.time_weighted.value), title: words.time_weighted || null }, ratioPct(r.time_weighted.value)),
      h('td', { 'data-col': 'money_weighted', 'data-label': t('portfolio.col_mwr'), class: mw ? pnlClass(mw.value) : null, title: words.money_weighted || null }, mw ? ratioPct(mw.value) : '—'));
  });
  return section('portfolio-returns', 'portfolio.returns',
    tableWrap(
      h('table', { class: 'data returns-table', id: 'returns-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('portfolio.col_period')), h('th', { scope: 'col', class: 'num' }, t('portfolio.col_twr')), h('th', { scope: 'col', class: 'num' }, t('portfolio.col_mwr')))),
        h('tbody', {}, rows))),
    h('p', { class: 'basis muted' }, t('portfolio.returns_note')));
}

/** A portfolio with nothing recorded by the day shown: what to do, with its buttons above. */
function emptyGuide(name, on, none) {
  return h('section', { class: 'card empty-guide portfolio-empty' },
    h('h2', {}, t('portfolio.empty_records_title', { name, date: on })),
    h('p', {}, t(none ? 'portfolio.empty_records_text' : 'portfolio.empty_by_day_text')),
    h('p', { class: 'muted' }, t('portfolio.empty_hint')));
}

function dayPicker(name, on) {
  const input = h('input', { type: 'date', id: 'portfolio-on', value: on, max: '9999-12-31' });
  input.addEventListener('change', () => {
    if (input.value) location.hash = `#/portfolio/${enc(name)}?on=${input.value}`;
  });
  return h('label', { class: 'day-picker' }, h('span', {}, t('portfolio.on')), input);
}

/** The figures of `name` on `on` (or today), into `body`; with nothing recorded, the guide. */
async function renderFigures(body, name, on, summary, actions) {
  const q = on ? `?on=${enc(on)}` : '';
  const [shot, curve] = await Promise.all([api.get(`/api/portfolios/${enc(name)}${q}`), api.get(`/api/portfolios/${enc(name)}/curve${q}`)]);
  const crumbs = h('p', { class: 'crumbs' }, h('a', { href: '#/portfolio' }, t('portfolio.all')), ` · ${t('portfolio.valued_on', { date: shot.on })}`);
  const records = recordsSection(summary, (r) => actions.open('record', r));
  if (!shot.records) {
    body.replaceChildren(...[crumbs, emptyGuide(shot.portfolio, shot.on, !summary.records), summary.records ? records : null].filter(Boolean));
    return shot;
  }
  const parts = [
    crumbs,
    warnings(shot.warnings),
    headline(shot),
    section('portfolio-holdings', 'portfolio.holdings', holdingsTable(shot)),
    h('div', { class: 'portfolio-grid' }, performance(curve), allocation(shot)),
    returnsTable(shot),
    records,
  ];
  body.replaceChildren(...parts.filter(Boolean));
  return shot;
}

function mountOne(root, name, on) {
  const body = h('div', { class: 'portfolio-page' }, loading());
  const tools = h('div', { class: 'portfolio-tools' });
  root.append(pageHeader(name), tools, body);
  let alive = true;
  const failed = (err) => alive && body.replaceChildren(h('p', { class: 'crumbs' }, h('a', { href: '#/portfolio' }, t('portfolio.all'))), errorBox(err));
  api.get('/api/portfolios')
    .then(async (list) => {
      const key = name.toLowerCase();
      const summary = ((list && list.items) || []).find((p) => p.name.toLowerCase() === key);
      // Unknown: the figures' 404 says so in the server's words.
      if (!summary) return renderFigures(body, name, on, { name, accounts: [] }, null);
      let actions = null;
      const load = () => renderFigures(body, summary.name, on, summary, actions).catch(failed);
      const reload = () => api.get('/api/portfolios').then((l) => {
        const fresh = ((l && l.items) || []).find((p) => p.name === summary.name);
        if (fresh) Object.assign(summary, fresh);
        return load();
      }).catch(failed);
      actions = portfolioActions(summary, () => alive && reload());
      tools.replaceChildren(actions.bar, actions.panel);
      const shot = await load();
      if (!alive || !shot) return;
      const header = root.querySelector('.page-header');
      if (header) header.append(dayPicker(summary.name, shot.on));
      if (!summary.records) actions.open('import');
    })
    .catch(failed);
  return () => {
    alive = false;
  };
}

function listTable(items) {
  const label = (c) => t(`portfolio.col_${c}`);
  return h('section', { class: 'card' },
    tableWrap(
      h('table', { class: 'data cards-on-mobile', id: 'portfolios-table' },
        h('thead', {}, h('tr', {}, ['name', 'base_currency', 'cost_method', 'accounts', 'records'].map((c) => h('th', { scope: 'col' }, label(c))))),
        h('tbody', {}, items.map((p) => h('tr', { 'data-portfolio': p.name },
          h('td', { 'data-label': label('name') }, h('a', { href: `#/portfolio/${enc(p.name)}` }, p.name)),
          h('td', { 'data-label': label('base_currency') }, p.base_currency),
          h('td', { 'data-label': label('cost_method') }, tOr(`portfolio.method_${p.cost_method}`, p.cost_method)),
          h('td', { 'data-label': label('accounts') }, p.accounts.map((a) => `${a.name} (${a.currency})`).join(', ')),
          h('td', { 'data-label': label('records') }, String(p.records))))))));
}

/** The new-portfolio card: opens the portfolio once created. */
function createCard(first, onCancel) {
  return h('section', { class: 'card portfolio-create', 'aria-labelledby': 'portfolio-create-title' },
    h('h2', { id: 'portfolio-create-title' }, t(first ? 'portfolio.empty_title' : 'portfolio.action_new')),
    first ? h('p', {}, t('portfolio.empty_text')) : null,
    newPortfolioForm((made) => {
      location.hash = `#/portfolio/${enc(made.name)}`;
    }, onCancel));
}

function mountList(root, on, create) {
  const body = h('div', { class: 'portfolio-list' }, loading());
  const newBtn = h('button', { type: 'button', class: 'btn primary', id: 'portfolio-new', 'aria-expanded': 'false' }, t('portfolio.action_new'));
  root.append(pageHeader(t('portfolio.title'), newBtn), body);
  let alive = true;
  api.get('/api/portfolios')
    .then((data) => {
      if (!alive) return;
      const items = (data && data.items) || [];
      // One portfolio: open it, as `nofxi portfolio show` does without a name.
      if (items.length === 1 && !create) return location.replace(`#/portfolio/${enc(items[0].name)}${on ? `?on=${enc(on)}` : ''}`);
      if (!items.length) {
        newBtn.hidden = true;
        body.replaceChildren(createCard(true, null));
        body.querySelector('input')?.focus();
        return;
      }
      const table = listTable(items);
      const toggle = (open) => {
        newBtn.setAttribute('aria-expanded', String(open));
        body.replaceChildren(...(open ? [createCard(false, () => toggle(false))] : []), table);
        if (open) body.querySelector('input')?.focus();
        else newBtn.focus();
      };
      newBtn.addEventListener('click', () => toggle(newBtn.getAttribute('aria-expanded') !== 'true'));
      if (create) toggle(true);
      else body.replaceChildren(table);
    })
    .catch((err) => alive && body.replaceChildren(errorBox(err)));
  return () => {
    alive = false;
  };
}

export function mount(root, { name, on, create } = {}) {
  return name ? mountOne(root, name, on) : mountList(root, on, create);
}
