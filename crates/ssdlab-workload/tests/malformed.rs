//! Bad input gets an error naming file, line and field; skipping is explicit and counted.

use ssdlab_workload::{TraceOptions, TraceScan, WorkloadError};
use std::io::Write;

fn write_temp(name: &str, content: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ssdlab-workload-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path).unwrap().write_all(content.as_bytes()).unwrap();
    path
}

#[test]
fn malformed_line_names_file_line_and_field() {
    let path = write_temp(
        "bad.csv",
        "128166372000000000,hm,0,Write,4096,4096,10\n128166372000000100,hm,0,Wrte,4096,4096,10\n",
    );
    let error = TraceScan::scan(&path, &TraceOptions::default()).unwrap_err();
    match &error {
        WorkloadError::Malformed { line, field, .. } => {
            assert_eq!(*line, 2);
            assert_eq!(*field, "Type");
        }
        other => panic!("unexpected {other:?}"),
    }
    let message = error.to_string();
    assert!(message.contains("bad.csv:2"), "{message}");
}

#[test]
fn skipping_is_counted() {
    let path = write_temp("skip.csv", "1.0,W,0,4096\n2.0,X,0,4096\n3.0,R,0,4096\n");
    let options = TraceOptions { skip_bad_lines: true, ..Default::default() };
    let scan = TraceScan::scan(&path, &options).unwrap();
    assert_eq!(scan.requests, 2);
    assert_eq!(scan.skipped.count, 1);
    let requests: Vec<_> = scan.reader().unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(requests.len(), 2);
}

#[test]
fn empty_trace_is_an_error() {
    let path = write_temp("empty.csv", "\n\n");
    assert!(matches!(TraceScan::scan(&path, &TraceOptions::default()), Err(WorkloadError::Empty { .. })));
}

#[test]
fn zstd_is_read_transparently() {
    let text = "0.0,W,0,4096\n0.5,R,0,4096\n";
    let compressed = zstd::encode_all(text.as_bytes(), 3).unwrap();
    let dir = std::env::temp_dir().join(format!("ssdlab-workload-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trace.zst");
    std::fs::write(&path, compressed).unwrap();
    let scan = TraceScan::scan(&path, &TraceOptions::default()).unwrap();
    assert_eq!(scan.requests, 2);
}
