//! Per-block state: erase count, valid and written pages, and, for blocks that have ever been
//! written, each page's logical owner, program time (for retention) and optional integrity tag.
//!
//! Page-level arrays are allocated the first time a block is opened, so a drive that a workload barely
//! touches costs 32 bytes per block plus 8-12 bytes per written page.

use crate::geometry::Lpn;

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
    pub valid_pages: u32,
    pub written_pages: u32,
    pub state: BlockState,
    /// Time of the most recent page program (for cost-benefit age).
    pub last_write_ns: u64,
    /// Order in which blocks became full (round-robin GC collects the oldest first).
    pub sealed_sequence: u64,
}

impl BlockInfo {
    pub fn fresh() -> Self {
        BlockInfo { erase_count: 0, valid_pages: 0, written_pages: 0, state: BlockState::Free, last_write_ns: 0, sealed_sequence: 0 }
    }
}

/// Page-level arrays of one block.
#[derive(Debug, Clone)]
pub struct BlockPages {
    /// Logical page stored in each physical page, or [`INVALID_PAGE`].
    pub owner: Vec<u32>,
    /// Program time of each page in milliseconds of simulated time (saturating at ~49 days).
    pub program_time_ms: Vec<u32>,
    /// Integrity tag of each page's data (empty unless the oracle is on).
    pub tags: Vec<u32>,
}

impl BlockPages {
    pub fn new(pages_per_block: u32, with_tags: bool) -> Self {
        let n = pages_per_block as usize;
        BlockPages { owner: vec![INVALID_PAGE; n], program_time_ms: vec![0; n], tags: if with_tags { vec![0; n] } else { Vec::new() } }
    }

    pub fn owner_of(&self, page: u32) -> Option<Lpn> {
        let owner = self.owner[page as usize];
        (owner != INVALID_PAGE).then_some(Lpn(owner))
    }

    pub fn reset(&mut self) {
        self.owner.fill(INVALID_PAGE);
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.owner.capacity() * 4 + self.program_time_ms.capacity() * 4 + self.tags.capacity() * 4) as u64
    }
}

/// Read-only view of one plane's blocks, given to victim and wear-leveling policies.
pub struct PlaneView<'a> {
    pub blocks: &'a [BlockInfo],
    pub pages_per_block: u32,
    pub now_ns: u64,
}
