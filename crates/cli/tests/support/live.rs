//! The live venues' mock servers seen one way, for tests that do the same thing on each:
//! how to reach the mock, the account to add on it, how to hold an entry's answer back, and
//! how many entry and protective orders it holds.

use std::sync::Arc;
use std::time::Duration;

use rust_decimal_macros::dec;

/// Long enough that an engine is killed while the venue still holds its answer back.
pub const HELD_BACK: Duration = Duration::from_secs(60);

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
    }
}

pub async fn bybit() -> Live {
    use nofxi_testkit::bybit::{Fault, MockBybit, Route};
    const KEY: &str = "bybitCrashKey0123456789";
    const SECRET: &str = "bybitCrashSecret0123456789";
    let mock = Arc::new(MockBybit::start().await.unwrap());
    mock.add_account(KEY, SECRET, dec!(8765.4));
    let (m1, m2, m3) = (mock.clone(), mock.clone(), mock.clone());
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
    }
}

pub async fn hyperliquid() -> Live {
    use nofxi_testkit::hyperliquid::{Fault, MockHyperliquid, Route, address_of_key};
    const AGENT_KEY: &str = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
    const WALLET: &str = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
    let mock = Arc::new(MockHyperliquid::start().await.unwrap());
    mock.add_user(WALLET, dec!(8765.4));
    mock.approve_agent(WALLET, &address_of_key(AGENT_KEY).unwrap(), "nofxi");
    let (m1, m2, m3) = (mock.clone(), mock.clone(), mock.clone());
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
    }
}
