//! Wear leveling by choice of the next free block to open. One file per policy.

mod least_worn;
mod round_robin;

pub use least_worn::LeastWorn;
pub use round_robin::RoundRobin;

use super::block_manager::BlockInfo;
use super::free_list::FreeList;
use crate::config::WearLevelingKind;

pub trait FreeBlockPolicy: Send + Sync {
    fn name(&self) -> &'static str;
    /// Removes and returns the next block (index within the plane) to open from the plane's free list.
    fn take(&self, free: &mut FreeList, blocks: &[BlockInfo]) -> Option<u32>;
}

pub fn build(kind: WearLevelingKind) -> Box<dyn FreeBlockPolicy> {
    match kind {
        WearLevelingKind::RoundRobin => Box::new(RoundRobin),
        WearLevelingKind::LeastWorn => Box::new(LeastWorn),
    }
}
