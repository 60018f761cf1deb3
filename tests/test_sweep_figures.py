"""Issue 48 item 4: `ssdlab report` figures of a sweep with two axes are readable (one line per value of
the other axis, short labels, log scales over decades, only metrics that vary and exist, labels not
clipped), and a sweep's printed summary shows write latency when the sweep has writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from ssdlab import plotting, sweep_report
from ssdlab.sweep import Sweep, run_sweep

REPO = Path(__file__).resolve().parent.parent

# Writes only, open loop: GC mode x offered load, the shape of configs/sweeps/gc-modes.toml in a few
# seconds (arrivals from 200 us apart, far below saturation, to 2 us apart, far above it).
WRITE_ONLY_TWO_AXES = {
    "name": "tiny-gc-modes",
    "base": "default",
    "set": [
        "workload.synthetic.requests=1500",
        "workload.synthetic.read_fraction=0.0",
        'host.mode="open_loop"',
        'workload.synthetic.arrival={ process = "poisson", mean_interarrival_ns = 100000.0 }',
    ],
    "grid": {
        "ftl.garbage_collection.mode": ["foreground", "background"],
        "workload.synthetic.arrival.mean_interarrival_ns": [200000.0, 20000.0, 2000.0],
    },
}


@pytest.fixture(scope="module")
def write_only_sweep(tmp_path_factory) -> tuple[Path, object]:
    folder = tmp_path_factory.mktemp("sweep") / "out"
    outcome = run_sweep(Sweep.from_dict(WRITE_ONLY_TWO_AXES), folder, workers=1)
    assert not outcome.failed
    return folder, outcome


@pytest.fixture
def saved_figures(monkeypatch) -> dict[str, object]:
    """Every figure the report saves, by file stem, kept open for inspection after it is written."""
    saved: dict[str, object] = {}
    original = plotting.save

    def keep(fig, stem, **options):
        saved[Path(stem).name] = fig
        return original(fig, stem, **options)

    monkeypatch.setattr(plotting, "save", keep)
    return saved


def test_two_axis_report_draws_a_line_per_value_of_the_other_axis(write_only_sweep, saved_figures, tmp_path):
    folder, _ = write_only_sweep
    report = sweep_report.report(folder, out=tmp_path / "report").read_text()
    figure = saved_figures["write_latency_us_mean"]
    axes = figure.axes[0]
    # x is the numeric axis (offered load), one line per GC mode, not one bar per (mode, load) pair.
    lines = [line for line in axes.get_lines() if len(line.get_xdata()) > 1]
    assert len(lines) == 2, [line.get_label() for line in axes.get_lines()]
    assert {text.get_text() for text in axes.get_legend().get_texts()} == {"foreground", "background"}
    assert axes.get_legend().get_title().get_text() == "mode"
    assert sorted(lines[0].get_xdata()) == [2000.0, 20000.0, 200000.0]
    # Short labels: the last key segment and its unit, never the dotted keys.
    assert axes.get_xlabel() == "mean interarrival (ns)"
    assert axes.get_ylabel() == "write latency mean (us)"
    every_label = [axes.get_xlabel(), axes.get_ylabel(), *(t.get_text() for t in axes.get_xticklabels())]
    assert not any("synthetic." in label or "garbage_collection." in label for label in every_label), every_label
    # Both axes span two decades or more: log scales.
    assert axes.get_xscale() == "log" and axes.get_yscale() == "log"
    # Every label lies inside the figure as laid out (nothing cut at an edge).
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    for text in (axes.yaxis.label, axes.xaxis.label, axes.title):
        box = text.get_window_extent(renderer)
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= figure.bbox.x1 and box.y1 <= figure.bbox.y1, (text.get_text(), box)
    # A write-only sweep has no read-latency figure, and flat metrics are named, not drawn.
    assert not any(stem.startswith("read_") for stem in saved_figures), sorted(saved_figures)
    assert not list((tmp_path / "report").glob("read_*"))
    assert "`read.latency_us.p99`: not drawn, no reads in any point" in report
    assert "`write_amplification`: not drawn, the same at every point (1)" in report
    assert "write_amplification" not in saved_figures
    assert "write_latency_us_p99" in saved_figures and "all_iops" in saved_figures


def test_a_metric_asked_for_is_drawn_even_when_flat(write_only_sweep, saved_figures, tmp_path):
    folder, _ = write_only_sweep
    sweep_report.report(folder, ["result.write_amplification"], tmp_path / "one")
    assert (tmp_path / "one" / "write_amplification.png").stat().st_size > 1000
    axes = saved_figures["write_amplification"].axes[0]
    assert axes.get_yscale() == "linear" and len(axes.get_lines()) == 2


def test_sweep_summary_shows_write_latency_when_the_sweep_writes(write_only_sweep):
    from ssdlab.summary import render_sweep

    _, outcome = write_only_sweep
    console = Console(record=True, width=400)
    render_sweep(outcome, console)
    text = console.export_text()
    assert "write lat. mean us" in text and "write lat. p99 us" in text
    # A write-only sweep has no read latency to show.
    assert "read lat." not in text
    p99 = max(row["result.write.latency_us.p99"] for row in outcome.rows)
    assert f"{p99:,.0f}" in text


def _rows(points: list[dict[str, str]], **metrics: list[float]) -> list[dict[str, object]]:
    rows = []
    for index, labels in enumerate(points):
        row: dict[str, object] = {f"point.{key}": value for key, value in labels.items()}
        row["status"] = "ok"
        row.update({key.replace("__", "."): values[index] for key, values in metrics.items()})
        rows.append(row)
    return rows


def test_summary_columns_follow_the_directions_served():
    reads_only = _rows([{"a": "1"}, {"a": "2"}], result__read__count=[10.0, 10.0], result__write__count=[0.0, 0.0])
    headers = [header for header, _, _ in sweep_report.summary_columns(reads_only)]
    assert "read lat. mean us" in headers and "write lat. p99 us" not in headers


def test_gc_modes_sweep_puts_the_offered_load_on_x():
    """configs/sweeps/gc-modes.toml names the GC mode first (categories) and the load second
    (numbers): the load goes on x, one line per mode."""
    definition = Sweep.from_file(REPO / "configs" / "sweeps" / "gc-modes.toml")
    points = [dict(point.labels) for point in definition.points()]
    latency = [float(index + 1) * 10.0 ** (index % 4) for index in range(len(points))]
    rows = _rows(points, result__write__count=[1.0] * len(points), result__write__latency_us__p99=latency)
    axes = [f"point.{key}" for key in points[0]]
    plan = sweep_report.plan(rows, axes, ["result.write.latency_us.p99"], asked=False, name="gc-modes")
    (figure,) = plan.figures
    assert figure.kind == "lines" and figure.xlabel == "mean interarrival (ns)" and figure.legend_title == "mode"
    assert set(figure.series) == {"foreground", "stop_servicing_writes", "preemptible", "background"}
    assert figure.logy and not figure.logx  # 60,000-143,000 ns is under half a decade


def test_categories_only_give_grouped_bars_and_one_axis_gives_bars():
    rows = _rows(
        [{"ftl.policy": p, "ftl.mode": m} for p in ("greedy", "cost_benefit") for m in ("foreground", "background")],
        result__all__iops=[1.0, 2.0, 3.0, 4.0],
    )
    (figure,) = sweep_report.plan(rows, ["point.ftl.policy", "point.ftl.mode"], ["result.all.iops"], asked=False, name="s").figures
    assert (
        figure.kind == "grouped_bars"
        and figure.x_values == ["greedy", "cost_benefit"]
        and set(figure.series) == {"foreground", "background"}
    )
    one = _rows([{"ftl.policy": "greedy"}, {"ftl.policy": "cost_benefit"}], result__all__iops=[1.0, 2.0])
    (figure,) = sweep_report.plan(one, ["point.ftl.policy"], ["result.all.iops"], asked=False, name="s").figures
    assert figure.kind == "bars" and figure.xlabel == "policy" and not figure.logy


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("point.workload.synthetic.arrival.mean_interarrival_ns", "mean interarrival (ns)"),
        ("point.ftl.footprint_free_fraction", "footprint free fraction"),
        ("result.write.latency_us.p99", "write latency p99 (us)"),
        ("result.write_amplification", "write amplification"),
        ("result.gc.pages_copied", "gc pages copied"),
    ],
)
def test_short_labels(key: str, label: str):
    assert sweep_report.short_label(key) == label
