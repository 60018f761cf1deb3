"""Seed 003 (LBA scrambler): conventional vs scrambler, five workloads x free space {20, 40, 60, 80} %,
in the regimes that decide the result (issue 16).

The seed's setup (Table 1): 16 KB pages, 256 pages per block, NAND capacity = data size / (1 - free).
Its workloads and data sizes: Financial1 0.53 GB, tpcc-mysql 0.65 GB, prxy_0 0.84 GB, prxy_1 13.75 GB,
src1_0 60.62 GB. The full traces are not available here, so (see ``WORKLOADS``):

* Financial1 and tpcc-mysql: the real samples in ``../shared/traces``, tiled (``host.tiles``) into
  independent copies side by side until the data size matches the seed's.
* prxy_0, prxy_1, src1_0: synthetic stand-ins whose read share, request sizes, footprint and write skew
  follow the published statistics in ``../shared/traces/STANDINS.md``, at the seed's data sizes or
  capped at ``stand_in_cap_bytes`` (default 1 GiB; the scale is reported). Labelled "stand-in" everywhere.

Users with the full traces pass them by name (``--trace prxy_0=/data/prxy_0.csv.gz``).

The grid, for every workload and free-space level (``build_sweep``):

* **fresh drive** (the seed's Table 1 read literally): the device sized to footprint / (1 - free); the
  FTL sees only the workload's data, so the free space is spare flash. Conventional and scrambler.
* **aged drive** (the seed's "free space" as a file system means it): exported capacity = data / (1 - free),
  7 % spare flash (or the GC reserve) hidden beyond it, the exported capacity filled and then scattered extents deleted down to the data size
  (``ftl.precondition.fill_fraction``/``live_fraction``): the deleted data stays valid in an FTL without
  TRIM. Conventional (no TRIM), conventional with TRIM (the upper bound: the FTL knows every delete),
  scrambler (it learns the deletes; the FTL does not). Two placements of the dead data (issue 45): the
  **aged drive** fills in logical order, so the data deleted later sits apart from the workload's, in blocks
  the overwrite passes leave cold (greedy never picks them); the **aged drive, dead data mixed** fills in
  random order (``fill_order = "random"``), so the dead data is interleaved into the live data's blocks.
* each with greedy and with round-robin victim selection (seed 004, by the same lab, calls round robin
  the conventional policy);
* the rule-1 threshold swept on the fresh drive (rule 1 never fires on an aged drive: it is full).

Plus a file-churn study (``CHURN``): a workload that deletes as it writes, on a fresh drive.

Every point replays until the host has written at least ``MEASURED_FOOTPRINT_WRITES`` x the workload's data
(a trace replays whole loops and a stand-in whole requests, so some write more; the report gives each
workload's multiple), the same for every point of a workload, so GC counts compare across free-space
levels (equal host writes), after preconditioning to GC steady state.

Grading (issue 44). The seed's four claims (fewer GCs, Fig. 4a; fewer pages copied, Fig. 4b; write
performance up to 2.2x; 2.2x on src1_0) are each graded once, under the reading the seed's text states:
Table 1 sizes the NAND as data / (1 - free space), which is the fresh drive; the seed names no victim
policy, and the preset's greedy is graded (``GRADED``). The other three regimes are readings, shown and
never counted. Every comparison carries both sides' health (``Health``): a case whose conventional or
scrambler run is degenerate (write amplification above 20, host writes held over 90 % of the run, a block
erased past the endurance, or a replay over 10x the shortest replay of the same host writes at the same
free space and victim policy on a drive of the same NAND size) is flagged in the tables and never counted as a case or a best case.

The module declares the grid, the tables' columns and the figures; the claims, the seed's ratio and sentences and the
readings' texts are the claim book ``claims/lba_scrambler.toml``; the report's prose is ``templates/lba_scrambler.md.j2``,
and its sentences (and the headlines' notes) are the macros of ``templates/lba_scrambler_sentences.md.j2``, filled from
the values computed here.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from ssdlab import api, plotting
from ssdlab.locations import shared_dir, shared_trace
from ssdlab.reproduce import report
from ssdlab.reproduce.base import Headline, Health, Option, Reading, Recipe, Workload, healthy, held_share
from ssdlab.reproduce.claims import load
from ssdlab.reproduce.report import fmt, markdown_grid, markdown_table, provenance
from ssdlab.reproduce.templates import render
from ssdlab.sweep import Sweep, SweepError, run_sweep

# --- The grid ---------------------------------------------------------------------------------------

PRESET = "seed003-scrambler"
FREE_FRACTIONS = (0.2, 0.4, 0.6, 0.8)
# A case counts as fewer (or more) GCs or copies only when the reduction exceeds this share: smaller
# differences are a block or two of GC, the noise of the victim order. (The seed's bar heights are not
# in its text copy, so nothing here rests on them.)
SIGNIFICANT = 0.05
GC_POLICIES = ("greedy", "round_robin")
DRIVES = ("fresh", "aged", "aged_mixed")
# The aged drives (issue 45 item 3): where the deleted data sits decides what greedy GC sees. `aged` fills the
# exported capacity in logical order, so the workload's data and the data deleted later sit in separate
# blocks; the overwrite passes then leave the dead data in cold blocks greedy never picks. `aged_mixed`
# fills it in random order, so the dead data is interleaved into the blocks that hold live data.
AGED_DRIVES = {"aged": "sequential", "aged_mixed": "random"}
DRIVE_NAMES = {"fresh": "fresh drive", "aged": "aged drive", "aged_mixed": "aged drive, dead data mixed"}
DRIVE_TITLES = {
    "fresh": "Fresh drive (free space = spare flash)",
    "aged": "Aged drive (free space = deleted data the FTL still holds, apart from the live data)",
    "aged_mixed": "Aged drive, dead data mixed (the deleted data interleaved into the live data's blocks)",
}


class Variant(NamedTuple):
    """One run of a case: its name, the middleware, and where the host's deletes go."""

    name: str
    middleware: str
    delete_target: str

    def overrides(self, rule2: str = "all") -> list[str]:
        return [
            f'middleware.kind="{self.middleware}"',
            f'host.delete_target="{self.delete_target}"',
            f'middleware.lba_scrambler.rule2_writes="{rule2}"',
        ]


CONVENTIONAL = Variant("conventional", "none", "none")
TRIM = Variant("trim", "none", "ftl")
SCRAMBLER = Variant("scrambler", "lba_scrambler", "middleware")
# On a fresh drive nothing is deleted, so "with TRIM" would be the conventional run again.
VARIANTS = {"fresh": (CONVENTIONAL, SCRAMBLER), "aged": (CONVENTIONAL, TRIM, SCRAMBLER), "aged_mixed": (CONVENTIONAL, TRIM, SCRAMBLER)}
# Rule-1 thresholds swept on the fresh drive (0.5, the default, is in the main grid; 1.0 turns rule 1 off).
RULE1_THRESHOLDS = (0.3, 0.7, 1.0)
# How far each plane's recommendation list looks ahead (issue 45 item 4), swept on both aged drives with both
# victim policies; 0 (the next GC invocation's run, the default) is in the main grid.
VICTIMS_PER_PLANE = (4, 8, 16)
PAGE_BYTES = 16384
PLANES = 4  # the preset's 2 channels x 2 chips x 1 die x 1 plane
PAGES_PER_BLOCK = 256
GIB = 1 << 30
# Host page writes in the measured replay, as a multiple of the workload's data (equal for every
# free-space level, variant and drive of a workload).
MEASURED_FOOTPRINT_WRITES = 1.0
# Closed-loop queue depth of the measured replay.
QUEUE_DEPTH = 16
# The aged drive's hidden flash per plane (issue 45): GC's own blocks, then slack for it to work in.
# Without TRIM the exported space is fully mapped, so the hidden blocks are all GC has: the high
# watermark's free blocks (its reserve, `high_watermark_blocks` of the preset) and the open host and GC
# blocks hold no invalid pages, and only the rest can. Before issue 45 six blocks in all left GC about
# one block of room on the small drives, so a plane held under two blocks of invalid pages, invocations
# ended short and the next write started GC again (Financial1 at 60 % free: write amplification 794).
AGED_GC_RESERVE_BLOCKS = 3  # the preset's high watermark (a test checks)
AGED_OPEN_BLOCKS = 2  # one open host block and one open GC block per plane
# The slack beyond them: AGED_OVERPROVISIONING of the exported blocks per plane (a drive's usual hidden
# share), and never fewer than AGED_MIN_SLACK_BLOCKS (on a small plane 7 % is a block or less, and GC
# then copies runs of nearly full blocks).
AGED_OVERPROVISIONING = 0.07
AGED_MIN_SLACK_BLOCKS = 4
# The aged drive's deleted extents (pages): the sizes of the files deleted from it.
DELETE_EXTENT_PAGES = (1, 64)
DEFAULT_STAND_IN_CAP_BYTES = 1 * GIB


class ChurnRun(NamedTuple):
    """A run of the churn study: its name, its variant, and which writes rule 2 may redirect."""

    name: str
    variant: Variant
    rule2: str


@dataclass(frozen=True)
class Churn:
    """The file-churn study: a workload that deletes as it writes, on a fresh drive."""

    free_fraction: float = 0.4
    data_bytes: float = 0.5 * GIB
    delete_fractions: tuple[float, ...] = (0.1, 0.3)
    read_fraction: float = 0.175
    sizes: tuple[tuple[int, float], ...] = ((16384, 0.5), (65536, 0.3), (262144, 0.2))
    variants: tuple[ChurnRun, ...] = (
        ChurnRun("conventional", CONVENTIONAL, "all"),
        ChurnRun("trim", TRIM, "all"),
        ChurnRun("scrambler", SCRAMBLER, "all"),
        ChurnRun("scrambler_first_writes", SCRAMBLER, "first_writes"),
    )


CHURN = Churn()


class Point(NamedTuple):
    """A point of the sweep. ``study``: main, victims, rule1 or churn; ``subject``: the workload's label
    (churn: its delete share); ``setting``: the variant's name (rule1: the threshold; victims: the
    look-ahead). ``label`` is its name in the sweep and its results; ``parse`` reads one back."""

    study: str
    subject: str | float
    free: float
    drive: str
    gc: str
    setting: str | float | int

    @property
    def label(self) -> str:
        return "|".join(str(part) for part in self)

    @classmethod
    def parse(cls, label: str) -> Point:
        study, subject, free, drive, gc, setting = label.split("|")
        typed = {"rule1": float, "victims": int}.get(study, str)
        return cls(study, float(subject) if study == "churn" else subject, float(free), drive, gc, typed(setting))


WORKLOADS: tuple[Workload, ...] = (
    Workload(
        "Financial1",
        "sample",
        data_bytes=0.53e9,
        sample="umass-financial1.ssdsim-ascii.first10k.txt.gz",
        basis="real sample: the first 10,000 requests of UMass Financial1 (SSDsim ASCII conversion), tiled into independent copies up to the seed's 0.53 GB",
    ),
    Workload(
        "tpcc-mysql",
        "sample",
        data_bytes=0.65e9,
        sample="mqsim-tpcc-small.trace.gz",
        basis="real sample: MQSim's tpcc-small TPC-C trace (7,000 requests; lineage unverified, possibly not tpcc-mysql), tiled up to the seed's 0.65 GB",
    ),
    Workload(
        "prxy_0",
        "stand-in",
        data_bytes=0.84e9,
        read_fraction=0.031,
        sizes=((4096, 0.88), (8192, 0.08), (32768, 0.04)),
        hot_space_fraction=0.10,
        hot_access_fraction=0.95,
        basis="stand-in: 3.1 % reads (383,524 of 12,518,968 requests), mean request 5.6 KB (published 4.9-6.8 KB), "
        "95 % of accesses to 10 % of the space (published LRU miss ratio 0.048 with a cache of 10 % of the unique blocks); footprint = the seed's 0.84 GB",
    ),
    Workload(
        "prxy_1",
        "stand-in",
        data_bytes=13.75e9,
        read_fraction=0.65,
        sizes=((4096, 0.88), (8192, 0.08), (32768, 0.04)),
        hot_space_fraction=0.05,
        hot_access_fraction=0.99,
        basis="stand-in: write share not published, 35 % writes chosen (seed 000 classes prxy_1 read-dominant); sizes not published, prxy_0's used (same proxy server); "
        "99 % of accesses to 5 % of the space (published byte-LRU hit ratio 0.99); footprint = the seed's 13.75 GB",
    ),
    Workload(
        "src1_0",
        "stand-in",
        data_bytes=60.62e9,
        read_fraction=0.175,
        sizes=((4096, 0.60), (16384, 0.25), (65536, 0.15)),
        hot_space_fraction=0.0,
        hot_access_fraction=0.0,
        basis="stand-in: write share and sizes not published; 82.5 % writes and a 16.4 KB mean request chosen as the mean of the MSR volumes whose figures are published "
        "(prn_0, wdev_0, mds_0, rsrch_0, hm_0); uniform addresses (published LRU miss ratio 0.91: poor locality); footprint = the seed's 60.62 GB",
    ),
)

# --- The seed's claims, as its text states them ---------------------------------------------------

# The claim book (``claims/lba_scrambler.toml``): the seed's ratio and sentences, the claims and the readings' texts.
BOOK = load("lba_scrambler")
# The regime the claims are graded under (drive, victim policy; why: the book's ``graded_reading``).
GRADED = ("fresh", "greedy")
# The seed's ratio ("up to 2.2x"), also the line the per-regime lists of large cases are drawn at.
SEED_RATIO = BOOK.seed["ratio"]
# The seed's sentences by key, each as the book quotes it (originals, then the gloss), for the claims and the report.
QUOTES = {key: BOOK.quote(key) for key in BOOK.sentences}
CLAIMS = tuple(replace(claim, reading=claim.reading.replace("{significant}", f"{SIGNIFICANT:.0%}")) for claim in BOOK.claims)
# What each regime that is not graded assumes, and why the seed's text does or does not support it.
POLICY_ASSUMES = {gc: BOOK.texts[f"{gc}_assumes"] for gc in GC_POLICIES}
DRIVE_ASSUMES = {drive: BOOK.texts[f"{drive}_assumes"] for drive in DRIVES}
DRIVE_WHY = {drive: BOOK.texts[f"{drive}_why"] for drive in DRIVES}


# --- Tables and figures, declared -------------------------------------------------------------------


def _regime_name(drive: str, gc: str) -> str:
    return f"{DRIVE_NAMES[drive]}, {gc.replace('_', '-')} GC"


def _percent(value: float, digits: int = 0) -> str:
    return f"{value:.{digits}%}"


def _sig(value: float | None) -> str:
    """MB/s or write amplification to three significant digits (a drive crawling at 0.004 MB/s must not read as 0.0)."""
    return "n/a" if value is None else f"{value:.3g}"


def _short(row: Mapping[str, Any], side: str) -> str:
    """GC invocations that ended short of the high watermark, of all: "12/340"."""
    short, invocations = row.get(f"{side}_gc_invocations_short"), row.get(f"{side}_gc_invocations")
    return "n/a" if short is None or invocations is None else f"{short:,.0f}/{invocations:,.0f}"


def _flags(row: Mapping[str, Any], variants: Sequence[str]) -> str:
    """The degenerate sides of a row, with their reasons ("" when none)."""
    return "; ".join(f"{variant}: {row[f'{variant}_problems']}" for variant in variants if row.get(f"{variant}_problems"))


def _sides(cell: Callable[[Mapping[str, Any], str], str]) -> Callable[[Mapping[str, Any]], str]:
    """A "conventional → scrambler" column from one side's cell."""
    return lambda r: f"{cell(r, 'conventional')} → {cell(r, 'scrambler')}"


def _value(key: str, show: Callable[[Any], str]) -> Callable[[Mapping[str, Any], str], str]:
    return lambda r, side: show(r[f"{side}_{key}"])


def _trio(prefix: str) -> Callable[[Mapping[str, Any]], str]:
    """GC count / copies / write performance against the conventional run, for one churn run."""
    return lambda r: " / ".join(
        fmt(r[prefix + key], kind)
        for key, kind in (("gc_count_reduction", "pct"), ("pages_copied_reduction", "pct"), ("write_performance_ratio", "times"))
    )


FREE = ("free", lambda r: _percent(r["free_fraction"]), "text")
GC_COLUMN = ("GC", lambda r: r["gc_policy"].replace("_", "-"), "text")
MBPS = ("write MB/s conv. → scr.", _sides(_value("write_mbps", _sig)), "text")
COMPARED = (("GC count", "gc_count_reduction", "pct"), ("copies", "pages_copied_reduction", "pct"))
PERFORMANCE = ("write perf.", "write_performance_ratio", "times")
DEGENERATE = ("degenerate side", lambda r: _flags(r, ("conventional", "scrambler")), "text")
# The main grid's per-regime tables (the aged drives add TRIM's columns and the degenerate column names every variant).
MAIN_COLUMNS = (
    ("workload", "workload", "text"),
    FREE,
    ("GC count conv. → scr.", _sides(_value("gc_count", lambda v: fmt(v, "int"))), "text"),
    COMPARED[0],
    ("pages copied conv. → scr.", _sides(_value("pages_copied", lambda v: fmt(v, "int"))), "text"),
    COMPARED[1],
    MBPS,
    PERFORMANCE,
    ("WA conv. → scr.", _sides(_value("write_amplification", _sig)), "text"),
    ("dead pages copied conv. → scr.", _sides(_value("dead_pages_copied", lambda v: fmt(v, "int"))), "text"),
    ("rule-2 hit rate", "scrambler_rule2_hit_rate", "share"),
    ("short GCs conv. → scr.", _sides(_short), "text"),
)
TRIM_COLUMNS = (
    ("TRIM: GC count", "trim_gc_count_reduction", "pct"),
    ("TRIM: copies", "trim_pages_copied_reduction", "pct"),
    ("TRIM: write perf.", "trim_write_performance_ratio", "times"),
)
RULE1_COLUMNS = (
    ("workload", "workload", "text"),
    FREE,
    ("rule-1 threshold", lambda r: f"{r['plentiful_free_fraction']:g}", "text"),
    ("rule-1 writes (measured replay)", lambda r: fmt(r.get("scrambler_rule1_writes"), "int"), "text"),
    *COMPARED,
    PERFORMANCE,
    ("fragmented pages at the end", lambda r: fmt(r.get("scrambler_fragmented_pages"), "int"), "text"),
    DEGENERATE,
)
VICTIMS_COLUMNS = (
    ("drive", lambda r: DRIVE_NAMES[r["drive"]], "text"),
    GC_COLUMN,
    ("workload", "workload", "text"),
    FREE,
    ("victims per plane", lambda r: "0 (the run)" if r["victims_per_plane"] == 0 else str(r["victims_per_plane"]), "text"),
    *COMPARED,
    MBPS,
    PERFORMANCE,
    DEGENERATE,
)
CHURN_COLUMNS = (
    ("deletes", lambda r: _percent(r["delete_fraction"]), "text"),
    ("GC", "gc_policy", "text"),
    ("GC count conv.", "conventional_gc_count", "int"),
    ("scrambler (rule 2 all): GC count / copies / write perf.", _trio(""), "text"),
    ("scrambler (rule 2 first writes)", _trio("first_writes_"), "text"),
    ("TRIM", _trio("trim_"), "text"),
    ("degenerate side", lambda r: _flags(r, [run.name for run in CHURN.variants]), "text"),
)


class Figure(NamedTuple):
    """One of the seed's figures, drawn per regime: the table key it bars, its scale to the axis, the
    axis label, the title (``{where}`` names the regime), the baseline the bars grow from and the symlog
    threshold (None: linear)."""

    name: str
    key: str
    scale: float
    ylabel: str
    title: str
    baseline: float
    symlog: float | None


FIGURES = (
    Figure(
        "fig4a",
        "gc_count_reduction",
        100.0,
        "GC count reduction (%)",
        "Fig. 4(a): GC count reduction by the LBA scrambler{where}",
        0.0,
        10.0,
    ),
    Figure(
        "fig4b",
        "pages_copied_reduction",
        100.0,
        "GC page-copy reduction (%, symlog)",
        "Fig. 4(b): reduction of pages copied during GC{where}",
        0.0,
        10.0,
    ),
    Figure(
        "fig5",
        "write_performance_ratio",
        1.0,
        "write performance (scrambler / conventional)",
        "Fig. 5: write performance with the LBA scrambler{where}",
        1.0,
        None,
    ),
)
FREE_COLOURS = {0.2: "#1b9e77", 0.4: "#d95f02", 0.6: "#7570b3", 0.8: "#e7298a"}


# --- Workloads and the sweep ------------------------------------------------------------------------


def parse_trace_options(items: Sequence[str]) -> dict[str, Path]:
    return report.parse_trace_options(items, [w.name for w in WORKLOADS])


@dataclass
class WorkloadPlan:
    workload: Workload
    label: str
    # Overrides that define the workload (trace or synthetic), and the ones sizing its measured replay.
    overrides: list[str]
    measured: list[str]
    footprint_pages: int
    scale: float
    description: str
    is_trace: bool


def _trace_plan(workload: Workload, path: Path, tiles: int, description: str, label: str) -> WorkloadPlan:
    stats = api.trace_stats(path, block_bytes=PAGE_BYTES)["stats"]
    footprint_pages = int(stats["footprint_blocks"]) * tiles
    write_pages_per_loop = max(1.0, stats["bytes_written"] / PAGE_BYTES) * tiles
    loops = max(1, math.ceil(MEASURED_FOOTPRINT_WRITES * footprint_pages / write_pages_per_loop))
    overrides = [f"workload.trace.path={json.dumps(str(path))}", f"host.tiles={tiles}"]
    return WorkloadPlan(workload, label, overrides, [f"host.loops={loops}"], footprint_pages, 1.0, description, True)


def _synthetic_overrides(span: int, read_fraction: float, address: str, sizes: Sequence[tuple[int, float]]) -> list[str]:
    return [
        f"workload.synthetic.span_bytes={span}",
        f"workload.synthetic.read_fraction={read_fraction}",
        f"workload.synthetic.address={address}",
        f'workload.synthetic.size={{ distribution = "choice", bytes = [{", ".join(str(b) for b, _ in sizes)}], weights = [{", ".join(str(w) for _, w in sizes)}] }}',
        "workload.synthetic.alignment_bytes=4096",
    ]


def _requests_for(footprint_pages: int, read_fraction: float, sizes: Sequence[tuple[int, float]], delete_fraction: float = 0.0) -> int:
    mean_pages = sum(max(1, math.ceil(b / PAGE_BYTES)) * w for b, w in sizes)
    writes = max(1e-9, 1.0 - read_fraction - delete_fraction)
    return math.ceil(MEASURED_FOOTPRINT_WRITES * footprint_pages / (writes * mean_pages))


def _stand_in_plan(workload: Workload, cap_bytes: float | None) -> WorkloadPlan:
    footprint = workload.data_bytes if cap_bytes is None else min(workload.data_bytes, cap_bytes)
    span = int(footprint // PAGE_BYTES) * PAGE_BYTES
    scale = span / workload.data_bytes
    if workload.hot_space_fraction > 0:
        address = f'{{ distribution = "hot_cold", hot_space_fraction = {workload.hot_space_fraction}, hot_access_fraction = {workload.hot_access_fraction} }}'
    else:
        address = '{ distribution = "uniform" }'
    overrides = _synthetic_overrides(span, workload.read_fraction, address, workload.sizes)
    pages = span // PAGE_BYTES
    measured = [f"workload.synthetic.requests={_requests_for(pages, workload.read_fraction, workload.sizes)}"]
    description = workload.basis + ("" if scale >= 0.999 else f"; scaled down to {span / GIB:.2f} GiB (x{scale:.3f}) by --stand-in-cap-gib")
    return WorkloadPlan(workload, f"{workload.name} (stand-in)", overrides, measured, pages, scale, description, False)


def plan_workloads(
    traces: Mapping[str, Path] | None = None,
    stand_in_cap_bytes: float | None = DEFAULT_STAND_IN_CAP_BYTES,
    only: Sequence[str] | None = None,
) -> list[WorkloadPlan]:
    """One plan per workload (``only``: names to keep, without case)."""
    traces = dict(traces or {})
    keep = None if not only else {name.lower() for name in only}
    if keep is not None:
        unknown = keep - {w.name.lower() for w in WORKLOADS}
        if unknown:
            raise SweepError(f"--workloads: unknown {', '.join(sorted(unknown))}; expected some of {', '.join(w.name for w in WORKLOADS)}")
    plans = []
    for workload in WORKLOADS:
        if keep is not None and workload.name.lower() not in keep:
            continue
        if workload.name in traces:
            path = traces[workload.name]
            plans.append(_trace_plan(workload, path, 1, f"full trace given by the user: {path}", workload.name))
        elif workload.kind == "sample":
            path = shared_trace(workload.sample or "")
            if path is None:
                where = shared_dir()
                raise FileNotFoundError(
                    f"{workload.name}: the real sample {workload.sample} is not in {where / 'traces' if where else '../shared/traces'}; "
                    f"put ../shared beside the checkout (or set SSDLAB_SHARED_DIR), or pass the full trace with --trace {workload.name}=PATH"
                )
            footprint = api.trace_stats(path, block_bytes=PAGE_BYTES)["stats"]["footprint_bytes"]
            tiles = max(1, round(workload.data_bytes / footprint))
            plans.append(_trace_plan(workload, path, tiles, workload.basis + f" ({tiles} copies)", f"{workload.name} (sample)"))
        else:
            plans.append(_stand_in_plan(workload, stand_in_cap_bytes))
    return plans


def fresh_drive(free: float) -> list[str]:
    """The seed's Table 1 read literally: NAND = data / (1 - free); the FTL sees only the data."""
    return ['ftl.sizing="footprint"', f"ftl.footprint_free_fraction={free}", f"ftl.precondition.overwrite_passes={2.0 / (1.0 - free)}"]


def aged_hidden_blocks(exported_pages: int) -> int:
    """Blocks per plane the aged drive hides beyond its exported capacity: GC's reserve and open blocks,
    and slack of 7 % of the exported blocks per plane, at least ``AGED_MIN_SLACK_BLOCKS``."""
    exported_blocks = math.ceil(exported_pages / (PLANES * PAGES_PER_BLOCK))
    slack = max(AGED_MIN_SLACK_BLOCKS, math.ceil(AGED_OVERPROVISIONING * exported_blocks))
    return AGED_GC_RESERVE_BLOCKS + AGED_OPEN_BLOCKS + slack


def aged_drive(footprint_pages: int, free: float, is_trace: bool, fill_order: str = "sequential") -> list[str]:
    """A drive whose file system holds data / (1 - free) of exported capacity, with spare flash hidden
    beyond it; filled (in ``fill_order``: ``sequential`` keeps the dead data apart from the workload's,
    ``random`` interleaves them in the same blocks), then scattered extents deleted until only the
    workload's data is live: the file system's free space holds deleted data."""
    exported_target = math.ceil(footprint_pages / (1.0 - free))
    per_block_row = PLANES * PAGES_PER_BLOCK
    blocks_per_plane = math.ceil(exported_target / per_block_row) + aged_hidden_blocks(exported_target)
    total = blocks_per_plane * per_block_row
    overprovisioning = 1.0 - exported_target / total
    exported = math.floor(total * (1.0 - overprovisioning))  # as the simulator computes it
    live = footprint_pages / exported
    return [
        'ftl.sizing="geometry"',
        f"device.geometry.blocks_per_plane={blocks_per_plane}",
        f"ftl.overprovisioning_fraction={overprovisioning!r}",
        "ftl.precondition.fill_fraction=1.0",
        f'ftl.precondition.fill_order="{fill_order}"',
        f"ftl.precondition.live_fraction={live!r}",
        f"ftl.precondition.delete_extent_min_pages={DELETE_EXTENT_PAGES[0]}",
        f"ftl.precondition.delete_extent_max_pages={DELETE_EXTENT_PAGES[1]}",
        f"ftl.precondition.overwrite_passes={2.0 / (1.0 - free)}",
    ] + (["host.compact_addresses=true"] if is_trace else [])


def _policy(gc: str) -> list[str]:
    return [f'ftl.garbage_collection.policy="{gc}"']


def build_sweep(plans: Sequence[WorkloadPlan], churn: Churn | None = CHURN, churn_cap_bytes: float | None = None) -> Sweep:
    points: dict[Point, list[str]] = {}
    for plan in plans:
        workload = plan.overrides + plan.measured
        for free in FREE_FRACTIONS:
            drives = {"fresh": fresh_drive(free)}
            drives.update({name: aged_drive(plan.footprint_pages, free, plan.is_trace, order) for name, order in AGED_DRIVES.items()})
            for drive in DRIVES:
                for gc in GC_POLICIES:
                    for variant in VARIANTS[drive]:
                        points[Point("main", plan.label, free, drive, gc, variant.name)] = (
                            workload + drives[drive] + _policy(gc) + variant.overrides()
                        )
            scrambler = SCRAMBLER.overrides()
            for aged in AGED_DRIVES:
                for gc in GC_POLICIES:
                    for victims in VICTIMS_PER_PLANE:
                        points[Point("victims", plan.label, free, aged, gc, victims)] = (
                            workload + drives[aged] + _policy(gc) + scrambler + [f"middleware.lba_scrambler.victims_per_plane={victims}"]
                        )
            for threshold in RULE1_THRESHOLDS:
                points[Point("rule1", plan.label, free, "fresh", "greedy", threshold)] = (
                    workload
                    + drives["fresh"]
                    + _policy("greedy")
                    + scrambler
                    + [f"middleware.lba_scrambler.plentiful_free_fraction={threshold}"]
                )
    if churn is not None:
        data = churn.data_bytes if churn_cap_bytes is None else min(churn.data_bytes, churn_cap_bytes)
        span = int(data // PAGE_BYTES) * PAGE_BYTES
        for fraction in churn.delete_fractions:
            requests = _requests_for(span // PAGE_BYTES, churn.read_fraction, churn.sizes, fraction)
            workload = _synthetic_overrides(span, churn.read_fraction, '{ distribution = "uniform" }', churn.sizes) + [
                f"workload.synthetic.delete_fraction={fraction}",
                f"workload.synthetic.requests={requests}",
            ]
            for gc in GC_POLICIES:
                for run in churn.variants:
                    points[Point("churn", fraction, churn.free_fraction, "fresh", gc, run.name)] = (
                        workload + fresh_drive(churn.free_fraction) + _policy(gc) + run.variant.overrides(run.rule2)
                    )
    common = [
        'host.mode="closed_loop"',
        f"host.queue_depth={QUEUE_DEPTH}",
        "ftl.precondition.enabled=true",
        "verification.integrity_oracle=false",
    ]
    cases = {"point": {point.label: overrides for point, overrides in points.items()}}
    return Sweep(name="seed003-lba-scrambler", base=PRESET, common=common, cases=cases, origin="reproduce lba-scrambler")


# --- Per-point metrics, each run's health, and the tables -------------------------------------------


def _rule2_hit_rate(result: Mapping[str, Any]) -> float | None:
    middleware = result.get("middleware") or {}
    attempts = middleware.get("rule2_attempts", 0)
    return middleware.get("rule2_victim_page_writes", 0) / attempts if attempts else None


# The numbers a table takes from one run: (column, dotted path in its result or a function of it).
METRICS: tuple[tuple[str, str | Callable[[Mapping[str, Any]], Any]], ...] = (
    ("gc_count", "gc.blocks_collected"),
    ("gc_invocations", "gc.invocations"),
    # Invocations that ended short of the high watermark (no room to work in; issue 45), and of those
    # the ones on a stuck plane.
    ("gc_invocations_short", "gc.invocations_short"),
    ("gc_invocations_stuck", "gc.invocations_stuck"),
    ("pages_copied", "gc.pages_copied"),
    ("write_mbps", "write.mbps"),
    ("write_amplification", "write_amplification"),
    ("host_pages_written", "host_pages_written"),
    ("held_fraction", held_share),
    ("erase_max", "erase_count.max"),
    ("endurance", "erase_count.endurance_pe_cycles"),
    ("simulated_seconds", "simulated_seconds"),
    ("dead_pages_copied", "dead_data.gc_pages_copied"),
    ("dead_pages_held", "dead_data.pages_held"),
    ("rule1_writes", "middleware.rule1_empty_page_writes"),
    ("rule2_writes", "middleware.rule2_victim_page_writes"),
    ("rule3_writes", "middleware.rule3_other_page_writes"),
    ("rule2_hit_rate", _rule2_hit_rate),
    ("fragmented_pages", "middleware.fragmented_pages"),
)


def _lookup(result: Mapping[str, Any], path: str) -> Any:
    value: Any = result
    for part in path.split("."):
        value = (value or {}).get(part)
    return value


def _metrics(row: Mapping[str, Any] | None, prefix: str) -> dict[str, Any]:
    """The numbers a table needs from one point, each column named ``prefix`` + metric (None values when
    it failed or is missing), with the ones its health is judged by (``Health``)."""
    ok = row is not None and row["status"] == "ok"
    result = json.loads(row["result_json"]) if ok else {}
    values = {"status": "ok" if ok else (row["error"] if row is not None else "missing")}
    values.update({column: ((path(result) if callable(path) else _lookup(result, path)) if ok else None) for column, path in METRICS})
    return {prefix + key: value for key, value in values.items()}


def side_health(row: Mapping[str, Any], variant: str) -> Health:
    """One variant's run in a table row as ``Health``. Its span is the row's ``reference_seconds``: the
    shortest replay of the same host writes at the same free space and victim policy on a drive of the
    same NAND size (``_drive_size``: the aged drives' runs with TRIM; on the fresh drive its own two
    runs). The replay is a closed loop, so a trace's own timestamps do not pace it (the
    tpcc sample spans 0.14 s); a run 10x slower than the same writes on a drive whose FTL knows its free
    space is free has collapsed."""
    return Health(
        side=variant,
        mbps=row.get(f"{variant}_write_mbps"),
        write_amplification=row.get(f"{variant}_write_amplification"),
        held_fraction=row.get(f"{variant}_held_fraction"),
        erase_max=row.get(f"{variant}_erase_max"),
        endurance=row.get(f"{variant}_endurance"),
        simulated_seconds=row.get(f"{variant}_simulated_seconds"),
        span_seconds=row.get("reference_seconds"),
    )


def comparison_health(row: Mapping[str, Any], other: str = "scrambler") -> list[Health]:
    """Both sides of a row's comparison: the conventional run and ``other`` (scrambler or TRIM)."""
    return [side_health(row, "conventional"), side_health(row, other)]


def is_healthy(row: Mapping[str, Any], other: str = "scrambler") -> bool:
    return not any(h.degenerate for h in comparison_health(row, other))


def _drive_size(drive: str) -> str:
    """Drives of the same NAND size at a free-space level: the fresh one, and the two aged ones."""
    return "aged" if drive in AGED_DRIVES else drive


def _judge(entry: dict[str, Any], variants: Sequence[str]) -> None:
    """Adds ``<variant>_problems`` per variant: why its run is degenerate (empty: it is not)."""
    for variant in variants:
        entry[f"{variant}_problems"] = "; ".join(side_health(entry, variant).problems())


def _annotate_health(
    rows: Sequence[dict[str, Any]], variants: Callable[[Mapping[str, Any]], Sequence[str]], group: Callable[[Mapping[str, Any]], Any]
) -> None:
    """Adds ``reference_seconds`` (the shortest replay among the rows of the same ``group``, which write
    the same host pages) and each variant's problems (``_judge``)."""
    shortest: dict[Any, float] = {}
    for row in rows:
        for variant in variants(row):
            seconds = row.get(f"{variant}_simulated_seconds")
            if seconds:
                shortest[group(row)] = min(shortest.get(group(row), math.inf), seconds)
    for row in rows:
        row["reference_seconds"] = shortest.get(group(row))
        _judge(row, variants(row))


def _reduction(before: float | None, after: float | None) -> float | None:
    if before is None or after is None:
        return None
    if before == 0:
        return 0.0 if after == 0 else None
    return 1.0 - after / before


def _compare(entry: dict[str, Any], other: str, prefix: str) -> None:
    """``other``'s reductions and write-performance ratio against the conventional run, as ``prefix`` columns."""
    entry[f"{prefix}gc_count_reduction"] = _reduction(entry.get("conventional_gc_count"), entry.get(f"{other}_gc_count"))
    entry[f"{prefix}pages_copied_reduction"] = _reduction(entry.get("conventional_pages_copied"), entry.get(f"{other}_pages_copied"))
    after, before = entry.get(f"{other}_write_mbps"), entry.get("conventional_write_mbps")
    entry[f"{prefix}write_performance_ratio"] = after / before if after is not None and before else None


def build_tables(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The main table (workload x free x drive x GC policy, variants side by side), the rule-1 sweep,
    the look-ahead sweep and the churn study, each row with its runs' health (``_annotate_health``)."""
    cases: dict[str, dict[tuple, dict[Any, Mapping[str, Any]]]] = {"main": {}, "rule1": {}, "churn": {}, "victims": {}}
    for row in rows:
        point = Point.parse(row["point.point"])
        cases[point.study].setdefault((point.subject, point.free, point.drive, point.gc), {})[point.setting] = row
    main = []
    for (workload, free, drive, gc), runs in cases["main"].items():
        entry: dict[str, Any] = {"workload": workload, "free_fraction": free, "drive": drive, "gc_policy": gc}
        for variant in VARIANTS[drive]:
            entry.update(_metrics(runs.get(variant.name), f"{variant.name}_"))
        _compare(entry, "scrambler", "")
        if drive in AGED_DRIVES:
            _compare(entry, "trim", "trim_")
        main.append(entry)
    # Every point of a workload writes the same host pages. A run's span is the shortest replay of them on
    # a drive of the same free space, victim policy and NAND size: on the aged drives, what the same writes
    # take when the FTL knows its free space is free (TRIM). The aged drives hide more flash than the fresh
    # one has, so they are never the fresh drive's reference (issue 45's review): there the span is the
    # faster of its own two runs, and only write amplification, held writes and erases can flag a run.
    _annotate_health(
        main,
        lambda r: [variant.name for variant in VARIANTS[r["drive"]]],
        lambda r: (r["workload"], r["free_fraction"], r["gc_policy"], _drive_size(r["drive"])),
    )
    rule1 = _rule1_rows(cases["rule1"], main)
    victims = _victims_rows(cases["victims"], main)
    churn = []
    for (fraction, free, _, gc), runs in cases["churn"].items():
        entry = {"delete_fraction": fraction, "free_fraction": free, "gc_policy": gc}
        for run in CHURN.variants:
            entry.update(_metrics(runs.get(run.name), f"{run.name}_"))
        for other, prefix in (("scrambler", ""), ("scrambler_first_writes", "first_writes_"), ("trim", "trim_")):
            _compare(entry, other, prefix)
        churn.append(entry)
    _annotate_health(churn, lambda r: [run.name for run in CHURN.variants], lambda r: r["delete_fraction"])
    order = {name: i for i, name in enumerate(dict.fromkeys(r["workload"] for r in main))}

    def regime_order(r: Mapping[str, Any]) -> tuple:
        return (DRIVES.index(r["drive"]), GC_POLICIES.index(r["gc_policy"]), order.get(r["workload"], 0), r["free_fraction"])

    main.sort(key=regime_order)
    rule1.sort(key=lambda r: (order.get(r["workload"], 0), r["free_fraction"], r["plentiful_free_fraction"]))
    churn.sort(key=lambda r: (r["delete_fraction"], GC_POLICIES.index(r["gc_policy"])))
    victims.sort(key=lambda r: (*regime_order(r), r["victims_per_plane"]))
    return {"main": main, "rule1": rule1, "churn": churn, "victims": victims}


_SHARED = ("gc_count", "pages_copied", "write_mbps", "write_amplification", "held_fraction", "erase_max", "endurance", "simulated_seconds")


def _rule1_rows(group: Mapping[tuple, Mapping[Any, Mapping[str, Any]]], main: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rule-1 sweep: each threshold's scrambler run beside the fresh drive's greedy conventional run
    (from the main grid, whose own scrambler run is the default threshold, 0.5)."""
    conventional = {(r["workload"], r["free_fraction"]): r for r in main if r["drive"] == "fresh" and r["gc_policy"] == "greedy"}
    rows = []
    for (workload, free, _, _), runs in group.items():
        for threshold, row in runs.items():
            base = conventional.get((workload, free), {})
            entry = {"workload": workload, "free_fraction": free, "plentiful_free_fraction": threshold}
            entry.update({f"conventional_{k}": base.get(f"conventional_{k}") for k in _SHARED})
            entry.update(_metrics(row, "scrambler_"))
            _compare(entry, "scrambler", "")
            rows.append(entry)
    for (workload, free), base in conventional.items():
        entry = {"workload": workload, "free_fraction": free, "plentiful_free_fraction": 0.5}
        entry.update({k: v for k, v in base.items() if k.startswith(("conventional_", "scrambler_")) and not k.endswith("_problems")})
        _compare(entry, "scrambler", "")
        rows.append(entry)
    for entry in rows:
        # A rule-1 point writes what the main grid's points of its workload write: the span of the fresh
        # drive's greedy row at its free space, or its own replay when that is shorter.
        base = conventional.get((entry["workload"], entry["free_fraction"]), {})
        known = [seconds for seconds in (base.get("reference_seconds"), entry.get("scrambler_simulated_seconds")) if seconds]
        entry["reference_seconds"] = min(known, default=None)
        _judge(entry, ("conventional", "scrambler"))
    return rows


def _victims_rows(group: Mapping[tuple, Mapping[Any, Mapping[str, Any]]], main: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The look-ahead sweep: each scrambler run beside the same case's conventional run on its aged drive
    (from the main grid, whose own scrambler run is the default, 0), with both runs' health."""
    aged = {(r["workload"], r["free_fraction"], r["drive"], r["gc_policy"]): r for r in main if r["drive"] in AGED_DRIVES}
    rows = []
    for (workload, free, drive, gc), runs in group.items():
        base = aged.get((workload, free, drive, gc))
        if base is None:
            continue
        looks = [(0, {k: v for k, v in base.items() if k.startswith("scrambler_") and k != "scrambler_problems"})]
        looks += [(look, _metrics(row, "scrambler_")) for look, row in runs.items()]
        for look, scrambler in looks:
            entry: dict[str, Any] = {
                "workload": workload,
                "free_fraction": free,
                "drive": drive,
                "gc_policy": gc,
                "victims_per_plane": look,
            }
            entry.update({k: v for k, v in base.items() if k.startswith("conventional_")})
            entry.update(scrambler)
            entry["reference_seconds"] = base.get("reference_seconds")
            _compare(entry, "scrambler", "")
            _judge(entry, ("conventional", "scrambler"))
            rows.append(entry)
    return rows


def _in_regime(rows: Sequence[Mapping[str, Any]], drive: str, gc: str) -> list[Mapping[str, Any]]:
    return [r for r in rows if r["drive"] == drive and r["gc_policy"] == gc]


def _main_table_markdown(rows: Sequence[Mapping[str, Any]], drive: str, gc: str) -> str:
    variants = [variant.name for variant in VARIANTS[drive]]
    columns = [
        *MAIN_COLUMNS,
        *(TRIM_COLUMNS if drive in AGED_DRIVES else ()),
        ("degenerate side (not counted)", lambda r: _flags(r, variants), "text"),
    ]
    return markdown_table(_in_regime(rows, drive, gc), columns)


def free_space_trends(main: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per regime and workload, the write-performance ratio at each free-space level, the levels with
    fewer GCs and copies, and the levels whose comparison has a degenerate side. (Data only: the seed's
    text says nothing of how the gain varies with free space, so nothing is graded here.)"""
    out = []
    for drive in DRIVES:
        for gc in GC_POLICIES:
            rows = _in_regime(main, drive, gc)
            for workload in dict.fromkeys(r["workload"] for r in rows):
                by_free = {r["free_fraction"]: r for r in rows if r["workload"] == workload}
                levels = [free for free in FREE_FRACTIONS if free in by_free]
                out.append(
                    {
                        "drive": drive,
                        "gc_policy": gc,
                        "workload": workload,
                        **{f"ratio_{free:.0%}": (by_free.get(free) or {}).get("write_performance_ratio") for free in FREE_FRACTIONS},
                        # Text, so the table also writes as CSV.
                        "fewer_at": ", ".join(
                            _percent(free)
                            for free in levels
                            if by_free[free]["gc_count_reduction"] is not None and _both_fewer(by_free[free])
                        ),
                        "degenerate_at": ", ".join(_percent(free) for free in levels if not is_healthy(by_free[free])),
                    }
                )
    return out


def _trend_markdown(trends: Sequence[Mapping[str, Any]]) -> str:
    def ratio(free: float) -> Callable[[Mapping[str, Any]], str]:
        # A ratio against a degenerate side is marked: its size measures a collapsed drive.
        return lambda r: (
            fmt(r[f"ratio_{free:.0%}"], "times") + (" (degenerate)" if _percent(free) in r["degenerate_at"].split(", ") else "")
        )

    columns = [
        ("drive", "drive", "text"),
        ("victim policy", lambda r: r["gc_policy"].replace("_", "-"), "text"),
        ("workload", "workload", "text"),
        *[(f"write perf. at {free:.0%} free", ratio(free), "text") for free in FREE_FRACTIONS],
        (f"fewer GCs and copies (>{SIGNIFICANT:.0%}) at", lambda r: r["fewer_at"] or "none", "text"),
    ]
    return markdown_table(trends, columns)


# --- Regimes: where the seed's findings hold --------------------------------------------------------


@dataclass
class Regime:
    """One drive x victim-policy regime of the main grid, over its **healthy** cases (no degenerate
    side in the conventional-vs-scrambler comparison). A case counts as fewer (or more) GCs or copies
    only when the reduction exceeds ``SIGNIFICANT``."""

    drive: str
    gc_policy: str
    cases: int
    fewer_gcs: int
    fewer_copies: int
    both: int
    more_copies: int
    best_gc_reduction: float | None
    best_copy_reduction: float | None
    median_write_ratio: float | None
    # The healthy case with the best write-performance ratio, and with TRIM's best (conventional vs TRIM).
    best_case: Mapping[str, Any] | None
    trim_best_case: Mapping[str, Any] | None
    # Workloads with fewer GCs and copies at every free-space level (every case healthy).
    everywhere: list[str]
    # Healthy cases at or above the seed's ratio.
    reaching: list[Mapping[str, Any]]
    # Cases left out: a side of the scrambler comparison (or of TRIM's) is degenerate.
    degenerate: list[Mapping[str, Any]]
    trim_degenerate: list[Mapping[str, Any]]

    @property
    def name(self) -> str:
        return _regime_name(self.drive, self.gc_policy)

    @property
    def best_write_ratio(self) -> float | None:
        return self.best_case["write_performance_ratio"] if self.best_case else None

    @property
    def trim_best_write_ratio(self) -> float | None:
        return self.trim_best_case["trim_write_performance_ratio"] if self.trim_best_case else None

    @property
    def holds(self) -> bool:
        """The seed's findings together: fewer GCs and fewer copies in every healthy case."""
        return self.cases > 0 and self.both == self.cases

    @property
    def trim_only_degenerate(self) -> list[Mapping[str, Any]]:
        """Cases left out of TRIM's best that the scrambler's comparison did not already leave out."""
        return [r for r in self.trim_degenerate if r not in self.degenerate]


def _regime_rows(main: Sequence[Mapping[str, Any]], drive: str, gc: str) -> list[Mapping[str, Any]]:
    """The regime's cases whose GC and copy reductions are both known."""
    return [r for r in _in_regime(main, drive, gc) if r["gc_count_reduction"] is not None and r["pages_copied_reduction"] is not None]


def _both_fewer(row: Mapping[str, Any]) -> bool:
    return row["gc_count_reduction"] > SIGNIFICANT and row["pages_copied_reduction"] > SIGNIFICANT


def regimes(main: Sequence[Mapping[str, Any]]) -> list[Regime]:
    out = []
    for drive in DRIVES:
        for gc in GC_POLICIES:
            in_regime = _in_regime(main, drive, gc)
            if not in_regime:
                continue  # a regime the sweep did not run (a test's hand-made tables)
            every = _regime_rows(main, drive, gc)
            rows = healthy(every, comparison_health)
            ratios = sorted(r["write_performance_ratio"] for r in rows if r["write_performance_ratio"] is not None)
            with_trim = [r for r in in_regime if r.get("trim_write_performance_ratio") is not None]
            trim_rows = healthy(with_trim, lambda r: comparison_health(r, "trim"))
            out.append(
                Regime(
                    drive=drive,
                    gc_policy=gc,
                    cases=len(rows),
                    fewer_gcs=sum(1 for r in rows if r["gc_count_reduction"] > SIGNIFICANT),
                    fewer_copies=sum(1 for r in rows if r["pages_copied_reduction"] > SIGNIFICANT),
                    both=sum(1 for r in rows if _both_fewer(r)),
                    more_copies=sum(1 for r in rows if r["pages_copied_reduction"] < -SIGNIFICANT),
                    best_gc_reduction=max((r["gc_count_reduction"] for r in rows), default=None),
                    best_copy_reduction=max((r["pages_copied_reduction"] for r in rows), default=None),
                    median_write_ratio=ratios[len(ratios) // 2] if ratios else None,
                    best_case=_best(rows),
                    trim_best_case=max(trim_rows, key=lambda r: r["trim_write_performance_ratio"], default=None),
                    everywhere=[
                        w
                        for w in dict.fromkeys(r["workload"] for r in every)
                        if all(_both_fewer(r) and is_healthy(r) for r in every if r["workload"] == w)
                    ],
                    reaching=[r for r in rows if (r["write_performance_ratio"] or 0) >= SEED_RATIO],
                    degenerate=[r for r in every if not is_healthy(r)],
                    trim_degenerate=[r for r in with_trim if not is_healthy(r, "trim")],
                )
            )
    return out


def _best(rows: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The row with the best write-performance ratio (None: none has one)."""
    return max((r for r in rows if r["write_performance_ratio"] is not None), key=lambda r: r["write_performance_ratio"], default=None)


def _regime_markdown(found: Sequence[Regime]) -> str:
    headers = [
        "drive",
        "victim policy",
        "healthy cases",
        "degenerate (left out)",
        f"fewer GCs (>{SIGNIFICANT:.0%})",
        f"fewer copies (>{SIGNIFICANT:.0%})",
        "both",
        f"more copies (>{SIGNIFICANT:.0%})",
        "best GC reduction",
        "best copy reduction",
        "write perf. best / median",
        "TRIM best",
    ]
    cells = [
        [
            g.drive + (" (graded)" if (g.drive, g.gc_policy) == GRADED else ""),
            g.gc_policy,
            g.cases,
            len(g.degenerate),
            g.fewer_gcs,
            g.fewer_copies,
            f"{g.both}{' (every case)' if g.holds else ''}",
            g.more_copies,
            fmt(g.best_gc_reduction, "pct"),
            fmt(g.best_copy_reduction, "pct"),
            f"{fmt(g.best_write_ratio, 'times')} / {fmt(g.median_write_ratio, 'times')}",
            fmt(g.trim_best_write_ratio, "times"),
        ]
        for g in found
    ]
    return markdown_grid(headers, cells)


# --- Sentences (``templates/lba_scrambler_sentences.md.j2``) ----------------------------------------

# What the sentence macros may call besides the ``fmt`` filter.
_HELPERS = {"percent": _percent, "mbps": _sig, "flags": _flags, "regime_name": _regime_name}


def _sentence(name: str, **values: Any) -> str:
    """The sentence the macro ``name`` writes from ``values``, on one line (a macro's line breaks are spaces)."""
    text = render("lba_scrambler_sentences.md.j2", sentence=name, values=values, seed_ratio=SEED_RATIO, significant=SIGNIFICANT, **_HELPERS)
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def _regime_statement(found: Sequence[Regime], churn: Sequence[Mapping[str, Any]]) -> str:
    """Where the seed's findings hold, over healthy cases, with every number from ``found`` and ``churn``."""
    counted = [r for r in churn if is_healthy(r) and is_healthy(r, "scrambler_first_writes")]
    return _sentence(
        "regimes",
        found=found,
        best=max((g for g in found if g.best_case is not None), key=lambda g: g.best_write_ratio, default=None),
        graded=next((g for g in found if (g.drive, g.gc_policy) == GRADED), None),
        churn=max(
            counted, key=lambda r: max(r["write_performance_ratio"] or 0, r["first_writes_write_performance_ratio"] or 0), default=None
        ),
    )


def _src1_statement(main: Sequence[Mapping[str, Any]]) -> str:
    """src1_0, the seed's best workload, as ssdlab measures it: under the graded reading and at its best
    healthy case in any regime."""
    counted = healthy(
        [r for r in main if r["workload"].startswith("src1_0") and r["write_performance_ratio"] is not None], comparison_health
    )
    if not counted:
        return ""
    return _sentence("src1", top=_best(counted), graded=_best([r for r in counted if (r["drive"], r["gc_policy"]) == GRADED]))


def _fewer_but_slower(main: Sequence[Mapping[str, Any]]) -> str:
    """Healthy cases with fewer GCs and copies that still write slower: GC work is not all a write pays."""
    rows = [
        r
        for r in main
        if r["gc_count_reduction"] is not None
        and r["pages_copied_reduction"] is not None
        and is_healthy(r)
        and _both_fewer(r)
        and (r["write_performance_ratio"] or 1.0) < 1 - SIGNIFICANT
    ]
    return _sentence("fewer_but_slower", rows=rows) if rows else ""


def _host_writes_statement(plans: Sequence[WorkloadPlan], main: Sequence[Mapping[str, Any]]) -> str:
    """What the measured replays wrote, per workload, as a multiple of its data (from the runs)."""
    multiples = []
    for plan in plans:
        written = {
            r[f"{variant.name}_host_pages_written"]
            for r in main
            if r["workload"] == plan.label
            for variant in VARIANTS[r["drive"]]
            if r.get(f"{variant.name}_host_pages_written") is not None
        }
        if written and plan.footprint_pages:
            low, high = min(written) / plan.footprint_pages, max(written) / plan.footprint_pages
            multiples.append({"label": plan.label, "low": low, "high": high, "differ": len(written) > 1})
    return _sentence("host_writes", multiples=multiples) if multiples else ""


def _rule1_statement(rule1: Sequence[Mapping[str, Any]]) -> str:
    """The rule-1 table's two counters side by side, from its rows."""
    known = [r for r in rule1 if r.get("scrambler_rule1_writes") is not None]
    silent = [r for r in known if r["scrambler_rule1_writes"] == 0]
    left = [r for r in silent if (r.get("scrambler_fragmented_pages") or 0) > 0]
    if not left:
        return ""
    most = max(left, key=lambda r: r["scrambler_fragmented_pages"])
    return _sentence("rule1", known=len(known), silent=len(silent), left=len(left), most=most)


def _victims_statement(rows: Sequence[Mapping[str, Any]]) -> str:
    """Per victim policy and look-ahead: over the healthy cases, how many have fewer GCs and copies, and
    the median write performance ratio (computed from the table above)."""
    looks = []
    for drive, gc in ((d, g) for d in AGED_DRIVES for g in GC_POLICIES):
        for look in (0, *VICTIMS_PER_PLANE):
            cases = [r for r in rows if r["drive"] == drive and r["gc_policy"] == gc and r["victims_per_plane"] == look]
            if not cases:
                continue
            counted = [r for r in cases if not r["conventional_problems"] and not r["scrambler_problems"]]
            ratios = [r["write_performance_ratio"] for r in counted if r["write_performance_ratio"] is not None]
            fewer = sum(
                1 for r in counted if (r["gc_count_reduction"] or 0) > SIGNIFICANT and (r["pages_copied_reduction"] or 0) > SIGNIFICANT
            )
            looks.append(
                {
                    "regime": _regime_name(drive, gc),
                    "look": look,
                    "fewer": fewer,
                    "cases": len(counted),
                    "median": statistics.median(ratios) if ratios else None,
                }
            )
    return _sentence("victims", looks=looks)


# --- Headlines and readings -------------------------------------------------------------------------


def _worst(rows: Sequence[Mapping[str, Any]], variant: str) -> Health:
    """One side of many comparisons as the worst of its runs (slowest MB/s, highest write amplification
    and share held, most-erased block and longest replay against their limits): shown for a claim that
    counts cases, whose cases are all healthy."""
    sides = [side_health(r, variant) for r in rows]

    def top(value: Callable[[Health], float | None]) -> Health | None:
        known = [(value(h), index) for index, h in enumerate(sides) if value(h) is not None]
        return sides[max(known)[1]] if known else None

    def extreme(pick: Callable, value: Callable[[Health], float | None]) -> float | None:
        return pick((value(h) for h in sides if value(h) is not None), default=None)

    wear = top(lambda h: h.erase_max / h.endurance if h.erase_max is not None and h.endurance else None)
    slow = top(lambda h: h.simulated_seconds / h.span_seconds if h.simulated_seconds is not None and h.span_seconds else None)
    return Health(
        side=f"{variant} (worst per metric over {len(rows)} cases, not one case)",
        mbps=extreme(min, lambda h: h.mbps),
        write_amplification=extreme(max, lambda h: h.write_amplification),
        held_fraction=extreme(max, lambda h: h.held_fraction),
        erase_max=wear.erase_max if wear else None,
        endurance=wear.endurance if wear else None,
        simulated_seconds=slow.simulated_seconds if slow else None,
        span_seconds=slow.span_seconds if slow else None,
    )


@dataclass(frozen=True)
class _Measured:
    """A claim measured in one regime: its value, the note it carries as a headline, the value text it
    carries as a reading, and both sides' health."""

    value: float | None
    note: str
    text: str
    health: tuple[Health, ...]


def _measure_regime(
    found: Sequence[Regime], main: Sequence[Mapping[str, Any]], drive: str, gc: str, reasons: bool = True
) -> dict[str, _Measured]:
    """The seed's four claims in one regime, over its healthy cases (``reasons``: each degenerate case
    left out says why; a reading names them only, its regime's table says why)."""
    regime = next((g for g in found if (g.drive, g.gc_policy) == (drive, gc)), None)
    rows = _in_regime(main, drive, gc)
    counted = healthy(_regime_rows(main, drive, gc), comparison_health)
    # A claim that counts cases shows each side as the worst of its (healthy) runs.
    sides = (_worst(counted, "conventional"), _worst(counted, "scrambler")) if counted else ()
    out = {}
    for key in ("fewer_gcs", "fewer_copies"):
        count = getattr(regime, key) if regime else 0
        value = count / regime.cases if regime is not None and regime.cases else None
        note, text = (_sentence("share_claim", regime=regime, count=count, value=value, reasons=reasons, as_text=t) for t in (False, True))
        out[key] = _Measured(value, note, text, sides)
    for key, subset in (("write_performance", rows), ("src1_0_write_performance", [r for r in rows if r["workload"].startswith("src1_0")])):
        rated = [r for r in subset if r["write_performance_ratio"] is not None]
        best = _best(healthy(rated, comparison_health))
        left_out = [r for r in rated if not is_healthy(r)]
        note, text = (_sentence("best_claim", best=best, left_out_rows=left_out, reasons=reasons, as_text=t) for t in (False, True))
        health = tuple(comparison_health(best)) if best is not None else ()
        out[key] = _Measured(best["write_performance_ratio"] if best is not None else None, note, text, health)
    return out


def headlines(found: Sequence[Regime], main: Sequence[Mapping[str, Any]] = ()) -> tuple[list[Headline], list[Reading]]:
    """The seed's four claims graded under ``GRADED`` (with both sides' health), and the same four
    measured in every other regime as readings (shown, never counted)."""
    graded = _measure_regime(found, main, *GRADED)
    result = [
        claim.measure(graded[claim.key].value, where=_regime_name(*GRADED), note=graded[claim.key].note, health=graded[claim.key].health)
        for claim in CLAIMS
    ]
    readings: list[Reading] = []
    for drive in DRIVES:
        for gc in GC_POLICIES:
            if (drive, gc) == GRADED or not any(g.drive == drive and g.gc_policy == gc for g in found):
                continue
            other = _measure_regime(found, main, drive, gc, reasons=False)
            readings += [
                Reading(
                    claim=claim.key,
                    name=_regime_name(drive, gc),
                    value=other[claim.key].value,
                    value_text=other[claim.key].text,
                    assumes=f"{DRIVE_ASSUMES[drive]}; {POLICY_ASSUMES[gc]}",
                    supported=False,
                    why=DRIVE_WHY[drive],
                )
                for claim in CLAIMS
            ]
    return result, readings


# --- Figures ----------------------------------------------------------------------------------------


def _grouped_bars(table: Sequence[Mapping[str, Any]], figure_spec: Figure, title: str, path_stem: Path) -> list[Path]:
    """Bars per workload and free-space level around the figure's baseline (an equal result marked "=";
    a missing one "n/a"), linear or symlog, drawn and saved through ``ssdlab.plotting``."""
    key, scale, baseline, symlog = figure_spec.key, figure_spec.scale, figure_spec.baseline, figure_spec.symlog
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
    axes.set_ylabel(figure_spec.ylabel)
    axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8, ncols=len(frees))
    axes.grid(axis="y", alpha=0.3)
    return plotting.save(figure, path_stem)


def figures(table: Sequence[Mapping[str, Any]], out: Path, suffix: str = "", regime: str = "") -> dict[str, Path]:
    """Seed 003 Fig. 4(a) GC-count reduction, 4(b) GC page-copy reduction, 5 write-performance gain
    (one set per regime: ``suffix`` names the files, ``regime`` goes in the titles)."""
    paths: dict[str, Path] = {}
    for spec in FIGURES:
        stem = f"{spec.name}-{suffix}" if suffix else spec.name
        png, svg = _grouped_bars(table, spec, spec.title.format(where=f" ({regime})" if regime else ""), out / stem)
        paths[f"{stem} (PNG)"] = png
        paths[f"{stem} (SVG)"] = svg
    return paths


# --- The recipe -------------------------------------------------------------------------------------


def _cap_bytes(gib: float) -> float | None:
    return None if gib <= 0 else gib * (1 << 30)


class LbaScrambler(Recipe):
    name = "lba-scrambler"
    seed = "003"
    title = "LBA scrambler vs conventional FTL"
    help = (
        "Seed 003: LBA scrambler vs conventional (and TRIM), 5 workloads x free space 20-80 %, fresh and aged drives, greedy and "
        "round-robin GC, a rule-1 sweep and a file-churn study; Fig. 4(a), 4(b), 5 per regime and a report saying where the seed holds."
    )
    claims = CLAIMS
    # No number of the seed was an input of the model: no claim is calibrated (the thresholds the seed
    # leaves open, rule 1's 0.5 and rule 2's one page, are not fitted to its results).
    fits = ()
    options = (
        Option(
            "stand_in_cap_bytes",
            ("--stand-in-cap-gib",),
            float,
            1.0,
            "Shrink stand-ins larger than this (GiB); 0 runs the seed's data sizes (13.75 and 60.62 GB: long).",
            convert=_cap_bytes,
        ),
        Option("churn", ("--churn/--no-churn",), bool, True, "Also run the file-churn study (deletes as the workload runs)."),
    )

    def workloads(self) -> Sequence[Workload]:
        return WORKLOADS

    def run(
        self,
        out: Path,
        *,
        workloads: Sequence[str] | None,
        traces: Mapping[str, Path],
        scale: float,
        scheduler: str | None,
        workers: int | None,
        progress: Callable[..., object] | None,
        stand_in_cap_bytes: float | None = DEFAULT_STAND_IN_CAP_BYTES,
        churn: bool = True,
    ) -> report.Reproduction:
        """Runs the grid (resuming a previous run in ``out``), writes tables, figures and report.
        ``stand_in_cap_bytes`` None runs the stand-ins at the seed's data sizes."""
        if stand_in_cap_bytes is not None and stand_in_cap_bytes < 64 * (1 << 20):
            raise SweepError(
                f"stand-in cap of {stand_in_cap_bytes / GIB:g} GiB is below the 64 MiB the seed's 4 MB blocks need to be meaningful"
            )
        plans = plan_workloads(traces, stand_in_cap_bytes, workloads)
        sweep = build_sweep(plans, CHURN if churn else None, stand_in_cap_bytes)
        outcome = run_sweep(sweep, out / "sweep", scheduler=scheduler, workers=workers, progress=progress)
        tables = build_tables(outcome.rows)
        paths: dict[str, Path] = {}
        for drive in DRIVES:
            for gc in GC_POLICIES:
                rows = _in_regime(tables["main"], drive, gc)
                paths.update(figures(rows, out, f"{drive}-{gc.replace('_', '-')}", _regime_name(drive, gc)))
        return _finish(out, plans, tables, paths, outcome, scheduler, stand_in_cap_bytes)


RECIPE = LbaScrambler()
reproduce = RECIPE.reproduce


def _kib(size: int) -> str:
    return f"{size // 1024} KiB" if size < 1 << 20 else f"{size / (1 << 20):g} MiB"


def _finish(
    out: Path,
    plans: Sequence[WorkloadPlan],
    tables: dict[str, list[dict[str, Any]]],
    paths: Mapping[str, Path],
    outcome: Any,
    scheduler: str | None,
    cap: float | None,
) -> report.Reproduction:
    """Everything after the runs (regimes, headlines, readings, report), from the tables alone: a test
    builds it from hand-made rows."""
    found = regimes(tables["main"])
    tables["trends"] = free_space_trends(tables["main"])
    config = api.load_config(PRESET)
    collection = tomllib.loads(config).get("ftl", {}).get("garbage_collection", {})
    regime_table, regime_statement = _regime_markdown(found), _regime_statement(found, tables["churn"])
    src1_statement = _src1_statement(tables["main"])
    text = render(
        "lba_scrambler.md.j2",
        recipe=sys.modules[__name__],  # the declared constants (thresholds, sizes, quotes) the prose names
        percent=_percent,
        g=lambda value: f"{value:g}",
        provenance=provenance("ssdlab reproduce lba-scrambler", outcome, scheduler),
        graded=_regime_name(*GRADED),
        readings=", ".join(_regime_name(d, g) for d in DRIVES for g in GC_POLICIES if (d, g) != GRADED),
        regime_table=regime_table,
        statements=(regime_statement, src1_statement, _fewer_but_slower(tables["main"])),
        trends_table=_trend_markdown(tables["trends"]),
        sections=[
            (DRIVE_TITLES[drive], gc.replace("_", "-"), (drive, gc) == GRADED, _main_table_markdown(tables["main"], drive, gc))
            for drive in DRIVES
            for gc in GC_POLICIES
        ],
        rule1_table=markdown_table(tables["rule1"], RULE1_COLUMNS),
        rule1_statement=_rule1_statement(tables["rule1"]),
        victims_table=markdown_table(tables["victims"], VICTIMS_COLUMNS),
        victims_statement=_victims_statement(tables["victims"]),
        churn_table=markdown_table(tables["churn"], CHURN_COLUMNS) if tables["churn"] else "",
        plans=plans,
        watermarks=(collection.get("low_watermark_blocks"), collection.get("high_watermark_blocks")),
        extent_sizes=[_kib(pages * PAGE_BYTES) for pages in DELETE_EXTENT_PAGES],
        host_writes=_host_writes_statement(plans, tables["main"]),
        cap_gib=cap / GIB if cap else None,
        figures=[(name, path.name) for name, path in paths.items() if path.suffix == ".png"],
        config=config.strip(),
    )
    found_headlines, readings = headlines(found, tables["main"])
    return report.finish(
        out,
        tables={"": tables["main"], **{name: tables[name] for name in ("rule1", "churn", "trends", "victims")}},
        main="",
        report_text=text,
        summary=(regime_table + "\n\n" + regime_statement + " " + src1_statement).rstrip(),
        figures=dict(paths),
        outcomes=(outcome,),
        headlines=found_headlines,
        readings=readings,
        recipe=LbaScrambler.name,
        seed=LbaScrambler.seed,
    )
