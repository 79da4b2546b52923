#!/usr/bin/env bash
# Backtest speed: nofxi against backtrader, backtesting.py and vectorbt on the same candles,
# in one run, so the figures compare as ratios on whatever machine runs it.
#
#   scripts/bench-backtest.sh [CANDLES]        (default 1000000)
#
# nofxi is the shipping build, `dist` guided by a profile (scripts/build-pgo.sh, about 30
# minutes on 2 cores); NOFXI_BENCH_BUILD=dist measures the plain `dist` build instead (about
# 11 minutes the first time); NOFXI_BENCH_BIN=PATH measures a binary already built.
# The peers run the EMA 12/26 cross, long/short, 4 bp fees, from ../shared/bench/peer_backtest.py,
# which also writes the candles to CSV; nofxi replays that CSV through its live cycle code
# (builtin EMA 12/26 decider, risk guard, paper exchange with margin and ATR stops).
# The peers' Python packages go in a venv under target/bench (created on first run); the
# target dir is $CARGO_TARGET_DIR when set.
set -euo pipefail
n=${1:-1000000}
root=$(cd "$(dirname "$0")/.." && pwd)
peer_script=${PEER_BACKTEST:-$root/../shared/bench/peer_backtest.py}
target=${CARGO_TARGET_DIR:-$root/target}
work=$target/bench
mkdir -p "$work"

if [ ! -x "$work/peers/bin/python" ]; then
  python3 -m venv "$work/peers"
  "$work/peers/bin/pip" install -q backtrader backtesting vectorbt
fi

csv=$work/candles-$n.csv
echo "== peers ($n one-minute candles)"
"$work/peers/bin/python" "$peer_script" "$n" "$csv" | tee "$work/peers.txt"

echo "== nofxi"
if [ -n "${NOFXI_BENCH_BIN:-}" ]; then
  nofxi=$NOFXI_BENCH_BIN
elif [ "${NOFXI_BENCH_BUILD:-pgo}" = dist ]; then
  # Whole-program LTO, one codegen unit (see Cargo.toml), without the profile.
  cargo build --profile dist -q -p nofxi-cli
  nofxi=$target/dist/nofxi
else
  nofxi=$("$root/scripts/build-pgo.sh")
fi
echo "binary: $nofxi"
# Twice: with nofxi's default account (10,000 USDT; fees eat it, and once it is below the
# minimum order size the guard refuses every open), and with the peers' (1e9 of cash, so
# every cross trades, as it does for them). The second is the like-for-like workload.
for run in default:10000 peers:1000000000; do
  home=$(mktemp -d)
  NOFXI_HOME=$home "$nofxi" backtest --csv "BTCUSDT=$csv" --interval 1m \
    --fee-bps 4 --initial-balance "${run#*:}" --quiet --json > "$work/nofxi-${run%%:*}.json"
  rm -rf "$home"
done

python3 - "$work/peers.txt" "$work/nofxi-default.json" "$work/nofxi-peers.json" <<'PY'
import json, re, sys
peers = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+): \d+ candles in [\d.]+ s = ([\d,]+) candles/s", line)
    if m:
        peers[m.group(1)] = float(m.group(2).replace(",", ""))
for path, account in ((sys.argv[2], "10,000 USDT"), (sys.argv[3], "1e9 USDT, as the peers")):
    ours = json.load(open(path))
    speed = ours["candles_per_second"]
    print(f"nofxi ({account}): {ours['candles']} candles in {ours['seconds']:.3f} s = "
          f"{speed:,.0f} candles/s ({ours['stats']['total_trades']} trades, {ours['fills']} "
          f"fills, {ours['refused']} opens refused)")
    for name, s in sorted(peers.items(), key=lambda kv: kv[1]):
        print(f"  nofxi / {name}: {speed / s:.2f}x")
PY
