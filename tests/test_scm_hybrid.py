"""Seed 001's recipe end to end (the Financial1 sample, scaled down), its bad options, and the bisection."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest

from conftest import trace_or_skip
from ssdlab.optimize import bisect
from ssdlab.reproduce import scm_hybrid, scm_pins
from ssdlab.sweep import SweepError


def test_bisect_finds_a_crossing_in_log_scale_and_refuses_no_bracket():
    calls: list[float] = []

    def evaluate(xs):
        calls.extend(xs)
        return [100.0 / x for x in xs]

    found = bisect(0.1, 100.0, evaluate, target=20.0, iterations=12, log_scale=True)
    assert found is not None and abs(found.estimate - 5.0) < 0.05 and found.low <= 5.0 <= found.high
    assert len(calls) == 14 and len(found.history) == 14
    assert bisect(0.1, 1.0, evaluate, target=20.0) is None, "100/x > 20 over all of [0.1, 1]: no crossing"
    with pytest.raises(SweepError):
        bisect(0.0, 1.0, evaluate, log_scale=True)


def test_bit_cost_break_even_is_one_plus_a_quarter_of_the_mscm_cost_at_equal_capacities():
    for mscm_cost in (8.0, 12.0, 16.0):
        found = scm_hybrid.break_even_cost(1e9, 0.25e9, 1e9, mscm_cost)
        assert found is not None and math.isclose(found.estimate, 1 + 0.25 * mscm_cost, rel_tol=1e-4)


def _pin_run(ssd: str, tsv: bool, power: float, io: float, core: float, index: int = 1) -> dict:
    return {
        "study": "pins",
        "workload": "w",
        "ssd": ssd,
        "tsv": tsv,
        "value": index,
        "power_w": power,
        "io_power_w": io,
        "core_power_w": core,
    }


def test_pin_readings_solve_the_currents_by_hand():
    # Hybrid: 0.2 W of which 0.1 W core (at 25 mA) and 0.05 W pins; TSV leaves 0.155 W (saves 0.045 W).
    # All S-SCM: 0.1 W = 0.06 W pins + 0.04 W core, 0.004 W pins with TSV.
    table = [
        _pin_run("hybrid", False, 0.2, 0.05, 0.1),
        _pin_run("hybrid", True, 0.155, 0.005, 0.1),
        _pin_run("all_sscm", False, 0.1, 0.06, 0.04),
        _pin_run("all_sscm", True, 0.044, 0.004, 0.04),
    ]
    (row,) = scm_pins.rows(table, "w")
    assert row["reading"] == scm_pins.name_of(scm_pins.readings()[1])
    assert row["saving_vs_pair"] == pytest.approx(0.045 / 0.084) and not row["gives_pair_saving"]
    # 0.361 = 0.1 (the rest) + s x 0.1: s = 2.61, 65.25 mA.
    assert row["hybrid_current_ma"] == pytest.approx(65.25)
    # 0.26 x (0.06 + c) = 0.004 + c: c = 0.0116 / 0.74 W, at 0.04 W per 25 mA.
    assert row["sscm_current_ma"] == pytest.approx(25 * (0.0116 / 0.74) / 0.04)
    # Pins too small a share beside the current-independent rest (0.05 W): no S-SCM current reaches -74 %.
    table[2], table[3] = _pin_run("all_sscm", False, 0.15, 0.01, 0.09), _pin_run("all_sscm", True, 0.1405, 0.0005, 0.09)
    (row,) = scm_pins.rows(table, "w")
    assert row["sscm_current_ma"] is None and scm_pins.best([row]) is None


def test_reproduce_scm_hybrid_end_to_end(cli, tmp_path: Path):
    trace_or_skip("umass-financial1.ssdsim-ascii.first10k.txt.gz")
    out = tmp_path / "repro"
    args = ("reproduce", "scm-hybrid", "--out", str(out), "--workloads", "financial1", "--scale", "0.1", "--bisect-steps", "4")
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    table = pl.read_parquet(out / "table.parquet")
    assert set(table["status"].to_list()) == {"ok"}
    main = {(row["ssd"], row["tsv"]): row for row in table.filter(pl.col("study") == "main").iter_rows(named=True)}
    hybrid, all_sscm = main[("hybrid", False)], main[("all_sscm", False)]
    # The seed's direction: All S-SCM writes several times faster; the hybrid sends data both ways and
    # TSV lowers the power of both without changing their speed.
    assert all_sscm["write_mbps"] > 3 * hybrid["write_mbps"]
    assert hybrid["pieces_to_scm"] > 0 and hybrid["pieces_to_nand"] > 0 and all_sscm["pieces_to_nand"] == 0
    for ssd in ("hybrid", "all_sscm"):
        assert main[(ssd, True)]["power_w"] < main[(ssd, False)]["power_w"]
        assert main[(ssd, True)]["write_mbps"] == main[(ssd, False)]["write_mbps"]
    # Fig. 2: slower S-SCM, slower writes; a smaller M-SCM evicts.
    latency = table.filter((pl.col("ssd") == "all_sscm") & pl.col("study").is_in(["latency", "main"]) & ~pl.col("tsv")).sort("value")
    assert latency["write_mbps"].to_list() == sorted(latency["write_mbps"].to_list(), reverse=True)
    small = table.filter((pl.col("study") == "capacity") & (pl.col("value") == 0.05)).row(0, named=True)
    assert small["pages_evicted"] > 0
    # The break-even latency: bisection probes, and the All S-SCM SSD at that latency as fast as the hybrid.
    table2 = pl.read_parquet(out / "table2" / "table.parquet")
    ours = table2.filter(pl.col("workload") == "financial1").row(0, named=True)
    probes = table.filter(pl.col("study") == "bisect")
    assert probes.height >= 6 and ours["break_even_us"] is not None and 0.1 < ours["break_even_us"] < 100
    # Regimes: every hybrid variant's break-even, and the core current at which TSV cuts 74 %.
    regime = pl.read_parquet(out / "regime" / "table.parquet")
    # Main, 3 more M-SCM capacities, 2 more fragment thresholds, and the data sizes that differ at this
    # scale (the sample tiled once, against twice in the main runs).
    assert regime.height == 7 and regime["break_even_us"].null_count() == 0
    smaller = regime.filter(pl.col("hybrid").str.contains("data")).row(0, named=True)
    assert smaller["hybrid_mbps"] > 0 and smaller["break_even_us"] > 0
    assert regime.filter(pl.col("hybrid") == "M-SCM 5 % of NAND")["break_even_us"][0] > ours["break_even_us"], (
        "a smaller M-SCM: the hybrid loses sooner"
    )
    definitions = pl.read_parquet(out / "definitions" / "table.parquet")
    assert definitions.height == 4 and set(definitions["latency_axis"].to_list()) == {"read and write", "read only (write 1 us)"}
    tsv = pl.read_parquet(out / "tsv" / "table.parquet")
    current = tsv.filter(pl.col("note").is_not_null())["core_current_ma"][0]
    assert 0 < current < 25
    # The I/O pin readings: every reading on both SSDs; TSV saves more under pins that toggle all run
    # than under the same pins charged per byte; the chosen reading at its solved currents meets -74 %.
    pins = pl.read_parquet(out / "pins" / "table.parquet")
    assert pins.height == len(scm_pins.readings()) + 1, "the grid and the reading fitted to the pair's saving"
    fitted = pins.filter(pl.col("index") < 0).row(0, named=True)
    assert fitted["toggling"] == "continuous" and 0 < fitted["activity"] < 1
    assert fitted["saving_vs_pair"] == pytest.approx(1.0, abs=0.01), "the saving is linear in the activity"
    pins = pins.filter(pl.col("index") >= 0)
    for reading in pins.filter(pl.col("toggling") == "continuous").iter_rows(named=True):
        per_byte = pins.filter(
            (pl.col("toggling") == "data_only")
            & (pl.col("activity") == reading["activity"])
            & (pl.col("control_pins") == reading["control_pins"])
            & (pl.col("link_ends") == reading["link_ends"])
        ).row(0, named=True)
        assert reading["hybrid_saving_w"] > per_byte["hybrid_saving_w"]
    check = pl.read_parquet(out / "pins_check" / "table.parquet").row(0, named=True)
    assert check["all_cut"] == pytest.approx(-0.74, abs=0.005) and check["hybrid_w"] == pytest.approx(0.361, rel=0.01)
    assert check["hybrid_tsv_w"] == pytest.approx(0.277, rel=0.02)
    cost = pl.read_parquet(out / "cost" / "table.parquet")
    seed_convention = cost.filter((pl.col("capacities").str.starts_with("equal")) & (pl.col("mscm_cost_ratio") == 12.0))
    assert abs(seed_convention["break_even_sscm_cost_ratio"][0] - 4.0) < 1e-3
    for name in ("fig2-latency-financial1", "fig3-toggle-financial1", "fig4-cost-financial1"):
        assert (out / f"{name}.png").stat().st_size > 1000 and (out / f"{name}.svg").stat().st_size > 1000
    report = (out / "report.md").read_text()
    assert "11.700x" in report and "What differs from the seed" in report and "bisection" in report
    # The headlines: the report's Seed vs ssdlab table and headlines.json, from one list.
    assert "## Seed vs ssdlab" in report and "Verdicts, one rule for every recipe" in report
    headlines = json.loads((out / "headlines.json").read_text())
    assert {"figure", "paper", "ours", "unit", "verdict", "rule", "note"} <= set(headlines[0])
    speedup = next(h for h in headlines if h["figure"].startswith("Table 2: write speed-up"))
    assert speedup["paper"] == 11.7 and speedup["ours"] == pytest.approx(all_sscm["write_mbps"] / hybrid["write_mbps"])
    assert speedup["verdict"] in ("reproduced", "direction only") and speedup["figure"] in report
    again = cli(*args, "--quiet")
    assert again.returncode == 0
    assert "0 points run now" in (out / "report.md").read_text()


def test_reproduce_scm_hybrid_rejects_bad_options(cli, tmp_path: Path):
    done = cli("reproduce", "scm-hybrid", "--out", str(tmp_path / "x"), "--workloads", "nope")
    assert done.returncode != 0 and "unknown nope" in done.stderr
    done = cli("reproduce", "scm-hybrid", "--out", str(tmp_path / "x"), "--trace", "financial1=/no/such/file")
    assert done.returncode != 0 and "no such trace file" in done.stderr
    done = cli("reproduce", "scm-hybrid", "--out", str(tmp_path / "x"), "--bisect-steps", "0")
    assert done.returncode != 0 and "bisect-steps" in done.stderr
