//! Seed 001's storage-class memory: the sector store and the hybrid SSD's placement between SCM
//! and NAND (Onagi, Sun, Takeuchi: hybrid M-SCM/NAND SSD vs All S-SCM SSD; SPEC §5).
//!
//! The hybrid SSD analyses each write (seed Fig. 1(a)): data that is written often (its address is
//! in the LRU table of recent writes, [`HotTable`]) or that would fragment a NAND page (the write
//! covers less than `fragment_fraction` of the page) goes to SCM, which is overwritten in place a
//! sector at a time; everything else goes to NAND. When SCM runs low, pages that are neither
//! fragmented nor in the LRU table are evicted to NAND, oldest first, merged with their NAND copy
//! into full pages. Only if no such page is left are the oldest others evicted (counted as forced).
//! The All S-SCM SSD keeps every sector in SCM.
//!
//! This module decides; `simulation/data_path/hybrid_scm/` carries the decisions out (SCM sector reads and
//! writes on the scheduler's banks, NAND pages through the FTL). Addresses here are the NAND page
//! (`lpn`) and the sectors of it (bit masks, sector i of the page = bit i).
//!
//! Left out: the seed's emulator parameters it does not give (LRU table size, the fragment
//! threshold, when eviction starts): they are settings, `[placement.hybrid_scm]`, with the defaults
//! documented in docs/scm.md.

mod hot_table;
mod store;

pub use hot_table::HotTable;
pub use store::{ScmFull, ScmStore};

use crate::config::HybridScmConfig;

/// Where a write of one page's sectors goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Scm,
    Nand,
}

/// What the SCM placement did over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct ScmPlacementStatistics {
    /// Page-sized pieces of host writes sent to SCM, and why (a piece may be both).
    pub pieces_to_scm: u64,
    pub hot_pieces: u64,
    pub fragmented_pieces: u64,
    pub pieces_to_nand: u64,
    pub sectors_to_scm: u64,
    pub sectors_to_nand: u64,
    /// Pages evicted from SCM to NAND, those evicted although fragmented or hot (nothing else was
    /// left), and their sectors.
    pub pages_evicted: u64,
    pub forced_evictions: u64,
    pub sectors_evicted: u64,
    /// NAND pages read to merge a partial page (a host write to NAND or an eviction).
    pub merge_reads: u64,
    /// Pieces of host reads served from both SCM and NAND.
    pub split_reads: u64,
    pub sectors_read_from_scm: u64,
    pub sectors_read_from_nand: u64,
}

/// The SCM, its placement policy and what it did.
#[derive(Debug, Clone)]
pub struct ScmPlacement {
    pub store: ScmStore,
    hot: HotTable,
    /// The All S-SCM SSD: every write to SCM, nothing evicted.
    only: bool,
    /// A piece of fewer sectors is fragmented.
    fragment_sectors: u32,
    evict_below_slots: u32,
    evict_to_slots: u32,
    pub statistics: ScmPlacementStatistics,
}

impl ScmPlacement {
    /// SCM of `slots` sectors for pages of `sectors_per_page` sectors.
    pub fn new(config: &HybridScmConfig, slots: u32, sectors_per_page: u32, only: bool, keep_tags: bool) -> Self {
        ScmPlacement {
            store: ScmStore::new(slots, sectors_per_page, config.wear_leveling_threshold_writes, keep_tags),
            hot: HotTable::new(config.hot_table_entries),
            only,
            fragment_sectors: (config.fragment_fraction * sectors_per_page as f64).ceil() as u32,
            evict_below_slots: (config.evict_below_free_fraction * slots as f64).ceil() as u32,
            evict_to_slots: (config.evict_to_free_fraction * slots as f64).ceil() as u32,
            statistics: ScmPlacementStatistics::default(),
        }
    }

    pub fn is_scm_only(&self) -> bool {
        self.only
    }

    /// All sectors of a page.
    pub fn full_mask(&self) -> u64 {
        u64::MAX >> (64 - self.store.sectors_per_page())
    }

    /// Decides where a host write of `mask` to page `lpn` goes, recording the write in the LRU table.
    pub fn route(&mut self, lpn: u32, mask: u64) -> Route {
        let sectors = mask.count_ones();
        let hot = self.hot.touch(lpn);
        if self.only {
            self.statistics.pieces_to_scm += 1;
            self.statistics.sectors_to_scm += sectors as u64;
            return Route::Scm;
        }
        let fragmented = sectors < self.fragment_sectors;
        if hot || fragmented {
            self.statistics.pieces_to_scm += 1;
            self.statistics.hot_pieces += hot as u64;
            self.statistics.fragmented_pieces += fragmented as u64;
            self.statistics.sectors_to_scm += sectors as u64;
            Route::Scm
        } else {
            self.statistics.pieces_to_nand += 1;
            self.statistics.sectors_to_nand += sectors as u64;
            Route::Nand
        }
    }

    /// Free slots eviction must reach before a write needing `new_sectors` new slots (so that
    /// `evict_to_free_fraction` is free after it), or None when no eviction is due (the write leaves
    /// at least `evict_below_free_fraction` free).
    pub fn eviction_target(&self, new_sectors: u32) -> Option<u32> {
        if self.only {
            return None;
        }
        let free = self.store.free_slots();
        (free < new_sectors || free - new_sectors < self.evict_below_slots)
            .then(|| (new_sectors + self.evict_to_slots).min(self.store.capacity()))
    }

    /// The next page to evict: the oldest that is neither fragmented nor in the LRU table, else (all
    /// are, within one pass over the entry order) the oldest. Returns (lpn, mask held, forced).
    pub fn next_victim(&mut self) -> Option<(u32, u64, bool)> {
        // One pass over the pages held: each passed over goes to the back, so after the pass the order
        // is as before and the oldest is the first again.
        for _ in 0..self.store.pages_held() {
            let (lpn, mask) = self.store.oldest()?;
            if mask.count_ones() >= self.fragment_sectors && !self.hot.contains(lpn) {
                return Some((lpn, mask, false));
            }
            self.store.pass_over_oldest();
        }
        let (lpn, mask) = self.store.oldest()?;
        Some((lpn, mask, true))
    }

    /// Counts an eviction of `mask` of a page.
    pub fn evicted(&mut self, mask: u64, forced: bool) {
        self.statistics.pages_evicted += 1;
        self.statistics.forced_evictions += forced as u64;
        self.statistics.sectors_evicted += mask.count_ones() as u64;
    }

    pub fn memory_bytes(&self) -> u64 {
        self.store.memory_bytes() + self.hot.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placement(slots: u32) -> ScmPlacement {
        let config = HybridScmConfig {
            hot_table_entries: 4,
            fragment_fraction: 0.5,
            evict_below_free_fraction: 0.25,
            evict_to_free_fraction: 0.5,
            wear_leveling_threshold_writes: 1000,
        };
        ScmPlacement::new(&config, slots, 8, false, false)
    }

    #[test]
    fn fragmented_or_hot_writes_go_to_scm_the_rest_to_nand() {
        let mut scm = placement(64);
        assert_eq!(scm.route(1, 0b0000_0111), Route::Scm, "3 of 8 sectors: fragmented");
        assert_eq!(scm.route(2, 0xFF), Route::Nand, "a whole page, first write: NAND");
        assert_eq!(scm.route(2, 0xFF), Route::Scm, "rewritten while in the LRU table: hot");
        assert_eq!(scm.route(3, 0x0F), Route::Nand, "half a page is not a small fraction");
        let s = scm.statistics;
        assert_eq!((s.pieces_to_scm, s.hot_pieces, s.fragmented_pieces, s.pieces_to_nand), (2, 1, 1, 2));
    }

    #[test]
    fn eviction_takes_the_oldest_page_neither_fragmented_nor_hot() {
        let mut scm = placement(32);
        let mut slots = Vec::new();
        // Page 10: whole, written long ago (out of the 4-entry LRU table); page 11: fragmented; 12-15 recent.
        for (lpn, mask) in [(11u32, 0b1u64), (10, 0xFF), (12, 0xFF), (13, 0xF0), (14, 0x0F), (15, 0x01)] {
            scm.route(lpn, mask);
            scm.store.write(lpn, mask, |_| 0, &mut slots).unwrap();
        }
        assert!(!scm.hot.contains(10) && !scm.hot.contains(11));
        assert_eq!(scm.next_victim(), Some((10, 0xFF, false)), "11 is older but fragmented");
        scm.store.remove(10, 0xFF);
        // What is left: 11 fragmented, 12-15 in the LRU table: forced, the oldest in the order, which
        // is 12 (11 was passed over by the first eviction and went to the back).
        let (lpn, _, forced) = scm.next_victim().unwrap();
        assert!(forced);
        assert_eq!(lpn, 12);
    }

    #[test]
    fn eviction_is_due_below_the_low_mark_and_runs_to_the_high_mark() {
        let mut scm = placement(16);
        let mut slots = Vec::new();
        assert_eq!(scm.eviction_target(8), None);
        scm.store.write(1, 0xFF, |_| 0, &mut slots).unwrap();
        assert_eq!(scm.eviction_target(4), None, "8 free - 4 = 4: at the 25 % mark, not below it");
        assert_eq!(scm.eviction_target(5), Some(13), "below it: evict until half is free after the write");
        assert_eq!(scm.eviction_target(9), Some(16), "never more than the whole SCM");
    }
}
