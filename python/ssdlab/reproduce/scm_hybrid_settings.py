"""Seed 001 (``scm_hybrid``): the settings the hybrid's graded throughput rests on that seed 001 does not
state, each declared as ssdlab's choice with its source, checked, and shown beside the other readings
(never counted):

- the run length: the sample replayed for as many *requests* as the whole Financial1 trace (graded) or
  as many *writes* (a reading; the sample has a lower write share than the trace), and the settled
  check (``settled_check``): the graded run against a run ``SETTLE_FACTOR`` times as long;
- the data the drive holds (seed 003's 0.53 GB for Financial1; seed 001 gives none) and the fragment
  threshold (seed 001 gives none): small sweeps, with whether the M-SCM ever evicts;
- the All S-SCM SSD's overlap rule: ssdlab's scheduler moves a request's page pieces as separate SCM
  operations, so only a multi-page request overlaps a page's transfer with the previous page's write;
  the other rule (no overlap: each sector's transfer, then its write) is run as a reading.

It also holds the text ssdlab borrows from seeds 003 and 004 (``BORROWED``), quoted verbatim.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ssdlab.reproduce.claims import load
from ssdlab.reproduce.report import fmt, markdown_table
from ssdlab.reproduce.scm_hybrid_points import DATA_BYTES, PAGE_BYTES, Point, find, lines_of
from ssdlab.reproduce.templates import render

# The settled check: the graded run against one SETTLE_FACTOR times as long (the same run continued: the
# longer run's first passes are the graded run, so the passes it adds have their own throughput). The
# graded point is settled when the longer run's throughput is within SETTLED_TOLERANCE of the graded
# one's and so are the passes it adds on their own (no trend left: a mean over more passes can agree
# while the later passes still write faster): well inside the verdict rule's 30 %, so a settled value
# does not owe its verdict to the length.
SETTLE_FACTOR = 2
SETTLED_TOLERANCE = 0.05
# The other overlap rule, run: the channel made so fast (MT/s) that a transfer takes about nothing, and
# its time per sector added to the bank's write (and read) latency, so nothing overlaps the write.
NO_OVERLAP_RATE_MTS = 1_000_000.0

# Text ssdlab borrows from the lab's other seeds (verbatim; a test checks), from the claim book
# (claims/scm_hybrid.toml, ``[borrowed]``): key -> (seed, pieces, gloss).
BOOK = load("scm_hybrid")
BORROWED: dict[str, tuple[str, tuple[str, ...], str]] = {
    key: (entry["seed"], tuple(entry["original"]), entry["gloss"]) for key, entry in BOOK.extra["borrowed"].items()
}


def borrowed(key: str) -> str:
    """A borrowed passage as the report quotes it: the seed it is from, its text, then its gloss."""
    seed, pieces, gloss = BORROWED[key]
    return f'seed {seed}: "{" … ".join(pieces)}"' + (f" ({gloss})" if gloss else "")


def writes_passes(full_trace_writes: float, pass_writes: int, scale: float = 1.0) -> int:
    """Passes of a trace whose one pass issues ``pass_writes`` writes for as many writes as the whole
    Financial1 trace (its requests times its write share), times ``scale``."""
    return max(1, round(full_trace_writes / max(1, pass_writes) * scale))


def no_overlap(transfer_ns: int) -> list[str]:
    """Overrides of the All S-SCM SSD for the other overlap rule: each sector's transfer (``transfer_ns``
    at the SCM's rate) added to its 1 us write and read, the channel itself made instant."""
    ns = 1000 + transfer_ns
    return [
        f"device.scm.read_latency_ns_per_sector={ns}",
        f"device.scm.write_latency_ns_per_sector={ns}",
        f"device.scm.channel.transfer_rate_mts={NO_OVERLAP_RATE_MTS}",
    ]


def points(
    workload: str,
    graded: int,
    writes: int,
    hybrid_at: Callable[[int], list[str]],
    all_sscm_one_pass: Callable[..., list[str]],
    transfer_ns: int,
) -> dict[Point, list[str]]:
    """The hybrid (graded settings, foreground GC) at the writes-matched length and at ``SETTLE_FACTOR``
    times the graded one, and the All S-SCM SSD under the other overlap rule (one pass)."""
    cases = {
        Point("length", workload, "hybrid", passes): hybrid_at(passes) for passes in sorted({writes, SETTLE_FACTOR * graded} - {graded})
    }
    cases[Point("overlap", workload, "all_sscm", 0.0)] = all_sscm_one_pass(*no_overlap(transfer_ns))
    return cases


def _write_seconds(row: Mapping[str, Any]) -> float:
    """The time the run's writes took (its write bytes over its write throughput)."""
    return row["write_bytes"] / (row["write_mbps"] * 1e6) if row["write_mbps"] else 0.0


def settled_check(table: Sequence[Mapping[str, Any]], workload: str, graded_passes: int) -> dict[str, Any] | None:
    """The graded hybrid run against the same run ``SETTLE_FACTOR`` times as long: the longer run's
    throughput, its change, the throughput of the passes it adds (its second half: its bytes and write
    time minus the graded run's), and whether the graded point is settled (the change, and the added
    passes' throughput against the graded, both within ``SETTLED_TOLERANCE``)."""
    graded = find(table, study="main", workload=workload, ssd="hybrid", tsv=False)
    longer = find(table, study="length", workload=workload, ssd="hybrid", value=float(SETTLE_FACTOR * graded_passes), tsv=False)
    if graded is None or longer is None or not graded["write_mbps"]:
        return None
    added_seconds = _write_seconds(longer) - _write_seconds(graded)
    added = (longer["write_bytes"] - graded["write_bytes"]) / added_seconds / 1e6 if added_seconds > 0 else None
    change = longer["write_mbps"] / graded["write_mbps"] - 1.0
    return {
        "workload": workload,
        "graded_passes": graded_passes,
        "graded_mbps": graded["write_mbps"],
        "longer_passes": SETTLE_FACTOR * graded_passes,
        "longer_mbps": longer["write_mbps"],
        "change": change,
        "added_mbps": added,
        "halves_ratio": added / graded["write_mbps"] if added else None,
        "tolerance": SETTLED_TOLERANCE,
        "settled": abs(change) <= SETTLED_TOLERANCE and (added is None or abs(added / graded["write_mbps"] - 1.0) <= SETTLED_TOLERANCE),
    }


def length_rows(
    table: Sequence[Mapping[str, Any]], workload: str, graded_passes: int, writes_matched: int, all_sscm_mbps: float | None
) -> list[dict[str, Any]]:
    """The hybrid (foreground GC) at the graded length, the writes-matched one and the settled check's."""
    rows = []
    for passes in sorted({graded_passes, writes_matched, SETTLE_FACTOR * graded_passes}):
        if passes == graded_passes:
            row, what = (
                find(table, study="main", workload=workload, ssd="hybrid", tsv=False),
                "graded: as many requests as the whole trace",
            )
        else:
            row = find(table, study="length", workload=workload, ssd="hybrid", value=float(passes), tsv=False)
            what = "reading: as many writes as the whole trace" if passes == writes_matched else "the settled check's longer run"
            if passes == writes_matched == SETTLE_FACTOR * graded_passes:
                what = "reading: as many writes as the whole trace; the settled check's longer run"
        if row is None:
            continue
        rows.append(
            {
                "workload": workload,
                "passes": passes,
                "what": what,
                "requests": row["requests"],
                "writes": row["write_requests"],
                "hybrid_mbps": row["write_mbps"],
                "speedup": all_sscm_mbps / row["write_mbps"] if all_sscm_mbps and row["write_mbps"] else None,
                "pages_evicted": row["pages_evicted"],
            }
        )
    return rows


def _evicts(row: Mapping[str, Any]) -> str:
    return "never" if not row.get("pages_evicted") else f"{row['pages_evicted']:,} pages"


def sensitivity_rows(
    table: Sequence[Mapping[str, Any]],
    workload: str,
    graded_passes: int,
    data_fractions: Sequence[float],
    fragment_fractions: Sequence[float],
) -> list[dict[str, Any]]:
    """The hybrid under each GC mode (at the graded length), each data size and each fragment threshold,
    one axis at a time from the graded settings, beside the All S-SCM SSD on the same data."""
    main = find(table, study="main", workload=workload, ssd="hybrid", tsv=False)
    all_main = find(table, study="main", workload=workload, ssd="all_sscm", tsv=False)
    if main is None:
        return []
    rows = []

    def add(axis: str, setting: str, row: Mapping[str, Any] | None, everything: Mapping[str, Any] | None, graded: bool = False) -> None:
        if row is None:
            return
        rows.append(
            {
                "workload": workload,
                "axis": axis,
                "setting": setting,
                "graded": graded,
                "hybrid_mbps": row["write_mbps"],
                "change": row["write_mbps"] / main["write_mbps"] - 1.0 if main["write_mbps"] else None,
                "speedup": everything["write_mbps"] / row["write_mbps"] if everything and row["write_mbps"] else None,
                "pages_evicted": row["pages_evicted"],
                "evicts": _evicts(row),
                "scm_used": row["scm_used"],
            }
        )

    for mode in ("foreground", "stop_servicing_writes", "preemptible", "background"):
        if mode == main["gc_mode"]:
            add("GC mode", mode, main, all_main, graded=True)
        else:
            add("GC mode", mode, find(table, study=f"gc:{mode}", workload=workload, ssd="hybrid", value=float(graded_passes)), all_main)
    for fraction in sorted({1.0, *data_fractions}):
        if fraction == 1.0:
            add("data held", f"100 % of {DATA_BYTES / 1e9:g} GB", main, all_main, graded=True)
        else:
            add(
                "data held",
                f"{100 * fraction:.0f} % of {DATA_BYTES / 1e9:g} GB",
                find(table, study="data", workload=workload, ssd="hybrid", value=fraction, tsv=False),
                find(table, study="data", workload=workload, ssd="all_sscm", value=fraction, tsv=False),
            )
    for fraction in sorted({0.5, *fragment_fractions}):
        setting = f"below {100 * fraction:.1f} % of a page".replace(".0 %", " %")
        if fraction == 0.5:
            add("fragment threshold", setting, main, all_main, graded=True)
        else:
            add("fragment threshold", setting, find(table, study="fragment", workload=workload, ssd="hybrid", value=fraction), all_main)
    return rows


def axis_spreads(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per workload and axis: the lowest and highest hybrid throughput over the axis's settings."""
    spreads = []
    for workload, axis in dict.fromkeys((r["workload"], r["axis"]) for r in rows):
        values = [r["hybrid_mbps"] for r in rows if r["workload"] == workload and r["axis"] == axis and r["hybrid_mbps"]]
        if values:
            spreads.append({"workload": workload, "axis": axis, "low": min(values), "high": max(values), "runs": len(values)})
    return spreads


def overlap_row(table: Sequence[Mapping[str, Any]], workload: str) -> dict[str, Any] | None:
    """The All S-SCM SSD under ssdlab's rule (the main run) and under no overlap (the reading)."""
    graded = find(table, study="main", workload=workload, ssd="all_sscm", tsv=False)
    other = find(table, study="overlap", workload=workload, ssd="all_sscm", tsv=False)
    hybrid = find(table, study="main", workload=workload, ssd="hybrid", tsv=False)
    if graded is None or other is None:
        return None
    return {
        "workload": workload,
        "graded_mbps": graded["write_mbps"],
        "no_overlap_mbps": other["write_mbps"],
        "change": other["write_mbps"] / graded["write_mbps"] - 1.0,
        "no_overlap_speedup": other["write_mbps"] / hybrid["write_mbps"] if hybrid and hybrid["write_mbps"] else None,
    }


_LENGTH_COLUMNS = (
    ("workload", "workload", "text"),
    ("passes", "passes", "int"),
    ("run", "what", "text"),
    ("requests", "requests", "int"),
    ("writes", "writes", "int"),
    ("hybrid write MB/s", "hybrid_mbps", "num"),
    ("speed-up", "speedup", "times"),
    ("M-SCM pages evicted", "pages_evicted", "int"),
)
_SENSITIVITY_COLUMNS = (
    ("workload", "workload", "text"),
    ("axis", "axis", "text"),
    ("setting", "setting", "text"),
    ("graded", lambda r: "graded" if r["graded"] else "", "text"),
    ("hybrid write MB/s", "hybrid_mbps", "num"),
    ("against the graded", "change", "pct"),
    ("speed-up", "speedup", "times"),
    ("M-SCM evicts", "evicts", "text"),
    ("SCM used", "scm_used", "share"),
)


def report_text(
    checks: Sequence[Mapping[str, Any]],
    lengths: Sequence[Mapping[str, Any]],
    sensitivity: Sequence[Mapping[str, Any]],
    overlaps: Sequence[Mapping[str, Any]],
    *,
    full_trace_requests: int,
    full_trace_writes: float,
    eviction_quote: str,
    overlap_arithmetic_mbps: float,
) -> str:
    """The report's section on the settings seed 001 does not state (``scm_hybrid_settings.md.j2``): the
    run length and its settled check, the sensitivities (data size, fragment threshold, GC mode),
    evictions, the overlap rule."""
    never = []
    for workload, axis in dict.fromkeys((r["workload"], r["axis"]) for r in sensitivity):
        mine = [r for r in sensitivity if r["workload"] == workload and r["axis"] == axis]
        quiet = [r["setting"] for r in mine if not r["pages_evicted"]]
        if quiet:
            never.append({"workload": workload, "axis": axis, "quiet": quiet, "settings": len(mine)})
    return lines_of(
        render(
            "scm_hybrid_settings.md.j2",
            checks=checks,
            lengths=markdown_table(lengths, _LENGTH_COLUMNS) if lengths else "",
            sensitivity=markdown_table(sensitivity, _SENSITIVITY_COLUMNS) if sensitivity else "",
            spreads=axis_spreads(sensitivity),
            never=never,
            overlaps=overlaps,
            data_source=borrowed("data_003"),
            full_trace_requests=full_trace_requests,
            full_trace_writes=full_trace_writes,
            eviction_quote=eviction_quote,
            overlap_arithmetic_mbps=overlap_arithmetic_mbps,
        )
    )


def readings(
    checks: Sequence[Mapping[str, Any]],
    lengths: Sequence[Mapping[str, Any]],
    sensitivity: Sequence[Mapping[str, Any]],
    overlaps: Sequence[Mapping[str, Any]],
    *,
    full_trace_requests: int,
) -> list[tuple[str, str, str, float | None, str, bool, str, dict[str, Any]]]:
    """The readings of this module's settings as (claim key, workload, name, value, assumes, supported,
    why, extra) for ``scm_hybrid.readings``; their texts are the book's ``[texts]`` and parts of
    ``scm_hybrid_texts.md.j2``."""
    found: list[tuple[str, str, str, float | None, str, bool, str, dict[str, Any]]] = []

    def say(part: str, **values: Any) -> str:
        return render("scm_hybrid_texts.md.j2", part=part, full_trace_requests=full_trace_requests, page_bytes=PAGE_BYTES, **values).rstrip(
            "\n"
        )

    def add(key: str, row: Mapping[str, Any], name: str, value: float | None, assumes: str, supported: bool, why: str) -> None:
        """The reading of ``key``, then of the speed-up where the row has one."""
        found.append((key, row["workload"], name, value, assumes, supported, why, {}))
        speedup = row.get("speedup", row.get("no_overlap_speedup"))
        if speedup:
            found.append(("speedup", row["workload"], name, speedup, assumes, supported, why, {"value_text": fmt(speedup, "times")}))

    for row in lengths:
        if row["what"].startswith("graded"):
            continue
        writes = row["what"].startswith("reading")
        why = say("length_why") if writes else BOOK.texts["settled_why"]
        add("hybrid_mbps", row, say("length_name", row=row, writes=writes), row["hybrid_mbps"], say("length_assumes", row=row), writes, why)
    for row in sensitivity:
        if row["graded"] or row["axis"] == "GC mode":
            continue
        if row["axis"] == "data held":
            add(
                "hybrid_mbps",
                row,
                f"data {row['setting']}",
                row["hybrid_mbps"],
                say("data_assumes", row=row),
                False,
                BOOK.texts["data_why"],
            )
        else:
            name = f"M-SCM 25 %, fragmented {row['setting']}"
            add("hybrid_mbps", row, name, row["hybrid_mbps"], say("fragment_assumes", row=row), True, BOOK.texts["fragment_why"])
    for row in overlaps:
        name = "no overlap of transfer and write"
        add("all_sscm_mbps", row, name, row["no_overlap_mbps"], BOOK.texts["overlap_assumes"], True, BOOK.texts["overlap_why"])
    return found
