//! Calibration of the channel's wear constant against a seed's published operating point: one
//! anchor per chip the seeds measured.
//!
//! Seed 002 (§4.1, §5) measured commercial 25 nm MLC chips (four chips, every block) after 10,000 P/E
//! cycles with wear-out recovery and one month of retention at 40 C (baked per its eq. 5-6), and from
//! those raw bit error rates and its LDPC curves estimated that hard-decision LDPC decoding fails on
//! 28.8 % of reads. That is the one published operating point this lab can be tied to for that chip:
//! the failure probability of *our* hard-decision decoder on *our* channel at that stress, averaged
//! over the four chips and both page types, should be 28.8 %. [`fit_wear_noise_scale`] finds the
//! multiplier of the wear-induced noise (`wear_noise_scale`) that makes it so, by bisection on a Monte
//! Carlo estimate with a fixed seed; [`hard_failure_probability`] is the estimate itself. Run it with
//! `cargo run --release -p ssdlab-ecc --example calibrate_seed002`.
//!
//! Seed 000 measured a different chip: a 2x-nm MLC (its reference [1], rated about 3,000 P/E). Its
//! Fig. 5 (tolerable P/E of Quick-LDPC and EP-LDPC against data retention) is missing from the text
//! copy; the numbers its text gives are that prxy_1, a hot workload (data rewritten within a day),
//! switches from Quick-LDPC to EP-LDPC near 2,000 P/E (§3, Fig. 6), and that the hot switch point is
//! 2.3x the cold one. The first is a point on Fig. 5's Quick-LDPC curve: Quick-LDPC's tolerable P/E
//! for 24 h old data is 2,000. [`fit_seed000_wear_noise_scale`] fits the same one constant to it, with
//! the tolerable-P/E criterion ssdlab's AOA-ECC uses (failure probability 1 %, mean over chips and
//! pages); the hot/cold ratio is then a consequence of the channel's retention behaviour, not a
//! second fit (one constant cannot hold two anchors). Run it with
//! `cargo run --release -p ssdlab-ecc --example calibrate_seed000`.
//!
//! Left out: block-to-block spread within a chip (seed 002 averages over every block; the model has
//! one factor per chip), so the fitted wear is the one that puts the chip-and-page mixture on the
//! anchor.

use crate::channel::{Channel, ChannelParameters, Stress};
use crate::monte_carlo::{run_point, Codes, DecoderKind, StopRule};
use crate::read_model::LlrSource;

/// Seed 002's anchor: hard-decision LDPC failure probability at 10,000 P/E, one month at 40 C.
pub const SEED002_HARD_FAILURE: f64 = 0.288;
pub const SEED002_PE_CYCLES: f64 = 10_000.0;
pub const SEED002_RETENTION_HOURS: f64 = 30.0 * 24.0;

/// Seed 000's anchor: Quick-LDPC's tolerable P/E (1 % failure) for hot data (a day old) is 2,000.
pub const SEED000_SWITCH_PE_CYCLES: f64 = 2_000.0;
pub const SEED000_HOT_RETENTION_HOURS: f64 = 24.0;
pub const SEED000_TARGET_FAILURE: f64 = 0.01;

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
    report: impl FnMut(f64, f64),
) -> f64 {
    let anchor = Anchor {
        decoder: DecoderKind::LdpcHard,
        pe_cycles: SEED002_PE_CYCLES,
        retention_hours: SEED002_RETENTION_HOURS,
        failure: target,
    };
    fit_to_anchor(codes, parameters, anchor, frames_per_case, seed, report)
}

/// The `wear_noise_scale` at which Quick-LDPC fails on 1 % of reads (mean over chips and pages) at
/// 2,000 P/E for 24 h old data: seed 000's hot switch point.
pub fn fit_seed000_wear_noise_scale(
    codes: &Codes,
    parameters: &ChannelParameters,
    frames_per_case: u64,
    seed: u64,
    report: impl FnMut(f64, f64),
) -> f64 {
    let anchor = Anchor {
        decoder: DecoderKind::QuickLdpc,
        pe_cycles: SEED000_SWITCH_PE_CYCLES,
        retention_hours: SEED000_HOT_RETENTION_HOURS,
        failure: SEED000_TARGET_FAILURE,
    };
    fit_to_anchor(codes, parameters, anchor, frames_per_case, seed, report)
}

/// A published operating point: `decoder` fails with probability `failure` at this stress.
#[derive(Debug, Clone, Copy)]
pub struct Anchor {
    pub decoder: DecoderKind,
    pub pe_cycles: f64,
    pub retention_hours: f64,
    pub failure: f64,
}

/// The failure probability of `anchor`'s decoder at its stress, mean over chips and pages.
pub fn anchor_failure_probability(
    codes: &Codes,
    parameters: &ChannelParameters,
    anchor: Anchor,
    frames_per_case: u64,
    seed: u64,
) -> f64 {
    let per_chip = failure_probability_per_chip(
        codes,
        parameters,
        anchor.decoder,
        anchor.pe_cycles,
        anchor.retention_hours,
        frames_per_case,
        seed,
    );
    per_chip.iter().sum::<f64>() / per_chip.len() as f64
}

/// Bisection in log scale on `wear_noise_scale` (0.25 to 16, 12 halvings: 0.1 % of the bracket's
/// ratio); the failure probability grows with the scale. `report(scale, failure)` sees each trial.
pub fn fit_to_anchor(
    codes: &Codes,
    parameters: &ChannelParameters,
    anchor: Anchor,
    frames_per_case: u64,
    seed: u64,
    mut report: impl FnMut(f64, f64),
) -> f64 {
    let (mut low, mut high) = (0.25f64, 16.0f64);
    for _ in 0..12 {
        let middle = (low * high).sqrt();
        let trial = ChannelParameters { wear_noise_scale: middle, ..parameters.clone() };
        let failure = anchor_failure_probability(codes, &trial, anchor, frames_per_case, seed);
        report(middle, failure);
        if failure < anchor.failure {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low * high).sqrt()
}
