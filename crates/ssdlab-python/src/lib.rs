//! The Python binding (`ssdlab._native`). It converts arguments and results (results as JSON text,
//! parsed once on the Python side) and maps each Rust error domain to a Python exception class.
//! The boundary is crossed once per run; the only calls back into Python are progress updates every
//! 65,536 requests, which also let Ctrl-C stop a run.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use ssdlab_ssd::{presets, ConfigError, SimulationError};
use ssdlab_workload::{stats::StatsBuilder, TraceOptions, TraceScan, WorkloadError};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Mutex;

create_exception!(_native, SsdlabError, PyException, "Base class of every ssdlab error.");
create_exception!(_native, ConfigurationError, SsdlabError, "Invalid configuration: names the file, line and field.");
create_exception!(
    _native,
    TraceError,
    SsdlabError,
    "Unreadable or malformed workload: names the file, line and field."
);
create_exception!(
    _native,
    SimulationFailure,
    SsdlabError,
    "The simulation could not complete (device full, address beyond device, incomplete run)."
);
create_exception!(_native, IntegrityError, SimulationFailure, "A read did not return the latest write.");
create_exception!(
    _native,
    InternalError,
    SsdlabError,
    "A bug in ssdlab (please report it with the config that triggers it)."
);

fn config_error(error: ConfigError) -> PyErr {
    ConfigurationError::new_err(error.to_string())
}

fn workload_error(error: WorkloadError) -> PyErr {
    TraceError::new_err(error.to_string())
}

fn simulation_error(error: SimulationError) -> PyErr {
    let message = error.to_string();
    match error {
        SimulationError::Config(_) => ConfigurationError::new_err(message),
        SimulationError::Workload(_) => TraceError::new_err(message),
        SimulationError::AddressBeyondDevice { .. }
        | SimulationError::FlowBeyondDevice { .. }
        | SimulationError::FlowBeyondRange { .. } => TraceError::new_err(message),
        SimulationError::Integrity { .. } => IntegrityError::new_err(message),
        _ => SimulationFailure::new_err(message),
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs `body` without the GIL, turning a panic into InternalError instead of an abort.
fn guarded<T: Send>(py: Python<'_>, body: impl FnOnce() -> Result<T, PyErr> + Send) -> PyResult<T> {
    py.detach(|| match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(payload) => Err(InternalError::new_err(format!("internal error: {}", panic_message(payload)))),
    })
}

/// Validates a config (preset name or TOML path) with overrides; returns it as TOML text.
#[pyfunction]
#[pyo3(signature = (name_or_path, overrides=Vec::new()))]
fn load_config(name_or_path: &str, overrides: Vec<String>) -> PyResult<String> {
    let config = presets::resolve(name_or_path, &overrides).map_err(config_error)?;
    Ok(config.to_toml_string())
}

/// Every key of a validated config (preset name or TOML path, with overrides): (dotted path, set).
/// The unset ones are the optional keys `ssdlab config` lists.
#[pyfunction]
#[pyo3(signature = (name_or_path, overrides=Vec::new()))]
fn config_keys(name_or_path: &str, overrides: Vec<String>) -> PyResult<Vec<(String, bool)>> {
    let config = presets::resolve(name_or_path, &overrides).map_err(config_error)?;
    Ok(config.keys().into_iter().map(|key| (key.path, key.set)).collect())
}

/// Validates TOML text as a config; returns it normalised.
#[pyfunction]
#[pyo3(signature = (text, origin="<string>", overrides=Vec::new()))]
fn check_config_text(text: &str, origin: &str, overrides: Vec<String>) -> PyResult<String> {
    let config = ssdlab_ssd::SimulationConfig::from_toml_str(text, origin, &overrides).map_err(config_error)?;
    Ok(config.to_toml_string())
}

#[pyfunction]
fn preset_names() -> Vec<&'static str> {
    presets::names()
}

#[pyfunction]
fn preset_text(name: &str) -> PyResult<&'static str> {
    presets::text(name).ok_or_else(|| {
        ConfigurationError::new_err(format!(
            "unknown preset `{name}`; shipped presets: {}",
            presets::names().join(", ")
        ))
    })
}

/// Runs a simulation. `config` is a preset name or TOML path, or TOML text when `is_text`.
/// `progress(done, total, phase)` is called every 65,536 units of work of each phase (`scan`: trace
/// records, total 0 = unknown; `precondition`: pages; `replay`: requests). Returns the result as JSON text.
#[pyfunction]
#[pyo3(signature = (config, overrides=Vec::new(), progress=None, is_text=false, origin="<string>"))]
fn run(
    py: Python<'_>,
    config: &str,
    overrides: Vec<String>,
    progress: Option<Py<PyAny>>,
    is_text: bool,
    origin: &str,
) -> PyResult<String> {
    let config = if is_text {
        ssdlab_ssd::SimulationConfig::from_toml_str(config, origin, &overrides)
    } else {
        presets::resolve(config, &overrides)
    }
    .map_err(config_error)?;
    let relay = ProgressRelay::new(progress);
    let outcome = guarded(py, || {
        let mut report = |phase: ssdlab_ssd::simulation::Phase, done: u64, total: u64| {
            relay.report_phase(phase.name(), done, total).map_err(|reason| SimulationError::Interrupted { reason })
        };
        let result = ssdlab_ssd::run(&config, &mut report).map_err(simulation_error)?;
        to_json(&result)
    });
    relay.finish(outcome)
}

/// Writes a config's workload (trace or synthetic; loops, time scale and tiles applied) to `path` as
/// a trace in `format` (mqsim or csv); returns the requests written.
#[pyfunction]
#[pyo3(signature = (config, path, format, overrides=Vec::new(), is_text=false, origin="<string>"))]
fn export_workload(
    py: Python<'_>,
    config: &str,
    path: PathBuf,
    format: &str,
    overrides: Vec<String>,
    is_text: bool,
    origin: &str,
) -> PyResult<u64> {
    let config = if is_text {
        ssdlab_ssd::SimulationConfig::from_toml_str(config, origin, &overrides)
    } else {
        presets::resolve(config, &overrides)
    }
    .map_err(config_error)?;
    let format = ssdlab_workload::OutputFormat::from_name(format).map_err(workload_error)?;
    guarded(py, || ssdlab_ssd::host::export::export_workload(&config, &path, format).map_err(simulation_error))
}

/// Parses a config's trace into a parsed-trace cache in `cache_dir`; returns JSON (`cache`,
/// `records`, `skipped_lines`, `reused`).
#[pyfunction]
#[pyo3(signature = (config, cache_dir, overrides=Vec::new()))]
fn build_trace_cache(py: Python<'_>, config: &str, cache_dir: PathBuf, overrides: Vec<String>) -> PyResult<String> {
    let config = presets::resolve(config, &overrides).map_err(config_error)?;
    guarded(py, || {
        let built = ssdlab_ssd::host::export::build_trace_cache(&config, &cache_dir).map_err(simulation_error)?;
        to_json(&built)
    })
}

/// Calls a Python `progress(done, total)` from inside a run. If the callback raises (e.g.
/// KeyboardInterrupt), the run is stopped and that exception, not a wrapper, reaches the caller.
struct ProgressRelay {
    callback: Option<Py<PyAny>>,
    raised: Mutex<Option<PyErr>>,
}

impl ProgressRelay {
    fn new(callback: Option<Py<PyAny>>) -> Self {
        ProgressRelay { callback, raised: Mutex::new(None) }
    }

    /// Ok to go on, or the reason to stop.
    fn report(&self, done: u64, total: u64) -> Result<(), String> {
        self.call(|py, callback| callback.call1(py, (done, total)))
    }

    /// A run's progress: `progress(done, total, phase)` (total 0 when unknown).
    fn report_phase(&self, phase: &str, done: u64, total: u64) -> Result<(), String> {
        self.call(|py, callback| callback.call1(py, (done, total, phase)))
    }

    /// Calls the callback, or without one lets Python run its signal handlers: Ctrl-C (SIGINT) raises
    /// KeyboardInterrupt there, which stops the run within one progress interval whether or not
    /// anyone watches its progress (a script's `api.run`, a sweep's points).
    fn call(&self, call: impl FnOnce(Python<'_>, &Py<PyAny>) -> PyResult<Py<PyAny>>) -> Result<(), String> {
        Python::attach(|py| {
            let outcome = match self.callback.as_ref() {
                Some(callback) => call(py, callback).map(drop),
                None => py.check_signals(),
            };
            outcome.map_err(|error| {
                let reason = error.to_string();
                if let Ok(mut slot) = self.raised.lock() {
                    *slot = Some(error);
                }
                reason
            })
        })
    }

    fn finish<T>(self, outcome: PyResult<T>) -> PyResult<T> {
        match self.raised.into_inner().ok().flatten() {
            Some(error) => Err(error),
            None => outcome,
        }
    }
}

fn curve_error(error: ssdlab_ecc::curve::CurveError) -> PyErr {
    use ssdlab_ecc::curve::CurveError;
    let message = error.to_string();
    match error {
        CurveError::InvalidSpec { .. }
        | CurveError::RberOutOfReach { .. }
        | CurveError::Table { .. }
        | CurveError::Settings(_) => ConfigurationError::new_err(message),
        CurveError::Interrupted { .. } => SsdlabError::new_err(message),
    }
}

/// Parses JSON settings into `T`, naming `what`, line and column on error.
fn parse_settings<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> PyResult<T> {
    serde_json::from_str(text)
        .map_err(|e| ConfigurationError::new_err(format!("{what}: line {}, column {}: {e}", e.line(), e.column())))
}

fn to_json<T: serde::Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| InternalError::new_err(e.to_string()))
}

/// The shipped ECC curve specs as (name, TOML text) pairs.
#[pyfunction]
fn ecc_shipped_specs() -> Vec<(&'static str, &'static str)> {
    ssdlab_ecc::curve::shipped_specs().to_vec()
}

/// Validates an ECC curve spec (TOML text with `key=value` overrides); returns it as JSON text.
#[pyfunction]
#[pyo3(signature = (text, origin="<string>", overrides=Vec::new()))]
fn ecc_curve_spec(text: &str, origin: &str, overrides: Vec<String>) -> PyResult<String> {
    let spec = ssdlab_ecc::curve::CurveSpec::from_toml_str(text, origin, &overrides).map_err(curve_error)?;
    to_json(&spec)
}

/// Runs (or loads from `cache_dir`) a frame-error-rate curve. `spec` is TOML text (fields of
/// `ssdlab_ecc::curve::CurveSpec`; missing fields take their defaults) with `key=value` overrides.
/// `progress(done, total)` is called after each point. Returns JSON text `{"table": ..., "from_cache": bool}`.
#[pyfunction]
#[pyo3(signature = (spec, origin="<string>", overrides=Vec::new(), cache_dir=None, progress=None))]
fn ecc_curve(
    py: Python<'_>,
    spec: &str,
    origin: &str,
    overrides: Vec<String>,
    cache_dir: Option<PathBuf>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let spec = ssdlab_ecc::curve::CurveSpec::from_toml_str(spec, origin, &overrides).map_err(curve_error)?;
    let relay = ProgressRelay::new(progress);
    let outcome = guarded(py, || {
        let mut report = |done: u64, total: u64| {
            relay.report(done, total).map_err(|reason| ssdlab_ecc::curve::CurveError::Interrupted { reason })
        };
        let (table, from_cache) =
            ssdlab_ecc::curve::load_or_run(&spec, cache_dir.as_deref(), &mut report).map_err(curve_error)?;
        to_json(&serde_json::json!({ "table": table, "from_cache": from_cache }))
    });
    relay.finish(outcome)
}

/// Decoder throughput and Monte Carlo rate. `settings` is JSON (fields of
/// `ssdlab_ecc::bench::EccBenchSettings`). Returns the report as JSON text.
#[pyfunction]
#[pyo3(signature = (settings="{}"))]
fn ecc_bench(py: Python<'_>, settings: &str) -> PyResult<String> {
    let settings: ssdlab_ecc::bench::EccBenchSettings = parse_settings(settings, "ecc bench settings")?;
    guarded(py, || to_json(&ssdlab_ecc::bench::run(&settings)))
}

/// Raw bit error rate of every page over a grid of stresses. `spec` is JSON (fields of
/// `ssdlab_ecc::channel::RberGrid`). Returns JSON text: a list of rows.
#[pyfunction]
fn ecc_rber(py: Python<'_>, spec: &str) -> PyResult<String> {
    let grid: ssdlab_ecc::channel::RberGrid = parse_settings(spec, "rber grid")?;
    guarded(py, || {
        let rows = grid.rows().map_err(ConfigurationError::new_err)?;
        to_json(&rows)
    })
}

/// Decoding-failure probabilities per chip and sensing precision at one stress, for the SSD read
/// path. `spec` is JSON (fields of `ssdlab_ecc::decoding_table::DecodingTableSpec`);
/// `progress(done, total)` is called after each (row, sensing precision) case. Returns JSON text.
#[pyfunction]
#[pyo3(signature = (spec, progress=None))]
fn ecc_decoding_table(py: Python<'_>, spec: &str, progress: Option<Py<PyAny>>) -> PyResult<String> {
    let spec: ssdlab_ecc::decoding_table::DecodingTableSpec = parse_settings(spec, "decoding table spec")?;
    let relay = ProgressRelay::new(progress);
    let outcome = guarded(py, || {
        let report = |done: usize, total: usize| relay.report(done as u64, total as u64);
        let table = spec.run_reporting(&ssdlab_ecc::monte_carlo::Codes::storage_4kb(), report).map_err(
            |(field, message)| ConfigurationError::new_err(format!("decoding table: field `{field}`: {message}")),
        )?;
        to_json(&table)
    });
    relay.finish(outcome)
}

/// Failure probabilities by decoder x P/E x retention per chip, and each decoder's tolerable P/E
/// (seed 000). `spec` is JSON (fields of `ssdlab_ecc::decoder_tables::DecoderTablesSpec`);
/// `progress(done, total)` is called after each (decoder, chip, P/E) row. Returns JSON text.
#[pyfunction]
#[pyo3(signature = (spec, progress=None))]
fn ecc_decoder_tables(py: Python<'_>, spec: &str, progress: Option<Py<PyAny>>) -> PyResult<String> {
    let spec: ssdlab_ecc::decoder_tables::DecoderTablesSpec = parse_settings(spec, "decoder tables spec")?;
    let relay = ProgressRelay::new(progress);
    let outcome = guarded(py, || {
        let report = |done: usize, total: usize| relay.report(done as u64, total as u64);
        let tables = spec.run(&ssdlab_ecc::monte_carlo::Codes::storage_4kb(), report).map_err(|(field, message)| {
            ConfigurationError::new_err(format!("decoder tables: field `{field}`: {message}"))
        })?;
        to_json(&tables)
    });
    relay.finish(outcome)
}

/// Statistics of a trace file (format guessed unless given). Returns JSON text with `scan` and `stats`.
#[pyfunction]
#[pyo3(signature = (path, format=None, skip_bad_lines=false, merge_devices=false, block_bytes=4096, max_request_bytes=ssdlab_workload::trace::DEFAULT_MAX_REQUEST_BYTES, columns=None))]
#[allow(clippy::too_many_arguments)]
fn trace_stats(
    py: Python<'_>,
    path: PathBuf,
    format: Option<&str>,
    skip_bad_lines: bool,
    merge_devices: bool,
    block_bytes: u64,
    max_request_bytes: u64,
    columns: Option<&str>,
) -> PyResult<String> {
    let format = format.map(ssdlab_workload::trace::parse_format_name).transpose().map_err(workload_error)?;
    // A column map arrives as JSON (the CLI's --columns options).
    let columns = columns
        .map(serde_json::from_str::<ssdlab_workload::formats::columns::ColumnLayout>)
        .transpose()
        .map_err(|error| TraceError::new_err(format!("column map: {error}")))?;
    let options = TraceOptions {
        format,
        skip_bad_lines,
        merge_devices,
        max_request_bytes,
        cache_dir: None,
        columns,
        keep_records_bytes: ssdlab_workload::trace::DEFAULT_KEEP_RECORDS_BYTES,
    };
    guarded(py, || {
        // Options are checked before the file is read.
        let mut builder = StatsBuilder::new(block_bytes).map_err(workload_error)?;
        let scan = TraceScan::scan(&path, &options).map_err(workload_error)?;
        let mut reader = scan.reader().map_err(workload_error)?;
        while let Some(request) = reader.next_request().map_err(workload_error)? {
            builder.add(&request).map_err(workload_error)?;
        }
        let stats = builder.finish();
        let json = serde_json::json!({ "scan": scan, "stats": stats, "timestamps_reordered": reader.reordered() });
        Ok(json.to_string())
    })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SsdlabError", py.get_type::<SsdlabError>())?;
    m.add("ConfigurationError", py.get_type::<ConfigurationError>())?;
    m.add("TraceError", py.get_type::<TraceError>())?;
    m.add("SimulationFailure", py.get_type::<SimulationFailure>())?;
    m.add("IntegrityError", py.get_type::<IntegrityError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add_function(wrap_pyfunction!(load_config, m)?)?;
    m.add_function(wrap_pyfunction!(config_keys, m)?)?;
    m.add_function(wrap_pyfunction!(check_config_text, m)?)?;
    m.add_function(wrap_pyfunction!(preset_names, m)?)?;
    m.add_function(wrap_pyfunction!(preset_text, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(export_workload, m)?)?;
    m.add_function(wrap_pyfunction!(build_trace_cache, m)?)?;
    m.add_function(wrap_pyfunction!(trace_stats, m)?)?;
    m.add_function(wrap_pyfunction!(ecc_shipped_specs, m)?)?;
    m.add_function(wrap_pyfunction!(ecc_curve_spec, m)?)?;
    m.add_function(wrap_pyfunction!(ecc_curve, m)?)?;
    m.add_function(wrap_pyfunction!(ecc_bench, m)?)?;
    m.add_function(wrap_pyfunction!(ecc_rber, m)?)?;
    m.add_function(wrap_pyfunction!(ecc_decoding_table, m)?)?;
    m.add_function(wrap_pyfunction!(ecc_decoder_tables, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
