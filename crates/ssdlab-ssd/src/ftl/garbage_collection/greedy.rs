//! Greedy: the full block with the fewest valid pages (least copying now). Ties go to the less worn
//! block, then the lower index, so the choice is deterministic.

use super::VictimPolicy;
use crate::ftl::block_manager::{PlaneView, NOT_FULL};

pub struct Greedy;

impl VictimPolicy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn select(&self, plane: &PlaneView<'_>) -> Option<u32> {
        // Fewest valid pages first (smallest key; free and open blocks carry the NOT_FULL flag and
        // sort after every full block), then fewest erases, then lowest index.
        let fewest = *plane.keys.iter().min()?;
        if fewest & NOT_FULL != 0 {
            return None;
        }
        let mut best: Option<(u32, usize)> = None;
        for (index, &key) in plane.keys.iter().enumerate() {
            if key == fewest {
                let erases = plane.blocks[index].erase_count;
                if best.is_none_or(|(e, _)| erases < e) {
                    best = Some((erases, index));
                }
            }
        }
        best.map(|(_, index)| index as u32)
    }
}
