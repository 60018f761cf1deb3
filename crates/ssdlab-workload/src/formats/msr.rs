//! MSR Cambridge block traces (SNIA IOTTA): `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`.
//! Timestamp is Windows FILETIME (100 ns ticks); Offset and Size are bytes. Source: Narayanan et al.,
//! FAST 2008, and ../shared/traces/README.md §1. The volume (Hostname, DiskNumber) becomes the device;
//! DiskNumber is used as the device number, since a file holds one volume.

use super::{comma_fields, parse_u64, require_nonzero_size, FieldError, ParsedLine, RawRecord};
use crate::request::IoOp;

pub fn parse(line: &str) -> Result<ParsedLine, FieldError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(ParsedLine::NotARequest);
    }
    let mut fields = comma_fields(line);
    let mut next = |name: &'static str| {
        fields.next().ok_or_else(|| FieldError::new(name, "missing (expected 7 comma-separated fields)"))
    };
    let timestamp = next("Timestamp")?;
    if timestamp.trim().eq_ignore_ascii_case("timestamp") {
        return Ok(ParsedLine::NotARequest);
    }
    let ticks = parse_u64(timestamp, "Timestamp")?;
    let _hostname = next("Hostname")?;
    let disk = parse_u64(next("DiskNumber")?, "DiskNumber")?;
    let op = match next("Type")?.trim() {
        t if t.eq_ignore_ascii_case("read") => IoOp::Read,
        t if t.eq_ignore_ascii_case("write") => IoOp::Write,
        other => return Err(FieldError::new("Type", format!("expected Read or Write, found {other:?}"))),
    };
    let offset = parse_u64(next("Offset")?, "Offset")?;
    let size = require_nonzero_size(parse_u64(next("Size")?, "Size")?, "Size")?;
    let _response = next("ResponseTime")?;
    let device = u32::try_from(disk).map_err(|_| FieldError::new("DiskNumber", "too large"))?;
    Ok(ParsedLine::Request(RawRecord {
        time_ns: ticks.saturating_mul(100),
        device,
        op,
        offset_bytes: offset,
        size_bytes: size,
    }))
}
