//! A server driven with raw bodies and media types, for tests of what the API refuses.

use std::sync::Arc;

use nofxi_store::Store;
use serde_json::Value;

use super::{Running, start_server};

pub struct Server {
    pub base: String,
    pub token: String,
    pub client: reqwest::Client,
    pub running: Running,
}

impl Server {
    pub async fn start(store: Arc<Store>) -> Result<Server, Box<dyn std::error::Error>> {
        let running = start_server(store, None).await?;
        let base = running.base.clone();
        let client = reqwest::Client::new();
        let session: Value = client
            .get(format!("{base}/api/session"))
            .send()
            .await?
            .json()
            .await?;
        let token = session["csrf_token"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        Ok(Server {
            base,
            token,
            client,
            running,
        })
    }

    /// `body` sent as given, with `content_type` when one is given.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: impl Into<reqwest::Body>,
    ) -> Result<(u16, String), reqwest::Error> {
        let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes())
            .unwrap_or(reqwest::Method::POST);
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("X-CSRF-Token", &self.token)
            .body(body);
        if let Some(content_type) = content_type {
            request = request.header("Content-Type", content_type);
        }
        let response = request.send().await?;
        let status = response.status().as_u16();
        Ok((status, response.text().await?))
    }

    pub async fn json(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        match self
            .send(method, path, Some("application/json"), body.to_string())
            .await
        {
            Ok(answer) => answer,
            Err(e) => (0, e.to_string()),
        }
    }

    /// (method, path) of every operation that takes a JSON body, `{…}` parameters filled in.
    pub async fn body_routes(&self) -> Result<Vec<(String, String)>, Box<dyn std::error::Error>> {
        let document: Value = self
            .client
            .get(format!("{}/api/openapi.json", self.base))
            .send()
            .await?
            .json()
            .await?;
        let mut routes = Vec::new();
        for (path, item) in document["paths"].as_object().ok_or("no paths")? {
            for (method, operation) in item.as_object().ok_or("no operations")? {
                if operation.get("requestBody").is_some() {
                    routes.push((method.clone(), fill_params(path)));
                }
            }
        }
        Ok(routes)
    }
}

/// `/api/models/{id}` as `/api/models/nope`: the body is read before the id is looked up.
fn fill_params(path: &str) -> String {
    path.split('/')
        .map(|part| if part.starts_with('{') { "nope" } else { part })
        .collect::<Vec<_>>()
        .join("/")
}

pub fn error_code(body: &str) -> String {
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v["error"]["code"].as_str().map(str::to_string))
        .unwrap_or_default()
}
