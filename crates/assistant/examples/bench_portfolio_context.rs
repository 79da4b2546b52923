//! Prompt tokens of an open question about one holding, with 30 holdings stored: the composed
//! context (that holding's figures alone, REFERENCE §4's minimal context) against injecting
//! everything (every holding's figures and every record). Issue 28's goal is ≥ 10× smaller.
//!
//! Tokens are `nofxi_llm::tokens::estimate_tokens` (one per CJK character, one per four bytes
//! of the rest), the estimate the composer budgets with; the ratio is what matters.
//!
//! `cargo run --release -p nofxi-assistant --example bench_portfolio_context`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;

use nofxi_assistant::compose::compose;
use nofxi_assistant::nlu::names::Names;
use nofxi_assistant::tools::{portfolio_answer, portfolio_show_args};
use nofxi_llm::tokens::estimate_tokens;
use nofxi_skills::Lang;
use nofxi_store::test_support::{TestStore, seed_portfolio, sqlite_store};

const USER: &str = "bench";
const HOLDINGS: usize = 30;
const QUESTION: &str = "茅台最近表现怎么样，要不要加仓？";

/// 30 A-share holdings, Moutai among them, each bought twice and partly sold, plus the
/// deposit that paid for them.
fn records_csv() -> String {
    let mut csv = String::from("date,code,type,quantity,price,amount,fee,account\n");
    csv.push_str("2025-01-02,,DEPOSIT,,,5000000,,main\n");
    for i in 0..HOLDINGS {
        let code = match i {
            0 => "600519.SH".to_string(),
            _ => format!("{}.SH", 600100 + i),
        };
        let price = 10 + i;
        writeln!(
            csv,
            "2025-02-{:02},{code},BUY,1000,{price},,5,main",
            1 + i % 27
        )
        .unwrap();
        writeln!(
            csv,
            "2025-05-{:02},{code},BUY,500,{},,5,main",
            1 + i % 27,
            price + 2
        )
        .unwrap();
        writeln!(
            csv,
            "2025-09-{:02},{code},SELL,300,{},,5,main",
            1 + i % 27,
            price + 4
        )
        .unwrap();
    }
    csv
}

async fn store_with_book() -> TestStore {
    let test = sqlite_store().await.unwrap();
    seed_portfolio(&test.store, USER, "core", &records_csv())
        .await
        .unwrap();
    test
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let test = store_with_book().await;
    let store = &test.store;
    let names = Names::default();
    let composed = compose(store, USER, &names, &[], QUESTION, Lang::Zh).await;
    let minimal = estimate_tokens(&composed.system) + estimate_tokens(&composed.user);

    // Everything: the same prompt with every holding's figures and every record in it.
    let book = store.portfolio_book(USER, "core").await.unwrap();
    let mut everything = format!("{}\n{}\n", composed.system, composed.user);
    for record in &book.records {
        everything.push_str(&serde_json::to_string(record).unwrap());
        everything.push('\n');
    }
    let codes: Vec<String> = book
        .records
        .iter()
        .filter_map(|t| t.instrument.as_ref())
        .map(|i| format!("{}.{}", i.symbol, i.market.code()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    for code in &codes {
        let text = portfolio_answer(store, USER, Lang::Zh, &portfolio_show_args(code))
            .await
            .unwrap();
        everything.push_str(&text);
        everything.push('\n');
    }
    let all = estimate_tokens(&everything);
    println!("question: {QUESTION}");
    println!(
        "holdings stored: {}, records: {}",
        codes.len(),
        book.records.len()
    );
    println!("composed context facts: {:?}", composed.facts);
    println!("prompt tokens, composed (one holding): {minimal}");
    println!("prompt tokens, everything injected:    {all}");
    println!("ratio: {:.1}x smaller", all as f64 / minimal as f64);
}
