"""The flows interference experiment (issue 37, docs/flows.md): two I/O flows share one drive
(``configs/two-flows.toml``: a reader of 4 KiB random reads at a fixed rate, a writer of 16-64 KiB
random writes) and the writer's rate is swept; at each rate both arbitrations are run (round
robin, and weighted round robin with the reader high and the writer low), with the controller
holding 65,535 commands (MQSim's default) and 16. Each point is one call
into the simulator, which also runs each flow alone on the same drive, so every row carries the
flows' slowdowns (latency shared / latency alone) and the fairness (smallest slowdown / largest).

The writer keeps the reader's duration: its request count is the reader's span divided by its own
inter-arrival time. Writes ``flows-interference.parquet`` and ``.json`` (one row per point) and
``flows-interference.png``/``.svg`` (the reader's tail latency and the slowdowns against the
writer's load).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ssdlab import _native, api, outputs, plotting
from ssdlab.usage import UsageError

PRESET = "two-flows"
ARBITRATIONS = ("round_robin", "weighted_round_robin")
# The writer's mean inter-arrival times (us): from a light load to past the drive's write bandwidth.
DEFAULT_WRITER_INTERARRIVAL_US = (800.0, 400.0, 200.0, 100.0, 50.0)
# Commands the controller holds at once over both queues: MQSim's 65,535 (fetching never waits, so
# the arbitration never decides anything) and 16 (fetching waits, and the arbitration decides who).
DEFAULT_DEVICE_QUEUE_DEPTHS = (65535, 16)
# The reader as the preset has it (its table is in the list host.flows, which `--set` does not index).
READER_INTERARRIVAL_US = 200.0
READER_REQUESTS = 25_000
# The writer's requests per point are at most this: 1 us between writes over the reader's 5 s span.
# The default sweep's shortest time (50 us, 100,000 writes) already saturates the drive (docs/flows.md:
# 14,500 of 20,000 IOPS served alone); a shorter time only queues more writes and lengthens the run
# (0.001 us asked for 5x10^9).
MAX_WRITER_REQUESTS = 5_000_000


def reader_span_us() -> float:
    """The reader's span (us), which the writer keeps."""
    return READER_REQUESTS * READER_INTERARRIVAL_US


def parse_interarrival_times(text: str) -> list[float]:
    """``--writer-interarrival-us``: comma-separated times (us), each finite, distinct, at most the
    reader's span (a longer one gives the writer less than one request) and at least the time that
    gives ``MAX_WRITER_REQUESTS`` writes."""
    option = "--writer-interarrival-us"
    span = reader_span_us()
    shortest = span / MAX_WRITER_REQUESTS
    values = _parse_list(text, option, float, "a number", "numbers of microseconds, e.g. 800,400,200")
    for value in values:
        if not math.isfinite(value) or value <= 0:
            raise UsageError(f"{option} {value:g}: must be a finite positive number of microseconds")
        if value > span:
            raise UsageError(
                f"{option} {value:g}: at most {span:,.0f} us (the reader's span, which the writer keeps: a longer time gives it no request)"
            )
        if value < shortest:
            raise UsageError(
                f"{option} {value:g}: asks for {span / value:,.0f} writer requests per point; at most {MAX_WRITER_REQUESTS:,} "
                f"(an inter-arrival of at least {shortest:g} us): at 50 us (20,000 IOPS) the writer already saturates the drive "
                "(docs/flows.md), and a shorter time only lengthens the run"
            )
    return values


def parse_device_queue_depths(text: str) -> list[int]:
    """``--device-queue-depth``: comma-separated whole numbers of commands, each at least 1 and distinct
    (the upper bound is the config's, checked with each point's config)."""
    option = "--device-queue-depth"
    values = _parse_list(text, option, int, "a whole number", "whole numbers of commands, e.g. 65535,16")
    for value in values:
        if value < 1:
            raise UsageError(f"{option} {value}: must be at least 1 command")
    return values


def _parse_list(text: str, option: str, kind: type, one: str, expected: str) -> list[Any]:
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise UsageError(f"{option} {text!r}: no value; give {expected}")
    values = []
    for item in items:
        if not item:
            raise UsageError(f"{option} {text!r}: an empty value between commas; give {expected}")
        try:
            values.append(kind(item))
        except ValueError:
            raise UsageError(f"{option} {item!r}: not {one}; give {expected}") from None
    twice = sorted({value for value in values if values.count(value) > 1})
    if twice:
        raise UsageError(f"{option} {text!r}: {', '.join(f'{value:g}' for value in twice)} given more than once")
    return values


def check_inputs(writer_interarrival_us: Sequence[float], arbitrations: Sequence[str], device_queue_depths: Sequence[int]) -> None:
    """Refuses, before the first simulation, an empty axis, a repeated arbitration and any point whose
    config the simulator would refuse (an unknown arbitration, a queue depth past the config's bound)."""
    for option, values in (
        ("--writer-interarrival-us", writer_interarrival_us),
        ("--arbitration", arbitrations),
        ("--device-queue-depth", device_queue_depths),
    ):
        if not values:
            raise UsageError(f"{option}: no value; the experiment needs at least one")
    twice = sorted({name for name in arbitrations if list(arbitrations).count(name) > 1})
    if twice:
        raise UsageError(f"--arbitration {', '.join(twice)}: given more than once")
    for name in arbitrations:
        if name not in ARBITRATIONS:
            raise UsageError(f"--arbitration {name!r}: expected one of {', '.join(ARBITRATIONS)}")
    for depth in device_queue_depths:
        for arbitration in arbitrations:
            for interarrival in writer_interarrival_us:
                # The simulator's own check of the whole config, which a run would only make at its start.
                try:
                    api.load_config(PRESET, overrides=point_overrides(interarrival, arbitration, depth))
                except _native.ConfigurationError as error:
                    where = f"--writer-interarrival-us {interarrival:g} --arbitration {arbitration} --device-queue-depth {depth}"
                    raise UsageError(f"the point {where}: {error}") from None


def point_overrides(writer_interarrival_us: float, arbitration: str, device_queue_depth: int = 65535) -> list[str]:
    """The overrides of one point: the writer's ([workload]'s) rate and length (the reader's span),
    the arbitration and the device queue depth."""
    span_us = READER_REQUESTS * READER_INTERARRIVAL_US
    writer_requests = max(1, round(span_us / writer_interarrival_us))
    return [
        f"workload.synthetic.requests={writer_requests}",
        f"workload.synthetic.arrival.mean_interarrival_ns={writer_interarrival_us * 1e3}",
        f'host.queues.arbitration="{arbitration}"',
        f"host.device_queue_depth={device_queue_depth}",
    ]


def row_of(result: dict[str, Any], writer_interarrival_us: float, arbitration: str, device_queue_depth: int = 65535) -> dict[str, Any]:
    """One row: the point and each flow's figures, prefixed by the flow's name."""
    section = result["flows"]
    row: dict[str, Any] = {
        "writer_interarrival_us": writer_interarrival_us,
        "writer_offered_iops": 1e6 / writer_interarrival_us,
        "arbitration": arbitration,
        "device_queue_depth": device_queue_depth,
        "fairness": section.get("fairness"),
        "die_utilisation": result["utilisation"]["die"],
        "gc_blocks_erased": result["gc"]["blocks_erased"],
    }
    for flow in section["per_flow"]:
        name = flow["name"]
        latency = flow["all"]["latency_us"]
        row.update(
            {
                f"{name}_requests": flow["requests"],
                f"{name}_iops": flow["iops"],
                f"{name}_mean_us": latency["mean"],
                f"{name}_p99_us": latency["p99"],
                f"{name}_p999_us": latency["p999"],
                f"{name}_alone_mean_us": flow.get("alone_mean_latency_us"),
                f"{name}_slowdown": flow.get("slowdown"),
            }
        )
    return row


def run_experiment(
    out: Path,
    *,
    writer_interarrival_us: Sequence[float] = DEFAULT_WRITER_INTERARRIVAL_US,
    arbitrations: Sequence[str] = ARBITRATIONS,
    device_queue_depths: Sequence[int] = DEFAULT_DEVICE_QUEUE_DEPTHS,
    on_point: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Runs every point; writes the table, JSON and figure under ``out``; returns the rows. Every input
    and ``out`` are checked before the first simulation; a write that fails after them saves the rows
    to the temporary folder and raises ``outputs.OutputFailed`` naming it."""
    out = Path(out)
    check_inputs(writer_interarrival_us, arbitrations, device_queue_depths)
    outputs.check_folder("--out", out)
    rows = []
    for depth in device_queue_depths:
        for arbitration in arbitrations:
            for interarrival in writer_interarrival_us:
                overrides = point_overrides(interarrival, arbitration, depth)
                result = api.run(PRESET, overrides=overrides).to_dict()
                row = row_of(result, interarrival, arbitration, depth)
                rows.append(row)
                if on_point is not None:
                    on_point(row)
    try:
        write_outputs(out, rows)
    except Exception as error:
        saved = outputs.rescue(json.dumps(rows, indent=2) + "\n", "flows-interference.json")
        raise outputs.OutputFailed(outputs.failed_message(out, error, saved, "the table and figure")) from None
    return rows


def write_outputs(out: Path, rows: list[dict[str, Any]]) -> list[Path]:
    import polars as pl

    stem = out / "flows-interference"
    pl.DataFrame(rows).write_parquet(stem.with_suffix(".parquet"))
    stem.with_suffix(".json").write_text(json.dumps(rows, indent=2) + "\n")
    return figure(rows, stem)


def figure(rows: list[dict[str, Any]], stem: Path) -> list[Path]:
    """Two panels against the writer's offered IOPS: the reader's p99 latency, and both flows'
    slowdowns, one line per device queue depth and arbitration."""
    fig, (top, bottom) = plotting.figure(6.5, 6.5, rows=2, sharex=True)
    for depth, arbitration in sorted({(row["device_queue_depth"], row["arbitration"]) for row in rows}, reverse=True):
        chosen = sorted(
            (row for row in rows if row["arbitration"] == arbitration and row["device_queue_depth"] == depth),
            key=lambda row: row["writer_offered_iops"],
        )
        xs = [row["writer_offered_iops"] for row in chosen]
        label = ("RR" if arbitration == "round_robin" else "WRR") + f", device QD {depth}"
        top.plot(xs, [row["reader_p99_us"] for row in chosen], "o-", markersize=4, label=f"reader p99, {label}")
        for flow, style in (("reader", "o-"), ("writer", "^:")):
            ys = [row.get(f"{flow}_slowdown") for row in chosen]
            points = [(x, y) for x, y in zip(xs, ys) if y is not None]
            if points:
                bottom.plot([p[0] for p in points], [p[1] for p in points], style, markersize=4, label=f"{flow} slowdown, {label}")
    top.set_ylabel("reader p99 latency (us)")
    top.set_yscale("log")
    top.set_title("Two flows on MQSim's drive: the reader (4 KiB, 5,000 IOPS) as the writer's load grows", fontsize=9)
    bottom.set_ylabel("slowdown (shared / alone)")
    bottom.set_xlabel("writer offered IOPS (16-64 KiB writes)")
    bottom.set_xscale("log")
    for axes in (top, bottom):
        axes.grid(alpha=0.3)
        axes.legend(fontsize=7)
    return plotting.save(fig, stem)
