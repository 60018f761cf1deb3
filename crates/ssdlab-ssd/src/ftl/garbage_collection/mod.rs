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
}

pub fn build(kind: VictimPolicyKind) -> Box<dyn VictimPolicy> {
    match kind {
        VictimPolicyKind::Greedy => Box::new(Greedy),
        VictimPolicyKind::RoundRobin => Box::new(RoundRobin),
        VictimPolicyKind::CostBenefit => Box::new(CostBenefit),
    }
}
