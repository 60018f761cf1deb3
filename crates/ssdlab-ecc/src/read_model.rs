//! What a decoder is given when a page is read: the decoder inputs of seed 002 §2.2 and seed 000
//! Fig. 3, their LLRs from the channel model, and exact, fast sampling of the reads.
//!
//! Every input is a partition of the threshold-voltage axis into classes, each with one LLR:
//! - [`ReadInput::Hard`]: one hard read of the page, the decoder gets only the bit and a fixed LLR
//!   magnitude (it knows nothing of the block's wear; min-sum is invariant to a common LLR scale, so
//!   the magnitude matters only through saturation).
//! - [`ReadInput::Quick`] (Quick-LDPC, seed 000): the same single-page hard read, but the two LLRs are
//!   predicted from the block's P/E count and the page's retention time through the channel model.
//!   Retention drift makes them asymmetric (a programmed cell drifts down, an erased one does not).
//! - [`ReadInput::WordLine`] (EP-LDPC without upper/lower cells, seed 000): every page of the word
//!   line is read hard, so the cell's state region is known; one LLR per state region. Reading the
//!   other page tells the decoder which boundary the cell is near (the error-prone one or not) and,
//!   through the channel's interference mixture, how likely the neighbour pushed it across. The
//!   neighbours themselves are not read ("without upper/lower cells").
//! - [`ReadInput::Soft`]: hard plus 1..6 extra sensing levels per boundary of the page
//!   ([`crate::sensing::QuantizedRead`]). Left out: a real chip's soft output may not say which
//!   of the page's boundaries a cell sits near; here every soft region is its own class, which is
//!   slightly optimistic for pages with more than one boundary.
//!
//! Sampling: instead of drawing a voltage per cell and comparing it with the references,
//! the read region is drawn directly from its exact probability given the cell's state and its
//! neighbour's state (a table of cumulative probabilities over the union of all references). The
//! distribution is identical and a frame costs two random numbers per cell.

use crate::channel::{gray_bits, Channel};
use crate::sensing::QuantizedRead;
use ssdlab_engine::random::Xoshiro256PlusPlus;

/// Entries compared at once when a cell's region is counted (one AVX-512 vector of f64).
const COUNT_LANES: usize = 8;

/// LLR magnitude given to plain hard-decision decoding.
pub const HARD_LLR_MAGNITUDE: f64 = 4.0;
const LLR_LIMIT: f64 = 15.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "input")]
pub enum ReadInput {
    Hard,
    Quick,
    WordLine,
    Soft { extra_levels: u32 },
}

/// Where a decoder's LLRs come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlrSource {
    /// Computed from the channel model at the page's stress (the controller knows the channel).
    Channel,
    /// Estimated from reads of known data (a controller without a channel model, calibrating on
    /// reference pages): per class, ln((n0 + 1/2) / (n1 + 1/2)) over `training_cells` cells.
    Estimated,
}

#[derive(Debug, Clone)]
pub struct ReadModel {
    pub page: usize,
    pub input: ReadInput,
    /// The union of every hard reference and the input's soft references, sorted (V).
    pub fine_thresholds: Vec<f64>,
    /// Per (state, neighbour state): the most likely fine region and the interval of the uniform
    /// draw that selects it, `[low, high)` (see `sample`).
    likely: Vec<(f64, f64, u8)>,
    /// Cumulative probability of the fine regions, per (state, neighbour state): each row has
    /// `fine_thresholds.len()` entries (the last region takes the rest), padded with +inf to a
    /// multiple of [`COUNT_LANES`] entries, so that a region is found by counting, in whole
    /// vectors, the entries at or below the draw.
    padded: Vec<f64>,
    padded_row: usize,
    /// The page bit a hard read returns for each fine region.
    pub page_bit_of_fine: Vec<u8>,
    /// The decoder's class of each fine region, and each class's LLR.
    pub class_of_fine: Vec<u8>,
    pub class_llrs: Vec<f64>,
    /// States whose page bit is 0, then 1.
    states_with_bit: [Vec<u8>; 2],
}

impl ReadModel {
    pub fn new(channel: &Channel, page: usize, input: ReadInput) -> Self {
        let states = channel.states();
        let references = channel.hard_references();
        let soft = match input {
            ReadInput::Soft { extra_levels } => Some(QuantizedRead::new(channel, page, extra_levels)),
            _ => None,
        };
        let mut fine_thresholds = references.clone();
        if let Some(soft) = &soft {
            fine_thresholds.extend(soft.thresholds.iter().copied());
        }
        fine_thresholds.sort_by(f64::total_cmp);
        fine_thresholds.dedup();
        let fine = fine_thresholds.len() + 1;
        let bounds = |f: usize| {
            let low = if f == 0 { f64::NEG_INFINITY } else { fine_thresholds[f - 1] };
            let high = if f == fine - 1 { f64::INFINITY } else { fine_thresholds[f] };
            (low, high)
        };
        // Representative voltage inside each fine region (for classifying it).
        let inside = |f: usize| {
            let (low, high) = bounds(f);
            match (low.is_finite(), high.is_finite()) {
                (true, true) => 0.5 * (low + high),
                (false, true) => high - 1.0,
                (true, false) => low + 1.0,
                (false, false) => 0.0,
            }
        };
        let state_region = |v: f64| references.partition_point(|&r| r <= v);
        let page_bit_of_fine: Vec<u8> =
            (0..fine).map(|f| ((gray_bits(state_region(inside(f))) >> page) & 1) as u8).collect();
        let class_of_fine: Vec<u8> = match (&soft, input) {
            (Some(soft), _) => (0..fine).map(|f| soft.region(inside(f)) as u8).collect(),
            (None, ReadInput::WordLine) => (0..fine).map(|f| state_region(inside(f)) as u8).collect(),
            _ => page_bit_of_fine.clone(),
        };
        let classes = *class_of_fine.iter().max().unwrap_or(&0) as usize + 1;
        let mut cumulative = Vec::with_capacity(states * states * (fine - 1));
        // P(fine region | state), marginal over the neighbour, for the LLRs.
        let mut probability = vec![0.0; states * fine];
        for s in 0..states {
            for n in 0..states {
                let cdf = |x: f64| channel.cdf_given_neighbour(s, n, x);
                let mut previous = 0.0;
                for f in 0..fine {
                    let (_, high) = bounds(f);
                    let upto = if high.is_finite() { cdf(high) } else { 1.0 };
                    probability[s * fine + f] += (upto - previous).max(0.0) / states as f64;
                    if f + 1 < fine {
                        cumulative.push(upto);
                    }
                    previous = upto;
                }
            }
        }
        let class_llrs = (0..classes)
            .map(|class| {
                if input == ReadInput::Hard {
                    return if class == 0 { HARD_LLR_MAGNITUDE } else { -HARD_LLR_MAGNITUDE };
                }
                let (mut zero, mut one) = (1e-300, 1e-300);
                for s in 0..states {
                    let mass: f64 = (0..fine)
                        .filter(|&f| class_of_fine[f] as usize == class)
                        .map(|f| probability[s * fine + f])
                        .sum();
                    if (gray_bits(s) >> page) & 1 == 0 {
                        zero += mass;
                    } else {
                        one += mass;
                    }
                }
                (zero / one).ln().clamp(-LLR_LIMIT, LLR_LIMIT)
            })
            .collect();
        let mut states_with_bit = [Vec::new(), Vec::new()];
        for s in 0..states {
            states_with_bit[(gray_bits(s) >> page) & 1].push(s as u8);
        }
        let likely = cumulative
            .chunks(fine - 1)
            .map(|row| {
                // Region k is chosen when row[k-1] <= u < row[k] (row[-1] = -inf, row[fine-1] = +inf).
                let low = |k: usize| if k == 0 { f64::NEG_INFINITY } else { row[k - 1] };
                let high = |k: usize| if k == row.len() { f64::INFINITY } else { row[k] };
                let width = |k: usize| high(k).min(1.0) - low(k).max(0.0);
                let best = (0..fine).max_by(|&a, &b| width(a).total_cmp(&width(b)).then(b.cmp(&a))).unwrap_or(0);
                (low(best), high(best), best as u8)
            })
            .collect();
        let padded_row = (fine - 1).next_multiple_of(COUNT_LANES);
        let padded = cumulative
            .chunks(fine - 1)
            .flat_map(|row| row.iter().copied().chain(std::iter::repeat_n(f64::INFINITY, padded_row - row.len())))
            .collect();
        ReadModel {
            page,
            input,
            fine_thresholds,
            likely,
            padded,
            padded_row,
            page_bit_of_fine,
            class_of_fine,
            class_llrs,
            states_with_bit,
        }
    }

    /// Replaces the class LLRs by estimates from `training_cells` reads of known random data (the
    /// fixed-magnitude hard input is left alone: it uses no knowledge of the channel by definition).
    pub fn estimate_llrs(&mut self, training_cells: usize, rng: &mut Xoshiro256PlusPlus) {
        if self.input == ReadInput::Hard || training_cells == 0 {
            return;
        }
        let bits: Vec<u8> = (0..training_cells).map(|_| (rng.next_u64() & 1) as u8).collect();
        let mut fine = vec![0u8; training_cells];
        self.sample(&bits, rng, &mut fine);
        let mut counts = vec![[0u64; 2]; self.class_llrs.len()];
        for (&bit, &f) in bits.iter().zip(&fine) {
            counts[self.class_of_fine[f as usize] as usize][bit as usize] += 1;
        }
        // Add-one-half (Krichevsky-Trofimov) smoothing keeps unseen classes finite.
        self.class_llrs = counts
            .iter()
            .map(|c| ((c[0] as f64 + 0.5) / (c[1] as f64 + 0.5)).ln().clamp(-LLR_LIMIT, LLR_LIMIT))
            .collect();
    }

    pub fn fine_regions(&self) -> usize {
        self.fine_thresholds.len() + 1
    }

    /// Writes random cells storing `bits` (this page's bits; the word line's other pages and the
    /// neighbouring word line hold random data) and reads them: the fine region of every cell.
    pub fn sample(&self, bits: &[u8], rng: &mut Xoshiro256PlusPlus, fine: &mut [u8]) {
        let states = self.states_with_bit[0].len() * 2;
        let per_bit = self.states_with_bit[0].len();
        for (out, &bit) in fine.iter_mut().zip(bits) {
            let draw = rng.next_u64();
            // states and per_bit are powers of two: masks pick uniform choices.
            let state = self.states_with_bit[bit as usize][(draw as usize) & (per_bit - 1)] as usize;
            let neighbour = ((draw >> 8) as usize) & (states - 1);
            let u = rng.next_f64();
            let index = state * states + neighbour;
            // Most cells land in their row's most likely region: two predictable compares decide
            // it, and the binary search (same answer) runs only for the rest.
            let (low, high, region) = self.likely[index];
            *out = if low <= u && u < high {
                region
            } else {
                // The row is sorted, so the entries at or below u are its first `region` ones
                // (what a binary search finds, without its mispredicted branches).
                let padded = &self.padded[index * self.padded_row..][..self.padded_row];
                padded
                    .chunks_exact(COUNT_LANES)
                    .map(|lanes| lanes.iter().map(|&c| (c <= u) as u8).sum::<u8>())
                    .sum::<u8>()
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{CellKind, ChannelParameters, Stress};

    #[test]
    fn sampled_error_rate_matches_the_channel() {
        let channel = Channel::new(&ChannelParameters::default_for(CellKind::Mlc), Stress::new(10_000.0, 720.0));
        for page in 0..2 {
            let model = ReadModel::new(&channel, page, ReadInput::Soft { extra_levels: 6 });
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            let bits: Vec<u8> = (0..400_000).map(|_| (rng.next_u64() & 1) as u8).collect();
            let mut fine = vec![0u8; bits.len()];
            model.sample(&bits, &mut rng, &mut fine);
            let errors = bits.iter().zip(&fine).filter(|(&b, &f)| model.page_bit_of_fine[f as usize] != b).count();
            let measured = errors as f64 / bits.len() as f64;
            let exact = channel.raw_bit_error_rate(page);
            let sigma = (exact / bits.len() as f64).sqrt();
            assert!((measured - exact).abs() < 5.0 * sigma, "page {page}: measured {measured:e}, exact {exact:e}");
        }
    }

    #[test]
    fn estimated_llrs_approach_the_channel_llrs() {
        let channel = Channel::new(&ChannelParameters::default_for(CellKind::Mlc), Stress::new(20_000.0, 720.0));
        let exact = ReadModel::new(&channel, 1, ReadInput::Soft { extra_levels: 6 });
        let mut estimated = exact.clone();
        estimated.estimate_llrs(4_000_000, &mut Xoshiro256PlusPlus::seed_from_u64(3));
        for (e, x) in estimated.class_llrs.iter().zip(&exact.class_llrs) {
            // The well-populated (low-confidence) classes match closely; saturated ones stay large.
            if x.abs() < 6.0 {
                assert!((e - x).abs() < 0.15, "estimated {e} vs channel {x}");
            } else {
                assert!(e.signum() == x.signum() && e.abs() > 5.0, "estimated {e} vs channel {x}");
            }
        }
    }

    #[test]
    fn inputs_carry_the_documented_classes() {
        let channel = Channel::new(&ChannelParameters::default_for(CellKind::Mlc), Stress::new(3000.0, 720.0));
        let hard = ReadModel::new(&channel, 1, ReadInput::Hard);
        assert_eq!(hard.class_llrs, vec![HARD_LLR_MAGNITUDE, -HARD_LLR_MAGNITUDE]);
        let quick = ReadModel::new(&channel, 1, ReadInput::Quick);
        assert_eq!(quick.class_llrs.len(), 2);
        assert!(quick.class_llrs[0] > 0.0 && quick.class_llrs[1] < 0.0);
        let word_line = ReadModel::new(&channel, 1, ReadInput::WordLine);
        assert_eq!(word_line.class_llrs.len(), 4);
        let soft = ReadModel::new(&channel, 1, ReadInput::Soft { extra_levels: 6 });
        assert!(soft.class_llrs.len() > word_line.class_llrs.len());
    }
}
