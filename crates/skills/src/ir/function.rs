//! Function-style capabilities (seed 003): a name, a description and JSON-Schema parameters.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Risk;
use crate::text::Text;

#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Function {
    pub name: String,
    pub description: Text,
    #[serde(default)]
    pub category: Option<String>,
    /// Defaults to `query`: functions read data.
    #[serde(default = "query")]
    pub risk: Risk,
    /// A JSON Schema (draft 2020-12) whose top level is `type: object`.
    pub parameters: serde_json::Value,
    #[serde(skip)]
    pub(crate) validator: Option<Arc<jsonschema::Validator>>,
}

fn query() -> Risk {
    Risk::Query
}

impl Function {
    pub fn validator(&self) -> Option<&jsonschema::Validator> {
        self.validator.as_deref()
    }
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Function")
            .field("name", &self.name)
            .field("description", &self.description)
            .field("category", &self.category)
            .field("risk", &self.risk)
            .field("parameters", &self.parameters)
            .finish_non_exhaustive()
    }
}
