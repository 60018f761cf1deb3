//! `[host]`: open or closed loop, queue depths, time scale, loops and tiles, address compaction, where deletes go;
//! the flows and their queues are in `flows.rs`.

use serde::{Deserialize, Serialize};

/// The largest `host.time_scale` (issue 32): 1e300 saturated every arrival at the clock's end (u64
/// nanoseconds, 584 years) and the run silently reported nonsense; a million times slower is
/// already a second per microsecond of the trace.
pub const MAX_TIME_SCALE: f64 = 1e6;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HostConfig {
    pub mode: HostMode,
    /// Outstanding requests in closed-loop mode.
    pub queue_depth: u32,
    /// Open loop: requests the device accepts at once (the NVMe/SATA submission queue depth; MQSim's
    /// default is 65,535 per queue). Arrivals beyond it wait in the host queue, in arrival order, and
    /// that wait counts in their latency.
    pub device_queue_depth: u32,
    /// Arrival times are multiplied by this (0.5 replays twice as fast). Above 0, at most
    /// [`MAX_TIME_SCALE`].
    pub time_scale: f64,
    /// Replay the workload this many times back to back, with time offsets that keep arrivals increasing.
    pub loops: u32,
    /// Replay the workload as this many independent volumes side by side: every request is issued
    /// `tiles` times at the same arrival time, copy k shifted by k x the workload's address space.
    /// Footprint and offered load grow `tiles`-fold, locality within each copy is the workload's own.
    /// Used to bring a small trace sample up to a published data size (seed 003 reproduction).
    pub tiles: u32,
    /// Traces only: map the distinct logical pages the trace touches, in address order, onto pages
    /// 0..footprint (a sparse trace over a 3 TB volume becomes a dense one over its own data). Every
    /// request keeps its size and its offset within the page; pages next to each other in a request
    /// stay next to each other. Lets an aged drive or a drive sized by geometry hold a trace whose
    /// addresses span far more than its data.
    pub compact_addresses: bool,
    /// Where a delete (discard/TRIM) request goes: `none` (a file system without TRIM: the SSD keeps
    /// the dead data as valid), `middleware` (the middleware learns the pages are unused; the FTL
    /// still holds them), or `ftl` (TRIM: the pages are invalidated and unmapped; later reads of them
    /// are unmapped reads).
    pub delete_target: DeleteTarget,
    /// Arbitration between the flows' submission queues (`flows.rs`); used only with `flows`.
    pub queues: super::QueuesConfig,
    /// Several I/O flows in one run, each with its own submission queue (`flows.rs`). Empty: the
    /// one stream of `[workload]`, as above. With flows, `host.device_queue_depth` is the number of
    /// commands the controller holds at once over all queues (what it fetches by arbitration).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flows: Vec<super::FlowConfig>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeleteTarget {
    None,
    Middleware,
    Ftl,
}

/// The deepest queue accepted (NVMe allows 64Ki queues of 64Ki entries; this is 16 such queues).
pub const MAX_QUEUE_DEPTH: u32 = 1 << 20;

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            mode: HostMode::OpenLoop,
            queue_depth: 32,
            device_queue_depth: 65_535,
            time_scale: 1.0,
            loops: 1,
            tiles: 1,
            compact_addresses: false,
            delete_target: DeleteTarget::Ftl,
            queues: super::QueuesConfig::default(),
            flows: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostMode {
    OpenLoop,
    ClosedLoop,
}

/// Checks the host table. Returns (field path, message) on the first failure.
pub(super) fn validate(host: &HostConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    if host.queue_depth == 0 {
        return fail("host.queue_depth", "must be at least 1".into());
    }
    if host.device_queue_depth == 0 {
        return fail("host.device_queue_depth", "must be at least 1".into());
    }
    // In-flight requests are records in memory (about 100 bytes each with their flash work).
    for (name, depth) in [("host.queue_depth", host.queue_depth), ("host.device_queue_depth", host.device_queue_depth)]
    {
        if depth > MAX_QUEUE_DEPTH {
            return fail(name, format!("at most {MAX_QUEUE_DEPTH} requests in flight are supported, got {depth}"));
        }
    }
    if !(host.time_scale > 0.0 && host.time_scale <= MAX_TIME_SCALE) {
        return fail(
            "host.time_scale",
            format!("must be above 0 and at most {MAX_TIME_SCALE:e} (arrival times are multiplied by it; a larger factor pushes them past the simulated clock's 584 years, where they would all saturate), got {}", host.time_scale),
        );
    }
    if host.tiles == 0 {
        return fail("host.tiles", "must be at least 1".into());
    }
    if host.loops == 0 {
        return fail("host.loops", "must be at least 1".into());
    }
    if !host.flows.is_empty() {
        for (name, unsupported) in [
            ("host.loops", host.loops != 1),
            ("host.tiles", host.tiles != 1),
            ("host.compact_addresses", host.compact_addresses),
        ] {
            if unsupported {
                return fail(name, "is not supported with host.flows (each flow is replayed once, as written)".into());
            }
        }
        // With flows these are each flow's own settings; a value here would be ignored (issue 48
        // item 9: `--set host.mode="closed_loop"` ran byte-identical to the plain run).
        let defaults = HostConfig::default();
        let per_flow = [
            ("host.mode", host.mode != defaults.mode, "mode", "closed_loop".to_string()),
            (
                "host.queue_depth",
                host.queue_depth != defaults.queue_depth,
                "submission_queue_depth",
                host.queue_depth.to_string(),
            ),
            ("host.time_scale", host.time_scale != defaults.time_scale, "time_scale", host.time_scale.to_string()),
        ];
        for (name, set, flow_field, value) in per_flow {
            if set {
                return fail(
                    name,
                    format!("is {value}, but with host.flows each flow has its own (host.flows[i].{flow_field}) and this one would be ignored; set it on the flows, or leave {name} at its default"),
                );
            }
        }
    }
    super::flows::validate(&host.queues, &host.flows)
}

#[cfg(test)]
mod time_scale_tests {
    #[test]
    fn host_time_scale_is_bounded() {
        for scale in ["1e300", "1e7", "0.0"] {
            let error =
                crate::presets::load("default", &[format!("host.time_scale={scale}")]).expect_err(scale).to_string();
            assert!(error.contains("host.time_scale") && error.contains("at most 1e6"), "{error}");
        }
        assert!(crate::presets::load("default", &["host.time_scale=1e6".into()]).is_ok());
    }
}
