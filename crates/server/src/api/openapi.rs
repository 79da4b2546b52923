//! The OpenAPI 3.1 document, built from the operation table. OpenAPI 3.1's schemas are JSON
//! Schema 2020-12, which is what schemars generates; definitions go under
//! `#/components/schemas`.

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use super::{Op, Reply};
use crate::error::ErrorBody;

pub fn document(ops: &[Op]) -> Value {
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
        })
        .into_generator();
    // Query parameters are listed one by one, so their schemas are generated inline.
    let mut inline = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let error = super::schema::<ErrorBody>(&mut generator);
    let mut paths: Map<String, Value> = Map::new();
    for op in ops {
        let mut parameters: Vec<Value> = path_params(op.path)
            .map(|name| {
                json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}})
            })
            .collect();
        if let Some(query) = op.query {
            let schema = query(&mut inline).to_value();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (name, s) in props {
                    parameters.push(json!({
                        "name": name, "in": "query",
                        "required": required.contains(&name.as_str()),
                        "schema": s,
                    }));
                }
            }
        }
        let mut operation = json!({
            "tags": [op.tag],
            "summary": op.summary,
            "operationId": operation_id(op),
            "parameters": parameters,
            "responses": responses(op, &mut generator, &error),
        });
        if let Some(body) = op.body {
            operation["requestBody"] = json!({
                "required": true,
                "content": {"application/json": {"schema": body(&mut generator).to_value()}},
            });
        }
        let entry = paths
            .entry(op.path.to_string())
            .or_insert_with(|| json!({}));
        entry[op.method.as_str().to_ascii_lowercase()] = operation;
    }
    let schemas = generator.take_definitions(true);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "nofxi",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The HTTP API of `nofxi serve`. State changes need the X-CSRF-Token header from GET /api/session. Errors are {\"error\": {\"code\", \"message\", \"problems\"}} in the Accept-Language's language.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    })
}

fn responses(
    op: &Op,
    generator: &mut schemars::SchemaGenerator,
    error: &schemars::Schema,
) -> Value {
    let mut out = Map::new();
    match op.reply {
        Reply::Json(status, schema) => {
            out.insert(
                status.to_string(),
                json!({"description": "OK", "content": {"application/json": {"schema": schema(generator).to_value()}}}),
            );
        }
        Reply::EventStream => {
            out.insert(
                "200".into(),
                json!({"description": "Server-sent events", "content": {"text/event-stream": {"schema": {"type": "string"}}}}),
            );
        }
        Reply::Text(media) => {
            out.insert(
                "200".into(),
                json!({"description": "OK", "content": {media: {"schema": {"type": "string"}}}}),
            );
        }
    }
    out.insert(
        "default".into(),
        json!({"description": "An error: what happened and what to do, per field where a field is at fault", "content": {"application/json": {"schema": error.clone().to_value()}}}),
    );
    Value::Object(out)
}

/// `{id}` and `{*path}` names of a path.
fn path_params(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter_map(|seg| {
        seg.strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .map(|s| s.trim_start_matches('*'))
    })
}

/// `GET /api/traders/{id}/journal` → `get_traders_id_journal`.
fn operation_id(op: &Op) -> String {
    let mut id = op.method.as_str().to_ascii_lowercase();
    for seg in op.path.split('/').filter(|s| !s.is_empty() && *s != "api") {
        id.push('_');
        id.extend(
            seg.chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .map(|c| if c == '-' { '_' } else { c }),
        );
    }
    id
}
