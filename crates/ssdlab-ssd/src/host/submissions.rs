//! What the replay loop asks of the host interface: when the next command can be fetched, which
//! one it is (and when its latency starts), and that a command completed. Two kinds answer: the one
//! stream of `[workload]` through one bounded device queue (`single_stream.rs`), and several flows
//! with a submission queue each and arbitration between them (`flows/`). The loop is generic over
//! this trait, so the one-stream replay is compiled on its own and pays nothing for flows.
//! Leaves out: everything below the host interface (the data path and the scheduler).

use super::device_queue::HostQueueStatistics;
use crate::error::SimulationError;
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;

/// A command fetched into the device.
#[derive(Debug, Clone, Copy)]
pub struct Submission {
    pub request: IoRequest,
    /// Latency is measured from here: its arrival (open loop) or its issue (closed loop).
    pub latency_from: SimTime,
    /// Its flow (0 with one stream).
    pub flow: u8,
}

/// A host command's end, as the loop hands it back.
#[derive(Debug, Clone, Copy)]
pub struct Finished {
    /// The scheduler's slot the command held (unique among commands in the device).
    pub slot: u32,
    pub completion: SimTime,
    pub latency_ns: u64,
    pub size_bytes: u64,
    pub write: bool,
    pub delete: bool,
}

pub trait Submissions {
    /// Requests the whole run issues.
    fn expected_total(&self) -> u64;
    /// Whether any request is left to issue.
    fn has_next(&self) -> bool;
    /// When the next request could be issued with the clock at `now`: None while none can be (the
    /// device queue full with no completion known yet, or nothing left).
    fn issue_at(&mut self, now: SimTime) -> Option<SimTime>;
    /// Fetches the command issued at `issue` (a time [`Submissions::issue_at`] returned).
    fn take(&mut self, issue: SimTime) -> Result<Submission, SimulationError>;
    /// The next two requests to be issued, when known (the loop prefetches what they will touch).
    fn upcoming(&self) -> (Option<&IoRequest>, Option<&IoRequest>);
    /// `submission` went into the device in scheduler slot `slot`.
    fn opened(&mut self, submission: &Submission, slot: u32);
    /// A command completed (its completion is known; it may lie ahead of the clock).
    fn completed(&mut self, finished: &Finished);
    /// The device queue's statistics over `requests` issued.
    fn queue_summary(&self, requests: u64) -> HostQueueStatistics;
}
