//! One trade per market per rule change; every expected fee worked by hand from the rates in
//! the data files (amount × rate, rounded, then the min / max).

use super::*;
use rust_decimal_macros::dec;

fn quote(
    market: Market,
    code: &str,
    side: TradeSide,
    date: &str,
    q: Decimal,
    p: Decimal,
) -> FeeQuote {
    let schedules = FeeSchedules::embedded().unwrap();
    let instrument = Instrument::new(market, code).unwrap();
    schedules
        .quote(&instrument, side, date.parse().unwrap(), q, p)
        .unwrap()
}

fn lines(q: &FeeQuote) -> Vec<(&str, Decimal)> {
    q.lines
        .iter()
        .map(|l| (l.rule.as_str(), l.amount))
        .collect()
}

#[test]
fn a_share_stamp_duty_halves_for_sells_from_2023_08_28() {
    // Sell 1000 × 10.00 = 10000.00 in Shanghai.
    // Up to 2023-08-27: commission 10000 × 0.0001 = 1.00 → min 5.00; stamp 10000 × 0.001 =
    // 10.00; transfer 10000 × 0.00001 = 0.10. Total 15.10.
    let before = quote(
        Market::Sh,
        "600519",
        TradeSide::Sell,
        "2023-08-25",
        dec!(1000),
        dec!(10),
    );
    assert_eq!(
        lines(&before),
        [
            ("commission", dec!(5.00)),
            ("stamp_duty", dec!(10.00)),
            ("transfer_fee", dec!(0.10))
        ]
    );
    assert_eq!(before.total, dec!(15.10));
    // From 2023-08-28: stamp 10000 × 0.0005 = 5.00. Total 10.10.
    let after = quote(
        Market::Sh,
        "600519",
        TradeSide::Sell,
        "2023-08-28",
        dec!(1000),
        dec!(10),
    );
    assert_eq!(after.total, dec!(10.10));
    // A buy pays no stamp duty: 5.00 + 0.10.
    let buy = quote(
        Market::Sh,
        "600519",
        TradeSide::Buy,
        "2023-08-28",
        dec!(1000),
        dec!(10),
    );
    assert_eq!(buy.total, dec!(5.10));
}

#[test]
fn a_share_transfer_fee_halves_from_2022_04_29() {
    // Buy 10000 × 10.00 = 100000.00: commission 100000 × 0.0001 = 10.00.
    // 2022-04-28: transfer 100000 × 0.00002 = 2.00 → 12.00. 2022-04-29: 1.00 → 11.00.
    let before = quote(
        Market::Sh,
        "601398",
        TradeSide::Buy,
        "2022-04-28",
        dec!(10000),
        dec!(10),
    );
    assert_eq!(before.total, dec!(12.00));
    let after = quote(
        Market::Sh,
        "601398",
        TradeSide::Buy,
        "2022-04-29",
        dec!(10000),
        dec!(10),
    );
    assert_eq!(after.total, dec!(11.00));
}

#[test]
fn shenzhen_rounds_each_line_half_up() {
    // Sell 1000 × 56.789 = 56789.00. Commission 5.6789 → 5.68; transfer 0.56789 → 0.57.
    // 2023-08-25: stamp 56.789 → 56.79; total 63.04. 2023-08-28: stamp 28.3945 → 28.39; 34.64.
    let before = quote(
        Market::Sz,
        "000001",
        TradeSide::Sell,
        "2023-08-25",
        dec!(1000),
        dec!(56.789),
    );
    assert_eq!(
        lines(&before),
        [
            ("commission", dec!(5.68)),
            ("stamp_duty", dec!(56.79)),
            ("transfer_fee", dec!(0.57))
        ]
    );
    assert_eq!(before.total, dec!(63.04));
    let after = quote(
        Market::Sz,
        "000001",
        TradeSide::Sell,
        "2023-08-28",
        dec!(1000),
        dec!(56.789),
    );
    assert_eq!(after.total, dec!(34.64));
}

#[test]
fn beijing_pays_the_national_stamp_duty() {
    // Sell 500 × 12.34 = 6170.00 on 2024-01-02: commission 0.617 → min 5.00; stamp
    // 6170 × 0.0005 = 3.085 → 3.09; transfer 0.0617 → 0.06. Total 8.15.
    let q = quote(
        Market::Bj,
        "830799",
        TradeSide::Sell,
        "2024-01-02",
        dec!(500),
        dec!(12.34),
    );
    assert_eq!(q.total, dec!(8.15));
    // Before the exchange opened the schedule refuses and asks for the fee.
    let schedules = FeeSchedules::embedded().unwrap();
    let bj = Instrument::new(Market::Bj, "830799").unwrap();
    let err = schedules
        .quote(
            &bj,
            TradeSide::Buy,
            "2021-11-12".parse().unwrap(),
            dec!(1),
            dec!(1),
        )
        .unwrap_err();
    assert_eq!(
        err.0[0].fix,
        "give the fee of this trade (from the broker's statement)"
    );
}

#[test]
fn a_share_funds_pay_commission_only() {
    // ETF 510300, sell 1000 × 4.00 = 4000.00: commission 0.40 → min 5.00, nothing else.
    let q = quote(
        Market::Sh,
        "510300",
        TradeSide::Sell,
        "2024-01-02",
        dec!(1000),
        dec!(4),
    );
    assert_eq!(lines(&q), [("commission", dec!(5.00))]);
    let q = quote(
        Market::Sz,
        "159915",
        TradeSide::Sell,
        "2024-01-02",
        dec!(1000),
        dec!(4),
    );
    assert_eq!(q.total, dec!(5.00));
}

#[test]
fn hong_kong_stamp_duty_is_0_13_until_2023_11_16_and_0_10_after() {
    // Buy 1000 × 300.00 = 300000.00 of 00700 on 2023-11-16:
    //   commission 300000 × 0.0003 = 90.00; stamp 300000 × 0.0013 = 390 (whole HKD);
    //   SFC 300000 × 0.000027 = 8.10; AFRC × 0.0000015 = 0.45; trading × 0.0000565 = 16.95;
    //   CCASS × 0.00002 = 6.00. Total 511.50.
    let before = quote(
        Market::Hk,
        "700",
        TradeSide::Buy,
        "2023-11-16",
        dec!(1000),
        dec!(300),
    );
    assert_eq!(
        lines(&before),
        [
            ("commission", dec!(90.00)),
            ("stamp_duty", dec!(390)),
            ("sfc_levy", dec!(8.10)),
            ("afrc_levy", dec!(0.45)),
            ("trading_fee", dec!(16.95)),
            ("settlement_fee", dec!(6.00)),
        ]
    );
    assert_eq!(before.total, dec!(511.50));
    // 2023-11-17: stamp 300 → total 421.50. Sells pay the same.
    let after = quote(
        Market::Hk,
        "700",
        TradeSide::Sell,
        "2023-11-17",
        dec!(1000),
        dec!(300),
    );
    assert_eq!(after.total, dec!(421.50));
}

#[test]
fn hong_kong_rounds_stamp_duty_up_and_holds_ccass_between_2_and_100() {
    // 100 × 123.45 = 12345.00 on 2024-01-02: commission 3.7035 → min 50.00; stamp 12.345 →
    // up to 13; SFC 0.333315 → 0.33; AFRC 0.0185175 → 0.02; trading 0.6974925 → 0.70;
    // CCASS 0.2469 → min 2.00. Total 50 + 13 + 0.33 + 0.02 + 0.70 + 2.00 = 66.05.
    let small = quote(
        Market::Hk,
        "5",
        TradeSide::Buy,
        "2024-01-02",
        dec!(100),
        dec!(123.45),
    );
    assert_eq!(small.total, dec!(66.05));
    // 100000 × 100 = 10,000,000: CCASS 200 → max 100.00.
    let big = quote(
        Market::Hk,
        "5",
        TradeSide::Buy,
        "2024-01-02",
        dec!(100000),
        dec!(100),
    );
    let ccass = big
        .lines
        .iter()
        .find(|l| l.rule == "settlement_fee")
        .unwrap();
    assert_eq!(ccass.amount, dec!(100.00));
}

#[test]
fn hong_kong_earlier_rule_changes() {
    // 300000.00 again. 2022-12-30: trading fee 0.00005 → 15.00, stamp 390:
    //   90 + 390 + 8.10 + 0.45 + 15.00 + 6.00 = 509.55.
    let q = quote(
        Market::Hk,
        "700",
        TradeSide::Buy,
        "2022-12-30",
        dec!(1000),
        dec!(300),
    );
    assert_eq!(q.total, dec!(509.55));
    // 2021-12-31: no AFRC levy yet: 90 + 390 + 8.10 + 15.00 + 6.00 = 509.10.
    let q = quote(
        Market::Hk,
        "700",
        TradeSide::Buy,
        "2021-12-31",
        dec!(1000),
        dec!(300),
    );
    assert_eq!(q.total, dec!(509.10));
    // 2021-07-30: stamp 0.1 % = 300: 90 + 300 + 8.10 + 15.00 + 6.00 = 419.10.
    let q = quote(
        Market::Hk,
        "700",
        TradeSide::Buy,
        "2021-07-30",
        dec!(1000),
        dec!(300),
    );
    assert_eq!(q.total, dec!(419.10));
}

#[test]
fn us_sells_pay_sec_and_finra_fees_by_date() {
    // Sell 100 × 190.00 = 19000.00 on 2024-06-03: SEC 19000 × 0.0000278 = 0.5282 → up 0.53;
    // TAF 100 × 0.000166 = 0.0166 → up 0.02. Total 0.55.
    let q = quote(
        Market::Us,
        "AAPL",
        TradeSide::Sell,
        "2024-06-03",
        dec!(100),
        dec!(190),
    );
    assert_eq!(
        lines(&q),
        [
            ("commission", dec!(0.00)),
            ("sec_fee", dec!(0.53)),
            ("finra_taf", dec!(0.02))
        ]
    );
    // 2024-05-21, the $8.00 / M rate: 19000 × 0.000008 = 0.152 → up 0.16. Total 0.18.
    let q = quote(
        Market::Us,
        "AAPL",
        TradeSide::Sell,
        "2024-05-21",
        dec!(100),
        dec!(190),
    );
    assert_eq!(q.total, dec!(0.18));
    // From 2025-05-14 the SEC fee is 0: TAF alone, 0.02.
    let q = quote(
        Market::Us,
        "AAPL",
        TradeSide::Sell,
        "2025-05-14",
        dec!(100),
        dec!(190),
    );
    assert_eq!(q.total, dec!(0.02));
    // 100000 × 1.00 on 2024-06-03: TAF 16.60 → max 8.30; SEC 100000 × 0.0000278 = 2.78. 11.08.
    let q = quote(
        Market::Us,
        "SIRI",
        TradeSide::Sell,
        "2024-06-03",
        dec!(100000),
        dec!(1),
    );
    assert_eq!(q.total, dec!(11.08));
    // Buys pay nothing.
    let q = quote(
        Market::Us,
        "AAPL",
        TradeSide::Buy,
        "2024-06-03",
        dec!(100),
        dec!(190),
    );
    assert_eq!(q.total, dec!(0.00));
}

#[test]
fn funds_and_crypto_use_their_default_rates() {
    // Fund 10000 × 1.2345 = 12345.00 × 0.001 = 12.345 → 12.35.
    let q = quote(
        Market::Fund,
        "110011",
        TradeSide::Buy,
        "2024-01-02",
        dec!(10000),
        dec!(1.2345),
    );
    assert_eq!(q.total, dec!(12.35));
    // 0.5 BTC × 60000 = 30000.00 × 0.001 = 30.00 USDT.
    let q = quote(
        Market::Crypto,
        "BTC",
        TradeSide::Sell,
        "2024-01-02",
        dec!(0.5),
        dec!(60000),
    );
    assert_eq!((q.total, q.currency.as_str()), (dec!(30.00), "USDT"));
}

#[test]
fn a_minimum_in_another_currency_is_not_applied_silently() {
    let schedules = FeeSchedules::embedded().unwrap();
    let usd_listing = Instrument::with_currency(Market::Hk, "700", "USD".parse().unwrap()).unwrap();
    let err = schedules
        .quote(
            &usd_listing,
            TradeSide::Buy,
            "2024-01-02".parse().unwrap(),
            dec!(1),
            dec!(1),
        )
        .unwrap_err();
    assert!(err.0[0].problem.contains("set in HKD"), "{err}");
}
