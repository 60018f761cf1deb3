//! Read sensing: hard decision plus 0..6 extra sensing levels per page boundary, and the LLR of
//! every resulting quantisation region computed from the channel model.
//!
//! The hard reference of each boundary where the page's bit changes is kept; extra references are
//! added alternately above and below it at multiples of `spacing` (+d, -d, +2d, -2d, +3d, -3d), as a
//! chip with six extra soft levels between adjacent states does (seed 002 §2.2, Samsung MLC
//! datasheet). The default spacing is half the spread of the programmed states' tails at the page's
//! stress (`Channel::programmed_tail_spread_v`: retention, RTN and interference): the controller is
//! assumed to know the stress (P/E count and retention), as it does from its own bookkeeping. LLRs: ln P(bit 0 | region) / P(bit 1 | region), clipped to +-15.

use crate::channel::{gray_bits, Channel};

pub const MAX_EXTRA_LEVELS: u32 = 6;
const LLR_LIMIT: f64 = 15.0;

#[derive(Debug, Clone)]
pub struct QuantizedRead {
    pub page: usize,
    pub extra_levels: u32,
    /// Sorted read references (V).
    pub thresholds: Vec<f64>,
    /// LLR of each region (thresholds.len() + 1 regions).
    pub llrs: Vec<f64>,
}

impl QuantizedRead {
    pub fn new(channel: &Channel, page: usize, extra_levels: u32) -> Self {
        Self::with_spacing(channel, page, extra_levels, 0.5 * channel.programmed_tail_spread_v())
    }

    pub fn with_spacing(channel: &Channel, page: usize, extra_levels: u32, spacing: f64) -> Self {
        let extra_levels = extra_levels.min(MAX_EXTRA_LEVELS);
        let references = channel.hard_references();
        let mut thresholds = Vec::new();
        for boundary in channel.page_boundaries(page) {
            let reference = references[boundary];
            thresholds.push(reference);
            for level in 0..extra_levels {
                let multiple = (level / 2 + 1) as f64;
                let sign = if level % 2 == 0 { 1.0 } else { -1.0 };
                thresholds.push(reference + sign * multiple * spacing);
            }
        }
        thresholds.sort_by(f64::total_cmp);
        let states = channel.states();
        let mut llrs = Vec::with_capacity(thresholds.len() + 1);
        for region in 0..=thresholds.len() {
            let low = if region == 0 { f64::NEG_INFINITY } else { thresholds[region - 1] };
            let high = if region == thresholds.len() { f64::INFINITY } else { thresholds[region] };
            let (mut zero, mut one) = (1e-300, 1e-300);
            for s in 0..states {
                let p = channel.probability_between(s, low, high) / states as f64;
                if (gray_bits(s) >> page) & 1 == 0 {
                    zero += p;
                } else {
                    one += p;
                }
            }
            llrs.push((zero / one).ln().clamp(-LLR_LIMIT, LLR_LIMIT));
        }
        QuantizedRead { page, extra_levels, thresholds, llrs }
    }

    /// The region a threshold voltage falls into.
    #[inline]
    pub fn region(&self, voltage: f64) -> usize {
        self.thresholds.partition_point(|&t| t <= voltage)
    }
}
