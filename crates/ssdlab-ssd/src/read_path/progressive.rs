//! Seed 002's progressive sensing and decoding (§3.2, eq. 3-4): after a hard-decision failure, one
//! more extra sensing level per retry (sense one level, transfer its page of results, decode) until
//! decoding succeeds or every level has been tried. With look-ahead and an idle die, the first
//! level's sensing starts right after the hard sensing and is cancelled if hard decoding succeeds;
//! later retries wait for the previous decode.

use super::decoding::{DecodingOutcomes, HardAttempt, ReadPathStatistics};
use super::{ReadContext, ReadPlan, ReadStep, ReadStrategy};

pub struct Progressive {
    pub levels: u32,
    pub look_ahead: bool,
    pub outcomes: DecodingOutcomes,
}

impl ReadStrategy for Progressive {
    fn name(&self) -> &'static str {
        if self.look_ahead {
            "progressive+look_ahead"
        } else {
            "progressive"
        }
    }
    fn plan(&mut self, context: &ReadContext) -> ReadPlan {
        let mut plan = ReadPlan::default();
        if let HardAttempt::Failed { needed, look_ahead } =
            self.outcomes.hard_attempt(&mut plan, context, self.look_ahead, 1)
        {
            for level in 1..=needed.unwrap_or(self.levels) {
                plan.push(ReadStep::soft(1, look_ahead && level == 1));
            }
        }
        plan
    }
    fn statistics(&self) -> Option<ReadPathStatistics> {
        Some(self.outcomes.statistics.clone())
    }
}
