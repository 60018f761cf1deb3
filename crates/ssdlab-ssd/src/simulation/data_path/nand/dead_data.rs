//! Dead data the FTL still holds, and how much of it garbage collection copies (issue 16).
//!
//! The FTL treats a logical page as valid until it is overwritten or trimmed. Two things leave valid
//! pages whose data nobody needs: a host delete that stops above the FTL (`host.delete_target` =
//! `none` or `middleware`: a file system without TRIM), and a middleware that moves a host page to
//! another FTL page without telling the FTL (seed 003's LBA scrambler, rules 1 and 2: the old page is
//! *fragmented*). The simulator sees both, so it can count what the FTL cannot: every GC copy of such
//! a page is wasted work. Seed 003's scrambler exists to avoid exactly these copies.
//!
//! Kept per FTL logical page (one bit): marked when data dies above the FTL, cleared when the FTL
//! writes or trims the page. Only runs in which dead data can arise track it.

use crate::flash_op::FlashOp;
use crate::ftl::Ftl;
use crate::geometry::Lpn;
use crate::simulation::page_set::PageSet;

/// What the run's dead data cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct DeadDataSummary {
    /// FTL pages holding dead data when the run ended.
    pub pages_held: u64,
    /// Pages garbage collection copied (or migrated) during the measured run that held dead data.
    pub gc_pages_copied: u64,
    /// Those copies per victim block collected (dead-but-valid pages per victim).
    pub gc_pages_copied_per_victim: f64,
}

pub(in crate::simulation::data_path) struct DeadData {
    pages: PageSet,
    held: u64,
    copied: u64,
}

impl DeadData {
    pub(in crate::simulation::data_path) fn new(ftl_logical_pages: u64) -> Self {
        DeadData { pages: PageSet::new(ftl_logical_pages), held: 0, copied: 0 }
    }

    /// The data of FTL page `page` is no longer needed, but the FTL still holds it.
    #[inline]
    pub(in crate::simulation::data_path) fn died(&mut self, page: Lpn) {
        self.held += self.pages.insert(page.0 as u64) as u64;
    }

    /// The FTL wrote (or trimmed) `page`: what it holds there is live (or gone).
    #[inline]
    pub(in crate::simulation::data_path) fn rewritten(&mut self, page: Lpn) {
        self.held -= self.pages.remove(page.0 as u64) as u64;
    }

    /// A host page write that the FTL took at `target`, whose host page was at `before` (None: never
    /// written): a move leaves the old FTL page dead; `ops` are the collections the write caused.
    // Kept out of line: only runs that track dead data call it, and the replay loop stays small.
    #[inline(never)]
    pub(in crate::simulation::data_path) fn track_write(
        &mut self,
        before: Option<Lpn>,
        target: Lpn,
        ops: &[FlashOp],
        ftl: &Ftl,
    ) {
        if let Some(old) = before.filter(|&old| old != target) {
            if ftl.lookup(old).is_some() {
                self.died(old);
            }
        }
        self.rewritten(target);
        if !ops.is_empty() {
            self.count_copies(ops, ftl);
        }
    }

    /// Counts the dead pages among the copies garbage collection just made.
    fn count_copies(&mut self, ops: &[FlashOp], ftl: &Ftl) {
        for op in ops {
            if let FlashOp::GcProgram { ppn } = op {
                if ftl.owner_of(*ppn).is_some_and(|owner| self.pages.contains(owner.0 as u64)) {
                    self.copied += 1;
                }
            }
        }
    }

    /// Clears the copy count (after preconditioning), keeping what is dead.
    pub(in crate::simulation::data_path) fn reset_counts(&mut self) {
        self.copied = 0;
    }

    pub(in crate::simulation::data_path) fn summary(&self, victims_collected: u64) -> DeadDataSummary {
        DeadDataSummary {
            pages_held: self.held,
            gc_pages_copied: self.copied,
            gc_pages_copied_per_victim: if victims_collected == 0 {
                0.0
            } else {
                self.copied as f64 / victims_collected as f64
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_pages_are_counted_once_and_revived_by_a_write() {
        let mut dead = DeadData::new(100);
        dead.died(Lpn(3));
        dead.died(Lpn(3));
        dead.died(Lpn(70));
        assert_eq!(dead.summary(0).pages_held, 2);
        dead.rewritten(Lpn(3));
        dead.rewritten(Lpn(4));
        assert_eq!(dead.summary(0).pages_held, 1);
    }
}
