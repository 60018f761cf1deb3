//! A single-server resource (a NAND die, a channel bus) served first come, first served.
//!
//! The simulation processes everything in simulated-time order (a [`crate::MonotoneQueue`] of
//! (time, sequence)), and an operation is booked on a server only at the moment it becomes ready:
//! `book(now, duration)` starts it at `now` if the server is free, else when the work already
//! booked ends. Because bookings arrive in nondecreasing `now`, this is a FIFO queue by ready time,
//! and it is work-conserving: the server is idle at time t only if no operation ready at or before
//! t is waiting (such an operation would have been booked at its ready time, which precedes t, and
//! would have started by max(ready, free_at) <= t). `docs/architecture.md` (Time and contention)
//! gives the argument in full; the SSD model's tests check it on whole runs from a booking log.
//!
//! Left out: priorities (a booked operation is never reordered; the schedulers built on top keep
//! their own queues). Preemption is only the cut of the work booked last ([`Server::cut`]), which a
//! scheduler that suspends an operation uses.

use crate::time::{SimDuration, SimTime};

#[derive(Debug, Clone, Copy, Default)]
pub struct Server {
    /// When the work booked so far ends.
    free_at: u64,
    /// Total booked time, for utilisation statistics.
    booked_ns: u64,
    /// The latest `now` a booking was made at (bookings must not go back in time).
    #[cfg(debug_assertions)]
    last_now: u64,
}

impl Server {
    pub fn new() -> Self {
        Self::default()
    }

    /// Books `duration` for an operation that became ready at `now`; returns its start.
    /// `now` must not decrease from one booking to the next.
    #[inline(always)]
    pub fn book(&mut self, now: SimTime, duration: SimDuration) -> SimTime {
        #[cfg(debug_assertions)]
        {
            debug_assert!(now.0 >= self.last_now, "booking at {} after a booking at {}", now.0, self.last_now);
            self.last_now = now.0;
        }
        let start = now.0.max(self.free_at);
        self.free_at = start + duration.0;
        self.booked_ns += duration.0;
        SimTime(start)
    }

    /// Cuts the booked work short at `at` (a suspended operation): the server is free from `at`, and
    /// the time cut off no longer counts as booked. Returns how much was cut (0 if the work had ended).
    pub fn cut(&mut self, at: SimTime) -> SimDuration {
        let cut = self.free_at.saturating_sub(at.0);
        self.free_at -= cut;
        self.booked_ns -= cut;
        SimDuration(cut)
    }

    /// True if all booked work has ended by `time` (nothing queued then).
    #[inline]
    pub fn is_idle_at(&self, time: SimTime) -> bool {
        self.free_at <= time.0
    }

    /// The time at which all booked work is finished.
    #[inline]
    pub fn busy_until(&self) -> SimTime {
        SimTime(self.free_at)
    }

    pub fn booked(&self) -> SimDuration {
        SimDuration(self.booked_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn queues_behind_booked_work_and_starts_at_once_when_free() {
        let mut server = Server::new();
        assert_eq!(server.book(SimTime(10), SimDuration(100)), SimTime(10));
        assert_eq!(server.book(SimTime(50), SimDuration(5)), SimTime(110));
        assert_eq!(server.busy_until(), SimTime(115));
        assert_eq!(server.book(SimTime(200), SimDuration(5)), SimTime(200));
        assert_eq!(server.booked(), SimDuration(110));
        assert!(server.is_idle_at(SimTime(205)) && !server.is_idle_at(SimTime(204)));
    }

    #[test]
    fn a_cut_frees_the_server_and_unbooks_what_was_left() {
        let mut server = Server::new();
        server.book(SimTime(0), SimDuration(100));
        assert_eq!(server.cut(SimTime(30)), SimDuration(70));
        assert_eq!((server.busy_until(), server.booked()), (SimTime(30), SimDuration(30)));
        assert_eq!(server.cut(SimTime(50)), SimDuration(0));
        assert_eq!(server.book(SimTime(40), SimDuration(10)), SimTime(40));
    }

    proptest! {
        /// Work conservation: an operation that waits finds the server busy for its whole wait, and
        /// operations never overlap.
        #[test]
        fn never_idle_while_an_operation_waits(ops in proptest::collection::vec((0u64..60, 0u64..40), 1..300)) {
            let mut server = Server::new();
            let mut now = 0;
            let mut booked: Vec<(u64, u64, u64)> = Vec::new();
            for (advance, length) in ops {
                now += advance;
                let start = server.book(SimTime(now), SimDuration(length)).0;
                booked.push((now, start, start + length));
            }
            for pair in booked.windows(2) {
                prop_assert!(pair[0].2 <= pair[1].1);
            }
            for (index, &(ready, start, _)) in booked.iter().enumerate() {
                if start > ready {
                    // The operation booked just before ends exactly when this one starts, and the
                    // busy run reaches back past this one's ready time.
                    let mut covered_from = start;
                    for &(_, earlier_start, earlier_end) in booked[..index].iter().rev() {
                        if earlier_end < covered_from { break; }
                        covered_from = covered_from.min(earlier_start);
                    }
                    prop_assert!(covered_from <= ready, "idle before {start} while ready at {ready}");
                }
            }
        }
    }
}
