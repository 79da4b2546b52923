// Fetch wrapper: JSON in/out, CSRF token on mutations, Accept-Language, typed errors.
import { getLang, t } from './i18n.js';

let session = null;

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || t('error.http', { status }));
    this.status = status;
    this.code = e.code || (status ? `http_${status}` : 'network');
    this.problems = Array.isArray(e.problems) ? e.problems : [];
  }
}

export async function loadSession(force = false) {
  if (session && !force) return session;
  session = await request('GET', '/api/session');
  return session;
}

export function setSession(s) {
  session = s;
}

export function currentSession() {
  return session;
}

async function request(method, path, body, retried = false) {
  const mutation = method !== 'GET';
  const headers = { Accept: 'application/json', 'Accept-Language': getLang() };
  if (mutation) {
    if (!session && path !== '/api/login') await loadSession();
    headers['Content-Type'] = 'application/json';
    if (session && session.csrf_token) headers['X-CSRF-Token'] = session.csrf_token;
  }
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: mutation ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch {
    throw new ApiError(0, { error: { code: 'network', message: t('error.network') } });
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    // A rotated CSRF token: fetch a fresh session once and retry.
    if (mutation && !retried && res.status === 403 && path !== '/api/login') {
      try {
        await loadSession(true);
        return request(method, path, body, true);
      } catch {
        /* fall through to the original error */
      }
    }
    if (res.status === 401) window.dispatchEvent(new CustomEvent('nofxi:unauthenticated'));
    throw new ApiError(res.status, data || { error: { message: text || undefined } });
  }
  return data;
}

export const api = {
  get: (p) => request('GET', p),
  post: (p, b) => request('POST', p, b),
  patch: (p, b) => request('PATCH', p, b),
  put: (p, b) => request('PUT', p, b),
  del: (p, b) => request('DELETE', p, b),
  request,
};

export const enc = encodeURIComponent;
