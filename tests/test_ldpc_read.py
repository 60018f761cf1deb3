"""Seed 002 (ldpc-read) without simulating: its declarations, the seed's quoted sentences, and the report
built from hand-made run results (every number the prose quotes is the table's, each error model's
sentences from its own rows, both sides' health on each comparison). The end-to-end run is in
test_sweep.py."""

from __future__ import annotations

import json
import math
import re
import tomllib
from types import SimpleNamespace
from typing import Any

import pytest

import ssdlab
from conftest import seed_text_or_skip
from ssdlab.reproduce import ldpc_read
from ssdlab.reproduce.base import ARITHMETIC, BOUND, CALIBRATED, DIRECTION_ONLY, NOT_REPRODUCED, REPRODUCED
from ssdlab.reproduce.report import fmt

WORKLOADS = ("Finance1 (sample)", "Finance2 (stand-in)", "WebSearch (sample)", "Postmark (sample)", "Synthetic1", "Synthetic2")
GRADED = "one_rate"
# The two-step baseline's delay over no soft sensing, per error model: the chips' spread, every block
# and the graded one rate disagree on the worst workload, so a sentence that mixes the models shows.
# Every block keeps the seed's order (Postmark least, Synthetic2 most): a verdict it changes.
DELAY = {
    "one_rate": dict(zip(WORKLOADS, (1.00, 1.05, 1.40, 1.30, 0.70, 1.20), strict=True)),
    "blocks": dict(zip(WORKLOADS, (1.00, 1.05, 1.10, 0.50, 0.70, 1.40), strict=True)),
    "chips": dict(zip(WORKLOADS, (0.80, 0.85, 0.95, 1.10, 0.60, 0.90), strict=True)),
}
# Each variant's read time over the baseline's, per error model (the same on every workload unless
# ``OVERRIDES`` says). The adjacent pairs run under the graded model only.
RATIO = {
    "one_rate": {
        "look_ahead": 0.92,
        "progressive": 0.62,
        "both": 0.57,
        "interleave_2": 0.96,
        "interleave_4": 0.94,
        "all": 0.50,
        "interleave_2_adjacent": 0.90,
    },
    "blocks": {"look_ahead": 0.92, "progressive": 0.62, "both": 0.57, "interleave_2": 0.96, "interleave_4": 0.94, "all": 0.50},
    "chips": {"look_ahead": 0.95, "progressive": 0.65, "both": 0.60, "interleave_2": 0.80, "interleave_4": 0.85, "all": 0.55},
}
# (errors, workload, variant): ratio. One rate and every block: all three worst on Synthetic1, both
# worst on Synthetic1; chips: look-ahead above 1 on Finance1 (so "lowers the mean on every workload"
# would be wrong there).
OVERRIDES = {
    ("one_rate", "Synthetic1", "both"): 0.95,
    ("one_rate", "Synthetic1", "all"): 1.10,
    ("blocks", "Synthetic1", "both"): 0.95,
    ("blocks", "Synthetic1", "all"): 1.10,
    ("chips", "Finance1 (sample)", "look_ahead"): 1.02,
}
# The cost side's price: the reliability-only variants run this much faster.
RELIABILITY_DISCOUNT = {"Synthetic1": 0.60, "Synthetic2": 0.90}
# §2.3: the two-step baseline's write time over no soft sensing. One rate and every block miss "no more
# than 2 %" (Finance1), the chips' spread meets it: a verdict the chips' reading changes.
WRITE_DELAY = {
    "one_rate": dict(zip(WORKLOADS, (0.050, 0.002, 0.0, 0.001, 0.005, 0.012), strict=True)),
    "blocks": dict(zip(WORKLOADS, (0.050, 0.002, 0.0, 0.001, 0.005, 0.012), strict=True)),
    "chips": dict(zip(WORKLOADS, (0.010, 0.002, 0.0, 0.001, 0.005, 0.015), strict=True)),
}
# The independent dies (issue 45 item 7's reading): the one rate's numbers, so no verdict changes.
for _table in (DELAY, RATIO, WRITE_DELAY):
    _table[ldpc_read.DIES] = dict(_table[GRADED])
WRITES = dict(zip(WORKLOADS, (5922, 35753, 4, 10477, 67999, 2021), strict=True))
# Each fake baseline read: 300 of 1,000 page reads fail their hard decision; a full soft read's results
# are 80 us / 20.48 us = 3.906 pages' worth, as the preset's runs count them.
SOFT_PAGES = 80_000 / 20_480
PAGE_UJ = 3.7


def fake_result(
    read_mean: float,
    *,
    write_amplification: float = 1.0,
    grouping: float | None = None,
    extra_uj: float = 500.0,
    write_mean: float = 1000.0,
    writes: int = 1000,
    soft_reads: int = 300,
) -> dict[str, Any]:
    """A run's result with the fields the recipe reads (the soft results counted apart from the whole
    pages, in ``flash.soft_result_pages``; the transfer energy charges both)."""
    soft_pages = soft_reads * SOFT_PAGES
    return {
        "read": {"latency_us": {"mean": read_mean, "p99": 2 * read_mean}, "mbps": 40.0, "count": 800, "bytes": 1000 * 4096},
        "write": {"latency_us": {"mean": write_mean, "p99": 2 * write_mean}, "mbps": 2.5, "count": writes},
        "read_path": {
            "sampled_reads": 1000,
            "hard_decision_failures": 300,
            "sampled_requests": 800,
            "requests_with_hard_failures": 280,
            "look_ahead_started": 900,
            "look_ahead_cancelled": 600,
        },
        "energy_uj": {
            "transfer_uj": PAGE_UJ * (1100 + soft_pages),
            "read_sense_uj": 2400.0,
            "extra_sensing_uj": extra_uj,
            "decode_uj": 800.0,
        },
        "flash": {
            "read_page_transfers": 1000,
            "page_transfers": 1100,
            "soft_result_pages": soft_pages,
            "cancelled_sensing_ns": 0,
            "cancelled_sensing_levels": 0,
            "extra_sensing_levels": 6 * soft_reads,
            "decodes": 1350,
            "page_reads": 1000,
        },
        "interleaving": {"write_amplification_from_grouping": grouping, "part_sensings": 10} if grouping else None,
        "write_amplification": write_amplification,
        "gc": {"host_writes_held": {"any_plane_blocked_fraction": 0.01}},
        "erase_count": {"max": 3, "endurance_pe_cycles": 10000},
        "simulated_seconds": 10.0,
    }


def sweep_rows() -> list[dict[str, Any]]:
    rows = []
    for errors in ldpc_read.ERROR_MODELS:
        for channels in ldpc_read.CHANNELS:
            for workload in WORKLOADS:
                none = 100.0
                base = none * (1 + DELAY[errors][workload] + (0.1 if channels == 2 else 0.0))
                for variant in ldpc_read._variants_of(errors):
                    name = variant.removesuffix(ldpc_read.RELIABILITY_ONLY)
                    if variant == "no_soft":
                        mean = none
                    elif variant == "baseline":
                        mean = base
                    else:
                        mean = base * OVERRIDES.get((errors, workload, name), RATIO[errors][name])
                    if variant.endswith(ldpc_read.RELIABILITY_ONLY):
                        mean *= RELIABILITY_DISCOUNT.get(workload, 0.97)
                    grouping = {"interleave_2": 1.5, "interleave_4": 2.5, "all": 2.5, "interleave_2_adjacent": 1.5}.get(name)
                    # One degenerate run: look-ahead on Finance2 under the graded model, 8 channels.
                    degenerate = errors == GRADED and channels == 8 and workload.startswith("Finance2") and variant == "look_ahead"
                    result = fake_result(
                        mean,
                        write_amplification=25.0 if degenerate else 1.0,
                        grouping=grouping,
                        extra_uj=560.0 if "look_ahead" in variant or variant in ("both", "all") else 500.0,
                        write_mean=1000.0 * (1 + WRITE_DELAY[errors][workload]) if variant == "baseline" else 1000.0,
                        writes=WRITES[workload],
                        soft_reads=0 if variant == "no_soft" else 300,
                    )
                    rows.append(
                        {
                            "point.workload": workload,
                            "point.channels": str(channels),
                            "point.variant": f"{errors}|{variant}",
                            "status": "ok",
                            "error": None,
                            "result_json": json.dumps(result),
                            "point_seconds": 1.0,
                        }
                    )
    return rows


@pytest.fixture(scope="module")
def table() -> list[dict[str, Any]]:
    spans = dict.fromkeys(WORKLOADS, 10.0)
    return ldpc_read._rows(sweep_rows(), spans)


def _computed(hard: float) -> dict[str, Any]:
    return {"mean": [hard, 0.01, 0.0], "spec": {"frames_per_case": 100}}


DECODING_TABLES: dict[str, dict[str, Any]] = {
    key: _computed(hard)
    for key, hard in (
        ("chips/interleave_2", 0.262),
        ("chips/interleave_4", 0.126),
        ("chips/interleave_2_adjacent", 0.131),
        ("blocks/base", 0.307),
        ("blocks/interleave_2", 0.301),
        ("blocks/interleave_4", 0.206),
        ("blocks/interleave_2_adjacent", 0.246),
    )
}
DECODING_TABLES.update(
    {f"one_rate/{name}": ldpc_read.one_rate_table(DECODING_TABLES[f"blocks/{name}"], f"blocks/{name}") for name in ldpc_read.GROUPINGS}
)


def test_ldpc_read_declarations_pass_and_each_fitted_claim_is_calibrated(table):
    recipe = ldpc_read.RECIPE
    assert recipe.check_declarations() == []
    fitted = recipe.fitted_claims()
    assert set(fitted) == {"progressive_energy"}
    # The chips' wear constant is declared as a fit too, though no claim is its 28.8 %.
    assert any("28.8 %" in fit.what and fit.claims == () for fit in recipe.fits)
    for key in fitted:
        claim = recipe.claim(key)
        # However close to the seed's number: the block classes were fitted to it, and the graded one
        # rate is their tables' mean, so it carries the fit.
        assert claim.measure(float(claim.paper)).verdict == CALIBRATED
        assert "the graded one rate is the read-weighted mean of those blocks' tables" in claim.calibrated
    verdicts = {h.key: h.verdict for h in ldpc_read.headlines(table)}
    assert verdicts["progressive_energy"] == CALIBRATED and verdicts["interleave_write_amplification"] == ARITHMETIC
    # One headline per claim, under the graded reading only.
    assert list(verdicts) == [c.key for c in ldpc_read.CLAIMS]


def test_ldpc_read_grades_the_seeds_one_rate_drawn_per_request():
    """Issue 45 item 5: the graded error model is the seed's own, one failure rate for every read (§5.2),
    drawn once per read request; every block's and the chips' own rates are readings, drawn per page."""
    dies = ldpc_read.DIES
    assert ldpc_read.GRADED_ERRORS == "one_rate" and ldpc_read.MODEL_ORDER == ("one_rate", "blocks", "chips", dies)
    assert ldpc_read.DRAWS == {"one_rate": "per_request", "blocks": "per_page", "chips": "per_page", dies: "per_request"}
    for claim in ldpc_read.CLAIMS:
        if not claim.arithmetic:
            assert claim.reading.startswith("one failure rate for every read (§5.2)"), claim.key
    fig11 = {c.key: c for c in ldpc_read.CLAIMS}["baseline_postmark"]
    assert ldpc_read.QUOTES["one_rate"] in fig11.quote and ldpc_read.QUOTES["fed"] in fig11.quote
    assert ldpc_read.QUOTES["share_of_reads"] in {c.key: c for c in ldpc_read.CLAIMS}["write_response"].quote
    # The blocks' reading is never graded, whatever it gives, and the fitted claim stays calibrated under it.
    assert ldpc_read._grade(fig11, 0.25, errors="blocks") == REPRODUCED
    progressive = {c.key: c for c in ldpc_read.CLAIMS}["progressive_energy"]
    assert ldpc_read._grade(progressive, 0.352, errors="blocks") == CALIBRATED
    assert ldpc_read._grade(progressive, 0.352, errors="chips") == REPRODUCED


def test_ldpc_read_one_rate_tables_are_one_row_of_the_blocks_means():
    for name in ldpc_read.GROUPINGS:
        table = DECODING_TABLES[f"one_rate/{name}"]
        assert table["failure_probabilities"] == [DECODING_TABLES[f"blocks/{name}"]["mean"]]
        assert table["mean"] == DECODING_TABLES[f"blocks/{name}"]["mean"]
        assert table["spec"]["derived_from"] == f"blocks/{name}"
        # No chip rows, block classes or codeword parts: the one row serves every read.
        overrides = ldpc_read._table_overrides(table)
        assert len(overrides) == 1 and overrides[0].startswith("read_path.decoding.failure_probabilities=[[")


def _fake_decoding_table(**spec: Any) -> dict[str, Any]:
    """What ``ssdlab.ecc.decoding_table`` returns, in shape (rows per chip row and block-class multiset,
    chip rows of the groups), without the Monte Carlo: every list fails at hard decision with a rate that
    says which table it is."""
    groups = spec["interleave_groups"]
    classes = len(spec["block_factors"]) or 1
    parts = len(groups[0]) if groups and classes > 1 else 1
    lists = ldpc_read_multisets(classes, parts)
    rows = (len(groups) or 4) * lists
    hard = 0.1 + 0.01 * len(groups) + 0.001 * classes + (0.05 if groups == ldpc_read.ADJACENT_PAIRS else 0.0)
    chip_rows = [next(i for i, g in enumerate(groups) if chip in g) for chip in range(4)] if groups else []
    return {
        "spec": dict(spec),
        "failure_probabilities": [[hard, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]] * rows,
        "mean": [hard, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "chip_rows": chip_rows,
        "block_classes": classes,
        "codeword_parts": parts,
    }


def ldpc_read_multisets(classes: int, parts: int) -> int:
    count = 1
    for i in range(1, parts + 1):
        count = count * (classes + i - 1) // i
    return count


@pytest.fixture
def fake_tables(tmp_path, monkeypatch) -> dict[str, dict[str, Any]]:
    from ssdlab import ecc

    calls: list[dict[str, Any]] = []

    def fake(**spec: Any) -> dict[str, Any]:
        calls.append(spec)
        return _fake_decoding_table(**spec)

    monkeypatch.setattr(ecc, "decoding_table", fake)
    tables = ldpc_read.decoding_tables(tmp_path, 40)
    # A second call reuses every computed table (by spec) and derives the one-rate tables again.
    assert ldpc_read.decoding_tables(tmp_path, 40) == tables and len(calls) == 7
    return tables


def test_ldpc_read_decoding_tables_derive_the_one_rate_from_every_blocks_mean(fake_tables):
    computed = {f"{e}/{name}" for e in ("blocks", "chips") for name in ldpc_read.GROUPINGS} - {"chips/base"}
    assert set(fake_tables) == computed | {f"one_rate/{name}" for name in ldpc_read.GROUPINGS}
    for name in ldpc_read.GROUPINGS:
        one = fake_tables[f"one_rate/{name}"]
        assert one["failure_probabilities"] == [fake_tables[f"blocks/{name}"]["mean"]] and not one["chip_rows"]
    # The 2-way tables follow the seed's pairs (chips 1-3, 2-4); the adjacent pairs are computed apart.
    assert fake_tables["blocks/interleave_2"]["spec"]["interleave_groups"] == [[0, 2], [1, 3]]
    assert fake_tables["chips/interleave_2"]["chip_rows"] == [0, 1, 0, 1]
    assert fake_tables["blocks/interleave_2_adjacent"]["spec"]["interleave_groups"] == [[0, 1], [2, 3]]


def test_ldpc_read_sweep_draws_per_request_for_one_rate_and_per_page_for_the_others(fake_tables):
    """Issue 45 items 5 and 9: one-rate points draw once per read request and the chips' and blocks'
    per page; 2-way interleaving pairs the seed's chips 1-3 and 2-4, and the adjacent pairs (a reading)
    run under the graded model only."""
    synthetic = [w for w in ldpc_read.workloads(1000) if w.sample is None]
    sweep = ldpc_read.build_sweep(synthetic, fake_tables)
    variants = sweep.cases["variant"]
    assert not sweep.common
    for key, overrides in variants.items():
        errors, _, name = key.partition("|")
        draws = [o for o in overrides if o.startswith("read_path.decoding.draw=")]
        assert draws == [f'read_path.decoding.draw="{ldpc_read.DRAWS[errors]}"'], key
        grouping = [o for o in overrides if o.startswith("read_path.interleave_groups=")]
        if name in ("interleave_2", "interleave_2_adjacent", "interleave_4", "all"):
            expected = {"interleave_2": "[[0, 2], [1, 3]]", "interleave_2_adjacent": "[[0, 1], [2, 3]]"}.get(name, "[[0, 1, 2, 3]]")
            assert grouping == [f"read_path.interleave_groups={expected}"], key
        else:
            assert grouping == [], key
    one_rate = [o for o in variants["one_rate|interleave_2"] if "failure_probabilities" in o]
    mean = [round(p, 4) for p in fake_tables["blocks/interleave_2"]["mean"]]
    assert one_rate == [f"read_path.decoding.failure_probabilities={json.dumps([mean])}"]
    assert "one_rate|interleave_2_adjacent" in variants and "blocks|interleave_2_adjacent" not in variants
    assert len(variants) == 4 * 11 + 1
    # Every point resolves to a valid config (the tables' shapes included).
    assert len(sweep.points()) == 4 * len(synthetic) * len(ldpc_read.CHANNELS) * 11 + len(synthetic) * len(ldpc_read.CHANNELS)
    # Issue 45 item 7: every model runs on the preset's ganged device; the independent dies are the
    # one rate's reading, with the same tables and draw.
    for key, overrides in variants.items():
        assert (ldpc_read.GANGING_OFF in overrides) == key.startswith(f"{ldpc_read.DIES}|"), key
    same = [o for o in variants["one_rate|interleave_2"] if o != ldpc_read.GANGING_OFF]
    assert same == [o for o in variants[f"{ldpc_read.DIES}|interleave_2"] if o != ldpc_read.GANGING_OFF]
    # The ladder runs under the graded model: one rate, one draw per request (per page where a step says).
    ordering = ldpc_read.build_ordering_sweep(1000, fake_tables)
    assert 'read_path.decoding.draw="per_request"' in ordering.common
    assert any("failure_probabilities=[[" in o for o in ordering.common)
    assert ldpc_read.DISKSIM_SIZES in ordering.cases["step"]
    # The synthetic rate is open in the seed: both mixes at every rate of the ladder.
    for mix in ("Synthetic1", "Synthetic2"):
        for iops in ldpc_read.RATE_STEPS:
            arrival = [o for o in ordering.cases["step"][ldpc_read.rate_step(mix, iops)] if "arrival" in o]
            assert arrival == [f'workload.synthetic.arrival={{ process = "poisson", mean_interarrival_ns = {1e9 / iops} }}']
    assert len(ordering.points()) == 2 * len(ordering.cases["step"])
    sizes = next(o for o in ordering.cases["step"][ldpc_read.DISKSIM_SIZES] if o.startswith("workload.synthetic.size="))
    assert '"choice"' in sizes and "[4096, 8192," in sizes


def test_ldpc_read_energy_charges_the_soft_result_pages_the_runs_moved():
    """Issue 45 item 6: energy counts the soft results as the runs timed them (``flash.soft_result_pages``,
    3.9 pages' worth per full soft read at §2.3's 80 us), not one page per level; a result without that
    field counted one page per level among its read page transfers."""
    assert ldpc_read.soft_read_pages() == pytest.approx(SOFT_PAGES)
    result = fake_result(100.0)
    parts = ldpc_read._energy_parts(result)
    soft = 300 * SOFT_PAGES
    moved = PAGE_UJ * (1000 + soft)
    assert parts["access"] == pytest.approx(2400.0 + 500.0 + moved)
    # A cancelled look-ahead charged as a complete soft read moves a full soft read's pages.
    assert parts["access_soft_read"] - parts["access_full"] == pytest.approx(600 * SOFT_PAGES * PAGE_UJ)
    assert parts["access_soft_read_3"] == pytest.approx(parts["access_full"] - PAGE_UJ * soft * (1 - 3 / SOFT_PAGES) + 600 * 3 * PAGE_UJ)
    # An older result: the soft results were one page per level, counted among the read page transfers.
    old = fake_result(100.0)
    old["flash"].pop("soft_result_pages")
    old["flash"].update(read_page_transfers=1000 + 1800, page_transfers=1100 + 1800)
    old["energy_uj"]["transfer_uj"] = PAGE_UJ * 2900
    before = ldpc_read._energy_parts(old)
    assert before["access"] == pytest.approx(2400.0 + 500.0 + PAGE_UJ * 2800)
    assert before["access_soft_read"] - before["access_full"] == pytest.approx(600 * 6 * PAGE_UJ)
    # The texts say the same count.
    assert "3.9 pages' worth" in ldpc_read.accounting_text("access_soft_read")
    text = ldpc_read._soft_transfer_text()
    assert "§2.3's about 80 us for the seven-level results of 4 KB: 3.9 pages' worth at 20.5 us" in text
    assert "time and energy use one page count" in text


def test_ldpc_read_quotes_are_the_seeds_own_sentences():
    text = seed_text_or_skip("002")
    for claim in ldpc_read.CLAIMS:
        assert claim.quote, claim.key
        for sentence in claim.quote.split(ldpc_read.BOOK.quote_separator):
            assert sentence in text, (claim.key, sentence)
    for quote in (ldpc_read.QUOTES["pairs"], ldpc_read.QUOTES["proportional"], ldpc_read.QUOTES["four_chips"], ldpc_read.QUOTES["fig9"]):
        assert quote in text, quote
    # The seed's chips 1-3 and 2-4 are ours 0-2 and 1-3.
    assert ldpc_read.INTERLEAVE_GROUPS["interleave_2"] == [[0, 2], [1, 3]]


def test_ldpc_read_graded_device_is_the_presets_gangs():
    """The report's gang size is the preset's, and the preset runs the synthetic mixes' rate."""
    preset = tomllib.loads(ssdlab.load_config(ldpc_read.PRESET))
    assert preset["device"]["ganging"]["chips_per_gang"] == ldpc_read.GANG_CHIPS
    assert preset["device"]["geometry"]["chips_per_channel"] == ldpc_read.GANG_CHIPS
    arrival = preset["workload"]["synthetic"]["arrival"]["mean_interarrival_ns"]
    assert arrival == ldpc_read.SYNTHETIC_INTERARRIVAL_NS == ldpc_read.DISKSIM_INTERARRIVAL_NS


def test_ldpc_read_disksim_example_sizes_are_its_generators():
    sizes, weights = ldpc_read.disksim_example_sizes()
    assert sizes[0] == 4096 and sum(weights) == pytest.approx(1.0)
    assert weights[0] == pytest.approx(1 - math.exp(-1), abs=1e-3)
    assert ldpc_read.disksim_mean_pages() == pytest.approx(1 / (1 - math.exp(-1)), abs=0.01)


def test_ldpc_read_headlines_come_from_the_graded_rows_with_both_sides_health(table):
    found = {h.key: h for h in ldpc_read.headlines(table)}
    graded = ldpc_read.GRADED_ERRORS
    assert found["baseline_postmark"].ours == pytest.approx(DELAY[graded]["Postmark (sample)"])
    # Fig. 11's order as a bound on ranks: one rate ranks Synthetic2 3rd of 6 from the most delayed (2
    # places off) and Postmark 5th of 6 from the least (4 places off).
    assert found["ordering"].ours == 6 and found["ordering"].verdict == NOT_REPRODUCED
    assert found["ordering"].ours_text == "Synthetic2 3rd of 6 from the most delayed, Postmark 5th of 6 from the least (6 places off)"
    assert ldpc_read.CLAIMS[[c.key for c in ldpc_read.CLAIMS].index("ordering")].resolved_form == BOUND
    # §2.3's write bound: the worst over the graded rows (Finance1, +5 %), both sides' health naming write MB/s.
    writes = found["write_response"]
    assert writes.ours == pytest.approx(max(WRITE_DELAY[graded].values())) and writes.verdict == NOT_REPRODUCED
    assert "worst: Finance1 (sample) (5,922 writes" in writes.note
    assert [h.mbps for h in writes.health] == [2.5, 2.5] and len(writes.health) == 2
    assert found["all_worst"].ours == pytest.approx((1 + DELAY[graded]["Synthetic1"]) * 1.10 - 1)
    assert "worst: Synthetic1" in found["all_worst"].note
    # Look-ahead is below the baseline on average, but one of its runs is degenerate: direction only.
    assert found["look_ahead"].ours < 1 and found["look_ahead"].verdict == DIRECTION_ONLY
    assert any("write amplification 25.0 > 20" in d for d in found["look_ahead"].degenerate)
    assert found["progressive"].verdict == REPRODUCED and len(found["progressive"].health) == 2
    for key in ("baseline_postmark", "look_ahead", "progressive", "both_combined", "all_worst", "interleave", "interleave_ranking"):
        assert len(found[key].health) == 2, key
    # Fig. 14's "further improve": look-ahead + progressive over the better of the two, per workload.
    expected = [
        OVERRIDES.get((graded, w, "both"), RATIO[graded]["both"])
        / min(RATIO[graded]["look_ahead"], OVERRIDES.get((graded, w, "progressive"), RATIO[graded]["progressive"]))
        for w in WORKLOADS
    ]
    assert found["both_combined"].ours == pytest.approx(sum(expected) / len(expected))
    # The other readings: every block's and the chips' rates for every counted claim, the back-solved
    # energy and the adjacent pairs labelled.
    readings = ldpc_read.readings(table)
    chips = {r.claim: r for r in readings if r.name == ldpc_read.ERROR_MODEL_NAMES["chips"]}
    blocks = {r.claim: r for r in readings if r.name == ldpc_read.ERROR_MODEL_NAMES["blocks"]}
    assert chips["baseline_postmark"].value == pytest.approx(DELAY["chips"]["Postmark (sample)"])
    assert blocks["baseline_postmark"].value == pytest.approx(DELAY["blocks"]["Postmark (sample)"])
    assert "fed its simulator one estimated rate" in blocks["baseline_postmark"].why
    assert "graded under it the claim is calibrated too" in blocks["progressive_energy"].why
    assert "so the rule applies" in chips["progressive_energy"].why
    assert not any(r.supported for r in readings)
    # "Adopted because it matched" is computed: a reading picked after the fact or for being favourable
    # whose value meets the claim's rule (the integrated scheme's reliability-only variants against
    # "below 20 %", the adjacent pairs against Fig. 15's rule, the energy accounting solved from +102.9 %
    # against the seed's number), with that reason in its "why".
    adjacent = {r.claim: r for r in readings if r.name.startswith("adjacent pairs")}
    assert adjacent["interleave"].value == pytest.approx(RATIO[graded]["interleave_2_adjacent"])
    assert adjacent["interleave"].matched and "favourable" in adjacent["interleave"].why
    assert adjacent["interleave_ranking"].value == pytest.approx(RATIO[graded]["interleave_4"] / RATIO[graded]["interleave_2_adjacent"])
    assert not adjacent["interleave_ranking"].matched
    for reading in readings:
        if reading.claim == "all_worst" and reading.name.endswith("reliability side only"):
            assert reading.matched == (reading.value < 0.2), reading.name
            assert "picked after the fact" in reading.why
            assert ("it passes 'below 20 %'" in reading.why) == reading.matched
        elif reading.name == "access_soft_read_3":
            assert reading.matched == (abs(reading.value - 1.029) <= 0.3 * 1.029)
            assert "picked after the fact: solved from the seed's +102.9 %" in reading.why
            assert "timed and charged with 3.9-page soft results" in reading.why
        elif not reading.name.startswith("adjacent pairs"):
            assert not reading.matched, (reading.claim, reading.name)
    assert any(r.matched for r in readings)
    # The same readings on slower reliability-only runs: nothing passes "below 20 %", nothing is labelled.
    slower = [dict(r, all_reliability_only_delay=0.5) for r in table]
    assert not any(r.matched for r in ldpc_read.readings(slower) if r.claim == "all_worst")


def test_ldpc_read_other_models_readings_say_which_verdicts_change(table):
    # By hand from the fake runs: under the chips' spread, the write bound holds (+1.5 % worst), look-ahead
    # has no degenerate run, all three's worst passes "below 20 %" (Postmark +15.5 %), 4-way is slower
    # than 2-way, both together beat the better technique alone on average (one rate: Synthetic1's
    # x0.95 lifts the mean above 1), and progressive's decode energy is graded by the rule (the chips'
    # spread uses no fitted block classes). Every block keeps the seed's order and has no degenerate
    # run; its progressive energy stays calibrated (the fitted classes are its own).
    changes = {claim.key: (graded, would) for claim, graded, would, _ in ldpc_read.verdict_changes(table, "chips")}
    assert changes == {
        "write_response": (NOT_REPRODUCED, REPRODUCED),
        "look_ahead": (DIRECTION_ONLY, REPRODUCED),
        "all_worst": (NOT_REPRODUCED, REPRODUCED),
        "both_combined": (NOT_REPRODUCED, REPRODUCED),
        "interleave_ranking": (REPRODUCED, NOT_REPRODUCED),
        "progressive_energy": (CALIBRATED, REPRODUCED),
    }
    blocks = {claim.key: (graded, would) for claim, graded, would, _ in ldpc_read.verdict_changes(table, "blocks")}
    assert blocks == {"ordering": (NOT_REPRODUCED, REPRODUCED), "look_ahead": (DIRECTION_ONLY, REPRODUCED)}
    chips = {r.claim: r for r in ldpc_read.readings(table) if r.name == ldpc_read.ERROR_MODEL_NAMES["chips"]}
    counted = [c.key for c in ldpc_read.CLAIMS if not (c.regime or c.arithmetic)]
    # A chips' reading for every counted claim, and its "why" says whether the verdict changes.
    assert sorted(chips) == sorted(counted)
    for key, reading in chips.items():
        assert ("the verdict changes" in reading.why) == (key in changes), key
    assert chips["ordering"].value_text.startswith("Synthetic2 3rd of 6 from the most delayed, Postmark 6th of 6")
    section = " ".join(ldpc_read._grading_section(table, DECODING_TABLES).split())
    assert f"Under chips' spread only (a reading; 8 channels), {len(changes)} of {len(counted)} claims would get another verdict" in section
    assert f"Under every block (Fig. 9) (a reading; 8 channels), 2 of {len(counted)} claims" in section
    assert "interleave_ranking (" in section and "reproduced → not reproduced" in section
    # The one rate's hard failure is the blocks' table's mean; the favourable choices are named.
    assert "(hard-decision failure 30.7 %;" in section
    assert "Choices that shape the result, named (issue 45)" in section and "One stress for every read" in section
    assert "paired chips 1-2 and 3-4, each weak chip class of ours with a strong one: favourable" in section


def test_ldpc_read_report_prose_quotes_the_tables_numbers(table):
    rows = ldpc_read._figure_rows(table, DECODING_TABLES)
    lines = {line.split(" | ")[0].lstrip("| "): line.split(" | ") for line in rows.splitlines()[2:]}
    graded, blocks, chips, _dies = ldpc_read.MODEL_ORDER
    note = 2 + len(ldpc_read.MODEL_ORDER)
    # Fig. 14: each column its own model's worst (one rate and every block: Synthetic1; chips: Postmark),
    # and the note speaks of the graded model only: no Postmark sentence when Postmark is not its worst.
    fig14 = lines["Fig. 14: both"]
    worst = {e: max((1 + DELAY[e][w]) * OVERRIDES.get((e, w, "both"), RATIO[e]["both"]) - 1 for w in WORKLOADS) for e in DELAY}
    # Each worst names its workload: the baseline's (one rate: WebSearch) and both's (Synthetic1).
    base = fmt(DELAY[graded]["WebSearch (sample)"], "pct")
    assert f"worst delay of the baseline {base} (WebSearch (sample)), of both {fmt(worst[graded], 'pct')} (Synthetic1)" in fig14[2]
    assert fmt(worst[chips], "pct") + " (Postmark (sample))" in fig14[4]
    assert "Postmark pays the most" not in fig14[note]
    # Fig. 12: counted on the graded rows (one rate lowers the mean on all six).
    assert "it lowers the mean on 6 of 6 workloads" in lines["Fig. 12: look-ahead"][note]
    # Fig. 11: the graded rate is the one-rate table's.
    assert (
        "here the read-weighted mean of every block's table, 30.7 %, drawn once per read request"
        in lines["Fig. 11: two-step baseline vs no soft sensing"][note]
    )
    # Fig. 15: the decoding tables' means, the preset's for the chips' base; the seed's pairs and the
    # adjacent pairs' ratio from the graded rows.
    preset_mean = sum(c[0] for c in ldpc_read._preset()["read_path"]["decoding"]["failure_probabilities"]) / 4
    fig15 = lines["Fig. 15: interleaving (two-step)"][note]
    assert (
        f"every block and one rate 30.7 % → 30.1 % → 20.6 %; 24.6 %; chips' spread only {fmt(preset_mean, 'share')} → 26.2 % → 12.6 %; "
        "13.1 %." in fig15
    )
    assert "2-way pairs the seed's chips 1-3 and 2-4" in fig15 and ldpc_read.QUOTES["pairs"] in fig15
    assert "One rate (§5.2): reliability side only, the seed's ranking" in fig15
    assert "The adjacent pairs 1-2 and 3-4 (the recipe's before issue 45" in fig15
    assert f"give x{fmt(RATIO[graded]['interleave_2_adjacent'], 'ratio')} of the baseline (one rate (§5.2))" in fig15
    # All three: the cost side's price from the graded rows, and the writes sentence only where it holds;
    # every price the note quotes is a cell of the per-workload table the report shows.
    integrated = lines["§1, §6: all three integrated"][note]
    synthetic1 = fmt(1 / RELIABILITY_DISCOUNT["Synthetic1"], "ratio")
    synthetic2 = fmt(1 / RELIABILITY_DISCOUNT["Synthetic2"], "ratio")
    lowest = fmt(1 / 0.97, "ratio")
    assert f"from x{synthetic1} (Synthetic1) to x{lowest} (" in integrated
    assert f"x{synthetic1} against x{synthetic2}, so the price grows with the writes" in integrated
    per_workload = ldpc_read._per_workload_markdown(table)
    graded_cells = {
        line.split(" | ")[1]: line.split(" | ")
        for line in per_workload.splitlines()[2:]
        if line.startswith(f"| {graded} |") and " | 8 | " in line
    }
    price = len(graded_cells["Synthetic1"]) - 1
    assert graded_cells["Synthetic1"][price].rstrip(" |") == synthetic1 and graded_cells["Synthetic2"][price].rstrip(" |") == synthetic2
    for number in re.findall(r"x(\d\.\d{3}) \(", integrated):
        assert any(cells[price].rstrip(" |") == number for cells in graded_cells.values()), number
    # The look-ahead started share and the write-time bound: the mean row and the worst row of that table.
    mean = graded_cells[ldpc_read.MEAN_ROW]
    started = re.search(r"Look-ahead starts on (\d+\.\d %)", lines["§5.5: look-ahead energy"][note]).group(1)
    assert started == mean[5] == "90.0 %"
    write_cell = lines["§2.3: write response time"][2]
    assert write_cell == f"worst {graded_cells['Finance1 (sample)'][4]} (Finance1 (sample)); mean {mean[4]}"
    assert graded_cells["Finance1 (sample)"][4] == fmt(WRITE_DELAY[graded]["Finance1 (sample)"], "pct")
    # The soft results' transfer: the preset follows §2.3's 80 us, and time and energy use one count.
    energy_note = lines["§5.5: look-ahead energy"][note]
    assert "the runs' soft results are 3.9 pages" in energy_note and "time and energy use one page count" in energy_note
    assert "one page per extra sensing level" not in energy_note and "full soft read, 3.9 pages" in lines["§5.5: look-ahead energy"][2]
    # Progressive energy: the fitted knob, the one rate carrying it and the wear constant said where the claim is shown.
    progressive = lines["§5.5: progressive decode energy"][note]
    assert "every claim graded on it rests on this fitted knob" in progressive and "28.8 %" in progressive
    assert "The graded one rate is the read-weighted mean of those block classes' tables, so it carries the same fit" in progressive
    # Look-ahead energy: the soft-result size solved from the seed's figure, with the preset's energies.
    assert f"{ldpc_read.seed_energy_pages():.2f} pages" in energy_note
    assert ldpc_read.seed_energy_pages() == pytest.approx(2.95, abs=0.01)
    # Every percent and ratio in the graded column is one the table gives (a row's value or a mean).
    values = {fmt(v, kind) for row in table for v in row.values() if isinstance(v, float) for kind in ("pct", "ratio")}
    keys = {k for row in table for k, v in row.items() if isinstance(v, float)}
    for errors in ldpc_read.MODEL_ORDER:
        for channels in ldpc_read.CHANNELS:
            values |= {fmt(ldpc_read._model_mean(table, k, errors, channels), kind) for k in keys for kind in ("pct", "ratio")}
    for name, cells in lines.items():
        for number in re.findall(r"[+-]\d+\.\d %|x\d\.\d{3}", cells[2]):
            assert number.lstrip("x") in values, (name, number)


def test_ldpc_read_fig11_order_is_the_graded_rows_sorted(table):
    section = ldpc_read._fig11_order_section(table)
    graded = sorted(WORKLOADS, key=lambda w: DELAY[GRADED][w])
    order = ", ".join(f"{w.split(' ')[0]} {fmt(DELAY[GRADED][w], 'pct')}" for w in graded)
    assert f"from the least to the most delayed: {order}." in " ".join(section.split())
    assert ldpc_read.QUOTES["fig11"] in section
    lines = [line.split(" | ") for line in section.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [cells[1] for cells in lines] == graded
    # Each row: the share of read requests with a hard failure and pages per request from its baseline run,
    # and each reading's delay with its own place.
    first = lines[0]
    assert first[2] == fmt(DELAY[GRADED][graded[0]], "pct") and first[3] == "35.0 %" and first[4] == "1.25"
    blocks_place = sorted(WORKLOADS, key=lambda w: DELAY["blocks"][w]).index(graded[0]) + 1
    assert first[5] == f"{fmt(DELAY['blocks'][graded[0]], 'pct')} ({ldpc_read._ordinal(blocks_place)})"


def test_ldpc_read_report_states_its_run_sizes():
    outcome = SimpleNamespace(rows=[{"point_seconds": 1.0}], ran=1, skipped=0, failed=0, wall_seconds=1.0)
    ordering = [
        {
            "step": "Synthetic2 (base)",
            "no_soft_read_mean_us": 80.0,
            "baseline_read_mean_us": 150.0,
            "baseline_delay": 0.875,
            "hard_failure_fraction": 0.28,
            "request_hard_failure_fraction": 0.28,
        },
        {
            "step": "83.2 % reads",
            "no_soft_read_mean_us": 90.0,
            "baseline_read_mean_us": 160.0,
            "baseline_delay": 0.7778,
            "hard_failure_fraction": 0.28,
            "request_hard_failure_fraction": 0.28,
        },
        {
            "step": ldpc_read.DISKSIM_SIZES,
            "no_soft_read_mean_us": 90.0,
            "baseline_read_mean_us": 171.0,
            "baseline_delay": 0.9,
            "hard_failure_fraction": 0.28,
            "request_hard_failure_fraction": 0.28,
        },
        {
            "step": ldpc_read.rate_step("Synthetic2", 20_000),
            "no_soft_read_mean_us": 100.0,
            "baseline_read_mean_us": 180.0,
            "baseline_delay": 0.8,
            "hard_failure_fraction": 0.28,
            "request_hard_failure_fraction": 0.28,
            "gang_utilisation": 0.2,
        },
    ]
    for row in ordering:
        row.setdefault("gang_utilisation", 0.01)
    text = ldpc_read._report(ldpc_read.workloads(1000), [], {}, outcome, None, DECODING_TABLES, ordering, 1234)
    flat = " ".join(text.split())
    assert "Here Synthetic2 (1,234\nrequests" in text
    # The DiskSim step is set apart from the steps towards Postmark.
    assert "the single change towards Postmark that moves the delay the most is **83.2 % reads** (-9.7 points)." in flat
    assert "With DiskSim's example generator's sizes instead of ours: +90.0 %" in flat
    # The synthetic rate's effect, from the ladder's rate steps (issue 45 item 7: the gangs' rate).
    assert (
        "The synthetic rate (open in the seed) moves the delay: Synthetic2: 200 IOPS +87.5 % (gangs busy 1.0 %), 20,000 IOPS +80.0 % (gangs busy 20.0 %)."
        in flat
    )
    assert f"are {ldpc_read.CHANNELS[0] // ldpc_read.CHANNELS[1]}x the preset's" in text and "14 us per extra sensing level" in text
    # The setup says the preset moves the soft results at §2.3's 80 us, for time and energy alike.
    assert "one page moved per level" not in text and "moves one page per extra sensing level" not in text
    assert "moves a full soft read's results in 80 us" in flat
    assert ldpc_read.QUOTES["soft_transfer"] in text and ldpc_read.QUOTES["extra_level"] in text
    # The grading section says why the one rate and the cost side are graded and what was fitted, in one voice.
    assert "## How the claims are graded" in text and ldpc_read.QUOTES["average_out"] in text and ldpc_read.QUOTES["power_studied"] in text
    assert ldpc_read.QUOTES["one_rate"] in text and ldpc_read.QUOTES["share_of_reads"] in text and ldpc_read.QUOTES["proportional"] in text
    assert "It does not say whether its simulations charged the cost" in flat
    assert ldpc_read.BLOCK_FACTORS_FIT in text and ldpc_read.WEAR_FIT in text
    # The decoding tables: the one-rate ones derived from the blocks' means.
    assert "- `one_rate/interleave_2`: mean failure by precision 30.10 %, 1.00 %, 0.00 %" in text
    assert "one row for every read: the read-weighted mean of `blocks/interleave_2`" in text
    # Workloads: the synthetic mixes beside DiskSim's example generator.
    assert "benh/disksim `ssdmodel/valid/ssd-postmark.parv`" in flat and "63.2 % one page, 1.58 pages on average" in flat
    assert "open arrivals exponential of mean 5 ms (200 IOPS)" in flat and "which the ganged device cannot serve" in flat
    assert "`[[0, 2], [1, 3]]`" in text and "`[[0, 1], [2, 3]]`" in text


def test_ldpc_read_says_one_thing_about_the_seeds_interleaving_runs():
    """The seed names interleaving's cost and does not say whether its runs charged it: no text of the
    recipe or its docs may say it modelled or simulated the averaged error rate only."""
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs" / "ldpc-read.md"
    source = Path(ldpc_read.__file__).read_text(encoding="utf-8")
    # The recipe's texts: its module, its claim book and its templates.
    folder = Path(ldpc_read.__file__).parent
    texts = [
        path.read_text(encoding="utf-8")
        for path in (folder / "claims" / "ldpc_read.toml", *(folder / "templates").glob("ldpc_read*.md.j2"))
    ]
    for text in (source, *texts, docs.read_text(encoding="utf-8")):
        flat = " ".join(text.split())
        assert "models interleaving by its averaged error rate only" not in flat
        assert "simulates only that averaged error rate" not in flat
        assert "one page moved per level" not in flat
