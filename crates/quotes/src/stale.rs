//! When a live quote is stale: its own time is older than the start of the market's last
//! trading session before `now`. A Friday close read on Saturday is current; the same quote read
//! on Monday at 10:00 is stale, because Monday's session has opened without it.
//!
//! Sessions are simple rules, not a calendar: Monday to Friday, A-shares 09:30–15:00
//! Asia/Shanghai, Hong Kong 09:30–16:00 Asia/Hong_Kong, US 09:30–16:00 America/New_York. Public
//! holidays are ignored, so on the morning after a holiday a quote from before it is wrongly
//! called stale; that errs on the side of warning. Lunch breaks do not matter, since only the
//! session's start is compared. Off-exchange funds publish one NAV per trading day, after the
//! close, so a fund's NAV is stale only when older than the start of the session *before* the
//! last one. Crypto trades around the clock: stale after 5 minutes.
//!
//! Simulated quotes are never stale: they are made for `now`.

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp, ToSpan};
use nofxi_portfolio::domain::Market;

use crate::quote::Quote;
use crate::zones::{hong_kong, new_york, shanghai};

/// How long a crypto quote stays current.
pub const CRYPTO_MAX_AGE: SignedDuration = SignedDuration::from_mins(5);

/// When a market trades, as far as staleness cares.
#[derive(Debug, Clone, Copy)]
pub enum TradingHours {
    /// Weekday sessions in the exchange's own zone. `sessions_back` is how many further sessions
    /// a quote may lag (0 for a last trade, 1 for a NAV published after the close).
    Weekdays {
        zone: &'static TimeZone,
        opens: Time,
        closes: Time,
        sessions_back: u8,
    },
    /// Always trading: a quote is current for `max_age`.
    Continuous { max_age: SignedDuration },
}

pub fn trading_hours(market: Market) -> TradingHours {
    let weekdays = |zone, closes, sessions_back| TradingHours::Weekdays {
        zone,
        opens: Time::constant(9, 30, 0, 0),
        closes,
        sessions_back,
    };
    match market {
        Market::Sh | Market::Sz | Market::Bj => {
            weekdays(shanghai(), Time::constant(15, 0, 0, 0), 0)
        }
        Market::Fund => weekdays(shanghai(), Time::constant(15, 0, 0, 0), 1),
        Market::Hk => weekdays(hong_kong(), Time::constant(16, 0, 0, 0), 0),
        Market::Us => weekdays(new_york(), Time::constant(16, 0, 0, 0), 0),
        Market::Crypto => TradingHours::Continuous {
            max_age: CRYPTO_MAX_AGE,
        },
    }
}

/// The instant before which a quote of `market` is stale at `now`: the start of the last
/// session (or the one before it, for funds), or `now − 5 min` for crypto. `None` only at the
/// edges of representable time.
pub fn fresh_since(market: Market, now: Timestamp) -> Option<Timestamp> {
    match trading_hours(market) {
        TradingHours::Continuous { max_age } => now.checked_sub(max_age).ok(),
        TradingHours::Weekdays {
            zone,
            opens,
            sessions_back,
            ..
        } => {
            let local = zone.to_datetime(now);
            let mut day = local.date();
            if local.time() < opens || is_weekend(day) {
                day = previous_weekday(day);
            }
            for _ in 0..sessions_back {
                day = previous_weekday(day);
            }
            zone.to_timestamp(day.to_datetime(opens)).ok()
        }
    }
}

/// Whether a quote of `market` stamped `as_of` is stale at `now`.
pub fn is_stale(market: Market, as_of: Timestamp, now: Timestamp) -> bool {
    fresh_since(market, now).is_some_and(|since| as_of < since)
}

/// The quote with `stale` set for `now`; simulated quotes stay fresh.
pub fn judged(mut quote: Quote, now: Timestamp) -> Quote {
    quote.stale = !quote.simulated && is_stale(quote.instrument.market, quote.as_of, now);
    quote
}

fn is_weekend(day: Date) -> bool {
    matches!(day.weekday(), Weekday::Saturday | Weekday::Sunday)
}

fn previous_weekday(day: Date) -> Date {
    let mut day = day.saturating_sub(1.day());
    while is_weekend(day) {
        day = day.saturating_sub(1.day());
    }
    day
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    #[test]
    fn a_share_sessions_start_at_0930_shanghai_on_weekdays() {
        // Friday 2025-01-10 10:00 Shanghai (02:00Z): today's session.
        assert_eq!(
            fresh_since(Market::Sh, at("2025-01-10T02:00:00Z")),
            Some(at("2025-01-10T01:30:00Z"))
        );
        // Friday 08:00 Shanghai, before the open: Thursday's session.
        assert_eq!(
            fresh_since(Market::Sz, at("2025-01-10T00:00:00Z")),
            Some(at("2025-01-09T01:30:00Z"))
        );
        // Sunday: Friday's session.
        assert_eq!(
            fresh_since(Market::Bj, at("2025-01-12T06:00:00Z")),
            Some(at("2025-01-10T01:30:00Z"))
        );
    }

    #[test]
    fn us_sessions_follow_new_york_daylight_saving() {
        // Winter: 09:30 EST is 14:30Z.
        assert_eq!(
            fresh_since(Market::Us, at("2025-01-10T20:00:00Z")),
            Some(at("2025-01-10T14:30:00Z"))
        );
        // Summer: 09:30 EDT is 13:30Z. Monday 2025-07-07 at 12:00Z is 08:00 in New York, before
        // the open, so the last session is Friday the 4th's (a holiday, ignored here).
        assert_eq!(
            fresh_since(Market::Us, at("2025-07-07T12:00:00Z")),
            Some(at("2025-07-04T13:30:00Z"))
        );
    }

    #[test]
    fn the_friday_close_is_current_all_weekend_and_stale_once_monday_opens() {
        let friday_close = at("2025-01-10T08:08:19Z"); // 16:08:19 Hong Kong
        assert!(!is_stale(
            Market::Hk,
            friday_close,
            at("2025-01-11T04:00:00Z")
        ));
        assert!(!is_stale(
            Market::Hk,
            friday_close,
            at("2025-01-13T01:00:00Z")
        )); // Mon 09:00
        assert!(is_stale(
            Market::Hk,
            friday_close,
            at("2025-01-13T01:31:00Z")
        )); // Mon 09:31
    }

    #[test]
    fn a_fund_nav_lasts_through_the_next_session() {
        let thursday_nav = at("2025-01-09T07:00:00Z"); // 15:00 Shanghai
        assert!(!is_stale(
            Market::Fund,
            thursday_nav,
            at("2025-01-10T05:00:00Z")
        ));
        assert!(is_stale(
            Market::Fund,
            thursday_nav,
            at("2025-01-13T05:00:00Z")
        ));
    }

    #[test]
    fn crypto_is_stale_after_five_minutes() {
        let now = at("2025-01-11T12:00:00Z");
        assert!(!is_stale(Market::Crypto, at("2025-01-11T11:55:00Z"), now));
        assert!(is_stale(Market::Crypto, at("2025-01-11T11:54:59Z"), now));
    }
}
