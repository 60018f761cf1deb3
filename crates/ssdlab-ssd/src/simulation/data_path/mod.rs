//! The data path: the request path below the host queue, as the NAND path at the bottom and the
//! stages in front of it (`stage.rs`: one interface). The replay loop hands the data path each
//! request a page span at a time (read, write, delete), with the scheduler to book flash work on;
//! each stage owns its state and contributes its part of the result (`result.rs`).
//!
//! The parts: the NAND path (`nand/`: middleware -> FTL with its placement, tiers and, with
//! `[device.mapping_cache]`, its cached mapping table -> flash work), always the bottom; seed 001's
//! SCM in front of it on a hybrid device (`hybrid_scm/`); the controller DRAM's write-back data cache
//! outermost (`data_cache/`, `[device.data_cache]`). What the stages share about pages is in
//! `pages.rs`, below all of them; a stage imports no sibling. The wiring here owns the stages and the
//! NAND path side by side: a stage reaches the path below only through [`Below`], and the loop,
//! observers, device events and preconditioning reach the NAND path (its FTL) only through the
//! wiring. A new stage is a new folder implementing [`Stage`] and one line in [`build`]. What the
//! path leaves out: host queueing and latency (the loop's), timing (the scheduler's), device events
//! (`nand/device_events.rs`, which the NAND path calls when a write's GC wears a chip to its trigger).
//! The caches' parts per flow (`sharing = "equal_partitioning"`) are in `partitions.rs`.

mod data_cache;
mod exchange;
mod hybrid_scm;
mod nand;
mod oracle;
mod page_store;
mod pages;
mod partitions;
mod result;
mod stage;
mod use_order;
mod witness;

pub use data_cache::{DataCachePartSummary, DataCacheSummary};
pub use hybrid_scm::ScmSummary;
pub(in crate::simulation) use nand::mapping_cache_sizes;
pub use nand::{DeadDataSummary, DeleteSummary, InterleavingSummary, MappingCachePartSummary, MappingCacheSummary};
pub(super) use nand::{EventWork, NandPath};
pub use oracle::IntegritySummary;
pub use result::DataPathResult;
pub(super) use stage::{HostIo, Lookahead, ResultContext};

use crate::config::SimulationConfig;
use crate::device_events::DeviceEvents;
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::ftl::Ftl;
use crate::geometry::Lpn;
use crate::host::PageSpan;
use crate::retention::RetentionClock;
use crate::scheduler::FlashScheduler;
use crate::scm::ScmPlacement;
use data_cache::DataCachePath;
use hybrid_scm::HybridScmPath;
use oracle::Integrity;
use pages::whole_pages;
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;
use stage::{Below, Stage};
use witness::Witness;

/// The request path below the host queue (see the module): the stages in front of the NAND path,
/// outermost first, the NAND path, and the integrity oracle around them all.
pub(super) struct DataPath {
    front: Vec<Box<dyn Stage>>,
    nand: NandPath,
    /// True on the All S-SCM SSD (no NAND in use).
    scm_only: bool,
    /// The integrity oracle (`verification.integrity_oracle`; `oracle.rs`), whose witness each
    /// stage holds.
    integrity: Integrity,
}

/// What the builder has made before the data path: the FTL (built with the layout), and the sizes
/// the path needs.
pub(super) struct PathParts<'a> {
    pub config: &'a SimulationConfig,
    /// Seed 001's SCM, sized (`scm_sizing.rs`); None without one.
    pub scm: Option<ScmPlacement>,
    pub layout: &'a DeviceLayout,
    pub ftl: Ftl,
    pub retention: RetentionClock,
    pub logical_pages: u64,
    pub ftl_logical_pages: u64,
    pub origin: &'a str,
    /// Each flow's logical range when confined (`host/flows/resources.rs`; empty without flows):
    /// the caches' parts under `equal_partitioning` follow them.
    pub flow_ranges: &'a [Option<crate::host::flows::resources::FlowRange>],
}

/// Builds the data path a config asks for: the NAND path, then the stages in front of it, innermost
/// first. (A new stage: one line here.)
pub(super) fn build(parts: PathParts<'_>) -> Result<DataPath, SimulationError> {
    let config = parts.config;
    let page_bytes = config.device.page_size_bytes() as u64;
    // With seed 001's SCM the oracle's keys are sectors (its stage keeps sectors).
    let sector_keys = parts.scm.is_some().then_some(page_bytes / crate::config::SCM_SECTOR_BYTES);
    let integrity = Integrity::new(config.verification.integrity_oracle, sector_keys);
    let witness = Witness::of(integrity.shared());
    let origin = parts.origin.to_string();
    let cache_partitions = match config.device.data_cache.as_ref().map(|cache| cache.sharing) {
        Some(crate::config::CacheSharing::EqualPartitioning) => partitions::Partitions::of_flows(parts.flow_ranges),
        _ => partitions::Partitions::single(),
    };
    let host_pages = parts.logical_pages;
    let (scm, nand) = NandPath::build(parts, witness.clone())?;
    let scm_only = scm.as_ref().is_some_and(|scm| scm.is_scm_only());
    let mut front: Vec<Box<dyn Stage>> = Vec::new();
    // Seed 001's SCM programs NAND pages itself (merging sectors), right in front of the NAND path.
    if let Some(scm) = scm {
        front.push(Box::new(HybridScmPath::new(scm, page_bytes, witness.clone(), origin)));
    }
    // The DRAM data cache in front of everything (absent: not in the stack, no cost per request).
    if let Some(cache) = config.device.data_cache.as_ref().filter(|cache| cache.enabled) {
        front.push(Box::new(DataCachePath::new(
            cache,
            host_pages,
            page_bytes,
            config.host.delete_target,
            witness.clone(),
            cache_partitions,
        )));
    }
    front.reverse();
    Ok(DataPath { front, nand, scm_only, integrity })
}

impl DataPath {
    /// The NAND path (the wiring's: its FTL, read strategy and middleware for observers, device
    /// events and preconditioning).
    #[inline]
    pub(super) fn nand(&self) -> &NandPath {
        &self.nand
    }

    #[inline]
    pub(super) fn nand_mut(&mut self) -> &mut NandPath {
        &mut self.nand
    }

    /// A host read of `span` (request number `request_index`, device-queue slot `slot`) issued at `now`.
    #[inline]
    pub(super) fn read(
        &mut self,
        request: &IoRequest,
        span: PageSpan,
        now: SimTime,
        slot: u32,
        request_index: u64,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        let io = HostIo { request, span, now, slot, index: request_index, tags: &[] };
        Below::new(&mut self.front, &mut self.nand).read(&io, scheduler)
    }

    /// A host write of `span`; wear-triggered device events fire during it (see `nand/device_events.rs`).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn write(
        &mut self,
        request: &IoRequest,
        span: PageSpan,
        now: SimTime,
        slot: u32,
        request_index: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        let tags = self.integrity.write_tags(request, span);
        let io = HostIo { request, span, now, slot, index: request_index, tags };
        Below::new(&mut self.front, &mut self.nand).write(&io, scheduler, events)
    }

    /// A host delete of `span` issued at `now` (no flash work).
    #[cold]
    pub(super) fn delete(&mut self, span: PageSpan, now: SimTime) {
        Below::new(&mut self.front, &mut self.nand).delete(span, now);
        for page in whole_pages(span).into_iter().flatten() {
            self.integrity.deleted(page as u32);
        }
    }

    /// Deletes one whole host page (an aged drive's deletes); returns whether the FTL trimmed it.
    pub(super) fn delete_page(&mut self, host: Lpn) -> bool {
        let trimmed = Below::new(&mut self.front, &mut self.nand).delete_page(host);
        self.integrity.deleted(host.0);
        trimmed
    }

    /// Preconditioning: host page `page` written whole, untimed.
    pub(super) fn untimed_write(&mut self, page: u32) -> Result<(), SimulationError> {
        let tags = self.integrity.page_tags(page);
        Below::new(&mut self.front, &mut self.nand).untimed_write(page, tags)
    }

    /// The loop's lookahead: the mapping entry of the request after next.
    #[inline]
    pub(super) fn prefetch_mapping(&self, page: Lpn) {
        self.nand.prefetch_mapping(page)
    }

    /// The loop's lookahead: what the stages' caches will look up for a request on `span` (see
    /// [`Stage::prefetch`]).
    #[inline]
    pub(super) fn prefetch_stages(&self, span: PageSpan, step: Lookahead) {
        debug_assert!(self.has_stage_lookahead());
        for stage in &self.front {
            stage.prefetch(span, step);
        }
        self.nand.prefetch_mapping_cache(span, step);
    }

    /// Whether a stage loads anything ahead (a stage in front, or the mapping-table cache): the
    /// replay computes the spans only then.
    pub(super) fn has_stage_lookahead(&self) -> bool {
        !self.front.is_empty() || self.nand.has_mapping_cache()
    }

    /// The loop's lookahead: what the next request's writes will overwrite.
    #[inline]
    pub(super) fn prefetch_overwrites(&self, span: PageSpan) {
        self.nand.prefetch_overwrites(span)
    }

    /// The integrity oracle's end of run (with the oracle on): every key written or deleted is
    /// read back through the whole path, then each stage checks itself; the first mismatch of the
    /// run, if any, is the error.
    pub(super) fn finish_oracle(&mut self) -> Result<(), SimulationError> {
        let keys = self.integrity.keys_to_read_back();
        if self.integrity.shared().is_none() {
            return Ok(());
        }
        for key in keys {
            Below::new(&mut self.front, &mut self.nand).read_back(key);
        }
        Below::new(&mut self.front, &mut self.nand).final_checks();
        self.integrity.verdict().map_err(|(mismatches, first)| SimulationError::Integrity { mismatches, first })
    }

    /// Bytes the host was told are written that are not yet in flash at `at` (None without a stage
    /// that holds such bytes: the DRAM data cache).
    pub(super) fn unsaved_bytes(&self, at: SimTime, scheduler: &FlashScheduler) -> Option<u64> {
        self.front.iter().find_map(|stage| stage.unsaved_bytes(at, scheduler))
    }

    /// True on the All S-SCM SSD (no NAND in use).
    pub(super) fn scm_only(&self) -> bool {
        self.scm_only
    }

    /// The data path's sections of the result: the NAND path's, then each stage's, innermost first.
    pub(super) fn result(&self, context: &ResultContext<'_>) -> DataPathResult {
        let mut result = DataPathResult { integrity: self.integrity.summary(), ..DataPathResult::default() };
        self.nand.contribute(context, &mut result);
        for stage in self.front.iter().rev() {
            stage.contribute(context, &mut result);
        }
        result
    }
}
