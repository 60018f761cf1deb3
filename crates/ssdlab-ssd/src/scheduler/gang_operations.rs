//! The scheduler's operations on DiskSim's ganged device (`[device.ganging]`): host read and write
//! pieces and cleaning booked on the gangs (`gang.rs` gives the timing and its source), and the die
//! queries answered by the gang a die belongs to.

use super::gang::{GangStatistics, GangUnit, StepTimes};
use super::{FlashScheduler, Waiter};
use crate::config::GangingConfig;
use crate::flash_op::FlashOp;
use crate::geometry::Ppn;
use crate::read_path::{ReadPlan, ReadStep, MAX_READ_STEPS};
use ssdlab_engine::{SimDuration, SimTime};

impl FlashScheduler {
    /// Makes the device ganged (`[device.ganging]`): from here on host pieces, cleaning and the die
    /// queries go to the gangs. Cleaning holds the gang ahead of the next piece, so host writes are
    /// not held by the write gate.
    pub fn set_ganging(&mut self, config: &GangingConfig) {
        self.gang =
            Some(Box::new(GangUnit::new(config.chips_per_gang, self.layout.chips_total(), config.element_overlap)));
        self.gate = None;
    }

    /// Chips per gang on a ganged device.
    pub fn gang_chips(&self) -> Option<u32> {
        self.gang.as_ref().map(|unit| unit.chips_per_gang())
    }

    /// The gangs' statistics, their utilisation over a run that ended at `end`.
    pub fn gang_statistics(&self, end: SimTime) -> Option<GangStatistics> {
        self.gang.as_ref().map(|unit| unit.statistics_at(end))
    }

    /// (gang, chip within the gang) of a page on a ganged device.
    #[inline]
    pub fn gang_position(&self, ppn: Ppn) -> Option<(u32, u32)> {
        let unit = self.gang.as_ref()?;
        let chip = self.layout.chip_of_die(self.layout.die_of(ppn));
        Some((unit.gang_of_chip(chip), chip % unit.chips_per_gang()))
    }

    pub(super) fn gang_of_die(&self, die: u32) -> Option<u32> {
        let unit = self.gang.as_ref()?;
        Some(unit.gang_of_chip(self.layout.chip_of_die(die)))
    }

    /// One step's times on the gang, and its counts (as the independent dies' path counts them).
    fn gang_step_times(
        &mut self,
        step: &ReadStep,
        read_ns: u64,
        page_type: usize,
        die: u32,
        channel: u32,
    ) -> StepTimes {
        if step.cancelled_by_previous_decode {
            // The time it ran is counted when the piece is timed (`GangUnit::cancelled_ns`).
            let tier = self.layout.tier_of_die(die);
            self.tier_counters[tier].cancelled_sensing_levels += step.extra_sensing_levels as u64;
            return StepTimes {
                sense_ns: self.extra_sensing_time(step.extra_sensing_levels),
                cancelled: true,
                ..StepTimes::default()
            };
        }
        let hard_ns = if step.hard_sense {
            match self.decoders[step.decoder as usize].sense_ns[page_type] {
                0 => read_ns,
                own => own,
            }
        } else {
            0
        };
        let sense_ns = hard_ns + self.extra_sensing_time(step.extra_sensing_levels);
        let tier = self.layout.tier_of_die(die);
        if sense_ns > 0 {
            let partners = self.interleave_partners.get(die as usize).map_or(0, Vec::len) as u64;
            let counters = &mut self.tier_counters[tier];
            counters.page_reads += step.hard_sense as u64 * (1 + partners);
            counters.extra_sensing_levels += step.extra_sensing_levels as u64 * (1 + partners);
            counters.interleaved_part_sensings += partners;
        }
        let transfer_ns = if step.transfer_pages > 0 {
            let (whole, soft_ns) = self.read_transfer_parts(step);
            let page_ns = self.channel_page_ns[channel as usize].max(1);
            self.tier_counters[tier].page_transfers += whole;
            self.tier_counters[tier].soft_result_pages += soft_ns as f64 / page_ns as f64;
            self.read_transfer_time(step, channel)
        } else {
            0
        };
        let decode_ns = if step.decode {
            self.tier_counters[tier].decodes += 1;
            self.decoders[step.decoder as usize].decode_ns
        } else {
            0
        };
        StepTimes { sense_ns, transfer_ns, decode_ns, look_ahead: step.overlap_previous_decode, cancelled: false }
    }

    /// A read piece (pages of one gang, each with its plan) arriving at `now`: the gang serves it
    /// when free, and `waiter` waits for its last page's decode.
    pub fn gang_read(&mut self, now: SimTime, piece: &[(Ppn, ReadPlan)], waiter: Waiter) {
        let Some(&(first, _)) = piece.first() else { return };
        let Some(gang) = self.gang_of_die(self.layout.die_of(first)) else { return };
        let mut steps = [[StepTimes::default(); MAX_READ_STEPS]; 8];
        let mut lengths = [0usize; 8];
        let mut chips = [0u32; 8];
        let mut ready = Vec::with_capacity(piece.len());
        let mut held_total = 0;
        // Pieces are at most a gang page; time them eight pages at a time (a gang of more chips
        // holds the gang for the sum, as one piece would).
        for chunk in piece.chunks(8) {
            for (slot, (ppn, plan)) in chunk.iter().enumerate() {
                let die = self.layout.die_of(*ppn);
                let page_type = self.layout.page_type(*ppn);
                let read_ns = self.nand[self.layout.tier_of_die(die)].read_ns[page_type];
                let channel = self.layout.channel_of_die(die);
                lengths[slot] = plan.steps().len();
                chips[slot] = self.layout.chip_of_die(die);
                for (index, step) in plan.steps().iter().enumerate() {
                    steps[slot][index] = self.gang_step_times(step, read_ns, page_type, die, channel);
                }
            }
            let Some(unit) = self.gang.as_mut() else { return };
            let per_gang = unit.chips_per_gang();
            let mut page_ready = Vec::new();
            let held = unit.read_piece(
                (0..chunk.len()).map(|slot| (chips[slot] % per_gang, &steps[slot][..lengths[slot]])),
                &mut page_ready,
            );
            ready.extend(page_ready.iter().map(|time| held_total + time));
            held_total += held;
            let cancelled_ns = unit.cancelled_ns;
            let tier = self.layout.tier_of_die(self.layout.die_of(first));
            self.tier_counters[tier].cancelled_sensing_ns += cancelled_ns;
        }
        let Some(unit) = self.gang.as_mut() else { return };
        unit.statistics.read_pieces += 1;
        let start = unit.book(now, gang, held_total);
        let done = ready.iter().copied().max().unwrap_or(0);
        self.add_wait(waiter);
        self.finish(waiter, start + SimDuration(done.max(held_total)));
    }

    /// A write piece (the host's pages of one gang, `partial` when a page of it is written only in
    /// part) arriving at `now`: a read-modify-write of the gang page; `waiter` waits for its program.
    pub fn gang_write(&mut self, now: SimTime, pages: &[Ppn], partial: bool, waiter: Waiter) {
        let Some(&first) = pages.first() else { return };
        let die = self.layout.die_of(first);
        let Some(gang) = self.gang_of_die(die) else { return };
        let tier = self.layout.tier_of_die(die);
        let (mut read_ns, mut program_ns) = (0, 0);
        for &ppn in pages {
            let page_type = self.layout.page_type(ppn);
            read_ns = u64::max(read_ns, self.nand[tier].read_ns[page_type]);
            program_ns = u64::max(program_ns, self.nand[tier].program_ns[page_type]);
        }
        let transfer_ns = self.channel_page_ns[self.layout.channel_of_die(die) as usize];
        let Some(unit) = self.gang.as_mut() else { return };
        let chips = unit.chips_per_gang() as u64;
        let written = pages.len() as u64;
        let partial = partial || written < chips;
        let held = unit.write_piece(partial.then_some(read_ns), transfer_ns, program_ns);
        let rewritten = chips.saturating_sub(written);
        unit.statistics.write_pieces += 1;
        unit.statistics.partial_write_pieces += partial as u64;
        unit.statistics.rewritten_pages += rewritten;
        let start = unit.book(now, gang, held);
        let counters = &mut self.tier_counters[tier];
        counters.page_programs += written;
        counters.page_transfers += chips;
        counters.write_page_transfers += chips;
        self.add_wait(waiter);
        self.finish(waiter, start + SimDuration(held));
    }

    /// Cleaning on a ganged device: each die runs its copies (copyback: read and program in the
    /// die; otherwise out and back over the bus and decoded) and erases in turn; each gang is held
    /// for its slowest die, from `now` or when it is free. Returns when the last gang is free.
    pub(super) fn gang_cleaning(&mut self, now: SimTime, ops: &[FlashOp]) -> SimTime {
        // (die, ns) per die touched, in the order first touched (a collection is usually one plane).
        let mut per_die: Vec<(u32, u64)> = Vec::new();
        let mut add = |die: u32, ns: u64| match per_die.iter_mut().find(|(d, _)| *d == die) {
            Some(entry) => entry.1 += ns,
            None => per_die.push((die, ns)),
        };
        for (index, op) in ops.iter().enumerate() {
            match *op {
                FlashOp::GcRead { ppn } => {
                    let Some(FlashOp::GcProgram { ppn: destination }) = ops.get(index + 1).copied() else { continue };
                    let die = self.layout.die_of(ppn);
                    let tier = self.layout.tier_of_die(die);
                    let mut ns = self.nand[tier].read_ns[self.layout.page_type(ppn)]
                        + self.nand[tier].program_ns[self.layout.page_type(destination)];
                    let counters = &mut self.tier_counters[tier];
                    counters.page_reads += 1;
                    counters.page_programs += 1;
                    if !self.copyback {
                        ns += 2 * self.channel_page_ns[self.layout.channel_of_die(die) as usize] + self.decode_ns;
                        counters.page_transfers += 2;
                        counters.write_page_transfers += 2;
                        counters.decodes += 1;
                    }
                    add(self.layout.die_of(destination), ns);
                }
                FlashOp::GcProgram { .. } => {}
                FlashOp::Erase { block } => {
                    let die = self.layout.die_of_block_given(self.layout.is_single(), block);
                    let tier = self.layout.tier_of_die(die);
                    self.tier_counters[tier].block_erases += 1;
                    add(die, self.nand[tier].erase_ns);
                }
            }
        }
        let mut per_gang: Vec<(u32, u64)> = Vec::new();
        for (die, ns) in per_die {
            let Some(gang) = self.gang_of_die(die) else { continue };
            match per_gang.iter_mut().find(|(g, _)| *g == gang) {
                Some(entry) => entry.1 = entry.1.max(ns),
                None => per_gang.push((gang, ns)),
            }
        }
        let mut end = now;
        let Some(unit) = self.gang.as_mut() else { return end };
        for (gang, ns) in per_gang {
            let start = unit.book(now, gang, ns);
            unit.statistics.cleanings += 1;
            unit.statistics.cleaning_ns += ns;
            end = end.max(start + SimDuration(ns));
        }
        end
    }
}
