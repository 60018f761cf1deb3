//! Deletes (discard/TRIM): routed to nowhere, the middleware or the FTL, with the integrity oracle on
//! (a deleted page may read as its old data or as unmapped, never as another page's data); and
//! aged-drive preconditioning (fill, then delete extents down to a live fraction).

mod common;
use common::*;
use ssdlab_ssd::run;

const UNIFORM: &str = "{ distribution = \"uniform\" }";
const PAGES: &str = "{ distribution = \"uniform\", min_bytes = 4096, max_bytes = 16384 }";

fn with_deletes(target: &str, middleware: &str) -> ssdlab_ssd::RunResult {
    let workload = synthetic(30_000, 0.4, 11 << 20, UNIFORM, PAGES);
    let config = small_config(
        &workload,
        &[
            "workload.synthetic.delete_fraction=0.15",
            &format!("host.delete_target=\"{target}\""),
            &format!("middleware.kind={middleware}"),
            "verification.integrity_oracle=true",
        ],
    );
    run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{target}/{middleware}: {e}"))
}

#[test]
fn deletes_reach_their_target_and_every_read_stays_right() {
    for middleware in ["none", "lba_scrambler"] {
        let none = with_deletes("none", middleware);
        let to_middleware = with_deletes("middleware", middleware);
        let trim = with_deletes("ftl", middleware);
        for result in [&none, &to_middleware, &trim] {
            assert_eq!(result.requests_completed, 30_000, "{middleware}");
            assert!(
                result.data_path.deletes.requests > 4_000 && result.data_path.deletes.pages > 4_000,
                "{middleware}: {:?}",
                result.data_path.deletes
            );
            assert!(result.data_path.integrity.reads_checked > 10_000);
            assert_eq!(result.data_path.integrity.mismatches, 0);
            // Deletes are not reads: the read latency counts the reads only.
            assert_eq!(result.read.count + result.write.count + result.data_path.deletes.requests, 30_000);
        }
        // Without TRIM the FTL keeps every deleted page as valid data: nothing trimmed, reads of
        // deleted pages find the old data.
        assert_eq!(none.data_path.deletes.pages_trimmed, 0);
        assert_eq!(none.data_path.unmapped_page_reads, 0, "{middleware}");
        // TRIM: pages unmapped, reads of them are unmapped reads, and GC has less to copy.
        assert!(trim.data_path.deletes.pages_trimmed > 3_000, "{middleware}: {:?}", trim.data_path.deletes);
        assert!(trim.data_path.unmapped_page_reads > 1_000, "{middleware}");
        assert!(
            trim.gc.pages_copied < none.gc.pages_copied,
            "{middleware}: TRIM {} vs none {}",
            trim.gc.pages_copied,
            none.gc.pages_copied
        );
        assert_eq!(to_middleware.data_path.deletes.pages_trimmed, 0);
    }
    // The scrambler learns of deleted pages: they read as unmapped above it, and it reuses them.
    let scrambled = with_deletes("middleware", "lba_scrambler");
    assert!(scrambled.data_path.unmapped_page_reads > 1_000);
    assert_eq!(
        with_deletes("middleware", "none").data_path.unmapped_page_reads,
        0,
        "a middleware that keeps no table has nothing to forget"
    );
}

#[test]
fn a_delete_of_part_of_a_page_deletes_nothing_of_it() {
    // 2 KiB deletes at 2 KiB alignment never cover a whole 4 KiB page.
    let workload = synthetic(5_000, 0.5, 4 << 20, UNIFORM, "{ distribution = \"fixed\", bytes = 2048 }");
    let config = small_config(
        &workload,
        &[
            "workload.synthetic.delete_fraction=0.3",
            "workload.synthetic.alignment_bytes=2048",
            "host.delete_target=\"ftl\"",
            "verification.integrity_oracle=true",
        ],
    );
    let result = run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
    assert!(result.data_path.deletes.requests > 1_000);
    assert_eq!(result.data_path.deletes.pages, 0);
    assert_eq!(result.data_path.deletes.pages_trimmed, 0);
}

fn aged(target: &str, fill: f64, live: f64, order: &str) -> ssdlab_ssd::RunResult {
    // A 2 MiB workload on the small device; the fill covers a fraction of its whole logical capacity.
    let workload = synthetic(5_000, 0.5, 2 << 20, UNIFORM, PAGES);
    let config = small_config(
        &workload,
        &[
            &format!("ftl.precondition.fill_fraction={fill}"),
            &format!("ftl.precondition.live_fraction={live}"),
            &format!("ftl.precondition.fill_order=\"{order}\""),
            "ftl.precondition.delete_extent_min_pages=4",
            "ftl.precondition.delete_extent_max_pages=32",
            &format!("host.delete_target=\"{target}\""),
            "verification.integrity_oracle=true",
        ],
    );
    run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{target}/{fill}/{live}/{order}: {e}"))
}

#[test]
fn an_aged_drive_reaches_its_live_fraction_exactly() {
    for order in ["sequential", "random"] {
        let full = aged("ftl", 1.0, 1.0, order);
        let drive = full.precondition.aged_drive.expect("aged drive reported");
        // DiskSim's "every logical page mapped at start".
        let logical_pages = full.device.logical_capacity_bytes / 4096;
        assert_eq!(drive.pages_filled, logical_pages, "{order}");
        assert_eq!(drive.pages_deleted, 0);
        for target in ["none", "ftl"] {
            let result = aged(target, 0.9, 0.6, order);
            let drive = result.precondition.aged_drive.expect("aged drive reported");
            let expected = (drive.pages_filled as f64 * 0.4).round() as u64;
            assert_eq!(drive.pages_deleted, expected, "{target}/{order}");
            assert!((drive.live_fraction - 0.6).abs() < 1e-3, "{target}/{order}: {drive:?}");
            assert_eq!(result.data_path.integrity.mismatches, 0);
        }
    }
    // Without TRIM the dead data stays valid in the FTL: GC copies it; with TRIM it does not.
    let (none, trim) = (aged("none", 0.9, 0.6, "random"), aged("ftl", 0.9, 0.6, "random"));
    assert!(
        none.gc.pages_copied > trim.gc.pages_copied,
        "none {} vs TRIM {}",
        none.gc.pages_copied,
        trim.gc.pages_copied
    );
}

#[test]
fn an_aged_drive_that_cannot_reach_its_live_fraction_says_so() {
    // The fill is no larger than the footprint, which is never deleted.
    let workload = synthetic(2_000, 0.5, 8 << 20, UNIFORM, PAGES);
    let config =
        small_config(&workload, &["ftl.precondition.fill_fraction=0.01", "ftl.precondition.live_fraction=0.5"]);
    let error = run(&config, &mut no_progress()).expect_err("cannot delete the footprint").to_string();
    assert!(error.contains("ftl.precondition.live_fraction"), "{error}");
    let bad = small_config_result(&workload, &["ftl.precondition.live_fraction=0.5"])
        .and_then(|c| ssdlab_ssd::Simulation::new(&c).map(|_| ()));
    assert!(bad.expect_err("needs a fill").to_string().contains("ftl.precondition.live_fraction"));
}

/// A trace over a 1 TiB volume whose data is 3 MiB: clusters of pages far apart.
fn sparse_trace() -> String {
    let mut lines = String::from("time_us,op,offset,size\n");
    let mut state = 12345u64;
    for i in 0..6_000u64 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let cluster = (state >> 33) % 3;
        let page = (state >> 40) % 256;
        let offset = cluster * (1u64 << 38) + page * 4096 + if i % 7 == 0 { 512 } else { 0 };
        let op = if i % 3 == 0 { "R" } else { "W" };
        lines.push_str(&format!("{},{op},{offset},{}\n", i * 50, if i % 5 == 0 { 12288 } else { 4096 }));
    }
    lines
}

#[test]
fn compacted_addresses_fit_a_small_drive_and_change_nothing_else() {
    let workload = trace_workload("sparse.csv", &sparse_trace());
    // Uncompacted, the 1 TiB span does not fit the 12 MiB drive.
    let error = run(&small_config(&workload, &[]), &mut no_progress()).unwrap_err();
    assert!(matches!(error, ssdlab_ssd::SimulationError::AddressBeyondDevice { .. }), "{error}");
    // Compacted it does, and with dynamic allocation the FTL behaves as with footprint sizing over the sparse span.
    let compact = run(&small_config(&workload, &["host.compact_addresses=true"]), &mut no_progress())
        .unwrap_or_else(|e| panic!("{e}"));
    let sized = run(
        &small_config(
            &workload,
            &["ftl.sizing=\"footprint\"", "ftl.footprint_free_fraction=0.5", "ftl.plane_allocation=\"dynamic\""],
        ),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let compact_sized = run(
        &small_config(
            &workload,
            &[
                "ftl.sizing=\"footprint\"",
                "ftl.footprint_free_fraction=0.5",
                "host.compact_addresses=true",
                "ftl.plane_allocation=\"dynamic\"",
            ],
        ),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(compact.requests, 6_000);
    assert_eq!(
        compact.workload.address_space_bytes,
        compact.workload.footprint_pages * 4096,
        "compacted: the address space is the data"
    );
    assert!(sized.workload.address_space_bytes > 1 << 39);
    assert_eq!(compact_sized.workload.footprint_pages, sized.workload.footprint_pages);
    let counts = |r: &ssdlab_ssd::RunResult| {
        (r.gc.pages_copied, r.host_pages_written, r.read.bytes, r.write.bytes, r.flash.page_reads)
    };
    assert_eq!(
        counts(&compact_sized),
        counts(&sized),
        "{:?}\n{:?}\n{:?}\n{:?}",
        compact_sized.device,
        sized.device,
        compact_sized.precondition,
        sized.precondition
    );
    // An aged drive over the compacted trace: fill everything, keep the trace's data, delete the rest.
    let aged = run(
        &small_config(
            &workload,
            &[
                "host.compact_addresses=true",
                "ftl.precondition.fill_fraction=1.0",
                "ftl.precondition.live_fraction=0.5",
                "host.delete_target=\"none\"",
            ],
        ),
        &mut no_progress(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        aged.gc.pages_copied > compact.gc.pages_copied,
        "dead data the FTL still holds is copied: {} vs {}",
        aged.gc.pages_copied,
        compact.gc.pages_copied
    );
}

#[test]
fn dead_data_the_ftl_holds_is_counted_where_gc_copies_it() {
    // The workload rewrites only its footprint, so every page the aged drive deleted stays dead.
    let none = aged("none", 0.9, 0.6, "random");
    let drive = none.precondition.aged_drive.expect("aged drive reported");
    let dead = none.data_path.dead_data.expect("tracked without TRIM");
    assert_eq!(dead.pages_held, drive.pages_deleted);
    assert!(
        dead.gc_pages_copied > 0 && dead.gc_pages_copied <= none.gc.pages_copied,
        "{dead:?} of {}",
        none.gc.pages_copied
    );
    assert!(dead.gc_pages_copied_per_victim > 0.0);
    assert!(aged("ftl", 0.9, 0.6, "random").data_path.dead_data.is_none(), "with TRIM nothing dead stays in the FTL");
    // Above the scrambler, deleted and moved pages are its fragmented pages: the two counts agree.
    let workload = synthetic(8_000, 0.3, 2 << 20, UNIFORM, PAGES);
    for plentiful in ["0.5", "1.0"] {
        let config = small_config(
            &workload,
            &[
                "middleware.kind=\"lba_scrambler\"",
                &format!("middleware.lba_scrambler.plentiful_free_fraction={plentiful}"),
                "ftl.precondition.fill_fraction=0.9",
                "ftl.precondition.live_fraction=0.6",
                "host.delete_target=\"middleware\"",
                "workload.synthetic.delete_fraction=0.1",
            ],
        );
        let result = run(&config, &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
        let dead = result.data_path.dead_data.expect("tracked under the scrambler");
        let middleware = result.data_path.middleware.expect("the scrambler reports its counts");
        assert_eq!(dead.pages_held, middleware.fragmented_pages, "{plentiful}: {dead:?} {middleware:?}");
        assert!(dead.gc_pages_copied < result.gc.pages_copied);
    }
}
