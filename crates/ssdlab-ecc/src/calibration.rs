//! Calibration of the channel's wear constant against seed 002's measured anchor.
//!
//! Seed 002 (§4.1, §5) measured commercial 25 nm MLC chips (four chips, every block) after 10,000 P/E
//! cycles with wear-out recovery and one month of retention at 40 C (baked per its eq. 5-6), and from
//! those raw bit error rates and its LDPC curves estimated that hard-decision LDPC decoding fails on
//! 28.8 % of reads. That is the one published operating point this lab can be tied to: the failure
//! probability of *our* hard-decision decoder on *our* channel at that stress, averaged over the four
//! chips and both page types, should be 28.8 %. [`fit_wear_noise_scale`] finds the multiplier of the
//! wear-induced noise (`wear_noise_scale`) that makes it so, by bisection on a Monte Carlo estimate
//! with a fixed seed;
//! [`hard_failure_probability`] is the estimate itself. Run it with
//! `cargo run --release -p ssdlab-ecc --example calibrate_seed002`.
//!
//! Left out: block-to-block spread within a chip (seed 002 averages over every block; the model has
//! one factor per chip), so the fitted wear is the one that puts the chip-and-page mixture at 28.8 %.

use crate::channel::{Channel, ChannelParameters, Stress};
use crate::monte_carlo::{run_point, Codes, DecoderKind, StopRule};
use crate::read_model::LlrSource;

/// Seed 002's anchor: hard-decision LDPC failure probability at 10,000 P/E, one month at 40 C.
pub const SEED002_HARD_FAILURE: f64 = 0.288;
pub const SEED002_PE_CYCLES: f64 = 10_000.0;
pub const SEED002_RETENTION_HOURS: f64 = 30.0 * 24.0;

/// The hard-decision LDPC frame error rate at a stress, averaged over every chip factor and page
/// type of `parameters` (each estimated from `frames_per_case` frames).
pub fn hard_failure_probability(
    codes: &Codes,
    parameters: &ChannelParameters,
    pe_cycles: f64,
    retention_hours: f64,
    frames_per_case: u64,
    seed: u64,
) -> f64 {
    let per_chip = failure_probability_per_chip(
        codes,
        parameters,
        DecoderKind::LdpcHard,
        pe_cycles,
        retention_hours,
        frames_per_case,
        seed,
    );
    per_chip.iter().sum::<f64>() / per_chip.len() as f64
}

/// A decoder's frame error rate at a stress for each chip factor of `parameters`, averaged over the
/// page types (each (chip, page) estimated from `frames_per_case` frames).
pub fn failure_probability_per_chip(
    codes: &Codes,
    parameters: &ChannelParameters,
    decoder: DecoderKind,
    pe_cycles: f64,
    retention_hours: f64,
    frames_per_case: u64,
    seed: u64,
) -> Vec<f64> {
    let chips = parameters.chip_factors.len().max(1);
    let pages = parameters.cell.bits();
    (0..chips)
        .map(|chip| {
            let stress = Stress { chip, ..Stress::new(pe_cycles, retention_hours) };
            let channel = Channel::new(parameters, stress);
            let total: f64 = (0..pages)
                .map(|page| {
                    let stop = StopRule { target_failures: u64::MAX, max_frames: frames_per_case };
                    run_point(
                        codes,
                        &channel,
                        page,
                        decoder,
                        stop,
                        seed ^ ((chip * pages + page) as u64) << 32,
                        LlrSource::Channel,
                    )
                    .frame_error_rate
                })
                .sum();
            total / pages as f64
        })
        .collect()
}

/// The `wear_noise_scale` (other constants kept) at which [`hard_failure_probability`] at seed
/// 002's stress equals `target`; the failure probability grows with the scale.
pub fn fit_wear_noise_scale(
    codes: &Codes,
    parameters: &ChannelParameters,
    target: f64,
    frames_per_case: u64,
    seed: u64,
    mut report: impl FnMut(f64, f64),
) -> f64 {
    let (mut low, mut high) = (0.25f64, 16.0f64);
    for _ in 0..12 {
        let middle = (low * high).sqrt();
        let trial = ChannelParameters { wear_noise_scale: middle, ..parameters.clone() };
        let failure =
            hard_failure_probability(codes, &trial, SEED002_PE_CYCLES, SEED002_RETENTION_HOURS, frames_per_case, seed);
        report(middle, failure);
        if failure < target {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low * high).sqrt()
}
