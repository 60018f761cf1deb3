"""The one place figures are made and saved: every figure of ssdlab (runs, sweeps, ECC curves,
reproduction recipes) is drawn with matplotlib's Agg backend and saved as PNG and SVG at one DPI,
with the bar and line helpers below, so a new recipe's figures are a few calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

DPI = 150
FORMATS = (".png", ".svg")


def figure(width: float = 6.5, height: float = 4.0, rows: int = 1, **options: Any) -> tuple[Any, Any]:
    """A new figure and its axes (``rows`` stacked panels)."""
    return plt.subplots(rows, 1, figsize=(width, height), **options)


def save(fig: Any, stem: Path, *, layout: bool = True, rect: tuple[float, float, float, float] | None = None) -> list[Path]:
    """Saves ``fig`` as ``stem.png`` and ``stem.svg`` (the stem's own suffix, if any, is kept:
    ``fig4a-aged`` and ``gc.timeseries`` stay whole) and closes it; returns [png, svg]."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    if layout:
        fig.tight_layout(rect=rect) if rect is not None else fig.tight_layout()
    paths = []
    for suffix in FORMATS:
        path = stem.with_name(stem.name + suffix)
        # A tight box grows the image to hold every label: long tick labels and y labels are never
        # cut at the edge, whatever the layout engine managed.
        fig.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.1)
        paths.append(path)
    plt.close(fig)
    return paths


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float | None],
    stem: Path,
    *,
    ylabel: str,
    title: str,
    colours: Sequence[str] | str = "#1f77b4",
    reference: float | None = None,
    missing: str = "n/a",
    logy: bool = False,
) -> list[Path]:
    """One bar per label; a None value is marked ``missing`` instead of drawn; ``reference`` draws a line."""
    fig, axes = figure(max(6.0, 0.5 * len(labels) + 2), 4.0)
    positions = list(range(len(labels)))
    # A missing bar is NaN, not 0: on a log axis a zero has no place.
    axes.bar(positions, [value if value is not None else float("nan") for value in values], color=colours)
    if logy:
        axes.set_yscale("log")
    for position, value in zip(positions, values):
        if value is None:
            axes.text(position, 0.02, missing, ha="center", va="bottom", fontsize=7, rotation=90, transform=axes.get_xaxis_transform())
    if reference is not None:
        axes.axhline(reference, color="black", linewidth=0.8)
    axes.set_xticks(positions, labels, rotation=30, ha="right", fontsize=7)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=10)
    axes.grid(axis="y", alpha=0.3)
    return save(fig, stem)


def grouped_bars(
    labels: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    stem: Path,
    *,
    ylabel: str,
    title: str,
    colours: Mapping[str, str] | None = None,
    reference: float | None = None,
    width: float | None = None,
    logy: bool = False,
    legend_title: str = "",
) -> list[Path]:
    """Bars of several series side by side per label (None: no bar); ``legend_title`` names what
    the series are."""
    fig, axes = figure(width or max(6.0, 1.2 * len(labels) + 2), 4.2)
    step = 0.8 / max(1, len(series))
    for index, (name, values) in enumerate(series.items()):
        xs = [i + (index - (len(series) - 1) / 2) * step for i in range(len(labels))]
        axes.bar(
            xs, [value if value is not None else float("nan") for value in values], width=step, label=name, color=(colours or {}).get(name)
        )
    if reference is not None:
        axes.axhline(reference, color="black", linewidth=0.8)
    axes.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=10)
    top = max([v for values in series.values() for v in values if v is not None] + [reference or 0.0])
    if logy:
        axes.set_yscale("log")
    elif top > 0:
        axes.set_ylim(0, top * 1.3)
    axes.legend(fontsize=8, loc="upper center", ncol=max(1, len(series)), title=legend_title or None, title_fontsize=8)
    axes.grid(axis="y", alpha=0.3)
    return save(fig, stem)


def line_chart(
    series: Mapping[str, tuple[Sequence[float], Sequence[float | None]]],
    stem: Path,
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    logx: bool = False,
    logy: bool = False,
    styles: Mapping[str, str] | None = None,
    ybottom: float | None = None,
    legend_title: str = "",
) -> list[Path]:
    """One line per series ``{label: (xs, ys)}``; points whose y is None are left out; ``ybottom``
    fixes the bottom of the y axis; ``legend_title`` names what the series are. A single series
    with an empty label gets no legend."""
    fig, axes = figure()
    drawn = 0
    for label, (xs, ys) in series.items():
        points = [(x, y) for x, y in zip(xs, ys) if y is not None]
        if points:
            axes.plot([p[0] for p in points], [p[1] for p in points], (styles or {}).get(label, "o-"), label=label, markersize=4)
            drawn += 1
    if logx:
        axes.set_xscale("log")
    if logy:
        axes.set_yscale("log")
    if ybottom is not None:
        axes.set_ylim(bottom=ybottom)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=9)
    axes.grid(alpha=0.3)
    if drawn and any(series):
        axes.legend(fontsize=8, title=legend_title or None, title_fontsize=8)
    else:
        # Said on the figure, so an empty chart is never mistaken for a flat result.
        axes.text(
            0.5, 0.5, "no points: the runs this chart needs were not made", transform=axes.transAxes, ha="center", va="center", fontsize=9
        )
    return save(fig, stem)
