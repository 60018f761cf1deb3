"""Seed 004 (TLC/MLC mix-and-match, RR-FDCA): an array of 8 one-chip NAND cards under a fixed chip
budget, MLC in front of TLC, against the all-MLC array.

The seed's Table I is missing from its text copy; the media come from SPEC §7's sourced defaults (preset
``seed004-tlc-mlc``, said in the report). Arrays (``ARRAYS``): all-MLC (8 MLC chips, round-robin GC in
place), the conventional mixed array (MLC GC moves every valid page to TLC, seed Fig. 6-7) and RR-FDCA
(seed Fig. 8) at N_RDSMAX = 1..4. TLC is written in whole blocks; a host overwrite of data in TLC is a
block-modify-write (the block's other valid pages rewritten in TLC) whose new data goes to MLC.

Measurement: the seed reports steady-state figures; a run that starts from a sequential fill spends its
first part moving data the fill put in TLC, so every point is run with a warm-up, with the warm-up plus
half the measured window and with the whole window (``Window``), and the figures are the differences
(write bytes over the host's time, flash programs, erases, energy). ``settled_check`` accepts a window
only when it inherits and leaves no device backlog and its halves agree in write rate and in pages moved to
TLC; points that fail are warmed up longer (``WARMUP_FACTORS``) until they pass or agree with the shorter
warm-up within 2 %, and those that never settle are left out of figures and headlines.

Workloads (``WORKLOADS``): the real MQSim TPC-C sample tiled up to the seed's 0.65 GB and looped; a
tpcc-mysql stand-in (the sample's read share; the sample writes 38 % of its footprint and only reads the
rest, so the stand-in writes a 38 % region uniformly and never writes the rest: static data); a prxy_1
stand-in (STANDINS.md: 99 % of accesses to 5 % of the space, 35 % writes, scaled to the same array).

Beside the seed's comparisons (main table, Fig. 11 N_RDSMAX, Fig. 12 TLC share), regime axes the seed
does not vary or state: how full the array is (data / all-MLC capacity), a serial host (queue depth 1),
how much of the span the workload rewrites and how static the cold data is (the share of writes that
reach data outside the written region). They are shown across their range, never counted.

Verdicts (``ssdlab.reproduce.base``): each claim (``CLAIMS``) is graded under one reading, quoted from
the seed: the throughput, energy and W/E figures at the main point (N_RDSMAX 1, 4 TLC of 8 chips, the
preset's host and ``MAIN_FILL``, fixed before any run), with both sides' health (``health_of``: write
amplification, writes held, settled, the most-worn block against its tier's endurance). The other
readings (``readings``: the serial host at each fill, every MLC erase per GB, the TLC-overwrite readings
the preset does not use, the fastest share, the TLC price solved from the seed's -71 %, the exchange's
other scenarios) are listed, never counted. No model constant was fitted to a number of this seed's
results (the media are SPEC §7's sourced defaults; ``fits`` is empty).

Layout: the claim book ``claims/tlc_mlc.toml`` holds the seed's numbers, its sentences, the claims
and the words of the mechanism and TLC-overwrite readings (``CLAIMS`` and the others are views of it);
the grid (``grid``: typed ``Point`` records), the report's tables (``*_COLUMNS``) and figures
(``FIGURES``) are declared here and consumed by small loops; the steady-state measurement
is ``tlc_mlc_steady``, the chip exchange ``tlc_mlc_exchange``, the search's objective
``tlc_mlc_objective``. Every sentence with a number (report.md, the headlines' notes, the readings) is
a template, ``templates/tlc_mlc*.md.j2``, filled from the computed values.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import tomllib
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ssdlab import api
from ssdlab.reproduce import report
from ssdlab.reproduce.base import (
    DEGENERATE_HELD_FRACTION,
    DEGENERATE_WRITE_AMPLIFICATION,
    Claim,
    Headline,
    Health,
    Option,
    Reading,
    Recipe,
    Workload,
    healthy,
)
from ssdlab.reproduce.claims import load
from ssdlab.reproduce.report import fmt, provenance
from ssdlab.reproduce.templates import render
from ssdlab.reproduce.tlc_mlc_exchange import (
    EXCHANGE_VALID_BYTES,
    FULL_FILL,
    SEED_DEAD_TIME_S,
    SEED_FILL,
    SEED_SUSPEND_S,
    dead_time_figure,
    drain_case,
    exchange_points,
    exchange_rows,
    one_stream_case,
    report_values,
    seed_case,
)
from ssdlab.reproduce.tlc_mlc_objective import (
    CHIPS,
    MLC_PAGES_PER_BLOCK,
    PAGE_BYTES,
    TLC_PAGES_PER_BLOCK,
    assess,
    bit_cost_vs_mlc_only,
    implied_tlc_chip_price,
    optima,
    search_objective,
    ties_text,
)
from ssdlab.reproduce.tlc_mlc_steady import (
    AGREEMENT_TOLERANCE,
    BACKLOG_LIMIT,
    HALVES_TOLERANCE,
    MIGRATION_TOLERANCE,
    WARMUP_FACTORS,
    WINDOWS,
    Window,
    agrees_with_shorter_warm_up,
    confirm_against_shorter_warm_up,
    halves_only_check,
    health_of,
    needs_confirmation,
    settled_check,
    window_counts,
    window_row,
)
from ssdlab.sweep import Sweep, SweepError, run_sweep

PRESET = "seed004-tlc-mlc"
# Every run of the recipe: preconditioned (a sequential fill), no integrity oracle (it costs time and
# checks nothing the figures use).
COMMON = ["ftl.precondition.enabled=true", "ftl.precondition.overwrite_passes=0", "verification.integrity_oracle=false"]
# The main comparison's array fill: the workload's data over the all-MLC array's raw capacity.
MAIN_FILL = 0.6
FILLS = (0.45, 0.6, 0.75, 0.8)
# The serial-host reading of the seed's throughput (issue 35 item 2, docs/tlc-mlc.md "The throughput
# model"): the seed's "transaction level modeling simulator" is read as replaying one request at a
# time, so throughput is the inverse of the time each write costs, die parallelism aside. Run at
# these fills against the all-MLC array run the same way.
SERIAL_HOST_FILLS = (0.6, 0.75, 0.8)
SERIAL_HOST = "host.queue_depth=1"
# The claim book (claims/tlc_mlc.toml): the seed's numbers, sentences and claims, and the words of the
# readings below, as data.
BOOK = load("tlc_mlc")
SEED = BOOK.seed


# The seed's sentences ``key`` as a claim quotes them (seed 004 is in English: no gloss).
quote = BOOK.quote


class Mechanism(NamedTuple):
    """A mechanism of RR-FDCA as ssdlab read it before issue 46 (item 7) or a controller's other
    choice, run at the main point as a reading: the points' label, the override, what it assumes,
    why it is not graded (the seed's sentence the preset's default follows), where the reading comes
    from, and the arrays run under it."""

    label: str
    override: str
    assumes: str
    why: str
    origin: str
    arrays: tuple[str, ...]


# The mechanism readings' runs (label, override, arrays); their words are the book's ``[mechanisms]``.
# Issue 46 item 7: how many TLC blocks take migrated pages at once (graded: one at a time, the preset,
# so migration programs one TLC die at a time; striped over an open block per TLC die is a controller's
# other choice, and both arrays migrate, so both run under it); and when the conventional collection
# stops (graded: it fills the TLC block it started, ssdlab's reading of the write unit).
MECHANISM_RUNS = {
    "accumulation": ("acc-two_victims", 'placement.accumulation="two_victims"', ("rr_fdca",)),
    "screening": ("scr-writes", 'placement.screening_access="writes"', ("rr_fdca",)),
    "incoming": ("inc-one_per_plane", 'device.tiers.tlc.open_incoming_blocks="one_per_plane"', ("rr_fdca", "conventional")),
    "migration_stop": ("stop-high_watermark", 'placement.migration_stop="high_watermark"', ("conventional",)),
}
MECHANISM_READINGS = {
    study: Mechanism(label, override, arrays=arrays, **BOOK.extra["mechanisms"][study])
    for study, (label, override, arrays) in MECHANISM_RUNS.items()
}
MECHANISM_QUOTES = BOOK.sentences["mechanism"].joined
# The host reading (issue 46 item 5), declared: the seed names its simulator and says nothing of how
# many requests its host keeps in flight (HOST_READING_QUOTES). Graded: the preset's closed loop at
# queue depth 16 (an array of cards serving a data center has many requests in flight), fixed before
# any run. The serial host (queue depth 1, the host waits for every write and the GC it triggers, as
# §4's "dead time" of a GC) is a reading at every fill and every TLC share: its arithmetic came out
# near the seed's +56 % (docs/tlc-mlc.md), so it is labelled as adopted because it matched.
HOST_READING_QUOTES = BOOK.sentences["host"].joined
MAIN_TLC_CHIPS = 4
TLC_CHIPS = (1, 2, 3, 4, 5, 6, 7)
SCREENING_ROUNDS = (1, 2, 3, 4)
# Share of the stand-in's accesses that reach its static region (0: truly frozen cold data).
COLD_ACCESS = (0.0, 0.001, 0.01)
# The written share the cold-data study runs at (one where RR-FDCA wins without cold accesses).
COLD_STUDY_WRITTEN_SHARE = 0.05
# Share of the stand-in's span it writes (uniformly; the rest static): the smaller, the more often each
# written page is rewritten, and the less of it freezes between rewrites.
WRITTEN_SHARES = (0.05, 0.1, 0.2, 0.38)


class TlcOverwrite(NamedTuple):
    """A reading of what a host overwrite of data held in TLC does (left open by the seed,
    docs/tlc-mlc.md): the two preset fields that set it, in words, what it assumes and why it is (not)
    the one graded."""

    target: str
    block: str
    text: str
    assumes: str
    why: str


# The TLC-overwrite study (issue 35): the main RR-FDCA and conventional points also run under the
# readings the preset does not use: (target, block) per reading; their words are the book's
# ``[tlc_overwrites]``, decided by the three sentences of ``[sentences.tlc_overwrite]``.
TLC_OVERWRITE_READINGS = {
    label: TlcOverwrite(target, block, **BOOK.extra["tlc_overwrites"][label])
    for label, (target, block) in {
        "in_tlc": ("rewritten_block", "rewritten"),
        "to_mlc_block_rewritten": ("write_tier", "rewritten"),
        "to_mlc_page_invalidated": ("write_tier", "page_invalidated"),
    }.items()
}
TLC_OVERWRITE_QUOTES = BOOK.sentences["tlc_overwrite"].joined
# The workloads the seed's tpcc-mysql figures (+56 %, -29 %, -36 %) are held to.
TPCC_WORKLOADS = ("tpcc", "tpcc-standin")
# The share of each workload's data it never writes (static data, which the TLC chips must hold for an
# array to be feasible: tlc_mlc_objective): the TPC-C sample writes 38 % of its footprint and only reads
# the rest, the tpcc stand-in is built that way, and the prxy_1 stand-in sends 1 % of its accesses to its
# cold 95 % (cold, not strictly static: counted as the data TLC must hold).
STATIC_SHARE = {"tpcc": 0.62, "tpcc-standin": 0.62, "prxy_1": 0.95}
# The search's throughput floor, a multiple of the all-MLC array's steady-state write throughput (seed
# §3: the mixed array "has higher system performance compared with MLC only storage").
THROUGHPUT_FLOOR = 1.0
# The search for the best array (seed Fig. 11-12 pick N_RDSMAX and the TLC share by hand): TLC chips
# and N_RDSMAX together, a coarse grid then refinement around the lowest bit cost that meets the
# seed's constraints (tlc_mlc_objective: throughput floor, TLC holds the static data).
SEARCH_AXES = (("tlc_chips", 1, CHIPS - 1, 4), ("max_screening_rounds", 1, 8, 4))
SEARCH_ROUNDS = 2
# A stand-in's measured window writes WINDOW_CAPACITIES times the raw capacity of the recipe's
# largest all-MLC array (the lowest fill), and its warm-up is WARMUP_WINDOWS windows. Why: garbage
# collection takes victims in round-robin order (seed Fig. 6), so one trip around a plane passes over
# every block of static data, and a window shorter than a trip measures one phase of it. With a
# fixed 100,000-request window (0.2 GB written, a fifth of the array) the prxy_1 stand-in's all-MLC
# array never settled (halves 0.26x apart, 0.73x with 4 times the window), and where the halves
# happened to agree its rate was 15-20 % off the long-window value (8.95 MB/s against 7.47 MB/s
# with a 1,000,000-request window; docs/tlc-mlc.md, "Measuring the steady state").
WINDOW_CAPACITIES = 2.0
WARMUP_WINDOWS = 3
STANDIN_MIN_WINDOW = 100_000

WORKLOADS: tuple[Workload, ...] = (
    Workload(
        "tpcc",
        "sample",
        data_bytes=0.65e9,
        basis="real sample: MQSim's tpcc-small TPC-C trace (7,000 requests; lineage unverified), tiled up to 0.65 GB of tpcc-mysql data (seed 003 Table 1; seed 004 gives no size) and looped",
        sample="mqsim-tpcc-small.trace.gz",
    ),
    Workload(
        "tpcc-standin",
        "stand-in",
        data_bytes=0.65e9,
        basis="stand-in for the full tpcc-mysql trace: 0.65 GB (seed 003 Table 1), 62.6 % reads and 8 KiB requests (the sample's), "
        "every access to a 38 % region (the share of its footprint the sample writes), the rest static",
        read_fraction=0.626,
        sizes=((8192, 1.0),),
        hot_space_fraction=0.38,
        hot_access_fraction=1.0,
    ),
    Workload(
        "prxy_1",
        "stand-in",
        data_bytes=0.65e9,
        basis="stand-in for MSR prxy_1 (STANDINS.md): 99 % of accesses to 5 % of the space (published byte-LRU hit ratio 0.99), "
        "35 % writes, 4-32 KiB (prxy_0's sizes); scaled to the same data size as tpcc so that the arrays compare",
        read_fraction=0.65,
        sizes=((4096, 0.88), (8192, 0.08), (32768, 0.04)),
        hot_space_fraction=0.05,
        hot_access_fraction=0.99,
    ),
)
ARRAY_NAMES = {"mlc_only": "all-MLC", "conventional": "conventional TLC/MLC", "rr_fdca": "RR-FDCA"}
ALL_ARRAYS, MIXED_ARRAYS = ("mlc_only", "conventional", "rr_fdca"), ("rr_fdca", "conventional")


def _preset() -> dict[str, Any]:
    return tomllib.loads(api.load_config(PRESET))


def _preset_tiers() -> dict[str, Any]:
    return _preset()["device"]["tiers"]


@functools.cache
def preset_tlc_overwrite_reading() -> str:
    """The preset's reading of a host overwrite of TLC data (a `TLC_OVERWRITE_READINGS` label): every
    mixed array of the recipe runs under it, except the `tlc_overwrite` study's points."""
    tlc = _preset_tiers()["tlc"]
    pair = (str(tlc.get("overwrite_target", "rewritten_block")), str(tlc.get("overwritten_block", "rewritten")))
    return next(label for label, reading in TLC_OVERWRITE_READINGS.items() if (reading.target, reading.block) == pair)


def _inline(value: Any) -> str:
    """A TOML inline value (tables, arrays, numbers, strings, booleans)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_inline(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def blocks_for(data_bytes: float, fill: float) -> int:
    """Blocks per plane (one plane per chip) that make ``data_bytes`` ``fill`` of the all-MLC array."""
    return max(16, math.ceil(data_bytes / (fill * CHIPS * MLC_PAGES_PER_BLOCK * PAGE_BYTES)))


def array(kind: str, blocks: int, tlc_chips: int = MAIN_TLC_CHIPS, rounds: int = 1) -> list[str]:
    """Overrides of one array: ``mlc_only``, ``conventional`` or ``rr_fdca``, chips of ``blocks``
    blocks, ``tlc_chips`` of the 8 TLC (mixed arrays), N_RDSMAX ``rounds`` (RR-FDCA)."""
    # Garbage collection needs its high watermark plus the open blocks hidden in every plane.
    spare = [f"ftl.overprovisioning_fraction={max(0.1, 7 / blocks)!r}"]
    if kind == "mlc_only":
        mlc = dict(_preset_tiers()["mlc"], chips=CHIPS, channels=CHIPS, blocks_per_plane=blocks)
        return spare + [f"device.tiers={{ mlc = {_inline(mlc)} }}", 'placement={ policy = "single" }']
    split = [
        f"device.tiers.{tier}.{key}={count}"
        for tier, count in (("mlc", CHIPS - tlc_chips), ("tlc", tlc_chips))
        for key in ("chips", "channels")
    ]
    split += [f"device.tiers.{tier}.blocks_per_plane={blocks}" for tier in ("mlc", "tlc")] + spare
    if kind == "conventional":
        return split + ['placement.policy="migrate_on_collect"']
    return split + ['placement.policy="rr_fdca"', f"placement.max_screening_rounds={rounds}"]


@dataclass
class Plan:
    workload: Workload
    overrides: list[str]
    window_key: str  # "host.loops" or "workload.synthetic.requests"
    window: Window
    description: str


def _synthetic(workload: Workload, cold_access: float | None = None, written_share: float | None = None) -> list[str]:
    span = int(workload.data_bytes // PAGE_BYTES) * PAGE_BYTES
    hot_access = workload.hot_access_fraction if cold_access is None else 1.0 - cold_access
    hot_space = workload.hot_space_fraction if written_share is None else written_share
    sizes = workload.sizes
    return [
        f"workload.synthetic.span_bytes={span}",
        f"workload.synthetic.read_fraction={workload.read_fraction}",
        f'workload.synthetic.address={{ distribution = "hot_cold", hot_space_fraction = {hot_space}, hot_access_fraction = {hot_access} }}',
        f'workload.synthetic.size={{ distribution = "choice", bytes = [{", ".join(str(b) for b, _ in sizes)}], weights = [{", ".join(str(w) for _, w in sizes)}] }}',
        "workload.synthetic.alignment_bytes=4096",
    ]


def plan_workloads(traces: Mapping[str, Path] | None = None, scale: float = 1.0, only: Sequence[str] | None = None) -> list[Plan]:
    """One plan per workload (``only``: names to keep); ``scale`` shrinks the windows (tests)."""
    traces = dict(traces or {})
    plans = []
    for workload in report.selected(WORKLOADS, only):
        if workload.kind == "sample" or workload.name in traces:
            path = report.workload_trace(workload.name, workload.sample, traces)
            stats = api.trace_stats(path, block_bytes=PAGE_BYTES)["stats"]
            tiles = 1 if workload.name in traces else max(1, round(workload.data_bytes / stats["footprint_bytes"]))
            overrides = [f"workload.trace.path={json.dumps(str(path))}", f"host.tiles={tiles}", "host.compact_addresses=true"]
            loops = max(1, round(5 * scale))
            # The window is split in halves (the settled check): at least two loops.
            window = Window(loops, max(2, loops))
            description = workload.basis + f" ({tiles} copies)" if workload.name not in traces else f"full trace given by the user: {path}"
            plans.append(Plan(workload, overrides, "host.loops", window, description))
        else:
            plans.append(
                Plan(workload, _synthetic(workload), "workload.synthetic.requests", synthetic_window(workload, scale), workload.basis)
            )
    return plans


def synthetic_window(workload: Workload, scale: float = 1.0) -> Window:
    """A stand-in's warm-up and measured window in requests (``scale`` shrinks both, for tests)."""
    mean_size = sum(size * weight for size, weight in workload.sizes) / sum(weight for _, weight in workload.sizes)
    written_per_request = (1.0 - workload.read_fraction) * mean_size
    raw_capacity = workload.data_bytes / min(FILLS)
    measured = max(STANDIN_MIN_WINDOW, math.ceil(WINDOW_CAPACITIES * raw_capacity / written_per_request))
    return Window(max(1000, round(WARMUP_WINDOWS * measured * scale)), max(1000, round(measured * scale)))


class Point(NamedTuple):
    """One point of the grid: its study, workload, array, fill, TLC chips (0 for all-MLC), N_RDSMAX
    (0 but for RR-FDCA), and what else sets it apart: the stand-in's cold accesses and written share,
    a TLC-overwrite reading (``TLC_OVERWRITE_READINGS``) or a mechanism reading (``MECHANISM_READINGS``,
    by its study)."""

    study: str
    workload: str
    array: str
    fill: float
    tlc_chips: int
    rounds: int
    cold_access: float | None = None
    written_share: float | None = None
    tlc_overwrite: str | None = None

    @property
    def variant(self) -> str:
        if self.study in MECHANISM_READINGS:
            return MECHANISM_READINGS[self.study].label
        if self.tlc_overwrite is not None:
            return f"ow-{self.tlc_overwrite}"
        if self.cold_access is not None:
            return f"{self.cold_access}@{self.written_share}"
        return "-" if self.written_share is None else f"w{self.written_share}"

    @property
    def key(self) -> str:
        """The point as the table's ``key`` and the sweep's labels spell it (``main|tpcc|rr_fdca|0.6|4|1|-``)."""
        return "|".join(str(part) for part in (*self[:6], self.variant))

    def label(self, window: str) -> str:
        """The sweep's label of one of the point's runs (``WINDOWS``)."""
        return f"{self.key}|{window}"

    def columns(self, warmup_factor: int) -> dict[str, Any]:
        """The table row's columns that say which point it is."""
        return {
            "key": self.key,
            "study": self.study,
            "workload": self.workload,
            "array": self.array,
            "fill": self.fill,
            "tlc_chips": self.tlc_chips,
            "max_screening_rounds": self.rounds,
            "cold_access": self.cold_access,
            "written_share": self.written_share,
            "warmup_factor": warmup_factor,
            "serial_host": self.study == "serial_host",
            "tlc_overwrite_reading": self.tlc_overwrite or preset_tlc_overwrite_reading(),
            "mechanism_reading": self.study if self.study in MECHANISM_READINGS else None,
        }


def grid(plan: Plan) -> Iterator[tuple[Point, list[str]]]:
    """Every point of one workload with its overrides but the window: the main study (all-MLC,
    conventional, RR-FDCA at each N_RDSMAX), the TLC-overwrite and mechanism readings, the TLC shares,
    the fills, the serial host (each fill, each TLC share) and, on the tpcc stand-in, cold accesses and
    written shares."""
    workload, overrides = plan.workload, plan.overrides

    def point(study: str, kind: str, fill: float = MAIN_FILL, tlc: int = MAIN_TLC_CHIPS, rounds: int = 1, **variant: Any) -> Point:
        return Point(study, workload.name, kind, fill, 0 if kind == "mlc_only" else tlc, rounds if kind == "rr_fdca" else 0, **variant)

    def runs(point: Point, first: list[str], last: Sequence[str] = ()) -> tuple[Point, list[str]]:
        blocks = blocks_for(workload.data_bytes, point.fill)
        # (array ignores the TLC chips of all-MLC and the N_RDSMAX of the arrays without screening.)
        return point, first + array(point.array, blocks, point.tlc_chips, point.rounds) + list(last)

    # The main study also counts host writes per page (Fig. 10: where data of each heat ends up).
    for kind, rounds in (("mlc_only", 1), ("conventional", 1), *(("rr_fdca", rounds) for rounds in SCREENING_ROUNDS)):
        yield runs(point("main", kind, rounds=rounds), overrides + ["output.write_heat=true"])
    # The readings of a TLC overwrite the preset does not use (docs/tlc-mlc.md), on both mixed arrays.
    for label, reading in TLC_OVERWRITE_READINGS.items():
        fields = (f'device.tiers.tlc.overwrite_target="{reading.target}"', f'device.tiers.tlc.overwritten_block="{reading.block}"')
        if label != preset_tlc_overwrite_reading():
            for kind in MIXED_ARRAYS:
                yield runs(point("tlc_overwrite", kind, tlc_overwrite=label), overrides, fields)
    # RR-FDCA's mechanisms as ssdlab read them before issue 46, readings beside the seed's (the
    # preset's defaults).
    for study, mechanism in MECHANISM_READINGS.items():
        for kind in mechanism.arrays:
            yield runs(point(study, kind), overrides, [mechanism.override])
    for tlc in TLC_CHIPS:
        if tlc != MAIN_TLC_CHIPS:
            for kind in MIXED_ARRAYS:
                yield runs(point("tlc_share", kind, tlc=tlc), overrides)
    for fill in FILLS:
        if fill != MAIN_FILL:
            for kind in ALL_ARRAYS:
                yield runs(point("fill", kind, fill), overrides)
    for fill in SERIAL_HOST_FILLS:
        for kind in ("mlc_only", "rr_fdca"):
            yield runs(point("serial_host", kind, fill), overrides + [SERIAL_HOST])
    # Fig. 12 under the serial host too (issue 46 item 5): the best share by the seed's objective
    # under the other host reading, a reading.
    for tlc in TLC_CHIPS:
        if tlc != MAIN_TLC_CHIPS:
            yield runs(point("serial_host", "rr_fdca", tlc=tlc), overrides + [SERIAL_HOST])
    if workload.name == "tpcc-standin":
        for cold in COLD_ACCESS:
            if cold != 0.0:
                for kind in ALL_ARRAYS:
                    synthetic = _synthetic(workload, cold, COLD_STUDY_WRITTEN_SHARE)
                    yield runs(point("cold", kind, cold_access=cold, written_share=COLD_STUDY_WRITTEN_SHARE), synthetic)
        for share in WRITTEN_SHARES:
            if share != workload.hot_space_fraction:
                for kind in ALL_ARRAYS:
                    yield runs(point("written", kind, written_share=share), _synthetic(workload, written_share=share))


def points_of(plans: Sequence[Plan], warmup_factor: int = 1, only: Collection[str] | None = None) -> dict[str, list[str]]:
    """Every point's three runs (``window_counts``, the warm-up ``warmup_factor`` times the plan's) by
    their labels; ``only``: the point keys to keep."""
    return {
        point.label(window): overrides + [f"{plan.window_key}={count}"]
        for plan in plans
        for point, overrides in grid(plan)
        if only is None or point.key in only
        for window, count in window_counts(plan.window, warmup_factor)
    }


def build_sweep(plans: Sequence[Plan], scale: float = 1.0, warmup_factor: int = 1, only: Collection[str] | None = None) -> Sweep:
    """The recipe's grid; with ``warmup_factor`` > 1, only the points ``only`` names (those not yet
    settled) with a longer warm-up, and no chip exchange (it runs once, in the first pass)."""
    cases = points_of(plans, warmup_factor, only)
    if warmup_factor == 1 and only is None:
        cases.update(exchange_points(scale))
    return Sweep(
        name="seed004-tlc-mlc" if warmup_factor == 1 else f"seed004-tlc-mlc-warmup-x{warmup_factor}",
        base=PRESET,
        common=COMMON,
        cases={"point": cases},
        origin="reproduce tlc-mlc" if warmup_factor == 1 else f"reproduce tlc-mlc, warm-up x{warmup_factor}",
    )


def check_one_point(
    workload: str, key: str, scale: float = 1.0, warmup_factor: int = 1, overrides: Sequence[str] = (), window: Window | None = None
) -> dict[str, Any]:
    """Runs one point of the grid here and now (its three runs, nothing stored) and returns its
    settled check with the window's write rate and each run's host and device end times: to see why
    a point does (not) settle, or how a setting (``overrides``, applied last) moves it. ``key`` is a
    table row's ``key`` (``main|tpcc|rr_fdca|0.6|4|1|-``); ``window``: warm-up and measured window
    instead of the plan's (scaled)."""
    (plan,) = plan_workloads(None, scale, [workload])
    if window is not None:
        plan = dataclasses.replace(plan, window=window)
    points = points_of([plan], warmup_factor, {key})
    if not points:
        raise SweepError(f"no point {key!r} for workload {workload!r}; keys look like main|{workload}|rr_fdca|{MAIN_FILL}|4|1|-")
    runs = {}
    for name, _ in window_counts(plan.window, warmup_factor):
        result = api.run(PRESET, overrides=COMMON + points[f"{key}|{name}"] + list(overrides))
        runs[name] = {"status": "ok", "error": None, "result_json": result.to_json(indent=None)}
    check = settled_check(runs["warm"], runs["half"], runs["full"])
    check.update(window_row(runs["warm"], runs["full"]))
    check["halves_only_check"] = halves_only_check(runs["warm"], runs["half"], runs["full"])
    for name, row in runs.items():
        result = json.loads(row["result_json"])
        check[f"{name}_host_s"], check[f"{name}_device_s"] = result["host_span_seconds"], result["simulated_seconds"]
    return check


def point_rows(rows: Sequence[Mapping[str, Any]], plans: Sequence[Plan], warmup_factor: int = 1) -> list[dict[str, Any]]:
    """One table row per point of ``plans`` that ``rows`` (a sweep's) ran, its warm, half and full runs
    paired, with its settled check; no comparison with the all-MLC array yet (``compare_with_mlc_only``)."""
    runs_of = {point.label(window): (point, window) for plan in plans for point, _ in grid(plan) for window in WINDOWS}
    by_point: dict[Point, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        if row["point.point"] in runs_of:
            point, window = runs_of[row["point.point"]]
            by_point.setdefault(point, {})[window] = row
    table = []
    for point, runs in sorted(by_point.items(), key=lambda item: item[0].key):
        entry = point.columns(warmup_factor)
        entry.update(window_row(runs.get("warm"), runs.get("full")))
        full = runs.get("full")
        if full is not None and full["status"] == "ok":
            heat = json.loads(full["result_json"]).get("write_heat")
            if heat:
                entry["write_heat"] = json.dumps(heat)
        entry.update(settled_check(runs.get("warm"), runs.get("half"), runs.get("full")))
        table.append(entry)
    return table


def find(table: Sequence[Mapping[str, Any]], **where: Any) -> Mapping[str, Any] | None:
    """The first row of ``table`` whose columns equal ``where``'s values (a tuple: any of them)."""
    return next(iter(select(table, **where)), None)


def select(table: Sequence[Mapping[str, Any]], **where: Any) -> list[Mapping[str, Any]]:
    """The rows of ``table`` whose columns equal ``where``'s values (a tuple: any of them)."""
    return [r for r in table if all(r.get(k) in v if isinstance(v, tuple) else r.get(k) == v for k, v in where.items())]


def _base_of(table: Sequence[Mapping[str, Any]], row: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The all-MLC row a row is compared with: same workload, fill, cold access, written share and host."""
    same = ("workload", "fill", "cold_access", "written_share", "serial_host")
    return find(table, array="mlc_only", **{key: row.get(key) for key in same})


def compare_with_mlc_only(table: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Adds each row's change against the all-MLC array of the same workload, fill, cold access and
    written share: only between two settled rows (an unsettled side is no steady state to compare)."""
    for entry in table:
        base = _base_of(table, entry)
        for key in ("write_mbps", "energy_j_per_gb", "mlc_erases_per_block", "mlc_erases_per_gb"):
            entry[f"{key}_vs_mlc_only"] = _change(entry, base, key)
        tlc, mlc = entry.get("tlc_erases_per_block"), entry.get("mlc_erases_per_block")
        entry["tlc_mlc_we_ratio"] = tlc / mlc if entry.get("settled") and tlc is not None and mlc else None
    return list(table)


def _change(row: Mapping[str, Any] | None, base: Mapping[str, Any] | None, column: str) -> float | None:
    """``row``'s ``column`` against ``base``'s (a fraction), when both settled."""
    if not row or not base or not row.get("settled") or not base.get("settled"):
        return None
    value, reference = row.get(column), base.get(column)
    return value / reference - 1.0 if value is not None and reference else None


def run_until_settled(
    plans: Sequence[Plan],
    out: Path,
    scale: float,
    *,
    factors: Sequence[int] = WARMUP_FACTORS,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[..., object] | None = None,
    only: Collection[str] | None = None,
) -> tuple[list[dict[str, Any]], list[Any]]:
    """Runs the grid (``only``: these point keys, without the chip exchange), then again with longer
    warm-ups (``factors``) the points that did not settle, until each settles or the last factor is
    reached. Returns the table (each point's first settled try, else its last) and the sweeps'
    outcomes (the first holds the chip exchange)."""
    outcomes = []
    final: dict[str, dict[str, Any]] = {}
    pending: set[str] | None = None if only is None else set(only)
    for index, factor in enumerate(factors):
        if pending is not None and not pending:
            break
        sweep = build_sweep(plans, scale, factor, pending)
        folder = out / ("sweep" if factor == 1 else f"sweep-warmup-x{factor}")
        outcome = run_sweep(sweep, folder, scheduler=scheduler, workers=workers, progress=progress)
        outcomes.append(outcome)
        last = index == len(factors) - 1
        for entry in point_rows(outcome.rows, plans, factor):
            shorter = final.get(entry["key"])
            if shorter is not None and shorter["settled"]:
                # A graded point settled by its halves, run again to confirm (CONFIRMED_STUDIES).
                confirm_against_shorter_warm_up(shorter, entry, last)
            elif not entry["settled"] and shorter is not None and agrees_with_shorter_warm_up(shorter, entry):
                entry["settled"] = True
                entry["settled_by"] = f"agrees with warm-up x{shorter['warmup_factor']} within {AGREEMENT_TOLERANCE:.0%}"
                entry["unsettled_because"] = None
            final[entry["key"]] = entry
        pending = {key for key, entry in final.items() if not entry["settled"] and entry["status"] == "ok"}
        if not last:
            # Graded points settled by their halves alone are run once more with the next warm-up:
            # halves can agree while the window still drifts slowly between warm-ups.
            pending |= {key for key, entry in final.items() if needs_confirmation(entry)}
    for entry in final.values():
        if needs_confirmation(entry):
            entry["settled_by"] = f"{entry['settled_by']} (not confirmed: no longer warm-up was run)"
    return compare_with_mlc_only(list(final.values())), outcomes


def tlc_capacity_share(tlc_chips: float) -> float:
    """TLC's share of the array's raw capacity with ``tlc_chips`` of the 8 chips TLC. The seed's optima
    are capacity shares ("50% of TLC/MLC capacity ratio", "the optimum TLC capacity percentage"; issue 46
    item 9), and here a TLC chip holds TLC_PAGES_PER_BLOCK / MLC_PAGES_PER_BLOCK = 1.5 MLC chips (same
    blocks and page size), so 3 TLC chips of 8 are 47 % of the capacity, not 37.5 %."""
    tlc = tlc_chips * TLC_PAGES_PER_BLOCK
    return tlc / (tlc + (CHIPS - tlc_chips) * MLC_PAGES_PER_BLOCK)


def tlc_chip_bytes(blocks: int) -> float:
    """What one TLC chip of ``blocks`` blocks may hold: its raw capacity less the spare share ``array``
    gives every array."""
    return blocks * TLC_PAGES_PER_BLOCK * PAGE_BYTES * (1.0 - max(0.1, 7 / blocks))


def constraints_of(plan: Plan, table: Sequence[Mapping[str, Any]], baseline_row: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The seed objective's constraints for one workload (``tlc_mlc_objective.assess``): the
    throughput floor (``THROUGHPUT_FLOOR`` times the settled all-MLC main point's write MB/s, or
    ``baseline_row``'s, None when it did not settle), the static data and what a TLC chip holds at the
    main fill."""
    baseline = (_pick(table, plan.workload.name, "mlc_only") if baseline_row is None else baseline_row) or {}
    floor = baseline.get("write_mbps") if baseline.get("settled") else None
    return dict(
        floor_mbps=None if floor is None else THROUGHPUT_FLOOR * floor,
        static_bytes=STATIC_SHARE.get(plan.workload.name, 0.0) * plan.workload.data_bytes,
        tlc_chip_bytes=tlc_chip_bytes(blocks_for(plan.workload.data_bytes, MAIN_FILL)),
    )


def search_best_array(
    plan: Plan,
    out: Path,
    constraints: Mapping[str, Any],
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[..., object] | None = None,
    factors: Sequence[int] = WARMUP_FACTORS,
) -> tuple[Any, list[dict[str, Any]]]:
    """Finds the cheapest RR-FDCA array per bit (TLC share, N_RDSMAX) that meets ``constraints``
    (``constraints_of``) for one workload, each evaluation a steady-state window (three stored runs).
    Returns the search result and its rows, assessed (feasible, why not, every tied optimum)."""
    from ssdlab.optimize import Axis, search

    axes = [Axis(key, low, high, integer=True, coarse=coarse) for key, low, high, coarse in SEARCH_AXES]
    blocks = blocks_for(plan.workload.data_bytes, MAIN_FILL)
    checks: dict[tuple[int, int], dict[str, Any]] = {}

    def evaluate(points: list[dict[str, float]]) -> list[float | None]:
        # Each point as in the grid: warm up longer until it settles (``factors``); a point that
        # never settles has no objective (it never wins).
        pending = [(int(point["tlc_chips"]), int(point["max_screening_rounds"])) for point in points]
        for factor in factors:
            if not pending:
                break
            cases = {
                f"{tlc}|{rounds}|{window}": plan.overrides + array("rr_fdca", blocks, tlc, rounds) + [f"{plan.window_key}={count}"]
                for tlc, rounds in pending
                for window, count in window_counts(plan.window, factor)
            }
            suffix = "" if factor == 1 else f"-warmup-x{factor}"
            sweep = Sweep(
                name=f"seed004-search-{plan.workload.name}{suffix}",
                base=PRESET,
                common=COMMON,
                cases={"point": cases},
                origin=f"reproduce tlc-mlc search {plan.workload.name}{suffix}",
            )
            outcome = run_sweep(
                sweep, out / "search" / f"{plan.workload.name}{suffix}", scheduler=scheduler, workers=workers, progress=progress
            )
            by_label = {row["point.point"]: row for row in outcome.rows}
            for tlc, rounds in pending:
                warm, half, full = (by_label.get(f"{tlc}|{rounds}|{window}") for window in WINDOWS)
                check = dict(window_row(warm, full), **settled_check(warm, half, full), warmup_factor=factor)
                shorter = checks.get((tlc, rounds))
                if not check["settled"] and shorter is not None and agrees_with_shorter_warm_up(shorter, check):
                    check.update(settled=True, unsettled_because=None, settled_by=f"agrees with warm-up x{shorter['warmup_factor']}")
                checks[(tlc, rounds)] = check
            pending = [point for point in pending if not checks[point]["settled"]]
        values: list[float | None] = []
        for point in points:
            check = checks[(int(point["tlc_chips"]), int(point["max_screening_rounds"]))]
            values.append(search_objective(int(point["tlc_chips"]), check["write_mbps"], bool(check["settled"]), **constraints))
        return values

    result = complete_ties(search(axes, evaluate, maximize=False, rounds=SEARCH_ROUNDS), evaluate)
    rows = []
    for row in result.rows():
        check = checks.get((int(row["tlc_chips"]), int(row["max_screening_rounds"])), {})
        columns = ("write_mbps", "settled", "warmup_factor", "unsettled_because")
        rows.append(dict(row, workload=plan.workload.name, **{key: check.get(key) for key in columns}))
        rows[-1]["settled"] = bool(rows[-1]["settled"])
    return result, assessed_search(rows, constraints)


def complete_ties(result: Any, evaluate: Callable[[list[dict[str, float]]], list[float | None]]) -> Any:
    """Evaluates every N_RDSMAX (``SEARCH_AXES``) at the search optimum's TLC chip count that the
    search did not: bit cost does not depend on N_RDSMAX, so each feasible one there ties with the
    optimum and is listed (the refinement only visits the optimum's neighbours). Returns ``result``
    with those evaluations appended (round: the last refinement round + 1)."""
    from ssdlab.optimize import Evaluation

    if result.best is None:
        return result
    tlc = result.best.point["tlc_chips"]
    (_, low, high, _) = SEARCH_AXES[1]
    seen = {(e.point["tlc_chips"], e.point["max_screening_rounds"]) for e in result.history}
    extra = [{"tlc_chips": tlc, "max_screening_rounds": float(n)} for n in range(low, high + 1) if (tlc, float(n)) not in seen]
    if extra:
        last = max(e.round for e in result.history)
        for point, value in zip(extra, evaluate(extra)):
            result.history.append(Evaluation(point, value, last + 1))
    return result


def assessed_search(rows: Sequence[Mapping[str, Any]], constraints: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The search's rows with the objective's verdict on each (``tlc_mlc_objective.assess``) and the
    floor they were held to; ``best`` is True for every tied optimum (not only the one the optimizer
    met first)."""
    assessed = assess(rows, **constraints)
    return [dict(row, best=row["optimum"], floor_mbps=constraints["floor_mbps"]) for row in assessed]


def run_exchange(out: Path, scale: float = 1.0, workers: int | None = None) -> list[dict[str, Any]]:
    """The chip-exchange points alone (``tlc_mlc_exchange``), stored in ``out`` (resumable): their rows."""
    sweep = Sweep(
        name="seed004-exchange", base=PRESET, common=COMMON, cases={"point": exchange_points(scale)}, origin="reproduce tlc-mlc exchange"
    )
    return exchange_rows(run_sweep(sweep, out, workers=workers).rows)


# The seed's claims (the book's ``[[claims]]``), each with the sentence it quotes (``[quotes]``).
CLAIMS = BOOK.claims


def _pick(table: Sequence[Mapping[str, Any]], workload: str, kind: str, rounds: int = 1) -> Mapping[str, Any] | None:
    """The main study's row of one array (N_RDSMAX ``rounds`` for RR-FDCA)."""
    return find(table, study="main", workload=workload, array=kind, max_screening_rounds=(0, rounds))


def _serial_rows(table: Sequence[Mapping[str, Any]], workload: str, fill: float) -> tuple[Mapping[str, Any] | None, ...]:
    """The serial-host study's all-MLC and RR-FDCA rows at ``fill``."""
    where = dict(study="serial_host", workload=workload, fill=fill, tlc_chips=(0, MAIN_TLC_CHIPS))
    return tuple(find(table, array=kind, **where) for kind in ("mlc_only", "rr_fdca"))


def _reading_row(table: Sequence[Mapping[str, Any]], workload: str, study: str, label: str, kind: str) -> Mapping[str, Any] | None:
    """The main point's row of array ``kind`` under TLC-overwrite reading ``label``."""
    where = dict(tlc_chips=MAIN_TLC_CHIPS, max_screening_rounds=(0, 1), tlc_overwrite_reading=label)
    return find(table, workload=workload, study=study, array=kind, **where)


def degenerate_text(sides: Sequence[Health]) -> str:
    """Each degenerate side of a comparison with its reasons ("" when none is)."""
    return "; ".join(f"{h.side}: {'; '.join(h.problems())}" for h in sides if h.degenerate)


def share_study(table: Sequence[Mapping[str, Any]], plan: Plan, serial_host: bool = False) -> list[dict[str, Any]]:
    """Fig. 12's TLC shares (RR-FDCA, N_RDSMAX 1, the main fill), each assessed by the seed's
    objective (``tlc_mlc_objective``: lowest bit cost with write throughput at least the all-MLC
    array's and the static data fitting in TLC); ``optimum`` marks the pick. A share whose comparison
    has a degenerate side (``base.healthy``: write amplification, writes held, erases past endurance;
    an unsettled window is already its own reason) is infeasible: a collapsed array is never the best.
    ``serial_host``: the same under the serial host (queue depth 1, against the serial all-MLC array)."""
    base_row = _serial_rows(table, plan.workload.name, MAIN_FILL)[0] if serial_host else _pick(table, plan.workload.name, "mlc_only")
    baseline = dataclasses.replace(health_of(base_row, "all-MLC"), settled=None)
    studies = ("serial_host",) if serial_host else ("main", "tlc_share")
    where = dict(workload=plan.workload.name, array="rr_fdca", max_screening_rounds=1, fill=MAIN_FILL, cold_access=None, status="ok")
    rows = [dict(r) for r in select(table, study=studies, **where)]

    def sides(row: Mapping[str, Any]) -> tuple[Health, Health]:
        return baseline, dataclasses.replace(health_of(row, "RR-FDCA"), settled=None)

    fine = {id(row) for row in healthy(rows, sides)}
    for row in rows:
        row["degenerate_because"] = None if id(row) in fine else degenerate_text(sides(row))
    return assess(sorted(rows, key=lambda r: r["tlc_chips"]), **constraints_of(plan, table, base_row or {}))


def _mbps(row: Mapping[str, Any] | None) -> str:
    return fmt((row or {}).get("write_mbps"), "sig")


@functools.cache
def _context() -> dict[str, Any]:
    """What every template of the recipe may name besides its own values: the recipe's constants,
    ``f`` (Python's ``format``: ``f(x, ',.0f')``) and ``mbps`` (a row's write MB/s as the tables print it)."""
    return dict(
        f=format,
        mbps=_mbps,
        chips=CHIPS,
        main_tlc_chips=MAIN_TLC_CHIPS,
        main_fill=MAIN_FILL,
        seed=SEED,
        seed_chips=round(SEED["tlc_share_prxy_1"] * CHIPS),
        tlc_over_mlc=TLC_PAGES_PER_BLOCK / MLC_PAGES_PER_BLOCK,
        host_quotes=HOST_READING_QUOTES,
        queue_depth=_preset()["host"]["queue_depth"],
        valid_bytes=EXCHANGE_VALID_BYTES,
        seed_suspend_s=SEED_SUSPEND_S,
        seed_dead_time_s=SEED_DEAD_TIME_S,
        seed_fill=SEED_FILL,
        full_fill=FULL_FILL,
    )


def _note(name: str, **values: Any) -> str:
    """The text ``name`` of ``tlc_mlc_notes.md.j2`` filled with ``values``."""
    return render("tlc_mlc_notes.md.j2", part=name, **{**_context(), **values}).rstrip("\n")


def _reading(claim: str, text: str, value: float | None, *, value_text: str, matched: bool = False, **values: Any) -> Reading:
    """A reading (never counted, not what the seed's text supports) whose name, assumption and why are
    the three lines of ``text`` in ``tlc_mlc_notes.md.j2``."""
    name, assumes, why = _note(text, **values).split("\n")
    return Reading(claim, name, value, assumes, False, why, value_text=value_text, matched=matched)


def _value_text(value: float | None, kind: str, sides: Sequence[Health]) -> str:
    """A reading's value with its comparison's degenerate sides named (a collapsed side is flagged
    in the readings table as in the headlines)."""
    problems = degenerate_text(sides)
    return f"{fmt(value, kind)} (DEGENERATE: {problems})" if problems else fmt(value, kind)


def headlines(plans: Sequence[Plan], table: Sequence[Mapping[str, Any]], exchange: Sequence[Mapping[str, Any]]) -> list[Headline]:
    """The seed's figures beside ours, one reading each (``CLAIMS``): the main point (N_RDSMAX 1, 4 TLC
    of 8 chips, data 60 % of the all-MLC array, the preset's host) per workload, both sides' health on
    every comparison; the chip exchange once. Other readings are ``readings``."""
    claim = {c.key: c for c in CLAIMS}
    found: list[Headline] = []
    for plan in plans:
        name = plan.workload.name
        base, rr, conventional = (_pick(table, name, kind) for kind in ("mlc_only", "rr_fdca", "conventional"))
        base_health, rr_health, conventional_health = (
            health_of(row, side) for row, side in ((base, "all-MLC"), (rr, "RR-FDCA"), (conventional, "conventional"))
        )
        rr_versus = dict(row=rr, row_name="RR-FDCA N_RDSMAX 1", side="RR-FDCA")
        versus_base = dict(rr_versus, base=base, base_name="all-MLC", base_side="all-MLC")
        # The seed gives its throughput, energy and W/E figures for tpcc-mysql only ("In tccc-mysql
        # trace case, RR-FDCA realizes 56% ..."): prxy_1 is measured (the tables) but not held to them.
        if name in TPCC_WORKLOADS:
            for key, column in (
                ("write_throughput", "write_mbps_vs_mlc_only"),
                ("write_energy", "energy_j_per_gb_vs_mlc_only"),
                ("mlc_erases", "mlc_erases_per_block_vs_mlc_only"),
            ):
                note = _note("versus", seed_range=key == "mlc_erases", **versus_base)
                found.append(claim[key].measure((rr or {}).get(column), where=name, note=note, health=(base_health, rr_health)))
        no_tlc_erase = rr is not None and rr.get("settled") and not (rr.get("tlc_erases_per_block") or 0.0)
        we_note = _note("we_ratio", rr=rr, no_tlc_erase=no_tlc_erase)
        found.append(claim["tlc_mlc_we_ratio"].measure((rr or {}).get("tlc_mlc_we_ratio"), where=name, note=we_note, health=(rr_health,)))
        found += _share_headlines(claim, table, plan, base, base_health)
        versus_conventional = dict(row=conventional, row_name="conventional", side="conventional", base=base, base_name="all-MLC")
        note = _note("versus", seed_range=False, base_side="all-MLC", **versus_conventional)
        value = (conventional or {}).get("write_mbps_vs_mlc_only")
        found.append(claim["conventional_worse"].measure(value, where=name, note=note, health=(base_health, conventional_health)))
        note = _note(
            "versus", seed_range=False, base=conventional, base_name="the conventional array's", base_side="conventional", **rr_versus
        )
        for key, column in (("rr_vs_conventional", "write_mbps"), ("rr_vs_conventional_energy", "energy_j_per_gb")):
            value = _change(rr, conventional, column)
            found.append(claim[key].measure(value, where=name, note=note, health=(conventional_health, rr_health)))
    return found + exchange_headlines(claim, exchange)


def _share_headlines(
    claim: Mapping[str, Claim], table: Sequence[Mapping[str, Any]], plan: Plan, base: Mapping[str, Any] | None, base_health: Health
) -> list[Headline]:
    """Fig. 12's best share (a best case: over healthy, settled shares only, ``share_study``) and, for
    prxy_1, Table II's bit cost at it; both sides' health is the pick's and the all-MLC array's."""
    name = plan.workload.name
    shares = share_study(table, plan)
    best = next(iter(optima(shares)), None)  # the shares differ in bit cost: at most one optimum
    share = tlc_capacity_share(best["tlc_chips"]) if best else None
    sides = (base_health, health_of(best, "RR-FDCA at the best share")) if best else (base_health,)
    note = _note("best_share", base=base, best=best, share=share, shares=shares)
    found = [claim["tlc_share_prxy_1" if name == "prxy_1" else "tlc_share_tpcc"].measure(share, where=name, note=note, health=sides)]
    if name == "prxy_1":
        cost = bit_cost_vs_mlc_only(best["tlc_chips"], 1.0) if best else None
        note = _note("cost", cheapest=bit_cost_vs_mlc_only(CHIPS, 1.0))
        found.append(claim["cost_prxy_1"].measure(cost, where=name, note=note, health=sides))
    return found


def readings(plans: Sequence[Plan], table: Sequence[Mapping[str, Any]], exchange: Sequence[Mapping[str, Any]]) -> list[Reading]:
    """The other readings of the seed's claims, each with its value, what it assumes and whether the
    seed's text supports it (report.md's "Readings (shown, never counted)"): every MLC erase per GB
    written; the serial host at each fill; the two TLC-overwrite readings the preset does not use;
    the fastest share and the TLC/MLC capacity ratio for Fig. 12; the TLC price solved from the -71 %;
    the chip exchange with one destination die or full destinations, the drain's typical step per block
    moved and the drain with a mover of its own."""
    found: list[Reading] = []
    for plan in plans:
        name = plan.workload.name
        tpcc_like = name in TPCC_WORKLOADS
        base, rr = _pick(table, name, "mlc_only"), _pick(table, name, "rr_fdca")
        base_health = health_of(base, "all-MLC")
        if tpcc_like:
            value = (rr or {}).get("mlc_erases_per_gb_vs_mlc_only")
            text = _value_text(value, "pct", (base_health, health_of(rr, "RR-FDCA")))
            per_block = (rr or {}).get("mlc_erases_per_block_vs_mlc_only")
            found.append(_reading("mlc_erases", "erases_per_gb", value, value_text=text, matched=True, workload=name, per_block=per_block))
            for fill in SERIAL_HOST_FILLS:
                serial_base, serial_rr = _serial_rows(table, name, fill)
                value = (serial_rr or {}).get("write_mbps_vs_mlc_only")
                text = _value_text(value, "pct", (health_of(serial_base, "all-MLC"), health_of(serial_rr, "RR-FDCA")))
                values = dict(workload=name, fill=fill, rr=serial_rr, base=serial_base)
                found.append(_reading("write_throughput", "serial_host", value, value_text=text, matched=True, **values))
            found += _mechanism_readings(table, name, base_health)
        for label, reading in TLC_OVERWRITE_READINGS.items():
            if label == preset_tlc_overwrite_reading():
                continue
            other_rr, other_conventional = (_reading_row(table, name, "tlc_overwrite", label, kind) for kind in ("rr_fdca", "conventional"))
            rr_side, conventional_side = health_of(other_rr, "RR-FDCA"), health_of(other_conventional, "conventional")
            values = [
                ("write_throughput", (other_rr or {}).get("write_mbps_vs_mlc_only"), (base_health, rr_side)),
                ("conventional_worse", (other_conventional or {}).get("write_mbps_vs_mlc_only"), (base_health, conventional_side)),
                ("rr_vs_conventional", _change(other_rr, other_conventional, "write_mbps"), (conventional_side, rr_side)),
            ]
            for key, value, sides in values[0 if tpcc_like else 1 :]:
                found.append(
                    _reading(key, "tlc_overwrite", value, value_text=_value_text(value, "pct", sides), workload=name, reading=reading)
                )
        found += _share_readings(table, plan)
    return found + exchange_readings(exchange)


def _mechanism_readings(table: Sequence[Mapping[str, Any]], name: str, base_health: Health) -> list[Reading]:
    """The graded figures under the mechanism readings the preset does not use (issue 46 item 7,
    ``MECHANISM_READINGS``), each at the main point: RR-FDCA's against all-MLC when RR-FDCA ran under
    it, RR-FDCA against the conventional array when the conventional array did (against the main
    RR-FDCA row when only the conventional array ran under it)."""
    found = []
    for study, mechanism in MECHANISM_READINGS.items():
        rows = {kind: find(table, study=study, workload=name, array=kind) for kind in mechanism.arrays}
        values = dict(study=study, mechanism=mechanism, workload=name)
        if "rr_fdca" in rows:
            rr = rows["rr_fdca"]
            sides = (base_health, health_of(rr, "RR-FDCA"))
            for key, column in (
                ("write_throughput", "write_mbps_vs_mlc_only"),
                ("write_energy", "energy_j_per_gb_vs_mlc_only"),
                ("mlc_erases", "mlc_erases_per_block_vs_mlc_only"),
            ):
                value = (rr or {}).get(column)
                found.append(
                    _reading(
                        key, "mechanism", value, value_text=_value_text(value, "pct", sides), rr=rr, versus_conventional=False, **values
                    )
                )
        if "conventional" in rows:
            rr, conventional = rows.get("rr_fdca", _pick(table, name, "rr_fdca")), rows["conventional"]
            value, sides = _change(rr, conventional, "write_mbps"), (health_of(conventional, "conventional"), health_of(rr, "RR-FDCA"))
            text = _value_text(value, "pct", sides)
            found.append(
                _reading(
                    "rr_vs_conventional",
                    "mechanism",
                    value,
                    value_text=text,
                    rr=rr,
                    conventional=conventional,
                    versus_conventional=True,
                    **values,
                )
            )
    return found


def _share_readings(table: Sequence[Mapping[str, Any]], plan: Plan) -> list[Reading]:
    """Fig. 12's other readings: the fastest share (a throughput objective), the best share under the
    serial host, "TLC/MLC capacity ratio" read as TLC capacity over MLC capacity, the share of the chips
    and (prxy_1) the bit cost at the TLC price solved from the seed's -71 %."""
    name = plan.workload.name
    claim = f"tlc_share_{'prxy_1' if name == 'prxy_1' else 'tpcc'}"
    shares = share_study(table, plan)
    found = []
    compared = [r for r in shares if r.get("settled") and not r.get("degenerate_because") and r.get("write_mbps") is not None]
    if compared:
        fastest = max(compared, key=lambda r: r["write_mbps"])
        share = tlc_capacity_share(fastest["tlc_chips"])
        found.append(_reading(claim, "fastest_share", share, value_text=fmt(share, "share"), workload=name, fastest=fastest))
    serial = share_study(table, plan, serial_host=True)
    if serial:
        pick = next(iter(optima(serial)), None)
        share = tlc_capacity_share(pick["tlc_chips"]) if pick else None
        text = fmt(share, "share") if pick else "none feasible"
        found.append(_reading(claim, "serial_share", share, value_text=text, workload=name, pick=pick))
    best = optima(shares)
    tlc = int(best[0]["tlc_chips"]) if best else None
    if tlc is None:
        return found
    if name != "prxy_1":
        # Only tpcc-mysql's optimum is worded "TLC/MLC capacity ratio"; prxy_1's is a "TLC capacity percentage".
        seed_share = SEED["tlc_share_tpcc"]
        ratio = tlc * TLC_PAGES_PER_BLOCK / ((CHIPS - tlc) * MLC_PAGES_PER_BLOCK)
        solved = next(
            (k for k in range(1, CHIPS) if math.isclose(k * TLC_PAGES_PER_BLOCK, seed_share * (CHIPS - k) * MLC_PAGES_PER_BLOCK)), None
        )
        values = dict(workload=name, tlc=tlc, ratio=ratio, seed_share=seed_share, solved=solved)
        found.append(_reading("tlc_share_tpcc", "capacity_ratio", ratio, value_text=f"{ratio:.2f}", **values))
    found.append(_reading(claim, "chip_share", tlc / CHIPS, value_text=fmt(tlc / CHIPS, "share"), workload=name, tlc=tlc))
    if name == "prxy_1":
        implied = implied_tlc_chip_price(_context()["seed_chips"], SEED["cost_prxy_1"])
        value = bit_cost_vs_mlc_only(tlc, implied)
        found.append(
            _reading("cost_prxy_1", "tlc_price", value, value_text=fmt(value, "pct"), matched=True, workload=name, implied=implied, tlc=tlc)
        )
    return found


def page_copy_seconds() -> float:
    """One MLC page moved by a collection in the preset: read, out over one channel and in over
    another, programmed (seed 004's Table I is missing; SPEC §7's media)."""
    mlc = _preset_tiers()["mlc"]
    nand, channel = mlc["nand"], mlc["channel"]
    transfer_ns = mlc["page_size_bytes"] / (channel["transfer_rate_mts"] * channel["bus_width_bits"] / 8) * 1e3
    read_ns = sum(nand["read_latency_ns"]) / len(nand["read_latency_ns"])
    program_ns = sum(nand["program_latency_ns"]) / len(nand["program_latency_ns"])
    return (read_ns + 2 * transfer_ns + program_ns) / 1e9


def exchange_brackets(destination_dies: int) -> dict[str, tuple[float, float]]:
    """What the seed's two exchange figures come to by arithmetic on the preset's media (issue 46 item
    8): the 8 GB copy and one full MLC block's collection, each between ``destination_dies`` dies
    programming in parallel and one."""
    page = page_copy_seconds()
    mlc = _preset_tiers()["mlc"]
    pages = EXCHANGE_VALID_BYTES / mlc["page_size_bytes"]
    block = mlc["pages_per_block"]
    return {
        "suspended_s": (pages * page / destination_dies, pages * page),
        "block_gc_s": (block * page / destination_dies, block * page),
    }


def exchange_headlines(claim: Mapping[str, Claim], exchange: Sequence[Mapping[str, Any]]) -> list[Headline]:
    """The chip exchange's headlines, at the seed's scenario (8 GB on the worn chip, destinations with
    room: ``tlc_mlc_exchange``), dead time by the one definition the result and Fig. 14 use. Absolute
    quantities (seconds): within 30 % of the seed's or not."""
    found = []
    copy = seed_case(exchange, "suspend_and_copy", "pipelined")
    if copy is not None:
        low, high = exchange_brackets(copy["destination_dies"])["suspended_s"]
        chained = seed_case(exchange, "suspend_and_copy", "chained")
        note = _note("exchange_suspended", copy=copy, chained=chained, low=low, high=high, page_seconds=page_copy_seconds())
        found.append(claim["exchange_suspended"].measure(copy["suspended_s"], note=note))
    drain, roomy = drain_case(exchange), drain_case(exchange, SEED_FILL)
    if drain is not None:
        low, high = (1e3 * x for x in exchange_brackets(drain["destination_dies"])["block_gc_s"])
        note = _note("exchange_dead_time", drain=drain, roomy=roomy, low=low, high=high)
        found.append(claim["exchange_dead_time"].measure(drain["dead_time_s"], ours_text=f"{drain['dead_time_s']:.4f}", note=note))
    return found


def exchange_readings(exchange: Sequence[Mapping[str, Any]]) -> list[Reading]:
    """The chip exchange's other readings: one destination die (one program stream, the pace the
    seed's 960 s implies), destinations that overflow, and the drain's longest GC step read as the
    seed's ~200 ms."""
    found = []
    one = one_stream_case(exchange)
    if one is not None:
        found.append(_reading("exchange_suspended", "one_die", one["suspended_s"], value_text=fmt(one["suspended_s"], "num"), one=one))
    where = dict(status="ok", method="suspend_and_copy", fill=FULL_FILL, copy_path="pipelined")
    full = find(exchange, **where)
    if full is not None:
        found.append(_reading("exchange_suspended", "full_destinations", full["suspended_s"], value_text=fmt(full["suspended_s"], "num")))
    drain = drain_case(exchange)
    if drain is not None and drain.get("median_gc_step_s"):
        step = drain["median_gc_step_s"]
        found.append(_reading("exchange_dead_time", "typical_step", step, value_text=fmt(step, "ratio"), drain=drain))
    mover = seed_case(exchange, "retire_chip", "background")
    if mover is not None:
        found.append(_reading("exchange_dead_time", "mover", mover["dead_time_s"], value_text=f"{mover['dead_time_s']:.4f}", mover=mover))
    return found


def _name(row: Mapping[str, Any]) -> str:
    if row["array"] == "rr_fdca":
        return f"RR-FDCA N_RDSMAX={row['max_screening_rounds']}"
    return ARRAY_NAMES[row["array"]]


def _wear_text(row: Mapping[str, Any]) -> str:
    if row.get("erase_max") is None or not row.get("endurance"):
        return "n/a"
    return f"{row['erase_max']:,.0f} / {row['endurance']:,.0f}"


def _settled_value(row: Mapping[str, Any] | None, column: str, kind: str) -> str:
    if row is None:
        return "n/a"
    return fmt(row.get(column), kind) if row.get("settled") else "not settled"


# The report's tables: (header, key or function of the row, report.fmt kind).
MAIN_COLUMNS = (
    ("workload", "workload", "text"),
    ("array", _name, "text"),
    ("write MB/s", "write_mbps", "num"),
    ("vs all-MLC", "write_mbps_vs_mlc_only", "pct"),
    ("energy J/GB", "energy_j_per_gb", "num"),
    ("vs all-MLC", "energy_j_per_gb_vs_mlc_only", "pct"),
    ("MLC erases/block", "mlc_erases_per_block", "ratio"),
    ("vs all-MLC", "mlc_erases_per_block_vs_mlc_only", "pct"),
    ("MLC erases/GB", "mlc_erases_per_gb", "num"),
    ("vs all-MLC", "mlc_erases_per_gb_vs_mlc_only", "pct"),
    ("TLC/MLC W/E", "tlc_mlc_we_ratio", "ratio"),
    ("WA", "write_amplification", "ratio"),
    ("writes held", "held_fraction", "share"),
    ("most-worn block / endurance", _wear_text, "text"),
    ("block-modify-writes", "block_modify_writes", "int"),
    ("settled", "settled", "text"),
    ("warm-up x", "warmup_factor", "int"),
    ("status", "status", "text"),
)
REGIME_STUDIES = ("fill", "cold", "written", "serial_host")
REGIME_COLUMNS = (
    ("study", "study", "text"),
    ("workload", "workload", "text"),
    ("array", _name, "text"),
    ("fill", "fill", "ratio"),
    ("cold access", "cold_access", "ratio"),
    ("written share", "written_share", "ratio"),
    ("write MB/s", "write_mbps", "num"),
    ("vs all-MLC", "write_mbps_vs_mlc_only", "pct"),
    ("WA", "write_amplification", "ratio"),
    ("writes held", "held_fraction", "share"),
    ("most-worn block / endurance", _wear_text, "text"),
    ("settled", "settled", "text"),
    ("degenerate", lambda r: "; ".join(health_of(r, "").problems()) or "-", "text"),
    ("warm-up x", "warmup_factor", "int"),
    ("status", "status", "text"),
)
SEARCH_COLUMNS = (
    ("workload", "workload", "text"),
    ("TLC chips", "tlc_chips", "int"),
    ("N_RDSMAX", "max_screening_rounds", "int"),
    ("write MB/s", "write_mbps", "num"),
    ("bit cost vs all-MLC", "bit_cost_vs_mlc_only", "pct"),
    ("feasible", "feasible", "text"),
    ("why not", lambda r: r.get("infeasible_because") or "-", "text"),
    ("optimum", "best", "text"),
)
SEARCH_SUMMARY_HEADERS = (
    "workload",
    "floor MB/s (all-MLC)",
    "optimum (every tied point)",
    "TLC share",
    "write MB/s of each",
    "bit cost vs all-MLC (equal chip prices)",
    "points evaluated",
)
OVERWRITE_HEADERS = (
    "workload",
    "TLC overwrite",
    "RR-FDCA MB/s",
    "vs all-MLC",
    "conventional MB/s",
    "vs all-MLC",
    "RR-FDCA vs conventional",
    "WA (RR-FDCA / conventional)",
    "block-modify-writes in the window (RR-FDCA / conventional)",
    "degenerate sides",
)


def main_table(table: Sequence[Mapping[str, Any]]) -> str:
    return report.markdown_table(select(table, study="main"), MAIN_COLUMNS)


def _overwrite_grid(table: Sequence[Mapping[str, Any]]) -> str:
    """The readings of a host overwrite of TLC data side by side, per workload: RR-FDCA and the
    conventional array at the main point under each, and which of the seed's claims hold."""
    preset = preset_tlc_overwrite_reading()
    cells = []
    for workload in sorted({r["workload"] for r in table}):
        for label, reading in TLC_OVERWRITE_READINGS.items():
            study = "main" if label == preset else "tlc_overwrite"
            pair = rr, conventional = tuple(_reading_row(table, workload, study, label, kind) for kind in ("rr_fdca", "conventional"))
            if rr is None and conventional is None:
                continue
            base = _pick(table, workload, "mlc_only")
            sides = (health_of(base, "all-MLC"), health_of(rr, "RR-FDCA"), health_of(conventional, "conventional"))
            modify_writes = [
                f"{int(r['block_modify_writes']):,}" if r and r.get("block_modify_writes") is not None else "n/a" for r in pair
            ]
            cells.append(
                [
                    workload,
                    reading.text + (" (preset: graded)" if label == preset else " (a reading)"),
                    _settled_value(rr, "write_mbps", "sig"),
                    _settled_value(rr, "write_mbps_vs_mlc_only", "pct"),
                    _settled_value(conventional, "write_mbps", "sig"),
                    _settled_value(conventional, "write_mbps_vs_mlc_only", "pct"),
                    fmt(_change(rr, conventional, "write_mbps"), "pct"),
                    " / ".join(fmt(r.get("write_amplification"), "sig") if r else "n/a" for r in pair),
                    " / ".join(modify_writes),
                    degenerate_text(sides) or "none",
                ]
            )
    return report.markdown_grid(OVERWRITE_HEADERS, cells)


def _point_text(row: Mapping[str, Any]) -> str:
    """A table row's point in words (workload, fill, chips, N_RDSMAX and what else sets it apart)."""
    study = row["study"]
    return (
        f"{row['workload']} at fill {row['fill']:.2f}, {row['tlc_chips']} TLC chips, N_RDSMAX {row['max_screening_rounds']}"
        + (", serial host (queue depth 1)" if row.get("serial_host") else "")
        + (f", cold access {row['cold_access']}" if row["cold_access"] is not None else "")
        + (f", written share {row['written_share']}" if row["written_share"] is not None else "")
        + (f", TLC overwrite {TLC_OVERWRITE_READINGS[row['tlc_overwrite_reading']].text}" if study == "tlc_overwrite" else "")
        + (f", {MECHANISM_READINGS[study].assumes} ({MECHANISM_READINGS[study].origin})" if study in MECHANISM_READINGS else "")
    )


def _comparisons(table: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every settled comparison of RR-FDCA with the all-MLC array but the graded points, each with its
    point in words, its change and its degenerate sides."""
    return [
        dict(
            text=_point_text(r),
            change=r["write_mbps_vs_mlc_only"],
            problems=degenerate_text((health_of(_base_of(table, r), "all-MLC"), health_of(r, "RR-FDCA"))),
        )
        for r in table
        if r["array"] == "rr_fdca"
        and r.get("settled")
        and r.get("write_mbps_vs_mlc_only") is not None
        and not (r["workload"] in TPCC_WORKLOADS and r is _pick(table, r["workload"], "rr_fdca"))
    ]


def _search_summary(plans: Sequence[Plan], searched: Sequence[Mapping[str, Any]]) -> str:
    """One row per workload: the floor, every tied optimum, its TLC share, speeds and bit cost."""
    cells = []
    for plan in plans:
        rows = select(searched, workload=plan.workload.name)
        best = optima(rows)
        floor = next((r.get("floor_mbps") for r in rows), None)
        if not best:
            cells.append([plan.workload.name, fmt(floor, "num"), "none feasible", "n/a", "n/a", "n/a", len(rows)])
            continue
        first = best[0]
        share = f"{int(first['tlc_chips'])}/{CHIPS} = {100 * first['tlc_chips'] / CHIPS:.1f} %"
        speeds = ", ".join(fmt(r["write_mbps"], "num") for r in best)
        cells.append(
            [plan.workload.name, fmt(floor, "num"), ties_text(best), share, speeds, fmt(first["bit_cost_vs_mlc_only"], "pct"), len(rows)]
        )
    return report.markdown_grid(SEARCH_SUMMARY_HEADERS, cells)


def report_text(
    plans: Sequence[Plan],
    table: Sequence[Mapping[str, Any]],
    figures: Mapping[str, Path],
    outcome: Any,
    scheduler: str | None,
    exchange: Sequence[Mapping[str, Any]] = (),
    searched: Sequence[Mapping[str, Any]] = (),
    factors: Sequence[int] = WARMUP_FACTORS,
) -> str:
    """report.md (``tlc_mlc.md.j2``) from the tables: every number in its prose is one of theirs."""
    compared = _comparisons(table)
    names = [plan.workload.name for plan in plans if plan.workload.name in TPCC_WORKLOADS]
    graded = [(name, _pick(table, name, "rr_fdca"), _pick(table, name, "mlc_only")) for name in names]
    ordered_search = sorted(searched, key=lambda r: (r["workload"], r["tlc_chips"], r["max_screening_rounds"]))
    tiers = _preset_tiers()
    values = dict(
        provenance=provenance("ssdlab reproduce tlc-mlc", outcome, scheduler),
        mlc=tiers["mlc"],
        tlc=tiers["tlc"],
        # The seed's Table I (chip prices with the media) is missing: the price of a TLC chip that makes
        # its 87.5 % TLC array 71 % cheaper per bit, beside equal chip prices.
        implied_price=implied_tlc_chip_price(_context()["seed_chips"], SEED["cost_prxy_1"]),
        us=lambda latencies: "/".join(f"{ns / 1000:g}" for ns in (latencies if isinstance(latencies, list) else [latencies])),
        limits=dict(backlog=BACKLOG_LIMIT, halves=HALVES_TOLERANCE, migration=MIGRATION_TOLERANCE, agreement=AGREEMENT_TOLERANCE),
        factors=factors,
        plans=plans,
        graded=[(name, rr, base) for name, rr, base in graded if rr is not None or base is not None],
        quote_main=quote("main"),
        faster=[c for c in compared if c["change"] > 0.0],
        slower=[c for c in compared if c["change"] <= 0.0],
        compared=len(compared),
        longer=sum(1 for r in table if r.get("settled") and r.get("warmup_factor", 1) > 1),
        unsettled=sum(1 for r in table if r["status"] == "ok" and not r.get("settled")),
        points=len(table),
        degenerate=dict(wa=DEGENERATE_WRITE_AMPLIFICATION, held=DEGENERATE_HELD_FRACTION),
        overwrite_grid=_overwrite_grid(table),
        searched=bool(searched),
        search=dict(floor=THROUGHPUT_FLOOR, axes=SEARCH_AXES, rounds=SEARCH_ROUNDS, quote=quote("cost")),
        search_summary=_search_summary(plans, searched),
        search_table=report.markdown_table(ordered_search, SEARCH_COLUMNS),
        exchange_section=render("tlc_mlc_exchange.md.j2", **{**_context(), **report_values(exchange)}),
        main_table=main_table(table),
        figures=figures,
        regime_table=report.markdown_table(select(table, study=REGIME_STUDIES), REGIME_COLUMNS),
    )
    return render("tlc_mlc.md.j2", **{**_context(), **values})


class LineFigure(NamedTuple):
    """A line chart of settled rows (``plotting.line_chart``): one series per workload (``label``
    names ``workload``) and array of ``arrays`` (``array``: its name in ARRAY_NAMES), each of the rows
    of ``studies`` whose columns match ``where`` (``select``'s rule: a tuple is any of its values), sorted
    by ``x`` of the row; ``y`` a column."""

    name: str
    stem: str
    studies: tuple[str, ...]
    arrays: tuple[str, ...]
    label: str
    x: Callable[[Mapping[str, Any]], float]
    y: str
    xlabel: str
    ylabel: str
    title: str
    where: Mapping[str, Any] = {}
    logx: bool = False
    logy: bool = False


# Fig. 10 (where data of each heat lives, one figure per workload) comes between Fig. 12 and the
# regimes; the written-share and cold-data regimes run on the tpcc stand-in only: none without it.
HEAT_FIGURES = "fig10"
_SHARE_MAIN = dict(max_screening_rounds=(0, 1), fill=MAIN_FILL, cold_access=None)
_STANDIN = dict(workload="tpcc-standin", fill=MAIN_FILL, tlc_chips=(0, MAIN_TLC_CHIPS), max_screening_rounds=(0, 1))
VS_MLC_AXIS, MBPS_AXIS = "write throughput vs all-MLC", "write MB/s (steady state)"
# fmt: off
FIGURES = (
    LineFigure("fig11", "fig11-screening-rounds", ("main",), ("rr_fdca",), "{workload}", lambda r: r["max_screening_rounds"],
               "write_mbps_vs_mlc_only", "N_RDSMAX", VS_MLC_AXIS, "Seed 004 Fig. 11: RR-FDCA, threshold of N_RDS"),
    LineFigure("fig12", "fig12-tlc-share", ("main", "tlc_share"), ("rr_fdca", "conventional"), "{workload} {array}",
               lambda r: tlc_capacity_share(r["tlc_chips"]), "write_mbps_vs_mlc_only", "TLC share of the raw capacity", VS_MLC_AXIS,
               "Seed 004 Fig. 12: TLC/MLC capacity ratio", _SHARE_MAIN),
    HEAT_FIGURES,
    LineFigure("fill", "regime-fill", ("main", "fill"), ("mlc_only", "rr_fdca"), "{workload} {array}", lambda r: r["fill"], "write_mbps",
               "data / all-MLC raw capacity", MBPS_AXIS, "Where RR-FDCA wins: array fill",
               dict(max_screening_rounds=(0, 1), tlc_chips=(0, MAIN_TLC_CHIPS), cold_access=None)),
    LineFigure("written", "regime-written-share", ("written", "main"), ALL_ARRAYS, "{array}",
               lambda r: r["written_share"] or WORKLOADS[1].hot_space_fraction, "write_mbps",
               "share of the span the workload writes (the rest static)", MBPS_AXIS,
               "Where RR-FDCA wins: how much of the data is rewritten", dict(_STANDIN, cold_access=None), logy=True),
    LineFigure("cold", "regime-cold-data", ("cold", "written"), ALL_ARRAYS, "{array}", lambda r: max(r["cold_access"] or 0.0, 1e-4),
               "write_mbps", "share of accesses to the static region (0 drawn at 1e-4)", MBPS_AXIS,
               "Where RR-FDCA wins: how static the cold data is", dict(_STANDIN, written_share=COLD_STUDY_WRITTEN_SHARE),
               logx=True, logy=True),
)
# fmt: on


def write_figures(table: Sequence[Mapping[str, Any]], out: Path) -> dict[str, Path]:
    """Fig. 10-12 and the regimes (``FIGURES``), steady states only: a point that did not settle
    (settled_check) is in the table, not in a figure."""
    from ssdlab import plotting

    figures: dict[str, Path] = {}
    workloads = sorted({r["workload"] for r in table})
    ok = select(table, status="ok", settled=True)
    for spec in FIGURES:
        if spec == HEAT_FIGURES:
            # Fig. 10: mapped pages by write-count class and tier at the end of the run.
            for workload in workloads:
                rows = [r for r in select(ok, study="main", workload=workload, max_screening_rounds=(0, 1)) if r.get("write_heat")]
                if rows:
                    figures[f"fig10-{workload}"] = _heat_figure(rows, out / f"fig10-write-heat-{workload}", workload)
            continue
        series = {}
        for workload in workloads if "{workload}" in spec.label else [None]:
            for kind in spec.arrays:
                where = dict(spec.where, **({} if workload is None else {"workload": workload}))
                rows = sorted(select(ok, study=spec.studies, array=kind, **where), key=spec.x)
                label = spec.label.format(workload=workload, array=ARRAY_NAMES[kind])
                series[label] = ([spec.x(r) for r in rows], [r[spec.y] for r in rows])
        if spec.name == "written" and not any(xs for xs, _ in series.values()):
            break
        figures[spec.name] = plotting.line_chart(
            series, out / spec.stem, xlabel=spec.xlabel, ylabel=spec.ylabel, title=spec.title, logx=spec.logx, logy=spec.logy
        )[0]
    return figures


class TlcMlc(Recipe):
    name = "tlc-mlc"
    seed = "004"
    title = "TLC/MLC mix-and-match with RR-FDCA"
    help = (
        "Seed 004: all-MLC vs conventional TLC/MLC vs RR-FDCA (N_RDSMAX 1-4) on 8 chips, TLC share 1/8-7/8 (Fig. 11, 12, Table II) and the "
        "regimes (array fill, static cold data) that decide the seed's headline; steady state from warm-up/window run pairs."
    )
    claims = CLAIMS
    # Its figures are writes through the MLC and TLC arrays: a trace with no write has nothing to
    # measure (it failed after the grid, dividing by zero).
    trace_needs_writes = True
    scale_help = "Scale the warm-up and measured windows (1: 5+5 loops of traces; stand-ins write twice the largest array's raw capacity per window, warm-up 3 windows)."
    options = (
        Option(
            "search_best",
            ("--search/--no-search",),
            bool,
            True,
            "Also search TLC share x N_RDSMAX for the cheapest RR-FDCA array per bit that writes at least as fast as all-MLC "
            "and holds the static data in TLC (coarse grid, then refinement).",
        ),
        Option(
            "max_warmup",
            ("--max-warmup",),
            int,
            WARMUP_FACTORS[-1],
            f"The longest warm-up, as a multiple of the plan's, a point that does not settle is run with "
            f"({', '.join(str(f) for f in WARMUP_FACTORS)}); points still unsettled are left out as always. Lower is faster.",
        ),
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
        search_best: bool = True,
        max_warmup: int = WARMUP_FACTORS[-1],
    ) -> report.Reproduction:
        """Runs the grid (resuming a previous run in ``out``), writes the table, figures and report."""
        if not 0.0 < scale <= 10.0:
            raise SweepError(f"--scale {scale}: must be in (0, 10]")
        if max_warmup not in WARMUP_FACTORS:
            raise SweepError(f"--max-warmup {max_warmup}: must be one of {', '.join(str(f) for f in WARMUP_FACTORS)}")
        factors = tuple(f for f in WARMUP_FACTORS if f <= max_warmup)
        plans = plan_workloads(traces, scale, workloads)
        table, outcomes = run_until_settled(plans, out, scale, factors=factors, scheduler=scheduler, workers=workers, progress=progress)
        outcome = report.combined(outcomes)
        exchange = exchange_rows(outcomes[0].rows)
        figures = write_figures(table, out)
        if any(row["status"] == "ok" for row in exchange):
            figures["fig14"] = dead_time_figure(exchange, out / "fig14-dead-time")
        searched: list[dict[str, Any]] = []
        if search_best:
            for plan in plans:
                _, rows = search_best_array(
                    plan, out, constraints_of(plan, table), scheduler=scheduler, workers=workers, progress=progress, factors=factors
                )
                searched += rows
                figures[f"search-{plan.workload.name}"] = _search_figure(rows, out / f"search-{plan.workload.name}", plan.workload.name)
        text = report_text(plans, table, figures, outcome, scheduler, exchange, searched, factors)
        return report.finish(
            out,
            tables={"": table, "exchange": exchange, "search": searched},
            main="",
            report_text=text,
            summary=main_table(table),
            figures=figures,
            outcomes=outcomes,
            headlines=headlines(plans, table, exchange),
            readings=readings(plans, table, exchange),
            recipe=self.name,
            seed=self.seed,
        )


RECIPE = TlcMlc()
reproduce = RECIPE.reproduce


def _search_figure(rows: Sequence[Mapping[str, Any]], stem: Path, workload: str) -> Path:
    """The objective surface: every evaluated (TLC chips, N_RDSMAX) coloured by its steady-state write
    MB/s, feasible points filled, infeasible ones hollow with the first constraint they fail as a
    letter (u: not settled, c: TLC cannot hold the static data, f: below the throughput floor), every
    tied optimum starred; the floor in the title."""
    import matplotlib

    from ssdlab import plotting

    fig, axis = plotting.figure(6.5, 4.5)
    values = [r["write_mbps"] for r in rows if r.get("write_mbps") is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    norm = matplotlib.colors.Normalize(vmin=low, vmax=high if high > low else low + 1.0)
    cmap = matplotlib.colormaps["viridis"]
    for r in rows:
        x, y = r["tlc_chips"], r["max_screening_rounds"]
        colour = cmap(norm(r["write_mbps"])) if r.get("write_mbps") is not None else "#cccccc"
        if r.get("feasible"):
            axis.scatter([x], [y], color=colour, s=110, edgecolors="black", linewidths=0.5)
        else:
            axis.scatter([x], [y], facecolors="none", edgecolors=colour, s=110, linewidths=2)
            reason = r.get("infeasible_because") or ""
            letter = "u" if "settled" in reason else "c" if "static" in reason else "f" if "floor" in reason else "?"
            axis.annotate(letter, (x, y), textcoords="offset points", xytext=(7, 5), fontsize=8)
        if r.get("write_mbps") is not None:
            axis.annotate(f"{r['write_mbps']:.1f}", (x, y), textcoords="offset points", xytext=(-9, -14), fontsize=7)
    best = [r for r in rows if r.get("best")]
    if best:
        axis.scatter(
            [r["tlc_chips"] for r in best],
            [r["max_screening_rounds"] for r in best],
            marker="*",
            s=380,
            facecolors="none",
            edgecolors="red",
            label=f"optimum ({len(best)} tied)" if len(best) > 1 else "optimum",
        )
        axis.legend(fontsize=8)
    fig.colorbar(matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap), ax=axis, label="steady-state write MB/s")
    floor = next((r.get("floor_mbps") for r in rows), None)
    axis.set_xlim(0.5, CHIPS - 0.5)
    axis.set_ylim(0.4, max((r["max_screening_rounds"] for r in rows), default=8) + 0.6)
    axis.set_xlabel("TLC chips of 8 (bit cost falls to the right)")
    axis.set_ylabel("N_RDSMAX")
    axis.set_title(
        f"RR-FDCA search, {workload}: lowest bit cost with write >= "
        + (f"{floor:.2f} MB/s (all-MLC)" if floor is not None else "all-MLC (not settled: no floor)")
        + "\nhollow: infeasible (u unsettled, c static data does not fit in TLC, f below floor)",
        fontsize=9,
    )
    return plotting.save(fig, stem)[0]


def _heat_figure(rows: Sequence[Mapping[str, Any]], stem: Path, workload: str) -> Path:
    """One panel per array: pages per host write-count class, stacked by tier."""
    from ssdlab import plotting

    fig, axes = plotting.plt.subplots(1, len(rows), figsize=(4.0 * len(rows), 3.8), sharey=True, squeeze=False)
    colours = {"mlc": "#1f77b4", "tlc": "#d62728"}
    for axis, row in zip(axes[0], sorted(rows, key=lambda r: list(ARRAY_NAMES).index(r["array"]))):
        heat = json.loads(row["write_heat"])
        positions = list(range(len(heat["classes"])))
        bottom = [0] * len(positions)
        for tier, pages in heat["pages"].items():
            axis.bar(positions, pages, bottom=bottom, label=tier.upper(), color=colours.get(tier, "#7f7f7f"))
            bottom = [b + p for b, p in zip(bottom, pages)]
        axis.set_xticks(positions, heat["classes"], rotation=45)
        axis.set_title(_name(row))
        axis.set_xlabel("host writes to the page")
        axis.legend()
    axes[0][0].set_ylabel("pages at the end of the run")
    fig.suptitle(f"Seed 004 Fig. 10: where data of each heat lives ({workload})")
    return plotting.save(fig, stem)[0]
