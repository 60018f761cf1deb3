//! The host request every workload source produces.

use ssdlab_engine::SimTime;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IoOp {
    Read,
    Write,
    /// The host (or its file system) no longer needs the range: a discard / TRIM / delete. Where it
    /// goes (nowhere, the middleware, the FTL) is the simulation's `host.delete_target`.
    Delete,
}

/// One host I/O request. Offsets are in bytes in the flat logical address space the reader built
/// (separate trace devices/ASUs are laid out one after another; see [`crate::trace`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoRequest {
    /// Arrival time relative to the first request of the trace (open-loop replay uses it).
    pub arrival: SimTime,
    pub op: IoOp,
    pub offset_bytes: u64,
    pub size_bytes: u64,
    /// Line in the source file (1-based), or the request's index for synthetic workloads; used to
    /// name the origin of a request in error messages.
    pub origin_line: u64,
}

impl IoRequest {
    /// One past the last byte. Readers reject requests whose end does not fit in 64 bits; should one
    /// be built by hand, the end saturates rather than wrapping to a small address.
    pub fn end_bytes(&self) -> u64 {
        self.offset_bytes.saturating_add(self.size_bytes)
    }
}
