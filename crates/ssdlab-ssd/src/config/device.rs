//! `[device]`: geometry, NAND timing and endurance, channel, per-operation energy.

use serde::{Deserialize, Serialize};

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

/// Checks the device tables. Returns (field path, message) on the first failure.
pub(super) fn validate(device: &DeviceConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    let g = &device.geometry;
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
    // The scheduler packs a channel number into 16 bits and a die number into 20.
    if g.channels > u16::MAX as u32 {
        return fail("device.geometry.channels", format!("at most {} channels are supported, got {}", u16::MAX, g.channels));
    }
    let dies = g.channels as u64 * g.chips_per_channel as u64 * g.dies_per_chip as u64;
    if dies >= 1 << 20 {
        return fail("device.geometry", format!("{dies} dies; at most {} are supported", (1u64 << 20) - 1));
    }
    if total_pages >= u32::MAX as u64 {
        return fail("device.geometry", format!("{total_pages} physical pages; at most {} are supported (physical page numbers are 32-bit)", u32::MAX - 1));
    }
    if g.pages_per_block > 0x7FFF {
        return fail("device.geometry.pages_per_block", format!("at most 32767 are supported, got {}", g.pages_per_block));
    }
    let bits = device.nand.cell_type.bits_per_cell();
    if !(g.pages_per_block as usize).is_multiple_of(bits) {
        return fail("device.geometry.pages_per_block", format!("must be a multiple of {bits} (pages per word line of {:?})", device.nand.cell_type));
    }
    for (name, values) in [("read_latency_ns", &device.nand.read_latency_ns), ("program_latency_ns", &device.nand.program_latency_ns)] {
        if values.len() != 1 && values.len() != bits {
            return fail(&format!("device.nand.{name}"), format!("give 1 value or {bits} (one per page type of {:?}), got {}", device.nand.cell_type, values.len()));
        }
        if values.contains(&0) {
            return fail(&format!("device.nand.{name}"), "latencies must be positive".into());
        }
    }
    if device.nand.erase_latency_ns == 0 {
        return fail("device.nand.erase_latency_ns", "must be positive".into());
    }
    let channel = &device.channel;
    if !(channel.transfer_rate_mts > 0.0 && channel.transfer_rate_mts.is_finite()) {
        return fail("device.channel.transfer_rate_mts", format!("must be positive, got {}", channel.transfer_rate_mts));
    }
    if channel.bus_width_bits == 0 || !channel.bus_width_bits.is_multiple_of(8) {
        return fail("device.channel.bus_width_bits", format!("must be a positive multiple of 8, got {}", channel.bus_width_bits));
    }
    let energy = &device.energy;
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
    Ok(())
}
