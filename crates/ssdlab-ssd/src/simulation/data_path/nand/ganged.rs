//! The NAND path on DiskSim's ganged device (`[device.ganging]`, seed 002 §5.1): a request's pages
//! are cut into gang pieces, each booked on its gang as one unit (`scheduler/gang.rs` gives the
//! timing). A piece is the request's consecutive pages in one gang, each on a later chip of it, at
//! most a gang page (DiskSim's `ssd_choose_aligned_count` on gang pages, under the gang striping
//! the device installs). Reads are planned page by page as on independent dies.

use super::NandPath;
use crate::geometry::{Lpn, Ppn};
use crate::host::PageSpan;
use crate::read_path::{ReadPlan, ReadStep};
use crate::scheduler::{FlashScheduler, GangPiece, Waiter};
use ssdlab_engine::SimTime;

/// The pieces being cut from one request.
pub(in crate::simulation) struct GangPieces {
    chips_per_gang: u32,
    read: GangPiece<(Ppn, ReadPlan)>,
    write: GangPiece<Ppn>,
}

impl GangPieces {
    pub(in crate::simulation) fn new(chips_per_gang: u32) -> Self {
        GangPieces { chips_per_gang: chips_per_gang.max(1), read: GangPiece::default(), write: GangPiece::default() }
    }
}

impl NandPath {
    pub(super) fn read_span_ganged(&mut self, span: PageSpan, now: SimTime, slot: u32, scheduler: &mut FlashScheduler) {
        let waiter = Waiter::Request(slot);
        let Some(mut pieces) = self.gang.take() else { return };
        pieces.read.clear();
        for page in span.first..=span.last {
            let host = Lpn(page as u32);
            let physical = self.middleware.read_target(host).and_then(|target| self.ftl.lookup(target));
            if self.witness.watching() {
                self.witness.returned(host.0, physical.map(|ppn| self.ftl.tag(ppn)), "host read");
            }
            let Some(ppn) = physical else {
                self.unmapped_page_reads += 1;
                continue;
            };
            let Some((gang, chip)) = scheduler.gang_position(ppn) else { continue };
            if !pieces.read.continues(gang, chip, pieces.chips_per_gang) && !pieces.read.pages.is_empty() {
                scheduler.gang_read(now, &pieces.read.pages, waiter);
                pieces.read.clear();
            }
            let plan = if self.plain_reads {
                let mut plan = ReadPlan::default();
                plan.push(ReadStep::PLAIN_HARD);
                plan
            } else {
                self.plan_read(scheduler, ppn, now)
            };
            pieces.read.push(gang, chip, (ppn, plan));
        }
        if !pieces.read.pages.is_empty() {
            scheduler.gang_read(now, &pieces.read.pages, waiter);
            pieces.read.clear();
        }
        self.gang = Some(pieces);
    }

    /// Adds a written page to the write piece being cut (booking the one before it when the page
    /// starts a new piece).
    pub(super) fn add_to_write_piece(
        &mut self,
        ppn: Ppn,
        partial: bool,
        now: SimTime,
        slot: u32,
        scheduler: &mut FlashScheduler,
    ) {
        let Some(pieces) = self.gang.as_mut() else { return };
        let Some((gang, chip)) = scheduler.gang_position(ppn) else { return };
        if !pieces.write.continues(gang, chip, pieces.chips_per_gang) && !pieces.write.pages.is_empty() {
            scheduler.gang_write(now, &pieces.write.pages, pieces.write.partial, Waiter::Request(slot));
            pieces.write.clear();
        }
        pieces.write.push(gang, chip, ppn);
        pieces.write.partial |= partial;
    }

    /// Books the last write piece of a request.
    pub(super) fn flush_write_piece(&mut self, now: SimTime, slot: u32, scheduler: &mut FlashScheduler) {
        let Some(pieces) = self.gang.as_mut() else { return };
        if !pieces.write.pages.is_empty() {
            scheduler.gang_write(now, &pieces.write.pages, pieces.write.partial, Waiter::Request(slot));
            pieces.write.clear();
        }
    }
}
