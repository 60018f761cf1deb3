//! Every host page goes to one tier; every tier collects in place. On a one-tier device this is the
//! only sensible policy and exactly the old single-FTL behaviour.

use super::Place;
use crate::geometry::Lpn;
use crate::tier::TierId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Single {
    pub tier: TierId,
}

impl Place for Single {
    fn name(&self) -> &'static str {
        "single"
    }
    #[inline]
    fn write_tier(&self, _lpn: Lpn) -> TierId {
        self.tier
    }
}
