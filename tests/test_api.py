"""The Python API: result objects, exceptions, determinism, one boundary crossing per run."""

from __future__ import annotations

import json

import pytest

import ssdlab

WALL_CLOCK_FIELDS = {"wall_seconds", "replay_cpu_seconds", "requests_per_wall_second", "requests_per_cpu_second", "phases"}


def _without_wall_clock(result: ssdlab.RunResult) -> dict:
    data = result.to_dict()
    for field in WALL_CLOCK_FIELDS:
        data.pop(field)
    data["precondition"].pop("wall_seconds")
    return data


def test_run_returns_attribute_access_result():
    result = ssdlab.run("default", overrides=["workload.synthetic.requests=3000"])
    assert result.requests == 3000
    assert result.read.latency_us.p99 >= result.read.latency_us.p50 > 0
    assert result["gc"]["invocations"] == result.gc.invocations
    assert json.loads(result.to_json())["requests"] == 3000


def test_same_config_and_seed_give_identical_results():
    overrides = ["workload.synthetic.requests=20000", "ftl.overprovisioning_fraction=0.1", "workload.synthetic.span_bytes=943718400"]
    first = ssdlab.run("bench-gc-steady", overrides=[*overrides, "device.geometry.blocks_per_plane=64"])
    second = ssdlab.run("bench-gc-steady", overrides=[*overrides, "device.geometry.blocks_per_plane=64"])
    assert first.gc.invocations > 0, "the run should exercise garbage collection"
    assert _without_wall_clock(first) == _without_wall_clock(second)


def test_different_seed_changes_the_workload():
    first = ssdlab.run("default", overrides=["workload.synthetic.requests=3000", "seed=1"])
    second = ssdlab.run("default", overrides=["workload.synthetic.requests=3000", "seed=2"])
    assert first.read.count != second.read.count or first.all.latency_us.mean != second.all.latency_us.mean


def test_configuration_error_is_a_python_exception():
    with pytest.raises(ssdlab.ConfigurationError, match="blocks_per_plane"):
        ssdlab.run("default", overrides=["device.geometry.blocks_per_plane=-3"])
    assert issubclass(ssdlab.ConfigurationError, ssdlab.SsdlabError)
    assert issubclass(ssdlab.TraceError, ssdlab.SsdlabError)


def test_run_text_reports_the_origin_in_errors():
    text = ssdlab.load_config("default").replace("[ftl]\n", "[ftl]\nbogus_key = 1\n", 1)
    with pytest.raises(ssdlab.ConfigurationError, match="notebook-cell"):
        ssdlab.api.run_text(text, origin="notebook-cell")


def test_load_config_round_trips():
    text = ssdlab.load_config("seed002-ldpc")
    result = ssdlab.api.run_text(text, overrides=["workload.synthetic.requests=2000"])
    assert result.requests == 2000


def test_progress_callback_sees_the_total():
    seen: list[tuple[int, int]] = []
    ssdlab.run("default", overrides=["workload.synthetic.requests=150000"], progress=lambda done, total: seen.append((done, total)))
    assert seen, "a run of 150,000 requests reports progress"
    assert all(total == 150000 for _, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_progress_covers_every_phase_of_a_trace_run(tmp_path):
    """Trace scan (no total), preconditioning and replay each report, in that order, with a three-argument callback."""
    trace = tmp_path / "t.trace"
    from ssdlab import api

    api.export_workload("mqsim-default", trace, to="mqsim", overrides=["workload.synthetic.requests=200000"])
    seen: list[tuple[int, int, str]] = []
    ssdlab.run("mqsim-default", trace=trace, trace_format="mqsim", progress=lambda done, total, phase: seen.append((done, total, phase)))
    phases = [phase for _, _, phase in seen]
    assert phases == sorted(phases, key=["scan", "precondition", "replay"].index), "phases come in order"
    assert {"scan", "precondition", "replay"} == set(phases)
    assert all(total == 0 for _, total, phase in seen if phase == "scan")
    precondition = [(done, total) for done, total, phase in seen if phase == "precondition"]
    assert precondition[-1][0] == precondition[-1][1] > 0
    assert seen[-1] == (200000, 200000, "replay")


def test_exception_in_progress_callback_stops_the_run():
    def boom(done: int, total: int) -> None:
        raise ValueError("stop here")

    with pytest.raises(ValueError, match="stop here"):
        ssdlab.run("default", overrides=["workload.synthetic.requests=150000"], progress=boom)


def test_preset_names():
    assert {"default", "mqsim-default", "seed002-ldpc", "seed003-scrambler", "bench-gc-steady", "mlc-tlc-demo"} <= set(
        ssdlab.preset_names()
    )


def test_a_run_is_one_row_with_a_sweep_rows_columns(tmp_path):
    from ssdlab.sweep import Sweep, run_sweep

    overrides = ["workload.synthetic.requests=2000"]
    result = ssdlab.run("default", overrides=overrides)
    row = result.flat()
    frame = result.to_polars()
    assert frame.height == 1 and set(frame.columns) == set(row)
    outcome = run_sweep(Sweep(name="one", base="default", common=overrides, cases={"only": {"point": []}}), tmp_path / "sweep", workers=1)
    swept = {key: value for key, value in outcome.rows[0].items() if key.startswith("result.")}
    assert set(swept) == set(row)
    timing = ("seconds", "per_cpu_second", "per_wall_second", "memory_bytes")
    for key, value in row.items():
        if not any(word in key for word in timing):
            assert swept[key] == value, key
    html = result._repr_html_()
    assert "<table>" in html and "2,000 requests" in html


def test_a_notebook_run_draws_a_bar_by_default(monkeypatch):
    from ssdlab import api

    assert not api.in_notebook()  # pytest is no Jupyter kernel
    updates = []
    monkeypatch.setattr(api, "in_notebook", lambda: True)
    monkeypatch.setattr(api._NotebookBar, "update", lambda self, done, total, phase="replay": updates.append((done, total)))
    result = api.run("default", overrides=["workload.synthetic.requests=70000"])
    assert result.requests == 70000 and updates and updates[-1][1] == 70000
    updates.clear()
    api.run("default", overrides=["workload.synthetic.requests=70000"], progress=False)
    assert not updates, "progress=False turns the bar off"
