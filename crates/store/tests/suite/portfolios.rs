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
}
