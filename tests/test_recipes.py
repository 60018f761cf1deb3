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
    ARITHMETIC,
    DIRECTION_ONLY,
    NOT_REPRODUCED,
    REGIME_SHOWN,
    REPRODUCED,
    Claim,
    Recipe,
    Workload,
    side_holds,
    verdict,
)
from ssdlab.reproduce.registry import MODULES, RECIPES

HEADLINE_FIELDS = {"figure", "paper", "ours", "unit", "verdict", "rule", "note"}


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


def test_the_verdict_rule_on_hand_made_cases():
    # Within 30 % of the paper's number (relative), on its side.
    assert verdict(0.56, 0.45, side="> 0") == REPRODUCED
    assert verdict(11.7, 8.2, side="> 1") == REPRODUCED
    assert verdict(-0.74, -0.52, side="< 0") == REPRODUCED
    assert verdict(26.5, 30.0) == REPRODUCED
    # Not within 30 %, but on the paper's side: direction only.
    assert verdict(0.56, 0.05, side="> 0") == DIRECTION_ONLY
    assert verdict(11.7, 4.9, side="> 1") == DIRECTION_ONLY
    assert verdict(-0.74, -0.2, side="< 0") == DIRECTION_ONLY
    # The opposite sign or side: not reproduced, even when close in value.
    assert verdict(0.56, -0.3, side="> 0") == NOT_REPRODUCED
    assert verdict(0.91, 1.15, side="< 1") == NOT_REPRODUCED
    # No side stated (a throughput): within 30 % or not reproduced; no result is not reproduced.
    assert verdict(26.5, 80.0) == NOT_REPRODUCED
    assert verdict(0.56, None, side="> 0") == NOT_REPRODUCED
    # A bound the paper states holds or does not.
    assert verdict("< 0.01", 0.004, side="< 0.01") == REPRODUCED
    assert verdict("< 0.01", 0.2, side="< 0.01") == NOT_REPRODUCED
    # Qualitative claims the recipe declares as regimes.
    assert verdict("insensitive", None, regime=True) == REGIME_SHOWN
    # Arithmetic on the seed's own formula is never counted as reproduced, however close.
    assert verdict(4.0, 4.0, arithmetic=True) == ARITHMETIC
    assert Claim("cost", "break-even", 4.0, "x", arithmetic=True).measure(4.0).verdict == ARITHMETIC
    with pytest.raises(ValueError):
        verdict("worse", 0.1)


def test_headlines_go_to_the_report_table_and_headlines_json(tmp_path: Path):
    claims = (
        Claim("gain", "Fig. 1: throughput gain", 0.56, "change", "pct", side="> 0"),
        Claim("bound", "Fig. 2: W/E ratio", "< 0.01", "ratio", "ratio", side="< 0.01"),
        Claim("regime", "Fig. 3: where it holds", "every case", "", "text", regime=True),
    )
    headlines = [claims[0].measure(0.12, where="tpcc", note="steady"), claims[1].measure(0.004), claims[2].measure(None)]
    assert [h.verdict for h in headlines] == [DIRECTION_ONLY, REPRODUCED, REGIME_SHOWN]
    assert headlines[0].figure == "Fig. 1: throughput gain (tpcc)" and headlines[0].paper_text == "+56.0 %"
    done = report.finish(
        tmp_path,
        tables={"": [{"a": 1}]},
        main="",
        report_text="# Title\n\nprovenance\n\n## Setup\n\ntext\n",
        summary="",
        figures={},
        outcomes=(),
        headlines=headlines,
    )
    text = done.report_path.read_text()
    assert text.index("## Seed vs ssdlab") < text.index("## Setup")
    assert "| Fig. 1: throughput gain (tpcc) | +56.0 % | +12.0 % | change | direction only | steady |" in text
    data = json.loads((tmp_path / "headlines.json").read_text())
    assert [row["verdict"] for row in data] == ["direction only", "reproduced", "regime shown"]
    assert all(HEADLINE_FIELDS <= set(row) for row in data) and data[0]["paper"] == 0.56 and data[0]["ours"] == 0.12


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
