//! Least-recently-used order as a log of uses (issue 50): the order the DRAM stages' caches evict
//! and destage in, exact, at the cost of one sequential write per use.
//!
//! Why not a doubly linked list through the records: moving a record to the recent end touches its
//! two neighbours, which lie anywhere in memory (two cache misses per use on a cache larger than
//! the processor's); evicting touches the head and its successor. Here each use appends (page,
//! stamp) to a log and stamps the record; a log entry whose stamp is no longer its record's is
//! stale and skipped. The least recently used record is the first live entry of the log, and the
//! next ones to go are the entries after it, so the stage can start loading them early
//! ([`UseOrder::upcoming`]). Stale entries are dropped when the log grows past twice its live
//! records (and at the front as they are reached), so it stays within a small multiple of the
//! records held.
//!
//! Stamps are 32-bit and wrap: a stale entry is dropped within (2 x live + slack) uses of going
//! stale, far fewer than 2^32, so a wrapped stamp never matches a stale entry.
//!
//! What it leaves out: which record a page has, and whether it is live: the caller's store
//! answers, through the closure given to each call.

use std::collections::VecDeque;

/// Stale entries tolerated beyond the live ones before the log is compacted.
const SLACK: usize = 64;

/// One use: a page and the stamp its record got then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::simulation) struct Use {
    pub page: u32,
    pub stamp: u32,
}

/// The uses of one list's records, oldest first (see the module).
#[derive(Debug, Clone, Default)]
pub(in crate::simulation) struct UseOrder {
    log: VecDeque<Use>,
    /// Records on the list.
    live: usize,
}

impl UseOrder {
    /// Records on the list.
    #[inline]
    pub(in crate::simulation) fn len(&self) -> usize {
        self.live
    }

    /// `page`'s record joins the list (was not on it) as the most recent; the caller has stamped
    /// it `stamp` already (`is_live` must see the new stamp).
    #[inline]
    pub(in crate::simulation) fn join(&mut self, page: u32, stamp: u32, is_live: impl Fn(Use) -> bool) {
        self.live += 1;
        self.used(page, stamp, is_live);
    }

    /// Whether `page`'s record, on the list with stamp `stamp`, is the most recent already (a use
    /// then needs no new stamp, which keeps the log short).
    #[inline]
    pub(in crate::simulation) fn is_most_recent(&self, page: u32, stamp: u32) -> bool {
        self.log.back() == Some(&Use { page, stamp })
    }

    /// `page`'s record, on the list, is used again; the caller has stamped it `stamp` already.
    #[inline]
    pub(in crate::simulation) fn used(&mut self, page: u32, stamp: u32, is_live: impl Fn(Use) -> bool) {
        self.log.push_back(Use { page, stamp });
        self.compact_if_due(is_live);
    }

    /// A record leaves the list other than through [`UseOrder::pop_oldest`] (its log entries are
    /// stale from now: the caller changes or drops the record's stamp).
    #[inline]
    pub(in crate::simulation) fn leave(&mut self) {
        self.live -= 1;
    }

    /// The least recently used record's page, taken off the list (its entry dropped); None when
    /// the list is empty. `is_live` tells a live entry from a stale one.
    #[inline]
    pub(in crate::simulation) fn pop_oldest(&mut self, is_live: impl Fn(Use) -> bool) -> Option<u32> {
        while let Some(entry) = self.log.pop_front() {
            if is_live(entry) {
                self.live -= 1;
                return Some(entry.page);
            }
        }
        None
    }

    /// The least recently used record's page, left on the list (stale entries before it dropped).
    #[cfg(test)]
    fn oldest(&mut self, is_live: impl Fn(Use) -> bool) -> Option<u32> {
        while let Some(&entry) = self.log.front() {
            if is_live(entry) {
                return Some(entry.page);
            }
            self.log.pop_front();
        }
        None
    }

    /// The page of the log's entry `ahead` places from its front (live or not): a record evicted
    /// soon, to start loading.
    #[inline]
    pub(in crate::simulation) fn upcoming(&self, ahead: usize) -> Option<u32> {
        self.log.get(ahead).map(|entry| entry.page)
    }

    /// Drops stale entries when they outnumber the live ones (plus [`SLACK`]).
    #[inline]
    fn compact_if_due(&mut self, is_live: impl Fn(Use) -> bool) {
        if self.log.len() > 2 * self.live + SLACK {
            self.log.retain(|&entry| is_live(entry));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Use, UseOrder};
    use std::cell::RefCell;
    use std::collections::HashMap;

    /// Records as a map page -> stamp; an LRU reference as a vector (oldest first).
    #[test]
    fn evicts_in_exact_least_recently_used_order_and_stays_short() {
        let stamps: RefCell<HashMap<u32, u32>> = RefCell::new(HashMap::new());
        let live = |entry: Use| stamps.borrow().get(&entry.page) == Some(&entry.stamp);
        let mut order = UseOrder::default();
        let mut reference: Vec<u32> = Vec::new();
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        for next_stamp in 1..=50_000u32 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let page = (state % 300) as u32;
            let current = stamps.borrow().get(&page).copied();
            match (state >> 60, current) {
                (0..=11, None) => {
                    if reference.len() == 100 {
                        let victim = order.pop_oldest(live).unwrap();
                        assert_eq!(victim, reference.remove(0));
                        stamps.borrow_mut().remove(&victim);
                    }
                    stamps.borrow_mut().insert(page, next_stamp);
                    order.join(page, next_stamp, live);
                    reference.push(page);
                }
                (0..=11, Some(current)) => {
                    if !order.is_most_recent(page, current) {
                        stamps.borrow_mut().insert(page, next_stamp);
                        order.used(page, next_stamp, live);
                    }
                    reference.retain(|&p| p != page);
                    reference.push(page);
                }
                (_, Some(_)) => {
                    // Dropped other than by eviction (a delete).
                    stamps.borrow_mut().remove(&page);
                    order.leave();
                    reference.retain(|&p| p != page);
                }
                (_, None) => {}
            }
            assert_eq!(order.len(), reference.len());
            assert_eq!(order.oldest(live), reference.first().copied());
            assert!(order.log.len() <= 2 * order.len() + super::SLACK + 1);
        }
    }
}
