//! `[read_path]`: read strategy, soft sensing, decode time and decoding-failure tables.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReadPathConfig {
    pub strategy: ReadStrategyKind,
    /// ECC decode time after each transfer.
    pub decode_latency_ns: u64,
    /// Extra time per additional sensing level (soft read).
    pub extra_sensing_latency_ns: u64,
    /// Extra sensing levels of a soft read.
    pub soft_sensing_levels: u32,
    /// Look-ahead sensing (seed 002 §3.1): when the die has no queued work, the first soft sensing
    /// starts as soon as the hard sensing ends and is cancelled (RESET) if hard decoding succeeds.
    pub look_ahead: bool,
    /// How often decoding fails (the two-step and progressive strategies sample it per read).
    pub decoding: DecodingConfig,
}

impl Default for ReadPathConfig {
    fn default() -> Self {
        ReadPathConfig {
            strategy: ReadStrategyKind::HardDecision,
            decode_latency_ns: 0,
            extra_sensing_latency_ns: 14_000,
            soft_sensing_levels: 6,
            look_ahead: false,
            decoding: DecodingConfig::default(),
        }
    }
}

/// Decoding-failure probabilities of one read, by sensing precision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct DecodingConfig {
    /// One list per chip class (an SSD chip uses class `chip mod classes`): entry k is the
    /// probability that decoding fails with k extra sensing levels (k = 0: hard decision), up to
    /// `soft_sensing_levels`. Non-increasing along a list (more levels never hurt). Empty: decoding
    /// always succeeds. Produce them with
    /// `ssdlab ecc decoding-table --pe PE --retention-hours HOURS` (`ssdlab_ecc::decoding_table`).
    pub failure_probabilities: Vec<Vec<f64>>,
    /// Which list each chip class uses (chip class = chip mod the length of this list); empty: list
    /// `chip mod lists`. With data placement interleaving (seed 002 §3.3) one list describes the
    /// codewords spread over a group of chips, and every chip of the group uses it
    /// (`ssdlab ecc decoding-table --interleave-group ...` writes both).
    pub chip_rows: Vec<usize>,
    /// Wear dependence: P/E counts (ascending) at which `failure_probabilities_by_pe` holds one
    /// table each (same shape as `failure_probabilities`, which must then be empty). A read of a
    /// block with N erases uses the tables interpolated linearly in N, clamped to the first and
    /// last (`ssdlab ecc decoding-table --pe A --pe B ...` writes both).
    pub pe_cycles: Vec<f64>,
    pub failure_probabilities_by_pe: Vec<Vec<Vec<f64>>>,
}

impl DecodingConfig {
    /// Every table with the P/E count it holds for (one table at P/E 0 without wear dependence).
    pub fn tables(&self) -> Vec<(f64, Vec<Vec<f64>>)> {
        if self.pe_cycles.is_empty() {
            vec![(0.0, self.failure_probabilities.clone())]
        } else {
            self.pe_cycles.iter().copied().zip(self.failure_probabilities_by_pe.iter().cloned()).collect()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadStrategyKind {
    /// One hard-decision sensing, transfer and decode; decoding always succeeds.
    HardDecision,
    /// Hard decision, then a full soft read on every page (the worst case of the two-step read).
    AlwaysSoft,
    /// Seed 002's baseline (eq. 1): hard sensing and decoding; on failure, sensing with all
    /// `soft_sensing_levels` extra levels, transfer and decoding.
    TwoStep,
    /// Seed 002 §3.2 (eq. 3-4): on failure, one more extra sensing level per retry until decoding
    /// succeeds or `soft_sensing_levels` is reached.
    Progressive,
}

/// Checks the read strategy and its decoding tables. Returns (field path, message) on the first failure.
pub(super) fn validate(read_path: &ReadPathConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    if read_path.soft_sensing_levels == 0 || read_path.soft_sensing_levels > 6 {
        return fail("read_path.soft_sensing_levels", format!("must be 1..=6, got {}", read_path.soft_sensing_levels));
    }
    let levels = read_path.soft_sensing_levels as usize;
    let decoding = &read_path.decoding;
    if decoding.pe_cycles.len() != decoding.failure_probabilities_by_pe.len() {
        return fail(
            "read_path.decoding.failure_probabilities_by_pe",
            format!("has {} tables but pe_cycles has {} entries; one table per P/E count", decoding.failure_probabilities_by_pe.len(), decoding.pe_cycles.len()),
        );
    }
    if !decoding.pe_cycles.is_empty() && !decoding.failure_probabilities.is_empty() {
        return fail("read_path.decoding.failure_probabilities", "give either failure_probabilities or pe_cycles with failure_probabilities_by_pe, not both".into());
    }
    if let Some(i) = (0..decoding.pe_cycles.len()).find(|&i| !(decoding.pe_cycles[i].is_finite() && decoding.pe_cycles[i] >= 0.0) || (i > 0 && decoding.pe_cycles[i] <= decoding.pe_cycles[i - 1])) {
        return fail("read_path.decoding.pe_cycles", format!("entry {i} ({}) must be >= 0 and above the one before: the list is ascending", decoding.pe_cycles[i]));
    }
    let named: Vec<(String, &Vec<Vec<f64>>)> = if decoding.pe_cycles.is_empty() {
        vec![("read_path.decoding.failure_probabilities".to_string(), &decoding.failure_probabilities)]
    } else {
        decoding.failure_probabilities_by_pe.iter().enumerate().map(|(i, t)| (format!("read_path.decoding.failure_probabilities_by_pe[{i}]"), t)).collect()
    };
    let lists = named[0].1.len();
    for (name, table) in &named {
        if table.len() != lists {
            return fail(name, format!("has {} lists but the first table has {lists}; every P/E count needs the same rows", table.len()));
        }
        for (class, list) in table.iter().enumerate() {
            let field = format!("{name}[{class}]");
            if list.len() != levels + 1 {
                return fail(&field, format!("needs {} entries (hard decision, then 1..={levels} extra sensing levels), got {}", levels + 1, list.len()));
            }
            if let Some((k, p)) = list.iter().enumerate().find(|(_, p)| !(0.0..=1.0).contains(*p)) {
                return fail(&field, format!("entry {k} is {p}, not a probability in [0, 1]"));
            }
            if let Some(k) = (1..list.len()).find(|&k| list[k] > list[k - 1]) {
                return fail(&field, format!("entry {k} ({}) exceeds entry {} ({}): more sensing levels never fail more often", list[k], k - 1, list[k - 1]));
            }
        }
    }
    if !decoding.chip_rows.is_empty() && lists == 0 {
        return fail("read_path.decoding.chip_rows", "needs failure_probabilities to point into".into());
    }
    if let Some((chip, row)) = decoding.chip_rows.iter().enumerate().find(|(_, &row)| row >= lists) {
        return fail("read_path.decoding.chip_rows", format!("chip class {chip} uses list {row}, but failure_probabilities has {lists} lists (0..{})", lists - 1));
    }
    let samples_failures = matches!(read_path.strategy, ReadStrategyKind::TwoStep | ReadStrategyKind::Progressive);
    if read_path.look_ahead && !samples_failures {
        return fail("read_path.look_ahead", format!("applies to the two_step and progressive strategies, not {:?}", read_path.strategy));
    }
    Ok(())
}
