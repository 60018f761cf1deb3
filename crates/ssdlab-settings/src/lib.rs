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
    deserialize_overridden(table, text, origin, &[])
}

/// [`deserialize_located`] for a tree that `overrides` were applied to: when the failing field was
/// set by an override, the error names that `--set` instead of a line of `text` (where the field
/// may not be, or holds a value the override replaced).
pub fn deserialize_overridden<T: DeserializeOwned>(
    table: toml::Table,
    text: &str,
    origin: &str,
    overrides: &[String],
) -> Result<T, SettingsError> {
    // Kept to look the failing value up when serde's message does not say what it was.
    let tree = toml::Value::Table(table);
    serde_path_to_error::deserialize::<_, T>(tree.clone()).map_err(|e| {
        let field = e.path().to_string();
        let message = explain::<T>(&tree, &field, e.into_inner().message());
        invalid_field(text, origin, overrides, field, message)
    })
}

/// [`parse_with_overrides`] then [`deserialize_overridden`].
pub fn load<T: DeserializeOwned>(text: &str, origin: &str, overrides: &[String]) -> Result<T, SettingsError> {
    let table = parse_with_overrides(text, origin, overrides)?;
    deserialize_overridden(table, text, origin, overrides)
}

/// The error of a field found invalid (by deserializing or by a later check): blamed on the last
/// override that set the field (or a table holding it), otherwise on the field's line in `text`.
pub fn invalid_field(text: &str, origin: &str, overrides: &[String], field: String, message: String) -> SettingsError {
    match blamed_override(overrides, &field) {
        Some(assignment) => {
            // A long value (a whole table or array, e.g. the column map `--columns` and its unit
            // options make) is left out: the field's path says where in it the problem is.
            let shown = match assignment.split_once('=') {
                Some((key, _)) if assignment.chars().count() > LONGEST_OVERRIDE_SHOWN => format!("{}=…", key.trim()),
                _ => assignment.to_string(),
            };
            SettingsError::Invalid { origin: format!("--set {shown}"), line: None, field, message }
        }
        None => SettingsError::Invalid { origin: origin.to_string(), line: locate_field(text, &field), field, message },
    }
}

/// The longest `key=value` an error quotes whole.
const LONGEST_OVERRIDE_SHOWN: usize = 80;

/// The last override whose key is the field, a table above it, or (for a field that failed as a
/// whole, e.g. an unknown top-level key) a key below it.
fn blamed_override<'a>(overrides: &'a [String], field: &str) -> Option<&'a str> {
    let field = path_segments(field);
    if field.is_empty() {
        return None;
    }
    overrides.iter().rev().map(|assignment| assignment.trim()).find(|assignment| {
        let key = assignment.split_once('=').map_or(*assignment, |(key, _)| key);
        let key: Vec<&str> = key.split('.').map(str::trim).collect();
        field.starts_with(&key) || key.starts_with(&field)
    })
}

/// `host.flows[0].trace` as `["host", "flows", "0", "trace"]`.
fn path_segments(path: &str) -> Vec<&str> {
    path.split(['.', '[', ']']).map(str::trim).filter(|segment| !segment.is_empty()).collect()
}

/// serde's `message` for `field`, made to say what was expected and what was given, with the
/// nearest valid name for a misspelt key or variant.
fn explain<T: DeserializeOwned>(tree: &toml::Value, field: &str, message: &str) -> String {
    if let Some(variants) = enum_given_a_non_string::<T>(tree, field, message) {
        let given = value_at(tree, field).map(describe_value).unwrap_or_else(|| "another type".into());
        return format!("expected one of {variants}, got {given}");
    }
    match did_you_mean(message) {
        Some(nearest) => format!("{message}; did you mean `{nearest}`?"),
        None => message.to_string(),
    }
}

/// The variant list (`` `a`, `b` ``) when `field` is an enum given a number, boolean, array or table:
/// serde then says only "invalid type: unit variant" (the toml deserializer's wording), so the field
/// is read again with a string no variant has, whose error lists the variants.
fn enum_given_a_non_string<T: DeserializeOwned>(tree: &toml::Value, field: &str, message: &str) -> Option<String> {
    if !message.starts_with("invalid type") || matches!(value_at(tree, field)?, toml::Value::String(_)) {
        return None;
    }
    const NO_VARIANT: &str = "\u{1}";
    let mut probe = tree.clone();
    *value_at_mut(&mut probe, field)? = toml::Value::String(NO_VARIANT.into());
    let error = serde_path_to_error::deserialize::<_, T>(probe).err()?;
    if error.path().to_string() != field {
        return None;
    }
    let message = error.into_inner().message().to_string();
    let rest = message.strip_prefix(&format!("unknown variant `{NO_VARIANT}`, expected "))?;
    Some(rest.strip_prefix("one of ").unwrap_or(rest).to_string())
}

fn value_at<'a>(tree: &'a toml::Value, field: &str) -> Option<&'a toml::Value> {
    path_segments(field).into_iter().try_fold(tree, |value, segment| match value {
        toml::Value::Table(table) => table.get(segment),
        toml::Value::Array(items) => items.get(segment.parse::<usize>().ok()?),
        _ => None,
    })
}

fn value_at_mut<'a>(tree: &'a mut toml::Value, field: &str) -> Option<&'a mut toml::Value> {
    path_segments(field).into_iter().try_fold(tree, |value, segment| match value {
        toml::Value::Table(table) => table.get_mut(segment),
        toml::Value::Array(items) => items.get_mut(segment.parse::<usize>().ok()?),
        _ => None,
    })
}

/// A value as an error message names it: "integer 3", "boolean true", "an array".
fn describe_value(value: &toml::Value) -> String {
    match value {
        toml::Value::String(text) => format!("string {text:?}"),
        toml::Value::Integer(number) => format!("integer {number}"),
        toml::Value::Float(number) => format!("float {number}"),
        toml::Value::Boolean(flag) => format!("boolean {flag}"),
        toml::Value::Datetime(datetime) => format!("date-time {datetime}"),
        toml::Value::Array(_) => "an array".into(),
        toml::Value::Table(_) => "a table".into(),
    }
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" (or "unknown variant ..."), the listed
/// name nearest to `x`: equal but for case and `-`/`_`, or within an edit distance of a third of
/// its length (at least 1), so a wild guess gets no suggestion.
fn did_you_mean(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `").or_else(|| message.strip_prefix("unknown variant `"))?;
    let (given, rest) = rest.split_once('`')?;
    let (_, expected) = rest.split_once("expected")?;
    let normalise = |name: &str| name.to_lowercase().replace('-', "_");
    let given = normalise(given);
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|candidate| (edit_distance(&given, &normalise(candidate)), candidate))
        .filter(|(distance, candidate)| *distance * 3 <= given.chars().count().max(candidate.chars().count()).max(3))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate.to_string())
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, left) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, right) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(left != *right);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
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
        // Only a plain word is a bare string: an array, inline table, quoted string or number that
        // TOML cannot read was reported as "invalid type: string" against the field, hiding the
        // real mistake (a duplicate key, an integer too large inside a table, a missing quote).
        Err(error) if !is_bare_word(raw) => {
            return Err(SettingsError::Override {
                assignment: assignment.to_string(),
                message: describe_value_error(raw, &error),
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

/// Whether `raw` may be taken as a bare string (`greedy`, `/data/trace.csv`): not written as a
/// number, and free of the characters that make TOML arrays, tables, strings and comments.
fn is_bare_word(raw: &str) -> bool {
    let numeric = raw.chars().any(|c| c.is_ascii_digit())
        && raw.chars().all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | '_' | 'e' | 'E'));
    !numeric && !raw.contains(['[', ']', '{', '}', '"', '\''])
}

/// A TOML error in the value of `key=value`, its position counted within the value.
fn describe_value_error(raw: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end();
    match error.span() {
        // The value was parsed as `v = <value>`.
        Some(span) if span.start >= 4 && span.start - 4 < raw.len() => {
            let start = span.start - 4;
            let end = (span.end.max(span.start + 1) - 4).min(raw.len());
            let near = raw.get(start..end).filter(|part| !part.trim().is_empty());
            match near {
                // toml's own words for it are "invalid type: integer `...` as i128".
                Some(part) if looks_like_integer(part) && part.replace('_', "").parse::<i64>().is_err() => format!(
                    "{part} (character {} of the value) is beyond the integers a setting can hold ({} to {})",
                    start + 1,
                    i64::MIN,
                    i64::MAX
                ),
                Some(part) => {
                    format!(
                        "the value is not valid TOML: {message} (at `{part}`, character {} of the value)",
                        start + 1
                    )
                }
                None => format!("the value is not valid TOML: {message} (at character {} of the value)", start + 1),
            }
        }
        _ => format!("the value is not valid TOML: {message}"),
    }
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

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Device {
        #[allow(dead_code)]
        policy: Policy,
        #[serde(default)]
        #[allow(dead_code)]
        events: Vec<Event>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Policy {
        Greedy,
        RoundRobin,
        CostBenefit,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Event {
        #[allow(dead_code)]
        at_ns: u64,
        #[allow(dead_code)]
        chip: u32,
    }

    const DEVICE: &str = "# a device\npolicy = \"greedy\"\n";

    fn device_error(assignment: &str) -> String {
        load::<Device>(DEVICE, "preset default", &[assignment.to_string()]).unwrap_err().to_string()
    }

    #[test]
    fn a_field_set_by_an_override_is_blamed_on_that_set_not_the_file_line() {
        let error = device_error("policy=\"cost-benefit\"");
        assert!(
            error.starts_with("--set policy=\"cost-benefit\": field `policy`: unknown variant `cost-benefit`"),
            "{error}"
        );
        assert!(error.ends_with("did you mean `cost_benefit`?"), "{error}");
        assert!(!error.contains("preset default") && !error.contains("\nin `"), "{error}");
        // A field inside a table the override gave, and a later check's failure, too.
        let error = device_error("events=[{at_ns=1,chp=0}]");
        assert!(error.starts_with("--set events=[{at_ns=1,chp=0}]: field `events[0].chp`"), "{error}");
        assert!(error.ends_with("did you mean `chip`?"), "{error}");
        let overrides = ["events=[]".to_string(), "policy=greedy".to_string()];
        let checked = invalid_field(DEVICE, "preset default", &overrides, "policy".into(), "not now".into());
        assert_eq!(checked.to_string(), "--set policy=greedy: field `policy`: not now");
        // A long value is left out, its field's path kept.
        let long = format!("events=[{}{{at_ns=1,chp=0}}]", "{at_ns=1,chip=0},".repeat(6));
        let error = device_error(&long);
        assert!(error.starts_with("--set events=…: field `events[6].chp`"), "{error}");
        // A field no override touched is still found in the file.
        let checked = invalid_field(DEVICE, "preset default", &overrides[..1], "policy".into(), "not now".into());
        assert_eq!(checked.to_string(), "preset default:2: field `policy`: not now");
        let error = load::<Device>("policy = \"cost-benefit\"\n", "mine.toml", &[]).unwrap_err().to_string();
        assert!(
            error.starts_with("mine.toml:1: field `policy`") && error.contains("did you mean `cost_benefit`?"),
            "{error}"
        );
    }

    #[test]
    fn unknown_keys_and_variants_suggest_the_nearest_only_when_near() {
        for (assignment, nearest) in [
            ("polcy=\"greedy\"", Some("policy")),
            ("policy=Greedy", Some("greedy")),
            ("policy=roundrobin", Some("round_robin")),
            ("policy=ROUND-ROBIN", Some("round_robin")),
            ("policy=xyz", None),
            ("policy=lru", None),
        ] {
            let error = device_error(assignment);
            match nearest {
                Some(name) => assert!(error.ends_with(&format!("; did you mean `{name}`?")), "{assignment}: {error}"),
                None => assert!(!error.contains("did you mean"), "{assignment}: {error}"),
            }
        }
        assert_eq!(edit_distance("polcy", "policy"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn an_enum_given_a_number_lists_its_variants() {
        for (value, given) in [("3", "integer 3"), ("true", "boolean true"), ("1.5", "float 1.5"), ("[1]", "an array")]
        {
            let error = device_error(&format!("policy={value}"));
            assert!(
                error.ends_with(&format!("expected one of `greedy`, `round_robin`, `cost_benefit`, got {given}")),
                "{value}: {error}"
            );
            assert!(!error.contains("unit variant"), "{error}");
        }
    }

    #[test]
    fn a_value_toml_cannot_read_is_reported_not_taken_as_a_string() {
        for (value, says) in [
            (
                "[{at_ns=99999999999999999999,chip=0}]",
                "99999999999999999999 (character 9 of the value) is beyond the integers",
            ),
            ("[{at_ns=1,chip=0,chip=1}]", "duplicate key (at `chip`, character 18 of the value)"),
            ("[{at_ns=1,chip=0}", "not valid TOML: unclosed array"),
            ("1e400", "not valid TOML"),
        ] {
            let error = device_error(&format!("events={value}"));
            assert!(error.starts_with(&format!("override `events={value}`")), "{error}");
            assert!(error.contains(says), "{value}: {error}");
            assert!(!error.contains("invalid type: string"), "{error}");
        }
        // Plain words are still strings: a variant, a path.
        assert!(load::<Device>(DEVICE, "spec.toml", &["policy=round_robin".into()]).is_ok());
        let mut table = toml::Table::new();
        apply_override(&mut table, "path=/data/my traces/a,b=c#1.csv").unwrap();
        assert_eq!(table["path"].as_str(), Some("/data/my traces/a,b=c#1.csv"));
    }
}
