//! No middleware: host pages are FTL pages.

use super::Middleware;
use crate::ftl::Ftl;
use crate::geometry::Lpn;

pub struct Identity;

impl Middleware for Identity {
    fn name(&self) -> &'static str {
        "none"
    }
    #[inline]
    fn write_target(&mut self, host: Lpn, _ftl: &Ftl, _now_ns: u64) -> Lpn {
        host
    }
    #[inline]
    fn read_target(&self, host: Lpn) -> Option<Lpn> {
        Some(host)
    }
}
