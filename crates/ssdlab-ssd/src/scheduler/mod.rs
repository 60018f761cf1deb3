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
//! Left out: read/write priority classes and program/erase suspension; cache-read pipelining.
//! Look-ahead sensing (seed 002) holds the die until the hard decode would end as predicted from
//! the channel's queue when the hard sensing is booked (later channel traffic is not foreseen).

pub mod booking_log;
mod copy_pipeline;
mod dram;
mod gang;
mod gang_operations;
mod gate;
#[cfg(test)]
mod gate_tests;
mod operations;
mod plane_group;
mod scm;
#[cfg(test)]
mod tests;
mod write_gate;

pub use booking_log::{check_work_conserving, Booking, Resource};
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
use operations::{GcJob, GcPhase, ReadJob, RequestProgress, Slab, Stage, WriteGroup, NO_BATCH, NO_PLANE};
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
    /// Pending stages, packed (`Stage::pack`).
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

    /// Sensing time of `levels` extra levels.
    #[inline]
    fn extra_sensing_time(&self, levels: u32) -> u64 {
        match self.soft_read {
            Some((full, Some(total), _)) => total * levels as u64 / full as u64,
            _ => levels as u64 * self.extra_sensing_ns,
        }
    }

    /// What a read step's transfer moves: whole pages, and the channel time of its soft results
    /// when they move at the measured rate (0 otherwise: every level's results are then a whole
    /// page). Time and energy both derive from it, so they count the same pages.
    #[inline]
    fn read_transfer_parts(&self, step: &crate::read_path::ReadStep) -> (u64, u64) {
        match self.soft_read {
            Some((full, _, Some(total)))
                if step.extra_sensing_levels > 0 && step.transfer_pages >= step.extra_sensing_levels =>
            {
                let soft_ns = total * step.extra_sensing_levels as u64 / full as u64;
                ((step.transfer_pages - step.extra_sensing_levels) as u64, soft_ns)
            }
            _ => (step.transfer_pages as u64, 0),
        }
    }

    /// Channel time of a read step's transfer.
    #[inline]
    fn read_transfer_time(&self, step: &crate::read_path::ReadStep, channel: u32) -> u64 {
        let (whole, soft_ns) = self.read_transfer_parts(step);
        whole * self.channel_page_ns[channel as usize] + soft_ns
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

    /// Books a sensing of `ns` on `die` and, with interleaving, on its partner dies (the codeword's
    /// other parts); returns when the last part is sensed.
    fn book_sensing(&mut self, now: SimTime, die: u32, ns: u64, hard_pages: u64, extra_levels: u64) -> SimTime {
        let mut sensed = self.book(now, Resource::Die(die), ns) + SimDuration(ns);
        if !self.interleave_partners.is_empty() {
            for index in 0..self.interleave_partners[die as usize].len() {
                let partner = self.interleave_partners[die as usize][index];
                sensed = sensed.max(self.book(now, Resource::Die(partner), ns) + SimDuration(ns));
                let counters = &mut self.tier_counters[self.layout.tier_of_die(partner)];
                counters.page_reads += hard_pages;
                counters.extra_sensing_levels += extra_levels;
                counters.interleaved_part_sensings += 1;
            }
        }
        sensed
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

    // ---- host requests -------------------------------------------------------------------------

    /// A host request enters the device at `now`; returns its id. Its chains are started with
    /// [`Waiter::Request`]`(id)`, then [`FlashScheduler::close_request`] is called. When its last
    /// chain is booked, (tag, completion time) appears in [`FlashScheduler::completions`] and the id
    /// may be reused by the next request opened.
    pub fn open_request(&mut self, now: SimTime, tag: RequestTag) -> u32 {
        let id = self.requests.allocate();
        *self.requests.get_mut(id) = RequestProgress::new(now, tag);
        id
    }

    /// All of the request's chains have been started.
    pub fn close_request(&mut self, id: u32, now: SimTime) {
        self.finish(Waiter::Request(id), now);
    }

    /// Requests completed (their last chain booked) since the list was last cleared.
    pub fn completions(&mut self) -> &mut Vec<(RequestTag, SimTime, u32)> {
        &mut self.completions
    }

    #[inline]
    fn add_wait(&mut self, waiter: Waiter) {
        match waiter {
            Waiter::Request(id) => self.requests.get_mut(id).outstanding += 1,
            Waiter::WriteGroup(group) => self.write_groups.get_mut(group).waiting_reads += 1,
            Waiter::Gate(gate) => self.gates.get_mut(gate).waiting += 1,
            Waiter::Nobody => {}
        }
    }

    /// A chain that `waiter` waits for ends at `time` (at or after the current event's time).
    #[inline]
    fn finish(&mut self, waiter: Waiter, time: SimTime) {
        match waiter {
            Waiter::Request(id) => {
                let progress = self.requests.get_mut(id);
                progress.completion = progress.completion.max(time);
                progress.outstanding -= 1;
                if progress.outstanding == 0 {
                    let (completion, tag, held) = (progress.completion, progress.tag(), progress.held);
                    if held {
                        if let Some(gate) = self.gate.as_mut() {
                            gate.statistics.requests_held += 1;
                        }
                    }
                    self.requests.release(id);
                    if tag.background {
                        self.background_completions.push((completion, tag.size_bytes));
                    } else {
                        self.completions.push((tag, completion, id));
                    }
                }
            }
            Waiter::WriteGroup(id) => {
                let group = self.write_groups.get_mut(id);
                group.ready = group.ready.max(time);
                group.waiting_reads -= 1;
                if group.waiting_reads == 0 && group.closed && !group.held {
                    let ready = group.ready;
                    self.events.schedule(ready, (Stage::GroupTransfer { group: id }).pack());
                }
            }
            Waiter::Gate(gate) => self.gate_read_ended(gate, time),
            Waiter::Nobody => {}
        }
    }

    // ---- reads ---------------------------------------------------------------------------------

    /// Starts a read of `ppn` at `now` following `plan`.
    pub fn read(&mut self, now: SimTime, ppn: Ppn, plan: &ReadPlan, waiter: Waiter) {
        if plan.is_plain_hard_read() && self.interleave_partners.is_empty() {
            return self.read_plain(now, std::slice::from_ref(&ppn), waiter);
        }
        let id = self.new_read_job(ppn, plan, waiter, now);
        self.planned_sense(id, now);
    }

    /// A read job of `ppn` following `plan`, ready to sense at `ready`; `waiter` waits for it from
    /// now on. The caller starts it (`planned_sense`) or hands it to a gate.
    fn new_read_job(&mut self, ppn: Ppn, plan: &ReadPlan, waiter: Waiter, ready: SimTime) -> u32 {
        let die = self.layout.die_of(ppn);
        let tier = self.layout.tier_of_die(die);
        let page_type = self.layout.page_type(ppn);
        let id = self.read_jobs.allocate();
        *self.read_jobs.get_mut(id) = ReadJob {
            plan: *plan,
            die,
            channel: self.layout.channel_of_die(die),
            read_ns: self.nand[tier].read_ns[page_type],
            page_type: page_type as u8,
            waiter,
            next_step: 0,
            transfers_pending: 0,
            ready,
        };
        self.add_wait(waiter);
        id
    }

    /// Plain reads of pages on one die (different planes) at `now`: sensed together (a multi-plane
    /// read when more than one: the die is busy for the slowest page type), then moved back to back
    /// in one bus transaction and decoded; the last page's decode ends the chain.
    #[inline]
    pub fn read_plain(&mut self, now: SimTime, ppns: &[Ppn], waiter: Waiter) {
        // Specialised for one tier, the usual device, where the tier lookups fold to constants.
        if self.layout.is_single() {
            self.read_plain_in::<true>(now, ppns, waiter)
        } else {
            self.read_plain_in::<false>(now, ppns, waiter)
        }
    }

    #[inline(always)]
    fn read_plain_in<const ONE_TIER: bool>(&mut self, now: SimTime, ppns: &[Ppn], waiter: Waiter) {
        let Some(&first) = ppns.first() else { return };
        let one_tier = ONE_TIER;
        let die = self.layout.die_of_given(one_tier, first);
        let tier = self.layout.tier_of_die_given(one_tier, die);
        let nand = &self.nand[tier];
        let mut read_ns = nand.read_ns[self.layout.page_type_given(one_tier, first)];
        for &ppn in &ppns[1..] {
            read_ns = read_ns.max(nand.read_ns[self.layout.page_type_given(one_tier, ppn)]);
        }
        let channel = self.layout.channel_of_die_given(one_tier, die);
        let sensed = self.book(now, Resource::Die(die), read_ns) + SimDuration(read_ns);
        let pages = ppns.len() as u32;
        let counters = &mut self.tier_counters[tier];
        counters.page_reads += pages as u64;
        counters.multi_plane_reads += (pages > 1) as u64;
        self.add_wait(waiter);
        self.events.schedule(sensed, (Stage::PlainTransfer { channel, pages, waiter }).pack());
    }

    /// The counters of the tier a channel belongs to.
    #[inline]
    fn channel_counters(&mut self, channel: u32) -> &mut FlashCounters {
        let tier = self.layout.tier_of_channel(channel);
        &mut self.tier_counters[tier]
    }

    fn plain_transfer(&mut self, now: SimTime, channel: u32, pages: u32, waiter: Waiter) {
        let length = self.channel_page_ns[channel as usize] * pages as u64;
        let transferred = self.book(now, Resource::Channel(channel), length) + SimDuration(length);
        let counters = self.channel_counters(channel);
        counters.page_transfers += pages as u64;
        counters.decodes += pages as u64;
        self.finish(waiter, transferred + SimDuration(self.decode_ns));
    }

    /// Books the sensing of the job's next step at `now`, and of every step after it that
    /// overlaps its predecessor's decode (look-ahead: sensed right behind it on the die).
    fn planned_sense(&mut self, id: u32, now: SimTime) {
        let job = *self.read_jobs.get(id);
        let steps = job.plan.steps();
        let mut index = job.next_step as usize;
        let mut transfers = 0;
        let sense_end = self.sense_step(id, &job, index, now, &mut transfers);
        index += 1;
        if self.look_ahead.after_hard_sensing && index < steps.len() && steps[index].overlap_previous_decode {
            // Seed 002 §3.1: the look-ahead starts when the hard sensing ends "if there is no
            // outstanding read request for the memory plane": decided then. The check holds the
            // job as a pending transfer would, so it cannot finish before the check.
            self.events.schedule(sense_end, (Stage::LookAheadCheck { job: id }).pack());
            let record = self.read_jobs.get_mut(id);
            record.next_step = index as u32;
            record.transfers_pending += transfers + 1;
            return;
        }
        let index = self.sense_look_ahead(id, &job, index, sense_end, now, None, &mut transfers);
        let record = self.read_jobs.get_mut(id);
        record.next_step = index as u32;
        record.transfers_pending += transfers;
        if transfers == 0 {
            self.after_planned_decode(id);
        }
    }

    /// The hard sensing of job `id` has ended at `now` (`read_path.look_ahead_idle_test =
    /// "after_hard_sensing"`): its look-ahead sensing starts now if the die has no other work
    /// queued; otherwise there is none, and a soft step waits for the hard decode as in a two-step
    /// read. (The die stands for its planes: ssdlab books sensing per die.)
    fn look_ahead_check(&mut self, id: u32, now: SimTime) {
        let job = *self.read_jobs.get(id);
        let mut index = job.next_step as usize;
        let mut transfers = 0;
        if self.dies[job.die as usize].is_idle_at(now) {
            // The hard step's transfer ran first at this instant (scheduled before the check), so
            // the job's `ready` is when its decode ends.
            index = self.sense_look_ahead(id, &job, index, now, now, Some(job.ready), &mut transfers);
        } else {
            self.look_ahead.skipped_busy += 1;
            if job.plan.steps()[index].cancelled_by_previous_decode {
                self.look_ahead.skipped_cancelled += 1;
                index += 1;
            }
        }
        let record = self.read_jobs.get_mut(id);
        record.next_step = index as u32;
        record.transfers_pending = record.transfers_pending + transfers - 1;
        if record.transfers_pending == 0 {
            self.after_planned_decode(id);
        }
    }

    /// Books the look-ahead steps from `index` (each overlapping its predecessor's decode: sensed
    /// right behind it on the die), the previous sensing having ended at `sense_end`; returns the
    /// index of the first step not booked. `decoded`: when the previous step's decode ends, if its
    /// transfer is already booked (otherwise it is computed from the channel's queue).
    #[allow(clippy::too_many_arguments)]
    fn sense_look_ahead(
        &mut self,
        id: u32,
        job: &ReadJob,
        mut index: usize,
        mut sense_end: SimTime,
        now: SimTime,
        decoded: Option<SimTime>,
        transfers: &mut u32,
    ) -> usize {
        let steps = job.plan.steps();
        while index < steps.len() && steps[index].overlap_previous_decode {
            let step = steps[index];
            if step.cancelled_by_previous_decode {
                // Look-ahead sensing that the previous decode's success cancels: the die is held
                // from the previous sensing's end until that decode ends (at most the full sensing).
                let previous = steps[index - 1];
                let decoded = decoded.map(|time| time.0).unwrap_or_else(|| {
                    let transfer_start = sense_end.max(self.channels[job.channel as usize].busy_until());
                    transfer_start.0
                        + self.read_transfer_time(&previous, job.channel)
                        + if previous.decode { self.decoders[previous.decoder as usize].decode_ns } else { 0 }
                });
                let full = self.extra_sensing_time(step.extra_sensing_levels);
                let held = decoded.saturating_sub(sense_end.0).min(full);
                if held > 0 {
                    self.book_sensing(now, job.die, held, 0, 0);
                    let tier = self.layout.tier_of_die(job.die);
                    self.tier_counters[tier].cancelled_sensing_ns += held;
                    self.tier_counters[tier].cancelled_sensing_levels += step.extra_sensing_levels as u64;
                }
            } else {
                sense_end = self.sense_step(id, job, index, now, transfers);
            }
            index += 1;
        }
        index
    }

    /// Books step `index`'s sensing (behind whatever the die has queued) and schedules its
    /// transfer; returns when its data is sensed.
    fn sense_step(&mut self, id: u32, job: &ReadJob, index: usize, now: SimTime, transfers: &mut u32) -> SimTime {
        let step = job.plan.steps()[index];
        let hard_ns = if step.hard_sense {
            // A decoder with its own sensing (Quick-LDPC's page read, EP-LDPC's word line) or the
            // page's plain read.
            match self.decoders[step.decoder as usize].sense_ns[job.page_type as usize] {
                0 => job.read_ns,
                own => own,
            }
        } else {
            0
        };
        let sense_ns = hard_ns + self.extra_sensing_time(step.extra_sensing_levels);
        let mut sensed = now;
        if sense_ns > 0 {
            sensed =
                self.book_sensing(now, job.die, sense_ns, step.hard_sense as u64, step.extra_sensing_levels as u64);
            let counters = &mut self.tier_counters[self.layout.tier_of_die(job.die)];
            counters.page_reads += step.hard_sense as u64;
            counters.extra_sensing_levels += step.extra_sensing_levels as u64;
        }
        if step.transfer_pages > 0 || step.decode {
            *transfers += 1;
            self.events.schedule(sensed, (Stage::PlannedTransfer { job: id, step: index as u32 }).pack());
        } else {
            let record = self.read_jobs.get_mut(id);
            record.ready = record.ready.max(sensed);
        }
        sensed
    }

    fn planned_transfer(&mut self, id: u32, step: u32, now: SimTime) {
        let job = *self.read_jobs.get(id);
        let step = job.plan.steps()[step as usize];
        let mut data_ready = now;
        let tier = self.layout.tier_of_die(job.die);
        if step.transfer_pages > 0 {
            let length = self.read_transfer_time(&step, job.channel);
            data_ready = self.book(now, Resource::Channel(job.channel), length) + SimDuration(length);
            let (whole, soft_ns) = self.read_transfer_parts(&step);
            let page_ns = self.channel_page_ns[job.channel as usize].max(1);
            self.tier_counters[tier].page_transfers += whole;
            self.tier_counters[tier].soft_result_pages += soft_ns as f64 / page_ns as f64;
        }
        if step.decode {
            data_ready += SimDuration(self.decoders[step.decoder as usize].decode_ns);
            self.tier_counters[tier].decodes += 1;
        }
        let record = self.read_jobs.get_mut(id);
        record.ready = record.ready.max(data_ready);
        record.transfers_pending -= 1;
        if record.transfers_pending == 0 {
            self.after_planned_decode(id);
        }
    }

    /// Every step sensed so far is decoded (as booked): the next step starts when the last decode
    /// ends, or the read is done.
    fn after_planned_decode(&mut self, id: u32) {
        let job = *self.read_jobs.get(id);
        if (job.next_step as usize) < job.plan.steps().len() {
            self.events.schedule(job.ready, (Stage::PlannedSense { job: id }).pack());
        } else {
            self.read_jobs.release(id);
            self.finish(job.waiter, job.ready);
        }
    }

    // ---- writes --------------------------------------------------------------------------------

    /// A program group of request `request` that will gather pages; read-modify-write reads of
    /// its pages wait on [`Waiter::WriteGroup`] of the returned id.
    pub fn open_write_group(&mut self, request: u32, now: SimTime) -> u32 {
        let id = self.write_groups.allocate();
        *self.write_groups.get_mut(id) = WriteGroup { request, ready: now, ..WriteGroup::default() };
        self.add_wait(Waiter::Request(request));
        id
    }

    /// The group's pages (one die, at most one per plane) are known: once its reads are done, their
    /// data moves over the channel back to back and one (multi-plane) program follows.
    pub fn close_write_group(&mut self, id: u32, now: SimTime, ppns: &[Ppn]) {
        // Specialised for one tier, as `read_plain`.
        if self.layout.is_single() {
            self.close_write_group_in::<true>(id, now, ppns)
        } else {
            self.close_write_group_in::<false>(id, now, ppns)
        }
    }

    #[inline(always)]
    fn close_write_group_in<const ONE_TIER: bool>(&mut self, id: u32, now: SimTime, ppns: &[Ppn]) {
        let Some(&first) = ppns.first() else { return };
        let one_tier = ONE_TIER;
        let die = self.layout.die_of_given(one_tier, first);
        let nand = &self.nand[self.layout.tier_of_die_given(one_tier, die)];
        let mut page_type = self.layout.page_type_given(one_tier, first);
        for &ppn in &ppns[1..] {
            let other = self.layout.page_type_given(one_tier, ppn);
            if nand.program_ns[other] > nand.program_ns[page_type] {
                page_type = other;
            }
        }
        let group = self.write_groups.get_mut(id);
        group.die = die;
        group.channel = self.layout.channel_of_die_given(one_tier, die);
        group.pages = ppns.len() as u32;
        group.page_type = page_type as u8;
        group.closed = true;
        if group.waiting_reads == 0 && !group.held {
            self.group_transfer_when_ready(id, now);
        }
    }

    /// Moves a group's data once it is ready: now, or, when what it waited for ends later (a DRAM
    /// read booked before the group closed, `dram_access`), as an event then. Without a DRAM cache
    /// a group's ready time at close or release is never later than now.
    #[inline(always)]
    fn group_transfer_when_ready(&mut self, id: u32, now: SimTime) {
        let ready = self.write_groups.get(id).ready;
        if ready > now {
            self.events.schedule(ready, (Stage::GroupTransfer { group: id }).pack());
        } else {
            self.group_transfer(id, now);
        }
    }

    // ---- host writes held for garbage collection (`write_gate.rs`) -----------------------------

    /// Holds host writes back for garbage collection as `mode` says (nothing in `background`
    /// mode); `low_watermark_blocks` is the foreground mode's threshold.
    pub fn set_gc_mode(&mut self, mode: GcMode, write_hold_threshold_blocks: u32, low_watermark_blocks: u32) {
        self.gate = (mode != GcMode::Background).then(|| {
            WriteGate::new(
                mode,
                write_hold_threshold_blocks,
                low_watermark_blocks,
                self.layout.planes_total() as usize,
                self.layout.dies_total() as usize,
            )
        });
        self.gc_yields = mode == GcMode::Preemptible;
    }

    /// Whether host writes may be held (then close groups with [`FlashScheduler::close_write_group_gated`]).
    #[inline]
    pub fn gates_writes(&self) -> bool {
        self.gate.is_some()
    }

    /// [`FlashScheduler::close_write_group`] for a host write when writes may be held: the group is
    /// held if a plane of it (whose FTL free blocks `free_blocks` gives by global plane) holds
    /// writes, until [`FlashScheduler::reopen_plane`] releases it.
    pub fn close_write_group_gated(&mut self, id: u32, now: SimTime, ppns: &[Ppn], free_blocks: impl Fn(u32) -> usize) {
        let (Some(&first), Some(gate)) = (ppns.first(), self.gate.as_ref()) else {
            return self.close_write_group(id, now, ppns);
        };
        // The usual case costs a compare: with no GC erase in flight anywhere nothing can be held
        // (and no die is urgent).
        if !gate.any_erase_pending() {
            return self.close_write_group(id, now, ppns);
        }
        let mut held_on = None;
        for &ppn in ppns {
            let plane = self.layout.plane_of(ppn).0;
            // The pending count is checked first: it is in a small array, the FTL's free list is not.
            if gate.erase_pending(plane) && gate.holds(plane, free_blocks(plane)) {
                held_on = Some(plane);
                break;
            }
        }
        let die = self.layout.die_of(first);
        if gate.mode() == GcMode::Preemptible {
            self.refresh_urgency(die, &free_blocks);
        }
        let Some(plane) = held_on else {
            return self.close_write_group(id, now, ppns);
        };
        let first_plane = self.layout.planes_of_die(die).start;
        let mask = ppns.iter().fold(0u64, |mask, &ppn| mask | 1 << ((self.layout.plane_of(ppn).0 - first_plane) & 63));
        let group = self.write_groups.get_mut(id);
        group.held = true;
        group.first_plane = first_plane;
        group.plane_mask = mask;
        let request = group.request;
        self.requests.get_mut(request).held = true;
        if let Some(gate) = self.gate.as_mut() {
            gate.hold(plane, id, ppns.len() as u32, now, now);
        }
        self.close_write_group(id, now, ppns);
    }

    /// Planes whose GC erase ended since last taken (the caller re-examines each with
    /// [`FlashScheduler::reopen_plane`]); empty when writes are never held.
    #[inline]
    pub fn erases_ended(&mut self) -> Option<&mut Vec<u32>> {
        self.gate.as_mut().map(WriteGate::erases_ended)
    }

    /// An erase on `plane` has ended at `now`: if the plane no longer holds writes, its held groups
    /// go on (a group with a page on another plane that still holds writes moves to that plane's
    /// list), in the order they were held.
    pub fn reopen_plane(&mut self, plane: u32, now: SimTime, free_blocks: impl Fn(u32) -> usize) {
        let Some(gate) = self.gate.as_ref() else { return };
        if gate.mode() == GcMode::Preemptible {
            let die = self.layout.die_of_plane(crate::geometry::PlaneIndex(plane));
            self.refresh_urgency(die, &free_blocks);
        }
        let Some(gate) = self.gate.as_ref() else { return };
        if !gate.holds_any(plane) || gate.holds(plane, free_blocks(plane)) {
            return;
        }
        loop {
            let Some(gate) = self.gate.as_mut() else { return };
            let Some((id, since)) = gate.take_next(plane, now) else { return };
            let group = self.write_groups.get(id);
            let (first_plane, mut mask) = (group.first_plane, group.plane_mask);
            let mut still = None;
            while mask != 0 {
                let other = first_plane + mask.trailing_zeros();
                mask &= mask - 1;
                if other != plane && gate.holds(other, free_blocks(other)) {
                    still = Some(other);
                    break;
                }
            }
            if let Some(other) = still {
                gate.hold_again(other, id, since, now);
                continue;
            }
            gate.released(since, now);
            let group = self.write_groups.get_mut(id);
            group.held = false;
            if group.waiting_reads == 0 && group.closed {
                self.group_transfer_when_ready(id, now);
            }
        }
    }

    /// Preemptible mode: GC on `die` stops yielding while a plane of it holds writes.
    fn refresh_urgency(&mut self, die: u32, free_blocks: &impl Fn(u32) -> usize) {
        let Some(gate) = self.gate.as_mut() else { return };
        let urgent = self.layout.planes_of_die(die).any(|plane| gate.holds(plane, free_blocks(plane)));
        gate.set_urgent(die, urgent);
    }

    /// What holding writes cost so far (None when writes are never held).
    pub fn write_hold_statistics(&self) -> Option<WriteHoldStatistics> {
        self.gate.as_ref().map(|gate| gate.statistics)
    }

    /// Writes to a plane wait while its erased pool is below this many blocks (0: never).
    pub fn write_hold_threshold_blocks(&self) -> u32 {
        self.gate.as_ref().map_or(0, WriteGate::threshold)
    }

    /// Planes holding writes now.
    pub fn planes_holding_writes(&self) -> u32 {
        self.gate.as_ref().map_or(0, WriteGate::planes_blocked)
    }

    /// The erased pool of a plane (FTL free blocks minus erases not yet ended).
    pub fn erased_pool(&self, plane: u32, free_blocks: usize) -> u64 {
        self.gate.as_ref().map_or(free_blocks as u64, |gate| gate.erased_pool(plane, free_blocks))
    }

    fn group_transfer(&mut self, id: u32, now: SimTime) {
        let group = *self.write_groups.get(id);
        // The program carries what it needs, so the group's record is free from here on (under a
        // deep backlog the program runs long after, and reading the record back would miss cache).
        self.write_groups.release(id);
        let length = self.channel_page_ns[group.channel as usize] * group.pages as u64;
        let data_in = self.book(now, Resource::Channel(group.channel), length) + SimDuration(length);
        self.events.schedule(
            data_in,
            (Stage::Program { die: group.die, pages: group.pages, request: group.request, page_type: group.page_type })
                .pack(),
        );
    }

    fn program(&mut self, die: u32, pages: u32, request: u32, page_type: u8, now: SimTime) {
        let tier = self.layout.tier_of_die(die);
        let program_ns = self.nand[tier].program_ns[page_type as usize];
        let end = self.book(now, Resource::Die(die), program_ns) + SimDuration(program_ns);
        let pages = pages as u64;
        let counters = &mut self.tier_counters[tier];
        counters.page_programs += pages;
        counters.page_transfers += pages;
        counters.write_page_transfers += pages;
        counters.multi_plane_programs += (pages > 1) as u64;
        self.finish(Waiter::Request(request), end);
    }

    // ---- garbage collection and migration -----------------------------------------------------

    /// Starts the GC work the FTL asked for at `now`: copies and erases, one chain per source die
    /// (in the order the FTL gave them), so collections on different dies run side by side. A copy
    /// within a die is a copyback (read and program as one die operation) or a round trip through
    /// the controller on the die's channel; a copy to another die (another tier: migration) senses
    /// on the source die, moves the page out over the source channel, decodes it, moves it in over
    /// the destination channel and programs it on the destination die. The chain goes on when that
    /// program starts, so the next page is read while it runs, and at most one of the chain's
    /// programs waits on the destination die: long background work (a TLC block filled page by
    /// page) is booked a chunk at a time, and host operations that become ready meanwhile go first.
    pub fn garbage_collection(&mut self, now: SimTime, ops: &[FlashOp]) {
        if self.gang.is_some() {
            self.gang_cleaning(now, ops);
            return;
        }
        self.start_chains(now, ops, NO_BATCH, Waiter::Nobody);
    }

    /// Copies a host request waits for (a block-modify-write's): booked like GC copies, one chain
    /// per source die, each chain's end (its last program's end) reported to `waiter`.
    #[cold]
    #[inline(never)]
    pub fn foreground_copies(&mut self, now: SimTime, ops: &[FlashOp], waiter: Waiter) {
        if self.gang.is_some() {
            let end = self.gang_cleaning(now, ops);
            self.add_wait(waiter);
            self.finish(waiter, end);
            return;
        }
        self.start_chains(now, ops, NO_BATCH, waiter);
    }

    /// Like [`FlashScheduler::garbage_collection`], for background work whose end someone waits
    /// for (a drain step, a suspend-and-copy): when every chain of the batch has ended, (`token`,
    /// end) appears in [`FlashScheduler::finished_batches`]. An empty batch finishes at `now`.
    #[cold]
    #[inline(never)]
    pub fn background_batch(&mut self, now: SimTime, ops: &[FlashOp], token: u32) {
        self.background_batch_ending_after(now, ops, token, now)
    }

    /// [`FlashScheduler::background_batch`] of a batch that also holds work booked apart (a
    /// pipelined copy, `copy_pipeline`) ending at `booked_until`: it finishes no earlier.
    pub fn background_batch_ending_after(&mut self, now: SimTime, ops: &[FlashOp], token: u32, booked_until: SimTime) {
        if self.gang.is_some() {
            let end = self.gang_cleaning(now, ops).max(booked_until).max(now);
            self.finished_batches.push((token, end));
            return;
        }
        self.batches.push((token, 0, booked_until.max(now)));
        self.start_chains(now, ops, token, Waiter::Nobody);
        if let Some(position) = self.batches.iter().position(|&(t, running, _)| t == token && running == 0) {
            let (_, _, end) = self.batches.swap_remove(position);
            self.finished_batches.push((token, end));
        }
    }

    /// Tracked batches finished since the list was last cleared: (token, when its last operation ends).
    pub fn finished_batches(&mut self) -> &mut Vec<(u32, SimTime)> {
        &mut self.finished_batches
    }

    /// The longest continuous run of background work (GC, migration, drain) on one die, in ns.
    pub fn longest_background_span_ns(&self) -> u64 {
        self.background_runs.iter().map(|run| run.1 .0 - run.0 .0).fold(self.longest_background_ns, u64::max)
    }

    /// When the work booked on a die ends.
    pub fn die_busy_until(&self, die: u32) -> SimTime {
        if let (Some(unit), Some(gang)) = (&self.gang, self.gang_of_die(die)) {
            return unit.server(gang).busy_until();
        }
        self.dies[die as usize].busy_until()
    }

    /// Books background work on a die (see [`FlashScheduler::book`]) and extends the die's run of
    /// back-to-back background work, or starts a new one if anything else ran in between.
    #[inline(always)]
    fn book_background(&mut self, now: SimTime, die: u32, duration: u64) -> SimTime {
        let before = self.dies[die as usize].busy_until();
        let start = self.book(now, Resource::Die(die), duration);
        let end = start + SimDuration(duration);
        let run = &mut self.background_runs[die as usize];
        if start == run.1 && before == run.1 {
            run.1 = end;
        } else {
            // A run is measured when it ends (here) or at the end (the open runs).
            self.longest_background_ns = self.longest_background_ns.max(run.1 .0 - run.0 .0);
            *run = (start, end);
        }
        end
    }

    #[inline(never)]
    fn start_chains(&mut self, now: SimTime, ops: &[FlashOp], batch: u32, waiter: Waiter) {
        if ops.is_empty() {
            return;
        }
        if let Some(gate) = self.gate.as_mut() {
            // Each erase's block is out of its plane's erased pool until the erase ends.
            for op in ops {
                if let FlashOp::Erase { block } = *op {
                    gate.erase_started(self.layout.plane_of_block(block).0);
                }
            }
        }
        let die_of = |scheduler: &Self, op: &FlashOp| match *op {
            FlashOp::GcRead { ppn } | FlashOp::GcProgram { ppn } => scheduler.layout.die_of(ppn),
            FlashOp::Erase { block } => scheduler.layout.die_of(scheduler.layout.first_page_of_block(block)),
        };
        // The usual batch (in-place collection of one plane) is on one die: one chain, no sorting.
        // On a one-tier device every untracked batch is (only drains, tracked, leave their plane).
        // A migration's programs are on other dies, but its chain is its source die's.
        if self.layout.is_single() && batch == NO_BATCH && waiter == Waiter::Nobody {
            let id = self.new_chain(now, batch, waiter);
            let job = self.gc_jobs.get_mut(id);
            job.ops.extend_from_slice(ops);
            job.same_die = true;
            self.gc_step(id, now);
            return;
        }
        let first_die = die_of(self, &ops[0]);
        let mut one_die = true;
        let mut index = 0;
        while index < ops.len() {
            if die_of(self, &ops[index]) != first_die {
                one_die = false;
                break;
            }
            index += if matches!(ops[index], FlashOp::GcRead { .. })
                && matches!(ops.get(index + 1), Some(FlashOp::GcProgram { .. }))
            {
                2
            } else {
                1
            };
        }
        if one_die {
            let id = self.new_chain(now, batch, waiter);
            self.gc_jobs.get_mut(id).ops.extend_from_slice(ops);
            self.gc_step(id, now);
            return;
        }
        // (source die, job) of the chains of this batch; a batch touches few dies.
        let mut chains = std::mem::take(&mut self.chain_scratch);
        chains.clear();
        let mut index = 0;
        while index < ops.len() {
            let length = if matches!(ops[index], FlashOp::GcRead { .. })
                && matches!(ops.get(index + 1), Some(FlashOp::GcProgram { .. }))
            {
                2
            } else {
                1
            };
            let die = die_of(self, &ops[index]);
            let id = match chains.iter().find(|(chain_die, _)| *chain_die == die) {
                Some(&(_, id)) => id,
                None => {
                    let id = self.new_chain(now, batch, waiter);
                    chains.push((die, id));
                    id
                }
            };
            self.gc_jobs.get_mut(id).ops.extend_from_slice(&ops[index..index + length]);
            index += length;
        }
        for &(_, id) in &chains {
            self.gc_step(id, now);
        }
        self.chain_scratch = chains;
    }

    /// A new, empty GC chain of `batch`.
    fn new_chain(&mut self, now: SimTime, batch: u32, waiter: Waiter) -> u32 {
        let id = self.gc_jobs.allocate();
        let job = self.gc_jobs.get_mut(id);
        job.ops.clear();
        job.index = 0;
        job.phase = GcPhase::Sense;
        job.batch = batch;
        job.finished = now;
        job.same_die = false;
        job.waiter = waiter;
        job.erase_plane = NO_PLANE;
        self.add_wait(waiter);
        if batch != NO_BATCH {
            if let Some(entry) = self.batches.iter_mut().find(|(token, _, _)| *token == batch) {
                entry.1 += 1;
            }
        }
        id
    }

    fn gc_step(&mut self, id: u32, now: SimTime) {
        // Specialised for one tier, as `read_plain`.
        if self.layout.is_single() {
            self.gc_step_in::<true>(id, now)
        } else {
            self.gc_step_in::<false>(id, now)
        }
    }

    #[inline(always)]
    fn gc_step_in<const ONE_TIER: bool>(&mut self, id: u32, now: SimTime) {
        let one_tier = ONE_TIER;
        let erase_plane = self.gc_jobs.get(id).erase_plane;
        if erase_plane != NO_PLANE {
            // This step runs at the end of the chain's last erase.
            self.gc_jobs.get_mut(id).erase_plane = NO_PLANE;
            if let Some(gate) = self.gate.as_mut() {
                gate.erase_ended(erase_plane);
            }
        }
        loop {
            if self.gc_yields && self.gc_steps_aside(id, now) {
                return;
            }
            let job = self.gc_jobs.get(id);
            let Some(&op) = job.ops.get(job.index) else {
                let (batch, finished, waiter) = (job.batch, job.finished.max(now), job.waiter);
                self.gc_jobs.release(id);
                if batch != NO_BATCH {
                    self.chain_ended(batch, finished);
                }
                self.finish(waiter, finished);
                return;
            };
            let (phase, same_die) = (job.phase, job.same_die);
            let next = job.ops.get(job.index + 1).copied();
            let (advance, phase_after, done_at) = match (op, phase) {
                (FlashOp::GcRead { ppn }, GcPhase::Sense) => {
                    let Some(FlashOp::GcProgram { ppn: destination }) = next else {
                        // A read without its program copies nothing.
                        self.gc_jobs.get_mut(id).index += 1;
                        continue;
                    };
                    let die = self.layout.die_of_given(one_tier, ppn);
                    let tier = self.layout.tier_of_die_given(one_tier, die);
                    let read_ns = self.nand[tier].read_ns[self.layout.page_type_given(one_tier, ppn)];
                    self.tier_counters[tier].page_reads += 1;
                    if self.copyback && (same_die || self.layout.die_of_given(one_tier, destination) == die) {
                        // Copyback read and program are one die operation: the page stays in the
                        // plane's register in between, which no other command may overwrite.
                        let length =
                            read_ns + self.nand[tier].program_ns[self.layout.page_type_given(one_tier, destination)];
                        let end = self.book_background(now, die, length);
                        self.tier_counters[tier].page_programs += 1;
                        (2, GcPhase::Sense, end)
                    } else {
                        let sensed = self.book_background(now, die, read_ns);
                        (0, GcPhase::Transfer, sensed)
                    }
                }
                (FlashOp::GcRead { ppn }, GcPhase::Transfer) => {
                    let Some(FlashOp::GcProgram { ppn: destination }) = next else {
                        unreachable!("checked when sensed")
                    };
                    let channel = self.layout.channel_of_die_given(one_tier, self.layout.die_of_given(one_tier, ppn));
                    let destination_channel =
                        self.layout.channel_of_die_given(one_tier, self.layout.die_of_given(one_tier, destination));
                    // Out and back on one channel is one booking of two pages; across channels the
                    // page goes out on the source channel now and in on the destination's later.
                    let pages = if destination_channel == channel { 2 } else { 1 };
                    let length = pages * self.channel_page_ns[channel as usize];
                    let back =
                        self.book(now, Resource::Channel(channel), length) + SimDuration(length + self.decode_ns);
                    let counters = &mut self.tier_counters[self.layout.tier_of_channel_given(one_tier, channel)];
                    counters.page_transfers += pages;
                    counters.write_page_transfers += pages;
                    counters.decodes += 1;
                    (0, if pages == 2 { GcPhase::Program } else { GcPhase::TransferIn }, back)
                }
                (FlashOp::GcRead { .. }, GcPhase::TransferIn) => {
                    let Some(FlashOp::GcProgram { ppn: destination }) = next else {
                        unreachable!("checked when sensed")
                    };
                    let channel =
                        self.layout.channel_of_die_given(one_tier, self.layout.die_of_given(one_tier, destination));
                    let length = self.channel_page_ns[channel as usize];
                    let arrived = self.book(now, Resource::Channel(channel), length) + SimDuration(length);
                    let counters = &mut self.tier_counters[self.layout.tier_of_channel_given(one_tier, channel)];
                    counters.page_transfers += 1;
                    counters.write_page_transfers += 1;
                    (0, GcPhase::Program, arrived)
                }
                (FlashOp::GcRead { ppn }, GcPhase::Program) => {
                    let Some(FlashOp::GcProgram { ppn: destination }) = next else {
                        unreachable!("checked when sensed")
                    };
                    let die = self.layout.die_of_given(one_tier, destination);
                    let tier = self.layout.tier_of_die_given(one_tier, die);
                    let program_ns = self.nand[tier].program_ns[self.layout.page_type_given(one_tier, destination)];
                    let end = self.book_background(now, die, program_ns);
                    let start = SimTime(end.0 - program_ns);
                    let job = self.gc_jobs.get_mut(id);
                    job.finished = job.finished.max(end);
                    self.tier_counters[tier].page_programs += 1;
                    if !same_die && die != self.layout.die_of_given(one_tier, ppn) {
                        // The destination die programs on its own; the chain goes on when it starts.
                        (2, GcPhase::Sense, start)
                    } else {
                        (2, GcPhase::Sense, start + SimDuration(program_ns))
                    }
                }
                (FlashOp::GcProgram { .. }, _) => {
                    // A program without a read before it has nothing to copy.
                    self.gc_jobs.get_mut(id).index += 1;
                    continue;
                }
                (FlashOp::Erase { block }, _) => {
                    let die = self.layout.die_of_block_given(one_tier, block);
                    let tier = self.layout.tier_of_die_given(one_tier, die);
                    let erase_ns = self.nand[tier].erase_ns;
                    let end = self.book_background(now, die, erase_ns);
                    self.tier_counters[tier].block_erases += 1;
                    if self.gate.is_some() {
                        self.gc_jobs.get_mut(id).erase_plane = self.layout.plane_of_block(block).0;
                    }
                    (1, GcPhase::Sense, end)
                }
            };
            let job = self.gc_jobs.get_mut(id);
            job.index += advance;
            job.phase = phase_after;
            self.events.schedule(done_at, (Stage::GarbageCollection { job: id }).pack());
            return;
        }
    }

    /// Preemptible mode: whether chain `id`'s next die operation steps aside because its die has
    /// work booked past `now` and no plane of it is below the hard threshold; it is then tried again
    /// when that work ends (so GC runs in the die's idle time, and host work that becomes ready
    /// meanwhile goes first). Only plain GC yields: copies a host write or a device event waits for
    /// do not.
    #[inline(never)]
    fn gc_steps_aside(&mut self, id: u32, now: SimTime) -> bool {
        let job = self.gc_jobs.get(id);
        if job.batch != NO_BATCH || job.waiter != Waiter::Nobody {
            return false;
        }
        let die = match (job.ops.get(job.index), job.phase) {
            (Some(FlashOp::GcRead { ppn }), GcPhase::Sense) => self.layout.die_of(*ppn),
            (Some(FlashOp::GcRead { .. }), GcPhase::Program) => match job.ops.get(job.index + 1) {
                Some(FlashOp::GcProgram { ppn }) => self.layout.die_of(*ppn),
                _ => return false,
            },
            (Some(FlashOp::Erase { block }), _) => self.layout.die_of(self.layout.first_page_of_block(*block)),
            _ => return false,
        };
        let busy_until = self.dies[die as usize].busy_until();
        let Some(gate) = self.gate.as_mut() else { return false };
        if busy_until <= now || !gate.gc_yields_on(die) {
            return false;
        }
        gate.statistics.gc_yields += 1;
        self.events.schedule(busy_until, (Stage::GarbageCollection { job: id }).pack());
        true
    }

    /// A chain of tracked batch `batch` ended at `time`.
    fn chain_ended(&mut self, batch: u32, time: SimTime) {
        if let Some(position) = self.batches.iter().position(|&(token, _, _)| token == batch) {
            let entry = &mut self.batches[position];
            entry.1 -= 1;
            entry.2 = entry.2.max(time);
            if entry.1 == 0 {
                let (token, _, end) = self.batches.swap_remove(position);
                self.finished_batches.push((token, end));
            }
        }
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
        match Stage::unpack(packed) {
            Stage::PlainTransfer { channel, pages, waiter } => self.plain_transfer(now, channel, pages, waiter),
            Stage::PlannedSense { job } => self.planned_sense(job, now),
            Stage::PlannedTransfer { job, step } => self.planned_transfer(job, step, now),
            Stage::LookAheadCheck { job } => self.look_ahead_check(job, now),
            Stage::GroupTransfer { group } => self.group_transfer(group, now),
            Stage::Program { die, pages, request, page_type } => self.program(die, pages, request, page_type, now),
            Stage::GarbageCollection { job } => self.gc_step(job, now),
            Stage::ScmBankWrite { bank, sectors, waiter } => self.scm_bank_write(now, bank, sectors, waiter),
            Stage::ScmTransfer { channel, sectors, waiter } => self.scm_transfer(now, channel, sectors, waiter),
        }
        Some(now)
    }

    /// Operations not finished (for the end-of-run check): pending events and open records.
    pub fn work_in_progress(&self) -> usize {
        self.events.len()
            + self.requests.in_use()
            + self.read_jobs.in_use()
            + self.write_groups.in_use()
            + self.gc_jobs.in_use()
            + self.gates.in_use()
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
