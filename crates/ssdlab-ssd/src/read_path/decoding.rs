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
//! Wear: with tables at several P/E counts a read uses its block's erase count (interpolated
//! linearly between the two tables around it). Left out: dependence on retention time (each table
//! is for one retention time), and failures correlated between pages of a word line.

use super::{ReadContext, ReadPlan, ReadStep};
use crate::config::DecodingDraw;
use ssdlab_engine::random::Xoshiro256PlusPlus;

/// Counts of what the read path did, reported with every run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ReadPathStatistics {
    /// Reads whose decoding was sampled.
    pub sampled_reads: u64,
    pub hard_decision_failures: u64,
    /// Host requests with a sampled read, and those with at least one page whose hard decoding
    /// failed (the request then waits for soft sensing): with independent pages a many-page
    /// request fails more often than a page does; with one draw per request, as often as its
    /// weakest page. (A request's pages are planned together, one after another.)
    pub sampled_requests: u64,
    pub requests_with_hard_failures: u64,
    /// reads_needing_levels[k]: reads whose fewest extra sensing levels that decode are k (0 =
    /// hard decision); a two-step read still senses all levels after a hard failure.
    pub reads_needing_levels: Vec<u64>,
    /// Reads that failed even with every extra sensing level (data would need recovery beyond
    /// ECC, e.g. RAID; the simulator still completes the read and counts it here).
    pub uncorrectable_reads: u64,
    /// Look-ahead soft sensings started, and those cancelled because hard decoding succeeded.
    pub look_ahead_started: u64,
    pub look_ahead_cancelled: u64,
    /// Look-aheads not started because another read waited for the die when the hard sensing
    /// ended (`read_path.look_ahead_idle_test = "after_hard_sensing"`).
    pub look_ahead_skipped_busy: u64,
    /// Seed 000's policies: use of each decoder kind.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decoders: Vec<super::DecoderUse>,
    /// AOA-ECC's switch points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub switch_pe_cycles: Option<super::SwitchPoints>,
    /// Seed 000's policies: reads looked up outside the decoder tables' grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside_decoder_tables: Option<OutsideDecoderTables>,
}

/// Reads whose block wear or data age lay outside `read_path.decoder_tables`' grid. The tables'
/// edge values were used for them (clamped, not extrapolated), so such a read's failure probability
/// is the grid edge's: too low past the last P/E or the oldest age, too high below the youngest.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct OutsideDecoderTables {
    /// The grid: last P/E count, youngest and oldest data age (hours).
    pub grid_max_pe_cycles: f64,
    pub grid_min_age_hours: f64,
    pub grid_max_age_hours: f64,
    pub reads_past_pe_grid: u64,
    /// The highest block erase count a read saw (0 when none was past the grid).
    pub max_pe_cycles_past_grid: u32,
    pub reads_younger_than_age_grid: u64,
    pub reads_older_than_age_grid: u64,
    /// The oldest data age a read saw past the grid (hours; 0 when none).
    pub max_age_hours_past_grid: f64,
}

impl OutsideDecoderTables {
    /// Counts one read at `pe_cycles` and `age_hours`.
    #[inline]
    pub fn note(&mut self, pe_cycles: u32, age_hours: f64) {
        if pe_cycles as f64 > self.grid_max_pe_cycles {
            self.reads_past_pe_grid += 1;
            self.max_pe_cycles_past_grid = self.max_pe_cycles_past_grid.max(pe_cycles);
        }
        if age_hours < self.grid_min_age_hours {
            self.reads_younger_than_age_grid += 1;
        } else if age_hours > self.grid_max_age_hours {
            self.reads_older_than_age_grid += 1;
            self.max_age_hours_past_grid = self.max_age_hours_past_grid.max(age_hours);
        }
    }

    pub fn any(&self) -> bool {
        self.reads_past_pe_grid + self.reads_younger_than_age_grid + self.reads_older_than_age_grid > 0
    }
}

/// The decoding outcome sampler of one run.
pub struct DecodingOutcomes {
    /// (P/E count, lists): one entry without wear dependence; ascending P/E otherwise.
    tables: Vec<(f64, Vec<Vec<f64>>)>,
    /// The list of each chip class (chip mod length); empty: list chip mod lists.
    chip_rows: Vec<usize>,
    /// Classes of blocks (1: no spread).
    block_classes: usize,
    /// Parts of a codeword in blocks of independently drawn classes (1: the read block's class
    /// decides), and the lists per chip row that makes (one per multiset of the parts' classes).
    codeword_parts: usize,
    lists_per_chip_row: usize,
    rng: Xoshiro256PlusPlus,
    pub statistics: ReadPathStatistics,
    /// Per-request draws: the request of the last draw and the draw.
    per_request: bool,
    last_draw: Option<(u64, f64)>,
    /// The request of the last sampled read, and whether one of its pages failed hard decoding.
    last_request: Option<(u64, bool)>,
}

impl DecodingOutcomes {
    /// `classes`: validated lists (non-increasing probabilities, one per level from 0 to the
    /// maximum). No classes: decoding never fails.
    pub fn new(classes: Vec<Vec<f64>>, chip_rows: Vec<usize>, max_levels: u32, seed: u64) -> Self {
        Self::with_wear(vec![(0.0, classes)], chip_rows, max_levels, seed)
    }

    /// Tables at ascending P/E counts (validated: same rows, non-increasing lists); a read uses the
    /// two around its block's erase count, interpolated linearly (clamped at the ends).
    pub fn with_wear(tables: Vec<(f64, Vec<Vec<f64>>)>, chip_rows: Vec<usize>, max_levels: u32, seed: u64) -> Self {
        let statistics = ReadPathStatistics {
            reads_needing_levels: vec![0; max_levels as usize + 1],
            ..ReadPathStatistics::default()
        };
        DecodingOutcomes {
            tables,
            chip_rows,
            block_classes: 1,
            codeword_parts: 1,
            lists_per_chip_row: 1,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            statistics,
            per_request: false,
            last_draw: None,
            last_request: None,
        }
    }

    /// Block-to-block spread: each chip row is `classes` lists, one per class of blocks.
    pub fn with_block_classes(mut self, classes: Option<u32>) -> Self {
        self.block_classes = classes.unwrap_or(1).max(1) as usize;
        self.lists_per_chip_row = multiset_count(self.block_classes, self.codeword_parts);
        self
    }

    /// Interleaved codewords whose `parts` sit in blocks of independently drawn classes (validated
    /// `read_path.decoding.codeword_parts`).
    pub fn with_codeword_parts(mut self, parts: u32) -> Self {
        self.codeword_parts = parts.max(1) as usize;
        self.lists_per_chip_row = multiset_count(self.block_classes, self.codeword_parts);
        self
    }

    /// The list of a read within its chip row: its block's class, or with several codeword parts
    /// the rank of the multiset of the parts' classes.
    fn list_in_chip_row(&self, block: u32) -> usize {
        if self.codeword_parts <= 1 || self.block_classes <= 1 {
            return block_class(block, self.block_classes);
        }
        let mut classes = [0usize; 8];
        let parts = self.codeword_parts.min(classes.len());
        classes[0] = block_class(block, self.block_classes);
        for (part, class) in classes.iter_mut().enumerate().take(parts).skip(1) {
            *class = part_block_class(block, part as u32, self.block_classes);
        }
        classes[..parts].sort_unstable();
        multiset_rank(&classes[..parts], self.block_classes)
    }

    /// One draw per page (default) or per host request.
    pub fn drawing(mut self, draw: DecodingDraw) -> Self {
        self.per_request = draw == DecodingDraw::PerRequest;
        self
    }

    /// The uniform draw of a read of `request`: a fresh one per page, or the request's own.
    fn draw_for(&mut self, request: u64) -> f64 {
        if !self.per_request {
            return self.rng.next_f64();
        }
        match self.last_draw {
            Some((last, draw)) if last == request => draw,
            _ => {
                let draw = self.rng.next_f64();
                self.last_draw = Some((request, draw));
                draw
            }
        }
    }

    /// The tables around `pe_cycles` and the weight of the upper one.
    fn bracket(&self, pe_cycles: f64) -> (usize, usize, f64) {
        let last = self.tables.len() - 1;
        let upper = self.tables.partition_point(|(pe, _)| *pe <= pe_cycles);
        if upper == 0 {
            return (0, 0, 0.0);
        }
        if upper > last {
            return (last, last, 0.0);
        }
        let ((low_pe, _), (high_pe, _)) = (&self.tables[upper - 1], &self.tables[upper]);
        (upper - 1, upper, (pe_cycles - low_pe) / (high_pe - low_pe))
    }

    /// Extra sensing levels this read needs (0: hard decision succeeds), or `None` when even the
    /// most precise sensing fails.
    pub fn levels_needed(&mut self, chip: u32, pe_cycles: u32) -> Option<u32> {
        self.levels_needed_for(chip, 0, pe_cycles, 0)
    }

    /// [`DecodingOutcomes::levels_needed`] for a read of block `block` (its class, with spread) of
    /// host request `request`.
    pub fn levels_needed_for(&mut self, chip: u32, block: u32, pe_cycles: u32, request: u64) -> Option<u32> {
        self.statistics.sampled_reads += 1;
        let rows = self.tables[0].1.len();
        let needed = if rows == 0 {
            Some(0)
        } else {
            let chip_rows = rows / self.lists_per_chip_row;
            let chip_row = if self.chip_rows.is_empty() {
                chip as usize % chip_rows
            } else {
                self.chip_rows[chip as usize % self.chip_rows.len()]
            };
            let row = chip_row * self.lists_per_chip_row + self.list_in_chip_row(block);
            let (low, high, weight) = self.bracket(pe_cycles as f64);
            let draw = self.draw_for(request);
            let (below, above) = (&self.tables[low].1[row], &self.tables[high].1[row]);
            // A mix of two non-increasing lists is non-increasing: the first level that decodes is
            // still the answer for every finer one.
            (0..below.len()).find(|&k| draw >= below[k] + weight * (above[k] - below[k])).map(|k| k as u32)
        };
        match needed {
            Some(k) => self.statistics.reads_needing_levels[k as usize] += 1,
            None => self.statistics.uncorrectable_reads += 1,
        }
        let failed = needed != Some(0);
        self.statistics.hard_decision_failures += failed as u64;
        match self.last_request {
            Some((last, counted)) if last == request => {
                if failed && !counted {
                    self.statistics.requests_with_hard_failures += 1;
                    self.last_request = Some((request, true));
                }
            }
            _ => {
                self.statistics.sampled_requests += 1;
                self.statistics.requests_with_hard_failures += failed as u64;
                self.last_request = Some((request, failed));
            }
        }
        needed
    }
}

/// The spread class of a block: a multiplicative scramble of its index (Fibonacci hashing), so
/// that classes hold equal shares of the blocks and do not follow the allocation order.
fn block_class(block: u32, classes: usize) -> usize {
    if classes <= 1 {
        return 0;
    }
    ((block.wrapping_mul(0x9E37_79B9) as u64 * classes as u64) >> 32) as usize
}

/// The class of part `part` (1..) of an interleaved codeword read through block `block`: the part
/// sits on another chip, in a block of its own, so its class is a scramble of (block, part)
/// independent of `block_class(block)` (a SplitMix64 finaliser: neighbouring inputs give unrelated
/// outputs, unlike a multiplicative hash, whose classes would move together).
fn part_block_class(block: u32, part: u32, classes: usize) -> usize {
    let mut x = ((block as u64) << 8 | part as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    (((x >> 32) * classes as u64) >> 32) as usize
}

/// Non-decreasing tuples of `parts` values out of `classes`.
fn multiset_count(classes: usize, parts: usize) -> usize {
    crate::config::multiset_count(classes, parts)
}

/// The rank of a non-decreasing tuple among all non-decreasing tuples of its length over
/// `classes` values, in lexicographic order (the ECC lab's `block_class_multisets` order): for each
/// position, the tuples that agree before it and hold a smaller value there.
fn multiset_rank(sorted: &[usize], classes: usize) -> usize {
    let mut rank = 0;
    let mut low = 0;
    for (position, &value) in sorted.iter().enumerate() {
        let remaining = sorted.len() - position - 1;
        rank += (low..value).map(|smaller| multiset_count(classes - smaller, remaining)).sum::<usize>();
        low = value;
    }
    rank
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
    pub fn hard_attempt(
        &mut self,
        plan: &mut ReadPlan,
        context: &ReadContext,
        look_ahead: bool,
        look_ahead_levels: u32,
    ) -> HardAttempt {
        plan.push(ReadStep::PLAIN_HARD);
        let needed = self.levels_needed_for(context.chip, context.block, context.pe_cycles, context.request);
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
    fn multisets_rank_in_the_order_the_ecc_lab_writes_them() {
        // The same literal list pins `ssdlab_ecc::decoding_table::block_class_multisets`.
        let order = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]];
        for (rank, tuple) in order.iter().enumerate() {
            assert_eq!(multiset_rank(tuple, 3), rank, "{tuple:?}");
        }
        assert_eq!(multiset_rank(&[3, 3, 3, 3], 4), 34, "the last of 35 multisets");
        assert_eq!(multiset_rank(&[0, 1, 2, 3], 4), 14, "itertools combinations_with_replacement order");
    }

    #[test]
    fn an_interleaved_codeword_draws_from_the_multiset_of_its_parts_classes() {
        // Two block classes, two parts: lists {0,0}, {0,1}, {1,1}. Only a codeword with both parts
        // in weak blocks fails. Independent parts: 1/4 of the codewords; a codeword that took one
        // class for both parts (the old reading, one list per class) would fail 1/2 of the time.
        let lists = vec![vec![0.0, 0.0], vec![0.0, 0.0], vec![1.0, 0.0]];
        let mut outcomes =
            DecodingOutcomes::new(lists, Vec::new(), 1, 4).with_block_classes(Some(2)).with_codeword_parts(2);
        let blocks = 40_000u32;
        let failed = (0..blocks).filter(|&block| outcomes.levels_needed_for(0, block, 0, 0) != Some(0)).count();
        let share = failed as f64 / blocks as f64;
        assert!((share - 0.25).abs() < 0.01, "share of failing codewords {share}");
        // Per block it is exact: both classes weak, or not.
        for block in 0..200 {
            let weak = block_class(block, 2) == 1 && part_block_class(block, 1, 2) == 1;
            assert_eq!(outcomes.levels_needed_for(0, block, 0, 0) != Some(0), weak, "block {block}");
        }
        // The partner's class does not follow the read block's: all four pairings occur about
        // equally often.
        let mut pairs = [0u32; 4];
        for block in 0..40_000 {
            pairs[block_class(block, 2) * 2 + part_block_class(block, 1, 2)] += 1;
        }
        assert!(pairs.iter().all(|&n| (9_600..10_400).contains(&n)), "{pairs:?}");
    }

    #[test]
    fn outcome_frequencies_follow_the_probabilities() {
        let mut outcomes = DecodingOutcomes::new(vec![vec![0.3, 0.05, 0.01]], Vec::new(), 2, 9);
        let reads = 200_000;
        for _ in 0..reads {
            outcomes.levels_needed(0, 0);
        }
        let s = &outcomes.statistics;
        let fraction = |count: u64| count as f64 / reads as f64;
        assert!((fraction(s.hard_decision_failures) - 0.3).abs() < 0.005, "{s:?}");
        assert!((fraction(s.reads_needing_levels[1]) - 0.25).abs() < 0.005, "{s:?}");
        assert!((fraction(s.reads_needing_levels[2]) - 0.04).abs() < 0.003, "{s:?}");
        assert!((fraction(s.uncorrectable_reads) - 0.01).abs() < 0.002, "{s:?}");
    }

    #[test]
    fn a_per_request_draw_delays_the_hand_computed_share_of_requests() {
        // p = 0.3 per read, requests of 25 pages: drawn per page, 1 - 0.7^25 = 99.987 % of requests
        // meet a failure; drawn per request, 30 %.
        let requests = 20_000u64;
        let delayed = |draw: DecodingDraw| {
            let mut outcomes = DecodingOutcomes::new(vec![vec![0.3, 0.0]], Vec::new(), 1, 7).drawing(draw);
            (0..requests)
                .filter(|&request| (0..25).map(|_| outcomes.levels_needed_for(0, 0, 0, request)).any(|k| k != Some(0)))
                .count() as f64
                / requests as f64
        };
        assert!((delayed(DecodingDraw::PerPage) - (1.0 - 0.7f64.powi(25))).abs() < 0.001);
        assert!((delayed(DecodingDraw::PerRequest) - 0.3).abs() < 0.01);
    }

    #[test]
    fn wear_interpolates_between_tables_and_clamps_at_the_ends() {
        let tables = vec![(1000.0, vec![vec![0.0, 0.0]]), (3000.0, vec![vec![1.0, 0.0]])];
        let mut outcomes = DecodingOutcomes::with_wear(tables, Vec::new(), 1, 3);
        let failures = |outcomes: &mut DecodingOutcomes, pe: u32| {
            (0..20_000).filter(|_| outcomes.levels_needed(0, pe) != Some(0)).count() as f64 / 20_000.0
        };
        assert_eq!(failures(&mut outcomes, 0), 0.0);
        assert_eq!(failures(&mut outcomes, 1000), 0.0);
        assert!((failures(&mut outcomes, 2500) - 0.75).abs() < 0.02);
        assert_eq!(failures(&mut outcomes, 3000), 1.0);
        assert_eq!(failures(&mut outcomes, 50_000), 1.0);
    }

    #[test]
    fn chip_classes_repeat_over_the_chips_and_no_classes_never_fail() {
        let mut outcomes = DecodingOutcomes::new(vec![vec![0.0, 0.0], vec![1.0, 1.0]], Vec::new(), 1, 1);
        assert_eq!(outcomes.levels_needed(2, 0), Some(0));
        assert_eq!(outcomes.levels_needed(3, 0), None);
        // Interleaved rows: chip classes 0 and 2 share list 1, 1 and 3 list 0.
        let mut grouped = DecodingOutcomes::new(vec![vec![0.0, 0.0], vec![1.0, 1.0]], vec![1, 0, 1, 0], 1, 1);
        assert_eq!(
            (grouped.levels_needed(4, 0), grouped.levels_needed(5, 0), grouped.levels_needed(6, 0)),
            (None, Some(0), None)
        );
        let mut never = DecodingOutcomes::new(Vec::new(), Vec::new(), 6, 1);
        assert!((0..1000).all(|chip| never.levels_needed(chip, 0) == Some(0)));
    }

    #[test]
    fn block_classes_split_each_chip_row_by_block() {
        // Chip rows 0 and 1, each two block classes: class 0 never fails, class 1 always does.
        let lists = vec![vec![0.0, 0.0], vec![1.0, 1.0], vec![0.0, 0.0], vec![1.0, 1.0]];
        let mut outcomes = DecodingOutcomes::new(lists, Vec::new(), 1, 5).with_block_classes(Some(2));
        let failing: Vec<u32> =
            (0..4000).filter(|&block| outcomes.levels_needed_for(1, block, 0, 0).is_none()).collect();
        // Equal shares, and the classes do not follow the block order.
        assert!((failing.len() as f64 / 4000.0 - 0.5).abs() < 0.02, "{}", failing.len());
        assert!(failing.windows(2).any(|pair| pair[1] != pair[0] + 1));
        for block in 0..100 {
            let class = block_class(block, 2);
            assert_eq!(outcomes.levels_needed_for(0, block, 0, 0).is_none(), class == 1);
            assert_eq!(block_class(block, 1), 0);
        }
    }

    /// The share of 16-page requests (pages on chips 0..15, chip rows `chip mod 4`) with at least one
    /// page whose hard decoding fails, under `draw`.
    fn requests_failing(draw: DecodingDraw, requests: u64) -> f64 {
        let rows = vec![vec![0.05, 0.0], vec![0.10, 0.0], vec![0.0, 0.0], vec![0.30, 0.0]];
        let mut outcomes = DecodingOutcomes::new(rows, Vec::new(), 1, 42).drawing(draw);
        let failing = (0..requests)
            .filter(|&request| {
                let mut any = false;
                for chip in 0..16 {
                    any |= outcomes.levels_needed_for(chip, 0, 0, request) != Some(0);
                }
                any
            })
            .count();
        failing as f64 / requests as f64
    }

    #[test]
    fn a_sixteen_page_read_fails_as_independent_pages_do_unless_drawn_once() {
        // Issue 45: four pages on each of four chip rows (5 %, 10 %, 0 %, 30 %). Independent pages:
        // 1 - (0.95 x 0.90 x 1.0 x 0.70)^4 = 87.2 %. One draw for the request: it fails with its
        // weakest chip, 30 %.
        let independent = 1.0 - (0.95f64 * 0.90 * 1.0 * 0.70).powi(4);
        let per_page = requests_failing(DecodingDraw::PerPage, 20_000);
        assert!((per_page - independent).abs() < 0.01, "{per_page} vs {independent}");
        let per_request = requests_failing(DecodingDraw::PerRequest, 20_000);
        assert!((per_request - 0.30).abs() < 0.01, "{per_request}");
        // The statistics count the same requests.
        let rows = vec![vec![0.0, 0.0], vec![1.0, 0.0]];
        let mut outcomes = DecodingOutcomes::new(rows, Vec::new(), 1, 1);
        for request in 0..10 {
            for chip in 0..(1 + request as u32 % 2) {
                outcomes.levels_needed_for(chip, 0, 0, request);
            }
        }
        // Requests 1, 3, 5, 7, 9 read chip 1 (always fails) as their second page.
        let statistics = &outcomes.statistics;
        assert_eq!((statistics.sampled_requests, statistics.requests_with_hard_failures), (10, 5));
        assert_eq!((statistics.sampled_reads, statistics.hard_decision_failures), (15, 5));
    }
}
