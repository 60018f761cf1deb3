"""Seed 004's chip exchange (Fig. 13-14) in the tlc-mlc recipe: the conventional exchange (host I/O
suspended while every valid page of the worn chip is copied) against the seed's (the chip read-only,
drained by overwrites, garbage collection and background moves while the host runs).

What it models. MLC chip 1 of the preset's array (4 MLC + 4 TLC, RR-FDCA) holds the seed's 8 GB of
valid pages when it is exchanged; the chips are sized so that, before the exchange, every MLC chip is
``fill`` full (the destination capacity: the three other MLC chips take the worn chip's pages on top
of their own). At the seed-like fill (``SEED_FILL``) the destinations end about two thirds full and
the copy sets off no collection, the seed's "Assuming 8GB valid pages in the degraded chip" with
nothing else said; at ``FULL_FILL`` they overflow and the copy pays for collection in them (the
scenario ssdlab ran before issue 35). The copy path is the controller's pipeline
(``copy_path = "pipelined"``, ``scheduler/copy_pipeline.rs``) with the chained one beside it.

Dead time, one definition for the result, the figure and the headlines: the longest time the host got
nothing done at once (``result.dead_time.dead_time_us``: the longer of a suspension and the longest
host stall, a request waiting while none completes). The seed's ~200 ms for the proposal is "the
required time for GC"; beside it, the read-only drain's longest step (one block moved, with the
collection it set off: ``events[].longest_step_ns``) is that quantity in ssdlab.

Leaves out: the host's own writes during a suspension (held, issued afterwards), card hot-plug time,
the exchange of a TLC chip.

Source: seed 004 §4, Fig. 13-14.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ssdlab.reproduce import report
from ssdlab.reproduce.tlc_mlc_objective import MLC_PAGES_PER_BLOCK, PAGE_BYTES

# The seed's valid data on the worn chip, and what it gives for the conventional exchange.
EXCHANGE_VALID_BYTES = 8e9
SEED_SUSPEND_S = 960.0
SEED_DEAD_TIME_S = 0.2
MLC_CHIPS = 4
# How full every MLC chip is before the exchange (the destination capacity).
SEED_FILL = 0.5
FULL_FILL = 0.95
EXCHANGE_FILLS = (SEED_FILL, FULL_FILL)
EXCHANGE_AT_NS = 1_000_000_000
# (action, copy path, destination dies = MLC chips - 1, fills) per point: the preset's array (3
# destination dies) at both fills; the read-only drain at the seed-like fill only; one destination die
# (2 MLC + 6 TLC chips: one program stream, the seed's implied pace) at fill 0.4, where the destination
# ends 0.8 full and needs no collection.
ONE_STREAM_FILL = 0.4
EXCHANGE_CASES = (
    ("suspend_and_copy", "pipelined", MLC_CHIPS - 1, EXCHANGE_FILLS),
    ("suspend_and_copy", "chained", MLC_CHIPS - 1, EXCHANGE_FILLS),
    ("retire_chip", None, MLC_CHIPS - 1, (SEED_FILL,)),
    ("suspend_and_copy", "pipelined", 1, (ONE_STREAM_FILL,)),
)
CHIPS = 8


def exchange_blocks(fill: float, scale: float = 1.0) -> int:
    """Blocks per plane (one plane per chip) that make a chip holding the worn chip's data ``fill`` full."""
    return max(64, math.ceil(EXCHANGE_VALID_BYTES * min(1.0, scale) / (fill * MLC_PAGES_PER_BLOCK * PAGE_BYTES)))


def exchange_points(scale: float = 1.0) -> dict[str, list[str]]:
    """Every exchange point: ``exchange|ACTION|FILL|COPY_PATH|DESTINATION_DIES`` (``-`` for the drain's
    copy path)."""
    points = {}
    for action, path, destinations, fills in EXCHANGE_CASES:
        mlc = destinations + 1
        for fill in fills:
            blocks = exchange_blocks(fill, scale)
            # Every MLC chip holds `fill` of its pages; the stand-in's data is spread over them
            # (static but for 2 % of the span).
            span = int(mlc * blocks * MLC_PAGES_PER_BLOCK * PAGE_BYTES * fill) // PAGE_BYTES * PAGE_BYTES
            chips = (
                []
                if mlc == MLC_CHIPS
                else [
                    f"device.tiers.{tier}.{key}={count}"
                    for tier, count in (("mlc", mlc), ("tlc", CHIPS - mlc))
                    for key in ("chips", "channels")
                ]
            )
            copy = f', copy_path="{path}"' if path else ""
            points[f"exchange|{action}|{fill}|{path or '-'}|{destinations}"] = chips + [
                f"device.tiers.mlc.blocks_per_plane={blocks}",
                f"device.tiers.tlc.blocks_per_plane={blocks}",
                f"workload.synthetic.span_bytes={span}",
                'workload.synthetic.address={ distribution = "hot_cold", hot_space_fraction = 0.02, hot_access_fraction = 1.0 }',
                f"workload.synthetic.requests={max(2000, round(100_000 * scale))}",
                f'events=[{{at_ns={EXCHANGE_AT_NS}, action="{action}", chip=1{copy}}}]',
            ]
    return points


def exchange_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per exchange point: what the chip held, how long the host was suspended, the copy's
    rate, the dead time (one definition, module doc), the drain's longest step and the collection the
    copy set off."""
    table = []
    for row in rows:
        label = row["point.point"]
        if not label.startswith("exchange|"):
            continue
        _, action, fill, path, destinations = label.split("|")
        entry: dict[str, Any] = {
            "method": action,
            "fill": float(fill),
            "copy_path": None if path == "-" else path,
            "destination_dies": int(destinations),
            "status": row["status"] if row["status"] == "ok" else row["error"],
        }
        if row["status"] == "ok":
            result = json.loads(row["result_json"])
            event, dead = result["events"][0], result["dead_time"]
            valid = event["valid_pages_at_fire"] * PAGE_BYTES
            suspended = event["suspended_ns"] / 1e9
            copied = (event["copy_ended_at_ns"] - event["fired_at_ns"]) / 1e9 if event.get("copy_ended_at_ns") is not None else None
            collected = sum(tier["gc"]["pages_copied"] + tier["gc"].get("pages_migrated", 0) for tier in result["tiers"].values())
            entry.update(
                {
                    "valid_gb_at_fire": valid / 1e9,
                    "suspended_s": suspended,
                    "copy_mbps": valid / 1e6 / suspended if suspended > 0 else None,
                    "copy_only_s": copied,
                    "dead_time_s": dead["dead_time_us"] / 1e6,
                    "longest_host_stall_s": (dead.get("longest_host_stall_us") or 0.0) / 1e6,
                    "longest_gc_step_s": event.get("longest_step_ns", 0) / 1e9 if action == "retire_chip" else None,
                    "longest_background_run_s": dead["longest_background_span_us"] / 1e6,
                    "chip_empty_after_s": (event["emptied_at_ns"] - event["fired_at_ns"]) / 1e9
                    if event["emptied_at_ns"] is not None
                    else None,
                    "pages_moved": event["pages_moved"],
                    "gc_pages_copied": collected,
                }
            )
        table.append(entry)
    return sorted(table, key=lambda r: (-r["destination_dies"], r["fill"], r["method"], r["copy_path"] or ""))


def seed_case(exchange: Sequence[Mapping[str, Any]], method: str, copy_path: str | None = "pipelined") -> Mapping[str, Any] | None:
    """The seed-like scenario's row of one method (fill ``SEED_FILL``)."""
    return next(
        (
            r
            for r in exchange
            if r["status"] == "ok"
            and r["method"] == method
            and r["fill"] == SEED_FILL
            and r["destination_dies"] == MLC_CHIPS - 1
            and (method == "retire_chip" or r["copy_path"] == copy_path)
        ),
        None,
    )


def one_stream_case(exchange: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The one-destination-die copy (one program stream, the seed's implied pace)."""
    return next((r for r in exchange if r["status"] == "ok" and r["destination_dies"] == 1), None)


def dead_time_figure(exchange: Sequence[Mapping[str, Any]], stem: Path) -> Path:
    """Seed Fig. 14: the dead time of each method (the longest the host got nothing done, module doc)
    at the seed-like fill, beside the seed's 960 s and ~200 ms, and the drain's longest GC step (the
    seed's "required time for GC"), on a log scale."""
    from ssdlab import plotting

    bars = []
    for method, path, name in (("suspend_and_copy", "pipelined", "suspend and copy"), ("retire_chip", None, "read-only drain")):
        row = seed_case(exchange, method, path)
        if row is not None:
            bars.append((f"{name}\nssdlab, dead time\n({row['valid_gb_at_fire']:.1f} GB)", row["dead_time_s"], "#1f77b4"))
            if method == "retire_chip" and row.get("longest_gc_step_s") is not None:
                bars.append(("read-only drain\nssdlab, one GC\nstep (not dead)", row["longest_gc_step_s"], "#6baed6"))
    bars += [
        ("suspend and copy\nseed (8 GB)", SEED_SUSPEND_S, "#bbbbbb"),
        ('read-only drain\nseed ("GC time")', SEED_DEAD_TIME_S, "#bbbbbb"),
    ]
    fig, axes = plotting.figure(8.5, 4.6)
    values = [max(value or 0.0, 1e-4) for _, value, _ in bars]
    axes.bar(range(len(bars)), values, color=[colour for _, _, colour in bars])
    for position, value in enumerate(values):
        axes.text(position, value, f"{value:,.3g} s", ha="center", va="bottom", fontsize=8)
    axes.set_yscale("log")
    axes.set_xticks(range(len(bars)), [label for label, _, _ in bars], fontsize=7)
    axes.set_ylabel("seconds")
    axes.set_title(
        f"Seed 004 Fig. 14: chip exchange at destination fill {SEED_FILL:g}\ndead time = longest time the host got nothing done",
        fontsize=10,
    )
    axes.grid(axis="y", alpha=0.3)
    return plotting.save(fig, stem)[0]


def report_section(exchange: Sequence[Mapping[str, Any]]) -> list[str]:
    """The report's chip-exchange section."""
    return [
        "## Chip exchange (Fig. 13-14)",
        "",
        f"Seed: with {EXCHANGE_VALID_BYTES / 1e9:.0f} GB of valid pages on the worn chip, the conventional exchange suspends the system for "
        f"{SEED_SUSPEND_S:.0f} s (about {EXCHANGE_VALID_BYTES / 1e6 / SEED_SUSPEND_S:.1f} MB/s); the proposal (the chip read-only, drained by "
        f'overwrites and GC while the host runs) has ~{1000 * SEED_DEAD_TIME_S:.0f} ms of continuous dead time, "the required time for GC". '
        f"Here MLC chip 1 of the preset's array holds the seed's {EXCHANGE_VALID_BYTES / 1e9:.0f} GB when it is exchanged at "
        f"{EXCHANGE_AT_NS / 1e9:g} s of the stand-in's run; the chips are sized so that every MLC chip is `fill` full before (the destination "
        f"capacity: the other {MLC_CHIPS - 1} take the worn chip's pages on top). Fill {SEED_FILL:g} is the graded scenario (the destinations "
        f"have room: no collection beyond the copy itself; the seed names no destination); fill {FULL_FILL:g} overflows them. With one "
        f"destination die ({MLC_CHIPS - 2} MLC + {CHIPS - MLC_CHIPS + 2} TLC chips, fill {ONE_STREAM_FILL:g}) the copy is one program stream, "
        "the pace the seed's figure works out to (a reading: the stream's speed here is set by the preset's MLC program time). `copy_path`: "
        "`pipelined` (as a controller copies: reads overlapped with programs on every destination die) or `chained` (one chain per source "
        "die, as garbage collection copies). **Dead time** is one quantity throughout (result `dead_time.dead_time_us`, Fig. 14 and the "
        "headlines): the longest time the host got nothing done at once, a suspension or a host stall; it is the graded quantity of both "
        "seed figures. `longest GC step` is the read-only drain's longest single step (one block moved and the collection it set off), the "
        'seed\'s "required time for GC" read as its own quantity (a reading, never counted); `longest background run` is background work '
        "back to back on one die while the host is served elsewhere (not dead time).",
        "",
        report.markdown_table(
            exchange,
            [
                ("method", "method", "text"),
                ("fill", "fill", "ratio"),
                ("copy path", lambda r: r.get("copy_path") or "-", "text"),
                ("destination dies", "destination_dies", "int"),
                ("valid GB on the chip", "valid_gb_at_fire", "num"),
                ("suspended s", "suspended_s", "num"),
                ("copy MB/s", "copy_mbps", "num"),
                ("pages copied, exchange and GC (whole run)", "gc_pages_copied", "int"),
                ("dead time s", "dead_time_s", "ratio"),
                ("longest GC step s", "longest_gc_step_s", "ratio"),
                ("longest background run s", "longest_background_run_s", "num"),
                ("chip empty after s", "chip_empty_after_s", "num"),
                ("status", "status", "text"),
            ],
        ),
        "",
    ]
