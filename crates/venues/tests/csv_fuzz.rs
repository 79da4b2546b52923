//! The CSV candle parser over hostile input: random bytes, random rows near the format, and
//! huge lines. It answers every one with candles or an error naming a line, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use nofxi_venues::csv_source::parse_candles;
use proptest::prelude::*;

const HEAD: &str = "timestamp_ms,open,high,low,close,volume\n";

/// A field that is sometimes a number and sometimes not.
fn field() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..2_000_000_000_000).prop_map(|n| n.to_string()),
        (-1000i64..100_000).prop_map(|n| n.to_string()),
        "[0-9]{0,30}\\.[0-9]{0,30}",
        "[-+]?[0-9]{1,3}[eE][-+]?[0-9]{1,4}",
        "\\PC{0,12}",
        Just(String::new()),
        Just("\"1,2\"".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let _ = parse_candles(bytes.as_slice());
        let mut with_head = HEAD.as_bytes().to_vec();
        with_head.extend(&bytes);
        let _ = parse_candles(with_head.as_slice());
    }

    #[test]
    fn rows_near_the_format_never_panic(
        rows in proptest::collection::vec(proptest::collection::vec(field(), 0..8), 0..40)
    ) {
        let mut text = HEAD.to_string();
        for row in rows {
            text.push_str(&row.join(","));
            text.push('\n');
        }
        if let Err(e) = parse_candles(text.as_bytes()) {
            prop_assert!(e.to_string().contains("line "), "{e}");
        }
    }
}

#[test]
fn huge_lines_are_refused_not_choked_on() {
    for len in [1 << 16, 1 << 20, 8 << 20] {
        let mut text = HEAD.to_string();
        text.push_str(&"9".repeat(len));
        text.push_str(",1,1,1,1,1\n");
        let err = parse_candles(text.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        let header = format!("{}{HEAD}1600000000000,1,1,1,1,1\n", "x".repeat(len));
        assert!(parse_candles(header.as_bytes()).is_err());
    }
}
