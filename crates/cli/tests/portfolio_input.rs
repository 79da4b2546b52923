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

/// Whether `text` holds a character that hides or rewrites text on a terminal.
fn rewrites(text: &str) -> bool {
    text.chars()
        .any(|c| c != '\n' && nofxi_domain::validation::hidden_character(c))
}

/// Portfolio and account names took ESC/OSC sequences, control and zero-width characters and
/// a kilobyte of text; the rule every other name follows holds for them too.
#[test]
fn portfolio_and_account_names_follow_the_one_name_rule() {
    let (_dir, home) = home();
    let long = "p".repeat(1024);
    for bad in [
        "evil\u{1b}]0;pwned\u{7}",
        "red\u{1b}[31m",
        "tab\there",
        "zero\u{200b}width",
        long.as_str(),
    ] {
        let err = refused(&home, &["portfolio", "add", bad]);
        assert!(err.contains("name"), "{bad:?}: {err}");
        assert!(!rewrites(&err) && err.len() < 600, "{bad:?}: {err:?}");
        let account = format!("{bad}:CNY");
        let err = refused(&home, &["portfolio", "add", "mine", "--account", &account]);
        assert!(err.contains("accounts[0].name"), "{bad:?}: {err}");
        assert!(!rewrites(&err) && err.len() < 600, "{bad:?}: {err:?}");
    }
    let listed = json(&home, &["portfolio", "list"]);
    assert_eq!(listed, serde_json::json!([]), "nothing was created");
}

/// A broker's file rewrote the terminal through import errors that repeated its cells raw.
#[test]
fn import_errors_and_notes_never_repeat_a_cell_raw() {
    let (dir, home) = home();
    ok(&home, &["portfolio", "add", "mine"]);
    let esc = "\u{1b}]0;pwned\u{7}\u{1b}[2J";
    let file = dir.path().join("hostile.csv");
    std::fs::write(
        &file,
        format!(
            "date,type,symbol,quantity,price,fee,Broker{esc}Ref\n\
             2024-01-02{esc},BUY,600519,100,1500,5,x\n\
             2024-01-02,BUY{esc},600519,{},1500,5,x\n",
            "9".repeat(4000)
        ),
    )
    .unwrap();
    let file = file.display().to_string();
    let out = run(&home, &["portfolio", "import", "mine", &file]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(!rewrites(&said), "{said:?}");
    assert!(
        said.contains("line 2: date: `2024-01-02\\u{1b}]0;pwned\\u{7}\\u{1b}[2J` is not a date"),
        "{said}"
    );
    assert!(said.contains("Broker\\u{1b}]0;pwned"), "{said}");
    assert!(said.contains("9999…` is not a number"), "{said}");
    assert!(said.len() < 3000, "{} bytes: {said}", said.len());
    // Flags quoted back are escaped the same way.
    for args in [
        vec!["portfolio", "export", "mine", "--format", "c\u{1b}[2Jsv"],
        vec!["portfolio", "show", "mine", "--on", "2024\u{1b}[2J"],
        vec!["portfolio", "price", "60\u{1b}[2J0519", "10"],
        vec!["portfolio", "show", "mi\u{1b}[2Jne"],
    ] {
        let out = run(&home, &args);
        let said = text(&out);
        assert!(!out.status.success(), "{args:?}: {said}");
        assert!(
            !rewrites(&said) && said.contains("\\u{1b}[2"),
            "{args:?}: {said:?}"
        );
    }
}

/// The `note` column took `\e]0;pwned\a … \e[2J`, and `portfolio export` then printed it raw,
/// retitling and clearing the terminal. The note is refused at import by line and column.
#[test]
fn a_note_with_an_escape_sequence_is_refused_by_line_and_column() {
    let (dir, home) = home();
    ok(&home, &["portfolio", "add", "mine"]);
    let file = dir.path().join("notes.csv");
    std::fs::write(
        &file,
        "date,type,symbol,quantity,price,fee,note\n\
         2024-01-02,BUY,600519,100,1500,5,fine\tnote\n\
         2024-01-03,BUY,600519,100,1500,5,hi\u{1b}]0;pwned\u{7}there\u{1b}[2J\n",
    )
    .unwrap();
    let file = file.display().to_string();
    let out = run(&home, &["portfolio", "import", "mine", &file]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(!rewrites(&said), "{said:?}");
    assert!(
        said.contains("line 3: note: contains the control character U+001B"),
        "{said}"
    );
    let exported = run(&home, &["portfolio", "export", "mine"]);
    assert!(!exported.stdout.contains(&0x1b), "{}", text(&exported));
}
