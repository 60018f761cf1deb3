//! The longest host-visible stall: the longest interval during which at least one host request had
//! arrived and was not done, and no request completed. (The largest latency bounds it from below
//! only when requests overlap; a device-wide suspension or a long background job shows here as one
//! interval however many requests it holds.)
//!
//! Completions are learned out of time order (when a request's last stage is booked), but none
//! earlier than the simulation clock is learned later, so they are taken in time order up to the
//! clock; the rest at the end of the run. Kept only for devices with tiers or events, where it is
//! reported; the one-tier hot path does not pay for it.

use ssdlab_engine::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Debug, Default)]
pub struct StallTracker {
    /// (completion, arrival) of requests whose completion is known but not yet taken in order.
    pending: BinaryHeap<Reverse<(u64, u64)>>,
    last_completion: u64,
    longest_ns: u64,
}

impl StallTracker {
    pub fn record(&mut self, completion: SimTime, arrival: SimTime) {
        self.pending.push(Reverse((completion.0, arrival.0)));
    }

    /// Takes, in time order, the completions at or before `clock`.
    pub fn advance(&mut self, clock: SimTime) {
        while let Some(&Reverse((completion, arrival))) = self.pending.peek() {
            if completion > clock.0 {
                break;
            }
            self.pending.pop();
            // Waiting since the later of its arrival and the previous completion.
            let since = arrival.max(self.last_completion);
            self.longest_ns = self.longest_ns.max(completion.saturating_sub(since));
            self.last_completion = self.last_completion.max(completion);
        }
    }

    /// Takes every remaining completion; returns the longest stall in ns.
    pub fn finish(&mut self) -> u64 {
        self.advance(SimTime(u64::MAX));
        self.longest_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_gap_without_a_completion_while_a_request_waits() {
        let mut stalls = StallTracker::default();
        // Arrivals 0, 0, 50; completions 10, 40, 100 (learned out of order, none before the clock
        // late). Gaps with a request waiting: 0-10, 10-40, 50-100 (the third arrived at 50, after
        // the completion at 40).
        stalls.record(SimTime(40), SimTime(0));
        stalls.record(SimTime(10), SimTime(0));
        stalls.advance(SimTime(5));
        stalls.record(SimTime(100), SimTime(50));
        stalls.advance(SimTime(45));
        assert_eq!(stalls.longest_ns, 30, "0-10, then 10-40");
        assert_eq!(stalls.finish(), 50);
    }
}
