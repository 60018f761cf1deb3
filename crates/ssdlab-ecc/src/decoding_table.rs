//! Decoding-failure probabilities at one stress, in the form the SSD read path reads
//! (`read_path.decoding.failure_probabilities`): per chip, the probability that a read fails with
//! hard decision and with 1..=max extra sensing levels.
//!
//! Each entry is a Monte Carlo frame error rate of this lab's LDPC decoder on this lab's channel at
//! the stress, averaged over the cell's page types (a drive reads every page type). Seed 002 fed its
//! SSD simulator the same kind of number (28.8 % hard-decision failure at 10,000 P/E after one month at
//! 40 C). Estimates are independent per precision, so by chance a finer precision can come out a
//! hair above a coarser one; as more sensing levels never make the decoder worse (tested on the
//! curves), each entry is capped at the one before it, and the raw estimates are kept beside.

use crate::channel::{CellKind, Channel, ChannelParameters, Stress};
use crate::monte_carlo::{run_interleaved, Codes, DecoderKind, StopRule};
use serde::{Deserialize, Serialize};

/// What to estimate. Plain data; [`DecodingTableSpec::validate`] checks it once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DecodingTableSpec {
    pub cell: CellKind,
    /// Channel constants; the cell kind's defaults when absent.
    pub channel: Option<ChannelParameters>,
    pub pe_cycles: f64,
    pub retention_hours: f64,
    pub storage_temperature_c: f64,
    /// Highest number of extra sensing levels (1..=6).
    pub max_extra_levels: u32,
    /// Frames per (chip, page type, precision).
    pub frames_per_case: u64,
    pub seed: u64,
    /// Data placement interleaving (seed 002 §3.3): each group of chips holds codewords spread
    /// evenly over its chips, and the table has one row per group instead of one per chip. Seed
    /// 002's 2-way: [[0, 2], [1, 3]] (chips 1 and 3, 2 and 4); 4-way: [[0, 1, 2, 3]]. Empty: none.
    pub interleave_groups: Vec<Vec<usize>>,
    /// Block-to-block spread within a chip (seed 002 Fig. 9): classes of blocks, each this
    /// multiplier on the wear noise and an equal share of the blocks. The table then has one row per
    /// (chip or group, block class), class fastest, or with interleaving one row per (group,
    /// multiset of its parts' block classes): see `part_block_classes`. Empty: no spread.
    pub block_factors: Vec<f64>,
    /// With interleaving and block spread: where an interleaved codeword's parts sit.
    pub part_block_classes: PartBlockClasses,
}

/// Where the n parts of an interleaved codeword sit, with block-to-block spread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartBlockClasses {
    /// Each part in a block of its own, drawn independently (n chips' active blocks are n blocks):
    /// the codeword sees the mean of n block error rates, as seed 002 §3.3 intends. One row per
    /// multiset of the parts' classes ([`block_class_multisets`]); the decoder sees each part's
    /// bits from its own (chip, block class) channel, the classes rotated over the group's chips in
    /// equal shares of the frames so that no pairing of a class with a chip is favoured.
    #[default]
    Independent,
    /// Every part in a block of the same class (the reading before issue 34): the chips' spread is
    /// averaged, the blocks' is not. One row per class.
    Shared,
}

/// The multisets of `parts` block classes out of `classes`, as non-decreasing tuples in
/// lexicographic order: the rows of one interleave group with independent parts. This order is a
/// contract with the SSD read path (`read_path.decoding.codeword_parts`), which ranks a read's
/// sorted classes the same way; both sides pin it with the same literal list in a test.
pub fn block_class_multisets(classes: usize, parts: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    let mut tuple = vec![0usize; parts];
    if parts == 0 || classes == 0 {
        return all;
    }
    loop {
        all.push(tuple.clone());
        // The next non-decreasing tuple: raise the last position that can rise, reset the rest to it.
        let Some(position) = (0..parts).rev().find(|&i| tuple[i] + 1 < classes) else {
            return all;
        };
        let value = tuple[position] + 1;
        tuple[position..].iter_mut().for_each(|entry| *entry = value);
    }
}

/// The largest number of rows one interleave group may take (multisets of its parts' classes).
const MAX_ROWS_PER_GROUP: usize = 512;

impl Default for DecodingTableSpec {
    fn default() -> Self {
        DecodingTableSpec {
            cell: CellKind::Mlc,
            channel: None,
            pe_cycles: 10_000.0,
            retention_hours: 720.0,
            storage_temperature_c: 40.0,
            max_extra_levels: 6,
            frames_per_case: 2_000,
            seed: 11,
            interleave_groups: Vec::new(),
            block_factors: Vec::new(),
            part_block_classes: PartBlockClasses::Independent,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecodingTable {
    pub spec: DecodingTableSpec,
    /// failure_probabilities[row][k] (row = chip, or interleave group): capped so entries never
    /// rise with k.
    pub failure_probabilities: Vec<Vec<f64>>,
    /// The Monte Carlo estimates before capping.
    pub estimated: Vec<Vec<f64>>,
    /// Each precision's failure probability over all reads: the rows weighted by their share of
    /// reads (`DecodingTableSpec::row_weights`).
    pub mean: Vec<f64>,
    /// With interleaving, the row each chip's reads use (`chip_rows` of an SSD config); empty without.
    pub chip_rows: Vec<usize>,
    /// Block classes (1 without spread): without `codeword_parts` > 1, row = chip row x classes +
    /// class.
    pub block_classes: usize,
    /// Parts of a codeword whose block classes are drawn independently (the group size with
    /// interleaving, spread and independent parts; 1 otherwise): each chip row then has one row per
    /// multiset of the parts' classes ([`block_class_multisets`]).
    pub codeword_parts: usize,
    /// The `[read_path.decoding]` table of a simulation config, ready to paste.
    pub config_toml: String,
}

impl DecodingTableSpec {
    pub fn channel_parameters(&self) -> ChannelParameters {
        self.channel.clone().unwrap_or_else(|| ChannelParameters::default_for(self.cell))
    }

    /// The first invalid field and why.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !(self.pe_cycles.is_finite() && self.pe_cycles >= 0.0) {
            return Err(("pe_cycles", format!("must be a finite count >= 0, got {}", self.pe_cycles)));
        }
        if !(self.retention_hours.is_finite() && self.retention_hours >= 0.0) {
            return Err(("retention_hours", format!("must be finite and >= 0, got {}", self.retention_hours)));
        }
        if !(-40.0..=150.0).contains(&self.storage_temperature_c) {
            return Err((
                "storage_temperature_c",
                format!("must be within -40..150 C, got {}", self.storage_temperature_c),
            ));
        }
        if !(1..=6).contains(&self.max_extra_levels) {
            return Err(("max_extra_levels", format!("must be 1..=6, got {}", self.max_extra_levels)));
        }
        if self.frames_per_case == 0 {
            return Err(("frames_per_case", "must be at least 1".into()));
        }
        let parameters = self.channel_parameters();
        let chips = parameters.chip_factors.len().max(1);
        for (index, group) in self.interleave_groups.iter().enumerate() {
            if group.is_empty() {
                return Err(("interleave_groups", format!("group {index} is empty")));
            }
            if let Some(chip) = group.iter().find(|&&c| c >= chips) {
                return Err((
                    "interleave_groups",
                    format!("group {index} names chip {chip}, but the channel has {chips} chips (0..{})", chips - 1),
                ));
            }
        }
        if !self.interleave_groups.is_empty() {
            if let Some(chip) =
                (0..chips).find(|chip| self.interleave_groups.iter().filter(|g| g.contains(chip)).count() != 1)
            {
                return Err((
                    "interleave_groups",
                    format!(
                        "chip {chip} must be in exactly one group (every read of a chip uses its group's codewords)"
                    ),
                ));
            }
        }
        if let Some(factor) = self.block_factors.iter().find(|f| !(f.is_finite() && **f > 0.0)) {
            return Err(("block_factors", format!("must be positive multipliers, got {factor}")));
        }
        if self.block_factors.len() > 16 {
            return Err(("block_factors", format!("at most 16 block classes, got {}", self.block_factors.len())));
        }
        if self.codeword_parts() > 1 {
            let sizes: Vec<usize> = self.interleave_groups.iter().map(Vec::len).collect();
            if sizes.iter().any(|&size| size != sizes[0]) {
                return Err((
                    "interleave_groups",
                    format!("with block spread and independent parts every group needs the same size (one codeword_parts for the SSD), got sizes {sizes:?}"),
                ));
            }
            let rows = multiset_count(self.block_factors.len(), sizes[0]);
            if rows > MAX_ROWS_PER_GROUP {
                return Err((
                    "block_factors",
                    format!("{} classes over {}-way groups give {rows} rows per group (at most {MAX_ROWS_PER_GROUP}); use fewer classes or part_block_classes = \"shared\"", self.block_factors.len(), sizes[0]),
                ));
            }
        }
        if parameters.cell != self.cell {
            return Err(("channel.cell", format!("is {:?} but cell is {:?}", parameters.cell, self.cell)));
        }
        parameters.validate()
    }

    /// Runs the Monte Carlo (multi-threaded inside each case; deterministic for a seed).
    pub fn run(&self, codes: &Codes) -> Result<DecodingTable, (&'static str, String)> {
        self.run_reporting(codes, |_, _| Ok(()))
    }

    /// [`Self::run`], telling `progress(done, total)` after each (row, sensing precision) case: the
    /// total, rows x (max_extra_levels + 1), comes with the first call. An `Err` from `progress`
    /// stops the table (`("interrupted", reason)`).
    pub fn run_reporting(
        &self,
        codes: &Codes,
        mut progress: impl FnMut(usize, usize) -> Result<(), String>,
    ) -> Result<DecodingTable, (&'static str, String)> {
        self.validate()?;
        let parameters = self.channel_parameters();
        let pages = parameters.cell.bits();
        let block_factors = self.block_factor_classes();
        let cases = self.row_cases();
        let total_cases = cases.len() * (self.max_extra_levels as usize + 1);
        progress(0, total_cases).map_err(|reason| ("interrupted", reason))?;
        let mut estimated = Vec::with_capacity(cases.len());
        for (row_index, assignments) in cases.iter().enumerate() {
            // Each assignment is one pairing of the group's chips with block classes; the row's
            // frames are shared equally among them.
            let channel_sets: Vec<Vec<Channel>> = assignments
                .iter()
                .map(|parts| {
                    parts
                        .iter()
                        .map(|&(chip, class)| {
                            Channel::new(
                                &parameters,
                                Stress {
                                    chip,
                                    block_factor: block_factors[class],
                                    storage_temperature_c: self.storage_temperature_c,
                                    ..Stress::new(self.pe_cycles, self.retention_hours)
                                },
                            )
                        })
                        .collect()
                })
                .collect();
            let share = self.frames_per_case.div_ceil(channel_sets.len() as u64);
            let stop = StopRule { target_failures: u64::MAX, max_frames: share };
            let mut row: Vec<f64> = Vec::with_capacity(self.max_extra_levels as usize + 1);
            for levels in 0..=self.max_extra_levels {
                let decoder =
                    if levels == 0 { DecoderKind::LdpcHard } else { DecoderKind::LdpcSoft { extra_levels: levels } };
                let total: f64 = (0..pages)
                    .map(|page| {
                        let (mut frames, mut failures) = (0u64, 0u64);
                        for (set_index, channels) in channel_sets.iter().enumerate() {
                            let seed =
                                self.seed ^ (((row_index * pages + page) as u64) << 32) ^ ((set_index as u64) << 48);
                            let (f, e) = run_interleaved(codes, channels, page, decoder, stop, seed);
                            frames += f;
                            failures += e;
                        }
                        failures as f64 / frames as f64
                    })
                    .sum();
                row.push(total / pages as f64);
                let done = row_index * (self.max_extra_levels as usize + 1) + row.len();
                progress(done, total_cases).map_err(|reason| ("interrupted", reason))?;
            }
            estimated.push(row);
        }
        let failure_probabilities: Vec<Vec<f64>> = estimated
            .iter()
            .map(|row| {
                let mut capped = row.clone();
                for k in 1..capped.len() {
                    capped[k] = capped[k].min(capped[k - 1]);
                }
                capped
            })
            .collect();
        // Rows weighted by their share of reads: chip rows alike, and a multiset of independent
        // parts' classes by how many of the equally likely class tuples it stands for.
        let weights = self.row_weights();
        let total_weight: f64 = weights.iter().sum();
        let mean = (0..=self.max_extra_levels as usize)
            .map(|k| failure_probabilities.iter().zip(&weights).map(|(row, w)| row[k] * w).sum::<f64>() / total_weight)
            .collect();
        let chip_rows = self.chip_rows();
        let config_toml = config_toml(self, &failure_probabilities, &chip_rows);
        Ok(DecodingTable {
            spec: self.clone(),
            failure_probabilities,
            estimated,
            mean,
            chip_rows,
            block_classes: block_factors.len(),
            codeword_parts: self.codeword_parts(),
            config_toml,
        })
    }
}

impl DecodingTableSpec {
    /// With interleaving, the row of each chip (validation puts every chip in exactly one group).
    /// Empty without interleaving.
    pub fn chip_rows(&self) -> Vec<usize> {
        if self.interleave_groups.is_empty() {
            return Vec::new();
        }
        let chips = self.channel_parameters().chip_factors.len().max(1);
        (0..chips).map(|chip| self.interleave_groups.iter().position(|g| g.contains(&chip)).unwrap_or(0)).collect()
    }

    /// The block classes' wear-noise multipliers ([1.0] without spread).
    pub fn block_factor_classes(&self) -> Vec<f64> {
        if self.block_factors.is_empty() {
            vec![1.0]
        } else {
            self.block_factors.clone()
        }
    }

    /// Parts whose block classes are drawn independently: the group size with interleaving, block
    /// spread and independent parts; 1 otherwise.
    pub fn codeword_parts(&self) -> usize {
        let independent = self.part_block_classes == PartBlockClasses::Independent;
        if independent && self.block_factors.len() > 1 && !self.interleave_groups.is_empty() {
            self.interleave_groups[0].len()
        } else {
            1
        }
    }

    /// Each row's (chip, block class) assignments, rows in table order (chip row, then class or
    /// class multiset). One assignment per row except for independent parts, where the multiset's
    /// classes are rotated over the group's chips (one assignment per rotation).
    pub fn row_cases(&self) -> Vec<Vec<Vec<(usize, usize)>>> {
        let classes = self.block_factor_classes().len();
        let parts = self.codeword_parts();
        let mut cases = Vec::new();
        for group in self.rows() {
            if parts > 1 {
                for multiset in block_class_multisets(classes, parts) {
                    let rotations = (0..parts)
                        .map(|shift| {
                            group.iter().enumerate().map(|(i, &chip)| (chip, multiset[(i + shift) % parts])).collect()
                        })
                        .collect::<Vec<Vec<(usize, usize)>>>();
                    // Rotations of a tuple with repeats can coincide: keep each pairing once.
                    let mut distinct: Vec<Vec<(usize, usize)>> = Vec::new();
                    for rotation in rotations {
                        if !distinct.contains(&rotation) {
                            distinct.push(rotation);
                        }
                    }
                    cases.push(distinct);
                }
            } else {
                for class in 0..classes {
                    cases.push(vec![group.iter().map(|&chip| (chip, class)).collect()]);
                }
            }
        }
        cases
    }

    /// Each row's share of a chip row's reads: 1 / classes for a block class, the share of class
    /// tuples a multiset stands for with independent parts (the multinomial count over classes^n).
    pub fn row_weights(&self) -> Vec<f64> {
        let classes = self.block_factor_classes().len();
        let parts = self.codeword_parts();
        let per_group: Vec<f64> = if parts > 1 {
            let factorial = |n: usize| (1..=n).map(|i| i as f64).product::<f64>();
            block_class_multisets(classes, parts)
                .iter()
                .map(|multiset| {
                    let repeats: f64 =
                        (0..classes).map(|c| factorial(multiset.iter().filter(|&&x| x == c).count())).product();
                    factorial(parts) / repeats / (classes as f64).powi(parts as i32)
                })
                .collect()
        } else {
            vec![1.0 / classes as f64; classes]
        };
        self.rows().iter().flat_map(|_| per_group.iter().copied()).collect()
    }

    /// The chips of each row: one chip per row, or the interleave groups.
    pub fn rows(&self) -> Vec<Vec<usize>> {
        if self.interleave_groups.is_empty() {
            (0..self.channel_parameters().chip_factors.len().max(1)).map(|chip| vec![chip]).collect()
        } else {
            self.interleave_groups.clone()
        }
    }
}

/// Non-decreasing tuples of `parts` values out of `classes`: C(classes + parts - 1, parts).
fn multiset_count(classes: usize, parts: usize) -> usize {
    (1..=parts).fold(1usize, |count, i| count.saturating_mul(classes + i - 1) / i)
}

fn config_toml(spec: &DecodingTableSpec, table: &[Vec<f64>], chip_rows: &[usize]) -> String {
    let chip_rows = if chip_rows.is_empty() {
        String::new()
    } else {
        format!("chip_rows = [{}]\n", chip_rows.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))
    };
    let rows: Vec<String> = table
        .iter()
        .map(|row| format!("    [{}],", row.iter().map(|p| format!("{p:.4}")).collect::<Vec<_>>().join(", ")))
        .collect();
    let parts = spec.codeword_parts();
    let (block_classes, spread) = if spec.block_factors.is_empty() {
        (String::new(), String::new())
    } else if parts > 1 {
        (
            format!("block_classes = {}\ncodeword_parts = {parts}\n", spec.block_factors.len()),
            format!(
                " x multisets of the {parts} parts' block classes {:?} (non-decreasing tuples, lexicographic)",
                spec.block_factors
            ),
        )
    } else {
        (
            format!("block_classes = {}\n", spec.block_factors.len()),
            format!(" x block classes {:?} (class fastest)", spec.block_factors),
        )
    };
    format!(
        "# ssdlab ecc decoding-table: {:?}, {} P/E, {} h retention at {} C, {} frames per row, page type and precision; rows: chips {:?}{}\n[read_path.decoding]\nfailure_probabilities = [\n{}\n]\n{}{}",
        spec.cell,
        spec.pe_cycles,
        spec.retention_hours,
        spec.storage_temperature_c,
        spec.frames_per_case,
        spec.rows(),
        spread,
        rows.join("\n"),
        chip_rows,
        block_classes
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worn_chip_fails_hard_decisions_and_soft_sensing_rescues_it() {
        let spec = DecodingTableSpec { pe_cycles: 12_000.0, frames_per_case: 40, ..DecodingTableSpec::default() };
        let table = spec.run(&Codes::storage_4kb()).expect("runs");
        assert_eq!(table.failure_probabilities.len(), 4);
        for row in &table.failure_probabilities {
            assert_eq!(row.len(), 7);
            assert!(row.windows(2).all(|w| w[1] <= w[0]), "{row:?}");
        }
        assert!(table.mean[0] > 0.3, "hard decision at 12k P/E: {:?}", table.mean);
        assert!(table.mean[6] < table.mean[0] / 4.0, "{:?}", table.mean);
        assert!(table.config_toml.contains("[read_path.decoding]"));
    }

    /// Issue 48 item 3: a table reports each (row, sensing precision) case with the total, gives the
    /// same table as without a listener, and stops when the listener says so.
    #[test]
    fn progress_counts_every_case_and_can_stop_the_table() {
        let spec = DecodingTableSpec { frames_per_case: 8, max_extra_levels: 2, ..DecodingTableSpec::default() };
        let mut calls = Vec::new();
        let table = spec
            .run_reporting(&Codes::storage_4kb(), |done, total| {
                calls.push((done, total));
                Ok(())
            })
            .expect("runs");
        let total = 4 * 3;
        assert_eq!(calls, (0..=total).map(|done| (done, total)).collect::<Vec<_>>());
        assert_eq!(table.failure_probabilities, spec.run(&Codes::storage_4kb()).unwrap().failure_probabilities);
        let stopped =
            spec.run_reporting(&Codes::storage_4kb(), |done, _| if done >= 2 { Err("stop".into()) } else { Ok(()) });
        assert_eq!(stopped.unwrap_err(), ("interrupted", "stop".to_string()));
    }

    #[test]
    fn bad_fields_are_named() {
        let spec = DecodingTableSpec { max_extra_levels: 7, ..DecodingTableSpec::default() };
        assert_eq!(spec.validate().unwrap_err().0, "max_extra_levels");
        let spec = DecodingTableSpec { pe_cycles: -1.0, ..DecodingTableSpec::default() };
        assert_eq!(spec.validate().unwrap_err().0, "pe_cycles");
        let spec = DecodingTableSpec { interleave_groups: vec![vec![0, 4]], ..DecodingTableSpec::default() };
        let (field, message) = spec.validate().unwrap_err();
        assert_eq!(field, "interleave_groups");
        assert!(message.contains("chip 4"), "{message}");
        let spec =
            DecodingTableSpec { interleave_groups: vec![vec![0, 1], vec![1, 2]], ..DecodingTableSpec::default() };
        assert!(spec.validate().unwrap_err().1.contains("exactly one group"));
    }

    #[test]
    fn multisets_follow_the_order_the_ssd_read_path_ranks() {
        // The same literal list pins `read_path::decoding::multiset_rank` in ssdlab-ssd.
        let expected: Vec<Vec<usize>> = vec![vec![0, 0], vec![0, 1], vec![0, 2], vec![1, 1], vec![1, 2], vec![2, 2]];
        assert_eq!(block_class_multisets(3, 2), expected);
        for (classes, parts) in [(4, 4), (4, 2), (16, 3), (1, 5), (3, 1)] {
            assert_eq!(
                block_class_multisets(classes, parts).len(),
                multiset_count(classes, parts),
                "{classes} {parts}"
            );
        }
        // 4 classes, 4 parts: 35 multisets whose read shares sum to one.
        let spec = DecodingTableSpec {
            interleave_groups: vec![vec![0, 1, 2, 3]],
            block_factors: vec![0.94, 0.98, 1.02, 1.06],
            ..DecodingTableSpec::default()
        };
        let weights = spec.row_weights();
        assert_eq!(weights.len(), 35);
        assert!((weights.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((weights[0] - 1.0 / 256.0).abs() < 1e-15, "{{0,0,0,0}} is one tuple of 256");
    }

    #[test]
    fn a_codeword_spread_over_two_blocks_sees_the_mean_of_their_error_rates() {
        let codes = Codes::storage_4kb();
        let parameters = ChannelParameters::default_for(CellKind::Mlc);
        let channel =
            |block_factor| Channel::new(&parameters, Stress { chip: 0, block_factor, ..Stress::new(10_000.0, 720.0) });
        let stop = StopRule { target_failures: u64::MAX, max_frames: 64 };
        let run = |channels: &[Channel]| {
            crate::monte_carlo::run_interleaved_measured(&codes, channels, 1, DecoderKind::LdpcHard, stop, 3)
        };
        let (weak, strong) = (run(&[channel(1.1)]), run(&[channel(0.9)]));
        let mixed = run(&[channel(0.9), channel(1.1)]);
        let mean = (weak.measured_rber + strong.measured_rber) / 2.0;
        assert!(weak.measured_rber > strong.measured_rber * 1.2, "{weak:?} {strong:?}");
        assert!((mixed.measured_rber / mean - 1.0).abs() < 0.03, "mixed {mixed:?}, mean of parts {mean}");
        assert!(mixed.failures <= weak.failures && mixed.failures >= strong.failures, "{weak:?} {mixed:?} {strong:?}");
    }

    #[test]
    fn independent_parts_give_a_row_per_multiset_between_the_pure_rows() {
        let spec = DecodingTableSpec {
            interleave_groups: vec![vec![0, 2], vec![1, 3]],
            block_factors: vec![0.9, 1.15],
            frames_per_case: 48,
            max_extra_levels: 1,
            ..DecodingTableSpec::default()
        };
        let table = spec.run(&Codes::storage_4kb()).expect("runs");
        // Two groups x multisets {0,0}, {0,1}, {1,1}.
        assert_eq!(table.failure_probabilities.len(), 6);
        assert_eq!((table.block_classes, table.codeword_parts), (2, 2));
        assert!(table.config_toml.contains("codeword_parts = 2"), "{}", table.config_toml);
        for group in table.failure_probabilities.chunks(3) {
            assert!(group[0][0] <= group[1][0] && group[1][0] <= group[2][0], "{group:?}");
        }
        let shared = DecodingTableSpec { part_block_classes: PartBlockClasses::Shared, ..spec.clone() };
        assert_eq!(shared.codeword_parts(), 1);
        assert_eq!(shared.row_cases().len(), 4);
        let uneven = DecodingTableSpec { interleave_groups: vec![vec![0, 1, 2], vec![3]], ..spec };
        assert_eq!(uneven.validate().unwrap_err().0, "interleave_groups");
    }

    #[test]
    fn four_way_interleaving_averages_out_the_weak_chip() {
        let plain = DecodingTableSpec { frames_per_case: 60, max_extra_levels: 1, ..DecodingTableSpec::default() };
        let interleaved = DecodingTableSpec { interleave_groups: vec![vec![0, 1, 2, 3]], ..plain.clone() };
        let codes = Codes::storage_4kb();
        let (plain, interleaved) = (plain.run(&codes).unwrap(), interleaved.run(&codes).unwrap());
        assert_eq!(interleaved.failure_probabilities.len(), 1);
        assert!(interleaved.mean[0] < plain.mean[0] / 2.0, "4-way {:?} vs per chip {:?}", interleaved.mean, plain.mean);
    }
}
