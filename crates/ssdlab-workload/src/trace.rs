//! Opening and streaming trace files.
//!
//! A trace is read twice, both times streaming: [`TraceScan::scan`] learns the format (unless given),
//! the time origin and each device's address extent; [`TraceReader`] then yields requests in a flat
//! logical address space where devices (MSR volumes, SPC ASUs, MQSim device numbers) are laid out one
//! after another, each starting on a 1 GiB boundary, so separate address spaces never alias.
//! Compressed files (gzip, zstd) are recognised by their magic bytes.
//!
//! Timestamps that go backwards are clamped to the previous request's time (replay must be in order)
//! and counted in [`TraceReader::reordered`]; nothing is dropped silently.

use crate::error::WorkloadError;
use crate::formats::{csv::CsvState, FieldError, ParsedLine, RawRecord, TraceFormat, KNOWN_FORMATS};
use crate::request::IoRequest;
use ssdlab_engine::SimTime;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// Devices are placed on boundaries of this many bytes in the flat address space.
pub const DEVICE_ALIGNMENT_BYTES: u64 = 1 << 30;
/// How many skipped-line messages are kept for the report when skipping is on.
const KEPT_SKIP_MESSAGES: usize = 5;

/// The largest request accepted unless raised (bytes): far above any real block-layer request (Linux
/// splits requests at a few MiB), small enough that one line cannot make per-page work run away.
pub const DEFAULT_MAX_REQUEST_BYTES: u64 = 1 << 30;

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TraceOptions {
    /// Format name; guessed from content when absent.
    pub format: Option<TraceFormat>,
    /// Count and skip malformed lines instead of failing on the first one.
    pub skip_bad_lines: bool,
    /// Lay devices/ASUs out as separate address ranges (true) or overlay them all at offset 0.
    pub merge_devices: bool,
    /// A request larger than this is a malformed line (field `size`).
    pub max_request_bytes: u64,
    /// Keep the parsed records in a cache file in this folder (`trace_cache.rs`): the passes after
    /// the scan and later runs of the same trace read it instead of parsing. None: no cache.
    pub cache_dir: Option<PathBuf>,
    /// A column map for any delimited layout (then the format is `columns`).
    pub columns: Option<crate::formats::columns::ColumnLayout>,
    /// Without a cache, the scan keeps the records it parsed in memory, up to this many bytes
    /// (12 per MQSim line), for the passes after it (`kept_records.rs`); a trace whose records
    /// need more is parsed again by each pass. 0: never kept.
    pub keep_records_bytes: u64,
}

/// Records between two projections of the kept records' final size from the file read so far.
const KEPT_PROJECTION_EVERY: u64 = 1 << 16;

/// The default memory for kept records: 256 MiB, about 22M MQSim lines.
pub const DEFAULT_KEEP_RECORDS_BYTES: u64 = 256 << 20;

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            format: None,
            skip_bad_lines: false,
            merge_devices: false,
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            cache_dir: None,
            columns: None,
            keep_records_bytes: DEFAULT_KEEP_RECORDS_BYTES,
        }
    }
}

/// Checks what a line's fields mean together: the request must fit in 64-bit byte addresses and
/// stay within the largest request accepted.
fn check_record(record: &RawRecord, max_request_bytes: u64) -> Result<(), FieldError> {
    if record.offset_bytes.checked_add(record.size_bytes).is_none() {
        return Err(FieldError::new(
            "size",
            format!("offset {} + size {} lies beyond 2^64 bytes", record.offset_bytes, record.size_bytes),
        ));
    }
    if record.size_bytes > max_request_bytes {
        return Err(FieldError::new(
            "size",
            format!("{} bytes is larger than the largest request accepted ({max_request_bytes} bytes); if it is real, raise max_request_bytes ([workload.trace] or --max-request-bytes)", record.size_bytes),
        ));
    }
    Ok(())
}

/// Opens a file for reading, decompressing gzip or zstd when its magic bytes say so. Plain files are
/// returned unbuffered: [`Lines`] keeps its own buffer, and a second one would copy every byte twice.
pub fn open_input(path: &Path) -> Result<Box<dyn Read + Send>, WorkloadError> {
    open_input_counted(path).map(|(input, _)| input)
}

/// A file read through a counter of the bytes taken from the file itself (before decompression).
struct CountingFile {
    file: File,
    read: Arc<AtomicU64>,
}

impl Read for CountingFile {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(out)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// How far a pass is through its file: the bytes of the file read so far (compressed bytes for a
/// compressed trace) against the file's size.
#[derive(Debug, Clone)]
struct FileProgress {
    read: Arc<AtomicU64>,
    size: u64,
}

impl FileProgress {
    fn fraction(&self) -> f64 {
        if self.size == 0 {
            return 1.0;
        }
        (self.read.load(Ordering::Relaxed) as f64 / self.size as f64).min(1.0)
    }
}

/// Opens a trace file, refusing what is not a regular file before opening it: opening a FIFO
/// blocks until a writer comes, and a trace is read more than once.
pub(crate) fn open_trace_file(path: &Path) -> Result<File, WorkloadError> {
    let io_error = |source| WorkloadError::Io { path: path.to_path_buf(), source };
    let file_type = std::fs::metadata(path).map_err(io_error)?.file_type();
    if !file_type.is_file() {
        use std::os::unix::fs::FileTypeExt;
        let kind = if file_type.is_dir() {
            "a folder"
        } else if file_type.is_fifo() {
            "a FIFO (named pipe)"
        } else if file_type.is_socket() {
            "a socket"
        } else if file_type.is_block_device() || file_type.is_char_device() {
            "a device"
        } else {
            "not a file"
        };
        return Err(WorkloadError::NotAFile { path: path.to_path_buf(), kind });
    }
    File::open(path).map_err(io_error)
}

/// [`open_input`], with the pass's progress through the file.
fn open_input_counted(path: &Path) -> Result<(Box<dyn Read + Send>, FileProgress), WorkloadError> {
    let io_error = |source| WorkloadError::Io { path: path.to_path_buf(), source };
    let mut file = open_trace_file(path)?;
    let mut magic = [0u8; 4];
    let mut filled = 0;
    while filled < 4 {
        let n = file.read(&mut magic[filled..]).map_err(io_error)?;
        if n == 0 {
            break;
        }
        filled += n;
    }
    let file = File::open(path).map_err(io_error)?;
    let size = file.metadata().map_err(io_error)?.len();
    let read = Arc::new(AtomicU64::new(0));
    let progress = FileProgress { read: read.clone(), size };
    let file = CountingFile { file, read };
    let input: Box<dyn Read + Send> = if filled >= 2 && magic[..2] == [0x1f, 0x8b] {
        Box::new(flate2::read::MultiGzDecoder::new(BufReader::new(file)))
    } else if filled == 4 && magic == [0x28, 0xb5, 0x2f, 0xfd] {
        Box::new(zstd::stream::read::Decoder::new(file).map_err(io_error)?)
    } else {
        Box::new(file)
    };
    Ok((input, progress))
}

/// [`open_input`] behind a line buffer, for callers that want [`BufRead`].
pub fn open_text(path: &Path) -> Result<Box<dyn BufRead + Send>, WorkloadError> {
    Ok(Box::new(BufReader::with_capacity(1 << 16, open_input(path)?)))
}

/// How many bytes [`Lines`] asks its input for at a time (lines longer than this grow the buffer).
const LINE_CHUNK_BYTES: usize = 1 << 18;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Line-by-line access with 1-based line numbers, tolerant of a missing final newline.
///
/// Lines are handed out as slices of one large buffer refilled in chunks (a line is never copied
/// out of it): trace parsing is a large part of a whole run, and a per-line `read_until` through a
/// boxed reader cost about as much as parsing the line.
struct Lines {
    input: Box<dyn Read + Send>,
    buffer: Vec<u8>,
    /// Unread bytes are `buffer[start..end]`; the current line is `buffer[line.0..line.1]` (its
    /// line ending included, so text errors show the line as it is).
    start: usize,
    end: usize,
    line: (usize, usize),
    exhausted: bool,
    number: u64,
    /// The buffer's first size.
    chunk_bytes: usize,
}

impl Lines {
    fn new(input: Box<dyn Read + Send>) -> Self {
        Self::with_chunk(input, LINE_CHUNK_BYTES)
    }

    fn with_chunk(input: Box<dyn Read + Send>, chunk_bytes: usize) -> Self {
        Lines {
            input,
            buffer: Vec::new(),
            start: 0,
            end: 0,
            line: (0, 0),
            exhausted: false,
            number: 0,
            chunk_bytes: chunk_bytes.max(1),
        }
    }

    /// Moves the unread bytes to the front and reads more after them (growing the buffer when a
    /// single line fills it). Returns false at the end of the input.
    #[cold]
    fn refill(&mut self, path: &Path) -> Result<bool, WorkloadError> {
        if self.exhausted {
            return Ok(false);
        }
        if self.buffer.is_empty() {
            self.buffer.resize(self.chunk_bytes, 0);
        }
        self.buffer.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        if self.end == self.buffer.len() {
            let grown = self.buffer.len() * 2;
            self.buffer.resize(grown, 0);
        }
        loop {
            match self.input.read(&mut self.buffer[self.end..]) {
                Ok(0) => {
                    self.exhausted = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(true);
                }
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(source) => return Err(WorkloadError::Io { path: path.to_path_buf(), source }),
            }
        }
    }

    /// The next line's bytes without its line ending.
    #[inline]
    fn next_bytes(&mut self, path: &Path) -> Result<Option<&[u8]>, WorkloadError> {
        let mut searched = 0;
        let line_end = loop {
            if let Some(at) = memchr::memchr(b'\n', &self.buffer[self.start + searched..self.end]) {
                break self.start + searched + at + 1;
            }
            searched = self.end - self.start;
            if !self.refill(path)? {
                // The last line may have no newline.
                if self.start == self.end {
                    return Ok(None);
                }
                break self.end;
            }
        };
        self.line = (self.start, line_end);
        self.start = line_end;
        self.number += 1;
        let mut end = line_end;
        while end > self.line.0 && matches!(self.buffer[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        Ok(Some(&self.buffer[self.line.0..end]))
    }

    /// The current line (as `next_bytes` last returned it) as text.
    fn text(&self, path: &Path) -> Result<&str, WorkloadError> {
        let bytes = &self.buffer[self.line.0..self.line.1];
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(text.trim_end_matches(['\n', '\r'])),
            Err(_) => Err(WorkloadError::Malformed {
                path: path.to_path_buf(),
                line: self.number,
                field: "line",
                message: "not valid UTF-8 text".into(),
                text: String::from_utf8_lossy(bytes).chars().take(120).collect(),
            }),
        }
    }

    fn next_line(&mut self, path: &Path) -> Result<Option<&str>, WorkloadError> {
        if self.next_bytes(path)?.is_none() {
            return Ok(None);
        }
        self.text(path).map(Some)
    }
}

fn guess_format(path: &Path) -> Result<TraceFormat, WorkloadError> {
    let mut lines = Lines::new(open_input(path)?);
    let mut first = Vec::new();
    while first.len() < 8 {
        match lines.next_line(path)? {
            Some(text) => first.push(text.to_string()),
            None => break,
        }
    }
    if first.iter().all(|l| l.trim().is_empty()) {
        return Err(WorkloadError::Empty { path: path.to_path_buf() });
    }
    TraceFormat::guess(&first).map_err(|reason| WorkloadError::UnknownFormat {
        path: path.to_path_buf(),
        reason,
        known: KNOWN_FORMATS,
    })
}

/// Malformed lines skipped on request, with the first few messages kept for the report.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct SkippedLines {
    pub count: u64,
    pub first_messages: Vec<String>,
}

/// What one streaming pass learned about a trace file.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TraceScan {
    pub path: PathBuf,
    pub format: TraceFormat,
    pub requests: u64,
    pub first_time_ns: u64,
    pub last_time_ns: u64,
    /// Per device: (largest offset + size seen, base offset in the flat address space).
    pub devices: BTreeMap<u32, DeviceExtent>,
    /// Size of the flat logical address space the reader produces, in bytes.
    pub address_space_bytes: u64,
    pub merge_devices: bool,
    pub skip_bad_lines: bool,
    pub max_request_bytes: u64,
    pub skipped: SkippedLines,
    /// The parsed-trace cache the readers use (path, records), and whether the scan found it built
    /// by an earlier run (true) or built it now (false).
    pub cache: Option<(PathBuf, u64)>,
    pub cache_reused: bool,
    /// The identity of the cache file (its key and checksum) that its summary and artifacts are
    /// sealed with.
    #[serde(skip)]
    cache_seal: Option<crate::trace_cache::CacheSeal>,
    /// The column map of a `columns` trace.
    pub columns: Option<crate::formats::columns::ColumnLayout>,
    /// The records the scan kept in memory for the readers (none with a cache, or when they
    /// outgrew `keep_records_bytes`).
    #[serde(skip)]
    kept: Option<std::sync::Arc<crate::kept_records::KeptRecords>>,
    /// After how many records the scan stopped keeping them (they would have outgrown the budget).
    #[serde(skip)]
    kept_dropped_after: Option<u64>,
}

#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct DeviceExtent {
    pub extent_bytes: u64,
    pub base_bytes: u64,
}

/// What a sealed artifact beside a cache is checked to be (another name's file is not it).
fn artifact_kind(name: &str) -> String {
    format!("artifact {name}")
}

/// The raw-record stream shared by the scan and the reader.
struct RecordStream {
    path: PathBuf,
    format: TraceFormat,
    lines: Lines,
    csv: CsvState,
    skip_bad_lines: bool,
    max_request_bytes: u64,
    skipped: SkippedLines,
    finished: bool,
    /// Records come from the parsed-trace cache instead of the text.
    cached: Option<crate::trace_cache::CacheReader>,
    /// Records come from the scan's memory instead of the text.
    kept: Option<crate::kept_records::KeptReader>,
    /// How far the text has been read (None when the text is not read).
    progress: Option<FileProgress>,
    /// The column map of a `columns` trace.
    columns: Option<crate::formats::columns::ColumnLayout>,
}

impl RecordStream {
    fn from_cache(
        path: &Path,
        format: TraceFormat,
        cache: &Path,
        records: u64,
        skipped: u64,
    ) -> Result<Self, WorkloadError> {
        let mut stream = RecordStream::open_lazily(path, format)?;
        stream.cached = Some(crate::trace_cache::CacheReader::open(cache, records)?);
        stream.skipped.count = skipped;
        if skipped > 0 {
            stream.skipped.first_messages.push(format!(
                "{skipped} malformed lines were skipped when the trace cache {} was built",
                cache.display()
            ));
        }
        Ok(stream)
    }

    fn from_kept(
        path: &Path,
        format: TraceFormat,
        kept: std::sync::Arc<crate::kept_records::KeptRecords>,
        skipped: &SkippedLines,
    ) -> Result<Self, WorkloadError> {
        let mut stream = RecordStream::open_lazily(path, format)?;
        stream.kept = Some(crate::kept_records::KeptReader::new(kept));
        stream.skipped = skipped.clone();
        Ok(stream)
    }

    /// A stream whose text is not opened (records come from the cache or from memory).
    fn open_lazily(path: &Path, format: TraceFormat) -> Result<Self, WorkloadError> {
        Ok(RecordStream {
            max_request_bytes: u64::MAX,
            path: path.to_path_buf(),
            format,
            lines: Lines::new(Box::new(std::io::empty())),
            csv: CsvState::default(),
            skip_bad_lines: false,
            skipped: SkippedLines::default(),
            finished: false,
            cached: None,
            kept: None,
            progress: None,
            columns: None,
        })
    }

    fn open(
        path: &Path,
        format: TraceFormat,
        skip_bad_lines: bool,
        max_request_bytes: u64,
    ) -> Result<Self, WorkloadError> {
        let (input, progress) = open_input_counted(path)?;
        Ok(RecordStream {
            max_request_bytes,
            path: path.to_path_buf(),
            format,
            lines: Lines::new(input),
            csv: CsvState::default(),
            skip_bad_lines,
            skipped: SkippedLines::default(),
            finished: false,
            cached: None,
            kept: None,
            progress: Some(progress),
            columns: None,
        })
    }

    fn with_columns(mut self, columns: Option<crate::formats::columns::ColumnLayout>) -> Self {
        self.columns = columns;
        self
    }

    fn malformed(&self, error: FieldError, text: &str) -> WorkloadError {
        WorkloadError::Malformed {
            path: self.path.clone(),
            line: self.lines.number,
            field: error.field,
            message: error.message,
            text: text.chars().take(160).collect(),
        }
    }

    /// Next request record with its line number.
    #[inline]
    fn next_record(&mut self) -> Result<Option<(RawRecord, u64)>, WorkloadError> {
        if let Some(cached) = self.cached.as_mut() {
            return cached.next();
        }
        if let Some(kept) = self.kept.as_mut() {
            return Ok(kept.next());
        }
        if self.finished {
            return Ok(None);
        }
        loop {
            let number = self.lines.number + 1;
            let Some(bytes) = self.lines.next_bytes(&self.path)? else {
                self.finished = true;
                return Ok(None);
            };
            if self.columns.is_none() {
                if let Some(record) = self.format.parse_fast(bytes) {
                    if check_record(&record, self.max_request_bytes).is_ok() {
                        return Ok(Some((record, self.lines.number)));
                    }
                }
            }
            let text = self.lines.text(&self.path)?;
            let parsed = match &self.columns {
                Some(layout) => crate::formats::columns::parse(text, number, layout),
                None => self.format.parse_line(text, &mut self.csv),
            };
            let parsed = match parsed {
                Ok(ParsedLine::Request(record)) => {
                    check_record(&record, self.max_request_bytes).map(|()| ParsedLine::Request(record))
                }
                other => other,
            };
            match parsed {
                Ok(ParsedLine::Request(record)) => return Ok(Some((record, self.lines.number))),
                Ok(ParsedLine::NotARequest) => continue,
                Ok(ParsedLine::EndOfTrace) => {
                    self.finished = true;
                    return Ok(None);
                }
                Err(field_error) => {
                    let text = text.to_string();
                    let error = self.malformed(field_error, &text);
                    if !self.skip_bad_lines {
                        return Err(error);
                    }
                    self.skipped.count += 1;
                    if self.skipped.first_messages.len() < KEPT_SKIP_MESSAGES {
                        self.skipped.first_messages.push(error.to_string());
                    }
                }
            }
        }
    }
}

impl TraceScan {
    /// Streams the whole file once. Fails on the first malformed line unless skipping is on.
    pub fn scan(path: &Path, options: &TraceOptions) -> Result<TraceScan, WorkloadError> {
        Self::scan_visiting(path, options, |_, _| Ok::<(), WorkloadError>(()))
    }

    /// [`TraceScan::scan`], showing every record (as the file states it, with its line) to `visit`
    /// on the way: what a caller needs from every request (a footprint) costs no second pass. An
    /// error from `visit` ends the scan.
    pub fn scan_visiting<E: From<WorkloadError>>(
        path: &Path,
        options: &TraceOptions,
        mut visit: impl FnMut(&RawRecord, u64) -> Result<(), E>,
    ) -> Result<TraceScan, E> {
        let mut failure = None;
        let scanned = Self::scan_inner(path, options, &mut |record, line| match visit(record, line) {
            Ok(()) => true,
            Err(error) => {
                failure = Some(error);
                false
            }
        });
        match (scanned, failure) {
            (_, Some(error)) => Err(error),
            (Ok(scan), None) => Ok(scan),
            (Err(error), None) => Err(error.into()),
        }
    }

    /// The scan of a trace whose parsed-trace cache and scan summary an earlier run built, without
    /// reading its records; None when there is no cache (no `cache_dir`, or none built yet).
    pub fn cached(path: &Path, options: &TraceOptions) -> Result<Option<TraceScan>, WorkloadError> {
        if options.cache_dir.is_none() {
            return Ok(None);
        }
        let format = Self::format_of(path, options)?;
        let Some((dir, key)) = Self::cache_key(path, options, format)? else { return Ok(None) };
        let Some(found) = crate::trace_cache::lookup(&dir, &key) else { return Ok(None) };
        let Some(summary) = crate::trace_cache::ScanSummary::read(&found.path, found.records, &found.seal) else {
            return Ok(None);
        };
        let crate::trace_cache::FoundCache { path: cache, records, skipped, seal } = found;
        let mut skipped_lines = SkippedLines { count: skipped, first_messages: Vec::new() };
        if skipped > 0 {
            skipped_lines.first_messages.push(format!(
                "{skipped} malformed lines were skipped when the trace cache {} was built",
                cache.display()
            ));
        }
        let mut scan =
            Self::assemble(path, options, format, records, &summary, skipped_lines, Some((cache, records)), true);
        scan.cache_seal = Some(seal);
        Ok(Some(scan))
    }

    /// Where a file derived from this scan's records kept beside its parsed-trace cache (for
    /// example a footprint) is, named by `name`; None without a cache.
    pub fn cache_artifact_path(&self, name: &str) -> Option<PathBuf> {
        self.cache.as_ref().map(|(cache, _)| crate::trace_cache::artifact_path(cache, name))
    }

    /// The artifact `name` stored by [`TraceScan::store_cache_artifact`], if it is whole and was
    /// derived from this very cache file (sealed with its key and checksum): a file copied from
    /// another trace's cache, or damaged, is None (the caller derives it again).
    pub fn read_cache_artifact(&self, name: &str) -> Option<Vec<u8>> {
        let path = self.cache_artifact_path(name)?;
        crate::trace_cache::read_sealed(&path, self.cache_seal.as_ref()?, &artifact_kind(name))
    }

    /// Stores `bytes` as the artifact `name`, sealed with this cache file's identity; nothing
    /// without a cache.
    pub fn store_cache_artifact(&self, name: &str, bytes: &[u8]) -> Result<(), WorkloadError> {
        match (self.cache_artifact_path(name), self.cache_seal.as_ref()) {
            (Some(path), Some(seal)) => crate::trace_cache::write_sealed(&path, seal, &artifact_kind(name), bytes),
            _ => Ok(()),
        }
    }

    fn format_of(path: &Path, options: &TraceOptions) -> Result<TraceFormat, WorkloadError> {
        Ok(match (&options.columns, options.format) {
            (Some(layout), _) => {
                layout.validate().map_err(|(field, message)| WorkloadError::InvalidOption {
                    option: "columns",
                    message: format!("{field}: {message}"),
                })?;
                TraceFormat::Columns
            }
            (None, Some(TraceFormat::Columns)) => {
                return Err(WorkloadError::InvalidOption {
                    option: "format",
                    message: "the columns format needs a column map (workload.trace.columns or --columns)".into(),
                })
            }
            (None, Some(format)) => format,
            (None, None) => guess_format(path)?,
        })
    }

    /// The cache folder and key of this trace under these options (None: no cache asked for).
    fn cache_key(
        path: &Path,
        options: &TraceOptions,
        format: TraceFormat,
    ) -> Result<Option<(PathBuf, crate::trace_cache::CacheKey)>, WorkloadError> {
        if options.max_request_bytes == 0 {
            return Err(WorkloadError::InvalidOption {
                option: "max_request_bytes",
                message: "must be at least 1".into(),
            });
        }
        let Some(dir) = &options.cache_dir else { return Ok(None) };
        let mut key =
            crate::trace_cache::CacheKey::of(path, format, options.skip_bad_lines, options.max_request_bytes)?;
        if let Some(layout) = &options.columns {
            // Another column map reads other records from the same bytes.
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            layout.hash(&mut hasher);
            key.content_hash ^= hasher.finish();
        }
        Ok(Some((dir.clone(), key)))
    }

    /// The scan; `visit` returns false to stop it (with [`WorkloadError::Stopped`]).
    fn scan_inner(
        path: &Path,
        options: &TraceOptions,
        visit: &mut dyn FnMut(&RawRecord, u64) -> bool,
    ) -> Result<TraceScan, WorkloadError> {
        let format = Self::format_of(path, options)?;
        use crate::trace_cache::{lookup, CacheWriter};
        let mut writer = None;
        let mut stream = match Self::cache_key(path, options, format)? {
            Some((dir, key)) => match lookup(&dir, &key) {
                Some(found) => {
                    let stream = RecordStream::from_cache(path, format, &found.path, found.records, found.skipped)?;
                    (stream, Some(found))
                }
                None => {
                    writer = Some(CacheWriter::create(&dir, key)?);
                    (
                        RecordStream::open(path, format, options.skip_bad_lines, options.max_request_bytes)?
                            .with_columns(options.columns.clone()),
                        None,
                    )
                }
            },
            None => (
                RecordStream::open(path, format, options.skip_bad_lines, options.max_request_bytes)?
                    .with_columns(options.columns.clone()),
                None,
            ),
        };
        let cache_reused = stream.1.is_some();
        let mut kept = (writer.is_none() && !cache_reused && options.keep_records_bytes > 0)
            .then(|| crate::kept_records::KeptRecordsBuilder::new(options.keep_records_bytes));
        let mut kept_dropped_after = None;
        let mut requests = 0u64;
        let mut first_time_ns = u64::MAX;
        let mut last_time_ns = 0u64;
        let mut extents: BTreeMap<u32, u64> = BTreeMap::new();
        let mut pass = || -> Result<(), WorkloadError> {
            while let Some((record, line)) = stream.0.next_record()? {
                if !visit(&record, line) {
                    return Err(WorkloadError::Stopped);
                }
                requests += 1;
                first_time_ns = first_time_ns.min(record.time_ns);
                last_time_ns = last_time_ns.max(record.time_ns);
                let end = record.offset_bytes.saturating_add(record.size_bytes);
                let extent = extents.entry(record.device).or_insert(0);
                *extent = (*extent).max(end);
                if let Some(writer) = writer.as_mut() {
                    writer.push(&record, line)?;
                }
                if let Some(builder) = kept.as_mut() {
                    // Dropped as soon as they would outgrow the budget: when they do not fit, and
                    // before that when the part of the file read so far says they will not (so a
                    // long trace does not first fill the budget for nothing).
                    let projected_over = requests.is_multiple_of(KEPT_PROJECTION_EVERY)
                        && stream.0.progress.as_ref().is_some_and(|progress| builder.outgrows(progress.fraction()));
                    if projected_over || !builder.push(&record, line) {
                        kept = None;
                        kept_dropped_after = Some(requests);
                    }
                }
            }
            Ok(())
        };
        if let Err(error) = pass() {
            if let Some(writer) = writer.take() {
                writer.abandon();
            }
            return Err(error);
        }
        let (stream, mut found) = stream;
        let summary =
            crate::trace_cache::ScanSummary { first_time_ns, last_time_ns, extents: extents.into_iter().collect() };
        if let Some(writer) = writer {
            found = if requests > 0 {
                Some(writer.finish(stream.skipped.count, &summary)?)
            } else {
                writer.abandon();
                None
            };
        } else if let Some(found) = found.as_ref().filter(|_| cache_reused) {
            crate::trace_cache::keep_summary(found, &summary)?;
        }
        let cache = found.as_ref().map(|found| (found.path.clone(), found.records));
        if requests == 0 {
            return Err(WorkloadError::Empty { path: path.to_path_buf() });
        }
        let mut scan = Self::assemble(path, options, format, requests, &summary, stream.skipped, cache, cache_reused);
        scan.kept = kept.map(|builder| builder.finish());
        scan.kept_dropped_after = kept_dropped_after;
        scan.cache_seal = found.map(|found| found.seal);
        Ok(scan)
    }

    /// The scan from what one pass (or the cache's summary) found.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        path: &Path,
        options: &TraceOptions,
        format: TraceFormat,
        requests: u64,
        summary: &crate::trace_cache::ScanSummary,
        skipped: SkippedLines,
        cache: Option<(PathBuf, u64)>,
        cache_reused: bool,
    ) -> TraceScan {
        // The summary keeps every device's extent (a cache serves runs with and without merging).
        let mut extents: BTreeMap<u32, u64> = BTreeMap::new();
        for &(device, extent) in &summary.extents {
            let merged = extents.entry(if options.merge_devices { 0 } else { device }).or_insert(0);
            *merged = (*merged).max(extent);
        }
        let mut devices = BTreeMap::new();
        let mut base = 0u64;
        for (device, extent) in extents {
            devices.insert(device, DeviceExtent { extent_bytes: extent, base_bytes: base });
            base += extent.div_ceil(DEVICE_ALIGNMENT_BYTES).max(1) * DEVICE_ALIGNMENT_BYTES;
        }
        let address_space_bytes =
            if devices.len() == 1 { devices.values().next().map_or(0, |d| d.extent_bytes) } else { base };
        TraceScan {
            path: path.to_path_buf(),
            format,
            requests,
            first_time_ns: summary.first_time_ns,
            last_time_ns: summary.last_time_ns,
            devices,
            address_space_bytes,
            merge_devices: options.merge_devices,
            skip_bad_lines: options.skip_bad_lines,
            max_request_bytes: options.max_request_bytes,
            skipped,
            cache,
            cache_reused,
            columns: options.columns.clone(),
            kept: None,
            kept_dropped_after: None,
            cache_seal: None,
        }
    }

    pub fn duration_ns(&self) -> u64 {
        self.last_time_ns.saturating_sub(self.first_time_ns)
    }

    /// After how many records the scan stopped keeping them in memory because they would have
    /// outgrown `keep_records_bytes` (None: kept, or never kept).
    pub fn kept_records_dropped_after(&self) -> Option<u64> {
        self.kept_dropped_after
    }

    /// The memory holding the records the scan kept for its readers (0: they read the text or the
    /// cache).
    pub fn kept_records_bytes(&self) -> u64 {
        self.kept.as_ref().map_or(0, |kept| kept.bytes())
    }

    /// Opens a fresh stream of requests laid out as this scan decided.
    pub fn reader(&self) -> Result<TraceReader, WorkloadError> {
        let stream = match (&self.cache, &self.kept) {
            (Some((cache, records)), _) => {
                RecordStream::from_cache(&self.path, self.format, cache, *records, self.skipped.count)?
            }
            (None, Some(kept)) => RecordStream::from_kept(&self.path, self.format, kept.clone(), &self.skipped)?,
            (None, None) => RecordStream::open(&self.path, self.format, self.skip_bad_lines, self.max_request_bytes)?
                .with_columns(self.columns.clone()),
        };
        Ok(TraceReader {
            stream,
            bases: self.devices.iter().map(|(&d, e)| (d, e.base_bytes)).collect(),
            merge_devices: self.merge_devices,
            origin_ns: self.first_time_ns,
            previous_ns: 0,
            reordered: 0,
        })
    }
}

/// Streams requests of a scanned trace. Yields `Err` once and then ends if the file changed under it.
pub struct TraceReader {
    stream: RecordStream,
    bases: BTreeMap<u32, u64>,
    merge_devices: bool,
    origin_ns: u64,
    previous_ns: u64,
    reordered: u64,
}

impl TraceReader {
    /// How many requests had a timestamp earlier than their predecessor (replayed at the
    /// predecessor's time).
    pub fn reordered(&self) -> u64 {
        self.reordered
    }

    pub fn skipped(&self) -> &SkippedLines {
        &self.stream.skipped
    }

    /// Appends up to `max` requests to `out` (fewer at the end of the trace). An error ends the
    /// batch: the requests before it are in `out`.
    pub fn fill(&mut self, out: &mut Vec<IoRequest>, max: usize) -> Result<(), WorkloadError> {
        for _ in 0..max {
            match self.next_request()? {
                Some(request) => out.push(request),
                None => break,
            }
        }
        Ok(())
    }

    #[inline]
    pub fn next_request(&mut self) -> Result<Option<IoRequest>, WorkloadError> {
        let Some((record, line)) = self.stream.next_record()? else { return Ok(None) };
        let device = if self.merge_devices { 0 } else { record.device };
        let base = match self.bases.get(&device) {
            Some(&base) => base,
            None => {
                return Err(WorkloadError::Malformed {
                    path: self.stream.path.clone(),
                    line,
                    field: "device",
                    message: format!("device {device} was not in the file when it was scanned; was the file changed?"),
                    text: String::new(),
                })
            }
        };
        let mut relative = record.time_ns.saturating_sub(self.origin_ns);
        if relative < self.previous_ns {
            self.reordered += 1;
            relative = self.previous_ns;
        }
        self.previous_ns = relative;
        let Some(offset_bytes) =
            base.checked_add(record.offset_bytes).filter(|offset| offset.checked_add(record.size_bytes).is_some())
        else {
            return Err(WorkloadError::Malformed {
                path: self.stream.path.clone(),
                line,
                field: "offset",
                message: format!("device {device} is laid out at {base} bytes; offset {} + size {} there lies beyond 2^64 bytes (try merge_devices)", record.offset_bytes, record.size_bytes),
                text: String::new(),
            });
        };
        Ok(Some(IoRequest {
            arrival: SimTime(relative),
            op: record.op,
            offset_bytes,
            size_bytes: record.size_bytes,
            origin_line: line,
        }))
    }
}

impl Iterator for TraceReader {
    type Item = Result<IoRequest, WorkloadError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_request().transpose()
    }
}

pub fn parse_format_name(name: &str) -> Result<TraceFormat, WorkloadError> {
    TraceFormat::from_name(name)
        .ok_or_else(|| WorkloadError::UnknownFormatName { name: name.to_string(), known: KNOWN_FORMATS })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` through a `Lines` whose buffer starts at `chunk` bytes and whose input hands out
    /// at most 3 bytes per read: lines straddle every refill.
    fn lines_of(text: &str, chunk: usize) -> Vec<(u64, String)> {
        struct Trickle(std::io::Cursor<Vec<u8>>);
        impl Read for Trickle {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = out.len().min(3);
                self.0.read(&mut out[..n])
            }
        }
        let mut lines = Lines::with_chunk(Box::new(Trickle(std::io::Cursor::new(text.as_bytes().to_vec()))), chunk);
        let path = Path::new("test");
        let mut seen = Vec::new();
        while let Some(bytes) = lines.next_bytes(path).expect("in-memory reads do not fail") {
            let bytes = String::from_utf8(bytes.to_vec()).expect("test text is UTF-8");
            assert_eq!(lines.text(path).expect("test text is UTF-8"), bytes);
            seen.push((lines.number, bytes));
        }
        seen
    }

    #[test]
    fn lines_agree_with_the_standard_split_at_every_buffer_size() {
        let long = "x".repeat(100);
        let text = format!("0 1 2\r\n\n{long}\n3 4 5\r\nlast line without newline");
        let expected: Vec<(u64, String)> = text
            .split('\n')
            .enumerate()
            .map(|(index, line)| (index as u64 + 1, line.trim_end_matches('\r').to_string()))
            .collect();
        for chunk in [1, 2, 5, 7, 64, 1 << 18] {
            assert_eq!(lines_of(&text, chunk), expected, "chunk {chunk}");
        }
        // A final newline ends the last line; it does not start an empty one.
        assert_eq!(lines_of("a\nb\n", 1), vec![(1, "a".to_string()), (2, "b".to_string())]);
        assert!(lines_of("", 4).is_empty());
    }
}

#[cfg(test)]
mod not_a_file_tests {
    use super::*;

    /// Issue 48 item 15: a FIFO as a trace blocked forever (opening it waits for a writer); a
    /// folder was "cannot read". Both are refused before opening, naming what they are.
    #[test]
    fn a_folder_or_a_fifo_is_refused_before_opening() {
        let folder = std::env::temp_dir().join(format!("ssdlab-not-a-file-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let error = TraceScan::scan(&folder, &TraceOptions::default()).err().unwrap().to_string();
        assert!(error.contains("is a folder, not a regular file"), "{error}");
        let fifo = folder.join("trace.fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            let error = TraceScan::scan(&fifo, &TraceOptions::default()).err().unwrap().to_string();
            assert!(error.contains("a FIFO (named pipe), not a regular file"), "{error}");
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
