//! A write-back data cache in the controller's DRAM (issue 37), a stage in front of the NAND path.
//!
//! What it models (`[device.data_cache]`, `config/device/data_cache.rs`):
//! - A line is one NAND page, filled sector by sector (512 B): a host write of part of a page
//!   makes a line holding just those sectors (no flash read); lines are kept in least-recently-used
//!   order (reads and writes both count as a use).
//! - A host write moves its bytes into DRAM (one access on the DRAM bus, `scheduler/dram.rs`) and
//!   completes then: its pages are dirty lines. A write to a page already cached is a write hit.
//!   A write to a page not cached takes a line, evicting the least recently used one when the cache
//!   is full: a clean line goes for free, a dirty one is destaged first and the write waits for that
//!   program (the cache is full of dirty data: the host now writes at the flash's pace).
//! - When more than the high watermark of lines is dirty, the least recently used dirty lines are
//!   destaged in the background down to the low watermark: each page read out of DRAM, merged with
//!   its flash copy when the line holds part of it, programmed through the NAND path (with its GC
//!   and multi-plane groups) as work no host request waits for. A destaged line stays, clean.
//! - A host read is served from DRAM for every page whose line holds all the sectors it reads (a
//!   hit, one DRAM access for the request's cached bytes); a page the line holds in part is read
//!   from both (a partial hit); other pages are read from flash. Reads do not fill lines (MQSim's
//!   write cache, its default `Device_Level_Data_Caching_Mode`).
//! - `force_unit_access`: every write is written through, the host waiting for its programs; lines
//!   stay clean.
//! - Power loss: the bytes the host was told are written that are not yet in flash (dirty sectors,
//!   and destaged data until its program ends) over time: maximum, time average, at the end.
//! - Between flows (`sharing`, MQSim's `Data_Cache_Sharing_Mode`): one cache, or, with
//!   `equal_partitioning`, a part per flow of 1/n of the lines with its own LRU lists, watermarks,
//!   evictions and destage (`../partitions.rs`: a page's part is the flow whose range holds it); a
//!   line stays in the part that made it.
//!
//! What it leaves out: read caching of read misses and prefetching; MQSim's eager write-back of
//! pages written once (its bloom-filter hot/cold test) and its back-pressure limit on outstanding
//! destage (here a full cache makes the writer wait for its eviction instead); priorities between
//! destage and host work (a destage round's programs queue with host work by ready time); a
//! line evicted while its destage is still being programmed (its data is counted as in the flash
//! controller's buffer); with an eviction's destage, the exposure ends when the program is booked,
//! not when it ends (the writer waits for it); the cache's own metadata in DRAM; SCM behind the
//! cache (refused by the config). Sources: MQSim's `Data_Cache_Manager_Flash_Advanced` and
//! `Data_Cache_Flash` (LRU slots, sector bitmaps, write-back at eviction), issue 37.
//!
//! Data, for the integrity oracle (page-granular, as the NAND path's; `oracle.rs`): a line keeps
//! the tag its host write carried (`HostIo::tags`) and the tag of the flash copy it was made over;
//! a destage programs the page with the line's tag, so the flash copy of a clean line carries it.
//! A read of a cached page returns the line's tag, and, for sectors the line lacks, the flash copy
//! must be the one the line was made over; the oracle's read-back checks a cached page both ways
//! (the latest data; destaged data found in flash). All reported through the cache's `Witness`.

mod summary;
pub use summary::{DataCachePartSummary, DataCacheSummary};

use super::page_store::{PageRecord, PageStore};
use super::pages::{piece_mask, whole_pages, TaggedPage};
use super::partitions::Partitions;
use super::result::DataPathResult;
use super::stage::{Below, HostIo, Lookahead, ResultContext, Stage};
use super::use_order::{Use, UseOrder};
use super::witness::Witness;
use crate::config::{DataCacheConfig, DeleteTarget, DATA_CACHE_SECTOR_BYTES};
use crate::device_events::DeviceEvents;
use crate::error::SimulationError;
use crate::geometry::Lpn;
use crate::host::PageSpan;
use crate::scheduler::{FlashScheduler, RequestTag, Waiter};
use ssdlab_engine::SimTime;
use ssdlab_workload::IoOp;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Pages destaged under one background request: the exposure of a chunk ends with its last
/// program, so smaller chunks report it closer to each page's own end; larger ones give the NAND
/// path longer runs to gather into multi-plane programs.
const DESTAGE_CHUNK_PAGES: usize = 16;

/// The two LRU lists a line is on: every line, and the dirty ones.
const ALL: usize = 0;
const DIRTY: usize = 1;
/// Lines whose records are loaded ahead of their eviction or destage.
const LOOK_AHEAD: usize = 4;
/// Pages per chunk of the line store (`../page_store.rs`): lines are few beside the pages, so small
/// chunks, which waste little where lines lie apart.
const LINE_CHUNK: usize = 8;
/// Pages of a request whose lines the replay's lookahead loads.
const PREFETCH_PAGES: u64 = 8;

/// One cached page, at its page's place in the line store.
#[derive(Debug, Clone, Copy, Default)]
struct Line {
    /// The stamps of its last use on the lists ([`ALL`], [`DIRTY`]): its places in its part's use
    /// orders (`../use_order.rs`).
    stamps: [u32; 2],
    /// Sectors held (bit i: sector i of the page).
    sectors: u64,
    /// Of those, sectors not yet in flash.
    dirty: u64,
    /// The oracle's tag of the page's latest write (0 without the oracle).
    tag: u32,
    /// The part of the cache the line is in (`sharing`; 0 when shared).
    part: u8,
    /// With the oracle: the tag the page's flash copy must carry (0: none): the one it had when the
    /// line was made, then the line's own once destaged. The sectors the line lacks come from it.
    flash_tag: u32,
    /// Cached (the line store's flag).
    held: bool,
}

impl PageRecord for Line {
    #[inline]
    fn is_held(&self) -> bool {
        self.held
    }
    #[inline]
    fn set_held(&mut self, held: bool) {
        self.held = held;
    }
}

/// One part of the cache (the whole cache when shared): its lists and sizes, and what it did.
#[derive(Debug, Clone)]
struct Part {
    /// Every line of the part by last use, and its dirty lines by last use (a line turns dirty only
    /// when used, so it joins that list at its most recent end too).
    orders: [UseOrder; 2],
    capacity_lines: usize,
    /// Background destage starts above `high_lines` dirty lines and stops at `low_lines`.
    high_lines: usize,
    low_lines: usize,
    read_page_hits: u64,
    write_page_hits: u64,
    evictions: u64,
}

/// Counts of what the cache did.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    write_page_hits: u64,
    write_page_misses: u64,
    read_page_hits: u64,
    read_page_partial_hits: u64,
    read_page_misses: u64,
    read_requests_from_cache: u64,
    clean_evictions: u64,
    dirty_evictions: u64,
    destage_rounds: u64,
    pages_destaged_in_background: u64,
    pages_destaged_at_eviction: u64,
    pages_written_through: u64,
    lines_deleted: u64,
}

/// The bytes a power loss would lose over time (see the module): a step function integrated as it
/// changes; destaged data stays in it until its background request ends.
#[derive(Debug, Clone, Default)]
struct Exposure {
    since: Option<u64>,
    at: u64,
    bytes: u64,
    max_bytes: u64,
    byte_ns: u128,
    /// Destage requests not yet ended: (end, bytes).
    in_flight: BinaryHeap<Reverse<(u64, u64)>>,
}

impl Exposure {
    fn step_to(&mut self, time: u64) {
        self.since.get_or_insert(time);
        if time > self.at {
            self.byte_ns += self.bytes as u128 * (time - self.at) as u128;
            self.at = time;
        }
    }

    /// Moves the clock to `time`, ending the destages that ended by then (in time order).
    fn advance(&mut self, time: u64) {
        while let Some(&Reverse((end, bytes))) = self.in_flight.peek() {
            if end > time {
                break;
            }
            self.in_flight.pop();
            self.step_to(end);
            self.bytes -= bytes;
        }
        self.step_to(time);
    }

    fn add(&mut self, bytes: u64) {
        self.bytes += bytes;
        self.max_bytes = self.max_bytes.max(self.bytes);
    }

    fn remove(&mut self, bytes: u64) {
        self.bytes -= bytes;
    }

    /// The time average from the first change to `end`.
    fn mean_until(&self, end: u64) -> f64 {
        let mut copy = self.clone();
        copy.advance(end);
        let span = end.saturating_sub(copy.since.unwrap_or(end));
        if span == 0 {
            0.0
        } else {
            copy.byte_ns as f64 / span as f64
        }
    }
}

/// The data cache in front of the path below (see the module).
pub(in crate::simulation) struct DataCachePath {
    /// Lines by page (`../page_store.rs`: one request's lines side by side).
    lines: PageStore<Line, LINE_CHUNK>,
    /// The cache's parts: one when shared, one per flow with `equal_partitioning`.
    parts: Vec<Part>,
    /// Which part a page's line goes to.
    partitions: Partitions,
    capacity_bytes: u64,
    capacity_lines: usize,
    sectors_per_page: u64,
    full_mask: u64,
    force_unit_access: bool,
    drop_on_delete: bool,
    dirty_sectors: u64,
    exposure: Exposure,
    counts: Counts,
    scratch: Vec<TaggedPage>,
    /// What the cache shows the integrity oracle of the data it returns and holds.
    witness: Witness,
    /// The stamp of the next use.
    next_stamp: u32,
}

/// Whether a use on list `list` is its line's latest (the line cached, with that stamp, and dirty
/// for [`DIRTY`]).
#[inline]
fn is_live(lines: &PageStore<Line, LINE_CHUNK>, list: usize, used: Use) -> bool {
    lines.get(used.page).is_some_and(|line| line.stamps[list] == used.stamp && (list == ALL || line.dirty != 0))
}

#[inline]
fn sector_bytes(mask: u64) -> u64 {
    mask.count_ones() as u64 * DATA_CACHE_SECTOR_BYTES
}

impl DataCachePath {
    /// The cache of `config` on `pages` host pages of `page_bytes`, in the parts `partitions` gives
    /// (one: shared).
    pub(super) fn new(
        config: &DataCacheConfig,
        pages: u64,
        page_bytes: u64,
        delete_target: DeleteTarget,
        witness: Witness,
        partitions: Partitions,
    ) -> DataCachePath {
        let capacity_lines = (config.capacity_bytes / page_bytes) as usize;
        let sectors_per_page = page_bytes / DATA_CACHE_SECTOR_BYTES;
        let part_lines = partitions.share(capacity_lines as u64) as usize;
        let part = Part {
            orders: [UseOrder::default(), UseOrder::default()],
            capacity_lines: part_lines,
            high_lines: (config.high_watermark_dirty_fraction * part_lines as f64).floor() as usize,
            low_lines: (config.low_watermark_dirty_fraction * part_lines as f64).floor() as usize,
            read_page_hits: 0,
            write_page_hits: 0,
            evictions: 0,
        };
        DataCachePath {
            lines: PageStore::new(pages),
            parts: vec![part; partitions.count()],
            partitions,
            capacity_bytes: config.capacity_bytes,
            capacity_lines,
            sectors_per_page,
            full_mask: u64::MAX >> (64 - sectors_per_page),
            force_unit_access: config.force_unit_access,
            // A delete that reaches the FTL drops the page's line too; one sent nowhere or to the
            // middleware leaves the data readable below, so the line (the latest data) stays.
            drop_on_delete: delete_target == DeleteTarget::Ftl,
            dirty_sectors: 0,
            exposure: Exposure::default(),
            counts: Counts::default(),
            scratch: Vec::new(),
            witness,
            next_stamp: 0,
        }
    }

    /// Brings the power-loss account up to `now`: destages that ended since the last call leave it.
    fn catch_up(&mut self, now: SimTime, scheduler: &mut FlashScheduler) {
        for (end, bytes) in scheduler.background_completions().drain(..) {
            self.exposure.in_flight.push(Reverse((end.0, bytes)));
        }
        self.exposure.advance(now.0);
    }

    /// With the oracle, the tag of `page`'s flash copy now (0: none); 0 without the oracle.
    fn flash_tag_of(&self, below: &mut Below<'_>, page: u32) -> u32 {
        if !self.witness.watching() {
            return 0;
        }
        below.flash_tag(page).unwrap_or(0)
    }

    fn stamp(&mut self) -> u32 {
        let stamp = self.next_stamp;
        self.next_stamp = stamp.wrapping_add(1);
        stamp
    }

    /// Marks `page`'s line (on `list`, with stamp `current`) used on that list now.
    fn use_on(&mut self, list: usize, page: u32, part: usize, current: u32) {
        if self.parts[part].orders[list].is_most_recent(page, current) {
            return;
        }
        let stamp = self.stamp();
        if let Some(line) = self.lines.get_mut(page) {
            line.stamps[list] = stamp;
        }
        let lines = &self.lines;
        self.parts[part].orders[list].used(page, stamp, |used| is_live(lines, list, used));
    }

    /// `page`'s line joins `list` (of part `part`) as its most recent.
    fn join(&mut self, list: usize, page: u32, part: usize) {
        let stamp = self.stamp();
        if let Some(line) = self.lines.get_mut(page) {
            line.stamps[list] = stamp;
        }
        let lines = &self.lines;
        self.parts[part].orders[list].join(page, stamp, |used| is_live(lines, list, used));
    }

    /// Starts loading the lines of `list` (of part `part`) that go soon: the record of the one
    /// [`LOOK_AHEAD`] places on (whose index word was loaded [`LOOK_AHEAD`] uses ago), the index
    /// word of the one twice as far (loading a record needs its index word: loaded ahead too, the
    /// record's prefetch does not wait).
    #[inline]
    fn load_ahead(&self, part: usize, list: usize) {
        let order = &self.parts[part].orders[list];
        if let Some(page) = order.upcoming(LOOK_AHEAD) {
            self.lines.prefetch(page);
        }
        if let Some(page) = order.upcoming(2 * LOOK_AHEAD) {
            self.lines.prefetch_index(page);
        }
    }

    /// Marks `page`'s line (`line`, as held) the most recently used.
    fn touch(&mut self, page: u32, line: &Line) {
        let part = line.part as usize;
        self.use_on(ALL, page, part, line.stamps[ALL]);
        if line.dirty != 0 {
            self.use_on(DIRTY, page, part, line.stamps[DIRTY]);
        }
    }

    /// A new, empty line for `page` in part `part` (its most recently used).
    fn insert_line(&mut self, page: u32, flash_tag: u32, part: usize) {
        let line = Line { stamps: [0; 2], sectors: 0, dirty: 0, tag: 0, flash_tag, part: part as u8, held: true };
        self.lines.insert(page, line);
        self.join(ALL, page, part);
    }

    /// Removes `page`'s line (`evicted`: taken off the list of all lines already); returns it.
    fn remove_line(&mut self, page: u32, evicted: bool) -> Option<Line> {
        let line = self.lines.remove(page)?;
        let orders = &mut self.parts[line.part as usize].orders;
        if !evicted {
            orders[ALL].leave();
        }
        if line.dirty != 0 {
            orders[DIRTY].leave();
            self.dirty_sectors -= line.dirty.count_ones() as u64;
        }
        Some(line)
    }

    /// The line of `page`, if cached.
    #[inline]
    fn line_of(&self, page: u32) -> Option<Line> {
        self.lines.get(page).copied()
    }

    /// The line as a page to program (its held sectors, read out of DRAM).
    fn tagged(&self, page: u32, line: &Line) -> TaggedPage {
        TaggedPage {
            page,
            tag: line.tag,
            partial: line.sectors != self.full_mask,
            dram_bytes: sector_bytes(line.sectors),
        }
    }

    /// Makes room for one line in part `part`: evicts its least recently used; a dirty one is
    /// destaged first and request `slot` (the scheduler's request) waits for it.
    #[allow(clippy::too_many_arguments)]
    fn evict_one(
        &mut self,
        part: usize,
        below: &mut Below<'_>,
        now: SimTime,
        slot: u32,
        origin_line: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        let lines = &self.lines;
        let Some(page) = self.parts[part].orders[ALL].pop_oldest(|used| is_live(lines, ALL, used)) else {
            return Ok(());
        };
        self.load_ahead(part, ALL);
        self.parts[part].evictions += 1;
        let Some(line) = self.remove_line(page, true) else { return Ok(()) };
        if line.dirty == 0 {
            self.counts.clean_evictions += 1;
            return Ok(());
        }
        self.counts.dirty_evictions += 1;
        self.counts.pages_destaged_at_eviction += 1;
        self.exposure.remove(sector_bytes(line.dirty));
        let held = self.tagged(page, &line);
        below.write_tagged(&[held], now, slot, origin_line, scheduler, events)
    }

    /// Background destage (see the module): when more than the high watermark of a part's lines is
    /// dirty, its least recently used dirty lines go to flash until its low watermark is reached.
    fn destage_if_due(
        &mut self,
        below: &mut Below<'_>,
        now: SimTime,
        origin_line: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        for part in 0..self.parts.len() {
            if self.parts[part].orders[DIRTY].len() > self.parts[part].high_lines {
                self.destage_part(part, below, now, origin_line, scheduler, events)?;
            }
        }
        Ok(())
    }

    /// One round of background destage in part `part`.
    fn destage_part(
        &mut self,
        part: usize,
        below: &mut Below<'_>,
        now: SimTime,
        origin_line: u64,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        self.counts.destage_rounds += 1;
        let low_lines = self.parts[part].low_lines;
        let mut chunk = std::mem::take(&mut self.scratch);
        while self.parts[part].orders[DIRTY].len() > low_lines {
            chunk.clear();
            let mut bytes = 0;
            while chunk.len() < DESTAGE_CHUNK_PAGES && self.parts[part].orders[DIRTY].len() > low_lines {
                let lines = &self.lines;
                let Some(page) = self.parts[part].orders[DIRTY].pop_oldest(|used| is_live(lines, DIRTY, used)) else {
                    break;
                };
                self.load_ahead(part, DIRTY);
                let Some(line) = self.lines.get_mut(page) else { break };
                bytes += sector_bytes(line.dirty);
                self.dirty_sectors -= line.dirty.count_ones() as u64;
                line.dirty = 0;
                line.flash_tag = line.tag;
                let line = *line;
                chunk.push(self.tagged(page, &line));
            }
            self.counts.pages_destaged_in_background += chunk.len() as u64;
            let tag = RequestTag { latency_from: now, size_bytes: bytes, write: true, delete: false, background: true };
            let request = scheduler.open_request(now, tag);
            below.write_tagged(&chunk, now, request, origin_line, scheduler, events)?;
            scheduler.close_request(request, now);
        }
        self.scratch = chunk;
        Ok(())
    }

    fn write_pages(
        &mut self,
        below: &mut Below<'_>,
        io: &HostIo<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        let (request, now, slot) = (io.request, io.now, io.slot);
        let line_number = request.origin_line;
        let (first_sector, end_sector) = sector_range(request.offset_bytes, request.end_bytes());
        // The data moves into DRAM; the write completes then (or, written through, at its programs).
        scheduler.dram_access(now, request.size_bytes, true, Waiter::Request(slot));
        let mut written_through = std::mem::take(&mut self.scratch);
        written_through.clear();
        for page in io.span.first..=io.span.last {
            let mask = piece_mask(first_sector, end_sector, page, self.sectors_per_page);
            if mask == 0 {
                continue;
            }
            let tag = io.tag(page - io.span.first);
            let page = page as u32;
            if let Some(line) = self.line_of(page) {
                self.counts.write_page_hits += 1;
                self.parts[line.part as usize].write_page_hits += 1;
                self.touch(page, &line);
            } else {
                self.counts.write_page_misses += 1;
                let part = self.partitions.of(page);
                if self.parts[part].orders[ALL].len() >= self.parts[part].capacity_lines {
                    self.evict_one(part, below, now, slot, line_number, scheduler, events)?;
                }
                let flash_tag = self.flash_tag_of(below, page);
                self.insert_line(page, flash_tag, part);
            }
            let Some(line) = self.lines.get_mut(page) else { continue };
            line.sectors |= mask;
            line.tag = tag;
            if self.force_unit_access {
                line.flash_tag = tag;
                let line = *line;
                written_through.push(self.tagged(page, &line));
                continue;
            }
            let newly_dirty = mask & !line.dirty;
            let was_clean = line.dirty == 0;
            line.dirty |= mask;
            let part = line.part as usize;
            if was_clean {
                // Just used: its place on the dirty list is the most recent end.
                self.join(DIRTY, page, part);
            }
            self.dirty_sectors += newly_dirty.count_ones() as u64;
            self.exposure.add(sector_bytes(newly_dirty));
        }
        if !written_through.is_empty() {
            self.counts.pages_written_through += written_through.len() as u64;
            below.write_tagged(&written_through, now, slot, line_number, scheduler, events)?;
        }
        self.scratch = written_through;
        self.destage_if_due(below, now, line_number, scheduler, events)
    }

    /// A read some of whose pages are cached (see the module).
    fn read_pages(
        &mut self,
        io: &HostIo<'_>,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        let (request, now, slot) = (io.request, io.now, io.slot);
        let (first_sector, end_sector) = sector_range(request.offset_bytes, request.end_bytes());
        below.begin(io);
        let mut cached_bytes = 0;
        let mut all_hit = true;
        for page in io.span.first..=io.span.last {
            let mask = piece_mask(first_sector, end_sector, page, self.sectors_per_page);
            let page = page as u32;
            let line = self.line_of(page);
            let held = line.map_or(0, |line| line.sectors & mask);
            if let Some(line) = line {
                // The page's latest write is the line's, whichever sectors the read asks for.
                self.witness.returned(page, Some(line.tag), "host read (DRAM cache)");
                self.touch(page, &line);
                cached_bytes += sector_bytes(held);
                if held == mask {
                    self.counts.read_page_hits += 1;
                    self.parts[line.part as usize].read_page_hits += 1;
                    continue;
                }
            }
            if held != 0 {
                self.counts.read_page_partial_hits += 1;
            } else {
                self.counts.read_page_misses += 1;
            }
            all_hit = false;
            // The sectors the line lacks (all of them, without a line) come from the flash page.
            if self.witness.watching() {
                let found = below.flash_tag(page);
                match line {
                    None => self.witness.returned(page, found, "host read"),
                    Some(line) => self.witness.consistent(found.unwrap_or(0) == line.flash_tag, || {
                        format!(
                            "host page {page} (host read, sectors the cache line lacks): flash copy {found:?}, the line was made over tag {}",
                            line.flash_tag
                        )
                    }),
                }
            }
            below.read_flash_page(page, now, Waiter::Request(slot), scheduler)?;
        }
        if cached_bytes > 0 {
            scheduler.dram_access(now, cached_bytes, false, Waiter::Request(slot));
        }
        self.counts.read_requests_from_cache += all_hit as u64;
        Ok(())
    }

    /// The oracle's read-back of `page`: from its line when cached (whose flash copy must carry
    /// the data the line was made over, or its data once destaged), from the path below otherwise.
    fn read_back_page(&mut self, page: u32, below: &mut Below<'_>) {
        let Some(line) = self.line_of(page) else {
            return below.read_back(page);
        };
        let in_flash = below.flash_tag(page);
        self.witness.returned(page, Some(line.tag), "final sweep (DRAM cache)");
        // A clean line was destaged: its flash copy carries its data. A dirty one's flash copy is
        // still the one it was made over (or its last destage).
        let clean_and_lost = line.dirty == 0 && line.flash_tag != line.tag;
        self.witness.consistent(!clean_and_lost && in_flash.unwrap_or(0) == line.flash_tag, || {
            format!(
                "host page {page} (final sweep): cache line tag {} (dirty sectors {:#x}), flash copy {in_flash:?}, expected in flash {}",
                line.tag, line.dirty, line.flash_tag
            )
        });
    }

    /// Drops the line of a deleted page (its dirty data never reaches flash).
    fn delete_line(&mut self, page: u32) {
        if let Some(line) = self.remove_line(page, false) {
            self.counts.lines_deleted += 1;
            self.exposure.remove(sector_bytes(line.dirty));
        }
    }
}

/// (first sector, end sector) of a byte range.
#[inline]
fn sector_range(offset_bytes: u64, end_bytes: u64) -> (u64, u64) {
    (offset_bytes / DATA_CACHE_SECTOR_BYTES, end_bytes.div_ceil(DATA_CACHE_SECTOR_BYTES))
}

impl Stage for DataCachePath {
    fn read(
        &mut self,
        io: &HostIo<'_>,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        self.catch_up(io.now, scheduler);
        // A read that touches no line goes below as it is.
        let touches_a_line =
            !self.lines.is_empty() && (io.span.first..=io.span.last).any(|page| self.lines.contains(page as u32));
        if !touches_a_line {
            self.counts.read_page_misses += io.span.pages();
            return below.read(io, scheduler);
        }
        self.read_pages(io, below, scheduler)
    }

    fn write(
        &mut self,
        io: &HostIo<'_>,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        debug_assert_eq!(io.request.op, IoOp::Write);
        self.catch_up(io.now, scheduler);
        below.begin(io);
        self.write_pages(below, io, scheduler, events)
    }

    fn prefetch(&self, span: PageSpan, step: Lookahead) {
        if self.lines.is_empty() {
            return;
        }
        let last = span.last.min(span.first + PREFETCH_PAGES - 1);
        match step {
            Lookahead::Index => {
                self.lines.prefetch_index(span.first as u32);
                self.lines.prefetch_index(last as u32);
            }
            Lookahead::Records => {
                for page in span.first..=last {
                    self.lines.prefetch(page as u32);
                }
            }
        }
    }

    /// A delete: when deletes reach the FTL, the whole pages' lines are dropped (dirty data
    /// included); then the stage below deletes as `host.delete_target` says.
    #[cold]
    fn delete(&mut self, span: PageSpan, now: SimTime, below: &mut Below<'_>) {
        self.exposure.advance(now.0);
        if self.drop_on_delete {
            for page in whole_pages(span).into_iter().flatten() {
                self.delete_line(page as u32);
            }
        }
        below.delete(span, now)
    }

    fn delete_page(&mut self, host: Lpn, below: &mut Below<'_>) -> bool {
        if self.drop_on_delete {
            self.delete_line(host.0);
        }
        below.delete_page(host)
    }

    /// Preconditioning writes go to flash (the cache starts empty); a cached copy would be stale.
    fn untimed_write(&mut self, page: u32, tags: &[u32], below: &mut Below<'_>) -> Result<(), SimulationError> {
        self.delete_line(page);
        below.untimed_write(page, tags)
    }

    fn read_back(&mut self, key: u32, below: &mut Below<'_>) {
        self.read_back_page(key, below)
    }

    fn contribute(&self, context: &ResultContext<'_>, result: &mut DataPathResult) {
        result.data_cache = Some(self.summary(context));
        // The line store (its index included).
        result.model_memory_bytes += self.lines.memory_bytes();
    }

    /// The power-loss account at `at`: the bytes as of the last request, less the destages that
    /// ended since (those the scheduler has reported and not yet handed over included).
    fn unsaved_bytes(&self, at: SimTime, scheduler: &FlashScheduler) -> Option<u64> {
        let ended = |end: u64| end > self.exposure.at && end <= at.0;
        let saved: u64 = self
            .exposure
            .in_flight
            .iter()
            .map(|Reverse((end, bytes))| (*end, *bytes))
            .chain(scheduler.pending_background_completions().iter().map(|&(end, bytes)| (end.0, bytes)))
            .filter(|&(end, _)| ended(end))
            .map(|(_, bytes)| bytes)
            .sum();
        Some(self.exposure.bytes.saturating_sub(saved))
    }
}

#[cfg(test)]
mod tests {
    use super::Exposure;
    use std::cmp::Reverse;

    #[test]
    fn exposure_integrates_the_bytes_over_time_and_ends_destages_in_order() {
        let mut exposure = Exposure::default();
        exposure.advance(100);
        exposure.add(1000); // 1,000 bytes from 100 ns
        exposure.advance(200);
        exposure.add(500); // 1,500 from 200 ns; a destage of 1,000 of them ends at 300
        exposure.in_flight.push(Reverse((300, 1000)));
        exposure.advance(400);
        // 1,000 x 100 + 1,500 x 100 + 500 x 100 over 300 ns.
        assert_eq!(exposure.byte_ns, 300_000);
        assert_eq!(exposure.bytes, 500);
        assert_eq!(exposure.max_bytes, 1500);
        assert!((exposure.mean_until(500) - (300_000.0 + 50_000.0) / 400.0).abs() < 1e-9);
    }
}
