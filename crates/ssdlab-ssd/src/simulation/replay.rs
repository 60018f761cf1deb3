//! Replay: host requests enter the device through the bounded device queue and their flash work is
//! carried out in simulated-time order.
//!
//! One loop takes, at each step, whichever comes first: the scheduler's earliest pending event (a
//! stage of flash work becoming ready, or a request completing, which frees a device-queue slot) or
//! the issue of the next host request (its arrival in open loop, once a slot is free; in closed loop
//! as soon as a slot is free). At equal times events go first, so a slot freed at t serves a request
//! arriving at t. A request is issued by handing its page span to the data path (`data_path/`:
//! middleware and FTL, SCM in front of them on a hybrid device), which translates it at its issue
//! time (mapping, GC decisions) and starts its flash work, whose first stages are booked at once.
//! The host side is a [`Submissions`] (`host/submissions.rs`): the one stream of `[workload]`, or
//! several flows with a submission queue each and arbitration between them (`host/flows/`); the
//! loop is generic over it. What the loop leaves out: everything below the host queue (the data
//! path's and the scheduler's) and the host interface's own decisions.

use super::data_path::Lookahead;
use super::observers::{Completed, Issued};
use super::{device_view, Simulation};
use crate::error::SimulationError;
use crate::geometry::Lpn;
use crate::host::flows::result::FlowsSection;
use crate::host::submissions::{Finished, Submissions};
use crate::host::PageSpan;
use crate::scheduler::RequestTag;
use ssdlab_engine::SimTime;
use ssdlab_workload::{IoOp, IoRequest};

/// How often (in requests) the progress callback is called.
pub const PROGRESS_INTERVAL: u64 = 1 << 16;

/// The phases of a run that report progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Reading the trace once before replay (records so far; the total is not known: 0).
    Scan,
    /// Fast aging and preconditioning (pages written of pages to write).
    Precondition,
    /// Replaying the workload (requests issued of requests expected).
    Replay,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Scan => "scan",
            Phase::Precondition => "precondition",
            Phase::Replay => "replay",
        }
    }
}

/// Calls back with (phase, done, expected; 0 when unknown) every [`PROGRESS_INTERVAL`] units of
/// work; an error aborts the run.
pub type ProgressCallback<'a> = dyn FnMut(Phase, u64, u64) -> Result<(), SimulationError> + 'a;

impl Simulation {
    /// Replays the whole workload: `[workload]`'s one stream, or the flows of `host.flows`.
    pub fn replay(&mut self, progress: &mut ProgressCallback<'_>) -> Result<(), SimulationError> {
        if self.flows.is_some() {
            return self.replay_flows(progress);
        }
        let Some(mut single) = self.single.take() else {
            return Err(SimulationError::Incomplete { generated: 0, completed: self.requests_completed });
        };
        let replayed = single.start().and_then(|()| self.replay_with(&mut single, progress));
        self.single = Some(single);
        replayed
    }

    /// The flows' replay, kept out of line: its copy of the loop inlined beside the one-stream copy
    /// made the compiler stop inlining `serve` into the one-stream loop (with fat LTO, 2.7 % more
    /// instructions per request than before flows; out of line, 1.6 %: docs/flows.md).
    #[cold]
    #[inline(never)]
    fn replay_flows(&mut self, progress: &mut ProgressCallback<'_>) -> Result<(), SimulationError> {
        let Some(mut flows) = self.flows.take() else { return Ok(()) };
        let replayed = self.replay_with(&mut flows, progress);
        let arbitration = self.config.host.queues.arbitration.name();
        self.flows_section = Some(FlowsSection::of(&flows, arbitration));
        self.flows = Some(flows);
        replayed
    }

    /// The replay loop over a host interface (monomorphised for each kind).
    fn replay_with<H: Submissions>(
        &mut self,
        host: &mut H,
        progress: &mut ProgressCallback<'_>,
    ) -> Result<(), SimulationError> {
        // Device events cost the loop a predictable branch when there are none.
        let events_active = !self.device_events.is_empty();
        // Host writes held for GC are re-examined when an erase ends (none in `background` mode).
        let gate_active = self.scheduler.gates_writes();
        let total = host.expected_total();
        progress(Phase::Replay, 0, total)?;
        // Two requests of lookahead (one stream), so cache misses overlap the current request's
        // work instead of following it: the mapping entry of the request after next is
        // prefetched, and, the next request's mapping being in cache by then, what its writes'
        // overwrites will touch; the DRAM stages' caches likewise (their index two ahead, their
        // records one ahead).
        let stage_lookahead = self.data_path.has_stage_lookahead();
        let mut now = SimTime::ZERO;
        let mut time_triggers_cancelled = false;
        loop {
            // When the next request could be issued: at its arrival (open loop) or now (closed
            // loop), or, with the device queue full, when the earliest known completion frees a
            // slot (a pending event may still reveal an earlier one: events at or before that
            // time go first).
            let event_at = self.scheduler.next_event_time();
            let has_next = host.has_next();
            let issue_at =
                if !has_next || (events_active && self.device_events.suspended()) { None } else { host.issue_at(now) };
            // Once the workload has ended, events due later never fire (`device_events.rs`).
            if events_active && !time_triggers_cancelled && !has_next && self.requests_completed == self.requests_issued
            {
                self.device_events.cancel_time_triggers();
                time_triggers_cancelled = true;
            }
            // Device-event timers go after scheduler events at the same time and before host issues.
            if let Some(timer) = if events_active { self.device_events.next_timer() } else { None } {
                if event_at.is_none_or(|event| timer < event) && issue_at.is_none_or(|issue| timer <= issue) {
                    if let Some(time) = self.process_timer()? {
                        now = now.max(time);
                    }
                    self.collect_completions(host);
                    continue;
                }
            }
            let take_event = match (event_at, issue_at) {
                (Some(event), Some(issue)) => event <= issue,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            if take_event {
                if let Some(time) = self.scheduler.process_next_event() {
                    now = time;
                }
                if !self.observers.is_empty() {
                    self.observers.clock_advanced(now, &device_view!(self))?;
                }
                if gate_active && self.scheduler.erases_ended().is_some_and(|ended| !ended.is_empty()) {
                    self.reopen_planes(now);
                }
                self.collect_completions(host);
                if events_active && !self.scheduler.finished_batches().is_empty() {
                    self.collect_finished_batches()?;
                }
                continue;
            }
            let Some(issue) = issue_at else { break };
            now = issue;
            if !self.observers.is_empty() {
                self.observers.clock_advanced(now, &device_view!(self))?;
            }
            let submission = host.take(issue)?;
            let (next, after_next) = host.upcoming();
            if let Some(upcoming) = after_next {
                self.data_path.prefetch_mapping(Lpn(
                    (upcoming.offset_bytes >> self.page_bytes.trailing_zeros()).min(u32::MAX as u64) as u32
                ));
                if stage_lookahead && upcoming.end_bytes() <= self.logical_capacity_bytes {
                    let span = PageSpan::of(upcoming.offset_bytes, upcoming.size_bytes, self.page_bytes);
                    self.data_path.prefetch_stages(span, Lookahead::Index);
                }
            }
            if let Some(upcoming) = next {
                let writes = upcoming.op == IoOp::Write;
                if (stage_lookahead || writes) && upcoming.end_bytes() <= self.logical_capacity_bytes {
                    let span = PageSpan::of(upcoming.offset_bytes, upcoming.size_bytes, self.page_bytes);
                    if stage_lookahead {
                        self.data_path.prefetch_stages(span, Lookahead::Records);
                    }
                    if writes {
                        self.data_path.prefetch_overwrites(span);
                    }
                }
            }
            let slot = self.serve(&submission.request, issue, submission.latency_from, submission.flow)?;
            host.opened(&submission, slot);
            self.collect_completions(host);
            if self.requests_issued.is_multiple_of(PROGRESS_INTERVAL) {
                progress(Phase::Replay, self.requests_issued, total)?;
            }
        }
        // A stream with a stop time knows how many it issued only once it has stopped (before, the
        // total is its request bound).
        let total = host.expected_total();
        progress(Phase::Replay, self.requests_issued, total)?;
        self.host_queue = host.queue_summary(self.requests_issued);
        if self.requests_issued != total
            || self.requests_completed != self.requests_issued
            || self.scheduler.work_in_progress() != 0
        {
            return Err(SimulationError::Incomplete { generated: total, completed: self.requests_completed });
        }
        Ok(())
    }

    /// Records the requests whose last flash work has been booked: latency, and when their
    /// device-queue slot frees.
    #[inline]
    fn collect_completions<H: Submissions>(&mut self, host: &mut H) {
        if self.scheduler.completions().is_empty() {
            return;
        }
        let mut breakdowns = std::mem::take(self.scheduler.completion_breakdowns());
        let completions = self.scheduler.completions();
        for (index, &(request, completion, slot)) in completions.iter().enumerate() {
            let latency = completion.since(request.latency_from).0;
            if request.write {
                self.write_latency.record(latency, request.size_bytes);
            } else if !request.delete {
                self.read_latency.record(latency, request.size_bytes);
            }
            self.last_completion = self.last_completion.max(completion);
            host.completed(&Finished {
                slot,
                completion,
                latency_ns: latency,
                size_bytes: request.size_bytes,
                write: request.write,
                delete: request.delete,
            });
            if !self.observers.is_empty() {
                let breakdown = breakdowns.get(index).copied();
                self.observers.request_completed(&Completed { request, completion, slot, breakdown });
            }
        }
        self.requests_completed += completions.len() as u64;
        completions.clear();
        breakdowns.clear();
        // Keep the allocation.
        *self.scheduler.completion_breakdowns() = breakdowns;
    }

    /// Erases have ended: the planes they were on may take host writes again (`scheduler/write_gate.rs`).
    #[inline(never)]
    fn reopen_planes(&mut self, now: SimTime) {
        let Some(ended) = self.scheduler.erases_ended() else { return };
        let mut planes = std::mem::take(ended);
        let ftl = self.data_path.nand().ftl();
        for &plane in &planes {
            self.scheduler.reopen_plane(plane, now, |plane| ftl.free_blocks(crate::geometry::PlaneIndex(plane)));
        }
        planes.clear();
        if let Some(ended) = self.scheduler.erases_ended() {
            // Keep the allocation (nothing was added meanwhile: reopening does not erase).
            std::mem::swap(ended, &mut planes);
        }
    }

    /// Issues `request` (latency counted from `latency_from`) into the device at `issue`; returns
    /// its scheduler slot. Inlined into each copy of the loop, as it was into the one loop before.
    #[inline(always)]
    fn serve(
        &mut self,
        request: &IoRequest,
        issue: SimTime,
        latency_from: SimTime,
        flow: u8,
    ) -> Result<u32, SimulationError> {
        self.requests_issued += 1;
        self.first_arrival.get_or_insert(issue);
        if request.end_bytes() > self.logical_capacity_bytes {
            return Err(SimulationError::AddressBeyondDevice {
                origin: self.origin.clone(),
                line: request.origin_line,
                field: "offset",
                offset_bytes: request.offset_bytes,
                end_bytes: request.end_bytes(),
                capacity_bytes: self.logical_capacity_bytes,
            });
        }
        let span = PageSpan::of(request.offset_bytes, request.size_bytes, self.page_bytes);
        let tag = RequestTag {
            latency_from,
            size_bytes: request.size_bytes,
            write: request.op == IoOp::Write,
            delete: request.op == IoOp::Delete,
            background: false,
        };
        let slot = self.scheduler.open_request(issue, tag);
        if self.scheduler.queues_at_dies() {
            self.scheduler.set_request_flow(slot, flow);
        }
        let observed = !self.observers.is_empty();
        if observed {
            let issued = Issued { slot, index: self.requests_issued, request, latency_from, issue, span, flow };
            self.observers.request_issued(&issued, &device_view!(self));
        }
        // The data path takes the request a page span at a time (`data_path/`).
        let index = self.requests_issued;
        match request.op {
            IoOp::Delete => self.data_path.delete(span, issue),
            IoOp::Read => self.data_path.read(request, span, issue, slot, index, &mut self.scheduler)?,
            IoOp::Write => {
                self.data_path.write(request, span, issue, slot, index, &mut self.scheduler, &mut self.device_events)?
            }
        }
        if observed {
            self.observers.request_served(slot, &device_view!(self));
        }
        self.scheduler.close_request(slot, issue);
        Ok(slot)
    }
}
