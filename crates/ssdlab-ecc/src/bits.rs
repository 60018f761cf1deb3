//! Bit vectors packed in u64 words (bit i of the vector is bit i%64 of word i/64).

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitVec {
    words: Vec<u64>,
    len: usize,
}

impl BitVec {
    pub fn zeros(len: usize) -> Self {
        BitVec { words: vec![0; len.div_ceil(64)], len }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn get(&self, index: usize) -> bool {
        (self.words[index / 64] >> (index % 64)) & 1 == 1
    }
    #[inline]
    pub fn set(&mut self, index: usize, value: bool) {
        let mask = 1u64 << (index % 64);
        if value {
            self.words[index / 64] |= mask;
        } else {
            self.words[index / 64] &= !mask;
        }
    }
    #[inline]
    pub fn flip(&mut self, index: usize) {
        self.words[index / 64] ^= 1u64 << (index % 64);
    }
    pub fn words(&self) -> &[u64] {
        &self.words
    }
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// Number of positions where `self` and `other` differ.
    pub fn distance(&self, other: &BitVec) -> usize {
        self.words.iter().zip(&other.words).map(|(a, b)| (a ^ b).count_ones() as usize).sum()
    }
    /// Indices of set bits, ascending.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let mut bits = BitVec::zeros(bytes.len() * 8);
        for (i, chunk) in bytes.chunks(8).enumerate() {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            bits.words[i] = u64::from_le_bytes(word);
        }
        bits
    }
}
