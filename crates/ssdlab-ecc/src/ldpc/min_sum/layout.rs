//! Where the layered decoder keeps its posteriors and messages, so that a chunk of a layer's check
//! rows meets every circulant's variables as one contiguous, unaligned vector load.
//!
//! Row r of a circulant with shift s has its one in column (r + s) mod Z, so rows r..r+W of a
//! circulant touch its block column's variables (r + s) mod Z .. +W: contiguous, except for the one
//! chunk whose span passes the column's end. Each block column is therefore stored with a pad of W
//! copies of its first W values after its Z values (`column_stride = Z + W`), and that chunk reads
//! and writes the pad instead of wrapping. Between layers the pad and the column's head are made
//! equal again ([`Layout::wraps`]): the wrapping chunk's writes to the pad go back to the head, then
//! the head is copied to the pad. Within a layer a block column belongs to one circulant, and its
//! head values that the pad mirrors are touched only by that circulant's wrapping chunk, so nothing
//! reads a stale copy. A chunk is one vector's lanes (W = 32 or 16) when W divides Z, else one row
//! (any Z works; only a Z that is a multiple of the vector is fast).
//!
//! Messages are stored in the order the decoder visits them: layer, chunk, circulant, row.

use crate::ldpc::QcLdpcCode;

/// The head of one block column whose last chunk in a layer wraps, and how many of its values wrap.
#[derive(Debug, Clone, Copy)]
pub(super) struct Wrap {
    pub head: usize,
    pub values: usize,
}

#[derive(Debug, Clone)]
pub(super) struct LayerLayout {
    pub circulants: usize,
    /// This layer's part of [`Layout::positions`] (chunk-major: every circulant of chunk 0, then chunk 1...).
    pub positions: std::ops::Range<usize>,
    /// This layer's part of the messages.
    pub messages: std::ops::Range<usize>,
    /// Every block column of the layer: pads to refresh after it, with the values that wrapped.
    pub wraps: Vec<Wrap>,
}

#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub z: usize,
    /// Rows per chunk: a vector's lanes or 1.
    pub width: usize,
    pub column_stride: usize,
    pub block_columns: usize,
    pub layers: Vec<LayerLayout>,
    /// Posterior index of the first variable each (layer, chunk, circulant) meets.
    pub positions: Vec<u32>,
    pub messages: usize,
}

impl Layout {
    /// The layout for chunks of `vector_rows` rows (one row when that does not divide Z).
    pub fn new(code: &QcLdpcCode, vector_rows: usize) -> Layout {
        let z = code.z;
        let width = if z.is_multiple_of(vector_rows) { vector_rows } else { 1 };
        let column_stride = z + width;
        let mut positions = Vec::new();
        let mut layers = Vec::with_capacity(code.layers.len());
        let mut messages = 0;
        for circulants in &code.layers {
            let start = positions.len();
            for chunk in 0..z / width {
                for c in circulants {
                    let row = chunk * width;
                    // (row + shift) mod Z; a span past Z runs into the pad.
                    let position = c.block_column * column_stride + (row + c.shift) % z;
                    positions.push(u32::try_from(position).expect("a posterior of at most 4G values"));
                }
            }
            let edges = circulants.len() * z;
            let wraps = circulants
                .iter()
                .map(|c| Wrap { head: c.block_column * column_stride, values: c.shift % width })
                .collect();
            layers.push(LayerLayout {
                circulants: circulants.len(),
                positions: start..positions.len(),
                messages: messages..messages + edges,
                wraps,
            });
            messages += edges;
        }
        Layout { z, width, column_stride, block_columns: code.block_columns, layers, positions, messages }
    }

    /// Posterior values (with pads) for the code.
    pub fn posterior_len(&self) -> usize {
        self.block_columns * self.column_stride
    }

    /// Copies a channel frame (block-column order) into the padded posterior.
    pub fn load<L: Copy>(&self, channel: &[L], posterior: &mut [L]) {
        for (column, values) in posterior.chunks_exact_mut(self.column_stride).zip(channel.chunks_exact(self.z)) {
            column[..self.z].copy_from_slice(values);
            column.copy_within(..self.width, self.z);
        }
    }

    /// After a layer: values a wrapping chunk wrote into a pad go back to the column's head, then
    /// the head is mirrored into the pad again.
    #[inline(always)]
    pub fn refresh_pads<L: Copy>(&self, layer: &LayerLayout, posterior: &mut [L]) {
        let (z, width) = (self.z, self.width);
        for wrap in &layer.wraps {
            let column = &mut posterior[wrap.head..wrap.head + z + width];
            column.copy_within(z..z + wrap.values, 0);
            column.copy_within(..width, z);
        }
    }

    /// Each block column's Z values (without its pad).
    pub fn columns<'p, L>(&self, posterior: &'p [L]) -> impl Iterator<Item = &'p [L]> {
        let z = self.z;
        posterior.chunks_exact(self.column_stride).map(move |column| &column[..z])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ldpc::construction::build;

    /// Every (layer, chunk, circulant) position names the variables its rows meet, through the pad.
    #[test]
    fn positions_name_each_rows_variables() {
        for (code, rows) in [
            (QcLdpcCode::storage_4kb(), 32),
            (QcLdpcCode::storage_4kb(), 16),
            (build(13, 4, 8, 3, 7).expect("a small code"), 32),
            (build(48, 4, 10, 3, 1).expect("a Z = 48 code"), 16),
        ] {
            let layout = Layout::new(&code, rows);
            let z = code.z;
            for (layer, circulants) in layout.layers.iter().zip(&code.layers) {
                let positions = &layout.positions[layer.positions.clone()];
                for (chunk, chunk_positions) in positions.chunks_exact(layer.circulants).enumerate() {
                    for (&position, c) in chunk_positions.iter().zip(circulants) {
                        for lane in 0..layout.width {
                            let row = chunk * layout.width + lane;
                            let index = position as usize + lane;
                            let (column, offset) = (index / layout.column_stride, index % layout.column_stride);
                            assert_eq!(column, c.block_column);
                            assert_eq!(offset % z, (row + c.shift) % z, "row {row} of {c:?}");
                        }
                    }
                }
            }
        }
    }

    /// A wrapped write reaches the head and the pad mirrors the head again.
    #[test]
    fn pads_refresh_after_a_layer() {
        let code = QcLdpcCode::storage_4kb();
        let layout = Layout::new(&code, 32);
        let channel: Vec<i32> = (0..code.n() as i32).collect();
        let mut posterior = vec![0; layout.posterior_len()];
        layout.load(&channel, &mut posterior);
        let layer = &layout.layers[0];
        let wrap =
            layer.wraps.iter().find(|w| w.values > 0).expect("a circulant whose shift is not a multiple of the chunk");
        // The wrapping chunk writes the pad's first `values` entries; the chunk after it writes the head's next one.
        for j in 0..wrap.values {
            posterior[wrap.head + code.z + j] = -1 - j as i32;
        }
        posterior[wrap.head + wrap.values] = -100;
        layout.refresh_pads(layer, &mut posterior);
        for j in 0..layout.width {
            let expected = if j < wrap.values {
                -1 - j as i32
            } else if j == wrap.values {
                -100
            } else {
                (wrap.head / layout.column_stride * code.z + j) as i32
            };
            assert_eq!(posterior[wrap.head + j], expected);
            assert_eq!(posterior[wrap.head + code.z + j], expected);
        }
    }
}
