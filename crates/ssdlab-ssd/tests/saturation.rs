//! The core under overload: saturated throughput against the bottleneck's hand-computed capacity
//! (die-bound and channel-bound, open and closed loop, with and without GC), and a property test
//! that no die or channel ever idles while an operation ready for it waits.

mod common;
use common::*;
use proptest::prelude::*;
use ssdlab_ssd::scheduler::check_work_conserving;
use ssdlab_ssd::{run, RunResult, Simulation};

/// One page type, so every read costs the same: 50 us sensing; 4 KiB over a 200 MT/s byte-wide
/// bus is 20.48 us. The small device has 4 dies on 2 channels (2 dies per channel).
const UNIFORM_TIMING: [&str; 2] = ["device.nand.read_latency_ns=[50000]", "device.nand.program_latency_ns=[500000]"];

fn random_reads(requests: u64) -> String {
    synthetic(requests, 1.0, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }")
}

fn run_with(workload: &str, extra: &[&str]) -> RunResult {
    let mut overrides: Vec<&str> = UNIFORM_TIMING.to_vec();
    overrides.extend_from_slice(extra);
    run(&small_config(workload, &overrides), &mut no_progress()).unwrap()
}

fn assert_near(measured: f64, expected: f64, tolerance: f64, what: &str) {
    assert!(
        (measured / expected - 1.0).abs() <= tolerance,
        "{what}: {measured:.0} IOPS, bottleneck capacity {expected:.0}"
    );
}

#[test]
fn die_bound_reads_saturate_the_dies_open_and_closed_loop() {
    // 4 dies x 1 read per 50 us = 80,000 IOPS; each channel carries 2 x 20.48 us per 50 us (82 %).
    let capacity = 4.0 / 50e-6;
    let workload = random_reads(40_000);
    // Open loop at 1 request per us (12.5x capacity): everything queues in the device.
    let open = run_with(&workload.replace("20000.0", "1000.0"), &[]);
    assert_near(open.all.iops, capacity, 0.03, "open loop");
    assert!(open.utilisation.die > 0.97, "{:?}", open.utilisation);
    let closed = run_with(&workload, &["host.mode=\"closed_loop\"", "host.queue_depth=64"]);
    assert_near(closed.all.iops, capacity, 0.03, "closed loop QD 64");
    // Overload is never slower than the saturated closed loop.
    assert!(open.all.iops > 0.98 * closed.all.iops, "open {} closed {}", open.all.iops, closed.all.iops);
}

#[test]
fn channel_bound_reads_saturate_the_channels() {
    // A 20 MT/s bus moves 4 KiB in 204.8 us: 2 channels give 9,766 IOPS; dies are 24 % busy.
    let capacity = 2.0 / 204.8e-6;
    let workload = random_reads(8_000).replace("20000.0", "1000.0");
    let open = run_with(&workload, &["device.channel.transfer_rate_mts=20.0"]);
    assert_near(open.all.iops, capacity, 0.03, "open loop");
    assert!(open.utilisation.channel > 0.97 && open.utilisation.die < 0.3, "{:?}", open.utilisation);
    let closed = run_with(
        &random_reads(8_000),
        &["device.channel.transfer_rate_mts=20.0", "host.mode=\"closed_loop\"", "host.queue_depth=32"],
    );
    assert_near(closed.all.iops, capacity, 0.03, "closed loop QD 32");
}

#[test]
fn writes_with_garbage_collection_keep_the_dies_busy() {
    // 4 KiB random writes over 8 MiB of a 12 MiB logical device: GC runs throughout. The bottleneck
    // is die time: each host write costs its program plus its share of GC copies (copyback: sense
    // + program) and erases, all counted by the run; capacity = dies / die time per request.
    let workload =
        synthetic(20_000, 0.0, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    for (label, extra) in [
        ("open", vec!["workload.synthetic.arrival.mean_interarrival_ns=1000.0"]),
        ("closed", vec!["host.mode=\"closed_loop\"", "host.queue_depth=64"]),
    ] {
        let result = run_with(&workload, &extra);
        assert!(result.gc.pages_copied > 5_000, "{label}: GC must run: {:?}", result.gc);
        let flash = &result.flash;
        let die_ns =
            flash.page_programs as f64 * 500e3 + flash.page_reads as f64 * 50e3 + flash.block_erases as f64 * 3e6;
        let capacity = 4.0 / (die_ns * 1e-9 / result.requests as f64);
        assert_near(result.all.iops, capacity, 0.03, label);
        assert!(result.utilisation.die > 0.97, "{label}: {:?}", result.utilisation);
    }
}

#[test]
fn writes_held_for_gc_leave_no_die_idle_under_open_loop_overload() {
    // As above, in every mode that holds writes: offered far beyond capacity, with the device queue
    // deep enough that every die always has work queued, the dies stay busy and the device serves
    // its die-time capacity, while the writes whose planes ran out of erased blocks wait.
    let workload =
        synthetic(20_000, 0.0, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    for mode in ["foreground", "stop_servicing_writes", "preemptible"] {
        let result = run_with(
            &workload,
            &[
                "workload.synthetic.arrival.mean_interarrival_ns=1000.0",
                &format!("ftl.garbage_collection.mode=\"{mode}\""),
            ],
        );
        let held = result.gc.host_writes_held.as_ref().unwrap();
        assert!(held.programs_held > 1_000, "{mode}: writes must be held: {held:?}");
        let flash = &result.flash;
        let die_ns =
            flash.page_programs as f64 * 500e3 + flash.page_reads as f64 * 50e3 + flash.block_erases as f64 * 3e6;
        let capacity = 4.0 / (die_ns * 1e-9 / result.requests as f64);
        assert_near(result.all.iops, capacity, 0.03, mode);
        assert!(result.utilisation.die > 0.97, "{mode}: {:?}", result.utilisation);
    }
}

#[test]
fn a_bounded_device_queue_holds_the_excess_in_the_host_queue() {
    let workload = random_reads(5_000).replace("20000.0", "1000.0");
    let deep = run_with(&workload, &[]);
    let shallow = run_with(&workload, &["host.device_queue_depth=32"]);
    assert_eq!(shallow.host_queue.max_in_flight, 32);
    assert!(shallow.host_queue.requests_waited > 4_000, "{:?}", shallow.host_queue);
    assert_eq!(deep.host_queue.requests_waited, 0);
    // The wait counts in latency: the same work, the same completion times, the same mean latency
    // (FIFO either way), while 32 in the device still keep 4 dies busy (8 would not: 62k IOPS).
    assert_near(shallow.all.iops, deep.all.iops, 0.03, "shallow vs deep queue");
    assert!(
        (shallow.all.latency_us.mean / deep.all.latency_us.mean - 1.0).abs() < 0.05,
        "{} vs {}",
        shallow.all.latency_us.mean,
        deep.all.latency_us.mean
    );
}

fn booking_case() -> impl Strategy<Value = Vec<String>> {
    (
        (0.0f64..=1.0, prop_oneof![Just(1000.0f64), Just(20000.0), Just(200000.0)], 1u32..=16, any::<bool>()),
        (
            prop_oneof![Just("hard_decision"), Just("two_step"), Just("progressive")],
            any::<bool>(),
            any::<bool>(),
            1u32..=64,
            0u64..1000,
        ),
        prop_oneof![Just("foreground"), Just("stop_servicing_writes"), Just("preemptible"), Just("background")],
    )
        .prop_map(
            |((read_fraction, gap, max_pages, closed), (strategy, look_ahead, copyback, depth, seed), gc_mode)| {
                let mut overrides = vec![
                    format!("ftl.garbage_collection.mode=\"{gc_mode}\""),
                    format!("workload.synthetic.read_fraction={read_fraction}"),
                    format!("workload.synthetic.arrival.mean_interarrival_ns={gap:.1}"),
                    format!("workload.synthetic.size.max_bytes={}", max_pages * 4096),
                    format!("ftl.garbage_collection.copyback={copyback}"),
                    format!("host.device_queue_depth={depth}"),
                    format!("seed={seed}"),
                ];
                if closed {
                    overrides.push("host.mode=\"closed_loop\"".into());
                    overrides.push(format!("host.queue_depth={depth}"));
                }
                if strategy != "hard_decision" {
                    overrides.push(format!("read_path.strategy=\"{strategy}\""));
                    overrides.push("read_path.decoding.failure_probabilities=[[0.4, 0.2, 0.1, 0.05, 0, 0, 0]]".into());
                    overrides.push(format!("read_path.look_ahead={look_ahead}"));
                }
                overrides
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// For random workloads (reads, writes with GC in every GC mode, partial pages, read strategies
    /// with look-ahead, open and closed loop, shallow and deep device queues): no die or channel is
    /// idle while an operation ready for it waits, and every request completes. (A write held for GC
    /// is not ready until its plane has an erased block; preemptible GC that steps aside is ready
    /// again when its die's booked work ends.)
    #[test]
    fn no_resource_idles_while_a_ready_operation_waits(overrides in booking_case()) {
        let workload = synthetic(1_500, 0.5, 6 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"uniform\", min_bytes = 512, max_bytes = 4096 }")
            + "alignment_bytes = 512\n";
        let overrides: Vec<&str> = overrides.iter().map(String::as_str).collect();
        let config = small_config(&workload, &overrides);
        let mut simulation = Simulation::new(&config).unwrap();
        simulation.prepare().unwrap();
        simulation.record_bookings();
        simulation.replay(&mut no_progress()).unwrap();
        let bookings = simulation.bookings().unwrap().to_vec();
        prop_assert!(bookings.len() > 1_000);
        if let Err(violation) = check_work_conserving(&bookings) {
            prop_assert!(false, "{}", violation);
        }
        let result = simulation.finish(0.0, 0.0).unwrap();
        prop_assert_eq!(result.requests_completed, 1_500);
    }
}
