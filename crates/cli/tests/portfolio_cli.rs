//! `nofxi portfolio` as a new user meets it: a Chinese broker's GBK export imported (previewed,
//! then written once), holdings, lots, P&L and returns on a day, closes recorded by hand, a bad
//! file refused by line with nothing written, and an export that imports back to the same
//! figures. The figures are the ones worked by hand in the portfolio crate's
//! `broker_file_to_returns` test.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::*;

const BROKER_FILE: &str = "成交日期,买卖方向,证券代码,成交数量,成交价格,手续费,发生金额\r\n\
2024-01-02,银行转证券,,,,,100000\r\n\
2024-01-02,证券买入,600519,10,1500.00,,\r\n\
2024-01-03,证券买入,510300,1000,3.500,,\r\n\
2024-01-04,证券卖出,600519,4,1600.00,,\r\n";

fn write_gbk(dir: &std::path::Path, name: &str, text: &str) -> String {
    let (bytes, _, bad) = encoding_rs::GBK.encode(text);
    assert!(!bad);
    let path = dir.join(name);
    std::fs::write(&path, &bytes).unwrap();
    path.display().to_string()
}

#[test]
fn a_broker_export_becomes_holdings_lots_and_returns() {
    let (dir, home) = home();
    let file = write_gbk(dir.path(), "broker.csv", BROKER_FILE);
    ok(&home, &["portfolio", "add", "mine"]);

    let dry = json(&home, &["portfolio", "import", "mine", &file, "--dry-run"]);
    assert_eq!(
        (dry["new"].as_u64(), dry["written"].as_u64()),
        (Some(4), Some(0))
    );
    let first = ok(&home, &["portfolio", "import", "mine", &file]);
    assert!(
        first.contains("4 new row(s)") && first.contains("wrote 4"),
        "{first}"
    );
    let again = json(&home, &["portfolio", "import", "mine", &file]);
    assert_eq!(
        (again["duplicates"].as_u64(), again["written"].as_u64()),
        (Some(4), Some(0))
    );

    ok(
        &home,
        &[
            "portfolio",
            "price",
            "600519",
            "1550",
            "--date",
            "2024-01-05",
        ],
    );
    ok(
        &home,
        &[
            "portfolio",
            "price",
            "510300.SH",
            "3.600",
            "--date",
            "2024-01-05",
        ],
    );
    let shot = json(&home, &["portfolio", "show", "--on", "2024-01-05"]);
    assert_eq!(shot["value"], "100781.59");
    assert_eq!(shot["unrealized"]["value"], "391.91");
    assert_eq!(shot["realized"]["value"], "389.68");
    assert_eq!(shot["holdings"][0]["key"]["instrument"]["symbol"], "600519");
    assert_eq!(shot["holdings"][0]["quantity"], "6");
    assert!(shot["warnings"].as_array().unwrap().is_empty(), "{shot}");
    let table = ok(&home, &["portfolio", "show", "mine", "--on", "2024-01-05"]);
    assert!(
        table.contains("SH:600519") && table.contains("296.91"),
        "{table}"
    );

    let lots = json(&home, &["portfolio", "lots", "--on", "2024-01-05"]);
    let moutai = lots
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["holding"] == "SH:600519")
        .unwrap();
    assert_eq!(
        (&moutai["quantity"], &moutai["cost"]),
        (&"6".into(), &"9003.09".into())
    );

    let perf = json(&home, &["portfolio", "perf", "--on", "2024-01-05"]);
    let all = perf["returns"].as_array().unwrap().last().unwrap();
    assert_eq!(all["period"], "all");
    assert_eq!(all["time_weighted"]["value"], "0.0078159");

    // A later day with no newer close: the same value, and a warning that says so.
    let later = run(&home, &["portfolio", "show", "--on", "2024-01-08"]);
    let said = text(&later);
    assert!(later.status.success(), "{said}");
    assert!(said.contains("valued at its price of 2024-01-05"), "{said}");

    // Export, import into a second portfolio: the same figures.
    let exported = dir.path().join("out.csv");
    ok(
        &home,
        &[
            "portfolio",
            "export",
            "mine",
            "--out",
            exported.to_str().unwrap(),
        ],
    );
    ok(&home, &["portfolio", "add", "copy"]);
    ok(
        &home,
        &["portfolio", "import", "copy", exported.to_str().unwrap()],
    );
    let copy = json(&home, &["portfolio", "show", "copy", "--on", "2024-01-05"]);
    assert_eq!(copy["value"], "100781.59");
}

#[test]
fn a_bad_file_is_refused_by_line_and_writes_nothing() {
    let (dir, home) = home();
    ok(
        &home,
        &[
            "portfolio",
            "add",
            "mine",
            "--account",
            "huatai:CNY",
            "--account",
            "futu:HKD",
        ],
    );
    let bad = "date,type,code,qty,price,account\n\
               2024-01-02,BUY,600519,10,1500,huatai\n\
               2024-01-03,HOLD,600519,10,1500,huatai\n\
               2024-01-04,BUY,600519,10,1500,nowhere\n";
    let path = dir.path().join("bad.csv");
    std::fs::write(&path, bad).unwrap();
    let err = refused(
        &home,
        &["portfolio", "import", "mine", path.to_str().unwrap()],
    );
    assert!(err.contains("line 3: type"), "{err}");
    assert!(
        err.contains("line 4: account") && err.contains("huatai"),
        "{err}"
    );
    assert!(err.contains("nothing was imported"), "{err}");
    let listed = json(&home, &["portfolio", "list"]);
    assert_eq!(listed[0]["records"], 0);

    // Flags name themselves when wrong.
    let err = refused(&home, &["portfolio", "add", "x", "--method", "newest"]);
    assert!(err.contains("--method") && err.contains("fifo"), "{err}");
    let err = refused(&home, &["portfolio", "show", "--on", "yesterday"]);
    assert!(err.contains("--on") && err.contains("YYYY-MM-DD"), "{err}");
    let err = refused(&home, &["portfolio", "price", "600519", "0"]);
    assert!(err.contains("price"), "{err}");
}

#[test]
fn simulated_quotes_are_labelled_and_never_value_holdings() {
    let (_dir, home) = home();
    let out = json(
        &home,
        &[
            "portfolio",
            "quote",
            "600519",
            "00700.HK",
            "AAPL.US",
            "FUND:110022",
        ],
    );
    let quotes = out["quotes"].as_array().unwrap();
    let keys: Vec<_> = quotes
        .iter()
        .map(|q| q["instrument"]["symbol"].clone())
        .collect();
    assert_eq!(keys, ["600519", "00700", "AAPL", "110022"]);
    assert!(quotes.iter().all(|q| q["simulated"] == true), "{out}");
    let said = ok(&home, &["portfolio", "quote", "600519"]);
    assert!(said.contains("simulated"), "{said}");
    let err = refused(&home, &["portfolio", "quote", "notacode!"]);
    assert!(err.contains("notacode!"), "{err}");
}

/// Two rough edges found while putting the portfolio in the browser (issue 51): `fx mine USD
/// 7.1` stored "1 MINE = 7.1 USD", and `lots` failed outright on a missing exchange rate where
/// `show` names the rate to add and shows each currency on its own. A currency must now be a
/// known code, said with the fix; lots need no rate and say the missing one as `show` does.
#[test]
fn an_unknown_currency_is_refused_and_lots_do_without_a_rate() {
    let (dir, home) = home();
    let err = refused(&home, &["portfolio", "fx", "mine", "USD", "7.1"]);
    assert!(
        err.contains("FROM")
            && err.contains("`MINE` is not a currency code")
            && err.contains("ISO 4217"),
        "{err}"
    );
    let err = refused(&home, &["portfolio", "fx", "HKD", "UDS", "0.91"]);
    assert!(err.contains("TO") && err.contains("UDS"), "{err}");
    let err = refused(&home, &["portfolio", "add", "odd", "--account", "x:MINE"]);
    assert!(
        err.contains("--account") && err.contains("ISO 4217"),
        "{err}"
    );
    let listed = json(&home, &["portfolio", "list"]);
    assert_eq!(listed, serde_json::json!([]));

    ok(
        &home,
        &[
            "portfolio",
            "add",
            "mine",
            "--account",
            "huatai:CNY",
            "--account",
            "futu:HKD",
        ],
    );
    let file = "date,type,code,quantity,price,amount,currency,account\n\
                2024-01-02,DEPOSIT,,,,100000,CNY,huatai\n\
                2024-01-02,BUY,600519,10,1500,,,huatai\n\
                2024-01-02,DEPOSIT,,,,50000,HKD,futu\n\
                2024-01-03,BUY,00700.HK,100,300,,,futu\n";
    let path = dir.path().join("two-currencies.csv");
    std::fs::write(&path, file).unwrap();
    ok(
        &home,
        &["portfolio", "import", "mine", path.to_str().unwrap()],
    );
    // A rate dated 2024-01-05 and a lowercase code that is one: recorded.
    let said = ok(
        &home,
        &[
            "portfolio",
            "fx",
            "hkd",
            "CNY",
            "0.91",
            "--date",
            "2024-01-05",
        ],
    );
    assert!(said.contains("1 HKD = 0.91 CNY"), "{said}");

    // On 2024-01-04 there is no HKD/CNY rate yet: the lots are listed, each currency on its
    // own, after the rate to add.
    let out = run(&home, &["portfolio", "lots", "mine", "--on", "2024-01-04"]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "lots failed: {stderr}");
    assert!(
        stderr.contains("HKD/CNY") && stderr.contains("nofxi portfolio fx"),
        "{stderr}"
    );
    let cny = stdout.find("In CNY:").expect("a CNY part");
    let hkd = stdout.find("In HKD:").expect("an HKD part");
    assert!(
        stdout[cny..hkd].contains("SH:600519") && stdout[hkd..].contains("HK:00700"),
        "{stdout}"
    );
    let rows = json(&home, &["portfolio", "lots", "mine", "--on", "2024-01-04"]);
    assert_eq!(rows.as_array().map(Vec::len), Some(2), "{rows}");
    // With the rate, one table and no warning.
    let out = run(&home, &["portfolio", "lots", "mine", "--on", "2024-01-05"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        text(&out)
    );
    assert!(
        !stdout.contains("In CNY:") && stdout.contains("HK:00700"),
        "{stdout}"
    );
}
