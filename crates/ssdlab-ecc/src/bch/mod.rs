//! Binary BCH codes: systematic encoder, Berlekamp-Massey and Chien search decoder.
//!
//! The storage code of ssdlab protects 4 KB (32,768 bits) of user data with at most 512 B (4,096
//! bits) of parity over GF(2^16) (a 4 KB frame needs n > 2^15 - 1): t = 256 needs 4,088 parity bits,
//! because 255 of the minimal polynomials of alpha^1, alpha^3, ..., alpha^511 have degree 16 and that
//! of alpha^257 (which lies in the subfield GF(2^8)) has degree 8. So the code is the (36,856, 32,768)
//! shortened BCH code correcting t = 256 errors, with 511 B of parity ([`BchCode::storage_4kb`]).
//!
//! Codeword layout: bit i is the coefficient of x^i; parity occupies bits 0..r and data bit j sits
//! at r + j, with data bit j = bit j%8 of byte j/8. Left out: erasure decoding.
//! Source: Lin & Costello, *Error Control Coding* (2nd ed.), ch. 6; Berlekamp-Massey after Massey
//! (1969); Chien (1964).

mod chien;

use crate::bits::BitVec;
use crate::galois::GaloisField;
use chien::ChienSearch;

#[derive(Debug, Clone)]
pub struct BchCode {
    field: GaloisField,
    /// Correctable errors.
    pub t: usize,
    /// Data bits (a multiple of 8).
    pub k: usize,
    /// Parity bits (degree of the generator polynomial).
    pub r: usize,
    /// `shift_table[v]` is (v(x) x^r) mod g(x) for every byte v, in the padded register layout
    /// (see `encode_register`) as little-endian bytes; it drives encoding and syndrome computation
    /// a byte at a time.
    shift_table: Vec<u8>,
    /// Words in the padded r-bit register.
    register_words: usize,
    /// Padding below the register's lowest coefficient so its top byte ends a word.
    register_offset: usize,
    /// Root finder for the error locator, with its per-code tables.
    chien: ChienSearch,
    /// One per odd power j < 2t: reduction modulo the minimal polynomial of alpha^j.
    syndrome_reducers: Vec<MinimalPolynomialReducer>,
}

/// Reduces a polynomial modulo the minimal polynomial m(x) of alpha^power, a byte at a time.
#[derive(Debug, Clone)]
struct MinimalPolynomialReducer {
    power: u32,
    /// Degree of m(x) (at most m).
    degree: u32,
    /// table[v] = (v(x) x^degree) mod m(x).
    table: Vec<u16>,
}

impl MinimalPolynomialReducer {
    fn new(field: &GaloisField, power: u32) -> Self {
        let poly = field.minimal_polynomial(power);
        let degree = (poly.len() - 1) as u32;
        let low: u32 = poly[..degree as usize].iter().enumerate().map(|(i, &c)| (c as u32) << i).sum();
        let table = (0..256u32)
            .map(|v| {
                // Shift v's bits (highest first) into a zero register of `degree` bits.
                let mut register = 0u32;
                for bit in (0..8).rev() {
                    let feedback = ((v >> bit) & 1) ^ ((register >> (degree - 1)) & 1);
                    register = (register << 1) & ((1 << degree) - 1);
                    if feedback == 1 {
                        register ^= low;
                    }
                }
                register as u16
            })
            .collect();
        MinimalPolynomialReducer { power, degree, table }
    }

    /// Feeds one byte (bit 7 first) into the systematic-encoder register of m(x): after all the
    /// bytes of p(x) (highest degree first), the register holds (p(x) x^degree) mod m(x).
    #[inline(always)]
    fn step(&self, register: u32, byte: u8) -> u32 {
        let degree = self.degree;
        let mask = (1u32 << degree) - 1;
        if degree >= 8 {
            let top = (register >> (degree - 8)) as u8 ^ byte;
            ((register << 8) & mask) ^ self.table[top as usize] as u32
        } else {
            // Bit-serial for m(x) of degree below 8 (small test codes only).
            let low = self.table[1] as u32; // feeding a single 1 bit leaves m(x) - x^degree
            let mut register = register;
            for bit in (0..8).rev() {
                let feedback = ((byte as u32 >> bit) & 1) ^ ((register >> (degree - 1)) & 1);
                register = (register << 1) & mask;
                if feedback == 1 {
                    register ^= low;
                }
            }
            register
        }
    }
}

/// Why a frame could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BchFailure {
    /// The error-locator polynomial's degree exceeds t.
    TooManyErrors,
    /// The locator has fewer roots in the codeword than its degree (more than t errors).
    LocatorRootsMissing,
}

impl BchCode {
    /// The (36,856, 32,768) t = 256 code protecting a 4 KB sector with 511 B of parity.
    pub fn storage_4kb() -> Self {
        BchCode::new(16, 32_768, 256)
    }

    /// A BCH code over GF(2^m) with `k` data bits correcting `t` errors (shortened as needed).
    pub fn new(m: u32, k: usize, t: usize) -> Self {
        assert!(k.is_multiple_of(8) && k > 0, "data bits must be a positive multiple of 8");
        let field = GaloisField::new(m);
        // g(x) = lcm of the minimal polynomials of alpha^1 .. alpha^(2t); odd powers suffice.
        let mut seen_cosets = vec![false; field.order as usize];
        let mut generator: Vec<u8> = vec![1];
        for power in (1..2 * t as u32).step_by(2) {
            if seen_cosets[(power % field.order) as usize] {
                continue;
            }
            let mut member = power % field.order;
            loop {
                seen_cosets[member as usize] = true;
                member = (member * 2) % field.order;
                if member == power % field.order {
                    break;
                }
            }
            generator = multiply_gf2(&generator, &field.minimal_polynomial(power));
        }
        let r = generator.len() - 1;
        assert!(k + r <= field.order as usize, "k + r exceeds the natural length 2^m - 1");
        let register_words = (r + 8).div_ceil(64);
        let register_offset = register_words * 64 - r;
        // shift_table[v] = (v(x) * x^r) mod g(x), computed bit-serially once.
        let mut shift_table = vec![0u64; 256 * register_words];
        for v in 0..256usize {
            // Remainder of v(x) x^r: feed the 8 bits of v (highest first) into a zero register.
            let mut register = vec![0u8; r];
            for bit in (0..8).rev() {
                let feedback = ((v >> bit) & 1) as u8 ^ register[r - 1];
                for i in (1..r).rev() {
                    register[i] = register[i - 1] ^ (feedback & generator[i]);
                }
                register[0] = feedback & generator[0];
            }
            let row = &mut shift_table[v * register_words..(v + 1) * register_words];
            for (i, &bit) in register.iter().enumerate() {
                if bit == 1 {
                    let padded = i + register_offset;
                    row[padded / 64] |= 1u64 << (padded % 64);
                }
            }
        }
        let chien = ChienSearch::new(&field, t);
        let syndrome_reducers =
            (1..2 * t as u32).step_by(2).map(|j| MinimalPolynomialReducer::new(&field, j)).collect();
        let shift_table = shift_table.iter().flat_map(|word| word.to_le_bytes()).collect();
        BchCode { field, t, k, r, shift_table, register_words, register_offset, chien, syndrome_reducers }
    }

    pub fn n(&self) -> usize {
        self.k + self.r
    }

    /// (x^r m(x)) mod g(x) for the data bytes, in the padded register layout.
    ///
    /// The register is a ring of bytes: shifting it up a byte per data byte moves its origin back
    /// one place (the top byte's place becomes the new, zeroed bottom byte) instead of moving all
    /// its bytes, so a data byte costs one table row xor-ed in two runs. That halved a step that
    /// shifted all 64 words and then xor-ed the row (the bulk of a BCH Monte Carlo frame).
    fn encode_register(&self, data: &[u8]) -> Vec<u64> {
        let bytes = self.register_words * 8;
        let mut ring = vec![0u8; bytes];
        // Physical place of the register's lowest byte.
        let mut origin = 0usize;
        for &byte in data.iter().rev() {
            let top = if origin == 0 { bytes - 1 } else { origin - 1 };
            let feedback = (ring[top] ^ byte) as usize;
            origin = top;
            ring[origin] = 0;
            let row = &self.shift_table[feedback * bytes..(feedback + 1) * bytes];
            let (to_end, wrapped) = row.split_at(bytes - origin);
            for (r, &t) in ring[origin..].iter_mut().zip(to_end) {
                *r ^= t;
            }
            for (r, &t) in ring[..origin].iter_mut().zip(wrapped) {
                *r ^= t;
            }
        }
        let mut register = vec![0u64; self.register_words];
        for (j, word) in register.iter_mut().enumerate() {
            let mut value = [0u8; 8];
            for (i, v) in value.iter_mut().enumerate() {
                *v = ring[(origin + 8 * j + i) % bytes];
            }
            *word = u64::from_le_bytes(value);
        }
        register
    }

    /// The systematic codeword of `data` (k/8 bytes).
    pub fn encode(&self, data: &[u8]) -> BitVec {
        assert_eq!(data.len() * 8, self.k, "data must be k/8 bytes");
        let register = self.encode_register(data);
        let mut codeword = BitVec::zeros(self.n());
        for i in 0..self.r {
            let padded = i + self.register_offset;
            if (register[padded / 64] >> (padded % 64)) & 1 == 1 {
                codeword.set(i, true);
            }
        }
        for (j, &byte) in data.iter().enumerate() {
            for bit in 0..8 {
                if (byte >> bit) & 1 == 1 {
                    codeword.set(self.r + 8 * j + bit, true);
                }
            }
        }
        codeword
    }

    /// The data bytes of a codeword.
    pub fn data_of(&self, codeword: &BitVec) -> Vec<u8> {
        let words = codeword.words();
        (0..self.k / 8)
            .map(|j| {
                let offset = self.r + 8 * j;
                let (word, shift) = (offset / 64, offset % 64);
                let mut value = words[word] >> shift;
                if shift > 56 {
                    value |= words[word + 1] << (64 - shift);
                }
                value as u8
            })
            .collect()
    }

    /// Syndromes S_1..S_2t (index 0 unused) of a received word; all zero for a codeword.
    ///
    /// As in hardware BCH decoders (Lin & Costello §6.2): the received word is first reduced modulo
    /// g(x) a byte at a time, that remainder (r bits) modulo each odd power's minimal polynomial
    /// m_j(x) (degree <= m), and S_j is the small remainder evaluated at alpha^j. Even syndromes
    /// are squares, S_2j = S_j^2, because the code is binary.
    pub fn syndromes(&self, received: &BitVec) -> Vec<u16> {
        let data = self.data_of(received);
        let mut register = self.encode_register(&data);
        // received(x) mod g(x) = (x^r data(x) mod g) + parity(x).
        for (i, word) in received.words().iter().enumerate().take(self.r.div_ceil(64)) {
            let mut rest = *word;
            if (i + 1) * 64 > self.r {
                rest &= (1u64 << (self.r - i * 64)) - 1;
            }
            while rest != 0 {
                let padded = i * 64 + rest.trailing_zeros() as usize + self.register_offset;
                rest &= rest - 1;
                register[padded / 64] ^= 1u64 << (padded % 64);
            }
        }
        // The remainder's coefficients as bytes, highest degree first (the padding below degree 0
        // is register_offset bits, so byte boundaries are counted from the register's top).
        let bytes: Vec<u8> =
            (0..self.register_words * 8).rev().map(|b| (register[b / 8] >> (8 * (b % 8))) as u8).collect();
        let exp = self.field.exp_table();
        let order = self.field.order as usize;
        let two_t = 2 * self.t;
        let mut syndromes = vec![0u16; two_t + 1];
        // All reducers advance together, byte by byte: their registers are independent, so the
        // table lookups overlap instead of forming one long dependency chain.
        let mut registers = vec![0u32; self.syndrome_reducers.len()];
        for &byte in &bytes {
            for (register, reducer) in registers.iter_mut().zip(&self.syndrome_reducers) {
                *register = reducer.step(*register, byte);
            }
        }
        for (reducer, &remainder) in self.syndrome_reducers.iter().zip(&registers) {
            // remainder = (p(x) x^degree) mod m_j(x) with p(x) = received(x) x^register_offset mod g,
            // so, as m_j(alpha^j) = 0, S_j = remainder(alpha^j) alpha^(-j (degree + register_offset)).
            let j = reducer.power as usize;
            let mut value = 0u16;
            let mut rest = remainder;
            while rest != 0 {
                let e = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                value ^= exp[(j * e) % order];
            }
            if value != 0 {
                let correction = (j * (reducer.degree as usize + self.register_offset)) % order;
                value = exp[(self.field.log(value) as usize + order - correction) % order];
            }
            syndromes[j] = value;
        }
        for j in 1..=self.t {
            // Binary code: S_2j = S_j^2.
            syndromes[2 * j] = self.field.mul(syndromes[j], syndromes[j]);
        }
        syndromes
    }

    /// Corrects `received` in place. Returns the number of bits corrected.
    pub fn decode(&self, received: &mut BitVec) -> Result<usize, BchFailure> {
        let syndromes = self.syndromes(received);
        if syndromes[1..].iter().all(|&s| s == 0) {
            return Ok(0);
        }
        let locator = self.berlekamp_massey(&syndromes)?;
        let positions = self.chien.roots(&self.field, &locator, self.n());
        if positions.len() != locator.len() - 1 {
            // Fewer roots among the codeword positions than the locator's degree: more than t errors.
            return Err(BchFailure::LocatorRootsMissing);
        }
        for &p in &positions {
            received.flip(p);
        }
        Ok(positions.len())
    }

    /// The error-locator polynomial Lambda(x) (Lambda_0 = 1) from the syndromes.
    fn berlekamp_massey(&self, syndromes: &[u16]) -> Result<Vec<u16>, BchFailure> {
        let f = &self.field;
        let two_t = 2 * self.t;
        let mut c = vec![0u16; two_t + 2];
        let mut b = vec![0u16; two_t + 2];
        c[0] = 1;
        b[0] = 1;
        let mut length = 0usize;
        let mut shift = 1usize;
        let mut last_discrepancy = 1u16;
        for n in 0..two_t {
            let mut discrepancy = syndromes[n + 1];
            for i in 1..=length {
                discrepancy ^= f.mul(c[i], syndromes[n + 1 - i]);
            }
            if discrepancy == 0 {
                shift += 1;
                continue;
            }
            let scale = f.div(discrepancy, last_discrepancy);
            if 2 * length <= n {
                let previous = c.clone();
                for i in 0..(two_t + 2 - shift) {
                    if b[i] != 0 {
                        c[i + shift] ^= f.mul(scale, b[i]);
                    }
                }
                length = n + 1 - length;
                b = previous;
                last_discrepancy = discrepancy;
                shift = 1;
            } else {
                for i in 0..(two_t + 2 - shift) {
                    if b[i] != 0 {
                        c[i + shift] ^= f.mul(scale, b[i]);
                    }
                }
                shift += 1;
            }
            if length > self.t {
                return Err(BchFailure::TooManyErrors);
            }
        }
        c.truncate(length + 1);
        if c.iter().skip(1).all(|&x| x == 0) && length > 0 {
            return Err(BchFailure::TooManyErrors);
        }
        Ok(c)
    }
}

/// Product of two GF(2) polynomials given as coefficient bits (index = degree).
fn multiply_gf2(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 1 {
            for (j, &y) in b.iter().enumerate() {
                out[i + j] ^= y;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ring register gives the remainder the word register it replaced gave (shifting all words
    /// up a byte, then xor-ing the row), for codes whose register spans one word and many.
    #[test]
    fn ring_register_matches_the_shifting_register() {
        use ssdlab_engine::random::Xoshiro256PlusPlus;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for code in [BchCode::new(6, 40, 3), BchCode::new(10, 512, 8), BchCode::storage_4kb()] {
            let words = code.register_words;
            let table: Vec<u64> =
                code.shift_table.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().unwrap())).collect();
            for length in [1, 2, code.k / 8] {
                let data: Vec<u8> = (0..length).map(|_| rng.next_u64() as u8).collect();
                let mut register = vec![0u64; words];
                for &byte in data.iter().rev() {
                    let top = ((register[words - 1] >> 56) as u8 ^ byte) as usize;
                    for i in (1..words).rev() {
                        register[i] = (register[i] << 8) | (register[i - 1] >> 56);
                    }
                    register[0] <<= 8;
                    for (reg, &t) in register.iter_mut().zip(&table[top * words..(top + 1) * words]) {
                        *reg ^= t;
                    }
                }
                assert_eq!(code.encode_register(&data), register, "k {} length {length}", code.k);
            }
        }
    }

    #[test]
    fn storage_code_has_the_documented_shape() {
        let code = BchCode::storage_4kb();
        assert_eq!((code.n(), code.k, code.r, code.t), (36_856, 32_768, 4_088, 256));
        assert!(code.r <= 4096, "fits in 512 B of parity");
    }

    #[test]
    fn small_code_corrects_up_to_t() {
        // (63, 45) t = 3 BCH code over GF(2^6), shortened to k = 40 bits.
        let code = BchCode::new(6, 40, 3);
        assert_eq!(code.r, 18);
        let data = [0xA5u8, 0x3C, 0xFF, 0x00, 0x81];
        let clean = code.encode(&data);
        assert!(code.syndromes(&clean)[1..].iter().all(|&s| s == 0));
        for a in 0..code.n() {
            for b in (a + 1)..code.n() {
                let mut word = clean.clone();
                word.flip(a);
                word.flip(b);
                assert_eq!(code.decode(&mut word), Ok(2));
                assert_eq!(word, clean);
            }
        }
    }
}
