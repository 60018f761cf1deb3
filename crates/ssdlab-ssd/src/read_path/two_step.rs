//! Seed 002's baseline two-step read (§2.3, eq. 1): hard sensing, transfer, decode; when hard
//! decoding fails, sensing with all extra levels, transfer of one page of results per level,
//! decode. With look-ahead (§3.1, eq. 2) and an idle die, the soft sensing starts right after the
//! hard sensing instead of after the hard decode, and is cancelled (RESET) when hard decoding
//! succeeds: the die is held until then and the partial sensing costs energy.

use super::decoding::{DecodingOutcomes, ReadPathStatistics};
use super::{ReadContext, ReadPlan, ReadStep, ReadStrategy};

pub struct TwoStep {
    pub levels: u32,
    pub look_ahead: bool,
    pub outcomes: DecodingOutcomes,
}

impl ReadStrategy for TwoStep {
    fn name(&self) -> &'static str {
        if self.look_ahead {
            "two_step+look_ahead"
        } else {
            "two_step"
        }
    }
    fn plan(&mut self, context: &ReadContext) -> ReadPlan {
        let mut plan = ReadPlan::default();
        plan.push(ReadStep::PLAIN_HARD);
        let needed = self.outcomes.levels_needed(context.chip);
        let look_ahead = self.look_ahead && context.die_idle;
        self.outcomes.statistics.look_ahead_started += look_ahead as u64;
        if needed == Some(0) {
            if look_ahead {
                self.outcomes.statistics.look_ahead_cancelled += 1;
                plan.push(ReadStep::cancelled_sensing(self.levels));
            }
            return plan;
        }
        plan.push(ReadStep::soft(self.levels, look_ahead));
        plan
    }
    fn statistics(&self) -> Option<ReadPathStatistics> {
        Some(self.outcomes.statistics.clone())
    }
}
