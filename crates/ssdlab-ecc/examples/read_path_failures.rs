//! `cargo run --release -p ssdlab-ecc --example read_path_failures [PE_CYCLES] [RETENTION_HOURS] [FRAMES_PER_CASE]`:
//! the decoding-failure probabilities the SSD read path needs at one stress (default: seed 002's
//! 10,000 P/E and one month at 40 C): hard-decision LDPC and soft LDPC with 1..6 extra sensing
//! levels, per chip and averaged over chips, each over both MLC page types. The numbers in
//! `configs/seed002-ldpc.toml` (`[read_path.decoding]`) come from this command.

use ssdlab_ecc::calibration::failure_probability_per_chip;
use ssdlab_ecc::channel::{CellKind, ChannelParameters};
use ssdlab_ecc::monte_carlo::{Codes, DecoderKind};

fn main() {
    let arguments: Vec<f64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let pe_cycles = arguments.first().copied().unwrap_or(10_000.0);
    let retention_hours = arguments.get(1).copied().unwrap_or(720.0);
    let frames = arguments.get(2).copied().unwrap_or(2_000.0) as u64;
    let codes = Codes::storage_4kb();
    let parameters = ChannelParameters::default_for(CellKind::Mlc);
    println!("MLC, {pe_cycles} P/E, {retention_hours} h retention at {} C, {frames} frames per chip and page", parameters.operating_temperature_c);
    let mut averages = Vec::new();
    for levels in 0..=6u32 {
        let decoder = if levels == 0 { DecoderKind::LdpcHard } else { DecoderKind::LdpcSoft { extra_levels: levels } };
        let per_chip = failure_probability_per_chip(&codes, &parameters, decoder, pe_cycles, retention_hours, frames, 11);
        let average = per_chip.iter().sum::<f64>() / per_chip.len() as f64;
        let chips: Vec<String> = per_chip.iter().map(|p| format!("{p:.4}")).collect();
        println!("{:<12} average {average:.4}  per chip [{}]", decoder.label(), chips.join(", "));
        averages.push(average);
    }
    println!("hard_failure_probability = {:.4}", averages[0]);
    let soft: Vec<String> = averages[1..].iter().map(|p| format!("{p:.4}")).collect();
    println!("soft_failure_probabilities = [{}]", soft.join(", "));
}
