//! The data path's section of a run's result, filled by its parts: the NAND path's
//! (`nand/sections.rs`: what it counted, its middleware's, read strategy's, workload classifier's
//! and dead data's summaries, the memory its models take), the cached mapping table's
//! (`nand/mapping_cache/summary.rs`), the integrity oracle's counts (`oracle.rs`), then each
//! stage's (`Stage::contribute`): the SCM's on a hybrid device (`hybrid_scm/summary.rs`), the DRAM
//! data cache's (`data_cache/summary.rs`). The result holds it flattened (`RunResult::data_path`:
//! its keys sit at the top level of the JSON, as every other section's do); the device-wide parts
//! (latency, flash counters, tiers, energy) are the result's own (`simulation/result.rs`).

use super::{DataCacheSummary, MappingCacheSummary, ScmSummary};
use super::{DeadDataSummary, DeleteSummary, IntegritySummary, InterleavingSummary};
use crate::host::workload_class::WorkloadClassSummary;
use crate::middleware::MiddlewareStats;
use crate::read_path::ReadPathStatistics;
use serde::Serialize;

/// The data path's section of the result (see the module); a stage's parts are absent (None, and
/// left out of the JSON) until it fills them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DataPathResult {
    /// Host reads of logical pages never written (served without a flash access).
    pub unmapped_page_reads: u64,
    /// Delete (discard/TRIM) requests and where they went.
    pub deletes: DeleteSummary,
    /// Partial-page writes that first read the old page (read-modify-write).
    pub read_modify_writes: u64,
    pub integrity: IntegritySummary,
    /// Bytes held by the model's tables at the end of the run.
    pub model_memory_bytes: u64,
    /// What the host-side middleware did (seed 003's rule counts for the LBA scrambler; absent
    /// without middleware).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub middleware: Option<MiddlewareStats>,
    /// Decoding outcomes of the read path (strategies that sample them; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_path: Option<ReadPathStatistics>,
    /// The workload class the controller saw over time (seed 000's policies; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload_class: Option<WorkloadClassSummary>,
    /// Dead data the FTL still held and GC copied (runs where deletes stop above the FTL or the
    /// middleware moves pages; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead_data: Option<DeadDataSummary>,
    /// Data placement interleaving's costs (seed 002 §3.3; absent without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interleaving: Option<InterleavingSummary>,
    /// Seed 001's SCM: placement, operations, wear, energy and power (absent without SCM).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scm: Option<ScmSummary>,
    /// The controller DRAM's write-back data cache (`[device.data_cache]`; absent without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_cache: Option<DataCacheSummary>,
    /// The cached mapping table over translation pages in flash (`[device.mapping_cache]`; absent
    /// with the ideal mapping).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping_cache: Option<MappingCacheSummary>,
}
