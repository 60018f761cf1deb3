//! Run metrics: latency histograms per operation (HdrHistogram's bins at 3 significant digits) and
//! their summaries. (The result of a run is assembled by the wiring: `simulation/run_result.rs`.)
//!
//! During a run a latency only increments a count in a bin laid out exactly as HdrHistogram lays
//! out its counts (1 ns .. 2^50 ns, 3 significant digits): recording is a shift, a leading-zero
//! count and an add, where the library's general `record` cost about 50 instructions per request.
//! The summary replays the bins into an `hdrhistogram::Histogram` (one `record_n` per non-empty
//! bin), so quantiles and maxima are the library's, unchanged (tests check the bin layout and the
//! summaries against the library's). Latencies above 2^50 ns (13 days) are counted at 2^50 ns.

use hdrhistogram::Histogram;
use serde::Serialize;

/// Largest latency counted in its own bin (ns).
const HIGHEST_TRACKABLE_NS: u64 = 1 << 50;
/// 3 significant digits: 2048 sub-buckets per bucket, of which buckets above the first use the
/// upper half (HdrHistogram's layout with a lowest discernible value of 1).
const SUB_BUCKET_HALF_COUNT_MAGNITUDE: u32 = 10;
const SUB_BUCKET_HALF_COUNT: usize = 1 << SUB_BUCKET_HALF_COUNT_MAGNITUDE;
const SUB_BUCKET_MASK: u64 = (2 << SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
const LEADING_ZERO_COUNT_BASE: u32 = 64 - SUB_BUCKET_HALF_COUNT_MAGNITUDE - 1;
const BINS: usize = latency_bin(HIGHEST_TRACKABLE_NS) + 1;

/// HdrHistogram's count index of `value` (for values up to [`HIGHEST_TRACKABLE_NS`]).
#[inline]
const fn latency_bin(value: u64) -> usize {
    let bucket = LEADING_ZERO_COUNT_BASE - (value | SUB_BUCKET_MASK).leading_zeros();
    let sub_bucket = (value >> bucket) as usize;
    ((bucket as usize + 1) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + sub_bucket - SUB_BUCKET_HALF_COUNT
}

/// The lowest value counted in bin `index` (inverse of [`latency_bin`]).
fn latency_bin_lowest(index: usize) -> u64 {
    if index < SUB_BUCKET_HALF_COUNT {
        return index as u64;
    }
    let bucket = (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
    (((index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT) as u64) << bucket
}

pub struct LatencyRecorder {
    bins: Vec<u64>,
    pub count: u64,
    pub bytes: u64,
    sum_ns: u128,
}

impl Default for LatencyRecorder {
    fn default() -> Self {
        LatencyRecorder { bins: vec![0; BINS], count: 0, bytes: 0, sum_ns: 0 }
    }
}

impl LatencyRecorder {
    #[inline]
    pub fn record(&mut self, latency_ns: u64, bytes: u64) {
        self.bins[latency_bin(latency_ns.min(HIGHEST_TRACKABLE_NS))] += 1;
        self.count += 1;
        self.bytes += bytes;
        self.sum_ns += latency_ns as u128;
    }

    /// Reads and writes together, from the two recorders (so each request is recorded once).
    pub fn combined(a: &LatencyRecorder, b: &LatencyRecorder) -> LatencyRecorder {
        let bins = a.bins.iter().zip(&b.bins).map(|(x, y)| x + y).collect();
        LatencyRecorder { bins, count: a.count + b.count, bytes: a.bytes + b.bytes, sum_ns: a.sum_ns + b.sum_ns }
    }

    /// The counts as an HdrHistogram (each bin recorded at its lowest value; the library reports
    /// a bin by its highest equivalent value either way).
    fn histogram(&self) -> Histogram<u64> {
        let mut histogram = Histogram::new_with_bounds(1, HIGHEST_TRACKABLE_NS, 3).expect("valid histogram bounds");
        for (index, &count) in self.bins.iter().enumerate().filter(|(_, &count)| count > 0) {
            histogram.saturating_record_n(latency_bin_lowest(index), count);
        }
        histogram
    }

    pub fn summary(&self, duration_s: f64) -> OpMetrics {
        let us = |ns: u64| ns as f64 * 1e-3;
        let empty = self.count == 0;
        let histogram = self.histogram();
        OpMetrics {
            count: self.count,
            bytes: self.bytes,
            iops: if duration_s > 0.0 { self.count as f64 / duration_s } else { 0.0 },
            mbps: if duration_s > 0.0 { self.bytes as f64 / duration_s / 1e6 } else { 0.0 },
            latency_us: LatencySummary {
                mean: if empty { 0.0 } else { self.sum_ns as f64 / self.count as f64 * 1e-3 },
                p50: if empty { 0.0 } else { us(histogram.value_at_quantile(0.5)) },
                p99: if empty { 0.0 } else { us(histogram.value_at_quantile(0.99)) },
                p999: if empty { 0.0 } else { us(histogram.value_at_quantile(0.999)) },
                max: if empty { 0.0 } else { us(histogram.max()) },
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LatencySummary {
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
    pub p999: f64,
    pub max: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct OpMetrics {
    pub count: u64,
    pub bytes: u64,
    pub iops: f64,
    /// Megabytes (1e6 bytes) per simulated second.
    pub mbps: f64,
    pub latency_us: LatencySummary,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn bins_cover_the_range_in_order() {
        assert_eq!(latency_bin(0), 0);
        assert_eq!(latency_bin_lowest(latency_bin(HIGHEST_TRACKABLE_NS)), HIGHEST_TRACKABLE_NS);
        for index in 1..BINS {
            assert!(latency_bin_lowest(index) > latency_bin_lowest(index - 1), "bin {index}");
            assert_eq!(latency_bin(latency_bin_lowest(index)), index);
        }
    }

    proptest! {
        /// Our bins are HdrHistogram's: a value lands in the bin whose lowest value is the
        /// library's lowest equivalent value.
        #[test]
        fn bins_match_hdrhistogram(exponent in 0u32..51, fraction in 0u64..u64::MAX) {
            let value = if exponent == 0 { 0 } else { (1u64 << (exponent - 1)) + fraction % (1u64 << (exponent - 1)) };
            let library = Histogram::<u64>::new_with_bounds(1, HIGHEST_TRACKABLE_NS, 3).unwrap();
            prop_assert_eq!(latency_bin_lowest(latency_bin(value)), library.lowest_equivalent(value));
        }

        /// A summary from the bins equals one from recording every value in the library.
        #[test]
        fn summary_equals_the_library_on_raw_values(values in proptest::collection::vec(0u64..5_000_000_000, 1..300)) {
            let mut ours = LatencyRecorder::default();
            let mut library = Histogram::<u64>::new_with_bounds(1, HIGHEST_TRACKABLE_NS, 3).unwrap();
            for &value in &values {
                ours.record(value, 4096);
                library.saturating_record(value);
            }
            let summary = ours.summary(1.0).latency_us;
            prop_assert_eq!(summary.p50, library.value_at_quantile(0.5) as f64 * 1e-3);
            prop_assert_eq!(summary.p99, library.value_at_quantile(0.99) as f64 * 1e-3);
            prop_assert_eq!(summary.p999, library.value_at_quantile(0.999) as f64 * 1e-3);
            prop_assert_eq!(summary.max, library.max() as f64 * 1e-3);
        }
    }
}
