"""Heterogeneous devices from the command line: the README's two-tier example does what it says
(MLC garbage collection migrates to TLC, a retired chip empties), its summary shows each tier and
the event within 80 columns, and tier settings are columns a sweep can vary."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_readme_tier_example_migrates_and_retires_a_chip(tmp_path: Path):
    readme = (REPO / "README.md").read_text()
    line = next(line for line in readme.splitlines() if line.startswith("ssdlab run mlc-tlc-demo"))
    arguments = shlex.split(line.split("#")[0])[1:]
    out = tmp_path / "tiers.json"
    done = subprocess.run(
        [sys.executable, "-m", "ssdlab", *arguments, "--json", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    mlc, tlc = result["tiers"]["mlc"], result["tiers"]["tlc"]
    assert mlc["pages_migrated_out"] > 0 and mlc["pages_migrated_out"] == tlc["pages_migrated_in"]
    assert tlc["host_pages_written"] == 0
    (event,) = result["events"]
    assert event["action"] == "retire_chip" and event["fired_at_ns"] == 20_000_000_000
    assert event["emptied_at_ns"] is not None and event["emptied_at_ns"] > event["fired_at_ns"]
    assert result["integrity"]["enabled"] and result["integrity"]["mismatches"] == 0
    lines = done.stdout.splitlines()
    assert all(len(text) <= 80 for text in lines), max(lines, key=len)
    assert any(text.strip().startswith("mlc (mlc):") for text in lines) and any(text.strip().startswith("tlc (tlc):") for text in lines)
    event_line = next(index for index, text in enumerate(lines) if text.startswith("event retire_chip chip 1 at 20.000 s"))
    assert lines[event_line + 1].strip().startswith("empty at"), done.stdout
    # The drain's steps: one block each, typical and longest (issue 46 item 8).
    assert lines[event_line + 2].strip().startswith(f"drain background: {event['steps']:,} blocks"), done.stdout
    assert "dead time" in done.stdout and "longest host-visible stall" in done.stdout


def test_tier_fields_are_settable_and_errors_name_them(cli):
    done = cli("config", "mlc-tlc-demo", "--set", "device.tiers.tlc.chips=6", "--set", "device.tiers.mlc.chips=2")
    assert done.returncode == 0, done.stderr
    assert "chips = 6" in done.stdout
    done = cli("run", "mlc-tlc-demo", "--set", "device.tiers.tlc.chips=6")
    assert done.returncode == 2
    assert "device.chip_budget" in done.stderr and "mlc 4 + tlc 6" in done.stderr, done.stderr


def test_overwritten_block_is_settable_with_the_new_data_sent_to_the_write_tier_only(cli):
    done = cli("config", "seed004-tlc-mlc", "--set", 'device.tiers.tlc.overwritten_block="page_invalidated"')
    assert done.returncode == 0, done.stderr
    assert 'overwritten_block = "page_invalidated"' in done.stdout
    done = cli(
        "config",
        "seed004-tlc-mlc",
        "--set",
        'device.tiers.tlc.overwrite_target="rewritten_block"',
        "--set",
        'device.tiers.tlc.overwritten_block="page_invalidated"',
    )
    assert done.returncode == 2
    assert "device.tiers.tlc.overwritten_block" in done.stderr and "write_tier" in done.stderr, done.stderr


def test_suspend_and_copy_summary_fits_80_columns(tmp_path: Path):
    args = [
        "run",
        "mlc-tlc-demo",
        "--set",
        "workload.synthetic.requests=20000",
        "--set",
        'events=[{at_ns=5000000000, action="suspend_and_copy", chip=2}]',
    ]
    done = subprocess.run(
        [sys.executable, "-m", "ssdlab", *args], capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"}, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(text) <= 80 for text in lines), max(lines, key=len)
    assert any("host suspended" in text for text in lines) and any(text.startswith("longest host-visible stall") for text in lines)
