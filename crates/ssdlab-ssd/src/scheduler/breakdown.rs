//! Where a request's time in the device went (issue 49 item 5; MQSim logs each transaction's
//! waiting, transfer and execution time): kept only while the request log is written.
//!
//! Each stage of a host request's flash work (a sensing or a program on its die, a transfer on its
//! channel, a DRAM cache access) is recorded with when it was ready, when it started and when it
//! ended, and the controller time after it (a decode). When the request completes, its critical
//! path is walked back from the completion: the stage whose end (plus its controller time) is the
//! completion, then the stage that ended when that one became ready, and so on, until a stage was
//! ready at a time no stage of the request ended at (its chain started: at the issue, or when a
//! gate opened). Along the path each stage adds its wait for its resource and its busy time; the
//! rest of the device time, before the path's first stage, is waiting before any flash work of the
//! request could start: a mapping-table read it waited for (the read is the gate's, not the
//! request's), a write held for garbage collection, a data cache's write-back it waited behind. So
//! the parts add up to the device time exactly: completion - issue = `before_flash` + `die_wait` +
//! `array` + `channel_wait` + `channel` + `dram` + `controller`.
//!
//! Left out: which earlier work a wait was behind (a die's queue does not record whose work delayed
//! whom); ties (two stages ending at the same time) take the one recorded first.

use super::*;

/// A request's device time split along its critical path, in ns (module comment).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LatencyBreakdown {
    pub before_flash_ns: u64,
    pub die_wait_ns: u64,
    pub array_ns: u64,
    pub channel_wait_ns: u64,
    pub channel_ns: u64,
    pub dram_ns: u64,
    pub controller_ns: u64,
}

impl LatencyBreakdown {
    /// The sum of the parts (the device time).
    pub fn total_ns(&self) -> u64 {
        self.before_flash_ns
            + self.die_wait_ns
            + self.array_ns
            + self.channel_wait_ns
            + self.channel_ns
            + self.dram_ns
            + self.controller_ns
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StageResource {
    Die,
    Channel,
    Dram,
}

#[derive(Debug, Clone, Copy)]
struct Stage {
    resource: StageResource,
    ready: u64,
    start: u64,
    end: u64,
    /// Controller time after the stage (a decode) before its successor is ready.
    tail: u64,
}

#[derive(Debug, Default)]
pub(super) struct Breakdowns {
    /// By request slot: when it was opened, and its stages so far.
    open: Vec<(u64, Vec<Stage>)>,
}

impl FlashScheduler {
    /// Records each host request's critical path from now on (the request log's breakdown columns).
    pub fn record_breakdowns(&mut self) {
        self.breakdowns = Some(Box::default());
    }

    /// The breakdowns of the completions collected with [`FlashScheduler::completions`], in the same
    /// order (empty unless recorded); the caller clears both.
    pub fn completion_breakdowns(&mut self) -> &mut Vec<LatencyBreakdown> {
        &mut self.completed_breakdowns
    }

    /// Request `id` was opened at `now`.
    #[inline]
    pub(super) fn breakdown_opened(&mut self, id: u32, now: SimTime) {
        if let Some(breakdowns) = self.breakdowns.as_mut() {
            let slot = id as usize;
            if breakdowns.open.len() <= slot {
                breakdowns.open.resize_with(slot + 1, Default::default);
            }
            let entry = &mut breakdowns.open[slot];
            entry.0 = now.0;
            entry.1.clear();
        }
    }

    /// A stage of the work `waiter` waits for: ready at `ready`, on `resource` over [start, end),
    /// then `tail` of controller time.
    #[inline]
    pub(super) fn breakdown_stage(
        &mut self,
        waiter: Waiter,
        resource: StageResource,
        ready: SimTime,
        start: SimTime,
        end: SimTime,
        tail: u64,
    ) {
        if self.breakdowns.is_none() {
            return;
        }
        let request = match waiter {
            Waiter::Request(id) => id,
            Waiter::WriteGroup(group) => self.write_groups.get(group).request,
            Waiter::Gate(_) | Waiter::Nobody => return,
        };
        if let Some(breakdowns) = self.breakdowns.as_mut() {
            if let Some(entry) = breakdowns.open.get_mut(request as usize) {
                entry.1.push(Stage { resource, ready: ready.0, start: start.0, end: end.0, tail });
            }
        }
    }

    /// Request `id` completed at `completion`: its breakdown joins the completed ones.
    pub(super) fn breakdown_completed(&mut self, id: u32, completion: SimTime) {
        let Some(breakdowns) = self.breakdowns.as_mut() else { return };
        let breakdown = match breakdowns.open.get_mut(id as usize) {
            Some((issue, stages)) => {
                let breakdown = critical_path(*issue, completion.0, stages);
                stages.clear();
                breakdown
            }
            None => LatencyBreakdown::default(),
        };
        self.completed_breakdowns.push(breakdown);
    }
}

/// Walks back from `completion` through `stages` (module comment). Each stage is used at most once.
fn critical_path(issue: u64, completion: u64, stages: &mut [Stage]) -> LatencyBreakdown {
    let mut breakdown = LatencyBreakdown::default();
    let mut time = completion;
    let mut used = 0;
    while time > issue && used < stages.len() {
        let Some(index) = stages[used..].iter().position(|stage| stage.end + stage.tail == time).map(|i| i + used)
        else {
            break;
        };
        stages.swap(used, index);
        let stage = stages[used];
        used += 1;
        breakdown.controller_ns += stage.tail;
        let (wait, busy) = (stage.start.saturating_sub(stage.ready), stage.end - stage.start);
        match stage.resource {
            StageResource::Die => {
                breakdown.die_wait_ns += wait;
                breakdown.array_ns += busy;
            }
            StageResource::Channel => {
                breakdown.channel_wait_ns += wait;
                breakdown.channel_ns += busy;
            }
            StageResource::Dram => {
                breakdown.dram_ns += wait + busy;
            }
        }
        time = stage.ready.max(issue);
    }
    breakdown.before_flash_ns = time.saturating_sub(issue);
    breakdown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(resource: StageResource, ready: u64, start: u64, end: u64, tail: u64) -> Stage {
        Stage { resource, ready, start, end, tail }
    }

    #[test]
    fn the_path_runs_back_through_the_stage_that_ended_last() {
        // Two reads of one request: the second waited 30 on its die; the path is through it.
        let mut stages = [
            stage(StageResource::Die, 10, 10, 50, 0),
            stage(StageResource::Channel, 50, 50, 70, 8),
            stage(StageResource::Die, 10, 40, 80, 0),
            stage(StageResource::Channel, 80, 85, 105, 8),
        ];
        let breakdown = critical_path(0, 113, &mut stages);
        assert_eq!(
            breakdown,
            LatencyBreakdown {
                before_flash_ns: 10,
                die_wait_ns: 30,
                array_ns: 40,
                channel_wait_ns: 5,
                channel_ns: 20,
                dram_ns: 0,
                controller_ns: 8
            }
        );
        assert_eq!(breakdown.total_ns(), 113);
    }

    #[test]
    fn a_read_behind_a_program_waits_on_its_die_and_the_program_s_path_is_transfer_then_array() {
        use crate::scheduler::tests::{lower_page, plain, scheduler, tag, DECODE, PROGRAM, SENSE, TRANSFER};
        let (mut s, g) = scheduler(true);
        s.record_breakdowns();
        let write = s.open_request(SimTime::ZERO, tag(true));
        let group = s.open_write_group(write, SimTime::ZERO);
        s.close_write_group(group, SimTime::ZERO, &[lower_page(&g, 0, 0)]);
        s.close_request(write, SimTime::ZERO);
        while s.next_event_time().is_some_and(|time| time.0 <= 30_000) {
            s.process_next_event();
        }
        let read = s.open_request(SimTime(30_000), RequestTag { latency_from: SimTime(30_000), ..tag(false) });
        s.read(SimTime(30_000), lower_page(&g, 0, 1), &plain(), Waiter::Request(read));
        s.close_request(read, SimTime(30_000));
        while s.process_next_event().is_some() {}
        let completions: Vec<(bool, u64)> = s.completions().iter().map(|(tag, time, _)| (tag.write, time.0)).collect();
        let breakdowns = s.completion_breakdowns().clone();
        assert_eq!(completions.len(), breakdowns.len());
        for ((write, completion), breakdown) in completions.into_iter().zip(breakdowns) {
            if write {
                assert_eq!(
                    breakdown,
                    LatencyBreakdown { channel_ns: TRANSFER, array_ns: PROGRAM, ..LatencyBreakdown::default() }
                );
                assert_eq!(breakdown.total_ns(), completion);
            } else {
                let program_end = TRANSFER + PROGRAM;
                assert_eq!(
                    breakdown,
                    LatencyBreakdown {
                        die_wait_ns: program_end - 30_000,
                        array_ns: SENSE,
                        channel_ns: TRANSFER,
                        controller_ns: DECODE,
                        ..LatencyBreakdown::default()
                    }
                );
                assert_eq!(breakdown.total_ns(), completion - 30_000);
            }
        }
    }

    #[test]
    fn a_completion_no_stage_explains_is_all_before_flash() {
        let mut stages = [stage(StageResource::Die, 0, 0, 10, 0)];
        let breakdown = critical_path(0, 50, &mut stages);
        assert_eq!((breakdown.before_flash_ns, breakdown.total_ns()), (50, 50));
    }
}
