//! Request handling: injected faults, authentication of private requests, then the endpoint,
//! answered in OKX's envelope: `{"code": "0", "msg": "", "data": [...]}`, a refusal as
//! `{"code": "<code>", "msg": "<message>", "data": []}` with the documented HTTP status, and an
//! order's refusal as `{"code": "1", "msg": "All operations failed", "data": [{"sCode": …,
//! "sMsg": …}]}` with HTTP 200 (OKX API v5 docs, "General Info", and okxapi/python-okx issue
//! #110 for the order refusal as it arrives).

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::extract::State as AxState;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::auth::verify;
use super::fault::Fault;
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

fn ok(data: Vec<Value>, now: i64) -> Response {
    let micros = (now * 1_000).to_string();
    respond(
        200,
        &json!({"code": "0", "msg": "", "data": data, "inTime": micros, "outTime": micros}),
    )
}

fn fault_response(fault: &Fault, request: &Value, now: i64) -> Response {
    match fault {
        Fault::Error {
            http_status,
            code,
            msg,
        } => respond(*http_status, &json!({"code": code, "msg": msg, "data": []})),
        Fault::Item { code, msg } => {
            let cl = request["clOrdId"].as_str().unwrap_or_default();
            respond(
                200,
                &json!({"code": "1", "msg": "All operations failed", "data": [{
                    "clOrdId": cl, "ordId": "", "tag": "", "ts": now.to_string(),
                    "sCode": code, "sMsg": msg, "subCode": ""}],
                    "inTime": (now * 1_000).to_string(), "outTime": (now * 1_000).to_string()}),
            )
        }
        Fault::RateLimited => respond(
            429,
            &json!({"code": "50011", "msg": "Too Many Requests", "data": []}),
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
            &json!({"code": "50026", "msg": "System error. Try again later", "data": []}),
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
    // What the client signed: the path with its query, exactly as sent.
    let request_path = uri
        .path_and_query()
        .map(|pq| pq.as_str().to_string())
        .unwrap_or_else(|| path.clone());
    let method = method.as_str().to_string();
    let private = path.starts_with("/api/v5/account/") || path.starts_with("/api/v5/trade/");
    let request: Value = if body.is_empty() {
        Value::Null
    } else {
        match serde_json::from_str(&body) {
            Ok(v) => v,
            Err(_) => {
                return respond(
                    400,
                    &json!({"code": "50002", "msg": "JSON syntax error", "data": []}),
                );
            }
        }
    };
    let poisoned = || {
        respond(
            500,
            &json!({"code": "50026", "msg": "mock poisoned", "data": []}),
        )
    };

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
                Fault::Error { .. } | Fault::Item { .. } | Fault::RateLimited | Fault::Unavailable
            )
        {
            return fault_response(f, &request, now);
        }
        (now, fault)
    };
    if let Some(Fault::Delay(d)) = &fault {
        tokio::time::sleep(*d).await;
        return fault_response(&Fault::Unavailable, &request, now);
    }

    let result = {
        let Ok(mut st) = shared.lock() else {
            return poisoned();
        };
        let p = params(&query);
        if private {
            let trading = account::trading(&method);
            verify(&st, &headers, &method, &request_path, &body, now, trading)
                .and_then(|key| account::handle(&mut st, &method, &path, &key, &p, &request, now))
        } else if method == "GET" {
            market::handle(&mut st, &path, &p, now)
        } else {
            Err(Fault::okx(50115))
        }
    };
    match (&fault, result) {
        (Some(Fault::AcceptThenDelay(d)), _) => {
            tokio::time::sleep(*d).await;
            fault_response(&Fault::AcceptThenFail, &request, now)
        }
        (Some(Fault::AcceptThenFail), _) => fault_response(&Fault::AcceptThenFail, &request, now),
        (_, Ok(data)) => ok(data, now),
        (_, Err(f)) => fault_response(&f, &request, now),
    }
}
