//! Decimals written out as their `Display` writes them, several times faster.
//!
//! Journals put prices and sizes into text on every cycle: a decision's reasoning ("crossed up
//! at 30123.45"), a refusal ("position size 4.99 USDT is below the minimum 10 USDT"). A
//! backtest writes tens of thousands of them, and rust_decimal's `Display` divides its 96-bit
//! mantissa digit by digit and pads through the formatter. [`Plain`] writes a mantissa that
//! fits 64 bits with plain integer division, and hands every other case to `Display`.

use std::fmt;

use rust_decimal::Decimal;

/// `format!("{}", Plain(d)) == format!("{}", d)`, for every decimal and every format spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plain(pub Decimal);

/// A sign, 20 digits of a `u64`, a point and the zeros of a scale up to 28 fit.
const WIDEST: usize = 32;

impl fmt::Display for Plain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.0;
        let plain_spec = f.width().is_none()
            && f.precision().is_none()
            && !f.sign_plus()
            && !f.sign_minus()
            && !f.alternate()
            && !f.sign_aware_zero_pad();
        let (Ok(mut m), true) = (u64::try_from(d.mantissa().unsigned_abs()), plain_spec) else {
            return fmt::Display::fmt(&d, f);
        };
        let scale = d.scale() as usize;
        let mut text = [b'0'; WIDEST];
        let mut at = WIDEST;
        let mut written = 0;
        // Digits from the last, with the point after `scale` of them and at least one before.
        loop {
            if written == scale && scale > 0 {
                at -= 1;
                text[at] = b'.';
            }
            at -= 1;
            text[at] = b'0' + (m % 10) as u8;
            m /= 10;
            written += 1;
            if m == 0 && written > scale {
                break;
            }
        }
        // `Display` signs a negative zero too.
        if d.is_sign_negative() {
            at -= 1;
            text[at] = b'-';
        }
        f.write_str(std::str::from_utf8(&text[at..]).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_writes_what_display_writes() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for case in 0..200_000u32 {
            let (lo, mid, hi) = match case % 4 {
                0 => (next() as u32 % 1000, 0, 0),
                1 => (next() as u32, 0, 0),
                2 => (next() as u32, next() as u32, 0),
                _ => (next() as u32, next() as u32, next() as u32 % 16),
            };
            let d =
                Decimal::from_parts(lo, mid, hi, next().is_multiple_of(3), (next() % 29) as u32);
            assert_eq!(format!("{}", Plain(d)), format!("{d}"), "{d:?}");
            assert_eq!(format!("{:>40}", Plain(d)), format!("{d:>40}"));
            assert_eq!(format!("{:.3}", Plain(d)), format!("{d:.3}"));
        }
        for d in [
            Decimal::ZERO,
            Decimal::new(0, 5),
            -Decimal::new(0, 2),
            Decimal::MAX,
        ] {
            assert_eq!(format!("{}", Plain(d)), format!("{d}"), "{d:?}");
        }
    }
}
