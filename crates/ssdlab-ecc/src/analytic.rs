//! Exact frame error rates where simulation cannot reach: a t-error-correcting code fails exactly
//! when more than t of its n bits are in error.
//!
//! - Independent bit errors at rate p: the binomial tail P(X > t), X ~ Binomial(n, p). This is
//!   exact for BCH over the lab's channel, whose cells err independently given the stress.
//! - Rate spread across chips or blocks: p ~ Beta with the given mean and coefficient of variation,
//!   giving the beta-binomial tail (seed 002 Fig. 9: four chips differ noticeably).
//!
//! Sums run in log space term by term (term ratio (n - k) / (k + 1) x p / (1 - p)), accurate down
//! to 1e-300. Source: Lin & Costello ch. 6 (bounded-distance decoding); the beta-binomial after
//! Skellam (1948).

/// P(more than `t` errors among `n` bits), each in error independently with probability `p`.
pub fn binomial_tail(n: u64, t: u64, p: f64) -> f64 {
    if p <= 0.0 || t >= n {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let k0 = t + 1;
    // ln C(n, k0) + k0 ln p + (n - k0) ln(1 - p)
    let ln_choose: f64 = (0..k0).map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln()).sum();
    let mut ln_term = ln_choose + k0 as f64 * p.ln() + (n - k0) as f64 * (-p).ln_1p();
    let ratio = (p / (1.0 - p)).ln();
    // Sum terms relative to the largest seen, to stay in range.
    let mut peak = ln_term;
    let mut sum = 1.0f64;
    let mean = n as f64 * p;
    let mut k = k0;
    while k < n {
        ln_term += ((n - k) as f64).ln() - ((k + 1) as f64).ln() + ratio;
        k += 1;
        if ln_term > peak {
            sum = sum * (peak - ln_term).exp() + 1.0;
            peak = ln_term;
        } else {
            let relative = (ln_term - peak).exp();
            sum += relative;
            if (k as f64) > mean && relative < 1e-18 * sum {
                break;
            }
        }
    }
    (peak + sum.ln()).exp().min(1.0)
}

/// The bit error rate at which [`binomial_tail`] equals `target` (bisection in log p).
pub fn binomial_tolerable_rate(n: u64, t: u64, target: f64) -> f64 {
    let (mut low, mut high) = (1e-12f64.ln(), 0.5f64.ln());
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if binomial_tail(n, t, mid.exp()) < target {
            low = mid;
        } else {
            high = mid;
        }
    }
    (0.5 * (low + high)).exp()
}

/// P(more than `t` errors among `n` bits) when the bit error rate itself varies from frame to frame
/// as a Beta distribution with mean `mean_p` and coefficient of variation `cv` (std / mean).
/// `cv` = 0 is the binomial tail.
pub fn beta_binomial_tail(n: u64, t: u64, mean_p: f64, cv: f64) -> f64 {
    if cv <= 0.0 {
        return binomial_tail(n, t, mean_p);
    }
    let variance = (cv * mean_p).powi(2);
    // Beta(a, b) with the given mean and variance (needs variance < mean (1 - mean)).
    let common = (mean_p * (1.0 - mean_p) / variance - 1.0).max(1e-9);
    let (a, b) = (mean_p * common, (1.0 - mean_p) * common);
    let ln_norm = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b);
    // Integrate tail(p) x density(p) over ln p with the trapezoid rule on a fine grid spanning the
    // bulk of the Beta distribution (1e-6 x mean .. min(1, 1e3 x mean)).
    let (low, high) = ((mean_p * 1e-6).ln(), (mean_p * 1e3).min(1.0 - 1e-12).ln());
    let steps = 4000;
    let h = (high - low) / steps as f64;
    let mut total = 0.0;
    let mut mass = 0.0;
    for i in 0..=steps {
        let x = low + h * i as f64;
        let p = x.exp();
        let weight = if i == 0 || i == steps { 0.5 } else { 1.0 };
        // density in ln p: f(p) x p
        let density = (ln_norm + (a - 1.0) * x + (b - 1.0) * (-p).ln_1p() + x).exp();
        mass += weight * density * h;
        total += weight * density * h * binomial_tail(n, t, p);
    }
    // Normalise by the mass actually covered by the grid.
    if mass > 0.0 {
        (total / mass).min(1.0)
    } else {
        binomial_tail(n, t, mean_p)
    }
}

/// ln Gamma(x) for x > 0 (Lanczos, g = 7, nine coefficients; relative error ~1e-15).
pub fn ln_gamma(x: f64) -> f64 {
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (i, &c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_tail_matches_direct_sums_on_small_cases() {
        // n = 10, t = 2, p = 0.1: 1 - sum_{k<=2} C(10,k) 0.1^k 0.9^(10-k).
        let direct = 1.0 - (0.9f64.powi(10) + 10.0 * 0.1 * 0.9f64.powi(9) + 45.0 * 0.01 * 0.9f64.powi(8));
        assert!((binomial_tail(10, 2, 0.1) - direct).abs() < 1e-12);
        assert_eq!(binomial_tail(10, 10, 0.3), 0.0);
        assert!((binomial_tail(10, 0, 0.5) - (1.0 - 0.5f64.powi(10))).abs() < 1e-12);
    }

    #[test]
    fn binomial_tail_is_monotone_and_reaches_tiny_values() {
        let n = 36_856;
        let mut previous = 0.0;
        for p in [1e-4, 1e-3, 3e-3, 5e-3, 7e-3, 1e-2] {
            let value = binomial_tail(n, 256, p);
            assert!(value >= previous);
            previous = value;
        }
        let tiny = binomial_tail(n, 256, 1e-3);
        assert!(tiny > 0.0 && tiny < 1e-60, "{tiny:e}");
        let rate = binomial_tolerable_rate(n, 256, 1e-15);
        assert!((binomial_tail(n, 256, rate) / 1e-15 - 1.0).abs() < 1e-6);
    }

    #[test]
    fn ln_gamma_of_integers_is_ln_factorial() {
        let mut factorial = 1.0f64;
        for k in 1..20u32 {
            assert!((ln_gamma(k as f64) - factorial.ln()).abs() < 1e-10, "{k}");
            factorial *= k as f64;
        }
    }

    #[test]
    fn spread_across_chips_raises_the_failure_rate_below_the_knee() {
        let n = 36_856;
        let p = 4e-3;
        let plain = binomial_tail(n, 256, p);
        assert!((beta_binomial_tail(n, 256, p, 0.0) - plain).abs() < 1e-300);
        let spread = beta_binomial_tail(n, 256, p, 0.2);
        assert!(spread > 10.0 * plain, "plain {plain:e} spread {spread:e}");
    }
}
