//! The flash scheduler: carries out every flash operation on the resources it occupies, in
//! simulated-time order.
//!
//! Resources are single servers ([`Server`]): each die (array operations: sense, program, erase; a
//! multi-plane operation occupies the die once for all its planes) and each channel (command and
//! data transfers). A read senses on the die, then moves its data over the channel, then decodes in
//! the controller; a write moves its data over the channel, then programs on the die. Each stage is
//! booked at the moment it becomes ready: the stage after it is a pending event at its ready time
//! in a [`MonotoneQueue`] ordered by (time, sequence). Because the simulation processes arrivals and
//! events in time order, every resource serves operations first come, first served by ready time,
//! and no resource is idle while an operation ready for it waits (work-conserving; the argument is
//! in docs/architecture.md, Time and contention, and [`booking_log`] checks it on whole runs).
//! Garbage collection books its copies and erases one after another on the same die, interleaved
//! with host operations; host programs whose plane has too few erased blocks wait for GC's erases
//! there, and in preemptible mode GC steps aside for host work (`write_gate.rs`, docs/gc-modes.md).
//! The controller's ECC decoders are not contended.
//!
//! The scheduler's parts, one concern each: this file holds its state, setup, counters and event
//! loop; `requests.rs` host requests and their completions; `reads.rs` reads (planned, look-ahead,
//! multi-plane, interleaved); `writes.rs` program groups and their holding for GC (with
//! `write_gate.rs`); `collection.rs` GC, migration and tracked background batches (with
//! `copy_pipeline.rs`); `gate.rs` gates; `scm.rs`, `dram.rs` and `gang.rs`/`gang_operations.rs` the
//! SCM's, the controller DRAM's and DiskSim's gangs' timing; `operations.rs` the records of work in
//! flight; `booking_log.rs` the record of bookings and its work-conservation check; `die_queues.rs`
//! and `policy/` the queued dies.
//!
//! With `[scheduler]` set to a policy other than FIFO or to suspension, the dies keep queues
//! instead (`die_queues.rs`, policies under `policy/`): an operation that finds its die busy waits,
//! and the policy picks the next when the die frees; a read may suspend a program or an erase.
//!
//! Left out: cache-read pipelining.
//! Look-ahead sensing (seed 002) holds the die until the hard decode would end as predicted from
//! the channel's queue when the hard sensing is booked (later channel traffic is not foreseen).

pub mod booking_log;
mod breakdown;
mod collection;
mod copy_pipeline;
mod die_queues;
#[cfg(test)]
mod die_queues_tests;
mod dram;
mod gang;
mod gang_operations;
mod gate;
#[cfg(test)]
mod gate_tests;
mod operations;
mod plane_group;
pub mod policy;
mod reads;
mod requests;
mod scm;
#[cfg(test)]
mod tests;
mod write_gate;
mod writes;

pub use booking_log::{check_work_conserving, Booking, Resource};
pub use breakdown::LatencyBreakdown;
pub use die_queues::SchedulerStatistics;
pub use dram::DramCounters;
pub use gang::{GangPiece, GangStatistics};
pub use operations::{RequestTag, Waiter};
pub use plane_group::PlaneGroup;
pub use scm::ScmCounters;
pub use write_gate::WriteHoldStatistics;

use crate::device_layout::DeviceLayout;
use crate::media::nand::NandTiming;

use crate::config::{DecoderKind, DecodersConfig, GcMode, DECODER_KINDS};
pub use crate::flash_op::FlashCounters;
use crate::flash_op::FlashOp;
use crate::geometry::Ppn;
use crate::read_path::ReadPlan;
use crate::tier::PerTier;
use operations::{FlashEvent, GcJob, GcPhase, ReadJob, RequestProgress, Slab, WriteGroup, NO_BATCH, NO_PLANE};
use ssdlab_engine::{MonotoneQueue, Server, SimDuration, SimTime};
use write_gate::WriteGate;
/// When look-ahead sensing is decided, and what the late decision skipped.
#[derive(Debug, Clone, Copy, Default)]
struct LookAheadDecisions {
    after_hard_sensing: bool,
    skipped_busy: u64,
    skipped_cancelled: u64,
}

pub struct FlashScheduler {
    layout: DeviceLayout,
    dies: Vec<Server>,
    channels: Vec<Server>,
    /// Per channel: one page's transfer time (each tier's channels have their own timing).
    channel_page_ns: Vec<u64>,
    page_bytes: u64,
    extra_sensing_ns: u64,
    /// Measured soft-read timing (seed 002 §2.3: seven-level sensing ~125 us, its results moved in
    /// ~80 us): (levels of a full soft read, its sensing ns, its transfer ns). A step of k extra
    /// levels takes k / levels of each instead of k x `extra_sensing_ns` and k pages.
    soft_read: Option<(u32, Option<u64>, Option<u64>)>,
    /// When a planned read's look-ahead is decided, and the look-aheads a busy die skipped.
    look_ahead: LookAheadDecisions,
    decode_ns: u64,
    /// Sensing and decode time of each decoder kind (index `DecoderKind as usize`).
    decoders: [DecoderTiming; DECODER_KINDS],
    /// Data placement interleaving (seed 002 §3.3): per die, the dies of the other chips of its
    /// group, which hold parts of its codewords and sense with it. Empty without interleaving.
    interleave_partners: Vec<Vec<u32>>,
    copyback: bool,
    /// Operation counters per tier (device-wide: [`FlashScheduler::counters`]), in a fixed array
    /// indexed by tier without a bounds check on the hot paths ([`PerTier`]).
    tier_counters: PerTier<FlashCounters>,
    /// Each tier's NAND timing, likewise.
    nand: PerTier<NandTiming>,
    tiers: usize,
    /// Pending stages, packed (`FlashEvent::pack`).
    events: MonotoneQueue<u64>,
    requests: Slab<RequestProgress>,
    /// Requests whose last chain has been booked, with their completion times, until collected.
    /// (tag, completion time, the request's slot as `open_request` returned it).
    completions: Vec<(RequestTag, SimTime, u32)>,
    read_jobs: Slab<ReadJob>,
    write_groups: Slab<WriteGroup>,
    gc_jobs: Slab<GcJob>,
    /// Work waiting for reads to end (`gate.rs`; the mapping-table cache's).
    gates: Slab<gate::Gate>,
    /// Tracked background batches: (token, chains still running, latest end), and those finished
    /// since last collected (token, end).
    batches: Vec<(u32, u32, SimTime)>,
    /// Reused while splitting a batch into chains.
    chain_scratch: Vec<(u32, u32)>,
    finished_batches: Vec<(u32, SimTime)>,
    /// Per die: the continuous run of background (GC, migration, drain) work most recently booked,
    /// (start, end), and the longest such run so far.
    background_runs: Vec<(SimTime, SimTime)>,
    longest_background_ns: u64,
    log: Option<Vec<Booking>>,
    /// The SCM's banks and channels (seed 001's devices; `scm.rs`).
    scm: Option<Box<scm::ScmUnit>>,
    /// The controller DRAM's bus (a device with a data cache; `dram.rs`).
    dram: Option<Box<dram::DramUnit>>,
    /// Background requests (a DRAM cache's destage) ended since last collected: (end, size_bytes).
    background_completions: Vec<(SimTime, u64)>,
    /// Host writes held back by garbage collection (`write_gate.rs`); None in `background` mode.
    gate: Option<WriteGate>,
    /// Preemptible mode: GC may step aside for host work (`gc_steps_aside`).
    gc_yields: bool,
    /// DiskSim's gangs (`gang.rs`); None: every die and channel independent.
    gang: Option<Box<gang::GangUnit>>,
    /// Queued dies (`die_queues.rs`: a scheduling policy other than FIFO, or suspension); None: the
    /// booking model.
    die_queues: Option<Box<die_queues::DieQueues>>,
    /// Each host request's stages, for its critical-path breakdown (`breakdown.rs`; only while
    /// the request log is written), and the breakdowns of the completions not yet collected.
    breakdowns: Option<Box<breakdown::Breakdowns>>,
    completed_breakdowns: Vec<LatencyBreakdown>,
}

/// How long one decoder kind's hard sensing (per page type; 0: the page's plain read) and decode take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DecoderTiming {
    sense_ns: [u64; 3],
    decode_ns: u64,
}

impl FlashScheduler {
    /// Soft reads take the measured times of a full soft read of `levels` extra levels (either may be
    /// None: per level and per page as before).
    pub fn set_soft_read_timing(&mut self, levels: u32, sensing_ns: Option<u64>, transfer_ns: Option<u64>) {
        self.soft_read =
            (sensing_ns.is_some() || transfer_ns.is_some()).then_some((levels.max(1), sensing_ns, transfer_ns));
    }

    /// Decide look-ahead sensing when the hard sensing ends (seed 002 §3.1) rather than trust the
    /// plan, which the read strategy made at the read's arrival.
    pub fn decide_look_ahead_after_hard_sensing(&mut self, after: bool) {
        self.look_ahead.after_hard_sensing = after;
    }

    pub fn look_ahead_decided_after_hard_sensing(&self) -> bool {
        self.look_ahead.after_hard_sensing
    }

    /// Look-aheads the plans held that a busy die skipped when the hard sensing ended, and of them
    /// those that hard decoding would have cancelled anyway.
    pub fn look_aheads_skipped(&self) -> (u64, u64) {
        (self.look_ahead.skipped_busy, self.look_ahead.skipped_cancelled)
    }

    /// Sets each decoder kind's sensing and decode time from `read_path.decoders` (the plain read's
    /// decode time, `decode_ns` of [`FlashScheduler::new`], where a decoder gives none).
    pub fn set_decoders(&mut self, decoders: &DecodersConfig) {
        for kind in DecoderKind::ALL {
            let config = decoders.get(kind);
            let mut sense_ns = [0; 3];
            for (page_type, ns) in sense_ns.iter_mut().enumerate() {
                *ns = match config.sensing_latency_ns.as_slice() {
                    [] => 0,
                    [all] => *all,
                    list => list.get(page_type).or(list.last()).copied().unwrap_or(0),
                };
            }
            self.decoders[kind as usize] =
                DecoderTiming { sense_ns, decode_ns: config.decode_latency_ns.unwrap_or(self.decode_ns) };
        }
    }

    pub fn new(layout: DeviceLayout, extra_sensing_ns: u64, decode_ns: u64, copyback: bool) -> Self {
        let channel_page_ns = layout
            .tiers()
            .iter()
            .flat_map(|tier| std::iter::repeat_n(tier.page_transfer_ns, tier.geometry.channels as usize))
            .collect();
        FlashScheduler {
            dies: vec![Server::new(); layout.dies_total() as usize],
            channels: vec![Server::new(); layout.channels_total() as usize],
            channel_page_ns,
            page_bytes: layout.page_size_bytes() as u64,
            extra_sensing_ns,
            soft_read: None,
            look_ahead: LookAheadDecisions::default(),
            decode_ns,
            decoders: [DecoderTiming { sense_ns: [0; 3], decode_ns }; DECODER_KINDS],
            interleave_partners: Vec::new(),
            copyback,
            tier_counters: PerTier::default(),
            nand: PerTier::from_fn(|index| {
                layout.tiers().get(index).map_or_else(NandTiming::default, |tier| tier.nand.clone())
            }),
            tiers: layout.tiers().len(),
            events: MonotoneQueue::new(),
            requests: Slab::default(),
            completions: Vec::new(),
            read_jobs: Slab::default(),
            write_groups: Slab::default(),
            gc_jobs: Slab::default(),
            gates: Slab::default(),
            batches: Vec::new(),
            chain_scratch: Vec::new(),
            finished_batches: Vec::new(),
            background_runs: vec![(SimTime::ZERO, SimTime::ZERO); layout.dies_total() as usize],
            longest_background_ns: 0,
            log: None,
            scm: None,
            dram: None,
            background_completions: Vec::new(),
            gate: None,
            gc_yields: false,
            gang: None,
            die_queues: None,
            breakdowns: None,
            completed_breakdowns: Vec::new(),
            layout,
        }
    }

    /// Interleaving groups of chip classes (`read_path.interleave_groups`, validated): every die
    /// learns the dies at its position on the other chips of its group (chip class = chip mod the
    /// classes; a partner chip beyond the device or in another tier is left out).
    pub fn set_interleave_groups(&mut self, groups: &[Vec<u32>]) {
        if groups.is_empty() {
            self.interleave_partners.clear();
            return;
        }
        let classes = groups.iter().map(Vec::len).sum::<usize>() as u32;
        let chips = self.layout.chips_total();
        self.interleave_partners = (0..self.layout.dies_total())
            .map(|die| {
                let chip = self.layout.chip_of_die(die);
                let position = die - self.layout.dies_of_chip(chip).start;
                let (class, base) = (chip % classes, chip - chip % classes);
                let group = groups.iter().find(|group| group.contains(&class)).map_or(&[][..], Vec::as_slice);
                group
                    .iter()
                    .filter(|&&other| other != class && base + other < chips)
                    .map(|&other| self.layout.dies_of_chip(base + other).start + position)
                    .filter(|&partner| {
                        self.layout.tier_of_die(partner) == self.layout.tier_of_die(die)
                            && partner < self.layout.dies_total()
                    })
                    .collect()
            })
            .collect();
    }

    pub fn layout(&self) -> &DeviceLayout {
        &self.layout
    }

    /// Device-wide operation counters.
    pub fn counters(&self) -> FlashCounters {
        self.tier_counters().iter().fold(FlashCounters::default(), |sum, tier| sum.plus(tier))
    }

    /// Operation counters of each tier, in layout order. Every transfer moves whole pages (soft
    /// results at the measured rate: pages' worth of channel time), so the bytes moved are counted
    /// here rather than on every transfer.
    pub fn tier_counters(&self) -> Vec<FlashCounters> {
        self.tier_counters.as_slice()[..self.tiers]
            .iter()
            .map(|counters| FlashCounters {
                transfer_bytes: counters.page_transfers * self.page_bytes
                    + (counters.soft_result_pages * self.page_bytes as f64).round() as u64,
                read_page_transfers: counters.page_transfers - counters.write_page_transfers,
                ..*counters
            })
            .collect()
    }

    /// Busy time booked on each die and each channel.
    pub fn busy_per_resource(&self) -> (Vec<SimDuration>, Vec<SimDuration>) {
        (self.dies.iter().map(Server::booked).collect(), self.channels.iter().map(Server::booked).collect())
    }

    /// Keeps a record of every booking from now on (see [`booking_log`]).
    pub fn record_bookings(&mut self) {
        self.log = Some(Vec::new());
    }

    pub fn bookings(&self) -> Option<&[Booking]> {
        self.log.as_deref()
    }

    /// True if the die holding `ppn` has no work booked at or after `time`.
    #[inline]
    pub fn die_idle_at(&self, ppn: Ppn, time: SimTime) -> bool {
        let die = self.layout.die_of(ppn);
        if let (Some(unit), Some(gang)) = (&self.gang, self.gang_of_die(die)) {
            return unit.server(gang).is_idle_at(time);
        }
        self.dies[die as usize].is_idle_at(time)
    }

    /// Books `duration` on `resource` for an operation ready at `now`; returns its start (and
    /// records the booking when a log is kept).
    #[inline(always)]
    fn book(&mut self, now: SimTime, resource: Resource, duration: u64) -> SimTime {
        let server = match resource {
            Resource::Die(die) => &mut self.dies[die as usize],
            Resource::Channel(channel) => &mut self.channels[channel as usize],
        };
        let start = server.book(now, SimDuration(duration));
        if let Some(log) = self.log.as_mut() {
            log.push(Booking { resource, ready_ns: now.0, start_ns: start.0, end_ns: start.0 + duration });
        }
        start
    }

    // ---- events --------------------------------------------------------------------------------

    /// The time of the earliest pending event.
    #[inline]
    pub fn next_event_time(&mut self) -> Option<SimTime> {
        self.events.peek_time()
    }

    /// Carries out the earliest pending event; returns its time.
    #[inline]
    pub fn process_next_event(&mut self) -> Option<SimTime> {
        let (now, packed) = self.events.pop()?;
        self.run_event(now, packed);
        Some(now)
    }

    /// Carries out the pending stage `packed` at `now` (popped, or granted a queued die).
    #[inline(always)]
    fn run_event(&mut self, now: SimTime, packed: u64) {
        match FlashEvent::unpack(packed) {
            FlashEvent::PlainTransfer { channel, pages, waiter } => self.plain_transfer(now, channel, pages, waiter),
            FlashEvent::PlannedSense { job } => self.planned_sense(job, now),
            FlashEvent::PlannedTransfer { job, step } => self.planned_transfer(job, step, now),
            FlashEvent::LookAheadCheck { job } => self.look_ahead_check(job, now),
            FlashEvent::GroupTransfer { group } => self.group_transfer(group, now),
            FlashEvent::Program { die, pages, request, page_type } => self.program(die, pages, request, page_type, now),
            FlashEvent::GarbageCollection { job } => self.gc_step(job, now),
            FlashEvent::ScmBankWrite { bank, sectors, waiter } => self.scm_bank_write(now, bank, sectors, waiter),
            FlashEvent::ScmTransfer { channel, sectors, waiter } => self.scm_transfer(now, channel, sectors, waiter),
            FlashEvent::DieEnd { die, generation } => self.die_end(die, generation, now),
        }
    }

    /// Operations not finished (for the end-of-run check): pending events and open records.
    pub fn work_in_progress(&self) -> usize {
        self.events.len()
            + self.requests.in_use()
            + self.read_jobs.in_use()
            + self.write_groups.in_use()
            + self.gc_jobs.in_use()
            + self.gates.in_use()
            + self.operations_waiting()
    }

    /// Busy time booked on all dies and all channels (for utilisation).
    pub fn busy_totals(&self) -> (SimDuration, SimDuration) {
        if let Some(unit) = &self.gang {
            // A gang holds all its dies and its share of the channels while it serves.
            let (gangs, booked) = unit.booked_totals();
            let dies_per_gang = self.dies.len() as u64 / gangs.max(1);
            let channel = booked as u128 * self.channels.len() as u128 / gangs.max(1) as u128;
            return (SimDuration(booked * dies_per_gang), SimDuration(channel as u64));
        }
        let die: u64 = self.dies.iter().map(|d| d.booked().0).sum();
        let channel: u64 = self.channels.iter().map(|c| c.booked().0).sum();
        (SimDuration(die), SimDuration(channel))
    }

    /// When the last booked flash operation ends.
    pub fn busy_until(&self) -> SimTime {
        self.dies
            .iter()
            .chain(self.channels.iter())
            .map(Server::busy_until)
            .max()
            .unwrap_or(SimTime::ZERO)
            .max(self.scm_busy_until())
            .max(self.dram_busy_until())
            .max(self.gang.as_ref().map_or(SimTime::ZERO, |unit| unit.busy_until()))
    }

    pub fn dies(&self) -> usize {
        self.dies.len()
    }
    pub fn channels(&self) -> usize {
        self.channels.len()
    }
}
