"""Figures of a frame-error-rate table, in the shape of seed 002 Fig. 3 (BCH vs hard vs soft LDPC,
plus seed 000's Quick- and EP-LDPC) and Fig. 10 (hard plus 1..6 extra sensing levels).

Measured points carry 95 % Wilson intervals; BCH's exact binomial tail is a solid line; an LDPC
curve's extrapolation to the target frame error rate is dotted and labelled as extrapolated.
Points with no failure are drawn as downward triangles at the 95 % upper bound.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ssdlab import plotting

STYLE = {
    "bch": ("black", "s", "BCH (t = 256)"),
    "ldpc-hard": ("tab:blue", "o", "LDPC, hard decision"),
    "quick-ldpc": ("tab:cyan", "v", "Quick-LDPC (one page + P/E, retention)"),
    "ep-ldpc": ("tab:purple", "D", "EP-LDPC (word line, no neighbour cells)"),
}
SOFT_COLOURS = ["#fdae61", "#f46d43", "#d73027", "#a50026", "#7f0000", "#4d0000"]


def _style(label: str) -> tuple[str, str, str]:
    if label in STYLE:
        return STYLE[label]
    levels = int(label.rsplit("-", 1)[1])
    return SOFT_COLOURS[levels - 1], "^", f"LDPC, soft, {levels} extra level{'s' if levels > 1 else ''}"


def _draw(ax: Any, table: dict[str, Any], labels: list[str]) -> None:
    target = table["spec"]["target_frame_error_rate"]
    summaries = {s["label"]: s for s in table["summaries"]}
    for label in labels:
        points = sorted((p for p in table["points"] if p["label"] == label), key=lambda p: p["rber"])
        if not points:
            continue
        colour, marker, name = _style(label)
        failing = [p for p in points if p["failures"] > 0]
        clean = [p for p in points if p["failures"] == 0]
        if failing:
            xs = [p["rber"] for p in failing]
            ys = [p["frame_error_rate"] for p in failing]
            lower = [max(0.0, y - p["ci95_low"]) for y, p in zip(ys, failing)]
            upper = [max(0.0, p["ci95_high"] - y) for y, p in zip(ys, failing)]
            ax.errorbar(xs, ys, yerr=[lower, upper], color=colour, marker=marker, markersize=4, linewidth=1.2, capsize=2, label=name)
        if clean:
            ax.scatter([p["rber"] for p in clean], [p["ci95_high"] for p in clean], color=colour, marker="v", s=14, alpha=0.6)
        estimate = (summaries.get(label) or {}).get("tolerable_rber_at_target")
        if label != "bch" and estimate and estimate["method"].startswith("extrapolated") and failing:
            lowest = min(failing, key=lambda p: p["frame_error_rate"])
            ax.plot([lowest["rber"], estimate["rber"]], [lowest["frame_error_rate"], target], color=colour, linestyle=":", linewidth=1)
    if "bch" in labels and table.get("exact_bch"):
        exact = table["exact_bch"]
        ax.plot(
            [e["rber"] for e in exact],
            [max(e["frame_error_rate"], 1e-300) for e in exact],
            color="black",
            linewidth=1,
            label="BCH exact (binomial tail)",
        )
    ax.axhline(target, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(target / 10, 1.5)
    ax.set_xlabel("raw bit error rate (page, hard read)")
    ax.set_ylabel("frame error rate (4 KB)")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=7, loc="lower right")


def _caption(table: dict[str, Any]) -> str:
    spec = table["spec"]
    return (
        f"{spec['cell'].upper()} page {spec['page']}, {spec['retention_hours']:g} h retention; RBER set by P/E cycles. "
        f"Dotted: extrapolated to FER {spec['target_frame_error_rate']:g}. Table {table['key']} (v{table['version']})."
    )


def write_figures(table: dict[str, Any], out: Path) -> dict[str, Path]:
    labels = [s["label"] for s in table["summaries"]]
    paths: dict[str, Path] = {}
    fig3_labels = [lab for lab in ["bch", "ldpc-hard", "quick-ldpc", "ep-ldpc", "ldpc-soft-6"] if lab in labels]
    fig10_labels = [lab for lab in ["ldpc-hard"] + [f"ldpc-soft-{n}" for n in range(1, 7)] if lab in labels]
    for name, chosen, title in [
        ("fig3", fig3_labels, "Decoding failure vs raw bit error rate (seed 002 Fig. 3)"),
        ("fig10", fig10_labels, "Failure vs sensing precision (seed 002 Fig. 10)"),
    ]:
        if not chosen:
            continue
        fig, ax = plotting.figure(6.4, 4.8)
        _draw(ax, table, chosen)
        ax.set_title(title, fontsize=10)
        fig.text(0.01, 0.005, _caption(table), fontsize=6, color="grey")
        png, svg = plotting.save(fig, out / name, rect=(0, 0.02, 1, 1))
        paths[f"{name}_png"], paths[f"{name}_svg"] = png, svg
    return paths
