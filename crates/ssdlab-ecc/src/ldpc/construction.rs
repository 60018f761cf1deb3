//! Construction of the QC-LDPC parity-check matrix with girth at least 6.
//!
//! Parity part: the dual-diagonal structure of IEEE 802.11n (a weight-3 column with circulants
//! P^s, I, P^s at the top, middle and bottom block rows, then identity pairs on a staircase), which
//! makes encoding linear-time (see [`super::encoder`]). Information part: every block column has
//! `column_weight` circulants in distinct block rows, rows chosen so block-row degrees stay balanced
//! and shifts drawn from a seeded generator, rejecting any choice that closes a 4-cycle. A 4-cycle
//! through block rows i, j and block columns a, b exists iff s(i,a) - s(j,a) = s(i,b) - s(j,b)
//! (mod Z) (Fossorier, "Quasi-cyclic LDPC codes from circulant permutation matrices", IEEE Trans.
//! Inf. Theory 50(8), 2004), so rejecting those gives girth >= 6.

use super::{Circulant, QcLdpcCode};
use ssdlab_engine::random::Xoshiro256PlusPlus;

/// The storage code: Z = 512, 8 x 72 blocks, information column weight 4, rate 8/9.
pub fn storage_4kb() -> QcLdpcCode {
    build(512, 8, 64, 4, 0x1d9c_00de).expect("the storage code's construction is known to succeed with this seed")
}

impl QcLdpcCode {
    pub fn storage_4kb() -> QcLdpcCode {
        storage_4kb()
    }
}

/// Builds a code; `None` if no 4-cycle-free shift assignment was found.
pub fn build(
    z: usize,
    block_rows: usize,
    info_block_columns: usize,
    column_weight: usize,
    seed: u64,
) -> Option<QcLdpcCode> {
    assert!(block_rows >= 3 && column_weight <= block_rows && z >= 2);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    // columns[b] = list of (block_row, shift) of block column b.
    let mut columns: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut row_degree = vec![0usize; block_rows];
    for _ in 0..info_block_columns {
        let mut placed = None;
        for _attempt in 0..2000 {
            // Rows: the least-loaded ones, ties broken at random.
            let mut order: Vec<(usize, u64, usize)> =
                (0..block_rows).map(|r| (row_degree[r], rng.next_u64(), r)).collect();
            order.sort_unstable();
            let rows: Vec<usize> = order.iter().take(column_weight).map(|&(_, _, r)| r).collect();
            let candidate: Vec<(usize, usize)> = rows.iter().map(|&r| (r, rng.below(z as u64) as usize)).collect();
            if columns.iter().all(|other| !closes_four_cycle(&candidate, other, z)) {
                placed = Some(candidate);
                break;
            }
        }
        let column = placed?;
        for &(r, _) in &column {
            row_degree[r] += 1;
        }
        columns.push(column);
    }
    let middle_row = block_rows / 2;
    let parity_shift = 1;
    let mut parity_columns: Vec<Vec<(usize, usize)>> =
        vec![vec![(0, parity_shift), (middle_row, 0), (block_rows - 1, parity_shift)]];
    for j in 1..block_rows {
        parity_columns.push(vec![(j - 1, 0), (j, 0)]);
    }
    // The parity part is 4-cycle free by structure; check it against the information part too.
    for parity in &parity_columns {
        if columns.iter().any(|other| closes_four_cycle(parity, other, z)) {
            return None;
        }
    }
    columns.extend(parity_columns);
    let block_columns = columns.len();
    let mut layers: Vec<Vec<Circulant>> = vec![Vec::new(); block_rows];
    for (block_column, column) in columns.iter().enumerate() {
        for &(block_row, shift) in column {
            layers[block_row].push(Circulant { block_row, block_column, shift });
        }
    }
    Some(QcLdpcCode {
        z,
        block_rows,
        block_columns,
        info_block_columns,
        column_weight,
        layers,
        middle_row,
        parity_shift,
    })
}

fn closes_four_cycle(a: &[(usize, usize)], b: &[(usize, usize)], z: usize) -> bool {
    for (x, &(row_i, shift_ai)) in a.iter().enumerate() {
        for &(row_j, shift_aj) in &a[x + 1..] {
            let Some(&(_, shift_bi)) = b.iter().find(|&&(r, _)| r == row_i) else { continue };
            let Some(&(_, shift_bj)) = b.iter().find(|&&(r, _)| r == row_j) else { continue };
            if (shift_ai + z - shift_aj) % z == (shift_bi + z - shift_bj) % z {
                return true;
            }
        }
    }
    false
}

/// The girth of the code's Tanner graph is at least 6: no two block columns close a 4-cycle.
pub fn has_no_four_cycles(code: &QcLdpcCode) -> bool {
    let mut columns: Vec<Vec<(usize, usize)>> = vec![Vec::new(); code.block_columns];
    for layer in &code.layers {
        for c in layer {
            columns[c.block_column].push((c.block_row, c.shift));
        }
    }
    for a in 0..columns.len() {
        for b in a + 1..columns.len() {
            if closes_four_cycle(&columns[a], &columns[b], code.z) {
                return false;
            }
        }
    }
    true
}
