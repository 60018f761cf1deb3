//! `[output]`: what a run reports beyond its summary.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct OutputConfig {
    /// A time series of the run at this interval of simulated time (ms): IOPS and MB/s per op,
    /// latency percentiles, GC, free blocks, soft reads (`result.time_series`). Absent: none.
    pub time_series_interval_ms: Option<f64>,
    /// Write one CSV line per completed request here (`simulation/request_log.rs`). Absent: none.
    pub request_log_path: Option<std::path::PathBuf>,
    /// Count host writes per logical page and report, at the end, mapped pages by write-count class
    /// and tier (`result.write_heat`, seed 004 Fig. 10). Costs 4 bytes per host logical page.
    pub write_heat: bool,
}

pub(super) fn validate(output: &OutputConfig) -> Result<(), (String, String)> {
    if let Some(interval) = output.time_series_interval_ms {
        if !(interval.is_finite() && interval >= 0.001) {
            return Err((
                "output.time_series_interval_ms".into(),
                format!("must be at least 0.001 ms (1 us), got {interval}"),
            ));
        }
    }
    Ok(())
}
