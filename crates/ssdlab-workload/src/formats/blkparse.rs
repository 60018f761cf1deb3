//! blkparse default text output:
//! `maj,min cpu seq time pid action rwbs sector + sectors [process]`.
//! One action stands for a request: Q (queued by the block layer), as replay tools usually take it.
//! Events of other actions (G, I, D, C, M, ...) and flush-only requests carry no I/O for replay and
//! are passed over; discards (RWBS with 'D') become deletes; the summary blkparse prints at the end
//! ("CPU0 (8,0):", "Total (...)") ends the trace.

use super::{parse_time, parse_u64, FieldError, ParsedLine, RawRecord};
use crate::request::IoOp;

pub fn looks_like_blkparse(line: &str) -> bool {
    let mut fields = line.split_whitespace();
    let Some(device) = fields.next() else { return false };
    let Some((major, minor)) = device.split_once(',') else { return false };
    if major.parse::<u32>().is_err() || minor.parse::<u32>().is_err() {
        return false;
    }
    let rest: Vec<&str> = fields.take(6).collect();
    rest.len() == 6 && rest[2].contains('.') && rest[4].chars().all(|c| c.is_ascii_uppercase())
}

pub fn parse(line: &str) -> Result<ParsedLine, FieldError> {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Ok(ParsedLine::NotARequest);
    }
    if trimmed.starts_with("CPU") || trimmed.starts_with("Total") {
        return Ok(ParsedLine::EndOfTrace);
    }
    let fields: Vec<&str> = trimmed.split_whitespace().collect();
    if fields.len() < 7 {
        return Err(FieldError::new("action", "expected `maj,min cpu seq time pid action rwbs ...`"));
    }
    let (major, minor) = fields[0]
        .split_once(',')
        .ok_or_else(|| FieldError::new("device", format!("expected maj,min, found {:?}", fields[0])))?;
    let minor: u32 = minor.parse().map_err(|_| FieldError::new("device", format!("bad minor number {minor:?}")))?;
    let _major: u32 = major.parse().map_err(|_| FieldError::new("device", format!("bad major number {major:?}")))?;
    let time_ns = parse_time(fields[3], "time", 1e9)?;
    let action = fields[5];
    if action != "Q" {
        return Ok(ParsedLine::NotARequest);
    }
    let rwbs = fields[6];
    // 'D' is a discard (older kernels show it with 'W', "WD").
    let op = if rwbs.contains('D') {
        IoOp::Delete
    } else if rwbs.contains('R') {
        IoOp::Read
    } else if rwbs.contains('W') {
        IoOp::Write
    } else {
        return Ok(ParsedLine::NotARequest);
    };
    if fields.len() < 10 || fields[8] != "+" {
        // A queued flush-with-data or barrier without a range carries no I/O.
        return Ok(ParsedLine::NotARequest);
    }
    let sector = parse_u64(fields[7], "sector")?;
    let sectors = parse_u64(fields[9], "sectors")?;
    if sectors == 0 {
        return Ok(ParsedLine::NotARequest);
    }
    Ok(ParsedLine::Request(RawRecord {
        time_ns,
        device: minor,
        op,
        offset_bytes: sector.checked_mul(512).ok_or_else(|| FieldError::new("sector", "too large"))?,
        size_bytes: sectors.checked_mul(512).ok_or_else(|| FieldError::new("sectors", "too large"))?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_queue_event_and_skips_others() {
        let q = parse("  8,0    3        1     0.000000000  4162  Q   W 1234 + 8 [kworker]").unwrap();
        match q {
            ParsedLine::Request(r) => {
                assert_eq!(r.op, IoOp::Write);
                assert_eq!(r.offset_bytes, 1234 * 512);
                assert_eq!(r.size_bytes, 4096);
            }
            other => panic!("unexpected {other:?}"),
        }
        let c = parse("  8,0    3        2     0.000100000  4162  C   W 1234 + 8 [0]").unwrap();
        assert_eq!(c, ParsedLine::NotARequest);
        assert_eq!(parse("CPU0 (8,0):").unwrap(), ParsedLine::EndOfTrace);
    }

    #[test]
    fn discards_become_deletes_and_flushes_stay_out() {
        for rwbs in ["D", "DS", "WD"] {
            match parse(&format!("  8,0    3        1     0.000000000  4162  Q  {rwbs} 2048 + 16 [fstrim]")).unwrap() {
                ParsedLine::Request(r) => {
                    assert_eq!((r.op, r.offset_bytes, r.size_bytes), (IoOp::Delete, 2048 * 512, 8192), "{rwbs}")
                }
                other => panic!("{rwbs}: unexpected {other:?}"),
            }
        }
        assert_eq!(
            parse("  8,0    3        1     0.000000000  4162  Q  FN 0 + 0 [kworker]").unwrap(),
            ParsedLine::NotARequest
        );
    }
}
