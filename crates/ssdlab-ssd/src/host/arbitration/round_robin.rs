//! Round robin arbitration: the queues with a command waiting are served in turn, one command each,
//! in queue order (NVMe command arbitration). Priority classes are ignored. Leaves out: arbitration
//! bursts.

use super::{next_from, Arbiter};

#[derive(Debug)]
pub struct RoundRobin {
    queues: usize,
    /// The queue whose turn it is next.
    next: usize,
}

impl RoundRobin {
    pub fn new(queues: usize) -> Self {
        RoundRobin { queues: queues.max(1), next: 0 }
    }
}

impl Arbiter for RoundRobin {
    fn pick(&mut self, waiting: &[bool]) -> usize {
        let queue = next_from(self.next, self.queues, |queue| waiting[queue]).unwrap_or(0);
        self.next = (queue + 1) % self.queues;
        queue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queues_take_turns_and_an_idle_queue_is_skipped() {
        let mut arbiter = RoundRobin::new(3);
        let all = [true, true, true];
        let picks: Vec<usize> = (0..4).map(|_| arbiter.pick(&all)).collect();
        assert_eq!(picks, [0, 1, 2, 0]);
        assert_eq!(arbiter.pick(&[true, false, true]), 2, "queue 1 has nothing waiting");
        assert_eq!(arbiter.pick(&[true, false, true]), 0);
    }
}
