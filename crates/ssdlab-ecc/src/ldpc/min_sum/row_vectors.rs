//! The values of a chunk of check rows (or of the variables they meet) as one vector: the
//! operations the layered kernel needs, for each instruction set.
//!
//! [`Rows`] is the portable form (an array the compiler vectorises as it can; also any Z that is
//! not a multiple of a vector). On x86-64 the AVX-512 and AVX2 entry points use intrinsics (16-
//! and 8-bit lanes): with arrays the compiler kept the rows' running minima in stack slots across
//! the circulant loop (a store and a reload per circulant) in some builds and not in others (the
//! 8-bit decoder ran at 364 Mbit/s in one binary and 41-84 in the Python module's). Every operation is the
//! same integer operation as [`Lane`]'s, lane by lane, so every form decides identically (the
//! property test in `tests/ldpc_properties.rs` and the unit tests here compare them).

use super::Lane;

/// A vector of `ROWS` lanes of `L`.
pub trait RowVector<L: Lane>: Copy {
    const ROWS: usize;
    /// The first `ROWS` values of `from` (panics if it is shorter).
    fn load(from: &[L]) -> Self;
    /// Writes the first `ROWS` values of `to` (panics if it is shorter).
    fn store(self, to: &mut [L]);
    fn splat(value: L) -> Self;
    fn saturating_sub(self, other: Self) -> Self;
    fn saturating_add(self, other: Self) -> Self;
    fn min(self, other: Self) -> Self;
    fn max(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    /// [`Lane::magnitude`] of each lane.
    fn magnitude(self) -> Self;
    /// `if_equal` in lanes where `self == other`, else `otherwise`.
    fn select_equal(self, other: Self, if_equal: Self, otherwise: Self) -> Self;
    /// Each lane (non-negative, at most `L::MAX`) negated where `sign`'s lane is negative.
    fn negate_where_negative(self, sign: Self) -> Self;
    /// Whether any lane is negative.
    fn any_negative(self) -> bool;
    /// [`Lane::scaled`] of each lane.
    fn scaled(self, numerator: i32) -> Self;
}

/// How check-node magnitudes are corrected, in the lane type's integer steps.
#[derive(Debug, Clone, Copy)]
pub(super) enum Correction<L> {
    Normalized { numerator: i32 },
    Offset { steps: L },
}

impl<L: Lane> Correction<L> {
    #[inline(always)]
    pub fn apply<V: RowVector<L>>(self, magnitudes: V) -> V {
        let limit = V::splat(L::MESSAGE_LIMIT);
        match self {
            Correction::Normalized { numerator } => magnitudes.scaled(numerator).min(limit),
            Correction::Offset { steps } => {
                magnitudes.saturating_sub(V::splat(steps)).max(V::splat(L::default())).min(limit)
            }
        }
    }
}

/// The portable form: `W` lanes in an array.
#[derive(Debug, Clone, Copy)]
pub struct Rows<L, const W: usize>([L; W]);

impl<L: Lane, const W: usize> Rows<L, W> {
    #[inline(always)]
    fn zip(self, other: Self, f: impl Fn(L, L) -> L) -> Self {
        Rows(std::array::from_fn(|i| f(self.0[i], other.0[i])))
    }
}

impl<L: Lane, const W: usize> RowVector<L> for Rows<L, W> {
    const ROWS: usize = W;
    #[inline(always)]
    fn load(from: &[L]) -> Self {
        Rows(*from.first_chunk::<W>().expect("a whole vector of rows"))
    }
    #[inline(always)]
    fn store(self, to: &mut [L]) {
        *to.first_chunk_mut::<W>().expect("a whole vector of rows") = self.0;
    }
    #[inline(always)]
    fn splat(value: L) -> Self {
        Rows([value; W])
    }
    #[inline(always)]
    fn saturating_sub(self, other: Self) -> Self {
        self.zip(other, L::saturating_sub)
    }
    #[inline(always)]
    fn saturating_add(self, other: Self) -> Self {
        self.zip(other, L::saturating_add)
    }
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        self.zip(other, Ord::min)
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        self.zip(other, Ord::max)
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self.zip(other, |a, b| a ^ b)
    }
    #[inline(always)]
    fn magnitude(self) -> Self {
        Rows(self.0.map(L::magnitude))
    }
    #[inline(always)]
    fn select_equal(self, other: Self, if_equal: Self, otherwise: Self) -> Self {
        // Branch-free, so that the loop stays vectorised.
        Rows(std::array::from_fn(|i| {
            let equal = L::mask(self.0[i] == other.0[i]);
            (if_equal.0[i] & equal) | (otherwise.0[i] & !equal)
        }))
    }
    #[inline(always)]
    fn negate_where_negative(self, sign: Self) -> Self {
        self.zip(sign, |value, sign| value.negate_where(sign.sign_mask()))
    }
    #[inline(always)]
    fn any_negative(self) -> bool {
        self.0.iter().fold(L::default(), |acc, &value| acc | value).is_negative()
    }
    #[inline(always)]
    fn scaled(self, numerator: i32) -> Self {
        Rows(self.0.map(|value| value.scaled(numerator)))
    }
}

/// Two vectors as one of twice the rows: a chunk's per-circulant work (its position, bounds
/// checks, loop) is spread over twice the edges.
#[derive(Debug, Clone, Copy)]
pub struct Pair<V>(V, V);

impl<V> Pair<V> {
    #[inline(always)]
    fn both(self, other: Self, f: impl Fn(V, V) -> V) -> Self {
        Pair(f(self.0, other.0), f(self.1, other.1))
    }
}

impl<L: Lane, V: RowVector<L>> RowVector<L> for Pair<V> {
    const ROWS: usize = 2 * V::ROWS;
    #[inline(always)]
    fn load(from: &[L]) -> Self {
        let from = &from[..Self::ROWS];
        let (low, high) = from.split_at(V::ROWS);
        Pair(V::load(low), V::load(high))
    }
    #[inline(always)]
    fn store(self, to: &mut [L]) {
        let to = &mut to[..Self::ROWS];
        let (low, high) = to.split_at_mut(V::ROWS);
        self.0.store(low);
        self.1.store(high);
    }
    #[inline(always)]
    fn splat(value: L) -> Self {
        Pair(V::splat(value), V::splat(value))
    }
    #[inline(always)]
    fn saturating_sub(self, other: Self) -> Self {
        self.both(other, V::saturating_sub)
    }
    #[inline(always)]
    fn saturating_add(self, other: Self) -> Self {
        self.both(other, V::saturating_add)
    }
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        self.both(other, V::min)
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        self.both(other, V::max)
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self.both(other, V::xor)
    }
    #[inline(always)]
    fn magnitude(self) -> Self {
        Pair(self.0.magnitude(), self.1.magnitude())
    }
    #[inline(always)]
    fn select_equal(self, other: Self, if_equal: Self, otherwise: Self) -> Self {
        Pair(
            self.0.select_equal(other.0, if_equal.0, otherwise.0),
            self.1.select_equal(other.1, if_equal.1, otherwise.1),
        )
    }
    #[inline(always)]
    fn negate_where_negative(self, sign: Self) -> Self {
        self.both(sign, V::negate_where_negative)
    }
    #[inline(always)]
    fn any_negative(self) -> bool {
        self.0.min(self.1).any_negative()
    }
    #[inline(always)]
    fn scaled(self, numerator: i32) -> Self {
        Pair(self.0.scaled(numerator), self.1.scaled(numerator))
    }
}

#[cfg(target_arch = "x86_64")]
pub use x86::{Avx2Rows16, Avx2Rows8, Avx512Rows16, Avx512Rows8};

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! SAFETY (every `unsafe` block here): these types are only instantiated by the decoder's
    //! AVX2 / AVX-512 entry points, which run only on CPUs with the features (`SimdLevel::detect`),
    //! and are inlined into them; loads and stores go through slices checked to hold a whole vector.
    use super::{Lane, RowVector, Rows};
    use std::arch::x86_64::*;

    /// The operations both lane widths share; `$scaled` gives [`RowVector::scaled`].
    macro_rules! vector_form {
        ($(#[$doc:meta])* $name:ident, $lane:ty, $rows:expr, $register:ty, load $load:ident, store $store:ident, set1 $set1:ident,
         subs $subs:ident, adds $adds:ident, min $min:ident, max $max:ident, xor $xor:ident, abs $abs:ident,
         select_equal |$a:ident, $b:ident, $if_equal:ident, $otherwise:ident| $select:expr,
         negate_where_negative |$value:ident, $sign:ident| $negate:expr,
         any_negative |$any:ident| $any_negative:expr,
         scaled |$scaled_value:ident, $numerator:ident| $scaled:expr) => {
            $(#[$doc])*
            #[derive(Clone, Copy)]
            pub struct $name($register);

            impl RowVector<$lane> for $name {
                const ROWS: usize = $rows;
                #[inline(always)]
                fn load(from: &[$lane]) -> Self {
                    let from = &from[..Self::ROWS];
                    $name(unsafe { $load(from.as_ptr().cast()) })
                }
                #[inline(always)]
                fn store(self, to: &mut [$lane]) {
                    let to = &mut to[..Self::ROWS];
                    unsafe { $store(to.as_mut_ptr().cast(), self.0) }
                }
                #[inline(always)]
                fn splat(value: $lane) -> Self {
                    $name(unsafe { $set1(value) })
                }
                #[inline(always)]
                fn saturating_sub(self, other: Self) -> Self {
                    $name(unsafe { $subs(self.0, other.0) })
                }
                #[inline(always)]
                fn saturating_add(self, other: Self) -> Self {
                    $name(unsafe { $adds(self.0, other.0) })
                }
                #[inline(always)]
                fn min(self, other: Self) -> Self {
                    $name(unsafe { $min(self.0, other.0) })
                }
                #[inline(always)]
                fn max(self, other: Self) -> Self {
                    $name(unsafe { $max(self.0, other.0) })
                }
                #[inline(always)]
                fn xor(self, other: Self) -> Self {
                    $name(unsafe { $xor(self.0, other.0) })
                }
                #[inline(always)]
                fn magnitude(self) -> Self {
                    $name(unsafe { $abs($max(self.0, $set1(-<$lane>::MAX))) })
                }
                #[inline(always)]
                fn select_equal(self, other: Self, if_equal: Self, otherwise: Self) -> Self {
                    let ($a, $b, $if_equal, $otherwise) = (self.0, other.0, if_equal.0, otherwise.0);
                    $name(unsafe { $select })
                }
                #[inline(always)]
                fn negate_where_negative(self, sign: Self) -> Self {
                    let ($value, $sign) = (self.0, sign.0);
                    $name(unsafe { $negate })
                }
                #[inline(always)]
                fn any_negative(self) -> bool {
                    let $any = self.0;
                    unsafe { $any_negative }
                }
                #[inline(always)]
                fn scaled(self, numerator: i32) -> Self {
                    let ($scaled_value, $numerator) = (self, numerator);
                    $scaled
                }
            }
        };
    }

    vector_form!(
        /// 32 lanes of i16 in a 512-bit register (AVX-512 F + BW).
        Avx512Rows16, i16, 32, __m512i, load _mm512_loadu_si512, store _mm512_storeu_si512, set1 _mm512_set1_epi16,
        subs _mm512_subs_epi16, adds _mm512_adds_epi16, min _mm512_min_epi16, max _mm512_max_epi16, xor _mm512_xor_si512, abs _mm512_abs_epi16,
        select_equal |a, b, if_equal, otherwise| _mm512_mask_blend_epi16(_mm512_cmpeq_epi16_mask(a, b), otherwise, if_equal),
        negate_where_negative |value, sign| _mm512_mask_sub_epi16(value, _mm512_movepi16_mask(sign), _mm512_setzero_si512(), value),
        any_negative |v| _mm512_movepi16_mask(v) != 0,
        scaled |vector, numerator| {
            let Ok(factor) = i16::try_from(numerator) else { return via_array(vector, numerator) };
            // (value x numerator) >> 4 truncated to 16 bits is bits 4..20 of the 32-bit product:
            // the low half's bits 4..16 and the high half's bits 0..4.
            unsafe {
                let factor = _mm512_set1_epi16(factor);
                let low = _mm512_mullo_epi16(vector.0, factor);
                let high = _mm512_mulhi_epi16(vector.0, factor);
                Avx512Rows16(_mm512_or_si512(_mm512_slli_epi16::<12>(high), _mm512_srli_epi16::<4>(low)))
            }
        }
    );

    vector_form!(
        /// 16 lanes of i16 in a 256-bit register (AVX2).
        Avx2Rows16, i16, 16, __m256i, load _mm256_loadu_si256, store _mm256_storeu_si256, set1 _mm256_set1_epi16,
        subs _mm256_subs_epi16, adds _mm256_adds_epi16, min _mm256_min_epi16, max _mm256_max_epi16, xor _mm256_xor_si256, abs _mm256_abs_epi16,
        select_equal |a, b, if_equal, otherwise| _mm256_blendv_epi8(otherwise, if_equal, _mm256_cmpeq_epi16(a, b)),
        // `vpsignw` negates where its second operand is negative and zeroes where it is zero;
        // or-ing 1 into the sign source keeps its sign and makes it never zero.
        negate_where_negative |value, sign| _mm256_sign_epi16(value, _mm256_or_si256(sign, _mm256_set1_epi16(1))),
        // The sign bits of each lane's high byte.
        any_negative |v| _mm256_movemask_epi8(v) as u32 & 0xaaaa_aaaa != 0,
        scaled |vector, numerator| {
            let Ok(factor) = i16::try_from(numerator) else { return via_array(vector, numerator) };
            unsafe {
                let factor = _mm256_set1_epi16(factor);
                let low = _mm256_mullo_epi16(vector.0, factor);
                let high = _mm256_mulhi_epi16(vector.0, factor);
                Avx2Rows16(_mm256_or_si256(_mm256_slli_epi16::<12>(high), _mm256_srli_epi16::<4>(low)))
            }
        }
    );

    vector_form!(
        /// 64 lanes of i8 in a 512-bit register (AVX-512 F + BW).
        Avx512Rows8, i8, 64, __m512i, load _mm512_loadu_si512, store _mm512_storeu_si512, set1 _mm512_set1_epi8,
        subs _mm512_subs_epi8, adds _mm512_adds_epi8, min _mm512_min_epi8, max _mm512_max_epi8, xor _mm512_xor_si512, abs _mm512_abs_epi8,
        select_equal |a, b, if_equal, otherwise| _mm512_mask_blend_epi8(_mm512_cmpeq_epi8_mask(a, b), otherwise, if_equal),
        negate_where_negative |value, sign| _mm512_mask_sub_epi8(value, _mm512_movepi8_mask(sign), _mm512_setzero_si512(), value),
        any_negative |v| _mm512_movepi8_mask(v) != 0,
        // No 8-bit multiply: lane by lane, once per chunk (the 8-bit decoder's benchmarked rule is the offset one).
        scaled |vector, numerator| via_array(vector, numerator)
    );

    vector_form!(
        /// 32 lanes of i8 in a 256-bit register (AVX2).
        Avx2Rows8, i8, 32, __m256i, load _mm256_loadu_si256, store _mm256_storeu_si256, set1 _mm256_set1_epi8,
        subs _mm256_subs_epi8, adds _mm256_adds_epi8, min _mm256_min_epi8, max _mm256_max_epi8, xor _mm256_xor_si256, abs _mm256_abs_epi8,
        select_equal |a, b, if_equal, otherwise| _mm256_blendv_epi8(otherwise, if_equal, _mm256_cmpeq_epi8(a, b)),
        negate_where_negative |value, sign| _mm256_sign_epi8(value, _mm256_or_si256(sign, _mm256_set1_epi8(1))),
        any_negative |v| _mm256_movemask_epi8(v) != 0,
        scaled |vector, numerator| via_array(vector, numerator)
    );

    /// A numerator beyond 16 bits (or 8-bit lanes): lane by lane, as the portable form does.
    #[inline(never)]
    fn via_array<L: Lane, V: RowVector<L>>(vector: V, numerator: i32) -> V {
        let mut lanes = [L::default(); 64];
        vector.store(&mut lanes);
        let scaled = Rows::<L, 64>::load(&lanes).scaled(numerator);
        scaled.store(&mut lanes);
        V::load(&lanes)
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::ldpc::min_sum::SimdLevel;
    use proptest::prelude::*;

    fn lanes<L: Lane, V: RowVector<L>>(vector: V) -> Vec<L> {
        let mut out = vec![L::default(); V::ROWS];
        vector.store(&mut out);
        out
    }

    /// Every operation of a vector form against the portable one, on the same lanes.
    fn agrees<L: Lane, V: RowVector<L>>(a: &[L], b: &[L], c: &[L], numerator: i32) {
        type P<L> = Rows<L, 128>;
        let n = V::ROWS;
        let (va, vb, vc) = (V::load(a), V::load(b), V::load(c));
        let (pa, pb, pc) = (P::load(a), P::load(b), P::load(c));
        let portable = |p: P<L>| lanes(p)[..n].to_vec();
        assert_eq!(lanes(va.saturating_sub(vb)), portable(pa.saturating_sub(pb)));
        assert_eq!(lanes(va.saturating_add(vb)), portable(pa.saturating_add(pb)));
        assert_eq!(lanes(va.min(vb)), portable(pa.min(pb)));
        assert_eq!(lanes(va.max(vb)), portable(pa.max(pb)));
        assert_eq!(lanes(va.xor(vb)), portable(pa.xor(pb)));
        assert_eq!(lanes(va.magnitude()), portable(pa.magnitude()));
        assert_eq!(lanes(va.select_equal(vb, vc, va)), portable(pa.select_equal(pb, pc, pa)));
        assert_eq!(lanes(va.magnitude().negate_where_negative(vb)), portable(pa.magnitude().negate_where_negative(pb)));
        assert_eq!(va.any_negative(), a[..n].iter().any(|v| v.is_negative()));
        assert_eq!(lanes(va.magnitude().scaled(numerator)), portable(pa.magnitude().scaled(numerator)));
    }

    /// Lanes `a`, `b` (equal to `a` where `equal_lanes` says, with zero and extreme signs: `vpsign`
    /// zeroes where its sign source is zero) and `c`, 128 of each.
    fn inputs<L: Lane>(a: &[L], b: &[L], equal_lanes: u128, extremes: [L; 6]) -> (Vec<L>, Vec<L>, Vec<L>) {
        let b: Vec<L> =
            b.iter().zip(a).enumerate().map(|(i, (&b, &a))| if equal_lanes >> i & 1 == 1 { a } else { b }).collect();
        let b: Vec<L> =
            b.iter().enumerate().map(|(i, &v)| if (8..14).contains(&i) { extremes[i - 8] } else { v }).collect();
        let c: Vec<L> = a.iter().rev().copied().collect();
        let a: Vec<L> = a.iter().enumerate().map(|(i, &v)| if i < extremes.len() { extremes[i] } else { v }).collect();
        (a, b, c)
    }

    proptest! {
        #[test]
        fn intrinsic_forms_match_the_portable_one(a in prop::collection::vec(any::<i16>(), 128), b in prop::collection::vec(any::<i16>(), 128), equal_lanes in any::<u128>(), numerator in prop_oneof![0i32..=16, -40_000i32..40_000]) {
            let (a16, b16, c16) = inputs(&a, &b, equal_lanes, [i16::MIN, i16::MIN + 1, -1, 0, 1, i16::MAX]);
            let (a8, b8, c8) = {
                let narrow = |v: &[i16]| v.iter().map(|&x| x as i8).collect::<Vec<i8>>();
                inputs(&narrow(&a), &narrow(&b), equal_lanes, [i8::MIN, i8::MIN + 1, -1, 0, 1, i8::MAX])
            };
            if SimdLevel::detect() >= SimdLevel::Avx2 {
                agrees::<i16, Avx2Rows16>(&a16, &b16, &c16, numerator);
                agrees::<i16, Pair<Avx2Rows16>>(&a16, &b16, &c16, numerator);
                agrees::<i8, Avx2Rows8>(&a8, &b8, &c8, numerator);
            }
            if SimdLevel::detect() >= SimdLevel::Avx512 {
                agrees::<i16, Avx512Rows16>(&a16, &b16, &c16, numerator);
                agrees::<i16, Pair<Avx512Rows16>>(&a16, &b16, &c16, numerator);
                agrees::<i8, Avx512Rows8>(&a8, &b8, &c8, numerator);
            }
        }
    }
}
