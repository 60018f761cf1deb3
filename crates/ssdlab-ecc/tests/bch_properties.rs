//! BCH: every pattern of at most t errors is corrected; more than t is reported as a failure.

use proptest::prelude::*;
use ssdlab_ecc::bch::BchCode;
use std::sync::OnceLock;

fn storage_code() -> &'static BchCode {
    static CODE: OnceLock<BchCode> = OnceLock::new();
    CODE.get_or_init(BchCode::storage_4kb)
}

fn distinct_positions(n: usize, count: usize) -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::btree_set(0..n, count).prop_map(|set| set.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn corrects_any_pattern_of_at_most_t_errors(
        data in proptest::collection::vec(any::<u8>(), 4096),
        errors in (0usize..=256).prop_flat_map(|count| distinct_positions(36_856, count)),
    ) {
        let code = storage_code();
        let clean = code.encode(&data);
        let mut word = clean.clone();
        for &p in &errors {
            word.flip(p);
        }
        prop_assert_eq!(code.decode(&mut word), Ok(errors.len()));
        prop_assert_eq!(code.data_of(&word), data);
    }

    #[test]
    fn reports_failure_beyond_t(
        data in proptest::collection::vec(any::<u8>(), 4096),
        errors in (257usize..=400).prop_flat_map(|count| distinct_positions(36_856, count)),
    ) {
        let code = storage_code();
        let clean = code.encode(&data);
        let mut word = clean.clone();
        for &p in &errors {
            word.flip(p);
        }
        // A miscorrection to another codeword needs > 2t - |e| wrong flips to land on one; for this
        // code that has probability far below anything a test could observe, so decoding must fail.
        prop_assert!(code.decode(&mut word).is_err());
    }
}

#[test]
fn exactly_t_errors_at_the_ends_of_the_codeword() {
    let code = storage_code();
    let data: Vec<u8> = (0..4096).map(|i| (i * 37 % 251) as u8).collect();
    let clean = code.encode(&data);
    let mut word = clean.clone();
    let positions: Vec<usize> = (0..128).chain(code.n() - 128..code.n()).collect();
    for &p in &positions {
        word.flip(p);
    }
    assert_eq!(code.decode(&mut word), Ok(256));
    assert_eq!(word, clean);
}
