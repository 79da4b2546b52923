//! Request handling: injected faults, authentication of private requests, then the endpoint,
//! answered in Bitget's envelope: `{"code": "00000", "msg": "success", "requestTime": …,
//! "data": …}`, and a refusal as `{"code": "<code>", "msg": "<message>", "requestTime": …,
//! "data": null}` with HTTP 400, or 429 over a rate limit (Bitget API docs, each endpoint's
//! "Response Example" and "Request Interaction"; the refusal as it arrives:
//! BitgetLimited/v3-bitget-api-sdk issue #7, ccxt/ccxt issue #27037).

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::extract::State as AxState;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::auth::verify;
use super::fault::{Fault, is_private};
use super::state::State;
use super::{account, market};

pub(crate) type Shared = Arc<Mutex<State>>;

pub(crate) fn system_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn respond(status: u16, body: &Value) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

fn ok(data: Value, now: i64) -> Response {
    respond(
        200,
        &json!({"code": "00000", "msg": "success", "requestTime": now, "data": data}),
    )
}

fn fault_response(fault: &Fault, now: i64) -> Response {
    match fault {
        Fault::Error {
            http_status,
            code,
            msg,
        } => respond(
            *http_status,
            &json!({"code": code, "msg": msg, "requestTime": now, "data": null}),
        ),
        Fault::RateLimited => respond(
            429,
            &json!({"code": "429", "msg": "Too Many Requests", "requestTime": now, "data": null}),
        ),
        Fault::Unavailable | Fault::Delay(_) => Response::builder()
            .status(StatusCode::SERVICE_UNAVAILABLE)
            .header("content-type", "text/html")
            .body(Body::from(
                "<html><body>503 Service Temporarily Unavailable</body></html>",
            ))
            .unwrap_or_else(|_| Response::new(Body::empty())),
        Fault::AcceptThenDelay(_) | Fault::AcceptThenFail => respond(
            500,
            &json!({"code": "40015", "msg": "System is abnormal, please try again later",
                    "requestTime": now, "data": null}),
        ),
    }
}

fn params(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (kv.to_string(), String::new()),
        })
        .collect()
}

pub(crate) async fn handle(
    AxState(shared): AxState<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: String,
) -> Response {
    let path = uri.path().to_string();
    let query = uri.query().unwrap_or("").to_string();
    // What the client signed: the path with `?query`, exactly as sent.
    let request_path = uri
        .path_and_query()
        .map(|pq| pq.as_str().to_string())
        .unwrap_or_else(|| path.clone());
    let method = method.as_str().to_string();
    let request: Value = if body.is_empty() {
        Value::Null
    } else {
        match serde_json::from_str(&body) {
            Ok(v) => v,
            Err(_) => return fault_response(&Fault::parameter("body"), system_ms()),
        }
    };
    let poisoned = || fault_response(&Fault::AcceptThenFail, system_ms());

    // Phase 1, under the lock: the request is counted, a queued fault taken. No await held.
    let (now, fault) = {
        let Ok(mut st) = shared.lock() else {
            return poisoned();
        };
        let now = system_ms() + st.clock_skew_ms;
        st.requests.push((method.clone(), path.clone()));
        let fault = st.take_fault(&method, &path);
        if let Some(f) = &fault
            && matches!(
                f,
                Fault::Error { .. } | Fault::RateLimited | Fault::Unavailable
            )
        {
            return fault_response(f, now);
        }
        (now, fault)
    };
    if let Some(Fault::Delay(d)) = &fault {
        tokio::time::sleep(*d).await;
        return fault_response(&Fault::Unavailable, now);
    }

    let result = {
        let Ok(mut st) = shared.lock() else {
            return poisoned();
        };
        let p = params(&query);
        if is_private(&path) {
            let trading = account::trading(&method);
            verify(&st, &headers, &method, &request_path, &body, now, trading)
                .and_then(|key| account::handle(&mut st, &method, &path, &key, &p, &request, now))
        } else if method == "GET" {
            market::handle(&mut st, &path, &p, now)
        } else {
            Err(Fault::bitget(40404))
        }
    };
    match (&fault, result) {
        (Some(Fault::AcceptThenDelay(d)), _) => {
            tokio::time::sleep(*d).await;
            fault_response(&Fault::AcceptThenFail, now)
        }
        (Some(Fault::AcceptThenFail), _) => fault_response(&Fault::AcceptThenFail, now),
        (_, Ok(data)) => ok(data, now),
        (_, Err(f)) => fault_response(&f, now),
    }
}
