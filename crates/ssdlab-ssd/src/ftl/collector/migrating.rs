//! Migrating collection: the victim's valid pages move to another tier instead of staying in the
//! plane (seed 004's conventional MLC/TLC array: MLC garbage collection sends the data it copies
//! to TLC, without screening). The destination tier takes them into its migration stream, planes in
//! round-robin, and collects in place itself when it runs low.
//!
//! When the destination cannot take a victim's pages without eating into its own over-provisioning
//! (its valid pages would exceed its logical capacity), that victim is collected in place instead,
//! so a full destination degrades to one-tier behaviour rather than failing.

use super::in_place::make_progress;
use super::{evacuate, Collect, Destination};
use crate::error::FtlError;
use crate::ftl::{FlashOp, Ftl};
use crate::geometry::PlaneIndex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Migrating {
    /// The tier valid pages move to.
    pub to: usize,
}

impl Collect for Migrating {
    fn name(&self) -> &'static str {
        "migrating"
    }

    fn collect(&self, ftl: &mut Ftl, tier: usize, plane: PlaneIndex, now_ns: u64, ops: &mut Vec<FlashOp>) -> Result<(), FtlError> {
        ftl.stores[tier].stats.gc_invocations += 1;
        let mut rounds = 0u32;
        while ftl.stores[tier].free_blocks(plane) < ftl.stores[tier].high_watermark {
            rounds += 1;
            let Some(victim) = ftl.stores[tier].next_victim(plane, now_ns) else { break };
            let valid = ftl.stores[tier].valid_pages(victim) as u64;
            let target = &ftl.stores[self.to];
            let room = target.valid_pages_total() + valid <= target.logical_capacity_pages();
            if room {
                evacuate(ftl, tier, victim, Destination::Tier(self.to), now_ns, ops)?;
            } else {
                if !make_progress(ftl, tier, plane, victim, rounds, now_ns)? {
                    return Ok(());
                }
                evacuate(ftl, tier, victim, Destination::SamePlane, now_ns, ops)?;
            }
        }
        Ok(())
    }
}
