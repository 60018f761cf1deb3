//! The per-request log (issue 17, `output.request_log_path`): one CSV line per completed request,
//! streamed to the file as requests complete, so memory stays bounded by the requests in the device.
//! Columns: `request` (issue order, from 1), `op` (R/W/D), `offset_bytes`, `size_bytes`, `pages`,
//! `arrival_ns` (when latency counts from: the arrival in open loop, the issue in closed loop),
//! `issue_ns`, `completion_ns`, `latency_ns`, `soft_reads` (pages of the request whose hard decision
//! failed and that were read again with soft sensing), `gc_pages_copied` (pages garbage collection
//! copied because of this request: foreground GC its writes set off, which its pages queue behind).
//! With `host.flows`, two more: `flow` (the flow's name) and `submission_queue` (its queue: the
//! flow's position in `host.flows`, from 0); only the shared run is logged, not the runs of each flow
//! alone that `host.queues.measure_alone` adds.
//! Then where the latency went (issue 49 item 5; `scheduler/breakdown.rs`): `host_queue_ns` (issue -
//! arrival: waiting in the host for a submission slot), then the device time (completion - issue)
//! split along the request's critical path: `before_flash_ns` (gates: a mapping-table read, a write
//! held for garbage collection), `die_wait_ns`, `array_ns`, `channel_wait_ns`, `channel_ns`,
//! `dram_ns` (the data cache's DRAM) and `controller_ns` (decoding); the eight add up to
//! `latency_ns`. The result's `request_log.mean_breakdown_us` gives their means.
//! `ssdlab run --request-log FILE.parquet` turns it into Parquet. Left out: waits behind GC set off by
//! other requests (a die's queue does not record whose work delayed whom).

use crate::error::SimulationError;
use crate::scheduler::LatencyBreakdown;
use ssdlab_engine::SimTime;
use ssdlab_workload::IoOp;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A request as the log records it when it is issued (its row is written when it completes).
#[derive(Clone, Copy)]
pub(super) struct Logged {
    /// Issue order, from 1.
    pub index: u64,
    pub op: IoOp,
    pub offset_bytes: u64,
    pub size_bytes: u64,
    pub pages: u64,
    pub latency_from: SimTime,
    pub issue: SimTime,
    /// Its flow's position in `host.flows` (0 with one stream).
    pub flow: u8,
}

#[derive(Clone, Copy)]
struct InFlight {
    request: Logged,
    soft_reads: u64,
    gc_pages_copied: u64,
}

pub(super) struct RequestLog {
    path: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    /// By scheduler slot (slots are reused, so this holds at most the requests in the device).
    in_flight: Vec<Option<InFlight>>,
    rows: u64,
    error: Option<std::io::Error>,
    line: String,
    /// The flows' names as CSV fields (quoted where needed); empty with one stream (no flow columns).
    flow_fields: Vec<String>,
    /// Sums of the breakdown columns over the rows, for their means: host queue, then the parts.
    sums: [u64; 8],
}

/// The means of the log's breakdown columns over its rows, in us.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct MeanBreakdown {
    pub host_queue_us: f64,
    pub before_flash_us: f64,
    pub die_wait_us: f64,
    pub array_us: f64,
    pub channel_wait_us: f64,
    pub channel_us: f64,
    pub dram_us: f64,
    pub controller_us: f64,
}

impl RequestLog {
    /// `flows`: the names of `host.flows` in config order (empty: one stream, no flow columns).
    pub(super) fn create(path: &Path, flows: Vec<String>) -> Result<Self, SimulationError> {
        let io = |error: std::io::Error| {
            SimulationError::Config(crate::error::ConfigError::Invalid {
                origin: "config".into(),
                line: None,
                field: "output.request_log_path".into(),
                message: format!("cannot write {}: {error}", path.display()),
            })
        };
        let file = std::fs::File::create(path).map_err(io)?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        out.write_all(b"request,op,offset_bytes,size_bytes,pages,arrival_ns,issue_ns,completion_ns,latency_ns,soft_reads,gc_pages_copied,host_queue_ns,before_flash_ns,die_wait_ns,array_ns,channel_wait_ns,channel_ns,dram_ns,controller_ns").map_err(io)?;
        out.write_all(if flows.is_empty() { b"\n" } else { b",flow,submission_queue\n" }).map_err(io)?;
        Ok(RequestLog {
            path: path.to_path_buf(),
            out,
            in_flight: Vec::new(),
            rows: 0,
            error: None,
            line: String::with_capacity(96),
            flow_fields: flows.iter().map(|name| csv_field(name)).collect(),
            sums: [0; 8],
        })
    }

    /// `request` went into scheduler slot `slot`.
    pub(super) fn issued(&mut self, slot: u32, request: Logged) {
        let slot = slot as usize;
        if slot >= self.in_flight.len() {
            self.in_flight.resize(slot + 1, None);
        }
        self.in_flight[slot] = Some(InFlight { request, soft_reads: 0, gc_pages_copied: 0 });
    }

    /// What serving the request in `slot` caused (see the module comment).
    pub(super) fn annotate(&mut self, slot: u32, soft_reads: u64, gc_pages_copied: u64) {
        if let Some(Some(entry)) = self.in_flight.get_mut(slot as usize) {
            entry.soft_reads = soft_reads;
            entry.gc_pages_copied = gc_pages_copied;
        }
    }

    pub(super) fn completed(&mut self, slot: u32, completion: SimTime, breakdown: LatencyBreakdown) {
        use std::fmt::Write as _;
        let Some(InFlight { request: entry, soft_reads, gc_pages_copied }) =
            self.in_flight.get_mut(slot as usize).and_then(Option::take)
        else {
            return;
        };
        if self.error.is_some() {
            return;
        }
        let op = match entry.op {
            IoOp::Read => 'R',
            IoOp::Write => 'W',
            IoOp::Delete => 'D',
        };
        self.line.clear();
        let _ = write!(
            self.line,
            "{},{op},{},{},{},{},{},{},{},{},{}",
            entry.index,
            entry.offset_bytes,
            entry.size_bytes,
            entry.pages,
            entry.latency_from.0,
            entry.issue.0,
            completion.0,
            completion.0.saturating_sub(entry.latency_from.0),
            soft_reads,
            gc_pages_copied
        );
        let parts = [
            entry.issue.0.saturating_sub(entry.latency_from.0),
            breakdown.before_flash_ns,
            breakdown.die_wait_ns,
            breakdown.array_ns,
            breakdown.channel_wait_ns,
            breakdown.channel_ns,
            breakdown.dram_ns,
            breakdown.controller_ns,
        ];
        for (sum, part) in self.sums.iter_mut().zip(parts) {
            *sum += part;
            let _ = write!(self.line, ",{part}");
        }
        if let Some(name) = self.flow_fields.get(entry.flow as usize) {
            let _ = write!(self.line, ",{name},{}", entry.flow);
        }
        self.line.push('\n');
        match self.out.write_all(self.line.as_bytes()) {
            Ok(()) => self.rows += 1,
            Err(error) => self.error = Some(error),
        }
    }

    /// Flushes; returns (path, rows) or the first write error.
    /// The means of the breakdown columns over the rows written.
    pub(super) fn mean_breakdown(&self) -> MeanBreakdown {
        let mean = |sum: u64| sum as f64 / self.rows.max(1) as f64 / 1000.0;
        let s = self.sums;
        MeanBreakdown {
            host_queue_us: mean(s[0]),
            before_flash_us: mean(s[1]),
            die_wait_us: mean(s[2]),
            array_us: mean(s[3]),
            channel_wait_us: mean(s[4]),
            channel_us: mean(s[5]),
            dram_us: mean(s[6]),
            controller_us: mean(s[7]),
        }
    }

    pub(super) fn finish(mut self) -> Result<(PathBuf, u64), SimulationError> {
        let flushed = match self.error.take() {
            Some(error) => Err(error),
            None => self.out.flush(),
        };
        flushed.map_err(|error| SimulationError::Interrupted {
            reason: format!("writing the request log {}: {error}", self.path.display()),
        })?;
        Ok((self.path, self.rows))
    }
}

/// A CSV field: quoted (with quotes doubled) when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
