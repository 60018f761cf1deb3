//! Host writes held back by garbage collection: each plane's pool of erased blocks, and the host
//! programs that wait for it.
//!
//! What it models: the FTL reclaims blocks at once in its own state (the victim's pages are
//! re-mapped and the block is back on its free list when the write that set GC off is issued), but
//! a block is only usable when its erase has ended on the die. A plane's *erased pool* is therefore
//! its free blocks in the FTL minus the GC erases handed to the scheduler and not yet ended. A host
//! program group whose plane's pool is below the mode's threshold is held here (it keeps its
//! device-queue slot and its pages' FTL allocation) until an erase on that plane ends and the pool is
//! back at the threshold; then its data moves and it programs, and the wait counts in the request's
//! latency. Only host programs wait: GC copies, migrations and block-modify-write copies never do.
//!
//! The rules (`config::GcMode`, sources in docs/gc-modes.md):
//! - `foreground` (DiskSim's SSD model, which cleans in the write's path): writes wait while the
//!   pool is below the low watermark, so a write that sets GC off waits until the collection has
//!   erased enough of its victims to bring the pool back there (the first erase when it took one
//!   victim beyond the watermark; most of it when it took several, as DiskSim waits for the whole
//!   cleaning);
//! - `stop_servicing_writes` (MQSim, `GC_and_WL_Unit_Base::Stop_servicing_writes`,
//!   `Address_Mapping_Unit_Page_Level::Start_servicing_writes_for_overfull_plane`): writes wait
//!   while the pool is below `write_hold_threshold_blocks` (MQSim: 10), released when an erase
//!   returns a block;
//! - `preemptible` (Lee et al., "Preemptible I/O scheduling of garbage collection for solid state
//!   drives", IEEE TCAD 2013; MQSim's `Preemptible_GC_Enabled` with `GC_Hard_Threshold`): the same
//!   hold below the hard threshold, and above it GC steps aside for host work on its die (the
//!   scheduler's `gc_step` defers a GC operation while the die has work booked, so GC runs in the
//!   die's idle time, one page copy or erase at a time);
//! - `background`: nothing is held (ssdlab before issue 31).
//!
//! A plane is never held without an erase in flight on it: with none pending, nothing would release
//! the writes (MQSim stops silently in that state), so they go ahead.
//!
//! Left out: MQSim's limit of 10 concurrent GC operations per plane (here a collection's victims
//! are all handed over at once and run one after another on the die); the pool of a plane that a
//! migrating collector fills from another tier is re-examined only when that plane's own erases end
//! or writes reach it.

use crate::config::GcMode;
use ssdlab_engine::SimTime;
use std::collections::VecDeque;

/// `result.gc.host_writes_held`: what holding writes cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct WriteHoldStatistics {
    /// Host write requests with at least one program held for GC.
    pub requests_held: u64,
    /// Host program groups (one die, one multi-plane program) held.
    pub programs_held: u64,
    /// Pages of those programs.
    pub pages_held: u64,
    /// Total and longest time a held program waited (from its request's issue to its release; a
    /// program moved to another of its planes' lists keeps its first hold time).
    pub wait_total_ns: u64,
    pub wait_max_ns: u64,
    /// Sum over planes of the time each held writes (from the first held to their release).
    pub plane_blocked_ns: u64,
    /// Time at least one plane held writes.
    pub any_plane_blocked_ns: u64,
    /// Most planes holding writes at once.
    pub max_planes_blocked: u32,
    /// Preemptible mode: times a GC operation stepped aside because its die had work booked.
    pub gc_yields: u64,
}

/// A held program group and when it was held.
#[derive(Debug, Clone, Copy)]
struct Held {
    group: u32,
    since: SimTime,
}

pub(super) struct WriteGate {
    mode: GcMode,
    /// Writes to a plane wait while its erased pool is below this.
    threshold: u64,
    /// Per global plane: GC erases handed over and not yet ended, and their sum.
    pending_erases: Vec<u32>,
    pending_total: u64,
    /// Per global plane: program groups held, in the order they were held.
    held: Vec<VecDeque<Held>>,
    /// Per global plane: since when it holds writes (only meaningful while `held` is not empty).
    blocked_since: Vec<SimTime>,
    planes_blocked: u32,
    any_blocked_since: SimTime,
    /// Planes whose erase ended since the list was last taken (the wiring re-examines them).
    erases_ended: Vec<u32>,
    /// Preemptible mode, per die: a plane of the die is below the hard threshold (GC stops yielding).
    urgent_dies: Vec<bool>,
    pub(super) statistics: WriteHoldStatistics,
}

impl WriteGate {
    /// A gate for `planes` planes on `dies` dies; `low_watermark` is the foreground mode's threshold.
    pub(super) fn new(
        mode: GcMode,
        write_hold_threshold_blocks: u32,
        low_watermark_blocks: u32,
        planes: usize,
        dies: usize,
    ) -> Self {
        let threshold = match mode {
            GcMode::Foreground => low_watermark_blocks as u64,
            GcMode::StopServicingWrites | GcMode::Preemptible => write_hold_threshold_blocks as u64,
            GcMode::Background => 0,
        };
        WriteGate {
            mode,
            threshold,
            pending_erases: vec![0; planes],
            pending_total: 0,
            held: (0..planes).map(|_| VecDeque::new()).collect(),
            blocked_since: vec![SimTime::ZERO; planes],
            planes_blocked: 0,
            any_blocked_since: SimTime::ZERO,
            erases_ended: Vec::new(),
            urgent_dies: vec![false; dies],
            statistics: WriteHoldStatistics::default(),
        }
    }

    pub(super) fn threshold(&self) -> u32 {
        self.threshold as u32
    }

    pub(super) fn mode(&self) -> GcMode {
        self.mode
    }

    /// Whether writes to `plane`, which has `free_blocks` free blocks in the FTL, wait now.
    #[inline]
    pub(super) fn holds(&self, plane: u32, free_blocks: usize) -> bool {
        let pending = self.pending_erases[plane as usize] as u64;
        pending > 0 && (free_blocks as u64).saturating_sub(pending) < self.threshold
    }

    /// The erased pool of `plane` given its free blocks in the FTL.
    pub(super) fn erased_pool(&self, plane: u32, free_blocks: usize) -> u64 {
        (free_blocks as u64).saturating_sub(self.pending_erases[plane as usize] as u64)
    }

    pub(super) fn erase_started(&mut self, plane: u32) {
        self.pending_erases[plane as usize] += 1;
        self.pending_total += 1;
    }

    pub(super) fn erase_ended(&mut self, plane: u32) {
        let pending = &mut self.pending_erases[plane as usize];
        if *pending > 0 {
            *pending -= 1;
            self.pending_total -= 1;
        }
        self.erases_ended.push(plane);
    }

    /// Whether any GC erase is in flight (if none, no write can be held).
    #[inline]
    pub(super) fn any_erase_pending(&self) -> bool {
        self.pending_total > 0
    }

    /// Whether a GC erase is in flight on `plane`.
    #[inline]
    pub(super) fn erase_pending(&self, plane: u32) -> bool {
        self.pending_erases[plane as usize] > 0
    }

    pub(super) fn erases_ended(&mut self) -> &mut Vec<u32> {
        &mut self.erases_ended
    }

    /// Holds program group `group` (of `pages` pages) on `plane` from `now`.
    pub(super) fn hold(&mut self, plane: u32, group: u32, pages: u32, since: SimTime, now: SimTime) {
        self.statistics.programs_held += 1;
        self.statistics.pages_held += pages as u64;
        self.hold_again(plane, group, since, now);
    }

    /// Holds a group released by one of its planes on another that still holds writes.
    pub(super) fn hold_again(&mut self, plane: u32, group: u32, since: SimTime, now: SimTime) {
        let queue = &mut self.held[plane as usize];
        if queue.is_empty() {
            self.blocked_since[plane as usize] = now;
            if self.planes_blocked == 0 {
                self.any_blocked_since = now;
            }
            self.planes_blocked += 1;
            self.statistics.max_planes_blocked = self.statistics.max_planes_blocked.max(self.planes_blocked);
        }
        queue.push_back(Held { group, since });
    }

    /// The next group held on `plane` and since when, taken off its list.
    pub(super) fn take_next(&mut self, plane: u32, now: SimTime) -> Option<(u32, SimTime)> {
        let queue = &mut self.held[plane as usize];
        let next = queue.pop_front()?;
        if queue.is_empty() {
            self.statistics.plane_blocked_ns += now.since(self.blocked_since[plane as usize]).0;
            self.planes_blocked -= 1;
            if self.planes_blocked == 0 {
                self.statistics.any_plane_blocked_ns += now.since(self.any_blocked_since).0;
            }
        }
        Some((next.group, next.since))
    }

    /// A held group (held since `since`) is released at `now`.
    pub(super) fn released(&mut self, since: SimTime, now: SimTime) {
        let wait = now.since(since).0;
        self.statistics.wait_total_ns += wait;
        self.statistics.wait_max_ns = self.statistics.wait_max_ns.max(wait);
    }

    pub(super) fn holds_any(&self, plane: u32) -> bool {
        !self.held[plane as usize].is_empty()
    }

    /// Planes holding writes now.
    pub(super) fn planes_blocked(&self) -> u32 {
        self.planes_blocked
    }

    pub(super) fn set_urgent(&mut self, die: u32, urgent: bool) {
        self.urgent_dies[die as usize] = urgent;
    }

    /// Whether GC on `die` steps aside for host work (preemptible mode, no plane of the die below the
    /// hard threshold).
    #[inline]
    pub(super) fn gc_yields_on(&self, die: u32) -> bool {
        self.mode == GcMode::Preemptible && !self.urgent_dies[die as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_only_below_the_threshold_with_an_erase_in_flight() {
        let mut gate = WriteGate::new(GcMode::StopServicingWrites, 2, 3, 2, 1);
        // No erase in flight: nothing would release a held write, so none is held.
        assert!(!gate.holds(0, 0));
        gate.erase_started(0);
        // 3 free in the FTL, 1 not yet erased: 2 erased, at the threshold.
        assert!(!gate.holds(0, 3));
        assert!(gate.holds(0, 2));
        assert!(!gate.holds(1, 0), "another plane's erase does not hold this one");
        gate.erase_ended(0);
        assert!(!gate.holds(0, 2));
        assert_eq!(gate.erases_ended().as_slice(), &[0]);
    }

    #[test]
    fn thresholds_follow_the_mode() {
        let foreground = WriteGate::new(GcMode::Foreground, 1, 5, 1, 1);
        let mut foreground = foreground;
        foreground.erase_started(0);
        // Foreground holds below the low watermark (5): 5 free, 1 of them not erased.
        assert!(foreground.holds(0, 5));
        assert!(!foreground.holds(0, 6));
        let mut background = WriteGate::new(GcMode::Background, 1, 5, 1, 1);
        background.erase_started(0);
        assert!(!background.holds(0, 0));
    }

    #[test]
    fn blocked_time_counts_from_the_first_held_write_to_the_last_release() {
        let mut gate = WriteGate::new(GcMode::StopServicingWrites, 1, 3, 2, 1);
        gate.hold(0, 7, 2, SimTime(90), SimTime(100));
        gate.hold(1, 8, 1, SimTime(150), SimTime(150));
        gate.hold(0, 9, 1, SimTime(200), SimTime(200));
        assert_eq!(gate.planes_blocked(), 2);
        assert_eq!(gate.take_next(0, SimTime(300)), Some((7, SimTime(90))));
        gate.released(SimTime(90), SimTime(300));
        assert_eq!(gate.take_next(0, SimTime(300)), Some((9, SimTime(200))));
        gate.released(SimTime(200), SimTime(300));
        assert_eq!(gate.take_next(0, SimTime(300)), None);
        assert_eq!(gate.take_next(1, SimTime(400)), Some((8, SimTime(150))));
        gate.released(SimTime(150), SimTime(400));
        let statistics = gate.statistics;
        assert_eq!(statistics.plane_blocked_ns, 200 + 250);
        assert_eq!(statistics.any_plane_blocked_ns, 300);
        assert_eq!(statistics.max_planes_blocked, 2);
        assert_eq!((statistics.programs_held, statistics.pages_held), (3, 4));
        assert_eq!((statistics.wait_total_ns, statistics.wait_max_ns), (210 + 100 + 250, 250));
    }
}
