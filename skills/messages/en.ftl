# The assistant's reply texts in English, one message per id (Project Fluent syntax:
# https://projectfluent.org/fluent/guide/). zh.ftl holds the same ids; `nofxi skills lint`
# names any id one language lacks. Arguments arrive as text already formatted (exact
# decimals, labelled times); `$count` selects a plural form.

## A trader's journal ("show btc-bot's journal", "交易员日志")

journal-header = { $count ->
    [one] The last cycle of { $name }:
   *[other] The last { $count } cycles of { $name }:
}
journal-empty = { $name } has no cycle on record yet: a started trader trades only while an engine runs it (`nofxi run`).
journal-cycle = #{ $cycle } · { $time } · { $decided }
journal-no-decision = no decision
journal-equity = equity { $equity } USDT
journal-refused = refused { $what }: { $reason }
journal-orders = orders: { $ok } placed, { $failed } failed
journal-order-error = order for { $symbol } failed: { $error }
journal-error = error: { $error }
journal-why = why: { $reasoning }
journal-more = Older cycles and full prompts: `nofxi trader journal { $name } --limit 50 --json`.

## A trader's closed trades ("btc-bot's closed trades", "平仓记录")

trades-header = { $count ->
    [one] The last closed trade of { $name } ({ $total } in all):
   *[other] The last { $count } closed trades of { $name } ({ $total } in all), newest first:
}
trades-none = { $name } has closed no trade yet.
trades-unreadable = The trades of { $name } cannot be read now: { $error }
trades-row = { $symbol } { $side } { $quantity }: { $entry } → { $exit }, closed { $closed }, held { $held }, P&L { $pnl } USDT (fees { $fees }), { $reason }
trades-funding = , funding { $funding } USDT
trades-reason-signal = its own signal
trades-reason-stop-loss = stop-loss
trades-reason-take-profit = take-profit
trades-reason-liquidation = liquidated
trades-reason-manual = closed by hand
trades-reason-unknown = reason not known
trades-held-days = { $n } d
trades-held-hours = { $n } h
trades-held-minutes = { $n } min
trades-held-seconds = { $n } s

## A trader's performance ("btc-bot stats", "收益怎么样")

stats-header = { $name }'s performance, from its account's fills and its journal:
stats-trades = trades: { $total } closed ({ $wins } won, { $losses } lost), win rate { $win_rate }
stats-pnl = P&L: { $pnl } USDT{ $of_basis }, net of { $fees } USDT fees
stats-of-basis = {" "}({ $pct }% of { $basis } USDT at its start)
stats-split = of which realized { $realized } USDT (in the wallet: closed trades after fees and funding) and unrealized { $unrealized } USDT (on { $count ->
    [one] one open position
   *[other] { $count } open positions
} at the mark price)
stats-drawdown = max drawdown { $drawdown }%, profit factor { $profit_factor }
stats-sample-small = too few trades to rely on the win rate and profit factor: { $trades } closed, { $min } needed
stats-none = { $name } has closed no trade yet.
stats-unreadable = The figures of { $name } cannot be read now: { $error }
stats-missing = -

## P&L of every trader ("total pnl across traders", "所有交易员总收益")

pnl-header = Every trader's P&L from its own start, read from the account it trades now:
pnl-row = { $name }: equity { $equity } USDT, P&L { $pnl } USDT ({ $pct }%): realized { $realized }, unrealized { $unrealized }
pnl-row-unread = { $name }: { $why }
pnl-not-started = never started, so no figures yet
pnl-total = total: equity { $equity } USDT, P&L { $pnl } USDT (realized { $realized }, unrealized { $unrealized }) across { $count ->
    [one] one trader
   *[other] { $count } traders
}
pnl-no-traders = There is no trader yet, so there is no P&L to add up.

## An exchange account's balance and positions ("balance of paper", "main 的持仓")

account-header = { $name } ({ $kind }), read now:
account-header-paper = { $name } (paper), each trader's sub-account, read now:
account-balance = { $who }equity { $equity } { $asset }, wallet { $wallet }, unrealized P&L { $unrealized }, margin used { $margin }, available { $available }
account-who = { $trader }: {""}
account-untouched = No trader has traded on { $name } yet; its own wallet:
account-no-positions = No open positions.
account-position = { $who }{ $symbol } { $side } { $quantity } @ { $entry }, mark { $mark }, { $leverage }x { $margin_mode }, unrealized P&L { $unrealized } USDT{ $liquidation }
account-liquidation = , liquidation { $price }
account-unreadable = { $name } cannot be read now: { $error }. `nofxi exchange test { $name }` checks each step (clock, key, IP, permissions).
# An account of a type nofxi cannot trade on (Gate, KuCoin, Aster, Lighter), made by an earlier
# nofxi: kept as a config, never connected to, and no new one is offered.
exchange-trading-not-available = Trading on { $kind } accounts is not available: nofxi trades on { $tradable } only and cannot connect to { $kind }, so it can neither check this account nor start a trader on it. The account is kept as a config: you can rename, update or delete it.

## The trash ("what's in the trash", "回收站里有什么")

trash-header = In the trash (each restorable for 30 days after it was deleted):
trash-row = { $kind } { $name }, deleted { $deleted }, { $count ->
    [one] one day left
   *[other] { $count } days left
}
trash-empty = The trash is empty.
trash-empty-kind = No { $kind } is in the trash.
trash-restore = To bring one back, say "restore { $kind } { $name }".
kind-trader = trader
kind-exchange = exchange account
kind-model = model
kind-strategy = strategy

## A market quote ("btc price", "what's ETH at")

market-quote = { $symbol } on { $source }: last { $last }, bid { $bid }, ask { $ask }, 24h volume { $volume } ({ $time })
market-source-live = { $name } ({ $kind }), live
market-source-paper = { $name }'s simulated market (paper, not a live quote)
market-source-sim = nofxi's simulated market (no exchange account yet; not a live quote)
market-unknown-symbol = "{ $symbol }" is no symbol I can quote: say a coin (BTC, 比特币) or a pair (BTCUSDT).
market-unquoted = { $symbol } cannot be quoted from { $source } now: { $error }
market-rate-limited = { $symbol } was not quoted: nofxi keeps to { $limit } market-data requests a minute to { $source }, and this minute's are used. Ask again in { $seconds } s.
market-rate-limited-source = { $source } is limiting requests ({ $error }), so { $symbol } was not quoted. Ask again in { $seconds } s.
market-source-public = { $venue } public market data (live)
market-source-sim-offline = nofxi's simulated market (offline, not a live quote)
market-source-paper-live = { $name } (paper) on { $venue } live prices
market-unknown-source = There is no market-data source "{ $source }": use { $names }.
# A coin typed into a strategy's coin list, refused (GET /api/symbols)
symbol-unknown-nearest = unknown coin "{ $given }": did you mean { $nearest }?
symbol-unknown = unknown coin "{ $given }": nofxi knows { $known }; write one as a ticker (BTC), a symbol (BTCUSDT), a pair (BTC-USDT) or a name (比特币).
symbol-not-perpetual = "{ $given }" is not a USDT perpetual, the only contracts nofxi trades (not another quote such as USD or USDC, nor a dated future): write the coin as a ticker (BTC), a symbol (BTCUSDT), a pair (BTC-USDT) or a venue's perpetual (BTC-USDT-SWAP, BTCUSDT.P).
market-what-price = price
market-what-book = order book
market-what-klines = candles
market-book-header = { $symbol } order book on { $source }, { $time }, top { $levels } levels a side:
market-book-columns = bid size | bid | ask | ask size
market-book-summary = Spread { $spread } ({ $spread_pct }%); pressure ratio { $pressure } (Σ bid size { $bids } / Σ ask size { $asks } over { $levels } levels): { $reading }.
market-book-bids-outweigh = bids outweigh asks
market-book-asks-outweigh = asks outweigh bids
market-book-even = bids and asks are even
market-book-one-sided = No asks in the top { $levels } levels, so there is no pressure ratio.
market-klines-header = { $symbol } { $interval } candles on { $source }, the last { $count } up to { $time }:
market-klines-columns = open time | open | high | low | close | volume
market-klines-summary = Over { $count } candles: { $change }% ({ $first_open } → { $last_close }), high { $high }, low { $low }.
market-klines-none = { $source } has no { $interval } candles of { $symbol } for that time.
market-which-symbol-book = Which symbol's order book? Say a coin or a pair: BTC, ETHUSDT.
market-which-symbol-klines = Which symbol's candles? Say a coin or a pair (BTC, ETHUSDT), with an interval if not 1h (4h, 1d).
market-function-invalid = The { $what } could not be requested: { $problems }
market-function-no-source = nofxi's market sources have no { $what } of { $symbol }: they serve crypto pairs (BTC, ETHUSDT) only.
market-function-failed = The { $what } of { $symbol } could not be read from { $source }: { $error }
market-error-no-answer = no answer within { $seconds } s (no network, or the exchange is down)
market-error-not-answering = it did not answer { $ago } s ago, so it is not asked again for { $again } s

## An exchange type said where an account name was looked for ("do you support bybit")

exchange-type-offered = nofxi does trade on { $type }: you have no { $type } account yet. Say "add a { $type } account" to set one up (it asks for the keys { $type } gives you).
exchange-type-not-offered = nofxi cannot trade on { $type }; it trades on { $types }.
market-function-rate-limited = The { $what } of { $symbol } could not be read now: nofxi keeps to { $limit } market-data requests a minute to { $source }, and this minute's are used. Ask again in { $seconds } s.
market-function-rate-limited-source = { $source } is limiting requests ({ $error }), so the { $what } of { $symbol } could not be read. Ask again in { $seconds } s.
market-bad-time = `{ $field }` "{ $value }" is no time: use ISO 8601, like 2026-01-01T00:00:00Z.
market-start-after-end = The start time is after the end time: swap them.

## Taking back a change the last message already made ("stop btc-bot" → "actually no")

already-done = That was already done on your last message ({ $label }: { $name }), so there is nothing left to cancel. { $undo }
undo-by-hand = To undo it, change it back the same way.
undo-offer-values = Shall I change { $name } back ({ $changes })?
undo-trader_management-start = To undo it, say "stop { $name }".
undo-trader_management-stop = To undo it, say "start { $name }".
undo-trader_management-delete = It is in the trash for 30 days: say "restore trader { $name }" to bring it back.
undo-trader_management-create = To undo it, say "delete trader { $name }".
undo-exchange_management-delete = It is in the trash for 30 days: say "restore exchange { $name }" to bring it back.
undo-model_management-delete = It is in the trash for 30 days: say "restore model { $name }" to bring it back.
undo-strategy_management-delete = It is in the trash for 30 days: say "restore strategy { $name }" to bring it back.

## Starting a trader

start-no-engine = No engine is running now: it starts trading once `nofxi run` or `nofxi serve` runs.
undo-exchange_management-create = To undo it, say "delete exchange { $name }".
undo-model_management-create = To undo it, say "delete model { $name }".
undo-strategy_management-create = To undo it, say "delete strategy { $name }".

turn-nothing-done = I have not changed anything. Tell me what you would like to do, or say "help".

none-yet-exchange = You have no exchange account yet: say "add a paper exchange called main" (simulated money, no key needed), then I come back to this.
none-yet-model = You have no model config yet: say "add a builtin model called builtin" (offline rules, no key), then I come back to this.
none-yet-strategy = You have no strategy yet: say "create a strategy s1" (BTC and ETH, default risk settings), then I come back to this.
none-yet-trader = You have no trader yet: say "create a trader" to make one.

## HTTP API errors (`nofxi serve`): what happened and what to do.
http-not-found = No such page or API route: { $path }. The API's routes are listed at /api/openapi.json.
http-bad-json = The request body is not valid JSON for this route: { $detail }. Fix the body and send it again.
http-csrf = This change needs the X-CSRF-Token header from GET /api/session: reload the page and try again.
http-host = Host { $host } is not this server's address: open the URL `nofxi serve` printed.
http-login = Log in first: POST /api/login with your user and password (the page shows the form), or send an API token as `Authorization: Bearer …` (create one with `nofxi token create`).
http-token = That API token is not valid (mistyped, revoked, or its user is disabled): create a new one with `nofxi token create --user NAME --scopes read`.
http-mcp-token = /mcp needs an API token: create one with `nofxi token create --scopes read,write,trade` and send it as `Authorization: Bearer …`.
http-mcp-origin = /mcp does not take requests from web pages (this one came with an Origin header): connect an MCP client (an agent or IDE) to it instead.
http-scope = This needs the `{ $scope }` scope, which this API token does not have: create a token with it (`nofxi token create --scopes read,write,trade`).
http-no-login = This server runs in local mode, with no users and no login: use it as it is, or add a user with `nofxi user add NAME` and restart `nofxi serve`.
http-bad-login = Wrong user name or password. Check both and try again.
http-login-limited = Too many failed logins: wait { $seconds } seconds and try again.
http-stale-confirmation = That confirmation is no longer the pending one (it was answered, or the object changed): look at the current question and answer that.
http-no-confirmation = Nothing is waiting for a confirmation in this conversation.
http-confirm-mismatch = That confirmation was made for another action or object: ask again and confirm the new summary.
http-conversation-unknown = No conversation { $id } for this user: start one with POST /api/chat/turns without a conversation_id.
http-backtest-unknown = No backtest { $id } in this server: backtests are kept in memory until the server stops.
http-backtest-busy = { $count } backtests are already running: wait for one to finish.
http-empty-message = The message is empty: type something to send.
http-unknown-field = Unknown field { $field }: the fields this route takes are listed at /api/openapi.json.
http-internal = Something failed inside nofxi: { $detail }
http-start-refused = Trader { $name } cannot start: { $detail }
http-account-unreadable = The exchange account cannot be read now: { $detail }
confirm-start = Start trader { $name } on { $exchange } ({ $kind }): { $account }. Model { $model }, strategy { $strategy }, initial balance { $balance } USDT.
confirm-stop = Stop trader { $name }: it finishes the cycle in progress and opens nothing new; open positions stay open.
confirm-close-position = Close trader { $name }'s { $side } position of { $quantity } { $symbol } at market on { $account }. Its stop-loss and take-profit orders are cancelled with it.
confirm-stop-close-all = Stop trader { $name } and close all its open positions at market on { $account }: { $positions }. It opens nothing new.
confirm-stop-close-none = Stop trader { $name } on { $account }; it holds no open position now, so nothing is closed unless it opens one before it stops.
confirm-close-all = Close all of trader { $name }'s open positions at market on { $account }: { $positions }.
http-close-refused = Trader { $name }'s positions could not be closed: { $detail }
http-close-not-found = Trader { $name } holds no { $side } position in { $symbol } now: it was closed already (by a stop or by the trader). Read its positions again.
http-close-bad-position = Name the position to close by its symbol (BTCUSDT) and its side (LONG or SHORT).
http-close-still-held = Trader { $name } is stopped and opens nothing new, but the engine that ran it has not let it go yet (it finishes its cycle first), so its positions are still open: close them again in a moment.
http-settings-model-empty = Name the model the assistant should ask (its name or id), or send `null` to use rules only.
http-assistant-model-builtin = { $name } is the offline rule decider for traders and cannot hold a conversation: choose a model with an LLM provider (add one under Traders & resources → Models).
http-assistant-model-disabled = { $name } is disabled: enable it under Traders & resources → Models first.
http-assistant-model-no-key = { $name } has no API key: add its key under Traders & resources → Models (Edit) first.
http-assistant-model-endpoint = { $name } cannot be reached as configured: { $detail }
http-tokens-local = This server runs in local mode, with no logins, so there are no API tokens: add a user (`nofxi user add NAME`) and restart `nofxi serve` to use them.
http-tokens-by-token = API tokens are made and revoked by a person logged in through the page, not with another token: log in to the web app and use Settings.
http-token-scope-unknown = Unknown scope { $scope }: the scopes are read, write and trade.
http-token-scope-not-held = You do not hold the { $scope } scope, so a token you make cannot have it either.
confirm-delete = Move { $kind } { $name } to the trash: it can be restored for 30 days.
button-yes = yes
button-no = no

## The dialogue's own replies: confirming, cancelling, going back to a task ("yes", "cancel", "continue")

dialogue-confirmation-not-shown = This confirmation was not shown here yet, so nothing was done. What would happen:
dialogue-object-renamed = { $old } was renamed to { $new } since I asked, so nothing was done.
dialogue-object-changed = { $name } was changed since I asked, so nothing was done.
dialogue-object-gone = { $name } no longer exists, so nothing was done.
dialogue-confirm-by-tool-call = This confirmation belongs to the { $tool } call that asked for it: nothing was done. The client confirms it by calling { $tool } again with its pending_id.
dialogue-unsure-words = I am not sure what “{ $words }” means here. Do you want me to { $act }? I have done nothing yet.
dialogue-which-of-state = More than one trader fits: { $names }. Which one do you mean?
dialogue-unsure = Do you want me to { $act }? I have done nothing yet.
confirm-account-live = a live account (real money)
confirm-account-testnet = a testnet account (test funds, not real money)
confirm-account-paper = a paper account (simulated, no real money)
effects-no-traders = none
effects-running-trader = { $name } (running)
effects-nothing-done = I have done nothing.
dialogue-nothing-to-resume = There is no earlier task to go back to.
dialogue-value-is-key = That value looks like a key; it cannot be a name or a setting. Please use another.
dialogue-parent-cancelled = OK, the earlier task is cancelled too.
dialogue-nothing-to-confirm = There is nothing to confirm right now.
dialogue-offer-declined = OK, I won't.
dialogue-denied = OK, cancelled; nothing was changed.
dialogue-nothing-in-progress = OK. Nothing is in progress.
dialogue-all-cancelled = OK, everything is cancelled.
dialogue-cancelled = OK, cancelled.
dialogue-unread-confirmation-dropped = I did not follow that, so I did not go ahead: what was waiting for your yes is dropped and nothing was changed. What would you like me to do?
dialogue-confirmation-dropped = What was waiting for your yes is dropped, so a yes now changes nothing. What would you like me to do?
dialogue-cancel-parent-too = An earlier task is still waiting ({ $label }). Cancel it too?
dialogue-offer-waiting = (Still waiting for your answer on whether to first: { $label }.)
dialogue-still-need = Back to the task: I still need { $slots }.
# Between the items of a list said in a sentence ("name, leverage").
list-separator = {", "}

## A task that ran, or the one it comes back to ("Adjusted: …", "Next (…):")

task-adjusted = Adjusted: { $adjustment }
task-credentials-stored = The credentials are stored encrypted and will not be shown again.
task-next = Next ({ $label }):
task-back-to-earlier = Back to the earlier task ({ $label }):

## A confirmation's summary ("Go ahead?") and the values it shows

confirm-go-ahead = Go ahead?
confirm-no-active-strategy = (none active)
confirm-emptied = none

## A list edit that changes nothing ("add BTC to s1's coins" when BTC is there)

edit-list-empty = (none)
edit-already-in = { $items } is already in { $label }; nothing changed (it is { $now }).
edit-not-in = { $items } is not in { $label }; nothing changed (it is { $now }).

## Lists and details of traders, exchange accounts, models and strategies ("list traders", "show s1")

render-running = running
render-stopped = stopped
render-enabled = enabled
render-disabled = disabled
render-testnet = , testnet
render-prices-simulated = , simulated prices (offline)
render-prices-live = , { $venue } live prices (paper fills)
render-active = , active
render-trader-line = { $n }. { $name } ({ $state }, scans every { $minutes } min)
render-model-detail =
    { $line }
    model name: { $model_name }
    base URL: { $url }
render-strategy-detail =
    { $line }
    coins: { $coins } (excluded: { $excluded }); primary timeframe { $timeframe }
    max leverage BTC/ETH { $lev_major }x, altcoins { $lev_alt }x; max positions { $positions }; min confidence { $confidence }; min risk/reward { $rr }
    min position BTC/ETH { $size_major } USDT, altcoins { $size_alt } USDT; position value up to { $value_ratio }× equity; margin usage up to { $margin }
render-empty = There is no { $kind } yet.

## One trader in detail ("what is btc-bot doing", "btc-bot 怎么样")

detail-running = running in engine { $engine }
detail-no-engine = started, but no engine runs it (start one with `nofxi run`)
detail-stopped = stopped
detail-header = { $name }: { $state }, scans every { $minutes } min; exchange { $exchange }, model { $model }, strategy { $strategy }
detail-no-cycle = No cycle has run yet, so there is no decision on record.
detail-no-decision = no decision
detail-last-decision = last decision (cycle #{ $cycle }, { $time }): { $decided }{ $why }
detail-last-error = last error: { $error }
detail-missing = (missing)

## A trader's money in its detail: where the figures come from, equity, P&L, positions

figures-from-paper-simulated = from its paper sub-account, at { $time }
figures-from-paper = from its paper sub-account, now ({ $time })
figures-from-live = from the { $kind } account, now ({ $time })
figures-unreadable-no-cycle = Its account could not be read ({ $error }), and no cycle has run yet: no equity or position on record.
figures-no-cycle = No cycle has run yet, so there is no equity or position on record.
figures-unreadable = Its account cannot be read now ({ $error }); these are the last cycle's records:
figures-from-cycle = as of cycle #{ $cycle }, { $time }
figures-pnl = P&L { $pnl } USDT ({ $pct }%) { $since }
figures-pnl-unknown = P&L unknown (no equity recorded at its start)
figures-account = [{ $source }] equity { $equity } USDT, { $pnl }, margin used { $margin } USDT, available { $available } USDT
figures-since-first-start = since its first start ({ $base } USDT on { $time })
figures-since-first-cycle = since its first cycle ({ $base } USDT on { $time })
figures-since-initial-balance = against its initial balance { $base }
figures-no-positions = No open positions.
figures-position = position { $symbol } { $side } { $quantity } at { $entry }, mark { $mark }, unrealized { $upnl } USDT

## Testing an exchange account or a model config ("test main", "测试 main")

probe-exchange-said =
    { $explanation }
    The exchange said: { $words }
probe-details =
    { $explanation }
    Details: { $words }
probe-exchange-works-balance = Exchange account "{ $name }" works: equity { $equity } { $asset }, available { $available }.
probe-exchange-works = Exchange account "{ $name }" works.
probe-exchange-prices = Its prices come from { $source }'s public market data, which answered: { $symbol } last { $last }.
probe-model-works = Model config "{ $name }" works: { $by } answered in { $ms } ms.
probe-failure-what = { $what } ({ $status }{ $kind })
probe-builtin-model = The builtin rules need no endpoint: nothing to test, ready to use.
probe-model-not-callable = The model config cannot be called as it is; nothing was sent.
probe-model-failed = The model call failed ({ $kind }).

## An exchange check's problem the diagnosis skill has no entry for: what / why / what now

exchange-no-balance-what = The futures wallet holds no USDT.
exchange-no-balance-why = With a zero balance a trader cannot open a position.
exchange-no-balance-fix = Transfer USDT to the futures wallet before starting a trader.
exchange-unreadable-what = The exchange's answer lacks the field this check reads, so the check cannot tell.
exchange-unreadable-why = The server that answered is most likely not the exchange itself (the base URL points at another server or a proxy).
exchange-unreadable-fix = Check that nothing between this machine and the exchange (a proxy, a network's login page) answers in its place, then test again.
exchange-base-url-override = { $variable } is set, so nofxi sent { $venue }'s requests to { $url } instead of { $venue }'s own address: unset { $variable } unless that address stands in for { $venue } (a proxy you run).
exchange-refused-what = The exchange refused the check.
exchange-refused-why = nofxi's diagnosis table has no entry for this error; the exchange's own words follow.
exchange-refused-fix = Act on the exchange's message, or paste the whole error here and I will explain it.

## The assistant model: unsure, failed, or not set for an open question

model-gateway-unsure = I am not sure what you mean. Is it one of these? You can also say it another way.
model-failed = (The assistant model did not answer, so I used the rules. What happened: { $what } Why: { $why } What to do now: { $fix })
model-unusable = (The assistant model cannot be used: { $why })
model-market-data-without-model = Market data is on the command line meanwhile: `nofxi market price BTC --source binance` (Binance's live quote), candles with `nofxi market klines BTC --source binance`.
model-open-question-needs-model = This is an open question; it needs an assistant model: `nofxi config set assistant.model NAME`. Without one I can still manage traders, exchanges, models and strategies, and explain terms and errors.

## A message over the size limit (nothing of it is read)

message-too-long = That message is too long ({ $kb } KB; the limit is { $cap } KB), so none of it was read and nothing was done. Please shorten it or send it in parts.

## Stopping every trader, copying a strategy, credentials an account does not use

stop-all-unknown-except = No trader is called "{ $name }", so none was stopped
strategy-copy-name = { $of } copy
credentials-left-out = { $kind } accounts do not use { $fields }; it was left out.

## A number of the message no setting of the request took (nothing is done until it is placed)

clause-separator = {", "}
unplaced-one = I have not used { $number } yet: is it the { $setting }? Nothing is done until you say.
unplaced-some = I have not used { $number } yet: which setting is it, { $settings }? Nothing is done until you say.
unplaced-none = I have not used { $number }: no setting of this request takes it. Say the request again without it, or with the name of its setting. Nothing is done yet.

## The settings a new resource was created with, beyond those its success text names

task-created-settings = Also set: { $list }.

# How an action is done ("how do I add an exchange?"): what it needs, how to say it.
howto-needs = { $task }: I need { $fields }.
howto-needs-nothing = { $task }: it needs nothing more than asking.
howto-say-it = Say it like: “{ $example }”.
howto-offer = Shall I start it now? Say yes and I ask for each.

## Trader diagnosis (`trader.diagnose`): what happened / why / what to do now, per check.
diagnose-header = What I found for { $name }, checked from its configuration, status and journal:
diagnose-also = Also, from its last cycles:
diagnose-also-refused = The other refused opens: { $reasons }.
diagnose-request-risk-reward = set { $strategy } min risk reward ratio to { $value }
diagnose-offer = Say yes and I will do that (anything risky is confirmed first).
diagnose-request-start = start { $name }
diagnose-request-confidence = set { $strategy } min confidence to { $value }
diagnose-problem-disabled-model = its model "{ $name }" is disabled
diagnose-problem-disabled-exchange = its exchange account "{ $name }" is disabled
diagnose-problem-missing-model = its model is gone (deleted or never made)
diagnose-problem-missing-exchange = its exchange account is gone (deleted or never made)
diagnose-problem-missing-strategy = its strategy is gone (deleted or never made)
diagnose-problem-credentials = exchange account "{ $name }" lacks { $missing }
diagnose-request-enable-model = enable model { $name }
diagnose-request-enable-exchange = enable exchange account { $name }
diagnose-configuration-what = { $name } cannot run as it is configured.
diagnose-configuration-why = { $problems }
diagnose-configuration-fix = { $fix }
diagnose-configuration-fix-other = Fix what is named above (for example bind another exchange account or model), then start { $name } again.
diagnose-configuration-fix-enable-model = Enable model "{ $thing }" (or bind another model), then start { $name } again.
diagnose-configuration-fix-enable-exchange = Enable exchange account "{ $thing }" (or bind another account), then start { $name } again.
diagnose-stopped-error-what = The engine stopped { $name } on { $when } because its cycles kept failing.
diagnose-stopped-error-why = { $detail }
diagnose-stopped-error-fix = Fix the cause above (`nofxi exchange test` / `nofxi model test` check the connections), then start { $name } again.
diagnose-stopped-safe-mode-what = The engine stopped { $name } on { $when }: its model kept failing after safe mode began.
diagnose-stopped-safe-mode-why = { $detail }
diagnose-stopped-safe-mode-fix = Test the trader's model ("test model …"), fix its key, balance or model name, then start { $name } again.
diagnose-stopped-lease-lost-what = { $name } stopped in this engine on { $when }: another engine process took it over.
diagnose-stopped-lease-lost-why = { $detail }
diagnose-stopped-lease-lost-fix = Run one engine per database, or let the other engine run it; start it again if no engine runs it now.
diagnose-stopped-preflight-what = The engine could not start { $name } on { $when }: a preflight check failed.
diagnose-stopped-preflight-why = { $detail }
diagnose-stopped-preflight-fix = Fix the check named above, then start { $name } again.
diagnose-start-fails-what = { $name } is stopped, and starting it now would fail.
diagnose-start-fails-why = { $error }
diagnose-start-fails-fix = Fix what is named above (test the account with "test …" or the model with "test model …"), then start it.
diagnose-stopped-what = { $name } is stopped: it was never started, or it was stopped by hand.
diagnose-stopped-why = A stopped trader runs no cycles. Its checks pass now: configuration, model, exchange account and balance.
diagnose-stopped-fix = Start { $name }; it trades while an engine runs (`nofxi run` or `nofxi serve`).
diagnose-no-engine-what = { $name } is marked running, but no engine process runs it.
diagnose-no-engine-why = Traders trade only inside a running engine, and none is running now.
diagnose-no-engine-fix = Run `nofxi run` (or `nofxi serve`, which runs the engine too) and keep it running.
diagnose-no-cycles-what = { $name } is running but has not finished a cycle yet.
diagnose-no-cycles-why = It decides once every { $minutes } minutes; the first cycle comes within that time of the start.
diagnose-no-cycles-fix = Wait for its first cycle, then ask again or read its journal ("show { $name }'s journal").
diagnose-cycle-errors-what = { $count } of { $name }'s last { $cycles } cycles failed, the newest too.
diagnose-cycle-errors-why = { $error }
diagnose-cycle-errors-fix = Fix the cause above; `nofxi exchange test` and `nofxi model test` check each connection and explain what they find.
diagnose-safe-mode-what = { $name } is in safe mode: its model failed several times in a row, so it only closes and holds.
diagnose-safe-mode-why = The model did not answer, or answered with an error (key, balance, model name, rate limit).
diagnose-safe-mode-fix = Test the trader's model ("test model …") and fix what it finds; the next good answer ends safe mode.
diagnose-malformed-what = In { $count } of its last { $cycles } cycles the model's answer held no valid decision.
diagnose-malformed-why = The answer was not the JSON decision list the strategy asks for, for example: { $example }
diagnose-malformed-fix = Use a stronger model, or shorten the strategy's custom prompt so the answer format stays in view.
diagnose-trading-what = { $name } is trading: it opened positions in { $count } of its last { $cycles } cycles, the last on { $when }.
diagnose-trading-why = Nothing on its path refuses trades; quiet stretches are the model choosing to wait.
diagnose-trading-fix = Read its journal ("show { $name }'s journal") to see each decision and why.
diagnose-refused-low-confidence-what = { $opens } opens { $name }'s model proposed were refused; { $count } of them because their confidence was below the strategy's minimum of { $min }.
diagnose-refused-low-confidence-why = Strategy { $strategy } opens only at confidence { $min } or more; the model's highest was { $best }.
diagnose-refused-low-confidence-fix = Lower { $strategy }'s minimum confidence to { $best } or below, or keep it and accept fewer trades.
diagnose-refused-risk-reward-what = { $opens } opens { $name }'s model proposed were refused; { $count } of them because their risk/reward was below { $min }.
diagnose-refused-risk-reward-why = Strategy { $strategy } needs a take-profit at least { $min } times as far as the stop-loss; the best proposal reached { $best }.
diagnose-refused-risk-reward-fix = Lower { $strategy }'s minimum risk/reward ratio, or keep it and accept fewer trades.
diagnose-refused-positions-what = { $opens } opens { $name }'s model proposed were refused; { $count } of them because positions were already open.
diagnose-refused-positions-why = { $reason }
diagnose-refused-positions-fix = Let open positions close, or raise { $strategy }'s maximum number of positions.
diagnose-refused-size-limit-what = { $opens } opens { $name }'s model proposed were refused; { $count } of them were larger than the account allows.
diagnose-refused-size-limit-why = { $reason }
diagnose-refused-size-limit-fix = Add money to the account, or lower the position size the strategy asks for.
diagnose-refused-too-small-what = { $opens } opens { $name }'s model proposed were refused; { $count } of them were below the minimum size.
diagnose-refused-too-small-why = { $reason }
diagnose-refused-too-small-fix = Lower { $strategy }'s minimum position size, or give the trader more money so the model sizes larger positions.
diagnose-refused-stops-what = { $opens } opens { $name }'s model proposed were refused; { $count } of them had no valid stop-loss and take-profit.
diagnose-refused-stops-why = { $reason }
diagnose-refused-stops-fix = Use a stronger model, or say in the strategy's custom prompt that every open needs a stop-loss and a take-profit on the right side of the price.
diagnose-refused-other-what = { $opens } opens { $name }'s model proposed were refused; { $count } of them for the same reason.
diagnose-refused-other-why = { $reason }
diagnose-refused-other-fix = Read its journal ("show { $name }'s journal") for each refused decision.
diagnose-order-error-what = { $count } of { $name }'s orders failed at the exchange: { $what }
diagnose-order-error-why = { $why }
diagnose-order-error-fix = { $fix }
diagnose-order-error-unknown = The exchange gave this reason: see the error in the journal.
diagnose-order-error-unknown-fix = Paste the error to me for an explanation, or test the account ("test …").
diagnose-cycle-errors-known-what = { $count } of { $name }'s last { $cycles } cycles failed, the newest too. { $what }
diagnose-cycle-errors-known-why = { $why } (The error: { $error })
diagnose-cycle-errors-known-fix = { $fix }
diagnose-context-too-long-what = { $count } of { $name }'s last { $cycles } cycles failed: the prompt was longer than the model's context window. The newest failed prompt was { $size }.
diagnose-context-too-long-why = { $why } (The error: { $error })
diagnose-context-too-long-fix = { $fix }
diagnose-prompt-tokens = { $count } tokens
diagnose-prompt-chars = { $count } characters long
diagnose-prompt-unknown = of a size the journal did not record
diagnose-sizes-unreachable-what = Strategy { $strategy } lets { $name } open nothing: its smallest position for { $coin } is { $min } USDT, and its limits allow at most { $max } USDT.
diagnose-sizes-unreachable-why = With equity of { $equity } USDT a position may be worth at most { $ratio } × equity, and no more than the margin cap buys at the highest leverage; the minimum size is above that for every coin it trades, so every open is refused.
diagnose-sizes-unreachable-fix = Lower { $strategy }'s { $setting } to { $max } USDT or less, raise its maximum position value ratio, or add money to the account.
diagnose-setting-min-size-major = BTC/ETH minimum position size
diagnose-setting-min-size-alt = minimum position size
diagnose-request-min-size-major = set { $strategy } btc/eth min position size to { $value }
diagnose-request-min-size-alt = set { $strategy } min position size to { $value }
diagnose-strategy-edited-what = Strategy { $strategy } was changed on { $edited }, after { $name }'s last cycle ({ $last }).
diagnose-strategy-edited-why = A trader reads its strategy at the start of each cycle, so the cycles so far ran with the settings from before the change.
diagnose-strategy-edited-fix = The change applies from the next cycle, due around { $next }; ask me again after it and I will read the new cycles.
diagnose-unexplained-what = None of the checks found why { $name } is not trading.
diagnose-unexplained-why = Its configuration, status and journal show nothing that stops it.
diagnose-unexplained-fix = Read its journal ("show { $name }'s journal"), or paste any error you see and I will explain it.
# A guard refusal as the diagnosis quotes it, by its kind (`nofxi_trader::Refusal`).
refusal-unknown-symbol = the coin was not among the cycle's candidates or open positions
refusal-duplicate-symbol = a decision for the same coin came earlier in the same answer
refusal-safe-mode = safe mode allows only closes and holds
refusal-nothing-to-close = there was no open { $side } position to close
refusal-position-exists = a position on that coin was already open
refusal-missing-size = the answer gave no position size
refusal-below-minimum-size = a position of { $given } USDT is below the minimum of { $min } USDT
refusal-over-maximum-value = a position of { $given } USDT is over the { $max } USDT the equity allows
refusal-margin-usage = { $needed } USDT of margin would take margin use over { $limit } USDT ({ $available } USDT available)
refusal-missing-stops = a stop-loss and a take-profit are both required to open
refusal-stop-loss-wrong-side = the stop-loss { $stop_loss } was on the wrong side of the price { $price } for a { $side }
refusal-take-profit-wrong-side = the take-profit { $take_profit } was on the wrong side of the price { $price } for a { $side }
refusal-risk-reward-too-low = risk/reward { $ratio } is below the strategy's minimum { $min }
refusal-low-confidence = confidence { $given } is below the strategy's minimum { $min }
refusal-max-positions = the strategy's maximum of { $max } open positions was reached
refusal-opens-per-cycle = at most { $max } opens are allowed per cycle
diagnose-numbers-header = What { $name }'s balance, positions and P&L come from, checked against its journal:
diagnose-request-initial-balance = set { $name } initial balance to { $value }
diagnose-baseline-what = { $name }'s P&L is counted from an initial balance of { $set } USDT, but the account held { $held } USDT at its first cycle ({ $when }).
diagnose-baseline-why = P&L is equity minus the initial balance you set, so the difference shows as a profit or loss that never happened.
diagnose-baseline-fix = Set { $name }'s initial balance to { $held } USDT, what the account really started with.
diagnose-closed-between-what = { $name }'s { $symbol } { $side } ({ $quantity } at { $entry }) was open after the cycle of { $from } and gone at the cycle of { $to }, and nofxi sent no close for it.
diagnose-closed-between-why = It closed on the exchange between cycles: a stop-loss or take-profit that filled, a liquidation, or a close by hand. The journal only sees positions at each cycle.
diagnose-closed-between-fix = Nothing is lost: its result is already in the balance. Look up the fill in the exchange's trade history for the exact price and fee.
diagnose-outside-position-what = A { $symbol } { $side } ({ $quantity }) appeared on { $name }'s account by the cycle of { $when } with no open sent by nofxi.
diagnose-outside-position-why = It was opened outside nofxi: by hand, or by another bot using the same account; its P&L counts in the trader's equity.
diagnose-outside-position-fix = Close it on the exchange if it is not wanted, and give the trader an account (or sub-account) of its own.
diagnose-breakdown-what = { $name }'s equity is { $equity } USDT against an initial balance of { $initial } USDT: P&L { $pnl } USDT.
diagnose-breakdown-why = Of that, { $realized } USDT is realized (closed trades after fees and funding, in the wallet) and { $unrealized } USDT unrealized on the open positions ({ $positions }) at the mark price; nothing in the journal is unexplained.
diagnose-breakdown-fix = The unrealized part moves with the price until the positions close. Ask for its stats for trades, fees and win rate.
side-long = long
side-short = short
diagnose-no-candidates-what = { $name } has no coin to trade.
diagnose-no-candidates-why = Every coin in strategy { $strategy }'s list is also excluded, so no cycle has a candidate.
diagnose-no-candidates-fix = Add a coin to { $strategy } or take one off its exclusion list.
diagnose-only-waits-what = In its last { $cycles } cycles { $name } decided to wait or hold every time; nothing was refused and no order failed.
diagnose-only-waits-why = Its decider ({ $decider }) saw no setup it trades on; it looks again every { $minutes } minutes.
diagnose-only-waits-fix = Nothing is broken. Wait, or use a strategy or model that trades more often.

## MCP tool calls (crates/mcp): what happened, why, what now.
mcp-unknown-tool = There is no tool called { $tool }; nothing was done. List the tools (tools/list) and call one of those.
mcp-invalid-arguments = The arguments of { $tool } do not fit its input schema ({ $problems }); nothing was done. Fix those fields and call again.
mcp-scope = This token may not call { $tool }: that needs the “{ $scope }” scope, and nothing was done. Create a token that has it (`nofxi token create --scopes read,write,trade`) and connect with that one.
mcp-confirm-needed = Nothing was done yet. { $summary } Show this to the person you act for; only if they agree, call { $tool } again with the same arguments and "confirm": "{ $pending }" (good for 5 minutes).
mcp-pending-expired = That confirmation is more than 5 minutes old, so it no longer counts; nothing was done. Call { $tool } again without "confirm" for a new summary, and ask the person again.
mcp-pending-stale = That confirmation does not fit this call: the arguments differ, or the object changed after the summary was shown; nothing was done. Call { $tool } again without "confirm" for a new summary.
mcp-failed = nofxi could not finish the call ({ $detail }); nothing more was done. Try again; if it keeps failing, run `nofxi paths` to check the data directory.
mcp-no-resource = There is no resource { $uri }. Read nofxi://traders for the traders, then nofxi://traders/NAME, or its /journal or /equity.
mcp-instructions = nofxi manages AI trading bots (traders) and their exchange accounts, model configs and strategies, stored on this machine. The tools are its skill actions (trader_management_create, …_query, …_diagnose) and nofxi_chat. A risky action (a delete, a live start, a change to how a trader trades) first returns status confirmation_required with a summary and a pending_id: show the summary to the person and call again with "confirm" only after they agree. Resources: nofxi://traders, and each trader's journal and equity.

## The personal portfolio ("茅台的成本是多少", "bought 100 Tencent at 380")

portfolio-none = There is no portfolio yet: create one with `nofxi portfolio add NAME`, then import a broker CSV with `nofxi portfolio import NAME FILE`.
portfolio-none-web = There is no portfolio yet. Open Portfolio in the menu and create one there (name, currency, your broker accounts); then upload your broker's CSV export with “Upload CSV”, or tell me a trade ("bought 100 shares of Tencent at 380").
portfolio-which = You have several portfolios ({ $list }): which one?
portfolio-which-stock = "{ $said }" could be { $list }.
portfolio-unknown-stock = I know no security called "{ $said }"; its code with the market works, e.g. 601838.SH, 00700.HK or AAPL.US.
portfolio-holding-none = You hold no { $name } in { $portfolio }: there is no record of it.
portfolio-holding-header = { $name } in { $portfolio }, on { $on }:
portfolio-holding-line = { $account }: { $quantity } units, cost { $cost } { $currency } ({ $unit_cost } each, { $method }, fees included); price { $price } (of { $priced }), value { $value } { $currency }; unrealized { $unrealized } { $currency } ({ $pct }), realized { $realized } { $currency }
portfolio-holding-sold = { $account }: sold out; realized { $realized } { $currency }
portfolio-basis = Basis: { $basis }.
portfolio-summary-empty = { $portfolio } has no records yet: import a broker CSV with `nofxi portfolio import { $portfolio } FILE`, or tell me a trade ("bought 100 shares of Tencent at 380").
portfolio-summary-empty-web = { $portfolio } has no records yet: upload a broker CSV with “Upload CSV” on its Portfolio page, or tell me a trade ("bought 100 shares of Tencent at 380").
portfolio-summary-header = { $portfolio } on { $on }: value { $value } { $currency }; unrealized { $unrealized } { $currency }, realized { $realized } { $currency }
portfolio-summary-return = { $period }: time-weighted return { $twr } ({ $basis })
portfolio-period-ytd = Year to date
portfolio-period-all = Since the first record
portfolio-summary-top = Largest holdings: { $list }
portfolio-warning-old-price = Note: { $instrument } is valued at its price of { $date }; no newer price is recorded (`nofxi portfolio price` or `nofxi portfolio quote --live` adds one).
portfolio-warning-old-price-web = Note: { $instrument } is valued at its price of { $date }; no newer price is recorded (“Record a price” on the Portfolio page adds one).
portfolio-warning-negative-cash = Note: cash in { $account } is { $amount } { $currency }: trades were recorded without the deposits that paid for them, so returns are not meaningful.
portfolio-warning-no-returns = Note: no return can be computed yet: { $reason }
portfolio-per-currency = The total in { $base } needs an exchange rate that is not recorded ({ $error }; `nofxi portfolio fx` adds one). Each currency on its own:
portfolio-per-currency-web = The total in { $base } needs an exchange rate that is not recorded ({ $error }; “Record an exchange rate” on the Portfolio page adds one). Each currency on its own:
portfolio-lots-unknown = A board lot of { $code } is not always 100 shares: how many shares were traded in total?
portfolio-no-price = Say the price per share, or the trade's total.
portfolio-side-buy = Buy
portfolio-side-sell = Sell
portfolio-trade = { $side } { $quantity } × { $name } at { $price } { $currency } on { $date } (gross { $gross } { $currency }), account { $account } of { $portfolio }
portfolio-fee-line = { $name } { $amount } ({ $rate } from { $from })
portfolio-fees-computed = Fees computed from the schedule: { $lines }; total { $total } { $currency }
portfolio-fee-given = Fee as you gave it: { $fee } { $currency }
portfolio-recorded = Recorded: { $trade }. { $fees }. You now hold { $held } of { $name } in that account.
portfolio-sell-more-than-held = You held { $held } of { $name } in { $account } on { $date }, fewer than the { $quantity } to sell: check the quantity, or record the missing buy first.
portfolio-record-invalid = That trade cannot be recorded: { $error }
portfolio-unknown-account = "{ $said }" is no account of this portfolio; its accounts are { $list }.
portfolio-which-account = Which account was it in? ({ $list })
portfolio-no-account = This portfolio has no account to record the trade in: create the portfolio with `--account NAME` (`nofxi portfolio add NAME --account NAME`).
portfolio-no-account-web = This portfolio has no account to record the trade in: add one with “Add an account” on its Portfolio page.
portfolio-bad-day = "{ $said }" is not a day: say today, yesterday, or a date as YYYY-MM-DD.
portfolio-future-day = { $date } is after today: a record is of a trade already made.
portfolio-trades-header = The latest { $count } of { $total } records in { $portfolio }, newest first:
portfolio-trades-header-of = The latest { $count } of { $total } records of { $name } in { $portfolio }, newest first:
portfolio-trades-none = { $portfolio } has no records yet: import a broker CSV with `nofxi portfolio import { $portfolio } FILE`, or tell me a trade ("bought 100 shares of Tencent at 380").
portfolio-trades-none-web = { $portfolio } has no records yet: upload a broker CSV with “Upload CSV” on its Portfolio page, or tell me a trade ("bought 100 shares of Tencent at 380").
portfolio-trades-none-of = There is no record of { $name } in { $portfolio }.
portfolio-trades-line = { $date } { $what } { $amount }, fee { $fee } ({ $fee_from }), account { $account }
portfolio-fee-from-given = as given
portfolio-fee-from-schedule = computed from the schedule
portfolio-fee-from-none = none charged
portfolio-kind-dividend = Dividend
portfolio-kind-fee = Fee
portfolio-kind-interest = Interest
portfolio-kind-split = Split
portfolio-kind-transfer-in = Transfer in
portfolio-kind-transfer-out = Transfer out
portfolio-kind-deposit = Deposit
portfolio-kind-withdrawal = Withdrawal
clarify-read-which = Which do you mean? Say one of:
    { $list }
clarify-read-option = { $message } ({ $noun })
market-no-source = Quotes of { $symbol } (forex, metals, indices) need a market-data source, which nofxi does not have yet; stocks (600519.SH, 00700.HK, AAPL.US) and crypto pairs (BTC, ETH) are quoted.
market-stock-quote = { $name }: { $last } { $currency } ({ $change } on the previous close { $previous }; open { $open }, high { $high }, low { $low }) at { $time }
market-stock-simulated = This is nofxi's offline simulated market, not a real price. `nofxi portfolio quote --live { $code }` asks the public feeds (Tencent, Sina, Eastmoney) and keeps the price for your portfolio.
market-stock-recorded = Your latest recorded price: { $price } { $currency } on { $date } ({ $source }).
technical-header = { $name }, technical snapshot over { $bars } daily bars up to { $last_day } (nofxi's offline simulated market, not real market data):
technical-values = close { $close }; MA5 { $ma5 }, MA10 { $ma10 }, MA20 { $ma20 }; EMA12 { $ema12 }, EMA26 { $ema26 }; MACD DIF { $dif }, DEA { $dea }, histogram { $hist }; RSI14 { $rsi }; Bollinger (20, 2σ) upper { $upper }, middle { $middle }, lower { $lower }; ATR14 { $atr }; 20-day support { $support }, resistance { $resistance }
technical-above-ma20 = The close is above MA20.
technical-below-ma20 = The close is below MA20.
technical-rsi-high = RSI14 { $rsi } is 70 or more: overbought by the usual reading.
technical-rsi-low = RSI14 { $rsi } is 30 or less: oversold by the usual reading.
technical-rsi-middle = RSI14 { $rsi } is between 30 and 70: neither overbought nor oversold.
technical-macd-up = The MACD histogram is positive (DIF above DEA).
technical-macd-down = The MACD histogram is negative (DIF below DEA).
technical-missing-volume = Missing: volume (the simulated market has none), so no volume ratio. These are readings of figures, not advice.
portfolio-whole-shares = { $quantity } is not a whole number of shares: { $code } trades in whole shares. How many shares was it?
portfolio-fee-rate-pct = { $rate }%
portfolio-fee-rate-unit = { $rate } per share
portfolio-fee-minimum = { $rate }, minimum { $amount } applied
portfolio-fee-maximum = { $rate }, capped at { $amount }
pnl-no-traders-portfolio = There is no trader yet; your portfolio:
pnl-portfolio-too = Your portfolio (your own holdings, apart from the traders):
portfolio-currency-mismatch = { $name } trades in { $currency }, but the price was said in { $said }: nothing is recorded. Say the trade again with its price in { $currency }.

venue-not-supported = nofxi cannot trade on { $venue } yet, nor read its account or prices. It trades on Binance, OKX, Bybit, Bitget and Hyperliquid, and on paper accounts (simulated, no real money): "add a paper exchange called paper" tries a strategy without one.
