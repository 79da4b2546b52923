//! The portfolio made in the browser alone (issue 51): a new user creates a portfolio on the
//! empty page (a currency that is none refused under its field first), uploads a Chinese
//! broker's GBK export, reads the preview and confirms it; a second file with a row already
//! recorded and a bad line is previewed with both said and cannot be confirmed; the line
//! fixed, the file imports with the duplicate skipped. On a desktop a trade is then recorded
//! and corrected from the page; the same upload story runs on a 375 px phone with nothing
//! scrolling sideways.

use serde_json::{Value, json};

use super::no_sideways_scroll;
use crate::harness::{Browser, TestResult, Viewport, with_app_and_browser};

/// The sample broker export (see `support::portfolio`), as the broker writes it: GBK.
const FIRST_FILE: &str = "成交日期,买卖方向,证券代码,成交数量,成交价格,手续费,发生金额
2024-01-02,银行转证券,,,,,100000
2024-01-02,证券买入,600519,10,1500.00,,
2024-01-03,证券买入,510300,1000,3.500,,
";
/// Line 2 is already recorded; line 3 is new; line 4's price is no number.
const SECOND_FILE: &str = "成交日期,买卖方向,证券代码,成交数量,成交价格,手续费,发生金额
2024-01-02,证券买入,600519,10,1500.00,,
2024-01-04,证券卖出,600519,4,1600.00,,
2024-01-04,证券买入,510300,100,三块五,,
";

/// `text` written as GBK into a file of its own; the path.
fn gbk_file(dir: &tempfile::TempDir, name: &str, text: &str) -> TestResult<String> {
    let (bytes, _, unmappable) = encoding_rs::GBK.encode(text);
    check!(!unmappable, "{name} has a character GBK cannot hold");
    let path = dir.path().join(name);
    std::fs::write(&path, &bytes)?;
    Ok(path.display().to_string())
}

/// Sets the fields of the form `css` (name → value) as typing would, `change` included.
async fn fill(b: &Browser, css: &str, values: Value) -> TestResult {
    let script = format!(
        "const f = document.querySelector({}); if (!f) return false;\
         for (const [k, v] of Object.entries({values})) {{\
           const el = f.elements.namedItem(k); el.value = v;\
           el.dispatchEvent(new Event('input', {{bubbles: true}}));\
           el.dispatchEvent(new Event('change', {{bubbles: true}})); }}\
         return true",
        json!(css)
    );
    check!(b.eval(&script).await? == json!(true), "no form {css}");
    Ok(())
}

/// The text under the field `name` of the form `css`, once there is some.
async fn field_error(b: &Browser, css: &str, name: &str) -> TestResult<String> {
    let text = b
        .wait_until(
            &format!("the error under {name}"),
            &format!(
                "const e = document.querySelector('{css} .field-error[data-field={name}]');\
                 return e && e.textContent"
            ),
        )
        .await?;
    Ok(text.as_str().unwrap_or_default().to_string())
}

/// The empty page's form: a base currency that is none is refused under it; fixed, the
/// portfolio is created and its page opens with the upload panel.
async fn create_on_the_empty_page(b: &Browser, phone: bool) -> TestResult {
    b.goto("#/portfolio").await?;
    b.wait_for("#new-portfolio-form input[name=name]").await?;
    b.screenshot("portfolio-new").await?;
    if phone {
        no_sideways_scroll(b, "new portfolio").await?;
    }
    fill(
        b,
        "#new-portfolio-form",
        json!({"name": "mine", "base_currency": "MINE", "accounts": "main"}),
    )
    .await?;
    b.click("#new-portfolio-form button[type=submit]").await?;
    let said = field_error(b, "#new-portfolio-form", "base_currency").await?;
    check!(
        said.contains("MINE") && said.contains("ISO 4217"),
        "the base currency's error reads {said:?}"
    );
    fill(b, "#new-portfolio-form", json!({"base_currency": "CNY"})).await?;
    b.click("#new-portfolio-form button[type=submit]").await?;
    b.wait_until(
        "the new portfolio's page",
        "return location.hash === '#/portfolio/mine' && !!document.querySelector('#import-panel #csv-file')",
    )
    .await?;
    Ok(())
}

/// Chooses `path` in the upload panel and waits for its preview's summary.
async fn preview(b: &Browser, path: &str) -> TestResult<String> {
    b.eval("const s = document.getElementById('import-summary'); if (s) s.remove(); return true")
        .await?;
    b.wait_for("#csv-file").await?.send_keys(path).await?;
    let summary = b
        .wait_until(
            "the upload's preview",
            "const s = document.getElementById('import-summary'); return s && s.textContent",
        )
        .await?;
    Ok(summary.as_str().unwrap_or_default().to_string())
}

/// Confirms the preview shown; the panel's result.
async fn confirm(b: &Browser) -> TestResult<String> {
    b.click("#import-confirm:not([disabled])").await?;
    let done = b
        .wait_until(
            "the import's result",
            "const a = document.querySelector('#import-panel .alert.ok'); return a && a.textContent",
        )
        .await?;
    Ok(done.as_str().unwrap_or_default().to_string())
}

/// The three uploads: the export (3 rows), the second file refused for its bad line with
/// the duplicate said, and the line fixed.
async fn upload_preview_confirm(b: &Browser, dir: &tempfile::TempDir, phone: bool) -> TestResult {
    let first = gbk_file(dir, "broker.csv", FIRST_FILE)?;
    let summary = preview(b, &first).await?;
    check!(
        summary.contains("3 new row(s)") && summary.contains("0 already recorded"),
        "the first preview says {summary:?}"
    );
    let rows = b
        .eval("return document.querySelectorAll('#import-rows tbody tr[data-status=new]').length")
        .await?;
    check!(
        rows == json!(3),
        "{rows} new rows in the preview table, not 3"
    );
    b.screenshot("portfolio-preview").await?;
    if phone {
        no_sideways_scroll(b, "upload preview").await?;
    }
    let done = confirm(b).await?;
    check!(done.contains("Wrote 3 row(s)"), "the import says {done:?}");
    b.wait_for("#holdings-table tr[data-holding=\"SH:600519\"]")
        .await?;

    let second = gbk_file(dir, "second.csv", SECOND_FILE)?;
    let summary = preview(b, &second).await?;
    check!(
        summary.contains("1 new row(s)")
            && summary.contains("1 already recorded")
            && summary.contains("1 line(s) with problems"),
        "the second preview says {summary:?}"
    );
    let problem = b
        .eval(
            "const r = document.querySelector('#import-errors tr[data-line=\"4\"][data-field=price]');\
             const d = document.querySelector('#import-rows tr[data-line=\"2\"][data-status=duplicate]');\
             const c = document.getElementById('import-confirm');\
             return [!!r, r && r.textContent, !!d, c && c.disabled]",
        )
        .await?;
    check!(
        problem[0] == json!(true)
            && problem[1].as_str().is_some_and(|t| t.contains("三块五"))
            && problem[2] == json!(true)
            && problem[3] == json!(true),
        "[line 4's price named, its text, line 2 a duplicate, confirm disabled] = {problem}"
    );
    b.screenshot("portfolio-preview-problems").await?;
    if phone {
        no_sideways_scroll(b, "upload problems").await?;
    }

    let fixed = gbk_file(dir, "fixed.csv", &SECOND_FILE.replace("三块五", "3.60"))?;
    let summary = preview(b, &fixed).await?;
    check!(
        summary.contains("2 new row(s)") && summary.contains("1 already recorded"),
        "the fixed file's preview says {summary:?}"
    );
    let done = confirm(b).await?;
    check!(
        done.contains("Wrote 2 row(s)") && done.contains("1 already recorded"),
        "the second import says {done:?}"
    );
    let records = b
        .wait_until(
            "the records table with 5 records",
            "const n = document.querySelectorAll('#records-table tbody tr').length; return n === 5 && n",
        )
        .await?;
    check!(records == json!(5), "{records} records listed");
    Ok(())
}

/// A trade typed into the form, then corrected from the records table.
async fn record_and_correct(b: &Browser) -> TestResult {
    b.click("#portfolio-record").await?;
    b.wait_for("#record-form").await?;
    fill(
        b,
        "#record-form",
        json!({"type": "SELL", "date": "2024-01-05", "symbol": "600519", "quantity": "2", "price": "1700"}),
    )
    .await?;
    b.click("#record-form button[type=submit]").await?;
    let sale = "#records-table tr[data-kind=SELL]";
    b.wait_until(
        "the sale of 2 in the records",
        &format!(
            "return [...document.querySelectorAll('{sale}')].some(r => r.querySelector('td[data-col=price]').textContent === '1700')"
        ),
    )
    .await?;
    b.eval(&format!(
        "const r = [...document.querySelectorAll('{sale}')].find(r => r.querySelector('td[data-col=price]').textContent === '1700');\
         r.querySelector('button[data-action=correct]').click(); return true"
    ))
    .await?;
    let form = "#record-form[data-mode=correct]";
    let price = b
        .wait_until(
            "the correction form filled with the sale",
            &format!("const f = document.querySelector('{form}'); return f && f.elements.namedItem('price').value"),
        )
        .await?;
    check!(
        price == json!("1700"),
        "the correction form's price reads {price}"
    );
    fill(b, form, json!({"price": "1710"})).await?;
    b.click(&format!("{form} button[type=submit]")).await?;
    b.wait_until(
        "the corrected sale",
        &format!(
            "const p = [...document.querySelectorAll('{sale} td[data-col=price]')].map(c => c.textContent);\
             return p.includes('1710') && !p.includes('1700')"
        ),
    )
    .await?;
    b.screenshot("portfolio-corrected").await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portfolio_is_made_from_a_csv_in_the_browser() -> TestResult {
    let dir = tempfile::tempdir()?;
    with_app_and_browser(
        "portfolio-upload",
        Viewport::DESKTOP,
        &[],
        async |_app, b| {
            create_on_the_empty_page(b, false).await?;
            upload_preview_confirm(b, &dir, false).await?;
            record_and_correct(b).await?;
            Ok(())
        },
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portfolio_is_made_from_a_csv_on_a_phone() -> TestResult {
    let dir = tempfile::tempdir()?;
    with_app_and_browser(
        "portfolio-upload-phone",
        Viewport::PHONE,
        &[],
        async |_app, b| {
            create_on_the_empty_page(b, true).await?;
            upload_preview_confirm(b, &dir, true).await?;
            no_sideways_scroll(b, "portfolio with records").await?;
            b.screenshot("portfolio-imported").await?;
            Ok(())
        },
    )
    .await
}
