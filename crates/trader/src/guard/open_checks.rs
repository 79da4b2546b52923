//! Checks for one open decision, against the strategy and what earlier approvals used up.

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::PositionSide;
use rust_decimal::Decimal;

use super::{GuardContext, Intent, MAX_OPENS_PER_CYCLE, Refusal};
use crate::decision::{Decision, DecisionAction};

/// What the cycle may still spend: position slots, opens, margin.
pub(super) struct Budget {
    positions: usize,
    opens: usize,
    margin_used: Decimal,
    /// Symbols whose positions this plan closes: an open may follow (a reversal).
    closing: Vec<Symbol>,
}

impl Budget {
    /// Approved closes free their position slots; their margin is not counted as freed
    /// until the venue confirms, which keeps the check conservative.
    pub(super) fn new(ctx: &GuardContext<'_>, closing: Vec<Symbol>) -> Budget {
        Budget {
            positions: ctx.positions.len().saturating_sub(closing.len()),
            opens: 0,
            margin_used: ctx.account.margin_used,
            closing,
        }
    }
}

pub(super) fn check(
    symbol: &Symbol,
    decision: &Decision,
    ctx: &GuardContext<'_>,
    budget: &mut Budget,
) -> Result<(Intent, Vec<String>), Refusal> {
    let risk = ctx.risk;
    if ctx.safe_mode {
        return Err(Refusal::SafeMode);
    }
    let still_held = ctx.positions.iter().filter(|p| &p.symbol == symbol).count()
        > budget.closing.iter().filter(|s| *s == symbol).count();
    if still_held {
        return Err(Refusal::PositionExists);
    }
    if budget.opens >= MAX_OPENS_PER_CYCLE {
        return Err(Refusal::OpensPerCycle {
            max: MAX_OPENS_PER_CYCLE,
        });
    }
    if budget.positions >= risk.max_positions as usize {
        return Err(Refusal::MaxPositions {
            max: risk.max_positions,
        });
    }
    let confidence = decision.confidence.unwrap_or(0);
    if confidence < risk.min_confidence {
        return Err(Refusal::LowConfidence {
            given: confidence,
            min: risk.min_confidence,
        });
    }
    let side = if decision.action == DecisionAction::OpenLong {
        PositionSide::Long
    } else {
        PositionSide::Short
    };
    // `tradable` admitted the symbol only with a price or a position, and opens on a held
    // symbol were refused above, so the price is there; refuse rather than assume if not.
    let price = *ctx.prices.get(symbol).ok_or(Refusal::UnknownSymbol)?;

    let mut adjustments = Vec::new();
    let major = is_btc_or_eth(symbol);
    let leverage = clamp_leverage(decision.leverage, major, ctx, &mut adjustments);
    let notional = size_within_limits(decision, major, ctx)?;
    let (stop_loss, take_profit) = stops(decision, side, price, risk.min_risk_reward_ratio)?;

    let margin = notional / Decimal::from(leverage);
    let limit = ctx.account.equity * risk.max_margin_usage;
    let available = ctx.account.equity - budget.margin_used;
    if budget.margin_used + margin > limit || margin > available {
        return Err(Refusal::MarginUsage {
            needed: margin.round_dp(2),
            limit: limit.round_dp(2),
            available: available.round_dp(2),
        });
    }

    budget.positions += 1;
    budget.opens += 1;
    budget.margin_used += margin;
    let intent = Intent::Open {
        symbol: symbol.clone(),
        side,
        leverage,
        notional_usd: notional,
        reference_price: price,
        stop_loss,
        take_profit,
    };
    Ok((intent, adjustments))
}

fn is_btc_or_eth(symbol: &Symbol) -> bool {
    matches!(symbol.base(), "BTC" | "ETH")
}

/// Leverage over the limit is clamped (and said), not refused: the direction may be sound even
/// when the model's appetite is not. Missing leverage means 1×.
fn clamp_leverage(
    asked: Option<u32>,
    major: bool,
    ctx: &GuardContext<'_>,
    adjustments: &mut Vec<String>,
) -> u32 {
    let (limit, which) = if major {
        (ctx.risk.btc_eth_max_leverage, "BTC/ETH")
    } else {
        (ctx.risk.altcoin_max_leverage, "altcoin")
    };
    let asked = asked.unwrap_or(1).max(1);
    if asked > limit {
        adjustments.push(format!(
            "leverage {asked} → {limit}: the strategy's {which} limit"
        ));
        limit
    } else {
        asked
    }
}

/// Size is refused, not shrunk, when out of bounds: the model's stops and risk were sized for
/// the position it asked for.
fn size_within_limits(
    decision: &Decision,
    major: bool,
    ctx: &GuardContext<'_>,
) -> Result<Decimal, Refusal> {
    let notional = decision
        .position_size_usd
        .filter(|s| *s > Decimal::ZERO)
        .ok_or(Refusal::MissingSize)?;
    let min = if major {
        ctx.risk.btc_eth_min_position_size
    } else {
        ctx.risk.min_position_size
    };
    if notional < min {
        return Err(Refusal::BelowMinimumSize {
            given: notional,
            min,
        });
    }
    let max = (ctx.account.equity * ctx.risk.max_position_value_ratio).max(Decimal::ZERO);
    if notional > max {
        return Err(Refusal::OverMaximumValue {
            given: notional,
            max: max.round_dp(2),
        });
    }
    Ok(notional)
}

/// Stop loss and take profit must straddle the price on the right sides, and the reward must
/// be worth the risk.
fn stops(
    decision: &Decision,
    side: PositionSide,
    price: Decimal,
    min_ratio: Decimal,
) -> Result<(Decimal, Decimal), Refusal> {
    let (Some(stop_loss), Some(take_profit)) = (decision.stop_loss, decision.take_profit) else {
        return Err(Refusal::MissingStops);
    };
    let (risk, reward) = match side {
        PositionSide::Long => (price - stop_loss, take_profit - price),
        PositionSide::Short => (stop_loss - price, price - take_profit),
    };
    if risk <= Decimal::ZERO {
        return Err(Refusal::StopLossWrongSide {
            stop_loss,
            price,
            side,
        });
    }
    if reward <= Decimal::ZERO {
        return Err(Refusal::TakeProfitWrongSide {
            take_profit,
            price,
            side,
        });
    }
    let ratio = reward / risk;
    if ratio < min_ratio {
        return Err(Refusal::RiskRewardTooLow {
            ratio: ratio.round_dp(2),
            min: min_ratio,
        });
    }
    Ok((stop_loss, take_profit))
}
