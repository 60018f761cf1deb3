//! `[placement]`: which tier a host page is written to, and where a tier's garbage collection sends
//! the valid pages it moves.

use super::device::TierSpec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlacementConfig {
    pub policy: PlacementKind,
    /// The tier host writes go to (default: the first tier in layout order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_tier: Option<String>,
    /// With `migrate_on_collect`: the tier the write tier's garbage collection moves valid pages to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub migrate_to: Option<String>,
    /// With `rr_fdca`: N_RDSMAX, the screening rounds (trips of round-robin around a plane) a
    /// block's data must stay unwritten before it moves (seed 004 Fig. 11's axis; its best: 1).
    pub max_screening_rounds: u8,
    /// With `rr_fdca`: how many victims a collection pair of fresh blocks takes (issue 46 item 7).
    #[serde(skip_serializing_if = "Accumulation::is_default")]
    pub accumulation: Accumulation,
    /// With `rr_fdca`: which host accesses during a screening period keep data out of TLC (issue 46
    /// item 7).
    #[serde(skip_serializing_if = "ScreeningAccess::is_default")]
    pub screening_access: ScreeningAccess,
    /// With `migrate_on_collect` into a block-unit tier: when the conventional collection stops
    /// (issue 46 item 7).
    #[serde(skip_serializing_if = "MigrationStop::is_default")]
    pub migration_stop: MigrationStop,
    /// With `hybrid_scm`: seed 001's hot/fragmented placement and SCM eviction settings (left out of
    /// a rendered config at their defaults, so configs written before they existed keep their hash).
    #[serde(skip_serializing_if = "super::HybridScmConfig::is_default")]
    pub hybrid_scm: super::HybridScmConfig,
}

impl Default for PlacementConfig {
    fn default() -> Self {
        PlacementConfig {
            policy: PlacementKind::Single,
            write_tier: None,
            migrate_to: None,
            max_screening_rounds: 1,
            accumulation: Accumulation::default(),
            screening_access: ScreeningAccess::default(),
            migration_stop: MigrationStop::default(),
            hybrid_scm: Default::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PlacementKind {
    /// Every host page goes to the write tier; each tier collects in place (today's one-tier path).
    #[default]
    Single,
    /// Host pages go to the write tier; its garbage collection moves every valid page of a victim
    /// to the `migrate_to` tier (seed 004's conventional MLC-then-TLC array), which collects in place.
    MigrateOnCollect,
    /// Seed 004's round-robin frozen-data collection: host pages go to the write tier; its
    /// collector screens the data of its victims for `max_screening_rounds` rounds and moves only
    /// what stayed unwritten (frozen data) to `migrate_to`, a TLC block at a time.
    RrFdca,
    /// Seed 001's hybrid SSD: hot (in the LRU table of recent writes) or fragmented (a small
    /// fraction of a page) writes go to the SCM (`[device.scm]`), the rest to the NAND; SCM runs
    /// low -> data neither fragmented nor hot is evicted to NAND, merged with its NAND copy.
    HybridScm,
    /// Seed 001's All S-SCM SSD: every sector lives in the SCM; the NAND holds nothing.
    ScmOnly,
}

/// RR-FDCA's accumulation step (seed 004 Fig. 8, A1-A4): "If the number of valid pages in the
/// selected MLC blocks is less than the page number per block (PNPB) of TLC (N_PNPB,TLC), RR-FDCA
/// collects more valid pages until the collected pages reach two MLC blocks (2 x N_PNPB,MLC) to
/// accumulate valid pages to be N_PNPB,TLC."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Accumulation {
    /// The seed's: a pair of fresh victims whose valid pages fall short of a TLC block takes the
    /// next victims too, until what it accumulated fills a TLC block.
    #[default]
    TlcBlock,
    /// ssdlab before issue 46: a pair is always two victims, whatever they hold.
    TwoVictims,
}

impl Accumulation {
    fn is_default(&self) -> bool {
        *self == Accumulation::default()
    }
}

/// When the conventional array's collection (`migrate_on_collect`, seed 004 Fig. 7: "If the blank
/// block number is not enough, GC operation is triggered ... All valid pages in the selected block
/// are moved to other blocks") stops when its destination is written in blocks ("TLC write unit is
/// a block"). The seed does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MigrationStop {
    /// ssdlab's reading of "write unit is a block": past the high watermark, collection goes on
    /// until the destination block it started is full, so a block is written in one go.
    #[default]
    BlockFilled,
    /// At the high watermark, as any collection: the destination block stays open, partly
    /// written, until the next collection.
    HighWatermark,
}

impl MigrationStop {
    fn is_default(&self) -> bool {
        *self == MigrationStop::default()
    }
}

/// RR-FDCA's screening (seed 004 Fig. 8, B1-C4): "cold data is screened since the data accessed
/// during the period is moved to another MLC block".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ScreeningAccess {
    /// The seed's "accessed": a page the host reads while its block is being screened is not frozen;
    /// when the block's rounds are up it goes to another MLC block (the screening block, screened
    /// again) instead of TLC. A page the host writes leaves the block at once, as always.
    #[default]
    ReadsAndWrites,
    /// ssdlab before issue 46: only host writes take data out of screening; reads are ignored.
    Writes,
}

impl ScreeningAccess {
    fn is_default(&self) -> bool {
        *self == ScreeningAccess::default()
    }
}

impl PlacementKind {
    /// True for the policies that place host sectors in `[device.scm]`.
    pub fn uses_scm(self) -> bool {
        matches!(self, PlacementKind::HybridScm | PlacementKind::ScmOnly)
    }
}

/// Checks that the named tiers exist and the policy fits the device.
pub(super) fn validate(placement: &PlacementConfig, tiers: &[TierSpec]) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    let names: Vec<&str> = tiers.iter().map(|tier| tier.name.as_str()).collect();
    for (field, value) in
        [("placement.write_tier", &placement.write_tier), ("placement.migrate_to", &placement.migrate_to)]
    {
        if let Some(name) = value {
            if !names.contains(&name.as_str()) {
                return fail(field, format!("no tier named `{name}`; the device has {}", names.join(", ")));
            }
        }
    }
    if placement.policy != PlacementKind::RrFdca && placement.max_screening_rounds != 1 {
        return fail("placement.max_screening_rounds", "applies to policy = \"rr_fdca\" only".into());
    }
    if placement.policy != PlacementKind::RrFdca && placement.accumulation != Accumulation::default() {
        return fail("placement.accumulation", "applies to policy = \"rr_fdca\" only".into());
    }
    if placement.policy != PlacementKind::MigrateOnCollect && placement.migration_stop != MigrationStop::default() {
        return fail("placement.migration_stop", "applies to policy = \"migrate_on_collect\" only".into());
    }
    if placement.policy != PlacementKind::RrFdca && placement.screening_access != ScreeningAccess::default() {
        return fail("placement.screening_access", "applies to policy = \"rr_fdca\" only".into());
    }
    if placement.max_screening_rounds == 0 || placement.max_screening_rounds > 100 {
        return fail(
            "placement.max_screening_rounds",
            format!("{} is outside 1..=100 (N_RDSMAX counts whole screening rounds)", placement.max_screening_rounds),
        );
    }
    if matches!(placement.policy, PlacementKind::MigrateOnCollect | PlacementKind::RrFdca) {
        let policy = if placement.policy == PlacementKind::RrFdca { "rr_fdca" } else { "migrate_on_collect" };
        let Some(target) = &placement.migrate_to else {
            return fail("placement.migrate_to", format!("{policy} needs the tier to move collected pages to"));
        };
        let source = placement.write_tier.as_deref().or(names.first().copied()).unwrap_or_default();
        if target == source {
            return fail("placement.migrate_to", format!("must differ from the write tier `{source}`"));
        }
    } else if placement.migrate_to.is_some() {
        return fail("placement.migrate_to", "applies to policy = \"migrate_on_collect\" or \"rr_fdca\" only".into());
    }
    Ok(())
}
