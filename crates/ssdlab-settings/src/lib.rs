//! # ssdlab-settings
//!
//! Settings files of every ssdlab layer (simulation configs, ECC curve specs) are TOML read the same
//! way: parse, apply `--set key=value` overrides to the tree, deserialize, and on failure say which
//! file, line and field. This crate holds that once; each layer keeps its own error enum and
//! converts [`SettingsError`] into it.

use serde::de::DeserializeOwned;

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("{origin}: {message}")]
    Parse { origin: String, message: String },

    #[error("{origin}{}: field `{field}`: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Invalid { origin: String, line: Option<usize>, field: String, message: String },

    #[error("override `{assignment}`: {message}")]
    Override { assignment: String, message: String },
}

/// Parses TOML text and applies the overrides. `origin` names the file in errors.
pub fn parse_with_overrides(text: &str, origin: &str, overrides: &[String]) -> Result<toml::Table, SettingsError> {
    let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| SettingsError::Parse {
        origin: origin.to_string(),
        message: describe_toml_error(text, &e),
    })?;
    for assignment in overrides {
        apply_override(&mut table, assignment)?;
    }
    Ok(table)
}

/// Deserializes a tree parsed from `text`; an error names the field's dotted path and its line.
pub fn deserialize_located<T: DeserializeOwned>(
    table: toml::Table,
    text: &str,
    origin: &str,
) -> Result<T, SettingsError> {
    serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
        let field = e.path().to_string();
        let line = locate_field(text, &field);
        SettingsError::Invalid { origin: origin.to_string(), line, field, message: e.into_inner().to_string() }
    })
}

/// [`parse_with_overrides`] then [`deserialize_located`].
pub fn load<T: DeserializeOwned>(text: &str, origin: &str, overrides: &[String]) -> Result<T, SettingsError> {
    let table = parse_with_overrides(text, origin, overrides)?;
    deserialize_located(table, text, origin)
}

/// Applies `a.b.c=value` to a TOML tree. The value is read as a TOML value (number, bool, string in
/// quotes, array, inline table) and otherwise taken as a bare string.
pub fn apply_override(table: &mut toml::Table, assignment: &str) -> Result<(), SettingsError> {
    let (key, raw) = assignment.split_once('=').ok_or_else(|| SettingsError::Override {
        assignment: assignment.to_string(),
        message: "expected key=value, e.g. ftl.garbage_collection.policy=greedy".into(),
    })?;
    let key = key.trim();
    let raw = raw.trim();
    let value = match format!("v = {raw}").parse::<toml::Table>() {
        Ok(mut parsed) => parsed.remove("v").unwrap_or(toml::Value::String(raw.to_string())),
        // A number TOML cannot hold is not a bare string: taken as one, it was reported as
        // "invalid type: string" against a numeric field.
        Err(_) if looks_like_integer(raw) => {
            return Err(SettingsError::Override {
                assignment: assignment.to_string(),
                message: format!("{raw} is beyond the integers a setting can hold ({} to {})", i64::MIN, i64::MAX),
            })
        }
        Err(_) => toml::Value::String(raw.to_string()),
    };
    let parts: Vec<&str> = key.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(SettingsError::Override {
            assignment: assignment.to_string(),
            message: format!("empty segment in key {key:?}"),
        });
    }
    let mut current = table;
    for part in &parts[..parts.len() - 1] {
        let entry = current.entry(part.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        current = match entry {
            toml::Value::Table(inner) => inner,
            _ => {
                return Err(SettingsError::Override {
                    assignment: assignment.to_string(),
                    message: format!("`{part}` is a value, not a table"),
                })
            }
        };
    }
    current.insert(parts[parts.len() - 1].to_string(), value);
    Ok(())
}

/// Whether `raw` is written as an integer (decimal with optional sign and `_` separators, or hex,
/// octal or binary with its prefix), whatever its size.
fn looks_like_integer(raw: &str) -> bool {
    let unsigned = raw.strip_prefix(['+', '-']).unwrap_or(raw);
    let (digits, radix) = match unsigned.get(..2) {
        Some("0x") => (&unsigned[2..], 16),
        Some("0o") => (&unsigned[2..], 8),
        Some("0b") => (&unsigned[2..], 2),
        _ => (unsigned, 10),
    };
    digits.chars().next().is_some_and(|first| first.is_digit(radix))
        && digits.chars().all(|c| c == '_' || c.is_digit(radix))
}

pub fn describe_toml_error(text: &str, error: &toml::de::Error) -> String {
    match error.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: {}", error.message())
        }
        None => error.message().to_string(),
    }
}

/// Best-effort line number of a dotted field path in TOML text (for error messages).
pub fn locate_field(text: &str, field: &str) -> Option<usize> {
    let parts: Vec<&str> = field.split('.').filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        return None;
    }
    let mut section: Vec<String> = Vec::new();
    let mut best: Option<usize> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') {
            let name = line.trim_matches(|c| c == '[' || c == ']').trim();
            section = name.split('.').map(|s| s.trim().to_string()).collect();
            if section.iter().map(String::as_str).eq(parts.iter().copied()) {
                best = Some(index + 1);
            }
            continue;
        }
        if let Some((key, _)) = line.split_once('=') {
            let mut path: Vec<&str> = section.iter().map(String::as_str).collect();
            path.extend(key.trim().split('.').map(str::trim));
            if path.iter().copied().eq(parts.iter().copied()) {
                return Some(index + 1);
            }
            if best.is_none() && parts.starts_with(&path) {
                best = Some(index + 1);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        #[allow(dead_code)]
        name: String,
        inner: Inner,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        count: u32,
    }

    #[test]
    fn errors_name_origin_line_and_field() {
        let text = "name = \"x\"\n[inner]\ncount = \"three\"\n";
        let error = load::<Outer>(text, "spec.toml", &[]).unwrap_err().to_string();
        assert!(error.starts_with("spec.toml:3: field `inner.count`"), "{error}");
        let error = load::<Outer>("name = \n", "spec.toml", &[]).unwrap_err().to_string();
        assert!(error.contains("spec.toml: line 1"), "{error}");
    }

    #[test]
    fn overrides_replace_and_create_values() {
        let text = "name = \"x\"\n[inner]\ncount = 1\n";
        let outer: Outer = load(text, "spec.toml", &["inner.count=7".into()]).unwrap();
        assert_eq!(outer.inner.count, 7);
        let error = load::<Outer>(text, "spec.toml", &["name.deeper=1".into()]).unwrap_err().to_string();
        assert!(error.contains("`name` is a value"), "{error}");
        assert!(load::<Outer>(text, "spec.toml", &["novalue".into()]).is_err());
    }

    #[test]
    fn an_integer_too_large_for_a_setting_says_so() {
        let text = "name = \"x\"\n[inner]\ncount = 1\n";
        for raw in ["9223372036854775808", "-9223372036854775809", "99_999_999_999_999_999_999", "0xFFFFFFFFFFFFFFFFFF"]
        {
            let error = load::<Outer>(text, "spec.toml", &[format!("inner.count={raw}")]).unwrap_err().to_string();
            assert!(error.contains("beyond the integers a setting can hold"), "{raw}: {error}");
            assert!(!error.contains("invalid type"), "{error}");
        }
        // A bare word is still a string, and an integer in range still an integer.
        assert!(load::<Outer>(text, "spec.toml", &["name=plain".into()]).is_ok());
        assert!(load::<Outer>(text, "spec.toml", &["inner.count=9_000".into()]).is_ok());
    }
}
