//! Trace formats: each turns one text line into a [`RawRecord`], reports that the line carries no
//! request (blank, comment, header, other blkparse actions), or names the field that is wrong.

pub mod ascii;
pub mod blkparse;
pub mod columns;
pub mod csv;
pub mod msr;
pub mod umass;

use crate::request::IoOp;

/// A record as the file states it: absolute time in ns, the device (volume/ASU) it addresses, and
/// a byte range on that device.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawRecord {
    pub time_ns: u64,
    pub device: u32,
    pub op: IoOp,
    pub offset_bytes: u64,
    pub size_bytes: u64,
}

/// Which field of a line is wrong and why.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

impl FieldError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        FieldError { field, message: message.into() }
    }
}

/// What a line turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub enum ParsedLine {
    Request(RawRecord),
    /// A line with no request in it (blank, comment, header, a blkparse event of another kind).
    NotARequest,
    /// A trailer that ends the trace (blkparse's summary section).
    EndOfTrace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TraceFormat {
    /// MSR Cambridge CSV: Timestamp(FILETIME),Hostname,DiskNumber,Type,Offset,Size,ResponseTime.
    Msr,
    /// UMass/SPC CSV: ASU,LBA(512 B sectors),Size(bytes),Opcode(r|w),Timestamp(s).
    Umass,
    /// blkparse default text output.
    Blkparse,
    /// DiskSim ASCII: time(ms) device lba(sectors) size(sectors) flags(bit 0 = read).
    Disksim,
    /// MQSim ASCII: time(ns) device lba(sectors) size(sectors) type(1 = read).
    Mqsim,
    /// SSDsim ASCII: time(ns) device lsn(sectors) size(sectors) op(1 = read).
    Ssdsim,
    /// Plain CSV: time,op,offset,size (time unit from the header, seconds if none).
    Csv,
    /// Any delimited layout given by a column map ([`columns::ColumnLayout`]).
    Columns,
}

pub const KNOWN_FORMATS: &str = "msr, umass, blkparse, disksim, mqsim, ssdsim, csv, columns (with a column map)";

impl TraceFormat {
    pub fn from_name(name: &str) -> Option<TraceFormat> {
        Some(match name.to_ascii_lowercase().as_str() {
            "msr" | "msr-cambridge" => TraceFormat::Msr,
            "umass" | "spc" => TraceFormat::Umass,
            "blkparse" => TraceFormat::Blkparse,
            "disksim" => TraceFormat::Disksim,
            "mqsim" => TraceFormat::Mqsim,
            "ssdsim" => TraceFormat::Ssdsim,
            "csv" => TraceFormat::Csv,
            "columns" => TraceFormat::Columns,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Msr => "msr",
            TraceFormat::Umass => "umass",
            TraceFormat::Blkparse => "blkparse",
            TraceFormat::Disksim => "disksim",
            TraceFormat::Mqsim => "mqsim",
            TraceFormat::Ssdsim => "ssdsim",
            TraceFormat::Csv => "csv",
            TraceFormat::Columns => "columns",
        }
    }

    /// Guesses the format from the first lines of a file. Returns the reason when it cannot.
    pub fn guess(lines: &[String]) -> Result<TraceFormat, String> {
        let first = lines
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .ok_or_else(|| "no non-empty line".to_string())?;
        if first.contains(',') && !blkparse::looks_like_blkparse(first) {
            let fields: Vec<&str> = comma_fields(first).map(str::trim).collect();
            return match fields.len() {
                7 if matches!(fields[3].to_ascii_lowercase().as_str(), "read" | "write") => Ok(TraceFormat::Msr),
                5.. if matches!(fields[3].to_ascii_lowercase().as_str(), "r" | "w") => Ok(TraceFormat::Umass),
                4 => Ok(TraceFormat::Csv),
                n => Err(format!("first line has {n} comma-separated fields, which matches no known CSV layout")),
            };
        }
        if blkparse::looks_like_blkparse(first) {
            return Ok(TraceFormat::Blkparse);
        }
        let fields: Vec<&str> = first.split_whitespace().collect();
        if fields.len() == 5 && fields[1..].iter().all(|f| f.parse::<u64>().is_ok()) {
            // DiskSim times are milliseconds with a fraction; MQSim/SSDsim times are integer ns.
            // MQSim and SSDsim read identically (ns, 1 = read), so either name is right.
            return if fields[0].contains('.') {
                Ok(TraceFormat::Disksim)
            } else if fields[0].parse::<u64>().is_ok() {
                Ok(TraceFormat::Mqsim)
            } else {
                Err(format!("first field {:?} is not a number", fields[0]))
            };
        }
        Err(format!("first line {:?} matches no known layout", truncate(first, 80)))
    }

    /// The record of a plain, well-formed line of the whitespace formats read from its bytes, or
    /// `None`: then [`TraceFormat::parse_line`] reads it (and words any error).
    #[inline]
    pub fn parse_fast(self, line: &[u8]) -> Option<RawRecord> {
        match self {
            TraceFormat::Mqsim | TraceFormat::Ssdsim => {
                ascii::parse_fast(line, ascii::TimeUnit::Nanoseconds, ascii::ReadFlag::ZeroOrOne)
            }
            TraceFormat::Disksim => ascii::parse_fast(line, ascii::TimeUnit::Milliseconds, ascii::ReadFlag::Bit0),
            _ => None,
        }
    }

    pub fn parse_line(self, line: &str, csv_state: &mut csv::CsvState) -> Result<ParsedLine, FieldError> {
        match self {
            TraceFormat::Msr => msr::parse(line),
            TraceFormat::Umass => umass::parse(line),
            TraceFormat::Blkparse => blkparse::parse(line),
            TraceFormat::Disksim => ascii::parse(line, ascii::TimeUnit::Milliseconds, ascii::ReadFlag::Bit0),
            TraceFormat::Mqsim | TraceFormat::Ssdsim => {
                ascii::parse(line, ascii::TimeUnit::Nanoseconds, ascii::ReadFlag::ZeroOrOne)
            }
            TraceFormat::Csv => csv::parse(line, csv_state),
            // The reader parses this format with its column map; without one there is nothing to read by.
            TraceFormat::Columns => Err(FieldError::new(
                "format",
                "the columns format needs a column map (workload.trace.columns or --columns)".to_string(),
            )),
        }
    }
}

fn truncate(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((index, _)) => &text[..index],
        None => text,
    }
}

/// Parses an unsigned integer field.
/// The comma-separated fields of a line, as `str::split(',')` gives them, found by a byte scan
/// (the general `char` searcher cost a seventh of replaying an MSR trace).
pub(crate) fn comma_fields(line: &str) -> CommaFields<'_> {
    CommaFields { rest: Some(line) }
}

pub(crate) struct CommaFields<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for CommaFields<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.bytes().position(|byte| byte == b',') {
            // ',' is ASCII, so both sides of it are character boundaries.
            Some(at) => {
                self.rest = Some(&rest[at + 1..]);
                Some(&rest[..at])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

pub(crate) fn parse_u64(text: &str, field: &'static str) -> Result<u64, FieldError> {
    // Fast path for the common case, plain digits without padding (a trace has millions of
    // fields); anything else goes through the standard parser, which also words the error.
    let bytes = text.as_bytes();
    if !bytes.is_empty() && bytes.len() <= 19 && bytes.iter().all(u8::is_ascii_digit) {
        // At most 19 digits cannot overflow u64.
        return Ok(bytes.iter().fold(0u64, |value, &digit| value * 10 + (digit - b'0') as u64));
    }
    text.trim()
        .parse::<u64>()
        .map_err(|_| FieldError::new(field, format!("expected a non-negative integer, found {:?}", text.trim())))
}

/// Parses a non-negative decimal number of `unit_ns` nanoseconds into whole nanoseconds.
pub(crate) fn parse_time(text: &str, field: &'static str, unit_ns: f64) -> Result<u64, FieldError> {
    let text = text.trim();
    // Whole numbers (MQSim's nanoseconds) take the digit fast path; fractions the float parser.
    let bytes = text.as_bytes();
    let digits = !bytes.is_empty() && bytes.len() <= 19 && bytes.iter().all(u8::is_ascii_digit);
    let whole = if digits {
        Some(bytes.iter().fold(0u64, |value, &digit| value * 10 + (digit - b'0') as u64))
    } else {
        text.parse::<u64>().ok()
    };
    if let Some(whole) = whole {
        if unit_ns >= 1.0 && unit_ns.fract() == 0.0 {
            // Exact in integers (through f64, times beyond 2^53 ns rounded by up to ~100 ns).
            if let Some(ns) = whole.checked_mul(unit_ns as u64) {
                return Ok(ns);
            }
        } else {
            let ns = whole as f64 * unit_ns;
            if ns < 1.8e19 {
                return Ok(ns as u64);
            }
        }
    }
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok((value * unit_ns).round() as u64),
        Ok(_) => Err(FieldError::new(field, format!("expected a non-negative finite time, found {text:?}"))),
        Err(_) => Err(FieldError::new(field, format!("expected a number, found {text:?}"))),
    }
}

pub(crate) fn require_nonzero_size(size: u64, field: &'static str) -> Result<u64, FieldError> {
    if size == 0 {
        Err(FieldError::new(field, "request size is zero"))
    } else {
        Ok(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comma_fields_split_like_str_split() {
        for line in ["", ",", "a", "a,b", "a,,b,", " 1 , 2 ,3", "é,ü,\u{2603}"] {
            assert_eq!(comma_fields(line).collect::<Vec<_>>(), line.split(',').collect::<Vec<_>>(), "{line:?}");
        }
    }

    fn guess(line: &str) -> Result<TraceFormat, String> {
        TraceFormat::guess(&[line.to_string()])
    }

    #[test]
    fn guesses_each_layout() {
        assert_eq!(guess("128166372000000000,hm,0,Write,3164164096,40960,2896"), Ok(TraceFormat::Msr));
        assert_eq!(guess("0,303567,3584,w,0.000000"), Ok(TraceFormat::Umass));
        assert_eq!(guess("7961.833 0 20228336 8 0"), Ok(TraceFormat::Disksim));
        assert_eq!(guess("938513000 4 264719034 16 0"), Ok(TraceFormat::Mqsim));
        assert_eq!(guess("0.5,W,4096,8192"), Ok(TraceFormat::Csv));
        assert_eq!(
            guess("  8,0    3        1     0.000000000  4162  Q   W 1234 + 8 [kworker]"),
            Ok(TraceFormat::Blkparse)
        );
        assert!(guess("hello world").is_err());
    }
}
