// A strategy's config as a form — coins, timeframes, indicators, leverage, risk limits, prompt
// sections — with the whole JSON kept as "Advanced". Nothing here is a copy of a server table:
// the defaults, the intervals and every field's bounds come from GET /api/strategy-defaults,
// and a typed coin is read by the server's symbol parser (GET /api/symbols). The config object
// is the one truth: a form control writes only its own key when the user changes it, so keys
// the form does not show (and keys nofxi does not know) are kept as they are.
import { api, enc } from './api.js';
import { debounce, h } from './dom.js';
import { field, showErrors } from './forms.js';
import { t } from './i18n.js';

const L = (key, vars) => t(`strategy_form.${key}`, vars);

let meta = null;
/** The server's defaults, intervals and bounds, read once per page load. */
function loadMeta() {
  if (!meta) meta = api.get('/api/strategy-defaults').catch((err) => ((meta = null), Promise.reject(err)));
  return meta;
}

// ---- the config as an object: paths, copies, comparisons --------------------------------------

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const isObj = (v) => v != null && typeof v === 'object' && !Array.isArray(v);

function getPath(obj, path) {
  return path.split('.').reduce((o, k) => (isObj(o) ? o[k] : undefined), obj);
}

function setPath(obj, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  let o = obj;
  for (const k of keys) {
    if (!isObj(o[k])) o[k] = {};
    o = o[k];
  }
  o[last] = value;
}

/** JSON with keys sorted, so two configs compare by content, not key order. */
function stable(v) {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (isObj(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** Dotted paths of `obj` that the default config has no key for: nofxi does not read them. */
function unknownKeys(obj, known, prefix = '') {
  if (!isObj(obj) || !isObj(known)) return [];
  return Object.keys(obj).flatMap((k) => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (!(k in known)) return [path];
    return unknownKeys(obj[k], known[k], path);
  });
}

/** Compares two non-negative decimals written as text, exactly (no floats). */
function decCmp(a, b) {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  const ia = ai.replace(/^0+(?=\d)/, '');
  const ib = bi.replace(/^0+(?=\d)/, '');
  if (ia.length !== ib.length) return ia.length < ib.length ? -1 : 1;
  if (ia !== ib) return ia < ib ? -1 : 1;
  const n = Math.max(af.length, bf.length);
  const fa = af.padEnd(n, '0');
  const fb = bf.padEnd(n, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

// ---- what the form shows, in order -----------------------------------------------------------

const SECTIONS = [
  ['coins', [
    ['coin_source.static_coins', 'coins'],
    ['coin_source.excluded_coins', 'coins'],
  ]],
  ['timeframes', [
    ['indicators.klines.primary_timeframe', 'interval'],
    ['indicators.klines.primary_count', 'number'],
    ['indicators.klines.longer_timeframe', 'interval'],
    ['indicators.klines.selected_timeframes', 'intervals'],
  ]],
  ['indicators', [
    ['indicators.enable_ema', 'bool', 'indicators.ema_periods'],
    ['indicators.enable_macd', 'bool'],
    ['indicators.enable_rsi', 'bool', 'indicators.rsi_periods'],
    ['indicators.enable_atr', 'bool', 'indicators.atr_periods'],
    ['indicators.enable_boll', 'bool', 'indicators.boll_periods'],
    ['indicators.enable_volume', 'bool'],
    ['indicators.enable_oi', 'bool'],
    ['indicators.enable_funding_rate', 'bool'],
  ]],
  ['leverage', [
    ['risk_control.btc_eth_max_leverage', 'number'],
    ['risk_control.altcoin_max_leverage', 'number'],
  ]],
  ['risk', [
    ['risk_control.max_positions', 'number'],
    ['risk_control.max_position_value_ratio', 'number'],
    ['risk_control.max_margin_usage', 'number'],
    ['risk_control.btc_eth_min_position_size', 'number'],
    ['risk_control.min_position_size', 'number'],
    ['risk_control.min_risk_reward_ratio', 'number'],
    ['risk_control.min_confidence', 'number'],
  ]],
  ['prompts', [
    ['prompt_sections.role_definition', 'text'],
    ['prompt_sections.trading_frequency', 'text'],
    ['prompt_sections.entry_standards', 'text'],
    ['prompt_sections.decision_process', 'text'],
    ['prompt_sections.custom_prompt', 'text'],
  ]],
];

const last = (path) => path.split('.').pop();
const labelOf = (path) => L(`field.${last(path)}`);

// ---- checks the server makes, made before the request ----------------------------------------

/** What is wrong with `config` by the server's own bounds and limits: [{field, message}]. */
function check(config, m) {
  const problems = [];
  const value = (path) => {
    const v = getPath(config, path);
    return v === undefined ? getPath(m.config, path) : v;
  };
  for (const [path, b] of Object.entries(m.bounds)) {
    const v = value(path);
    const text = String(v ?? '').trim();
    const vars = { min: b.min, max: b.max, got: text || '—' };
    if (b.whole ? typeof v !== 'number' || !Number.isInteger(v) || v < 0 : !DECIMAL.test(text)) {
      problems.push({ field: path, message: L(b.whole ? 'err.whole' : 'err.decimal', vars) });
    } else if (decCmp(text, b.min) < 0 || decCmp(text, b.max) > 0) {
      problems.push({ field: path, message: L('err.range', vars) });
    }
  }
  for (const path of ['indicators.klines.primary_timeframe', 'indicators.klines.longer_timeframe']) {
    if (!m.intervals.includes(value(path))) problems.push({ field: path, message: L('err.interval', { intervals: m.intervals.join(', ') }) });
  }
  const extra = value('indicators.klines.selected_timeframes');
  if (!Array.isArray(extra) || extra.some((i) => !m.intervals.includes(i))) {
    problems.push({ field: 'indicators.klines.selected_timeframes', message: L('err.interval', { intervals: m.intervals.join(', ') }) });
  } else if (extra.length > m.max_selected_timeframes) {
    problems.push({ field: 'indicators.klines.selected_timeframes', message: L('err.too_many_timeframes', { max: m.max_selected_timeframes }) });
  }
  for (const name of ['ema', 'rsi', 'atr', 'boll']) {
    const path = `indicators.${name}_periods`;
    const v = value(path);
    if (!Array.isArray(v) || v.some((n) => !Number.isInteger(n) || n < 0)) problems.push({ field: path, message: L('err.periods') });
  }
  for (const path of SECTIONS.find(([s]) => s === 'prompts')[1].map(([p]) => p)) {
    const v = value(path);
    const n = [...String(v ?? '')].length;
    if (typeof v !== 'string') problems.push({ field: path, message: L('err.text') });
    else if (n > m.prompt_section_max) problems.push({ field: path, message: L('err.too_long', { max: m.prompt_section_max, n }) });
  }
  return problems;
}

function invalid(problems) {
  const err = new Error(L('err.invalid'));
  err.problems = problems;
  return err;
}

// ---- the editor ------------------------------------------------------------------------------

const editors = new WeakMap();

/**
 * The config editor for strategy `o` (a new one when `o` has no config: the server's defaults).
 * Put it in a form; `readStrategy(form, o)` then reads the body and `strategyErrors(form, err)`
 * places the server's problems.
 */
export function strategyEditor(o) {
  const ed = {
    config: o && o.config ? clone(o.config) : null,
    meta: null,
    view: 'form',
    controls: new Map(),
    pending: [],
  };
  const box = h('div', { class: 'strategy-editor', 'data-strategy-editor': '' });
  const formBtn = h('button', { type: 'button', class: 'btn small', 'data-view': 'form', 'aria-pressed': 'true' }, L('view_form'));
  const jsonBtn = h('button', { type: 'button', class: 'btn small', 'data-view': 'json', 'aria-pressed': 'false' }, L('view_json'));
  const switcher = h('div', { class: 'sf-switch', role: 'group', 'aria-label': L('view_label') }, formBtn, jsonBtn);
  const note = h('p', { class: 'note warn sf-unknown', hidden: true });
  const formView = h('div', { class: 'sf-form' }, h('p', { class: 'muted' }, L('loading')));
  const jsonField = field({ name: 'config', label: t('field.config'), type: 'textarea', rows: 16, hint: L('json_hint'), attrs: { spellcheck: 'false', class: 'mono' } });
  const jsonArea = jsonField.querySelector('textarea');
  const jsonView = h('div', { class: 'sf-json', hidden: true }, jsonField);
  box.append(switcher, note, formView, jsonView);

  const showUnknown = (obj) => {
    const keys = ed.meta ? unknownKeys(obj, ed.meta.config) : [];
    note.hidden = !keys.length;
    note.textContent = keys.length ? L('unknown_keys', { keys: keys.join(', ') }) : '';
  };

  /** The JSON as typed, as an object; its problem under the JSON field when it is not one. */
  ed.parseJson = () => {
    let v;
    try {
      v = JSON.parse(jsonArea.value);
    } catch (e) {
      throw invalid([{ field: 'config', message: L('err.bad_json', { detail: e.message }) }]);
    }
    if (!isObj(v)) throw invalid([{ field: 'config', message: L('err.not_object') }]);
    return v;
  };

  ed.setView = (view) => {
    const form = box.closest('form');
    if (view === ed.view) return;
    if (view === 'form') {
      let parsed;
      try {
        parsed = ed.parseJson();
      } catch (err) {
        if (form) showErrors(form, err);
        return;
      }
      ed.config = parsed;
      fill(ed);
    } else {
      jsonArea.value = JSON.stringify(ed.config, null, 2);
    }
    ed.view = view;
    formView.hidden = view !== 'form';
    jsonView.hidden = view !== 'json';
    formBtn.setAttribute('aria-pressed', String(view === 'form'));
    jsonBtn.setAttribute('aria-pressed', String(view === 'json'));
    box.dataset.view = view;
    showUnknown(ed.config);
    (view === 'form' ? formBtn : jsonBtn).focus();
  };
  formBtn.addEventListener('click', () => ed.setView('form'));
  jsonBtn.addEventListener('click', () => ed.setView('json'));
  jsonArea.addEventListener('input', debounce(() => {
    try {
      showUnknown(JSON.parse(jsonArea.value));
    } catch {
      /* said on switching or saving */
    }
  }, 300));

  /** The config as it stands in the view showing; throws with problems under their fields. */
  ed.current = () => {
    if (ed.view === 'json') ed.config = ed.parseJson();
    if (ed.meta) {
      const problems = check(ed.config, ed.meta);
      if (problems.length) throw invalid(ed.view === 'json' ? asJson(problems) : problems);
    }
    return ed.config;
  };

  ed.ready = loadMeta().then(
    (m) => {
      ed.meta = m;
      if (!ed.config) ed.config = clone(m.config);
      formView.replaceChildren(...build(ed));
      fill(ed);
      showUnknown(ed.config);
    },
    (err) => {
      // Without the server's tables the form cannot be drawn: the JSON still edits everything.
      if (!ed.config) ed.config = {};
      formView.replaceChildren(h('p', { class: 'note warn' }, L('meta_failed', { error: err.message })));
      formBtn.disabled = true;
      ed.setView('json');
    },
  );
  box.dataset.view = 'form';
  editors.set(box, ed);
  return box;
}

/** Every problem of the config under the JSON field, each naming its key. */
function asJson(problems) {
  return [{ field: 'config', message: problems.map((p) => (p.field === 'config' ? p.message : `${p.field}: ${p.message}`)).join('\n') }];
}

const editorIn = (form) => {
  const box = form.querySelector('[data-strategy-editor]');
  return box ? editors.get(box) : null;
};

/** The form's fields of the config, one section each. */
function build(ed) {
  return SECTIONS.map(([section, rows]) => {
    const parts = rows.map(([path, kind, periods]) => {
      if (kind === 'bool') {
        const box = control(ed, path, 'bool');
        if (!periods) return h('div', { class: 'sf-indicator' }, box);
        return h('div', { class: 'sf-indicator' }, box, control(ed, periods, 'periods'));
      }
      return control(ed, path, kind);
    });
    return h('fieldset', { class: `sf-section sf-${section}`, 'data-section': section },
      h('legend', {}, L(`section.${section}`)),
      section === 'indicators' ? [h('p', { class: 'hint sf-section-hint' }, L('hint.periods')), h('div', { class: 'sf-indicators' }, parts)] : parts);
  });
}

/** One control of the config at `path`: it writes its key on change and reads it on fill. */
function control(ed, path, kind) {
  const m = ed.meta;
  const bound = m.bounds[path];
  const label = labelOf(path);
  const hint = bound ? L(`hint.${last(path)}`, { min: bound.min, max: bound.max }) : hintFor(path, kind, m);
  let el;
  let c;
  const write = (v) => {
    setPath(ed.config, path, v);
    const form = el.closest('form');
    const slot = form && form.querySelector(`.field-error[data-field="${CSS.escape(path)}"]`);
    // A bounded field says at once when it is out of range; the rest are said on saving.
    if (slot && (bound || kind === 'intervals' || kind === 'periods')) {
      const p = check(ed.config, m).find((x) => x.field === path);
      slot.textContent = p ? p.message : '';
      const input = form.querySelector(`[name="${CSS.escape(path)}"]`);
      if (input) {
        if (p) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
      }
    }
  };
  if (kind === 'coins') return coinsControl(ed, path, label);
  if (kind === 'bool') {
    el = field({ name: path, label, type: 'checkbox' });
    const input = el.querySelector('input');
    input.addEventListener('change', () => write(input.checked));
    c = { fill: (v) => (input.checked = !!v) };
  } else if (kind === 'interval') {
    el = field({ name: path, label, type: 'select', hint, options: m.intervals.map((i) => ({ value: i, label: i })) });
    const select = el.querySelector('select');
    select.addEventListener('change', () => write(select.value));
    c = {
      fill: (v) => {
        // A value the JSON holds that is no interval is shown as it is, for the check to name.
        select.querySelectorAll('[data-foreign]').forEach((x) => x.remove());
        if (v != null && !m.intervals.includes(v)) select.append(h('option', { value: String(v), 'data-foreign': '' }, String(v)));
        select.value = String(v ?? '');
      },
    };
  } else if (kind === 'intervals') {
    const id = `sf-${path.replace(/\W/g, '-')}`;
    const boxes = m.intervals.map((i) => h('label', { class: 'sf-check' }, h('input', { type: 'checkbox', name: path, value: i }), ' ', i));
    el = h('fieldset', { class: 'field sf-intervals', 'data-name': path, 'aria-describedby': `${id}-hint ${id}-err` },
      h('legend', {}, label),
      h('div', { class: 'sf-checks' }, boxes),
      h('p', { class: 'hint', id: `${id}-hint` }, hint),
      h('div', { class: 'field-error', 'data-field': path, id: `${id}-err`, 'aria-live': 'polite' }));
    const inputs = boxes.map((b) => b.querySelector('input'));
    inputs.forEach((i) => i.addEventListener('change', () => write(inputs.filter((x) => x.checked).map((x) => x.value))));
    c = { fill: (v) => inputs.forEach((i) => (i.checked = Array.isArray(v) && v.includes(i.value))) };
  } else if (kind === 'periods') {
    el = field({ name: path, label, hint, attrs: { inputmode: 'numeric', class: 'sf-periods' } });
    const input = el.querySelector('input');
    // Checked as typed, not on leaving the field: a message that vanished on blur moved the
    // page under the pointer, and the click on Save that caused the blur was lost.
    input.addEventListener('input', () => {
      const parts = input.value.split(/[,，、\s]+/).filter(Boolean);
      write(parts.every((p) => WHOLE.test(p)) ? parts.map(Number) : input.value);
    });
    c = { fill: (v) => (input.value = Array.isArray(v) ? v.join(', ') : String(v ?? '')) };
  } else if (kind === 'text') {
    el = field({ name: path, label, type: 'textarea', rows: 2, hint });
    const area = el.querySelector('textarea');
    area.addEventListener('input', () => write(area.value));
    c = { fill: (v) => (area.value = String(v ?? '')) };
  } else {
    el = field({ name: path, label, hint, attrs: { inputmode: bound && bound.whole ? 'numeric' : 'decimal' } });
    const input = el.querySelector('input');
    // As typed, for the same reason as the periods above.
    input.addEventListener('input', () => {
      const text = input.value.trim();
      // Whole numbers go as JSON numbers, decimals as exact text; anything else as typed,
      // for the check to name.
      write(bound && bound.whole ? (WHOLE.test(text) ? Number(text) : text) : text);
    });
    c = { fill: (v) => (input.value = String(v ?? '')) };
  }
  ed.controls.set(path, c);
  return el;
}

function hintFor(path, kind, m) {
  if (kind === 'intervals') return L('hint.selected_timeframes', { max: m.max_selected_timeframes });
  if (kind === 'interval') return L(`hint.${last(path)}`);
  if (kind === 'text') return L('hint.prompt', { max: m.prompt_section_max });
  return null;
}

/** Every control shows the config's value, the default where the config has no key. */
function fill(ed) {
  for (const [path, c] of ed.controls) {
    const v = getPath(ed.config, path);
    c.fill(v === undefined ? getPath(ed.meta.config, path) : v);
  }
}

// ---- coins: a chip for each symbol, typed as people write them ---------------------------------

function coinsControl(ed, path, label) {
  const id = `sf-${path.replace(/\W/g, '-')}`;
  const chips = h('ul', { class: 'sf-chips', 'aria-label': label });
  const input = h('input', {
    id, name: path, type: 'text', autocomplete: 'off', spellcheck: 'false', enterkeyhint: 'enter',
    placeholder: L('coins_placeholder'), 'aria-describedby': `${id}-hint ${id}-err`,
  });
  const add = h('button', { type: 'button', class: 'btn small' }, L('add'));
  const suggest = h('div', { class: 'sf-suggest', 'aria-live': 'polite' });
  const error = h('div', { class: 'field-error', 'data-field': path, id: `${id}-err`, 'aria-live': 'polite' });
  const el = h('div', { class: 'field sf-coins', 'data-name': path },
    h('label', { for: id }, label),
    chips,
    h('div', { class: 'sf-entry' }, input, add),
    suggest,
    h('p', { class: 'hint', id: `${id}-hint` }, L(`hint.${last(path)}`)),
    error);

  const list = () => {
    const v = getPath(ed.config, path);
    return Array.isArray(v) ? v : getPath(ed.config, path) === undefined ? clone(getPath(ed.meta.config, path)) || [] : [];
  };
  const draw = () => {
    const coins = list();
    chips.replaceChildren(...coins.map((s, i) => h('li', { class: 'sf-chip', 'data-symbol': s },
      h('span', {}, s),
      h('button', { type: 'button', class: 'sf-chip-remove', 'aria-label': L('remove', { symbol: s }), onclick: () => remove(i) }, '×'))));
    chips.hidden = !coins.length;
  };
  const remove = (i) => {
    const coins = list();
    coins.splice(i, 1);
    setPath(ed.config, path, coins);
    draw();
    input.focus();
  };
  const say = (message) => {
    error.textContent = message || '';
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  const offer = (candidates) => {
    const have = new Set(list());
    suggest.replaceChildren(...candidates.filter((c) => !have.has(c.symbol)).slice(0, 6).map((c) =>
      h('button', { type: 'button', class: 'btn small sf-candidate', 'data-symbol': c.symbol, onclick: () => { put([c.symbol]); input.value = ''; suggest.replaceChildren(); input.focus(); } },
        c.symbol, c.names && c.names.length ? h('span', { class: 'muted' }, ` ${c.names.find((n) => /[^\x00-\x7f]/.test(n)) || c.base}`) : null)));
  };
  const put = (symbols) => {
    const coins = list();
    for (const s of symbols) if (!coins.includes(s)) coins.push(s);
    setPath(ed.config, path, coins);
    draw();
    say('');
  };
  /** What is typed, read by the server: each part added as its symbol, the refused kept. */
  const resolve = async () => {
    const parts = input.value.split(/[,，、;；\n]+/).map((p) => p.trim()).filter(Boolean);
    if (!parts.length) return true;
    let reads;
    try {
      reads = await Promise.all(parts.map((q) => api.get(`/api/symbols?q=${enc(q)}`)));
    } catch (err) {
      say(L('coin_unchecked', { error: err.message }));
      return false;
    }
    put(reads.filter((r) => r.symbol).map((r) => r.symbol));
    const refused = reads.filter((r) => !r.symbol);
    input.value = refused.map((r) => r.query).join(', ');
    if (refused.length) {
      say(refused.map((r) => r.refused).join(' '));
      offer(refused.flatMap((r) => r.candidates || []));
      return false;
    }
    suggest.replaceChildren();
    return true;
  };
  ed.pending.push(resolve);
  let asked = 0;
  const typing = debounce(async () => {
    const q = input.value.split(/[,，、;；]/).pop().trim();
    const mine = ++asked;
    if (!q) return suggest.replaceChildren();
    try {
      const r = await api.get(`/api/symbols?q=${enc(q)}`);
      if (mine === asked) offer(r.candidates || []);
    } catch {
      /* suggestions are a help only */
    }
  }, 200);
  input.addEventListener('input', () => (say(''), typing()));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      typing.cancel();
      asked++;
      resolve();
    } else if (e.key === 'Backspace' && !input.value && list().length) {
      remove(list().length - 1);
    }
  });
  add.addEventListener('click', () => (typing.cancel(), asked++, resolve()));
  ed.controls.set(path, { fill: draw });
  return el;
}

// ---- reading the form, placing the server's answer ---------------------------------------------

/**
 * The API body of the strategy form: name and description as typed (on edit only when
 * changed), and the config when it is new or changed. Coins still typed are read first;
 * a problem throws an error whose `problems` sit under their fields.
 */
export async function readStrategy(form, obj) {
  const body = {};
  for (const name of ['name', 'description']) {
    const el = form.elements.namedItem(name);
    if (!el) continue;
    const v = el.value;
    if (obj ? String(obj[name] ?? '') !== v : v !== '' || name === 'name') body[name] = v;
  }
  const ed = editorIn(form);
  if (!ed) return body;
  await ed.ready;
  if (ed.view === 'form') {
    const results = [];
    for (const resolve of ed.pending) results.push(await resolve());
    if (results.includes(false)) throw invalid([...form.querySelectorAll('.sf-coins .field-error')].filter((e) => e.textContent).map((e) => ({ field: e.dataset.field, message: e.textContent })));
  }
  const config = ed.current();
  if (!obj || stable(config) !== stable(obj.config)) body.config = config;
  return body;
}

/**
 * The server's problems under their fields: a config field by its path (`config.` dropped, as
 * the body parser names it); in the JSON view, every config problem under the JSON.
 */
export function strategyErrors(form, err) {
  const ed = editorIn(form);
  const own = (f) => f === 'name' || f === 'description';
  const problems = (err.problems || []).map((p) => ({ ...p, field: String(p.field || '').replace(/^config\./, '') }));
  const placed = ed && ed.view === 'json'
    ? [...problems.filter((p) => own(p.field)), ...(problems.some((p) => !own(p.field)) ? asJson(problems.filter((p) => !own(p.field))) : [])]
    : problems;
  const shown = Object.assign(new Error(err.message), { problems: placed });
  // A problem the form has no field for (ranking_sources, the config as a whole) is shown
  // where every key is: the JSON, with the rest of the config's problems.
  const visible = (p) => own(p.field) || (p.field !== 'config' && form.querySelector(`.sf-form .field-error[data-field="${CSS.escape(p.field)}"]`));
  if (ed && ed.view === 'form' && !placed.every(visible)) {
    ed.setView('json');
    return strategyErrors(form, err);
  }
  showErrors(form, shown);
}
