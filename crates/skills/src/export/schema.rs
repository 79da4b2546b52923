//! JSON Schemas for export: an action's slots as an object schema, and the Gemini reduction.

use serde_json::{Map, Value, json};

use crate::ir::{Action, Slot, SlotType};
use crate::text::Lang;
use crate::validate::INTERVALS;

/// An action's slots as a JSON Schema object. Only always-required slots are `required`:
/// conditional ones (`required_when`) are explained in their description, because provider
/// schemas cannot express "required when exchange_type is okx" portably.
pub fn action_schema(action: &Action, lang: Lang) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for slot in &action.slots {
        props.insert(slot.name.clone(), slot_schema(slot, lang));
        if slot.required {
            required.push(Value::String(slot.name.clone()));
        }
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    Value::Object(schema)
}

fn slot_schema(slot: &Slot, lang: Lang) -> Value {
    let mut s = Map::new();
    let (ty, extra): (&str, Option<(&str, Value)>) = match slot.ty {
        SlotType::Integer => ("integer", None),
        SlotType::Decimal => ("number", None),
        SlotType::Boolean => ("boolean", None),
        SlotType::Enum => (
            "string",
            Some((
                "enum",
                json!(slot.values.iter().map(|v| &v.value).collect::<Vec<_>>()),
            )),
        ),
        SlotType::Interval => {
            let allowed: Vec<&str> = if slot.values.is_empty() {
                INTERVALS.to_vec()
            } else {
                slot.values.iter().map(|v| v.value.as_str()).collect()
            };
            ("string", Some(("enum", json!(allowed))))
        }
        _ => ("string", None),
    };
    s.insert("type".into(), json!(ty));
    if let Some((k, v)) = extra {
        s.insert(k.into(), v);
    }
    if let Some(p) = &slot.pattern {
        s.insert("pattern".into(), json!(p));
    }
    if let Some(m) = slot.min {
        s.insert("minimum".into(), number(m));
    }
    if let Some(m) = slot.max {
        s.insert("maximum".into(), number(m));
    }
    if let Some(d) = &slot.default {
        s.insert("default".into(), d.clone());
    }
    s.insert("description".into(), json!(describe(slot, lang)));
    let s = Value::Object(s);
    if slot.list {
        json!({ "type": "array", "items": s })
    } else {
        s
    }
}

/// The slot's description (or its question), then what the schema cannot say, as sentences.
fn describe(slot: &Slot, lang: Lang) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(d) = slot.description.as_ref().or(slot.ask.as_ref()) {
        parts.push(d.get(lang).trim().to_string());
    }
    let zh = lang == Lang::Zh;
    if let Some(kind) = slot.ref_kind {
        parts.push(if zh {
            format!("填写已有{kind}的名称或 ID")
        } else {
            format!("Name or id of an existing {kind}")
        });
    }
    if let Some(c) = &slot.required_when
        && let Some(values) = &c.one_of
    {
        let values = values
            .iter()
            .map(crate::validate::show)
            .collect::<Vec<_>>()
            .join(", ");
        parts.push(if zh {
            format!("当 {} 为 {values} 之一时必填", c.slot)
        } else {
            format!("Required when {} is one of {values}", c.slot)
        });
    }
    if slot.clamp {
        parts.push(if zh {
            "超出范围的值会被调整到边界".into()
        } else {
            "Out-of-range values are clamped".into()
        });
    }
    if slot.is_secret() {
        parts.push(if zh {
            "这是密钥，绝不会回显".into()
        } else {
            "A secret; never echoed back".into()
        });
    }
    let end = if zh { '。' } else { '.' };
    parts
        .into_iter()
        .map(|mut p| {
            if !p.ends_with(['.', '?', '!', '。', '？', '！', '）', ')']) {
                p.push(end);
            }
            p
        })
        .collect::<Vec<_>>()
        .join(if zh { "" } else { " " })
}

/// Bounds as integers when they are whole, so `maximum: 60` does not read `60.0`.
fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

/// A function's parameters, guaranteed to be an object schema (MCP requires one even when a
/// function takes nothing).
pub(crate) fn object_schema(params: &Value) -> Value {
    match params {
        Value::Object(m) if m.get("type") == Some(&json!("object")) => params.clone(),
        _ => json!({ "type": "object", "additionalProperties": false }),
    }
}

/// The keywords of Gemini's `Schema` object (OpenAPI 3.0 subset).
const GEMINI_KEYS: &[&str] = &[
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
];

/// Gemini documents only `enum` and `date-time` formats for strings and numeric formats.
const GEMINI_FORMATS: &[&str] = &["enum", "date-time", "int32", "int64", "float", "double"];

pub(crate) fn gemini_schema(schema: &Value) -> Value {
    let Value::Object(m) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (k, v) in m {
        if !GEMINI_KEYS.contains(&k.as_str()) {
            continue;
        }
        let v = match k.as_str() {
            "properties" => match v {
                Value::Object(props) => Value::Object(
                    props
                        .iter()
                        .map(|(n, p)| (n.clone(), gemini_schema(p)))
                        .collect(),
                ),
                other => other.clone(),
            },
            "items" => gemini_schema(v),
            "anyOf" => match v {
                Value::Array(items) => Value::Array(items.iter().map(gemini_schema).collect()),
                other => other.clone(),
            },
            "format" if !v.as_str().is_some_and(|f| GEMINI_FORMATS.contains(&f)) => continue,
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}
