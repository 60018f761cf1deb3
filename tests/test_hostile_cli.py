"""The command line's outputs, options and recipe inputs under hostile values (issue 48, items 12-15
and 18): a clean error with exit 2 naming the option before any simulation, or, for a write that fails
after one, exit 1 saying where the result was saved instead. Never a traceback, never silence."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ssdlab import flows_interference, optimize, outputs, sweep
from ssdlab.optimize import Axis, search
from ssdlab.sweep import Sweep, SweepError, run_sweep

# Wide enough that no message is wrapped (a path split over two lines cannot be read back).
WIDE = {"COLUMNS": "1000"}
TINY = "workload.synthetic.requests=300"


def assert_clean(done, code: int, *words: str) -> None:
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def run_with_timeout(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The CLI with a deadline: a command that blocks (on a FIFO) fails the test instead of hanging it."""
    env = {**{key: value for key, value in os.environ.items() if key != "COLUMNS"}, **WIDE}
    return subprocess.run([sys.executable, "-m", "ssdlab", *args], capture_output=True, text=True, env=env, timeout=timeout, check=False)


def rescued_path(stderr: str) -> Path:
    found = re.search(r"saved to (\S+) instead", stderr)
    assert found, stderr
    return Path(found.group(1))


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    """An existing regular file, a FIFO and a character device: none of them can be an output folder."""
    regular = tmp_path / "a-file"
    regular.write_text("keep me\n")
    fifo = tmp_path / "a-fifo"
    os.mkfifo(fifo)
    return {"regular file": regular, "FIFO": fifo, "character device": Path("/dev/null")}


@pytest.fixture
def sweep_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(f'name = "tiny"\nbase = "default"\nset = ["{TINY}"]\n[grid]\n"host.queue_depth" = [1, 2]\n')
    return path


# -- item 12: --out naming something that is not a folder; writes that fail after the work ----------


@pytest.mark.parametrize("what", ["regular file", "FIFO", "character device"])
def test_out_that_is_not_a_folder_is_refused_before_simulating(cli, specials, sweep_file: Path, what: str):
    target = str(specials[what])
    commands = {
        "sweep": ("sweep", str(sweep_file), "--out", target, "-q"),
        "optimize": ("optimize", "default", "--axis", "host.queue_depth=1:2:int:2", "--set", TINY, "--out", target, "-q"),
        "experiment": ("experiment", "flows-interference", "--writer-interarrival-us", "800", "--out", target),
        "reproduce": ("reproduce", "tlc-mlc", "--out", target, "-q"),
    }
    for name, args in commands.items():
        started = time.monotonic()
        done = cli(*args, env=WIDE)
        assert_clean(done, 2, f"--out {target}", "not a folder")
        assert time.monotonic() - started < 60, f"{name} must refuse before simulating"
    if what == "regular file":
        assert specials[what].read_text() == "keep me\n", "the file named by --out is left alone"


def test_out_under_a_file_names_the_file_in_the_way(cli, specials, sweep_file: Path):
    inside = specials["regular file"] / "results"
    done = cli("sweep", str(sweep_file), "--out", str(inside), "-q", env=WIDE)
    assert_clean(done, 2, f"{specials['regular file']} is a regular file, not a folder")


def test_json_onto_a_full_device_fails_cleanly_and_keeps_the_result(cli, tmp_path: Path):
    trace = tmp_path / "t.csv"
    trace.write_text("time_us,op,offset,size\n0,W,0,4096\n10,R,0,4096\n")
    for args, check in (
        (("run", "default", "--set", TINY, "-q"), lambda saved: saved["requests"] == 300),
        (("trace", "stats", str(trace)), lambda saved: saved["stats"]["requests"] == 2),
        (("ecc", "rber", "--pe", "1000", "--retention-hours", "1"), lambda saved: isinstance(saved, list) and saved),
    ):
        done = cli(*args, "--json", "/dev/full", env=WIDE)
        assert_clean(done, 1, "/dev/full", "No space left on device", "saved to")
        saved = rescued_path(done.stderr)
        try:
            assert check(json.loads(saved.read_text())), f"{args[0]}: the result saved instead is whole"
        finally:
            saved.unlink()


def test_write_text_failing_saves_the_text_elsewhere(tmp_path: Path):
    with pytest.raises(outputs.OutputFailed, match="No space left on device") as caught:
        outputs.write_text(Path("/dev/full"), '{"kept": true}\n')
    saved = rescued_path(str(caught.value))
    try:
        assert json.loads(saved.read_text()) == {"kept": True}
    finally:
        saved.unlink()


def test_experiment_whose_write_fails_after_its_runs_keeps_the_rows(tmp_path: Path, monkeypatch):
    """The rows of a finished experiment survive a failed write: saved elsewhere and named."""

    class Result:
        def to_dict(self):
            flows = [
                {"name": name, "requests": 1, "iops": 1.0, "all": {"latency_us": {"mean": 1.0, "p99": 2.0, "p999": 3.0}}}
                for name in ("reader", "writer")
            ]
            return {"flows": {"per_flow": flows, "fairness": 1.0}, "utilisation": {"die": 0.5}, "gc": {"blocks_erased": 0}}

    runs = []
    monkeypatch.setattr(flows_interference.api, "run", lambda preset, overrides: runs.append(overrides) or Result())

    def full_disk(out, rows):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(flows_interference, "write_outputs", full_disk)
    with pytest.raises(outputs.OutputFailed, match="No space left on device") as caught:
        flows_interference.run_experiment(
            tmp_path / "out", writer_interarrival_us=[800.0], arbitrations=["round_robin"], device_queue_depths=[16]
        )
    assert len(runs) == 1
    saved = rescued_path(str(caught.value))
    try:
        assert json.loads(saved.read_text())[0]["writer_interarrival_us"] == 800.0
    finally:
        saved.unlink()


def test_sweep_whose_combined_write_fails_keeps_every_row(tmp_path: Path, monkeypatch):
    def full_disk(out, rows):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sweep, "_write_combined", full_disk)
    tiny = Sweep(name="tiny", base="default", common=[TINY], grid={"host.queue_depth": [1]})
    with pytest.raises(outputs.OutputFailed, match="No space left on device") as caught:
        run_sweep(tiny, tmp_path / "out", workers=1)
    saved = rescued_path(str(caught.value))
    try:
        rows = json.loads(saved.read_text())
        assert len(rows) == 1 and rows[0]["status"] == "ok" and rows[0]["result"]["requests"] == 300
    finally:
        saved.unlink()
    assert len(list((tmp_path / "out" / "points").glob("*.parquet"))) == 1, "the point itself is stored"


# -- item 13: experiment flows-interference values -------------------------------------------------


@pytest.mark.parametrize(
    "option, value, fragment",
    [
        ("--writer-interarrival-us", "nan", "finite positive"),
        ("--writer-interarrival-us", "inf", "finite positive"),
        ("--writer-interarrival-us", "abc", "not a number"),
        ("--writer-interarrival-us", ",", "no value"),
        ("--writer-interarrival-us", "800,,400", "empty value"),
        ("--writer-interarrival-us", "800,800", "given more than once"),
        ("--writer-interarrival-us", "0.001", "5,000,000,000 writer requests per point; at most 5,000,000"),
        ("--writer-interarrival-us", "1e9", "the reader's span"),
        ("--device-queue-depth", "abc", "not a whole number"),
        ("--device-queue-depth", ",", "no value"),
        ("--device-queue-depth", "0", "at least 1"),
        ("--device-queue-depth", "99999999", "host.device_queue_depth"),
        ("--arbitration", "fastest", "expected one of round_robin, weighted_round_robin"),
    ],
)
def test_flows_interference_values_are_refused_before_simulating(cli, tmp_path: Path, option: str, value: str, fragment: str):
    out = tmp_path / "out"
    started = time.monotonic()
    done = cli("experiment", "flows-interference", option, value, "--out", str(out), env=WIDE)
    assert_clean(done, 2, option, fragment)
    assert time.monotonic() - started < 60 and not out.exists(), "nothing simulated, nothing written"


# -- item 14: recipe inputs, all checked before the first simulation -------------------------------


def _assert_refused_before_any_run(done, started: float, out: Path, *words: str) -> None:
    assert_clean(done, 2, *words)
    assert time.monotonic() - started < 60, "refused before the grid, not after it"
    assert not out.exists(), "no result written: nothing ran"
    assert "points run" not in done.stdout


def test_recipe_garbage_trace_is_refused_before_the_grid(cli, tmp_path: Path):
    garbage = tmp_path / "garbage.csv"
    garbage.write_text("not a trace at all\nnor this\n")
    for recipe, name in (("aoa-ecc", "prxy_1"), ("ldpc-read", "Finance1")):
        out = tmp_path / recipe
        started = time.monotonic()
        done = cli("reproduce", recipe, "-q", "--trace", f"{name}={garbage}", "--out", str(out), env=WIDE)
        _assert_refused_before_any_run(done, started, out, f"--trace {name}={garbage}", "cannot guess the trace format")


def test_recipe_reads_only_trace_and_bad_scale_are_refused(cli, tmp_path: Path):
    reads = tmp_path / "reads.csv"
    reads.write_text("time_us,op,offset,size\n0,R,0,4096\n10,R,4096,4096\n")
    for args, words in (
        (("scm-hybrid", "--trace", f"financial1={reads}"), ("the trace has no write (2 reads)",)),
        (("tlc-mlc", "--trace", f"prxy_1={reads}"), ("the trace has no write",)),
        (("scm-hybrid", "--scale", "nan"), ("--scale nan", "finite positive")),
        (("scm-hybrid", "--scale", "0"), ("--scale 0", "finite positive")),
    ):
        out = tmp_path / "out"
        started = time.monotonic()
        done = cli("reproduce", *args, "-q", "--out", str(out), env=WIDE)
        _assert_refused_before_any_run(done, started, out, *words)


def test_recipe_trace_given_twice_or_for_a_left_out_workload_is_refused(cli, tmp_path: Path):
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    for path in (first, second):
        path.write_text("time_us,op,offset,size\n0,W,0,4096\n")
    out = tmp_path / "out"
    started = time.monotonic()
    done = cli("reproduce", "scm-hybrid", "-q", "--trace", f"financial1={first}", "--trace", f"Financial1={second}", "--out", str(out))
    _assert_refused_before_any_run(done, started, out, "--trace financial1: given twice")
    done = cli("reproduce", "ldpc-read", "-q", "--workloads", "WebSearch", "--trace", f"Finance1={first}", "--out", str(out), env=WIDE)
    _assert_refused_before_any_run(done, started, out, "Finance1 is not among --workloads")
    done = cli("reproduce", "ldpc-read", "-q", "--workloads", ",", "--out", str(out))
    _assert_refused_before_any_run(done, started, out, "--workloads: no workload named")


# -- item 15: scheduler addresses; FIFOs and folders as traces -------------------------------------


@pytest.mark.parametrize("address", ["notaurl", "tcp://host", "tcp://host:99999", "http://host:8786", "tcp://:8786", ""])
def test_bad_scheduler_addresses_are_refused(address: str):
    with pytest.raises(SweepError, match="Dask scheduler address"):
        sweep.check_scheduler(address)


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "tls://host.example:8786", "tcp://[::1]:8786", "inproc://x"])
def test_scheduler_addresses_dask_accepts_pass(address: str):
    sweep.check_scheduler(address)


def test_sweep_with_a_bad_scheduler_is_refused_before_anything(cli, tmp_path: Path, sweep_file: Path):
    out = tmp_path / "out"
    done = cli("sweep", str(sweep_file), "--scheduler", "notaurl", "--out", str(out))
    assert_clean(done, 2, "--scheduler 'notaurl'", "tcp://host:8786")
    assert not out.exists()
    done = cli("reproduce", "tlc-mlc", "-q", "--scheduler", "notaurl", "--out", str(out))
    assert_clean(done, 2, "--scheduler 'notaurl'")


def test_a_fifo_or_folder_as_a_trace_is_refused_by_what_it_is(tmp_path: Path):
    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    for path, what in ((fifo, "is a FIFO"), (tmp_path, "is a folder")):
        for args in (("run", "default", "--trace", str(path), "-q"), ("trace", "stats", str(path))):
            assert_clean(run_with_timeout(*args, timeout=60), 2, str(path), what, "not a regular file")
        done = run_with_timeout("reproduce", "tlc-mlc", "-q", "--trace", f"prxy_1={path}", "--out", str(tmp_path / "out"), timeout=60)
        assert_clean(done, 2, what)
        assert "no such trace file" not in done.stderr


# -- item 18: optimize axes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("x=1:4:int:2:9", "5 fields"),
        ("x=1:4:3:9", "4 fields"),
        ("x=1:4:2:int", "4 fields"),
        ("x=1:4:int:int", "given once, before N"),
        ("x=1.5:3.5:int", "an int axis needs integer bounds, got LOW 1.5 and HIGH 3.5"),
        ("x=1:3.5:int:3", "integer bounds"),
        ("x=nan:3", "finite"),
    ],
)
def test_malformed_axes_are_refused_with_the_expected_form(text: str, fragment: str):
    with pytest.raises(SweepError, match=re.escape(fragment)):
        Axis.parse(text)


def test_well_formed_axes_still_parse():
    assert Axis.parse("x=1:7:int:4") == Axis("x", 1.0, 7.0, True, 4)
    assert Axis.parse("x=0.5:2.5") == Axis("x", 0.5, 2.5, False, 5)
    assert Axis.parse("x=0.5:2.5:3") == Axis("x", 0.5, 2.5, False, 3)


def test_duplicate_axes_are_refused():
    with pytest.raises(SweepError, match="x: given more than once"):
        optimize.parse_axes(["x=1:4:int", "x=2:3:int"])
    with pytest.raises(SweepError, match="given more than once"):
        search([Axis("x", 1, 2), Axis("x", 3, 4)], lambda points: [0.0 for _ in points])


def test_optimize_refuses_malformed_axes_on_the_command_line(cli, tmp_path: Path):
    out = tmp_path / "out"
    for axes, fragment in (
        (["host.queue_depth=1:4:int:2:9"], "expected KEY=LOW:HIGH[:int][:N]"),
        (["host.queue_depth=1:4:int", "host.queue_depth=2:3:int"], "--axis host.queue_depth: given more than once"),
        (["host.queue_depth=1.5:3.5:int"], "an int axis needs integer bounds"),
    ):
        args = [part for axis in axes for part in ("--axis", axis)]
        done = cli("optimize", "default", *args, "--set", TINY, "--out", str(out), env=WIDE)
        assert_clean(done, 2, fragment)
        assert not out.exists()
