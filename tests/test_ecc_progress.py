"""Issue 48 item 3: the ECC lab's long commands tell their size and an estimate before they run, then
their progress: a bar with the total on a terminal, a line per phase when stderr is a log or a pipe
(as in these tests), nothing with --quiet. Every spec here is a few points of a few frames."""

from __future__ import annotations

import io
import json
import re
import tomllib
from pathlib import Path

import pytest

from ssdlab import ecc

# Two decoders, two RBERs and one refinement each: 6 points of at most 32 frames.
TINY_CURVE = [
    "--set",
    'decoders=["bch", "ldpc-hard"]',
    "--set",
    "rbers=[2.0e-2, 2.5e-2]",
    "--set",
    "max_frames=32",
    "--set",
    "refinements=1",
]


def overrides(arguments: list[str]) -> list[str]:
    return arguments[1::2]


def test_curve_in_a_log_prints_its_size_then_a_line_per_decoder(cli, tmp_path: Path):
    done = cli("ecc", "curve", "quick", *TINY_CURVE, "--no-cache", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    # The total before the run, from the spec: 2 decoders x (2 RBERs + 1 refinement).
    assert lines[0].startswith("ecc curve quick: 6 points (2 decoders x (2 RBERs + 1 refinements)), each up to 32 frames"), lines
    assert "at most 192" in lines[0]
    # A line as each decoder's points end, with the elapsed time and, until the last, the time left.
    assert re.fullmatch(r"curve point 3/6 done \(bch\), \d+ s elapsed, ~\d+ s left", lines[1]), lines
    assert re.fullmatch(r"curve point 6/6 done \(ldpc-hard\), \d+ s elapsed", lines[2]), lines
    assert len(lines) == 3, lines
    # The table and its summary are on stdout as before.
    assert "simulated in" in done.stdout and (tmp_path / "out" / "ecc_table.json").is_file()


def test_curve_quiet_prints_nothing_and_a_cached_table_says_so(cli, tmp_path: Path):
    cache = tmp_path / "cache"
    quiet = cli("ecc", "curve", "quick", *TINY_CURVE, "--cache-dir", str(cache), "--out", str(tmp_path / "a"), "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == ""
    again = cli("ecc", "curve", "quick", *TINY_CURVE, "--cache-dir", str(cache), "--out", str(tmp_path / "b"))
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines() == ["ecc curve quick: 6 points, table in the cache"]
    assert "loaded from cache" in again.stdout


def test_a_large_curve_is_estimated_before_it_runs(monkeypatch):
    """`ecc curve SPEC --set max_frames=50000` (issue 48): the size and the time are told before the
    run. The timing run is real; the threshold is lowered so that a tiny spec makes one."""
    plan = ecc.curve_plan("seed002-fig3", ["max_frames=50000"])
    assert plan.points == 10 * (25 + 4) and plan.frame_budget == 290 * 50_000
    # Clean points before the stop and the waterfall point run to max_frames, refinements to
    # 40 failures at the comparison rate 1e-3: (3 x 50,000 + 4 x 40,000) per decoder.
    assert plan.expected_frames == 10 * (3 * 50_000 + 4 * 40_000)
    stream = io.StringIO()
    monkeypatch.setattr(ecc, "CURVE_TIMING_THRESHOLD_FRAMES", 0)
    with ecc.LabProgress("curve point", stream=stream) as progress:
        result = ecc.curve_with_progress("quick", progress, overrides=overrides(TINY_CURVE), cache_dir=None)
    lines = stream.getvalue().splitlines()
    first = re.fullmatch(r"ecc curve quick: 6 points .* ms per frame \(measured now\): about (\d+) s, at most (\d+) s", lines[0])
    assert first, lines[0]
    assert 0 <= int(first[1]) <= int(first[2])
    assert len(result.points) <= 6 and lines[-1].startswith("curve point 6/6 done (ldpc-hard)")


def test_time_left_and_the_lines_follow_the_clock():
    """The arithmetic of the lines, on a clock the test moves: the pace so far over the work left,
    leaning on the timing run's estimate while little is done; a line at each phase's end or after
    `every_seconds`."""
    now = [100.0]
    stream = io.StringIO()
    progress = ecc.LabProgress("curve point", stream=stream, every_seconds=30, clock=lambda: now[0])
    progress.start(12, expected_seconds=None)
    now[0] += 45
    progress.update(3)  # 45 s since the last line: a line
    assert stream.getvalue() == "curve point 3/12 done, 45 s elapsed, ~2 min left\n"
    now[0] += 5
    progress.update(4)  # 5 s later, not a phase's end: no line
    progress.update(5, label="bch", phase_end=True)
    assert stream.getvalue().splitlines()[-1] == "curve point 5/12 done (bch), 50 s elapsed, ~70 s left"
    now[0] += 70
    progress.update(12, label="ldpc-hard")
    assert stream.getvalue().splitlines()[-1] == "curve point 12/12 done (ldpc-hard), 2 min elapsed"
    # With a timing run's estimate, the first units lean on it.
    estimated = ecc.LabProgress("row", stream=io.StringIO(), clock=lambda: 0.0)
    estimated.start(10, expected_seconds=600)
    assert estimated.remaining(0) == 600 and estimated.remaining(1) == pytest.approx(0.9 * 600)
    assert [ecc.format_duration(s) for s in (0.4, 89, 91, 5400, 3 * 3600 + 600)] == ["0 s", "89 s", "2 min", "1 h 30 min", "3 h 10 min"]


def test_decoding_table_in_a_log_gives_each_table_a_phase(cli, tmp_path: Path):
    snippet = tmp_path / "wear.toml"
    done = cli("ecc", "decoding-table", "--pe", "12000", "--pe", "2000", "--frames", "8", "--out", str(snippet))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == "ecc decoding-table: 2 tables (P/E 2000, 12000), 8 frames per case", lines
    # The native table reports its cases (4 rows x 7 sensing precisions each): a line as each table ends.
    assert re.fullmatch(r"decoding case 28/56 done \(table 1/2, 2000 P/E\), \d+ s elapsed, ~\d+ s left", lines[1]), lines
    assert re.fullmatch(r"decoding case 56/56 done \(table 2/2, 12000 P/E\), \d+ s elapsed", lines[-1]), lines
    assert tomllib.loads(snippet.read_text())["read_path"]["decoding"]["pe_cycles"] == [2000, 12000]
    quiet = cli("ecc", "decoding-table", "--pe", "12000", "--frames", "8", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""
    # The printed TOML block on stdout is untouched by the progress on stderr.
    assert tomllib.loads(quiet.stdout[quiet.stdout.index("[read_path.decoding]") :])["read_path"]["decoding"]


def test_decoding_table_is_estimated_from_a_timing_run_and_counts_its_cases(monkeypatch):
    monkeypatch.setattr(ecc, "DECODING_TIMING_THRESHOLD_FRAMES", 0)
    stream = io.StringIO()
    with ecc.LabProgress("decoding case", stream=stream, every_seconds=0.0) as progress:
        result = ecc.decoding_tables_with_progress([12000.0], progress, frames_per_case=8, retention_hours=720.0)
    lines = stream.getvalue().splitlines()
    assert re.fullmatch(r"ecc decoding-table: 1 table \(P/E 12000\), 8 frames per case, about \d+ s \(timed now\)", lines[0]), lines
    # With a line at every update: one per case, the total known from the first.
    assert [line.split(" done")[0] for line in lines[1:]] == [f"decoding case {done}/28" for done in range(0, 29)], lines
    assert len(result["tables"]) == 1


def test_decoder_tables_in_a_log_give_the_total_then_a_line_per_decoder(cli, tmp_path: Path):
    grid = ["--decoder", "bch", "--decoder", "ep-ldpc", "--pe", "0", "--pe", "16000", "--retention-hours", "24"]
    done = cli("ecc", "decoder-tables", *grid, "--frames", "16", "--target-failures", "4", "--json", str(tmp_path / "t.json"))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    rows = len(json.loads((tmp_path / "t.json").read_text())["tables"][0]["failure_probabilities"]) * 2 * 2
    assert lines[0].startswith(f"ecc decoder-tables: {rows} rows (2 decoders x chips x P/E)"), lines
    assert re.fullmatch(rf"table row 1/{rows} done \(bch\), \d+ s elapsed, ~\d+ s left", lines[1]), lines
    assert re.fullmatch(rf"table row {rows // 2}/{rows} done \(bch\), \d+ s elapsed, ~\d+ s left", lines[2]), lines
    assert re.fullmatch(rf"table row {rows}/{rows} done \(ep-ldpc\), \d+ s elapsed", lines[-1]), lines
    quiet = cli("ecc", "decoder-tables", *grid, "--frames", "16", "--target-failures", "4", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""
