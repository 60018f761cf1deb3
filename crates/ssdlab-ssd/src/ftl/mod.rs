//! Flash translation layer: page-level mapping, block manager, garbage collection, wear leveling.
//!
//! What it models: out-of-place page writes into one open host block and one open GC block per
//! plane; per-plane GC that starts below a low watermark of free blocks and runs until a high
//! watermark, copying valid pages within the plane; victim and free-block policies as plug-ins;
//! fast aging; the ability to name the next GC victim ahead of time. With dynamic plane allocation a
//! plane whose full blocks hold only valid data is marked stuck and skipped by host writes until an
//! overwrite frees one of its pages; the device is full only when every plane is stuck.
//! What it leaves out: mapping-table caching (the whole table is in controller DRAM, as in MQSim's
//! default), static wear leveling by cold-data migration, bad blocks, power loss.
//! Timing is not decided here: the FTL returns the flash operations it needs (GC reads, programs,
//! erases) and the scheduler books them.

pub mod block_manager;
pub mod garbage_collection;
pub mod mapping;
pub mod wear_leveling;
#[cfg(test)]
mod tests;

use crate::config::{FtlConfig, PlaneAllocation};
use crate::error::FtlError;
use crate::geometry::{BlockIndex, Geometry, Lpn, PlaneIndex, Ppn};
use block_manager::{BlockInfo, BlockState, PageTable, PlaneView, RecordAddress, INVALID_PAGE, NOT_FULL, VALID_MASK};
use garbage_collection::VictimPolicy;
use mapping::MappingTable;
use ssdlab_engine::random::Xoshiro256PlusPlus;
use std::collections::VecDeque;
use wear_leveling::FreeBlockPolicy;

/// A flash operation the FTL needs beyond the host's own page program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlashOp {
    GcRead { ppn: Ppn },
    GcProgram { ppn: Ppn },
    Erase { block: BlockIndex },
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct FtlStats {
    pub host_pages_written: u64,
    /// Times GC started in a plane (each runs until the high watermark).
    pub gc_invocations: u64,
    /// Victim blocks collected by GC.
    pub gc_blocks_collected: u64,
    pub gc_pages_copied: u64,
    pub blocks_erased: u64,
}

#[derive(Debug, Clone, Copy)]
enum Stream {
    Host,
    GarbageCollection,
}

struct PlaneState {
    free: VecDeque<u32>,
    /// Set (dynamic allocation only) when GC found no invalid page in any full block of the plane;
    /// host writes then go to other planes until an overwrite invalidates a page here.
    stuck: bool,
    host_frontier: Option<Frontier>,
    gc_frontier: Option<Frontier>,
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

pub struct Ftl {
    geometry: Geometry,
    mapping: MappingTable,
    blocks: Vec<BlockInfo>,
    /// Per block: valid pages, plus [`NOT_FULL`] unless the block is full (see `block_manager`).
    /// Dense and small, because an overwrite touches it at a random block.
    keys: Vec<u16>,
    pages: PageTable,
    planes: Vec<PlaneState>,
    victim_policy: Box<dyn VictimPolicy>,
    free_block_policy: Box<dyn FreeBlockPolicy>,
    plane_allocation: PlaneAllocation,
    dynamic_cursor: u64,
    /// Planes marked stuck (so the common case, none, costs one compare per overwrite).
    stuck_planes: usize,
    low_watermark: usize,
    high_watermark: usize,
    logical_pages: u64,
    seal_counter: u64,
    pub stats: FtlStats,
}

impl Ftl {
    /// `logical_pages` is the size of the logical page space the host may address.
    pub fn new(geometry: Geometry, config: &FtlConfig, logical_pages: u64, keep_tags: bool) -> Self {
        let planes = (0..geometry.planes_total())
            .map(|_| PlaneState { free: (0..geometry.blocks_per_plane).collect(), stuck: false, host_frontier: None, gc_frontier: None })
            .collect();
        let blocks_total = geometry.blocks_total() as usize;
        Ftl {
            mapping: MappingTable::new(logical_pages),
            blocks: vec![BlockInfo::fresh(); blocks_total],
            keys: vec![NOT_FULL; blocks_total],
            pages: PageTable::new(blocks_total, geometry.pages_per_block, keep_tags),
            planes,
            victim_policy: garbage_collection::build(config.garbage_collection.policy),
            free_block_policy: wear_leveling::build(config.wear_leveling.policy),
            plane_allocation: config.plane_allocation,
            dynamic_cursor: 0,
            stuck_planes: 0,
            low_watermark: config.garbage_collection.low_watermark_blocks as usize,
            high_watermark: config.garbage_collection.high_watermark_blocks as usize,
            logical_pages,
            seal_counter: 0,
            geometry,
            stats: FtlStats::default(),
        }
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    pub fn logical_pages(&self) -> u64 {
        self.logical_pages
    }
    pub fn victim_policy_name(&self) -> &'static str {
        self.victim_policy.name()
    }

    #[inline]
    pub fn lookup(&self, lpn: Lpn) -> Option<Ppn> {
        self.mapping.get(lpn)
    }

    pub fn mapped_pages(&self) -> u64 {
        self.mapping.mapped_pages()
    }

    /// The integrity tag stored with a physical page (0 when tags are off).
    pub fn tag(&self, ppn: Ppn) -> u32 {
        self.pages.tag(self.geometry.block_of(ppn).0 as usize, self.geometry.page_in_block(ppn) as usize)
    }

    /// Program time of a physical page in ms of simulated time.
    pub fn program_time_ms(&self, ppn: Ppn) -> u32 {
        let block = self.geometry.block_of(ppn).0 as usize;
        self.pages.get(block, self.geometry.page_in_block(ppn) as usize).map_or(0, |entry| entry.program_time_ms)
    }

    pub fn block(&self, block: BlockIndex) -> &BlockInfo {
        &self.blocks[block.0 as usize]
    }

    /// Pages of `block` that hold the latest copy of some logical page.
    pub fn valid_pages(&self, block: BlockIndex) -> u32 {
        (self.keys[block.0 as usize] & VALID_MASK) as u32
    }

    /// Logical pages still valid in a block, in page order (the overwrite-recommendation list a
    /// middleware can build from the next victim).
    pub fn valid_pages_of(&self, block: BlockIndex) -> impl Iterator<Item = Lpn> + '_ {
        self.pages.owners(block.0 as usize).filter(|&o| o != INVALID_PAGE).map(Lpn)
    }

    /// The block garbage collection would collect next in `plane`, if GC ran now.
    pub fn next_victim(&self, plane: PlaneIndex, now_ns: u64) -> Option<BlockIndex> {
        let view = self.plane_view(plane, now_ns);
        self.victim_policy.select(&view).map(|local| BlockIndex(plane.0 * self.geometry.blocks_per_plane + local))
    }

    pub fn free_blocks(&self, plane: PlaneIndex) -> usize {
        self.planes[plane.0 as usize].free.len()
    }

    /// The plane a write of `lpn` would go to next.
    pub fn plane_for_write(&self, lpn: Lpn) -> PlaneIndex {
        match self.plane_allocation {
            PlaneAllocation::Static => self.geometry.stripe_plane(lpn.0 as u64),
            PlaneAllocation::Dynamic => self.geometry.stripe_plane(self.dynamic_cursor),
        }
    }

    fn plane_view(&self, plane: PlaneIndex, now_ns: u64) -> PlaneView<'_> {
        let start = (plane.0 * self.geometry.blocks_per_plane) as usize;
        PlaneView {
            blocks: &self.blocks[start..start + self.geometry.blocks_per_plane as usize],
            keys: &self.keys[start..start + self.geometry.blocks_per_plane as usize],
            pages_per_block: self.geometry.pages_per_block, now_ns }
    }

    /// Starts loading `lpn`'s mapping entry.
    #[inline]
    pub fn prefetch_mapping(&self, lpn: Lpn) {
        self.mapping.prefetch(lpn);
    }

    /// Starts loading what overwriting `lpn` will touch (its old page's validity word and its
    /// block's key), so the cache misses of a multi-page request overlap instead of following one
    /// another.
    #[inline]
    pub fn prefetch_overwrite(&self, lpn: Lpn) {
        if let Some(ppn) = self.mapping.get(lpn) {
            let block = self.geometry.block_of(ppn).0 as usize;
            block_manager::prefetch_read(self.keys.as_ptr().wrapping_add(block));
            self.pages.prefetch(block, self.geometry.page_in_block(ppn) as usize);
        }
    }

    /// Writes one logical page out of place. Returns the new physical page; appends the GC work this
    /// write set off to `ops`.
    pub fn write(&mut self, lpn: Lpn, now_ns: u64, tag: u32, ops: &mut Vec<FlashOp>) -> Result<Ppn, FtlError> {
        if lpn.0 as u64 >= self.logical_pages {
            return Err(FtlError::LogicalPageOutOfRange { lpn: lpn.0 as u64, logical_pages: self.logical_pages });
        }
        let mut plane = self.plane_for_write(lpn);
        if self.plane_allocation == PlaneAllocation::Dynamic {
            self.dynamic_cursor += 1;
            if self.stuck_planes > 0 && self.planes[plane.0 as usize].stuck {
                // A plane whose blocks hold only valid data cannot make room; write elsewhere until an
                // overwrite invalidates one of its pages (see `collect`).
                let planes = self.planes.len();
                if let Some(other) = (1..planes).map(|step| (plane.0 as usize + step) % planes).find(|&index| !self.planes[index].stuck) {
                    plane = PlaneIndex(other as u32);
                }
            }
        }
        let (ppn, record) = self.allocate(plane, Stream::Host, now_ns)?;
        if let Some(old) = self.mapping.set(lpn, ppn) {
            self.invalidate(old);
        }
        self.program(ppn, record, lpn, now_ns, tag);
        self.stats.host_pages_written += 1;
        if self.planes[plane.0 as usize].free.len() < self.low_watermark {
            self.collect(plane, now_ns, ops)?;
        }
        Ok(ppn)
    }

    /// The next page of the stream's open block (opening one if needed) and its page record's index.
    fn allocate(&mut self, plane: PlaneIndex, stream: Stream, now_ns: u64) -> Result<(Ppn, RecordAddress), FtlError> {
        let blocks_per_plane = self.geometry.blocks_per_plane;
        let pages_per_block = self.geometry.pages_per_block;
        let state = &mut self.planes[plane.0 as usize];
        let frontier = match stream {
            Stream::Host => &mut state.host_frontier,
            Stream::GarbageCollection => &mut state.gc_frontier,
        };
        let current = match *frontier {
            Some(current) => current,
            None => {
                let start = (plane.0 * blocks_per_plane) as usize;
                let plane_blocks = &self.blocks[start..start + blocks_per_plane as usize];
                let local = self.free_block_policy.take(&mut state.free, plane_blocks).ok_or_else(|| FtlError::DeviceFull {
                    plane: plane.0,
                    message: "no free block left to write into; the workload's footprint does not fit the physical capacity with the GC reserve".into(),
                })?;
                let global = start + local as usize;
                self.blocks[global].state = BlockState::Open;
                let slot = self.pages.ensure(global);
                Frontier { local, next_page: self.blocks[global].written_pages, slot }
            }
        };
        let global = (plane.0 * blocks_per_plane + current.local) as usize;
        let page = current.next_page;
        if page + 1 == pages_per_block {
            // The block's record is brought up to date when it fills: while it is open the frontier
            // holds its write pointer, and its last-write time (cost-benefit's age) only matters
            // once it is a GC candidate. (Writing the record on every page stalled the write path.)
            let block = &mut self.blocks[global];
            block.written_pages = pages_per_block;
            block.last_write_ns = now_ns;
            block.state = BlockState::Full;
            self.keys[global] &= VALID_MASK;
            block.sealed_sequence = self.seal_counter;
            self.seal_counter += 1;
            *frontier = None;
        } else {
            *frontier = Some(Frontier { next_page: page + 1, ..current });
        }
        Ok((Ppn(global as u32 * pages_per_block + page), RecordAddress { slot: current.slot, page }))
    }

    /// Records a program of `ppn` (whose page record is at `record`, as `allocate` returned).
    fn program(&mut self, ppn: Ppn, record: RecordAddress, lpn: Lpn, now_ns: u64, tag: u32) {
        // (The block's last-write time is set when it fills; see `allocate`.)
        let block = self.geometry.block_of(ppn).0 as usize;
        self.pages.record_program_at(record, lpn.0, (now_ns / 1_000_000).min(u32::MAX as u64) as u32, tag);
        self.keys[block] += 1;
    }

    fn invalidate(&mut self, ppn: Ppn) {
        let block = self.geometry.block_of(ppn).0 as usize;
        let page = self.geometry.page_in_block(ppn) as usize;
        self.pages.invalidate(block, page);
        self.keys[block] -= 1;
        if self.stuck_planes > 0 {
            let plane = block / self.geometry.blocks_per_plane as usize;
            if std::mem::take(&mut self.planes[plane].stuck) {
                self.stuck_planes -= 1;
            }
        }
    }

    /// Garbage collection in one plane until it has `high_watermark` free blocks.
    fn collect(&mut self, plane: PlaneIndex, now_ns: u64, ops: &mut Vec<FlashOp>) -> Result<(), FtlError> {
        self.stats.gc_invocations += 1;
        let pages_per_block = self.geometry.pages_per_block;
        let mut rounds = 0u32;
        while self.planes[plane.0 as usize].free.len() < self.high_watermark {
            rounds += 1;
            let Some(victim) = self.next_victim(plane, now_ns) else { break };
            let info = self.blocks[victim.0 as usize];
            let victim_valid = self.valid_pages(victim);
            // A fully valid victim gains nothing, but round-robin may pick one and move on; the plane is
            // only full when no full block has an invalid page at all.
            let no_gain_anywhere = victim_valid == pages_per_block && {
                let view = self.plane_view(plane, now_ns);
                (0..view.keys.len()).all(|index| !view.is_full(index) || view.valid_pages(index) == pages_per_block)
            };
            if no_gain_anywhere && self.plane_allocation == PlaneAllocation::Dynamic && !self.planes[plane.0 as usize].free.is_empty() {
                // With dynamic allocation the device is full only when every plane is: this plane
                // still has a free block and waits for overwrites while writes go elsewhere.
                let index = plane.0 as usize;
                if !self.planes[index].stuck {
                    self.planes[index].stuck = true;
                    self.stuck_planes += 1;
                }
                if self.stuck_planes < self.planes.len() {
                    return Ok(());
                }
                self.planes[index].stuck = false;
                self.stuck_planes -= 1;
            }
            if no_gain_anywhere || rounds > 4 * self.geometry.blocks_per_plane {
                return Err(FtlError::DeviceFull {
                    plane: plane.0,
                    message: format!(
                        "garbage collection cannot free space: the best victim holds {} of {} pages valid; the workload's footprint ({} logical pages mapped) does not fit the physical capacity with the GC reserve",
                        victim_valid, pages_per_block, self.mapping.mapped_pages()
                    ),
                });
            }
            for page in 0..info.written_pages {
                let owner = self.pages.owner(victim.0 as usize, page as usize);
                if owner == INVALID_PAGE {
                    continue;
                }
                let source = Ppn(victim.0 * pages_per_block + page);
                let tag = self.tag(source);
                let (destination, record) = self.allocate(plane, Stream::GarbageCollection, now_ns)?;
                self.mapping.set(Lpn(owner), destination);
                self.invalidate(source);
                self.program(destination, record, Lpn(owner), now_ns, tag);
                ops.push(FlashOp::GcRead { ppn: source });
                ops.push(FlashOp::GcProgram { ppn: destination });
                self.stats.gc_pages_copied += 1;
            }
            self.erase(victim);
            ops.push(FlashOp::Erase { block: victim });
            self.stats.gc_blocks_collected += 1;
        }
        Ok(())
    }

    fn erase(&mut self, block: BlockIndex) {
        let info = &mut self.blocks[block.0 as usize];
        info.erase_count += 1;
        self.keys[block.0 as usize] = NOT_FULL;
        info.written_pages = 0;
        info.state = BlockState::Free;
        self.pages.reset(block.0 as usize);
        self.stats.blocks_erased += 1;
        let plane = self.geometry.plane_of_block(block);
        self.planes[plane.0 as usize].free.push_back(block.0 % self.geometry.blocks_per_plane);
    }

    /// Fast aging: every block starts with `pe_cycles` x (1 +- spread) erases, drawn from `rng`.
    pub fn age(&mut self, pe_cycles: u32, spread_fraction: f64, rng: &mut Xoshiro256PlusPlus) {
        for block in &mut self.blocks {
            let factor = 1.0 + spread_fraction * (2.0 * rng.next_f64() - 1.0);
            block.erase_count = block.erase_count.saturating_add((pe_cycles as f64 * factor).round().max(0.0) as u32);
        }
    }

    /// Clears counters (after preconditioning) without touching device state.
    pub fn reset_stats(&mut self) {
        self.stats = FtlStats::default();
    }

    /// (min, mean, max) erase count over all blocks.
    pub fn erase_count_summary(&self) -> (u32, f64, u32) {
        let mut min = u32::MAX;
        let mut max = 0;
        let mut sum = 0u64;
        for block in &self.blocks {
            min = min.min(block.erase_count);
            max = max.max(block.erase_count);
            sum += block.erase_count as u64;
        }
        (min, sum as f64 / self.blocks.len().max(1) as f64, max)
    }

    /// Bytes held by the FTL's tables (mapping, block info, page arrays).
    pub fn memory_bytes(&self) -> u64 {
        self.mapping.memory_bytes() + (self.blocks.capacity() * std::mem::size_of::<BlockInfo>() + self.keys.capacity() * 2) as u64 + self.pages.memory_bytes()
    }

    /// Pages written into a block: an open block's write pointer is in its plane's frontier.
    fn written_pages(&self, block: usize) -> u32 {
        let plane = &self.planes[block / self.geometry.blocks_per_plane as usize];
        let local = (block % self.geometry.blocks_per_plane as usize) as u32;
        [plane.host_frontier, plane.gc_frontier]
            .into_iter()
            .flatten()
            .find(|frontier| frontier.local == local)
            .map_or(self.blocks[block].written_pages, |frontier| frontier.next_page)
    }

    /// Checks every structural invariant; returns a description of the first violation.
    /// Mapping and owners agree in both directions, valid counts match owners, free blocks are empty,
    /// and no physical page is claimed twice.
    pub fn check_invariants(&self) -> Result<(), String> {
        let pages_per_block = self.geometry.pages_per_block;
        let mut valid_total = 0u64;
        for (index, stored) in self.blocks.iter().enumerate() {
            let mut info = *stored;
            info.written_pages = self.written_pages(index);
            let valid = self.pages.owners(index).filter(|&o| o != INVALID_PAGE).count() as u32;
            let counted = (self.keys[index] & VALID_MASK) as u32;
            if (self.keys[index] & NOT_FULL == 0) != (info.state == BlockState::Full) {
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
            {
                for (page, owner) in self.pages.owners(index).enumerate() {
                    if owner == INVALID_PAGE {
                        continue;
                    }
                    if page as u32 >= info.written_pages {
                        return Err(format!("block {index}: page {page} has an owner beyond the write pointer"));
                    }
                    let ppn = Ppn(index as u32 * pages_per_block + page as u32);
                    if self.mapping.get(Lpn(owner)) != Some(ppn) {
                        return Err(format!("physical page {} claims logical page {owner}, which maps to {:?}", ppn.0, self.mapping.get(Lpn(owner))));
                    }
                }
            }
            valid_total += valid as u64;
        }
        if valid_total != self.mapping.mapped_pages() {
            return Err(format!("{} valid physical pages but {} mapped logical pages", valid_total, self.mapping.mapped_pages()));
        }
        for (lpn, ppn) in self.mapping.iter() {
            let block = self.geometry.block_of(ppn);
            let owner = self.pages.owner(block.0 as usize, self.geometry.page_in_block(ppn) as usize);
            if owner != lpn.0 {
                return Err(format!("logical page {} maps to physical page {} owned by {:?}", lpn.0, ppn.0, owner));
            }
        }
        for (plane, state) in self.planes.iter().enumerate() {
            for &local in &state.free {
                let global = plane as u32 * self.geometry.blocks_per_plane + local;
                if self.blocks[global as usize].state != BlockState::Free {
                    return Err(format!("block {global} is on the free list but not free"));
                }
            }
        }
        Ok(())
    }
}
