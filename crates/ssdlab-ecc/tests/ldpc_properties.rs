//! LDPC: the construction has girth >= 6, codewords satisfy every check, decoding succeeds on clean
//! and lightly corrupted frames, soft information beats hard.

use ssdlab_ecc::ldpc::construction::has_no_four_cycles;
use ssdlab_ecc::ldpc::min_sum::{CheckNodeRule, MinSumDecoder};
use ssdlab_ecc::ldpc::QcLdpcCode;
use ssdlab_engine::random::Xoshiro256PlusPlus;

fn random_bits(rng: &mut Xoshiro256PlusPlus, count: usize) -> Vec<u8> {
    (0..count).map(|_| (rng.next_u64() & 1) as u8).collect()
}

#[test]
fn storage_code_has_rate_eight_ninths_and_girth_six() {
    let code = QcLdpcCode::storage_4kb();
    assert_eq!((code.n(), code.k(), code.parity_bits()), (36_864, 32_768, 4_096));
    assert!(has_no_four_cycles(&code));
}

#[test]
fn encoded_words_satisfy_every_check() {
    let code = QcLdpcCode::storage_4kb();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..4 {
        let info = random_bits(&mut rng, code.k());
        let word = code.encode(&info);
        assert!(code.is_codeword(&word));
        assert_eq!(&word[..code.k()], &info[..]);
        let mut broken = word.clone();
        broken[rng.below(code.n() as u64) as usize] ^= 1;
        assert!(!code.is_codeword(&broken));
    }
}

#[test]
fn decodes_clean_and_lightly_corrupted_frames() {
    let code = QcLdpcCode::storage_4kb();
    let mut decoder = MinSumDecoder::new(&code, CheckNodeRule::Normalized { factor: 0.75 }, 30);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let info = random_bits(&mut rng, code.k());
    let word = code.encode(&info);
    let hard = |bit: u8| if bit == 0 { 4 * 8 } else { -4 * 8 };
    let clean: Vec<i16> = word.iter().map(|&b| hard(b)).collect();
    assert_eq!(decoder.decode(&clean).iterations, 0);
    for errors in [1usize, 10, 100, 200] {
        let mut llr = clean.clone();
        for _ in 0..errors {
            let p = rng.below(code.n() as u64) as usize;
            llr[p] = -llr[p];
        }
        let outcome = decoder.decode(&llr);
        assert!(outcome.success, "{errors} errors: {outcome:?}");
        assert!(decoder.information_matches(&info));
    }
}

mod simd_paths {
    use super::*;
    use proptest::prelude::*;
    use ssdlab_ecc::ldpc::min_sum::SimdLevel;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
        /// Every SIMD path the CPU has decides exactly as the portable one: same outcome, iteration
        /// count and hard decisions, with early stopping and at a fixed iteration count, for frames
        /// from clean to undecodable and both check-node rules.
        #[test]
        fn every_simd_path_is_bit_identical(seed in any::<u64>(), rber_per_mille in 0u64..40, magnitude in 1i16..120, offset_rule in any::<bool>()) {
            let code = QcLdpcCode::storage_4kb();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let info = random_bits(&mut rng, code.k());
            let word = code.encode(&info);
            // Noisy magnitudes too, so that ties and saturation are exercised.
            let llr: Vec<i16> = word.iter().map(|&bit| {
                let flipped = rng.below(1000) < rber_per_mille;
                let size = 1 + rng.below(magnitude as u64) as i16;
                if (bit == 1) ^ flipped { -size } else { size }
            }).collect();
            let rule = if offset_rule { CheckNodeRule::Offset { offset: 0.5 } } else { CheckNodeRule::Normalized { factor: 0.75 } };
            let mut reference = MinSumDecoder::new(&code, rule, 12).with_simd(SimdLevel::Portable);
            let expected = (reference.decode(&llr), reference.hard_decisions());
            let expected_fixed = (reference.decode_fixed(&llr, 7), reference.hard_decisions());
            for level in SimdLevel::available() {
                let mut decoder = MinSumDecoder::new(&code, rule, 12).with_simd(level);
                prop_assert_eq!(decoder.simd(), level);
                prop_assert_eq!(&(decoder.decode(&llr), decoder.hard_decisions()), &expected, "{:?} early stop", level);
                prop_assert_eq!(&(decoder.decode_fixed(&llr, 7), decoder.hard_decisions()), &expected_fixed, "{:?} fixed", level);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]
        /// The 8-bit decoder, too, decides identically on every SIMD path.
        #[test]
        fn the_8_bit_decoder_is_bit_identical_on_every_path(seed in any::<u64>(), rber_per_mille in 0u64..30) {
            let code = QcLdpcCode::storage_4kb();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let word = code.encode(&random_bits(&mut rng, code.k()));
            let llr: Vec<i8> = word.iter().map(|&bit| {
                let size = 1 + rng.below(31) as i8;
                if (bit == 1) ^ (rng.below(1000) < rber_per_mille) { -size } else { size }
            }).collect();
            let rule = CheckNodeRule::Offset { offset: 0.5 };
            let mut reference = MinSumDecoder::<i8>::with_lanes(&code, rule, 12).with_simd(SimdLevel::Portable);
            let expected = (reference.decode_fixed(&llr, 8), reference.hard_decisions());
            for level in SimdLevel::available() {
                let mut decoder = MinSumDecoder::<i8>::with_lanes(&code, rule, 12).with_simd(level);
                prop_assert_eq!(&(decoder.decode_fixed(&llr, 8), decoder.hard_decisions()), &expected, "{:?}", level);
            }
        }
    }

    #[test]
    fn the_8_bit_decoder_corrects_what_the_16_bit_one_does_at_rber_5e_3() {
        let code = QcLdpcCode::storage_4kb();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let mut decoder = MinSumDecoder::<i8>::with_lanes(&code, CheckNodeRule::Offset { offset: 0.5 }, 20);
        for _ in 0..8 {
            let info = random_bits(&mut rng, code.k());
            let llr: Vec<i8> = code
                .encode(&info)
                .iter()
                .map(|&bit| {
                    let value = if (bit == 1) ^ (rng.below(100_000) < 500) { -3.0 } else { 3.0 };
                    ssdlab_ecc::ldpc::min_sum::quantize::<i8>(value)
                })
                .collect();
            assert!(decoder.decode(&llr).success && decoder.information_matches(&info));
        }
    }

    #[test]
    fn a_fixed_schedule_runs_every_iteration_and_reports_the_final_syndrome() {
        let code = QcLdpcCode::storage_4kb();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let word = code.encode(&random_bits(&mut rng, code.k()));
        let clean: Vec<i16> = word.iter().map(|&bit| if bit == 1 { -24 } else { 24 }).collect();
        let mut decoder = MinSumDecoder::new(&code, CheckNodeRule::Normalized { factor: 0.75 }, 30);
        assert_eq!(decoder.decode(&clean).iterations, 0, "early stop: a clean frame needs no iteration");
        let fixed = decoder.decode_fixed(&clean, 10);
        assert!(fixed.success && fixed.iterations == 10);
        let noise: Vec<i16> = (0..code.n()).map(|_| if rng.next_u64() & 1 == 0 { 3 } else { -3 }).collect();
        assert!(!decoder.decode_fixed(&noise, 10).success);
    }
}

/// The decoder's decisions on fixed frames, as digests: speed work must leave them unchanged. The
/// early-stopping digest is the decoder's before issue 18 (checked on that commit, 24b95d9); the
/// fixed-iteration one dates from `decode_fixed`'s introduction and was checked after each change.
#[test]
fn decisions_on_fixed_frames_are_unchanged() {
    let (early_stop, fixed) = decision_digests(true);
    assert_eq!(
        (early_stop, fixed),
        (GOLDEN_EARLY_STOP, GOLDEN_FIXED),
        "decisions changed: {early_stop:#x}, {fixed:#x}"
    );
}

fn decision_digests(with_fixed: bool) -> (u64, u64) {
    let code = QcLdpcCode::storage_4kb();
    let mut state = 7u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let absorb = |digest: &mut u64, value: u64| {
        *digest ^= value;
        *digest = digest.wrapping_mul(0x0000_0100_0000_01b3);
    };
    let (mut early_stop, mut fixed) = (0xcbf2_9ce4_8422_2325u64, 0xcbf2_9ce4_8422_2325u64);
    let mut decoder = MinSumDecoder::new(&code, CheckNodeRule::Normalized { factor: 0.75 }, 20);
    for frame in 0..24u64 {
        let info: Vec<u8> = (0..code.k()).map(|_| (next() & 1) as u8).collect();
        let rber = 2 + frame % 12;
        let llr: Vec<i16> = code
            .encode(&info)
            .iter()
            .map(|&bit| {
                let flipped = next() % 1000 < rber;
                let size = 1 + (next() % 40) as i16;
                if (bit == 1) ^ flipped {
                    -size
                } else {
                    size
                }
            })
            .collect();
        let outcome = decoder.decode(&llr);
        absorb(&mut early_stop, outcome.success as u64 | (outcome.iterations as u64) << 1);
        decoder.hard_decisions().iter().for_each(|&bit| absorb(&mut early_stop, bit as u64));
        if with_fixed {
            absorb(&mut fixed, decoder.decode_fixed(&llr, 5).success as u64);
            decoder.hard_decisions().iter().for_each(|&bit| absorb(&mut fixed, bit as u64));
        }
    }
    (early_stop, fixed)
}

const GOLDEN_EARLY_STOP: u64 = 0xd668_1abc_b81e_ebf4;
const GOLDEN_FIXED: u64 = 0x7852_3d78_9561_c8af;
