//! `[host.queues]` and `[[host.flows]]`: several I/O flows sharing the device through NVMe-style
//! submission queues, one queue per flow, and the arbitration between the queues.
//!
//! What it models: each flow's own workload (its trace or synthetic stream, or `[workload]`), its
//! submission queue depth, open or closed loop, its time scale, an LBA offset (flows share one
//! namespace; an offset gives a flow its own range), its NVMe priority class, and the device units
//! it may use (`channels`, `chips`, `dies`, `planes`: MQSim's `Channel_IDs`, `Chip_IDs`, `Die_IDs`,
//! `Plane_IDs`; a flow given any of them owns a logical range written only to those units,
//! `host/flows/resources.rs`, docs/flows.md); the arbitration
//! the controller applies when it fetches commands (the NVMe base specification's command
//! arbitration: round robin, or weighted round robin with an urgent class served first). What it
//! leaves out: admin queues, completion queues and their interrupts, several queues per flow, and
//! per-queue namespaces. Source: the NVMe base specification, MQSim's workload XML
//! (`Priority_Class`, `Device_Level_Queue_Depth`).

use serde::{Deserialize, Serialize};
use ssdlab_workload::SyntheticSpec;

use super::{HostMode, TraceWorkload, MAX_QUEUE_DEPTH, MAX_TIME_SCALE};

/// The most flows one run takes (a flow index is one byte in a request's record).
pub const MAX_FLOWS: usize = 64;

/// How the controller picks the next submission queue to fetch from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArbitrationKind {
    /// Every queue with a command waiting in turn, one command each.
    RoundRobin,
    /// Urgent queues first (strict priority, round robin among them), then high, medium and low
    /// queues in rounds of `weight_*` commands each (round robin within a class).
    WeightedRoundRobin,
}

impl ArbitrationKind {
    /// The name the config and the result use.
    pub fn name(self) -> &'static str {
        match self {
            ArbitrationKind::RoundRobin => "round_robin",
            ArbitrationKind::WeightedRoundRobin => "weighted_round_robin",
        }
    }
}

/// `[host.queues]`: arbitration between the flows' submission queues.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct QueuesConfig {
    pub arbitration: ArbitrationKind,
    /// Weighted round robin: commands a high-priority class may fetch per round.
    pub weight_high: u32,
    pub weight_medium: u32,
    pub weight_low: u32,
    /// With two flows or more, also run each flow alone on the same device (same config, the other
    /// flows removed) to report its slowdown (shared latency / alone latency) and the fairness.
    pub measure_alone: bool,
}

impl Default for QueuesConfig {
    fn default() -> Self {
        QueuesConfig {
            arbitration: ArbitrationKind::RoundRobin,
            weight_high: 4,
            weight_medium: 2,
            weight_low: 1,
            measure_alone: true,
        }
    }
}

/// A flow's NVMe priority class (weighted round robin; round robin ignores it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PriorityClass {
    Urgent,
    High,
    #[default]
    Medium,
    Low,
}

impl PriorityClass {
    pub fn name(self) -> &'static str {
        match self {
            PriorityClass::Urgent => "urgent",
            PriorityClass::High => "high",
            PriorityClass::Medium => "medium",
            PriorityClass::Low => "low",
        }
    }
}

/// `[[host.flows]]`: one I/O flow and its submission queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowConfig {
    /// Names the flow's result section and its errors.
    pub name: String,
    #[serde(default)]
    pub priority_class: PriorityClass,
    /// Commands of this flow in the device at once (its submission queue's entries). Open loop:
    /// arrivals beyond it wait in the host, and the wait counts in their latency; closed loop: the
    /// flow keeps this many requests outstanding.
    #[serde(default = "default_submission_queue_depth")]
    pub submission_queue_depth: u32,
    #[serde(default = "default_mode")]
    pub mode: HostMode,
    /// The flow's arrival times are multiplied by this (open loop).
    #[serde(default = "default_time_scale")]
    pub time_scale: f64,
    /// Added to every request's offset: 0 shares the namespace with the other flows; a flow given
    /// its own range writes none of their pages.
    #[serde(default)]
    pub lba_offset_bytes: u64,
    /// The flow's workload; neither: the flow replays `[workload]` (one flow at most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceWorkload>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthetic: Option<SyntheticSpec>,
    /// The channels the flow's pages are written to (MQSim's `Channel_IDs`), in the order its
    /// pages are striped over them; unset: every channel. Giving any of `channels`, `chips`, `dies`
    /// or `planes` confines the flow: it owns the logical range from `lba_offset_bytes` of its
    /// units' share of the logical capacity (`host/flows/resources.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels: Option<Vec<u32>>,
    /// The chips within each of its channels (MQSim's `Chip_IDs`); unset: every chip.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chips: Option<Vec<u32>>,
    /// The dies within each of its chips (MQSim's `Die_IDs`); unset: every die.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dies: Option<Vec<u32>>,
    /// The planes within each of its dies (MQSim's `Plane_IDs`); unset: every plane.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planes: Option<Vec<u32>>,
}

impl FlowConfig {
    /// Whether the flow is given device units of its own (any of `channels`, `chips`, `dies`, `planes`).
    pub fn is_confined(&self) -> bool {
        self.channels.is_some() || self.chips.is_some() || self.dies.is_some() || self.planes.is_some()
    }

    /// The unit lists as given, with their key names (channels, chips, dies, planes).
    pub fn unit_lists(&self) -> [(&'static str, Option<&[u32]>); 4] {
        [
            ("channels", self.channels.as_deref()),
            ("chips", self.chips.as_deref()),
            ("dies", self.dies.as_deref()),
            ("planes", self.planes.as_deref()),
        ]
    }
}

fn default_submission_queue_depth() -> u32 {
    32
}

fn default_mode() -> HostMode {
    HostMode::OpenLoop
}

fn default_time_scale() -> f64 {
    1.0
}

/// Checks the queues and flows. Returns (field path, message) on the first failure.
pub(super) fn validate(queues: &QueuesConfig, flows: &[FlowConfig]) -> Result<(), (String, String)> {
    let fail = |field: String, message: String| Err((field, message));
    // Checked under round robin too, so switching the arbitration never turns a config invalid.
    for (name, weight) in [
        ("weight_high", queues.weight_high),
        ("weight_medium", queues.weight_medium),
        ("weight_low", queues.weight_low),
    ] {
        if weight == 0 {
            return fail(
                format!("host.queues.{name}"),
                "must be at least 1 (a class with weight 0 would never be fetched from)".into(),
            );
        }
    }
    if flows.len() > MAX_FLOWS {
        return fail("host.flows".into(), format!("at most {MAX_FLOWS} flows are supported, got {}", flows.len()));
    }
    let mut taking_workload: Option<&str> = None;
    for (index, flow) in flows.iter().enumerate() {
        let field = |name: &str| format!("host.flows[{index}].{name}");
        if flow.name.trim().is_empty() {
            return fail(field("name"), "a flow needs a name (it names the flow's result section)".into());
        }
        if let Some(other) = flows[..index].iter().find(|other| other.name == flow.name) {
            return fail(field("name"), format!("`{}` names two flows; names must differ", other.name));
        }
        if flow.submission_queue_depth == 0 {
            return fail(field("submission_queue_depth"), "must be at least 1".into());
        }
        if flow.submission_queue_depth > MAX_QUEUE_DEPTH {
            return fail(
                field("submission_queue_depth"),
                format!(
                    "at most {MAX_QUEUE_DEPTH} requests in flight are supported, got {}",
                    flow.submission_queue_depth
                ),
            );
        }
        if !(flow.time_scale > 0.0 && flow.time_scale <= MAX_TIME_SCALE) {
            return fail(
                field("time_scale"),
                format!("must be above 0 and at most {MAX_TIME_SCALE:e}, got {}", flow.time_scale),
            );
        }
        for (key, list) in flow.unit_lists() {
            let Some(list) = list else { continue };
            if list.is_empty() {
                return fail(
                    field(key),
                    format!("is empty: list the {key} the flow may use, or leave the key out for all of them"),
                );
            }
            if let Some(position) = (1..list.len()).find(|&at| list[..at].contains(&list[at])) {
                return fail(field(key), format!("lists {} twice (at {position}); each unit once", list[position]));
            }
        }
        match (&flow.trace, &flow.synthetic) {
            (Some(_), Some(_)) => {
                return fail(field("trace"), "give either trace or synthetic, not both".into());
            }
            (None, Some(spec)) => {
                if let Err(ssdlab_workload::WorkloadError::InvalidSynthetic { field: inner, message }) = spec.validate()
                {
                    return fail(field(&format!("synthetic.{inner}")), message);
                }
            }
            (Some(trace), None) => {
                if let Some(layout) = &trace.columns {
                    if let Err((inner, message)) = layout.validate() {
                        // "columns" is the column map itself (two fields naming one column).
                        let path = if inner == "columns" { String::new() } else { format!(".{inner}") };
                        return fail(field(&format!("trace.columns{path}")), message);
                    }
                }
            }
            (None, None) => {
                if let Some(other) = taking_workload {
                    return fail(
                        field("trace"),
                        format!(
                            "flow `{other}` already replays [workload]; give this flow a trace or a synthetic stream"
                        ),
                    );
                }
                taking_workload = Some(&flow.name);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::ArbitrationKind;

    #[test]
    fn arbitration_names_are_the_config_names() {
        for kind in [ArbitrationKind::RoundRobin, ArbitrationKind::WeightedRoundRobin] {
            let text = toml::to_string(&std::collections::BTreeMap::from([("a", kind)])).expect("serialises");
            assert_eq!(text.trim(), format!("a = \"{}\"", kind.name()));
        }
    }

    #[test]
    fn config_lists_the_queue_keys_and_flows() {
        let config = crate::presets::load("default", &[]).expect("preset loads");
        let keys = config.keys();
        let set = |path: &str| keys.iter().find(|key| key.path == path).map(|key| key.set);
        assert_eq!(set("host.queues.arbitration"), Some(true));
        assert_eq!(set("host.queues.weight_low"), Some(true));
        assert_eq!(set("host.flows"), Some(false), "an optional key `ssdlab config` lists as unset");
        let two = crate::presets::load("two-flows", &[]).expect("preset loads");
        assert_eq!(two.keys().iter().find(|key| key.path == "host.flows").map(|key| key.set), Some(true));
        assert_eq!(two.host.flows.len(), 2);
    }

    #[test]
    fn empty_and_repeated_unit_lists_are_named() {
        let config = crate::presets::load("two-flows", &[]).expect("preset loads");
        let mut flows = config.host.flows.clone();
        let field = |flows: &[super::FlowConfig]| super::validate(&config.host.queues, flows).unwrap_err().0;
        flows[1].channels = Some(vec![]);
        assert_eq!(field(&flows), "host.flows[1].channels");
        flows[1].channels = Some(vec![0, 1]);
        flows[1].dies = Some(vec![1, 0, 1]);
        assert_eq!(field(&flows), "host.flows[1].dies");
        flows[1].dies = None;
        assert!(super::validate(&config.host.queues, &flows).is_ok());
        assert!(flows[1].is_confined() && !flows[0].is_confined());
    }
}
