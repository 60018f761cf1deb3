//! First come, first served: the operation waiting longest goes next, whatever it is. With the
//! dies queued (for suspension), this is the order of the booking model.

use super::{Candidate, SchedulingPolicy};

#[derive(Debug, Clone, Copy, Default)]
pub struct Fifo;

impl SchedulingPolicy for Fifo {
    fn pick(&mut self, _die: u32, _now_ns: u64, waiting: &[Candidate], _gc_urgent: bool) -> usize {
        super::oldest_of_lowest_rank(waiting, |_| 0)
    }
    fn goes_first(
        &self,
        _die: u32,
        _candidate: &Candidate,
        _now_ns: u64,
        waiting: &[Candidate],
        _gc_urgent: bool,
    ) -> bool {
        waiting.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{candidate, OperationKind::*};
    use super::*;
    use crate::config::PriorityClass::*;

    #[test]
    fn the_oldest_goes_first() {
        let waiting = [candidate(HostWrite, Low, 3), candidate(GcErase, Medium, 1), candidate(HostRead, Urgent, 2)];
        assert_eq!(Fifo.pick(0, 0, &waiting, false), 1);
        assert!(!Fifo.goes_first(0, &candidate(MappingRead, Urgent, 9), 0, &waiting, false));
        assert!(Fifo.goes_first(0, &candidate(MappingRead, Urgent, 9), 0, &[], false));
    }
}
