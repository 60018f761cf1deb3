"""The search on the sweep engine: coarse grid then refinement, resumable, and its command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssdlab.optimize import Axis, search
from ssdlab.sweep import SweepError


def test_search_refines_to_the_optimum_of_an_integer_surface():
    calls: list[dict[str, float]] = []

    def evaluate(points):
        calls.extend(points)
        return [-((p["x"] - 6) ** 2) - (p["y"] - 2) ** 2 for p in points]

    result = search([Axis("x", 1, 16, integer=True, coarse=4), Axis("y", 1, 8, integer=True, coarse=3)], evaluate, rounds=6)
    assert result.best is not None and result.best.point == {"x": 6.0, "y": 2.0} and result.best.value == 0
    # The coarse grid, then only neighbours: far fewer evaluations than the full 16 x 8 grid, none twice.
    assert len(calls) == len({tuple(sorted(p.items())) for p in calls}) < 16 * 8 / 2
    assert {e.round for e in result.history} >= {0, 1}


def test_search_minimises_and_ignores_failed_points():
    result = search(
        [Axis("x", 0.0, 1.0, coarse=5)],
        lambda points: [None if p["x"] == 0.0 else abs(p["x"] - 0.3) for p in points],
        maximize=False,
        rounds=4,
    )
    assert result.best is not None and abs(result.best.point["x"] - 0.3) < 0.07


@pytest.mark.parametrize("text", ["x", "x=1", "x=a:b", "x=3:1", "x=1:2:int:1", "x=1:2:int:z"])
def test_bad_axes_are_refused(text):
    with pytest.raises(SweepError):
        Axis.parse(text)


def test_optimize_command_finds_the_best_queue_depth_and_resumes(cli, tmp_path: Path):
    out = tmp_path / "search"
    args = (
        "optimize",
        "default",
        "--axis",
        "host.queue_depth=1:16:int:3",
        "--objective",
        "result.all.iops",
        "--rounds",
        "2",
        "--out",
        str(out),
        "--set",
        'host.mode="closed_loop"',
        "--set",
        "workload.synthetic.requests=3000",
        "--set",
        "ftl.precondition.enabled=false",
        "--workers",
        "2",
    )
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "search.json").read_text())
    # A deeper queue keeps more dies busy: the best depth is the deepest tried.
    assert summary["best"] == {"host.queue_depth": 16.0} and summary["evaluations"] >= 3
    assert (out / "surface.png").stat().st_size > 1000
    points = len(list((out / "points" / "points").glob("*.parquet")))
    again = cli(*args, "--quiet")
    assert again.returncode == 0 and len(list((out / "points" / "points").glob("*.parquet"))) == points, "a rerun computes nothing new"
    bad = cli(
        "optimize",
        "default",
        "--axis",
        "host.queue_depth=1:4:int:2",
        "--objective",
        "result.nosuch",
        "--out",
        str(tmp_path / "bad"),
        "--set",
        "workload.synthetic.requests=500",
    )
    assert bad.returncode != 0 and "no such result column" in bad.stderr
