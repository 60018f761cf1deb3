//! Pending events ordered by (time, sequence) for a simulation whose clock never goes back: no event
//! is scheduled before the last one taken out. A radix heap (Ahuja, Mehlhorn, Orlin & Tarjan, 1990)
//! with 4-bit digits: an event goes into the bucket named by the highest digit in which its time
//! differs from the last time taken and its value there; taking the next event empties bucket 0 in
//! order, or, when it is empty, redistributes the lowest non-empty bucket around its minimum. Each
//! event moves down at most 16 times over its life, so operations are O(1) amortised (a binary heap
//! pays log n moves of the whole entry on every pop, which dominated deep backlogs).
//!
//! Ties pop in scheduling order: events of equal time always share a bucket, appended in the order
//! they were scheduled or moved together in that order, and bucket 0 is read front to back.
//!
//! While few events are pending (a lightly loaded device has a handful of operations in flight)
//! they are kept in a short sorted list instead, which costs fewer instructions than the buckets;
//! the list moves into the radix heap, in order, when it would grow past [`SMALL`], and is used
//! again once the heap is empty.

use crate::time::SimTime;

/// Times are compared in 4-bit digits: an event's bucket is named by the highest digit in which it
/// differs from the last time taken and by its value of that digit (16 digits x 16 values, plus
/// bucket 0 for the last time itself). A redistribution moves an event at least one digit down, so
/// an event moves at most 16 times (a base-2 heap: up to 64, and each move of a deep backlog misses
/// the cache).
const DIGIT_BITS: u32 = 4;
const DIGIT_VALUES: usize = 1 << DIGIT_BITS;
const BUCKETS: usize = 1 + (64 / DIGIT_BITS as usize) * DIGIT_VALUES;
const OCCUPIED_WORDS: usize = BUCKETS.div_ceil(64);
/// Events' worth of allocation an emptied bucket keeps.
const RETAINED_PER_BUCKET: usize = 1024;
/// Pending events kept in the sorted list at most.
pub const SMALL: usize = 16;

pub struct MonotoneQueue<E> {
    /// Sorted by time, equal times in scheduling order; live from `small_front` on. Used only while
    /// the radix heap is empty.
    small: Vec<(u64, E)>,
    small_front: usize,
    /// The time of the last event taken out (from either structure).
    clock: u64,
    radix: RadixHeap<E>,
}

impl<E> std::fmt::Debug for MonotoneQueue<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MonotoneQueue")
            .field("len", &(self.small.len() - self.small_front + self.radix.len))
            .field("clock", &self.clock)
            .finish()
    }
}

impl<E: Copy> Default for MonotoneQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> MonotoneQueue<E> {
    pub fn new() -> Self {
        MonotoneQueue { small: Vec::with_capacity(2 * SMALL), small_front: 0, clock: 0, radix: RadixHeap::new() }
    }

    /// Schedules `event` at `time`, which must not precede the last event taken out (an earlier
    /// time is treated as that time, and is a bug in the caller).
    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: E) {
        debug_assert!(time.0 >= self.clock, "event at {} scheduled after one at {} was taken", time.0, self.clock);
        let time = time.0.max(self.clock);
        if self.radix.len == 0 {
            if self.small.len() - self.small_front < SMALL {
                if self.small_front > 0 && self.small.len() == self.small.capacity() {
                    self.small.drain(..self.small_front);
                    self.small_front = 0;
                }
                // One insertion-sort step from the back, after the last event at or before `time`
                // (new events are usually among the latest, so few move; no library memmove call).
                self.small.push((time, event));
                let mut index = self.small.len() - 1;
                while index > self.small_front && self.small[index - 1].0 > time {
                    self.small[index] = self.small[index - 1];
                    index -= 1;
                }
                self.small[index] = (time, event);
                return;
            }
            // Too many for the list: move them, in order, into the heap.
            self.radix.restart(self.clock);
            for index in self.small_front..self.small.len() {
                let (at, pending) = self.small[index];
                self.radix.schedule(SimTime(at), pending);
            }
            self.small.clear();
            self.small_front = 0;
        }
        self.radix.schedule(SimTime(time), event);
    }

    /// The earliest pending event's time. (Events may still be scheduled before it, at or after
    /// the last event taken out.)
    #[inline]
    pub fn peek_time(&mut self) -> Option<SimTime> {
        match self.small.get(self.small_front) {
            Some(&(time, _)) => Some(SimTime(time)),
            None => self.radix.peek_time(),
        }
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        if let Some(&(time, event)) = self.small.get(self.small_front) {
            self.small_front += 1;
            if self.small_front == self.small.len() {
                self.small.clear();
                self.small_front = 0;
            }
            self.clock = time;
            return Some((SimTime(time), event));
        }
        let taken = self.radix.pop();
        if let Some((time, _)) = taken {
            self.clock = time.0;
        }
        taken
    }

    pub fn len(&self) -> usize {
        self.small.len() - self.small_front + self.radix.len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The radix heap proper (see the module documentation).
struct RadixHeap<E> {
    buckets: Vec<Vec<(u64, E)>>,
    /// Bucket 0 (events at time `last`) is read from here on.
    front: usize,
    /// The time of the last event taken out.
    last: u64,
    len: usize,
    /// The earliest time in each bucket (u64::MAX when empty), kept as events arrive: finding the
    /// next time and redistributing a bucket then take one pass over it, not three (under a deep
    /// backlog buckets hold many thousands of events, and each pass missed the cache).
    minimum: [u64; BUCKETS],
    /// Bit b set when bucket b (b >= 1) is non-empty, so the lowest is a few counts of trailing
    /// zeros rather than a scan over the buckets.
    occupied: [u64; OCCUPIED_WORDS],
}

impl<E: Copy> RadixHeap<E> {
    fn new() -> Self {
        RadixHeap {
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            front: 0,
            last: 0,
            len: 0,
            minimum: [u64::MAX; BUCKETS],
            occupied: [0; OCCUPIED_WORDS],
        }
    }

    #[inline(always)]
    fn bucket_of(&self, time: u64) -> usize {
        let differing = time ^ self.last;
        if differing == 0 {
            return 0;
        }
        let digit = (63 - differing.leading_zeros()) / DIGIT_BITS;
        let value = (time >> (digit * DIGIT_BITS)) as usize & (DIGIT_VALUES - 1);
        1 + digit as usize * DIGIT_VALUES + value
    }

    #[inline(always)]
    fn mark(&mut self, bucket: usize) {
        self.occupied[bucket / 64] |= 1u64 << (bucket % 64);
    }

    /// An empty heap whose clock moves to `clock` (the last time taken from the list).
    fn restart(&mut self, clock: u64) {
        debug_assert_eq!(self.len, 0);
        self.buckets[0].clear();
        self.front = 0;
        self.last = clock;
        self.minimum = [u64::MAX; BUCKETS];
    }

    #[inline]
    fn schedule(&mut self, time: SimTime, event: E) {
        let time = time.0.max(self.last);
        let bucket = self.bucket_of(time);
        self.buckets[bucket].push((time, event));
        self.mark(bucket);
        self.minimum[bucket] = self.minimum[bucket].min(time);
        self.len += 1;
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
        self.occupied[lowest / 64] &= !(1u64 << (lowest % 64));
        let mut moving = std::mem::take(&mut self.buckets[lowest]);
        self.last = self.minimum[lowest];
        self.minimum[lowest] = u64::MAX;
        for &(time, event) in &moving {
            let bucket = self.bucket_of(time);
            self.buckets[bucket].push((time, event));
            self.mark(bucket);
            self.minimum[bucket] = self.minimum[bucket].min(time);
        }
        moving.clear();
        // Keep the emptied bucket's allocation, up to a bound: with 257 buckets, every bucket
        // keeping the largest size it ever reached under a deep backlog adds up to tens of MB.
        moving.shrink_to(RETAINED_PER_BUCKET);
        self.buckets[lowest] = moving;
    }

    /// The lowest non-empty bucket above 0.
    #[inline]
    fn lowest_occupied(&self) -> Option<usize> {
        for (index, &word) in self.occupied.iter().enumerate() {
            // Bucket 0 is read separately.
            let word = if index == 0 { word & !1 } else { word };
            if word != 0 {
                return Some(index * 64 + word.trailing_zeros() as usize);
            }
        }
        None
    }

    #[inline]
    fn peek_time(&mut self) -> Option<SimTime> {
        if self.len == 0 {
            return None;
        }
        if self.front < self.buckets[0].len() {
            return Some(SimTime(self.last));
        }
        // The lowest non-empty bucket holds the earliest events.
        let lowest = self.lowest_occupied()?;
        Some(SimTime(self.minimum[lowest]))
    }

    #[inline]
    fn pop(&mut self) -> Option<(SimTime, E)> {
        if self.len == 0 {
            return None;
        }
        self.settle();
        let (time, event) = self.buckets[0][self.front];
        self.front += 1;
        self.len -= 1;
        Some((SimTime(time), event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EventQueue;
    use proptest::prelude::*;

    proptest! {
        /// Same order as the binary heap ordered by (time, sequence), for any interleaving of
        /// schedules (never before the last time taken) and pops.
        #[test]
        fn matches_the_binary_heap(ops in proptest::collection::vec((any::<bool>(), 0u64..5, 0u64..1 << 20), 1..400)) {
            check_against_heap(ops)?;
        }

        /// The same with one pop per four operations, so the queue grows well past the sorted
        /// list and moves in and out of the radix heap.
        #[test]
        fn matches_the_binary_heap_when_deep(ops in proptest::collection::vec((0u8..4, 0u64..5, 0u64..1 << 40), 1..600)) {
            check_against_heap(ops.into_iter().map(|(kind, small, large)| (kind == 0, small, large)).collect())?;
        }
    }

    fn check_against_heap(ops: Vec<(bool, u64, u64)>) -> Result<(), TestCaseError> {
        let mut radix = MonotoneQueue::new();
        let mut heap = EventQueue::new();
        let mut now = 0u64;
        for (index, (pop, small, large)) in ops.into_iter().enumerate() {
            if pop {
                let (a, b) = (radix.pop(), heap.pop());
                prop_assert_eq!(a, b);
                if let Some((time, _)) = a {
                    now = time.0;
                }
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
        Ok(())
    }
}
