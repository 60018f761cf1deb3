//! The builder: turns a validated config into the parts of a run. It reads the workload's shape,
//! sizes the device to it, refuses what cannot run (with the config field to change) and builds
//! every part; the replay loop (`replay.rs`) only runs what this built. Flows confined to some of
//! the device's units (`host/flows/resources.rs`) get their logical ranges here: the FTL writes each
//! range to its planes, the caches' parts follow them, and the flows refuse requests beyond them.

use super::footprint::{self, AddressLimit, Footprint};
use super::*;
use crate::config::FlowConfig;
use crate::host::flows::resources::{self, FlowRange};

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
        let scan_started = crate::cpu_time::thread_cpu_seconds();
        let mut input = read_workload(config, progress)?;
        input.trace_reading.scan_cpu_seconds = crate::cpu_time::thread_cpu_seconds() - scan_started;
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
            scan_cpu_seconds: 0.0,
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
    if config.ftl.plane_allocation_order != crate::config::PlaneAllocationOrder::Cwdp
        && crate::config::GangingConfig::of(&config.device).is_some()
    {
        let message =
            "a ganged device stripes by gangs (DiskSim's order); leave the order at \"cwdp\" or remove device.ganging"
                .to_string();
        return Err(config_invalid(config, "ftl.plane_allocation_order", message));
    }
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
    let flow_ranges = resolve_flow_ranges(&config, &layout, logical_pages)?;
    if flow_ranges.iter().any(Option::is_some) {
        // One tier (refused otherwise): its local planes are the global ones.
        ftl.confine(
            flow_ranges
                .iter()
                .flatten()
                .map(|range| {
                    crate::ftl::block_store::PlaneRange::new(
                        range.first_page as u32,
                        range.end_page as u32,
                        range.planes.clone(),
                    )
                })
                .collect(),
        );
    }
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
        flow_ranges: &flow_ranges,
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
    // The dies' queues and their policy (`[scheduler]`), with each flow's priority class.
    scheduler.set_scheduling(&config.scheduler, config.host.flows.iter().map(|flow| flow.priority_class).collect());
    if config.output.request_log_path.is_some() {
        // The request log's breakdown columns (`scheduler/breakdown.rs`).
        scheduler.record_breakdowns();
    }
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
    let flows = build_flows(&config, &stream, logical_pages * page_bytes, &flow_ranges)?;
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
    flow_ranges: &[Option<FlowRange>],
) -> Result<Option<FlowSet>, SimulationError> {
    if config.host.flows.is_empty() {
        return Ok(None);
    }
    let page_bytes = config.device.page_size_bytes() as u64;
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
                if let Some(Some(range)) = flow_ranges.get(index) {
                    let end_bytes = range.end_page * page_bytes;
                    if spec.span_bytes.saturating_add(flow.lba_offset_bytes) > end_bytes {
                        let message = format!(
                            "flow `{}`: its span ({} bytes) from lba_offset_bytes {} ends beyond its own range, which ends at byte {end_bytes} (the share of the logical capacity its units hold, host.flows[{index}].channels etc.); shrink the span or give the flow more units",
                            flow.name, spec.span_bytes, flow.lba_offset_bytes
                        );
                        return Err(config_invalid(config, &field("synthetic.span_bytes"), message));
                    }
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
    let ranges_bytes: Vec<Option<(u64, u64)>> = flow_ranges
        .iter()
        .map(|range| range.as_ref().map(|range| (range.first_page * page_bytes, range.end_page * page_bytes)))
        .collect();
    Ok(Some(FlowSet::new(
        &config.host.queues,
        &config.host.flows,
        streams,
        config.host.device_queue_depth,
        capacity_bytes,
        &ranges_bytes,
    )?))
}

/// Each flow's logical range when it is confined to some of the device's units (empty without
/// flows; `host/flows/resources.rs`), checked against the device: confinement runs on a one-tier
/// NAND device without ganging, SCM or a middleware (their page placement is their own), and
/// `equal_partitioning` needs every part of a cache to hold something.
fn resolve_flow_ranges(
    config: &SimulationConfig,
    layout: &DeviceLayout,
    logical_pages: u64,
) -> Result<Vec<Option<FlowRange>>, SimulationError> {
    let flows = &config.host.flows;
    let page_bytes = config.device.page_size_bytes() as u64;
    if let Some(index) = flows.iter().position(FlowConfig::is_confined) {
        let refused = if !layout.is_single() {
            Some("a tiered device (device.tiers)")
        } else if crate::config::GangingConfig::of(&config.device).is_some() {
            Some("a ganged device (device.ganging: its striping is by gangs)")
        } else if config.device.scm.is_some() {
            Some("a device with SCM (device.scm: seed 001 places pages itself)")
        } else if config.middleware.kind != crate::config::MiddlewareKind::None {
            Some("a middleware (middleware.kind: its logical pages are not the host's)")
        } else {
            None
        };
        if let Some(what) = refused {
            let key =
                flows[index].unit_lists().iter().find(|(_, list)| list.is_some()).map_or("channels", |(key, _)| key);
            return Err(config_invalid(
                config,
                &format!("host.flows[{index}].{key}"),
                format!("flow `{}`: confining a flow to some of the device's units is not modelled on {what}; remove the key or that part of the device", flows[index].name),
            ));
        }
    }
    let geometry = &layout.tier(crate::tier::TierId::FIRST).geometry;
    let ranges = resources::resolve(flows, geometry, config.ftl.plane_allocation_order, logical_pages, page_bytes)
        .map_err(|(field, message)| config_invalid(config, &field, message))?;
    if flows.len() > 1 {
        let partitioned =
            |sharing: crate::config::CacheSharing| sharing == crate::config::CacheSharing::EqualPartitioning;
        if let Some(cache) =
            config.device.data_cache.as_ref().filter(|cache| cache.enabled && partitioned(cache.sharing))
        {
            let lines = cache.capacity_bytes / page_bytes;
            if lines < flows.len() as u64 {
                let message = format!(
                    "{lines} lines cannot be split between {} flows (equal_partitioning gives each at least one)",
                    flows.len()
                );
                return Err(config_invalid(config, "device.data_cache.capacity_bytes", message));
            }
        }
        let entries =
            data_path::mapping_cache_sizes(config, layout, logical_pages).map_or(u64::MAX, |sizes| sizes.entries);
        let mapping_partitioned = config.device.mapping_cache.as_ref().is_some_and(|cache| partitioned(cache.sharing));
        if mapping_partitioned && entries < flows.len() as u64 {
            let message = format!(
                "{entries} entries cannot be split between {} flows (equal_partitioning gives each at least one)",
                flows.len()
            );
            return Err(config_invalid(config, "device.mapping_cache.sharing", message));
        }
    }
    Ok(ranges)
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

#[cfg(test)]
mod tests {
    //! Flows confined to some of the device's units and the caches' parts per flow, on a device of
    //! two channels of one single-plane die each (`host/flows/resources.rs`, `data_path/partitions.rs`).

    use super::*;
    use crate::geometry::Lpn;

    /// 2 channels x 1 chip x 1 die x 1 plane of SLC, 64 blocks of 16 pages: 1,536 logical pages,
    /// 768 a plane. `[workload]` (never replayed: both flows have their own) spans the device, so
    /// preconditioning fills it.
    const DEVICE: &str = r#"
name = "two-channels"
seed = 5
[device.geometry]
channels = 2
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 64
pages_per_block = 16
page_size_bytes = 4096
[device.nand]
cell_type = "slc"
read_latency_ns = [40000]
program_latency_ns = [200000]
erase_latency_ns = 1000000
multi_plane = false
[device.channel]
transfer_rate_mts = 200.0
[ftl]
overprovisioning_fraction = 0.25
[ftl.garbage_collection]
low_watermark_blocks = 2
high_watermark_blocks = 3
[ftl.precondition]
overwrite_passes = 0.5
[host]
device_queue_depth = 1024
[host.queues]
measure_alone = false
[workload.synthetic]
requests = 1
span_bytes = 6291456
read_fraction = 0.0
alignment_bytes = 4096
address = { distribution = "uniform" }
size = { distribution = "fixed", bytes = 4096 }
arrival = { process = "poisson", mean_interarrival_ns = 1000.0 }
"#;

    const PAGE: u64 = 4096;

    /// Per flow name, its requests as (arrival ns, op, offset, latency ns), in arrival order.
    type RequestsByFlow = std::collections::BTreeMap<String, Vec<(u64, String, u64, u64)>>;

    /// A flow of mixed 4-16 KiB reads and writes over `span_pages` from page `offset_pages`.
    fn flow(name: &str, units: &str, offset_pages: u64, span_pages: u64, read_fraction: f64, requests: u64) -> String {
        format!(
            "[[host.flows]]\nname = \"{name}\"\nsubmission_queue_depth = 8\nlba_offset_bytes = {}\n{units}\n\
             [host.flows.synthetic]\nrequests = {requests}\nspan_bytes = {}\nread_fraction = {read_fraction}\n\
             alignment_bytes = 4096\naddress = {{ distribution = \"uniform\" }}\n\
             size = {{ distribution = \"uniform\", min_bytes = 4096, max_bytes = 16384 }}\n\
             arrival = {{ process = \"poisson\", mean_interarrival_ns = 400000.0 }}\n",
            offset_pages * PAGE,
            span_pages * PAGE
        )
    }

    fn config(flows: &[String], overrides: &[&str]) -> Result<SimulationConfig, crate::error::ConfigError> {
        let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        SimulationConfig::from_toml_str(&format!("{DEVICE}\n{}", flows.join("\n")), "test", &overrides)
    }

    /// Runs `config` with a request log; returns the finished simulation's result and, per flow
    /// name, its requests as (arrival ns, op, offset, latency ns) in arrival order. `check` sees the
    /// simulation after the replay.
    fn run_logged(
        mut config: SimulationConfig,
        log_name: &str,
        check: impl FnOnce(&Simulation),
    ) -> (RunResult, RequestsByFlow) {
        let path = std::env::temp_dir().join(format!("ssdlab-flow-resources-{}-{log_name}.csv", std::process::id()));
        config.output.request_log_path = Some(path.clone());
        let mut progress = |_, _, _| Ok(());
        let mut simulation = Simulation::new_reporting(&config, &mut progress).unwrap_or_else(|e| panic!("{e}"));
        simulation.prepare_reporting(&mut progress).unwrap_or_else(|e| panic!("{e}"));
        simulation.replay(&mut progress).unwrap_or_else(|e| panic!("{e}"));
        check(&simulation);
        let result = simulation.finish(0.0, 0.0).unwrap_or_else(|e| panic!("{e}"));
        let text = std::fs::read_to_string(&path).expect("the request log was written");
        let _ = std::fs::remove_file(&path);
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
        let column = |name: &str| header.iter().position(|&c| c == name).unwrap_or_else(|| panic!("no column {name}"));
        let (arrival, op, offset, latency, flow) =
            (column("arrival_ns"), column("op"), column("offset_bytes"), column("latency_ns"), column("flow"));
        let mut by_flow = RequestsByFlow::default();
        for line in lines {
            let fields: Vec<&str> = line.split(',').collect();
            let number = |index: usize| fields[index].parse::<u64>().expect("a number");
            by_flow.entry(fields[flow].to_string()).or_default().push((
                number(arrival),
                fields[op].to_string(),
                number(offset),
                number(latency),
            ));
        }
        for requests in by_flow.values_mut() {
            requests.sort();
        }
        (result, by_flow)
    }

    #[test]
    fn flows_on_disjoint_channels_do_not_interfere_and_stay_on_their_planes() {
        // a on channel 0 owns pages 0..768, b on channel 1 pages 768..1536.
        let a = flow("a", "channels = [0]", 0, 600, 0.5, 300);
        let b = flow("b", "channels = [1]", 768, 600, 0.5, 300);
        let both = config(&[a.clone(), b.clone()], &[]).expect("valid");
        let channel_of = |simulation: &Simulation, ppn| {
            let geometry = &simulation.layout.tier(crate::tier::TierId::FIRST).geometry;
            geometry.channel_of_die(geometry.die_of(ppn))
        };
        let (_, shared) = run_logged(both, "disjoint", |simulation| {
            let ftl = simulation.data_path.nand().ftl();
            let mut checked = [0u64; 2];
            for page in 0..1536u32 {
                let Some(ppn) = ftl.lookup(Lpn(page)) else { continue };
                let owner = (page >= 768) as u32;
                assert_eq!(channel_of(simulation, ppn), owner, "page {page} of flow {owner} is on the other channel");
                checked[owner as usize] += 1;
            }
            assert!(checked.iter().all(|&pages| pages > 500), "{checked:?}");
        });
        let (_, a_alone) = run_logged(config(std::slice::from_ref(&a), &[]).expect("valid"), "a-alone", |_| {});
        let (_, b_alone) = run_logged(config(std::slice::from_ref(&b), &[]).expect("valid"), "b-alone", |_| {});
        assert_eq!(shared["a"].len(), 300);
        assert_eq!(shared["a"], a_alone["a"], "flow a's requests, each latency exactly as alone");
        assert_eq!(shared["b"], b_alone["b"], "flow b's requests, each latency exactly as alone");

        // Both on channel 0 (each with half its pages): now b's work delays a's.
        let b_on_a = flow("b", "channels = [0]", 384, 380, 0.5, 300);
        let a_half = flow("a", "channels = [0]", 0, 380, 0.5, 300);
        let (_, together) = run_logged(config(&[a_half.clone(), b_on_a], &[]).expect("valid"), "same", |_| {});
        let (_, alone) = run_logged(config(&[a_half], &[]).expect("valid"), "same-alone", |_| {});
        assert_eq!(together["a"].len(), alone["a"].len());
        let slower = together["a"].iter().zip(&alone["a"]).filter(|(shared, alone)| shared.3 > alone.3).count();
        assert!(slower > 50, "sharing channel 0, {slower} of a's 300 requests took longer than alone");
    }

    #[test]
    fn a_flow_beyond_its_range_is_refused_with_its_name() {
        // a's range is pages 0..768; its trace-like span runs 8 pages past it.
        let a = flow("a", "channels = [0]", 0, 776, 0.5, 50);
        let error = Simulation::new(&config(&[a], &[]).expect("valid")).err().expect("refused");
        let text = error.to_string();
        assert!(text.contains("host.flows[0].synthetic.span_bytes") && text.contains("flow `a`"), "{text}");
    }

    #[test]
    fn a_traced_request_beyond_its_flows_range_is_refused_at_run_time() {
        // a owns pages 0..768; its second write (line 3) is at page 768, inside the device but past its range.
        let path = std::env::temp_dir().join(format!("ssdlab-flow-range-{}.csv", std::process::id()));
        std::fs::write(&path, format!("time_us,op,offset,size\n0,W,0,4096\n10,W,{},4096\n", 768 * PAGE))
            .expect("written");
        let a = format!(
            "[[host.flows]]\nname = \"a\"\nchannels = [0]\ntrace = {{ path = {:?} }}\n",
            path.display().to_string()
        );
        let Err(error) = run(&config(&[a], &[]).expect("valid"), &mut |_, _, _| Ok(())) else {
            panic!("a request beyond the flow's range ran")
        };
        let _ = std::fs::remove_file(&path);
        assert!(
            matches!(&error, SimulationError::FlowBeyondRange { flow, line: 3, range_end_bytes, .. } if flow == "a" && *range_end_bytes == 768 * PAGE),
            "{error}"
        );
        assert!(error.to_string().contains("host.flows[0].channels"), "{error}");
    }

    #[test]
    fn each_wrong_confinement_is_named() {
        let field = |flows: &[String], overrides: &[&str]| -> String {
            let config = config(flows, overrides).expect("valid as a table");
            match Simulation::new(&config).err().expect("refused") {
                SimulationError::Config(crate::error::ConfigError::Invalid { field, .. }) => field,
                other => panic!("{other}"),
            }
        };
        assert_eq!(field(&[flow("a", "channels = [2]", 0, 100, 0.5, 10)], &[]), "host.flows[0].channels");
        assert_eq!(field(&[flow("a", "planes = [1]", 0, 100, 0.5, 10)], &[]), "host.flows[0].planes");
        let a = flow("a", "channels = [0]", 0, 100, 0.5, 10);
        let b = flow("b", "channels = [1]", 700, 100, 0.5, 10);
        assert_eq!(field(&[a.clone(), b], &[]), "host.flows[1].lba_offset_bytes");
        // The cache's parts follow the flows' ranges: an unconfined flow has none.
        let free = flow("free", "", 800, 100, 0.5, 10);
        let cache = "device.data_cache={capacity_bytes=65536, access_latency_ns=26, bandwidth_mb_per_s=400, sharing=\"equal_partitioning\"}";
        let error = config(&[a.clone(), free], &[cache]).expect_err("refused by the config");
        assert!(error.to_string().contains("device.data_cache.sharing"), "{error}");
        let ganged = ["device.ganging={chips_per_gang=1}", "ftl.garbage_collection.mode=\"foreground\""];
        assert_eq!(
            field(std::slice::from_ref(&a), &[ganged[0], ganged[1], "ftl.plane_allocation_order=\"pdwc\""]),
            "ftl.plane_allocation_order"
        );
        assert_eq!(field(&[a], &ganged), "host.flows[0].channels");
    }

    /// Flow a rewrites and rereads 16 pages; b writes `b_span` pages at random.
    fn cache_flows(b_span: u64) -> Vec<String> {
        vec![flow("a", "channels = [0]", 0, 16, 0.5, 400), flow("b", "channels = [1]", 768, b_span, 0.0, 400)]
    }

    #[test]
    fn a_thrashing_flow_does_not_take_another_flows_data_cache_lines_when_partitioned() {
        let cache = |sharing: &str| {
            format!("device.data_cache={{capacity_bytes=262144, access_latency_ns=26, bandwidth_mb_per_s=400, sharing=\"{sharing}\"}}")
        };
        let hits = |sharing: &str, b_span: u64| {
            let config = config(&cache_flows(b_span), &[&cache(sharing)]).expect("valid");
            let (result, _) = run_logged(config, &format!("data-cache-{sharing}-{b_span}"), |_| {});
            result.data_path.data_cache.expect("a data cache section")
        };
        // 64 lines; partitioned, 32 each: a's 16 pages stay cached whatever b does.
        let calm = hits("equal_partitioning", 8);
        let thrash = hits("equal_partitioning", 700);
        assert_eq!(calm.partitions.len(), 2);
        assert_eq!(calm.partitions[0].lines, 32);
        assert_eq!(calm.partitions[0].read_page_hits, thrash.partitions[0].read_page_hits);
        assert_eq!(calm.partitions[0].write_page_hits, thrash.partitions[0].write_page_hits);
        assert_eq!(thrash.partitions[0].evictions, 0, "b's misses evicted none of a's lines");
        assert!(thrash.partitions[1].evictions > 100);
        // Shared, b's writes push a's lines out: a (the only reader) hits less.
        let (calm, thrash) = (hits("shared", 8), hits("shared", 700));
        assert!(calm.partitions.is_empty());
        assert!(thrash.read_page_hits < calm.read_page_hits, "{} vs {}", thrash.read_page_hits, calm.read_page_hits);
    }

    #[test]
    fn a_thrashing_flow_does_not_take_another_flows_mapping_entries_when_partitioned() {
        let cache = |sharing: &str| format!("device.mapping_cache={{capacity_entries=64, sharing=\"{sharing}\"}}");
        let summary = |sharing: &str, b_span: u64| {
            let config = config(&cache_flows(b_span), &[&cache(sharing)]).expect("valid");
            let (result, _) = run_logged(config, &format!("mapping-cache-{sharing}-{b_span}"), |_| {});
            result.data_path.mapping_cache.expect("a mapping cache section")
        };
        let calm = summary("equal_partitioning", 8);
        let thrash = summary("equal_partitioning", 700);
        assert_eq!(calm.partitions[0].capacity_entries, 32);
        assert_eq!(calm.partitions[0].hits, thrash.partitions[0].hits);
        assert_eq!(calm.read_misses, thrash.read_misses, "a (the only reader) misses as often");
        assert_eq!(thrash.partitions[0].evictions, 0, "b's misses evicted none of a's entries");
        assert!(thrash.partitions[1].evictions > 100);
        // Shared, b's misses evict a's entries: a (the only reader) misses more.
        let (calm, thrash) = (summary("shared", 8), summary("shared", 700));
        assert!(thrash.read_misses > calm.read_misses, "{} vs {}", thrash.read_misses, calm.read_misses);
    }
}
