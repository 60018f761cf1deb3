//! The mapping-table cache (CMT) end to end (issue 37): exact times of a hit, a miss (the data read
//! starts when the translation read ends) and a miss that evicts a dirty entry (the write-back's
//! merge read and program, timed and counted); GC collecting translation pages; config errors; the
//! integrity oracle with the CMT (and with the DRAM data cache in front) on the msr-hm_0 sample and
//! on random sequences (proptest).

mod common;

use common::{close, config_of, no_progress, run_ok, shared_trace, small_config, trace_workload};
use proptest::prelude::*;
use ssdlab_ssd::{run, SimulationConfig};

/// A tiny SLC device: 1 ch x 1 chip x 1 die x 2 planes x 32 blocks x 16 pages x 4 KiB (1,024
/// pages, 768 the host's); 40 us sense, 200 us program; 4096 B in 20.48 us at 200 MT/s; no decode
/// time. The CMT: 2 entries, 64 entries a translation page (12 translation pages). Preconditioning
/// writes the workload's pages and their translation pages; the CMT starts empty.
const TINY_CMT: &str = r#"
name = "tiny-cmt"
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
cell_type = "slc"
read_latency_ns = [40000]
program_latency_ns = [200000]
erase_latency_ns = 3000000
multi_plane = false
[device.channel]
transfer_rate_mts = 200.0
[device.mapping_cache]
capacity_entries = 2
translation_entries_per_page = 64
[ftl]
overprovisioning_fraction = 0.25
[ftl.precondition]
enabled = true
[ftl.garbage_collection]
low_watermark_blocks = 2
high_watermark_blocks = 3
[verification]
integrity_oracle = true
"#;

const SENSE_US: f64 = 40.0;
const TRANSFER_US: f64 = 20.48;
const PROGRAM_US: f64 = 200.0;

fn tiny(workload: &str, overrides: &[&str]) -> SimulationConfig {
    config_of(TINY_CMT, workload, overrides)
}

#[test]
fn a_miss_reads_the_translation_page_first_and_a_hit_costs_nothing() {
    // Page 0 written at 0: a miss; its translation page (0) is read (sense 0..40, transfer
    // ..60.48 us), then the data moves (..80.96) and is programmed (..280.96). Page 0 read at 1 ms:
    // a hit, a plain read (60.48 us). Page 64 read at 2 ms: a miss (translation page 1) with room in
    // the cache: translation read 2,000..2,060.48, then the data read 2,060.48..2,120.96.
    let workload =
        trace_workload("miss.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,R,0,4096\n2000,R,262144,4096\n");
    let result = run_ok(&tiny(&workload, &[]));
    let write = SENSE_US + TRANSFER_US + TRANSFER_US + PROGRAM_US;
    assert!(close(result.write.latency_us.mean, write), "{:?}", result.write.latency_us);
    let hit = SENSE_US + TRANSFER_US;
    let miss = 2.0 * (SENSE_US + TRANSFER_US);
    assert!(close(result.read.latency_us.mean, (hit + miss) / 2.0), "{:?}", result.read.latency_us);
    let cmt = result.data_path.mapping_cache.as_ref().expect("a mapping_cache section");
    assert_eq!((cmt.hits, cmt.read_misses, cmt.write_misses), (1, 1, 1), "{cmt:?}");
    assert_eq!((cmt.translation_page_reads, cmt.translation_page_programs), (2, 0));
    assert_eq!((cmt.dirty_evictions, cmt.clean_evictions, cmt.entries_at_end, cmt.dirty_entries_at_end), (0, 0, 2, 1));
    assert_eq!(cmt.translation_pages, 12);
    assert!(close(cmt.hit_ratio, 1.0 / 3.0));
    // Two translation reads and two data reads; one program (the host's).
    assert_eq!((result.flash.page_reads, result.flash.page_programs), (4, 1));
    assert!(close(cmt.translation_die_time_s, 2.0 * SENSE_US * 1e-6));
    assert!(close(cmt.translation_die_time_share, 2.0 * SENSE_US / (4.0 * SENSE_US + PROGRAM_US)));
    assert_eq!(result.data_path.integrity.mismatches, 0);
    // The ideal mapping: no translation work.
    let ideal = run_ok(&tiny(&workload, &["device.mapping_cache.enabled=false"]));
    assert!(ideal.data_path.mapping_cache.is_none());
    assert!(close(ideal.write.latency_us.mean, TRANSFER_US + PROGRAM_US));
    assert!(close(ideal.read.latency_us.mean, hit));
    assert_eq!((ideal.flash.page_reads, ideal.flash.page_programs), (2, 1));
}

#[test]
fn a_miss_that_evicts_a_dirty_entry_writes_its_translation_page_back() {
    // One entry. Page 0 written at 0 (280.96 us as above): its entry is dirty. Page 64 read at 1 ms:
    // a miss that evicts page 0's entry, so translation page 0 is written back in the background:
    // read (die 1,000..1,040, channel 1,040..1,060.48) and programmed (channel ..1,080.96, die
    // 1,080.96..1,280.96). The miss's translation read senses behind the merge read (1,040..1,080)
    // and waits for the channel (1,080.96..1,101.44); the data read then waits for the die behind
    // the write-back's program: sense 1,280.96..1,320.96, transfer ..1,341.44: 341.44 us.
    let workload = trace_workload("evict.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,R,262144,4096\n");
    let result = run_ok(&tiny(&workload, &["device.mapping_cache.capacity_entries=1"]));
    assert!(close(result.write.latency_us.mean, SENSE_US + 2.0 * TRANSFER_US + PROGRAM_US));
    assert!(close(result.read.latency_us.mean, 341.44), "{:?}", result.read.latency_us);
    let cmt = result.data_path.mapping_cache.as_ref().unwrap();
    assert_eq!((cmt.dirty_evictions, cmt.entries_written_back, cmt.clean_evictions), (1, 1, 0), "{cmt:?}");
    assert_eq!(
        (cmt.translation_page_reads, cmt.translation_page_reads_for_write_back, cmt.translation_page_programs),
        (2, 1, 1)
    );
    assert_eq!(cmt.dirty_entries_at_end, 0);
    // Reads: two translation reads, the merge read, the data read; programs: the host's and the
    // translation page's. The host wrote one page (the write-back is not a host write).
    assert_eq!((result.flash.page_reads, result.flash.page_programs), (4, 2));
    assert_eq!(result.host_pages_written, 1);
    assert!(close(cmt.translation_die_time_s, (3.0 * SENSE_US + PROGRAM_US) * 1e-6));
    // The run ends with the data read; the write-back ended before it.
    assert!(close(result.simulated_seconds * 1e6, 1_341.44), "{}", result.simulated_seconds);
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

#[test]
fn a_translation_page_kept_in_dram_after_its_write_back_needs_no_read() {
    // As above, then page 0 read again at 3 ms: its entry was evicted and its translation page
    // written back. In flash (DFTL) the miss reads the translation page again; kept in DRAM
    // (MQSim) it does not, and the read takes one sense and one transfer.
    let workload =
        trace_workload("kept.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,R,262144,4096\n3000,R,0,4096\n");
    let reads = |setting: &str| {
        let result = run_ok(&tiny(
            &workload,
            &[
                "device.mapping_cache.capacity_entries=1",
                &format!("device.mapping_cache.written_back_pages=\"{setting}\""),
            ],
        ));
        assert_eq!(result.data_path.integrity.mismatches, 0);
        let cmt = result.data_path.mapping_cache.as_ref().unwrap();
        (cmt.translation_page_reads, cmt.translation_page_programs, result.simulated_seconds * 1e6)
    };
    let (in_flash, kept) = (reads("in_flash"), reads("kept_in_dram"));
    assert_eq!((in_flash.0, in_flash.1), (3, 1), "{in_flash:?}");
    assert_eq!((kept.0, kept.1), (2, 1), "{kept:?}");
    assert!(close(kept.2, 3_000.0 + SENSE_US + TRANSFER_US), "{kept:?}");
    assert!(close(in_flash.2, 3_000.0 + 2.0 * (SENSE_US + TRANSFER_US)), "{in_flash:?}");
}

#[test]
fn a_miss_while_its_translation_page_is_being_read_waits_for_that_read() {
    // Page 1 read at 0: a miss; translation read 0..60.48 us, data read 60.48..120.96. Page 2 (same
    // translation page) read at 10 us: a miss that shares the running translation read; its data
    // read senses behind page 1's (100.48..140.48) and transfers (..160.96): 150.96 us. Page 1 read
    // again at 20 us: its entry is still loading, so it waits too: sense 140.48..180.48, transfer
    // ..200.96: 180.96 us.
    let workload =
        trace_workload("shared.csv", "time_us,op,offset,size\n0,R,4096,4096\n10,R,8192,4096\n20,R,4096,4096\n");
    let result = run_ok(&tiny(&workload, &[]));
    let first = 2.0 * (SENSE_US + TRANSFER_US);
    assert!(close(result.read.latency_us.mean, (first + 150.96 + 180.96) / 3.0), "{:?}", result.read.latency_us);
    let cmt = result.data_path.mapping_cache.as_ref().unwrap();
    assert_eq!((cmt.translation_page_reads, cmt.misses_sharing_a_read, cmt.read_misses, cmt.hits), (1, 2, 3, 0));
    assert_eq!(result.flash.page_reads, 4);
    // Read again at 1 ms, when the translation read has long ended: a hit.
    let later = trace_workload("shared-later.csv", "time_us,op,offset,size\n0,R,4096,4096\n1000,R,4096,4096\n");
    let cmt = run_ok(&tiny(&later, &[])).data_path.mapping_cache.unwrap();
    assert_eq!((cmt.hits, cmt.read_misses, cmt.misses_sharing_a_read), (1, 1, 0));
}

#[test]
fn translation_pages_are_collected_by_gc() {
    // One entry, random 4 KiB writes over the host's 768 pages (12 translation pages): nearly every
    // write evicts a dirty entry and writes a translation page back. Over 3,000 writes that is more
    // translation programs than the device has pages, so blocks holding translation pages must
    // have been collected and erased; the oracle finds every translation page's latest copy and no
    // host page mapped to one.
    let workload = "[workload.synthetic]\nrequests = 3000\nread_fraction = 0.0\nspan_bytes = 3145728\naddress = { distribution = \"uniform\" }\nsize = { distribution = \"fixed\", bytes = 4096 }\narrival = { process = \"poisson\", mean_interarrival_ns = 300000.0 }\n";
    let result = run_ok(&tiny(workload, &["device.mapping_cache.capacity_entries=1"]));
    let cmt = result.data_path.mapping_cache.as_ref().unwrap();
    assert!(cmt.translation_page_programs > 1024, "{cmt:?}");
    assert!(result.gc.blocks_collected > 0);
    assert_eq!(result.host_pages_written, 3000);
    assert_eq!(result.flash.page_programs, 3000 + cmt.translation_page_programs + result.gc.pages_copied);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    // Every host page written and every translation page checked at the end.
    assert!(result.data_path.integrity.pages_checked_at_end >= 12);
}

#[test]
fn mapping_cache_config_errors_name_the_field() {
    let error = |overrides: &[&str]| {
        let text = format!("{TINY_CMT}\n{}", churn(10));
        let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        SimulationConfig::from_toml_str(&text, "test", &overrides).expect_err("invalid").to_string()
    };
    let message = error(&["device.mapping_cache.capacity_bytes=64"]);
    assert!(message.contains("device.mapping_cache.capacity_entries"), "{message}");
    let message = error(&["device.mapping_cache.capacity_entries=0"]);
    assert!(message.contains("device.mapping_cache.capacity_entries"), "{message}");
    let message = error(&["device.mapping_cache.translation_entries_per_page=0"]);
    assert!(message.contains("device.mapping_cache.translation_entries_per_page"), "{message}");
    let message = error(&["middleware.kind=\"permutation\""]);
    assert!(message.contains("device.mapping_cache"), "{message}");
    assert!(error(&["device.mapping_cache.entries=1"]).contains("entries"), "unknown keys are refused");
}

fn sample_config(path: &std::path::Path, data_cache: bool) -> SimulationConfig {
    let workload = format!("[workload.trace]\npath = {:?}\n", path.display().to_string());
    let mut overrides = vec![
        "ftl.sizing=footprint",
        "ftl.footprint_free_fraction=0.2",
        "host.loops=2",
        "device.mapping_cache={capacity_entries=256, translation_entries_per_page=64}",
    ];
    if data_cache {
        overrides.push("device.data_cache={capacity_bytes=262144, access_latency_ns=26, bandwidth_mb_per_s=400, high_watermark_dirty_fraction=0.5, low_watermark_dirty_fraction=0.25}");
    }
    small_config(&workload, &overrides)
}

#[test]
fn the_msr_hm_0_sample_with_the_cmt_returns_every_latest_write() {
    let Some(path) = shared_trace("msr-hm_0.sample.csv.gz") else { return };
    for data_cache in [false, true] {
        let result = run_ok(&sample_config(&path, data_cache));
        let cmt = result.data_path.mapping_cache.as_ref().unwrap();
        assert_eq!(result.requests, 2 * 7_016);
        assert!(cmt.read_misses > 0 && cmt.write_misses > 0 && cmt.hits > 0, "{cmt:?}");
        assert!(cmt.dirty_evictions > 0 && cmt.translation_page_programs > 0, "{cmt:?}");
        assert!(result.gc.blocks_collected > 0);
        assert_eq!(result.data_path.integrity.mismatches, 0, "data cache {data_cache}");
        assert!(result.data_path.integrity.reads_checked > 1000);
        assert_eq!(result.data_path.data_cache.is_some(), data_cache);
    }
}

/// Random small writes, reads and deletes over 256 KiB (64 pages), sector-aligned.
fn churn(requests: u64) -> String {
    format!(
        "[workload.synthetic]\nrequests = {requests}\nread_fraction = 0.4\ndelete_fraction = 0.03\nspan_bytes = 1048576\nalignment_bytes = 512\naddress = {{ distribution = \"hot_cold\", hot_space_fraction = 0.2, hot_access_fraction = 0.8 }}\nsize = {{ distribution = \"uniform\", min_bytes = 512, max_bytes = 16384 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 30000.0 }}\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the CMT's size and translation page size, with or without the data cache in front,
    /// every read returns the latest write, translation pages hold no host data and every request
    /// completes.
    #[test]
    fn random_sequences_with_the_cmt_lose_nothing(
        seed in 0u64..1_000,
        entries in 1u64..48,
        per_page in 16u64..128,
        lines in proptest::option::weighted(0.4, 1u64..16),
    ) {
        let mut overrides = vec![
            format!("seed={seed}"),
            format!("device.mapping_cache.capacity_entries={entries}"),
            format!("device.mapping_cache.translation_entries_per_page={per_page}"),
        ];
        if let Some(lines) = lines {
            overrides.push(format!("device.data_cache={{capacity_bytes={}, access_latency_ns=26, bandwidth_mb_per_s=400, high_watermark_dirty_fraction=0.5, low_watermark_dirty_fraction=0.2}}", lines * 4096));
        }
        let overrides: Vec<&str> = overrides.iter().map(String::as_str).collect();
        let result = run(&tiny(&churn(1500), &overrides), &mut no_progress());
        let result = result.map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(result.requests_completed, 1500);
        prop_assert_eq!(result.data_path.integrity.mismatches, 0);
        let cmt = result.data_path.mapping_cache.unwrap();
        prop_assert!(cmt.entries_at_end <= entries);
        prop_assert!(cmt.dirty_entries_at_end <= cmt.entries_at_end);
    }
}
