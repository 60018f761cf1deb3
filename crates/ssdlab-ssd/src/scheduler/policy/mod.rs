//! Transaction scheduling policies: which of the operations waiting for a free die it serves next
//! (`scheduler.policy`; MQSim's `TSU_*` classes). One file per policy; the queues they choose from
//! are `../die_queues.rs`.
//!
//! A policy sees each waiting operation's kind (host, mapping-table or garbage-collection read,
//! write or erase), its flow's priority class and its age (a sequence number), its flow, when it
//! started waiting and an estimate of its die time, the clock, and whether garbage collection is
//! urgent on the die (MQSim's `GC_is_in_urgent_mode`: always when GC is not preemptible, else when a
//! plane of the die is below the hard threshold); it is told of every operation that asks for a die
//! (`arrived`), queued or not. Left out: MQSim's per-channel round robin over chips (ssdlab's
//! channels are booked first come, first served).

mod fifo;
mod flin;
mod out_of_order;
mod priority_out_of_order;

pub use fifo::Fifo;
pub use flin::Flin;
pub use out_of_order::OutOfOrder;
pub use priority_out_of_order::PriorityOutOfOrder;

use crate::config::{PriorityClass, SchedulerConfig, SchedulingPolicyKind};

/// The flow of an operation that no host flow asked for (the controller's own, or unknown).
pub const NO_FLOW: u8 = u8::MAX;

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
    /// The host flow (index in `host.flows`) of a host operation, else [`NO_FLOW`].
    pub flow: u8,
    /// When it started waiting (a resumed operation: when it was suspended), ns.
    pub since_ns: u64,
    /// Its estimated die time, ns (the die's tier's lower-page read plus one page's transfer,
    /// lower-page program, or erase; a resumed operation: the time it had left).
    pub service_ns: u64,
}

/// A die's choice among its waiting operations.
pub trait SchedulingPolicy {
    /// The index in `waiting` (not empty) of the operation the die serves next, at `now_ns`.
    fn pick(&mut self, die: u32, now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> usize;
    /// Whether `candidate` would be served before every operation in `waiting` on `die` (a read that would
    /// not be served next does not suspend the die's program or erase).
    fn goes_first(&self, die: u32, candidate: &Candidate, now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> bool;
    /// `candidate` asked for `die` at `now_ns` (whether it waits or runs at once; not told again
    /// when it is granted or resumed). Only FLIN counts these.
    fn arrived(&mut self, _die: u32, _now_ns: u64, _candidate: &Candidate) {}
}

/// The configured policy (an enum: asked once per die operation in queued mode).
#[derive(Debug, Clone)]
pub enum Policy {
    Fifo(Fifo),
    OutOfOrder(OutOfOrder),
    PriorityOutOfOrder(PriorityOutOfOrder),
    Flin(Box<Flin>),
}

impl Policy {
    /// The policy `config` names on `dies` dies of `page_bytes` pages (FLIN's intensity thresholds
    /// are per die and counted in pages).
    pub fn new(config: &SchedulerConfig, dies: usize, page_bytes: u64) -> Policy {
        match config.policy {
            SchedulingPolicyKind::Fifo => Policy::Fifo(Fifo),
            SchedulingPolicyKind::OutOfOrder => Policy::OutOfOrder(OutOfOrder),
            SchedulingPolicyKind::PriorityOutOfOrder => Policy::PriorityOutOfOrder(PriorityOutOfOrder::new(dies)),
            SchedulingPolicyKind::Flin => Policy::Flin(Box::new(Flin::new(&config.flin, dies, page_bytes))),
        }
    }
}

impl SchedulingPolicy for Policy {
    fn pick(&mut self, die: u32, now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> usize {
        match self {
            Policy::Fifo(policy) => policy.pick(die, now_ns, waiting, gc_urgent),
            Policy::OutOfOrder(policy) => policy.pick(die, now_ns, waiting, gc_urgent),
            Policy::PriorityOutOfOrder(policy) => policy.pick(die, now_ns, waiting, gc_urgent),
            Policy::Flin(policy) => policy.pick(die, now_ns, waiting, gc_urgent),
        }
    }
    fn goes_first(&self, die: u32, candidate: &Candidate, now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> bool {
        match self {
            Policy::Fifo(policy) => policy.goes_first(die, candidate, now_ns, waiting, gc_urgent),
            Policy::OutOfOrder(policy) => policy.goes_first(die, candidate, now_ns, waiting, gc_urgent),
            Policy::PriorityOutOfOrder(policy) => policy.goes_first(die, candidate, now_ns, waiting, gc_urgent),
            Policy::Flin(policy) => policy.goes_first(die, candidate, now_ns, waiting, gc_urgent),
        }
    }
    fn arrived(&mut self, die: u32, now_ns: u64, candidate: &Candidate) {
        if let Policy::Flin(policy) = self {
            policy.arrived(die, now_ns, candidate);
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
    Candidate { kind, priority, sequence, flow: 0, since_ns: 0, service_ns: 1 }
}
