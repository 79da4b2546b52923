//! Runtime argument validation: bad calls are rejected before any network call with a message
//! the user can act on, in Chinese and English; clamped values are reported.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use nofxi_domain::Interval;
use nofxi_skills::{Lang, Library, Problem};
use serde_json::{Map, Value, json};

fn lib() -> Library {
    Library::builtin().unwrap()
}

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

#[test]
fn lowercase_symbol_is_rejected_quoting_the_pattern() {
    let lib = lib();
    let (_, f) = lib.function("get_kline").unwrap();
    let err = f
        .validate_args(&json!({"symbol": "nvda", "interval": "1h"}))
        .unwrap_err();
    assert_eq!(err.errors.len(), 1);
    let e = &err.errors[0];
    assert_eq!(e.field, "symbol");
    let pattern = r"^[A-Z0-9]+(\.[A-Z]{2})?$";
    assert_eq!(
        e.problem,
        Problem::Pattern {
            pattern: pattern.into()
        }
    );
    assert!(
        e.message.en.contains(pattern) && e.message.en.contains("nvda"),
        "{}",
        e.message.en
    );
    assert!(
        e.message.zh.contains(pattern) && e.message.zh.contains("格式"),
        "{}",
        e.message.zh
    );
}

/// The market-data skill's `get_kline` takes the intervals nofxi has, no fewer and no more:
/// its enum is `Interval`'s list, in order, so the chat, the CLI, the API and MCP take what
/// `nofxi data download` and strategies take; the order book's depth goes to 100.
#[test]
fn get_kline_s_intervals_are_the_domain_s_and_the_book_goes_to_100_levels() {
    let lib = lib();
    let (_, f) = lib.function("get_kline").unwrap();
    let listed: Vec<&str> = f.parameters["properties"]["interval"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(listed, Interval::NAMES);
    for interval in Interval::NAMES {
        assert!(
            f.validate_args(&json!({"symbol": "BTCUSDT", "interval": interval}))
                .is_ok(),
            "{interval}"
        );
    }
    let (_, book) = lib.function("get_order_book").unwrap();
    assert_eq!(book.parameters["properties"]["depth"]["maximum"], 100);
    assert!(
        book.validate_args(&json!({"symbol": "BTCUSDT", "depth": 100}))
            .is_ok()
    );
    let err = book
        .validate_args(&json!({"symbol": "BTCUSDT", "depth": 101}))
        .unwrap_err();
    assert_eq!(err.errors[0].field, "depth");
    assert!(
        err.message(Lang::En).contains("between 1 and 100"),
        "{}",
        err.message(Lang::En)
    );
}

#[test]
fn unknown_interval_is_rejected_listing_the_allowed_values() {
    let lib = lib();
    let (_, f) = lib.function("get_kline").unwrap();
    let err = f
        .validate_args(&json!({"symbol": "NVDA.US", "interval": "1.5h"}))
        .unwrap_err();
    let e = &err.errors[0];
    assert_eq!(e.field, "interval");
    assert_eq!(
        e.problem,
        Problem::NotAllowed {
            allowed: Interval::NAMES.iter().map(|s| s.to_string()).collect()
        }
    );
    assert!(
        e.message.en.contains(&Interval::names_text()),
        "{}",
        e.message.en
    );
    assert!(e.message.zh.contains("1m、3m、5m"), "{}", e.message.zh);
}

#[test]
fn limit_out_of_range_and_missing_symbol_are_both_reported() {
    let lib = lib();
    let (_, f) = lib.function("get_kline").unwrap();
    let err = f
        .validate_args(&json!({"interval": "1h", "limit": 5000}))
        .unwrap_err();
    let fields: Vec<&str> = err.errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["limit", "symbol"]);
    assert!(err.message(Lang::En).contains("between 1 and 1000"));
    assert!(err.message(Lang::Zh).contains("缺少必填参数「symbol」"));
}

#[test]
fn valid_call_gets_schema_defaults() {
    let lib = lib();
    let (_, f) = lib.function("get_kline").unwrap();
    let ok = f
        .validate_args(&json!({"symbol": "NVDA.US", "interval": "4h"}))
        .unwrap();
    assert_eq!(ok.args.get("limit"), Some(&json!(100)));
    let (_, book) = lib.function("get_order_book").unwrap();
    let err = book
        .validate_args(&json!({"symbol": "BTCUSDT", "depth": 0}))
        .unwrap_err();
    assert!(matches!(err.errors[0].problem, Problem::OutOfRange { .. }));
    let err = book
        .validate_args(&json!({"symbol": "BTCUSDT", "levels": 3}))
        .unwrap_err();
    assert!(matches!(err.errors[0].problem, Problem::Unknown { .. }));
}

#[test]
fn scan_interval_is_clamped_and_the_change_reported() {
    let lib = lib();
    let create = lib.action("trader_management", "create").unwrap();
    let ok = create
        .validate_args(&obj(json!({"name": "btc-bot", "exchange": "主账户", "model": "DeepSeek", "scan_interval_minutes": 100})))
        .unwrap();
    assert_eq!(ok.args.get("scan_interval_minutes"), Some(&json!(60)));
    assert_eq!(ok.adjustments.len(), 1);
    let adj = &ok.adjustments[0];
    assert_eq!((adj.from.clone(), adj.to.clone()), (json!(100), json!(60)));
    assert!(
        adj.message.zh.contains("3–60") && adj.message.zh.contains("60"),
        "{}",
        adj.message.zh
    );
    assert!(
        adj.message.en.contains("adjusted to 60"),
        "{}",
        adj.message.en
    );

    let ok = create
        .validate_args(&obj(
            json!({"name": "b", "exchange": "e", "model": "m", "scan_interval_minutes": "1"}),
        ))
        .unwrap();
    assert_eq!(ok.args.get("scan_interval_minutes"), Some(&json!(3)));
}

#[test]
fn leverage_100_becomes_20() {
    let lib = lib();
    let slot = lib
        .action("strategy_management", "update")
        .unwrap()
        .slot("btc_eth_max_leverage")
        .unwrap();
    let (v, adj) = slot.check_value(&json!(100)).unwrap();
    assert_eq!(v, json!(20));
    assert!(adj.unwrap().message.en.contains("1–20"));
    assert!(
        slot.check_value(&json!(2.5)).is_err(),
        "leverage is a whole number"
    );
}

#[test]
fn enum_aliases_resolve_to_canonical_values() {
    let lib = lib();
    let exch = lib
        .action("exchange_management", "create")
        .unwrap()
        .slot("exchange_type")
        .unwrap();
    assert_eq!(
        exch.check_value(&json!("币安")).unwrap().0,
        json!("binance")
    );
    assert_eq!(exch.check_value(&json!("欧易")).unwrap().0, json!("okx"));
    let model = lib
        .action("model_management", "create")
        .unwrap()
        .slot("provider")
        .unwrap();
    assert_eq!(
        model.check_value(&json!("DeepSeek")).unwrap().0,
        json!("deepseek")
    );
    assert_eq!(
        model.check_value(&json!("通义千问")).unwrap().0,
        json!("qwen")
    );
    let err = exch.check_value(&json!("火币")).unwrap_err();
    assert!(
        err.message.en.contains("paper, binance"),
        "{}",
        err.message.en
    );
}

#[test]
fn credentials_are_required_per_exchange_type() {
    let lib = lib();
    let create = lib.action("exchange_management", "create").unwrap();
    let err = create
        .validate_args(&obj(
            json!({"exchange_type": "欧易", "account_name": "主账户", "api_key": "ak-0123456789"}),
        ))
        .unwrap_err();
    let missing: Vec<&str> = err.errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(missing, ["secret_key", "passphrase"]);
    assert!(
        create
            .validate_args(&obj(
                json!({"exchange_type": "paper", "account_name": "模拟"})
            ))
            .is_ok()
    );
    // Lighter accounts are no longer made, but one made earlier still takes a new key index.
    let update = lib.action("exchange_management", "update").unwrap();
    let err = update
        .validate_args(&obj(json!({"target": "l", "api_key_index": 300})))
        .unwrap_err();
    assert!(
        matches!(err.errors[0].problem, Problem::OutOfRange { .. }),
        "{err}"
    );
}

#[test]
fn a_word_is_refused_as_a_key_and_the_refusal_does_not_repeat_it() {
    let lib = lib();
    let create = lib.action("exchange_management", "create").unwrap();
    let key = create.slot("api_key").unwrap();
    for word in ["later", "wait", "tomorrow", "my key"] {
        let err = key.check_value(&json!(word)).unwrap_err();
        assert!(!err.message.en.contains(word), "{}", err.message.en);
    }
    for shaped in ["AKb1key0123456789", "sk-abcdefgh", "0123456789abcdefABCDEF"] {
        assert!(key.check_value(&json!(shaped)).is_ok(), "{shaped}");
    }
    // A passphrase is made up by the user: any word will do, but "later" is no answer.
    let passphrase = create.slot("passphrase").unwrap();
    assert!(passphrase.check_value(&json!("sunshine")).is_ok());
    assert!(passphrase.check_value(&json!("later")).is_err());
}

#[test]
fn base_url_must_be_https_except_loopback() {
    let lib = lib();
    let slot = lib
        .action("model_management", "create")
        .unwrap()
        .slot("base_url")
        .unwrap();
    assert!(
        slot.check_value(&json!("https://api.example.com/v1"))
            .is_ok()
    );
    assert!(
        slot.check_value(&json!("http://localhost:11434/v1"))
            .is_ok()
    );
    assert!(
        slot.check_value(&json!("http://127.0.0.1:8080/v1#"))
            .is_ok()
    );
    let err = slot
        .check_value(&json!("http://api.example.com/v1"))
        .unwrap_err();
    assert!(err.message.zh.contains("https"));
}

#[test]
fn unknown_slots_and_symbol_lists_are_checked() {
    let lib = lib();
    let update = lib.action("strategy_management", "update").unwrap();
    let err = update
        .validate_args(&obj(json!({"target": "s", "levrage": 5})))
        .unwrap_err();
    assert!(
        matches!(&err.errors[0].problem, Problem::Unknown { expected } if expected.contains(&"btc_eth_max_leverage".to_string()))
    );
    let ok = update
        .validate_args(&obj(
            json!({"target": "s", "static_coins": "btcusdt, ethusdt"}),
        ))
        .unwrap();
    assert_eq!(
        ok.args.get("static_coins"),
        Some(&json!(["BTCUSDT", "ETHUSDT"]))
    );
    assert!(
        update
            .validate_args(&obj(json!({"target": "s", "static_coins": ["BTC-USDT"]})))
            .is_err()
    );
}
