//! The read path: how a page read is carried out (sensing, transfer, decode, retries), decided per
//! read by a strategy that sees the block's wear, the page's retention time, the chip and whether the
//! die has queued work. One file per strategy. The plan is executed by the scheduler.
//!
//! Today's strategies assume decoding succeeds where the plan says; the ECC lab (a later part) will
//! supply failure probabilities per (P/E, retention, chip, sensing levels) for strategies such as
//! seed 002's two-step, look-ahead and progressive sensing and seed 000's AOA-ECC.

mod always_soft;
mod hard_decision;

pub use always_soft::AlwaysSoft;
pub use hard_decision::HardDecision;

use crate::config::{ReadPathConfig, ReadStrategyKind};

/// What a strategy may base its decision on.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadContext {
    pub pe_cycles: u32,
    pub retention_ns: u64,
    pub chip: u32,
    /// 0 = lower, 1 = upper, 2 = extra.
    pub page_type: usize,
    /// The die has nothing booked from the read's arrival on (no queued request).
    pub die_idle: bool,
}

/// One sensing/transfer/decode round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadStep {
    /// Perform the hard-decision sensing (one reference per state boundary).
    pub hard_sense: bool,
    /// Additional sensing levels between adjacent states (soft information).
    pub extra_sensing_levels: u32,
    /// Pages' worth of data moved over the channel after sensing.
    pub transfer_pages: u32,
    /// Run the decoder after the transfer.
    pub decode: bool,
    /// Start this step's sensing as soon as the previous step's sensing ends, without waiting for
    /// its decode result (look-ahead sensing).
    pub overlap_previous_decode: bool,
}

impl ReadStep {
    pub const PLAIN_HARD: ReadStep =
        ReadStep { hard_sense: true, extra_sensing_levels: 0, transfer_pages: 1, decode: true, overlap_previous_decode: false };
}

pub const MAX_READ_STEPS: usize = 8;

/// An ordered list of read steps; fixed capacity so planning never allocates.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadPlan {
    steps: [ReadStep; MAX_READ_STEPS],
    len: usize,
}

impl ReadPlan {
    pub fn push(&mut self, step: ReadStep) {
        if self.len < MAX_READ_STEPS {
            self.steps[self.len] = step;
            self.len += 1;
        }
    }
    pub fn steps(&self) -> &[ReadStep] {
        &self.steps[..self.len]
    }
    /// One hard sensing, one page transferred, one decode: the plan of every read without retries.
    #[inline]
    pub fn is_plain_hard_read(&self) -> bool {
        self.len == 1 && self.steps[0] == ReadStep::PLAIN_HARD
    }
}

pub trait ReadStrategy: Send {
    fn name(&self) -> &'static str;
    /// Whether `plan` looks at the context. Strategies that do not are spared the lookups (block
    /// wear, page program time), which cost cache misses on every read.
    fn uses_context(&self) -> bool {
        true
    }
    fn plan(&mut self, context: &ReadContext) -> ReadPlan;
}

pub fn build(config: &ReadPathConfig) -> Box<dyn ReadStrategy> {
    match config.strategy {
        ReadStrategyKind::HardDecision => Box::new(HardDecision),
        ReadStrategyKind::AlwaysSoft => Box::new(AlwaysSoft { levels: config.soft_sensing_levels }),
    }
}
