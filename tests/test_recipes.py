"""The recipe base: every registered recipe declares headlines, the verdict rule on hand-made cases,
and the ``ssdlab reproduce`` subcommands built from the registry (the end-to-end runs, which also
check headlines.json, are in test_aoa_ecc.py, test_scm_hybrid.py, test_tlc_mlc.py and test_sweep.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ssdlab.reproduce import report
from ssdlab.reproduce.base import (
    ABSOLUTE,
    ARITHMETIC,
    BOUND,
    CALIBRATED,
    CHANGE,
    DIRECTION_ONLY,
    NOT_REPRODUCED,
    RATIO,
    REGIME_SHOWN,
    REPRODUCED,
    Claim,
    Fit,
    Health,
    Reading,
    Recipe,
    Workload,
    healthy,
    side_holds,
    summary,
    verdict,
)
from ssdlab.reproduce.registry import MODULES, RECIPES

HEADLINE_FIELDS = {
    "key",
    "figure",
    "paper",
    "ours",
    "unit",
    "form",
    "paper_gain",
    "ours_gain",
    "verdict",
    "rule",
    "note",
    "quote",
    "health",
}


def test_every_registered_recipe_declares_its_seed_workloads_and_headlines():
    assert list(RECIPES) == ["lba-scrambler", "ldpc-read", "aoa-ecc", "tlc-mlc", "scm-hybrid"]
    for name, recipe in RECIPES.items():
        assert isinstance(recipe, Recipe) and recipe.name == name
        assert recipe.seed.isdigit() and recipe.title and recipe.help
        assert recipe.claims, f"{name} declares no headlines"
        keys = [claim.key for claim in recipe.claims]
        assert len(keys) == len(set(keys)), name
        for claim in recipe.claims:
            # Every claim can be judged: a number, a checkable bound, or a declared regime.
            if isinstance(claim.paper, str) and not claim.regime:
                assert claim.side is not None, (name, claim.key)
            if claim.side is not None:
                side_holds(0.0, claim.side)
        assert all(isinstance(w, Workload) for w in recipe.workloads() if w.kind != "sample" or w.sample)
        assert set(recipe.trace_names()) <= set(recipe.workload_names())


def test_the_verdict_rule_compares_gains_not_ratios():
    # The cases: a ratio "N x" is compared as its gain N - 1.
    assert verdict(1.5, 1.07, form=RATIO) == DIRECTION_ONLY  # +7 % against +50 %
    assert verdict(2.3, 1.96, form=RATIO) == REPRODUCED  # +96 % against +130 %: within 30 % of the gain
    assert verdict(0.91, 0.974, form=RATIO) == DIRECTION_ONLY  # a 2.6 % loss against a 9 % loss
    assert verdict(1.8, 1.50, form=RATIO) == DIRECTION_ONLY  # Fig. 6 mean: +50 % against +80 %
    assert verdict(2.2, 1.54, form=RATIO) == DIRECTION_ONLY  # the old rule's lower edge for 2.2x
    assert verdict(2.2, 2.86, form=RATIO) == DIRECTION_ONLY  # +186 % against +120 %: on its side, not close
    assert verdict(0.91, 1.15, form=RATIO) == NOT_REPRODUCED  # the opposite side
    assert verdict(11.7, 8.2, form=RATIO) == DIRECTION_ONLY  # +720 % against +1,070 %
    assert verdict(11.7, 9.0, form=RATIO) == REPRODUCED  # +800 % against +1,070 %
    # A change is compared as it stands.
    assert verdict(0.56, 0.45, form=CHANGE) == REPRODUCED
    assert verdict(0.56, 0.05, form=CHANGE) == DIRECTION_ONLY
    assert verdict(-0.74, -0.52, form=CHANGE) == REPRODUCED
    assert verdict(-0.74, -0.2, form=CHANGE) == DIRECTION_ONLY
    assert verdict(0.56, -0.3, form=CHANGE) == NOT_REPRODUCED
    # A quantity: within 30 % of the paper's value or not reproduced; no side rescues it.
    assert verdict(26.5, 30.0, form=ABSOLUTE) == REPRODUCED
    assert verdict(26.5, 80.0, form=ABSOLUTE) == NOT_REPRODUCED
    assert verdict(26.5, 10.0, form=ABSOLUTE) == NOT_REPRODUCED
    # No result is not reproduced.
    assert verdict(0.56, None, form=CHANGE) == NOT_REPRODUCED
    assert verdict(0.56, float("nan"), form=CHANGE) == NOT_REPRODUCED
    # A bound the paper states holds or does not.
    assert verdict("< 0.01", 0.004, side="< 0.01") == REPRODUCED
    assert verdict("< 0.01", 0.2, side="< 0.01") == NOT_REPRODUCED
    # Qualitative claims the recipe declares as regimes.
    assert verdict("insensitive", None, regime=True) == REGIME_SHOWN
    with pytest.raises(ValueError):
        verdict("worse", 0.1)


def test_calibrated_and_arithmetic_claims_are_never_reproduced():
    # However close: the model was fitted to the number, or it follows from the seed's constants.
    for ours in (4.0, 4.1, 2.0, None):
        assert verdict(4.0, ours, form=RATIO, calibrated=True) == CALIBRATED
        assert verdict(4.0, ours, form=ABSOLUTE, arithmetic=True) == ARITHMETIC
    claim = Claim("switch", "switch point", 2000.0, "P/E cycles", "int", calibrated="the chip was fitted to this point")
    headline = claim.measure(2000.0)
    assert headline.verdict == CALIBRATED and "fitted" in headline.rule
    assert Claim("cost", "break-even", 4.0, "x", arithmetic=True).measure(4.0).verdict == ARITHMETIC


def test_a_degenerate_baseline_caps_the_verdict_and_is_excluded_from_best_cases():
    sane = Health("scrambler", mbps=1.2, write_amplification=1.4, held_fraction=0.05, erase_max=40, endurance=3000)
    collapsed = Health("conventional", mbps=0.004, write_amplification=794.0, held_fraction=0.9997, erase_max=4532, endurance=3000)
    assert not sane.degenerate and sane.problems() == []
    problems = collapsed.problems()
    assert len(problems) == 3 and "write amplification 794.0 > 20" in problems[0] and "4,532" in problems[2]
    assert Health("x", settled=False).problems() == ["window not settled"]
    assert Health("x", simulated_seconds=241_000.0, span_seconds=186.0).degenerate
    assert not Health("x", simulated_seconds=190.0, span_seconds=186.0).degenerate
    claim = Claim("best", "Fig. 5: best case", 2.2, "x", "times", quote="q")
    # On the paper's gain exactly, but against a collapsed baseline: at best direction only.
    assert claim.measure(2.2, health=[collapsed, sane]).verdict == DIRECTION_ONLY
    assert claim.measure(2.2, health=[sane, sane]).verdict == REPRODUCED
    assert claim.measure(0.5, health=[collapsed, sane]).verdict == NOT_REPRODUCED
    assert claim.measure(2.2, health=[collapsed, sane]).degenerate == [f"conventional: {'; '.join(problems)}"]
    # "Up to N x" takes its best over healthy comparisons only.
    cases = [("financial1", 290.0, [collapsed, sane]), ("src1_0", 2.0, [sane, sane]), ("hm_0", 1.4, [sane, sane])]
    best = max(healthy(cases, lambda case: case[2]), key=lambda case: case[1])
    assert best[0] == "src1_0"


def test_claims_are_declared_consistently():
    with pytest.raises(ValueError, match="no side"):
        Claim("mbps", "throughput", 26.5, "MB/s", "num", side="> 0")
    with pytest.raises(ValueError, match="disagrees"):
        Claim("cut", "a cut", -0.36, "change", "pct", side="> 0")
    with pytest.raises(ValueError, match="needs a side"):
        Claim("worse", "worse", "worse", "change", "pct")
    assert Claim("r", "r", 2.2, "x", "times").resolved_form == RATIO
    assert Claim("c", "c", 0.56, "change", "pct").resolved_form == CHANGE
    assert Claim("a", "a", 26.5, "MB/s", "num").resolved_form == ABSOLUTE
    assert Claim("b", "b", "< 0.01", "ratio", "ratio", side="< 0.01").resolved_form == BOUND


def test_every_recipe_grades_its_fitted_claims_as_calibrated_and_quotes_the_seed():
    for name, recipe in RECIPES.items():
        assert recipe.check_declarations() == [], name
        for key, what in recipe.fitted_claims().items():
            claim = recipe.claim(key)
            paper = claim.paper if isinstance(claim.paper, (int, float)) else 0.0
            # Measured exactly on the paper's number, a fitted claim is still only "calibrated".
            assert claim.measure(paper).verdict == CALIBRATED, (name, key, what)


def test_a_recipe_refuses_a_fitted_claim_graded_otherwise(tmp_path: Path):
    class Fitted(Recipe):
        name = "fitted"
        seed = "999"
        title = help = "t"
        claims = (Claim("switch", "switch point", 2000.0, "P/E cycles", "int", quote="q"),)
        fits = (Fit("the chip's wear model", ("switch",)),)

        def workloads(self):
            return ()

        def run(self, out, **kwargs):  # pragma: no cover - never reached
            raise AssertionError("ran")

    with pytest.raises(ValueError, match="not marked calibrated"):
        Fitted().reproduce(tmp_path)


def test_headlines_go_to_the_report_table_and_headlines_json(tmp_path: Path):
    claims = (
        Claim("gain", "Fig. 1: throughput gain", 0.56, "change", "pct", quote="throughput increases by 56 %", reading="main point"),
        Claim("bound", "Fig. 2: W/E ratio", "< 0.01", "ratio", "ratio", side="< 0.01", quote="q"),
        Claim("regime", "Fig. 3: where it holds", "every case", "", "text", regime=True),
        Claim("speedup", "Fig. 4: speed-up", 2.2, "x", "times", quote="2.2 times"),
        Claim("fitted", "Fig. 5: switch point", 2000.0, "P/E", "int", calibrated="the chip was fitted to it"),
    )
    sides = [Health("baseline", mbps=0.004, write_amplification=794.0), Health("proposal", mbps=1.2, write_amplification=1.3)]
    headlines = [
        claims[0].measure(0.12, where="tpcc", note="steady"),
        claims[1].measure(0.004),
        claims[2].measure(None),
        claims[3].measure(2.2, health=sides),
        claims[4].measure(2000.0),
    ]
    assert [h.verdict for h in headlines] == [DIRECTION_ONLY, REPRODUCED, REGIME_SHOWN, DIRECTION_ONLY, CALIBRATED]
    assert headlines[0].figure == "Fig. 1: throughput gain (tpcc)" and headlines[0].paper_text == "+56.0 %"
    readings = [Reading("gain", "at fill 0.7", 0.55, "the fill where it matched", supported=False, why="not in the text", matched=True)]
    done = report.finish(
        tmp_path,
        tables={"": [{"a": 1}]},
        main="",
        report_text="# Title\n\nprovenance\n\n## Setup\n\ntext\n",
        summary="",
        figures={},
        outcomes=(),
        headlines=headlines,
        readings=readings,
    )
    text = done.report_path.read_text()
    sentence = "1 of 5 seed claims reproduced (gain rule), 2 direction only, 0 not reproduced, 1 calibrated or arithmetic, 1 regime shown"
    # The counts open the report, right under its title.
    assert text.startswith(f"# Title\n\n**{sentence}.**\n")
    assert text.index("## Seed vs ssdlab") < text.index("## Setup")
    assert "| Fig. 1: throughput gain (tpcc) | +56.0 % | +12.0 % | change | +56.0 % | +12.0 % | direction only | steady |" in text
    assert "| Fig. 4: speed-up | 2.200x | 2.200x | x | +120.0 % | +120.0 % | direction only (degenerate side) |" in text
    assert "baseline: 0.004 MB/s, WA 794.00 **DEGENERATE**" in text
    assert '"throughput increases by 56 %"' in text
    assert "### Readings (shown, never counted)" in text and "no (adopted because it matched)" in text
    data = json.loads((tmp_path / "headlines.json").read_text())
    assert data["summary"]["sentence"] == sentence and data["summary"]["reproduced"] == 1 and data["summary"]["claims"] == 5
    rows = data["headlines"]
    assert [row["verdict"] for row in rows] == ["direction only", "reproduced", "regime shown", "direction only", "calibrated"]
    assert all(HEADLINE_FIELDS <= set(row) for row in rows) and rows[0]["paper"] == 0.56 and rows[0]["ours"] == 0.12
    assert rows[3]["paper_gain"] == pytest.approx(1.2) and rows[3]["degenerate"] == ["baseline: write amplification 794.0 > 20"]
    assert data["readings"][0]["matched"] is True
    assert summary(headlines)["calibrated"] == 1


def test_markdown_table_helpers():
    rows = [{"name": "a", "value": 0.5}, {"name": "b", "value": None}]
    text = report.markdown_table(rows, [("name", "name", "text"), ("value", "value", "pct"), ("twice", lambda r: r["name"] * 2, "text")])
    assert text.splitlines() == ["| name | value | twice |", "|---|---|---|", "| a | +50.0 % | aa |", "| b | n/a | bb |"]
    assert report.markdown_grid(["x", "y"], [[1, "z"]], align=["l", "r"]).splitlines()[1] == "|:---|---:|"


def test_reproduce_subcommands_and_their_shared_options_come_from_the_registry():
    from ssdlab.cli import app

    runner = CliRunner()
    listing = runner.invoke(app, ["reproduce", "--help"])
    assert listing.exit_code == 0
    for name in MODULES:
        assert name in listing.output
    shared = ("--out", "--trace", "--workloads", "--scheduler", "--workers", "--quiet")
    for name, recipe in RECIPES.items():
        done = runner.invoke(app, ["reproduce", name, "--help"])
        assert done.exit_code == 0, done.output
        for flag in shared + tuple(flag.split("/")[0] for option in recipe.options for flag in option.flags):
            assert flag in done.output, (name, flag)
        assert ("--scale" in done.output) == (recipe.scale_help is not None), name
        assert recipe.default_out() == Path("reproduce") / name
    assert runner.invoke(app, ["reproduce", "nosuch"]).exit_code != 0


def test_a_recipe_missing_run_or_workloads_cannot_be_built():
    import pytest

    from ssdlab.reproduce.base import Recipe

    class Incomplete(Recipe):
        name = "incomplete"

        def workloads(self):
            return ()

    with pytest.raises(TypeError, match="run"):
        Incomplete()


def test_table_cells_by_kind():
    # A collapsed array's rate keeps its digits ("sig"), a normal one two decimals.
    assert [report.fmt(v, "sig") for v in (12.98, 1.46, 0.0058255)] == ["12.98", "1.46", "0.00583"]
    assert (report.fmt(-0.0782, "pct"), report.fmt(0.375, "share"), report.fmt(None, "sig")) == ("-7.8 %", "37.5 %", "n/a")
    assert (report.fmt(1234567, "int"), report.fmt(0.01234, "ratio"), report.fmt(3.0, "times")) == ("1,234,567", "0.012", "3.000x")


def _recipe_folder(folder: Path, recipe: str, verdicts: list[str]) -> Path:
    claims = [Claim(f"c{i}", f"claim {i}", 2.0, "x", "times", quote="q") for i in range(len(verdicts))]
    values = {REPRODUCED: 2.0, DIRECTION_ONLY: 1.2, NOT_REPRODUCED: 0.5}
    headlines = []
    for claim, wanted in zip(claims, verdicts):
        if wanted == CALIBRATED:
            claim = Claim(claim.key, claim.figure, 2.0, "x", "times", calibrated="fitted")
        headlines.append(claim.measure(values.get(wanted, 2.0)))
    folder.mkdir(parents=True)
    report.write_headlines(headlines, folder, recipe=recipe, seed="00" + recipe[-1])
    return folder


def test_reproduce_summary_prints_one_row_per_folder_and_the_total(tmp_path: Path):
    from ssdlab.cli import app

    a = _recipe_folder(tmp_path / "a", "recipe-1", [REPRODUCED, DIRECTION_ONLY, CALIBRATED])
    b = _recipe_folder(tmp_path / "b", "recipe-2", [NOT_REPRODUCED, REPRODUCED])
    done = CliRunner().invoke(app, ["reproduce", "summary", str(a), str(b)], env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    lines = [line for line in done.output.splitlines() if "recipe-" in line or "total" in line]
    assert len(lines) == 3 and "recipe-1" in lines[0] and "recipe-2" in lines[1] and "total" in lines[2]
    assert [int(cell) for cell in lines[2].split("│")[3:9]] == [2, 1, 1, 1, 0, 5]
    assert "2 of 5 seed claims reproduced (gain rule), 1 direction only, 1 not reproduced, 1 calibrated or arithmetic" in done.output
    # A folder without headlines.json: exit 2 naming it; an old list-format file: exit 2 saying so.
    missing = CliRunner().invoke(app, ["reproduce", "summary", str(a), str(tmp_path / "none")], env={"COLUMNS": "400"})
    assert missing.exit_code == 2 and "no headlines.json" in " ".join(missing.output.split())
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "headlines.json").write_text("[]")
    old = CliRunner().invoke(app, ["reproduce", "summary", str(tmp_path / "old")], env={"COLUMNS": "400"})
    assert old.exit_code == 2 and "not a headlines.json of this version" in " ".join(old.output.split())
