//! Plain CSV: `time,op,offset,size` with offset and size in bytes and op one of R/W/read/write, or
//! D/delete/discard/trim for a delete.
//! An optional header names the time unit: `time_s`, `time_ms`, `time_us` or `time_ns` (plain `time`
//! means seconds). Without a header, time is in seconds.

use super::{parse_time, parse_u64, require_nonzero_size, FieldError, ParsedLine, RawRecord};
use crate::request::IoOp;

#[derive(Debug, Clone)]
pub struct CsvState {
    unit_ns: f64,
}

impl Default for CsvState {
    fn default() -> Self {
        CsvState { unit_ns: 1e9 }
    }
}

pub fn parse(line: &str, state: &mut CsvState) -> Result<ParsedLine, FieldError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(ParsedLine::NotARequest);
    }
    let fields: Vec<&str> = super::comma_fields(line).map(str::trim).collect();
    if fields.len() != 4 {
        return Err(FieldError::new(
            "time",
            format!("expected 4 comma-separated fields (time,op,offset,size), found {}", fields.len()),
        ));
    }
    let head = fields[0].to_ascii_lowercase();
    if head.starts_with("time") {
        state.unit_ns = match head.as_str() {
            "time" | "time_s" => 1e9,
            "time_ms" => 1e6,
            "time_us" => 1e3,
            "time_ns" => 1.0,
            other => {
                return Err(FieldError::new(
                    "time",
                    format!("unknown time unit in header {other:?}; use time_s, time_ms, time_us or time_ns"),
                ))
            }
        };
        return Ok(ParsedLine::NotARequest);
    }
    let time_ns = parse_time(fields[0], "time", state.unit_ns)?;
    let op = match fields[1].to_ascii_lowercase().as_str() {
        "r" | "read" => IoOp::Read,
        "w" | "write" => IoOp::Write,
        "d" | "delete" | "discard" | "trim" => IoOp::Delete,
        other => {
            return Err(FieldError::new(
                "op",
                format!("expected R, W, D, read, write, delete, discard or trim, found {other:?}"),
            ))
        }
    };
    let offset_bytes = parse_u64(fields[2], "offset")?;
    let size_bytes = require_nonzero_size(parse_u64(fields[3], "size")?, "size")?;
    Ok(ParsedLine::Request(RawRecord { time_ns, device: 0, op, offset_bytes, size_bytes }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delete_ops_parse_and_unknown_ops_name_the_field() {
        let mut state = CsvState::default();
        for op in ["D", "delete", "Discard", "TRIM"] {
            match parse(&format!("0.5,{op},4096,8192"), &mut state).unwrap() {
                ParsedLine::Request(r) => {
                    assert_eq!((r.op, r.offset_bytes, r.size_bytes), (IoOp::Delete, 4096, 8192), "{op}")
                }
                other => panic!("{op}: unexpected {other:?}"),
            }
        }
        let error = parse("0.5,X,4096,8192", &mut state).unwrap_err();
        assert_eq!(error.field, "op");
    }
}
