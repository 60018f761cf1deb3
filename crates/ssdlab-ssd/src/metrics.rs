//! Run metrics: latency histograms per operation (HdrHistogram, 3 significant digits) and the
//! serialisable result of a run.

use crate::energy::EnergyAccount;
use crate::ftl::FtlStats;
use crate::scheduler::FlashCounters;
use hdrhistogram::Histogram;
use serde::Serialize;

pub struct LatencyRecorder {
    histogram: Histogram<u64>,
    pub count: u64,
    pub bytes: u64,
    sum_ns: u128,
}

impl Default for LatencyRecorder {
    fn default() -> Self {
        LatencyRecorder {
            // Bounds: 1 ns .. ~13 days; saturating_record clamps beyond (an auto-resizing histogram would
            // clamp at its initial range instead).
            histogram: Histogram::new_with_bounds(1, 1 << 50, 3).expect("valid histogram bounds"),
            count: 0,
            bytes: 0,
            sum_ns: 0,
        }
    }
}

impl LatencyRecorder {
    #[inline]
    pub fn record(&mut self, latency_ns: u64, bytes: u64) {
        self.histogram.saturating_record(latency_ns);
        self.count += 1;
        self.bytes += bytes;
        self.sum_ns += latency_ns as u128;
    }

    /// Reads and writes together, from the two recorders (so each request is recorded once).
    pub fn combined(a: &LatencyRecorder, b: &LatencyRecorder) -> LatencyRecorder {
        let mut histogram = a.histogram.clone();
        // Same bounds on both sides, so adding cannot fail; saturate rather than abort if it ever did.
        if histogram.add(&b.histogram).is_err() {
            for value in b.histogram.iter_recorded() {
                histogram.saturating_record_n(value.value_iterated_to(), value.count_at_value());
            }
        }
        LatencyRecorder { histogram, count: a.count + b.count, bytes: a.bytes + b.bytes, sum_ns: a.sum_ns + b.sum_ns }
    }

    pub fn summary(&self, duration_s: f64) -> OpMetrics {
        let us = |ns: u64| ns as f64 * 1e-3;
        let empty = self.count == 0;
        OpMetrics {
            count: self.count,
            bytes: self.bytes,
            iops: if duration_s > 0.0 { self.count as f64 / duration_s } else { 0.0 },
            mbps: if duration_s > 0.0 { self.bytes as f64 / duration_s / 1e6 } else { 0.0 },
            latency_us: LatencySummary {
                mean: if empty { 0.0 } else { self.sum_ns as f64 / self.count as f64 * 1e-3 },
                p50: if empty { 0.0 } else { us(self.histogram.value_at_quantile(0.5)) },
                p99: if empty { 0.0 } else { us(self.histogram.value_at_quantile(0.99)) },
                p999: if empty { 0.0 } else { us(self.histogram.value_at_quantile(0.999)) },
                max: if empty { 0.0 } else { us(self.histogram.max()) },
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LatencySummary {
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
    pub p999: f64,
    pub max: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct OpMetrics {
    pub count: u64,
    pub bytes: u64,
    pub iops: f64,
    /// Megabytes (1e6 bytes) per simulated second.
    pub mbps: f64,
    pub latency_us: LatencySummary,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GcMetrics {
    pub invocations: u64,
    pub blocks_collected: u64,
    pub pages_copied: u64,
    pub blocks_erased: u64,
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
}

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
}

#[derive(Debug, Clone, Serialize)]
pub struct IntegritySummary {
    pub enabled: bool,
    pub reads_checked: u64,
    pub pages_checked_at_end: u64,
    pub mismatches: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct UtilisationSummary {
    /// Mean fraction of simulated time the dies were busy.
    pub die: f64,
    pub channel: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    pub name: String,
    pub seed: u64,
    pub workload: WorkloadSummary,
    pub device: DeviceSummary,
    pub requests: u64,
    pub requests_completed: u64,
    pub read: OpMetrics,
    pub write: OpMetrics,
    pub all: OpMetrics,
    pub gc: GcMetrics,
    /// Pages the host's writes programmed (after page splitting), the denominator of write amplification.
    pub host_pages_written: u64,
    pub write_amplification: f64,
    pub erase_count: EraseCountSummary,
    pub flash: FlashCounters,
    pub energy_uj: EnergyAccount,
    pub energy_total_uj: f64,
    pub utilisation: UtilisationSummary,
    /// Host reads of logical pages never written (served without a flash access).
    pub unmapped_page_reads: u64,
    /// Partial-page writes that first read the old page (read-modify-write).
    pub read_modify_writes: u64,
    pub precondition: PreconditionSummary,
    pub integrity: IntegritySummary,
    pub simulated_seconds: f64,
    pub wall_seconds: f64,
    /// CPU time of the replay (excluding scan and preconditioning).
    pub replay_cpu_seconds: f64,
    pub requests_per_wall_second: f64,
    pub requests_per_cpu_second: f64,
    /// Bytes held by the model's tables at the end of the run.
    pub model_memory_bytes: u64,
    /// What the host-side middleware did (seed 003's rule counts for the LBA scrambler).
    pub middleware: crate::middleware::MiddlewareStats,
}

pub fn gc_metrics(stats: &FtlStats) -> GcMetrics {
    GcMetrics {
        invocations: stats.gc_invocations,
        blocks_collected: stats.gc_blocks_collected,
        pages_copied: stats.gc_pages_copied,
        blocks_erased: stats.blocks_erased,
    }
}
