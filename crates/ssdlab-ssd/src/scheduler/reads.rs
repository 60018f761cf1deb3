//! The scheduler's reads: planned reads step by step (sense on the die, transfer on the channel,
//! decode), look-ahead sensing and its idle test, plain multi-plane reads, interleaved sensing.

use super::breakdown::StageResource;
use super::die_queues::{ArrayOperation, Completion};
use super::*;

impl FlashScheduler {
    /// Sensing time of `levels` extra levels.
    #[inline]
    pub(super) fn extra_sensing_time(&self, levels: u32) -> u64 {
        match self.soft_read {
            Some((full, Some(total), _)) => total * levels as u64 / full as u64,
            _ => levels as u64 * self.extra_sensing_ns,
        }
    }

    /// What a read step's transfer moves: whole pages, and the channel time of its soft results
    /// when they move at the measured rate (0 otherwise: every level's results are then a whole
    /// page). Time and energy both derive from it, so they count the same pages.
    #[inline]
    pub(super) fn read_transfer_parts(&self, step: &crate::read_path::ReadStep) -> (u64, u64) {
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
    pub(super) fn read_transfer_time(&self, step: &crate::read_path::ReadStep, channel: u32) -> u64 {
        let (whole, soft_ns) = self.read_transfer_parts(step);
        whole * self.channel_page_ns[channel as usize] + soft_ns
    }

    /// Books a sensing of `ns` on `die` and, with interleaving, on its partner dies (the codeword's
    /// other parts); returns when the last part is sensed.
    pub(super) fn book_sensing(
        &mut self,
        now: SimTime,
        die: u32,
        ns: u64,
        hard_pages: u64,
        extra_levels: u64,
    ) -> SimTime {
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
    pub(super) fn new_read_job(&mut self, ppn: Ppn, plan: &ReadPlan, waiter: Waiter, ready: SimTime) -> u32 {
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
            self.read_plain_in::<true>(now, ppns, waiter, false)
        } else {
            self.read_plain_in::<false>(now, ppns, waiter, false)
        }
    }

    /// A plain read that waited in its die's queue (`die_queues.rs`), granted at `now`: its waiter
    /// was counted when it was queued.
    pub(super) fn read_plain_granted(&mut self, now: SimTime, ppns: &[Ppn], waiter: Waiter) {
        self.read_plain_in::<false>(now, ppns, waiter, true)
    }

    #[inline(always)]
    pub(super) fn read_plain_in<const ONE_TIER: bool>(
        &mut self,
        now: SimTime,
        ppns: &[Ppn],
        waiter: Waiter,
        counted: bool,
    ) {
        let Some(&first) = ppns.first() else { return };
        let one_tier = ONE_TIER;
        let die = self.layout.die_of_given(one_tier, first);
        if self.die_queues.is_some() && !self.die_admits_read(die, now, ppns, waiter) {
            return;
        }
        let tier = self.layout.tier_of_die_given(one_tier, die);
        let nand = &self.nand[tier];
        let mut read_ns = nand.read_ns[self.layout.page_type_given(one_tier, first)];
        for &ppn in &ppns[1..] {
            read_ns = read_ns.max(nand.read_ns[self.layout.page_type_given(one_tier, ppn)]);
        }
        let channel = self.layout.channel_of_die_given(one_tier, die);
        let sensed = self.book(now, Resource::Die(die), read_ns) + SimDuration(read_ns);
        self.breakdown_stage(waiter, StageResource::Die, now, SimTime(sensed.0 - read_ns), sensed, 0);
        let pages = ppns.len() as u32;
        let counters = &mut self.tier_counters[tier];
        counters.page_reads += pages as u64;
        counters.multi_plane_reads += (pages > 1) as u64;
        if !counted {
            self.add_wait(waiter);
        }
        self.events.schedule(sensed, (FlashEvent::PlainTransfer { channel, pages, waiter }).pack());
        if self.die_queues.is_some() {
            let (kind, priority) = self.read_kind(waiter);
            self.die_started(die, kind, priority, ArrayOperation::Other, Completion::Nothing);
        }
    }

    /// The counters of the tier a channel belongs to.
    #[inline]
    pub(super) fn channel_counters(&mut self, channel: u32) -> &mut FlashCounters {
        let tier = self.layout.tier_of_channel(channel);
        &mut self.tier_counters[tier]
    }

    pub(super) fn plain_transfer(&mut self, now: SimTime, channel: u32, pages: u32, waiter: Waiter) {
        let length = self.channel_page_ns[channel as usize] * pages as u64;
        let transferred = self.book(now, Resource::Channel(channel), length) + SimDuration(length);
        let start = SimTime(transferred.0 - length);
        self.breakdown_stage(waiter, StageResource::Channel, now, start, transferred, self.decode_ns);
        let counters = self.channel_counters(channel);
        counters.page_transfers += pages as u64;
        counters.decodes += pages as u64;
        self.finish(waiter, transferred + SimDuration(self.decode_ns));
    }

    /// Books the sensing of the job's next step at `now`, and of every step after it that
    /// overlaps its predecessor's decode (look-ahead: sensed right behind it on the die).
    pub(super) fn planned_sense(&mut self, id: u32, now: SimTime) {
        let job = *self.read_jobs.get(id);
        let queued = self.die_queues.is_some();
        if queued {
            let (kind, priority) = self.read_job_kind(id);
            if !self.die_admits_event(job.die, now, kind, priority, FlashEvent::PlannedSense { job: id }) {
                return;
            }
        }
        let steps = job.plan.steps();
        let mut index = job.next_step as usize;
        let mut transfers = 0;
        let sense_end = self.sense_step(id, &job, index, now, &mut transfers);
        index += 1;
        if self.look_ahead.after_hard_sensing && index < steps.len() && steps[index].overlap_previous_decode {
            // Seed 002 §3.1: the look-ahead starts when the hard sensing ends "if there is no
            // outstanding read request for the memory plane": decided then. The check holds the
            // job as a pending transfer would, so it cannot finish before the check.
            self.events.schedule(sense_end, (FlashEvent::LookAheadCheck { job: id }).pack());
            let record = self.read_jobs.get_mut(id);
            record.next_step = index as u32;
            record.transfers_pending += transfers + 1;
            if queued {
                self.planned_sense_started(job.die, id, now);
            }
            return;
        }
        let index = self.sense_look_ahead(id, &job, index, sense_end, now, None, &mut transfers);
        let record = self.read_jobs.get_mut(id);
        record.next_step = index as u32;
        record.transfers_pending += transfers;
        if queued {
            self.planned_sense_started(job.die, id, now);
        }
        if transfers == 0 {
            self.after_planned_decode(id);
        }
    }

    /// Queued dies: a planned read's sensing was booked (if it used the die at all).
    fn planned_sense_started(&mut self, die: u32, id: u32, now: SimTime) {
        if !self.dies[die as usize].is_idle_at(now) {
            let (kind, priority) = self.read_job_kind(id);
            self.die_started(die, kind, priority, ArrayOperation::Other, Completion::Nothing);
        }
    }

    /// The hard sensing of job `id` has ended at `now` (`read_path.look_ahead_idle_test =
    /// "after_hard_sensing"`): its look-ahead sensing starts now if the die has no other work
    /// queued; otherwise there is none, and a soft step waits for the hard decode as in a two-step
    /// read. (The die stands for its planes: ssdlab books sensing per die.)
    pub(super) fn look_ahead_check(&mut self, id: u32, now: SimTime) {
        let job = *self.read_jobs.get(id);
        let mut index = job.next_step as usize;
        let mut transfers = 0;
        if self.dies[job.die as usize].is_idle_at(now) && self.nothing_waits_for(job.die) {
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
    pub(super) fn sense_look_ahead(
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
    pub(super) fn sense_step(
        &mut self,
        id: u32,
        job: &ReadJob,
        index: usize,
        now: SimTime,
        transfers: &mut u32,
    ) -> SimTime {
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
            let start = SimTime(sensed.0 - sense_ns);
            self.breakdown_stage(job.waiter, StageResource::Die, now, start, sensed, 0);
            let counters = &mut self.tier_counters[self.layout.tier_of_die(job.die)];
            counters.page_reads += step.hard_sense as u64;
            counters.extra_sensing_levels += step.extra_sensing_levels as u64;
        }
        if step.transfer_pages > 0 || step.decode {
            *transfers += 1;
            self.events.schedule(sensed, (FlashEvent::PlannedTransfer { job: id, step: index as u32 }).pack());
        } else {
            let record = self.read_jobs.get_mut(id);
            record.ready = record.ready.max(sensed);
        }
        sensed
    }

    pub(super) fn planned_transfer(&mut self, id: u32, step: u32, now: SimTime) {
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
        let decode_ns = if step.decode { self.decoders[step.decoder as usize].decode_ns } else { 0 };
        if self.breakdowns.is_some() {
            let start = SimTime(
                data_ready.0 - if step.transfer_pages > 0 { self.read_transfer_time(&step, job.channel) } else { 0 },
            );
            self.breakdown_stage(job.waiter, StageResource::Channel, now, start, data_ready, decode_ns);
        }
        if step.decode {
            data_ready += SimDuration(decode_ns);
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
    pub(super) fn after_planned_decode(&mut self, id: u32) {
        let job = *self.read_jobs.get(id);
        if (job.next_step as usize) < job.plan.steps().len() {
            self.events.schedule(job.ready, (FlashEvent::PlannedSense { job: id }).pack());
        } else {
            self.read_jobs.release(id);
            self.finish(job.waiter, job.ready);
        }
    }
}
