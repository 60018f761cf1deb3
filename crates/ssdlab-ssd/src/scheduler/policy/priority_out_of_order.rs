//! MQSim's `TSU_Priority_OutOfOrder` (src/ssd/TSU_Priority_OutOfOrder.cpp, 7ec40e3): the kinds in
//! `out_of_order`'s order, and among host reads (and, apart, host writes) the flows' priority
//! classes: urgent whenever it has work waiting, then high, medium and low by weighted round robin
//! with MQSim's weights 4, 2 and 1 (`IO_Flow_Priority_Class::get_scheduling_weight`), a round-robin
//! state per die for reads and one for writes. Oldest first within a class.
//!
//! Left out: as `out_of_order`. The suspension test (`goes_first`) ignores the round robin's turn:
//! a host read goes first when no kind ranked before it waits and no urgent read does.

use super::out_of_order::rank;
use super::{Candidate, OperationKind, SchedulingPolicy};
use crate::config::PriorityClass;

/// The round-robin order of the weighted classes, and their weights.
const CLASSES: [(PriorityClass, u32); 3] =
    [(PriorityClass::High, 4), (PriorityClass::Medium, 2), (PriorityClass::Low, 1)];

#[derive(Debug, Clone, Copy, Default)]
struct RoundRobin {
    /// Index in `CLASSES` of the class whose turn it is, and the picks it has left.
    turn: usize,
    credit: u32,
}

#[derive(Debug, Clone)]
pub struct PriorityOutOfOrder {
    /// Per die: (reads, writes).
    turns: Vec<[RoundRobin; 2]>,
}

impl PriorityOutOfOrder {
    pub fn new(dies: usize) -> Self {
        PriorityOutOfOrder { turns: vec![[RoundRobin { turn: 0, credit: CLASSES[0].1 }; 2]; dies] }
    }
}

impl SchedulingPolicy for PriorityOutOfOrder {
    fn pick(&mut self, die: u32, _now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> usize {
        let first = super::oldest_of_lowest_rank(waiting, |candidate| rank(candidate.kind, gc_urgent));
        let kind = waiting[first].kind;
        if !kind.is_host() {
            return first;
        }
        let oldest_of = |class: PriorityClass| {
            waiting
                .iter()
                .enumerate()
                .filter(|(_, candidate)| candidate.kind == kind && candidate.priority == class)
                .min_by_key(|(_, candidate)| candidate.sequence)
                .map(|(index, _)| index)
        };
        if let Some(index) = oldest_of(PriorityClass::Urgent) {
            return index;
        }
        let state = &mut self.turns[die as usize][(kind == OperationKind::HostWrite) as usize];
        for _ in 0..CLASSES.len() {
            let (class, _) = CLASSES[state.turn];
            if state.credit > 0 {
                if let Some(index) = oldest_of(class) {
                    state.credit -= 1;
                    if state.credit == 0 {
                        state.turn = (state.turn + 1) % CLASSES.len();
                        state.credit = CLASSES[state.turn].1;
                    }
                    return index;
                }
            }
            state.turn = (state.turn + 1) % CLASSES.len();
            state.credit = CLASSES[state.turn].1;
        }
        first
    }

    fn goes_first(
        &self,
        _die: u32,
        candidate: &Candidate,
        _now_ns: u64,
        waiting: &[Candidate],
        gc_urgent: bool,
    ) -> bool {
        let own = rank(candidate.kind, gc_urgent);
        waiting.iter().all(|other| {
            let other_rank = rank(other.kind, gc_urgent);
            other_rank > own
                || (other_rank == own
                    && candidate.kind.is_host()
                    && candidate.priority == PriorityClass::Urgent
                    && other.priority != PriorityClass::Urgent)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{candidate, OperationKind::*};
    use super::*;
    use crate::config::PriorityClass::*;

    #[test]
    fn urgent_first_then_high_medium_low_four_two_one() {
        let mut policy = PriorityOutOfOrder::new(1);
        let mut waiting: Vec<Candidate> = Vec::new();
        let mut sequence = 0;
        for class in [High, Medium, Low] {
            for _ in 0..10 {
                sequence += 1;
                waiting.push(candidate(HostRead, class, sequence));
            }
        }
        waiting.push(candidate(HostRead, Urgent, 100));
        let mut served = Vec::new();
        for _ in 0..8 {
            let index = policy.pick(0, 0, &waiting, false);
            served.push(waiting.remove(index).priority);
        }
        assert_eq!(served, [Urgent, High, High, High, High, Medium, Medium, Low]);
    }

    #[test]
    fn an_empty_class_passes_its_turn_and_other_kinds_keep_their_order() {
        let mut policy = PriorityOutOfOrder::new(1);
        let waiting = [candidate(HostRead, Low, 5), candidate(HostWrite, High, 1)];
        assert_eq!(policy.pick(0, 0, &waiting, false), 0);
        let gc = [candidate(HostRead, Urgent, 5), candidate(GcRead, Low, 1)];
        assert_eq!(policy.pick(0, 0, &gc, true), 1);
        assert!(policy.goes_first(0, &candidate(HostRead, Urgent, 9), 0, &[candidate(HostRead, High, 1)], false));
        assert!(!policy.goes_first(0, &candidate(HostRead, High, 9), 0, &[candidate(HostRead, High, 1)], false));
    }
}
