//! Each flow's section of the result, and the fairness between flows (MQSim's definitions: a flow's
//! slowdown is its mean latency sharing the device over its mean latency running alone; fairness
//! is the smallest slowdown over the largest, 1 when every flow suffers alike). The alone latencies
//! come from runs of each flow by itself on the same device (`host.queues.measure_alone`), made by
//! the caller. Leaves out: MQSim's per-flow bandwidth figures beyond bytes per second.

use super::FlowSet;
use crate::host::device_queue::HostQueueStatistics;
use crate::metrics::{LatencyRecorder, OpMetrics};
use serde::Serialize;

/// One flow's part of the result.
#[derive(Debug, Clone, Serialize)]
pub struct FlowSummary {
    pub name: String,
    pub priority_class: String,
    pub requests: u64,
    /// From the flow's first arrival until its last completion.
    pub span_seconds: f64,
    /// Requests per second over its span.
    pub iops: f64,
    /// Reads, writes and both, over the flow's span.
    pub read: OpMetrics,
    pub write: OpMetrics,
    pub all: OpMetrics,
    /// The flow's submission queue: requests that waited for it, their wait, the most in flight.
    pub submission_queue: HostQueueStatistics,
    /// Mean latency (all requests, µs) of the flow alone on the device; absent without alone runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alone_mean_latency_us: Option<f64>,
    /// Mean latency shared / mean latency alone; absent without alone runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slowdown: Option<f64>,
}

/// The flows' section of the result.
#[derive(Debug, Clone, Serialize)]
pub struct FlowsSection {
    /// `round_robin` or `weighted_round_robin`.
    pub arbitration: String,
    /// Submission queues (one per flow).
    pub queues: u64,
    pub per_flow: Vec<FlowSummary>,
    /// Smallest slowdown / largest slowdown; absent without alone runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fairness: Option<f64>,
}

impl FlowsSection {
    /// The section of a shared run (no alone figures yet).
    pub fn of(flows: &FlowSet, arbitration: &str) -> FlowsSection {
        let summaries = flows
            .flows
            .iter()
            .enumerate()
            .map(|(index, flow)| {
                let span =
                    flow.first_arrival.map_or(0.0, |first| flow.last_completion.max(first).since(first).as_secs_f64());
                let all = LatencyRecorder::combined(&flow.read, &flow.write);
                FlowSummary {
                    name: flow.name.clone(),
                    priority_class: flow.class.name().to_string(),
                    requests: flow.issued,
                    span_seconds: span,
                    iops: if span > 0.0 { flow.issued as f64 / span } else { 0.0 },
                    read: flow.read.summary(span),
                    write: flow.write.summary(span),
                    all: all.summary(span),
                    submission_queue: flows.flow_queue_summary(index),
                    alone_mean_latency_us: None,
                    slowdown: None,
                }
            })
            .collect();
        FlowsSection {
            arbitration: arbitration.to_string(),
            queues: flows.flows.len() as u64,
            per_flow: summaries,
            fairness: None,
        }
    }

    /// Fills in slowdowns and fairness from each flow's mean latency alone (same order as `flows`).
    pub fn with_alone(mut self, alone_mean_latency_us: &[f64]) -> FlowsSection {
        for (flow, &alone) in self.per_flow.iter_mut().zip(alone_mean_latency_us) {
            flow.alone_mean_latency_us = Some(alone);
            flow.slowdown = (alone > 0.0).then(|| flow.all.latency_us.mean / alone);
        }
        let slowdowns: Vec<f64> = self.per_flow.iter().filter_map(|flow| flow.slowdown).collect();
        if slowdowns.len() == self.per_flow.len() && !slowdowns.is_empty() {
            let min = slowdowns.iter().copied().fold(f64::INFINITY, f64::min);
            let max = slowdowns.iter().copied().fold(0.0, f64::max);
            self.fairness = (max > 0.0).then(|| min / max);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::LatencyRecorder;

    fn summary(name: &str, mean_us: f64) -> FlowSummary {
        let mut recorder = LatencyRecorder::default();
        recorder.record((mean_us * 1e3) as u64, 4096);
        FlowSummary {
            name: name.into(),
            priority_class: "medium".into(),
            requests: 1,
            span_seconds: 1.0,
            iops: 1.0,
            read: recorder.summary(1.0),
            write: LatencyRecorder::default().summary(1.0),
            all: recorder.summary(1.0),
            submission_queue: HostQueueStatistics::default(),
            alone_mean_latency_us: None,
            slowdown: None,
        }
    }

    #[test]
    fn slowdown_is_shared_over_alone_and_fairness_the_ratio_of_extremes() {
        let section = FlowsSection {
            arbitration: "round_robin".into(),
            queues: 2,
            per_flow: vec![summary("a", 300.0), summary("b", 100.0)],
            fairness: None,
        }
        .with_alone(&[100.0, 50.0]);
        assert_eq!(section.per_flow[0].slowdown, Some(3.0));
        assert_eq!(section.per_flow[1].slowdown, Some(2.0));
        assert_eq!(section.fairness, Some(2.0 / 3.0));
    }
}
