"""Seed 001's devices from the command line: the README's SCM examples do what they say, and the
summary shows the SCM within 80 columns."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _readme_run(prefix: str, out: Path, *extra: str) -> tuple[dict, str]:
    readme = (REPO / "README.md").read_text()
    line = next(line for line in readme.splitlines() if line.startswith(prefix))
    arguments = shlex.split(line.split("#")[0])[1:]
    done = subprocess.run(
        [sys.executable, "-m", "ssdlab", *arguments, *extra, "--json", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), done.stdout


def test_readme_hybrid_example_sends_hot_and_fragmented_writes_to_scm(tmp_path: Path):
    result, stdout = _readme_run("ssdlab run seed001-hybrid-scm", tmp_path / "hybrid.json", "--set", "verification.integrity_oracle=true")
    placed = result["scm"]["placement"]
    assert placed["hot_pieces"] > 0 and placed["fragmented_pieces"] > 0 and placed["pieces_to_nand"] > 0
    assert result["scm"]["role"] == "hybrid" and result["placement"] == "hybrid_scm"
    assert result["integrity"]["mismatches"] == 0
    lines = stdout.splitlines()
    assert all(len(text) <= 80 for text in lines), max(lines, key=len)
    text = " ".join(stdout.split())
    assert "SCM (m-scm, hybrid" in text and "sectors at the end returned the latest write" in text, text


def test_readme_all_sscm_example_runs_slower_sscm(tmp_path: Path):
    slow, _ = _readme_run("ssdlab run seed001-all-sscm", tmp_path / "slow.json")
    done = subprocess.run(
        [sys.executable, "-m", "ssdlab", "run", "seed001-all-sscm", "--json", str(tmp_path / "base.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    base = json.loads((tmp_path / "base.json").read_text())
    assert slow["scm"]["role"] == "only" and slow["flash"]["page_programs"] == 0
    assert slow["write"]["latency_us"]["mean"] > 3 * base["write"]["latency_us"]["mean"]
