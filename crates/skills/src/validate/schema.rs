//! A function's arguments against its JSON Schema. The common keywords (type, enum, pattern,
//! minimum/maximum, required, additionalProperties, array items) are checked here so the user
//! gets a precise bilingual message; the full schema is then checked by `jsonschema`, so nothing
//! the schema forbids can slip through even if this walk does not know the keyword.

use regex::Regex;
use serde_json::{Map, Value};

use super::{ArgError, InvalidArguments, Validated, show};
use crate::ir::Function;
use crate::text::Text;

impl Function {
    /// Validate a tool call's arguments before any network call; fill schema defaults.
    pub fn validate_args(&self, args: &Value) -> Result<Validated, InvalidArguments> {
        let fail = |e: ArgError| InvalidArguments { errors: vec![e] };
        let Value::Object(given) = args else {
            return Err(fail(ArgError::wrong_type("arguments", args, "object")));
        };
        let schema = &self.parameters;
        let empty = Map::new();
        let props = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let mut errors = Vec::new();
        let mut out = Validated::default();
        for (name, value) in given {
            match props.get(name) {
                Some(prop) => match check_property(name, prop, value) {
                    Ok(()) => {
                        out.args.insert(name.clone(), value.clone());
                    }
                    Err(e) => errors.push(e),
                },
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(ArgError::unknown(name, props.keys().cloned().collect()));
                }
                None => {
                    out.args.insert(name.clone(), value.clone());
                }
            }
        }
        if let Some(required) = schema.get("required").and_then(Value::as_array) {
            for name in required.iter().filter_map(Value::as_str) {
                if !given.contains_key(name) {
                    errors.push(ArgError::missing(name));
                }
            }
        }
        if !errors.is_empty() {
            return Err(InvalidArguments { errors });
        }
        for (name, prop) in props {
            if let (false, Some(default)) = (out.args.contains_key(name), prop.get("default")) {
                out.args.insert(name.clone(), default.clone());
            }
        }
        // Backstop: the whole schema, for keywords the walk above does not interpret.
        if let Some(validator) = self.validator() {
            let instance = Value::Object(out.args.clone());
            if let Err(e) = validator.validate(&instance) {
                let path = e.instance_path().to_string();
                let field = path
                    .trim_start_matches('/')
                    .split('/')
                    .next()
                    .unwrap_or("arguments");
                let field = if field.is_empty() { "arguments" } else { field };
                return Err(fail(ArgError::invalid(
                    field,
                    format!("「{field}」不符合参数定义：{e}"),
                    format!("`{field}` does not satisfy the parameter schema: {e}"),
                )));
            }
        }
        Ok(out)
    }
}

fn check_property(name: &str, prop: &Value, value: &Value) -> Result<(), ArgError> {
    if let Some(ty) = prop.get("type").and_then(Value::as_str) {
        let ok = match ty {
            "string" => value.is_string(),
            "integer" => value.as_i64().is_some() || value.as_u64().is_some(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            "null" => value.is_null(),
            _ => true,
        };
        if !ok {
            return Err(ArgError::wrong_type(name, value, ty));
        }
    }
    if let Some(options) = prop.get("enum").and_then(Value::as_array)
        && !options.contains(value)
    {
        return Err(ArgError::not_allowed(
            name,
            value,
            options.iter().map(show).collect(),
        ));
    }
    if let (Some(pattern), Some(s)) = (prop.get("pattern").and_then(Value::as_str), value.as_str())
    {
        // An uncompilable pattern was rejected when the skill loaded; treat it as no pattern.
        if let Ok(re) = Regex::new(pattern)
            && !re.is_match(s)
        {
            let hint = prop
                .get("examples")
                .and_then(Value::as_array)
                .and_then(|e| e.first())
                .map(show);
            return Err(ArgError::pattern(name, s, pattern, hint.as_deref()));
        }
    }
    if let Some(n) = value.as_f64() {
        let min = prop.get("minimum").and_then(Value::as_f64);
        let max = prop.get("maximum").and_then(Value::as_f64);
        if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
            // A tool call's argument: the model knows it by its identifier.
            let label = Text::new(name, format!("`{name}`"));
            return Err(ArgError::out_of_range(name, &label, value, min, max));
        }
    }
    if let (Some(items), Some(values)) = (prop.get("items"), value.as_array()) {
        for (i, item) in values.iter().enumerate() {
            check_property(&format!("{name}[{i}]"), items, item)?;
        }
    }
    Ok(())
}
