//! The controller DRAM's write-back data cache end to end (issue 37): exact times of a write hit, a
//! read hit, a background destage, a destage at eviction and a write forced to flash; the power-loss
//! account; config errors; the integrity oracle with the cache on the msr-hm_0 sample and on random
//! sequences (proptest) through evictions, destage rounds, partial lines and deletes.

mod common;

use common::{close, config_of, no_progress, run_ok, shared_trace, small_config, trace_workload};
use proptest::prelude::*;
use ssdlab_ssd::{run, SimulationConfig};

/// A tiny device: 1 ch x 1 chip x 1 die x 2 planes x 32 blocks x 16 pages x 4 KiB (8 sectors per
/// page; lower page 40 us sense / 200 us program; 4096 B in 20.48 us at 200 MT/s). Its DRAM cache:
/// 4 lines, 100 ns per access plus 1 ns per byte (1,000 MB/s): a page in or out takes 4,196 ns.
const TINY_CACHED: &str = r#"
name = "tiny-cached"
seed = 5
[device.geometry]
channels = 1
chips_per_channel = 1
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
multi_plane = false
[device.channel]
transfer_rate_mts = 200.0
[device.data_cache]
capacity_bytes = 16384
access_latency_ns = 100
bandwidth_mb_per_s = 1000
high_watermark_dirty_fraction = 1.0
low_watermark_dirty_fraction = 0.5
[ftl]
overprovisioning_fraction = 0.25
[ftl.precondition]
enabled = false
[ftl.garbage_collection]
low_watermark_blocks = 2
high_watermark_blocks = 3
[verification]
integrity_oracle = true
"#;

const PAGE_IN_DRAM_US: f64 = 4.196;
const TRANSFER_US: f64 = 20.48;
const PROGRAM_US: f64 = 200.0;

fn tiny(workload: &str, overrides: &[&str]) -> SimulationConfig {
    config_of(TINY_CACHED, workload, overrides)
}

#[test]
fn a_write_completes_when_its_data_is_in_dram_and_a_rewrite_is_a_hit() {
    // A page written, then written again: each completes after one DRAM access; nothing is programmed.
    let workload = trace_workload("hit.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,W,0,4096\n");
    let result = run_ok(&tiny(&workload, &[]));
    assert!(close(result.write.latency_us.mean, PAGE_IN_DRAM_US), "{:?}", result.write.latency_us);
    let cache = result.data_path.data_cache.as_ref().expect("a data cache section");
    assert_eq!((cache.write_page_misses, cache.write_page_hits), (1, 1));
    assert_eq!(result.flash.page_programs, 0, "the data stays in DRAM");
    assert_eq!((cache.dirty_lines_at_end, cache.dirty_bytes_at_end), (1, 4096));
    assert_eq!(cache.dram.bytes_written, 8192);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert_eq!(result.data_path.integrity.pages_checked_at_end, 1);
}

#[test]
fn a_read_of_cached_sectors_is_served_from_dram() {
    // Written whole, then read whole (4,196 ns) and in part: 1 KiB from sector 1 (100 + 1,024 ns).
    let workload = trace_workload("read.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,R,0,4096\n2000,R,512,1024\n");
    let result = run_ok(&tiny(&workload, &[]));
    assert!(close(result.read.latency_us.mean, (PAGE_IN_DRAM_US + 1.124) / 2.0), "{:?}", result.read.latency_us);
    let cache = result.data_path.data_cache.as_ref().unwrap();
    assert_eq!((cache.read_page_hits, cache.read_page_misses, cache.read_requests_from_cache), (2, 0, 2));
    assert_eq!(cache.read_hit_ratio, 1.0);
    assert_eq!(result.flash.page_reads, 0);
    // The oracle checked both reads against the cached latest write.
    assert_eq!(result.data_path.integrity.reads_checked - result.data_path.integrity.pages_checked_at_end, 2);
}

#[test]
fn a_read_of_sectors_the_line_lacks_goes_to_flash_too() {
    // One line: page 0 written whole, pushed to flash by page 1's write (an eviction), then its
    // sector 0 rewritten (page 1 evicted in turn): the line holds one sector. The page read at 5 ms
    // (flash idle) takes sector 0 from DRAM (612 ns) and the rest from flash: 40 us sense + 20.48 us.
    let workload = trace_workload(
        "partial.csv",
        "time_us,op,offset,size\n0,W,0,4096\n500,W,4096,4096\n1000,W,0,512\n5000,R,0,4096\n",
    );
    let result = run_ok(&tiny(&workload, &["device.data_cache.capacity_bytes=4096"]));
    let cache = result.data_path.data_cache.as_ref().unwrap();
    assert_eq!((cache.read_page_partial_hits, cache.read_page_hits, cache.dirty_evictions), (1, 0, 2));
    assert!(close(result.read.latency_us.mean, 40.0 + TRANSFER_US), "{:?}", result.read.latency_us);
    assert_eq!(result.flash.page_reads, 1);
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

#[test]
fn dirty_data_past_the_high_watermark_is_destaged_in_the_background() {
    // High watermark 0: the page written at 0 is destaged at once. The host write completes at
    // 4.196 us; the destage reads the page out of DRAM after it (4,196..8,392 ns), moves it over the
    // channel (20.48 us) and programs it (200 us): in flash at 228.872 us. A read of it at 1 ms is
    // still a hit (the line stays, clean).
    let workload = trace_workload("destage.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,R,0,4096\n");
    let result = run_ok(&tiny(
        &workload,
        &["device.data_cache.high_watermark_dirty_fraction=0.0", "device.data_cache.low_watermark_dirty_fraction=0.0"],
    ));
    assert!(close(result.write.latency_us.mean, PAGE_IN_DRAM_US), "{:?}", result.write.latency_us);
    assert!(close(result.read.latency_us.mean, PAGE_IN_DRAM_US), "{:?}", result.read.latency_us);
    let cache = result.data_path.data_cache.as_ref().unwrap();
    assert_eq!((cache.destage_rounds, cache.pages_destaged_in_background), (1, 1));
    assert_eq!(result.flash.page_programs, 1);
    assert_eq!((cache.dirty_lines_at_end, cache.lines_at_end), (0, 1));
    // Unsaved: 4,096 bytes from 0 until the program ends at 228.872 us, over a run ending with the
    // read at 1,004.196 us.
    assert_eq!(cache.unsaved_bytes_max, 4096);
    let expected_mean = 4096.0 * 228_872.0 / 1_004_196.0;
    assert!((cache.unsaved_bytes_mean - expected_mean).abs() < 1e-6, "{} vs {expected_mean}", cache.unsaved_bytes_mean);
    assert!(close(result.simulated_seconds * 1e6, 1_004.196), "{}", result.simulated_seconds);
    assert_eq!(cache.dram.bytes_read, 8192, "the destage and the read hit");
    // Over time (50 us intervals): 4,096 bytes unsaved until the program ends in the fifth, none after.
    let series = run_ok(&tiny(
        &workload,
        &[
            "device.data_cache.high_watermark_dirty_fraction=0.0",
            "device.data_cache.low_watermark_dirty_fraction=0.0",
            "output.time_series_interval_ms=0.05",
        ],
    ))
    .time_series
    .expect("a time series");
    let unsaved = series.unsaved_bytes.expect("an unsaved-bytes column with the cache");
    assert_eq!(unsaved.len(), 21);
    assert_eq!(&unsaved[..4], &[4096; 4], "{unsaved:?}");
    assert!(unsaved[5..].iter().all(|&bytes| bytes == 0), "{unsaved:?}");
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

#[test]
fn a_full_cache_of_dirty_lines_makes_the_writer_wait_for_an_eviction() {
    // One line, no background destage: the second page's write evicts the first (dirty). Its data
    // enters DRAM (1,000..1,004.196 us), the evicted page leaves it (..1,008.392), crosses the
    // channel and is programmed: the write completes at 1,228.872 us, 228.872 us after its arrival.
    let workload = trace_workload("evict.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,W,4096,4096\n");
    let result = run_ok(&tiny(&workload, &["device.data_cache.capacity_bytes=4096"]));
    let second = 2.0 * PAGE_IN_DRAM_US + TRANSFER_US + PROGRAM_US;
    assert!(close(result.write.latency_us.mean, (PAGE_IN_DRAM_US + second) / 2.0), "{:?}", result.write.latency_us);
    let cache = result.data_path.data_cache.as_ref().unwrap();
    assert_eq!((cache.dirty_evictions, cache.pages_destaged_at_eviction, cache.clean_evictions), (1, 1, 0));
    assert_eq!(result.flash.page_programs, 1);
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

#[test]
fn the_least_recently_used_line_is_evicted() {
    // Two lines: pages A and B written, A read (now the more recent), C written: B is evicted (and
    // destaged: it was dirty), so A is still a hit and B is read from flash.
    let workload = trace_workload(
        "lru.csv",
        "time_us,op,offset,size\n0,W,0,4096\n100,W,4096,4096\n200,R,0,4096\n300,W,8192,4096\n2000,R,0,4096\n3000,R,4096,4096\n",
    );
    let result = run_ok(&tiny(&workload, &["device.data_cache.capacity_bytes=8192"]));
    let cache = result.data_path.data_cache.as_ref().unwrap();
    assert_eq!((cache.read_page_hits, cache.read_page_misses), (2, 1), "{cache:?}");
    assert_eq!((cache.dirty_evictions, cache.lines_at_end, cache.dirty_lines_at_end), (1, 2, 2));
    assert_eq!(result.flash.page_reads, 1);
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

#[test]
fn a_forced_write_completes_when_programmed() {
    // force_unit_access: into DRAM (4.196 us), out again (4.196), over the channel, programmed.
    let workload = trace_workload("fua.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,R,0,4096\n");
    let result = run_ok(&tiny(&workload, &["device.data_cache.force_unit_access=true"]));
    let expected = 2.0 * PAGE_IN_DRAM_US + TRANSFER_US + PROGRAM_US;
    assert!(close(result.write.latency_us.mean, expected), "{:?}", result.write.latency_us);
    assert!(close(result.read.latency_us.mean, PAGE_IN_DRAM_US), "a read hit on the clean line");
    let cache = result.data_path.data_cache.as_ref().unwrap();
    assert_eq!((cache.pages_written_through, cache.unsaved_bytes_max, cache.dirty_bytes_at_end), (1, 0, 0));
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

#[test]
fn data_cache_config_errors_name_the_field() {
    let error = |overrides: &[&str]| {
        let text = format!("{TINY_CACHED}\n{}", churn(10));
        let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        SimulationConfig::from_toml_str(&text, "test", &overrides).expect_err("invalid").to_string()
    };
    let message = error(&["device.data_cache.capacity_bytes=100"]);
    assert!(message.contains("device.data_cache.capacity_bytes"), "{message}");
    assert!(error(&["device.data_cache.bandwidth_mb_per_s=0"]).contains("device.data_cache.bandwidth_mb_per_s"));
    assert!(error(&["device.data_cache.low_watermark_dirty_fraction=1.5"])
        .contains("device.data_cache.low_watermark_dirty_fraction"));
    assert!(error(&["device.data_cache.capacity=1"]).contains("capacity"), "unknown keys are refused");
}

#[test]
fn the_msr_hm_0_sample_with_the_cache_returns_every_latest_write() {
    let Some(path) = shared_trace("msr-hm_0.sample.csv.gz") else { return };
    let workload = format!("[workload.trace]\npath = {:?}\n", path.display().to_string());
    // A cache of 64 pages of 4 KiB on the small device sized to the trace's footprint, the trace
    // looped twice: evictions, destage rounds and GC all run.
    let config = small_config(
        &workload,
        &[
            "ftl.sizing=footprint",
            "ftl.footprint_free_fraction=0.2",
            "host.loops=2",
            "device.data_cache={capacity_bytes=262144, access_latency_ns=26, bandwidth_mb_per_s=400, high_watermark_dirty_fraction=0.5, low_watermark_dirty_fraction=0.25}",
        ],
    );
    let result = run_ok(&config);
    let cache = result.data_path.data_cache.as_ref().unwrap();
    assert_eq!(result.requests, 2 * 7_016);
    assert!(cache.read_page_hits > 0 && cache.write_page_hits > 0, "{cache:?}");
    assert!(cache.destage_rounds > 0 && cache.pages_destaged_in_background > 0, "{cache:?}");
    assert!(cache.clean_evictions > 0, "{cache:?}");
    assert!(result.gc.blocks_collected > 0);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert!(result.data_path.integrity.reads_checked > 1000);
    // Without the cache the same run programs more pages (rewrites absorbed in DRAM never reach flash).
    let mut uncached = config.clone();
    uncached.device.data_cache = None;
    let without = run_ok(&uncached);
    // A cache turned off (`enabled = false`) is no cache at all.
    let mut disabled = config.clone();
    if let Some(cache) = disabled.device.data_cache.as_mut() {
        cache.enabled = false;
    }
    let off = run_ok(&disabled);
    assert!(off.data_path.data_cache.is_none());
    assert_eq!(
        (off.flash.page_programs, off.write.latency_us.mean, off.read.latency_us.mean),
        (without.flash.page_programs, without.write.latency_us.mean, without.read.latency_us.mean)
    );
    assert!(result.flash.page_programs < without.flash.page_programs);
    assert!(result.write.latency_us.mean < without.write.latency_us.mean);
}

/// Random small writes, reads and deletes over 256 KiB (64 pages), sector-aligned.
fn churn(requests: u64) -> String {
    format!(
        "[workload.synthetic]\nrequests = {requests}\nread_fraction = 0.4\ndelete_fraction = 0.03\nspan_bytes = 262144\nalignment_bytes = 512\naddress = {{ distribution = \"hot_cold\", hot_space_fraction = 0.2, hot_access_fraction = 0.8 }}\nsize = {{ distribution = \"uniform\", min_bytes = 512, max_bytes = 12288 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 30000.0 }}\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whatever the cache's size, watermarks, write-through and delete handling, every read returns
    /// the latest write, destaged data is found in flash, and every request completes.
    #[test]
    fn random_sequences_with_the_cache_lose_nothing(
        seed in 0u64..1_000,
        lines in 1u64..24,
        high in 0.0f64..1.0,
        low_share in 0.0f64..1.0,
        forced in proptest::bool::weighted(0.2),
        deletes in 0usize..3,
    ) {
        let delete_target = ["ftl", "none", "middleware"][deletes];
        let overrides = [
            format!("seed={seed}"),
            format!("device.data_cache.capacity_bytes={}", lines * 4096),
            format!("device.data_cache.high_watermark_dirty_fraction={high}"),
            format!("device.data_cache.low_watermark_dirty_fraction={}", high * low_share),
            format!("device.data_cache.force_unit_access={forced}"),
            format!("host.delete_target=\"{delete_target}\""),
        ];
        let overrides: Vec<&str> = overrides.iter().map(String::as_str).collect();
        let result = run(&tiny(&churn(1500), &overrides), &mut no_progress());
        let result = result.map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(result.requests_completed, 1500);
        prop_assert_eq!(result.data_path.integrity.mismatches, 0);
        let cache = result.data_path.data_cache.unwrap();
        prop_assert!(cache.lines_at_end <= lines);
        prop_assert_eq!(cache.dirty_bytes_at_end > 0, cache.dirty_lines_at_end > 0);
        prop_assert!(cache.unsaved_bytes_max >= cache.dirty_bytes_at_end);
    }
}
