//! The LBA scrambler of seed 003 (Matsui, Soga, Sun, Takeuchi; after Soga et al., IMW 2014):
//! middleware between the host and an unchanged FTL that turns each host logical page (LBA) into a
//! scrambled logical page (SLBA), choosing SLBAs so that host writes land on the pages of the block
//! the FTL will garbage-collect next.
//!
//! What it models. Three tables, as the seed describes: the LBA -> SLBA table (and its inverse, so
//! the scrambler knows which SLBAs are in use), the table of unused SLBAs, and the FTL's
//! overwrite-recommendation list (the SLBAs stored in the next victim block). An unused SLBA is either
//! *empty* (the FTL has never mapped it) or *fragmented* (the scrambler moved its data elsewhere, but
//! the FTL still holds the old copy, because nothing tells the FTL that the SLBA is dead). Writing a
//! host page to a fragmented SLBA makes the FTL invalidate that old copy; when the copy sits in the next
//! victim block, GC has one page fewer to copy. The rules, per host page write:
//!
//! 1. While the SSD's free space is plentiful (the FTL maps less than `1 - plentiful_free_fraction`
//!    of the NAND pages), write to an empty SLBA.
//! 2. Otherwise, when the next victim block holds enough fragmented SLBAs
//!    (`victim_min_fragmented_pages`), write to one of them.
//! 3. Otherwise write to a page of another block: an overwrite keeps its own SLBA (the FTL
//!    invalidates the old copy, as without the scrambler); a first write takes a fragmented SLBA when
//!    there is one (which retires a dead copy) or else an empty one. The seed leaves the choice in
//!    rule 3 open; this one never adds a fragmented page, so rule 3 alone behaves as no scrambler.
//!
//! Rules 1 and 2 move a host page to a new SLBA and leave its old SLBA fragmented. The next victim is
//! that of the plane closest to garbage collection (fewest free blocks), re-read when the victim is
//! erased, when its recommendation list runs dry, and every `pages_per_block` writes.
//!
//! What it leaves out: the file system above it (the seed's scrambler sits below one and may know of
//! deleted files; a block trace carries no deletes, so every dead copy the FTL cannot see here is one
//! the scrambler made itself), and any cost of the tables' lookups (treated as free host CPU work).
//!
//! Source: seed 003 (§2-3 and Table 1); the SLBA space is the NAND capacity, as the seed's SSD
//! exports its whole capacity and "free space" is the part not holding data.

use super::{Middleware, MiddlewareStats};
use crate::config::LbaScramblerConfig;
use crate::ftl::mapping::MappingTable;
use crate::ftl::Ftl;
use crate::geometry::{BlockIndex, Lpn, PlaneIndex};

pub struct LbaScrambler {
    settings: LbaScramblerConfig,
    /// Host page -> SLBA.
    forward: MappingTable<Lpn, Lpn>,
    /// SLBA -> host page, for SLBAs in use.
    reverse: MappingTable<Lpn, Lpn>,
    slba_pages: u64,
    /// Next SLBA to try when an empty one is needed (empty SLBAs never become empty again).
    empty_cursor: u64,
    /// Fragmented SLBAs, possibly with stale entries (checked when taken).
    fragmented: Vec<u32>,
    fragmented_count: u64,
    /// The overwrite-recommendation list: fragmented SLBAs stored in `victim`.
    recommendations: Vec<u32>,
    victim: Option<(BlockIndex, u32)>,
    /// Whether the victim held at least `victim_min_fragmented_pages` fragmented pages when read (rule 2).
    victim_has_enough: bool,
    writes_since_refresh: u64,
    stats: MiddlewareStats,
}

impl LbaScrambler {
    /// `slba_pages` is the FTL's logical space (at least the host's and the NAND's page count).
    pub fn new(settings: LbaScramblerConfig, slba_pages: u64) -> Self {
        LbaScrambler {
            settings,
            forward: MappingTable::new(slba_pages),
            reverse: MappingTable::new(slba_pages),
            slba_pages,
            empty_cursor: 0,
            fragmented: Vec::new(),
            fragmented_count: 0,
            recommendations: Vec::new(),
            victim: None,
            victim_has_enough: false,
            writes_since_refresh: 0,
            stats: MiddlewareStats::default(),
        }
    }

    fn is_fragmented(&self, slba: u32, ftl: &Ftl) -> bool {
        self.reverse.get(Lpn(slba)).is_none() && ftl.lookup(Lpn(slba)).is_some()
    }

    /// An SLBA neither in use nor ever mapped by the FTL; `preferred` first (a first write keeps
    /// its own address when it can, which keeps sequential host writes sequential).
    fn take_empty(&mut self, preferred: Lpn, ftl: &Ftl) -> Option<Lpn> {
        let free = |slba: u64, this: &Self| this.reverse.get(Lpn(slba as u32)).is_none() && ftl.lookup(Lpn(slba as u32)).is_none();
        if (preferred.0 as u64) < self.slba_pages && free(preferred.0 as u64, self) {
            return Some(preferred);
        }
        // Empty SLBAs never become empty again (nothing unmaps an SLBA), so one pass of the cursor
        // over the SLBA space serves the whole run.
        for _ in 0..self.slba_pages {
            if self.empty_cursor >= self.slba_pages {
                self.empty_cursor = 0;
            }
            let candidate = self.empty_cursor;
            self.empty_cursor += 1;
            if free(candidate, self) {
                return Some(Lpn(candidate as u32));
            }
        }
        None
    }

    fn take_fragmented(&mut self, ftl: &Ftl) -> Option<Lpn> {
        while let Some(slba) = self.fragmented.pop() {
            if self.is_fragmented(slba, ftl) {
                return Some(Lpn(slba));
            }
        }
        None
    }

    /// A fragmented SLBA stored in the next victim block, if the victim holds enough of them.
    fn take_recommended(&mut self, ftl: &Ftl, now_ns: u64) -> Option<Lpn> {
        let victim_erased = self.victim.is_some_and(|(block, erases)| ftl.block(block).erase_count != erases);
        if victim_erased || self.writes_since_refresh >= ftl.layout().tier(0).geometry.pages_per_block as u64 || (self.recommendations.is_empty() && self.victim.is_none()) {
            self.refresh(ftl, now_ns);
        }
        let (victim, _) = self.victim?;
        if !self.victim_has_enough {
            return None;
        }
        while let Some(slba) = self.recommendations.pop() {
            let here = ftl.lookup(Lpn(slba)).map(|ppn| ftl.layout().block_of(ppn));
            if here == Some(victim) && self.reverse.get(Lpn(slba)).is_none() {
                return Some(Lpn(slba));
            }
        }
        None
    }

    /// Re-reads the next victim (of the plane with the fewest free blocks) and its fragmented SLBAs.
    fn refresh(&mut self, ftl: &Ftl, now_ns: u64) {
        self.writes_since_refresh = 0;
        self.recommendations.clear();
        self.victim = None;
        self.victim_has_enough = false;
        self.stats.victim_refreshes += 1;
        let planes = ftl.layout().planes_total();
        let Some(plane) = (0..planes).min_by_key(|&plane| ftl.free_blocks(PlaneIndex(plane))) else { return };
        let Some(victim) = ftl.next_victim(PlaneIndex(plane), now_ns) else { return };
        self.victim = Some((victim, ftl.block(victim).erase_count));
        let reverse = &self.reverse;
        self.recommendations.extend(ftl.valid_pages_of(victim).filter(|&slba| reverse.get(slba).is_none()).map(|slba| slba.0));
        self.victim_has_enough = self.recommendations.len() as u32 >= self.settings.victim_min_fragmented_pages;
        if !self.victim_has_enough {
            self.recommendations.clear();
        }
        // Popped from the end: take the victim's pages in page order.
        self.recommendations.reverse();
    }

    /// Records that `host` now lives at `target`; its previous SLBA, if another, becomes fragmented.
    fn assign(&mut self, host: Lpn, target: Lpn, ftl: &Ftl) {
        if self.reverse.get(target).is_none() && ftl.lookup(target).is_some() {
            // A fragmented SLBA is being reused: the FTL is about to invalidate its dead copy.
            self.fragmented_count -= 1;
        }
        if let Some(previous) = self.forward.set(host, target) {
            if previous != target {
                self.reverse.remove(previous);
                self.fragmented.push(previous.0);
                self.fragmented_count += 1;
                if let (Some((victim, _)), Some(ppn), true) = (self.victim, ftl.lookup(previous), self.victim_has_enough) {
                    if ftl.layout().block_of(ppn) == victim {
                        self.recommendations.push(previous.0);
                    }
                }
            }
        }
        self.reverse.set(target, host);
        if self.fragmented.len() as u64 > 2 * self.fragmented_count + 4096 {
            let reverse = &self.reverse;
            self.fragmented.retain(|&slba| reverse.get(Lpn(slba)).is_none() && ftl.lookup(Lpn(slba)).is_some());
            self.fragmented.sort_unstable();
            self.fragmented.dedup();
        }
    }
}

impl Middleware for LbaScrambler {
    fn name(&self) -> &'static str {
        "lba_scrambler"
    }

    fn write_target(&mut self, host: Lpn, ftl: &Ftl, now_ns: u64) -> Lpn {
        self.writes_since_refresh += 1;
        let current = self.forward.get(host);
        let physical_pages = ftl.layout().pages_total() as f64;
        let free_fraction = 1.0 - ftl.mapped_pages() as f64 / physical_pages;
        let mut target = None;
        if free_fraction > self.settings.plentiful_free_fraction {
            target = self.take_empty(host, ftl);
            if target.is_some() {
                self.stats.rule1_empty_page_writes += 1;
            }
        }
        if target.is_none() {
            target = self.take_recommended(ftl, now_ns);
            if target.is_some() {
                self.stats.rule2_victim_page_writes += 1;
            }
        }
        let target = match target {
            Some(target) => target,
            None => {
                self.stats.rule3_other_page_writes += 1;
                match current {
                    Some(own) => own,
                    None => match self.take_fragmented(ftl).or_else(|| self.take_empty(host, ftl)) {
                        Some(slba) => slba,
                        // Every SLBA is in use or mapped: only possible when the SLBA space is no
                        // larger than the host's; fall back to the host address (the FTL then reports
                        // any capacity problem with its own error).
                        None => host,
                    },
                }
            }
        };
        self.assign(host, target, ftl);
        target
    }

    #[inline]
    fn read_target(&self, host: Lpn) -> Option<Lpn> {
        self.forward.get(host)
    }

    /// The host page's SLBA becomes unused: fragmented while the FTL still holds its copy, or, when
    /// the FTL trimmed it already, holding nothing (then simply unused: the empty cursor does not
    /// come back to it).
    fn delete(&mut self, host: Lpn, ftl: &Ftl) {
        if let Some(slba) = self.forward.remove(host) {
            self.reverse.remove(slba);
            if ftl.lookup(slba).is_some() {
                self.fragmented.push(slba.0);
                self.fragmented_count += 1;
            }
        }
    }

    fn stats(&self) -> MiddlewareStats {
        MiddlewareStats { fragmented_pages: self.fragmented_count, ..self.stats }
    }

    fn reset_stats(&mut self) {
        self.stats = MiddlewareStats::default();
    }

    fn memory_bytes(&self) -> u64 {
        self.forward.memory_bytes() + self.reverse.memory_bytes() + (self.fragmented.capacity() * 4) as u64
    }
}
