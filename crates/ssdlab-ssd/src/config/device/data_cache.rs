//! `[device.data_cache]`: a write-back data cache in the controller's DRAM (issue 37). Absent: no
//! cache (every preset but `mqsim-default`).
//!
//! A line is one NAND page, filled sector by sector (512 B) as host writes arrive; reads are served
//! from it when it holds all their sectors. Dirty lines are destaged to flash in the background when
//! they pass `high_watermark_dirty_fraction` of the lines (down to `low_watermark_dirty_fraction`),
//! and at eviction (least recently used first). The DRAM is one bus: an access takes
//! `access_latency_ns` plus its bytes at `bandwidth_mb_per_s`. MQSim's default drive
//! (`ssdconfig.xml`): 256 MiB (`Data_Cache_Capacity`), tRCD = tCL = 13 ns, 100 MT/s with 1-byte
//! bursts (`Data_Cache_DRAM_*`; see `configs/mqsim-default.toml` for what that makes here).
//!
//! `sharing` (MQSim's `Data_Cache_Sharing_Mode`): `shared`, one cache for every flow, or
//! `equal_partitioning`, each of n flows its own cache of 1/n of the lines (its own LRU order,
//! watermarks and evictions). A page's partition is that of the flow whose logical range holds it,
//! so with two flows or more every flow must own a range (be given device units:
//! `host.flows[i].channels` etc.); with one flow, or none, partitioning is sharing.

use crate::config::SimulationConfig;
use serde::{Deserialize, Serialize};

/// How a cache in the controller's DRAM is shared between flows: MQSim's `Data_Cache_Sharing_Mode`
/// and `CMT_Sharing_Mode`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheSharing {
    /// One cache for every flow: a flow's misses may evict another's lines (MQSim's `SHARED`).
    #[default]
    Shared,
    /// Each of n flows gets 1/n of the capacity and evicts only its own (MQSim's
    /// `EQUAL_PARTITIONING`, `EQUAL_SIZE_PARTITIONING` for the CMT).
    EqualPartitioning,
}

impl CacheSharing {
    pub fn name(self) -> &'static str {
        match self {
            CacheSharing::Shared => "shared",
            CacheSharing::EqualPartitioning => "equal_partitioning",
        }
    }
}

/// Checks a cache's `sharing` against the flows (`table`: `device.data_cache` or
/// `device.mapping_cache`): partitions follow the flows' logical ranges, so with two flows or more
/// each must own one.
pub(super) fn validate_sharing(
    sharing: CacheSharing,
    table: &str,
    config: &SimulationConfig,
) -> Result<(), (String, String)> {
    let flows = &config.host.flows;
    if sharing == CacheSharing::EqualPartitioning && flows.len() > 1 {
        if let Some(index) = flows.iter().position(|flow| !flow.is_confined()) {
            return Err((
                format!("{table}.sharing"),
                format!(
                    "equal_partitioning gives each flow the part of the cache for its own logical range, but flow `{}` (host.flows[{index}]) has none: give it device units (host.flows[{index}].channels, chips, dies or planes; listing every channel gives it the whole device's share), or use sharing = \"shared\"",
                    flows[index].name
                ),
            ));
        }
    }
    Ok(())
}

/// The sector a data cache line is filled in (a page is 1..=64 of them with a cache).
pub const DATA_CACHE_SECTOR_BYTES: u64 = 512;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataCacheConfig {
    /// false: the table is kept but no cache is built (`--set device.data_cache.enabled=false` turns
    /// a preset's cache off; the run is then exactly the run without the table).
    #[serde(default = "default_enabled")]
    pub enabled: bool,
    /// DRAM given to cached data; lines = capacity / page size.
    pub capacity_bytes: u64,
    /// Fixed time of every DRAM access (row activation and column access: MQSim's tRCD + tCL).
    pub access_latency_ns: u64,
    /// Data rate of the DRAM bus (1 MB/s = 10^6 bytes per second).
    pub bandwidth_mb_per_s: u64,
    /// Background destage starts when more than this fraction of the lines is dirty...
    #[serde(default = "default_high_watermark")]
    pub high_watermark_dirty_fraction: f64,
    /// ...and goes on until at most this fraction is.
    #[serde(default = "default_low_watermark")]
    pub low_watermark_dirty_fraction: f64,
    /// Every host write is forced to flash (FUA): it completes when its pages are programmed; the
    /// cache keeps them, clean, for read hits.
    #[serde(default)]
    pub force_unit_access: bool,
    /// Between flows: one cache (`shared`) or 1/n of the lines each (`equal_partitioning`).
    #[serde(default)]
    pub sharing: CacheSharing,
}

fn default_enabled() -> bool {
    true
}
fn default_high_watermark() -> f64 {
    0.9
}
fn default_low_watermark() -> f64 {
    0.7
}

/// Checks `[device.data_cache]` against a device of `page_bytes` pages.
pub(super) fn validate(cache: &DataCacheConfig, page_bytes: u64) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((format!("device.data_cache.{field}"), message));
    if cache.capacity_bytes < page_bytes {
        return fail(
            "capacity_bytes",
            format!("{} bytes holds no line: a line is one {page_bytes}-byte page", cache.capacity_bytes),
        );
    }
    if cache.capacity_bytes / page_bytes > u32::MAX as u64 / 2 {
        return fail(
            "capacity_bytes",
            format!("{} bytes is more lines than the cache addresses", cache.capacity_bytes),
        );
    }
    if cache.bandwidth_mb_per_s == 0 {
        return fail("bandwidth_mb_per_s", "must be positive".into());
    }
    if cache.access_latency_ns > 1_000_000_000 {
        return fail("access_latency_ns", format!("{} ns is over a second", cache.access_latency_ns));
    }
    if !(0.0..=1.0).contains(&cache.high_watermark_dirty_fraction) {
        return fail(
            "high_watermark_dirty_fraction",
            format!("{} is outside [0, 1]", cache.high_watermark_dirty_fraction),
        );
    }
    if !(0.0..=cache.high_watermark_dirty_fraction).contains(&cache.low_watermark_dirty_fraction) {
        return fail(
            "low_watermark_dirty_fraction",
            format!(
                "{} must be in [0, high_watermark_dirty_fraction = {}]",
                cache.low_watermark_dirty_fraction, cache.high_watermark_dirty_fraction
            ),
        );
    }
    if !page_bytes.is_multiple_of(DATA_CACHE_SECTOR_BYTES) || page_bytes / DATA_CACHE_SECTOR_BYTES > 64 {
        return Err((
            "device.geometry.page_size_bytes".into(),
            format!("{page_bytes} bytes: with a data cache a page must be 1 to 64 sectors of {DATA_CACHE_SECTOR_BYTES} bytes"),
        ));
    }
    Ok(())
}

/// The data cache's checks, its table's and against the rest of the config (no SCM behind it).
pub(super) fn validate_with(config: &SimulationConfig) -> Result<(), (String, String)> {
    if let Some(cache) = &config.device.data_cache {
        validate(cache, config.device.page_size_bytes() as u64)?;
        validate_sharing(cache.sharing, "device.data_cache", config)?;
        if cache.enabled && config.device.scm.is_some() {
            return Err(("device.data_cache".into(), "a DRAM data cache in front of SCM is not modelled (the destage would have to follow seed 001's placement); remove [device.data_cache] or [device.scm]".into()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache() -> DataCacheConfig {
        DataCacheConfig {
            enabled: true,
            capacity_bytes: 1 << 20,
            access_latency_ns: 26,
            bandwidth_mb_per_s: 400,
            high_watermark_dirty_fraction: 0.9,
            low_watermark_dirty_fraction: 0.7,
            force_unit_access: false,
            sharing: CacheSharing::Shared,
        }
    }

    #[test]
    fn each_wrong_field_is_named() {
        assert!(validate(&cache(), 8192).is_ok());
        let field = |c: DataCacheConfig, page: u64| validate(&c, page).unwrap_err().0;
        assert_eq!(
            field(DataCacheConfig { capacity_bytes: 4096, ..cache() }, 8192),
            "device.data_cache.capacity_bytes"
        );
        assert_eq!(
            field(DataCacheConfig { bandwidth_mb_per_s: 0, ..cache() }, 8192),
            "device.data_cache.bandwidth_mb_per_s"
        );
        assert_eq!(
            field(DataCacheConfig { high_watermark_dirty_fraction: 1.5, ..cache() }, 8192),
            "device.data_cache.high_watermark_dirty_fraction"
        );
        assert_eq!(
            field(DataCacheConfig { low_watermark_dirty_fraction: 0.95, ..cache() }, 8192),
            "device.data_cache.low_watermark_dirty_fraction"
        );
        assert_eq!(field(cache(), 65536), "device.geometry.page_size_bytes");
    }
}
