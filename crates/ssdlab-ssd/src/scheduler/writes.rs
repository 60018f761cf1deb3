//! The scheduler's host programs: program groups (their read-modify-write reads and DRAM reads
//! first, then the transfer and the program) and their holding for garbage collection
//! (`write_gate.rs`, docs/gc-modes.md).

use super::breakdown::StageResource;
use super::die_queues::{ArrayOperation, Completion};
use super::*;

impl FlashScheduler {
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
    pub(super) fn close_write_group_in<const ONE_TIER: bool>(&mut self, id: u32, now: SimTime, ppns: &[Ppn]) {
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
    pub(super) fn group_transfer_when_ready(&mut self, id: u32, now: SimTime) {
        let ready = self.write_groups.get(id).ready;
        if ready > now {
            self.events.schedule(ready, (FlashEvent::GroupTransfer { group: id }).pack());
        } else {
            self.group_transfer(id, now);
        }
    }

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
    pub(super) fn refresh_urgency(&mut self, die: u32, free_blocks: &impl Fn(u32) -> usize) {
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

    pub(super) fn group_transfer(&mut self, id: u32, now: SimTime) {
        let group = *self.write_groups.get(id);
        // The program carries what it needs, so the group's record is free from here on (under a
        // deep backlog the program runs long after, and reading the record back would miss cache).
        self.write_groups.release(id);
        let length = self.channel_page_ns[group.channel as usize] * group.pages as u64;
        let data_in = self.book(now, Resource::Channel(group.channel), length) + SimDuration(length);
        let start = SimTime(data_in.0 - length);
        self.breakdown_stage(Waiter::Request(group.request), StageResource::Channel, now, start, data_in, 0);
        self.events.schedule(
            data_in,
            (FlashEvent::Program {
                die: group.die,
                pages: group.pages,
                request: group.request,
                page_type: group.page_type,
            })
            .pack(),
        );
    }

    pub(super) fn program(&mut self, die: u32, pages: u32, request: u32, page_type: u8, now: SimTime) {
        let queued = self.die_queues.is_some();
        let mut kind = None;
        if queued {
            let (operation, priority) = self.program_kind(request);
            let event = FlashEvent::Program { die, pages, request, page_type };
            if !self.die_admits_event(die, now, operation, priority, event) {
                return;
            }
            kind = Some((operation, priority));
        }
        let tier = self.layout.tier_of_die(die);
        let program_ns = self.nand[tier].program_ns[page_type as usize];
        let end = self.book(now, Resource::Die(die), program_ns) + SimDuration(program_ns);
        let start = SimTime(end.0 - program_ns);
        self.breakdown_stage(Waiter::Request(request), StageResource::Die, now, start, end, 0);
        let pages = pages as u64;
        let counters = &mut self.tier_counters[tier];
        counters.page_programs += pages;
        counters.page_transfers += pages;
        counters.write_page_transfers += pages;
        counters.multi_plane_programs += (pages > 1) as u64;
        match kind {
            // Queued dies: the program ends at its die's end, which a suspension may move.
            Some((operation, priority)) => {
                let completion = Completion::Finish(Waiter::Request(request));
                self.die_started(die, operation, priority, ArrayOperation::Program, completion);
            }
            None => self.finish(Waiter::Request(request), end),
        }
    }
}
