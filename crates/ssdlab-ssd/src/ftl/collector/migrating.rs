//! Migrating collection: the victim's valid pages move to another tier instead of staying in the
//! plane (seed 004's conventional MLC/TLC array: MLC garbage collection sends the data it copies
//! to TLC, without screening). The destination tier takes them into its migration stream, planes in
//! round-robin, and collects in place itself when it runs low.
//!
//! When the destination cannot take a victim's pages without eating into its own over-provisioning
//! (its valid pages would exceed its logical capacity), that victim is collected in place instead,
//! so a full destination degrades to one-tier behaviour rather than failing.

use super::in_place::make_progress;
use super::{evacuate, evacuate_split, Collect, Destination};
use crate::error::FtlError;
use crate::flash_op::FlashOp;
use crate::ftl::Ftl;
use crate::geometry::PlaneIndex;
use crate::tier::TierId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Migrating {
    /// The tier valid pages move to.
    pub to: TierId,
    /// A block-unit destination's open block is filled before collection stops, past the high
    /// watermark if need be (`placement.migration_stop = "block_filled"`).
    pub fill_block: bool,
}

impl Collect for Migrating {
    fn name(&self) -> &'static str {
        "migrating"
    }

    fn collect(
        &self,
        ftl: &mut Ftl,
        tier: TierId,
        plane: PlaneIndex,
        now_ns: u64,
        ops: &mut Vec<FlashOp>,
    ) -> Result<(), FtlError> {
        ftl.stores[tier].stats.gc_invocations += 1;
        let mut rounds = 0u32;
        // A block-unit destination's block is filled in one go (`fill_block`): collection goes on
        // past the high watermark until the block it started is full (or no victim is left).
        while ftl.stores[tier].free_blocks(plane) < ftl.stores[tier].high_watermark
            || (self.fill_block
                && ftl.stores[self.to].block_unit
                && ftl.stores[self.to].open_incoming_plane().is_some())
        {
            rounds += 1;
            let Some(victim) = ftl.stores[tier].next_victim(plane, now_ns) else { break };
            if rounds > 4 * ftl.stores[tier].geometry.blocks_per_plane {
                break;
            }
            let valid = ftl.stores[tier].valid_pages(victim) as u64;
            let target = &ftl.stores[self.to];
            let room = target.valid_pages_total() + valid <= target.logical_capacity_pages();
            let past_watermark = ftl.stores[tier].free_blocks(plane) >= ftl.stores[tier].high_watermark;
            if past_watermark {
                // Only finishing a block-unit destination's open block keeps collection going: this
                // victim's pages fill it, the residue stays in the plane (seed 004 writes residual
                // pages back to MLC), and no further block is opened.
                let Some(open) = ftl.stores[self.to].open_incoming_plane() else { break };
                if !room {
                    break;
                }
                let limit = ftl.stores[self.to].incoming_room(open) as u64;
                evacuate_split(ftl, tier, victim, Destination::Tier(self.to), limit, now_ns, ops)?;
                continue;
            }
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
