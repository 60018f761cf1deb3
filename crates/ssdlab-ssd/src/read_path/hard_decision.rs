//! Hard-decision read: sense once, transfer the page, decode. The fast path of every ECC scheme and
//! the whole read path of a drive whose decoder never fails.

use super::{ReadContext, ReadPlan, ReadStep, ReadStrategy};

pub struct HardDecision;

impl ReadStrategy for HardDecision {
    fn name(&self) -> &'static str {
        "hard_decision"
    }
    fn uses_context(&self) -> bool {
        false
    }
    fn plan(&mut self, _context: &ReadContext) -> ReadPlan {
        let mut plan = ReadPlan::default();
        plan.push(ReadStep::PLAIN_HARD);
        plan
    }
}
