//! The shipped presets (configs/*.toml), compiled in so `ssdlab run NAME` works from any directory
//! and the embedded default needs no files.

use crate::config::SimulationConfig;
use crate::error::ConfigError;

pub const PRESETS: &[(&str, &str)] = &[
    ("default", include_str!("../../../configs/default.toml")),
    ("mqsim-default", include_str!("../../../configs/mqsim-default.toml")),
    ("seed002-ldpc", include_str!("../../../configs/seed002-ldpc.toml")),
    ("seed003-scrambler", include_str!("../../../configs/seed003-scrambler.toml")),
    ("bench-gc-steady", include_str!("../../../configs/bench-gc-steady.toml")),
    ("mlc-tlc-demo", include_str!("../../../configs/mlc-tlc-demo.toml")),
    ("seed000-aoa", include_str!("../../../configs/seed000-aoa.toml")),
    ("seed004-tlc-mlc", include_str!("../../../configs/seed004-tlc-mlc.toml")),
    ("seed001-hybrid-scm", include_str!("../../../configs/seed001-hybrid-scm.toml")),
    ("seed001-all-sscm", include_str!("../../../configs/seed001-all-sscm.toml")),
    ("two-flows", include_str!("../../../configs/two-flows.toml")),
    ("two-flows-disjoint", include_str!("../../../configs/two-flows-disjoint.toml")),
    ("disksim-postmark", include_str!("../../../configs/disksim-postmark.toml")),
];

pub fn names() -> Vec<&'static str> {
    PRESETS.iter().map(|(name, _)| *name).collect()
}

pub fn text(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

pub fn load(name: &str, overrides: &[String]) -> Result<SimulationConfig, ConfigError> {
    let text =
        text(name).ok_or_else(|| ConfigError::UnknownPreset { name: name.to_string(), known: names().join(", ") })?;
    SimulationConfig::from_toml_str(text, &format!("preset {name}"), overrides)
}

/// A preset name or a path to a TOML file.
pub fn resolve(name_or_path: &str, overrides: &[String]) -> Result<SimulationConfig, ConfigError> {
    let path = std::path::Path::new(name_or_path);
    if text(name_or_path).is_some() && !path.exists() {
        return load(name_or_path, overrides);
    }
    if path.exists() || name_or_path.ends_with(".toml") {
        return SimulationConfig::from_file(path, overrides);
    }
    Err(ConfigError::UnknownPreset { name: name_or_path.to_string(), known: names().join(", ") })
}
