//! Decoding-failure probabilities by decoder kind x P/E count x retention time, per chip: the tables
//! seed 000's read policies need (`[read_path.decoder_tables]` of an SSD config), and the tolerable
//! P/E of each decoder at each retention time (seed 000 Fig. 5).
//!
//! Each entry is a Monte Carlo frame error rate of the lab's real decoder on the lab's channel at
//! that stress (P/E count, retention at the storage temperature, chip), averaged over the cell's
//! page types. A case stops at `target_failures` failures or `frames_per_case` frames, so the
//! waterfall's high-failure side costs little. Monte Carlo noise can make a table dip where the
//! channel only gets worse; as more wear and longer retention never help a decoder, each table is
//! made non-decreasing along P/E and along retention (running maximum), raw estimates kept beside.
//!
//! Tolerable P/E: for each decoder and retention time, the lowest P/E count at which the failure
//! probability (mean over chips) reaches `target_failure_probability`, linear between grid points;
//! `None` when it stays below the target over the whole grid.
//!
//! Confidence: each (chip, page type) estimate carries its 95 % Wilson interval; an entry's bounds
//! are the mean of its page types' bounds, made monotone like the entry, and the tolerable P/E's
//! interval runs from where the upper-bound curve (mean over chips) reaches the target to where the
//! lower-bound curve does. Averaging bounds rather than combining them in quadrature makes the
//! interval conservative (wider than a 95 % interval), and it covers Monte Carlo noise only, not the
//! channel model's error.

use crate::channel::{CellKind, Channel, ChannelParameters, ChipCalibration, Stress};
use crate::monte_carlo::{run_interleaved, wilson_interval, Codes, DecoderKind, StopRule};
use serde::{Deserialize, Serialize};

/// What to estimate. Plain data; [`DecoderTablesSpec::validate`] checks it once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DecoderTablesSpec {
    pub cell: CellKind,
    /// Channel constants; when absent, the cell kind's defaults as fitted to `chip`.
    pub channel: Option<ChannelParameters>,
    /// The measured chip whose calibration the default channel uses: `seed002` (25 nm MLC, the
    /// default) or `seed000` (seed 000's 2x-nm MLC; MLC only). Ignored when `channel` is given.
    pub chip: ChipCalibration,
    /// Decoder labels (`bch`, `ldpc-hard`, `quick-ldpc`, `ep-ldpc`, `ldpc-soft-K`).
    pub decoders: Vec<String>,
    /// P/E grid, ascending.
    pub pe_cycles: Vec<f64>,
    /// Retention grid in hours, ascending, above 0.
    pub retention_hours: Vec<f64>,
    pub storage_temperature_c: f64,
    /// Frames per (decoder, chip, P/E, retention, page type) at most.
    pub frames_per_case: u64,
    /// A case stops early after this many failures.
    pub target_failures: u64,
    /// The failure probability that defines a decoder's tolerable P/E.
    pub target_failure_probability: f64,
    pub seed: u64,
}

impl Default for DecoderTablesSpec {
    fn default() -> Self {
        DecoderTablesSpec {
            cell: CellKind::Mlc,
            channel: None,
            chip: ChipCalibration::Seed002,
            decoders: ["bch", "quick-ldpc", "ep-ldpc", "ldpc-soft-6"].iter().map(|s| s.to_string()).collect(),
            pe_cycles: vec![0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0, 6000.0, 8000.0, 10000.0],
            retention_hours: vec![1.0, 24.0, 144.0, 720.0],
            storage_temperature_c: 40.0,
            frames_per_case: 400,
            target_failures: 40,
            target_failure_probability: 1e-2,
            seed: 17,
        }
    }
}

/// One decoder's table and tolerable P/E.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecoderTable {
    /// The lab's label (`quick-ldpc`) and the SSD config's (`quick_ldpc`).
    pub decoder: String,
    pub config_label: String,
    /// failure_probabilities[chip][pe][retention], monotone (see module docs).
    pub failure_probabilities: Vec<Vec<Vec<f64>>>,
    /// The Monte Carlo estimates before the running maximum.
    pub estimated: Vec<Vec<Vec<f64>>>,
    /// Frames simulated, summed over chips, P/E, retention and page types.
    pub frames: u64,
    /// Tolerable P/E at each retention time (mean over chips); `None`: beyond the grid.
    pub tolerable_pe: Vec<Option<f64>>,
    /// 95 % Wilson bounds of each entry (same shape as `failure_probabilities`; see module docs).
    pub failure_probability_lower_bounds: Vec<Vec<Vec<f64>>>,
    pub failure_probability_upper_bounds: Vec<Vec<Vec<f64>>>,
    /// The interval of each tolerable P/E: (from the upper bounds, from the lower bounds); `None`
    /// where that bound stays below the target over the grid.
    pub tolerable_pe_interval: Vec<(Option<f64>, Option<f64>)>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecoderTables {
    pub spec: DecoderTablesSpec,
    pub tables: Vec<DecoderTable>,
    /// The `[read_path.decoder_tables]` of an SSD config, ready to paste.
    pub config_toml: String,
}

/// The SSD config's name of a lab decoder (`None`: the SSD read path has no such decoder kind).
pub fn config_label(decoder: DecoderKind) -> Option<&'static str> {
    match decoder {
        DecoderKind::Bch => Some("bch"),
        DecoderKind::LdpcHard => Some("ldpc_hard"),
        DecoderKind::QuickLdpc => Some("quick_ldpc"),
        DecoderKind::EpLdpc => Some("ep_ldpc"),
        DecoderKind::LdpcSoft { .. } => Some("ldpc_soft"),
    }
}

impl DecoderTablesSpec {
    pub fn channel_parameters(&self) -> ChannelParameters {
        self.channel.clone().unwrap_or_else(|| ChannelParameters::for_chip(self.cell, self.chip))
    }

    /// The decoders, parsed (validated first).
    pub fn decoder_kinds(&self) -> Vec<DecoderKind> {
        self.decoders.iter().filter_map(|label| DecoderKind::from_label(label)).collect()
    }

    /// The first invalid field and why.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if self.decoders.is_empty() {
            return Err(("decoders", "is empty; name at least one decoder".into()));
        }
        if let Some(label) = self.decoders.iter().find(|label| DecoderKind::from_label(label).is_none()) {
            return Err((
                "decoders",
                format!(
                    "unknown decoder `{label}`; known: bch, ldpc-hard, quick-ldpc, ep-ldpc, ldpc-soft-1 .. ldpc-soft-6"
                ),
            ));
        }
        let soft: Vec<&String> = self.decoders.iter().filter(|label| label.starts_with("ldpc-soft-")).collect();
        if soft.len() > 1 {
            return Err((
                "decoders",
                format!(
                    "names {} soft decoders ({}); an SSD config has one soft LDPC (its soft_sensing_levels): give one",
                    soft.len(),
                    soft.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        let ascending = |values: &[f64]| {
            (0..values.len()).find(|&i| !values[i].is_finite() || (i > 0 && values[i] <= values[i - 1]))
        };
        if self.pe_cycles.is_empty() {
            return Err(("pe_cycles", "is empty".into()));
        }
        if let Some(i) = ascending(&self.pe_cycles).or_else(|| self.pe_cycles.iter().position(|&pe| pe < 0.0)) {
            return Err((
                "pe_cycles",
                format!(
                    "entry {i} ({}) must be >= 0 and above the one before: the grid is ascending",
                    self.pe_cycles[i]
                ),
            ));
        }
        if self.retention_hours.is_empty() {
            return Err(("retention_hours", "is empty".into()));
        }
        if let Some(i) =
            ascending(&self.retention_hours).or_else(|| self.retention_hours.iter().position(|&h| h <= 0.0))
        {
            return Err((
                "retention_hours",
                format!(
                    "entry {i} ({}) must be above 0 and above the one before: the grid is ascending",
                    self.retention_hours[i]
                ),
            ));
        }
        if !(-40.0..=150.0).contains(&self.storage_temperature_c) {
            return Err((
                "storage_temperature_c",
                format!("must be within -40..150 C, got {}", self.storage_temperature_c),
            ));
        }
        if self.frames_per_case == 0 {
            return Err(("frames_per_case", "must be at least 1".into()));
        }
        if self.target_failures == 0 {
            return Err(("target_failures", "must be at least 1".into()));
        }
        let target = self.target_failure_probability;
        if !(target > 0.0 && target < 1.0) {
            return Err(("target_failure_probability", format!("must be within (0, 1), got {target}")));
        }
        if self.channel.is_none() && self.chip == ChipCalibration::Seed000 && self.cell != CellKind::Mlc {
            return Err(("chip", format!("seed000 is an MLC chip; cell is {:?}", self.cell)));
        }
        let parameters = self.channel_parameters();
        if parameters.cell != self.cell {
            return Err(("channel.cell", format!("is {:?} but cell is {:?}", parameters.cell, self.cell)));
        }
        parameters.validate()
    }

    /// Runs the Monte Carlo (multi-threaded inside each case; deterministic for a seed).
    /// `progress(done, total)` is told after every (decoder, chip, P/E) row of retention cases; an
    /// `Err(reason)` from it stops the run (reported as field `interrupted`).
    pub fn run(
        &self,
        codes: &Codes,
        mut progress: impl FnMut(usize, usize) -> Result<(), String>,
    ) -> Result<DecoderTables, (&'static str, String)> {
        self.validate()?;
        let parameters = self.channel_parameters();
        let pages = parameters.cell.bits();
        let chips = parameters.chip_factors.len().max(1);
        let stop = StopRule { target_failures: self.target_failures, max_frames: self.frames_per_case };
        let kinds = self.decoder_kinds();
        let rows_total = kinds.len() * chips * self.pe_cycles.len();
        let mut rows_done = 0;
        let mut tables = Vec::with_capacity(kinds.len());
        for (decoder_index, &decoder) in kinds.iter().enumerate() {
            let mut frames_total = 0;
            let mut estimated = vec![vec![vec![0.0; self.retention_hours.len()]; self.pe_cycles.len()]; chips];
            let mut lower = estimated.clone();
            let mut upper = estimated.clone();
            for chip in 0..chips {
                for pe_index in 0..self.pe_cycles.len() {
                    for retention_index in 0..self.retention_hours.len() {
                        let stress = Stress {
                            chip,
                            storage_temperature_c: self.storage_temperature_c,
                            ..Stress::new(self.pe_cycles[pe_index], self.retention_hours[retention_index])
                        };
                        let channel = [Channel::new(&parameters, stress)];
                        let (mut sum, mut sum_lower, mut sum_upper) = (0.0, 0.0, 0.0);
                        for page in 0..pages {
                            let case = (((decoder_index * chips + chip) * self.pe_cycles.len() + pe_index)
                                * self.retention_hours.len()
                                + retention_index)
                                * pages
                                + page;
                            let (frames, failures) = run_interleaved(
                                codes,
                                &channel,
                                page,
                                decoder,
                                stop,
                                self.seed ^ ((case as u64) << 24),
                            );
                            frames_total += frames;
                            sum += failures as f64 / frames as f64;
                            let (low, high) = wilson_interval(failures, frames);
                            sum_lower += low;
                            sum_upper += high;
                        }
                        estimated[chip][pe_index][retention_index] = sum / pages as f64;
                        lower[chip][pe_index][retention_index] = sum_lower / pages as f64;
                        upper[chip][pe_index][retention_index] = sum_upper / pages as f64;
                    }
                    rows_done += 1;
                    progress(rows_done, rows_total).map_err(|reason| ("interrupted", reason))?;
                }
            }
            let failure_probabilities = estimated.iter().map(|by_pe| monotone(by_pe)).collect::<Vec<_>>();
            let lower = lower.iter().map(|by_pe| monotone(by_pe)).collect::<Vec<_>>();
            let upper = upper.iter().map(|by_pe| monotone(by_pe)).collect::<Vec<_>>();
            let tolerable = |tables: &[Vec<Vec<f64>>], retention_index: usize| {
                let mean: Vec<f64> = (0..self.pe_cycles.len())
                    .map(|pe_index| {
                        tables.iter().map(|chip| chip[pe_index][retention_index]).sum::<f64>() / chips as f64
                    })
                    .collect();
                crossing(&self.pe_cycles, &mean, self.target_failure_probability)
            };
            let retentions = 0..self.retention_hours.len();
            let tolerable_pe = retentions.clone().map(|r| tolerable(&failure_probabilities, r)).collect();
            let tolerable_pe_interval = retentions.map(|r| (tolerable(&upper, r), tolerable(&lower, r))).collect();
            tables.push(DecoderTable {
                decoder: decoder.label(),
                config_label: config_label(decoder).unwrap_or("").to_string(),
                failure_probabilities,
                estimated,
                frames: frames_total,
                tolerable_pe,
                failure_probability_lower_bounds: lower,
                failure_probability_upper_bounds: upper,
                tolerable_pe_interval,
            });
        }
        let config_toml = config_toml(self, &tables);
        Ok(DecoderTables { spec: self.clone(), tables, config_toml })
    }
}

/// Running maximum along P/E (rows) and along retention (columns).
fn monotone(by_pe: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let mut table = by_pe.to_vec();
    for pe in 0..table.len() {
        for retention in 0..table[pe].len() {
            let mut value = table[pe][retention];
            if pe > 0 {
                value = value.max(table[pe - 1][retention]);
            }
            if retention > 0 {
                value = value.max(table[pe][retention - 1]);
            }
            table[pe][retention] = value;
        }
    }
    table
}

/// The lowest x at which the (non-decreasing) `y` reaches `target`, linear between points.
pub fn crossing(x: &[f64], y: &[f64], target: f64) -> Option<f64> {
    if *y.first()? >= target {
        return x.first().copied();
    }
    (1..x.len()).find(|&i| y[i] >= target).map(|i| {
        let fraction = if y[i] > y[i - 1] { (target - y[i - 1]) / (y[i] - y[i - 1]) } else { 1.0 };
        x[i - 1] + fraction.clamp(0.0, 1.0) * (x[i] - x[i - 1])
    })
}

fn config_toml(spec: &DecoderTablesSpec, tables: &[DecoderTable]) -> String {
    let list = |values: &[f64], format: &dyn Fn(f64) -> String| {
        values.iter().map(|&v| format(v)).collect::<Vec<_>>().join(", ")
    };
    let mut out = format!(
        "# ssdlab ecc decoder-tables: {:?}, {} C storage, at most {} frames per case (stopping at {} failures), page types averaged;\n# one table per chip class: [P/E index][retention index]. Soft LDPC: {}.\n[read_path.decoder_tables]\npe_cycles = [{}]\nretention_hours = [{}]\n\n[read_path.decoder_tables.failure_probabilities]\n",
        spec.cell,
        spec.storage_temperature_c,
        spec.frames_per_case,
        spec.target_failures,
        spec.decoders.iter().find(|d| d.starts_with("ldpc-soft-")).map_or("none".to_string(), |d| format!("{d} (set read_path.soft_sensing_levels to match)")),
        list(&spec.pe_cycles, &|v| format!("{v:.1}")),
        list(&spec.retention_hours, &|v| format!("{v:?}")),
    );
    let write = |out: &mut String, label: &str, chips: &[Vec<Vec<f64>>]| {
        out.push_str(&format!("{label} = [\n"));
        for chip in chips {
            out.push_str("  [\n");
            for by_retention in chip {
                out.push_str(&format!("    [{}],\n", list(by_retention, &|v| format!("{v:.4}"))));
            }
            out.push_str("  ],\n");
        }
        out.push_str("]\n");
    };
    for table in tables {
        write(&mut out, &table.config_label, &table.failure_probabilities);
    }
    // The 95 % bounds (module docs): the read path does not use them; reports state intervals from them.
    for (section, bounds) in [
        ("failure_probability_lower_bounds", &|t: &DecoderTable| &t.failure_probability_lower_bounds as &[_]),
        ("failure_probability_upper_bounds", &|t: &DecoderTable| &t.failure_probability_upper_bounds as &[_]),
    ] as [(&str, &dyn Fn(&DecoderTable) -> &[Vec<Vec<f64>>]); 2]
    {
        out.push_str(&format!("\n[read_path.decoder_tables.{section}]\n"));
        for table in tables {
            write(&mut out, &table.config_label, bounds(table));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monotone_takes_running_maxima_both_ways() {
        let table = monotone(&[vec![0.1, 0.05], vec![0.0, 0.3]]);
        assert_eq!(table, vec![vec![0.1, 0.1], vec![0.1, 0.3]]);
    }

    #[test]
    fn crossing_interpolates_and_says_none_beyond_the_grid() {
        assert_eq!(crossing(&[0.0, 1000.0, 2000.0], &[0.0, 0.0, 0.2], 0.1), Some(1500.0));
        assert_eq!(crossing(&[0.0, 1000.0], &[0.5, 0.6], 0.1), Some(0.0));
        assert_eq!(crossing(&[0.0, 1000.0], &[0.0, 0.05], 0.1), None);
    }

    #[test]
    fn wear_and_age_defeat_bch_before_ep_ldpc_and_the_toml_loads_shape() {
        let spec = DecoderTablesSpec {
            decoders: vec!["bch".into(), "ep-ldpc".into()],
            pe_cycles: vec![0.0, 12_000.0],
            retention_hours: vec![1.0, 720.0],
            frames_per_case: 24,
            target_failures: 8,
            ..DecoderTablesSpec::default()
        };
        let tables = spec.run(&Codes::storage_4kb(), |_, _| Ok(())).expect("runs");
        let (bch, ep) = (&tables.tables[0], &tables.tables[1]);
        assert_eq!(bch.failure_probabilities.len(), 4);
        assert_eq!(bch.failure_probabilities[0].len(), 2);
        // Fresh data on a fresh chip decodes; a worn chip after a month defeats BCH.
        assert_eq!(bch.failure_probabilities[0][0][0], 0.0);
        assert!(bch.failure_probabilities[0][1][1] > 0.5, "{:?}", bch.failure_probabilities);
        assert!(
            ep.failure_probabilities[0][1][0] <= bch.failure_probabilities[0][1][0],
            "{:?} vs {:?}",
            ep.failure_probabilities,
            bch.failure_probabilities
        );
        assert!(tables.config_toml.contains("[read_path.decoder_tables.failure_probabilities]"));
        assert!(tables.config_toml.contains("ep_ldpc = ["));
    }

    #[test]
    fn bad_fields_are_named() {
        let bad = |spec: DecoderTablesSpec| spec.validate().unwrap_err().0;
        assert_eq!(
            bad(DecoderTablesSpec { decoders: vec!["turbo".into()], ..DecoderTablesSpec::default() }),
            "decoders"
        );
        assert_eq!(bad(DecoderTablesSpec { pe_cycles: vec![10.0, 5.0], ..DecoderTablesSpec::default() }), "pe_cycles");
        assert_eq!(
            bad(DecoderTablesSpec { retention_hours: vec![0.0], ..DecoderTablesSpec::default() }),
            "retention_hours"
        );
        assert_eq!(
            bad(DecoderTablesSpec {
                decoders: vec!["ldpc-soft-2".into(), "ldpc-soft-6".into()],
                ..DecoderTablesSpec::default()
            }),
            "decoders"
        );
    }
}
