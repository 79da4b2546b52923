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
