//! Device events: their triggers, their timers, and what each did (for the result).
//!
//! What it models: events at a simulated time or at a chip's wear level (mean erase count, checked
//! whenever garbage collection runs), optionally deferred until the chip's dies go idle; timers that wake background work (a drain step waiting for
//! its chip's dies to go idle); a device-wide suspension that holds host requests until the work
//! it waits for ends. Timers are ordered by (time, sequence), and the replay loop takes them in time
//! order with scheduler events and host issues, so work an event started (a drain, a copy) still
//! runs after the last request. An event whose own time comes after the workload has ended (every
//! host request issued and completed) does not fire (`fired_at_ns` stays null): firing it would
//! stretch the simulated span, and every rate over it, to a time no request saw.
//! `chip_writable` on a chip whose retirement drain is under way stops that drain: the chip is in
//! service again, so nothing more has to leave it (the retire event keeps the pages it moved and is
//! never marked emptied). A `suspend_and_copy` books its whole copy when it fires, so a later
//! `chip_writable` does not shorten it.
//! The actions themselves (which touch the FTL and the scheduler) are the NAND path's (`simulation/data_path/nand/device_events.rs`).
//! Source: seed 004 §4 (chip exchange without suspend, against the conventional suspend-and-copy).

use crate::config::{DeviceAction, DeviceEventConfig};
use ssdlab_engine::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What a timer wakes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Timer {
    /// Event `index` fires (time-triggered).
    Fire(usize),
    /// The next step of event `index`'s background drain.
    DrainStep(usize),
    /// Event `index`'s suspension ends (host requests may be issued again).
    Resume(usize),
}

/// What one event did (`result.events[i]`).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct EventRecord {
    pub action: String,
    pub chip: u32,
    /// When it fired (None: its trigger was never reached).
    pub fired_at_ns: Option<u64>,
    /// Valid pages on the chip when it fired.
    pub valid_pages_at_fire: u64,
    /// Valid pages on the chip when the run ended (how far a drain got).
    pub valid_pages_at_end: u64,
    /// When the chip held no valid data any more (retire_chip, suspend_and_copy): ready for exchange.
    pub emptied_at_ns: Option<u64>,
    /// Pages the drain or the copy moved off the chip (the rest left by host overwrites and GC).
    pub pages_moved: u64,
    /// Blocks the drain or the copy emptied.
    pub blocks_moved: u64,
    /// Host requests held by a suspension, from its start to its end (the conventional method's
    /// dead time).
    pub suspended_ns: u64,
    /// A pipelined `suspend_and_copy`: when the copy's last program ended (the collection it set
    /// off in the destination planes may end later; the suspension ends with both).
    pub copy_ended_at_ns: Option<u64>,
    /// `retire_chip`: the longest step of the drain (one block moved, with the collection it set
    /// off or, under `drain = "with_collection"`, the collection that took it along): the seed's
    /// "required time for GC" of the read-only method.
    pub longest_step_ns: u64,
    /// `retire_chip`: the median step (the typical time one block moved holds its dies).
    pub median_step_ns: u64,
    /// `retire_chip`: steps that ended (each moved one block).
    pub steps: u64,
    /// How the `retire_chip` drain moved blocks (`background`, `with_collection`; null otherwise).
    pub drain: Option<&'static str>,
}

pub struct DeviceEvents {
    configs: Vec<DeviceEventConfig>,
    pub records: Vec<EventRecord>,
    timers: BinaryHeap<Reverse<(SimTime, u64, Timer)>>,
    sequence: u64,
    /// Events waiting for a wear level (index), none when empty.
    wear_pending: Vec<usize>,
    /// Per event: its drain's block cursor (a chip-local block index).
    pub drain_cursor: Vec<u32>,
    /// The events whose suspensions hold host requests, and since when. Host requests wait while any
    /// holds (issue 48 item 8: with one holder, a second copy started meanwhile was not waited for).
    suspensions: Vec<(usize, SimTime)>,
    /// Since when host requests have been held (the first of the overlapping suspensions now open),
    /// and the longest such hold so far: overlapping suspensions hold the host for their union, which
    /// can be longer than any one of them.
    held_since: Option<SimTime>,
    longest_hold_ns: u64,
    /// Per event: its drain was stopped (its chip was made writable again before it emptied).
    pub drain_stopped: Vec<bool>,
    /// Per event: when its drain's current step started (ns).
    pub step_started: Vec<u64>,
    /// Per event: every ended step's length (ns), for the median.
    step_lengths: Vec<Vec<u64>>,
    /// Fired `retire_chip` events draining with collection and not yet emptied or stopped.
    collection_drains: Vec<usize>,
    /// Steps of drains with collection in flight (they may overlap): batch token - number of
    /// events -> (event, start ns). Tokens below the number of events are the events' own.
    open_steps: std::collections::HashMap<u32, (usize, u64)>,
    next_step_token: u32,
}

impl DeviceEvents {
    pub fn new(configs: &[DeviceEventConfig]) -> Self {
        let mut events = DeviceEvents {
            records: configs
                .iter()
                .map(|config| EventRecord {
                    action: action_name(config.action).into(),
                    chip: config.chip,
                    drain: (config.action == DeviceAction::RetireChip).then(|| config.drain.unwrap_or_default().name()),
                    ..EventRecord::default()
                })
                .collect(),
            configs: configs.to_vec(),
            timers: BinaryHeap::new(),
            sequence: 0,
            wear_pending: Vec::new(),
            drain_cursor: vec![0; configs.len()],
            suspensions: Vec::new(),
            held_since: None,
            longest_hold_ns: 0,
            drain_stopped: vec![false; configs.len()],
            step_started: vec![0; configs.len()],
            step_lengths: vec![Vec::new(); configs.len()],
            collection_drains: Vec::new(),
            open_steps: std::collections::HashMap::new(),
            next_step_token: configs.len() as u32,
        };
        for (index, config) in configs.iter().enumerate() {
            match (config.at_ns, config.at_erase_count) {
                (Some(at), _) => events.schedule(SimTime(at), Timer::Fire(index)),
                (None, Some(_)) => events.wear_pending.push(index),
                (None, None) => {}
            }
        }
        events
    }

    pub fn config(&self, index: usize) -> &DeviceEventConfig {
        &self.configs[index]
    }

    pub fn schedule(&mut self, time: SimTime, timer: Timer) {
        self.sequence += 1;
        self.timers.push(Reverse((time, self.sequence, timer)));
    }

    /// The earliest timer's time.
    #[inline]
    pub fn next_timer(&self) -> Option<SimTime> {
        self.timers.peek().map(|Reverse((time, _, _))| *time)
    }

    pub fn pop_timer(&mut self) -> Option<(SimTime, Timer)> {
        self.timers.pop().map(|Reverse((time, _, timer))| (time, timer))
    }

    /// Withdraws the time triggers of events that have not fired (called once the workload has
    /// ended): they never fire. Timers of work already started (drain steps, the end of a
    /// suspension, an event triggered and waiting for its chip to go idle) stay.
    pub fn cancel_time_triggers(&mut self) {
        let configs = &self.configs;
        self.timers.retain(|Reverse((time, _, timer))| match timer {
            Timer::Fire(index) => configs[*index].at_ns != Some(time.0),
            _ => true,
        });
    }

    /// True while any event waits for a wear level.
    #[inline]
    pub fn wear_pending(&self) -> bool {
        !self.wear_pending.is_empty()
    }

    /// Removes and returns the wear-triggered events whose level `erase_count_of(chip)` has reached.
    pub fn take_worn(&mut self, mut erase_count_of: impl FnMut(u32) -> f64) -> Vec<usize> {
        let configs = &self.configs;
        let (due, waiting): (Vec<usize>, Vec<usize>) = self.wear_pending.iter().partition(|&&index| {
            configs[index].at_erase_count.is_some_and(|level| erase_count_of(configs[index].chip) >= level)
        });
        self.wear_pending = waiting;
        due
    }

    #[inline]
    pub fn suspended(&self) -> bool {
        !self.suspensions.is_empty()
    }

    /// Event `index` holds host requests from `now` until [`DeviceEvents::resume`] with its index.
    pub fn suspend(&mut self, index: usize, now: SimTime) {
        if !self.suspensions.iter().any(|&(holder, _)| holder == index) {
            self.held_since.get_or_insert(now);
            self.suspensions.push((index, now));
        }
    }

    /// Ends event `index`'s suspension at `now`; requests stay held while another event's lasts.
    pub fn resume(&mut self, index: usize, now: SimTime) {
        if let Some(position) = self.suspensions.iter().position(|&(holder, _)| holder == index) {
            let (_, since) = self.suspensions.swap_remove(position);
            self.records[index].suspended_ns += now.0.saturating_sub(since.0);
            if self.suspensions.is_empty() {
                if let Some(held_since) = self.held_since.take() {
                    self.longest_hold_ns = self.longest_hold_ns.max(now.0.saturating_sub(held_since.0));
                }
            }
        }
    }

    /// The longest time host requests were held by suspensions (overlapping ones as their union).
    pub fn longest_suspension_ns(&self) -> u64 {
        self.longest_hold_ns
    }

    pub fn is_empty(&self) -> bool {
        self.configs.is_empty()
    }

    /// Records a drain step of event `index` that ended at `end_ns` (started at `step_started`).
    pub fn step_ended(&mut self, index: usize, end_ns: u64) {
        let length = end_ns.saturating_sub(self.step_started[index]);
        let record = &mut self.records[index];
        record.longest_step_ns = record.longest_step_ns.max(length);
        record.steps += 1;
        self.step_lengths[index].push(length);
    }

    /// Opens a step of event `index`'s drain with collection, started at `start_ns`: the batch token
    /// its work is booked under (steps of one event may overlap, so each has its own).
    pub fn open_step(&mut self, index: usize, start_ns: u64) -> u32 {
        let token = self.next_step_token;
        self.next_step_token += 1;
        self.open_steps.insert(token, (index, start_ns));
        token
    }

    /// The batch `token` ended at `end_ns`: the event it belongs to (a step it opened is recorded
    /// and closed).
    pub fn batch_ended(&mut self, token: u32, end_ns: u64) -> usize {
        match self.open_steps.remove(&token) {
            Some((index, start)) => {
                self.step_started[index] = start;
                self.step_ended(index, end_ns);
                index
            }
            None => token as usize,
        }
    }

    /// Starts draining event `index`'s chip with each collection of its tier.
    pub fn start_collection_drain(&mut self, index: usize) {
        self.collection_drains.push(index);
    }

    /// Stops event `index`'s drain with collection (its chip emptied, or is writable again).
    pub fn stop_collection_drain(&mut self, index: usize) {
        self.collection_drains.retain(|&other| other != index);
    }

    /// True while a chip drains with each collection (the write path then hands collections here).
    #[inline]
    pub fn drains_with_collection(&self) -> bool {
        !self.collection_drains.is_empty()
    }

    /// The events draining with collection now.
    pub fn collection_drains(&self) -> &[usize] {
        &self.collection_drains
    }

    /// What each event did, with the median step filled in.
    pub fn finished_records(&self) -> Vec<EventRecord> {
        self.records
            .iter()
            .zip(&self.step_lengths)
            .map(|(record, lengths)| {
                let mut sorted = lengths.clone();
                sorted.sort_unstable();
                // The lower median: a step that happened (no mean of two).
                let median = sorted.get(sorted.len().saturating_sub(1) / 2).copied().unwrap_or(0);
                EventRecord { median_step_ns: median, ..record.clone() }
            })
            .collect()
    }
}

pub fn action_name(action: DeviceAction) -> &'static str {
    action.name()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(at_ns: Option<u64>, at_erase_count: Option<f64>, chip: u32) -> DeviceEventConfig {
        DeviceEventConfig {
            at_ns,
            at_erase_count,
            action: DeviceAction::RetireChip,
            when_idle: false,
            chip,
            copy_path: None,
            drain: None,
        }
    }

    #[test]
    fn timers_come_in_time_then_scheduling_order() {
        let mut events =
            DeviceEvents::new(&[event(Some(50), None, 0), event(Some(10), None, 1), event(Some(50), None, 2)]);
        events.schedule(SimTime(10), Timer::DrainStep(0));
        let order: Vec<(u64, Timer)> =
            std::iter::from_fn(|| events.pop_timer()).map(|(t, timer)| (t.0, timer)).collect();
        assert_eq!(
            order,
            vec![(10, Timer::Fire(1)), (10, Timer::DrainStep(0)), (50, Timer::Fire(0)), (50, Timer::Fire(2))]
        );
    }

    #[test]
    fn cancelled_time_triggers_leave_started_work() {
        let mut events = DeviceEvents::new(&[event(Some(50), None, 0), event(Some(10), None, 1)]);
        events.schedule(SimTime(70), Timer::DrainStep(1));
        // Event 0 triggered and waiting for its chip to go idle (a later time than its own).
        events.schedule(SimTime(60), Timer::Fire(0));
        events.cancel_time_triggers();
        let left: Vec<(u64, Timer)> =
            std::iter::from_fn(|| events.pop_timer()).map(|(t, timer)| (t.0, timer)).collect();
        assert_eq!(left, vec![(60, Timer::Fire(0)), (70, Timer::DrainStep(1))]);
    }

    #[test]
    fn wear_events_fire_once_at_their_level() {
        let mut events = DeviceEvents::new(&[event(None, Some(3.0), 0), event(None, Some(5.0), 1)]);
        assert!(events.wear_pending());
        assert!(events.take_worn(|_| 2.9).is_empty());
        assert_eq!(events.take_worn(|chip| if chip == 0 { 3.0 } else { 4.0 }), vec![0]);
        assert_eq!(events.take_worn(|_| 9.0), vec![1]);
        assert!(!events.wear_pending());
    }

    #[test]
    fn drain_steps_give_the_median_and_the_longest() {
        let mut events = DeviceEvents::new(&[event(Some(0), None, 0)]);
        for (start, end) in [(0, 30), (40, 50), (60, 160), (200, 240)] {
            events.step_started[0] = start;
            events.step_ended(0, end);
        }
        let record = &events.finished_records()[0];
        assert_eq!((record.steps, record.median_step_ns, record.longest_step_ns), (4, 30, 100));
        assert_eq!(record.drain, Some("background"));
    }

    #[test]
    fn overlapping_steps_are_timed_from_their_own_start() {
        let mut events = DeviceEvents::new(&[event(Some(0), None, 0)]);
        let first = events.open_step(0, 100);
        let second = events.open_step(0, 150);
        assert_ne!(first, second);
        assert!(first >= 1 && second >= 1, "step tokens never collide with the events' own");
        assert_eq!(events.batch_ended(second, 400), 0);
        assert_eq!(events.batch_ended(first, 300), 0);
        assert_eq!(events.batch_ended(0, 500), 0, "an event's own token is its index");
        let record = &events.finished_records()[0];
        assert_eq!((record.steps, record.median_step_ns, record.longest_step_ns), (2, 200, 250));
    }

    #[test]
    fn collection_drains_start_and_stop() {
        let mut events = DeviceEvents::new(&[event(Some(0), None, 0), event(Some(0), None, 1)]);
        assert!(!events.drains_with_collection());
        events.start_collection_drain(1);
        events.start_collection_drain(0);
        assert_eq!(events.collection_drains(), &[1, 0]);
        events.stop_collection_drain(1);
        assert_eq!(events.collection_drains(), &[0]);
        events.stop_collection_drain(0);
        assert!(!events.drains_with_collection());
    }

    #[test]
    fn a_suspension_is_counted_from_suspend_to_resume() {
        let mut events = DeviceEvents::new(&[event(Some(0), None, 0)]);
        events.suspend(0, SimTime(1_000));
        assert!(events.suspended());
        events.resume(0, SimTime(4_500));
        assert!(!events.suspended());
        assert_eq!(events.longest_suspension_ns(), 3_500);
    }

    #[test]
    fn overlapping_suspensions_hold_requests_until_the_last_ends() {
        let mut events = DeviceEvents::new(&[event(Some(0), None, 0), event(Some(0), None, 1)]);
        events.suspend(0, SimTime(1_000));
        events.suspend(1, SimTime(1_000));
        events.resume(0, SimTime(2_000));
        assert!(events.suspended(), "event 1's copy still runs");
        events.resume(1, SimTime(9_000));
        assert!(!events.suspended());
        assert_eq!(events.longest_suspension_ns(), 8_000);
        // Chained: 1,000-5,000 and 3,000-9,000 hold the host 8,000 ns, longer than either alone.
        let mut events = DeviceEvents::new(&[event(Some(0), None, 0), event(Some(0), None, 1)]);
        events.suspend(0, SimTime(1_000));
        events.suspend(1, SimTime(3_000));
        events.resume(0, SimTime(5_000));
        events.resume(1, SimTime(9_000));
        assert_eq!((events.records[0].suspended_ns, events.records[1].suspended_ns), (4_000, 6_000));
        assert_eq!(events.longest_suspension_ns(), 8_000);
    }
}
