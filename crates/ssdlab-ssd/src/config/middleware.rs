//! `[middleware]`: host-side remapping before the FTL (seed 003's LBA scrambler).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MiddlewareConfig {
    pub kind: MiddlewareKind,
    /// Settings of the LBA scrambler (used when kind = "lba_scrambler").
    pub lba_scrambler: LbaScramblerConfig,
}

impl Default for MiddlewareConfig {
    fn default() -> Self {
        MiddlewareConfig { kind: MiddlewareKind::None, lba_scrambler: LbaScramblerConfig::default() }
    }
}

/// The two thresholds seed 003 names but does not quantify (see `middleware/lba_scrambler.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LbaScramblerConfig {
    /// Rule 1 ("free space is plentiful"): write to empty logical pages while more than this fraction
    /// of the NAND pages is not mapped by the FTL. Default 0.5: the SSD is less than half full.
    /// 1 turns rule 1 off.
    pub plentiful_free_fraction: f64,
    /// Rule 2 ("the next victim has enough fragmented pages"): redirect writes into the next victim
    /// while it holds at least this many fragmented pages. Default 1: every fragmented page in the
    /// victim that a write can take is one page GC need not copy.
    pub victim_min_fragmented_pages: u32,
    /// Which host writes rule 2 may redirect: `all` (the seed's rule as written: an overwrite moved
    /// into the victim leaves its old page fragmented, a dead copy the FTL still holds) or
    /// `first_writes` (only data without a page yet, e.g. a file system allocating deleted space:
    /// a redirect then never creates a dead copy).
    pub rule2_writes: Rule2Writes,
    /// How far ahead the overwrite-recommendation list looks: the next this-many GC victims of
    /// each plane, in the order GC will collect them. 0 (default): the run the next GC invocation
    /// will take, i.e. victims in order until their gains reach the blocks one invocation must
    /// free (`Ftl::gc_invocation_gain_blocks`; a victim with v of p pages valid gains (p - v)/p),
    /// at most 64. 1 follows only the next victim (the list before issue 34).
    pub victims_per_plane: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule2Writes {
    All,
    FirstWrites,
}

impl Default for LbaScramblerConfig {
    fn default() -> Self {
        LbaScramblerConfig {
            plentiful_free_fraction: 0.5,
            victim_min_fragmented_pages: 1,
            rule2_writes: Rule2Writes::All,
            victims_per_plane: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MiddlewareKind {
    /// Host addresses go to the FTL unchanged.
    None,
    /// A fixed seeded bijection of logical pages (a test of the remapping seam).
    Permutation,
    /// Seed 003's LBA scrambler: writes aimed at the next GC victim's fragmented pages.
    LbaScrambler,
}

/// Checks the middleware table. Returns (field path, message) on the first failure.
pub(super) fn validate(middleware: &MiddlewareConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    let scrambler = &middleware.lba_scrambler;
    if !(scrambler.plentiful_free_fraction >= 0.1 && scrambler.plentiful_free_fraction <= 1.0) {
        return fail("middleware.lba_scrambler.plentiful_free_fraction", format!(
            "must be in [0.1, 1] (below 0.1 rule 1 would fill the NAND past the FTL's spare blocks; 1 turns rule 1 off), got {}",
            scrambler.plentiful_free_fraction));
    }
    if scrambler.victims_per_plane > 1024 {
        return fail(
            "middleware.lba_scrambler.victims_per_plane",
            format!("must be at most 1024 (0: the next GC invocation's run), got {}", scrambler.victims_per_plane),
        );
    }
    if scrambler.victim_min_fragmented_pages == 0 {
        return fail("middleware.lba_scrambler.victim_min_fragmented_pages", "must be at least 1".into());
    }
    Ok(())
}
