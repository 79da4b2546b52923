# 助手回复的中文文本，与 en.ftl 的消息 id 一一对应（Project Fluent 语法）。
# 参数都是已经格式化好的文本（精确小数、带标注的时间）；`$count` 选择复数形式（中文只有 other）。

## 交易员日志

journal-header = { $name } 最近 { $count } 个周期：
journal-empty = { $name } 还没有任何周期记录：已启动的交易员只在引擎运行时交易（`nofxi run`）。
journal-cycle = 第 { $cycle } 个周期 · { $time } · { $decided }
journal-no-decision = 无操作
journal-equity = 权益 { $equity } USDT
journal-refused = 拒绝 { $what }：{ $reason }
journal-orders = 下单：成功 { $ok } 笔，失败 { $failed } 笔
journal-order-error = { $symbol } 下单失败：{ $error }
journal-error = 错误：{ $error }
journal-why = 理由：{ $reasoning }
journal-more = 更早的周期和完整提示词：`nofxi trader journal { $name } --limit 50 --json`。

## 交易员的已平仓交易

trades-header = { $name } 最近 { $count } 笔已平仓交易（共 { $total } 笔），新的在前：
trades-none = { $name } 还没有平仓的交易。
trades-unreadable = 现在读不到 { $name } 的交易：{ $error }
trades-row = { $symbol } { $side } { $quantity }：{ $entry } → { $exit }，{ $closed } 平仓，持仓 { $held }，盈亏 { $pnl } USDT（手续费 { $fees }），{ $reason }
trades-funding = ，资金费 { $funding } USDT
trades-reason-signal = 自身信号
trades-reason-stop-loss = 止损
trades-reason-take-profit = 止盈
trades-reason-liquidation = 强平
trades-reason-manual = 手动平仓
trades-reason-unknown = 原因未知
trades-held-days = { $n } 天
trades-held-hours = { $n } 小时
trades-held-minutes = { $n } 分
trades-held-seconds = { $n } 秒

## 交易员收益

stats-header = { $name } 的表现（来自账户成交和日志）：
stats-trades = 交易：已平仓 { $total } 笔（盈 { $wins } 笔，亏 { $losses } 笔），胜率 { $win_rate }
stats-pnl = 盈亏：{ $pnl } USDT{ $of_basis }，已扣手续费 { $fees } USDT
stats-of-basis = （占启动时 { $basis } USDT 的 { $pct }%）
stats-split = 其中已实现 { $realized } USDT（已进入钱包：平仓交易扣除手续费和资金费后），未实现 { $unrealized } USDT（{ $count } 个持仓按标记价格计）
stats-drawdown = 最大回撤 { $drawdown }%，利润因子 { $profit_factor }
stats-sample-small = 交易太少，胜率和利润因子仅供参考：已平仓 { $trades } 笔，至少需要 { $min } 笔
stats-none = { $name } 还没有平仓的交易。
stats-unreadable = 现在读不到 { $name } 的数据：{ $error }
stats-missing = -

## 所有交易员的盈亏

pnl-header = 每个交易员自首次启动以来的盈亏（现在从它交易的账户读取）：
pnl-row = { $name }：权益 { $equity } USDT，盈亏 { $pnl } USDT（{ $pct }%）：已实现 { $realized }，未实现 { $unrealized }
pnl-row-unread = { $name }：{ $why }
pnl-not-started = 从未启动，还没有数据
pnl-total = 合计：{ $count } 个交易员，权益 { $equity } USDT，盈亏 { $pnl } USDT（已实现 { $realized }，未实现 { $unrealized }）
pnl-no-traders = 还没有交易员，所以没有盈亏可以汇总。

## 交易所账户的余额和持仓

account-header = { $name }（{ $kind }），当前：
account-header-paper = { $name }（模拟盘），每个交易员的子账户，当前：
account-balance = { $who }权益 { $equity } { $asset }，钱包 { $wallet }，未实现盈亏 { $unrealized }，已用保证金 { $margin }，可用 { $available }
account-who = { $trader }：
account-untouched = 还没有交易员在 { $name } 上交易过；它自己的钱包：
account-no-positions = 没有持仓。
account-position = { $who }{ $symbol } { $side } { $quantity } @ { $entry }，标记价 { $mark }，{ $leverage } 倍 { $margin_mode }，未实现盈亏 { $unrealized } USDT{ $liquidation }
account-liquidation = ，强平价 { $price }
account-unreadable = 现在读不到 { $name }：{ $error }。`nofxi exchange test { $name }` 会逐项检查（时钟、密钥、IP、权限）。
# 以前的 nofxi 建的、nofxi 不能交易的类型（Gate、KuCoin、Aster、Lighter）的账户：作为配置保留，不连接，也不再提供新建。
exchange-trading-not-available = 不能在 { $kind } 账户上交易：nofxi 只在 { $tradable } 上交易，连接不了 { $kind }，所以既不能检查这个账户，也不能用它启动交易员。这个账户作为配置保留，可以改名、修改或删除。

## 回收站

trash-header = 回收站里有（删除后 30 天内都可以恢复）：
trash-row = { $kind }「{ $name }」，删除于 { $deleted }，还剩 { $count } 天
trash-empty = 回收站是空的。
trash-empty-kind = 回收站里没有{ $kind }。
trash-restore = 要恢复，可以说“恢复{ $kind } { $name }”。
kind-trader = 交易员
kind-exchange = 交易所账户
kind-model = 模型
kind-strategy = 策略

## 行情报价（“btc 价格”、“比特币多少钱”）

market-quote = { $symbol }（{ $source }）：最新价 { $last }，买一 { $bid }，卖一 { $ask }，24 小时成交量 { $volume }（{ $time }）
market-source-live = { $name }（{ $kind }），实盘行情
market-source-paper = { $name } 的模拟行情（模拟盘，不是实盘报价）
market-source-sim = nofxi 的模拟行情（还没有交易所账户；不是实盘报价）
market-unknown-symbol = “{ $symbol }”不是我能报价的品种：请说币种（BTC、比特币）或交易对（BTCUSDT）。
market-unquoted = 现在无法从 { $source } 获取 { $symbol } 的报价：{ $error }
market-rate-limited = { $symbol } 这次没有报价：nofxi 对 { $source } 每分钟最多发 { $limit } 次行情请求，这一分钟已经用完。请 { $seconds } 秒后再问。
market-rate-limited-source = { $source } 正在限制请求频率（{ $error }），所以 { $symbol } 这次没有报价。请 { $seconds } 秒后再问。
market-source-public = { $venue } 公开行情（实盘）
market-source-sim-offline = nofxi 的模拟行情（离线，不是实盘报价）
market-source-paper-live = { $name }（模拟盘）跟随的 { $venue } 实盘行情
market-unknown-source = 没有叫 “{ $source }” 的行情来源：请用 { $names }。
# 策略币种列表里输入的币种被拒绝（GET /api/symbols）
symbol-unknown-nearest = 不认识的币种 “{ $given }”：是不是 { $nearest }？
symbol-unknown = 不认识的币种 “{ $given }”：nofxi 认识的有 { $known }；请写成币种代码（BTC）、交易对（BTCUSDT、BTC-USDT）或中文名（比特币）。
symbol-not-perpetual = “{ $given }” 不是 USDT 永续合约，而 nofxi 只交易 USDT 永续（不是 USD、USDC 等其他计价，也不是交割合约）：请写成币种代码（BTC）、交易对（BTCUSDT、BTC-USDT）或交易所的永续写法（BTC-USDT-SWAP、BTCUSDT.P）。
market-what-price = 价格
market-what-book = 订单簿
market-what-klines = K 线
market-book-header = { $symbol } 订单簿（{ $source }，{ $time }），买卖各前 { $levels } 档：
market-book-columns = 买量 | 买价 | 卖价 | 卖量
market-book-summary = 价差 { $spread }（{ $spread_pct }%）；买卖压力比 { $pressure }（前 { $levels } 档买量合计 { $bids } / 卖量合计 { $asks }）：{ $reading }。
market-book-bids-outweigh = 买盘占优
market-book-asks-outweigh = 卖盘占优
market-book-even = 买卖持平
market-book-one-sided = 前 { $levels } 档没有卖单，所以算不出买卖压力比。
market-klines-header = { $symbol } { $interval } K 线（{ $source }），截至 { $time } 的最近 { $count } 根：
market-klines-columns = 开盘时间 | 开 | 高 | 低 | 收 | 量
market-klines-summary = 这 { $count } 根 K 线：涨跌 { $change }%（{ $first_open } → { $last_close }），最高 { $high }，最低 { $low }。
market-klines-none = { $source } 在这段时间没有 { $symbol } 的 { $interval } K 线。
market-which-symbol-book = 要看哪个品种的订单簿？说一个币种或交易对：BTC、ETHUSDT。
market-which-symbol-klines = 要看哪个品种的 K 线？说一个币种或交易对（BTC、ETHUSDT），不是 1 小时的话再说周期（4小时、日线）。
market-function-invalid = 没有查询{ $what }：{ $problems }
market-function-no-source = nofxi 的行情来源没有 { $symbol } 的{ $what }：它们只提供数字货币交易对（BTC、ETHUSDT）。
market-function-failed = 无法从 { $source } 读取 { $symbol } 的{ $what }：{ $error }
market-error-no-answer = { $seconds } 秒内没有响应（网络不通，或交易所故障）
market-error-not-answering = { $ago } 秒前没有响应，{ $again } 秒内不再请求它

## An exchange type said where an account name was looked for ("do you support bybit")

exchange-type-offered = nofxi 支持在 { $type } 上交易，只是你还没有 { $type } 账户。说「添加 { $type } 账户」即可设置（会询问 { $type } 给你的密钥）。
exchange-type-not-offered = nofxi 不能在 { $type } 上交易；目前支持：{ $types }。
market-function-rate-limited = { $symbol } 的{ $what }这次没有读取：nofxi 对 { $source } 每分钟最多发 { $limit } 次行情请求，这一分钟已经用完。请 { $seconds } 秒后再问。
market-function-rate-limited-source = { $source } 正在限制请求频率（{ $error }），所以这次没有读取 { $symbol } 的{ $what }。请 { $seconds } 秒后再问。
market-bad-time = 「{ $field }」的值 “{ $value }” 不是时间：请用 ISO 8601 格式，例如 2026-01-01T00:00:00Z。
market-start-after-end = 开始时间晚于结束时间：请对调。

## 撤回上一条消息已经做完的改动（“停掉 btc-bot” → “算了不停了”）

already-done = 上一条消息已经完成了（{ $label }：{ $name }），现在没有可以取消的了。{ $undo }
undo-by-hand = 要撤回，用同样的方式改回去即可。
undo-offer-values = 要把「{ $name }」改回去吗（{ $changes }）？
undo-trader_management-start = 要撤回，可以说“停止 { $name }”。
undo-trader_management-stop = 要撤回，可以说“启动 { $name }”。
undo-trader_management-delete = 它在回收站里保留 30 天：说“恢复交易员 { $name }”即可找回。
undo-trader_management-create = 要撤回，可以说“删除交易员 { $name }”。
undo-exchange_management-delete = 它在回收站里保留 30 天：说“恢复交易所账户 { $name }”即可找回。
undo-model_management-delete = 它在回收站里保留 30 天：说“恢复模型 { $name }”即可找回。
undo-strategy_management-delete = 它在回收站里保留 30 天：说“恢复策略 { $name }”即可找回。

## 启动交易员

start-no-engine = 目前没有运行中的引擎：运行 `nofxi run` 或 `nofxi serve` 后它才会开始交易。
undo-exchange_management-create = 要撤回，可以说“删除交易所账户 { $name }”。
undo-model_management-create = 要撤回，可以说“删除模型 { $name }”。
undo-strategy_management-create = 要撤回，可以说“删除策略 { $name }”。

turn-nothing-done = 我没有做任何改动。告诉我你想做什么，或者说“帮助”。

none-yet-exchange = 你还没有交易所账户：可以说“添加一个模拟盘账户，名字叫 main”（模拟资金，不需要密钥），之后我会回到这里。
none-yet-model = 你还没有模型配置：可以说“添加一个 builtin 模型，名字叫 builtin”（离线规则，不需要密钥），之后我会回到这里。
none-yet-strategy = 你还没有策略：可以说“新建策略 s1”（BTC 和 ETH，默认风控），之后我会回到这里。
none-yet-trader = 你还没有交易员：可以说“创建交易员”来建一个。

## HTTP API 错误（`nofxi serve`）：发生了什么、怎么办。
http-not-found = 没有这个页面或接口：{ $path }。全部接口见 /api/openapi.json。
http-bad-json = 请求体不是这个接口可用的 JSON：{ $detail }。请改正后重新发送。
http-csrf = 这个修改需要 GET /api/session 给出的 X-CSRF-Token 请求头：请刷新页面后重试。
http-host = { $host } 不是本服务的地址：请打开 `nofxi serve` 打印的网址。
http-login = 请先登录：用用户名和密码调用 POST /api/login（页面会显示登录表单），或以 `Authorization: Bearer …` 发送 API 令牌（用 `nofxi token create` 创建）。
http-token = 这个 API 令牌无效（输错、已撤销，或其用户已停用）：用 `nofxi token create --user 名字 --scopes read` 重新创建。
http-mcp-token = /mcp 需要 API 令牌：用 `nofxi token create --scopes read,write,trade` 创建一个，再以 `Authorization: Bearer …` 发送。
http-mcp-origin = /mcp 不接受来自网页的请求（这个请求带了 Origin 头）：请用 MCP 客户端（智能体或 IDE）连接。
http-scope = 这个操作需要 `{ $scope }` 权限，这个 API 令牌没有：创建带该权限的令牌（`nofxi token create --scopes read,write,trade`）。
http-no-login = 本服务运行在本地模式，没有用户也无需登录：直接使用即可；或用 `nofxi user add 名字` 添加用户后重启 `nofxi serve`。
http-bad-login = 用户名或密码不对，请检查后重试。
http-login-limited = 登录失败次数过多：请等 { $seconds } 秒后再试。
http-stale-confirmation = 这个确认已经不是当前待确认的了（已回答过，或对象已改变）：请看当前的问题再回答。
http-no-confirmation = 这个对话里没有等待确认的操作。
http-confirm-mismatch = 这个确认是针对另一个操作或对象的：请重新发起，并确认新的摘要。
http-conversation-unknown = 这个用户没有对话 { $id }：不带 conversation_id 调用 POST /api/chat/turns 开始新对话。
http-backtest-unknown = 本服务没有回测 { $id }：回测结果只保存在内存中，服务停止后清空。
http-backtest-busy = 已有 { $count } 个回测在运行：请等其中一个完成。
http-empty-message = 消息是空的：请输入内容再发送。
http-unknown-field = 未知字段 { $field }：这个接口接受的字段见 /api/openapi.json。
http-internal = nofxi 内部出错：{ $detail }
http-start-refused = 交易员 { $name } 无法启动：{ $detail }
http-account-unreadable = 现在读不到交易所账户：{ $detail }
confirm-start = 启动交易员 { $name }：交易所账户 { $exchange }（{ $kind }），{ $account }；模型 { $model }，策略 { $strategy }，初始资金 { $balance } USDT。
confirm-stop = 停止交易员 { $name }：当前周期做完后不再开新仓；已有持仓保持不动。
confirm-close-position = 在{ $account }上以市价平掉交易员 { $name } 的 { $symbol } { $side } 持仓 { $quantity }，它的止损止盈单也一并撤销。
confirm-stop-close-all = 停止交易员 { $name }，并在{ $account }上以市价平掉它的全部持仓：{ $positions }。它不会再开新仓。
confirm-stop-close-none = 停止{ $account }上的交易员 { $name }；它现在没有持仓，所以停止前若没有新开仓就不会平仓。
confirm-close-all = 在{ $account }上以市价平掉交易员 { $name } 的全部持仓：{ $positions }。
http-close-refused = 交易员 { $name } 的持仓没能平掉：{ $detail }
http-close-not-found = 交易员 { $name } 现在没有 { $symbol } 的{ $side }持仓：它已经被平掉了（止损或交易员自己平的）。请重新读取持仓。
http-close-bad-position = 请用交易对（如 BTCUSDT）和方向（LONG 或 SHORT）指明要平的持仓。
http-close-still-held = 交易员 { $name } 已停止，不会再开新仓；但运行它的引擎还没放开它（要先做完当前周期），所以持仓还在：请稍后再平一次。
http-settings-model-empty = 请写出助手要用的模型（名称或 id），或发送 `null` 只用规则。
http-assistant-model-builtin = { $name } 是交易员用的离线规则决策器，不能对话：请选择一个接了大模型服务商的模型（在 交易员与资源 → 模型 里添加）。
http-assistant-model-disabled = { $name } 已停用：请先在 交易员与资源 → 模型 里启用它。
http-assistant-model-no-key = { $name } 没有 API 密钥：请先在 交易员与资源 → 模型 里编辑它，填上密钥。
http-assistant-model-endpoint = 按现在的配置连不上 { $name }：{ $detail }
http-tokens-local = 这个服务运行在本地模式，没有登录，也就没有 API 令牌：添加一个用户（`nofxi user add NAME`）并重启 `nofxi serve` 后才能使用。
http-tokens-by-token = API 令牌只能由登录网页的人创建和吊销，不能用另一个令牌操作：请登录网页，在 设置 里操作。
http-token-scope-unknown = 未知的权限 { $scope }：可选 read、write、trade。
http-token-scope-not-held = 你自己没有 { $scope } 权限，所以你创建的令牌也不能有。
confirm-delete = 把{ $kind } { $name } 移到回收站：30 天内可以恢复。
button-yes = 确认
button-no = 不要

## 对话本身的回复：确认、取消、回到任务（“确认”、“取消”、“继续”）

dialogue-confirmation-not-shown = 这条确认还没有在这里显示过，所以没有执行。要执行的是：
dialogue-object-renamed = 在我请你确认之后，「{ $old }」已被改名为「{ $new }」，所以没有执行。
dialogue-object-changed = 在我请你确认之后，「{ $name }」已被修改，所以没有执行。
dialogue-object-gone = 「{ $name }」已经不存在了，所以没有执行。
dialogue-confirm-by-tool-call = 这条确认属于发起它的 { $tool } 调用，所以没有执行。请由该客户端带上 pending_id 再次调用 { $tool } 来确认。
dialogue-unsure-words = 我不太确定「{ $words }」在这里是什么意思。要{ $act }吗？我还什么都没做。
dialogue-which-of-state = 有几个交易员都符合：{ $names }。你指的是哪一个？
dialogue-unsure = 要{ $act }吗？我还什么都没做。
confirm-account-live = 实盘账户（真钱）
confirm-account-testnet = 测试网账户（测试资金，不是真钱）
confirm-account-paper = 模拟盘账户（模拟交易，不是真钱）
effects-no-traders = 没有
effects-running-trader = { $name }（运行中）
effects-nothing-done = 我什么都没做。
dialogue-nothing-to-resume = 没有可以回去的任务。
dialogue-value-is-key = 这个值看起来是一个密钥，不能用作名称或设置，换一个吧。
dialogue-parent-cancelled = 好的，之前的任务也取消了。
dialogue-nothing-to-confirm = 现在没有需要确认的事。
dialogue-offer-declined = 好的，不做了。
dialogue-denied = 好的，已取消，什么都没有改。
dialogue-nothing-in-progress = 好的。现在没有进行中的任务。
dialogue-all-cancelled = 好的，所有任务都取消了。
dialogue-cancelled = 好的，已取消。
dialogue-unread-confirmation-dropped = 这句我没看懂，所以没有执行：等你确认的操作已取消，什么都没改。你想让我做什么？
dialogue-confirmation-dropped = 等你确认的操作已取消，现在回答“好”不会执行任何操作。你想让我做什么？
dialogue-cancel-parent-too = 之前还有一个等待中的任务（{ $label }），也一起取消吗？
dialogue-offer-waiting = （还在等你回复是否先{ $label }。）
dialogue-still-need = 回到刚才的任务：还需要 { $slots }。
# 句子里列举多项时的分隔符（“名称、杠杆”）。
list-separator = 、

## 执行完的任务，或回到的任务（“已调整：…”、“接下来（…）：”）

task-adjusted = 已调整：{ $adjustment }
task-credentials-stored = 凭证已加密保存，不会再显示。
task-next = 接下来（{ $label }）：
task-back-to-earlier = 回到之前的任务（{ $label }）：

## 确认摘要（“确认执行吗？”）和其中显示的值

confirm-go-ahead = 确认执行吗？
confirm-no-active-strategy = （无启用的策略）
confirm-emptied = 空

## 没有改动的列表修改（币种里已经有 BTC 时说“s1 加上 BTC”）

edit-list-empty = （空）
edit-already-in = { $label }里已经有 { $items }，没有改动（现在是 { $now }）。
edit-not-in = { $label }里没有 { $items }，没有改动（现在是 { $now }）。

## 交易员、交易所账户、模型和策略的列表与详情（“列出交易员”、“看看 s1”）

render-running = 运行中
render-stopped = 已停止
render-enabled = 已启用
render-disabled = 已停用
render-testnet = ，测试网
render-prices-simulated = ，模拟行情（离线）
render-prices-live = ，{ $venue } 实时行情（模拟成交）
render-active = ，当前激活
render-trader-line = { $n }. { $name }（{ $state }，每 { $minutes } 分钟扫描）
render-model-detail =
    { $line }
    模型名：{ $model_name }
    接口地址：{ $url }
render-strategy-detail =
    { $line }
    币种：{ $coins }（排除：{ $excluded }）；主周期 { $timeframe }
    杠杆上限 BTC/ETH { $lev_major }x、山寨币 { $lev_alt }x；最多持仓 { $positions }；最低信心度 { $confidence }；最低盈亏比 { $rr }
    最小仓位 BTC/ETH { $size_major } USDT、山寨币 { $size_alt } USDT；仓位价值上限 { $value_ratio } 倍权益；保证金使用上限 { $margin }
render-empty = 还没有任何{ $kind }。

## 单个交易员的详情（“btc-bot 怎么样”）

detail-running = 运行中（引擎 { $engine }）
detail-no-engine = 已启动，但没有引擎在运行它（用 `nofxi run` 启动引擎）
detail-stopped = 已停止
detail-header = { $name }：{ $state }，每 { $minutes } 分钟扫描；交易所 { $exchange }，模型 { $model }，策略 { $strategy }
detail-no-cycle = 还没有完成过一个周期，暂无决策记录。
detail-no-decision = 无操作
detail-last-decision = 最近决策（第 { $cycle } 个周期，{ $time }）：{ $decided }{ $why }
detail-last-error = 最近错误：{ $error }
# 绑定的对象已不存在；暂与英文相同（回复按原样比对）。
detail-missing = (missing)

## 交易员详情里的资金：数据来源、权益、盈亏、持仓

figures-from-paper-simulated = 来自它的模拟子账户，{ $time }
figures-from-paper = 来自它的模拟子账户，当前（{ $time }）
figures-from-live = 来自 { $kind } 账户，当前（{ $time }）
figures-unreadable-no-cycle = 读取不到它的账户（{ $error }），也还没有完成过周期，暂无权益和持仓记录。
figures-no-cycle = 还没有完成过一个周期，暂无权益和持仓记录。
figures-unreadable = 现在读取不到它的账户（{ $error }），以下是上一个周期的记录：
figures-from-cycle = 第 { $cycle } 个周期的记录，{ $time }
figures-pnl = { $since }盈亏 { $pnl } USDT（{ $pct }%）
figures-pnl-unknown = 盈亏未知（没有它启动时的权益记录）
figures-account = ［{ $source }］权益 { $equity } USDT，{ $pnl }，已用保证金 { $margin } USDT，可用 { $available } USDT
figures-since-first-start = 自首次启动（{ $time }，{ $base } USDT）以来
figures-since-first-cycle = 自首个周期（{ $time }，{ $base } USDT）以来
figures-since-initial-balance = 相对初始资金 { $base }{" "}
figures-no-positions = 没有持仓。
figures-position = 持仓 { $symbol } { $side } { $quantity }，开仓价 { $entry }，标记价 { $mark }，未实现盈亏 { $upnl } USDT

## 测试交易所账户或模型配置（“测试 main”）

probe-exchange-said =
    { $explanation }
    交易所原话：{ $words }
probe-details =
    { $explanation }
    详情：{ $words }
probe-exchange-works-balance = 交易所账户「{ $name }」连接正常：权益 { $equity } { $asset }，可用 { $available }。
probe-exchange-works = 交易所账户「{ $name }」连接正常。
probe-exchange-prices = 它的价格来自 { $source } 的公开行情，行情接口正常响应：{ $symbol } 最新价 { $last }。
probe-model-works = 模型配置「{ $name }」可以正常调用：{ $by } 在 { $ms } 毫秒内作答。
probe-failure-what = { $what }（{ $status }{ $kind }）
probe-builtin-model = 内置规则不需要接口，无需测试，可以直接用。
probe-model-not-callable = 这个模型配置现在无法调用，没有发出任何请求。
# 诊断技能没有条目时的兜底说明，暂与英文相同（回复按原样比对）。
probe-model-failed = The model call failed ({ $kind }).

## 诊断技能里没有条目的交易所检查问题：发生了什么 / 原因 / 现在怎么做

exchange-no-balance-what = 合约钱包里没有 USDT。
exchange-no-balance-why = 余额为 0 时，交易员无法开仓。
exchange-no-balance-fix = 先把 USDT 划转到合约账户，再启动交易员。
exchange-unreadable-what = 交易所的回答里缺少检查要读的字段，这项检查无法判断。
exchange-unreadable-why = 回答的服务器多半不是交易所本身（基础 URL 指向了别的服务器或代理）。
exchange-unreadable-fix = 检查本机和交易所之间有没有别的服务器（代理、网络的登录页）替它作答，再测试一次。
exchange-base-url-override = 已设置 { $variable }，所以 nofxi 把 { $venue } 的请求发到了 { $url }，而不是 { $venue } 自己的地址：除非这个地址是替代 { $venue } 的（比如你自己运行的代理），否则请取消设置 { $variable }。
exchange-refused-what = 交易所拒绝了检查请求。
exchange-refused-why = nofxi 的诊断表里没有这个错误；交易所的原话附在后面。
exchange-refused-fix = 按交易所的提示处理，或把完整报错发给我，我来解读。

## 助手模型：没把握、调用失败，或开放式问题时没有设置

model-gateway-unsure = 我不太确定你的意思。你想做的是下面哪一个？也可以换个说法。
model-failed = （助手模型这次没有应答，我先按规则处理。发生了什么：{ $what } 原因：{ $why } 现在怎么做：{ $fix }）
model-unusable = （助手模型不可用：{ $why }）
model-market-data-without-model = 行情可以先在命令行查看：`nofxi market price BTC --source binance`（币安实时报价），K 线用 `nofxi market klines BTC --source binance`。
model-open-question-needs-model = 这是一个开放式问题，需要先设置助手模型：`nofxi config set assistant.model 模型名`。不设置模型时，我仍然可以管理交易员、交易所、模型和策略，并解释术语和报错。

## 超过长度上限的消息（一点都不读取）

message-too-long = 这条消息太长了（{ $kb } KB，上限是 { $cap } KB），所以没有读取，也没有执行任何操作。请缩短它，或分成几条发送。

## 停止所有交易员、复制策略、账户用不到的凭证

stop-all-unknown-except = 没有叫「{ $name }」的交易员，所以一个都没有停
strategy-copy-name = { $of } 副本
credentials-left-out = { $kind } 账户用不到 { $fields }，已忽略。

## 消息里有个数字没有用到任何设置上（用上之前什么都不做）

clause-separator = ，
unplaced-one = { $number } 我还没用上：是{ $setting }吗？你确认之前什么都不做。
unplaced-some = { $number } 我还没用上：是哪一项，{ $settings }？你说之前什么都不做。
unplaced-none = { $number } 我没用上：这个请求没有能用它的设置。请去掉它再说一次，或带上它是哪一项。还什么都没做。

## 新建资源时设置的值（成功提示里没有提到的）

task-created-settings = 另外设置了：{ $list }。

# 一个动作怎么做（“怎么添加交易所？”）：需要什么，怎么说。
howto-needs = { $task }：需要{ $fields }。
howto-needs-nothing = { $task }：直接说就可以，不需要别的信息。
howto-say-it = 可以这样说：“{ $example }”。
howto-offer = 现在就开始吗？说“好”我会逐项问你。

## 交易员诊断（`trader.diagnose`）：每个检查的 发生了什么 / 原因 / 现在怎么做
diagnose-header = 我查了 { $name } 的配置、状态和日志，发现：
diagnose-also = 另外，从它最近的周期看：
diagnose-also-refused = 其余被拒绝的开仓：{ $reasons }。
diagnose-request-risk-reward = 把 { $strategy } 的最低盈亏比改成 { $value }
diagnose-offer = 回复“好”我就去做（有风险的操作会先让你确认）。
diagnose-request-start = 启动 { $name }
diagnose-request-confidence = 把 { $strategy } 的最低置信度改成 { $value }
diagnose-problem-disabled-model = 它的模型「{ $name }」已停用
diagnose-problem-disabled-exchange = 它的交易所账户「{ $name }」已停用
diagnose-problem-missing-model = 它的模型不存在了（已删除或从未创建）
diagnose-problem-missing-exchange = 它的交易所账户不存在了（已删除或从未创建）
diagnose-problem-missing-strategy = 它的策略不存在了（已删除或从未创建）
diagnose-problem-credentials = 交易所账户「{ $name }」缺少 { $missing }
diagnose-request-enable-model = 启用模型 { $name }
diagnose-request-enable-exchange = 启用交易所账户 { $name }
diagnose-configuration-what = { $name } 按现在的配置无法运行。
diagnose-configuration-why = { $problems }
diagnose-configuration-fix = { $fix }
diagnose-configuration-fix-other = 先修好上面说的问题（例如换一个交易所账户或模型），再启动 { $name }。
diagnose-configuration-fix-enable-model = 启用模型「{ $thing }」（或换一个模型），再启动 { $name }。
diagnose-configuration-fix-enable-exchange = 启用交易所账户「{ $thing }」（或换一个账户），再启动 { $name }。
diagnose-stopped-error-what = { $when }，引擎停止了 { $name }：它的周期一直失败。
diagnose-stopped-error-why = { $detail }
diagnose-stopped-error-fix = 修好上面的原因（`nofxi exchange test` / `nofxi model test` 可检查连接），再启动 { $name }。
diagnose-stopped-safe-mode-what = { $when }，引擎停止了 { $name }：进入安全模式后模型仍然一直失败。
diagnose-stopped-safe-mode-why = { $detail }
diagnose-stopped-safe-mode-fix = 测试一下它的模型（“测试模型 …”），修好密钥、余额或模型名，再启动 { $name }。
diagnose-stopped-lease-lost-what = { $when }，{ $name } 在这个引擎里停了：另一个引擎进程接管了它。
diagnose-stopped-lease-lost-why = { $detail }
diagnose-stopped-lease-lost-fix = 同一个数据库只运行一个引擎，或让另一个引擎运行它；如果现在没有引擎在运行它，再启动一次。
diagnose-stopped-preflight-what = { $when }，引擎没能启动 { $name }：启动前检查没有通过。
diagnose-stopped-preflight-why = { $detail }
diagnose-stopped-preflight-fix = 修好上面说的检查项，再启动 { $name }。
diagnose-start-fails-what = { $name } 已停止，而且现在启动也会失败。
diagnose-start-fails-why = { $error }
diagnose-start-fails-fix = 先修好上面说的问题（用“测试 …”检查交易所账户，用“测试模型 …”检查模型），再启动它。
diagnose-stopped-what = { $name } 处于停止状态：它还没启动过，或者被手动停止了。
diagnose-stopped-why = 停止的交易员不运行周期。它的检查现在都能通过：配置、模型、交易所账户和余额。
diagnose-stopped-fix = 启动 { $name }；引擎运行时（`nofxi run` 或 `nofxi serve`）它才会交易。
diagnose-no-engine-what = { $name } 标记为运行中，但没有引擎进程在运行它。
diagnose-no-engine-why = 交易员只在运行中的引擎里交易，而现在没有引擎在运行。
diagnose-no-engine-fix = 运行 `nofxi run`（或同时带引擎的 `nofxi serve`），并保持运行。
diagnose-no-cycles-what = { $name } 在运行，但还没有完成过一个周期。
diagnose-no-cycles-why = 它每 { $minutes } 分钟决策一次；启动后这段时间内会有第一个周期。
diagnose-no-cycles-fix = 等第一个周期完成后再问，或看它的日志（“{ $name } 的日志”）。
diagnose-cycle-errors-what = { $name } 最近 { $cycles } 个周期里有 { $count } 个失败了，最新一个也失败了。
diagnose-cycle-errors-why = { $error }
diagnose-cycle-errors-fix = 修好上面的原因；`nofxi exchange test` 和 `nofxi model test` 会逐项检查连接并解释发现的问题。
diagnose-safe-mode-what = { $name } 处于安全模式：它的模型连续失败了几次，所以只平仓和持有。
diagnose-safe-mode-why = 模型没有应答，或返回了错误（密钥、余额、模型名、限流）。
diagnose-safe-mode-fix = 测试一下它的模型（“测试模型 …”）并修好发现的问题；下一次正常应答就会退出安全模式。
diagnose-malformed-what = 最近 { $cycles } 个周期里有 { $count } 个，模型的回答里没有有效的决策。
diagnose-malformed-why = 回答不是策略要求的 JSON 决策列表，例如：{ $example }
diagnose-malformed-fix = 换一个更强的模型，或缩短策略的自定义提示词，让回答格式的要求更醒目。
diagnose-trading-what = { $name } 在交易：最近 { $cycles } 个周期里有 { $count } 个开了仓，最近一次在 { $when }。
diagnose-trading-why = 它的流程里没有拦住交易的地方；一段时间没开仓是模型选择了观望。
diagnose-trading-fix = 看它的日志（“{ $name } 的日志”）了解每个决策和理由。
diagnose-refused-low-confidence-what = { $name } 的模型提出的开仓有 { $opens } 次被拒绝；其中 { $count } 次是因为置信度低于策略的最低要求 { $min }。
diagnose-refused-low-confidence-why = 策略 { $strategy } 只在置信度达到 { $min } 时开仓；模型给出的最高置信度是 { $best }。
diagnose-refused-low-confidence-fix = 把 { $strategy } 的最低置信度降到 { $best } 或更低，或者保持不变、接受更少的交易。
diagnose-refused-risk-reward-what = { $name } 的模型提出的开仓有 { $opens } 次被拒绝；其中 { $count } 次是因为盈亏比低于 { $min }。
diagnose-refused-risk-reward-why = 策略 { $strategy } 要求止盈距离至少是止损距离的 { $min } 倍；最好的一次只有 { $best }。
diagnose-refused-risk-reward-fix = 调低 { $strategy } 的最低盈亏比，或者保持不变、接受更少的交易。
diagnose-refused-positions-what = { $name } 的模型提出的开仓有 { $opens } 次被拒绝；其中 { $count } 次是因为已有持仓。
diagnose-refused-positions-why = { $reason }
diagnose-refused-positions-fix = 等已有持仓平掉，或调高 { $strategy } 的最大持仓数。
diagnose-refused-size-limit-what = { $name } 的模型提出的开仓有 { $opens } 次被拒绝；其中 { $count } 次超出了账户允许的仓位。
diagnose-refused-size-limit-why = { $reason }
diagnose-refused-size-limit-fix = 给账户加钱，或调小策略要求的仓位。
diagnose-refused-too-small-what = { $name } 的模型提出的开仓有 { $opens } 次被拒绝；其中 { $count } 次低于最小下单量。
diagnose-refused-too-small-why = { $reason }
diagnose-refused-too-small-fix = 调低 { $strategy } 的最小仓位，或给交易员更多资金，让模型开更大的仓位。
diagnose-refused-stops-what = { $name } 的模型提出的开仓有 { $opens } 次被拒绝；其中 { $count } 次没有有效的止损和止盈。
diagnose-refused-stops-why = { $reason }
diagnose-refused-stops-fix = 换一个更强的模型，或在策略的自定义提示词里写明：每次开仓都要有方向正确的止损和止盈。
diagnose-refused-other-what = { $name } 的模型提出的开仓有 { $opens } 次被拒绝；其中 { $count } 次是同一个原因。
diagnose-refused-other-why = { $reason }
diagnose-refused-other-fix = 看它的日志（“{ $name } 的日志”）了解每个被拒绝的决策。
diagnose-order-error-what = { $name } 有 { $count } 个订单在交易所失败：{ $what }
diagnose-order-error-why = { $why }
diagnose-order-error-fix = { $fix }
diagnose-order-error-unknown = 交易所给出了这个原因：见日志里的报错。
diagnose-order-error-unknown-fix = 把报错发给我解释，或测试一下这个交易所账户（“测试 …”）。
diagnose-cycle-errors-known-what = { $name } 最近 { $cycles } 个周期里有 { $count } 个失败了，最新一个也失败了。{ $what }
diagnose-cycle-errors-known-why = { $why }（报错：{ $error }）
diagnose-cycle-errors-known-fix = { $fix }
diagnose-context-too-long-what = { $name } 最近 { $cycles } 个周期里有 { $count } 个失败了：提示词超过了模型的上下文长度。最近一次失败的提示词{ $size }。
diagnose-context-too-long-why = { $why }（报错：{ $error }）
diagnose-context-too-long-fix = { $fix }
diagnose-prompt-tokens = 有 { $count } 个 token
diagnose-prompt-chars = 有 { $count } 个字符
diagnose-prompt-unknown = 的长度日志里没有记录
diagnose-sizes-unreachable-what = 策略 { $strategy } 让 { $name } 什么都开不了：{ $coin } 的最小仓位是 { $min } USDT，而它的限制最多只允许 { $max } USDT。
diagnose-sizes-unreachable-why = 权益 { $equity } USDT 时，单个仓位价值最多是权益的 { $ratio } 倍，也不能超过保证金上限在最高杠杆下能开的金额；它交易的每个币种的最小仓位都高于这个值，所以每次开仓都被拒绝。
diagnose-sizes-unreachable-fix = 把 { $strategy } 的{ $setting }降到 { $max } USDT 或更低，或调高最大仓位价值倍数，或给账户加钱。
diagnose-setting-min-size-major = BTC/ETH 最小仓位
diagnose-setting-min-size-alt = 最小仓位
diagnose-request-min-size-major = 把 { $strategy } 的 BTC/ETH 最小仓位改成 { $value }
diagnose-request-min-size-alt = 把 { $strategy } 的最小仓位改成 { $value }
diagnose-strategy-edited-what = 策略 { $strategy } 在 { $edited } 被修改过，晚于 { $name } 的最近一个周期（{ $last }）。
diagnose-strategy-edited-why = 交易员在每个周期开始时读取策略，所以到目前为止的周期用的都是修改前的设置。
diagnose-strategy-edited-fix = 修改从下一个周期开始生效，预计在 { $next } 左右；之后再问我，我会看新的周期。
diagnose-unexplained-what = 所有检查都没有找到 { $name } 不交易的原因。
diagnose-unexplained-why = 它的配置、状态和日志里没有阻止它交易的东西。
diagnose-unexplained-fix = 看看它的日志（“看 { $name } 的日志”），或者把看到的报错发给我，我来解释。
# 诊断引用的风控拒绝原因，按类型（`nofxi_trader::Refusal`）。
refusal-unknown-symbol = 这个币种不在本周期的候选或持仓里
refusal-duplicate-symbol = 同一个回答里前面已经有这个币种的决策
refusal-safe-mode = 安全模式下只允许平仓和持有
refusal-nothing-to-close = 没有可平的 { $side } 持仓
refusal-position-exists = 这个币种已经有持仓
refusal-missing-size = 回答里没有仓位大小
refusal-below-minimum-size = { $given } USDT 的仓位低于最小值 { $min } USDT
refusal-over-maximum-value = { $given } USDT 的仓位超过了权益允许的 { $max } USDT
refusal-margin-usage = 需要 { $needed } USDT 保证金，会超过保证金上限 { $limit } USDT（可用 { $available } USDT）
refusal-missing-stops = 开仓时止损和止盈都必须给出
refusal-stop-loss-wrong-side = 止损 { $stop_loss } 在价格 { $price } 的错误一侧（{ $side }）
refusal-take-profit-wrong-side = 止盈 { $take_profit } 在价格 { $price } 的错误一侧（{ $side }）
refusal-risk-reward-too-low = 盈亏比 { $ratio } 低于策略的最低要求 { $min }
refusal-low-confidence = 置信度 { $given } 低于策略的最低要求 { $min }
refusal-max-positions = 已达到策略最多 { $max } 个持仓的上限
refusal-opens-per-cycle = 每个周期最多开 { $max } 个仓
diagnose-numbers-header = 我对照日志查了 { $name } 的余额、持仓和盈亏是怎么来的：
diagnose-request-initial-balance = 把 { $name } 的初始资金改成 { $value }
diagnose-baseline-what = { $name } 的盈亏是从初始资金 { $set } USDT 算起的，但它第一个周期（{ $when }）时账户里有 { $held } USDT。
diagnose-baseline-why = 盈亏 = 权益 − 你设置的初始资金，所以这个差额会显示成一笔从没发生过的盈利或亏损。
diagnose-baseline-fix = 把 { $name } 的初始资金改成账户实际的起始金额 { $held } USDT。
diagnose-closed-between-what = { $name } 的 { $symbol } { $side }（{ $quantity }，开仓价 { $entry }）在 { $from } 的周期后还在，到 { $to } 的周期时没了，而 nofxi 没有发出平仓单。
diagnose-closed-between-why = 它是在两个周期之间在交易所平掉的：止损或止盈成交、被强平，或者手动平仓。日志只在每个周期看一次持仓。
diagnose-closed-between-fix = 没有丢失任何东西：它的结果已经计入余额。去交易所的成交记录里查这笔成交的准确价格和手续费。
diagnose-outside-position-what = 到 { $when } 的周期时，{ $name } 的账户上出现了一个 { $symbol } { $side }（{ $quantity }），而 nofxi 没有发出开仓单。
diagnose-outside-position-why = 它是在 nofxi 之外开的：手动开仓，或者另一个机器人在用同一个账户；它的盈亏会算进这个交易员的权益。
diagnose-outside-position-fix = 不需要的话在交易所把它平掉，并给交易员一个单独的账户（或子账户）。
diagnose-breakdown-what = { $name } 的权益是 { $equity } USDT，初始资金 { $initial } USDT：盈亏 { $pnl } USDT。
diagnose-breakdown-why = 其中 { $realized } USDT 已实现（已平仓交易扣除手续费和资金费后，在钱包里），{ $unrealized } USDT 是 { $positions } 个持仓按标记价格的未实现盈亏；日志里没有解释不了的部分。
diagnose-breakdown-fix = 未实现的部分会随价格变动，直到平仓。想看交易、手续费和胜率，可以问它的统计数据。
side-long = 多头
side-short = 空头
diagnose-no-candidates-what = { $name } 没有可交易的币种。
diagnose-no-candidates-why = 策略 { $strategy } 列表里的每个币种都被排除了，所以每个周期都没有候选。
diagnose-no-candidates-fix = 给 { $strategy } 加一个币种，或从排除列表里去掉一个。
diagnose-only-waits-what = 最近 { $cycles } 个周期里 { $name } 每次都决定观望或持有；没有被拒绝的开仓，也没有失败的订单。
diagnose-only-waits-why = 它的决策器（{ $decider }）没看到它会交易的机会；每 { $minutes } 分钟再看一次。
diagnose-only-waits-fix = 没有出错。可以继续等，或换一个交易更频繁的策略或模型。

## MCP 工具调用（crates/mcp）：发生了什么、为什么、现在怎么办。
mcp-unknown-tool = 没有叫 { $tool } 的工具，什么都没做。先列出工具（tools/list），再调用其中一个。
mcp-invalid-arguments = { $tool } 的参数不符合它的输入定义（{ $problems }），什么都没做。改好这些字段后再调用。
mcp-scope = 这个令牌不能调用 { $tool }：需要“{ $scope }”权限，什么都没做。创建一个带这个权限的令牌（`nofxi token create --scopes read,write,trade`）再连接。
mcp-confirm-needed = 还什么都没做。{ $summary } 请把这段给你代为操作的人看；只有对方同意后，才用相同参数再调用一次 { $tool }，并带上 "confirm": "{ $pending }"（5 分钟内有效）。
mcp-pending-expired = 这个确认已超过 5 分钟，不再有效，什么都没做。不带 "confirm" 再调用一次 { $tool } 取得新的摘要，并重新征得同意。
mcp-pending-stale = 这个确认和这次调用对不上：参数不同，或者摘要给出后对象已经变了，什么都没做。不带 "confirm" 再调用一次 { $tool } 取得新的摘要。
mcp-failed = nofxi 没能完成这次调用（{ $detail }），没有再做别的。请重试；如果一直失败，运行 `nofxi paths` 检查数据目录。
mcp-no-resource = 没有资源 { $uri }。先读 nofxi://traders 看交易员，再读 nofxi://traders/名称，或它的 /journal、/equity。
mcp-instructions = nofxi 管理 AI 交易机器人（交易员）以及它们用的交易所账户、模型配置和策略，数据存在本机。工具就是它的技能动作（trader_management_create、…_query、…_diagnose）和 nofxi_chat。有风险的操作（删除、实盘启动、改变交易员的交易方式）第一次调用只返回 status confirmation_required、摘要和 pending_id：把摘要给本人看，对方同意后才带上 "confirm" 再调用。资源：nofxi://traders，以及每个交易员的 journal 和 equity。

## 个人投资组合（"茅台的成本是多少"、"今天买了 100 股成都银行，15.2 元"）

portfolio-none = 还没有投资组合：先用 `nofxi portfolio add 名称` 创建一个，再用 `nofxi portfolio import 名称 文件` 导入券商导出的 CSV。
portfolio-none-web = 还没有投资组合。打开菜单里的“投资组合”页面，在那里新建一个（名称、币种、你的券商账户）；然后用“上传 CSV”导入券商导出的文件，或者直接告诉我一笔交易（“今天买了 100 股腾讯，380 元”）。
portfolio-which = 你有多个投资组合（{ $list }）：是哪一个？
portfolio-which-stock = “{ $said }”可能是 { $list }。
portfolio-unknown-stock = 我不认识叫“{ $said }”的证券；带市场的代码可以，比如 601838.SH、00700.HK 或 AAPL.US。
portfolio-holding-none = { $portfolio } 里没有 { $name }：没有它的任何记录。
portfolio-holding-header = { $name }，组合 { $portfolio }，{ $on }：
portfolio-holding-line = { $account }：持有 { $quantity }，成本 { $cost } { $currency }（每单位 { $unit_cost }，{ $method }，含费用）；价格 { $price }（{ $priced } 的价格），市值 { $value } { $currency }；浮动盈亏 { $unrealized } { $currency }（{ $pct }），已实现 { $realized } { $currency }
portfolio-holding-sold = { $account }：已全部卖出；已实现盈亏 { $realized } { $currency }
portfolio-basis = 口径：{ $basis }。
portfolio-summary-empty = { $portfolio } 还没有任何记录：用 `nofxi portfolio import { $portfolio } 文件` 导入券商 CSV，或者直接告诉我一笔交易（“今天买了 100 股腾讯，380 元”）。
portfolio-summary-empty-web = { $portfolio } 还没有任何记录：在“投资组合”页面用“上传 CSV”导入券商的文件，或者直接告诉我一笔交易（“今天买了 100 股腾讯，380 元”）。
portfolio-summary-header = { $portfolio }（{ $on }）：市值 { $value } { $currency }；浮动盈亏 { $unrealized } { $currency }，已实现 { $realized } { $currency }
portfolio-summary-return = { $period }：时间加权收益率 { $twr }（{ $basis }）
portfolio-period-ytd = 今年以来
portfolio-period-all = 自第一笔记录以来
portfolio-summary-top = 最大的持仓：{ $list }
portfolio-warning-old-price = 注意：{ $instrument } 按 { $date } 的价格估值，之后没有记录新价格（可用 `nofxi portfolio price` 或 `nofxi portfolio quote --live` 补上）。
portfolio-warning-old-price-web = 注意：{ $instrument } 按 { $date } 的价格估值，之后没有记录新价格（可在“投资组合”页面用“记录价格”补上）。
portfolio-warning-negative-cash = 注意：账户 { $account } 的现金为 { $amount } { $currency }：交易记录里缺少对应的入金，收益率因此没有意义。
portfolio-warning-no-returns = 注意：暂时算不出收益率：{ $reason }
portfolio-per-currency = 以 { $base } 汇总需要一个还没有记录的汇率（{ $error }；可用 `nofxi portfolio fx` 补上）。先按币种分别显示：
portfolio-per-currency-web = 以 { $base } 汇总需要一个还没有记录的汇率（{ $error }；可在“投资组合”页面用“记录汇率”补上）。先按币种分别显示：
portfolio-lots-unknown = { $code } 一手不一定是 100 股：这笔一共成交了多少股？
portfolio-no-price = 请说每股成交价，或者这笔交易的总额。
portfolio-side-buy = 买入
portfolio-side-sell = 卖出
portfolio-trade = { $side } { $quantity } × { $name }，价格 { $price } { $currency }，日期 { $date }（成交额 { $gross } { $currency }），账户 { $account }（组合 { $portfolio }）
portfolio-fee-line = { $name } { $amount }（{ $rate }，自 { $from } 起）
portfolio-fees-computed = 按费率表计算的费用：{ $lines }；合计 { $total } { $currency }
portfolio-fee-given = 按你给的费用：{ $fee } { $currency }
portfolio-recorded = 已记录：{ $trade }。{ $fees }。该账户现在持有 { $name } { $held }。
portfolio-sell-more-than-held = { $date } 时账户 { $account } 只持有 { $name } { $held }，少于要卖出的 { $quantity }：请核对数量，或先补记那笔买入。
portfolio-record-invalid = 这笔交易无法记录：{ $error }
portfolio-unknown-account = “{ $said }”不是这个组合的账户；它的账户有：{ $list }。
portfolio-which-account = 是哪个账户的交易？（{ $list }）
portfolio-no-account = 这个组合还没有账户可以记录交易：新建组合时用 `--account 账户名` 添加（`nofxi portfolio add 名称 --account 账户名`）。
portfolio-no-account-web = 这个组合还没有账户可以记录交易：请在它的“投资组合”页面用“添加账户”添加一个。
portfolio-bad-day = “{ $said }”不是日期：请说今天、昨天，或写成 YYYY-MM-DD。
portfolio-future-day = { $date } 在今天之后：只能记录已经成交的交易。
portfolio-trades-header = { $portfolio } 最近的 { $count } 条记录（共 { $total } 条），最新的在前：
portfolio-trades-header-of = { $name } 在 { $portfolio } 最近的 { $count } 条记录（共 { $total } 条），最新的在前：
portfolio-trades-none = { $portfolio } 还没有记录：用 `nofxi portfolio import { $portfolio } 文件` 导入券商的 CSV，或者直接告诉我一笔交易（“今天买了 100 股腾讯，380 元”）。
portfolio-trades-none-web = { $portfolio } 还没有记录：在“投资组合”页面用“上传 CSV”导入券商的文件，或者直接告诉我一笔交易（“今天买了 100 股腾讯，380 元”）。
portfolio-trades-none-of = { $portfolio } 里没有 { $name } 的记录。
portfolio-trades-line = { $date } { $what } { $amount }，费用 { $fee }（{ $fee_from }），账户 { $account }
portfolio-fee-from-given = 按你给的
portfolio-fee-from-schedule = 按费率表计算
portfolio-fee-from-none = 不收费
portfolio-kind-dividend = 分红
portfolio-kind-fee = 费用
portfolio-kind-interest = 利息
portfolio-kind-split = 拆股
portfolio-kind-transfer-in = 转入
portfolio-kind-transfer-out = 转出
portfolio-kind-deposit = 存入资金
portfolio-kind-withdrawal = 取出资金
clarify-read-which = 你指的是哪一个？请这样说：
    { $list }
clarify-read-option = { $message }（{ $noun }）
market-no-source = { $symbol }（外汇、贵金属、指数）的报价需要行情数据源，nofxi 暂时还没有；股票（600519.SH、00700.HK、AAPL.US）和数字货币交易对（BTC、ETH）可以报价。
market-stock-quote = { $name }：{ $last } { $currency }（较昨收 { $previous } { $change }；开 { $open }，高 { $high }，低 { $low }），时间 { $time }
market-stock-simulated = 这是 nofxi 的离线模拟行情，不是真实价格。`nofxi portfolio quote --live { $code }` 会查询公开行情（腾讯、新浪、东方财富），并把价格记入你的组合。
market-stock-recorded = 你最近记录的价格：{ $price } { $currency }（{ $date }，来源 { $source }）。
technical-header = { $name } 的技术快照，截至 { $last_day } 的 { $bars } 根日线（nofxi 离线模拟行情，不是真实市场数据）：
technical-values = 收盘 { $close }；MA5 { $ma5 }，MA10 { $ma10 }，MA20 { $ma20 }；EMA12 { $ema12 }，EMA26 { $ema26 }；MACD DIF { $dif }，DEA { $dea }，柱 { $hist }；RSI14 { $rsi }；布林带 (20, 2σ) 上轨 { $upper }，中轨 { $middle }，下轨 { $lower }；ATR14 { $atr }；20 日支撑 { $support }，压力 { $resistance }
technical-above-ma20 = 收盘价在 MA20 之上。
technical-below-ma20 = 收盘价在 MA20 之下。
technical-rsi-high = RSI14 为 { $rsi }，不低于 70：按常用读法属于超买。
technical-rsi-low = RSI14 为 { $rsi }，不高于 30：按常用读法属于超卖。
technical-rsi-middle = RSI14 为 { $rsi }，在 30 到 70 之间：既不超买也不超卖。
technical-macd-up = MACD 柱为正（DIF 在 DEA 之上）。
technical-macd-down = MACD 柱为负（DIF 在 DEA 之下）。
technical-missing-volume = 缺少：成交量（模拟行情没有），所以没有量比。以上是对数字的解读，不是投资建议。
portfolio-whole-shares = { $quantity } 不是整数股：{ $code } 只能按整股买卖。成交了多少股？
portfolio-fee-rate-pct = 费率 { $rate }%
portfolio-fee-rate-unit = 每股 { $rate }
portfolio-fee-minimum = { $rate }，按最低 { $amount } 收取
portfolio-fee-maximum = { $rate }，封顶 { $amount }
pnl-no-traders-portfolio = 还没有交易员；你的投资组合：
pnl-portfolio-too = 你的投资组合（自己持有的证券，与交易员分开）：
portfolio-currency-mismatch = { $name } 以 { $currency } 交易，但你说的价格是 { $said }：没有记录。请用 { $currency } 价格再说一遍这笔交易。

venue-not-supported = nofxi 目前还不能在 { $venue } 上交易，也读不了它的账户和行情。能交易的有 Binance、OKX、Bybit、Bitget 和 Hyperliquid，以及模拟盘账户（模拟资金，不动真钱）：说“添加一个模拟盘账户叫 paper”就能先试策略。
