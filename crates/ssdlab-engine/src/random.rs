//! Seeded pseudo-random numbers: xoshiro256++ seeded through SplitMix64 (Blackman & Vigna,
//! "Scrambled linear pseudorandom number generators", 2021). Written out here (a dozen lines) so the
//! stream is fixed by this file alone and never changes with a dependency upgrade: the same seed gives
//! the same simulation on every machine and every release.

/// SplitMix64 step; used to expand a 64-bit seed into generator state and to derive sub-seeds.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives an independent seed for a named stream (e.g. "workload", "aging") from a run seed.
pub fn derive_seed(run_seed: u64, stream: &str) -> u64 {
    let mut state = run_seed;
    for byte in stream.bytes() {
        state ^= byte as u64;
        splitmix64(&mut state);
    }
    splitmix64(&mut state)
}

#[derive(Debug, Clone)]
pub struct Xoshiro256PlusPlus {
    s: [u64; 4],
}

impl Xoshiro256PlusPlus {
    pub fn seed_from_u64(seed: u64) -> Self {
        let mut state = seed;
        let s = [splitmix64(&mut state), splitmix64(&mut state), splitmix64(&mut state), splitmix64(&mut state)];
        Xoshiro256PlusPlus { s }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = (self.s[0].wrapping_add(self.s[3])).rotate_left(23).wrapping_add(self.s[0]);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform integer in [0, bound); `bound` must be non-zero. Lemire's multiply-shift with rejection,
    /// so the result is exactly uniform.
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        let mut product = (self.next_u64() as u128) * (bound as u128);
        let mut low = product as u64;
        if low < bound {
            let threshold = bound.wrapping_neg() % bound;
            while low < threshold {
                product = (self.next_u64() as u128) * (bound as u128);
                low = product as u64;
            }
        }
        (product >> 64) as u64
    }

    /// Exponentially distributed with the given mean.
    ///
    /// Ziggurat method (Marsaglia & Tsang, "The ziggurat method for generating random variables",
    /// J. Stat. Softw. 5(8), 2000) with 256 layers: about 99 % of samples cost one 64-bit draw, a
    /// multiply and a compare; the rest fall back to the exact wedge test or the tail (r + Exp(1),
    /// the exponential being memoryless). One draw gives both the layer (low 8 bits) and the
    /// uniform (high 53 bits), so they are independent. (A logarithm per sample cost a fifth of
    /// the synthetic generator's time.)
    #[inline]
    pub fn exponential(&mut self, mean: f64) -> f64 {
        mean * self.standard_exponential()
    }

    /// Exponential with mean 1 (see [`Xoshiro256PlusPlus::exponential`]).
    #[inline]
    pub fn standard_exponential(&mut self) -> f64 {
        let table = exponential_ziggurat();
        loop {
            let bits = self.next_u64();
            let layer = (bits & 0xFF) as usize;
            let z = (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * table.x[layer];
            if z < table.x[layer + 1] {
                return z;
            }
            if let Some(value) = self.exponential_slow_path(table, layer, z) {
                return value;
            }
        }
    }

    #[cold]
    fn exponential_slow_path(&mut self, table: &ExponentialZiggurat, layer: usize, z: f64) -> Option<f64> {
        if layer == 0 {
            // The base layer's part beyond r is the tail.
            return Some(ZIGGURAT_R - (1.0 - self.next_f64()).ln());
        }
        // Wedge: accept if a uniform height in the layer lies under the density at z.
        let height = table.f[layer] + self.next_f64() * (table.f[layer + 1] - table.f[layer]);
        (height < (-z).exp()).then_some(z)
    }
}

/// Layer count of the exponential ziggurat and its constants (Marsaglia & Tsang 2000, Table 1):
/// `ZIGGURAT_R` is the right edge of the lowest rectangle, `ZIGGURAT_V` every layer's area.
const ZIGGURAT_LAYERS: usize = 256;
const ZIGGURAT_R: f64 = 7.697_117_470_131_05;
const ZIGGURAT_V: f64 = 3.949_659_822_581_557e-3;

/// Layer edges `x[i]` (x[0] = V / f(r) is the base layer's width including the tail, x[1] = r,
/// x[256] = 0) and the density at each edge, `f[i] = exp(-x[i])`.
struct ExponentialZiggurat {
    x: [f64; ZIGGURAT_LAYERS + 1],
    f: [f64; ZIGGURAT_LAYERS + 1],
}

fn exponential_ziggurat() -> &'static ExponentialZiggurat {
    static TABLE: std::sync::OnceLock<ExponentialZiggurat> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut x = [0.0; ZIGGURAT_LAYERS + 1];
        let mut f = [0.0; ZIGGURAT_LAYERS + 1];
        x[0] = ZIGGURAT_V / (-ZIGGURAT_R).exp();
        x[1] = ZIGGURAT_R;
        for i in 1..ZIGGURAT_LAYERS - 1 {
            // Each layer has area V: f(x[i+1]) = f(x[i]) + V / x[i].
            x[i + 1] = -((-x[i]).exp() + ZIGGURAT_V / x[i]).ln();
        }
        x[ZIGGURAT_LAYERS] = 0.0;
        for i in 0..=ZIGGURAT_LAYERS {
            f[i] = (-x[i]).exp();
        }
        ExponentialZiggurat { x, f }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut b = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(derive_seed(1, "workload"), derive_seed(1, "aging"));
    }

    #[test]
    fn ziggurat_layers_close_at_the_top() {
        let table = exponential_ziggurat();
        // The constants are consistent: the top layer, [0, x[255]] x [f(x[255]), 1], also has area V
        // (it does only if r and V match), and the edges decrease.
        let top_area = table.x[255] * (1.0 - table.f[255]);
        assert!((top_area / ZIGGURAT_V - 1.0).abs() < 1e-6, "top layer area {top_area}");
        assert!(table.x.windows(2).skip(1).all(|pair| pair[0] > pair[1]));
    }

    #[test]
    fn exponential_has_the_moments_and_tail_of_exp_1() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let n = 2_000_000;
        let (mut sum, mut sum_squares, mut beyond_3, mut beyond_8, mut below_0_05) = (0.0, 0.0, 0u64, 0u64, 0u64);
        for _ in 0..n {
            let value = rng.standard_exponential();
            assert!(value >= 0.0 && value.is_finite());
            sum += value;
            sum_squares += value * value;
            beyond_3 += (value > 3.0) as u64;
            beyond_8 += (value > 8.0) as u64;
            below_0_05 += (value < 0.05) as u64;
        }
        let mean = sum / n as f64;
        let variance = sum_squares / n as f64 - mean * mean;
        // Standard errors: mean 1/sqrt(n) = 7e-4, variance about 3e-3; P(X > 3) = 0.0498 (se 1.5e-4);
        // P(X > 8) = 3.35e-4 (tail path; expect 671 +- 26).
        assert!((mean - 1.0).abs() < 4e-3, "mean {mean}");
        assert!((variance - 1.0).abs() < 1.5e-2, "variance {variance}");
        assert!((beyond_3 as f64 / n as f64 - (-3.0f64).exp()).abs() < 8e-4, "P(X>3) {}", beyond_3 as f64 / n as f64);
        assert!((beyond_8 as f64 - n as f64 * (-8.0f64).exp()).abs() < 130.0, "beyond 8: {beyond_8}");
        // The top layer's wedge: P(X < 0.05) = 0.04877 (se 1.5e-4).
        assert!(
            (below_0_05 as f64 / n as f64 - (1.0 - (-0.05f64).exp())).abs() < 8e-4,
            "P(X<0.05) {}",
            below_0_05 as f64 / n as f64
        );
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = rng.below(7) as usize;
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
