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
    /// (chip or group, block class), class fastest; an interleaved codeword's parts are taken from
    /// blocks of one class (the spread is not averaged out, only the chips'). Empty: no spread.
    pub block_factors: Vec<f64>,
}

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
    /// Mean over rows of each precision's failure probability.
    pub mean: Vec<f64>,
    /// With interleaving, the row each chip's reads use (`chip_rows` of an SSD config); empty without.
    pub chip_rows: Vec<usize>,
    /// Block classes per chip row (1 without spread): row = chip row x classes + class.
    pub block_classes: usize,
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
        if parameters.cell != self.cell {
            return Err(("channel.cell", format!("is {:?} but cell is {:?}", parameters.cell, self.cell)));
        }
        parameters.validate()
    }

    /// Runs the Monte Carlo (multi-threaded inside each case; deterministic for a seed).
    pub fn run(&self, codes: &Codes) -> Result<DecodingTable, (&'static str, String)> {
        self.validate()?;
        let parameters = self.channel_parameters();
        let pages = parameters.cell.bits();
        let stop = StopRule { target_failures: u64::MAX, max_frames: self.frames_per_case };
        let groups = self.rows();
        let block_factors = self.block_factor_classes();
        let mut estimated = Vec::with_capacity(groups.len() * block_factors.len());
        let cases = groups.iter().flat_map(|group| block_factors.iter().map(move |&factor| (group, factor)));
        for (row_index, (group, block_factor)) in cases.enumerate() {
            let channels: Vec<Channel> = group
                .iter()
                .map(|&chip| {
                    Channel::new(
                        &parameters,
                        Stress {
                            chip,
                            block_factor,
                            storage_temperature_c: self.storage_temperature_c,
                            ..Stress::new(self.pe_cycles, self.retention_hours)
                        },
                    )
                })
                .collect();
            let row: Vec<f64> = (0..=self.max_extra_levels)
                .map(|levels| {
                    let decoder = if levels == 0 {
                        DecoderKind::LdpcHard
                    } else {
                        DecoderKind::LdpcSoft { extra_levels: levels }
                    };
                    let total: f64 = (0..pages)
                        .map(|page| {
                            let seed = self.seed ^ (((row_index * pages + page) as u64) << 32);
                            let (frames, failures) = run_interleaved(codes, &channels, page, decoder, stop, seed);
                            failures as f64 / frames as f64
                        })
                        .sum();
                    total / pages as f64
                })
                .collect();
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
        let rows = failure_probabilities.len() as f64;
        let mean = (0..=self.max_extra_levels as usize)
            .map(|k| failure_probabilities.iter().map(|row| row[k]).sum::<f64>() / rows)
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

    /// The chips of each row: one chip per row, or the interleave groups.
    pub fn rows(&self) -> Vec<Vec<usize>> {
        if self.interleave_groups.is_empty() {
            (0..self.channel_parameters().chip_factors.len().max(1)).map(|chip| vec![chip]).collect()
        } else {
            self.interleave_groups.clone()
        }
    }
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
    let (block_classes, spread) = if spec.block_factors.is_empty() {
        (String::new(), String::new())
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
    fn four_way_interleaving_averages_out_the_weak_chip() {
        let plain = DecodingTableSpec { frames_per_case: 60, max_extra_levels: 1, ..DecodingTableSpec::default() };
        let interleaved = DecodingTableSpec { interleave_groups: vec![vec![0, 1, 2, 3]], ..plain.clone() };
        let codes = Codes::storage_4kb();
        let (plain, interleaved) = (plain.run(&codes).unwrap(), interleaved.run(&codes).unwrap());
        assert_eq!(interleaved.failure_probabilities.len(), 1);
        assert!(interleaved.mean[0] < plain.mean[0] / 2.0, "4-way {:?} vs per chip {:?}", interleaved.mean, plain.mean);
    }
}
