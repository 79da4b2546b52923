//! Hostile decisions never reach a venue unguarded (issue 5's risk-guard suite).
//! Every case states the expected verdict, computed by hand from the strategy defaults:
//! equity 1,000 USDT, BTC at 60,000, SOL at 150, BTC/ETH leverage ≤ 10, min sizes 60 / 12,
//! value ≤ 5 × equity, R:R ≥ 3, confidence ≥ 78, ≤ 2 positions.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::collections::BTreeMap;

use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::RiskControl;
use nofxi_domain::trading::{AccountSnapshot, MarginMode, Position, PositionSide};
use nofxi_trader::decision::parse_model_answer;
use nofxi_trader::guard::{GuardContext, Intent, Refusal, guard};
use nofxi_trader::{Decision, DecisionAction};
use proptest::prelude::*;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn sym(s: &str) -> Symbol {
    Symbol::parse(s).unwrap()
}

fn account(equity: Decimal, margin_used: Decimal) -> AccountSnapshot {
    AccountSnapshot {
        asset: "USDT".into(),
        wallet_balance: equity,
        unrealized_pnl: Decimal::ZERO,
        equity,
        available: equity - margin_used,
        margin_used,
    }
}

fn prices() -> BTreeMap<Symbol, Decimal> {
    BTreeMap::from([
        (sym("BTCUSDT"), dec!(60000)),
        (sym("ETHUSDT"), dec!(3000)),
        (sym("SOLUSDT"), dec!(150)),
        (sym("DOGEUSDT"), dec!(0.2)),
    ])
}

fn position(symbol: &str, side: PositionSide) -> Position {
    Position {
        symbol: sym(symbol),
        side,
        quantity: dec!(1),
        entry_price: dec!(150),
        mark_price: dec!(150),
        leverage: 5,
        margin_mode: MarginMode::Cross,
        margin: dec!(30),
        unrealized_pnl: Decimal::ZERO,
        liquidation_price: None,
    }
}

/// A sound BTC long: 300 USDT at 5×, SL 59,000 (risk 1,000), TP 63,000 (reward 3,000): R:R 3.
fn btc_long() -> Decision {
    Decision {
        symbol: "BTCUSDT".into(),
        action: DecisionAction::OpenLong,
        leverage: Some(5),
        position_size_usd: Some(dec!(300)),
        stop_loss: Some(dec!(59000)),
        take_profit: Some(dec!(63000)),
        confidence: Some(80),
        risk_usd: Some(dec!(5)),
        reasoning: String::new(),
    }
}

fn run(
    decisions: Vec<Decision>,
    positions: &[Position],
    safe_mode: bool,
) -> nofxi_trader::GuardedPlan {
    let risk = RiskControl::default();
    let account = account(dec!(1000), Decimal::ZERO);
    let prices = prices();
    guard(
        decisions,
        &GuardContext {
            risk: &risk,
            account: &account,
            positions,
            prices: &prices,
            safe_mode,
        },
    )
}

fn refusal_of(decision: Decision) -> Refusal {
    let plan = run(vec![decision], &[], false);
    assert!(plan.approved.is_empty(), "approved: {:?}", plan.approved);
    plan.refused.into_iter().next().unwrap().1
}

#[test]
fn a_sound_decision_passes_unchanged() {
    let plan = run(vec![btc_long()], &[], false);
    assert!(plan.refused.is_empty(), "{:?}", plan.refused);
    let approved = &plan.approved[0];
    assert!(approved.adjustments.is_empty());
    assert_eq!(
        approved.intent,
        Intent::Open {
            symbol: sym("BTCUSDT"),
            side: PositionSide::Long,
            leverage: 5,
            notional_usd: dec!(300),
            reference_price: dec!(60000),
            stop_loss: dec!(59000),
            take_profit: dec!(63000),
        }
    );
}

#[test]
fn leverage_100_is_clamped_to_the_limit_and_said() {
    let plan = run(
        vec![Decision {
            leverage: Some(100),
            ..btc_long()
        }],
        &[],
        false,
    );
    let approved = &plan.approved[0];
    assert!(matches!(approved.intent, Intent::Open { leverage: 10, .. }));
    assert_eq!(
        approved.adjustments,
        ["leverage 100 → 10: the strategy's BTC/ETH limit"]
    );
}

#[test]
fn size_1e9_is_refused_by_the_value_ratio() {
    let refusal = refusal_of(Decision {
        position_size_usd: Some(dec!(1e9)),
        ..btc_long()
    });
    assert_eq!(
        refusal,
        Refusal::OverMaximumValue {
            given: dec!(1e9),
            max: dec!(5000)
        }
    );
}

#[test]
fn size_below_the_btc_minimum_is_refused() {
    let refusal = refusal_of(Decision {
        position_size_usd: Some(dec!(59.99)),
        ..btc_long()
    });
    assert_eq!(
        refusal,
        Refusal::BelowMinimumSize {
            given: dec!(59.99),
            min: dec!(60)
        }
    );
}

#[test]
fn stops_on_the_wrong_side_are_refused() {
    let sl_above = refusal_of(Decision {
        stop_loss: Some(dec!(61000)),
        ..btc_long()
    });
    assert!(matches!(sl_above, Refusal::StopLossWrongSide { .. }));
    let tp_below = refusal_of(Decision {
        take_profit: Some(dec!(59500)),
        ..btc_long()
    });
    assert!(matches!(tp_below, Refusal::TakeProfitWrongSide { .. }));
    // A short mirrors it: its stop loss belongs above the price.
    let short = Decision {
        action: DecisionAction::OpenShort,
        ..btc_long()
    };
    assert!(matches!(
        refusal_of(short),
        Refusal::StopLossWrongSide { .. }
    ));
    assert_eq!(
        refusal_of(Decision {
            stop_loss: None,
            ..btc_long()
        }),
        Refusal::MissingStops
    );
}

#[test]
fn poor_risk_reward_and_low_confidence_are_refused() {
    // Reward 2,000 over risk 1,000 = 2 < 3.
    let rr = refusal_of(Decision {
        take_profit: Some(dec!(62000)),
        ..btc_long()
    });
    assert_eq!(
        rr,
        Refusal::RiskRewardTooLow {
            ratio: dec!(2),
            min: dec!(3)
        }
    );
    let low = refusal_of(Decision {
        confidence: Some(77),
        ..btc_long()
    });
    assert_eq!(low, Refusal::LowConfidence { given: 77, min: 78 });
    assert!(matches!(
        refusal_of(Decision {
            confidence: None,
            ..btc_long()
        }),
        Refusal::LowConfidence { .. }
    ));
}

#[test]
fn unknown_symbols_are_refused_not_guessed() {
    assert_eq!(
        refusal_of(Decision {
            symbol: "NOTACOINUSDT".into(),
            ..btc_long()
        }),
        Refusal::UnknownSymbol
    );
    assert_eq!(
        refusal_of(Decision {
            symbol: "💥".into(),
            ..btc_long()
        }),
        Refusal::UnknownSymbol
    );
}

#[test]
fn safe_mode_allows_closes_but_no_opens() {
    let held = [position("SOLUSDT", PositionSide::Long)];
    let close = Decision {
        symbol: "SOLUSDT".into(),
        action: DecisionAction::CloseLong,
        ..btc_long()
    };
    let plan = run(vec![btc_long(), close], &held, true);
    assert_eq!(plan.refused[0].1, Refusal::SafeMode);
    assert!(
        matches!(plan.approved[0].intent, Intent::Close { quantity, .. } if quantity == dec!(1))
    );
}

#[test]
fn closes_come_first_and_free_a_position_slot() {
    let held = [
        position("SOLUSDT", PositionSide::Long),
        position("DOGEUSDT", PositionSide::Short),
    ];
    let close = Decision {
        symbol: "SOLUSDT".into(),
        action: DecisionAction::CloseLong,
        ..btc_long()
    };
    let plan = run(vec![btc_long(), close], &held, false);
    assert!(plan.refused.is_empty(), "{:?}", plan.refused);
    assert!(matches!(plan.approved[0].intent, Intent::Close { .. }));
    assert!(matches!(plan.approved[1].intent, Intent::Open { .. }));
}

#[test]
fn position_and_per_cycle_limits_hold() {
    let eth = Decision {
        symbol: "ETHUSDT".into(),
        stop_loss: Some(dec!(2900)),
        take_profit: Some(dec!(3300)),
        ..btc_long()
    };
    let sol = Decision {
        symbol: "SOLUSDT".into(),
        stop_loss: Some(dec!(140)),
        take_profit: Some(dec!(180)),
        ..btc_long()
    };
    let plan = run(vec![btc_long(), eth, sol], &[], false);
    assert_eq!(plan.approved.len(), 2);
    // The strategy's max_positions (2) and the per-cycle cap (2) agree here; either refusal is right.
    assert!(matches!(
        plan.refused[0].1,
        Refusal::MaxPositions { max: 2 } | Refusal::OpensPerCycle { max: 2 }
    ));

    let held = [
        position("DOGEUSDT", PositionSide::Short),
        position("ETHUSDT", PositionSide::Long),
    ];
    assert_eq!(
        run(vec![btc_long()], &held, false).refused[0].1,
        Refusal::MaxPositions { max: 2 }
    );
}

#[test]
fn margin_budget_spans_the_cycle() {
    // 1,000 equity, 1× leverage: the first 900 USDT open uses 900 margin; the second can't fit.
    let big = |symbol: &str, sl, tp| Decision {
        symbol: symbol.into(),
        leverage: Some(1),
        position_size_usd: Some(dec!(900)),
        stop_loss: Some(sl),
        take_profit: Some(tp),
        ..btc_long()
    };
    let plan = run(
        vec![
            big("BTCUSDT", dec!(59000), dec!(63000)),
            big("ETHUSDT", dec!(2900), dec!(3300)),
        ],
        &[],
        false,
    );
    assert_eq!(plan.approved.len(), 1);
    assert!(matches!(plan.refused[0].1, Refusal::MarginUsage { .. }));
}

#[test]
fn a_close_and_an_open_on_one_symbol_are_a_reversal() {
    let held = [position("SOLUSDT", PositionSide::Short)];
    let close = Decision {
        symbol: "SOLUSDT".into(),
        action: DecisionAction::CloseShort,
        ..btc_long()
    };
    let open = Decision {
        symbol: "SOLUSDT".into(),
        stop_loss: Some(dec!(140)),
        take_profit: Some(dec!(180)),
        ..btc_long()
    };
    // Order in the answer does not matter: the close runs first.
    let plan = run(vec![open, close], &held, false);
    assert!(plan.refused.is_empty(), "{:?}", plan.refused);
    assert!(matches!(plan.approved[0].intent, Intent::Close { .. }));
    assert!(matches!(
        plan.approved[1].intent,
        Intent::Open {
            side: PositionSide::Long,
            ..
        }
    ));
}

#[test]
fn nothing_to_close_and_duplicates_are_refused() {
    let close = Decision {
        action: DecisionAction::CloseShort,
        ..btc_long()
    };
    assert_eq!(
        refusal_of(close),
        Refusal::NothingToClose {
            side: PositionSide::Short
        }
    );
    let plan = run(vec![btc_long(), btc_long()], &[], false);
    assert_eq!(plan.refused[0].1, Refusal::DuplicateSymbol);
    let held = [position("SOLUSDT", PositionSide::Long)];
    let again = Decision {
        symbol: "SOLUSDT".into(),
        stop_loss: Some(dec!(140)),
        take_profit: Some(dec!(180)),
        ..btc_long()
    };
    assert_eq!(
        run(vec![again], &held, false).refused[0].1,
        Refusal::PositionExists
    );
}

#[test]
fn malformed_json_yields_no_decisions_to_guard() {
    assert!(parse_model_answer("[{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\"").is_err());
}

fn any_decision() -> impl Strategy<Value = Decision> {
    (
        prop::sample::select(vec![
            "BTCUSDT", "ETHUSDT", "SOLUSDT", "DOGEUSDT", "XYZUSDT", "", "btc",
        ]),
        prop::sample::select(DecisionAction::ALL.to_vec()),
        prop::option::of(0u32..200),
        prop::option::of(-1_000_000i64..1_000_000_000),
        prop::option::of(-100_000i64..200_000),
        prop::option::of(-100_000i64..200_000),
        prop::option::of(0u32..=100),
    )
        .prop_map(
            |(symbol, action, leverage, size, sl, tp, confidence)| Decision {
                symbol: symbol.into(),
                action,
                leverage,
                position_size_usd: size.map(Decimal::from),
                stop_loss: sl.map(Decimal::from),
                take_profit: tp.map(Decimal::from),
                confidence,
                risk_usd: None,
                reasoning: String::new(),
            },
        )
}

proptest! {
    /// Whatever a decider says, every approved open respects every limit.
    #[test]
    fn approved_opens_always_respect_the_strategy(decisions in prop::collection::vec(any_decision(), 0..8)) {
        let risk = RiskControl::default();
        let account = account(dec!(1000), Decimal::ZERO);
        let prices = prices();
        let plan = guard(decisions, &GuardContext { risk: &risk, account: &account, positions: &[], prices: &prices, safe_mode: false });
        let mut margin = Decimal::ZERO;
        let opens: Vec<_> = plan.approved.iter().filter_map(|a| match &a.intent {
            Intent::Open { symbol, side, leverage, notional_usd, reference_price, stop_loss, take_profit } =>
                Some((symbol, *side, *leverage, *notional_usd, *reference_price, *stop_loss, *take_profit)),
            Intent::Close { .. } => None,
        }).collect();
        prop_assert!(opens.len() <= 2);
        for (symbol, side, leverage, notional, price, sl, tp) in opens {
            prop_assert!((1..=10).contains(&leverage));
            prop_assert!(notional <= dec!(5000));
            let min = if matches!(symbol.base(), "BTC" | "ETH") { dec!(60) } else { dec!(12) };
            prop_assert!(notional >= min);
            match side {
                PositionSide::Long => prop_assert!(sl < price && price < tp),
                PositionSide::Short => prop_assert!(tp < price && price < sl),
            }
            margin += notional / Decimal::from(leverage);
        }
        prop_assert!(margin <= dec!(1000));
    }
}
