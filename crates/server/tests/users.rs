//! Multi-user mode over real loopback HTTP on a real store (SQLite and PostgreSQL): logins
//! with a session cookie and its CSRF token, scoped API tokens, revocation and disabling, the
//! login rate limit, and isolation — a second user sweeps every route of the API document
//! with the first user's ids and learns nothing of them and changes none of them.

use std::net::SocketAddr;
use std::time::Duration;

use futures::StreamExt;
use nofxi_domain::Secret;
use nofxi_server::access::Mode;
use nofxi_store::Scope;
use nofxi_store::test_support::{TestStore, postgres_store, sqlite_store};
use reqwest::Method;
use serde_json::{Value, json};

mod support;

use support::{TestResult, start_on, start_server};

const PASSWORD: &str = "correct horse battery";

/// How a client proves who it is.
#[derive(Clone)]
enum Credential {
    None,
    Token(String),
    /// A browser: the session cookie and its CSRF token.
    Session {
        cookie: String,
        csrf: String,
    },
}

struct Client {
    http: reqwest::Client,
    base: String,
    credential: Credential,
}

impl Client {
    fn new(base: &str, credential: Credential) -> Result<Client, reqwest::Error> {
        Ok(Client {
            http: reqwest::Client::builder().build()?,
            base: base.to_string(),
            credential,
        })
    }

    fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let req = self.http.request(method, format!("{}{path}", self.base));
        match &self.credential {
            Credential::None => req,
            Credential::Token(t) => req.bearer_auth(t),
            Credential::Session { cookie, csrf } => {
                req.header("Cookie", cookie).header("X-CSRF-Token", csrf)
            }
        }
    }

    /// Status and body text; an event stream is read for a moment only.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<(u16, String), reqwest::Error> {
        let mut req = self.request(method, path);
        if let Some(body) = body {
            req = req.json(&body);
        }
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        let streaming = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if !streaming {
            return Ok((status, resp.text().await?));
        }
        let mut text = String::new();
        let mut chunks = resp.bytes_stream();
        let deadline = tokio::time::Instant::now() + Duration::from_millis(700);
        while let Ok(Some(chunk)) = tokio::time::timeout_at(deadline, chunks.next()).await {
            text.push_str(&String::from_utf8_lossy(&chunk?));
        }
        Ok((status, text))
    }

    async fn json(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<(u16, Value), Box<dyn std::error::Error>> {
        let (status, text) = self.call(method, path, body).await?;
        Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    async fn login(&mut self, user: &str, password: &str) -> Result<u16, reqwest::Error> {
        let resp = self
            .http
            .post(format!("{}/api/login", self.base))
            .json(&json!({"user": user, "password": password}))
            .send()
            .await?;
        let status = resp.status().as_u16();
        let cookie = resp
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let session: Value = resp.json().await.unwrap_or(Value::Null);
        if status == 200 {
            assert!(
                cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
                "{cookie}"
            );
            let csrf = session["csrf_token"].as_str().unwrap_or_default();
            self.credential = Credential::Session {
                cookie: cookie.split(';').next().unwrap_or_default().to_string(),
                csrf: csrf.to_string(),
            };
        }
        Ok(status)
    }
}

/// Alice's objects of every kind (names carry a marker), made through her token.
struct AliceObjects {
    /// (route kind, id, name)
    ids: Vec<(&'static str, String, String)>,
    conversation: String,
    backtest: String,
}

async fn make_alice_objects(alice: &Client) -> Result<AliceObjects, Box<dyn std::error::Error>> {
    let mut ids = Vec::new();
    for (kind, body) in [
        (
            "exchanges",
            json!({"exchange_type": "paper", "account_name": "alicemark-ex"}),
        ),
        (
            "models",
            json!({"name": "alicemark-model", "provider": "builtin"}),
        ),
        ("strategies", json!({"name": "alicemark-strategy"})),
        (
            "traders",
            json!({"name": "alicemark-trader", "exchange": "alicemark-ex", "model": "alicemark-model", "strategy": "alicemark-strategy", "initial_balance": "1000"}),
        ),
    ] {
        let (status, made) = alice
            .json(Method::POST, &format!("/api/{kind}"), Some(body))
            .await?;
        assert_eq!(status, 201, "{kind}: {made}");
        let id = made["id"]
            .as_str()
            .or_else(|| made["item"]["id"].as_str())
            .unwrap_or_default()
            .to_string();
        assert!(!id.is_empty(), "{kind}: {made}");
        let name = format!("alicemark-{}", &kind[..kind.len() - 1]);
        ids.push((
            kind,
            id,
            name.replace("exchange", "ex")
                .replace("strategie", "strategy"),
        ));
    }
    let (status, accepted) = alice
        .json(
            Method::POST,
            "/api/chat/turns",
            Some(json!({"message": "list my traders alicemark-talk"})),
        )
        .await?;
    assert_eq!(status, 202, "{accepted}");
    let conversation = accepted["conversation_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (status, job) = alice
        .json(
            Method::POST,
            "/api/backtests",
            Some(json!({"strategy": "alicemark-strategy"})),
        )
        .await?;
    assert_eq!(status, 202, "{job}");
    let backtest = job["id"].as_str().unwrap_or_default().to_string();
    Ok(AliceObjects {
        ids,
        conversation,
        backtest,
    })
}

/// A route template with Alice's id (or her object's name) for its parameter.
fn with_alice_refs(template: &str, alice: &AliceObjects, by_name: bool) -> Option<String> {
    if template.contains("{*") {
        return None;
    }
    let id = if template.starts_with("/api/chat/conversations/") {
        alice.conversation.clone()
    } else if template.starts_with("/api/backtests/") {
        alice.backtest.clone()
    } else {
        let found = alice
            .ids
            .iter()
            .find(|(kind, _, _)| template.starts_with(&format!("/api/{kind}/")))
            .or(alice.ids.last());
        found
            .map(|(_, id, name)| if by_name { name.clone() } else { id.clone() })
            .unwrap_or_default()
    };
    let mut path = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
        path.push_str(&rest[..open]);
        path.push_str(&id);
        rest = &rest[close..];
    }
    path.push_str(rest);
    Some(path)
}

async fn scenario(ts: TestStore) -> TestResult {
    let store = ts.store.clone();
    for user in ["alice", "bob"] {
        store.add_user(user, &Secret::new(PASSWORD)).await?;
    }
    let alice_token = store
        .create_token("alice", "script", &Scope::ALL)
        .await?
        .text;
    let bob_token = store.create_token("bob", "script", &Scope::ALL).await?.text;
    let bob_reader = store
        .create_token("bob", "reader", &[Scope::Read])
        .await?
        .text;
    let bob_writer = store
        .create_token("bob", "writer", &[Scope::Read, Scope::Write])
        .await?;

    let server = start_server(store.clone(), None).await?;
    assert_eq!(server.mode, Mode::Users);
    let base = server.base.clone();

    // Anonymous: only the public routes answer.
    let anon = Client::new(&base, Credential::None)?;
    assert_eq!(anon.call(Method::GET, "/healthz", None).await?.0, 200);
    assert_eq!(anon.call(Method::GET, "/", None).await?.0, 200);
    let (status, body) = anon.json(Method::GET, "/api/traders", None).await?;
    assert_eq!(status, 401, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("/api/login"))
    );
    assert_eq!(anon.call(Method::GET, "/api/session", None).await?.0, 401);
    assert_eq!(anon.call(Method::GET, "/metrics", None).await?.0, 401);

    // A browser logs in: cookie plus CSRF token; a change without the token is refused.
    let mut browser = Client::new(&base, Credential::None)?;
    assert_eq!(browser.login("alice", "wrong password!").await?, 401);
    assert_eq!(browser.login("alice", PASSWORD).await?, 200);
    let (status, session) = browser.json(Method::GET, "/api/session", None).await?;
    assert_eq!((status, session["user"].as_str()), (200, Some("alice")));
    assert_eq!(session["mode"], "users");
    let Credential::Session { cookie, .. } = browser.credential.clone() else {
        return Err("the login set no session".into());
    };
    let no_csrf = browser
        .http
        .post(format!("{base}/api/strategies"))
        .header("Cookie", cookie)
        .json(&json!({"name": "x"}))
        .send()
        .await?;
    assert_eq!(no_csrf.status().as_u16(), 403);

    let alice = Client::new(&base, Credential::Token(alice_token.to_string()))?;
    let objects = make_alice_objects(&alice).await?;
    let (_, listed) = browser.json(Method::GET, "/api/traders", None).await?;
    assert!(listed.to_string().contains("alicemark-trader"), "{listed}");

    // Bob sweeps every route of the document twice, once with Alice's ids and once with her
    // objects' names: no reply tells him what he did not send (her names, her ids, her
    // conversation), and nothing of hers changes.
    let before = alice.call(Method::GET, "/api/traders", None).await?.1;
    let bob = Client::new(&base, Credential::Token(bob_token.to_string()))?;
    let (_, document) = bob.json(Method::GET, "/api/openapi.json", None).await?;
    let paths = document["paths"].as_object().cloned().unwrap_or_default();
    assert!(paths.len() > 30, "{} paths", paths.len());
    let mut swept = 0;
    let trader = objects
        .ids
        .last()
        .map(|(_, id, _)| id.clone())
        .unwrap_or_default();
    for by_name in [false, true] {
        let target = if by_name {
            "alicemark-trader"
        } else {
            trader.as_str()
        };
        let body = json!({"conversation_id": objects.conversation, "message": format!("delete trader {target}"), "confirm": "x", "strategy": target});
        for (template, operations) in &paths {
            if template == "/api/login" || template == "/api/logout" {
                continue;
            }
            let Some(path) = with_alice_refs(template, &objects, by_name) else {
                continue;
            };
            for method in operations
                .as_object()
                .map(|o| o.keys())
                .into_iter()
                .flatten()
            {
                let method = Method::from_bytes(method.to_uppercase().as_bytes())?;
                let body = (method != Method::GET).then(|| body.clone());
                let (status, text) = bob.call(method.clone(), &path, body).await?;
                assert!(status < 500, "{method} {path}: {status} {text}");
                let leaked = if by_name {
                    objects
                        .ids
                        .iter()
                        .any(|(_, id, _)| text.contains(id.as_str()))
                        || text.contains("alicemark-talk")
                } else {
                    text.contains("alicemark")
                };
                assert!(!leaked, "{method} {path} as bob: {status} {text}");
                swept += 1;
            }
        }
    }
    assert!(swept > 40, "swept {swept} operations");
    let after = alice.call(Method::GET, "/api/traders", None).await?.1;
    assert_eq!(before, after, "bob's sweep changed alice's traders");
    for (kind, id, _) in &objects.ids {
        let (status, _) = alice
            .call(Method::GET, &format!("/api/{kind}/{id}"), None)
            .await?;
        assert_eq!(status, 200, "{kind} {id} gone after bob's sweep");
    }

    // Scopes: a read token reads and cannot write; without `trade` nothing starts.
    let reader = Client::new(&base, Credential::Token(bob_reader.to_string()))?;
    assert_eq!(reader.call(Method::GET, "/api/traders", None).await?.0, 200);
    let (status, refused) = reader
        .json(Method::POST, "/api/strategies", Some(json!({"name": "r"})))
        .await?;
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("write"))
    );
    let writer = Client::new(&base, Credential::Token(bob_writer.text.to_string()))?;
    let (status, refused) = writer
        .json(Method::POST, "/api/traders/x/start", None)
        .await?;
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("trade"))
    );
    assert_eq!(
        writer
            .call(
                Method::POST,
                "/api/chat/turns",
                Some(json!({"message": "hi"}))
            )
            .await?
            .0,
        403
    );

    // A revoked token and a disabled user's session stop working at once.
    store.revoke_token("bob", &bob_writer.token.id).await?;
    assert_eq!(writer.call(Method::GET, "/api/traders", None).await?.0, 401);
    assert_eq!(
        Client::new(&base, Credential::Token("nofxi_garbage".into()))?
            .call(Method::GET, "/api/traders", None)
            .await?
            .0,
        401
    );
    store.disable_user("alice").await?;
    assert_eq!(
        browser.call(Method::GET, "/api/session", None).await?.0,
        401
    );
    assert_eq!(alice.call(Method::GET, "/api/traders", None).await?.0, 401);

    // Logins are rate-limited per name and per address: after five failures from this
    // address (one above, four here) the next try is refused with a wait, even with the
    // right password.
    let mut guesser = Client::new(&base, Credential::None)?;
    for _ in 0..4 {
        assert_eq!(guesser.login("bob", "not the password").await?, 401);
    }
    let limited = guesser
        .http
        .post(format!("{base}/api/login"))
        .json(&json!({"user": "bob", "password": PASSWORD}))
        .send()
        .await?;
    assert_eq!(limited.status().as_u16(), 429);
    assert!(limited.headers().get("retry-after").is_some());

    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn users_on_sqlite() -> TestResult {
    scenario(sqlite_store().await?).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn users_on_postgres() -> TestResult {
    scenario(postgres_store().await?).await
}

/// With a user, any address may be listened on (here 0.0.0.0): every request must log in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_users_a_non_loopback_address_is_allowed() -> TestResult {
    let ts = sqlite_store().await?;
    ts.store.add_user("carol", &Secret::new(PASSWORD)).await?;
    let server = start_on(ts.store.clone(), None, SocketAddr::from(([0, 0, 0, 0], 0))).await?;
    assert_eq!(server.mode, Mode::Users);
    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}
