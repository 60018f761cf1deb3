//! `[ftl]`: over-provisioning and sizing, plane allocation (and its striping order), garbage
//! collection, wear leveling, preconditioning and fast aging.

use super::device::TierSpec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FtlConfig {
    /// How the physical capacity is set: by `device.geometry`, or from the workload's footprint
    /// (NAND capacity = footprint / (1 - free_fraction), seed 003), which rewrites `blocks_per_plane`.
    pub sizing: CapacitySizing,
    /// Fraction of physical pages hidden from the host (used with sizing = "geometry").
    pub overprovisioning_fraction: f64,
    /// Free fraction of the NAND capacity when sizing = "footprint".
    pub footprint_free_fraction: f64,
    pub plane_allocation: PlaneAllocation,
    /// The order static allocation stripes logical pages over the units (and dynamic allocation
    /// cycles through the planes): MQSim's `Plane_Allocation_Scheme`, the first letter the unit
    /// that changes fastest (`PlaneAllocationOrder`).
    pub plane_allocation_order: PlaneAllocationOrder,
    pub garbage_collection: GarbageCollectionConfig,
    pub wear_leveling: WearLevelingConfig,
    pub precondition: PreconditionConfig,
    pub aging: AgingConfig,
}

impl Default for FtlConfig {
    fn default() -> Self {
        FtlConfig {
            sizing: CapacitySizing::Geometry,
            overprovisioning_fraction: 0.07,
            footprint_free_fraction: 0.2,
            plane_allocation: PlaneAllocation::Static,
            plane_allocation_order: PlaneAllocationOrder::Cwdp,
            garbage_collection: GarbageCollectionConfig::default(),
            wear_leveling: WearLevelingConfig::default(),
            precondition: PreconditionConfig::default(),
            aging: AgingConfig::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapacitySizing {
    Geometry,
    Footprint,
}

/// Which plane a written logical page goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaneAllocation {
    /// Fixed by the logical page number, striped in `plane_allocation_order` (channel first, then
    /// chip, die, plane by default: MQSim's default CWDP scheme).
    Static,
    /// Each written page goes to the next plane in round-robin order (`plane_allocation_order`).
    Dynamic,
}

/// The order of the units a striped logical page walks through: MQSim's `Plane_Allocation_Scheme`
/// (`Address_Mapping_Unit_Page_Level.cpp`), C(hannel), W(ay: chip), D(ie), P(lane), the first letter
/// the unit that changes fastest from one logical page to the next. `cwdp` (the default, MQSim's
/// too): page 0 on channel 0, page 1 on channel 1, ..., then the next chip of every channel, and so
/// on; `pdwc`: the planes of a die first, the channels last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PlaneAllocationOrder {
    #[default]
    Cwdp,
    Cwpd,
    Cdwp,
    Cdpw,
    Cpwd,
    Cpdw,
    Wcdp,
    Wcpd,
    Wdcp,
    Wdpc,
    Wpcd,
    Wpdc,
    Dcwp,
    Dcpw,
    Dwcp,
    Dwpc,
    Dpcw,
    Dpwc,
    Pcwd,
    Pcdw,
    Pwcd,
    Pwdc,
    Pdcw,
    Pdwc,
}

/// A unit of the device the striping order names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StripeUnit {
    Channel,
    Chip,
    Die,
    Plane,
}

impl PlaneAllocationOrder {
    /// All 24 orders, in MQSim's listing order.
    pub const ALL: [PlaneAllocationOrder; 24] = [
        PlaneAllocationOrder::Cwdp,
        PlaneAllocationOrder::Cwpd,
        PlaneAllocationOrder::Cdwp,
        PlaneAllocationOrder::Cdpw,
        PlaneAllocationOrder::Cpwd,
        PlaneAllocationOrder::Cpdw,
        PlaneAllocationOrder::Wcdp,
        PlaneAllocationOrder::Wcpd,
        PlaneAllocationOrder::Wdcp,
        PlaneAllocationOrder::Wdpc,
        PlaneAllocationOrder::Wpcd,
        PlaneAllocationOrder::Wpdc,
        PlaneAllocationOrder::Dcwp,
        PlaneAllocationOrder::Dcpw,
        PlaneAllocationOrder::Dwcp,
        PlaneAllocationOrder::Dwpc,
        PlaneAllocationOrder::Dpcw,
        PlaneAllocationOrder::Dpwc,
        PlaneAllocationOrder::Pcwd,
        PlaneAllocationOrder::Pcdw,
        PlaneAllocationOrder::Pwcd,
        PlaneAllocationOrder::Pwdc,
        PlaneAllocationOrder::Pdcw,
        PlaneAllocationOrder::Pdwc,
    ];

    /// The name the config uses (MQSim's, in lower case).
    pub fn name(self) -> &'static str {
        match self {
            PlaneAllocationOrder::Cwdp => "cwdp",
            PlaneAllocationOrder::Cwpd => "cwpd",
            PlaneAllocationOrder::Cdwp => "cdwp",
            PlaneAllocationOrder::Cdpw => "cdpw",
            PlaneAllocationOrder::Cpwd => "cpwd",
            PlaneAllocationOrder::Cpdw => "cpdw",
            PlaneAllocationOrder::Wcdp => "wcdp",
            PlaneAllocationOrder::Wcpd => "wcpd",
            PlaneAllocationOrder::Wdcp => "wdcp",
            PlaneAllocationOrder::Wdpc => "wdpc",
            PlaneAllocationOrder::Wpcd => "wpcd",
            PlaneAllocationOrder::Wpdc => "wpdc",
            PlaneAllocationOrder::Dcwp => "dcwp",
            PlaneAllocationOrder::Dcpw => "dcpw",
            PlaneAllocationOrder::Dwcp => "dwcp",
            PlaneAllocationOrder::Dwpc => "dwpc",
            PlaneAllocationOrder::Dpcw => "dpcw",
            PlaneAllocationOrder::Dpwc => "dpwc",
            PlaneAllocationOrder::Pcwd => "pcwd",
            PlaneAllocationOrder::Pcdw => "pcdw",
            PlaneAllocationOrder::Pwcd => "pwcd",
            PlaneAllocationOrder::Pwdc => "pwdc",
            PlaneAllocationOrder::Pdcw => "pdcw",
            PlaneAllocationOrder::Pdwc => "pdwc",
        }
    }

    /// The units from the fastest-changing to the slowest.
    pub fn units(self) -> [StripeUnit; 4] {
        let mut units = [StripeUnit::Channel; 4];
        for (unit, letter) in units.iter_mut().zip(self.name().bytes()) {
            *unit = match letter {
                b'c' => StripeUnit::Channel,
                b'w' => StripeUnit::Chip,
                b'd' => StripeUnit::Die,
                _ => StripeUnit::Plane,
            };
        }
        units
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GarbageCollectionConfig {
    pub policy: VictimPolicyKind,
    /// GC starts in a plane when its free blocks drop below this many.
    pub low_watermark_blocks: u32,
    /// GC in a plane stops once it has this many free blocks again.
    pub high_watermark_blocks: u32,
    /// Copy valid pages inside the die (copyback) instead of through the controller and bus.
    pub copyback: bool,
    /// How garbage collection holds host writes back (`scheduler/write_gate.rs`, docs/gc-modes.md).
    pub mode: GcMode,
    /// A plane's pool of erased free blocks below which host writes to it wait for an erase:
    /// MQSim's stop-servicing-writes limit (10 there, its maximum of ongoing GC operations per
    /// plane) and, in `preemptible` mode, the hard threshold below which GC stops yielding to host
    /// I/O (MQSim's `GC_Hard_Threshold`). `foreground` mode holds writes below the low watermark.
    pub write_hold_threshold_blocks: u32,
}

impl Default for GarbageCollectionConfig {
    fn default() -> Self {
        GarbageCollectionConfig {
            policy: VictimPolicyKind::Greedy,
            low_watermark_blocks: 3,
            high_watermark_blocks: 4,
            copyback: true,
            mode: GcMode::StopServicingWrites,
            write_hold_threshold_blocks: 1,
        }
    }
}

/// When garbage collection makes host writes wait (see docs/gc-modes.md for the sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GcMode {
    /// DiskSim's SSD model: a write to a plane whose erased pool is below the low watermark waits
    /// until GC's erases there bring it back to the watermark; GC runs as soon as it is needed, in
    /// the write's path.
    Foreground,
    /// MQSim's rule (`GC_and_WL_Unit_Base::Stop_servicing_writes`): GC starts at the low watermark
    /// and runs alongside host I/O; writes to a plane whose erased pool is below
    /// `write_hold_threshold_blocks` wait for an erase there.
    StopServicingWrites,
    /// Preemptible GC (Lee et al., TCAD 2013; MQSim's `Preemptible_GC_Enabled`): GC steps aside
    /// whenever its die has host work queued, until a plane of the die falls below
    /// `write_hold_threshold_blocks` (the hard threshold); there GC runs in turn with host work and
    /// writes to that plane wait for an erase.
    Preemptible,
    /// GC never holds host writes back (ssdlab before issue 31): under overload GC falls behind
    /// without bound. No controller works this way; kept for comparison.
    Background,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictimPolicyKind {
    Greedy,
    RoundRobin,
    CostBenefit,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WearLevelingConfig {
    pub policy: WearLevelingKind,
}

impl Default for WearLevelingConfig {
    fn default() -> Self {
        WearLevelingConfig { policy: WearLevelingKind::RoundRobin }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WearLevelingKind {
    /// Free blocks are reused in the order they were erased (seed 001's NAND wear leveling).
    RoundRobin,
    /// The free block with the fewest erases is opened next.
    LeastWorn,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PreconditionConfig {
    /// Write the workload's footprint once before the measured run.
    pub enabled: bool,
    /// Then overwrite this many footprints' worth of uniformly random pages, to reach GC steady state.
    pub overwrite_passes: f64,
    /// The age (data retention, hours on the retention clock) of the data preconditioning leaves at
    /// time 0: a drive in use holds data written hours or days ago, not data written a moment
    /// before the run (seed 000's decoders depend on it). 0: written at time 0.
    pub data_age_hours: f64,
    /// How ages spread around `data_age_hours`: every page the same (`fixed`), uniform in
    /// 0..2 x the mean (`uniform`), exponential with that mean (`exponential`: the age at a random
    /// moment of data rewritten at random, Poisson, times; capped at 6 x the mean), or from the
    /// workload (`rewrite_interval`): a page the workload writes k times is taken to be rewritten
    /// every (the workload's span on the retention clock) / k, and its age is exponential with that
    /// mean; pages the workload never writes get `data_age_hours` as their mean. Ages are capped at
    /// 6 x `data_age_hours`.
    pub data_age_distribution: DataAgeDistribution,
    /// Aged drive: before the workload's footprint, fill this fraction of the exported logical
    /// capacity (what a drive in use holds; MQSim's "initial occupancy"). 1.0 with `live_fraction`
    /// 1.0 is DiskSim's "every logical page mapped at start". 0: the footprint only.
    pub fill_fraction: f64,
    /// The order the fill writes its pages in: `sequential` (logical order) or `random`; with
    /// `descending` the fill and then the footprint are written from the highest logical page down
    /// (the footprint is otherwise written in ascending order). On a tiered device the order decides
    /// what ages into the slow tier first: with `descending`, data at the start of the span (a
    /// `hot_cold` workload's hot region) is written last, as data a workload keeps rewriting would be.
    pub fill_order: FillOrder,
    /// Aged drive: after the fill, delete scattered extents of filled pages (never the workload's
    /// footprint) until this fraction of the filled pages is live. The deletes go where
    /// `host.delete_target` says: without TRIM (`none`) the FTL still holds the dead data as valid,
    /// as under a file system that does not trim. What the file system calls free space is then
    /// 1 - live_fraction of the filled capacity, apart from the spare flash (over-provisioning).
    pub live_fraction: f64,
    /// Deleted extents are uniform in this many pages (inclusive), each at a random start.
    pub delete_extent_min_pages: u32,
    pub delete_extent_max_pages: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FillOrder {
    Sequential,
    Random,
    Descending,
}

impl Default for PreconditionConfig {
    fn default() -> Self {
        PreconditionConfig {
            enabled: true,
            overwrite_passes: 1.0,
            data_age_hours: 0.0,
            data_age_distribution: DataAgeDistribution::Fixed,
            fill_fraction: 0.0,
            fill_order: FillOrder::Sequential,
            live_fraction: 1.0,
            delete_extent_min_pages: 1,
            delete_extent_max_pages: 64,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataAgeDistribution {
    Fixed,
    Uniform,
    Exponential,
    RewriteInterval,
}

impl PreconditionConfig {
    /// The oldest age a preconditioned page can get (the retention clock starts there).
    pub fn oldest_data_age_hours(&self) -> f64 {
        match self.data_age_distribution {
            DataAgeDistribution::Fixed => self.data_age_hours,
            DataAgeDistribution::Uniform => 2.0 * self.data_age_hours,
            DataAgeDistribution::Exponential | DataAgeDistribution::RewriteInterval => 6.0 * self.data_age_hours,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct AgingConfig {
    /// Every block starts with this many program/erase cycles (fast aging, not simulated).
    pub pe_cycles: u32,
    /// Relative spread of the starting count: uniform in pe_cycles x (1 +- spread).
    pub spread_fraction: f64,
}

/// Checks the FTL tables against the geometry they run on. Returns (field path, message) on the first failure.
pub(super) fn validate(ftl: &FtlConfig, tiers: &[TierSpec]) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    if !(0.0..0.95).contains(&ftl.overprovisioning_fraction) {
        return fail(
            "ftl.overprovisioning_fraction",
            format!("must be in [0, 0.95), got {}", ftl.overprovisioning_fraction),
        );
    }
    if !(ftl.footprint_free_fraction > 0.0 && ftl.footprint_free_fraction < 0.95) {
        return fail(
            "ftl.footprint_free_fraction",
            format!("must be in (0, 0.95), got {}", ftl.footprint_free_fraction),
        );
    }
    let gc = &ftl.garbage_collection;
    if gc.low_watermark_blocks < 2 {
        return fail(
            "ftl.garbage_collection.low_watermark_blocks",
            format!("must be at least 2 (one block is needed to copy into), got {}", gc.low_watermark_blocks),
        );
    }
    if gc.high_watermark_blocks < gc.low_watermark_blocks {
        return fail(
            "ftl.garbage_collection.high_watermark_blocks",
            format!(
                "must be at least low_watermark_blocks ({}), got {}",
                gc.low_watermark_blocks, gc.high_watermark_blocks
            ),
        );
    }
    if gc.write_hold_threshold_blocks < 1 || gc.write_hold_threshold_blocks > gc.low_watermark_blocks {
        return fail(
            "ftl.garbage_collection.write_hold_threshold_blocks",
            format!(
                "must be in 1..=low_watermark_blocks ({}): writes wait while a plane has fewer erased blocks than this, and only GC (started at the low watermark) erases blocks; got {}",
                gc.low_watermark_blocks, gc.write_hold_threshold_blocks
            ),
        );
    }
    if ftl.sizing == CapacitySizing::Geometry {
        for tier in tiers {
            let g = &tier.geometry;
            // Three open blocks per plane: host, GC and migration streams.
            let reserve = gc.high_watermark_blocks as u64 + 2 + (tiers.len() > 1) as u64;
            if (g.blocks_per_plane as u64) <= reserve {
                return fail(
                    &tier.field("geometry", "blocks_per_plane"),
                    format!("must exceed the GC reserve of {reserve} blocks per plane (high watermark + open blocks)"),
                );
            }
            let fraction = tier.overprovisioning_fraction.unwrap_or(ftl.overprovisioning_fraction);
            let spare_blocks = (g.blocks_per_plane as f64 * fraction).floor() as u64;
            if spare_blocks < reserve {
                let field = if tier.overprovisioning_fraction.is_some() {
                    format!("{}.overprovisioning_fraction", tier.field_prefix)
                } else {
                    "ftl.overprovisioning_fraction".to_string()
                };
                return fail(&field, format!(
                    "{fraction} leaves {spare_blocks} spare blocks per plane{}, fewer than the {reserve} that garbage collection needs (high watermark + open blocks); raise it to at least {:.4}",
                    if tiers.len() > 1 { format!(" in tier {}", tier.name) } else { String::new() },
                    reserve as f64 / g.blocks_per_plane as f64));
            }
        }
    }
    if !(ftl.precondition.data_age_hours >= 0.0 && ftl.precondition.data_age_hours.is_finite()) {
        return fail(
            "ftl.precondition.data_age_hours",
            format!("must be a non-negative number of hours, got {}", ftl.precondition.data_age_hours),
        );
    }
    // Stamps are u32 ms of retention clock (1,193 h); leave room for the run.
    if ftl.precondition.oldest_data_age_hours() > 1000.0 {
        return fail("ftl.precondition.data_age_hours", format!("gives ages up to {:.0} h with the {:?} distribution; the retention clock holds ages up to 1,000 h at the start", ftl.precondition.oldest_data_age_hours(), ftl.precondition.data_age_distribution));
    }
    let precondition = &ftl.precondition;
    if !(0.0..=1.0).contains(&precondition.fill_fraction) {
        return fail(
            "ftl.precondition.fill_fraction",
            format!("must be in [0, 1] (a fraction of the exported capacity), got {}", precondition.fill_fraction),
        );
    }
    if !(precondition.live_fraction > 0.0 && precondition.live_fraction <= 1.0) {
        return fail(
            "ftl.precondition.live_fraction",
            format!("must be in (0, 1], got {}", precondition.live_fraction),
        );
    }
    if precondition.live_fraction < 1.0 && precondition.fill_fraction == 0.0 {
        return fail(
            "ftl.precondition.live_fraction",
            "deletes extents of the filled capacity: set ftl.precondition.fill_fraction too".into(),
        );
    }
    if precondition.delete_extent_min_pages == 0
        || precondition.delete_extent_max_pages < precondition.delete_extent_min_pages
    {
        return fail(
            "ftl.precondition.delete_extent_max_pages",
            format!(
                "extents are min..=max pages with 1 <= min <= max; got {}..={}",
                precondition.delete_extent_min_pages, precondition.delete_extent_max_pages
            ),
        );
    }
    if !(ftl.precondition.overwrite_passes >= 0.0 && ftl.precondition.overwrite_passes.is_finite()) {
        return fail("ftl.precondition.overwrite_passes", "must be a non-negative number".into());
    }
    if !(0.0..=1.0).contains(&ftl.aging.spread_fraction) {
        return fail("ftl.aging.spread_fraction", format!("must be in [0, 1], got {}", ftl.aging.spread_fraction));
    }
    Ok(())
}
