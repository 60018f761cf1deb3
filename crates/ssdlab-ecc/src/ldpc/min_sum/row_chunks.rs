//! One layer of layered min-sum, a chunk of check rows at a time (one vector's lanes), with the
//! rows' running minima, second minima and sign parities in registers across all of the layer's
//! circulants.
//!
//! For each chunk: pass 1 reads every circulant's variables for those rows (one contiguous load
//! each, see [`super::layout`]) and their old check messages, and folds the variable-to-check inputs
//! (posterior minus old message) into the rows' two-minimum and sign parity; pass 2 reads them again
//! (still in L1), recomputes each input and writes the new message and posterior. Nothing per row
//! goes to memory. (The kernel before ran one pass per circulant over all Z rows with the row
//! arrays in memory: three loads and three stores more per vector of edges.) The arithmetic is the
//! same integer arithmetic, edge for edge, so decisions are unchanged (golden digests and a textbook
//! edge-by-edge decoder in `tests/ldpc_properties.rs`).

use super::row_vectors::{Correction, RowVector};
use super::Lane;

/// Decodes one layer. `positions` holds, chunk by chunk, each circulant's first posterior index;
/// `messages` the layer's messages in the same order, `V::ROWS` per (chunk, circulant).
#[inline(always)]
pub(super) fn process_layer<L: Lane, V: RowVector<L>>(
    posterior: &mut [L],
    messages: &mut [L],
    positions: &[u32],
    circulants: usize,
    correction: Correction<L>,
) {
    for (chunk_positions, chunk_messages) in
        positions.chunks_exact(circulants).zip(messages.chunks_exact_mut(circulants * V::ROWS))
    {
        // Pass 1: each row's smallest and second smallest input magnitude and the xor of its inputs
        // (whose sign bit is the parity of negative inputs).
        let mut min1 = V::splat(L::MAX);
        let mut min2 = V::splat(L::MAX);
        let mut signs = V::splat(L::default());
        for (&position, message) in chunk_positions.iter().zip(chunk_messages.chunks_exact(V::ROWS)) {
            let t = V::load(&posterior[position as usize..]).saturating_sub(V::load(message));
            let magnitude = t.magnitude();
            min2 = min2.min(magnitude.max(min1));
            min1 = min1.min(magnitude);
            signs = signs.xor(t);
        }
        let out1 = correction.apply(min1);
        let out2 = correction.apply(min2);
        // Pass 2: an edge whose input magnitude equals the row minimum gets the second minimum (on
        // ties both are equal); the sign is the parity of the other inputs' signs.
        for (&position, message) in chunk_positions.iter().zip(chunk_messages.chunks_exact_mut(V::ROWS)) {
            let values = &mut posterior[position as usize..];
            let t = V::load(values).saturating_sub(V::load(message));
            let new_message = t.magnitude().select_equal(min1, out2, out1).negate_where_negative(signs.xor(t));
            new_message.store(message);
            t.saturating_add(new_message).store(values);
        }
    }
}

/// Whether every check of the layer is satisfied by the posterior's hard decisions.
#[inline(always)]
pub(super) fn layer_is_satisfied<L: Lane, V: RowVector<L>>(
    posterior: &[L],
    positions: &[u32],
    circulants: usize,
) -> bool {
    let mut unsatisfied = V::splat(L::default());
    for chunk_positions in positions.chunks_exact(circulants) {
        let mut parity = V::splat(L::default());
        for &position in chunk_positions {
            parity = parity.xor(V::load(&posterior[position as usize..]));
        }
        // The sign bit of a row's xor is the parity of its hard decisions; a negative lane keeps
        // the running minimum negative.
        unsatisfied = unsatisfied.min(parity);
    }
    !unsatisfied.any_negative()
}
