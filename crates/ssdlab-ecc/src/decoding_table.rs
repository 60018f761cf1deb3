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
use crate::monte_carlo::{run_point, Codes, DecoderKind, StopRule};
use crate::read_model::LlrSource;
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
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecodingTable {
    pub spec: DecodingTableSpec,
    /// failure_probabilities[chip][k]: capped so entries never rise with k.
    pub failure_probabilities: Vec<Vec<f64>>,
    /// The Monte Carlo estimates before capping.
    pub estimated: Vec<Vec<f64>>,
    /// Mean over chips of each precision's failure probability.
    pub mean: Vec<f64>,
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
            return Err(("storage_temperature_c", format!("must be within -40..150 C, got {}", self.storage_temperature_c)));
        }
        if !(1..=6).contains(&self.max_extra_levels) {
            return Err(("max_extra_levels", format!("must be 1..=6, got {}", self.max_extra_levels)));
        }
        if self.frames_per_case == 0 {
            return Err(("frames_per_case", "must be at least 1".into()));
        }
        let parameters = self.channel_parameters();
        if parameters.cell != self.cell {
            return Err(("channel.cell", format!("is {:?} but cell is {:?}", parameters.cell, self.cell)));
        }
        parameters.validate()
    }

    /// Runs the Monte Carlo (multi-threaded inside each case; deterministic for a seed).
    pub fn run(&self, codes: &Codes) -> Result<DecodingTable, (&'static str, String)> {
        self.validate()?;
        let parameters = self.channel_parameters();
        let chips = parameters.chip_factors.len().max(1);
        let pages = parameters.cell.bits();
        let stop = StopRule { target_failures: u64::MAX, max_frames: self.frames_per_case };
        let mut estimated = Vec::with_capacity(chips);
        for chip in 0..chips {
            let stress = Stress { chip, storage_temperature_c: self.storage_temperature_c, ..Stress::new(self.pe_cycles, self.retention_hours) };
            let channel = Channel::new(&parameters, stress);
            let row: Vec<f64> = (0..=self.max_extra_levels)
                .map(|levels| {
                    let decoder = if levels == 0 { DecoderKind::LdpcHard } else { DecoderKind::LdpcSoft { extra_levels: levels } };
                    let total: f64 = (0..pages)
                        .map(|page| {
                            let seed = self.seed ^ (((chip * pages + page) as u64) << 32);
                            run_point(codes, &channel, page, decoder, stop, seed, LlrSource::Channel).frame_error_rate
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
        let mean = (0..=self.max_extra_levels as usize).map(|k| failure_probabilities.iter().map(|row| row[k]).sum::<f64>() / chips as f64).collect();
        let config_toml = config_toml(self, &failure_probabilities);
        Ok(DecodingTable { spec: self.clone(), failure_probabilities, estimated, mean, config_toml })
    }
}

fn config_toml(spec: &DecodingTableSpec, table: &[Vec<f64>]) -> String {
    let rows: Vec<String> = table.iter().map(|row| format!("    [{}],", row.iter().map(|p| format!("{p:.4}")).collect::<Vec<_>>().join(", "))).collect();
    format!(
        "# ssdlab ecc decoding-table: {:?}, {} P/E, {} h retention at {} C, {} frames per chip, page type and precision\n[read_path.decoding]\nfailure_probabilities = [\n{}\n]\n",
        spec.cell,
        spec.pe_cycles,
        spec.retention_hours,
        spec.storage_temperature_c,
        spec.frames_per_case,
        rows.join("\n")
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
    }
}
