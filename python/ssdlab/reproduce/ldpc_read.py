"""Seed 002 (LDPC in SSDs): read response time of the two-step, look-ahead and progressive reads.

The seed's setup (§5.1, preset ``seed002-ldpc``): 8 channels x 8 chips x 2 dies x 4 planes x 2048 blocks
x 64 pages of 4 KB MLC, 200 MB/s bus, hard read 41/55 us, 14 us per extra sensing level, 8 us decode,
about 80 us to move a full soft read's results (§2.3); hard-decision decoding fails on 28.8 % of reads
at 10,000 P/E after one month at 40 C. Here the decoding-failure probabilities per chip and per number
of extra sensing levels come from the ECC lab at that stress (``read_path.decoding`` in the preset; mean
hard failure 28.5 %).

Its workloads: Finance1, Finance2, Postmark, WebSearch and two synthetic mixes with 66 % and 99 %
reads (``WORKLOADS``): Finance1, WebSearch and Postmark are the real samples in ``../shared/traces``
replayed with their own timing; Finance2 is a stand-in (17.7 % writes as published; sizes, span and rate
are our choice, said in the report); the synthetic mixes are 4 KiB random requests at DiskSim's example
rate, 200 IOPS (not its example generator's sizes: the report names the difference).

Variants: no soft sensing at all (the seed's normalisation reference), the two-step baseline,
look-ahead, progressive, and both; 2-way (the seed's pairs, chips 1-3 and 2-4) and 4-way interleaving
and all three; on 8 channels and on 2 (the seed's Fig. 17). Every variant of a workload uses the same
seed, so each read draws the same decoding outcome in every variant.

The device (issue 45 item 7): DiskSim's ganged SSD model, the seed's (§5.1: "The system works in the
synchronous-share-control ganging mode as presented in [15], and has 8 channels and each channel contains
8 flash chips"; preset ``[device.ganging]``, a gang per channel): a gang serves one request piece at a
time, reads pay each page's array read and transfer in turn, writes are read-modify-writes of the gang
page. The same rate on independent dies and channels (``DIES``, the system graded before) is a reading.
The synthetic mixes run at DiskSim's example generator's rate (200 IOPS); the ordering ladder shows 1,000
to 20,000 IOPS.

Three error models (``ERROR_MODELS``, with ``DIES`` as a fourth entry): one failure rate for every read (the seed's own: §5.2 feeds its
simulator one estimated 28.8 %; here the read-weighted mean of every block's table), drawn once per read
request; every block's own rate (Fig. 9: chips and block classes), drawn per page; and the chips' spread
only (the preset's table), drawn per page. Each claim is graded once, under the reading the seed's text
supports (``GRADED_ERRORS``; the claim book gives the quotes): one rate, 8 channels, interleaving with
its cost side, look-ahead energy as the runs time it. The other error models, interleaving's
reliability side alone, the adjacent 2-way pairing, 2 channels and the other energy accountings are
``readings``: shown, never counted.

The module computes and declares (grid, tables, figures); the claims, the seed's numbers and sentences, the fits and the
readings' fixed texts are the claim book ``claims/ldpc_read.toml``; the report's prose, the headlines' notes and the
readings' texts that carry numbers are the templates ``templates/ldpc_read*.md.j2`` (the short ones in
``ldpc_read_texts.md.j2``).
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from ssdlab import api, plotting
from ssdlab.locations import shared_trace
from ssdlab.reproduce import report
from ssdlab.reproduce.base import (
    BOUND,
    CALIBRATED,
    REPRODUCED,
    Claim,
    Headline,
    Health,
    Option,
    Reading,
    Recipe,
    Workload,
    held_share,
    verdict,
)
from ssdlab.reproduce.claims import load
from ssdlab.reproduce.report import fmt, markdown_table, provenance
from ssdlab.reproduce.templates import render
from ssdlab.sweep import Sweep, SweepError, run_sweep

RECIPE_NAME = "ldpc-read"
SEED = "002"
PRESET = "seed002-ldpc"
CHANNELS = (8, 2)
# The preset's blocks per plane at 8 channels, and its page size.
BLOCKS_PER_PLANE = 2048
PAGE_BYTES = 4096
VARIANTS: dict[str, list[str]] = {
    "no_soft": ['read_path.strategy="hard_decision"', "read_path.look_ahead=false"],
    "baseline": ['read_path.strategy="two_step"', "read_path.look_ahead=false"],
    "look_ahead": ['read_path.strategy="two_step"', "read_path.look_ahead=true"],
    "progressive": ['read_path.strategy="progressive"', "read_path.look_ahead=false"],
    "both": ['read_path.strategy="progressive"', "read_path.look_ahead=true"],
}
SYNTHETIC_REQUESTS = 200_000
# Data placement interleaving (seed 002 §3.3, Fig. 15): the two-step baseline with codewords spread
# over groups of chips. 2-way pairs the seed's chips 1 and 3, 2 and 4 (§5.4: "In 2-way interleaving, we
# assume the data placement interleaving occurs between chip 1 and 3, and between chip 2 and 4,
# respectively."), our chip classes 0 and 2, 1 and 3. Which of the seed's chips were weak is not in its
# text; with the preset's classes (hard failure 0.4 %, 26.9 %, 0 %, 86.7 %) the seed's pairs put the two
# strong chips together and the two weak ones together. Before issue 45 the recipe paired each weak chip
# with a strong one (0 and 1, 2 and 3: ``ADJACENT_PAIRS``), the favourable choice; it is a reading now.
# Every read senses all chips of its group and host writes are padded to whole groups (the cost side).
INTERLEAVE_GROUPS: dict[str, list[list[int]]] = {"interleave_2": [[0, 2], [1, 3]], "interleave_4": [[0, 1, 2, 3]]}
ADJACENT = "interleave_2_adjacent"
ADJACENT_PAIRS: list[list[int]] = [[0, 1], [2, 3]]
# Every grouping a decoding table is computed for: no interleaving, the seed's groups, the adjacent pairs.
GROUPINGS: dict[str, list[list[int]]] = {"base": [], **INTERLEAVE_GROUPS, ADJACENT: ADJACENT_PAIRS}
# The three techniques together: look-ahead + progressive reads of 4-way interleaved codewords.
COMBINED = "all"
INTERLEAVED_VARIANTS = {
    "interleave_2": ("interleave_2", VARIANTS["baseline"]),
    "interleave_4": ("interleave_4", VARIANTS["baseline"]),
    COMBINED: ("interleave_4", VARIANTS["both"]),
}
# Interleaving's reliability side alone: the same tables without the cost side (no partner sensings, no write padding),
# added after the fact (issue 44): readings, never graded (why: the claim book's ``reliability`` texts).
RELIABILITY_ONLY = "_reliability_only"
RELIABILITY_VARIANTS = {f"{name}{RELIABILITY_ONLY}": spec for name, spec in INTERLEAVED_VARIANTS.items()}
# The adjacent pairs (a reading of Fig. 15, with the cost side): run under the graded error model only.
ADJACENT_VARIANTS = {ADJACENT: (ADJACENT, VARIANTS["baseline"])}
ALL_VARIANTS = (*VARIANTS, *INTERLEAVED_VARIANTS, *RELIABILITY_VARIANTS, *ADJACENT_VARIANTS)
INTERLEAVE_FRAMES = 1000
# Block-to-block spread within each chip (seed 002 Fig. 9 shows it): four classes of blocks' wear noise, fitted to the
# seed's +35.2 % decode energy (the claim book's ``block_factors_fit``): the claim is "calibrated" (``FITS``).
BLOCK_FACTORS = (0.94, 0.98, 1.02, 1.06)
# Error models (``decoding_tables``): one failure list for every read, the mean of every block's table
# (the seed's own reading: one estimated rate fed to its simulator, §5.2; the interleaved tables' means
# for interleaving); every block's own list (chip and block class); the chips' spread only (the preset's
# table).
ONE_RATE = "one_rate"
# The system (issue 45 item 7): every error model runs on the preset's DiskSim ganged device, the seed's
# (§5.1, the claim book's ``[sentences.ganging]``); ``DIES`` is the one rate on independent dies and channels (ganging off),
# the system graded before issue 45: a reading. It is listed with the error models so that it runs the
# same variants and is shown the same way; ``TABLE_MODEL`` says whose decoding tables it uses.
DIES = "one_rate_dies"
ERROR_MODELS = (ONE_RATE, "blocks", "chips", DIES)
TABLE_MODEL = {DIES: ONE_RATE}
GANGING_OFF = "device.ganging.enabled=false"
# How each model draws a read's decoding outcome (``read_path.decoding.draw``). One rate: once per read
# request, so a request soft-reads with the rate whatever its size, as the seed states its rate, a share
# of read operations ("i.e., 1%, 10% and 30% of all the read operations invoke the 2nd-step ...") whose
# delay "proportionally increases as the failure rate increases" (Fig. 5); a per-page draw would make a
# 16-page read fail far more often than the rate. The chips and blocks: every page on its own, against
# its own chip and block's list (independent pages; one shared draw would make a multi-page read fail
# with its weakest chip's probability).
DRAWS = {ONE_RATE: "per_request", "blocks": "per_page", "chips": "per_page", DIES: "per_request"}

# The synthetic mixes' mean interarrival (Poisson): DiskSim's example generator's 5 ms, 200 IOPS
# (``DISKSIM_INTERARRIVAL_NS``; the seed gives only the read shares). Before issue 45 it was 50 us
# (20,000 IOPS), which the ganged device cannot serve (Synthetic1's gangs busy 92 % of the time, reads
# waiting 9 ms): the ordering ladder shows the rates in between (``RATE_STEPS``).
SYNTHETIC_INTERARRIVAL_NS = 5_000_000.0
# The rates the ladder runs both synthetic mixes at, in IOPS: the synthetic rate's effect.
RATE_STEPS = (1_000, 5_000, 10_000, 20_000)


def _synthetic(read_fraction: float, requests: int) -> tuple[str, ...]:
    return (
        f"workload.synthetic.requests={requests}",
        f"workload.synthetic.read_fraction={read_fraction}",
        "workload.synthetic.span_bytes=17179869184",
        'workload.synthetic.address={ distribution = "uniform" }',
        'workload.synthetic.size={ distribution = "fixed", bytes = 4096 }',
        f'workload.synthetic.arrival={{ process = "poisson", mean_interarrival_ns = {SYNTHETIC_INTERARRIVAL_NS} }}',
    )


def workloads(synthetic_requests: int = SYNTHETIC_REQUESTS) -> tuple[Workload, ...]:
    return (
        Workload(
            "Finance1",
            "sample",
            "real sample: the first 10,000 requests of UMass Financial1, replayed with their timestamps",
            sample="umass-financial1.ssdsim-ascii.first10k.txt.gz",
        ),
        Workload(
            "Finance2",
            "stand-in",
            f"stand-in: 82.3 % reads (published write share 17.7 %); request sizes 4/8/16 KiB at 75/15/10 %, uniform over 4 GiB and "
            f"Poisson arrivals at 1,000 IOPS are our choice (not published); {synthetic_requests:,} requests",
            overrides=(
                f"workload.synthetic.requests={synthetic_requests}",
                "workload.synthetic.read_fraction=0.823",
                "workload.synthetic.span_bytes=4294967296",
                'workload.synthetic.address={ distribution = "uniform" }',
                'workload.synthetic.size={ distribution = "choice", bytes = [4096, 8192, 16384], weights = [0.75, 0.15, 0.10] }',
                "workload.synthetic.alignment_bytes=4096",
                'workload.synthetic.arrival={ process = "poisson", mean_interarrival_ns = 1000000.0 }',
            ),
        ),
        Workload(
            "WebSearch",
            "sample",
            "real sample: MQSim's WebSearch trace (probably derived from UMass WebSearch), replayed with its timestamps",
            sample="mqsim-wsrch-small.trace.gz",
        ),
        Workload(
            "Postmark",
            "sample",
            "real sample: the DiskSim SSD-extension Postmark trace, whole, replayed with its timestamps",
            sample="disksim-postmark.trace.gz",
        ),
        Workload(
            "Synthetic1",
            "synthetic",
            f"synthetic: 66 % reads, 4 KiB uniform over 16 GiB, Poisson {1e9 / SYNTHETIC_INTERARRIVAL_NS:,.0f} IOPS, {synthetic_requests:,} requests",
            overrides=_synthetic(0.66, synthetic_requests),
        ),
        Workload(
            "Synthetic2",
            "synthetic",
            f"synthetic: 99 % reads, 4 KiB uniform over 16 GiB, Poisson {1e9 / SYNTHETIC_INTERARRIVAL_NS:,.0f} IOPS, {synthetic_requests:,} requests",
            overrides=_synthetic(0.99, synthetic_requests),
        ),
    )


WORKLOAD_NAMES = ("Finance1", "Finance2", "WebSearch", "Postmark", "Synthetic1", "Synthetic2")


def parse_trace_options(items: Sequence[str]) -> dict[str, Path]:
    """``--trace NAME=PATH``: the user's full trace replaces the sample or stand-in of that workload."""
    return report.parse_trace_options(items, WORKLOAD_NAMES)


def with_user_traces(selected: Sequence[Workload], traces: Mapping[str, Path]) -> tuple[Workload, ...]:
    return tuple(
        Workload(
            w.name,
            "full",
            f"full trace given by the user: {traces[w.name]}, replayed with its timestamps",
            overrides=(f"workload.trace.path={json.dumps(str(traces[w.name]))}",),
        )
        if w.name in traces
        else w
        for w in selected
    )


def _label(workload: Workload) -> str:
    return workload.label


def decoding_tables(out: Path, frames: int) -> dict[str, dict[str, Any]]:
    """The decoding tables of the three error models (kept in ``decoding_tables.json``):
    ``chips/<interleaving>`` without block spread and ``blocks/<base or interleaving>`` with it, computed
    by the ECC lab at the preset's stress once per folder and frame count (``chips/base`` is the
    preset's own table); and ``one_rate/<name>``, derived: one row, ``blocks/<name>``'s read-weighted
    mean list (``one_rate_table``). A table an earlier run of the folder computed with the same spec is
    reused whatever its key."""
    from ssdlab import ecc

    path = out / "decoding_tables.json"
    cached = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    wanted: dict[str, dict[str, Any]] = {}
    for errors in ("blocks", "chips"):
        factors = list(BLOCK_FACTORS) if errors == "blocks" else []
        for name, groups in GROUPINGS.items():
            if errors == "chips" and name == "base":
                continue
            # Block spread with interleaving has one row per multiset of the parts' block classes
            # (10 per 2-way group, 35 per 4-way group instead of 4): a quarter of the frames per
            # row keeps the recipe's time; the read-weighted mean still rests on 2,500-8,750 frames.
            multisets = errors == "blocks" and name != "base"
            wanted[f"{errors}/{name}"] = {
                "pe_cycles": 10_000.0,
                "retention_hours": 720.0,
                "frames_per_case": max(10, frames // 4) if multisets else frames,
                "interleave_groups": groups,
                "block_factors": factors,
                # Named so that a folder's tables from before independent parts are recomputed.
                "part_block_classes": "independent",
            }
    computed = [t for t in cached.values() if isinstance(t, dict) and "derived_from" not in t.get("spec", {})]
    tables: dict[str, dict[str, Any]] = {}
    for key, spec in wanted.items():
        previous = next((t for t in computed if all(t["spec"].get(field) == value for field, value in spec.items())), None)
        tables[key] = previous if previous else ecc.decoding_table(**spec)
    for name in GROUPINGS:
        tables[f"{ONE_RATE}/{name}"] = one_rate_table(tables[f"blocks/{name}"], f"blocks/{name}")
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(tables, indent=2) + "\n", encoding="utf-8")
    return tables


def one_rate_table(source: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The one-rate model's table from ``source`` (the table at ``key``): a single row, ``source``'s
    read-weighted mean failure list, for every chip and block (no chip rows, block classes or codeword
    parts). A mean of non-increasing lists is non-increasing, so it is a valid list as it stands."""
    mean = [float(p) for p in source["mean"]]
    return {
        "failure_probabilities": [mean],
        "mean": mean,
        "chip_rows": [],
        "block_classes": 1,
        "codeword_parts": 1,
        "spec": {"derived_from": key, "frames_per_case": source["spec"]["frames_per_case"]},
    }


def _table_overrides(table: Mapping[str, Any]) -> list[str]:
    overrides = [
        f"read_path.decoding.failure_probabilities={json.dumps([[round(p, 4) for p in row] for row in table['failure_probabilities']])}"
    ]
    if table.get("chip_rows"):
        overrides.append(f"read_path.decoding.chip_rows={json.dumps(table['chip_rows'])}")
    if table.get("block_classes", 1) > 1:
        overrides.append(f"read_path.decoding.block_classes={table['block_classes']}")
    if table.get("codeword_parts", 1) > 1:
        overrides.append(f"read_path.decoding.codeword_parts={table['codeword_parts']}")
    return overrides


def _variants_of(errors: str) -> tuple[str, ...]:
    """The variants run under the error model ``errors``: all but the adjacent pairs, which run under
    the graded model only (a reading of Fig. 15)."""
    return tuple(name for name in ALL_VARIANTS if errors == GRADED_ERRORS or name not in ADJACENT_VARIANTS)


def _model_overrides(errors: str, tables: Mapping[str, Mapping[str, Any]], grouping: str = "base") -> list[str]:
    """The decoding table and draw of the error model ``errors`` for reads of ``grouping`` (the chips'
    base table is the preset's own)."""
    model = TABLE_MODEL.get(errors, errors)
    table = [] if model == "chips" and grouping == "base" else _table_overrides(tables[f"{model}/{grouping}"])
    return table + [f'read_path.decoding.draw="{DRAWS[errors]}"'] + ([GANGING_OFF] if errors == DIES else [])


class Point(NamedTuple):
    """A run of the main sweep beside its workload and channel count: an error model and a variant.
    The sweep names it ``errors|variant`` (``label``); ``parse`` reads that name back."""

    errors: str
    variant: str

    @property
    def label(self) -> str:
        return f"{self.errors}|{self.variant}"

    @classmethod
    def parse(cls, label: str) -> Point:
        errors, _, variant = label.partition("|")
        return cls(errors, variant)


def _variant_overrides(point: Point, tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """A point's overrides: its read strategy, its error model's table (of its grouping) and draw, and
    for interleaving with its cost side the groups every read senses and every write is padded to."""
    if point.variant in VARIANTS:
        return list(VARIANTS[point.variant]) + _model_overrides(point.errors, tables)
    grouping, overrides = {**INTERLEAVED_VARIANTS, **ADJACENT_VARIANTS}[point.variant.removesuffix(RELIABILITY_ONLY)]
    reliability = list(overrides) + _model_overrides(point.errors, tables, grouping)
    if point.variant.endswith(RELIABILITY_ONLY):
        return reliability
    return reliability + [f"read_path.interleave_groups={json.dumps(GROUPINGS[grouping])}"]


def build_sweep(selected: Sequence[Workload], tables: Mapping[str, Mapping[str, Any]]) -> Sweep:
    """The grid: every workload x channel count x (error model, variant) point."""
    workloads = {}
    for workload in selected:
        path = report.workload_trace(workload.name, workload.sample, {}) if workload.sample is not None else None
        workloads[_label(workload)] = [f"workload.trace.path={json.dumps(str(path))}"] if path else list(workload.overrides)
    # Fewer channels, same capacity: the blocks per plane grow by the same factor, so every trace's
    # address range still fits and only the parallelism changes.
    channels = {
        str(c): [f"device.geometry.channels={c}", f"device.geometry.blocks_per_plane={BLOCKS_PER_PLANE * CHANNELS[0] // c}"]
        for c in CHANNELS
    }
    points = [Point(errors, name) for errors in ERROR_MODELS for name in _variants_of(errors)]
    variants = {point.label: _variant_overrides(point, tables) for point in points}
    return Sweep(
        name="seed002-ldpc-read",
        base=PRESET,
        cases={"workload": workloads, "channels": channels, "variant": variants},
        origin="reproduce ldpc-read",
    )


# The candidate look-ahead energy accountings (keys of ``_energy_parts``; what each assumes: ``ldpc_read_texts.md.j2``).
ENERGY_ACCOUNTINGS = ("access", "access_full", "access_soft_read", "access_soft_read_3")


def accounting_text(accounting: str, preset: Mapping[str, Any] | None = None) -> str:
    """What ``accounting`` (one of ``ENERGY_ACCOUNTINGS``) assumes, with the preset's soft-result pages."""
    return _text(accounting, pages=soft_read_pages(preset))


# Why the seed's least-delayed workload (Postmark, +25 %) is among our most delayed: Synthetic2 (the
# seed's most delayed) changed one property at a time towards the Postmark sample (83.2 % reads,
# most requests 64 KiB, 28.9 MB/s on average), then all at once, and the Postmark sample itself
# with per-page draws; and Synthetic2 with DiskSim's example generator's sizes and rate (``DISKSIM_*``).
# Every step runs under the graded error model (one rate, one draw per read request, 8 channels),
# without soft sensing and with the two-step baseline; the ordering's cause is the step that moves the
# delay the most. Fixed 64 KiB requests keep the offered bytes per second (16x fewer requests per
# second).
ORDERING_REQUESTS = 50_000
POSTMARK_READ_FRACTION = 0.832
POSTMARK_INTERARRIVAL_NS = 141_700.0  # 4 KiB requests at Postmark's mean 28.9 MB/s
# DiskSim's example synthetic generator (the one in its SSD model's example configurations,
# benh/disksim ssdmodel/valid/ssd-postmark.parv and ssd-iozone.parv, drawn by src/disksim_synthio.c): 66 %
# reads uniform over the device, sizes exponential of mean 8 sectors rounded up to the blocking factor
# of 8 sectors (one 4 KiB page) and redrawn when zero, open arrivals exponential of mean 5 ms.
DISKSIM_MEAN_SIZE_SECTORS = 8
DISKSIM_BLOCKING_SECTORS = 8
DISKSIM_INTERARRIVAL_NS = 5_000_000.0
# The longest request kept of DiskSim's sizes: the requests beyond 8 pages are e^-8 = 0.03 % of them.
DISKSIM_LONGEST_PAGES = 8
DISKSIM_SIZES = "DiskSim's example sizes, same bytes/s"


def rate_step(mix: str, iops: int) -> str:
    """The ladder's step that runs synthetic mix ``mix`` at ``iops`` (``RATE_STEPS``)."""
    return f"{mix} at {iops:,} IOPS"


def disksim_example_sizes(longest: int = DISKSIM_LONGEST_PAGES) -> tuple[list[int], list[float]]:
    """DiskSim's example request sizes in 4 KiB pages, with their probabilities: x exponential of mean
    8 sectors, ceil(floor(x) / 8) pages, redrawn when 0, so k pages with probability (1 - q) q^(k-1),
    q = e^(-8/8) (geometric: 63.2 % one page, 1.58 pages on average); cut at ``longest`` pages and
    renormalised."""
    q = math.exp(-DISKSIM_BLOCKING_SECTORS / DISKSIM_MEAN_SIZE_SECTORS)
    weights = [(1 - q) * q ** (k - 1) for k in range(1, longest + 1)]
    total = sum(weights)
    return [4096 * k for k in range(1, longest + 1)], [w / total for w in weights]


def disksim_mean_pages() -> float:
    sizes, weights = disksim_example_sizes()
    return sum(size / 4096 * weight for size, weight in zip(sizes, weights, strict=True))


def _ordering_steps(requests: int) -> dict[str, list[str]]:
    base = list(_synthetic(0.99, requests))

    def changed(*overrides: str) -> list[str]:
        keys = {o.split("=", 1)[0] for o in overrides}
        return [o for o in base if o.split("=", 1)[0] not in keys] + list(overrides)

    size = ['workload.synthetic.size={ distribution = "fixed", bytes = 65536 }', "workload.synthetic.alignment_bytes=4096"]
    slow = 'workload.synthetic.arrival={ process = "poisson", mean_interarrival_ns = %s }'
    sizes, weights = disksim_example_sizes()
    disksim_size = [
        f'workload.synthetic.size={{ distribution = "choice", bytes = {sizes}, weights = {[round(w, 6) for w in weights]} }}',
        "workload.synthetic.alignment_bytes=4096",
    ]
    return {
        "Synthetic2 (base)": base,
        "64 KiB requests, same bytes/s": changed(*size, slow % (SYNTHETIC_INTERARRIVAL_NS * 16)),
        "83.2 % reads": changed(f"workload.synthetic.read_fraction={POSTMARK_READ_FRACTION}"),
        "Postmark's byte rate": changed(slow % POSTMARK_INTERARRIVAL_NS),
        "per-page draws": base + ['read_path.decoding.draw="per_page"'],
        "all four": changed(
            *size,
            f"workload.synthetic.read_fraction={POSTMARK_READ_FRACTION}",
            slow % (POSTMARK_INTERARRIVAL_NS * 16),
        )
        + ['read_path.decoding.draw="per_page"'],
        DISKSIM_SIZES: changed(*disksim_size, slow % round(SYNTHETIC_INTERARRIVAL_NS * disksim_mean_pages(), 1)),
        "Synthetic1 (base)": list(_synthetic(0.66, requests)),
        **{
            rate_step(mix, iops): [o for o in _synthetic(fraction, requests) if "arrival" not in o] + [slow % (1e9 / iops)]
            for mix, fraction in (("Synthetic1", 0.66), ("Synthetic2", 0.99))
            for iops in RATE_STEPS
        },
    }


# The ladder's steps towards Postmark (one property each); the DiskSim steps are set apart.
TOWARDS_POSTMARK = ("64 KiB requests, same bytes/s", "83.2 % reads", "Postmark's byte rate", "per-page draws")


def build_ordering_sweep(requests: int, tables: Mapping[str, Mapping[str, Any]]) -> Sweep:
    """The one-property-at-a-time ladder from Synthetic2 towards Postmark and DiskSim's generator, under
    the graded error model (``tables``: the recipe's decoding tables), 8 channels."""
    steps = _ordering_steps(requests)
    postmark = shared_trace("disksim-postmark.trace.gz")
    if postmark is not None:
        trace = f"workload.trace.path={json.dumps(str(postmark))}"
        steps["Postmark sample"] = [trace]
        steps["Postmark sample, per-page draws"] = [trace, 'read_path.decoding.draw="per_page"']
    cases = {
        "step": steps,
        "variant": {name: list(VARIANTS[name]) for name in ("no_soft", "baseline")},
    }
    common = _model_overrides(GRADED_ERRORS, tables)
    return Sweep(name="seed002-ldpc-ordering", base=PRESET, common=common, cases=cases, origin="reproduce ldpc-read")


def _ordering_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per step: mean read latency without soft sensing and with the baseline, the delay, and
    the baseline's hard failures per page read and per read request."""
    grouped: dict[str, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(row["point.step"], {})[row["point.variant"]] = row
    table = []
    for step, variants in grouped.items():
        entry: dict[str, Any] = {
            "step": step,
            "hard_failure_fraction": None,
            "request_hard_failure_fraction": None,
            "gang_utilisation": None,
        }
        for name in ("no_soft", "baseline"):
            row = variants.get(name)
            ok = row is not None and row["status"] == "ok"
            result = json.loads(row["result_json"]) if ok else None
            entry[f"{name}_read_mean_us"] = result["read"]["latency_us"]["mean"] if result else None
            if name == "baseline" and result:
                entry.update(_failure_shares(result))
                entry["read_requests"] = result["read"]["count"]
            if name == "no_soft":
                entry["gang_utilisation"] = ((result or {}).get("ganging") or {}).get("mean_utilisation")
        none, base = entry["no_soft_read_mean_us"], entry["baseline_read_mean_us"]
        entry["baseline_delay"] = base / none - 1 if base and none else None
        table.append(entry)
    return table


def _failure_shares(result: Mapping[str, Any] | None) -> dict[str, float | None]:
    """A run's hard-decision failures over its page reads, and the share of its read requests with at
    least one (the same under one draw per request; higher per page for multi-page requests)."""
    statistics = (result or {}).get("read_path") or {}
    reads, requests = statistics.get("sampled_reads", 0), statistics.get("sampled_requests", 0)
    return {
        "hard_failure_fraction": statistics.get("hard_decision_failures", 0) / reads if reads else None,
        "request_hard_failure_fraction": statistics.get("requests_with_hard_failures", 0) / requests if requests else None,
    }


def soft_read_pages(preset: Mapping[str, Any] | None = None) -> float:
    """A full soft read's results in pages' worth of channel time: the preset's
    ``read_path.soft_transfer_latency_ns`` (§2.3's 80 us) over one page's time, or one page per extra
    level where it is not set."""
    preset = preset or _preset()
    soft_ns = preset["read_path"].get("soft_transfer_latency_ns") or 0
    if soft_ns:
        return soft_ns / 1000 / _page_transfer_us(preset)
    return float(preset["read_path"]["soft_sensing_levels"])


def _energy_parts(result: Mapping[str, Any]) -> dict[str, float]:
    """Sensing, flash access (sensing plus the transfers of read results: hard results and soft results;
    write data and GC copies left out) and decode energy, with look-ahead charged by each of
    ``ENERGY_ACCOUNTINGS``. The soft results are what the run moved (``flash.soft_result_pages``, pages'
    worth of channel time: time and energy use the same count); a result without it counted one page
    per extra level among its read page transfers."""
    energy, flash = result["energy_uj"], result["flash"]
    preset = _preset()
    level_uj = preset["device"]["energy"]["extra_sensing_level_uj"]
    level_ns = preset["read_path"]["extra_sensing_latency_ns"]
    levels = preset["read_path"]["soft_sensing_levels"]
    ran_levels = flash["cancelled_sensing_ns"] / level_ns if level_ns else 0.0
    extra_full = energy["extra_sensing_uj"] + level_uj * (flash["cancelled_sensing_levels"] - ran_levels)
    soft_pages = float(flash.get("soft_result_pages") or 0.0)
    if soft_pages:
        read_pages = flash["read_page_transfers"] + soft_pages
        full_soft_read = soft_read_pages(preset)
    else:
        # One page per level, already among the read page transfers (or no soft read at all).
        soft_pages = float(flash["extra_sensing_levels"])
        read_pages = flash["read_page_transfers"]
        full_soft_read = soft_read_pages(preset) if not soft_pages else float(levels)
    # The run's own energy per page moved (the preset's where it moved nothing).
    moved = flash["page_transfers"] + float(flash.get("soft_result_pages") or 0.0)
    page_uj = energy["transfer_uj"] / moved if moved else preset["device"]["energy"]["page_transfer_uj"]
    read_transfer = page_uj * read_pages
    # A cancelled look-ahead charged as a complete soft read moves a full soft read's results.
    cancelled = (result.get("read_path") or {}).get("look_ahead_cancelled", 0)
    soft_read_extra = cancelled * full_soft_read * page_uj
    # With 3-page soft results every soft read's transfer shrinks to 3 / full_soft_read of itself.
    three = 3 / full_soft_read if full_soft_read else 1.0
    soft_transfer = soft_pages * page_uj
    access_full = energy["read_sense_uj"] + extra_full + read_transfer
    return {
        "sensing": energy["read_sense_uj"] + energy["extra_sensing_uj"],
        "access": energy["read_sense_uj"] + energy["extra_sensing_uj"] + read_transfer,
        "access_full": access_full,
        "access_soft_read": access_full + soft_read_extra,
        "access_soft_read_3": access_full - soft_transfer * (1 - three) + soft_read_extra * three,
        "decode": energy["decode_uj"],
    }


# The runs a headline compares (issue 44: both sides' health on every comparison), with the names the
# report gives them.
HEALTH_VARIANTS = {
    "no_soft": "no soft sensing",
    "baseline": "two-step baseline",
    "look_ahead": "look-ahead",
    "progressive": "progressive",
    "both": "look-ahead + progressive",
    "interleave_2": "2-way interleaving",
    "interleave_4": "4-way interleaving",
    COMBINED: "all three",
    ADJACENT: "2-way interleaving, adjacent pairs",
}
HEALTH_FIELDS = ("read_mbps", "write_mbps", "write_amplification", "held_fraction", "erase_max", "simulated_seconds")


def _health_columns(name: str, result: Mapping[str, Any] | None) -> dict[str, Any]:
    """A run's health as flat table columns ``health.<variant>.<field>`` (None without a result)."""
    if not result:
        return {f"health.{name}.{field}": None for field in HEALTH_FIELDS}
    return {
        f"health.{name}.read_mbps": (result.get("read") or {}).get("mbps"),
        f"health.{name}.write_mbps": (result.get("write") or {}).get("mbps"),
        f"health.{name}.write_amplification": result.get("write_amplification"),
        f"health.{name}.held_fraction": held_share(result),
        f"health.{name}.erase_max": (result.get("erase_count") or {}).get("max"),
        f"health.{name}.simulated_seconds": result.get("simulated_seconds"),
    }


def _side_health(rows: Sequence[Mapping[str, Any]], variants: Sequence[str], side: str | None = None, op: str = "read") -> Health:
    """One side of a comparison: the runs of ``variants`` on ``rows``. One run gives its own figures;
    several (a mean over the workloads) give the worst of each check over them, so a degenerate run
    anywhere in the mean flags the side. The MB/s of ``op`` (read or write) is named for a single run only."""
    runs = [(row, name) for row in rows for name in variants]
    label = side or " and ".join(HEALTH_VARIANTS[name] for name in variants)
    if len(rows) > 1:
        label += f" (worst of {len(rows)} workloads)"

    def worst(field: str) -> float | None:
        values = [row[f"health.{name}.{field}"] for row, name in runs if row.get(f"health.{name}.{field}") is not None]
        return max(values) if values else None

    # The run whose simulated time is the largest multiple of its workload's span.
    timed = [
        (row[f"health.{name}.simulated_seconds"] / row["span_seconds"], row[f"health.{name}.simulated_seconds"], row["span_seconds"])
        for row, name in runs
        if row.get(f"health.{name}.simulated_seconds") is not None and row.get("span_seconds")
    ]
    _, simulated, span = max(timed) if timed else (None, None, None)
    single = runs[0] if len(runs) == 1 else None
    return Health(
        side=label,
        mbps=single[0].get(f"health.{single[1]}.{op}_mbps") if single else None,
        write_amplification=worst("write_amplification"),
        held_fraction=worst("held_fraction"),
        erase_max=worst("erase_max"),
        endurance=next((row["endurance_pe_cycles"] for row in rows if row.get("endurance_pe_cycles")), None),
        simulated_seconds=simulated,
        span_seconds=span,
    )


def _override_number(overrides: Sequence[str], name: str) -> float | None:
    """A number a workload's overrides set: ``key=N`` or ``... name = N ...`` inside an inline table."""
    for override in overrides:
        key, _, value = override.partition("=")
        if key.strip().endswith(name):
            return float(value)
        found = re.search(rf"\b{re.escape(name)}\s*=\s*([0-9.eE+-]+)", value)
        if found:
            return float(found.group(1))
    return None


def workload_spans(selected: Sequence[Workload]) -> dict[str, float | None]:
    """Each workload's arrival span in seconds, by label: a trace's first to last timestamp, a
    synthetic mix's requests x mean interarrival (Poisson: about). None where it cannot be told."""
    spans: dict[str, float | None] = {}
    for workload in selected:
        path = shared_trace(workload.sample) if workload.sample else None
        if path is None and workload.kind == "full":
            path = Path(json.loads(workload.overrides[0].partition("=")[2]))
        if path is not None:
            try:
                spans[_label(workload)] = api.trace_stats(path)["stats"]["duration_s"]
            except Exception:  # a trace the scanner cannot read has no span to check against
                spans[_label(workload)] = None
            continue
        requests = _override_number(workload.overrides, "requests")
        interarrival = _override_number(workload.overrides, "mean_interarrival_ns")
        spans[_label(workload)] = requests * interarrival / 1e9 if requests and interarrival else None
    return spans


def _rows(rows: Sequence[Mapping[str, Any]], spans: Mapping[str, float | None] | None = None) -> list[dict[str, Any]]:
    """One row per (workload, channels, error model): each variant's mean read latency and the seed's
    ratios, and each compared run's health (``health.<variant>.*``; ``spans``: each workload's arrival
    span in seconds, by label, for the simulated-time check)."""
    grouped: dict[tuple[str, int, str], dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        point = Point.parse(row["point.variant"])
        grouped.setdefault((row["point.workload"], int(row["point.channels"]), point.errors), {})[point.variant] = row
    table = []
    for (label, channels, errors), variants in grouped.items():
        entry: dict[str, Any] = {"workload": label, "channels": channels, "errors": errors}
        results: dict[str, Any] = {}
        for name in ALL_VARIANTS:
            row = variants.get(name)
            ok = row is not None and row["status"] == "ok"
            results[name] = json.loads(row["result_json"]) if ok else None
            missing = "missing" if name in _variants_of(errors) else "not in the grid"
            entry[f"{name}_status"] = "ok" if ok else (row["error"] if row is not None else missing)
            entry[f"{name}_read_mean_us"] = results[name]["read"]["latency_us"]["mean"] if ok else None
            entry[f"{name}_read_p99_us"] = results[name]["read"]["latency_us"]["p99"] if ok else None
            written = results[name]["write"] if ok else None
            entry[f"{name}_write_mean_us"] = written["latency_us"]["mean"] if written and written.get("count") else None
        entry["span_seconds"] = (spans or {}).get(label)
        entry["endurance_pe_cycles"] = next(
            (r["erase_count"]["endurance_pe_cycles"] for r in results.values() if r and "erase_count" in r), None
        )
        for name in HEALTH_VARIANTS:
            entry.update(_health_columns(name, results[name]))
        base, none = entry["baseline_read_mean_us"], entry["no_soft_read_mean_us"]
        entry["baseline_delay"] = base / none - 1 if base and none else None
        # Seed 002 §2.3: the two-step baseline's write response time over the same runs without soft sensing.
        write_base, write_none = entry["baseline_write_mean_us"], entry["no_soft_write_mean_us"]
        entry["writes"] = (results["baseline"] or {}).get("write", {}).get("count")
        entry["baseline_write_delay"] = write_base / write_none - 1 if write_base and write_none else None
        for name in ("look_ahead", "progressive", "both", *INTERLEAVED_VARIANTS, *RELIABILITY_VARIANTS, *ADJACENT_VARIANTS):
            value = entry[f"{name}_read_mean_us"]
            entry[f"{name}_vs_baseline"] = value / base if value and base else None
            entry[f"{name}_delay"] = value / none - 1 if value and none else None
        entry["reads"] = ((results["baseline"] or {}).get("read_path") or {}).get("sampled_reads", 0)
        entry.update(_failure_shares(results["baseline"]))
        # The mean read request's size in pages (what a per-page draw multiplies).
        read = (results["baseline"] or {}).get("read") or {}
        entry["read_request_pages"] = read["bytes"] / read["count"] / PAGE_BYTES if read.get("count") and read.get("bytes") else None
        before = _energy_parts(results["baseline"]) if results["baseline"] else None
        after = _energy_parts(results["look_ahead"]) if results["look_ahead"] else None
        for accounting in ENERGY_ACCOUNTINGS:
            # The baseline has no look-ahead: its access energy differs between accountings only
            # in the size of its soft reads' results.
            reference = before and before["access_soft_read_3" if accounting == "access_soft_read_3" else "access"]
            key = "look_ahead_access_energy_increase" + ("" if accounting == "access" else accounting.removeprefix("access"))
            entry[key] = after[accounting] / reference - 1 if before and after and reference else None
        entry["look_ahead_started_share"] = (
            results["look_ahead"]["read_path"]["look_ahead_started"] / results["look_ahead"]["read_path"]["sampled_reads"]
            if after and results["look_ahead"]["read_path"]["sampled_reads"]
            else None
        )
        if results["progressive"]:
            decodes = results["progressive"]["flash"]["decodes"]
            reads = results["progressive"]["flash"]["page_reads"]
            entry["progressive_decode_increase"] = decodes / reads - 1 if reads else None
        else:
            entry["progressive_decode_increase"] = None
        if results["baseline"] and results["both"]:
            before, after = _energy_parts(results["baseline"]), _energy_parts(results["both"])
            total_before = before["sensing"] + before["decode"]
            entry["both_sensing_decode_energy_change"] = (after["sensing"] + after["decode"]) / total_before - 1 if total_before else None
        else:
            entry["both_sensing_decode_energy_change"] = None
        # Interleaving's cost side in all three: its time with the cost over its time without.
        with_cost, without = entry[f"{COMBINED}_read_mean_us"], entry[f"{COMBINED}{RELIABILITY_ONLY}_read_mean_us"]
        entry["all_cost_side_price"] = with_cost / without if with_cost and without else None
        for name in (*INTERLEAVED_VARIANTS, *ADJACENT_VARIANTS):
            interleaving = (results[name] or {}).get("interleaving") or {}
            entry[f"{name}_write_amplification"] = interleaving.get("write_amplification_from_grouping")
            entry[f"{name}_part_sensings"] = interleaving.get("part_sensings")
        table.append(entry)
    order = {label: i for i, label in enumerate(dict.fromkeys(r["workload"] for r in table))}
    table.sort(key=lambda r: (ERROR_MODELS.index(r["errors"]) if r["errors"] in ERROR_MODELS else 9, -r["channels"], order[r["workload"]]))
    return table


MEAN_ROW = "mean over the workloads"


def _with_means(table: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rows with a mean row after each (error model, channels) group: every number the report
    quotes as a mean over the workloads is one of these rows' cells (counts such as writes are not
    averaged)."""
    out: list[Mapping[str, Any]] = []
    groups: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    for row in table:
        groups.setdefault((row["errors"], row["channels"]), []).append(row)
    for (errors, channels), rows in groups.items():
        out.extend(rows)
        mean: dict[str, Any] = dict.fromkeys(rows[0])
        mean.update(errors=errors, workload=MEAN_ROW, channels=channels)
        for key in rows[0]:
            if any(isinstance(r.get(key), float) for r in rows) and key not in ("errors", "workload", "channels"):
                mean[key] = _mean([r for r in rows if r.get(key) is not None and not isinstance(r.get(key), str)], key)
        out.append(mean)
    return out


# The tables the report shows, one row per run and a mean row per (error model, channels): (header,
# key or function of the row, ``fmt`` kind). ``{pages}``: a full soft read's results in pages.
ENERGY = "look_ahead_access_energy_increase"
PER_WORKLOAD_COLUMNS = (
    ("errors", "errors", "text"),
    ("workload", "workload", "text"),
    ("channels", "channels", "text"),
    ("writes", "writes", "int"),
    ("write time: baseline over no soft sensing", "baseline_write_delay", "pct"),
    ("look-ahead started (share of reads)", "look_ahead_started_share", "share"),
    ("look-ahead access energy: timed (graded)", ENERGY, "pct"),
    ("cancelled charged in full", f"{ENERGY}_full", "pct"),
    ("full soft read, {pages} pages", f"{ENERGY}_soft_read", "pct"),
    ("full soft read, 3 pages", f"{ENERGY}_soft_read_3", "pct"),
    ("progressive: decodes per read - 1", "progressive_decode_increase", "pct"),
    ("look-ahead + progressive: sensing and decode energy", "both_sensing_decode_energy_change", "pct"),
    ("all three / baseline", f"{COMBINED}_vs_baseline", "ratio"),
    ("all three, reliability side only / baseline", f"{COMBINED}{RELIABILITY_ONLY}_vs_baseline", "ratio"),
    ("cost side's price", "all_cost_side_price", "ratio"),
)
RESULT_COLUMNS = (
    ("errors", "errors", "text"),
    ("workload", "workload", "text"),
    ("channels", "channels", "text"),
    ("hard fails (page reads)", "hard_failure_fraction", "share"),
    ("hard fails (read requests)", "request_hard_failure_fraction", "share"),
    ("pages per read request", "read_request_pages", "sig"),
    (
        "read mean us: no soft → baseline",
        lambda r: f"{fmt(r['no_soft_read_mean_us'], 'us')} → {fmt(r['baseline_read_mean_us'], 'us')}",
        "text",
    ),
    ("baseline delay", "baseline_delay", "pct"),
    ("look-ahead / baseline", "look_ahead_vs_baseline", "ratio"),
    ("progressive / baseline", "progressive_vs_baseline", "ratio"),
    ("both / baseline", "both_vs_baseline", "ratio"),
    ("both: delay", "both_delay", "pct"),
    ("2-way / baseline", "interleave_2_vs_baseline", "ratio"),
    ("2-way, adjacent pairs / baseline", f"{ADJACENT}_vs_baseline", "ratio"),
    ("4-way / baseline", "interleave_4_vs_baseline", "ratio"),
    ("all three / baseline", f"{COMBINED}_vs_baseline", "ratio"),
    ("4-way write ampl.", "interleave_4_write_amplification", "ratio"),
)


def _per_workload_markdown(table: Sequence[Mapping[str, Any]]) -> str:
    """Each run's writes, look-ahead and progressive energy and interleaving's cost side, with a mean
    row per error model and channel count: the per-workload numbers behind the energy headlines, the
    write-time bound (§2.3) and the cost side's price."""
    pages = f"{soft_read_pages():.1f}"
    return markdown_table(_with_means(table), [(header.format(pages=pages), key, kind) for header, key, kind in PER_WORKLOAD_COLUMNS])


def _table_markdown(table: Sequence[Mapping[str, Any]]) -> str:
    return markdown_table(_with_means(table), RESULT_COLUMNS)


def _run(
    out: Path,
    *,
    synthetic_requests: int = SYNTHETIC_REQUESTS,
    interleave_frames: int = INTERLEAVE_FRAMES,
    traces: Mapping[str, Path] | None = None,
    only: Sequence[str] | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[..., object] | None = None,
) -> report.Reproduction:
    """Runs the grid (resuming a previous run in ``out``), writes table, figures and report."""
    if synthetic_requests < 1000:
        raise SweepError(f"--synthetic-requests {synthetic_requests}: at least 1,000 requests are needed for a meaningful mean")
    if interleave_frames < 10:
        raise SweepError(f"--interleave-frames {interleave_frames}: at least 10 frames per case are needed")
    selected = with_user_traces(report.selected(workloads(synthetic_requests), only), traces or {})
    tables = decoding_tables(out, interleave_frames)
    sweep = build_sweep(selected, tables)
    outcome = run_sweep(sweep, out / "sweep", scheduler=scheduler, workers=workers, progress=progress)
    table = _rows(outcome.rows, workload_spans(selected))
    ordering_outcome = run_sweep(
        build_ordering_sweep(min(synthetic_requests, ORDERING_REQUESTS), tables),
        out / "ordering-sweep",
        scheduler=scheduler,
        workers=workers,
        progress=progress,
    )
    ordering = _ordering_rows(ordering_outcome.rows)
    paths: dict[str, Path] = {}
    for errors in ERROR_MODELS:
        # The graded model's figures keep the plain names; each reading's carry its model's name.
        rows = [r for r in table if r["errors"] == errors]
        graded = errors == GRADED_ERRORS
        paths.update(figures(rows, out, "" if graded else f"-{errors}", ERROR_MODEL_NAMES[errors] + (" (graded)" if graded else "")))
    return report.finish(
        out,
        tables={"": table, "ordering": ordering},
        main="",
        report_text=_report(selected, table, paths, outcome, scheduler, tables, ordering, min(synthetic_requests, ORDERING_REQUESTS)),
        summary=_table_markdown(table),
        figures=paths,
        outcomes=(outcome, ordering_outcome),
        headlines=headlines(table, ordering),
        readings=readings(table, ordering),
        recipe=RECIPE_NAME,
        seed=SEED,
    )


# The reading every claim is graded under (why: the claim book's ``graded_reading``): one failure rate for every read,
# 8 channels, interleaving with its cost side, look-ahead energy as timed.
GRADED_ERRORS = ONE_RATE
GRADED_CHANNELS = 8
# The chips of a gang: the preset's (``[device.ganging]``; a test checks), the seed's §5.1.
GANG_CHIPS = 8
# The report's column order: the graded error model first.
MODEL_ORDER = (GRADED_ERRORS, *(e for e in ERROR_MODELS if e != GRADED_ERRORS))

# The claim book (``claims/ldpc_read.toml``): the seed's numbers and sentences, the claims, the fits and the texts.
BOOK = load("ldpc_read")
TEXTS = BOOK.texts
# The seed's sentences by key (``[sentences]``: English, so the originals alone), and a claim's quote: its sentences
# (``[quotes]``) joined.
QUOTES = {key: BOOK.quote(key) for key in BOOK.sentences}


def _filled(text: str) -> str:
    """A book text with the recipe's values in: ``{factors}``, the block classes' wear noise."""
    return text.replace("{factors}", ", ".join(f"x{factor:g}" for factor in BLOCK_FACTORS))


CLAIMS = tuple(replace(claim, calibrated=_filled(claim.calibrated)) for claim in BOOK.claims)
FITS = tuple(replace(fit, what=_filled(fit.what)) for fit in BOOK.fits)
BLOCK_FACTORS_FIT, WEAR_FIT = _filled(TEXTS["block_factors_fit"]), TEXTS["wear_fit"]
ERROR_MODEL_NAMES = {errors: TEXTS[f"{errors}_name"] for errors in ERROR_MODELS}
# The other error models as readings: what each assumes, and why the graded one rate is the seed's.
MODEL_ASSUMES = {errors: TEXTS[f"{errors}_assumes"] for errors in MODEL_ORDER[1:]}
MODEL_WHY = {errors: TEXTS[f"{errors}_why"] for errors in MODEL_ORDER[1:]}
SEED_HARD_FAILURE, SEED_LOOK_AHEAD_ENERGY = BOOK.seed["hard_failure"], BOOK.seed["look_ahead_energy"]
SEED_SOFT_TRANSFER_US = BOOK.seed["soft_transfer_us"]


def _worst(table: Sequence[Mapping[str, Any]], key: str, errors: str, channels: Sequence[int] = CHANNELS) -> tuple[float, str] | None:
    """The largest ``key`` over the workloads on ``channels``, and where it is."""
    values = [
        (r[key], f"{r['workload']}, {r['channels']} channels")
        for r in table
        if r["errors"] == errors and r["channels"] in channels and r[key] is not None
    ]
    return max(values) if values else None


def _ordering_places(ranked: Sequence[Mapping[str, Any]]) -> tuple[int, str] | None:
    """Fig. 11's order as a bound on ranks: how many places Synthetic2 sits below the most delayed
    workload plus how many Postmark sits above the least delayed (0: the seed's order holds), and the
    ranks in words. ``ranked``: the rows from the least to the most delayed."""
    names = [_short(r["workload"]) for r in ranked]
    if "Synthetic2" not in names or "Postmark" not in names:
        return None
    from_top = len(names) - names.index("Synthetic2")
    from_bottom = names.index("Postmark") + 1
    off = from_top - 1 + from_bottom - 1
    return off, _text("ordering_places", from_top=_ordinal(from_top), from_bottom=_ordinal(from_bottom), count=len(names), off=off)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _worst_row(rows: Sequence[Mapping[str, Any]], key: str) -> Mapping[str, Any] | None:
    known = [r for r in rows if r[key] is not None]
    return max(known, key=lambda r: r[key]) if known else None


def _short(workload: str) -> str:
    return workload.split(" ")[0]


def _ratio_to_better(row: Mapping[str, Any]) -> float | None:
    """Look-ahead + progressive over the better of the two alone (Fig. 14's "further improve")."""
    both, alone = row["both_vs_baseline"], [row["look_ahead_vs_baseline"], row["progressive_vs_baseline"]]
    if both is None or None in alone:
        return None
    return both / min(alone)  # type: ignore[type-var]


@dataclass(frozen=True)
class Measured:
    """A claim's value under one error model (8 channels), with its note, both sides' health and, for
    a claim shown as text, the text."""

    value: float | None
    note: str = ""
    health: tuple[Health, ...] = ()
    text: str | None = None


def measurements(table: Sequence[Mapping[str, Any]], errors: str) -> dict[str, Measured]:
    """Every claim's value under the error model ``errors`` on 8 channels (interleaving with its cost
    side, look-ahead energy as timed): the graded reading for ``GRADED_ERRORS``, a reading otherwise.
    The notes are ``ldpc_read_texts.md.j2``'s (``<key>_note``) or the claim book's."""
    rows = [r for r in table if r["errors"] == errors and r["channels"] == GRADED_CHANNELS]
    found: dict[str, Measured] = {}
    if not rows:
        return found

    def workload(name: str) -> Mapping[str, Any] | None:
        return next((r for r in rows if r["workload"].startswith(name)), None)

    def mean(key: str) -> float | None:
        return _mean(rows, key)

    def below(key: str) -> tuple[int, int]:
        return _count_below([r[key] for r in rows])

    def health(side: str, other: str) -> tuple[Health, ...]:
        return (_side_health(rows, [side]), _side_health(rows, [other]))

    postmark, synthetic2 = workload("Postmark"), workload("Synthetic2")
    for key, row in (("baseline_postmark", postmark), ("baseline_synthetic2", synthetic2)):
        found[key] = Measured(
            row["baseline_delay"] if row else None,
            health=(_side_health([row], ["no_soft"]), _side_health([row], ["baseline"])) if row else (),
        )
    ranked = sorted((r for r in rows if r["baseline_delay"] is not None), key=lambda r: r["baseline_delay"])
    places = _ordering_places(ranked)
    found["ordering"] = Measured(
        places[0] if places else None,
        note=_text("ordering_note", ranked=ranked),
        health=tuple(
            _side_health([row], ["no_soft", "baseline"], f"{_short(row['workload'])}: no soft sensing and baseline")
            for row in (synthetic2, postmark)
            if row
        ),
        text=places[1] if places else None,
    )
    # §2.3: the baseline's write response time over no soft sensing, worst over the workloads with writes.
    writes = _worst_row(rows, "baseline_write_delay")
    found["write_response"] = Measured(
        writes["baseline_write_delay"] if writes else None,
        note=_text("write_note", row=writes, mean=mean("baseline_write_delay")) if writes else "",
        health=(_side_health([writes], ["no_soft"], op="write"), _side_health([writes], ["baseline"], op="write")) if writes else (),
    )
    # The seed's "modestly" is said against progressive's "very effectively": the note shows both.
    found["look_ahead"] = Measured(
        mean("look_ahead_vs_baseline"),
        note=_text("look_ahead_note", counts=below("look_ahead_vs_baseline"), progressive=mean("progressive_vs_baseline")),
        health=health("baseline", "look_ahead"),
    )
    progressive = [r for r in rows if r["progressive_vs_baseline"] is not None]
    most = min(progressive, key=lambda r: r["progressive_vs_baseline"])["workload"] if progressive else "n/a"
    found["progressive"] = Measured(
        mean("progressive_vs_baseline"),
        note=_text("progressive_note", counts=below("progressive_vs_baseline"), most=most),
        health=health("baseline", "progressive"),
    )
    known = [v for v in (_ratio_to_better(r) for r in rows) if v is not None]
    found["both_combined"] = Measured(
        sum(known) / len(known) if known else None,
        note=_text("both_combined_note", counts=_count_below(known)),
        health=health("baseline", "both"),
    )
    worst = _worst_row(rows, f"{COMBINED}_delay")
    found["all_worst"] = Measured(
        worst[f"{COMBINED}_delay"] if worst else None,
        note=_text("all_worst_note", row=worst) if worst else "",
        health=(_side_health([worst], ["no_soft"]), _side_health([worst], [COMBINED])) if worst else (),
    )
    two, four = mean("interleave_2_vs_baseline"), mean("interleave_4_vs_baseline")
    found["interleave"] = Measured(
        two, note=_text("interleave_note", counts=below("interleave_2_vs_baseline"), four=four), health=health("baseline", "interleave_2")
    )
    found["interleave_ranking"] = Measured(
        four / two if two and four else None,
        note=_text("interleave_ranking_note", two=two, four=four),
        health=health("interleave_2", "interleave_4"),
    )
    spans = [
        (
            c,
            _extent([r for r in table if r["errors"] == errors and r["channels"] == c], "baseline_delay"),
            _model_mean(table, "both_vs_baseline", errors, c),
        )
        for c in CHANNELS
    ]
    found["channels"] = Measured(None, text=_text("channels_text", spans=spans))
    found["look_ahead_energy"] = Measured(
        mean("look_ahead_access_energy_increase"),
        note=_text("look_ahead_energy_note", started=mean("look_ahead_started_share")),
        health=health("baseline", "look_ahead"),
    )
    found["progressive_energy"] = Measured(
        mean("progressive_decode_increase"), note=TEXTS["progressive_energy_note"], health=(_side_health(rows, ["progressive"]),)
    )
    found["both_energy"] = Measured(
        mean("both_sensing_decode_energy_change"), note=TEXTS["both_energy_note"], health=health("baseline", "both")
    )
    found["interleave_write_amplification"] = Measured(
        mean("interleave_4_write_amplification"), note=_text("write_amplification_note", two=mean("interleave_2_write_amplification"))
    )
    return found


def headlines(table: Sequence[Mapping[str, Any]], ordering: Sequence[Mapping[str, Any]] = ()) -> list[Headline]:
    """Each seed claim beside ours, under the one reading the seed's text supports (``GRADED_ERRORS``,
    8 channels, interleaving with its cost side, look-ahead energy as timed)."""
    found = measurements(table, GRADED_ERRORS)
    if not found:
        return []
    return [
        claim.measure(found[claim.key].value, note=found[claim.key].note, ours_text=found[claim.key].text, health=found[claim.key].health)
        for claim in CLAIMS
    ]


def seed_energy_pages(increase: float = SEED_LOOK_AHEAD_ENERGY, hard_failure: float = SEED_HARD_FAILURE) -> float:
    """The pages of soft results S that make a look-ahead charged as a complete soft read on every read
    cost ``increase`` over the two-step baseline, with the preset's (the seed's) per-page energies:
    baseline 2.4 + 3.7 + p (6 x 0.7 + 3.7 S) uJ a read, look-ahead + (1 - p)(6 x 0.7 + 3.7 S)."""
    energy = tomllib.loads(api.load_config(PRESET))
    levels = energy["read_path"]["soft_sensing_levels"]
    parts = energy["device"]["energy"]
    hard = parts["read_sense_uj"] + parts["page_transfer_uj"]
    # (1 - p) X = r (hard + p X), X = levels x level + page x S
    soft_read = increase * hard / (1 - hard_failure - increase * hard_failure)
    return (soft_read - levels * parts["extra_sensing_level_uj"]) / parts["page_transfer_uj"]


# The error models that use the block classes fitted to +35.2 %: a calibrated claim graded under them
# would be calibrated too.
FITTED_MODELS = (ONE_RATE, "blocks", DIES)


def _grade(claim: Claim, value: float | None, *, side: str | None = None, health: Sequence[Health] = (), errors: str | None = None) -> str:
    """The verdict ``value`` would get under ``claim``'s rule (``side``: the bound a reading states
    instead, e.g. Fig. 14 read as "below 20 %"). "Calibrated" where the claim is and ``errors`` (the
    reading's error model) uses the fitted block classes; the chips' spread does not, so the rule applies
    to it; a reading solved from the seed's number says so itself."""
    return verdict(
        claim.paper,
        value,
        form=BOUND if side else claim.resolved_form,
        side=side or claim.side,
        regime=claim.regime,
        arithmetic=claim.arithmetic,
        calibrated=bool(claim.calibrated) and errors in FITTED_MODELS,
        degenerate=any(h.degenerate for h in health),
    )


def _verdict_text(would: str, graded: str | None) -> str:
    """A reading's verdict beside the graded one, for its "why"."""
    if graded is None or would == graded:
        return f"under the claim's rule: {would}, as graded"
    return f"under the claim's rule: {would}; the verdict changes (graded reading: {graded})"


def readings(table: Sequence[Mapping[str, Any]], ordering: Sequence[Mapping[str, Any]] = ()) -> list[Reading]:
    """The other readings of the claims (never counted), each with the verdict it would get beside the
    graded one: every block's and the chips' own rates (every claim but the regime and the arithmetic
    one), interleaving's reliability side only, the adjacent 2-way pairs, the integrated scheme over 2
    channels as well, Fig. 14 read as "below 20 %", and the other look-ahead energy accountings.
    ``matched`` ("adopted because it matched") is computed: a reading picked after the fact or for
    being favourable (the reliability-only variants of the integrated scheme, run to find where "below
    20 %" holds; the adjacent pairs, chosen so that each weak chip meets a strong one; the energy
    accounting solved from +102.9 %) whose value meets the claim's rule."""
    found: list[Reading] = []
    graded = [r for r in table if r["errors"] == GRADED_ERRORS and r["channels"] == GRADED_CHANNELS]
    if not graded:
        return found
    claim = {c.key: c for c in CLAIMS}
    graded_verdict = {h.key: h.verdict for h in headlines(table)}
    for other in MODEL_ORDER[1:]:
        for key, measured in measurements(table, other).items():
            if claim[key].regime or claim[key].arithmetic:
                continue
            would = _grade(claim[key], measured.value, health=measured.health, errors=other)
            fitted = "" if not claim[key].calibrated else TEXTS["fitted_models" if other in FITTED_MODELS else "unfitted_models"]
            found.append(
                Reading(
                    key,
                    ERROR_MODEL_NAMES[other],
                    measured.value,
                    MODEL_ASSUMES[other],
                    False,
                    f"{MODEL_WHY[other]}; {_verdict_text(would, graded_verdict.get(key))}{fitted}",
                    value_text=measured.text or fmt(measured.value, claim[key].kind),
                )
            )
    free = RELIABILITY_ONLY
    # The integrated scheme under every other combination of error model, channel counts and
    # interleaving side (the graded one, and the other models on 8 channels with the cost side, are
    # above).
    integrated = claim["all_worst"]
    for errors in MODEL_ORDER:
        for channels in ((GRADED_CHANNELS,), CHANNELS):
            for reliability_only in (False, True):
                if channels == (GRADED_CHANNELS,) and not reliability_only:
                    continue
                worst = _worst(table, f"{COMBINED}{free if reliability_only else ''}_delay", errors, channels)
                value = worst[0] if worst else None
                would = _grade(integrated, value)
                held = would == REPRODUCED
                history = TEXTS["history"] if reliability_only and errors == "chips" and len(channels) > 1 else ""
                why = "; ".join(
                    ([TEXTS["not_cost"]] if reliability_only else [])
                    + ([_text("two_channels")] if len(channels) > 1 else [])
                    + ([] if errors == GRADED_ERRORS else [MODEL_WHY[errors]])
                    + ([TEXTS["after_the_fact"] + TEXTS["passes" if held else "misses"] + history] if reliability_only else [])
                    + [_verdict_text(would, graded_verdict.get("all_worst"))]
                )
                found.append(
                    Reading(
                        "all_worst",
                        ", ".join(
                            [ERROR_MODEL_NAMES[errors], " and ".join(map(str, channels)) + " channels"]
                            + ([TEXTS["reliability_only"]] if reliability_only else [])
                        ),
                        value,
                        "; ".join(
                            ([TEXTS["both_channel_counts"]] if len(channels) > 1 else [])
                            + [TEXTS["reliability" if reliability_only else "with_cost"]]
                        ),
                        False,
                        why,
                        value_text=f"{fmt(value, 'pct')} ({worst[1]})" if worst else "n/a",
                        matched=reliability_only and held,
                    )
                )
    for key, name in (("interleave", "interleave_2"), ("interleave_ranking", None)):
        if name:
            value = _mean(graded, f"{name}{free}_vs_baseline")
        else:
            two, four = _mean(graded, f"interleave_2{free}_vs_baseline"), _mean(graded, f"interleave_4{free}_vs_baseline")
            value = four / two if two and four else None
        why = f"{TEXTS['not_cost']}; {_verdict_text(_grade(claim[key], value), graded_verdict.get(key))}"
        found.append(Reading(key, TEXTS["reliability_only"], value, TEXTS["reliability"], False, why, value_text=fmt(value, "ratio")))
    # 2-way on the adjacent pairs, with the cost side (favourable: ``adjacent_why``).
    two_adjacent, four = _mean(graded, f"{ADJACENT}_vs_baseline"), _mean(graded, "interleave_4_vs_baseline")
    for key, value in (("interleave", two_adjacent), ("interleave_ranking", four / two_adjacent if two_adjacent and four else None)):
        would = _grade(claim[key], value)
        found.append(
            Reading(
                key,
                TEXTS["adjacent_name"],
                value,
                TEXTS["adjacent_assumes"],
                False,
                f"{_text('adjacent_why')}; {_verdict_text(would, graded_verdict.get(key))}"
                + (TEXTS["adjacent_matched"] if would == REPRODUCED else ""),
                value_text=fmt(value, "ratio"),
                matched=would == REPRODUCED,
            )
        )
    worst_both = _worst_row(graded, "both_delay")
    both_value = worst_both["both_delay"] if worst_both else None
    found.append(
        Reading(
            "both_combined",
            TEXTS["both_below_name"],
            both_value,
            TEXTS["both_below_assumes"],
            False,
            f"{TEXTS['both_below_why']}; {_verdict_text(_grade(claim['both_combined'], both_value, side='< 0.2'), None)}",
            value_text=f"{fmt(both_value, 'pct')} ({worst_both['workload']})" if worst_both else "n/a",
        )
    )
    preset = _preset()
    energy_claim = claim["look_ahead_energy"]
    for accounting, why, solved in (
        ("access_full", TEXTS["access_full_why"], False),
        ("access_soft_read", _text("soft_read_why", soft_transfer=_soft_transfer_text(preset)), False),
        (
            "access_soft_read_3",
            _text("solved_why", seed_pages=seed_energy_pages(), soft_pages=soft_read_pages(preset), seed_us=SEED_SOFT_TRANSFER_US),
            True,
        ),
    ):
        value = _mean(graded, "look_ahead_access_energy_increase" + accounting.removeprefix("access"))
        would = _grade(energy_claim, value)
        if solved:
            # Solved from the seed's number: as a claim it would be calibrated, whatever its value.
            verdict_text = (
                f"graded under it, the claim would be {CALIBRATED} (graded reading: {graded_verdict.get('look_ahead_energy')}); its value "
                + (
                    "meets the claim's rule, so it is labelled adopted because it matched"
                    if would == REPRODUCED
                    else "misses the claim's rule"
                )
            )
        else:
            verdict_text = _verdict_text(would, graded_verdict.get("look_ahead_energy"))
        found.append(
            Reading(
                "look_ahead_energy",
                accounting,
                value,
                accounting_text(accounting, preset),
                False,
                f"{why}; {verdict_text}",
                fmt(value, "pct"),
                solved and would == REPRODUCED,
            )
        )
    return found


class Figure(NamedTuple):
    """A seed figure redrawn: grouped bars per workload on ``channels``, one series per (row key,
    legend, colour), against 1.0."""

    name: str
    channels: int
    series: tuple[tuple[str, str, str], ...]
    ylabel: str
    title: str


COLOURS = {"baseline": "#444444", "look_ahead": "#1f77b4", "progressive": "#ff7f0e", "both": "#2ca02c"}
OVER_BASELINE = "read response time / baseline"
FIGURES = (
    Figure(
        "fig11",
        8,
        (("baseline_vs_no_soft", "two-step baseline", COLOURS["baseline"]),),
        "read response time / no soft sensing",
        "Fig. 11: two-step read at 10,000 P/E vs no soft sensing (8 channels)",
    ),
    Figure(
        "fig12_14",
        8,
        (
            ("look_ahead_vs_baseline", "look-ahead (Fig. 12)", COLOURS["look_ahead"]),
            ("progressive_vs_baseline", "progressive (Fig. 13)", COLOURS["progressive"]),
            ("both_vs_baseline", "both (Fig. 14)", COLOURS["both"]),
        ),
        OVER_BASELINE,
        "Fig. 12-14: look-ahead, progressive and both, normalised to the baseline (8 channels)",
    ),
    Figure(
        "fig15",
        8,
        (
            ("interleave_2_vs_baseline", "2-way interleaving", "#9467bd"),
            ("interleave_4_vs_baseline", "4-way interleaving", "#8c564b"),
            ("all_vs_baseline", "look-ahead + progressive + 4-way", "#17becf"),
        ),
        OVER_BASELINE,
        "Fig. 15: data placement interleaving with the two-step read, normalised to the baseline (8 channels)",
    ),
    Figure(
        "fig17",
        2,
        (
            ("look_ahead_vs_baseline", "look-ahead", COLOURS["look_ahead"]),
            ("progressive_vs_baseline", "progressive", COLOURS["progressive"]),
            ("both_vs_baseline", "both", COLOURS["both"]),
        ),
        OVER_BASELINE,
        "Fig. 17: the techniques on 2 channels, normalised to the baseline",
    ),
)


def figures(table: Sequence[Mapping[str, Any]], out: Path, suffix: str = "", regime: str = "") -> dict[str, Path]:
    """``FIGURES`` through ``ssdlab.plotting``: Seed 002 Fig. 11, 12-14, 15 and 17; ``suffix`` names
    the files of one error model, ``regime`` goes in the titles."""
    paths: dict[str, Path] = {}
    table = [dict(r, baseline_vs_no_soft=(None if r["baseline_delay"] is None else 1 + r["baseline_delay"])) for r in table]
    for figure in FIGURES:
        rows = [r for r in table if r["channels"] == figure.channels]
        paths[f"{figure.name}{suffix} (PNG)"], paths[f"{figure.name}{suffix} (SVG)"] = plotting.grouped_bars(
            [r["workload"] for r in rows],
            {legend: [r[key] for r in rows] for key, legend, _ in figure.series},
            out / f"{figure.name}{suffix}",
            ylabel=figure.ylabel,
            title=f"{figure.title}, {regime}" if regime else figure.title,
            colours={legend: colour for _, legend, colour in figure.series},
            reference=1.0,
        )
    return paths


class LdpcRead(Recipe):
    name = RECIPE_NAME
    seed = SEED
    title = "LDPC read strategies"
    help = (
        "Seed 002: two-step, look-ahead, progressive, interleaved and combined LDPC reads, 6 workloads x 8/2 channels x three error "
        "models (one rate for every read, graded; every block's and the chips' own rates, readings); Fig. 11-15, 17 and a report "
        "putting each seed figure beside ours."
    )
    claims = CLAIMS
    fits = FITS
    options = (
        Option(
            "synthetic_requests", ("--synthetic-requests",), int, SYNTHETIC_REQUESTS, "Requests of each synthetic workload and stand-in."
        ),
        Option(
            "interleave_frames",
            ("--interleave-frames",),
            int,
            INTERLEAVE_FRAMES,
            "ECC Monte Carlo frames per table row, page type and precision for the tables the recipe computes (block spread, interleaving).",
        ),
    )

    def workloads(self) -> Sequence[Workload]:
        return workloads()

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
        synthetic_requests: int = SYNTHETIC_REQUESTS,
        interleave_frames: int = INTERLEAVE_FRAMES,
    ) -> report.Reproduction:
        return _run(
            out,
            synthetic_requests=synthetic_requests,
            interleave_frames=interleave_frames,
            traces=traces,
            only=workloads,
            scheduler=scheduler,
            workers=workers,
            progress=progress,
        )


RECIPE = LdpcRead()
reproduce = RECIPE.reproduce


def _mean(table: Sequence[Mapping[str, Any]], key: str) -> float | None:
    values = [r[key] for r in table if r[key] is not None]
    return sum(values) / len(values) if values else None


def _model_mean(table: Sequence[Mapping[str, Any]], key: str, errors: str, channels: int = 8) -> float | None:
    return _mean([r for r in table if r["errors"] == errors and r["channels"] == channels], key)


def _preset() -> dict[str, Any]:
    return tomllib.loads(api.load_config(PRESET))


def _page_transfer_us(preset: Mapping[str, Any] | None = None) -> float:
    """One page's time on the channel at the preset's bus rate (4 KiB at 200 MB/s: 20.48 us)."""
    preset = preset or _preset()
    geometry, channel = preset["device"]["geometry"], preset["device"]["channel"]
    return geometry["page_size_bytes"] / (channel["transfer_rate_mts"] * channel["bus_width_bits"] / 8)


def _soft_transfer_text(preset: Mapping[str, Any] | None = None) -> str:
    """The soft results' transfer as the preset sets it (``read_path.soft_transfer_latency_ns``, the
    seed's §2.3 figure), in pages at the preset's bus rate; or one page per extra level where it is not
    set. Time and energy use the same count."""
    preset = preset or _preset()
    return _render(
        "ldpc_read_soft_transfer.md.j2",
        soft_ns=preset["read_path"].get("soft_transfer_latency_ns") or 0,
        preset_name=PRESET,
        seed_us=SEED_SOFT_TRANSFER_US,
        pages=soft_read_pages(preset),
        page_us=_page_transfer_us(preset),
        levels=preset["read_path"]["soft_sensing_levels"],
    ).rstrip("\n")


PER_WORKLOAD_TITLE = "Per workload: writes, energy and the cost side"


def _chips(groups: Sequence[Sequence[int]]) -> str:
    """Chip groups in the seed's numbering (from 1): ``[[0, 2], [1, 3]]`` as "1-3 and 2-4"."""
    return " and ".join("-".join(str(chip + 1) for chip in group) for group in groups)


def _render(name: str, **values: Any) -> str:
    """A template of this recipe filled with ``values`` and the seed's sentences (``quote``)."""
    return render(name, quote=QUOTES, **values)


def _text(part: str, **values: Any) -> str:
    """One short text of ``ldpc_read_texts.md.j2`` (``part``: a headline's note, a reading's "assumes" or "why")."""
    return _render("ldpc_read_texts.md.j2", part=part, **values).rstrip("\n")


def _extent(rows: Sequence[Mapping[str, Any]], key: str) -> tuple[tuple[float, str], tuple[float, str]] | None:
    """The smallest and largest ``key`` over ``rows``, each with its workload."""
    values = [(r[key], r["workload"]) for r in rows if r[key] is not None]
    return (min(values), max(values)) if values else None


def _count_below(values: Sequence[float | None]) -> tuple[int, int]:
    """How many of the known ``values`` are below 1, and how many are known."""
    known = [v for v in values if v is not None]
    return sum(v < 1 for v in known), len(known)


def _model_view(table: Sequence[Mapping[str, Any]], errors: str) -> dict[str, Any]:
    """What the figure table says of one error model (8 channels unless named): its means, worst rows,
    spans and counts."""
    rows = [r for r in table if r["errors"] == errors and r["channels"] == GRADED_CHANNELS]
    two_channels = [r for r in table if r["errors"] == errors and r["channels"] == 2]
    free = RELIABILITY_ONLY
    progressive = sorted((r for r in rows if r["progressive_vs_baseline"] is not None), key=lambda r: r["progressive_vs_baseline"])
    websearch = next((i + 1 for i, r in enumerate(progressive) if r["workload"].startswith("WebSearch")), None)
    view = {
        key: _mean(rows, column)
        for key, column in (
            ("write_mean", "baseline_write_delay"),
            ("look_ahead", "look_ahead_vs_baseline"),
            ("progressive", "progressive_vs_baseline"),
            ("hard", "hard_failure_fraction"),
            ("two", "interleave_2_vs_baseline"),
            ("four", "interleave_4_vs_baseline"),
            ("two_free", f"interleave_2{free}_vs_baseline"),
            ("four_free", f"interleave_4{free}_vs_baseline"),
            ("all", f"{COMBINED}_vs_baseline"),
            ("decode_increase", "progressive_decode_increase"),
            ("both_energy", "both_sensing_decode_energy_change"),
            ("write_amplification_four", "interleave_4_write_amplification"),
            ("write_amplification_two", "interleave_2_write_amplification"),
            ("look_ahead_started", "look_ahead_started_share"),
        )
    }
    return view | {
        "name": ERROR_MODEL_NAMES[errors],
        "baseline_span": _extent(rows, "baseline_delay"),
        "baseline_span_two": _extent(two_channels, "baseline_delay"),
        "both_span_two": _extent(two_channels, "both_delay"),
        "write_worst": _worst_row(rows, "baseline_write_delay"),
        "look_ahead_below": _count_below([r["look_ahead_vs_baseline"] for r in rows]),
        "better_below": _count_below([_ratio_to_better(r) for r in rows]),
        "progressive_best": progressive[0] if progressive else None,
        "progressive_runs": len(progressive),
        "websearch_rank": websearch,
        "worst_baseline": _worst_row(rows, "baseline_delay"),
        "worst_both": _worst_row(rows, "both_delay"),
        "all_worst": _worst(table, f"{COMBINED}_delay", errors, (8,)),
        "all_worst_two": _worst(table, f"{COMBINED}_delay", errors, (2,)),
        "all_worst_free": _worst(table, f"{COMBINED}{free}_delay", errors, (8,)),
        "energy": {
            accounting: _mean(rows, "look_ahead_access_energy_increase" + accounting.removeprefix("access"))
            for accounting in ENERGY_ACCOUNTINGS
        },
    }


def _cost_side(table: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Interleaving's cost side in all three under the graded reading (``all_cost_side_price``, as the
    per-workload table shows it): its highest and lowest price, and the two synthetic mixes' (which
    differ only in their read share) where both ran."""
    price = {
        r["workload"]: r["all_cost_side_price"]
        for r in table
        if r["errors"] == GRADED_ERRORS and r["channels"] == GRADED_CHANNELS and r["all_cost_side_price"] is not None
    }
    if not price:
        return None
    synthetic = (price.get("Synthetic1"), price.get("Synthetic2"))
    return {
        "high": max(price.items(), key=lambda kv: kv[1]),
        "low": min(price.items(), key=lambda kv: kv[1]),
        "synthetic": None if None in synthetic else synthetic,
    }


def _common_values(tables: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The values every template of the recipe may name: the preset's, the recipe's constants and the
    decoding tables' means."""
    preset = _preset()
    tables = tables or {}
    chip_classes = preset["read_path"]["decoding"]["failure_probabilities"]
    # The decoding tables' mean hard-decision failure: the preset's chip table, then the recipe's.
    table_hard = {key: t["mean"][0] for key, t in tables.items()}
    table_hard.setdefault("chips/base", sum(c[0] for c in chip_classes) / len(chip_classes))
    return {
        "preset": preset,
        "chip_hard": [c[0] for c in chip_classes],
        "table_hard": table_hard,
        "one_rate": (tables.get(f"{ONE_RATE}/base") or {}).get("mean", [None])[0],
        "soft_pages": soft_read_pages(preset),
        "soft_transfer": _soft_transfer_text(preset),
        "graded_name": ERROR_MODEL_NAMES[GRADED_ERRORS],
        "graded_channels": GRADED_CHANNELS,
        "pairs": _chips(INTERLEAVE_GROUPS["interleave_2"]),
        "adjacent": _chips(ADJACENT_PAIRS),
        "synthetic_iops": 1e9 / SYNTHETIC_INTERARRIVAL_NS,
        "rate_steps": RATE_STEPS,
        "per_workload_title": PER_WORKLOAD_TITLE,
        "block_factors_fit": BLOCK_FACTORS_FIT,
        "wear_fit": WEAR_FIT,
    }


def _figure_rows(table: Sequence[Mapping[str, Any]], tables: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """Each seed figure beside ours, under the graded reading (one rate) and the other error models,
    and what remains different (``ldpc_read_figures.md.j2``). Every number is computed from ``table``,
    the decoding ``tables`` and the preset; the notes speak of the graded reading (8 channels) unless
    they name another."""
    values = _common_values(tables)
    preset = values["preset"]
    return _render(
        "ldpc_read_figures.md.j2",
        models=[_model_view(table, errors) for errors in MODEL_ORDER],
        # What a look-ahead saves on a failed read: one page at the bus rate plus the decode.
        saved_us=_page_transfer_us(preset) + preset["read_path"]["decode_latency_ns"] / 1000,
        two_adjacent=_model_mean(table, f"{ADJACENT}_vs_baseline", GRADED_ERRORS),
        cost=_cost_side(table),
        program_ms=preset["device"]["nand"]["program_latency_ns"][-1] / 1e6,
        energy_uj=preset["device"]["energy"],
        seed_pages=seed_energy_pages(),
        **values,
    ).rstrip("\n")


def verdict_changes(table: Sequence[Mapping[str, Any]], errors: str) -> list[tuple[Claim, str, str, str]]:
    """The claims whose verdict differs under the error model ``errors`` (8 channels): (claim, graded
    verdict, the verdict under ``errors``, its value as shown)."""
    graded = {h.key: h.verdict for h in headlines(table)}
    other = measurements(table, errors)
    changes = []
    for claim in CLAIMS:
        if claim.regime or claim.arithmetic or claim.key not in other or claim.key not in graded:
            continue
        measured = other[claim.key]
        would = _grade(claim, measured.value, health=measured.health, errors=errors)
        if would != graded[claim.key]:
            changes.append((claim, graded[claim.key], would, measured.text or fmt(measured.value, claim.kind)))
    return changes


def _grading_section(table: Sequence[Mapping[str, Any]], tables: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """Why each part of the graded reading is the one the seed's text supports, the constants fitted to
    the seed's numbers, the choices that shape the result, and which verdicts the other error models
    would change (computed)."""
    return _render(
        "ldpc_read_grading.md.j2",
        changes=[
            {"name": ERROR_MODEL_NAMES[errors], "changes": verdict_changes(table, errors) if table else []} for errors in MODEL_ORDER[1:]
        ],
        counted=sum(not (c.regime or c.arithmetic) for c in CLAIMS),
        seed_soft_transfer_us=SEED_SOFT_TRANSFER_US,
        gang_chips=GANG_CHIPS,
        dies_name=ERROR_MODEL_NAMES[DIES],
        **_common_values(tables),
    )


# The columns of Fig. 11's order: the graded reading's, then each reading's delay and place.
ORDER_COLUMNS = (
    ("place (least delayed first)", "place", "int"),
    ("workload", "workload", "text"),
    (f"delay, {ERROR_MODEL_NAMES[GRADED_ERRORS]} (graded)", "delay", "pct"),
    ("read requests with a hard failure", "requests failing", "share"),
    ("pages per read request", "pages", "sig"),
    *((f"delay, {ERROR_MODEL_NAMES[e]} (a reading; place)", e, "text") for e in MODEL_ORDER[1:]),
)


def _fig11_order_section(table: Sequence[Mapping[str, Any]]) -> str:
    """Fig. 11's order under the graded reading: the workloads from the least to the most delayed (the
    two-step baseline over no soft sensing, 8 channels), each with what drives its delay, beside the
    seed's two ends, and each reading's delay and place."""

    def ranked(errors: str) -> list[Mapping[str, Any]]:
        rows = [r for r in table if r["errors"] == errors and r["channels"] == GRADED_CHANNELS and r["baseline_delay"] is not None]
        return sorted(rows, key=lambda r: r["baseline_delay"])

    graded = ranked(GRADED_ERRORS)
    if not graded:
        return ""
    others = {errors: {r["workload"]: (place, r) for place, r in enumerate(ranked(errors), 1)} for errors in MODEL_ORDER[1:]}
    entries = [
        {
            "place": place,
            "workload": row["workload"],
            "delay": row["baseline_delay"],
            "requests failing": row["request_hard_failure_fraction"],
            "pages": row["read_request_pages"],
        }
        | {
            errors: f"{fmt(found[row['workload']][1]['baseline_delay'], 'pct')} ({_ordinal(found[row['workload']][0])})"
            if row["workload"] in found
            else "n/a"
            for errors, found in others.items()
        }
        for place, row in enumerate(graded, 1)
    ]
    return _render("ldpc_read_fig11_order.md.j2", ranked=graded, places_table=markdown_table(entries, ORDER_COLUMNS), **_common_values())


LADDER_COLUMNS = (
    ("step", "step", "text"),
    ("read mean us, no soft sensing", "no_soft_read_mean_us", "us"),
    ("read mean us, baseline", "baseline_read_mean_us", "us"),
    ("delay", "baseline_delay", "pct"),
    ("hard fails (page reads)", "hard_failure_fraction", "share"),
    ("hard fails (read requests)", "request_hard_failure_fraction", "share"),
    ("gangs busy, no soft sensing", "gang_utilisation", "share"),
)


def _ordering_section(ordering: Sequence[Mapping[str, Any]], requests: int = ORDERING_REQUESTS) -> str:
    """The one-property-at-a-time ladder (``requests`` per synthetic step): its table and what moves
    the delay: the biggest single change towards Postmark, DiskSim's sizes and the synthetic rate."""
    if not ordering:
        return ""
    by_step = {r["step"]: r for r in ordering}
    base = by_step.get("Synthetic2 (base)")
    moved = [
        {"step": r["step"], "change": r["baseline_delay"] - base["baseline_delay"]}
        for r in ordering
        if base and base["baseline_delay"] is not None and r["step"] in TOWARDS_POSTMARK and r["baseline_delay"] is not None
    ]
    biggest = max(moved, key=lambda m: abs(m["change"])) if moved else None
    rates = []
    for mix in ("Synthetic1", "Synthetic2"):
        steps = [(1e9 / SYNTHETIC_INTERARRIVAL_NS, by_step.get(f"{mix} (base)"))] + [
            (iops, by_step.get(rate_step(mix, iops))) for iops in RATE_STEPS
        ]
        shown = [
            (iops, row["baseline_delay"], row.get("gang_utilisation")) for iops, row in steps if row and row["baseline_delay"] is not None
        ]
        if shown:
            rates.append((mix, shown))
    return _render(
        "ldpc_read_ladder.md.j2",
        requests=requests,
        steps_table=markdown_table(ordering, LADDER_COLUMNS),
        base=base["baseline_delay"] if biggest else None,
        biggest=biggest,
        rest=[m for m in moved if m is not biggest and m["step"] != (biggest or {}).get("step")],
        disksim=[r["baseline_delay"] for r in ordering if r["step"] == DISKSIM_SIZES and r["baseline_delay"] is not None],
        rates=rates,
        postmark_read_fraction=POSTMARK_READ_FRACTION,
        postmark_mbps=4096 / POSTMARK_INTERARRIVAL_NS * 1e3,
        **_common_values(),
    )


def _report(
    selected: Sequence[Workload],
    table: Sequence[Mapping[str, Any]],
    figures: Mapping[str, Path],
    outcome: Any,
    scheduler: str | None,
    tables: Mapping[str, Mapping[str, Any]],
    ordering: Sequence[Mapping[str, Any]] = (),
    ordering_requests: int = ORDERING_REQUESTS,
) -> str:
    """The report (``ldpc_read.md.j2``) from its sections and the values they name."""
    config = api.load_config(PRESET)
    values = _common_values(tables)
    sizes, weights = disksim_example_sizes()
    return _render(
        "ldpc_read.md.j2",
        provenance=provenance("ssdlab reproduce ldpc-read", outcome, scheduler),
        grading=_grading_section(table, tables),
        figure_rows=_figure_rows(table, tables),
        fig11_order=_fig11_order_section(table),
        ordering=_ordering_section(ordering, ordering_requests),
        results=_table_markdown(table),
        per_workload=_per_workload_markdown(table),
        workloads=selected,
        figures=figures,
        config=config,
        decoding_tables=tables,
        block_factors=BLOCK_FACTORS,
        chip_hard_mean=sum(values["chip_hard"]) / len(values["chip_hard"]),
        disksim={
            "mean_size_sectors": DISKSIM_MEAN_SIZE_SECTORS,
            "blocking_sectors": DISKSIM_BLOCKING_SECTORS,
            "one_page": weights[0],
            "mean_pages": disksim_mean_pages(),
            "interarrival_ms": DISKSIM_INTERARRIVAL_NS / 1e6,
            "iops": 1e9 / DISKSIM_INTERARRIVAL_NS,
        },
        preset_name=PRESET,
        channel_factor=CHANNELS[0] // CHANNELS[1],
        level_us=values["preset"]["read_path"]["extra_sensing_latency_ns"] / 1000,
        pair_groups=INTERLEAVE_GROUPS["interleave_2"],
        adjacent_groups=ADJACENT_PAIRS,
        **values,
    )
