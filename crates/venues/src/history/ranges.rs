//! Half-open time spans `[from_ms, to_ms)` and the two operations coverage needs: adding a span
//! to a set (merged, sorted) and what of a span a set does not cover.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub from_ms: i64,
    pub to_ms: i64,
}

impl Span {
    pub fn new(from_ms: i64, to_ms: i64) -> Span {
        Span { from_ms, to_ms }
    }

    pub fn is_empty(&self) -> bool {
        self.to_ms <= self.from_ms
    }
}

/// `set` with `span` added: sorted, and touching or overlapping spans merged into one.
pub fn add(set: &[Span], span: Span) -> Vec<Span> {
    let mut all: Vec<Span> = set.iter().copied().filter(|s| !s.is_empty()).collect();
    if !span.is_empty() {
        all.push(span);
    }
    all.sort_by_key(|s| s.from_ms);
    let mut out: Vec<Span> = Vec::with_capacity(all.len());
    for s in all {
        match out.last_mut() {
            Some(last) if s.from_ms <= last.to_ms => last.to_ms = last.to_ms.max(s.to_ms),
            _ => out.push(s),
        }
    }
    out
}

/// The parts of `span` that no span of `set` (sorted and merged, as [`add`] leaves it) covers.
pub fn uncovered(set: &[Span], span: Span) -> Vec<Span> {
    let mut out = Vec::new();
    let mut cursor = span.from_ms;
    for s in set {
        if s.to_ms <= cursor || s.from_ms >= span.to_ms {
            continue;
        }
        if s.from_ms > cursor {
            out.push(Span::new(cursor, s.from_ms.min(span.to_ms)));
        }
        cursor = cursor.max(s.to_ms);
        if cursor >= span.to_ms {
            break;
        }
    }
    if cursor < span.to_ms {
        out.push(Span::new(cursor, span.to_ms));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_merge_and_leave_the_uncovered_rest() {
        let set = add(&add(&[], Span::new(10, 20)), Span::new(30, 40));
        let set = add(&set, Span::new(20, 25));
        assert_eq!(set, vec![Span::new(10, 25), Span::new(30, 40)]);
        assert_eq!(
            uncovered(&set, Span::new(0, 50)),
            vec![Span::new(0, 10), Span::new(25, 30), Span::new(40, 50)]
        );
        assert_eq!(uncovered(&set, Span::new(12, 24)), vec![]);
        assert_eq!(uncovered(&set, Span::new(22, 33)), vec![Span::new(25, 30)]);
        assert_eq!(uncovered(&[], Span::new(5, 6)), vec![Span::new(5, 6)]);
    }
}
