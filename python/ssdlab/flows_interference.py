"""The flows interference experiment (issue 37, docs/flows.md): two I/O flows share one drive
(``configs/two-flows.toml``: a reader of 4 KiB random reads at a fixed rate, a writer of 16-64 KiB
random writes) and the writer's rate is swept; at each rate both arbitrations are run (round
robin, and weighted round robin with the reader high and the writer low), with the controller
holding 65,535 commands (MQSim's default) and 16. Each point is one call
into the simulator, which also runs each flow alone on the same drive, so every row carries the
flows' slowdowns (latency shared / latency alone) and the fairness (smallest slowdown / largest).

Issue 49 adds the flash side: each point may also be run under several transaction scheduling
policies (``scheduler.policy``: MQSim's ``TSU_OutofOrder`` and ``TSU_Priority_OutOfOrder`` beside
ssdlab's first come, first served) and program/erase suspension settings
(``scheduler.suspension.operations``, MQSim's ``CMD_Suspension_Support``; docs/scheduling.md), and
the row carries the die queues' statistics. The default (``fifo``, no suspension) is the booking
model, so the default rows are those of issue 37 plus the two columns naming the setting. Left out:
the suspend times and preferred suspend times are the config's (MQSim's shipped values), not swept.

The writer keeps the reader's duration: its request count is the reader's span divided by its own
inter-arrival time. Writes ``flows-interference.parquet`` and ``.json`` (one row per point) and
``flows-interference.png``/``.svg``: with one scheduling setting, the reader's p99 latency and the
slowdowns against the writer's load, one line per device queue depth and arbitration; with several,
the reader's p99 and p99.9 and the writer's mean latency against the writer's load, one line per
setting (so the cost to the writer is beside the gain to the reader).
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
# The transaction scheduling policies and suspension settings the config accepts (docs/scheduling.md).
POLICIES = ("fifo", "out_of_order", "priority_out_of_order", "flin")
SUSPENSIONS = ("none", "program", "erase", "program_and_erase")
DEFAULT_POLICIES = ("fifo",)
DEFAULT_SUSPENSIONS = ("none",)
# `--compare-scheduling`: every policy, without and with suspension of both kinds. The arbitration and
# the device queue depth are pinned to one value each (unless given): with 65,535 slots the arbitration
# decides nothing (docs/flows.md), so sweeping it would only double the run.
# --compare-scheduling: the policies of the docs' table (flin can be added with --policies).
COMPARE_POLICIES = POLICIES[:3]
COMPARE_SUSPENSIONS = ("none", "program_and_erase")
COMPARE_ARBITRATIONS = ("weighted_round_robin",)
COMPARE_DEVICE_QUEUE_DEPTHS = (65535,)
# The die queues' statistics a row carries (the result's `scheduler` section, docs/results.md "Die
# queues"), each as a column `scheduler_<key>`; absent (None) under the booking model, which has no queues.
SCHEDULER_KEYS = (
    "queued_operations",
    "mean_queue_wait_us",
    "longest_queue_wait_us",
    "program_suspensions",
    "erase_suspensions",
    "suspend_time_us",
    "resumes",
)
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


def parse_policies(text: str) -> list[str]:
    """``--policies``: comma-separated transaction scheduling policies, each known and distinct."""
    return _parse_names(text, "--policies", POLICIES)


def parse_suspensions(text: str) -> list[str]:
    """``--suspension``: comma-separated suspension settings (``scheduler.suspension.operations``), each
    known and distinct."""
    return _parse_names(text, "--suspension", SUSPENSIONS)


def _parse_names(text: str, option: str, known: Sequence[str]) -> list[str]:
    expected = f"names from {', '.join(known)}, e.g. {','.join(known[:2])}"
    values = _parse_list(text, option, str, "a name", expected)
    for value in values:
        if value not in known:
            raise UsageError(f"{option} {value!r}: expected one of {', '.join(known)}")
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
        shown = ", ".join(value if isinstance(value, str) else f"{value:g}" for value in twice)
        raise UsageError(f"{option} {text!r}: {shown} given more than once")
    return values


def scheduling_comparison(
    arbitrations: Sequence[str] | None,
    device_queue_depths: Sequence[int] | None,
    policies: Sequence[str] | None,
    suspensions: Sequence[str] | None,
) -> tuple[list[str], list[int], list[str], list[str]]:
    """``--compare-scheduling``: every axis not given (None) takes the comparison's values (every
    policy, without and with program-and-erase suspension, weighted round robin, 65,535 slots); an
    axis given keeps its values."""
    return (
        list(arbitrations if arbitrations is not None else COMPARE_ARBITRATIONS),
        list(device_queue_depths if device_queue_depths is not None else COMPARE_DEVICE_QUEUE_DEPTHS),
        list(policies if policies is not None else COMPARE_POLICIES),
        list(suspensions if suspensions is not None else COMPARE_SUSPENSIONS),
    )


def check_inputs(
    writer_interarrival_us: Sequence[float],
    arbitrations: Sequence[str],
    device_queue_depths: Sequence[int],
    policies: Sequence[str] = DEFAULT_POLICIES,
    suspensions: Sequence[str] = DEFAULT_SUSPENSIONS,
) -> None:
    """Refuses, before the first simulation, an empty axis, a repeated or unknown arbitration, policy
    or suspension setting, and any point whose config the simulator would refuse (a queue depth past
    the config's bound, a scheduler setting the preset's device cannot take)."""
    for option, values in (
        ("--writer-interarrival-us", writer_interarrival_us),
        ("--arbitration", arbitrations),
        ("--device-queue-depth", device_queue_depths),
        ("--policies", policies),
        ("--suspension", suspensions),
    ):
        if not values:
            raise UsageError(f"{option}: no value; the experiment needs at least one")
    for option, names, known in (
        ("--arbitration", arbitrations, ARBITRATIONS),
        ("--policies", policies, POLICIES),
        ("--suspension", suspensions, SUSPENSIONS),
    ):
        twice = sorted({name for name in names if list(names).count(name) > 1})
        if twice:
            raise UsageError(f"{option} {', '.join(twice)}: given more than once")
        for name in names:
            if name not in known:
                raise UsageError(f"{option} {name!r}: expected one of {', '.join(known)}")
    for depth in device_queue_depths:
        for arbitration in arbitrations:
            for policy in policies:
                for suspension in suspensions:
                    for interarrival in writer_interarrival_us:
                        # The simulator's own check of the whole config, which a run would only make at its start.
                        try:
                            api.load_config(PRESET, overrides=point_overrides(interarrival, arbitration, depth, policy, suspension))
                        except _native.ConfigurationError as error:
                            where = (
                                f"--writer-interarrival-us {interarrival:g} --arbitration {arbitration} "
                                f"--device-queue-depth {depth} --policies {policy} --suspension {suspension}"
                            )
                            raise UsageError(f"the point {where}: {error}") from None


def point_overrides(
    writer_interarrival_us: float,
    arbitration: str,
    device_queue_depth: int = 65535,
    policy: str = "fifo",
    suspension: str = "none",
) -> list[str]:
    """The overrides of one point: the writer's ([workload]'s) rate and length (the reader's span),
    the arbitration, the device queue depth, the scheduling policy and the suspension setting (the
    last two as the preset's defaults when "fifo" and "none": the booking model, as before issue 49)."""
    span_us = READER_REQUESTS * READER_INTERARRIVAL_US
    writer_requests = max(1, round(span_us / writer_interarrival_us))
    return [
        f"workload.synthetic.requests={writer_requests}",
        f"workload.synthetic.arrival.mean_interarrival_ns={writer_interarrival_us * 1e3}",
        f'host.queues.arbitration="{arbitration}"',
        f"host.device_queue_depth={device_queue_depth}",
        f'scheduler.policy="{policy}"',
        f'scheduler.suspension.operations="{suspension}"',
    ]


def row_of(
    result: dict[str, Any],
    writer_interarrival_us: float,
    arbitration: str,
    device_queue_depth: int = 65535,
    policy: str = "fifo",
    suspension: str = "none",
) -> dict[str, Any]:
    """One row: the point and each flow's figures, prefixed by the flow's name, and, when the dies
    kept queues, the result's `scheduler` statistics as `scheduler_<key>` columns."""
    section = result["flows"]
    row: dict[str, Any] = {
        "writer_interarrival_us": writer_interarrival_us,
        "writer_offered_iops": 1e6 / writer_interarrival_us,
        "arbitration": arbitration,
        "device_queue_depth": device_queue_depth,
        "scheduler_policy": policy,
        "suspension": suspension,
        "fairness": section.get("fairness"),
        "die_utilisation": result["utilisation"]["die"],
        "gc_blocks_erased": result["gc"]["blocks_erased"],
    }
    scheduler = result.get("scheduler")
    if scheduler is not None:
        row.update({f"scheduler_{key}": scheduler.get(key) for key in SCHEDULER_KEYS})
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
    policies: Sequence[str] = DEFAULT_POLICIES,
    suspensions: Sequence[str] = DEFAULT_SUSPENSIONS,
    on_point: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Runs every point; writes the table, JSON and figure under ``out``; returns the rows. Every input
    and ``out`` are checked before the first simulation; a write that fails after them saves the rows
    to the temporary folder and raises ``outputs.OutputFailed`` naming it."""
    out = Path(out)
    check_inputs(writer_interarrival_us, arbitrations, device_queue_depths, policies, suspensions)
    outputs.check_folder("--out", out)
    rows = []
    for depth in device_queue_depths:
        for arbitration in arbitrations:
            for policy in policies:
                for suspension in suspensions:
                    for interarrival in writer_interarrival_us:
                        overrides = point_overrides(interarrival, arbitration, depth, policy, suspension)
                        result = api.run(PRESET, overrides=overrides).to_dict()
                        row = row_of(result, interarrival, arbitration, depth, policy, suspension)
                        rows.append(row)
                        if on_point is not None:
                            on_point(row)
    rows = _same_columns(rows)
    try:
        write_outputs(out, rows)
    except Exception as error:
        saved = outputs.rescue(json.dumps(rows, indent=2) + "\n", "flows-interference.json")
        raise outputs.OutputFailed(outputs.failed_message(out, error, saved, "the table and figure")) from None
    return rows


def _same_columns(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every row with the same keys: a booking-model row (no die queues) beside queued ones gets the
    scheduler columns as None, so the table has one schema. A run of booking-model rows only keeps
    its columns as before issue 49."""
    queued = next((row for row in rows if f"scheduler_{SCHEDULER_KEYS[0]}" in row), None)
    if queued is None:
        return rows
    # The queued row's key order for every row, so the JSON rows read alike.
    return [{key: row.get(key) for key in queued} for row in rows]


def write_outputs(out: Path, rows: list[dict[str, Any]]) -> list[Path]:
    import polars as pl

    stem = out / "flows-interference"
    pl.DataFrame(rows).write_parquet(stem.with_suffix(".parquet"))
    stem.with_suffix(".json").write_text(json.dumps(rows, indent=2) + "\n")
    if len(_settings(rows)) > 1:
        return scheduling_figure(rows, stem)
    return figure(rows, stem)


def _settings(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The (policy, suspension) settings of the rows, in the order of POLICIES and SUSPENSIONS."""
    found = {(row.get("scheduler_policy", "fifo"), row.get("suspension", "none")) for row in rows}
    return sorted(found, key=lambda pair: (POLICIES.index(pair[0]), SUSPENSIONS.index(pair[1])))


def _setting_label(policy: str, suspension: str) -> str:
    return f"{policy.replace('_', ' ')}, " + ("no suspension" if suspension == "none" else f"suspend {suspension.replace('_', ' ')}")


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


def scheduling_figure(rows: list[dict[str, Any]], stem: Path) -> list[Path]:
    """Four panels against the writer's offered IOPS: the reader's p99 and p99.9 latency, the writer's
    mean latency, and the writer's mean relative to the first setting (FIFO without suspension when
    run: the cost to the writer, which the saturated points' scale would hide), one line per
    scheduling setting (colour and marker: the policy; dashed, open marker: with suspension) and per
    device queue depth and arbitration when there are several."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, NullLocator

    fig, panels = plotting.figure(7.0, 11.0, rows=4, sharex=True)
    colours = dict(zip(POLICIES, plt.get_cmap("tab10").colors))
    # Settings that give the same numbers (priority out of order with one class of reads and one of
    # writes is out of order) would hide one another: each policy is drawn wider and with a larger
    # marker than the next, so a line on top of another leaves its rim showing.
    widths = dict(zip(POLICIES, (3.6, 2.2, 1.0, 1.6)))
    markers = dict(zip(POLICIES, ("o", "s", "^", "D")))
    sizes = dict(zip(POLICIES, (9.0, 6.0, 3.5, 4.5)))
    settings = _settings(rows)
    pairs = sorted({(row["device_queue_depth"], row["arbitration"]) for row in rows}, reverse=True)
    baseline = settings[0]
    for depth, arbitration in pairs:
        of_pair = [row for row in rows if (row["device_queue_depth"], row["arbitration"]) == (depth, arbitration)]
        reference = {
            row["writer_offered_iops"]: row["writer_mean_us"] for row in of_pair if (row["scheduler_policy"], row["suspension"]) == baseline
        }
        for policy, suspension in settings:
            chosen = sorted(
                (row for row in of_pair if (row["scheduler_policy"], row["suspension"]) == (policy, suspension)),
                key=lambda row: row["writer_offered_iops"],
            )
            label = _setting_label(policy, suspension)
            if len(pairs) > 1:
                label += ", " + ("RR" if arbitration == "round_robin" else "WRR") + f", device QD {depth}"
            style = {
                "color": colours[policy],
                "linestyle": "-" if suspension == "none" else "--",
                "linewidth": widths[policy],
                "marker": markers[policy],
                "markersize": sizes[policy],
                "fillstyle": "full" if suspension == "none" else "none",
            }
            xs = [row["writer_offered_iops"] for row in chosen]
            for axes, column in zip(panels, ("reader_p99_us", "reader_p999_us", "writer_mean_us")):
                axes.plot(xs, [row[column] for row in chosen], label=label, **style)
            panels[3].plot(xs, [row["writer_mean_us"] / reference[x] for row, x in zip(chosen, xs)], label=label, **style)
    titles = ("reader p99 latency (us)", "reader p99.9 latency (us)", "writer mean latency (us)")
    for axes, title in zip(panels, titles):
        axes.set_ylabel(title)
        axes.set_yscale("log")
    panels[3].set_ylabel("writer mean latency /\n" + _setting_label(*baseline))
    panels[3].axhline(1.0, color="black", linewidth=0.6)
    for axes in panels:
        axes.grid(alpha=0.3, which="both")
    panels[0].set_title(
        "Two flows on MQSim's drive: transaction scheduling policy and program/erase suspension\n"
        "reader 4 KiB random reads, 5,000 IOPS, high priority; writer 16-64 KiB random writes, low priority",
        fontsize=9,
    )
    panels[0].legend(fontsize=7)
    # The offered rates themselves as ticks (a log axis would label only powers of ten).
    offered = sorted({row["writer_offered_iops"] for row in rows})
    panels[-1].set_xscale("log")
    panels[-1].xaxis.set_major_locator(FixedLocator(offered))
    panels[-1].xaxis.set_minor_locator(NullLocator())
    panels[-1].set_xticklabels([f"{value:,.0f}" for value in offered])
    panels[-1].set_xlabel("writer offered IOPS (16-64 KiB writes)")
    return plotting.save(fig, stem)
