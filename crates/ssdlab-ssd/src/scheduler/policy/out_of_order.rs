//! MQSim's `TSU_OutofOrder` (src/ssd/TSU_OutofOrder.cpp, 7ec40e3): a chip serves reads before
//! writes and writes before erases; mapping-table reads first of all; host work before garbage
//! collection's copies unless GC is urgent on the die, when GC's reads, writes and erases go before
//! host reads and writes. Oldest first within a kind.
//!
//! Left out: MQSim's pairing of two queues into one multi-plane command (ssdlab's data path forms
//! multi-plane operations itself) and its per-channel round robin over chips.

use super::{Candidate, OperationKind, SchedulingPolicy};

#[derive(Debug, Clone, Copy, Default)]
pub struct OutOfOrder;

/// The order of the kinds (lower first).
pub(super) fn rank(kind: OperationKind, gc_urgent: bool) -> u8 {
    use OperationKind::*;
    if gc_urgent {
        match kind {
            MappingRead => 0,
            GcRead => 1,
            GcWrite => 2,
            GcErase => 3,
            HostRead => 4,
            MappingWrite => 5,
            HostWrite => 6,
        }
    } else {
        match kind {
            MappingRead => 0,
            HostRead => 1,
            MappingWrite => 2,
            HostWrite => 3,
            GcRead => 4,
            GcWrite => 5,
            GcErase => 6,
        }
    }
}

impl SchedulingPolicy for OutOfOrder {
    fn pick(&mut self, _die: u32, _now_ns: u64, waiting: &[Candidate], gc_urgent: bool) -> usize {
        super::oldest_of_lowest_rank(waiting, |candidate| rank(candidate.kind, gc_urgent))
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
        waiting.iter().all(|other| rank(other.kind, gc_urgent) > own)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{candidate, OperationKind::*};
    use super::*;
    use crate::config::PriorityClass::*;

    #[test]
    fn reads_before_writes_and_gc_first_only_when_urgent() {
        let waiting = [candidate(HostWrite, Medium, 1), candidate(GcRead, Medium, 2), candidate(HostRead, Medium, 3)];
        assert_eq!(OutOfOrder.pick(0, 0, &waiting, false), 2);
        assert_eq!(OutOfOrder.pick(0, 0, &waiting, true), 1);
        let mapping = [candidate(HostRead, Medium, 1), candidate(MappingRead, Medium, 5)];
        assert_eq!(OutOfOrder.pick(0, 0, &mapping, true), 1);
        // Oldest first within a kind.
        let reads = [candidate(HostRead, Medium, 7), candidate(HostRead, Medium, 4)];
        assert_eq!(OutOfOrder.pick(0, 0, &reads, false), 1);
    }

    #[test]
    fn a_read_goes_first_past_writes_but_not_past_an_older_read() {
        let writes = [candidate(HostWrite, Medium, 1), candidate(GcErase, Medium, 2)];
        assert!(OutOfOrder.goes_first(0, &candidate(HostRead, Medium, 9), 0, &writes, false));
        assert!(!OutOfOrder.goes_first(
            0,
            &candidate(HostRead, Medium, 9),
            0,
            &[candidate(HostRead, Medium, 1)],
            false
        ));
    }
}
