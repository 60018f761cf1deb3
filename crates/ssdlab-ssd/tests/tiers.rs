//! Heterogeneous devices end to end: the two-tier MLC+TLC preset, a real trace on it with the
//! integrity oracle, per-tier results that add up to the device's, tier config errors, and random
//! workloads on a tiny two-tier device (every read returns the latest write through migration).

mod common;

use common::{no_progress, shared_trace};
use proptest::prelude::*;
use ssdlab_ssd::{presets, run, SimulationConfig};

fn demo(overrides: &[&str]) -> SimulationConfig {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    presets::load("mlc-tlc-demo", &overrides).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_demo_migrates_from_mlc_to_tlc_with_every_read_checked() {
    // 30,000 requests arrive over 15 s; MLC chip 1 is retired at 10 s.
    let result = run(
        &demo(&["workload.synthetic.requests=30000", "events=[{at_ns=10000000000, action=\"retire_chip\", chip=1}]"]),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (mlc, tlc) = (&result.tiers["mlc"], &result.tiers["tlc"]);
    assert!(mlc.pages_migrated_out > 1000, "MLC GC moves its victims' pages to TLC: {}", mlc.pages_migrated_out);
    assert_eq!(mlc.pages_migrated_out, tlc.pages_migrated_in);
    assert_eq!(tlc.host_pages_written, 0, "host writes go to MLC");
    assert_eq!(mlc.collector, "migrating");
    assert_eq!(tlc.collector, "in_place");
    assert!(result.data_path.integrity.enabled && result.data_path.integrity.reads_checked > 10_000);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    // TLC programs count on TLC dies, and its reads take its slower page types.
    assert!(tlc.flash.page_programs >= tlc.pages_migrated_in);
    // Device totals are the sums of the tiers'.
    assert_eq!(result.flash.page_programs, mlc.flash.page_programs + tlc.flash.page_programs);
    assert_eq!(result.flash.transfer_bytes, mlc.flash.transfer_bytes + tlc.flash.transfer_bytes);
    assert!(
        (result.energy_total_uj - (mlc.energy_total_uj + tlc.energy_total_uj)).abs() < 1e-6 * result.energy_total_uj
    );
    assert_eq!(result.gc.pages_migrated, mlc.pages_migrated_out);
    let host = result.host_pages_written as f64;
    assert!(
        (result.write_amplification - (host + result.gc.pages_copied as f64 + result.gc.pages_migrated as f64) / host)
            .abs()
            < 1e-12
    );
    // Busy-time energy: 3.3 V x 25 mA over each tier's booked die time.
    assert!(mlc.energy_uj.array_busy_uj > 0.0 && mlc.energy_uj.io_uj > 0.0);
    assert!(result.logical_capacity_bytes_check());
    // The retired chip emptied (by drain, overwrites and GC) while the oracle checked every read.
    let event = &result.events[0];
    assert_eq!(event.fired_at_ns, Some(10_000_000_000));
    assert!(
        event.valid_pages_at_fire > 10_000 && event.pages_moved > 0 && event.pages_moved <= event.valid_pages_at_fire
    );
    assert!(event.emptied_at_ns.is_some_and(|at| at > 10_000_000_000));
    assert_eq!(event.suspended_ns, 0);
    assert!(result.dead_time.longest_background_span_us > 0.0 && result.dead_time.longest_suspension_us == 0.0);
}

#[test]
fn suspend_and_copy_holds_the_host_until_the_chip_is_copied() {
    let result = run(
        &demo(&[
            "workload.synthetic.requests=20000",
            "events=[{at_ns=5000000000, action=\"suspend_and_copy\", chip=2}]",
        ]),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let event = &result.events[0];
    assert_eq!(event.pages_moved, event.valid_pages_at_fire, "every valid page is copied during the suspension");
    let emptied = event.emptied_at_ns.expect("the copy ends");
    assert_eq!(event.suspended_ns, emptied - 5_000_000_000, "the suspension lasts from the event to the copy's end");
    assert_eq!(result.dead_time.longest_suspension_us, event.suspended_ns as f64 * 1e-3);
    // No request completed for (nearly) the whole suspension: the longest host-visible stall.
    let stall = result.dead_time.longest_host_stall_us.expect("tracked with events");
    assert!(
        stall >= 0.9 * event.suspended_ns as f64 * 1e-3 && stall <= event.suspended_ns as f64 * 1e-3 + 1e6,
        "{stall} vs {}",
        event.suspended_ns
    );
    // Requests arriving during the suspension waited for all of it.
    assert!(
        result.host_queue.max_wait_us >= 0.9 * event.suspended_ns as f64 * 1e-3,
        "{} vs {}",
        result.host_queue.max_wait_us,
        event.suspended_ns
    );
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

trait CapacityCheck {
    fn logical_capacity_bytes_check(&self) -> bool;
}

impl CapacityCheck for ssdlab_ssd::RunResult {
    /// The device's logical capacity is the sum of its tiers' (each physical minus 10 %).
    fn logical_capacity_bytes_check(&self) -> bool {
        let sum: u64 = self.tiers.values().map(|tier| tier.logical_capacity_bytes).sum();
        sum == self.device.logical_capacity_bytes
            && self.tiers.values().all(|tier| tier.logical_capacity_bytes < tier.physical_capacity_bytes)
    }
}

#[test]
fn a_real_trace_on_the_two_tier_device_returns_every_latest_write() {
    let Some(path) = shared_trace("msr-hm_0.sample.csv.gz") else { return };
    let trace = format!("workload.trace.path=\"{}\"", path.display());
    // The sample's footprint is 53 MiB over a 13.9 GiB address space: MLC shrinks to 140 MiB (16-page
    // blocks) so that preconditioning and four loops of the sample overflow it into TLC, which grows
    // to hold the address space.
    let settings = [
        trace.as_str(),
        "host.loops=4",
        "ftl.precondition.overwrite_passes=2.0",
        "device.tiers.mlc.pages_per_block=16",
        "device.tiers.mlc.blocks_per_plane=140",
        "device.tiers.tlc.blocks_per_plane=700",
    ];
    let result = run(&demo(&settings), &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result.requests, result.requests_completed);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    assert!(result.data_path.integrity.reads_checked > 10_000, "{}", result.data_path.integrity.reads_checked);
    assert!(result.tiers["mlc"].host_pages_written > 0);
    assert!(result.tiers["tlc"].pages_migrated_in > 0, "the replay itself migrates pages");
    assert!(result.tiers["tlc"].valid_pages > 1000);
}

#[test]
fn a_tiered_config_survives_its_own_toml() {
    // Sweeps pass resolved configs as TOML text: tiers, placement and events must come back equal.
    let config = demo(&[
        "events=[{at_erase_count=3.5, action=\"retire_chip\", chip=2}, {at_ns=5, action=\"chip_writable\", chip=2}]",
    ]);
    let again = SimulationConfig::from_toml_str(&config.to_toml_string(), "round trip", &[])
        .unwrap_or_else(|e| panic!("{e}\n{}", config.to_toml_string()));
    assert_eq!(again, config);
}

#[test]
fn tiers_are_settable_one_field_at_a_time() {
    // The chip budget holds: moving chips between tiers is two overrides.
    let config = demo(&["device.tiers.tlc.chips=6", "device.tiers.mlc.chips=2", "device.tiers.mlc.channels=1"]);
    let tiers = config.device.tiers();
    assert_eq!((tiers[0].name.as_str(), tiers[0].geometry.chips_per_channel), ("mlc", 2));
    assert_eq!((tiers[1].name.as_str(), tiers[1].geometry.chips_per_channel), ("tlc", 3));
}

#[test]
fn tier_config_errors_name_the_field() {
    let overrides: &[(&[&str], &str)] = &[
        (&["device.tiers.tlc.chips=6"], "device.chip_budget"),
        (&["device.tiers.tlc.chips=3"], "device.tiers.tlc.chips"),
        (&["device.tiers.tlc.page_size_bytes=4096"], "device.tiers.tlc.page_size_bytes"),
        (&["device.tiers.tlc.pages_per_block=256"], "device.tiers.tlc.pages_per_block"),
        (&["device.tiers.tlc.nand.read_latency_ns=[1,2]"], "device.tiers.tlc.nand.read_latency_ns"),
        (&["placement.migrate_to=\"slc\""], "placement.migrate_to"),
        (&["placement.migrate_to=\"mlc\""], "placement.migrate_to"),
        (&["device.geometry={channels=1, chips_per_channel=1, dies_per_chip=1, planes_per_die=1, blocks_per_plane=64, pages_per_block=64, page_size_bytes=8192}"], "device.geometry"),
        (&["device.tiers.tlc.overprovisioning_fraction=0.001"], "device.tiers.tlc.overprovisioning_fraction"),
        (&["middleware.kind=\"lba_scrambler\""], "middleware.kind"),
        (&["events=[{action=\"retire_chip\", chip=1}]"], "events[0].at_ns"),
        (&["events=[{at_ns=1, at_erase_count=2.0, action=\"retire_chip\", chip=1}]"], "events[0].at_ns"),
        (&["events=[{at_ns=1, action=\"retire_chip\", chip=8}]"], "events[0].chip"),
        (&["events=[{at_ns=1, action=\"explode\", chip=1}]"], "action"),
        (&["events=[{at_ns=1, action=\"chip_writable\", chip=1, drain=\"with_collection\"}]"], "events[0].drain"),
        (&["placement.policy=\"rr_fdca\"", "placement.migration_stop=\"high_watermark\""], "placement.migration_stop"),
        (&["device.tiers.tlc.open_incoming_blocks=\"one_per_plane\""], "device.tiers.tlc.open_incoming_blocks"),
    ];
    for (settings, field) in overrides {
        let owned: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
        let error =
            presets::load("mlc-tlc-demo", &owned).err().unwrap_or_else(|| panic!("{settings:?} should be refused"));
        let message = error.to_string();
        assert!(message.contains(field), "{settings:?}: expected {field} in: {message}");
    }
}

/// A tiny two-tier device: MLC 1 ch x 2 chips x 2 planes x 24 blocks x 8 pages; TLC 1 ch x 2 chips x
/// 1 plane x 24 blocks x 12 pages; 4 KiB pages (1.5 MiB + 1.1 MiB).
const TINY_TIERS: &str = r#"
name = "tiny-tiers"
[device.tiers.mlc]
chips = 2
channels = 1
dies_per_chip = 1
planes_per_die = 2
blocks_per_plane = 24
pages_per_block = 8
page_size_bytes = 4096
nand = { cell_type = "mlc", read_latency_ns = [40000, 60000], program_latency_ns = [200000, 1200000], erase_latency_ns = 3000000 }
channel = { transfer_rate_mts = 200.0 }
[device.tiers.tlc]
chips = 2
channels = 1
dies_per_chip = 1
planes_per_die = 1
blocks_per_plane = 24
pages_per_block = 12
page_size_bytes = 4096
nand = { cell_type = "tlc", read_latency_ns = [50000, 70000, 100000], program_latency_ns = [2000000], erase_latency_ns = 4000000 }
channel = { transfer_rate_mts = 100.0 }
[placement]
policy = "migrate_on_collect"
migrate_to = "tlc"
[ftl]
overprovisioning_fraction = 0.3
[ftl.garbage_collection]
low_watermark_blocks = 2
high_watermark_blocks = 3
[verification]
integrity_oracle = true
"#;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    /// Random workloads (mixes, sizes, hot/cold skew, victim policies, allocation, closed or open
    /// loop, TLC by page or by block, conventional migration or RR-FDCA, a chip retired and drained
    /// mid-run): every request completes and the oracle finds every read and, at the end, every page
    /// holding its latest write.
    #[test]
    fn random_workloads_on_two_tiers_keep_every_latest_write(
        seed in 0u64..1_000_000,
        read_fraction in 0.0f64..0.8,
        span_pages in 64u64..480,
        hot in any::<bool>(),
        policy in prop_oneof![Just("greedy"), Just("round_robin"), Just("cost_benefit")],
        dynamic in any::<bool>(),
        closed in any::<bool>(),
        block_unit in any::<bool>(),
        screening_rounds in 0u8..4,
        overwrite_to_write_tier in any::<bool>(),
        retire_at_us in prop::option::of(1_000u64..60_000),
        drain_with_collection in any::<bool>(),
    ) {
        let address = if hot { "{ distribution = \"hot_cold\", hot_space_fraction = 0.1, hot_access_fraction = 0.9 }" } else { "{ distribution = \"uniform\" }" };
        let text = format!(
            "seed = {seed}\n{TINY_TIERS}\n[workload.synthetic]\nrequests = 3000\nread_fraction = {read_fraction}\nspan_bytes = {}\nalignment_bytes = 512\naddress = {address}\nsize = {{ distribution = \"uniform\", min_bytes = 512, max_bytes = 16384 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 50000.0 }}\n",
            span_pages * 4096
        );
        let mut overrides = vec![format!("ftl.garbage_collection.policy=\"{policy}\"")];
        if dynamic {
            overrides.push("ftl.plane_allocation=\"dynamic\"".into());
        }
        if closed {
            overrides.push("host.mode=\"closed_loop\"".into());
            overrides.push("host.queue_depth=8".into());
        }
        if block_unit {
            overrides.push("device.tiers.tlc.write_unit=\"block\"".into());
            if overwrite_to_write_tier {
                overrides.push("device.tiers.tlc.overwrite_target=\"write_tier\"".into());
            }
        }
        // RR-FDCA (seed 004) with 1-3 screening rounds, or the conventional migration.
        if screening_rounds > 0 {
            overrides.push("placement.policy=\"rr_fdca\"".into());
            overrides.push("placement.write_tier=\"mlc\"".into());
            overrides.push(format!("placement.max_screening_rounds={screening_rounds}"));
        }
        // An MLC chip made read-only and drained while the host runs.
        if let Some(at_us) = retire_at_us {
            let drain = if drain_with_collection { "with_collection" } else { "background" };
            overrides.push(format!("events=[{{at_ns={}, action=\"retire_chip\", chip=0, drain=\"{drain}\"}}]", at_us * 1000));
        }
        let config = SimulationConfig::from_toml_str(&text, "test", &overrides).unwrap_or_else(|e| panic!("{e}"));
        let result = run(&config, &mut no_progress());
        prop_assert!(result.is_ok(), "{}", result.err().map(|e| e.to_string()).unwrap_or_default());
        let result = result.unwrap();
        prop_assert_eq!(result.data_path.integrity.mismatches, 0);
        prop_assert_eq!(result.requests, result.requests_completed);
        if retire_at_us.is_some() {
            prop_assert!(result.events[0].fired_at_ns.is_some(), "the retirement fired");
        }
        if screening_rounds > 0 {
            prop_assert!(result.placement.contains("rr_fdca"), "{}", result.placement);
        }
        if span_pages > 400 && read_fraction < 0.5 {
            // More live data than MLC may hold: some of it must live in TLC.
            prop_assert!(result.tiers["tlc"].valid_pages > 0, "{:?}", result.tiers["tlc"].valid_pages);
        }
    }
}

#[test]
fn a_wear_triggered_retirement_fires_when_the_chip_reaches_its_erase_count() {
    let text = format!(
        "{TINY_TIERS}\n[workload.synthetic]\nrequests = 4000\nread_fraction = 0.1\nspan_bytes = {}\naddress = {{ distribution = \"uniform\" }}\nsize = {{ distribution = \"fixed\", bytes = 4096 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 50000.0 }}\n",
        400 * 4096
    );
    let overrides = vec![
        "events=[{at_erase_count=2.0, action=\"retire_chip\", chip=0}]".to_string(),
        "ftl.precondition.enabled=false".to_string(),
    ];
    let config = SimulationConfig::from_toml_str(&text, "test", &overrides).unwrap_or_else(|e| panic!("{e}"));
    let result = run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
    let event = &result.events[0];
    let fired = event.fired_at_ns.expect("chip 0 reaches 2 erases per block on average");
    assert!(fired > 0);
    assert!(event.emptied_at_ns.is_some_and(|at| at >= fired));
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

#[test]
fn a_chip_drained_with_collection_moves_one_block_per_collection_and_only_then() {
    // Seed 004 §4: the read-only chip's pages leave "by normal overwrite or GC operation". With
    // `drain = "with_collection"` no mover of its own runs: each MLC collection takes one of the
    // chip's blocks along, so blocks leave at the pace of the host's writes.
    let text = format!(
        "{TINY_TIERS}\n[workload.synthetic]\nrequests = 3000\nread_fraction = {{reads}}\nspan_bytes = {}\naddress = {{ distribution = \"uniform\" }}\nsize = {{ distribution = \"fixed\", bytes = 4096 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 200000.0 }}\n",
        300 * 4096
    );
    let run_with = |reads: f64, drain: &str| {
        let text = text.replace("{reads}", &reads.to_string());
        let overrides = vec![format!("events=[{{at_ns=50000000, action=\"retire_chip\", chip=0, drain=\"{drain}\"}}]")];
        let config = SimulationConfig::from_toml_str(&text, "test", &overrides).unwrap_or_else(|e| panic!("{e}"));
        run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"))
    };
    let background = run_with(0.5, "background");
    let collected = run_with(0.5, "with_collection");
    let (quick, paced) = (&background.events[0], &collected.events[0]);
    assert_eq!((quick.drain, paced.drain), (Some("background"), Some("with_collection")));
    assert!(paced.valid_pages_at_fire > 0 && paced.blocks_moved > 0);
    // Each step moved one block and was timed; the median is at most the longest.
    assert_eq!(paced.steps, paced.blocks_moved);
    assert!(paced.median_step_ns > 0 && paced.median_step_ns <= paced.longest_step_ns, "{paced:?}");
    // One block per collection: no more blocks than the MLC tier's collections (its erases).
    assert!(paced.blocks_moved <= collected.tiers["mlc"].flash.block_erases, "{paced:?}");
    // Both empty the chip here, by different paths (under this load the dies are seldom idle, so
    // the background mover moves fewer blocks than the collections take along).
    assert!(quick.emptied_at_ns.is_some() && paced.emptied_at_ns.is_some(), "{quick:?} {paced:?}");
    assert!(quick.blocks_moved > 0 && quick.steps == quick.blocks_moved);
    assert_eq!(collected.data_path.integrity.mismatches, 0);
    // A host that only reads sets off no collection: nothing is moved, the chip stays full.
    let reading = run_with(1.0, "with_collection");
    let idle = &reading.events[0];
    assert!(idle.fired_at_ns.is_some() && idle.valid_pages_at_fire > 0);
    assert_eq!((idle.blocks_moved, idle.steps, idle.emptied_at_ns), (0, 0, None));
}

#[test]
fn a_block_unit_tier_rewrites_whole_blocks_and_keeps_every_latest_write() {
    // TLC written in whole blocks: migrations fill a TLC block at a time, and overwriting data that
    // lives in TLC is a block-modify-write the host write waits for.
    let text = format!(
        "{TINY_TIERS}\n[workload.synthetic]\nrequests = 3000\nread_fraction = 0.3\nspan_bytes = {}\naddress = {{ distribution = \"uniform\" }}\nsize = {{ distribution = \"fixed\", bytes = 4096 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 2000000.0 }}\n",
        450 * 4096
    );
    let page_unit = SimulationConfig::from_toml_str(&text, "test", &[]).unwrap_or_else(|e| panic!("{e}"));
    let block_unit = SimulationConfig::from_toml_str(
        &text,
        "test",
        &[
            "device.tiers.tlc.write_unit=\"block\"".to_string(),
            "ftl.garbage_collection.policy=\"round_robin\"".to_string(),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let page = run(&page_unit, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
    let block = run(&block_unit, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
    let tlc = &block.tiers["tlc"];
    assert!(
        tlc.block_unit && tlc.block_modify_writes > 0 && tlc.block_modify_pages > 0,
        "{} {}",
        tlc.block_modify_writes,
        tlc.block_modify_pages
    );
    assert_eq!(page.tiers["tlc"].block_modify_writes, 0);
    assert_eq!(block.data_path.integrity.mismatches, 0);
    // Block-modify-writes cost: more flash writes per host page and slower writes.
    assert!(block.write_amplification > page.write_amplification);
    assert!(block.write.latency_us.mean > page.write.latency_us.mean);
    let host = block.host_pages_written as f64;
    let flash = host + block.gc.pages_copied as f64 + block.gc.pages_migrated as f64 + tlc.block_modify_pages as f64;
    assert!((block.write_amplification - flash / host).abs() < 1e-9);
}

#[test]
fn footprint_sizing_keeps_the_tiers_proportions() {
    // 12 GiB of footprint with 20 % free: 15 GiB of NAND, split 8:12 like the configured tiers.
    let result = run(
        &demo(&[
            "ftl.sizing=\"footprint\"",
            "ftl.footprint_free_fraction=0.2",
            "workload.synthetic.requests=5000",
            "events=[]",
        ]),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (mlc, tlc) = (&result.tiers["mlc"], &result.tiers["tlc"]);
    let gib = (1u64 << 30) as f64;
    let total = (mlc.physical_capacity_bytes + tlc.physical_capacity_bytes) as f64 / gib;
    assert!((15.0..15.2).contains(&total), "{total} GiB");
    let ratio = tlc.physical_capacity_bytes as f64 / mlc.physical_capacity_bytes as f64;
    assert!((ratio - 1.5).abs() < 0.02, "{ratio}");
    assert_eq!(result.data_path.integrity.mismatches, 0);
}

#[test]
fn an_event_may_wait_for_its_chips_dies_to_go_idle() {
    // Closed loop at depth 8 keeps every die busy; the event triggers at 1 ms.
    let text = format!(
        "{TINY_TIERS}\n[host]\nmode = \"closed_loop\"\nqueue_depth = 8\n[workload.synthetic]\nrequests = 2000\nread_fraction = 0.5\nspan_bytes = {}\naddress = {{ distribution = \"uniform\" }}\nsize = {{ distribution = \"fixed\", bytes = 4096 }}\narrival = {{ process = \"poisson\", mean_interarrival_ns = 1000.0 }}\n",
        200 * 4096
    );
    let fired = |when_idle: bool| {
        let event = format!("events=[{{at_ns=1000000, action=\"retire_chip\", chip=0, when_idle={when_idle}}}]");
        let config = SimulationConfig::from_toml_str(&text, "test", &[event]).unwrap_or_else(|e| panic!("{e}"));
        let result = run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(result.data_path.integrity.mismatches, 0);
        result.events[0].fired_at_ns.expect("fires")
    };
    assert_eq!(fired(false), 1_000_000);
    assert!(fired(true) > 1_000_000, "the chip's dies were busy at 1 ms");
}

fn seed004(overrides: &[&str]) -> SimulationConfig {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    presets::load("seed004-tlc-mlc", &overrides).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_seed004_preset_screens_data_and_moves_only_what_froze() {
    // The preset as shipped, with every read checked: RR-FDCA screens its victims' data in
    // MLC (step A), passes over blocks still being screened when N_RDSMAX > 1 (step B) and moves
    // frozen data to TLC (step C).
    for (rounds, skips) in [("1", false), ("3", true)] {
        let max_rounds = format!("placement.max_screening_rounds={rounds}");
        let result = run(&seed004(&["verification.integrity_oracle=true", &max_rounds]), &mut no_progress())
            .unwrap_or_else(|e| panic!("{e}"));
        let (mlc, tlc) = (&result.tiers["mlc"], &result.tiers["tlc"]);
        assert_eq!((mlc.collector.as_str(), tlc.collector.as_str()), ("rr_fdca", "in_place"));
        assert!(mlc.screening_copies > 1000, "N_RDSMAX {rounds}: {}", mlc.screening_copies);
        assert_eq!(mlc.screening_skips > 0, skips, "N_RDSMAX {rounds}: {}", mlc.screening_skips);
        assert!(mlc.pages_migrated_out > 1000 && mlc.pages_migrated_out == tlc.pages_migrated_in);
        assert_eq!(tlc.host_pages_written, 0, "new data of overwrites goes to MLC (overwrite_target = write_tier)");
        assert!(result.data_path.integrity.reads_checked > 10_000);
        assert_eq!(result.data_path.integrity.mismatches, 0);
    }
}

#[test]
fn rr_fdca_and_block_modify_writes_on_the_real_tpcc_sample_keep_every_latest_write() {
    let Some(path) = shared_trace("mqsim-tpcc-small.trace.gz") else { return };
    let trace = format!("workload.trace.path=\"{}\"", path.display());
    // Six tiles of the sample (0.65 GB, the seed's tpcc-mysql size), three loops; MLC chip 1 is
    // retired early and drained while the oracle checks every read. The conventional array with new
    // data kept in TLC does block-modify-writes; RR-FDCA screens and moves frozen data.
    for placement in ["placement.policy=\"rr_fdca\"", "placement.policy=\"migrate_on_collect\""] {
        let settings = [
            trace.as_str(),
            "workload.trace.format=\"mqsim\"",
            "host.tiles=6",
            "host.loops=3",
            "host.compact_addresses=true",
            "verification.integrity_oracle=true",
            "device.tiers.tlc.overwrite_target=\"rewritten_block\"",
            "events=[{at_ns=2000000000, action=\"retire_chip\", chip=1}]",
            placement,
        ];
        let result = run(&seed004(&settings), &mut no_progress()).unwrap_or_else(|e| panic!("{placement}: {e}"));
        let (mlc, tlc) = (&result.tiers["mlc"], &result.tiers["tlc"]);
        assert_eq!(result.requests, result.requests_completed);
        assert_eq!(result.data_path.integrity.mismatches, 0);
        assert!(result.data_path.integrity.reads_checked > 50_000, "{}", result.data_path.integrity.reads_checked);
        assert!(mlc.pages_migrated_out > 1000, "{placement}: {}", mlc.pages_migrated_out);
        if placement.contains("rr_fdca") {
            assert!(mlc.screening_copies > 0, "{}", mlc.screening_copies);
        } else {
            assert!(
                tlc.block_modify_writes > 0 && tlc.host_pages_written > 0,
                "{placement}: {} {}",
                tlc.block_modify_writes,
                tlc.host_pages_written
            );
        }
        let event = &result.events[0];
        assert!(event.fired_at_ns.is_some() && event.emptied_at_ns.is_some(), "{placement}: chip 1 drained: {event:?}");
    }
}

/// An event due after the workload has ended does not fire and does not stretch the simulated span
/// (issue 33: at 2^63-1 ns it ran the clock to simulated year 292, IOPS 2e-7). One due during the
/// workload still fires, and its drain still runs after the last request.
#[test]
fn an_event_after_the_workload_does_not_fire_or_stretch_the_run() {
    // 4,000 requests 500 us apart: the workload ends near 2 s.
    let late = run(
        &demo(&[
            "workload.synthetic.requests=4000",
            "events=[{at_ns=9223372036854775807, action=\"retire_chip\", chip=0}, {at_ns=1000000000, action=\"retire_chip\", chip=1}]",
        ]),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(late.events[0].fired_at_ns, None, "{:?}", late.events[0]);
    assert_eq!((late.events[0].pages_moved, late.events[0].valid_pages_at_fire), (0, 0));
    assert_eq!(late.events[1].fired_at_ns, Some(1_000_000_000));
    assert!(late.events[1].pages_moved > 0);
    // The span ends with the last request and the drain the in-workload event started, not at the
    // late event's time.
    let alone = run(
        &demo(&["workload.synthetic.requests=4000", "events=[{at_ns=1000000000, action=\"retire_chip\", chip=1}]"]),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(late.simulated_seconds, alone.simulated_seconds);
    assert_eq!(late.all.iops, alone.all.iops);
    assert!(late.simulated_seconds < 1000.0, "{}", late.simulated_seconds);
}

/// `chip_writable` while the chip's retirement drain is under way stops the drain: nothing more
/// leaves a chip in service (issue 33: the drain went on and moved more pages than the chip held
/// when it was retired). The chip is never marked emptied, and every read still returns the
/// latest write.
#[test]
fn chip_writable_stops_a_drain_under_way() {
    let events = "events=[{at_ns=500000000, action=\"retire_chip\", chip=1}, {at_ns=600000000, action=\"chip_writable\", chip=1}]";
    let result = run(
        &demo(&["workload.synthetic.requests=4000", "verification.integrity_oracle=true", events]),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (retire, writable) = (&result.events[0], &result.events[1]);
    assert_eq!((retire.fired_at_ns, writable.fired_at_ns), (Some(500_000_000), Some(600_000_000)));
    assert!(retire.pages_moved > 0, "the drain started: {retire:?}");
    assert!(retire.pages_moved < retire.valid_pages_at_fire, "the drain stopped: {retire:?}");
    assert_eq!(retire.emptied_at_ns, None);
    assert_eq!(result.data_path.integrity.mismatches, 0);
    // Without the chip_writable the same drain empties the chip.
    let drained = run(
        &demo(&["workload.synthetic.requests=4000", "events=[{at_ns=500000000, action=\"retire_chip\", chip=1}]"]),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(drained.events[0].emptied_at_ns.is_some() && drained.events[0].pages_moved > retire.pages_moved);
}

#[test]
fn a_suspend_and_copy_into_destinations_with_room_runs_at_their_program_pace() {
    // Seed 004's array (4 MLC + 4 TLC chips, one die each) with chips of 256 blocks, every MLC chip
    // half full; MLC chip 1 is copied to the other three at 0.5 s. With room in the destinations the
    // copy is program-bound: the drained pages are striped over the three destination dies, so it
    // takes a third of the pages' program time (1.3 ms each), whichever copy path.
    let run_with = |path: &str| {
        let event = format!("events=[{{at_ns=500000000, action=\"suspend_and_copy\", chip=1, copy_path=\"{path}\"}}]");
        run(
            &seed004(&[
                "device.tiers.mlc.blocks_per_plane=256",
                "device.tiers.tlc.blocks_per_plane=256",
                "workload.synthetic.span_bytes=1073741824",
                "workload.synthetic.address={ distribution = \"hot_cold\", hot_space_fraction = 0.02, hot_access_fraction = 1.0 }",
                "workload.synthetic.requests=20000",
                "ftl.precondition.enabled=true",
                "ftl.precondition.overwrite_passes=0",
                &event,
            ]),
            &mut no_progress(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let pipelined = run_with("pipelined");
    let event = &pipelined.events[0];
    assert!(event.pages_moved > 30_000, "{}", event.pages_moved);
    let program_bound = event.pages_moved.div_ceil(3) * 1_300_000;
    assert!(
        event.suspended_ns >= program_bound && event.suspended_ns <= program_bound + program_bound / 50,
        "{} ns suspended vs {program_bound} ns of programs per destination die",
        event.suspended_ns
    );
    assert!(event.copy_ended_at_ns.is_some());
    // Dead time is what the host saw: the suspension (or a longer stall), not background work.
    let dead = &pipelined.dead_time;
    assert_eq!(dead.dead_time_us, dead.longest_suspension_us.max(dead.longest_host_stall_us.expect("tracked")));
    let chained = run_with("chained");
    assert!(chained.events[0].suspended_ns >= event.suspended_ns);
    assert!(chained.events[0].copy_ended_at_ns.is_none());
}
