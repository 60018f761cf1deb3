//! Per-block state: erase count, valid and written pages, and, for blocks that have ever been
//! written, each page's logical owner, program time (for retention) and optional integrity tag.
//!
//! Page-level records are allocated the first time a block is opened, so a drive that a workload barely
//! touches costs 32 bytes per block (plus a 2-byte valid count kept in its own dense array: it is
//! updated on every overwrite at a random block, and 256 KiB of counts stay in cache where 4 MiB of
//! block records would not) plus 8 bytes (12 with integrity tags) and one validity bit per page of
//! opened blocks.

/// Set in a block's key while the block is free or open, i.e. not a garbage-collection candidate.
/// A key is the block's valid-page count with this flag, so the smallest key in a plane belongs to
/// the full block with the fewest valid pages, and a policy can find it with one vectorisable
/// minimum over a dense u16 array instead of walking block records.
pub const NOT_FULL: u16 = 0x8000;
/// The valid-page count inside a block key.
pub const VALID_MASK: u16 = 0x7FFF;

/// Marks a page that holds no valid data.
pub const INVALID_PAGE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockState {
    Free,
    Open,
    Full,
}

#[derive(Debug, Clone, Copy)]
pub struct BlockInfo {
    pub erase_count: u32,
    pub written_pages: u32,
    pub state: BlockState,
    /// Time of the most recent page program (for cost-benefit age).
    pub last_write_ns: u64,
    /// Order in which blocks became full (round-robin GC collects the oldest first).
    pub sealed_sequence: u64,
}

impl BlockInfo {
    pub fn fresh() -> Self {
        BlockInfo { erase_count: 0, written_pages: 0, state: BlockState::Free, last_write_ns: 0, sealed_sequence: 0 }
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

const NO_SLOT: u32 = u32::MAX;

/// Where a page's record lives: its block's slot in the page table and the page within the block
/// (what a write frontier keeps so a program needs no slot lookup).
#[derive(Debug, Clone, Copy)]
pub struct RecordAddress {
    pub slot: u32,
    pub page: u32,
}

/// Page-level records of every block ever opened, in one slab: a block gets a slot of
/// `pages_per_block` entries the first time it is opened and keeps it. One indirection per lookup.
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
}

impl PageTable {
    pub fn new(blocks: usize, pages_per_block: u32, with_tags: bool) -> Self {
        PageTable {
            pages_per_block: pages_per_block as usize,
            valid_words_per_block: (pages_per_block as usize).div_ceil(64),
            slot_of_block: vec![NO_SLOT; blocks],
            entries: Vec::new(),
            valid: Vec::new(),
            tags: Vec::new(),
            with_tags,
        }
    }

    /// Gives `block` its page records if it has none yet; returns its slot.
    pub fn ensure(&mut self, block: usize) -> u32 {
        if self.slot_of_block[block] == NO_SLOT {
            self.slot_of_block[block] = (self.entries.len() / self.pages_per_block) as u32;
            self.entries.extend(std::iter::repeat_n(PageEntry { owner: INVALID_PAGE, program_time_ms: 0 }, self.pages_per_block));
            self.valid.extend(std::iter::repeat_n(0, self.valid_words_per_block));
            if self.with_tags {
                self.tags.extend(std::iter::repeat_n(0, self.pages_per_block));
            }
        }
        self.slot_of_block[block]
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
        (0..pages).map(move |page| if self.is_valid(self.valid_bit(slot, page)) { self.entries[self.entry_index(slot, page)].owner } else { INVALID_PAGE })
    }

    /// Marks every page of a block invalid (after erase).
    pub fn reset(&mut self, block: usize) {
        if let Some(slot) = self.slot(block) {
            let first = slot * self.valid_words_per_block;
            self.valid[first..first + self.valid_words_per_block].fill(0);
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.slot_of_block.capacity() * 4 + self.entries.capacity() * std::mem::size_of::<PageEntry>() + self.valid.capacity() * 8 + self.tags.capacity() * 4) as u64
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
    /// Block keys (valid pages, plus [`NOT_FULL`] unless full), parallel to `blocks`.
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
        self.keys[index] & NOT_FULL == 0
    }
}
