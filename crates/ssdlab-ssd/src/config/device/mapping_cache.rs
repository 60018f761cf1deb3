//! `[device.mapping_cache]`: a DFTL-style cached mapping table (CMT) in the controller's DRAM over
//! translation pages stored in flash (issue 37). Absent: the ideal mapping (the whole table in
//! DRAM, no flash work for it), every preset but `mqsim-default`.
//!
//! The cache holds mapping entries (one per host page), least recently used first out; its size is
//! `capacity_entries`, or `capacity_bytes` / `entry_bytes`. A translation page holds
//! `translation_entries_per_page` entries. MQSim's defaults (`Address_Mapping_Unit_Page_Level.cpp`):
//! an entry takes ceil((2 log2(physical pages) + sectors per page) / 8) bytes in the CMT and
//! ceil((log2(physical pages) + sectors per page) / 8) in a translation page; unset, both are
//! computed that way from the device. Its default drive (`ssdconfig.xml`): `CMT_Capacity` =
//! 2,097,152 bytes.
//!
//! `sharing` (MQSim's `CMT_Sharing_Mode`): `shared`, one cache for every flow, or
//! `equal_partitioning`, each of n flows 1/n of the entries (its own LRU order and evictions), a
//! page's entry in the part of the flow whose logical range holds the page (with two flows or more
//! every flow must own a range; see `data_cache.rs`).

use super::data_cache::{validate_sharing, CacheSharing};
use crate::config::{MiddlewareKind, SimulationConfig, TierSpec};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MappingCacheConfig {
    /// false: the table is kept but the mapping is ideal (`--set device.mapping_cache.enabled=false`).
    #[serde(default = "default_enabled")]
    pub enabled: bool,
    /// DRAM given to the cache (entries = this / `entry_bytes`); or set `capacity_entries`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity_bytes: Option<u64>,
    /// Entries the cache holds (instead of `capacity_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity_entries: Option<u64>,
    /// Bytes of one cached entry (unset: MQSim's formula, see the module).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_bytes: Option<u64>,
    /// Entries in one translation page (unset: the page size over MQSim's translation entry size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translation_entries_per_page: Option<u64>,
    /// Where a translation page is found after its write-back (`WrittenBackPages`).
    #[serde(default)]
    pub written_back_pages: WrittenBackPages,
    /// Between flows: one cache (`shared`) or 1/n of the entries each (`equal_partitioning`).
    #[serde(default)]
    pub sharing: CacheSharing,
}

/// Where a translation page written back is read from on a later miss. `in_flash` (the default):
/// from flash, as DFTL. `kept_in_dram`: it stays in DRAM and a later miss on it needs no flash
/// read, MQSim's behaviour on its default drive (the pages it writes back stay "departing" in DRAM;
/// on docs/mqsim.md's 1M-request trace it queued 15,953 translation writes and carried out none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WrittenBackPages {
    #[default]
    InFlash,
    KeptInDram,
}

fn default_enabled() -> bool {
    true
}

/// ceil(log2(n)) for n >= 1.
fn bits_for(n: u64) -> u64 {
    64 - n.saturating_sub(1).leading_zeros() as u64
}

impl MappingCacheConfig {
    /// Bytes of one cached entry on a device of `physical_pages` pages of `sectors_per_page`.
    pub fn entry_bytes_for(&self, physical_pages: u64, sectors_per_page: u64) -> u64 {
        self.entry_bytes.unwrap_or_else(|| (2 * bits_for(physical_pages) + sectors_per_page).div_ceil(8))
    }

    /// Entries in one translation page of `page_bytes`.
    pub fn translation_entries_for(&self, physical_pages: u64, sectors_per_page: u64, page_bytes: u64) -> u64 {
        self.translation_entries_per_page
            .unwrap_or_else(|| page_bytes / (bits_for(physical_pages) + sectors_per_page).div_ceil(8).max(1))
    }

    /// Entries the cache holds.
    pub fn entries_for(&self, physical_pages: u64, sectors_per_page: u64) -> u64 {
        match (self.capacity_entries, self.capacity_bytes) {
            (Some(entries), _) => entries,
            (None, Some(bytes)) => bytes / self.entry_bytes_for(physical_pages, sectors_per_page).max(1),
            (None, None) => 0,
        }
    }
}

/// Checks `[device.mapping_cache]` on a device of `physical_pages` pages of `page_bytes`.
pub(super) fn validate(
    cache: &MappingCacheConfig,
    physical_pages: u64,
    page_bytes: u64,
) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((format!("device.mapping_cache.{field}"), message));
    let sectors = page_bytes.div_ceil(512);
    match (cache.capacity_bytes, cache.capacity_entries) {
        (Some(_), Some(_)) => {
            return fail("capacity_entries", "set capacity_bytes or capacity_entries, not both".into());
        }
        (None, None) => return fail("capacity_bytes", "missing: set capacity_bytes or capacity_entries".into()),
        _ => {}
    }
    if cache.entry_bytes == Some(0) {
        return fail("entry_bytes", "must be positive".into());
    }
    if cache.translation_entries_per_page == Some(0) {
        return fail("translation_entries_per_page", "must be positive".into());
    }
    let entries = cache.entries_for(physical_pages, sectors);
    if entries == 0 {
        let field = if cache.capacity_entries.is_some() { "capacity_entries" } else { "capacity_bytes" };
        return fail(
            field,
            format!("holds no entry (an entry takes {} bytes)", cache.entry_bytes_for(physical_pages, sectors)),
        );
    }
    if entries > u32::MAX as u64 / 2 {
        let field = if cache.capacity_entries.is_some() { "capacity_entries" } else { "capacity_bytes" };
        return fail(field, format!("{entries} entries is more than the cache addresses"));
    }
    if cache.translation_entries_for(physical_pages, sectors, page_bytes) == 0 {
        return fail("translation_entries_per_page", format!("a {page_bytes}-byte page holds no entry: set it"));
    }
    Ok(())
}

/// The mapping-table cache's checks, its table's (sized by the device's physical pages) and against
/// the rest of the config (one NAND tier, no SCM, no middleware).
pub(super) fn validate_with(config: &SimulationConfig, tiers: &[TierSpec]) -> Result<(), (String, String)> {
    if let Some(cache) = &config.device.mapping_cache {
        let physical_pages: u64 = tiers
            .iter()
            .map(|tier| {
                let g = &tier.geometry;
                [
                    g.channels,
                    g.chips_per_channel,
                    g.dies_per_chip,
                    g.planes_per_die,
                    g.blocks_per_plane,
                    g.pages_per_block,
                ]
                .iter()
                .map(|&n| n as u64)
                .product::<u64>()
            })
            .sum();
        validate(cache, physical_pages, config.device.page_size_bytes() as u64)?;
        validate_sharing(cache.sharing, "device.mapping_cache", config)?;
        if cache.enabled {
            let refused = if config.device.is_tiered() {
                Some(("device.tiers", "a tiered device"))
            } else if config.device.scm.is_some() {
                Some(("device.scm", "SCM"))
            } else if config.middleware.kind != MiddlewareKind::None {
                Some(("middleware.kind", "a middleware (its logical pages are not the host's)"))
            } else {
                None
            };
            if let Some((field, what)) = refused {
                return Err((
                    "device.mapping_cache".into(),
                    format!(
                        "a mapping-table cache with {what} is not modelled; remove [device.mapping_cache] or {field}"
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache() -> MappingCacheConfig {
        MappingCacheConfig {
            enabled: true,
            capacity_bytes: Some(2_097_152),
            capacity_entries: None,
            entry_bytes: None,
            translation_entries_per_page: None,
            written_back_pages: WrittenBackPages::InFlash,
            sharing: CacheSharing::Shared,
        }
    }

    #[test]
    fn mqsim_default_drive_sizes() {
        // 2^26 physical pages of 16 sectors: 9-byte entries, 6-byte translation entries.
        let pages = 1u64 << 26;
        assert_eq!(cache().entry_bytes_for(pages, 16), 9);
        assert_eq!(cache().entries_for(pages, 16), 233_016);
        assert_eq!(cache().translation_entries_for(pages, 16, 8192), 1_365);
    }

    #[test]
    fn each_wrong_field_is_named() {
        assert!(validate(&cache(), 1 << 20, 4096).is_ok());
        let field = |c: MappingCacheConfig| validate(&c, 1 << 20, 4096).unwrap_err().0;
        assert_eq!(
            field(MappingCacheConfig { capacity_entries: Some(4), ..cache() }),
            "device.mapping_cache.capacity_entries"
        );
        assert_eq!(
            field(MappingCacheConfig { capacity_bytes: None, ..cache() }),
            "device.mapping_cache.capacity_bytes"
        );
        assert_eq!(
            field(MappingCacheConfig { capacity_bytes: Some(3), ..cache() }),
            "device.mapping_cache.capacity_bytes"
        );
        assert_eq!(field(MappingCacheConfig { entry_bytes: Some(0), ..cache() }), "device.mapping_cache.entry_bytes");
        assert_eq!(
            field(MappingCacheConfig { translation_entries_per_page: Some(0), ..cache() }),
            "device.mapping_cache.translation_entries_per_page"
        );
    }
}
