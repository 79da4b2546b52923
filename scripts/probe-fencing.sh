#!/usr/bin/env bash
# Split brain, as the hardening issue reproduced it: two engines share one PostgreSQL database
# and 8 paper traders; the engine holding most leases is frozen (SIGSTOP) for 35 s, past its
# 30 s lease, then thawed, three times. Fencing must keep the thawed engine from writing:
# no cycle and no order of an older lease epoch may land after a newer epoch's.
#
#   scripts/probe-fencing.sh           (NOFXI_BIN=PATH to probe a built binary; about 3 minutes)
#
# Needs the local PostgreSQL (127.0.0.1:5432, trust auth); makes and drops its own database.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${NOFXI_BIN:-}
if [ -z "$bin" ]; then
  cargo build -q --release -p nofxi-cli --manifest-path "$root/Cargo.toml"
  bin=${CARGO_TARGET_DIR:-$root/target}/release/nofxi
fi
db=nofxi_fence_probe_$$
psql -h 127.0.0.1 -U postgres -d test -qc "CREATE DATABASE $db"
home=$(mktemp -d)
trap 'kill -CONT $a $b 2>/dev/null; kill $a $b 2>/dev/null; wait 2>/dev/null;
      psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE IF EXISTS $db"; rm -rf "$home"' EXIT
export NOFXI_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" NOFXI_HOME=$home
export NOFXI_MASTER_KEY=$(openssl rand -hex 32)
sql() { psql -h 127.0.0.1 -U postgres -d "$db" -tAc "$1"; }

"$bin" exchange add --type paper --name paper >/dev/null
"$bin" model add --name rules --provider builtin >/dev/null
"$bin" strategy add --name default >/dev/null
for i in 1 2 3 4 5 6 7 8; do
  "$bin" trader add --name "bot$i" --model rules --exchange paper --strategy default \
    --initial-balance 1000 >/dev/null
  "$bin" trader start "bot$i" >/dev/null 2>&1
done
"$bin" run --owner fA --cycle-seconds 10 --sim-speed 600 >"$home/fA.log" 2>&1 & a=$!
sleep 1
"$bin" run --owner fB --cycle-seconds 10 --sim-speed 600 >"$home/fB.log" 2>&1 & b=$!
sleep 8
for round in 1 2 3; do
  holder=$(sql "SELECT owner FROM trader_leases WHERE owner <> '' GROUP BY owner ORDER BY count(*) DESC LIMIT 1")
  pid=$a; [ "$holder" = fB ] && pid=$b
  echo "round $round: freezing $holder for 35 s"
  kill -STOP "$pid"; sleep 35; kill -CONT "$pid"; sleep 15
done
kill -TERM "$a" "$b"; wait "$a" "$b" 2>/dev/null || true

sql "SELECT trader_id, cycle_number, COALESCE(record::json->>'epoch', '-1') FROM trader_cycles
     ORDER BY trader_id, cycle_number" >"$home/cycles"
sql "SELECT key, value FROM states WHERE scope = 'paper' AND key LIKE '%:%'" >"$home/accounts"
python3 - "$home/cycles" "$home/accounts" <<'PY'
import json, re, sys
from collections import defaultdict
cycles = defaultdict(list)
for line in open(sys.argv[1]):
    if line.strip():
        trader, _, epoch = line.rstrip("\n").split("|")
        cycles[trader].append(int(epoch))
stale_cycles = sum(sum(1 for i, e in enumerate(eps) if e < max(eps[:i] or [e])) for eps in cycles.values())
stale_orders, orders, takeovers = 0, 0, 0
for line in open(sys.argv[2]):
    key, _, doc = line.rstrip("\n").partition("|")
    ids = [o["client_order_id"] for o in json.loads(doc)["orders"]]
    eps = [int(m.group(1)) for m in (re.search(r"e(\d+)c\d+i", i) for i in ids) if m]
    stale_orders += sum(1 for x, y in zip(eps, eps[1:]) if y < x)
    stale_orders += len(ids) - len(set(ids))
    orders += len(ids)
takeovers = sum(len(set(eps)) - 1 for eps in cycles.values())
total = sum(len(eps) for eps in cycles.values())
print(f"{len(cycles)} traders, {total} cycles, {orders} orders, {takeovers} takeovers")
print(f"cycles written by a stale engine: {stale_cycles}; orders sent by a stale engine or twice: {stale_orders}")
sys.exit(1 if stale_cycles or stale_orders else 0)
PY
