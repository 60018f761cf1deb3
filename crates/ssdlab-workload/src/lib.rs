//! # ssdlab-workload
//!
//! Where host requests come from. Knows block I/O, not SSDs.
//!
//! * [`request`]: the [`IoRequest`] every source produces (arrival time, read/write, byte offset, size).
//! * [`formats`]: one file per trace format, each turning one text line into a record or a
//!   [`FieldError`](formats::FieldError) naming the field.
//! * [`trace`]: opens a file (gzip and zstd detected by magic bytes, not by name), guesses the format
//!   from content unless told, scans it once for its address layout, then streams requests without ever
//!   holding the file in memory. Malformed lines are errors naming file, line and field, unless the
//!   caller asked to skip them, in which case they are counted and the first few are kept for the report.
//! * [`synthetic`]: seeded generators (uniform, Zipf, hot/cold, sequential; read ratio; size
//!   distributions; Poisson or fixed arrivals).
//! * [`stats`]: trace statistics and the seed-000 (AOA-ECC, Fig. 4) workload classifier.
//!
//! Sources: trace formats as documented in ../shared/traces/README.md; the classifier as defined in
//! seed 000 §3 (hot = average data retention of at most one day, i.e. at least 7 writes per week).

pub mod error;
pub mod formats;
mod kept_records;
pub mod request;
pub mod stats;
pub mod synthetic;
pub mod trace;
mod trace_cache;
pub mod writer;

pub use error::WorkloadError;
pub use formats::{RawRecord, TraceFormat};
pub use request::{IoOp, IoRequest};
pub use stats::{TraceStats, WorkloadClass};
pub use synthetic::{SyntheticGenerator, SyntheticSpec};
pub use trace::{TraceOptions, TraceReader, TraceScan};
pub use writer::{OutputFormat, TraceWriter};
