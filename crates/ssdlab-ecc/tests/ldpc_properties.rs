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
