//! Trace statistics and the seed-000 workload classifier.
//!
//! The classifier follows seed 000 §3 (AOA-ECC, Fig. 4): over a one-week trace, the average write
//! frequency of the written logical blocks decides hot (at least 7 writes per week, i.e. an average
//! data retention of at most one day) or cold; the read share decides read- or write-dominant. For a
//! trace shorter than a week the write frequency is extrapolated linearly to a week, and the result
//! says so (`class_basis`). Footprint and write counts are kept per 4 KiB block (`block_bytes`).

use crate::error::WorkloadError;
use crate::request::{IoOp, IoRequest};
use hdrhistogram::Histogram;
use std::collections::HashMap;

const WEEK_NS: f64 = 7.0 * 24.0 * 3600.0 * 1e9;
/// Distinct blocks tracked at most (about 1.5 GB of table): beyond it the statistics stop with an
/// error asking for larger blocks, so memory stays bounded for any input.
pub const MAX_TRACKED_BLOCKS: usize = 1 << 26;
/// The smallest block size accepted (one sector).
pub const MIN_BLOCK_BYTES: u64 = 512;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkloadClass {
    HotReadDominant,
    HotWriteDominant,
    ColdReadDominant,
    ColdWriteDominant,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct SizeBucket {
    /// Sizes in (previous bucket's upper bound, upper_bytes].
    pub upper_bytes: u64,
    pub requests: u64,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct InterArrival {
    pub mean_us: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct TraceStats {
    pub requests: u64,
    pub reads: u64,
    pub writes: u64,
    /// Delete (discard/TRIM) requests and the bytes they release.
    pub deletes: u64,
    pub bytes_deleted: u64,
    pub read_share: f64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    pub mean_request_bytes: f64,
    pub min_request_bytes: u64,
    pub max_request_bytes: u64,
    pub block_bytes: u64,
    /// Distinct `block_bytes` blocks touched by any request.
    pub footprint_blocks: u64,
    pub footprint_bytes: u64,
    /// Distinct blocks written at least once.
    pub written_blocks: u64,
    pub max_address_bytes: u64,
    pub duration_s: f64,
    pub size_histogram: Vec<SizeBucket>,
    pub inter_arrival: InterArrival,
    /// Mean writes per written block, scaled to one week.
    pub writes_per_block_per_week: f64,
    pub hot: bool,
    pub read_dominant: bool,
    pub class: WorkloadClass,
    pub class_basis: String,
}

/// Accumulates statistics over a request stream.
pub struct StatsBuilder {
    block_bytes: u64,
    requests: u64,
    reads: u64,
    deletes: u64,
    bytes_deleted: u64,
    bytes_read: u64,
    bytes_written: u64,
    min_size: u64,
    max_size: u64,
    max_address: u64,
    first_ns: Option<u64>,
    last_ns: u64,
    previous_ns: Option<u64>,
    inter_arrival: Histogram<u64>,
    size_buckets: Vec<u64>,
    /// Per touched block: number of writes (0 if only read).
    blocks: HashMap<u64, u32>,
}

impl StatsBuilder {
    /// `block_bytes` must be a power of two of at least one sector (512 bytes).
    pub fn new(block_bytes: u64) -> Result<Self, WorkloadError> {
        if block_bytes < MIN_BLOCK_BYTES || !block_bytes.is_power_of_two() {
            return Err(WorkloadError::InvalidOption {
                option: "block_bytes",
                message: format!("must be a power of two of at least {MIN_BLOCK_BYTES} bytes, got {block_bytes}"),
            });
        }
        Ok(StatsBuilder {
            block_bytes,
            requests: 0,
            reads: 0,
            deletes: 0,
            bytes_deleted: 0,
            bytes_read: 0,
            bytes_written: 0,
            min_size: u64::MAX,
            max_size: 0,
            max_address: 0,
            first_ns: None,
            last_ns: 0,
            previous_ns: None,
            inter_arrival: Histogram::new_with_bounds(1, 1 << 52, 3).expect("valid histogram bounds"),
            size_buckets: vec![0; 64],
            blocks: HashMap::new(),
        })
    }

    /// Adds one request; fails when the trace touches more than [`MAX_TRACKED_BLOCKS`] blocks.
    pub fn add(&mut self, request: &IoRequest) -> Result<(), WorkloadError> {
        let t = request.arrival.0;
        self.requests += 1;
        self.first_ns.get_or_insert(t);
        self.last_ns = self.last_ns.max(t);
        if let Some(previous) = self.previous_ns {
            self.inter_arrival.saturating_record(t.saturating_sub(previous));
        }
        self.previous_ns = Some(t);
        let size = request.size_bytes;
        self.min_size = self.min_size.min(size);
        self.max_size = self.max_size.max(size);
        self.max_address = self.max_address.max(request.end_bytes());
        let bucket = (64 - (size.max(1) - 1).leading_zeros()) as usize;
        self.size_buckets[bucket.min(63)] += 1;
        let first_block = request.offset_bytes / self.block_bytes;
        let last_block = (request.end_bytes() - 1) / self.block_bytes;
        match request.op {
            IoOp::Read => {
                self.reads += 1;
                self.bytes_read += size;
                for block in first_block..=last_block {
                    self.blocks.entry(block).or_insert(0);
                }
            }
            IoOp::Write => {
                self.bytes_written += size;
                for block in first_block..=last_block {
                    *self.blocks.entry(block).or_insert(0) += 1;
                }
            }
            // A delete moves no data: counted, not part of the footprint or the write frequency.
            IoOp::Delete => {
                self.deletes += 1;
                self.bytes_deleted += size;
            }
        }
        if self.blocks.len() > MAX_TRACKED_BLOCKS {
            return Err(WorkloadError::InvalidOption {
                option: "block_bytes",
                message: format!("the trace touches more than {MAX_TRACKED_BLOCKS} distinct blocks of {} bytes (line {}); use larger blocks", self.block_bytes, request.origin_line),
            });
        }
        Ok(())
    }

    pub fn finish(self) -> TraceStats {
        let writes = self.requests - self.reads - self.deletes;
        let duration_ns = self.last_ns.saturating_sub(self.first_ns.unwrap_or(0));
        let written: Vec<u32> = self.blocks.values().copied().filter(|&w| w > 0).collect();
        let mean_writes = if written.is_empty() {
            0.0
        } else {
            written.iter().map(|&w| w as f64).sum::<f64>() / written.len() as f64
        };
        let (writes_per_week, basis) = if duration_ns == 0 {
            (0.0, "trace has zero duration; write frequency unknown, classed cold".to_string())
        } else {
            let scale = WEEK_NS / duration_ns as f64;
            let basis = if duration_ns as f64 >= 0.93 * WEEK_NS {
                format!("measured over {:.2} days", duration_ns as f64 / 86_400e9)
            } else {
                format!("extrapolated to one week from {:.1} s of trace", duration_ns as f64 * 1e-9)
            };
            (mean_writes * scale.max(1.0), basis)
        };
        let hot = writes_per_week >= 7.0;
        // Over the requests that move data (deletes are not I/O).
        let io_requests = self.reads + writes;
        let read_share = if io_requests == 0 { 0.0 } else { self.reads as f64 / io_requests as f64 };
        let read_dominant = read_share > 0.5;
        let class = match (hot, read_dominant) {
            (true, true) => WorkloadClass::HotReadDominant,
            (true, false) => WorkloadClass::HotWriteDominant,
            (false, true) => WorkloadClass::ColdReadDominant,
            (false, false) => WorkloadClass::ColdWriteDominant,
        };
        let histogram = &self.inter_arrival;
        let us = |ns: u64| ns as f64 * 1e-3;
        let size_histogram = self
            .size_buckets
            .iter()
            .enumerate()
            .filter(|(_, &count)| count > 0)
            .map(|(bucket, &count)| SizeBucket { upper_bytes: 1u64 << bucket, requests: count })
            .collect();
        TraceStats {
            requests: self.requests,
            reads: self.reads,
            writes,
            deletes: self.deletes,
            bytes_deleted: self.bytes_deleted,
            read_share,
            bytes_read: self.bytes_read,
            bytes_written: self.bytes_written,
            mean_request_bytes: if self.requests == 0 {
                0.0
            } else {
                (self.bytes_read + self.bytes_written) as f64 / self.requests as f64
            },
            min_request_bytes: if self.requests == 0 { 0 } else { self.min_size },
            max_request_bytes: self.max_size,
            block_bytes: self.block_bytes,
            footprint_blocks: self.blocks.len() as u64,
            footprint_bytes: self.blocks.len() as u64 * self.block_bytes,
            written_blocks: written.len() as u64,
            max_address_bytes: self.max_address,
            duration_s: duration_ns as f64 * 1e-9,
            size_histogram,
            inter_arrival: InterArrival {
                mean_us: if histogram.is_empty() { 0.0 } else { histogram.mean() * 1e-3 },
                p50_us: us(histogram.value_at_quantile(0.5)),
                p99_us: us(histogram.value_at_quantile(0.99)),
                max_us: us(histogram.max()),
            },
            writes_per_block_per_week: writes_per_week,
            hot,
            read_dominant,
            class,
            class_basis: basis,
        }
    }
}

/// Statistics of any request stream.
pub fn compute<I>(requests: I, block_bytes: u64) -> Result<TraceStats, WorkloadError>
where
    I: IntoIterator<Item = Result<IoRequest, WorkloadError>>,
{
    let mut builder = StatsBuilder::new(block_bytes)?;
    for request in requests {
        builder.add(&request?)?;
    }
    Ok(builder.finish())
}
