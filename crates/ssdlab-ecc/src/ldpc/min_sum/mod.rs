//! Layered min-sum decoding (normalized or offset), in 16-bit fixed point (every curve and decoding
//! table) or 8-bit ([`Lane`]: twice the lanes per vector, for throughput comparisons).
//!
//! Layers are the block rows. Within a layer the Z check rows touch disjoint variables (each block
//! column appears at most once per block row and a circulant is a permutation), so rows are
//! processed together: a chunk of 32 rows at a time (one vector's lanes), its minima in registers
//! across the layer's circulants ([`row_chunks`]), each circulant's variables one contiguous load
//! thanks to padded block columns ([`layout`]). The same loops are compiled three times and one is
//! chosen at run time ([`SimdLevel`]): AVX-512BW (one 512-bit vector of 32 i16 lanes), AVX2 (two
//! 256-bit vectors) or the portable baseline (an array the compiler vectorises for SSE2 or whatever
//! the target has; also the 8-bit decoder's form on every level). Integer arithmetic makes every
//! path's decisions bit-identical (a property test decodes random frames on each, and a textbook
//! edge-by-edge decoder in `tests/min_sum_reference.rs` decides the same). Messages saturate at +-i16::MAX.
//! LLR sign convention: positive means bit 0. Early termination when the hard decisions satisfy all
//! checks. Source: Hocevar, "A reduced complexity decoder architecture via layered decoding of LDPC
//! codes" (SiPS 2004); Chen & Fossorier, normalized/offset BP-based decoding (IEEE Trans. Commun. 2002).

mod cache_aligned;
mod layout;
mod row_chunks;
// Private: its items are `pub` only so that `Lane` can name them. Outside this crate the
// `RowVector` trait cannot be named, so the x86 forms' methods (which assume the CPU features the
// entry points check) cannot be called from anywhere but the decoder.
mod row_vectors;

use super::QcLdpcCode;
use cache_aligned::CacheAligned;
use layout::Layout;
use row_vectors::{Correction, RowVector, Rows};

/// How check-node magnitudes are corrected.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CheckNodeRule {
    /// Multiply the minimum by `factor` (0.75 works for rate 8/9; plain min-sum, factor 1, does not).
    Normalized { factor: f64 },
    /// Subtract `offset` (in LLR units) from the minimum, floored at zero.
    Offset { offset: f64 },
}

/// Fixed-point scale: LLR units per integer step.
pub const LLR_SCALE: f64 = 8.0;
/// Channel LLRs are clipped to this magnitude (in integer steps) before decoding.
pub const CHANNEL_LLR_LIMIT: i16 = 15 * 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOutcome {
    pub success: bool,
    pub iterations: u32,
}

/// The instruction set the decoder's loops run with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimdLevel {
    /// The compilation target's baseline (SSE2 on x86-64).
    Portable,
    Avx2,
    /// AVX-512 F, BW, VL and DQ (512-bit vectors of 16-bit lanes).
    Avx512,
}

impl SimdLevel {
    /// The widest level the running CPU supports.
    pub fn detect() -> SimdLevel {
        #[cfg(target_arch = "x86_64")]
        {
            // Every feature the AVX-512 entry point is compiled with (VL and DQ give the compiler the
            // EVEX forms of narrower operations and mask moves: the 8-bit decoder's 187 -> 192-198
            // Mbit/s at 10 fixed iterations here).
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512dq")
                && std::arch::is_x86_feature_detected!("bmi2")
            {
                return SimdLevel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return SimdLevel::Avx2;
            }
        }
        SimdLevel::Portable
    }

    /// Every level the running CPU supports, narrowest first.
    pub fn available() -> Vec<SimdLevel> {
        let best = SimdLevel::detect();
        [SimdLevel::Portable, SimdLevel::Avx2, SimdLevel::Avx512].into_iter().filter(|&level| level <= best).collect()
    }

    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Portable => "portable",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
        }
    }
}

/// A fixed-point message type: 16-bit (the default, what every curve and decoding table uses) or
/// 8-bit (twice the lanes per vector; coarser LLRs, see [`Lane::SCALE`]).
pub trait Lane:
    Copy
    + Ord
    + Default
    + std::fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + Send
    + Sync
{
    const MAX: Self;
    /// The vectors the AVX-512 and AVX2 entry points decode with.
    #[doc(hidden)]
    type Avx512Rows: RowVector<Self>;
    #[doc(hidden)]
    type Avx2Rows: RowVector<Self>;
    /// LLR units per integer step.
    const SCALE: f64;
    /// Channel LLRs are clipped to this many steps.
    const CHANNEL_LIMIT: Self;
    /// Check-to-variable magnitudes are clipped to this many steps (8 bits: so that a posterior of
    /// the channel and a column's messages saturates rarely).
    const MESSAGE_LIMIT: Self;
    fn saturating_add(self, other: Self) -> Self;
    fn saturating_sub(self, other: Self) -> Self;
    /// |self|, with the most negative value first raised to -MAX (so the result fits).
    fn magnitude(self) -> Self;
    /// All ones when `condition`, else zero.
    fn mask(condition: bool) -> Self;
    /// All ones when negative, else zero.
    fn sign_mask(self) -> Self;
    /// Two's-complement negation where `mask` is all ones (`(self ^ mask) - mask`).
    fn negate_where(self, mask: Self) -> Self;
    /// `self x numerator / 16`, rounded toward minus infinity (normalised min-sum).
    fn scaled(self, numerator: i32) -> Self;
    fn from_steps(steps: f64) -> Self;
    fn is_negative(self) -> bool;
}

macro_rules! lane {
    ($t:ty, $scale:expr, $limit:expr, $message_limit:expr, $avx512:ty, $avx2:ty) => {
        impl Lane for $t {
            const MAX: Self = <$t>::MAX;
            type Avx512Rows = $avx512;
            type Avx2Rows = $avx2;
            const SCALE: f64 = $scale;
            const CHANNEL_LIMIT: Self = $limit;
            const MESSAGE_LIMIT: Self = $message_limit;
            #[inline(always)]
            fn saturating_add(self, other: Self) -> Self {
                <$t>::saturating_add(self, other)
            }
            #[inline(always)]
            fn saturating_sub(self, other: Self) -> Self {
                <$t>::saturating_sub(self, other)
            }
            #[inline(always)]
            fn magnitude(self) -> Self {
                self.max(-<$t>::MAX).abs()
            }
            #[inline(always)]
            fn mask(condition: bool) -> Self {
                -(condition as $t)
            }
            #[inline(always)]
            fn sign_mask(self) -> Self {
                self >> (<$t>::BITS - 1)
            }
            #[inline(always)]
            fn negate_where(self, mask: Self) -> Self {
                (self ^ mask).wrapping_sub(mask)
            }
            #[inline(always)]
            fn scaled(self, numerator: i32) -> Self {
                ((self as i32 * numerator) >> 4) as $t
            }
            fn from_steps(steps: f64) -> Self {
                steps.round().clamp(<$t>::MIN as f64, <$t>::MAX as f64) as $t
            }
            #[inline(always)]
            fn is_negative(self) -> bool {
                self < 0
            }
        }
    };
}

// 16-bit: 1/8 LLR steps, channel clipped at 15 LLR units (the decoder every curve and table uses).
#[cfg(target_arch = "x86_64")]
lane!(
    i16,
    LLR_SCALE,
    CHANNEL_LLR_LIMIT,
    i16::MAX,
    row_vectors::Avx512Rows16,
    row_vectors::Pair<row_vectors::Avx2Rows16>
);
#[cfg(not(target_arch = "x86_64"))]
lane!(i16, LLR_SCALE, CHANNEL_LLR_LIMIT, i16::MAX, PortableRows<i16>, PortableRows<i16>);
/// 8-bit check messages are clipped at the channel limit (15.5 LLR units): without a clip, posteriors
/// saturated at 63.5 and half of the frames at RBER 5e-3 failed (33 of 64 at 10 iterations; 64 of 64 with it).
const MESSAGE_LIMIT_8: i8 = 31;
// 8-bit: 1/2 LLR steps, channel clipped at 15.5 LLR units, posteriors saturating at 63.5.
#[cfg(target_arch = "x86_64")]
lane!(i8, 2.0, 31, MESSAGE_LIMIT_8, row_vectors::Avx512Rows8, row_vectors::Pair<row_vectors::Avx2Rows8>);
#[cfg(not(target_arch = "x86_64"))]
lane!(i8, 2.0, 31, MESSAGE_LIMIT_8, PortableRows<i8>, PortableRows<i8>);

/// Rows per chunk of the portable form.
const PORTABLE_ROWS: usize = 32;
type PortableRows<L> = Rows<L, PORTABLE_ROWS>;

/// Rows per chunk for a lane type on a SIMD level.
fn vector_rows<L: Lane>(level: SimdLevel) -> usize {
    match level {
        SimdLevel::Avx512 => L::Avx512Rows::ROWS,
        SimdLevel::Avx2 => L::Avx2Rows::ROWS,
        SimdLevel::Portable => PORTABLE_ROWS,
    }
}

pub struct MinSumDecoder<'a, L: Lane = i16> {
    code: &'a QcLdpcCode,
    rule: CheckNodeRule,
    max_iterations: u32,
    layout: Layout,
    /// Posterior LLRs, block column by block column, each column padded (see [`layout`]).
    posterior: CacheAligned<L>,
    /// Check-to-variable messages, layer by layer, chunk by chunk, circulant by circulant; each
    /// (chunk, circulant) is one vector, on a line of its own.
    messages: CacheAligned<L>,
    /// The instruction set the loops run with (the widest the CPU has unless set).
    simd: SimdLevel,
}

impl<'a> MinSumDecoder<'a> {
    /// A 16-bit decoder.
    pub fn new(code: &'a QcLdpcCode, rule: CheckNodeRule, max_iterations: u32) -> Self {
        Self::with_lanes(code, rule, max_iterations)
    }

    /// Quantizes real-valued channel LLRs into the 16-bit decoder's fixed point.
    pub fn quantize(llr: f64) -> i16 {
        quantize(llr)
    }
}

/// Quantizes a real-valued channel LLR into `L`'s fixed point (clipped at the channel limit).
pub fn quantize<L: Lane>(llr: f64) -> L {
    let limit = L::CHANNEL_LIMIT;
    L::from_steps(llr * L::SCALE).max(L::default().saturating_sub(limit)).min(limit)
}

impl<'a, L: Lane> MinSumDecoder<'a, L> {
    /// A decoder with messages of type `L` (`MinSumDecoder::<i8>::with_lanes` for 8 bits).
    pub fn with_lanes(code: &'a QcLdpcCode, rule: CheckNodeRule, max_iterations: u32) -> Self {
        let simd = SimdLevel::detect();
        let layout = Layout::new(code, vector_rows::<L>(simd));
        MinSumDecoder {
            code,
            rule,
            max_iterations,
            posterior: CacheAligned::new(layout.posterior_len()),
            messages: CacheAligned::new(layout.messages),
            layout,
            simd,
        }
    }

    /// Runs the loops with `level` (at most what the CPU supports: a wider level is lowered to it).
    pub fn with_simd(mut self, level: SimdLevel) -> Self {
        self.simd = level.min(SimdLevel::detect());
        // Chunks are as wide as the level's vectors.
        self.layout = Layout::new(self.code, vector_rows::<L>(self.simd));
        self.posterior = CacheAligned::new(self.layout.posterior_len());
        self.messages = CacheAligned::new(self.layout.messages);
        self
    }

    pub fn simd(&self) -> SimdLevel {
        self.simd
    }

    /// Decodes fixed-point channel LLRs (see [`MinSumDecoder::quantize`]), stopping as soon as the
    /// hard decisions satisfy every check (at most the decoder's iteration limit).
    pub fn decode(&mut self, channel: &[L]) -> DecodeOutcome {
        self.run(channel, Schedule { early_stop: true, iterations: self.max_iterations })
    }

    /// Decodes with exactly `iterations` iterations and no check in between (how decoders are
    /// compared for throughput); success is the syndrome after the last one.
    pub fn decode_fixed(&mut self, channel: &[L], iterations: u32) -> DecodeOutcome {
        self.run(channel, Schedule { early_stop: false, iterations })
    }

    fn run(&mut self, channel: &[L], schedule: Schedule) -> DecodeOutcome {
        assert_eq!(channel.len(), self.code.n());
        self.layout.load(channel, &mut self.posterior);
        self.messages.iter_mut().for_each(|m| *m = L::default());
        match self.simd {
            // SAFETY (both): `simd` is never above `SimdLevel::detect()`, i.e. the running CPU has
            // the features the function is compiled for.
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512 => unsafe { self.decode_avx512(schedule) },
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx2 => unsafe { self.decode_avx2(schedule) },
            _ => self.decode_portable(schedule),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn decode_avx2(&mut self, schedule: Schedule) -> DecodeOutcome {
        self.decode_with::<L::Avx2Rows>(schedule)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2")]
    unsafe fn decode_avx512(&mut self, schedule: Schedule) -> DecodeOutcome {
        self.decode_with::<L::Avx512Rows>(schedule)
    }

    fn decode_portable(&mut self, schedule: Schedule) -> DecodeOutcome {
        self.decode_with::<PortableRows<L>>(schedule)
    }

    /// The decoding loop with vectors `V` (or single rows when the layout's chunks are; see
    /// [`layout`]); `inline(always)` so that each entry point compiles it for its instruction set.
    #[inline(always)]
    fn decode_with<V: RowVector<L>>(&mut self, schedule: Schedule) -> DecodeOutcome {
        if self.layout.width == V::ROWS {
            self.decode_chunks::<V>(schedule)
        } else {
            self.decode_chunks::<Rows<L, 1>>(schedule)
        }
    }

    #[inline(always)]
    fn decode_chunks<V: RowVector<L>>(&mut self, schedule: Schedule) -> DecodeOutcome {
        debug_assert_eq!(self.layout.width, V::ROWS);
        if schedule.early_stop && self.syndrome_is_zero::<V>() {
            return DecodeOutcome { success: true, iterations: 0 };
        }
        for iteration in 1..=schedule.iterations {
            for layer in 0..self.layout.layers.len() {
                self.process_layer::<V>(layer);
            }
            if schedule.early_stop && self.syndrome_is_zero::<V>() {
                return DecodeOutcome { success: true, iterations: iteration };
            }
        }
        let success = !schedule.early_stop && self.syndrome_is_zero::<V>();
        DecodeOutcome { success, iterations: schedule.iterations }
    }

    /// Hard decisions of the current posterior (one bit per byte).
    pub fn hard_decisions(&self) -> Vec<u8> {
        self.layout.columns(&self.posterior).flatten().map(|&l| l.is_negative() as u8).collect()
    }

    /// Hard decisions of the information bits equal `info`.
    pub fn information_matches(&self, info: &[u8]) -> bool {
        // Blocks of 64 without an early exit inside (so they vectorise), one check per block.
        self.layout.columns(&self.posterior).zip(info.chunks(self.layout.z)).all(|(column, bits)| {
            column.chunks(64).zip(bits.chunks(64)).all(|(posterior, bits)| {
                posterior.iter().zip(bits).fold(0u8, |differ, (&l, &b)| differ | ((l.is_negative() as u8) ^ b)) == 0
            })
        })
    }

    #[inline(always)]
    fn process_layer<V: RowVector<L>>(&mut self, layer: usize) {
        let layout = &self.layout.layers[layer];
        let positions = &self.layout.positions[layout.positions.clone()];
        let messages = &mut self.messages[layout.messages.clone()];
        let correction = match self.rule {
            CheckNodeRule::Normalized { factor } => {
                Correction::Normalized { numerator: (factor * 16.0).round() as i32 }
            }
            CheckNodeRule::Offset { offset } => {
                Correction::Offset { steps: L::from_steps((offset * L::SCALE).max(0.0)) }
            }
        };
        row_chunks::process_layer::<L, V>(&mut self.posterior, messages, positions, layout.circulants, correction);
        self.layout.refresh_pads(layout, &mut self.posterior);
    }

    #[inline(always)]
    fn syndrome_is_zero<V: RowVector<L>>(&self) -> bool {
        // A plain loop, not `Iterator::all` with a closure: the closure would not be inlined into
        // the entry point, and the intrinsics in it would be calls.
        for layer in &self.layout.layers {
            if !row_chunks::layer_is_satisfied::<L, V>(
                &self.posterior,
                &self.layout.positions[layer.positions.clone()],
                layer.circulants,
            ) {
                return false;
            }
        }
        true
    }
}

/// How long a decode runs: until the checks are satisfied (at most `iterations`), or exactly `iterations`.
#[derive(Debug, Clone, Copy)]
struct Schedule {
    early_stop: bool,
    iterations: u32,
}
