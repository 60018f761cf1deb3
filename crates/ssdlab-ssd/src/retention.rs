//! Data age: the retention clock every programmed page is stamped with.
//!
//! A page's age is the retention-clock time since it was programmed. The clock runs
//! `read_path.retention_time_scale` times faster than I/O time and starts at `offset` (the oldest
//! initial age preconditioning may give), so that a page written by preconditioning with an age
//! of A hours is stamped `offset - A` and reads as A hours old at time 0:
//!
//! ```text
//! stamp(t)            = offset + t x scale          (a page programmed at I/O time t)
//! stamp_aged(A)       = offset - A                  (a preconditioned page A old at t = 0)
//! age(stamp, now)     = stamp(now) - stamp
//! ```
//!
//! Why a scaled clock (seed 000): the seed's decoders switch on data retention measured in days
//! (hot data is rewritten within a day, cold data lives six days or more), while a replayed sample
//! lasts minutes. Running the retention clock `scale` times faster stretches every interval
//! between a page's program and its read by the same factor, so the ratio between a hot workload's
//! short rewrite intervals and a cold one's long ones is kept exactly while both reach the days the
//! seed measured: with a sample of D seconds cut from a week, scale = week / D makes the sample
//! stand for the week it came from. GC copies restamp pages (the data is programmed again).
//!
//! Stamps are u32 milliseconds (about 49.7 days of retention clock); beyond that the clock
//! saturates and ages stop growing, which the validation of `ftl.precondition.data_age_hours`
//! keeps far away for the initial ages.

/// Milliseconds of retention clock.
pub const MS_PER_HOUR: f64 = 3.6e6;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetentionClock {
    offset_ms: u64,
    /// Retention-clock milliseconds per I/O nanosecond.
    ms_per_ns: f64,
    /// scale = 1: integer milliseconds of simulated time, exactly.
    unscaled: bool,
}

impl Default for RetentionClock {
    fn default() -> Self {
        RetentionClock::new(1.0, 0.0)
    }
}

impl RetentionClock {
    /// `scale`: retention time per I/O time (validated > 0); `oldest_initial_age_hours`: the oldest
    /// age a preconditioned page may get.
    pub fn new(scale: f64, oldest_initial_age_hours: f64) -> Self {
        RetentionClock {
            offset_ms: (oldest_initial_age_hours.max(0.0) * MS_PER_HOUR).ceil() as u64,
            ms_per_ns: scale * 1e-6,
            unscaled: scale == 1.0,
        }
    }

    /// The stamp of a page programmed at I/O time `now_ns`.
    #[inline(always)]
    pub fn stamp(&self, now_ns: u64) -> u32 {
        let elapsed_ms = if self.unscaled { now_ns / 1_000_000 } else { (now_ns as f64 * self.ms_per_ns) as u64 };
        (self.offset_ms + elapsed_ms).min(u32::MAX as u64) as u32
    }

    /// The stamp of a page that is `age_hours` old at I/O time 0 (clamped to the clock's offset).
    pub fn stamp_aged(&self, age_hours: f64) -> u32 {
        let age_ms = (age_hours.max(0.0) * MS_PER_HOUR) as u64;
        self.offset_ms.saturating_sub(age_ms).min(u32::MAX as u64) as u32
    }

    /// Age in hours, at I/O time `now_ns`, of a page stamped `stamp`.
    #[inline]
    pub fn age_hours(&self, stamp: u32, now_ns: u64) -> f64 {
        self.stamp(now_ns).saturating_sub(stamp) as f64 / MS_PER_HOUR
    }

    /// I/O nanoseconds that `hours` of retention clock take (rounded).
    pub fn io_ns_of(&self, hours: f64) -> u64 {
        (hours * MS_PER_HOUR / self.ms_per_ns).round() as u64
    }

    /// Retention-clock hours that `duration_ns` of I/O time stands for.
    pub fn hours_of(&self, duration_ns: u64) -> f64 {
        duration_ns as f64 * self.ms_per_ns / MS_PER_HOUR
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR_NS: u64 = 3_600_000_000_000;

    #[test]
    fn ages_follow_the_scaled_clock_and_preconditioned_pages_start_old() {
        // Hand-computed: one I/O minute at scale 1440 is one retention day.
        let clock = RetentionClock::new(1440.0, 144.0);
        let minute = 60_000_000_000;
        let written_at_start = clock.stamp(0);
        assert!((clock.age_hours(written_at_start, minute) - 24.0).abs() < 1e-6);
        // A page preconditioned 144 h old is 168 h old after that minute.
        let cold = clock.stamp_aged(144.0);
        assert!((clock.age_hours(cold, minute) - 168.0).abs() < 1e-6);
        // A hot page rewritten every 6 s of I/O time never gets older than 2.4 retention hours.
        let rewritten = clock.stamp(54_000_000_000);
        assert!((clock.age_hours(rewritten, minute) - 2.4).abs() < 1e-6);
        assert!((clock.hours_of(minute) - 24.0).abs() < 1e-9);
    }

    #[test]
    fn the_default_clock_is_simulated_time() {
        let clock = RetentionClock::default();
        assert_eq!(clock.stamp(5 * HOUR_NS), 5 * 3_600_000);
        assert!((clock.age_hours(clock.stamp(HOUR_NS), 3 * HOUR_NS) - 2.0).abs() < 1e-9);
        // Ages older than the offset are clamped to it.
        assert_eq!(clock.stamp_aged(10.0), 0);
    }
}
