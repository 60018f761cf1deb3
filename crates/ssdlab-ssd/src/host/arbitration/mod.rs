//! Arbitration between submission queues: which queue the controller fetches its next command from
//! when a device slot is free and several queues have commands waiting.
//!
//! What it models: NVMe's arbitration mechanisms (the base specification's command arbitration),
//! one file each: round robin (`round_robin.rs`) and weighted round robin with an urgent class
//! (`weighted_round_robin.rs`). What it leaves out: the arbitration burst (one command per pick),
//! the admin queue's priority, and vendor-specific arbitration. Source: the NVMe base
//! specification; MQSim's `Host_Interface_NVMe` fetches by priority class the same way.

mod round_robin;
mod weighted_round_robin;

use crate::config::{ArbitrationKind, PriorityClass, QueuesConfig};
pub use round_robin::RoundRobin;
pub use weighted_round_robin::WeightedRoundRobin;

/// A policy that picks the next queue to fetch from.
pub trait Arbiter {
    /// The queue to fetch from, among those with a command waiting (`waiting[queue]`, at least one
    /// true); its state moves on as if that command was fetched.
    fn pick(&mut self, waiting: &[bool]) -> usize;
}

/// The arbiter `queues` asks for, over queues of the given priority classes (one per queue).
pub fn build(queues: &QueuesConfig, classes: &[PriorityClass]) -> Box<dyn Arbiter> {
    match queues.arbitration {
        ArbitrationKind::RoundRobin => Box::new(RoundRobin::new(classes.len())),
        ArbitrationKind::WeightedRoundRobin => {
            Box::new(WeightedRoundRobin::new(classes, [queues.weight_high, queues.weight_medium, queues.weight_low]))
        }
    }
}

/// The first queue at or after `from` (cyclically) for which `eligible` holds.
pub(crate) fn next_from(from: usize, count: usize, eligible: impl Fn(usize) -> bool) -> Option<usize> {
    (0..count).map(|step| (from + step) % count).find(|&queue| eligible(queue))
}
