//! The data path's part of a run's result: what the NAND path counted (unmapped reads,
//! read-modify-writes, deletes, interleaving padding), its middleware's, read strategy's, workload
//! classifier's and dead data's summaries, the oracle's counts, the memory its models take, and the
//! SCM's section on a hybrid device (`hybrid_scm_result.rs`). The device-wide parts (latency,
//! flash counters, tiers, energy) are the result's (`simulation/result.rs`).

use super::DataPath;
use crate::config::SimulationConfig;
use crate::ftl::FtlStats;
use crate::host::workload_class::WorkloadClassSummary;
use crate::middleware::MiddlewareStats;
use crate::read_path::ReadPathStatistics;
use crate::scheduler::FlashScheduler;
use crate::simulation::{DeadDataSummary, DeleteSummary, IntegritySummary, InterleavingSummary, ScmSummary};

/// The data path's sections of the result (see the module).
pub(in crate::simulation) struct PathResult {
    pub unmapped_page_reads: u64,
    pub deletes: DeleteSummary,
    pub read_modify_writes: u64,
    pub integrity: IntegritySummary,
    pub model_memory_bytes: u64,
    pub middleware: MiddlewareStats,
    pub read_path: Option<ReadPathStatistics>,
    pub workload_class: Option<WorkloadClassSummary>,
    pub dead_data: Option<DeadDataSummary>,
    pub interleaving: Option<InterleavingSummary>,
    pub scm: Option<ScmSummary>,
}

impl DataPath {
    /// The data path's sections over a run of `simulated` seconds; `stats` are the FTL's counters
    /// and `pages_checked_at_end` what the oracle's final sweep checked.
    pub(in crate::simulation) fn result(
        &self,
        config: &SimulationConfig,
        scheduler: &FlashScheduler,
        stats: &FtlStats,
        pages_checked_at_end: u64,
        simulated: f64,
    ) -> PathResult {
        let nand = self.nand();
        let (scm, scm_memory_bytes) = match self {
            DataPath::Nand(_) => (None, 0),
            DataPath::HybridScm(hybrid) => {
                (hybrid.summary(config.device.scm.as_ref(), scheduler, simulated), hybrid.scm.memory_bytes())
            }
        };
        PathResult {
            unmapped_page_reads: nand.unmapped_page_reads,
            deletes: nand.deletes.clone(),
            read_modify_writes: nand.read_modify_writes,
            integrity: IntegritySummary {
                enabled: nand.oracle.is_some(),
                reads_checked: nand.oracle.as_ref().map_or(0, |o| o.reads_checked),
                pages_checked_at_end,
                mismatches: 0,
            },
            model_memory_bytes: nand.ftl.memory_bytes() + nand.middleware.memory_bytes() + scm_memory_bytes,
            middleware: nand.middleware.stats(),
            read_path: nand.read_strategy.statistics(),
            workload_class: nand
                .workload_class
                .as_ref()
                .map(|classifier| classifier.summary(config.read_path.workload_class.mode)),
            dead_data: nand.dead_data.as_ref().map(|dead| dead.summary(stats.gc_blocks_collected)),
            interleaving: (nand.interleave_group_pages > 1).then(|| InterleavingSummary {
                group_chips: nand.interleave_group_pages,
                part_sensings: scheduler.counters().interleaved_part_sensings,
                write_padding_pages: nand.interleave_padding_pages,
                write_amplification_from_grouping: if stats.host_pages_written == 0 {
                    1.0
                } else {
                    (stats.host_pages_written + nand.interleave_padding_pages) as f64 / stats.host_pages_written as f64
                },
            }),
            scm,
        }
    }
}
