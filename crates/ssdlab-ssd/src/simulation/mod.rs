//! The one place that wires the layers together and runs a simulation:
//! host interface -> middleware -> FTL -> flash scheduler -> media/channels, plus the integrity oracle.
//!
//! A run: read the workload's shape (trace scan or synthetic spec) -> size the device -> build the
//! layers -> fast-age -> precondition (fill the footprint, then random overwrites to GC steady state;
//! untimed) -> replay every request through the layers, booking flash work in simulated time -> check
//! that every request completed and, with the oracle on, that every read returned the latest write.

mod aged_drive;
mod dead_data;
pub use aged_drive::AgedDrive;
pub use dead_data::DeadDataSummary;
mod events;
mod footprint;
mod limits;
mod oracle;
mod page_set;
mod preconditioning;
mod replay;
mod request_log;
mod stored_footprint;
mod write_heat;
pub use write_heat::WriteHeat;
mod result;
mod run_result;
mod scm_result;
mod scm_serving;
mod scm_sizing;
mod time_series;
pub use time_series::{OpSeries, TimeSeries};

pub use crate::cpu_time::thread_cpu_seconds;
pub use replay::{Phase, ProgressCallback, PROGRESS_INTERVAL};

use crate::config::ReadStrategyKind;
use crate::config::{CapacitySizing, SimulationConfig};
use crate::device_events::DeviceEvents;
use crate::device_layout::DeviceLayout;
use crate::error::SimulationError;
use crate::flash_op::FlashOp;
use crate::ftl::placement::Placement;
use crate::ftl::Ftl;
use crate::host::device_queue::HostQueueStatistics;
use crate::host::workload_class::WorkloadClassifier;
use crate::host::RequestStream;
use crate::metrics::*;
use crate::middleware::{self, Middleware};
use crate::read_path::{self, ReadContext, ReadPlan, ReadStrategy};
use crate::retention::RetentionClock;
use crate::scheduler::{FlashScheduler, PlaneGroup};
use footprint::{AddressLimit, Footprint};
use oracle::Oracle;
pub use run_result::*;
use ssdlab_engine::random::derive_seed;
use ssdlab_engine::SimTime;
use std::time::Instant;

/// How a trace was read, for the result: malformed lines skipped (with `skip_bad_lines`), the
/// parsed-trace cache the run read and whether an earlier run built it, and the memory the scan's
/// records took when kept for the replay (`workload.trace.keep_records_bytes`).
#[derive(Debug, Clone, Default)]
struct TraceReading {
    skipped_lines: u64,
    skipped_line_messages: Vec<String>,
    cache: Option<String>,
    cache_reused: bool,
    kept_records_bytes: u64,
}

pub struct Simulation {
    config: SimulationConfig,
    layout: DeviceLayout,
    ftl: Ftl,
    scheduler: FlashScheduler,
    middleware: Box<dyn Middleware>,
    read_strategy: Box<dyn ReadStrategy>,
    /// The plan of every read when the strategy does not look at the context.
    fixed_read_plan: Option<ReadPlan>,
    /// True when that fixed plan is one plain hard read (sense, transfer, decode): the hot path.
    plain_reads: bool,
    oracle: Option<Oracle>,
    /// Data placement interleaving: pages per group (1: none), and the pages host writes were
    /// padded with to fill whole groups.
    interleave_group_pages: u64,
    interleave_padding_pages: u64,
    /// Dead data the FTL still holds (runs where deletes stop above the FTL or a middleware moves pages).
    dead_data: Option<dead_data::DeadData>,
    stream: RequestStream,
    footprint: Footprint,
    origin: String,
    workload_kind: &'static str,
    format: Option<String>,
    address_space_bytes: u64,
    /// How the trace was read (skipped lines, cache, records kept in memory); default for synthetic.
    trace_reading: TraceReading,
    logical_capacity_bytes: u64,
    /// Logical pages the host may address (the FTL's space may be larger, see `middleware`).
    host_logical_pages: u64,
    page_bytes: u64,
    ops: Vec<FlashOp>,
    program_group: PlaneGroup,
    /// Every tier's dies take multi-plane programs and reads.
    multi_plane: bool,
    /// Pages of a multi-plane read being gathered (see `serve_read`).
    read_group: PlaneGroup,
    read_latency: LatencyRecorder,
    write_latency: LatencyRecorder,
    unmapped_page_reads: u64,
    deletes: DeleteSummary,
    read_modify_writes: u64,
    precondition: PreconditionSummary,
    first_arrival: Option<SimTime>,
    last_completion: SimTime,
    requests_issued: u64,
    requests_completed: u64,
    host_queue: HostQueueStatistics,
    device_events: DeviceEvents,
    /// The longest host-visible stall, tracked on devices with tiers or events.
    stalls: Option<crate::host::stall::StallTracker>,
    /// `output.request_log_path`: one line per completed request.
    request_log: Option<request_log::RequestLog>,
    /// `output.time_series_interval_ms`: the run over time.
    time_series: Option<time_series::TimeSeriesCollector>,
    /// The workload class the controller sees (seed 000's policies only).
    workload_class: Option<WorkloadClassifier>,
    /// `output.write_heat`: host writes per logical page.
    write_heat: Option<write_heat::WriteCounter>,
    /// Seed 001's SCM and its placement (`placement.policy = "hybrid_scm"` or `"scm_only"`); with
    /// it the oracle's keys are sectors, not pages (`scm_serving.rs`).
    scm: Option<crate::scm::ScmPlacement>,
    /// Physical SCM slots of the operation being started (scratch).
    scm_slots: Vec<u32>,
    /// With SCM and the oracle: the sector tags of each NAND page's latest program.
    nand_contents: Option<scm_serving::NandContents>,
}

impl Simulation {
    /// Reads the workload's shape, sizes the device and builds every layer.
    pub fn new(config: &SimulationConfig) -> Result<Simulation, SimulationError> {
        Self::new_reporting(config, &mut |_, _, _| Ok(()))
    }

    /// [`Simulation::new`], reporting the trace scan's progress.
    pub fn new_reporting(
        config: &SimulationConfig,
        progress: &mut ProgressCallback<'_>,
    ) -> Result<Simulation, SimulationError> {
        config.validate().map_err(|(field, message)| crate::error::ConfigError::Invalid {
            origin: config_origin(config),
            line: None,
            field,
            message,
        })?;
        let page_bytes = config.device.page_size_bytes() as u64;
        let workload_seed = derive_seed(config.seed, "workload");
        // The device's logical capacity, when the geometry fixes it before the workload is read.
        // (Compacted addresses are checked once compacted, below.)
        let geometry_capacity_bytes = (config.ftl.sizing == CapacitySizing::Geometry
            && config.host.tiles <= 1
            && !config.host.compact_addresses)
            .then(|| tier_logical_pages(config, &DeviceLayout::new(&config.device)).iter().sum::<u64>() * page_bytes);
        let (stream, footprint, origin, kind, format, address_space_bytes, trace_reading) = if let Some(trace) =
            &config.workload.trace
        {
            let limit = AddressLimit {
                capacity_bytes: geometry_capacity_bytes,
                memory_bytes: limits::available_memory_bytes(),
            };
            let (scan, devices) = footprint::trace_footprint(trace, page_bytes, limit, progress)?;
            limits::check_request_count(config, scan.requests)?;
            let footprint = devices.place(&scan, limit)?;
            let origin = trace.path.display().to_string();
            let format = Some(scan.format.name().to_string());
            let address_space = scan.address_space_bytes;
            let reading = TraceReading {
                skipped_lines: scan.skipped.count,
                skipped_line_messages: scan.skipped.first_messages.clone(),
                cache: scan.cache.as_ref().map(|(path, _)| path.display().to_string()),
                cache_reused: scan.cache_reused,
                kept_records_bytes: scan.kept_records_bytes(),
            };
            let stream = RequestStream::from_trace(scan, config.host.loops, config.host.time_scale)?;
            // Records kept in memory cost the replay a few ns each: a reader thread would cost more
            // in hand-over than it saves.
            let stream =
                if trace.read_ahead && reading.kept_records_bytes == 0 { stream.read_ahead()? } else { stream };
            // host.compact_addresses: the trace's distinct pages become pages 0..footprint.
            let (stream, footprint, address_space) = match footprint {
                Footprint::List(pages) if config.host.compact_addresses => {
                    let count = pages.len() as u64;
                    (
                        stream.compacted(std::sync::Arc::from(pages), page_bytes),
                        Footprint::Range(count),
                        count * page_bytes,
                    )
                }
                footprint => (stream, footprint, address_space),
            };
            (stream, footprint, origin, "trace", format, address_space, reading)
        } else if let Some(spec) = &config.workload.synthetic {
            limits::check_request_count(config, spec.requests)?;
            let footprint = Footprint::Range(spec.span_bytes.div_ceil(page_bytes));
            let stream = RequestStream::from_synthetic(spec, workload_seed, config.host.loops, config.host.time_scale)?;
            (
                stream,
                footprint,
                "synthetic workload".to_string(),
                "synthetic",
                None,
                spec.span_bytes,
                TraceReading::default(),
            )
        } else {
            return Err(config_invalid(config, "workload", "no workload given".into()));
        };

        // Tiles: independent copies of the workload side by side, each over its own address range.
        let tiles = config.host.tiles.max(1) as u64;
        let tile_stride_bytes = address_space_bytes.div_ceil(page_bytes) * page_bytes;
        let (stream, footprint, address_space_bytes) = if tiles > 1 {
            (
                stream.tiled(tiles as u32, tile_stride_bytes),
                footprint.tiled(tiles, tile_stride_bytes / page_bytes)?,
                tile_stride_bytes * tiles,
            )
        } else {
            (stream, footprint, address_space_bytes)
        };
        let mut config = config.clone();
        let address_pages = address_space_bytes.div_ceil(page_bytes);
        let logical_pages = match config.ftl.sizing {
            CapacitySizing::Geometry => {
                tier_logical_pages(&config, &DeviceLayout::new(&config.device)).iter().sum::<u64>()
            }
            CapacitySizing::Footprint => {
                // NAND capacity = footprint / (1 - free) (seed 003), at least the GC reserve per plane.
                // A tiered device keeps its tiers' proportions: each tier gets its share of the
                // pages (by its physical pages as configured) and sets its blocks per plane.
                let specs = config.device.tiers();
                let configured: Vec<u64> = specs.iter().map(|spec| geometry_pages(&spec.geometry)).collect();
                let total: u64 = configured.iter().sum::<u64>().max(1);
                let needed_pages = (footprint.len() as f64 / (1.0 - config.ftl.footprint_free_fraction)).ceil() as u64;
                // A footprint too small for the GC reserve (high watermark + open blocks + one of slack
                // per plane) gets the reserve on top of its data: the free fraction is then larger than
                // asked (the result's physical capacity shows by how much).
                let reserve = config.ftl.garbage_collection.high_watermark_blocks as u64 + 3 + (specs.len() > 1) as u64;
                let mut blocks = Vec::with_capacity(specs.len());
                for (spec, pages) in specs.iter().zip(&configured) {
                    let g = &spec.geometry;
                    let planes = g.channels as u64
                        * g.chips_per_channel as u64
                        * g.dies_per_chip as u64
                        * g.planes_per_die as u64;
                    let share = |amount: u64| (amount as u128 * *pages as u128).div_ceil(total as u128) as u64;
                    let per_plane = share(needed_pages).div_ceil(planes * g.pages_per_block as u64);
                    let data_per_plane = share(footprint.len()).div_ceil(planes * g.pages_per_block as u64);
                    blocks.push((spec.name.clone(), per_plane.max(data_per_plane + reserve) as u32));
                }
                let tiered = config.device.is_tiered();
                for (name, blocks_per_plane) in blocks {
                    if tiered {
                        if let Some(tier) = config.device.tiers.get_mut(&name) {
                            tier.blocks_per_plane = blocks_per_plane;
                        }
                    } else if let Some(g) = config.device.geometry.as_mut() {
                        g.blocks_per_plane = blocks_per_plane;
                    }
                }
                address_pages.max(1)
            }
        };
        if config.host.compact_addresses && config.workload.trace.is_some() && address_pages > logical_pages {
            let message = format!(
                "the trace's {address_pages} distinct pages (all tiles, after host.compact_addresses) do not fit the device's {logical_pages} logical pages; enlarge the device or lower ftl.overprovisioning_fraction"
            );
            return Err(config_invalid(&config, "workload.trace.path", message));
        }
        if logical_pages >= u32::MAX as u64 {
            return Err(config_invalid(
                &config,
                "device.geometry",
                format!("{logical_pages} logical pages; at most {} are supported", u32::MAX - 1),
            ));
        }
        if let Some(spec) = &config.workload.synthetic {
            // Caught here, before any request, so the message names the config field to change.
            let capacity_bytes = logical_pages * page_bytes;
            if spec.span_bytes > capacity_bytes {
                let message = format!(
                    "{} bytes is beyond the device's logical capacity of {capacity_bytes} bytes; shrink the span, enlarge the device or lower ftl.overprovisioning_fraction",
                    spec.span_bytes
                );
                return Err(config_invalid(&config, "workload.synthetic.span_bytes", message));
            }
        }
        let layout = DeviceLayout::new(&config.device);
        let blocks_total: u64 = layout.tiers().iter().map(|tier| tier.geometry.blocks_total() as u64).sum();
        let keep_tags = config.verification.integrity_oracle;
        // Preconditioning writes the whole footprint (and an aged drive's fill): refuse it here if it
        // cannot fit in memory.
        let layout_pages: u64 = tier_logical_pages(&config, &layout).iter().sum();
        let fill_pages = (config.ftl.precondition.fill_fraction * layout_pages as f64) as u64;
        let estimate = limits::estimate_bytes(footprint.len().max(fill_pages), blocks_total, keep_tags);
        let (field, what) = if fill_pages > footprint.len() {
            ("ftl.precondition.fill_fraction", "the aged drive's fill")
        } else if config.workload.trace.is_some() {
            ("workload.trace.path", "the trace's footprint")
        } else {
            ("workload.synthetic.span_bytes", "the synthetic span")
        };
        limits::check_memory(
            &config,
            estimate,
            field,
            &format!(
                "{what} ({} pages of {page_bytes} bytes on {blocks_total} blocks)",
                footprint.len().max(fill_pages)
            ),
        )?;
        if config.middleware.kind == crate::config::MiddlewareKind::LbaScrambler {
            // Rule 1 may fill the NAND up to 1 - plentiful_free_fraction; GC needs its reserve
            // (high watermark + 2 open blocks) and one more block per plane of slack to make progress.
            let geometry = &layout.tier(0).geometry;
            let reserve_pages = geometry.planes_total() as u64
                * (config.ftl.garbage_collection.high_watermark_blocks as u64 + 3)
                * geometry.pages_per_block as u64;
            let minimum = reserve_pages as f64 / geometry.pages_total() as f64;
            let plentiful = config.middleware.lba_scrambler.plentiful_free_fraction;
            if plentiful < minimum {
                let message = format!(
                    "{plentiful} would let rule 1 fill the NAND into the GC reserve of this device ({reserve_pages} of {} pages); use at least {minimum:.3}",
                    geometry.pages_total()
                );
                return Err(config_invalid(&config, "middleware.lba_scrambler.plentiful_free_fraction", message));
            }
        }
        // The FTL's logical space: the host's, or larger when the middleware remaps into more.
        let ftl_logical_pages =
            middleware::ftl_logical_pages(config.middleware.kind, logical_pages, layout.pages_total());
        let placement = Placement::build(&config.placement, &layout);
        let tier_pages = match config.ftl.sizing {
            CapacitySizing::Footprint if !layout.is_single() => tier_logical_pages(&config, &layout),
            CapacitySizing::Footprint => vec![ftl_logical_pages],
            CapacitySizing::Geometry => tier_logical_pages(&config, &layout),
        };
        let mut ftl = Ftl::new(&layout, &config.ftl, placement, &tier_pages, ftl_logical_pages, keep_tags);
        let retention =
            RetentionClock::new(config.read_path.retention_time_scale, config.ftl.precondition.oldest_data_age_hours());
        ftl.set_retention_clock(retention);
        let workload_class =
            matches!(config.read_path.strategy, ReadStrategyKind::Conventional | ReadStrategyKind::AoaEcc)
                .then(|| WorkloadClassifier::new(&config.read_path.workload_class, &retention, logical_pages));
        let scm = scm_sizing::build(&config, &layout, logical_pages, keep_tags)?;
        let mut scheduler = FlashScheduler::new(
            layout.clone(),
            config.read_path.extra_sensing_latency_ns,
            config.read_path.decode_latency_ns,
            config.ftl.garbage_collection.copyback,
        );
        scheduler.set_decoders(&config.read_path.decoders);
        let gc = &config.ftl.garbage_collection;
        scheduler.set_gc_mode(gc.mode, gc.write_hold_threshold_blocks, gc.low_watermark_blocks);
        if let (Some(media), Some(_)) = (&config.device.scm, &scm) {
            scheduler.attach_scm(crate::media::scm::ScmTiming::new(media));
        }
        scheduler.set_interleave_groups(&config.read_path.interleave_groups);
        scheduler.set_soft_read_timing(
            config.read_path.soft_sensing_levels,
            config.read_path.soft_sensing_latency_ns,
            config.read_path.soft_transfer_latency_ns,
        );
        let middleware =
            middleware::build(&config.middleware, ftl_logical_pages, derive_seed(config.seed, "middleware"));
        let mut read_strategy = read_path::build(&config.read_path, derive_seed(config.seed, "read_path"));
        // A strategy that ignores the context plans every read the same way: plan once.
        let fixed_read_plan = (!read_strategy.uses_context()).then(|| read_strategy.plan(&ReadContext::default()));
        Ok(Simulation {
            host_logical_pages: logical_pages,
            oracle: keep_tags.then(Oracle::new),
            dead_data: (config.host.delete_target != crate::config::DeleteTarget::Ftl
                || config.middleware.kind == crate::config::MiddlewareKind::LbaScrambler)
                .then(|| dead_data::DeadData::new(ftl_logical_pages)),
            logical_capacity_bytes: logical_pages * page_bytes,
            page_bytes,
            multi_plane: config.device.tiers().iter().all(|tier| tier.nand.multi_plane),
            layout,
            ftl,
            scheduler,
            middleware,
            read_strategy,
            plain_reads: fixed_read_plan.as_ref().is_some_and(ReadPlan::is_plain_hard_read)
                && config.read_path.interleave_groups.is_empty(),
            interleave_group_pages: config.read_path.interleave_groups.first().map_or(1, |group| group.len() as u64),
            interleave_padding_pages: 0,
            fixed_read_plan,
            stream,
            footprint,
            origin,
            workload_kind: kind,
            format,
            address_space_bytes,
            trace_reading,
            ops: Vec::with_capacity(1024),
            program_group: PlaneGroup::default(),
            read_group: PlaneGroup::default(),
            read_latency: LatencyRecorder::default(),
            write_latency: LatencyRecorder::default(),
            unmapped_page_reads: 0,
            deletes: DeleteSummary {
                target: serde_json::to_value(config.host.delete_target)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                ..Default::default()
            },
            read_modify_writes: 0,
            precondition: PreconditionSummary {
                pages_written: 0,
                gc_pages_copied: 0,
                blocks_erased: 0,
                wall_seconds: 0.0,
                aged_drive: None,
            },
            first_arrival: None,
            last_completion: SimTime::ZERO,
            requests_issued: 0,
            requests_completed: 0,
            host_queue: HostQueueStatistics::default(),
            device_events: DeviceEvents::new(&config.events),
            stalls: (config.device.is_tiered() || !config.events.is_empty()).then(Default::default),
            request_log: config.output.request_log_path.as_deref().map(request_log::RequestLog::create).transpose()?,
            time_series: config
                .output
                .time_series_interval_ms
                .map(|ms| time_series::TimeSeriesCollector::new((ms * 1e6).round() as u64)),
            workload_class,
            write_heat: config.output.write_heat.then(|| write_heat::WriteCounter::new(logical_pages)),
            nand_contents: (keep_tags && scm.is_some()).then(Default::default),
            scm,
            scm_slots: Vec::new(),
            config,
        })
    }

    pub fn ftl(&self) -> &Ftl {
        &self.ftl
    }

    /// Keeps a record of every die and channel booking of the replay (for checks such as
    /// [`crate::scheduler::check_work_conserving`]); call after `prepare`.
    pub fn record_bookings(&mut self) {
        self.scheduler.record_bookings();
    }

    pub fn bookings(&self) -> Option<&[crate::scheduler::Booking]> {
        self.scheduler.bookings()
    }
}

/// Physical pages of a geometry.
fn geometry_pages(g: &crate::config::GeometryConfig) -> u64 {
    g.channels as u64
        * g.chips_per_channel as u64
        * g.dies_per_chip as u64
        * g.planes_per_die as u64
        * g.blocks_per_plane as u64
        * g.pages_per_block as u64
}

/// Pages the host may keep on each tier: its physical pages minus its over-provisioning (with
/// footprint sizing, the free fraction asked for).
fn tier_logical_pages(config: &SimulationConfig, layout: &DeviceLayout) -> Vec<u64> {
    let default_fraction = match config.ftl.sizing {
        CapacitySizing::Geometry => config.ftl.overprovisioning_fraction,
        CapacitySizing::Footprint => config.ftl.footprint_free_fraction,
    };
    let specs = config.device.tiers();
    layout
        .tiers()
        .iter()
        .zip(&specs)
        .map(|(tier, spec)| {
            let fraction = spec.overprovisioning_fraction.unwrap_or(default_fraction);
            (tier.geometry.pages_total() as f64 * (1.0 - fraction)).floor() as u64
        })
        .collect()
}

/// A configuration error found while building the simulation, naming the config and the field.
pub(super) fn config_invalid(config: &SimulationConfig, field: &str, message: String) -> SimulationError {
    crate::error::ConfigError::Invalid { origin: config_origin(config), line: None, field: field.into(), message }
        .into()
}

fn config_origin(config: &SimulationConfig) -> String {
    if config.name.is_empty() {
        "config".to_string()
    } else {
        format!("config `{}`", config.name)
    }
}

/// Runs a whole simulation.
pub fn run(config: &SimulationConfig, progress: &mut ProgressCallback<'_>) -> Result<RunResult, SimulationError> {
    let started = Instant::now();
    let mut simulation = Simulation::new_reporting(config, progress)?;
    simulation.prepare_reporting(progress)?;
    let cpu_before = thread_cpu_seconds();
    simulation.replay(progress)?;
    // The replay thread's time and, with read-ahead, the reader thread's: parsing counts either way.
    let replay_cpu = thread_cpu_seconds() - cpu_before + simulation.stream.reader_cpu_seconds();
    simulation.finish(started.elapsed().as_secs_f64(), replay_cpu)
}
