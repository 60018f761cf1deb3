"""Seed 003 (LBA scrambler): the recipe's grading and report, built from hand-made sweep rows (no
simulation). The end-to-end run is in test_sweep.py."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ssdlab.reproduce import lba_scrambler as recipe
from ssdlab.reproduce.base import BOUND, CALIBRATED, DIRECTION_ONLY, NOT_REPRODUCED, RATIO

FOOTPRINT = {"Financial1 (sample)": 32_000, "src1_0 (stand-in)": 65_536}
# Write MB/s (conventional, scrambler, TRIM) per (workload, free, drive, policy); anything not listed
# is 1.0 MB/s everywhere (the scrambler changes nothing).
SPEEDS: dict[tuple[str, float, str, str], tuple[float, float, float]] = {
    ("src1_0 (stand-in)", 0.6, "aged", "round_robin"): (1.01, 2.485, 3.0),
    ("src1_0 (stand-in)", 0.4, "aged", "greedy"): (1.0, 1.117, 2.0),
    ("Financial1 (sample)", 0.6, "aged", "round_robin"): (0.00395, 1.15, 5.14),
    ("Financial1 (sample)", 0.8, "aged", "round_robin"): (0.6, 1.125, 1.3),
    ("src1_0 (stand-in)", 0.6, "fresh", "greedy"): (1.0, 0.85, 1.0),
    ("Financial1 (sample)", 0.8, "fresh", "greedy"): (1.0, 1.3, 1.0),
}
# The collapsed baseline of issue 44: Financial1 on the aged drive, round-robin GC, 60 % free.
COLLAPSED = ("Financial1 (sample)", 0.6, "aged", "round_robin")


def _result(mbps: float, host_pages: int, *, collapsed: bool = False, scrambler: bool = False, fragmented: int = 0) -> dict[str, Any]:
    seconds = host_pages * 16384 / 1e6 / mbps
    gc_blocks = max(1, int(400 / mbps)) if mbps < 50 else 1
    result: dict[str, Any] = {
        "gc": {
            "blocks_collected": gc_blocks,
            "invocations": gc_blocks // 3 + 1,
            "pages_copied": gc_blocks * 100,
            "host_writes_held": {"any_plane_blocked_fraction": 0.9997 if collapsed else 0.2},
        },
        "write": {"mbps": mbps},
        "write_amplification": 794.0 if collapsed else 1.5,
        "host_pages_written": host_pages,
        "erase_count": {"max": 4532 if collapsed else 300, "endurance_pe_cycles": 3000},
        "simulated_seconds": seconds,
        "dead_data": {"gc_pages_copied": 10, "pages_held": 20},
    }
    if scrambler:
        result["middleware"] = {
            "rule1_empty_page_writes": 0,
            "rule2_victim_page_writes": 5,
            "rule3_other_page_writes": 10,
            "rule2_attempts": 15,
            "fragmented_pages": fragmented,
        }
    return result


def _point(label: str, result: dict[str, Any]) -> dict[str, Any]:
    return {"point.point": label, "status": "ok", "error": None, "result_json": json.dumps(result)}


def hand_made_rows() -> list[dict[str, Any]]:
    rows = []
    for workload, footprint in FOOTPRINT.items():
        host = int(footprint * (1.05 if workload.startswith("Financial1") else 1.0))
        for free in recipe.FREE_FRACTIONS:
            for drive in recipe.DRIVES:
                for gc in recipe.GC_POLICIES:
                    conventional, scrambler, trim = SPEEDS.get((workload, free, drive, gc), (1.0, 1.0, 1.0))
                    speeds = {"conventional": conventional, "scrambler": scrambler, "trim": trim}
                    for name, _, _ in recipe.VARIANTS[drive]:
                        collapsed = (workload, free, drive, gc) == COLLAPSED and name == "conventional"
                        result = _result(speeds[name], host, collapsed=collapsed, scrambler=name == "scrambler")
                        rows.append(_point(recipe.Point("main", workload, free, drive, gc, name).label, result))
                if free >= 0.6:
                    for threshold in recipe.RULE1_THRESHOLDS:
                        result = _result(1.0, host, scrambler=True, fragmented=164_557 if threshold < 1.0 else 0)
                        rows.append(_point(recipe.Point("rule1", workload, free, "fresh", "greedy", threshold).label, result))
    for fraction in recipe.CHURN.delete_fractions:
        for gc in recipe.GC_POLICIES:
            for name, *_ in recipe.CHURN.variants:
                speed = {"conventional": 1.0, "trim": 1.164, "scrambler": 1.163, "scrambler_first_writes": 1.124}[name]
                rows.append(
                    _point(
                        recipe.Point("churn", fraction, recipe.CHURN.free_fraction, "fresh", gc, name).label,
                        _result(speed, 30_000, scrambler=True),
                    )
                )
    return rows


def plans() -> list[recipe.WorkloadPlan]:
    out = []
    for workload in recipe.WORKLOADS:
        label = workload.label
        if label in FOOTPRINT:
            out.append(recipe.WorkloadPlan(workload, label, [], [], FOOTPRINT[label], 1.0, workload.basis, workload.kind == "sample"))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path, dict[str, list[dict[str, Any]]]]:
    out = tmp_path_factory.mktemp("lba")
    tables = recipe.build_tables(hand_made_rows())
    outcome = SimpleNamespace(ran=0, skipped=1, failed=0, wall_seconds=0.0, rows=[{"point_seconds": 1.0}])
    reproduction = recipe._finish(out, plans(), tables, {}, outcome, None, recipe.DEFAULT_STAND_IN_CAP_BYTES)
    return reproduction, out, tables


def test_the_declarations_pass_and_no_claim_is_fitted():
    assert recipe.RECIPE.check_declarations() == []
    assert recipe.RECIPE.fitted_claims() == {}
    forms = {c.key: c.resolved_form for c in recipe.CLAIMS}
    assert forms == {"fewer_gcs": BOUND, "fewer_copies": BOUND, "write_performance": RATIO, "src1_0_write_performance": RATIO}
    for claim in recipe.CLAIMS:
        # Each quotes the seed's Japanese sentence with an English gloss, and Table 1's sizing it is read under.
        assert "。" in claim.quote and "(" in claim.quote and "NAND容量" in claim.quote, claim.key
        # Every fitted claim would measure as calibrated (there are none; the check is that the rule holds).
        if claim.key in recipe.RECIPE.fitted_claims():
            assert claim.measure(2.2).verdict == CALIBRATED
    # "The gain grows with free space" is not in the seed's text: it is no claim.
    assert not any("free space" in c.figure for c in recipe.CLAIMS)


def test_one_headline_per_claim_under_the_graded_reading_with_both_sides_health(built):
    reproduction, out, _ = built
    document = json.loads((out / "headlines.json").read_text())
    assert [h["key"] for h in document["headlines"]] == ["fewer_gcs", "fewer_copies", "write_performance", "src1_0_write_performance"]
    where = recipe._regime_name(*recipe.GRADED)
    for headline in reproduction.headlines:
        assert where in headline.figure and headline.quote
        # Both sides of each comparison carry their health.
        assert [h.side.split(" ")[0] for h in headline.health] == ["conventional", "scrambler"]
    by_key = {h.key: h for h in reproduction.headlines}
    # Fresh drive, greedy GC: fewer GCs in 1 of 8 cases; its best case is Financial1 at 80 % free (1.3x).
    assert by_key["fewer_gcs"].ours == pytest.approx(1 / 8) and by_key["fewer_gcs"].verdict == NOT_REPRODUCED
    assert by_key["fewer_gcs"].note == "1 of 8 healthy cases"
    assert by_key["write_performance"].ours == pytest.approx(1.3) and by_key["write_performance"].verdict == DIRECTION_ONLY
    assert "the conventional drive writes 1 MB/s" in by_key["write_performance"].note
    assert by_key["src1_0_write_performance"].ours == pytest.approx(1.0) and by_key["src1_0_write_performance"].verdict == NOT_REPRODUCED
    # The other five regimes (three drives x two victim policies, less the graded one) are readings, never
    # headlines: 4 claims x 5 regimes.
    assert len(document["readings"]) == 20 and not any(r["supported"] for r in document["readings"])
    assert document["summary"]["claims"] == 4


def test_a_collapsed_baseline_is_flagged_and_never_a_best_case(built):
    reproduction, out, tables = built
    collapsed = next(r for r in tables["main"] if (r["workload"], r["free_fraction"], r["drive"], r["gc_policy"]) == COLLAPSED)
    assert not recipe.is_healthy(collapsed) and "write amplification 794.0 > 20" in collapsed["conventional_problems"]
    assert "erase count max 4,532 past the endurance 3,000" in collapsed["conventional_problems"]
    # Its replay is far over 10x the shortest replay of the same host writes (TRIM's).
    assert collapsed["conventional_simulated_seconds"] > 10 * collapsed["reference_seconds"]
    aged_rr = next(g for g in recipe.regimes(tables["main"]) if (g.drive, g.gc_policy) == ("aged", "round_robin"))
    assert aged_rr.degenerate == [collapsed] and aged_rr.cases == 7
    assert aged_rr.best_case is not None and aged_rr.best_case["workload"] == "src1_0 (stand-in)"
    assert aged_rr.trim_best_case is not None and aged_rr.trim_best_case is not collapsed
    reading = next(r for r in reproduction.readings if r.claim == "write_performance" and r.name == "aged drive, round-robin GC")
    assert reading.value == pytest.approx(2.485 / 1.01)
    assert "left out" in reading.value_text and "0.00395 MB/s" not in reading.value_text.split("left out")[0]
    assert "0.00395" in reading.value_text  # named among the cases left out, with its baseline's MB/s
    report = (out / "report.md").read_text()
    # The per-case table flags it in its own column.
    line = next(line for line in report.splitlines() if line.startswith("| Financial1 (sample) | 60%") and "794" in line)
    assert "conventional: write amplification 794.0 > 20" in line


NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


def _numbers(text: str) -> set[str]:
    return {token.rstrip(",") for token in NUMBER.findall(text)}


def test_every_number_in_the_report_prose_is_a_table_value(built):
    reproduction, out, tables = built
    report = (out / "report.md").read_text()
    body = report[report.index("## What the seed claims") :]
    body = body[: body.index("## Base configuration")]
    table_numbers = set().union(*(_numbers(line) for line in body.splitlines() if line.startswith("|")))
    # Numbers the prose states as the rule, not as results: the seed's ratio, the 5 % threshold; and the
    # rule-1 statement's counts of table rows, counted here from the table.
    rule1 = [r for r in tables["rule1"] if r.get("scrambler_rule1_writes") is not None]
    silent = [r for r in rule1 if r["scrambler_rule1_writes"] == 0]
    counts = {str(len(rule1)), str(len(silent)), str(sum(1 for r in silent if r["scrambler_fragmented_pages"] > 0))}
    rule = {"2.2", "5", "0.95"} | counts
    statements = [
        recipe._regime_statement(recipe.regimes(tables["main"]), tables["churn"]),
        recipe._src1_statement(tables["main"]),
        recipe._fewer_but_slower(tables["main"]),
        recipe._rule1_statement(tables["rule1"]),
        *(h.note for h in reproduction.headlines),
        *(
            r.value_text.split(": ", 1)[1] if r.claim.startswith("fewer") else r.value_text.split("; ", 1)[-1]
            for r in reproduction.readings
        ),
    ]
    assert all(s in report for s in statements[:4] if s)
    for statement in statements:
        assert _numbers(statement) <= table_numbers | rule, (statement, _numbers(statement) - table_numbers - rule)
    # The statements name real values of the tables (spot checks).
    assert "2.460x: 1.01 → 2.48 MB/s" in report  # src1_0, aged round-robin, 60 % free: its best healthy case
    assert "164,557" in recipe._rule1_statement(tables["rule1"])
    # What the replays wrote, from the runs: Financial1 1.05x its data, src1_0 1.00x.
    assert "Financial1 (sample) 1.05x; src1_0 (stand-in) 1.00x (the same host pages" in report


def test_the_report_makes_no_claim_the_seed_does_not_and_describes_the_list_as_coded(built):
    _, out, _ = built
    report = (out / "report.md").read_text()
    assert "grows with free space" not in report and "gain grow" not in report
    assert "exactly one page" not in report
    assert "Each plane has its own recommendation list" in report and "one plane's run at a time" not in report
    assert "until the host has written 1x" not in report


def test_the_aged_drive_leaves_gc_slack_beyond_its_reserve_and_open_blocks():
    import tomllib

    from ssdlab import _native

    preset = tomllib.loads(_native.preset_text("seed003-scrambler"))
    assert recipe.AGED_GC_RESERVE_BLOCKS == preset["ftl"]["garbage_collection"]["high_watermark_blocks"]
    row = recipe.PLANES * recipe.PAGES_PER_BLOCK
    # A small plane: 10 exported blocks get the minimum slack; a large one 7 % of its blocks.
    assert recipe.aged_hidden_blocks(10 * row) == 3 + 2 + 4
    assert recipe.aged_hidden_blocks(1000 * row) == 3 + 2 + 70
    for footprint, free in ((5_000, 0.6), (200_000, 0.2), (2_000_000, 0.8)):
        overrides = dict(item.split("=", 1) for item in recipe.aged_drive(footprint, free, False))
        blocks = int(overrides["device.geometry.blocks_per_plane"])
        exported_blocks = math.ceil(math.ceil(footprint / (1 - free)) / row)
        slack = blocks - exported_blocks - recipe.AGED_GC_RESERVE_BLOCKS - recipe.AGED_OPEN_BLOCKS
        assert slack >= recipe.AGED_MIN_SLACK_BLOCKS and slack >= recipe.AGED_OVERPROVISIONING * exported_blocks, (footprint, free, slack)


def test_the_look_ahead_sweep_counts_healthy_cases_per_policy_and_look_ahead():
    def row(gc, look, gcs, copies, ratio, problems="", drive="aged"):
        return {
            "drive": drive,
            "gc_policy": gc,
            "victims_per_plane": look,
            "gc_count_reduction": gcs,
            "pages_copied_reduction": copies,
            "write_performance_ratio": ratio,
            "conventional_problems": problems,
            "scrambler_problems": "",
        }

    rows = [
        row("round_robin", 0, 0.5, 0.6, 3.0),
        row("round_robin", 0, 0.01, 0.2, 1.1),
        row("round_robin", 0, 0.9, 0.9, 700.0, problems="write amplification 794.0 > 20"),
        row("round_robin", 8, 0.4, 0.4, 4.0),
        row("greedy", 8, 0.3, 0.3, 2.0, drive="aged_mixed"),
    ]
    text = recipe._victims_statement(rows)
    # The degenerate case is left out; a 1 % GC cut is not "fewer" (the 5 % rule).
    assert "aged drive, round-robin GC, 0: fewer GCs and copies in 1 of 2 healthy cases, median 2.050x" in text
    assert "aged drive, round-robin GC, 8: fewer GCs and copies in 1 of 1 healthy cases, median 4.000x" in text
    # Each aged drive is counted on its own.
    assert "aged drive, dead data mixed, greedy GC, 8: fewer GCs and copies in 1 of 1 healthy cases, median 2.000x" in text
    assert "aged drive, greedy GC" not in text and text.endswith("Shown, never counted.")
    assert recipe._victims_statement([]) == "No look-ahead points ran."


def test_a_runs_span_reference_is_a_drive_of_its_own_size(built):
    # Issue 45's review: the aged drives hide more flash than the fresh one has, so a fresh run is never
    # judged against an aged drive's replay; the aged drives share their TRIM runs.
    _, _, tables = built
    main = tables["main"]
    for row in main:
        if row["drive"] == "fresh":
            own = [row[f"{v}_simulated_seconds"] for v in ("conventional", "scrambler")]
            assert row["reference_seconds"] == pytest.approx(min(own))
        else:
            same = [
                other[f"{v}_simulated_seconds"]
                for other in main
                if other["drive"] != "fresh"
                and (other["workload"], other["free_fraction"], other["gc_policy"])
                == (row["workload"], row["free_fraction"], row["gc_policy"])
                for v in ("conventional", "trim", "scrambler")
            ]
            assert row["reference_seconds"] == pytest.approx(min(same))
