//! The builder: turns a validated config into the parts of a run. It reads the workload's shape,
//! sizes the device to it, refuses what cannot run (with the config field to change) and builds
//! every part; the replay loop (`replay.rs`) only runs what this built.

use super::footprint::{self, AddressLimit, Footprint};
use super::*;

/// The workload as the builder found it: its request stream, the pages it touches and where it came from.
pub(super) struct WorkloadInput {
    stream: RequestStream,
    footprint: Footprint,
    origin: String,
    kind: &'static str,
    format: Option<String>,
    address_space_bytes: u64,
    trace_reading: TraceReading,
}

impl Simulation {
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
        let input = read_workload(config, progress)?;
        let (config, logical_pages) = size_device(config, &input);
        refuse_what_cannot_run(&config, &input, logical_pages)?;
        assemble(config, input, logical_pages)
    }
}

/// Reads the workload's shape: a trace is scanned once (its footprint, request count, address space),
/// a synthetic spec is taken as it is; tiles repeat it side by side.
fn read_workload(
    config: &SimulationConfig,
    progress: &mut ProgressCallback<'_>,
) -> Result<WorkloadInput, SimulationError> {
    let page_bytes = config.device.page_size_bytes() as u64;
    let workload_seed = derive_seed(config.seed, "workload");
    // The device's logical capacity, when the geometry fixes it before the workload is read.
    // (Compacted addresses are checked once compacted, below.)
    let geometry_capacity_bytes =
        (config.ftl.sizing == CapacitySizing::Geometry && config.host.tiles <= 1 && !config.host.compact_addresses)
            .then(|| tier_logical_pages(config, &DeviceLayout::new(&config.device)).iter().sum::<u64>() * page_bytes);
    let (stream, footprint, origin, kind, format, address_space_bytes, trace_reading) = if let Some(trace) =
        &config.workload.trace
    {
        let limit =
            AddressLimit { capacity_bytes: geometry_capacity_bytes, memory_bytes: limits::available_memory_bytes() };
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
        // With flows the stream is not replayed itself (its flow replays a copy): no reader thread.
        let ahead = trace.read_ahead && reading.kept_records_bytes == 0 && config.host.flows.is_empty();
        let stream = if ahead { stream.read_ahead()? } else { stream };
        // host.compact_addresses: the trace's distinct pages become pages 0..footprint.
        let (stream, footprint, address_space) = match footprint {
            Footprint::List(pages) if config.host.compact_addresses => {
                let count = pages.len() as u64;
                (stream.compacted(std::sync::Arc::from(pages), page_bytes), Footprint::Range(count), count * page_bytes)
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
    Ok(WorkloadInput { stream, footprint, origin, kind, format, address_space_bytes, trace_reading })
}

/// Sizes the device: with `ftl.sizing = "footprint"` each tier's blocks per plane are set so that the
/// footprint leaves the free fraction asked for (at least the GC reserve); returns the sized config
/// and the host's logical pages.
fn size_device(config: &SimulationConfig, input: &WorkloadInput) -> (SimulationConfig, u64) {
    let page_bytes = config.device.page_size_bytes() as u64;
    let footprint = &input.footprint;
    let mut config = config.clone();
    let address_pages = input.address_space_bytes.div_ceil(page_bytes);
    let logical_pages = match config.ftl.sizing {
        CapacitySizing::Geometry => tier_logical_pages(&config, &DeviceLayout::new(&config.device)).iter().sum::<u64>(),
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
                let planes =
                    g.channels as u64 * g.chips_per_channel as u64 * g.dies_per_chip as u64 * g.planes_per_die as u64;
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
    (config, logical_pages)
}

/// Refuses, before any request, what this device cannot run: a compacted trace or a synthetic span
/// larger than the device, more logical pages than the mapping addresses, a footprint whose
/// model would not fit in memory, a scrambler allowed to fill the GC reserve. Each error names the
/// config field to change.
fn refuse_what_cannot_run(
    config: &SimulationConfig,
    input: &WorkloadInput,
    logical_pages: u64,
) -> Result<(), SimulationError> {
    let page_bytes = config.device.page_size_bytes() as u64;
    let address_pages = input.address_space_bytes.div_ceil(page_bytes);
    let footprint = &input.footprint;
    if config.host.compact_addresses && config.workload.trace.is_some() && address_pages > logical_pages {
        let message = format!(
                "the trace's {address_pages} distinct pages (all tiles, after host.compact_addresses) do not fit the device's {logical_pages} logical pages; enlarge the device or lower ftl.overprovisioning_fraction"
            );
        return Err(config_invalid(config, "workload.trace.path", message));
    }
    if logical_pages >= u32::MAX as u64 {
        return Err(config_invalid(
            config,
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
            return Err(config_invalid(config, "workload.synthetic.span_bytes", message));
        }
    }
    let layout = DeviceLayout::new(&config.device);
    let blocks_total: u64 = layout.tiers().iter().map(|tier| tier.geometry.blocks_total() as u64).sum();
    let keep_tags = config.verification.integrity_oracle;
    // Preconditioning writes the whole footprint (and an aged drive's fill): refuse it here if it
    // cannot fit in memory.
    let layout_pages: u64 = tier_logical_pages(config, &layout).iter().sum();
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
        config,
        estimate,
        field,
        &format!("{what} ({} pages of {page_bytes} bytes on {blocks_total} blocks)", footprint.len().max(fill_pages)),
    )?;
    if config.middleware.kind == crate::config::MiddlewareKind::LbaScrambler {
        // Rule 1 may fill the NAND up to 1 - plentiful_free_fraction; GC needs its reserve
        // (high watermark + 2 open blocks) and one more block per plane of slack to make progress.
        let geometry = &layout.tier(crate::tier::TierId(0)).geometry;
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
            return Err(config_invalid(config, "middleware.lba_scrambler.plentiful_free_fraction", message));
        }
    }
    Ok(())
}

/// Builds every part of the run from the sized config.
fn assemble(config: SimulationConfig, input: WorkloadInput, logical_pages: u64) -> Result<Simulation, SimulationError> {
    let page_bytes = config.device.page_size_bytes() as u64;
    let layout = DeviceLayout::new(&config.device);
    let keep_tags = config.verification.integrity_oracle;
    let WorkloadInput { stream, footprint, origin, kind, format, address_space_bytes, trace_reading } = input;
    // The FTL's logical space: the host's, or larger when the middleware remaps into more.
    // A mapping-table cache's translation pages are FTL pages past the host's.
    let translation_pages =
        data_path::mapping_cache_sizes(&config, &layout, logical_pages).map_or(0, |s| s.translation_pages);
    let ftl_logical_pages =
        middleware::ftl_logical_pages(config.middleware.kind, logical_pages, layout.pages_total()) + translation_pages;
    if translation_pages > 0 && ftl_logical_pages >= u32::MAX as u64 {
        let message = format!(
            "{logical_pages} logical pages and {translation_pages} translation pages; at most {} are supported",
            u32::MAX - 1
        );
        return Err(config_invalid(&config, "device.mapping_cache", message));
    }
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
    // Seed 001's SCM (sized here, with the checks only the sizes allow); the data path puts it in front
    // of the NAND path.
    let scm = scm_sizing::build(&config, &layout, logical_pages, keep_tags)?;
    let data_path = data_path::build(data_path::PathParts {
        config: &config,
        scm,
        layout: &layout,
        ftl,
        retention,
        logical_pages,
        ftl_logical_pages,
        origin: &origin,
    })?;
    let mut scheduler = FlashScheduler::new(
        layout.clone(),
        config.read_path.extra_sensing_latency_ns,
        config.read_path.decode_latency_ns,
        config.ftl.garbage_collection.copyback,
    );
    scheduler.set_decoders(&config.read_path.decoders);
    let gc = &config.ftl.garbage_collection;
    scheduler.set_gc_mode(gc.mode, gc.write_hold_threshold_blocks, gc.low_watermark_blocks);
    if let Some(ganging) = crate::config::GangingConfig::of(&config.device) {
        scheduler.set_ganging(ganging);
    }
    // The SCM stage's banks and channels (a device with SCM has the stage: `scm_sizing::build`).
    if let Some(media) = &config.device.scm {
        scheduler.attach_scm(crate::media::scm::ScmTiming::new(media));
    }
    // The DRAM data cache's bus (the cache stage is in the data path when configured).
    if let Some(cache) = config.device.data_cache.as_ref().filter(|cache| cache.enabled) {
        scheduler.attach_dram(cache.access_latency_ns, cache.bandwidth_mb_per_s);
    }
    scheduler.set_interleave_groups(&config.read_path.interleave_groups);
    scheduler.decide_look_ahead_after_hard_sensing(
        config.read_path.look_ahead
            && config.read_path.look_ahead_idle_test == crate::config::LookAheadIdleTest::AfterHardSensing,
    );
    scheduler.set_soft_read_timing(
        config.read_path.soft_sensing_levels,
        config.read_path.soft_sensing_latency_ns,
        config.read_path.soft_transfer_latency_ns,
    );
    let flows = build_flows(&config, &stream, logical_pages * page_bytes)?;
    let closed_loop = config.host.mode == crate::config::HostMode::ClosedLoop;
    let depth = if closed_loop { config.host.queue_depth } else { config.host.device_queue_depth };
    Ok(Simulation {
        single: Some(SingleStream::new(stream, depth, closed_loop)),
        flows,
        flows_section: None,
        host_logical_pages: logical_pages,
        logical_capacity_bytes: logical_pages * page_bytes,
        page_bytes,
        layout,
        data_path,
        scheduler,
        footprint,
        origin,
        workload_kind: kind,
        format,
        address_space_bytes,
        trace_reading,
        read_latency: LatencyRecorder::default(),
        write_latency: LatencyRecorder::default(),
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
        observers: observers::build(&config, logical_pages)?,
        config,
    })
}

/// The flows of `host.flows` with their streams (None without flows): the flow without a workload
/// of its own replays a fresh copy of `[workload]`'s stream; a trace is scanned here; a synthetic
/// stream draws from its own seed (derived from the config's seed and the flow's name).
fn build_flows(
    config: &SimulationConfig,
    workload: &RequestStream,
    capacity_bytes: u64,
) -> Result<Option<FlowSet>, SimulationError> {
    if config.host.flows.is_empty() {
        return Ok(None);
    }
    let mut streams = Vec::with_capacity(config.host.flows.len());
    for (index, flow) in config.host.flows.iter().enumerate() {
        let field = |name: &str| format!("host.flows[{index}].{name}");
        if flow.lba_offset_bytes >= capacity_bytes {
            let message = format!(
                "flow `{}`: {} is at or beyond the device's logical capacity of {capacity_bytes} bytes (sized by [workload]), so none of its requests would fit",
                flow.name, flow.lba_offset_bytes
            );
            return Err(config_invalid(config, &field("lba_offset_bytes"), message));
        }
        let (stream, origin) = match (&flow.trace, &flow.synthetic) {
            (Some(trace), _) => {
                let scan = ssdlab_workload::TraceScan::scan(&trace.path, &trace.options()).map_err(|error| {
                    config_invalid(config, &field("trace.path"), format!("flow `{}`: {error}", flow.name))
                })?;
                (RequestStream::from_trace(scan, 1, flow.time_scale)?, trace.path.display().to_string())
            }
            (None, Some(spec)) => {
                if spec.span_bytes.saturating_add(flow.lba_offset_bytes) > capacity_bytes {
                    let message = format!(
                        "flow `{}`: its span ({} bytes) from lba_offset_bytes {} ends beyond the device's logical capacity of {capacity_bytes} bytes (sized by [workload])",
                        flow.name, spec.span_bytes, flow.lba_offset_bytes
                    );
                    return Err(config_invalid(config, &field("lba_offset_bytes"), message));
                }
                let seed = derive_seed(config.seed, &format!("flow:{}", flow.name));
                (RequestStream::from_synthetic(spec, seed, 1, flow.time_scale)?, "synthetic".to_string())
            }
            (None, None) => {
                let Some(copy) = workload.restarted(1, flow.time_scale)? else {
                    return Err(config_invalid(config, "workload", "no workload given".into()));
                };
                (copy, "[workload]".to_string())
            }
        };
        streams.push((stream, origin));
    }
    Ok(Some(FlowSet::new(
        &config.host.queues,
        &config.host.flows,
        streams,
        config.host.device_queue_depth,
        capacity_bytes,
    )?))
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
