// A Test button: one probe of a model config or an exchange account (POST …/test), its
// result said beside the button — what works, or what happened / why / what now.
import { api, enc } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { richText } from './rich.js';

/** A live region for results, for a list whose rows share one (`testButton`'s `out`). */
export function probeOutput(id) {
  return h('div', { id, class: 'probe-result', role: 'status', 'aria-live': 'polite', hidden: true });
}

/** `kind`: 'models' or 'exchanges'; `ref`: the row's id or name; `label`: what the row is
 *  called (the button's accessible name, and the result's first word); `out`: where the
 *  result is said (default: beside the button). */
export function testButton(kind, ref, label, out = null) {
  const own = !out;
  out = out || probeOutput(null);
  const btn = h('button', { type: 'button', class: 'btn small', 'aria-label': t('probe.test_named', { name: label }) }, t('probe.test'));
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    btn.textContent = t('probe.testing');
    out.hidden = false;
    out.className = 'probe-result muted';
    out.textContent = `${label}: ${t('probe.testing')}`;
    try {
      const r = await api.post(`/api/${kind}/${enc(ref)}/test`, {});
      out.className = `probe-result ${r.ok ? 'tone-ok' : 'tone-bad'}`;
      out.replaceChildren(h('strong', {}, `${label}: `, r.ok ? t('probe.ok') : t('probe.failed')), ' ', h('span', { class: 'probe-text' }, richText(r.text)));
    } catch (err) {
      out.className = 'probe-result tone-bad';
      out.textContent = err.message;
    } finally {
      btn.disabled = false;
      btn.textContent = t('probe.test');
    }
  });
  return own ? h('span', { class: 'probe' }, btn, out) : btn;
}
