//! The flash scheduler: books every flash operation on the resources it occupies, as discrete events
//! in simulated time.
//!
//! Resources are single servers with [`Timeline`]s: each die (array operations: sense, program, erase;
//! a multi-plane operation occupies the die once for all its planes) and each channel (command and
//! data transfers). A read senses on the die, then moves data over the channel, then decodes in the
//! controller; a write moves data over the channel, then programs on the die. Bookings fill idle gaps,
//! so operations of later requests can overtake booked-but-not-started work of earlier ones where the
//! resource is free. Garbage collection books its copies and erases on the same die timelines, so
//! host requests queue behind it. The controller's ECC decoders are not contended.
//!
//! Left out: read/write priority classes and program/erase suspension; cache-read pipelining.

use crate::config::DeviceConfig;
use crate::geometry::{BlockIndex, Geometry, PlaneIndex, Ppn};
use crate::media::channel::ChannelTiming;
use crate::media::nand::NandTiming;
use crate::read_path::ReadPlan;
use ssdlab_engine::{SimDuration, SimTime, Timeline};

#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct FlashCounters {
    pub page_reads: u64,
    pub page_programs: u64,
    pub block_erases: u64,
    pub page_transfers: u64,
    pub extra_sensing_levels: u64,
    /// Sensing time of look-ahead soft sensings cut short by a successful hard decode.
    pub cancelled_sensing_ns: u64,
    pub decodes: u64,
    pub multi_plane_programs: u64,
    pub multi_plane_reads: u64,
}

/// Pages gathered for one multi-plane operation: pages of one die, at most one per plane.
#[derive(Debug, Default)]
pub struct PlaneGroup {
    pages: Vec<Ppn>,
    die: u32,
    /// The planes taken, as bits of their global index (the planes of one die have consecutive
    /// indices, so up to 64 planes per die the bits differ; beyond, a collision only ends a group
    /// early).
    planes: u64,
}

impl PlaneGroup {
    pub fn pages(&self) -> &[Ppn] {
        &self.pages
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Adds `ppn` (on `die`, in `plane`) if it fits: the group is empty, or it is on the group's
    /// die in a plane not yet taken. Returns false, leaving the group unchanged, otherwise.
    #[inline]
    pub fn add(&mut self, die: u32, plane: PlaneIndex, ppn: Ppn) -> bool {
        let bit = 1u64 << (plane.0 & 63);
        if self.pages.is_empty() {
            self.die = die;
            self.planes = 0;
        } else if die != self.die || self.planes & bit != 0 {
            return false;
        }
        self.pages.push(ppn);
        self.planes |= bit;
        true
    }

    pub fn clear(&mut self) {
        self.pages.clear();
    }
}

pub struct FlashScheduler {
    geometry: Geometry,
    nand: NandTiming,
    channel: ChannelTiming,
    dies: Vec<Timeline>,
    channels: Vec<Timeline>,
    page_transfer_ns: u64,
    extra_sensing_ns: u64,
    decode_ns: u64,
    copyback: bool,
    pub counters: FlashCounters,
}

impl FlashScheduler {
    pub fn new(geometry: Geometry, device: &DeviceConfig, extra_sensing_ns: u64, decode_ns: u64, copyback: bool) -> Self {
        let channel = ChannelTiming::new(&device.channel);
        FlashScheduler {
            page_transfer_ns: channel.transfer_ns(geometry.page_size_bytes as u64),
            dies: vec![Timeline::new(); geometry.dies_total() as usize],
            channels: vec![Timeline::new(); geometry.channels as usize],
            nand: NandTiming::new(&device.nand),
            channel,
            extra_sensing_ns,
            decode_ns,
            copyback,
            counters: FlashCounters::default(),
            geometry,
        }
    }

    pub fn page_transfer_ns(&self) -> u64 {
        self.page_transfer_ns
    }

    pub fn channel_timing(&self) -> &ChannelTiming {
        &self.channel
    }

    /// True if the die holding `ppn` has no work booked at or after `time`.
    pub fn die_idle_from(&self, ppn: Ppn, time: SimTime) -> bool {
        self.dies[self.geometry.die_of(ppn) as usize].is_idle_from(time)
    }

    /// Executes a read plan; returns when the data is decoded and ready for the host.
    pub fn read(&mut self, now: SimTime, earliest: SimTime, ppn: Ppn, plan: &ReadPlan) -> SimTime {
        if plan.is_plain_hard_read() {
            return self.read_plain(now, earliest, ppn);
        }
        let die = self.geometry.die_of(ppn);
        let channel = self.geometry.channel_of_die(die) as usize;
        let read_ns = self.nand.read_ns[self.geometry.page_type(ppn)];
        let mut ready = earliest;
        let mut previous_sense_end = earliest;
        for step in plan.steps() {
            if step.cancelled_by_previous_decode {
                // Look-ahead sensing from the end of the previous sensing until the previous
                // decode succeeds (RESET); the die cannot take other work meanwhile.
                // (Look-ahead is planned only for a die idle from the read's arrival, so the die is
                // free from the end of the hard sensing.)
                let full = step.extra_sensing_levels as u64 * self.extra_sensing_ns;
                let held = ready.0.saturating_sub(previous_sense_end.0).min(full);
                if held > 0 {
                    self.dies[die as usize].book(now, previous_sense_end, SimDuration(held));
                    self.counters.cancelled_sensing_ns += held;
                }
                continue;
            }
            let sense_ns = if step.hard_sense { read_ns } else { 0 } + step.extra_sensing_levels as u64 * self.extra_sensing_ns;
            let step_earliest = if step.overlap_previous_decode { previous_sense_end } else { ready };
            let mut data_ready = step_earliest;
            if sense_ns > 0 {
                let start = self.dies[die as usize].book(now, step_earliest, SimDuration(sense_ns));
                data_ready = start + SimDuration(sense_ns);
                previous_sense_end = data_ready;
                self.counters.page_reads += step.hard_sense as u64;
                self.counters.extra_sensing_levels += step.extra_sensing_levels as u64;
            }
            if step.transfer_pages > 0 {
                let length = SimDuration(self.page_transfer_ns * step.transfer_pages as u64);
                let start = self.channels[channel].book(now, data_ready, length);
                data_ready = start + length;
                self.counters.page_transfers += step.transfer_pages as u64;
            }
            if step.decode {
                data_ready += SimDuration(self.decode_ns);
                self.counters.decodes += 1;
            }
            ready = ready.max(data_ready);
        }
        ready
    }

    /// The common read, without the step loop: sense, transfer one page, decode.
    #[inline]
    pub fn read_plain(&mut self, now: SimTime, earliest: SimTime, ppn: Ppn) -> SimTime {
        let die = self.geometry.die_of(ppn);
        let channel = self.geometry.channel_of_die(die) as usize;
        let read_ns = self.nand.read_ns[self.geometry.page_type(ppn)];
        let sensed = self.dies[die as usize].book(now, earliest, SimDuration(read_ns)) + SimDuration(read_ns);
        let length = SimDuration(self.page_transfer_ns);
        let transferred = self.channels[channel].book(now, sensed, length) + length;
        self.counters.page_reads += 1;
        self.counters.page_transfers += 1;
        self.counters.decodes += 1;
        transferred + SimDuration(self.decode_ns)
    }

    /// Plain reads of pages on one die in different planes, sensed together (multi-plane read: the
    /// die is busy for the slowest page type), then moved back to back in one bus transaction and
    /// decoded as they arrive. One page is an ordinary plain read.
    #[inline(always)]
    pub fn read_plain_multi_plane(&mut self, now: SimTime, earliest: SimTime, ppns: &[Ppn]) -> SimTime {
        match ppns {
            [] => earliest,
            [single] => self.read_plain(now, earliest, *single),
            _ => self.read_plain_together(now, earliest, ppns),
        }
    }

    #[inline(never)]
    fn read_plain_together(&mut self, now: SimTime, earliest: SimTime, ppns: &[Ppn]) -> SimTime {
        let first = ppns[0];
        let die = self.geometry.die_of(first);
        let channel = self.geometry.channel_of_die(die) as usize;
        let mut read_ns = 0;
        for &ppn in ppns {
            read_ns = read_ns.max(self.nand.read_ns[self.geometry.page_type(ppn)]);
        }
        let sensed = self.dies[die as usize].book(now, earliest, SimDuration(read_ns)) + SimDuration(read_ns);
        let length = SimDuration(self.page_transfer_ns * ppns.len() as u64);
        let transferred = self.channels[channel].book(now, sensed, length) + length;
        let pages = ppns.len() as u64;
        self.counters.page_reads += pages;
        self.counters.page_transfers += pages;
        self.counters.decodes += pages;
        self.counters.multi_plane_reads += 1;
        // The last page's decode ends the operation.
        transferred + SimDuration(self.decode_ns)
    }

    /// Programs pages on one die together (multi-plane when more than one); returns completion.
    pub fn program(&mut self, now: SimTime, earliest: SimTime, ppns: &[Ppn]) -> SimTime {
        let Some(&first) = ppns.first() else { return earliest };
        let die = self.geometry.die_of(first);
        let channel = self.geometry.channel_of_die(die) as usize;
        // The pages of a multi-plane program are loaded back to back in one bus transaction.
        let length = SimDuration(self.page_transfer_ns * ppns.len() as u64);
        let data_in = self.channels[channel].book(now, earliest, length) + length;
        let mut program_ns = 0;
        for &ppn in ppns {
            program_ns = program_ns.max(self.nand.program_ns[self.geometry.page_type(ppn)]);
        }
        let start = self.dies[die as usize].book(now, data_in, SimDuration(program_ns));
        self.counters.page_programs += ppns.len() as u64;
        self.counters.page_transfers += ppns.len() as u64;
        self.counters.multi_plane_programs += (ppns.len() > 1) as u64;
        start + SimDuration(program_ns)
    }

    /// Garbage-collection copy of one page inside its plane: copyback (no bus) or through the
    /// controller (transfer out, ECC check, transfer in).
    pub fn copy(&mut self, now: SimTime, earliest: SimTime, source: Ppn, destination: Ppn) -> SimTime {
        let die = self.geometry.die_of(source) as usize;
        let read_ns = self.nand.read_ns[self.geometry.page_type(source)];
        let program_ns = self.nand.program_ns[self.geometry.page_type(destination)];
        let start = self.dies[die].book(now, earliest, SimDuration(read_ns));
        let mut data_ready = start + SimDuration(read_ns);
        self.counters.page_reads += 1;
        if !self.copyback {
            let channel = self.geometry.channel_of_die(die as u32) as usize;
            let length = SimDuration(2 * self.page_transfer_ns);
            let start = self.channels[channel].book(now, data_ready, length);
            data_ready = start + length + SimDuration(self.decode_ns);
            self.counters.page_transfers += 2;
            self.counters.decodes += 1;
        }
        let start = self.dies[die].book(now, data_ready, SimDuration(program_ns));
        self.counters.page_programs += 1;
        start + SimDuration(program_ns)
    }

    pub fn erase(&mut self, now: SimTime, earliest: SimTime, block: BlockIndex) -> SimTime {
        let die = self.geometry.die_of(self.geometry.first_page(block)) as usize;
        let start = self.dies[die].book(now, earliest, SimDuration(self.nand.erase_ns));
        self.counters.block_erases += 1;
        start + SimDuration(self.nand.erase_ns)
    }

    /// Busy time booked on all dies and all channels (for utilisation).
    pub fn busy_totals(&self) -> (SimDuration, SimDuration) {
        let die: u64 = self.dies.iter().map(|d| d.booked().0).sum();
        let channel: u64 = self.channels.iter().map(|c| c.booked().0).sum();
        (SimDuration(die), SimDuration(channel))
    }

    pub fn dies(&self) -> usize {
        self.dies.len()
    }
    pub fn channels(&self) -> usize {
        self.channels.len()
    }
}
