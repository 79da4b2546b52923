//! Model answers as they arrive in practice, and hostile ones: the parser must take the first,
//! reject the second with a reason, and never panic.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use nofxi_trader::DecisionAction;
use nofxi_trader::decision::{DecisionParseError, parse_model_answer};
use proptest::prelude::*;
use rust_decimal_macros::dec;

#[test]
fn reasoning_then_fenced_array() {
    let raw = "<reasoning>BTC broke the 4h EMA50 with volume [20, 50] aligned.</reasoning>\n\
        ```json\n[{\"symbol\":\"btcusdt\",\"action\":\"open_long\",\"leverage\":5,\
        \"position_size_usd\":250.5,\"stop_loss\":\"61000\",\"take_profit\":67000,\
        \"confidence\":82,\"risk_usd\":20,\"reasoning\":\"trend\"},\
        {\"symbol\":\"ETHUSDT\",\"action\":\"wait\"}]\n```";
    let answer = parse_model_answer(raw).unwrap();
    assert_eq!(
        answer.reasoning,
        "BTC broke the 4h EMA50 with volume [20, 50] aligned."
    );
    assert_eq!(answer.decisions.len(), 2);
    let open = &answer.decisions[0];
    assert_eq!(open.symbol, "BTCUSDT");
    assert_eq!(open.action, DecisionAction::OpenLong);
    assert_eq!(open.leverage, Some(5));
    assert_eq!(open.position_size_usd, Some(dec!(250.5)));
    assert_eq!(open.stop_loss, Some(dec!(61000)));
    assert_eq!(answer.decisions[1].action, DecisionAction::Wait);
    assert!(answer.rejected.is_empty());
}

#[test]
fn one_bad_decision_does_not_sink_the_others() {
    let raw = r#"[{"symbol":"BTCUSDT","action":"buy_the_dip"},
                  {"symbol":"","action":"hold"},
                  {"symbol":"SOLUSDT","action":"open_short","leverage":0},
                  {"symbol":"SOLUSDT","action":"close_long","position_size_usd":"lots"},
                  {"symbol":"ETHUSDT","action":"hold","confidence":null}]"#;
    let answer = parse_model_answer(raw).unwrap();
    assert_eq!(answer.decisions.len(), 1);
    let fields: Vec<_> = answer
        .rejected
        .iter()
        .map(|r| match &r.error {
            DecisionParseError::Field { field, .. } => *field,
            other => panic!("unexpected {other}"),
        })
        .collect();
    assert_eq!(
        fields,
        ["action", "symbol", "leverage", "position_size_usd"]
    );
    assert!(answer.rejected[0].error.to_string().contains("open_long"));
}

#[test]
fn huge_values_parse_so_the_guard_can_refuse_them() {
    let raw =
        r#"[{"symbol":"BTCUSDT","action":"open_long","leverage":100,"position_size_usd":1e9}]"#;
    let decision = &parse_model_answer(raw).unwrap().decisions[0];
    assert_eq!(decision.leverage, Some(100));
    assert_eq!(decision.position_size_usd, Some(dec!(1000000000)));
}

#[test]
fn answers_without_decisions_are_typed_errors() {
    assert_eq!(parse_model_answer("  "), Err(DecisionParseError::Empty));
    assert_eq!(
        parse_model_answer("I think we should wait. [1, 2, 3]"),
        Err(DecisionParseError::NoDecisionArray)
    );
    assert_eq!(
        parse_model_answer("[{\"symbol\": \"BTC\", \"action\": "),
        Err(DecisionParseError::NoDecisionArray)
    );
}

proptest! {
    #[test]
    fn never_panics_on_any_text(raw in "\\PC{0,400}") {
        let _ = parse_model_answer(&raw);
    }

    #[test]
    fn never_panics_on_bracket_soup(raw in "[\\[\\]{}\":,a-z0-9. ]{0,200}") {
        let _ = parse_model_answer(&raw);
    }
}
