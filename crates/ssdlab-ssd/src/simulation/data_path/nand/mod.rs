//! The NAND data path: host pages through the middleware (which logical page the FTL sees) and the
//! FTL (mapping, GC, placement over the tiers) to flash work booked on the scheduler, with the read
//! strategy planning each read.
//!
//! Per page span: a read looks each page up and reads it (plain reads of one die's planes gathered
//! into multi-plane reads); a write programs each page (a partial page that holds data is read
//! first: a read-modify-write), pages on one die's planes gathered into one program group, and books
//! the GC the FTL decided meanwhile; a delete goes where `host.delete_target` says. It also keeps the
//! page-granularity integrity oracle, the dead-data accounting, the workload classifier (seed 000)
//! and the interleaving padding count, and, with `[device.mapping_cache]`, the cached mapping table
//! (`mapping_cache/`, consulted by every read and write it is handed). It is the bottom of the data
//! path: the stages in front reach it through `Below` (`stage.rs`), the wiring through its accessors;
//! its fields are its own. It leaves out any stage in front of the FTL (SCM: `hybrid_scm/`; the DRAM
//! data cache: `data_cache/`) and the timing itself (the scheduler's).

mod dead_data;
mod device_events;
mod ganged;
mod mapping_cache;
mod sections;

pub use dead_data::DeadDataSummary;
pub(in crate::simulation) use mapping_cache::sizes as mapping_cache_sizes;
pub use mapping_cache::{MappingCachePartSummary, MappingCacheSummary};
pub use sections::{DeleteSummary, InterleavingSummary};

use super::exchange::{HostIo, OpenProgram, PageProgram, ResultContext};
use super::pages::{whole_pages, TaggedPage};
use super::result::DataPathResult;
use super::PathParts;
use crate::config::{DeleteTarget, MiddlewareKind, ReadStrategyKind};
use crate::device_events::DeviceEvents;
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::flash_op::FlashOp;
use crate::ftl::Ftl;
use crate::geometry::{Lpn, Ppn};
use crate::host::workload_class::WorkloadClassifier;
use crate::host::PageSpan;
use crate::middleware::Middleware;
use crate::read_path::{self, ReadContext, ReadPlan, ReadStrategy};
use crate::scheduler::{FlashScheduler, PlaneGroup, RequestTag, Waiter};
use crate::scm::ScmPlacement;
use crate::simulation::data_path::witness::Witness;
use dead_data::DeadData;
pub(in crate::simulation) use device_events::EventWork;
use mapping_cache::MappingCache;
use ssdlab_engine::random::derive_seed;
use ssdlab_engine::SimTime;
use ssdlab_workload::{IoOp, IoRequest};

/// The NAND side of the device and what it counts.
pub(in crate::simulation) struct NandPath {
    layout: DeviceLayout,
    ftl: Ftl,
    middleware: Box<dyn Middleware>,
    read_strategy: Box<dyn ReadStrategy>,
    /// The plan of every read when the strategy does not look at the context.
    fixed_read_plan: Option<ReadPlan>,
    /// True when that fixed plan is one plain hard read (sense, transfer, decode): the hot path.
    plain_reads: bool,
    /// Every tier's dies take multi-plane programs and reads.
    multi_plane: bool,
    /// What the path shows the integrity oracle of the data it moves.
    witness: Witness,
    /// Dead data the FTL still holds (runs where deletes stop above the FTL or a middleware moves pages).
    dead_data: Option<DeadData>,
    /// The workload class the controller sees (seed 000's policies only).
    workload_class: Option<WorkloadClassifier>,
    /// Data placement interleaving: pages per group (1: none), and the pages host writes were
    /// padded with to fill whole groups.
    interleave_group_pages: u64,
    interleave_padding_pages: u64,
    /// Where a delete goes (`host.delete_target`).
    delete_target: DeleteTarget,
    /// The workload's origin, for error messages.
    origin: String,
    /// The number of the request being served (the read strategy's context).
    request_index: u64,
    /// Scratch: the GC and other operations the FTL decided for one write.
    ops: Vec<FlashOp>,
    program_group: PlaneGroup,
    /// Pages of a multi-plane read being gathered (see `read`).
    read_group: PlaneGroup,
    unmapped_page_reads: u64,
    deletes: DeleteSummary,
    read_modify_writes: u64,
    /// Set by the mapping-table cache for the write it passes down (empty otherwise): (host page,
    /// gate) pairs, the program group of each page waiting for its gate (`mapping_cache/`).
    group_gates: Vec<(u32, u32)>,
    /// On a ganged device (`[device.ganging]`), the pieces being cut from a request (`ganged.rs`).
    gang: Option<Box<ganged::GangPieces>>,
    /// The cached mapping table (`[device.mapping_cache]`, `mapping_cache/`): as in MQSim, part of the
    /// FTL's address mapping; taken out while it works on the path.
    mapping_cache: Option<Box<MappingCache>>,
}

impl NandPath {
    /// What every read or write does first: notes the request's number and shows it to the
    /// workload classifier.
    #[inline]
    pub(super) fn begin(&mut self, request: &IoRequest, span: PageSpan, request_index: u64) {
        self.request_index = request_index;
        if let Some(classifier) = self.workload_class.as_mut() {
            // On the workload's own timeline (its arrival times): in closed loop the issue times say
            // how fast the device is, not how often the workload rewrites its data.
            classifier.observe(request.arrival.0, request.op == IoOp::Write, span.first, span.last - span.first + 1);
        }
    }

    /// Prefetches the mapping entry of host page `page` (see `replay`).
    #[inline]
    pub(super) fn prefetch_mapping(&self, page: Lpn) {
        if let Some(target) = self.middleware.read_target(page) {
            self.ftl.prefetch_mapping(target);
        }
    }

    pub(super) fn has_mapping_cache(&self) -> bool {
        self.mapping_cache.is_some()
    }

    /// Prefetches what the mapping-table cache will look up for a request on `span` (see `replay`).
    #[inline]
    pub(super) fn prefetch_mapping_cache(&self, span: PageSpan, step: super::Lookahead) {
        if let Some(cache) = self.mapping_cache.as_deref() {
            cache.prefetch(span, step);
        }
    }

    /// Prefetches what a write of `span` will touch with its overwrites (see `replay`).
    pub(super) fn prefetch_overwrites(&self, span: PageSpan) {
        for page in span.first..=span.last.min(span.first + 31) {
            if let Some(target) = self.middleware.read_target(Lpn(page as u32)) {
                self.ftl.prefetch_overwrite(target);
            }
        }
    }

    /// Closes a host write's program group: held for GC when a plane of it holds writes. (Takes the
    /// two parts it needs, so callers can pass pages they hold in another field.)
    #[inline]
    fn close_program_group(scheduler: &mut FlashScheduler, ftl: &Ftl, id: u32, now: SimTime, pages: &[Ppn]) {
        if scheduler.gates_writes() {
            scheduler
                .close_write_group_gated(id, now, pages, |plane| ftl.free_blocks(crate::geometry::PlaneIndex(plane)));
        } else {
            scheduler.close_write_group(id, now, pages);
        }
    }

    #[inline]
    pub(super) fn read_page(&mut self, scheduler: &mut FlashScheduler, ppn: Ppn, now: SimTime, waiter: Waiter) {
        if self.plain_reads {
            return scheduler.read_plain(now, std::slice::from_ref(&ppn), waiter);
        }
        self.read_page_planned(scheduler, ppn, now, waiter)
    }

    #[inline(never)]
    fn read_page_planned(&mut self, scheduler: &mut FlashScheduler, ppn: Ppn, now: SimTime, waiter: Waiter) {
        let plan = self.plan_read(scheduler, ppn, now);
        scheduler.read(now, ppn, &plan, waiter)
    }

    /// The read strategy's plan for a read of `ppn` at `now`.
    pub(super) fn plan_read(&mut self, scheduler: &FlashScheduler, ppn: Ppn, now: SimTime) -> ReadPlan {
        if let Some(plan) = &self.fixed_read_plan {
            return *plan;
        }
        let block = self.ftl.block_of_page(ppn);
        let programmed_ms = self.ftl.program_time_ms(ppn) as u64;
        let context = ReadContext {
            pe_cycles: block.erase_count,
            retention_ns: now.0.saturating_sub(programmed_ms * 1_000_000),
            chip: self.layout.chip_of_die(self.layout.die_of(ppn)),
            block: self.ftl.global_block_of(ppn).0,
            page_type: self.layout.page_type(ppn),
            // Decided when the hard sensing ends (the scheduler) unless tested at arrival.
            die_idle: scheduler.look_ahead_decided_after_hard_sensing() || scheduler.die_idle_at(ppn, now),
            age_hours: self.ftl.data_age_hours(ppn, now.0),
            workload_hot: self
                .workload_class
                .as_ref()
                .is_some_and(|classifier| crate::host::workload_class::is_hot(classifier.class())),
            workload_write_dominant: self
                .workload_class
                .as_ref()
                .is_some_and(|classifier| crate::host::workload_class::is_write_dominant(classifier.class())),
            request: self.request_index,
        };
        self.read_strategy.plan(&context)
    }

    /// A read of `ppn` that starts when gate `gate` ends (planned now, as the read strategy sees
    /// the page now); `waiter` waits for it.
    fn read_page_after_gate(
        &mut self,
        scheduler: &mut FlashScheduler,
        ppn: Ppn,
        now: SimTime,
        gate: u32,
        waiter: Waiter,
    ) {
        let plan = self.plan_read(scheduler, ppn, now);
        scheduler.read_after_gate(gate, ppn, &plan, waiter)
    }

    /// The mapping-table cache's gates for host page `page` (`group_gates`): program group `id`
    /// waits for each.
    #[inline(never)]
    fn join_gates(&self, page: u32, id: u32, scheduler: &mut FlashScheduler) {
        for &(gated, gate) in &self.group_gates {
            if gated == page {
                scheduler.wait_for_gate(gate, Waiter::WriteGroup(id));
            }
        }
    }

    /// Programs FTL logical page `lpn` (a translation page, past the host's pages) as background
    /// work nobody waits for: a request of its own (reported among the background completions
    /// with 0 bytes), its GC booked; with `merge`, the page's current copy is read first and the
    /// program waits for that read (the entries kept are merged with those written back). Not a
    /// host page written in the FTL's counts; the oracle tags it as its own page. Without device
    /// events at hand (a write-back during a read) its GC is booked and wear events wait for the
    /// next write. Returns the read (if any) and the program's physical pages.
    fn write_metadata_page(
        &mut self,
        lpn: Lpn,
        merge: bool,
        now: SimTime,
        scheduler: &mut FlashScheduler,
        events: Option<&mut DeviceEvents>,
    ) -> Result<(Option<Ppn>, Ppn), SimulationError> {
        let tag = RequestTag { latency_from: now, size_bytes: 0, write: true, delete: false, background: true };
        let request = scheduler.open_request(now, tag);
        let old = if merge { self.ftl.lookup(lpn) } else { None };
        let tag = self.witness.own_page_written(lpn.0);
        self.ops.clear();
        let ppn = self.ftl.write_metadata(lpn, now.0, tag, &mut self.ops).map_err(|source| SimulationError::Ftl {
            origin: format!("{} (mapping-table cache write-back)", self.origin),
            source,
        })?;
        if !self.ftl.foreground_ops().is_empty() {
            scheduler.foreground_copies(now, self.ftl.foreground_ops(), Waiter::Request(request));
        }
        if !self.ops.is_empty() {
            match events {
                Some(events) => self.book_collection(now, scheduler, events)?,
                None => scheduler.garbage_collection(now, &self.ops),
            }
        }
        let group = scheduler.open_write_group(request, now);
        if let Some(old) = old {
            self.read_page(scheduler, old, now, Waiter::WriteGroup(group));
        }
        Self::close_program_group(scheduler, &self.ftl, group, now, &[ppn]);
        scheduler.close_request(request, now);
        Ok((old, ppn))
    }

    /// Books the collection the last FTL write set off (in `self.ops`), then fires the wear events
    /// it reached. While a retired chip drains with collection, the device events book it (the
    /// chip's next block goes along).
    #[inline]
    fn book_collection(
        &mut self,
        now: SimTime,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        if events.drains_with_collection() {
            return self.event_work(scheduler, events).collect_and_drain(now);
        }
        scheduler.garbage_collection(now, &self.ops);
        if events.wear_pending() {
            self.event_work(scheduler, events).check_wear_events(now)?;
        }
        Ok(())
    }

    /// What device events work on: the FTL (and the scratch for the flash work they decide), the
    /// layout, the scheduler and the events themselves (`device_events.rs`).
    pub(in crate::simulation) fn event_work<'a>(
        &'a mut self,
        scheduler: &'a mut FlashScheduler,
        events: &'a mut DeviceEvents,
    ) -> EventWork<'a> {
        EventWork {
            ftl: &mut self.ftl,
            ops: &mut self.ops,
            layout: &self.layout,
            origin: &self.origin,
            scheduler,
            events,
        }
    }

    fn read_span(&mut self, span: PageSpan, now: SimTime, slot: u32, scheduler: &mut FlashScheduler) {
        if self.gang.is_some() {
            return self.read_span_ganged(span, now, slot, scheduler);
        }
        let waiter = Waiter::Request(slot);
        // Plain reads of consecutive pages on one die, in different planes, are sensed together
        // (a multi-plane read) when the device supports multi-plane operations; reads with a
        // read-path strategy in play are planned page by page.
        let group_reads = self.plain_reads && self.multi_plane;
        self.read_group.clear();
        for page in span.first..=span.last {
            let host = Lpn(page as u32);
            let physical = self.middleware.read_target(host).and_then(|target| self.ftl.lookup(target));
            if self.witness.watching() {
                self.witness.returned(host.0, physical.map(|ppn| self.ftl.tag(ppn)), "host read");
            }
            if let Some(ppn) = physical {
                self.ftl.note_host_read(ppn);
            }
            match physical {
                Some(ppn) if group_reads => {
                    let (die, plane) = self.layout.die_and_plane_of(ppn);
                    if !self.read_group.add(die, plane, ppn) {
                        scheduler.read_plain(now, self.read_group.pages(), waiter);
                        self.read_group.clear();
                        self.read_group.add(die, plane, ppn);
                    }
                }
                Some(ppn) => self.read_page(scheduler, ppn, now, waiter),
                None => self.unmapped_page_reads += 1,
            }
        }
        if !self.read_group.is_empty() {
            scheduler.read_plain(now, self.read_group.pages(), waiter);
        }
    }

    /// Puts host page `page`, programmed at `ppn`, into the write's open program group (`group`):
    /// pages of one die's planes share a group (each page its own without multi-plane operations);
    /// a page that does not fit closes the group and opens the next. The group waits for the
    /// mapping-table cache's gates of the page. Returns the group's id. One step of `write_span`
    /// and `write_tagged_pages`, kept inlined for the host write's hot path.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn join_program_group(
        &mut self,
        ppn: Ppn,
        page: u32,
        group: &mut Option<u32>,
        multi_plane: bool,
        now: SimTime,
        slot: u32,
        scheduler: &mut FlashScheduler,
    ) -> u32 {
        let (die, plane) = self.layout.die_and_plane_of(ppn);
        if (!multi_plane && !self.program_group.is_empty()) || !self.program_group.add(die, plane, ppn) {
            if let Some(id) = group.take() {
                Self::close_program_group(scheduler, &self.ftl, id, now, self.program_group.pages());
            }
            self.program_group.clear();
            self.program_group.add(die, plane, ppn);
        }
        let id = *group.get_or_insert_with(|| scheduler.open_write_group(slot, now));
        if !self.group_gates.is_empty() {
            self.join_gates(page, id, scheduler);
        }
        id
    }

    /// Interleaved codewords fill whole groups of pages: a write of fewer is padded (counted).
    #[inline(never)]
    fn pad_to_interleave_group(&mut self, pages: u64) {
        let group = self.interleave_group_pages;
        self.interleave_padding_pages += (group - pages % group) % group;
    }

    fn write_span(
        &mut self,
        io: &HostIo<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        let (span, now, slot, request) = (io.span, io.now, io.slot, io.request);
        let multi_plane = self.multi_plane;
        if self.interleave_group_pages > 1 {
            self.pad_to_interleave_group(span.pages());
        }
        let tracking_dead_data = self.dead_data.is_some();
        let mut group: Option<u32> = None;
        self.program_group.clear();
        for page in span.first..=span.last {
            let host = Lpn(page as u32);
            // A partial page that holds data is read first (read-modify-write); its program group
            // waits for that read.
            let old = if span.is_partial(page) {
                self.middleware.read_target(host).and_then(|target| self.ftl.lookup(target))
            } else {
                None
            };
            let before = if tracking_dead_data { self.middleware.read_target(host) } else { None };
            let target = self.middleware.write_target(host, &self.ftl, now.0);
            let tag = io.tag(page - span.first);
            self.ops.clear();
            let ppn = self.ftl.write(target, now.0, tag, &mut self.ops).map_err(|source| SimulationError::Ftl {
                origin: format!("{}:{}", self.origin, request.origin_line),
                source,
            })?;
            if tracking_dead_data {
                if let Some(dead) = self.dead_data.as_mut() {
                    dead.track_write(before, target, &self.ops, &self.ftl);
                }
            }
            if !self.ftl.foreground_ops().is_empty() {
                // A block-modify-write: the request completes when the block's pages are rewritten.
                scheduler.foreground_copies(now, self.ftl.foreground_ops(), Waiter::Request(slot));
            }
            if !self.ops.is_empty() {
                self.book_collection(now, scheduler, events)?;
            }
            if self.gang.is_some() {
                // The gang page's read-modify-write reads it (no page read of its own).
                self.read_modify_writes += old.is_some() as u64;
                self.add_to_write_piece(ppn, span.is_partial(page), now, slot, scheduler);
                continue;
            }
            let id = self.join_program_group(ppn, host.0, &mut group, multi_plane, now, slot, scheduler);
            if let Some(old) = old {
                self.read_page(scheduler, old, now, Waiter::WriteGroup(id));
                self.read_modify_writes += 1;
            }
        }
        if let Some(id) = group {
            Self::close_program_group(scheduler, &self.ftl, id, now, self.program_group.pages());
            self.program_group.clear();
        }
        self.flush_write_piece(now, slot, scheduler);
        Ok(())
    }

    /// Programs pages a stage in front holds (the DRAM cache's destage) like a host write: each
    /// page's data is read out of the DRAM first (booked on the scheduler's DRAM bus, the program
    /// group waiting for it), a partial page is merged with its flash copy (a read-modify-write),
    /// and pages are gathered into (multi-plane) program groups; request `slot` waits for them. The
    /// oracle tags are the ones the stage drew when the host wrote the data. Mirrors `write_span`,
    /// kept apart so that the host write's hot path has no branch for it.
    fn write_tagged_pages(
        &mut self,
        pages: &[TaggedPage],
        now: SimTime,
        slot: u32,
        origin_line: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        let multi_plane = self.multi_plane;
        if self.interleave_group_pages > 1 {
            self.pad_to_interleave_group(pages.len() as u64);
        }
        let mut group: Option<u32> = None;
        self.program_group.clear();
        for held in pages {
            let host = Lpn(held.page);
            let old = if held.partial { self.physical_of(host) } else { None };
            let before = if self.dead_data.is_some() { self.middleware.read_target(host) } else { None };
            let target = self.middleware.write_target(host, &self.ftl, now.0);
            self.ops.clear();
            let ppn = self.ftl.write(target, now.0, held.tag, &mut self.ops).map_err(|source| {
                SimulationError::Ftl { origin: format!("{}:{} (DRAM cache destage)", self.origin, origin_line), source }
            })?;
            if let Some(dead) = self.dead_data.as_mut() {
                dead.track_write(before, target, &self.ops, &self.ftl);
            }
            if !self.ftl.foreground_ops().is_empty() {
                scheduler.foreground_copies(now, self.ftl.foreground_ops(), Waiter::Request(slot));
            }
            if !self.ops.is_empty() {
                self.book_collection(now, scheduler, events)?;
            }
            let id = self.join_program_group(ppn, held.page, &mut group, multi_plane, now, slot, scheduler);
            scheduler.dram_access(now, held.dram_bytes, false, Waiter::WriteGroup(id));
            if let Some(old) = old {
                self.read_page(scheduler, old, now, Waiter::WriteGroup(id));
                self.read_modify_writes += 1;
            }
        }
        if let Some(id) = group {
            Self::close_program_group(scheduler, &self.ftl, id, now, self.program_group.pages());
            self.program_group.clear();
        }
        Ok(())
    }

    /// The oracle's read-back of host page `key` (see `Stage::read_back`), through the middleware
    /// and FTL.
    pub(super) fn read_back(&mut self, key: u32) {
        self.witness.returned(key, self.flash_tag(key), "final sweep");
    }

    /// The NAND path's own checks after the read-back: the mapping-table cache's (a scan of every
    /// host page) and the FTL's invariants.
    pub(super) fn final_checks(&mut self) {
        if let Some(cache) = self.mapping_cache.as_deref() {
            cache.check_translation_pages_hold_no_host_data(&self.ftl, &self.witness);
        }
        if let Err(message) = self.ftl.check_invariants() {
            self.witness.consistent(false, || format!("FTL invariant: {message}"));
        }
    }
}

/// The host-facing operations (what the stage above reaches through `Below`).
impl NandPath {
    #[inline]
    pub(super) fn read(&mut self, io: &HostIo<'_>, scheduler: &mut FlashScheduler) -> Result<(), SimulationError> {
        if self.mapping_cache.is_some() {
            if let Some(read) = self.with_mapping_cache(|cache, nand| cache.read(nand, io, scheduler)) {
                return read;
            }
        }
        self.begin(io.request, io.span, io.index);
        self.read_span(io.span, io.now, io.slot, scheduler);
        Ok(())
    }

    #[inline]
    pub(super) fn write(
        &mut self,
        io: &HostIo<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        if self.mapping_cache.is_some() {
            if let Some(written) = self.with_mapping_cache(|cache, nand| cache.write(nand, io, scheduler, &mut *events))
            {
                return written;
            }
        }
        self.begin(io.request, io.span, io.index);
        self.write_span(io, scheduler, events)
    }

    /// Pages a stage in front holds, programmed (see `write_tagged_pages`).
    pub(super) fn write_tagged(
        &mut self,
        pages: &[TaggedPage],
        now: SimTime,
        slot: u32,
        origin_line: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        if self.mapping_cache.is_some() {
            let written = self.with_mapping_cache(|cache, nand| {
                cache.write_tagged(nand, pages, now, slot, origin_line, scheduler, &mut *events)
            });
            if let Some(written) = written {
                return written;
            }
        }
        self.write_tagged_pages(pages, now, slot, origin_line, scheduler, events)
    }

    /// Runs `work` with the cached mapping table taken out of the path (it works on the path).
    /// (None without one.)
    #[cold]
    #[inline(never)]
    fn with_mapping_cache<T>(&mut self, work: impl FnOnce(&mut MappingCache, &mut NandPath) -> T) -> Option<T> {
        let mut cache = self.mapping_cache.take()?;
        let result = work(&mut cache, self);
        self.mapping_cache = Some(cache);
        Some(result)
    }

    /// Reads host page `page`'s flash copy for `waiter` (a stage in front reads what it lacks);
    /// false, counted as an unmapped read, when flash holds none.
    pub(super) fn read_flash_page(
        &mut self,
        page: u32,
        now: SimTime,
        waiter: Waiter,
        scheduler: &mut FlashScheduler,
    ) -> Result<bool, SimulationError> {
        let Some(ppn) = self.physical_of(Lpn(page)) else {
            self.unmapped_page_reads += 1;
            return Ok(false);
        };
        match self.with_mapping_cache(|cache, nand| cache.read_flash_page(nand, page, ppn, now, waiter, scheduler)) {
            Some(read) => read?,
            None => self.read_page(scheduler, ppn, now, waiter),
        }
        Ok(true)
    }

    /// The tag of host page `page`'s flash copy (None: flash holds none).
    #[inline]
    pub(super) fn flash_tag(&self, page: u32) -> Option<u32> {
        self.physical_of(Lpn(page)).map(|ppn| self.ftl.tag(ppn))
    }

    /// Starts programming host page `program.page` for a stage that places pages itself (seed 001's
    /// SCM; no middleware, the config refuses one there): the old copy is looked up when merged,
    /// the page written to the FTL with the stage's tag, its collection booked (wear events are the
    /// stage's to check, once per host write), a program group opened and the old copy read into it.
    pub(super) fn program_page(
        &mut self,
        program: PageProgram,
        scheduler: &mut FlashScheduler,
    ) -> Result<OpenProgram, SimulationError> {
        let PageProgram { page, tag, merge, host_data, now, slot, origin_line } = program;
        let old = if merge { self.ftl.lookup(Lpn(page)) } else { None };
        let merged_tag = old.map(|ppn| self.ftl.tag(ppn));
        self.ops.clear();
        let ppn = self
            .ftl
            .write(Lpn(page), now.0, tag, &mut self.ops)
            .map_err(|source| SimulationError::Ftl { origin: format!("{}:{origin_line}", self.origin), source })?;
        let collected = !self.ops.is_empty();
        if collected {
            scheduler.garbage_collection(now, &self.ops);
        }
        let group = scheduler.open_write_group(slot, now);
        if let Some(old) = old {
            self.read_page(scheduler, old, now, Waiter::WriteGroup(group));
            if host_data {
                self.read_modify_writes += 1;
            }
        }
        Ok(OpenProgram { group, ppn, merged_tag, collected })
    }

    /// Closes a page program's group (see `program_page`).
    pub(super) fn close_program(&mut self, program: &OpenProgram, now: SimTime, scheduler: &mut FlashScheduler) {
        Self::close_program_group(scheduler, &self.ftl, program.group, now, std::slice::from_ref(&program.ppn));
    }

    /// Preconditioning for a stage that places pages itself: host page `page` written with `tag`,
    /// untimed.
    pub(super) fn untimed_program(&mut self, page: u32, tag: u32) -> Result<(), SimulationError> {
        self.ops.clear();
        self.ftl
            .write(Lpn(page), 0, tag, &mut self.ops)
            .map_err(|source| SimulationError::Ftl { origin: format!("{} (preconditioning)", self.origin), source })?;
        Ok(())
    }

    /// Trims host page `page` in the FTL; returns whether it held data.
    pub(super) fn trim_page(&mut self, page: u32) -> bool {
        self.ftl.trim(Lpn(page))
    }

    /// Counts a delete request of `pages` whole pages, `pages_trimmed` of them trimmed in the FTL.
    pub(super) fn count_delete(&mut self, pages: u64, pages_trimmed: u64) {
        self.deletes.requests += 1;
        self.deletes.pages += pages;
        self.deletes.pages_trimmed += pages_trimmed;
    }

    /// Fires the wear-triggered device events the collections booked so far may have reached.
    pub(super) fn check_wear_events(
        &mut self,
        now: SimTime,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        if events.wear_pending() {
            self.event_work(scheduler, events).check_wear_events(now)?;
        }
        Ok(())
    }

    /// A delete: no flash work (it completes when issued); whole pages of the range are deleted
    /// where `host.delete_target` says.
    #[cold]
    pub(super) fn delete(&mut self, span: PageSpan, _now: SimTime) {
        self.deletes.requests += 1;
        for page in whole_pages(span).into_iter().flatten() {
            self.deletes.pages += 1;
            self.deletes.pages_trimmed += self.delete_page(Lpn(page as u32)) as u64;
        }
    }

    /// Deletes one host page where `host.delete_target` says; returns whether the FTL trimmed it.
    pub(super) fn delete_page(&mut self, host: Lpn) -> bool {
        let mut trimmed = false;
        let target = self.middleware.read_target(host);
        match self.delete_target {
            DeleteTarget::None => {}
            DeleteTarget::Middleware => self.middleware.delete(host, &self.ftl),
            DeleteTarget::Ftl => {
                if let Some(target) = target {
                    trimmed = self.ftl.trim(target);
                }
                self.middleware.delete(host, &self.ftl);
            }
        }
        if let (Some(dead), Some(target)) = (self.dead_data.as_mut(), target) {
            // Above the FTL the data is gone; the FTL holds it unless it was trimmed.
            if trimmed {
                dead.rewritten(target);
            } else if self.ftl.lookup(target).is_some() {
                dead.died(target);
            }
        }
        trimmed
    }

    /// Preconditioning: host page `host_page` written, untimed (the flash work is not booked); with
    /// the cached mapping table, its translation page too.
    pub(super) fn untimed_write(&mut self, host_page: u32, tags: &[u32]) -> Result<(), SimulationError> {
        if self.mapping_cache.is_some() {
            if let Some(written) = self.with_mapping_cache(|cache, nand| cache.untimed_write(nand, host_page)) {
                written?;
            }
        }
        self.untimed_write_page(host_page, tags.first().copied().unwrap_or(0))
    }

    fn untimed_write_page(&mut self, host_page: u32, tag: u32) -> Result<(), SimulationError> {
        let before = if self.dead_data.is_some() { self.middleware.read_target(Lpn(host_page)) } else { None };
        let target = self.middleware.write_target(Lpn(host_page), &self.ftl, 0);
        self.ops.clear();
        self.ftl
            .write(target, 0, tag, &mut self.ops)
            .map_err(|source| SimulationError::Ftl { origin: format!("{} (preconditioning)", self.origin), source })?;
        if let Some(dead) = self.dead_data.as_mut() {
            dead.track_write(before, target, &self.ops, &self.ftl);
        }
        Ok(())
    }

    /// The NAND path's sections of the result (`result.rs`), and the cached mapping table's.
    pub(super) fn contribute(&self, context: &ResultContext<'_>, result: &mut DataPathResult) {
        self.contribute_sections(context, result);
        if let Some(cache) = &self.mapping_cache {
            cache.contribute(context, result);
        }
    }
}

/// What the wiring reads of the NAND path (observers, device events, preconditioning, the result).
impl NandPath {
    pub(in crate::simulation) fn ftl(&self) -> &Ftl {
        &self.ftl
    }

    pub(in crate::simulation) fn ftl_mut(&mut self) -> &mut Ftl {
        &mut self.ftl
    }

    pub(in crate::simulation) fn middleware(&self) -> &dyn Middleware {
        &*self.middleware
    }

    pub(in crate::simulation) fn read_strategy(&self) -> &dyn ReadStrategy {
        &*self.read_strategy
    }

    /// Where host page `host` is in flash now (through the middleware), if anywhere.
    #[inline]
    pub(in crate::simulation) fn physical_of(&self, host: Lpn) -> Option<Ppn> {
        self.middleware.read_target(host).and_then(|target| self.ftl.lookup(target))
    }

    /// Preconditioning is over: its counts are dropped (the FTL's, the middleware's, dead data's).
    pub(in crate::simulation) fn reset_counts(&mut self) {
        self.ftl.reset_stats();
        self.middleware.reset_stats();
        if let Some(dead) = self.dead_data.as_mut() {
            dead.reset_counts();
        }
    }
}

/// Building the NAND path.
impl NandPath {
    /// The NAND path of `parts`, and the SCM it leaves for the stage in front.
    pub(super) fn build(
        parts: PathParts<'_>,
        witness: Witness,
    ) -> Result<(Option<ScmPlacement>, NandPath), SimulationError> {
        let PathParts { config, scm, layout, ftl, retention, logical_pages, ftl_logical_pages, origin, flow_ranges } =
            parts;
        let workload_class =
            matches!(config.read_path.strategy, ReadStrategyKind::Conventional | ReadStrategyKind::AoaEcc)
                .then(|| WorkloadClassifier::new(&config.read_path.workload_class, &retention, logical_pages));
        let middleware =
            crate::middleware::build(&config.middleware, ftl_logical_pages, derive_seed(config.seed, "middleware"));
        let mut read_strategy = read_path::build(&config.read_path, derive_seed(config.seed, "read_path"));
        // A strategy that ignores the context plans every read the same way: plan once.
        let fixed_read_plan = (!read_strategy.uses_context()).then(|| read_strategy.plan(&ReadContext::default()));
        let mapping_cache = mapping_cache::sizes(config, layout, logical_pages)
            .map(|sizes| Box::new(MappingCache::new(sizes, logical_pages, mapping_partitions(config, flow_ranges))));
        let nand = NandPath {
            layout: layout.clone(),
            ftl,
            middleware,
            read_strategy,
            plain_reads: fixed_read_plan.as_ref().is_some_and(ReadPlan::is_plain_hard_read)
                && config.read_path.interleave_groups.is_empty(),
            fixed_read_plan,
            multi_plane: config.device.tiers().iter().all(|tier| tier.nand.multi_plane),
            witness,
            dead_data: (config.host.delete_target != DeleteTarget::Ftl
                || config.middleware.kind == MiddlewareKind::LbaScrambler)
                .then(|| DeadData::new(ftl_logical_pages)),
            workload_class,
            interleave_group_pages: config.read_path.interleave_groups.first().map_or(1, |group| group.len() as u64),
            interleave_padding_pages: 0,
            delete_target: config.host.delete_target,
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
            mapping_cache,
        };
        Ok((scm, nand))
    }
}

/// The parts of the mapping-table cache (`device.mapping_cache.sharing`): one per flow with
/// `equal_partitioning` (`../partitions.rs`), else one.
fn mapping_partitions(
    config: &crate::config::SimulationConfig,
    flow_ranges: &[Option<crate::host::flows::resources::FlowRange>],
) -> super::partitions::Partitions {
    match config.device.mapping_cache.as_ref().map(|cache| cache.sharing) {
        Some(crate::config::CacheSharing::EqualPartitioning) => super::partitions::Partitions::of_flows(flow_ranges),
        _ => super::partitions::Partitions::single(),
    }
}
