//! The controller DRAM's bus, for a DRAM data cache (`simulation/data_path/data_cache/`).
//!
//! One single server (first come, first served by ready time, work-conserving, like a die or a
//! channel): an access of n bytes occupies it for `access_latency_ns + n / bandwidth`, and whoever
//! waits for it is told at the access's end. That is MQSim's model (`Data_Cache_Manager_Base`:
//! one FIFO `dram_execution_queue` per cache sharing domain, each transfer taking
//! `estimate_dram_access_time`: tRCD + tCL + bytes / (burst bytes x 2) x burst time) with the row
//! changes (tRP, 13 ns per 8 KiB row in MQSim's default drive) left out: they add under 0.1 % to a
//! page's transfer. Refresh, banks and the controller's own (mapping, metadata) traffic are left
//! out too. DRAM accesses are booked at the moment they become ready (a host write at its issue, a
//! destage when it is decided), so the bus stays work-conserving. Not in the booking log, which
//! checks the NAND's dies and channels.

use super::operations::Waiter;
use super::FlashScheduler;
use ssdlab_engine::{Server, SimDuration, SimTime};

/// What the controller DRAM moved over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct DramCounters {
    pub accesses: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
}

/// The DRAM bus and its timing.
#[derive(Debug, Clone)]
pub(super) struct DramUnit {
    access_latency_ns: u64,
    bandwidth_mb_per_s: u64,
    bus: Server,
    counters: DramCounters,
}

impl DramUnit {
    /// How long an access of `bytes` occupies the bus: latency plus transfer (1 MB/s = 1 byte per
    /// 1,000 ns), rounded up to whole nanoseconds.
    pub(super) fn access_ns(&self, bytes: u64) -> u64 {
        self.access_latency_ns + (bytes * 1_000).div_ceil(self.bandwidth_mb_per_s)
    }
}

impl FlashScheduler {
    /// Gives the controller its DRAM bus (`bandwidth_mb_per_s` > 0, checked by the config).
    pub fn attach_dram(&mut self, access_latency_ns: u64, bandwidth_mb_per_s: u64) {
        self.dram = Some(Box::new(DramUnit {
            access_latency_ns,
            bandwidth_mb_per_s: bandwidth_mb_per_s.max(1),
            bus: Server::new(),
            counters: DramCounters::default(),
        }));
    }

    /// Moves `bytes` into (`write`) or out of the DRAM, ready at `now`; `waiter` waits for the
    /// access's end, which is returned. Without a DRAM bus (never: the data cache attaches it) the
    /// access takes no time.
    pub fn dram_access(&mut self, now: SimTime, bytes: u64, write: bool, waiter: Waiter) -> SimTime {
        let Some(unit) = self.dram.as_mut() else { return now };
        let length = unit.access_ns(bytes);
        let end = unit.bus.book(now, SimDuration(length)) + SimDuration(length);
        unit.counters.accesses += 1;
        let start = SimTime(end.0 - length);
        if write {
            unit.counters.bytes_written += bytes;
        } else {
            unit.counters.bytes_read += bytes;
        }
        self.breakdown_stage(waiter, super::breakdown::StageResource::Dram, now, start, end, 0);
        self.add_wait(waiter);
        self.finish(waiter, end);
        end
    }

    /// What the DRAM moved so far (zero without a DRAM cache).
    pub fn dram_counters(&self) -> DramCounters {
        self.dram.as_ref().map_or_else(DramCounters::default, |unit| unit.counters)
    }

    /// Busy time booked on the DRAM bus.
    pub fn dram_busy(&self) -> SimDuration {
        self.dram.as_ref().map_or(SimDuration(0), |unit| unit.bus.booked())
    }

    /// When the last booked DRAM access ends.
    pub(super) fn dram_busy_until(&self) -> SimTime {
        self.dram.as_ref().map_or(SimTime::ZERO, |unit| unit.bus.busy_until())
    }

    /// Background requests (see [`super::RequestTag::background`]) ended since the list was last
    /// cleared: (when, the request's `size_bytes`).
    pub fn background_completions(&mut self) -> &mut Vec<(SimTime, u64)> {
        &mut self.background_completions
    }

    /// The same, read-only (for the result).
    pub fn pending_background_completions(&self) -> &[(SimTime, u64)] {
        &self.background_completions
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{lower_page, scheduler, tag, PROGRAM, TRANSFER};
    use super::*;

    #[test]
    fn an_access_takes_latency_plus_bytes_over_bandwidth_and_queues_behind_the_last() {
        let (mut s, _) = scheduler(false);
        s.attach_dram(100, 1_000);
        // 4 KiB at 1,000 MB/s: 4,096 ns, plus 100 ns.
        let first = s.open_request(SimTime(0), tag(true));
        assert_eq!(s.dram_access(SimTime(0), 4096, true, Waiter::Request(first)), SimTime(4_196));
        s.close_request(first, SimTime(0));
        // Ready at 1,000 ns, the bus is busy until 4,196: FIFO, ends 4,196 + 100 + 512.
        let second = s.open_request(SimTime(1_000), tag(false));
        assert_eq!(s.dram_access(SimTime(1_000), 512, false, Waiter::Request(second)), SimTime(4_808));
        s.close_request(second, SimTime(1_000));
        let completions: Vec<SimTime> = s.completions().iter().map(|&(_, time, _)| time).collect();
        assert_eq!(completions, vec![SimTime(4_196), SimTime(4_808)]);
        assert_eq!(s.dram_counters(), DramCounters { accesses: 2, bytes_read: 512, bytes_written: 4096 });
        assert_eq!(s.dram_busy(), SimDuration(4_196 + 612));
        assert_eq!(s.busy_until(), SimTime(4_808));
    }

    #[test]
    fn a_background_request_ends_in_its_own_list() {
        let (mut s, _) = scheduler(false);
        s.attach_dram(10, 1_000);
        let id = s.open_request(SimTime(0), RequestTagBuilder::background(8192));
        s.dram_access(SimTime(0), 1000, false, Waiter::Request(id));
        s.close_request(id, SimTime(0));
        assert!(s.completions().is_empty());
        assert_eq!(s.background_completions().as_slice(), &[(SimTime(1_010), 8192)]);
    }

    #[test]
    fn a_program_group_waits_for_its_data_to_leave_the_dram() {
        // A destage: the page is read out of DRAM (100 + 4,096 ns), then crosses the channel and
        // is programmed.
        let (mut s, layout) = scheduler(false);
        s.attach_dram(100, 1_000);
        let id = s.open_request(SimTime(0), tag(true));
        let group = s.open_write_group(id, SimTime(0));
        s.dram_access(SimTime(0), 4096, false, Waiter::WriteGroup(group));
        s.close_write_group(group, SimTime(0), &[lower_page(&layout, 0, 0)]);
        s.close_request(id, SimTime(0));
        while s.process_next_event().is_some() {}
        let completions: Vec<SimTime> = s.completions().iter().map(|&(_, time, _)| time).collect();
        assert_eq!(completions, vec![SimTime(4_196 + TRANSFER + PROGRAM)]);
        assert_eq!(s.work_in_progress(), 0);
    }

    struct RequestTagBuilder;
    impl RequestTagBuilder {
        fn background(size_bytes: u64) -> super::super::RequestTag {
            super::super::RequestTag { size_bytes, background: true, ..tag(true) }
        }
    }
}
