//! A DFTL-style cached mapping table (CMT) in the controller's DRAM (issue 37), part of the NAND
//! path's address mapping as in MQSim (`[device.mapping_cache]`, `config/device/mapping_cache.rs`): the NAND
//! path hands it each host read and write, and the pages a stage in front programs or reads.
//!
//! What it models:
//! - The page-level mapping table lives in flash, in translation pages of
//!   `translation_entries_per_page` entries each (host page p's entry is in translation page
//!   p / entries). Translation pages are FTL logical pages past the host's, so placement, GC and the
//!   integrity oracle treat them as any page. Preconditioning writes (untimed) the translation page
//!   of every page it writes (MQSim preconditions every translation page); a translation page never
//!   written needs no read on a miss (MQSim's rule for a page with no mapping yet).
//! - The cache holds entries, least recently used first out. Every host page a read or write
//!   touches looks its entry up: a hit costs nothing; a miss reads the page's translation page
//!   (once per translation page and request) and the page's data read, or its program group,
//!   starts when that read ends (a scheduler gate, `scheduler/gate.rs`); the entry is then cached.
//! - A write makes its pages' entries dirty. A miss in a full cache evicts the least recently used
//!   entry; a dirty one is written back with every dirty entry of its translation page (as MQSim's
//!   `generate_flash_writeback_request_for_mapping_data`): the translation page is read (to merge
//!   the entries not cached) and programmed to a new place, as background work nobody waits for.
//! - Counted: lookups, hits, misses, translation reads (for misses, for write-back merges),
//!   translation programs, and the die time they take as a share of all die time booked.
//!
//! Between flows (`sharing`, MQSim's `CMT_Sharing_Mode`): one cache, or, with `equal_partitioning`,
//! a part per flow of 1/n of the entries with its own LRU order and evictions (`../../partitions.rs`:
//! a page's part is the flow whose range holds it). A part's dirty eviction writes back the
//! translation page with that part's dirty entries only (in MQSim each flow has translation pages
//! of its own; here a translation page at the edge of two ranges holds entries of both).
//!
//! A miss, or a use of an entry still loading, while its translation page is already being read
//! waits for that read instead of reading again (as MQSim does). With `written_back_pages =
//! "kept_in_dram"` (MQSim's behaviour, `config/device/mapping_cache.rs`) a translation page written back
//! stays in DRAM: a later miss on it needs no flash read.
//!
//! What it leaves out: GC relocations and deletes change the mapping without touching the cache or
//! translation pages; the read-modify-write read of a partially written page does not wait for the
//! translation read; translation pages share blocks with host data (DFTL and MQSim keep them in
//! blocks of their own) and their GC copies are counted as GC's, not the cache's; wear-triggered
//! device events during a read's write-back are checked at the next write; a tiered device, SCM or
//! a middleware with the cache (refused by the config). Sources: Gupta et al., DFTL (ASPLOS 2009);
//! MQSim's `Address_Mapping_Unit_Page_Level.cpp` (entry sizes, write-back of a translation page's
//! dirty entries, preconditioning).

mod summary;
pub use summary::{MappingCachePartSummary, MappingCacheSummary};

use super::NandPath;
use crate::config::{MappingCacheConfig, SimulationConfig, WrittenBackPages};
use crate::device_events::DeviceEvents;
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::ftl::Ftl;
use crate::geometry::{Lpn, Ppn};
use crate::host::PageSpan;
use crate::scheduler::{FlashScheduler, Waiter};
use crate::simulation::data_path::exchange::{HostIo, ResultContext};
use crate::simulation::data_path::page_store::{PageRecord, PageStore};
use crate::simulation::data_path::pages::{PageHasher, TaggedPage};
use crate::simulation::data_path::partitions::Partitions;
use crate::simulation::data_path::result::DataPathResult;
use crate::simulation::data_path::stage::Lookahead;
use crate::simulation::data_path::use_order::{Use, UseOrder};
use crate::simulation::data_path::witness::Witness;
use ssdlab_engine::SimTime;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

/// Victims whose entries are loaded ahead of their eviction.
const LOOK_AHEAD: usize = 4;
/// Pages per chunk of the entry store (`../../page_store.rs`): entries are many (a fifth of a
/// footprint's pages or more), so larger chunks, whose smaller index stays in the processor's caches.
const ENTRY_CHUNK: usize = 32;
/// Pages of a request whose entries the replay's lookahead loads.
const PREFETCH_PAGES: u64 = 8;

/// The cache's sizes on a device (from the config and the geometry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::simulation) struct MappingCacheSizes {
    pub entries: u64,
    pub entry_bytes: u64,
    pub entries_per_translation_page: u64,
    pub translation_pages: u64,
    /// Translation pages written back stay in DRAM (`written_back_pages = "kept_in_dram"`).
    pub keep_written_back_pages: bool,
}

/// The sizes of the configured (and enabled) cache for `host_pages` host pages; None without one.
pub(in crate::simulation) fn sizes(
    config: &SimulationConfig,
    layout: &DeviceLayout,
    host_pages: u64,
) -> Option<MappingCacheSizes> {
    let cache: &MappingCacheConfig = config.device.mapping_cache.as_ref().filter(|cache| cache.enabled)?;
    let physical = layout.pages_total();
    let page_bytes = config.device.page_size_bytes() as u64;
    let sectors = page_bytes.div_ceil(512);
    let per_page = cache.translation_entries_for(physical, sectors, page_bytes).max(1);
    Some(MappingCacheSizes {
        entries: cache.entries_for(physical, sectors),
        entry_bytes: cache.entry_bytes_for(physical, sectors),
        entries_per_translation_page: per_page,
        translation_pages: host_pages.div_ceil(per_page),
        keep_written_back_pages: cache.written_back_pages == WrittenBackPages::KeptInDram,
    })
}

/// One cached entry, at its host page's place in the entry store.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    /// The stamp of its last use (its place in its part's use order, `../../use_order.rs`).
    stamp: u32,
    dirty: bool,
    /// The serial of the translation read that loads the entry (0: none): until it ends, a use of
    /// the entry waits for it.
    loading: u32,
    /// The part of the cache the entry is in (`sharing`; 0 when shared).
    part: u8,
    /// Cached (the entry store's flag).
    held: bool,
}

impl PageRecord for Entry {
    #[inline]
    fn is_held(&self) -> bool {
        self.held
    }
    #[inline]
    fn set_held(&mut self, held: bool) {
        self.held = held;
    }
}

/// One part of the cache (the whole cache when shared): its LRU order, size, and what it did.
#[derive(Debug, Clone)]
struct Part {
    /// Its entries by last use.
    order: UseOrder,
    capacity: u64,
    hits: u64,
    evictions: u64,
}

/// What the cache did.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    hits: u64,
    /// Misses (and uses of an entry still loading) that waited for a translation read already
    /// running.
    shared_reads: u64,
    read_misses: u64,
    write_misses: u64,
    translation_reads: u64,
    translation_merge_reads: u64,
    translation_programs: u64,
    clean_evictions: u64,
    dirty_evictions: u64,
    entries_written_back: u64,
    /// Die time booked for translation sensing and programs.
    translation_die_ns: u64,
}

/// The cached mapping table in front of the NAND path (see the module).
pub(super) struct MappingCache {
    sizes: MappingCacheSizes,
    /// The FTL logical page of translation page 0 (the host's pages come before it).
    first_translation_page: u32,
    /// Entries by host page (`../../page_store.rs`: one request's entries side by side).
    entries: PageStore<Entry, ENTRY_CHUNK>,
    /// The cache's parts: one when shared, one per flow with `equal_partitioning`.
    parts: Vec<Part>,
    partitions: Partitions,
    dirty_entries: u64,
    /// Per translation page: host pages whose entries turned dirty since its last write-back
    /// (entries evicted or cleaned since are skipped when it is written back).
    /// Indexed by translation page (a few per thousand host pages: no hashing).
    dirty_by_translation_page: Vec<Vec<u32>>,
    /// Translation reads running, by translation page: (gate, its generation, serial).
    in_flight: HashMap<u32, (u32, u32, u32), BuildHasherDefault<PageHasher>>,
    /// Translation pages written back and kept in DRAM (`keep_written_back_pages`): a later miss
    /// on one needs no flash read.
    /// A bit per translation page.
    kept_in_dram: Vec<u64>,
    next_serial: u32,
    /// Scratch of one request: per page, the gate its data waits for; the gates it opened.
    misses: Vec<Option<u32>>,
    gates: Vec<u32>,
    counts: Counts,
    /// The stamp of the next use.
    next_stamp: u32,
}

/// Whether a use in a part's order is its entry's latest (the entry cached, with that stamp).
#[inline]
fn is_live(entries: &PageStore<Entry, ENTRY_CHUNK>, used: Use) -> bool {
    entries.get(used.page).is_some_and(|entry| entry.stamp == used.stamp)
}

impl MappingCache {
    /// The cache of a NAND path whose FTL has room for the translation pages past `host_pages`, in
    /// the parts `partitions` gives (one: shared).
    pub(super) fn new(sizes: MappingCacheSizes, host_pages: u64, partitions: Partitions) -> MappingCache {
        let first_translation_page = host_pages as u32;
        let part =
            Part { order: UseOrder::default(), capacity: partitions.share(sizes.entries), hits: 0, evictions: 0 };
        MappingCache {
            sizes,
            first_translation_page,
            entries: PageStore::new(host_pages),
            parts: vec![part; partitions.count()],
            partitions,
            dirty_entries: 0,
            dirty_by_translation_page: vec![Vec::new(); sizes.translation_pages as usize],
            in_flight: HashMap::default(),
            kept_in_dram: if sizes.keep_written_back_pages {
                vec![0; sizes.translation_pages.div_ceil(64) as usize]
            } else {
                Vec::new()
            },
            next_serial: 1,
            misses: Vec::new(),
            gates: Vec::new(),
            counts: Counts::default(),
            next_stamp: 0,
        }
    }

    #[inline]
    fn translation_page_of(&self, page: u32) -> u32 {
        (page as u64 / self.sizes.entries_per_translation_page) as u32
    }

    /// Die time of sensing `ppn` (or programming it, `program`).
    fn die_ns(layout: &DeviceLayout, ppn: Ppn, program: bool) -> u64 {
        let tier = layout.tier(layout.tier_of_die(layout.die_of(ppn)));
        let page_type = layout.page_type(ppn);
        if program {
            tier.nand.program_ns[page_type]
        } else {
            tier.nand.read_ns[page_type]
        }
    }

    /// Looks host page `page`'s entry up at `now` (a use: it becomes the most recently used; with
    /// `write`, dirty). Returns the gate the page's data must wait for: on a miss, the read of its
    /// translation page (started, or already running); on a hit of an entry still loading, that
    /// read. A miss in a full cache evicts the least recently used entry first (written back when
    /// dirty).
    fn look_up(
        &mut self,
        nand: &mut NandPath,
        page: u32,
        write: bool,
        now: SimTime,
        scheduler: &mut FlashScheduler,
        events: Option<&mut DeviceEvents>,
    ) -> Result<Option<u32>, SimulationError> {
        let stamp = self.next_stamp;
        self.next_stamp = stamp.wrapping_add(1);
        let wait = match self.entries.get(page).copied() {
            Some(entry) => {
                let part = entry.part as usize;
                if !self.parts[part].order.is_most_recent(page, entry.stamp) {
                    if let Some(entry) = self.entries.get_mut(page) {
                        entry.stamp = stamp;
                    }
                    let entries = &self.entries;
                    self.parts[part].order.used(page, stamp, |used| is_live(entries, used));
                }
                let loading = entry.loading;
                let running = (loading != 0).then(|| self.running_read(self.translation_page_of(page), scheduler));
                match running.flatten() {
                    Some((gate, serial)) if serial == loading => {
                        // Its translation read is still running: wait for it (MQSim's waiting slot).
                        self.count_miss(write);
                        self.counts.shared_reads += 1;
                        Some(gate)
                    }
                    _ => {
                        if loading != 0 {
                            if let Some(entry) = self.entries.get_mut(page) {
                                entry.loading = 0;
                            }
                        }
                        self.counts.hits += 1;
                        self.parts[part].hits += 1;
                        None
                    }
                }
            }
            None => {
                self.count_miss(write);
                let part = self.partitions.of(page);
                if self.parts[part].order.len() as u64 >= self.parts[part].capacity {
                    self.evict_one(part, nand, now, scheduler, events)?;
                }
                let (gate, serial) = self.gate_for(nand, self.translation_page_of(page), now, scheduler);
                self.entries.insert(page, Entry { stamp, dirty: false, loading: serial, part: part as u8, held: true });
                let entries = &self.entries;
                self.parts[part].order.join(page, stamp, |used| is_live(entries, used));
                gate
            }
        };
        let newly_dirty = write
            && self.entries.get_mut(page).is_some_and(|entry| {
                let clean = !entry.dirty;
                entry.dirty = true;
                clean
            });
        if newly_dirty {
            self.dirty_entries += 1;
            let translation_page = self.translation_page_of(page);
            let index = translation_page as usize;
            if index >= self.dirty_by_translation_page.len() {
                self.dirty_by_translation_page.resize(index + 1, Vec::new());
            }
            self.dirty_by_translation_page[index].push(page);
        }
        Ok(wait)
    }

    #[inline]
    fn count_miss(&mut self, write: bool) {
        if write {
            self.counts.write_misses += 1;
        } else {
            self.counts.read_misses += 1;
        }
    }

    /// The read of translation page `translation_page` still running, if any: (gate, serial).
    fn running_read(&mut self, translation_page: u32, scheduler: &FlashScheduler) -> Option<(u32, u32)> {
        let &(gate, generation, serial) = self.in_flight.get(&translation_page)?;
        if scheduler.gate_pending(gate, generation) {
            Some((gate, serial))
        } else {
            self.in_flight.remove(&translation_page);
            None
        }
    }

    /// Evicts the least recently used entry of part `part`; a dirty one's translation page is
    /// written back.
    fn evict_one(
        &mut self,
        part: usize,
        nand: &mut NandPath,
        now: SimTime,
        scheduler: &mut FlashScheduler,
        events: Option<&mut DeviceEvents>,
    ) -> Result<(), SimulationError> {
        let entries = &self.entries;
        let Some(page) = self.parts[part].order.pop_oldest(|used| is_live(entries, used)) else { return Ok(()) };
        // The victims to come: the entry of the one LOOK_AHEAD places on (its index word loaded
        // LOOK_AHEAD evictions ago), the index word of the one twice as far.
        let order = &self.parts[part].order;
        if let Some(upcoming) = order.upcoming(LOOK_AHEAD) {
            self.entries.prefetch(upcoming);
        }
        if let Some(upcoming) = order.upcoming(2 * LOOK_AHEAD) {
            self.entries.prefetch_index(upcoming);
        }
        let Some(entry) = self.entries.remove(page) else { return Ok(()) };
        self.parts[part].evictions += 1;
        if !entry.dirty {
            self.counts.clean_evictions += 1;
            return Ok(());
        }
        self.counts.dirty_evictions += 1;
        self.dirty_entries -= 1;
        self.counts.entries_written_back += 1;
        let translation_page = self.translation_page_of(page);
        if self.sizes.keep_written_back_pages {
            let word = translation_page as usize / 64;
            if word >= self.kept_in_dram.len() {
                self.kept_in_dram.resize(word + 1, 0);
            }
            self.kept_in_dram[word] |= 1 << (translation_page % 64);
        }
        // Every other dirty entry of the translation page goes with it, and is clean from now on
        // (of this part only: another flow's entries there stay dirty, listed for its own write-back;
        // the list keeps its memory for the next time).
        let mut listed =
            self.dirty_by_translation_page.get_mut(translation_page as usize).map(std::mem::take).unwrap_or_default();
        let mut kept = 0;
        for index in 0..listed.len() {
            let page = listed[index];
            if let Some(other) = self.entries.get_mut(page) {
                if other.dirty && other.part != entry.part {
                    listed[kept] = page;
                    kept += 1;
                } else if other.dirty {
                    other.dirty = false;
                    self.dirty_entries -= 1;
                    self.counts.entries_written_back += 1;
                }
            }
        }
        listed.truncate(kept);
        if let Some(slot) = self.dirty_by_translation_page.get_mut(translation_page as usize) {
            *slot = listed;
        }
        let lpn = Lpn(self.first_translation_page + translation_page);
        let (read, programmed) = nand.write_metadata_page(lpn, true, now, scheduler, events)?;
        if let Some(read) = read {
            self.counts.translation_merge_reads += 1;
            self.counts.translation_die_ns += Self::die_ns(&nand.layout, read, false);
        }
        self.counts.translation_programs += 1;
        self.counts.translation_die_ns += Self::die_ns(&nand.layout, programmed, true);
        Ok(())
    }

    /// The gate of a read of translation page `translation_page`: one already running, or a new
    /// one (started now); None when the page was never written (nothing to read: the entry is
    /// made as new). Returns it with the read's serial (0: none).
    fn gate_for(
        &mut self,
        nand: &mut NandPath,
        translation_page: u32,
        now: SimTime,
        scheduler: &mut FlashScheduler,
    ) -> (Option<u32>, u32) {
        if let Some((gate, serial)) = self.running_read(translation_page, scheduler) {
            self.counts.shared_reads += 1;
            return (Some(gate), serial);
        }
        let kept = |word: &u64| word & (1 << (translation_page % 64)) != 0;
        if self.sizes.keep_written_back_pages && self.kept_in_dram.get(translation_page as usize / 64).is_some_and(kept)
        {
            return (None, 0);
        }
        let lpn = Lpn(self.first_translation_page + translation_page);
        let Some(ppn) = nand.ftl.lookup(lpn) else { return (None, 0) };
        let gate = scheduler.open_gate(now);
        if nand.witness.watching() {
            nand.witness.returned(lpn.0, Some(nand.ftl.tag(ppn)), "translation page read");
        }
        nand.read_page(scheduler, ppn, now, Waiter::Gate(gate));
        self.counts.translation_reads += 1;
        self.counts.translation_die_ns += Self::die_ns(&nand.layout, ppn, false);
        let serial = self.next_serial;
        self.next_serial = self.next_serial.checked_add(1).unwrap_or(1);
        self.in_flight.insert(translation_page, (gate, scheduler.gate_generation(gate), serial));
        self.gates.push(gate);
        (Some(gate), serial)
    }

    /// Closes the gates this request opened (each ends when its translation read does; later
    /// requests may still add work to it until then).
    fn close_gates(&mut self, scheduler: &mut FlashScheduler) {
        for &gate in &self.gates {
            scheduler.close_gate(gate);
        }
        self.gates.clear();
    }

    /// The replay's lookahead (`Stage::prefetch`): the entries a request on `span` will look up.
    pub(super) fn prefetch(&self, span: PageSpan, step: Lookahead) {
        let last = span.last.min(span.first + PREFETCH_PAGES - 1);
        match step {
            Lookahead::Index => {
                self.entries.prefetch_index(span.first as u32);
                self.entries.prefetch_index(last as u32);
            }
            Lookahead::Records => {
                for page in span.first..=last {
                    self.entries.prefetch(page as u32);
                }
            }
        }
    }

    /// Looks up every page of `pages` for a write; each miss's program group will wait for its
    /// translation read (`NandPath::group_gates`).
    fn look_up_for_write(
        &mut self,
        nand: &mut NandPath,
        pages: impl Iterator<Item = u32>,
        now: SimTime,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        nand.group_gates.clear();
        for page in pages {
            if let Some(gate) = self.look_up(nand, page, true, now, scheduler, Some(&mut *events))? {
                nand.group_gates.push((page, gate));
            }
        }
        Ok(())
    }

    /// The oracle's own check: no host page is mapped to a translation page's physical page.
    pub(super) fn check_translation_pages_hold_no_host_data(&self, ftl: &Ftl, witness: &Witness) {
        let first = self.first_translation_page;
        let translation: HashSet<u32> = (0..self.sizes.translation_pages as u32)
            .filter_map(|page| ftl.lookup(Lpn(first + page)))
            .map(|ppn| ppn.0)
            .collect();
        let shared = (0..first).find(|&page| ftl.lookup(Lpn(page)).is_some_and(|ppn| translation.contains(&ppn.0)));
        if let Some(page) = shared {
            witness.consistent(false, || format!("host page {page} is mapped to a translation page"));
        }
    }
}

/// What the NAND path hands the cache (see the module).
impl MappingCache {
    pub(super) fn read(
        &mut self,
        nand: &mut NandPath,
        io: &HostIo<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        let mut misses = std::mem::take(&mut self.misses);
        misses.clear();
        let mut any_miss = false;
        for page in io.span.first..=io.span.last {
            let missed = self.look_up(nand, page as u32, false, io.now, scheduler, None)?;
            any_miss |= missed.is_some();
            misses.push(missed);
        }
        if !any_miss {
            self.misses = misses;
            // Every entry cached: the NAND path's own read (multi-plane reads included).
            nand.begin(io.request, io.span, io.index);
            nand.read_span(io.span, io.now, io.slot, scheduler);
            return Ok(());
        }
        // Some data reads wait for translation reads: page by page.
        nand.begin(io.request, io.span, io.index);
        let waiter = Waiter::Request(io.slot);
        for (page, missed) in (io.span.first..=io.span.last).zip(misses.iter().copied()) {
            let host = Lpn(page as u32);
            let physical = nand.physical_of(host);
            if nand.witness.watching() {
                nand.witness.returned(host.0, physical.map(|ppn| nand.ftl.tag(ppn)), "host read");
            }
            match (physical, missed) {
                (Some(ppn), Some(gate)) => nand.read_page_after_gate(scheduler, ppn, io.now, gate, waiter),
                (Some(ppn), None) => nand.read_page(scheduler, ppn, io.now, waiter),
                (None, gate) => {
                    nand.unmapped_page_reads += 1;
                    if let Some(gate) = gate {
                        scheduler.wait_for_gate(gate, waiter);
                    }
                }
            }
        }
        self.close_gates(scheduler);
        self.misses = misses;
        Ok(())
    }

    pub(super) fn write(
        &mut self,
        nand: &mut NandPath,
        io: &HostIo<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        let pages = (io.span.first..=io.span.last).map(|page| page as u32);
        self.look_up_for_write(nand, pages, io.now, scheduler, events)?;
        nand.begin(io.request, io.span, io.index);
        let written = nand.write_span(io, scheduler, events);
        nand.group_gates.clear();
        self.close_gates(scheduler);
        written
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn write_tagged(
        &mut self,
        nand: &mut NandPath,
        pages: &[TaggedPage],
        now: SimTime,
        slot: u32,
        origin_line: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        self.look_up_for_write(nand, pages.iter().map(|held| held.page), now, scheduler, events)?;
        let written = nand.write_tagged_pages(pages, now, slot, origin_line, scheduler, events);
        nand.group_gates.clear();
        self.close_gates(scheduler);
        written
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn read_flash_page(
        &mut self,
        nand: &mut NandPath,
        page: u32,
        ppn: Ppn,
        now: SimTime,
        waiter: Waiter,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        match self.look_up(nand, page, false, now, scheduler, None)? {
            None => nand.read_page(scheduler, ppn, now, waiter),
            Some(gate) => nand.read_page_after_gate(scheduler, ppn, now, gate, waiter),
        }
        self.close_gates(scheduler);
        Ok(())
    }

    /// Preconditioning writes go to flash, and so does (untimed, once) the translation page of
    /// each page written (this part; the NAND path writes the page); the cache starts empty.
    pub(super) fn untimed_write(&self, nand: &mut NandPath, page: u32) -> Result<(), SimulationError> {
        let lpn = Lpn(self.first_translation_page + self.translation_page_of(page));
        if nand.ftl.lookup(lpn).is_none() {
            let tag = nand.witness.own_page_written(lpn.0);
            let mut ops = std::mem::take(&mut nand.ops);
            ops.clear();
            nand.ftl.write_metadata(lpn, 0, tag, &mut ops).map_err(|source| SimulationError::Ftl {
                origin: format!("{} (preconditioning the mapping table's translation pages)", nand.origin),
                source,
            })?;
            nand.ops = ops;
        }
        Ok(())
    }

    /// The cache's section of the result, and the memory its entries take.
    pub(super) fn contribute(&self, context: &ResultContext<'_>, result: &mut DataPathResult) {
        result.mapping_cache = Some(self.summary(context));
        // The entry store (its index included).
        result.model_memory_bytes += self.entries.memory_bytes();
    }
}
