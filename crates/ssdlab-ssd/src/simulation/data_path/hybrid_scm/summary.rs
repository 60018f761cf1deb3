//! The hybrid SCM/NAND data path's part of a run's result (seed 001): placement counts, operations, utilisation, wear,
//! and energy and power (core: banks' busy time x memory VDD x active current; I/O: the channels'
//! pins, `io_pins.rs`).

use super::HybridScmPath;
use crate::config::ScmConfig;
use crate::scheduler::FlashScheduler;
use serde::Serialize;

impl HybridScmPath {
    /// The SCM summary over a run of `simulated` seconds (None without the SCM's config).
    pub(super) fn summary(
        &self,
        media: Option<&ScmConfig>,
        scheduler: &FlashScheduler,
        simulated: f64,
    ) -> Option<ScmSummary> {
        let (scm, media) = (&self.scm, media?);
        let operations = scheduler.scm_counters();
        let (bank_busy, channel_busy) = scheduler.scm_busy();
        let (banks, channels) = scheduler.scm_resources();
        let span_ns = simulated * 1e9;
        let utilisation =
            |busy: f64, servers: usize| if span_ns > 0.0 { busy / (span_ns * servers as f64) } else { 0.0 };
        // ns x V x mA = 1e-12 J = 1e-6 uJ; bits x pF x V² = 1e-12 J = 1e-6 uJ.
        let core_energy_uj = bank_busy.0 as f64 * media.memory_voltage_v * media.active_current_ma * 1e-6;
        let idle_ns = (span_ns * banks as f64 - bank_busy.0 as f64).max(0.0);
        let idle_energy_uj = idle_ns * media.memory_voltage_v * media.idle_current_ma * 1e-6;
        let io_energy_uj = crate::io_pins::IoPins::of(&media.channel).energy_uj(
            operations.transfer_bytes,
            channels as u32,
            span_ns as u64,
        );
        let energy_total_uj = core_energy_uj + idle_energy_uj + io_energy_uj;
        let (max_writes, mean_writes) = scm.store.wear();
        let power = |uj: f64| if simulated > 0.0 { uj * 1e-6 / simulated } else { 0.0 };
        Some(ScmSummary {
            media: media.media.clone(),
            role: if scm.is_scm_only() { "only" } else { "hybrid" }.to_string(),
            capacity_bytes: scm.store.capacity() as u64 * crate::config::SCM_SECTOR_BYTES,
            used_fraction: 1.0 - scm.store.free_slots() as f64 / scm.store.capacity().max(1) as f64,
            placement: scm.statistics,
            operations,
            bank_utilisation: utilisation(bank_busy.0 as f64, banks),
            channel_utilisation: utilisation(channel_busy.0 as f64, channels),
            max_writes_per_sector: max_writes,
            mean_writes_per_sector: mean_writes,
            endurance_writes: media.endurance_writes,
            wear_leveling_moves: scm.store.wear_leveling_moves,
            core_energy_uj,
            idle_energy_uj,
            io_energy_uj,
            energy_total_uj,
            power_w: power(energy_total_uj),
            io_power_w: power(io_energy_uj),
        })
    }
}

/// What the SCM did over a run (seed 001).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScmSummary {
    pub media: String,
    /// `hybrid` (beside the NAND) or `only` (the All S-SCM SSD).
    pub role: String,
    pub capacity_bytes: u64,
    /// Sectors held at the end, as a fraction of the SCM.
    pub used_fraction: f64,
    pub placement: crate::scm::ScmPlacementStatistics,
    pub operations: crate::scheduler::ScmCounters,
    pub bank_utilisation: f64,
    pub channel_utilisation: f64,
    /// Writes to the most-written sector slot, the mean over slots, and the rating.
    pub max_writes_per_sector: u32,
    pub mean_writes_per_sector: f64,
    pub endurance_writes: f64,
    pub wear_leveling_moves: u64,
    /// Banks' busy time x memory VDD x active current; idle time x idle current; pin cycles x pin
    /// capacitance x I/O VDD² (`io_pins.rs`: how many cycles depends on the pin readings).
    pub core_energy_uj: f64,
    pub idle_energy_uj: f64,
    pub io_energy_uj: f64,
    pub energy_total_uj: f64,
    pub power_w: f64,
    pub io_power_w: f64,
}
