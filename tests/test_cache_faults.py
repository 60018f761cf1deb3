"""Fault injection on the parsed-trace cache end to end (issue 33): flipped bytes, a truncated file and
another trace's files copied over this one's are found, rebuilt or ignored, and the run's result is
the one without a cache; never a different result with ``trace_cache_reused: true``, never an error
blamed on a line of an intact trace."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import trace_or_skip

RESULT_KEYS = ("read", "write", "all", "gc", "requests", "write_amplification", "flash", "precondition")


def _run(cli, out: Path, trace: Path, *extra: str) -> dict:
    done = cli("run", "default", "--trace", str(trace), *extra, "--json", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


def _same_simulation(first: dict, second: dict) -> bool:
    for result in (first, second):
        result["precondition"].pop("wall_seconds", None)
    return all(first[key] == second[key] for key in RESULT_KEYS)


def test_damaged_and_swapped_cache_files_are_rebuilt_with_the_same_result(cli, tmp_path: Path):
    trace = trace_or_skip("msr-hm_0.sample.csv.gz")
    other = trace_or_skip("msr-hm_1.sample.csv.gz")
    cache = tmp_path / "cache"
    baseline = _run(cli, tmp_path / "plain.json", trace)
    count = iter(range(100))

    def cached_run(path: Path = trace) -> dict:
        return _run(cli, tmp_path / f"{next(count)}.json", path, "--trace-cache", str(cache))

    assert not cached_run()["workload"]["trace_cache_reused"]
    assert cached_run()["workload"]["trace_cache_reused"]
    (records,) = cache.glob("*.records")
    pristine = records.read_bytes()

    def damage_then_check(what: str, damaged: bytes) -> None:
        records.write_bytes(damaged)
        rebuilt = cached_run()
        assert not rebuilt["workload"]["trace_cache_reused"], f"{what}: the damaged cache was used"
        assert _same_simulation(rebuilt, dict(baseline)), f"{what}: another result after the rebuild"
        assert records.read_bytes() == pristine, what
        assert cached_run()["workload"]["trace_cache_reused"], what

    # One byte in the middle (the case: a 4096-byte request read as 0 bytes), sixteen bytes
    # (the error blamed on an intact trace line), and a cut file.
    middle = bytearray(pristine)
    middle[len(pristine) // 2] ^= 0x10
    damage_then_check("one byte flipped", bytes(middle))
    sixteen = bytearray(pristine)
    for i in range(16):
        sixteen[1000 + 40 * i + 9] ^= 0xFF
    damage_then_check("sixteen bytes flipped", bytes(sixteen))
    damage_then_check("truncated", pristine[: len(pristine) // 3])

    # Another trace's footprint copied over this one's (the case: 14,870 pages written
    # became 8,134): collected again from the records, the result unchanged.
    cached_run(other)
    (own_footprint,) = cache.glob(f"{records.name}.footprint-*")
    (other_footprint,) = [path for path in cache.glob("*.footprint-*") if path != own_footprint]
    shutil.copyfile(other_footprint, own_footprint)
    swapped = cached_run()
    assert swapped["workload"]["trace_cache_reused"]
    assert swapped["precondition"]["pages_written"] == baseline["precondition"]["pages_written"]
    assert _same_simulation(swapped, dict(baseline))
