//! Round-robin wear leveling (seed 001 for NAND): free blocks are reused in the order they were
//! erased, so every block takes its turn and erase counts stay within a few cycles of each other
//! under uniform GC.

use super::FreeBlockPolicy;
use crate::ftl::block_manager::BlockInfo;
use crate::ftl::free_list::FreeList;

pub struct RoundRobin;

impl FreeBlockPolicy for RoundRobin {
    fn name(&self) -> &'static str {
        "round_robin"
    }
    fn take(&self, free: &mut FreeList, _blocks: &[BlockInfo]) -> Option<u32> {
        free.pop_front()
    }
}
