//! The flash channel (bus) between controller and dies: transfer time = command overhead + bytes /
//! (rate x width). One transfer at a time per channel.

use crate::config::ChannelConfig;

#[derive(Debug, Clone)]
pub struct ChannelTiming {
    bytes_per_ns: f64,
    command_overhead_ns: u64,
}

impl ChannelTiming {
    pub fn new(config: &ChannelConfig) -> Self {
        // MT/s x bytes per transfer = MB/s = 1e-3 bytes/ns.
        let bytes_per_ns = config.transfer_rate_mts * (config.bus_width_bits as f64 / 8.0) * 1e-3;
        ChannelTiming { bytes_per_ns, command_overhead_ns: config.command_overhead_ns }
    }

    pub fn transfer_ns(&self, bytes: u64) -> u64 {
        self.command_overhead_ns + (bytes as f64 / self.bytes_per_ns).ceil() as u64
    }
}
