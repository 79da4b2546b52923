//! The equity of a run of quiet bars in integer arithmetic, to rust_decimal's last digit.
//!
//! During a run the positions stay as they are and only their marks move, so each bar's
//! equity is the same few operations — `close - entry`, times the quantity, summed, plus the
//! wallet — on new closes. As `Decimal` operations they rescale 96-bit mantissas on every bar;
//! as `i128` mantissa and scale they are a few multiplications. rust_decimal computes these
//! exactly whenever the result fits its 96 bits at a scale of at most 28: a sum or difference
//! at the larger scale, a product at the sum of the scales. Those cases are done here. Any
//! other (a result that would round, or a zero operand, whose sign and scale follow rules of
//! their own) answers `None`, and the caller takes the `Decimal` path.

use nofxi_domain::trading::PositionSide;
use rust_decimal::Decimal;

use super::state::PaperState;

/// rust_decimal's mantissa is 96 bits; its largest scale 28.
const MANTISSA_LIMIT: u128 = 1 << 96;
const MAX_SCALE: u32 = 28;

/// Powers of ten that fit a `u64`: rescaling by more leaves the fast path.
const POWERS_OF_TEN: [u64; 20] = {
    let mut p = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        p[i] = p[i - 1] * 10;
        i += 1;
    }
    p
};

/// A decimal as sign, magnitude and scale: `±m / 10^s`, with `m` below 2^96.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Exact {
    negative: bool,
    m: u128,
    s: u32,
}

/// `a × b`: one 64-by-64-bit multiplication when both fit 64 bits (prices, sizes), which
/// cannot overflow 128; a checked one when not (a large wallet at many places).
fn wide_mul(a: u128, b: u128) -> Option<u128> {
    match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => Some(u128::from(a) * u128::from(b)),
        _ => a.checked_mul(b),
    }
}

impl Exact {
    fn of(d: Decimal) -> Exact {
        Exact {
            negative: d.is_sign_negative(),
            m: d.mantissa().unsigned_abs(),
            s: d.scale(),
        }
    }

    /// The magnitude at the larger `scale`.
    fn at_scale(self, scale: u32) -> Option<u128> {
        let p = POWERS_OF_TEN.get(usize::try_from(scale - self.s).ok()?)?;
        wide_mul(self.m, u128::from(*p))
    }

    fn checked(negative: bool, m: u128, s: u32) -> Option<Exact> {
        (m != 0 && m < MANTISSA_LIMIT && s <= MAX_SCALE).then_some(Exact { negative, m, s })
    }

    fn add(self, other: Exact) -> Option<Exact> {
        if self.m == 0 || other.m == 0 {
            return None;
        }
        let s = self.s.max(other.s);
        let (a, b) = (self.at_scale(s)?, other.at_scale(s)?);
        if self.negative == other.negative {
            Exact::checked(self.negative, a.checked_add(b)?, s)
        } else if a >= b {
            Exact::checked(self.negative, a - b, s)
        } else {
            Exact::checked(other.negative, b - a, s)
        }
    }

    fn sub(self, other: Exact) -> Option<Exact> {
        self.add(Exact {
            negative: !other.negative,
            ..other
        })
    }

    fn mul(self, other: Exact) -> Option<Exact> {
        if self.m == 0 || other.m == 0 {
            return None;
        }
        let m = wide_mul(self.m, other.m)?;
        Exact::checked(self.negative != other.negative, m, self.s + other.s)
    }

    fn decimal(self) -> Decimal {
        // `checked` keeps the magnitude under 2^96: the three words hold it.
        let word = |shift: u32| (self.m >> shift) as u32;
        Decimal::from_parts(word(0), word(32), word(64), self.negative, self.s)
    }
}

/// One position of the run: its side, entry and quantity.
#[derive(Debug, Clone, Copy)]
struct Held {
    long: bool,
    entry: Exact,
    quantity: Exact,
}

/// [`PaperState::equity_at`] for positions that stay as they are: the same sum, in the same
/// order, computed in integers where that gives the same digits.
#[derive(Debug, Clone)]
pub(super) struct RunEquity {
    wallet: Exact,
    held: Vec<Held>,
}

impl RunEquity {
    pub(super) fn of(st: &PaperState) -> RunEquity {
        RunEquity {
            wallet: Exact::of(st.wallet_balance),
            held: st
                .positions
                .iter()
                .map(|p| Held {
                    long: p.side == PositionSide::Long,
                    entry: Exact::of(p.entry_price),
                    quantity: Exact::of(p.quantity),
                })
                .collect(),
        }
    }

    /// The equity with the `i`th position marked at `mark(i)`; `None` where only `Decimal`
    /// arithmetic can say which digits rust_decimal gives.
    pub(super) fn at(&self, mark: impl Fn(usize) -> Decimal) -> Option<Decimal> {
        // The sum starts from zero, and zero plus a number is that number.
        let mut unrealized: Option<Exact> = None;
        for (i, held) in self.held.iter().enumerate() {
            let mark = Exact::of(mark(i));
            let move_ = if held.long {
                mark.sub(held.entry)?
            } else {
                held.entry.sub(mark)?
            };
            let pnl = move_.mul(held.quantity)?;
            unrealized = Some(match unrealized {
                None => pnl,
                Some(sum) => sum.add(pnl)?,
            });
        }
        match unrealized {
            None => None,
            Some(sum) => Some(self.wallet.add(sum)?.decimal()),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use nofxi_domain::market::Symbol;
    use nofxi_domain::trading::MarginMode;

    use super::*;
    use crate::paper::state::PaperPosition;

    /// xorshift: the same cases on every run.
    struct Cases(u64);

    impl Cases {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// Prices, quantities and balances as a paper account holds them: up to 14 digits
        /// at 0 to 14 places, zero now and then.
        fn decimal(&mut self) -> Decimal {
            let scale = (self.next() % 15) as u32;
            let digits = 1 + (self.next() % 14) as u32;
            let m = match self.next() % 10 {
                0 => 0,
                _ => (self.next() % 10u64.pow(digits)) as i64,
            };
            Decimal::new(m, scale)
        }

        /// A wallet after thousands of fees: up to 27 digits at up to 20 places.
        fn wide(&mut self) -> Decimal {
            let m = u128::from(self.next()) << 26 | u128::from(self.next() >> 38);
            let m = m % 10u128.pow(1 + (self.next() % 27) as u32);
            Decimal::from_i128_with_scale(m as i128, (self.next() % 21) as u32)
        }
    }

    /// Whenever the integer path answers, its answer is `equity_at`'s to the digit (the same
    /// mantissa and scale), and it answers for nearly all of the cases a backtest meets.
    #[test]
    fn integers_give_rust_decimals_digits() {
        let mut cases = Cases(0x9E37_79B9_7F4A_7C15);
        let mut st = PaperState::new(&crate::paper::PaperConfig::default());
        let symbol = Symbol::parse("BTCUSDT").unwrap();
        let (mut answered, mut wide_answered) = (0, 0);
        for round in 0..40_000 {
            let wide = round % 4 == 0;
            st.wallet_balance = if wide { cases.wide() } else { cases.decimal() };
            st.positions = (0..1 + round % 3)
                .map(|k| PaperPosition {
                    symbol: symbol.clone(),
                    side: if cases.next().is_multiple_of(2) {
                        PositionSide::Long
                    } else {
                        PositionSide::Short
                    },
                    quantity: cases.decimal(),
                    entry_price: cases.decimal(),
                    leverage: 3,
                    margin_mode: MarginMode::Cross,
                    margin: Decimal::from(k),
                })
                .collect();
            let marks: Vec<Decimal> = st
                .positions
                .iter()
                .map(|p| {
                    if cases.next().is_multiple_of(5) {
                        p.entry_price
                    } else {
                        cases.decimal()
                    }
                })
                .collect();
            let run = RunEquity::of(&st);
            let expected = st.equity_at(|i, _| marks[i]);
            if let Some(got) = run.at(|i| marks[i]) {
                answered += 1;
                wide_answered += usize::from(wide && st.wallet_balance.mantissa() > 1 << 64);
                assert_eq!(
                    got.serialize(),
                    expected.serialize(),
                    "{got} vs {expected} on {:?} at {marks:?}",
                    st.positions
                );
            }
        }
        // The rest are zeros, products past 28 places and sums past 96 bits, which the
        // `Decimal` path takes; a backtest's prices and sizes stay well inside.
        assert!(answered > 2_000, "{answered} answered");
        assert!(wide_answered > 200, "{wide_answered} wide wallets answered");
    }
}
