//! The SCM's size (seed 001): the hybrid's M-SCM is a fraction of the NAND's physical capacity (the
//! seed's 25 %); the All S-SCM SSD holds the logical capacity plus a spare of free slots for dynamic
//! wear leveling. Checked against what the sector store can address.

use super::config_invalid;
use crate::config::{PlacementKind, SimulationConfig, SCM_SECTOR_BYTES};
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::scm::ScmPlacement;

/// The SCM and its placement for `config` on `layout` with `logical_pages` host pages (None without SCM).
pub(super) fn build(
    config: &SimulationConfig,
    layout: &DeviceLayout,
    logical_pages: u64,
    keep_tags: bool,
) -> Result<Option<ScmPlacement>, SimulationError> {
    let Some(media) = config.device.scm.as_ref().filter(|_| config.placement.policy.uses_scm()) else {
        return Ok(None);
    };
    let sectors_per_page = config.device.page_size_bytes() as u64 / SCM_SECTOR_BYTES;
    let only = config.placement.policy == PlacementKind::ScmOnly;
    let slots = if only {
        (logical_pages as f64 * sectors_per_page as f64 * (1.0 + media.spare_fraction)).ceil() as u64
    } else {
        (layout.capacity_bytes() as f64 * media.capacity_fraction_of_nand / SCM_SECTOR_BYTES as f64).floor() as u64
    };
    let logical_sectors = logical_pages * sectors_per_page;
    if logical_sectors >= u32::MAX as u64 || slots >= u32::MAX as u64 {
        return Err(config_invalid(
            config,
            "device.scm",
            format!(
                "{slots} SCM sectors for {logical_sectors} logical sectors; at most 2^32 - 1 of each are supported"
            ),
        ));
    }
    if slots < 4 * sectors_per_page {
        return Err(config_invalid(
            config,
            "device.scm.capacity_fraction_of_nand",
            format!("{slots} SCM sectors is less than four pages of {sectors_per_page}; enlarge it"),
        ));
    }
    Ok(Some(ScmPlacement::new(&config.placement.hybrid_scm, slots as u32, sectors_per_page as u32, only, keep_tags)))
}
