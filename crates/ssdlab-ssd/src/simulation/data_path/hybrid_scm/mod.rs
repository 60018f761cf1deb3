//! The hybrid SCM/NAND data path (seed 001): SCM in front of the NAND path, for the hybrid
//! M-SCM/NAND SSD and the All S-SCM SSD. `crate::scm` decides where each page's sectors go; this
//! file carries it out, programming the NAND pages through the NAND path (`nand/`, through `Below`). It leaves out
//! background eviction (the seed's emulator has none) and the middleware (the host page is the
//! FTL's page here).
//!
//! A request is cut into page-sized pieces (the NAND page: `sectors_per_page` sectors of 512 B);
//! each piece is a bit mask of the sectors it covers.
//! - Write, routed to SCM: eviction first if the SCM is low, then the sectors are written in place
//!   (new ones into the least-written free slots); the request waits for the banks.
//! - Write, routed to NAND: the piece's sectors leave SCM (the NAND copy is now newer); the page is
//!   programmed through the FTL, merged with the old NAND page when the piece is partial (a
//!   read-modify-write: the old page is read first).
//! - Eviction of a page: its SCM sectors are read, merged with its NAND copy (read when the SCM part
//!   does not cover the page) and programmed as one full page; the SCM slots are freed. Evictions
//!   are foreground work: the host write that needed the room waits for them (the seed's emulator
//!   gives no background eviction).
//! - Read: sectors held in SCM are read there, the others from the NAND page; a piece split between
//!   the two reads both (counted).
//!
//! Data, for the integrity oracle (`oracle.rs`), is kept by sector here: a host write carries a
//! tag per sector (`HostIo::tags`); SCM slots keep the tag of the data they hold; a NAND page's
//! program gets a page tag of its own (carried by GC as usual) and this stage remembers which
//! sector tags that program wrote (`NandContents`, kept only while the oracle watches). A read
//! returns each sector's tag, and the oracle's read-back asks for every sector, through the
//! stage's `Witness`.

mod summary;
pub use summary::ScmSummary;

use super::pages::{piece_mask, whole_pages};
use super::result::DataPathResult;
use super::stage::{Below, HostIo, PageProgram, ResultContext, Stage};
use super::witness::Witness;
use crate::device_events::DeviceEvents;
use crate::error::SimulationError;
use crate::geometry::Lpn;
use crate::host::PageSpan;
use crate::scheduler::{FlashScheduler, Waiter};
use crate::scm::{Route, ScmPlacement};
use ssdlab_engine::SimTime;
use ssdlab_workload::IoRequest;
use std::collections::HashMap;

/// The data of the NAND pages this stage programs, by sector (for the oracle): for each logical
/// page, the page tag of its latest program and the sector tags that program wrote.
#[derive(Debug, Default)]
pub(super) struct NandContents {
    pages: HashMap<u32, (u32, Box<[u32]>)>,
    next_page_tag: u32,
}

impl NandContents {
    fn next_tag(&mut self) -> u32 {
        self.next_page_tag = self.next_page_tag.wrapping_add(1).max(1);
        self.next_page_tag
    }
}

/// SCM in front of the NAND path: its placement and store, and the sectors of the NAND pages it
/// programmed (with the oracle).
pub(in crate::simulation) struct HybridScmPath {
    scm: ScmPlacement,
    /// SCM sectors per NAND page.
    sectors_per_page: u64,
    /// The workload's origin, for error messages.
    origin: String,
    /// Physical SCM slots of the operation being started (scratch).
    slots: Vec<u32>,
    /// With the oracle: the sector tags of each NAND page's latest program.
    nand_contents: Option<NandContents>,
    /// What the stage shows the integrity oracle of the data it returns and holds.
    witness: Witness,
    /// The current host write has booked GC (wear-triggered events are checked after it).
    collected: bool,
}

impl HybridScmPath {
    /// The SCM in front of a NAND path of `page_bytes` pages.
    pub(super) fn new(scm: ScmPlacement, page_bytes: u64, witness: Witness, origin: String) -> HybridScmPath {
        let nand_contents = witness.watching().then(NandContents::default);
        let sectors_per_page = page_bytes / crate::config::SCM_SECTOR_BYTES;
        HybridScmPath { scm, sectors_per_page, origin, slots: Vec::new(), nand_contents, witness, collected: false }
    }

    /// (first sector, end sector) of a request.
    fn sector_range(request: &IoRequest) -> (u64, u64) {
        let sector = crate::config::SCM_SECTOR_BYTES;
        (request.offset_bytes / sector, request.end_bytes().div_ceil(sector))
    }

    /// Serves a read or write (see the module).
    pub(super) fn serve(
        &mut self,
        io: &HostIo<'_>,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        let (request, now, slot) = (io.request, io.now, io.slot);
        let (first_sector, end_sector) = Self::sector_range(request);
        let spp = self.sectors_per_page;
        for page in io.span.first..=io.span.last {
            let mask = piece_mask(first_sector, end_sector, page, spp);
            if mask == 0 {
                continue;
            }
            match request.op {
                ssdlab_workload::IoOp::Read => self.read_piece(page as u32, mask, now, slot, below, scheduler)?,
                ssdlab_workload::IoOp::Write => {
                    // The piece's data: the write's tag of each of its sectors (by sector in the page).
                    let mut tags = [0u32; 64];
                    // Without the oracle the write carries no tags (all 0): nothing to gather.
                    if !io.tags.is_empty() {
                        for (sector, tag) in tags.iter_mut().enumerate().take(spp as usize) {
                            if mask & (1 << sector) != 0 {
                                *tag = io.tag(page * spp + sector as u64 - first_sector);
                            }
                        }
                    }
                    self.write_piece(page as u32, mask, &tags, now, slot, request.origin_line, below, scheduler)?
                }
                // Deletes never come here (`DataPath::delete` takes them).
                ssdlab_workload::IoOp::Delete => {}
            }
        }
        Ok(())
    }

    fn read_piece(
        &mut self,
        page: u32,
        mask: u64,
        now: SimTime,
        slot: u32,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        let scm = &mut self.scm;
        let in_scm = scm.store.mask_of(page) & mask;
        let in_nand = mask & !in_scm;
        let spp = self.sectors_per_page;
        if in_scm != 0 {
            self.slots.clear();
            scm.store.slots_of(page, in_scm, &mut self.slots);
            scm.statistics.sectors_read_from_scm += in_scm.count_ones() as u64;
            scm.statistics.split_reads += (in_nand != 0) as u64;
            if self.witness.watching() {
                let mut bits = in_scm;
                for &held in &self.slots {
                    let sector = bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    self.witness.returned(
                        (page as u64 * spp + sector) as u32,
                        Some(scm.store.tag_of_slot(held)),
                        "host read (SCM)",
                    );
                }
            }
            scheduler.scm_read(now, &self.slots, Waiter::Request(slot));
        }
        if in_nand != 0 {
            if self.witness.watching() {
                let found = below.flash_tag(page);
                self.return_nand_sectors(page, in_nand, found, "host read (NAND)");
            }
            if below.read_flash_page(page, now, Waiter::Request(slot), scheduler)? {
                self.scm.statistics.sectors_read_from_nand += in_nand.count_ones() as u64;
            }
        }
        Ok(())
    }

    /// Returns the sectors `mask` of NAND page `page`, whose physical page holds page tag `found`.
    fn return_nand_sectors(&self, page: u32, mask: u64, found: Option<u32>, context: &str) {
        let spp = self.sectors_per_page;
        let Some(contents) = self.nand_contents.as_ref() else {
            return;
        };
        let remembered = contents.pages.get(&page);
        let mut bits = mask;
        while bits != 0 {
            let sector = bits.trailing_zeros() as u64;
            bits &= bits - 1;
            let tag = match (found, remembered) {
                (Some(page_tag), Some((expected_page_tag, sectors))) if page_tag == *expected_page_tag => {
                    Some(sectors[sector as usize]).filter(|&tag| tag != 0)
                }
                // The FTL returned another program of the page than the latest: report its tag as found
                // (it cannot match a sector tag, which come from another counter's range only by chance).
                (Some(page_tag), _) => Some(page_tag | 0x8000_0000),
                (None, _) => None,
            };
            self.witness.returned((page as u64 * spp + sector) as u32, tag, context);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn write_piece(
        &mut self,
        page: u32,
        mask: u64,
        tags: &[u32; 64],
        now: SimTime,
        slot: u32,
        line: u64,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        match self.scm.route(page, mask) {
            Route::Scm => {
                // Room first. Evicting may take this very page (forced, when nothing else is left),
                // after which all its sectors are new: the need is counted again, until no eviction
                // is due or none can be made.
                while let Some(target) = self.scm.eviction_target(self.scm.store.new_sectors(page, mask)) {
                    let free_before = self.scm.store.free_slots();
                    self.evict_until(target, now, slot, line, below, scheduler)?;
                    if self.scm.store.free_slots() == free_before {
                        break;
                    }
                }
                self.slots.clear();
                let origin = &self.origin;
                self.scm.store.write(page, mask, |sector| tags[sector as usize], &mut self.slots).map_err(|_| {
                    SimulationError::Ftl {
                        origin: format!("{origin}:{line}"),
                        source: crate::error::FtlError::OutOfSpace {
                            tier: "scm".into(),
                            detail: "no free SCM sector after eviction".into(),
                        },
                    }
                })?;
                scheduler.scm_write(now, &self.slots, Waiter::Request(slot));
            }
            Route::Nand => {
                self.scm.store.remove(page, mask);
                self.program_nand_page(page, mask, tags, 0, now, slot, line, below, scheduler)?;
            }
        }
        Ok(())
    }

    /// Evicts pages from SCM until `target` slots are free (or nothing is left to evict).
    fn evict_until(
        &mut self,
        target: u32,
        now: SimTime,
        slot: u32,
        line: u64,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        loop {
            if self.scm.store.free_slots() >= target {
                return Ok(());
            }
            let Some((page, mask, forced)) = self.scm.next_victim() else { return Ok(()) };
            self.scm.evicted(mask, forced);
            self.program_nand_page(page, 0, &[0; 64], mask, now, slot, line, below, scheduler)?;
            self.scm.store.remove(page, mask);
        }
    }

    /// Programs NAND page `page` with the host's new sectors `host_mask` (their data `host_tags`,
    /// by sector) and the SCM sectors `scm_mask` (read from SCM), merged with the old NAND page when
    /// together they do not cover the page; request `slot` waits for it.
    #[allow(clippy::too_many_arguments)]
    fn program_nand_page(
        &mut self,
        page: u32,
        host_mask: u64,
        host_tags: &[u32; 64],
        scm_mask: u64,
        now: SimTime,
        slot: u32,
        line: u64,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        let spp = self.sectors_per_page;
        let full = u64::MAX >> (64 - spp);
        let covered = host_mask | scm_mask;
        self.slots.clear();
        self.scm.store.slots_of(page, scm_mask, &mut self.slots);
        // With the oracle, each program of a NAND page gets a page tag of its own.
        let page_tag = self.nand_contents.as_mut().map_or(0, NandContents::next_tag);
        let program = PageProgram {
            page,
            tag: page_tag,
            merge: covered != full,
            host_data: host_mask != 0,
            now,
            slot,
            origin_line: line,
        };
        let program = below.program_page(program, scheduler)?;
        // With the oracle: the sector tags this program writes (new host data, SCM data, old NAND data).
        if let Some(contents) = self.nand_contents.as_mut() {
            let old_sectors = program.merged_tag.and_then(|old_tag| {
                contents.pages.get(&page).filter(|(tag, _)| *tag == old_tag).map(|(_, sectors)| sectors.clone())
            });
            let mut sectors = vec![0u32; spp as usize].into_boxed_slice();
            let mut scm_slots = self.slots.iter();
            for (sector, value) in sectors.iter_mut().enumerate() {
                let bit = 1u64 << sector;
                *value = if host_mask & bit != 0 {
                    host_tags[sector]
                } else if scm_mask & bit != 0 {
                    scm_slots.next().map_or(0, |&held| self.scm.store.tag_of_slot(held))
                } else {
                    old_sectors.as_ref().map_or(0, |old| old[sector])
                };
            }
            contents.pages.insert(page, (page_tag, sectors));
        }
        self.collected |= program.collected;
        self.scm.statistics.merge_reads += program.merged_tag.is_some() as u64;
        if !self.slots.is_empty() {
            scheduler.scm_read(now, &self.slots, Waiter::WriteGroup(program.group));
        }
        below.close_program(&program, now, scheduler);
        Ok(())
    }

    /// The oracle's read-back of sector `sector`: from its SCM slot, or from its NAND page.
    fn read_back_sector(&mut self, sector: u32, below: &mut Below<'_>) {
        let spp = self.sectors_per_page;
        let page = (sector as u64 / spp) as u32;
        let bit = 1u64 << (sector as u64 % spp);
        if self.scm.store.mask_of(page) & bit != 0 {
            self.slots.clear();
            self.scm.store.slots_of(page, bit, &mut self.slots);
            let tag = self.slots.first().map(|&slot| self.scm.store.tag_of_slot(slot));
            self.witness.returned(sector, tag, "final sweep (SCM)");
        } else {
            let found = below.flash_tag(page);
            self.return_nand_sectors(page, bit, found, "final sweep (NAND)");
        }
    }
}

impl Stage for HybridScmPath {
    fn read(
        &mut self,
        io: &HostIo<'_>,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
    ) -> Result<(), SimulationError> {
        below.begin(io);
        self.serve(io, below, scheduler)
    }

    fn write(
        &mut self,
        io: &HostIo<'_>,
        below: &mut Below<'_>,
        scheduler: &mut FlashScheduler,
        events: &mut DeviceEvents,
    ) -> Result<(), SimulationError> {
        below.begin(io);
        self.collected = false;
        self.serve(io, below, scheduler)?;
        // Wear-triggered device events: checked once the write's GC (and its evictions') is booked,
        // where the NAND path checks after each page's.
        if self.collected {
            below.check_wear_events(io.now, scheduler, events)?;
        }
        Ok(())
    }

    /// A delete: whole pages of the range lose their SCM sectors and their NAND page.
    #[cold]
    fn delete(&mut self, span: PageSpan, _now: SimTime, below: &mut Below<'_>) {
        let (mut pages, mut trimmed) = (0, 0);
        for page in whole_pages(span).into_iter().flatten() {
            pages += 1;
            trimmed += Stage::delete_page(self, Lpn(page as u32), below) as u64;
        }
        below.count_delete(pages, trimmed);
    }

    /// Deletes whole host page `host`: its SCM sectors and its NAND page.
    fn delete_page(&mut self, host: Lpn, below: &mut Below<'_>) -> bool {
        let page = host.0;
        let full = self.scm.full_mask();
        self.scm.store.remove(page, full);
        let trimmed = below.trim_page(page);
        if let Some(contents) = self.nand_contents.as_mut() {
            contents.pages.remove(&page);
        }
        trimmed
    }

    /// Preconditioning: page `page` written whole, untimed: to the NAND on the hybrid (data starts
    /// there), to SCM on the All S-SCM SSD.
    fn untimed_write(&mut self, page: u32, tags: &[u32], below: &mut Below<'_>) -> Result<(), SimulationError> {
        let spp = self.sectors_per_page;
        let tag = |sector: u32| tags.get(sector as usize).copied().unwrap_or(0);
        if self.scm.is_scm_only() {
            let full = self.scm.full_mask();
            self.slots.clear();
            let origin = &self.origin;
            return self.scm.store.write(page, full, tag, &mut self.slots).map_err(|_| SimulationError::Ftl {
                origin: format!("{origin} (preconditioning)"),
                source: crate::error::FtlError::OutOfSpace {
                    tier: "scm".into(),
                    detail: "the footprint does not fit the SCM".into(),
                },
            });
        }
        let full = u64::MAX >> (64 - spp);
        self.scm.store.remove(page, full);
        // Untimed: the flash work is not booked (the scheduler is not involved).
        let mut page_tag = 0;
        if let Some(contents) = self.nand_contents.as_mut() {
            let sectors: Box<[u32]> = (0..spp as u32).map(tag).collect();
            page_tag = contents.next_tag();
            contents.pages.insert(page, (page_tag, sectors));
        }
        below.untimed_program(page, page_tag)
    }

    /// The oracle's keys here are sectors.
    fn read_back(&mut self, key: u32, below: &mut Below<'_>) {
        self.read_back_sector(key, below)
    }

    fn final_checks(&mut self, below: &mut Below<'_>) {
        if let Err(message) = self.scm.store.check_invariants() {
            self.witness.consistent(false, || format!("SCM store invariant: {message}"));
        }
        below.final_checks()
    }

    fn contribute(&self, context: &ResultContext<'_>, result: &mut DataPathResult) {
        result.scm = self.summary(context.config.device.scm.as_ref(), context.scheduler, context.simulated_seconds);
        result.model_memory_bytes += self.scm.memory_bytes();
    }
}
