//! Decoding-failure probabilities by decoder, chip class, P/E count and data age (seed 000), and the
//! per-read draw that decides which decoder of a policy's ladder succeeds.
//!
//! Model: the ECC lab (`ssdlab ecc decoder-tables`) estimates, for each decoder kind, the
//! probability that one read of a page fails to decode, on a grid of P/E counts x retention times,
//! one row per chip class. A read looks its decoders up at its block's erase count and its page's
//! data age, interpolating linearly in P/E and in ln(age) (retention shifts threshold voltages
//! roughly with the logarithm of time), clamped at the grid's ends.
//!
//! One uniform draw per read decides every decoder of the ladder: decoder d succeeds when
//! draw >= p_d. A page that defeats a weak decoder is the same noisy page the stronger one sees, so
//! failures are positively correlated across the ladder (as `decoding.rs` does across sensing
//! levels); the next decoder is tried only after the previous one failed.
//!
//! Left out: correlation between pages of a word line, read disturb, and temperature during the run
//! (the tables are for one storage temperature).

use crate::config::{DecoderKind, DecoderTablesConfig, DECODER_KINDS};

/// The tables of one run, ready to interpolate.
#[derive(Debug, Clone, Default)]
pub struct DecoderTables {
    pe_cycles: Vec<f64>,
    /// ln(hours) of the retention grid.
    log_hours: Vec<f64>,
    /// The retention grid's youngest and oldest age (hours), as given.
    age_range_hours: (f64, f64),
    /// Per decoder kind (index `DecoderKind as usize`): rows[class][pe * retentions + retention].
    tables: [Vec<Vec<f64>>; DECODER_KINDS],
}

impl DecoderTables {
    /// From a validated `[read_path.decoder_tables]` (ascending grids, matching shapes).
    pub fn new(config: &DecoderTablesConfig) -> Self {
        let mut tables: [Vec<Vec<f64>>; DECODER_KINDS] = Default::default();
        for (label, rows) in &config.failure_probabilities {
            if let Some(kind) = DecoderKind::from_label(label) {
                tables[kind as usize] = rows.iter().map(|by_pe| by_pe.iter().flatten().copied().collect()).collect();
            }
        }
        DecoderTables {
            pe_cycles: config.pe_cycles.clone(),
            log_hours: config.retention_hours.iter().map(|h| h.ln()).collect(),
            age_range_hours: (
                config.retention_hours.first().copied().unwrap_or(0.0),
                config.retention_hours.last().copied().unwrap_or(f64::INFINITY),
            ),
            tables,
        }
    }

    /// An empty record of reads outside this grid (its bounds filled in).
    pub fn outside_record(&self) -> super::decoding::OutsideDecoderTables {
        super::decoding::OutsideDecoderTables {
            grid_max_pe_cycles: self.pe_cycles.last().copied().unwrap_or(f64::INFINITY),
            grid_min_age_hours: self.age_range_hours.0,
            grid_max_age_hours: self.age_range_hours.1,
            ..Default::default()
        }
    }

    pub fn has(&self, decoder: DecoderKind) -> bool {
        !self.tables[decoder as usize].is_empty()
    }

    /// Chip classes of the tables (0 without tables).
    pub fn classes(&self) -> usize {
        self.tables.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Failure probability of one read with `decoder` on chip class `chip mod classes` at
    /// `pe_cycles` and `age_hours`. A decoder without a table never fails.
    pub fn failure_probability(&self, decoder: DecoderKind, chip: u32, pe_cycles: f64, age_hours: f64) -> f64 {
        let rows = &self.tables[decoder as usize];
        if rows.is_empty() {
            return 0.0;
        }
        let row = &rows[chip as usize % rows.len()];
        let (p0, p1, wp) = bracket(&self.pe_cycles, pe_cycles);
        let (r0, r1, wr) = bracket(&self.log_hours, age_hours.max(1e-9).ln());
        let columns = self.log_hours.len();
        let at = |p: usize, r: usize| row[p * columns + r];
        let low = at(p0, r0) + wr * (at(p0, r1) - at(p0, r0));
        let high = at(p1, r0) + wr * (at(p1, r1) - at(p1, r0));
        (low + wp * (high - low)).clamp(0.0, 1.0)
    }

    /// The lowest P/E count at which `decoder`'s failure probability on chip class `chip` at
    /// `age_hours` reaches `target` (linear between grid points); `None` when it stays below the
    /// target up to the last grid point (the decoder is good for the whole grid).
    pub fn tolerable_pe(&self, decoder: DecoderKind, chip: u32, age_hours: f64, target: f64) -> Option<f64> {
        if !self.has(decoder) {
            return None;
        }
        let probability = |pe: f64| self.failure_probability(decoder, chip, pe, age_hours);
        let first = *self.pe_cycles.first()?;
        if probability(first) >= target {
            return Some(first);
        }
        for window in self.pe_cycles.windows(2) {
            let (low, high) = (window[0], window[1]);
            let (p_low, p_high) = (probability(low), probability(high));
            if p_high >= target {
                // Linear between the two grid points, as `failure_probability` interpolates.
                let fraction = if p_high > p_low { (target - p_low) / (p_high - p_low) } else { 1.0 };
                return Some(low + fraction.clamp(0.0, 1.0) * (high - low));
            }
        }
        None
    }
}

/// The grid points around `x` and the weight of the upper one (clamped at the ends).
fn bracket(grid: &[f64], x: f64) -> (usize, usize, f64) {
    let last = grid.len().saturating_sub(1);
    let upper = grid.partition_point(|&g| g <= x);
    if upper == 0 {
        return (0, 0, 0.0);
    }
    if upper > last {
        return (last, last, 0.0);
    }
    let (low, high) = (grid[upper - 1], grid[upper]);
    (upper - 1, upper, (x - low) / (high - low))
}

/// The outcome of trying a ladder of decoders on one read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LadderOutcome {
    /// How many decoders of the ladder were tried (the last of them succeeded unless uncorrectable).
    pub tried: usize,
    pub uncorrectable: bool,
}

/// Decides, with one `draw` in [0, 1), how far down `ladder` a read goes.
pub fn climb(
    tables: &DecoderTables,
    ladder: &[DecoderKind],
    chip: u32,
    pe_cycles: f64,
    age_hours: f64,
    draw: f64,
) -> LadderOutcome {
    for (index, &decoder) in ladder.iter().enumerate() {
        if draw >= tables.failure_probability(decoder, chip, pe_cycles, age_hours) {
            return LadderOutcome { tried: index + 1, uncorrectable: false };
        }
    }
    LadderOutcome { tried: ladder.len(), uncorrectable: true }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Two P/E points x two retention points, one chip class: BCH fails more with wear and age.
    fn config() -> DecoderTablesConfig {
        let mut failure_probabilities = BTreeMap::new();
        // rows[class][pe][retention]
        failure_probabilities.insert("bch".to_string(), vec![vec![vec![0.0, 0.2], vec![0.4, 1.0]]]);
        DecoderTablesConfig {
            pe_cycles: vec![1000.0, 3000.0],
            retention_hours: vec![1.0, 100.0],
            failure_probabilities,
            ..DecoderTablesConfig::default()
        }
    }

    #[test]
    fn interpolates_linearly_in_pe_and_in_log_age_and_clamps() {
        let tables = DecoderTables::new(&config());
        let p = |pe: f64, hours: f64| tables.failure_probability(DecoderKind::Bch, 0, pe, hours);
        assert_eq!(p(1000.0, 1.0), 0.0);
        assert_eq!(p(3000.0, 100.0), 1.0);
        // Halfway in P/E at 1 h: (0.0 + 0.4) / 2.
        assert!((p(2000.0, 1.0) - 0.2).abs() < 1e-12);
        // 10 h is halfway between 1 h and 100 h in ln(hours): at 1000 P/E (0.0 + 0.2) / 2.
        assert!((p(1000.0, 10.0) - 0.1).abs() < 1e-12);
        // Clamped below and above both grids.
        assert_eq!(p(0.0, 0.01), 0.0);
        assert_eq!(p(9000.0, 1e6), 1.0);
        // A decoder without a table never fails.
        assert_eq!(tables.failure_probability(DecoderKind::EpLdpc, 0, 9000.0, 1e6), 0.0);
    }

    #[test]
    fn tolerable_pe_is_where_the_probability_crosses_the_target() {
        let tables = DecoderTables::new(&config());
        // At 1 h the probability goes 0.0 -> 0.4 over 1000..3000 P/E: 0.1 is crossed at 1500.
        assert!((tables.tolerable_pe(DecoderKind::Bch, 0, 1.0, 0.1).unwrap() - 1500.0).abs() < 1e-9);
        // Older data fails sooner: at 100 h it goes 0.2 -> 1.0, so 0.1 is already crossed at 1000.
        assert_eq!(tables.tolerable_pe(DecoderKind::Bch, 0, 100.0, 0.1), Some(1000.0));
        // Never crossed within the grid.
        assert_eq!(tables.tolerable_pe(DecoderKind::Bch, 0, 1.0, 0.5), None);
    }

    #[test]
    fn one_draw_decides_the_whole_ladder() {
        let mut failure_probabilities = BTreeMap::new();
        failure_probabilities.insert("quick_ldpc".to_string(), vec![vec![vec![0.5]]]);
        failure_probabilities.insert("ep_ldpc".to_string(), vec![vec![vec![0.1]]]);
        let tables = DecoderTables::new(&DecoderTablesConfig {
            pe_cycles: vec![0.0],
            retention_hours: vec![1.0],
            failure_probabilities,
            ..DecoderTablesConfig::default()
        });
        let ladder = [DecoderKind::QuickLdpc, DecoderKind::EpLdpc];
        assert_eq!(climb(&tables, &ladder, 0, 0.0, 1.0, 0.7), LadderOutcome { tried: 1, uncorrectable: false });
        assert_eq!(climb(&tables, &ladder, 0, 0.0, 1.0, 0.3), LadderOutcome { tried: 2, uncorrectable: false });
        assert_eq!(climb(&tables, &ladder, 0, 0.0, 1.0, 0.05), LadderOutcome { tried: 2, uncorrectable: true });
    }
}
