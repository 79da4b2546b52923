//! Why the guard refused a decision, in words that go into the journal and, through the
//! assistant, to the user ("why didn't my trader open BTC?").

use nofxi_domain::trading::PositionSide;
use rust_decimal::Decimal;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("symbol is not among this cycle's candidates or open positions")]
    UnknownSymbol,
    #[error("a decision for this symbol came earlier in the same answer")]
    DuplicateSymbol,
    #[error("safe mode after repeated model failures: only closes and holds are allowed")]
    SafeMode,
    #[error("no open {side} position to close")]
    NothingToClose { side: PositionSide },
    #[error("a position on this symbol is already open; close it before opening another")]
    PositionExists,
    #[error("position_size_usd is missing or not positive")]
    MissingSize,
    #[error("position size {given} USDT is below the minimum {min} USDT")]
    BelowMinimumSize { given: Decimal, min: Decimal },
    #[error("position value {given} USDT is over {max} USDT (equity × max position value ratio)")]
    OverMaximumValue { given: Decimal, max: Decimal },
    #[error("margin {needed} USDT would take margin use over {limit} USDT (available {available})")]
    MarginUsage {
        needed: Decimal,
        limit: Decimal,
        available: Decimal,
    },
    #[error("stop_loss and take_profit are both required to open a position")]
    MissingStops,
    #[error("stop_loss {stop_loss} is on the wrong side of the price {price} for a {side}")]
    StopLossWrongSide {
        stop_loss: Decimal,
        price: Decimal,
        side: PositionSide,
    },
    #[error("take_profit {take_profit} is on the wrong side of the price {price} for a {side}")]
    TakeProfitWrongSide {
        take_profit: Decimal,
        price: Decimal,
        side: PositionSide,
    },
    #[error("risk/reward {ratio} is below the strategy's minimum {min}")]
    RiskRewardTooLow { ratio: Decimal, min: Decimal },
    #[error("confidence {given} is below the strategy's minimum {min}")]
    LowConfidence { given: u32, min: u32 },
    #[error("already at the strategy's maximum of {max} open positions")]
    MaxPositions { max: u32 },
    #[error("at most {max} opens per cycle")]
    OpensPerCycle { max: usize },
}
