//! Where data of each heat ends up (seed 004 Fig. 10's hot/cold picture): host writes counted per
//! logical page during replay, and at the end of the run each mapped page's tier, as a histogram of
//! write-count classes x tiers. Off by default (`output.write_heat = true`): it costs 4 bytes per
//! host logical page and one increment per page written.
//!
//! Classes are powers of two: pages written 0 times during replay (data preconditioning placed), 1,
//! 2-3, 4-7, ... Pages are counted at the host (before middleware); a page the middleware or the
//! FTL no longer maps is not counted at the end.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WriteHeat {
    /// Class labels: "0", "1", "2-3", "4-7", ...
    pub classes: Vec<String>,
    /// Per tier (by name): mapped pages in each class at the end of the run.
    pub pages: BTreeMap<String, Vec<u64>>,
}

/// Host writes per logical page.
pub(super) struct WriteCounter {
    counts: Vec<u32>,
}

impl WriteCounter {
    pub(super) fn new(host_logical_pages: u64) -> Self {
        WriteCounter { counts: vec![0; host_logical_pages as usize] }
    }

    #[inline]
    pub(super) fn written(&mut self, page: u64) {
        if let Some(count) = self.counts.get_mut(page as usize) {
            *count = count.saturating_add(1);
        }
    }

    /// The class of a write count: 0, then 1 + floor(log2(count)).
    fn class(count: u32) -> usize {
        if count == 0 {
            0
        } else {
            1 + (31 - count.leading_zeros()) as usize
        }
    }

    fn label(class: usize) -> String {
        match class {
            0 => "0".into(),
            1 => "1".into(),
            _ => format!("{}-{}", 1u64 << (class - 1), (1u64 << class) - 1),
        }
    }

    /// The histogram, with `tier_of(page)` the tier (index into `tier_names`) holding host page
    /// `page`, or None when it is not mapped.
    pub(super) fn finish(&self, tier_names: &[String], mut tier_of: impl FnMut(u64) -> Option<usize>) -> WriteHeat {
        let classes = self.counts.iter().map(|&count| Self::class(count)).max().unwrap_or(0) + 1;
        let mut pages: Vec<Vec<u64>> = vec![vec![0; classes]; tier_names.len()];
        for (page, &count) in self.counts.iter().enumerate() {
            if let Some(tier) = tier_of(page as u64) {
                if let Some(row) = pages.get_mut(tier) {
                    row[Self::class(count)] += 1;
                }
            }
        }
        WriteHeat {
            classes: (0..classes).map(Self::label).collect(),
            pages: tier_names.iter().cloned().zip(pages).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_fall_in_power_of_two_classes_per_tier() {
        let mut counter = WriteCounter::new(6);
        for (page, times) in [(1u64, 1), (2, 2), (3, 3), (4, 4), (5, 9)] {
            for _ in 0..times {
                counter.written(page);
            }
        }
        counter.written(99); // beyond the host's pages: ignored
                             // Pages 0-2 in tier 0, 3-4 in tier 1, page 5 unmapped.
        let heat = counter.finish(&["mlc".into(), "tlc".into()], |page| match page {
            0..=2 => Some(0),
            3..=4 => Some(1),
            _ => None,
        });
        assert_eq!(heat.classes, vec!["0", "1", "2-3", "4-7", "8-15"]);
        assert_eq!(heat.pages["mlc"], vec![1, 1, 1, 0, 0]);
        assert_eq!(heat.pages["tlc"], vec![0, 0, 1, 1, 0]);
    }
}
