//! Tiers: the groups of chips of one medium a device is built from (one NAND tier on most devices;
//! MLC and TLC in seed 004's array; SCM beside NAND in seed 001's hybrid). Here live the tier id and
//! the fixed-size per-tier arrays the scheduler's hot paths index without bounds checks.
//!
//! Left out: tiers are fixed at build time (no tier is added or removed during a run).

/// Tiers a device may have (the config allows at most this many; MLC+TLC and SCM+NAND need two, and
/// the per-tier arrays stay within a few cache lines of the scheduler's hot fields).
pub const MAX_TIERS: usize = 4;
