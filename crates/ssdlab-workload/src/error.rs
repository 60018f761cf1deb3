//! Errors of the workload domain. Every variant names the file, and where there is one, the line
//! and the field, so a user can open the file at the right place.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    #[error("{path}:{line}: field `{field}`: {message}\n    line text: {text:?}")]
    Malformed { path: PathBuf, line: u64, field: &'static str, message: String, text: String },

    #[error("{path}: cannot read: {source}")]
    Io { path: PathBuf, source: std::io::Error },

    #[error("{path}: cannot guess the trace format from its first lines ({reason}); pass the format explicitly (one of: {known})")]
    UnknownFormat { path: PathBuf, reason: String, known: &'static str },

    /// A folder, FIFO, socket or device given as a trace (issue 48 item 15: a FIFO blocked forever).
    #[error("{path}: is {kind}, not a regular file; a trace is read more than once (a scan, then the replay), so give a file (save a stream to one first)")]
    NotAFile { path: PathBuf, kind: &'static str },

    #[error("{path}: the trace holds no requests")]
    Empty { path: PathBuf },

    #[error("unknown trace format `{name}`; known formats: {known}")]
    UnknownFormatName { name: String, known: &'static str },

    #[error("trace option `{option}`: {message}")]
    InvalidOption { option: &'static str, message: String },

    #[error("synthetic workload: field `{field}`: {message}")]
    InvalidSynthetic { field: String, message: String },

    /// A parsed-trace cache file that does not hold what its header says (checked before use, so
    /// only a file changed while a run read it); named, never blamed on a trace line.
    #[error("{path}: parsed-trace cache damaged: {message}; the next run rebuilds it from the trace")]
    CacheDamaged { path: PathBuf, message: String },

    /// The parsed-trace cache folder cannot be used (a file, not creatable, not writable).
    #[error("{path}: cannot keep the parsed-trace cache here (workload.trace.cache_dir, --trace-cache): {message}")]
    CacheFolder { path: PathBuf, message: String },

    /// A scan's visitor stopped it (the caller reports its own error instead; never shown).
    #[error("the trace scan was stopped by its caller")]
    Stopped,
}
