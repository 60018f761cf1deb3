//! The end of a run: the integrity oracle's final sweep and the result.

use super::Simulation;
use crate::error::SimulationError;
use crate::geometry::Lpn;
use crate::metrics::*;
use ssdlab_engine::SimTime;

impl Simulation {
    /// Final checks and the result.
    pub fn finish(mut self, wall_seconds: f64, replay_cpu_seconds: f64) -> Result<RunResult, SimulationError> {
        let mut pages_checked_at_end = 0;
        if let Some(mut oracle) = self.oracle.take() {
            let mut expected: Vec<(u32, u32)> = oracle.expected.iter().map(|(&k, &v)| (k, v)).collect();
            expected.sort_unstable();
            for (host_page, _) in expected {
                let found = self.middleware.read_target(Lpn(host_page)).and_then(|t| self.ftl.lookup(t)).map(|ppn| self.ftl.tag(ppn));
                oracle.check(host_page, found, "final sweep");
                pages_checked_at_end += 1;
            }
            if let Err(message) = self.ftl.check_invariants() {
                oracle.mismatches += 1;
                oracle.first_mismatch.get_or_insert(format!("FTL invariant: {message}"));
            }
            if oracle.mismatches > 0 {
                return Err(SimulationError::Integrity { mismatches: oracle.mismatches, first: oracle.first_mismatch.unwrap_or_default() });
            }
            self.oracle = Some(oracle);
        }
        let start = self.first_arrival.unwrap_or(SimTime::ZERO);
        // The run ends when the device has finished all its work (as in MQSim, whose run ends when
        // its event queue is empty): host requests do not wait for garbage collection, so under
        // overload GC booked by earlier requests can still be running when the last request
        // completes, and throughput over the host requests' span alone would count work the
        // device has not done yet.
        let simulated = self.last_completion.max(self.scheduler.busy_until()).since(start).as_secs_f64();
        let busy_span = simulated;
        let stats = self.ftl.stats;
        let (erase_min, erase_mean, erase_max) = self.ftl.erase_count_summary();
        let (die_busy, channel_busy) = self.scheduler.busy_totals();
        let utilisation = |busy: f64, servers: usize| if busy_span > 0.0 { busy / (busy_span * servers as f64) } else { 0.0 };
        let g = &self.config.device.geometry;
        let energy = crate::energy::EnergyAccount::of(&self.config.device.energy, &self.scheduler.counters, self.config.read_path.extra_sensing_latency_ns);
        Ok(RunResult {
            name: self.config.name.clone(),
            seed: self.config.seed,
            workload: WorkloadSummary {
                kind: self.workload_kind.to_string(),
                source: self.origin.clone(),
                format: self.format.clone(),
                loops: self.config.host.loops,
                tiles: self.config.host.tiles,
                footprint_pages: self.footprint.len(),
                address_space_bytes: self.address_space_bytes,
                timestamps_reordered: self.stream.timestamps_reordered(),
                skipped_lines: self.skipped_lines.0 * self.config.host.loops as u64 * self.config.host.tiles as u64,
                skipped_line_messages: self.skipped_lines.1.clone(),
            },
            device: DeviceSummary {
                channels: g.channels,
                chips_per_channel: g.chips_per_channel,
                dies_per_chip: g.dies_per_chip,
                planes_per_die: g.planes_per_die,
                blocks_per_plane: g.blocks_per_plane,
                pages_per_block: g.pages_per_block,
                page_size_bytes: g.page_size_bytes,
                physical_capacity_bytes: self.geometry.capacity_bytes(),
                logical_capacity_bytes: self.logical_capacity_bytes,
                gc_policy: self.ftl.victim_policy_name().to_string(),
                wear_leveling: format!("{:?}", self.config.ftl.wear_leveling.policy).to_lowercase(),
                read_strategy: self.read_strategy.name().to_string(),
                middleware: self.middleware.name().to_string(),
            },
            requests: self.requests_issued,
            requests_completed: self.requests_completed,
            host_queue: self.host_queue,
            read: self.read_latency.summary(simulated),
            write: self.write_latency.summary(simulated),
            all: LatencyRecorder::combined(&self.read_latency, &self.write_latency).summary(simulated),
            gc: gc_metrics(&stats),
            host_pages_written: stats.host_pages_written,
            write_amplification: if stats.host_pages_written == 0 { 0.0 } else { (stats.host_pages_written + stats.gc_pages_copied) as f64 / stats.host_pages_written as f64 },
            erase_count: EraseCountSummary { min: erase_min, mean: erase_mean, max: erase_max, endurance_pe_cycles: self.config.device.nand.endurance_pe_cycles },
            flash: self.scheduler.counters,
            energy_total_uj: energy.total_uj(),
            energy_uj: energy,
            utilisation: UtilisationSummary {
                die: utilisation(die_busy.as_secs_f64(), self.scheduler.dies()),
                channel: utilisation(channel_busy.as_secs_f64(), self.scheduler.channels()),
            },
            unmapped_page_reads: self.unmapped_page_reads,
            read_modify_writes: self.read_modify_writes,
            precondition: self.precondition.clone(),
            integrity: IntegritySummary {
                enabled: self.oracle.is_some(),
                reads_checked: self.oracle.as_ref().map_or(0, |o| o.reads_checked),
                pages_checked_at_end,
                mismatches: 0,
            },
            simulated_seconds: simulated,
            wall_seconds,
            replay_cpu_seconds,
            requests_per_wall_second: if wall_seconds > 0.0 { self.requests_issued as f64 / wall_seconds } else { 0.0 },
            requests_per_cpu_second: if replay_cpu_seconds > 0.0 { self.requests_issued as f64 / replay_cpu_seconds } else { 0.0 },
            model_memory_bytes: self.ftl.memory_bytes() + self.middleware.memory_bytes(),
            middleware: self.middleware.stats(),
            read_path: self.read_strategy.statistics(),
        })
    }
}
