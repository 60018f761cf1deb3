"""``ssdlab report SWEEP_DIR``: a table and figures of any sweep's results, not only the recipes'.

Rows are the sweep's points (their axis labels), columns a set of headline metrics (or the ones asked
for). One figure per metric (PNG and SVG), drawn to be read:

- x is the sweep's first axis (a numeric axis is preferred when the first one names categories: a
  line over unordered categories suggests an order that is not there), one line per value of the
  other axes; a sweep of categories only gets grouped bars, a one-axis sweep of categories bars;
- labels are short: the last segment of a dotted key and its unit (``mean interarrival (ns)``,
  ``write latency p99 (us)``), the full key stays in the table;
- an axis spanning more than ``LOG_DECADES`` decades is drawn on a log scale;
- of the default metrics only those that vary are drawn, and read (write) metrics only when the sweep
  has reads (writes); a metric asked for with ``--metric`` is always drawn. What is left out, and why,
  is listed in ``report.md``.

:func:`summary_columns` chooses the metrics of a sweep's printed summary the same way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssdlab.usage import UsageError

DEFAULT_METRICS = (
    "result.all.iops",
    "result.read.latency_us.mean",
    "result.read.latency_us.p99",
    "result.write.latency_us.mean",
    "result.write.latency_us.p99",
    "result.write_amplification",
    "result.gc.pages_copied",
)

# Above this many decades between an axis's smallest and largest value, a linear axis squeezes all
# but the largest values into one corner (issue 48: 4 ms to 3.8 s on one linear axis).
LOG_DECADES = 1.5

# Key suffixes that are units: `latency_us` is a latency in microseconds.
_UNITS = ("ns", "us", "ms", "s", "bytes", "mbps", "mb", "gb", "gib", "mib", "kib", "hours", "c", "v", "w", "j", "mts")
_UNIT_SUFFIX = re.compile(r"^(?P<name>.+?)_(?P<unit>" + "|".join(_UNITS) + r")$")


def short_label(key: str) -> str:
    """A readable label of a dotted key: ``point.``/``result.`` dropped, units put in brackets.
    An axis keeps its last segment (``...arrival.mean_interarrival_ns`` -> ``mean interarrival (ns)``);
    a metric keeps every segment, as ``read``/``write`` and ``mean``/``p99`` tell metrics apart
    (``result.write.latency_us.p99`` -> ``write latency p99 (us)``)."""
    if key.startswith("point."):
        segments = [key.removeprefix("point.").split(".")[-1]]
    else:
        segments = key.removeprefix("result.").split(".")
    words, unit = [], None
    for segment in segments:
        match = _UNIT_SUFFIX.match(segment)
        if match and unit is None:
            segment, unit = match["name"], match["unit"]
        words.append(segment.replace("_", " "))
    text = " ".join(words)
    return f"{text} ({unit})" if unit else text


def _number(text: Any) -> float | None:
    if isinstance(text, bool):
        return None
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _is_numeric(values: Sequence[Any]) -> bool:
    return bool(values) and all(_number(value) is not None for value in values)


def _spans_decades(values: Sequence[float | None]) -> bool:
    present = [value for value in values if value is not None]
    if not present or min(present) <= 0:
        return False
    return math.log10(max(present) / min(present)) > LOG_DECADES


def _ordered_unique(values: Sequence[Any]) -> list[Any]:
    seen: list[Any] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


@dataclass
class SweepFigure:
    """What one figure shows, before it is drawn: ``kind`` is ``lines`` (numeric x, one line per
    series), ``grouped_bars`` (categorical x, one bar per series) or ``bars`` (one series)."""

    metric: str
    stem: str
    kind: str
    title: str
    ylabel: str
    xlabel: str
    x_values: list[Any]
    series: dict[str, list[float | None]]
    legend_title: str = ""
    logx: bool = False
    logy: bool = False
    failed: int = 0


@dataclass
class ReportPlan:
    """The figures of a sweep report and the metrics left out of them, each with its reason."""

    axes: list[str]
    table_metrics: list[str]
    figures: list[SweepFigure] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)


def _has_requests(rows: Sequence[dict[str, Any]], direction: str) -> bool:
    """Whether any point served a request of ``direction`` (read or write); True when unknown."""
    key = f"result.{direction}.count"
    counts = [row.get(key) for row in rows if row.get("status") == "ok"]
    known = [count for count in counts if count is not None]
    return not known or any(count > 0 for count in known)


def _served(rows: Sequence[dict[str, Any]], direction: str) -> bool:
    """Whether some point is known to have served a request of ``direction``."""
    return any((row.get(f"result.{direction}.count") or 0) > 0 for row in rows if row.get("status") == "ok")


def _absent_direction(metric: str, rows: Sequence[dict[str, Any]]) -> str | None:
    for direction in ("read", "write"):
        if metric.startswith(f"result.{direction}.") and not _has_requests(rows, direction):
            return f"no {direction}s in any point"
    return None


def _varies(values: Sequence[float | None]) -> bool:
    present = [value for value in values if value is not None]
    return len(present) > 1 and max(present) - min(present) > 1e-12 * max(abs(v) for v in present)


def plan(rows: Sequence[dict[str, Any]], axes: Sequence[str], metrics: Sequence[str], *, asked: bool, name: str) -> ReportPlan:
    """The figures of ``metrics`` over the sweep's ``rows`` (``axes``: its ``point.*`` columns in
    grid order). ``asked``: the metrics were named by the user, so each is drawn even when flat."""
    result = ReportPlan(axes=list(axes), table_metrics=[])
    for metric in metrics:
        reason = None if asked else _absent_direction(metric, rows)
        if reason:
            result.left_out[metric] = reason
            continue
        result.table_metrics.append(metric)
        values = [_number(row.get(metric)) if row.get("status") == "ok" else None for row in rows]
        if not asked and not _varies(values):
            present = [value for value in values if value is not None]
            result.left_out[metric] = f"the same at every point ({present[0]:g})" if present else "no value at any point"
            continue
        result.figures.append(_figure(rows, list(axes), metric, values, name))
    return result


def _figure(rows: Sequence[dict[str, Any]], axes: list[str], metric: str, values: list[float | None], name: str) -> SweepFigure:
    stem = metric.removeprefix("result.").replace(".", "_")
    ylabel = short_label(metric)
    common = dict(metric=metric, stem=stem, title=f"{name}: {ylabel}", ylabel=ylabel, failed=sum(1 for v in values if v is None))
    numeric = [axis for axis in axes if _is_numeric([row[axis] for row in rows])]
    if not axes:
        return SweepFigure(**common, kind="bars", xlabel="", x_values=["base config"], series={"": values[:1]}, logy=_spans_decades(values))
    x_axis = axes[0] if axes[0] in numeric or not numeric else numeric[0]
    others = [axis for axis in axes if axis != x_axis]
    x_numeric = x_axis in numeric
    x_values = _ordered_unique([row[x_axis] for row in rows])
    if x_numeric:
        x_values = sorted(x_values, key=lambda value: _number(value))
    series: dict[str, list[float | None]] = {}
    for row, value in zip(rows, values):
        key = ", ".join(str(row[axis]) if len(others) == 1 else f"{short_label(axis)}={row[axis]}" for axis in others)
        series.setdefault(key, [None] * len(x_values))[x_values.index(row[x_axis])] = value
    if x_numeric:
        x_plotted: list[Any] = [_number(value) for value in x_values]
        kind = "lines"
    else:
        x_plotted = [str(value) for value in x_values]
        kind = "grouped_bars" if others else "bars"
    return SweepFigure(
        **common,
        kind=kind,
        xlabel=short_label(x_axis),
        x_values=x_plotted,
        series=series,
        legend_title=short_label(others[0]) if len(others) == 1 else "",
        logx=x_numeric and _spans_decades(x_plotted),
        logy=_spans_decades(values),
    )


def summary_columns(rows: Sequence[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The metrics of a sweep's printed summary, as (header, result column, format): the GC and
    write-amplification headline, and the latency of each direction the sweep has (a sweep of GC
    modes is about write latency; a read-only sweep has no write latency to show)."""
    columns = [
        ("GC invocations", "result.gc.invocations", "{:,.0f}"),
        ("pages copied", "result.gc.pages_copied", "{:,.0f}"),
        ("WA", "result.write_amplification", "{:.3f}"),
        ("write MB/s", "result.write.mbps", "{:.1f}"),
    ]
    if _served(rows, "write"):
        columns += [
            ("write lat. mean us", "result.write.latency_us.mean", "{:,.0f}"),
            ("write lat. p99 us", "result.write.latency_us.p99", "{:,.0f}"),
        ]
    if _served(rows, "read"):
        columns += [("read lat. mean us", "result.read.latency_us.mean", "{:,.0f}")]
    return columns


def draw(figure: SweepFigure, target: Path) -> list[Path]:
    from ssdlab import plotting

    stem = target / figure.stem
    if figure.kind == "lines":
        return plotting.line_chart(
            {label: (figure.x_values, ys) for label, ys in figure.series.items()},
            stem,
            xlabel=figure.xlabel,
            ylabel=figure.ylabel,
            title=figure.title,
            logx=figure.logx,
            logy=figure.logy,
            legend_title=figure.legend_title,
        )
    if figure.kind == "grouped_bars":
        return plotting.grouped_bars(
            figure.x_values,
            figure.series,
            stem,
            ylabel=figure.ylabel,
            title=figure.title,
            logy=figure.logy,
            legend_title=figure.legend_title,
        )
    return plotting.bar_chart(
        figure.x_values,
        next(iter(figure.series.values())),
        stem,
        ylabel=figure.ylabel,
        title=figure.title,
        missing="failed",
        logy=figure.logy,
    )


def report(sweep_dir: str | Path, metrics: Sequence[str] | None = None, out: str | Path | None = None) -> Path:
    """Writes ``report.md`` and one figure per metric into ``out`` (default: ``SWEEP_DIR/report``)."""
    import polars as pl

    folder = Path(sweep_dir)
    results = folder / "results.parquet"
    if not results.is_file():
        raise UsageError(f"{folder}: no results.parquet; run `ssdlab sweep` into this folder first")
    frame = pl.read_parquet(results)
    axes = [column for column in frame.columns if column.startswith("point.")]
    wanted = list(metrics) if metrics else [metric for metric in DEFAULT_METRICS if metric in frame.columns]
    unknown = [metric for metric in wanted if metric not in frame.columns]
    if unknown:
        known = ", ".join(sorted(c for c in frame.columns if c.startswith("result."))[:12])
        raise UsageError(f"unknown metric(s) {', '.join(unknown)}; the results have e.g. {known}, ...")
    target = Path(out) if out is not None else folder / "report"
    target.mkdir(parents=True, exist_ok=True)
    rows = frame.to_dicts()
    name = frame["sweep"][0] if "sweep" in frame.columns and frame.height else folder.name
    figures = plan(rows, axes, wanted, asked=bool(metrics), name=name)
    for figure in figures.figures:
        draw(figure, target)
    shown = figures.table_metrics
    header = "| " + " | ".join([*(a.removeprefix("point.") for a in axes), "status", *(m.removeprefix("result.") for m in shown)]) + " |"
    lines = [header, "|" + "---|" * (len(axes) + 1 + len(shown))]
    for row in rows:
        cells = [str(row[a]) for a in axes] + [str(row.get("status"))]
        for metric in shown:
            value = row.get(metric)
            cells.append(
                "n/a"
                if value is None or row.get("status") != "ok"
                else (
                    f"{value:,.3f}"
                    if isinstance(value, float) and abs(value) < 100
                    else f"{value:,.0f}"
                    if isinstance(value, (int, float))
                    else str(value)
                )
            )
        lines.append("| " + " | ".join(cells) + " |")
    failed = sum(1 for row in rows if row.get("status") != "ok")
    drawn = [
        f"- `{figure.stem}.png`: {figure.ylabel}"
        + (f" against {figure.xlabel}" if figure.xlabel else "")
        + (
            f", one {'line' if figure.kind == 'lines' else 'bar'} per {figure.legend_title or 'combination of the other axes'}"
            if len(figure.series) > 1
            else ""
        )
        + (" (log y)" if figure.logy else "")
        for figure in figures.figures
    ]
    not_drawn = [f"- `{metric.removeprefix('result.')}`: not drawn, {reason}" for metric, reason in figures.left_out.items()]
    text = (
        f"# Sweep report: {folder}\n\n{len(rows)} points ({failed} failed), from `{results}`.\n\n"
        + "\n".join(lines)
        + "\n\n## Figures\n\n"
        + "\n".join(drawn + not_drawn)
        + "\n"
    )
    path = target / "report.md"
    path.write_text(text, encoding="utf-8")
    return path
