//! The parsed-trace cache: built by the first scan, reused by later ones, never read for a changed
//! trace or different options, never left half-written.

use ssdlab_workload::{TraceOptions, TraceScan};
use std::path::{Path, PathBuf};

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ssdlab-cache-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn requests(scan: &TraceScan) -> Vec<(u64, String, u64, u64, u64)> {
    scan.reader()
        .unwrap()
        .map(|r| r.unwrap())
        .map(|r| (r.arrival.0, format!("{:?}", r.op), r.offset_bytes, r.size_bytes, r.origin_line))
        .collect()
}

/// The cache files of `dir` (each with its scan summary beside it, `NAME.records.scan`).
fn cache_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let records: Vec<String> = names.iter().filter(|name| name.ends_with(".records")).cloned().collect();
    for name in &records {
        assert!(names.contains(&format!("{name}.scan")), "{name} has no summary: {names:?}");
    }
    assert!(names.iter().all(|name| !name.contains("partial")), "{names:?}");
    records
}

/// Everything a scan says about a trace, cache fields aside.
fn summary(scan: &TraceScan) -> String {
    format!(
        "{:?} {} {} {} {:?} {} {}",
        scan.format,
        scan.requests,
        scan.first_time_ns,
        scan.last_time_ns,
        scan.devices,
        scan.address_space_bytes,
        scan.skipped.count
    )
}

#[test]
fn a_built_cache_gives_the_scan_without_reading_its_records() {
    let dir = folder("summary");
    let trace = dir.join("t.blk");
    // Two devices (blkparse), so that merging devices or not lays the space out differently.
    std::fs::write(
        &trace,
        "8,0 0 1 0.000001 1 Q W 0 + 8 [x]\n8,16 0 2 0.000002 1 Q R 2048 + 16 [x]\n8,0 0 3 0.000004 1 Q W 64 + 8 [x]\n",
    )
    .unwrap();
    let cache = dir.join("cache");
    for merge_devices in [false, true] {
        let options = TraceOptions { cache_dir: Some(cache.clone()), merge_devices, ..TraceOptions::default() };
        let plain = TraceScan::scan(&trace, &TraceOptions { cache_dir: None, ..options.clone() }).unwrap();
        let scanned = TraceScan::scan(&trace, &options).unwrap();
        let cached = TraceScan::cached(&trace, &options).unwrap().expect("the cache and its summary exist");
        assert!(cached.cache_reused && cached.cache == scanned.cache);
        assert_eq!(summary(&cached), summary(&plain));
        assert_eq!(requests(&cached), requests(&plain));
    }
    // An artifact kept beside the cache is named by it; none without a cache.
    let options = TraceOptions { cache_dir: Some(cache.clone()), ..TraceOptions::default() };
    let cached = TraceScan::cached(&trace, &options).unwrap().unwrap();
    cached.store_cache_artifact("footprint-test", b"pages").unwrap();
    let artifact = cached.cache_artifact_path("footprint-test").unwrap();
    assert_eq!(std::fs::read(&artifact).unwrap(), b"pages");
    assert!(artifact.to_string_lossy().starts_with(&*cached.cache.as_ref().unwrap().0.to_string_lossy()));
    assert_eq!(cache_files(&cache).len(), 1);
    // Without the summary the cache is still used, through one pass over its records, which
    // writes the summary again.
    std::fs::remove_file(dir.join("cache").join(format!("{}.scan", cache_files(&cache)[0]))).unwrap();
    assert!(TraceScan::cached(&trace, &options).unwrap().is_none());
    assert!(TraceScan::scan(&trace, &options).unwrap().cache_reused);
    assert_eq!(summary(&TraceScan::cached(&trace, &options).unwrap().unwrap()), summary(&cached));
    // No cache asked for, or none built for a changed trace: nothing.
    assert!(TraceScan::cached(&trace, &TraceOptions::default()).unwrap().is_none());
    std::fs::write(&trace, "8,0 0 1 0.000001 1 Q W 8 + 8 [x]\n").unwrap();
    assert!(TraceScan::cached(&trace, &options).unwrap().is_none());
}

const TRACE: &str = "time_us,op,offset,size\n0,W,0,4096\n5,R,8192,512\n3,D,4096,4096\n# comment\n9,W,1048576,65536\n";

#[test]
fn the_cache_is_built_once_reused_and_reads_the_same_requests() {
    let dir = folder("reuse");
    let trace = dir.join("t.csv");
    std::fs::write(&trace, TRACE).unwrap();
    let cache = dir.join("cache");
    let plain = TraceScan::scan(&trace, &TraceOptions::default()).unwrap();
    let options = TraceOptions { cache_dir: Some(cache.clone()), ..TraceOptions::default() };
    let built = TraceScan::scan(&trace, &options).unwrap();
    assert!(built.cache.is_some() && !built.cache_reused);
    let reused = TraceScan::scan(&trace, &options).unwrap();
    assert!(reused.cache_reused);
    for scan in [&built, &reused] {
        assert_eq!(requests(scan), requests(&plain));
        assert_eq!(
            (scan.requests, scan.address_space_bytes, scan.first_time_ns, scan.last_time_ns),
            (plain.requests, plain.address_space_bytes, plain.first_time_ns, plain.last_time_ns)
        );
    }
    assert_eq!(cache_files(&cache).len(), 1);
    // A changed trace (same length) gets a cache of its own; the old one is never read for it.
    std::fs::write(&trace, TRACE.replace("8192", "4096")).unwrap();
    let changed = TraceScan::scan(&trace, &options).unwrap();
    assert!(!changed.cache_reused);
    assert_eq!(requests(&changed)[1].2, 4096);
    assert_eq!(cache_files(&cache).len(), 2);
    // Other options that change which records exist get their own cache too.
    let larger = TraceOptions { max_request_bytes: 1 << 20, ..options.clone() };
    assert!(!TraceScan::scan(&trace, &larger).unwrap().cache_reused);
}

#[test]
fn skipped_lines_stay_counted_and_a_failed_scan_leaves_no_cache() {
    let dir = folder("skip");
    let trace = dir.join("bad.csv");
    std::fs::write(&trace, "time_us,op,offset,size\n0,W,0,4096\n1,X,0,4096\n2,R,0,4096\n").unwrap();
    let cache = dir.join("cache");
    let strict = TraceOptions { cache_dir: Some(cache.clone()), ..TraceOptions::default() };
    assert!(TraceScan::scan(&trace, &strict).is_err());
    assert!(cache_files(&cache).is_empty(), "{:?}", cache_files(&cache));
    let skipping = TraceOptions { skip_bad_lines: true, ..strict };
    let built = TraceScan::scan(&trace, &skipping).unwrap();
    let reused = TraceScan::scan(&trace, &skipping).unwrap();
    assert!(reused.cache_reused);
    assert_eq!((built.skipped.count, reused.skipped.count, reused.requests), (1, 1, 2));
    assert_eq!(requests(&reused), requests(&built));
}
