"""Outputs never clobber what they should not (issue 33): a FIFO is written through, a symbolic link
is followed, an output naming an input or another output is refused before any work. Special files
are made in a temporary folder: never a real device node (as root, the old code replaced one)."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from ssdlab import api, outputs

SMALL = ["--set", "workload.synthetic.requests=3000", "--quiet"]


def _trace(path: Path, requests: int = 2000) -> Path:
    lines = ["time_us,op,offset,size"] + [f"{i * 20},{'W' if i % 3 else 'R'},{(i * 7919 % 4096) * 4096},4096" for i in range(requests)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _said(done) -> str:
    """The error output with the console's line wrapping undone."""
    return " ".join(done.stderr.split())


def _read_fifo_in_background(fifo: Path) -> tuple[threading.Thread, list[str]]:
    received: list[str] = []

    def read() -> None:
        with open(fifo, encoding="utf-8") as reader:
            received.append(reader.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread, received


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_json_into_a_fifo_is_written_through_and_the_fifo_stays(cli, tmp_path: Path):
    fifo = tmp_path / "result.fifo"
    os.mkfifo(fifo)
    thread, received = _read_fifo_in_background(fifo)
    done = cli("run", "default", *SMALL, "--json", str(fifo))
    if done.returncode != 0:
        # Unblock the reader before failing.
        with open(fifo, "w"):
            pass
    thread.join(timeout=30)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced by a regular file"
    assert json.loads(received[0])["requests"] == 3000


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_request_log_into_a_fifo_is_written_through(cli, tmp_path: Path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    thread, received = _read_fifo_in_background(fifo)
    done = cli("run", "default", *SMALL, "--request-log", str(fifo))
    if done.returncode != 0:
        with open(fifo, "w"):
            pass
    thread.join(timeout=30)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    lines = received[0].splitlines()
    assert lines[0].startswith("request,op,") and len(lines) == 3001
    # Parquet needs a regular file: refused before the run, the FIFO untouched (no reader is waiting).
    parquet_fifo = tmp_path / "log.parquet"
    os.mkfifo(parquet_fifo)
    refused = cli("run", "default", *SMALL, "--request-log", str(parquet_fifo))
    assert refused.returncode == 2 and "Parquet output needs a regular file" in _said(refused), refused.stderr
    assert stat.S_ISFIFO(os.lstat(parquet_fifo).st_mode)


def test_outputs_through_a_symbolic_link_replace_its_target_and_keep_the_link(cli, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "result.json").write_text("old")
    (elsewhere / "log.csv").write_text("old")
    json_link, log_link = tmp_path / "result.json", tmp_path / "log.csv"
    json_link.symlink_to(elsewhere / "result.json")
    log_link.symlink_to(elsewhere / "log.csv")
    done = cli("run", "default", *SMALL, "--json", str(json_link), "--request-log", str(log_link))
    assert done.returncode == 0, done.stderr
    assert json_link.is_symlink() and log_link.is_symlink()
    result = json.loads((elsewhere / "result.json").read_text())
    assert result["requests"] == 3000
    assert len((elsewhere / "log.csv").read_text().splitlines()) == 3001
    # No temporary file is left in either folder.
    assert sorted(p.name for p in elsewhere.iterdir()) == ["log.csv", "result.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "log.csv", "result.json"]


def test_an_output_naming_an_input_or_another_output_is_refused(cli, tmp_path: Path):
    trace = _trace(tmp_path / "t.csv")
    original = trace.read_bytes()
    for args, says in [
        (["--trace", str(trace), "--json", str(trace)], "is the input --trace"),
        (["--trace", str(trace), "--request-log", str(trace)], "is the input --trace"),
        (
            ["--trace", str(trace), "--json", str(tmp_path / "x.json"), "--request-log", str(tmp_path / "x.json")],
            "is also the output --json",
        ),
    ]:
        done = cli("run", "default", *args, "--quiet")
        assert done.returncode == 2, (args, done.stderr)
        assert says in _said(done), done.stderr
    # A link to the trace is the trace.
    link = tmp_path / "link.json"
    link.symlink_to(trace)
    done = cli("run", "default", "--trace", str(trace), "--json", str(link), "--quiet")
    assert done.returncode == 2 and "is the input --trace" in _said(done), done.stderr
    assert trace.read_bytes() == original
    # The config file, and the trace a config names.
    config = tmp_path / "c.toml"
    config.write_text(api.load_config("default", trace=trace))
    done = cli("run", str(config), "--json", str(config), "--quiet")
    assert done.returncode == 2 and "is the input the config" in _said(done), done.stderr
    done = cli("run", str(config), "--json", str(trace), "--quiet")
    assert done.returncode == 2 and "is the input workload.trace.path" in _said(done), done.stderr
    assert trace.read_bytes() == original
    # trace stats and trace convert refuse to write over the trace they read.
    assert cli("trace", "stats", str(trace), "--json", str(trace)).returncode == 2
    assert cli("trace", "convert", str(trace), str(trace)).returncode == 2
    assert trace.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml", "link.json", "t.csv"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_write_text_goes_through_a_fifo_and_a_link(tmp_path: Path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    thread, received = _read_fifo_in_background(fifo)
    outputs.write_text(fifo, "through\n")
    thread.join(timeout=10)
    assert received == ["through\n"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    (tmp_path / "real").write_text("old")
    (tmp_path / "link").symlink_to("real")
    outputs.write_text(tmp_path / "link", "new")
    assert (tmp_path / "link").is_symlink() and (tmp_path / "real").read_text() == "new"
    assert outputs.kind(fifo) == "fifo" and outputs.kind(tmp_path / "link") == "regular" and outputs.kind(tmp_path / "no") == "missing"
    with pytest.raises(outputs.OutputRefused, match="is a folder"):
        outputs.check({"--json": tmp_path})
    with pytest.raises(outputs.OutputRefused, match="is also the output --json"):
        outputs.check({"--json": tmp_path / "real", "--request-log": tmp_path / "link"})
