#!/usr/bin/env bash
# The shipping build: the `dist` profile (whole-program LTO, one codegen unit) guided by a
# profile of nofxi doing its usual jobs — profile-guided optimization, as rustc and CPython
# ship their own releases.
#
#   scripts/build-pgo.sh        prints the path of the built binary (under $target/pgo)
#
# Three steps: an instrumented build, a training run that records which branches and calls
# are hot, and a build that uses the record to lay out and inline the code. The training run
# (`train` below) is the README's first session, the conversation suite, and backtests on the
# simulated market and on a CSV of random-walk candles written here — never the benchmark's
# CSV, so the benchmark measures a build that has not seen it. The profile is not kept in
# the repository: it is made fresh by every build, so it cannot go stale.
#
# About 2.5 plain `dist` builds (≈ 30 minutes on 2 cores). Needs `llvm-profdata` from the
# LLVM that rustc uses (`rustc -vV`); on Debian it is installed (`apt-get install llvm-NN`)
# when missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
work=$target/pgo

llvm=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
profdata=$(command -v "llvm-profdata-$llvm" || true)
if [ -z "$profdata" ]; then
  echo "llvm-profdata-$llvm not found: installing llvm-$llvm" >&2
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get install -y -q "llvm-$llvm" >&2
  profdata=$(command -v "llvm-profdata-$llvm")
fi

train() {
  local bin=$1 home csv
  home=$(mktemp -d)
  csv=$home/walk.csv
  # 200,000 one-minute candles of a seeded random walk, in the peers' CSV layout.
  python3 - "$csv" <<'PY'
import random, sys
rng = random.Random(11)
price, t = 30000.0, 1_600_000_000_000
with open(sys.argv[1], "w") as f:
    f.write("timestamp_ms,open,high,low,close,volume\n")
    for _ in range(200_000):
        close = max(1.0, price * (1 + rng.gauss(0, 0.001)))
        high = max(price, close) * (1 + abs(rng.gauss(0, 0.0005)))
        low = min(price, close) * (1 - abs(rng.gauss(0, 0.0005)))
        f.write(f"{t},{price},{high},{low},{close},{rng.uniform(10, 100)}\n")
        price, t = close, t + 60_000
PY
  (
    export NOFXI_HOME=$home
    "$bin" backtest --symbols btc,eth --from 2026-01-01 --to 2026-03-01 --quiet --json
    "$bin" backtest --symbols btc --from 2026-01-01 --to 2026-03-01 --initial-balance 1000000000 --quiet --json
    "$bin" backtest --csv "BTCUSDT=$csv" --interval 1m --fee-bps 4 --quiet --json
    "$bin" backtest --csv "BTCUSDT=$csv" --interval 1m --fee-bps 4 --initial-balance 1000000000 --quiet --json
    "$bin" exchange add --type paper --name paper
    "$bin" model add --name rules --provider builtin
    "$bin" strategy add --name default
    "$bin" trader add --name btc-bot --model rules --exchange paper --strategy default --initial-balance 1000
    "$bin" trader start btc-bot
    # The engine logs every cycle on stderr; its exit by SIGINT is the expected end.
    timeout -s INT 5 "$bin" run --sim-speed 600 2> /dev/null || true
    "$bin" trader journal btc-bot
    "$bin" trader stats btc-bot
    "$bin" eval "$root/tests/conversations"
  ) > /dev/null
  rm -rf "$home"
}

rm -rf "$work/profiles"
mkdir -p "$work/profiles"
echo "== instrumented build" >&2
RUSTFLAGS="-Cprofile-generate=$work/profiles" CARGO_TARGET_DIR="$work/gen" \
  cargo build --profile dist -q -p nofxi-cli
echo "== training run" >&2
train "$work/gen/dist/nofxi"
"$profdata" merge -o "$work/merged.profdata" "$work/profiles"
echo "== optimized build" >&2
RUSTFLAGS="-Cprofile-use=$work/merged.profdata" CARGO_TARGET_DIR="$work/use" \
  cargo build --profile dist -q -p nofxi-cli
echo "$work/use/dist/nofxi"
