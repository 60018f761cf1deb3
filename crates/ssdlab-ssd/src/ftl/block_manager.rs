//! Per-block state: erase count, valid and written pages, and, for blocks that have ever been
//! written, each page's logical owner, program time (for retention) and optional integrity tag.
//!
//! Page-level records are allocated the first time a block is opened. The per-block arrays (a 32-byte
//! record, a 2-byte key kept in its own dense array because it is updated on every overwrite at a
//! random block, and a 4-byte page-record slot) are allocated zeroed, and a block that was never
//! opened is all zeros in each of them: the operating system commits their memory page by page as
//! blocks are first written, so memory follows what the workload touches, not the drive's size (issue
//! 17: a 4 TiB drive holding an 8 GiB footprint costs about what a 512 GiB one does). Opened blocks add
//! 8 bytes (12 with integrity tags) and one validity bit per page.

/// Set in a block's key once the block is full, i.e. a garbage-collection candidate. A key is the
/// block's valid-page count with this flag (a fresh block's key is 0, so the key array can start as
/// untouched zeroed memory). `key ^ FULL` is smallest for the full block with the fewest valid
/// pages, so a policy finds it with one vectorisable minimum over a dense u16 array instead of
/// walking block records.
pub const FULL: u16 = 0x8000;
/// The valid-page count inside a block key.
pub const VALID_MASK: u16 = 0x7FFF;

/// Marks a page that holds no valid data.
pub const INVALID_PAGE: u32 = u32::MAX;

/// `Free` is 0: a zeroed block record is a fresh block (see [`zeroed_records`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum BlockState {
    Free = 0,
    Open,
    Full,
}

#[derive(Debug, Clone, Copy)]
pub struct BlockInfo {
    pub erase_count: u32,
    pub written_pages: u32,
    pub state: BlockState,
    /// Seed 004's round number N_RDS: 0 for a block host (or migrated) data was written to, 1 for a
    /// block filled by garbage-collection copies, +1 each time RR-FDCA's round-robin passes over it
    /// without collecting it (`collector::frozen_data`). Fits in the record's padding.
    pub screening_rounds: u8,
    /// Time of the most recent page program (for cost-benefit age).
    pub last_write_ns: u64,
    /// Order in which blocks became full (round-robin GC collects the oldest first).
    pub sealed_sequence: u64,
}

// The record stays 32 bytes (two per cache line): N_RDS lives in what was padding.
const _: () = assert!(std::mem::size_of::<BlockInfo>() == 32);

impl BlockInfo {
    pub fn fresh() -> Self {
        BlockInfo {
            erase_count: 0,
            written_pages: 0,
            state: BlockState::Free,
            screening_rounds: 0,
            last_write_ns: 0,
            sealed_sequence: 0,
        }
    }
}

/// `count` fresh block records in memory obtained zeroed from the allocator: for large arrays the
/// allocator maps fresh pages that the operating system commits only when first written, so records
/// of blocks never opened cost no resident memory (reading them maps the shared zero page).
pub fn zeroed_records(count: usize) -> Vec<BlockInfo> {
    let Ok(layout) = std::alloc::Layout::array::<BlockInfo>(count) else {
        // Beyond the address space: let Vec report the capacity overflow.
        return vec![BlockInfo::fresh(); count];
    };
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the layout has a non-zero size. An all-zero BlockInfo is valid and equals
    // `BlockInfo::fresh()`: its fields are integers and a `repr(u8)` enum whose 0 is `Free`. The
    // pointer comes from the global allocator with exactly the layout of `count` records, which is
    // what Vec frees it with (length = capacity = count).
    unsafe {
        let pointer = std::alloc::alloc_zeroed(layout) as *mut BlockInfo;
        if pointer.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(pointer, count, count)
    }
}

/// One physical page's FTL record: its logical owner and when it was programmed. Kept together so
/// one cache line serves both (retention lookups on reads, owner updates on overwrites).
#[derive(Debug, Clone, Copy)]
pub struct PageEntry {
    /// Logical page stored here, or [`INVALID_PAGE`].
    pub owner: u32,
    /// Program time on the retention clock, in ms (`ftl/retention.rs`; saturating at ~49 days).
    pub program_time_ms: u32,
}

/// Slot 0 of the page table is a permanent all-invalid block standing for "no records": the
/// per-block slot array can then start zeroed (see the module comment).
const NO_SLOT: u32 = 0;

/// Where a page's record lives: its block's slot in the page table and the page within the block
/// (what a write frontier keeps so a program needs no slot lookup).
#[derive(Debug, Clone, Copy)]
pub struct RecordAddress {
    pub slot: u32,
    pub page: u32,
}

/// Page-level records of the blocks holding data, in one slab: a block gets a slot of
/// `pages_per_block` entries when it is opened and gives it back once it is full and its last valid
/// page is invalidated (the records of invalid pages are never read), so the slab is as large as the
/// blocks holding valid data, not as the data ever written (a 100M-request run on a drive that GC
/// never has to reclaim would otherwise keep a record for every page written). One indirection per
/// lookup.
///
/// Whether a page still holds its owner's current data is one bit in a separate bitmap, not a
/// value in the record: an overwrite invalidates a page at a random place in the drive, and the
/// bitmap (1 bit per page) stays in cache where the 8-byte records would not. The records are
/// written where the write frontier is (sequentially) and read by garbage collection and reads.
#[derive(Debug, Clone)]
pub struct PageTable {
    pages_per_block: usize,
    /// 64-bit words of the validity bitmap per slot.
    valid_words_per_block: usize,
    slot_of_block: Vec<u32>,
    entries: Vec<PageEntry>,
    valid: Vec<u64>,
    /// Integrity tags, parallel to `entries` (empty unless the oracle is on).
    tags: Vec<u32>,
    with_tags: bool,
    /// Slots given back, reused before the slab grows.
    free_slots: Vec<u32>,
}

impl PageTable {
    pub fn new(blocks: usize, pages_per_block: u32, with_tags: bool) -> Self {
        PageTable {
            pages_per_block: pages_per_block as usize,
            valid_words_per_block: (pages_per_block as usize).div_ceil(64),
            slot_of_block: vec![NO_SLOT; blocks],
            // Slot 0: the stand-in for blocks without records.
            entries: vec![PageEntry { owner: INVALID_PAGE, program_time_ms: 0 }; pages_per_block as usize],
            valid: vec![0; (pages_per_block as usize).div_ceil(64)],
            tags: if with_tags { vec![0; pages_per_block as usize] } else { Vec::new() },
            with_tags,
            free_slots: Vec::new(),
        }
    }

    /// Gives `block` its page records if it has none yet; returns its slot.
    pub fn ensure(&mut self, block: usize) -> u32 {
        if self.slot_of_block[block] != NO_SLOT {
            return self.slot_of_block[block];
        }
        if let Some(slot) = self.free_slots.pop() {
            // A given-back slot has no valid page (see `release`); its stale records are rewritten
            // by the programs that make its pages valid again.
            debug_assert!(self.valid[slot as usize * self.valid_words_per_block..][..self.valid_words_per_block]
                .iter()
                .all(|&word| word == 0));
            self.slot_of_block[block] = slot;
        } else {
            self.slot_of_block[block] = (self.entries.len() / self.pages_per_block) as u32;
            self.entries.extend(std::iter::repeat_n(
                PageEntry { owner: INVALID_PAGE, program_time_ms: 0 },
                self.pages_per_block,
            ));
            self.valid.extend(std::iter::repeat_n(0, self.valid_words_per_block));
            if self.with_tags {
                self.tags.extend(std::iter::repeat_n(0, self.pages_per_block));
            }
        }
        self.slot_of_block[block]
    }

    /// Gives back the records of a block with no valid page (a full block whose last valid page was
    /// just invalidated): nothing reads the records of invalid pages.
    #[inline]
    pub fn release(&mut self, block: usize) {
        let slot = std::mem::replace(&mut self.slot_of_block[block], NO_SLOT);
        if slot != NO_SLOT {
            self.free_slots.push(slot);
        }
    }

    #[inline]
    fn slot(&self, block: usize) -> Option<usize> {
        let slot = self.slot_of_block[block];
        (slot != NO_SLOT).then_some(slot as usize)
    }

    #[inline]
    fn entry_index(&self, slot: usize, page: usize) -> usize {
        slot * self.pages_per_block + page
    }

    /// Bit position of a page in the validity bitmap.
    #[inline]
    fn valid_bit(&self, slot: usize, page: usize) -> usize {
        slot * self.valid_words_per_block * 64 + page
    }

    #[inline]
    fn is_valid(&self, bit: usize) -> bool {
        (self.valid[bit >> 6] >> (bit & 63)) & 1 != 0
    }

    /// Asks the CPU to start loading what invalidating a page touches: its validity word (no
    /// effect where prefetch is unavailable).
    #[inline]
    pub fn prefetch(&self, block: usize, page: usize) {
        if let Some(slot) = self.slot(block) {
            prefetch_read(self.valid.as_ptr().wrapping_add(self.valid_bit(slot, page) >> 6));
        }
    }

    /// A page's record; its owner is [`INVALID_PAGE`] unless the page holds current data.
    #[inline]
    pub fn get(&self, block: usize, page: usize) -> Option<PageEntry> {
        let slot = self.slot(block)?;
        let mut entry = self.entries[self.entry_index(slot, page)];
        if !self.is_valid(self.valid_bit(slot, page)) {
            entry.owner = INVALID_PAGE;
        }
        Some(entry)
    }

    #[inline]
    pub fn owner(&self, block: usize, page: usize) -> u32 {
        self.get(block, page).map_or(INVALID_PAGE, |entry| entry.owner)
    }

    /// Marks a page as no longer holding current data.
    #[inline]
    pub fn invalidate(&mut self, block: usize, page: usize) {
        if let Some(slot) = self.slot(block) {
            let bit = self.valid_bit(slot, page);
            self.valid[bit >> 6] &= !(1u64 << (bit & 63));
        }
    }

    /// Records a program at an address `ensure` gave; the page becomes valid.
    #[inline]
    pub fn record_program_at(&mut self, address: RecordAddress, owner: u32, program_time_ms: u32, tag: u32) {
        let (slot, page) = (address.slot as usize, address.page as usize);
        let index = self.entry_index(slot, page);
        self.entries[index] = PageEntry { owner, program_time_ms };
        let bit = self.valid_bit(slot, page);
        self.valid[bit >> 6] |= 1u64 << (bit & 63);
        if self.with_tags {
            self.tags[index] = tag;
        }
    }

    /// Sets a recorded page's program time (no effect on a block without records).
    pub fn set_program_time(&mut self, block: usize, page: usize, program_time_ms: u32) {
        if let Some(slot) = self.slot(block) {
            let index = self.entry_index(slot, page);
            self.entries[index].program_time_ms = program_time_ms;
        }
    }

    #[inline]
    pub fn tag(&self, block: usize, page: usize) -> u32 {
        match self.slot(block) {
            Some(slot) if self.with_tags => self.tags[self.entry_index(slot, page)],
            _ => 0,
        }
    }

    /// Owners of a block's pages, [`INVALID_PAGE`] where a page holds no current data (empty if the
    /// block was never opened).
    pub fn owners(&self, block: usize) -> impl Iterator<Item = u32> + '_ {
        let (slot, pages) = match self.slot(block) {
            Some(slot) => (slot, self.pages_per_block),
            None => (0, 0),
        };
        (0..pages).map(move |page| {
            if self.is_valid(self.valid_bit(slot, page)) {
                self.entries[self.entry_index(slot, page)].owner
            } else {
                INVALID_PAGE
            }
        })
    }

    /// Marks every page of a block invalid (after erase).
    pub fn reset(&mut self, block: usize) {
        if let Some(slot) = self.slot(block) {
            let first = slot * self.valid_words_per_block;
            self.valid[first..first + self.valid_words_per_block].fill(0);
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.slot_of_block.capacity() * 4
            + self.free_slots.capacity() * 4
            + self.entries.capacity() * std::mem::size_of::<PageEntry>()
            + self.valid.capacity() * 8
            + self.tags.capacity() * 4) as u64
    }
}

/// A cache prefetch hint for `pointer` (a hint only: never faults, no effect on results).
#[inline(always)]
pub fn prefetch_read<T>(pointer: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: _mm_prefetch is a hint; it does not dereference the pointer architecturally and cannot
    // fault, whatever the address. SSE is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch(pointer as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = pointer;
}

/// Read-only view of one plane's blocks, given to victim and wear-leveling policies.
pub struct PlaneView<'a> {
    pub blocks: &'a [BlockInfo],
    /// Block keys (valid pages, plus [`FULL`] once full), parallel to `blocks`.
    pub keys: &'a [u16],
    pub pages_per_block: u32,
    pub now_ns: u64,
}

impl PlaneView<'_> {
    /// Valid pages of the block at `index` (within the plane).
    #[inline]
    pub fn valid_pages(&self, index: usize) -> u32 {
        (self.keys[index] & VALID_MASK) as u32
    }
    /// Whether the block at `index` is full (a garbage-collection candidate).
    #[inline]
    pub fn is_full(&self, index: usize) -> bool {
        self.keys[index] & FULL != 0
    }
}
