"""Seed 004's chip exchange (Fig. 13-14) in the tlc-mlc recipe: the conventional exchange (host I/O
suspended while every valid page of the worn chip is copied) against the seed's (the chip read-only,
its valid pages "gradually evicted from the degraded chip by normal overwrite or GC operation"
while the host runs).

What it models. MLC chip 1 of the preset's array (4 MLC + 4 TLC, RR-FDCA) holds the seed's 8 GB of
valid pages when it is exchanged; the chips are sized so that, before the exchange, every MLC chip is
``fill`` full (the destination capacity: the three other MLC chips take the worn chip's pages on top
of their own). At the seed-like fill (``SEED_FILL``) the destinations end about two thirds full and
the copy sets off no collection, the seed's "Assuming 8GB valid pages in the degraded chip" with
nothing else said; at ``FULL_FILL`` they overflow and the copy pays for collection in them (the
scenario ssdlab ran before issue 35). The copy path is the controller's pipeline
(``copy_path = "pipelined"``, ``scheduler/copy_pipeline.rs``) with the chained one beside it.

The read-only drain, two readings (``[[events]] drain``, issue 46 item 8): the seed's,
``with_collection`` (graded): no mover of its own; each foreground collection of the MLC tier takes
one of the chip's blocks along, so the chip empties at the pace of the host's writes and each block
moved holds its dies for one collection; and ``background`` (a reading): a mover of its own, one block
whenever the chip's dies are idle, back to back (ssdlab's reading before issue 46). The host runs for
the whole drain in both. The run is as long as the other exchange points; the seed's drain is not
timed ("gradually"), so a drain that has not emptied the chip by the run's end reports how far it
got and the pace (blocks per second of host writes).

Dead time, one definition for the result, the figure and the headlines: the longest time the host got
nothing done at once (``result.dead_time.dead_time_us``: the longer of a suspension and the longest
host stall, a request waiting while none completes). The seed's ~200 ms for the proposal is "the
required time for GC"; beside it, each drain step (one block moved, with the collection that took it
along or that it set off: ``events[].median_step_ns``, ``longest_step_ns``) is that quantity in
ssdlab: the typical and the longest time one block moved holds its dies.

Leaves out: the host's own writes during a suspension (held, issued afterwards), card hot-plug time,
the exchange of a TLC chip.

Source: seed 004 §4, Fig. 13-14.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ssdlab.reproduce import report
from ssdlab.reproduce.claims import load
from ssdlab.reproduce.tlc_mlc_objective import MLC_PAGES_PER_BLOCK, PAGE_BYTES

# The seed's valid data on the worn chip, and what it gives for the conventional exchange (the claim
# book claims/tlc_mlc.toml).
SEED = load("tlc_mlc").seed
EXCHANGE_VALID_BYTES = SEED["exchange_valid_bytes"]
SEED_SUSPEND_S = SEED["exchange_suspended_s"]
SEED_DEAD_TIME_S = SEED["exchange_dead_time_s"]
MLC_CHIPS = 4
# How full every MLC chip is before the exchange (the destination capacity).
SEED_FILL = 0.5
FULL_FILL = 0.95
EXCHANGE_FILLS = (SEED_FILL, FULL_FILL)
EXCHANGE_AT_NS = 1_000_000_000
# (action, copy path or drain, destination dies = MLC chips - 1, fills) per point: the preset's array
# (3 destination dies) at both fills; the read-only drain (with collection, the seed's; in the
# background, a reading) at the seed-like fill only; one destination die (2 MLC + 6 TLC chips: one
# program stream, the seed's implied pace) at fill 0.4, where the destination ends 0.8 full and needs
# no collection.
ONE_STREAM_FILL = 0.4
SEED_DRAIN = "with_collection"
# A drain by collection moves blocks only while the host's writes set collection off: with room in
# the destinations (SEED_FILL) none runs within the run; at FULL_FILL it does, given this many times
# the other points' requests (measured: 570 blocks at 1.5 M requests, scale 1).
DRAIN_RUN_FACTOR = 15
EXCHANGE_CASES = (
    ("suspend_and_copy", "pipelined", MLC_CHIPS - 1, EXCHANGE_FILLS),
    ("suspend_and_copy", "chained", MLC_CHIPS - 1, EXCHANGE_FILLS),
    ("retire_chip", SEED_DRAIN, MLC_CHIPS - 1, EXCHANGE_FILLS),
    ("retire_chip", "background", MLC_CHIPS - 1, (SEED_FILL,)),
    ("suspend_and_copy", "pipelined", 1, (ONE_STREAM_FILL,)),
)
CHIPS = 8


def exchange_blocks(fill: float, scale: float = 1.0) -> int:
    """Blocks per plane (one plane per chip) that make a chip holding the worn chip's data ``fill`` full."""
    return max(64, math.ceil(EXCHANGE_VALID_BYTES * min(1.0, scale) / (fill * MLC_PAGES_PER_BLOCK * PAGE_BYTES)))


class ExchangePoint(NamedTuple):
    """One exchange point: the action (``suspend_and_copy`` or ``retire_chip``), how full every MLC
    chip is before, how (a copy's path or a drain's mode) and the destination dies (MLC chips - 1)."""

    action: str
    fill: float
    how: str
    destinations: int

    @property
    def label(self) -> str:
        return f"exchange|{self.action}|{self.fill}|{self.how}|{self.destinations}"


def exchange_grid() -> list[ExchangePoint]:
    """Every exchange point of ``EXCHANGE_CASES``."""
    return [ExchangePoint(action, fill, how, destinations) for action, how, destinations, fills in EXCHANGE_CASES for fill in fills]


def exchange_points(scale: float = 1.0) -> dict[str, list[str]]:
    """Every exchange point's overrides by its label (``ExchangePoint.label``)."""
    points = {}
    for point in exchange_grid():
        mlc = point.destinations + 1
        blocks = exchange_blocks(point.fill, scale)
        # Every MLC chip holds `fill` of its pages; the stand-in's data is spread over them
        # (static but for 2 % of the span).
        span = int(mlc * blocks * MLC_PAGES_PER_BLOCK * PAGE_BYTES * point.fill) // PAGE_BYTES * PAGE_BYTES
        chips = [
            f"device.tiers.{tier}.{key}={count}" for tier, count in (("mlc", mlc), ("tlc", CHIPS - mlc)) for key in ("chips", "channels")
        ]
        copy = f', drain="{point.how}"' if point.action == "retire_chip" else f', copy_path="{point.how}"'
        requests = max(2000, round(100_000 * scale)) * (DRAIN_RUN_FACTOR if (point.how, point.fill) == (SEED_DRAIN, FULL_FILL) else 1)
        points[point.label] = (chips if mlc != MLC_CHIPS else []) + [
            f"device.tiers.mlc.blocks_per_plane={blocks}",
            f"device.tiers.tlc.blocks_per_plane={blocks}",
            f"workload.synthetic.span_bytes={span}",
            'workload.synthetic.address={ distribution = "hot_cold", hot_space_fraction = 0.02, hot_access_fraction = 1.0 }',
            f"workload.synthetic.requests={requests}",
            f'events=[{{at_ns={EXCHANGE_AT_NS}, action="{point.action}", chip=1{copy}}}]',
        ]
    return points


def exchange_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per exchange point: what the chip held, how long the host was suspended, the copy's
    rate, the dead time (one definition, module doc), the drain's longest step and the collection the
    copy set off."""
    grid = {point.label: point for point in exchange_grid()}
    table = []
    for row in rows:
        point = grid.get(row["point.point"])
        if point is None:
            continue
        drain = point.action == "retire_chip"
        entry: dict[str, Any] = {
            "method": point.action,
            "fill": point.fill,
            "copy_path": None if drain else point.how,
            "drain": point.how if drain else None,
            "destination_dies": point.destinations,
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
                    "longest_gc_step_s": event.get("longest_step_ns", 0) / 1e9 if drain else None,
                    "median_gc_step_s": event.get("median_step_ns", 0) / 1e9 if drain else None,
                    "blocks_moved": event["blocks_moved"],
                    "drained_fraction": 1.0 - event.get("valid_pages_at_end", 0) / event["valid_pages_at_fire"]
                    if event["valid_pages_at_fire"]
                    else None,
                    "drain_blocks_per_s": _drain_pace(event, result) if drain else None,
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


def _drain_pace(event: Mapping[str, Any], result: Mapping[str, Any]) -> float | None:
    """Blocks a drain moved per simulated second from its firing to its chip's emptying (or the
    run's end)."""
    end = event["emptied_at_ns"] if event["emptied_at_ns"] is not None else result["simulated_seconds"] * 1e9
    span = (end - event["fired_at_ns"]) / 1e9 if event["fired_at_ns"] is not None else 0.0
    return event["blocks_moved"] / span if span > 0 else None


def drain_case(exchange: Sequence[Mapping[str, Any]], fill: float = FULL_FILL) -> Mapping[str, Any] | None:
    """The seed's drain (each collection takes a block along) at ``fill``: by default where
    collection runs within the run (``FULL_FILL``), the measured one."""
    return next(
        (r for r in exchange if r["status"] == "ok" and r["method"] == "retire_chip" and r["drain"] == SEED_DRAIN and r["fill"] == fill),
        None,
    )


def seed_case(exchange: Sequence[Mapping[str, Any]], method: str, copy_path: str | None = "pipelined") -> Mapping[str, Any] | None:
    """The seed-like scenario's row of one method (fill ``SEED_FILL``): a copy by its path, a drain by
    its mode (``copy_path`` names it; the seed's by default)."""
    if method == "retire_chip" and copy_path == "pipelined":
        copy_path = SEED_DRAIN
    return next(
        (
            r
            for r in exchange
            if r["status"] == "ok"
            and r["method"] == method
            and r["fill"] == SEED_FILL
            and r["destination_dies"] == MLC_CHIPS - 1
            and (r["drain"] if method == "retire_chip" else r["copy_path"]) == copy_path
        ),
        None,
    )


def one_stream_case(exchange: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The one-destination-die copy (one program stream, the seed's implied pace)."""
    return next((r for r in exchange if r["status"] == "ok" and r["destination_dies"] == 1), None)


def dead_time_figure(exchange: Sequence[Mapping[str, Any]], stem: Path) -> Path:
    """Seed Fig. 14: the dead time of each method (the longest the host got nothing done, module doc)
    at the seed-like fill, beside the seed's 960 s and ~200 ms, and the drain's typical and longest
    step per block moved (the seed's "required time for GC"), on a log scale."""
    from ssdlab import plotting

    bars = []
    copy = seed_case(exchange, "suspend_and_copy", "pipelined")
    if copy is not None:
        bars.append((f"suspend and copy\nssdlab, dead time\n({copy['valid_gb_at_fire']:.1f} GB)", copy["dead_time_s"], "#1f77b4"))
    drain = drain_case(exchange)
    if drain is not None:
        bars.append((f"read-only drain\nssdlab, dead time\n({drain['valid_gb_at_fire']:.1f} GB)", drain["dead_time_s"], "#1f77b4"))
        if drain.get("median_gc_step_s"):
            bars.append(("read-only drain\nssdlab, typical\nblock moved", drain["median_gc_step_s"], "#6baed6"))
            bars.append(("read-only drain\nssdlab, longest\nblock moved", drain["longest_gc_step_s"], "#6baed6"))
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


# The exchange table of the report: (header, key, report.fmt kind).
EXCHANGE_COLUMNS = (
    ("method", "method", "text"),
    ("fill", "fill", "ratio"),
    ("copy path or drain", lambda r: r.get("copy_path") or r.get("drain") or "-", "text"),
    ("destination dies", "destination_dies", "int"),
    ("valid GB on the chip", "valid_gb_at_fire", "num"),
    ("suspended s", "suspended_s", "num"),
    ("copy MB/s", "copy_mbps", "num"),
    ("pages copied, exchange and GC (whole run)", "gc_pages_copied", "int"),
    ("dead time s", "dead_time_s", "ratio"),
    ("typical step per block moved s", "median_gc_step_s", "ratio"),
    ("longest step per block moved s", "longest_gc_step_s", "ratio"),
    ("blocks moved", "blocks_moved", "int"),
    ("drained", "drained_fraction", "ratio"),
    ("blocks/s", "drain_blocks_per_s", "num"),
    ("longest background run s", "longest_background_run_s", "num"),
    ("chip empty after s", "chip_empty_after_s", "num"),
    ("status", "status", "text"),
)


def report_values(exchange: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the report's chip-exchange section (``tlc_mlc_exchange.md.j2``) is filled with."""
    return {
        "valid_bytes": EXCHANGE_VALID_BYTES,
        "seed_suspend_s": SEED_SUSPEND_S,
        "seed_dead_time_s": SEED_DEAD_TIME_S,
        "exchange_at_ns": EXCHANGE_AT_NS,
        "mlc_chips": MLC_CHIPS,
        "chips": CHIPS,
        "seed_fill": SEED_FILL,
        "full_fill": FULL_FILL,
        "one_stream_fill": ONE_STREAM_FILL,
        "exchange_table": report.markdown_table(exchange, EXCHANGE_COLUMNS),
    }
