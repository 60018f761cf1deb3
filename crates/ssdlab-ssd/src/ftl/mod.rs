//! Flash translation layer: one page-level mapping table over every tier, and per tier a block
//! store (block manager, wear leveling by free-block choice), a victim policy and a collector.
//!
//! What it models: out-of-place page writes into one open block per stream and plane (host, GC,
//! migration in); per-plane GC that starts below a low watermark of free blocks and runs until a
//! high watermark, copying valid pages within the plane or moving them to another tier (collectors,
//! `collector/`); victim and free-block policies as plug-ins; placement of host writes on a tier
//! (`placement`); plane allocation in one of MQSim's 24 striping orders, and logical ranges confined
//! to a subset of the planes (a flow's own channels, chips, dies and planes: `confine`); fast aging;
//! naming the next GC victim ahead of time. A mapping entry is a
//! global physical page, which says its tier (see `crate::device_layout`).
//! What it leaves out: mapping-table caching (the whole table is in controller DRAM, as in MQSim's
//! default), static wear leveling by cold-data migration, bad blocks, power loss.
//! Timing is not decided here: the FTL returns the flash operations it needs (GC reads, programs,
//! erases) and the scheduler books them.

pub mod block_manager;
pub mod block_store;
pub mod collector;
mod free_list;
pub mod garbage_collection;
pub mod mapping;
pub mod placement;
#[cfg(test)]
mod tests;
pub mod wear_leveling;

pub use block_store::{BlockStore, FtlStats, Stores};

use crate::config::FtlConfig;
use crate::device_layout::DeviceLayout;
use crate::error::FtlError;
use crate::flash_op::FlashOp;
use crate::geometry::{BlockIndex, Lpn, PlaneIndex, Ppn};
use crate::retention::RetentionClock;
use crate::tier::TierId;
use block_manager::{BlockInfo, INVALID_PAGE};
use block_store::{StoreSettings, Stream};
use collector::{Collect, Collector};
use mapping::MappingTable;
use placement::{Place, Placement};
use ssdlab_engine::random::Xoshiro256PlusPlus;

pub struct Ftl {
    layout: DeviceLayout,
    pub(crate) mapping: MappingTable,
    pub(crate) stores: Stores,
    pub(crate) collectors: Vec<Collector>,
    placement: Placement,
    logical_pages: u64,
    /// Flash work the last write needs before it completes (a block-modify-write's copies), as
    /// opposed to the background GC work it returns in `ops`.
    foreground: Vec<FlashOp>,
    /// Stamps programmed pages; ages data.
    retention: RetentionClock,
    /// Some tier's RR-FDCA collector screens by host reads (`note_host_read` does work).
    screens_reads: bool,
}

impl Ftl {
    /// `logical_pages` is the size of the logical page space the host may address; `placement`
    /// chooses each write's tier and each tier's collector.
    pub fn new(
        layout: &DeviceLayout,
        config: &FtlConfig,
        placement: Placement,
        tier_logical_pages: &[u64],
        logical_pages: u64,
        keep_tags: bool,
    ) -> Self {
        let stores = layout
            .tiers()
            .iter()
            .enumerate()
            .map(|(index, tier)| {
                BlockStore::new(StoreSettings {
                    victim_policy: garbage_collection::build(config.garbage_collection.policy),
                    free_block_policy: wear_leveling::build(config.wear_leveling.policy),
                    plane_allocation: config.plane_allocation,
                    plane_allocation_order: config.plane_allocation_order,
                    low_watermark: config.garbage_collection.low_watermark_blocks as usize,
                    high_watermark: config.garbage_collection.high_watermark_blocks as usize,
                    keep_tags,
                    logical_capacity_pages: tier_logical_pages.get(index).copied().unwrap_or(logical_pages),
                    offsets: (tier.first_page, tier.first_block, tier.first_plane),
                    geometry: &tier.geometry,
                    block_unit: tier.block_unit,
                    striped_incoming: tier.striped_incoming,
                    overwrite_to_write_tier: tier.overwrite_to_write_tier,
                    overwrite_rewrites_block: tier.overwrite_rewrites_block,
                    redirect_when_full: layout.tiers().len() > 1,
                })
            })
            .collect();
        let mut stores = Stores::new(stores);
        let collectors: Vec<Collector> =
            TierId::all(layout.tiers().len()).map(|tier| placement.collector(tier)).collect();
        let mut screens_reads = false;
        for (index, collector) in collectors.iter().enumerate() {
            if matches!(collector, Collector::FrozenData(frozen) if frozen.screen_reads) {
                stores[TierId::new(index)].enable_read_marks();
                screens_reads = true;
            }
        }
        Ftl {
            screens_reads,
            collectors,
            mapping: MappingTable::new(logical_pages),
            stores,
            placement,
            logical_pages,
            foreground: Vec::new(),
            layout: layout.clone(),
            retention: RetentionClock::default(),
        }
    }

    pub fn layout(&self) -> &DeviceLayout {
        &self.layout
    }
    pub fn logical_pages(&self) -> u64 {
        self.logical_pages
    }
    pub fn victim_policy_name(&self) -> &'static str {
        self.stores[TierId::FIRST].victim_policy.name()
    }
    pub fn placement_name(&self) -> &'static str {
        self.placement.name()
    }
    pub fn collector_name(&self, tier: TierId) -> &'static str {
        self.collectors[tier.index()].name()
    }
    /// Each tier's block store, in layout order.
    pub fn stores(&self) -> &Stores {
        &self.stores
    }

    /// Device-wide counters (the sum over tiers).
    pub fn stats(&self) -> FtlStats {
        self.stores.iter().fold(FtlStats::default(), |sum, store| sum.plus(&store.stats))
    }

    /// The tier holding a global physical page.
    #[inline]
    fn tier_of(&self, ppn: Ppn) -> TierId {
        if self.stores.len() == 1 {
            return TierId::FIRST;
        }
        self.stores.last_tier_where(|store| ppn.0 >= store.first_page)
    }

    fn tier_of_block(&self, block: BlockIndex) -> TierId {
        if self.stores.len() == 1 {
            return TierId::FIRST;
        }
        self.stores.last_tier_where(|store| block.0 >= store.first_block)
    }

    fn tier_of_plane(&self, plane: PlaneIndex) -> TierId {
        if self.stores.len() == 1 {
            return TierId::FIRST;
        }
        self.stores.last_tier_where(|store| plane.0 >= store.first_plane)
    }

    #[inline]
    pub fn lookup(&self, lpn: Lpn) -> Option<Ppn> {
        self.mapping.get(lpn)
    }

    /// The host read physical page `ppn`: with RR-FDCA screening by reads, a page in a block being
    /// screened is marked, and stays in MLC when its block's data is evicted (`collector::frozen_data`).
    #[inline]
    pub fn note_host_read(&mut self, ppn: Ppn) {
        if !self.screens_reads {
            return;
        }
        let tier = self.tier_of(ppn);
        let store = &mut self.stores[tier];
        let local = store.local_page(ppn);
        store.mark_read_if_screening(local);
    }

    pub fn mapped_pages(&self) -> u64 {
        self.mapping.mapped_pages()
    }

    /// TRIM: logical page `lpn` holds nothing any more; its physical page (if any) is invalidated
    /// and the mapping removed. Returns whether it was mapped.
    pub fn trim(&mut self, lpn: Lpn) -> bool {
        if lpn.0 as u64 >= self.logical_pages {
            return false;
        }
        let Some(old) = self.mapping.remove(lpn) else { return false };
        let tier = self.tier_of(old);
        let store = &mut self.stores[tier];
        let local = store.local_page(old);
        store.invalidate(local);
        store.stats.trimmed_pages += 1;
        true
    }

    /// The logical page whose valid data physical page `ppn` holds (None for an invalid or free page).
    pub fn owner_of(&self, ppn: Ppn) -> Option<Lpn> {
        let store = &self.stores[self.tier_of(ppn)];
        let local = store.local_page(ppn);
        let owner = store.owner(store.geometry.block_of(local), store.geometry.page_in_block(local));
        (owner != INVALID_PAGE).then_some(Lpn(owner))
    }

    /// The integrity tag stored with a physical page (0 when tags are off).
    pub fn tag(&self, ppn: Ppn) -> u32 {
        let store = &self.stores[self.tier_of(ppn)];
        store.tag_local(store.local_page(ppn))
    }

    /// Program time of a physical page on the retention clock, in ms (`retention.rs`).
    pub fn program_time_ms(&self, ppn: Ppn) -> u32 {
        let store = &self.stores[self.tier_of(ppn)];
        store.program_time_ms_local(store.local_page(ppn))
    }

    /// Sets the clock that stamps programmed pages (every tier's).
    pub fn set_retention_clock(&mut self, clock: RetentionClock) {
        self.retention = clock;
        for store in self.stores.iter_mut() {
            store.retention = clock;
        }
    }

    /// Age in hours of a physical page's data at I/O time `now_ns`, on the retention clock.
    pub fn data_age_hours(&self, ppn: Ppn, now_ns: u64) -> f64 {
        self.retention.age_hours(self.program_time_ms(ppn), now_ns)
    }

    /// Retention-clock hours that `duration_ns` of I/O time stands for.
    pub fn retention_hours_of(&self, duration_ns: u64) -> f64 {
        self.retention.hours_of(duration_ns)
    }

    /// Makes a physical page's data `age_hours` old at I/O time 0 (preconditioned data).
    pub fn backdate(&mut self, ppn: Ppn, age_hours: f64) {
        let stamp = self.retention.stamp_aged(age_hours);
        let tier = self.tier_of(ppn);
        let store = &mut self.stores[tier];
        let local = store.local_page(ppn);
        store.restamp_local(local, stamp);
    }

    /// The record of a global block.
    pub fn block(&self, block: BlockIndex) -> &BlockInfo {
        let store = &self.stores[self.tier_of_block(block)];
        &store.blocks[(block.0 - store.first_block) as usize]
    }

    /// The record of the block holding a global physical page.
    #[inline]
    pub fn block_of_page(&self, ppn: Ppn) -> &BlockInfo {
        let store = &self.stores[self.tier_of(ppn)];
        &store.blocks[store.geometry.block_of(store.local_page(ppn)).0 as usize]
    }

    /// The global block holding physical page `ppn`.
    pub fn global_block_of(&self, ppn: Ppn) -> BlockIndex {
        let store = &self.stores[self.tier_of(ppn)];
        BlockIndex(store.first_block + store.geometry.block_of(store.local_page(ppn)).0)
    }

    /// Pages of a global block that hold the latest copy of some logical page.
    pub fn valid_pages(&self, block: BlockIndex) -> u32 {
        let store = &self.stores[self.tier_of_block(block)];
        store.valid_pages(BlockIndex(block.0 - store.first_block))
    }

    /// Logical pages still valid in a global block, in page order (the overwrite-recommendation list
    /// a middleware can build from the next victim).
    pub fn valid_pages_of(&self, block: BlockIndex) -> impl Iterator<Item = Lpn> + '_ {
        let store = &self.stores[self.tier_of_block(block)];
        store.pages.owners((block.0 - store.first_block) as usize).filter(|&o| o != INVALID_PAGE).map(Lpn)
    }

    /// The global block garbage collection would collect next in a global plane, if GC ran now.
    pub fn next_victim(&self, plane: PlaneIndex, now_ns: u64) -> Option<BlockIndex> {
        let store = &self.stores[self.tier_of_plane(plane)];
        store
            .next_victim(PlaneIndex(plane.0 - store.first_plane), now_ns)
            .map(|block| BlockIndex(block.0 + store.first_block))
    }

    /// The next `count` global blocks garbage collection would collect in a global plane, in order,
    /// if GC ran now and nothing changed meanwhile.
    pub fn next_victims(&self, plane: PlaneIndex, count: usize, now_ns: u64) -> Vec<BlockIndex> {
        let store = &self.stores[self.tier_of_plane(plane)];
        store
            .next_victims(PlaneIndex(plane.0 - store.first_plane), count, now_ns)
            .into_iter()
            .map(|block| BlockIndex(block.0 + store.first_block))
            .collect()
    }

    /// Free blocks one GC invocation in a global plane must gain: it starts when the plane's free
    /// blocks fall below the low watermark and collects until they reach the high one
    /// (`collector::in_place`), so `high - low + 1`. Collecting a block with v of its p pages valid
    /// gains (p - v) / p of a block (its copies fill part of another), so an invocation collects
    /// victims, in the policy's order, until their gains add up to this: one or two blocks when
    /// victims are mostly invalid, a long run when they are mostly valid.
    pub fn gc_invocation_gain_blocks(&self, plane: PlaneIndex) -> usize {
        let store = &self.stores[self.tier_of_plane(plane)];
        store.high_watermark.saturating_sub(store.low_watermark) + 1
    }

    pub fn free_blocks(&self, plane: PlaneIndex) -> usize {
        let store = &self.stores[self.tier_of_plane(plane)];
        store.free_blocks(PlaneIndex(plane.0 - store.first_plane))
    }

    /// Confines logical ranges to subsets of the device (`block_store::Confinement`): each range's
    /// pages are written only to its global planes (in striping order). One-tier devices only (the
    /// config refuses confinement on a tiered one); empty: no confinement.
    pub fn confine(&mut self, ranges: Vec<block_store::PlaneRange>) {
        self.stores[TierId::FIRST].confine(ranges);
    }

    /// The global plane a write of `lpn` would go to next.
    pub fn plane_for_write(&self, lpn: Lpn) -> PlaneIndex {
        let store = &self.stores[self.placement.write_tier(lpn)];
        PlaneIndex(store.plane_for_write(lpn).0 + store.first_plane)
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
            let store = &self.stores[self.tier_of(ppn)];
            let local = store.local_page(ppn);
            let block = store.geometry.block_of(local).0 as usize;
            block_manager::prefetch_read(store.keys.as_ptr().wrapping_add(block));
            store.pages.prefetch(block, store.geometry.page_in_block(local) as usize);
        }
    }

    /// Writes one logical page out of place, on the tier placement chooses. Returns the new global
    /// physical page; appends the GC work this write set off to `ops`.
    pub fn write(&mut self, lpn: Lpn, now_ns: u64, tag: u32, ops: &mut Vec<FlashOp>) -> Result<Ppn, FtlError> {
        if lpn.0 as u64 >= self.logical_pages {
            return Err(FtlError::LogicalPageOutOfRange { lpn: lpn.0 as u64, logical_pages: self.logical_pages });
        }
        if self.stores.len() == 1 {
            // One tier (the usual device): one store, no tier lookups.
            let Ftl { mapping, stores, .. } = self;
            let store = &mut stores[TierId::FIRST];
            let Some(plane) = store.take_plane_for_write(lpn) else {
                return Err(no_chip_in_service(&self.layout, TierId::FIRST, "a host write"));
            };
            let (ppn, record) = store.allocate(plane, Stream::Host, now_ns)?;
            if let Some(old) = mapping.set(lpn, ppn) {
                store.invalidate(old);
            }
            store.program(ppn, record, lpn, now_ns, tag);
            store.stats.host_pages_written += 1;
            if store.free_blocks(plane) < store.low_watermark {
                let collector = self.collectors[0];
                collector.collect(self, TierId::FIRST, plane, now_ns, ops)?;
            }
            return Ok(ppn);
        }
        self.foreground.clear();
        let tier = self.placement.write_tier(lpn);
        if let Some(old) = self.mapping.get(lpn) {
            let owner = self.tier_of(old);
            if self.stores[owner].block_unit {
                if !self.stores[owner].overwrite_to_write_tier || owner == tier {
                    return self.block_modify_write(owner, lpn, old, now_ns, tag, ops);
                }
                if self.stores[owner].overwrite_rewrites_block {
                    // The block's other pages are rewritten here; the new data goes on below.
                    self.rewrite_block_without(owner, lpn, old, now_ns, ops)?;
                }
                // Otherwise (`overwritten_block = "page_invalidated"`) the old copy is invalidated
                // below like any out-of-place overwrite, and the block waits for this tier's GC.
            }
            // (Other tiers' data is overwritten out of place on the write tier.)
        }
        let Ftl { mapping, stores, .. } = self;
        let store = &mut stores[tier];
        let Some(plane) = store.take_plane_for_write(lpn) else {
            return Err(no_chip_in_service(&self.layout, tier, "a host write"));
        };
        let (local, record) = store.allocate(plane, Stream::Host, now_ns)?;
        let ppn = store.global_page(local);
        if let Some(old) = mapping.set(lpn, ppn) {
            let owner =
                TierId::all(stores.len()).rev().find(|&tier| old.0 >= stores[tier].first_page).unwrap_or(TierId::FIRST);
            let old_store = &mut stores[owner];
            old_store.invalidate(old_store.local_page(old));
        }
        let store = &mut stores[tier];
        store.program(local, record, lpn, now_ns, tag);
        store.stats.host_pages_written += 1;
        if store.free_blocks(plane) < store.low_watermark {
            let collector = self.collectors[tier.index()];
            collector.collect(self, tier, plane, now_ns, ops)?;
        }
        Ok(ppn)
    }

    /// Writes a page of the FTL's own metadata (a mapping-table cache's translation page, at a
    /// logical page past the host's) like [`Ftl::write`]: placed, mapped and collected by GC as
    /// data, but not counted among the host's pages written.
    pub fn write_metadata(&mut self, lpn: Lpn, now_ns: u64, tag: u32, ops: &mut Vec<FlashOp>) -> Result<Ppn, FtlError> {
        let ppn = self.write(lpn, now_ns, tag, ops)?;
        let tier = self.tier_of(ppn);
        self.stores[tier].stats.host_pages_written -= 1;
        Ok(ppn)
    }

    /// Flash work the last [`Ftl::write`] needs before the host write completes (empty unless it
    /// was a block-modify-write).
    pub fn foreground_ops(&self) -> &[FlashOp] {
        &self.foreground
    }

    /// A host overwrite of `lpn`, whose current copy `old` is in block-unit tier `tier`: every other
    /// valid page of its block is read and written, with the new data, to the tier's open incoming
    /// block (seed 004: "all valid pages in the TLC block have to be read and written to another
    /// block"). The copies are foreground work: the host write waits for them.
    #[cold]
    #[inline(never)]
    fn block_modify_write(
        &mut self,
        tier: TierId,
        lpn: Lpn,
        old: Ppn,
        now_ns: u64,
        tag: u32,
        ops: &mut Vec<FlashOp>,
    ) -> Result<Ppn, FtlError> {
        let store = &self.stores[tier];
        let old_local = store.local_page(old);
        let block = store.geometry.block_of(old_local);
        let pages_per_block = store.geometry.pages_per_block;
        let written = store.written_pages(block.0 as usize);
        let mut foreground = std::mem::take(&mut self.foreground);
        let mut result = None;
        for page in 0..written {
            let source_local = Ppn(block.0 * pages_per_block + page);
            let owner = self.stores[tier].owner(block, page);
            if owner == INVALID_PAGE {
                continue;
            }
            let store = &mut self.stores[tier];
            let plane = store.plane_for_incoming();
            let (local, record) = store.allocate(plane, Stream::Migration, now_ns)?;
            let moved = store.global_page(local);
            self.mapping.set(Lpn(owner), moved);
            let store = &mut self.stores[tier];
            // Read before the invalidation, which may give the block's page records back.
            let carried = store.tag_local(source_local);
            store.invalidate(source_local);
            if owner == lpn.0 {
                // The new data takes the overwritten page's place in the rewritten block.
                store.program(local, record, lpn, now_ns, tag);
                store.stats.host_pages_written += 1;
                result = Some(moved);
            } else {
                store.program(local, record, Lpn(owner), now_ns, carried);
                store.stats.block_modify_pages += 1;
                foreground.push(FlashOp::GcRead { ppn: store.global_page(source_local) });
                foreground.push(FlashOp::GcProgram { ppn: moved });
            }
            if store.free_blocks(plane) < store.low_watermark {
                // Collection may take the block being rewritten: its remaining pages then move
                // with GC (their owners read as invalid here), and the new data is written below.
                let collector = self.collectors[tier.index()];
                collector.collect(self, tier, plane, now_ns, ops)?;
            }
        }
        self.stores[tier].stats.block_modify_writes += 1;
        self.foreground = foreground;
        if result.is_none() {
            // Garbage collection moved the old copy before the rewrite reached it.
            let store = &mut self.stores[tier];
            let plane = store.plane_for_incoming();
            let (local, record) = store.allocate(plane, Stream::Migration, now_ns)?;
            let moved = store.global_page(local);
            if let Some(previous) = self.mapping.set(lpn, moved) {
                let owner = self.tier_of(previous);
                let old_store = &mut self.stores[owner];
                old_store.invalidate(old_store.local_page(previous));
            }
            let store = &mut self.stores[tier];
            store.program(local, record, lpn, now_ns, tag);
            store.stats.host_pages_written += 1;
            result = Some(moved);
            if store.free_blocks(plane) < store.low_watermark {
                let collector = self.collectors[tier.index()];
                collector.collect(self, tier, plane, now_ns, ops)?;
            }
        }
        result.ok_or(FtlError::LogicalPageOutOfRange { lpn: lpn.0 as u64, logical_pages: self.logical_pages })
    }

    /// The other half of a block-modify-write whose new data goes to the write tier: every valid
    /// page of `old`'s block except `lpn`'s is read and written to the tier's incoming block, as
    /// foreground copies the host write waits for; `lpn`'s old copy is left for the caller's
    /// mapping update to invalidate.
    #[cold]
    #[inline(never)]
    fn rewrite_block_without(
        &mut self,
        tier: TierId,
        lpn: Lpn,
        old: Ppn,
        now_ns: u64,
        ops: &mut Vec<FlashOp>,
    ) -> Result<(), FtlError> {
        let store = &self.stores[tier];
        let block = store.geometry.block_of(store.local_page(old));
        let pages_per_block = store.geometry.pages_per_block;
        let written = store.written_pages(block.0 as usize);
        let mut foreground = std::mem::take(&mut self.foreground);
        for page in 0..written {
            let owner = self.stores[tier].owner(block, page);
            if owner == INVALID_PAGE || owner == lpn.0 {
                continue;
            }
            let source_local = Ppn(block.0 * pages_per_block + page);
            let store = &mut self.stores[tier];
            let plane = store.plane_for_incoming();
            let (local, record) = store.allocate(plane, Stream::Migration, now_ns)?;
            let moved = store.global_page(local);
            self.mapping.set(Lpn(owner), moved);
            let store = &mut self.stores[tier];
            let carried = store.tag_local(source_local);
            store.invalidate(source_local);
            store.program(local, record, Lpn(owner), now_ns, carried);
            store.stats.block_modify_pages += 1;
            foreground.push(FlashOp::GcRead { ppn: store.global_page(source_local) });
            foreground.push(FlashOp::GcProgram { ppn: moved });
            if store.free_blocks(plane) < store.low_watermark {
                let collector = self.collectors[tier.index()];
                collector.collect(self, tier, plane, now_ns, ops)?;
            }
        }
        self.stores[tier].stats.block_modify_writes += 1;
        self.foreground = foreground;
        Ok(())
    }

    /// Fast aging: every block starts with `pe_cycles` x (1 +- spread) erases, drawn from `rng`.
    pub fn age(&mut self, pe_cycles: u32, spread_fraction: f64, rng: &mut Xoshiro256PlusPlus) {
        for store in self.stores.iter_mut() {
            store.age(pe_cycles, spread_fraction, rng);
        }
    }

    /// Clears counters (after preconditioning) without touching device state.
    pub fn reset_stats(&mut self) {
        for store in self.stores.iter_mut() {
            store.stats = FtlStats::default();
        }
    }

    /// (min, mean, max) erase count over all blocks of all tiers.
    pub fn erase_count_summary(&self) -> (u32, f64, u32) {
        let (mut min, mut sum, mut max, mut blocks) = (u32::MAX, 0u64, 0u32, 0usize);
        for store in self.stores.iter() {
            let (tier_min, tier_sum, tier_max, tier_blocks) = store.erase_counts();
            min = min.min(tier_min);
            max = max.max(tier_max);
            sum += tier_sum;
            blocks += tier_blocks;
        }
        (if blocks == 0 { 0 } else { min }, sum as f64 / blocks.max(1) as f64, max)
    }

    /// Bytes held by the FTL's tables (mapping, block info, page arrays).
    pub fn memory_bytes(&self) -> u64 {
        self.mapping.memory_bytes() + self.stores.iter().map(|store| store.memory_bytes()).sum::<u64>()
    }

    /// Marks every plane of a global chip read-only (no new data; reads and collection continue) or
    /// writable again. Returns the number of planes changed.
    pub fn set_chip_read_only(&mut self, chip: u32, read_only: bool) -> usize {
        let dies = self.layout.dies_of_chip(chip);
        let mut changed = 0;
        for die in dies {
            let tier = self.layout.tier_of_die(die);
            let store = &mut self.stores[tier];
            let first_die = self.layout.tier(tier).first_die;
            let planes_per_die = store.geometry.planes_per_die;
            for plane in 0..planes_per_die {
                let local = PlaneIndex((die - first_die) * planes_per_die + plane);
                if store.is_read_only(local) != read_only {
                    store.set_read_only(local, read_only);
                    changed += 1;
                }
            }
        }
        changed
    }

    /// The (tier, local planes) of a global chip.
    fn chip_planes(&self, chip: u32) -> Option<(TierId, std::ops::Range<u32>)> {
        let dies = self.layout.dies_of_chip(chip);
        let first = dies.start;
        if dies.is_empty() {
            return None;
        }
        let tier = self.layout.tier_of_die(first);
        let planes_per_die = self.stores[tier].geometry.planes_per_die;
        let local_die = first - self.layout.tier(tier).first_die;
        Some((tier, local_die * planes_per_die..(local_die + dies.len() as u32) * planes_per_die))
    }

    /// Valid pages on a global chip.
    pub fn chip_valid_pages(&self, chip: u32) -> u64 {
        let Some((tier, planes)) = self.chip_planes(chip) else { return 0 };
        let store = &self.stores[tier];
        let blocks_per_plane = store.geometry.blocks_per_plane;
        (planes.start * blocks_per_plane..planes.end * blocks_per_plane)
            .map(|block| store.valid_pages(BlockIndex(block)) as u64)
            .sum()
    }

    /// Mean erase count of a global chip's blocks.
    pub fn chip_mean_erase_count(&self, chip: u32) -> f64 {
        let Some((tier, planes)) = self.chip_planes(chip) else { return 0.0 };
        let store = &self.stores[tier];
        let blocks_per_plane = store.geometry.blocks_per_plane;
        let range = planes.start * blocks_per_plane..planes.end * blocks_per_plane;
        let count = range.len().max(1);
        range.map(|block| store.blocks[block as usize].erase_count as u64).sum::<u64>() as f64 / count as f64
    }

    /// Moves the valid pages of the next block of a global chip that holds any (in block order from
    /// `cursor`, a chip-local block index that is advanced) to the other writable planes of its
    /// tier, without erasing it. Returns the pages moved, or None when the chip holds no valid data.
    pub fn drain_next_block(
        &mut self,
        chip: u32,
        cursor: &mut u32,
        now_ns: u64,
        ops: &mut Vec<FlashOp>,
    ) -> Result<Option<u64>, FtlError> {
        let Some((tier, planes)) = self.chip_planes(chip) else { return Ok(None) };
        if !self.stores[tier].any_writable_plane() {
            return Err(no_chip_in_service(&self.layout, tier, "the retired chip's data"));
        }
        let blocks_per_plane = self.stores[tier].geometry.blocks_per_plane;
        let first = planes.start * blocks_per_plane;
        let count = planes.len() as u32 * blocks_per_plane;
        for step in 0..count {
            let block = BlockIndex(first + (*cursor + step) % count);
            if self.stores[tier].valid_pages(block) > 0 {
                *cursor = (block.0 - first + 1) % count;
                let moved = collector::relocate(self, tier, block, collector::Destination::OtherPlanes, now_ns, ops)?;
                return Ok(Some(moved));
            }
        }
        Ok(None)
    }

    /// Checks every structural invariant; returns a description of the first violation.
    /// Mapping and owners agree in both directions, valid counts match owners, free blocks are empty,
    /// and no physical page is claimed twice.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut valid_total = 0u64;
        for store in self.stores.iter() {
            valid_total += store.check_invariants(|local, owner| {
                let ppn = store.global_page(local);
                if self.mapping.get(Lpn(owner)) != Some(ppn) {
                    return Err(format!(
                        "physical page {} claims logical page {owner}, which maps to {:?}",
                        ppn.0,
                        self.mapping.get(Lpn(owner))
                    ));
                }
                Ok(())
            })?;
        }
        if valid_total != self.mapping.mapped_pages() {
            return Err(format!(
                "{} valid physical pages but {} mapped logical pages",
                valid_total,
                self.mapping.mapped_pages()
            ));
        }
        for (lpn, ppn) in self.mapping.iter() {
            let store = &self.stores[self.tier_of(ppn)];
            if !self.layout.tier(self.tier_of(ppn)).contains_page(ppn) {
                return Err(format!("logical page {} maps to physical page {} beyond the device", lpn.0, ppn.0));
            }
            let local = store.local_page(ppn);
            let owner = store.owner(store.geometry.block_of(local), store.geometry.page_in_block(local));
            if owner != lpn.0 {
                return Err(format!("logical page {} maps to physical page {} owned by {:?}", lpn.0, ppn.0, owner));
            }
        }
        Ok(())
    }
}

/// The error of a write into a tier whose chips are all out of service.
#[cold]
fn no_chip_in_service(layout: &DeviceLayout, tier: TierId, what: &'static str) -> FtlError {
    FtlError::NoChipInService { tier: layout.tier(tier).name.clone(), what }
}
