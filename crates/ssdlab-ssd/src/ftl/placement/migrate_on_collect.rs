//! New writes go to the write tier (MLC); its garbage collection moves every valid page of a victim
//! to another tier (TLC) instead of copying it within the plane (seed 004 Fig. 6-7, the conventional
//! MLC/TLC array without screening). Overwrites of migrated data land in the write tier again.
//! With screening (`placement.policy = "rr_fdca"`) the write tier's collector is seed 004's RR-FDCA
//! (`ftl/collector/frozen_data.rs`): only data that stayed unwritten for N_RDSMAX screening rounds
//! moves.

use super::Place;
use crate::config::{Accumulation, MigrationStop, ScreeningAccess};
use crate::ftl::collector::{Collector, FrozenData, InPlace, Migrating};
use crate::geometry::Lpn;
use crate::tier::TierId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MigrateOnCollect {
    pub write_tier: TierId,
    pub migrate_to: TierId,
    /// RR-FDCA's N_RDSMAX, when the write tier screens (None: every valid page of a victim moves).
    pub screening: Option<u8>,
    /// RR-FDCA's accumulation step (with screening only).
    pub accumulation: Accumulation,
    /// RR-FDCA: whether host reads count as accesses that keep data out of TLC (with screening only).
    pub screening_access: ScreeningAccess,
    /// The conventional collection's stop rule (without screening only).
    pub migration_stop: MigrationStop,
}

impl Place for MigrateOnCollect {
    fn name(&self) -> &'static str {
        if self.screening.is_some() {
            "rr_fdca"
        } else {
            "migrate_on_collect"
        }
    }
    #[inline]
    fn write_tier(&self, _lpn: Lpn) -> TierId {
        self.write_tier
    }
    fn collector(&self, tier: TierId) -> Collector {
        if tier == self.write_tier {
            match self.screening {
                Some(max_rounds) => Collector::FrozenData(FrozenData {
                    to: self.migrate_to,
                    max_rounds,
                    accumulation: self.accumulation,
                    screen_reads: self.screening_access == ScreeningAccess::ReadsAndWrites,
                }),
                None => Collector::Migrating(Migrating {
                    to: self.migrate_to,
                    fill_block: self.migration_stop == MigrationStop::BlockFilled,
                }),
            }
        } else {
            Collector::InPlace(InPlace)
        }
    }
}
