"""Seed 000 (AOA-ECC): the decoder tables command, the recipe end to end, its regime table, and the
user's traces replacing stand-ins."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from conftest import trace_or_skip


def test_decoder_tables_command_writes_a_config_table(cli, tmp_path: Path):
    out, data = tmp_path / "tables.toml", tmp_path / "tables.json"
    done = cli(
        "ecc",
        "decoder-tables",
        "--decoder",
        "bch",
        "--decoder",
        "ep-ldpc",
        "--pe",
        "0",
        "--pe",
        "16000",
        "--retention-hours",
        "24",
        "--retention-hours",
        "720",
        "--frames",
        "16",
        "--target-failures",
        "4",
        "--out",
        str(out),
        "--json",
        str(data),
    )
    assert done.returncode == 0, done.stderr
    assert "Tolerable P/E" in done.stdout
    text = out.read_text()
    assert "[read_path.decoder_tables]" in text and "bch = [" in text and "ep_ldpc = [" in text
    result = json.loads(data.read_text())
    bch = result["tables"][0]
    # Fresh chips at a day decode; 16,000 P/E after a month defeats BCH on every chip.
    assert all(chip[0][0] == 0.0 for chip in bch["failure_probabilities"])
    assert all(chip[1][1] > 0.5 for chip in bch["failure_probabilities"])
    bad = cli("ecc", "decoder-tables", "--decoder", "turbo")
    assert bad.returncode != 0 and "decoders" in bad.stderr


def test_reproduce_aoa_ecc_end_to_end(cli, tmp_path: Path):
    trace_or_skip("msr-hm_0.sample.csv.gz")
    out = tmp_path / "aoa"
    args = ("reproduce", "aoa-ecc", "--out", str(out), "--pe", "500", "--pe", "1500", "--min-requests", "5000")
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    fig6 = pl.read_parquet(out / "fig6" / "table.parquet")
    low, high = fig6.row(0, named=True), fig6.row(1, named=True)
    # Young wear: both policies read one page; mid-life: the conventional controller is on soft LDPC
    # while AOA-ECC still reads one page (Quick-LDPC), seed 000 Fig. 6's gap.
    assert abs(low["aoa_over_conventional"] - 1.0) < 0.01
    assert high["conventional_soft_share"] > 0.9 and high["aoa_quick_share"] > 0.9
    assert high["aoa_over_conventional"] > 1.3
    fig7 = pl.read_parquet(out / "fig7" / "table.parquet")
    assert set(fig7["status"].to_list()) == {"ok"}
    by_name = {row["workload"]: row for row in fig7.iter_rows(named=True)}
    assert by_name["prxy_1 (stand-in)"]["class"] == "hot_read_dominant"
    assert by_name["hm_0 (sample)"]["class"] == "hot_read_dominant"
    # The regime: the more the drive reads, the more AOA-ECC gains.
    regime = pl.read_parquet(out / "regime" / "table.parquet")
    ratios = regime.sort("read_share")["aoa_over_conventional"].to_list()
    assert ratios == sorted(ratios) and ratios[-1] > 2.0
    report = (out / "report.md").read_text()
    for phrase in (
        "Seed: +57 %",
        "Seed: 2.3x",
        "Seed: 1.8x mean, 2.1x maximum",
        "seed 0.91x",
        "seed 1.05x",
        "seed: 25 %",
        "prxy_1 (stand-in)",
    ):
        assert phrase in report, phrase
    verdicts = {h["figure"]: h["verdict"] for h in json.loads((out / "headlines.json").read_text())}
    # Table 1 at its own (low) wear; 0.91x in the seed is a loss: a gain on the stand-in is not
    # reproduced however close.
    table1 = {row["workload"]: row for row in pl.read_parquet(out / "table1" / "table.parquet").iter_rows(named=True)}
    web_1 = table1["web_1 (stand-in)"]["aoa_over_conventional"]
    assert table1["web_1 (stand-in)"]["class"].endswith("write_dominant")
    # The seed's rule reads the write-dominant web_1 with EP-LDPC; the wear-only rule with Quick-LDPC.
    assert table1["web_1 (stand-in)"]["aoa_quick_share"] < 0.1 < 0.9 < table1["web_1 (stand-in)"]["aoa_wear_only_quick_share"]
    [web_1_verdict] = [v for figure, v in verdicts.items() if figure.startswith("Table 1: web_1")]
    assert web_1_verdict == ("not reproduced" if web_1 >= 1 else "reproduced")
    for name in ("fig5_tolerable_pe", "fig6_iops_vs_pe", "fig7_by_workload"):
        assert (out / f"{name}.png").stat().st_size > 1000 and (out / f"{name}.svg").stat().st_size > 1000
    again = cli(*args, "--quiet")
    assert again.returncode == 0
    assert "0 points run now" in (out / "report.md").read_text()


def test_reproduce_aoa_ecc_takes_the_users_traces_and_rejects_bad_options(cli, tmp_path: Path):
    from ssdlab.reproduce import aoa_ecc

    trace = tmp_path / "prxy_1-full.csv"
    trace.write_text("time_us,op,offset,size\n0,R,0,4096\n")
    selected = aoa_ecc.workloads(1000, aoa_ecc.parse_trace_options([f"prxy_1={trace}"]))
    assert selected[0].kind == "user" and any(str(trace) in o for o in selected[0].overrides)
    done = cli("reproduce", "aoa-ecc", "--trace", "nosuch=/tmp/x", "--out", str(tmp_path / "out"))
    assert done.returncode != 0 and "nosuch" in done.stderr
    done = cli("reproduce", "aoa-ecc", "--pe", "1000", "--out", str(tmp_path / "out"))
    assert done.returncode != 0 and "--pe" in done.stderr
