//! The one place that wires the layers together and runs a simulation:
//! host interface -> data path (middleware -> FTL, or SCM in front of them; `data_path/`) -> flash
//! scheduler -> media/channels, plus the integrity oracle.
//!
//! A run: read the workload's shape (trace scan or synthetic spec) -> size the device -> build the
//! layers -> fast-age -> precondition (fill the footprint, then random overwrites to GC steady state;
//! untimed) -> replay every request through the layers, booking flash work in simulated time -> check
//! that every request completed and, with the oracle on, that every read returned the latest write.

mod aged_drive;
mod build;
mod data_path;
pub use aged_drive::AgedDrive;
mod events;
mod footprint;
mod limits;
mod observers;
mod page_set;
mod preconditioning;
mod replay;
mod request_log;
mod stored_footprint;
mod write_heat;
pub use write_heat::WriteHeat;
mod result;
mod run_result;
mod scm_sizing;
mod time_series;
pub use time_series::{OpSeries, TimeSeries};

pub use crate::cpu_time::thread_cpu_seconds;
pub use replay::{Phase, ProgressCallback, PROGRESS_INTERVAL};

use crate::config::{CapacitySizing, SimulationConfig};
use crate::device_events::DeviceEvents;
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::ftl::placement::Placement;
use crate::ftl::Ftl;
use crate::host::device_queue::HostQueueStatistics;
use crate::host::flows::FlowSet;
use crate::host::single_stream::SingleStream;
use crate::host::RequestStream;
use crate::metrics::*;
use crate::middleware;
use crate::retention::RetentionClock;
use crate::scheduler::FlashScheduler;
use data_path::DataPath;
// The data path's result types (its section and each part's summary): every `pub` item of it.
pub use data_path::*;
use footprint::Footprint;
pub use run_result::*;
use ssdlab_engine::random::derive_seed;
use ssdlab_engine::SimTime;
use std::time::Instant;

/// How a trace was read, for the result: malformed lines skipped (with `skip_bad_lines`), the
/// parsed-trace cache the run read and whether an earlier run built it, and the memory the scan's
/// records took when kept for the replay (`workload.trace.keep_records_bytes`).
#[derive(Debug, Clone, Default)]
struct TraceReading {
    skipped_lines: u64,
    skipped_line_messages: Vec<String>,
    cache: Option<String>,
    cache_reused: bool,
    kept_records_bytes: u64,
    /// CPU time of reading the workload's shape (the trace scan).
    scan_cpu_seconds: f64,
}

pub struct Simulation {
    config: SimulationConfig,
    layout: DeviceLayout,
    scheduler: FlashScheduler,
    /// The request path below the host queue: FTL, middleware, read strategy, oracle, SCM
    /// (`data_path/`).
    data_path: DataPath,
    /// The host interface: `[workload]`'s one stream through the device queue (taken out while
    /// the replay runs it), and, with `host.flows`, the flows that are replayed instead.
    single: Option<SingleStream>,
    flows: Option<FlowSet>,
    /// With flows: their section of the result (filled when the replay ends).
    flows_section: Option<crate::host::flows::result::FlowsSection>,
    footprint: Footprint,
    origin: String,
    workload_kind: &'static str,
    format: Option<String>,
    address_space_bytes: u64,
    /// How the trace was read (skipped lines, cache, records kept in memory); default for synthetic.
    trace_reading: TraceReading,
    logical_capacity_bytes: u64,
    /// Logical pages the host may address (the FTL's space may be larger, see `middleware`).
    host_logical_pages: u64,
    page_bytes: u64,
    read_latency: LatencyRecorder,
    write_latency: LatencyRecorder,
    precondition: PreconditionSummary,
    first_arrival: Option<SimTime>,
    last_completion: SimTime,
    requests_issued: u64,
    requests_completed: u64,
    host_queue: HostQueueStatistics,
    device_events: DeviceEvents,
    /// Time series, request log, write heat, host stalls: whatever watches the run (`observers.rs`).
    observers: observers::Observers,
}

/// What observers may look at, borrowed field by field (so that `self.observers` stays free to borrow
/// mutably beside it).
macro_rules! device_view {
    ($simulation:expr) => {
        $crate::simulation::observers::DeviceView {
            ftl: &$simulation.data_path.nand().ftl(),
            data_path: &$simulation.data_path,
            scheduler: &$simulation.scheduler,
            layout: &$simulation.layout,
            read_strategy: $simulation.data_path.nand().read_strategy(),
            middleware: $simulation.data_path.nand().middleware(),
        }
    };
}
pub(super) use device_view;

impl Simulation {
    /// `[workload]`'s stream (None while the replay runs it).
    fn stream(&self) -> Option<&RequestStream> {
        self.single.as_ref().map(|single| &single.stream)
    }

    /// CPU time of the threads reading traces ahead of the replay.
    fn reader_cpu_seconds(&self) -> f64 {
        self.stream().map_or(0.0, RequestStream::reader_cpu_seconds)
            + self.flows.as_ref().map_or(0.0, FlowSet::reader_cpu_seconds)
    }

    /// Reads the workload's shape, sizes the device and builds every layer.
    pub fn new(config: &SimulationConfig) -> Result<Simulation, SimulationError> {
        Self::new_reporting(config, &mut |_, _, _| Ok(()))
    }

    pub fn ftl(&self) -> &Ftl {
        self.data_path.nand().ftl()
    }

    /// Keeps a record of every die and channel booking of the replay (for checks such as
    /// [`crate::scheduler::check_work_conserving`]); call after `prepare`.
    pub fn record_bookings(&mut self) {
        self.scheduler.record_bookings();
    }

    pub fn bookings(&self) -> Option<&[crate::scheduler::Booking]> {
        self.scheduler.bookings()
    }
}

/// A configuration error found while building the simulation, naming the config and the field.
pub(super) fn config_invalid(config: &SimulationConfig, field: &str, message: String) -> SimulationError {
    crate::error::ConfigError::Invalid { origin: config_origin(config), line: None, field: field.into(), message }
        .into()
}

fn config_origin(config: &SimulationConfig) -> String {
    if config.name.is_empty() {
        "config".to_string()
    } else {
        format!("config `{}`", config.name)
    }
}

/// Runs a whole simulation.
pub fn run(config: &SimulationConfig, progress: &mut ProgressCallback<'_>) -> Result<RunResult, SimulationError> {
    let started = Instant::now();
    let cpu_started = thread_cpu_seconds();
    let mut simulation = Simulation::new_reporting(config, progress)?;
    let cpu_built = thread_cpu_seconds();
    simulation.prepare_reporting(progress)?;
    let cpu_before = thread_cpu_seconds();
    simulation.replay(progress)?;
    let cpu_replayed = thread_cpu_seconds();
    // The replay thread's time and, with read-ahead, the reader thread's: parsing counts either way.
    let replay_cpu = cpu_replayed - cpu_before + simulation.reader_cpu_seconds();
    let scan_cpu = simulation.trace_reading.scan_cpu_seconds;
    let mut result = simulation.finish(started.elapsed().as_secs_f64(), replay_cpu)?;
    result.phases = PhaseCpu {
        scan_cpu_seconds: scan_cpu,
        build_cpu_seconds: (cpu_built - cpu_started - scan_cpu).max(0.0),
        precondition_cpu_seconds: cpu_before - cpu_built,
        replay_cpu_seconds: replay_cpu,
        result_cpu_seconds: thread_cpu_seconds() - cpu_replayed,
    };
    // Slowdowns: each flow alone on the same device (`host.queues.measure_alone`).
    if config.host.flows.len() > 1 && config.host.queues.measure_alone {
        if let Some(section) = result.flows.take() {
            let mut alone = Vec::with_capacity(config.host.flows.len());
            for flow in &config.host.flows {
                let mut single = config.clone();
                single.host.flows = vec![flow.clone()];
                // Only the shared run writes outputs: a flow's run alone would overwrite its request log.
                single.output = crate::config::OutputConfig::default();
                let result = run(&single, &mut |_, _, _| Ok(()))?;
                alone.push(
                    result.flows.as_ref().and_then(|f| f.per_flow.first()).map_or(0.0, |f| f.all.latency_us.mean),
                );
            }
            result.flows = Some(section.with_alone(&alone));
        }
    }
    Ok(result)
}
