"""Shared fixtures: running the CLI in a subprocess and finding the shared trace samples."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ssdlab.locations import shared_dir, shared_trace

SMALL = ["--set", "workload.synthetic.requests=5000"]


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m ssdlab ARGS`` and returns the completed process (never raises on exit code).

    COLUMNS is removed from the child's environment (pytest sets it to its own terminal's width), so
    output goes at the CLI's fixed width for redirected output and tests can look for whole phrases;
    ``env`` adds variables (a test's own COLUMNS)."""
    env = {**{key: value for key, value in os.environ.items() if key != "COLUMNS"}, **(env or {})}
    return subprocess.run([sys.executable, "-m", "ssdlab", *args], capture_output=True, text=True, cwd=cwd, env=env, check=False)


@pytest.fixture
def cli():
    return run_cli


def trace_or_skip(name: str) -> Path:
    path = shared_trace(name)
    if path is None:
        pytest.skip(f"shared trace sample {name} not found beside the repository (../shared/traces); set SSDLAB_SHARED_DIR")
    return path


def seed_text_or_skip(number: str) -> str:
    """Seed ``number``'s text ("000".."004") from ../shared/seeds with every run of whitespace made one
    space (the text copies break lines mid-sentence), or a skip saying where it was looked for."""
    where = shared_dir()
    seeds = sorted((where / "seeds").glob(f"{number}_*.txt")) if where else []
    if not seeds:
        pytest.skip(f"seed {number}'s text not found beside the repository (../shared/seeds); set SSDLAB_SHARED_DIR")
    return " ".join(seeds[0].read_text(encoding="utf-8").split())
