//! The workload class the controller sees (seed 000 §3, Fig. 4), measured online.
//!
//! Seed 000 classes a workload by its mean write frequency per logical block over a week (at least
//! 7 writes per week: hot, i.e. a mean data retention of at most a day) and by its read share
//! (read- or write-dominant). `ssdlab trace stats` classes a whole trace that way; here the same
//! rule runs inside the simulation over a sliding window of the retention clock
//! (`read_path.workload_class.window_hours`, sliding in `window_steps` steps), so a policy can switch
//! when the workload changes. Mean writes per written block in the window = page writes in the
//! window / distinct pages written in the window, scaled to a week by week / window (or by week /
//! elapsed time before a whole window has passed, as the trace statistics extrapolate).
//!
//! Distinct pages in a sliding window, exactly and in O(1) per write: each page remembers the step
//! of its latest write, and each step counts the pages whose latest write falls in it; a page
//! written again moves from its old step's count to the current one, and a step leaving the window
//! takes its count with it. Memory: one u32 per logical page, only when the class is measured online.
//!
//! The class is re-evaluated at every step's end and, in between, every 4,096 requests over the
//! completed steps plus the part of the current one (so a trace shorter than a step is classed too,
//! its rates extrapolated to a week as `ssdlab trace stats` does). Before the first evaluation the
//! class is cold and read-dominant: cold has the lower switch point, the safe choice while nothing
//! is known.

use crate::config::{WorkloadClassConfig, WorkloadClassMode};
use crate::retention::RetentionClock;
use ssdlab_workload::WorkloadClass;

const WEEK_HOURS: f64 = 168.0;
const NEVER: u32 = u32::MAX;

/// A class held from a time on.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ClassChange {
    /// I/O time (simulated seconds) of the change.
    pub at_s: f64,
    pub class: WorkloadClass,
    /// Mean writes per written page per week over the window (retention clock).
    pub writes_per_week: f64,
    pub read_share: f64,
}

/// What the result reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WorkloadClassSummary {
    /// "online" or the fixed class.
    pub mode: String,
    pub final_class: WorkloadClass,
    /// Every change of class (the first entry is the class at time 0).
    pub changes: Vec<ClassChange>,
    /// Simulated seconds spent in each class.
    pub seconds_hot_read_dominant: f64,
    pub seconds_hot_write_dominant: f64,
    pub seconds_cold_read_dominant: f64,
    pub seconds_cold_write_dominant: f64,
}

pub struct WorkloadClassifier {
    online: bool,
    class: WorkloadClass,
    step_ns: u64,
    steps: u64,
    /// Retention hours one step stands for.
    step_hours: f64,
    /// Step of each logical page's latest write (NEVER: none in memory).
    latest_step: Vec<u32>,
    /// Per step slot (step mod steps): page writes, requests read, requests written, pages whose
    /// latest write is in the step.
    page_writes: Vec<u64>,
    read_requests: Vec<u64>,
    /// Pages read per step (the read share by data, `read_share = "data"`).
    read_pages: Vec<u64>,
    /// The read share counts pages (data) rather than requests.
    by_data: bool,
    write_requests: Vec<u64>,
    latest_pages: Vec<u64>,
    current_step: u64,
    changes: Vec<ClassChange>,
    class_since_ns: u64,
    seconds_in: [f64; 4],
    /// The latest time observed (the workload's timeline).
    last_ns: u64,
    /// The first time observed (the start of the first step's partial window).
    first_ns: Option<u64>,
    requests: u64,
}

/// Requests between evaluations inside a step.
const EVALUATE_EVERY: u64 = 4096;

fn class_index(class: WorkloadClass) -> usize {
    match class {
        WorkloadClass::HotReadDominant => 0,
        WorkloadClass::HotWriteDominant => 1,
        WorkloadClass::ColdReadDominant => 2,
        WorkloadClass::ColdWriteDominant => 3,
    }
}

pub fn classify(writes_per_week: f64, read_share: f64) -> WorkloadClass {
    match (writes_per_week >= 7.0, read_share > 0.5) {
        (true, true) => WorkloadClass::HotReadDominant,
        (true, false) => WorkloadClass::HotWriteDominant,
        (false, true) => WorkloadClass::ColdReadDominant,
        (false, false) => WorkloadClass::ColdWriteDominant,
    }
}

pub fn is_hot(class: WorkloadClass) -> bool {
    matches!(class, WorkloadClass::HotReadDominant | WorkloadClass::HotWriteDominant)
}

pub fn is_write_dominant(class: WorkloadClass) -> bool {
    matches!(class, WorkloadClass::HotWriteDominant | WorkloadClass::ColdWriteDominant)
}

impl WorkloadClassifier {
    /// `logical_pages`: the host's logical page space; `clock`: the retention clock (validated config).
    pub fn new(config: &WorkloadClassConfig, clock: &RetentionClock, logical_pages: u64) -> Self {
        let (online, class) = match config.mode {
            WorkloadClassMode::Online => (true, WorkloadClass::ColdReadDominant),
            WorkloadClassMode::HotReadDominant => (false, WorkloadClass::HotReadDominant),
            WorkloadClassMode::HotWriteDominant => (false, WorkloadClass::HotWriteDominant),
            WorkloadClassMode::ColdReadDominant => (false, WorkloadClass::ColdReadDominant),
            WorkloadClassMode::ColdWriteDominant => (false, WorkloadClass::ColdWriteDominant),
        };
        let steps = config.window_steps.max(1) as u64;
        let step_hours = config.window_hours / steps as f64;
        // I/O nanoseconds per step: the retention clock turns I/O time into retention hours.
        let step_ns = clock.io_ns_of(step_hours).max(1);
        let slots = if online { steps as usize } else { 0 };
        WorkloadClassifier {
            online,
            class,
            step_ns,
            steps,
            step_hours,
            latest_step: if online { vec![NEVER; logical_pages as usize] } else { Vec::new() },
            page_writes: vec![0; slots],
            read_requests: vec![0; slots],
            read_pages: vec![0; slots],
            by_data: config.read_share == crate::config::ReadShareBasis::Data,
            write_requests: vec![0; slots],
            latest_pages: vec![0; slots],
            current_step: 0,
            changes: vec![ClassChange { at_s: 0.0, class, writes_per_week: 0.0, read_share: 0.0 }],
            class_since_ns: 0,
            seconds_in: [0.0; 4],
            last_ns: 0,
            first_ns: None,
            requests: 0,
        }
    }

    pub fn class(&self) -> WorkloadClass {
        self.class
    }

    /// A host request at `now_ns`: `pages` logical pages from `first_page`.
    #[inline]
    pub fn observe(&mut self, now_ns: u64, write: bool, first_page: u64, pages: u64) {
        self.last_ns = self.last_ns.max(now_ns);
        if !self.online {
            return;
        }
        self.first_ns.get_or_insert(now_ns);
        self.advance(now_ns);
        self.requests += 1;
        if self.requests.is_multiple_of(EVALUATE_EVERY) {
            self.evaluate_partial(now_ns);
        }
        let slot = (self.current_step % self.steps) as usize;
        if !write {
            self.read_requests[slot] += 1;
            self.read_pages[slot] += pages;
            return;
        }
        self.write_requests[slot] += 1;
        self.page_writes[slot] += pages;
        let current = self.current_step as u32;
        for page in first_page..first_page + pages {
            let Some(latest) = self.latest_step.get_mut(page as usize) else { continue };
            if *latest == current {
                continue;
            }
            if *latest != NEVER && ((current - *latest) as u64) < self.steps {
                self.latest_pages[(*latest as u64 % self.steps) as usize] -= 1;
            }
            *latest = current;
            self.latest_pages[slot] += 1;
        }
    }

    /// Closes every step that ended by `now_ns`, re-evaluating the class at each.
    fn advance(&mut self, now_ns: u64) {
        let target = now_ns / self.step_ns;
        let mut closed = 0u64;
        while now_ns >= (self.current_step + 1) * self.step_ns {
            if closed > self.steps && self.current_step + 1 < target {
                // Every slot of the window has been cleared and evaluated empty: the steps up to
                // `target` would evaluate the same empty window and change nothing, so skip them
                // (a step of a few ns, from a large retention_time_scale, looped once per ns).
                self.current_step = target - 1;
            }
            closed += 1;
            self.current_step += 1;
            let end_ns = self.current_step * self.step_ns;
            self.evaluate(end_ns);
            // The slot of the new step held the step that just left the window.
            let slot = (self.current_step % self.steps) as usize;
            self.page_writes[slot] = 0;
            self.read_requests[slot] = 0;
            self.read_pages[slot] = 0;
            self.write_requests[slot] = 0;
            self.latest_pages[slot] = 0;
            if self.current_step >= u32::MAX as u64 - 1 {
                // (Steps are stored as u32; a run this long would need a coarser window.)
                self.online = false;
                return;
            }
        }
    }

    /// The class over the window that ends at `end_ns` (the steps before `current_step`).
    fn evaluate(&mut self, end_ns: u64) {
        let covered = self.current_step.min(self.steps);
        let slots: Vec<usize> =
            (0..covered).map(|back| ((self.current_step - 1 - back) % self.steps) as usize).collect();
        self.classify_over(&slots, covered as f64 * self.step_hours, end_ns);
    }

    /// The class over the completed steps still in the window plus the current step up to `now_ns`.
    fn evaluate_partial(&mut self, now_ns: u64) {
        let step_start = self.current_step * self.step_ns;
        let started = step_start.max(self.first_ns.unwrap_or(0));
        let partial_hours = now_ns.saturating_sub(started) as f64 / self.step_ns as f64 * self.step_hours;
        let completed = self.current_step.min(self.steps - 1);
        // The first step may have started late (the workload's first arrival): count from there.
        let first_step_hours = |step: u64| {
            if step == 0 {
                (self.step_ns - self.first_ns.unwrap_or(0).min(self.step_ns)) as f64 / self.step_ns as f64
                    * self.step_hours
            } else {
                self.step_hours
            }
        };
        let hours = partial_hours + (1..=completed).map(|back| first_step_hours(self.current_step - back)).sum::<f64>();
        if hours <= 0.0 {
            return;
        }
        let slots: Vec<usize> =
            (0..=completed).map(|back| ((self.current_step - back) % self.steps) as usize).collect();
        self.classify_over(&slots, hours, now_ns);
    }

    /// Classes the counts of `slots`, which cover `window_hours` of the retention clock, at `at_ns`.
    fn classify_over(&mut self, slots: &[usize], window_hours: f64, at_ns: u64) {
        let sum = |counts: &[u64]| slots.iter().map(|&slot| counts[slot]).sum::<u64>();
        let (writes, distinct) = (sum(&self.page_writes), sum(&self.latest_pages));
        let requests = sum(&self.read_requests) + sum(&self.write_requests);
        let read_share = if self.by_data {
            let read = sum(&self.read_pages);
            if read + writes == 0 {
                0.0
            } else {
                read as f64 / (read + writes) as f64
            }
        } else if requests == 0 {
            0.0
        } else {
            sum(&self.read_requests) as f64 / requests as f64
        };
        let writes_per_week = if distinct == 0 || window_hours <= 0.0 {
            0.0
        } else {
            writes as f64 / distinct as f64 * (WEEK_HOURS / window_hours).max(1.0)
        };
        let class = classify(writes_per_week, read_share);
        if class != self.class {
            self.seconds_in[class_index(self.class)] += at_ns.saturating_sub(self.class_since_ns) as f64 * 1e-9;
            self.class_since_ns = at_ns;
            self.class = class;
            self.changes.push(ClassChange { at_s: at_ns as f64 * 1e-9, class, writes_per_week, read_share });
        }
    }

    /// The summary at the end: times are on the timeline the classifier was given (the
    /// workload's arrival times), up to the last one observed.
    pub fn summary(&self, mode: WorkloadClassMode) -> WorkloadClassSummary {
        let end_ns = self.last_ns;
        let mut seconds = self.seconds_in;
        seconds[class_index(self.class)] += end_ns.saturating_sub(self.class_since_ns) as f64 * 1e-9;
        let mode =
            serde_json::to_value(mode).ok().and_then(|value| value.as_str().map(str::to_string)).unwrap_or_default();
        WorkloadClassSummary {
            mode,
            final_class: self.class,
            changes: self.changes.clone(),
            seconds_hot_read_dominant: seconds[0],
            seconds_hot_write_dominant: seconds[1],
            seconds_cold_read_dominant: seconds[2],
            seconds_cold_write_dominant: seconds[3],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: u64 = 1_000_000_000;

    /// A window of 4 retention hours in 4 steps; at scale 3600 one I/O second is one retention hour.
    fn classifier() -> WorkloadClassifier {
        classifier_by(crate::config::ReadShareBasis::Requests)
    }

    fn classifier_by(read_share: crate::config::ReadShareBasis) -> WorkloadClassifier {
        let config =
            WorkloadClassConfig { mode: WorkloadClassMode::Online, window_hours: 4.0, window_steps: 4, read_share };
        WorkloadClassifier::new(&config, &RetentionClock::new(3600.0, 0.0), 100)
    }

    #[test]
    fn the_read_share_counts_requests_or_data() {
        // Step 0: one 10-page write and two 1-page reads. By requests 2 of 3 are reads (read-
        // dominant); by data 2 of 12 pages (write-dominant).
        for (basis, share) in
            [(crate::config::ReadShareBasis::Requests, 2.0 / 3.0), (crate::config::ReadShareBasis::Data, 2.0 / 12.0)]
        {
            let mut c = classifier_by(basis);
            c.observe(0, true, 0, 10);
            c.observe(SECOND / 4, false, 50, 1);
            c.observe(SECOND / 2, false, 51, 1);
            c.observe(SECOND, true, 60, 1);
            let first = c.changes.last().unwrap();
            assert!((first.read_share - share).abs() < 1e-12, "{basis:?}: {first:?}");
            assert_eq!(is_write_dominant(first.class), share < 0.5, "{basis:?}");
        }
    }

    #[test]
    fn a_long_gap_of_tiny_steps_skips_the_empty_ones_with_the_same_changes() {
        // Scale 1e12 makes a step 43 ns: a gap of a simulated second looped 23 million times.
        let config = WorkloadClassConfig::default();
        let clock = RetentionClock::new(1e12, 0.0);
        let mut skipping = WorkloadClassifier::new(&config, &clock, 1000);
        let mut stepping = WorkloadClassifier::new(&config, &clock, 1000);
        assert!(skipping.step_ns < 100);
        for c in [&mut skipping, &mut stepping] {
            for t in 0..50 {
                c.observe(t * 7, true, t % 3, 2);
            }
        }
        let far = 1_000 * stepping.step_ns + 5;
        // Stepwise: one step per call never skips.
        for step in 1..=far / stepping.step_ns {
            stepping.advance(step * stepping.step_ns);
        }
        stepping.observe(far, false, 0, 1);
        skipping.observe(far, false, 0, 1);
        assert_eq!(skipping.current_step, stepping.current_step);
        assert_eq!(skipping.changes, stepping.changes);
        assert_eq!(skipping.class, stepping.class);
        // A second of I/O time answers at once.
        skipping.observe(SECOND, true, 0, 1);
        assert_eq!(skipping.current_step, SECOND / skipping.step_ns);
    }

    #[test]
    fn distinct_pages_in_the_sliding_window_are_exact() {
        let mut c = classifier();
        assert_eq!(c.step_ns, SECOND);
        // Step 0: pages 0..10 written twice (20 page writes, 10 distinct); a read.
        c.observe(0, true, 0, 10);
        c.observe(SECOND / 2, true, 0, 10);
        c.observe(SECOND / 2, false, 50, 1);
        // Step 1: pages 5..15 once: 10 writes, pages 5..10 move to step 1. Closing step 0 (1 h
        // covered): 20 writes over 10 distinct pages = 2 per hour, 336 per week (hot); 1 read of 3
        // requests (write-dominant).
        c.observe(SECOND, true, 5, 10);
        let first = c.changes.last().unwrap();
        assert_eq!(first.class, WorkloadClass::HotWriteDominant);
        assert!((first.writes_per_week - 336.0).abs() < 1e-9, "{first:?}");
        assert!((first.read_share - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(c.latest_pages[0..2], [5, 10]);
        assert_eq!(c.page_writes[0..2], [20, 10]);
        // Steps 0 and 1 leave the window after 4 more steps: a page written in step 0 and again
        // in step 5 counts once, in step 5 only.
        c.observe(5 * SECOND, true, 0, 1);
        assert_eq!(c.latest_pages.iter().sum::<u64>(), 1);
    }

    #[test]
    fn a_cold_workload_stays_cold_and_time_in_class_adds_up() {
        // Window of a week in 7 steps at scale 1: the class needs a day of I/O time per step.
        let config = WorkloadClassConfig { window_hours: 168.0, window_steps: 7, ..WorkloadClassConfig::default() };
        let mut c = WorkloadClassifier::new(&config, &RetentionClock::default(), 1000);
        let day = 24 * 3600 * SECOND;
        // Each page written once in the first day, then only reads for a week: 1 write per week.
        c.observe(0, true, 0, 1000);
        for d in 1..=8 {
            c.observe(d * day, false, 0, 8);
        }
        assert_eq!(c.class(), WorkloadClass::ColdReadDominant);
        let summary = c.summary(WorkloadClassMode::Online);
        let total = summary.seconds_cold_read_dominant
            + summary.seconds_cold_write_dominant
            + summary.seconds_hot_read_dominant
            + summary.seconds_hot_write_dominant;
        assert!((total - 8.0 * 86_400.0).abs() < 1e-6);
    }

    #[test]
    fn a_trace_shorter_than_a_step_is_classed_by_extrapolation() {
        // A week in 14 steps of 12 h at scale 1; 8,192 requests in 100 s, half of them rewriting the
        // same 16 pages: 256 writes per page in 100 s extrapolate to far more than 7 per week.
        let mut c = WorkloadClassifier::new(&WorkloadClassConfig::default(), &RetentionClock::default(), 1000);
        for i in 0..8192u64 {
            c.observe(1_000 * SECOND + i * (100 * SECOND / 8192), i % 2 == 0, i % 16, 1);
        }
        assert_eq!(c.class(), WorkloadClass::HotWriteDominant, "{:?}", c.changes);
        let last = c.changes.last().unwrap();
        assert!((last.read_share - 0.5).abs() < 1e-3 && last.writes_per_week > 1e4, "{last:?}");
    }

    #[test]
    fn a_fixed_class_costs_nothing_and_never_changes() {
        let config = WorkloadClassConfig { mode: WorkloadClassMode::HotReadDominant, ..WorkloadClassConfig::default() };
        let mut c = WorkloadClassifier::new(&config, &RetentionClock::default(), 1 << 20);
        assert!(c.latest_step.is_empty());
        c.observe(SECOND, true, 0, 100);
        assert_eq!(c.class(), WorkloadClass::HotReadDominant);
        assert_eq!(c.changes.len(), 1);
    }
}
