//! The one place that wires the layers together and runs a simulation:
//! host interface -> middleware -> FTL -> flash scheduler -> media/channels, plus the integrity oracle.
//!
//! A run: read the workload's shape (trace scan or synthetic spec) -> size the device -> build the
//! layers -> fast-age -> precondition (fill the footprint, then random overwrites to GC steady state;
//! untimed) -> replay every request through the layers, booking flash work in simulated time -> check
//! that every request completed and, with the oracle on, that every read returned the latest write.

use crate::config::{CapacitySizing, HostMode, SimulationConfig};
use crate::error::SimulationError;
use crate::ftl::{FlashOp, Ftl};
use crate::geometry::{Geometry, Lpn, Ppn};
use crate::host::{PageSpan, RequestStream};
use crate::metrics::*;
use crate::middleware::{self, Middleware};
use crate::read_path::{self, ReadContext, ReadPlan, ReadStrategy};
use crate::scheduler::{FlashScheduler, PlaneGroup};
use ssdlab_engine::random::{derive_seed, Xoshiro256PlusPlus};
use ssdlab_engine::{EventQueue, SimTime};
use ssdlab_workload::{IoOp, IoRequest, TraceOptions, TraceScan};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// How often (in requests) the progress callback is called.
pub const PROGRESS_INTERVAL: u64 = 1 << 16;

/// The logical pages a workload touches.
enum Footprint {
    /// Pages 0..n (synthetic workloads).
    Range(u64),
    /// Sorted distinct pages (traces).
    List(Vec<u32>),
}

impl Footprint {
    fn len(&self) -> u64 {
        match self {
            Footprint::Range(n) => *n,
            Footprint::List(pages) => pages.len() as u64,
        }
    }
    fn get(&self, index: u64) -> u32 {
        match self {
            Footprint::Range(_) => index as u32,
            Footprint::List(pages) => pages[index as usize],
        }
    }
    /// The footprint of `tiles` copies, copy k shifted by k x `stride_pages`.
    fn tiled(self, tiles: u64, stride_pages: u64) -> Result<Footprint, SimulationError> {
        if stride_pages * tiles >= u32::MAX as u64 {
            return Err(crate::error::ConfigError::Invalid {
                origin: "config".into(),
                line: None,
                field: "host.tiles".into(),
                message: format!("{tiles} copies of a {stride_pages}-page address space exceed the 32-bit logical page space"),
            }
            .into());
        }
        Ok(match self {
            Footprint::Range(n) if n == stride_pages => Footprint::Range(n * tiles),
            other => {
                let one: Vec<u32> = (0..other.len()).map(|index| other.get(index)).collect();
                Footprint::List((0..tiles).flat_map(|k| one.iter().map(move |&page| page + (k * stride_pages) as u32)).collect())
            }
        })
    }
}

/// Checks that every read returns the latest write: each host page write gets a fresh tag, stored
/// with the data in the physical page and carried by GC; a read compares the stored tag with the one
/// remembered here.
struct Oracle {
    expected: HashMap<u32, u32>,
    next_tag: u32,
    reads_checked: u64,
    mismatches: u64,
    first_mismatch: Option<String>,
}

impl Oracle {
    fn new() -> Self {
        Oracle { expected: HashMap::new(), next_tag: 1, reads_checked: 0, mismatches: 0, first_mismatch: None }
    }

    fn tag_write(&mut self, host_page: u32) -> u32 {
        let tag = self.next_tag;
        self.next_tag = self.next_tag.wrapping_add(1).max(1);
        self.expected.insert(host_page, tag);
        tag
    }

    fn check(&mut self, host_page: u32, found: Option<u32>, context: &str) {
        self.reads_checked += 1;
        let expected = self.expected.get(&host_page).copied();
        if expected != found {
            self.mismatches += 1;
            if self.first_mismatch.is_none() {
                self.first_mismatch = Some(format!("host page {host_page} ({context}): expected tag {expected:?}, read {found:?}"));
            }
        }
    }
}

/// Calls back with (requests done, requests expected); an error aborts the run.
pub type ProgressCallback<'a> = dyn FnMut(u64, u64) -> Result<(), SimulationError> + 'a;

pub struct Simulation {
    config: SimulationConfig,
    geometry: Geometry,
    ftl: Ftl,
    scheduler: FlashScheduler,
    middleware: Box<dyn Middleware>,
    read_strategy: Box<dyn ReadStrategy>,
    /// The plan of every read when the strategy does not look at the context.
    fixed_read_plan: Option<ReadPlan>,
    /// True when that fixed plan is one plain hard read (sense, transfer, decode): the hot path.
    plain_reads: bool,
    oracle: Option<Oracle>,
    stream: RequestStream,
    footprint: Footprint,
    origin: String,
    workload_kind: &'static str,
    format: Option<String>,
    address_space_bytes: u64,
    skipped_lines: (u64, Vec<String>),
    logical_capacity_bytes: u64,
    /// Logical pages the host may address (the FTL's space may be larger, see `middleware`).
    host_logical_pages: u64,
    page_bytes: u64,
    ops: Vec<FlashOp>,
    program_group: PlaneGroup,
    /// Pages of a multi-plane read being gathered (see `serve_read`).
    read_group: PlaneGroup,
    read_latency: LatencyRecorder,
    write_latency: LatencyRecorder,
    unmapped_page_reads: u64,
    read_modify_writes: u64,
    precondition: PreconditionSummary,
    first_arrival: Option<SimTime>,
    last_completion: SimTime,
    requests_issued: u64,
    requests_completed: u64,
}

impl Simulation {
    /// Reads the workload's shape, sizes the device and builds every layer.
    pub fn new(config: &SimulationConfig) -> Result<Simulation, SimulationError> {
        config.validate().map_err(|(field, message)| crate::error::ConfigError::Invalid { origin: config_origin(config), line: None, field, message })?;
        let page_bytes = config.device.geometry.page_size_bytes as u64;
        let workload_seed = derive_seed(config.seed, "workload");
        let (stream, footprint, origin, kind, format, address_space_bytes, skipped) = if let Some(trace) = &config.workload.trace {
            let options = TraceOptions { format: trace.format, skip_bad_lines: trace.skip_bad_lines, merge_devices: trace.merge_devices };
            let scan = TraceScan::scan(&trace.path, &options)?;
            let footprint = trace_footprint(&scan, page_bytes)?;
            let origin = trace.path.display().to_string();
            let format = Some(scan.format.name().to_string());
            let address_space = scan.address_space_bytes;
            let skipped = (scan.skipped.count, scan.skipped.first_messages.clone());
            (RequestStream::from_trace(scan, config.host.loops, config.host.time_scale)?, footprint, origin, "trace", format, address_space, skipped)
        } else if let Some(spec) = &config.workload.synthetic {
            let footprint = Footprint::Range(spec.span_bytes.div_ceil(page_bytes));
            let stream = RequestStream::from_synthetic(spec, workload_seed, config.host.loops, config.host.time_scale)?;
            (stream, footprint, "synthetic workload".to_string(), "synthetic", None, spec.span_bytes, (0, Vec::new()))
        } else {
            return Err(config_invalid(config, "workload", "no workload given".into()));
        };

        // Tiles: independent copies of the workload side by side, each over its own address range.
        let tiles = config.host.tiles.max(1) as u64;
        let tile_stride_bytes = address_space_bytes.div_ceil(page_bytes) * page_bytes;
        let (stream, footprint, address_space_bytes) = if tiles > 1 {
            (stream.tiled(tiles as u32, tile_stride_bytes), footprint.tiled(tiles, tile_stride_bytes / page_bytes)?, tile_stride_bytes * tiles)
        } else {
            (stream, footprint, address_space_bytes)
        };
        let mut config = config.clone();
        let address_pages = address_space_bytes.div_ceil(page_bytes);
        let logical_pages = match config.ftl.sizing {
            CapacitySizing::Geometry => {
                let geometry = Geometry::new(&config.device.geometry, config.device.nand.cell_type);
                (geometry.pages_total() as f64 * (1.0 - config.ftl.overprovisioning_fraction)).floor() as u64
            }
            CapacitySizing::Footprint => {
                // NAND capacity = footprint / (1 - free) (seed 003), at least the GC reserve per plane.
                let g = &config.device.geometry;
                let planes = g.channels as u64 * g.chips_per_channel as u64 * g.dies_per_chip as u64 * g.planes_per_die as u64;
                let needed_pages = (footprint.len() as f64 / (1.0 - config.ftl.footprint_free_fraction)).ceil() as u64;
                let per_plane = needed_pages.div_ceil(planes * g.pages_per_block as u64);
                // A footprint too small for the GC reserve (high watermark + open blocks + one of slack
                // per plane) gets the reserve on top of its data: the free fraction is then larger than
                // asked (the result's physical capacity shows by how much).
                let reserve = config.ftl.garbage_collection.high_watermark_blocks as u64 + 3;
                let data_per_plane = footprint.len().div_ceil(planes * g.pages_per_block as u64);
                config.device.geometry.blocks_per_plane = per_plane.max(data_per_plane + reserve) as u32;
                address_pages.max(1)
            }
        };
        if logical_pages >= u32::MAX as u64 {
            return Err(config_invalid(&config, "device.geometry", format!("{logical_pages} logical pages; at most {} are supported", u32::MAX - 1)));
        }
        if let Some(spec) = &config.workload.synthetic {
            // Caught here, before any request, so the message names the config field to change.
            let capacity_bytes = logical_pages * page_bytes;
            if spec.span_bytes > capacity_bytes {
                let message = format!(
                    "{} bytes is beyond the device's logical capacity of {capacity_bytes} bytes; shrink the span, enlarge the device or lower ftl.overprovisioning_fraction",
                    spec.span_bytes
                );
                return Err(config_invalid(&config, "workload.synthetic.span_bytes", message));
            }
        }
        let geometry = Geometry::new(&config.device.geometry, config.device.nand.cell_type);
        let keep_tags = config.verification.integrity_oracle;
        if config.middleware.kind == crate::config::MiddlewareKind::LbaScrambler {
            // Rule 1 may fill the NAND up to 1 - plentiful_free_fraction; GC needs its reserve
            // (high watermark + 2 open blocks) and one more block per plane of slack to make progress.
            let reserve_pages = geometry.planes_total() as u64 * (config.ftl.garbage_collection.high_watermark_blocks as u64 + 3) * geometry.pages_per_block as u64;
            let minimum = reserve_pages as f64 / geometry.pages_total() as f64;
            let plentiful = config.middleware.lba_scrambler.plentiful_free_fraction;
            if plentiful < minimum {
                let message = format!(
                    "{plentiful} would let rule 1 fill the NAND into the GC reserve of this device ({reserve_pages} of {} pages); use at least {minimum:.3}",
                    geometry.pages_total()
                );
                return Err(config_invalid(&config, "middleware.lba_scrambler.plentiful_free_fraction", message));
            }
        }
        // The FTL's logical space: the host's, or larger when the middleware remaps into more.
        let ftl_logical_pages = middleware::ftl_logical_pages(config.middleware.kind, logical_pages, geometry.pages_total());
        let ftl = Ftl::new(geometry.clone(), &config.ftl, ftl_logical_pages, keep_tags);
        let scheduler = FlashScheduler::new(
            geometry.clone(),
            &config.device,
            config.read_path.extra_sensing_latency_ns,
            config.read_path.decode_latency_ns,
            config.ftl.garbage_collection.copyback,
        );
        let middleware = middleware::build(&config.middleware, ftl_logical_pages, derive_seed(config.seed, "middleware"));
        let mut read_strategy = read_path::build(&config.read_path, derive_seed(config.seed, "read_path"));
        // A strategy that ignores the context plans every read the same way: plan once.
        let fixed_read_plan = (!read_strategy.uses_context()).then(|| read_strategy.plan(&ReadContext::default()));
        Ok(Simulation {
            host_logical_pages: logical_pages,
            oracle: keep_tags.then(Oracle::new),
            logical_capacity_bytes: logical_pages * page_bytes,
            page_bytes,
            geometry,
            ftl,
            scheduler,
            middleware,
            read_strategy,
            plain_reads: fixed_read_plan.as_ref().is_some_and(ReadPlan::is_plain_hard_read),
            fixed_read_plan,
            stream,
            footprint,
            origin,
            workload_kind: kind,
            format,
            address_space_bytes,
            skipped_lines: skipped,
            ops: Vec::with_capacity(1024),
            program_group: PlaneGroup::default(),
            read_group: PlaneGroup::default(),
            read_latency: LatencyRecorder::default(),
            write_latency: LatencyRecorder::default(),
            unmapped_page_reads: 0,
            read_modify_writes: 0,
            precondition: PreconditionSummary { pages_written: 0, gc_pages_copied: 0, blocks_erased: 0, wall_seconds: 0.0 },
            first_arrival: None,
            last_completion: SimTime::ZERO,
            requests_issued: 0,
            requests_completed: 0,
            config,
        })
    }

    pub fn ftl(&self) -> &Ftl {
        &self.ftl
    }

    /// Fast aging and preconditioning (untimed), then counters are reset.
    pub fn prepare(&mut self) -> Result<(), SimulationError> {
        let started = Instant::now();
        if self.config.ftl.aging.pe_cycles > 0 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "aging"));
            self.ftl.age(self.config.ftl.aging.pe_cycles, self.config.ftl.aging.spread_fraction, &mut rng);
        }
        if self.config.ftl.precondition.enabled && self.footprint.len() > 0 {
            let footprint_pages = self.footprint.len();
            let logical_pages = self.host_logical_pages;
            for index in 0..footprint_pages {
                let page = self.footprint.get(index);
                if (page as u64) < logical_pages {
                    self.untimed_write(page)?;
                }
            }
            let overwrites = (footprint_pages as f64 * self.config.ftl.precondition.overwrite_passes) as u64;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(self.config.seed, "precondition"));
            for _ in 0..overwrites {
                let page = self.footprint.get(rng.below(footprint_pages));
                if (page as u64) < logical_pages {
                    self.untimed_write(page)?;
                }
            }
            let stats = self.ftl.stats;
            self.precondition = PreconditionSummary {
                pages_written: stats.host_pages_written,
                gc_pages_copied: stats.gc_pages_copied,
                blocks_erased: stats.blocks_erased,
                wall_seconds: started.elapsed().as_secs_f64(),
            };
            self.ftl.reset_stats();
            self.middleware.reset_stats();
        }
        // The footprint list is not needed any more.
        self.footprint = Footprint::Range(self.footprint.len());
        Ok(())
    }

    fn untimed_write(&mut self, host_page: u32) -> Result<(), SimulationError> {
        let target = self.middleware.write_target(Lpn(host_page), &self.ftl, 0);
        let tag = self.oracle.as_mut().map_or(0, |o| o.tag_write(host_page));
        self.ops.clear();
        self.ftl.write(target, 0, tag, &mut self.ops).map_err(|source| SimulationError::Ftl { origin: format!("{} (preconditioning)", self.origin), source })?;
        Ok(())
    }

    /// Replays the whole workload.
    pub fn replay(&mut self, progress: &mut ProgressCallback<'_>) -> Result<(), SimulationError> {
        let total = self.stream.expected_total();
        let closed_loop = self.config.host.mode == HostMode::ClosedLoop;
        let queue_depth = self.config.host.queue_depth as usize;
        let mut outstanding: EventQueue<()> = EventQueue::with_capacity(queue_depth + 1);
        progress(0, total)?;
        // Two requests of lookahead, so cache misses overlap the current request's work instead of
        // following it: the mapping entry of the request after next is prefetched, and, the next
        // request's mapping being in cache by then, what its writes' overwrites will touch.
        let mut next = self.stream.next_request()?;
        let mut after_next = self.stream.next_request()?;
        while let Some(request) = next {
            next = after_next;
            after_next = self.stream.next_request()?;
            if let Some(upcoming) = &after_next {
                if let Some(target) = self.middleware.read_target(Lpn((upcoming.offset_bytes >> self.page_bytes.trailing_zeros()).min(u32::MAX as u64) as u32)) {
                    self.ftl.prefetch_mapping(target);
                }
            }
            if let Some(upcoming) = &next {
                if upcoming.op == IoOp::Write {
                    self.prefetch_overwrites(upcoming);
                }
            }
            let issue = if closed_loop {
                if outstanding.len() >= queue_depth {
                    outstanding.pop().map_or(SimTime::ZERO, |(time, ())| time)
                } else {
                    outstanding.peek_time().unwrap_or(SimTime::ZERO).min(SimTime::ZERO)
                }
            } else {
                request.arrival
            };
            let completion = self.serve(&request, issue)?;
            if closed_loop {
                outstanding.schedule(completion, ());
            }
            if self.requests_issued.is_multiple_of(PROGRESS_INTERVAL) {
                progress(self.requests_issued, total)?;
            }
        }
        progress(self.requests_issued, total)?;
        if self.requests_issued != total || self.requests_completed != self.requests_issued {
            return Err(SimulationError::Incomplete { generated: total, completed: self.requests_completed });
        }
        Ok(())
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

    fn serve(&mut self, request: &IoRequest, issue: SimTime) -> Result<SimTime, SimulationError> {
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
        let completion = match request.op {
            IoOp::Read => self.serve_read(span, issue),
            IoOp::Write => self.serve_write(span, issue, request)?,
        };
        let latency = completion.since(issue).0;
        match request.op {
            IoOp::Read => self.read_latency.record(latency, request.size_bytes),
            IoOp::Write => self.write_latency.record(latency, request.size_bytes),
        }
        self.last_completion = self.last_completion.max(completion);
        self.requests_completed += 1;
        Ok(completion)
    }

    #[inline]
    fn read_page(&mut self, ppn: Ppn, now: SimTime, earliest: SimTime) -> SimTime {
        if self.plain_reads {
            return self.scheduler.read_plain(now, earliest, ppn);
        }
        self.read_page_planned(ppn, now, earliest)
    }

    #[inline(never)]
    fn read_page_planned(&mut self, ppn: Ppn, now: SimTime, earliest: SimTime) -> SimTime {
        if let Some(plan) = &self.fixed_read_plan {
            return self.scheduler.read(now, earliest, ppn, plan);
        }
        let block = self.ftl.block(self.geometry.block_of(ppn));
        let programmed_ms = self.ftl.program_time_ms(ppn) as u64;
        let context = ReadContext {
            pe_cycles: block.erase_count,
            retention_ns: now.0.saturating_sub(programmed_ms * 1_000_000),
            chip: self.geometry.chip_of_die(self.geometry.die_of(ppn)),
            page_type: self.geometry.page_type(ppn),
            die_idle: self.scheduler.die_idle_from(ppn, now),
        };
        let plan = self.read_strategy.plan(&context);
        self.scheduler.read(now, earliest, ppn, &plan)
    }

    fn serve_read(&mut self, span: PageSpan, now: SimTime) -> SimTime {
        let mut completion = now;
        // Plain reads of consecutive pages on one die, in different planes, are sensed together
        // (a multi-plane read) when the device supports multi-plane operations; reads with a
        // read-path strategy in play are planned page by page.
        let group_reads = self.plain_reads && self.config.device.nand.multi_plane;
        self.read_group.clear();
        for page in span.first..=span.last {
            let host = Lpn(page as u32);
            let physical = self.middleware.read_target(host).and_then(|target| self.ftl.lookup(target));
            if let Some(oracle) = self.oracle.as_mut() {
                oracle.check(host.0, physical.map(|ppn| self.ftl.tag(ppn)), "host read");
            }
            match physical {
                Some(ppn) if group_reads => {
                    let (die, plane) = (self.geometry.die_of(ppn), self.geometry.plane_of(ppn));
                    if !self.read_group.add(die, plane, ppn) {
                        completion = completion.max(self.scheduler.read_plain_multi_plane(now, now, self.read_group.pages()));
                        self.read_group.clear();
                        self.read_group.add(die, plane, ppn);
                    }
                }
                Some(ppn) => completion = completion.max(self.read_page(ppn, now, now)),
                None => self.unmapped_page_reads += 1,
            }
        }
        if !self.read_group.is_empty() {
            completion = completion.max(self.scheduler.read_plain_multi_plane(now, now, self.read_group.pages()));
        }
        completion
    }

    fn serve_write(&mut self, span: PageSpan, now: SimTime, request: &IoRequest) -> Result<SimTime, SimulationError> {
        let mut completion = now;
        let multi_plane = self.config.device.nand.multi_plane;
        let mut group_earliest = now;
        self.program_group.clear();
        for page in span.first..=span.last {
            let host = Lpn(page as u32);
            let mut earliest = now;
            if span.is_partial(page) {
                if let Some(old) = self.middleware.read_target(host).and_then(|target| self.ftl.lookup(target)) {
                    earliest = self.read_page(old, now, now);
                    self.read_modify_writes += 1;
                }
            }
            let target = self.middleware.write_target(host, &self.ftl, now.0);
            let tag = self.oracle.as_mut().map_or(0, |o| o.tag_write(host.0));
            self.ops.clear();
            let ppn = self.ftl.write(target, now.0, tag, &mut self.ops).map_err(|source| SimulationError::Ftl {
                origin: format!("{}:{}", self.origin, request.origin_line),
                source,
            })?;
            if !self.ops.is_empty() {
                self.run_garbage_collection(now);
            }
            let (die, plane) = (self.geometry.die_of(ppn), self.geometry.plane_of(ppn));
            // Without multi-plane operations every page is its own group.
            if (!multi_plane && !self.program_group.is_empty()) || !self.program_group.add(die, plane, ppn) {
                completion = completion.max(self.scheduler.program(now, group_earliest, self.program_group.pages()));
                self.program_group.clear();
                group_earliest = now;
                self.program_group.add(die, plane, ppn);
            }
            group_earliest = group_earliest.max(earliest);
        }
        if !self.program_group.is_empty() {
            completion = completion.max(self.scheduler.program(now, group_earliest, self.program_group.pages()));
            self.program_group.clear();
        }
        Ok(completion)
    }

    /// Books the GC work the FTL just did: copies (read + program) and erases, in order, per die.
    fn run_garbage_collection(&mut self, now: SimTime) {
        let mut pending_read: Option<Ppn> = None;
        let mut earliest = now;
        for index in 0..self.ops.len() {
            match self.ops[index] {
                FlashOp::GcRead { ppn } => pending_read = Some(ppn),
                FlashOp::GcProgram { ppn } => {
                    if let Some(source) = pending_read.take() {
                        earliest = self.scheduler.copy(now, earliest, source, ppn);
                    }
                }
                FlashOp::Erase { block } => {
                    earliest = self.scheduler.erase(now, earliest, block);
                }
            }
        }
    }

    /// Final checks and the result.
    pub fn finish(mut self, wall_seconds: f64, replay_cpu_seconds: f64) -> Result<RunResult, SimulationError> {
        let mut pages_checked_at_end = 0;
        if let Some(mut oracle) = self.oracle.take() {
            let mut expected: Vec<(u32, u32)> = oracle.expected.iter().map(|(&k, &v)| (k, v)).collect();
            expected.sort_unstable();
            for (host_page, _) in expected {
                let found = self.middleware.read_target(Lpn(host_page)).and_then(|t| self.ftl.lookup(t)).map(|ppn| self.ftl.tag(ppn));
                oracle.check(host_page, found, "final sweep");
                pages_checked_at_end += 1;
            }
            if let Err(message) = self.ftl.check_invariants() {
                oracle.mismatches += 1;
                oracle.first_mismatch.get_or_insert(format!("FTL invariant: {message}"));
            }
            if oracle.mismatches > 0 {
                return Err(SimulationError::Integrity { mismatches: oracle.mismatches, first: oracle.first_mismatch.unwrap_or_default() });
            }
            self.oracle = Some(oracle);
        }
        let start = self.first_arrival.unwrap_or(SimTime::ZERO);
        let simulated = self.last_completion.since(start).as_secs_f64();
        let stats = self.ftl.stats;
        let (erase_min, erase_mean, erase_max) = self.ftl.erase_count_summary();
        let (die_busy, channel_busy) = self.scheduler.busy_totals();
        let utilisation = |busy: f64, servers: usize| if simulated > 0.0 { busy / (simulated * servers as f64) } else { 0.0 };
        let g = &self.config.device.geometry;
        let energy = crate::energy::EnergyAccount::of(&self.config.device.energy, &self.scheduler.counters, self.config.read_path.extra_sensing_latency_ns);
        Ok(RunResult {
            name: self.config.name.clone(),
            seed: self.config.seed,
            workload: WorkloadSummary {
                kind: self.workload_kind.to_string(),
                source: self.origin.clone(),
                format: self.format.clone(),
                loops: self.config.host.loops,
                tiles: self.config.host.tiles,
                footprint_pages: self.footprint.len(),
                address_space_bytes: self.address_space_bytes,
                timestamps_reordered: self.stream.timestamps_reordered(),
                skipped_lines: self.skipped_lines.0 * self.config.host.loops as u64 * self.config.host.tiles as u64,
                skipped_line_messages: self.skipped_lines.1.clone(),
            },
            device: DeviceSummary {
                channels: g.channels,
                chips_per_channel: g.chips_per_channel,
                dies_per_chip: g.dies_per_chip,
                planes_per_die: g.planes_per_die,
                blocks_per_plane: g.blocks_per_plane,
                pages_per_block: g.pages_per_block,
                page_size_bytes: g.page_size_bytes,
                physical_capacity_bytes: self.geometry.capacity_bytes(),
                logical_capacity_bytes: self.logical_capacity_bytes,
                gc_policy: self.ftl.victim_policy_name().to_string(),
                wear_leveling: format!("{:?}", self.config.ftl.wear_leveling.policy).to_lowercase(),
                read_strategy: self.read_strategy.name().to_string(),
                middleware: self.middleware.name().to_string(),
            },
            requests: self.requests_issued,
            requests_completed: self.requests_completed,
            read: self.read_latency.summary(simulated),
            write: self.write_latency.summary(simulated),
            all: LatencyRecorder::combined(&self.read_latency, &self.write_latency).summary(simulated),
            gc: gc_metrics(&stats),
            host_pages_written: stats.host_pages_written,
            write_amplification: if stats.host_pages_written == 0 { 0.0 } else { (stats.host_pages_written + stats.gc_pages_copied) as f64 / stats.host_pages_written as f64 },
            erase_count: EraseCountSummary { min: erase_min, mean: erase_mean, max: erase_max, endurance_pe_cycles: self.config.device.nand.endurance_pe_cycles },
            flash: self.scheduler.counters,
            energy_total_uj: energy.total_uj(),
            energy_uj: energy,
            utilisation: UtilisationSummary {
                die: utilisation(die_busy.as_secs_f64(), self.scheduler.dies()),
                channel: utilisation(channel_busy.as_secs_f64(), self.scheduler.channels()),
            },
            unmapped_page_reads: self.unmapped_page_reads,
            read_modify_writes: self.read_modify_writes,
            precondition: self.precondition.clone(),
            integrity: IntegritySummary {
                enabled: self.oracle.is_some(),
                reads_checked: self.oracle.as_ref().map_or(0, |o| o.reads_checked),
                pages_checked_at_end,
                mismatches: 0,
            },
            simulated_seconds: simulated,
            wall_seconds,
            replay_cpu_seconds,
            requests_per_wall_second: if wall_seconds > 0.0 { self.requests_issued as f64 / wall_seconds } else { 0.0 },
            requests_per_cpu_second: if replay_cpu_seconds > 0.0 { self.requests_issued as f64 / replay_cpu_seconds } else { 0.0 },
            model_memory_bytes: self.ftl.memory_bytes() + self.middleware.memory_bytes(),
            middleware: self.middleware.stats(),
            read_path: self.read_strategy.statistics(),
        })
    }
}

/// A configuration error found while building the simulation, naming the config and the field.
fn config_invalid(config: &SimulationConfig, field: &str, message: String) -> SimulationError {
    crate::error::ConfigError::Invalid { origin: config_origin(config), line: None, field: field.into(), message }.into()
}

fn config_origin(config: &SimulationConfig) -> String {
    if config.name.is_empty() {
        "config".to_string()
    } else {
        format!("config `{}`", config.name)
    }
}

/// Distinct logical pages a trace touches, sorted.
fn trace_footprint(scan: &TraceScan, page_bytes: u64) -> Result<Footprint, SimulationError> {
    let mut pages: HashSet<u32> = HashSet::new();
    let mut reader = scan.reader()?;
    while let Some(request) = reader.next_request()? {
        let span = PageSpan::of(request.offset_bytes, request.size_bytes, page_bytes);
        if span.last >= u32::MAX as u64 {
            return Err(SimulationError::AddressBeyondDevice {
                origin: scan.path.display().to_string(),
                line: request.origin_line,
                field: "offset",
                offset_bytes: request.offset_bytes,
                end_bytes: request.end_bytes(),
                capacity_bytes: (u32::MAX as u64 - 1) * page_bytes,
            });
        }
        for page in span.first..=span.last {
            pages.insert(page as u32);
        }
    }
    let mut list: Vec<u32> = pages.into_iter().collect();
    list.sort_unstable();
    Ok(Footprint::List(list))
}

/// CPU time of the calling thread, in seconds.
pub fn thread_cpu_seconds() -> f64 {
    let mut spec = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own; CLOCK_THREAD_CPUTIME_ID is always valid on Linux.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut spec) };
    if status == 0 {
        spec.tv_sec as f64 + spec.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// Runs a whole simulation.
pub fn run(config: &SimulationConfig, progress: &mut ProgressCallback<'_>) -> Result<RunResult, SimulationError> {
    let started = Instant::now();
    let mut simulation = Simulation::new(config)?;
    simulation.prepare()?;
    let cpu_before = thread_cpu_seconds();
    simulation.replay(progress)?;
    let replay_cpu = thread_cpu_seconds() - cpu_before;
    simulation.finish(started.elapsed().as_secs_f64(), replay_cpu)
}
