//! `[device]`: geometry, NAND timing and endurance, channel, per-operation energy; or, for a
//! heterogeneous device, named tiers (`[device.tiers.mlc]`, `[device.tiers.tlc]`), each a set of
//! chips with one media profile, its own channels and its own geometry.
//!
//! A one-tier device is written as today (`device.geometry`, `device.nand`, `device.channel`); it is
//! the tier named [`SINGLE_TIER_NAME`]. [`DeviceConfig::tiers`] resolves either form into the same
//! list of [`TierSpec`]s, so the model has one code path.
//!
//! The device's optional parts each have a table and its checks in a file of their own here (seed
//! 001's SCM, the DRAM data cache, the cached mapping table): a new part is a file here, its field
//! in [`DeviceConfig`] and its line in [`validate_parts`].

mod data_cache;
mod mapping_cache;
mod scm;

pub use data_cache::*;
pub use mapping_cache::*;
pub use scm::*;

use super::SimulationConfig;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The name of the one tier of a device written without `[device.tiers.*]`.
pub const SINGLE_TIER_NAME: &str = "nand";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geometry: Option<GeometryConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nand: Option<NandConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<ChannelConfig>,
    #[serde(default)]
    pub energy: EnergyConfig,
    /// Named tiers of a heterogeneous device (instead of `geometry`/`nand`/`channel`). Their
    /// physical pages, dies and channels are laid out in name order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tiers: BTreeMap<String, TierConfig>,
    /// When set, the tiers' chips must add up to it (a fixed chip budget split between tiers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chip_budget: Option<u32>,
    /// Storage-class memory beside the NAND (seed 001's hybrid) or as the whole drive (All S-SCM),
    /// as `placement.policy` says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scm: Option<scm::ScmConfig>,
    /// A write-back data cache in the controller's DRAM (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_cache: Option<data_cache::DataCacheConfig>,
    /// A DFTL-style cached mapping table over translation pages in flash (absent: the ideal mapping).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping_cache: Option<mapping_cache::MappingCacheConfig>,
    /// DiskSim's ganged device (seed 002 §5.1; absent: every die and channel independent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ganging: Option<super::ganging::GangingConfig>,
}

/// One tier: `chips` chips spread evenly over its own `channels`, one media profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TierConfig {
    pub chips: u32,
    pub channels: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    pub page_size_bytes: u32,
    pub nand: NandConfig,
    pub channel: ChannelConfig,
    #[serde(default)]
    pub energy: EnergyConfig,
    /// Fraction of this tier's physical pages hidden from the host (default: `ftl.overprovisioning_fraction`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overprovisioning_fraction: Option<f64>,
    /// `block`: the tier is written in whole blocks (seed 004's TLC: its write order allows no
    /// page-by-page writing): pages migrated in fill a block before another is opened, and a host
    /// overwrite of a page held here is a block-modify-write (every valid page of its block is read
    /// and written, with the new data, to another block of the tier).
    #[serde(default, skip_serializing_if = "WriteUnit::is_page")]
    pub write_unit: WriteUnit,
    /// With `write_unit = "block"`: where a host overwrite's new data goes. `rewritten_block` (the
    /// default): into the block rewritten with the block's other valid pages, so the data stays in
    /// this tier. `write_tier`: to the placement's write tier (seed 004's MLC, the array's write
    /// buffer), while the block's other valid pages are still rewritten here (block-mapped data
    /// cannot leave a hole); overwritten data then leaves the tier and is screened again.
    #[serde(default, skip_serializing_if = "OverwriteTarget::is_rewritten_block")]
    pub overwrite_target: OverwriteTarget,
    /// With `overwrite_target = "write_tier"`: what happens to the block that held the overwritten
    /// page. `rewritten` (the default): a block-modify-write, the block's other valid pages are read
    /// and written to another block of this tier, as foreground work the host write waits for.
    /// `page_invalidated`: the old page is only marked invalid, like a page-mapped overwrite; the
    /// block keeps its other pages and is reclaimed later by this tier's garbage collection (seed
    /// 004 names a block rewrite only "if an overwrite operation is occurred in TLC", which with
    /// the new data going to MLC no longer happens in TLC: docs/tlc-mlc.md).
    #[serde(default, skip_serializing_if = "OverwrittenBlock::is_rewritten")]
    pub overwritten_block: OverwrittenBlock,
    /// With `write_unit = "block"`: how many blocks take pages moving in at once. `one` (the
    /// default): one block of the tier at a time, filled before another opens, so migration
    /// programs one die at a time. `one_per_plane`: every plane keeps an open block and pages
    /// moving in are striped over them, so the tier's dies program in parallel (a controller that
    /// stripes block-unit writes). Seed 004 says only that "TLC write unit is a block".
    #[serde(default, skip_serializing_if = "OpenIncomingBlocks::is_one")]
    pub open_incoming_blocks: OpenIncomingBlocks,
}

/// How many blocks of a block-unit tier take pages moving in at once (`open_incoming_blocks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum OpenIncomingBlocks {
    #[default]
    One,
    OnePerPlane,
}

impl OpenIncomingBlocks {
    pub fn is_one(&self) -> bool {
        *self == OpenIncomingBlocks::One
    }
}

/// What a block-unit tier does with the block of a page overwritten elsewhere (`overwritten_block`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum OverwrittenBlock {
    #[default]
    Rewritten,
    PageInvalidated,
}

impl OverwrittenBlock {
    pub fn is_rewritten(&self) -> bool {
        *self == OverwrittenBlock::Rewritten
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum OverwriteTarget {
    #[default]
    RewrittenBlock,
    WriteTier,
}

impl OverwriteTarget {
    pub fn is_rewritten_block(&self) -> bool {
        *self == OverwriteTarget::RewrittenBlock
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WriteUnit {
    #[default]
    Page,
    Block,
}

impl WriteUnit {
    pub fn is_page(&self) -> bool {
        *self == WriteUnit::Page
    }
}

/// A tier as the model sees it, from either form of `[device]`.
#[derive(Debug, Clone, PartialEq)]
pub struct TierSpec {
    pub name: String,
    /// Where this tier's fields live in the config (`device.tiers.tlc`, or `device` for the one tier).
    pub field_prefix: String,
    pub geometry: GeometryConfig,
    pub nand: NandConfig,
    pub channel: ChannelConfig,
    pub energy: EnergyConfig,
    pub overprovisioning_fraction: Option<f64>,
    pub write_unit: WriteUnit,
    pub overwrite_target: OverwriteTarget,
    pub overwritten_block: OverwrittenBlock,
    pub open_incoming_blocks: OpenIncomingBlocks,
}

impl TierSpec {
    /// The config path of one of this tier's fields: `table` is `geometry`, `nand`, `channel` or `energy`.
    pub fn field(&self, table: &str, name: &str) -> String {
        if self.field_prefix == "device" {
            format!("device.{table}.{name}")
        } else if table == "geometry" {
            format!("{}.{name}", self.field_prefix)
        } else {
            format!("{}.{table}.{name}", self.field_prefix)
        }
    }
}

impl DeviceConfig {
    /// True for a device given as named tiers.
    pub fn is_tiered(&self) -> bool {
        !self.tiers.is_empty()
    }

    /// Every tier, in layout order (the one tier of a plain device; named tiers in name order).
    /// Call after validation: a plain device's missing tables are then impossible.
    pub fn tiers(&self) -> Vec<TierSpec> {
        if self.tiers.is_empty() {
            let (Some(geometry), Some(nand), Some(channel)) = (&self.geometry, &self.nand, &self.channel) else {
                return Vec::new();
            };
            return vec![TierSpec {
                name: SINGLE_TIER_NAME.to_string(),
                field_prefix: "device".to_string(),
                geometry: geometry.clone(),
                nand: nand.clone(),
                channel: channel.clone(),
                energy: self.energy.clone(),
                overprovisioning_fraction: None,
                write_unit: WriteUnit::Page,
                overwrite_target: OverwriteTarget::RewrittenBlock,
                overwritten_block: OverwrittenBlock::Rewritten,
                open_incoming_blocks: OpenIncomingBlocks::One,
            }];
        }
        self.tiers
            .iter()
            .map(|(name, tier)| TierSpec {
                name: name.clone(),
                field_prefix: format!("device.tiers.{name}"),
                geometry: GeometryConfig {
                    channels: tier.channels,
                    chips_per_channel: tier.chips.checked_div(tier.channels).unwrap_or(0),
                    dies_per_chip: tier.dies_per_chip,
                    planes_per_die: tier.planes_per_die,
                    blocks_per_plane: tier.blocks_per_plane,
                    pages_per_block: tier.pages_per_block,
                    page_size_bytes: tier.page_size_bytes,
                },
                nand: tier.nand.clone(),
                channel: tier.channel.clone(),
                energy: tier.energy.clone(),
                overprovisioning_fraction: tier.overprovisioning_fraction,
                write_unit: tier.write_unit,
                overwrite_target: tier.overwrite_target,
                overwritten_block: tier.overwritten_block,
                open_incoming_blocks: tier.open_incoming_blocks,
            })
            .collect()
    }

    /// The host page size (every tier has the same one; checked by validation).
    pub fn page_size_bytes(&self) -> u32 {
        self.tiers().first().map_or(4096, |tier| tier.geometry.page_size_bytes)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeometryConfig {
    pub channels: u32,
    pub chips_per_channel: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    pub page_size_bytes: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CellType {
    Slc,
    Mlc,
    Tlc,
}

impl CellType {
    pub fn bits_per_cell(self) -> usize {
        match self {
            CellType::Slc => 1,
            CellType::Mlc => 2,
            CellType::Tlc => 3,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NandConfig {
    pub cell_type: CellType,
    /// Array read (sensing) time per page type: [lower] for SLC, [lower, upper] for MLC,
    /// [lower, upper, extra] for TLC. One value is accepted for all page types.
    pub read_latency_ns: Vec<u64>,
    /// Program time per page type, same layout as `read_latency_ns`.
    pub program_latency_ns: Vec<u64>,
    pub erase_latency_ns: u64,
    /// Pages of one request on different planes of one die program together, and are read together
    /// (one sensing) when no read-path strategy plans reads page by page.
    #[serde(default = "default_true")]
    pub multi_plane: bool,
    /// Rated program/erase cycles (reported beside erase counts; not enforced).
    #[serde(default = "default_endurance")]
    pub endurance_pe_cycles: u32,
}

fn default_true() -> bool {
    true
}
fn default_endurance() -> u32 {
    3000
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelConfig {
    /// Transfers per second on the bus, in millions (ONFI/toggle MT/s).
    pub transfer_rate_mts: f64,
    #[serde(default = "default_bus_width")]
    pub bus_width_bits: u32,
    /// Command and address cycles before each data transfer.
    #[serde(default)]
    pub command_overhead_ns: u64,
    /// I/O supply voltage of the bus (for I/O energy, C·V² per pin toggle); 0 leaves I/O energy out.
    #[serde(default)]
    pub io_voltage_v: f64,
    /// Capacitance per pin, in pF (seed 001: NAND 8 pF, 0.3 pF with TSV).
    #[serde(default)]
    pub pin_capacitance_pf: f64,
    /// Data pins that cycle per transfer beat (I/O energy, `io_pins.rs`); absent: the bus width.
    #[serde(default)]
    pub data_pins: Option<u32>,
    /// Control pins (strobes, latches) that cycle per transfer beat as well.
    #[serde(default)]
    pub control_pins: u32,
    /// Share of beats on which a pin switches (1: every beat; random data: about 0.5).
    #[serde(default = "default_activity")]
    pub pin_activity_factor: f64,
    /// Pins cycle only while data moves (`data_only`) or at the transfer rate all run long
    /// (`continuous`).
    #[serde(default)]
    pub pin_toggling: PinToggling,
    /// Link ends charged: 1 (the memory's pins) or 2 (the controller's pads too).
    #[serde(default = "default_link_ends")]
    pub link_ends: u32,
}

/// The slowest bus accepted (MT/s): a thousand transfers a second already takes seconds per page.
/// Issue 48 item 16: 1e-300 pushed every transfer past the simulated clock's range and the run
/// reported 0 us latencies.
pub const MIN_TRANSFER_RATE_MTS: f64 = 1e-3;

/// A number as an error shows it: 1e300 as `1e300`, not 301 digits.
pub(crate) fn readable(value: f64) -> String {
    if value != 0.0 && value.is_finite() && !(1e-3..1e6).contains(&value.abs()) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

impl ChannelConfig {
    /// Why `transfer_rate_mts` is out of range, if it is (shared by NAND and SCM channels).
    pub fn transfer_rate_problem(&self) -> Option<String> {
        let rate = self.transfer_rate_mts;
        (!(rate >= MIN_TRANSFER_RATE_MTS && rate.is_finite())).then(|| {
            format!(
                "must be at least {MIN_TRANSFER_RATE_MTS} MT/s (a thousand transfers a second) and finite, got {}",
                readable(rate)
            )
        })
    }

    /// The electrical settings with their largest accepted value (name, value, max): far above any
    /// real bus, low enough that C·V² energies stay finite (1e300 V gave `power_w: null`).
    pub fn electrical(&self) -> [(&'static str, f64, f64); 2] {
        [("io_voltage_v", self.io_voltage_v, 100.0), ("pin_capacitance_pf", self.pin_capacitance_pf, 1e6)]
    }

    /// The first invalid I/O pin setting and why (shared by NAND and SCM channels).
    pub fn pin_problem(&self) -> Option<(&'static str, String)> {
        if let Some(pins) = self.data_pins {
            if !(1..=self.bus_width_bits).contains(&pins) {
                return Some(("data_pins", format!("must be 1..={} (the bus width), got {pins}", self.bus_width_bits)));
            }
        }
        if self.control_pins > 64 {
            return Some(("control_pins", format!("must be at most 64, got {}", self.control_pins)));
        }
        if !(0.0..=1.0).contains(&self.pin_activity_factor) {
            return Some(("pin_activity_factor", format!("must be in [0, 1], got {}", self.pin_activity_factor)));
        }
        if !(1..=2).contains(&self.link_ends) {
            return Some(("link_ends", format!("must be 1 or 2, got {}", self.link_ends)));
        }
        None
    }
}

/// When a channel's I/O pins cycle (seed 001 does not say; `io_pins.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PinToggling {
    #[default]
    DataOnly,
    Continuous,
}

fn default_bus_width() -> u32 {
    8
}
fn default_activity() -> f64 {
    1.0
}
fn default_link_ends() -> u32 {
    1
}

/// Energy per operation, in microjoules (seed 002 §5.5 gives the values of its preset).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct EnergyConfig {
    pub program_page_uj: f64,
    pub read_sense_uj: f64,
    pub extra_sensing_level_uj: f64,
    pub page_transfer_uj: f64,
    pub decode_uj: f64,
    pub erase_block_uj: f64,
    /// Array supply voltage and current while a die is busy / idle (energy = busy time x V x I plus
    /// idle time x V x I_idle per die; 0 leaves it out). Seed 004 derives its energies this way.
    pub supply_voltage_v: f64,
    pub active_current_ma: f64,
    pub idle_current_ma: f64,
    /// What a look-ahead soft sensing cancelled by a successful hard decode costs: the part of its
    /// levels it ran for (`time_run`), or every level as if it had finished (`full_sensing`: seed
    /// 002's +102.9 % flash access energy is reachable only this way).
    pub cancelled_sensing_charge: CancelledSensingCharge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CancelledSensingCharge {
    #[default]
    TimeRun,
    FullSensing,
}

/// Checks the device tables. Returns (field path, message) on the first failure.
/// The checks of the device's optional parts, each against the whole config (they depend on the
/// host, the placement, the middleware and the tiers).
pub(super) fn validate_parts(config: &SimulationConfig, tiers: &[TierSpec]) -> Result<(), (String, String)> {
    scm::validate_with(config)?;
    data_cache::validate_with(config)?;
    mapping_cache::validate_with(config, tiers)
}

pub(super) fn validate(device: &DeviceConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    if device.is_tiered() {
        for table in ["geometry", "nand", "channel"] {
            let given = match table {
                "geometry" => device.geometry.is_some(),
                "nand" => device.nand.is_some(),
                _ => device.channel.is_some(),
            };
            if given {
                return fail(
                    &format!("device.{table}"),
                    "a device with [device.tiers.*] gives geometry, nand and channel per tier; remove this table"
                        .into(),
                );
            }
        }
        if device.energy != EnergyConfig::default() {
            return fail(
                "device.energy",
                "a device with [device.tiers.*] gives energy per tier (device.tiers.NAME.energy)".into(),
            );
        }
        for (name, tier) in &device.tiers {
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return fail(&format!("device.tiers.{name}"), "tier names are letters, digits and underscores".into());
            }
            if tier.channels == 0 {
                return fail(&format!("device.tiers.{name}.channels"), "must be at least 1".into());
            }
            if tier.chips == 0 || !tier.chips.is_multiple_of(tier.channels) {
                return fail(
                    &format!("device.tiers.{name}.chips"),
                    format!("must be a positive multiple of the tier's {} channels, got {}", tier.channels, tier.chips),
                );
            }
            if tier.overwrite_target == OverwriteTarget::WriteTier && tier.write_unit != WriteUnit::Block {
                return fail(
                    &format!("device.tiers.{name}.overwrite_target"),
                    "applies to a tier with write_unit = \"block\" only".into(),
                );
            }
            if tier.open_incoming_blocks != OpenIncomingBlocks::One && tier.write_unit != WriteUnit::Block {
                return fail(
                    &format!("device.tiers.{name}.open_incoming_blocks"),
                    "applies to a tier with write_unit = \"block\" only (a page-unit tier stripes every page)".into(),
                );
            }
            if tier.overwritten_block == OverwrittenBlock::PageInvalidated
                && tier.overwrite_target != OverwriteTarget::WriteTier
            {
                // With the new data going into the rewritten block, the block is rewritten by definition.
                return fail(
                    &format!("device.tiers.{name}.overwritten_block"),
                    "\"page_invalidated\" applies with overwrite_target = \"write_tier\" only (the new data leaves the block)".into(),
                );
            }
            if let Some(fraction) = tier.overprovisioning_fraction {
                if !(0.0..0.95).contains(&fraction) {
                    return fail(
                        &format!("device.tiers.{name}.overprovisioning_fraction"),
                        format!("must be in [0, 0.95), got {fraction}"),
                    );
                }
            }
        }
        if device.tiers.len() > crate::tier::MAX_TIERS {
            return fail(
                "device.tiers",
                format!("at most {} tiers are supported, got {}", crate::tier::MAX_TIERS, device.tiers.len()),
            );
        }
        if let Some(budget) = device.chip_budget {
            let chips: u64 = device.tiers.values().map(|tier| tier.chips as u64).sum();
            if chips != budget as u64 {
                let split: Vec<String> =
                    device.tiers.iter().map(|(name, tier)| format!("{name} {}", tier.chips)).collect();
                return fail(
                    "device.chip_budget",
                    format!("the tiers' chips ({}) add up to {chips}, not the budget of {budget}", split.join(" + ")),
                );
            }
        }
    } else {
        for (table, given) in [
            ("geometry", device.geometry.is_some()),
            ("nand", device.nand.is_some()),
            ("channel", device.channel.is_some()),
        ] {
            if !given {
                return fail(
                    &format!("device.{table}"),
                    "missing: give device.geometry, device.nand and device.channel, or named [device.tiers.*]".into(),
                );
            }
        }
        if device.chip_budget.is_some() {
            return fail("device.chip_budget", "applies to a device with [device.tiers.*] only".into());
        }
    }
    let tiers = device.tiers();
    let (mut dies, mut pages, mut channels) = (0u64, 0u64, 0u64);
    for tier in &tiers {
        validate_tier(tier)?;
        let g = &tier.geometry;
        dies += g.channels as u64 * g.chips_per_channel as u64 * g.dies_per_chip as u64;
        pages += g.channels as u64
            * g.chips_per_channel as u64
            * g.dies_per_chip as u64
            * g.planes_per_die as u64
            * g.blocks_per_plane as u64
            * g.pages_per_block as u64;
        channels += g.channels as u64;
    }
    if let Some(first) = tiers.first() {
        for tier in &tiers[1..] {
            if tier.geometry.page_size_bytes != first.geometry.page_size_bytes {
                return fail(
                    &tier.field("geometry", "page_size_bytes"),
                    format!(
                        "every tier must have the host's page size: {} has {} bytes, {} has {}",
                        tier.name, tier.geometry.page_size_bytes, first.name, first.geometry.page_size_bytes
                    ),
                );
            }
        }
    }
    // The scheduler packs a channel number into 16 bits and a die number into 20.
    if channels > u16::MAX as u64 {
        return fail(
            &tiers.first().map_or("device".into(), |t| t.field("geometry", "channels")),
            format!("at most {} channels are supported, got {channels}", u16::MAX),
        );
    }
    if dies >= 1 << 20 {
        return fail("device.geometry", format!("{dies} dies; at most {} are supported", (1u64 << 20) - 1));
    }
    if pages >= u32::MAX as u64 {
        return fail(
            "device.geometry",
            format!(
                "{pages} physical pages; at most {} are supported (physical page numbers are 32-bit)",
                u32::MAX - 1
            ),
        );
    }
    Ok(())
}

/// Checks one tier's geometry, NAND timing, channel and energy.
fn validate_tier(tier: &TierSpec) -> Result<(), (String, String)> {
    let fail = |field: String, message: String| Err((field, message));
    let g = &tier.geometry;
    for (name, value) in [
        ("channels", g.channels),
        ("chips_per_channel", g.chips_per_channel),
        ("dies_per_chip", g.dies_per_chip),
        ("planes_per_die", g.planes_per_die),
        ("blocks_per_plane", g.blocks_per_plane),
        ("pages_per_block", g.pages_per_block),
        ("page_size_bytes", g.page_size_bytes),
    ] {
        if value == 0 {
            return fail(tier.field("geometry", name), "must be at least 1".into());
        }
    }
    if !g.page_size_bytes.is_power_of_two() || g.page_size_bytes < 512 {
        return fail(
            tier.field("geometry", "page_size_bytes"),
            format!("must be a power of two of at least 512, got {}", g.page_size_bytes),
        );
    }
    if g.pages_per_block > 0x7FFF {
        return fail(
            tier.field("geometry", "pages_per_block"),
            format!("at most 32767 are supported, got {}", g.pages_per_block),
        );
    }
    let nand = &tier.nand;
    let bits = nand.cell_type.bits_per_cell();
    if !(g.pages_per_block as usize).is_multiple_of(bits) {
        return fail(
            tier.field("geometry", "pages_per_block"),
            format!("must be a multiple of {bits} (pages per word line of {:?})", nand.cell_type),
        );
    }
    for (name, values) in [("read_latency_ns", &nand.read_latency_ns), ("program_latency_ns", &nand.program_latency_ns)]
    {
        if values.len() != 1 && values.len() != bits {
            return fail(
                tier.field("nand", name),
                format!("give 1 value or {bits} (one per page type of {:?}), got {}", nand.cell_type, values.len()),
            );
        }
        if values.contains(&0) {
            return fail(tier.field("nand", name), "latencies must be positive".into());
        }
    }
    if nand.erase_latency_ns == 0 {
        return fail(tier.field("nand", "erase_latency_ns"), "must be positive".into());
    }
    let channel = &tier.channel;
    if let Some(message) = channel.transfer_rate_problem() {
        return fail(tier.field("channel", "transfer_rate_mts"), message);
    }
    if channel.bus_width_bits == 0 || !channel.bus_width_bits.is_multiple_of(8) {
        return fail(
            tier.field("channel", "bus_width_bits"),
            format!("must be a positive multiple of 8, got {}", channel.bus_width_bits),
        );
    }
    for (name, value, max) in channel.electrical() {
        if !(0.0..=max).contains(&value) {
            return fail(
                tier.field("channel", name),
                format!("must be a number from 0 to {max}, got {}", readable(value)),
            );
        }
    }
    if let Some((name, message)) = channel.pin_problem() {
        return fail(tier.field("channel", name), message);
    }
    let energy = &tier.energy;
    for (name, value) in [
        ("program_page_uj", energy.program_page_uj),
        ("read_sense_uj", energy.read_sense_uj),
        ("extra_sensing_level_uj", energy.extra_sensing_level_uj),
        ("page_transfer_uj", energy.page_transfer_uj),
        ("decode_uj", energy.decode_uj),
        ("erase_block_uj", energy.erase_block_uj),
        ("supply_voltage_v", energy.supply_voltage_v),
        ("active_current_ma", energy.active_current_ma),
        ("idle_current_ma", energy.idle_current_ma),
    ] {
        if !(value >= 0.0 && value.is_finite()) {
            return fail(tier.field("energy", name), format!("must be a non-negative number, got {value}"));
        }
    }
    Ok(())
}
