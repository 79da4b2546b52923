// One shared EventSource on /api/stream for the pages that want it. The server sends
// `changed` (the contract named `cycle` and `trader`; all are handled).
let es = null;
const subs = new Set();

function open() {
  if (es) return;
  es = new EventSource('/api/stream');
  const dispatch = (type) => (e) => {
    let data = {};
    try {
      data = JSON.parse(e.data);
    } catch {
      /* keep {} */
    }
    subs.forEach((fn) => fn(type, data));
  };
  for (const type of ['changed', 'cycle', 'trader', 'message']) es.addEventListener(type, dispatch(type));
}

/** Calls fn(type, data) on every stream event until the returned function is called. */
export function onStream(fn) {
  subs.add(fn);
  open();
  return () => {
    subs.delete(fn);
    if (!subs.size && es) {
      es.close();
      es = null;
    }
  };
}
