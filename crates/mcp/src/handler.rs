//! The `rmcp` server: tools and resources, for one caller (stdio) or for the caller each
//! HTTP request carries.
//!
//! Results are built from their JSON wire form: the shapes are the MCP specification's, which
//! reads more plainly here than the SDK's constructors and does not move with them.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::Principal;
use crate::call::Calls;
use crate::catalog;
use crate::resources;

#[derive(Clone)]
pub struct NofxiMcp {
    calls: Arc<Calls>,
    /// The caller of every request (stdio); `None`: each HTTP request's own.
    principal: Option<Principal>,
}

impl NofxiMcp {
    /// A server whose every request is `principal`'s (stdio).
    pub fn for_principal(calls: Arc<Calls>, principal: Principal) -> NofxiMcp {
        NofxiMcp {
            calls,
            principal: Some(principal),
        }
    }

    /// A server that reads the caller from each HTTP request: the [`Principal`] the server's
    /// authentication put into the request's extensions. A request without one is refused.
    pub fn per_request(calls: Arc<Calls>) -> NofxiMcp {
        NofxiMcp {
            calls,
            principal: None,
        }
    }

    fn who(&self, cx: &RequestContext<RoleServer>) -> Result<Principal, McpError> {
        if let Some(p) = &self.principal {
            return Ok(p.clone());
        }
        cx.extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>())
            .cloned()
            .ok_or_else(|| {
                McpError::invalid_request(text(self.calls.lang, "http-mcp-token", &[]), None)
            })
    }
}

fn text(lang: nofxi_skills::Lang, id: &str, args: &[(&str, &str)]) -> String {
    nofxi_skills::Catalog::builtin().text(lang, id, args)
}

fn wire<T: DeserializeOwned>(value: Value) -> Result<T, McpError> {
    serde_json::from_value(value).map_err(|e| McpError::internal_error(e.to_string(), None))
}

impl ServerHandler for NofxiMcp {
    fn get_info(&self) -> ServerConfig {
        let capabilities =
            serde_json::from_value(json!({"tools": {}, "resources": {}})).unwrap_or_default();
        ServerConfig::new(capabilities)
            .with_server_info(rmcp::model::Implementation::new(
                "nofxi",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(text(self.calls.lang, "mcp-instructions", &[]))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let who = self.who(&cx)?;
        let tools = catalog::tools(&self.calls.library, self.calls.lang, &who.scopes);
        wire(json!({ "tools": tools }))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let who = self.who(&cx)?;
        let args = request.arguments.unwrap_or_default();
        let outcome = self.calls.call(&who, &request.name, args).await;
        Ok(outcome.into_result().into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let who = self.who(&cx)?;
        let listed = resources::list(&self.calls.store, &who.user)
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        wire(json!({ "resources": listed }))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        wire(json!({ "resourceTemplates": resources::templates() }))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let who = self.who(&cx)?;
        let calls = &self.calls;
        let read = resources::read(&calls.store, &calls.assistant, &who.user, &request.uri).await;
        let text = match read {
            Ok(Some(text)) => text,
            Ok(None) => {
                let said = text(calls.lang, "mcp-no-resource", &[("uri", &request.uri)]);
                return Err(McpError::resource_not_found(said, None));
            }
            Err(resources::ReadError::Store(e @ nofxi_store::StoreError::NotFound { .. })) => {
                return Err(McpError::resource_not_found(e.to_string(), None));
            }
            Err(e) => return Err(McpError::internal_error(e.to_string(), None)),
        };
        let result: ReadResourceResult = wire(json!({
            "contents": [{"uri": request.uri, "mimeType": "application/json", "text": text}]
        }))?;
        Ok(result.into())
    }
}
