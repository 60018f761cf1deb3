//! Seed 002's baseline two-step read (§2.3, eq. 1): hard sensing, transfer, decode; when hard
//! decoding fails, sensing with all extra levels, transfer of one page of results per level,
//! decode. With look-ahead (§3.1, eq. 2) and an idle die, the soft sensing starts right after the
//! hard sensing instead of after the hard decode, and is cancelled (RESET) when hard decoding
//! succeeds: the die is held until then and the partial sensing costs energy.

use super::decoding::{DecodingOutcomes, HardAttempt, ReadPathStatistics};
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
        if let HardAttempt::Failed { look_ahead, .. } =
            self.outcomes.hard_attempt(&mut plan, context, self.look_ahead, self.levels)
        {
            plan.push(ReadStep::soft(self.levels, look_ahead));
        }
        plan
    }
    fn statistics(&self) -> Option<ReadPathStatistics> {
        Some(self.outcomes.statistics.clone())
    }
}
