// What can be done to a portfolio from its page: a bar of buttons, each opening its form in one
// panel under the bar (one at a time); a form that writes closes the panel and the page reloads
// its figures.
import { h, notify } from '../dom.js';
import { t } from '../i18n.js';
import { accountForm, priceForm, rateForm, recordForm } from './portfolio-forms.js';
import { importPanel } from './portfolio-import.js';

const ACTIONS = ['import', 'record', 'price', 'rate', 'account'];

/**
 * The bar and its panel for `portfolio` (a summary: name, base currency, accounts);
 * `reload()` after a change. Returns { bar, panel, open(action, record?) }.
 */
export function portfolioActions(portfolio, reload) {
  const panel = h('section', { class: 'card portfolio-panel', id: 'portfolio-panel', hidden: true, 'aria-labelledby': 'portfolio-panel-title' });
  const buttons = new Map();
  let opened = null;

  const close = () => {
    panel.hidden = true;
    panel.replaceChildren();
    if (opened) buttons.get(opened)?.setAttribute('aria-expanded', 'false');
    const back = opened && buttons.get(opened);
    opened = null;
    if (back) back.focus();
  };
  const changed = (key, vars) => () => {
    notify(t(key, vars), 'ok');
    close();
    reload();
  };
  const forms = {
    // The panel stays open on the import's result; the figures behind it reload at once.
    import: () => importPanel(portfolio, () => reload(), close),
    record: (stored) => recordForm(portfolio, stored, changed(stored ? 'portfolio.corrected' : 'portfolio.recorded'), close),
    price: () => priceForm(changed('portfolio.price_recorded'), close),
    rate: () => rateForm(portfolio, changed('portfolio.rate_recorded'), close),
    account: () => accountForm(portfolio, changed('portfolio.account_added'), close),
  };

  function open(action, stored) {
    if (opened) buttons.get(opened)?.setAttribute('aria-expanded', 'false');
    opened = action;
    buttons.get(action)?.setAttribute('aria-expanded', 'true');
    const title = stored ? t('portfolio.action_correct') : t(`portfolio.action_${action}`);
    panel.replaceChildren(h('h2', { id: 'portfolio-panel-title' }, title), forms[action](stored));
    panel.hidden = false;
    panel.scrollIntoView({ block: 'nearest' });
    const first = panel.querySelector('input:not([type=hidden]), select, textarea');
    if (first) first.focus();
  }

  for (const action of ACTIONS) {
    buttons.set(action, h('button', {
      type: 'button',
      class: action === 'import' || action === 'record' ? 'btn primary' : 'btn',
      id: `portfolio-${action}`,
      'aria-expanded': 'false',
      'aria-controls': 'portfolio-panel',
      onclick: () => (opened === action ? close() : open(action)),
    }, t(`portfolio.action_${action}`)));
  }
  const bar = h('div', { class: 'portfolio-actions', role: 'group', 'aria-label': t('portfolio.actions') },
    ...buttons.values(),
    h('a', { class: 'btn ghost', href: '#/portfolio?new=1', id: 'portfolio-new' }, t('portfolio.action_new')));
  return { bar, panel, open };
}
