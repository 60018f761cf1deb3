//! Round-robin (seed 004, Fig. 6-7, the conventional scheme): blocks are collected in the order they
//! were filled, like a circular log, whatever their valid count.

use super::VictimPolicy;
use crate::ftl::block_manager::{BlockState, PlaneView};

pub struct RoundRobin;

impl VictimPolicy for RoundRobin {
    fn name(&self) -> &'static str {
        "round_robin"
    }

    fn select(&self, plane: &PlaneView<'_>) -> Option<u32> {
        plane
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.state == BlockState::Full)
            .min_by_key(|(index, b)| (b.sealed_sequence, *index))
            .map(|(index, _)| index as u32)
    }

    fn rank(&self, plane: &PlaneView<'_>, count: usize) -> Vec<u32> {
        super::smallest_full(plane, count, |index| plane.blocks[index].sealed_sequence)
    }
}
