//! Quasi-cyclic LDPC codes: construction ([`construction`]), systematic encoding ([`encoder`]) and
//! layered normalized/offset min-sum decoding ([`min_sum`]).
//!
//! A QC-LDPC parity-check matrix is an `block_rows x block_columns` array of Z x Z circulants: each
//! entry is either zero or the identity cyclically shifted by `shift` (row r of the circulant has its
//! one in column (r + shift) mod Z). The storage code ([`QcLdpcCode::storage_4kb`]) has Z = 512,
//! 8 block rows and 72 block columns: n = 36,864 bits, k = 32,768 (4 KB), rate 8/9, 512 B of parity.

pub mod construction;
pub mod encoder;
pub mod min_sum;

/// One non-zero circulant of the parity-check matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Circulant {
    pub block_row: usize,
    pub block_column: usize,
    pub shift: usize,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct QcLdpcCode {
    /// Circulant size Z.
    pub z: usize,
    pub block_rows: usize,
    pub block_columns: usize,
    /// Information block columns come first; the last `block_rows` columns hold parity.
    pub info_block_columns: usize,
    /// Column weight of information block columns.
    pub column_weight: usize,
    /// Circulants grouped by block row (one decoding layer each), in block-column order.
    pub layers: Vec<Vec<Circulant>>,
    /// Block row of the weight-3 parity column's middle circulant.
    pub middle_row: usize,
    /// Shift of the weight-3 parity column's top and bottom circulants.
    pub parity_shift: usize,
}

impl QcLdpcCode {
    pub fn n(&self) -> usize {
        self.z * self.block_columns
    }
    pub fn k(&self) -> usize {
        self.z * self.info_block_columns
    }
    pub fn parity_bits(&self) -> usize {
        self.z * self.block_rows
    }
    pub fn edges(&self) -> usize {
        self.layers.iter().map(|l| l.len()).sum::<usize>() * self.z
    }

    /// Whether `word` (one bit per byte, 0/1) satisfies every parity check.
    pub fn is_codeword(&self, word: &[u8]) -> bool {
        self.syndrome_weight(word) == 0
    }

    /// Number of unsatisfied checks of a hard-decision word (one bit per byte).
    pub fn syndrome_weight(&self, word: &[u8]) -> usize {
        let z = self.z;
        let mut unsatisfied = 0;
        let mut parity = vec![0u8; z];
        for layer in &self.layers {
            parity.iter_mut().for_each(|p| *p = 0);
            for c in layer {
                let base = c.block_column * z;
                for (r, p) in parity.iter_mut().enumerate() {
                    *p ^= word[base + (r + c.shift) % z];
                }
            }
            unsatisfied += parity.iter().filter(|&&p| p != 0).count();
        }
        unsatisfied
    }
}
