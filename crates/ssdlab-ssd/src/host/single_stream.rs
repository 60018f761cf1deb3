//! The one stream of `[workload]` through the bounded device queue: open loop issues each request
//! at its arrival (or when a slot frees), closed loop keeps `host.queue_depth` requests in the
//! device. Two requests of lookahead are kept so the loop can prefetch what they touch. A synthetic
//! stream's stop time ends it: open loop, at its first arrival at or after it (the stream ends
//! itself, `RequestStream::with_arrivals_stopped`); closed loop, nothing is issued at or after it
//! (here: the host owns the clock). Leaves out: several flows and arbitration (`flows/`).

use super::device_queue::{DeviceQueue, HostQueueStatistics};
use super::submissions::{Finished, Submission, Submissions};
use super::RequestStream;
use crate::error::SimulationError;
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;

/// When a request may be issued: its own variant for a closed loop with a stop time, so the other
/// two pay nothing for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pacing {
    OpenLoop,
    ClosedLoop,
    /// Closed loop issuing nothing at or after this time.
    ClosedLoopUntil(SimTime),
}

pub struct SingleStream {
    pub stream: RequestStream,
    queue: DeviceQueue,
    pacing: Pacing,
    /// Closed loop with a stop time: whether, at the last look, the next request could only be
    /// issued at or after the stop (final once the run ends), and the lookahead dropped when the
    /// clock passed the stop.
    at_stop: bool,
    dropped_at_stop: u64,
    next: Option<IoRequest>,
    after_next: Option<IoRequest>,
    /// Whether the lookahead has been read (on the first call of the replay).
    started: bool,
}

impl SingleStream {
    /// `depth`: the device queue (open loop: host.device_queue_depth; closed loop: host.queue_depth).
    /// A synthetic stream's stop time applies: on arrivals in open loop, on issues in closed loop.
    pub fn new(stream: RequestStream, depth: u32, closed_loop: bool) -> Self {
        let (stream, pacing) = match (closed_loop, stream.stop_time_ns()) {
            (false, _) => (stream.with_arrivals_stopped(), Pacing::OpenLoop),
            (true, None) => (stream, Pacing::ClosedLoop),
            (true, Some(stop_ns)) => (stream, Pacing::ClosedLoopUntil(SimTime(stop_ns))),
        };
        SingleStream {
            stream,
            queue: DeviceQueue::new(depth),
            pacing,
            at_stop: false,
            dropped_at_stop: 0,
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

    /// Closed loop with a stop time: the issue time, or None when it would be at or after `stop`.
    /// With the clock at or past the stop the stream is over (its lookahead dropped); before it, a
    /// full queue whose earliest known completion is at or after the stop issues nothing yet (an
    /// event may still reveal an earlier completion: the loop asks again after each event).
    #[cold]
    #[inline(never)]
    fn issue_before(&mut self, now: SimTime, stop: SimTime) -> Option<SimTime> {
        if now >= stop {
            self.dropped_at_stop += self.next.take().is_some() as u64 + self.after_next.take().is_some() as u64;
            self.at_stop = true;
            return None;
        }
        self.queue.retire_until(now);
        let issue = if self.queue.is_full() { self.queue.earliest_completion().map(|c| c.max(now)) } else { Some(now) };
        // Full with no completion known yet: not known to be at the stop.
        self.at_stop = issue.is_some_and(|issue| issue >= stop);
        let issue = issue?;
        (!self.at_stop).then_some(issue)
    }
}

impl Submissions for SingleStream {
    fn expected_total(&self) -> u64 {
        if self.at_stop {
            // Stopped in closed loop: what was issued (returned by the stream, less the lookahead).
            let held = self.next.is_some() as u64 + self.after_next.is_some() as u64;
            return self.stream.returned() - held - self.dropped_at_stop;
        }
        self.stream.expected_total()
    }

    #[inline]
    fn has_next(&self) -> bool {
        self.next.is_some()
    }

    #[inline]
    fn issue_at(&mut self, now: SimTime) -> Option<SimTime> {
        let request = self.next.as_ref()?;
        let ready = match self.pacing {
            Pacing::OpenLoop => request.arrival.max(now),
            Pacing::ClosedLoop => now,
            Pacing::ClosedLoopUntil(stop) => return self.issue_before(now, stop),
        };
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
        let latency_from = if self.pacing == Pacing::OpenLoop { request.arrival } else { issue };
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

#[cfg(test)]
pub(crate) mod tests {
    //! The stop time, exact: the last request issued is before it, the next would be at or after it.

    use super::*;
    use ssdlab_workload::SyntheticSpec;

    /// Writes of 4 KiB every `interval_ns` (fixed arrivals), `requests` at most, stopping at `stop_ns`.
    pub(crate) fn spec(requests: u64, interval_ns: u64, stop_ns: Option<u64>) -> SyntheticSpec {
        let mut text = format!(
            "requests = {requests}\nread_fraction = 0.0\nspan_bytes = 1048576\naddress = {{ distribution = \"uniform\" }}\n\
             size = {{ distribution = \"fixed\", bytes = 4096 }}\narrival = {{ process = \"fixed\", interval_ns = {interval_ns} }}\n"
        );
        if let Some(stop) = stop_ns {
            text.push_str(&format!("stop_time_ns = {stop}\n"));
        }
        toml::from_str(&text).expect("a valid spec")
    }

    /// Replays `single` as the loop does, each request taking `service_ns` from its issue; returns
    /// the issue times.
    fn drive(single: &mut SingleStream, service_ns: u64) -> Vec<u64> {
        single.start().expect("starts");
        let mut now = SimTime::ZERO;
        let mut issues = Vec::new();
        while single.has_next() {
            let Some(issue) = single.issue_at(now) else { break };
            let submission = single.take(issue).expect("takes");
            issues.push(issue.0);
            single.completed(&Finished {
                slot: 0,
                completion: SimTime(issue.0 + service_ns),
                latency_ns: service_ns,
                size_bytes: submission.request.size_bytes,
                write: true,
                delete: false,
            });
            now = issue;
        }
        issues
    }

    fn closed(stop_ns: Option<u64>) -> SingleStream {
        let stream = RequestStream::from_synthetic(&spec(1_000, 1, stop_ns), 1, 1, 1.0).expect("builds");
        SingleStream::new(stream, 2, true)
    }

    #[test]
    fn closed_loop_issues_nothing_at_or_after_the_stop() {
        // Two outstanding, 100 ns each: issues at 0, 0, 100, 100, 200, 200, then 300, 300, ...
        let mut unstopped = closed(None);
        assert_eq!(drive(&mut unstopped, 100)[..8], [0, 0, 100, 100, 200, 200, 300, 300]);
        for (stop, issued) in [(250, 6), (300, 6), (301, 8), (1, 2)] {
            let mut single = closed(Some(stop));
            let issues = drive(&mut single, 100);
            assert_eq!(issues.len(), issued, "stop {stop}: {issues:?}");
            assert!(issues.iter().all(|&issue| issue < stop), "stop {stop}: {issues:?}");
            // The next issue would be at the earliest completion, at or after the stop.
            assert!(issues[issued - 2] + 100 >= stop);
            assert_eq!(single.expected_total(), issued as u64, "the run's count is what was issued");
            // The clock reaching the stop ends the stream for good.
            assert_eq!(single.issue_at(SimTime(stop)), None);
            assert!(!single.has_next());
            assert_eq!(single.expected_total(), issued as u64);
        }
        // The bound still applies: 5 requests end the stream before a late stop.
        let stream = RequestStream::from_synthetic(&spec(5, 1, Some(1_000_000)), 1, 1, 1.0).expect("builds");
        let mut bounded = SingleStream::new(stream, 2, true);
        assert_eq!(drive(&mut bounded, 100).len(), 5);
        assert_eq!(bounded.expected_total(), 5);
    }

    #[test]
    fn open_loop_ends_at_the_first_arrival_at_or_after_the_stop() {
        let open = |stop: Option<u64>, loops: u32, time_scale: f64| {
            let stream = RequestStream::from_synthetic(&spec(3, 1_000, stop), 1, loops, time_scale).expect("builds");
            SingleStream::new(stream, 8, false)
        };
        // Arrivals 0, 1000, 2000, then (the next loop one mean gap later) 3000, 4000, 5000.
        assert_eq!(drive(&mut open(None, 2, 1.0), 10), [0, 1_000, 2_000, 3_000, 4_000, 5_000]);
        for (stop, issued) in [(4_000, 4), (4_001, 5), (2_500, 3), (1, 1)] {
            let mut single = open(Some(stop), 2, 1.0);
            let issues = drive(&mut single, 10);
            assert_eq!(issues.len(), issued, "stop {stop}: {issues:?}");
            assert!(issues.iter().all(|&issue| issue < stop));
            assert!(issued as u64 * 1_000 >= stop, "the next arrival is at or after the stop");
            assert_eq!(single.expected_total(), issued as u64);
        }
        // The stop is on the run's clock: arrivals scaled by 2 are 0, 2000, 4000.
        let mut scaled = open(Some(4_000), 1, 2.0);
        assert_eq!(drive(&mut scaled, 10), [0, 2_000]);
        assert_eq!(scaled.expected_total(), 2);
    }
}
