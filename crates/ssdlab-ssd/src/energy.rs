//! Energy accounted per flash operation (seed 002 §5.5 and seed 004 use per-operation energies).
//!
//! Every operation of one kind costs the same energy, so the account is the operation counts times
//! the per-operation energies, computed once at the end of a run rather than accumulated per
//! operation on the hot path. Left out: idle/standby power and controller (non-ECC) energy.

use crate::config::EnergyConfig;
use crate::scheduler::FlashCounters;

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct EnergyAccount {
    pub program_uj: f64,
    pub read_sense_uj: f64,
    pub extra_sensing_uj: f64,
    pub transfer_uj: f64,
    pub decode_uj: f64,
    pub erase_uj: f64,
}

impl EnergyAccount {
    /// The energy of the operations counted in `counters` under the per-operation `model`. A
    /// cancelled look-ahead sensing costs the fraction of a level's energy it ran for
    /// (`extra_sensing_level_ns` per level).
    pub fn of(model: &EnergyConfig, counters: &FlashCounters, extra_sensing_level_ns: u64) -> Self {
        let cancelled_levels = if extra_sensing_level_ns == 0 { 0.0 } else { counters.cancelled_sensing_ns as f64 / extra_sensing_level_ns as f64 };
        EnergyAccount {
            program_uj: model.program_page_uj * counters.page_programs as f64,
            read_sense_uj: model.read_sense_uj * counters.page_reads as f64,
            extra_sensing_uj: model.extra_sensing_level_uj * (counters.extra_sensing_levels as f64 + cancelled_levels),
            transfer_uj: model.page_transfer_uj * counters.page_transfers as f64,
            decode_uj: model.decode_uj * counters.decodes as f64,
            erase_uj: model.erase_block_uj * counters.block_erases as f64,
        }
    }

    pub fn total_uj(&self) -> f64 {
        self.program_uj + self.read_sense_uj + self.extra_sensing_uj + self.transfer_uj + self.decode_uj + self.erase_uj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn energy_is_counts_times_per_operation_energy() {
        let model = EnergyConfig { program_page_uj: 52.0, read_sense_uj: 2.4, extra_sensing_level_uj: 0.7, page_transfer_uj: 3.7, decode_uj: 0.8, erase_block_uj: 10.0 };
        let counters = FlashCounters { page_reads: 10, page_programs: 2, block_erases: 1, page_transfers: 12, extra_sensing_levels: 6, cancelled_sensing_ns: 7_000, decodes: 10, multi_plane_programs: 0, multi_plane_reads: 0 };
        let account = EnergyAccount::of(&model, &counters, 14_000);
        assert!((account.total_uj() - (104.0 + 24.0 + 4.2 + 0.35 + 44.4 + 8.0 + 10.0)).abs() < 1e-9);
    }
}
