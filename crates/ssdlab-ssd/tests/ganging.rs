//! DiskSim's ganged device (`[device.ganging]`, seed 002 §5.1) on a tiny device with exact times:
//! 2 channels x 2 chips, one die of two planes each, gangs of two chips (one per channel); every
//! page senses in 25 us and programs in 200 us, a 4 KiB page crosses the bus in 20.48 us, decoding
//! takes 8 us. Static striping puts logical pages 0, 1 on gang 0 (chips 0, 1) and 2, 3 on gang 1.

mod common;
use common::*;

const R: f64 = 25.0;
const W: f64 = 200.0;
const X: f64 = 20.48;
const D: f64 = 8.0;

fn ganged(lines: &str, overrides: &[&str]) -> ssdlab_ssd::RunResult {
    let workload = trace_workload("gang.csv", lines);
    let mut all = vec![
        "ftl.precondition.enabled=false",
        "read_path.decode_latency_ns=8000",
        "device.nand.read_latency_ns=[25000, 25000]",
        "device.nand.program_latency_ns=[200000, 200000]",
        "ftl.garbage_collection.mode=\"foreground\"",
        "device.ganging.chips_per_gang=2",
    ];
    all.extend_from_slice(overrides);
    run_ok(&small_config(&workload, &all))
}

fn assert_us(actual: f64, expected: f64, what: &str) {
    assert!((actual - expected).abs() < 0.005, "{what}: {actual} us, expected {expected} us");
}

#[test]
fn a_read_piece_pays_every_page_in_turn() {
    // 4 KiB: R + X + decode; 8 KiB (a whole gang page on chips 0 and 1): 2 (R + X) + decode.
    let one = ganged("time_us,op,offset,size\n0,W,0,16384\n100000,R,0,4096\n", &[]);
    assert_us(one.read.latency_us.mean, R + X + D, "one page");
    let lines = "time_us,op,offset,size\n0,W,0,16384\n100000,R,0,8192\n";
    let result = ganged(lines, &[]);
    assert_us(result.read.latency_us.mean, 2.0 * (R + X) + D, "a gang page");
    let gangs = result.ganging.expect("a ganged run reports its gangs");
    assert_eq!((gangs.chips_per_gang, gangs.gangs, gangs.read_pieces), (2, 2, 1));
    // Gangs of one chip (DiskSim's `Elements per gang = 1`) read the same 8 KiB on two chips at once.
    let independent = ganged(lines, &["device.ganging.chips_per_gang=1"]);
    assert_us(independent.read.latency_us.mean, R + X + D, "gangs of one chip");
}

#[test]
fn chips_sensed_together_pay_one_array_read() {
    let lines = "time_us,op,offset,size\n0,W,0,8192\n100000,R,0,8192\n";
    let result = ganged(lines, &["device.ganging.element_overlap=\"sensed_together\""]);
    assert_us(result.read.latency_us.mean, R + 2.0 * X + D, "sensed together");
}

#[test]
fn writes_are_read_modify_writes_of_the_gang_page() {
    // 4 KiB: a partial gang page, R + 2X + W; 8 KiB aligned: 2X + W; 16 KiB: one piece on each
    // gang, side by side.
    let result = ganged("time_us,op,offset,size\n0,W,0,4096\n", &[]);
    assert_us(result.write.latency_us.mean, R + 2.0 * X + W, "partial");
    let gangs = result.ganging.unwrap();
    assert_eq!((gangs.write_pieces, gangs.partial_write_pieces, gangs.rewritten_pages), (1, 1, 1));
    assert_eq!(result.flash.page_programs, 1, "the rewrite is not host data");
    assert_eq!(result.flash.page_reads, 0, "nor is its array read among the flash counters' reads");
    assert_eq!(result.flash.page_transfers, 2, "every chip's page crosses the bus");
    let result = ganged("time_us,op,offset,size\n0,W,0,8192\n", &[]);
    assert_us(result.write.latency_us.mean, 2.0 * X + W, "whole gang page");
    let result = ganged("time_us,op,offset,size\n0,W,0,16384\n", &[]);
    assert_us(result.write.latency_us.mean, 2.0 * X + W, "two gangs at once");
    assert_eq!(result.ganging.unwrap().write_pieces, 2);
}

#[test]
fn a_gang_serves_one_piece_at_a_time_and_gangs_do_not_interfere() {
    // Two reads at once on gang 0 (pages 0 and 1): the second waits for the first.
    let same = ganged("time_us,op,offset,size\n0,W,0,16384\n100000,R,0,4096\n100000,R,4096,4096\n", &[]);
    assert_us(same.read.latency_us.mean, (R + X + D + 2.0 * (R + X) + D) / 2.0, "queued behind the first piece");
    // Pages 0 and 2 are on different gangs: both take one page's time.
    let apart = ganged("time_us,op,offset,size\n0,W,0,16384\n100000,R,0,4096\n100000,R,8192,4096\n", &[]);
    assert_us(apart.read.latency_us.mean, R + X + D, "another gang");
}

#[test]
fn a_failed_hard_decode_holds_the_gang_through_the_soft_read() {
    let lines = "time_us,op,offset,size\n0,W,0,8192\n100000,R,0,8192\n";
    let result = ganged(
        lines,
        &["read_path.strategy=\"two_step\"", "read_path.decoding.failure_probabilities=[[1.0, 0, 0, 0, 0, 0, 0]]"],
    );
    // Per page: hard sense, move, decode (fails), six levels sensed and moved; the next page starts
    // when the soft results are moved, and the last decode ends the read.
    let page = R + X + D + 6.0 * 14.0 + 6.0 * X;
    assert_us(result.read.latency_us.mean, 2.0 * page + D, "two soft-read pages in turn");
}

#[test]
fn a_cancelled_look_ahead_is_counted_for_the_time_it_held_the_chip() {
    let lines = "time_us,op,offset,size\n0,W,0,4096\n100000,R,0,4096\n";
    let result = ganged(
        lines,
        &[
            "read_path.strategy=\"two_step\"",
            "read_path.look_ahead=true",
            "read_path.decoding.failure_probabilities=[[0.0, 0, 0, 0, 0, 0, 0]]",
        ],
    );
    assert_us(result.read.latency_us.mean, R + X + D, "a passing hard decode");
    // Sensed from the hard sensing's end until the hard decode ends: X + D.
    assert_eq!(result.flash.cancelled_sensing_ns, 28_480);
    assert_eq!(result.flash.cancelled_sensing_levels, 6);
}

#[test]
fn cleaning_holds_the_gang_and_no_page_is_lost() {
    let workload =
        synthetic(6000, 0.3, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    let config = small_config(
        &workload,
        &[
            "ftl.garbage_collection.mode=\"foreground\"",
            "device.ganging.chips_per_gang=2",
            "verification.integrity_oracle=true",
        ],
    );
    let result = run_ok(&config);
    let gangs = result.ganging.expect("ganged");
    assert!(gangs.cleanings > 0 && gangs.cleaning_ns > 0, "{gangs:?}");
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert!(result.data_path.integrity.reads_checked > 0);
    assert!(gangs.mean_utilisation > 0.0 && gangs.mean_utilisation <= 1.0, "{gangs:?}");
}

#[test]
fn a_data_cache_on_a_ganged_device_is_refused_by_name() {
    let workload = trace_workload("gang.csv", "time_us,op,offset,size\n0,W,0,4096\n");
    let error = config_result(
        SMALL_DEVICE,
        &workload,
        &[
            "ftl.garbage_collection.mode=\"foreground\"",
            "device.ganging.chips_per_gang=2",
            "device.data_cache.capacity_bytes=1048576",
            "device.data_cache.access_latency_ns=26",
            "device.data_cache.bandwidth_mb_per_s=400",
        ],
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("device.ganging") && error.contains("[device.data_cache]"), "{error}");
}
