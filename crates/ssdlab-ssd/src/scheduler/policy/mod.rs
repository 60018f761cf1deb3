//! Transaction scheduling policies: which of the operations waiting for a free die it serves next
//! (`scheduler.policy`; MQSim's `TSU_*` classes). One file per policy; the queues they choose from
//! are `../die_queues.rs`.
//!
//! A policy sees each waiting operation's kind (host, mapping-table or garbage-collection read,
//! write or erase), its flow's priority class and its age (a sequence number), and whether garbage
//! collection is urgent on the die (MQSim's `GC_is_in_urgent_mode`: always when GC is not
//! preemptible, else when a plane of the die is below the hard threshold). Left out: FLIN (refused
//! by the config), MQSim's per-channel round robin over chips (ssdlab's channels are booked first
//! come, first served).

mod fifo;
mod out_of_order;
mod priority_out_of_order;

pub use fifo::Fifo;
pub use out_of_order::OutOfOrder;
pub use priority_out_of_order::PriorityOutOfOrder;

use crate::config::{PriorityClass, SchedulingPolicyKind};

/// What a waiting die operation is, for the policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperationKind {
    MappingRead,
    HostRead,
    GcRead,
    MappingWrite,
    HostWrite,
    GcWrite,
    GcErase,
}

impl OperationKind {
    pub fn is_read(self) -> bool {
        matches!(self, OperationKind::MappingRead | OperationKind::HostRead | OperationKind::GcRead)
    }
    pub fn is_host(self) -> bool {
        matches!(self, OperationKind::HostRead | OperationKind::HostWrite)
    }
}

/// A waiting operation as a policy sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub kind: OperationKind,
    pub priority: PriorityClass,
    /// Smaller: waiting longer (suspended operations keep the number they first had).
    pub sequence: u64,
}

/// A die's choice among its waiting operations.
pub trait SchedulingPolicy {
    /// The index in `waiting` (not empty) of the operation the die serves next.
    fn pick(&mut self, die: u32, waiting: &[Candidate], gc_urgent: bool) -> usize;
    /// Whether `candidate` would be served before every operation in `waiting` (a read that would
    /// not be served next does not suspend the die's program or erase).
    fn goes_first(&self, candidate: &Candidate, waiting: &[Candidate], gc_urgent: bool) -> bool;
}

/// The configured policy (an enum: asked once per die operation in queued mode).
#[derive(Debug, Clone)]
pub enum Policy {
    Fifo(Fifo),
    OutOfOrder(OutOfOrder),
    PriorityOutOfOrder(PriorityOutOfOrder),
}

impl Policy {
    /// The policy of `kind` on `dies` dies (`kind` is validated: never FLIN).
    pub fn new(kind: SchedulingPolicyKind, dies: usize) -> Policy {
        match kind {
            SchedulingPolicyKind::OutOfOrder => Policy::OutOfOrder(OutOfOrder),
            SchedulingPolicyKind::PriorityOutOfOrder => Policy::PriorityOutOfOrder(PriorityOutOfOrder::new(dies)),
            SchedulingPolicyKind::Fifo | SchedulingPolicyKind::Flin => Policy::Fifo(Fifo),
        }
    }
}

impl SchedulingPolicy for Policy {
    fn pick(&mut self, die: u32, waiting: &[Candidate], gc_urgent: bool) -> usize {
        match self {
            Policy::Fifo(policy) => policy.pick(die, waiting, gc_urgent),
            Policy::OutOfOrder(policy) => policy.pick(die, waiting, gc_urgent),
            Policy::PriorityOutOfOrder(policy) => policy.pick(die, waiting, gc_urgent),
        }
    }
    fn goes_first(&self, candidate: &Candidate, waiting: &[Candidate], gc_urgent: bool) -> bool {
        match self {
            Policy::Fifo(policy) => policy.goes_first(candidate, waiting, gc_urgent),
            Policy::OutOfOrder(policy) => policy.goes_first(candidate, waiting, gc_urgent),
            Policy::PriorityOutOfOrder(policy) => policy.goes_first(candidate, waiting, gc_urgent),
        }
    }
}

/// The index of the candidate with the lowest `rank`, the oldest (smallest sequence) among equals.
pub(super) fn oldest_of_lowest_rank(waiting: &[Candidate], rank: impl Fn(&Candidate) -> u8) -> usize {
    let mut best = 0;
    for (index, candidate) in waiting.iter().enumerate().skip(1) {
        let (a, b) = (rank(candidate), rank(&waiting[best]));
        if a < b || (a == b && candidate.sequence < waiting[best].sequence) {
            best = index;
        }
    }
    best
}

#[cfg(test)]
pub(super) fn candidate(kind: OperationKind, priority: PriorityClass, sequence: u64) -> Candidate {
    Candidate { kind, priority, sequence }
}
