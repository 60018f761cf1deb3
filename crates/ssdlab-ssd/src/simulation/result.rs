//! The end of a run: the integrity oracle's final read-back and the result.

use super::run_result::*;
use super::{device_view, Simulation};
use crate::device_events::EventRecord;
use crate::energy::{ActivityTimes, EnergyAccount};
use crate::error::SimulationError;
use crate::host::RequestStream;
use crate::metrics::*;
use ssdlab_engine::SimTime;
use std::collections::BTreeMap;

/// Half the simulated clock's range (292 years): a run reaching it is refused.
const CLOCK_LIMIT_NS: u64 = u64::MAX / 2;

impl Simulation {
    /// Final checks and the result.
    pub fn finish(mut self, wall_seconds: f64, replay_cpu_seconds: f64) -> Result<RunResult, SimulationError> {
        // Times are saturating u64 nanoseconds: a run reaching half their range has, or may have,
        // saturated somewhere (its latencies then read 0), so it is refused rather than reported.
        let end =
            self.last_completion.max(self.scheduler.busy_until()).max(self.first_arrival.unwrap_or(SimTime::ZERO));
        if end.0 >= CLOCK_LIMIT_NS {
            let years = |ns: u64| ns as f64 / 1e9 / (365.25 * 86_400.0);
            return Err(SimulationError::ClockOutOfRange {
                reached_years: years(end.0),
                limit_years: years(CLOCK_LIMIT_NS),
            });
        }
        // The integrity oracle's final read-back (pages; sectors on a device with SCM).
        self.data_path.finish_oracle()?;
        let nand = self.data_path.nand();
        let start = self.first_arrival.unwrap_or(SimTime::ZERO);
        // The run ends when the device has finished all its work (as in MQSim, whose run ends when
        // its event queue is empty): host requests do not wait for garbage collection, so under
        // overload GC booked by earlier requests can still be running when the last request
        // completes, and throughput over the host requests' span alone would count work the
        // device has not done yet.
        let simulated = self.last_completion.max(self.scheduler.busy_until()).since(start).as_secs_f64();
        let busy_span = simulated;
        let stats = nand.ftl().stats();
        let (erase_min, erase_mean, erase_max) = nand.ftl().erase_count_summary();
        let (die_busy, channel_busy) = self.scheduler.busy_totals();
        let utilisation =
            |busy: f64, servers: usize| if busy_span > 0.0 { busy / (busy_span * servers as f64) } else { 0.0 };
        let tiers = self.tier_summaries(simulated);
        let energy = tiers.values().fold(EnergyAccount::default(), |sum, tier| sum.plus(&tier.energy_uj));
        // The data path's sections (its counters, summaries and the SCM's).
        let path = self.data_path.result(&super::data_path::ResultContext {
            config: &self.config,
            scheduler: &self.scheduler,
            stats: &stats,
            simulated_seconds: simulated,
            end: self.last_completion.max(self.scheduler.busy_until()),
        });
        let energy_total_uj = energy.total_uj() + path.scm.as_ref().map_or(0.0, |scm| scm.energy_total_uj);
        let first = self.layout.tier(crate::tier::TierId(0));
        let mut result = RunResult {
            result_version: RESULT_VERSION,
            name: self.config.name.clone(),
            seed: self.config.seed,
            workload: self.workload_section(),
            device: self.device_section(),
            requests: self.requests_issued,
            requests_completed: self.requests_completed,
            host_queue: self.host_queue,
            read: self.read_latency.summary(simulated),
            write: self.write_latency.summary(simulated),
            all: LatencyRecorder::combined(&self.read_latency, &self.write_latency).summary(simulated),
            gc: self.gc_section(&stats, simulated),
            host_pages_written: stats.host_pages_written,
            write_amplification: if stats.host_pages_written == 0 {
                0.0
            } else {
                (stats.host_pages_written + stats.gc_pages_copied + stats.pages_migrated_in + stats.block_modify_pages)
                    as f64
                    / stats.host_pages_written as f64
            },
            erase_count: EraseCountSummary {
                min: erase_min,
                mean: erase_mean,
                max: erase_max,
                endurance_pe_cycles: first.endurance_pe_cycles,
            },
            flash: self.scheduler.counters(),
            energy_total_uj,
            power_w: if simulated > 0.0 { energy_total_uj * 1e-6 / simulated } else { 0.0 },
            energy_uj: energy,
            tiers,
            placement: match self.config.placement.policy {
                crate::config::PlacementKind::HybridScm => "hybrid_scm".to_string(),
                crate::config::PlacementKind::ScmOnly => "scm_only".to_string(),
                _ => nand.ftl().placement_name().to_string(),
            },
            events: self
                .device_events
                .finished_records()
                .into_iter()
                .map(|record| EventRecord { valid_pages_at_end: nand.ftl().chip_valid_pages(record.chip), ..record })
                .collect(),
            dead_time: self.dead_time_section(),
            utilisation: UtilisationSummary {
                die: utilisation(die_busy.as_secs_f64(), self.scheduler.dies()),
                channel: utilisation(channel_busy.as_secs_f64(), self.scheduler.channels()),
            },
            precondition: self.precondition.clone(),
            simulated_seconds: simulated,
            host_span_seconds: self.last_completion.max(start).since(start).as_secs_f64(),
            wall_seconds,
            replay_cpu_seconds,
            phases: PhaseCpu::default(),
            requests_per_wall_second: if wall_seconds > 0.0 { self.requests_issued as f64 / wall_seconds } else { 0.0 },
            requests_per_cpu_second: if replay_cpu_seconds > 0.0 {
                self.requests_issued as f64 / replay_cpu_seconds
            } else {
                0.0
            },
            time_series: None,
            request_log: None,
            write_heat: None,
            data_path: path,
            flows: self.flows_section.take(),
            ganging: None,
            scheduler: self.scheduler.scheduler_statistics(),
        };
        // Observers add their own sections.
        let end = self.last_completion.max(self.scheduler.busy_until());
        result.ganging = self.scheduler.gang_statistics(end);
        self.observers.finish(end, &device_view!(self), &mut result)?;
        Ok(result)
    }
}

/// The sections of the result that belong to the loop's own parts: the workload it read, the device
/// it built, GC as the FTL and the scheduler's write gate saw it, and dead time.
impl Simulation {
    fn workload_section(&self) -> WorkloadSummary {
        WorkloadSummary {
            kind: self.workload_kind.to_string(),
            source: self.origin.clone(),
            format: self.format.clone(),
            loops: self.config.host.loops,
            tiles: self.config.host.tiles,
            footprint_pages: self.footprint.len(),
            address_space_bytes: self.address_space_bytes,
            timestamps_reordered: self.stream().map_or(0, RequestStream::timestamps_reordered),
            skipped_lines: self.trace_reading.skipped_lines
                * self.config.host.loops as u64
                * self.config.host.tiles as u64,
            skipped_line_messages: self.trace_reading.skipped_line_messages.clone(),
            trace_cache: self.trace_reading.cache.clone(),
            trace_cache_reused: self.trace_reading.cache_reused,
            kept_records_bytes: self.trace_reading.kept_records_bytes,
        }
    }

    fn device_section(&self) -> DeviceSummary {
        let nand = self.data_path.nand();
        let first = self.layout.tier(crate::tier::TierId(0));
        // A tiered device has no one geometry: its summary gives the total channels (see DeviceSummary).
        let g = if self.layout.is_single() {
            first.geometry.clone()
        } else {
            let totals = crate::config::GeometryConfig {
                channels: self.layout.channels_total(),
                chips_per_channel: 0,
                dies_per_chip: 0,
                planes_per_die: 0,
                blocks_per_plane: 0,
                pages_per_block: 0,
                page_size_bytes: first.geometry.page_size_bytes,
            };
            crate::geometry::Geometry::new(&totals, first.cell_type)
        };
        DeviceSummary {
            channels: g.channels,
            chips_per_channel: g.chips_per_channel,
            dies_per_chip: g.dies_per_chip,
            planes_per_die: g.planes_per_die,
            blocks_per_plane: g.blocks_per_plane,
            pages_per_block: g.pages_per_block,
            page_size_bytes: g.page_size_bytes,
            physical_capacity_bytes: self.layout.capacity_bytes(),
            logical_capacity_bytes: self.logical_capacity_bytes,
            gc_policy: nand.ftl().victim_policy_name().to_string(),
            wear_leveling: format!("{:?}", self.config.ftl.wear_leveling.policy).to_lowercase(),
            read_strategy: nand.read_strategy().name().to_string(),
            middleware: nand.middleware().name().to_string(),
        }
    }

    fn gc_section(&self, stats: &crate::ftl::FtlStats, simulated: f64) -> GcMetrics {
        GcMetrics {
            host_writes_held: Some(WriteHoldSummary::of(
                self.config.ftl.garbage_collection.mode,
                self.scheduler.write_hold_threshold_blocks(),
                self.scheduler.write_hold_statistics(),
                simulated,
            )),
            ..gc_metrics(stats)
        }
    }

    fn dead_time_section(&self) -> DeadTimeSummary {
        {
            let background = self.scheduler.longest_background_span_ns() as f64 * 1e-3;
            let suspension = self.device_events.longest_suspension_ns() as f64 * 1e-3;
            DeadTimeSummary {
                longest_background_span_us: background,
                longest_suspension_us: suspension,
                // (the stall observer fills it on devices with tiers or events)
                longest_host_stall_us: None,
                dead_time_us: background.max(suspension),
            }
        }
    }
}

impl Simulation {
    /// Each tier's capacity, accesses, wear, utilisation and energy over a run of `simulated` seconds.
    fn tier_summaries(&self, simulated: f64) -> BTreeMap<String, TierSummary> {
        let nand = self.data_path.nand();
        let (die_busy, channel_busy) = self.scheduler.busy_per_resource();
        let span_ns = (simulated * 1e9).round() as u64;
        let counters = self.scheduler.tier_counters();
        let specs = self.config.device.tiers();
        let mut tiers = BTreeMap::new();
        for (index, tier) in self.layout.tiers().iter().enumerate() {
            let store = &nand.ftl().stores()[crate::tier::TierId::new(index)];
            let g = &tier.geometry;
            let dies = tier.first_die as usize..(tier.first_die + g.dies_total()) as usize;
            let channels = tier.first_channel as usize..(tier.first_channel + g.channels) as usize;
            let busy_die_ns: u64 = die_busy[dies.clone()].iter().map(|d| d.0).sum();
            let busy_channel_ns: u64 = channel_busy[channels.clone()].iter().map(|c| c.0).sum();
            let fraction = |busy: u64, servers: usize| {
                if span_ns > 0 {
                    busy as f64 / (span_ns as f64 * servers as f64)
                } else {
                    0.0
                }
            };
            // The All S-SCM SSD has no NAND: its NAND tables hold nothing and draw no idle current,
            // and it has no NAND channels whose pins could toggle (`pin_toggling = "continuous"`).
            let scm_only = self.data_path.scm_only();
            let die_span_ns = if scm_only { busy_die_ns } else { span_ns * dies.len() as u64 };
            let activity = ActivityTimes {
                die_busy_ns: busy_die_ns,
                die_span_ns,
                io_pins: tier.io_pins,
                channels: if scm_only { 0 } else { g.channels },
                span_ns,
            };
            let energy = EnergyAccount::of(
                &specs[index].energy,
                &counters[index],
                self.config.read_path.extra_sensing_level_ns(),
                &activity,
            );
            let (min, sum, max, blocks) = store.erase_counts();
            let stats = store.stats;
            tiers.insert(
                tier.name.clone(),
                TierSummary {
                    cell_type: format!("{:?}", tier.cell_type).to_lowercase(),
                    channels: g.channels,
                    chips: g.chips_total(),
                    dies_per_chip: g.dies_per_chip,
                    planes_per_die: g.planes_per_die,
                    blocks_per_plane: g.blocks_per_plane,
                    pages_per_block: g.pages_per_block,
                    physical_capacity_bytes: g.capacity_bytes(),
                    logical_capacity_bytes: store.logical_capacity_pages() * self.page_bytes,
                    valid_pages: store.valid_pages_total(),
                    collector: nand.ftl().collector_name(crate::tier::TierId::new(index)).to_string(),
                    host_pages_written: stats.host_pages_written,
                    gc: gc_metrics(&stats),
                    pages_migrated_in: stats.pages_migrated_in,
                    pages_migrated_out: stats.pages_migrated_out,
                    block_unit: tier.block_unit,
                    block_modify_writes: stats.block_modify_writes,
                    block_modify_pages: stats.block_modify_pages,
                    screening_copies: stats.screening_copies,
                    screening_skips: stats.screening_skips,
                    residual_pages: stats.residual_pages,
                    accumulation_extra_victims: stats.accumulation_extra_victims,
                    screening_read_pages: stats.screening_read_pages,
                    erase_count: EraseCountSummary {
                        min,
                        mean: sum as f64 / blocks.max(1) as f64,
                        max,
                        endurance_pe_cycles: tier.endurance_pe_cycles,
                    },
                    flash: counters[index],
                    utilisation: UtilisationSummary {
                        die: fraction(busy_die_ns, dies.len()),
                        channel: fraction(busy_channel_ns, channels.len()),
                    },
                    energy_total_uj: energy.total_uj(),
                    power_w: if simulated > 0.0 { energy.total_uj() * 1e-6 / simulated } else { 0.0 },
                    energy_uj: energy,
                },
            );
        }
        tiers
    }
}
