//! The SCM sector store: which physical sector slot holds each logical sector kept in SCM, how
//! often each slot was written, and dynamic wear leveling by overwrite count (seed 001 Fig. 1(b)).
//!
//! Logical sectors are grouped by the NAND page they belong to (`lpn`): a page's entry has a
//! bit mask of the sectors held here and one slot per sector of the page. Slots are overwritten in
//! place (SCM needs no erase); a new sector takes the least-written free slot. An overwrite moves
//! the sector to the least-written free slot when its own slot has been written
//! `wear_leveling_threshold` times more (dynamic wear leveling: only free slots take part, so data
//! that is never rewritten stays put). Pages are remembered in the order they entered, for eviction.
//!
//! Left out: static wear leveling (moving cold data off little-worn slots) and wear-out (slots past
//! their endurance keep working; the result reports the most-written slot against it).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, DefaultHasher};

/// One page's sectors in SCM.
#[derive(Debug, Clone, Copy)]
struct PageEntry {
    /// Bit i: sector i of the page is held here.
    mask: u64,
    /// Index of the page's run of `sectors_per_page` slots in `page_slots`.
    chunk: u32,
    /// When the page (re)entered SCM, for the eviction order.
    entered: u64,
}

/// The SCM's sectors and where they are.
#[derive(Debug, Clone)]
pub struct ScmStore {
    sectors_per_page: u32,
    /// Times each physical slot was written.
    writes: Vec<u32>,
    /// The oracle's tag of the data in each slot (empty when the oracle is off).
    slot_tags: Vec<u32>,
    /// Free slots, least-written first (a free slot's count does not change while it is free).
    free: BinaryHeap<Reverse<(u32, u32)>>,
    /// Keyed with fixed hash keys: the table's capacity (counted in `memory_bytes`) then depends on
    /// the run alone, not on the process's random keys (issue 48 item 17).
    pages: HashMap<u32, PageEntry, BuildHasherDefault<DefaultHasher>>,
    /// Per page entry: the slot of each of its sectors (`u32::MAX`: not here).
    page_slots: Vec<u32>,
    free_chunks: Vec<u32>,
    /// Pages in the order they entered SCM (lpn, entered); stale entries are skipped when read.
    order: VecDeque<(u32, u64)>,
    entered_counter: u64,
    threshold: u32,
    pub(crate) wear_leveling_moves: u64,
}

/// There is no free slot for a new sector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScmFull;

impl ScmStore {
    /// A store of `slots` sector slots for pages of `sectors_per_page` sectors (at most 64).
    pub fn new(slots: u32, sectors_per_page: u32, wear_leveling_threshold: u32, keep_tags: bool) -> Self {
        debug_assert!((1..=64).contains(&sectors_per_page));
        ScmStore {
            sectors_per_page,
            writes: vec![0; slots as usize],
            slot_tags: if keep_tags { vec![0; slots as usize] } else { Vec::new() },
            free: (0..slots).map(|slot| Reverse((0, slot))).collect(),
            pages: HashMap::default(),
            page_slots: Vec::new(),
            free_chunks: Vec::new(),
            order: VecDeque::new(),
            entered_counter: 0,
            threshold: wear_leveling_threshold,
            wear_leveling_moves: 0,
        }
    }

    pub fn capacity(&self) -> u32 {
        self.writes.len() as u32
    }

    pub fn free_slots(&self) -> u32 {
        self.free.len() as u32
    }

    pub fn sectors_per_page(&self) -> u32 {
        self.sectors_per_page
    }

    /// Pages with at least one sector here.
    pub fn pages_held(&self) -> usize {
        self.pages.len()
    }

    /// The sectors of page `lpn` held here (bit i: sector i).
    #[inline]
    pub fn mask_of(&self, lpn: u32) -> u64 {
        self.pages.get(&lpn).map_or(0, |entry| entry.mask)
    }

    /// Slots (appended to `out`, in sector order) of the sectors of `lpn` in `mask` held here.
    pub fn slots_of(&self, lpn: u32, mask: u64, out: &mut Vec<u32>) {
        let Some(entry) = self.pages.get(&lpn) else { return };
        let base = entry.chunk as usize * self.sectors_per_page as usize;
        let mut bits = mask & entry.mask;
        while bits != 0 {
            let sector = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out.push(self.page_slots[base + sector]);
        }
    }

    /// The oracle's tag of the data in `slot` (0 when tags are not kept).
    pub fn tag_of_slot(&self, slot: u32) -> u32 {
        self.slot_tags.get(slot as usize).copied().unwrap_or(0)
    }

    /// New slots a write of `mask` to `lpn` needs (its sectors not yet held here).
    pub fn new_sectors(&self, lpn: u32, mask: u64) -> u32 {
        (mask & !self.mask_of(lpn)).count_ones()
    }

    /// Writes the sectors of `lpn` in `mask` (their tags from `tag(sector)`), in place or, for a
    /// new sector or a wear-leveling move, into the least-written free slot; appends the slots
    /// written to `out`. Fails, changing nothing, when new sectors would not fit.
    pub fn write(&mut self, lpn: u32, mask: u64, tag: impl Fn(u32) -> u32, out: &mut Vec<u32>) -> Result<(), ScmFull> {
        if self.new_sectors(lpn, mask) > self.free_slots() {
            return Err(ScmFull);
        }
        let spp = self.sectors_per_page as usize;
        let entry = match self.pages.get(&lpn) {
            Some(entry) => *entry,
            None => {
                let chunk = match self.free_chunks.pop() {
                    Some(chunk) => chunk,
                    None => {
                        self.page_slots.extend(std::iter::repeat_n(u32::MAX, spp));
                        (self.page_slots.len() / spp - 1) as u32
                    }
                };
                self.entered_counter += 1;
                self.order.push_back((lpn, self.entered_counter));
                PageEntry { mask: 0, chunk, entered: self.entered_counter }
            }
        };
        let base = entry.chunk as usize * spp;
        let mut bits = mask;
        while bits != 0 {
            let sector = bits.trailing_zeros();
            bits &= bits - 1;
            let held = self.page_slots[base + sector as usize];
            let slot = if held == u32::MAX {
                let Some(Reverse((_, slot))) = self.free.pop() else { unreachable!("room checked above") };
                slot
            } else {
                match self.free.peek() {
                    Some(&Reverse((coolest, _)))
                        if self.writes[held as usize] >= coolest.saturating_add(self.threshold) =>
                    {
                        let Some(Reverse((_, slot))) = self.free.pop() else { unreachable!("peeked") };
                        self.free.push(Reverse((self.writes[held as usize], held)));
                        self.wear_leveling_moves += 1;
                        slot
                    }
                    _ => held,
                }
            };
            self.page_slots[base + sector as usize] = slot;
            self.writes[slot as usize] = self.writes[slot as usize].saturating_add(1);
            if !self.slot_tags.is_empty() {
                self.slot_tags[slot as usize] = tag(sector);
            }
            out.push(slot);
        }
        self.pages.insert(lpn, PageEntry { mask: entry.mask | mask, ..entry });
        Ok(())
    }

    /// Drops the sectors of `lpn` in `mask` (their slots become free); the page leaves the store
    /// when none is left.
    pub fn remove(&mut self, lpn: u32, mask: u64) {
        let Some(entry) = self.pages.get_mut(&lpn) else { return };
        let spp = self.sectors_per_page as usize;
        let base = entry.chunk as usize * spp;
        let mut bits = mask & entry.mask;
        entry.mask &= !mask;
        let (left, chunk) = (entry.mask, entry.chunk);
        while bits != 0 {
            let sector = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let slot = std::mem::replace(&mut self.page_slots[base + sector], u32::MAX);
            self.free.push(Reverse((self.writes[slot as usize], slot)));
        }
        if left == 0 {
            self.pages.remove(&lpn);
            self.free_chunks.push(chunk);
        }
    }

    /// The page held here longest (since it entered or was last passed over), with its mask; stale
    /// entries of the order are dropped as they are met.
    pub fn oldest(&mut self) -> Option<(u32, u64)> {
        while let Some(&(lpn, entered)) = self.order.front() {
            match self.pages.get(&lpn) {
                Some(entry) if entry.entered == entered => return Some((lpn, entry.mask)),
                _ => {
                    self.order.pop_front();
                }
            }
        }
        None
    }

    /// Moves the oldest page to the back of the entry order (passed over by eviction, it keeps its
    /// place among the youngest).
    pub fn pass_over_oldest(&mut self) {
        if let Some((lpn, _)) = self.order.pop_front() {
            if let Some(entry) = self.pages.get_mut(&lpn) {
                self.entered_counter += 1;
                entry.entered = self.entered_counter;
                self.order.push_back((lpn, self.entered_counter));
            }
        }
    }

    /// (most writes to one slot, mean writes per slot).
    pub fn wear(&self) -> (u32, f64) {
        let max = self.writes.iter().copied().max().unwrap_or(0);
        let mean = if self.writes.is_empty() {
            0.0
        } else {
            self.writes.iter().map(|&w| w as f64).sum::<f64>() / self.writes.len() as f64
        };
        (max, mean)
    }

    /// Bytes held by the store's tables.
    pub fn memory_bytes(&self) -> u64 {
        (self.writes.capacity() * 4
            + self.slot_tags.capacity() * 4
            + self.free.capacity() * 8
            + self.page_slots.capacity() * 4
            + self.pages.capacity() * 28
            + self.order.capacity() * 16) as u64
    }

    /// Checks that every held sector has a slot of its own and that held and free slots add up to
    /// the capacity.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut seen = vec![false; self.writes.len()];
        let spp = self.sectors_per_page as usize;
        let mut held = 0usize;
        for (&lpn, entry) in &self.pages {
            for sector in 0..spp {
                let slot = self.page_slots[entry.chunk as usize * spp + sector];
                let in_mask = entry.mask >> sector & 1 == 1;
                if in_mask != (slot != u32::MAX) {
                    return Err(format!("page {lpn} sector {sector}: mask says {in_mask}, slot {slot}"));
                }
                if in_mask {
                    if std::mem::replace(&mut seen[slot as usize], true) {
                        return Err(format!("slot {slot} holds two sectors"));
                    }
                    held += 1;
                }
            }
        }
        for &Reverse((_, slot)) in self.free.iter() {
            if std::mem::replace(&mut seen[slot as usize], true) {
                return Err(format!("slot {slot} is both free and held (or free twice)"));
            }
        }
        if held + self.free.len() != self.writes.len() {
            return Err(format!("{held} held + {} free slots != {} slots", self.free.len(), self.writes.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sectors_take_the_least_written_free_slot_and_overwrite_in_place() {
        let mut store = ScmStore::new(8, 4, 1000, true);
        let mut slots = Vec::new();
        store.write(7, 0b0101, |sector| 100 + sector, &mut slots).unwrap();
        assert_eq!(slots, vec![0, 1]);
        assert_eq!(store.mask_of(7), 0b0101);
        slots.clear();
        store.write(7, 0b0001, |_| 200, &mut slots).unwrap();
        assert_eq!(slots, vec![0], "in place");
        assert_eq!(store.tag_of_slot(0), 200);
        assert_eq!(store.tag_of_slot(1), 102);
        assert_eq!(store.free_slots(), 6);
        store.check_invariants().unwrap();
    }

    #[test]
    fn a_full_store_refuses_new_sectors_and_changes_nothing() {
        let mut store = ScmStore::new(2, 4, 1000, false);
        let mut slots = Vec::new();
        store.write(1, 0b11, |_| 0, &mut slots).unwrap();
        assert_eq!(store.write(2, 0b1, |_| 0, &mut slots), Err(ScmFull));
        assert_eq!(store.mask_of(2), 0);
        slots.clear();
        store.write(1, 0b11, |_| 0, &mut slots).unwrap();
        assert_eq!(slots.len(), 2, "overwrites need no room");
        store.remove(1, 0b01);
        assert_eq!(store.free_slots(), 1);
        store.write(2, 0b1, |_| 0, &mut slots).unwrap();
        store.check_invariants().unwrap();
    }

    #[test]
    fn dynamic_wear_leveling_moves_a_hot_sector_to_the_coolest_free_slot() {
        // Threshold 3: the 4th write of a sector whose slot has 3 more writes than the coolest free
        // slot goes to that slot; the old slot becomes free with its count.
        let mut store = ScmStore::new(4, 1, 3, true);
        let mut slots = Vec::new();
        for round in 0..3 {
            slots.clear();
            store.write(0, 1, |_| round, &mut slots).unwrap();
            assert_eq!(slots, vec![0]);
        }
        slots.clear();
        store.write(0, 1, |_| 9, &mut slots).unwrap();
        assert_eq!(slots, vec![1], "moved off slot 0 (3 writes) to slot 1 (0 writes)");
        assert_eq!(store.wear_leveling_moves, 1);
        assert_eq!(store.tag_of_slot(1), 9);
        let mut held = Vec::new();
        store.slots_of(0, 1, &mut held);
        assert_eq!(held, vec![1]);
        store.check_invariants().unwrap();
        // Writes spread: after many rewrites no slot is far ahead of the others.
        for round in 0..400 {
            slots.clear();
            store.write(0, 1, |_| round, &mut slots).unwrap();
        }
        let (max, mean) = store.wear();
        assert!(max as f64 <= mean + 4.0, "max {max}, mean {mean}");
    }

    #[test]
    fn eviction_order_is_entry_order_and_skips_stale_entries() {
        let mut store = ScmStore::new(16, 4, 1000, false);
        let mut slots = Vec::new();
        for lpn in [5, 6, 7] {
            store.write(lpn, 0b1, |_| 0, &mut slots).unwrap();
        }
        assert_eq!(store.oldest(), Some((5, 1)));
        store.remove(5, 0b1);
        assert_eq!(store.oldest(), Some((6, 1)));
        store.pass_over_oldest();
        assert_eq!(store.oldest(), Some((7, 1)));
        store.write(5, 0b10, |_| 0, &mut slots).unwrap();
        store.remove(7, 0b1);
        assert_eq!(store.oldest(), Some((6, 1)));
        store.remove(6, 1);
        assert_eq!(store.oldest(), Some((5, 0b10)));
        store.check_invariants().unwrap();
    }
}
