//! The energy of a channel's I/O pins: a switched capacitance, C·V² per pin cycle (one charge and
//! one discharge of the pin's load).
//!
//! Source: seed 001's Table 1 gives the pin capacitance (NAND 8 pF, SCM 5 pF without TSV, 0.3 pF
//! with), the I/O voltages (1.8 V NAND, 1.2 V SCM) and the SCM's I/O at 1066 MHz, and its Fig. 3
//! plots power against the I/O toggle frequency. It states no formula, pin count, switching
//! activity, nor whether pins toggle only while data moves or all the time, nor whether the
//! controller's pads count. Those are the settings here (`device.channel.*`, `device.scm.channel.*`):
//! - `data_pins` (default: the bus width) and `control_pins` (strobes, command latches; default 0),
//!   each cycling once per transfer beat;
//! - `pin_activity_factor`: the share of beats on which a pin actually switches (1: every beat, the
//!   reading before; random data switches a data pin on half the beats);
//! - `pin_toggling`: `data_only` (pins cycle only while data moves: beats = bits moved / bus width)
//!   or `continuous` (the interface clocks at its transfer rate for the whole run, as Fig. 3's
//!   "power against toggle frequency" can be read);
//! - `link_ends`: 1 (the memory's pins) or 2 (the controller's pads too).
//!
//! Left out: static and termination power, and the pin's own voltage swing differing from VDD.

use crate::config::{ChannelConfig, PinToggling};

/// The pin model of one channel kind, from its validated config.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IoPins {
    pub capacitance_pf: f64,
    pub voltage_v: f64,
    pub pins_per_channel: u32,
    pub bus_width_bits: u32,
    pub activity_factor: f64,
    pub toggling: PinToggling,
    pub link_ends: u32,
    pub transfer_rate_mts: f64,
}

/// No I/O energy (no capacitance): what a tier without channel energy settings has.
impl Default for IoPins {
    fn default() -> Self {
        IoPins {
            capacitance_pf: 0.0,
            voltage_v: 0.0,
            pins_per_channel: 8,
            bus_width_bits: 8,
            activity_factor: 1.0,
            toggling: PinToggling::DataOnly,
            link_ends: 1,
            transfer_rate_mts: 0.0,
        }
    }
}

impl IoPins {
    pub fn of(channel: &ChannelConfig) -> IoPins {
        IoPins {
            capacitance_pf: channel.pin_capacitance_pf,
            voltage_v: channel.io_voltage_v,
            pins_per_channel: channel.data_pins.unwrap_or(channel.bus_width_bits) + channel.control_pins,
            bus_width_bits: channel.bus_width_bits,
            activity_factor: channel.pin_activity_factor,
            toggling: channel.pin_toggling,
            link_ends: channel.link_ends,
            transfer_rate_mts: channel.transfer_rate_mts,
        }
    }

    /// Energy in uJ of `bytes` moved over `channels` channels of this kind in a run of `span_ns`.
    pub fn energy_uj(&self, bytes: u64, channels: u32, span_ns: u64) -> f64 {
        let beats = match self.toggling {
            PinToggling::DataOnly => bytes as f64 * 8.0 / self.bus_width_bits.max(1) as f64,
            // MT/s x ns = 1e6 / 1e9 transfers: 1e-3 beats per (MT/s x ns).
            PinToggling::Continuous => self.transfer_rate_mts * span_ns as f64 * 1e-3 * channels as f64,
        };
        let pin_cycles = beats * self.pins_per_channel as f64 * self.activity_factor * self.link_ends as f64;
        // pF x V² = 1e-12 J = 1e-6 uJ per cycle.
        pin_cycles * self.capacitance_pf * self.voltage_v * self.voltage_v * 1e-6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pins(toggling: PinToggling, data_pins: Option<u32>, control_pins: u32, activity: f64, ends: u32) -> IoPins {
        let channel = ChannelConfig {
            transfer_rate_mts: 1066.0,
            bus_width_bits: 8,
            command_overhead_ns: 0,
            io_voltage_v: 1.2,
            pin_capacitance_pf: 5.0,
            data_pins,
            control_pins,
            pin_activity_factor: activity,
            pin_toggling: toggling,
            link_ends: ends,
        };
        IoPins::of(&channel)
    }

    #[test]
    fn the_default_reading_charges_one_pin_cycle_per_bit_moved() {
        // 4 KiB over 8 pins of 5 pF at 1.2 V: 32,768 bits x 5 pF x 1.44 V² = 235.9296 nJ.
        let energy = pins(PinToggling::DataOnly, None, 0, 1.0, 1).energy_uj(4096, 1, 1_000_000);
        assert!((energy - 32_768.0 * 5.0 * 1.44 * 1e-6).abs() < 1e-12, "{energy}");
    }

    #[test]
    fn control_pins_activity_and_both_ends_scale_it_by_hand() {
        // 4,096 beats (4 KiB on 8 bits) x (8 + 4) pins x 0.5 x 2 ends = 49,152 cycles x 7.2 pJ.
        let energy = pins(PinToggling::DataOnly, None, 4, 0.5, 2).energy_uj(4096, 1, 1_000_000);
        assert!((energy - 49_152.0 * 7.2 * 1e-6).abs() < 1e-12, "{energy}");
    }

    #[test]
    fn continuous_toggling_charges_the_whole_run_on_every_channel() {
        // 1 ms at 1066 MT/s on 2 channels: 2,132,000 beats x 8 pins = 17,056,000 cycles x 7.2 pJ
        // = 122.8032 uJ (0.1228 W), whatever moved.
        let pins = pins(PinToggling::Continuous, None, 0, 1.0, 1);
        let energy = pins.energy_uj(0, 2, 1_000_000);
        assert!((energy - 17_056_000.0 * 7.2 * 1e-6).abs() < 1e-9, "{energy}");
        assert_eq!(energy, pins.energy_uj(1 << 20, 2, 1_000_000));
    }
}
