//! Simulation configuration: plain data, read from TOML, validated once.
//!
//! Every field carries its unit in its name (`read_latency_ns`, `page_size_bytes`). Unknown keys are
//! errors. Errors name the origin (file or preset), the line when it can be found, and the field path
//! (`device.geometry.pages_per_block`). `--set key=value` overrides are applied to the TOML tree before
//! it is read, so they go through exactly the same checks.
//!
//! One file per top-level table (`device`, `ftl`, `host`, `workload`, `read_path`, `middleware`,
//! `placement`, `scheduler`, `verification`), each with its plain data and its own checks; this file loads a config (TOML,
//! overrides) and runs the checks in a fixed order, so the first failure reported is always the same.

mod device;
mod events;
mod flows;
mod ftl;
mod ganging;
mod host;
pub mod keys;
mod middleware;
mod output;
mod placement;
mod read_path;
mod scheduler;
mod verification;
mod workload;

pub use device::*;
pub use events::*;
pub use flows::*;
pub use ftl::*;
pub use ganging::*;
pub use host::*;
pub use middleware::*;
pub use output::*;
pub use placement::*;
pub use read_path::*;
pub use scheduler::*;
pub use verification::*;
pub use workload::*;

use crate::error::ConfigError;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationConfig {
    #[serde(default)]
    pub name: String,
    /// Seed of every random stream in the run (workload, aging, preconditioning, middleware).
    #[serde(default = "default_seed")]
    pub seed: u64,
    pub device: DeviceConfig,
    #[serde(default)]
    pub ftl: FtlConfig,
    #[serde(default)]
    pub host: HostConfig,
    #[serde(default)]
    pub workload: WorkloadConfig,
    #[serde(default)]
    pub read_path: ReadPathConfig,
    #[serde(default)]
    pub middleware: MiddlewareConfig,
    #[serde(default)]
    pub placement: PlacementConfig,
    /// How each die orders the operations waiting for it; program/erase suspension.
    #[serde(default)]
    pub scheduler: SchedulerConfig,
    /// Device events (`[[events]]`), in any order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<DeviceEventConfig>,
    #[serde(default)]
    pub verification: VerificationConfig,
    #[serde(default)]
    pub output: OutputConfig,
}

fn default_seed() -> u64 {
    1
}

impl SimulationConfig {
    /// Reads a config from TOML text. `origin` names the file or preset in error messages.
    pub fn from_toml_str(text: &str, origin: &str, overrides: &[String]) -> Result<SimulationConfig, ConfigError> {
        let mut table = ssdlab_settings::parse_with_overrides(text, origin, overrides)?;
        // Giving a trace replaces a synthetic workload and vice versa (e.g. `--trace FILE` on a preset).
        let touches = |prefix: &str| overrides.iter().any(|o| o.trim_start().starts_with(prefix));
        if let Some(toml::Value::Table(workload)) = table.get_mut("workload") {
            if touches("workload.trace") && !touches("workload.synthetic") {
                workload.remove("synthetic");
            } else if touches("workload.synthetic") && !touches("workload.trace") && workload.contains_key("synthetic")
            {
                workload.remove("trace");
            }
        }
        // A field that fails is blamed on the `--set` that set it, else on its line in the file.
        let config: SimulationConfig = ssdlab_settings::deserialize_overridden(table, text, origin, overrides)?;
        config
            .validate()
            .map_err(|(field, message)| ssdlab_settings::invalid_field(text, origin, overrides, field, message))?;
        Ok(config)
    }

    pub fn from_file(path: &std::path::Path, overrides: &[String]) -> Result<SimulationConfig, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::Io { path: path.to_path_buf(), message: e.to_string() })?;
        let mut config = Self::from_toml_str(&text, &path.display().to_string(), overrides)?;
        // A relative trace path in a config file is relative to that file (flows' traces too).
        let flow_traces = config.host.flows.iter_mut().filter_map(|flow| flow.trace.as_mut());
        for trace in config.workload.trace.as_mut().into_iter().chain(flow_traces) {
            if trace.path.is_relative() {
                if let Some(parent) = path.parent() {
                    let candidate = parent.join(&trace.path);
                    if candidate.exists() {
                        trace.path = candidate;
                    }
                }
            }
        }
        Ok(config)
    }

    /// Every key of the config (dotted path) and whether it is set: the unset ones are the optional
    /// keys a user can still give (`keys.rs`).
    pub fn keys(&self) -> Vec<keys::ConfigKey> {
        keys::keys(self)
    }

    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).unwrap_or_else(|e| format!("# cannot render config: {e}"))
    }

    /// Checks every rule that types alone cannot, table by table. Returns (field path, message) on
    /// the first failure.
    pub fn validate(&self) -> Result<(), (String, String)> {
        device::validate(&self.device)?;
        let tiers = self.device.tiers();
        ftl::validate(&self.ftl, &tiers)?;
        placement::validate(&self.placement, &tiers)?;
        device::validate_parts(self, &tiers)?;
        events::validate(&self.events, &tiers)?;
        middleware::validate(&self.middleware)?;
        if self.device.is_tiered() && self.middleware.kind == MiddlewareKind::LbaScrambler {
            return Err((
                "middleware.kind".into(),
                "the LBA scrambler reads one FTL's next victim; it runs on a one-tier device only".into(),
            ));
        }
        host::validate(&self.host)?;
        workload::validate(&self.workload)?;
        output::validate(&self.output, &self.events)?;
        read_path::validate(&self.read_path)?;
        scheduler::validate(self)?;
        if let Some(ganging) = GangingConfig::of(&self.device) {
            ganging::validate(ganging, &self.device, &self.ftl, &self.read_path)?;
        }
        Ok(())
    }
}
