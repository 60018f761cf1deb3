//! A stage of the data path: one part of the request path below the host queue, with one interface.
//! The NAND path (`nand/`) is the bottom; a stage in front of it (seed 001's SCM in `hybrid_scm/`,
//! the controller DRAM's data cache in `data_cache/`) decides, per page span, what it serves itself
//! and what it passes down.
//!
//! A stage never holds the path below it: each call hands it [`Below`], the stages after it and the
//! NAND path at the bottom, and a stage reaches them only through `Below`'s operations (the same
//! operations each stage offers the one above, forwarded by default). So a stage cannot read another
//! stage's fields, nor skip the stage right below it, and the wiring (`data_path/mod.rs`) owns every
//! stage and the NAND path side by side. Each stage owns its state and adds its own sections to the
//! result (`contribute`).
//!
//! Dispatch is one dynamic call per stage and request (none on a device with no stage in front of
//! the NAND path: the wiring calls the NAND path directly). Leaves out host queueing, latency and
//! timing (the loop's and the scheduler's).

pub(in crate::simulation) use super::exchange::{HostIo, OpenProgram, PageProgram, ResultContext};
use super::nand::NandPath;
use super::pages::TaggedPage;
use super::result::DataPathResult;
use crate::device_events::DeviceEvents;
use crate::error::SimulationError;
use crate::geometry::Lpn;
use crate::host::PageSpan;
use crate::scheduler::{FlashScheduler, Waiter};
use ssdlab_engine::SimTime;

/// What [`Stage::prefetch`] loads: see there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::simulation) enum Lookahead {
    Index,
    Records,
}

/// A stage of the data path (see the module). A new stage is a file implementing this trait and one
/// line in `data_path::build`; every operation it does not override goes to the path below as it is.
pub(in crate::simulation) trait Stage {
    /// A host read: book its flash work (or serve it here) on `scheduler`.
    fn read(
        &mut self,
        io: &HostIo<'_>,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        below.read(io, scheduler)
    }

    /// A host write; wear-triggered device events fire during it (`nand/device_events.rs`).
    fn write(
        &mut self,
        io: &HostIo<'_>,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        below.write(io, scheduler, events)
    }

    /// Pages a stage above holds (the DRAM cache's destage) programmed through this stage and those
    /// below; request `slot` waits for them.
    #[allow(clippy::too_many_arguments)]
    fn write_tagged(
        &mut self,
        pages: &[TaggedPage],
        now: SimTime,
        slot: u32,
        origin_line: u64,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        below.write_tagged(pages, now, slot, origin_line, scheduler, events)
    }

    /// The replay's lookahead (a hint, no effect on results): start loading what a request on
    /// `span` will look up here, the index of it only (`Lookahead::Index`, two requests ahead) or
    /// its records (`Lookahead::Records`, the next request, whose index is loaded by then).
    fn prefetch(&self, _span: PageSpan, _step: Lookahead) {}

    /// A host delete (discard/TRIM) of `span` issued at `now`: no flash work. A stage that holds
    /// host data drops what the delete covers, then passes it down.
    fn delete(&mut self, span: PageSpan, now: SimTime, below: &mut Below<'_>) {
        below.delete(span, now)
    }

    /// Deletes one whole host page (an aged drive's deletes); returns whether the FTL trimmed it.
    fn delete_page(&mut self, host: Lpn, below: &mut Below<'_>) -> bool {
        below.delete_page(host)
    }

    /// Preconditioning: host page `page` written whole, untimed, with the data `tags` (as
    /// `HostIo::tags`: one, or one per sector; empty when the oracle is off).
    fn untimed_write(&mut self, page: u32, tags: &[u32], below: &mut Below<'_>) -> Result<(), SimulationError> {
        below.untimed_write(page, tags)
    }

    /// The integrity oracle's end of run reads `key` (a host page, or a sector on a device with
    /// SCM) back: the stage that holds its latest data reports what it returns through its
    /// `Witness`; a stage that does not hold it asks the path below.
    fn read_back(&mut self, key: u32, below: &mut Below<'_>) {
        below.read_back(key)
    }

    /// After the read-back: the stage's own consistency checks (its invariants), reported through
    /// its `Witness`, then those of the path below.
    fn final_checks(&mut self, below: &mut Below<'_>) {
        below.final_checks()
    }

    /// Adds this stage's sections to the result (the path below has added its own).
    fn contribute(&self, _context: &ResultContext<'_>, _result: &mut DataPathResult) {}

    /// Bytes the host was told are written that are not yet in flash, at `at` (None: this stage
    /// holds none): for the time series (`observers.rs`).
    fn unsaved_bytes(&self, _at: SimTime, _scheduler: &FlashScheduler) -> Option<u64> {
        None
    }
}

/// The path below a stage: the stages after it, then the NAND path. Every operation goes to the
/// next stage, or to the NAND path when no stage is left.
pub(in crate::simulation) struct Below<'a> {
    stages: &'a mut [Box<dyn Stage>],
    nand: &'a mut NandPath,
}

/// Calls `$method` on the next stage (with the path after it) or, at the bottom, on the NAND path.
macro_rules! next {
    ($below:ident, $method:ident ( $($argument:expr),* )) => {
        match $below.stages.split_first_mut() {
            Some((stage, rest)) => stage.$method($($argument,)* &mut Below { stages: rest, nand: &mut *$below.nand }),
            None => $below.nand.$method($($argument),*),
        }
    };
}

impl<'a> Below<'a> {
    pub(super) fn new(stages: &'a mut [Box<dyn Stage>], nand: &'a mut NandPath) -> Below<'a> {
        Below { stages, nand }
    }

    pub(in crate::simulation) fn read(
        &mut self,
        io: &HostIo<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        match self.stages.split_first_mut() {
            Some((stage, rest)) => stage.read(io, &mut Below { stages: rest, nand: &mut *self.nand }, scheduler),
            None => self.nand.read(io, scheduler),
        }
    }

    pub(in crate::simulation) fn write(
        &mut self,
        io: &HostIo<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        match self.stages.split_first_mut() {
            Some((stage, rest)) => {
                stage.write(io, &mut Below { stages: rest, nand: &mut *self.nand }, scheduler, events)
            }
            None => self.nand.write(io, scheduler, events),
        }
    }

    pub(in crate::simulation) fn write_tagged(
        &mut self,
        pages: &[TaggedPage],
        now: SimTime,
        slot: u32,
        origin_line: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        match self.stages.split_first_mut() {
            Some((stage, rest)) => stage.write_tagged(
                pages,
                now,
                slot,
                origin_line,
                &mut Below { stages: rest, nand: &mut *self.nand },
                scheduler,
                events,
            ),
            None => self.nand.write_tagged(pages, now, slot, origin_line, scheduler, events),
        }
    }

    pub(in crate::simulation) fn delete(&mut self, span: PageSpan, now: SimTime) {
        next!(self, delete(span, now))
    }

    pub(in crate::simulation) fn delete_page(&mut self, host: Lpn) -> bool {
        next!(self, delete_page(host))
    }

    pub(in crate::simulation) fn untimed_write(&mut self, page: u32, tags: &[u32]) -> Result<(), SimulationError> {
        next!(self, untimed_write(page, tags))
    }

    pub(in crate::simulation) fn read_back(&mut self, key: u32) {
        next!(self, read_back(key))
    }

    pub(in crate::simulation) fn final_checks(&mut self) {
        next!(self, final_checks())
    }

    // What only the NAND path does: a stage above reaches it through these, never by its fields. (A
    // stage between would see them pass; none so far needs to act on them.)

    /// Shows the request to the NAND path (its read strategy's request number and the workload
    /// classifier), for a stage that serves a host request without passing it down as it is.
    pub(in crate::simulation) fn begin(&mut self, io: &HostIo<'_>) {
        self.nand.begin(io.request, io.span, io.index)
    }

    /// Reads host page `page`'s flash copy for `waiter`; false (counted as an unmapped read) when
    /// flash holds none.
    pub(in crate::simulation) fn read_flash_page(
        &mut self,
        page: u32,
        now: SimTime,
        waiter: Waiter,
        scheduler: &mut FlashScheduler,
    ) -> Result<bool, SimulationError> {
        self.nand.read_flash_page(page, now, waiter, scheduler)
    }

    /// The tag of host page `page`'s flash copy (None: flash holds none).
    pub(in crate::simulation) fn flash_tag(&self, page: u32) -> Option<u32> {
        self.nand.flash_tag(page)
    }

    /// Starts programming one host page a stage places itself (seed 001's SCM): see
    /// [`NandPath::program_page`]. The stage adds its own waits to the program's group, then
    /// closes it with [`Below::close_program`].
    pub(in crate::simulation) fn program_page(
        &mut self,
        program: PageProgram,
        scheduler: &mut FlashScheduler,
    ) -> Result<OpenProgram, SimulationError> {
        self.nand.program_page(program, scheduler)
    }

    pub(in crate::simulation) fn close_program(
        &mut self,
        program: &OpenProgram,
        now: SimTime,
        scheduler: &mut FlashScheduler,
    ) {
        self.nand.close_program(program, now, scheduler)
    }

    /// Preconditioning: host page `page` programmed with `tag`, untimed, by a stage that places pages
    /// itself.
    pub(in crate::simulation) fn untimed_program(&mut self, page: u32, tag: u32) -> Result<(), SimulationError> {
        self.nand.untimed_program(page, tag)
    }

    /// Trims host page `page` in the FTL (a stage that places pages itself deletes them there).
    pub(in crate::simulation) fn trim_page(&mut self, page: u32) -> bool {
        self.nand.trim_page(page)
    }

    /// Counts a delete request and its whole pages (and those the FTL trimmed).
    pub(in crate::simulation) fn count_delete(&mut self, pages: u64, pages_trimmed: u64) {
        self.nand.count_delete(pages, pages_trimmed)
    }

    /// Fires the wear-triggered device events a stage's collections may have reached.
    pub(in crate::simulation) fn check_wear_events(
        &mut self,
        now: SimTime,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        self.nand.check_wear_events(now, scheduler, events)
    }
}
