//! The time series adds up to the summary, interval by interval, and shows GC where it happens.

mod common;
use common::*;
use ssdlab_ssd::run;

#[test]
fn the_time_series_totals_equal_the_summary_totals() {
    let workload = synthetic(20_000, 0.3, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    for extra in [&[][..], &["workload.synthetic.delete_fraction=0.1", "host.delete_target=\"ftl\""][..]] {
        let mut overrides = vec!["output.time_series_interval_ms=20"];
        overrides.extend_from_slice(extra);
        let result = run(&small_config(&workload, &overrides), &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
        let series = result.time_series.as_ref().expect("asked for");
        assert_eq!(series.interval_ns, 20_000_000);
        let sum = |column: &[u64]| column.iter().sum::<u64>();
        assert_eq!(sum(&series.read.count), result.read.count);
        assert_eq!(sum(&series.write.count), result.write.count);
        assert_eq!(sum(&series.read.bytes), result.read.bytes);
        assert_eq!(sum(&series.write.bytes), result.write.bytes);
        assert_eq!(sum(&series.gc_invocations), result.gc.invocations);
        assert_eq!(sum(&series.gc_pages_copied), result.gc.pages_copied + result.gc.pages_migrated);
        assert!(result.gc.invocations > 0, "the small device collects garbage");
        assert!(series.gc_invocations.iter().filter(|&&n| n > 0).count() > 1, "GC spread over the run: {:?}", series.gc_invocations);
        let n = series.start_ms.len();
        assert!(n > 10 && [series.read.p99_us.len(), series.free_blocks.len(), series.soft_reads.len()].iter().all(|&len| len == n));
        // Per interval, p50 <= p99 <= max (within the histogram's bin width).
        for i in 0..n {
            assert!(series.read.p50_us[i] <= series.read.p99_us[i] + 1e-9 && series.read.p99_us[i] <= series.read.max_us[i] + 1e-9, "interval {i}");
        }
    }
    // Without the setting there is no series; a bad interval names its field.
    assert!(run(&small_config(&workload, &[]), &mut no_progress()).unwrap().time_series.is_none());
    let error = small_config_result(&workload, &["output.time_series_interval_ms=0"]).expect_err("zero interval").to_string();
    assert!(error.contains("output.time_series_interval_ms"), "{error}");
}
