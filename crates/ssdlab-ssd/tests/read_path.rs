//! Seed 002's read strategies: exact timing of each plan on an idle device, the decoding outcomes
//! they sample, and the errors of a bad decoding table.

mod common;
use common::*;
use ssdlab_ssd::{run, SimulationError};

const LONE_READ: &str = "time_us,op,offset,size\n0,W,0,4096\n100000,R,0,4096\n";

fn lone_read(overrides: &[&str]) -> ssdlab_ssd::RunResult {
    let workload = trace_workload("lone.csv", LONE_READ);
    let mut all = vec!["ftl.precondition.enabled=false", "read_path.decode_latency_ns=8000"];
    all.extend_from_slice(overrides);
    run(&small_config(&workload, &all), &mut no_progress()).unwrap()
}

// Page 0 is a lower page: 40 us hard sense, 20.48 us per page over the bus, 8 us decode, 14 us per
// extra sensing level.
const HARD_US: f64 = 40.0 + 20.48 + 8.0;

#[test]
fn two_step_after_a_hard_failure_senses_moves_and_decodes_every_level() {
    let result = lone_read(&[
        "read_path.strategy=\"two_step\"",
        "read_path.decoding.failure_probabilities=[[1.0, 0, 0, 0, 0, 0, 0]]",
    ]);
    let expected = HARD_US + 6.0 * 14.0 + 6.0 * 20.48 + 8.0;
    assert!((result.read.latency_us.mean - expected).abs() < 0.05, "{} vs {expected}", result.read.latency_us.mean);
    let statistics = result.data_path.read_path.expect("two_step reports its outcomes");
    assert_eq!((statistics.sampled_reads, statistics.hard_decision_failures), (1, 1));
    assert_eq!(statistics.reads_needing_levels[1], 1);
}

#[test]
fn look_ahead_starts_soft_sensing_when_hard_sensing_ends() {
    let failing = lone_read(&[
        "read_path.strategy=\"two_step\"",
        "read_path.look_ahead=true",
        "read_path.decoding.failure_probabilities=[[1.0, 0, 0, 0, 0, 0, 0]]",
    ]);
    // Soft sensing from 40 us to 124 us, then six pages over the bus and the decode.
    let expected = 40.0 + 6.0 * 14.0 + 6.0 * 20.48 + 8.0;
    assert!((failing.read.latency_us.mean - expected).abs() < 0.05, "{} vs {expected}", failing.read.latency_us.mean);
    // Hard decoding succeeds: the read costs a plain read; the look-ahead sensing held the die for
    // the hard transfer and decode (28.48 us) and was cancelled.
    let passing = lone_read(&[
        "read_path.strategy=\"two_step\"",
        "read_path.look_ahead=true",
        "read_path.decoding.failure_probabilities=[[0.0, 0, 0, 0, 0, 0, 0]]",
    ]);
    assert!((passing.read.latency_us.mean - HARD_US).abs() < 0.05, "{}", passing.read.latency_us.mean);
    assert_eq!(passing.flash.cancelled_sensing_ns, 28_480);
    assert_eq!(passing.data_path.read_path.as_ref().map(|s| s.look_ahead_cancelled), Some(1));
    assert!(passing.energy_uj.extra_sensing_uj == 0.0, "no energy model in the small config");
}

#[test]
fn progressive_adds_one_level_per_retry_until_decoding_succeeds() {
    let result = lone_read(&[
        "read_path.strategy=\"progressive\"",
        "read_path.decoding.failure_probabilities=[[1.0, 1.0, 0, 0, 0, 0, 0]]",
    ]);
    let expected = HARD_US + 2.0 * (14.0 + 20.48 + 8.0);
    assert!((result.read.latency_us.mean - expected).abs() < 0.05, "{} vs {expected}", result.read.latency_us.mean);
    assert_eq!(result.flash.extra_sensing_levels, 2);
    assert_eq!(result.flash.decodes, 3);
}

#[test]
fn reads_that_fail_every_level_are_counted_not_lost() {
    let result = lone_read(&[
        "read_path.strategy=\"progressive\"",
        "read_path.decoding.failure_probabilities=[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]",
    ]);
    assert_eq!(result.requests_completed, 2);
    let statistics = result.data_path.read_path.unwrap();
    assert_eq!(statistics.uncorrectable_reads, 1);
    assert_eq!(result.flash.extra_sensing_levels, 6);
}

#[test]
fn strategies_rank_as_seed_002_says_on_a_busy_device() {
    // Busy, not saturated (dies about 30 % busy, reads queue behind 0.2-1.2 ms programs). Near
    // saturation (one request per 60 us: dies 70-78 % busy) look-ahead's held dies cost as much as
    // it saves (1636 vs 1635 us mean read), and beyond it no die is ever idle, so look-ahead is
    // never started.
    let workload =
        synthetic(20_000, 0.9, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }")
            .replace("20000.0", "150000.0");
    let table = "read_path.decoding.failure_probabilities=[[0.3, 0.01, 0.001, 0, 0, 0, 0]]";
    let mean = |strategy: &str, look_ahead: bool| {
        let overrides = [
            format!("read_path.strategy=\"{strategy}\""),
            format!("read_path.look_ahead={look_ahead}"),
            table.to_string(),
            "read_path.decode_latency_ns=8000".to_string(),
        ];
        let overrides: Vec<&str> = overrides.iter().map(String::as_str).collect();
        let overrides = if strategy == "hard_decision" { &overrides[..1] } else { &overrides[..] };
        run(&small_config(&workload, overrides), &mut no_progress()).unwrap().read.latency_us.mean
    };
    let (hard, baseline, look_ahead, progressive, both) = (
        mean("hard_decision", false),
        mean("two_step", false),
        mean("two_step", true),
        mean("progressive", false),
        mean("progressive", true),
    );
    assert!(baseline > 1.1 * hard, "baseline {baseline} vs hard-only {hard}");
    assert!(
        look_ahead < baseline && progressive < baseline && both < progressive,
        "{baseline} {look_ahead} {progressive} {both}"
    );
    assert!(both > hard, "{both} vs {hard}");
}

#[test]
fn decoding_probabilities_that_never_fail_cost_nothing() {
    let workload =
        synthetic(5_000, 0.7, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    let plain = run(&small_config(&workload, &[]), &mut no_progress()).unwrap();
    let never = run(
        &small_config(
            &workload,
            &["read_path.strategy=\"two_step\"", "read_path.decoding.failure_probabilities=[[0, 0, 0, 0, 0, 0, 0]]"],
        ),
        &mut no_progress(),
    )
    .unwrap();
    assert_eq!(plain.read.latency_us.mean, never.read.latency_us.mean);
    assert_eq!(plain.flash.page_reads, never.flash.page_reads);
}

#[test]
fn a_bad_decoding_table_names_its_field() {
    let workload = trace_workload("lone.csv", LONE_READ);
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "read_path.strategy=\"two_step\"",
                "read_path.decoding.failure_probabilities=[[0, 0, 0, 0, 0, 0, 0]]",
                "read_path.decoding.chip_rows=[0, 1]",
            ],
            "chip_rows",
        ),
        (
            &[
                "read_path.strategy=\"two_step\"",
                "read_path.decoding.failure_probabilities=[[0.1, 0.2, 0, 0, 0, 0, 0]]",
            ],
            "failure_probabilities[0]",
        ),
        (
            &[
                "read_path.strategy=\"two_step\"",
                "read_path.decoding.failure_probabilities=[[0, 0, 0, 0, 0, 0, 0], [0.5, 0.1]]",
            ],
            "failure_probabilities[1]",
        ),
        (
            &["read_path.strategy=\"two_step\"", "read_path.decoding.failure_probabilities=[[1.5, 0, 0, 0, 0, 0, 0]]"],
            "failure_probabilities[0]",
        ),
        (&["read_path.look_ahead=true"], "read_path.look_ahead"),
    ];
    for (overrides, field) in cases {
        let error = small_config_result(&workload, overrides)
            .and_then(|config| run(&config, &mut no_progress()).map(|_| ()))
            .unwrap_err();
        assert!(matches!(error, SimulationError::Config(_)), "{error}");
        assert!(error.to_string().contains(field), "{error} should name {field}");
    }
}

#[test]
fn worn_blocks_fail_more_often_than_fresh_ones() {
    let workload =
        synthetic(6_000, 0.9, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    let hard_failures = |aging: u32| {
        let aging = format!("ftl.aging.pe_cycles={aging}");
        let overrides = [
            "read_path.strategy=\"two_step\"",
            "read_path.decoding.pe_cycles=[0, 10000]",
            "read_path.decoding.failure_probabilities_by_pe=[[[0, 0, 0, 0, 0, 0, 0]], [[1.0, 0, 0, 0, 0, 0, 0]]]",
            "ftl.aging.spread_fraction=0.0",
            aging.as_str(),
        ];
        let result = run(&small_config(&workload, &overrides), &mut no_progress()).unwrap();
        let statistics = result.data_path.read_path.unwrap();
        statistics.hard_decision_failures as f64 / statistics.sampled_reads as f64
    };
    assert_eq!(hard_failures(0), 0.0);
    let half = hard_failures(5_000);
    assert!((half - 0.5).abs() < 0.05, "{half}");
    assert_eq!(hard_failures(20_000), 1.0);
}

#[test]
fn a_bad_wear_table_names_its_field() {
    let workload = trace_workload("lone.csv", LONE_READ);
    let zeros = "[0, 0, 0, 0, 0, 0, 0]";
    let both = format!("read_path.decoding.failure_probabilities=[{zeros}]");
    let two = format!("read_path.decoding.failure_probabilities_by_pe=[[{zeros}], [{zeros}]]");
    let one = format!("read_path.decoding.failure_probabilities_by_pe=[[{zeros}]]");
    let cases: [(Vec<&str>, &str); 3] = [
        (vec!["read_path.decoding.pe_cycles=[0, 1000]", &one], "failure_probabilities_by_pe"),
        (vec!["read_path.decoding.pe_cycles=[1000, 0]", &two], "read_path.decoding.pe_cycles"),
        (vec!["read_path.decoding.pe_cycles=[0, 1000]", &two, &both], "read_path.decoding.failure_probabilities"),
    ];
    for (overrides, field) in cases {
        let mut all = vec!["read_path.strategy=\"two_step\""];
        all.extend(overrides);
        let error = small_config_result(&workload, &all)
            .and_then(|config| run(&config, &mut no_progress()).map(|_| ()))
            .unwrap_err();
        assert!(error.to_string().contains(field), "{error} should name {field}");
    }
}

#[test]
fn interleaved_codewords_sense_every_chip_of_their_group_and_pad_writes() {
    // SMALL_DEVICE: 2 channels x 2 chips; chip classes 0/1 paired: each chip's partner is the
    // other chip on its channel. A lone read costs the same (the partner senses in parallel)...
    let plain = lone_read(&["read_path.strategy=\"two_step\""]);
    let paired = lone_read(&["read_path.strategy=\"two_step\"", "read_path.interleave_groups=[[0, 1]]"]);
    assert!((paired.read.latency_us.mean - plain.read.latency_us.mean).abs() < 0.05);
    let interleaving = paired.data_path.interleaving.expect("reported");
    assert_eq!((interleaving.group_chips, interleaving.part_sensings), (2, 1));
    // ...and the one-page write was padded to a group of two.
    assert_eq!(interleaving.write_padding_pages, 1);
    assert!((interleaving.write_amplification_from_grouping - 2.0).abs() < 1e-9);
    assert_eq!(paired.flash.page_reads, plain.flash.page_reads + 1);
    assert!(plain.data_path.interleaving.is_none());
    // On a loaded device every read occupies two dies: reads wait longer.
    let workload =
        synthetic(20_000, 1.0, 4 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    let loaded = |extra: &[&str]| {
        let mut overrides = vec!["read_path.strategy=\"two_step\"", "host.mode=\"closed_loop\"", "host.queue_depth=8"];
        overrides.extend_from_slice(extra);
        run(&small_config(&workload, &overrides), &mut no_progress()).unwrap_or_else(|e| panic!("{e}"))
    };
    let (alone, grouped) = (loaded(&[]), loaded(&["read_path.interleave_groups=[[0, 1]]"]));
    assert!(
        grouped.read.latency_us.mean > 1.2 * alone.read.latency_us.mean,
        "{} vs {}",
        grouped.read.latency_us.mean,
        alone.read.latency_us.mean
    );
    // Groups must cover the chip classes once, and share decoding rows.
    for (value, needle) in
        [("[[0, 1], [1, 2]]", "exactly one group"), ("[[0]]", "at least 2"), ("[[0, 1], [2, 3, 4]]", "one size")]
    {
        let error = small_config_result(&workload, &[&format!("read_path.interleave_groups={value}")])
            .expect_err(value)
            .to_string();
        assert!(error.contains("read_path.interleave_groups") && error.contains(needle), "{value}: {error}");
    }
}

#[test]
fn codeword_parts_need_a_multiset_table_and_match_the_groups() {
    let workload =
        synthetic(4_000, 1.0, 4 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    // Two block classes, two parts: three lists per chip row ({0,0}, {0,1}, {1,1}); one chip row.
    let table = "read_path.decoding.failure_probabilities=[[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]]";
    let base = [
        "read_path.strategy=\"two_step\"",
        "read_path.soft_sensing_levels=1",
        table,
        "read_path.decoding.block_classes=2",
    ];
    let with = |extra: &[&str]| {
        let mut overrides = base.to_vec();
        overrides.extend_from_slice(extra);
        small_config_result(&workload, &overrides)
    };
    // Only codewords with both parts in the weak class fail: about a quarter of the reads.
    let config = with(&["read_path.decoding.codeword_parts=2"]).unwrap_or_else(|e| panic!("{e}"));
    let result = run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
    let statistics = result.data_path.read_path.expect("a sampling strategy reports");
    let share = statistics.hard_decision_failures as f64 / statistics.sampled_reads as f64;
    assert!((0.15..0.35).contains(&share), "hard failures {share} of {} reads", statistics.sampled_reads);
    for (extra, needle) in [
        (vec!["read_path.decoding.codeword_parts=3"], "not a multiple"),
        (vec!["read_path.decoding.codeword_parts=9"], "1..=8"),
        (vec!["read_path.decoding.codeword_parts=2", "read_path.interleave_groups=[[0, 1, 2, 3]]"], "over 4 chips"),
    ] {
        let error = with(&extra).expect_err(needle).to_string();
        assert!(error.contains("read_path.decoding.codeword_parts") && error.contains(needle), "{extra:?}: {error}");
    }
    let error = small_config_result(
        &workload,
        &["read_path.strategy=\"two_step\"", "read_path.soft_sensing_levels=1", "read_path.decoding.codeword_parts=2"],
    )
    .expect_err("no block classes")
    .to_string();
    assert!(error.contains("block_classes of at least 2"), "{error}");
}

#[test]
fn a_sixteen_page_read_soft_reads_with_the_probability_of_independent_pages() {
    // Issue 45: every chip fails hard decoding on 10 % of its pages. Drawn per page, a 64 KiB read
    // (16 pages) needs soft sensing unless all 16 decode: 1 - 0.9^16 = 81.5 % of the requests; drawn
    // once per request, 10 %.
    let workload =
        synthetic(3_000, 1.0, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 65536 }");
    let share = |draw: &str| {
        let draw = format!("read_path.decoding.draw=\"{draw}\"");
        let overrides = [
            "read_path.strategy=\"two_step\"",
            "read_path.decoding.failure_probabilities=[[0.1, 0, 0, 0, 0, 0, 0]]",
            "workload.synthetic.alignment_bytes=65536",
            draw.as_str(),
        ];
        let statistics =
            run(&small_config(&workload, &overrides), &mut no_progress()).unwrap().data_path.read_path.unwrap();
        assert_eq!(statistics.sampled_reads, 16 * statistics.sampled_requests, "one outcome per page");
        statistics.requests_with_hard_failures as f64 / statistics.sampled_requests as f64
    };
    let independent = 1.0 - 0.9f64.powi(16);
    let per_page = share("per_page");
    assert!((per_page - independent).abs() < 0.03, "{per_page} vs {independent}");
    let per_request = share("per_request");
    assert!((per_request - 0.1).abs() < 0.03, "{per_request}");
}
