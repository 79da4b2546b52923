#!/usr/bin/env bash
# The standard world every independent conversation starts from. $1 = nofxi binary, $NOFXI_HOME set.
set -euo pipefail
N="$1"
q() { "$N" "$@" >/dev/null; }
q exchange add --type paper --name paper
q exchange add --type paper --name backup
q exchange add --type binance --name main --api-key AbCdEfGh1234567890abcdefGHIJKLmnopQRSTuvwx12345678AbCdEfGh1234 --secret-key ZyXwVuTs0987654321zyxwvuTSRQPonmlkJIHGfedc98765432ZyXwVuTs0987
q model add --name rules --provider builtin
q model add --name ds --provider deepseek --api-key sk-4f3a9b2c8d7e6f5a4b3c2d1e0f9a8b7c
q strategy add --name default
q strategy add --name scalper
q trader add --name btc-bot --model rules --exchange paper --strategy default --initial-balance 1000
q trader add --name eth-bot --model rules --exchange paper --strategy scalper --initial-balance 500
q trader add --name alpha --model rules --exchange backup --strategy default --initial-balance 2000
q trader start btc-bot
q trader start alpha
timeout 6 "$N" run --sim-speed 600 >/dev/null 2>&1 || true
cat > "$NOFXI_HOME/broker.csv" <<'CSV'
date,code,type,quantity,price,amount,fee,account
2026-01-02,,DEPOSIT,,,300000,,main
2026-01-05,600519.SH,BUY,100,1500,,15,main
2026-02-03,601838.SH,BUY,1000,14.10,,5,main
2026-03-10,601318.SH,BUY,200,50,,5,main
2026-04-01,600519.SH,SELL,20,1620,,10,main
CSV
q portfolio add mine
q portfolio import mine "$NOFXI_HOME/broker.csv"
