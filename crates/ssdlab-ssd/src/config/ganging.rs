//! `[device.ganging]`: DiskSim's ganged device, the system seed 002 evaluated its read path on (§5.1:
//! "The system works in the synchronous-share-control ganging mode as presented in [15], and has 8
//! channels and each channel contains 8 flash chips").
//!
//! A gang is `chips_per_gang` chips (DiskSim's `Elements per gang`; chips counted channel-major, so
//! a channel's chips form one gang when the gang size equals the chips per channel) that serve one
//! request piece at a time, as one server: `scheduler/gang.rs` gives the timing and its source
//! (benh/disksim, `ssdmodel/ssd_gang.c`, the synchronous path).
//!
//! No share mode is offered: DiskSim compiles only the synchronous path (`SYNC_GANG` is the constant
//! 1, ssd.h:407), which never reads its `Gang share` parameter (only the uncompiled asynchronous
//! path does, ssd_gang.c:473), so "share-control" and "shared bus" time identically there.
//! The ganged device runs a one-tier NAND device with the ideal mapping table and no DRAM cache;
//! other combinations are refused by name.

use super::{DeviceConfig, FtlConfig, GcMode, ReadPathConfig};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GangingConfig {
    /// Off: every die and channel independent, as without the table (so a preset's gangs can be
    /// switched off with `--set device.ganging.enabled=false`).
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
    /// Chips per gang; gang g holds chips g x n .. (g + 1) x n in channel-major order.
    pub chips_per_gang: u32,
    /// How the pages of one read piece use the gang's chips.
    #[serde(default)]
    pub element_overlap: ElementOverlap,
}

fn enabled_by_default() -> bool {
    true
}

impl GangingConfig {
    /// The gangs of a device config, if it has them switched on.
    pub fn of(device: &DeviceConfig) -> Option<&GangingConfig> {
        device.ganging.as_ref().filter(|ganging| ganging.enabled)
    }
}

/// Whether a gang's chips sense a read piece's pages one after another or together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ElementOverlap {
    /// DiskSim as compiled: every page of a read piece pays its array read and its transfer in turn
    /// (ssd_gang.c `ssd_gang_read_sync`: `acctime = page_read_latency` for every page).
    #[default]
    Serial,
    /// The chips of the piece sense their pages together and only the transfers queue on the gang's
    /// bus (the same function's commented-out line that charges the array read to the first page
    /// only); pages on one chip still sense in turn.
    SensedTogether,
}

impl ElementOverlap {
    pub fn name(self) -> &'static str {
        match self {
            ElementOverlap::Serial => "serial",
            ElementOverlap::SensedTogether => "sensed_together",
        }
    }
}

pub(super) fn validate(
    ganging: &GangingConfig,
    device: &DeviceConfig,
    ftl: &FtlConfig,
    read_path: &ReadPathConfig,
) -> Result<(), (String, String)> {
    let field = "device.ganging.chips_per_gang";
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    let refuse = |what: &str, remove: &str| {
        fail("device.ganging", format!("the ganged device is modelled for a one-tier NAND device with the ideal mapping table and no DRAM cache; {what} is not: remove {remove} or [device.ganging]"))
    };
    if device.is_tiered() {
        return refuse("a tiered device", "[device.tiers.*]");
    }
    if device.scm.is_some() {
        return refuse("SCM", "[device.scm]");
    }
    if device.data_cache.as_ref().is_some_and(|cache| cache.enabled) {
        return refuse("a DRAM data cache", "[device.data_cache]");
    }
    if device.mapping_cache.as_ref().is_some_and(|cache| cache.enabled) {
        return refuse("a mapping-table cache", "[device.mapping_cache]");
    }
    let chips = device.tiers().first().map_or(0, |tier| tier.geometry.channels * tier.geometry.chips_per_channel);
    let size = ganging.chips_per_gang;
    if size == 0 {
        return fail(field, "must be at least 1 (a gang of one chip is DiskSim's `Elements per gang = 1`)".into());
    }
    if !chips.is_multiple_of(size) {
        return fail(field, format!("{size} does not divide the device's {chips} chips into whole gangs"));
    }
    if ftl.garbage_collection.mode != GcMode::Foreground {
        return fail(
            "ftl.garbage_collection.mode",
            "a ganged device cleans in the foreground as DiskSim does (a gang cleans before it serves its next piece): set mode = \"foreground\"".into(),
        );
    }
    let classes = read_path.interleave_groups.iter().map(Vec::len).sum::<usize>() as u32;
    if classes > 0 && !size.is_multiple_of(classes) {
        return fail(
            "read_path.interleave_groups",
            format!("interleaving groups over {classes} chip classes would put a codeword's parts in two gangs of {size} chips; use a gang size that is a multiple of {classes}"),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::config::SimulationConfig;

    fn load(extra: &[&str]) -> Result<SimulationConfig, String> {
        let mut overrides: Vec<String> = vec!["device.ganging.chips_per_gang=8".into()];
        overrides.extend(extra.iter().map(|s| s.to_string()));
        let text = include_str!("../../../../configs/seed002-ldpc.toml");
        SimulationConfig::from_toml_str(text, "seed002-ldpc.toml", &overrides).map_err(|e| e.to_string())
    }

    #[test]
    fn a_channel_per_gang_is_accepted() {
        let config = load(&[]).unwrap();
        assert_eq!(config.device.ganging.as_ref().map(|g| g.chips_per_gang), Some(8));
    }

    #[test]
    fn gangs_switched_off_are_not_checked() {
        let config = load(&["device.ganging.enabled=false", "ftl.garbage_collection.mode=\"background\""]).unwrap();
        assert!(super::GangingConfig::of(&config.device).is_none());
    }

    #[test]
    fn gangs_that_do_not_divide_the_chips_are_refused_by_name() {
        let message = load(&["device.ganging.chips_per_gang=7"]).unwrap_err();
        assert!(message.contains("device.ganging.chips_per_gang") && message.contains("64 chips"), "{message}");
        let message = load(&["device.ganging.chips_per_gang=0"]).unwrap_err();
        assert!(message.contains("at least 1"), "{message}");
    }

    #[test]
    fn background_cleaning_and_split_codewords_are_refused() {
        let message = load(&["ftl.garbage_collection.mode=\"background\""]).unwrap_err();
        assert!(message.contains("foreground"), "{message}");
        let message =
            load(&["device.ganging.chips_per_gang=2", "read_path.interleave_groups=[[0,2],[1,3]]"]).unwrap_err();
        assert!(message.contains("two gangs"), "{message}");
    }
}
