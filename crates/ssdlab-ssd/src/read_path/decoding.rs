//! Whether a read's decoding fails, and with how many extra sensing levels it finally succeeds.
//!
//! Model (seed 002 §5): each read of a chip class (or, with data placement interleaving, of a
//! group of chips sharing codewords: `chip_rows`) fails hard-decision decoding with probability
//! p[0] and soft decoding with k extra sensing levels with probability p[k]; the probabilities come
//! from the ECC lab's Monte Carlo at the drive's stress (seed 002 feeds its simulator the same way:
//! one failure probability at 10,000 P/E). One uniform draw per read decides every attempt at once:
//! the read needs the fewest levels k with draw >= p[k]. Because p is non-increasing, an attempt
//! that succeeds with k levels also succeeds with more, as a real decoder's would on the same
//! noisy page, and P(k levels fail | k-1 levels failed) = p[k] / p[k-1], the conditional of eq. 4.
//!
//! Left out: dependence on each block's own wear and on retention time (the probabilities are for
//! one operating point), and failures correlated between pages of a word line.

use super::{ReadContext, ReadPlan, ReadStep};
use ssdlab_engine::random::Xoshiro256PlusPlus;

/// Counts of what the read path did, reported with every run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ReadPathStatistics {
    /// Reads whose decoding was sampled.
    pub sampled_reads: u64,
    pub hard_decision_failures: u64,
    /// reads_needing_levels[k]: reads whose fewest extra sensing levels that decode are k (0 =
    /// hard decision); a two-step read still senses all levels after a hard failure.
    pub reads_needing_levels: Vec<u64>,
    /// Reads that failed even with every extra sensing level (data would need recovery beyond
    /// ECC, e.g. RAID; the simulator still completes the read and counts it here).
    pub uncorrectable_reads: u64,
    /// Look-ahead soft sensings started, and those cancelled because hard decoding succeeded.
    pub look_ahead_started: u64,
    pub look_ahead_cancelled: u64,
}

/// The decoding outcome sampler of one run.
pub struct DecodingOutcomes {
    classes: Vec<Vec<f64>>,
    /// The list of each chip class (chip mod length); empty: list chip mod lists.
    chip_rows: Vec<usize>,
    rng: Xoshiro256PlusPlus,
    pub statistics: ReadPathStatistics,
}

impl DecodingOutcomes {
    /// `classes`: validated lists (non-increasing probabilities, one per level from 0 to the
    /// maximum). No classes: decoding never fails.
    pub fn new(classes: Vec<Vec<f64>>, chip_rows: Vec<usize>, max_levels: u32, seed: u64) -> Self {
        let statistics = ReadPathStatistics { reads_needing_levels: vec![0; max_levels as usize + 1], ..ReadPathStatistics::default() };
        DecodingOutcomes { classes, chip_rows, rng: Xoshiro256PlusPlus::seed_from_u64(seed), statistics }
    }

    /// Extra sensing levels this read needs (0: hard decision succeeds), or `None` when even the
    /// most precise sensing fails.
    pub fn levels_needed(&mut self, chip: u32) -> Option<u32> {
        self.statistics.sampled_reads += 1;
        let needed = if self.classes.is_empty() {
            Some(0)
        } else {
            let row = if self.chip_rows.is_empty() { chip as usize % self.classes.len() } else { self.chip_rows[chip as usize % self.chip_rows.len()] };
            let probabilities = &self.classes[row];
            let draw = self.rng.next_f64();
            probabilities.iter().position(|&p| draw >= p).map(|k| k as u32)
        };
        match needed {
            Some(k) => self.statistics.reads_needing_levels[k as usize] += 1,
            None => self.statistics.uncorrectable_reads += 1,
        }
        if needed != Some(0) {
            self.statistics.hard_decision_failures += 1;
        }
        needed
    }
}

/// What the first attempt of a sampling strategy's read came to.
pub enum HardAttempt {
    /// Hard decoding succeeded; the plan holds the hard step (and a cancelled look-ahead sensing).
    Decoded,
    /// Hard decoding failed: `needed` extra levels decode the read (None: none do); `look_ahead`
    /// says whether the first soft sensing starts when the hard sensing ends.
    Failed { needed: Option<u32>, look_ahead: bool },
}

impl DecodingOutcomes {
    /// The step every sampling strategy starts with: hard sensing, transfer and decoding, the read's
    /// outcome drawn, and look-ahead (on an idle die, `look_ahead_levels` of soft sensing started
    /// right after the hard sensing) booked as cancelled when hard decoding succeeds.
    pub fn hard_attempt(&mut self, plan: &mut ReadPlan, context: &ReadContext, look_ahead: bool, look_ahead_levels: u32) -> HardAttempt {
        plan.push(ReadStep::PLAIN_HARD);
        let needed = self.levels_needed(context.chip);
        let look_ahead = look_ahead && context.die_idle;
        self.statistics.look_ahead_started += look_ahead as u64;
        if needed == Some(0) {
            if look_ahead {
                self.statistics.look_ahead_cancelled += 1;
                plan.push(ReadStep::cancelled_sensing(look_ahead_levels));
            }
            return HardAttempt::Decoded;
        }
        HardAttempt::Failed { needed, look_ahead }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_frequencies_follow_the_probabilities() {
        let mut outcomes = DecodingOutcomes::new(vec![vec![0.3, 0.05, 0.01]], Vec::new(), 2, 9);
        let reads = 200_000;
        for _ in 0..reads {
            outcomes.levels_needed(0);
        }
        let s = &outcomes.statistics;
        let fraction = |count: u64| count as f64 / reads as f64;
        assert!((fraction(s.hard_decision_failures) - 0.3).abs() < 0.005, "{s:?}");
        assert!((fraction(s.reads_needing_levels[1]) - 0.25).abs() < 0.005, "{s:?}");
        assert!((fraction(s.reads_needing_levels[2]) - 0.04).abs() < 0.003, "{s:?}");
        assert!((fraction(s.uncorrectable_reads) - 0.01).abs() < 0.002, "{s:?}");
    }

    #[test]
    fn chip_classes_repeat_over_the_chips_and_no_classes_never_fail() {
        let mut outcomes = DecodingOutcomes::new(vec![vec![0.0, 0.0], vec![1.0, 1.0]], Vec::new(), 1, 1);
        assert_eq!(outcomes.levels_needed(2), Some(0));
        assert_eq!(outcomes.levels_needed(3), None);
        // Interleaved rows: chip classes 0 and 2 share list 1, 1 and 3 list 0.
        let mut grouped = DecodingOutcomes::new(vec![vec![0.0, 0.0], vec![1.0, 1.0]], vec![1, 0, 1, 0], 1, 1);
        assert_eq!((grouped.levels_needed(4), grouped.levels_needed(5), grouped.levels_needed(6)), (None, Some(0), None));
        let mut never = DecodingOutcomes::new(Vec::new(), Vec::new(), 6, 1);
        assert!((0..1000).all(|chip| never.levels_needed(chip) == Some(0)));
    }
}
