//! The mapping-table cache's section of the result (`mapping_cache` in docs/results.md).

use super::MappingCache;
use crate::simulation::data_path::exchange::ResultContext;
use serde::Serialize;

/// What the mapping-table cache did over a run (issue 37; `simulation/data_path/nand/mapping_cache/`).
/// Lookups are per page of a request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MappingCacheSummary {
    pub capacity_entries: u64,
    pub entry_bytes: u64,
    /// `capacity_entries` x `entry_bytes`.
    pub capacity_bytes: u64,
    pub translation_entries_per_page: u64,
    /// Translation pages in flash (FTL logical pages past the host's).
    pub translation_pages: u64,
    pub lookups: u64,
    pub hits: u64,
    pub read_misses: u64,
    pub write_misses: u64,
    /// `hits` over `lookups`.
    pub hit_ratio: f64,
    /// Translation pages read for misses (once per translation page and request).
    pub translation_page_reads: u64,
    /// Misses (and uses of an entry still loading) that waited for a translation read already
    /// running instead of reading the page again.
    pub misses_sharing_a_read: u64,
    /// Translation pages read to merge a write-back with the entries not cached.
    pub translation_page_reads_for_write_back: u64,
    /// Translation pages programmed (write-backs of dirty entries at eviction).
    pub translation_page_programs: u64,
    pub clean_evictions: u64,
    pub dirty_evictions: u64,
    /// Dirty entries those write-backs took to flash (the evicted ones and their translation
    /// pages' other dirty entries).
    pub entries_written_back: u64,
    pub entries_at_end: u64,
    pub dirty_entries_at_end: u64,
    /// Die time of the translation reads (sensing) and programs, and its share of all die time
    /// booked (GC copies of translation pages are GC's).
    pub translation_die_time_s: f64,
    pub translation_die_time_share: f64,
    /// With `sharing = "equal_partitioning"` and two flows or more: each flow's part, in flow order
    /// (absent when shared).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<MappingCachePartSummary>,
}

/// One flow's part of the mapping-table cache (`equal_partitioning`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MappingCachePartSummary {
    pub capacity_entries: u64,
    pub hits: u64,
    /// Entries evicted from this part (to make room for this flow's entries).
    pub evictions: u64,
    pub entries_at_end: u64,
}

impl MappingCache {
    pub(super) fn summary(&self, context: &ResultContext<'_>) -> MappingCacheSummary {
        let counts = self.counts;
        let misses = counts.read_misses + counts.write_misses;
        let lookups = counts.hits + misses;
        let die_busy_ns = context.scheduler.busy_totals().0 .0;
        MappingCacheSummary {
            capacity_entries: self.sizes.entries,
            entry_bytes: self.sizes.entry_bytes,
            capacity_bytes: self.sizes.entries * self.sizes.entry_bytes,
            translation_entries_per_page: self.sizes.entries_per_translation_page,
            translation_pages: self.sizes.translation_pages,
            lookups,
            hits: counts.hits,
            read_misses: counts.read_misses,
            write_misses: counts.write_misses,
            hit_ratio: if lookups == 0 { 0.0 } else { counts.hits as f64 / lookups as f64 },
            translation_page_reads: counts.translation_reads,
            misses_sharing_a_read: counts.shared_reads,
            translation_page_reads_for_write_back: counts.translation_merge_reads,
            translation_page_programs: counts.translation_programs,
            clean_evictions: counts.clean_evictions,
            dirty_evictions: counts.dirty_evictions,
            entries_written_back: counts.entries_written_back,
            entries_at_end: self.entries.len() as u64,
            dirty_entries_at_end: self.dirty_entries,
            translation_die_time_s: counts.translation_die_ns as f64 * 1e-9,
            translation_die_time_share: if die_busy_ns == 0 {
                0.0
            } else {
                counts.translation_die_ns as f64 / die_busy_ns as f64
            },
            partitions: if self.parts.len() < 2 {
                Vec::new()
            } else {
                self.parts
                    .iter()
                    .map(|part| MappingCachePartSummary {
                        capacity_entries: part.capacity,
                        hits: part.hits,
                        evictions: part.evictions,
                        entries_at_end: part.order.len() as u64,
                    })
                    .collect()
            },
        }
    }
}
