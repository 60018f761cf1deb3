"""Identical results through refactors: each case below (every shipped preset, small, and a few
combinations that turn on the optional parts: oracle, observers, events, GC modes, traces) must give
the same JSON result as when the digests were recorded, apart from fields that measure the host
(wall and CPU time, memory) and keys renamed since (mapped back by ``RENAMED``).

Recorded at c5fa792 (before issue 32's data-path refactor); re-recorded for result_version 2 (optional
parts absent instead of null or zeros, docs/results.md "Changes between versions") after checking
that each case's result equals the c5fa792 one with exactly those changes applied. After a deliberate
change of results, rerun ``python tests/test_result_digests.py --write`` and say why in the commit
message. Re-recorded at 148bd6c (issue 47) with the DRAM data cache's and the mapping-table cache's
sections in (an over-broad filter had dropped every key naming a cache), by the build before issue 47's
data-path changes; the build after gives the same digests.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ssdlab import api
from ssdlab.locations import shared_trace

DIGESTS = Path(__file__).with_name("result_digests.json")
SMALL = "workload.synthetic.requests=3000"

# (case name, preset, overrides, shared trace sample or None)
CASES: list[tuple[str, str, list[str], str | None]] = [
    *[
        (name, name, [SMALL, *(["device.mapping_cache.enabled=false"] if name == "mqsim-default" else [])], None)
        for name in (
            "default",
            "mqsim-default",
            "bench-gc-steady",
            "mlc-tlc-demo",
            "seed000-aoa",
            "seed001-all-sscm",
            "seed001-hybrid-scm",
            "seed002-ldpc",
            "seed003-scrambler",
            "seed004-tlc-mlc",
        )
    ],
    (
        "default-observers",
        "default",
        [SMALL, "verification.integrity_oracle=true", "output.time_series_interval_ms=5.0", "output.write_heat=true"],
        None,
    ),
    # mqsim-default ships MQSim's mapping-table cache (issue 37): the case above keeps its digest from
    # before with the cache off (off = the ideal mapping, unchanged); this one is the preset as shipped.
    ("mqsim-default-cmt", "mqsim-default", [SMALL], None),
    ("default-foreground", "default", [SMALL, 'ftl.garbage_collection.mode="foreground"'], None),
    ("default-preemptible", "default", [SMALL, 'ftl.garbage_collection.mode="preemptible"'], None),
    ("default-background", "default", [SMALL, 'ftl.garbage_collection.mode="background"'], None),
    (
        "mlc-tlc-oracle",
        "mlc-tlc-demo",
        ["workload.synthetic.requests=20000", "verification.integrity_oracle=true", "output.time_series_interval_ms=50.0"],
        None,
    ),
    ("hybrid-scm-oracle", "seed001-hybrid-scm", [SMALL, "verification.integrity_oracle=true"], None),
    ("scrambler-oracle", "seed003-scrambler", [SMALL, "verification.integrity_oracle=true"], None),
    ("ldpc-oracle", "seed002-ldpc", [SMALL, "verification.integrity_oracle=true"], None),
    ("hm0-trace", "default", ["verification.integrity_oracle=true"], "msr-hm_0.sample.csv.gz"),
    ("financial1-hybrid", "seed001-hybrid-scm", [], "umass-financial1.ssdsim-ascii.first10k.txt.gz"),
    (
        "tpcc-tlc-mlc",
        "seed004-tlc-mlc",
        ["host.loops=2", "host.tiles=4", "host.compact_addresses=true", "output.write_heat=true"],
        "mqsim-tpcc-small.trace.gz",
    ),
]

# Fields that measure the machine, not the model.
# Host-measured fields, and whether a parsed-trace cache was there to reuse (the machine's state).
# `model_memory_bytes` is identical between runs of one build (crates/ssdlab-ssd/tests/behaviour.rs runs
# every synthetic preset twice and compares it, issue 48 item 17), but it follows the build's data
# layout, which the recorded digests should not pin.
VOLATILE = {
    "wall_seconds",
    "replay_cpu_seconds",
    "requests_per_wall_second",
    "requests_per_cpu_second",
    "model_memory_bytes",
    "trace_cache_reused",
    # CPU time by phase (issue 50).
    "phases",
}
# Keys renamed since the digests were recorded: new dotted path -> recorded dotted path.
RENAMED: dict[str, str] = {}
# Top-level keys added since (a new key changes no recorded value).
ADDED = {"result_version"}
# Keys added since at any depth (issue 45: GC invocations that ended short of their watermark, in
# `gc` and each tier's `gc`; soft results at the measured rate; read requests with a hard failure).
ADDED_ANYWHERE = {
    "invocations_short",
    "invocations_stuck",
    "soft_result_pages",
    "sampled_requests",
    "requests_with_hard_failures",
    "look_ahead_skipped_busy",
    # Issue 46 item 7: RR-FDCA pairs' extra victims.
    "accumulation_extra_victims",
    "screening_read_pages",
    # Issue 46 item 8: each event's drain mode, its steps' count and median, its chip's pages left.
    "drain",
    "steps",
    "median_step_ns",
    "valid_pages_at_end",
}


def canonical(result: dict[str, Any]) -> dict[str, Any]:
    """The result with volatile fields dropped and renamed keys mapped back."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: strip(item) for key, item in value.items() if key not in VOLATILE and key not in ADDED_ANYWHERE}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    result = {key: value for key, value in strip(result).items() if key not in ADDED}
    # A trace's folder depends on where the checkout sits (CI puts ../shared elsewhere); its name does not.
    workload = result.get("workload", {})
    if workload.get("kind") == "trace" and isinstance(workload.get("source"), str):
        workload["source"] = Path(workload["source"]).name
    for new, old in RENAMED.items():
        *parents, leaf = new.split(".")
        node = result
        for part in parents:
            node = node.get(part, {})
        if leaf in node:
            value = node.pop(leaf)
            *old_parents, old_leaf = old.split(".")
            target = result
            for part in old_parents:
                target = target.setdefault(part, {})
            target[old_leaf] = value
    return result


def digest(result: dict[str, Any]) -> str:
    text = json.dumps(canonical(result), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def run_case(preset: str, overrides: list[str], trace_name: str | None) -> dict[str, Any] | None:
    trace = None
    if trace_name is not None:
        trace = shared_trace(trace_name)
        if trace is None:
            return None
    return api.run(preset, overrides=overrides, trace=trace).to_dict()


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_result_is_identical_to_recorded(case):
    name, preset, overrides, trace_name = case
    recorded = json.loads(DIGESTS.read_text())
    result = run_case(preset, overrides, trace_name)
    if result is None:
        pytest.skip(f"shared trace sample {trace_name} not found beside the repository (../shared/traces)")
    assert name in recorded, f"no digest recorded for {name}; run python tests/test_result_digests.py --write"
    assert digest(result) == recorded[name], f"{name}: the result differs from the one recorded"


if __name__ == "__main__":
    # --write: record every case's digest; --dump DIR: write each canonical result for diffing.
    digests = {}
    dump = Path(sys.argv[sys.argv.index("--dump") + 1]) if "--dump" in sys.argv else None
    for name, preset, overrides, trace_name in CASES:
        result = run_case(preset, overrides, trace_name)
        if result is None:
            sys.exit(f"{name}: shared trace sample {trace_name} is missing; record digests with ../shared present")
        digests[name] = digest(result)
        if dump is not None:
            dump.mkdir(parents=True, exist_ok=True)
            (dump / f"{name}.json").write_text(json.dumps(canonical(result), sort_keys=True, indent=1))
        print(name, digests[name][:16], flush=True)
    if "--write" in sys.argv:
        DIGESTS.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
