//! Request handling: weight accounting, injected faults, authentication, then the endpoint.

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::extract::State as AxState;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::auth::{params, verify};
use super::fault::Fault;
use super::orders;
use super::state::State;

pub(crate) type Shared = Arc<Mutex<State>>;

fn system_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn respond(status: u16, body: &Value, weight: u32, extra: Option<(&str, String)>) -> Response {
    let mut b = Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("content-type", "application/json")
        .header("X-MBX-USED-WEIGHT-1M", weight.to_string());
    if let Some((k, v)) = extra {
        b = b.header(k, v);
    }
    b.body(Body::from(body.to_string()))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

fn fault_response(fault: &Fault, weight: u32) -> Response {
    match fault {
        Fault::Error {
            http_status,
            code,
            msg,
        } => respond(
            *http_status,
            &json!({"code": code, "msg": msg}),
            weight,
            None,
        ),
        Fault::RateLimited { retry_after_secs } => respond(
            429,
            &json!({"code": -1003, "msg": "Too many requests; current limit is 2400 requests per minute."}),
            weight,
            Some(("Retry-After", retry_after_secs.to_string())),
        ),
        Fault::Banned { retry_after_secs } => respond(
            418,
            &json!({"code": -1003, "msg": "Way too many requests; IP banned."}),
            weight,
            Some(("Retry-After", retry_after_secs.to_string())),
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
            &json!({"code": -1000, "msg": "An unknown error occurred while processing the request."}),
            weight,
            None,
        ),
    }
}

const SIGNED: [&str; 11] = [
    "/fapi/v2/account",
    "/fapi/v2/balance",
    "/fapi/v2/positionRisk",
    "/fapi/v1/leverage",
    "/fapi/v1/marginType",
    "/fapi/v1/positionSide/dual",
    "/fapi/v1/order",
    "/fapi/v1/openOrders",
    "/fapi/v1/userTrades",
    "/sapi/v1/account/apiRestrictions",
    "/fapi/v1/allOpenOrders",
];

fn weight_of(path: &str) -> u32 {
    match path {
        "/fapi/v2/account" | "/fapi/v2/positionRisk" | "/fapi/v1/userTrades" => 5,
        "/fapi/v1/klines" | "/fapi/v1/depth" => 2,
        _ => 1,
    }
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
    let signed = SIGNED.contains(&path.as_str());
    let api_key = headers
        .get("X-MBX-APIKEY")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);

    // Phase 1, under the lock: weight, fault, auth. No await while it is held.
    let (now, weight, fault) = {
        let Ok(mut st) = shared.lock() else {
            return respond(
                500,
                &json!({"code": -1000, "msg": "mock poisoned"}),
                0,
                None,
            );
        };
        let now = system_ms() + st.clock_skew_ms;
        st.requests.push((method.clone(), path.clone()));
        let minute = now / 60_000;
        if st.weight_minute != minute {
            st.weight_minute = minute;
            st.weight_used = 0;
        }
        st.weight_used += weight_of(&path);
        let weight = st.weight_used;
        if st.weight_limit > 0 && weight > st.weight_limit {
            let wait = 60 - (now / 1000) % 60;
            return fault_response(
                &Fault::RateLimited {
                    retry_after_secs: wait as u64,
                },
                weight,
            );
        }
        if let Some(body) = st.hollow.as_ref().filter(|_| path != "/fapi/v1/time") {
            return respond(200, body, weight, None);
        }
        if let Some(echo) = st.echo.filter(|e| e.route.matches(&method, &path, signed)) {
            let msg = echo.message(&method, &path, api_key.as_deref(), &query);
            return respond(
                echo.http_status,
                &json!({"code": echo.code, "msg": msg}),
                weight,
                None,
            );
        }
        let fault = st.take_fault(&method, &path, signed);
        if let Some(f) = &fault
            && matches!(
                f,
                Fault::Error { .. }
                    | Fault::RateLimited { .. }
                    | Fault::Banned { .. }
                    | Fault::Unavailable
            )
        {
            return fault_response(f, weight);
        }
        (now, weight, fault)
    };
    if let Some(Fault::Delay(d)) = &fault {
        tokio::time::sleep(*d).await;
        return fault_response(&Fault::Unavailable, weight);
    }

    let result = {
        let Ok(mut st) = shared.lock() else {
            return respond(
                500,
                &json!({"code": -1000, "msg": "mock poisoned"}),
                0,
                None,
            );
        };
        let auth = if signed {
            let needs_futures = !path.starts_with("/sapi");
            verify(&st, api_key.as_deref(), &query, &body, now, needs_futures).map(Some)
        } else {
            Ok(None)
        };
        match auth {
            Err(f) => Err(f),
            Ok(key) => {
                let p = params(&query, &body);
                dispatch(&mut st, &method, &path, key.as_deref(), &p, now)
            }
        }
    };
    match (&fault, result) {
        (Some(Fault::AcceptThenDelay(d)), _) => {
            tokio::time::sleep(*d).await;
            fault_response(&Fault::AcceptThenFail, weight)
        }
        (Some(Fault::AcceptThenFail), _) => fault_response(&Fault::AcceptThenFail, weight),
        (_, Ok(v)) => respond(200, &v, weight, None),
        (_, Err(f)) => fault_response(&f, weight),
    }
}

fn get<'a>(p: &'a [(String, String)], name: &str) -> Option<&'a str> {
    p.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn not_found() -> Fault {
    Fault::Error {
        http_status: 404,
        code: -1000,
        msg: "mock: no such endpoint".into(),
    }
}

fn dispatch(
    st: &mut State,
    method: &str,
    path: &str,
    key: Option<&str>,
    p: &[(String, String)],
    now: i64,
) -> Result<Value, Fault> {
    let symbol = get(p, "symbol").unwrap_or("BTCUSDT").to_string();
    match (method, path) {
        ("GET", "/fapi/v1/ping") => Ok(json!({})),
        ("GET", "/fapi/v1/time") => Ok(json!({"serverTime": now})),
        // Binance's futures klines take at most 1500 a request.
        ("GET", "/fapi/v1/klines")
            if get(p, "limit")
                .and_then(|l| l.parse::<i64>().ok())
                .is_some_and(|l| !(1..=1500).contains(&l)) =>
        {
            Err(Fault::binance(-1130))
        }
        _ if key.is_none() => {
            super::market::public(st, path, &symbol, p, now).ok_or_else(not_found)
        }
        _ => {
            let key = key.unwrap_or_default();
            super::account::signed(st, method, path, key, &symbol, p, now)
        }
    }
}

pub(crate) fn param<'a>(p: &'a [(String, String)], name: &str) -> Option<&'a str> {
    get(p, name)
}

pub(crate) fn place_order(
    st: &mut State,
    key: &str,
    p: &[(String, String)],
    now: i64,
) -> Result<Value, Fault> {
    orders::place(st, key, p, now)
}
