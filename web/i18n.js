// Message catalogs: every visible string comes from web/i18n/<lang>.json.
export const LANGS = ['en', 'zh'];
const STORAGE_KEY = 'nofxi.lang';
const catalogs = {};
let lang = 'en';
const listeners = new Set();

function detect() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || 'en';
  return nav.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

async function load(l) {
  if (catalogs[l]) return;
  const res = await fetch(`/assets/i18n/${l}.json`);
  catalogs[l] = res.ok ? await res.json() : {};
}

export async function initI18n() {
  lang = detect();
  await Promise.all([load('en'), load(lang)]);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

export function getLang() {
  return lang;
}

export async function setLang(l) {
  if (!LANGS.includes(l) || l === lang) return;
  await load(l);
  lang = l;
  localStorage.setItem(STORAGE_KEY, l);
  document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
  listeners.forEach((fn) => fn(l));
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function lookup(cat, key) {
  let v = cat;
  for (const part of key.split('.')) {
    if (v == null || typeof v !== 'object') return undefined;
    v = v[part];
  }
  return typeof v === 'string' ? v : undefined;
}

function fill(str, vars) {
  if (!vars) return str;
  return str.replace(/\{(\w+)\}/g, (m, k) => (vars[k] != null ? String(vars[k]) : m));
}

/** Translate `key`; falls back to English, then to the key itself. */
export function t(key, vars) {
  const s = lookup(catalogs[lang], key) ?? lookup(catalogs.en, key) ?? key;
  return fill(s, vars);
}

/** Translate `key` when the catalog has it, else show `fallback` (e.g. a raw API value). */
export function tOr(key, fallback, vars) {
  const s = lookup(catalogs[lang], key) ?? lookup(catalogs.en, key);
  return s != null ? fill(s, vars) : String(fallback ?? '');
}
