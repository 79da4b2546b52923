//! Request handling: the request counted, a queued fault applied, then `/info` answered from
//! the books or `/exchange` authenticated (signature, signer, nonce: [`super::auth`]) and
//! carried out ([`super::exchange`]), in Hyperliquid's shapes.

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::extract::State as AxState;
use axum::http::{Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::auth::{self, Action};
use super::fault::Fault;
use super::info::{self, UNREADABLE};
use super::state::State;

pub(crate) type Shared = Arc<Mutex<State>>;

pub(crate) fn system_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn respond(status: u16, content_type: &str, body: String) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("content-type", content_type)
        .body(Body::from(body))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

fn json_response(body: &Value) -> Response {
    respond(200, "application/json", body.to_string())
}

fn unreadable() -> Response {
    respond(422, "text/plain", UNREADABLE.into())
}

fn err(message: &str) -> Response {
    json_response(&json!({"status": "err", "response": message}))
}

fn fault_response(fault: &Fault) -> Response {
    match fault {
        Fault::RateLimited => respond(429, "application/json", "null".into()),
        Fault::Err(message) => err(message),
        Fault::OrderError(message) => json_response(&json!({"status": "ok", "response": {
            "type": "order", "data": {"statuses": [{"error": message}]}}})),
        Fault::Unavailable | Fault::Delay(_) => respond(
            502,
            "text/html",
            "<html><body>502 Bad Gateway</body></html>".into(),
        ),
        Fault::AcceptThenDelay(_) | Fault::AcceptThenFail => {
            respond(500, "application/json", "\"Internal Server Error\"".into())
        }
    }
}

pub(crate) async fn handle(
    AxState(shared): AxState<Shared>,
    method: Method,
    uri: Uri,
    body: String,
) -> Response {
    let path = uri.path().to_string();
    if method != Method::POST || (path != "/info" && path != "/exchange") {
        return respond(404, "text/plain", "Not Found".into());
    }
    let Ok(request) = serde_json::from_str::<Value>(&body) else {
        return respond(400, "text/plain", "invalid JSON".into());
    };
    let kind = if path == "/info" {
        request["type"].as_str().unwrap_or_default().to_string()
    } else {
        request["action"]["type"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let poisoned = || respond(500, "text/plain", "mock poisoned".into());

    // Under the lock: the request counted, a queued fault taken. No await while held.
    let (now, fault) = {
        let Ok(mut st) = shared.lock() else {
            return poisoned();
        };
        let now = system_ms() + st.clock_skew_ms;
        st.requests.push((path.clone(), kind.clone()));
        let fault = st.take_fault(&path, &kind);
        if let Some(f) = &fault
            && matches!(
                f,
                Fault::RateLimited | Fault::Err(_) | Fault::OrderError(_) | Fault::Unavailable
            )
        {
            return fault_response(f);
        }
        (now, fault)
    };
    if let Some(Fault::Delay(d)) = &fault {
        tokio::time::sleep(*d).await;
        return fault_response(&Fault::Unavailable);
    }

    let answer = {
        let Ok(mut st) = shared.lock() else {
            return poisoned();
        };
        if path == "/info" {
            match info::handle(&mut st, &request, now) {
                Ok(v) => json_response(&v),
                Err(_) => unreadable(),
            }
        } else {
            exchange(&mut st, &request, now)
        }
    };
    match &fault {
        Some(Fault::AcceptThenDelay(d)) => {
            tokio::time::sleep(*d).await;
            fault_response(&Fault::AcceptThenFail)
        }
        Some(Fault::AcceptThenFail) => fault_response(&Fault::AcceptThenFail),
        _ => answer,
    }
}

/// An `/exchange` request: read, authenticated, carried out.
fn exchange(st: &mut State, request: &Value, now: i64) -> Response {
    let Ok(action) = serde_json::from_value::<Action>(request["action"].clone()) else {
        return unreadable();
    };
    let Some(nonce) = request["nonce"].as_u64() else {
        return unreadable();
    };
    if !request["vaultAddress"].is_null() {
        return err("Vault not registered.");
    }
    let Some(signer) = auth::signer(&action, nonce, &request["signature"], !st.testnet) else {
        return unreadable();
    };
    let user = match auth::acting_for(st, &signer) {
        Ok(user) => user,
        Err(message) => return err(&message),
    };
    if let Err(message) = auth::use_nonce(st, &signer, nonce, now) {
        return err(&message);
    }
    match super::exchange::handle(st, &user, &action, now) {
        Ok(response) => json_response(&json!({"status": "ok", "response": response})),
        Err(message) => err(&message),
    }
}
