//! Hostile input: every line and config value that once wrapped around, allocated without bound or
//! ran for ever ends in a clean error naming the file, line and field, before any per-page work.
//! The trace lines live in tests/corpus/hostile (also replayed through the CLI by the Python tests).

mod common;
use common::*;
use ssdlab_ssd::{run, SimulationConfig, SimulationError};
use std::path::PathBuf;
use std::time::Instant;

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/hostile").join(name)
}

fn run_trace(path: &std::path::Path, overrides: &[&str]) -> SimulationError {
    let workload = format!("[workload.trace]\npath = {:?}\n", path.display().to_string());
    let started = Instant::now();
    let error = run(&small_config(&workload, overrides), &mut no_progress()).expect_err("must fail");
    assert!(started.elapsed().as_secs_f64() < 5.0, "took {:?}: per-page work before the check?", started.elapsed());
    error
}

#[test]
fn every_corpus_line_fails_cleanly_with_its_line_and_field() {
    let expected = [
        ("wrap_offset_plus_size.csv", ":2: field `size`", "2^64"),
        ("size_near_2_64.csv", ":2: field `size`", "largest request accepted"),
        ("one_tebibyte_request.csv", ":3: field `size`", "largest request accepted"),
        ("offset_beyond_device.csv", ":3: field `offset`", "12582912 bytes"),
        ("unknown_op.csv", ":3: field `op`", "expected R, W"),
    ];
    let mut seen = 0;
    for entry in std::fs::read_dir(corpus("")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "csv") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (_, location, words) = expected
            .iter()
            .find(|(file, _, _)| *file == name)
            .unwrap_or_else(|| panic!("{name}: add its expected error here"));
        let message = run_trace(&path, &["ftl.precondition.enabled=false"]).to_string();
        assert!(message.contains(&format!("{name}{location}")) && message.contains(words), "{name}: {message}");
        seen += 1;
    }
    assert_eq!(seen, expected.len());
}

#[test]
fn the_capacity_message_names_the_device_not_the_page_limit() {
    // The device holds 12 MiB logically; the old message named the 32-bit page limit instead.
    let message = run_trace(&corpus("offset_beyond_device.csv"), &[]).to_string();
    assert!(message.contains("logical capacity of 12582912 bytes"), "{message}");
    // Sized to the footprint, the limit is the model's address space, and it says so.
    let message = run_trace(&corpus("offset_beyond_device.csv"), &["ftl.sizing=\"footprint\""]).to_string();
    assert!(message.contains("largest logical space ssdlab models"), "{message}");
}

#[test]
fn a_raised_request_limit_is_honoured() {
    // 1 TiB is accepted when the limit is raised, and then the device is what is too small.
    let workload = format!(
        "[workload.trace]\npath = {:?}\nmax_request_bytes = 2199023255552\n",
        corpus("one_tebibyte_request.csv").display().to_string()
    );
    let error = run(&small_config(&workload, &[]), &mut no_progress()).unwrap_err().to_string();
    assert!(error.contains("logical capacity"), "{error}");
}

#[test]
fn mqsim_and_ssdsim_op_codes_other_than_0_and_1_are_rejected() {
    let dir = std::env::temp_dir().join(format!("ssdlab-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (format, code) in [("mqsim", 9), ("ssdsim", 7)] {
        let path = dir.join(format!("{format}.trace"));
        std::fs::write(&path, format!("0 0 0 8 0\n1000 0 8 8 {code}\n")).unwrap();
        let workload = format!("[workload.trace]\npath = {:?}\nformat = \"{format}\"\n", path.display().to_string());
        let error = run(&small_config(&workload, &[]), &mut no_progress()).unwrap_err().to_string();
        assert!(error.contains(":2: field `op`") && error.contains(&format!("found {code}")), "{format}: {error}");
    }
}

#[test]
fn run_for_ever_and_out_of_memory_configs_are_refused_before_starting() {
    let workload =
        synthetic(1_000, 0.5, 1 << 20, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    let cases: [(&[&str], &str); 3] = [
        (&["workload.synthetic.requests=1000000000000000000"], "workload.synthetic.requests"),
        (&["host.loops=4294967295"], "host.loops"),
        (&["ftl.precondition.overwrite_passes=1000000000"], "ftl.precondition.overwrite_passes"),
    ];
    for (overrides, field) in cases {
        let started = Instant::now();
        let error = run(&small_config(&workload, overrides), &mut no_progress()).unwrap_err().to_string();
        assert!(error.contains(field), "{overrides:?}: {error}");
        assert!(started.elapsed().as_secs_f64() < 2.0);
    }
    // 2^31 pages sized to the footprint: far more model state than any test machine has.
    let huge =
        synthetic(1_000, 0.5, 1 << 43, "{ distribution = \"uniform\" }", "{ distribution = \"fixed\", bytes = 4096 }");
    let config = SimulationConfig::from_toml_str(
        &format!("{SMALL_DEVICE}\n{huge}"),
        "huge.toml",
        &["ftl.sizing=\"footprint\"".into()],
    )
    .unwrap();
    let started = Instant::now();
    let error = run(&config, &mut no_progress()).unwrap_err().to_string();
    assert!(error.contains("workload.synthetic.span_bytes") && error.contains("GB"), "{error}");
    assert!(started.elapsed().as_secs_f64() < 2.0);
}
