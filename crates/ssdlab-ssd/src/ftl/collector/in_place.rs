//! In-place collection (every tier's default, and a one-tier device's only one): the victim policy
//! picks a block, its valid pages are copied into the plane's GC block, the victim is erased.
//!
//! With dynamic plane allocation, and on a tiered device, a plane whose full blocks hold only valid
//! data is marked stuck and skipped by writes until an overwrite frees one of its pages; the tier is
//! full only when every plane is stuck. (A one-tier device with static allocation keeps failing on
//! such a plane, as before tiers: its pages have no other plane to go to.)

use super::{evacuate, Collect, Destination};
use crate::config::PlaneAllocation;
use crate::error::FtlError;
use crate::flash_op::FlashOp;
use crate::ftl::Ftl;
use crate::geometry::PlaneIndex;
use crate::tier::TierId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InPlace;

impl Collect for InPlace {
    fn name(&self) -> &'static str {
        "in_place"
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
        while ftl.stores[tier].free_blocks(plane) < ftl.stores[tier].high_watermark {
            rounds += 1;
            let store = &ftl.stores[tier];
            let Some(victim) = store.next_victim(plane, now_ns) else {
                ftl.stores[tier].stats.gc_invocations_short += 1;
                break;
            };
            if !make_progress(ftl, tier, plane, victim, rounds, now_ns)? {
                let stats = &mut ftl.stores[tier].stats;
                stats.gc_invocations_short += 1;
                stats.gc_invocations_stuck += 1;
                return Ok(());
            }
            evacuate(ftl, tier, victim, Destination::SamePlane, now_ns, ops)?;
        }
        Ok(())
    }
}

/// Whether collecting `victim` can gain anything; marks a stuck plane under dynamic allocation
/// (returns false: collection stops there) and fails when the whole tier is full.
pub(super) fn make_progress(
    ftl: &mut Ftl,
    tier: TierId,
    plane: PlaneIndex,
    victim: crate::geometry::BlockIndex,
    rounds: u32,
    now_ns: u64,
) -> Result<bool, FtlError> {
    let store = &mut ftl.stores[tier];
    let pages_per_block = store.geometry.pages_per_block;
    let victim_valid = store.valid_pages(victim);
    // A fully valid victim gains nothing, but round-robin may pick one and move on; the plane is
    // only full when no full block has an invalid page at all.
    let no_gain_anywhere = victim_valid == pages_per_block && {
        let view = store.plane_view(plane, now_ns);
        (0..view.keys.len()).all(|index| !view.is_full(index) || view.valid_pages(index) == pages_per_block)
    };
    if no_gain_anywhere
        && (store.plane_allocation == PlaneAllocation::Dynamic || store.redirect_when_full)
        && store.free_blocks(plane) > 0
    {
        // With dynamic allocation (and on a tiered device, whose data moves between planes) the
        // tier is full only when every plane is: this plane still has a free block and waits for
        // overwrites while writes go elsewhere.
        store.mark_stuck(plane, true);
        if store.stuck_planes < store.planes.len() {
            return Ok(false);
        }
        store.mark_stuck(plane, false);
    }
    if no_gain_anywhere || rounds > 4 * store.geometry.blocks_per_plane {
        return Err(FtlError::DeviceFull {
            plane: plane.0 + store.first_plane,
            message: format!(
                "garbage collection cannot free space: the best victim holds {} of {} pages valid; the workload's footprint ({} logical pages mapped) does not fit the physical capacity with the GC reserve",
                victim_valid,
                pages_per_block,
                ftl.mapping.mapped_pages()
            ),
        });
    }
    Ok(true)
}
