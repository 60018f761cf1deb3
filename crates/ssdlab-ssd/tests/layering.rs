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

// The data path's stages (docs/architecture.md, "The data path's stages"): each folder of
// `simulation/data_path/` is a stage (the NAND path at the bottom, each stage in front of it); the
// files directly in `data_path/` are the interface and what the stages share (`stage.rs`, `pages.rs`,
// `result.rs`, `witness.rs`), the integrity oracle around the whole path (`oracle.rs`) and the
// wiring (`mod.rs`). A stage reaches another only through the interface: it names no other stage's
// module or type. A stage never names the oracle (it reports the data it moves through its
// witness). And the data path takes nothing from the wiring above it (so no import circle runs
// through it): of `simulation/` it names only itself and the leaf modules in `DATA_PATH_MAY_USE`.

/// The integrity oracle's types, which no stage may name (`data_path/oracle.rs`).
const ORACLE_TYPES: &[&str] = &["Oracle", "Integrity"];

/// Modules of `simulation/` outside the data path that the data path may use (they use nothing of
/// `simulation/` themselves: a test below checks).
const DATA_PATH_MAY_USE: &[&str] = &["page_set"];

/// The module path of a file under `src/` (`simulation/data_path/nand/mod.rs` is
/// `simulation::data_path::nand`).
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().to_string()).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs").to_string();
        if stem != "mod" && stem != "lib" {
            parts.push(stem);
        }
    }
    parts
}

/// Every path a file's code names through `crate::` or `super::`, resolved to the module path it
/// starts with plus its next segment (`super::pages::TaggedPage` in `data_path/nand/mod.rs` is
/// `simulation::data_path::pages`), with its line.
fn resolved_paths(own: &[String], text: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = code_of(line);
        let mut at = 0;
        while at < code.len() {
            let rest = &code[at..];
            let starts_word = at == 0 || !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
            let (mut base, mut tail) = if starts_word && rest.starts_with("crate::") {
                (Vec::new(), &rest["crate::".len()..])
            } else if starts_word && rest.starts_with("super::") {
                (own.to_vec(), rest)
            } else {
                at += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            };
            while let Some(after) = tail.strip_prefix("super::") {
                base.pop();
                tail = after;
            }
            let mut segments = base;
            // Up to four more segments (enough to reach a stage and what is in it from `crate::`).
            let mut next = tail;
            for _ in 0..4 {
                let name: String = next.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if name.is_empty() {
                    break;
                }
                segments.push(name.clone());
                match next[name.len()..].strip_prefix("::") {
                    Some(more) if !more.starts_with('{') => next = more,
                    _ => break,
                }
            }
            found.push((index + 1, segments));
            at += rest.len() - tail.len() + 1;
        }
    }
    found
}

/// What is wrong with the paths of one file of the data path (`own`: its module path; `stages`: the
/// stage folders; `stage_types`: each stage's types).
fn data_path_violations(
    own: &[String],
    text: &str,
    file: &str,
    stages: &[String],
    stage_types: &[(String, String)],
) -> Vec<String> {
    let mut violations = Vec::new();
    let own_stage = own.get(2).filter(|name| stages.contains(name)).cloned();
    for (line, path) in resolved_paths(own, text) {
        if path.first().map(String::as_str) != Some("simulation") {
            continue;
        }
        match path.get(1).map(String::as_str) {
            Some("data_path") => {
                if let (Some(own_stage), Some(target)) = (&own_stage, path.get(2)) {
                    if stages.contains(target) && target != own_stage {
                        violations.push(format!(
                            "{file}:{line}: stage `{own_stage}` uses stage `{target}` (only through `stage.rs`)"
                        ));
                    }
                    if target == "oracle" {
                        violations.push(format!(
                            "{file}:{line}: stage `{own_stage}` uses the integrity oracle (it reports through `witness.rs`)"
                        ));
                    }
                }
            }
            Some(module) if DATA_PATH_MAY_USE.contains(&module) => {}
            Some(other) => {
                violations.push(format!("{file}:{line}: the data path uses `simulation::{other}`, which is above it"))
            }
            None => {}
        }
    }
    if let Some(own_stage) = &own_stage {
        for (index, line) in text.lines().enumerate() {
            let code = code_of(line);
            let words = || code.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            if let Some(name) = words().find(|word| ORACLE_TYPES.contains(word)) {
                violations.push(format!(
                    "{file}:{}: stage `{own_stage}` names `{name}`, the integrity oracle's (it reports through `witness.rs`)",
                    index + 1
                ));
            }
            for (stage, name) in stage_types {
                let own_type = stage_types.iter().any(|(other, same)| other == own_stage && same == name);
                if stage != own_stage
                    && !own_type
                    && code.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|word| word == name)
                {
                    violations.push(format!(
                        "{file}:{}: stage `{own_stage}` names `{name}`, a type of stage `{stage}`",
                        index + 1
                    ));
                }
            }
        }
    }
    violations
}

/// The types a stage's files declare for use outside their module (`pub(...) struct NAME`).
fn declared_types(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| code_of(line).trim_start().starts_with("pub"))
        .filter_map(|line| code_of(line).split("struct ").nth(1))
        .map(|rest| rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>())
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn stages_reach_each_other_only_through_the_interface_and_take_nothing_from_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let data_path = src.join("simulation/data_path");
    let mut files = Vec::new();
    source_files(&data_path, &mut files);
    let stages: Vec<String> = std::fs::read_dir(&data_path)
        .expect("data_path is readable")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_dir())
        .map(|path| path.file_name().map(|name| name.to_string_lossy().to_string()).unwrap_or_default())
        .collect();
    assert!(stages.len() >= 3 && stages.contains(&"nand".to_string()), "stages found: {stages:?}");
    let source = |file: &PathBuf| {
        let text = std::fs::read_to_string(file).expect("readable source");
        text.split("\n#[cfg(test)]").next().unwrap_or_default().to_string()
    };
    let mut stage_types = Vec::new();
    for file in &files {
        let own = module_path(file.strip_prefix(&src).expect("under src"));
        if let Some(stage) = own.get(2).filter(|name| stages.contains(name)) {
            stage_types.extend(declared_types(&source(file)).into_iter().map(|name| (stage.clone(), name)));
        }
    }
    let mut violations = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let own = module_path(relative);
        violations.extend(data_path_violations(
            &own,
            &source(file),
            &relative.display().to_string(),
            &stages,
            &stage_types,
        ));
    }
    // The leaves the data path may use are leaves: they use nothing of `simulation/`.
    for leaf in DATA_PATH_MAY_USE {
        let file = src.join(format!("simulation/{leaf}.rs"));
        let own = module_path(file.strip_prefix(&src).expect("under src"));
        for (line, path) in resolved_paths(&own, &source(&file)) {
            if path.first().map(String::as_str) == Some("simulation") && path.get(1) != Some(&leaf.to_string()) {
                violations
                    .push(format!("simulation/{leaf}.rs:{line}: `{leaf}` is no leaf: it uses {}", path.join("::")));
            }
        }
    }
    assert!(violations.is_empty(), "the data path's stages (docs/architecture.md):\n{}", violations.join("\n"));
}

#[test]
fn a_stage_naming_a_sibling_or_the_wiring_is_reported() {
    let stages = vec!["nand".to_string(), "data_cache".to_string(), "hybrid_scm".to_string()];
    let types = vec![("nand".to_string(), "NandPath".to_string())];
    let own = module_path(Path::new("simulation/data_path/data_cache/mod.rs"));
    let text = "use super::pages::TaggedPage;\nuse super::nand::Thing;\nuse crate::simulation::DeleteSummary;\nfn f(n: &NandPath) {}\nuse crate::simulation::data_path::hybrid_scm::X;\nuse crate::simulation::page_set::PageSet;\n";
    let found = data_path_violations(&own, text, "data_cache/mod.rs", &stages, &types);
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found[0].starts_with("data_cache/mod.rs:2: stage `data_cache` uses stage `nand`"), "{found:?}");
    assert!(found[1].starts_with("data_cache/mod.rs:3: the data path uses `simulation::DeleteSummary`"), "{found:?}");
    assert!(found[2].starts_with("data_cache/mod.rs:5: stage `data_cache` uses stage `hybrid_scm`"), "{found:?}");
    assert!(found[3].starts_with("data_cache/mod.rs:4: stage `data_cache` names `NandPath`"), "{found:?}");
    // A deeper file resolves `super::super` to the data path itself.
    let own = module_path(Path::new("simulation/data_path/nand/mapping_cache/summary.rs"));
    assert_eq!(
        resolved_paths(&own, "use super::super::super::stage::X;")[0].1,
        ["simulation", "data_path", "stage", "X"]
    );
    assert_eq!(
        resolved_paths(&own, "use crate::simulation::data_path::pages::{A, B};")[0].1,
        ["simulation", "data_path", "pages"]
    );
    assert!(data_path_violations(&own, "use super::MappingCache;", "s.rs", &stages, &types).is_empty());
    // A stage that reaches for the oracle instead of its witness.
    let own = module_path(Path::new("simulation/data_path/hybrid_scm/mod.rs"));
    let text = "use super::witness::Witness;\nuse super::oracle::Oracle;\nfn f(o: &mut Integrity) {}\n";
    let found = data_path_violations(&own, text, "hybrid_scm/mod.rs", &stages, &types);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].starts_with("hybrid_scm/mod.rs:2: stage `hybrid_scm` uses the integrity oracle"), "{found:?}");
    assert!(found[1].starts_with("hybrid_scm/mod.rs:2: stage `hybrid_scm` names `Oracle`"), "{found:?}");
    assert!(found[2].starts_with("hybrid_scm/mod.rs:3: stage `hybrid_scm` names `Integrity`"), "{found:?}");
}

/// The import edges between the modules of one folder tree: for each module (by path), the modules
/// its code names (the longest module path each named path starts with), leaving out itself and its
/// ancestors (a child naming its parent's items is how Rust modules nest, not a circle).
fn import_edges(
    modules: &std::collections::BTreeMap<Vec<String>, String>,
) -> std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<Vec<String>>> {
    let mut edges = std::collections::BTreeMap::new();
    for (own, text) in modules {
        let mut targets = std::collections::BTreeSet::new();
        for (_, path) in resolved_paths(own, text) {
            let target = (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|prefix| modules.contains_key(prefix));
            if let Some(target) = target.filter(|target| !own.starts_with(target)) {
                targets.insert(target);
            }
        }
        edges.insert(own.clone(), targets);
    }
    edges
}

/// A circle in `edges`, if any, as the modules on it.
fn first_circle(
    edges: &std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<Vec<String>>>,
) -> Option<Vec<String>> {
    fn visit(
        node: &Vec<String>,
        edges: &std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<Vec<String>>>,
        state: &mut std::collections::BTreeMap<Vec<String>, bool>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(true) => return None,
            Some(false) => {
                let at = stack.iter().position(|on| on == node).unwrap_or(0);
                return Some(stack[at..].iter().map(|module| module.join("::")).collect());
            }
            None => {}
        }
        state.insert(node.clone(), false);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, state, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        state.insert(node.clone(), true);
        None
    }
    let mut state = std::collections::BTreeMap::new();
    edges.keys().find_map(|node| visit(node, edges, &mut state, &mut Vec::new()))
}

#[test]
fn no_import_circle_inside_simulation() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src.join("simulation"), &mut files);
    let modules: std::collections::BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(file).expect("readable source");
            let code = text.split("\n#[cfg(test)]").next().unwrap_or_default().to_string();
            (module_path(file.strip_prefix(&src).expect("under src")), code)
        })
        .collect();
    assert!(modules.len() > 30, "simulation/ modules found: {}", modules.len());
    let circle = first_circle(&import_edges(&modules));
    assert!(circle.is_none(), "an import circle inside simulation/: {}", circle.unwrap_or_default().join(" -> "));
}

#[test]
fn an_import_circle_is_found() {
    let module = |path: &str| path.split("::").map(str::to_string).collect::<Vec<String>>();
    let modules: std::collections::BTreeMap<Vec<String>, String> = [
        ("simulation::a", "use super::b::X;"),
        ("simulation::b", "use crate::simulation::c::Y;"),
        ("simulation::c", "fn f() { super::a::g() }"),
        ("simulation::d", "use super::a::X;"),
        ("simulation::d::e", "use super::Z; pub(in crate::simulation) fn h() {}"),
    ]
    .into_iter()
    .map(|(path, text)| (module(path), text.to_string()))
    .collect();
    let edges = import_edges(&modules);
    assert!(edges[&module("simulation::d::e")].is_empty(), "a child naming its parent is no edge: {edges:?}");
    let circle = first_circle(&edges).expect("a -> b -> c -> a");
    assert_eq!(circle, ["simulation::a", "simulation::b", "simulation::c"]);
    let mut broken = modules.clone();
    broken.insert(module("simulation::c"), "fn f() {}".to_string());
    assert!(first_circle(&import_edges(&broken)).is_none());
}
