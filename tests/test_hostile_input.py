"""The command line under hostile input (issue 13): every line in tests/corpus/hostile, bad argument
values, unwritable outputs and broken pipes end in a clean error with the documented exit code, never
a traceback, and results are never lost after a finished simulation."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = sorted((REPO / "tests" / "corpus" / "hostile").glob("*.csv"))


def assert_clean(done, code: int, *words: str) -> None:
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


@pytest.mark.parametrize("trace", CORPUS, ids=[path.name for path in CORPUS])
def test_corpus_lines_fail_cleanly_in_run_and_trace_stats(cli, trace: Path):
    assert CORPUS, "the corpus must not be empty"
    done = cli("run", "default", "--trace", str(trace), "--format", "csv", "-q")
    assert_clean(done, 2, trace.name, "field")
    stats = cli("trace", "stats", str(trace), "--format", "csv")
    # A request beyond the device is a run's error; as a trace it is only large.
    if trace.name == "offset_beyond_device.csv":
        assert stats.returncode == 0, stats.stderr
    else:
        assert_clean(stats, 2, trace.name, "field")


def test_bad_argument_values_are_clean_errors(cli, tmp_path: Path):
    trace = tmp_path / "t.csv"
    trace.write_text("time_us,op,offset,size\n0,W,0,4096\n")
    assert_clean(cli("trace", "stats", str(trace), "--block-bytes", "-1"), 2, "--block-bytes")
    assert_clean(cli("trace", "stats", str(trace), "--block-bytes", "0"), 2, "--block-bytes")
    assert_clean(cli("trace", "stats", str(trace), "--block-bytes", "1000"), 2, "power of two")
    assert_clean(cli("bench", "z"), 2, "unknown bench scenario")
    sweep = tmp_path / "binary.toml"
    sweep.write_bytes(b"\xff\xfe\x00name")
    assert_clean(cli("sweep", str(sweep)), 2, "not UTF-8")


def test_unwritable_json_fails_before_simulating_and_writes_atomically(cli, tmp_path: Path):
    for target in (tmp_path, Path("/proc/ssdlab-cannot-write/result.json")):
        done = cli("run", "default", "--set", "workload.synthetic.requests=1000", "--json", str(target), "-q")
        assert_clean(done, 2, str(target))
        assert "simulating" not in done.stderr
    trace = tmp_path / "t.csv"
    trace.write_text("time_us,op,offset,size\n0,W,0,4096\n")
    assert_clean(cli("trace", "stats", str(trace), "--json", str(tmp_path)), 2, "is a folder")
    out = tmp_path / "deep" / "result.json"
    done = cli("run", "default", "--set", "workload.synthetic.requests=1000", "--json", str(out), "-q")
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["requests"] == 1000
    assert [p.name for p in out.parent.iterdir()] == ["result.json"], "no temporary file left behind"


def test_broken_pipe_is_quiet():
    shared = REPO.parent / "shared" / "traces" / "msr-web_0.segment100k.csv.gz"
    if not shared.exists():
        pytest.skip(f"{shared} not found (../shared/traces is not beside the checkout)")
    command = f"{shlex.quote(sys.executable)} -m ssdlab trace stats {shlex.quote(str(shared))} | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, check=False)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.returncode


def test_version_help_and_presets_list(cli):
    version = cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("ssdlab "), version
    help_text = cli("run", "--help").stdout
    assert "<bool>" not in help_text and "--quiet" in help_text
    listing = cli("presets", "list")
    assert listing.returncode == 0
    # Descriptions are whole (the opening comment block), not cut at the terminal width or a line.
    assert "…" not in listing.stdout
    flat = " ".join(listing.stdout.split())
    assert "Poisson arrivals 100 us apart." in flat and "closed loop at QD 32." in flat, flat


def test_reversed_timestamps_are_reported_by_trace_stats(cli, tmp_path: Path):
    trace = tmp_path / "r.csv"
    trace.write_text("time_us,op,offset,size\n10,W,0,4096\n5,W,4096,4096\n")
    done = cli("trace", "stats", str(trace))
    assert done.returncode == 0, done.stderr
    assert "decreasing timestamps" in done.stdout


def test_readme_gc_example_collects_garbage(cli, tmp_path: Path):
    """The README's GC example must show GC at work (issue 13: it used to run 0 invocations)."""
    readme = (REPO / "README.md").read_text()
    line = next(line for line in readme.splitlines() if line.startswith("ssdlab run ") and "garbage_collection.policy" in line)
    arguments = shlex.split(line.split("#")[0])[1:]
    out = tmp_path / "gc.json"
    done = cli(*arguments, "--set", "workload.synthetic.requests=20000", "--json", str(out), "-q")
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["gc"]["invocations"] > 0 and result["gc"]["pages_copied"] > 0, result["gc"]


def test_bench_repeats_interleaved_and_reports_the_best(cli, tmp_path: Path):
    out = tmp_path / "bench.json"
    done = cli("bench", "a", "--repeat", "2", "--json", str(out))
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(out.read_text())
    speeds = [run["requests_per_cpu_second"] for run in row["runs"]]
    assert len(speeds) == 2 and row["requests_per_cpu_second"] == max(speeds)
    assert row["requests_per_cpu_second_range"] == [min(speeds), max(speeds)]
    assert "best of 2" in done.stdout
    assert_clean(cli("bench", "a", "--repeat", "0"), 2, "--repeat")


def test_readme_time_series_example_shows_gc_over_time(cli, tmp_path: Path):
    """The README's time-series example must show GC spread over the run, and its plot must draw."""
    readme = (REPO / "README.md").read_text()
    line = next(line for line in readme.splitlines() if line.startswith("ssdlab run ") and "--time-series-ms" in line)
    arguments = [a for a in shlex.split(line.split("#")[0])[1:]]
    index = arguments.index("--json")
    arguments[index + 1] = str(tmp_path / "gc.json")
    done = cli(*arguments, "--set", "workload.synthetic.requests=30000", "-q")
    assert done.returncode == 0, done.stderr
    series = json.loads((tmp_path / "gc.json").read_text())["time_series"]
    assert sum(1 for copied in series["gc_pages_copied"] if copied > 0) > 3, series["gc_pages_copied"]
    assert (tmp_path / "gc.timeseries.parquet").exists()
    assert cli("plot", str(tmp_path / "gc.json")).returncode == 0
    assert (tmp_path / "gc.timeseries.png").exists()


def test_bench_memory_against_drive_size_reports_each_size(cli, tmp_path: Path):
    out = tmp_path / "m.json"
    # Short streams here (the bench's own are 25M and 100M requests).
    done = cli("bench", "m", "--repeat", "1", "--json", str(out), "--stream-requests", "300000,600000")
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(out.read_text())
    sizes = row["by_drive_size"]
    assert list(sizes) == ["32 GiB", "512 GiB", "4 TiB", "512 GiB, 300,000 requests", "512 GiB, 600,000 requests"]
    assert [run["requests"] for run in sizes.values()] == [200_000] * 3 + [300_000, 600_000]
    assert all(run["peak_rss_bytes"] > 0 for run in sizes.values())
    assert row["ratio_4tib_to_512gib"] == sizes["4 TiB"]["peak_rss_bytes"] / sizes["512 GiB"]["peak_rss_bytes"]
    # Memory flat in drive size (issue 17): blocks never opened cost no resident memory.
    assert row["ratio_4tib_to_512gib"] < 1.2
    assert "4 TiB / 512 GiB" in done.stdout and "long / short" in done.stdout
    assert_clean(cli("bench", "m", "--stream-requests", "5,2"), 2, "--stream-requests")


def test_readme_gc_mode_example_holds_writes_and_bad_modes_name_their_field(cli, tmp_path: Path):
    """The README's GC-mode example must show writes waiting for GC (result.gc.host_writes_held), and
    a wrong mode or hold threshold is a clean error naming its field."""
    readme = (REPO / "README.md").read_text()
    line = next(line for line in readme.splitlines() if line.startswith("ssdlab run ") and "garbage_collection.mode" in line)
    arguments = shlex.split(line.split("#")[0])[1:]
    out = tmp_path / "mode.json"
    done = cli(*arguments, "--set", "workload.synthetic.requests=20000", "--json", str(out))
    assert done.returncode == 0, done.stderr
    held = json.loads(out.read_text())["gc"]["host_writes_held"]
    assert held["mode"] == "foreground" and held["requests_held"] > 0 and held["wait_max_us"] > 0, held
    assert "write requests waited" in done.stdout, done.stdout
    bad_mode = cli("run", "default", "--set", 'ftl.garbage_collection.mode="sometimes"', "-q")
    assert_clean(bad_mode, 2, "ftl.garbage_collection.mode", "stop_servicing_writes")
    bad_threshold = cli("run", "mqsim-default", "--set", "ftl.garbage_collection.write_hold_threshold_blocks=103", "-q")
    assert_clean(bad_threshold, 2, "ftl.garbage_collection.write_hold_threshold_blocks", "low_watermark_blocks (102)")


# Issue 32, item 8: configurations that cannot run are refused (exit 2) or stop with a message (exit 1)
# instead of hanging or aborting out of memory.
def test_time_series_too_fine_for_the_run_is_refused_not_an_abort(cli):
    small = ("--set", "workload.synthetic.requests=2000", "--time-series-ms", "0.001", "-q")
    # The preset's event at 20 s decides it before the run: 20 million intervals of 1 us.
    done = cli("run", "mlc-tlc-demo", *small)
    assert_clean(done, 2, "output.time_series_interval_ms", "events[0].at_ns", "1000000")
    assert "simulating" not in done.stderr
    # Without events only the run can tell: it stops once it passes a million intervals.
    done = cli("run", "mlc-tlc-demo", "--set", "events=[]", *small)
    assert_clean(done, 1, "output.time_series_interval_ms", "1000000 intervals")


@pytest.mark.parametrize("scale", ["1e11", "1e15", "1e300"])
def test_retention_time_scale_beyond_the_clock_is_refused(cli, scale: str):
    done = cli(
        "run", "seed000-aoa", "--set", "workload.synthetic.requests=2000",
        "--set", f"read_path.retention_time_scale={scale}", "-q",
    )  # fmt: skip
    assert_clean(done, 2, "read_path.retention_time_scale", "at most 1e9")


def test_retiring_every_chip_of_the_write_tier_is_refused(cli):
    events = ", ".join(f'{{at_ns=100000000, action="retire_chip", chip={chip}}}' for chip in range(4))
    done = cli("run", "mlc-tlc-demo", "--set", "workload.synthetic.requests=2000", "--set", f"events=[{events}]", "-q")
    assert_clean(done, 2, "events[3].chip", "tier mlc")
    # Triggered by wear, only the run can tell: it stops at the first write with nowhere to go.
    worn = events.replace("at_ns=100000000", "at_erase_count=0.0")
    done = cli("run", "mlc-tlc-demo", "--set", "workload.synthetic.requests=2000", "--set", f"events=[{worn}]", "-q")
    assert_clean(done, 1, "tier mlc has no chip in service")


def test_host_time_scale_past_the_clock_is_refused(cli):
    done = cli("run", "default", "--set", "workload.synthetic.requests=2000", "--set", "host.time_scale=1e300", "-q")
    assert_clean(done, 2, "host.time_scale", "at most 1e6")
