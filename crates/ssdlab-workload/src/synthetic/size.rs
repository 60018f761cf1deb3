//! Request sizes of synthetic workloads.

use crate::error::WorkloadError;
use ssdlab_engine::random::Xoshiro256PlusPlus;

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "distribution", rename_all = "snake_case", deny_unknown_fields)]
pub enum SizeDistribution {
    Fixed {
        bytes: u64,
    },
    /// Uniform over multiples of the alignment between min and max (inclusive).
    Uniform {
        min_bytes: u64,
        max_bytes: u64,
    },
    /// Weighted choice among sizes.
    Choice {
        bytes: Vec<u64>,
        weights: Vec<f64>,
    },
}

impl SizeDistribution {
    pub fn validate(&self, alignment: u64, span: u64) -> Result<(), WorkloadError> {
        let invalid = |field: &str, message: String| {
            Err(WorkloadError::InvalidSynthetic { field: format!("size.{field}"), message })
        };
        match self {
            SizeDistribution::Fixed { bytes } if *bytes == 0 || *bytes > span => {
                invalid("bytes", format!("must be in 1..={span}, got {bytes}"))
            }
            SizeDistribution::Uniform { min_bytes, max_bytes } => {
                if *min_bytes == 0 || min_bytes > max_bytes {
                    return invalid(
                        "min_bytes",
                        format!("need 0 < min_bytes <= max_bytes, got {min_bytes} and {max_bytes}"),
                    );
                }
                if *max_bytes > span {
                    return invalid("max_bytes", format!("larger than the span ({span} bytes)"));
                }
                if max_bytes / alignment < min_bytes.div_ceil(alignment) {
                    return invalid(
                        "max_bytes",
                        format!("no multiple of the alignment ({alignment} bytes) lies in [{min_bytes}, {max_bytes}]"),
                    );
                }
                Ok(())
            }
            SizeDistribution::Choice { bytes, weights } => {
                if bytes.is_empty() || bytes.len() != weights.len() {
                    return invalid(
                        "weights",
                        format!(
                            "need as many weights as sizes (>= 1), got {} sizes and {} weights",
                            bytes.len(),
                            weights.len()
                        ),
                    );
                }
                if bytes.iter().any(|&b| b == 0 || b > span) {
                    return invalid("bytes", format!("every size must be in 1..={span}"));
                }
                if weights.iter().any(|&w| !(w >= 0.0 && w.is_finite())) || weights.iter().sum::<f64>() <= 0.0 {
                    return invalid("weights", "must be non-negative with a positive sum".into());
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    #[inline]
    pub fn sample(&self, rng: &mut Xoshiro256PlusPlus, alignment: u64) -> u64 {
        match self {
            SizeDistribution::Fixed { bytes } => *bytes,
            SizeDistribution::Uniform { min_bytes, max_bytes } => {
                let low = min_bytes.div_ceil(alignment);
                let high = max_bytes / alignment;
                (low + rng.below(high - low + 1)) * alignment
            }
            SizeDistribution::Choice { bytes, weights } => {
                let total: f64 = weights.iter().sum();
                let mut target = rng.next_f64() * total;
                for (size, weight) in bytes.iter().zip(weights) {
                    if target < *weight {
                        return *size;
                    }
                    target -= weight;
                }
                *bytes.last().unwrap_or(&alignment)
            }
        }
    }
}
