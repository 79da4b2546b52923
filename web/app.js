// Entry point: language, session, top navigation and the hash router.
import { api, currentSession, loadSession, setSession } from './api.js';
import { h, notify } from './dom.js';
import { applyPrefs } from './prefs.js';
import { getLang, initI18n, LANGS, onLangChange, setLang, t } from './i18n.js';
import * as backtest from './pages/backtest.js';
import * as chat from './pages/chat.js';
import * as dashboard from './pages/dashboard.js';
import * as login from './pages/login.js';
import * as portfolio from './pages/portfolio.js';
import * as resources from './pages/resources.js';
import * as settings from './pages/settings.js';
import * as trader from './pages/trader.js';

const ROUTES = [
  { re: /^\/?$/, page: dashboard, nav: 'dashboard', title: 'dashboard.title' },
  { re: /^\/chat\/?$/, page: chat, nav: 'chat', title: 'chat.title' },
  { re: /^\/traders\/([^/]+)\/?$/, page: trader, nav: 'resources', title: 'trader.title', params: (m) => ({ id: decodeURIComponent(m[1]) }) },
  { re: /^\/resources\/(exchanges|models|strategies|traders)\/?$/, page: resources, nav: 'resources', title: 'resources.title', params: (m) => ({ kind: m[1] }) },
  { re: /^\/backtest\/?$/, page: backtest, nav: 'backtest', title: 'backtest.title' },
  { re: /^\/settings\/?$/, page: settings, nav: 'settings', title: 'settings.title' },
  { re: /^\/portfolio\/?(?:\?(.*))?$/, page: portfolio, nav: 'portfolio', title: 'portfolio.title', params: (m) => ({ on: new URLSearchParams(m[1] || '').get('on'), create: new URLSearchParams(m[1] || '').has('new') }) },
  { re: /^\/portfolio\/([^/?]+)\/?(?:\?(.*))?$/, page: portfolio, nav: 'portfolio', title: 'portfolio.title', params: (m) => ({ name: decodeURIComponent(m[1]), on: new URLSearchParams(m[2] || '').get('on') }) },
];
const NAV = [
  ['dashboard', '#/'],
  ['chat', '#/chat'],
  ['resources', '#/resources/traders'],
  ['portfolio', '#/portfolio'],
  ['backtest', '#/backtest'],
  ['settings', '#/settings'],
];

const main = document.getElementById('main');
const header = document.getElementById('top');
let cleanup = null;
let needLogin = false;

function renderNav(active) {
  const menuBtn = h('button', { type: 'button', class: 'menu-btn', 'aria-expanded': 'false', 'aria-controls': 'nav-links' },
    h('span', { class: 'bars', 'aria-hidden': 'true' }), h('span', { class: 'visually-hidden' }, t('nav.menu')));
  const links = h('ul', { id: 'nav-links', class: 'nav-links' },
    NAV.map(([k, href]) => h('li', {}, h('a', { href, 'aria-current': k === active ? 'page' : null }, t(`nav.${k}`)))));
  links.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && links.classList.contains('open')) {
      links.classList.remove('open');
      menuBtn.setAttribute('aria-expanded', 'false');
      menuBtn.focus();
    }
  });
  menuBtn.addEventListener('keydown', (e) => e.key === 'Escape' && links.classList.contains('open') && menuBtn.click());
  menuBtn.addEventListener('click', () => {
    const open = menuBtn.getAttribute('aria-expanded') !== 'true';
    menuBtn.setAttribute('aria-expanded', String(open));
    links.classList.toggle('open', open);
  });
  const langSel = h('select', { id: 'lang-switch', 'aria-label': t('nav.language') },
    LANGS.map((l) => h('option', { value: l, selected: l === getLang() }, t(`lang.${l}`))));
  langSel.addEventListener('change', () => setLang(langSel.value));
  const s = currentSession();
  header.replaceChildren(h('nav', { class: 'topnav', 'aria-label': t('nav.main') },
    h('a', { class: 'brand', href: '#/' }, h('span', { class: 'logo', 'aria-hidden': 'true' }), 'nofxi'),
    menuBtn,
    links,
    h('div', { class: 'nav-tools' },
      s && s.mode && s.mode !== 'local'
        ? h('button', { type: 'button', class: 'btn small ghost', onclick: logout }, t('nav.logout', { user: s.user }))
        : null,
      h('label', { class: 'lang' }, h('span', { class: 'visually-hidden' }, t('nav.language')), langSel))));
}

async function logout() {
  try {
    await api.post('/api/logout', {});
  } catch {
    /* ignore */
  }
  setSession(null);
  needLogin = true;
  route();
}

function route(focus = false) {
  if (cleanup) {
    try {
      cleanup();
    } catch (e) {
      console.error(e);
    }
    cleanup = null;
  }
  // A question a page asked belongs to that page: leaving it (Back, a link) cancels it,
  // never leaves it open over the next page where its Confirm would still act.
  document.querySelectorAll('dialog[open]').forEach((d) => d.close('cancel'));
  main.replaceChildren();
  window.scrollTo(0, 0);
  if (needLogin) {
    renderNav(null);
    document.title = `${t('login.title')} · nofxi`;
    login.mount(main, { onLogin: () => ((needLogin = false), route(true)) });
    return;
  }
  const path = location.hash.replace(/^#/, '') || '/';
  if (/^\/resources\/?$/.test(path)) {
    location.replace('#/resources/traders');
    return;
  }
  const r = ROUTES.find((x) => x.re.test(path));
  if (!r) {
    renderNav(null);
    main.append(h('div', { class: 'card' }, h('h1', {}, t('notfound.title')), h('p', {}, h('a', { href: '#/' }, t('notfound.back')))));
    return;
  }
  renderNav(r.nav);
  document.title = `${t(r.title)} · nofxi`;
  const params = r.params ? r.params(path.match(r.re)) : {};
  cleanup = r.page.mount(main, params) || null;
  if (focus && r.page !== chat) {
    const h1 = main.querySelector('h1');
    if (h1) h1.focus({ preventScroll: true });
  }
}

// Before the first paint, so a chosen theme never flashes the other one.
applyPrefs();

async function start() {
  await initI18n();
  const skip = document.querySelector('.skip-link');
  if (skip) {
    skip.addEventListener('click', (e) => (e.preventDefault(), main.focus()));
    onLangChange(() => (skip.textContent = t('nav.skip')));
    skip.textContent = t('nav.skip');
  }
  try {
    await loadSession();
  } catch (err) {
    if (err.status === 401) needLogin = true;
    else notify(err.message, 'error');
  }
  window.addEventListener('hashchange', () => route(true));
  window.addEventListener('nofxi:unauthenticated', () => {
    if (!needLogin && currentSession() && currentSession().mode !== 'local') {
      needLogin = true;
      route();
    }
  });
  onLangChange(() => {
    // The language chosen on the settings page keeps the keyboard there; else the nav's.
    const from = document.activeElement && document.activeElement.id === 'settings-lang' ? 'settings-lang' : 'lang-switch';
    route();
    const sel = document.getElementById(from);
    if (sel) sel.focus();
  });
  route();
}

start();
