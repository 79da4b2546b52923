//! Portfolios and their transactions: stored as the portfolio crate accepted them, per user,
//! imports written once and all or nothing, every change audited.

use super::common::*;
use nofxi_portfolio::csv_io::preview;
use nofxi_portfolio::domain::{Account, Portfolio};

const FILE: &str = "成交日期,买卖方向,证券代码,成交数量,成交价格,手续费,账户\n\
                    2024-01-02,证券买入,600519,100,1500.10,,huatai\n\
                    2024-01-02,证券买入,600519,100,1500.10,,huatai\n";

fn mine(name: &str) -> Portfolio {
    let mut p = Portfolio::new(name, "CNY".parse().unwrap());
    p.accounts.push(Account {
        name: "huatai".into(),
        broker: "华泰".into(),
        currency: "CNY".parse().unwrap(),
    });
    p
}

pub async fn portfolios_store_imports_once_per_user_and_audit(
    ts: TestStore,
    _clock: Arc<ManualClock>,
) {
    let alice = cli("alice");
    ts.create_portfolio(&alice, &mine("Mine")).await.unwrap();
    let again = ts
        .create_portfolio(&alice, &mine("mine"))
        .await
        .unwrap_err();
    assert!(
        matches!(again, StoreError::PortfolioExists { .. }),
        "{again}"
    );

    let stored = ts.portfolio("alice", "MINE").await.unwrap();
    let first = preview(&stored, &[], FILE);
    assert_eq!(first.error_report(), "");
    // Two identical fills on one day are two trades the first time, none the second.
    assert_eq!(
        ts.import_transactions(&alice, "mine", &first)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        ts.import_transactions(&alice, "mine", &first)
            .await
            .unwrap(),
        0
    );
    let records = ts.portfolio_transactions("alice", "mine").await.unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].price, Decimal::new(150010, 2));
    assert_eq!(records[0].fee, None, "a fee left out stays out");
    let second = preview(&stored, &records, FILE);
    assert_eq!(second.new_rows().count(), 0);

    // A file with a bad row writes nothing.
    let bad = format!(
        "{FILE}2024-13-01,证券买入,600519,1,1,,huatai\n2024-01-03,证券卖出,600519,50,1600,,huatai\n"
    );
    let bad = preview(&stored, &records, &bad);
    let err = ts
        .import_transactions(&alice, "mine", &bad)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Portfolio(e) if e.0[0].field == "line 4: date"),
        "{err}"
    );
    assert_eq!(
        ts.portfolio_transactions("alice", "mine")
            .await
            .unwrap()
            .len(),
        2
    );

    // A record for an account the portfolio lacks is refused whole.
    let mut stray = records[0].clone();
    stray.account = "futu".into();
    let err = ts
        .record_transactions(&alice, "mine", &[records[0].clone(), stray])
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Portfolio(e) if e.0[0].field == "transactions[1].account"),
        "{err}"
    );
    assert_eq!(
        ts.portfolio_transactions("alice", "mine")
            .await
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        ts.record_transactions(&alice, "mine", &[records[0].clone()])
            .await
            .unwrap(),
        1
    );

    // The account with records cannot be dropped.
    let mut emptied = mine("Mine");
    emptied.accounts.clear();
    assert!(ts.update_portfolio(&alice, &emptied).await.is_err());

    // Bob sees none of it and may use the same name.
    assert!(ts.portfolios("bob").await.unwrap().is_empty());
    assert!(matches!(
        ts.portfolio_transactions("bob", "mine").await.unwrap_err(),
        StoreError::UnknownPortfolio { .. }
    ));
    ts.create_portfolio(&cli("bob"), &mine("mine"))
        .await
        .unwrap();

    let audit = ts.audit_log("alice", 100).await.unwrap();
    let details: Vec<_> = audit
        .iter()
        .filter(|e| e.resource_kind == "portfolio")
        .filter_map(|e| e.detail.clone())
        .collect();
    assert!(
        details.contains(&"Mine: imported 2 transaction(s), 0 duplicate(s) skipped".to_string()),
        "{details:?}"
    );
    assert!(
        details.contains(&"Mine: imported 0 transaction(s), 2 duplicate(s) skipped".to_string()),
        "{details:?}"
    );
    assert!(
        details.contains(&"Mine: recorded 1 transaction(s)".to_string()),
        "{details:?}"
    );

    // Names follow the one rule for names, and what an error quotes is escaped and cut:
    // neither a name nor a lookup can rewrite the terminal the error is shown on.
    let hidden = |text: &str| text.chars().any(nofxi_domain::validation::hidden_character);
    let osc = "evil\u{1b}]0;pwned\u{7}";
    let refused = ts.create_portfolio(&alice, &mine(osc)).await.unwrap_err();
    assert!(
        matches!(&refused, StoreError::Portfolio(e) if e.fields().eq(["name"])),
        "{refused}"
    );
    assert!(!hidden(&refused.to_string()), "{refused}");
    // A space after the sequence: run into it, the letters would make a key-shaped word,
    // which an error masks whole rather than cuts.
    let lookup = format!("\u{1b}[2J {}", "x".repeat(1024));
    let unknown = ts.portfolio("alice", &lookup).await.unwrap_err();
    assert!(
        matches!(unknown, StoreError::UnknownPortfolio { .. }),
        "{unknown}"
    );
    for said in [unknown.to_string(), unknown.to_zh()] {
        assert!(!hidden(&said) && said.contains('…'), "{said}");
        assert!(said.chars().count() < 200, "{said}");
    }
    let mut stray = records[0].clone();
    stray.account = "hua\u{202e}tai".into();
    let err = ts
        .record_transactions(&alice, "mine", &[stray])
        .await
        .unwrap_err()
        .to_string();
    assert!(!hidden(&err) && err.contains("hua\\u{202e}tai"), "{err}");
}

pub async fn portfolio_marks_replace_by_date_and_stay_per_user(
    ts: TestStore,
    _clock: Arc<ManualClock>,
) {
    use nofxi_portfolio::domain::{FxMark, Instrument, Market, PriceMark};
    use rust_decimal::Decimal;

    let moutai = Instrument::new(Market::Sh, "600519").unwrap();
    let price = |date: &str, p: &str| PriceMark {
        instrument: moutai.clone(),
        date: date.parse().unwrap(),
        price: p.parse().unwrap(),
        source: "user".into(),
    };
    ts.record_price_marks(
        "alice",
        &[price("2024-01-05", "1550.10"), price("2024-01-04", "1540")],
    )
    .await
    .unwrap();
    // The same date again replaces the price (a corrected close), exactly.
    ts.record_price_marks("alice", &[price("2024-01-05", "1551.005")])
        .await
        .unwrap();
    let marks = ts.price_marks("alice").await.unwrap();
    let seen: Vec<_> = marks
        .iter()
        .map(|m| (m.date.to_string(), m.price))
        .collect();
    assert_eq!(
        seen,
        [
            ("2024-01-04".to_string(), "1540".parse::<Decimal>().unwrap()),
            ("2024-01-05".to_string(), "1551.005".parse().unwrap())
        ]
    );
    assert!(ts.price_marks("bob").await.unwrap().is_empty());

    // A bad mark names its field and writes nothing, not even the good one beside it.
    let bad = ts
        .record_price_marks(
            "alice",
            &[price("2024-01-08", "1600"), price("2024-01-09", "0")],
        )
        .await
        .unwrap_err();
    assert!(bad.to_string().contains("price"), "{bad}");
    assert_eq!(ts.price_marks("alice").await.unwrap().len(), 2);

    let rate = FxMark {
        from: "HKD".parse().unwrap(),
        to: "CNY".parse().unwrap(),
        date: "2024-01-05".parse().unwrap(),
        rate: "0.9123".parse().unwrap(),
        source: "user".into(),
    };
    ts.record_fx_marks("alice", std::slice::from_ref(&rate))
        .await
        .unwrap();
    assert_eq!(ts.fx_marks("alice").await.unwrap(), [rate]);
}
