//! Test traces for the host's readers (`read_ahead.rs`, `batched_reader.rs`): a CSV trace written
//! to a temporary folder and scanned as a text the readers parse, a line of it broken after the
//! scan, and the requests a reader serves before the error that line causes.

use crate::error::SimulationError;
use ssdlab_workload::IoRequest;
use ssdlab_workload::{TraceOptions, TraceScan};
use std::path::PathBuf;

/// A CSV trace of `lines` 4 KiB requests, a third of them writes, whose timestamps go backwards
/// now and then (counted as reordered); line 1 is the header.
pub(crate) fn csv_trace(name: &str, lines: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ssdlab-host-trace-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("t.csv");
    let mut text = String::from("time_us,op,offset,size\n");
    for i in 0..lines {
        let time = if i % 1000 == 999 { i - 5 } else { i };
        text.push_str(&format!("{time},{},{},4096\n", if i % 3 == 0 { "W" } else { "R" }, (i * 7919 % 5000) * 4096));
    }
    std::fs::write(&path, text).expect("the trace written");
    path
}

/// The scan of a text the readers parse (records not kept in memory).
pub(crate) fn scan_of(path: &std::path::Path) -> TraceScan {
    TraceScan::scan(path, &TraceOptions { keep_records_bytes: 0, ..TraceOptions::default() }).expect("the trace scans")
}

/// Makes line `line` (1-based) of the trace unreadable, keeping every other line.
pub(crate) fn break_line(path: &std::path::Path, line: usize) {
    let text = std::fs::read_to_string(path).expect("the trace read");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[line - 1] = lines[line - 1].replace(",W,", ",Q,").replace(",R,", ",Q,");
    std::fs::write(path, lines.join("\n") + "\n").expect("the trace written");
}

/// The requests `next` serves before it fails, and the failure (a test of a changed trace).
pub(crate) fn served_before_error(
    mut next: impl FnMut() -> Result<Option<IoRequest>, SimulationError>,
) -> (usize, String) {
    let mut served = 0;
    loop {
        match next() {
            Ok(Some(_)) => served += 1,
            Ok(None) => panic!("the changed line must fail"),
            Err(error) => return (served, error.to_string()),
        }
    }
}
