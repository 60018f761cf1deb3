//! Writing requests out as a trace file: `ssdlab trace convert` and `ssdlab trace generate` (a
//! synthetic workload as a file), and the whole-process benchmark's input (issue 17).
//!
//! Formats written: `mqsim` (MQSim/SSDsim ASCII: `time_ns device lba_sectors size_sectors op`, 1 =
//! read, 0 = write) and `csv` (`time_ns,op,offset,size` in bytes with a header, deletes as `D`). A
//! `.gz` or `.zst` file name compresses. What a format cannot say is an error naming the request, not
//! a silent change: MQSim has no delete and counts in 512-byte sectors.

use crate::error::WorkloadError;
use crate::request::{IoOp, IoRequest};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A trace layout this module writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Mqsim,
    Csv,
}

impl OutputFormat {
    pub fn from_name(name: &str) -> Result<Self, WorkloadError> {
        match name.to_ascii_lowercase().as_str() {
            "mqsim" => Ok(OutputFormat::Mqsim),
            "csv" => Ok(OutputFormat::Csv),
            _ => Err(WorkloadError::InvalidOption {
                option: "to",
                message: format!("cannot write `{name}`; written formats: mqsim, csv"),
            }),
        }
    }
}

/// Writes requests to a file, line by line, in bounded memory.
pub struct TraceWriter {
    path: PathBuf,
    format: OutputFormat,
    out: Box<dyn Write>,
    written: u64,
    line: String,
}

impl TraceWriter {
    pub fn create(path: &Path, format: OutputFormat) -> Result<Self, WorkloadError> {
        let io = |source| WorkloadError::Io { path: path.to_path_buf(), source };
        let file = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path).map_err(io)?);
        let name = path.to_string_lossy();
        let out: Box<dyn Write> = if name.ends_with(".gz") {
            Box::new(flate2::write::GzEncoder::new(file, flate2::Compression::fast()))
        } else if name.ends_with(".zst") {
            Box::new(zstd::Encoder::new(file, 3).map_err(io)?.auto_finish())
        } else {
            Box::new(file)
        };
        let mut writer =
            TraceWriter { path: path.to_path_buf(), format, out, written: 0, line: String::with_capacity(64) };
        if format == OutputFormat::Csv {
            writer.out.write_all(b"time_ns,op,offset,size\n").map_err(io)?;
        }
        Ok(writer)
    }

    /// Appends one request; `index` (1-based) names it in an error.
    pub fn write(&mut self, request: &IoRequest, index: u64) -> Result<(), WorkloadError> {
        use std::fmt::Write as _;
        self.line.clear();
        match self.format {
            OutputFormat::Mqsim => {
                let op = match request.op {
                    IoOp::Read => 1,
                    IoOp::Write => 0,
                    IoOp::Delete => {
                        return Err(self.unwritable(
                            index,
                            "op",
                            "MQSim's format has no delete; write csv instead".into(),
                        ))
                    }
                };
                if !request.offset_bytes.is_multiple_of(512) || !request.size_bytes.is_multiple_of(512) {
                    let message = format!("offset {} / size {} bytes are not whole 512-byte sectors, which MQSim's format counts in; write csv instead", request.offset_bytes, request.size_bytes);
                    return Err(self.unwritable(index, "offset", message));
                }
                let _ = writeln!(
                    self.line,
                    "{} 0 {} {} {op}",
                    request.arrival.0,
                    request.offset_bytes / 512,
                    request.size_bytes / 512
                );
            }
            OutputFormat::Csv => {
                let op = match request.op {
                    IoOp::Read => "R",
                    IoOp::Write => "W",
                    IoOp::Delete => "D",
                };
                let _ =
                    writeln!(self.line, "{},{op},{},{}", request.arrival.0, request.offset_bytes, request.size_bytes);
            }
        }
        self.out
            .write_all(self.line.as_bytes())
            .map_err(|source| WorkloadError::Io { path: self.path.clone(), source })?;
        self.written += 1;
        Ok(())
    }

    fn unwritable(&self, index: u64, field: &'static str, message: String) -> WorkloadError {
        WorkloadError::Malformed {
            path: self.path.clone(),
            line: index,
            field,
            message: format!("request {index} cannot be written: {message}"),
            text: String::new(),
        }
    }

    /// Flushes (and finishes compression); returns the requests written.
    pub fn finish(mut self) -> Result<u64, WorkloadError> {
        self.out.flush().map_err(|source| WorkloadError::Io { path: self.path.clone(), source })?;
        Ok(self.written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{TraceOptions, TraceScan};
    use ssdlab_engine::SimTime;

    fn requests() -> Vec<IoRequest> {
        vec![
            IoRequest { arrival: SimTime(0), op: IoOp::Write, offset_bytes: 4096, size_bytes: 8192, origin_line: 1 },
            IoRequest { arrival: SimTime(1_500), op: IoOp::Read, offset_bytes: 0, size_bytes: 512, origin_line: 2 },
            IoRequest {
                arrival: SimTime(2_000_000),
                op: IoOp::Read,
                offset_bytes: 1 << 33,
                size_bytes: 65536,
                origin_line: 3,
            },
        ]
    }

    #[test]
    fn written_traces_read_back_identically() {
        let dir = std::env::temp_dir().join(format!("ssdlab-writer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, format) in
            [("t.mqsim", OutputFormat::Mqsim), ("t.csv.gz", OutputFormat::Csv), ("t.csv.zst", OutputFormat::Csv)]
        {
            let path = dir.join(name);
            let mut writer = TraceWriter::create(&path, format).unwrap();
            for (index, request) in requests().iter().enumerate() {
                writer.write(request, index as u64 + 1).unwrap();
            }
            assert_eq!(writer.finish().unwrap(), 3);
            let input = if format == OutputFormat::Mqsim { crate::TraceFormat::Mqsim } else { crate::TraceFormat::Csv };
            let options = TraceOptions { format: Some(input), ..TraceOptions::default() };
            let scan = TraceScan::scan(&path, &options).unwrap();
            let mut reader = scan.reader().unwrap();
            let mut back = Vec::new();
            while let Some(request) = reader.next_request().unwrap() {
                back.push((request.arrival, request.op, request.offset_bytes, request.size_bytes));
            }
            let expected: Vec<_> = requests().iter().map(|r| (r.arrival, r.op, r.offset_bytes, r.size_bytes)).collect();
            assert_eq!(back, expected, "{name}");
        }
    }

    #[test]
    fn what_a_format_cannot_say_is_an_error() {
        let dir = std::env::temp_dir().join(format!("ssdlab-writer-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut writer = TraceWriter::create(&dir.join("x.mqsim"), OutputFormat::Mqsim).unwrap();
        let delete =
            IoRequest { arrival: SimTime(0), op: IoOp::Delete, offset_bytes: 0, size_bytes: 4096, origin_line: 1 };
        assert!(writer.write(&delete, 7).unwrap_err().to_string().contains("request 7"));
        let odd = IoRequest { op: IoOp::Write, offset_bytes: 100, ..delete };
        assert!(writer.write(&odd, 8).unwrap_err().to_string().contains("512-byte"));
        assert!(OutputFormat::from_name("blkparse").is_err());
    }
}
