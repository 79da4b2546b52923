//! The live venues' mock servers seen one way, for tests that do the same thing on each:
//! how to reach the mock, the account to add on it, how to hold an entry's answer back, how
//! many entry and protective orders it holds, and each fault the exchange diagnosis explains
//! that applies to it (its knob on the mock, or credentials that carry it).

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use rust_decimal_macros::dec;

/// Long enough that an engine is killed while the venue still holds its answer back.
pub const HELD_BACK: Duration = Duration::from_secs(60);

/// The kinds of fault the exchange diagnosis explains (issue 50's Done-when).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    Clock,
    Key,
    Ip,
    Permission,
    PositionMode,
    Passphrase,
    AgentWallet,
}

/// One fault of one venue's account: a knob turned on its mock, or credentials that carry it.
pub struct VenueFault {
    pub kind: FaultKind,
    /// What is wrong, as a failure message names it.
    pub what: &'static str,
    /// `exchange add` flags and values carrying the fault (a wrong secret, another main
    /// wallet); the account's own when `None`.
    pub credentials: Option<Vec<&'static str>>,
    /// Turns the fault on in the mock (does nothing for a fault in the credentials).
    pub inject: Box<dyn Fn()>,
}

impl VenueFault {
    fn knob(kind: FaultKind, what: &'static str, inject: impl Fn() + 'static) -> VenueFault {
        VenueFault {
            kind,
            what,
            credentials: None,
            inject: Box::new(inject),
        }
    }

    fn in_credentials(
        kind: FaultKind,
        what: &'static str,
        credentials: Vec<&'static str>,
    ) -> VenueFault {
        VenueFault {
            kind,
            what,
            credentials: Some(credentials),
            inject: Box::new(|| {}),
        }
    }
}

/// A minute: past every venue's window for a request's timestamp.
const CLOCK_OFF_MS: i64 = 60_000;

/// One live venue's mock, seen the same way.
pub struct Live {
    /// The exchange type, as `nofxi exchange add --type` takes it.
    pub kind: &'static str,
    /// The variable that points nofxi at the mock.
    pub url_env: &'static str,
    pub url: String,
    /// `exchange add` flags and values for the mock's account.
    pub credentials: Vec<&'static str>,
    pub hold_back_entry: Box<dyn Fn()>,
    pub entries: Box<dyn Fn() -> usize>,
    pub protections: Box<dyn Fn() -> usize>,
    /// Every fault the diagnosis must explain that applies to this venue.
    pub faults: Vec<VenueFault>,
}

impl Live {
    /// `cmd` pointed at this venue's mock.
    pub fn at_mock(&self, mut cmd: Command) -> Command {
        cmd.env(self.url_env, &self.url);
        cmd
    }
}

/// Every live venue nofxi trades on, each with a funded account on its mock.
pub async fn all() -> Vec<Live> {
    vec![
        binance().await,
        okx().await,
        bybit().await,
        bitget().await,
        hyperliquid().await,
    ]
}

pub async fn binance() -> Live {
    use nofxi_testkit::binance::{Fault, MockBinance, Route};
    const KEY: &str = "binCrashKey0123456789abcdefABCDEF0123456789abcdefABCDEF01234567";
    const SECRET: &str = "binCrashSecret0123456789abcdefABCDEF0123456789abcdefABCDEF012345";
    let mock = Arc::new(MockBinance::start().await.unwrap());
    mock.add_account(KEY, SECRET, dec!(8765.4));
    let (m1, m2, m3) = (mock.clone(), mock.clone(), mock.clone());
    let (f1, f2, f3, f4) = (mock.clone(), mock.clone(), mock.clone(), mock.clone());
    let faults = vec![
        VenueFault::knob(
            FaultKind::Clock,
            "this machine's clock a minute ahead",
            move || f1.set_client_clock_off_ms(KEY, CLOCK_OFF_MS),
        ),
        VenueFault::in_credentials(
            FaultKind::Key,
            "a wrong secret key",
            vec![
                "--api-key",
                KEY,
                "--secret-key",
                "binWrongSecret0123456789abcdefABCDEF",
            ],
        ),
        VenueFault::knob(
            FaultKind::Ip,
            "this IP off the key's whitelist",
            move || f2.set_ip_whitelisted(KEY, false),
        ),
        VenueFault::knob(
            FaultKind::Permission,
            "futures not enabled on the key",
            move || f3.set_futures_enabled(KEY, false),
        ),
        VenueFault::knob(
            FaultKind::PositionMode,
            "hedge (dual-side) position mode",
            move || f4.set_hedge_mode(KEY, true),
        ),
    ];
    Live {
        kind: "binance",
        url_env: "NOFXI_BINANCE_BASE_URL",
        url: mock.url(),
        credentials: vec!["--api-key", KEY, "--secret-key", SECRET],
        hold_back_entry: Box::new(move || {
            m1.inject(Route::PlaceOrder, Fault::AcceptThenDelay(HELD_BACK))
        }),
        entries: Box::new(move || {
            m2.orders(KEY)
                .iter()
                .filter(|o| o.order_type == "MARKET")
                .count()
        }),
        protections: Box::new(move || {
            m3.orders(KEY)
                .iter()
                .filter(|o| o.order_type != "MARKET")
                .count()
        }),
        faults,
    }
}

pub async fn okx() -> Live {
    use nofxi_testkit::okx::{Fault, MockOkx, Route};
    const KEY: &str = "okxCrashKey0123456789";
    const SECRET: &str = "okxCrashSecret0123456789";
    const PASSPHRASE: &str = "okxCrashPass42";
    let mock = Arc::new(MockOkx::start().await.unwrap());
    mock.add_account(KEY, SECRET, PASSPHRASE, dec!(8765.4));
    let (m1, m2, m3) = (mock.clone(), mock.clone(), mock.clone());
    let f = [(); 6].map(|_| mock.clone());
    let [f1, f2, f3, f4, f5, f6] = f;
    let faults = vec![
        VenueFault::knob(
            FaultKind::Clock,
            "this machine's clock a minute ahead",
            move || f1.set_client_clock_off_ms(KEY, CLOCK_OFF_MS),
        ),
        VenueFault::in_credentials(
            FaultKind::Key,
            "a wrong secret key",
            vec![
                "--api-key",
                KEY,
                "--secret-key",
                "okxWrongSecret0123456789",
                "--passphrase",
                PASSPHRASE,
            ],
        ),
        VenueFault::knob(
            FaultKind::Ip,
            "this IP off the key's whitelist",
            move || f2.set_ip_whitelisted(KEY, false),
        ),
        VenueFault::knob(
            FaultKind::Permission,
            "no Trade permission on the key",
            move || f3.set_trade_permission(KEY, false),
        ),
        VenueFault::knob(
            FaultKind::PositionMode,
            "long/short (hedge) position mode",
            move || f4.set_long_short_mode(KEY, true),
        ),
        VenueFault::knob(
            FaultKind::PositionMode,
            "an account in Spot mode",
            move || f5.set_account_mode(KEY, "1"),
        ),
        VenueFault::knob(
            FaultKind::Passphrase,
            "the key's passphrase changed",
            move || f6.set_passphrase(KEY, "okxOtherPass77"),
        ),
    ];
    Live {
        kind: "okx",
        url_env: "NOFXI_OKX_BASE_URL",
        url: mock.url(),
        credentials: vec![
            "--api-key",
            KEY,
            "--secret-key",
            SECRET,
            "--passphrase",
            PASSPHRASE,
        ],
        hold_back_entry: Box::new(move || {
            m1.inject(Route::PlaceOrder, Fault::AcceptThenDelay(HELD_BACK))
        }),
        entries: Box::new(move || m2.orders(KEY).len()),
        protections: Box::new(move || m3.algo_orders(KEY).len()),
        faults,
    }
}

pub async fn bybit() -> Live {
    use nofxi_testkit::bybit::{Fault, MockBybit, Route};
    const KEY: &str = "bybitCrashKey0123456789";
    const SECRET: &str = "bybitCrashSecret0123456789";
    let mock = Arc::new(MockBybit::start().await.unwrap());
    mock.add_account(KEY, SECRET, dec!(8765.4));
    let (m1, m2, m3) = (mock.clone(), mock.clone(), mock.clone());
    let [f1, f2, f3, f4, f5] = [(); 5].map(|_| mock.clone());
    let faults = vec![
        VenueFault::knob(
            FaultKind::Clock,
            "this machine's clock a minute ahead",
            move || f1.set_client_clock_off_ms(KEY, CLOCK_OFF_MS),
        ),
        VenueFault::in_credentials(
            FaultKind::Key,
            "a wrong secret key",
            vec![
                "--api-key",
                KEY,
                "--secret-key",
                "bybitWrongSecret0123456789",
            ],
        ),
        VenueFault::knob(
            FaultKind::Ip,
            "this IP off the key's bound IPs",
            move || f2.set_ip_whitelisted(KEY, false),
        ),
        VenueFault::knob(FaultKind::Permission, "a read-only key", move || {
            f3.set_trade_permission(KEY, false)
        }),
        VenueFault::knob(
            FaultKind::PositionMode,
            "hedge (both sides) position mode",
            move || f4.set_hedge_mode(KEY, true),
        ),
        VenueFault::knob(
            FaultKind::PositionMode,
            "a classic (not unified) account",
            move || f5.set_unified(KEY, false),
        ),
    ];
    Live {
        kind: "bybit",
        url_env: "NOFXI_BYBIT_BASE_URL",
        url: mock.url(),
        credentials: vec!["--api-key", KEY, "--secret-key", SECRET],
        hold_back_entry: Box::new(move || {
            m1.inject(Route::PlaceOrder, Fault::AcceptThenDelay(HELD_BACK))
        }),
        entries: Box::new(move || {
            m2.orders(KEY)
                .iter()
                .filter(|o| o.trigger_price.is_none())
                .count()
        }),
        protections: Box::new(move || {
            m3.orders(KEY)
                .iter()
                .filter(|o| o.trigger_price.is_some())
                .count()
        }),
        faults,
    }
}

pub async fn bitget() -> Live {
    use nofxi_testkit::bitget::{Fault, MockBitget, Route};
    const KEY: &str = "bg_1a2b3c4d5e6f708192a3b4c5d6e7f8091";
    const SECRET: &str = "6f2f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7";
    const PASSPHRASE: &str = "bitgetCrashPass42";
    let mock = Arc::new(MockBitget::start().await.unwrap());
    mock.add_account(KEY, SECRET, PASSPHRASE, dec!(8765.4));
    let (m1, m2, m3) = (mock.clone(), mock.clone(), mock.clone());
    let [f1, f2, f3, f4, f5] = [(); 5].map(|_| mock.clone());
    let faults = vec![
        VenueFault::knob(
            FaultKind::Clock,
            "this machine's clock a minute ahead",
            move || f1.set_client_clock_off_ms(KEY, CLOCK_OFF_MS),
        ),
        VenueFault::in_credentials(
            FaultKind::Key,
            "a wrong secret key",
            vec![
                "--api-key",
                KEY,
                "--secret-key",
                "0000000000000000000000000000000000000000000000000000000000000000",
                "--passphrase",
                PASSPHRASE,
            ],
        ),
        VenueFault::knob(
            FaultKind::Ip,
            "this IP off the key's whitelist",
            move || f2.set_ip_whitelisted(KEY, false),
        ),
        VenueFault::knob(
            FaultKind::Permission,
            "no futures trade permission on the key",
            move || f3.set_trade_permission(KEY, false),
        ),
        VenueFault::knob(FaultKind::PositionMode, "hedge position mode", move || {
            f4.set_hedge_mode(KEY, true)
        }),
        VenueFault::knob(
            FaultKind::Passphrase,
            "the key's passphrase changed",
            move || f5.set_passphrase(KEY, "bitgetOtherPass77"),
        ),
    ];
    Live {
        kind: "bitget",
        url_env: "NOFXI_BITGET_BASE_URL",
        url: mock.url(),
        credentials: vec![
            "--api-key",
            KEY,
            "--secret-key",
            SECRET,
            "--passphrase",
            PASSPHRASE,
        ],
        hold_back_entry: Box::new(move || {
            m1.inject(Route::PlaceOrder, Fault::AcceptThenDelay(HELD_BACK))
        }),
        entries: Box::new(move || m2.orders(KEY).len()),
        protections: Box::new(move || m3.plan_orders(KEY).len()),
        faults,
    }
}

pub async fn hyperliquid() -> Live {
    use nofxi_testkit::hyperliquid::{Fault, MockHyperliquid, Route, address_of_key};
    const AGENT_KEY: &str = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
    const WALLET: &str = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
    // A funded main wallet the agent was never approved for.
    const OTHER_WALLET: &str = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
    let mock = Arc::new(MockHyperliquid::start().await.unwrap());
    mock.add_user(WALLET, dec!(8765.4));
    mock.add_user(OTHER_WALLET, dec!(1234.5));
    let agent = address_of_key(AGENT_KEY).unwrap();
    mock.approve_agent(WALLET, &agent, "nofxi");
    let (m1, m2, m3) = (mock.clone(), mock.clone(), mock.clone());
    let [f1, f2] = [(); 2].map(|_| mock.clone());
    let faults = vec![
        VenueFault::knob(
            FaultKind::Clock,
            "this machine's clock a minute behind",
            move || f1.set_clock_skew_ms(CLOCK_OFF_MS),
        ),
        VenueFault::knob(
            FaultKind::AgentWallet,
            "the agent wallet revoked",
            move || f2.revoke_agent(&agent),
        ),
        VenueFault::in_credentials(
            FaultKind::AgentWallet,
            "another main wallet than the one that approved the agent",
            vec!["--api-key", AGENT_KEY, "--wallet-addr", OTHER_WALLET],
        ),
    ];
    Live {
        kind: "hyperliquid",
        url_env: "NOFXI_HYPERLIQUID_BASE_URL",
        url: mock.url(),
        credentials: vec!["--api-key", AGENT_KEY, "--wallet-addr", WALLET],
        hold_back_entry: Box::new(move || {
            m1.inject(Route::Exchange("order"), Fault::AcceptThenDelay(HELD_BACK))
        }),
        entries: Box::new(move || {
            m2.orders(WALLET)
                .iter()
                .filter(|o| o.trigger_px.is_none())
                .count()
        }),
        protections: Box::new(move || {
            m3.orders(WALLET)
                .iter()
                .filter(|o| o.trigger_px.is_some())
                .count()
        }),
        faults,
    }
}
