"""The ECC lab from the command line and Python: curves, cache, figures, RBER grid, bench, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

import ssdlab
from ssdlab import ecc

CONFIGS = Path(__file__).resolve().parent.parent / "configs" / "ecc"


def test_quick_curve_writes_table_and_figures_then_reuses_the_cache(cli, tmp_path: Path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    done = cli("ecc", "curve", "quick", "--out", str(out), "--cache-dir", str(cache))
    assert done.returncode == 0, done.stderr
    assert "simulated in" in done.stdout and "bch" in done.stdout and "ldpc-soft-6" in done.stdout
    for name in ("ecc_table.json", "ecc_points.parquet", "fig3.png", "fig3.svg", "fig10.png", "fig10.svg"):
        assert (out / name).stat().st_size > 0, name
    table = json.loads((out / "ecc_table.json").read_text())
    assert table["version"] == 4 and len(table["key"]) == 16
    points = pl.read_parquet(out / "ecc_points.parquet")
    assert set(points["decoder"].unique()) == {"bch", "ldpc-hard", "ldpc-soft-6"}
    assert (points["frames"] > 0).all()
    again = cli("ecc", "curve", "quick", "--out", str(out), "--cache-dir", str(cache))
    assert again.returncode == 0, again.stderr
    assert "loaded from cache" in again.stdout
    assert json.loads((out / "ecc_table.json").read_text())["points"] == table["points"]


def test_curve_from_python_shows_the_seed_002_shape():
    result = ecc.curve("quick", cache_dir=None)
    assert not result.from_cache
    rows = {row["decoder"]: row for row in result.summary_rows()}
    # Seed 002 Fig. 3: hard LDPC slightly above BCH, soft with six extra levels about 3x BCH.
    assert 1.0 < rows["ldpc-hard"]["vs_bch"] < 2.0
    assert 2.5 < rows["ldpc-soft-6"]["vs_bch"] < 4.5
    assert rows["bch"]["target_method"] == "exact binomial tail"
    assert rows["ldpc-soft-6"]["target_method"].startswith("extrapolated")
    # Same spec and seed: the same table.
    assert ecc.curve("quick", cache_dir=None).points == result.points


def test_bad_spec_override_names_the_field(cli, tmp_path: Path):
    done = cli("ecc", "curve", "quick", "--set", "page=5", "--no-cache", "--out", str(tmp_path))
    assert done.returncode == 2
    assert "page" in done.stderr and "pages 0..1" in done.stderr


def test_unknown_spec_field_names_file_line_and_field(cli, tmp_path: Path):
    spec = tmp_path / "bad.toml"
    spec.write_text('cell = "mlc"\npage = 1\nmax_frame = 10\n')
    done = cli("ecc", "curve", str(spec), "--no-cache", "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert f"{spec}" in done.stderr and "max_frame" in done.stderr


def test_unreachable_rber_is_bad_input(tmp_path: Path):
    with pytest.raises(ssdlab.ConfigurationError, match="out of reach"):
        ecc.curve("quick", overrides=["rbers=[1e-12]"], cache_dir=None)


def test_every_shipped_spec_loads():
    files = sorted(CONFIGS.glob("*.toml"))
    assert {f.stem for f in files} == set(ecc.shipped_spec_names())
    for path in files:
        spec = ecc.load_spec(path)
        assert spec["decoders"] and spec["rbers"]


def test_rber_grid_rises_with_wear_and_retention_and_tlc_is_worse():
    mlc = ecc.rber(cell="mlc", pe_cycles=[0, 3000, 10000], retention_hours=[24, 8760])
    by = {(r["pe_cycles"], r["retention_hours"], r["page"]): r["rber"] for r in mlc}
    for page in (0, 1):
        assert by[(0, 24, page)] < by[(3000, 24, page)] < by[(10000, 24, page)]
        assert by[(3000, 24, page)] < by[(3000, 8760, page)]
    tlc = ecc.rber(cell="tlc", pe_cycles=[3000], retention_hours=[720])
    mlc_mean = sum(r["rber"] for r in ecc.rber(cell="mlc", pe_cycles=[3000], retention_hours=[720])) / 2
    assert sum(r["rber"] for r in tlc) / 3 > mlc_mean
    with pytest.raises(ssdlab.ConfigurationError, match="pe_cycles"):
        ecc.rber(pe_cycles=[-1])


def test_rber_command_prints_a_table(cli):
    done = cli("ecc", "rber", "--cell", "tlc", "--pe", "0", "--pe", "3000", "--retention-hours", "720")
    assert done.returncode == 0, done.stderr
    assert "page 2" in done.stdout


def test_ecc_bench_reports_every_measurement():
    report = ecc.bench(ldpc_frames=8, bch_frames=2, monte_carlo_frames=16)
    assert report["ldpc"]["one_core_mbit_per_s"] > 0 and report["ldpc"]["failures"] == 0
    assert report["bch"]["one_core_ms_per_frame"] > 0
    assert [m["decoder"] for m in report["monte_carlo"]] == ["bch", "ldpc-hard", "ldpc-soft-6"]
    with pytest.raises(ssdlab.ConfigurationError, match="ldpc_frame"):
        ecc.bench(ldpc_frame=8)


def test_decoding_table_feeds_a_simulation(cli, tmp_path: Path):
    import tomllib

    snippet = tmp_path / "decoding.toml"
    done = cli("ecc", "decoding-table", "--pe", "12000", "--frames", "30", "--out", str(snippet), "--json", str(tmp_path / "t.json"))
    assert done.returncode == 0, done.stderr
    table = json.loads((tmp_path / "t.json").read_text())
    assert len(table["failure_probabilities"]) == 4 and all(len(row) == 7 for row in table["failure_probabilities"])
    assert table["mean"][0] > table["mean"][6]
    probabilities = tomllib.loads(snippet.read_text())["read_path"]["decoding"]["failure_probabilities"]
    # Issue 48 item 1: the printed block is TOML at a narrow console too (never folded).
    narrow = cli("ecc", "decoding-table", "--pe", "12000", "--frames", "30", env={"COLUMNS": "40"})
    lines = narrow.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("# ", "[read_path")))
    assert tomllib.loads("\n".join(lines[start:]))["read_path"]["decoding"]["failure_probabilities"] == probabilities
    assert probabilities == [[round(p, 4) for p in row] for row in table["failure_probabilities"]]
    run = cli(
        "run",
        "seed002-ldpc",
        "--quiet",
        "--json",
        str(tmp_path / "run.json"),
        "--set",
        f"read_path.decoding.failure_probabilities={json.dumps(probabilities)}",
        "--set",
        "workload.synthetic.requests=3000",
    )
    assert run.returncode == 0, run.stderr
    result = json.loads((tmp_path / "run.json").read_text())
    hard = result["read_path"]["hard_decision_failures"] / result["read_path"]["sampled_reads"]
    assert abs(hard - table["mean"][0]) < 0.1, (hard, table["mean"])


def test_decoding_table_names_a_bad_field(cli):
    done = cli("ecc", "decoding-table", "--pe", "-5")
    assert done.returncode == 2 and "pe_cycles" in done.stderr


def test_wear_dependent_decoding_tables_feed_a_simulation(cli, tmp_path: Path):
    import tomllib

    snippet = tmp_path / "wear.toml"
    done = cli("ecc", "decoding-table", "--pe", "12000", "--pe", "2000", "--frames", "20", "--out", str(snippet))
    assert done.returncode == 0, done.stderr
    decoding = tomllib.loads(snippet.read_text())["read_path"]["decoding"]
    assert decoding["pe_cycles"] == [2000, 12000]
    fresh, worn = decoding["failure_probabilities_by_pe"]
    assert sum(row[0] for row in worn) > sum(row[0] for row in fresh)
    config = tmp_path / "worn.toml"
    # The preset with its decoding table replaced by the generated one.
    preset = ssdlab.load_config("seed002-ldpc")
    start = preset.index("[read_path.decoding]")
    end = preset.index("\n[", start + 1)
    config.write_text(preset[:start] + snippet.read_text() + preset[end:])
    runs = {}
    for aging in (0, 12000):
        out = tmp_path / f"run{aging}.json"
        run = cli(
            "run",
            str(config),
            "--quiet",
            "--json",
            str(out),
            "--set",
            f"ftl.aging.pe_cycles={aging}",
            "--set",
            "workload.synthetic.requests=3000",
        )
        assert run.returncode == 0, run.stderr
        runs[aging] = json.loads(out.read_text())["read_path"]["hard_decision_failures"]
    assert runs[12000] > runs[0]
