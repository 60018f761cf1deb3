//! The layered min-sum decoder against a textbook one written edge by edge (row by row, each
//! row's edges gathered from the circulants' shifts, no vectors, no layout tricks), in the same
//! fixed-point arithmetic: every SIMD level must decide exactly as it does, on the storage code and
//! on small codes whose Z is not a multiple of any vector (the decoder then takes one row at a
//! time) or of only the narrower one.

use proptest::prelude::*;
use ssdlab_ecc::ldpc::construction::build;
use ssdlab_ecc::ldpc::min_sum::{CheckNodeRule, DecodeOutcome, MinSumDecoder, SimdLevel};
use ssdlab_ecc::ldpc::QcLdpcCode;
use ssdlab_engine::random::Xoshiro256PlusPlus;

/// The fixed point of a lane type: saturation bound and check-message clip.
#[derive(Clone, Copy)]
struct FixedPoint {
    max: i32,
    message_limit: i32,
}

const I16: FixedPoint = FixedPoint { max: i16::MAX as i32, message_limit: i16::MAX as i32 };
const I8: FixedPoint = FixedPoint { max: i8::MAX as i32, message_limit: 31 };

/// Layered min-sum, one check row at a time. `correct` maps a row minimum to a message magnitude.
// Rows are indices into three arrays at once here; written as in a textbook on purpose.
#[allow(clippy::needless_range_loop)]
fn textbook(
    code: &QcLdpcCode,
    fixed: FixedPoint,
    correct: &dyn Fn(i32) -> i32,
    channel: &[i32],
    iterations: u32,
    early_stop: bool,
) -> (DecodeOutcome, Vec<u8>) {
    let z = code.z;
    let saturate = |v: i32| v.clamp(-fixed.max - 1, fixed.max);
    let mut posterior = channel.to_vec();
    // messages[layer][circulant][row]
    let mut messages: Vec<Vec<Vec<i32>>> = code.layers.iter().map(|layer| vec![vec![0; z]; layer.len()]).collect();
    let decisions = |posterior: &[i32]| posterior.iter().map(|&v| (v < 0) as u8).collect::<Vec<u8>>();
    let satisfied = |posterior: &[i32]| code.is_codeword(&decisions(posterior));
    if early_stop && satisfied(&posterior) {
        return (DecodeOutcome { success: true, iterations: 0 }, decisions(&posterior));
    }
    for iteration in 1..=iterations {
        for (layer, circulants) in code.layers.iter().enumerate() {
            for row in 0..z {
                let variables: Vec<usize> =
                    circulants.iter().map(|c| c.block_column * z + (row + c.shift) % z).collect();
                let inputs: Vec<i32> = variables
                    .iter()
                    .enumerate()
                    .map(|(e, &v)| saturate(posterior[v] - messages[layer][e][row]))
                    .collect();
                let magnitudes: Vec<i32> = inputs.iter().map(|&t| t.max(-fixed.max).abs()).collect();
                let mut sorted = magnitudes.clone();
                sorted.sort_unstable();
                let (first, second) = (sorted[0], sorted[1]);
                let negatives = inputs.iter().filter(|&&t| t < 0).count();
                for (e, &v) in variables.iter().enumerate() {
                    let magnitude =
                        correct(if magnitudes[e] == first { second } else { first }).min(fixed.message_limit);
                    let others_negative = (negatives - (inputs[e] < 0) as usize) % 2 == 1;
                    let message = if others_negative { -magnitude } else { magnitude };
                    messages[layer][e][row] = message;
                    posterior[v] = saturate(inputs[e] + message);
                }
            }
        }
        if early_stop && satisfied(&posterior) {
            return (DecodeOutcome { success: true, iterations: iteration }, decisions(&posterior));
        }
    }
    let success = !early_stop && satisfied(&posterior);
    (DecodeOutcome { success, iterations }, decisions(&posterior))
}

fn codes() -> Vec<QcLdpcCode> {
    vec![
        QcLdpcCode::storage_4kb(),
        // Z = 13: one row at a time on every level.
        build(13, 4, 8, 3, 7).expect("a Z = 13 code"),
        // Z = 48: AVX2's 16-row vectors fit, the 32-row ones do not.
        build(48, 4, 10, 3, 1).expect("a Z = 48 code"),
    ]
}

fn frame(code: &QcLdpcCode, rng: &mut Xoshiro256PlusPlus, rber_per_mille: u64, magnitude: u64) -> Vec<i32> {
    let info: Vec<u8> = (0..code.k()).map(|_| (rng.next_u64() & 1) as u8).collect();
    code.encode(&info)
        .iter()
        .map(|&bit| {
            let size = 1 + rng.below(magnitude) as i32;
            if (bit == 1) ^ (rng.below(1000) < rber_per_mille) {
                -size
            } else {
                size
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]
    #[test]
    fn the_16_bit_decoder_decides_as_the_textbook_one(seed in any::<u64>(), rber_per_mille in 0u64..60, magnitude in 1u64..120, offset_rule in any::<bool>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for code in codes() {
            let channel = frame(&code, &mut rng, rber_per_mille, magnitude);
            let (rule, correct): (CheckNodeRule, Box<dyn Fn(i32) -> i32>) = if offset_rule {
                // 0.5 LLR units = 4 steps of 1/8.
                (CheckNodeRule::Offset { offset: 0.5 }, Box::new(|m: i32| (m - 4).max(0)))
            } else {
                (CheckNodeRule::Normalized { factor: 0.75 }, Box::new(|m: i32| (m * 12) >> 4))
            };
            let expected_early = textbook(&code, I16, &correct, &channel, 9, true);
            let expected_fixed = textbook(&code, I16, &correct, &channel, 6, false);
            let llr: Vec<i16> = channel.iter().map(|&v| v as i16).collect();
            for level in SimdLevel::available() {
                let mut decoder = MinSumDecoder::new(&code, rule, 9).with_simd(level);
                let early = decoder.decode(&llr);
                prop_assert_eq!(&(early, decoder.hard_decisions()), &expected_early, "{:?} early stop, Z = {}", level, code.z);
                let fixed = decoder.decode_fixed(&llr, 6);
                prop_assert_eq!(&(fixed, decoder.hard_decisions()), &expected_fixed, "{:?} fixed, Z = {}", level, code.z);
            }
        }
    }

    #[test]
    fn the_8_bit_decoder_decides_as_the_textbook_one(seed in any::<u64>(), rber_per_mille in 0u64..40) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for code in codes() {
            let channel = frame(&code, &mut rng, rber_per_mille, 31);
            // 0.5 LLR units = 1 step of 1/2.
            let expected = textbook(&code, I8, &|m: i32| (m - 1).max(0), &channel, 7, false);
            let llr: Vec<i8> = channel.iter().map(|&v| v as i8).collect();
            for level in SimdLevel::available() {
                let mut decoder = MinSumDecoder::<i8>::with_lanes(&code, CheckNodeRule::Offset { offset: 0.5 }, 7).with_simd(level);
                let fixed = decoder.decode_fixed(&llr, 7);
                prop_assert_eq!(&(fixed, decoder.hard_decisions()), &expected, "{:?}, Z = {}", level, code.z);
            }
        }
    }
}

/// Saturation: posteriors that grow to the 16-bit bound decide as the textbook's clamped ones.
#[test]
fn saturated_posteriors_decide_as_the_textbook_ones() {
    let code = QcLdpcCode::storage_4kb();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let mut channel = frame(&code, &mut rng, 3, 120);
    // A few channel values at the extremes of i16.
    for (i, value) in channel.iter_mut().enumerate().take(64) {
        *value = if i % 2 == 0 { i16::MAX as i32 } else { i16::MIN as i32 };
    }
    let correct = |m: i32| (m * 12) >> 4;
    let expected = textbook(&code, I16, &correct, &channel, 12, false);
    let llr: Vec<i16> = channel.iter().map(|&v| v as i16).collect();
    for level in SimdLevel::available() {
        let mut decoder = MinSumDecoder::new(&code, CheckNodeRule::Normalized { factor: 0.75 }, 12).with_simd(level);
        let fixed = decoder.decode_fixed(&llr, 12);
        assert_eq!((fixed, decoder.hard_decisions()), expected, "{level:?}");
    }
}
