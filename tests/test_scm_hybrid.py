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
    document = json.loads((out / "headlines.json").read_text())
    assert document["recipe"] == "scm-hybrid" and document["summary"]["claims"] == len(document["headlines"]) == 9
    headlines = {h["key"]: h for h in document["headlines"]}
    assert {"figure", "paper", "ours", "unit", "verdict", "rule", "note", "form", "quote", "health"} <= set(headlines["speedup"])
    speedup = headlines["speedup"]
    assert speedup["paper"] == 11.7 and speedup["ours"] == pytest.approx(all_sscm["write_mbps"] / hybrid["write_mbps"])
    assert speedup["form"] == "ratio" and speedup["paper_gain"] == pytest.approx(10.7)
    assert speedup["verdict"] in ("reproduced", "direction only") and speedup["figure"] in report
    assert [side["side"] for side in speedup["health"]] == ["hybrid", "All S-SCM"]
    assert speedup["health"][0]["mbps"] == pytest.approx(hybrid["write_mbps"])
    assert headlines["all_sscm_mbps"]["verdict"] == "calibrated" and headlines["break_even_cost"]["verdict"] == "arithmetic"
    # The pin readings solved from Table 2's power numbers are readings, labelled as matched, never headlines.
    solved = [r for r in document["readings"] if r["name"] == "pins and currents solved from Table 2"]
    assert len(solved) == 4 and all(r["matched"] for r in solved)
    assert document["summary"]["sentence"] in report
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


# A hand-made table of the recipe's runs (no simulation): the rows `row_of` makes, for the report and
# the headlines to be built from.
def _run_row(study: str, ssd: str, value: float, tsv: bool, **fields) -> dict:
    row = {
        "study": study,
        "workload": "w",
        "ssd": ssd,
        "value": value,
        "tsv": tsv,
        "status": "ok",
        "write_mbps": 25.0 if ssd == "hybrid" else 400.0,
        "write_mbps_run": 5.0 if ssd == "hybrid" else 60.0,
        "write_latency_us": 300.0 if ssd == "hybrid" else 15.0,
        "read_latency_us": 50.0,
        "power_w": 0.15 if ssd == "hybrid" else 0.2,
        "io_power_w": 0.01 if ssd == "hybrid" else 0.08,
        "scm_power_w": 0.05,
        "core_power_w": 0.1,
        "nand_bytes": 1.25e9 if ssd == "hybrid" else 0,
        "scm_bytes": 0.3125e9 if ssd == "hybrid" else 1.02e9,
        "logical_bytes": 1e9,
        "pieces_to_scm": 100,
        "pieces_to_nand": 10 if ssd == "hybrid" else 0,
        "pages_evicted": 0,
        "forced_evictions": 0,
        "split_reads": 0,
        "gc_pages_copied": 500 if ssd == "hybrid" else 0,
        "nand_programs": 1500 if ssd == "hybrid" else 0,
        "scm_used": 0.5,
        "max_writes_per_sector": 40,
        "requests": 1000,
        "write_amplification": 1.5 if ssd == "hybrid" else None,
        "held_fraction": 0.2 if ssd == "hybrid" else 0.0,
        "erase_max": 12 if ssd == "hybrid" else 0,
        "endurance_pe_cycles": 3000,
        "scm_endurance_writes": 1e9,
        "simulated_seconds": 100.0,
    }
    row.update(fields)
    return row


def _hand_made():
    """The tables of one workload as the recipe builds them, with round numbers."""
    from ssdlab.optimize import Crossing

    table = [
        _run_row("main", "hybrid", 0.25, False, power_w=0.15),
        _run_row("main", "hybrid", 0.25, True, power_w=0.138),
        _run_row("main", "all_sscm", 1.0, False, power_w=0.2),
        _run_row("main", "all_sscm", 1.0, True, power_w=0.125),
        _run_row("latency", "all_sscm", 6.0, False, write_mbps=90.0),
        _run_row("toggle", "all_sscm", 2132.0, False, write_mbps=450.0),
        _run_row("bisect", "all_sscm", 17.0, False, write_mbps=26.0),
        _run_row("bisect", "all_sscm", 21.0, False, write_mbps=24.0, held_fraction=0.95),
    ]
    crossings = {"w": Crossing(estimate=20.0, low=17.0, high=21.0, value_low=26.0, value_high=24.0, history=[])}
    cost_rows = [
        {"workload": "w", "capacities": "devices as run", "mscm_cost_ratio": 12.0, "break_even_sscm_cost_ratio": 4.9},
        {"workload": "w", "capacities": "equal capacities (the seed's)", "mscm_cost_ratio": 12.0, "break_even_sscm_cost_ratio": 4.0},
    ]
    main_rows = scm_hybrid._main_rows(table, crossings, cost_rows)
    current_rows = scm_hybrid._current_rows(table, {"w": 4.4})
    definition_rows = [
        {
            "workload": "w",
            "latency_axis": axis,
            "metric": metric,
            "hybrid_mbps": 25.0,
            "all_sscm_mbps_at_1us": 400.0,
            "speedup": 16.0,
            "break_even_us": 20.0,
        }
        for axis in ("read and write", "read only (write 1 us)")
        for metric in ("over the writes' time", "over the whole run")
    ]
    regime_rows = [
        {
            "workload": "w",
            "hybrid": "M-SCM 25 %, fragmented below 25 % of a page",
            "hybrid_mbps": 30.0,
            "speedup_of_all_sscm_at_1us": 13.3,
            "break_even_us": 15.0,
            "in_seed_range": False,
            "pages_evicted": 0,
            "forced_evictions": 0,
            "scm_used": 0.5,
        }
    ]
    check = {
        "workload": "w",
        "reading": "continuous, 8 pins, activity 0.386, memory pins",
        "hybrid_current_ma": 52.7,
        "sscm_current_ma": 4.84,
        "hybrid_w": 0.361,
        "hybrid_tsv_w": 0.277,
        "all_w": 0.03,
        "all_tsv_w": 0.0078,
        "all_cut": -0.74,
    }
    return table, crossings, cost_rows, main_rows, current_rows, definition_rows, regime_rows, [check]


def test_declarations_pass_and_each_fitted_claim_is_calibrated():
    recipe = scm_hybrid.RECIPE
    assert recipe.check_declarations() == []
    fitted = recipe.fitted_claims()
    assert set(fitted) == {"all_sscm_mbps"}, "the SCM organisation was chosen for the seed's 311 MB/s"
    for key in fitted:
        claim = recipe.claim(key)
        assert claim.measure(claim.paper).verdict == "calibrated"
    forms = {c.key: c.resolved_form for c in recipe.claims}
    assert forms == {
        "hybrid_mbps": "absolute",
        "all_sscm_mbps": "absolute",
        "speedup": "ratio",
        "tsv_power_cut": "change",
        "power_without_tsv": "absolute",
        "power_with_tsv": "absolute",
        "table2_pair_change": "change",
        "break_even_latency": "absolute",
        "break_even_cost": "absolute",
    }
    assert all(c.side is None for c in recipe.claims)
    assert recipe.claim("break_even_cost").arithmetic


def test_headlines_and_readings_from_hand_made_runs():
    table, _, _, main_rows, current_rows, definition_rows, regime_rows, checks = _hand_made()
    found = {h.key: h for h in scm_hybrid.headlines(main_rows, table)}
    assert found["speedup"].ours == pytest.approx(16.0) and found["speedup"].ours_gain == pytest.approx(15.0)
    # +1400 % against +1070 %: on the seed's side, not within 30 % of its gain.
    assert found["speedup"].verdict == "direction only"
    assert found["hybrid_mbps"].verdict == "reproduced"  # 25.0 against 26.5
    assert found["all_sscm_mbps"].verdict == "calibrated"
    assert found["break_even_cost"].verdict == "arithmetic" and found["break_even_cost"].ours == 4.0
    assert found["tsv_power_cut"].ours == pytest.approx(-0.375) and found["tsv_power_cut"].verdict == "direction only"
    assert found["power_without_tsv"].ours == pytest.approx(0.15) and found["power_without_tsv"].verdict == "not reproduced"
    # Both sides' health on every comparison; the break-even's All S-SCM side is the probe nearest the crossing.
    assert [h.side for h in found["speedup"].health] == ["hybrid", "All S-SCM"]
    assert found["speedup"].health[1].endurance == 1e9, "the All S-SCM SSD's wear is its SCM's"
    latency = found["break_even_latency"]
    assert "21 us" in latency.health[1].side and latency.health[1].degenerate
    assert latency.verdict == "not reproduced" and latency.degenerate
    # No crossing below 100 us: the All S-SCM side is the bracket's slowest probe, named in the note.
    main_rows[1]["break_even_us"] = None
    latency = next(h for h in scm_hybrid.headlines(main_rows, table) if h.key == "break_even_latency")
    assert "21 us (the bracket's end)" in latency.health[1].side and "no crossing in 0.1-100 us" in latency.note
    main_rows[1]["break_even_us"] = 20.0
    # Readings: never headlines; the solved pin readings and current are labelled as matched.
    rows = scm_hybrid.readings(main_rows, definition_rows, regime_rows, table, [], checks, {"w": 4.4})
    matched = [r for r in rows if r.matched]
    assert matched and all(not r.supported for r in matched)
    assert {r.claim for r in matched} >= {found[k].figure for k in ("power_without_tsv", "power_with_tsv", "tsv_power_cut")}
    assert any(r.name == "the pair is the All S-SCM SSD's" and r.value == pytest.approx(0.2) for r in rows)
    assert any(r.name == "1066MHz as a DDR clock" and r.value == pytest.approx(450.0) for r in rows)
    assert any(r.name == "the capacities of the devices run" and r.value == pytest.approx(4.9) for r in rows)
    assert not any(r.name.startswith("latency varied: read and write; throughput over the writes") for r in rows)


def test_report_prose_numbers_are_the_tables():
    from types import SimpleNamespace

    table, _, cost_rows, main_rows, current_rows, definition_rows, regime_rows, _ = _hand_made()
    plan = scm_hybrid.Plan(scm_hybrid.WORKLOADS[0], [], "the sample", trace_requests=10_000, trace_seconds=259.6)
    outcome = SimpleNamespace(ran=0, skipped=0, failed=0, wall_seconds=0.0, rows=[])
    text = scm_hybrid._report([plan], outcome, None, main_rows, cost_rows, table, {}, regime_rows, current_rows, definition_rows)
    prose = " ".join(text.split())
    # The latency paragraph: 400 MB/s at 1 us, 90 at 6 us, 4.4x slower; the transfer alone gives (6 + 0.48) / (1 + 0.48).
    assert "writes 400 MB/s at 1 us and 90 MB/s at 6 us here, 4.4x slower" in prose
    assert "(6 + 0.48) / (1 + 0.48) = 4.4x" in prose
    # The power paragraph: the main runs' I/O share and TSV change (0.08 / 0.2 W; 0.125 / 0.2 - 1).
    io_share = table[2]["io_power_w"] / table[2]["power_w"]
    assert f"the I/O is {100 * io_share:.1f} % of the All S-SCM SSD's power and TSV changes it -37.5 %" in prose
    assert "needs the I/O to be 78.7 % of the All S-SCM SSD's power" in prose
    # The cost lines: the cost table's two values and the devices' capacities (25 % and 2 % over the user's).
    assert "4.000x NAND with equal capacities" in prose and "up to 4.900x NAND" in prose
    assert "holds 25.0 % more than the user capacity and the All S-SCM SSD's S-SCM 2.0 % more, so S-SCM may cost more" in prose
    # "1066MHz": 400 and 450 MB/s against 311.
    assert f"{400 / 311 - 1:+.0%} and {450 / 311 - 1:+.0%} against the seed's 311 MB/s" in prose
    assert "first 10,000 requests (260 s)" in prose
    assert "346 MB/s" in prose and "-23.3 %" in prose
