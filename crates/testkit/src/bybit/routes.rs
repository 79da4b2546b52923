//! Request handling: injected faults, authentication of private requests, then the endpoint,
//! answered in Bybit's envelope, `{"retCode":0,"retMsg":"OK","result":{…},"retExtInfo":{},
//! "time":…}`, and a refusal as `{"retCode":<code>,"retMsg":"<message>","result":{},
//! "retExtInfo":{},"time":…}` with HTTP 200 (Bybit API v5 docs, "Integration Guidance" →
//! "Common response parameters"; the status: bybit-exchange/pybit reads `retCode` from 200
//! answers). An IP over its limit gets HTTP 403 "access too frequent" ("Rate Limit Rules").

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

fn respond(status: u16, body: &Value, headers: &[(&str, String)]) -> Response {
    let mut builder = Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("content-type", "application/json");
    for (name, value) in headers {
        builder = builder.header(*name, value.as_str());
    }
    builder
        .body(Body::from(body.to_string()))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

fn envelope(code: i64, msg: &str, result: Value, now: i64) -> Value {
    json!({"retCode": code, "retMsg": msg, "result": result, "retExtInfo": {}, "time": now})
}

fn ok(result: Value, now: i64) -> Response {
    respond(200, &envelope(0, "OK", result, now), &[])
}

fn html(status: StatusCode, text: &'static str) -> Response {
    Response::builder()
        .status(status)
        .header("content-type", "text/html")
        .body(Body::from(text))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

fn fault_response(fault: &Fault, now: i64) -> Response {
    match fault {
        Fault::Error { code, msg } => respond(200, &envelope(*code, msg, json!({}), now), &[]),
        Fault::Refusal { code, msg, result } => {
            respond(200, &envelope(*code, msg, result.clone(), now), &[])
        }
        // "If you receive "retCode": 10006, "retMsg": "Too many visits!" …", with the limit
        // headers ("X-Bapi-Limit-Reset-Timestamp … when your request limit resets").
        Fault::RateLimited => respond(
            200,
            &envelope(10006, "Too many visits!", json!({}), now),
            &[
                ("X-Bapi-Limit", "10".into()),
                ("X-Bapi-Limit-Status", "0".into()),
                ("X-Bapi-Limit-Reset-Timestamp", (now + 200).to_string()),
            ],
        ),
        Fault::IpRateLimited => Response::builder()
            .status(StatusCode::FORBIDDEN)
            .header("content-type", "text/plain")
            .body(Body::from("access too frequent"))
            .unwrap_or_else(|_| Response::new(Body::empty())),
        Fault::Unavailable | Fault::Delay(_) => html(
            StatusCode::SERVICE_UNAVAILABLE,
            "<html><body>503 Service Temporarily Unavailable</body></html>",
        ),
        Fault::AcceptThenDelay(_) | Fault::AcceptThenFail => {
            respond(500, &envelope(10016, "Server error.", json!({}), now), &[])
        }
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
    let method = method.as_str().to_string();
    let private = is_private(&path);
    let request: Value = if body.is_empty() {
        Value::Null
    } else {
        match serde_json::from_str(&body) {
            Ok(v) => v,
            Err(_) => {
                return respond(
                    200,
                    &envelope(
                        10001,
                        "params error: body is no JSON",
                        json!({}),
                        system_ms(),
                    ),
                    &[],
                );
            }
        }
    };
    let poisoned = || {
        respond(
            500,
            &envelope(10016, "mock poisoned", json!({}), system_ms()),
            &[],
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
            && !matches!(
                f,
                Fault::Delay(_) | Fault::AcceptThenDelay(_) | Fault::AcceptThenFail
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
        if private {
            // A GET signs its query string as sent, a POST its body.
            let payload = if method == "GET" { &query } else { &body };
            verify(&st, &headers, payload, now, account::trading(&method))
                .and_then(|key| account::handle(&mut st, &method, &path, &key, &p, &request, now))
        } else if method == "GET" {
            market::handle(&mut st, &path, &p, now)
        } else {
            Err(Fault::Error {
                code: 10017,
                msg: "Route not found.".into(),
            })
        }
    };
    match (&fault, result) {
        (Some(Fault::AcceptThenDelay(d)), _) => {
            tokio::time::sleep(*d).await;
            fault_response(&Fault::AcceptThenFail, now)
        }
        (Some(Fault::AcceptThenFail), _) => fault_response(&Fault::AcceptThenFail, now),
        (_, Ok(result)) => ok(result, now),
        (_, Err(f)) => fault_response(&f, now),
    }
}
