//! Records the scan keeps in memory (`workload.trace.keep_records_bytes`): the readers get the
//! requests the text gives, in every format and layout, and a trace that outgrows the budget is
//! read from the text.

use ssdlab_workload::{TraceOptions, TraceScan};
use std::path::PathBuf;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ssdlab-kept-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn requests(scan: &TraceScan) -> Vec<(u64, String, u64, u64, u64)> {
    let mut reader = scan.reader().unwrap();
    let mut all = Vec::new();
    while let Some(r) = reader.next_request().unwrap() {
        all.push((r.arrival.0, format!("{:?}", r.op), r.offset_bytes, r.size_bytes, r.origin_line));
    }
    assert_eq!(all.len() as u64, scan.requests);
    all
}

fn kept_and_text(path: &std::path::Path, options: TraceOptions) -> (TraceScan, TraceScan) {
    let kept = TraceScan::scan(path, &options).unwrap();
    let text = TraceScan::scan(path, &TraceOptions { keep_records_bytes: 0, ..options }).unwrap();
    assert_eq!(text.kept_records_bytes(), 0);
    (kept, text)
}

#[test]
fn kept_records_read_as_the_text_does() {
    // Times stepping back, unaligned ranges, a huge request, a time step beyond 2^32 ns, comments,
    // several devices: every escape of the compact record.
    let mqsim = "0 0 8 8 1\n# comment\n\n5000 1 16 64 0\n4000 1 17 3 1\n9000000000 0 0 65536 0\n9000000001 2 1099511627775 1 1\n";
    let blkparse =
        "8,0 0 1 0.000001 1 Q W 0 + 8 [x]\n8,16 0 2 0.000002 1 Q R 2048 + 16 [x]\n8,0 0 3 0.000004 1 Q W 64 + 8 [x]\n";
    let msr = "128166372003061629,hm,0,Read,7014609920,24576,41286\n128166372016382155,hm,1,Write,1317441536,8192,1963\n128166372026382245,hm,0,Write,100,512,1\n";
    for (name, text, format) in [("t.mqsim", mqsim, "mqsim"), ("t.blk", blkparse, "blkparse"), ("t.csv", msr, "msr")] {
        let path = write(name, text);
        for merge_devices in [false, true] {
            let format = Some(ssdlab_workload::trace::parse_format_name(format).unwrap());
            let (kept, text) = kept_and_text(&path, TraceOptions { format, merge_devices, ..TraceOptions::default() });
            assert!(kept.kept_records_bytes() > 0, "{name}");
            assert_eq!(requests(&kept), requests(&text), "{name}");
            // A second reader (a loop) starts again from the first record.
            assert_eq!(requests(&kept), requests(&text), "{name}, second reader");
        }
    }
}

#[test]
fn skipped_lines_are_reported_the_same_way() {
    let path = write("bad.mqsim", "0 0 8 8 1\nnot a line\n10 0 16 8 0\n20 0 x 8 0\n30 0 24 8 1\n");
    let options = TraceOptions {
        format: Some(ssdlab_workload::TraceFormat::Mqsim),
        skip_bad_lines: true,
        ..TraceOptions::default()
    };
    let (kept, text) = kept_and_text(&path, options);
    assert_eq!(requests(&kept), requests(&text));
    let kept_reader = kept.reader().unwrap();
    assert_eq!(kept_reader.skipped().count, 2);
    assert_eq!(kept_reader.skipped().first_messages, text.skipped.first_messages);
}

#[test]
fn a_trace_beyond_the_budget_is_read_from_the_text() {
    // 200,000 lines need about 2.3 MiB of records: a 2 MiB budget cannot hold them.
    let text: String =
        (0..200_000u64).map(|i| format!("{} 0 {} 8 {}\n", i * 1000, (i * 7919) % 1_000_000 * 8, i % 2)).collect();
    let path = write("long.mqsim", &text);
    let options = TraceOptions {
        format: Some(ssdlab_workload::TraceFormat::Mqsim),
        keep_records_bytes: 2 << 20,
        ..TraceOptions::default()
    };
    let small = TraceScan::scan(&path, &options).unwrap();
    assert_eq!(small.kept_records_bytes(), 0, "the records outgrew the budget and were dropped");
    // Dropped at the first projection from the part of the file read (a third of it), before the
    // budget filled up (about 174,000 records would have fitted).
    assert_eq!(small.kept_records_dropped_after(), Some(65_536));
    // Compressed, the projection reads the compressed bytes taken from the file.
    let compressed = path.with_extension("mqsim.gz");
    let mut encoder =
        flate2::write::GzEncoder::new(std::fs::File::create(&compressed).unwrap(), flate2::Compression::fast());
    std::io::Write::write_all(&mut encoder, text.as_bytes()).unwrap();
    encoder.finish().unwrap();
    let small_compressed = TraceScan::scan(&compressed, &options).unwrap();
    assert_eq!(small_compressed.kept_records_bytes(), 0);
    assert!(
        small_compressed.kept_records_dropped_after().is_some_and(|after| after < 170_000),
        "{:?}",
        small_compressed.kept_records_dropped_after()
    );
    assert_eq!(requests(&small_compressed), requests(&small));
    let large = TraceScan::scan(&path, &TraceOptions { keep_records_bytes: 4 << 20, ..options }).unwrap();
    assert!(large.kept_records_bytes() > 0 && large.kept_records_bytes() <= 4 << 20);
    assert_eq!(large.kept_records_dropped_after(), None);
    assert_eq!(requests(&small), requests(&large));
}
