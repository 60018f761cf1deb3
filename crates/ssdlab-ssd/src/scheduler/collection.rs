//! The scheduler's background work: garbage collection and migration chains (copies and erases on
//! each source die, one after another, interleaved with host work by ready time), foreground copies,
//! tracked batches (device events), dead time per die, and GC stepping aside in preemptible mode.

use super::die_queues::{ArrayOperation, Completion};
use super::policy::OperationKind;
use super::*;
use crate::config::PriorityClass;

impl FlashScheduler {
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
    pub(super) fn book_background(&mut self, now: SimTime, die: u32, duration: u64) -> SimTime {
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
    pub(super) fn start_chains(&mut self, now: SimTime, ops: &[FlashOp], batch: u32, waiter: Waiter) {
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
    pub(super) fn new_chain(&mut self, now: SimTime, batch: u32, waiter: Waiter) -> u32 {
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

    pub(super) fn gc_step(&mut self, id: u32, now: SimTime) {
        // Specialised for one tier, as `read_plain`.
        if self.layout.is_single() {
            self.gc_step_in::<true>(id, now)
        } else {
            self.gc_step_in::<false>(id, now)
        }
    }

    #[inline(always)]
    pub(super) fn gc_step_in<const ONE_TIER: bool>(&mut self, id: u32, now: SimTime) {
        let one_tier = ONE_TIER;
        let erase_plane = self.gc_jobs.get(id).erase_plane;
        if erase_plane != NO_PLANE {
            // This step runs at the end of the chain's last erase.
            self.gc_jobs.get_mut(id).erase_plane = NO_PLANE;
            if let Some(gate) = self.gate.as_mut() {
                gate.erase_ended(erase_plane);
            }
        }
        let queued = self.die_queues.is_some();
        let step = FlashEvent::GarbageCollection { job: id };
        // Queued dies: whether the step's die operation may run now (else it waits in the queue).
        macro_rules! admitted {
            ($die:expr, $kind:expr) => {
                !queued || self.die_admits_event($die, now, $kind, PriorityClass::default(), step)
            };
        }
        loop {
            if self.gc_yields && self.gc_steps_aside(id, now) {
                return;
            }
            // The die operation this step books: (die, kind, what the array does, whether the
            // chain goes on when it ends).
            let mut die_operation: Option<(u32, OperationKind, ArrayOperation, bool)> = None;
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
                    if !admitted!(die, OperationKind::GcRead) {
                        return;
                    }
                    die_operation = Some((die, OperationKind::GcRead, ArrayOperation::Other, false));
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
                    if !admitted!(die, OperationKind::GcWrite) {
                        return;
                    }
                    let tier = self.layout.tier_of_die_given(one_tier, die);
                    let program_ns = self.nand[tier].program_ns[self.layout.page_type_given(one_tier, destination)];
                    let end = self.book_background(now, die, program_ns);
                    let start = SimTime(end.0 - program_ns);
                    let job = self.gc_jobs.get_mut(id);
                    job.finished = job.finished.max(end);
                    self.tier_counters[tier].page_programs += 1;
                    if !same_die && die != self.layout.die_of_given(one_tier, ppn) {
                        // The destination die programs on its own; the chain goes on when it starts.
                        die_operation = Some((die, OperationKind::GcWrite, ArrayOperation::Program, false));
                        (2, GcPhase::Sense, start)
                    } else {
                        die_operation = Some((die, OperationKind::GcWrite, ArrayOperation::Program, true));
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
                    if !admitted!(die, OperationKind::GcErase) {
                        return;
                    }
                    die_operation = Some((die, OperationKind::GcErase, ArrayOperation::Erase, true));
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
            match die_operation {
                // Queued dies: a chain that goes on when its program or erase ends goes on at its
                // die's end, which a suspension may move.
                Some((die, kind, array, at_end)) if queued => {
                    let completion = if at_end && array != ArrayOperation::Other {
                        Completion::Event(step.pack())
                    } else {
                        self.events.schedule(done_at, step.pack());
                        Completion::Nothing
                    };
                    self.die_started(die, kind, PriorityClass::default(), array, completion);
                }
                _ => self.events.schedule(done_at, step.pack()),
            }
            return;
        }
    }

    /// Preemptible mode: whether chain `id`'s next die operation steps aside because its die has
    /// work booked past `now` and no plane of it is below the hard threshold; it is then tried again
    /// when that work ends (so GC runs in the die's idle time, and host work that becomes ready
    /// meanwhile goes first). Only plain GC yields: copies a host write or a device event waits for
    /// do not.
    #[inline(never)]
    pub(super) fn gc_steps_aside(&mut self, id: u32, now: SimTime) -> bool {
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
        self.events.schedule(busy_until, (FlashEvent::GarbageCollection { job: id }).pack());
        true
    }

    /// A chain of tracked batch `batch` ended at `time`.
    pub(super) fn chain_ended(&mut self, batch: u32, time: SimTime) {
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
}
