//! The read path: how a page read is carried out (sensing, transfer, decode, retries), decided per
//! read by a strategy that sees the block's wear, the page's retention time, the chip and whether the
//! die has queued work. One file per strategy. The plan is executed by the scheduler.
//!
//! Seed 002's two-step (baseline), look-ahead and progressive reads sample each read's decoding
//! outcome (`decoding`) from failure probabilities that the ECC lab computes; a plan holds only the
//! steps that actually happen, so the scheduler books exactly the work a read costs. Soft sensing
//! results are moved as one page per extra sensing level (each sense returns a page of bits).

mod always_soft;
mod aoa_ecc;
mod conventional;
pub mod decoder_tables;
pub mod decoding;
mod hard_decision;
mod progressive;
mod two_step;

pub use always_soft::AlwaysSoft;
pub use aoa_ecc::{switch_points, AoaEcc};
pub use conventional::Conventional;
pub use decoder_tables::DecoderTables;
pub use decoding::{DecodingOutcomes, OutsideDecoderTables, ReadPathStatistics};
pub use hard_decision::HardDecision;
pub use progressive::Progressive;
pub use two_step::TwoStep;

use crate::config::{ConventionalSwitch, DecoderKind, ReadPathConfig, ReadStrategyKind};

/// What a strategy may base its decision on.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadContext {
    pub pe_cycles: u32,
    pub retention_ns: u64,
    pub chip: u32,
    /// The page's block (global index): its spread class with `read_path.decoding.block_classes`.
    pub block: u32,
    /// 0 = lower, 1 = upper, 2 = extra.
    pub page_type: usize,
    /// The die has nothing booked from the read's arrival on (no queued request).
    pub die_idle: bool,
    /// The page's data age in hours on the retention clock (`ftl/retention.rs`).
    pub age_hours: f64,
    /// The workload class the controller sees is hot (seed 000: data rewritten within a day).
    pub workload_hot: bool,
    /// The workload class the controller sees is write-dominant (seed 000 Fig. 4: reads at most
    /// half of the requests).
    pub workload_write_dominant: bool,
    /// Which host request the read belongs to (its issue order): reads of one request share a
    /// decoding draw with `read_path.decoding.draw = "per_request"`.
    pub request: u64,
}

/// How often one decoder kind was used (seed 000's policies).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct DecoderUse {
    pub decoder: String,
    /// Reads that tried this decoder first.
    pub first_choice_reads: u64,
    pub attempts: u64,
    pub failures: u64,
}

/// A policy's switch P/E per chip class (null: the weaker decoder is reliable over the whole
/// table): AOA-ECC's per workload class, the conventional policy's for all data.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SwitchPoints {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hot: Vec<Option<f64>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cold: Vec<Option<f64>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub all: Vec<Option<f64>>,
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
    /// Look-ahead sensing cancelled by the previous step's successful decode: it starts when the
    /// previous sensing ends and holds the die until that decode completes (at most its full
    /// sensing time); nothing is transferred or decoded.
    pub cancelled_by_previous_decode: bool,
    /// The decoder (with the sensing that feeds it): its hard sensing time and decode time come
    /// from `read_path.decoders`.
    pub decoder: DecoderKind,
}

impl ReadStep {
    pub const PLAIN_HARD: ReadStep = ReadStep {
        hard_sense: true,
        extra_sensing_levels: 0,
        transfer_pages: 1,
        decode: true,
        overlap_previous_decode: false,
        cancelled_by_previous_decode: false,
        decoder: DecoderKind::LdpcHard,
    };

    /// One hard sensing of `decoder`'s kind, `transfer_pages` moved, decoded.
    pub fn hard(decoder: DecoderKind, transfer_pages: u32) -> ReadStep {
        ReadStep { decoder, transfer_pages, ..Self::PLAIN_HARD }
    }

    /// `levels` extra sensing levels, one page of results per level moved out, decoded.
    pub fn soft(levels: u32, overlap_previous_decode: bool) -> ReadStep {
        ReadStep {
            hard_sense: false,
            extra_sensing_levels: levels,
            transfer_pages: levels,
            decode: true,
            overlap_previous_decode,
            cancelled_by_previous_decode: false,
            decoder: DecoderKind::LdpcSoft,
        }
    }

    /// Look-ahead sensing of `levels` extra levels that the previous decode's success cancels.
    pub fn cancelled_sensing(levels: u32) -> ReadStep {
        ReadStep {
            hard_sense: false,
            extra_sensing_levels: levels,
            transfer_pages: 0,
            decode: false,
            overlap_previous_decode: true,
            cancelled_by_previous_decode: true,
            decoder: DecoderKind::LdpcSoft,
        }
    }
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
    /// What the strategy counted (strategies that sample decoding outcomes).
    fn statistics(&self) -> Option<ReadPathStatistics> {
        None
    }
}

/// The strategy of a validated config; `seed` drives its decoding-outcome draws.
pub fn build(config: &ReadPathConfig, seed: u64) -> Box<dyn ReadStrategy> {
    let levels = config.soft_sensing_levels;
    let outcomes = || {
        DecodingOutcomes::with_wear(config.decoding.tables(), config.decoding.chip_rows.clone(), levels, seed)
            .drawing(config.decoding.draw)
            .with_codeword_parts(config.decoding.codeword_parts)
            .with_block_classes(config.decoding.block_classes)
    };
    match config.strategy {
        ReadStrategyKind::HardDecision => Box::new(HardDecision),
        ReadStrategyKind::AlwaysSoft => Box::new(AlwaysSoft { levels }),
        ReadStrategyKind::TwoStep => Box::new(TwoStep { levels, look_ahead: config.look_ahead, outcomes: outcomes() }),
        ReadStrategyKind::Progressive => {
            Box::new(Progressive { levels, look_ahead: config.look_ahead, outcomes: outcomes() })
        }
        ReadStrategyKind::Conventional => {
            let tables = DecoderTables::new(&config.decoder_tables);
            let switch_pe = (config.conventional_switch == ConventionalSwitch::DesignRetention).then(|| {
                Conventional::switch_points(
                    &tables,
                    config.conventional_retention_hours,
                    config.target_failure_probability,
                )
            });
            let statistics = ReadPathStatistics {
                switch_pe_cycles: switch_pe.as_ref().map(|switch| SwitchPoints {
                    hot: Vec::new(),
                    cold: Vec::new(),
                    all: switch.iter().map(|&pe| pe.is_finite().then_some(pe)).collect(),
                }),
                outside_decoder_tables: Some(tables.outside_record()),
                ..ReadPathStatistics::default()
            };
            Box::new(Conventional {
                levels,
                tables,
                target: config.target_failure_probability,
                switch_pe,
                rng: ssdlab_engine::random::Xoshiro256PlusPlus::seed_from_u64(seed),
                statistics,
            })
        }
        ReadStrategyKind::AoaEcc => Box::new(AoaEcc::new(
            levels,
            DecoderTables::new(&config.decoder_tables),
            config.decoders.ep_ldpc.transfer_pages.unwrap_or(2),
            &config.aoa_ecc,
            config.target_failure_probability,
            seed,
        )),
    }
}
