//! Layered min-sum decoding (normalized or offset), in 16-bit fixed point (every curve and decoding
//! table) or 8-bit ([`Lane`]: twice the lanes per vector, for throughput comparisons).
//!
//! Layers are the block rows. Within a layer the Z check rows touch disjoint variables (each block
//! column appears at most once per block row and a circulant is a permutation), so all Z rows are
//! processed together: every loop below runs over a circulant's Z variables as contiguous slices
//! (the rotation is absorbed by doubled row arrays), which the compiler turns into SIMD. The same loops are compiled three times and one is chosen at run
//! time ([`SimdLevel`]): AVX-512BW (32 lanes of i16), AVX2 (16 lanes) or the portable baseline (SSE2,
//! 8 lanes, or whatever the target has). Integer arithmetic makes every path's decisions
//! bit-identical (a property test decodes random frames on each). Messages saturate at +-i16::MAX.
//! LLR sign convention: positive means bit 0. Early termination when the hard decisions satisfy all
//! checks. Source: Hocevar, "A reduced complexity decoder architecture via layered decoding of LDPC
//! codes" (SiPS 2004); Chen & Fossorier, normalized/offset BP-based decoding (IEEE Trans. Commun. 2002).

use super::QcLdpcCode;

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
    Copy + Ord + Default + std::fmt::Debug + std::ops::BitAnd<Output = Self> + std::ops::BitOr<Output = Self> + std::ops::BitXor<Output = Self> + std::ops::Not<Output = Self> + Send + Sync
{
    const MAX: Self;
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
    ($t:ty, $scale:expr, $limit:expr, $message_limit:expr) => {
        impl Lane for $t {
            const MAX: Self = <$t>::MAX;
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
lane!(i16, LLR_SCALE, CHANNEL_LLR_LIMIT, i16::MAX);
/// 8-bit check messages are clipped at the channel limit (15.5 LLR units): without a clip, posteriors
/// saturated at 63.5 and half of the frames at RBER 5e-3 failed (33 of 64 at 10 iterations; 64 of 64 with it).
const MESSAGE_LIMIT_8: i8 = 31;
// 8-bit: 1/2 LLR steps, channel clipped at 15.5 LLR units, posteriors saturating at 63.5.
lane!(i8, 2.0, 31, MESSAGE_LIMIT_8);

pub struct MinSumDecoder<'a, L: Lane = i16> {
    code: &'a QcLdpcCode,
    rule: CheckNodeRule,
    max_iterations: u32,
    /// Posterior LLRs, one per bit, in block-column order. (An earlier layout kept every column twice
    /// so that a circulant's rotated view was one slice, and re-synchronised the copies after each
    /// circulant; now the rotation is carried by the doubled row arrays, see `process_layer`.)
    posterior: Vec<L>,
    /// Check-to-variable messages, layer by layer, circulant by circulant, row by row.
    messages: Vec<L>,
    /// Start of each layer in `messages`.
    layer_offsets: Vec<usize>,
    workspace: Workspace<L>,
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
        let z = code.z;
        let mut layer_offsets = Vec::with_capacity(code.layers.len());
        let mut total = 0;
        for layer in &code.layers {
            layer_offsets.push(total);
            total += layer.len() * z;
        }
        MinSumDecoder {
            code,
            rule,
            max_iterations,
            posterior: vec![L::default(); code.n()],
            messages: vec![L::default(); total],
            layer_offsets,
            workspace: Workspace {
                min1: vec![L::default(); 2 * z],
                min2: vec![L::default(); 2 * z],
                signs: vec![L::default(); 2 * z],
                out1: vec![L::default(); 2 * z],
                out2: vec![L::default(); 2 * z],
            },
            simd: SimdLevel::detect(),
        }
    }

    /// Runs the loops with `level` (at most what the CPU supports: a wider level is lowered to it).
    pub fn with_simd(mut self, level: SimdLevel) -> Self {
        self.simd = level.min(SimdLevel::detect());
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
        self.posterior.copy_from_slice(channel);
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
        self.decode_portable(schedule)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2")]
    unsafe fn decode_avx512(&mut self, schedule: Schedule) -> DecodeOutcome {
        self.decode_portable(schedule)
    }

    /// The decoding loop; `inline(always)` so that each entry point compiles it for its vectors.
    #[inline(always)]
    fn decode_portable(&mut self, schedule: Schedule) -> DecodeOutcome {
        if schedule.early_stop && self.syndrome_is_zero() {
            return DecodeOutcome { success: true, iterations: 0 };
        }
        for iteration in 1..=schedule.iterations {
            for layer in 0..self.code.layers.len() {
                self.process_layer(layer);
            }
            if schedule.early_stop && self.syndrome_is_zero() {
                return DecodeOutcome { success: true, iterations: iteration };
            }
        }
        let success = !schedule.early_stop && self.syndrome_is_zero();
        DecodeOutcome { success, iterations: schedule.iterations }
    }

    /// Hard decisions of the current posterior (one bit per byte).
    pub fn hard_decisions(&self) -> Vec<u8> {
        self.posterior.iter().map(|&l| l.is_negative() as u8).collect()
    }

    /// Hard decisions of the information bits equal `info`.
    pub fn information_matches(&self, info: &[u8]) -> bool {
        // Blocks of 64 without an early exit inside (so they vectorise), one check per block.
        self.posterior.chunks(64).zip(info.chunks(64)).all(|(posterior, bits)| posterior.iter().zip(bits).fold(0u8, |differ, (&l, &b)| differ | ((l.is_negative() as u8) ^ b)) == 0)
    }

    #[inline(always)]
    fn process_layer(&mut self, layer: usize) {
        let z = self.code.z;
        let circulants = &self.code.layers[layer];
        let base = self.layer_offsets[layer];
        let Workspace { min1, min2, signs, out1, out2 } = &mut self.workspace;
        // Loops run over a circulant's variables in posterior order p = 0..Z (one contiguous slice
        // of the posterior and of its messages, no split); variable p meets check row
        // r = (p - shift) mod Z, which is index p + Z - shift of the doubled (2Z) row arrays: rows
        // Z-shift..Z in the first copy, 0..Z-shift in the second. Each copy gathers a two-minimum
        // over part of the row's edges; merging the two copies gives exactly the row's minimum,
        // second minimum and sign parity (a two-minimum merges exactly), whatever the split.
        //
        // 1. Variable-to-check messages (posterior minus this layer's previous check message), and
        //    for every check row the two smallest magnitudes and the xor of all inputs (its sign bit
        //    is the parity of negative inputs).
        min1.fill(L::MAX);
        min2.fill(L::MAX);
        signs.fill(L::default());
        for (e, c) in circulants.iter().enumerate() {
            let column = c.block_column * z;
            let rows = z - c.shift..2 * z - c.shift;
            let messages = &self.messages[base + e * z..base + (e + 1) * z];
            absorb(&self.posterior[column..column + z], messages, &mut min1[rows.clone()], &mut min2[rows.clone()], &mut signs[rows]);
        }
        // 2. Merged rows and their corrected magnitudes, in one pass (both copies).
        match self.rule {
            CheckNodeRule::Normalized { factor } => {
                let numerator = (factor * 16.0).round() as i32;
                merge_and_correct(min1, min2, signs, out1, out2, z, |m: L| m.scaled(numerator).min(L::MESSAGE_LIMIT));
            }
            CheckNodeRule::Offset { offset } => {
                let steps = L::from_steps((offset * L::SCALE).max(0.0));
                merge_and_correct(min1, min2, signs, out1, out2, z, |m: L| m.saturating_sub(steps).max(L::default()).min(L::MESSAGE_LIMIT));
            }
        }
        // 3. New check messages and posteriors.
        for (e, c) in circulants.iter().enumerate() {
            let column = c.block_column * z;
            let rows = z - c.shift..2 * z - c.shift;
            let messages = &mut self.messages[base + e * z..base + (e + 1) * z];
            emit(&min1[rows.clone()], &out1[rows.clone()], &out2[rows.clone()], &signs[rows], messages, &mut self.posterior[column..column + z]);
        }
    }

    #[inline(always)]
    fn syndrome_is_zero(&mut self) -> bool {
        let z = self.code.z;
        let parity = &mut self.workspace.signs;
        for layer in &self.code.layers {
            parity.fill(L::default());
            for c in layer {
                let column = c.block_column * z;
                xor_into(&mut parity[z - c.shift..2 * z - c.shift], &self.posterior[column..column + z]);
            }
            // The sign bit of each row's xor (both copies together) is the parity of that check's
            // hard decisions.
            let (first, second) = parity.split_at(z);
            if first.iter().zip(second).fold(L::default(), |acc, (&a, &b)| acc | (a ^ b)).is_negative() {
                return false;
            }
        }
        true
    }
}

/// Merges the two copies of the doubled row arrays (see `process_layer`) and writes the merged
/// minimum, sign parity and both corrected magnitudes into both copies, so that any rotated view
/// reads the whole row's values (the merged second minimum is needed only corrected).
#[inline(always)]
fn merge_and_correct<L: Lane>(min1: &mut [L], min2: &[L], signs: &mut [L], out1: &mut [L], out2: &mut [L], z: usize, correct: impl Fn(L) -> L) {
    let (min1_a, min1_b) = min1.split_at_mut(z);
    let (min2_a, min2_b) = min2.split_at(z);
    let (signs_a, signs_b) = signs.split_at_mut(z);
    let (out1_a, out1_b) = out1.split_at_mut(z);
    let (out2_a, out2_b) = out2.split_at_mut(z);
    let (min1_a, min1_b, min2_a, min2_b) = (&mut min1_a[..z], &mut min1_b[..z], &min2_a[..z], &min2_b[..z]);
    let (signs_a, signs_b, out1_a, out1_b, out2_a, out2_b) = (&mut signs_a[..z], &mut signs_b[..z], &mut out1_a[..z], &mut out1_b[..z], &mut out2_a[..z], &mut out2_b[..z]);
    for i in 0..z {
        let (a1, b1) = (min1_a[i], min1_b[i]);
        let first = a1.min(b1);
        let second = a1.max(b1).min(min2_a[i].min(min2_b[i]));
        let parity = signs_a[i] ^ signs_b[i];
        let (corrected_first, corrected_second) = (correct(first), correct(second));
        min1_a[i] = first;
        min1_b[i] = first;
        signs_a[i] = parity;
        signs_b[i] = parity;
        out1_a[i] = corrected_first;
        out1_b[i] = corrected_first;
        out2_a[i] = corrected_second;
        out2_b[i] = corrected_second;
    }
}

/// Per-layer row arrays, doubled (2Z, see `process_layer`).
struct Workspace<L> {
    min1: Vec<L>,
    min2: Vec<L>,
    signs: Vec<L>,
    out1: Vec<L>,
    out2: Vec<L>,
}

/// Variable-to-check messages of one circulant, folded into the rows' minimum tracking.
/// Written as an indexed loop over equal-length slices so that it vectorises; the second minimum
/// is updated branch-free as min(min2, max(min1, |t|)).
#[inline(always)]
fn absorb<L: Lane>(posterior: &[L], messages: &[L], min1: &mut [L], min2: &mut [L], signs: &mut [L]) {
    let n = posterior.len();
    let (messages, min1, min2, signs) = (&messages[..n], &mut min1[..n], &mut min2[..n], &mut signs[..n]);
    for i in 0..n {
        let t = posterior[i].saturating_sub(messages[i]);
        let magnitude = t.magnitude();
        let m1 = min1[i];
        min2[i] = min2[i].min(magnitude.max(m1));
        min1[i] = m1.min(magnitude);
        signs[i] = signs[i] ^ t;
    }
}

/// New check-to-variable messages of one circulant and the updated posteriors. An edge whose
/// input magnitude equals the row minimum gets the second minimum (on ties both are equal).
#[inline(always)]
/// The variable-to-check input t is recomputed from the posterior and the old message (both as
/// `absorb` read them: a layer touches each variable once) instead of being stored in between.
fn emit<L: Lane>(min1: &[L], out1: &[L], out2: &[L], signs: &[L], messages: &mut [L], posterior: &mut [L]) {
    let n = posterior.len();
    let (min1, out1, out2, signs, messages) = (&min1[..n], &out1[..n], &out2[..n], &signs[..n], &mut messages[..n]);
    for i in 0..n {
        let t = posterior[i].saturating_sub(messages[i]);
        let magnitude = t.magnitude();
        // Branch-free select (both loads unconditional, so the loop stays vectorised).
        let second = L::mask(magnitude == min1[i]);
        let chosen = (out2[i] & second) | (out1[i] & !second);
        // All ones when the other inputs hold an odd number of negatives (this edge's own sign excluded).
        let negative = (signs[i] ^ t).sign_mask();
        let message = chosen.negate_where(negative);
        messages[i] = message;
        posterior[i] = t.saturating_add(message);
    }
}

/// How long a decode runs: until the checks are satisfied (at most `iterations`), or exactly `iterations`.
#[derive(Debug, Clone, Copy)]
struct Schedule {
    early_stop: bool,
    iterations: u32,
}

#[inline(always)]
fn xor_into<L: Lane>(parity: &mut [L], values: &[L]) {
    let n = parity.len();
    let values = &values[..n];
    for i in 0..n {
        parity[i] = parity[i] ^ values[i];
    }
}
