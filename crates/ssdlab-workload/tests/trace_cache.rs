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
    scan.reader().unwrap().map(|r| r.unwrap()).map(|r| (r.arrival.0, format!("{:?}", r.op), r.offset_bytes, r.size_bytes, r.origin_line)).collect()
}

fn cache_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
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
        assert_eq!((scan.requests, scan.address_space_bytes, scan.first_time_ns, scan.last_time_ns), (plain.requests, plain.address_space_bytes, plain.first_time_ns, plain.last_time_ns));
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
