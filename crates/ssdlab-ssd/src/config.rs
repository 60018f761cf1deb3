//! Simulation configuration: plain data, read from TOML, validated once.
//!
//! Every field carries its unit in its name (`read_latency_ns`, `page_size_bytes`). Unknown keys are
//! errors. Errors name the origin (file or preset), the line when it can be found, and the field path
//! (`device.geometry.pages_per_block`). `--set key=value` overrides are applied to the TOML tree before
//! it is read, so they go through exactly the same checks.

use crate::error::ConfigError;
use serde::{Deserialize, Serialize};
use ssdlab_workload::{SyntheticSpec, TraceFormat};
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationConfig {
    #[serde(default)]
    pub name: String,
    /// Seed of every random stream in the run (workload, aging, preconditioning, middleware).
    #[serde(default = "default_seed")]
    pub seed: u64,
    pub device: DeviceConfig,
    #[serde(default)]
    pub ftl: FtlConfig,
    #[serde(default)]
    pub host: HostConfig,
    #[serde(default)]
    pub workload: WorkloadConfig,
    #[serde(default)]
    pub read_path: ReadPathConfig,
    #[serde(default)]
    pub middleware: MiddlewareConfig,
    #[serde(default)]
    pub verification: VerificationConfig,
}

fn default_seed() -> u64 {
    1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceConfig {
    pub geometry: GeometryConfig,
    pub nand: NandConfig,
    pub channel: ChannelConfig,
    #[serde(default)]
    pub energy: EnergyConfig,
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
}

fn default_bus_width() -> u32 {
    8
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
}

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
    /// Fixed by the logical page number, striped channel-first (channel, chip, die, plane), as MQSim's
    /// default CWDP scheme.
    Static,
    /// Each written page goes to the next plane in channel-first round-robin order.
    Dynamic,
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
}

impl Default for GarbageCollectionConfig {
    fn default() -> Self {
        GarbageCollectionConfig { policy: VictimPolicyKind::Greedy, low_watermark_blocks: 3, high_watermark_blocks: 4, copyback: true }
    }
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
}

impl Default for PreconditionConfig {
    fn default() -> Self {
        PreconditionConfig { enabled: true, overwrite_passes: 1.0 }
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HostConfig {
    pub mode: HostMode,
    /// Outstanding requests in closed-loop mode.
    pub queue_depth: u32,
    /// Open loop: requests the device accepts at once (the NVMe/SATA submission queue depth; MQSim's
    /// default is 65,535 per queue). Arrivals beyond it wait in the host queue, in arrival order, and
    /// that wait counts in their latency.
    pub device_queue_depth: u32,
    /// Arrival times are multiplied by this (0.5 replays twice as fast).
    pub time_scale: f64,
    /// Replay the workload this many times back to back, with time offsets that keep arrivals increasing.
    pub loops: u32,
    /// Replay the workload as this many independent volumes side by side: every request is issued
    /// `tiles` times at the same arrival time, copy k shifted by k x the workload's address space.
    /// Footprint and offered load grow `tiles`-fold, locality within each copy is the workload's own.
    /// Used to bring a small trace sample up to a published data size (seed 003 reproduction).
    pub tiles: u32,
}

/// The deepest queue accepted (NVMe allows 64Ki queues of 64Ki entries; this is 16 such queues).
pub const MAX_QUEUE_DEPTH: u32 = 1 << 20;

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig { mode: HostMode::OpenLoop, queue_depth: 32, device_queue_depth: 65_535, time_scale: 1.0, loops: 1, tiles: 1 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostMode {
    OpenLoop,
    ClosedLoop,
}

/// Exactly one of `trace` and `synthetic`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct WorkloadConfig {
    pub trace: Option<TraceWorkload>,
    pub synthetic: Option<SyntheticSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceWorkload {
    pub path: PathBuf,
    #[serde(default)]
    pub format: Option<TraceFormat>,
    #[serde(default)]
    pub skip_bad_lines: bool,
    #[serde(default)]
    pub merge_devices: bool,
    /// A request larger than this (bytes) is a malformed line.
    #[serde(default = "default_max_request_bytes")]
    pub max_request_bytes: u64,
}

fn default_max_request_bytes() -> u64 {
    ssdlab_workload::trace::DEFAULT_MAX_REQUEST_BYTES
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReadPathConfig {
    pub strategy: ReadStrategyKind,
    /// ECC decode time after each transfer.
    pub decode_latency_ns: u64,
    /// Extra time per additional sensing level (soft read).
    pub extra_sensing_latency_ns: u64,
    /// Extra sensing levels of a soft read.
    pub soft_sensing_levels: u32,
    /// Look-ahead sensing (seed 002 §3.1): when the die has no queued work, the first soft sensing
    /// starts as soon as the hard sensing ends and is cancelled (RESET) if hard decoding succeeds.
    pub look_ahead: bool,
    /// How often decoding fails (the two-step and progressive strategies sample it per read).
    pub decoding: DecodingConfig,
}

impl Default for ReadPathConfig {
    fn default() -> Self {
        ReadPathConfig {
            strategy: ReadStrategyKind::HardDecision,
            decode_latency_ns: 0,
            extra_sensing_latency_ns: 14_000,
            soft_sensing_levels: 6,
            look_ahead: false,
            decoding: DecodingConfig::default(),
        }
    }
}

/// Decoding-failure probabilities of one read, by sensing precision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct DecodingConfig {
    /// One list per chip class (an SSD chip uses class `chip mod classes`): entry k is the
    /// probability that decoding fails with k extra sensing levels (k = 0: hard decision), up to
    /// `soft_sensing_levels`. Non-increasing along a list (more levels never hurt). Empty: decoding
    /// always succeeds. Produce them with
    /// `ssdlab ecc decoding-table --pe PE --retention-hours HOURS` (`ssdlab_ecc::decoding_table`).
    pub failure_probabilities: Vec<Vec<f64>>,
    /// Which list each chip class uses (chip class = chip mod the length of this list); empty: list
    /// `chip mod lists`. With data placement interleaving (seed 002 §3.3) one list describes the
    /// codewords spread over a group of chips, and every chip of the group uses it
    /// (`ssdlab ecc decoding-table --interleave-group ...` writes both).
    pub chip_rows: Vec<usize>,
    /// Wear dependence: P/E counts (ascending) at which `failure_probabilities_by_pe` holds one
    /// table each (same shape as `failure_probabilities`, which must then be empty). A read of a
    /// block with N erases uses the tables interpolated linearly in N, clamped to the first and
    /// last (`ssdlab ecc decoding-table --pe A --pe B ...` writes both).
    pub pe_cycles: Vec<f64>,
    pub failure_probabilities_by_pe: Vec<Vec<Vec<f64>>>,
}

impl DecodingConfig {
    /// Every table with the P/E count it holds for (one table at P/E 0 without wear dependence).
    pub fn tables(&self) -> Vec<(f64, Vec<Vec<f64>>)> {
        if self.pe_cycles.is_empty() {
            vec![(0.0, self.failure_probabilities.clone())]
        } else {
            self.pe_cycles.iter().copied().zip(self.failure_probabilities_by_pe.iter().cloned()).collect()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadStrategyKind {
    /// One hard-decision sensing, transfer and decode; decoding always succeeds.
    HardDecision,
    /// Hard decision, then a full soft read on every page (the worst case of the two-step read).
    AlwaysSoft,
    /// Seed 002's baseline (eq. 1): hard sensing and decoding; on failure, sensing with all
    /// `soft_sensing_levels` extra levels, transfer and decoding.
    TwoStep,
    /// Seed 002 §3.2 (eq. 3-4): on failure, one more extra sensing level per retry until decoding
    /// succeeds or `soft_sensing_levels` is reached.
    Progressive,
}

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
}

impl Default for LbaScramblerConfig {
    fn default() -> Self {
        LbaScramblerConfig { plentiful_free_fraction: 0.5, victim_min_fragmented_pages: 1 }
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct VerificationConfig {
    /// Tag every written page and check that every read returns the latest write.
    pub integrity_oracle: bool,
}

// ---------------------------------------------------------------------------------------------
// Loading, overrides, validation
// ---------------------------------------------------------------------------------------------

impl SimulationConfig {
    /// Reads a config from TOML text. `origin` names the file or preset in error messages.
    pub fn from_toml_str(text: &str, origin: &str, overrides: &[String]) -> Result<SimulationConfig, ConfigError> {
        let mut table = ssdlab_settings::parse_with_overrides(text, origin, overrides)?;
        // Giving a trace replaces a synthetic workload and vice versa (e.g. `--trace FILE` on a preset).
        let touches = |prefix: &str| overrides.iter().any(|o| o.trim_start().starts_with(prefix));
        if let Some(toml::Value::Table(workload)) = table.get_mut("workload") {
            if touches("workload.trace") && !touches("workload.synthetic") {
                workload.remove("synthetic");
            } else if touches("workload.synthetic") && !touches("workload.trace") && workload.contains_key("synthetic") {
                workload.remove("trace");
            }
        }
        let config: SimulationConfig = ssdlab_settings::deserialize_located(table, text, origin)?;
        config.validate().map_err(|(field, message)| ConfigError::Invalid {
            origin: origin.to_string(),
            line: ssdlab_settings::locate_field(text, &field),
            field,
            message,
        })?;
        Ok(config)
    }

    pub fn from_file(path: &std::path::Path, overrides: &[String]) -> Result<SimulationConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Io { path: path.to_path_buf(), message: e.to_string() })?;
        let mut config = Self::from_toml_str(&text, &path.display().to_string(), overrides)?;
        // A relative trace path in a config file is relative to that file.
        if let Some(trace) = config.workload.trace.as_mut() {
            if trace.path.is_relative() {
                if let Some(parent) = path.parent() {
                    let candidate = parent.join(&trace.path);
                    if candidate.exists() {
                        trace.path = candidate;
                    }
                }
            }
        }
        Ok(config)
    }

    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).unwrap_or_else(|e| format!("# cannot render config: {e}"))
    }

    /// Checks every rule that types alone cannot. Returns (field path, message) on the first failure.
    pub fn validate(&self) -> Result<(), (String, String)> {
        let fail = |field: &str, message: String| Err((field.to_string(), message));
        let g = &self.device.geometry;
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
                return fail(&format!("device.geometry.{name}"), "must be at least 1".into());
            }
        }
        if !g.page_size_bytes.is_power_of_two() || g.page_size_bytes < 512 {
            return fail("device.geometry.page_size_bytes", format!("must be a power of two of at least 512, got {}", g.page_size_bytes));
        }
        let total_pages = g.channels as u64 * g.chips_per_channel as u64 * g.dies_per_chip as u64 * g.planes_per_die as u64 * g.blocks_per_plane as u64 * g.pages_per_block as u64;
        if total_pages >= u32::MAX as u64 {
            return fail("device.geometry", format!("{total_pages} physical pages; at most {} are supported (physical page numbers are 32-bit)", u32::MAX - 1));
        }
        if g.pages_per_block > 0x7FFF {
            return fail("device.geometry.pages_per_block", format!("at most 32767 are supported, got {}", g.pages_per_block));
        }
        let bits = self.device.nand.cell_type.bits_per_cell();
        if !(g.pages_per_block as usize).is_multiple_of(bits) {
            return fail("device.geometry.pages_per_block", format!("must be a multiple of {bits} (pages per word line of {:?})", self.device.nand.cell_type));
        }
        for (name, values) in [("read_latency_ns", &self.device.nand.read_latency_ns), ("program_latency_ns", &self.device.nand.program_latency_ns)] {
            if values.len() != 1 && values.len() != bits {
                return fail(&format!("device.nand.{name}"), format!("give 1 value or {bits} (one per page type of {:?}), got {}", self.device.nand.cell_type, values.len()));
            }
            if values.contains(&0) {
                return fail(&format!("device.nand.{name}"), "latencies must be positive".into());
            }
            if let Some(value) = values.iter().find(|&&value| value > u32::MAX as u64) {
                return fail(&format!("device.nand.{name}"), format!("at most {} ns (4.29 s) per operation, got {value}", u32::MAX));
            }
        }
        if self.device.nand.erase_latency_ns == 0 {
            return fail("device.nand.erase_latency_ns", "must be positive".into());
        }
        let channel = &self.device.channel;
        if !(channel.transfer_rate_mts > 0.0 && channel.transfer_rate_mts.is_finite()) {
            return fail("device.channel.transfer_rate_mts", format!("must be positive, got {}", channel.transfer_rate_mts));
        }
        if channel.bus_width_bits == 0 || !channel.bus_width_bits.is_multiple_of(8) {
            return fail("device.channel.bus_width_bits", format!("must be a positive multiple of 8, got {}", channel.bus_width_bits));
        }
        let energy = &self.device.energy;
        for (name, value) in [
            ("program_page_uj", energy.program_page_uj),
            ("read_sense_uj", energy.read_sense_uj),
            ("extra_sensing_level_uj", energy.extra_sensing_level_uj),
            ("page_transfer_uj", energy.page_transfer_uj),
            ("decode_uj", energy.decode_uj),
            ("erase_block_uj", energy.erase_block_uj),
        ] {
            if !(value >= 0.0 && value.is_finite()) {
                return fail(&format!("device.energy.{name}"), format!("must be a non-negative number, got {value}"));
            }
        }
        let ftl = &self.ftl;
        if !(0.0..0.95).contains(&ftl.overprovisioning_fraction) {
            return fail("ftl.overprovisioning_fraction", format!("must be in [0, 0.95), got {}", ftl.overprovisioning_fraction));
        }
        if !(ftl.footprint_free_fraction > 0.0 && ftl.footprint_free_fraction < 0.95) {
            return fail("ftl.footprint_free_fraction", format!("must be in (0, 0.95), got {}", ftl.footprint_free_fraction));
        }
        let gc = &ftl.garbage_collection;
        if gc.low_watermark_blocks < 2 {
            return fail("ftl.garbage_collection.low_watermark_blocks", format!("must be at least 2 (one block is needed to copy into), got {}", gc.low_watermark_blocks));
        }
        if gc.high_watermark_blocks < gc.low_watermark_blocks {
            return fail("ftl.garbage_collection.high_watermark_blocks", format!("must be at least low_watermark_blocks ({}), got {}", gc.low_watermark_blocks, gc.high_watermark_blocks));
        }
        if ftl.sizing == CapacitySizing::Geometry {
            let reserve = gc.high_watermark_blocks as u64 + 2;
            if (g.blocks_per_plane as u64) <= reserve {
                return fail("device.geometry.blocks_per_plane", format!("must exceed the GC reserve of {reserve} blocks per plane (high watermark + 2 open blocks)"));
            }
            let spare_blocks = (g.blocks_per_plane as f64 * ftl.overprovisioning_fraction).floor() as u64;
            if spare_blocks < reserve {
                return fail("ftl.overprovisioning_fraction", format!(
                    "{} leaves {spare_blocks} spare blocks per plane, fewer than the {reserve} that garbage collection needs (high watermark + 2 open blocks); raise it to at least {:.4}",
                    ftl.overprovisioning_fraction, reserve as f64 / g.blocks_per_plane as f64));
            }
        }
        if !(ftl.precondition.overwrite_passes >= 0.0 && ftl.precondition.overwrite_passes.is_finite()) {
            return fail("ftl.precondition.overwrite_passes", "must be a non-negative number".into());
        }
        if !(0.0..=1.0).contains(&ftl.aging.spread_fraction) {
            return fail("ftl.aging.spread_fraction", format!("must be in [0, 1], got {}", ftl.aging.spread_fraction));
        }
        let scrambler = &self.middleware.lba_scrambler;
        if !(scrambler.plentiful_free_fraction >= 0.1 && scrambler.plentiful_free_fraction <= 1.0) {
            return fail("middleware.lba_scrambler.plentiful_free_fraction", format!(
                "must be in [0.1, 1] (below 0.1 rule 1 would fill the NAND past the FTL's spare blocks; 1 turns rule 1 off), got {}",
                scrambler.plentiful_free_fraction));
        }
        if scrambler.victim_min_fragmented_pages == 0 {
            return fail("middleware.lba_scrambler.victim_min_fragmented_pages", "must be at least 1".into());
        }
        let host = &self.host;
        if host.queue_depth == 0 {
            return fail("host.queue_depth", "must be at least 1".into());
        }
        if host.device_queue_depth == 0 {
            return fail("host.device_queue_depth", "must be at least 1".into());
        }
        // In-flight requests are records in memory (about 100 bytes each with their flash work).
        for (name, depth) in [("host.queue_depth", host.queue_depth), ("host.device_queue_depth", host.device_queue_depth)] {
            if depth > MAX_QUEUE_DEPTH {
                return fail(name, format!("at most {MAX_QUEUE_DEPTH} requests in flight are supported, got {depth}"));
            }
        }
        if !(host.time_scale > 0.0 && host.time_scale.is_finite()) {
            return fail("host.time_scale", format!("must be positive, got {}", host.time_scale));
        }
        if host.tiles == 0 {
            return fail("host.tiles", "must be at least 1".into());
        }
        if host.loops == 0 {
            return fail("host.loops", "must be at least 1".into());
        }
        match (&self.workload.trace, &self.workload.synthetic) {
            (Some(_), Some(_)) => return fail("workload", "give either [workload.trace] or [workload.synthetic], not both".into()),
            (None, None) => return fail("workload", "no workload: give [workload.trace] (path = ...) or [workload.synthetic]".into()),
            (None, Some(spec)) => {
                if let Err(ssdlab_workload::WorkloadError::InvalidSynthetic { field, message }) = spec.validate() {
                    return fail(&format!("workload.synthetic.{field}"), message);
                }
            }
            (Some(_), None) => {}
        }
        if self.read_path.soft_sensing_levels == 0 || self.read_path.soft_sensing_levels > 6 {
            return fail("read_path.soft_sensing_levels", format!("must be 1..=6, got {}", self.read_path.soft_sensing_levels));
        }
        let levels = self.read_path.soft_sensing_levels as usize;
        let decoding = &self.read_path.decoding;
        if decoding.pe_cycles.len() != decoding.failure_probabilities_by_pe.len() {
            return fail(
                "read_path.decoding.failure_probabilities_by_pe",
                format!("has {} tables but pe_cycles has {} entries; one table per P/E count", decoding.failure_probabilities_by_pe.len(), decoding.pe_cycles.len()),
            );
        }
        if !decoding.pe_cycles.is_empty() && !decoding.failure_probabilities.is_empty() {
            return fail("read_path.decoding.failure_probabilities", "give either failure_probabilities or pe_cycles with failure_probabilities_by_pe, not both".into());
        }
        if let Some(i) = (0..decoding.pe_cycles.len()).find(|&i| !(decoding.pe_cycles[i].is_finite() && decoding.pe_cycles[i] >= 0.0) || (i > 0 && decoding.pe_cycles[i] <= decoding.pe_cycles[i - 1])) {
            return fail("read_path.decoding.pe_cycles", format!("entry {i} ({}) must be >= 0 and above the one before: the list is ascending", decoding.pe_cycles[i]));
        }
        let named: Vec<(String, &Vec<Vec<f64>>)> = if decoding.pe_cycles.is_empty() {
            vec![("read_path.decoding.failure_probabilities".to_string(), &decoding.failure_probabilities)]
        } else {
            decoding.failure_probabilities_by_pe.iter().enumerate().map(|(i, t)| (format!("read_path.decoding.failure_probabilities_by_pe[{i}]"), t)).collect()
        };
        let lists = named[0].1.len();
        for (name, table) in &named {
            if table.len() != lists {
                return fail(name, format!("has {} lists but the first table has {lists}; every P/E count needs the same rows", table.len()));
            }
            for (class, list) in table.iter().enumerate() {
                let field = format!("{name}[{class}]");
                if list.len() != levels + 1 {
                    return fail(&field, format!("needs {} entries (hard decision, then 1..={levels} extra sensing levels), got {}", levels + 1, list.len()));
                }
                if let Some((k, p)) = list.iter().enumerate().find(|(_, p)| !(0.0..=1.0).contains(*p)) {
                    return fail(&field, format!("entry {k} is {p}, not a probability in [0, 1]"));
                }
                if let Some(k) = (1..list.len()).find(|&k| list[k] > list[k - 1]) {
                    return fail(&field, format!("entry {k} ({}) exceeds entry {} ({}): more sensing levels never fail more often", list[k], k - 1, list[k - 1]));
                }
            }
        }
        if !decoding.chip_rows.is_empty() && lists == 0 {
            return fail("read_path.decoding.chip_rows", "needs failure_probabilities to point into".into());
        }
        if let Some((chip, row)) = decoding.chip_rows.iter().enumerate().find(|(_, &row)| row >= lists) {
            return fail("read_path.decoding.chip_rows", format!("chip class {chip} uses list {row}, but failure_probabilities has {lists} lists (0..{})", lists - 1));
        }
        let samples_failures = matches!(self.read_path.strategy, ReadStrategyKind::TwoStep | ReadStrategyKind::Progressive);
        if self.read_path.look_ahead && !samples_failures {
            return fail("read_path.look_ahead", format!("applies to the two_step and progressive strategies, not {:?}", self.read_path.strategy));
        }
        Ok(())
    }
}

