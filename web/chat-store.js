// The chat's state lives here, outside any page: the EventSource and the messages survive
// navigation. The chat page subscribes while mounted and re-renders from this store.
import { api, enc } from './api.js';
import { getLang } from './i18n.js';

const state = {
  loaded: false, // GET /api/chat/latest done (or a new conversation was chosen)
  conversationId: null,
  messages: [], // {key, role:'user'|'assistant', turnId, text, done, error, at}
  lastSeq: 0,
  stack: [],
  events: [], // events of the last finished turn
  pending: null, // {binding, summary, taskId, turnId} — the confirmation the last turn asked for
  paused: null, // {taskId, turnId} — a confirmation a side question withdrew, its task still open
  lastBinding: null, // last binding this client was shown (sent as seen_confirmation)
  connection: 'idle', // idle | connecting | open | error
  busyTurns: new Set(),
};
let es = null;
let keySeq = 0;
let retryDelay = 1000;
const listeners = new Set();

export function getState() {
  return state;
}

export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function emit() {
  listeners.forEach((fn) => fn(state));
}

/** Attach to the latest conversation once; later calls only make sure the stream is open. */
export async function attach() {
  if (!state.loaded) {
    const r = await api.get('/api/chat/latest');
    if (!state.loaded) {
      state.loaded = true;
      state.conversationId = (r && r.conversation_id) || null;
    }
  }
  ensureStream();
  emit();
}

function ensureStream() {
  if (!state.conversationId) return;
  if (es && es.readyState !== EventSource.CLOSED && es.__conv === state.conversationId) return;
  if (es) es.close();
  const url = `/api/chat/conversations/${enc(state.conversationId)}/events` + (state.lastSeq ? `?after=${state.lastSeq}` : '');
  es = new EventSource(url);
  es.__conv = state.conversationId;
  state.connection = 'connecting';
  es.onopen = () => {
    retryDelay = 1000;
    state.connection = 'open';
    emit();
  };
  const mine = es;
  es.onerror = () => {
    const closed = mine.readyState === EventSource.CLOSED;
    state.connection = closed ? 'error' : 'connecting';
    emit();
    // The browser gives up on an HTTP error; try again later ourselves (after the last seq).
    if (closed && es === mine) {
      retryDelay = Math.min(retryDelay * 2, 30000);
      setTimeout(() => es === mine && ensureStream(), retryDelay);
    }
  };
  for (const type of ['user', 'delta', 'turn', 'error']) {
    es.addEventListener(type, (e) => onEvent(type, e, es.__conv));
  }
}

function onEvent(type, e, conv) {
  if (conv !== state.conversationId) return;
  const seq = Number(e.lastEventId);
  if (Number.isFinite(seq) && e.lastEventId !== '') {
    if (seq <= state.lastSeq) return; // replayed: already applied
    state.lastSeq = seq;
  }
  let d;
  try {
    d = JSON.parse(e.data);
  } catch {
    return;
  }
  apply(type, d);
  emit();
}

function findMsg(role, turnId) {
  return state.messages.find((m) => m.role === role && m.turnId === turnId);
}

function assistantFor(turnId) {
  let m = findMsg('assistant', turnId);
  if (!m) {
    m = { key: `m${++keySeq}`, role: 'assistant', turnId, text: '', done: false };
    state.messages.push(m);
  }
  return m;
}

function apply(type, d) {
  const turnId = d.turn_id;
  if (type === 'user') {
    let m = findMsg('user', turnId);
    if (!m) m = state.messages.find((x) => x.role === 'user' && !x.turnId && x.text === d.message);
    if (m) {
      m.turnId = turnId;
      m.at = d.at;
    } else {
      const msg = { key: `m${++keySeq}`, role: 'user', turnId, text: d.message ?? '', at: d.at, done: true };
      const a = findMsg('assistant', turnId); // placeholder made by confirm(): keep user first
      if (a) state.messages.splice(state.messages.indexOf(a), 0, msg);
      else state.messages.push(msg);
    }
    assistantFor(turnId);
    state.busyTurns.add(turnId);
  } else if (type === 'delta') {
    const m = assistantFor(turnId);
    if (!m.done) m.text += d.text ?? '';
    state.busyTurns.add(turnId);
  } else if (type === 'turn') {
    const r = d.response || {};
    const m = assistantFor(turnId);
    m.text = r.reply ?? m.text;
    m.done = true;
    state.busyTurns.delete(turnId);
    state.stack = Array.isArray(r.stack) ? r.stack : [];
    state.events = Array.isArray(r.events) ? r.events : [];
    const conf = [...state.events].reverse().find((ev) => ev.type === 'confirmation_requested' && ev.binding);
    const clar = state.events.find((ev) => ev.type === 'clarification' && Array.isArray(ev.options));
    m.options = clar ? clar.options : null;
    if (conf) {
      state.pending = { binding: conf.binding, summary: conf.summary, taskId: conf.task_id, turnId };
      state.lastBinding = conf.binding;
      state.paused = null;
    } else {
      // A side question withdraws the confirmation (the server wants it shown again before a
      // yes counts); while its task is still open, the reply that asked offers to go back to it.
      const was = state.pending || state.paused;
      state.paused = was && !(state.pending && state.pending.answered) && open(state.stack, was.taskId) ? { taskId: was.taskId, turnId: was.turnId } : null;
      state.pending = null;
    }
  } else if (type === 'error') {
    const m = assistantFor(turnId);
    m.error = d.message || 'error';
    m.done = true;
    state.busyTurns.delete(turnId);
  }
}

/** Whether the task `taskId` is still on the stack (only unfinished tasks are). */
function open(stack, taskId) {
  return stack.some((task) => task.task_id === taskId);
}

/** Sends a typed message. Resolves with the turn id; throws ApiError. */
export async function send(message) {
  const optimistic = { key: `m${++keySeq}`, role: 'user', turnId: null, text: message, done: true, sending: true };
  state.messages.push(optimistic);
  emit();
  try {
    const r = await api.post('/api/chat/turns', {
      conversation_id: state.conversationId,
      message,
      seen_confirmation: state.lastBinding,
    });
    if (r && r.conversation_id && r.conversation_id !== state.conversationId) {
      state.conversationId = r.conversation_id;
      state.loaded = true;
    }
    const dup = r && r.turn_id && findMsg('user', r.turn_id);
    if (dup && dup !== optimistic) state.messages.splice(state.messages.indexOf(optimistic), 1);
    else optimistic.turnId = r && r.turn_id;
    optimistic.sending = false;
    if (r && r.turn_id) {
      assistantFor(r.turn_id);
      state.busyTurns.add(r.turn_id);
    }
    ensureStream();
    emit();
    return r && r.turn_id;
  } catch (err) {
    optimistic.sending = false;
    optimistic.failed = true;
    emit();
    throw err;
  }
}

/** Answers the pending confirmation with buttons. Throws ApiError (409 when stale). */
export async function confirm(answer) {
  const p = state.pending;
  if (!p || p.answered) return null;
  // Answered at once: a second click of the same button (a double-click) sends nothing.
  const answered = { ...p, answered: answer };
  state.pending = answered;
  emit();
  let r;
  try {
    r = await api.post('/api/chat/confirm', {
      conversation_id: state.conversationId,
      binding: p.binding,
      answer,
      lang: getLang(),
    });
  } catch (err) {
    if (state.pending === answered) state.pending = p;
    throw err;
  }
  if (r && r.turn_id) {
    assistantFor(r.turn_id);
    state.busyTurns.add(r.turn_id);
  }
  emit();
  return r;
}

export function newConversation() {
  if (es) es.close();
  es = null;
  Object.assign(state, {
    loaded: true,
    conversationId: null,
    messages: [],
    lastSeq: 0,
    stack: [],
    events: [],
    pending: null,
    paused: null,
    lastBinding: null,
    connection: 'idle',
    busyTurns: new Set(),
  });
  emit();
}

export function isBusy() {
  return state.busyTurns.size > 0;
}
