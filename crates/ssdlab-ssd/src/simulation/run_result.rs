//! The serialisable result of a run: the sections the wiring assembles from each part's statistics
//! (`result.rs` fills them). Every key is documented in docs/results.md.

use super::data_path::DataPathResult;
use crate::energy::EnergyAccount;
use crate::flash_op::FlashCounters;
use crate::ftl::FtlStats;
use crate::metrics::OpMetrics;
use serde::Serialize;

/// The version of the result's layout: raised when a key is renamed, moved or removed (keys added
/// for a new feature do not change it). docs/results.md describes this version.
pub const RESULT_VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GcMetrics {
    pub invocations: u64,
    /// In-place invocations that ended short of the high watermark, and of those the ones that
    /// found their plane stuck (`FtlStats::gc_invocations_short`, `gc_invocations_stuck`).
    pub invocations_short: u64,
    pub invocations_stuck: u64,
    pub blocks_collected: u64,
    pub pages_copied: u64,
    pub blocks_erased: u64,
    /// Pages moved to another tier by a migrating collector (counted in write amplification).
    pub pages_migrated: u64,
    /// Device-wide only (`result.gc`): how GC held host writes back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_writes_held: Option<WriteHoldSummary>,
}

/// `result.gc.host_writes_held`: host writes that waited for garbage collection
/// (`ftl.garbage_collection.mode`, `scheduler/write_gate.rs`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WriteHoldSummary {
    /// `foreground`, `stop_servicing_writes`, `preemptible` or `background`.
    pub mode: String,
    /// Writes to a plane wait while its erased pool is below this many blocks (0: never).
    pub threshold_blocks: u32,
    /// Host write requests with at least one program held.
    pub requests_held: u64,
    /// Host program groups (one die, one multi-plane program) held, and their pages.
    pub programs_held: u64,
    pub pages_held: u64,
    /// Time held programs waited for GC: total, mean over held programs, longest.
    pub wait_total_us: f64,
    pub wait_mean_us: f64,
    pub wait_max_us: f64,
    /// Sum over planes of the time each held writes.
    pub plane_blocked_us: f64,
    /// Time at least one plane held writes, and its fraction of the simulated time.
    pub any_plane_blocked_us: f64,
    pub any_plane_blocked_fraction: f64,
    /// Most planes holding writes at once.
    pub max_planes_blocked: u32,
    /// Preemptible mode: times a GC operation stepped aside for host work on its die.
    pub gc_yields: u64,
}

impl WriteHoldSummary {
    /// The summary of `statistics` (None: writes were never held, `background` mode) over a run of
    /// `simulated_s` seconds.
    pub fn of(
        mode: crate::config::GcMode,
        threshold_blocks: u32,
        statistics: Option<crate::scheduler::WriteHoldStatistics>,
        simulated_s: f64,
    ) -> Self {
        let statistics = statistics.unwrap_or_default();
        let us = |ns: u64| ns as f64 / 1e3;
        WriteHoldSummary {
            mode: serde_json::to_value(mode)
                .ok()
                .and_then(|value| value.as_str().map(str::to_string))
                .unwrap_or_default(),
            threshold_blocks,
            requests_held: statistics.requests_held,
            programs_held: statistics.programs_held,
            pages_held: statistics.pages_held,
            wait_total_us: us(statistics.wait_total_ns),
            wait_mean_us: if statistics.programs_held == 0 {
                0.0
            } else {
                us(statistics.wait_total_ns) / statistics.programs_held as f64
            },
            wait_max_us: us(statistics.wait_max_ns),
            plane_blocked_us: us(statistics.plane_blocked_ns),
            any_plane_blocked_us: us(statistics.any_plane_blocked_ns),
            any_plane_blocked_fraction: if simulated_s > 0.0 {
                statistics.any_plane_blocked_ns as f64 / 1e9 / simulated_s
            } else {
                0.0
            },
            max_planes_blocked: statistics.max_planes_blocked,
            gc_yields: statistics.gc_yields,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct EraseCountSummary {
    pub min: u32,
    pub mean: f64,
    pub max: u32,
    pub endurance_pe_cycles: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct WorkloadSummary {
    /// "trace" or "synthetic".
    pub kind: String,
    pub source: String,
    /// The trace format read (absent for a synthetic workload).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    pub loops: u32,
    /// Copies of the workload replayed side by side (`host.tiles`).
    pub tiles: u32,
    /// Distinct logical pages the workload touches (one pass).
    pub footprint_pages: u64,
    pub address_space_bytes: u64,
    pub timestamps_reordered: u64,
    pub skipped_lines: u64,
    pub skipped_line_messages: Vec<String>,
    /// The parsed-trace cache file the run read (`workload.trace.cache_dir`), and whether an earlier
    /// run had built it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_cache: Option<String>,
    pub trace_cache_reused: bool,
    /// Memory holding the trace's parsed records for the replay (`workload.trace.keep_records_bytes`;
    /// 0: the replay read the text or the cache).
    pub kept_records_bytes: u64,
}

/// The device as run. A one-tier device gives its geometry here; a tiered device gives its total
/// channels, 0 for the per-tier geometry fields (each tier's are in `RunResult::tiers`) and the
/// first tier's page size.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceSummary {
    pub channels: u32,
    pub chips_per_channel: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    pub page_size_bytes: u32,
    pub physical_capacity_bytes: u64,
    pub logical_capacity_bytes: u64,
    pub gc_policy: String,
    pub wear_leveling: String,
    pub read_strategy: String,
    pub middleware: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct PreconditionSummary {
    pub pages_written: u64,
    pub gc_pages_copied: u64,
    pub blocks_erased: u64,
    pub wall_seconds: f64,
    /// The aged-drive fill and deletes (`ftl.precondition.fill_fraction`, `live_fraction`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aged_drive: Option<crate::simulation::AgedDrive>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DeadTimeSummary {
    pub longest_background_span_us: f64,
    pub longest_suspension_us: f64,
    /// The longest interval in which a host request had arrived, was not done, and no request
    /// completed (devices with tiers or events; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_host_stall_us: Option<f64>,
    /// The longest time the host got nothing done at once: the larger of the longest suspension
    /// and the longest host stall where the stall is tracked (devices with tiers or events); on
    /// other devices, bounded by the larger of the longest suspension and the longest background
    /// run on one die.
    pub dead_time_us: f64,
}

/// One tier of the device at the end of a run (`result.tiers.<name>`).
#[derive(Debug, Clone, Serialize)]
pub struct TierSummary {
    pub cell_type: String,
    pub channels: u32,
    pub chips: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    pub physical_capacity_bytes: u64,
    /// What the host may keep here (physical minus this tier's over-provisioning).
    pub logical_capacity_bytes: u64,
    /// Pages holding live data at the end of the run.
    pub valid_pages: u64,
    pub collector: String,
    pub host_pages_written: u64,
    pub gc: GcMetrics,
    pub pages_migrated_in: u64,
    pub pages_migrated_out: u64,
    /// Written in whole blocks (`write_unit = "block"`).
    pub block_unit: bool,
    /// Host overwrites of pages here that were block-modify-writes, and the other valid pages they
    /// rewrote.
    pub block_modify_writes: u64,
    pub block_modify_pages: u64,
    /// RR-FDCA (seed 004) in this tier's collector: pages of fresh victims copied into screening
    /// blocks (step A), blocks passed over while being screened (step B), and frozen pages beyond
    /// a pair's TLC block written back here (step C5). Zero under other collectors.
    pub screening_copies: u64,
    pub screening_skips: u64,
    pub residual_pages: u64,
    /// RR-FDCA: victims pairs took beyond two to accumulate a TLC block's worth (step A).
    pub accumulation_extra_victims: u64,
    /// RR-FDCA: frozen pages kept in MLC because the host read them during screening.
    pub screening_read_pages: u64,
    pub erase_count: EraseCountSummary,
    pub flash: FlashCounters,
    pub utilisation: UtilisationSummary,
    pub energy_uj: EnergyAccount,
    pub energy_total_uj: f64,
    /// Mean power over the run: energy / simulated time.
    pub power_w: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct UtilisationSummary {
    /// Mean fraction of simulated time the dies were busy.
    pub die: f64,
    pub channel: f64,
}

/// CPU seconds of each phase of `simulation::run` on the simulating thread (issue 50: where a
/// run's time goes beside the replay). The process's start-up (Python, config) and the writing of
/// outputs after the result are not here: a whole-process measurement less these gives them.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct PhaseCpu {
    /// Reading the workload's shape: the trace scan (parse, footprint, address space), or the
    /// generator's set-up.
    pub scan_cpu_seconds: f64,
    /// Building the simulation after the scan (validation, layout, FTL, scheduler, stages).
    pub build_cpu_seconds: f64,
    /// Preconditioning (`workload.precondition`), and the aged-drive set-up when asked.
    pub precondition_cpu_seconds: f64,
    /// The replay: the same as the result's `replay_cpu_seconds` (the reader thread's included).
    pub replay_cpu_seconds: f64,
    /// Summaries into the result (the oracle's end-of-run sweep included when on).
    pub result_cpu_seconds: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// The layout of this result ([`RESULT_VERSION`]; docs/results.md lists every key).
    pub result_version: u32,
    pub name: String,
    pub seed: u64,
    pub workload: WorkloadSummary,
    pub device: DeviceSummary,
    pub requests: u64,
    pub requests_completed: u64,
    /// The bounded device queue and the host queue's waits.
    pub host_queue: crate::host::device_queue::HostQueueStatistics,
    pub read: OpMetrics,
    pub write: OpMetrics,
    pub all: OpMetrics,
    pub gc: GcMetrics,
    /// Pages the host's writes programmed (after page splitting), the denominator of write amplification.
    pub host_pages_written: u64,
    /// (host pages + GC copies + pages migrated between tiers) / host pages.
    pub write_amplification: f64,
    pub erase_count: EraseCountSummary,
    pub flash: FlashCounters,
    pub energy_uj: EnergyAccount,
    pub energy_total_uj: f64,
    /// Mean power over the run: energy / simulated time.
    pub power_w: f64,
    pub utilisation: UtilisationSummary,
    /// Per tier, by name (a one-tier device has one, named `nand`).
    pub tiers: std::collections::BTreeMap<String, TierSummary>,
    /// Where host writes go and where collected pages move (`single` on a one-tier device).
    pub placement: String,
    /// What each device event (`[[events]]`) did, in config order.
    pub events: Vec<crate::device_events::EventRecord>,
    /// Dead time: the longest continuous run of background work on one die, the longest suspension
    /// of host I/O, and the longest host-visible stall.
    pub dead_time: DeadTimeSummary,
    /// The data path's part: what it counted, the integrity oracle's counts, the memory its models
    /// take, and each stage's summaries (`data_path/result.rs`). Flattened: its keys sit at the top
    /// level of the JSON.
    #[serde(flatten)]
    pub data_path: DataPathResult,
    pub precondition: PreconditionSummary,
    /// From the first arrival until the device has finished all its work (throughputs use it).
    pub simulated_seconds: f64,
    /// From the first arrival until the last host request completed: the host's side of the run
    /// (background work booked before may still run after it). Differences of two runs that share
    /// a prefix give the steady-state throughput of the part the longer one adds.
    pub host_span_seconds: f64,
    pub wall_seconds: f64,
    /// CPU time of the replay (excluding scan and preconditioning): the replay thread's and that of
    /// the thread reading the trace ahead of it (`workload.trace.read_ahead`).
    pub replay_cpu_seconds: f64,
    pub requests_per_wall_second: f64,
    pub requests_per_cpu_second: f64,
    /// CPU time by phase (what a run costs beside its replay).
    pub phases: PhaseCpu,
    /// The run over time (`output.time_series_interval_ms`; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_series: Option<crate::simulation::TimeSeries>,
    /// The per-request log written (`output.request_log_path`): its file and rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_log: Option<RequestLogSummary>,
    /// Mapped pages by host write-count class and tier at the end (`output.write_heat`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_heat: Option<crate::simulation::WriteHeat>,
    /// Each I/O flow's section and the fairness between them (`host.flows`; absent with one stream).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flows: Option<crate::host::flows::result::FlowsSection>,
    /// DiskSim's gangs (`[device.ganging]`, seed 002 §5.1): pieces served, read-modify-writes,
    /// cleaning and utilisation (absent on a device of independent dies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ganging: Option<crate::scheduler::GangStatistics>,
    /// The dies' queues (`[scheduler]` with a policy other than FIFO or with suspension): waits,
    /// suspensions and resumes (absent in the booking model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduler: Option<crate::scheduler::SchedulerStatistics>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestLogSummary {
    pub path: String,
    pub rows: u64,
    /// The means of the log's latency breakdown columns (`request_log.rs`).
    pub mean_breakdown_us: super::request_log::MeanBreakdown,
}

pub fn gc_metrics(stats: &FtlStats) -> GcMetrics {
    GcMetrics {
        invocations: stats.gc_invocations,
        invocations_short: stats.gc_invocations_short,
        invocations_stuck: stats.gc_invocations_stuck,
        blocks_collected: stats.gc_blocks_collected,
        pages_copied: stats.gc_pages_copied,
        blocks_erased: stats.blocks_erased,
        pages_migrated: stats.pages_migrated_out,
        host_writes_held: None,
    }
}
