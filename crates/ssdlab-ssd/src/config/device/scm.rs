//! `[device.scm]`: storage-class memory beside (or instead of) the NAND, and `[placement.hybrid_scm]`:
//! how seed 001's hybrid SSD decides what goes there.
//!
//! SCM is addressed in 512-byte sectors, overwritten in place and never erased (seed 001 Table 1:
//! M-SCM 100 ns per sector read and write; S-SCM read 0.1-10 us, write 1 us per sector; memory VDD
//! 3.3 V (M-SCM) / 1.8 V (S-SCM); I/O VDD 1.2 V; pins 5 pF, 0.3 pF with TSV; endurance about 1e9
//! writes). Its banks work in parallel behind its own channels (toggle rate up to 1066 MT/s).

use super::ChannelConfig;
use crate::config::{DeleteTarget, MiddlewareKind, PlacementKind, SimulationConfig};
use serde::{Deserialize, Serialize};

/// The sector size SCM is addressed in (seed 001 Table 1: "sector (512 byte)").
pub const SCM_SECTOR_BYTES: u64 = 512;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScmConfig {
    /// A label for results and reports (`m-scm`, `s-scm`).
    #[serde(default = "default_media_name")]
    pub media: String,
    /// Hybrid: SCM capacity as a fraction of the NAND's physical capacity (seed 001: 25 %).
    #[serde(default = "default_capacity_fraction")]
    pub capacity_fraction_of_nand: f64,
    /// SCM only (`placement.policy = "scm_only"`): sectors beyond the logical capacity, the free
    /// slots dynamic wear leveling moves hot data into.
    #[serde(default = "default_spare_fraction")]
    pub spare_fraction: f64,
    /// Independent banks (each one sector operation at a time); sectors are striped over them.
    pub banks: u32,
    pub read_latency_ns_per_sector: u64,
    pub write_latency_ns_per_sector: u64,
    /// Rated writes per sector (reported beside the most-written sector; not enforced).
    #[serde(default = "default_endurance")]
    pub endurance_writes: f64,
    /// Memory core supply and the current a busy bank draws (core energy: busy time x V x I).
    pub memory_voltage_v: f64,
    #[serde(default)]
    pub active_current_ma: f64,
    #[serde(default)]
    pub idle_current_ma: f64,
    /// The SCM's own channels (banks are spread over them): rate, width, command cycles, I/O
    /// voltage, pin capacitance and the pin readings (I/O energy: `io_pins.rs`).
    pub channels: u32,
    pub channel: ChannelConfig,
}

fn default_media_name() -> String {
    "scm".into()
}
fn default_capacity_fraction() -> f64 {
    0.25
}
fn default_spare_fraction() -> f64 {
    0.02
}
fn default_endurance() -> f64 {
    1e9
}

/// Seed 001's hybrid placement: what marks data hot or fragmented, and when SCM is emptied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HybridScmConfig {
    /// Entries of the LRU table of recent write addresses (NAND-page addresses): a write to an
    /// address still in the table is hot.
    pub hot_table_entries: u32,
    /// A write covering less than this fraction of a NAND page is fragmented (goes to SCM); a page
    /// whose SCM part covers less is fragmented data (not evicted while anything else can be).
    pub fragment_fraction: f64,
    /// Eviction starts when a write would leave less than this fraction of the SCM free...
    pub evict_below_free_fraction: f64,
    /// ...and goes on until this fraction is free after the write.
    pub evict_to_free_fraction: f64,
    /// Dynamic wear leveling: an overwrite moves the sector to the least-written free slot when its
    /// slot has been written this many times more than that slot.
    pub wear_leveling_threshold_writes: u32,
}

impl Default for HybridScmConfig {
    fn default() -> Self {
        HybridScmConfig {
            hot_table_entries: 4096,
            fragment_fraction: 0.5,
            evict_below_free_fraction: 0.01,
            evict_to_free_fraction: 0.02,
            wear_leveling_threshold_writes: 1000,
        }
    }
}

impl HybridScmConfig {
    pub fn is_default(&self) -> bool {
        *self == HybridScmConfig::default()
    }
}

pub(super) fn validate(scm: &ScmConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((format!("device.scm.{field}"), message));
    if !(scm.capacity_fraction_of_nand > 0.0 && scm.capacity_fraction_of_nand <= 16.0) {
        return fail("capacity_fraction_of_nand", format!("{} is outside (0, 16]", scm.capacity_fraction_of_nand));
    }
    if !(0.0..=1.0).contains(&scm.spare_fraction) {
        return fail("spare_fraction", format!("{} is outside [0, 1]", scm.spare_fraction));
    }
    if scm.banks == 0 || scm.banks > 65_535 {
        return fail("banks", format!("{} is outside 1..=65535", scm.banks));
    }
    if scm.channels == 0 || scm.channels > scm.banks {
        return fail("channels", format!("{} must be at least 1 and at most the {} banks", scm.channels, scm.banks));
    }
    if scm.read_latency_ns_per_sector == 0 || scm.write_latency_ns_per_sector == 0 {
        let field = if scm.read_latency_ns_per_sector == 0 {
            "read_latency_ns_per_sector"
        } else {
            "write_latency_ns_per_sector"
        };
        return fail(field, "must be positive".into());
    }
    if scm.endurance_writes.is_nan() || scm.endurance_writes <= 0.0 {
        return fail("endurance_writes", "must be positive".into());
    }
    for (field, value) in [
        ("memory_voltage_v", scm.memory_voltage_v),
        ("active_current_ma", scm.active_current_ma),
        ("idle_current_ma", scm.idle_current_ma),
    ] {
        if !(value >= 0.0 && value.is_finite()) {
            return fail(field, format!("{value} must be a finite, non-negative number"));
        }
    }
    let channel = &scm.channel;
    if let Some(message) = channel.transfer_rate_problem() {
        return fail("channel.transfer_rate_mts", message);
    }
    if channel.bus_width_bits == 0 || !channel.bus_width_bits.is_multiple_of(8) {
        return fail("channel.bus_width_bits", format!("{} must be a positive multiple of 8", channel.bus_width_bits));
    }
    for (name, value, max) in channel.electrical() {
        if !(0.0..=max).contains(&value) {
            return fail(
                &format!("channel.{name}"),
                format!("must be a number from 0 to {max}, got {}", super::readable(value)),
            );
        }
    }
    if let Some((name, message)) = channel.pin_problem() {
        return fail(&format!("channel.{name}"), message);
    }
    Ok(())
}

pub(super) fn validate_hybrid(hybrid: &HybridScmConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((format!("placement.hybrid_scm.{field}"), message));
    if hybrid.hot_table_entries == 0 {
        return fail("hot_table_entries", "must be at least 1".into());
    }
    if !(hybrid.fragment_fraction > 0.0 && hybrid.fragment_fraction <= 1.0) {
        return fail("fragment_fraction", format!("{} is outside (0, 1]", hybrid.fragment_fraction));
    }
    if !(hybrid.evict_below_free_fraction > 0.0 && hybrid.evict_below_free_fraction < 1.0) {
        return fail("evict_below_free_fraction", format!("{} is outside (0, 1)", hybrid.evict_below_free_fraction));
    }
    if !(hybrid.evict_to_free_fraction >= hybrid.evict_below_free_fraction && hybrid.evict_to_free_fraction < 1.0) {
        return fail(
            "evict_to_free_fraction",
            format!(
                "{} must be at least evict_below_free_fraction ({}) and below 1",
                hybrid.evict_to_free_fraction, hybrid.evict_below_free_fraction
            ),
        );
    }
    if hybrid.wear_leveling_threshold_writes == 0 {
        return fail("wear_leveling_threshold_writes", "must be at least 1".into());
    }
    Ok(())
}

/// The SCM's checks against the rest of the config (a table's own checks are `validate` and
/// `validate_hybrid`): the placement policy and the SCM go together, on one NAND tier, with no
/// middleware, deletes to the FTL, no write heat, no interleaving, pages of whole SCM sectors.
pub(super) fn validate_with(config: &SimulationConfig) -> Result<(), (String, String)> {
    if let Some(scm) = &config.device.scm {
        validate(scm)?;
    }
    validate_hybrid(&config.placement.hybrid_scm)?;
    if config.placement.policy.uses_scm() {
        let policy = if config.placement.policy == PlacementKind::ScmOnly { "scm_only" } else { "hybrid_scm" };
        if config.device.scm.is_none() {
            return Err((
                "device.scm".into(),
                format!("placement.policy = \"{policy}\" needs the SCM: add a [device.scm] table"),
            ));
        }
        if config.device.is_tiered() {
            return Err(("device.tiers".into(), format!("placement.policy = \"{policy}\" puts SCM beside one NAND tier; write the NAND as device.geometry/nand/channel")));
        }
        if config.middleware.kind != MiddlewareKind::None {
            return Err((
                "middleware.kind".into(),
                format!("placement.policy = \"{policy}\" places host sectors itself; use middleware.kind = \"none\""),
            ));
        }
        if config.host.delete_target != DeleteTarget::Ftl {
            return Err((
                "host.delete_target".into(),
                format!("placement.policy = \"{policy}\" deletes in SCM and NAND alike; use \"ftl\""),
            ));
        }
        if config.output.write_heat {
            return Err(("output.write_heat".into(), format!("counts host writes per page by NAND tier; with placement.policy = \"{policy}\" a page's sectors may be in SCM and NAND at once")));
        }
        if !config.read_path.interleave_groups.is_empty() {
            return Err(("read_path.interleave_groups".into(), format!("placement.policy = \"{policy}\" reads sectors from SCM; data placement interleaving is for NAND-only devices")));
        }
        let page = config.device.page_size_bytes() as u64;
        if !page.is_multiple_of(SCM_SECTOR_BYTES) || page / SCM_SECTOR_BYTES > 64 {
            return Err(("device.geometry.page_size_bytes".into(), format!("{page} bytes: with SCM a page must be a multiple of {SCM_SECTOR_BYTES}-byte sectors, at most 64 of them")));
        }
    } else if config.device.scm.is_some() {
        return Err((
            "placement.policy".into(),
            "the device has SCM ([device.scm]): use \"hybrid_scm\" or \"scm_only\" so something is placed there".into(),
        ));
    }
    Ok(())
}
