//! The data path's part of a run's result, filled by its parts: the NAND path's sections
//! (`nand/sections.rs`: what it counted, its middleware's, read strategy's, workload classifier's
//! and dead data's summaries, the oracle's counts, the memory its models take) and the cached
//! mapping table's (`nand/mapping_cache/summary.rs`), then each stage's (`Stage::contribute`): the
//! SCM's on a hybrid device (`hybrid_scm/summary.rs`), the DRAM data cache's
//! (`data_cache/summary.rs`). The device-wide parts (latency, flash counters, tiers, energy) are
//! the result's (`simulation/result.rs`).

use super::{DataCacheSummary, MappingCacheSummary, ScmSummary};
use super::{DeadDataSummary, DeleteSummary, IntegritySummary, InterleavingSummary};
use crate::host::workload_class::WorkloadClassSummary;
use crate::middleware::MiddlewareStats;
use crate::read_path::ReadPathStatistics;

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
