//! `cargo run --release -p ssdlab-ecc --example calibrate_seed000 [FRAMES_PER_CASE]`: fits the MLC
//! wear-noise multiplier of seed 000's chip so that Quick-LDPC fails on 1 % of reads at 2,000 P/E for
//! 24 h old data at 40 C (seed 000: prxy_1, hot, switches to EP-LDPC near 2,000 P/E), then prints the
//! failure probability of the shipped seed-000 channel at that anchor.

use ssdlab_ecc::calibration::{
    anchor_failure_probability, fit_seed000_wear_noise_scale, Anchor, SEED000_HOT_RETENTION_HOURS,
    SEED000_SWITCH_PE_CYCLES, SEED000_TARGET_FAILURE,
};
use ssdlab_ecc::channel::ChannelParameters;
use ssdlab_ecc::monte_carlo::{Codes, DecoderKind};

fn main() {
    let frames: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let codes = Codes::storage_4kb();
    let shipped = ChannelParameters::seed000_mlc();
    let fitted = fit_seed000_wear_noise_scale(&codes, &shipped, frames, 2, |scale, failure| {
        println!("wear_noise_scale {scale:>6.3}: Quick-LDPC failure {:.2} %", 100.0 * failure);
    });
    println!("fitted wear_noise_scale = {fitted:.3} (shipped seed-000 value {})", shipped.wear_noise_scale);
    let anchor = Anchor {
        decoder: DecoderKind::QuickLdpc,
        pe_cycles: SEED000_SWITCH_PE_CYCLES,
        retention_hours: SEED000_HOT_RETENTION_HOURS,
        failure: SEED000_TARGET_FAILURE,
    };
    let at_anchor = anchor_failure_probability(&codes, &shipped, anchor, frames, 7);
    println!(
        "shipped seed-000 channel: Quick-LDPC failure {:.2} % at 2,000 P/E, 24 h at 40 C (anchor: 1 %)",
        100.0 * at_anchor
    );
}
