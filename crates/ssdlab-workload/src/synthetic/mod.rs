//! Seeded synthetic workloads: address distribution x size distribution x read share x arrivals.
//! The same spec and seed always give the same request stream; a spec may carry its own seed
//! (MQSim's per-flow `Seed`), which then replaces the one the run derives. A spec may also carry a
//! stop time (MQSim's `Stop_Time`): the host ends the stream at it (`stop_time_ns`; open loop on
//! arrivals, [`SyntheticGenerator::next_before`], closed loop on issue times, in the host), with
//! `requests` as the upper bound.

mod address;
mod size;
mod zipf;

pub use address::AddressDistribution;
pub use size::SizeDistribution;
pub use zipf::ZipfSampler;

use crate::error::WorkloadError;
use crate::request::{IoOp, IoRequest};
use ssdlab_engine::random::Xoshiro256PlusPlus;
use ssdlab_engine::SimTime;

/// Arrival process for open-loop replay (closed loop ignores arrival times).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "process", rename_all = "snake_case", deny_unknown_fields)]
pub enum ArrivalProcess {
    /// Exponential inter-arrival times with the given mean.
    Poisson { mean_interarrival_ns: f64 },
    /// A request every `interval_ns`.
    Fixed { interval_ns: u64 },
}

/// A synthetic workload as written in a config's `[workload.synthetic]` table.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyntheticSpec {
    /// Requests the stream issues; with `stop_time_ns`, the most it issues (it may stop earlier).
    pub requests: u64,
    /// Fraction of requests that are reads, in [0, 1].
    pub read_fraction: f64,
    /// Fraction of requests that are deletes (discard/TRIM of the range), in [0, 1 - read_fraction];
    /// the rest are writes.
    #[serde(default)]
    pub delete_fraction: f64,
    /// Bytes of logical address space the requests fall in (from offset 0).
    pub span_bytes: u64,
    /// Requests start on multiples of this many bytes.
    #[serde(default = "default_alignment")]
    pub alignment_bytes: u64,
    pub address: AddressDistribution,
    pub size: SizeDistribution,
    #[serde(default = "default_arrival")]
    pub arrival: ArrivalProcess,
    /// The stream's own seed (MQSim's per-flow `Seed`). Unset: the seed the run derives from the
    /// config's `seed` (and the flow's name), as before; left out of the written config when unset,
    /// so stored configs and result digests stay the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The simulated time (ns from the replay's start) at which the stream ends (MQSim's
    /// `Stop_Time`): no request arrives (open loop) or is issued (closed loop) at or after it;
    /// `requests` is then an upper bound. Unset: the stream issues `requests` requests. Left out of
    /// the written config when unset, so stored configs and result digests stay the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_time_ns: Option<u64>,
}

fn default_alignment() -> u64 {
    4096
}
fn default_arrival() -> ArrivalProcess {
    ArrivalProcess::Poisson { mean_interarrival_ns: 100_000.0 }
}

impl SyntheticSpec {
    pub fn validate(&self) -> Result<(), WorkloadError> {
        let invalid =
            |field: &str, message: String| Err(WorkloadError::InvalidSynthetic { field: field.into(), message });
        if self.requests == 0 {
            let bound = if self.stop_time_ns.is_some() {
                " (with stop_time_ns it is the upper bound: the stream ends at its stop time or after this many requests, whichever comes first)"
            } else {
                ""
            };
            return invalid("requests", format!("must be at least 1{bound}"));
        }
        if self.stop_time_ns == Some(0) {
            return invalid(
                "stop_time_ns",
                "must be at least 1 ns (the stream would issue nothing); leave it out to issue every request".into(),
            );
        }
        if !(0.0..=1.0).contains(&self.read_fraction) {
            return invalid("read_fraction", format!("must be in [0, 1], got {}", self.read_fraction));
        }
        if !(0.0..=1.0).contains(&self.delete_fraction) || self.read_fraction + self.delete_fraction > 1.0 + 1e-12 {
            return invalid(
                "delete_fraction",
                format!(
                    "must be in [0, 1 - read_fraction] = [0, {}], got {}",
                    1.0 - self.read_fraction,
                    self.delete_fraction
                ),
            );
        }
        if self.alignment_bytes == 0 {
            return invalid("alignment_bytes", "must be positive".into());
        }
        if self.span_bytes < self.alignment_bytes {
            return invalid("span_bytes", format!("must be at least alignment_bytes ({})", self.alignment_bytes));
        }
        self.size.validate(self.alignment_bytes, self.span_bytes)?;
        self.address.validate()?;
        match self.arrival {
            ArrivalProcess::Poisson { mean_interarrival_ns }
                if !(0.0..=MAX_MEAN_INTERARRIVAL_NS).contains(&mean_interarrival_ns) =>
            {
                invalid(
                    "arrival.mean_interarrival_ns",
                    format!("must be a number from 0 to {MAX_MEAN_INTERARRIVAL_NS:e} (about 11.6 days; longer gaps push arrivals past the simulated clock's range of 584 years), got {mean_interarrival_ns:e}"),
                )
            }
            _ => Ok(()),
        }
    }
}

/// The longest mean gap between Poisson arrivals (ns). Issue 48 item 16: 1e300 saturated every
/// arrival at the clock's end and the run reported 0 us latencies.
pub const MAX_MEAN_INTERARRIVAL_NS: f64 = 1e15;

/// Iterator over the requests of a [`SyntheticSpec`].
pub struct SyntheticGenerator {
    spec: SyntheticSpec,
    rng: Xoshiro256PlusPlus,
    address: address::AddressSampler,
    slots: u64,
    produced: u64,
    clock_ns: f64,
    /// Ended at the stop time (`next_before`).
    stopped: bool,
}

impl SyntheticGenerator {
    /// `seed` is the run's derived seed; the spec's own `seed`, when set, takes its place.
    pub fn new(spec: &SyntheticSpec, seed: u64) -> Result<Self, WorkloadError> {
        spec.validate()?;
        let seed = spec.seed.unwrap_or(seed);
        let slots = spec.span_bytes / spec.alignment_bytes;
        Ok(SyntheticGenerator {
            address: address::AddressSampler::new(&spec.address, slots),
            spec: spec.clone(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            slots,
            produced: 0,
            clock_ns: 0.0,
            stopped: false,
        })
    }

    pub fn total(&self) -> u64 {
        self.spec.requests
    }

    /// The next request whose arrival, as `arrival_of` places it on the run's clock, is before
    /// `stop_ns`; None from the first one at or after it (which is drawn and dropped: the stream is
    /// over), or once `requests` are produced. [`SyntheticGenerator::stopped`] then tells which.
    #[inline]
    pub fn next_before(&mut self, stop_ns: u64, arrival_of: impl Fn(SimTime) -> u64) -> Option<IoRequest> {
        let request = self.next()?;
        if arrival_of(request.arrival) >= stop_ns {
            self.stopped = true;
            self.produced = self.spec.requests;
            return None;
        }
        Some(request)
    }

    /// Whether the stream ended at its stop time ([`SyntheticGenerator::next_before`]) rather than
    /// after `requests`.
    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

impl Iterator for SyntheticGenerator {
    type Item = IoRequest;

    fn next(&mut self) -> Option<IoRequest> {
        if self.produced >= self.spec.requests {
            return None;
        }
        let arrival = SimTime(self.clock_ns as u64);
        match self.spec.arrival {
            ArrivalProcess::Poisson { mean_interarrival_ns } => {
                self.clock_ns += self.rng.exponential(mean_interarrival_ns)
            }
            ArrivalProcess::Fixed { interval_ns } => self.clock_ns += interval_ns as f64,
        }
        // One draw decides the op (the same draws as without deletes when delete_fraction is 0).
        let draw = self.rng.next_f64();
        let op = if draw < self.spec.read_fraction {
            IoOp::Read
        } else if draw < self.spec.read_fraction + self.spec.delete_fraction {
            IoOp::Delete
        } else {
            IoOp::Write
        };
        let size_bytes = self.spec.size.sample(&mut self.rng, self.spec.alignment_bytes);
        let size_slots = size_bytes.div_ceil(self.spec.alignment_bytes).min(self.slots);
        let slot = self.address.sample(&mut self.rng, size_slots);
        let request = IoRequest {
            arrival,
            op,
            offset_bytes: slot * self.spec.alignment_bytes,
            size_bytes: size_bytes.min(self.spec.span_bytes - slot * self.spec.alignment_bytes),
            origin_line: self.produced + 1,
        };
        self.produced += 1;
        Some(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(address: AddressDistribution) -> SyntheticSpec {
        SyntheticSpec {
            requests: 20_000,
            read_fraction: 0.6,
            delete_fraction: 0.0,
            span_bytes: 1 << 30,
            alignment_bytes: 4096,
            address,
            size: SizeDistribution::Uniform { min_bytes: 4096, max_bytes: 65536 },
            arrival: ArrivalProcess::Poisson { mean_interarrival_ns: 100_000.0 },
            seed: None,
            stop_time_ns: None,
        }
    }

    #[test]
    fn own_seed_replaces_the_given_one() {
        let base = spec(AddressDistribution::Uniform);
        let run_seeded: Vec<_> = SyntheticGenerator::new(&base, 5).unwrap().take(50).collect();
        let own = SyntheticSpec { seed: Some(5), ..base.clone() };
        // With its own seed the stream no longer depends on the seed the run passes.
        let own_a: Vec<_> = SyntheticGenerator::new(&own, 1).unwrap().take(50).collect();
        let own_b: Vec<_> = SyntheticGenerator::new(&own, 2).unwrap().take(50).collect();
        assert_eq!(own_a, own_b);
        assert_eq!(own_a, run_seeded, "its own seed 5 draws what the run's seed 5 draws");
        let other: Vec<_> =
            SyntheticGenerator::new(&SyntheticSpec { seed: Some(6), ..base.clone() }, 1).unwrap().take(50).collect();
        assert_ne!(own_a, other);
    }

    #[test]
    fn deterministic_and_in_range() {
        for distribution in [
            AddressDistribution::Uniform,
            AddressDistribution::Zipf { exponent: 0.9 },
            AddressDistribution::HotCold { hot_space_fraction: 0.2, hot_access_fraction: 0.8 },
            AddressDistribution::Sequential { run_requests: 16 },
        ] {
            let spec = spec(distribution);
            let a: Vec<_> = SyntheticGenerator::new(&spec, 5).unwrap().collect();
            let b: Vec<_> = SyntheticGenerator::new(&spec, 5).unwrap().collect();
            assert_eq!(a, b);
            assert_eq!(a.len(), 20_000);
            let reads = a.iter().filter(|r| r.op == IoOp::Read).count() as f64 / a.len() as f64;
            assert!((reads - 0.6).abs() < 0.02, "read share {reads}");
            for request in &a {
                assert!(request.end_bytes() <= spec.span_bytes);
                assert!(request.size_bytes >= 1);
            }
            for pair in a.windows(2) {
                assert!(pair[0].arrival <= pair[1].arrival);
            }
        }
    }

    #[test]
    fn delete_fraction_takes_its_share_and_is_checked() {
        let mut with_deletes = spec(AddressDistribution::Uniform);
        with_deletes.delete_fraction = 0.25;
        let generator = SyntheticGenerator::new(&with_deletes, 5).unwrap();
        let deletes = generator.filter(|r| r.op == IoOp::Delete).count() as f64 / 20_000.0;
        assert!((deletes - 0.25).abs() < 0.015, "{deletes}");
        // Without deletes the draws are the same as before the option existed: reads where they were.
        let plain: Vec<IoOp> =
            SyntheticGenerator::new(&spec(AddressDistribution::Uniform), 5).unwrap().map(|r| r.op).collect();
        let zero: Vec<IoOp> =
            SyntheticGenerator::new(&SyntheticSpec { delete_fraction: 0.0, ..spec(AddressDistribution::Uniform) }, 5)
                .unwrap()
                .map(|r| r.op)
                .collect();
        assert_eq!(plain, zero);
        with_deletes.delete_fraction = 0.5;
        assert!(with_deletes.validate().is_err(), "0.6 reads + 0.5 deletes > 1");
    }

    #[test]
    fn rejects_bad_read_fraction() {
        let mut bad = spec(AddressDistribution::Uniform);
        bad.read_fraction = 1.5;
        assert!(SyntheticGenerator::new(&bad, 1).is_err());
    }

    #[test]
    fn next_before_ends_at_the_first_arrival_at_or_after_the_stop() {
        let spec = SyntheticSpec { requests: 1_000, ..spec(AddressDistribution::Uniform) };
        let all: Vec<_> = SyntheticGenerator::new(&spec, 5).unwrap().collect();
        // A stop exactly on the 100th arrival: the 99 before it are issued, the 100th is not.
        let stop = all[99].arrival.0;
        assert!(all[98].arrival.0 < stop);
        let mut generator = SyntheticGenerator::new(&spec, 5).unwrap();
        let before: Vec<_> = std::iter::from_fn(|| generator.next_before(stop, |arrival| arrival.0)).collect();
        assert_eq!(before, all[..99]);
        assert!(generator.stopped());
        assert_eq!(generator.next_before(stop, |arrival| arrival.0), None, "stays ended");
        // The clock mapping is the caller's: doubled arrivals reach the stop twice as early.
        let mut doubled = SyntheticGenerator::new(&spec, 5).unwrap();
        let count = std::iter::from_fn(|| doubled.next_before(stop, |arrival| arrival.0 * 2)).count();
        assert_eq!(count, all.iter().take_while(|r| r.arrival.0 * 2 < stop).count());
        // A stop beyond the last arrival: the bound ends the stream, not the stop.
        let mut bounded = SyntheticGenerator::new(&spec, 5).unwrap();
        let count = std::iter::from_fn(|| bounded.next_before(u64::MAX, |arrival| arrival.0)).count();
        assert_eq!((count, bounded.stopped()), (1_000, false));
    }

    #[test]
    fn stop_time_is_checked_and_makes_requests_a_bound() {
        let zero = SyntheticSpec { stop_time_ns: Some(0), ..spec(AddressDistribution::Uniform) };
        assert!(
            matches!(zero.validate(), Err(WorkloadError::InvalidSynthetic { field, .. }) if field == "stop_time_ns")
        );
        let unbounded = SyntheticSpec { requests: 0, stop_time_ns: Some(1_000), ..spec(AddressDistribution::Uniform) };
        match unbounded.validate() {
            Err(WorkloadError::InvalidSynthetic { field, message }) => {
                assert_eq!(field, "requests");
                assert!(message.contains("upper bound"), "{message}");
            }
            other => panic!("expected an invalid requests, got {other:?}"),
        }
        assert!(SyntheticSpec { stop_time_ns: Some(1), ..spec(AddressDistribution::Uniform) }.validate().is_ok());
    }
}
