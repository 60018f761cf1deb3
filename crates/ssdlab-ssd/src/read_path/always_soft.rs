//! Every read fails hard decoding and is re-read with soft sensing: the worst case of seed 002's
//! two-step read (eq. 1): hard sense + transfer + decode, then `levels` extra sensing levels +
//! transfer + decode. An upper bound on read latency at end of life.

use super::{ReadContext, ReadPlan, ReadStep, ReadStrategy};

pub struct AlwaysSoft {
    pub levels: u32,
}

impl ReadStrategy for AlwaysSoft {
    fn name(&self) -> &'static str {
        "always_soft"
    }
    fn uses_context(&self) -> bool {
        false
    }
    fn plan(&mut self, _context: &ReadContext) -> ReadPlan {
        let mut plan = ReadPlan::default();
        plan.push(ReadStep::PLAIN_HARD);
        plan.push(ReadStep::soft(self.levels, false));
        plan
    }
}
