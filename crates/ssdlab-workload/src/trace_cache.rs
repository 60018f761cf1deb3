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
//! same content hash. A missing or unreadable summary means one pass as before.
//!
//! Nothing in the folder is trusted by its name (issue 33): the records file's header carries a
//! checksum of the header and every record, checked (one sequential read of the file) before the
//! file is used and again as the records stream by; the summary and every artifact are sealed with
//! the identity of the records file they were derived from (its key and checksum) and a checksum of
//! their own bytes. A records file that fails its check is rebuilt from the trace; a summary or an
//! artifact that fails is ignored and written again; a records file damaged while a run reads it
//! ends the run with an error naming the cache file (the next run rebuilds it).

use crate::error::WorkloadError;
use crate::formats::{RawRecord, TraceFormat};
use crate::request::IoOp;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"SSDLABTC";
/// 2: whole-number times converted exactly (version 1 rounded times beyond 2^53 ns through f64).
/// 3: the content hash in four lanes (files of version 2 are named by another hash and never found).
/// 4: a checksum of the header and records after the header (files of version 3 are rebuilt).
const VERSION: u32 = 4;
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
        let mut file = crate::trace::open_trace_file(path)?;
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

/// The header: the key's 48 bytes, records (u64), skipped lines (u64), checksum (u64).
const HEADER_BYTES: usize = 72;
/// The part of the header the checksum covers (all but the checksum itself).
const CHECKED_HEADER_BYTES: usize = 64;
const KEY_BYTES: usize = 48;

/// A running checksum of a cache file's bytes: four multiply-rotate lanes over little-endian 8-byte
/// words (word i into lane i mod 4), so it can be fed in pieces of any whole number of words and
/// gives the same value. It finds damage (flipped bits, lost or swapped records), not tampering.
#[derive(Debug, Clone)]
pub(crate) struct Checksum {
    lanes: [u64; 4],
    words: u64,
}

const CHECKSUM_MULTIPLIER: u64 = 0x9FB2_1C65_1E98_DF25;

impl Checksum {
    pub(crate) fn new() -> Self {
        Checksum {
            lanes: [0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89],
            words: 0,
        }
    }

    /// Feeds whole 8-byte words (a shorter tail is padded with zeros: callers that may have one
    /// also feed the length, see [`Checksum::of`]).
    #[inline]
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            let lane = &mut self.lanes[(self.words & 3) as usize];
            *lane = (lane.rotate_left(23) ^ word).wrapping_mul(CHECKSUM_MULTIPLIER);
            self.words += 1;
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let mut padded = [0u8; 8];
            padded[..tail.len()].copy_from_slice(tail);
            self.update(&padded);
        }
    }

    pub(crate) fn value(&self) -> u64 {
        let mut hash = self.words.wrapping_mul(CHECKSUM_MULTIPLIER);
        for &lane in &self.lanes {
            hash = (hash.rotate_left(29) ^ lane).wrapping_mul(CHECKSUM_MULTIPLIER);
        }
        hash ^ (hash >> 31)
    }

    /// The checksum of `bytes` of any length (the length is part of it).
    pub(crate) fn of(bytes: &[u8]) -> u64 {
        let mut checksum = Checksum::new();
        checksum.update(bytes);
        checksum.update(&(bytes.len() as u64).to_le_bytes());
        checksum.value()
    }
}

/// A records file's checksum: its header (without the checksum) and its records' checksum.
fn sealed_checksum(header: &[u8], records: &Checksum) -> u64 {
    let mut checksum = Checksum::new();
    checksum.update(&header[..CHECKED_HEADER_BYTES]);
    checksum.update(&records.value().to_le_bytes());
    checksum.value()
}

/// What files derived from a records file are checked against: the records file's key (trace
/// content hash and size, format, reading options) and its checksum. A file sealed for another
/// trace's cache, or for an earlier build of this one that held other records, does not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CacheSeal(Vec<u8>);

/// A records file found for a key and checked: its path, records, skipped lines and seal.
#[derive(Debug, Clone)]
pub(crate) struct FoundCache {
    pub path: PathBuf,
    pub records: u64,
    pub skipped: u64,
    pub seal: CacheSeal,
}

const SEALED_MAGIC: &[u8; 8] = b"SSDLABSL";

/// `body` in a sealed envelope: magic, the seal, the kind of file, the body's length and checksum.
fn seal_bytes(seal: &CacheSeal, kind: &str, body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(body.len() + 96);
    bytes.extend_from_slice(SEALED_MAGIC);
    bytes.extend_from_slice(&(seal.0.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&seal.0);
    bytes.extend_from_slice(&(kind.len() as u64).to_le_bytes());
    bytes.extend_from_slice(kind.as_bytes());
    bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
    let checksum = Checksum::of(&bytes[8..]) ^ Checksum::of(body).rotate_left(17);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes.extend_from_slice(body);
    bytes
}

/// The body of a sealed envelope, if it is whole and sealed with `seal` for `kind`.
fn unseal_bytes<'a>(bytes: &'a [u8], seal: &CacheSeal, kind: &str) -> Option<&'a [u8]> {
    fn take<'a>(bytes: &'a [u8], at: &mut usize, n: usize) -> Option<&'a [u8]> {
        let slice = bytes.get(*at..at.checked_add(n)?)?;
        *at += n;
        Some(slice)
    }
    let word = |slice: &[u8]| u64::from_le_bytes(slice.try_into().unwrap_or([0; 8]));
    let mut at = 0usize;
    if take(bytes, &mut at, 8)? != SEALED_MAGIC {
        return None;
    }
    let seal_length = usize::try_from(word(take(bytes, &mut at, 8)?)).ok()?;
    if take(bytes, &mut at, seal_length)? != seal.0.as_slice() {
        return None;
    }
    let kind_length = usize::try_from(word(take(bytes, &mut at, 8)?)).ok()?;
    if take(bytes, &mut at, kind_length)? != kind.as_bytes() {
        return None;
    }
    let body_length = usize::try_from(word(take(bytes, &mut at, 8)?)).ok()?;
    let described_end = at;
    let checksum = word(take(bytes, &mut at, 8)?);
    let body = take(bytes, &mut at, body_length)?;
    let expected = Checksum::of(&bytes[8..described_end]) ^ Checksum::of(body).rotate_left(17);
    (at == bytes.len() && checksum == expected).then_some(body)
}

/// Reads a file sealed with `seal` for `kind`: its body, or None when it is missing, damaged or
/// sealed for something else.
pub(crate) fn read_sealed(path: &Path, seal: &CacheSeal, kind: &str) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    unseal_bytes(&bytes, seal, kind).map(<[u8]>::to_vec)
}

/// Writes `body` sealed with `seal` for `kind`, atomically.
pub(crate) fn write_sealed(path: &Path, seal: &CacheSeal, kind: &str, body: &[u8]) -> Result<(), WorkloadError> {
    write_atomically(path, &seal_bytes(seal, kind, body))
}

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
    checksum: Checksum,
}

impl CacheWriter {
    pub(crate) fn create(dir: &Path, key: CacheKey) -> Result<Self, WorkloadError> {
        let unusable = |message: String| WorkloadError::CacheFolder { path: dir.to_path_buf(), message };
        if dir.as_os_str().is_empty() {
            return Err(unusable("the folder's path is empty".into()));
        }
        if let Some(file) = dir.ancestors().find(|path| path.is_file()) {
            return Err(unusable(if file == dir {
                "it is a file, not a folder".into()
            } else {
                format!("{} is a file, not a folder", file.display())
            }));
        }
        std::fs::create_dir_all(dir).map_err(|error| unusable(format!("cannot create the folder: {error}")))?;
        let target = dir.join(key.file_name());
        let partial = target.with_extension(format!("partial-{}", std::process::id()));
        let file =
            File::create(&partial).map_err(|error| unusable(format!("cannot write a file in the folder: {error}")))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        // The header is written last (record count known); reserve its place.
        out.write_all(&[0u8; HEADER_BYTES]).map_err(|source| WorkloadError::Io { path: partial.clone(), source })?;
        Ok(CacheWriter { partial, target, key, out, records: 0, checksum: Checksum::new() })
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
        self.checksum.update(&bytes);
        self.out.write_all(&bytes).map_err(|source| WorkloadError::Io { path: self.partial.clone(), source })
    }

    /// Completes the file and moves it into place, its scan summary beside it.
    pub(crate) fn finish(self, skipped: u64, summary: &ScanSummary) -> Result<FoundCache, WorkloadError> {
        use std::io::{Seek, SeekFrom};
        let io = |source| WorkloadError::Io { path: self.partial.clone(), source };
        let mut file = self.out.into_inner().map_err(|error| io(error.into_error()))?;
        let mut header = self.key.header(self.records, skipped);
        header.resize(CHECKED_HEADER_BYTES, 0);
        let checksum = sealed_checksum(&header, &self.checksum);
        header.extend_from_slice(&checksum.to_le_bytes());
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&header).map_err(io)?;
        file.sync_data().map_err(io)?;
        let seal = CacheSeal::of(&header);
        // The summary first: a records file in place always has its summary (unless removed by hand,
        // which costs one pass, never a wrong result).
        write_sealed(&summary_path(&self.target), &seal, SUMMARY_KIND, &summary.to_bytes(self.records))?;
        std::fs::rename(&self.partial, &self.target).map_err(io)?;
        Ok(FoundCache { path: self.target, records: self.records, skipped, seal })
    }

    /// Drops the partial file (the scan failed).
    pub(crate) fn abandon(self) {
        let partial = self.partial.clone();
        drop(self);
        let _ = std::fs::remove_file(partial);
    }
}

impl CacheSeal {
    /// The seal of a records file with this header: its key and checksum.
    fn of(header: &[u8]) -> CacheSeal {
        let mut seal = header[..KEY_BYTES].to_vec();
        seal.extend_from_slice(&header[CHECKED_HEADER_BYTES..HEADER_BYTES]);
        CacheSeal(seal)
    }
}

/// The cache file for `key` in `dir`, if there is one that holds the records the key describes: its
/// header matches the key, its length the record count, and its checksum every byte (one
/// sequential read of the file). None sends the caller to the trace, whose scan writes a new file
/// over a damaged one.
pub(crate) fn lookup(dir: &Path, key: &CacheKey) -> Option<FoundCache> {
    let path = dir.join(key.file_name());
    let mut file = File::open(&path).ok()?;
    let mut header = [0u8; HEADER_BYTES];
    read_full(&mut file, &mut header).ok().filter(|&n| n == HEADER_BYTES)?;
    let mut expected = key.header(0, 0);
    expected.truncate(KEY_BYTES);
    if header[..KEY_BYTES] != expected[..] {
        return None;
    }
    let word = |at: usize| header.get(at..at + 8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
    let (records, skipped, stored) = (word(48)?, word(56)?, word(64)?);
    let length = file.metadata().ok()?.len();
    let body_bytes = records.checked_mul(RECORD_BYTES as u64)?;
    if length != (HEADER_BYTES as u64).checked_add(body_bytes)? {
        return None;
    }
    let mut checksum = Checksum::new();
    let mut buffer = vec![0u8; RECORDS_PER_READ * RECORD_BYTES];
    loop {
        let n = read_full(&mut file, &mut buffer).ok()?;
        checksum.update(&buffer[..n]);
        if n < buffer.len() {
            break;
        }
    }
    (sealed_checksum(&header, &checksum) == stored).then(|| FoundCache {
        path,
        records,
        skipped,
        seal: CacheSeal::of(&header),
    })
}

/// Reads a cache file's records in order, decoding them straight from a buffer of whole records.
pub(crate) struct CacheReader {
    file: File,
    path: PathBuf,
    /// The header (its checksum covers the header and the records) and the records' checksum so
    /// far: a file changed under the run is found when its last record is read.
    header: [u8; HEADER_BYTES],
    checksum: Checksum,
    /// Records read so far (the position a damaged record is reported at).
    read: u64,
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
            header,
            checksum: Checksum::new(),
            read: 0,
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
            return Err(
                self.damaged(format!("the file ends before record {}", self.read + (read / RECORD_BYTES) as u64 + 1))
            );
        }
        self.checksum.update(&self.buffer[..read]);
        if self.remaining == (read / RECORD_BYTES) as u64 {
            let stored = u64::from_le_bytes(self.header[CHECKED_HEADER_BYTES..].try_into().unwrap_or([0; 8]));
            if sealed_checksum(&self.header, &self.checksum) != stored {
                return Err(
                    self.damaged("its checksum does not match its records: it changed while it was read".into())
                );
            }
        }
        self.at = 0;
        self.filled = read;
        Ok(())
    }

    #[cold]
    fn damaged(&self, message: String) -> WorkloadError {
        WorkloadError::CacheDamaged { path: self.path.clone(), message }
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
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
        let op = match bytes[36] {
            0 => IoOp::Read,
            1 => IoOp::Write,
            2 => IoOp::Delete,
            other => {
                return Err(self.damaged(format!("record {}: operation code {other} is none of 0, 1, 2", self.read + 1)))
            }
        };
        self.at += RECORD_BYTES;
        self.remaining -= 1;
        self.read += 1;
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
const SUMMARY_KIND: &str = "scan summary";

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

    /// The summary of the cache file `cache` of `records` records sealed with `seal`, if it is there,
    /// whole and sealed for that file.
    pub(crate) fn read(cache: &Path, records: u64, seal: &CacheSeal) -> Option<ScanSummary> {
        let bytes = read_sealed(&summary_path(cache), seal, SUMMARY_KIND)?;
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
pub(crate) fn keep_summary(found: &FoundCache, summary: &ScanSummary) -> Result<(), WorkloadError> {
    if ScanSummary::read(&found.path, found.records, &found.seal).is_some() {
        return Ok(());
    }
    write_sealed(&summary_path(&found.path), &found.seal, SUMMARY_KIND, &summary.to_bytes(found.records))
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
