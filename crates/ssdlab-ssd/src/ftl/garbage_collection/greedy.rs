//! Greedy: the full block with the fewest valid pages (least copying now). Ties go to the less worn
//! block, then the lower index, so the choice is deterministic.

use super::VictimPolicy;
use crate::ftl::block_manager::{PlaneView, FULL};

pub struct Greedy;

impl VictimPolicy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn select(&self, plane: &PlaneView<'_>) -> Option<u32> {
        // Fewest valid pages first (smallest `key ^ FULL`: free and open blocks lack the FULL flag
        // and so sort after every full block), then fewest erases, then lowest index.
        let fewest = plane.keys.iter().map(|&key| key ^ FULL).min()?;
        if fewest & FULL != 0 {
            return None;
        }
        let mut best: Option<(u32, usize)> = None;
        for (index, &key) in plane.keys.iter().enumerate() {
            if key ^ FULL == fewest {
                let erases = plane.blocks[index].erase_count;
                if best.is_none_or(|(e, _)| erases < e) {
                    best = Some((erases, index));
                }
            }
        }
        best.map(|(_, index)| index as u32)
    }

    fn rank(&self, plane: &PlaneView<'_>, count: usize) -> Vec<u32> {
        super::smallest_full(plane, count, |index| (plane.valid_pages(index), plane.blocks[index].erase_count))
    }
}
