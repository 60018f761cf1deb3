//! Dynamic wear leveling: open the free block with the fewest erases (ties: earliest freed).

use super::FreeBlockPolicy;
use crate::ftl::block_manager::BlockInfo;
use crate::ftl::free_list::FreeList;

pub struct LeastWorn;

impl FreeBlockPolicy for LeastWorn {
    fn name(&self) -> &'static str {
        "least_worn"
    }
    fn take(&self, free: &mut FreeList, blocks: &[BlockInfo]) -> Option<u32> {
        let position =
            free.iter().enumerate().min_by_key(|&(position, block)| (blocks[block as usize].erase_count, position))?.0;
        free.remove(position)
    }
}
