//! Device events carried out: a chip retired (read-only, drained one block at a time: in the
//! background when its dies are idle, or along with each garbage collection of its tier), a
//! suspend-and-copy (host requests held while every valid page of the chip is copied), a chip back
//! in service. See `crate::device_events` for triggers and timers.

use crate::config::{CopyPath, DeviceAction, DrainMode};
use crate::device_events::{DeviceEvents, Timer};
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::flash_op::FlashOp;
use crate::ftl::Ftl;
use crate::scheduler::FlashScheduler;
use ssdlab_engine::SimTime;

/// What device events work on: the NAND path's FTL, its scratch for the flash work they decide,
/// its layout and name (for messages), the scheduler and the events themselves. The NAND path lends
/// them (`NandPath::event_work`): for a timer or a finished batch (the loop), or in the middle of a
/// write whose GC may have worn a chip to its trigger.
pub(in crate::simulation) struct EventWork<'a> {
    pub(in crate::simulation) ftl: &'a mut Ftl,
    pub(in crate::simulation) ops: &'a mut Vec<FlashOp>,
    pub(in crate::simulation) layout: &'a DeviceLayout,
    pub(in crate::simulation) origin: &'a str,
    pub(in crate::simulation) scheduler: &'a mut FlashScheduler,
    pub(in crate::simulation) events: &'a mut DeviceEvents,
}

impl EventWork<'_> {
    /// Carries out the earliest device-event timer; returns its time.
    pub(in crate::simulation) fn process_timer(&mut self) -> Result<Option<SimTime>, SimulationError> {
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
    pub(in crate::simulation) fn check_wear_events(&mut self, now: SimTime) -> Result<(), SimulationError> {
        let ftl = &self.ftl;
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
        record.valid_pages_at_fire = self.ftl.chip_valid_pages(config.chip);
        match config.action {
            DeviceAction::RetireChip => {
                self.ftl.set_chip_read_only(config.chip, true);
                match config.drain.unwrap_or_default() {
                    DrainMode::Background => self.drain_step(index, now),
                    DrainMode::WithCollection => {
                        if self.ftl.chip_valid_pages(config.chip) == 0 {
                            self.events.records[index].emptied_at_ns.get_or_insert(now.0);
                        } else {
                            self.events.start_collection_drain(index);
                        }
                        Ok(())
                    }
                }
            }
            DeviceAction::SuspendAndCopy => {
                self.ftl.set_chip_read_only(config.chip, true);
                self.events.suspend(index, now);
                // Everything at once: the host waits anyway, so the copy runs as fast as the dies
                // and channels allow: pipelined as a controller copies (`copy_pipeline`), or one
                // chain per source die as garbage collection copies.
                self.ops.clear();
                let mut cursor = 0;
                while let Some(pages) = self.drain_block(config.chip, &mut cursor, now)? {
                    let record = &mut self.events.records[index];
                    record.pages_moved += pages;
                    record.blocks_moved += 1;
                }
                match config.copy_path.unwrap_or_default() {
                    CopyPath::Pipelined => {
                        let mut rest = Vec::new();
                        let source = self.layout.dies_of_chip(config.chip);
                        let copied = self.scheduler.pipelined_copy(now, self.ops, source, &mut rest);
                        self.events.records[index].copy_ended_at_ns = Some(copied.0);
                        self.scheduler.background_batch_ending_after(now, &rest, index as u32, copied);
                    }
                    CopyPath::Chained => self.scheduler.background_batch(now, self.ops, index as u32),
                }
                self.collect_finished_batches()
            }
            DeviceAction::ChipWritable => {
                self.ftl.set_chip_read_only(config.chip, false);
                // A retirement of this chip still draining stops: the chip is in service again.
                for other in 0..self.events.records.len() {
                    let draining = self.events.config(other).action == DeviceAction::RetireChip
                        && self.events.config(other).chip == config.chip
                        && self.events.records[other].fired_at_ns.is_some()
                        && self.events.records[other].emptied_at_ns.is_none();
                    if draining {
                        self.events.drain_stopped[other] = true;
                        self.events.stop_collection_drain(other);
                    }
                }
                Ok(())
            }
        }
    }

    /// Moves the next block of `chip` that holds valid data (appending to `self.ops`).
    fn drain_block(&mut self, chip: u32, cursor: &mut u32, now: SimTime) -> Result<Option<u64>, SimulationError> {
        self.ftl.drain_next_block(chip, cursor, now.0, self.ops).map_err(|source| SimulationError::Ftl {
            origin: format!("{} (device event on chip {chip})", self.origin),
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
        if self.ftl.chip_valid_pages(chip) == 0 {
            self.events.records[index].emptied_at_ns.get_or_insert(now.0);
            return Ok(());
        }
        let busy_until = self.chip_busy_until(chip, now);
        if busy_until > now {
            // Background work waits for the chip's dies to go idle (host reads go first).
            self.events.schedule(busy_until, Timer::DrainStep(index));
            return Ok(());
        }
        self.ops.clear();
        let mut cursor = self.events.drain_cursor[index];
        let moved = self.drain_block(chip, &mut cursor, now)?;
        self.events.drain_cursor[index] = cursor;
        if let Some(pages) = moved {
            let record = &mut self.events.records[index];
            record.pages_moved += pages;
            record.blocks_moved += 1;
        }
        self.events.step_started[index] = now.0;
        self.scheduler.background_batch(now, self.ops, index as u32);
        self.collect_finished_batches()
    }

    /// Books the collection a write set off (its work in `self.ops`) while a retired chip drains
    /// with collection: each such chip whose tier collected (an erase there) gives its next block
    /// with valid data to the same work, and the whole is booked as one tracked batch, so its end
    /// is the step's end. Collections in other tiers are booked as usual.
    #[cold]
    #[inline(never)]
    pub(in crate::simulation) fn collect_and_drain(&mut self, now: SimTime) -> Result<(), SimulationError> {
        let mut step = None;
        for index in self.events.collection_drains().to_vec() {
            let chip = self.events.config(index).chip;
            let tier = self.layout.tier_of_die(self.layout.dies_of_chip(chip).start);
            let layout = &self.layout;
            let collected = self
                .ops
                .iter()
                .any(|op| matches!(*op, FlashOp::Erase { block } if layout.tier_of_block(block) == tier));
            if !collected {
                continue;
            }
            if self.ftl.chip_valid_pages(chip) == 0 {
                // Overwrites emptied it.
                self.events.records[index].emptied_at_ns.get_or_insert(now.0);
                self.events.stop_collection_drain(index);
                continue;
            }
            let mut cursor = self.events.drain_cursor[index];
            let moved = self.drain_block(chip, &mut cursor, now)?;
            self.events.drain_cursor[index] = cursor;
            if let Some(pages) = moved {
                let record = &mut self.events.records[index];
                record.pages_moved += pages;
                record.blocks_moved += 1;
                // One batch per booking: a second chip draining in the same tier (not a scenario
                // anyone runs) takes its block along in the first one's step.
                step.get_or_insert(index);
            }
            if self.ftl.chip_valid_pages(chip) == 0 {
                self.events.stop_collection_drain(index);
            }
        }
        match step {
            Some(index) => {
                let token = self.events.open_step(index, now.0);
                self.scheduler.background_batch(now, self.ops, token);
                self.collect_finished_batches()?;
            }
            None => self.scheduler.garbage_collection(now, self.ops),
        }
        if self.events.wear_pending() {
            self.check_wear_events(now)?;
        }
        Ok(())
    }

    /// When the work booked on every die of `chip` ends (`now` if it is idle).
    fn chip_busy_until(&self, chip: u32, now: SimTime) -> SimTime {
        self.layout.dies_of_chip(chip).map(|die| self.scheduler.die_busy_until(die)).max().unwrap_or(now).max(now)
    }

    /// Background batches that have ended: a drain takes its next step, a copy ends its suspension.
    pub(in crate::simulation) fn collect_finished_batches(&mut self) -> Result<(), SimulationError> {
        while let Some((token, end)) = self.scheduler.finished_batches().pop() {
            let background_step = (token as usize) < self.events.records.len();
            let index = self.events.batch_ended(token, end.0);
            let config = self.events.config(index).clone();
            match config.action {
                DeviceAction::RetireChip => {
                    // One step moved one block (with the collection it set off, or that took it
                    // along): seed 004's "required time for GC" of the read-only drain.
                    match config.drain.unwrap_or_default() {
                        DrainMode::Background => {
                            if background_step {
                                self.events.step_ended(index, end.0);
                            }
                            self.events.schedule(end, Timer::DrainStep(index))
                        }
                        DrainMode::WithCollection => {
                            if self.ftl.chip_valid_pages(config.chip) == 0 {
                                self.events.records[index].emptied_at_ns.get_or_insert(end.0);
                            }
                        }
                    }
                }
                DeviceAction::SuspendAndCopy => {
                    if self.ftl.chip_valid_pages(config.chip) == 0 {
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
