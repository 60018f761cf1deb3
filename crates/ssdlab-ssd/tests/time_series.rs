//! The time series adds up to the summary, interval by interval, and shows GC (and the host writes
//! it holds back) where it happens.

mod common;
use common::*;
use ssdlab_ssd::run;

#[test]
fn the_time_series_totals_equal_the_summary_totals() {
    let workload =
        synthetic(20_000, 0.3, 8 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    for extra in [&[][..], &["workload.synthetic.delete_fraction=0.1", "host.delete_target=\"ftl\""][..]] {
        let mut overrides = vec!["output.time_series_interval_ms=20"];
        overrides.extend_from_slice(extra);
        let result = run(&small_config(&workload, &overrides), &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
        let series = result.time_series.as_ref().expect("asked for");
        assert_eq!(series.interval_ns, 20_000_000);
        let sum = |column: &[u64]| column.iter().sum::<u64>();
        assert_eq!(sum(&series.read.count), result.read.count);
        assert_eq!(sum(&series.write.count), result.write.count);
        assert_eq!(sum(&series.read.bytes), result.read.bytes);
        assert_eq!(sum(&series.write.bytes), result.write.bytes);
        assert_eq!(sum(&series.gc_invocations), result.gc.invocations);
        assert_eq!(sum(&series.gc_pages_copied), result.gc.pages_copied + result.gc.pages_migrated);
        assert!(result.gc.invocations > 0, "the small device collects garbage");
        assert!(
            series.gc_invocations.iter().filter(|&&n| n > 0).count() > 1,
            "GC spread over the run: {:?}",
            series.gc_invocations
        );
        // Host programs held for GC (the default mode holds them), by when they were held, add up to
        // the summary's; some interval ends find planes holding writes.
        let held = result.gc.host_writes_held.as_ref().expect("device-wide");
        assert!(held.programs_held > 0, "{held:?}");
        assert_eq!(sum(&series.programs_held), held.programs_held);
        assert!(
            series.planes_holding_writes.iter().any(|&planes| planes > 0)
                && series.planes_holding_writes.iter().all(|&planes| planes <= held.max_planes_blocked as u64)
        );
        let n = series.start_ms.len();
        assert!(
            n > 10
                && [series.read.p99_us.len(), series.free_blocks.len(), series.soft_reads.len()]
                    .iter()
                    .all(|&len| len == n)
        );
        // Utilisation per interval adds up to the run's: busy time booked in all intervals over the
        // run's simulated time.
        let interval_s = series.interval_ns as f64 / 1e9;
        for (column, mean) in [
            (&series.die_utilisation, result.utilisation.die),
            (&series.channel_utilisation, result.utilisation.channel),
        ] {
            let booked: f64 = column.iter().map(|u| u * interval_s).sum();
            assert!(
                (booked - mean * result.simulated_seconds).abs() <= 1e-6 * booked.max(1e-9),
                "{booked} vs {mean} x {}",
                result.simulated_seconds
            );
            assert!(column.iter().any(|&u| u > 0.0));
        }
        // Per interval, p50 <= p99 <= max (within the histogram's bin width).
        for i in 0..n {
            assert!(
                series.read.p50_us[i] <= series.read.p99_us[i] + 1e-9
                    && series.read.p99_us[i] <= series.read.max_us[i] + 1e-9,
                "interval {i}"
            );
        }
    }
    // Without the setting there is no series; a bad interval names its field.
    assert!(run(&small_config(&workload, &[]), &mut no_progress()).unwrap().time_series.is_none());
    let error =
        small_config_result(&workload, &["output.time_series_interval_ms=0"]).expect_err("zero interval").to_string();
    assert!(error.contains("output.time_series_interval_ms"), "{error}");
}

#[test]
fn the_request_log_has_one_row_per_completed_request() {
    let workload = synthetic(
        5_000,
        0.5,
        8 << 20,
        "{ distribution = \"uniform\" }",
        "{ distribution = \"choice\", bytes = [4096, 16384], weights = [0.5, 0.5] }",
    );
    let dir = std::env::temp_dir().join(format!("ssdlab-request-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("requests.csv");
    let overrides = [
        format!("output.request_log_path={:?}", path.display().to_string()),
        "workload.synthetic.delete_fraction=0.1".to_string(),
    ];
    let overrides: Vec<&str> = overrides.iter().map(String::as_str).collect();
    let result = run(&small_config(&workload, &overrides), &mut no_progress()).unwrap_or_else(|e| panic!("{e}"));
    let log = result.request_log.as_ref().expect("written");
    assert_eq!(log.rows, result.requests_completed);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "request,op,offset_bytes,size_bytes,pages,arrival_ns,issue_ns,completion_ns,latency_ns,soft_reads,\
             gc_pages_copied,host_queue_ns,before_flash_ns,die_wait_ns,array_ns,channel_wait_ns,channel_ns,dram_ns,\
             controller_ns"
        )
    );
    // The latency's breakdown (the last eight columns) adds up to the latency.
    for line in text.lines().skip(1) {
        let fields: Vec<u64> = line.split(',').skip(8).filter_map(|field| field.parse().ok()).collect();
        assert_eq!(fields.len(), 11, "{line}");
        assert_eq!(fields[3..].iter().sum::<u64>(), fields[0], "{line}");
    }
    // request, op, offset, size, pages, arrival, issue, completion, latency (flags after them).
    let rows: Vec<(u64, String, [u64; 7])> = lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let number = |i: usize| fields[i].parse::<u64>().unwrap_or_else(|_| panic!("{line}"));
            (
                number(0),
                fields[1].to_string(),
                [number(2), number(3), number(4), number(5), number(6), number(7), number(8)],
            )
        })
        .collect();
    assert_eq!(rows.len() as u64, result.requests_completed);
    let mut indices: Vec<u64> = rows.iter().map(|row| row.0).collect();
    indices.sort_unstable();
    assert_eq!(indices, (1..=result.requests_completed).collect::<Vec<_>>(), "every request once");
    let bytes = |op: &str| rows.iter().filter(|row| row.1 == op).map(|row| row.2[1]).sum::<u64>();
    assert_eq!((bytes("R"), bytes("W")), (result.read.bytes, result.write.bytes));
    assert_eq!(rows.iter().filter(|row| row.1 == "D").count() as u64, result.data_path.deletes.requests);
    for (_, _, [_, _, _, arrival, issue, completion, latency]) in &rows {
        assert!(
            issue >= arrival && completion >= issue && *latency == completion - arrival,
            "{arrival} {issue} {completion} {latency}"
        );
    }
    let bad = small_config_result(&workload, &["output.request_log_path=\"/nonexistent-folder/x.csv\""])
        .and_then(|c| ssdlab_ssd::Simulation::new(&c).map(|_| ()));
    assert!(bad.expect_err("unwritable").to_string().contains("output.request_log_path"));
}
