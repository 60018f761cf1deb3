"""``ssdlab report SWEEP_DIR``: a table and figures of any sweep's results, not only the recipes'.

Rows are the sweep's points (their axis labels), columns a set of headline metrics (or the ones asked
for); one bar figure per metric (PNG and SVG), points in the sweep's order, failed points marked.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def _label(row: dict[str, Any], axes: Sequence[str]) -> str:
    return ", ".join(f"{axis.removeprefix('point.')}={row[axis]}" for axis in axes)


def report(sweep_dir: str | Path, metrics: Sequence[str] | None = None, out: str | Path | None = None) -> Path:
    """Writes ``report.md`` and one figure per metric into ``out`` (default: ``SWEEP_DIR/report``)."""
    import polars as pl

    from ssdlab import plotting

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
    labels = [_label(row, axes) for row in rows]
    figures = []
    for metric in wanted:
        values = [row.get(metric) if row.get("status") == "ok" else None for row in rows]
        stem = target / metric.removeprefix("result.").replace(".", "_")
        title = f"{frame['sweep'][0] if 'sweep' in frame.columns else folder.name}: {metric.removeprefix('result.')}"
        plotting.bar_chart(labels, values, stem, ylabel=metric.removeprefix("result."), title=title, missing="failed")
        figures.append(stem.name + ".png")
    header = "| " + " | ".join([*(a.removeprefix("point.") for a in axes), "status", *(m.removeprefix("result.") for m in wanted)]) + " |"
    lines = [header, "|" + "---|" * (len(axes) + 1 + len(wanted))]
    for row in rows:
        cells = [str(row[a]) for a in axes] + [str(row.get("status"))]
        for metric in wanted:
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
    text = (
        f"# Sweep report: {folder}\n\n{len(rows)} points ({failed} failed), from `{results}`.\n\n"
        + "\n".join(lines)
        + "\n\n## Figures\n\n"
        + "\n".join(f"- `{name}`" for name in figures)
        + "\n"
    )
    path = target / "report.md"
    path.write_text(text, encoding="utf-8")
    return path
