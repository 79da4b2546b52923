//! The portfolio API over real loopback HTTP against a real store (a SQLite file, and the local
//! PostgreSQL), in multi-user mode so that whose portfolio it is matters: the list, the
//! snapshot with the CLI's figures for the sample broker export, the curve ending at the
//! snapshot's all-period return, the bases in the reader's language, the refusals (unknown
//! portfolio, a day that is no date, records that cannot be valued), and another user seeing
//! none of it. Then the writes the web app makes: a portfolio and its accounts created, a CSV
//! previewed with a duplicate and a bad line and confirmed, a trade recorded and corrected, a
//! price and a rate recorded, each refusal under its field.

use nofxi_domain::{Actor, Channel, Secret};
use nofxi_portfolio::csv_io::preview;
use nofxi_portfolio::domain::{Account, Portfolio};
use nofxi_portfolio::performance::snapshot;
use nofxi_server::access::Mode;
use nofxi_store::Scope;
use nofxi_store::test_support::{TestStore, postgres_store, sqlite_store};
use serde_json::Value;

mod support;

use support::portfolio::{SAMPLE_DAY, add_sample_portfolio, currency};
use support::{TestResult, start_server};

/// A caller with an API token.
struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Client {
    /// `method path` with a JSON body: the status and the reply.
    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
    ) -> Result<(u16, Value), reqwest::Error> {
        let resp = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .header("Accept-Language", "en")
            .json(&body)
            .send()
            .await?;
        let status = resp.status().as_u16();
        Ok((status, resp.json().await.unwrap_or(Value::Null)))
    }

    async fn post(&self, path: &str, body: Value) -> Result<(u16, Value), reqwest::Error> {
        self.send(reqwest::Method::POST, path, body).await
    }

    async fn get(&self, path: &str) -> Result<(u16, Value), reqwest::Error> {
        self.get_in(path, "en").await
    }

    /// `path` read with `Accept-Language: lang`.
    async fn get_in(&self, path: &str, lang: &str) -> Result<(u16, Value), reqwest::Error> {
        let resp = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .header("Accept-Language", lang)
            .send()
            .await?;
        let status = resp.status().as_u16();
        Ok((status, resp.json().await.unwrap_or(Value::Null)))
    }
}

/// The figure `field` (a `{value, basis}`) of a reply, as its decimal text.
fn value(reply: &Value, pointer: &str) -> String {
    reply
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The all-period returns of a snapshot reply.
fn all_period(shot: &Value) -> Value {
    shot["returns"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["period"] == "all"))
        .cloned()
        .unwrap_or(Value::Null)
}

async fn scenario(ts: TestStore) -> TestResult {
    let store = ts.store.clone();
    for user in ["alice", "bob"] {
        store
            .add_user(user, &Secret::new("correct horse battery"))
            .await?;
    }
    add_sample_portfolio(&store, "alice", "mine").await?;
    let token = |user: &'static str| {
        let store = store.clone();
        async move {
            let made = store.create_token(user, "script", &[Scope::Read]).await?;
            Ok::<_, nofxi_store::StoreError>(made.text.to_string())
        }
    };
    let server = start_server(store.clone(), None).await?;
    assert_eq!(server.mode, Mode::Users);
    let client = |token: String| Client {
        http: reqwest::Client::new(),
        base: server.base.clone(),
        token,
    };
    let alice = client(token("alice").await?);
    let bob = client(token("bob").await?);

    // The list: what `nofxi portfolio list` shows.
    let (status, listed) = alice.get("/api/portfolios").await?;
    assert_eq!(status, 200, "{listed}");
    let mine = &listed["items"][0];
    assert_eq!(
        (
            &mine["name"],
            &mine["base_currency"],
            &mine["cost_method"],
            &mine["records"]
        ),
        (
            &Value::from("mine"),
            &Value::from("CNY"),
            &Value::from("fifo"),
            &Value::from(4)
        ),
        "{listed}"
    );
    assert_eq!(mine["accounts"][0]["name"], "main", "{listed}");

    // The snapshot: `nofxi portfolio show --on 2024-01-05`'s figures, and the very snapshot
    // the portfolio crate computes from the same records, plus its bases in words.
    let (status, shot) = alice
        .get(&format!("/api/portfolios/mine?on={SAMPLE_DAY}"))
        .await?;
    assert_eq!(status, 200, "{shot}");
    assert_eq!(value(&shot, "/value"), "100781.59", "{shot}");
    assert_eq!(value(&shot, "/unrealized/value"), "391.91");
    assert_eq!(value(&shot, "/realized/value"), "389.68");
    assert_eq!(value(&shot, "/on"), SAMPLE_DAY);
    let moutai = &shot["holdings"][0];
    assert_eq!(
        (
            &moutai["key"]["instrument"]["symbol"],
            &moutai["quantity"],
            &moutai["priced_at"]
        ),
        (
            &Value::from("600519"),
            &Value::from("6"),
            &Value::from(SAMPLE_DAY)
        ),
        "{shot}"
    );
    let all = all_period(&shot);
    assert_eq!(value(&all, "/time_weighted/value"), "0.0078159", "{shot}");
    let portfolio = store.portfolio("alice", "mine").await?;
    let expected = snapshot(
        &portfolio,
        &store.portfolio_transactions("alice", "mine").await?,
        &store.price_marks("alice").await?,
        &store.fx_marks("alice").await?,
        SAMPLE_DAY.parse()?,
    )?;
    let mut figures = shot.clone();
    let described = figures
        .as_object_mut()
        .and_then(|o| o.remove("described"))
        .unwrap_or(Value::Null);
    assert_eq!(figures, serde_json::to_value(&expected)?);
    assert!(
        described["unrealized"]
            .as_str()
            .is_some_and(|d| d.contains("unrealized at prices of 2024-01-05")),
        "{described}"
    );
    assert_eq!(
        described["holdings"].as_array().map(Vec::len),
        shot["holdings"].as_array().map(Vec::len)
    );
    assert_eq!(
        described["returns"].as_array().map(Vec::len),
        Some(5),
        "{described}"
    );
    let (_, in_chinese) = alice
        .get_in(&format!("/api/portfolios/mine?on={SAMPLE_DAY}"), "zh-CN")
        .await?;
    assert!(
        in_chinese["described"]["unrealized"]
            .as_str()
            .is_some_and(|d| d.contains("浮动盈亏")),
        "{}",
        in_chinese["described"]
    );

    // The curve: every day from the first record, ending at the all-period return.
    let (status, curve) = alice
        .get(&format!("/api/portfolios/mine/curve?on={SAMPLE_DAY}"))
        .await?;
    assert_eq!(status, 200, "{curve}");
    let points = curve["points"].as_array().cloned().unwrap_or_default();
    let dates: Vec<&str> = points.iter().filter_map(|p| p["date"].as_str()).collect();
    assert_eq!(
        dates,
        ["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"]
    );
    let last = points.last().cloned().unwrap_or(Value::Null);
    assert_eq!(last["twr"], all["time_weighted"]["value"], "{curve}");
    assert_eq!(last["value"], shot["value"], "{curve}");
    assert!(
        curve["described"]
            .as_str()
            .is_some_and(|d| d.contains("2024-01-02 to 2024-01-05")),
        "{curve}"
    );
    let (_, before) = alice
        .get("/api/portfolios/mine/curve?on=2023-12-31")
        .await?;
    assert_eq!(before["points"], Value::Array(vec![]), "{before}");

    // Refusals: an unknown name is a 404 in the store's words, a day that is no date a 400
    // naming `on`.
    for path in ["/api/portfolios/nope", "/api/portfolios/nope/curve"] {
        let (status, missing) = alice.get(path).await?;
        assert_eq!(status, 404, "{path}: {missing}");
        assert!(
            missing["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("no portfolio \"nope\"")),
            "{missing}"
        );
    }
    for path in [
        "/api/portfolios/mine?on=2024-13-01",
        "/api/portfolios/mine/curve?on=yesterday",
    ] {
        let (status, bad) = alice.get(path).await?;
        assert_eq!(status, 400, "{path}: {bad}");
        assert_eq!(bad["error"]["problems"][0]["field"], "on", "{bad}");
    }

    // Records that cannot be valued: a US-dollar deposit in a yuan portfolio with no rate.
    let actor = Actor::new("alice", Channel::Cli, true);
    let mut abroad = Portfolio::new("abroad", currency("CNY")?);
    abroad.accounts.push(Account {
        name: "us".into(),
        broker: String::new(),
        currency: currency("USD")?,
    });
    store.create_portfolio(&actor, &abroad).await?;
    let plan = preview(
        &abroad,
        &[],
        "date,type,amount,currency,account\n2024-01-02,DEPOSIT,1000,USD,us\n",
    );
    assert!(plan.errors.is_empty(), "{}", plan.error_report());
    store.import_transactions(&actor, "abroad", &plan).await?;
    let (status, refused) = alice
        .get(&format!("/api/portfolios/abroad?on={SAMPLE_DAY}"))
        .await?;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(refused["error"]["code"], "validation", "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("USD")),
        "{refused}"
    );

    // Bob sees no portfolio of Alice's, by list or by name, and learns none of her figures.
    let (status, his) = bob.get("/api/portfolios").await?;
    assert_eq!(
        (status, &his["items"]),
        (200, &Value::Array(vec![])),
        "{his}"
    );
    for path in [
        format!("/api/portfolios/mine?on={SAMPLE_DAY}"),
        format!("/api/portfolios/mine/curve?on={SAMPLE_DAY}"),
    ] {
        let (status, reply) = bob.get(&path).await?;
        assert_eq!(status, 404, "{path}: {reply}");
        let text = reply.to_string();
        assert!(
            !text.contains("100781") && !text.contains("600519"),
            "{text}"
        );
    }

    // The document describes the three routes, and every reference in it resolves.
    let (_, doc) = alice.get("/api/openapi.json").await?;
    for path in [
        "/api/portfolios",
        "/api/portfolios/{name}",
        "/api/portfolios/{name}/curve",
    ] {
        assert!(doc["paths"][path]["get"].is_object(), "{path} missing");
    }
    let text = doc.to_string();
    for piece in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
        let name = piece.split('"').next().unwrap_or_default();
        assert!(
            doc["components"]["schemas"][name].is_object(),
            "dangling $ref {name}"
        );
    }
    let view = &doc["components"]["schemas"]["PortfolioView"]["properties"];
    for field in [
        "holdings",
        "value",
        "unrealized",
        "returns",
        "allocation",
        "described",
    ] {
        assert!(
            view[field].is_object(),
            "PortfolioView lacks {field}: {view}"
        );
    }

    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn portfolios_on_sqlite() -> TestResult {
    scenario(sqlite_store().await?).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn portfolios_on_postgres() -> TestResult {
    scenario(postgres_store().await?).await
}

/// The fields named by a refusal's `problems`.
fn problem_fields(reply: &Value) -> Vec<String> {
    reply["error"]["problems"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .filter_map(|p| p["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A broker's file already imported, and a second one repeating its buy (a duplicate), with a
/// new buy and, on line 4, a price that is no number.
const FIRST_FILE: &str = "date,type,code,quantity,price,amount,account
2024-01-02,DEPOSIT,,,,100000,huatai
2024-01-02,BUY,600519,10,1500,,huatai
";
const SECOND_FILE: &str = "date,type,code,quantity,price,amount,account,broker ref
2024-01-02,BUY,600519,10,1500,,huatai,A1
2024-01-03,BUY,510300,1000,3.5,,huatai,A2
2024-01-03,BUY,510300,100,abc,,huatai,A3
";

async fn create_portfolio_and_accounts(alice: &Client) -> TestResult {
    let (status, made) = alice
        .post(
            "/api/portfolios",
            serde_json::json!({"name": "web", "accounts": [{"name": "huatai"}, {"name": "futu", "currency": "HKD"}]}),
        )
        .await?;
    assert_eq!(status, 201, "{made}");
    assert_eq!(
        (
            &made["base_currency"],
            &made["cost_method"],
            &made["records"]
        ),
        (&Value::from("CNY"), &Value::from("fifo"), &Value::from(0)),
        "{made}"
    );
    assert_eq!(made["accounts"][1]["currency"], "HKD", "{made}");
    // A currency that is none, and a method that is none: each under its field, with the fix.
    let (status, refused) = alice
        .post(
            "/api/portfolios",
            serde_json::json!({"name": "odd", "base_currency": "MINE", "cost_method": "random"}),
        )
        .await?;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(
        problem_fields(&refused),
        ["base_currency", "cost_method"],
        "{refused}"
    );
    assert!(refused.to_string().contains("ISO 4217"), "{refused}");
    let (status, taken) = alice
        .post("/api/portfolios", serde_json::json!({"name": "WEB"}))
        .await?;
    assert_eq!(status, 409, "{taken}");
    // An account added later; a name already used is refused under `name`.
    let (status, added) = alice
        .post(
            "/api/portfolios/web/accounts",
            serde_json::json!({"name": "ib", "currency": "usd"}),
        )
        .await?;
    assert_eq!(status, 200, "{added}");
    assert_eq!(added["accounts"][2]["currency"], "USD", "{added}");
    let (status, again) = alice
        .post(
            "/api/portfolios/web/accounts",
            serde_json::json!({"name": "IB"}),
        )
        .await?;
    assert_eq!(status, 422, "{again}");
    assert_eq!(problem_fields(&again), ["name"], "{again}");
    Ok(())
}

async fn import_with_preview(alice: &Client, store: &nofxi_store::Store) -> TestResult {
    let (status, first) = alice
        .post(
            "/api/portfolios/web/import",
            serde_json::json!({"csv": FIRST_FILE, "confirm": true}),
        )
        .await?;
    assert_eq!(
        (status, &first["written"]),
        (200, &Value::from(2)),
        "{first}"
    );
    // The preview: the repeated buy is a duplicate, line 4's price is named, the unknown
    // column is said, and nothing is written.
    let (status, plan) = alice
        .post(
            "/api/portfolios/web/import",
            serde_json::json!({"csv": SECOND_FILE}),
        )
        .await?;
    assert_eq!(status, 200, "{plan}");
    assert_eq!(
        (&plan["new"], &plan["duplicates"], &plan["written"]),
        (&Value::from(1), &Value::from(1), &Value::from(0)),
        "{plan}"
    );
    assert_eq!(plan["rows"][0]["status"], "duplicate", "{plan}");
    assert_eq!(plan["rows"][1]["transaction"]["quantity"], "1000", "{plan}");
    assert_eq!(plan["errors"][0]["line"], 4, "{plan}");
    assert_eq!(plan["errors"][0]["problems"][0]["field"], "price", "{plan}");
    assert_eq!(plan["unknown_columns"][0], "broker ref", "{plan}");
    // Confirmed with the bad line: refused by line, nothing written.
    let (status, refused) = alice
        .post(
            "/api/portfolios/web/import",
            serde_json::json!({"csv": SECOND_FILE, "confirm": true}),
        )
        .await?;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(problem_fields(&refused), ["line 4: price"], "{refused}");
    assert_eq!(store.portfolio_transactions("alice", "web").await?.len(), 2);
    // The line fixed: the new row written, the duplicate skipped.
    let fixed = SECOND_FILE.replace("100,abc", "100,3.6");
    let (status, done) = alice
        .post(
            "/api/portfolios/web/import",
            serde_json::json!({"csv": fixed, "confirm": true}),
        )
        .await?;
    assert_eq!(status, 200, "{done}");
    assert_eq!(
        (&done["written"], &done["duplicates"]),
        (&Value::from(2), &Value::from(1)),
        "{done}"
    );
    assert_eq!(store.portfolio_transactions("alice", "web").await?.len(), 4);
    Ok(())
}

async fn record_and_correct_a_trade(alice: &Client) -> TestResult {
    let sale = serde_json::json!({
        "date": "2024-01-04", "type": "卖出", "symbol": "600519.SH",
        "quantity": "4", "price": "1,600", "account": "huatai",
    });
    let (status, sold) = alice
        .post("/api/portfolios/web/records", sale.clone())
        .await?;
    assert_eq!(status, 201, "{sold}");
    assert_eq!(
        (&sold["record"]["kind"], &sold["record"]["price"]),
        (&Value::from("SELL"), &Value::from("1600")),
        "{sold}"
    );
    let id = sold["id"].as_str().unwrap_or_default().to_string();
    // The same sale again is what an import skips: refused unless `again`.
    let (status, twice) = alice.post("/api/portfolios/web/records", sale).await?;
    assert_eq!(status, 409, "{twice}");
    assert_eq!(problem_fields(&twice), ["again"], "{twice}");
    // Every problem of a form at once, each by its field.
    let (status, bad) = alice
        .post(
            "/api/portfolios/web/records",
            serde_json::json!({"date": "2024-02-30", "type": "BUY", "symbol": "600519", "quantity": "-5", "account": "huatai"}),
        )
        .await?;
    assert_eq!(status, 422, "{bad}");
    let fields = problem_fields(&bad);
    for field in ["date", "price", "quantity"] {
        assert!(
            fields.iter().any(|f| f == field),
            "{field} not in {fields:?}: {bad}"
        );
    }
    // More than is held cannot be sold.
    let (status, short) = alice
        .post(
            "/api/portfolios/web/records",
            serde_json::json!({"date": "2024-01-04", "type": "SELL", "symbol": "600519", "quantity": "50", "price": "1600", "account": "huatai"}),
        )
        .await?;
    assert_eq!(status, 422, "{short}");
    // The sale corrected: its price was 1650; it keeps its place among the records.
    let corrected = serde_json::json!({
        "date": "2024-01-04", "type": "SELL", "symbol": "600519",
        "quantity": "4", "price": "1650", "account": "huatai",
    });
    let path = format!("/api/portfolios/web/records/{id}");
    let (status, fixed) = alice
        .send(reqwest::Method::PUT, &path, corrected.clone())
        .await?;
    assert_eq!(status, 200, "{fixed}");
    let (_, listed) = alice.get("/api/portfolios/web/records").await?;
    let items = listed["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(items.len(), 5, "{listed}");
    assert_eq!(
        (&items[4]["id"], &items[4]["price"]),
        (&Value::from(id.as_str()), &Value::from("1650")),
        "{listed}"
    );
    // A correction the book cannot take (selling 40 of 10) and an unknown record.
    let oversold = serde_json::json!({
        "date": "2024-01-04", "type": "SELL", "symbol": "600519",
        "quantity": "40", "price": "1650", "account": "huatai",
    });
    let (status, refused) = alice.send(reqwest::Method::PUT, &path, oversold).await?;
    assert_eq!(status, 422, "{refused}");
    let (status, missing) = alice
        .send(
            reqwest::Method::PUT,
            "/api/portfolios/web/records/nope",
            corrected,
        )
        .await?;
    assert_eq!(status, 404, "{missing}");
    Ok(())
}

async fn record_a_price_and_a_rate(alice: &Client) -> TestResult {
    let (status, price) = alice
        .post(
            "/api/marks/prices",
            serde_json::json!({"code": "600519", "price": "1550", "date": "2024-01-05"}),
        )
        .await?;
    assert_eq!(status, 200, "{price}");
    assert_eq!(price["instrument"]["symbol"], "600519", "{price}");
    let (status, bad) = alice
        .post(
            "/api/marks/prices",
            serde_json::json!({"code": "NYSE:IBM", "price": "abc", "date": "soon"}),
        )
        .await?;
    assert_eq!(status, 422, "{bad}");
    assert_eq!(problem_fields(&bad), ["code", "price", "date"], "{bad}");
    // `1 MINE = 7.1 USD` is no rate: the currency is named with the fix.
    let (status, mine) = alice
        .post(
            "/api/marks/rates",
            serde_json::json!({"from": "mine", "to": "USD", "rate": "7.1"}),
        )
        .await?;
    assert_eq!(status, 422, "{mine}");
    assert_eq!(problem_fields(&mine), ["from"], "{mine}");
    assert!(mine.to_string().contains("ISO 4217"), "{mine}");
    let (status, rate) = alice
        .post(
            "/api/marks/rates",
            serde_json::json!({"from": "HKD", "to": "CNY", "rate": "0.91", "date": "2024-01-05"}),
        )
        .await?;
    assert_eq!(status, 200, "{rate}");
    assert_eq!(
        (&rate["from"], &rate["rate"]),
        (&Value::from("HKD"), &Value::from("0.91"))
    );
    // The portfolio on that day: 6 left of 600519, valued at the price recorded.
    let (status, shot) = alice.get("/api/portfolios/web?on=2024-01-05").await?;
    assert_eq!(status, 200, "{shot}");
    let moutai = shot["holdings"]
        .as_array()
        .and_then(|hs| {
            hs.iter()
                .find(|h| h["key"]["instrument"]["symbol"] == "600519")
                .cloned()
        })
        .unwrap_or(Value::Null);
    assert_eq!(
        (&moutai["quantity"], &moutai["price"]),
        (&Value::from("6"), &Value::from("1550")),
        "{shot}"
    );
    Ok(())
}

async fn edits(ts: TestStore) -> TestResult {
    let store = ts.store.clone();
    for user in ["alice", "bob"] {
        store
            .add_user(user, &Secret::new("correct horse battery"))
            .await?;
    }
    let server = start_server(store.clone(), None).await?;
    let client = |token: String| Client {
        http: reqwest::Client::new(),
        base: server.base.clone(),
        token,
    };
    let write = [Scope::Read, Scope::Write];
    let alice = client(
        store
            .create_token("alice", "web", &write)
            .await?
            .text
            .to_string(),
    );
    let bob = client(
        store
            .create_token("bob", "web", &write)
            .await?
            .text
            .to_string(),
    );
    let reader = client(
        store
            .create_token("alice", "read", &[Scope::Read])
            .await?
            .text
            .to_string(),
    );
    create_portfolio_and_accounts(&alice).await?;
    import_with_preview(&alice, &store).await?;
    record_and_correct_a_trade(&alice).await?;
    record_a_price_and_a_rate(&alice).await?;

    // Bob cannot write into Alice's portfolio, and a read-only token writes nothing.
    let trade = serde_json::json!({"date": "2024-01-05", "type": "DEPOSIT", "amount": "1", "account": "huatai"});
    let (status, _) = bob
        .post("/api/portfolios/web/records", trade.clone())
        .await?;
    assert_eq!(status, 404);
    let (status, _) = reader.post("/api/portfolios/web/records", trade).await?;
    assert_eq!(status, 403);
    assert_eq!(store.portfolio_transactions("alice", "web").await?.len(), 5);

    // Every new route is in the document.
    let (_, doc) = alice.get("/api/openapi.json").await?;
    for (path, method) in [
        ("/api/portfolios", "post"),
        ("/api/portfolios/{name}/accounts", "post"),
        ("/api/portfolios/{name}/import", "post"),
        ("/api/portfolios/{name}/records", "get"),
        ("/api/portfolios/{name}/records", "post"),
        ("/api/portfolios/{name}/records/{id}", "put"),
        ("/api/marks/prices", "post"),
        ("/api/marks/rates", "post"),
    ] {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} missing"
        );
    }
    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn portfolio_edits_on_sqlite() -> TestResult {
    edits(sqlite_store().await?).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn portfolio_edits_on_postgres() -> TestResult {
    edits(postgres_store().await?).await
}
