//! Host-side middleware between the host interface and the FTL: it may remap each host logical page
//! to another logical page the FTL sees (seed 003's LBA scrambler is one). The FTL is unchanged and
//! treats what it gets as ordinary logical pages. One file per middleware.

mod identity;
mod lba_scrambler;
mod permutation;

pub use identity::Identity;
pub use lba_scrambler::LbaScrambler;
pub use permutation::Permutation;

use crate::config::{MiddlewareConfig, MiddlewareKind};
use crate::ftl::Ftl;
use crate::geometry::Lpn;

/// What a middleware did during the measured run (zero for middleware without such choices).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct MiddlewareStats {
    /// Host page writes sent to an empty logical page because free space was plentiful (seed 003 rule 1).
    pub rule1_empty_page_writes: u64,
    /// Host page writes sent to a fragmented page of the next GC victim (rule 2).
    pub rule2_victim_page_writes: u64,
    /// Host page writes sent elsewhere (rule 3).
    pub rule3_other_page_writes: u64,
    /// Logical pages the FTL still holds whose data the middleware has moved (dead copies the FTL
    /// cannot see), at the end of the run.
    pub fragmented_pages: u64,
    /// Times a plane's next victim was read from the FTL for the recommendation list.
    pub victim_refreshes: u64,
    /// Host page writes that reached rule 2 (free space not plentiful); rule2_victim_page_writes /
    /// rule2_attempts is rule 2's hit rate.
    pub rule2_attempts: u64,
    /// Victims read, and the fragmented (dead but valid, to the FTL) pages they held when read: their
    /// ratio is the dead-but-valid pages per victim the scrambler finds.
    pub victims_read: u64,
    pub victim_fragmented_pages: u64,
}

pub trait Middleware: Send {
    fn name(&self) -> &'static str;
    /// The FTL-side page a write of host page `host` goes to. May look at the FTL (next victim,
    /// free blocks) to decide.
    fn write_target(&mut self, host: Lpn, ftl: &Ftl, now_ns: u64) -> Lpn;
    /// The FTL-side page holding host page `host`, or None if it was never written through this
    /// middleware.
    fn read_target(&self, host: Lpn) -> Option<Lpn>;
    fn stats(&self) -> MiddlewareStats {
        MiddlewareStats::default()
    }
    /// Host page `host` was deleted (discard/TRIM reaching the middleware): its data is no longer
    /// needed. Called after the FTL trimmed the page, when the delete goes that far.
    fn delete(&mut self, _host: Lpn, _ftl: &Ftl) {}
    /// Clears counters (after preconditioning) without touching the tables.
    fn reset_stats(&mut self) {}
    /// Bytes held by the middleware's tables.
    fn memory_bytes(&self) -> u64 {
        0
    }
}

/// `ftl_logical_pages` is the logical space the FTL was built with (see
/// [`ftl_logical_pages`] for what the middleware needs of it).
pub fn build(config: &MiddlewareConfig, ftl_logical_pages: u64, seed: u64) -> Box<dyn Middleware> {
    match config.kind {
        MiddlewareKind::None => Box::new(Identity),
        MiddlewareKind::Permutation => Box::new(Permutation::new(ftl_logical_pages, seed)),
        MiddlewareKind::LbaScrambler => Box::new(LbaScrambler::new(config.lba_scrambler.clone(), ftl_logical_pages)),
    }
}

/// The logical space the FTL must offer under this middleware, given the host's and the NAND's page
/// counts: the scrambler's SLBAs span the whole NAND capacity (seed 003), others use the host's space.
pub fn ftl_logical_pages(kind: MiddlewareKind, host_pages: u64, physical_pages: u64) -> u64 {
    match kind {
        MiddlewareKind::LbaScrambler => host_pages.max(physical_pages),
        MiddlewareKind::None | MiddlewareKind::Permutation => host_pages,
    }
}
