//! A stage of the data path: one part of the request path below the host queue, with one interface.
//! The NAND path (`nand.rs`) is the last stage; a stage in front of it (seed 001's SCM in
//! `hybrid_scm.rs`; a controller DRAM cache next) holds the stage below it and decides, per page
//! span, what it serves itself and what it passes down. Each stage owns its state and contributes
//! its own sections to the result (`contribute`).
//!
//! Dispatch is one dynamic call per request into the outermost stage (measured within noise of the
//! former enum match: the per-page work below it is monomorphic). Leaves out host queueing, latency
//! and timing (the loop's and the scheduler's).

use super::nand::NandPath;
use super::nand::TaggedPage;
use super::result::PathResult;
use crate::config::SimulationConfig;
use crate::device_events::DeviceEvents;
use crate::error::SimulationError;
use crate::ftl::FtlStats;
use crate::geometry::{Lpn, Ppn};
use crate::host::PageSpan;
use crate::scheduler::{FlashScheduler, Waiter};
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;

/// One host read or write as the data path sees it: the request, its page span, when it is issued,
/// its device-queue slot (the scheduler's handle for its completion) and its number in the run.
#[derive(Clone, Copy)]
pub(in crate::simulation) struct HostIo<'a> {
    pub request: &'a IoRequest,
    pub span: PageSpan,
    pub now: SimTime,
    pub slot: u32,
    pub index: u64,
}

/// What a stage may read when it contributes its result sections: the run's config, the scheduler
/// (its counters and busy times), the FTL's counters, what the oracle's final sweep checked, and
/// the simulated seconds (and the time the run ended).
pub(in crate::simulation) struct ResultContext<'a> {
    pub config: &'a SimulationConfig,
    pub scheduler: &'a FlashScheduler,
    pub stats: &'a FtlStats,
    pub pages_checked_at_end: u64,
    pub simulated_seconds: f64,
    pub end: SimTime,
}

/// A stage of the data path (see the module). A new stage is a file implementing this trait around
/// the stage below it, and one line in `data_path::build`.
pub(in crate::simulation) trait Stage {
    /// A host read: book its flash work (or serve it here) on `scheduler`.
    fn read(&mut self, io: &HostIo<'_>, scheduler: &mut FlashScheduler) -> Result<(), SimulationError>;

    /// A host write; wear-triggered device events fire during it (`simulation/events.rs`).
    fn write(
        &mut self,
        io: &HostIo<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError>;

    /// Pages a stage above holds (the DRAM cache's destage) programmed through this stage and those
    /// below (`NandPath::write_tagged`); request `slot` waits for them.
    fn write_tagged(
        &mut self,
        pages: &[TaggedPage],
        now: SimTime,
        slot: u32,
        origin_line: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        self.nand_mut().write_tagged(pages, now, slot, origin_line, scheduler, events)
    }

    /// A stage above reads host page `page`, at `ppn` in flash, for `waiter` (the DRAM cache's
    /// sectors a line lacks).
    fn read_flash_page(
        &mut self,
        _page: u32,
        ppn: Ppn,
        now: SimTime,
        waiter: Waiter,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        self.nand_mut().read_page(scheduler, ppn, now, waiter);
        Ok(())
    }

    /// A host delete (discard/TRIM) of `span` issued at `now`: no flash work. By default passed to
    /// the NAND path: a stage that holds no host data of its own (the mapping-table cache) has
    /// nothing to drop; one that does (the data cache, the SCM) overrides it.
    fn delete(&mut self, span: PageSpan, now: SimTime) {
        self.nand_mut().delete(span, now)
    }

    /// Deletes one whole host page (an aged drive's deletes); returns whether the FTL trimmed it.
    /// Passed to the NAND path by default, as `delete`.
    fn delete_page(&mut self, host: Lpn) -> bool {
        self.nand_mut().delete_page(host)
    }

    /// Preconditioning: host page `page` written whole, untimed.
    fn untimed_write(&mut self, page: u32) -> Result<(), SimulationError>;

    /// The integrity oracle's end of run: every page (or sector) this stage and those below hold is
    /// read back; returns how many were checked, or the first mismatch.
    fn finish_oracle(&mut self) -> Result<u64, SimulationError>;

    /// Adds this stage's sections (and those of the stages below it) to the result.
    fn contribute(&self, context: &ResultContext<'_>, result: &mut PathResult);

    /// The NAND path at the bottom (the FTL, middleware and read strategy that observers, device
    /// events and preconditioning work on).
    fn nand(&self) -> &NandPath;

    fn nand_mut(&mut self) -> &mut NandPath;

    /// The DRAM data cache's bytes not yet in flash at `at` (None without a cache): for the time
    /// series (`observers.rs`).
    fn unsaved_bytes(&self, _at: SimTime, _scheduler: &FlashScheduler) -> Option<u64> {
        None
    }

    /// True on the All S-SCM SSD (no NAND in use).
    fn scm_only(&self) -> bool {
        false
    }

    /// The loop's lookahead: the mapping entry of a host page about to be touched.
    #[inline]
    fn prefetch_mapping(&self, page: Lpn) {
        self.nand().prefetch_mapping(page)
    }

    /// The loop's lookahead: what the next request's writes will overwrite.
    #[inline]
    fn prefetch_overwrites(&self, span: PageSpan) {
        self.nand().prefetch_overwrites(span)
    }
}
