//! Every trace in ../shared/traces parses, and its statistics match that folder's README.
//! Skips (with a message) when ../shared is not beside the checkout.

use ssdlab_workload::stats::compute;
use ssdlab_workload::{TraceFormat, TraceOptions, TraceScan};
use std::path::PathBuf;

fn traces_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/traces");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED: ../shared/traces not found beside the checkout ({})", dir.display());
        None
    }
}

/// (file, format, records, reads, span seconds (last - first timestamp), tolerance seconds)
const EXPECTED: &[(&str, TraceFormat, u64, u64, f64, f64)] = &[
    ("msr-wdev_1.full.csv.gz", TraceFormat::Msr, 1_055, 0, 595_003.0, 1.0),
    ("msr-wdev_3.full.csv.gz", TraceFormat::Msr, 682, 11, 596_962.0, 1.0),
    ("msr-rsrch_1.full.csv.gz", TraceFormat::Msr, 13_780, 42, 576_558.0, 1.0),
    ("msr-web_0.segment100k.csv.gz", TraceFormat::Msr, 100_000, 61_553, 13_818.0, 1.0),
    ("msr-hm_0.sample.csv.gz", TraceFormat::Msr, 7_016, 5_820, 148.4, 0.1),
    ("msr-hm_1.sample.csv.gz", TraceFormat::Msr, 1_000, 0, 25_152.0, 1.0),
    ("msr-mds_0.sample.csv.gz", TraceFormat::Msr, 1_000, 0, 618.8, 0.1),
    ("msr-proj_0.sample.csv.gz", TraceFormat::Msr, 1_000, 1, 510.5, 0.1),
    ("msr-rsrch_2.sample.csv.gz", TraceFormat::Msr, 1_000, 0, 27_439.0, 1.0),
    ("umass-financial1.ssdsim-ascii.first10k.txt.gz", TraceFormat::Mqsim, 10_000, 4_078, 259.6, 0.1),
    ("disksim-postmark.trace.gz", TraceFormat::Disksim, 62_257, 51_780, 490.4, 0.1),
    ("disksim-iozone.first100k.trace.gz", TraceFormat::Disksim, 100_000, 0, 936.4, 0.1),
    ("mqsim-tpcc-small.trace.gz", TraceFormat::Mqsim, 6_999, 4_381, 0.1365, 0.0001),
    ("mqsim-wsrch-small.trace.gz", TraceFormat::Mqsim, 24_783, 24_779, 60.055, 0.01),
];

#[test]
fn every_shared_trace_parses_with_readme_statistics() {
    let Some(dir) = traces_dir() else { return };
    for &(file, format, records, reads, span_s, tolerance) in EXPECTED {
        let path = dir.join(file);
        let scan = TraceScan::scan(&path, &TraceOptions::default()).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(scan.format, format, "{file}: guessed format");
        assert_eq!(scan.requests, records, "{file}: records");
        let stats = compute(scan.reader().unwrap(), 4096).unwrap();
        assert_eq!(stats.requests, records, "{file}");
        assert_eq!(stats.reads, reads, "{file}: reads");
        assert!(
            (stats.duration_s - span_s).abs() <= tolerance,
            "{file}: span {} s, README says {span_s} s",
            stats.duration_s
        );
    }
}

#[test]
fn financial1_asus_are_separate_address_spaces() {
    let Some(dir) = traces_dir() else { return };
    let scan =
        TraceScan::scan(&dir.join("umass-financial1.ssdsim-ascii.first10k.txt.gz"), &TraceOptions::default()).unwrap();
    // README: ASUs 0-21 (22 devices), LBA up to 1,002,413 sectors.
    assert_eq!(scan.devices.len(), 22);
    let max_extent = scan.devices.values().map(|d| d.extent_bytes).max().unwrap();
    assert!(max_extent <= (1_002_413 + 96) * 512);
    let mut bases: Vec<u64> = scan.devices.values().map(|d| d.base_bytes).collect();
    bases.dedup();
    assert_eq!(bases.len(), 22, "every ASU gets its own base");
}

#[test]
fn msr_address_span_matches_readme() {
    let Some(dir) = traces_dir() else { return };
    let scan = TraceScan::scan(&dir.join("msr-wdev_1.full.csv.gz"), &TraceOptions::default()).unwrap();
    assert_eq!(scan.address_space_bytes, 54_620_086_272);
}
