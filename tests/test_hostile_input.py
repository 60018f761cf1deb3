"""The command line under hostile input (issue 13): every line in tests/corpus/hostile, bad argument
values, unwritable outputs and broken pipes end in a clean error with the documented exit code, never
a traceback, and results are never lost after a finished simulation."""

from __future__ import annotations

import json
import os
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
    # Messages wrap at the console's width: compared with every run of whitespace made one space.
    flat = " ".join(done.stderr.split())
    for word in words:
        assert " ".join(word.split()) in flat, done.stderr


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
    assert_clean(done, 2, "output.time_series_interval_ms", "events[0].at_ns", "the 100000 a time series holds")
    assert "simulating" not in done.stderr
    # Without events only the run can tell: it fails at its end, having passed the cap.
    done = cli("run", "mlc-tlc-demo", "--set", "events=[]", *small)
    assert_clean(done, 1, "output.time_series_interval_ms")
    assert "the 100000 intervals a time series holds" in " ".join(done.stderr.split()), done.stderr


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


# Issue 48: what a hostile user hit in the simulator itself (items 2, 6, 8-11, 15, 16). Each case is
# (arguments, exit code, fragments of the message); the files they need are written per test.
def _small_two_flows(tmp_path: Path, writer_extra: str = "") -> Path:
    """The two-flows preset with 2,000 requests per flow, `writer_extra` added to the writer's table."""
    text = (REPO / "configs" / "two-flows.toml").read_text().replace("requests = 25000", "requests = 2000")
    writer = 'name = "writer"\n'
    assert writer in text
    config = tmp_path / "two-flows-small.toml"
    config.write_text(text.replace(writer, writer + writer_extra))
    return config


def test_multi_flow_request_log_holds_the_shared_run_with_flow_and_queue(cli, tmp_path: Path):
    """Item 2: the log held one flow's rows from its measure-alone run; now the shared run, named."""
    log = tmp_path / "log.csv"
    out = tmp_path / "r.json"
    done = cli("run", str(_small_two_flows(tmp_path)), "--request-log", str(log), "--json", str(out), "-q")
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    header = lines[0].split(",")
    assert header[-2:] == ["flow", "submission_queue"], header
    rows = [dict(zip(header, line.split(","))) for line in lines[1:]]
    assert json.loads(out.read_text())["request_log"]["rows"] == len(rows) == 4000
    by_flow = {(row["flow"], row["submission_queue"]) for row in rows}
    assert by_flow == {("reader", "0"), ("writer", "1")}, by_flow
    assert sum(row["flow"] == "writer" and row["op"] == "W" for row in rows) == 2000


def test_time_series_cap_suggests_an_interval_that_works(cli, tmp_path: Path):
    """Item 6: the suggestion came from where the cap was passed, not the run's end, and failed again."""
    small = ("--set", "workload.synthetic.requests=2000", "-q")
    done = cli("run", "default", *small, "--time-series-ms", "0.001")
    assert_clean(done, 1, "output.time_series_interval_ms")
    message = " ".join(done.stderr.split())
    assert "the 100000 intervals a time series holds" in message, message
    suggested = message.split("use an interval of at least ")[1].split(" ms")[0]
    assert len(suggested) <= 8, f"a readable interval, not float noise: {suggested}"
    out = tmp_path / "r.json"
    retry = cli("run", "default", *small, "--time-series-ms", suggested, "--json", str(out))
    assert retry.returncode == 0, (suggested, retry.stderr)
    assert len(json.loads(out.read_text())["time_series"]["start_ms"]) <= 100_000


def test_time_series_near_its_cap_stays_within_bounded_memory(tmp_path: Path):
    """Item 11: a series near its cap (then a million intervals) peaked at 2.9 GB end to end."""
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run([sys.executable, '-m', 'ssdlab', 'run', 'default', '--set', 'workload.synthetic.requests=950',"
        " '--time-series-ms', '0.001', '--json', sys.argv[1], '-q'], check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = tmp_path / "r.json"
    done = subprocess.run([sys.executable, "-c", probe, str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    intervals = len(json.loads(out.read_text())["time_series"]["start_ms"])
    assert intervals > 90_000, intervals
    peak_bytes = int(done.stdout.split()[-1]) * 1024
    assert peak_bytes < 700 * 2**20, f"{peak_bytes / 2**20:.0f} MiB for {intervals} intervals"


def test_overlapping_suspend_and_copy_events_each_hold_the_host(cli, tmp_path: Path):
    """Item 8: a second suspend_and_copy during the first was never waited for."""
    events = ", ".join(f'{{at_ns=50000000, action="suspend_and_copy", chip={chip}}}' for chip in (0, 1))
    out = tmp_path / "r.json"
    done = cli(
        "run", "mlc-tlc-demo", "--set", "workload.synthetic.requests=3000", "--set", f"events=[{events}]",
        "--json", str(out), "-q",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = json.loads(out.read_text())["events"]
    assert len(records) == 2 and all(record["fired_at_ns"] is not None for record in records), records
    assert all(record["suspended_ns"] > 0 for record in records), records


@pytest.mark.parametrize(
    ("setting", "fragments"),
    [
        ('host.mode="closed_loop"', ["host.mode", "host.flows[i].mode"]),
        ("host.queue_depth=1", ["host.queue_depth", "host.flows[i].submission_queue_depth"]),
        ("host.time_scale=2.0", ["host.time_scale", "host.flows[i].time_scale"]),
    ],
)
def test_host_settings_flows_would_ignore_are_refused(cli, tmp_path: Path, setting: str, fragments: list[str]):
    """Item 9: with flows these ran byte-identical to the plain run."""
    done = cli("run", str(_small_two_flows(tmp_path)), "--set", setting, "-q")
    assert_clean(done, 2, *fragments)


def test_flow_offsets_never_wrap_past_the_address_space(cli, tmp_path: Path):
    """Item 10: offset plus lba_offset_bytes wrapped past 2^64 and replayed at small offsets, exit 0."""
    huge = cli("run", str(_small_two_flows(tmp_path, "lba_offset_bytes = 9223372036854775807\n")), "-q")
    assert_clean(huge, 2, "host.flows[1].lba_offset_bytes", "9223372036854775807")
    trace = tmp_path / "far.csv"
    trace.write_text(f"time_us,op,offset,size\n0,W,{2**64 - 8192},4096\n")
    extra = f"lba_offset_bytes = 8192\ntrace = {{ path = {json.dumps(str(trace))} }}\n"
    wrapped = cli("run", str(_small_two_flows(tmp_path, extra)), "-q")
    assert_clean(wrapped, 2, "flow `writer`", "beyond the device")


def test_a_fifo_as_a_flow_trace_is_refused_not_waited_on(tmp_path: Path):
    """Item 15: a FIFO as a trace blocked forever."""
    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    config = _small_two_flows(tmp_path, f"trace = {{ path = {json.dumps(str(fifo))} }}\n")
    command = [sys.executable, "-m", "ssdlab", "run", str(config), "-q"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert_clean(done, 2, "a FIFO (named pipe), not a regular file")


@pytest.mark.parametrize(
    ("setting", "field"),
    [
        ("workload.synthetic.arrival.mean_interarrival_ns=1e300", "arrival.mean_interarrival_ns"),
        ("device.channel.transfer_rate_mts=1e-300", "device.channel.transfer_rate_mts"),
        ("device.channel.io_voltage_v=1e300", "device.channel.io_voltage_v"),
        ("device.channel.pin_capacitance_pf=1e300", "device.channel.pin_capacitance_pf"),
    ],
)
def test_settings_that_push_time_or_energy_out_of_range_are_refused(cli, setting: str, field: str):
    """Item 16: these saturated the clock (0 us latencies) or the energy (`power_w: null`), exit 0."""
    done = cli("run", "default", "--set", "workload.synthetic.requests=2000", "--set", setting, "-q")
    # The value as given, not its 301 digits.
    assert_clean(done, 2, field, "got " + setting.split("=")[1])


def test_a_run_past_the_clock_range_is_refused_not_reported(cli, tmp_path: Path):
    """Item 16: arrivals scaled past u64 nanoseconds saturate; the run must not report 0 us latencies."""
    trace = tmp_path / "late.csv"
    trace.write_text("time_us,op,offset,size\n0,W,0,4096\n10000000000000,R,0,4096\n")
    done = cli("run", "default", "--trace", str(trace), "--set", "host.time_scale=1e6", "-q")
    assert_clean(done, 1, "simulated time reached", "years")


def test_ecc_curve_and_report_refuse_an_out_that_is_a_file_before_working(cli, tmp_path: Path):
    """Item 12: `ecc curve --out FILE` simulated the curve, then lost it on `File exists`."""
    taken = tmp_path / "taken"
    taken.write_text("not a folder")
    curve = cli("ecc", "curve", "quick", "--out", str(taken), "--no-cache", "-q")
    assert_clean(curve, 2, "--out", "not a folder")
    assert "curve point" not in curve.stderr, "refused before the curve was simulated"
    sweep_dir = tmp_path / "sweep"
    sweep_dir.mkdir()
    assert_clean(cli("report", str(sweep_dir), "--out", str(taken)), 2, "--out", "not a folder")


@pytest.mark.parametrize("workers", ["0", "-2"])
def test_sweep_workers_below_one_are_refused(cli, tmp_path: Path, workers: str):
    """Found beside issue 48: `--workers 0` or a negative count ran with one process, silently."""
    done = cli("sweep", str(REPO / "configs" / "sweeps" / "gc-policies.toml"), "--workers", workers, "--out", str(tmp_path / "s"))
    assert_clean(done, 2, "--workers")
    assert not (tmp_path / "s" / "points").exists()


def test_run_sweep_refuses_workers_below_one_before_any_point(tmp_path: Path):
    from ssdlab import sweep

    definition = sweep.Sweep.from_file(REPO / "configs" / "sweeps" / "gc-policies.toml")
    with pytest.raises(sweep.SweepError, match="at least 1"):
        sweep.run_sweep(definition, tmp_path / "s", workers=0)
