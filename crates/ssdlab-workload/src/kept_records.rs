//! Parsed records kept in memory by the scan (issue 17: one pass over the text where one pass
//! suffices). A trace run needs the trace twice: the scan (the footprint the preconditioning
//! writes, the devices' extents) and the replay. Without a parsed-trace cache the replay parsed the
//! text again, about 37 ns per MQSim line; the scan now keeps what it parsed, compactly, and the
//! replay (every loop of it, and pre-passes such as the write-rate measurement) decodes it instead.
//!
//! Encoding, one record after another in 1 MiB chunks (a record never straddles two): 12 bytes,
//! little-endian: the time step from the previous record (u32), the offset in 512-byte sectors (40
//! bits), the size in sectors (u16), a flags byte (op in bits 0-1). A record that does not fit
//! (time stepping back or by 2^32 ns or more, a range not in whole sectors, 32 MiB or larger, a
//! device other than the previous record's, a line that is not the previous line + 1) sets the
//! flags' top bit and is followed by its fields in full (36 bytes). An MQSim line takes 12 bytes
//! instead of 28; fixed widths make writing and reading one a few loads and stores (a varint
//! layout of about 9 bytes took 14 ns per record each way, a third of parsing the text).
//!
//! The memory is bounded by `TraceOptions::keep_records_bytes`: a scan whose records outgrow it,
//! or are projected to from the part of the file read so far, drops them and the replay parses
//! the text as before (large traces: use the parsed-trace cache,
//! which keeps them on disk). Left out: freeing chunks as a single-loop replay passes them (the
//! peak is at the replay's start either way).

use crate::formats::RawRecord;
use crate::request::IoOp;
use std::sync::Arc;

/// Bytes per chunk.
const CHUNK_BYTES: usize = 1 << 20;
/// A record's fixed part, and the full fields that follow it when it does not fit.
const RECORD_BYTES: usize = 12;
const FULL_BYTES: usize = 36;
/// The largest encoded record.
const MAX_RECORD_BYTES: usize = RECORD_BYTES + FULL_BYTES;
/// The part of a file read before its records' final size is projected from it.
const MIN_FRACTION_TO_PROJECT: f64 = 0.01;
/// Flags: the full fields follow.
const FULL: u8 = 0x80;
const SECTOR_BYTES: u64 = 512;

/// The records of one scan, in file order.
#[derive(Debug)]
pub(crate) struct KeptRecords {
    chunks: Vec<Vec<u8>>,
    records: u64,
}

impl KeptRecords {
    /// The memory the records take (their chunks).
    pub(crate) fn bytes(&self) -> u64 {
        self.chunks.iter().map(|chunk| chunk.len() as u64).sum()
    }
}

/// The previous record's fields, against which the next is encoded.
#[derive(Debug, Clone, Copy, Default)]
struct Previous {
    time_ns: u64,
    device: u32,
    line: u64,
}

fn op_code(op: IoOp) -> u8 {
    match op {
        IoOp::Read => 0,
        IoOp::Write => 1,
        IoOp::Delete => 2,
    }
}

fn op_of(code: u8) -> IoOp {
    match code & 3 {
        0 => IoOp::Read,
        1 => IoOp::Write,
        _ => IoOp::Delete,
    }
}

/// Encodes the records a scan parses, up to a memory budget.
pub(crate) struct KeptRecordsBuilder {
    chunks: Vec<Vec<u8>>,
    current: Vec<u8>,
    previous: Previous,
    records: u64,
    kept_bytes: u64,
    budget_bytes: u64,
}

impl KeptRecordsBuilder {
    pub(crate) fn new(budget_bytes: u64) -> Self {
        KeptRecordsBuilder {
            chunks: Vec::new(),
            current: Vec::new(),
            previous: Previous::default(),
            records: 0,
            kept_bytes: 0,
            budget_bytes,
        }
    }

    /// Adds a record; false when the records no longer fit the budget (the builder is then of no
    /// further use: the caller drops it).
    #[inline]
    pub(crate) fn push(&mut self, record: &RawRecord, line: u64) -> bool {
        if self.current.len() + MAX_RECORD_BYTES > self.current.capacity() && !self.next_chunk() {
            return false;
        }
        let previous = self.previous;
        let step = record.time_ns.wrapping_sub(previous.time_ns);
        let sectors = record.size_bytes / SECTOR_BYTES;
        let first_sector = record.offset_bytes / SECTOR_BYTES;
        let fits = step >> 32 == 0
            && (record.offset_bytes | record.size_bytes).is_multiple_of(SECTOR_BYTES)
            && first_sector >> 40 == 0
            && sectors >> 16 == 0
            && record.device == previous.device
            && line == previous.line.wrapping_add(1);
        let code = op_code(record.op);
        if fits {
            let word = step | (first_sector << 32);
            let tail = (first_sector >> 32) as u32 | (sectors as u32) << 8 | (code as u32) << 24;
            self.current.extend_from_slice(&word.to_le_bytes());
            self.current.extend_from_slice(&tail.to_le_bytes());
        } else {
            self.current.extend_from_slice(&[0u8; RECORD_BYTES - 1]);
            self.current.push(code | FULL);
            for value in [record.time_ns, record.offset_bytes, record.size_bytes, line] {
                self.current.extend_from_slice(&value.to_le_bytes());
            }
            self.current.extend_from_slice(&record.device.to_le_bytes());
        }
        self.previous = Previous { time_ns: record.time_ns, device: record.device, line };
        self.records += 1;
        true
    }

    /// Whether the records, kept at the rate so far, will outgrow the budget by the end of the file,
    /// `fraction_read` of it having been read (projected once enough of it has been read to tell).
    pub(crate) fn outgrows(&self, fraction_read: f64) -> bool {
        let used = self.chunks.iter().map(|chunk| chunk.len()).sum::<usize>() + self.current.len();
        fraction_read >= MIN_FRACTION_TO_PROJECT && used as f64 / fraction_read > self.budget_bytes as f64
    }

    /// Closes the current chunk and opens the next, if the budget allows another.
    #[cold]
    fn next_chunk(&mut self) -> bool {
        if self.kept_bytes + CHUNK_BYTES as u64 > self.budget_bytes {
            return false;
        }
        if !self.current.is_empty() {
            self.chunks.push(std::mem::take(&mut self.current));
        }
        self.current = Vec::with_capacity(CHUNK_BYTES);
        self.kept_bytes += CHUNK_BYTES as u64;
        true
    }

    pub(crate) fn finish(mut self) -> Arc<KeptRecords> {
        if !self.current.is_empty() {
            self.chunks.push(std::mem::take(&mut self.current));
        }
        Arc::new(KeptRecords { chunks: self.chunks, records: self.records })
    }
}

/// Decodes kept records in order.
pub(crate) struct KeptReader {
    records: Arc<KeptRecords>,
    chunk: usize,
    at: usize,
    remaining: u64,
    previous: Previous,
}

impl KeptReader {
    pub(crate) fn new(records: Arc<KeptRecords>) -> Self {
        let remaining = records.records;
        KeptReader { records, chunk: 0, at: 0, remaining, previous: Previous::default() }
    }

    #[inline]
    pub(crate) fn next(&mut self) -> Option<(RawRecord, u64)> {
        if self.remaining == 0 {
            return None;
        }
        if self.at >= self.records.chunks.get(self.chunk)?.len() {
            self.chunk += 1;
            self.at = 0;
        }
        let bytes = self.records.chunks.get(self.chunk)?.get(self.at..)?;
        let word = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
        let tail = u32::from_le_bytes(bytes.get(8..RECORD_BYTES)?.try_into().ok()?);
        let flags = (tail >> 24) as u8;
        let (record, line) = if flags & FULL == 0 {
            self.at += RECORD_BYTES;
            let first_sector = word >> 32 | ((tail & 0xff) as u64) << 32;
            let record = RawRecord {
                time_ns: self.previous.time_ns.wrapping_add(word & 0xffff_ffff),
                device: self.previous.device,
                op: op_of(flags),
                offset_bytes: first_sector * SECTOR_BYTES,
                size_bytes: ((tail >> 8) & 0xffff) as u64 * SECTOR_BYTES,
            };
            (record, self.previous.line.wrapping_add(1))
        } else {
            let full = bytes.get(RECORD_BYTES..MAX_RECORD_BYTES)?;
            self.at += MAX_RECORD_BYTES;
            let value = |at: usize| full.get(at..at + 8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
            let device = u32::from_le_bytes(full.get(32..36)?.try_into().ok()?);
            (
                RawRecord {
                    time_ns: value(0)?,
                    device,
                    op: op_of(flags),
                    offset_bytes: value(8)?,
                    size_bytes: value(16)?,
                },
                value(24)?,
            )
        };
        self.previous = Previous { time_ns: record.time_ns, device: record.device, line };
        self.remaining -= 1;
        Some((record, line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the records (times stepping back, unaligned ranges, devices changing, lines
        /// skipped, values at the ends of their ranges), they come back as they went in.
        #[test]
        fn records_come_back_as_kept(
            records in proptest::collection::vec((any::<u64>(), 0u32..4, any::<u8>(), prop_oneof![any::<u64>(), (0u64..1 << 31).prop_map(|s| s * 512)], prop_oneof![1u64..1 << 26, (1u64..70_000).prop_map(|s| s * 512)], 1u64..3), 0..400)
        ) {
            let mut builder = KeptRecordsBuilder::new(64 << 20);
            let mut line = 0u64;
            let mut expected = Vec::new();
            for &(time_ns, device, op, offset_bytes, size_bytes, step) in &records {
                line += step;
                let record = RawRecord { time_ns, device, op: op_of(op % 3), offset_bytes, size_bytes };
                prop_assert!(builder.push(&record, line));
                expected.push((record, line));
            }
            let kept = builder.finish();
            prop_assert_eq!(kept.records, records.len() as u64);
            let mut reader = KeptReader::new(kept);
            for want in expected {
                prop_assert_eq!(reader.next(), Some(want));
            }
            prop_assert_eq!(reader.next(), None);
        }
    }

    /// Records across several chunks, and a budget that runs out.
    #[test]
    fn chunks_and_budget() {
        let record = |i: u64| RawRecord {
            time_ns: i * 1_000,
            device: 0,
            op: IoOp::Write,
            offset_bytes: (i * 7_919 % 1_000_003) * 4096,
            size_bytes: 4096,
        };
        let mut builder = KeptRecordsBuilder::new(8 << 20);
        let count = 400_000u64;
        for i in 0..count {
            assert!(builder.push(&record(i), i + 1));
        }
        let kept = builder.finish();
        assert!(kept.chunks.len() > 1, "{} chunks", kept.chunks.len());
        assert_eq!(kept.bytes(), kept.chunks.iter().map(|c| c.len() as u64).sum::<u64>());
        let mut reader = KeptReader::new(kept);
        for i in 0..count {
            assert_eq!(reader.next(), Some((record(i), i + 1)));
        }
        assert_eq!(reader.next(), None);

        let mut small = KeptRecordsBuilder::new(2 << 20);
        let stopped = (0..count).find(|&i| !small.push(&record(i), i + 1));
        assert!(stopped.is_some(), "a 2 MiB budget holds fewer than {count} records");
    }
}
