//! Garbage-collection execution: collectors take victims chosen by the tier's victim policy
//! (greedy, round-robin, cost-benefit: `garbage_collection/`) and decide where their valid pages go.
//! One file per collector; a new collector is one new file and one enum variant (seed 004's RR-FDCA,
//! `frozen_data`, takes victims in pairs and screens cold data before it moves).
//!
//! A collector runs when a plane of a tier falls below the low watermark of free blocks and works
//! until the plane has the high watermark again. It changes the FTL's state at once (mapping, page
//! records, erase counts) and appends the flash work that carries it out to `ops`, for the
//! scheduler: a `GcRead` + `GcProgram` pair per page moved (same die: copyback or round trip;
//! another die or tier: read, both channels, program) and an `Erase` per victim.

mod frozen_data;
mod in_place;
mod migrating;
#[cfg(test)]
mod tests;

pub use frozen_data::FrozenData;
pub use in_place::InPlace;
pub use migrating::Migrating;

use super::block_manager::INVALID_PAGE;
use super::block_store::Stream;
use super::Ftl;
use crate::error::FtlError;
use crate::flash_op::FlashOp;
use crate::geometry::{BlockIndex, Lpn, PlaneIndex};
use crate::tier::TierId;

/// What every collector does.
pub trait Collect {
    fn name(&self) -> &'static str;
    /// Collects in (tier-local) `plane` of `tier` until it has the high watermark of free blocks.
    fn collect(
        &self,
        ftl: &mut Ftl,
        tier: TierId,
        plane: PlaneIndex,
        now_ns: u64,
        ops: &mut Vec<FlashOp>,
    ) -> Result<(), FtlError>;
}

/// The collector of one tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collector {
    InPlace(InPlace),
    Migrating(Migrating),
    FrozenData(FrozenData),
}

impl Collect for Collector {
    fn name(&self) -> &'static str {
        match self {
            Collector::InPlace(collector) => collector.name(),
            Collector::Migrating(collector) => collector.name(),
            Collector::FrozenData(collector) => collector.name(),
        }
    }
    fn collect(
        &self,
        ftl: &mut Ftl,
        tier: TierId,
        plane: PlaneIndex,
        now_ns: u64,
        ops: &mut Vec<FlashOp>,
    ) -> Result<(), FtlError> {
        match self {
            Collector::InPlace(collector) => collector.collect(ftl, tier, plane, now_ns, ops),
            Collector::Migrating(collector) => collector.collect(ftl, tier, plane, now_ns, ops),
            Collector::FrozenData(collector) => collector.collect(ftl, tier, plane, now_ns, ops),
        }
    }
}

/// Where a victim's valid pages go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Destination {
    /// The victim's own plane (GC stream).
    SamePlane,
    /// Another tier (its migration stream, planes in round-robin).
    Tier(TierId),
    /// Other writable planes of the same tier (migration stream, round-robin): draining a chip.
    OtherPlanes,
}

/// Moves every valid page of (local) `victim` in `tier` to `destination`, then erases the victim.
/// Pages moved into another tier may set off that tier's own in-place collection.
pub(super) fn evacuate(
    ftl: &mut Ftl,
    tier: TierId,
    victim: BlockIndex,
    destination: Destination,
    now_ns: u64,
    ops: &mut Vec<FlashOp>,
) -> Result<(), FtlError> {
    evacuate_split(ftl, tier, victim, destination, u64::MAX, now_ns, ops)
}

/// Like [`evacuate`], sending at most `limit` pages to `destination` and the rest within the plane
/// (a block-unit destination's last block takes only what fills it; the residue stays).
pub(super) fn evacuate_split(
    ftl: &mut Ftl,
    tier: TierId,
    victim: BlockIndex,
    destination: Destination,
    limit: u64,
    now_ns: u64,
    ops: &mut Vec<FlashOp>,
) -> Result<(), FtlError> {
    relocate_limited(ftl, tier, victim, destination, limit, now_ns, ops)?;
    let store = &mut ftl.stores[tier];
    store.erase(victim);
    ops.push(FlashOp::Erase { block: BlockIndex(victim.0 + store.first_block) });
    store.stats.gc_blocks_collected += 1;
    Ok(())
}

/// Moves every valid page of (local) `victim` in `tier` to `destination` without erasing it;
/// returns the pages moved. A destination plane that runs low collects in place.
pub(super) fn relocate(
    ftl: &mut Ftl,
    tier: TierId,
    victim: BlockIndex,
    destination: Destination,
    now_ns: u64,
    ops: &mut Vec<FlashOp>,
) -> Result<u64, FtlError> {
    relocate_limited(ftl, tier, victim, destination, u64::MAX, now_ns, ops)
}

/// [`relocate`] with at most `limit` pages sent to `destination`, the rest copied within the plane.
fn relocate_limited(
    ftl: &mut Ftl,
    tier: TierId,
    victim: BlockIndex,
    destination: Destination,
    limit: u64,
    now_ns: u64,
    ops: &mut Vec<FlashOp>,
) -> Result<u64, FtlError> {
    if destination == Destination::SamePlane || limit == 0 {
        return copy_within_plane(ftl, tier, victim, now_ns, ops);
    }
    let mut moved_pages = 0;
    let written = ftl.stores[tier].written_pages(victim.0 as usize);
    let plane = ftl.stores[tier].geometry.plane_of_block(victim);
    let pages_per_block = ftl.stores[tier].geometry.pages_per_block;
    for page in 0..written {
        let owner = ftl.stores[tier].owner(victim, page);
        if owner == INVALID_PAGE {
            continue;
        }
        let source_local = crate::geometry::Ppn(victim.0 * pages_per_block + page);
        let source = ftl.stores[tier].global_page(source_local);
        let tag = ftl.stores[tier].tag_local(source_local);
        // A page the host read during its screening period is not frozen: it stays in MLC (the
        // screening block) instead of moving to another tier (RR-FDCA screening by reads).
        let read_during_screening =
            matches!(destination, Destination::Tier(_)) && ftl.stores[tier].read_marked(source_local);
        if read_during_screening {
            ftl.stores[tier].stats.screening_read_pages += 1;
        }
        let destination =
            if moved_pages >= limit || read_during_screening { Destination::SamePlane } else { destination };
        let (to_tier, to_plane, stream) = match destination {
            Destination::SamePlane => (tier, plane, Stream::GarbageCollection),
            Destination::Tier(to) => (to, ftl.stores[to].plane_for_incoming(), Stream::Migration),
            Destination::OtherPlanes => (tier, ftl.stores[tier].take_plane_for_drain(), Stream::Migration),
        };
        let (local, record) = ftl.stores[to_tier].allocate(to_plane, stream, now_ns)?;
        let moved = ftl.stores[to_tier].global_page(local);
        ftl.mapping.set(Lpn(owner), moved);
        ftl.stores[tier].invalidate(source_local);
        ftl.stores[to_tier].program(local, record, Lpn(owner), now_ns, tag);
        ops.push(FlashOp::GcRead { ppn: source });
        ops.push(FlashOp::GcProgram { ppn: moved });
        if destination != Destination::SamePlane {
            moved_pages += 1;
        }
        if to_tier == tier {
            ftl.stores[tier].stats.gc_pages_copied += 1;
        } else {
            ftl.stores[tier].stats.pages_migrated_out += 1;
            ftl.stores[to_tier].stats.pages_migrated_in += 1;
        }
        if (to_tier, to_plane) != (tier, plane)
            && ftl.stores[to_tier].free_blocks(to_plane) < ftl.stores[to_tier].low_watermark
        {
            // The destination tier collects with its own collector (a plane of a write tier that
            // receives a drained chip's pages migrates in turn).
            let collector = ftl.collectors[to_tier.index()];
            collector.collect(ftl, to_tier, to_plane, now_ns, ops)?;
        }
    }
    Ok(moved_pages)
}

/// In-place collection's copy loop (the common case, kept apart so it touches one store).
fn copy_within_plane(
    ftl: &mut Ftl,
    tier: TierId,
    victim: BlockIndex,
    now_ns: u64,
    ops: &mut Vec<FlashOp>,
) -> Result<u64, FtlError> {
    let Ftl { mapping, stores, .. } = ftl;
    let store = &mut stores[tier];
    let written = store.written_pages(victim.0 as usize);
    let plane = store.geometry.plane_of_block(victim);
    let pages_per_block = store.geometry.pages_per_block;
    let mut moved_pages = 0;
    for page in 0..written {
        let owner = store.owner(victim, page);
        if owner == INVALID_PAGE {
            continue;
        }
        let source_local = crate::geometry::Ppn(victim.0 * pages_per_block + page);
        let tag = store.tag_local(source_local);
        let (local, record) = store.allocate(plane, Stream::GarbageCollection, now_ns)?;
        let moved = store.global_page(local);
        mapping.set(Lpn(owner), moved);
        store.invalidate(source_local);
        store.program(local, record, Lpn(owner), now_ns, tag);
        ops.push(FlashOp::GcRead { ppn: store.global_page(source_local) });
        ops.push(FlashOp::GcProgram { ppn: moved });
        moved_pages += 1;
    }
    store.stats.gc_pages_copied += moved_pages;
    Ok(moved_pages)
}
