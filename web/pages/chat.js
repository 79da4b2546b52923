// #/chat — the assistant. State lives in chat-store.js; this page only draws it.
import * as store from '../chat-store.js';
import { h, notify, pageHeader } from '../dom.js';
import { t, tOr } from '../i18n.js';
import { fmtValue } from '../format.js';
import { setRich } from '../rich.js';

const SUGGESTIONS = ['add_paper', 'add_builtin', 'create_trader', 'list_traders'];

export function mount(root) {
  const log = h('div', { id: 'chat-log', class: 'chat-log', 'aria-live': 'polite', 'aria-relevant': 'additions text', role: 'log', 'aria-label': t('chat.log_label') });
  const input = h('textarea', { id: 'chat-input', rows: 2, placeholder: t('chat.placeholder'), 'aria-describedby': 'chat-hint' });
  const sendBtn = h('button', { id: 'chat-send', type: 'submit', class: 'btn primary' }, t('chat.send'));
  const status = h('p', { class: 'chat-status muted', id: 'chat-hint' }, t('chat.hint'));
  const form = h('form', { class: 'composer', onsubmit: (e) => (e.preventDefault(), submit()) },
    h('label', { for: 'chat-input', class: 'visually-hidden' }, t('chat.input_label')),
    input, sendBtn);
  const panel = h('aside', { id: 'task-panel', class: 'task-panel card', 'aria-labelledby': 'task-panel-title' });
  const empty = h('div', { class: 'chat-empty' },
    h('p', {}, t('chat.empty')),
    h('div', { class: 'chips' }, SUGGESTIONS.map((k) =>
      h('button', { type: 'button', class: 'chip', onclick: () => { input.value = t(`chat.suggest.${k}`); input.focus(); } }, t(`chat.suggest.${k}`)))));
  const newBtn = h('button', { type: 'button', class: 'btn', id: 'chat-new', onclick: () => { store.newConversation(); input.focus(); } }, t('chat.new'));

  root.append(
    pageHeader(t('chat.title'), newBtn),
    h('div', { class: 'chat-layout' },
      h('section', { class: 'chat-main card', 'aria-label': t('chat.title') }, empty, log, form, status),
      panel));

  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });

  async function submit() {
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    try {
      await store.send(text);
    } catch (err) {
      notify(err.message, 'error');
      if (!input.value) input.value = text;
    }
  }

  const els = new Map();
  let lastPanelKey = '';
  let confirmNote = '';

  /**
   * Under the reply that asked: Yes / No for its confirmation; once a side question withdrew
   * it, "Back to this question" while its task is open; or the readings a clarification
   * offers, each a button that answers with it (only on the newest reply: a later message
   * has moved on).
   */
  function messageActions(el, m, s) {
    const mine = m.role === 'assistant' && m.done;
    const pending = mine && s.pending && s.pending.turnId === m.turnId ? s.pending : null;
    const paused = mine && !pending && s.paused && s.paused.turnId === m.turnId;
    const last = s.messages[s.messages.length - 1] === m;
    const options = mine && last && !pending && Array.isArray(m.options) ? m.options : [];
    const key = JSON.stringify([pending && pending.binding, pending && pending.answered, paused, options]);
    if (el.dataset.actions === key) return;
    el.dataset.actions = key;
    const old = el.querySelector('.msg-actions');
    if (old) old.remove();
    if (pending) {
      el.append(h('div', { class: 'msg-actions', role: 'group', 'aria-label': t('chat.confirm_title') },
        h('button', { type: 'button', class: 'btn primary small', 'data-confirm': 'yes', disabled: !!pending.answered, onclick: () => answer('yes') }, t('chat.confirm_yes')),
        h('button', { type: 'button', class: 'btn small', 'data-confirm': 'no', disabled: !!pending.answered, onclick: () => answer('no') }, t('chat.confirm_no'))));
    } else if (paused) {
      // Back to the question: the server shows it again, with fresh buttons.
      el.append(h('div', { class: 'msg-actions' },
        h('button', { type: 'button', class: 'btn small', 'data-resume': 'true', onclick: () => pick(t('chat.resume_word')) }, t('chat.resume'))));
    } else if (options.length) {
      el.append(h('div', { class: 'msg-actions options', role: 'group', 'aria-label': t('chat.options_label') },
        options.map((o) => h('button', { type: 'button', class: 'chip', 'data-option': o, onclick: () => pick(o) }, o))));
    }
  }

  async function pick(option) {
    try {
      await store.send(option);
    } catch (err) {
      notify(err.message, 'error');
    }
  }

  function renderMessages(s) {
    empty.hidden = s.messages.length > 0;
    const wasAtBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    const keep = new Set();
    let prev = null;
    for (const m of s.messages) {
      keep.add(m.key);
      let el = els.get(m.key);
      if (!el) {
        el = h('div', { class: `msg ${m.role}` }, h('div', { class: 'who' }, t(`chat.role.${m.role}`)), h('div', { class: 'text' }));
        els.set(m.key, el);
      }
      if ((prev ? prev.nextSibling : log.firstChild) !== el) log.insertBefore(el, prev ? prev.nextSibling : log.firstChild);
      prev = el;
      if (m.turnId) el.dataset.turn = m.turnId;
      if (m.role === 'assistant') {
        if (m.done) el.dataset.done = 'true';
        else delete el.dataset.done;
        el.setAttribute('aria-busy', m.done ? 'false' : 'true');
      }
      el.classList.toggle('error', !!m.error || !!m.failed);
      el.classList.toggle('sending', !!m.sending);
      const textEl = el.querySelector('.text');
      const text = m.error ? (m.text ? `${m.text}\n` : '') + t('chat.turn_error', { message: m.error }) : m.failed ? `${m.text}\n${t('chat.send_failed')}` : m.text;
      if (!m.done && !text) {
        if (!textEl.querySelector('.typing')) {
          delete textEl.dataset.rich;
          textEl.replaceChildren(h('span', { class: 'typing', 'aria-label': t('chat.thinking') }, h('span'), h('span'), h('span')));
        }
      } else setRich(textEl, text);
      messageActions(el, m, s);
    }
    for (const [k, el] of els) if (!keep.has(k)) (el.remove(), els.delete(k));
    if (wasAtBottom) log.scrollTop = log.scrollHeight;
    log.setAttribute('aria-busy', store.isBusy() ? 'true' : 'false');
    sendBtn.disabled = false;
    status.textContent = s.connection === 'error' ? t('chat.disconnected') : t('chat.hint');
    status.classList.toggle('warn', s.connection === 'error');
  }

  function slotList(obj) {
    const entries = Object.entries(obj || {});
    if (!entries.length) return null;
    return h('dl', { class: 'slots' }, entries.map(([k, v]) => h('div', {}, h('dt', {}, tOr(`slot.${k}`, k)), h('dd', {}, fmtValue(v)))));
  }

  function taskBlock(task, active) {
    return h('div', { class: `task ${active ? 'active' : 'suspended'}` },
      h('div', { class: 'task-head' },
        h('strong', {}, tOr(`skill.${task.skill}`, task.skill), ' · ', tOr(`action.${task.action}`, task.action)),
        h('span', { class: `badge status-${task.status}` }, tOr(`task_status.${task.status}`, task.status))),
      slotList(task.slots) ? [h('p', { class: 'label' }, t('chat.collected')), slotList(task.slots)] : null,
      task.missing && task.missing.length
        ? [h('p', { class: 'label' }, t('chat.missing')), h('ul', { class: 'missing' }, task.missing.map((m) => h('li', {}, tOr(`slot.${m}`, m))))]
        : null);
  }

  let noteBinding = null;

  function renderPanel(s) {
    const binding = s.pending ? s.pending.binding : null;
    if (binding !== noteBinding) {
      noteBinding = binding;
      if (binding) confirmNote = '';
    }
    const key = JSON.stringify([s.stack, s.pending, confirmNote, s.conversationId]);
    if (key === lastPanelKey) return;
    lastPanelKey = key;
    const stack = s.stack || [];
    const active = stack.length ? stack[stack.length - 1] : null;
    const suspended = stack.slice(0, -1).reverse();
    const kids = [h('h2', { id: 'task-panel-title' }, t('chat.tasks'))];
    if (s.pending) {
      const answered = s.pending.answered;
      kids.push(h('div', { class: 'confirmation', role: 'group', 'aria-label': t('chat.confirm_title') },
        h('p', { class: 'label' }, t('chat.confirm_title')),
        h('p', { class: 'summary' }, s.pending.summary),
        h('div', { class: 'actions' },
          h('button', { type: 'button', class: 'btn primary', 'data-confirm': 'yes', disabled: !!answered, onclick: () => answer('yes') }, t('chat.confirm_yes')),
          h('button', { type: 'button', class: 'btn', 'data-confirm': 'no', disabled: !!answered, onclick: () => answer('no') }, t('chat.confirm_no'))),
        confirmNote ? h('p', { class: 'note warn', role: 'status' }, confirmNote) : null));
    } else if (confirmNote) kids.push(h('p', { class: 'note warn', role: 'status' }, confirmNote));
    if (active) kids.push(h('p', { class: 'label' }, t('chat.active_task')), taskBlock(active, true));
    else kids.push(h('p', { class: 'muted' }, t('chat.no_task')));
    if (suspended.length) kids.push(h('p', { class: 'label' }, t('chat.suspended')), suspended.map((x) => taskBlock(x, false)));
    panel.replaceChildren(...kids.flat());
  }

  async function answer(a) {
    confirmNote = '';
    try {
      await store.confirm(a);
    } catch (err) {
      confirmNote = err.status === 409 ? t('chat.confirm_stale') : err.message;
      render(store.getState());
    }
  }

  function render(s) {
    renderMessages(s);
    renderPanel(s);
  }

  const off = store.subscribe(render);
  render(store.getState());
  store.attach().catch((err) => notify(err.message, 'error'));
  requestAnimationFrame(() => {
    log.scrollTop = log.scrollHeight;
    input.focus();
  });
  return () => off(); // the store and its EventSource stay alive
}
