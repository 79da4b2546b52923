// Adapts what the server returns to what the pages draw, tolerating both the contract's
// shapes and the server's (StatusView, nested stats, raw cycle records).
import { toNum } from './format.js';

/** {state, reason, reasonCode, lastCycleAt} from a dashboard card, a trader or a StatusView. */
export function traderState(o) {
  if (!o) return { state: 'unknown' };
  const sv = o.status && typeof o.status === 'object' ? o.status : o.marked_running !== undefined || o.engine !== undefined ? o : null;
  if (!sv) {
    return {
      state: o.state || (o.is_running ? 'running' : 'stopped'),
      reason: o.reason || null,
      lastCycleAt: o.last_cycle_at ?? null,
    };
  }
  const e = sv.engine || null;
  const marked = sv.marked_running ?? o.is_running ?? false;
  let state;
  if (e && e.running) state = e.safe_mode ? 'safe_mode' : 'running';
  else if (marked) state = 'waiting';
  else if (e && e.stop_reason === 'error') state = 'error';
  else state = 'stopped';
  return {
    state,
    reasonCode: e && !e.running ? e.stop_reason || null : null,
    reason: e && (!e.running || e.safe_mode) ? e.detail || null : null,
    lastCycleAt: (e && e.last_cycle_ms) ?? null,
    lastCycle: (e && e.last_cycle) ?? null,
    simulated: !!(e && e.simulated),
    leaseWait: sv.lease_wait_seconds ?? null,
  };
}

/** Stats as one flat object; win_rate as a percent. */
export function flattenStats(s) {
  if (!s) return {};
  const flat = s.stats && typeof s.stats === 'object' ? { ...s.stats, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'stats')) } : { ...s };
  const wr = toNum(flat.win_rate);
  if (Number.isFinite(wr) && wr <= 1 && !('win_rate_pct' in flat)) flat.win_rate = wr * 100;
  // No Sharpe ratio yet (too few returns): shown as "—", not as the server's English reason.
  if (flat.sharpe_ratio === undefined && 'sharpe_na' in flat) flat.sharpe_ratio = null;
  delete flat.sharpe_na;
  return flat;
}

/** A journal entry in the contract's shape, keeping the server's extra fields in `extra`. */
export function normalizeCycle(c) {
  const used = new Set();
  const take = (k) => (used.add(k), c[k]);
  const guard = c.guard
    ? take('guard')
    : [
        ...(take('approved') || []).map((a) => ({
          symbol: a.decision && a.decision.symbol,
          action: a.decision && a.decision.action,
          verdict: 'approved',
          reason: (a.adjustments || []).join('; ') || null,
        })),
        ...(take('refused') || []).map((r) => ({
          symbol: r.decision && r.decision.symbol,
          action: r.decision && r.decision.action,
          verdict: 'refused',
          reason: r.reason,
        })),
      ];
  const prompt = c.prompt
    ? take('prompt')
    : take('system_prompt') || take('user_prompt')
      ? { system: c.system_prompt, user: c.user_prompt }
      : null;
  const after = take('account_after');
  const n = {
    cycle_number: take('cycle_number'),
    at: take('at') ?? take('started_ms'),
    error: take('error') || null,
    success: take('success'),
    reasoning: take('reasoning'),
    decisions: take('decisions') || [],
    guard,
    orders: take('orders') || take('executions') || [],
    fills: take('fills') || [],
    equity: take('equity') ?? (after ? after.equity : c.account_before ? c.account_before.equity : null),
    prompt,
    raw_response: take('raw_response'),
    model: take('model') || null,
    notes: take('notes') || [],
    invalid: take('invalid') || [],
    raw: c,
  };
  if (n.success == null) n.success = !n.error;
  used.add('trader_id');
  used.add('account_before');
  used.add('positions_after');
  n.extra = Object.fromEntries(Object.entries(c).filter(([k, v]) => !used.has(k) && v != null && typeof v !== 'object'));
  return n;
}

/** Chart points from `[{t, equity}]` or `[[t, equity]]`. */
export function curvePoints(arr) {
  if (!Array.isArray(arr)) return [];
  return arr
    .map((p) => (Array.isArray(p) ? { t: p[0], v: p[1] } : p && typeof p === 'object' ? { t: p.t ?? p.time ?? p.at, v: p.equity ?? p.v ?? p.value } : null))
    .filter(Boolean);
}
