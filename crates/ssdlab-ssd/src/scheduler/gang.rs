//! DiskSim's ganged device: the system seed 002 ran its read path on (§5.1, "synchronous-share-control
//! ganging mode ... 8 channels and each channel contains 8 flash chips").
//!
//! What it models, after benh/disksim `ssdmodel/ssd_gang.c` (the synchronous path, the only one DiskSim
//! compiles): a gang of chips is one first-come-first-served server that takes one request piece at a
//! time and is busy for the whole piece.
//! - A host request is cut into pieces at gang-page boundaries (a gang page is one page on each chip
//!   of the gang); ssdlab cuts where the next page is in another gang or not on a later chip of the
//!   same one, which is the same cut under the gang striping `[device.ganging]` installs.
//! - A read piece pays each page's array read and transfer in turn, never overlapped (the "serial
//!   element"; `ssd_gang_read_sync` charges `page_read_latency` to every page). Each page follows
//!   its read plan: a soft step senses after the previous decode, a look-ahead step right after the
//!   previous sensing (seed 002 §3.1, the seed's addition to DiskSim); the gang waits through a
//!   failed decode, and the last decode runs in the controller after the gang is free.
//!   `element_overlap = "sensed_together"` is the function's commented-out variant: the piece's
//!   chips sense together and only the transfers queue on the gang's bus.
//! - A write piece is a read-modify-write of the whole gang page: one array read when the piece is
//!   partial (into the chips' registers, no transfer), one page transfer per chip of the gang in
//!   turn, and one program time for all of them (`ssd_activate_gang_sync`). The chips the host did
//!   not write read and rewrite their page: counted in `rewritten_pages` only (not among the flash
//!   counters' reads and programs); the FTL stores only the host's pages, so write amplification and
//!   sensing and program energy leave those rewrites out. Every chip's transfer is counted.
//! - Cleaning holds the gang: when the FTL collects, each of the gang's dies runs its copies and
//!   erases, and the gang is busy for the slowest die (`ssd_invoke_gang_cleaning`: the maximum over
//!   the gang's elements), ahead of the next piece (foreground cleaning).
//!
//! Left out: DiskSim's summary page (a write that fills a block doubles the piece's transfers and
//! program, ssd_timing.c:353-368; ssdlab keeps no summary pages) and its 528-byte sectors on the bus
//! (ssdlab moves the page's bytes at the channel's rate); the uncompiled asynchronous path with its
//! rounds and `Gang share`.

use crate::config::ElementOverlap;
use ssdlab_engine::{Server, SimDuration, SimTime};

/// One read step's times on the gang, from the scheduler's timing of the step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct StepTimes {
    pub sense_ns: u64,
    pub transfer_ns: u64,
    pub decode_ns: u64,
    /// Sensed right after the previous step's sensing (look-ahead), not after its decode.
    pub look_ahead: bool,
    /// Look-ahead sensing that the previous decode's success cancels: holds the chip from the
    /// previous sensing's end until that decode ends, at most `sense_ns`.
    pub cancelled: bool,
}

/// What the gangs did, for the run's result.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct GangStatistics {
    pub chips_per_gang: u32,
    pub gangs: u32,
    pub element_overlap: &'static str,
    pub read_pieces: u64,
    pub write_pieces: u64,
    /// Write pieces that covered less than a whole gang page (read-modify-writes).
    pub partial_write_pieces: u64,
    /// Pages the gang's other chips rewrote in read-modify-writes (not host data, not in the FTL).
    pub rewritten_pages: u64,
    /// Collections that held a gang, and the time they held it for in total.
    pub cleanings: u64,
    pub cleaning_ns: u64,
    /// Share of the run each gang was busy, averaged over the gangs (filled in at the end).
    pub mean_utilisation: f64,
}

pub(super) struct GangUnit {
    chips_per_gang: u32,
    overlap: ElementOverlap,
    servers: Vec<Server>,
    /// Per chip of a piece (sensed together): when its array is free; reused.
    chip_free: Vec<u64>,
    /// The time the last read piece's cancelled look-aheads held their chips (`read_piece`).
    pub cancelled_ns: u64,
    pub statistics: GangStatistics,
}

impl GangUnit {
    pub fn new(chips_per_gang: u32, chips: u32, overlap: ElementOverlap) -> Self {
        let chips_per_gang = chips_per_gang.max(1);
        let gangs = (chips / chips_per_gang).max(1);
        GangUnit {
            chips_per_gang,
            overlap,
            servers: vec![Server::new(); gangs as usize],
            chip_free: vec![0; chips_per_gang as usize],
            cancelled_ns: 0,
            statistics: GangStatistics {
                chips_per_gang,
                gangs,
                element_overlap: overlap.name(),
                ..GangStatistics::default()
            },
        }
    }

    pub fn chips_per_gang(&self) -> u32 {
        self.chips_per_gang
    }

    /// The gang of a chip.
    #[inline]
    pub fn gang_of_chip(&self, chip: u32) -> u32 {
        chip / self.chips_per_gang
    }

    pub fn server(&self, gang: u32) -> &Server {
        &self.servers[gang as usize]
    }

    /// Books `duration` on `gang` for work ready at `now`; returns its start.
    pub fn book(&mut self, now: SimTime, gang: u32, duration: u64) -> SimTime {
        self.servers[gang as usize].book(now, SimDuration(duration))
    }

    /// Times a read piece from 0: `pages` gives each page's chip (within the gang) and steps. Each
    /// page's data-ready time goes to `ready`; returns how long the gang is held.
    pub fn read_piece<'a>(&mut self, pages: impl Iterator<Item = (u32, &'a [StepTimes])>, ready: &mut Vec<u64>) -> u64 {
        ready.clear();
        self.cancelled_ns = 0;
        self.chip_free.iter_mut().for_each(|free| *free = 0);
        let (mut bus, mut array_last) = (0u64, 0u64);
        for (chip, steps) in pages {
            let page_start = match self.overlap {
                ElementOverlap::Serial => bus.max(array_last),
                ElementOverlap::SensedTogether => self.chip_free[chip as usize % self.chip_free.len()],
            };
            let (mut array, mut previous_sensed, mut previous_ready, mut page_ready) =
                (page_start, page_start, page_start, page_start);
            for (index, step) in steps.iter().enumerate() {
                if step.cancelled {
                    let held_until = previous_ready.min(previous_sensed + step.sense_ns);
                    self.cancelled_ns += held_until.saturating_sub(previous_sensed);
                    array = array.max(held_until);
                    continue;
                }
                let start = if index == 0 {
                    array
                } else if step.look_ahead {
                    previous_sensed.max(array)
                } else {
                    array.max(previous_ready)
                };
                let sensed = start + step.sense_ns;
                array = sensed;
                let mut step_ready = sensed;
                if step.transfer_ns > 0 {
                    bus = sensed.max(bus) + step.transfer_ns;
                    step_ready = bus;
                }
                step_ready += step.decode_ns;
                previous_sensed = sensed;
                previous_ready = step_ready;
                page_ready = page_ready.max(step_ready);
            }
            ready.push(page_ready);
            match self.overlap {
                ElementOverlap::Serial => array_last = array,
                ElementOverlap::SensedTogether => {
                    let slot = chip as usize % self.chip_free.len();
                    self.chip_free[slot] = array;
                    array_last = array_last.max(array);
                }
            }
        }
        bus.max(array_last)
    }

    /// How long a write piece holds the gang: the partial piece's array read, one page transfer per
    /// chip of the gang, one program for all of them.
    pub fn write_piece(&self, partial_read_ns: Option<u64>, page_transfer_ns: u64, program_ns: u64) -> u64 {
        partial_read_ns.unwrap_or(0) + self.chips_per_gang as u64 * page_transfer_ns + program_ns
    }

    /// (gangs, total time booked on them).
    pub fn booked_totals(&self) -> (u64, u64) {
        (self.servers.len() as u64, self.servers.iter().map(|server| server.booked().0).sum())
    }

    /// When the last gang is free.
    pub fn busy_until(&self) -> SimTime {
        self.servers.iter().map(Server::busy_until).max().unwrap_or(SimTime::ZERO)
    }

    /// The statistics, with the gangs' busy share averaged over a run that ended at `end`.
    pub fn statistics_at(&self, end: SimTime) -> GangStatistics {
        let busy: u64 = self.servers.iter().map(|server| server.booked().0).sum();
        let span = end.0.max(1) as f64 * self.servers.len() as f64;
        GangStatistics { mean_utilisation: busy as f64 / span, ..self.statistics.clone() }
    }
}

/// Cuts a request's pages into gang pieces: a page joins the piece being built when it is in the
/// same gang, on a later chip of it, and the piece is not yet a whole gang page.
#[derive(Debug, Clone)]
pub struct GangPiece<T> {
    gang: u32,
    last_chip: u32,
    pub pages: Vec<T>,
    /// A page of the piece is written only in part (a write piece is then a read-modify-write).
    pub partial: bool,
}

impl<T> Default for GangPiece<T> {
    fn default() -> Self {
        GangPiece { gang: 0, last_chip: 0, pages: Vec::new(), partial: false }
    }
}

impl<T> GangPiece<T> {
    /// Whether a page on chip `chip_in_gang` of `gang` continues the piece (else it starts a new one).
    pub fn continues(&self, gang: u32, chip_in_gang: u32, chips_per_gang: u32) -> bool {
        !self.pages.is_empty()
            && gang == self.gang
            && chip_in_gang > self.last_chip
            && (self.pages.len() as u32) < chips_per_gang
    }

    pub fn push(&mut self, gang: u32, chip_in_gang: u32, page: T) {
        self.gang = gang;
        self.last_chip = chip_in_gang;
        self.pages.push(page);
    }

    pub fn gang(&self) -> u32 {
        self.gang
    }

    pub fn clear(&mut self) {
        self.pages.clear();
        self.partial = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // DiskSim's postmark flash (ssd-postmark.parv): read 25 us, write 200 us, 4 KB at 25 ns/byte
    // over 528-byte sectors = 105.6 us per page.
    const R: u64 = 25_000;
    const W: u64 = 200_000;
    const X: u64 = 105_600;

    fn plain() -> [StepTimes; 1] {
        [StepTimes { sense_ns: R, transfer_ns: X, ..StepTimes::default() }]
    }

    #[test]
    fn a_serial_gang_reads_each_page_in_turn_as_disksim_does() {
        let mut unit = GangUnit::new(2, 8, ElementOverlap::Serial);
        let mut ready = Vec::new();
        let page = plain();
        // One 4 KB page: 0.1306 ms (DiskSim's ssd-rr250k.outv access time).
        assert_eq!(unit.read_piece([(0, &page[..])].into_iter(), &mut ready), 130_600);
        // A whole 2-chip gang page: 0.2612 ms, every page paying its array read.
        assert_eq!(unit.read_piece([(0, &page[..]), (1, &page[..])].into_iter(), &mut ready), 261_200);
        assert_eq!(ready, vec![130_600, 261_200]);
    }

    #[test]
    fn chips_sensed_together_pay_one_array_read_and_queue_their_transfers() {
        let mut unit = GangUnit::new(2, 8, ElementOverlap::SensedTogether);
        let mut ready = Vec::new();
        let page = plain();
        let held = unit.read_piece([(0, &page[..]), (1, &page[..])].into_iter(), &mut ready);
        assert_eq!(held, R + 2 * X);
        assert_eq!(ready, vec![R + X, R + 2 * X]);
    }

    #[test]
    fn write_pieces_are_read_modify_writes_of_the_gang_page() {
        let unit = GangUnit::new(2, 8, ElementOverlap::Serial);
        // ssd_gang.c: a 4 KB write on a 2-chip gang, 0.4362 ms; an aligned 8 KB write, 0.4112 ms.
        assert_eq!(unit.write_piece(Some(R), X, W), 436_200);
        assert_eq!(unit.write_piece(None, X, W), 411_200);
        // Seed 002's drive, one 8-chip gang per channel: 55 us + 8 x 20.48 us + 1.45 ms.
        let seed = GangUnit::new(8, 64, ElementOverlap::Serial);
        assert_eq!(seed.write_piece(Some(55_000), 20_480, 1_450_000), 1_668_840);
    }

    #[test]
    fn a_soft_step_waits_for_the_failed_decode_and_a_look_ahead_does_not() {
        let mut unit = GangUnit::new(8, 8, ElementOverlap::Serial);
        let mut ready = Vec::new();
        let hard = StepTimes { sense_ns: 55_000, transfer_ns: 20_480, decode_ns: 8_000, ..StepTimes::default() };
        let soft = StepTimes { sense_ns: 84_000, transfer_ns: 80_000, decode_ns: 8_000, ..StepTimes::default() };
        let two_step = [hard, soft];
        let held = unit.read_piece([(0, &two_step[..])].into_iter(), &mut ready);
        // The soft sensing starts after the hard decode (83.48 us); the gang is free after its
        // transfer, the last decode runs in the controller.
        assert_eq!(held, 83_480 + 84_000 + 80_000);
        assert_eq!(ready, vec![held + 8_000]);
        let look_ahead = [hard, StepTimes { look_ahead: true, ..soft }];
        let held = unit.read_piece([(0, &look_ahead[..])].into_iter(), &mut ready);
        // Sensed right behind the hard sensing (55 + 84 us), then moved after it.
        assert_eq!(held, 55_000 + 84_000 + 80_000);
        // Cancelled look-ahead: the chip is held until the hard decode ends (83.48 us).
        let cancelled = [hard, StepTimes { cancelled: true, ..soft }];
        let held = unit.read_piece([(0, &cancelled[..]), (1, &plain()[..])].into_iter(), &mut ready);
        assert_eq!(held, 83_480 + R + X);
        assert_eq!(ready, vec![83_480, 83_480 + R + X]);
        assert_eq!(unit.cancelled_ns, 28_480, "held from the hard sensing's end to its decode's");
    }

    #[test]
    fn pieces_cut_at_gang_and_gang_page_boundaries() {
        let mut piece = GangPiece::<u32>::default();
        assert!(!piece.continues(0, 0, 2));
        piece.push(0, 0, 10);
        assert!(piece.continues(0, 1, 2));
        assert!(!piece.continues(1, 1, 2), "another gang");
        assert!(!piece.continues(0, 0, 2), "the same chip again: the next gang page");
        piece.push(0, 1, 11);
        assert!(!piece.continues(0, 1, 2), "a whole gang page");
        piece.clear();
        assert!(piece.pages.is_empty() && !piece.partial);
    }
}
