//! What a run may ask for before it starts: refuse runs that cannot fit in memory or would not end
//! in any useful time, with the field to change, instead of allocating for minutes and aborting.
//!
//! The memory estimate uses the model's known costs (docs/architecture.md, Memory): per logical page
//! written, a mapping entry, a page record and validity bit and a share of partly valid blocks (about
//! 48 bytes measured on the MQSim default drive, 49 MB for 1M pages); per physical block, its
//! record; with the integrity oracle, a hash-map entry per page. It is compared with the memory the
//! operating system reports as available (Linux `MemAvailable`); where that is unknown, only the
//! request-count limit applies.

use super::config_invalid;
use crate::config::SimulationConfig;
use crate::error::SimulationError;

/// Requests a run may issue in total (requests x loops x tiles): about 10 hours of replay at 3M
/// requests per CPU-second.
pub const MAX_TOTAL_REQUESTS: u64 = 100_000_000_000;
/// Preconditioning overwrite passes accepted (GC steady state needs 1-3).
pub const MAX_OVERWRITE_PASSES: f64 = 1000.0;
const BYTES_PER_PAGE: u64 = 48;
const ORACLE_BYTES_PER_PAGE: u64 = 24;
const BYTES_PER_BLOCK: u64 = 48;

/// The total number of requests the run will issue; refused above [`MAX_TOTAL_REQUESTS`].
pub(super) fn check_request_count(config: &SimulationConfig, per_loop: u64) -> Result<(), SimulationError> {
    let total = per_loop as u128 * config.host.loops as u128 * config.host.tiles.max(1) as u128;
    if total > MAX_TOTAL_REQUESTS as u128 {
        let field = if config.host.loops > 1 {
            "host.loops"
        } else if config.workload.synthetic.is_some() {
            "workload.synthetic.requests"
        } else {
            "host.tiles"
        };
        let message = format!(
            "{per_loop} requests x {} loops x {} tiles = {total} requests; at most {MAX_TOTAL_REQUESTS} are accepted (about 10 hours of replay)",
            config.host.loops, config.host.tiles
        );
        return Err(config_invalid(config, field, message));
    }
    if config.ftl.precondition.overwrite_passes > MAX_OVERWRITE_PASSES {
        let message = format!(
            "{} passes; at most {MAX_OVERWRITE_PASSES} are accepted (GC steady state needs 1-3)",
            config.ftl.precondition.overwrite_passes
        );
        return Err(config_invalid(config, "ftl.precondition.overwrite_passes", message));
    }
    Ok(())
}

/// Estimated model memory for `pages` logical pages written on a device of `blocks` blocks.
pub(super) fn estimate_bytes(pages: u64, blocks: u64, oracle: bool) -> u64 {
    pages
        .saturating_mul(BYTES_PER_PAGE + if oracle { ORACLE_BYTES_PER_PAGE } else { 0 })
        .saturating_add(blocks.saturating_mul(BYTES_PER_BLOCK))
}

/// Refuses a run whose estimated memory exceeds what is available; `field` is what to change.
pub(super) fn check_memory(
    config: &SimulationConfig,
    estimate_bytes: u64,
    field: &str,
    what: &str,
) -> Result<(), SimulationError> {
    let Some(available) = available_memory_bytes() else { return Ok(()) };
    if estimate_bytes > available {
        let message = format!(
            "{what} needs about {:.1} GB of model state, more than the {:.1} GB this machine has available; shrink it or use a machine with more memory",
            estimate_bytes as f64 / 1e9,
            available as f64 / 1e9
        );
        return Err(config_invalid(config, field, message));
    }
    Ok(())
}

/// `MemAvailable` from /proc/meminfo, in bytes (None where unknown).
pub(super) fn available_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_grow_with_pages_and_blocks_and_saturate() {
        assert_eq!(estimate_bytes(1_000, 10, false), 48_000 + 480);
        assert_eq!(estimate_bytes(1_000, 0, true), 72_000);
        assert_eq!(estimate_bytes(u64::MAX, u64::MAX, true), u64::MAX);
    }
}
