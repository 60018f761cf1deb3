"""Seed 002 (LDPC in SSDs): read response time of the two-step, look-ahead and progressive reads.

The seed's setup (§5.1, preset ``seed002-ldpc``): 8 channels x 8 chips x 2 dies x 4 planes x 2048 blocks
x 64 pages of 4 KB MLC, 200 MB/s bus, hard read 41/55 us, 14 us per extra sensing level, 8 us decode;
hard-decision decoding fails on 28.8 % of reads at 10,000 P/E after one month at 40 C. Here the
decoding-failure probabilities per chip and per number of extra sensing levels come from the ECC lab
at that stress (``read_path.decoding`` in the preset; mean hard failure 28.5 %).

Its workloads: Finance1, Finance2, Postmark, WebSearch and two synthetic mixes with 66 % and 99 %
reads (``WORKLOADS``): Finance1, WebSearch and Postmark are the real samples in ``../shared/traces``
replayed with their own timing; Finance2 is a stand-in (17.7 % writes as published; sizes, span and rate
are our choice, said in the report); the synthetic mixes are 4 KiB random requests at 20,000 IOPS.

Variants: no soft sensing at all (the seed's normalisation reference), the two-step baseline,
look-ahead, progressive, and both; on 8 channels and on 2 (the seed's Fig. 17). Every variant of a
workload uses the same seed, so each read draws the same decoding outcome in every variant.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ssdlab import api, plotting
from ssdlab.locations import shared_dir, shared_trace
from ssdlab.reproduce import report
from ssdlab.reproduce.base import Claim, Headline, Option, Recipe, Workload
from ssdlab.reproduce.report import fmt, markdown_grid, markdown_table, provenance
from ssdlab.sweep import Sweep, SweepError, run_sweep

PRESET = "seed002-ldpc"
CHANNELS = (8, 2)
# The preset's blocks per plane at 8 channels.
BLOCKS_PER_PLANE = 2048
VARIANTS: dict[str, list[str]] = {
    "no_soft": ['read_path.strategy="hard_decision"', "read_path.look_ahead=false"],
    "baseline": ['read_path.strategy="two_step"', "read_path.look_ahead=false"],
    "look_ahead": ['read_path.strategy="two_step"', "read_path.look_ahead=true"],
    "progressive": ['read_path.strategy="progressive"', "read_path.look_ahead=false"],
    "both": ['read_path.strategy="progressive"', "read_path.look_ahead=true"],
}
SYNTHETIC_REQUESTS = 200_000
# Data placement interleaving (seed 002 §3.3, Fig. 15): the two-step baseline with codewords spread
# over groups of chips. The seed pairs its chips 1 and 3, 2 and 4; which of its chips were weak is not
# in its text, and our chip factors are ours, so each weak chip is paired with a strong one here
# (factors 1.0 + 1.04 and 0.97 + 1.09), as the technique intends ("average out" the error rates).
# Every read senses all chips of its group and host writes are padded to whole groups (the cost side).
INTERLEAVE_GROUPS: dict[str, list[list[int]]] = {"interleave_2": [[0, 1], [2, 3]], "interleave_4": [[0, 1, 2, 3]]}
# The three techniques together: look-ahead + progressive reads of 4-way interleaved codewords.
COMBINED = "all"
INTERLEAVED_VARIANTS = {
    "interleave_2": ("interleave_2", VARIANTS["baseline"]),
    "interleave_4": ("interleave_4", VARIANTS["baseline"]),
    COMBINED: ("interleave_4", VARIANTS["both"]),
}
ALL_VARIANTS = (*VARIANTS, *INTERLEAVED_VARIANTS)
INTERLEAVE_FRAMES = 1000
# Error models: the chips' spread only (the preset's table), or with block-to-block spread within each
# chip as well (seed 002 Fig. 9 shows it): four classes of blocks whose wear noise is x0.94..x1.06.
# Chosen so that the mean hard-decision failure (30.6 %) stays near the seed's 28.8 % while
# progressive reads need a second level about as often as the seed's +35.2 % decode energy implies
# (1.36 decodes per read at 300 frames; the seed: 1.352).
BLOCK_FACTORS = (0.94, 0.98, 1.02, 1.06)
ERROR_MODELS = ("chips", "blocks")

SEED_FINDINGS = {
    "baseline": "read response time +25 % (Postmark) to +120 % (Synthetic2) over no soft sensing",
    "look_ahead": "modest reduction of the delay",
    "progressive": "large reduction, most for read-intensive traces (WebSearch)",
    "both": "worst case from over 100 % to below 20 % delay",
    "channels": "insensitive to parallelism (2 vs 8 channels)",
    "energy": "look-ahead +102.9 % flash access energy; progressive +35.2 % decode energy; together +42.3 % (sensing + decoding)",
}


def _synthetic(read_fraction: float, requests: int) -> tuple[str, ...]:
    return (
        f"workload.synthetic.requests={requests}",
        f"workload.synthetic.read_fraction={read_fraction}",
        "workload.synthetic.span_bytes=17179869184",
        'workload.synthetic.address={ distribution = "uniform" }',
        'workload.synthetic.size={ distribution = "fixed", bytes = 4096 }',
        'workload.synthetic.arrival={ process = "poisson", mean_interarrival_ns = 50000.0 }',
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
            f"synthetic: 66 % reads, 4 KiB uniform over 16 GiB, Poisson 20,000 IOPS, {synthetic_requests:,} requests",
            overrides=_synthetic(0.66, synthetic_requests),
        ),
        Workload(
            "Synthetic2",
            "synthetic",
            f"synthetic: 99 % reads, 4 KiB uniform over 16 GiB, Poisson 20,000 IOPS, {synthetic_requests:,} requests",
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
    """The decoding tables the recipe computes with the ECC lab at the preset's stress, once per
    folder and frame count (kept in ``decoding_tables.json``): ``chips/<interleaving>`` without block
    spread and ``blocks/<base or interleaving>`` with it (``chips/base`` is the preset's own table)."""
    from ssdlab import ecc

    path = out / "decoding_tables.json"
    cached = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    wanted: dict[str, dict[str, Any]] = {}
    for errors in ERROR_MODELS:
        factors = list(BLOCK_FACTORS) if errors == "blocks" else []
        for name, groups in [("base", []), *INTERLEAVE_GROUPS.items()]:
            if errors == "chips" and name == "base":
                continue
            wanted[f"{errors}/{name}"] = {
                "pe_cycles": 10_000.0,
                "retention_hours": 720.0,
                "frames_per_case": frames,
                "interleave_groups": groups,
                "block_factors": factors,
            }
    tables = {}
    for key, spec in wanted.items():
        previous = cached.get(key)
        if previous and all(previous["spec"].get(field) == value for field, value in spec.items()):
            tables[key] = previous
        else:
            tables[key] = ecc.decoding_table(**spec)
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(tables, indent=2) + "\n", encoding="utf-8")
    return tables


def _table_overrides(table: Mapping[str, Any]) -> list[str]:
    overrides = [
        f"read_path.decoding.failure_probabilities={json.dumps([[round(p, 4) for p in row] for row in table['failure_probabilities']])}"
    ]
    if table.get("chip_rows"):
        overrides.append(f"read_path.decoding.chip_rows={json.dumps(table['chip_rows'])}")
    if table.get("block_classes", 1) > 1:
        overrides.append(f"read_path.decoding.block_classes={table['block_classes']}")
    return overrides


def build_sweep(selected: Sequence[Workload], tables: Mapping[str, Mapping[str, Any]]) -> Sweep:
    cases: dict[str, dict[str, list[str]]] = {"workload": {}, "channels": {}, "variant": {}}
    for workload in selected:
        if workload.sample is not None:
            path = shared_trace(workload.sample)
            if path is None:
                where = shared_dir()
                raise FileNotFoundError(
                    f"{workload.name}: the real sample {workload.sample} is not in {where / 'traces' if where else '../shared/traces'}; "
                    f"put ../shared beside the checkout (or set SSDLAB_SHARED_DIR), or pass the full trace with --trace {workload.name}=PATH"
                )
            cases["workload"][_label(workload)] = [f"workload.trace.path={json.dumps(str(path))}"]
        else:
            cases["workload"][_label(workload)] = list(workload.overrides)
    # Fewer channels, same capacity: the blocks per plane grow by the same factor, so every trace's
    # address range still fits and only the parallelism changes.
    cases["channels"] = {
        str(c): [f"device.geometry.channels={c}", f"device.geometry.blocks_per_plane={BLOCKS_PER_PLANE * CHANNELS[0] // c}"]
        for c in CHANNELS
    }
    for errors in ERROR_MODELS:
        base = [] if errors == "chips" else _table_overrides(tables["blocks/base"])
        for name, overrides in VARIANTS.items():
            cases["variant"][f"{errors}|{name}"] = list(overrides) + base
        for name, (grouping, overrides) in INTERLEAVED_VARIANTS.items():
            cases["variant"][f"{errors}|{name}"] = (
                list(overrides)
                + _table_overrides(tables[f"{errors}/{grouping}"])
                + [f"read_path.interleave_groups={json.dumps(INTERLEAVE_GROUPS[grouping])}"]
            )
    # Seed 002 gives its failure rate as a share of read operations: one draw per host request.
    common = ['read_path.decoding.draw="per_request"']
    return Sweep(name="seed002-ldpc-read", base=PRESET, common=common, cases=cases, origin="reproduce ldpc-read")


def _energy_parts(result: Mapping[str, Any]) -> dict[str, float]:
    """Sensing, flash access (sensing plus the transfers of read results only: write data and GC
    copies left out) and decode energy; ``access_full`` charges every cancelled look-ahead sensing in
    full (seed 002's accounting) instead of the part it ran for."""
    energy, flash = result["energy_uj"], result["flash"]
    read_share = flash["read_page_transfers"] / flash["page_transfers"] if flash["page_transfers"] else 0.0
    read_transfer = energy["transfer_uj"] * read_share
    preset = tomllib.loads(api.load_config(PRESET))
    level_uj = preset["device"]["energy"]["extra_sensing_level_uj"]
    level_ns = preset["read_path"]["extra_sensing_latency_ns"]
    ran_levels = flash["cancelled_sensing_ns"] / level_ns if level_ns else 0.0
    extra_full = energy["extra_sensing_uj"] + level_uj * (flash["cancelled_sensing_levels"] - ran_levels)
    return {
        "sensing": energy["read_sense_uj"] + energy["extra_sensing_uj"],
        "access": energy["read_sense_uj"] + energy["extra_sensing_uj"] + read_transfer,
        "access_full": energy["read_sense_uj"] + extra_full + read_transfer,
        "decode": energy["decode_uj"],
    }


def _rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per (workload, channels, error model): each variant's mean read latency and the seed's ratios."""
    grouped: dict[tuple[str, int, str], dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        errors, _, variant = row["point.variant"].partition("|")
        grouped.setdefault((row["point.workload"], int(row["point.channels"]), errors), {})[variant] = row
    table = []
    for (label, channels, errors), variants in grouped.items():
        entry: dict[str, Any] = {"workload": label, "channels": channels, "errors": errors}
        results: dict[str, Any] = {}
        for name in ALL_VARIANTS:
            row = variants.get(name)
            ok = row is not None and row["status"] == "ok"
            results[name] = json.loads(row["result_json"]) if ok else None
            entry[f"{name}_status"] = "ok" if ok else (row["error"] if row is not None else "missing")
            entry[f"{name}_read_mean_us"] = results[name]["read"]["latency_us"]["mean"] if ok else None
            entry[f"{name}_read_p99_us"] = results[name]["read"]["latency_us"]["p99"] if ok else None
        base, none = entry["baseline_read_mean_us"], entry["no_soft_read_mean_us"]
        entry["baseline_delay"] = base / none - 1 if base and none else None
        for name in ("look_ahead", "progressive", "both", *INTERLEAVED_VARIANTS):
            value = entry[f"{name}_read_mean_us"]
            entry[f"{name}_vs_baseline"] = value / base if value and base else None
            entry[f"{name}_delay"] = value / none - 1 if value and none else None
        statistics = (results["baseline"] or {}).get("read_path") or {}
        sampled = statistics.get("sampled_reads", 0)
        entry["reads"] = sampled
        entry["hard_failure_fraction"] = statistics.get("hard_decision_failures", 0) / sampled if sampled else None
        if results["baseline"] and results["look_ahead"]:
            before, after = _energy_parts(results["baseline"]), _energy_parts(results["look_ahead"])
            entry["look_ahead_access_energy_increase"] = after["access"] / before["access"] - 1 if before["access"] else None
            entry["look_ahead_access_energy_increase_full"] = after["access_full"] / before["access"] - 1 if before["access"] else None
        else:
            entry["look_ahead_access_energy_increase"] = None
            entry["look_ahead_access_energy_increase_full"] = None
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
        for name in INTERLEAVED_VARIANTS:
            interleaving = (results[name] or {}).get("interleaving") or {}
            entry[f"{name}_write_amplification"] = interleaving.get("write_amplification_from_grouping")
            entry[f"{name}_part_sensings"] = interleaving.get("part_sensings")
        table.append(entry)
    order = {label: i for i, label in enumerate(dict.fromkeys(r["workload"] for r in table))}
    table.sort(key=lambda r: (ERROR_MODELS.index(r["errors"]) if r["errors"] in ERROR_MODELS else 9, -r["channels"], order[r["workload"]]))
    return table


def _table_markdown(table: Sequence[Mapping[str, Any]]) -> str:
    return markdown_table(
        table,
        (
            ("errors", "errors", "text"),
            ("workload", "workload", "text"),
            ("channels", "channels", "text"),
            ("hard fails", "hard_failure_fraction", "share"),
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
            ("4-way / baseline", "interleave_4_vs_baseline", "ratio"),
            ("all three / baseline", COMBINED + "_vs_baseline", "ratio"),
            ("4-way write ampl.", "interleave_4_write_amplification", "ratio"),
        ),
    )


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
    table = _rows(outcome.rows)
    paths: dict[str, Path] = {}
    for errors in ERROR_MODELS:
        rows = [r for r in table if r["errors"] == errors]
        paths.update(figures(rows, out, "" if errors == "chips" else "-blocks", "" if errors == "chips" else "with block spread"))
    return report.finish(
        out,
        tables={"": table},
        main="",
        report_text=_report(selected, table, paths, outcome, scheduler, tables),
        summary=_table_markdown(table),
        figures=paths,
        outcomes=(outcome,),
        headlines=headlines(table),
    )


CLAIMS = (
    Claim("baseline_postmark", "Fig. 11: two-step baseline delay over no soft sensing, Postmark", 0.25, "change", "pct", side="> 0"),
    Claim("baseline_synthetic2", "Fig. 11: two-step baseline delay over no soft sensing, Synthetic2", 1.20, "change", "pct", side="> 0"),
    Claim("look_ahead", "Fig. 12: look-ahead read response time / baseline", "modest reduction", "ratio", "ratio", side="< 1"),
    Claim("progressive", "Fig. 13: progressive read response time / baseline", "large reduction", "ratio", "ratio", side="< 1"),
    Claim("both_worst", "Fig. 14: worst delay with look-ahead and progressive", "below 20 %", "change", "pct", side="< 0.2"),
    Claim("interleave", "Fig. 15: 2-way interleaving read response time / baseline", "lower", "ratio", "ratio", side="< 1"),
    Claim("interleave_ranking", "Fig. 15: 4-way over 2-way interleaving", "4-way lower", "ratio", "ratio", side="< 1"),
    Claim("channels", "Fig. 17: insensitive to parallelism (2 vs 8 channels)", "insensitive", "", "text", regime=True),
    Claim("look_ahead_energy", "§5.5: look-ahead flash access energy", 1.029, "change", "pct", side="> 0"),
    Claim("progressive_energy", "§5.5: progressive decode energy", 0.352, "change", "pct", side="> 0"),
    Claim("both_energy", "§5.5: look-ahead + progressive sensing and decode energy", 0.423, "change", "pct", side="> 0"),
)


def headlines(table: Sequence[Mapping[str, Any]]) -> list[Headline]:
    """Each seed figure beside ours, for both error models (8 channels unless said)."""
    claim = {c.key: c for c in CLAIMS}
    found: list[Headline] = []
    for errors in ERROR_MODELS:
        where = "chips' spread only" if errors == "chips" else "with block spread"
        rows = [r for r in table if r["errors"] == errors and r["channels"] == 8]
        if not rows:
            continue

        def delay(name: str, rows: Sequence[Mapping[str, Any]] = rows) -> float | None:
            return next((r["baseline_delay"] for r in rows if r["workload"].startswith(name)), None)

        mean = {key: _model_mean(table, key, errors) for key in ("interleave_2_vs_baseline", "interleave_4_vs_baseline")}
        worst = max((r["both_delay"] for r in rows if r["both_delay"] is not None), default=None)
        progressive = [r for r in rows if r["progressive_vs_baseline"] is not None]
        most = min(progressive, key=lambda r: r["progressive_vs_baseline"])["workload"] if progressive else "n/a"
        ranking = mean["interleave_4_vs_baseline"] / mean["interleave_2_vs_baseline"] if None not in mean.values() else None
        span = _range(table, "both_delay", 2, errors)
        found += [
            claim["baseline_postmark"].measure(delay("Postmark"), where=where),
            claim["baseline_synthetic2"].measure(delay("Synthetic2"), where=where),
            claim["look_ahead"].measure(_model_mean(table, "look_ahead_vs_baseline", errors), where=where, note="mean over the workloads"),
            claim["progressive"].measure(
                _model_mean(table, "progressive_vs_baseline", errors), where=where, note=f"mean; most on {most} (seed: WebSearch)"
            ),
            claim["both_worst"].measure(worst, where=where),
            claim["interleave"].measure(mean["interleave_2_vs_baseline"], where=where, note="mean over the workloads"),
            claim["interleave_ranking"].measure(ranking, where=where, note="4-way / baseline over 2-way / baseline"),
            claim["channels"].measure(None, where=where, ours_text=f"both on 2 channels: delay {_span_text(span)}"),
            claim["look_ahead_energy"].measure(
                _model_mean(table, "look_ahead_access_energy_increase", errors),
                where=where,
                note="cancelled sensings charged in full: "
                + fmt(_model_mean(table, "look_ahead_access_energy_increase_full", errors), "pct"),
            ),
            claim["progressive_energy"].measure(_model_mean(table, "progressive_decode_increase", errors), where=where),
            claim["both_energy"].measure(
                _model_mean(table, "both_sensing_decode_energy_change", errors), where=where, note="vs the two-step baseline"
            ),
        ]
    return found


LDPC_VARIANT_COLOURS = {"baseline": "#444444", "look_ahead": "#1f77b4", "progressive": "#ff7f0e", "both": "#2ca02c"}


def figures(table: Sequence[Mapping[str, Any]], out: Path, suffix: str = "", regime: str = "") -> dict[str, Path]:
    """Seed 002 Fig. 11 (baseline vs no soft sensing), Fig. 12-14 (look-ahead, progressive, both vs
    baseline), Fig. 15 (interleaving) and Fig. 17 (the same on 2 channels), through ``ssdlab.plotting``;
    ``suffix`` names the files of one error model, ``regime`` goes in the titles."""
    paths: dict[str, Path] = {}
    table = [dict(r, baseline_vs_no_soft=(None if r["baseline_delay"] is None else 1 + r["baseline_delay"])) for r in table]
    specs = [
        (
            "fig11",
            8,
            [("baseline_vs_no_soft", "two-step baseline", LDPC_VARIANT_COLOURS["baseline"])],
            "read response time / no soft sensing",
            "Fig. 11: two-step read at 10,000 P/E vs no soft sensing (8 channels)",
        ),
        (
            "fig12_14",
            8,
            [
                ("look_ahead_vs_baseline", "look-ahead (Fig. 12)", LDPC_VARIANT_COLOURS["look_ahead"]),
                ("progressive_vs_baseline", "progressive (Fig. 13)", LDPC_VARIANT_COLOURS["progressive"]),
                ("both_vs_baseline", "both (Fig. 14)", LDPC_VARIANT_COLOURS["both"]),
            ],
            "read response time / baseline",
            "Fig. 12-14: look-ahead, progressive and both, normalised to the baseline (8 channels)",
        ),
        (
            "fig15",
            8,
            [
                ("interleave_2_vs_baseline", "2-way interleaving", "#9467bd"),
                ("interleave_4_vs_baseline", "4-way interleaving", "#8c564b"),
                ("all_vs_baseline", "look-ahead + progressive + 4-way", "#17becf"),
            ],
            "read response time / baseline",
            "Fig. 15: data placement interleaving with the two-step read, normalised to the baseline (8 channels)",
        ),
        (
            "fig17",
            2,
            [
                ("look_ahead_vs_baseline", "look-ahead", LDPC_VARIANT_COLOURS["look_ahead"]),
                ("progressive_vs_baseline", "progressive", LDPC_VARIANT_COLOURS["progressive"]),
                ("both_vs_baseline", "both", LDPC_VARIANT_COLOURS["both"]),
            ],
            "read response time / baseline",
            "Fig. 17: the techniques on 2 channels, normalised to the baseline",
        ),
    ]
    for name, channels, series, ylabel, title in specs:
        rows = [r for r in table if r["channels"] == channels]
        png, svg = plotting.grouped_bars(
            [r["workload"] for r in rows],
            {legend: [r[key] for r in rows] for key, legend, _ in series},
            out / f"{name}{suffix}",
            ylabel=ylabel,
            title=f"{title}, {regime}" if regime else title,
            colours={legend: colour for _, legend, colour in series},
            reference=1.0,
        )
        paths[f"{name}{suffix} (PNG)"] = png
        paths[f"{name}{suffix} (SVG)"] = svg
    return paths


class LdpcRead(Recipe):
    name = "ldpc-read"
    seed = "002"
    title = "LDPC read strategies"
    help = (
        "Seed 002: two-step, look-ahead, progressive, interleaved and combined LDPC reads, 6 workloads x 8/2 channels x chip-only / block "
        "spread error models; Fig. 11-15, 17 and a report putting each seed figure beside ours."
    )
    claims = CLAIMS
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


def _range(table: Sequence[Mapping[str, Any]], key: str, channels: int, errors: str) -> tuple[tuple[float, str], tuple[float, str]] | None:
    values = [(r[key], r["workload"]) for r in table if r["channels"] == channels and r["errors"] == errors and r[key] is not None]
    return (min(values), max(values)) if values else None


def _span_text(span: tuple[tuple[float, str], tuple[float, str]] | None) -> str:
    if span is None:
        return "n/a"
    (low, low_name), (high, high_name) = span
    return f"{fmt(low, 'pct')} ({low_name}) to {fmt(high, 'pct')} ({high_name})"


def _model_mean(table: Sequence[Mapping[str, Any]], key: str, errors: str, channels: int = 8) -> float | None:
    return _mean([r for r in table if r["errors"] == errors and r["channels"] == channels], key)


def _figure_rows(table: Sequence[Mapping[str, Any]], tables: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """Each seed figure beside ours (both error models) and what remains different."""

    def both(render: Callable[[str], str]) -> list[str]:
        return [render(errors) for errors in ERROR_MODELS]

    def best_progressive(errors: str) -> str:
        rows = [r for r in table if r["errors"] == errors and r["channels"] == 8 and r["progressive_vs_baseline"] is not None]
        if not rows:
            return "n/a"
        best = min(rows, key=lambda r: r["progressive_vs_baseline"])
        return f"x{fmt(_model_mean(table, 'progressive_vs_baseline', errors), 'ratio')} on average; most on {best['workload']} (x{fmt(best['progressive_vs_baseline'], 'ratio')})"

    def worst(errors: str) -> str:
        rows = [r for r in table if r["errors"] == errors and r["channels"] == 8]
        base = max((r["baseline_delay"] for r in rows if r["baseline_delay"] is not None), default=None)
        combined = max((r["both_delay"] for r in rows if r["both_delay"] is not None), default=None)
        return f"worst delay {fmt(base, 'pct')} → {fmt(combined, 'pct')}"

    hard = {e: _model_mean(table, "hard_failure_fraction", e) for e in ERROR_MODELS}
    progressive = {e: _model_mean(table, "progressive_vs_baseline", e) for e in ERROR_MODELS}
    if None not in progressive.values() and None not in hard.values():
        direction = "more" if progressive["blocks"] < progressive["chips"] else "less"
        progressive_note = (
            f"The ranking the seed states (most on the read-intensive WebSearch) holds; its bar heights are not in its text. With block spread the "
            f"baseline pays more (hard failures {fmt(hard['blocks'], 'share')} vs {fmt(hard['chips'], 'share')}; weak blocks fail more) and progressive, "
            f"which still stops at the first level that decodes, recovers {direction} of it (x{fmt(progressive['blocks'], 'ratio')} vs x{fmt(progressive['chips'], 'ratio')})."
        )
    else:
        progressive_note = "n/a"
    postmark = [r for r in table if r["channels"] == 8 and r["workload"].startswith("Postmark") and r["both_delay"] is not None]
    others = [
        r["both_delay"] for r in table if r["channels"] == 8 and not r["workload"].startswith("Postmark") and r["both_delay"] is not None
    ]
    worst_note = "Same direction."
    if postmark and others:
        worst_note = (
            f"Same direction; all workloads but Postmark end at {fmt(min(others), 'pct')} to {fmt(max(others), 'pct')}, below the seed's 20 %. Postmark's reads come "
            f"in bursts of many pages that the work-conserving scheduler serves without soft sensing in {fmt(postmark[0]['no_soft_read_mean_us'], 'us')} us, so every "
            "soft read weighs more against that reference."
        )
    interleave = {
        e: (_model_mean(table, "interleave_2_vs_baseline", e), _model_mean(table, "interleave_4_vs_baseline", e)) for e in ERROR_MODELS
    }
    interleave_hard = {key: fmt(t["mean"][0], "share") for key, t in tables.items()} if tables else {}
    interleave_note = (
        "Here every interleaved read senses all chips of its group and writes are padded to whole groups (the seed models only the averaged "
        f"error rate). Chips only: hard failures fall to {interleave_hard.get('chips/interleave_2', 'n/a')} (2-way) and {interleave_hard.get('chips/interleave_4', 'n/a')} "
        f"(4-way) from {fmt(hard.get('chips'), 'share')}; 4-way averages little more than 2-way but senses twice the dies, so on these loads it gains less "
        f"(x{fmt(interleave['chips'][1], 'ratio')} vs x{fmt(interleave['chips'][0], 'ratio')}), the reverse of the seed's ranking. With block spread the weak "
        f"blocks are not averaged out (a codeword's parts sit in blocks of one class: hard failures {interleave_hard.get('blocks/interleave_2', 'n/a')} and "
        f"{interleave_hard.get('blocks/interleave_4', 'n/a')}), so the extra sensing costs more than it saves."
    )
    rows = [
        [
            "Fig. 11: two-step baseline vs no soft sensing",
            SEED_FINDINGS["baseline"],
            *both(lambda e: _span_text(_range(table, "baseline_delay", 8, e))),
            "The seed applies one 28.8 % failure rate to every read; here each chip class (and block class) has its own, so reads of the strong "
            "chips rarely pay, and the delay depends on how a workload's reads spread over chips. Our samples are short segments and the synthetic "
            "mixes' rate is ours, so queueing (which multiplies the delay in Synthetic2) differs.",
        ],
        [
            "Fig. 12: look-ahead",
            SEED_FINDINGS["look_ahead"],
            *both(lambda e: "x" + fmt(_model_mean(table, "look_ahead_vs_baseline", e), "ratio") + " of baseline on average"),
            "Matches in kind. Look-ahead saves the hard transfer and decode (about 28 us) only when the die is idle.",
        ],
        ["Fig. 13: progressive", SEED_FINDINGS["progressive"], *both(best_progressive), progressive_note],
        ["Fig. 14: both", SEED_FINDINGS["both"], *both(worst), worst_note],
        [
            "Fig. 15: interleaving (two-step)",
            "lower response time, 4-way more than 2-way",
            *both(
                lambda e: (
                    f"2-way x{fmt(_model_mean(table, 'interleave_2_vs_baseline', e), 'ratio')}, "
                    f"4-way x{fmt(_model_mean(table, 'interleave_4_vs_baseline', e), 'ratio')}; "
                    f"all three x{fmt(_model_mean(table, COMBINED + '_vs_baseline', e), 'ratio')}"
                )
            ),
            interleave_note,
        ],
        [
            "Fig. 17: 2 channels",
            SEED_FINDINGS["channels"],
            *both(
                lambda e: (
                    f"baseline delay {_span_text(_range(table, 'baseline_delay', 2, e))}; both {_span_text(_range(table, 'both_delay', 2, e))}"
                )
            ),
            "Compare with the Fig. 11 and 14 rows: the techniques' ranking holds on 2 channels; delays grow where 2 channels queue the traces.",
        ],
        [
            "§5.5: look-ahead energy",
            "+102.9 % flash access energy",
            *both(
                lambda e: (
                    f"{fmt(_model_mean(table, 'look_ahead_access_energy_increase', e), 'pct')} (cancelled sensings charged in full: "
                    f"{fmt(_model_mean(table, 'look_ahead_access_energy_increase_full', e), 'pct')})"
                )
            ),
            "Charging each cancelled sensing only for the time it ran (the RESET stops it) gives the first figure; the seed's is reachable only if every "
            "started look-ahead is charged all six levels and more reads start one.",
        ],
        [
            "§5.5: progressive decode energy",
            "+35.2 % over one decode per read",
            *both(lambda e: fmt(_model_mean(table, "progressive_decode_increase", e), "pct")),
            "The block spread's classes were chosen to land near the seed's figure; without them the second level is almost never needed.",
        ],
        [
            "§5.5: look-ahead + progressive energy",
            "+42.3 % (sensing and decoding)",
            *both(lambda e: fmt(_model_mean(table, "both_sensing_decode_energy_change", e), "pct") + " vs the baseline"),
            "Against the two-step baseline, progressive sensing's savings outweigh look-ahead's and the extra decodes' costs; the seed's reference "
            "for +42.3 % is not stated (probably reads without soft sensing).",
        ],
        [
            "§5.5: interleaving write amplification",
            '"more significant" (not quantified)',
            *both(
                lambda e: (
                    f"4-way x{fmt(_model_mean(table, 'interleave_4_write_amplification', e), 'ratio')}, "
                    f"2-way x{fmt(_model_mean(table, 'interleave_2_write_amplification', e), 'ratio')} host pages (writes padded to whole groups)"
                )
            ),
            "Counted, not simulated as extra programs.",
        ],
    ]
    headers = ["seed figure", "seed 002", "ssdlab, chips' spread only", "ssdlab, with block spread", "what remains different, and why"]
    return markdown_grid(headers, rows)


def _report(
    selected: Sequence[Workload],
    table: Sequence[Mapping[str, Any]],
    figures: Mapping[str, Path],
    outcome: Any,
    scheduler: str | None,
    tables: Mapping[str, Mapping[str, Any]],
) -> str:
    config = api.load_config(PRESET)
    classes = tomllib.loads(config)["read_path"]["decoding"]["failure_probabilities"]
    hard = ", ".join(f"{100 * c[0]:.1f} %" for c in classes)
    hard_mean = 100 * sum(c[0] for c in classes) / len(classes)
    table_lines = "\n".join(
        f"- `{key}`: mean failure by precision {', '.join(f'{100 * p:.2f} %' for p in t['mean'][:3])} (hard, 1, 2 extra levels); "
        f"{t['spec']['frames_per_case']:,} frames per row, page type and precision"
        for key, t in tables.items()
    )
    workload_lines = "\n".join(f"- **{_label(w)}**: {w.basis}." for w in selected)
    figure_lines = "\n".join(f"- {name}: `{path.name}`" for name, path in figures.items() if path.suffix == ".png")
    return f"""# Seed 002 reproduction: LDPC read strategies

{provenance("ssdlab reproduce ldpc-read", outcome, scheduler)}

## Each seed figure beside ours

Two error models: the chips' spread only (the preset's table: hard-decision failure {hard} for the four chip classes, mean
{hard_mean:.1f} %; the seed: 28.8 %), and the same chips with block-to-block spread within each chip (seed Fig. 9; four block classes,
wear noise x{", x".join(f"{f:g}" for f in BLOCK_FACTORS)}). Ratios are mean read response time over the two-step baseline's, on 8
channels unless said, averaged over the workloads; "delay" is over the same workload without soft sensing, minus one. One decoding
draw per host request (`read_path.decoding.draw = "per_request"`): the seed gives its failure rate as a share of read operations.

{_figure_rows(table, tables)}

## All results

{_table_markdown(table)}

Energy: flash access = hard and extra sensing plus the transfers of read results (write data and GC copies left out); a cancelled
look-ahead sensing costs the fraction of a level it ran for, or, in the bracketed figure, every level it would have sensed.

## Workloads

{workload_lines}

## Setup

- Preset `{PRESET}` (`configs/{PRESET}.toml`), 8 channels or 2 (`device.geometry.channels`); on 2 channels the blocks per plane
  are 4x the preset's so the capacity, and with it every trace's address range, stays the same: only the parallelism changes.
- Timing as the seed's simulation section gives it (§5.1): 14 us per extra sensing level, one page moved per level. §2.3's measured
  soft read (about 125 us to sense seven levels, about 80 us to move the results) is `read_path.soft_sensing_latency_ns` /
  `soft_transfer_latency_ns` for users who prefer it.
- Decoding tables computed here by the ECC lab (real LDPC decoder, Monte Carlo at 10,000 P/E and one month at 40 C):
{table_lines}
- Data placement interleaving (seed §3.3): codewords cut into equal parts on the chips of a group; every read senses all of them
  (`read_path.interleave_groups`; each die busy for the sensing, the parts together one page on the channel they share) and host
  writes are padded to whole groups (counted). "All three": look-ahead and progressive reads of 4-way interleaved codewords.

## Figures

{figure_lines}

## Base configuration

```toml
{config.strip()}
```
"""
