//! A single-server resource booked ahead of time.
//!
//! The simulator processes host requests in arrival order and books, for each flash operation, the
//! earliest interval on each resource (die, channel) where it fits. Booking into an idle gap before an
//! already-booked later interval is allowed, so a die that finishes sensing early can use a bus slot
//! that lies before a transfer booked by an earlier request. Intervals that end at or before the
//! current host time can no longer matter and are pruned, which keeps the list short.
//!
//! When a resource is backlogged, the gap search is bounded ([`Timeline::GAP_SEARCH_LIMIT`]) and the
//! operation is appended at the tail; abutting intervals are merged. Under overload this degrades to
//! first-come-first-served, which is what a real controller queue does, and keeps booking O(1).

use crate::time::{SimDuration, SimTime};

#[derive(Debug, Clone, Default)]
pub struct Timeline {
    /// Busy intervals before the last one, [start, end), sorted, non-overlapping, non-abutting;
    /// live from `head` on. (A Vec with a moving head: pruning is O(1) amortised.)
    earlier: Vec<(u64, u64)>,
    head: usize,
    /// The last booked interval, [tail_start, tail_end) (0..0 before the first booking). Kept out of
    /// the list because nearly every booking starts at or after its start and only needs it.
    tail_start: u64,
    tail_end: u64,
    /// Total booked time, for utilisation statistics.
    booked_ns: u64,
}

impl Timeline {
    /// How many future intervals a booking inspects for a gap before appending at the tail.
    pub const GAP_SEARCH_LIMIT: usize = 16;
    /// Stored earlier intervals (history included) beyond which a booking first drops the history.
    const COMPACT_LENGTH: usize = 32;

    pub fn new() -> Self {
        Self::default()
    }

    /// Forget earlier intervals that ended at or before `now`; no later booking can start before
    /// `now`.
    #[inline]
    pub fn prune(&mut self, now: SimTime) {
        // Usually zero or one interval has just ended: take that step without a data-dependent
        // branch (it mispredicted on random workloads).
        if let Some(&(_, end)) = self.earlier.get(self.head) {
            self.head += (end <= now.0) as usize;
        }
        while self.head < self.earlier.len() && self.earlier[self.head].1 <= now.0 {
            self.head += 1;
        }
        if self.head == self.earlier.len() {
            self.earlier.clear();
            self.head = 0;
        } else if self.head >= 2 * Self::COMPACT_LENGTH && self.head * 2 >= self.earlier.len() {
            self.earlier.drain(..self.head);
            self.head = 0;
        }
    }

    /// Books `duration` at the earliest time at or after `earliest` where the resource is idle.
    /// `now` is the current host time (all bookings from now on start at or after it).
    /// Returns the start of the booked interval.
    #[inline(always)]
    pub fn book(&mut self, now: SimTime, earliest: SimTime, duration: SimDuration) -> SimTime {
        let length = duration.0;
        self.booked_ns += length;
        let candidate = earliest.0.max(now.0);
        if length == 0 {
            return SimTime(candidate);
        }
        // Fast path: at or after the start of the last interval, so no gap can be involved: the
        // booking starts at the candidate or, if that lies inside the last interval, at its end.
        // Whether a die or channel is busy is as random as the workload, so this path has no
        // data-dependent branch (mispredictions, not instructions, were its cost): the old last
        // interval is always written to the list and then kept or dropped by the list's length.
        if candidate >= self.tail_start {
            if self.earlier.len() >= Self::COMPACT_LENGTH {
                self.prune(now);
            }
            let start = candidate.max(self.tail_end);
            let end = start + length;
            // Everything booked has ended: the list is history.
            let history = self.tail_end <= now.0;
            // The booking abuts the last interval: extend it.
            let extend = start == self.tail_end;
            let kept = std::hint::select_unpredictable(history, 0, self.earlier.len()) + (!extend & !history) as usize;
            self.earlier.push((self.tail_start, self.tail_end));
            self.earlier.truncate(kept);
            self.head = std::hint::select_unpredictable(history, 0, self.head);
            self.tail_start = std::hint::select_unpredictable(extend, self.tail_start, start);
            self.tail_end = end;
            return SimTime(start);
        }
        self.book_before_tail(now, candidate, length)
    }

    /// The slow path of [`Timeline::book`]: the candidate start lies before the start of the last
    /// interval, so look for an idle gap that fits. One linear scan over the list with the last
    /// interval put back at its end (the live list is short: everything that ended before `now` is
    /// dropped on the way).
    #[inline(never)]
    fn book_before_tail(&mut self, now: SimTime, mut candidate: u64, length: u64) -> SimTime {
        // Put the last interval back at the end of the list, then drop history: intervals that
        // ended by `now` can never hold a later booking. (The last interval ends after the
        // candidate, so it is never dropped and the scan stops at it at the latest.)
        self.earlier.push((self.tail_start, self.tail_end));
        self.prune(now);
        let head = self.head;
        let busy = &mut self.earlier;
        let count = busy.len();
        let mut index = head;
        // Skip intervals that end at or before the candidate start.
        while index < count && busy[index].1 <= candidate {
            index += 1;
        }
        let limit = index + Self::GAP_SEARCH_LIMIT;
        while index < count {
            let (start, end) = busy[index];
            if candidate + length <= start {
                break;
            }
            candidate = candidate.max(end);
            index += 1;
            if index >= limit {
                candidate = candidate.max(self.tail_end);
                index = count;
                break;
            }
        }
        self.insert_at(index, candidate, candidate + length);
        // Take the last interval back out of the list.
        if let Some((start, end)) = self.earlier.pop() {
            self.tail_start = start;
            self.tail_end = end;
        }
        SimTime(candidate)
    }

    /// Inserts [start, end) at absolute position `index` of the list (at or after `head`), merging
    /// with abutting neighbours.
    #[inline(always)]
    fn insert_at(&mut self, index: usize, start: u64, end: u64) {
        let busy = &mut self.earlier;
        let merges_before = index > self.head && busy[index - 1].1 == start;
        let merges_after = index < busy.len() && busy[index].0 == end;
        match (merges_before, merges_after) {
            (true, true) => {
                busy[index - 1].1 = busy[index].1;
                busy.remove(index);
            }
            (true, false) => busy[index - 1].1 = end,
            (false, true) => busy[index].0 = start,
            (false, false) => {
                // Only a few intervals ever follow a gap, so shift them by hand rather than
                // through `Vec::insert`'s library memmove call.
                busy.push((start, end));
                let mut position = busy.len() - 1;
                while position > index {
                    busy[position] = busy[position - 1];
                    position -= 1;
                }
                busy[index] = (start, end);
            }
        }
    }

    /// True if nothing is booked at or after `time` (the resource has no queued work then).
    pub fn is_idle_from(&self, time: SimTime) -> bool {
        self.tail_end <= time.0
    }

    /// The time at which all booked work is finished.
    pub fn busy_until(&self) -> SimTime {
        SimTime(self.tail_end)
    }

    pub fn booked(&self) -> SimDuration {
        SimDuration(self.booked_ns)
    }

    /// Number of disjoint busy intervals currently remembered (for diagnostics).
    pub fn pending_intervals(&self) -> usize {
        self.intervals().count()
    }

    /// Iterator over remembered busy intervals, for invariant checks.
    pub fn intervals(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let tail = (self.tail_end > self.tail_start).then_some((self.tail_start, self.tail_end));
        self.earlier[self.head..].iter().copied().chain(tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn fills_gap_before_later_booking() {
        let mut line = Timeline::new();
        let a = line.book(SimTime(0), SimTime(100), SimDuration(10));
        assert_eq!(a, SimTime(100));
        let b = line.book(SimTime(0), SimTime(20), SimDuration(10));
        assert_eq!(b, SimTime(20));
        let c = line.book(SimTime(0), SimTime(95), SimDuration(10));
        assert_eq!(c, SimTime(110));
    }

    #[test]
    fn backlog_merges_into_one_interval() {
        let mut line = Timeline::new();
        for _ in 0..1000 {
            line.book(SimTime(0), SimTime(0), SimDuration(5));
        }
        assert_eq!(line.pending_intervals(), 1);
        assert_eq!(line.busy_until(), SimTime(5000));
    }

    /// The booking rule written plainly, without pruning or fast paths: skip intervals that end by
    /// the candidate start, take the first gap that fits among the next `GAP_SEARCH_LIMIT`
    /// intervals, else queue behind everything; abutting intervals are merged.
    fn reference_book(intervals: &mut Vec<(u64, u64)>, now: u64, earliest: u64, length: u64) -> u64 {
        let mut candidate = earliest.max(now);
        if length == 0 {
            return candidate;
        }
        let mut index = intervals.iter().position(|&(_, end)| end > candidate).unwrap_or(intervals.len());
        let first = index;
        while index < intervals.len() {
            let (start, end) = intervals[index];
            if candidate + length <= start {
                break;
            }
            candidate = candidate.max(end);
            index += 1;
            if index - first >= Timeline::GAP_SEARCH_LIMIT {
                candidate = candidate.max(intervals.last().map_or(0, |last| last.1));
                index = intervals.len();
                break;
            }
        }
        intervals.insert(index, (candidate, candidate + length));
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(intervals.len());
        for &(start, end) in intervals.iter() {
            match merged.last_mut() {
                Some(last) if last.1 == start => last.1 = end,
                _ => merged.push((start, end)),
            }
        }
        *intervals = merged;
        candidate
    }

    #[test]
    fn booking_inside_the_last_interval_queues_behind_it() {
        let mut line = Timeline::new();
        line.book(SimTime(0), SimTime(10), SimDuration(100));
        assert_eq!(line.book(SimTime(50), SimTime(50), SimDuration(5)), SimTime(110));
        assert_eq!(line.pending_intervals(), 1);
        assert_eq!(line.busy_until(), SimTime(115));
    }

    proptest! {
        #[test]
        fn bookings_match_the_plain_rule(
            ops in proptest::collection::vec((0u64..30, 0u64..300, 0u64..40), 1..300)
        ) {
            let mut line = Timeline::new();
            let mut reference = Vec::new();
            let mut now = 0u64;
            for (advance, delay, length) in ops {
                now += advance;
                let fast = line.book(SimTime(now), SimTime(now + delay), SimDuration(length)).0;
                let plain = reference_book(&mut reference, now, now + delay, length);
                prop_assert_eq!(fast, plain);
            }
        }

        #[test]
        fn bookings_never_overlap_and_never_start_early(
            ops in proptest::collection::vec((0u64..50, 0u64..200, 1u64..40), 1..200)
        ) {
            let mut line = Timeline::new();
            let mut now = 0u64;
            let mut booked: Vec<(u64, u64)> = Vec::new();
            for (advance, delay, length) in ops {
                now += advance;
                let start = line.book(SimTime(now), SimTime(now + delay), SimDuration(length)).0;
                prop_assert!(start >= now + delay);
                booked.push((start, start + length));
            }
            booked.sort();
            for pair in booked.windows(2) {
                prop_assert!(pair[0].1 <= pair[1].0, "overlap {:?}", pair);
            }
        }
    }
}
