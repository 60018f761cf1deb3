//! Several I/O flows sharing the device through submission queues (issue 37): exact completion
//! order and times under round robin and weighted round robin on a one-die device that serves one
//! command at a time; slowdowns against each flow alone and the fairness; the integrity oracle with
//! two flows writing the same pages (one shared namespace) and disjoint ranges (`lba_offset_bytes`);
//! config errors naming the field.

mod common;

use common::{close, config_result, no_progress, run_ok, trace_workload};
use ssdlab_ssd::{run, RunResult, SimulationConfig};

/// One channel, one chip, one die, one plane of SLC (program 200 us); a 4 KiB page crosses the
/// 200 MT/s channel in 20.48 us. The device holds one command at a time (`device_queue_depth = 1`),
/// so each write takes 220.48 us from its fetch and the arbiter alone decides the order.
const TINY: &str = r#"
name = "tiny-flows"
seed = 3
[device.geometry]
channels = 1
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 64
pages_per_block = 16
page_size_bytes = 4096
[device.nand]
cell_type = "slc"
read_latency_ns = [40000]
program_latency_ns = [200000]
erase_latency_ns = 1000000
multi_plane = false
[device.channel]
transfer_rate_mts = 200.0
[ftl]
overprovisioning_fraction = 0.25
[ftl.precondition]
enabled = false
[ftl.garbage_collection]
low_watermark_blocks = 2
high_watermark_blocks = 3
[verification]
integrity_oracle = true
[host]
device_queue_depth = 1
"#;

const WRITE_US: f64 = 220.48;

fn config(text: &str, overrides: &[&str]) -> Result<SimulationConfig, String> {
    config_result(TINY, text, overrides).map_err(|e| e.to_string())
}

/// Flow `a` replays `[workload]` (three 4 KiB writes at time 0, pages 0-2), flow `b` its own trace
/// (three writes at time 0, pages 8-10).
fn two_flows(arbitration: &str) -> String {
    let a = trace_workload("a.csv", "time_us,op,offset,size\n0,W,0,4096\n0,W,4096,4096\n0,W,8192,4096\n");
    let b = trace_workload("b.csv", "time_us,op,offset,size\n0,W,32768,4096\n0,W,36864,4096\n0,W,40960,4096\n");
    let b_path = b.lines().nth(1).unwrap().trim_start_matches("path = ");
    format!(
        "{a}\n[host.queues]\narbitration = \"{arbitration}\"\nweight_high = 2\nweight_low = 1\n\
         [[host.flows]]\nname = \"a\"\npriority_class = \"high\"\n\
         [[host.flows]]\nname = \"b\"\npriority_class = \"low\"\ntrace = {{ path = {b_path} }}\n"
    )
}

fn flow_means(result: &RunResult) -> Vec<f64> {
    result.flows.as_ref().expect("a flows section").per_flow.iter().map(|flow| flow.write.latency_us.mean).collect()
}

#[test]
fn round_robin_alternates_between_the_queues() {
    // Fetch order a1 b1 a2 b2 a3 b3, one every 220.48 us: a completes at 1, 3, 5 x 220.48 us and b
    // at 2, 4, 6 x (latency from arrival at 0).
    let result = run_ok(&config(&two_flows("round_robin"), &[]).unwrap());
    let means = flow_means(&result);
    assert!(close(means[0], 3.0 * WRITE_US), "{means:?}");
    assert!(close(means[1], 4.0 * WRITE_US), "{means:?}");
    let section = result.flows.as_ref().unwrap();
    assert_eq!((section.arbitration.as_str(), section.queues), ("round_robin", 2));
    let a = &section.per_flow[0];
    assert!(close(a.write.latency_us.max, 5.0 * WRITE_US) || a.write.latency_us.max >= 5.0 * WRITE_US);
    assert!(close(a.span_seconds * 1e6, 5.0 * WRITE_US), "{}", a.span_seconds);
    assert!(close(section.per_flow[1].span_seconds * 1e6, 6.0 * WRITE_US));
    assert!(close(a.iops, 3.0 / (5.0 * WRITE_US * 1e-6)));
    // Alone each flow's writes complete at 1, 2, 3 x 220.48 us: mean 2 x. Slowdowns 1.5 and 2.
    assert!(close(a.alone_mean_latency_us.unwrap(), 2.0 * WRITE_US));
    assert!(close(a.slowdown.unwrap(), 1.5));
    assert!(close(section.per_flow[1].slowdown.unwrap(), 2.0));
    assert!(close(section.fairness.unwrap(), 0.75));
    // The whole run: six writes back to back.
    assert!(close(result.simulated_seconds * 1e6, 6.0 * WRITE_US));
    assert!(close(result.write.latency_us.mean, 3.5 * WRITE_US));
    assert_eq!((result.requests, result.data_path.integrity.mismatches), (6, 0));
}

#[test]
fn weighted_round_robin_gives_the_high_class_two_fetches_per_round() {
    // a high (weight 2), b low (weight 1): a1 a2 b1 a3 b2 b3. a completes at 1, 2, 4 x 220.48 us,
    // b at 3, 5, 6 x.
    let result = run_ok(&config(&two_flows("weighted_round_robin"), &[]).unwrap());
    let means = flow_means(&result);
    assert!(close(means[0], 7.0 / 3.0 * WRITE_US), "{means:?}");
    assert!(close(means[1], 14.0 / 3.0 * WRITE_US), "{means:?}");
    let section = result.flows.as_ref().unwrap();
    assert!(close(section.per_flow[0].slowdown.unwrap(), 7.0 / 6.0));
    assert!(close(section.per_flow[1].slowdown.unwrap(), 14.0 / 6.0));
    assert!(close(section.fairness.unwrap(), 0.5));
}

#[test]
fn an_urgent_queue_is_served_first() {
    // b urgent: b1 b2 b3 then a1 a2 a3.
    let text = two_flows("weighted_round_robin").replace("priority_class = \"low\"", "priority_class = \"urgent\"");
    let result = run_ok(&config(&text, &["host.queues.measure_alone=false"]).unwrap());
    let means = flow_means(&result);
    assert!(close(means[0], 5.0 * WRITE_US) && close(means[1], 2.0 * WRITE_US), "{means:?}");
    let section = result.flows.as_ref().unwrap();
    assert!(section.fairness.is_none() && section.per_flow[0].slowdown.is_none());
}

#[test]
fn a_submission_queue_holds_back_its_own_flow() {
    // Device depth 2, a's queue 1 entry: a's writes go one at a time while b may have one beside.
    // Each flow's queue statistics count its own waits.
    // (`--set` does not index the list of flows: the depth goes into the flow's table.)
    let text = two_flows("round_robin").replacen("name = \"a\"\n", "name = \"a\"\nsubmission_queue_depth = 1\n", 1);
    let result = run_ok(&config(&text, &["host.device_queue_depth=2", "host.queues.measure_alone=false"]).unwrap());
    let section = result.flows.as_ref().unwrap();
    assert_eq!(section.per_flow[0].submission_queue.max_in_flight, 1);
    assert_eq!(section.per_flow[0].submission_queue.requests_waited, 2);
    assert_eq!(result.host_queue.max_in_flight, 2);
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

/// The small device of `common` with two synthetic flows of mixed reads and writes.
fn shared_or_disjoint(offset_bytes: u64) -> SimulationConfig {
    let flow = |name: &str, seed_requests: u64, offset: u64| {
        format!(
            "[[host.flows]]\nname = \"{name}\"\nlba_offset_bytes = {offset}\n[host.flows.synthetic]\nrequests = {seed_requests}\nread_fraction = 0.5\nspan_bytes = 2097152\naddress = {{ distribution = \"uniform\" }}\nsize = {{ distribution = \"uniform\", min_bytes = 512, max_bytes = 16384 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 30000.0 }}\n"
        )
    };
    let text = format!(
        "{}\n{}\n{}",
        common::synthetic(
            100,
            0.5,
            8 << 20,
            "{ distribution = \"uniform\" }",
            "{ distribution = \"fixed\", bytes = 4096 }"
        ),
        flow("x", 3000, 0),
        flow("y", 3000, offset_bytes)
    );
    common::small_config(&text, &["host.queues.measure_alone=false"])
}

#[test]
fn the_oracle_holds_with_two_flows_on_the_same_pages_and_on_disjoint_ranges() {
    for offset in [0, 4 << 20] {
        let result = run_ok(&shared_or_disjoint(offset));
        assert_eq!(result.requests, 6000);
        assert_eq!(result.data_path.integrity.mismatches, 0, "offset {offset}");
        assert!(result.data_path.integrity.reads_checked > 1000, "{:?}", result.data_path.integrity);
        assert!(result.gc.blocks_erased > 0 || offset == 0, "the small device collects");
    }
}

#[test]
fn bad_flows_are_refused_naming_the_field() {
    let base = two_flows("round_robin");
    let error = config(&base.replace("weight_low = 1", "weight_low = 0"), &[]).unwrap_err();
    assert!(error.contains("host.queues.weight_low") && error.contains("at least 1"), "{error}");
    let error =
        config(&base.replacen("name = \"a\"\n", "name = \"a\"\nsubmission_queue_depth = 0\n", 1), &[]).unwrap_err();
    assert!(error.contains("host.flows[0].submission_queue_depth"), "{error}");
    let error = config(&base.replace("name = \"b\"", "name = \"a\""), &[]).unwrap_err();
    assert!(error.contains("host.flows[1].name"), "{error}");
    // A flow's trace that does not exist: the run names the flow and the field.
    let missing = base.replace("b.csv", "missing.csv");
    let error = run(&config(&missing, &[]).unwrap(), &mut no_progress()).unwrap_err().to_string();
    assert!(error.contains("host.flows[1].trace.path") && error.contains("missing.csv"), "{error}");
    // A flow beyond the device.
    let beyond = shared_or_disjoint(1 << 40);
    let error = run(&beyond, &mut no_progress()).unwrap_err().to_string();
    assert!(error.contains("host.flows[1].lba_offset_bytes"), "{error}");
    // Flows with loops.
    let error = config(&base, &["host.loops=2"]).unwrap_err();
    assert!(error.contains("host.loops") && error.contains("host.flows"), "{error}");
}
