//! Exports of the built-in library: golden snapshots (reviewed like code), and shape checks
//! against the providers' published examples in `tests/fixtures/providers/`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::collections::BTreeSet;
use std::path::Path;

use nofxi_skills::export::{Format, export, tool_defs};
use nofxi_skills::{Lang, Library, ToolRef};
use serde_json::{Value, json};

fn lib() -> Library {
    Library::builtin().unwrap()
}

fn provider_example(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/providers")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `path:type` for every key outside tool schemas (their contents are checked separately).
fn skeleton(v: &Value, path: &str, out: &mut BTreeSet<String>) {
    let ty = match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    out.insert(format!("{path}:{ty}"));
    if ["parameters", "input_schema", "inputSchema"]
        .iter()
        .any(|k| path.ends_with(k))
    {
        return;
    }
    match v {
        Value::Object(m) => m
            .iter()
            .for_each(|(k, v)| skeleton(v, &format!("{path}.{k}"), out)),
        Value::Array(items) => items
            .iter()
            .for_each(|v| skeleton(v, &format!("{path}[]"), out)),
        _ => {}
    }
}

fn skel(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    skeleton(v, "", &mut out);
    out
}

/// Every key of `actual` is one the provider's example uses (same JSON type), and every key
/// in `required` is present.
fn assert_shape(actual: &Value, example: &Value, required: &[&str]) {
    let (a, e) = (skel(actual), skel(example));
    let extra: Vec<&String> = a.difference(&e).collect();
    assert!(
        extra.is_empty(),
        "keys the provider example does not have: {extra:?}"
    );
    for r in required {
        assert!(a.contains(*r), "missing {r} in {actual}");
    }
}

fn assert_object_schema(schema: &Value, context: &str) {
    assert_eq!(
        schema.get("type"),
        Some(&json!("object")),
        "{context}: {schema}"
    );
    assert!(
        jsonschema::meta::is_valid(schema),
        "{context}: not a valid JSON Schema"
    );
}

#[test]
fn openai_tools_have_the_documented_shape() {
    let example = provider_example("openai.json");
    let out = export(lib().skills(), Format::OpenAi, Lang::En);
    let tools = out.as_array().unwrap();
    assert!(tools.len() >= 23);
    let name_re = regex::Regex::new(r"^[a-zA-Z0-9_-]{1,64}$").unwrap();
    for t in tools {
        assert_shape(
            t,
            &example,
            &[
                ".type:string",
                ".function.name:string",
                ".function.description:string",
                ".function.parameters:object",
            ],
        );
        assert_eq!(t["type"], "function");
        assert!(name_re.is_match(t["function"]["name"].as_str().unwrap()));
        assert_object_schema(&t["function"]["parameters"], "openai");
    }
}

#[test]
fn anthropic_tools_have_the_documented_shape() {
    let example = provider_example("anthropic.json");
    let out = export(lib().skills(), Format::Anthropic, Lang::En);
    let name_re = regex::Regex::new(r"^[a-zA-Z0-9_-]{1,64}$").unwrap();
    for t in out.as_array().unwrap() {
        assert_shape(
            t,
            &example,
            &[
                ".name:string",
                ".description:string",
                ".input_schema:object",
            ],
        );
        assert!(name_re.is_match(t["name"].as_str().unwrap()));
        assert_object_schema(&t["input_schema"], "anthropic");
    }
}

#[test]
fn gemini_declarations_have_the_documented_shape_and_keywords() {
    let example = provider_example("gemini.json");
    let out = export(lib().skills(), Format::Gemini, Lang::En);
    assert_shape(
        &out,
        &example,
        &[
            ".functionDeclarations:array",
            ".functionDeclarations[].name:string",
            ".functionDeclarations[].description:string",
        ],
    );
    let allowed: BTreeSet<&str> = [
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
        "default",
        "items",
        "minimum",
        "maximum",
    ]
    .into_iter()
    .collect();
    fn walk(schema: &Value, allowed: &BTreeSet<&str>) {
        let Value::Object(m) = schema else { return };
        for (k, v) in m {
            assert!(allowed.contains(k.as_str()), "Gemini does not accept `{k}`");
            match k.as_str() {
                "properties" => v
                    .as_object()
                    .unwrap()
                    .values()
                    .for_each(|p| walk(p, allowed)),
                "items" => walk(v, allowed),
                _ => {}
            }
        }
    }
    for d in out["functionDeclarations"].as_array().unwrap() {
        if let Some(p) = d.get("parameters") {
            assert_eq!(p["type"], "object");
            walk(p, &allowed);
        }
    }
}

#[test]
fn mcp_tools_have_object_schemas_and_risk_annotations() {
    let example = provider_example("mcp.json");
    let lib = lib();
    let out = export(lib.skills(), Format::Mcp, Lang::En);
    assert_shape(
        &out,
        &example,
        &[
            ".tools:array",
            ".tools[].name:string",
            ".tools[].inputSchema:object",
        ],
    );
    let name_re = regex::Regex::new(r"^[A-Za-z0-9_.-]{1,128}$").unwrap();
    for t in out["tools"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        assert!(name_re.is_match(name), "{name}");
        assert_object_schema(&t["inputSchema"], name);
        let ann = &t["annotations"];
        match lib.resolve_tool(name).unwrap() {
            ToolRef::Action { action, .. } => {
                assert_eq!(
                    ann["readOnlyHint"],
                    json!(action.risk.is_read_only()),
                    "{name}"
                );
                if !action.risk.is_read_only() {
                    assert_eq!(
                        ann["destructiveHint"],
                        json!(action.risk.is_destructive()),
                        "{name}"
                    );
                }
                assert_eq!(ann["openWorldHint"], json!(false));
            }
            ToolRef::Function { .. } => {
                assert_eq!(ann["readOnlyHint"], json!(true));
                assert_eq!(ann["openWorldHint"], json!(true));
            }
        }
    }
    let by_name = |n: &str| {
        out["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == n)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        by_name("trader_management_query")["annotations"]["readOnlyHint"],
        json!(true)
    );
    assert_eq!(
        by_name("trader_management_delete")["annotations"]["destructiveHint"],
        json!(true)
    );
    assert_eq!(
        by_name("trader_management_create")["annotations"]["destructiveHint"],
        json!(false)
    );
}

#[test]
fn a_function_without_parameters_still_gets_an_object_schema() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("ping");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        sub.join("SKILL.md"),
        "---\nname: ping\ndescription: Ping.\n---\n```yaml\nskill:\n  kind: function\n  domain: net\n  version: \"1\"\n  title: {zh: 连通, en: Ping}\nfunctions:\n  - name: ping\n    description: {zh: 测试连通, en: Check the source answers}\n    parameters: {type: object}\n```\n",
    )
    .unwrap();
    let lib = Library::load(&[dir.path().to_path_buf()]).unwrap();
    let skill = lib.get("ping").unwrap();
    let mcp = export(std::slice::from_ref(skill), Format::Mcp, Lang::En);
    assert_eq!(mcp["tools"][0]["inputSchema"], json!({"type": "object"}));
    let gemini = export(std::slice::from_ref(skill), Format::Gemini, Lang::En);
    assert!(
        gemini["functionDeclarations"][0]
            .get("parameters")
            .is_none(),
        "Gemini leaves parameters unset"
    );
}

#[test]
fn every_tool_name_resolves_back() {
    let lib = lib();
    for t in tool_defs(lib.skills(), Lang::En) {
        assert!(lib.resolve_tool(&t.name).is_some(), "{}", t.name);
    }
}

#[test]
fn golden_openai() {
    insta::assert_json_snapshot!(
        "openai_en",
        export(lib().skills(), Format::OpenAi, Lang::En)
    );
}

#[test]
fn golden_anthropic() {
    insta::assert_json_snapshot!(
        "anthropic_en",
        export(lib().skills(), Format::Anthropic, Lang::En)
    );
}

#[test]
fn golden_gemini() {
    insta::assert_json_snapshot!(
        "gemini_en",
        export(lib().skills(), Format::Gemini, Lang::En)
    );
}

#[test]
fn golden_mcp() {
    insta::assert_json_snapshot!("mcp_en", export(lib().skills(), Format::Mcp, Lang::En));
}

#[test]
fn golden_market_data_zh() {
    let lib = lib();
    let skill = lib.get("market_data").unwrap();
    insta::assert_json_snapshot!(
        "market_data_openai_zh",
        export(std::slice::from_ref(skill), Format::OpenAi, Lang::Zh)
    );
}

#[test]
fn golden_prompt_card() {
    let card = nofxi_skills::export::prompt_card(lib().skills(), Lang::En);
    assert!(card.contains("- trader_management.create [Create]"));
    assert!(card.contains("name*"));
    insta::assert_snapshot!("prompt_card_en", card);
}
