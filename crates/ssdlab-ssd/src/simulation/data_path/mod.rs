//! The data path: the request path below the host queue, as a stack of stages with one interface
//! (`stage.rs`). The replay loop hands the outermost stage each request a page span at a time
//! (read, write, delete), with the scheduler to book flash work on; each stage owns its state and
//! contributes its part of the result (`result.rs`).
//!
//! The stages: the NAND path (`nand.rs`: middleware -> FTL with its placement and tiers -> flash
//! work), always the last; seed 001's SCM in front of it on a hybrid device (`hybrid_scm.rs`); the
//! controller DRAM's write-back data cache outermost (`data_cache.rs`, `[device.data_cache]`); the
//! cached mapping table right on the NAND path (`mapping_cache.rs`, `[device.mapping_cache]`). A new
//! stage (a DRAM cache in front of the FTL, say) is a new file implementing [`Stage`] around the
//! stage below it, and one line in [`build`]. What the path leaves out: host queueing and latency
//! (the loop's), timing (the scheduler's), device events (`events.rs`, which the NAND path calls
//! when a write's GC wears a chip to its trigger).

mod data_cache;
mod ganged;
mod hybrid_scm;
mod hybrid_scm_result;
mod mapping_cache;
mod nand;
mod result;
mod stage;

pub(super) use data_cache::DataCachePath;
pub(super) use hybrid_scm::HybridScmPath;
pub(super) use mapping_cache::sizes as mapping_cache_sizes;
pub(super) use nand::NandPath;
pub(super) use result::PathResult;
pub(super) use stage::{HostIo, ResultContext, Stage};

use super::dead_data::DeadData;
use super::oracle::Oracle;
use super::scm_sizing;
use crate::config::{DeleteTarget, MiddlewareKind, ReadStrategyKind, SimulationConfig};
use crate::device_events::DeviceEvents;
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::ftl::Ftl;
use crate::geometry::Lpn;
use crate::host::workload_class::WorkloadClassifier;
use crate::host::PageSpan;
use crate::read_path::{self, ReadContext, ReadPlan};
use crate::retention::RetentionClock;
use crate::scheduler::{FlashScheduler, PlaneGroup};
use crate::simulation::DeleteSummary;
use mapping_cache::MappingCachePath;
use ssdlab_engine::random::derive_seed;
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;

/// The request path below the host queue (see the module): its outermost stage, which holds the
/// ones below it.
pub(super) struct DataPath {
    outermost: Box<dyn Stage>,
}

/// What the builder has made before the data path: the FTL (built with the layout), and the sizes
/// the path needs.
pub(super) struct PathParts<'a> {
    pub config: &'a SimulationConfig,
    pub layout: &'a DeviceLayout,
    pub ftl: Ftl,
    pub retention: RetentionClock,
    pub logical_pages: u64,
    pub ftl_logical_pages: u64,
    pub origin: &'a str,
}

/// Builds the data path a config asks for, from the NAND path outwards: each stage in front takes
/// the path built so far. (A new stage: one line here.)
pub(super) fn build(parts: PathParts<'_>) -> Result<DataPath, SimulationError> {
    let config = parts.config;
    let keep_tags = config.verification.integrity_oracle;
    let scm = scm_sizing::build(config, parts.layout, parts.logical_pages, keep_tags)?;
    let (layout, host_pages) = (parts.layout, parts.logical_pages);
    let nand = build_nand(parts);
    let data_cache = config.device.data_cache.as_ref().filter(|cache| cache.enabled);
    // Seed 001's SCM programs NAND pages itself (merging sectors), so it takes the NAND path as such.
    // The mapping-table cache (never with SCM: the config refuses it) sits right on the NAND path.
    let outermost: Box<dyn Stage> = match (scm, mapping_cache::sizes(config, layout, host_pages)) {
        (Some(scm), _) => Box::new(HybridScmPath::new(nand, scm)),
        (None, Some(sizes)) => Box::new(MappingCachePath::new(nand, sizes, host_pages, data_cache.is_none())?),
        (None, None) => Box::new(nand),
    };
    // The DRAM data cache in front of everything (absent: not in the stack, no cost per request).
    let page_bytes = config.device.page_size_bytes() as u64;
    let outermost: Box<dyn Stage> = match data_cache {
        Some(cache) => Box::new(DataCachePath::new(outermost, cache, page_bytes, config.host.delete_target)),
        None => outermost,
    };
    Ok(DataPath { outermost })
}

fn build_nand(parts: PathParts<'_>) -> NandPath {
    let PathParts { config, layout, ftl, retention, logical_pages, ftl_logical_pages, origin } = parts;
    let keep_tags = config.verification.integrity_oracle;
    let workload_class = matches!(config.read_path.strategy, ReadStrategyKind::Conventional | ReadStrategyKind::AoaEcc)
        .then(|| WorkloadClassifier::new(&config.read_path.workload_class, &retention, logical_pages));
    let middleware =
        crate::middleware::build(&config.middleware, ftl_logical_pages, derive_seed(config.seed, "middleware"));
    let mut read_strategy = read_path::build(&config.read_path, derive_seed(config.seed, "read_path"));
    // A strategy that ignores the context plans every read the same way: plan once.
    let fixed_read_plan = (!read_strategy.uses_context()).then(|| read_strategy.plan(&ReadContext::default()));
    NandPath {
        layout: layout.clone(),
        ftl,
        middleware,
        read_strategy,
        plain_reads: fixed_read_plan.as_ref().is_some_and(ReadPlan::is_plain_hard_read)
            && config.read_path.interleave_groups.is_empty(),
        fixed_read_plan,
        multi_plane: config.device.tiers().iter().all(|tier| tier.nand.multi_plane),
        oracle: keep_tags.then(Oracle::new),
        dead_data: (config.host.delete_target != DeleteTarget::Ftl
            || config.middleware.kind == MiddlewareKind::LbaScrambler)
            .then(|| DeadData::new(ftl_logical_pages)),
        workload_class,
        interleave_group_pages: config.read_path.interleave_groups.first().map_or(1, |group| group.len() as u64),
        interleave_padding_pages: 0,
        delete_target: config.host.delete_target,
        page_bytes: config.device.page_size_bytes() as u64,
        origin: origin.to_string(),
        request_index: 0,
        ops: Vec::with_capacity(1024),
        program_group: PlaneGroup::default(),
        read_group: PlaneGroup::default(),
        unmapped_page_reads: 0,
        deletes: DeleteSummary {
            target: serde_json::to_value(config.host.delete_target)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            ..Default::default()
        },
        read_modify_writes: 0,
        group_gates: Vec::new(),
        gang: crate::config::GangingConfig::of(&config.device)
            .map(|ganging| Box::new(ganged::GangPieces::new(ganging.chips_per_gang))),
    }
}

impl DataPath {
    /// The NAND path (every data path ends in one).
    #[inline]
    pub(super) fn nand(&self) -> &NandPath {
        self.outermost.nand()
    }

    #[inline]
    pub(super) fn nand_mut(&mut self) -> &mut NandPath {
        self.outermost.nand_mut()
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
        self.outermost.read(&HostIo { request, span, now, slot, index: request_index }, scheduler)
    }

    /// A host write of `span`; wear-triggered device events fire during it (see `events.rs`).
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
        self.outermost.write(&HostIo { request, span, now, slot, index: request_index }, scheduler, events)
    }

    /// A host delete of `span` issued at `now` (no flash work).
    #[cold]
    pub(super) fn delete(&mut self, span: PageSpan, now: SimTime) {
        self.outermost.delete(span, now)
    }

    /// Deletes one whole host page (an aged drive's deletes); returns whether the FTL trimmed it.
    pub(super) fn delete_page(&mut self, host: Lpn) -> bool {
        self.outermost.delete_page(host)
    }

    /// Preconditioning: host page `page` written whole, untimed.
    pub(super) fn untimed_write(&mut self, page: u32) -> Result<(), SimulationError> {
        self.outermost.untimed_write(page)
    }

    /// The loop's lookahead: the mapping entry of the request after next.
    #[inline]
    pub(super) fn prefetch_mapping(&self, page: Lpn) {
        self.outermost.prefetch_mapping(page)
    }

    /// The loop's lookahead: what the next request's writes will overwrite.
    #[inline]
    pub(super) fn prefetch_overwrites(&self, span: PageSpan) {
        self.outermost.prefetch_overwrites(span)
    }

    /// The integrity oracle's end of run; returns the pages (sectors, with SCM) checked.
    pub(super) fn finish_oracle(&mut self) -> Result<u64, SimulationError> {
        self.outermost.finish_oracle()
    }

    /// The DRAM data cache's bytes not yet in flash at `at` (None without a cache).
    pub(super) fn unsaved_bytes(&self, at: SimTime, scheduler: &FlashScheduler) -> Option<u64> {
        self.outermost.unsaved_bytes(at, scheduler)
    }

    /// True on the All S-SCM SSD (no NAND in use).
    pub(super) fn scm_only(&self) -> bool {
        self.outermost.scm_only()
    }

    /// The data path's sections of the result: each stage's own (see `Stage::contribute`).
    pub(super) fn result(&self, context: &ResultContext<'_>) -> PathResult {
        let mut result = PathResult::default();
        self.outermost.contribute(context, &mut result);
        result
    }
}
