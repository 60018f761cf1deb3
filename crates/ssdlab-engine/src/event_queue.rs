//! Pending events ordered by (time, sequence). Ties in time pop in scheduling order, which makes
//! every run with the same inputs produce the same event order (no reliance on heap internals).

use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// (time, sequence) packed into one integer (time in the high half), so an ordering is one compare.
struct Entry<E> {
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    fn time(&self) -> SimTime {
        SimTime((self.key >> 64) as u64)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest (time, sequence) first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

/// A min-queue of events keyed by simulated time, FIFO among equal times.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_sequence: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::new(), next_sequence: 0 }
    }
    pub fn with_capacity(capacity: usize) -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(capacity), next_sequence: 0 }
    }
    pub fn schedule(&mut self, time: SimTime, event: E) {
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        self.heap.push(Entry { key: ((time.0 as u128) << 64) | sequence as u128, event });
    }
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.heap.pop().map(|entry| (entry.time(), entry.event))
    }
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(Entry::time)
    }
    pub fn len(&self) -> usize {
        self.heap.len()
    }
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_then_sequence_order() {
        let mut queue = EventQueue::new();
        queue.schedule(SimTime(5), "b");
        queue.schedule(SimTime(1), "a");
        queue.schedule(SimTime(5), "c");
        queue.schedule(SimTime(3), "x");
        let order: Vec<_> = std::iter::from_fn(|| queue.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, vec!["a", "x", "b", "c"]);
    }
}
