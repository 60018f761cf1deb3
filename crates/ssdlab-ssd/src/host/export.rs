//! A config's workload written out as a trace file (`ssdlab trace convert` / `generate`): the same
//! request stream the replay would issue (loops, time scale, tiles and a synthetic stop time
//! applied), in bounded memory;
//! or its trace parsed into a parsed-trace cache ahead of the runs that will use it.

use super::RequestStream;
use crate::config::SimulationConfig;
use crate::error::{ConfigError, SimulationError};
use ssdlab_engine::random::derive_seed;
use ssdlab_workload::{OutputFormat, TraceScan, TraceWriter};
use std::path::Path;

/// Writes every request of `config`'s workload to `path`; returns how many.
pub fn export_workload(config: &SimulationConfig, path: &Path, format: OutputFormat) -> Result<u64, SimulationError> {
    let page_bytes = config.device.page_size_bytes() as u64;
    let (stream, address_space_bytes) = if let Some(trace) = &config.workload.trace {
        let options = trace.options();
        let scan = TraceScan::scan(&trace.path, &options)?;
        let space = scan.address_space_bytes;
        (RequestStream::from_trace(scan, config.host.loops, config.host.time_scale)?, space)
    } else if let Some(spec) = &config.workload.synthetic {
        (
            // A stop time ends the written stream at its arrivals (the open loop's stream; a
            // closed loop's issues depend on the device, which is not simulated here).
            RequestStream::from_synthetic(
                spec,
                derive_seed(config.seed, "workload"),
                config.host.loops,
                config.host.time_scale,
            )?
            .with_arrivals_stopped(),
            spec.span_bytes,
        )
    } else {
        return Err(ConfigError::Invalid {
            origin: config.name.clone(),
            line: None,
            field: "workload".into(),
            message: "no workload given".into(),
        }
        .into());
    };
    let tiles = config.host.tiles.max(1);
    let mut stream =
        if tiles > 1 { stream.tiled(tiles, address_space_bytes.div_ceil(page_bytes) * page_bytes) } else { stream };
    let mut writer = TraceWriter::create(path, format)?;
    let mut write_all = || -> Result<(), SimulationError> {
        let mut index = 0;
        while let Some(request) = stream.next_request()? {
            index += 1;
            writer.write(&request, index)?;
        }
        Ok(())
    };
    match write_all() {
        Ok(()) => Ok(writer.finish()?),
        Err(error) => {
            // No partial trace is left behind to be mistaken for a whole one.
            drop(writer);
            let _ = std::fs::remove_file(path);
            Err(error)
        }
    }
}

/// What building a parsed-trace cache did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TraceCacheBuilt {
    /// The cache file (its scan summary is beside it).
    pub cache: std::path::PathBuf,
    pub records: u64,
    /// Malformed lines skipped (with `workload.trace.skip_bad_lines`).
    pub skipped_lines: u64,
    /// The cache was already there (built by an earlier run or conversion).
    pub reused: bool,
}

/// Parses `config`'s trace into a parsed-trace cache in `dir` (with the config's reading options),
/// so that runs given `--trace-cache DIR` read records from the first. A synthetic workload has
/// no trace to cache.
pub fn build_trace_cache(config: &SimulationConfig, dir: &Path) -> Result<TraceCacheBuilt, SimulationError> {
    let Some(trace) = &config.workload.trace else {
        return Err(ConfigError::Invalid {
            origin: config.name.clone(),
            line: None,
            field: "workload.trace".into(),
            message: "a parsed-trace cache needs a trace workload".into(),
        }
        .into());
    };
    let options = ssdlab_workload::TraceOptions { cache_dir: Some(dir.to_path_buf()), ..trace.options() };
    let scan = TraceScan::scan(&trace.path, &options)?;
    let (cache, records) = scan
        .cache
        .clone()
        .ok_or_else(|| SimulationError::Workload(ssdlab_workload::WorkloadError::Empty { path: trace.path.clone() }))?;
    Ok(TraceCacheBuilt { cache, records, skipped_lines: scan.skipped.count, reused: scan.cache_reused })
}
