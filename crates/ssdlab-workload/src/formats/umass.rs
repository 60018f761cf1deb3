//! UMass Trace Repository / SPC format: `ASU,LBA,Size,Opcode,Timestamp[,...]`; LBA in 512-byte
//! sectors, Size in bytes, Opcode r/w, Timestamp in seconds. Each ASU is its own address space
//! (SPEC §1), so the ASU becomes the device. Financial1/2 and WebSearch1-3 use this layout.

use super::{comma_fields, parse_time, parse_u64, require_nonzero_size, FieldError, ParsedLine, RawRecord};
use crate::request::IoOp;

pub fn parse(line: &str) -> Result<ParsedLine, FieldError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(ParsedLine::NotARequest);
    }
    let mut fields = comma_fields(line);
    let mut next = |name: &'static str| {
        fields.next().ok_or_else(|| FieldError::new(name, "missing (expected at least 5 comma-separated fields)"))
    };
    let asu = parse_u64(next("ASU")?, "ASU")?;
    let lba = parse_u64(next("LBA")?, "LBA")?;
    let size = require_nonzero_size(parse_u64(next("Size")?, "Size")?, "Size")?;
    let op = match next("Opcode")?.trim() {
        "r" | "R" => IoOp::Read,
        "w" | "W" => IoOp::Write,
        other => return Err(FieldError::new("Opcode", format!("expected r or w, found {other:?}"))),
    };
    let time_ns = parse_time(next("Timestamp")?, "Timestamp", 1e9)?;
    let device = u32::try_from(asu).map_err(|_| FieldError::new("ASU", "too large"))?;
    let offset_bytes = lba.checked_mul(512).ok_or_else(|| FieldError::new("LBA", "too large"))?;
    Ok(ParsedLine::Request(RawRecord { time_ns, device, op, offset_bytes, size_bytes: size }))
}
