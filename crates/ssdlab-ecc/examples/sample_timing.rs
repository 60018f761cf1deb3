//! Times `ReadModel::sample` (the Monte Carlo's channel: two random draws and a region lookup per
//! cell) for hard, soft-3 and soft-6 reads of an MLC upper page at RBER about 1e-2, and prints a
//! digest of the regions drawn so that a change to the sampler can be checked to draw the same.
//!
//! `cargo run --release -p ssdlab-ecc --example sample_timing`

use ssdlab_ecc::channel::{CellKind, Channel, ChannelParameters, Stress};
use ssdlab_ecc::read_model::{ReadInput, ReadModel};
use ssdlab_engine::random::Xoshiro256PlusPlus;
use std::time::Instant;

fn main() {
    let channel = Channel::new(&ChannelParameters::default_for(CellKind::Mlc), Stress::new(14_000.0, 720.0));
    for (name, input) in [
        ("hard", ReadInput::Hard),
        ("soft-3", ReadInput::Soft { extra_levels: 3 }),
        ("soft-6", ReadInput::Soft { extra_levels: 6 }),
    ] {
        let model = ReadModel::new(&channel, 1, input);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let bits: Vec<u8> = (0..36_864).map(|_| (rng.next_u64() & 1) as u8).collect();
        let mut fine = vec![0u8; bits.len()];
        let mut best = f64::MAX;
        let mut digest = 0u64;
        for _ in 0..5 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
            digest = 0;
            let started = Instant::now();
            for _ in 0..200 {
                model.sample(&bits, &mut rng, &mut fine);
                digest =
                    fine.iter().fold(digest, |d, &f| d.rotate_left(5) ^ f as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
            best = best.min(started.elapsed().as_secs_f64());
        }
        println!(
            "{name:>7}: {:.2} ns per cell ({} fine regions), digest {digest:016x}",
            best * 1e9 / (200.0 * bits.len() as f64),
            model.fine_thresholds.len() + 1
        );
    }
}
