//! `[output]`: what a run reports beyond its summary.

use super::events::DeviceEventConfig;
use serde::{Deserialize, Serialize};

/// The most intervals a time series holds (`output.time_series_interval_ms`). A series crosses into
/// Python as JSON and out again as Parquet, about 2.9 KB of peak memory per interval end to end
/// (issue 48 item 11: a million intervals peaked at 2.9 GB); a hundred thousand bound it near 300 MB
/// and are still finer than any plot of the run (issue 32: 1 us over a 20 s run asked for 20 million
/// intervals and aborted out of memory).
pub const MAX_TIME_SERIES_ROWS: u64 = 100_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct OutputConfig {
    /// A time series of the run at this interval of simulated time (ms): IOPS and MB/s per op,
    /// latency percentiles, GC, free blocks, soft reads (`result.time_series`). Absent: none.
    /// At least 0.001 ms; a series holds at most [`MAX_TIME_SERIES_ROWS`] intervals (about 200 bytes
    /// each), so memory stays bounded: an interval that cannot cover the last time-triggered
    /// `[[events]]` entry is refused before the run, and a run that outlasts the cap stops with an
    /// error naming the interval it would need (runs end when the device's last work ends).
    pub time_series_interval_ms: Option<f64>,
    /// Write one CSV line per completed request here (`simulation/request_log.rs`). Absent: none.
    pub request_log_path: Option<std::path::PathBuf>,
    /// Count host writes per logical page and report, at the end, mapped pages by write-count class
    /// and tier (`result.write_heat`, seed 004 Fig. 10). Costs 4 bytes per host logical page.
    pub write_heat: bool,
}

/// `events`: the replay runs until the last time-triggered event, so the series must reach it.
pub(super) fn validate(output: &OutputConfig, events: &[DeviceEventConfig]) -> Result<(), (String, String)> {
    if let Some(interval) = output.time_series_interval_ms {
        if !(interval.is_finite() && interval >= 0.001) {
            return Err((
                "output.time_series_interval_ms".into(),
                format!("must be at least 0.001 ms (1 us), got {interval}"),
            ));
        }
        let last = events.iter().enumerate().filter_map(|(index, event)| Some((event.at_ns?, index))).max();
        if let Some((at_ns, index)) = last {
            let interval_ns = (interval * 1e6).round().max(1.0);
            let rows = (at_ns as f64 / interval_ns).floor() + 1.0;
            if rows > MAX_TIME_SERIES_ROWS as f64 {
                let needed = at_ns as f64 / 1e6 / MAX_TIME_SERIES_ROWS as f64;
                return Err((
                    "output.time_series_interval_ms".into(),
                    format!(
                        "{interval} ms: the run lasts at least until events[{index}].at_ns = {} ms, {rows} intervals, more than the {MAX_TIME_SERIES_ROWS} a time series holds (a cap that bounds its memory); use an interval above {needed} ms",
                        at_ns as f64 / 1e6
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DeviceAction;

    #[test]
    fn an_interval_too_fine_for_the_events_is_refused() {
        let output = OutputConfig { time_series_interval_ms: Some(0.001), ..OutputConfig::default() };
        let event = |at_ns| DeviceEventConfig {
            at_ns: Some(at_ns),
            at_erase_count: None,
            action: DeviceAction::RetireChip,
            when_idle: false,
            chip: 1,
            copy_path: None,
            drain: None,
        };
        // 20 s at 1 us: 20 million intervals, 200 times the cap.
        let (field, message) = validate(&output, &[event(1_000), event(20_000_000_000)]).unwrap_err();
        assert_eq!(field, "output.time_series_interval_ms");
        assert!(message.contains("events[1].at_ns") && message.contains("above 0.2 ms"), "{message}");
        // 0.099 s fits.
        assert!(validate(&output, &[event(99_000_000)]).is_ok());
        let coarse = OutputConfig { time_series_interval_ms: Some(1.0), ..OutputConfig::default() };
        assert!(validate(&coarse, &[event(20_000_000_000)]).is_ok());
        let too_fine = OutputConfig { time_series_interval_ms: Some(0.0001), ..OutputConfig::default() };
        assert!(validate(&too_fine, &[]).is_err());
    }
}
