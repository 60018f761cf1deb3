//! The NAND path's sections of the result (`data_path/result.rs` holds them all): what it counted
//! (unmapped reads, read-modify-writes, deletes, interleaving padding), its middleware's, read
//! strategy's, workload classifier's and dead data's summaries, the oracle's counts and the memory
//! its models take.

use super::NandPath;
use crate::simulation::data_path::exchange::ResultContext;
use crate::simulation::data_path::result::DataPathResult;
use serde::Serialize;

/// What data placement interleaving cost: part sensings on the other chips of each group, and the
/// padding of host writes to whole groups of pages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct InterleavingSummary {
    pub group_chips: u64,
    /// Sensings of codeword parts on partner chips (beyond the read's own).
    pub part_sensings: u64,
    pub write_padding_pages: u64,
    /// (host pages written + padding) / host pages written.
    pub write_amplification_from_grouping: f64,
}

/// Delete (discard/TRIM) requests of a run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct DeleteSummary {
    /// `host.delete_target`: none, middleware or ftl.
    pub target: String,
    pub requests: u64,
    /// Whole logical pages the deletes covered (partial pages are not deleted).
    pub pages: u64,
    /// Of those, pages the FTL held and trimmed (invalidated and unmapped).
    pub pages_trimmed: u64,
}

impl NandPath {
    /// The NAND path's sections (see the module).
    pub(super) fn contribute_sections(&self, context: &ResultContext<'_>, result: &mut DataPathResult) {
        let (config, stats) = (context.config, context.stats);
        result.unmapped_page_reads = self.unmapped_page_reads;
        result.deletes = self.deletes.clone();
        result.read_modify_writes = self.read_modify_writes;
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
