//! Device events carried out: a chip retired (read-only, drained in the background one block at a
//! time when its dies are idle), a suspend-and-copy (host requests held while every valid page of
//! the chip is copied), a chip back in service. See `crate::device_events` for triggers and timers.

use super::data_path::NandPath;
use super::Simulation;
use crate::config::{CopyPath, DeviceAction};
use crate::device_events::{DeviceEvents, Timer};
use crate::error::SimulationError;
use crate::scheduler::FlashScheduler;
use ssdlab_engine::SimTime;

/// What device events work on: the NAND path (its FTL), the scheduler and the events themselves.
/// The loop makes one for a timer or a finished batch; the NAND path makes one in the middle of a
/// write whose GC may have worn a chip to its trigger.
pub(super) struct EventWork<'a> {
    pub nand: &'a mut NandPath,
    pub scheduler: &'a mut FlashScheduler,
    pub events: &'a mut DeviceEvents,
}

impl Simulation {
    /// Carries out the earliest device-event timer; returns its time.
    #[cold]
    #[inline(never)]
    pub(super) fn process_timer(&mut self) -> Result<Option<SimTime>, SimulationError> {
        self.event_work().process_timer()
    }

    /// Background batches that have ended: a drain takes its next step, a copy ends its suspension.
    #[cold]
    #[inline(never)]
    pub(super) fn collect_finished_batches(&mut self) -> Result<(), SimulationError> {
        self.event_work().collect_finished_batches()
    }

    fn event_work(&mut self) -> EventWork<'_> {
        EventWork { nand: self.data_path.nand_mut(), scheduler: &mut self.scheduler, events: &mut self.device_events }
    }
}

impl EventWork<'_> {
    /// Carries out the earliest device-event timer; returns its time.
    fn process_timer(&mut self) -> Result<Option<SimTime>, SimulationError> {
        let Some((now, timer)) = self.events.pop_timer() else { return Ok(None) };
        match timer {
            Timer::Fire(index) => self.fire_event(index, now)?,
            Timer::DrainStep(index) => self.drain_step(index, now)?,
            Timer::Resume(index) => self.events.resume(index, now),
        }
        Ok(Some(now))
    }

    /// Fires the wear-triggered events whose chip has reached its erase count.
    #[cold]
    #[inline(never)]
    pub(super) fn check_wear_events(&mut self, now: SimTime) -> Result<(), SimulationError> {
        let ftl = &self.nand.ftl;
        let due = self.events.take_worn(|chip| ftl.chip_mean_erase_count(chip));
        for index in due {
            self.fire_event(index, now)?;
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn fire_event(&mut self, index: usize, now: SimTime) -> Result<(), SimulationError> {
        let config = self.events.config(index).clone();
        if config.when_idle {
            let busy_until = self.chip_busy_until(config.chip, now);
            if busy_until > now {
                // Triggered; it fires when the chip's dies are idle.
                self.events.schedule(busy_until, Timer::Fire(index));
                return Ok(());
            }
        }
        let record = &mut self.events.records[index];
        record.fired_at_ns = Some(now.0);
        record.valid_pages_at_fire = self.nand.ftl.chip_valid_pages(config.chip);
        match config.action {
            DeviceAction::RetireChip => {
                self.nand.ftl.set_chip_read_only(config.chip, true);
                self.drain_step(index, now)
            }
            DeviceAction::SuspendAndCopy => {
                self.nand.ftl.set_chip_read_only(config.chip, true);
                self.events.suspend(index, now);
                // Everything at once: the host waits anyway, so the copy runs as fast as the dies
                // and channels allow: pipelined as a controller copies (`copy_pipeline`), or one
                // chain per source die as garbage collection copies.
                self.nand.ops.clear();
                let mut cursor = 0;
                while let Some(pages) = self.drain_block(config.chip, &mut cursor, now)? {
                    let record = &mut self.events.records[index];
                    record.pages_moved += pages;
                    record.blocks_moved += 1;
                }
                match config.copy_path.unwrap_or_default() {
                    CopyPath::Pipelined => {
                        let mut rest = Vec::new();
                        let source = self.nand.layout.dies_of_chip(config.chip);
                        let copied = self.scheduler.pipelined_copy(now, &self.nand.ops, source, &mut rest);
                        self.events.records[index].copy_ended_at_ns = Some(copied.0);
                        self.scheduler.background_batch_ending_after(now, &rest, index as u32, copied);
                    }
                    CopyPath::Chained => self.scheduler.background_batch(now, &self.nand.ops, index as u32),
                }
                self.collect_finished_batches()
            }
            DeviceAction::ChipWritable => {
                self.nand.ftl.set_chip_read_only(config.chip, false);
                // A retirement of this chip still draining stops: the chip is in service again.
                for other in 0..self.events.records.len() {
                    let draining = self.events.config(other).action == DeviceAction::RetireChip
                        && self.events.config(other).chip == config.chip
                        && self.events.records[other].fired_at_ns.is_some()
                        && self.events.records[other].emptied_at_ns.is_none();
                    if draining {
                        self.events.drain_stopped[other] = true;
                    }
                }
                Ok(())
            }
        }
    }

    /// Moves the next block of `chip` that holds valid data (appending to `self.nand.ops`).
    fn drain_block(&mut self, chip: u32, cursor: &mut u32, now: SimTime) -> Result<Option<u64>, SimulationError> {
        self.nand.ftl.drain_next_block(chip, cursor, now.0, &mut self.nand.ops).map_err(|source| SimulationError::Ftl {
            origin: format!("{} (device event on chip {chip})", self.nand.origin),
            source,
        })
    }

    /// One step of a retired chip's background drain: when the chip's dies are idle, move its next
    /// block with valid data; when it holds none, it is ready for exchange.
    #[cold]
    #[inline(never)]
    fn drain_step(&mut self, index: usize, now: SimTime) -> Result<(), SimulationError> {
        if self.events.drain_stopped[index] {
            return Ok(());
        }
        let chip = self.events.config(index).chip;
        if self.nand.ftl.chip_valid_pages(chip) == 0 {
            self.events.records[index].emptied_at_ns.get_or_insert(now.0);
            return Ok(());
        }
        let busy_until = self.chip_busy_until(chip, now);
        if busy_until > now {
            // Background work waits for the chip's dies to go idle (host reads go first).
            self.events.schedule(busy_until, Timer::DrainStep(index));
            return Ok(());
        }
        self.nand.ops.clear();
        let mut cursor = self.events.drain_cursor[index];
        let moved = self.drain_block(chip, &mut cursor, now)?;
        self.events.drain_cursor[index] = cursor;
        if let Some(pages) = moved {
            let record = &mut self.events.records[index];
            record.pages_moved += pages;
            record.blocks_moved += 1;
        }
        self.events.step_started[index] = now.0;
        self.scheduler.background_batch(now, &self.nand.ops, index as u32);
        self.collect_finished_batches()
    }

    /// When the work booked on every die of `chip` ends (`now` if it is idle).
    fn chip_busy_until(&self, chip: u32, now: SimTime) -> SimTime {
        self.nand.layout.dies_of_chip(chip).map(|die| self.scheduler.die_busy_until(die)).max().unwrap_or(now).max(now)
    }

    /// Background batches that have ended: a drain takes its next step, a copy ends its suspension.
    fn collect_finished_batches(&mut self) -> Result<(), SimulationError> {
        while let Some((token, end)) = self.scheduler.finished_batches().pop() {
            let index = token as usize;
            let config = self.events.config(index).clone();
            match config.action {
                DeviceAction::RetireChip => {
                    // One step moved one block (and the collection it set off): seed 004's "required
                    // time for GC" of the read-only drain.
                    let record = &mut self.events.records[index];
                    record.longest_step_ns =
                        record.longest_step_ns.max(end.0.saturating_sub(self.events.step_started[index]));
                    self.events.schedule(end, Timer::DrainStep(index))
                }
                DeviceAction::SuspendAndCopy => {
                    if self.nand.ftl.chip_valid_pages(config.chip) == 0 {
                        self.events.records[index].emptied_at_ns.get_or_insert(end.0);
                    }
                    // Host requests held meanwhile are issued from `end` on.
                    self.events.schedule(end, Timer::Resume(index));
                }
                DeviceAction::ChipWritable => {}
            }
        }
        Ok(())
    }
}
