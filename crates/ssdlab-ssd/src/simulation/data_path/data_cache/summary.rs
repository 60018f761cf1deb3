//! The DRAM data cache's section of the result (`data_cache` in docs/results.md).

use super::super::stage::ResultContext;
use super::{DataCachePath, ALL, DIRTY};
use crate::config::DATA_CACHE_SECTOR_BYTES;
use serde::Serialize;
use std::cmp::Reverse;

/// What the DRAM data cache did over a run (issue 37; `simulation/data_path/data_cache/`). Page
/// counts are per page of a request (a request of n pages counts n).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DataCacheSummary {
    pub capacity_bytes: u64,
    /// Lines (one page each).
    pub lines: u64,
    pub force_unit_access: bool,
    /// Pages of host writes whose page was cached already / was not.
    pub write_page_hits: u64,
    pub write_page_misses: u64,
    /// Pages of host reads served from DRAM alone / from DRAM and flash / from flash alone.
    pub read_page_hits: u64,
    pub read_page_partial_hits: u64,
    pub read_page_misses: u64,
    /// `read_page_hits` over the pages read.
    pub read_hit_ratio: f64,
    /// Host reads every page of which was a hit (no flash work).
    pub read_requests_from_cache: u64,
    pub clean_evictions: u64,
    pub dirty_evictions: u64,
    /// Times the dirty lines passed the high watermark (each a round of background destage).
    pub destage_rounds: u64,
    pub pages_destaged_in_background: u64,
    pub pages_destaged_at_eviction: u64,
    /// Pages written through to flash (`force_unit_access`).
    pub pages_written_through: u64,
    /// Lines dropped by host deletes.
    pub lines_deleted: u64,
    pub lines_at_end: u64,
    pub dirty_lines_at_end: u64,
    /// What a power loss would lose: dirty bytes at the end; bytes acknowledged to the host and
    /// not yet in flash (dirty, or destaged and still being programmed), their maximum and time
    /// average over the run.
    pub dirty_bytes_at_end: u64,
    pub unsaved_bytes_max: u64,
    pub unsaved_bytes_mean: f64,
    pub dram: crate::scheduler::DramCounters,
    /// Fraction of simulated time the DRAM bus was busy.
    pub dram_utilisation: f64,
    /// With `sharing = "equal_partitioning"` and two flows or more: each flow's part, in flow order
    /// (absent when shared).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<DataCachePartSummary>,
}

/// One flow's part of the data cache (`equal_partitioning`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DataCachePartSummary {
    pub lines: u64,
    pub read_page_hits: u64,
    pub write_page_hits: u64,
    /// Lines evicted from this part (to make room for this flow's lines).
    pub evictions: u64,
    pub lines_at_end: u64,
}

impl DataCachePath {
    pub(super) fn summary(&self, context: &ResultContext<'_>) -> DataCacheSummary {
        let counts = self.counts;
        let pages_read = counts.read_page_hits + counts.read_page_partial_hits + counts.read_page_misses;
        let mut exposure = self.exposure.clone();
        for &(end, bytes) in context.scheduler.pending_background_completions() {
            exposure.in_flight.push(Reverse((end.0, bytes)));
        }
        let end = context.end.0.max(exposure.at);
        let dram_busy = context.scheduler.dram_busy().as_secs_f64();
        DataCacheSummary {
            capacity_bytes: self.capacity_bytes,
            lines: self.capacity_lines as u64,
            force_unit_access: self.force_unit_access,
            write_page_hits: counts.write_page_hits,
            write_page_misses: counts.write_page_misses,
            read_page_hits: counts.read_page_hits,
            read_page_partial_hits: counts.read_page_partial_hits,
            read_page_misses: counts.read_page_misses,
            read_hit_ratio: if pages_read == 0 { 0.0 } else { counts.read_page_hits as f64 / pages_read as f64 },
            read_requests_from_cache: counts.read_requests_from_cache,
            clean_evictions: counts.clean_evictions,
            dirty_evictions: counts.dirty_evictions,
            destage_rounds: counts.destage_rounds,
            pages_destaged_in_background: counts.pages_destaged_in_background,
            pages_destaged_at_eviction: counts.pages_destaged_at_eviction,
            pages_written_through: counts.pages_written_through,
            lines_deleted: counts.lines_deleted,
            lines_at_end: self.lines.len() as u64,
            dirty_lines_at_end: self.parts.iter().map(|part| part.orders[DIRTY].len() as u64).sum(),
            dirty_bytes_at_end: self.dirty_sectors * DATA_CACHE_SECTOR_BYTES,
            unsaved_bytes_max: exposure.max_bytes,
            unsaved_bytes_mean: exposure.mean_until(end),
            dram: context.scheduler.dram_counters(),
            dram_utilisation: if context.simulated_seconds > 0.0 { dram_busy / context.simulated_seconds } else { 0.0 },
            partitions: if self.parts.len() < 2 {
                Vec::new()
            } else {
                self.parts
                    .iter()
                    .map(|part| DataCachePartSummary {
                        lines: part.capacity_lines as u64,
                        read_page_hits: part.read_page_hits,
                        write_page_hits: part.write_page_hits,
                        evictions: part.evictions,
                        lines_at_end: part.orders[ALL].len() as u64,
                    })
                    .collect()
            },
        }
    }
}
