//! The device's submission queue: at most `depth` host requests in the device at once (NVMe/SATA
//! queue depth in open loop; the closed loop's queue depth). A request that arrives while it is full
//! waits in the host queue, in arrival order, until a request completes; the wait is part of its
//! latency (open loop). The requests waiting are not held here: they are the trace's next requests,
//! read when a slot frees, so memory stays bounded by `depth` however deep the backlog.

use ssdlab_engine::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Debug)]
pub struct DeviceQueue {
    depth: usize,
    /// Requests admitted and not yet retired (completed at or before the latest issue time).
    in_flight: usize,
    /// Completion times known but not yet retired (earliest first). A binary heap: it stays small
    /// unless the queue is deep and full, and a radix heap cost more instructions at light load.
    completions: BinaryHeap<Reverse<u64>>,
    pub statistics: HostQueueStatistics,
}

/// What the bounded device queue did to the workload.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct HostQueueStatistics {
    /// The device queue depth in force (open loop: host.device_queue_depth; closed loop:
    /// host.queue_depth).
    pub device_queue_depth: u32,
    /// Requests that found the device queue full and waited in the host queue.
    pub requests_waited: u64,
    /// Mean host-queue wait over all requests.
    pub mean_wait_us: f64,
    pub max_wait_us: f64,
    /// The most requests in the device at once.
    pub max_in_flight: u64,
    #[serde(skip)]
    total_wait_ns: u128,
}

impl DeviceQueue {
    pub fn new(depth: u32) -> Self {
        let statistics = HostQueueStatistics { device_queue_depth: depth, ..HostQueueStatistics::default() };
        DeviceQueue { depth: depth.max(1) as usize, in_flight: 0, completions: BinaryHeap::new(), statistics }
    }

    /// Retires the requests completed by `time`; afterwards, [`DeviceQueue::is_full`] tells whether a
    /// request may be issued at `time`.
    #[inline]
    pub fn retire_until(&mut self, time: SimTime) {
        while let Some(&Reverse(completion)) = self.completions.peek() {
            if completion > time.0 {
                break;
            }
            self.completions.pop();
            self.in_flight -= 1;
        }
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.in_flight >= self.depth
    }

    /// The earliest known completion not yet retired (when full, the next slot frees then, unless
    /// work still running completes earlier).
    #[inline]
    pub fn earliest_completion(&self) -> Option<SimTime> {
        self.completions.peek().map(|&Reverse(time)| SimTime(time))
    }

    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Admits a request issued at `issue` that arrived at `arrival` (the host-queue wait is the
    /// difference). The caller checks [`DeviceQueue::is_full`] first.
    #[inline]
    pub fn admit(&mut self, arrival: SimTime, issue: SimTime) {
        debug_assert!(!self.is_full());
        let wait = issue.0.saturating_sub(arrival.0);
        if wait > 0 {
            self.statistics.requests_waited += 1;
            self.statistics.total_wait_ns += wait as u128;
            self.statistics.max_wait_us = self.statistics.max_wait_us.max(wait as f64 / 1e3);
        }
        self.in_flight += 1;
        self.statistics.max_in_flight = self.statistics.max_in_flight.max(self.in_flight as u64);
    }

    /// An admitted request will complete at `time`.
    #[inline]
    pub fn completes_at(&mut self, time: SimTime) {
        self.completions.push(Reverse(time.0));
    }

    /// The statistics with the mean filled in, over `requests` issued.
    pub fn summary(&self, requests: u64) -> HostQueueStatistics {
        let mut summary = self.statistics;
        summary.mean_wait_us = if requests > 0 { summary.total_wait_ns as f64 / requests as f64 / 1e3 } else { 0.0 };
        summary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_frees_a_slot_when_a_request_completes_and_counts_waits() {
        let mut queue = DeviceQueue::new(2);
        queue.admit(SimTime(0), SimTime(0));
        queue.admit(SimTime(5), SimTime(5));
        assert!(queue.is_full());
        queue.completes_at(SimTime(10));
        queue.retire_until(SimTime(9));
        assert!(queue.is_full());
        assert_eq!(queue.earliest_completion(), Some(SimTime(10)));
        queue.retire_until(SimTime(10));
        assert!(!queue.is_full());
        queue.admit(SimTime(6), SimTime(10));
        let summary = queue.summary(3);
        assert_eq!((summary.requests_waited, summary.max_in_flight, queue.in_flight()), (1, 2, 2));
        assert!((summary.max_wait_us - 0.004).abs() < 1e-12 && (summary.mean_wait_us - 0.004 / 3.0).abs() < 1e-12);
    }
}
