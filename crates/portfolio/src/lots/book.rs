//! One holding's open lots, and the bookings that change them.
//!
//! A lot's `cost` is its whole cost basis in money (amount plus buying fees), not a unit cost:
//! splits then change only the quantity, and consuming part of a lot takes a share of the cost
//! rounded to cents while the remainder is a subtraction, so the parts always add back to the
//! whole. Under the average method the book holds one pooled lot, which is what "average cost"
//! means: every unit costs the same, so there is nothing to choose between.

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::order::consumption_order;
use crate::domain::money::{money, unit_cost};
use crate::domain::{CostMethod, LotPick};
use crate::error::{FieldError, PortfolioError};

/// Units bought together, with what they cost in total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lot {
    /// `L1`, `L2`… in the order lots were opened in this holding; specific-lot sales name these.
    pub id: String,
    pub opened: Date,
    pub quantity: Decimal,
    /// Total cost basis in the instrument's currency, at money precision.
    pub cost: Decimal,
    /// Dividends received on these units so far: A-share dividend tax is charged on them at
    /// sale, by how long the lot was held (see [`super::dividend_tax`]).
    #[serde(default)]
    pub dividends: Decimal,
}

impl Lot {
    pub fn unit_cost(&self) -> Decimal {
        unit_cost(self.cost, self.quantity)
    }
}

/// The part of a lot a sale or transfer took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Consumed {
    pub lot: String,
    pub opened: Date,
    pub quantity: Decimal,
    pub cost: Decimal,
    /// The part of the lot's dividends that went with these units.
    #[serde(default)]
    pub dividends: Decimal,
}

/// What one sale realized and which lots it consumed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sale {
    pub date: Date,
    pub quantity: Decimal,
    /// Net proceeds: quantity × price less the sale's fees.
    pub proceeds: Decimal,
    pub cost: Decimal,
    pub realized: Decimal,
    pub consumed: Vec<Consumed>,
}

/// How a dividend was booked: first against the cost of held lots, the rest realized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DividendBooking {
    pub cost_reduced: Decimal,
    pub realized: Decimal,
}

/// The open lots of one holding under one cost method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LotBook {
    method: CostMethod,
    lots: Vec<Lot>,
    opened_count: usize,
}

impl LotBook {
    pub fn new(method: CostMethod) -> Self {
        Self {
            method,
            lots: Vec::new(),
            opened_count: 0,
        }
    }

    pub fn method(&self) -> CostMethod {
        self.method
    }

    /// Open lots, oldest first.
    pub fn lots(&self) -> &[Lot] {
        &self.lots
    }

    pub fn quantity(&self) -> Decimal {
        self.lots.iter().map(|l| l.quantity).sum()
    }

    pub fn cost(&self) -> Decimal {
        self.lots.iter().map(|l| l.cost).sum()
    }

    /// Books a purchase (or a transfer in) of `quantity` units costing `cost` in all, fees
    /// included. Returns the id of the lot that now holds them.
    pub fn open(&mut self, date: Date, quantity: Decimal, cost: Decimal) -> String {
        if self.method == CostMethod::Average
            && let Some(pool) = self.lots.first_mut()
        {
            // The pool keeps the first purchase's date and id: it is still that holding.
            pool.quantity += quantity;
            pool.cost += cost;
            return pool.id.clone();
        }
        self.opened_count += 1;
        let id = format!("L{}", self.opened_count);
        self.lots.push(Lot {
            id: id.clone(),
            opened: date,
            quantity,
            cost,
            dividends: Decimal::ZERO,
        });
        id
    }

    /// Books a sale of `quantity` units for `proceeds` net of fees. `picks` names the lots
    /// under the specific method and must be empty under the others.
    pub fn sell(
        &mut self,
        date: Date,
        quantity: Decimal,
        proceeds: Decimal,
        picks: &[LotPick],
    ) -> Result<Sale, PortfolioError> {
        let consumed = self.take(quantity, picks)?;
        let cost: Decimal = consumed.iter().map(|c| c.cost).sum();
        Ok(Sale {
            date,
            quantity,
            proceeds,
            cost,
            realized: proceeds - cost,
            consumed,
        })
    }

    /// Removes `quantity` units with their cost and realizes nothing (a transfer out).
    pub fn transfer_out(
        &mut self,
        quantity: Decimal,
        picks: &[LotPick],
    ) -> Result<Vec<Consumed>, PortfolioError> {
        self.take(quantity, picks)
    }

    /// A split of `ratio` new units per old unit: quantities change, costs do not.
    pub fn split(&mut self, ratio: Decimal) -> Result<(), PortfolioError> {
        if ratio <= Decimal::ZERO {
            return Err(PortfolioError::one(
                "quantity",
                format!("split ratio {ratio} is not above 0"),
                "give new units per old unit, e.g. 2 for 2-for-1, 0.1 for 1-for-10",
            ));
        }
        for lot in &mut self.lots {
            lot.quantity *= ratio;
        }
        Ok(())
    }

    /// A dividend of `net` cash (after tax withheld). Each lot's share is in proportion to its
    /// units; a share lowers that lot's cost down to 0, and what is left over is realized. The
    /// last lot takes the rounding remainder so the shares add up to `net` exactly. With no
    /// units held (paid after the holding was sold), all of it is realized.
    pub fn dividend(&mut self, net: Decimal) -> DividendBooking {
        let held = self.quantity();
        if held.is_zero() {
            return DividendBooking {
                cost_reduced: Decimal::ZERO,
                realized: net,
            };
        }
        let mut left = net;
        let mut booking = DividendBooking {
            cost_reduced: Decimal::ZERO,
            realized: Decimal::ZERO,
        };
        let last = self.lots.len().saturating_sub(1);
        for (i, lot) in self.lots.iter_mut().enumerate() {
            let share = if i == last {
                left
            } else {
                money(net * lot.quantity / held)
            };
            left -= share;
            lot.dividends += share;
            let reduced = share.min(lot.cost);
            lot.cost -= reduced;
            booking.cost_reduced += reduced;
            booking.realized += share - reduced;
        }
        booking
    }

    fn take(
        &mut self,
        quantity: Decimal,
        picks: &[LotPick],
    ) -> Result<Vec<Consumed>, PortfolioError> {
        let held = self.quantity();
        if quantity > held {
            return Err(PortfolioError::one(
                "quantity",
                format!("{quantity} units taken but only {held} held at that date"),
                "check the quantity, or record the missing buy or transfer in before it",
            ));
        }
        let plan = self.plan(quantity, picks)?;
        let mut consumed = Vec::with_capacity(plan.len());
        for (index, units) in plan {
            let lot = &mut self.lots[index];
            // The whole lot takes its whole cost; a part takes its share rounded to cents and
            // the lot keeps the exact rest.
            let (cost, dividends) = if units == lot.quantity {
                (lot.cost, lot.dividends)
            } else {
                (
                    money(lot.cost * units / lot.quantity),
                    money(lot.dividends * units / lot.quantity),
                )
            };
            lot.quantity -= units;
            lot.cost -= cost;
            lot.dividends -= dividends;
            consumed.push(Consumed {
                lot: lot.id.clone(),
                opened: lot.opened,
                quantity: units,
                cost,
                dividends,
            });
        }
        self.lots.retain(|l| !l.quantity.is_zero());
        Ok(consumed)
    }

    /// Which lots give how many units, without changing anything yet: a refused sale leaves
    /// the book as it was.
    fn plan(
        &self,
        quantity: Decimal,
        picks: &[LotPick],
    ) -> Result<Vec<(usize, Decimal)>, PortfolioError> {
        if self.method != CostMethod::Specific {
            if !picks.is_empty() {
                return Err(PortfolioError::one(
                    "lots",
                    format!("lots are named but the portfolio books by {}", self.method),
                    "remove the lot list, or switch the portfolio to the specific method",
                ));
            }
            let mut left = quantity;
            let mut plan = Vec::new();
            for index in consumption_order(self.method, &self.lots) {
                if left.is_zero() {
                    break;
                }
                let units = left.min(self.lots[index].quantity);
                plan.push((index, units));
                left -= units;
            }
            return Ok(plan);
        }
        if picks.is_empty() {
            return Err(PortfolioError::one(
                "lots",
                "a specific-lot sale names no lots",
                "list the lots sold (e.g. L1:100;L3:50), or choose another cost method",
            ));
        }
        let mut problems = Vec::new();
        let mut plan: Vec<(usize, Decimal)> = Vec::new();
        for pick in picks {
            let Some(index) = self.lots.iter().position(|l| l.id == pick.lot) else {
                let open: Vec<_> = self.lots.iter().map(|l| l.id.as_str()).collect();
                problems.push(FieldError::new(
                    "lots",
                    format!("lot {} is not open", pick.lot),
                    format!("pick from the open lots: {}", open.join(", ")),
                ));
                continue;
            };
            let already: Decimal = plan
                .iter()
                .filter(|(i, _)| *i == index)
                .map(|(_, q)| *q)
                .sum();
            if pick.quantity <= Decimal::ZERO || already + pick.quantity > self.lots[index].quantity
            {
                problems.push(FieldError::new(
                    "lots",
                    format!(
                        "{} units from lot {} which has {}",
                        pick.quantity, pick.lot, self.lots[index].quantity
                    ),
                    "take at most what the lot holds, and more than 0",
                ));
                continue;
            }
            plan.push((index, pick.quantity));
        }
        let picked: Decimal = picks.iter().map(|p| p.quantity).sum();
        if problems.is_empty() && picked != quantity {
            problems.push(FieldError::new(
                "lots",
                format!("the lots named add up to {picked}, the sale is {quantity}"),
                "make the lot quantities add up to the quantity sold",
            ));
        }
        PortfolioError::check(problems)?;
        Ok(plan)
    }
}

#[cfg(test)]
mod tests;
