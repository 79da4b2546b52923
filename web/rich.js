// Text from the server as the page shows it: line breaks kept, **bold** and `code` drawn, and a
// nofxi command the text tells the user to run (`nofxi exchange test main`) turned into a link
// to the page that does it — the terminal shows the command, the browser the place. Built from
// DOM nodes only (never innerHTML), and only links to this app's own pages, so a reply cannot
// inject markup or send the user elsewhere.
import { t } from './i18n.js';

// Its own element maker: dom.js draws error boxes with this module, so no import back.
function h(tag, attrs, text) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.textContent = text;
  return el;
}

// Each command the catalogs and skills name, the page that does it, and how the link reads.
// `$1`… in `href` and the label's {name} are the command's captured words.
const COMMANDS = [
  [/^nofxi exchange (?:test|balance|positions) (\S+)/, '#/resources/exchanges', 'exchange_test'],
  [/^nofxi model test (\S+)/, '#/resources/models', 'model_test'],
  [/^nofxi config (?:set|get|unset) assistant\.model/, '#/settings', 'assistant_model'],
  [/^nofxi (?:run|serve)\b/, '#/settings', 'engine'],
  [/^nofxi (?:user add|(?:--user \S+ )?token create)\b/, '#/settings', 'tokens'],
  [/^nofxi trader (?:journal|stats|status) (\S+)/, '#/traders/$1', 'trader_page'],
  [/^nofxi (exchange|model|strategy|trader) (?:list|add|update|enable|show)\b/, '#/resources/$1s', 'resources'],
  [/^nofxi portfolio add\b/, '#/portfolio?new', 'portfolio_new'],
  [/^nofxi portfolio (?:import|show|lots|perf) (\S+)/, '#/portfolio/$1', 'portfolio_page'],
  [/^nofxi portfolio (?:price|quote|fx)\b/, '#/portfolio', 'portfolio_marks'],
  [/^nofxi backtest\b/, '#/backtest', 'backtest'],
];

/** The link a command becomes, or null for a command the page has no place for. */
export function commandLink(code) {
  const text = code.trim();
  for (const [re, href, label] of COMMANDS) {
    const m = text.match(re);
    if (!m) continue;
    const arg = (m[1] || '').replace(/[.,;:]+$/, '');
    const target = href.replace('$1', encodeURIComponent(arg));
    // A placeholder (NAME, FILE, …) names no object: go to the list instead of a page for it.
    if (href.includes('$1') && /^[A-Z_…]+$|\.\.\.|…/.test(arg)) return null;
    return h('a', { href: target, class: 'cmd-link', title: text }, t(`commands.${label}`, { name: arg, kind: t(`commands.kind_${m[1]}`) }));
  }
  return null;
}

/** Inline pieces of one line: `code` (a command becomes its link) and **bold**. */
function inline(line) {
  const out = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let at = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m.index > at) out.push(line.slice(at, m.index));
    if (m[1] != null) out.push(commandLink(m[1]) || h('code', {}, m[1]));
    else out.push(h('strong', {}, m[2]));
    at = m.index + m[0].length;
  }
  if (at < line.length) out.push(line.slice(at));
  return out;
}

/** `text` as nodes: lines kept (the container keeps `white-space: pre-line`). */
export function richText(text) {
  const lines = String(text ?? '').split('\n');
  return lines.flatMap((line, i) => (i ? ['\n', ...inline(line)] : inline(line)));
}

/** Fills `el` with `text` drawn rich, only when the text changed (a refresh keeps focus). */
export function setRich(el, text) {
  if (el.dataset.rich === text) return;
  el.dataset.rich = text;
  el.replaceChildren(...richText(text));
}
