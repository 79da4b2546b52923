//! A backtest's equity curve, one point per cycle, kept as runs.
//!
//! A million cycles as `(time, equity)` pairs is 32 MB the process must fault in and zero
//! before it can write them, and a tenth of a backtest's time went there. But the points
//! are regular: cycles are one interval apart, so a run of them needs its first time and step
//! only, and a flat account (no position) repeats its equity digit for digit, so a run of
//! those needs its value once. What is left to store per point is the equity of the cycles
//! that hold a position.
//!
//! Runs are made by [`EquityCurve::push`] alone, so the same points always give the same
//! runs and curves compare point for point with `==`.

use rust_decimal::Decimal;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct EquityCurve {
    runs: Vec<Run>,
    /// The values of the [`Values::Each`] runs, in order.
    values: Vec<Decimal>,
    len: usize,
}

/// `len` points, `step_ms` apart from `first_ms`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Run {
    first_ms: i64,
    /// Zero while the run has one point: the second point sets it.
    step_ms: i64,
    len: usize,
    values: Values,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Values {
    /// Every point has this value (the same digits, scale included).
    Same(Decimal),
    /// Point `i` has `values[start + i]`.
    Each { start: usize },
}

impl Run {
    /// The time of the point after the last, if `time_ms` can be it.
    fn continues_at(&self, time_ms: i64) -> bool {
        if self.len == 1 {
            return time_ms > self.first_ms;
        }
        i64::try_from(self.len)
            .ok()
            .and_then(|n| self.step_ms.checked_mul(n))
            .and_then(|span| self.first_ms.checked_add(span))
            == Some(time_ms)
    }

    fn time_of(&self, i: usize) -> i64 {
        let i = i64::try_from(i).unwrap_or(i64::MAX);
        self.first_ms.saturating_add(self.step_ms.saturating_mul(i))
    }
}

impl EquityCurve {
    pub fn with_capacity(points: usize) -> EquityCurve {
        EquityCurve {
            runs: Vec::new(),
            values: Vec::with_capacity(points),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Add the point after the last one.
    pub fn push(&mut self, time_ms: i64, equity: Decimal) {
        self.len += 1;
        if !self.extend_last_run(time_ms, equity) {
            self.start_run(time_ms, equity);
        }
    }

    /// Add the point to the last run if it continues it; false if it starts a run.
    fn extend_last_run(&mut self, time_ms: i64, equity: Decimal) -> bool {
        let Some(last) = self.runs.last_mut() else {
            return false;
        };
        if !last.continues_at(time_ms) {
            return false;
        }
        let step = if last.len == 1 {
            time_ms - last.first_ms
        } else {
            last.step_ms
        };
        match last.values {
            Values::Same(value) => {
                if !same_digits(value, equity) {
                    return false;
                }
                last.step_ms = step;
                last.len += 1;
            }
            Values::Each { .. } => {
                if !self.values.last().is_some_and(|v| same_digits(*v, equity)) {
                    last.step_ms = step;
                    last.len += 1;
                    self.values.push(equity);
                    return true;
                }
                // The run's last point and this one begin a run of one value.
                self.values.pop();
                last.len -= 1;
                let first_ms = last.time_of(last.len);
                if last.len == 0 {
                    self.runs.pop();
                }
                self.runs.push(Run {
                    first_ms,
                    step_ms: step,
                    len: 2,
                    values: Values::Same(equity),
                });
            }
        }
        true
    }

    /// Add `equity.len()` points, `step_ms` apart from `first_ms`.
    pub fn extend_regular(&mut self, first_ms: i64, step_ms: i64, equity: &[Decimal]) {
        let times = (0i64..).map(|i| first_ms.saturating_add(i.saturating_mul(step_ms)));
        for (t, e) in times.zip(equity) {
            self.push(t, *e);
        }
    }

    fn start_run(&mut self, time_ms: i64, equity: Decimal) {
        self.runs.push(Run {
            first_ms: time_ms,
            step_ms: 0,
            len: 1,
            values: Values::Each {
                start: self.values.len(),
            },
        });
        self.values.push(equity);
    }

    /// Every point, `(time, equity)`, in order.
    pub fn points(&self) -> impl Iterator<Item = (i64, Decimal)> + '_ {
        self.runs.iter().flat_map(move |run| {
            (0..run.len).map(move |i| {
                let value = match run.values {
                    Values::Same(v) => v,
                    Values::Each { start } => self.values[start + i],
                };
                (run.time_of(i), value)
            })
        })
    }

    /// The equity values as `(value, periods held)`: a run of one value is one item. What
    /// the statistics need, without a step per point where the account stood still.
    pub fn held(&self) -> impl DoubleEndedIterator<Item = (Decimal, u64)> + Clone + '_ {
        self.runs.iter().flat_map(move |run| {
            let (same, each) = match run.values {
                Values::Same(v) => (Some((v, u64::try_from(run.len).unwrap_or(u64::MAX))), None),
                Values::Each { start } => (None, Some(&self.values[start..start + run.len])),
            };
            same.into_iter()
                .chain(each.into_iter().flatten().map(|v| (*v, 1)))
        })
    }

    pub fn first(&self) -> Option<(i64, Decimal)> {
        self.points().next()
    }

    pub fn last(&self) -> Option<(i64, Decimal)> {
        let run = self.runs.last()?;
        let i = run.len.checked_sub(1)?;
        let value = match run.values {
            Values::Same(v) => v,
            Values::Each { .. } => *self.values.last()?,
        };
        Some((run.time_of(i), value))
    }
}

/// Equal and written alike: `1.0` and `1.00` are equal decimals but different points.
fn same_digits(a: Decimal, b: Decimal) -> bool {
    a.serialize() == b.serialize()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(points: &[(i64, i64)]) -> EquityCurve {
        let mut c = EquityCurve::default();
        for (t, e) in points {
            c.push(*t, Decimal::from(*e));
        }
        c
    }

    /// Whatever the times and repeats, the points come back as pushed, and runs form.
    #[test]
    fn points_come_back_as_pushed() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200 {
            let mut points = Vec::new();
            let mut t = 0i64;
            let mut e = 1000i64;
            for _ in 0..300 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly regular times, sometimes a gap; mostly repeats, sometimes a move.
                t += if x.is_multiple_of(17) { 7 } else { 60 };
                if x.is_multiple_of(3) {
                    e += (x >> 20) as i64 % 11 - 5;
                }
                points.push((t, e));
            }
            let c = curve(&points);
            let back: Vec<(i64, i64)> = c
                .points()
                .map(|(t, e)| (t, i64::try_from(e.mantissa()).unwrap()))
                .collect();
            assert_eq!(back, points);
            assert_eq!(c.len(), points.len());
            assert_eq!(c.last().map(|(t, _)| t), points.last().map(|p| p.0));
            let held: u64 = c.held().map(|(_, n)| n).sum();
            assert_eq!(held, points.len() as u64);
            let values: Vec<Decimal> = c
                .held()
                .flat_map(|(v, n)| std::iter::repeat_n(v, n as usize))
                .collect();
            let want: Vec<Decimal> = points.iter().map(|p| Decimal::from(p.1)).collect();
            assert_eq!(values, want);
            assert!(c.values.len() < points.len(), "no run of one value formed");
        }
    }

    #[test]
    fn a_flat_stretch_is_one_run_and_other_scales_are_other_points() {
        let mut c = EquityCurve::default();
        c.extend_regular(0, 60, &[Decimal::from(5); 1000]);
        assert_eq!((c.runs.len(), c.values.len()), (1, 0));
        c.push(60_000, Decimal::new(50, 1));
        assert_eq!(c.runs.len(), 2, "5.0 is not written as 5");
        assert_eq!(c.last(), Some((60_000, Decimal::new(50, 1))));
        assert_eq!(c.first(), Some((0, Decimal::from(5))));
    }
}
