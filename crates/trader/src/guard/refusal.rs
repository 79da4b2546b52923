//! Why the guard refused a decision, in words that go into the journal and, through the
//! assistant, to the user ("why didn't my trader open BTC?"). Amounts are written with
//! [`Plain`]: the same digits as `Display`, cheaper, since a backtest refuses thousands.
//! The journal also keeps the refusal itself (tagged by `kind`), so a diagnosis counts
//! refusals by cause and quotes their numbers without parsing the English sentence.

use nofxi_domain::plain::Plain;
use nofxi_domain::trading::PositionSide;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
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
    #[error("position size {} USDT is below the minimum {} USDT", Plain(*.given), Plain(*.min))]
    BelowMinimumSize { given: Decimal, min: Decimal },
    #[error(
        "position value {} USDT is over {} USDT (equity × max position value ratio)",
        Plain(*.given),
        Plain(*.max)
    )]
    OverMaximumValue { given: Decimal, max: Decimal },
    #[error(
        "margin {} USDT would take margin use over {} USDT (available {})",
        Plain(*.needed),
        Plain(*.limit),
        Plain(*.available)
    )]
    MarginUsage {
        needed: Decimal,
        limit: Decimal,
        available: Decimal,
    },
    #[error("stop_loss and take_profit are both required to open a position")]
    MissingStops,
    #[error(
        "stop_loss {} is on the wrong side of the price {} for a {side}",
        Plain(*.stop_loss),
        Plain(*.price)
    )]
    StopLossWrongSide {
        stop_loss: Decimal,
        price: Decimal,
        side: PositionSide,
    },
    #[error(
        "take_profit {} is on the wrong side of the price {} for a {side}",
        Plain(*.take_profit),
        Plain(*.price)
    )]
    TakeProfitWrongSide {
        take_profit: Decimal,
        price: Decimal,
        side: PositionSide,
    },
    #[error("risk/reward {} is below the strategy's minimum {}", Plain(*.ratio), Plain(*.min))]
    RiskRewardTooLow { ratio: Decimal, min: Decimal },
    #[error("confidence {given} is below the strategy's minimum {min}")]
    LowConfidence { given: u32, min: u32 },
    #[error("already at the strategy's maximum of {max} open positions")]
    MaxPositions { max: u32 },
    #[error("at most {max} opens per cycle")]
    OpensPerCycle { max: usize },
}
