//! Decoder throughput and Monte Carlo rate (issue 3's speed targets), measured, not asserted.
//!
//! - Layered normalized min-sum on the 36,864-bit rate-8/9 code: hard-decision frames at an RBER
//!   where decoding takes several iterations; decoded information bits per second on one core
//!   (the calling thread) and on all cores (the rayon pool, one decoder per thread).
//! - BCH (t = 256): frames with t/2 = 128 errors; milliseconds per frame on one core, Mbit/s on all.
//! - Monte Carlo frames per second (channel sampling + encoding + decoding) for BCH, hard LDPC and
//!   soft LDPC with six extra levels, at the stress of seed 002's measurements (10,000 P/E cycles,
//!   one month of retention).
//!
//! Inputs are generated before the clock starts. Times are wall-clock; on one thread that is its
//! CPU time when the machine is otherwise idle.

use crate::bch::BchCode;
use crate::channel::{CellKind, Channel, ChannelParameters, Stress};
use crate::ldpc::min_sum::{quantize, CheckNodeRule, Lane, MinSumDecoder, SimdLevel};
use crate::ldpc::QcLdpcCode;
use crate::monte_carlo::{run_point, Codes, DecoderKind, StopRule, MIN_SUM_ITERATIONS, MIN_SUM_RULE};
use crate::read_model::LlrSource;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use ssdlab_engine::random::Xoshiro256PlusPlus;
use std::time::Instant;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EccBenchSettings {
    pub ldpc_frames: usize,
    /// Raw bit error rate of the hard-decision LDPC frames.
    pub ldpc_rber: f64,
    pub bch_frames: usize,
    pub bch_errors: usize,
    pub monte_carlo_frames: u64,
    pub seed: u64,
}

impl Default for EccBenchSettings {
    fn default() -> Self {
        EccBenchSettings {
            ldpc_frames: 512,
            ldpc_rber: 5e-3,
            bch_frames: 64,
            bch_errors: 128,
            monte_carlo_frames: 2048,
            seed: 5,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LdpcThroughput {
    pub frames: usize,
    pub rber: f64,
    pub mean_iterations: f64,
    pub failures: usize,
    pub one_core_mbit_per_s: f64,
    pub one_core_us_per_frame: f64,
    pub all_cores_mbit_per_s: f64,
}

/// Layered min-sum at a fixed iteration count with no early termination (how decoders are compared,
/// issue 18), on one SIMD level: 16-bit normalised (the decoder of every curve) or 8-bit offset.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FixedIterationThroughput {
    pub decoder: String,
    pub bits: u32,
    pub simd: String,
    /// Frames whose information bits came out right.
    pub decoded: usize,
    pub iterations: u32,
    pub frames: usize,
    pub one_core_mbit_per_s: f64,
    /// All cores (the rayon pool), measured for the widest level only.
    pub all_cores_mbit_per_s: Option<f64>,
}

/// Iterations of the fixed-iteration comparison.
pub const FIXED_ITERATIONS: u32 = 10;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BchThroughput {
    pub frames: usize,
    pub errors_per_frame: usize,
    pub one_core_ms_per_frame: f64,
    pub one_core_mbit_per_s: f64,
    pub all_cores_mbit_per_s: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MonteCarloRate {
    pub decoder: String,
    pub rber: f64,
    pub frames: u64,
    pub frame_error_rate: f64,
    pub frames_per_second: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EccBenchReport {
    pub threads: usize,
    /// Instruction set the decoders' inner loops run with.
    pub vector_unit: String,
    pub ldpc: LdpcThroughput,
    /// One entry per SIMD level the CPU has, narrowest first.
    pub ldpc_fixed_iterations: Vec<FixedIterationThroughput>,
    pub bch: BchThroughput,
    pub monte_carlo: Vec<MonteCarloRate>,
}

/// The 8-bit decoder's check-node rule in the fixed-iteration comparison.
pub const MIN_SUM_8_BIT_RULE: CheckNodeRule = CheckNodeRule::Offset { offset: 0.5 };

/// Decodes `inputs` with `FIXED_ITERATIONS` iterations on one core (and on all, when asked).
fn fixed_iterations<L: Lane>(
    code: &QcLdpcCode,
    name: &str,
    rule: CheckNodeRule,
    inputs: &[(Vec<u8>, Vec<L>)],
    level: SimdLevel,
    all_cores: bool,
) -> FixedIterationThroughput {
    let info_bits = inputs.len().max(1) as f64 * code.k() as f64;
    let mut decoder = MinSumDecoder::<L>::with_lanes(code, rule, MIN_SUM_ITERATIONS).with_simd(level);
    let started = Instant::now();
    for (_, llr) in inputs {
        decoder.decode_fixed(llr, FIXED_ITERATIONS);
    }
    let single = started.elapsed().as_secs_f64();
    let decoded = inputs
        .iter()
        .filter(|(info, llr)| decoder.decode_fixed(llr, FIXED_ITERATIONS).success && decoder.information_matches(info))
        .count();
    let all_cores_mbit_per_s = all_cores.then(|| {
        let started = Instant::now();
        inputs.par_iter().for_each_init(
            || MinSumDecoder::<L>::with_lanes(code, rule, MIN_SUM_ITERATIONS).with_simd(level),
            |d, (_, llr)| {
                d.decode_fixed(llr, FIXED_ITERATIONS);
            },
        );
        info_bits / started.elapsed().as_secs_f64() / 1e6
    });
    FixedIterationThroughput {
        decoder: name.into(),
        bits: 8 * std::mem::size_of::<L>() as u32,
        simd: level.name().into(),
        decoded,
        iterations: FIXED_ITERATIONS,
        frames: inputs.len(),
        one_core_mbit_per_s: info_bits / single / 1e6,
        all_cores_mbit_per_s,
    }
}

pub fn run(settings: &EccBenchSettings) -> EccBenchReport {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed);
    let code = QcLdpcCode::storage_4kb();
    let inputs: Vec<(Vec<u8>, Vec<i16>)> = (0..settings.ldpc_frames)
        .map(|_| {
            let info: Vec<u8> = (0..code.k()).map(|_| (rng.next_u64() & 1) as u8).collect();
            let word = code.encode(&info);
            let llr = word
                .iter()
                .map(|&b| {
                    let flipped = rng.next_f64() < settings.ldpc_rber;
                    MinSumDecoder::quantize(if (b == 1) ^ flipped { -3.0 } else { 3.0 })
                })
                .collect();
            (info, llr)
        })
        .collect();
    let mut decoder = MinSumDecoder::new(&code, MIN_SUM_RULE, MIN_SUM_ITERATIONS);
    let started = Instant::now();
    let (mut iterations, mut failures) = (0u64, 0usize);
    for (info, llr) in &inputs {
        let outcome = decoder.decode(llr);
        iterations += outcome.iterations as u64;
        failures += (!outcome.success || !decoder.information_matches(info)) as usize;
    }
    let single = started.elapsed().as_secs_f64();
    let started = Instant::now();
    inputs.par_iter().for_each_init(
        || MinSumDecoder::new(&code, MIN_SUM_RULE, MIN_SUM_ITERATIONS),
        |d, (_, llr)| {
            d.decode(llr);
        },
    );
    let parallel = started.elapsed().as_secs_f64();
    let frames = settings.ldpc_frames.max(1) as f64;
    let info_bits = frames * code.k() as f64;
    let ldpc = LdpcThroughput {
        frames: settings.ldpc_frames,
        rber: settings.ldpc_rber,
        mean_iterations: iterations as f64 / frames,
        failures,
        one_core_mbit_per_s: info_bits / single / 1e6,
        one_core_us_per_frame: single / frames * 1e6,
        all_cores_mbit_per_s: info_bits / parallel / 1e6,
    };

    let best = SimdLevel::detect();
    // The same frames in 8 bits (the 16-bit values are 1/8 LLR steps).
    let inputs_8: Vec<(Vec<u8>, Vec<i8>)> = inputs
        .iter()
        .map(|(info, llr)| (info.clone(), llr.iter().map(|&v| quantize::<i8>(v as f64 / 8.0)).collect()))
        .collect();
    let mut ldpc_fixed_iterations = Vec::new();
    for level in SimdLevel::available() {
        let all_cores = level == best;
        ldpc_fixed_iterations.push(fixed_iterations(
            &code,
            "normalized min-sum (x0.75)",
            MIN_SUM_RULE,
            &inputs,
            level,
            all_cores,
        ));
        ldpc_fixed_iterations.push(fixed_iterations(
            &code,
            "offset min-sum (0.5)",
            MIN_SUM_8_BIT_RULE,
            &inputs_8,
            level,
            all_cores,
        ));
    }

    let bch_code = BchCode::storage_4kb();
    let words: Vec<_> = (0..settings.bch_frames)
        .map(|_| {
            let data: Vec<u8> = (0..bch_code.k / 8).map(|_| rng.next_u64() as u8).collect();
            let clean = bch_code.encode(&data);
            let mut word = clean.clone();
            let mut flipped = 0;
            while flipped < settings.bch_errors.min(bch_code.n()) {
                let p = rng.below(bch_code.n() as u64) as usize;
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
        let _ = bch_code.decode(&mut w);
    }
    let bch_frames = settings.bch_frames.max(1) as f64;
    let per_frame = started.elapsed().as_secs_f64() / bch_frames;
    let started = Instant::now();
    words.par_iter().for_each(|word| {
        let mut w = word.clone();
        let _ = bch_code.decode(&mut w);
    });
    let per_frame_parallel = started.elapsed().as_secs_f64() / bch_frames;
    let data_bits = bch_code.k as f64;
    let bch = BchThroughput {
        frames: settings.bch_frames,
        errors_per_frame: settings.bch_errors,
        one_core_ms_per_frame: per_frame * 1e3,
        one_core_mbit_per_s: data_bits / per_frame / 1e6,
        all_cores_mbit_per_s: data_bits / per_frame_parallel / 1e6,
    };

    let codes = Codes { bch: bch_code, ldpc: code };
    let channel = Channel::new(&ChannelParameters::default_for(CellKind::Mlc), Stress::new(10_000.0, 720.0));
    let monte_carlo = [DecoderKind::Bch, DecoderKind::LdpcHard, DecoderKind::LdpcSoft { extra_levels: 6 }]
        .into_iter()
        .map(|decoder| {
            let started = Instant::now();
            let stop = StopRule { target_failures: u64::MAX, max_frames: settings.monte_carlo_frames };
            let point = run_point(&codes, &channel, 1, decoder, stop, settings.seed, LlrSource::Channel);
            MonteCarloRate {
                decoder: decoder.label(),
                rber: point.rber,
                frames: point.frames,
                frame_error_rate: point.frame_error_rate,
                frames_per_second: point.frames as f64 / started.elapsed().as_secs_f64(),
            }
        })
        .collect();
    EccBenchReport {
        threads: rayon::current_num_threads(),
        vector_unit: SimdLevel::detect().name().into(),
        ldpc,
        ldpc_fixed_iterations,
        bch,
        monte_carlo,
    }
}
