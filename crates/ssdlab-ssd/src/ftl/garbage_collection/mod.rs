//! Garbage-collection victim selection. One file per policy; a policy only chooses, the FTL copies
//! and erases. Choosing has no side effects, so the FTL can name its next victim ahead of time (the
//! LBA scrambler of seed 003 needs that).

mod cost_benefit;
mod greedy;
mod round_robin;

pub use cost_benefit::CostBenefit;
pub use greedy::Greedy;
pub use round_robin::RoundRobin;

use super::block_manager::PlaneView;
use crate::config::VictimPolicyKind;

pub trait VictimPolicy: Send + Sync {
    fn name(&self) -> &'static str;
    /// The block (index within the plane) to collect next among full blocks, or None if none is full.
    fn select(&self, plane: &PlaneView<'_>) -> Option<u32>;

    /// The next `count` blocks (indices within the plane) in the order this policy would collect
    /// them if nothing changed meanwhile: `rank(plane, 1)` is `select(plane)`. A middleware that
    /// steers writes into the blocks GC takes next (seed 003) looks this far ahead, since one GC
    /// invocation may collect a run of blocks (`collector::in_place`: until the high watermark).
    fn rank(&self, plane: &PlaneView<'_>, count: usize) -> Vec<u32>;
}

/// The `count` smallest full blocks of `plane` by `key` (ties: lower index), in order.
pub(super) fn smallest_full<K: Ord>(plane: &PlaneView<'_>, count: usize, key: impl Fn(usize) -> K) -> Vec<u32> {
    let mut full: Vec<(K, u32)> =
        (0..plane.keys.len()).filter(|&index| plane.is_full(index)).map(|index| (key(index), index as u32)).collect();
    if count < full.len() {
        if count == 0 {
            return Vec::new();
        }
        full.select_nth_unstable(count - 1);
        full.truncate(count);
    }
    full.sort_unstable();
    full.into_iter().map(|(_, index)| index).collect()
}

pub fn build(kind: VictimPolicyKind) -> Box<dyn VictimPolicy> {
    match kind {
        VictimPolicyKind::Greedy => Box::new(Greedy),
        VictimPolicyKind::RoundRobin => Box::new(RoundRobin),
        VictimPolicyKind::CostBenefit => Box::new(CostBenefit),
    }
}
