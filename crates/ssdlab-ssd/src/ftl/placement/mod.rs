//! Placement: the layer between middleware and the tiers. It decides which tier a host page is
//! written to and, through the collector it gives each tier, where a tier's garbage collection
//! sends the pages it moves. One file per policy; a one-tier device uses [`Single`], which is the
//! old single-FTL path unchanged.
//!
//! Seed 001's hot/fragmented placement between SCM and NAND works on sectors, above the FTL: it is
//! `crate::scm`. Left out: per-request placement hints. (Seed 004's RR-FDCA screens data in the write tier's collector, not here.)

mod migrate_on_collect;
mod single;

pub use migrate_on_collect::MigrateOnCollect;
pub use single::Single;

use crate::config::{PlacementConfig, PlacementKind};
use crate::device_layout::DeviceLayout;
use crate::ftl::collector::{Collector, InPlace};
use crate::geometry::Lpn;
use crate::tier::TierId;

/// What a placement policy decides.
pub trait Place {
    fn name(&self) -> &'static str;
    /// The tier a host write of `lpn` goes to.
    fn write_tier(&self, lpn: Lpn) -> TierId;
    /// The collector of `tier`.
    fn collector(&self, tier: TierId) -> Collector {
        let _ = tier;
        Collector::InPlace(InPlace)
    }
}

/// The device's placement policy (an enum rather than a trait object: it is asked on every page
/// written, and a match inlines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    Single(Single),
    MigrateOnCollect(MigrateOnCollect),
}

impl Placement {
    /// The policy of a validated config on `layout`.
    pub fn build(config: &PlacementConfig, layout: &DeviceLayout) -> Placement {
        let tier =
            |name: &Option<String>| name.as_deref().and_then(|name| layout.tier_index(name)).unwrap_or(TierId::FIRST);
        let write_tier = tier(&config.write_tier);
        match config.policy {
            // Seed 001's devices have one NAND tier; what goes to SCM is decided above the FTL
            // (`crate::scm`), and the NAND collects in place.
            PlacementKind::Single | PlacementKind::HybridScm | PlacementKind::ScmOnly => {
                Placement::Single(Single { tier: write_tier })
            }
            PlacementKind::MigrateOnCollect => Placement::MigrateOnCollect(MigrateOnCollect {
                write_tier,
                migrate_to: tier(&config.migrate_to),
                screening: None,
                accumulation: config.accumulation,
                screening_access: config.screening_access,
                migration_stop: config.migration_stop,
            }),
            PlacementKind::RrFdca => Placement::MigrateOnCollect(MigrateOnCollect {
                write_tier,
                migrate_to: tier(&config.migrate_to),
                screening: Some(config.max_screening_rounds),
                accumulation: config.accumulation,
                screening_access: config.screening_access,
                migration_stop: config.migration_stop,
            }),
        }
    }
}

impl Place for Placement {
    fn name(&self) -> &'static str {
        match self {
            Placement::Single(policy) => policy.name(),
            Placement::MigrateOnCollect(policy) => policy.name(),
        }
    }
    #[inline]
    fn write_tier(&self, lpn: Lpn) -> TierId {
        match self {
            Placement::Single(policy) => policy.write_tier(lpn),
            Placement::MigrateOnCollect(policy) => policy.write_tier(lpn),
        }
    }
    fn collector(&self, tier: TierId) -> Collector {
        match self {
            Placement::Single(policy) => policy.collector(tier),
            Placement::MigrateOnCollect(policy) => policy.collector(tier),
        }
    }
}
