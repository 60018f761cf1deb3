//! `cargo run --release -p ssdlab-ecc --example ecc_bench`: decoder throughput and Monte Carlo rate.
//!
//! Prints decoded information throughput (Mbit/s) of layered normalized min-sum on the rate-8/9
//! 36,864-bit code at a raw bit error rate where decoding takes several iterations, BCH decoding time
//! of a 4 KB frame with t/2 = 128 errors, both on one core and on all cores, and Monte Carlo frames
//! per second.

use rayon::prelude::*;
use ssdlab_ecc::bch::BchCode;
use ssdlab_ecc::channel::{CellKind, Channel, ChannelParameters, Stress};
use ssdlab_ecc::ldpc::min_sum::{CheckNodeRule, MinSumDecoder};
use ssdlab_ecc::ldpc::QcLdpcCode;
use ssdlab_ecc::monte_carlo::{run_point, Codes, DecoderKind, StopRule};
use ssdlab_engine::random::Xoshiro256PlusPlus;
use std::time::Instant;

fn main() {
    let code = QcLdpcCode::storage_4kb();
    let frames = 512usize;
    let rber: f64 = std::env::var("RBER").ok().and_then(|v| v.parse().ok()).unwrap_or(2e-3);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    // Hard-decision frames at RBER 2e-3 with channel LLR magnitude 3: several iterations each.
    let inputs: Vec<(Vec<u8>, Vec<i16>)> = (0..frames)
        .map(|_| {
            let info: Vec<u8> = (0..code.k()).map(|_| (rng.next_u64() & 1) as u8).collect();
            let word = code.encode(&info);
            let llr = word.iter().map(|&b| {
                let flipped = rng.next_f64() < rber;
                let value = if (b == 1) ^ flipped { -3.0 } else { 3.0 };
                MinSumDecoder::quantize(value)
            }).collect();
            (info, llr)
        })
        .collect();
    let mut decoder = MinSumDecoder::new(&code, CheckNodeRule::Normalized { factor: 0.75 }, 20);
    let started = Instant::now();
    let mut iterations = 0u64;
    let mut failures = 0;
    for (info, llr) in &inputs {
        let outcome = decoder.decode(llr);
        iterations += outcome.iterations as u64;
        failures += (!outcome.success || !decoder.information_matches(info)) as u32;
    }
    let single = started.elapsed().as_secs_f64();
    let threads = rayon::current_num_threads();
    let started = Instant::now();
    inputs.par_iter().for_each_init(
        || MinSumDecoder::new(&code, CheckNodeRule::Normalized { factor: 0.75 }, 20),
        |d, (_, llr)| {
            d.decode(llr);
        },
    );
    let parallel = started.elapsed().as_secs_f64();
    let info_bits = (frames * code.k()) as f64;
    println!("LDPC layered NMS (n=36864, k=32768, 16-bit): {frames} frames, mean {:.1} iterations, {failures} failures", iterations as f64 / frames as f64);
    println!("  1 core : {:.1} Mbit/s of information ({:.1} us/frame)", info_bits / single / 1e6, single / frames as f64 * 1e6);
    println!("  {threads} cores: {:.1} Mbit/s", info_bits / parallel / 1e6);

    let bch = BchCode::storage_4kb();
    let words: Vec<_> = (0..64)
        .map(|_| {
            let data: Vec<u8> = (0..4096).map(|_| rng.next_u64() as u8).collect();
            let clean = bch.encode(&data);
            let mut word = clean.clone();
            let mut flipped = 0;
            while flipped < 128 {
                let p = rng.below(bch.n() as u64) as usize;
                if word.get(p) == clean.get(p) {
                    word.flip(p);
                    flipped += 1;
                }
            }
            word
        })
        .collect();
    let started = Instant::now();
    for word in &words {
        let mut w = word.clone();
        assert_eq!(bch.decode(&mut w), Ok(128));
    }
    let per_frame = started.elapsed().as_secs_f64() / words.len() as f64;
    let started = Instant::now();
    words.par_iter().for_each(|word| {
        let mut w = word.clone();
        let _ = bch.decode(&mut w);
    });
    let per_frame_parallel = started.elapsed().as_secs_f64() / words.len() as f64;
    println!("BCH (36856, 32768, t=256), 128 errors per frame:");
    println!("  1 core : {:.2} ms/frame ({:.1} Mbit/s)", per_frame * 1e3, 32768.0 / per_frame / 1e6);
    println!("  {threads} cores: {:.1} Mbit/s", 32768.0 / per_frame_parallel / 1e6);

    let codes = Codes::storage_4kb();
    let channel = Channel::new(&ChannelParameters::default_for(CellKind::Mlc), Stress::new(10_000.0, 720.0));
    for decoder in [DecoderKind::Bch, DecoderKind::LdpcHard, DecoderKind::LdpcSoft { extra_levels: 6 }] {
        let started = Instant::now();
        let point = run_point(&codes, &channel, 1, decoder, StopRule { target_failures: 1_000, max_frames: 256 }, 1);
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "Monte Carlo {decoder:?} at 10k P/E, 1 month (upper page RBER {:.2e}): {} frames, FER {:.3}, {:.0} frames/s on {threads} cores",
            point.rber, point.frames, point.frame_error_rate, point.frames as f64 / seconds
        );
    }
}
