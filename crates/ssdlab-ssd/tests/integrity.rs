//! The data-integrity oracle: every read returns the latest write, through GC, preconditioning,
//! aging, trace loops, middleware remapping, every GC and wear-leveling policy.

mod common;
use common::*;
use proptest::prelude::*;
use ssdlab_ssd::run;

const UNIFORM: &str = "{ distribution = \"uniform\" }";
const SMALL_WRITES: &str = "{ distribution = \"uniform\", min_bytes = 512, max_bytes = 20480 }";

#[test]
fn every_policy_combination_keeps_data() {
    for policy in ["greedy", "round_robin", "cost_benefit"] {
        for wear in ["round_robin", "least_worn"] {
            for allocation in ["static", "dynamic"] {
                for middleware in ["none", "permutation", "lba_scrambler"] {
                    let workload = synthetic(20_000, 0.4, 11 << 20, UNIFORM, SMALL_WRITES);
                    let config = small_config(
                        &workload,
                        &[
                            &format!("ftl.garbage_collection.policy={policy}"),
                            &format!("ftl.wear_leveling.policy={wear}"),
                            &format!("ftl.plane_allocation={allocation}"),
                            &format!("middleware.kind={middleware}"),
                            "workload.synthetic.alignment_bytes=512",
                        ],
                    );
                    let result = run(&config, &mut no_progress())
                        .unwrap_or_else(|e| panic!("{policy}/{wear}/{allocation}/{middleware}: {e}"));
                    assert_eq!(result.requests, 20_000);
                    assert_eq!(result.requests_completed, 20_000);
                    assert!(result.gc.pages_copied > 0, "GC must run on this small device");
                    assert!(result.data_path.integrity.reads_checked > 5_000);
                    assert!(result.data_path.read_modify_writes > 0, "unaligned small writes need read-modify-write");
                    assert!(result.write_amplification > 1.0);
                }
            }
        }
    }
}

#[test]
fn closed_loop_aging_and_loops_keep_data() {
    let workload = synthetic(
        5_000,
        0.5,
        11 << 20,
        "{ distribution = \"zipf\", exponent = 1.1 }",
        "{ distribution = \"fixed\", bytes = 8192 }",
    );
    let config = small_config(
        &workload,
        &[
            "host.mode=closed_loop",
            "host.queue_depth=8",
            "host.loops=3",
            "ftl.aging.pe_cycles=1000",
            "ftl.aging.spread_fraction=0.1",
        ],
    );
    let result = run(&config, &mut no_progress()).unwrap();
    assert_eq!(result.requests, 15_000);
    assert!(result.erase_count.min >= 900);
}

#[test]
fn real_trace_through_gc_keeps_data() {
    let Some(path) = shared_trace("msr-hm_0.sample.csv.gz") else { return };
    let workload = format!("[workload.trace]\npath = {:?}\n", path.display().to_string());
    // Device sized to the trace's footprint with 20 % free, so GC runs hard; the trace looped 3 times.
    let config = small_config(
        &workload,
        &["ftl.sizing=footprint", "ftl.footprint_free_fraction=0.2", "host.loops=3", "ftl.plane_allocation=dynamic"],
    );
    let result = run(&config, &mut no_progress()).unwrap();
    assert_eq!(result.requests, 3 * 7_016);
    assert!(result.gc.blocks_collected > 0);
    assert!(result.data_path.integrity.reads_checked > 0);
}

/// The three ways the replay reads a trace (the scan's records kept in memory, the text parsed on
/// a second thread, the text parsed by the replay itself) give the same run.
#[test]
fn how_the_trace_is_read_changes_no_result() {
    let Some(path) = shared_trace("msr-hm_0.sample.csv.gz") else { return };
    let workload = format!("[workload.trace]\npath = {:?}\n", path.display().to_string());
    let base = ["ftl.sizing=footprint", "ftl.footprint_free_fraction=0.2", "host.loops=3", "host.tiles=2"];
    let choices: [&[&str]; 3] = [
        &[],
        &["workload.trace.keep_records_bytes=0", "workload.trace.read_ahead=true"],
        &["workload.trace.keep_records_bytes=0", "workload.trace.read_ahead=false"],
    ];
    let results: Vec<_> = choices
        .iter()
        .map(|choice| {
            let overrides: Vec<&str> = base.iter().copied().chain(choice.iter().copied()).collect();
            run(&small_config(&workload, &overrides), &mut no_progress()).unwrap()
        })
        .collect();
    assert_eq!(results[0].requests, 3 * 2 * 7_016);
    assert!(results[0].workload.kept_records_bytes > 0, "the sample's records fit the default budget");
    assert_eq!(results[1].workload.kept_records_bytes, 0);
    // Every simulated figure alike (timing of the run itself and the reading memory aside).
    let simulated = |result: &ssdlab_ssd::RunResult| {
        let mut value = serde_json::to_value(result).unwrap();
        for field in [
            "wall_seconds",
            "replay_cpu_seconds",
            "requests_per_wall_second",
            "requests_per_cpu_second",
            "phases",
            "precondition",
        ] {
            value.as_object_mut().unwrap().remove(field);
        }
        value["workload"].as_object_mut().unwrap().remove("kept_records_bytes");
        value
    };
    assert_eq!(simulated(&results[0]), simulated(&results[1]));
    assert_eq!(simulated(&results[1]), simulated(&results[2]));
    assert_eq!(results[0].data_path.integrity.mismatches, 0);
}

#[test]
fn umass_trace_with_permutation_keeps_data() {
    let Some(path) = shared_trace("umass-financial1.ssdsim-ascii.first10k.txt.gz") else { return };
    let workload = format!("[workload.trace]\npath = {:?}\n", path.display().to_string());
    let config = small_config(
        &workload,
        &[
            "ftl.sizing=footprint",
            "ftl.footprint_free_fraction=0.25",
            "host.loops=2",
            "middleware.kind=permutation",
            "ftl.plane_allocation=dynamic",
        ],
    );
    let result = run(&config, &mut no_progress()).unwrap();
    assert_eq!(result.requests, 20_000);
    assert!(result.gc.pages_copied > 0);
}

#[test]
fn real_traces_through_the_lba_scrambler_keep_data() {
    for name in ["umass-financial1.ssdsim-ascii.first10k.txt.gz", "msr-hm_0.sample.csv.gz", "mqsim-tpcc-small.trace.gz"]
    {
        let Some(path) = shared_trace(name) else { return };
        let workload = format!("[workload.trace]\npath = {:?}\n", path.display().to_string());
        for free in ["0.2", "0.6"] {
            let config = small_config(
                &workload,
                &[
                    "ftl.sizing=footprint",
                    &format!("ftl.footprint_free_fraction={free}"),
                    "host.loops=3",
                    "host.tiles=2",
                    "middleware.kind=lba_scrambler",
                    "ftl.plane_allocation=dynamic",
                    "ftl.precondition.overwrite_passes=2",
                ],
            );
            let result = run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{name} at {free} free: {e}"));
            assert_eq!(result.requests_completed, result.requests);
            assert_eq!(result.workload.tiles, 2);
            assert!(result.data_path.integrity.reads_checked > 0, "{name}");
            assert!(result.gc.blocks_collected > 0, "{name} at {free} free: GC must run");
            let rules = result.data_path.middleware.expect("the scrambler reports its rules");
            assert_eq!(
                rules.rule1_empty_page_writes + rules.rule2_victim_page_writes + rules.rule3_other_page_writes,
                result.host_pages_written,
                "{name}: every host page write goes through one rule"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    #[test]
    fn random_operation_sequences_keep_data(
        seed in 0u64..1_000_000,
        read_fraction in 0.0f64..0.9,
        span_pages in 64u64..3_000,
        policy in prop_oneof![Just("greedy"), Just("round_robin"), Just("cost_benefit")],
        allocation in prop_oneof![Just("static"), Just("dynamic")],
        middleware in prop_oneof![Just("none"), Just("permutation"), Just("lba_scrambler")],
        plentiful in 0.2f64..1.0,
        victim_min in 1u32..8,
        gc_mode in prop_oneof![Just("foreground"), Just("stop_servicing_writes"), Just("preemptible"), Just("background")],
        hold_threshold in 1u32..=2,
        closed_loop in any::<bool>(),
    ) {
        let workload = synthetic(3_000, read_fraction, span_pages * 4096, UNIFORM, SMALL_WRITES);
        let config = small_config(&workload, &[
            &format!("seed={seed}"),
            &format!("ftl.garbage_collection.policy={policy}"),
            &format!("ftl.plane_allocation={allocation}"),
            "workload.synthetic.alignment_bytes=512",
            "ftl.precondition.overwrite_passes=0.5",
            &format!("middleware.kind={middleware}"),
            &format!("middleware.lba_scrambler.plentiful_free_fraction={plentiful}"),
            &format!("middleware.lba_scrambler.victim_min_fragmented_pages={victim_min}"),
            &format!("ftl.garbage_collection.mode=\"{gc_mode}\""),
            &format!("ftl.garbage_collection.write_hold_threshold_blocks={hold_threshold}"),
            if closed_loop { "host.mode=\"closed_loop\"" } else { "host.device_queue_depth=64" },
        ]);
        let result = run(&config, &mut no_progress());
        prop_assert!(result.is_ok(), "{:?}", result.err().map(|e| e.to_string()));
    }
}

/// Every GC mode keeps data while it holds writes: a write-heavy run on the small device (GC all
/// the time, low watermark 2) holds programs in every mode but `background`, and the oracle checks
/// every read and, at the end, every page.
#[test]
fn every_gc_mode_holds_writes_and_keeps_data() {
    let workload = synthetic(6_000, 0.3, 8 << 20, UNIFORM, SMALL_WRITES).replace("20000.0", "2000.0");
    for mode in ["foreground", "stop_servicing_writes", "preemptible", "background"] {
        let result = run(
            &small_config(
                &workload,
                &[&format!("ftl.garbage_collection.mode=\"{mode}\""), "workload.synthetic.alignment_bytes=512"],
            ),
            &mut no_progress(),
        )
        .unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(result.data_path.integrity.mismatches, 0, "{mode}");
        assert!(
            result.data_path.integrity.reads_checked > 1_000 && result.data_path.integrity.pages_checked_at_end > 500,
            "{mode}: {:?}",
            result.data_path.integrity
        );
        let held = result.gc.host_writes_held.as_ref().unwrap();
        assert_eq!(held.mode, mode);
        if mode == "background" {
            assert_eq!(held.programs_held, 0);
        } else {
            assert!(held.programs_held > 0 && held.wait_max_us > 0.0, "{mode}: {held:?}");
        }
    }
}

/// Queued dies keep data: every scheduling policy, with program and erase suspension, in two GC
/// modes, with a mapping-table cache (its translation reads and write-backs queue too), on the
/// small device with GC all the time; the oracle checks every read and, at the end, every page.
#[test]
fn every_scheduling_policy_with_suspension_keeps_data() {
    // Arrivals 2 ms apart: GC runs all the time, but the dies are not saturated, so reads find their
    // die programming or erasing with nothing ranked before them waiting, and suspend it.
    let workload = synthetic(6_000, 0.5, 8 << 20, UNIFORM, SMALL_WRITES).replace("20000.0", "2000000.0");
    for policy in ["fifo", "out_of_order", "priority_out_of_order", "flin"] {
        for mode in ["stop_servicing_writes", "preemptible"] {
            let result = run(
                &small_config(
                    &workload,
                    &[
                        &format!("ftl.garbage_collection.mode=\"{mode}\""),
                        &format!("scheduler.policy=\"{policy}\""),
                        "scheduler.suspension.operations=\"program_and_erase\"",
                        "scheduler.suspension.min_remaining_program_for_read_ns=1000",
                        "scheduler.suspension.min_remaining_erase_for_read_ns=1000",
                        "scheduler.suspension.suspend_program_ns=5000",
                        "scheduler.suspension.suspend_erase_ns=5000",
                        "device.mapping_cache.capacity_entries=256",
                        "workload.synthetic.alignment_bytes=512",
                    ],
                ),
                &mut no_progress(),
            )
            .unwrap_or_else(|e| panic!("{policy}/{mode}: {e}"));
            assert_eq!(result.requests_completed, 6_000, "{policy}/{mode}");
            assert_eq!(result.data_path.integrity.mismatches, 0, "{policy}/{mode}");
            assert!(result.data_path.integrity.reads_checked > 1_000, "{policy}/{mode}");
            assert!(result.gc.pages_copied > 0, "{policy}/{mode}: GC must run");
            let queued = result.scheduler.as_ref().expect("die queues");
            assert_eq!(queued.policy, policy);
            assert!(queued.program_suspensions + queued.erase_suspensions > 0, "{policy}/{mode}: {queued:?}");
            assert_eq!(queued.resumes, queued.program_suspensions + queued.erase_suspensions, "{policy}/{mode}");
        }
    }
}
