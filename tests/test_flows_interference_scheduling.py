"""The flows interference experiment across transaction scheduling policies and program/erase
suspension (issue 49 items 3 and 4, docs/flows.md "Scheduling policies and suspension"): its options
are refused with exit 2 and the expected form before any simulation, `--compare-scheduling` fills only
the axes not given, and a write-heavy point shows MQSim's out-of-order scheduling shortening the
reader's tail, with the die queues' statistics in the row."""

from __future__ import annotations

import time
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from ssdlab import api, flows_interference
from ssdlab.cli import app
from ssdlab.usage import UsageError

WIDE = {"COLUMNS": "1000"}
# A write-heavy point: 10,000 writer IOPS, past half the drive's write bandwidth (docs/flows.md), so
# writes queue at the dies and the reader waits behind them under first come, first served.
WRITE_HEAVY_US = 100.0
# The shrunken point: the writer over a fifth of the reader's span (10,000 writes instead of 50,000),
# and no runs of each flow alone; the reader's 25,000 requests are the preset's (its table is in the
# list host.flows, which overrides do not index).
WRITER_REQUESTS = 10_000


@pytest.mark.parametrize(
    "option, value, fragment",
    [
        ("--policies", "fastest", "expected one of fifo, out_of_order, priority_out_of_order, flin"),
        ("--policies", ",", "no value; give names from fifo, out_of_order, priority_out_of_order, flin"),
        ("--policies", "fifo,,out_of_order", "an empty value between commas"),
        ("--policies", "fifo,out_of_order,fifo", "fifo given more than once"),
        ("--suspension", "always", "expected one of none, program, erase, program_and_erase"),
        ("--suspension", "", "no value; give names from none, program, erase, program_and_erase"),
        ("--suspension", "none,none", "none given more than once"),
    ],
)
def test_scheduling_values_are_refused_before_simulating(cli, tmp_path: Path, option: str, value: str, fragment: str):
    out = tmp_path / "out"
    started = time.monotonic()
    done = cli("experiment", "flows-interference", "--compare-scheduling", option, value, "--out", str(out), env=WIDE)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and option in done.stderr and fragment in done.stderr, done.stderr
    assert time.monotonic() - started < 60 and not out.exists(), "nothing simulated, nothing written"


def test_the_python_entry_point_checks_the_scheduling_axes_too(tmp_path: Path):
    for policies, suspensions, fragment in (
        ((), ("none",), "--policies: no value"),
        (("fifo",), ("sometimes",), "--suspension 'sometimes': expected one of"),
        (("out_of_order", "out_of_order"), ("none",), "--policies out_of_order: given more than once"),
    ):
        with pytest.raises(UsageError, match=fragment):
            flows_interference.run_experiment(tmp_path / "out", writer_interarrival_us=[800.0], policies=policies, suspensions=suspensions)
    assert not (tmp_path / "out").exists()


def _axes_the_cli_passes(monkeypatch, *options: str) -> dict:
    """The axes `experiment flows-interference OPTIONS` hands to run_experiment (which is replaced:
    nothing runs)."""
    seen: dict = {}
    monkeypatch.setattr(flows_interference, "run_experiment", lambda out, **axes: seen.update(axes) or [])
    done = CliRunner().invoke(app, ["experiment", "flows-interference", *options, "--out", "unused"])
    assert done.exit_code == 0, done.output
    return seen


def test_compare_scheduling_fills_only_the_axes_not_given(monkeypatch):
    default = _axes_the_cli_passes(monkeypatch)
    assert (default["policies"], default["suspensions"]) == (["fifo"], ["none"])
    assert (list(default["arbitrations"]), default["device_queue_depths"]) == (["round_robin", "weighted_round_robin"], [65535, 16])
    compared = _axes_the_cli_passes(monkeypatch, "--compare-scheduling")
    assert compared["policies"] == ["fifo", "out_of_order", "priority_out_of_order"]
    assert compared["suspensions"] == ["none", "program_and_erase"]
    assert (compared["arbitrations"], compared["device_queue_depths"]) == (["weighted_round_robin"], [65535])
    given = _axes_the_cli_passes(
        monkeypatch, "--compare-scheduling", "--arbitration", "round_robin", "--device-queue-depth", "16", "--suspension", "erase"
    )
    assert (given["arbitrations"], given["device_queue_depths"], given["suspensions"]) == (["round_robin"], [16], ["erase"])
    assert given["policies"] == ["fifo", "out_of_order", "priority_out_of_order"]


def _shrunken_point(policy: str, suspension: str) -> dict:
    """One write-heavy point through the experiment's own overrides and row, made smaller."""
    overrides = flows_interference.point_overrides(WRITE_HEAVY_US, "weighted_round_robin", 65535, policy, suspension)
    overrides = [item for item in overrides if not item.startswith("workload.synthetic.requests=")]
    overrides += [f"workload.synthetic.requests={WRITER_REQUESTS}", "host.queues.measure_alone=false"]
    result = api.run(flows_interference.PRESET, overrides=overrides).to_dict()
    return flows_interference.row_of(result, WRITE_HEAVY_US, "weighted_round_robin", 65535, policy, suspension)


@pytest.fixture(scope="module")
def write_heavy_rows() -> dict[tuple[str, str], dict]:
    settings = [("fifo", "none"), ("out_of_order", "none"), ("out_of_order", "program_and_erase")]
    return {setting: _shrunken_point(*setting) for setting in settings}


def test_out_of_order_shortens_the_readers_tail_under_heavy_writes(write_heavy_rows):
    fifo = write_heavy_rows[("fifo", "none")]
    out_of_order = write_heavy_rows[("out_of_order", "none")]
    assert out_of_order["reader_requests"] == fifo["reader_requests"] == flows_interference.READER_REQUESTS
    assert out_of_order["writer_requests"] == fifo["writer_requests"] == WRITER_REQUESTS
    # Reads no longer wait behind the writes queued at their die, only behind the program under way.
    assert out_of_order["reader_p99_us"] < 0.8 * fifo["reader_p99_us"], (out_of_order["reader_p99_us"], fifo["reader_p99_us"])
    assert out_of_order["reader_mean_us"] < fifo["reader_mean_us"]


def test_suspension_takes_the_program_under_way_off_the_readers_path(write_heavy_rows):
    queued = write_heavy_rows[("out_of_order", "none")]
    suspended = write_heavy_rows[("out_of_order", "program_and_erase")]
    # A read now waits at most a suspend time (100 us) and reads before it, not a 750 us program.
    assert suspended["reader_p99_us"] < 0.5 * queued["reader_p99_us"], (suspended["reader_p99_us"], queued["reader_p99_us"])
    assert suspended["scheduler_program_suspensions"] > 0 and queued["scheduler_program_suspensions"] == 0
    assert suspended["scheduler_resumes"] == suspended["scheduler_program_suspensions"] + suspended["scheduler_erase_suspensions"]
    assert suspended["scheduler_suspend_time_us"] == pytest.approx(100.0 * suspended["scheduler_program_suspensions"])


def test_rows_carry_the_setting_and_the_die_queue_statistics(write_heavy_rows, tmp_path: Path):
    fifo = write_heavy_rows[("fifo", "none")]
    queued = write_heavy_rows[("out_of_order", "none")]
    assert (fifo["scheduler_policy"], fifo["suspension"]) == ("fifo", "none")
    assert (queued["scheduler_policy"], queued["suspension"]) == ("out_of_order", "none")
    # The booking model keeps no queues, so a default row has no statistics; a queued one has them all.
    assert not any(key.startswith("scheduler_") and key != "scheduler_policy" for key in fifo)
    assert queued["scheduler_queued_operations"] > 0 and queued["scheduler_mean_queue_wait_us"] > 0
    assert queued["scheduler_longest_queue_wait_us"] >= queued["scheduler_mean_queue_wait_us"]
    rows = flows_interference._same_columns(list(write_heavy_rows.values()))
    figures = flows_interference.write_outputs(tmp_path, rows)
    table = pl.read_parquet(tmp_path / "flows-interference.parquet")
    assert table.height == 3 and table.columns == list(rows[0])
    assert table.filter(pl.col("scheduler_policy") == "fifo")["scheduler_queued_operations"].to_list() == [None]
    assert [path.name for path in figures] == ["flows-interference.png", "flows-interference.svg"]
    assert all(path.stat().st_size > 0 for path in figures)
