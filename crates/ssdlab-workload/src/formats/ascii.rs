//! The whitespace-separated `time device lba size op` family used by DiskSim, MQSim and SSDsim.
//! LBA and size are in 512-byte sectors. DiskSim: time in milliseconds, flags bit 0 = 1 means read.
//! MQSim and SSDsim: time in nanoseconds, 1 = read, 0 = write; any other value is a malformed line
//! (it is not a flag word there, and silently reading 7 or 9 as a read hid broken traces).
//! Source: ../shared/traces/README.md §2-4; DiskSim 4.0 manual (ASCII trace format).

use super::{parse_time, parse_u64, require_nonzero_size, FieldError, ParsedLine, RawRecord};
use crate::request::IoOp;

#[derive(Debug, Clone, Copy)]
pub enum TimeUnit {
    Milliseconds,
    Nanoseconds,
}

#[derive(Debug, Clone, Copy)]
pub enum ReadFlag {
    /// DiskSim: a flag word whose bit 0 set means read.
    Bit0,
    /// MQSim, SSDsim: exactly 1 (read) or 0 (write).
    ZeroOrOne,
}

pub fn parse(line: &str, unit: TimeUnit, flag: ReadFlag) -> Result<ParsedLine, FieldError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(ParsedLine::NotARequest);
    }
    let mut fields = line.split_whitespace();
    let mut next = |name: &'static str| fields.next().ok_or_else(|| FieldError::new(name, "missing (expected 5 whitespace-separated fields)"));
    let unit_ns = match unit {
        TimeUnit::Milliseconds => 1e6,
        TimeUnit::Nanoseconds => 1.0,
    };
    let time_ns = parse_time(next("time")?, "time", unit_ns)?;
    let device = parse_u64(next("device")?, "device")?;
    let lba = parse_u64(next("lba")?, "lba")?;
    let sectors = require_nonzero_size(parse_u64(next("size")?, "size")?, "size")?;
    let flags = parse_u64(next("op")?, "op")?;
    let op = match (flag, flags) {
        (ReadFlag::Bit0, flags) if flags & 1 == 1 => IoOp::Read,
        (ReadFlag::Bit0, _) => IoOp::Write,
        (ReadFlag::ZeroOrOne, 1) => IoOp::Read,
        (ReadFlag::ZeroOrOne, 0) => IoOp::Write,
        (ReadFlag::ZeroOrOne, other) => return Err(FieldError::new("op", format!("expected 1 (read) or 0 (write), found {other}"))),
    };
    Ok(ParsedLine::Request(RawRecord {
        time_ns,
        device: u32::try_from(device).map_err(|_| FieldError::new("device", "too large"))?,
        op,
        offset_bytes: lba.checked_mul(512).ok_or_else(|| FieldError::new("lba", "too large"))?,
        size_bytes: sectors.checked_mul(512).ok_or_else(|| FieldError::new("size", "too large"))?,
    }))
}
