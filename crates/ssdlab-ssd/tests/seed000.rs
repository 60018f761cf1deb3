//! Seed 000 (AOA-ECC) end to end on its preset: the decoder switch happens at the P/E count the
//! ECC lab's tables give, preconditioned data carries its age into the read path, the online class
//! follows the workload, and every read returns the latest write under both policies.

mod common;

use common::no_progress;
use ssdlab_ssd::{presets, run, RunResult, SimulationConfig};

fn seed000(overrides: &[&str]) -> SimulationConfig {
    let mut all: Vec<String> = vec!["workload.synthetic.requests=40000".into()];
    all.extend(overrides.iter().map(|s| s.to_string()));
    presets::load("seed000-aoa", &all).unwrap_or_else(|e| panic!("{e}"))
}

fn first_choice(result: &RunResult, decoder: &str) -> u64 {
    let read_path = result.data_path.read_path.as_ref().expect("seed 000's policies report their decoders");
    read_path.decoders.iter().find(|d| d.decoder == decoder).map_or(0, |d| d.first_choice_reads)
}

#[test]
fn aoa_ecc_switches_from_quick_to_ep_ldpc_at_the_computed_pe() {
    // The hot class's switch points per chip class, as the preset's tables give them.
    let probe = run(
        &seed000(&["read_path.workload_class.mode=\"hot_read_dominant\"", "ftl.aging.pe_cycles=0"]),
        &mut no_progress(),
    )
    .expect("runs");
    let switches =
        probe.data_path.read_path.as_ref().and_then(|r| r.switch_pe_cycles.clone()).expect("switch points reported");
    let hot: Vec<f64> = switches.hot.iter().map(|s| s.expect("within the tables")).collect();
    let (lowest, highest) =
        (hot.iter().cloned().fold(f64::INFINITY, f64::min), hot.iter().cloned().fold(0.0, f64::max));
    // Seed 000's chip: prxy_1 (hot) switches near 2,000 P/E, inside the tables' 0-3,000 grid.
    assert!(lowest > 1_000.0 && highest <= 3_000.0, "{hot:?}");
    // Below every switch point every read starts with Quick-LDPC; at or above all of them, EP-LDPC.
    let below = run(
        &seed000(&[
            "read_path.workload_class.mode=\"hot_read_dominant\"",
            &format!("ftl.aging.pe_cycles={}", lowest.floor() as u64 - 1),
        ]),
        &mut no_progress(),
    )
    .expect("runs");
    assert!(first_choice(&below, "quick_ldpc") > 20_000);
    assert_eq!(first_choice(&below, "ep_ldpc"), 0);
    let above = run(
        &seed000(&[
            "read_path.workload_class.mode=\"hot_read_dominant\"",
            &format!("ftl.aging.pe_cycles={}", highest.ceil() as u64),
        ]),
        &mut no_progress(),
    )
    .expect("runs");
    assert_eq!(first_choice(&above, "quick_ldpc"), 0);
    assert!(first_choice(&above, "ep_ldpc") > 20_000);
    // Cold data is older: its switch points are lower (seed 000: hot switches at 2.3x the P/E of cold).
    for (hot, cold) in switches.hot.iter().zip(&switches.cold) {
        assert!(cold.expect("within the tables") < hot.expect("within the tables"));
    }
}

#[test]
fn preconditioned_data_reads_as_old_as_it_was_made() {
    // The adaptive conventional policy decides per read by data age: at 1,250 P/E BCH is reliable
    // for data an hour old and not for data 144 h old (the preset's tables), so the age given by
    // preconditioning decides which decoder the reads of untouched data start with.
    let adaptive = |hours: &str| {
        let mut config = seed000(&[
            "read_path.strategy=\"conventional\"",
            "ftl.aging.pe_cycles=1250",
            &format!("ftl.precondition.data_age_hours={hours}"),
            "ftl.precondition.data_age_distribution=\"fixed\"",
        ]);
        config.read_path.conventional_switch = ssdlab_ssd::config::ConventionalSwitch::DataAge;
        run(&config, &mut no_progress()).expect("runs")
    };
    let (young, old) = (adaptive("1.0"), adaptive("144.0"));
    // 90 % of reads go to the hot tenth of the space, which the run rewrites (young data either
    // way); the rest read what preconditioning left.
    let reads = young.read.count as f64;
    assert!((first_choice(&young, "ldpc_soft") as f64) < 0.01 * reads, "{:?}", young.data_path.read_path);
    assert!((first_choice(&old, "ldpc_soft") as f64) > 0.08 * reads, "{:?}", old.data_path.read_path);
    assert!(young.read.latency_us.mean < old.read.latency_us.mean);
}

#[test]
fn the_stand_in_is_hot_and_read_dominant_and_the_class_is_reported_over_time() {
    // 200,000 requests: 2.3 days of the workload's time, several steps of the sliding week.
    let result = run(&seed000(&["workload.synthetic.requests=200000"]), &mut no_progress()).expect("runs");
    let class = result.data_path.workload_class.as_ref().expect("reported");
    assert_eq!(class.mode, "online");
    assert_eq!(format!("{:?}", class.final_class), "HotReadDominant");
    assert!(class.changes.len() >= 2, "starts cold (safe), then measured: {:?}", class.changes);
    let last = class.changes.last().expect("a change");
    assert!(last.writes_per_week >= 7.0 && last.read_share > 0.5, "{last:?}");
}

#[test]
fn every_read_returns_the_latest_write_under_both_policies() {
    for strategy in ["aoa_ecc", "conventional"] {
        let result = run(
            &seed000(&[
                &format!("read_path.strategy=\"{strategy}\""),
                "verification.integrity_oracle=true",
                "ftl.aging.pe_cycles=16000",
            ]),
            &mut no_progress(),
        )
        .expect("runs");
        assert!(result.data_path.integrity.enabled && result.data_path.integrity.reads_checked > 20_000, "{strategy}");
        assert_eq!(result.data_path.integrity.mismatches, 0, "{strategy}");
        // Reads that every allowed decoder fails are counted, not dropped: every request completes.
        assert_eq!(result.requests_completed, result.requests, "{strategy}");
    }
}

#[test]
fn bad_seed000_settings_name_their_field() {
    let cases: &[(&[&str], &str)] = &[
        (&["read_path.retention_time_scale=0.0"], "read_path.retention_time_scale"),
        (&["read_path.target_failure_probability=1.5"], "read_path.target_failure_probability"),
        (&["read_path.decoder_tables.pe_cycles=[0.0]"], "read_path.decoder_tables.failure_probabilities.bch[0]"),
        (
            &["read_path.decoder_tables.retention_hours=[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]"],
            "read_path.decoder_tables.retention_hours",
        ),
        (
            &["read_path.decoder_tables.failure_probabilities.turbo=[[[0.5]]]"],
            "read_path.decoder_tables.failure_probabilities.turbo",
        ),
        (
            &["read_path.decoder_tables.failure_probability_upper_bounds.bch=[[[0.5]]]"],
            "read_path.decoder_tables.failure_probability_upper_bounds.bch",
        ),
        (&["read_path.aoa_ecc.decision_rule=\"by_mood\""], "read_path.aoa_ecc.decision_rule"),
        (&["read_path.decoders.ep_ldpc.transfer_pages=0"], "read_path.decoders.ep_ldpc.transfer_pages"),
        (
            &["read_path.decoders.ep_ldpc.sensing_latency_ns=[1, 2, 3, 4]"],
            "read_path.decoders.ep_ldpc.sensing_latency_ns",
        ),
        (&["read_path.decoders.ep_ldpc.gates=1000"], "read_path.decoders.ep_ldpc.gates"),
        (&["read_path.aoa_ecc.hot_retention_hours=-1.0"], "read_path.aoa_ecc.hot_retention_hours"),
        (&["read_path.workload_class.window_steps=0"], "read_path.workload_class.window_steps"),
        (&["read_path.conventional_retention_hours=0.0"], "read_path.conventional_retention_hours"),
        (&["ftl.precondition.data_age_hours=500.0"], "ftl.precondition.data_age_hours"),
        (
            &["read_path.strategy=\"conventional\"", "read_path.decoder_tables.failure_probabilities={}"],
            "read_path.decoder_tables.failure_probabilities",
        ),
    ];
    for (overrides, field) in cases {
        let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        let outcome = presets::load("seed000-aoa", &overrides)
            .map_err(|e| e.to_string())
            .and_then(|config| ssdlab_ssd::Simulation::new(&config).map(|_| ()).map_err(|e| e.to_string()));
        let message = outcome.expect_err(field);
        assert!(message.contains(field), "{overrides:?}: expected {field} in: {message}");
    }
}

#[test]
fn a_bch_read_and_a_quick_ldpc_read_differ_by_their_decode_times_only() {
    // Issue 46 item 1: BCH has its own decode time (11.264 us) beside the LDPC decoder's 8 us. On a
    // fresh drive the conventional controller reads with BCH and AOA-ECC (hot, read-dominant) with
    // Quick-LDPC; both sense one page (40 us lower) and move it over the 400 MB/s bus (10.24 us).
    let dir = std::env::temp_dir().join(format!("ssdlab-seed000-bch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("lone.csv");
    std::fs::write(&trace, "time_us,op,offset,size\n0,W,0,4096\n100000,R,0,4096\n").unwrap();
    let lone = |strategy: &str| {
        let config = presets::load(
            "seed000-aoa",
            &[
                format!("workload.trace.path={:?}", trace.display().to_string()),
                "ftl.precondition.enabled=false".into(),
                "ftl.aging.pe_cycles=0".into(),
                "host.queue_depth=1".into(),
                "read_path.workload_class.mode=\"hot_read_dominant\"".into(),
                format!("read_path.strategy=\"{strategy}\""),
            ],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        run(&config, &mut no_progress()).expect("runs")
    };
    let (bch, quick) = (lone("conventional"), lone("aoa_ecc"));
    assert_eq!(first_choice(&bch, "bch"), 1);
    assert_eq!(first_choice(&quick, "quick_ldpc"), 1);
    assert!((bch.read.latency_us.mean - (40.0 + 10.24 + 11.264)).abs() < 0.005, "{}", bch.read.latency_us.mean);
    assert!((quick.read.latency_us.mean - (40.0 + 10.24 + 8.0)).abs() < 0.005, "{}", quick.read.latency_us.mean);
}
