//! One error enum per failure domain. Each names where the problem is (file, line, field) so the
//! message alone is enough to fix the input. Nothing here panics or exits.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{origin}: {message}")]
    Parse { origin: String, message: String },

    #[error("{origin}{}: field `{field}`: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Invalid { origin: String, line: Option<usize>, field: String, message: String },

    #[error("{path}: cannot read config: {message}")]
    Io { path: PathBuf, message: String },

    #[error("override `{assignment}`: {message}")]
    Override { assignment: String, message: String },

    #[error("unknown preset `{name}`; shipped presets: {known}")]
    UnknownPreset { name: String, known: String },
}

impl From<ssdlab_settings::SettingsError> for ConfigError {
    fn from(error: ssdlab_settings::SettingsError) -> Self {
        use ssdlab_settings::SettingsError;
        match error {
            SettingsError::Parse { origin, message } => ConfigError::Parse { origin, message },
            SettingsError::Invalid { origin, line, field, message } => {
                ConfigError::Invalid { origin, line, field, message }
            }
            SettingsError::Override { assignment, message } => ConfigError::Override { assignment, message },
        }
    }
}

/// Errors inside the FTL: the device cannot hold what the workload asks of it.
#[derive(Debug, thiserror::Error)]
pub enum FtlError {
    #[error("device full in plane {plane}: {message}")]
    DeviceFull { plane: u32, message: String },

    #[error("logical page {lpn} is beyond the logical capacity of {logical_pages} pages")]
    LogicalPageOutOfRange { lpn: u64, logical_pages: u64 },

    #[error("{tier} full: {detail}")]
    OutOfSpace { tier: String, detail: String },

    /// Device events took every chip of a tier out of service (issue 32): writing into a read-only
    /// chip anyway ground on for minutes before the device was full.
    #[error("tier {tier} has no chip in service (device events retired them all): {what} has nowhere to go; keep one chip of the tier in service")]
    NoChipInService { tier: String, what: &'static str },
}

#[derive(Debug, thiserror::Error)]
pub enum SimulationError {
    /// The run outlasts the intervals a time series may hold (`simulation/time_series.rs`).
    #[error("output.time_series_interval_ms = {interval_ms} ms: the run lasted {reached_ms} ms of simulated time, more than the {max_rows} intervals a time series holds (a cap that bounds its memory); use an interval of at least {} ms, or leave the series out", suggested_interval_text(*reached_ms, *max_rows))]
    TimeSeriesTooLong { interval_ms: f64, reached_ms: f64, max_rows: u64 },

    /// Simulated time ran past half the clock's range (issue 48 item 16): u64 nanoseconds saturate
    /// at 584 years, where every later time is equal and latencies read 0.
    #[error("simulated time reached {reached_years:.0} years, past the {limit_years:.0} years the simulated clock keeps apart (u64 nanoseconds): latencies and rates would be wrong. A setting stretches time out of range: look at the workload's arrivals (arrival.mean_interarrival_ns, host.time_scale, trace timestamps) and the device's speeds (channel.transfer_rate_mts, nand latencies)")]
    ClockOutOfRange { reached_years: f64, limit_years: f64 },

    #[error(transparent)]
    Config(#[from] ConfigError),

    #[error(transparent)]
    Workload(#[from] ssdlab_workload::WorkloadError),

    /// A flow's request (after its `lba_offset_bytes`) beyond the device (`host/flows/`).
    #[error("flow `{flow}` ({origin}, request {line}): request ends at byte {end_bytes} (with the flow's lba_offset_bytes), beyond the device's logical capacity of {capacity_bytes} bytes; lower host.flows.lba_offset_bytes or the flow's span, or enlarge [workload]'s span (it sizes the device)")]
    FlowBeyondDevice { flow: String, origin: String, line: u64, end_bytes: u64, capacity_bytes: u64 },

    /// A confined flow's request beyond its own logical range (`host/flows/resources.rs`).
    #[error("flow `{flow}` ({origin}, request {line}): request ends at byte {end_bytes} (with the flow's lba_offset_bytes), beyond the flow's own range [{range_start_bytes}, {range_end_bytes}), the share of the logical capacity of the units host.flows[{index}].channels, chips, dies and planes give it; give the flow more units, or shrink its span")]
    FlowBeyondRange {
        flow: String,
        index: usize,
        origin: String,
        line: u64,
        end_bytes: u64,
        range_start_bytes: u64,
        range_end_bytes: u64,
    },

    #[error("{origin}:{line}: field `{field}`: request [{offset_bytes}, {end_bytes}) lies beyond the device's logical capacity of {capacity_bytes} bytes; use a larger device, or size the device to the workload with ftl.sizing=footprint")]
    AddressBeyondDevice {
        origin: String,
        line: u64,
        field: &'static str,
        offset_bytes: u64,
        end_bytes: u64,
        capacity_bytes: u64,
    },

    #[error("{origin}:{line}: field `{field}`: request [{offset_bytes}, {end_bytes}) lies beyond the largest logical space ssdlab models ({limit_bytes} bytes: 2^32 - 1 pages of {page_bytes} bytes); use larger pages or a smaller address range")]
    AddressBeyondModel {
        origin: String,
        line: u64,
        field: &'static str,
        offset_bytes: u64,
        end_bytes: u64,
        limit_bytes: u64,
        page_bytes: u64,
    },

    #[error("{origin}: {source}")]
    Ftl { origin: String, source: FtlError },

    #[error("data integrity violated: {mismatches} read(s) did not return the latest write; first: {first}")]
    Integrity { mismatches: u64, first: String },

    #[error("run incomplete: {generated} requests were issued but {completed} completed")]
    Incomplete { generated: u64, completed: u64 },

    #[error("{origin}: line {line} touches logical page {page}, which the trace's scan did not see; the trace changed during the run")]
    TraceChanged { origin: String, line: u64, page: u64 },

    #[error("run interrupted: {reason}")]
    Interrupted { reason: String },
}

/// The shortest interval (ms, rounded up to 3 significant digits) whose series of `max_rows` rows
/// would reach `reached_ms`: a lower bound to suggest, since the run may go on beyond that.
/// [`suggested_interval_ms`] as written in the error: its 3 significant digits and no float noise
/// (0.0139, not 0.013900000000000001).
fn suggested_interval_text(reached_ms: f64, max_rows: u64) -> String {
    let interval = suggested_interval_ms(reached_ms, max_rows);
    let decimals = (2 - interval.log10().floor() as i32).max(0) as usize;
    format!("{interval:.decimals$}")
}

/// An interval (ms, 3 significant digits, rounded up) at which a run lasting `reached_ms` fits in
/// `max_rows` intervals: its last time falls in interval `max_rows - 1` at the latest.
pub(crate) fn suggested_interval_ms(reached_ms: f64, max_rows: u64) -> f64 {
    let exact = reached_ms / max_rows.saturating_sub(1).max(1) as f64;
    if exact <= 0.0 || !exact.is_finite() {
        return 0.001;
    }
    let scale = 10f64.powi(exact.log10().floor() as i32 - 2);
    ((exact / scale).ceil() * scale).max(0.001)
}
