//! `nofxi portfolio` over hostile and careless input (issue 47, items 9 and 10): a sign that
//! says the opposite of the row's type is refused, not dropped.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

mod support;

use support::*;

/// A BUY of −100 was written as a BUY of +100.
#[test]
fn a_buy_of_minus_100_is_refused_by_line_and_column_and_nothing_is_written() {
    let (dir, home) = home();
    ok(&home, &["portfolio", "add", "mine"]);
    let file = dir.path().join("signs.csv");
    std::fs::write(
        &file,
        "date,type,symbol,quantity,price,fee\n\
         2024-01-02,BUY,600519,100,1500,5\n\
         2024-01-03,BUY,600519,-100,1500,5\n",
    )
    .unwrap();
    let file = file.display().to_string();
    let err = refused(&home, &["portfolio", "import", "mine", &file]);
    assert!(
        err.contains("line 3: quantity: `-100` is negative, but a BUY adds units"),
        "{err}"
    );
    assert!(err.contains("nothing was imported"), "{err}");
    let listed = json(&home, &["portfolio", "list"]);
    assert_eq!(listed[0]["records"], 0, "{listed}");
}
