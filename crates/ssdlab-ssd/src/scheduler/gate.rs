//! Gates: flash work that may start only when some reads have ended, for the mapping-table cache
//! (`simulation/data_path/nand/mapping_cache/`): a host page's data read, or its program group, waits
//! for the translation page read that a miss in the cache issues.
//!
//! A gate is opened, the reads it waits for are started with [`Waiter::Gate`], the work behind it is
//! added (a read job not yet started, or a waiter such as a program group or a request, which then
//! waits for the gate), and it is closed. When its last read ends (and it is closed) the work goes
//! on at that time: a read job's first sensing is booked then (an event, so resources stay first
//! come, first served by ready time), a waiter is told the gate's end. Leaves out: priorities of
//! gated work over other work ready at the same time (none; ties go by event order).

use super::operations::{FlashEvent, Waiter};
use super::FlashScheduler;
use crate::geometry::Ppn;
use crate::read_path::ReadPlan;
use ssdlab_engine::SimTime;

/// What a gate releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GateTarget {
    /// A read job, built and counted in its waiter, whose first sensing starts at the gate's end.
    Read(u32),
    /// A waiter told that the gate ended (it waited for it since it was added).
    Finish(Waiter),
}

/// A gate in use (see the module).
#[derive(Debug, Clone, Default)]
pub(super) struct Gate {
    /// Reads still running that the gate waits for.
    pub waiting: u32,
    /// The latest end of those reads (or the gate's opening).
    pub ready: SimTime,
    /// Every target has been added.
    pub closed: bool,
    pub targets: Vec<GateTarget>,
    /// Counts the gate record's releases, so that a holder of an id can tell whether the gate it
    /// opened is still pending (`gate_pending`) after the id may have been reused.
    pub generation: u32,
}

impl FlashScheduler {
    /// A new gate, ready at `now` unless reads started with [`Waiter::Gate`] of its id end later.
    pub fn open_gate(&mut self, now: SimTime) -> u32 {
        let id = self.gates.allocate();
        let gate = self.gates.get_mut(id);
        gate.waiting = 0;
        gate.ready = now;
        gate.closed = false;
        gate.targets.clear();
        id
    }

    /// The generation of gate `gate` now (see [`FlashScheduler::gate_pending`]).
    pub fn gate_generation(&self, gate: u32) -> u32 {
        self.gates.get(gate).generation
    }

    /// Whether gate `gate`, opened at `generation`, has not ended yet (its reads still run): work
    /// may still be added to it.
    pub fn gate_pending(&self, gate: u32, generation: u32) -> bool {
        self.gates.get(gate).generation == generation
    }

    /// A read of `ppn` following `plan` that starts when gate `gate` ends; `waiter` waits for it
    /// from now on.
    pub fn read_after_gate(&mut self, gate: u32, ppn: Ppn, plan: &ReadPlan, waiter: Waiter) {
        // Its ready time is set when the gate ends.
        let id = self.new_read_job(ppn, plan, waiter, SimTime::ZERO);
        self.gates.get_mut(gate).targets.push(GateTarget::Read(id));
    }

    /// `waiter` (a program group, a request) waits for gate `gate` to end.
    pub fn wait_for_gate(&mut self, gate: u32, waiter: Waiter) {
        self.add_wait(waiter);
        self.gates.get_mut(gate).targets.push(GateTarget::Finish(waiter));
    }

    /// Every target of gate `gate` has been added: it ends when its reads do (now, if none runs).
    pub fn close_gate(&mut self, gate: u32) {
        let record = self.gates.get_mut(gate);
        record.closed = true;
        if record.waiting == 0 {
            self.release_gate(gate);
        }
    }

    /// A read gate `gate` waited for ended at `time`.
    pub(super) fn gate_read_ended(&mut self, gate: u32, time: SimTime) {
        let record = self.gates.get_mut(gate);
        record.ready = record.ready.max(time);
        record.waiting -= 1;
        if record.waiting == 0 && record.closed {
            self.release_gate(gate);
        }
    }

    fn release_gate(&mut self, gate: u32) {
        let ready = self.gates.get(gate).ready;
        let targets = std::mem::take(&mut self.gates.get_mut(gate).targets);
        for &target in &targets {
            match target {
                GateTarget::Read(job) => {
                    self.read_jobs.get_mut(job).ready = ready;
                    self.events.schedule(ready, (FlashEvent::PlannedSense { job }).pack());
                }
                GateTarget::Finish(waiter) => self.finish(waiter, ready),
            }
        }
        // Keep the list's allocation for the gate's next use.
        let record = self.gates.get_mut(gate);
        record.targets = targets;
        record.targets.clear();
        record.generation = record.generation.wrapping_add(1);
        self.gates.release(gate);
    }
}
