//! `[workload]`: a trace file or a synthetic generator (exactly one).

use serde::{Deserialize, Serialize};
use ssdlab_workload::{SyntheticSpec, TraceFormat};
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct WorkloadConfig {
    pub trace: Option<TraceWorkload>,
    pub synthetic: Option<SyntheticSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceWorkload {
    pub path: PathBuf,
    #[serde(default)]
    pub format: Option<TraceFormat>,
    #[serde(default)]
    pub skip_bad_lines: bool,
    #[serde(default)]
    pub merge_devices: bool,
    /// A request larger than this (bytes) is a malformed line.
    #[serde(default = "default_max_request_bytes")]
    pub max_request_bytes: u64,
    /// Keep the parsed trace in a cache file in this folder (named by the trace's content hash):
    /// the passes after the first and later runs of the same trace read records instead of text.
    #[serde(default)]
    pub cache_dir: Option<PathBuf>,
    /// A column map for any delimited layout: which column is time, op, offset, size (and device),
    /// their units, op values and header lines (`docs/traces.md`).
    #[serde(default)]
    pub columns: Option<ssdlab_workload::formats::columns::ColumnLayout>,
    /// Read and parse the trace on a second thread that feeds the replay (same requests, same
    /// results; less wall time where a second core is free). False: the replay thread reads it.
    #[serde(default = "default_read_ahead")]
    pub read_ahead: bool,
    /// Without a cache, the scan keeps the records it parsed in memory, up to this many bytes
    /// (12 per MQSim line), so the replay and its loops decode them instead of parsing the text
    /// again; a trace needing more is parsed again. 0: never kept. Same requests, same results;
    /// left out of the written config at its default, so stored sweep points stay valid.
    #[serde(default = "default_keep_records_bytes", skip_serializing_if = "is_default_keep_records_bytes")]
    pub keep_records_bytes: u64,
}

fn default_read_ahead() -> bool {
    true
}

fn default_keep_records_bytes() -> u64 {
    ssdlab_workload::trace::DEFAULT_KEEP_RECORDS_BYTES
}

fn is_default_keep_records_bytes(bytes: &u64) -> bool {
    *bytes == default_keep_records_bytes()
}

impl TraceWorkload {
    /// The reading options of this trace (what the scan and the readers are given).
    pub fn options(&self) -> ssdlab_workload::TraceOptions {
        ssdlab_workload::TraceOptions {
            format: self.format,
            skip_bad_lines: self.skip_bad_lines,
            merge_devices: self.merge_devices,
            max_request_bytes: self.max_request_bytes,
            cache_dir: self.cache_dir.clone(),
            columns: self.columns.clone(),
            keep_records_bytes: self.keep_records_bytes,
        }
    }
}

fn default_max_request_bytes() -> u64 {
    ssdlab_workload::trace::DEFAULT_MAX_REQUEST_BYTES
}

/// Checks that exactly one workload is given and that a synthetic one is consistent. Returns (field path, message) on the first failure.
pub(super) fn validate(workload: &WorkloadConfig) -> Result<(), (String, String)> {
    let fail = |field: &str, message: String| Err((field.to_string(), message));
    match (&workload.trace, &workload.synthetic) {
        (Some(_), Some(_)) => {
            return fail("workload", "give either [workload.trace] or [workload.synthetic], not both".into())
        }
        (None, None) => {
            return fail("workload", "no workload: give [workload.trace] (path = ...) or [workload.synthetic]".into())
        }
        (None, Some(spec)) => {
            if let Err(ssdlab_workload::WorkloadError::InvalidSynthetic { field, message }) = spec.validate() {
                return fail(&format!("workload.synthetic.{field}"), message);
            }
        }
        (Some(trace), None) => {
            if let Some(layout) = &trace.columns {
                if let Err((field, message)) = layout.validate() {
                    // "columns" is the column map itself (two fields naming one column).
                    let path = if field == "columns" { String::new() } else { format!(".{field}") };
                    return fail(&format!("workload.trace.columns{path}"), message);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::WorkloadConfig;

    const SYNTHETIC: &str = "[synthetic]\nrequests = 10\nread_fraction = 0.5\nspan_bytes = 1048576\n\
        address = { distribution = \"uniform\" }\nsize = { distribution = \"fixed\", bytes = 4096 }\n";

    #[test]
    fn a_synthetic_seed_is_read_and_written_only_when_given() {
        let plain: WorkloadConfig = toml::from_str(SYNTHETIC).expect("parses");
        assert_eq!(plain.synthetic.as_ref().and_then(|spec| spec.seed), None);
        // Unset, it is not written: stored configs and their digests stay the same.
        assert!(!toml::to_string(&plain).expect("writes").contains("seed"));
        let seeded: WorkloadConfig = toml::from_str(&format!("{SYNTHETIC}seed = 798\n")).expect("parses");
        assert_eq!(seeded.synthetic.as_ref().and_then(|spec| spec.seed), Some(798));
        let again: WorkloadConfig = toml::from_str(&toml::to_string(&seeded).expect("writes")).expect("parses");
        assert_eq!(again, seeded);
    }

    #[test]
    fn a_stop_time_is_read_written_only_when_given_and_checked() {
        let plain: WorkloadConfig = toml::from_str(SYNTHETIC).expect("parses");
        assert!(!toml::to_string(&plain).expect("writes").contains("stop_time_ns"));
        let stopped: WorkloadConfig =
            toml::from_str(&format!("{SYNTHETIC}stop_time_ns = 10000000000\n")).expect("parses");
        assert_eq!(stopped.synthetic.as_ref().and_then(|spec| spec.stop_time_ns), Some(10_000_000_000));
        assert!(super::validate(&stopped).is_ok());
        let again: WorkloadConfig = toml::from_str(&toml::to_string(&stopped).expect("writes")).expect("parses");
        assert_eq!(again, stopped);
    }

    #[test]
    fn stop_time_errors_name_their_key_in_workload_and_in_each_flow() {
        let field = |overrides: &[&str]| {
            let overrides: Vec<String> = overrides.iter().map(|o| o.to_string()).collect();
            match crate::presets::load("two-flows", &overrides) {
                Err(crate::error::ConfigError::Invalid { field, message, .. }) => (field, message),
                other => panic!("expected an invalid field for {overrides:?}, got {other:?}"),
            }
        };
        assert_eq!(field(&["workload.synthetic.stop_time_ns=0"]).0, "workload.synthetic.stop_time_ns");
        let (path, message) = field(&["workload.synthetic.requests=0", "workload.synthetic.stop_time_ns=1000"]);
        assert_eq!(path, "workload.synthetic.requests");
        assert!(message.contains("upper bound"), "{message}");
        let config = crate::presets::load("two-flows", &[]).expect("preset loads");
        let mut flows = config.host.flows.clone();
        let spec = flows[0].synthetic.as_mut().expect("the reader has its own stream");
        spec.stop_time_ns = Some(0);
        let (path, _) = super::super::flows::validate(&config.host.queues, &flows).unwrap_err();
        assert_eq!(path, "host.flows[0].synthetic.stop_time_ns");
        flows[0].synthetic.as_mut().expect("stream").stop_time_ns = Some(5_000_000);
        assert!(super::super::flows::validate(&config.host.queues, &flows).is_ok());
        // Set through the loader as well.
        let loaded = crate::presets::load("two-flows", &["workload.synthetic.stop_time_ns=7".into()]).expect("valid");
        assert_eq!(loaded.workload.synthetic.and_then(|spec| spec.stop_time_ns), Some(7));
    }
}
