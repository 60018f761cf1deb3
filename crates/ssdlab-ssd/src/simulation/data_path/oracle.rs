//! The data-integrity oracle: every read must return the latest write ("no data lost").
//!
//! It wraps the whole data path (`data_path/mod.rs` owns it): before a host write goes down, the
//! oracle draws a fresh tag for each key it writes (a host page; a 512 B sector on a device with
//! seed 001's SCM, whose stage keeps sectors) and the write carries those tags as its data
//! (`HostIo::tags`), stored with it wherever it lands (a cache line, an SCM slot, a flash page,
//! carried by GC). A delete is recorded here too. The stages never see the oracle: they report the
//! data each read returns, and the pages they write of their own (the mapping-table cache's
//! translation pages), through a [`Witness`](super::witness::Witness), which checks it here. At the
//! end of the run the oracle reads every key back through the whole path (`Stage::read_back`), then
//! asks each stage for its own consistency checks (`Stage::final_checks`).
//!
//! Leaves out the data itself: a tag stands for a page's (or sector's) contents.

use crate::host::PageSpan;
use serde::Serialize;
use ssdlab_workload::IoRequest;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The oracle's counts in the result.
#[derive(Debug, Clone, Default, Serialize)]
pub struct IntegritySummary {
    pub enabled: bool,
    pub reads_checked: u64,
    pub pages_checked_at_end: u64,
    pub mismatches: u64,
}

/// The oracle as the wiring holds it: on or off, what its keys are, and what it has done for the
/// write being passed down.
pub(super) struct Integrity {
    oracle: Option<Rc<RefCell<Oracle>>>,
    /// What the keys are: host pages, or sectors (`Some(sectors per page)`) on a device with seed
    /// 001's SCM, whose stage keeps sectors.
    sector_keys: Option<u64>,
    /// Scratch: the tags of the write being passed down.
    tags: Vec<u32>,
    /// Keys the final read-back covered.
    keys_read_back: u64,
}

impl Integrity {
    /// The oracle when `on`, keyed by sectors with `sector_keys` (sectors per page).
    pub(super) fn new(on: bool, sector_keys: Option<u64>) -> Integrity {
        let oracle = on.then(|| Rc::new(RefCell::new(Oracle::new())));
        Integrity { oracle, sector_keys, tags: Vec::new(), keys_read_back: 0 }
    }

    /// The oracle itself (None when off), for the stages' witnesses (`Witness::of`).
    pub(super) fn shared(&self) -> Option<&Rc<RefCell<Oracle>>> {
        self.oracle.as_ref()
    }

    /// The tags of a write of `request` (its pages `span`): one per page, or one per sector (see
    /// `HostIo::tags`); none without the oracle.
    #[inline]
    pub(super) fn write_tags(&mut self, request: &IoRequest, span: PageSpan) -> &[u32] {
        self.tags.clear();
        if let Some(oracle) = &self.oracle {
            let mut oracle = oracle.borrow_mut();
            match self.sector_keys {
                None => self.tags.extend((span.first..=span.last).map(|page| oracle.tag_write(page as u32))),
                Some(_) => {
                    let sector = crate::config::SCM_SECTOR_BYTES;
                    let (first, end) = (request.offset_bytes / sector, request.end_bytes().div_ceil(sector));
                    self.tags.extend((first..end).map(|sector| oracle.tag_write(sector as u32)));
                }
            }
        }
        &self.tags
    }

    /// The tags of host page `page` written whole (preconditioning): one, or one per sector.
    pub(super) fn page_tags(&mut self, page: u32) -> &[u32] {
        self.tags.clear();
        if let Some(oracle) = &self.oracle {
            let mut oracle = oracle.borrow_mut();
            match self.sector_keys {
                None => self.tags.push(oracle.tag_write(page)),
                Some(per_page) => self
                    .tags
                    .extend((0..per_page).map(|sector| oracle.tag_write((page as u64 * per_page + sector) as u32))),
            }
        }
        &self.tags
    }

    /// Whole host page `page` was deleted (each of its sectors, with SCM).
    pub(super) fn deleted(&mut self, page: u32) {
        let Some(oracle) = &self.oracle else { return };
        let mut oracle = oracle.borrow_mut();
        match self.sector_keys {
            None => oracle.delete(page),
            Some(per_page) => (0..per_page).for_each(|sector| oracle.delete((page as u64 * per_page + sector) as u32)),
        }
    }

    /// The keys the final read-back covers (none without the oracle); remembered for the summary.
    pub(super) fn keys_to_read_back(&mut self) -> Vec<u32> {
        let keys = self.oracle.as_ref().map(|oracle| oracle.borrow().keys()).unwrap_or_default();
        self.keys_read_back = keys.len() as u64;
        keys
    }

    /// The run's verdict: the number of mismatches and the first, if any.
    pub(super) fn verdict(&self) -> Result<(), (u64, String)> {
        self.oracle.as_ref().map_or(Ok(()), |oracle| oracle.borrow().verdict())
    }

    /// The counts for the result (all zero with the oracle off).
    pub(super) fn summary(&self) -> IntegritySummary {
        self.oracle
            .as_ref()
            .map_or_else(IntegritySummary::default, |oracle| oracle.borrow().summary(self.keys_read_back))
    }
}

/// The latest tag of every key written, what deletes left behind, and what the checks found (see
/// the module).
pub(super) struct Oracle {
    expected: HashMap<u32, u32>,
    /// Keys deleted since their last write, with the tag they held: a read may find the old data
    /// (the delete never reached the FTL) or nothing (it was trimmed), never another key's.
    deleted: HashMap<u32, u32>,
    next_tag: u32,
    reads_checked: u64,
    mismatches: u64,
    first_mismatch: Option<String>,
}

impl Oracle {
    fn new() -> Self {
        Oracle {
            expected: HashMap::new(),
            deleted: HashMap::new(),
            next_tag: 1,
            reads_checked: 0,
            mismatches: 0,
            first_mismatch: None,
        }
    }

    /// A fresh tag for a write of `key`, which becomes the one a read must find.
    pub(super) fn tag_write(&mut self, key: u32) -> u32 {
        let tag = self.next_tag;
        self.next_tag = self.next_tag.wrapping_add(1).max(1);
        self.expected.insert(key, tag);
        self.deleted.remove(&key);
        tag
    }

    /// `key` was deleted.
    fn delete(&mut self, key: u32) {
        if let Some(tag) = self.expected.remove(&key) {
            self.deleted.insert(key, tag);
        }
    }

    /// A read of `key` returned `found` (the tag of the data, None: no data), in `context`.
    pub(super) fn check(&mut self, key: u32, found: Option<u32>, context: &str) {
        self.reads_checked += 1;
        let expected = self.expected.get(&key).copied();
        let deleted_and_acceptable = expected.is_none() && found.is_some() && self.deleted.get(&key).copied() == found;
        if expected != found && !deleted_and_acceptable {
            self.mismatch(|| format!("host page {key} ({context}): expected tag {expected:?}, read {found:?}"));
        }
    }

    /// A check that failed (the first one's description is kept).
    pub(super) fn mismatch(&mut self, describe: impl FnOnce() -> String) {
        self.mismatches += 1;
        if self.first_mismatch.is_none() {
            self.first_mismatch = Some(describe());
        }
    }

    /// Every key written or deleted, in order: what the final read-back covers.
    fn keys(&self) -> Vec<u32> {
        let mut keys: Vec<u32> = self.expected.keys().chain(self.deleted.keys()).copied().collect();
        keys.sort_unstable();
        keys
    }

    /// The counts for the result (`pages_checked_at_end`: the keys the read-back covered).
    fn summary(&self, pages_checked_at_end: u64) -> IntegritySummary {
        IntegritySummary { enabled: true, reads_checked: self.reads_checked, pages_checked_at_end, mismatches: 0 }
    }

    fn verdict(&self) -> Result<(), (u64, String)> {
        match self.mismatches {
            0 => Ok(()),
            count => Err((count, self.first_mismatch.clone().unwrap_or_default())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::witness::Witness;
    use super::*;
    use ssdlab_engine::SimTime;
    use ssdlab_workload::IoOp;

    fn write(offset_bytes: u64, size_bytes: u64) -> IoRequest {
        IoRequest { arrival: SimTime::ZERO, op: IoOp::Write, offset_bytes, size_bytes, origin_line: 7 }
    }

    fn span(first: u64, last: u64) -> PageSpan {
        PageSpan { first, last, first_partial: false, last_partial: false }
    }

    #[test]
    fn a_read_must_return_the_latest_write_or_a_deleted_pages_old_data() {
        let mut integrity = Integrity::new(true, None);
        let witness = Witness::of(integrity.shared());
        let first = integrity.write_tags(&write(0, 8192), span(0, 1)).to_vec();
        let second = integrity.write_tags(&write(4096, 4096), span(1, 1)).to_vec();
        assert_eq!(first.len(), 2);
        assert_eq!(second.len(), 1);
        witness.returned(0, Some(first[0]), "host read");
        witness.returned(1, Some(second[0]), "host read");
        assert!(integrity.verdict().is_ok());
        // Page 1's older data: lost write.
        witness.returned(1, Some(first[1]), "host read");
        let (mismatches, message) = integrity.verdict().unwrap_err();
        assert_eq!(mismatches, 1);
        assert!(message.starts_with("host page 1 (host read)"), "{message}");
        // A deleted page may still read its last data, or nothing; never another's.
        integrity.deleted(0);
        witness.returned(0, Some(first[0]), "host read");
        witness.returned(0, None, "host read");
        assert_eq!(integrity.verdict().unwrap_err().0, 1);
        witness.returned(0, Some(second[0]), "host read");
        assert_eq!(integrity.verdict().unwrap_err().0, 2);
        assert_eq!(integrity.keys_to_read_back(), vec![0, 1]);
        let summary = integrity.summary();
        assert!(summary.enabled);
        assert_eq!((summary.reads_checked, summary.pages_checked_at_end), (6, 2));
    }

    #[test]
    fn with_sector_keys_a_write_tags_each_sector_and_a_delete_each_sector_of_the_page() {
        // 4 KiB pages: 8 sectors each. A 1 KiB write at 3.5 KiB covers sectors 7 and 8.
        let mut integrity = Integrity::new(true, Some(8));
        let tags = integrity.write_tags(&write(3584, 1024), span(0, 1)).to_vec();
        assert_eq!(tags.len(), 2);
        assert_eq!(integrity.page_tags(2).len(), 8);
        assert_eq!(integrity.keys_to_read_back(), [vec![7, 8], (16..24).collect::<Vec<u32>>()].concat());
        integrity.deleted(2);
        let witness = Witness::of(integrity.shared());
        witness.returned(16, None, "final sweep");
        assert!(integrity.verdict().is_ok());
    }

    #[test]
    fn off_it_draws_no_tags_and_counts_nothing() {
        let mut integrity = Integrity::new(false, None);
        let witness = Witness::of(integrity.shared());
        assert!(!witness.watching());
        assert!(integrity.write_tags(&write(0, 4096), span(0, 0)).is_empty());
        assert_eq!(witness.own_page_written(3), 0);
        witness.returned(0, Some(99), "host read");
        witness.consistent(false, || unreachable!("not described when off"));
        assert!(integrity.verdict().is_ok());
        assert!(!integrity.summary().enabled);
    }

    #[test]
    fn a_stages_failed_consistency_check_is_a_mismatch_and_the_first_message_is_kept() {
        let integrity = Integrity::new(true, None);
        let witness = Witness::of(integrity.shared());
        witness.consistent(true, || unreachable!("a check that holds is not described"));
        witness.consistent(false, || "SCM store invariant: slot 3 twice".into());
        witness.consistent(false, || "FTL invariant: later".into());
        assert_eq!(integrity.verdict().unwrap_err(), (2, "SCM store invariant: slot 3 twice".to_string()));
    }
}
