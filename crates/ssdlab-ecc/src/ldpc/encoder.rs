//! Systematic linear-time encoding for the dual-diagonal parity structure.
//!
//! With lambda_i = sum over information circulants of block row i of P^s x (a Z-bit vector per block
//! row), summing all block rows cancels the staircase and leaves p_0 = sum_i lambda_i (the weight-3
//! column's circulants P^s + I + P^s sum to I). Then row 0 gives p_1 = lambda_0 + P^s p_0 and row i
//! gives p_(i+1) = lambda_i + p_i (+ p_0 at the middle row). Source: IEEE 802.11n-2009, Annex R.

use super::QcLdpcCode;

impl QcLdpcCode {
    /// Encodes `info` (k bits, one per byte, 0/1) into a codeword of n bits (one per byte).
    pub fn encode(&self, info: &[u8]) -> Vec<u8> {
        assert_eq!(info.len(), self.k(), "information must be k bits");
        let z = self.z;
        let mut codeword = vec![0u8; self.n()];
        codeword[..info.len()].copy_from_slice(info);
        let mut lambda = vec![vec![0u8; z]; self.block_rows];
        for (row, layer) in self.layers.iter().enumerate() {
            for c in layer.iter().filter(|c| c.block_column < self.info_block_columns) {
                // Row r of P^s picks bit (r + s) mod z: two contiguous runs, no modulo per bit.
                let column = &info[c.block_column * z..(c.block_column + 1) * z];
                let head = z - c.shift;
                let target = &mut lambda[row];
                for (t, &bit) in target[..head].iter_mut().zip(&column[c.shift..]) {
                    *t ^= bit;
                }
                for (t, &bit) in target[head..].iter_mut().zip(&column[..c.shift]) {
                    *t ^= bit;
                }
            }
        }
        let mut p0 = vec![0u8; z];
        for l in &lambda {
            for r in 0..z {
                p0[r] ^= l[r];
            }
        }
        let parity_base = self.info_block_columns * z;
        codeword[parity_base..parity_base + z].copy_from_slice(&p0);
        // p_1 = lambda_0 + P^s p_0: row r of P^s picks p0[(r + s) % z].
        let mut previous: Vec<u8> = (0..z).map(|r| lambda[0][r] ^ p0[(r + self.parity_shift) % z]).collect();
        codeword[parity_base + z..parity_base + 2 * z].copy_from_slice(&previous);
        for (i, row) in lambda.iter().enumerate().take(self.block_rows - 1).skip(1) {
            let middle = i == self.middle_row;
            let next: Vec<u8> = (0..z).map(|r| row[r] ^ previous[r] ^ if middle { p0[r] } else { 0 }).collect();
            let start = parity_base + (i + 1) * z;
            codeword[start..start + z].copy_from_slice(&next);
            previous = next;
        }
        codeword
    }
}
