//! The parsed-trace cache (issue 17): a trace's valid records in a binary file, so that the passes
//! after the first (footprint, replay) and every later run of the same trace (loops, sweeps,
//! reruns) read fixed-size records instead of parsing text.
//!
//! A cache file is named by the trace's content hash (all bytes of the file as stored, compressed or
//! not) and the reading options that change which records exist (format, skipped lines, largest
//! request); its header repeats both, with the trace's size, so a changed trace is never read from a
//! stale cache. It is written while the scan parses the text (to `NAME.partial`, renamed when the
//! scan succeeds), so building it costs the first run one extra sequential write.
//!
//! Record: time ns (u64), offset bytes within the device (u64), size bytes (u64), line (u64), device
//! (u32), op (u8), padding: 40 bytes, little-endian. Left out: compression of the cache file itself.
//!
//! Beside it, `NAME.scan` holds what the scan learned (first and last time, each device's extent), so
//! that a run reusing the cache needs no pass over the records before replay; and callers may keep
//! files derived from the records next to it (`NAME.<artifact>`, e.g. a footprint), named by the
//! same content hash and so never stale. A missing or unreadable summary means one pass as before.

use crate::error::WorkloadError;
use crate::formats::{RawRecord, TraceFormat};
use crate::request::IoOp;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"SSDLABTC";
/// 2: whole-number times converted exactly (version 1 rounded times beyond 2^53 ns through f64).
/// 3: the content hash in four lanes (files of version 2 are named by another hash and never found).
const VERSION: u32 = 3;
pub(crate) const RECORD_BYTES: usize = 40;

/// What names and validates a cache file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CacheKey {
    pub content_hash: u64,
    pub trace_bytes: u64,
    pub format: TraceFormat,
    pub skip_bad_lines: bool,
    pub max_request_bytes: u64,
}

impl CacheKey {
    /// Hashes the trace file's bytes: four independent 64-bit multiply-rotate lanes over 32-byte
    /// chunks (so the multiplies overlap instead of waiting on each other; over 10 GB/s), combined
    /// at the end with the tail and the length. Checking a cache costs a small fraction of a run.
    pub(crate) fn of(
        path: &Path,
        format: TraceFormat,
        skip_bad_lines: bool,
        max_request_bytes: u64,
    ) -> Result<Self, WorkloadError> {
        let io = |source| WorkloadError::Io { path: path.to_path_buf(), source };
        let mut file = File::open(path).map_err(io)?;
        // Reads are whole multiples of 32 bytes but the last, so the lanes see the file's bytes in
        // the same chunks whatever the reads return.
        let mut buffer = vec![0u8; 1 << 20];
        const MULTIPLIER: u64 = 0x51_7C_C1_B7_27_22_0A_95;
        let mut lanes = [0x9E37_79B9_7F4A_7C15u64, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5];
        let mut total = 0u64;
        let mut tail = Vec::new();
        loop {
            let n = read_full(&mut file, &mut buffer).map_err(io)?;
            total += n as u64;
            let mut chunks = buffer[..n].chunks_exact(32);
            for chunk in &mut chunks {
                for (lane, word) in lanes.iter_mut().zip(chunk.chunks_exact(8)) {
                    let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
                    *lane = (lane.rotate_left(5) ^ word).wrapping_mul(MULTIPLIER);
                }
            }
            if n < buffer.len() {
                tail.extend_from_slice(chunks.remainder());
                break;
            }
        }
        let mut hash = lanes.iter().fold(total, |hash, &lane| (hash.rotate_left(5) ^ lane).wrapping_mul(MULTIPLIER));
        for &byte in &tail {
            hash = (hash.rotate_left(5) ^ byte as u64).wrapping_mul(MULTIPLIER);
        }
        Ok(CacheKey { content_hash: hash ^ total, trace_bytes: total, format, skip_bad_lines, max_request_bytes })
    }

    pub(crate) fn file_name(&self) -> String {
        format!(
            "{:016x}-{}-{}-{}.records",
            self.content_hash,
            self.format.name(),
            self.skip_bad_lines as u8,
            self.max_request_bytes
        )
    }

    fn header(&self, records: u64, skipped: u64) -> Vec<u8> {
        let mut header = Vec::with_capacity(64);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&(self.format as u32).to_le_bytes());
        header.extend_from_slice(&self.content_hash.to_le_bytes());
        header.extend_from_slice(&self.trace_bytes.to_le_bytes());
        header.extend_from_slice(&(self.skip_bad_lines as u64).to_le_bytes());
        header.extend_from_slice(&self.max_request_bytes.to_le_bytes());
        header.extend_from_slice(&records.to_le_bytes());
        header.extend_from_slice(&skipped.to_le_bytes());
        header
    }
}

const HEADER_BYTES: usize = 64;

fn read_full(file: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        let n = file.read(&mut buffer[filled..])?;
        if n == 0 {
            break;
        }
        filled += n;
    }
    Ok(filled)
}

/// Writes the cache while the scan parses the text.
pub(crate) struct CacheWriter {
    partial: PathBuf,
    target: PathBuf,
    key: CacheKey,
    out: BufWriter<File>,
    records: u64,
}

impl CacheWriter {
    pub(crate) fn create(dir: &Path, key: CacheKey) -> Result<Self, WorkloadError> {
        std::fs::create_dir_all(dir).map_err(|source| WorkloadError::Io { path: dir.to_path_buf(), source })?;
        let target = dir.join(key.file_name());
        let partial = target.with_extension(format!("partial-{}", std::process::id()));
        let file = File::create(&partial).map_err(|source| WorkloadError::Io { path: partial.clone(), source })?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        // The header is written last (record count known); reserve its place.
        out.write_all(&[0u8; HEADER_BYTES]).map_err(|source| WorkloadError::Io { path: partial.clone(), source })?;
        Ok(CacheWriter { partial, target, key, out, records: 0 })
    }

    pub(crate) fn push(&mut self, record: &RawRecord, line: u64) -> Result<(), WorkloadError> {
        let mut bytes = [0u8; RECORD_BYTES];
        bytes[0..8].copy_from_slice(&record.time_ns.to_le_bytes());
        bytes[8..16].copy_from_slice(&record.offset_bytes.to_le_bytes());
        bytes[16..24].copy_from_slice(&record.size_bytes.to_le_bytes());
        bytes[24..32].copy_from_slice(&line.to_le_bytes());
        bytes[32..36].copy_from_slice(&record.device.to_le_bytes());
        bytes[36] = match record.op {
            IoOp::Read => 0,
            IoOp::Write => 1,
            IoOp::Delete => 2,
        };
        self.records += 1;
        self.out.write_all(&bytes).map_err(|source| WorkloadError::Io { path: self.partial.clone(), source })
    }

    /// Completes the file and moves it into place, its scan summary beside it; returns its path.
    pub(crate) fn finish(self, skipped: u64, summary: &ScanSummary) -> Result<PathBuf, WorkloadError> {
        use std::io::{Seek, SeekFrom};
        let io = |source| WorkloadError::Io { path: self.partial.clone(), source };
        let mut file = self.out.into_inner().map_err(|error| io(error.into_error()))?;
        let mut header = self.key.header(self.records, skipped);
        header.resize(HEADER_BYTES, 0);
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&header).map_err(io)?;
        file.sync_data().map_err(io)?;
        // The summary first: a records file in place always has its summary (unless removed by hand,
        // which costs one pass, never a wrong result).
        write_atomically(&summary_path(&self.target), &summary.to_bytes(self.records))?;
        std::fs::rename(&self.partial, &self.target).map_err(io)?;
        Ok(self.target)
    }

    /// Drops the partial file (the scan failed).
    pub(crate) fn abandon(self) {
        let partial = self.partial.clone();
        drop(self);
        let _ = std::fs::remove_file(partial);
    }
}

/// An existing cache file for `key` in `dir`, if its header matches: (path, records, skipped lines).
pub(crate) fn lookup(dir: &Path, key: &CacheKey) -> Option<(PathBuf, u64, u64)> {
    let path = dir.join(key.file_name());
    let mut file = File::open(&path).ok()?;
    let mut header = [0u8; HEADER_BYTES];
    read_full(&mut file, &mut header).ok().filter(|&n| n == HEADER_BYTES)?;
    let mut expected = key.header(0, 0);
    expected.truncate(48);
    if header[..48] != expected[..] {
        return None;
    }
    let records = u64::from_le_bytes(header[48..56].try_into().ok()?);
    let skipped = u64::from_le_bytes(header[56..64].try_into().ok()?);
    let length = file.metadata().ok()?.len();
    (length == HEADER_BYTES as u64 + records * RECORD_BYTES as u64).then_some((path, records, skipped))
}

/// Reads a cache file's records in order, decoding them straight from a buffer of whole records.
pub(crate) struct CacheReader {
    file: File,
    path: PathBuf,
    remaining: u64,
    buffer: Vec<u8>,
    /// Next record's position in `buffer`, and the end of the bytes read into it.
    at: usize,
    filled: usize,
}

/// Records per refill of the reader's buffer (1 MiB).
const RECORDS_PER_READ: usize = (1 << 20) / RECORD_BYTES;

impl CacheReader {
    pub(crate) fn open(path: &Path, records: u64) -> Result<Self, WorkloadError> {
        let io = |source| WorkloadError::Io { path: path.to_path_buf(), source };
        let mut file = File::open(path).map_err(io)?;
        let mut header = [0u8; HEADER_BYTES];
        file.read_exact(&mut header).map_err(io)?;
        Ok(CacheReader {
            file,
            path: path.to_path_buf(),
            remaining: records,
            buffer: vec![0u8; RECORDS_PER_READ * RECORD_BYTES],
            at: 0,
            filled: 0,
        })
    }

    #[cold]
    fn refill(&mut self) -> Result<(), WorkloadError> {
        let wanted = (self.remaining.min(RECORDS_PER_READ as u64) as usize) * RECORD_BYTES;
        let read = read_full(&mut self.file, &mut self.buffer[..wanted])
            .map_err(|source| WorkloadError::Io { path: self.path.clone(), source })?;
        if read < wanted {
            // The file is shorter than its header says (changed under the run).
            return Err(WorkloadError::Io {
                path: self.path.clone(),
                source: std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the trace cache file ends early"),
            });
        }
        self.at = 0;
        self.filled = read;
        Ok(())
    }

    #[inline]
    pub(crate) fn next(&mut self) -> Result<Option<(RawRecord, u64)>, WorkloadError> {
        if self.remaining == 0 {
            return Ok(None);
        }
        if self.at + RECORD_BYTES > self.filled {
            self.refill()?;
        }
        let Some(bytes) = self.buffer.get(self.at..self.at + RECORD_BYTES) else { return Ok(None) };
        self.at += RECORD_BYTES;
        self.remaining -= 1;
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
        let op = match bytes[36] {
            0 => IoOp::Read,
            1 => IoOp::Write,
            _ => IoOp::Delete,
        };
        let device = u32::from_le_bytes(bytes[32..36].try_into().unwrap_or([0; 4]));
        Ok(Some((RawRecord { time_ns: word(0), device, op, offset_bytes: word(8), size_bytes: word(16) }, word(24))))
    }
}

/// What a scan learned besides the records: kept beside the cache so a reused cache needs no pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ScanSummary {
    pub first_time_ns: u64,
    pub last_time_ns: u64,
    /// (device, largest offset + size seen), by device.
    pub extents: Vec<(u32, u64)>,
}

const SUMMARY_MAGIC: &[u8; 8] = b"SSDLABTS";

impl ScanSummary {
    fn to_bytes(&self, records: u64) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(40 + 12 * self.extents.len());
        bytes.extend_from_slice(SUMMARY_MAGIC);
        bytes.extend_from_slice(&records.to_le_bytes());
        bytes.extend_from_slice(&self.first_time_ns.to_le_bytes());
        bytes.extend_from_slice(&self.last_time_ns.to_le_bytes());
        bytes.extend_from_slice(&(self.extents.len() as u64).to_le_bytes());
        for &(device, extent) in &self.extents {
            bytes.extend_from_slice(&device.to_le_bytes());
            bytes.extend_from_slice(&extent.to_le_bytes());
        }
        bytes
    }

    /// The summary of a cache file of `records` records, if it is there and whole.
    pub(crate) fn read(cache: &Path, records: u64) -> Option<ScanSummary> {
        let bytes = std::fs::read(summary_path(cache)).ok()?;
        let word = |at: usize| bytes.get(at..at + 8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
        if bytes.get(..8)? != SUMMARY_MAGIC || word(8)? != records {
            return None;
        }
        let count = word(32)? as usize;
        if bytes.len() != 40 + 12 * count {
            return None;
        }
        let extents = (0..count)
            .map(|i| {
                let at = 40 + 12 * i;
                Some((u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?), word(at + 4)?))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(ScanSummary { first_time_ns: word(16)?, last_time_ns: word(24)?, extents })
    }
}

/// Writes the summary of a reused cache that has none (built before summaries were kept, or
/// removed): the pass that just read its records found it.
pub(crate) fn keep_summary(cache: &Path, records: u64, summary: &ScanSummary) -> Result<(), WorkloadError> {
    if ScanSummary::read(cache, records).is_some() {
        return Ok(());
    }
    write_atomically(&summary_path(cache), &summary.to_bytes(records))
}

fn summary_path(cache: &Path) -> PathBuf {
    artifact_path(cache, "scan")
}

/// A file derived from a cache file's records, named after it.
pub(crate) fn artifact_path(cache: &Path, name: &str) -> PathBuf {
    let mut path = cache.as_os_str().to_owned();
    path.push(".");
    path.push(name);
    PathBuf::from(path)
}

/// Writes `bytes` to `path` through a temporary file in the same folder, so that a reader never
/// sees half a file.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WorkloadError> {
    let partial = artifact_path(path, &format!("partial-{}", std::process::id()));
    let io = |source| WorkloadError::Io { path: path.to_path_buf(), source };
    std::fs::write(&partial, bytes).map_err(io)?;
    std::fs::rename(&partial, path).map_err(|source| {
        let _ = std::fs::remove_file(&partial);
        io(source)
    })
}
