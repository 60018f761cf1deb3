//! Storage-class memory timing (seed 001 Table 1): a bank reads or writes one 512-byte sector at a
//! time, in place, with no erase; sectors move over the SCM's own channel at its toggle rate.
//!
//! Left out: read/write asymmetry within a sector (partial-sector writes), bank refresh, and
//! write-verify retries; the seed gives one latency per sector and operation.

use super::channel::ChannelTiming;
use crate::config::{ScmConfig, SCM_SECTOR_BYTES};

#[derive(Debug, Clone)]
pub struct ScmTiming {
    pub read_ns_per_sector: u64,
    pub write_ns_per_sector: u64,
    pub banks: u32,
    pub channels: u32,
    channel: ChannelTiming,
}

impl ScmTiming {
    pub fn new(config: &ScmConfig) -> Self {
        ScmTiming {
            read_ns_per_sector: config.read_latency_ns_per_sector,
            write_ns_per_sector: config.write_latency_ns_per_sector,
            banks: config.banks,
            channels: config.channels,
            channel: ChannelTiming::new(&config.channel),
        }
    }

    /// The bus time of `sectors` sectors moved in one transaction (command cycles once).
    pub fn transfer_ns(&self, sectors: u64) -> u64 {
        self.channel.transfer_ns(sectors * SCM_SECTOR_BYTES)
    }

    /// The bank a physical sector slot is on: consecutive slots on consecutive banks.
    #[inline]
    pub fn bank_of(&self, slot: u32) -> u32 {
        slot % self.banks
    }

    /// The channel a bank is behind.
    #[inline]
    pub fn channel_of_bank(&self, bank: u32) -> u32 {
        bank % self.channels
    }
}
