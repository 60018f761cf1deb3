//! SCM work in the scheduler: sector reads and writes on the SCM's banks and channels (seed 001).
//!
//! A write moves its sectors over each channel they go to (one transaction per channel), then each
//! bank writes its sectors one after another; a read has each bank read its sectors, then moves
//! them over the bank's channel. Banks and channels are single servers like dies and channels
//! (first come, first served by ready time, work-conserving). SCM bookings are not in the booking
//! log, which checks the NAND's dies and channels.

use super::operations::{FlashEvent, Waiter};
use super::FlashScheduler;
use crate::media::scm::ScmTiming;
use ssdlab_engine::{Server, SimDuration, SimTime};

/// Sectors one pending SCM stage carries (its packed field is 11 bits); larger runs are split.
const MAX_STAGE_SECTORS: u32 = 2047;

/// SCM operation counts (sectors, not pages).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct ScmCounters {
    pub sectors_read: u64,
    pub sectors_written: u64,
    /// Bytes moved over the SCM channels (for I/O energy).
    pub transfer_bytes: u64,
}

/// The SCM's banks and channels.
#[derive(Debug, Clone)]
pub(super) struct ScmUnit {
    timing: ScmTiming,
    banks: Vec<Server>,
    channels: Vec<Server>,
    counters: ScmCounters,
    /// Sectors per bank of the operation being started (scratch).
    per_bank: Vec<u32>,
}

impl FlashScheduler {
    /// Gives the device its SCM.
    pub fn attach_scm(&mut self, timing: ScmTiming) {
        let banks = timing.banks as usize;
        let channels = timing.channels as usize;
        self.scm = Some(Box::new(ScmUnit {
            timing,
            banks: vec![Server::new(); banks],
            channels: vec![Server::new(); channels],
            counters: ScmCounters::default(),
            per_bank: vec![0; banks],
        }));
    }

    /// Counts per bank of `slots`; returns the unit (taken out of the scheduler while it is worked on).
    fn scm_tally(&mut self, slots: &[u32]) -> Box<ScmUnit> {
        let mut unit = self.scm.take().expect("SCM work on a device without SCM (checked by validation)");
        unit.per_bank.iter_mut().for_each(|count| *count = 0);
        for &slot in slots {
            let bank = unit.timing.bank_of(slot) as usize;
            unit.per_bank[bank] += 1;
        }
        unit
    }

    /// Writes the sectors in physical `slots` at `now`; `waiter` waits for the last bank to finish.
    pub fn scm_write(&mut self, now: SimTime, slots: &[u32], waiter: Waiter) {
        if slots.is_empty() {
            return;
        }
        let mut unit = self.scm_tally(slots);
        for channel in 0..unit.timing.channels {
            let sectors: u64 = (channel..unit.timing.banks)
                .step_by(unit.timing.channels as usize)
                .map(|bank| unit.per_bank[bank as usize] as u64)
                .sum();
            if sectors == 0 {
                continue;
            }
            let length = unit.timing.transfer_ns(sectors);
            let arrived = unit.channels[channel as usize].book(now, SimDuration(length)) + SimDuration(length);
            unit.counters.transfer_bytes += sectors * crate::config::SCM_SECTOR_BYTES;
            for bank in (channel..unit.timing.banks).step_by(unit.timing.channels as usize) {
                let mut left = unit.per_bank[bank as usize];
                while left > 0 {
                    let sectors = left.min(MAX_STAGE_SECTORS);
                    left -= sectors;
                    self.add_wait(waiter);
                    self.events.schedule(arrived, (FlashEvent::ScmBankWrite { bank, sectors, waiter }).pack());
                }
            }
        }
        unit.counters.sectors_written += slots.len() as u64;
        self.scm = Some(unit);
    }

    /// Reads the sectors in physical `slots` at `now`; `waiter` waits for the last to arrive.
    pub fn scm_read(&mut self, now: SimTime, slots: &[u32], waiter: Waiter) {
        if slots.is_empty() {
            return;
        }
        let mut unit = self.scm_tally(slots);
        for bank in 0..unit.timing.banks {
            let mut left = unit.per_bank[bank as usize];
            let channel = unit.timing.channel_of_bank(bank);
            while left > 0 {
                let sectors = left.min(MAX_STAGE_SECTORS);
                left -= sectors;
                let length = sectors as u64 * unit.timing.read_ns_per_sector;
                let read = unit.banks[bank as usize].book(now, SimDuration(length)) + SimDuration(length);
                self.add_wait(waiter);
                self.events.schedule(read, (FlashEvent::ScmTransfer { channel, sectors, waiter }).pack());
            }
        }
        unit.counters.sectors_read += slots.len() as u64;
        self.scm = Some(unit);
    }

    /// A bank writes `sectors` sectors that have arrived over its channel.
    pub(super) fn scm_bank_write(&mut self, now: SimTime, bank: u32, sectors: u32, waiter: Waiter) {
        let Some(unit) = self.scm.as_mut() else { return };
        let length = sectors as u64 * unit.timing.write_ns_per_sector;
        let written = unit.banks[bank as usize].book(now, SimDuration(length)) + SimDuration(length);
        self.finish(waiter, written);
    }

    /// Sectors read by a bank move over `channel` to the controller.
    pub(super) fn scm_transfer(&mut self, now: SimTime, channel: u32, sectors: u32, waiter: Waiter) {
        let Some(unit) = self.scm.as_mut() else { return };
        let length = unit.timing.transfer_ns(sectors as u64);
        let arrived = unit.channels[channel as usize].book(now, SimDuration(length)) + SimDuration(length);
        unit.counters.transfer_bytes += sectors as u64 * crate::config::SCM_SECTOR_BYTES;
        self.finish(waiter, arrived);
    }

    /// SCM operation counts so far (zero without SCM).
    pub fn scm_counters(&self) -> ScmCounters {
        self.scm.as_ref().map_or_else(ScmCounters::default, |unit| unit.counters)
    }

    /// Busy time booked on all SCM banks and on all SCM channels.
    pub fn scm_busy(&self) -> (SimDuration, SimDuration) {
        self.scm.as_ref().map_or((SimDuration(0), SimDuration(0)), |unit| {
            (
                SimDuration(unit.banks.iter().map(|bank| bank.booked().0).sum()),
                SimDuration(unit.channels.iter().map(|channel| channel.booked().0).sum()),
            )
        })
    }

    /// (banks, channels) of the SCM (zero without SCM).
    pub fn scm_resources(&self) -> (usize, usize) {
        self.scm.as_ref().map_or((0, 0), |unit| (unit.banks.len(), unit.channels.len()))
    }

    /// When the last booked SCM operation ends.
    pub(super) fn scm_busy_until(&self) -> SimTime {
        self.scm.as_ref().map_or(SimTime::ZERO, |unit| {
            unit.banks.iter().chain(unit.channels.iter()).map(Server::busy_until).max().unwrap_or(SimTime::ZERO)
        })
    }

    /// Clears the SCM's counters and booked time (after preconditioning, which books nothing on it,
    /// but keeps the reset symmetric with the NAND's).
    pub fn reset_scm_counters(&mut self) {
        if let Some(unit) = self.scm.as_mut() {
            unit.counters = ScmCounters::default();
        }
    }
}
