//! Zipf-distributed ranks by rejection-inversion (W. Hörmann and G. Derflinger, "Rejection-inversion
//! to generate variates from monotone discrete distributions", ACM TOMACS 6(3), 1996). O(1) per sample
//! and O(1) memory for any number of elements, which matters for multi-million-page address spaces.

use ssdlab_engine::random::Xoshiro256PlusPlus;

#[derive(Debug, Clone)]
pub struct ZipfSampler {
    elements: f64,
    exponent: f64,
    h_integral_x1: f64,
    h_integral_elements: f64,
    s: f64,
}

impl ZipfSampler {
    /// `elements` >= 1, `exponent` > 0.
    pub fn new(elements: u64, exponent: f64) -> Self {
        let n = elements.max(1) as f64;
        let mut sampler = ZipfSampler { elements: n, exponent, h_integral_x1: 0.0, h_integral_elements: 0.0, s: 0.0 };
        sampler.h_integral_x1 = sampler.h_integral(1.5) - 1.0;
        sampler.h_integral_elements = sampler.h_integral(n + 0.5);
        sampler.s = 2.0 - sampler.h_integral_inverse(sampler.h_integral(2.5) - sampler.h(2.0));
        sampler
    }

    /// A rank in [1, elements]; rank 1 is the most popular.
    pub fn sample(&self, rng: &mut Xoshiro256PlusPlus) -> u64 {
        loop {
            let u = self.h_integral_elements + rng.next_f64() * (self.h_integral_x1 - self.h_integral_elements);
            let x = self.h_integral_inverse(u);
            let k = (x + 0.5).floor().clamp(1.0, self.elements);
            if k - x <= self.s || u >= self.h_integral(k + 0.5) - self.h(k) {
                return k as u64;
            }
        }
    }

    fn h(&self, x: f64) -> f64 {
        (-self.exponent * x.ln()).exp()
    }

    fn h_integral(&self, x: f64) -> f64 {
        let log_x = x.ln();
        helper2((1.0 - self.exponent) * log_x) * log_x
    }

    fn h_integral_inverse(&self, x: f64) -> f64 {
        let t = (x * (1.0 - self.exponent)).max(-1.0);
        (helper1(t) * x).exp()
    }
}

/// ln(1 + x) / x, accurate near 0.
fn helper1(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.ln_1p() / x
    } else {
        1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x))
    }
}

/// (exp(x) - 1) / x, accurate near 0.
fn helper2(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.exp_m1() / x
    } else {
        1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_zipf_frequencies() {
        let sampler = ZipfSampler::new(100, 1.0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut counts = [0u64; 101];
        let draws = 200_000;
        for _ in 0..draws {
            counts[sampler.sample(&mut rng) as usize] += 1;
        }
        let harmonic: f64 = (1..=100).map(|k| 1.0 / k as f64).sum();
        for k in [1usize, 2, 10] {
            let expected = draws as f64 / (k as f64 * harmonic);
            let observed = counts[k] as f64;
            assert!((observed - expected).abs() / expected < 0.05, "rank {k}: {observed} vs {expected}");
        }
    }
}
