//! Cost-benefit (Rosenblum & Ousterhout, "The design and implementation of a log-structured file
//! system", 1992; Kawaguchi et al., 1995): maximise (1 - u) / (2u) x age, where u is the valid fraction
//! and age the time since the block was last written. Empty blocks are taken at once.

use super::VictimPolicy;
use crate::ftl::block_manager::PlaneView;

pub struct CostBenefit;

impl VictimPolicy for CostBenefit {
    fn name(&self) -> &'static str {
        "cost_benefit"
    }

    fn select(&self, plane: &PlaneView<'_>) -> Option<u32> {
        let mut best: Option<(f64, u32)> = None;
        for (index, block) in plane.blocks.iter().enumerate() {
            if !plane.is_full(index) {
                continue;
            }
            let valid = plane.valid_pages(index);
            if valid == 0 {
                return Some(index as u32);
            }
            let utilisation = valid as f64 / plane.pages_per_block as f64;
            // +1 ns keeps age positive so fully-valid young blocks still order by utilisation.
            let age = plane.now_ns.saturating_sub(block.last_write_ns) as f64 + 1.0;
            let score = (1.0 - utilisation) / (2.0 * utilisation) * age;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, index as u32));
            }
        }
        best.map(|(_, index)| index)
    }

    fn rank(&self, plane: &PlaneView<'_>, count: usize) -> Vec<u32> {
        // `select`'s order: empty-of-valid blocks first (lowest index), then the highest score
        // (ties: lowest index). Scores are finite and positive, so their bits order as the floats.
        super::smallest_full(plane, count, |index| {
            let valid = plane.valid_pages(index);
            if valid == 0 {
                return (0u8, 0u64);
            }
            let utilisation = valid as f64 / plane.pages_per_block as f64;
            let age = plane.now_ns.saturating_sub(plane.blocks[index].last_write_ns) as f64 + 1.0;
            let score = (1.0 - utilisation) / (2.0 * utilisation) * age;
            (1u8, u64::MAX - score.to_bits())
        })
    }
}
