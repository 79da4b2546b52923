//! Request bodies on every route that takes one, found in the OpenAPI document so a new route
//! is covered without being listed: a body is JSON (its media type says so, nothing follows
//! the value) and within the size limit (413 beyond it).

mod support;

use nofxi_store::test_support::sqlite_store;

use support::TestResult;
use support::raw::{Server, error_code};

#[tokio::test]
async fn every_body_route_takes_json_only_whole_and_within_the_limit() -> TestResult {
    let ts = sqlite_store().await?;
    let server = Server::start(ts.store.clone()).await?;
    let routes = server.body_routes().await?;
    assert!(routes.len() >= 9, "{routes:?}");

    for (method, path) in &routes {
        let what = format!("{method} {path}");
        // A value followed by something else is no JSON body, whatever the value holds.
        let (status, said) = server.json(method, path, "{} garbage").await;
        assert_eq!(status, 400, "{what}: {said}");
        assert!(
            said.contains("after the JSON value"),
            "{what} does not name the problem: {said}"
        );
        let (status, said) = server.json(method, path, "{}{}").await;
        assert_eq!(status, 400, "{what}: {said}");

        // Another media type is refused, saying which one to send.
        for content_type in [
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
            None,
        ] {
            let (status, said) = server
                .send(method, path, content_type, "{}".to_string())
                .await?;
            assert_eq!(status, 415, "{what} as {content_type:?}: {said}");
            assert_eq!(error_code(&said), "unsupported_media_type", "{said}");
            assert!(said.contains("application/json"), "{what}: {said}");
        }

        // Over the limit: 413, said as that.
        let big = format!("{{\"name\":\"{}\"}}", "a".repeat(3 * 1024 * 1024));
        let (status, said) = match server
            .send(method, path, Some("application/json"), big)
            .await
        {
            Ok(answer) => answer,
            Err(e) => (0, e.to_string()),
        };
        assert_eq!(status, 413, "{what}: {said}");
        assert_eq!(error_code(&said), "payload_too_large", "{said}");
    }

    // The body the report found: a model renamed by JSON followed by garbage.
    let (status, said) = server
        .json(
            "post",
            "/api/models",
            r#"{"name":"x","provider":"builtin"}"#,
        )
        .await;
    assert_eq!(status, 201, "{said}");
    for body in [r#"{"name":"renamed"} garbage"#, r#"{"name":"renamed"}}"#] {
        let (status, said) = server.json("patch", "/api/models/x", body).await;
        assert_eq!(status, 400, "{said}");
    }
    let (status, said) = server
        .send(
            "patch",
            "/api/models/x",
            Some("text/plain"),
            r#"{"name":"renamed"}"#,
        )
        .await?;
    assert_eq!(status, 415, "{said}");
    let (status, _) = server.json("get", "/api/models/renamed", "").await;
    assert_eq!(status, 404, "a refused body still renamed the model");
    // JSON with its charset is JSON; an empty body without a type is still `{}`.
    let (status, said) = server
        .send(
            "patch",
            "/api/models/x",
            Some("application/json; charset=utf-8"),
            r#"{"enabled":false}"#,
        )
        .await?;
    assert_eq!(status, 200, "{said}");
    let (status, said) = server.send("delete", "/api/models/x", None, "").await?;
    assert_eq!(status, 200, "{said}");
    assert!(said.contains("\"confirm_required\":true"), "{said}");

    server.running.stop().await?;
    ts.cleanup().await?;
    Ok(())
}
