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
    assert_eq!(cached.read_cache_artifact("footprint-test").unwrap(), b"pages");
    assert!(cached.read_cache_artifact("another-name").is_none());
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

/// The files of `dir` whose names end with `suffix`.
fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with(suffix))
        .collect();
    paths.sort();
    paths
}

fn long_trace(requests: u64, shift: u64) -> String {
    let mut text = String::from("time_us,op,offset,size\n");
    for i in 0..requests {
        let op = ["W", "R", "D"][(i % 3) as usize];
        text.push_str(&format!("{},{op},{},4096\n", i * 10, ((i * 7919 + shift) % 5000) * 4096));
    }
    text
}

/// Fault injection (issue 33): a flipped byte anywhere in the records file, a truncated file, a
/// records file or summary or artifact of another trace copied over this one's: each is found, the
/// damaged file rebuilt (or the artifact ignored), and the requests read afterwards are the trace's.
#[test]
fn a_damaged_or_swapped_cache_file_is_rebuilt_never_read() {
    let dir = folder("faults");
    let (trace, other) = (dir.join("t.csv"), dir.join("other.csv"));
    std::fs::write(&trace, long_trace(3000, 0)).unwrap();
    std::fs::write(&other, long_trace(3000, 17)).unwrap();
    let cache = dir.join("cache");
    let options = TraceOptions { cache_dir: Some(cache.clone()), ..TraceOptions::default() };
    let plain = requests(&TraceScan::scan(&trace, &TraceOptions::default()).unwrap());
    let built = TraceScan::scan(&trace, &options).unwrap();
    let records_file = built.cache.as_ref().unwrap().0.clone();
    let pristine = std::fs::read(&records_file).unwrap();
    TraceScan::scan(&other, &options).unwrap();
    let other_records = files_ending(&cache, ".records").into_iter().find(|path| *path != records_file).unwrap();

    let check_rebuilt = |what: &str| {
        assert!(TraceScan::cached(&trace, &options).unwrap().is_none(), "{what}: a damaged cache was trusted");
        let scan = TraceScan::scan(&trace, &options).unwrap();
        assert!(!scan.cache_reused, "{what}: the damaged cache was read");
        assert_eq!(requests(&scan), plain, "{what}");
        assert_eq!(std::fs::read(&records_file).unwrap(), pristine, "{what}: the rebuilt file differs");
        let reused = TraceScan::scan(&trace, &options).unwrap();
        assert!(reused.cache_reused, "{what}: the rebuilt cache is not reused");
        assert_eq!(requests(&reused), plain, "{what}");
    };
    // One flipped byte in the header, in the first record, in the middle and in the last record.
    for at in [20, 70, 72 + 3, 72 + 40 * 1500 + 36, pristine.len() - 1] {
        let mut damaged = pristine.clone();
        damaged[at] ^= 0x01;
        std::fs::write(&records_file, &damaged).unwrap();
        check_rebuilt(&format!("byte {at} flipped"));
    }
    // Two records swapped (each whole, so only the checksum can tell).
    let mut swapped = pristine.clone();
    let (first, second) = (72 + 40 * 10, 72 + 40 * 11);
    let record: Vec<u8> = swapped[first..first + 40].to_vec();
    swapped.copy_within(second..second + 40, first);
    swapped[second..second + 40].copy_from_slice(&record);
    std::fs::write(&records_file, &swapped).unwrap();
    check_rebuilt("two records swapped");
    // Truncated by a record, and to its header.
    std::fs::write(&records_file, &pristine[..pristine.len() - 40]).unwrap();
    check_rebuilt("last record cut");
    std::fs::write(&records_file, &pristine[..72]).unwrap();
    check_rebuilt("cut to the header");
    // Another trace's records file under this one's name.
    std::fs::copy(&other_records, &records_file).unwrap();
    check_rebuilt("another trace's records");

    // The summary and an artifact of another trace's cache, copied over this one's: ignored.
    let scan = TraceScan::cached(&trace, &options).unwrap().unwrap();
    let other_scan = TraceScan::cached(&other, &options).unwrap().unwrap();
    scan.store_cache_artifact("footprint-test", b"this trace").unwrap();
    other_scan.store_cache_artifact("footprint-test", b"other trace").unwrap();
    std::fs::copy(
        other_scan.cache_artifact_path("footprint-test").unwrap(),
        scan.cache_artifact_path("footprint-test").unwrap(),
    )
    .unwrap();
    assert!(scan.read_cache_artifact("footprint-test").is_none(), "another trace's artifact was trusted");
    let mut artifact = std::fs::read(other_scan.cache_artifact_path("footprint-test").unwrap()).unwrap();
    let last = artifact.len() - 1;
    artifact[last] ^= 0x20;
    std::fs::write(other_scan.cache_artifact_path("footprint-test").unwrap(), &artifact).unwrap();
    assert!(other_scan.read_cache_artifact("footprint-test").is_none(), "a damaged artifact was trusted");
    let summary_file = PathBuf::from(format!("{}.scan", records_file.display()));
    let other_summary = PathBuf::from(format!("{}.scan", other_records.display()));
    std::fs::copy(&other_summary, &summary_file).unwrap();
    assert!(TraceScan::cached(&trace, &options).unwrap().is_none(), "another trace's summary was trusted");
    // The scan passes over the records again and writes this trace's summary back.
    let rescanned = TraceScan::scan(&trace, &options).unwrap();
    assert!(rescanned.cache_reused);
    assert_eq!(summary(&TraceScan::cached(&trace, &options).unwrap().unwrap()), summary(&rescanned));
}

/// A records file changed while a run reads it (after its check): the reader's error names the cache
/// file and the record, not a line of the trace.
#[test]
fn a_cache_changed_under_the_reader_is_named_in_the_error() {
    let dir = folder("under-reader");
    let trace = dir.join("t.csv");
    // More records than one read of the reader takes (26,214), so that records are decoded before
    // the checksum of the whole file is known.
    std::fs::write(&trace, long_trace(30_000, 0)).unwrap();
    let cache = dir.join("cache");
    let options = TraceOptions { cache_dir: Some(cache.clone()), ..TraceOptions::default() };
    TraceScan::scan(&trace, &options).unwrap();
    let scan = TraceScan::cached(&trace, &options).unwrap().unwrap();
    let records_file = scan.cache.as_ref().unwrap().0.clone();
    let mut bytes = std::fs::read(&records_file).unwrap();
    // An impossible operation code in record 5, then a changed offset that only the checksum finds.
    let op = bytes[72 + 40 * 4 + 36];
    bytes[72 + 40 * 4 + 36] = 9;
    std::fs::write(&records_file, &bytes).unwrap();
    let error = scan.reader().unwrap().find_map(Result::err).expect("the damaged record is reported").to_string();
    assert!(error.contains(&*records_file.to_string_lossy()) && error.contains("record 5:"), "{error}");
    assert!(!error.contains("t.csv:"), "{error}");
    bytes[72 + 40 * 4 + 36] = op;
    bytes[72 + 40 * 4 + 9] ^= 0x10;
    std::fs::write(&records_file, &bytes).unwrap();
    let error = scan.reader().unwrap().find_map(Result::err).expect("the changed file is reported").to_string();
    assert!(error.contains(&*records_file.to_string_lossy()) && error.contains("checksum"), "{error}");
    // The next scan rebuilds it.
    assert!(!TraceScan::scan(&trace, &options).unwrap().cache_reused);
}

/// A cache folder that cannot be one is named as the cache folder, with why (issue 33: the messages
/// were "File exists" and "No such file" against the path alone).
#[test]
fn an_unusable_cache_folder_says_why() {
    let dir = folder("unusable");
    let trace = dir.join("t.csv");
    std::fs::write(&trace, TRACE).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    for (cache, says) in [
        (file.clone(), "it is a file, not a folder"),
        (file.join("below"), "a-file is a file, not a folder"),
        (PathBuf::new(), "the folder's path is empty"),
    ] {
        let options = TraceOptions { cache_dir: Some(cache), ..TraceOptions::default() };
        let error = TraceScan::scan(&trace, &options).unwrap_err().to_string();
        assert!(error.contains("cannot keep the parsed-trace cache here") && error.contains(says), "{error}");
    }
}
