//! `cargo run --release -p ssdlab-ecc --example decoder_probe`: a digest of the min-sum decoder's decisions on
//! fixed frames (speed work must leave it unchanged: 8d7d252e4749d6ae since issue 18 began) and the
//! fixed-10-iteration speed of the 16-bit and 8-bit decoders on every SIMD level the CPU has.
use ssdlab_ecc::ldpc::{
    min_sum::{CheckNodeRule, MinSumDecoder, SimdLevel},
    QcLdpcCode,
};
use std::hash::{Hash, Hasher};
use std::time::Instant;
fn level_bits(code: &QcLdpcCode, frames: usize, seconds: f64) -> f64 {
    frames as f64 * code.k() as f64 / seconds / 1e6
}

fn main() {
    let code = QcLdpcCode::storage_4kb();
    let mut state = 7u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let frames: Vec<Vec<i16>> = (0..96)
        .map(|i| {
            let info: Vec<u8> = (0..code.k()).map(|_| (next() & 1) as u8).collect();
            let rber = 2 + (i % 12) as u64;
            code.encode(&info)
                .iter()
                .map(|&b| {
                    let f = next() % 1000 < rber;
                    let m = 1 + (next() % 40) as i16;
                    if (b == 1) ^ f {
                        -m
                    } else {
                        m
                    }
                })
                .collect()
        })
        .collect();
    let bench: Vec<Vec<i16>> = (0..64)
        .map(|_| {
            let info: Vec<u8> = (0..code.k()).map(|_| (next() & 1) as u8).collect();
            code.encode(&info)
                .iter()
                .map(|&b| {
                    let f = next() % 100000 < 500;
                    MinSumDecoder::quantize(if (b == 1) ^ f { -3.0 } else { 3.0 })
                })
                .collect()
        })
        .collect();
    let mut digest = std::collections::hash_map::DefaultHasher::new();
    let mut d = MinSumDecoder::new(&code, CheckNodeRule::Normalized { factor: 0.75 }, 20);
    for f in &frames {
        let o = d.decode(f);
        (o.success, o.iterations, d.hard_decisions()).hash(&mut digest);
        let o = d.decode_fixed(f, 5);
        (o.success, d.hard_decisions()).hash(&mut digest);
    }
    println!("digest {:x}", digest.finish());
    for level in SimdLevel::available() {
        let mut d = MinSumDecoder::new(&code, CheckNodeRule::Normalized { factor: 0.75 }, 10).with_simd(level);
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            for f in &frames[..64] {
                d.decode_fixed(f, 10);
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("{:?}: {:.1} Mbit/s fixed 10", level, 64.0 * code.k() as f64 / best / 1e6);
        let mut best = f64::MAX;
        let mut iterations = 0;
        for _ in 0..5 {
            iterations = 0;
            let t = Instant::now();
            for f in &bench {
                iterations += d.decode(f).iterations;
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "   16-bit early stop at RBER 5e-3: {:.1} Mbit/s ({:.1} iterations)",
            level_bits(&code, bench.len(), best),
            iterations as f64 / bench.len() as f64
        );
        let frames8: Vec<Vec<i8>> = bench
            .iter()
            .map(|f| f.iter().map(|&v| ssdlab_ecc::ldpc::min_sum::quantize::<i8>(v as f64 / 8.0)).collect())
            .collect();
        let mut d8 = MinSumDecoder::<i8>::with_lanes(&code, CheckNodeRule::Offset { offset: 0.5 }, 10).with_simd(level);
        let mut best = f64::MAX;
        let mut ok = 0;
        for _ in 0..5 {
            ok = 0;
            let t = Instant::now();
            for f in &frames8[..64] {
                ok += d8.decode_fixed(f, 10).success as u32;
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("   8-bit offset: {:.1} Mbit/s fixed 10, {ok}/64 decoded", 64.0 * code.k() as f64 / best / 1e6);
        let mut ok16 = 0;
        for f in &bench[..64] {
            ok16 += d.decode_fixed(f, 10).success as u32;
        }
        println!("   16-bit NMS: {ok16}/64 decoded");
    }
}
