//! Seed 000's conventional ECC (§2, Fig. 1; its reference [1]): BCH while BCH is reliable, soft LDPC
//! after. A read uses BCH (one hard read, BCH decode) below BCH's tolerable P/E (where its failure
//! probability reaches `read_path.target_failure_probability`) and soft-decision LDPC from there on.
//! Which retention the tolerable P/E is taken at (`read_path.conventional_switch`):
//! - `design_retention`: `read_path.conventional_retention_hours`, one switch P/E per chip class for
//!   the whole drive (the seed's conventional controller, which knows neither the workload class
//!   nor the data's age and must assume data may be that old);
//! - `data_age`: each read's own data age (an adaptive controller that tracks every page's program
//!   time; stronger than the seed's baseline).
//!
//! Soft-decision LDPC is a hard
//! sensing plus `soft_sensing_levels` extra sensings ("six extra read operations"), every result
//! moved out, one LDPC decode. A BCH read that fails is retried with the soft sensings (its hard
//! page is already in the controller). A read that soft LDPC fails too is uncorrectable (counted).

use super::decoder_tables::{climb, DecoderTables};
use super::decoding::ReadPathStatistics;
use super::{DecoderUse, ReadContext, ReadPlan, ReadStep, ReadStrategy};
use crate::config::DecoderKind;
use ssdlab_engine::random::Xoshiro256PlusPlus;

pub struct Conventional {
    pub levels: u32,
    pub tables: DecoderTables,
    pub target: f64,
    /// Per chip class, BCH's tolerable P/E at the design retention (`None`: decided per read).
    pub switch_pe: Option<Vec<f64>>,
    pub rng: Xoshiro256PlusPlus,
    pub statistics: ReadPathStatistics,
}

impl Conventional {
    /// The full soft read used once BCH is no longer reliable.
    fn soft_read(&self) -> ReadStep {
        ReadStep { hard_sense: true, transfer_pages: self.levels + 1, ..ReadStep::soft(self.levels, false) }
    }
}

impl Conventional {
    /// BCH's tolerable P/E per chip class at `retention_hours` (infinite: BCH holds over the tables).
    pub fn switch_points(tables: &DecoderTables, retention_hours: f64, target: f64) -> Vec<f64> {
        (0..tables.classes().max(1) as u32)
            .map(|chip| tables.tolerable_pe(DecoderKind::Bch, chip, retention_hours, target).unwrap_or(f64::INFINITY))
            .collect()
    }
}

impl ReadStrategy for Conventional {
    fn name(&self) -> &'static str {
        "conventional"
    }
    fn plan(&mut self, context: &ReadContext) -> ReadPlan {
        let pe = context.pe_cycles as f64;
        if let Some(outside) = self.statistics.outside_decoder_tables.as_mut() {
            outside.note(context.pe_cycles, context.age_hours);
        }
        let bch_reliable = match &self.switch_pe {
            Some(switch) => pe < switch[context.chip as usize % switch.len()],
            None => {
                self.tables.failure_probability(DecoderKind::Bch, context.chip, pe, context.age_hours) < self.target
            }
        };
        let ladder: &[DecoderKind] =
            if bch_reliable { &[DecoderKind::Bch, DecoderKind::LdpcSoft] } else { &[DecoderKind::LdpcSoft] };
        let outcome = climb(&self.tables, ladder, context.chip, pe, context.age_hours, self.rng.next_f64());
        let mut plan = ReadPlan::default();
        if bch_reliable {
            plan.push(ReadStep::hard(DecoderKind::Bch, 1));
            if outcome.tried > 1 {
                plan.push(ReadStep::soft(self.levels, false));
            }
        } else {
            plan.push(self.soft_read());
        }
        self.statistics.record(ladder, outcome);
        plan
    }
    fn statistics(&self) -> Option<ReadPathStatistics> {
        Some(self.statistics.clone())
    }
}

impl ReadPathStatistics {
    /// Counts one read that tried `outcome.tried` decoders of `ladder`.
    pub fn record(&mut self, ladder: &[DecoderKind], outcome: super::decoder_tables::LadderOutcome) {
        self.sampled_reads += 1;
        self.uncorrectable_reads += outcome.uncorrectable as u64;
        for (index, &decoder) in ladder.iter().enumerate().take(outcome.tried) {
            let entry = match self.decoders.iter_mut().find(|entry| entry.decoder == decoder.label()) {
                Some(entry) => entry,
                None => {
                    self.decoders.push(DecoderUse { decoder: decoder.label().to_string(), ..DecoderUse::default() });
                    self.decoders.last_mut().expect("just pushed")
                }
            };
            entry.first_choice_reads += (index == 0) as u64;
            entry.attempts += 1;
            entry.failures += (index + 1 < outcome.tried || outcome.uncorrectable) as u64;
        }
        self.hard_decision_failures += (outcome.tried > 1 || outcome.uncorrectable) as u64;
    }
}
