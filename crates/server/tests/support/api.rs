//! The HTTP API as a local-mode page calls it: the session's CSRF token on every change, JSON
//! in and out, over real loopback HTTP.

use serde_json::Value;

use super::TestResult;

pub struct Api {
    pub base: String,
    pub token: String,
    pub client: reqwest::Client,
}

impl Api {
    /// A caller of the server at `base`, holding the CSRF token its session hands out.
    pub async fn new(base: &str) -> TestResult<Api> {
        let client = reqwest::Client::new();
        let session: Value = client
            .get(format!("{base}/api/session"))
            .send()
            .await?
            .json()
            .await?;
        let token = session["csrf_token"].as_str().unwrap_or_default().into();
        Ok(Api {
            base: base.to_string(),
            token,
            client,
        })
    }

    /// Any call; the status and the body (`null` when it is not JSON).
    pub async fn call(&self, method: &str, path: &str, body: Value) -> TestResult<(u16, Value)> {
        let method = reqwest::Method::from_bytes(method.as_bytes())?;
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("X-CSRF-Token", &self.token);
        if !body.is_null() {
            request = request.json(&body);
        }
        let resp = request.send().await?;
        let status = resp.status().as_u16();
        Ok((status, resp.json().await.unwrap_or(Value::Null)))
    }

    pub async fn post(&self, path: &str, body: Value) -> TestResult<(u16, Value)> {
        self.call("POST", path, body).await
    }

    /// A read that must succeed.
    pub async fn get(&self, path: &str) -> TestResult<Value> {
        let (status, body) = self.call("GET", path, Value::Null).await?;
        if status != 200 {
            return Err(format!("GET {path}: {status} {body}").into());
        }
        Ok(body)
    }
}
