//! Several I/O flows sharing the device (issue 37; MQSim's multi-flow host interface): each flow
//! has its own request stream and its own submission queue of `submission_queue_depth` entries, and
//! the controller holds at most `host.device_queue_depth` commands over all queues. When a device
//! slot is free and several queues have a command waiting, the arbiter (`../arbitration/`) picks
//! the queue to fetch from.
//!
//! What it models: per flow, open loop (a request waits in the host until its queue has room; its
//! latency counts from its arrival) or closed loop (the flow keeps its queue full; latency counts
//! from the fetch), an LBA offset (flows share one namespace, an offset gives a flow its own
//! range), a flow confined to some of the device's units and the logical range it owns
//! (`resources.rs`; its requests beyond the range are refused), a synthetic flow's stop time (open
//! loop: its stream ends at its first arrival at or after it; closed loop: the flow issues nothing
//! at or after it), and its own latency and queue statistics (`result.rs`). What it leaves out: completion
//! queues and interrupts, command fetch and doorbell latency (a fetch takes no time), several
//! queues per flow; in closed loop, the time a command spends in its queue while the device is full
//! is not in its latency. Source: NVMe base specification (submission queues, command arbitration);
//! MQSim's `Host_Interface_NVMe` and `IO_Flow_Base` (one submission queue per flow).

pub mod resources;
pub mod result;

use super::arbitration::{self, Arbiter};
use super::device_queue::{DeviceQueue, HostQueueStatistics};
use super::submissions::{Finished, Submission, Submissions};
use super::RequestStream;
use crate::config::{FlowConfig, HostMode, PriorityClass, QueuesConfig};
use crate::error::SimulationError;
use crate::metrics::LatencyRecorder;
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;

/// One flow: its stream, its submission queue and what it measured.
pub struct Flow {
    pub name: String,
    pub class: PriorityClass,
    closed_loop: bool,
    /// Closed loop with a stop time: nothing is issued at or after it.
    stop: Option<SimTime>,
    /// Closed loop with a stop time: whether, at the last look, the head could only be issued at or
    /// after the stop (final once the run ends).
    at_stop: bool,
    lba_offset_bytes: u64,
    /// A confined flow's own logical range in bytes (`resources.rs`): its requests must end within.
    range_bytes: Option<(u64, u64)>,
    /// Where the flow's requests come from (a trace's path, or "synthetic"), for errors.
    origin: String,
    stream: RequestStream,
    /// The submission queue: the flow's commands in the device.
    queue: DeviceQueue,
    head: Option<IoRequest>,
    pub read: LatencyRecorder,
    pub write: LatencyRecorder,
    pub issued: u64,
    pub first_arrival: Option<SimTime>,
    pub last_completion: SimTime,
}

impl Flow {
    /// When the flow's head could be fetched, the clock at `now` (None: no head, or its queue full
    /// with no completion known yet).
    #[inline]
    fn ready(&mut self, now: SimTime) -> Option<SimTime> {
        let head = self.head.as_ref()?;
        let ready = if self.closed_loop { now } else { head.arrival.max(now) };
        if let Some(stop) = self.stop {
            if now >= stop {
                // The clock is past the stop: the flow is over.
                self.head = None;
                self.at_stop = true;
                return None;
            }
        }
        self.queue.retire_until(ready);
        let issue = if self.queue.is_full() {
            self.queue.earliest_completion().map(|completion| completion.max(ready))
        } else {
            Some(ready)
        };
        if let Some(stop) = self.stop {
            // Not final: an event may still reveal an earlier completion (asked again after it).
            self.at_stop = issue.is_some_and(|issue| issue >= stop);
            if self.at_stop {
                return None;
            }
        }
        issue
    }

    /// Requests the flow issues: once stopped at its stop time, those it issued; before, its
    /// stream's count (the bound with a stop time).
    fn expected_total(&self) -> u64 {
        if self.at_stop {
            self.issued
        } else {
            self.stream.expected_total()
        }
    }

    fn advance(&mut self) -> Result<(), SimulationError> {
        self.head = self.stream.next_request()?;
        if let Some(request) = self.head.as_mut() {
            // Saturating: an offset that would wrap past 2^64 must stay beyond the device (and be
            // refused by `take`), not replay at a small address (issue 48 item 10).
            request.offset_bytes = request.offset_bytes.saturating_add(self.lba_offset_bytes);
        }
        Ok(())
    }
}

pub struct FlowSet {
    pub flows: Vec<Flow>,
    /// The controller's commands over all queues (`host.device_queue_depth`).
    device: DeviceQueue,
    arbiter: Box<dyn Arbiter>,
    /// The flow of each scheduler slot in use.
    slot_flow: Vec<u8>,
    /// Per flow: has a command waiting at the fetch being decided (scratch).
    waiting: Vec<bool>,
    capacity_bytes: u64,
    total: u64,
}

impl FlowSet {
    /// Flows in config order, each with its stream (already built: `[workload]`'s for the flow that
    /// replays it); `capacity_bytes`: the host's logical capacity (a request beyond it is an error
    /// naming the flow); `ranges_bytes`: each confined flow's own range (empty: none confined).
    pub fn new(
        queues: &QueuesConfig,
        configs: &[FlowConfig],
        streams: Vec<(RequestStream, String)>,
        device_queue_depth: u32,
        capacity_bytes: u64,
        ranges_bytes: &[Option<(u64, u64)>],
    ) -> Result<Self, SimulationError> {
        let classes: Vec<PriorityClass> = configs.iter().map(|flow| flow.priority_class).collect();
        let mut flows = Vec::with_capacity(configs.len());
        for (index, (config, (stream, origin))) in configs.iter().zip(streams).enumerate() {
            let closed_loop = config.mode == HostMode::ClosedLoop;
            // A stop time ends an open-loop stream at its arrivals, a closed-loop flow at its issues.
            let stop = if closed_loop { stream.stop_time_ns().map(SimTime) } else { None };
            let stream = if closed_loop { stream } else { stream.with_arrivals_stopped() };
            let mut flow = Flow {
                name: config.name.clone(),
                class: config.priority_class,
                closed_loop,
                stop,
                at_stop: false,
                lba_offset_bytes: config.lba_offset_bytes,
                range_bytes: ranges_bytes.get(index).copied().flatten(),
                origin,
                stream,
                queue: DeviceQueue::new(config.submission_queue_depth),
                head: None,
                read: LatencyRecorder::default(),
                write: LatencyRecorder::default(),
                issued: 0,
                first_arrival: None,
                last_completion: SimTime::ZERO,
            };
            flow.advance()?;
            flows.push(flow);
        }
        let total = flows.iter().map(|flow| flow.stream.expected_total()).sum();
        Ok(FlowSet {
            waiting: vec![false; flows.len()],
            flows,
            device: DeviceQueue::new(device_queue_depth),
            arbiter: arbitration::build(queues, &classes),
            slot_flow: Vec::new(),
            capacity_bytes,
            total,
        })
    }

    /// Each flow's submission-queue statistics.
    pub fn flow_queue_summary(&self, flow: usize) -> HostQueueStatistics {
        self.flows[flow].queue.summary(self.flows[flow].issued)
    }

    /// Reader threads' CPU time over every flow.
    pub fn reader_cpu_seconds(&self) -> f64 {
        self.flows.iter().map(|flow| flow.stream.reader_cpu_seconds()).sum()
    }
}

impl Submissions for FlowSet {
    fn expected_total(&self) -> u64 {
        self.flows.iter().map(Flow::expected_total).sum()
    }

    fn has_next(&self) -> bool {
        self.flows.iter().any(|flow| flow.head.is_some())
    }

    fn issue_at(&mut self, now: SimTime) -> Option<SimTime> {
        let earliest = self.flows.iter_mut().filter_map(|flow| flow.ready(now)).min()?;
        self.device.retire_until(earliest);
        if self.device.is_full() {
            self.device.earliest_completion().map(|completion| completion.max(earliest))
        } else {
            Some(earliest)
        }
    }

    fn take(&mut self, issue: SimTime) -> Result<Submission, SimulationError> {
        self.device.retire_until(issue);
        for (waiting, flow) in self.waiting.iter_mut().zip(self.flows.iter_mut()) {
            *waiting = flow.ready(issue).is_some_and(|ready| ready <= issue);
        }
        let index = self.arbiter.pick(&self.waiting);
        let flow = &mut self.flows[index];
        let Some(request) = flow.head.filter(|_| self.waiting[index]) else {
            return Err(SimulationError::Incomplete { generated: self.total, completed: 0 });
        };
        if request.end_bytes() > self.capacity_bytes {
            return Err(SimulationError::FlowBeyondDevice {
                flow: flow.name.clone(),
                origin: flow.origin.clone(),
                line: request.origin_line,
                end_bytes: request.end_bytes(),
                capacity_bytes: self.capacity_bytes,
            });
        }
        if let Some((start, end)) = flow.range_bytes {
            if request.end_bytes() > end {
                return Err(SimulationError::FlowBeyondRange {
                    flow: flow.name.clone(),
                    index,
                    origin: flow.origin.clone(),
                    line: request.origin_line,
                    end_bytes: request.end_bytes(),
                    range_start_bytes: start,
                    range_end_bytes: end,
                });
            }
        }
        flow.advance()?;
        let latency_from = if flow.closed_loop { issue } else { request.arrival };
        flow.queue.admit(latency_from, issue);
        flow.issued += 1;
        flow.first_arrival.get_or_insert(latency_from);
        self.device.admit(latency_from, issue);
        Ok(Submission { request, latency_from, flow: index as u8 })
    }

    fn upcoming(&self) -> (Option<&IoRequest>, Option<&IoRequest>) {
        (None, None)
    }

    fn opened(&mut self, submission: &Submission, slot: u32) {
        let slot = slot as usize;
        if slot >= self.slot_flow.len() {
            self.slot_flow.resize(slot + 1, 0);
        }
        self.slot_flow[slot] = submission.flow;
    }

    fn completed(&mut self, finished: &Finished) {
        let flow = &mut self.flows[self.slot_flow[finished.slot as usize] as usize];
        flow.queue.completes_at(finished.completion);
        flow.last_completion = flow.last_completion.max(finished.completion);
        self.device.completes_at(finished.completion);
        if finished.write {
            flow.write.record(finished.latency_ns, finished.size_bytes);
        } else if !finished.delete {
            flow.read.record(finished.latency_ns, finished.size_bytes);
        }
    }

    fn queue_summary(&self, requests: u64) -> HostQueueStatistics {
        self.device.summary(requests)
    }
}

#[cfg(test)]
mod tests {
    //! A flow's stop time among flows, exact: a closed-loop flow issues nothing at or after it, an
    //! open-loop flow's stream ends at its first arrival at or after it, the other flow goes on.

    use super::*;
    use crate::config::FlowConfig;
    use crate::host::single_stream::tests::spec;

    fn flow(name: &str, mode: HostMode, depth: u32) -> FlowConfig {
        FlowConfig {
            name: name.into(),
            priority_class: PriorityClass::Medium,
            submission_queue_depth: depth,
            mode,
            time_scale: 1.0,
            lba_offset_bytes: 0,
            trace: None,
            synthetic: None,
            channels: None,
            chips: None,
            dies: None,
            planes: None,
        }
    }

    /// Replays the flows as the loop does, each request taking 100 ns; returns each flow's issue times.
    fn drive(flows: &mut FlowSet) -> Vec<Vec<u64>> {
        let mut issues = vec![Vec::new(); flows.flows.len()];
        let mut now = SimTime::ZERO;
        let mut slot = 0;
        while flows.has_next() {
            let Some(issue) = flows.issue_at(now) else { break };
            let submission = flows.take(issue).expect("takes");
            flows.opened(&submission, slot);
            issues[submission.flow as usize].push(issue.0);
            flows.completed(&Finished {
                slot,
                completion: SimTime(issue.0 + 100),
                latency_ns: 100,
                size_bytes: submission.request.size_bytes,
                write: true,
                delete: false,
            });
            slot += 1;
            now = issue;
        }
        issues
    }

    #[test]
    fn each_flow_stops_at_its_own_stop_time() {
        // `closed`: one outstanding, 100 ns each, stop at 450: issues at 0, 100, ..., 400 (5).
        // `open`: arrivals every 1000 ns, stop at 3000: arrivals 0, 1000, 2000 (3). `bounded`: no
        // stop, 4 requests every 1000 ns.
        let configs = [
            flow("closed", HostMode::ClosedLoop, 1),
            flow("open", HostMode::OpenLoop, 4),
            flow("bounded", HostMode::OpenLoop, 4),
        ];
        let streams = vec![
            (RequestStream::from_synthetic(&spec(1_000, 1, Some(450)), 1, 1, 1.0).unwrap(), "synthetic".into()),
            (RequestStream::from_synthetic(&spec(1_000, 1_000, Some(3_000)), 2, 1, 1.0).unwrap(), "synthetic".into()),
            (RequestStream::from_synthetic(&spec(4, 1_000, None), 3, 1, 1.0).unwrap(), "synthetic".into()),
        ];
        let mut flows =
            FlowSet::new(&QueuesConfig::default(), &configs, streams, 64, 1 << 30, &[None, None, None]).unwrap();
        assert_eq!(flows.expected_total(), 2_004, "before the stops, the bounds");
        let issues = drive(&mut flows);
        assert_eq!(issues[0], [0, 100, 200, 300, 400]);
        assert_eq!(issues[1], [0, 1_000, 2_000]);
        assert_eq!(issues[2], [0, 1_000, 2_000, 3_000]);
        assert_eq!(flows.expected_total(), 12, "after them, what was issued");
        assert_eq!(flows.flows.iter().map(|flow| flow.issued).collect::<Vec<_>>(), [5, 3, 4]);
    }
}
