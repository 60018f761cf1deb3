//! Chien search: the roots of the error-locator polynomial Lambda(x) among the codeword positions,
//! i.e. every p in 0..n with Lambda(alpha^-p) = 0.
//!
//! Evaluating a degree-L locator at n = 36,856 positions is n x L terms lambda_k alpha^(-k p); it
//! dominates BCH decoding. Two implementations give identical roots:
//! - portable: log-domain, one antilog lookup and one xor per term;
//! - AVX2 (chosen at run time): 32 consecutive positions at once, each term vector kept as a low-byte
//!   and a high-byte plane. Moving a term vector 32 positions on is a multiplication by the constant
//!   alpha^(-32k), done with nibble lookup tables and `vpshufb` (the technique of GF-complete and
//!   Intel ISA-L: a constant multiplication is GF(2)-linear, so the product is the xor of the
//!   products of the four nibbles, each one 16-entry table). The tables depend only on k, so they
//!   are built once per code.
//!
//! Source: Chien, "Cyclic decoding procedures for BCH codes" (IEEE Trans. IT, 1964); Plank, Greenan
//! & Miller, "Screaming fast Galois field arithmetic using Intel SIMD instructions" (FAST 2013).

use crate::galois::GaloisField;

/// Positions evaluated together by the vector implementation.
const LANES: usize = 32;

#[derive(Debug, Clone)]
pub(crate) struct ChienSearch {
    /// For k = 1..=t (index k - 1): eight 16-entry tables for multiplying by alpha^(-32k); table
    /// 2j + h gives byte h (0 low, 1 high) of c x (nibble << 4j).
    step_tables: Vec<[[u8; 16]; 8]>,
}

impl ChienSearch {
    pub(crate) fn new(field: &GaloisField, t: usize) -> Self {
        let order = field.order as u64;
        let step_tables = (1..=t as u64)
            .map(|k| {
                let constant = field.alpha_pow((order - (LANES as u64 * k) % order) % order);
                let mut tables = [[0u8; 16]; 8];
                for j in 0..4 {
                    for nibble in 0..16u32 {
                        let element = nibble << (4 * j);
                        if element >> field.m != 0 {
                            continue; // outside GF(2^m): never looked up
                        }
                        let product = field.mul(constant, element as u16);
                        tables[2 * j][nibble as usize] = product as u8;
                        tables[2 * j + 1][nibble as usize] = (product >> 8) as u8;
                    }
                }
                tables
            })
            .collect();
        ChienSearch { step_tables }
    }

    /// The positions p < n where the locator (lowest coefficient first, `locator[0]` = 1) vanishes.
    pub(crate) fn roots(&self, field: &GaloisField, locator: &[u16], n: usize) -> Vec<usize> {
        debug_assert!(locator.len() - 1 <= self.step_tables.len());
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU reports AVX2.
            return unsafe { self.roots_avx2(field, locator, n) };
        }
        roots_portable(field, locator, n)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn roots_avx2(&self, field: &GaloisField, locator: &[u16], n: usize) -> Vec<usize> {
        use std::arch::x86_64::*;
        let order = field.order as usize;
        let exp = field.exp_table();
        // Terms with a non-zero coefficient: (k, low plane, high plane) for positions 0..32.
        let mut terms: Vec<(usize, __m256i, __m256i)> = Vec::with_capacity(locator.len());
        for (k, &lambda) in locator.iter().enumerate().skip(1) {
            if lambda == 0 {
                continue;
            }
            let mut low = [0u8; LANES];
            let mut high = [0u8; LANES];
            let log_lambda = field.log(lambda) as usize;
            for p in 0..LANES {
                // lambda_k alpha^(-k p)
                let value = exp[(log_lambda + order - (k * p) % order) % order];
                low[p] = value as u8;
                high[p] = (value >> 8) as u8;
            }
            terms.push((k, _mm256_loadu_si256(low.as_ptr().cast()), _mm256_loadu_si256(high.as_ptr().cast())));
        }
        let nibble_mask = _mm256_set1_epi8(0x0f);
        let zero = _mm256_setzero_si256();
        let constant_low = _mm256_set1_epi8(locator[0] as u8 as i8);
        let constant_high = _mm256_set1_epi8((locator[0] >> 8) as u8 as i8);
        let mut roots = Vec::with_capacity(locator.len());
        for block in 0..n.div_ceil(LANES) {
            let mut sum_low = constant_low;
            let mut sum_high = constant_high;
            for (k, low, high) in terms.iter_mut() {
                sum_low = _mm256_xor_si256(sum_low, *low);
                sum_high = _mm256_xor_si256(sum_high, *high);
                let tables = &self.step_tables[*k - 1];
                let table = |i: usize| _mm256_broadcastsi128_si256(_mm_loadu_si128(tables[i].as_ptr().cast()));
                let n0 = _mm256_and_si256(*low, nibble_mask);
                let n1 = _mm256_and_si256(_mm256_srli_epi16(*low, 4), nibble_mask);
                let n2 = _mm256_and_si256(*high, nibble_mask);
                let n3 = _mm256_and_si256(_mm256_srli_epi16(*high, 4), nibble_mask);
                *low = _mm256_xor_si256(
                    _mm256_xor_si256(_mm256_shuffle_epi8(table(0), n0), _mm256_shuffle_epi8(table(2), n1)),
                    _mm256_xor_si256(_mm256_shuffle_epi8(table(4), n2), _mm256_shuffle_epi8(table(6), n3)),
                );
                *high = _mm256_xor_si256(
                    _mm256_xor_si256(_mm256_shuffle_epi8(table(1), n0), _mm256_shuffle_epi8(table(3), n1)),
                    _mm256_xor_si256(_mm256_shuffle_epi8(table(5), n2), _mm256_shuffle_epi8(table(7), n3)),
                );
            }
            let zero_bytes = _mm256_cmpeq_epi8(_mm256_or_si256(sum_low, sum_high), zero);
            let mut mask = _mm256_movemask_epi8(zero_bytes) as u32;
            while mask != 0 {
                let p = block * LANES + mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if p < n {
                    roots.push(p);
                }
            }
        }
        roots
    }
}

/// Log-domain evaluation, one position after another per term.
fn roots_portable(field: &GaloisField, locator: &[u16], n: usize) -> Vec<usize> {
    let order = field.order;
    let exp = field.exp_table();
    // sum[p] = sum_k lambda_k alpha^(-k p); terms added one k at a time so the inner loop is a
    // stream of independent table lookups.
    let mut sum = vec![locator[0]; n];
    for (k, &lambda) in locator.iter().enumerate().skip(1) {
        if lambda == 0 {
            continue;
        }
        let step = (k as u32) % order;
        let mut index = field.log(lambda);
        for value in sum.iter_mut() {
            *value ^= exp[index as usize];
            index = if index >= step { index - step } else { index + order - step };
        }
    }
    sum.iter().enumerate().filter(|(_, &v)| v == 0).map(|(p, _)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_portable_searches_find_the_same_roots() {
        let field = GaloisField::new(16);
        let search = ChienSearch::new(&field, 64);
        // Lambda(x) = prod (1 - alpha^p x) over chosen positions p: its roots are alpha^-p.
        let positions = [0usize, 1, 31, 32, 33, 1000, 20_000, 36_855];
        let mut locator = vec![1u16];
        for &p in &positions {
            let root_inverse = field.alpha_pow(p as u64);
            let mut next = vec![0u16; locator.len() + 1];
            for (i, &c) in locator.iter().enumerate() {
                next[i] ^= c;
                next[i + 1] ^= field.mul(c, root_inverse);
            }
            locator = next;
        }
        assert_eq!(roots_portable(&field, &locator, 36_856), positions);
        assert_eq!(search.roots(&field, &locator, 36_856), positions);
        // Positions at or beyond n are not reported.
        assert_eq!(search.roots(&field, &locator, 36_855), &positions[..7]);
    }
}
