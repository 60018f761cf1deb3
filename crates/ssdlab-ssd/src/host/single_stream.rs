//! The one stream of `[workload]` through the bounded device queue: open loop issues each request
//! at its arrival (or when a slot frees), closed loop keeps `host.queue_depth` requests in the
//! device. Two requests of lookahead are kept so the loop can prefetch what they touch. Leaves out:
//! several flows and arbitration (`flows/`).

use super::device_queue::{DeviceQueue, HostQueueStatistics};
use super::submissions::{Finished, Submission, Submissions};
use super::RequestStream;
use crate::error::SimulationError;
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;

pub struct SingleStream {
    pub stream: RequestStream,
    queue: DeviceQueue,
    closed_loop: bool,
    next: Option<IoRequest>,
    after_next: Option<IoRequest>,
    /// Whether the lookahead has been read (on the first call of the replay).
    started: bool,
}

impl SingleStream {
    /// `depth`: the device queue (open loop: host.device_queue_depth; closed loop: host.queue_depth).
    pub fn new(stream: RequestStream, depth: u32, closed_loop: bool) -> Self {
        SingleStream {
            stream,
            queue: DeviceQueue::new(depth),
            closed_loop,
            next: None,
            after_next: None,
            started: false,
        }
    }

    /// Reads the two requests of lookahead (once, when the replay starts).
    pub fn start(&mut self) -> Result<(), SimulationError> {
        if !self.started {
            self.started = true;
            self.next = self.stream.next_request()?;
            self.after_next = self.stream.next_request()?;
        }
        Ok(())
    }
}

impl Submissions for SingleStream {
    fn expected_total(&self) -> u64 {
        self.stream.expected_total()
    }

    #[inline]
    fn has_next(&self) -> bool {
        self.next.is_some()
    }

    #[inline]
    fn issue_at(&mut self, now: SimTime) -> Option<SimTime> {
        let request = self.next.as_ref()?;
        let ready = if self.closed_loop { now } else { request.arrival.max(now) };
        self.queue.retire_until(ready);
        if self.queue.is_full() {
            self.queue.earliest_completion().map(|completion| completion.max(ready))
        } else {
            Some(ready)
        }
    }

    #[inline]
    fn take(&mut self, issue: SimTime) -> Result<Submission, SimulationError> {
        self.queue.retire_until(issue);
        let Some(request) = self.next else {
            return Err(SimulationError::Incomplete { generated: 0, completed: 0 });
        };
        self.next = self.after_next;
        self.after_next = self.stream.next_request()?;
        let latency_from = if self.closed_loop { issue } else { request.arrival };
        self.queue.admit(latency_from, issue);
        Ok(Submission { request, latency_from, flow: 0 })
    }

    #[inline]
    fn upcoming(&self) -> (Option<&IoRequest>, Option<&IoRequest>) {
        (self.next.as_ref(), self.after_next.as_ref())
    }

    #[inline]
    fn opened(&mut self, _submission: &Submission, _slot: u32) {}

    #[inline]
    fn completed(&mut self, finished: &Finished) {
        self.queue.completes_at(finished.completion);
    }

    fn queue_summary(&self, requests: u64) -> HostQueueStatistics {
        self.queue.summary(requests)
    }
}
