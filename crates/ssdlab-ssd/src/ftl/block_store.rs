//! One tier's blocks: free lists and open blocks per plane, page records, valid counts, erase counts.
//!
//! What it models: out-of-place programs into one open block per write stream and plane (host,
//! garbage collection, migration in from another tier), invalidation, erase, and the view victim
//! policies choose from. Everything here is in the tier's local addresses (its own geometry:
//! pages per block and blocks per plane may differ between tiers); the [`super::Ftl`] translates to
//! global physical pages and keeps the one mapping table. The store never decides what to collect or
//! where a page goes: that is placement's and the collectors' job.
//!
//! Host writes go to a plane by plane allocation (static: striped by logical page in
//! `ftl.plane_allocation_order`; dynamic: round-robin in that order). With confined logical ranges
//! (`Confinement`: a flow given its own channels, chips, dies and planes, `host/flows/resources.rs`)
//! a logical page in such a range goes to that range's planes only, striped over them (static) or
//! round-robin among them (dynamic), and a page outside every range to the planes no range holds
//! (every plane, when the ranges hold them all). The store knows ranges, not flows.

use super::block_manager::{
    BlockInfo, BlockState, PageTable, PlaneView, RecordAddress, FULL, INVALID_PAGE, VALID_MASK,
};
use super::free_list::FreeList;
use super::garbage_collection::VictimPolicy;
use super::wear_leveling::FreeBlockPolicy;
use crate::config::{PlaneAllocation, PlaneAllocationOrder};
use crate::error::FtlError;
use crate::geometry::{BlockIndex, Geometry, Lpn, PlaneIndex, Ppn};
use crate::retention::RetentionClock;
use crate::tier::TierId;

/// Operations counted per tier.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct FtlStats {
    pub host_pages_written: u64,
    /// Times GC started in a plane (each runs until the high watermark).
    pub gc_invocations: u64,
    /// Of those, in-place invocations that ended with the plane still below its high watermark: no
    /// victim left, or the plane stuck (`gc_invocations_stuck`). Many of them mean GC has no room to
    /// work in: the next write starts it again.
    pub gc_invocations_short: u64,
    /// Of the short ones, those that ended because every full block of the plane held only valid
    /// pages (dynamic allocation marks the plane stuck and writes go elsewhere).
    pub gc_invocations_stuck: u64,
    /// Victim blocks collected by GC.
    pub gc_blocks_collected: u64,
    /// Pages copied by GC within the tier.
    pub gc_pages_copied: u64,
    pub blocks_erased: u64,
    /// Pages moved out of this tier to another by its collector.
    pub pages_migrated_out: u64,
    /// Pages moved into this tier from another.
    pub pages_migrated_in: u64,
    /// Host overwrites of pages in a block-unit tier, each a block-modify-write.
    pub block_modify_writes: u64,
    /// Valid pages those block-modify-writes read and rewrote (besides the new data).
    pub block_modify_pages: u64,
    /// Pages a TRIM invalidated and unmapped.
    pub trimmed_pages: u64,
    /// RR-FDCA (seed 004): valid pages of fresh victims copied into screening blocks (step A; also
    /// counted in `gc_pages_copied`).
    pub screening_copies: u64,
    /// RR-FDCA: times round-robin passed over a block still being screened (step B).
    pub screening_skips: u64,
    /// RR-FDCA: victims a pair took beyond its two because their valid pages fell short of a TLC
    /// block (step A, `placement.accumulation = "tlc_block"`).
    pub accumulation_extra_victims: u64,
    /// RR-FDCA: frozen pages kept in MLC (written to the screening block instead of TLC) because the
    /// host read them while their block was being screened (`placement.screening_access`).
    pub screening_read_pages: u64,
    /// RR-FDCA: frozen pages that did not fit the pair's TLC block and were written back within the
    /// tier (step C5; also counted in `gc_pages_copied`).
    pub residual_pages: u64,
}

impl FtlStats {
    pub fn plus(&self, other: &FtlStats) -> FtlStats {
        FtlStats {
            host_pages_written: self.host_pages_written + other.host_pages_written,
            gc_invocations: self.gc_invocations + other.gc_invocations,
            gc_invocations_short: self.gc_invocations_short + other.gc_invocations_short,
            gc_invocations_stuck: self.gc_invocations_stuck + other.gc_invocations_stuck,
            gc_blocks_collected: self.gc_blocks_collected + other.gc_blocks_collected,
            gc_pages_copied: self.gc_pages_copied + other.gc_pages_copied,
            blocks_erased: self.blocks_erased + other.blocks_erased,
            pages_migrated_out: self.pages_migrated_out + other.pages_migrated_out,
            pages_migrated_in: self.pages_migrated_in + other.pages_migrated_in,
            block_modify_writes: self.block_modify_writes + other.block_modify_writes,
            block_modify_pages: self.block_modify_pages + other.block_modify_pages,
            trimmed_pages: self.trimmed_pages + other.trimmed_pages,
            screening_copies: self.screening_copies + other.screening_copies,
            screening_skips: self.screening_skips + other.screening_skips,
            accumulation_extra_victims: self.accumulation_extra_victims + other.accumulation_extra_victims,
            screening_read_pages: self.screening_read_pages + other.screening_read_pages,
            residual_pages: self.residual_pages + other.residual_pages,
        }
    }
}

/// The write streams that fill open blocks. Keeping them apart keeps data of different heat in
/// different blocks (host writes are hot, GC survivors warm, migrated pages cold).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Host,
    GarbageCollection,
    Migration,
}

pub(super) struct PlaneState {
    pub free: FreeList,
    /// Set (dynamic allocation only) when GC found no invalid page in any full block of the plane;
    /// host writes then go to other planes until an overwrite invalidates a page here.
    pub stuck: bool,
    /// Set by a device event: no new data is written here (reads and GC out of it continue).
    pub read_only: bool,
    frontiers: [Option<Frontier>; 3],
}

/// The open block a write stream fills, with what a page program needs of it kept here: a plane's
/// state stays in cache, while the block's record and its page-record slot sit in large arrays
/// that a random workload keeps evicting.
#[derive(Debug, Clone, Copy)]
struct Frontier {
    /// Block index within the plane.
    local: u32,
    /// Next page to program (the block's write pointer; its record's `written_pages` is brought up
    /// to date when the block fills).
    next_page: u32,
    /// The block's slot in the page table.
    slot: u32,
}

/// Logical ranges whose pages are written to a subset of the planes (see the module).
#[derive(Debug, Clone)]
pub(super) struct Confinement {
    /// The confined ranges, by first logical page.
    ranges: Vec<PlaneRange>,
    /// Pages outside every range: the planes no range holds, in striping order (`first` 0, `end`
    /// unused); None when the ranges hold every plane (such pages are striped over all of them).
    rest: Option<PlaneRange>,
}

/// Logical pages `first..end` written to `planes` (local plane indices, in striping order).
#[derive(Debug, Clone)]
pub struct PlaneRange {
    pub first: u32,
    pub end: u32,
    pub planes: Vec<u32>,
    /// Dynamic allocation's round-robin position among `planes`.
    cursor: u64,
}

impl PlaneRange {
    pub fn new(first: u32, end: u32, planes: Vec<u32>) -> Self {
        PlaneRange { first, end, planes, cursor: 0 }
    }

    /// The plane static allocation gives `lpn` (its position in the range, striped over the planes).
    fn static_plane(&self, lpn: Lpn) -> u32 {
        self.planes[((lpn.0 - self.first) as usize) % self.planes.len()]
    }
}

impl Confinement {
    /// The range holding `lpn`, or the rest of the device; None: stripe over every plane.
    fn range_of(&self, lpn: Lpn) -> Option<&PlaneRange> {
        let after = self.ranges.partition_point(|range| range.first <= lpn.0);
        match after.checked_sub(1).map(|index| &self.ranges[index]) {
            Some(range) if lpn.0 < range.end => Some(range),
            _ => self.rest.as_ref(),
        }
    }

    fn range_of_mut(&mut self, lpn: Lpn) -> Option<&mut PlaneRange> {
        let after = self.ranges.partition_point(|range| range.first <= lpn.0);
        match after.checked_sub(1) {
            Some(index) if lpn.0 < self.ranges[index].end => Some(&mut self.ranges[index]),
            _ => self.rest.as_mut(),
        }
    }
}

pub struct BlockStore {
    pub(super) geometry: Geometry,
    /// Stamps programmed pages (data age).
    pub(super) retention: RetentionClock,
    /// Where this tier's pages and blocks start in the device's global numbering.
    pub(super) first_page: u32,
    pub(super) first_block: u32,
    pub(super) first_plane: u32,
    pub(super) blocks: Vec<BlockInfo>,
    /// Per block: valid pages, plus [`FULL`] once the block is full (see `block_manager`).
    /// Dense and small, because an overwrite touches it at a random block.
    pub(super) keys: Vec<u16>,
    pub(super) pages: PageTable,
    pub(super) planes: Vec<PlaneState>,
    pub(super) victim_policy: Box<dyn VictimPolicy>,
    free_block_policy: Box<dyn FreeBlockPolicy>,
    pub(super) plane_allocation: PlaneAllocation,
    dynamic_cursor: u64,
    /// Confined logical ranges (None: every page striped over every plane, the usual case).
    confinement: Option<Box<Confinement>>,
    /// Planes marked stuck (so the common case, none, costs one compare per overwrite).
    pub(super) stuck_planes: usize,
    /// Planes marked read-only.
    pub(super) read_only_planes: usize,
    pub(super) low_watermark: usize,
    pub(super) high_watermark: usize,
    seal_counter: u64,
    /// The block `allocate` just sealed (full) whose last page is still to be programmed: its page
    /// records must stay even if an invalidation in between leaves it with no valid page.
    sealed_unprogrammed: usize,
    /// Pages holding the latest copy of some logical page.
    pub(super) valid_pages_total: u64,
    /// Pages the host may keep here (physical pages minus over-provisioning).
    pub(super) logical_capacity_pages: u64,
    /// Written in whole blocks: pages moving in fill one plane's block before another opens.
    pub(super) block_unit: bool,
    /// With `block_unit`: pages moving in are striped over an open block per plane instead.
    pub(super) striped_incoming: bool,
    /// A block-modify-write sends the new data to the write tier instead of the rewritten block.
    pub(super) overwrite_to_write_tier: bool,
    /// With `overwrite_to_write_tier`: the overwritten page's block is rewritten (block-modify-write);
    /// otherwise the page is only invalidated and the block left to garbage collection.
    pub(super) overwrite_rewrites_block: bool,
    /// A plane full of valid data is skipped by writes rather than failing (tiered devices).
    pub(super) redirect_when_full: bool,
    /// RR-FDCA screening by reads: one bit per (local) page, set when the host reads the page while
    /// its block is being screened, cleared when the block is erased. Empty when not screening reads.
    read_marks: Vec<u64>,
    pub stats: FtlStats,
}

pub(super) struct StoreSettings<'a> {
    pub victim_policy: Box<dyn VictimPolicy>,
    pub free_block_policy: Box<dyn FreeBlockPolicy>,
    pub plane_allocation: PlaneAllocation,
    pub plane_allocation_order: PlaneAllocationOrder,
    pub low_watermark: usize,
    pub high_watermark: usize,
    pub keep_tags: bool,
    pub logical_capacity_pages: u64,
    pub offsets: (u32, u32, u32),
    pub geometry: &'a Geometry,
    pub block_unit: bool,
    pub striped_incoming: bool,
    pub overwrite_to_write_tier: bool,
    pub overwrite_rewrites_block: bool,
    pub redirect_when_full: bool,
}

impl BlockStore {
    pub(super) fn new(settings: StoreSettings<'_>) -> Self {
        let mut geometry = settings.geometry.clone();
        if settings.plane_allocation_order != PlaneAllocationOrder::Cwdp {
            // (The default keeps the layout's striping: channel-first, or a ganged device's order.)
            geometry.set_stripe_order(settings.plane_allocation_order);
        }
        let planes = (0..geometry.planes_total())
            .map(|_| PlaneState {
                free: FreeList::new(geometry.blocks_per_plane),
                stuck: false,
                read_only: false,
                frontiers: [None; 3],
            })
            .collect();
        let blocks_total = geometry.blocks_total() as usize;
        BlockStore {
            // Zeroed (fresh) and committed by the OS only where written: see `block_manager`.
            blocks: super::block_manager::zeroed_records(blocks_total),
            keys: vec![0; blocks_total],
            pages: PageTable::new(blocks_total, geometry.pages_per_block, settings.keep_tags),
            planes,
            victim_policy: settings.victim_policy,
            free_block_policy: settings.free_block_policy,
            plane_allocation: settings.plane_allocation,
            dynamic_cursor: 0,
            confinement: None,
            stuck_planes: 0,
            read_only_planes: 0,
            low_watermark: settings.low_watermark,
            high_watermark: settings.high_watermark,
            seal_counter: 0,
            sealed_unprogrammed: usize::MAX,
            valid_pages_total: 0,
            logical_capacity_pages: settings.logical_capacity_pages,
            block_unit: settings.block_unit,
            striped_incoming: settings.striped_incoming,
            overwrite_to_write_tier: settings.overwrite_to_write_tier,
            overwrite_rewrites_block: settings.overwrite_rewrites_block,
            redirect_when_full: settings.redirect_when_full,
            read_marks: Vec::new(),
            retention: RetentionClock::default(),
            first_page: settings.offsets.0,
            first_block: settings.offsets.1,
            first_plane: settings.offsets.2,
            geometry,
            stats: FtlStats::default(),
        }
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Keeps a read mark per page (RR-FDCA screening by reads).
    pub(super) fn enable_read_marks(&mut self) {
        let pages = self.geometry.blocks_total() as usize * self.geometry.pages_per_block as usize;
        self.read_marks = vec![0; pages.div_ceil(64)];
    }

    /// Marks (local) page `local` as read by the host if its block is being screened (N_RDS >= 1).
    #[inline]
    pub(super) fn mark_read_if_screening(&mut self, local: Ppn) {
        if self.read_marks.is_empty() || self.blocks[self.geometry.block_of(local).0 as usize].screening_rounds == 0 {
            return;
        }
        self.read_marks[local.0 as usize / 64] |= 1 << (local.0 % 64);
    }

    /// Whether the host read (local) page `local` while its block was being screened.
    #[inline]
    pub(super) fn read_marked(&self, local: Ppn) -> bool {
        !self.read_marks.is_empty() && self.read_marks[local.0 as usize / 64] & (1 << (local.0 % 64)) != 0
    }

    /// Clears the read marks of (local) `block`'s pages.
    fn clear_read_marks(&mut self, block: BlockIndex) {
        if self.read_marks.is_empty() {
            return;
        }
        let pages = self.geometry.pages_per_block;
        for page in block.0 * pages..(block.0 + 1) * pages {
            self.read_marks[page as usize / 64] &= !(1 << (page % 64));
        }
    }
    pub fn valid_pages_total(&self) -> u64 {
        self.valid_pages_total
    }
    pub fn logical_capacity_pages(&self) -> u64 {
        self.logical_capacity_pages
    }

    #[inline]
    pub(super) fn global_page(&self, local: Ppn) -> Ppn {
        Ppn(local.0 + self.first_page)
    }
    #[inline]
    pub(super) fn local_page(&self, global: Ppn) -> Ppn {
        Ppn(global.0 - self.first_page)
    }

    /// Pages of a (local) block that hold the latest copy of some logical page.
    #[inline]
    pub fn valid_pages(&self, block: BlockIndex) -> u32 {
        (self.keys[block.0 as usize] & VALID_MASK) as u32
    }

    pub fn free_blocks(&self, plane: PlaneIndex) -> usize {
        self.planes[plane.0 as usize].free.len()
    }

    pub(super) fn plane_view(&self, plane: PlaneIndex, now_ns: u64) -> PlaneView<'_> {
        let start = (plane.0 * self.geometry.blocks_per_plane) as usize;
        let end = start + self.geometry.blocks_per_plane as usize;
        PlaneView {
            blocks: &self.blocks[start..end],
            keys: &self.keys[start..end],
            pages_per_block: self.geometry.pages_per_block,
            now_ns,
        }
    }

    /// The (local) block GC would collect next in a (local) plane.
    pub fn next_victim(&self, plane: PlaneIndex, now_ns: u64) -> Option<BlockIndex> {
        let view = self.plane_view(plane, now_ns);
        self.victim_policy.select(&view).map(|local| BlockIndex(plane.0 * self.geometry.blocks_per_plane + local))
    }

    /// The next `count` (local) blocks GC would collect in a (local) plane, in order, if nothing
    /// changed meanwhile (`VictimPolicy::rank`).
    pub fn next_victims(&self, plane: PlaneIndex, count: usize, now_ns: u64) -> Vec<BlockIndex> {
        let view = self.plane_view(plane, now_ns);
        let first = plane.0 * self.geometry.blocks_per_plane;
        self.victim_policy.rank(&view, count).into_iter().map(|local| BlockIndex(first + local)).collect()
    }

    /// The (local) block round-robin order collects next in a (local) plane, whatever the tier's
    /// victim policy (RR-FDCA is defined on round-robin order).
    pub(super) fn round_robin_victim(&self, plane: PlaneIndex) -> Option<BlockIndex> {
        use super::garbage_collection::VictimPolicy;
        let view = self.plane_view(plane, 0);
        super::garbage_collection::RoundRobin
            .select(&view)
            .map(|local| BlockIndex(plane.0 * self.geometry.blocks_per_plane + local))
    }

    /// A (local) block's screening round number (seed 004's N_RDS).
    pub fn screening_rounds(&self, block: BlockIndex) -> u8 {
        self.blocks[block.0 as usize].screening_rounds
    }

    /// Round-robin passes over a (local) full block without collecting it: one more screening
    /// round, and the block goes to the back of the round-robin order (as if sealed now).
    pub(super) fn pass_over(&mut self, block: BlockIndex) {
        let info = &mut self.blocks[block.0 as usize];
        info.screening_rounds = info.screening_rounds.saturating_add(1);
        info.sealed_sequence = self.seal_counter;
        self.seal_counter += 1;
        self.stats.screening_skips += 1;
    }

    /// The plane a host write of `lpn` goes to next (static: by logical page; dynamic: round-robin).
    #[inline]
    pub fn plane_for_write(&self, lpn: Lpn) -> PlaneIndex {
        if let Some(confinement) = &self.confinement {
            if let Some(range) = confinement.range_of(lpn) {
                return PlaneIndex(match self.plane_allocation {
                    PlaneAllocation::Static => range.static_plane(lpn),
                    PlaneAllocation::Dynamic => range.planes[(range.cursor % range.planes.len() as u64) as usize],
                });
            }
        }
        match self.plane_allocation {
            PlaneAllocation::Static => self.geometry.stripe_plane(lpn.0 as u64),
            PlaneAllocation::Dynamic => self.geometry.stripe_plane(self.dynamic_cursor),
        }
    }

    /// The plane a host write of `lpn` takes, moving the dynamic cursor and stepping over stuck or
    /// read-only planes.
    #[inline(always)]
    /// The plane a host write of `lpn` goes to; None when every plane left is read-only (no chip of
    /// the tier in service).
    pub(super) fn take_plane_for_write(&mut self, lpn: Lpn) -> Option<PlaneIndex> {
        if self.confinement.is_some() {
            return self.take_confined_plane(lpn);
        }
        let mut plane = self.plane_for_write(lpn);
        if self.plane_allocation == PlaneAllocation::Dynamic {
            self.dynamic_cursor += 1;
        }
        if (self.stuck_planes > 0 || self.read_only_planes > 0) && !self.writable(plane) {
            // A plane whose blocks hold only valid data cannot make room, and a read-only one takes
            // nothing new; write elsewhere (see `collector::in_place`). (Checked only here, off the
            // common path: a plane outside this branch is never read-only.)
            plane = self.next_writable(plane).unwrap_or(plane);
            if self.is_read_only(plane) {
                return None;
            }
        }
        Some(plane)
    }

    /// Confines logical ranges to subsets of the planes (see the module): `ranges` by first page,
    /// disjoint, each with its local planes in striping order. Empty: no confinement.
    pub(super) fn confine(&mut self, mut ranges: Vec<PlaneRange>) {
        if ranges.is_empty() {
            self.confinement = None;
            return;
        }
        ranges.sort_by_key(|range| range.first);
        let held: std::collections::HashSet<u32> =
            ranges.iter().flat_map(|range| range.planes.iter().copied()).collect();
        let rest: Vec<u32> = (0..self.geometry.planes_total() as u64)
            .map(|step| self.geometry.stripe_plane(step).0)
            .filter(|plane| !held.contains(plane))
            .collect();
        let rest = (!rest.is_empty()).then(|| PlaneRange::new(0, u32::MAX, rest));
        self.confinement = Some(Box::new(Confinement { ranges, rest }));
    }

    /// The confined ranges (empty without confinement).
    pub fn confined_ranges(&self) -> &[PlaneRange] {
        self.confinement.as_deref().map_or(&[], |confinement| &confinement.ranges)
    }

    /// `take_plane_for_write` with confined ranges: the range's plane (moving its round-robin
    /// position under dynamic allocation); a stuck or read-only one is passed over for the next
    /// writable plane of the range, or, when none is left there, of the device (the data must go
    /// somewhere; `collector::in_place` marks a plane stuck only under dynamic allocation).
    #[cold]
    #[inline(never)]
    fn take_confined_plane(&mut self, lpn: Lpn) -> Option<PlaneIndex> {
        let allocation = self.plane_allocation;
        let range = self.confinement.as_deref_mut().and_then(|confinement| confinement.range_of_mut(lpn));
        let Some(range) = range else {
            // Every plane is held by some range and `lpn` is in none: striped over the device.
            let mut plane = match allocation {
                PlaneAllocation::Static => self.geometry.stripe_plane(lpn.0 as u64),
                PlaneAllocation::Dynamic => {
                    self.dynamic_cursor += 1;
                    self.geometry.stripe_plane(self.dynamic_cursor - 1)
                }
            };
            if !self.writable(plane) {
                plane = self.next_writable(plane).unwrap_or(plane);
            }
            return (!self.is_read_only(plane)).then_some(plane);
        };
        let count = range.planes.len();
        let position = match allocation {
            PlaneAllocation::Static => (lpn.0.wrapping_sub(range.first) as usize) % count,
            PlaneAllocation::Dynamic => {
                range.cursor += 1;
                ((range.cursor - 1) % count as u64) as usize
            }
        };
        let plane = PlaneIndex(range.planes[position]);
        if self.writable(plane) {
            return Some(plane);
        }
        let range = self.confinement.as_deref().and_then(|confinement| confinement.range_of(lpn))?;
        let in_range =
            (1..count).map(|step| PlaneIndex(range.planes[(position + step) % count])).find(|&p| self.writable(p));
        let plane = in_range.or_else(|| self.next_writable(plane)).unwrap_or(plane);
        (!self.is_read_only(plane)).then_some(plane)
    }

    /// Whether some plane takes new data (not stuck, not read-only).
    pub(super) fn any_writable_plane(&self) -> bool {
        (0..self.planes.len()).any(|plane| self.writable(PlaneIndex(plane as u32)))
    }

    fn writable(&self, plane: PlaneIndex) -> bool {
        let state = &self.planes[plane.0 as usize];
        !state.stuck && !state.read_only
    }

    /// The next plane after `plane` (in index order, wrapping) that takes new data.
    pub(super) fn next_writable(&self, plane: PlaneIndex) -> Option<PlaneIndex> {
        let planes = self.planes.len();
        (1..planes)
            .map(|step| (plane.0 as usize + step) % planes)
            .find(|&index| self.writable(PlaneIndex(index as u32)))
            .map(|index| PlaneIndex(index as u32))
    }

    /// A plane for data moved into this tier: the writable plane with the most free blocks, ties
    /// broken round-robin in striping order. (Plain round-robin let one plane fill with valid data
    /// while the tier still had room: block-modify-writes and drains move data unevenly.)
    pub(super) fn take_plane_for_migration(&mut self) -> PlaneIndex {
        let planes = self.planes.len() as u64;
        let start = self.dynamic_cursor;
        self.dynamic_cursor += 1;
        let mut best: Option<(usize, PlaneIndex)> = None;
        for step in 0..planes {
            let plane = self.geometry.stripe_plane(start + step);
            if !self.writable(plane) {
                continue;
            }
            let free = self.planes[plane.0 as usize].free.len();
            if best.is_none_or(|(most, _)| free > most) {
                best = Some((free, plane));
            }
        }
        best.map_or_else(|| self.geometry.stripe_plane(start), |(_, plane)| plane)
    }

    /// A plane for a page drained off a chip leaving service (`Destination::OtherPlanes`): the next
    /// writable plane in striping order among those within one block of the most free blocks. A
    /// bulk copy spreads its pages over every destination die page by page, as a controller stripes
    /// it (seed 004's chip exchange: the copy's pace is that of all destination dies), while no
    /// plane falls more than a block behind the others (the reason `take_plane_for_migration`
    /// prefers the most free blocks).
    /// A block-unit tier keeps filling its open incoming block (`plane_for_incoming`).
    pub(super) fn take_plane_for_drain(&mut self) -> PlaneIndex {
        if self.block_unit {
            return self.plane_for_incoming();
        }
        self.take_plane_striped()
    }

    /// The next writable plane in striping order among those within one block of the most free
    /// blocks (every eligible plane takes one page in turn).
    fn take_plane_striped(&mut self) -> PlaneIndex {
        let most = (0..self.planes.len() as u32)
            .map(PlaneIndex)
            .filter(|&plane| self.writable(plane))
            .map(|plane| self.planes[plane.0 as usize].free.len())
            .max();
        let Some(most) = most else { return self.take_plane_for_migration() };
        let planes = self.planes.len() as u64;
        let start = self.dynamic_cursor;
        // The cursor moves past the plane taken, so a plane passed over (read-only, or short of
        // room) does not hand its turn to the plane after it: every eligible plane takes one page
        // in turn.
        let step = (0..planes)
            .find(|&step| {
                let plane = self.geometry.stripe_plane(start + step);
                self.writable(plane) && self.planes[plane.0 as usize].free.len() + 1 >= most
            })
            .unwrap_or(0);
        self.dynamic_cursor = start + step + 1;
        self.geometry.stripe_plane(start + step)
    }

    /// The plane the next page moving into this tier goes to: the one with the most free blocks,
    /// page by page, or, in a block-unit tier, the plane whose incoming block is open until that
    /// block is full.
    pub(super) fn plane_for_incoming(&mut self) -> PlaneIndex {
        if self.block_unit {
            if self.striped_incoming {
                // A block open on every plane, pages striped over them: the dies program in parallel.
                return self.take_plane_striped();
            }
            if let Some(plane) = self.open_incoming_plane() {
                return plane;
            }
        }
        self.take_plane_for_migration()
    }

    /// Pages left in the open migration-stream block of a plane (0 when none is open).
    pub(super) fn incoming_room(&self, plane: PlaneIndex) -> u32 {
        self.planes[plane.0 as usize].frontiers[Stream::Migration as usize]
            .map_or(0, |frontier| self.geometry.pages_per_block - frontier.next_page)
    }

    /// The plane whose migration-stream block is open (partly written), if any; none when pages
    /// moving in are striped over every plane (no one block to finish).
    pub(super) fn open_incoming_plane(&self) -> Option<PlaneIndex> {
        if self.striped_incoming {
            return None;
        }
        self.planes
            .iter()
            .position(|plane| plane.frontiers[Stream::Migration as usize].is_some() && !plane.read_only && !plane.stuck)
            .map(|index| PlaneIndex(index as u32))
    }

    /// Marks a (local) plane read-only or writable again.
    pub(super) fn set_read_only(&mut self, plane: PlaneIndex, read_only: bool) {
        let state = &mut self.planes[plane.0 as usize];
        if state.read_only != read_only {
            state.read_only = read_only;
            if read_only {
                self.read_only_planes += 1;
                // Its open blocks stay as they are: partly written, collected like full ones later.
            } else {
                self.read_only_planes -= 1;
            }
        }
    }

    pub(super) fn is_read_only(&self, plane: PlaneIndex) -> bool {
        self.planes[plane.0 as usize].read_only
    }

    /// The next page of the stream's open block in a (local) plane, opening one if needed, and its
    /// page record's index.
    pub(super) fn allocate(
        &mut self,
        plane: PlaneIndex,
        stream: Stream,
        now_ns: u64,
    ) -> Result<(Ppn, RecordAddress), FtlError> {
        let blocks_per_plane = self.geometry.blocks_per_plane;
        let pages_per_block = self.geometry.pages_per_block;
        let state = &mut self.planes[plane.0 as usize];
        let frontier = &mut state.frontiers[stream as usize];
        let current = match *frontier {
            Some(current) => current,
            None => {
                let start = (plane.0 * blocks_per_plane) as usize;
                let plane_blocks = &self.blocks[start..start + blocks_per_plane as usize];
                let local = self.free_block_policy.take(&mut state.free, plane_blocks).ok_or_else(|| FtlError::DeviceFull {
                    plane: plane.0 + self.first_plane,
                    message: "no free block left to write into; the workload's footprint does not fit the physical capacity with the GC reserve".into(),
                })?;
                let global = start + local as usize;
                self.blocks[global].state = BlockState::Open;
                // Seed 004's N_RDS: blocks of GC copies start their first screening round.
                self.blocks[global].screening_rounds = (stream == Stream::GarbageCollection) as u8;
                let slot = self.pages.ensure(global);
                Frontier { local, next_page: self.blocks[global].written_pages, slot }
            }
        };
        let index = (plane.0 * blocks_per_plane + current.local) as usize;
        let page = current.next_page;
        if page + 1 == pages_per_block {
            // The block's record is brought up to date when it fills: while it is open the frontier
            // holds its write pointer, and its last-write time (cost-benefit's age) only matters
            // once it is a GC candidate. (Writing the record on every page stalled the write path.)
            let block = &mut self.blocks[index];
            block.written_pages = pages_per_block;
            block.last_write_ns = now_ns;
            block.state = BlockState::Full;
            self.keys[index] |= FULL;
            block.sealed_sequence = self.seal_counter;
            self.seal_counter += 1;
            self.sealed_unprogrammed = index;

            *frontier = None;
        } else {
            *frontier = Some(Frontier { next_page: page + 1, ..current });
        }
        Ok((Ppn(index as u32 * pages_per_block + page), RecordAddress { slot: current.slot, page }))
    }

    /// Records a program of a (local) page whose record is at `record`, as `allocate` returned.
    #[inline]
    pub(super) fn program(&mut self, local: Ppn, record: RecordAddress, lpn: Lpn, now_ns: u64, tag: u32) {
        // (The block's last-write time is set when it fills; see `allocate`.)
        let block = self.geometry.block_of(local).0 as usize;
        self.pages.record_program_at(record, lpn.0, self.retention.stamp(now_ns), tag);
        self.keys[block] += 1;
        self.valid_pages_total += 1;
        self.sealed_unprogrammed = usize::MAX;
    }

    /// A (local) page no longer holds its owner's latest data.
    #[inline]
    pub(super) fn invalidate(&mut self, local: Ppn) {
        let block = self.geometry.block_of(local).0 as usize;
        let page = self.geometry.page_in_block(local) as usize;
        self.pages.invalidate(block, page);
        self.keys[block] -= 1;
        self.valid_pages_total -= 1;
        if self.keys[block] == FULL && block != self.sealed_unprogrammed {
            // Full and nothing valid left: its page records are no longer needed.
            self.pages.release(block);
        }
        if self.stuck_planes > 0 {
            let plane = block / self.geometry.blocks_per_plane as usize;
            if std::mem::take(&mut self.planes[plane].stuck) {
                self.stuck_planes -= 1;
            }
        }
    }

    pub(super) fn erase(&mut self, block: BlockIndex) {
        let info = &mut self.blocks[block.0 as usize];
        info.erase_count += 1;
        self.keys[block.0 as usize] = 0;
        info.written_pages = 0;
        info.state = BlockState::Free;
        info.screening_rounds = 0;
        self.pages.reset(block.0 as usize);
        self.clear_read_marks(block);
        self.stats.blocks_erased += 1;
        let plane = self.geometry.plane_of_block(block);
        self.planes[plane.0 as usize].free.push_back(block.0 % self.geometry.blocks_per_plane);
    }

    /// The owner of each written page of a (local) block, in page order ([`INVALID_PAGE`] for pages
    /// without valid data).
    pub(super) fn owner(&self, block: BlockIndex, page: u32) -> u32 {
        self.pages.owner(block.0 as usize, page as usize)
    }

    pub(super) fn tag_local(&self, local: Ppn) -> u32 {
        self.pages.tag(self.geometry.block_of(local).0 as usize, self.geometry.page_in_block(local) as usize)
    }

    pub(super) fn program_time_ms_local(&self, local: Ppn) -> u32 {
        let block = self.geometry.block_of(local).0 as usize;
        self.pages.get(block, self.geometry.page_in_block(local) as usize).map_or(0, |entry| entry.program_time_ms)
    }

    /// Restamps a programmed (local) page as `stamp` on the retention clock (preconditioned data
    /// given an initial age).
    pub(super) fn restamp_local(&mut self, local: Ppn, stamp: u32) {
        let block = self.geometry.block_of(local).0 as usize;
        self.pages.set_program_time(block, self.geometry.page_in_block(local) as usize, stamp);
    }

    /// Mark a plane stuck (dynamic allocation: nothing to gain by GC there until an overwrite).
    pub(super) fn mark_stuck(&mut self, plane: PlaneIndex, stuck: bool) {
        let state = &mut self.planes[plane.0 as usize];
        if state.stuck != stuck {
            state.stuck = stuck;
            if stuck {
                self.stuck_planes += 1;
            } else {
                self.stuck_planes -= 1;
            }
        }
    }

    /// (min, sum, max, blocks) of erase counts.
    pub fn erase_counts(&self) -> (u32, u64, u32, usize) {
        let mut min = u32::MAX;
        let mut max = 0;
        let mut sum = 0u64;
        for block in &self.blocks {
            min = min.min(block.erase_count);
            max = max.max(block.erase_count);
            sum += block.erase_count as u64;
        }
        (if self.blocks.is_empty() { 0 } else { min }, sum, max, self.blocks.len())
    }

    pub(super) fn age(
        &mut self,
        pe_cycles: u32,
        spread_fraction: f64,
        rng: &mut ssdlab_engine::random::Xoshiro256PlusPlus,
    ) {
        for block in &mut self.blocks {
            let factor = 1.0 + spread_fraction * (2.0 * rng.next_f64() - 1.0);
            block.erase_count = block.erase_count.saturating_add((pe_cycles as f64 * factor).round().max(0.0) as u32);
        }
    }

    pub(super) fn memory_bytes(&self) -> u64 {
        (self.blocks.capacity() * std::mem::size_of::<BlockInfo>() + self.keys.capacity() * 2) as u64
            + self.pages.memory_bytes()
    }

    /// Pages written into a (local) block: an open block's write pointer is in its plane's frontier.
    pub(super) fn written_pages(&self, block: usize) -> u32 {
        let plane = &self.planes[block / self.geometry.blocks_per_plane as usize];
        let local = (block % self.geometry.blocks_per_plane as usize) as u32;
        plane
            .frontiers
            .iter()
            .flatten()
            .find(|frontier| frontier.local == local)
            .map_or(self.blocks[block].written_pages, |frontier| frontier.next_page)
    }

    /// Checks the store's own invariants and calls `owner_of` for every valid page (local page,
    /// owner) so the FTL can check the mapping; returns the number of valid pages.
    pub(super) fn check_invariants(
        &self,
        mut owner_of: impl FnMut(Ppn, u32) -> Result<(), String>,
    ) -> Result<u64, String> {
        let pages_per_block = self.geometry.pages_per_block;
        let mut valid_total = 0u64;
        for (index, stored) in self.blocks.iter().enumerate() {
            let mut info = *stored;
            info.written_pages = self.written_pages(index);
            let valid = self.pages.owners(index).filter(|&o| o != INVALID_PAGE).count() as u32;
            let counted = (self.keys[index] & VALID_MASK) as u32;
            if (self.keys[index] & FULL != 0) != (info.state == BlockState::Full) {
                return Err(format!("block {index}: key flag disagrees with state {:?}", info.state));
            }
            if valid != counted {
                return Err(format!("block {index}: valid count {counted} but {valid} pages have owners"));
            }
            if info.written_pages > pages_per_block || counted > info.written_pages {
                return Err(format!("block {index}: written {} valid {counted}", info.written_pages));
            }
            if info.state == BlockState::Free && info.written_pages != 0 {
                return Err(format!("block {index}: free but has {} written pages", info.written_pages));
            }
            for (page, owner) in self.pages.owners(index).enumerate() {
                if owner == INVALID_PAGE {
                    continue;
                }
                if page as u32 >= info.written_pages {
                    return Err(format!("block {index}: page {page} has an owner beyond the write pointer"));
                }
                owner_of(Ppn(index as u32 * pages_per_block + page as u32), owner)?;
            }
            valid_total += valid as u64;
        }
        if valid_total != self.valid_pages_total {
            return Err(format!("{valid_total} valid pages but the running count says {}", self.valid_pages_total));
        }
        for (plane, state) in self.planes.iter().enumerate() {
            for local in state.free.iter() {
                let index = plane as u32 * self.geometry.blocks_per_plane + local;
                if self.blocks[index as usize].state != BlockState::Free {
                    return Err(format!("block {index} is on the free list but not free"));
                }
            }
        }
        Ok(valid_total)
    }
}

/// Every tier's block store, the first held inline: on a one-tier device (the usual case) its arrays
/// are one load away from the FTL, as they were before tiers existed, instead of behind a second
/// pointer. The write path is bound by the cache misses of random overwrites, and a dependent load
/// in front of each miss showed as ~10 % of replay time.
pub struct Stores {
    first: BlockStore,
    rest: Vec<BlockStore>,
}

impl Stores {
    pub fn new(mut stores: Vec<BlockStore>) -> Self {
        assert!(!stores.is_empty(), "a device has at least one tier (validated)");
        let rest = stores.split_off(1);
        let first = stores.pop().expect("one store left");
        Stores { first, rest }
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        1 + self.rest.len()
    }
    pub fn is_empty(&self) -> bool {
        false
    }
    /// The last tier (in layout order) whose store satisfies `starts_before` (a global address at or
    /// after the tier's first one), or 0.
    pub fn last_tier_where(&self, starts_before: impl Fn(&BlockStore) -> bool) -> TierId {
        TierId::all(self.len()).rev().find(|&tier| starts_before(&self[tier])).unwrap_or(TierId::FIRST)
    }

    pub fn iter(&self) -> impl Iterator<Item = &BlockStore> {
        std::iter::once(&self.first).chain(self.rest.iter())
    }
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut BlockStore> {
        std::iter::once(&mut self.first).chain(self.rest.iter_mut())
    }
}

impl std::ops::Index<TierId> for Stores {
    type Output = BlockStore;
    #[inline(always)]
    fn index(&self, tier: TierId) -> &BlockStore {
        if tier == TierId::FIRST {
            &self.first
        } else {
            &self.rest[tier.index() - 1]
        }
    }
}

impl std::ops::IndexMut<TierId> for Stores {
    #[inline(always)]
    fn index_mut(&mut self, tier: TierId) -> &mut BlockStore {
        if tier == TierId::FIRST {
            &mut self.first
        } else {
            &mut self.rest[tier.index() - 1]
        }
    }
}
