"""Messages point at the right thing (issue 33): each bad input names the field or option that is
wrong, and an option given twice over is not dropped silently."""

from __future__ import annotations

import json
from pathlib import Path


def _said(done) -> str:
    """The error output with the console's line wrapping undone."""
    return " ".join(done.stderr.split())


def _two_device_trace(path: Path) -> Path:
    # Columns: time (s), op, offset, size (bytes), device. Both devices use the same small offsets.
    lines = [f"{i * 0.001:.3f},{'W' if i % 2 else 'R'},{(i % 64) * 4096},4096,{i % 2}" for i in range(600)]
    path.write_text("\n".join(lines) + "\n")
    return path


COLUMNS = ["--columns", "time=0,op=1,offset=2,size=3"]


def test_a_zero_size_unit_is_reported_against_the_size_unit(cli, tmp_path: Path):
    trace = _two_device_trace(tmp_path / "t.csv")
    done = cli("run", "default", "--trace", str(trace), *COLUMNS, "--size-unit-bytes", "0", "--quiet")
    assert done.returncode == 2 and "size_unit_bytes" in _said(done) and "offset_unit_bytes" not in _said(done), done.stderr


def test_an_integer_beyond_the_settings_range_says_so(cli):
    done = cli("run", "default", "--set", "workload.synthetic.requests=99999999999999999999", "--quiet")
    assert done.returncode == 2, done.stderr
    assert "beyond the integers a setting can hold" in _said(done) and "invalid type" not in _said(done), done.stderr


def test_an_unusable_cache_folder_names_itself_as_the_cache_folder(cli, tmp_path: Path):
    trace = _two_device_trace(tmp_path / "t.csv")
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x")
    for cache, says in [(a_file, "it is a file, not a folder"), (a_file / "below", "is a file, not a folder")]:
        done = cli("run", "default", "--trace", str(trace), *COLUMNS, "--trace-cache", str(cache), "--quiet")
        assert done.returncode == 2, done.stderr
        assert "cannot keep the parsed-trace cache here" in _said(done) and says in _said(done), done.stderr
        assert "File exists" not in _said(done) and "No such file" not in _said(done), done.stderr


def test_set_refines_the_column_map_of_columns(cli, tmp_path: Path):
    """``--set workload.trace.columns.device`` with ``--columns``: applied, not dropped."""
    trace = _two_device_trace(tmp_path / "t.csv")
    results = {}
    for name, extra in [("one device", []), ("two devices", ["--set", "workload.trace.columns.device=4"])]:
        out = tmp_path / f"{name}.json"
        done = cli("run", "default", "--trace", str(trace), *COLUMNS, *extra, "--json", str(out), "--quiet")
        assert done.returncode == 0, done.stderr
        results[name] = json.loads(out.read_text())["workload"]
    # Two devices are laid out one after the other (each from a 1 GiB boundary): a larger space.
    assert results["one device"]["address_space_bytes"] == 64 * 4096
    assert results["two devices"]["address_space_bytes"] > 1 << 30
