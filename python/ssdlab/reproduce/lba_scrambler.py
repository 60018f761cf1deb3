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
  scrambler (it learns the deletes; the FTL does not).
* each with greedy and with round-robin victim selection (seed 004, by the same lab, calls round robin
  the conventional policy);
* the rule-1 threshold swept on the fresh drive (rule 1 never fires on an aged drive: it is full).

Plus a file-churn study (``CHURN``): a workload that deletes as it writes, on a fresh drive.

Every point replays until the host has written ``MEASURED_FOOTPRINT_WRITES`` x the workload's data, so GC
counts compare across free-space levels (equal host writes), after preconditioning to GC steady state.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ssdlab import api, plotting
from ssdlab.locations import shared_dir, shared_trace
from ssdlab.reproduce import report
from ssdlab.reproduce.base import Claim, Headline, Option, Recipe, Workload
from ssdlab.reproduce.report import fmt, markdown_grid, markdown_table, provenance
from ssdlab.sweep import Sweep, SweepError, run_sweep

PRESET = "seed003-scrambler"
FREE_FRACTIONS = (0.2, 0.4, 0.6, 0.8)
# A case counts as fewer (or more) GCs or copies only when the reduction exceeds this share; the
# seed's bars are all visibly above zero, and smaller differences are a block or two of GC.
SIGNIFICANT = 0.05
GC_POLICIES = ("greedy", "round_robin")
DRIVES = ("fresh", "aged")
# Variants per drive: (name, middleware, where deletes go). On a fresh drive nothing is deleted, so
# "with TRIM" would be the conventional run again.
VARIANTS = {
    "fresh": (("conventional", "none", "none"), ("scrambler", "lba_scrambler", "middleware")),
    "aged": (("conventional", "none", "none"), ("trim", "none", "ftl"), ("scrambler", "lba_scrambler", "middleware")),
}
# Rule-1 thresholds swept on the fresh drive (0.5, the default, is in the main grid; 1.0 turns rule 1 off).
RULE1_THRESHOLDS = (0.3, 0.7, 1.0)
PAGE_BYTES = 16384
PLANES = 4  # the preset's 2 channels x 2 chips x 1 die x 1 plane
PAGES_PER_BLOCK = 256
GIB = 1 << 30
# Host page writes in the measured replay, as a multiple of the workload's data (equal for every
# free-space level, variant and drive of a workload).
MEASURED_FOOTPRINT_WRITES = 1.0
# Closed-loop queue depth of the measured replay.
QUEUE_DEPTH = 16
# The aged drive's hidden flash: this, or the GC reserve when that is larger.
AGED_OVERPROVISIONING = 0.07
DEFAULT_STAND_IN_CAP_BYTES = 1 * GIB


@dataclass(frozen=True)
class Churn:
    """The file-churn study: a workload that deletes as it writes, on a fresh drive."""

    free_fraction: float = 0.4
    data_bytes: float = 0.5 * GIB
    delete_fractions: tuple[float, ...] = (0.1, 0.3)
    read_fraction: float = 0.175
    sizes: tuple[tuple[int, float], ...] = ((16384, 0.5), (65536, 0.3), (262144, 0.2))
    variants: tuple[tuple[str, str, str, str], ...] = (
        ("conventional", "none", "none", "all"),
        ("trim", "none", "ftl", "all"),
        ("scrambler", "lba_scrambler", "middleware", "all"),
        ("scrambler_first_writes", "lba_scrambler", "middleware", "first_writes"),
    )


CHURN = Churn()


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

# The seed's findings (its figures carry no numbers in the text copy; these are its stated results).
SEED_FINDINGS = {
    "gc_count": "fewer GC operations in every case (Fig. 4a)",
    "pages_copied": "fewer pages copied during GC in every case (Fig. 4b)",
    "write_performance": "write performance up by up to 2.2x, the most on src1_0 (Fig. 5)",
}


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


def aged_drive(footprint_pages: int, free: float, is_trace: bool) -> list[str]:
    """A drive whose file system holds data / (1 - free) of exported capacity, with spare flash hidden
    beyond it; filled, then scattered extents deleted until only the workload's data is live: the file
    system's free space holds deleted data."""
    exported_target = math.ceil(footprint_pages / (1.0 - free))
    per_block_row = PLANES * PAGES_PER_BLOCK
    blocks_per_plane = math.ceil(exported_target / (1.0 - AGED_OVERPROVISIONING) / per_block_row)
    # GC needs high watermark + open blocks + one of slack per plane hidden (see the FTL's check).
    blocks_per_plane = max(blocks_per_plane, math.ceil(exported_target / per_block_row) + 6)
    total = blocks_per_plane * per_block_row
    overprovisioning = 1.0 - exported_target / total
    exported = math.floor(total * (1.0 - overprovisioning))  # as the simulator computes it
    live = footprint_pages / exported
    return [
        'ftl.sizing="geometry"',
        f"device.geometry.blocks_per_plane={blocks_per_plane}",
        f"ftl.overprovisioning_fraction={overprovisioning!r}",
        "ftl.precondition.fill_fraction=1.0",
        'ftl.precondition.fill_order="sequential"',
        f"ftl.precondition.live_fraction={live!r}",
        "ftl.precondition.delete_extent_min_pages=1",
        "ftl.precondition.delete_extent_max_pages=64",
        f"ftl.precondition.overwrite_passes={2.0 / (1.0 - free)}",
    ] + (["host.compact_addresses=true"] if is_trace else [])


def _variant(middleware: str, delete_target: str, rule2: str = "all") -> list[str]:
    return [f'middleware.kind="{middleware}"', f'host.delete_target="{delete_target}"', f'middleware.lba_scrambler.rule2_writes="{rule2}"']


def _label(*parts: object) -> str:
    return "|".join(str(p) for p in parts)


def build_sweep(plans: Sequence[WorkloadPlan], churn: Churn | None = CHURN, churn_cap_bytes: float | None = None) -> Sweep:
    points: dict[str, list[str]] = {}
    for plan in plans:
        workload = plan.overrides + plan.measured
        for free in FREE_FRACTIONS:
            drives = {"fresh": fresh_drive(free), "aged": aged_drive(plan.footprint_pages, free, plan.is_trace)}
            for drive in DRIVES:
                for gc in GC_POLICIES:
                    for name, middleware, target in VARIANTS[drive]:
                        points[_label("main", plan.label, free, drive, gc, name)] = (
                            workload + drives[drive] + [f'ftl.garbage_collection.policy="{gc}"'] + _variant(middleware, target)
                        )
            for threshold in RULE1_THRESHOLDS:
                points[_label("rule1", plan.label, free, "fresh", "greedy", threshold)] = (
                    workload
                    + drives["fresh"]
                    + ['ftl.garbage_collection.policy="greedy"']
                    + _variant("lba_scrambler", "middleware")
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
                for name, middleware, target, rule2 in churn.variants:
                    points[_label("churn", fraction, churn.free_fraction, "fresh", gc, name)] = (
                        workload
                        + fresh_drive(churn.free_fraction)
                        + [f'ftl.garbage_collection.policy="{gc}"']
                        + _variant(middleware, target, rule2)
                    )
    common = [
        'host.mode="closed_loop"',
        f"host.queue_depth={QUEUE_DEPTH}",
        "ftl.precondition.enabled=true",
        "verification.integrity_oracle=false",
    ]
    return Sweep(name="seed003-lba-scrambler", base=PRESET, common=common, cases={"point": points}, origin="reproduce lba-scrambler")


def _metrics(row: Mapping[str, Any] | None) -> dict[str, Any]:
    """The numbers a table needs from one point (None values when it failed or is missing)."""
    ok = row is not None and row["status"] == "ok"
    result = json.loads(row["result_json"]) if ok else {}
    dead = result.get("dead_data") or {}
    middleware = result.get("middleware") or {}
    attempts = middleware.get("rule2_attempts", 0)
    return {
        "status": "ok" if ok else (row["error"] if row is not None else "missing"),
        "gc_count": result["gc"]["blocks_collected"] if ok else None,
        "gc_invocations": result["gc"]["invocations"] if ok else None,
        "pages_copied": result["gc"]["pages_copied"] if ok else None,
        "write_mbps": result["write"]["mbps"] if ok else None,
        "write_amplification": result["write_amplification"] if ok else None,
        "host_pages_written": result["host_pages_written"] if ok else None,
        "dead_pages_copied": dead.get("gc_pages_copied") if ok else None,
        "dead_pages_held": dead.get("pages_held") if ok else None,
        "rule1_writes": middleware.get("rule1_empty_page_writes") if ok else None,
        "rule2_writes": middleware.get("rule2_victim_page_writes") if ok else None,
        "rule3_writes": middleware.get("rule3_other_page_writes") if ok else None,
        "rule2_hit_rate": (middleware.get("rule2_victim_page_writes", 0) / attempts if attempts else None) if ok and middleware else None,
        "fragmented_pages": middleware.get("fragmented_pages") if ok else None,
    }


def _reduction(before: float | None, after: float | None) -> float | None:
    if before is None or after is None:
        return None
    if before == 0:
        return 0.0 if after == 0 else None
    return 1.0 - after / before


def _ratio(after: float | None, before: float | None) -> float | None:
    return after / before if after is not None and before else None


def _compare(entry: dict[str, Any], base: str, other: str, prefix: str) -> None:
    entry[f"{prefix}gc_count_reduction"] = _reduction(entry.get(f"{base}_gc_count"), entry.get(f"{other}_gc_count"))
    entry[f"{prefix}pages_copied_reduction"] = _reduction(entry.get(f"{base}_pages_copied"), entry.get(f"{other}_pages_copied"))
    entry[f"{prefix}write_performance_ratio"] = _ratio(entry.get(f"{other}_write_mbps"), entry.get(f"{base}_write_mbps"))


def build_tables(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The main table (workload x free x drive x GC policy, variants side by side), the rule-1 sweep
    and the churn study."""
    by_label = {row["point.point"]: row for row in rows}
    groups: dict[str, dict[tuple, dict[str, Mapping[str, Any]]]] = {"main": {}, "rule1": {}, "churn": {}}
    for label, row in by_label.items():
        kind, workload, free, drive, gc, variant = label.split("|")
        groups[kind].setdefault((workload, float(free), drive, gc), {})[variant] = row
    main = []
    for (workload, free, drive, gc), variants in groups["main"].items():
        entry: dict[str, Any] = {"workload": workload, "free_fraction": free, "drive": drive, "gc_policy": gc}
        for name, _, _ in VARIANTS[drive]:
            entry.update({f"{name}_{k}": v for k, v in _metrics(variants.get(name)).items()})
        _compare(entry, "conventional", "scrambler", "")
        if drive == "aged":
            _compare(entry, "conventional", "trim", "trim_")
        main.append(entry)
    conventional = {(r["workload"], r["free_fraction"]): r for r in main if r["drive"] == "fresh" and r["gc_policy"] == "greedy"}
    rule1 = []
    for (workload, free, _, _), variants in groups["rule1"].items():
        for threshold, row in variants.items():
            base = conventional.get((workload, free), {})
            entry = {"workload": workload, "free_fraction": free, "plentiful_free_fraction": float(threshold)}
            entry.update({f"conventional_{k}": base.get(f"conventional_{k}") for k in ("gc_count", "pages_copied", "write_mbps")})
            entry.update({f"scrambler_{k}": v for k, v in _metrics(row).items()})
            _compare(entry, "conventional", "scrambler", "")
            rule1.append(entry)
    # The main grid's default threshold (0.5) belongs in the sweep too.
    for (workload, free), base in conventional.items():
        entry = {"workload": workload, "free_fraction": free, "plentiful_free_fraction": 0.5}
        entry.update({k: v for k, v in base.items() if k.startswith(("conventional_", "scrambler_"))})
        _compare(entry, "conventional", "scrambler", "")
        rule1.append(entry)
    churn = []
    for (fraction, free, _, gc), variants in groups["churn"].items():
        entry = {"delete_fraction": float(fraction), "free_fraction": free, "gc_policy": gc}
        for name, *_ in CHURN.variants:
            entry.update({f"{name}_{k}": v for k, v in _metrics(variants.get(name)).items()})
        _compare(entry, "conventional", "scrambler", "")
        _compare(entry, "conventional", "scrambler_first_writes", "first_writes_")
        _compare(entry, "conventional", "trim", "trim_")
        churn.append(entry)
    order = {name: i for i, name in enumerate(dict.fromkeys(r["workload"] for r in main))}
    main.sort(key=lambda r: (DRIVES.index(r["drive"]), GC_POLICIES.index(r["gc_policy"]), order[r["workload"]], r["free_fraction"]))
    rule1.sort(key=lambda r: (order.get(r["workload"], 0), r["free_fraction"], r["plentiful_free_fraction"]))
    churn.sort(key=lambda r: (r["delete_fraction"], GC_POLICIES.index(r["gc_policy"])))
    return {"main": main, "rule1": rule1, "churn": churn}


def _main_table_markdown(rows: Sequence[Mapping[str, Any]], drive: str, gc: str) -> str:
    def arrow(key: str, kind: str) -> Callable[[Mapping[str, Any]], str]:
        return lambda r: f"{fmt(r['conventional_' + key], kind)} → {fmt(r['scrambler_' + key], kind)}"

    columns = [
        ("workload", "workload", "text"),
        ("free", lambda r: f"{r['free_fraction']:.0%}", "text"),
        ("GC count conv. → scr.", arrow("gc_count", "int"), "text"),
        ("GC count", "gc_count_reduction", "pct"),
        ("pages copied conv. → scr.", arrow("pages_copied", "int"), "text"),
        ("copies", "pages_copied_reduction", "pct"),
        ("write MB/s conv. → scr.", arrow("write_mbps", "f"), "text"),
        ("write perf.", "write_performance_ratio", "times"),
        ("dead pages copied conv. → scr.", arrow("dead_pages_copied", "int"), "text"),
        ("rule-2 hit rate", "scrambler_rule2_hit_rate", "share"),
    ]
    if drive == "aged":
        columns += [
            ("TRIM: GC count", "trim_gc_count_reduction", "pct"),
            ("TRIM: copies", "trim_pages_copied_reduction", "pct"),
            ("TRIM: write perf.", "trim_write_performance_ratio", "times"),
        ]
    return markdown_table([r for r in rows if r["drive"] == drive and r["gc_policy"] == gc], columns)


def _rule1_markdown(rows: Sequence[Mapping[str, Any]]) -> str:
    return markdown_table(
        rows,
        (
            ("workload", "workload", "text"),
            ("free", lambda r: f"{r['free_fraction']:.0%}", "text"),
            ("rule-1 threshold", lambda r: f"{r['plentiful_free_fraction']:g}", "text"),
            ("rule-1 writes", lambda r: fmt(r.get("scrambler_rule1_writes"), "int"), "text"),
            ("GC count", "gc_count_reduction", "pct"),
            ("copies", "pages_copied_reduction", "pct"),
            ("write perf.", "write_performance_ratio", "times"),
            ("fragmented pages left", lambda r: fmt(r.get("scrambler_fragmented_pages"), "int"), "text"),
        ),
    )


def _churn_markdown(rows: Sequence[Mapping[str, Any]]) -> str:
    def triple(prefix: str) -> Callable[[Mapping[str, Any]], str]:
        return lambda r: (
            f"{fmt(r[prefix + 'gc_count_reduction'], 'pct')} / {fmt(r[prefix + 'pages_copied_reduction'], 'pct')} / "
            f"{fmt(r[prefix + 'write_performance_ratio'], 'times')}"
        )

    return markdown_table(
        rows,
        (
            ("deletes", lambda r: f"{r['delete_fraction']:.0%}", "text"),
            ("GC", "gc_policy", "text"),
            ("GC count conv.", "conventional_gc_count", "int"),
            ("scrambler (rule 2 all): GC count / copies / write perf.", triple(""), "text"),
            ("scrambler (rule 2 first writes)", triple("first_writes_"), "text"),
            ("TRIM", triple("trim_"), "text"),
        ),
    )


@dataclass
class Regime:
    """One drive x victim-policy regime of the main grid. A case counts as fewer (or more) GCs or
    copies only when the reduction exceeds ``SIGNIFICANT``."""

    drive: str
    gc_policy: str
    cases: int
    fewer_gcs: int
    fewer_copies: int
    both: int
    worse: int
    best_gc_reduction: float | None
    best_copy_reduction: float | None
    best_write_ratio: float | None
    median_write_ratio: float | None
    trim_best_write_ratio: float | None
    # Workloads better (fewer GCs and copies) at every free-space level; cases at or above 2.2x.
    everywhere: list[str]
    reaching: list[str]
    # The case with the best write-performance ratio (its conventional and scrambler MB/s).
    best_case: Mapping[str, Any] | None = None

    @property
    def holds(self) -> bool:
        """The seed's claim: fewer GCs and fewer copies in every case."""
        return self.cases > 0 and self.both == self.cases


def regimes(main: Sequence[Mapping[str, Any]]) -> list[Regime]:
    out = []
    for drive in DRIVES:
        for gc in GC_POLICIES:
            rows = [
                r
                for r in main
                if r["drive"] == drive
                and r["gc_policy"] == gc
                and r["gc_count_reduction"] is not None
                and r["pages_copied_reduction"] is not None
            ]
            ratios = sorted(r["write_performance_ratio"] for r in rows if r["write_performance_ratio"] is not None)
            trim = [r["trim_write_performance_ratio"] for r in rows if r.get("trim_write_performance_ratio") is not None]
            out.append(
                Regime(
                    drive,
                    gc,
                    len(rows),
                    sum(1 for r in rows if r["gc_count_reduction"] > SIGNIFICANT),
                    sum(1 for r in rows if r["pages_copied_reduction"] > SIGNIFICANT),
                    sum(1 for r in rows if _both_fewer(r)),
                    sum(1 for r in rows if r["pages_copied_reduction"] < -SIGNIFICANT),
                    max((r["gc_count_reduction"] for r in rows), default=None),
                    max((r["pages_copied_reduction"] for r in rows), default=None),
                    ratios[-1] if ratios else None,
                    ratios[len(ratios) // 2] if ratios else None,
                    max(trim, default=None),
                    [w for w in dict.fromkeys(r["workload"] for r in rows) if all(_both_fewer(r) for r in rows if r["workload"] == w)],
                    [f"{_case(r)} ({_mbps_pair(r)})" for r in rows if (r["write_performance_ratio"] or 0) >= 2.2],
                    max(rows, key=lambda r: r["write_performance_ratio"] or 0, default=None),
                )
            )
    return out


def _both_fewer(row: Mapping[str, Any]) -> bool:
    return row["gc_count_reduction"] > SIGNIFICANT and row["pages_copied_reduction"] > SIGNIFICANT


def _case(row: Mapping[str, Any]) -> str:
    return f"{row['workload']} at {row['free_fraction']:.0%} free"


def _mbps(value: float | None) -> str:
    """MB/s to three significant digits (a drive crawling at 0.004 MB/s must not read as 0.0)."""
    return "n/a" if value is None else f"{value:.3g}"


def _mbps_pair(row: Mapping[str, Any]) -> str:
    """A ratio's baseline beside it: conventional -> scrambler MB/s."""
    return f"{row['write_performance_ratio']:.2f}x: {_mbps(row['conventional_write_mbps'])} → {_mbps(row['scrambler_write_mbps'])} MB/s"


def _fewer_but_slower(main: Sequence[Mapping[str, Any]]) -> str:
    """Cases with fewer GCs and copies that still write slower: GC work is not all a write pays."""
    rows = [r for r in main if _both_fewer(r) and (r["write_performance_ratio"] or 1.0) < 1 - SIGNIFICANT]
    if not rows:
        return ""
    cases = "; ".join(f"{r['drive']}/{r['gc_policy'].replace('_', '-')}: {_case(r)} ({_mbps_pair(r)})" for r in rows)
    return f"Fewer GCs and copies (>{SIGNIFICANT:.0%}) yet slower writes (<{1 - SIGNIFICANT:.2f}x) in {len(rows)} cases: {cases}."


FREE_LEVELS = (0.2, 0.4, 0.6, 0.8)


def free_space_trends(main: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per regime and workload, the write-performance ratio at each free-space level and whether
    the gain grows with free space as the seed's Fig. 4 and 5 show it: the ratio at the most free
    space exceeds the one at the least by more than ``SIGNIFICANT``, and no step to more free space
    loses more than ``SIGNIFICANT``."""
    out = []
    for drive in DRIVES:
        for gc in GC_POLICIES:
            rows = [r for r in main if r["drive"] == drive and r["gc_policy"] == gc]
            for workload in dict.fromkeys(r["workload"] for r in rows):
                by_free = {r["free_fraction"]: r for r in rows if r["workload"] == workload}
                ratios = [(by_free.get(free) or {}).get("write_performance_ratio") for free in FREE_LEVELS]
                known = [ratio for ratio in ratios if ratio is not None]
                grows = (
                    len(known) == len(FREE_LEVELS)
                    and known[-1] > known[0] * (1 + SIGNIFICANT)
                    and all(after >= before * (1 - SIGNIFICANT) for before, after in zip(known, known[1:]))
                )
                out.append(
                    {
                        "drive": drive,
                        "gc_policy": gc,
                        "workload": workload,
                        **{f"ratio_{free:.0%}": ratio for free, ratio in zip(FREE_LEVELS, ratios)},
                        # Text, so the table also writes as CSV.
                        "fewer_at": ", ".join(f"{free:.0%}" for free in FREE_LEVELS if free in by_free and _both_fewer(by_free[free])),
                        "grows_with_free_space": grows,
                    }
                )
    return out


def _trend_markdown(trends: Sequence[Mapping[str, Any]]) -> str:
    columns = [
        ("drive", "drive", "text"),
        ("victim policy", lambda r: r["gc_policy"].replace("_", "-"), "text"),
        ("workload", "workload", "text"),
        *[(f"write perf. at {free:.0%} free", f"ratio_{free:.0%}", "times") for free in FREE_LEVELS],
        (
            f"fewer GCs and copies (>{SIGNIFICANT:.0%}) at",
            lambda r: r["fewer_at"] or "none",
            "text",
        ),
        ("gain grows with free space", lambda r: "yes" if r["grows_with_free_space"] else "no", "text"),
    ]
    return markdown_table(trends, columns)


def _regime_markdown(found: Sequence[Regime]) -> str:
    headers = [
        "drive",
        "victim policy",
        "cases",
        f"fewer GCs (>{SIGNIFICANT:.0%})",
        f"fewer copies (>{SIGNIFICANT:.0%})",
        "both (the seed: all)",
        f"more copies (>{SIGNIFICANT:.0%})",
        "best GC reduction",
        "best copy reduction",
        "write perf. best / median",
        "TRIM best",
    ]
    return markdown_grid(
        headers,
        [
            [
                g.drive,
                g.gc_policy,
                g.cases,
                g.fewer_gcs,
                g.fewer_copies,
                f"{g.both}{' ✔' if g.holds else ''}",
                g.worse,
                fmt(g.best_gc_reduction, "pct"),
                fmt(g.best_copy_reduction, "pct"),
                f"{fmt(g.best_write_ratio, 'times')} / {fmt(g.median_write_ratio, 'times')}",
                fmt(g.trim_best_write_ratio, "times"),
            ]
            for g in found
        ],
    )


def _regime_statement(found: Sequence[Regime], churn: Sequence[Mapping[str, Any]]) -> str:
    holding = [g for g in found if g.holds]
    best = max((g for g in found if g.best_write_ratio is not None), key=lambda g: g.best_write_ratio, default=None)
    lines = []
    if holding:
        names = ", ".join(f"{g.drive} drive with {g.gc_policy.replace('_', '-')} GC" for g in holding)
        lines.append(f'The seed\'s "fewer GCs and fewer page copies in every case" holds here on the {names}.')
    else:
        lines.append(
            'The seed\'s "fewer GCs and fewer page copies in every case" holds in none of the four regimes of the main grid (table above).'
        )
    for g in found:
        if g.holds or not g.everywhere:
            continue
        lines.append(
            f"On the {g.drive} drive with {g.gc_policy.replace('_', '-')} GC it holds at every free-space level for {', '.join(g.everywhere)} only."
        )
    reaching = [f"{g.drive}/{g.gc_policy.replace('_', '-')}: {', '.join(g.reaching)}" for g in found if g.reaching]
    if reaching:
        lines.append("Cases at or above 2.2x: " + "; ".join(reaching) + ".")
    if best is not None:
        verdict = "reaches" if best.best_write_ratio >= 2.2 else "does not reach"
        case = best.best_case or {}
        lines.append(
            f'Its "write performance up to 2.2x" {verdict} that size: the best write-performance ratio measured is {best.best_write_ratio:.3f}x '
            f"({best.drive} drive, {best.gc_policy.replace('_', '-')} GC, {_case(case)}: "
            f"{_mbps(case.get('conventional_write_mbps'))} → {_mbps(case.get('scrambler_write_mbps'))} MB/s)."
        )
    if churn:
        top = max(churn, key=lambda r: max(r["write_performance_ratio"] or 0, r["first_writes_write_performance_ratio"] or 0))
        lines.append(
            f"With a workload that deletes as it writes (file churn, no TRIM), the scrambler's best: {fmt(top['write_performance_ratio'], 'times')} "
            f"(rule 2 for all writes) and {fmt(top['first_writes_write_performance_ratio'], 'times')} (first writes only) at {top['delete_fraction']:.0%} deletes "
            f"with {top['gc_policy'].replace('_', '-')} GC, against {fmt(top['trim_write_performance_ratio'], 'times')} for TRIM."
        )
    return " ".join(lines)


def _src1_statement(main: Sequence[Mapping[str, Any]]) -> str:
    """The seed's best case, src1_0 (its 2.2x), as ssdlab measures it."""
    rows = [r for r in main if r["workload"].startswith("src1_0") and r["write_performance_ratio"] is not None]
    if not rows:
        return ""
    top = max(rows, key=lambda r: r["write_performance_ratio"])
    return (
        f"src1_0, the seed's best case (2.2x): ssdlab's best is {_mbps_pair(top)} "
        f"({top['drive']} drive, {top['gc_policy'].replace('_', '-')} GC, {top['free_fraction']:.0%} free)."
    )


def _trend_statement(trends: Sequence[Mapping[str, Any]]) -> str:
    growing = [t for t in trends if t["grows_with_free_space"]]
    lines = [
        f"The seed's figures show the gain growing with free space; here it grows (rule: the ratio at 80 % free "
        f"exceeds the one at 20 % by more than {SIGNIFICANT:.0%} and no step loses more than {SIGNIFICANT:.0%}) in "
        f"{len(growing)} of {len(trends)} workload series."
    ]
    for drive in DRIVES:
        for gc in GC_POLICIES:
            names = [t["workload"] for t in growing if t["drive"] == drive and t["gc_policy"] == gc]
            if names:
                lines.append(f"{drive.capitalize()} drive, {gc.replace('_', '-')} GC: {', '.join(names)}.")
    return " ".join(lines)


def _run(
    out: Path,
    *,
    traces: Mapping[str, Path] | None = None,
    stand_in_cap_bytes: float | None = DEFAULT_STAND_IN_CAP_BYTES,
    workloads: Sequence[str] | None = None,
    churn: bool = True,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[..., object] | None = None,
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
            rows = [r for r in tables["main"] if r["drive"] == drive and r["gc_policy"] == gc]
            paths.update(figures(rows, out, f"{drive}-{gc.replace('_', '-')}", f"{drive} drive, {gc.replace('_', '-')} GC"))
    found = regimes(tables["main"])
    tables["trends"] = free_space_trends(tables["main"])
    text = _report(plans, tables, found, paths, outcome, scheduler, stand_in_cap_bytes)
    summary = (
        _regime_markdown(found)
        + "\n\n"
        + _regime_statement(found, tables["churn"])
        + " "
        + _src1_statement(tables["main"])
        + "\n\n"
        + _trend_statement(tables["trends"])
    )
    return report.finish(
        out,
        tables={"": tables["main"], "rule1": tables["rule1"], "churn": tables["churn"], "trends": tables["trends"]},
        main="",
        report_text=text,
        summary=summary,
        figures=paths,
        outcomes=(outcome,),
        headlines=headlines(found, tables["main"], tables["trends"]),
    )


CLAIMS = (
    Claim(
        "fewer_gcs_and_copies",
        "Fig. 4(a), 4(b): fewer GCs and fewer pages copied in every case",
        "every case",
        "share of cases",
        "share",
        side=">= 1",
    ),
    Claim("write_performance", "Fig. 5: write performance, scrambler over conventional, best case", 2.2, "x", "times", side="> 1"),
    Claim("src1_0_write_performance", "Fig. 5: write performance on src1_0, the seed's best workload", 2.2, "x", "times", side="> 1"),
    Claim(
        "gain_grows_with_free_space",
        "Fig. 4-5: the gain grows with free space, every workload",
        "every workload",
        "share of workload series",
        "share",
        side=">= 1",
    ),
)


def headlines(found: Sequence[Regime], main: Sequence[Mapping[str, Any]] = (), trends: Sequence[Mapping[str, Any]] = ()) -> list[Headline]:
    """The seed's findings per regime (drive x victim policy), its 2.2x against our best case and
    against src1_0's best, and whether the gain grows with free space per regime."""
    claim = {c.key: c for c in CLAIMS}
    result = []
    for g in found:
        where = f"{g.drive} drive, {g.gc_policy.replace('_', '-')} GC"
        share = g.both / g.cases if g.cases else None
        note = f"{g.both} of {g.cases} cases" + (
            f"; every free-space level for {', '.join(g.everywhere)}" if g.everywhere and not g.holds else ""
        )
        result.append(claim["fewer_gcs_and_copies"].measure(share, where=where, note=note))
    best = max((g for g in found if g.best_write_ratio is not None), key=lambda g: g.best_write_ratio, default=None)
    result.append(
        claim["write_performance"].measure(
            best.best_write_ratio if best else None,
            where=f"{best.drive} drive, {best.gc_policy.replace('_', '-')} GC" if best else "",
            note=(
                f"{_case(best.best_case)}: {_mbps(best.best_case['conventional_write_mbps'])} → "
                f"{_mbps(best.best_case['scrambler_write_mbps'])} MB/s; the seed's most is on src1_0"
                if best and best.best_case
                else "the seed's most is on src1_0"
            ),
        )
    )
    src1 = [r for r in main if r["workload"].startswith("src1_0") and r["write_performance_ratio"] is not None]
    if src1:
        top = max(src1, key=lambda r: r["write_performance_ratio"])
        result.append(
            claim["src1_0_write_performance"].measure(
                top["write_performance_ratio"],
                where=f"{top['drive']} drive, {top['gc_policy'].replace('_', '-')} GC, {top['free_fraction']:.0%} free",
                note=f"{_mbps(top['conventional_write_mbps'])} → {_mbps(top['scrambler_write_mbps'])} MB/s",
            )
        )
    for drive in DRIVES:
        for gc in GC_POLICIES:
            series = [t for t in trends if t["drive"] == drive and t["gc_policy"] == gc]
            if not series:
                continue
            growing = [t["workload"] for t in series if t["grows_with_free_space"]]
            result.append(
                claim["gain_grows_with_free_space"].measure(
                    len(growing) / len(series),
                    where=f"{drive} drive, {gc.replace('_', '-')} GC",
                    note=f"{len(growing)} of {len(series)}" + (f": {', '.join(growing)}" if growing else ""),
                )
            )
    return result


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
    """Bars per workload and free-space level around ``baseline`` (an equal result marked "="; a
    missing one "n/a"), linear or symlog, drawn and saved through ``ssdlab.plotting``."""
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


def figures(table: Sequence[Mapping[str, Any]], out: Path, suffix: str = "", regime: str = "") -> dict[str, Path]:
    """Seed 003 Fig. 4(a) GC-count reduction, 4(b) GC page-copy reduction, 5 write-performance gain
    (one set per regime: ``suffix`` names the files, ``regime`` goes in the titles)."""
    paths: dict[str, Path] = {}
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
        paths[f"{stem} (PNG)"] = png
        paths[f"{stem} (SVG)"] = svg
    return paths


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
        return _run(
            out,
            traces=traces,
            stand_in_cap_bytes=stand_in_cap_bytes,
            workloads=workloads,
            churn=churn,
            scheduler=scheduler,
            workers=workers,
            progress=progress,
        )


RECIPE = LbaScrambler()
reproduce = RECIPE.reproduce


def _report(
    plans: Sequence[WorkloadPlan],
    tables: Mapping[str, Sequence[Mapping[str, Any]]],
    found: Sequence[Regime],
    figures: Mapping[str, Path],
    outcome: Any,
    scheduler: str | None,
    cap: float | None,
) -> str:
    config = api.load_config(PRESET)
    workloads = "\n".join(f"- **{p.label}**: {p.description}; {p.footprint_pages:,} pages of data." for p in plans)
    figure_lines = "\n".join(f"- {name}: `{path.name}`" for name, path in figures.items() if path.suffix == ".png")
    sections = []
    for drive in DRIVES:
        for gc in GC_POLICIES:
            title = {
                "fresh": "Fresh drive (free space = spare flash)",
                "aged": "Aged drive (free space = deleted data the FTL still holds)",
            }[drive]
            sections.append(f"### {title}, {gc.replace('_', '-')} GC\n\n{_main_table_markdown(tables['main'], drive, gc)}")
    churn_section = ""
    if tables["churn"]:
        churn_section = f"""## File churn: deletes as the workload runs

A synthetic workload ({CHURN.data_bytes / GIB:g} GiB of data or the stand-in cap, uniform addresses, {CHURN.read_fraction:.1%} reads, 16-256 KiB requests) that
deletes whole requests' pages as it writes, on a fresh drive at {CHURN.free_fraction:.0%} free space. The FTL never learns of the deletes except with
TRIM. Reductions against the conventional FTL without TRIM (GC count / pages copied / write performance):

{_churn_markdown(tables["churn"])}
"""
    return f"""# Seed 003 reproduction: LBA scrambler vs conventional FTL, and where the seed's result holds

{provenance("ssdlab reproduce lba-scrambler", outcome, scheduler)}

## What the seed reports and in which regime ssdlab measures it

Seed 003: {SEED_FINDINGS["gc_count"]}; {SEED_FINDINGS["pages_copied"]}; {SEED_FINDINGS["write_performance"]}.
Its bar heights are not in its text; only these findings are compared. Each regime below is 5 workloads x 4 free-space levels.

{_regime_markdown(found)}

{_regime_statement(found, tables["churn"])} {_src1_statement(tables["main"])} {_fewer_but_slower(tables["main"])}

### Does the gain grow with free space?

{_trend_markdown(tables["trends"])}

{_trend_statement(tables["trends"])}

Why (from the dead-data counts in the tables): every host write invalidates exactly one page the FTL holds, with or without the
scrambler. The scrambler cannot make the FTL drop dead data; it can only choose *which* page a write invalidates, by moving the
write to a dead (fragmented) page of a block GC is about to collect. That helps only where those victims hold dead data: on a
fresh drive there is none until rule 1 or 2 creates it (and every page they leave behind is a dead copy GC must later copy). On an
aged drive without TRIM the FTL counts the deleted data as valid and collects garbage as on a full drive; the deleted data sits in
blocks that look full, which greedy GC picks only when nothing emptier is left and round robin collects in runs (one invocation
takes blocks until it has freed its watermark's worth, so a run of nearly valid blocks is long); the recommendation list follows
that run (`middleware.lba_scrambler.victims_per_plane`). The "dead pages copied" column says how much dead data the collected
victims held; the rule-2 hit rate how often a write found one to take. TRIM removes the dead data outright: the upper bound beside it.

## Tables

A reduction is `1 - scrambler / conventional` (positive = the scrambler did better); write performance is scrambler MB/s over
conventional MB/s (host writes, closed loop QD {QUEUE_DEPTH}). "Dead pages copied" are GC copies of data the host had deleted or the
scrambler had moved (the FTL cannot tell; the simulator can). Rule-2 hit rate: writes redirected into a victim of the coming GC
run over writes that tried.

{(chr(10) * 2).join(sections)}

## Rule-1 threshold (fresh drive, greedy GC)

Rule 1 writes to empty pages while more than the threshold's share of the NAND is unmapped; 1.0 turns it off.

{_rule1_markdown(tables["rule1"])}

{churn_section}
## Workloads

{workloads}

## Setup

- Preset `{PRESET}` (`configs/{PRESET}.toml`): 16 KB pages, 256 pages per block (seed Table 1); seed 001's MLC timings (the seed gives
  none); 2 channels x 2 chips x 1 die x 1 plane (our choice), GC per plane between 2 and 3 free blocks.
- Fresh drive: NAND = data / (1 - free) (`ftl.sizing = "footprint"`); preconditioning writes the data once, then `2 / (1 - free)`
  passes of random overwrites (GC steady state); counters reset.
- Aged drive: exported capacity = data / (1 - free) (the file system's size), {AGED_OVERPROVISIONING:.0%} of the NAND hidden beyond it
  (6 blocks per plane when the GC reserve needs more; sized by geometry); the exported capacity
  filled in address order, the workload's data overwritten as above, then extents of 1-64 pages (16 KiB-1 MiB files) deleted
  at random until only the workload's data is live. Deletes go nowhere (conventional), to the FTL (TRIM) or to the scrambler.
  Trace samples have their addresses compacted (`host.compact_addresses`) so that the fill covers the capacity around their data.
- Measured replay: closed loop at queue depth {QUEUE_DEPTH} until the host has written {MEASURED_FOOTPRINT_WRITES:g}x the workload's data,
  the same for every free-space level, drive and variant of a workload (equal host writes).
- Stand-ins: {"capped at " + format(cap / GIB, "g") + " GiB (`--stand-in-cap-gib 0` runs the seed sizes)" if cap else "the seed's data sizes"}.
- Scrambler thresholds (seed: "plentiful", "enough"; not quantified): rule 1 while more than 50 % of the NAND is unmapped (swept
  above), rule 2 while a victim holds at least 1 fragmented page; the recommendation list follows, in every plane, the run of victims the
  next GC invocation will collect (`victims_per_plane = 0`; `docs/lba-scrambler.md`).
- The data-integrity oracle is off in these runs for speed; the test suite runs the scrambler with it on.

## Figures

{figure_lines}

## Base configuration

```toml
{config.strip()}
```
"""
