//! A credential sent with the wrong JSON type (a numeric OKX or Bitget passphrase, a key in an
//! array) on every route that takes a body: the error names the field and the type it takes,
//! and never repeats the value, in its message or as a problem's field.

mod support;

use nofxi_domain::CredentialField;
use nofxi_store::test_support::sqlite_store;
use serde_json::Value;

use support::TestResult;
use support::raw::Server;

/// Every credential name (exchange fields, a model's key, a login's password) sent as a
/// number, a float, inside an array or as a boolean, on every route with a body: the error
/// names the field and the type it takes, and never holds the value.
#[tokio::test]
async fn a_credential_of_the_wrong_type_is_named_never_repeated() -> TestResult {
    let ts = sqlite_store().await?;
    let server = Server::start(ts.store.clone()).await?;
    let routes = server.body_routes().await?;
    let (status, said) = server
        .json(
            "post",
            "/api/exchanges",
            r#"{"exchange_type":"paper","account_name":"main"}"#,
        )
        .await;
    assert_eq!(status, 201, "{said}");
    let (status, said) = server
        .json(
            "post",
            "/api/models",
            r#"{"name":"m","provider":"builtin"}"#,
        )
        .await;
    assert_eq!(status, 201, "{said}");
    let mut routes = routes;
    routes.push(("patch".into(), "/api/exchanges/main".into()));
    routes.push(("patch".into(), "/api/models/m".into()));

    let names = CredentialField::ALL
        .iter()
        .map(|f| f.as_str())
        .chain(["password"]);
    let values = [
        ("8675309424242", "8675309424242"),
        ("-8675309424242", "8675309424242"),
        ("86753.09424242", "8675309424242"),
        ("8.675309424242e12", "8675309424242"),
        ("[8675309424242]", "8675309424242"),
        ("{\"v\":8675309424242}", "8675309424242"),
    ];
    let mut named = 0;
    for name in names {
        for (value, digits) in values {
            for (method, path) in &routes {
                let body = match path.as_str() {
                    "/api/exchanges" => {
                        format!(r#"{{"exchange_type":"okx","account_name":"o","{name}":{value}}}"#)
                    }
                    _ => format!(r#"{{"{name}":{value}}}"#),
                };
                let (status, said) = server.json(method, path, &body).await;
                let what = format!("{method} {path} {body}");
                // Routes that ignore the field answer as they would without it.
                assert!((200..500).contains(&status), "{what}: {status} {said}");
                let squeezed: String = said.chars().filter(char::is_ascii_digit).collect();
                assert!(
                    !squeezed.contains(&digits[..8]),
                    "{what} repeats the value: {said}"
                );
                let answer: Value = serde_json::from_str(&said)?;
                let fields: Vec<&str> = answer["error"]["problems"]
                    .as_array()
                    .map(|p| p.iter().filter_map(|p| p["field"].as_str()).collect())
                    .unwrap_or_default();
                assert!(
                    fields
                        .iter()
                        .all(|f| !f.chars().any(|c| c.is_ascii_digit())),
                    "{what}: a value became a field: {said}"
                );
                if fields.contains(&name) {
                    named += 1;
                    let message = answer["error"]["message"].as_str().unwrap_or_default();
                    assert!(
                        message.contains(name)
                            && (message.contains("string") || message.contains("Unknown field")),
                        "{what}: {said}"
                    );
                }
            }
        }
    }
    // The resources that take these fields name them (not only refuse the body).
    assert!(named >= 10 * values.len(), "named {named}");
    let (status, said) = server
        .json(
            "post",
            "/api/exchanges",
            r#"{"exchange_type":"okx","account_name":"o","api_key":"k1234","secret_key":"s1234","passphrase":8675309424242}"#,
        )
        .await;
    assert_eq!(status, 422, "{said}");
    let answer: Value = serde_json::from_str(&said)?;
    assert_eq!(
        answer["error"]["problems"][0]["field"], "passphrase",
        "{said}"
    );
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("quotes"), "{said}");

    // A wrong type in an ordinary field is named by its field, not by its value.
    let (status, said) = server
        .json("patch", "/api/models/m", r#"{"name":12345678}"#)
        .await;
    assert_eq!(status, 422, "{said}");
    let answer: Value = serde_json::from_str(&said)?;
    assert_eq!(answer["error"]["problems"][0]["field"], "name", "{said}");

    server.running.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

/// A credential sent empty (`"passphrase": ""`, a key of blanks) is refused under its field,
/// saying what to give, and nothing changes: taken for "not given", the update answered 200
/// over a change it never made. A model's key alike. The store's one validation decides, as
/// for the CLI.
#[tokio::test]
async fn an_empty_credential_is_refused_by_name_and_changes_nothing() -> TestResult {
    let ts = sqlite_store().await?;
    let server = Server::start(ts.store.clone()).await?;
    let (status, made) = server
        .json(
            "post",
            "/api/exchanges",
            r#"{"exchange_type":"okx","account_name":"o","api_key":"AKIAKEYMATERIAL7f3e9c1d2b",
               "secret_key":"SECRETMATERIAL9a8b7c6d5e4f3","passphrase":"pass-phrase-42"}"#,
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let (_, before) = server.json("get", "/api/exchanges/o", "").await;
    for (body, fields) in [
        (r#"{"passphrase":""}"#, vec!["passphrase"]),
        (
            r#"{"api_key":"   ","secret_key":""}"#,
            vec!["api_key", "secret_key"],
        ),
        (
            r#"{"account_name":"renamed","passphrase":""}"#,
            vec!["passphrase"],
        ),
    ] {
        let (status, said) = server.json("patch", "/api/exchanges/o", body).await;
        assert_eq!(status, 422, "{body}: {said}");
        let said: Value = serde_json::from_str(&said)?;
        let named: Vec<&str> = said["error"]["problems"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["field"].as_str())
            .collect();
        assert_eq!(named, fields, "{said}");
        let message = said["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("is empty: give the") && !message.contains("••••"),
            "{message}"
        );
    }
    let (_, said) = server
        .json("patch", "/api/exchanges/o", r#"{"passphrase":""}"#)
        .await;
    assert!(
        said.contains("the passphrase you set when creating the OKX API key"),
        "{said}"
    );
    let (_, after) = server.json("get", "/api/exchanges/o", "").await;
    assert_eq!(after, before, "an empty credential changed the account");

    let (status, made) = server
        .json(
            "post",
            "/api/models",
            r#"{"name":"ds","provider":"deepseek","api_key":"sk-0123456789abcdef0123"}"#,
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let (_, before) = server.json("get", "/api/models/ds", "").await;
    let (status, said) = server
        .json("patch", "/api/models/ds", r#"{"api_key":""}"#)
        .await;
    assert_eq!(status, 422, "{said}");
    assert!(
        said.contains("api_key")
            && said.contains("the API key shown when you created it on DeepSeek"),
        "{said}"
    );
    let (_, after) = server.json("get", "/api/models/ds", "").await;
    assert_eq!(after, before, "an empty key changed the model");
    Ok(())
}
