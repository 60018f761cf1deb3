//! Observers: the parts that watch a run without changing it - the time series
//! (`output.time_series_interval_ms`), the request log (`output.request_log_path`), write heat
//! (`output.write_heat`) and the longest host stall (devices with tiers or events). Each hangs off
//! the replay loop through the hooks of [`Observer`] and contributes its own section of the result
//! at the end; the loop knows none of them by name. A new observer is one `impl Observer` and one
//! line in [`build`].
//!
//! Left out: an observer cannot change what the device does (the hooks get shared references), so
//! state the data path itself needs (the workload classifier seed 000's read path asks, the dead
//! data the scrambler's accounting follows through GC) lives in the data path, not here.

use super::request_log::{Logged, RequestLog};
use super::time_series::{TimeSeriesCollector, Totals};
use super::write_heat::WriteCounter;
use super::RunResult;
use crate::config::SimulationConfig;
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::ftl::Ftl;
use crate::geometry::{Lpn, PlaneIndex};
use crate::host::stall::StallTracker;
use crate::host::PageSpan;
use crate::middleware::Middleware;
use crate::read_path::ReadStrategy;
use crate::scheduler::{FlashScheduler, RequestTag};
use ssdlab_engine::SimTime;
use ssdlab_workload::{IoOp, IoRequest};

/// What an observer may look at: the device's parts, read-only.
pub(super) struct DeviceView<'a> {
    pub ftl: &'a Ftl,
    pub data_path: &'a super::data_path::DataPath,
    pub scheduler: &'a FlashScheduler,
    pub layout: &'a DeviceLayout,
    pub read_strategy: &'a dyn ReadStrategy,
    pub middleware: &'a dyn Middleware,
}

impl DeviceView<'_> {
    /// The running totals the time series samples.
    pub(super) fn totals(&self) -> Totals {
        let (mut free_blocks, mut erased_blocks) = (0, 0);
        for plane in 0..self.layout.planes_total() {
            let free = self.ftl.free_blocks(PlaneIndex(plane));
            free_blocks += free as u64;
            erased_blocks += self.scheduler.erased_pool(plane, free);
        }
        let (die_busy, channel_busy) = self.scheduler.busy_totals();
        let programs_held = self.scheduler.write_hold_statistics().map_or(0, |statistics| statistics.programs_held);
        Totals::of(&self.ftl.stats(), free_blocks, self.soft_reads())
            .with_busy(die_busy.0, channel_busy.0, self.layout.dies_total() as u64, self.layout.channels_total() as u64)
            .with_holds(programs_held, self.scheduler.planes_holding_writes() as u64, erased_blocks)
    }

    /// The DRAM data cache's unsaved bytes at `at` (None without a cache).
    pub(super) fn unsaved_bytes(&self, at: SimTime) -> Option<u64> {
        self.data_path.unsaved_bytes(at, self.scheduler)
    }

    /// Reads whose hard decision failed so far.
    fn soft_reads(&self) -> u64 {
        self.read_strategy.statistics().map_or(0, |statistics| statistics.hard_decision_failures)
    }

    /// The NAND tier a host page's data is on (None: not mapped).
    fn tier_of_host_page(&self, page: u64) -> Option<usize> {
        let target = self.middleware.read_target(Lpn(page as u32))?;
        self.ftl.lookup(target).map(|ppn| self.layout.tier_of(ppn).index())
    }
}

/// A request entering the device.
#[derive(Clone, Copy)]
pub(super) struct Issued<'a> {
    /// The request's device-queue slot (reused once it completes).
    pub slot: u32,
    /// 1-based position in the run.
    pub index: u64,
    pub request: &'a IoRequest,
    pub latency_from: SimTime,
    pub issue: SimTime,
    pub span: PageSpan,
    /// Its flow (`host.flows`, in config order; 0 with one stream).
    pub flow: u8,
}

/// A request whose last flash work has been booked.
pub(super) struct Completed {
    pub request: RequestTag,
    pub completion: SimTime,
    pub slot: u32,
    /// Where its device time went (recorded while the request log is written).
    pub breakdown: Option<crate::scheduler::LatencyBreakdown>,
}

/// The hooks of the replay loop. Every hook has a default that ignores it.
pub(super) trait Observer {
    /// A request was issued (before the data path translates it).
    fn request_issued(&mut self, _issued: &Issued<'_>, _device: &DeviceView<'_>) {}
    /// The data path has translated the request in `slot` and booked its first flash work.
    fn request_served(&mut self, _slot: u32, _device: &DeviceView<'_>) {}
    fn request_completed(&mut self, _completed: &Completed) {}
    /// The simulation clock moved to `now` (at scheduler events and request issues); an error stops
    /// the run (an output that would outgrow its bound).
    fn clock_advanced(&mut self, _now: SimTime, _device: &DeviceView<'_>) -> Result<(), SimulationError> {
        Ok(())
    }
    /// The run ended at `end` (the device idle): adds the observer's section to `result`.
    fn finish(
        self: Box<Self>,
        end: SimTime,
        device: &DeviceView<'_>,
        result: &mut RunResult,
    ) -> Result<(), SimulationError>;
}

/// The observers of a run, called in the order they were built.
#[derive(Default)]
pub(super) struct Observers {
    list: Vec<Box<dyn Observer>>,
}

/// Builds the observers the config turns on.
pub(super) fn build(config: &SimulationConfig, host_logical_pages: u64) -> Result<Observers, SimulationError> {
    let mut list: Vec<Box<dyn Observer>> = Vec::new();
    if let Some(ms) = config.output.time_series_interval_ms {
        list.push(Box::new(TimeSeriesCollector::new((ms * 1e6).round() as u64)));
    }
    if let Some(path) = config.output.request_log_path.as_deref() {
        let flows: Vec<String> = config.host.flows.iter().map(|flow| flow.name.clone()).collect();
        list.push(Box::new(AnnotatedLog { log: RequestLog::create(path, flows)?, before: (0, 0) }));
    }
    if config.output.write_heat {
        list.push(Box::new(WriteCounter::new(host_logical_pages)));
    }
    // Reported for devices with tiers or events, where stalls come from more than one request.
    if config.device.is_tiered() || !config.events.is_empty() {
        list.push(Box::new(StallTracker::default()));
    }
    Ok(Observers { list })
}

impl Observers {
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub(super) fn request_issued(&mut self, issued: &Issued<'_>, device: &DeviceView<'_>) {
        self.list.iter_mut().for_each(|observer| observer.request_issued(issued, device));
    }

    pub(super) fn request_served(&mut self, slot: u32, device: &DeviceView<'_>) {
        self.list.iter_mut().for_each(|observer| observer.request_served(slot, device));
    }

    pub(super) fn request_completed(&mut self, completed: &Completed) {
        self.list.iter_mut().for_each(|observer| observer.request_completed(completed));
    }

    pub(super) fn clock_advanced(&mut self, now: SimTime, device: &DeviceView<'_>) -> Result<(), SimulationError> {
        self.list.iter_mut().try_for_each(|observer| observer.clock_advanced(now, device))
    }

    pub(super) fn finish(
        &mut self,
        end: SimTime,
        device: &DeviceView<'_>,
        result: &mut RunResult,
    ) -> Result<(), SimulationError> {
        for observer in std::mem::take(&mut self.list) {
            observer.finish(end, device, result)?;
        }
        Ok(())
    }
}

impl Observer for TimeSeriesCollector {
    fn request_completed(&mut self, completed: &Completed) {
        let request = &completed.request;
        if !request.delete {
            let latency = completed.completion.since(request.latency_from).0;
            self.record(completed.completion, latency, request.size_bytes, request.write);
        }
    }

    fn clock_advanced(&mut self, now: SimTime, device: &DeviceView<'_>) -> Result<(), SimulationError> {
        // Sampled on events too: after the last request's issue, the device's remaining work (and
        // its utilisation) falls in the intervals it runs in.
        if self.due(now) {
            self.sample(now, &device.totals(), |at| device.unsaved_bytes(at))?;
        }
        Ok(())
    }

    fn finish(
        self: Box<Self>,
        end: SimTime,
        device: &DeviceView<'_>,
        result: &mut RunResult,
    ) -> Result<(), SimulationError> {
        result.time_series = Some((*self).finish(end, &device.totals(), |at| device.unsaved_bytes(at))?);
        Ok(())
    }
}

/// The request log with what serving each request set off: soft reads (hard decisions that failed)
/// and GC pages copied, as differences of the running totals around serving it.
struct AnnotatedLog {
    log: RequestLog,
    /// (soft reads, GC pages copied) when the request being served was issued.
    before: (u64, u64),
}

fn flag_totals(device: &DeviceView<'_>) -> (u64, u64) {
    (device.soft_reads(), device.ftl.stats().gc_pages_copied)
}

impl Observer for AnnotatedLog {
    fn request_issued(&mut self, issued: &Issued<'_>, device: &DeviceView<'_>) {
        let Issued { slot, index, request, latency_from, issue, span, flow } = *issued;
        let logged = Logged {
            index,
            op: request.op,
            offset_bytes: request.offset_bytes,
            size_bytes: request.size_bytes,
            pages: span.pages(),
            latency_from,
            issue,
            flow,
        };
        self.log.issued(slot, logged);
        self.before = flag_totals(device);
    }

    fn request_served(&mut self, slot: u32, device: &DeviceView<'_>) {
        let (soft, gc) = flag_totals(device);
        self.log.annotate(slot, soft - self.before.0, gc - self.before.1);
    }

    fn request_completed(&mut self, completed: &Completed) {
        self.log.completed(completed.slot, completed.completion, completed.breakdown.unwrap_or_default());
    }

    fn finish(
        self: Box<Self>,
        _end: SimTime,
        _device: &DeviceView<'_>,
        result: &mut RunResult,
    ) -> Result<(), SimulationError> {
        let mean_breakdown_us = self.log.mean_breakdown();
        let (path, rows) = self.log.finish()?;
        result.request_log =
            Some(super::RequestLogSummary { path: path.display().to_string(), rows, mean_breakdown_us });
        Ok(())
    }
}

impl Observer for WriteCounter {
    fn request_issued(&mut self, issued: &Issued<'_>, _device: &DeviceView<'_>) {
        if issued.request.op == IoOp::Write {
            for page in issued.span.first..=issued.span.last {
                self.written(page);
            }
        }
    }

    fn finish(
        self: Box<Self>,
        _end: SimTime,
        device: &DeviceView<'_>,
        result: &mut RunResult,
    ) -> Result<(), SimulationError> {
        let names: Vec<String> = device.layout.tiers().iter().map(|tier| tier.name.clone()).collect();
        result.write_heat = Some(WriteCounter::finish(&self, &names, |page| device.tier_of_host_page(page)));
        Ok(())
    }
}

impl Observer for StallTracker {
    fn request_completed(&mut self, completed: &Completed) {
        self.record(completed.completion, completed.request.latency_from);
    }

    fn clock_advanced(&mut self, now: SimTime, _device: &DeviceView<'_>) -> Result<(), SimulationError> {
        self.advance(now);
        Ok(())
    }

    fn finish(
        mut self: Box<Self>,
        _end: SimTime,
        _device: &DeviceView<'_>,
        result: &mut RunResult,
    ) -> Result<(), SimulationError> {
        let stall = StallTracker::finish(&mut self) as f64 * 1e-3;
        result.dead_time.longest_host_stall_us = Some(stall);
        // Dead time is what the host sees (seed 004 Fig. 14): the longest time it got nothing done,
        // a suspension or a stall. Background work on one die while the host is served elsewhere is
        // not dead time (`longest_background_span_us` stays beside it).
        result.dead_time.dead_time_us = stall.max(result.dead_time.longest_suspension_us);
        Ok(())
    }
}
