//! Greedy: the full block with the fewest valid pages (least copying now). Ties go to the less worn
//! block, then the lower index, so the choice is deterministic.

use super::VictimPolicy;
use crate::ftl::block_manager::{BlockState, PlaneView};

pub struct Greedy;

impl VictimPolicy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn select(&self, plane: &PlaneView<'_>) -> Option<u32> {
        let mut best: Option<(u32, u32, u32)> = None;
        for (index, block) in plane.blocks.iter().enumerate() {
            if block.state != BlockState::Full {
                continue;
            }
            let key = (block.valid_pages, block.erase_count, index as u32);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
                if block.valid_pages == 0 && block.erase_count == 0 {
                    break;
                }
            }
        }
        best.map(|(_, _, index)| index)
    }
}
