//! Replay: host requests enter the device through the bounded device queue and their flash work is
//! carried out in simulated-time order.
//!
//! One loop takes, at each step, whichever comes first: the scheduler's earliest pending event (a
//! stage of flash work becoming ready, or a request completing, which frees a device-queue slot) or
//! the issue of the next host request (its arrival in open loop, once a slot is free; in closed loop
//! as soon as a slot is free). At equal times events go first, so a slot freed at t serves a request
//! arriving at t. A request is issued by translating it through middleware and FTL at its issue
//! time (mapping, GC decisions) and starting its flash work, whose first stages are booked at once.

use super::observers::{Completed, Issued};
use super::{device_view, Simulation};
use crate::config::{DeleteTarget, HostMode};
use crate::error::SimulationError;
use crate::ftl::Ftl;
use crate::geometry::{Lpn, Ppn};
use crate::host::device_queue::DeviceQueue;
use crate::host::PageSpan;
use crate::read_path::{ReadContext, ReadPlan};
use crate::scheduler::{FlashScheduler, RequestTag, Waiter};
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
    /// Replays the whole workload.
    pub fn replay(&mut self, progress: &mut ProgressCallback<'_>) -> Result<(), SimulationError> {
        // Device events cost the loop a predictable branch when there are none.
        let events_active = !self.device_events.is_empty();
        // Host writes held for GC are re-examined when an erase ends (none in `background` mode).
        let gate_active = self.scheduler.gates_writes();
        let total = self.stream.expected_total();
        let closed_loop = self.config.host.mode == HostMode::ClosedLoop;
        let depth = if closed_loop { self.config.host.queue_depth } else { self.config.host.device_queue_depth };
        let mut queue = DeviceQueue::new(depth);
        progress(Phase::Replay, 0, total)?;
        // Two requests of lookahead, so cache misses overlap the current request's work instead of
        // following it: the mapping entry of the request after next is prefetched, and, the next
        // request's mapping being in cache by then, what its writes' overwrites will touch.
        let mut next = self.stream.next_request()?;
        let mut after_next = self.stream.next_request()?;
        let mut now = SimTime::ZERO;
        loop {
            // When the next request could be issued: at its arrival (open loop) or now (closed
            // loop), or, with the device queue full, when the earliest known completion frees a
            // slot (a pending event may still reveal an earlier one: events at or before that
            // time go first).
            let event_at = self.scheduler.next_event_time();
            let issue_at = match &next {
                Some(_) if events_active && self.device_events.suspended() => None,
                Some(request) => {
                    let ready = if closed_loop { now } else { request.arrival.max(now) };
                    queue.retire_until(ready);
                    if queue.is_full() {
                        queue.earliest_completion().map(|completion| completion.max(ready))
                    } else {
                        Some(ready)
                    }
                }
                None => None,
            };
            // Device-event timers go after scheduler events at the same time and before host issues.
            if let Some(timer) = if events_active { self.device_events.next_timer() } else { None } {
                if event_at.is_none_or(|event| timer < event) && issue_at.is_none_or(|issue| timer <= issue) {
                    if let Some(time) = self.process_timer()? {
                        now = now.max(time);
                    }
                    self.collect_completions(&mut queue);
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
                self.collect_completions(&mut queue);
                if events_active && !self.scheduler.finished_batches().is_empty() {
                    self.collect_finished_batches()?;
                }
                continue;
            }
            let (Some(request), Some(issue)) = (next, issue_at) else { break };
            now = issue;
            if !self.observers.is_empty() {
                self.observers.clock_advanced(now, &device_view!(self))?;
            }
            queue.retire_until(issue);
            next = after_next;
            after_next = self.stream.next_request()?;
            if let Some(upcoming) = &after_next {
                if let Some(target) = self.middleware.read_target(Lpn((upcoming.offset_bytes
                    >> self.page_bytes.trailing_zeros())
                .min(u32::MAX as u64) as u32))
                {
                    self.ftl.prefetch_mapping(target);
                }
            }
            if let Some(upcoming) = &next {
                if upcoming.op == IoOp::Write {
                    self.prefetch_overwrites(upcoming);
                }
            }
            let arrival = if closed_loop { issue } else { request.arrival };
            queue.admit(arrival, issue);
            self.serve(&request, issue, arrival)?;
            self.collect_completions(&mut queue);
            if self.requests_issued.is_multiple_of(PROGRESS_INTERVAL) {
                progress(Phase::Replay, self.requests_issued, total)?;
            }
        }
        progress(Phase::Replay, self.requests_issued, total)?;
        self.host_queue = queue.summary(self.requests_issued);
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
    fn collect_completions(&mut self, queue: &mut DeviceQueue) {
        let completions = self.scheduler.completions();
        if completions.is_empty() {
            return;
        }
        for &(request, completion, slot) in completions.iter() {
            let latency = completion.since(request.latency_from).0;
            if request.write {
                self.write_latency.record(latency, request.size_bytes);
            } else if !request.delete {
                self.read_latency.record(latency, request.size_bytes);
            }
            self.last_completion = self.last_completion.max(completion);
            queue.completes_at(completion);
            if !self.observers.is_empty() {
                self.observers.request_completed(&Completed { request, completion, slot });
            }
        }
        self.requests_completed += completions.len() as u64;
        completions.clear();
    }

    /// Erases have ended: the planes they were on may take host writes again (`scheduler/write_gate.rs`).
    #[inline(never)]
    fn reopen_planes(&mut self, now: SimTime) {
        let Some(ended) = self.scheduler.erases_ended() else { return };
        let mut planes = std::mem::take(ended);
        let ftl = &self.ftl;
        for &plane in &planes {
            self.scheduler.reopen_plane(plane, now, |plane| ftl.free_blocks(crate::geometry::PlaneIndex(plane)));
        }
        planes.clear();
        if let Some(ended) = self.scheduler.erases_ended() {
            // Keep the allocation (nothing was added meanwhile: reopening does not erase).
            std::mem::swap(ended, &mut planes);
        }
    }

    /// Closes a host write's program group: held for GC when a plane of it holds writes. (Takes the
    /// two parts it needs, so callers can pass pages they hold in another field.)
    #[inline]
    pub(super) fn close_program_group(scheduler: &mut FlashScheduler, ftl: &Ftl, id: u32, now: SimTime, pages: &[Ppn]) {
        if scheduler.gates_writes() {
            scheduler
                .close_write_group_gated(id, now, pages, |plane| ftl.free_blocks(crate::geometry::PlaneIndex(plane)));
        } else {
            scheduler.close_write_group(id, now, pages);
        }
    }

    /// Prefetches what a write request's overwrites will touch (see `replay`).
    fn prefetch_overwrites(&self, request: &IoRequest) {
        if request.end_bytes() > self.logical_capacity_bytes {
            return;
        }
        let span = PageSpan::of(request.offset_bytes, request.size_bytes, self.page_bytes);
        for page in span.first..=span.last.min(span.first + 31) {
            if let Some(target) = self.middleware.read_target(Lpn(page as u32)) {
                self.ftl.prefetch_overwrite(target);
            }
        }
    }

    /// Issues `request` (latency counted from `latency_from`) into the device at `issue`.
    fn serve(&mut self, request: &IoRequest, issue: SimTime, latency_from: SimTime) -> Result<(), SimulationError> {
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
        if let Some(classifier) = self.workload_class.as_mut() {
            // On the workload's own timeline (its arrival times): in closed loop the issue times say
            // how fast the device is, not how often the workload rewrites its data.
            if request.op != IoOp::Delete {
                classifier.observe(
                    request.arrival.0,
                    request.op == IoOp::Write,
                    span.first,
                    span.last - span.first + 1,
                );
            }
        }
        let tag = RequestTag {
            latency_from,
            size_bytes: request.size_bytes,
            write: request.op == IoOp::Write,
            delete: request.op == IoOp::Delete,
        };
        let slot = self.scheduler.open_request(issue, tag);
        let observed = !self.observers.is_empty();
        if observed {
            let issued = Issued { slot, index: self.requests_issued, request, latency_from, issue, span };
            self.observers.request_issued(&issued, &device_view!(self));
        }
        match request.op {
            IoOp::Delete => self.serve_delete(span),
            _ if self.scm.is_some() => self.serve_with_scm(request, span, issue, slot)?,
            IoOp::Read => self.serve_read(span, issue, slot),
            IoOp::Write => self.serve_write(span, issue, slot, request)?,
        }
        if observed {
            self.observers.request_served(slot, &device_view!(self));
        }
        self.scheduler.close_request(slot, issue);
        Ok(())
    }

    #[inline]
    pub(super) fn read_page(&mut self, ppn: Ppn, now: SimTime, waiter: Waiter) {
        if self.plain_reads {
            return self.scheduler.read_plain(now, std::slice::from_ref(&ppn), waiter);
        }
        self.read_page_planned(ppn, now, waiter)
    }

    #[inline(never)]
    fn read_page_planned(&mut self, ppn: Ppn, now: SimTime, waiter: Waiter) {
        if let Some(plan) = &self.fixed_read_plan {
            let plan: ReadPlan = *plan;
            return self.scheduler.read(now, ppn, &plan, waiter);
        }
        let block = self.ftl.block_of_page(ppn);
        let programmed_ms = self.ftl.program_time_ms(ppn) as u64;
        let context = ReadContext {
            pe_cycles: block.erase_count,
            retention_ns: now.0.saturating_sub(programmed_ms * 1_000_000),
            chip: self.layout.chip_of_die(self.layout.die_of(ppn)),
            block: self.ftl.global_block_of(ppn).0,
            page_type: self.layout.page_type(ppn),
            die_idle: self.scheduler.die_idle_at(ppn, now),
            age_hours: self.ftl.data_age_hours(ppn, now.0),
            workload_hot: self
                .workload_class
                .as_ref()
                .is_some_and(|classifier| crate::host::workload_class::is_hot(classifier.class())),
            request: self.requests_issued,
        };
        let plan = self.read_strategy.plan(&context);
        self.scheduler.read(now, ppn, &plan, waiter)
    }

    /// A delete: no flash work (it completes when issued); whole pages of the range are deleted
    /// where `host.delete_target` says (a partial page still holds data of the rest of its page).
    #[cold]
    fn serve_delete(&mut self, span: PageSpan) {
        self.deletes.requests += 1;
        let first = span.first + span.first_partial as u64;
        let last = if span.last_partial { span.last.checked_sub(1) } else { Some(span.last) };
        let Some(last) = last.filter(|&last| last >= first) else { return };
        for page in first..=last {
            self.deletes.pages += 1;
            self.deletes.pages_trimmed += self.delete_page(Lpn(page as u32)) as u64;
        }
    }

    /// Deletes one host page where `host.delete_target` says; returns whether the FTL trimmed it.
    pub(super) fn delete_page(&mut self, host: Lpn) -> bool {
        if self.scm.is_some() {
            return self.delete_scm_page(host.0);
        }
        let mut trimmed = false;
        let target = self.middleware.read_target(host);
        match self.config.host.delete_target {
            DeleteTarget::None => {}
            DeleteTarget::Middleware => self.middleware.delete(host, &self.ftl),
            DeleteTarget::Ftl => {
                if let Some(target) = target {
                    trimmed = self.ftl.trim(target);
                }
                self.middleware.delete(host, &self.ftl);
            }
        }
        if let (Some(dead), Some(target)) = (self.dead_data.as_mut(), target) {
            // Above the FTL the data is gone; the FTL holds it unless it was trimmed.
            if trimmed {
                dead.rewritten(target);
            } else if self.ftl.lookup(target).is_some() {
                dead.died(target);
            }
        }
        if let Some(oracle) = self.oracle.as_mut() {
            oracle.delete(host.0);
        }
        trimmed
    }

    fn serve_read(&mut self, span: PageSpan, now: SimTime, slot: u32) {
        let waiter = Waiter::Request(slot);
        // Plain reads of consecutive pages on one die, in different planes, are sensed together
        // (a multi-plane read) when the device supports multi-plane operations; reads with a
        // read-path strategy in play are planned page by page.
        let group_reads = self.plain_reads && self.multi_plane;
        self.read_group.clear();
        for page in span.first..=span.last {
            let host = Lpn(page as u32);
            let physical = self.middleware.read_target(host).and_then(|target| self.ftl.lookup(target));
            if let Some(oracle) = self.oracle.as_mut() {
                oracle.check(host.0, physical.map(|ppn| self.ftl.tag(ppn)), "host read");
            }
            match physical {
                Some(ppn) if group_reads => {
                    let (die, plane) = self.layout.die_and_plane_of(ppn);
                    if !self.read_group.add(die, plane, ppn) {
                        self.scheduler.read_plain(now, self.read_group.pages(), waiter);
                        self.read_group.clear();
                        self.read_group.add(die, plane, ppn);
                    }
                }
                Some(ppn) => self.read_page(ppn, now, waiter),
                None => self.unmapped_page_reads += 1,
            }
        }
        if !self.read_group.is_empty() {
            self.scheduler.read_plain(now, self.read_group.pages(), waiter);
        }
    }

    /// Interleaved codewords fill whole groups of pages: a write of fewer is padded (counted).
    #[inline(never)]
    fn pad_to_interleave_group(&mut self, pages: u64) {
        let group = self.interleave_group_pages;
        self.interleave_padding_pages += (group - pages % group) % group;
    }

    fn serve_write(
        &mut self,
        span: PageSpan,
        now: SimTime,
        slot: u32,
        request: &IoRequest,
    ) -> Result<(), SimulationError> {
        let multi_plane = self.multi_plane;
        if self.interleave_group_pages > 1 {
            self.pad_to_interleave_group(span.pages());
        }
        let tracking_dead_data = self.dead_data.is_some();
        let mut group: Option<u32> = None;
        self.program_group.clear();
        for page in span.first..=span.last {
            let host = Lpn(page as u32);
            // A partial page that holds data is read first (read-modify-write); its program group
            // waits for that read.
            let old = if span.is_partial(page) {
                self.middleware.read_target(host).and_then(|target| self.ftl.lookup(target))
            } else {
                None
            };
            let before = if tracking_dead_data { self.middleware.read_target(host) } else { None };
            let target = self.middleware.write_target(host, &self.ftl, now.0);
            let tag = self.oracle.as_mut().map_or(0, |o| o.tag_write(host.0));
            self.ops.clear();
            let ppn = self.ftl.write(target, now.0, tag, &mut self.ops).map_err(|source| SimulationError::Ftl {
                origin: format!("{}:{}", self.origin, request.origin_line),
                source,
            })?;
            if tracking_dead_data {
                if let Some(dead) = self.dead_data.as_mut() {
                    dead.track_write(before, target, &self.ops, &self.ftl);
                }
            }
            if !self.ftl.foreground_ops().is_empty() {
                // A block-modify-write: the request completes when the block's pages are rewritten.
                self.scheduler.foreground_copies(now, self.ftl.foreground_ops(), Waiter::Request(slot));
            }
            if !self.ops.is_empty() {
                self.scheduler.garbage_collection(now, &self.ops);
                if self.device_events.wear_pending() {
                    self.check_wear_events(now)?;
                }
            }
            let (die, plane) = self.layout.die_and_plane_of(ppn);
            // Without multi-plane operations every page is its own group.
            if (!multi_plane && !self.program_group.is_empty()) || !self.program_group.add(die, plane, ppn) {
                if let Some(id) = group.take() {
                    Self::close_program_group(&mut self.scheduler, &self.ftl, id, now, self.program_group.pages());
                }
                self.program_group.clear();
                self.program_group.add(die, plane, ppn);
            }
            let id = *group.get_or_insert_with(|| self.scheduler.open_write_group(slot, now));
            if let Some(old) = old {
                self.read_page(old, now, Waiter::WriteGroup(id));
                self.read_modify_writes += 1;
            }
        }
        if let Some(id) = group {
            Self::close_program_group(&mut self.scheduler, &self.ftl, id, now, self.program_group.pages());
            self.program_group.clear();
        }
        Ok(())
    }
}
