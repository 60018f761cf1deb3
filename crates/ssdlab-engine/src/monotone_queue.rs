//! Pending events ordered by (time, sequence) for a simulation whose clock never goes back: no event
//! is scheduled before the last one taken out. A radix heap (Ahuja, Mehlhorn, Orlin & Tarjan, 1990):
//! an event goes into the bucket named by the highest bit in which its time differs from the last
//! time taken; taking the next event empties bucket 0 in order, or, when it is empty, redistributes
//! the lowest non-empty bucket around its minimum. Each event moves down at most 64 buckets over
//! its life, so operations are O(1) amortised (a binary heap pays log n moves of the whole entry
//! on every pop, which dominated deep backlogs).
//!
//! Ties pop in scheduling order: events of equal time always share a bucket, appended in the order
//! they were scheduled or moved together in that order, and bucket 0 is read front to back.

use crate::time::SimTime;

const BUCKETS: usize = 65;

pub struct MonotoneQueue<E> {
    buckets: Vec<Vec<(u64, E)>>,
    /// Bucket 0 (events at time `last`) is read from here on.
    front: usize,
    /// The time of the last event taken out.
    last: u64,
    len: usize,
    /// The earliest pending time when bucket 0 is empty, once computed (kept up to date by
    /// `schedule`; dropped when events are taken out).
    earliest: Option<u64>,
    /// Bit b set when bucket b (b >= 1) may be non-empty, so the lowest is one count of trailing
    /// zeros rather than a scan over the buckets.
    occupied: u128,
}

impl<E> std::fmt::Debug for MonotoneQueue<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MonotoneQueue").field("len", &self.len).field("last", &self.last).finish()
    }
}

impl<E: Copy> Default for MonotoneQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> MonotoneQueue<E> {
    pub fn new() -> Self {
        MonotoneQueue { buckets: (0..BUCKETS).map(|_| Vec::new()).collect(), front: 0, last: 0, len: 0, earliest: None, occupied: 0 }
    }

    #[inline(always)]
    fn bucket_of(&self, time: u64) -> usize {
        (64 - (time ^ self.last).leading_zeros()) as usize
    }

    /// Schedules `event` at `time`, which must not precede the last event taken out (an earlier
    /// time is treated as that time, and is a bug in the caller).
    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: E) {
        debug_assert!(time.0 >= self.last, "event at {} scheduled after one at {} was taken", time.0, self.last);
        let time = time.0.max(self.last);
        let bucket = self.bucket_of(time);
        self.buckets[bucket].push((time, event));
        self.occupied |= 1u128 << bucket;
        self.len += 1;
        if let Some(earliest) = self.earliest.as_mut() {
            *earliest = (*earliest).min(time);
        }
    }

    /// Makes bucket 0 hold the earliest events (if any are pending); moves `last` to their time,
    /// so only taking an event out may call it.
    #[inline]
    fn settle(&mut self) {
        if self.front < self.buckets[0].len() || self.len == 0 {
            return;
        }
        self.buckets[0].clear();
        self.front = 0;
        let Some(lowest) = self.lowest_occupied() else { return };
        self.occupied &= !(1u128 << lowest);
        let mut moving = std::mem::take(&mut self.buckets[lowest]);
        self.last = moving.iter().map(|&(time, _)| time).min().unwrap_or(self.last);
        for &(time, event) in &moving {
            let bucket = self.bucket_of(time);
            self.buckets[bucket].push((time, event));
            self.occupied |= 1u128 << bucket;
        }
        moving.clear();
        // Keep the emptied bucket's allocation.
        self.buckets[lowest] = moving;
    }

    /// The lowest non-empty bucket above 0.
    #[inline]
    fn lowest_occupied(&self) -> Option<usize> {
        let above_zero = self.occupied & !1;
        (above_zero != 0).then(|| above_zero.trailing_zeros() as usize)
    }

    /// The earliest pending event's time. (Events may still be scheduled before it, at or after
    /// the last event taken out.)
    #[inline]
    pub fn peek_time(&mut self) -> Option<SimTime> {
        if self.len == 0 {
            return None;
        }
        if self.front < self.buckets[0].len() {
            return Some(SimTime(self.last));
        }
        if self.earliest.is_none() {
            // The lowest non-empty bucket holds the earliest events.
            let lowest = self.lowest_occupied()?;
            self.earliest = self.buckets[lowest].iter().map(|&(time, _)| time).min();
        }
        self.earliest.map(SimTime)
    }

    /// The earliest pending event (the one `pop` would return), without taking it out.
    pub fn peek(&mut self) -> Option<(SimTime, E)> {
        if self.len == 0 {
            return None;
        }
        if let Some(&(time, event)) = self.buckets[0].get(self.front) {
            return Some((SimTime(time), event));
        }
        // Equal times keep their scheduling order within a bucket: the first of the earliest.
        let lowest = self.lowest_occupied()?;
        let bucket = &self.buckets[lowest];
        let earliest = bucket.iter().map(|&(time, _)| time).min()?;
        bucket.iter().find(|&&(time, _)| time == earliest).map(|&(time, event)| (SimTime(time), event))
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        if self.len == 0 {
            return None;
        }
        self.settle();
        self.earliest = None;
        let (time, event) = self.buckets[0][self.front];
        self.front += 1;
        self.len -= 1;
        Some((SimTime(time), event))
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EventQueue;
    use proptest::prelude::*;

    #[test]
    fn pops_in_time_then_sequence_order() {
        let mut queue = MonotoneQueue::new();
        queue.schedule(SimTime(5), "b");
        queue.schedule(SimTime(1), "a");
        queue.schedule(SimTime(5), "c");
        queue.schedule(SimTime(3), "x");
        let order: Vec<_> = std::iter::from_fn(|| queue.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, vec!["a", "x", "b", "c"]);
    }

    proptest! {
        /// Same order as the binary heap ordered by (time, sequence), for any interleaving of
        /// schedules (never before the last time taken) and pops.
        #[test]
        fn matches_the_binary_heap(ops in proptest::collection::vec((any::<bool>(), 0u64..5, 0u64..1 << 20), 1..400)) {
            let mut radix = MonotoneQueue::new();
            let mut heap = EventQueue::new();
            let mut now = 0u64;
            for (index, (pop, small, large)) in ops.into_iter().enumerate() {
                if pop {
                    let peeked = radix.peek();
                    let (a, b) = (radix.pop(), heap.pop());
                    prop_assert_eq!(peeked, a);
                    prop_assert_eq!(a, b);
                    if let Some((time, _)) = a { now = time.0; }
                } else {
                    // Many ties (small offsets) and far events (large ones).
                    let time = now + if index % 3 == 0 { large } else { small };
                    radix.schedule(SimTime(time), index);
                    heap.schedule(SimTime(time), index);
                }
                prop_assert_eq!(radix.len(), heap.len());
                prop_assert_eq!(radix.peek_time(), heap.peek_time());

            }
            while let Some(event) = heap.pop() {
                prop_assert_eq!(radix.pop(), Some(event));
            }
            prop_assert!(radix.pop().is_none());
        }
    }
}
