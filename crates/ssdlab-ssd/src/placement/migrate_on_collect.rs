//! New writes go to the write tier (MLC); its garbage collection moves every valid page of a victim
//! to another tier (TLC) instead of copying it within the plane (seed 004 Fig. 6-7, the conventional
//! MLC/TLC array without screening). Overwrites of migrated data land in the write tier again.

use super::Place;
use crate::ftl::collector::{Collector, InPlace, Migrating};
use crate::geometry::Lpn;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MigrateOnCollect {
    pub write_tier: usize,
    pub migrate_to: usize,
}

impl Place for MigrateOnCollect {
    fn name(&self) -> &'static str {
        "migrate_on_collect"
    }
    #[inline]
    fn write_tier(&self, _lpn: Lpn) -> usize {
        self.write_tier
    }
    fn collector(&self, tier: usize) -> Collector {
        if tier == self.write_tier {
            Collector::Migrating(Migrating { to: self.migrate_to })
        } else {
            Collector::InPlace(InPlace)
        }
    }
}
