//! Queued dies: what the scheduler does instead of booking a die at once when `scheduler.policy`
//! is not FIFO or a read may suspend a program or an erase (`[scheduler]`; MQSim's TSU and its
//! `Suspend`/`Resume` of a flash chip's die).
//!
//! An operation that wants a die (a read's sensing, a program, a garbage-collection copy or erase)
//! asks for it ([`FlashScheduler::die_admits`]). A free die with nothing waiting takes it at once,
//! as the booking model would. Otherwise the operation waits in the die's queue, and when the die
//! frees (a `DieEnd` event at the end of what it runs) the policy (`policy/`) picks the next one,
//! which is then carried out exactly as it would have been at once: the same code runs again at
//! the grant time. Operations whose end others wait for (a host program, a GC step after a program
//! or an erase) finish from the die's `DieEnd` rather than at booking, so that a suspension can
//! move their end.
//!
//! Suspension: a read that the policy would serve next, arriving at a die busy programming (or
//! erasing), suspends that operation if the operation has at least the configured time left and
//! the die holds no other suspended operation: the die pays the suspend time, then runs the read;
//! the suspended operation waits in the queue (with its original age and kind) for the time it had
//! left. An erase may likewise be suspended for a host program. A resumed operation may be
//! suspended again, as in MQSim (whose TSU, at 7ec40e3, never suspends: `service_read_transaction`
//! falls through from `WRITING` into `ERASING` and returns false in either case; docs/mqsim.md).
//!
//! Left out: the page register a waiting program's data occupies (its data crossed the channel
//! before the die was asked for: a read served in between does not clobber it here); a resume's
//! own latency (MQSim charges none); suspension of copyback and of reads. The booking log's
//! work-conservation check does not hold for a reordering policy and is not kept for one.

use super::policy::{Candidate, OperationKind, Policy, SchedulingPolicy, NO_FLOW};
use super::*;
use crate::config::{PriorityClass, SchedulerConfig, SuspensionConfig};
use serde::Serialize;

/// What runs on a die as far as suspension is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum ArrayOperation {
    #[default]
    Other,
    Program,
    Erase,
}

/// What happens when a die's operation ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Completion {
    #[default]
    Nothing,
    /// A chain of `Waiter` ends (a host program).
    Finish(Waiter),
    /// A pending stage runs (a GC chain's next step).
    Event(u64),
}

/// How a waiting operation is carried out when granted.
#[derive(Debug, Clone)]
enum Action {
    /// A pending stage, run again at the grant time.
    Event(u64),
    /// A plain (possibly multi-plane) read of these pages; its waiter was counted when it was queued.
    PlainRead { ppns: Vec<Ppn>, waiter: Waiter },
    /// The rest of a suspended operation.
    Resume { remaining_ns: u64, array: ArrayOperation, completion: Completion },
}

#[derive(Debug, Clone)]
struct Waiting {
    candidate: Candidate,
    since: SimTime,
    action: Action,
}

/// What a die runs now.
#[derive(Debug, Clone, Copy, Default)]
struct Running {
    array: ArrayOperation,
    kind: Option<OperationKind>,
    priority: Option<PriorityClass>,
    sequence: u64,
    /// Its host flow (`NO_FLOW` for the controller's own).
    flow: u8,
    completion: Completion,
}

#[derive(Debug, Clone, Default)]
struct DieQueue {
    waiting: Vec<Waiting>,
    /// Bumped at every grant and suspension: a `DieEnd` of an older generation is stale.
    generation: u32,
    /// A `DieEnd` of this generation is pending.
    end_pending: bool,
    running: Running,
    /// An operation of this die is suspended (waiting to resume).
    suspended: bool,
}

/// What the queued dies counted over the run (`scheduler` in the result).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SchedulerStatistics {
    pub policy: &'static str,
    /// Operations that waited in a die's queue (the rest found their die free).
    pub queued_operations: u64,
    /// Their mean and longest wait in the queue, us.
    pub mean_queue_wait_us: f64,
    pub longest_queue_wait_us: f64,
    pub program_suspensions: u64,
    pub erase_suspensions: u64,
    /// Die time spent suspending, us.
    pub suspend_time_us: f64,
    /// Suspended operations resumed.
    pub resumes: u64,
    #[serde(skip)]
    queue_wait_ns: u64,
    #[serde(skip)]
    longest_wait_ns: u64,
    #[serde(skip)]
    suspend_ns: u64,
}

pub(super) struct DieQueues {
    policy: Policy,
    suspension: SuspensionConfig,
    dies: Vec<DieQueue>,
    /// The priority class of each flow (index: the flow's position in `host.flows`).
    flow_priorities: Vec<PriorityClass>,
    next_sequence: u64,
    /// The die whose waiting operation is being carried out now (its admission is granted).
    granted: Option<u32>,
    /// The age of the operation granted last, which it keeps while it runs: (die, sequence).
    granted_sequence: Option<(u32, u64)>,
    /// The priority class of each open host request (by its id).
    request_priorities: Vec<PriorityClass>,
    /// The flow of each open host request (by its id; `NO_FLOW` when not set).
    request_flows: Vec<u8>,
    /// The flow of the operation admitted last (die, flow), for `die_started`.
    admitted_flow: Option<(u32, u8)>,
    /// Per die: the estimated die time of a read (lower-page sensing and one page's transfer), a
    /// program (lower page) and an erase, ns (the policies' service estimates).
    service_ns: Vec<[u64; 3]>,
    scratch: Vec<Candidate>,
    statistics: SchedulerStatistics,
}

impl FlashScheduler {
    /// Queues the dies under `config` (call before any work; a FIFO policy without suspension keeps
    /// the booking model). `flow_priorities`: each flow's priority class, in `host.flows` order.
    pub fn set_scheduling(&mut self, config: &SchedulerConfig, flow_priorities: Vec<PriorityClass>) {
        if !config.queues_at_dies() {
            self.die_queues = None;
            return;
        }
        let dies = self.dies.len();
        let service_ns = (0..dies as u32)
            .map(|die| {
                let nand = &self.nand[self.layout.tier_of_die(die)];
                let transfer = self.channel_page_ns[self.layout.channel_of_die(die) as usize];
                [nand.read_ns[0] + transfer, nand.program_ns[0], nand.erase_ns]
            })
            .collect();
        self.die_queues = Some(Box::new(DieQueues {
            policy: Policy::new(config, dies, self.page_bytes),
            suspension: config.suspension.clone(),
            dies: vec![DieQueue::default(); dies],
            flow_priorities,
            next_sequence: 0,
            granted: None,
            granted_sequence: None,
            request_priorities: Vec::new(),
            request_flows: Vec::new(),
            admitted_flow: None,
            service_ns,
            scratch: Vec::new(),
            statistics: SchedulerStatistics { policy: config.policy.name(), ..SchedulerStatistics::default() },
        }));
    }

    /// True when the dies are queued (then requests should carry their flow: `set_request_flow`).
    pub fn queues_at_dies(&self) -> bool {
        self.die_queues.is_some()
    }

    /// The flow of request `id` (its priority class orders it under `priority_out_of_order`; FLIN
    /// orders by the flow itself).
    pub fn set_request_flow(&mut self, id: u32, flow: u8) {
        if let Some(queues) = self.die_queues.as_mut() {
            let priority = queues.flow_priorities.get(flow as usize).copied().unwrap_or_default();
            let slot = id as usize;
            if queues.request_priorities.len() <= slot {
                queues.request_priorities.resize(slot + 1, PriorityClass::default());
                queues.request_flows.resize(slot + 1, NO_FLOW);
            }
            queues.request_priorities[slot] = priority;
            queues.request_flows[slot] = flow;
        }
    }

    /// The flow of open request `id` (`NO_FLOW` unless set).
    fn request_flow(&self, id: u32) -> u8 {
        self.die_queues.as_ref().and_then(|queues| queues.request_flows.get(id as usize).copied()).unwrap_or(NO_FLOW)
    }

    /// The host flow a read for `waiter` serves.
    fn waiter_flow(&self, waiter: Waiter) -> u8 {
        match waiter {
            Waiter::Request(id) => self.request_flow(id),
            _ => NO_FLOW,
        }
    }

    /// The host flow of the pending stage `event` (a host program's or a planned read's).
    fn event_flow(&self, kind: OperationKind, event: FlashEvent) -> u8 {
        if !kind.is_host() {
            return NO_FLOW;
        }
        match event {
            FlashEvent::Program { request, .. } => self.request_flow(request),
            FlashEvent::PlannedSense { job } => self.waiter_flow(self.read_jobs.get(job).waiter),
            _ => NO_FLOW,
        }
    }

    /// The priority class of open request `id` (medium unless its flow set one).
    fn request_priority(&self, id: u32) -> PriorityClass {
        self.die_queues
            .as_ref()
            .and_then(|queues| queues.request_priorities.get(id as usize).copied())
            .unwrap_or_default()
    }

    /// What the queued dies counted (None in the booking model).
    pub fn scheduler_statistics(&self) -> Option<SchedulerStatistics> {
        let queues = self.die_queues.as_ref()?;
        let mut statistics = queues.statistics.clone();
        statistics.mean_queue_wait_us =
            statistics.queue_wait_ns as f64 / statistics.queued_operations.max(1) as f64 / 1000.0;
        statistics.longest_queue_wait_us = statistics.longest_wait_ns as f64 / 1000.0;
        statistics.suspend_time_us = statistics.suspend_ns as f64 / 1000.0;
        Some(statistics)
    }

    /// The kind and priority class of a read that `waiter` waits for.
    pub(super) fn read_kind(&self, waiter: Waiter) -> (OperationKind, PriorityClass) {
        match waiter {
            Waiter::Request(id) => (OperationKind::HostRead, self.request_priority(id)),
            Waiter::WriteGroup(_) => (OperationKind::HostRead, PriorityClass::default()),
            Waiter::Gate(_) => (OperationKind::MappingRead, PriorityClass::default()),
            Waiter::Nobody => (OperationKind::GcRead, PriorityClass::default()),
        }
    }

    /// The kind and priority class of a host program of request `id` (a translation page's
    /// write-back is a background request without host bytes).
    pub(super) fn program_kind(&self, id: u32) -> (OperationKind, PriorityClass) {
        let progress = *self.requests.get(id);
        if progress.background && progress.size_bytes == 0 {
            (OperationKind::MappingWrite, PriorityClass::default())
        } else {
            (OperationKind::HostWrite, self.request_priority(id))
        }
    }

    /// Whether a plain read of `ppns` (on `die`) for `waiter` may run now; if not, it waits in the
    /// die's queue (counted for `waiter` now) and runs when granted.
    #[inline]
    pub(super) fn die_admits_read(&mut self, die: u32, now: SimTime, ppns: &[Ppn], waiter: Waiter) -> bool {
        let (kind, priority) = self.read_kind(waiter);
        let flow = self.waiter_flow(waiter);
        if self.die_admits(die, now, kind, priority, flow) {
            return true;
        }
        self.add_wait(waiter);
        self.queue_action(die, now, kind, priority, flow, Action::PlainRead { ppns: ppns.to_vec(), waiter });
        false
    }

    /// Whether the pending stage `event` may use `die` now; if not, it waits in the die's queue and
    /// runs again when granted.
    #[inline]
    pub(super) fn die_admits_event(
        &mut self,
        die: u32,
        now: SimTime,
        kind: OperationKind,
        priority: PriorityClass,
        event: FlashEvent,
    ) -> bool {
        let flow = self.event_flow(kind, event);
        if self.die_admits(die, now, kind, priority, flow) {
            return true;
        }
        self.queue_action(die, now, kind, priority, flow, Action::Event(event.pack()));
        false
    }

    /// The kind of the reader of a planned read job (for its admission).
    pub(super) fn read_job_kind(&self, job: u32) -> (OperationKind, PriorityClass) {
        self.read_kind(self.read_jobs.get(job).waiter)
    }

    /// Whether an operation of `kind` may use `die` now: granted, or the die free with nothing
    /// waiting, or (suspension) the die's program or erase suspended for it.
    fn die_admits(&mut self, die: u32, now: SimTime, kind: OperationKind, priority: PriorityClass, flow: u8) -> bool {
        let gc_urgent = self.gc_urgent(die);
        let Some(queues) = self.die_queues.as_mut() else { return true };
        if queues.granted == Some(die) {
            queues.granted = None;
            queues.admitted_flow = Some((die, flow));
            return true;
        }
        let candidate = Candidate {
            kind,
            priority,
            sequence: queues.next_sequence,
            flow,
            since_ns: now.0,
            service_ns: service_estimate(&queues.service_ns[die as usize], kind),
        };
        queues.policy.arrived(die, now.0, &candidate);
        let queue = &queues.dies[die as usize];
        let free = self.dies[die as usize].is_idle_at(now);
        if free && queue.waiting.is_empty() {
            queues.admitted_flow = Some((die, flow));
            return true;
        }
        if free || queue.suspended {
            return false;
        }
        // Suspension: only of the operation the die runs now, for an operation served next.
        let running = queue.running;
        let remaining = self.dies[die as usize].busy_until().0 - now.0;
        let suspension = &queues.suspension;
        let allowed = match running.array {
            ArrayOperation::Program => {
                kind.is_read()
                    && suspension.operations.program()
                    && remaining >= suspension.min_remaining_program_for_read_ns
            }
            ArrayOperation::Erase => {
                suspension.operations.erase()
                    && if kind.is_read() {
                        remaining >= suspension.min_remaining_erase_for_read_ns
                    } else {
                        matches!(kind, OperationKind::HostWrite | OperationKind::MappingWrite)
                            && remaining >= suspension.min_remaining_erase_for_write_ns
                    }
            }
            ArrayOperation::Other => false,
        };
        if !allowed || remaining == 0 {
            return false;
        }
        queues.scratch.clear();
        queues.scratch.extend(queue.waiting.iter().map(|waiting| waiting.candidate));
        if !queues.policy.goes_first(die, &candidate, now.0, &queues.scratch, gc_urgent) {
            return false;
        }
        queues.admitted_flow = Some((die, flow));
        self.suspend(die, now);
        true
    }

    /// Suspends what `die` runs at `now`: cut, the suspend time booked, the rest queued to resume.
    fn suspend(&mut self, die: u32, now: SimTime) {
        let remaining_ns = self.dies[die as usize].cut(now).0;
        if let Some(log) = self.log.as_mut() {
            if let Some(booking) = log.iter_mut().rev().find(|booking| booking.resource == Resource::Die(die)) {
                booking.end_ns -= remaining_ns;
            }
        }
        let Some(queues) = self.die_queues.as_mut() else { return };
        let queue = &mut queues.dies[die as usize];
        let running = std::mem::take(&mut queue.running);
        queue.generation = queue.generation.wrapping_add(1);
        queue.end_pending = false;
        queue.suspended = true;
        let overhead = if running.array == ArrayOperation::Program {
            queues.statistics.program_suspensions += 1;
            queues.suspension.suspend_program_ns
        } else {
            queues.statistics.erase_suspensions += 1;
            queues.suspension.suspend_erase_ns
        };
        queues.statistics.suspend_ns += overhead;
        let candidate = Candidate {
            kind: running.kind.unwrap_or(OperationKind::HostWrite),
            priority: running.priority.unwrap_or_default(),
            sequence: running.sequence,
            flow: running.flow,
            since_ns: now.0,
            service_ns: remaining_ns,
        };
        queue.waiting.push(Waiting {
            candidate,
            since: now,
            action: Action::Resume { remaining_ns, array: running.array, completion: running.completion },
        });
        self.book(now, Resource::Die(die), overhead);
    }

    /// Queues `action` at `die` and makes sure the die's end is an event.
    fn queue_action(
        &mut self,
        die: u32,
        now: SimTime,
        kind: OperationKind,
        priority: PriorityClass,
        flow: u8,
        action: Action,
    ) {
        let busy_until = self.dies[die as usize].busy_until().max(now);
        let Some(queues) = self.die_queues.as_mut() else { return };
        let sequence = queues.next_sequence;
        queues.next_sequence += 1;
        let service_ns = service_estimate(&queues.service_ns[die as usize], kind);
        let candidate = Candidate { kind, priority, sequence, flow, since_ns: now.0, service_ns };
        let queue = &mut queues.dies[die as usize];
        queue.waiting.push(Waiting { candidate, since: now, action });
        if !queue.end_pending {
            queue.end_pending = true;
            let generation = queue.generation;
            self.events.schedule(busy_until, (FlashEvent::DieEnd { die, generation }).pack());
        }
    }

    /// An operation was booked on `die` (admitted at once or granted): it is what the die runs now;
    /// `completion` happens when it ends. Returns whether the die's end will handle the completion
    /// (else the caller finishes as in the booking model).
    #[inline]
    pub(super) fn die_started(
        &mut self,
        die: u32,
        kind: OperationKind,
        priority: PriorityClass,
        array: ArrayOperation,
        completion: Completion,
    ) -> bool {
        let busy_until = self.dies[die as usize].busy_until();
        let Some(queues) = self.die_queues.as_mut() else { return false };
        let sequence = match queues.granted_sequence.take() {
            Some((granted_die, sequence)) if granted_die == die => sequence,
            _ => {
                queues.next_sequence += 1;
                queues.next_sequence - 1
            }
        };
        let flow = match queues.admitted_flow.take() {
            Some((admitted_die, flow)) if admitted_die == die => flow,
            _ => NO_FLOW,
        };
        let queue = &mut queues.dies[die as usize];
        queue.generation = queue.generation.wrapping_add(1);
        queue.running = Running { array, kind: Some(kind), priority: Some(priority), sequence, flow, completion };
        queue.end_pending = completion != Completion::Nothing || !queue.waiting.is_empty();
        if queue.end_pending {
            let generation = queue.generation;
            self.events.schedule(busy_until, (FlashEvent::DieEnd { die, generation }).pack());
        }
        true
    }

    /// The end of what `die` ran (if `generation` is still current): its completion, then the next
    /// waiting operation.
    pub(super) fn die_end(&mut self, die: u32, generation: u32, now: SimTime) {
        let Some(queues) = self.die_queues.as_mut() else { return };
        let queue = &mut queues.dies[die as usize];
        if queue.generation != generation || !queue.end_pending {
            return;
        }
        queue.end_pending = false;
        let completion = std::mem::take(&mut queue.running.completion);
        queue.running.array = ArrayOperation::Other;
        match completion {
            Completion::Nothing => {}
            Completion::Finish(waiter) => self.finish(waiter, now),
            Completion::Event(packed) => self.run_event(now, packed),
        }
        self.dispatch(die, now);
    }

    /// Grants `die`'s waiting operations, in the policy's order, while the die is free.
    fn dispatch(&mut self, die: u32, now: SimTime) {
        loop {
            let gc_urgent = self.gc_urgent(die);
            let busy_until = self.dies[die as usize].busy_until();
            let Some(queues) = self.die_queues.as_mut() else { return };
            let queue = &mut queues.dies[die as usize];
            if queue.waiting.is_empty() {
                return;
            }
            if busy_until > now {
                // The die took work meanwhile (a completion's next step): wait for its end.
                if !queue.end_pending {
                    queue.end_pending = true;
                    let generation = queue.generation;
                    self.events.schedule(busy_until, (FlashEvent::DieEnd { die, generation }).pack());
                }
                return;
            }
            queues.scratch.clear();
            queues.scratch.extend(queue.waiting.iter().map(|waiting| waiting.candidate));
            let index = queues.policy.pick(die, now.0, &queues.scratch, gc_urgent);
            let queue = &mut queues.dies[die as usize];
            let waiting = queue.waiting.remove(index);
            let generation = queue.generation;
            let wait = now.0 - waiting.since.0;
            queues.statistics.queued_operations += 1;
            queues.statistics.queue_wait_ns += wait;
            queues.statistics.longest_wait_ns = queues.statistics.longest_wait_ns.max(wait);
            queues.granted = Some(die);
            queues.granted_sequence = Some((die, waiting.candidate.sequence));
            match waiting.action {
                Action::Event(packed) => self.run_event(now, packed),
                Action::PlainRead { ppns, waiter } => self.read_plain_granted(now, &ppns, waiter),
                Action::Resume { remaining_ns, array, completion } => {
                    let queues = self.die_queues.as_mut().expect("queued");
                    queues.granted = None;
                    queues.statistics.resumes += 1;
                    queues.dies[die as usize].suspended = false;
                    queues.admitted_flow = Some((die, waiting.candidate.flow));
                    self.book(now, Resource::Die(die), remaining_ns);
                    // It keeps its age (granted_sequence): it competes as the operation it was.
                    let candidate = waiting.candidate;
                    self.die_started(die, candidate.kind, candidate.priority, array, completion);
                }
            }
            let Some(queues) = self.die_queues.as_mut() else { return };
            queues.granted = None;
            queues.granted_sequence = None;
            if queues.dies[die as usize].generation != generation {
                // The die runs the granted operation; its end grants the next.
                let queue = &mut queues.dies[die as usize];
                if !queue.waiting.is_empty() && !queue.end_pending {
                    queue.end_pending = true;
                    let generation = queue.generation;
                    let end = self.dies[die as usize].busy_until();
                    self.events.schedule(end, (FlashEvent::DieEnd { die, generation }).pack());
                }
                return;
            }
            // The granted operation did not use the die (e.g. a step without sensing): go on.
        }
    }

    /// Whether garbage collection goes first on `die` (MQSim's `GC_is_in_urgent_mode`: always when
    /// GC is not preemptible, else below the hard threshold).
    fn gc_urgent(&self, die: u32) -> bool {
        match self.gate.as_ref() {
            Some(gate) => !gate.gc_yields_on(die),
            None => false,
        }
    }

    /// Whether no operation waits for `die` (the look-ahead check's "no outstanding read").
    pub(super) fn nothing_waits_for(&self, die: u32) -> bool {
        self.die_queues.as_ref().is_none_or(|queues| queues.dies[die as usize].waiting.is_empty())
    }

    /// Operations waiting in the dies' queues (for the end-of-run check).
    pub(super) fn operations_waiting(&self) -> usize {
        self.die_queues.as_ref().map_or(0, |queues| queues.dies.iter().map(|queue| queue.waiting.len()).sum())
    }
}

/// The estimated die time of an operation of `kind` from the die's (read, program, erase) times.
fn service_estimate(service_ns: &[u64; 3], kind: OperationKind) -> u64 {
    match kind {
        OperationKind::MappingRead | OperationKind::HostRead | OperationKind::GcRead => service_ns[0],
        OperationKind::MappingWrite | OperationKind::HostWrite | OperationKind::GcWrite => service_ns[1],
        OperationKind::GcErase => service_ns[2],
    }
}
