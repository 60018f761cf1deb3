//! The SSD model's layering, checked: each top-level module of `src/` may use only modules of lower
//! layers (docs/architecture.md, "Allowed arrows"). The test reads every source file, takes each
//! `crate::MODULE` it names outside comments (in `use` lines and in paths), and fails on an arrow
//! that is not allowed, naming file and line. A new module goes into `LAYERS` where it belongs.
//! Unit tests are exempt (a test may build its fixture from any part, e.g. a config test loading a
//! preset): the scan stops at a file's `#[cfg(test)]` (test modules close their files) and skips
//! test-only files (`tests.rs`, `*_tests.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Lowest layer first. A module may use any module of a lower layer, none of its own or a higher one.
const LAYERS: &[&[&str]] = &[
    // Vocabulary with no dependencies.
    &["error", "tier", "cpu_time"],
    // Plain data, validated once.
    &["config"],
    &["geometry", "presets", "media", "retention", "io_pins"],
    &["device_layout", "flash_op", "metrics"],
    // Parts that know the media but not each other.
    &["energy", "read_path", "scm", "device_events", "host"],
    &["ftl"],
    &["middleware", "scheduler"],
    // The one place that wires the parts together.
    &["simulation"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn source_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            source_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// The code of a line without its `//` comment (string literals naming `crate::` are rare enough to
/// count; none today).
fn code_of(line: &str) -> &str {
    line.find("//").map_or(line, |at| &line[..at])
}

/// Every module a file names: `crate::NAME` paths, and the items of `use crate::{a::.., b}` lists
/// (one level: the top-level names inside the braces).
fn modules_named(text: &str) -> Vec<(usize, String)> {
    let mut named = Vec::new();
    let mut in_brace_list = false;
    let mut depth = 0i32;
    for (index, line) in text.lines().enumerate() {
        let code = code_of(line);
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(list) = rest.strip_prefix('{') {
                depth = 1;
                rest = list;
                named.extend(brace_items(rest, &mut depth).into_iter().map(|name| (index + 1, name)));
                in_brace_list = depth > 0;
                continue;
            }
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                named.push((index + 1, name));
            }
        }
        if in_brace_list && !code.contains("crate::{") {
            named.extend(brace_items(code, &mut depth).into_iter().map(|name| (index + 1, name)));
            in_brace_list = depth > 0;
        }
    }
    named
}

/// The top-level names of a brace list's text (continuing at nesting `depth`).
fn brace_items(text: &str, depth: &mut i32) -> Vec<String> {
    let mut items = Vec::new();
    let mut expecting_name = *depth == 1;
    let mut name = String::new();
    for c in text.chars() {
        match c {
            '{' => *depth += 1,
            '}' => {
                *depth -= 1;
                if *depth == 0 {
                    break;
                }
            }
            ',' if *depth == 1 => expecting_name = true,
            c if expecting_name && (c.is_alphanumeric() || c == '_') => name.push(c),
            _ if expecting_name && !name.is_empty() => {
                items.push(std::mem::take(&mut name));
                expecting_name = false;
            }
            _ => {}
        }
    }
    if !name.is_empty() {
        items.push(name);
    }
    items
}

/// The arrows of `text` (a file of `module`, in layer `own_layer`) that point to its own layer or above.
fn arrows_against_layering(module: &str, own_layer: usize, text: &str, file: &str) -> Vec<String> {
    let mut violations = Vec::new();
    for (line, used) in modules_named(text) {
        if used == module {
            continue;
        }
        match layer_of(&used) {
            Some(layer) if layer < own_layer => {}
            Some(_) => violations
                .push(format!("{file}:{line}: `{module}` (layer {own_layer}) uses `{used}`, which is not below it")),
            None => violations.push(format!("{file}:{line}: uses `crate::{used}`, a module in no layer")),
        }
    }
    violations
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let mut violations = Vec::new();
    let mut arrows: BTreeMap<(String, String), usize> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let first = relative.components().next().expect("a component").as_os_str().to_string_lossy().to_string();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let Some(own_layer) = layer_of(&module) else {
            violations.push(format!("{}: module `{module}` is in no layer of LAYERS", relative.display()));
            continue;
        };
        let name = file.file_name().map(|name| name.to_string_lossy().to_string()).unwrap_or_default();
        if name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable source");
        let text = text.split("\n#[cfg(test)]").next().unwrap_or_default();
        for (_, used) in modules_named(text) {
            if used != module {
                *arrows.entry((module.clone(), used.clone())).or_default() += 1;
            }
        }
        violations.extend(arrows_against_layering(&module, own_layer, text, &relative.display().to_string()));
    }
    assert!(arrows.len() > 30, "the scan found only {} arrows: is it reading the sources?", arrows.len());
    assert!(violations.is_empty(), "arrows against the layering (docs/architecture.md):\n{}", violations.join("\n"));
}

#[test]
fn the_scan_sees_brace_lists_and_paths_but_not_comments() {
    let text = "use crate::{config::A, ftl::{B, C},\n    scheduler::D};\n// crate::simulation in a comment\nlet x = crate::host::f(); // crate::energy";
    let names: Vec<String> = modules_named(text).into_iter().map(|(_, name)| name).collect();
    assert_eq!(names, ["config", "ftl", "scheduler", "host"]);
}

#[test]
fn an_upward_or_sideways_arrow_is_reported() {
    let metrics = layer_of("metrics").expect("metrics has a layer");
    let text = "use crate::config::A;\nuse crate::simulation::AgedDrive;\nfn f() { crate::flash_op::g() }";
    let found = arrows_against_layering("metrics", metrics, text, "metrics.rs");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("metrics.rs:2: `metrics`") && found[1].starts_with("metrics.rs:3:"), "{found:?}");
}
