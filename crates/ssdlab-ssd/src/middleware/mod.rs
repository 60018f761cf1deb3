//! Host-side middleware between the host interface and the FTL: it may remap each host logical page
//! to another logical page the FTL sees (seed 003's LBA scrambler is one). The FTL is unchanged and
//! treats what it gets as ordinary logical pages. One file per middleware.

mod identity;
mod permutation;

pub use identity::Identity;
pub use permutation::Permutation;

use crate::config::MiddlewareKind;
use crate::ftl::Ftl;
use crate::geometry::Lpn;

pub trait Middleware: Send {
    fn name(&self) -> &'static str;
    /// The FTL-side page a write of host page `host` goes to. May look at the FTL (next victim,
    /// free blocks) to decide.
    fn write_target(&mut self, host: Lpn, ftl: &Ftl) -> Lpn;
    /// The FTL-side page holding host page `host`, or None if it was never written through this
    /// middleware.
    fn read_target(&self, host: Lpn) -> Option<Lpn>;
}

pub fn build(kind: MiddlewareKind, logical_pages: u64, seed: u64) -> Box<dyn Middleware> {
    match kind {
        MiddlewareKind::None => Box::new(Identity),
        MiddlewareKind::Permutation => Box::new(Permutation::new(logical_pages, seed)),
    }
}
