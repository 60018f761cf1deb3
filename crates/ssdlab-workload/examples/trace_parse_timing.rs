//! Times the two passes a trace run makes over a text trace: the scan (summary, extents) and a
//! reader pass (every request as the replay sees it). Prints ns per line for each. The records the
//! scan keeps for the reader are bounded by `KEEP_RECORDS_BYTES` (0: the reader parses the text).
//!
//! `cargo run --release -p ssdlab-workload --example trace_parse_timing -- TRACE [FORMAT]`

use std::path::PathBuf;
use std::time::Instant;

use ssdlab_workload::{TraceOptions, TraceScan};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut arguments = std::env::args().skip(1);
    let path = PathBuf::from(arguments.next().ok_or("usage: trace_parse_timing TRACE [FORMAT]")?);
    let format = arguments.next().map(|name| ssdlab_workload::trace::parse_format_name(&name)).transpose()?;
    let keep = std::env::var("KEEP_RECORDS_BYTES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(ssdlab_workload::trace::DEFAULT_KEEP_RECORDS_BYTES);
    let options = TraceOptions { format, keep_records_bytes: keep, ..TraceOptions::default() };
    for round in 0..3 {
        let started = Instant::now();
        let mut pages = 0u64;
        let scan = TraceScan::scan_visiting(&path, &options, |record, _| {
            pages += record.size_bytes / 4096;
            Ok::<(), ssdlab_workload::WorkloadError>(())
        })?;
        let scanned = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let mut reader = scan.reader()?;
        let mut bytes = 0u64;
        while let Some(request) = reader.next_request()? {
            bytes += request.size_bytes;
        }
        let read = started.elapsed().as_secs_f64();
        let lines = scan.requests as f64;
        println!(
            "round {round}: {} requests; scan {:.3} s ({:.1} ns/line), reader {:.3} s ({:.1} ns/line) [{pages} {bytes}]",
            scan.requests,
            scanned,
            scanned * 1e9 / lines,
            read,
            read * 1e9 / lines
        );
    }
    Ok(())
}
