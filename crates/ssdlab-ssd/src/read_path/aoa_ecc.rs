//! Seed 000's AOA-ECC (§2, Fig. 2-3): two error-prediction LDPC decoders chosen by wear and workload
//! class. Below the class's switch P/E a read uses Quick-LDPC (one page read, LLRs predicted from
//! the read, the P/E count and the retention); from the switch on, EP-LDPC without upper/lower cells
//! (the whole word line read, both pages moved out, cell-to-cell interference used). Hot workloads
//! rewrite their data within a day, so their data is young and Quick-LDPC stays reliable longer:
//! the hot switch point is higher (seed: 2.3x the cold one).
//!
//! Switch points are computed, not typed in: for each chip class and workload class, the P/E count
//! at which Quick-LDPC's failure probability at the class's retention
//! (`read_path.aoa_ecc.{hot,cold}_retention_hours`) reaches `read_path.target_failure_probability`
//! (the ECC lab's tables); `read_path.aoa_ecc.*_switch_pe_cycles` override them. The switch is per
//! block (its own erase count), so a drive mid-life mixes decoders.
//!
//! A read that fails climbs the ladder: Quick-LDPC, then EP-LDPC (a word-line read), then the soft
//! sensings with the same LDPC decoder; failing all is uncorrectable (counted, the read completes).

use super::decoder_tables::{climb, DecoderTables};
use super::decoding::ReadPathStatistics;
use super::{ReadContext, ReadPlan, ReadStep, ReadStrategy, SwitchPoints};
use crate::config::{AoaEccConfig, DecoderKind};
use ssdlab_engine::random::Xoshiro256PlusPlus;

pub struct AoaEcc {
    pub levels: u32,
    pub tables: DecoderTables,
    /// Pages an EP-LDPC read moves out (the word line).
    pub word_line_pages: u32,
    /// Per chip class: (hot, cold) switch P/E (infinite: Quick-LDPC for the whole table).
    pub switch_pe: Vec<(f64, f64)>,
    pub rng: Xoshiro256PlusPlus,
    pub statistics: ReadPathStatistics,
}

/// The switch points of every chip class.
pub fn switch_points(tables: &DecoderTables, config: &AoaEccConfig, target: f64) -> Vec<(f64, f64)> {
    let classes = tables.classes().max(1);
    (0..classes as u32)
        .map(|chip| {
            let computed =
                |hours: f64| tables.tolerable_pe(DecoderKind::QuickLdpc, chip, hours, target).unwrap_or(f64::INFINITY);
            (
                config.hot_switch_pe_cycles.unwrap_or_else(|| computed(config.hot_retention_hours)),
                config.cold_switch_pe_cycles.unwrap_or_else(|| computed(config.cold_retention_hours)),
            )
        })
        .collect()
}

impl AoaEcc {
    pub fn new(
        levels: u32,
        tables: DecoderTables,
        word_line_pages: u32,
        config: &AoaEccConfig,
        target: f64,
        seed: u64,
    ) -> Self {
        let switch_pe = switch_points(&tables, config, target);
        let statistics = ReadPathStatistics {
            switch_pe_cycles: Some(SwitchPoints {
                hot: switch_pe.iter().map(|s| finite(s.0)).collect(),
                cold: switch_pe.iter().map(|s| finite(s.1)).collect(),
                all: Vec::new(),
            }),
            ..ReadPathStatistics::default()
        };
        AoaEcc { levels, tables, word_line_pages, switch_pe, rng: Xoshiro256PlusPlus::seed_from_u64(seed), statistics }
    }
}

/// JSON has no infinity: a switch point beyond the tables is reported as null.
fn finite(value: f64) -> Option<f64> {
    value.is_finite().then_some(value)
}

impl ReadStrategy for AoaEcc {
    fn name(&self) -> &'static str {
        "aoa_ecc"
    }
    fn plan(&mut self, context: &ReadContext) -> ReadPlan {
        let pe = context.pe_cycles as f64;
        let (hot, cold) = self.switch_pe[context.chip as usize % self.switch_pe.len()];
        let switch = if context.workload_hot { hot } else { cold };
        let quick = pe < switch;
        let ladder: &[DecoderKind] = if quick {
            &[DecoderKind::QuickLdpc, DecoderKind::EpLdpc, DecoderKind::LdpcSoft]
        } else {
            &[DecoderKind::EpLdpc, DecoderKind::LdpcSoft]
        };
        let outcome = climb(&self.tables, ladder, context.chip, pe, context.age_hours, self.rng.next_f64());
        let mut plan = ReadPlan::default();
        for &decoder in ladder.iter().take(outcome.tried) {
            plan.push(match decoder {
                DecoderKind::QuickLdpc => ReadStep::hard(DecoderKind::QuickLdpc, 1),
                DecoderKind::EpLdpc => ReadStep::hard(DecoderKind::EpLdpc, self.word_line_pages),
                _ => ReadStep::soft(self.levels, false),
            });
        }
        self.statistics.record(ladder, outcome);
        plan
    }
    fn statistics(&self) -> Option<ReadPathStatistics> {
        Some(self.statistics.clone())
    }
}
