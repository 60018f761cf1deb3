//! Any delimited trace layout, described by a column map (issue 17): which column holds the time,
//! op, offset, size (and device), their units, which op values mean read, write and delete, and how
//! many header lines to skip. A 5-column CSV with a version column and SCSI op codes (0x28 read,
//! 0x2a write) runs with `columns = { time = 0, op = 2, offset = 3, size = 4, ... }` and no conversion.

use super::{parse_time, parse_u64, require_nonzero_size, FieldError, ParsedLine, RawRecord};
use crate::request::IoOp;
use serde::{Deserialize, Serialize};

/// The column map. Columns are 0-based.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnLayout {
    pub time: usize,
    pub op: usize,
    pub offset: usize,
    pub size: usize,
    /// Device / volume / ASU column (devices are laid out side by side); none: one device.
    #[serde(default)]
    pub device: Option<usize>,
    /// Field separator: "," (default), ";", "tab" or "whitespace" (runs of spaces and tabs).
    #[serde(default = "default_separator")]
    pub separator: String,
    /// "s" (default), "ms", "us" or "ns"; fractions allowed.
    #[serde(default = "default_time_unit")]
    pub time_unit: String,
    /// Bytes per offset unit: 1 (bytes, default), 512 (sectors), 4096 (4 KiB blocks), ...
    #[serde(default = "one")]
    pub offset_unit_bytes: u64,
    /// Bytes per size unit, likewise.
    #[serde(default = "one")]
    pub size_unit_bytes: u64,
    /// Op values (compared without case) meaning read, write and delete; any other value is a
    /// malformed line. Defaults: r/read, w/write, d/delete/discard/trim.
    #[serde(default = "default_read_ops")]
    pub read_ops: Vec<String>,
    #[serde(default = "default_write_ops")]
    pub write_ops: Vec<String>,
    #[serde(default = "default_delete_ops")]
    pub delete_ops: Vec<String>,
    /// Lines at the top of the file that are not requests (a header).
    #[serde(default)]
    pub header_lines: u64,
}

fn default_separator() -> String {
    ",".into()
}
fn default_time_unit() -> String {
    "s".into()
}
fn one() -> u64 {
    1
}
fn default_read_ops() -> Vec<String> {
    vec!["r".into(), "read".into()]
}
fn default_write_ops() -> Vec<String> {
    vec!["w".into(), "write".into()]
}
fn default_delete_ops() -> Vec<String> {
    vec!["d".into(), "delete".into(), "discard".into(), "trim".into()]
}

impl ColumnLayout {
    /// The first invalid field and why.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !matches!(self.separator.as_str(), "," | ";" | "tab" | "whitespace") {
            return Err((
                "separator",
                format!("must be \",\", \";\", \"tab\" or \"whitespace\", got {:?}", self.separator),
            ));
        }
        if self.unit_ns().is_none() {
            return Err(("time_unit", format!("must be s, ms, us or ns, got {:?}", self.time_unit)));
        }
        if self.offset_unit_bytes == 0 {
            return Err(("offset_unit_bytes", "units must be at least 1 byte".into()));
        }
        if self.size_unit_bytes == 0 {
            return Err(("size_unit_bytes", "units must be at least 1 byte".into()));
        }
        let mut columns = vec![("time", self.time), ("op", self.op), ("offset", self.offset), ("size", self.size)];
        columns.extend(self.device.map(|device| ("device", device)));
        for (i, (name, column)) in columns.iter().enumerate() {
            if let Some((other, _)) = columns[..i].iter().find(|(_, c)| c == column) {
                return Err(("columns", format!("{name} and {other} both name column {column}")));
            }
        }
        let lists = [("read_ops", &self.read_ops), ("write_ops", &self.write_ops), ("delete_ops", &self.delete_ops)];
        for (i, (name, values)) in lists.iter().enumerate() {
            for value in values.iter() {
                if let Some((other, _)) =
                    lists[i + 1..].iter().find(|(_, others)| others.iter().any(|o| o.eq_ignore_ascii_case(value)))
                {
                    return Err((name, format!("op value {value:?} is in both {name} and {other}")));
                }
            }
        }
        Ok(())
    }

    fn unit_ns(&self) -> Option<f64> {
        Some(match self.time_unit.as_str() {
            "s" => 1e9,
            "ms" => 1e6,
            "us" => 1e3,
            "ns" => 1.0,
            _ => return None,
        })
    }

    fn needed_columns(&self) -> usize {
        [self.time, self.op, self.offset, self.size, self.device.unwrap_or(0)].into_iter().max().unwrap_or(0) + 1
    }
}

/// Puts the (trimmed) fields into `fields`; returns how many the line has (more than fit is counted).
fn fill<'a>(fields: &mut [&'a str; 16], split: impl Iterator<Item = &'a str>) -> usize {
    let mut count = 0;
    for field in split {
        if let Some(slot) = fields.get_mut(count) {
            *slot = field.trim();
        }
        count += 1;
    }
    count
}

/// Parses line `number` (1-based) of a trace laid out as `layout` (validated).
pub fn parse(line: &str, number: u64, layout: &ColumnLayout) -> Result<ParsedLine, FieldError> {
    if number <= layout.header_lines {
        return Ok(ParsedLine::NotARequest);
    }
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(ParsedLine::NotARequest);
    }
    let mut fields: [&str; 16] = [""; 16];
    // No allocation per line: each separator fills the same array.
    let count = match layout.separator.as_str() {
        "whitespace" => fill(&mut fields, trimmed.split_whitespace()),
        "tab" => fill(&mut fields, trimmed.split('\t')),
        ";" => fill(&mut fields, trimmed.split(';')),
        _ => fill(&mut fields, super::comma_fields(trimmed)),
    };
    let needed = layout.needed_columns();
    if count < needed || needed > fields.len() {
        return Err(FieldError::new(
            "columns",
            format!("expected at least {needed} fields (the column map reaches column {}), found {count}", needed - 1),
        ));
    }
    let time_ns = parse_time(fields[layout.time], "time", layout.unit_ns().unwrap_or(1e9))?;
    let op_text = fields[layout.op];
    let matches = |values: &[String]| values.iter().any(|value| value.eq_ignore_ascii_case(op_text));
    let op = if matches(&layout.read_ops) {
        IoOp::Read
    } else if matches(&layout.write_ops) {
        IoOp::Write
    } else if matches(&layout.delete_ops) {
        IoOp::Delete
    } else {
        return Err(FieldError::new(
            "op",
            format!(
                "{op_text:?} is none of the read ops {:?}, write ops {:?} or delete ops {:?}",
                layout.read_ops, layout.write_ops, layout.delete_ops
            ),
        ));
    };
    let scaled = |text: &str, field: &'static str, unit: u64| -> Result<u64, FieldError> {
        parse_u64(text, field)?
            .checked_mul(unit)
            .ok_or_else(|| FieldError::new(field, format!("{text} x {unit} bytes lies beyond 2^64")))
    };
    let offset_bytes = scaled(fields[layout.offset], "offset", layout.offset_unit_bytes)?;
    let size_bytes = require_nonzero_size(scaled(fields[layout.size], "size", layout.size_unit_bytes)?, "size")?;
    let device = match layout.device {
        Some(column) => u32::try_from(parse_u64(fields[column], "device")?)
            .map_err(|_| FieldError::new("device", "device number above 2^32".to_string()))?,
        None => 0,
    };
    Ok(ParsedLine::Request(RawRecord { time_ns, device, op, offset_bytes, size_bytes }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scsi() -> ColumnLayout {
        ColumnLayout {
            time: 1,
            op: 2,
            offset: 3,
            size: 4,
            device: None,
            separator: ",".into(),
            time_unit: "us".into(),
            offset_unit_bytes: 512,
            size_unit_bytes: 512,
            read_ops: vec!["0x28".into()],
            write_ops: vec!["0x2A".into()],
            delete_ops: vec![],
            header_lines: 1,
        }
    }

    #[test]
    fn a_mapped_line_reads_with_its_units_and_op_codes() {
        let layout = scsi();
        assert!(layout.validate().is_ok());
        assert!(matches!(parse("version,time,op,lba,blocks", 1, &layout), Ok(ParsedLine::NotARequest)));
        let Ok(ParsedLine::Request(record)) = parse("3,12.5,0x2a,8,16", 2, &layout) else { panic!("a request") };
        assert_eq!(
            (record.time_ns, record.op, record.offset_bytes, record.size_bytes),
            (12_500, IoOp::Write, 4096, 8192)
        );
        let error = parse("3,1,0x35,8,16", 3, &layout).unwrap_err();
        assert_eq!(error.field, "op");
        assert_eq!(parse("3,1,0x28", 4, &layout).unwrap_err().field, "columns");
    }

    #[test]
    fn a_bad_layout_names_its_field() {
        assert_eq!(ColumnLayout { op: 1, ..scsi() }.validate().unwrap_err().0, "columns");
        assert_eq!(ColumnLayout { time_unit: "h".into(), ..scsi() }.validate().unwrap_err().0, "time_unit");
        assert_eq!(ColumnLayout { separator: "|".into(), ..scsi() }.validate().unwrap_err().0, "separator");
        assert_eq!(ColumnLayout { write_ops: vec!["0x28".into()], ..scsi() }.validate().unwrap_err().0, "read_ops");
        // Each unit is named itself (issue 33: a zero size unit was reported against the offset's).
        assert_eq!(ColumnLayout { offset_unit_bytes: 0, ..scsi() }.validate().unwrap_err().0, "offset_unit_bytes");
        assert_eq!(ColumnLayout { size_unit_bytes: 0, ..scsi() }.validate().unwrap_err().0, "size_unit_bytes");
        let in_two = ColumnLayout { write_ops: vec!["0x2A".into()], delete_ops: vec!["0x2a".into()], ..scsi() };
        assert_eq!(in_two.validate().unwrap_err().0, "write_ops");
    }
}
