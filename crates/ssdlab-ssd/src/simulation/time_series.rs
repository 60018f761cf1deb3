//! The run over time (issue 17): per interval of simulated time, requests completed and bytes per
//! op with their latency (mean, p50, p99, max), GC invocations and pages copied, free blocks, host
//! programs held for GC and planes holding writes, reads needing soft sensing, and die and channel
//! utilisation. GC storms and backlogs show as spikes and plateaus.
//!
//! Requests count in the interval of their completion. GC, free blocks and soft reads are sampled
//! when the replay's clock crosses an interval's end (GC is booked when the write that triggers it
//! is issued), as differences of the running totals. Percentiles come from a log histogram of 8 bins
//! per power of two per interval: within 9 % of the exact value. The totals over all intervals equal
//! the summary's (a test checks it). Utilisation is the busy time booked on the dies (channels) in
//! the interval over the interval times their number: an operation counts when it is booked (when
//! it starts), so an interval can show slightly above 1 when long operations started in it.
//!
//! Memory is bounded (issue 32): a series holds at most [`MAX_TIME_SERIES_ROWS`] intervals, and an
//! interval's histograms hold only the bins it uses (a fine interval over a long run is mostly
//! empty intervals; 2 x 512 dense bins each took 4 KiB per interval and 2 GiB in half a simulated
//! second at 1 us). A run that passes the last interval end the cap allows stops recording there and
//! runs on to its end, then fails with [`SimulationError::TimeSeriesTooLong`] naming an interval that
//! covers the whole run (issue 48 item 6: failing at the first time past the cap suggested an
//! interval from that time, too fine for the rest of the run, and the retry failed again).

use crate::config::MAX_TIME_SERIES_ROWS;
use crate::error::SimulationError;
use crate::ftl::FtlStats;
use ssdlab_engine::SimTime;

const BINS: usize = 8 * 64;

#[derive(Clone)]
struct Interval {
    count: [u64; 2],
    bytes: [u64; 2],
    latency_sum_ns: [u64; 2],
    latency_max_ns: [u64; 2],
    /// (bin, count) of the bins in use, by bin: sparse, since most intervals of a fine series
    /// hold few requests.
    histogram: [Vec<(u16, u32)>; 2],
}

impl Interval {
    fn new() -> Self {
        Interval {
            count: [0; 2],
            bytes: [0; 2],
            latency_sum_ns: [0; 2],
            latency_max_ns: [0; 2],
            histogram: [Vec::new(), Vec::new()],
        }
    }
}

fn bin_of(latency_ns: u64) -> usize {
    if latency_ns < 2 {
        return 0;
    }
    let log = (latency_ns as f64).log2();
    ((log * 8.0) as usize).min(BINS - 1)
}

/// A bin's upper edge in ns.
fn edge_of(bin: usize) -> f64 {
    2f64.powf((bin + 1) as f64 / 8.0)
}

/// Collects the series during a run.
pub(super) struct TimeSeriesCollector {
    interval_ns: u64,
    intervals: Vec<Interval>,
    /// Running totals at each sampled interval end.
    samples: Vec<Sample>,
    next_sample_ns: u64,
    /// At most this many intervals ([`MAX_TIME_SERIES_ROWS`]; smaller in tests).
    max_rows: u64,
    /// The latest time (ns) seen beyond the last interval the cap allows: the run is too long for
    /// the series, which stops recording; the run's end reports it.
    overflow_ns: Option<u64>,
}

/// Running totals the collector samples.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Totals {
    pub gc_invocations: u64,
    pub gc_pages_copied: u64,
    pub free_blocks: u64,
    pub soft_reads: u64,
    /// Busy time booked so far on all dies and on all channels, and how many of each.
    pub die_busy_ns: u64,
    pub channel_busy_ns: u64,
    pub dies: u64,
    pub channels: u64,
    /// Host programs held for GC so far (`scheduler/write_gate.rs`), and planes holding writes now.
    pub programs_held: u64,
    pub planes_holding_writes: u64,
    /// Free blocks whose erase has ended (free blocks minus GC erases still running).
    pub erased_blocks: u64,
    /// With a DRAM data cache: bytes acknowledged and not yet in flash now.
    pub unsaved_bytes: Option<u64>,
}

/// One sampled interval end: the running totals that are differenced per interval, and free blocks.
type Sample = Totals;

impl Totals {
    pub(super) fn of(stats: &FtlStats, free_blocks: u64, soft_reads: u64) -> Self {
        Totals {
            gc_invocations: stats.gc_invocations,
            gc_pages_copied: stats.gc_pages_copied + stats.pages_migrated_out,
            free_blocks,
            soft_reads,
            ..Totals::default()
        }
    }

    /// With the write gate's running count of held programs and the planes holding writes now.
    pub(super) fn with_holds(self, programs_held: u64, planes_holding_writes: u64, erased_blocks: u64) -> Self {
        Totals { programs_held, planes_holding_writes, erased_blocks, ..self }
    }

    /// With the DRAM data cache's unsaved bytes (None without a cache).
    pub(super) fn with_unsaved_bytes(self, unsaved_bytes: Option<u64>) -> Self {
        Totals { unsaved_bytes, ..self }
    }

    /// With the dies' and channels' booked busy time.
    pub(super) fn with_busy(self, die_busy_ns: u64, channel_busy_ns: u64, dies: u64, channels: u64) -> Self {
        Totals { die_busy_ns, channel_busy_ns, dies, channels, ..self }
    }
}

impl TimeSeriesCollector {
    pub(super) fn new(interval_ns: u64) -> Self {
        Self::with_max_rows(interval_ns, MAX_TIME_SERIES_ROWS)
    }

    fn with_max_rows(interval_ns: u64, max_rows: u64) -> Self {
        TimeSeriesCollector {
            interval_ns: interval_ns.max(1),
            intervals: Vec::new(),
            samples: Vec::new(),
            next_sample_ns: interval_ns.max(1),
            max_rows: max_rows.max(1),
            overflow_ns: None,
        }
    }

    /// Notes a time beyond the last interval the cap allows (the latest one seen).
    fn overflow(&mut self, at_ns: u64) {
        self.overflow_ns = Some(self.overflow_ns.map_or(at_ns, |seen| seen.max(at_ns)));
    }

    /// The error of a run that went past the cap (at `at_ns`).
    fn too_long(&self, at_ns: u64) -> SimulationError {
        SimulationError::TimeSeriesTooLong {
            interval_ms: self.interval_ns as f64 / 1e6,
            reached_ms: at_ns as f64 / 1e6,
            max_rows: self.max_rows,
        }
    }

    /// A completed request (`write`: 1, read: 0).
    pub(super) fn record(&mut self, completion: SimTime, latency_ns: u64, bytes: u64, write: bool) {
        let index = completion.0 / self.interval_ns;
        if index >= self.max_rows {
            // (Completions are booked ahead of the clock: one far in the future would otherwise
            // allocate every interval up to it at once.)
            self.overflow(completion.0);
            return;
        }
        let index = index as usize;
        if index >= self.intervals.len() {
            self.intervals.resize(index + 1, Interval::new());
        }
        let op = write as usize;
        let interval = &mut self.intervals[index];
        interval.count[op] += 1;
        interval.bytes[op] += bytes;
        interval.latency_sum_ns[op] += latency_ns;
        interval.latency_max_ns[op] = interval.latency_max_ns[op].max(latency_ns);
        let bin = bin_of(latency_ns) as u16;
        let histogram = &mut interval.histogram[op];
        match histogram.binary_search_by_key(&bin, |&(b, _)| b) {
            Ok(at) => histogram[at].1 += 1,
            Err(at) => histogram.insert(at, (bin, 1)),
        }
    }

    /// Whether the clock has passed the next interval end (never again once past the cap).
    #[inline]
    pub(super) fn due(&self, clock: SimTime) -> bool {
        clock.0 >= self.next_sample_ns
    }

    /// Samples the running totals for every interval end at or before `clock` (the DRAM cache's
    /// unsaved bytes from `unsaved_at`, exactly at each end: they change between the loop's steps
    /// as destages end). Past the last interval the cap allows, it notes the time and stops sampling
    /// (the run's end reports it: [`Self::finish`]).
    pub(super) fn sample(
        &mut self,
        clock: SimTime,
        totals: &Totals,
        unsaved_at: impl Fn(SimTime) -> Option<u64>,
    ) -> Result<(), SimulationError> {
        while clock.0 >= self.next_sample_ns {
            if self.samples.len() as u64 >= self.max_rows {
                self.overflow(clock.0);
                self.next_sample_ns = u64::MAX;
                break;
            }
            self.samples.push(totals.with_unsaved_bytes(unsaved_at(SimTime(self.next_sample_ns))));
            self.next_sample_ns += self.interval_ns;
        }
        Ok(())
    }

    /// The series, with the run's final totals closing the last interval; an error when the run
    /// (its last completion or the device's last booked work, `end`) outlasts the cap, naming an
    /// interval that covers the run up to the latest time it saw.
    pub(super) fn finish(
        mut self,
        end: SimTime,
        totals: &Totals,
        unsaved_at: impl Fn(SimTime) -> Option<u64>,
    ) -> Result<TimeSeries, SimulationError> {
        if end.0 / self.interval_ns >= self.max_rows {
            self.overflow(end.0);
        }
        if let Some(at_ns) = self.overflow_ns {
            return Err(self.too_long(at_ns));
        }
        let intervals = self.intervals.len().max(((end.0 / self.interval_ns) + 1) as usize);
        self.intervals.resize(intervals, Interval::new());
        while self.samples.len() < intervals {
            let interval_end = (self.samples.len() as u64 + 1) * self.interval_ns;
            self.samples.push(totals.with_unsaved_bytes(unsaved_at(SimTime(interval_end.min(end.0)))));
        }
        let seconds = self.interval_ns as f64 / 1e9;
        let mut series = TimeSeries { interval_ns: self.interval_ns, ..TimeSeries::default() };
        let mut previous = Totals::default();
        for (index, interval) in self.intervals.iter().enumerate() {
            series.start_ms.push(index as f64 * self.interval_ns as f64 / 1e6);
            for (op, column) in [&mut series.read, &mut series.write].into_iter().enumerate() {
                let count = interval.count[op];
                column.count.push(count);
                column.bytes.push(interval.bytes[op]);
                column.iops.push(count as f64 / seconds);
                column.mbps.push(interval.bytes[op] as f64 / 1e6 / seconds);
                column.mean_us.push(if count == 0 {
                    0.0
                } else {
                    interval.latency_sum_ns[op] as f64 / count as f64 / 1e3
                });
                column.p50_us.push(percentile(&interval.histogram[op], count, 0.5, interval.latency_max_ns[op]));
                column.p99_us.push(percentile(&interval.histogram[op], count, 0.99, interval.latency_max_ns[op]));
                column.max_us.push(interval.latency_max_ns[op] as f64 / 1e3);
            }
            let sample = self.samples[index];
            let delta = |now: u64, before: u64| now - before.min(now);
            series.gc_invocations.push(delta(sample.gc_invocations, previous.gc_invocations));
            series.gc_pages_copied.push(delta(sample.gc_pages_copied, previous.gc_pages_copied));
            series.free_blocks.push(sample.free_blocks);
            series.erased_blocks.push(sample.erased_blocks);
            series.soft_reads.push(delta(sample.soft_reads, previous.soft_reads));
            series.programs_held.push(delta(sample.programs_held, previous.programs_held));
            series.planes_holding_writes.push(sample.planes_holding_writes);
            if let Some(bytes) = sample.unsaved_bytes {
                series.unsaved_bytes.get_or_insert_with(Vec::new).push(bytes);
            }
            let utilisation = |busy: u64, count: u64| busy as f64 / (self.interval_ns as f64 * count.max(1) as f64);
            series.die_utilisation.push(utilisation(delta(sample.die_busy_ns, previous.die_busy_ns), sample.dies));
            series
                .channel_utilisation
                .push(utilisation(delta(sample.channel_busy_ns, previous.channel_busy_ns), sample.channels));
            previous = sample;
        }
        Ok(series)
    }
}

/// The `q` quantile in microseconds (a bin's upper edge, capped at the interval's maximum).
fn percentile(histogram: &[(u16, u32)], count: u64, q: f64, max_ns: u64) -> f64 {
    if count == 0 {
        return 0.0;
    }
    let rank = ((q * count as f64).ceil() as u64).max(1);
    let mut seen = 0u64;
    for &(bin, n) in histogram {
        seen += n as u64;
        if seen >= rank {
            return edge_of(bin as usize).min(max_ns as f64) / 1e3;
        }
    }
    max_ns as f64 / 1e3
}

/// One op's columns.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct OpSeries {
    pub count: Vec<u64>,
    pub bytes: Vec<u64>,
    pub iops: Vec<f64>,
    pub mbps: Vec<f64>,
    pub mean_us: Vec<f64>,
    pub p50_us: Vec<f64>,
    pub p99_us: Vec<f64>,
    pub max_us: Vec<f64>,
}

/// `result.time_series`: one entry per interval in every column.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct TimeSeries {
    pub interval_ns: u64,
    pub start_ms: Vec<f64>,
    pub read: OpSeries,
    pub write: OpSeries,
    pub gc_invocations: Vec<u64>,
    /// Pages copied or migrated by GC.
    pub gc_pages_copied: Vec<u64>,
    /// Free blocks in the device at the interval's end (in the FTL: GC's victims count as free at
    /// once) and, of those, the ones whose erase has ended (`scheduler/write_gate.rs`).
    pub free_blocks: Vec<u64>,
    pub erased_blocks: Vec<u64>,
    /// Reads whose hard decoding failed (soft sensing needed), by when they were issued.
    pub soft_reads: Vec<u64>,
    /// Host programs held for GC (`result.gc.host_writes_held`), by when they were held.
    pub programs_held: Vec<u64>,
    /// Planes holding host writes for GC at the interval's end.
    pub planes_holding_writes: Vec<u64>,
    /// Busy time booked on the dies (channels) in the interval over the interval x their number.
    pub die_utilisation: Vec<f64>,
    pub channel_utilisation: Vec<f64>,
    /// With a DRAM data cache: bytes acknowledged to the host and not yet in flash at the
    /// interval's end (`result.data_cache.unsaved_bytes_*`; absent without a cache).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsaved_bytes: Option<Vec<u64>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_fall_in_their_completion_interval_and_totals_are_differenced() {
        let mut collector = TimeSeriesCollector::new(1_000);
        collector.record(SimTime(500), 100, 4096, false);
        collector.record(SimTime(1_500), 2_000, 8192, true);
        collector.record(SimTime(1_600), 1_000, 4096, false);
        let totals = |gc| {
            Totals { gc_invocations: gc, gc_pages_copied: 10 * gc, free_blocks: 50 - gc, ..Totals::default() }
                .with_busy(gc * 500, gc * 250, 2, 1)
        };
        assert!(!collector.due(SimTime(999)) && collector.due(SimTime(2_500)));
        collector.sample(SimTime(2_500), &totals(3), |_| None).unwrap();
        let series = collector.finish(SimTime(2_600), &totals(4), |_| None).unwrap();
        assert_eq!(series.read.count, vec![1, 1, 0]);
        assert_eq!(series.write.bytes, vec![0, 8192, 0]);
        // Both interval ends passed at 2,500 see 3 invocations; the last closes with 4.
        assert_eq!(series.gc_invocations, vec![3, 0, 1]);
        assert_eq!(series.free_blocks, vec![47, 47, 46]);
        // 1,500 ns booked on 2 dies by the first end (of 2,000 ns of capacity), then none, then 500.
        assert_eq!(series.die_utilisation, vec![0.75, 0.0, 0.25]);
        assert_eq!(series.channel_utilisation, vec![0.75, 0.0, 0.25]);
        assert!((series.read.p99_us[1] - 1.0).abs() < 0.1, "{:?}", series.read.p99_us);
        assert!((series.read.mean_us[0] - 0.1).abs() < 1e-9);
    }

    #[test]
    fn a_run_longer_than_the_cap_is_an_error_without_growing() {
        // A completion booked far ahead is not recorded (nothing allocated up to it); the run's end
        // reports it.
        let mut collector = TimeSeriesCollector::with_max_rows(1_000, 4);
        collector.record(SimTime(3_500), 100, 4096, false);
        collector.record(SimTime(1_000_000_000), 100, 4096, true);
        assert_eq!(collector.intervals.len(), 4);
        let error = collector.finish(SimTime(10), &Totals::default(), |_| None).unwrap_err().to_string();
        assert!(error.contains("output.time_series_interval_ms") && error.contains("1000 ms"), "{error}");
        // A clock jumping far ahead stops sampling at the cap, and no later clock samples again.
        let mut collector = TimeSeriesCollector::with_max_rows(1_000, 4);
        collector.sample(SimTime(1_000_000_000), &Totals::default(), |_| None).unwrap();
        assert_eq!(collector.samples.len(), 4);
        assert!(!collector.due(SimTime(2_000_000_000)));
        // A run that ends (its last booked work) beyond the cap is refused at the end too.
        let collector = TimeSeriesCollector::with_max_rows(1_000, 4);
        assert!(collector.finish(SimTime(4_000), &Totals::default(), |_| None).is_err());
        let collector = TimeSeriesCollector::with_max_rows(1_000, 4);
        assert_eq!(collector.finish(SimTime(3_999), &Totals::default(), |_| None).unwrap().start_ms.len(), 4);
    }

    /// Issue 48 item 6: the interval the error names covers the whole run, not only the time where
    /// the cap was first passed.
    #[test]
    fn the_suggested_interval_holds_the_whole_run() {
        let max_rows = 1_000;
        for end_ns in [10_100_000u64, 20_000_000, 999_999, 123_456_789, 1_000_000_000] {
            let mut collector = TimeSeriesCollector::with_max_rows(1_000, max_rows);
            // The cap is passed early (at 1 ms), the run goes on to `end_ns`.
            collector.sample(SimTime(1_001_000), &Totals::default(), |_| None).unwrap();
            let error = collector.finish(SimTime(end_ns), &Totals::default(), |_| None).unwrap_err();
            let SimulationError::TimeSeriesTooLong { reached_ms, max_rows: cap, .. } = error else { panic!("{error}") };
            let interval_ms = crate::error::suggested_interval_ms(reached_ms, cap);
            let interval_ns = (interval_ms * 1e6).round() as u64;
            let retry = TimeSeriesCollector::with_max_rows(interval_ns, max_rows);
            assert!(
                retry.finish(SimTime(end_ns), &Totals::default(), |_| None).is_ok(),
                "{interval_ms} ms for {end_ns} ns"
            );
        }
    }

    #[test]
    fn sparse_histograms_keep_the_percentiles() {
        let mut collector = TimeSeriesCollector::new(1_000_000);
        for latency in [5_000u64, 1_000, 3_000, 1_000, 200_000] {
            collector.record(SimTime(10), latency, 4096, false);
        }
        let series = collector.finish(SimTime(20), &Totals::default(), |_| None).unwrap();
        assert!((series.read.p50_us[0] - 3.0).abs() < 0.3, "{:?}", series.read.p50_us);
        assert_eq!(series.read.p99_us[0], 200.0);
    }
}
