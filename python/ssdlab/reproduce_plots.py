"""Figures of the reproduction recipes (matplotlib, PNG and SVG), in the shape of the seeds' figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ssdlab import plotting

FREE_COLOURS = {0.2: "#1b9e77", 0.4: "#d95f02", 0.6: "#7570b3", 0.8: "#e7298a"}


def _grouped_bars(
    table: Sequence[Mapping[str, Any]],
    key: str,
    scale: float,
    ylabel: str,
    title: str,
    baseline: float,
    path_stem: Path,
    symlog: float | None = None,
) -> list[Path]:
    workloads = list(dict.fromkeys(r["workload"] for r in table))
    frees = sorted({r["free_fraction"] for r in table})
    width = 0.8 / max(1, len(frees))
    figure, axes = plotting.figure(9, 4.2)
    for index, free in enumerate(frees):
        xs, heights, missing = [], [], []
        for position, workload in enumerate(workloads):
            row = next((r for r in table if r["workload"] == workload and r["free_fraction"] == free), None)
            x = position - 0.4 + width * (index + 0.5)
            if row is None or row[key] is None:
                missing.append(x)
                continue
            xs.append(x)
            heights.append(row[key] * scale - baseline)
        axes.bar(xs, heights, width=width, bottom=baseline, color=FREE_COLOURS.get(free, None), label=f"{free:.0%} free")
        for x, height in zip(xs, heights):
            if abs(height) < 1e-12:
                # An equal result has no bar; mark it so it is not mistaken for a missing point.
                axes.text(x, baseline, "=", ha="center", va="bottom", fontsize=8, color=FREE_COLOURS.get(free, "black"))
        for x in missing:
            axes.text(x, baseline, "n/a", ha="center", va="bottom", fontsize=7, rotation=90)
    axes.axhline(baseline, color="black", linewidth=0.8)
    if symlog is not None:
        # Values span orders of magnitude (a few % to thousands of %): linear near zero, log beyond.
        axes.set_yscale("symlog", linthresh=symlog)
    low, high = axes.get_ylim()
    # Room above the baseline for the '=' marks even when every bar points down.
    axes.set_ylim(low, max(high, baseline + (symlog if symlog is not None else 0.08 * max(abs(low - baseline), 1e-3))))
    axes.set_xticks(range(len(workloads)), [w.replace(" (", "\n(") for w in workloads], fontsize=8)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8, ncols=len(frees))
    axes.grid(axis="y", alpha=0.3)
    return plotting.save(figure, path_stem)


def write_lba_scrambler_figures(table: Sequence[Mapping[str, Any]], out: Path, suffix: str = "", regime: str = "") -> dict[str, Path]:
    """Seed 003 Fig. 4(a) GC-count reduction, 4(b) GC page-copy reduction, 5 write-performance gain
    (one set per regime: ``suffix`` names the files, ``regime`` goes in the titles)."""
    figures: dict[str, Path] = {}
    where = f" ({regime})" if regime else ""
    specs = [
        (
            "fig4a",
            "gc_count_reduction",
            100.0,
            "GC count reduction (%)",
            f"Fig. 4(a): GC count reduction by the LBA scrambler{where}",
            0.0,
            10.0,
        ),
        (
            "fig4b",
            "pages_copied_reduction",
            100.0,
            "GC page-copy reduction (%, symlog)",
            f"Fig. 4(b): reduction of pages copied during GC{where}",
            0.0,
            10.0,
        ),
        (
            "fig5",
            "write_performance_ratio",
            1.0,
            "write performance (scrambler / conventional)",
            f"Fig. 5: write performance with the LBA scrambler{where}",
            1.0,
            None,
        ),
    ]
    for name, key, scale, ylabel, title, baseline, symlog in specs:
        stem = f"{name}-{suffix}" if suffix else name
        png, svg = _grouped_bars(table, key, scale, ylabel, title, baseline, out / stem, symlog)
        figures[f"{stem} (PNG)"] = png
        figures[f"{stem} (SVG)"] = svg
    return figures


LDPC_VARIANT_COLOURS = {"baseline": "#444444", "look_ahead": "#1f77b4", "progressive": "#ff7f0e", "both": "#2ca02c"}


def _ldpc_bars(
    table: Sequence[Mapping[str, Any]],
    channels: int,
    series: Sequence[tuple[str, str, str]],
    ylabel: str,
    title: str,
    reference: float,
    path_stem: Path,
) -> tuple[Path, Path]:
    rows = [r for r in table if r["channels"] == channels]
    png, svg = plotting.grouped_bars(
        [r["workload"] for r in rows],
        {legend: [r[key] for r in rows] for key, legend, _ in series},
        path_stem,
        ylabel=ylabel,
        title=title,
        colours={legend: colour for _, legend, colour in series},
        reference=reference,
    )
    return png, svg


def write_ldpc_read_figures(table: Sequence[Mapping[str, Any]], out: Path, suffix: str = "", regime: str = "") -> dict[str, Path]:
    """Seed 002 Fig. 11 (baseline vs no soft sensing), Fig. 12-14 (look-ahead, progressive, both vs
    baseline), Fig. 15 (interleaving) and Fig. 17 (the same on 2 channels); ``suffix`` names the
    files of one error model, ``regime`` goes in the titles."""
    figures: dict[str, Path] = {}
    table = [dict(r, baseline_vs_no_soft=(None if r["baseline_delay"] is None else 1 + r["baseline_delay"])) for r in table]
    specs = [
        (
            "fig11",
            8,
            [("baseline_vs_no_soft", "two-step baseline", LDPC_VARIANT_COLOURS["baseline"])],
            "read response time / no soft sensing",
            "Fig. 11: two-step read at 10,000 P/E vs no soft sensing (8 channels)",
        ),
        (
            "fig12_14",
            8,
            [
                ("look_ahead_vs_baseline", "look-ahead (Fig. 12)", LDPC_VARIANT_COLOURS["look_ahead"]),
                ("progressive_vs_baseline", "progressive (Fig. 13)", LDPC_VARIANT_COLOURS["progressive"]),
                ("both_vs_baseline", "both (Fig. 14)", LDPC_VARIANT_COLOURS["both"]),
            ],
            "read response time / baseline",
            "Fig. 12-14: look-ahead, progressive and both, normalised to the baseline (8 channels)",
        ),
        (
            "fig15",
            8,
            [
                ("interleave_2_vs_baseline", "2-way interleaving", "#9467bd"),
                ("interleave_4_vs_baseline", "4-way interleaving", "#8c564b"),
                ("all_vs_baseline", "look-ahead + progressive + 4-way", "#17becf"),
            ],
            "read response time / baseline",
            "Fig. 15: data placement interleaving with the two-step read, normalised to the baseline (8 channels)",
        ),
        (
            "fig17",
            2,
            [
                ("look_ahead_vs_baseline", "look-ahead", LDPC_VARIANT_COLOURS["look_ahead"]),
                ("progressive_vs_baseline", "progressive", LDPC_VARIANT_COLOURS["progressive"]),
                ("both_vs_baseline", "both", LDPC_VARIANT_COLOURS["both"]),
            ],
            "read response time / baseline",
            "Fig. 17: the techniques on 2 channels, normalised to the baseline",
        ),
    ]
    for name, channels, series, ylabel, title in specs:
        title = f"{title}, {regime}" if regime else title
        png, svg = _ldpc_bars(table, channels, series, ylabel, title, 1.0, out / f"{name}{suffix}")
        figures[f"{name}{suffix} (PNG)"] = png
        figures[f"{name}{suffix} (SVG)"] = svg
    return figures


def _save(figure: Any, stem: Path) -> Path:
    return plotting.save(figure, stem)[0]


def write_aoa_ecc_figures(
    hours: Sequence[float],
    tolerable: Mapping[str, Sequence[float | None]],
    table6: Sequence[Mapping[str, Any]],
    table7: Sequence[Mapping[str, Any]],
    out: Path,
) -> dict[str, Path]:
    """Seed 000's Fig. 5 (tolerable P/E vs retention), Fig. 6 (IOPS vs P/E) and Fig. 7 (AOA-ECC over
    conventional by workload)."""
    out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Path] = {}
    figure, axes = plotting.figure(6.5, 4)
    for decoder, row in tolerable.items():
        points = [(h, pe) for h, pe in zip(hours, row) if pe is not None]
        if points:
            axes.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=decoder)
    axes.set_xscale("log")
    axes.set_xlabel("data retention (hours, 40 C)")
    axes.set_ylabel("tolerable P/E cycles")
    axes.set_title("Fig. 5: tolerable P/E against retention (points beyond the grid left out)", fontsize=9)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8)
    figures["fig5_tolerable_pe"] = _save(figure, out / "fig5_tolerable_pe")

    figure, axes = plotting.figure(6.5, 4)
    pes = [r["pe_cycles"] for r in table6]
    for key, label, style in (
        ("conventional_iops", "conventional (BCH → soft LDPC)", "s-"),
        ("aoa_ecc_iops", "AOA-ECC (Quick → EP-LDPC)", "o-"),
        ("adaptive_conventional_iops", "BCH chosen per read by data age", "^--"),
    ):
        values = [(pe, r[key]) for pe, r in zip(pes, table6) if r.get(key)]
        if values:
            axes.plot([v[0] for v in values], [v[1] for v in values], style, label=label, markersize=4)
    axes.set_xlabel("P/E cycles")
    axes.set_ylabel("IOPS (closed loop, queue depth 32)")
    axes.set_title("Fig. 6: IOPS against wear, prxy_1 stand-in", fontsize=9)
    axes.set_ylim(bottom=0)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8)
    figures["fig6_iops_vs_pe"] = _save(figure, out / "fig6_iops_vs_pe")

    figure, axes = plotting.figure(9, 4)
    rows = [r for r in table7 if r.get("aoa_over_conventional")]
    colours = ["#1b9e77" if (r["read_share"] or 0) > 0.5 else "#d95f02" for r in rows]
    axes.bar(range(len(rows)), [r["aoa_over_conventional"] for r in rows], color=colours)
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xticks(range(len(rows)), [r["workload"].replace(" (", "\n(") for r in rows], fontsize=7)
    axes.set_ylabel("AOA-ECC IOPS / conventional IOPS")
    axes.set_title("Fig. 7: by workload (green: read-dominant, orange: write-dominant)", fontsize=9)
    axes.grid(axis="y", alpha=0.3)
    figures["fig7_by_workload"] = _save(figure, out / "fig7_by_workload")
    return figures
