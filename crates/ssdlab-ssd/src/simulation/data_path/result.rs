//! The data path's part of a run's result, filled by its stages (`Stage::contribute`): what the
//! NAND path counted (unmapped reads, read-modify-writes, deletes, interleaving padding), its
//! middleware's, read strategy's, workload classifier's and dead data's summaries, the oracle's
//! counts and the memory its models take (here), and the SCM's section on a hybrid device
//! (`hybrid_scm_result.rs`), the DRAM data cache's (`data_cache.rs`) and the mapping-table cache's (`mapping_cache.rs`). The device-wide parts (latency, flash counters, tiers, energy) are the
//! result's (`simulation/result.rs`).

use super::nand::NandPath;
use super::stage::ResultContext;
use crate::host::workload_class::WorkloadClassSummary;
use crate::middleware::MiddlewareStats;
use crate::read_path::ReadPathStatistics;
use crate::simulation::{
    DataCacheSummary, DeadDataSummary, DeleteSummary, IntegritySummary, InterleavingSummary, MappingCacheSummary,
    ScmSummary,
};

/// The data path's sections of the result (see the module); a stage's sections are absent (None)
/// until it fills them.
#[derive(Default)]
pub(in crate::simulation) struct PathResult {
    pub unmapped_page_reads: u64,
    pub deletes: DeleteSummary,
    pub read_modify_writes: u64,
    pub integrity: IntegritySummary,
    pub model_memory_bytes: u64,
    pub middleware: Option<MiddlewareStats>,
    pub read_path: Option<ReadPathStatistics>,
    pub workload_class: Option<WorkloadClassSummary>,
    pub dead_data: Option<DeadDataSummary>,
    pub interleaving: Option<InterleavingSummary>,
    pub scm: Option<ScmSummary>,
    pub data_cache: Option<DataCacheSummary>,
    pub mapping_cache: Option<MappingCacheSummary>,
}

impl NandPath {
    /// The NAND path's sections (see the module).
    pub(super) fn contribute_sections(&self, context: &ResultContext<'_>, result: &mut PathResult) {
        let (config, stats) = (context.config, context.stats);
        result.unmapped_page_reads = self.unmapped_page_reads;
        result.deletes = self.deletes.clone();
        result.read_modify_writes = self.read_modify_writes;
        result.integrity = IntegritySummary {
            enabled: self.oracle.is_some(),
            reads_checked: self.oracle.as_ref().map_or(0, |o| o.reads_checked),
            pages_checked_at_end: context.pages_checked_at_end,
            mismatches: 0,
        };
        result.model_memory_bytes += self.ftl.memory_bytes() + self.middleware.memory_bytes();
        result.middleware =
            (context.config.middleware.kind != crate::config::MiddlewareKind::None).then(|| self.middleware.stats());
        result.read_path = self.read_strategy.statistics().map(|mut statistics| {
            // The plans counted look-aheads at arrival; the ones a busy die skipped when the hard
            // sensing ended never ran.
            let (skipped, skipped_cancelled) = context.scheduler.look_aheads_skipped();
            statistics.look_ahead_started -= skipped;
            statistics.look_ahead_cancelled -= skipped_cancelled;
            statistics.look_ahead_skipped_busy = skipped;
            statistics
        });
        result.workload_class =
            self.workload_class.as_ref().map(|classifier| classifier.summary(config.read_path.workload_class.mode));
        result.dead_data = self.dead_data.as_ref().map(|dead| dead.summary(stats.gc_blocks_collected));
        result.interleaving = (self.interleave_group_pages > 1).then(|| InterleavingSummary {
            group_chips: self.interleave_group_pages,
            part_sensings: context.scheduler.counters().interleaved_part_sensings,
            write_padding_pages: self.interleave_padding_pages,
            write_amplification_from_grouping: if stats.host_pages_written == 0 {
                1.0
            } else {
                (stats.host_pages_written + self.interleave_padding_pages) as f64 / stats.host_pages_written as f64
            },
        });
    }
}
