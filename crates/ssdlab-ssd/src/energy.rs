//! Energy accounted per flash operation (seed 002 §5.5 uses per-operation energies), per die busy
//! and idle time (seed 004 derives its energies from supply voltage x current x time) and per bit
//! moved over the channels (from seed 001's pin capacitance and I/O voltage).
//!
//! Every operation of one kind costs the same energy, so the account is the operation counts times
//! the per-operation energies, computed once at the end of a run rather than accumulated per
//! operation on the hot path; busy and idle energies come from the dies' booked time. I/O energy
//! is the pins' (`io_pins.rs`: C·V² per pin cycle, with the readings seed 001 leaves open as
//! settings). Left out: controller (non-ECC) energy and DRAM.

use crate::config::EnergyConfig;
use crate::flash_op::FlashCounters;
use crate::io_pins::IoPins;

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct EnergyAccount {
    pub program_uj: f64,
    pub read_sense_uj: f64,
    pub extra_sensing_uj: f64,
    pub transfer_uj: f64,
    pub decode_uj: f64,
    pub erase_uj: f64,
    /// Dies' busy time x supply voltage x active current.
    pub array_busy_uj: f64,
    /// Dies' idle time x supply voltage x idle current.
    pub idle_uj: f64,
    /// The channels' I/O pins: pin cycles x pin capacitance x I/O voltage² (`io_pins.rs`).
    pub io_uj: f64,
}

/// What the time- and transfer-based parts of the account need besides the counters.
#[derive(Debug, Clone, Copy, Default)]
pub struct ActivityTimes {
    /// Sum over the tier's dies of their booked time, in ns.
    pub die_busy_ns: u64,
    /// Dies x the run's simulated span, in ns.
    pub die_span_ns: u64,
    /// The tier's I/O pins, its channel count and the run's simulated span (continuous toggling).
    pub io_pins: IoPins,
    pub channels: u32,
    pub span_ns: u64,
}

impl EnergyAccount {
    /// The energy of the operations counted in `counters` under the per-operation `model`. A
    /// cancelled look-ahead sensing costs the fraction of a level's energy it ran for
    /// (`extra_sensing_level_ns` per level).
    pub fn of(
        model: &EnergyConfig,
        counters: &FlashCounters,
        extra_sensing_level_ns: u64,
        activity: &ActivityTimes,
    ) -> Self {
        // ns x V x mA = 1e-12 J = 1e-6 uJ; bits x pF x V² = 1e-12 J = 1e-6 uJ.
        let idle_ns = activity.die_span_ns.saturating_sub(activity.die_busy_ns);
        let cancelled_levels = match model.cancelled_sensing_charge {
            crate::config::CancelledSensingCharge::FullSensing => counters.cancelled_sensing_levels as f64,
            crate::config::CancelledSensingCharge::TimeRun if extra_sensing_level_ns == 0 => 0.0,
            crate::config::CancelledSensingCharge::TimeRun => {
                counters.cancelled_sensing_ns as f64 / extra_sensing_level_ns as f64
            }
        };
        EnergyAccount {
            program_uj: model.program_page_uj * counters.page_programs as f64,
            read_sense_uj: model.read_sense_uj * counters.page_reads as f64,
            extra_sensing_uj: model.extra_sensing_level_uj * (counters.extra_sensing_levels as f64 + cancelled_levels),
            transfer_uj: model.page_transfer_uj * (counters.page_transfers as f64 + counters.soft_result_pages),
            decode_uj: model.decode_uj * counters.decodes as f64,
            erase_uj: model.erase_block_uj * counters.block_erases as f64,
            array_busy_uj: activity.die_busy_ns as f64 * model.supply_voltage_v * model.active_current_ma * 1e-6,
            idle_uj: idle_ns as f64 * model.supply_voltage_v * model.idle_current_ma * 1e-6,
            io_uj: activity.io_pins.energy_uj(counters.transfer_bytes, activity.channels, activity.span_ns),
        }
    }

    pub fn total_uj(&self) -> f64 {
        self.program_uj
            + self.read_sense_uj
            + self.extra_sensing_uj
            + self.transfer_uj
            + self.decode_uj
            + self.erase_uj
            + self.array_busy_uj
            + self.idle_uj
            + self.io_uj
    }

    pub fn plus(&self, other: &EnergyAccount) -> EnergyAccount {
        EnergyAccount {
            program_uj: self.program_uj + other.program_uj,
            read_sense_uj: self.read_sense_uj + other.read_sense_uj,
            extra_sensing_uj: self.extra_sensing_uj + other.extra_sensing_uj,
            transfer_uj: self.transfer_uj + other.transfer_uj,
            decode_uj: self.decode_uj + other.decode_uj,
            erase_uj: self.erase_uj + other.erase_uj,
            array_busy_uj: self.array_busy_uj + other.array_busy_uj,
            idle_uj: self.idle_uj + other.idle_uj,
            io_uj: self.io_uj + other.io_uj,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn energy_is_counts_times_per_operation_energy() {
        let model = EnergyConfig {
            program_page_uj: 52.0,
            read_sense_uj: 2.4,
            extra_sensing_level_uj: 0.7,
            page_transfer_uj: 3.7,
            decode_uj: 0.8,
            erase_block_uj: 10.0,
            ..EnergyConfig::default()
        };
        let counters = FlashCounters {
            page_reads: 10,
            page_programs: 2,
            block_erases: 1,
            page_transfers: 12,
            extra_sensing_levels: 6,
            cancelled_sensing_ns: 7_000,
            decodes: 10,
            ..FlashCounters::default()
        };
        let account = EnergyAccount::of(&model, &counters, 14_000, &ActivityTimes::default());
        assert!((account.total_uj() - (104.0 + 24.0 + 4.2 + 0.35 + 44.4 + 8.0 + 10.0)).abs() < 1e-9);
        // Soft results moved at the measured rate cost their pages' worth of channel time.
        let soft = FlashCounters { soft_result_pages: 3.5, ..counters };
        let with_soft = EnergyAccount::of(&model, &soft, 14_000, &ActivityTimes::default());
        assert!((with_soft.transfer_uj - 3.7 * 15.5).abs() < 1e-9);
    }

    #[test]
    fn a_cancelled_look_ahead_costs_its_time_run_or_its_full_sensing() {
        // 7 us of a 6-level sensing at 14 us per level ran: half a level by time, six levels in full.
        let counters =
            FlashCounters { cancelled_sensing_ns: 7_000, cancelled_sensing_levels: 6, ..FlashCounters::default() };
        let by_time = EnergyConfig { extra_sensing_level_uj: 0.7, ..EnergyConfig::default() };
        let full = EnergyConfig {
            cancelled_sensing_charge: crate::config::CancelledSensingCharge::FullSensing,
            ..by_time.clone()
        };
        assert!(
            (EnergyAccount::of(&by_time, &counters, 14_000, &ActivityTimes::default()).extra_sensing_uj - 0.35).abs()
                < 1e-12
        );
        assert!(
            (EnergyAccount::of(&full, &counters, 14_000, &ActivityTimes::default()).extra_sensing_uj - 4.2).abs()
                < 1e-12
        );
    }

    #[test]
    fn busy_idle_and_io_energy_by_hand() {
        // Seed 004's derivation: 3.3 V x 25 mA while busy. One die busy 1 ms of a 4 ms span, idle at
        // 10 uA; 8 KiB moved over pins of 8 pF at 1.8 V.
        let model = EnergyConfig {
            supply_voltage_v: 3.3,
            active_current_ma: 25.0,
            idle_current_ma: 0.01,
            ..EnergyConfig::default()
        };
        let counters = FlashCounters { transfer_bytes: 8192, ..FlashCounters::default() };
        let io_pins = IoPins { capacitance_pf: 8.0, voltage_v: 1.8, ..IoPins::default() };
        let activity =
            ActivityTimes { die_busy_ns: 1_000_000, die_span_ns: 4_000_000, io_pins, channels: 1, span_ns: 4_000_000 };
        let account = EnergyAccount::of(&model, &counters, 0, &activity);
        assert!((account.array_busy_uj - 82.5).abs() < 1e-9, "1 ms x 3.3 V x 25 mA = 82.5 uJ");
        assert!((account.idle_uj - 0.099).abs() < 1e-9, "3 ms x 3.3 V x 10 uA = 0.099 uJ");
        assert!((account.io_uj - 65536.0 * 8.0 * 3.24 * 1e-6).abs() < 1e-9, "65,536 bits x 8 pF x 1.8² V²");
    }
}
