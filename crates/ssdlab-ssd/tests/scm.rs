//! Seed 001's SCM devices end to end: exact SCM sector timing, a read split between SCM and NAND,
//! eviction merged with the NAND copy, the All S-SCM SSD, config errors, the Financial1 sample with
//! the sector-granularity oracle, and random sequences (proptest) through eviction and wear leveling.

mod common;

use common::{config_of, no_progress, run_ok, shared_trace, trace_workload};
use proptest::prelude::*;
use ssdlab_ssd::{presets, run, SimulationConfig};

/// A tiny hybrid device: NAND 1 ch x 1 chip x 1 die x 2 planes x 32 blocks x 16 pages x 4 KiB
/// (8 sectors per page; lower page 40 us sense / 200 us program; 4096 B in 20.48 us at 200 MT/s);
/// SCM 1 bank, 100 ns read / 200 ns write per sector, 512 B in 512 ns at 1000 MT/s.
const TINY_HYBRID: &str = r#"
name = "tiny-hybrid"
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
[device.scm]
media = "test-scm"
capacity_fraction_of_nand = 0.25
banks = 1
read_latency_ns_per_sector = 100
write_latency_ns_per_sector = 200
memory_voltage_v = 1.8
active_current_ma = 10.0
channels = 1
channel = { transfer_rate_mts = 1000.0, bus_width_bits = 8, io_voltage_v = 1.2, pin_capacitance_pf = 5.0 }
[placement]
policy = "hybrid_scm"
[ftl]
overprovisioning_fraction = 0.25
[ftl.garbage_collection]
low_watermark_blocks = 2
high_watermark_blocks = 3
[verification]
integrity_oracle = true
"#;

fn tiny(workload: &str, overrides: &[&str]) -> SimulationConfig {
    config_of(TINY_HYBRID, workload, overrides)
}

#[test]
fn a_sector_write_and_read_take_transfer_plus_bank_time() {
    // One 512 B write (1 of 8 sectors: fragmented -> SCM), then a read of it on an idle device.
    let workload = trace_workload("one.csv", "time_us,op,offset,size\n0,W,512,512\n1000,R,512,512\n");
    let result = run_ok(&tiny(&workload, &["ftl.precondition.enabled=false"]));
    // Write: 512 ns over the channel, then 200 ns in the bank. Read: 100 ns in the bank, then 512 ns.
    assert!((result.write.latency_us.mean - 0.712).abs() < 1e-9, "{:?}", result.write.latency_us);
    assert!((result.read.latency_us.mean - 0.612).abs() < 1e-9, "{:?}", result.read.latency_us);
    let scm = result.data_path.scm.as_ref().expect("an SCM summary");
    assert_eq!((scm.operations.sectors_written, scm.operations.sectors_read), (1, 1));
    assert_eq!(scm.placement.fragmented_pieces, 1);
    assert_eq!(result.flash.page_programs, 0, "nothing reached the NAND");
    // I/O energy: 1,024 bytes x 8 bits x 5 pF x 1.2² V² = 58,982.4 pJ.
    assert!((scm.io_energy_uj - 1024.0 * 8.0 * 5.0 * 1.44 * 1e-6).abs() < 1e-12, "{}", scm.io_energy_uj);
    // Core energy: 300 ns of bank time x 1.8 V x 10 mA = 5.4 nJ.
    assert!((scm.core_energy_uj - 300.0 * 1.8 * 10.0 * 1e-6).abs() < 1e-12, "{}", scm.core_energy_uj);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    // One sector by the host read, one by the final sweep.
    assert_eq!((result.data_path.integrity.reads_checked, result.data_path.integrity.pages_checked_at_end), (2, 1));
}

#[test]
fn banks_write_in_parallel_after_one_transfer() {
    // Two sectors (fragmented): one transfer of 1,024 B (1,024 ns), then the banks: one bank writes
    // both (400 ns), two banks one each (200 ns).
    let workload = trace_workload("two.csv", "time_us,op,offset,size\n0,W,0,1024\n");
    let one = run_ok(&tiny(&workload, &["ftl.precondition.enabled=false"]));
    let two = run_ok(&tiny(&workload, &["ftl.precondition.enabled=false", "device.scm.banks=2"]));
    assert!((one.write.latency_us.mean - 1.424).abs() < 1e-9, "{:?}", one.write.latency_us);
    assert!((two.write.latency_us.mean - 1.224).abs() < 1e-9, "{:?}", two.write.latency_us);
}

#[test]
fn a_read_split_between_scm_and_nand_reads_both() {
    // A whole page (first write: neither hot nor fragmented) goes to NAND; rewriting its sector 0
    // (the page is in the LRU table now: hot) goes to SCM; a read of the page reads sector 0 from
    // SCM and the other seven from the NAND page, and ends when the slower part does.
    let workload = trace_workload("split.csv", "time_us,op,offset,size\n0,W,0,4096\n1000,W,0,512\n2000,R,0,4096\n");
    let result = run_ok(&tiny(&workload, &["ftl.precondition.enabled=false"]));
    let scm = result.data_path.scm.as_ref().unwrap();
    assert_eq!(scm.placement.pieces_to_nand, 1);
    assert_eq!((scm.placement.pieces_to_scm, scm.placement.hot_pieces), (1, 1));
    assert_eq!(scm.placement.split_reads, 1);
    assert_eq!((scm.placement.sectors_read_from_scm, scm.placement.sectors_read_from_nand), (1, 7));
    // NAND write: 20.48 us in + 200 us lower-page program; SCM write 0.712 us.
    assert!((result.write.latency_us.mean - (220.48 + 0.712) / 2.0).abs() < 0.01, "{:?}", result.write.latency_us);
    // Read: NAND 40 us sense + 20.48 us transfer; the SCM part (0.612 us) runs beside it.
    assert!((result.read.latency_us.mean - 60.48).abs() < 1e-6, "{:?}", result.read.latency_us);
    assert_eq!(result.flash.page_reads, 1);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert_eq!(
        result.data_path.integrity.reads_checked - result.data_path.integrity.pages_checked_at_end,
        8,
        "every sector of the read is checked"
    );
}

#[test]
fn a_partial_page_write_to_nand_merges_with_the_old_page() {
    // A page written whole to NAND twice far apart (the LRU table holds 1 entry, pushed out by
    // page 5 between), then 6 of its 8 sectors (not fragmented at the 0.5 threshold, not hot): the
    // old page is read first (read-modify-write) and the result holds all of its latest sectors.
    let workload = trace_workload(
        "merge.csv",
        "time_us,op,offset,size\n0,W,0,4096\n1000,W,20480,4096\n2000,W,0,3072\n3000,R,0,4096\n",
    );
    let result =
        run_ok(&tiny(&workload, &["ftl.precondition.enabled=false", "placement.hybrid_scm.hot_table_entries=1"]));
    let scm = result.data_path.scm.as_ref().unwrap();
    assert_eq!(scm.placement.pieces_to_nand, 3);
    assert_eq!(scm.placement.merge_reads, 1);
    assert_eq!(result.data_path.read_modify_writes, 1);
    assert_eq!(result.flash.page_reads, 2, "the merge read and the host read");
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert_eq!(result.data_path.integrity.reads_checked - result.data_path.integrity.pages_checked_at_end, 8);
}

/// Random small writes over a span larger than the SCM, with reads and deletes.
fn churn(requests: u64, span_bytes: u64, seed: u64) -> String {
    format!(
        "[workload.synthetic]\nrequests = {requests}\nread_fraction = 0.3\ndelete_fraction = 0.02\nspan_bytes = {span_bytes}\nalignment_bytes = 512\naddress = {{ distribution = \"hot_cold\", hot_space_fraction = 0.2, hot_access_fraction = 0.8 }}\nsize = {{ distribution = \"uniform\", min_bytes = 512, max_bytes = 12288 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 30000.0 }}\n# seed {seed}\n"
    )
}

#[test]
fn eviction_merges_scm_data_into_full_nand_pages_and_loses_nothing() {
    // SCM of 5 % of the NAND (about 80 sectors... 10 pages' worth) under 6,000 small writes over 1.5 MiB.
    let config = tiny(
        &churn(6000, 3 << 19, 1),
        &[
            "device.scm.capacity_fraction_of_nand=0.05",
            "placement.hybrid_scm.hot_table_entries=64",
            "placement.hybrid_scm.evict_below_free_fraction=0.05",
            "placement.hybrid_scm.evict_to_free_fraction=0.2",
        ],
    );
    let result = run_ok(&config);
    let scm = result.data_path.scm.as_ref().unwrap();
    assert!(scm.placement.pages_evicted > 100, "{:?}", scm.placement);
    assert!(scm.placement.merge_reads > 0 && scm.placement.sectors_evicted >= scm.placement.pages_evicted);
    assert!(scm.placement.split_reads > 0, "{:?}", scm.placement);
    assert!(scm.operations.sectors_read >= scm.placement.sectors_evicted, "evicted sectors are read from SCM");
    assert!(result.gc.invocations > 0, "the NAND collects garbage meanwhile");
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert!(
        result.data_path.integrity.reads_checked > 10_000 && result.data_path.integrity.pages_checked_at_end > 1000
    );
    assert_eq!(result.requests_completed, 6000);
}

#[test]
fn dynamic_wear_leveling_spreads_rewrites_of_hot_sectors() {
    // Rewrites of a few hot sectors: without wear leveling (a huge threshold) their slots take every
    // write; with a threshold of 4 the writes spread over the free slots.
    let workload = "[workload.synthetic]\nrequests = 4000\nread_fraction = 0.0\nspan_bytes = 4096\nalignment_bytes = 512\naddress = { distribution = \"uniform\" }\nsize = { distribution = \"fixed\", bytes = 512 }\narrival = { process = \"poisson\", mean_interarrival_ns = 30000.0 }\n";
    let off = run_ok(&tiny(workload, &["placement.hybrid_scm.wear_leveling_threshold_writes=1000000"]));
    let on = run_ok(&tiny(workload, &["placement.hybrid_scm.wear_leveling_threshold_writes=4"]));
    let (off, on) = (off.data_path.scm.unwrap(), on.data_path.scm.unwrap());
    assert_eq!(off.wear_leveling_moves, 0);
    assert!(on.wear_leveling_moves > 100, "{}", on.wear_leveling_moves);
    assert!(off.max_writes_per_sector > 300, "{}", off.max_writes_per_sector);
    assert!(on.max_writes_per_sector < 20, "{} vs {}", on.max_writes_per_sector, off.max_writes_per_sector);
}

#[test]
fn the_all_sscm_ssd_keeps_every_sector_in_scm() {
    let config = tiny(&churn(4000, 1 << 20, 2), &["placement.policy=\"scm_only\""]);
    let result = run_ok(&config);
    let scm = result.data_path.scm.as_ref().unwrap();
    assert_eq!(scm.role, "only");
    assert_eq!(scm.placement.pieces_to_nand, 0);
    assert_eq!(result.flash.page_programs + result.flash.page_reads, 0, "the NAND holds nothing");
    assert_eq!(result.energy_uj.idle_uj, 0.0, "no NAND to idle");
    assert!(scm.capacity_bytes >= result.device.logical_capacity_bytes);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert!(result.data_path.integrity.reads_checked > 1000);
    // Slower S-SCM writes: the same workload takes longer per write.
    let slow = run_ok(&tiny(
        &churn(4000, 1 << 20, 2),
        &["placement.policy=\"scm_only\"", "device.scm.write_latency_ns_per_sector=2000"],
    ));
    assert!(slow.write.latency_us.mean > result.write.latency_us.mean * 2.0);
    // With pins that toggle for the whole run, only the SCM's channel toggles: an SSD without NAND
    // has no NAND channels (the hybrid with the same setting has both).
    let continuous = [
        "device.channel.pin_toggling=\"continuous\"",
        "device.channel.io_voltage_v=1.8",
        "device.channel.pin_capacitance_pf=8.0",
        "device.scm.channel.pin_toggling=\"continuous\"",
    ];
    let only = run_ok(&tiny(&churn(4000, 1 << 20, 2), &[&["placement.policy=\"scm_only\""], &continuous[..]].concat()));
    assert_eq!(only.energy_uj.io_uj, 0.0, "no NAND pins");
    assert!(only.data_path.scm.as_ref().unwrap().io_power_w > 0.0);
    let hybrid = run_ok(&tiny(&churn(4000, 1 << 20, 2), &continuous));
    assert!(hybrid.energy_uj.io_uj > 0.0, "the hybrid's NAND pins toggle all run");
}

#[test]
fn scm_config_errors_name_the_field() {
    let error = |overrides: &[&str]| {
        let text = format!("{TINY_HYBRID}\n{}", churn(10, 1 << 20, 0));
        let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        SimulationConfig::from_toml_str(&text, "test", &overrides).expect_err("invalid").to_string()
    };
    assert!(error(&["device.scm.banks=0"]).contains("device.scm.banks"));
    assert!(error(&["device.scm.channels=2"]).contains("device.scm.channels"));
    assert!(error(&["device.scm.capacity_fraction_of_nand=0"]).contains("capacity_fraction_of_nand"));
    assert!(error(&["placement.hybrid_scm.evict_to_free_fraction=0.001"])
        .contains("placement.hybrid_scm.evict_to_free_fraction"));
    assert!(error(&["placement.policy=\"single\""]).contains("placement.policy"));
    assert!(error(&["middleware.kind=\"permutation\""]).contains("middleware.kind"));
    assert!(error(&["output.write_heat=true"]).contains("output.write_heat"));
    let message = error(&["device.geometry.page_size_bytes=65536", "ftl.overprovisioning_fraction=0.4"]);
    assert!(message.contains("page_size_bytes") && message.contains("64 of them"), "{message}");
    let (before, after) = TINY_HYBRID.split_once("[device.scm]").unwrap();
    let no_scm = before.to_string() + &after[after.find("[placement]").unwrap()..] + &churn(10, 1 << 20, 0);
    let message = SimulationConfig::from_toml_str(&no_scm, "test", &[]).expect_err("no SCM").to_string();
    assert!(message.contains("device.scm"), "{message}");
}

#[test]
fn the_presets_run_and_the_hybrid_one_sends_data_both_ways() {
    let load = |name: &str| {
        presets::load(
            name,
            &["workload.synthetic.requests=8000".to_string(), "verification.integrity_oracle=true".to_string()],
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let hybrid = run_ok(&load("seed001-hybrid-scm"));
    let scm = hybrid.data_path.scm.as_ref().unwrap();
    assert!(scm.placement.pieces_to_scm > 0 && scm.placement.pieces_to_nand > 0, "{:?}", scm.placement);
    assert!(scm.placement.hot_pieces > 0 && scm.placement.fragmented_pieces > 0);
    assert_eq!(hybrid.data_path.integrity.mismatches, 0);
    let all = run_ok(&load("seed001-all-sscm"));
    assert_eq!(all.data_path.scm.as_ref().unwrap().role, "only");
    assert_eq!(all.data_path.integrity.mismatches, 0);
    // The seed's comparison, in its direction: All S-SCM writes faster than the hybrid.
    assert!(all.write.latency_us.mean < hybrid.write.latency_us.mean);
}

#[test]
fn the_financial1_sample_on_the_hybrid_returns_every_latest_sector() {
    let Some(path) = shared_trace("umass-financial1.ssdsim-ascii.first10k.txt.gz") else { return };
    let overrides = vec![
        format!("workload.trace.path=\"{}\"", path.display()),
        "workload.trace.format=\"mqsim\"".to_string(),
        "verification.integrity_oracle=true".to_string(),
        // A small SCM, so that eviction runs on the sample.
        "device.scm.capacity_fraction_of_nand=0.005".to_string(),
        "host.loops=2".to_string(),
    ];
    let config = presets::load("seed001-hybrid-scm", &overrides).unwrap_or_else(|e| panic!("{e}"));
    let result = run_ok(&config);
    let scm = result.data_path.scm.as_ref().unwrap();
    assert_eq!(result.requests_completed, 20_000);
    assert!(scm.placement.pages_evicted > 0 && scm.placement.fragmented_pieces > 0, "{:?}", scm.placement);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert!(result.data_path.integrity.reads_checked > 10_000);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    /// Random sequences on the tiny hybrid (sizes, reads, deletes, SCM size, LRU table size, fragment
    /// threshold, wear-leveling threshold, banks, All S-SCM or hybrid): every request completes, the
    /// oracle finds every sector read and, at the end, every sector holding its latest write.
    #[test]
    fn random_sequences_keep_every_latest_sector(
        seed in 0u64..1_000_000,
        span_pages in 16u64..400,
        scm_fraction in 0.02f64..0.3,
        hot_entries in 1u32..200,
        fragment_fraction in 0.1f64..1.0,
        wear_threshold in 1u32..50,
        banks in 1u32..4,
        only in any::<bool>(),
        closed in any::<bool>(),
    ) {
        let text = format!("{TINY_HYBRID}\n{}", churn(1500, span_pages * 4096, seed));
        let mut overrides = vec![
            format!("seed={seed}"),
            format!("device.scm.capacity_fraction_of_nand={scm_fraction}"),
            format!("placement.hybrid_scm.hot_table_entries={hot_entries}"),
            format!("placement.hybrid_scm.fragment_fraction={fragment_fraction}"),
            format!("placement.hybrid_scm.wear_leveling_threshold_writes={wear_threshold}"),
            format!("device.scm.banks={banks}"),
        ];
        if only {
            overrides.push("placement.policy=\"scm_only\"".into());
        }
        if closed {
            overrides.push("host.mode=\"closed_loop\"".into());
        }
        let config = SimulationConfig::from_toml_str(&text, "proptest", &overrides).unwrap();
        let result = run(&config, &mut no_progress()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(result.requests_completed, 1500);
        prop_assert_eq!(result.data_path.integrity.mismatches, 0);
    }
}

#[test]
fn a_wear_triggered_event_fires_on_a_hybrid_device() {
    // Whole-page writes of cold pages (a one-entry hot table) go to the NAND, whose GC wears chip 0 to the trigger: the SCM stage checks
    // wear events after each write's GC as the NAND path does.
    let workload = format!(
        "[workload.synthetic]\nrequests = 6000\nread_fraction = 0.1\nspan_bytes = {}\naddress = {{ distribution = \"uniform\" }}\nsize = {{ distribution = \"fixed\", bytes = 4096 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 50000.0 }}\n",
        300 * 4096
    );
    let result = run_ok(&tiny(
        &workload,
        &[
            "ftl.precondition.enabled=false",
            "device.geometry.chips_per_channel=2",
            "placement.hybrid_scm.hot_table_entries=1",
            "events=[{at_erase_count=1.5, action=\"retire_chip\", chip=0}]",
        ],
    ));
    let event = &result.events[0];
    let fired = event.fired_at_ns.expect("chip 0 reaches 1.5 erases per block on average");
    assert!(event.emptied_at_ns.is_some_and(|at| at >= fired), "{event:?}");
    assert!(result.data_path.integrity.reads_checked > 0);
}

#[test]
fn identical_runs_on_a_hybrid_device_give_identical_results_memory_included() {
    // Issue 48 item 17: the model's memory (`model_memory_bytes`) counts hash-table capacities, which
    // must not depend on per-process hash keys.
    let config = presets::load("seed001-hybrid-scm", &["workload.synthetic.requests=20000".to_string()])
        .unwrap_or_else(|e| panic!("{e}"));
    let first = run_ok(&config);
    let second = run_ok(&config);
    assert_eq!(first.data_path.model_memory_bytes, second.data_path.model_memory_bytes);
    let comparable = |result: &ssdlab_ssd::RunResult| {
        let mut value = serde_json::to_value(result).expect("a result serialises");
        // Host-measured times are the only parts that may differ.
        for volatile in
            ["wall_seconds", "replay_cpu_seconds", "requests_per_wall_second", "requests_per_cpu_second", "phases"]
        {
            value.as_object_mut().map(|object| object.remove(volatile));
        }
        value["precondition"].as_object_mut().map(|object| object.remove("wall_seconds"));
        value
    };
    assert_eq!(comparable(&first), comparable(&second));
}
