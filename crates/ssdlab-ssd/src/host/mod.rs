//! Host interface: where requests come from and how they become page operations.
//!
//! * [`RequestStream`] replays a trace or a synthetic workload, `loops` times back to back. Each loop
//!   is shifted by the previous loop's span plus one mean inter-arrival gap, so arrivals keep increasing.
//!   Arrival times are multiplied by `time_scale`. With `tiles` > 1 every request is issued that many
//!   times at the same arrival, copy k shifted by k x `tile_stride_bytes` (independent volumes side by side).
//! * [`PageSpan`] splits a byte range into logical pages and marks partial first/last pages (a partial
//!   write of a page that holds data needs read-modify-write).
//! * Open loop issues each request at its arrival time; closed loop keeps `queue_depth` requests
//!   outstanding and issues the next one when the earliest outstanding one completes (arrival times
//!   are ignored). Both are driven by the simulation (see `simulation/replay.rs`).
//! * A synthetic stream's stop time (`stop_time_ns`, MQSim's `Stop_Time`) on the run's clock: open
//!   loop, the stream ends at its first request arriving at or after it
//!   ([`RequestStream::with_arrivals_stopped`]); closed loop, the host issues nothing at or after it
//!   (`single_stream.rs`, `flows/`: the host owns the clock there). `requests` is then the bound, and
//!   the run's request count is what was issued. Loops (`host.loops`) share the one stop time.
//! * [`device_queue::DeviceQueue`]: the bounded device queue (open loop: host.device_queue_depth;
//!   closed loop: host.queue_depth); arrivals beyond it wait in the host queue.
//! * [`submissions::Submissions`]: what the replay loop asks of the host interface, answered by the
//!   one stream ([`single_stream::SingleStream`]) or by several flows with a submission queue each
//!   and arbitration between the queues ([`flows::FlowSet`], [`arbitration`]).

pub mod arbitration;
mod batched_reader;
pub mod device_queue;
pub mod export;
pub mod flows;
mod read_ahead;
pub mod single_stream;
pub mod stall;
pub mod submissions;
#[cfg(test)]
mod test_traces;
pub mod workload_class;

use crate::error::SimulationError;
use ssdlab_engine::SimTime;
use ssdlab_workload::{IoRequest, SyntheticGenerator, SyntheticSpec, TraceScan};

/// A request's logical pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSpan {
    pub first: u64,
    pub last: u64,
    pub first_partial: bool,
    pub last_partial: bool,
}

impl PageSpan {
    /// `page_bytes` is a power of two (the configuration checks it), so shifts and masks do the
    /// division: a 64-bit divide costs a branch on the operands' size that offsets above 4 GiB
    /// mispredict.
    #[inline]
    pub fn of(offset_bytes: u64, size_bytes: u64, page_bytes: u64) -> PageSpan {
        debug_assert!(page_bytes.is_power_of_two());
        let shift = page_bytes.trailing_zeros();
        let mask = page_bytes - 1;
        let end = offset_bytes + size_bytes.max(1);
        let first = offset_bytes >> shift;
        let last = (end - 1) >> shift;
        let last_partial = end & mask != 0;
        PageSpan {
            first,
            last,
            first_partial: (offset_bytes & mask != 0) | ((first == last) & last_partial),
            last_partial,
        }
    }

    pub fn pages(&self) -> u64 {
        self.last - self.first + 1
    }

    pub fn is_partial(&self, page: u64) -> bool {
        (page == self.first && self.first_partial) || (page == self.last && self.last_partial)
    }
}

// One per run, and the generator is called once per request: kept inline rather than boxed.
#[allow(clippy::large_enum_variant)]
enum Source {
    Trace(Box<batched_reader::BatchedReader>),
    /// The trace read on a second thread (`read_ahead.rs`).
    ReadAhead(read_ahead::ReadAhead),
    Synthetic(SyntheticGenerator),
    /// A synthetic stream that ends at its first arrival at or after `stop_ns` on the run's clock
    /// (open loop with `stop_time_ns`); its own variant, so streams without a stop pay nothing.
    SyntheticUntil {
        generator: SyntheticGenerator,
        stop_ns: u64,
    },
}

/// The workload as a stream of requests with final arrival times.
pub struct RequestStream {
    source: Source,
    scan: Option<TraceScan>,
    synthetic: Option<(SyntheticSpec, u64)>,
    loops: u32,
    current_loop: u32,
    time_scale: f64,
    offset_ns: u64,
    last_arrival_ns: u64,
    in_loop: u64,
    reordered_before: u64,
    /// CPU time of the reader threads of finished loops.
    reader_cpu_before: f64,
    tiles: u32,
    tile_stride_bytes: u64,
    /// `host.compact_addresses`: the distinct pages the trace touches, sorted; page i of it becomes page i.
    compaction: Option<std::sync::Arc<[u32]>>,
    page_shift: u32,
    /// The request whose further copies are still to be issued, and the next copy's index.
    pending_copy: Option<(IoRequest, u32)>,
    pub per_loop: u64,
    /// Whether the stream ends at its spec's stop time on arrivals ([`Self::with_arrivals_stopped`]).
    arrivals_stopped: bool,
}

impl RequestStream {
    pub fn from_trace(scan: TraceScan, loops: u32, time_scale: f64) -> Result<Self, SimulationError> {
        let reader = scan.reader()?;
        let per_loop = scan.requests;
        Ok(Self::with_source(
            Source::Trace(Box::new(batched_reader::BatchedReader::new(reader))),
            per_loop,
            Some(scan),
            None,
            loops,
            time_scale,
        ))
    }

    pub fn from_synthetic(
        spec: &SyntheticSpec,
        seed: u64,
        loops: u32,
        time_scale: f64,
    ) -> Result<Self, SimulationError> {
        let generator = SyntheticGenerator::new(spec, seed)?;
        Ok(Self::with_source(
            Source::Synthetic(generator),
            spec.requests,
            None,
            Some((spec.clone(), seed)),
            loops,
            time_scale,
        ))
    }

    fn with_source(
        source: Source,
        per_loop: u64,
        scan: Option<TraceScan>,
        synthetic: Option<(SyntheticSpec, u64)>,
        loops: u32,
        time_scale: f64,
    ) -> Self {
        RequestStream {
            source,
            per_loop,
            scan,
            synthetic,
            loops,
            current_loop: 0,
            time_scale,
            offset_ns: 0,
            last_arrival_ns: 0,
            in_loop: 0,
            reordered_before: 0,
            reader_cpu_before: 0.0,
            tiles: 1,
            tile_stride_bytes: 0,
            compaction: None,
            page_shift: 0,
            pending_copy: None,
            arrivals_stopped: false,
        }
    }

    /// The synthetic spec's stop time (ns on the run's clock), if it has one.
    pub fn stop_time_ns(&self) -> Option<u64> {
        self.synthetic.as_ref().and_then(|(spec, _)| spec.stop_time_ns)
    }

    /// Ends the stream at its first request arriving at or after the spec's stop time (open loop:
    /// arrivals on the run's clock, time scale and loops applied); no effect without a stop time.
    /// Call it before the first request is read.
    pub fn with_arrivals_stopped(mut self) -> Self {
        let Some(stop_ns) = self.stop_time_ns() else { return self };
        self.arrivals_stopped = true;
        self.source = match self.source {
            Source::Synthetic(generator) => Source::SyntheticUntil { generator, stop_ns },
            other => other,
        };
        self
    }

    /// Whether the stream ended at its stop time (arrivals).
    pub fn stopped_at_stop_time(&self) -> bool {
        matches!(&self.source, Source::SyntheticUntil { generator, .. } if generator.stopped())
    }

    /// Requests returned by [`Self::next_request`] so far (tile copies included).
    pub fn returned(&self) -> u64 {
        // Past the last loop (the stream ended), `in_loop` still counts that loop.
        let originals = if self.current_loop >= self.loops {
            self.loops as u64 * self.per_loop
        } else {
            self.current_loop as u64 * self.per_loop + self.in_loop
        };
        let pending = self.pending_copy.map_or(0, |(_, copy)| (self.tiles - copy) as u64);
        originals * self.tiles as u64 - pending
    }

    /// Reads the trace on a second thread from now on (no effect on a synthetic workload); the
    /// requests are the same.
    pub fn read_ahead(mut self) -> Result<Self, SimulationError> {
        if let (Source::Trace(_), Some(scan)) = (&self.source, &self.scan) {
            self.source = Source::ReadAhead(read_ahead::ReadAhead::spawn(scan.clone())?);
        }
        Ok(self)
    }

    /// CPU time spent reading the trace on other threads so far (0 without read-ahead).
    pub fn reader_cpu_seconds(&self) -> f64 {
        self.reader_cpu_before
            + match &self.source {
                Source::ReadAhead(reader) => reader.cpu_seconds(),
                _ => 0.0,
            }
    }

    /// Issues every request `tiles` times, copy k shifted by k x `stride_bytes`.
    pub fn tiled(mut self, tiles: u32, stride_bytes: u64) -> Self {
        self.tiles = tiles.max(1);
        self.tile_stride_bytes = stride_bytes;
        self
    }

    /// Maps the sorted distinct pages `pages` onto 0..pages.len() (`host.compact_addresses`); every
    /// request's pages must be among them. `page_bytes` is a power of two.
    pub fn compacted(mut self, pages: std::sync::Arc<[u32]>, page_bytes: u64) -> Self {
        self.page_shift = page_bytes.trailing_zeros();
        self.compaction = Some(pages);
        self
    }

    /// Requests the stream issues over all loops and tiles; once it has ended at its stop time,
    /// those it returned (before, `requests` is the bound).
    pub fn expected_total(&self) -> u64 {
        if self.stopped_at_stop_time() {
            return self.returned();
        }
        self.per_loop * self.loops as u64 * self.tiles as u64
    }

    pub fn timestamps_reordered(&self) -> u64 {
        self.reordered_before
            + match &self.source {
                Source::Trace(reader) => reader.reordered(),
                Source::ReadAhead(reader) => reader.reordered(),
                Source::Synthetic(_) | Source::SyntheticUntil { .. } => 0,
            }
    }

    /// Visits one loop's requests (every tile copy, arrival times scaled) from a fresh stream,
    /// leaving this one where it is (a pre-pass, e.g. to measure each page's write rate). The copy
    /// reads through the same code as the replay (one call site of the generator, which keeps it
    /// inlined into the replay's loop).
    pub fn visit_one_loop(&self, mut visit: impl FnMut(&IoRequest)) -> Result<(), SimulationError> {
        let Some(mut copy) = self.restarted(1, self.time_scale)? else { return Ok(()) };
        while let Some(request) = copy.next_request()? {
            visit(&request);
        }
        Ok(())
    }

    /// A fresh stream of the same requests from the start (read on this thread), `loops` times,
    /// with arrival times scaled by `time_scale` (None: a stream with no source).
    pub fn restarted(&self, loops: u32, time_scale: f64) -> Result<Option<Self>, SimulationError> {
        let source = match (&self.scan, &self.synthetic) {
            (Some(scan), _) => Source::Trace(Box::new(batched_reader::BatchedReader::new(scan.reader()?))),
            (None, Some((spec, seed))) => Source::Synthetic(SyntheticGenerator::new(spec, *seed)?),
            (None, None) => return Ok(None),
        };
        let mut copy =
            Self::with_source(source, self.per_loop, self.scan.clone(), self.synthetic.clone(), loops, time_scale)
                .tiled(self.tiles, self.tile_stride_bytes);
        if self.arrivals_stopped {
            copy = copy.with_arrivals_stopped();
        }
        copy.compaction = self.compaction.clone();
        copy.page_shift = self.page_shift;
        Ok(Some(copy))
    }

    fn raw_next(&mut self) -> Result<Option<IoRequest>, SimulationError> {
        Ok(match &mut self.source {
            Source::Trace(reader) => reader.next_request()?,
            Source::ReadAhead(reader) => reader.next_request()?,
            Source::Synthetic(generator) => generator.next(),
            Source::SyntheticUntil { generator, stop_ns } => {
                // The arrival as `next_original` places it on the run's clock.
                let (offset_ns, time_scale) = (self.offset_ns, self.time_scale);
                generator.next_before(*stop_ns, |arrival| offset_ns + (arrival.0 as f64 * time_scale) as u64)
            }
        })
    }

    #[inline]
    pub fn next_request(&mut self) -> Result<Option<IoRequest>, SimulationError> {
        if self.tiles == 1 {
            return self.next_original();
        }
        if let Some((original, copy)) = self.pending_copy.take() {
            let mut request = original;
            request.offset_bytes += copy as u64 * self.tile_stride_bytes;
            if copy + 1 < self.tiles {
                self.pending_copy = Some((original, copy + 1));
            }
            return Ok(Some(request));
        }
        let next = self.next_original()?;
        if let Some(request) = &next {
            if self.tiles > 1 {
                self.pending_copy = Some((*request, 1));
            }
        }
        Ok(next)
    }

    /// Moves a request onto the compacted page numbers: its first page's index in the sorted list;
    /// the pages after it in the request are the next entries of the list (every page a request
    /// touches is in the list, so a run of pages stays a run).
    #[inline(never)]
    fn compact(&self, request: &mut IoRequest, pages: &[u32]) -> Result<(), SimulationError> {
        let first = request.offset_bytes >> self.page_shift;
        let index = u32::try_from(first).ok().and_then(|page| pages.binary_search(&page).ok());
        let Some(index) = index else {
            let origin = self.scan.as_ref().map(|scan| scan.path.display().to_string()).unwrap_or_default();
            return Err(SimulationError::TraceChanged { origin, line: request.origin_line, page: first });
        };
        let within = request.offset_bytes & ((1u64 << self.page_shift) - 1);
        request.offset_bytes = ((index as u64) << self.page_shift) | within;
        Ok(())
    }

    #[inline]
    fn next_original(&mut self) -> Result<Option<IoRequest>, SimulationError> {
        loop {
            if let Some(mut request) = self.raw_next()? {
                let scaled = (request.arrival.0 as f64 * self.time_scale) as u64;
                self.last_arrival_ns = scaled;
                self.in_loop += 1;
                request.arrival = SimTime(self.offset_ns + scaled);
                if let Some(pages) = &self.compaction {
                    self.compact(&mut request, pages)?;
                }
                return Ok(Some(request));
            }
            // Ended at its stop time: no further request, in this loop or the next ones.
            if self.arrivals_stopped && self.stopped_at_stop_time() {
                return Ok(None);
            }
            if self.in_loop != self.per_loop {
                return Err(SimulationError::Incomplete { generated: self.in_loop, completed: self.per_loop });
            }
            self.current_loop += 1;
            if self.current_loop >= self.loops {
                return Ok(None);
            }
            let gap = if self.in_loop > 1 { (self.last_arrival_ns / (self.in_loop - 1)).max(1) } else { 1_000 };
            self.offset_ns += self.last_arrival_ns + gap;
            self.in_loop = 0;
            self.last_arrival_ns = 0;
            self.source = match (&self.scan, &self.synthetic) {
                (Some(scan), _) => {
                    // The next loop is read the way this one was.
                    let ahead = match &self.source {
                        Source::Trace(reader) => {
                            self.reordered_before += reader.reordered();
                            false
                        }
                        Source::ReadAhead(reader) => {
                            self.reordered_before += reader.reordered();
                            self.reader_cpu_before += reader.cpu_seconds();
                            true
                        }
                        Source::Synthetic(_) | Source::SyntheticUntil { .. } => false,
                    };
                    if ahead {
                        Source::ReadAhead(read_ahead::ReadAhead::spawn(scan.clone())?)
                    } else {
                        Source::Trace(Box::new(batched_reader::BatchedReader::new(scan.reader()?)))
                    }
                }
                (None, Some((spec, seed))) => match &self.source {
                    Source::SyntheticUntil { stop_ns, .. } => {
                        Source::SyntheticUntil { generator: SyntheticGenerator::new(spec, *seed)?, stop_ns: *stop_ns }
                    }
                    _ => Source::Synthetic(SyntheticGenerator::new(spec, *seed)?),
                },
                (None, None) => return Ok(None),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_workload::SyntheticSpec;

    #[test]
    fn tiles_issue_shifted_copies_at_the_same_time() {
        let spec: SyntheticSpec = toml::from_str(
            "requests = 5\nread_fraction = 0.5\nspan_bytes = 1048576\naddress = { distribution = \"uniform\" }\nsize = { distribution = \"fixed\", bytes = 4096 }\narrival = { process = \"poisson\", mean_interarrival_ns = 1000.0 }\n",
        )
        .unwrap();
        let mut plain = RequestStream::from_synthetic(&spec, 1, 2, 1.0).unwrap();
        let mut tiled = RequestStream::from_synthetic(&spec, 1, 2, 1.0).unwrap().tiled(3, 1 << 20);
        assert_eq!(tiled.expected_total(), 30);
        let mut count = 0;
        while let Some(original) = plain.next_request().unwrap() {
            for copy in 0..3u64 {
                let request = tiled.next_request().unwrap().unwrap();
                assert_eq!(request.arrival, original.arrival);
                assert_eq!(request.offset_bytes, original.offset_bytes + copy * (1 << 20));
                assert_eq!(request.op, original.op);
                count += 1;
            }
        }
        assert!(tiled.next_request().unwrap().is_none());
        assert_eq!(count, 30);
    }

    #[test]
    fn page_span_marks_partial_pages() {
        let span = PageSpan::of(0, 8192, 4096);
        assert_eq!((span.first, span.last, span.first_partial, span.last_partial), (0, 1, false, false));
        let span = PageSpan::of(512, 4096, 4096);
        assert_eq!((span.first, span.last, span.first_partial, span.last_partial), (0, 1, true, true));
        let span = PageSpan::of(4096, 512, 4096);
        assert!(span.is_partial(1));
        assert_eq!(span.pages(), 1);
    }
}
