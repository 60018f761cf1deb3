//! Round-robin frozen-data collection, RR-FDCA (seed 004, Fig. 8): the MLC tier's collector in
//! front of a TLC tier. MLC is not a plain buffer for TLC: it screens data, and only what stayed
//! untouched for a whole screening period (static "frozen" data) moves to TLC.
//!
//! How ssdlab reads the seed's steps (its Fig. 8 is a flow chart the text copy only summarises; the
//! reading is also in docs/tlc-mlc.md and each step has a test on hand-built blocks below):
//! - Blocks carry a round number N_RDS ([`BlockInfo::screening_rounds`]): 0 for blocks the host
//!   wrote, 1 for blocks filled with garbage-collection copies (the screening blocks), 0 again when
//!   erased.
//! - Collection starts when a plane of the MLC tier has fewer free blocks than the low watermark and
//!   walks the plane's full blocks in round-robin order (the order they filled), two victims at a
//!   time, until the plane has the high watermark again (finishing the pair it started).
//! - **A1-A4, accumulate.** A victim with N_RDS = 0: its valid pages are copied into the plane's
//!   screening block (which gets N_RDS = 1), the victim is erased (N_RDS = 0). A pair of MLC blocks
//!   (2 x 256 pages) may hold a TLC block's worth (384) of candidates; when its victims' valid pages
//!   fall short of a TLC block, the pair takes the next victims too until they do (the seed: "collects
//!   more valid pages until the collected pages reach two MLC blocks ... to accumulate valid pages to
//!   be N_PNPB,TLC"; `placement.accumulation = "tlc_block"`), as long as the next victim is fresh
//!   (reaching a later fresh block would pass over blocks being screened, counting their rounds
//!   within one collection). `"two_victims"` stops at two whatever they hold (ssdlab before issue
//!   46, a reading).
//! - **B1-B2, skip copy.** A victim with 1 <= N_RDS < N_RDSMAX is not collected: round-robin passes
//!   over it, its N_RDS rises by one and it goes to the back of the order. A page the host overwrites
//!   meanwhile is written to a host block, so what is still valid here when its rounds are up was not
//!   written for N_RDSMAX trips of round-robin around the plane.
//! - **C1-C4, evict frozen data.** A victim with N_RDS >= N_RDSMAX holds frozen data: its valid pages
//!   move to the TLC tier (its incoming block, filled before another opens when TLC is written in
//!   blocks), then it is erased (N_RDS = 0). A pair of frozen victims sends at most one TLC block's
//!   pages.
//! - **C5, residue.** Frozen pages beyond the pair's TLC block are written back within the MLC plane,
//!   into the screening block (N_RDS = 1: they are screened again).
//! - **Reads are accesses** (the seed: "the data accessed during the period is moved to another MLC
//!   block"; `placement.screening_access = "reads_and_writes"`). A page the host reads while its
//!   block has N_RDS >= 1 is marked; when the block's data is evicted, a marked page goes to the
//!   screening block (another MLC block, screened again) instead of TLC. The move happens at eviction,
//!   not at the read: where the data ends up is the seed's, the copy's timing is ssdlab's (a read
//!   that wrote would put a program on the host's read path). `"writes"` ignores reads (ssdlab before
//!   issue 46).
//!
//! If TLC cannot take a victim's pages without exceeding its logical capacity, that frozen victim is
//! copied within the plane instead (as [`super::Migrating`] does). The victim order is round-robin
//! whatever `ftl.garbage_collection.policy` says (the algorithm is defined on it); the TLC tier
//! collects in place with its own policy.
//!
//! Left out: the seed does not say whether a pair may mix a fresh and a frozen victim; here the two
//! are simply the next two round-robin victims that are not skipped, each handled by its own N_RDS.
//!
//! [`BlockInfo::screening_rounds`]: crate::ftl::block_manager::BlockInfo::screening_rounds

use super::in_place::make_progress;
use super::{evacuate, evacuate_split, Collect, Destination};
use crate::config::Accumulation;
use crate::error::FtlError;
use crate::flash_op::FlashOp;
use crate::ftl::Ftl;
use crate::geometry::PlaneIndex;
use crate::tier::TierId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrozenData {
    /// The tier frozen data moves to (TLC).
    pub to: TierId,
    /// N_RDSMAX: screening rounds before a block's data counts as frozen (at least 1).
    pub max_rounds: u8,
    /// Whether a pair of fresh victims takes more until it accumulates a TLC block's worth.
    pub accumulation: Accumulation,
    /// Whether a page the host read while its block was being screened stays in MLC (the
    /// FTL marks such pages: `Ftl::note_host_read`; `relocate_limited` keeps them).
    pub screen_reads: bool,
}

impl Collect for FrozenData {
    fn name(&self) -> &'static str {
        "rr_fdca"
    }

    fn collect(
        &self,
        ftl: &mut Ftl,
        tier: TierId,
        plane: PlaneIndex,
        now_ns: u64,
        ops: &mut Vec<FlashOp>,
    ) -> Result<(), FtlError> {
        self.collect_pairs(ftl, tier, plane, now_ns, ops, u32::MAX)
    }
}

impl FrozenData {
    /// [`Collect::collect`], stopping after `max_pairs` pairs even below the high watermark (tests
    /// take one step at a time).
    pub(super) fn collect_pairs(
        &self,
        ftl: &mut Ftl,
        tier: TierId,
        plane: PlaneIndex,
        now_ns: u64,
        ops: &mut Vec<FlashOp>,
        max_pairs: u32,
    ) -> Result<(), FtlError> {
        ftl.stores[tier].stats.gc_invocations += 1;
        let blocks_per_plane = ftl.stores[tier].geometry.blocks_per_plane;
        // Every skip raises a block's N_RDS, so at most N_RDSMAX skips per block come before its
        // data is frozen: this bounds the walk.
        let step_limit = (self.max_rounds as u32 + 4) * blocks_per_plane;
        let mut steps = 0u32;
        let mut pair_left = 0u32;
        // Pages the current pair may still send to TLC (one TLC block per pair).
        let mut pair_budget = 0u64;
        // Valid pages the current pair's fresh victims copied into screening blocks (A1-A4).
        let mut pair_accumulated = 0u64;
        let accumulation_target = ftl.stores[self.to].geometry.pages_per_block as u64;
        let mut in_place_rounds = 0u32;
        let mut pairs = 0u32;
        while pair_left > 0
            || (pairs < max_pairs && ftl.stores[tier].free_blocks(plane) < ftl.stores[tier].high_watermark)
        {
            steps += 1;
            if steps > step_limit {
                break;
            }
            let Some(victim) = ftl.stores[tier].round_robin_victim(plane) else { break };
            let rounds = ftl.stores[tier].screening_rounds(victim);
            if rounds >= 1 && rounds < self.max_rounds {
                // B1-B2: still being screened.
                ftl.stores[tier].pass_over(victim);
                continue;
            }
            if pair_left == 0 {
                pair_left = 2;
                pairs += 1;
                pair_budget = self.tlc_block_pages(ftl);
                pair_accumulated = 0;
            }
            pair_left -= 1;
            let valid = ftl.stores[tier].valid_pages(victim) as u64;
            if rounds == 0 {
                // A1-A4: accumulate the victim's valid pages in the screening block.
                let before = ftl.stores[tier].stats.gc_pages_copied;
                evacuate(ftl, tier, victim, Destination::SamePlane, now_ns, ops)?;
                let store = &mut ftl.stores[tier];
                let copied = store.stats.gc_pages_copied - before;
                store.stats.screening_copies += copied;
                pair_accumulated += copied;
                if pair_left == 0
                    && self.accumulation == Accumulation::TlcBlock
                    && pair_accumulated < accumulation_target
                {
                    // A1-A4: short of a TLC block's worth, the pair takes the next victim too, if it
                    // is fresh. Passing over blocks being screened to find one would count rounds
                    // within one collection: a lap of the plane in no time is no screening period.
                    let next = store.round_robin_victim(plane);
                    if next.is_some_and(|block| store.screening_rounds(block) == 0) {
                        pair_left = 1;
                        store.stats.accumulation_extra_victims += 1;
                    }
                }
                continue;
            }
            // C1-C5: frozen data to TLC, up to the pair's TLC block; the residue back to MLC.
            let target = &ftl.stores[self.to];
            let room = target.valid_pages_total() + valid.min(pair_budget) <= target.logical_capacity_pages();
            if !room || pair_budget == 0 {
                if !room {
                    in_place_rounds += 1;
                    if !make_progress(ftl, tier, plane, victim, in_place_rounds, now_ns)? {
                        return Ok(());
                    }
                }
                let before = ftl.stores[tier].stats.gc_pages_copied;
                evacuate(ftl, tier, victim, Destination::SamePlane, now_ns, ops)?;
                let store = &mut ftl.stores[tier];
                store.stats.residual_pages += store.stats.gc_pages_copied - before;
                continue;
            }
            let before = ftl.stores[tier].stats.gc_pages_copied;
            let out_before = ftl.stores[tier].stats.pages_migrated_out;
            evacuate_split(ftl, tier, victim, Destination::Tier(self.to), pair_budget, now_ns, ops)?;
            let store = &mut ftl.stores[tier];
            store.stats.residual_pages += store.stats.gc_pages_copied - before;
            pair_budget -= (store.stats.pages_migrated_out - out_before).min(pair_budget);
        }
        Ok(())
    }

    /// Pages a pair of frozen victims may send: one TLC block (no limit when TLC is written page by
    /// page: its pages need no block to fill).
    fn tlc_block_pages(&self, ftl: &Ftl) -> u64 {
        let target = &ftl.stores[self.to];
        if target.block_unit {
            target.geometry.pages_per_block as u64
        } else {
            u64::MAX
        }
    }
}
