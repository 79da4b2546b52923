//! The JavaScript-assignment feeds (Tencent `v_sh600519="…";`, Sina `var hq_str_sh601398="…";`):
//! one assignment per line, the key naming the instrument, the value a delimited record read
//! by position. This module finds the assignments and reads fields with their names, so a
//! layout error says which field of which line was wrong.

use std::str::FromStr;

use rust_decimal::Decimal;

use crate::error::QuoteError;
use crate::quote::SourceKind;

/// One `<prefix><key>="<value>";` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Assignment<'a> {
    pub key: &'a str,
    pub value: &'a str,
}

/// Every assignment in `text`, in order. Blank lines are skipped; any other line that is not a
/// complete assignment (truncated mid-way, no closing quote, a stray message) fails, naming it.
pub(crate) fn assignments<'a>(
    source: SourceKind,
    text: &'a str,
    prefix: &str,
) -> Result<Vec<Assignment<'a>>, QuoteError> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let parsed = line
            .strip_prefix(prefix)
            .and_then(|rest| rest.split_once("=\""))
            .and_then(|(key, rest)| {
                let value = rest
                    .strip_suffix("\";")
                    .or_else(|| rest.strip_suffix('"'))?;
                Some(Assignment { key, value })
            });
        match parsed {
            Some(assignment) if !assignment.key.is_empty() => found.push(assignment),
            _ => {
                return Err(QuoteError::UnknownFormat {
                    source,
                    detail: format!(
                        "line {} is not a `{prefix}…=\"…\";` assignment: `{}`",
                        index + 1,
                        shorten(line)
                    ),
                });
            }
        }
    }
    if found.is_empty() {
        return Err(QuoteError::UnknownFormat {
            source,
            detail: "no quote lines in the answer".into(),
        });
    }
    Ok(found)
}

/// A record's fields, read by position with the field's name for errors.
pub(crate) struct Fields<'a> {
    source: SourceKind,
    key: &'a str,
    fields: Vec<&'a str>,
}

impl<'a> Fields<'a> {
    /// Splits `value` on `separator`, and fails unless there are at least `needed` fields: a
    /// short record is a truncated one, whichever field the caller would have read first.
    pub fn split(
        source: SourceKind,
        key: &'a str,
        value: &'a str,
        separator: char,
        needed: usize,
    ) -> Result<Fields<'a>, QuoteError> {
        let fields: Vec<&str> = value.split(separator).collect();
        if fields.len() < needed {
            return Err(QuoteError::UnknownFormat {
                source,
                detail: format!(
                    "`{key}` has {} fields, expected at least {needed} (truncated?)",
                    fields.len()
                ),
            });
        }
        Ok(Fields {
            source,
            key,
            fields,
        })
    }

    pub fn text(&self, index: usize) -> &'a str {
        self.fields.get(index).map_or("", |f| f.trim())
    }

    /// A field that must be a number.
    pub fn decimal(&self, index: usize, name: &str) -> Result<Decimal, QuoteError> {
        let text = self.text(index);
        Decimal::from_str(text).map_err(|_| self.bad(index, name, text))
    }

    /// A traded price: a number above zero. Feeds write 0 before the first trade or while a
    /// listing is suspended, which is no price at all.
    pub fn price(&self, index: usize, name: &str) -> Result<Decimal, QuoteError> {
        let price = self.decimal(index, name)?;
        if price > Decimal::ZERO {
            Ok(price)
        } else {
            Err(self.bad(index, name, self.text(index)))
        }
    }

    /// A field that may be empty (or `-`) when the source has no value; anything else must be
    /// a number.
    pub fn optional_decimal(
        &self,
        index: usize,
        name: &str,
    ) -> Result<Option<Decimal>, QuoteError> {
        match self.text(index) {
            "" | "-" => Ok(None),
            _ => self.decimal(index, name).map(Some),
        }
    }

    /// A price field where the source writes 0 for "none yet" (no trade today, no open).
    pub fn optional_price(&self, index: usize, name: &str) -> Result<Option<Decimal>, QuoteError> {
        Ok(self
            .optional_decimal(index, name)?
            .filter(|price| !price.is_zero()))
    }

    pub fn optional_text(&self, index: usize) -> Option<String> {
        Some(self.text(index).to_string()).filter(|t| !t.is_empty())
    }

    pub fn bad(&self, index: usize, name: &str, text: &str) -> QuoteError {
        QuoteError::UnknownFormat {
            source: self.source,
            detail: format!(
                "`{}` field {index} ({name}) is `{}`",
                self.key,
                shorten(text)
            ),
        }
    }
}

fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn assignments_are_found_line_by_line() {
        let text = "v_sh600519=\"1~a\";\n\nv_hk00700=\"100~b\";\n";
        let found = assignments(SourceKind::Tencent, text, "v_").unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[1].key, "hk00700");
        assert_eq!(found[1].value, "100~b");
    }

    #[test]
    fn a_truncated_line_is_named() {
        let text = "v_sh600519=\"1~a\";\nv_hk00700=\"100~b~4";
        let err = assignments(SourceKind::Tencent, text, "v_").unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    #[test]
    fn fields_name_what_is_wrong() {
        let fields =
            Fields::split(SourceKind::Sina, "sh601398", "a,5.65,,x,0.000", ',', 5).unwrap();
        assert_eq!(fields.decimal(1, "open").unwrap(), dec!(5.65));
        assert_eq!(fields.optional_decimal(2, "previous close").unwrap(), None);
        assert_eq!(fields.optional_price(4, "high").unwrap(), None);
        let err = fields.decimal(3, "last").unwrap_err();
        assert!(err.to_string().contains("field 3 (last) is `x`"), "{err}");
        assert!(Fields::split(SourceKind::Sina, "sh601398", "a,b", ',', 5).is_err());
    }
}
