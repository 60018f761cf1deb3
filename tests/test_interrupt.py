"""Runs and sweeps stop when asked (issue 33): Ctrl-C (SIGINT) stops a run within a second or two
whether or not anyone watches its progress, leaves no partial output and exits 130; a sweep keeps
every finished point and stops its workers; a killed sweep leaves no worker or resource tracker
behind. Linux only (processes are found in /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find child processes")

# Seconds a run may take to stop after SIGINT: one progress interval (65,536 requests) plus
# interpreter exit, with room for a loaded 2-core machine.
STOP_SECONDS = 4.0


def _state_and_parent(pid: int) -> tuple[str, int] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def _descendants(root: int) -> set[int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = _state_and_parent(int(entry.name))
            if found is not None:
                parents[int(entry.name)] = found[1]
    found_ids: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found_ids
        found_ids |= frontier
    return found_ids


def _alive(pid: int) -> bool:
    found = _state_and_parent(pid)
    return found is not None and found[0] not in ("Z", "X")


def _wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(0.05)


def _start(*args: str, cwd: Path) -> subprocess.Popen:
    """Starts a process with its output in files beside `cwd` (never pipes: a worker left behind
    would hold a pipe open and hang the test instead of failing it)."""
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    logs = cwd.parent / f"{cwd.name}-logs"
    logs.mkdir(exist_ok=True)
    with open(logs / "stdout", "w") as stdout, open(logs / "stderr", "w") as stderr:
        return subprocess.Popen(args, cwd=cwd, env=env, stdout=stdout, stderr=stderr, text=True)


def _output(process: subprocess.Popen, cwd: Path, name: str) -> str:
    return (cwd.parent / f"{cwd.name}-logs" / name).read_text()


def _interrupt_and_time(process: subprocess.Popen, cwd: Path) -> tuple[float, str]:
    """Sends SIGINT; returns the seconds the process took to end and its error output."""
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    return time.monotonic() - sent, _output(process, cwd, "stderr")


def test_ctrl_c_stops_a_run_leaves_no_output_and_exits_130(tmp_path: Path):
    process = _start(
        sys.executable,
        "-m",
        "ssdlab",
        "run",
        "default",
        "--set",
        "workload.synthetic.requests=40000000",
        "--quiet",
        "--json",
        "out.json",
        "--request-log",
        "log.csv",
        cwd=tmp_path,
    )
    # The request log's temporary file appears when the replay starts.
    # The request log (or its temporary file) appears when the replay starts.
    _wait_for(lambda: any(tmp_path.iterdir()) or process.poll() is not None, 30, "the run to start")
    time.sleep(0.5)
    took, errors = _interrupt_and_time(process, tmp_path)
    assert process.returncode == 130, errors
    assert took < STOP_SECONDS, f"the run took {took:.1f} s to stop"
    assert sorted(path.name for path in tmp_path.iterdir()) == [], "an interrupted run left output behind"


def test_ctrl_c_stops_a_run_nobody_watches(tmp_path: Path):
    """``api.run`` without a progress callback (a script, a sweep's point) stops too: the native loop
    lets Python handle the signal every progress interval."""
    script = (
        "from ssdlab import api\nprint('started', flush=True)\napi.run('default', overrides=['workload.synthetic.requests=40000000'])\n"
    )
    process = _start(sys.executable, "-c", script, cwd=tmp_path)
    _wait_for(lambda: "started" in _output(process, tmp_path, "stdout") or process.poll() is not None, 30, "the run to start")
    time.sleep(1.5)
    took, errors = _interrupt_and_time(process, tmp_path)
    assert took < STOP_SECONDS, f"the run took {took:.1f} s to stop"
    assert "KeyboardInterrupt" in errors


def _sweep_file(folder: Path) -> Path:
    # Two short points finish first; the two long ones (tens of seconds) are still running when the
    # sweep is interrupted or killed.
    path = folder / "s.toml"
    path.write_text(
        'name = "interrupt"\nbase = "default"\nset = ["ftl.precondition.enabled=false"]\n'
        '[grid]\n"workload.synthetic.requests" = [20000, 20001, 40000000, 40000001]\n'
    )
    return path


def _start_sweep(tmp_path: Path) -> subprocess.Popen:
    sweep = _sweep_file(tmp_path)
    return _start(sys.executable, "-m", "ssdlab", "sweep", str(sweep), "--out", "out", "--workers", "2", "--quiet", cwd=tmp_path)


def _stored_points(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "out" / "points").glob("*.parquet")) if (tmp_path / "out" / "points").is_dir() else []


def test_ctrl_c_stops_a_sweep_keeps_finished_points_and_its_workers(tmp_path: Path):
    process = _start_sweep(tmp_path)
    workers: set[int] = set()
    try:
        _wait_for(lambda: len(_stored_points(tmp_path)) >= 2 or process.poll() is not None, 120, "the short points")
        time.sleep(0.5)
        workers = _descendants(process.pid)
        assert workers, "the sweep started no worker processes"
        took, errors = _interrupt_and_time(process, tmp_path)
        assert process.returncode == 130, errors
        assert took < STOP_SECONDS, f"the sweep took {took:.1f} s to stop"
        assert len(_stored_points(tmp_path)) == 2
    finally:
        if process.poll() is None:
            process.kill()
        _wait_for_end(workers, "the workers to end")


def test_a_killed_sweep_leaves_no_process_behind(tmp_path: Path):
    process = _start_sweep(tmp_path)
    workers: set[int] = set()
    try:
        _wait_for(lambda: len(_stored_points(tmp_path)) >= 2 or process.poll() is not None, 120, "the short points")
        workers = _descendants(process.pid)
        assert workers, "the sweep started no worker processes"
        process.kill()
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        _wait_for_end(workers, "the workers and resource tracker to end")


def _wait_for_end(processes: set[int], what: str) -> None:
    """Waits for the processes to end; any left after 5 s fail the test and are killed (they were
    started by it), so that they do not load the rest of the suite."""
    try:
        _wait_for(lambda: not any(_alive(pid) for pid in processes), 5, what)
    finally:
        for pid in processes:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
