"""Seed 000 (AOA-ECC): decoders chosen by wear and workload class, against the conventional BCH-then-
soft-LDPC controller.

The device and decoders are the preset ``seed000-aoa`` (its comments say what the seed gives and what
is chosen). Three parts:

- Fig. 5: tolerable P/E of BCH, Quick-LDPC, EP-LDPC (and soft LDPC) against data retention, from the
  ECC lab's tables in the preset (``ssdlab ecc decoder-tables``; mean over chips, 1 % failure).
- Fig. 6: IOPS against P/E (every block aged to the same count) on the prxy_1 stand-in, closed loop,
  conventional against AOA-ECC; the adaptive conventional controller (BCH per read by data age) beside.
- Fig. 7 / Table 1: every MSR trace in ../shared/traces (real samples and full traces, replayed closed
  loop, looped to at least ``min_requests``), the prxy_1 stand-in and labelled stand-ins for web_1 and
  proj_3, at one P/E count (``table_pe``); the class each gets online, and AOA-ECC's IOPS over the
  conventional controller's.

Real traces keep their own timestamps: a page's initial data age comes from how often the trace
rewrites it (``rewrite_interval``) and the online class from the same timeline, so a sample of minutes
is classed as ``ssdlab trace stats`` classes it (rates extrapolated to a week).
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ssdlab import api, plotting
from ssdlab.locations import shared_dir
from ssdlab.reproduce import report
from ssdlab.reproduce.base import Claim, Headline, Option, Recipe, Workload
from ssdlab.reproduce.report import fmt, markdown_grid, markdown_table, provenance
from ssdlab.sweep import Sweep, SweepError, run_sweep

PRESET = "seed000-aoa"
POLICIES: dict[str, list[str]] = {
    "conventional": ['read_path.strategy="conventional"'],
    "aoa_ecc": ['read_path.strategy="aoa_ecc"'],
}
# BCH decided per read by data age: a stronger baseline than the seed's (see read_path/conventional.rs).
ADAPTIVE = {"adaptive_conventional": ['read_path.strategy="conventional"', 'read_path.conventional_switch="data_age"']}
PE_POINTS = tuple(range(0, 26_001, 2_000))
# The regime: the prxy_1 stand-in's read share (not published; 65 % in the preset) at Fig. 7's P/E.
READ_SHARES = (0.5, 0.65, 0.8, 0.95)
TABLE_PE = 14_000
MIN_REQUESTS = 50_000
WEEK_HOURS = 168.0

SEED = {
    "ep_over_bch": 0.57,
    "hot_over_cold_switch": 2.3,
    "prxy1_switch_pe": 2_000,
    "fig6_mean": 1.8,
    "fig6_max": 2.1,
    "write_dominant": 1.5,
    "read_dominant": 3.0,
    "web_1": 0.91,
    "proj_3": 1.05,
    "decoder_cost_saving": 0.25,
}


def _stand_in(read_fraction: float, requests: int, span_bytes: int) -> tuple[str, ...]:
    """A variation of the preset's prxy_1 stand-in (same locality, sizes and week-long timeline)."""
    return (
        f"workload.synthetic.requests={requests}",
        f"workload.synthetic.read_fraction={read_fraction}",
        f"workload.synthetic.span_bytes={span_bytes}",
        f'workload.synthetic.arrival={{ process = "poisson", mean_interarrival_ns = {WEEK_HOURS * 3.6e12 / requests:.1f} }}',
    )


def _trace_overrides(path: Path, requests: int, min_requests: int) -> tuple[str, ...]:
    loops = max(1, math.ceil(min_requests / max(requests, 1)))
    return (f"workload.trace.path={json.dumps(str(path))}", f"host.loops={loops}")


def workloads(min_requests: int = MIN_REQUESTS, traces: Mapping[str, Path] | None = None) -> tuple[Workload, ...]:
    """The prxy_1 stand-in, every MSR trace in ../shared/traces, and stand-ins for web_1 and proj_3
    (not available); a user's trace replaces a stand-in of the same name."""
    traces = dict(traces or {})
    chosen: list[Workload] = [
        Workload(
            "prxy_1",
            "stand-in",
            "stand-in (preset seed000-aoa): 600,000 requests of 4 KiB, 65 % reads (chosen), 47 requests per page per week as the "
            "real trace (168.6M requests over 3.59M blocks), 90 % of accesses to 10 % of 50 MiB, a week of arrivals",
        ),
        Workload(
            "web_1",
            "stand-in",
            "stand-in (nothing published): the prxy_1 stand-in with 30 % reads (seed 000: write-dominant)",
            overrides=_stand_in(0.30, 600_000, 52_428_800),
        ),
        Workload(
            "proj_3",
            "stand-in",
            "stand-in (nothing published): 90 % reads (seed 000: read-dominant), 200,000 requests over 200 MiB "
            "(fewer writes per page: the class comes out as measured)",
            overrides=_stand_in(0.90, 200_000, 209_715_200),
        ),
    ]
    where = shared_dir()
    folder = where / "traces" if where else None
    if folder is not None and folder.is_dir():
        for path in sorted(folder.glob("msr-*.csv.gz")):
            name = path.name.removeprefix("msr-").split(".")[0]
            stats = api.trace_stats(path)["stats"]
            kind = "full" if ".full." in path.name else "sample"
            basis = (
                f"real {'trace' if kind == 'full' else 'sample'} {path.name}: {stats['requests']:,} requests, {stats['read_share']:.1%} reads, "
                f"{stats['duration_s'] / 3600:.1f} h, replayed closed loop with its own timeline"
            )
            chosen.append(Workload(name, kind, basis, overrides=_trace_overrides(path, stats["requests"], min_requests)))
    result = []
    for workload in chosen:
        if workload.name in traces:
            path = traces.pop(workload.name)
            result.append(
                Workload(
                    workload.name,
                    "user",
                    f"full trace given by the user: {path}",
                    overrides=(f"workload.trace.path={json.dumps(str(path))}",),
                )
            )
        else:
            result.append(workload)
    return tuple(result)


WORKLOAD_NAMES = ("prxy_1", "web_1", "proj_3")


def parse_trace_options(items: Sequence[str]) -> dict[str, Path]:
    """``--trace NAME=PATH``: the user's full trace replaces the stand-in of that workload."""
    return report.parse_trace_options(items, WORKLOAD_NAMES)


def _label(workload: Workload) -> str:
    return workload.label


def preset_tables() -> dict[str, Any]:
    """The preset's decoder tables and settings (the ECC lab's numbers, see the preset)."""
    return tomllib.loads(api.load_config(PRESET))["read_path"]


def _crossing(x: Sequence[float], y: Sequence[float], target: float) -> float | None:
    if y[0] >= target:
        return x[0]
    for i in range(1, len(x)):
        if y[i] >= target:
            fraction = (target - y[i - 1]) / (y[i] - y[i - 1]) if y[i] > y[i - 1] else 1.0
            return x[i - 1] + fraction * (x[i] - x[i - 1])
    return None


def tolerable_pe(read_path: Mapping[str, Any]) -> dict[str, list[float | None]]:
    """Each decoder's tolerable P/E at each retention of the grid (mean over chip classes)."""
    tables = read_path["decoder_tables"]
    pes, hours = tables["pe_cycles"], tables["retention_hours"]
    target = read_path["target_failure_probability"]
    out = {}
    for decoder, chips in tables["failure_probabilities"].items():
        row = []
        for r in range(len(hours)):
            mean = [sum(chip[p][r] for chip in chips) / len(chips) for p in range(len(pes))]
            row.append(_crossing(pes, mean, target))
        out[decoder] = row
    return out


def decoder_costs(read_path: Mapping[str, Any]) -> dict[str, int | None]:
    """Gates of the decoder hardware each policy needs (hardware shared between kinds counted once)."""
    decoders = read_path.get("decoders", {})

    def cost(kinds: Sequence[str]) -> int | None:
        hardware: dict[str, int] = {}
        for kind in kinds:
            entry = decoders.get(kind, {})
            if "gates" not in entry:
                return None
            hardware[entry.get("hardware", kind)] = entry["gates"]
        return sum(hardware.values())

    return {"conventional": cost(["bch", "ldpc_soft"]), "aoa_ecc": cost(["quick_ldpc", "ep_ldpc", "ldpc_soft"])}


def build_regime_sweep(table_pe: int) -> Sweep:
    return Sweep(
        name="seed000-regime",
        base=PRESET,
        common=[f"ftl.aging.pe_cycles={table_pe}"],
        cases={
            "read_share": {f"{share:g}": [f"workload.synthetic.read_fraction={share}"] for share in READ_SHARES},
            "policy": dict(POLICIES),
        },
        origin="reproduce aoa-ecc (regime)",
    )


def regime_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    grouped: dict[float, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(float(row["point.read_share"]), {})[row["point.policy"]] = row
    table = []
    for share in sorted(grouped):
        runs = grouped[share]
        conv = _result(runs["conventional"]) if "conventional" in runs else None
        aoa = _result(runs["aoa_ecc"]) if "aoa_ecc" in runs else None
        entry = {
            "read_share": share,
            "conventional_iops": conv["all"]["iops"] if conv else None,
            "aoa_ecc_iops": aoa["all"]["iops"] if aoa else None,
            "conventional_read_mean_us": conv["read"]["latency_us"]["mean"] if conv else None,
            "aoa_ecc_read_mean_us": aoa["read"]["latency_us"]["mean"] if aoa else None,
        }
        entry["aoa_over_conventional"] = (
            entry["aoa_ecc_iops"] / entry["conventional_iops"] if entry["aoa_ecc_iops"] and entry["conventional_iops"] else None
        )
        table.append(entry)
    return table


def switch_ratios(
    tolerable: Mapping[str, Sequence[float | None]], hours: Sequence[float], hot_hours: float
) -> list[tuple[float, float | None]]:
    """Quick-LDPC's hot switch point over its switch point at each longer retention (the cold class's
    retention is a definition: seed 000 says only "six days or more")."""
    quick = dict(zip(hours, tolerable.get("quick_ldpc", [])))
    hot = quick.get(hot_hours)
    return [(h, hot / pe if hot and pe else None) for h, pe in quick.items() if h > hot_hours]


def _where_ratio_holds(ratios: Sequence[tuple[float, float | None]], seed_ratio: float) -> str:
    reached = next(((h, r) for h, r in ratios if r is not None and r >= seed_ratio), None)
    if reached:
        return f"The seed's {seed_ratio:g}x is reached when cold data is {reached[0]:g} h old ({fmt(reached[1], 'times')}), i.e. cold means older data here than the seed's six days."
    known = [(h, r) for h, r in ratios if r is not None]
    if not known:
        return "Quick-LDPC's switch points are beyond the grid, so no ratio can be read."
    return f"It stays below the seed's {seed_ratio:g}x over the grid (at most {fmt(known[-1][1], 'times')} for {known[-1][0]:g} h old cold data)."


def build_sweeps(
    selected: Sequence[Workload], pe_points: Sequence[int], table_pe: int, fig7: Sequence[Workload] | None = None
) -> tuple[Sweep, Sweep]:
    """Fig. 6's grid (the prxy_1 stand-in of ``selected``) and Fig. 7's (``fig7``, default ``selected``)."""
    prxy = next(w for w in selected if w.name == "prxy_1")
    fig6 = Sweep(
        name="seed000-fig6",
        base=PRESET,
        common=list(prxy.overrides),
        cases={"pe": {str(pe): [f"ftl.aging.pe_cycles={pe}"] for pe in pe_points}, "policy": {**POLICIES, **ADAPTIVE}},
        origin="reproduce aoa-ecc (Fig. 6)",
    )
    fig7 = Sweep(
        name="seed000-fig7",
        base=PRESET,
        common=[f"ftl.aging.pe_cycles={table_pe}"],
        cases={"workload": {_label(w): list(w.overrides) for w in (selected if fig7 is None else fig7)}, "policy": dict(POLICIES)},
        origin="reproduce aoa-ecc (Fig. 7)",
    )
    return fig6, fig7


def _result(row: Mapping[str, Any]) -> dict[str, Any] | None:
    return json.loads(row["result_json"]) if row["status"] == "ok" else None


def _decoder_share(result: Mapping[str, Any] | None, decoder: str) -> float | None:
    if not result or not result.get("read_path"):
        return None
    statistics = result["read_path"]
    reads = statistics.get("sampled_reads", 0)
    first = sum(d["first_choice_reads"] for d in statistics.get("decoders", []) if d["decoder"] == decoder)
    return first / reads if reads else None


def fig6_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    grouped: dict[int, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(int(row["point.pe"]), {})[row["point.policy"]] = row
    table = []
    for pe in sorted(grouped):
        entry: dict[str, Any] = {"pe_cycles": pe}
        for policy in (*POLICIES, *ADAPTIVE):
            result = _result(grouped[pe][policy]) if policy in grouped[pe] else None
            entry[f"{policy}_iops"] = result["all"]["iops"] if result else None
            entry[f"{policy}_read_mean_us"] = result["read"]["latency_us"]["mean"] if result else None
            entry[f"{policy}_uncorrectable"] = result["read_path"]["uncorrectable_reads"] if result and result.get("read_path") else None
        aoa = _result(grouped[pe]["aoa_ecc"]) if "aoa_ecc" in grouped[pe] else None
        conv = _result(grouped[pe]["conventional"]) if "conventional" in grouped[pe] else None
        entry["aoa_quick_share"] = _decoder_share(aoa, "quick_ldpc")
        entry["aoa_ep_share"] = _decoder_share(aoa, "ep_ldpc")
        entry["conventional_bch_share"] = _decoder_share(conv, "bch")
        entry["conventional_soft_share"] = _decoder_share(conv, "ldpc_soft")
        entry["aoa_over_conventional"] = (
            entry["aoa_ecc_iops"] / entry["conventional_iops"] if entry["aoa_ecc_iops"] and entry["conventional_iops"] else None
        )
        entry["class"] = (aoa or {}).get("workload_class", {}).get("final_class")
        table.append(entry)
    return table


def fig7_rows(rows: Sequence[Mapping[str, Any]], selected: Sequence[Workload]) -> list[dict[str, Any]]:
    grouped: dict[str, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(row["point.workload"], {})[row["point.policy"]] = row
    table = []
    for workload in selected:
        label = _label(workload)
        runs = grouped.get(label, {})
        aoa = _result(runs["aoa_ecc"]) if "aoa_ecc" in runs else None
        conv = _result(runs["conventional"]) if "conventional" in runs else None
        reads = aoa["read"]["count"] if aoa else 0
        requests = aoa["requests"] if aoa else 0
        entry = {
            "workload": label,
            "kind": workload.kind,
            "requests": requests,
            "read_share": reads / requests if requests else None,
            "class": aoa["workload_class"]["final_class"] if aoa and aoa.get("workload_class") else None,
            "conventional_iops": conv["all"]["iops"] if conv else None,
            "aoa_ecc_iops": aoa["all"]["iops"] if aoa else None,
            "aoa_quick_share": _decoder_share(aoa, "quick_ldpc"),
            "conventional_soft_share": _decoder_share(conv, "ldpc_soft"),
            "status": "ok" if aoa and conv else "; ".join(str(runs[p]["error"]) for p in runs if runs[p]["status"] != "ok") or "missing",
        }
        entry["aoa_over_conventional"] = (
            entry["aoa_ecc_iops"] / entry["conventional_iops"] if entry["aoa_ecc_iops"] and entry["conventional_iops"] else None
        )
        table.append(entry)
    return table


def _run(
    out: Path,
    *,
    pe_points: Sequence[int] = PE_POINTS,
    table_pe: int = TABLE_PE,
    min_requests: int = MIN_REQUESTS,
    traces: Mapping[str, Path] | None = None,
    only: Sequence[str] | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[..., object] | None = None,
) -> report.Reproduction:
    """Runs the three grids (resuming a previous run in ``out``), writes tables, figures and report.
    ``only`` keeps some of Fig. 7's workloads (Fig. 6 always runs the prxy_1 stand-in)."""
    if len(pe_points) < 2:
        raise SweepError("--pe: give at least two P/E counts for Fig. 6")
    if min_requests < 1000:
        raise SweepError(f"--min-requests {min_requests}: at least 1,000 requests are needed for a meaningful IOPS")
    every = workloads(min_requests, traces)
    selected = report.selected(every, only)
    read_path = preset_tables()
    fig6_sweep, fig7_sweep = build_sweeps(every, pe_points, table_pe, selected)
    fig6 = run_sweep(fig6_sweep, out / "sweep-fig6", scheduler=scheduler, workers=workers, progress=progress)
    fig7 = run_sweep(fig7_sweep, out / "sweep-fig7", scheduler=scheduler, workers=workers, progress=progress)
    regime = run_sweep(build_regime_sweep(table_pe), out / "sweep-regime", scheduler=scheduler, workers=workers, progress=progress)
    table6, table7, table_regime = fig6_rows(fig6.rows), fig7_rows(fig7.rows, selected), regime_rows(regime.rows)
    tolerable = tolerable_pe(read_path)
    paths = figures(read_path["decoder_tables"]["retention_hours"], tolerable, table6, table7, out)
    values = derived(read_path, tolerable, table6, table7)
    text = _report(selected, read_path, tolerable, table6, table7, table_regime, paths, (fig6, fig7, regime), scheduler, table_pe, values)
    return report.finish(
        out,
        tables={"fig6": table6, "fig7": table7, "regime": table_regime},
        main="fig7",
        report_text=text,
        summary=_fig7_markdown(table7),
        figures=paths,
        outcomes=(fig6, fig7, regime),
        headlines=headlines(values),
    )


CLAIMS = (
    Claim("ep_over_bch", "Fig. 5: EP-LDPC tolerable P/E over BCH's", SEED["ep_over_bch"], "change", "pct", side="> 0"),
    Claim("hot_over_cold_switch", "Fig. 5: Quick-LDPC switch point, hot over cold", SEED["hot_over_cold_switch"], "x", "times", side="> 1"),
    Claim("prxy1_switch_pe", "Fig. 5: prxy_1's switch point (hot data)", SEED["prxy1_switch_pe"], "P/E cycles", "int"),
    Claim("fig6_mean", "Fig. 6: AOA-ECC IOPS over conventional, mean over P/E", SEED["fig6_mean"], "x", "times", side="> 1"),
    Claim("fig6_max", "Fig. 6: AOA-ECC IOPS over conventional, maximum", SEED["fig6_max"], "x", "times", side="> 1"),
    Claim("read_dominant", "Fig. 7: read-dominant workloads, AOA-ECC over conventional", SEED["read_dominant"], "x", "times", side="> 1"),
    Claim(
        "write_dominant", "Fig. 7: write-dominant workloads, AOA-ECC over conventional", SEED["write_dominant"], "x", "times", side="> 1"
    ),
    Claim("web_1", "Table 1: web_1, AOA-ECC over conventional", SEED["web_1"], "x", "times", side="< 1"),
    Claim("proj_3", "Table 1: proj_3, AOA-ECC over conventional", SEED["proj_3"], "x", "times", side="> 1"),
    Claim("decoder_cost_saving", "decoder cost saving (gates)", SEED["decoder_cost_saving"], "share of gates", "share", side="> 0"),
)


def derived(
    read_path: Mapping[str, Any],
    tolerable: Mapping[str, Sequence[float | None]],
    table6: Sequence[Mapping[str, Any]],
    table7: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The figures the report and the headlines read off the tables."""
    hours = read_path["decoder_tables"]["retention_hours"]
    aoa = read_path.get("aoa_ecc", {})
    hot_hours, cold_hours = aoa.get("hot_retention_hours", 24.0), aoa.get("cold_retention_hours", 144.0)

    def at(decoder: str, h: float) -> float | None:
        return tolerable.get(decoder, [None] * len(hours))[hours.index(h)] if h in hours else None

    ep_gain = {h: (at("ep_ldpc", h) / at("bch", h) - 1) if at("ep_ldpc", h) and at("bch", h) else None for h in hours}
    hot_switch, cold_switch = at("quick_ldpc", hot_hours), at("quick_ldpc", cold_hours)
    ratios = [r["aoa_over_conventional"] for r in table6 if r["aoa_over_conventional"]]
    costs = decoder_costs(read_path)
    by_name = {r["workload"].split(" ")[0]: r for r in table7}

    def mean(values: Sequence[float]) -> float | None:
        return sum(values) / len(values) if values else None

    return {
        "hours": hours,
        "hot_hours": hot_hours,
        "cold_hours": cold_hours,
        "ep_gain": ep_gain,
        "hot_switch": hot_switch,
        "cold_switch": cold_switch,
        "switch_ratio": hot_switch / cold_switch if hot_switch and cold_switch else None,
        "ratios": ratios,
        "mean_ratio": mean(ratios),
        "max_ratio": max(ratios) if ratios else None,
        "costs": costs,
        "saving": 1 - costs["aoa_ecc"] / costs["conventional"] if costs["aoa_ecc"] and costs["conventional"] else None,
        "by_name": by_name,
        "read_dominant": mean(
            [
                r["aoa_over_conventional"]
                for r in table7
                if r["aoa_over_conventional"] and r["read_share"] is not None and r["read_share"] > 0.5
            ]
        ),
        "write_dominant": mean(
            [
                r["aoa_over_conventional"]
                for r in table7
                if r["aoa_over_conventional"] and r["read_share"] is not None and r["read_share"] <= 0.5
            ]
        ),
    }


def headlines(values: Mapping[str, Any]) -> list[Headline]:
    """Seed 000's figures beside ours."""
    claim = {c.key: c for c in CLAIMS}
    cold = values["cold_hours"]
    gains = ", ".join(f"{h:g} h {fmt(g, 'pct')}" for h, g in values["ep_gain"].items() if g is not None)
    stand_in = "a stand-in here (the trace is not available)"
    return [
        claim["ep_over_bch"].measure(values["ep_gain"].get(cold), where=f"{cold:g} h old data", note=f"by retention: {gains}"),
        claim["hot_over_cold_switch"].measure(
            values["switch_ratio"],
            where=f"{values['hot_hours']:g} h over {cold:g} h",
            note="depends on what 'cold' means (the seed: six days or more)",
        ),
        claim["prxy1_switch_pe"].measure(
            values["hot_switch"], note="our channel is seed 002's chip, rated about 10,000 P/E; the seed's chip about 3,000"
        ),
        claim["fig6_mean"].measure(
            values["mean_ratio"], where="prxy_1 stand-in", note=f"{len(values['ratios'])} P/E points; see the read-share regime"
        ),
        claim["fig6_max"].measure(values["max_ratio"], where="prxy_1 stand-in"),
        claim["read_dominant"].measure(values["read_dominant"], note="reads > 50 %"),
        claim["write_dominant"].measure(values["write_dominant"], note="most MSR samples here are minutes long and almost write-only"),
        claim["web_1"].measure((values["by_name"].get("web_1") or {}).get("aoa_over_conventional"), note=stand_in),
        claim["proj_3"].measure((values["by_name"].get("proj_3") or {}).get("aoa_over_conventional"), note=stand_in),
        claim["decoder_cost_saving"].measure(values["saving"], note="the gate counts are the seed's: arithmetic, not a result"),
    ]


def _fig6_markdown(table: Sequence[Mapping[str, Any]]) -> str:
    return markdown_table(
        table,
        (
            ("P/E", "pe_cycles", "int"),
            ("conventional IOPS", "conventional_iops", "int"),
            ("AOA-ECC IOPS", "aoa_ecc_iops", "int"),
            ("AOA / conventional", "aoa_over_conventional", "times"),
            ("adaptive conventional IOPS", "adaptive_conventional_iops", "int"),
            (
                "conventional: BCH / soft reads",
                lambda r: f"{fmt(r['conventional_bch_share'], 'share')} / {fmt(r['conventional_soft_share'], 'share')}",
                "text",
            ),
            ("AOA: Quick / EP reads", lambda r: f"{fmt(r['aoa_quick_share'], 'share')} / {fmt(r['aoa_ep_share'], 'share')}", "text"),
            ("uncorrectable reads", "aoa_ecc_uncorrectable", "int"),
        ),
    )


def _fig7_markdown(table: Sequence[Mapping[str, Any]]) -> str:
    return markdown_table(
        table,
        (
            ("workload", "workload", "text"),
            ("requests", "requests", "int"),
            ("reads", "read_share", "share"),
            ("class (online)", lambda r: r["class"] or "n/a", "text"),
            ("conventional IOPS", "conventional_iops", "int"),
            ("AOA-ECC IOPS", "aoa_ecc_iops", "int"),
            ("AOA / conventional", "aoa_over_conventional", "times"),
            ("status", "status", "text"),
        ),
    )


def figures(
    hours: Sequence[float],
    tolerable: Mapping[str, Sequence[float | None]],
    table6: Sequence[Mapping[str, Any]],
    table7: Sequence[Mapping[str, Any]],
    out: Path,
) -> dict[str, Path]:
    """Fig. 5 (tolerable P/E against retention), Fig. 6 (IOPS against P/E) and Fig. 7 (AOA-ECC over
    conventional by workload), through ``ssdlab.plotting``."""
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    paths["fig5_tolerable_pe"] = plotting.line_chart(
        {decoder: (list(hours), list(row)) for decoder, row in tolerable.items()},
        out / "fig5_tolerable_pe",
        xlabel="data retention (hours, 40 C)",
        ylabel="tolerable P/E cycles",
        title="Fig. 5: tolerable P/E against retention (points beyond the grid left out)",
        logx=True,
    )[0]
    pes = [r["pe_cycles"] for r in table6]
    series = {}
    styles = {}
    for key, label, style in (
        ("conventional_iops", "conventional (BCH → soft LDPC)", "s-"),
        ("aoa_ecc_iops", "AOA-ECC (Quick → EP-LDPC)", "o-"),
        ("adaptive_conventional_iops", "BCH chosen per read by data age", "^--"),
    ):
        series[label] = (pes, [r[key] or None for r in table6])
        styles[label] = style
    paths["fig6_iops_vs_pe"] = plotting.line_chart(
        series,
        out / "fig6_iops_vs_pe",
        xlabel="P/E cycles",
        ylabel="IOPS (closed loop, queue depth 32)",
        title="Fig. 6: IOPS against wear, prxy_1 stand-in",
        styles=styles,
        ybottom=0,
    )[0]
    rows = [r for r in table7 if r.get("aoa_over_conventional")]
    paths["fig7_by_workload"] = plotting.bar_chart(
        [r["workload"] for r in rows],
        [r["aoa_over_conventional"] for r in rows],
        out / "fig7_by_workload",
        ylabel="AOA-ECC IOPS / conventional IOPS",
        title="Fig. 7: by workload (green: read-dominant, orange: write-dominant)",
        colours=["#1b9e77" if (r["read_share"] or 0) > 0.5 else "#d95f02" for r in rows],
        reference=1.0,
    )[0]
    return paths


def _pe_points(values: list[int] | None) -> tuple[int, ...]:
    return tuple(sorted(set(values))) if values else PE_POINTS


class AoaEcc(Recipe):
    name = "aoa-ecc"
    seed = "000"
    title = "AOA-ECC"
    help = (
        "Seed 000: AOA-ECC vs conventional BCH-then-soft-LDPC; Fig. 5 (tolerable P/E), Fig. 6 (IOPS vs P/E), Fig. 7 / Table 1 and a report."
    )
    claims = CLAIMS
    options = (
        Option(
            "pe_points",
            ("--pe",),
            list[int] | None,
            None,
            "P/E count of Fig. 6 (repeatable; default 0 to 26,000 in steps of 2,000).",
            convert=_pe_points,
        ),
        Option("table_pe", ("--table-pe",), int, TABLE_PE, "P/E count of Fig. 7 and Table 1."),
        Option("min_requests", ("--min-requests",), int, MIN_REQUESTS, "Loop short traces to at least this many requests."),
    )

    def workloads(self) -> Sequence[Workload]:
        return workloads()

    def workload_names(self) -> list[str]:
        # The stand-ins, then the MSR traces found in ../shared/traces (named without reading them).
        where = shared_dir()
        folder = where / "traces" if where else None
        found = (
            [p.name.removeprefix("msr-").split(".")[0] for p in sorted(folder.glob("msr-*.csv.gz"))] if folder and folder.is_dir() else []
        )
        return list(dict.fromkeys([*WORKLOAD_NAMES, *found]))

    def trace_names(self) -> list[str]:
        return list(WORKLOAD_NAMES)

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
        pe_points: Sequence[int] = PE_POINTS,
        table_pe: int = TABLE_PE,
        min_requests: int = MIN_REQUESTS,
    ) -> report.Reproduction:
        return _run(
            out,
            pe_points=pe_points,
            table_pe=table_pe,
            min_requests=min_requests,
            traces=traces,
            only=workloads,
            scheduler=scheduler,
            workers=workers,
            progress=progress,
        )


RECIPE = AoaEcc()
reproduce = RECIPE.reproduce


def _report(
    selected: Sequence[Workload],
    read_path: Mapping[str, Any],
    tolerable: Mapping[str, Sequence[float | None]],
    table6: Sequence[Mapping[str, Any]],
    table7: Sequence[Mapping[str, Any]],
    table_regime: Sequence[Mapping[str, Any]],
    figures: Mapping[str, Path],
    outcomes: Sequence[Any],
    scheduler: str | None,
    table_pe: int,
    values: Mapping[str, Any],
) -> str:
    hours = values["hours"]
    target = read_path["target_failure_probability"]
    hot_hours, cold_hours = values["hot_hours"], values["cold_hours"]
    ep_gain, hot_switch, cold_switch = values["ep_gain"], values["hot_switch"], values["cold_switch"]
    switch_ratio, ratios, mean_ratio, max_ratio = values["switch_ratio"], values["ratios"], values["mean_ratio"], values["max_ratio"]
    costs, saving, by_name = values["costs"], values["saving"], values["by_name"]
    tolerable_table = markdown_grid(
        ["decoder", *(f"{h:g} h" for h in hours)],
        [[decoder, *("beyond grid" if pe is None else f"{pe:,.0f}" for pe in row)] for decoder, row in tolerable.items()],
    )
    command = "ssdlab reproduce aoa-ecc"
    ratios_by_retention = switch_ratios(tolerable, hours, hot_hours)
    regime_table = markdown_table(
        table_regime,
        (
            ("reads", "read_share", "share"),
            ("conventional IOPS", "conventional_iops", "int"),
            ("AOA-ECC IOPS", "aoa_ecc_iops", "int"),
            ("AOA / conventional", "aoa_over_conventional", "times"),
            ("conventional read mean us", "conventional_read_mean_us", "us"),
            ("AOA-ECC read mean us", "aoa_ecc_read_mean_us", "us"),
        ),
    )
    cost_table = markdown_grid(
        ["policy", "decoder hardware", "gates"],
        [
            ["conventional", "BCH + LDPC", fmt(costs["conventional"], "int")],
            ["AOA-ECC", "one LDPC decoder (Quick, EP and soft inputs)", fmt(costs["aoa_ecc"], "int")],
        ],
    )
    opening = provenance(command, outcomes[0], scheduler).replace(
        "`sweep/results.parquet`", "`sweep-fig6/`, `sweep-fig7/` and `sweep-regime/` (`results.parquet` each)"
    )
    return f"""# Seed 000 (AOA-ECC) reproduced with ssdlab

{opening} Fig. 6's grid is counted above; Fig. 7's: {outcomes[1].ran} points run now, {outcomes[1].skipped} reused, {outcomes[1].failed} failed;
the regime grid's: {outcomes[2].ran} run, {outcomes[2].skipped} reused, {outcomes[2].failed} failed.

## Setup

Preset `seed000-aoa` (read its comments): seed 002's MLC SSD with seed 000's decoder sensing times
(Quick-LDPC 40 / 62 us, EP-LDPC 102 us for the word line, soft LDPC six extra read operations of 40 us),
8 us decode, closed loop at queue depth 32. Decoding-failure probabilities by decoder x chip x P/E x
retention come from this repository's ECC lab (real BCH and LDPC decoders on the MLC channel of SPEC
§4.1, 40 C storage; the preset names the command). A decoder's tolerable P/E is where its failure
probability reaches {target:g}. The conventional controller switches from BCH to soft LDPC at BCH's
tolerable P/E for {read_path.get("conventional_retention_hours", 144.0):g} h old data; AOA-ECC switches
from Quick-LDPC to EP-LDPC at Quick-LDPC's tolerable P/E for {hot_hours:g} h (hot) or {cold_hours:g} h (cold)
data, by the class it measures online (sliding week); both per block.

Workloads: {"; ".join(f"**{_label(w)}**: {w.basis}" for w in selected)}.

## Fig. 5: tolerable P/E against retention

{tolerable_table}

- EP-LDPC over BCH: {", ".join(f"{h:g} h {fmt(g, 'pct')}" for h, g in ep_gain.items() if g is not None)}. Seed: +57 %.
- Quick-LDPC's switch point, hot ({hot_hours:g} h) over cold ({cold_hours:g} h): {fmt(switch_ratio, "times")}
  ({fmt(hot_switch, "int")} / {fmt(cold_switch, "int")} P/E). Seed: 2.3x; prxy_1 switches near 2,000 P/E.

The hot/cold ratio depends on what "cold" means; seed 000 says only that cold data lives six days or more.
Quick-LDPC's hot switch point ({hot_hours:g} h) over its switch point at longer retention:
{", ".join(f"{h:g} h {fmt(r, 'times')}" for h, r in ratios_by_retention)}. {_where_ratio_holds(ratios_by_retention, SEED["hot_over_cold_switch"])}

Why these differ: our channel is the one calibrated to seed 002's chip (28.8 % hard-decision failure at
10,000 P/E after a month at 40 C; an MLC rated 10,000 P/E), not seed 000's 2x-nm chip (whose reference
[1] is rated about 3,000): every P/E count here is several times the seed's. The hot/cold ratio depends on
how fast retention loss grows with time in the channel model (ln-time drift, SPEC §4.1); the seed measured
it on real chips. EP-LDPC's gain over BCH shrinks at long retention because the word-line read helps
against interference, while retention shifts both pages' states alike.

## Fig. 6: IOPS against P/E (prxy_1 stand-in)

{_fig6_markdown(table6)}

AOA-ECC over conventional: mean {fmt(mean_ratio, "times")} over the {len(ratios)} P/E points, maximum {fmt(max_ratio, "times")}.
Seed: 1.8x mean, 2.1x maximum. The ratio is 1.0 while BCH and Quick-LDPC both hold (one plain read each),
rises once the conventional controller switches to soft LDPC (seven sensings and seven pages out per
read) and AOA-ECC still reads one page, and stays above 1 when AOA-ECC has switched to EP-LDPC (one
word-line sensing, two pages). Writes take die time in both policies alike (35 % of requests here),
which bounds the ratio below the read-latency ratio. The adaptive conventional controller (BCH chosen per
read by the page's own age, which the seed's controller does not know) shows what knowing each page's
age is worth: hot data is young, so BCH keeps working long after the fixed switch point.

### Where the seed's ratio holds: the read share

The stand-in's read share is not published (65 % chosen). At {table_pe:,} P/E (conventional on soft LDPC,
AOA-ECC mostly on Quick-LDPC), the prxy_1 stand-in with other read shares:

{regime_table}

The seed's 1.8x mean and 2.1x maximum need a read-heavier mix than our 65 % (or a slower soft read):
the ratio grows with the share of die time spent reading.

## Fig. 7 and Table 1: workloads by class at {table_pe:,} P/E

{_fig7_markdown(table7)}

- Read-dominant workloads (reads > 50 %): mean {fmt(values["read_dominant"], "times")} (seed: 3x).
- Write-dominant workloads: mean {fmt(values["write_dominant"], "times")} (seed: 1.5x).
- Table 1: web_1 {fmt((by_name.get("web_1") or {}).get("aoa_over_conventional"), "times")} (seed 0.91x), proj_3
  {fmt((by_name.get("proj_3") or {}).get("aoa_over_conventional"), "times")} (seed 1.05x); both are stand-ins here
  (the traces are not available and nothing of them is published), so these two rows test the model, not
  the seed's traces. The seed's Table 1 does not say at which wear it measured.
- Most MSR samples here are a few minutes long and almost write-only (0-2 % reads): with nothing to
  read there is nothing for a read policy to gain (ratio near 1). The seed replayed week-long traces.

## Decoder cost (from the preset's `read_path.decoders.*.gates`)

{cost_table}

Saving {fmt(saving, "share")} (seed: 25 %; the gate counts are the seed's, so this row is arithmetic, not a result).

## Figures

{chr(10).join(f"- {name}: `{path.name}`" for name, path in figures.items())}
"""
