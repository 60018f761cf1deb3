//! Where synthetic requests land, in units of alignment slots.

use super::zipf::ZipfSampler;
use crate::error::WorkloadError;
use ssdlab_engine::random::Xoshiro256PlusPlus;

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "distribution", rename_all = "snake_case", deny_unknown_fields)]
pub enum AddressDistribution {
    Uniform,
    /// Zipf over slots with the given exponent; popular slots are scattered over the span by a fixed
    /// bijection, so hot data is not one contiguous region.
    Zipf {
        exponent: f64,
    },
    /// `hot_access_fraction` of requests go to the first `hot_space_fraction` of the span.
    HotCold {
        hot_space_fraction: f64,
        hot_access_fraction: f64,
    },
    /// Runs of `run_requests` consecutive requests, each run starting at a uniform random slot.
    Sequential {
        run_requests: u64,
    },
}

impl AddressDistribution {
    pub fn validate(&self) -> Result<(), WorkloadError> {
        let invalid = |field: &str, message: String| {
            Err(WorkloadError::InvalidSynthetic { field: format!("address.{field}"), message })
        };
        match *self {
            AddressDistribution::Zipf { exponent } if !(exponent > 0.0 && exponent.is_finite()) => {
                invalid("exponent", format!("must be positive, got {exponent}"))
            }
            AddressDistribution::HotCold { hot_space_fraction, hot_access_fraction } => {
                if !(hot_space_fraction > 0.0 && hot_space_fraction < 1.0) {
                    return invalid("hot_space_fraction", format!("must be in (0, 1), got {hot_space_fraction}"));
                }
                if !(0.0..=1.0).contains(&hot_access_fraction) {
                    return invalid("hot_access_fraction", format!("must be in [0, 1], got {hot_access_fraction}"));
                }
                Ok(())
            }
            AddressDistribution::Sequential { run_requests: 0 } => invalid("run_requests", "must be at least 1".into()),
            _ => Ok(()),
        }
    }
}

pub(crate) struct AddressSampler {
    kind: AddressDistribution,
    slots: u64,
    zipf: Option<ZipfSampler>,
    scatter: u64,
    run_left: u64,
    next_sequential: u64,
}

impl AddressSampler {
    pub fn new(kind: &AddressDistribution, slots: u64) -> Self {
        let zipf = match kind {
            AddressDistribution::Zipf { exponent } => Some(ZipfSampler::new(slots, *exponent)),
            _ => None,
        };
        AddressSampler {
            kind: kind.clone(),
            slots,
            zipf,
            scatter: coprime_stride(slots),
            run_left: 0,
            next_sequential: 0,
        }
    }

    /// A starting slot such that `size_slots` slots fit in the span.
    #[inline]
    pub fn sample(&mut self, rng: &mut Xoshiro256PlusPlus, size_slots: u64) -> u64 {
        let room = self.slots - size_slots.min(self.slots) + 1;
        match self.kind {
            AddressDistribution::Uniform => rng.below(room),
            AddressDistribution::Zipf { .. } => {
                let rank = self.zipf.as_ref().map_or(1, |z| z.sample(rng)) - 1;
                let slot = ((rank as u128 * self.scatter as u128) % self.slots as u128) as u64;
                slot.min(room - 1)
            }
            AddressDistribution::HotCold { hot_space_fraction, hot_access_fraction } => {
                let hot_slots = ((self.slots as f64 * hot_space_fraction) as u64).clamp(1, room);
                if rng.next_f64() < hot_access_fraction || hot_slots >= room {
                    rng.below(hot_slots)
                } else {
                    hot_slots + rng.below(room - hot_slots)
                }
            }
            AddressDistribution::Sequential { run_requests } => {
                if self.run_left == 0 || self.next_sequential >= room {
                    self.next_sequential = rng.below(room);
                    self.run_left = run_requests;
                }
                let slot = self.next_sequential;
                self.run_left -= 1;
                self.next_sequential = slot + size_slots;
                slot
            }
        }
    }
}

/// A multiplier coprime with `n` near n / golden ratio, so rank -> slot is a bijection that scatters
/// neighbouring ranks far apart.
fn coprime_stride(n: u64) -> u64 {
    if n <= 2 {
        return 1;
    }
    let mut candidate = ((n as f64 * 0.618_033_988_75) as u64).max(1) | 1;
    while gcd(candidate, n) != 1 {
        candidate += 2;
    }
    candidate % n
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
