#![allow(dead_code)]
//! Shared helpers for the integration tests.

use ssdlab_ssd::SimulationConfig;
use std::path::PathBuf;

/// A small device (2 ch x 2 chips x 1 die x 2 planes x 32 blocks x 16 pages x 4 KiB = 16 MiB, 12 MiB logical) so GC
/// runs constantly.
pub const SMALL_DEVICE: &str = r#"
name = "small"
seed = 7
[device.geometry]
channels = 2
chips_per_channel = 2
dies_per_chip = 1
planes_per_die = 2
blocks_per_plane = 32
pages_per_block = 16
page_size_bytes = 4096
[device.nand]
cell_type = "mlc"
read_latency_ns = [40000, 60000]
program_latency_ns = [200000, 1200000]
erase_latency_ns = 3000000
[device.channel]
transfer_rate_mts = 200.0
[ftl]
overprovisioning_fraction = 0.25
[ftl.garbage_collection]
low_watermark_blocks = 2
high_watermark_blocks = 3
[verification]
integrity_oracle = true
"#;

pub fn small_config(workload: &str, overrides: &[&str]) -> SimulationConfig {
    config_of(SMALL_DEVICE, workload, overrides)
}

/// A config of a test's own `device` text followed by `workload`, with `--set` style overrides;
/// panics with the validation message (a fixture that does not validate is a broken test).
pub fn config_of(device: &str, workload: &str, overrides: &[&str]) -> SimulationConfig {
    config_result(device, workload, overrides).unwrap_or_else(|e| panic!("{e}"))
}

/// Like [`config_of`], but returns the error of a config that does not validate.
pub fn config_result(
    device: &str,
    workload: &str,
    overrides: &[&str],
) -> Result<SimulationConfig, ssdlab_ssd::SimulationError> {
    let text = format!("{device}\n{workload}");
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    Ok(SimulationConfig::from_toml_str(&text, "test", &overrides)?)
}

/// Runs `config` to the end; panics with the error.
pub fn run_ok(config: &SimulationConfig) -> ssdlab_ssd::RunResult {
    ssdlab_ssd::run(config, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"))
}

/// Two simulated times (or sums of them) in microseconds equal to rounding.
pub fn close(actual: f64, expected: f64) -> bool {
    (actual - expected).abs() < 1e-6
}

pub fn synthetic(requests: u64, read_fraction: f64, span_bytes: u64, address: &str, size: &str) -> String {
    format!(
        "[workload.synthetic]\nrequests = {requests}\nread_fraction = {read_fraction}\nspan_bytes = {span_bytes}\naddress = {address}\nsize = {size}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 20000.0 }}\n"
    )
}

pub fn shared_trace(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/traces").join(name);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("SKIPPED: {} not found (../shared/traces is not beside the checkout)", path.display());
        None
    }
}

pub fn no_progress() -> impl FnMut(ssdlab_ssd::simulation::Phase, u64, u64) -> Result<(), ssdlab_ssd::SimulationError> {
    |_, _, _| Ok(())
}

/// Writes `lines` to a trace file of its own (tests run in parallel: two tests using the same name
/// must not rewrite each other's file while it is read) and returns the workload section naming it.
pub fn trace_workload(name: &str, lines: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let unique = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ssdlab-ssd-tests-{}-{unique}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, lines).unwrap();
    format!("[workload.trace]\npath = {:?}\n", path.display().to_string())
}

/// Like [`small_config`], but returns the error of a config that does not validate.
pub fn small_config_result(
    workload: &str,
    overrides: &[&str],
) -> Result<SimulationConfig, ssdlab_ssd::SimulationError> {
    config_result(SMALL_DEVICE, workload, overrides)
}
