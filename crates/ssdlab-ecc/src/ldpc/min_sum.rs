//! Layered min-sum decoding (normalized or offset), in 16-bit fixed point.
//!
//! Layers are the block rows. Within a layer the Z check rows touch disjoint variables (each block
//! column appears at most once per block row and a circulant is a permutation), so all Z rows are
//! processed together: every loop below runs over r in 0..Z over contiguous (rotated) slices, which
//! the compiler turns into SIMD without target-specific code. Messages saturate at +-i16::MAX.
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

pub struct MinSumDecoder<'a> {
    code: &'a QcLdpcCode,
    rule: CheckNodeRule,
    max_iterations: u32,
    /// Posterior LLRs, one per codeword bit.
    posterior: Vec<i16>,
    /// Check-to-variable messages, layer by layer, circulant by circulant, row by row.
    messages: Vec<i16>,
    /// Start of each layer in `messages`.
    layer_offsets: Vec<usize>,
    scratch: Vec<i16>,
    min1: Vec<i16>,
    min2: Vec<i16>,
    argmin: Vec<i16>,
    signs: Vec<i16>,
}

impl<'a> MinSumDecoder<'a> {
    pub fn new(code: &'a QcLdpcCode, rule: CheckNodeRule, max_iterations: u32) -> Self {
        let z = code.z;
        let mut layer_offsets = Vec::with_capacity(code.layers.len());
        let mut total = 0;
        for layer in &code.layers {
            layer_offsets.push(total);
            total += layer.len() * z;
        }
        let widest = code.layers.iter().map(|l| l.len()).max().unwrap_or(0);
        MinSumDecoder {
            code,
            rule,
            max_iterations,
            posterior: vec![0; code.n()],
            messages: vec![0; total],
            layer_offsets,
            scratch: vec![0; widest * z],
            min1: vec![0; z],
            min2: vec![0; z],
            argmin: vec![0; z],
            signs: vec![0; z],
        }
    }

    /// Quantizes real-valued channel LLRs into the decoder's fixed point.
    pub fn quantize(llr: f64) -> i16 {
        (llr * LLR_SCALE).round().clamp(-(CHANNEL_LLR_LIMIT as f64), CHANNEL_LLR_LIMIT as f64) as i16
    }

    /// Decodes fixed-point channel LLRs (see [`MinSumDecoder::quantize`]).
    pub fn decode(&mut self, channel: &[i16]) -> DecodeOutcome {
        assert_eq!(channel.len(), self.code.n());
        self.posterior.copy_from_slice(channel);
        self.messages.iter_mut().for_each(|m| *m = 0);
        if self.syndrome_is_zero() {
            return DecodeOutcome { success: true, iterations: 0 };
        }
        for iteration in 1..=self.max_iterations {
            for layer in 0..self.code.layers.len() {
                self.process_layer(layer);
            }
            if self.syndrome_is_zero() {
                return DecodeOutcome { success: true, iterations: iteration };
            }
        }
        DecodeOutcome { success: false, iterations: self.max_iterations }
    }

    /// Hard decisions of the current posterior (one bit per byte).
    pub fn hard_decisions(&self) -> Vec<u8> {
        self.posterior.iter().map(|&l| (l < 0) as u8).collect()
    }

    /// Hard decisions of the information bits equal `info`.
    pub fn information_matches(&self, info: &[u8]) -> bool {
        self.posterior[..info.len()].iter().zip(info).all(|(&l, &b)| ((l < 0) as u8) == b)
    }

    fn scale(&self, magnitude: i16) -> i16 {
        match self.rule {
            CheckNodeRule::Normalized { factor } => {
                let numerator = (factor * 16.0).round() as i32;
                ((magnitude as i32 * numerator) >> 4) as i16
            }
            CheckNodeRule::Offset { offset } => {
                let steps = (offset * LLR_SCALE).round() as i16;
                magnitude.saturating_sub(steps).max(0)
            }
        }
    }

    fn process_layer(&mut self, layer: usize) {
        let z = self.code.z;
        let circulants = &self.code.layers[layer];
        let base = self.layer_offsets[layer];
        // 1. Variable-to-check messages: posterior minus this layer's previous check message.
        for (e, c) in circulants.iter().enumerate() {
            let column = c.block_column * z;
            let scratch = &mut self.scratch[e * z..(e + 1) * z];
            let messages = &self.messages[base + e * z..base + (e + 1) * z];
            let head = z - c.shift;
            let (first, second) = scratch.split_at_mut(head);
            let (m_first, m_second) = messages.split_at(head);
            for ((t, &l), &m) in first.iter_mut().zip(&self.posterior[column + c.shift..column + z]).zip(m_first) {
                *t = l.saturating_sub(m);
            }
            for ((t, &l), &m) in second.iter_mut().zip(&self.posterior[column..column + c.shift]).zip(m_second) {
                *t = l.saturating_sub(m);
            }
        }
        // 2. Two smallest magnitudes, position of the smallest, sign parity; all rows at once.
        self.min1.iter_mut().for_each(|m| *m = i16::MAX);
        self.min2.iter_mut().for_each(|m| *m = i16::MAX);
        self.argmin.iter_mut().for_each(|m| *m = 0);
        self.signs.iter_mut().for_each(|m| *m = 0);
        for e in 0..circulants.len() {
            let scratch = &self.scratch[e * z..(e + 1) * z];
            let index = e as i16;
            let rows = self.min1.iter_mut().zip(self.min2.iter_mut()).zip(self.argmin.iter_mut()).zip(self.signs.iter_mut()).zip(scratch);
            for ((((min1, min2), argmin), sign), &value) in rows {
                let magnitude = value.max(-i16::MAX).abs();
                let smaller = magnitude < *min1;
                *min2 = if smaller { *min1 } else { (*min2).min(magnitude) };
                *min1 = (*min1).min(magnitude);
                *argmin = if smaller { index } else { *argmin };
                *sign ^= value >> 15;
            }
        }
        match self.rule {
            CheckNodeRule::Normalized { factor } => {
                let numerator = (factor * 16.0).round() as i32;
                for m in self.min1.iter_mut().chain(self.min2.iter_mut()) {
                    *m = ((*m as i32 * numerator) >> 4) as i16;
                }
            }
            CheckNodeRule::Offset { .. } => {
                for r in 0..z {
                    self.min1[r] = self.scale(self.min1[r]);
                    self.min2[r] = self.scale(self.min2[r]);
                }
            }
        }
        // 3. New check messages and posteriors.
        for (e, c) in circulants.iter().enumerate() {
            let column = c.block_column * z;
            let index = e as i16;
            let messages = &mut self.messages[base + e * z..base + (e + 1) * z];
            let scratch = &self.scratch[e * z..(e + 1) * z];
            let rows = messages.iter_mut().zip(scratch).zip(&self.argmin).zip(&self.min1).zip(&self.min2).zip(&self.signs);
            for (((((message, &value), &argmin), &min1), &min2), &sign) in rows {
                let magnitude = if argmin == index { min2 } else { min1 };
                // sign is -1 when an odd number of inputs are negative; exclude this edge's own sign.
                let negative = sign ^ (value >> 15);
                *message = (magnitude ^ negative) - negative;
            }
            let head = z - c.shift;
            let (s_first, s_second) = scratch.split_at(head);
            let (m_first, m_second) = messages.split_at(head);
            for ((p, &t), &m) in self.posterior[column + c.shift..column + z].iter_mut().zip(s_first).zip(m_first) {
                *p = t.saturating_add(m);
            }
            for ((p, &t), &m) in self.posterior[column..column + c.shift].iter_mut().zip(s_second).zip(m_second) {
                *p = t.saturating_add(m);
            }
        }
    }

    fn syndrome_is_zero(&mut self) -> bool {
        let z = self.code.z;
        for layer in &self.code.layers {
            let parity = &mut self.signs;
            parity.iter_mut().for_each(|p| *p = 0);
            for c in layer {
                let column = c.block_column * z;
                let head = z - c.shift;
                for (p, &l) in parity[..head].iter_mut().zip(&self.posterior[column + c.shift..column + z]) {
                    *p ^= l >> 15;
                }
                for (p, &l) in parity[head..].iter_mut().zip(&self.posterior[column..column + c.shift]) {
                    *p ^= l >> 15;
                }
            }
            if parity.iter().any(|&p| p != 0) {
                return false;
            }
        }
        true
    }
}
