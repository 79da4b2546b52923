//! The portfolio API over real loopback HTTP against a real store (a SQLite file, and the local
//! PostgreSQL), in multi-user mode so that whose portfolio it is matters: the list, the
//! snapshot with the CLI's figures for the sample broker export, the curve ending at the
//! snapshot's all-period return, the bases in the reader's language, the refusals (unknown
//! portfolio, a day that is no date, records that cannot be valued), and another user seeing
//! none of it.

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
