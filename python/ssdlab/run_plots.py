"""Figures of one run (matplotlib, PNG and SVG): its time series, so that GC storms, backlogs and
free-space exhaustion are visible at a glance."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ssdlab import plotting


def plot_time_series(result: Mapping[str, Any], stem: Path) -> list[Path]:
    """Five panels against simulated time: IOPS per op, p99 latency per op, GC pages copied per
    interval (with the host programs GC held back, when any were), free blocks (with the planes
    holding writes), die and channel utilisation. Returns the PNG and SVG paths."""
    series = result.get("time_series")
    if not series:
        raise ValueError("the result has no time series: run with --time-series-ms N (output.time_series_interval_ms)")
    seconds = [ms / 1e3 for ms in series["start_ms"]]
    figure, axes = plotting.figure(9, 11, rows=5, sharex=True)
    for op, colour in (("read", "#1f77b4"), ("write", "#d62728")):
        axes[0].plot(seconds, series[op]["iops"], label=op, color=colour, linewidth=0.9)
        # Intervals without a completion have no latency: left out, not drawn as 0.
        p99 = [value if count else float("nan") for value, count in zip(series[op]["p99_us"], series[op]["count"])]
        axes[1].plot(seconds, p99, label=f"{op} p99", color=colour, linewidth=0.9)
    axes[0].set_ylabel("IOPS")
    axes[1].set_ylabel("p99 latency (us)")
    axes[1].set_yscale("log")
    axes[2].bar(seconds, series["gc_pages_copied"], width=series["interval_ns"] / 1e9, color="#7f7f7f", align="edge")
    axes[2].set_ylabel("GC pages copied")
    held = series.get("programs_held") or []
    if any(held):
        # A GC storm that holds host writes back: the programs held per interval, beside the copies.
        twin = axes[2].twinx()
        twin.plot(seconds, held, color="#d62728", linewidth=0.9, label="host programs held for GC")
        twin.set_ylabel("programs held", color="#d62728")
        twin.legend(fontsize=8, loc="upper right")
    axes[3].plot(seconds, series["free_blocks"], color="#2ca02c", linewidth=0.9, label="free (FTL)")
    if series.get("erased_blocks") and series["erased_blocks"] != series["free_blocks"]:
        # GC's victims are free in the FTL at once, usable only once erased.
        axes[3].plot(seconds, series["erased_blocks"], color="#17becf", linewidth=0.9, label="erased")
        axes[3].legend(fontsize=8, loc="upper left")
    axes[3].set_ylabel("free blocks")
    blocked = series.get("planes_holding_writes") or []
    if any(blocked):
        twin = axes[3].twinx()
        twin.step(seconds, blocked, where="post", color="#d62728", linewidth=0.9, label="planes holding writes")
        twin.set_ylabel("planes holding writes", color="#d62728")
        twin.legend(fontsize=8, loc="upper right")
    for key, label, colour in (("die_utilisation", "dies", "#9467bd"), ("channel_utilisation", "channels", "#8c564b")):
        if key in series:
            axes[4].plot(seconds, [100 * value for value in series[key]], label=label, color=colour, linewidth=0.9)
    axes[4].set_ylabel("utilisation (%)")
    axes[4].legend(fontsize=8)
    axes[4].set_xlabel("simulated time (s)")
    for ax in axes:
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    axes[1].legend(fontsize=8)
    name = result.get("name") or "run"
    axes[0].set_title(f"{name}: the run over time ({series['interval_ns'] / 1e6:g} ms intervals)", fontsize=10)
    return plotting.save(figure, stem)
