//! Seed 000's AOA-ECC (§2-3, Fig. 2-3): two error-prediction LDPC decoders chosen by workload class
//! and wear. Quick-LDPC reads one page (LLRs predicted from the read, the P/E count and the
//! retention); EP-LDPC without upper/lower cells reads the whole word line (both pages moved out,
//! cell-to-cell interference used).
//!
//! The decision (`read_path.aoa_ecc.decision_rule`):
//! - `dominance_and_wear` (default; seed §2): write-dominant workloads read with EP-LDPC at every
//!   wear, since ECC time costs them little and their rewrites cause many errors; read-dominant
//!   ones read with Quick-LDPC below their hot/cold class's switch P/E and with EP-LDPC from it.
//!   This is what puts the seed's web_1 (write-dominant) at 0.91x of the conventional controller
//!   (BCH, one plain read, at low wear) and proj_3 (read-dominant) at 1.05x in its Table 1.
//! - `wear_only`: every class uses the switch P/E of its hot/cold class, dominance ignored.
//!
//! Hot workloads rewrite their data within a day, so their data is young and Quick-LDPC stays
//! reliable longer: the hot switch point is higher (seed: 2.3x the cold one). Switch points are
//! computed, not typed in: for each chip class and hot/cold class, the P/E count at which
//! Quick-LDPC's failure probability at the class's retention
//! (`read_path.aoa_ecc.{hot,cold}_retention_hours`) reaches `read_path.target_failure_probability`
//! (the ECC lab's tables); `read_path.aoa_ecc.*_switch_pe_cycles` override them. The switch is per
//! block (its own erase count), so a drive mid-life mixes decoders; the class is the one the
//! controller measures at the read (`host/workload_class.rs`), so a decoder changes with the class.
//!
//! A read that fails climbs the ladder: Quick-LDPC, then EP-LDPC (a word-line read), then the soft
//! sensings with the same LDPC decoder; failing all is uncorrectable (counted, the read completes).
//! Left out: the seed's Fig. 2 flow chart itself (missing from the text copy); the rule above is
//! read from its §2 prose.

use super::decoder_tables::{climb, DecoderTables};
use super::decoding::ReadPathStatistics;
use super::{ReadContext, ReadPlan, ReadStep, ReadStrategy, SwitchPoints};
use crate::config::{AoaEccConfig, AoaEccDecisionRule, DecoderKind};
use ssdlab_engine::random::Xoshiro256PlusPlus;

pub struct AoaEcc {
    pub levels: u32,
    pub decision_rule: AoaEccDecisionRule,
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
            outside_decoder_tables: Some(tables.outside_record()),
            ..ReadPathStatistics::default()
        };
        AoaEcc {
            levels,
            decision_rule: config.decision_rule,
            tables,
            word_line_pages,
            switch_pe,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            statistics,
        }
    }
}

/// The decoder a read tries first: `switch` is the (hot, cold) switch P/E of the read's chip class.
pub fn first_decoder(
    rule: AoaEccDecisionRule,
    workload_hot: bool,
    workload_write_dominant: bool,
    pe_cycles: f64,
    switch: (f64, f64),
) -> DecoderKind {
    if rule == AoaEccDecisionRule::DominanceAndWear && workload_write_dominant {
        return DecoderKind::EpLdpc;
    }
    let switch_pe = if workload_hot { switch.0 } else { switch.1 };
    if pe_cycles < switch_pe {
        DecoderKind::QuickLdpc
    } else {
        DecoderKind::EpLdpc
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
        if let Some(outside) = self.statistics.outside_decoder_tables.as_mut() {
            outside.note(context.pe_cycles, context.age_hours);
        }
        let switch = self.switch_pe[context.chip as usize % self.switch_pe.len()];
        let first =
            first_decoder(self.decision_rule, context.workload_hot, context.workload_write_dominant, pe, switch);
        let ladder: &[DecoderKind] = if first == DecoderKind::QuickLdpc {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DecoderTablesConfig, WorkloadClassConfig};
    use crate::host::workload_class::{classify, is_hot, is_write_dominant, WorkloadClassifier};
    use crate::retention::RetentionClock;
    use ssdlab_workload::WorkloadClass;

    /// Tables where no decoder ever fails (every read succeeds with its first decoder), and switch
    /// points given: hot 2,000 P/E, cold 870 P/E (seed 000: prxy_1 near 2,000, hot 2.3x cold).
    fn policy(rule: AoaEccDecisionRule) -> AoaEcc {
        let zeros = vec![vec![vec![0.0; 2]; 2]];
        let tables = DecoderTablesConfig {
            pe_cycles: vec![0.0, 10_000.0],
            retention_hours: vec![1.0, 720.0],
            failure_probabilities: ["quick_ldpc", "ep_ldpc", "ldpc_soft"]
                .into_iter()
                .map(|label| (label.to_string(), zeros.clone()))
                .collect(),
            ..DecoderTablesConfig::default()
        };
        let config = AoaEccConfig {
            decision_rule: rule,
            hot_switch_pe_cycles: Some(2_000.0),
            cold_switch_pe_cycles: Some(870.0),
            ..AoaEccConfig::default()
        };
        AoaEcc::new(6, DecoderTables::new(&tables), 2, &config, 0.01, 7)
    }

    fn first_step(policy: &mut AoaEcc, class: WorkloadClass, pe_cycles: u32) -> DecoderKind {
        let context = ReadContext {
            pe_cycles,
            workload_hot: is_hot(class),
            workload_write_dominant: is_write_dominant(class),
            age_hours: 24.0,
            ..ReadContext::default()
        };
        let plan = policy.plan(&context);
        assert_eq!(plan.steps().len(), 1, "no decoder fails in these tables");
        plan.steps()[0].decoder
    }

    /// A hand-built history of the classifier's measurements (mean writes per written page per
    /// week, read share) at one block's wear; each entry with the decoder the seed's rule and the
    /// wear-only rule must pick.
    #[test]
    fn the_seed_rule_reads_write_dominant_classes_with_ep_ldpc_at_any_wear() {
        use DecoderKind::{EpLdpc as Ep, QuickLdpc as Quick};
        let history: [(f64, f64, u32, DecoderKind, DecoderKind); 8] = [
            // (writes/week, reads, P/E, seed rule, wear-only rule)
            (47.0, 0.65, 500, Quick, Quick),   // hot, read-dominant (prxy_1), young block
            (47.0, 0.65, 1_500, Quick, Quick), // below the hot switch
            (47.0, 0.30, 1_500, Ep, Quick),    // the same wear turns write-dominant (web_1)
            (47.0, 0.30, 0, Ep, Quick),        // even a fresh block
            (3.0, 0.90, 500, Quick, Quick),    // cold, read-dominant (proj_3)
            (3.0, 0.90, 1_500, Ep, Ep),        // past the cold switch (870)
            (3.0, 0.50, 500, Ep, Quick),       // 50 % reads is not read-dominant (> 50 % is)
            (47.0, 0.65, 2_000, Ep, Ep),       // at the hot switch
        ];
        let mut seed_rule = policy(AoaEccDecisionRule::DominanceAndWear);
        let mut wear_only = policy(AoaEccDecisionRule::WearOnly);
        for (i, &(writes_per_week, read_share, pe, seed, wear)) in history.iter().enumerate() {
            let class = classify(writes_per_week, read_share);
            assert_eq!(first_step(&mut seed_rule, class, pe), seed, "entry {i}: {class:?} at {pe} P/E, seed rule");
            assert_eq!(first_step(&mut wear_only, class, pe), wear, "entry {i}: {class:?} at {pe} P/E, wear only");
        }
        // Every read was counted under the decoder it started with.
        let used = |policy: &AoaEcc, kind: DecoderKind| {
            policy.statistics.decoders.iter().find(|d| d.decoder == kind.label()).map_or(0, |d| d.first_choice_reads)
        };
        assert_eq!((used(&seed_rule, Quick), used(&seed_rule, Ep)), (3, 5));
        assert_eq!((used(&wear_only, Quick), used(&wear_only, Ep)), (6, 2));
    }

    /// The class measured online from requests switches the decoder when the workload turns from
    /// reading to writing and back (at a wear below both switch points).
    #[test]
    fn the_decoder_follows_the_measured_class_online() {
        const SECOND: u64 = 1_000_000_000;
        // A window of 4 retention hours in 4 steps; at scale 3600 an I/O second is a retention hour.
        let config = WorkloadClassConfig { window_hours: 4.0, window_steps: 4, ..WorkloadClassConfig::default() };
        let mut classifier = WorkloadClassifier::new(&config, &RetentionClock::new(3600.0, 0.0), 100);
        let mut aoa = policy(AoaEccDecisionRule::DominanceAndWear);
        // 4 h of 9 reads per write on 10 pages (each rewritten once an hour: hot), then 4 h of
        // writes only, then reads only again.
        let phase = |classifier: &mut WorkloadClassifier, start_h: u64, reads_per_write: u64| {
            for hour in start_h..start_h + 4 {
                let t = hour * SECOND;
                classifier.observe(t, true, 0, 10);
                for r in 0..reads_per_write {
                    classifier.observe(t + r + 1, false, r % 10, 1);
                }
            }
            // Close the last hour's step: the class of the whole window.
            classifier.observe((start_h + 4) * SECOND, false, 0, 1);
            classifier.class()
        };
        let read_phase = phase(&mut classifier, 0, 9);
        assert_eq!(read_phase, WorkloadClass::HotReadDominant);
        assert_eq!(first_step(&mut aoa, read_phase, 500), DecoderKind::QuickLdpc);
        let write_phase = phase(&mut classifier, 4, 0);
        assert_eq!(write_phase, WorkloadClass::HotWriteDominant);
        assert_eq!(first_step(&mut aoa, write_phase, 500), DecoderKind::EpLdpc);
        let read_again = phase(&mut classifier, 8, 9);
        assert_eq!(read_again, WorkloadClass::HotReadDominant);
        assert_eq!(first_step(&mut aoa, read_again, 500), DecoderKind::QuickLdpc);
    }
}
