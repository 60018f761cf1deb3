//! Weighted round robin with an urgent class (NVMe command arbitration): a queue of the urgent
//! class with a command waiting is always served first (round robin among urgent queues); otherwise
//! the high, medium and low classes share the device in rounds: in a round each class may fetch up
//! to its weight in commands, high first, then medium, then low; a class with nothing waiting does
//! not hold the round up (it keeps what it has left until the round ends), and a new round starts
//! when no class with a command waiting has any share left. Within a class the queues take turns
//! (round robin). Leaves out: arbitration bursts and the admin queue. Source: NVMe base
//! specification; MQSim's `Priority_Class`.

use super::{next_from, Arbiter};
use crate::config::PriorityClass;

#[derive(Debug)]
pub struct WeightedRoundRobin {
    classes: Vec<PriorityClass>,
    /// Commands per round: high, medium, low.
    weights: [u32; 3],
    /// What is left of this round's share per class.
    credits: [u32; 3],
    /// Per class (urgent, high, medium, low): the queue whose turn it is next within the class.
    next: [usize; 4],
}

fn class_index(class: PriorityClass) -> usize {
    match class {
        PriorityClass::Urgent => 0,
        PriorityClass::High => 1,
        PriorityClass::Medium => 2,
        PriorityClass::Low => 3,
    }
}

impl WeightedRoundRobin {
    /// `weights`: high, medium, low, each at least 1 (the config checks it).
    pub fn new(classes: &[PriorityClass], weights: [u32; 3]) -> Self {
        WeightedRoundRobin { classes: classes.to_vec(), weights, credits: weights, next: [0; 4] }
    }

    /// The next queue of `class` with a command waiting, moving that class's turn on.
    fn take_from(&mut self, class: usize, waiting: &[bool]) -> Option<usize> {
        let classes = &self.classes;
        let queue =
            next_from(self.next[class], classes.len(), |queue| waiting[queue] && class_index(classes[queue]) == class)?;
        self.next[class] = (queue + 1) % classes.len();
        Some(queue)
    }
}

impl Arbiter for WeightedRoundRobin {
    fn pick(&mut self, waiting: &[bool]) -> usize {
        if let Some(queue) = self.take_from(0, waiting) {
            return queue;
        }
        for _round in 0..2 {
            for class in 1..4 {
                if self.credits[class - 1] == 0 {
                    continue;
                }
                if let Some(queue) = self.take_from(class, waiting) {
                    self.credits[class - 1] -= 1;
                    return queue;
                }
            }
            // Every class with a command waiting has spent its share: a new round.
            self.credits = self.weights;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PriorityClass::*;

    #[test]
    fn rounds_give_each_class_its_weight_high_first() {
        // Queue 0 high (weight 2), queue 1 low (weight 1), both always waiting: H H L H H L.
        let mut arbiter = WeightedRoundRobin::new(&[High, Low], [2, 1, 1]);
        let picks: Vec<usize> = (0..6).map(|_| arbiter.pick(&[true, true])).collect();
        assert_eq!(picks, [0, 0, 1, 0, 0, 1]);
    }

    #[test]
    fn urgent_queues_go_first_and_an_idle_class_forfeits_its_share() {
        let mut arbiter = WeightedRoundRobin::new(&[Urgent, Medium, Low], [1, 3, 1]);
        assert_eq!(arbiter.pick(&[true, true, true]), 0);
        assert_eq!(arbiter.pick(&[true, true, true]), 0, "strict priority");
        assert_eq!(arbiter.pick(&[false, false, true]), 2, "high and medium have nothing waiting");
        // Low has spent its share; medium has 3: M M M, then a new round.
        let picks: Vec<usize> = (0..4).map(|_| arbiter.pick(&[false, true, true])).collect();
        assert_eq!(picks, [1, 1, 1, 1]);
        assert_eq!(arbiter.pick(&[false, true, true]), 1);
        assert_eq!(arbiter.pick(&[false, true, true]), 1);
        assert_eq!(arbiter.pick(&[false, true, true]), 2);
    }
}
