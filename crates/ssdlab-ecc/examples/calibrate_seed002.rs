//! `cargo run --release -p ssdlab-ecc --example calibrate_seed002 [FRAMES_PER_CASE]`: fits the MLC
//! wear-noise multiplier so that hard-decision LDPC fails on 28.8 % of reads at 10,000 P/E and one month at
//! 40 C (seed 002's measured anchor), then prints the failure probability of the shipped defaults.

use ssdlab_ecc::calibration::{
    fit_wear_noise_scale, hard_failure_probability, SEED002_HARD_FAILURE, SEED002_PE_CYCLES, SEED002_RETENTION_HOURS,
};
use ssdlab_ecc::channel::{CellKind, ChannelParameters};
use ssdlab_ecc::monte_carlo::Codes;

fn main() {
    let frames: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(400);
    let codes = Codes::storage_4kb();
    let defaults = ChannelParameters::default_for(CellKind::Mlc);
    let fitted = fit_wear_noise_scale(&codes, &defaults, SEED002_HARD_FAILURE, frames, 2, |scale, failure| {
        println!("wear_noise_scale {scale:>6.3}: hard-decision failure {:.1} %", 100.0 * failure);
    });
    println!("fitted wear_noise_scale = {fitted:.3} (shipped default {})", defaults.wear_noise_scale);
    let shipped = hard_failure_probability(&codes, &defaults, SEED002_PE_CYCLES, SEED002_RETENTION_HOURS, frames, 7);
    println!(
        "shipped defaults: hard-decision failure {:.1} % at 10,000 P/E, one month at 40 C (seed 002: 28.8 %)",
        100.0 * shipped
    );
}
