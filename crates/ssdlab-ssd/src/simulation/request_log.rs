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
//! `ssdlab run --request-log FILE.parquet` turns it into Parquet. Left out: waits behind GC set off by
//! other requests (a die's queue does not record whose work delayed whom).

use crate::error::SimulationError;
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
        out.write_all(b"request,op,offset_bytes,size_bytes,pages,arrival_ns,issue_ns,completion_ns,latency_ns,soft_reads,gc_pages_copied").map_err(io)?;
        out.write_all(if flows.is_empty() { b"\n" } else { b",flow,submission_queue\n" }).map_err(io)?;
        Ok(RequestLog {
            path: path.to_path_buf(),
            out,
            in_flight: Vec::new(),
            rows: 0,
            error: None,
            line: String::with_capacity(96),
            flow_fields: flows.iter().map(|name| csv_field(name)).collect(),
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

    pub(super) fn completed(&mut self, slot: u32, completion: SimTime) {
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
