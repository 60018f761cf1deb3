"""Every key a run can emit is documented in docs/results.md (issue 32, item 5).

The cases below turn on every optional part of the result (observers, oracle, events, tiers, aged
drive, deletes above the FTL, middleware, SCM, each kind of read path, interleaving, trace cache), at
small sizes. Each result is flattened to dotted keys the way docs/results.md writes them: a tier's
name becomes ``<tier>`` (in ``tiers`` and ``write_heat.pages``), a list ``key[]`` and the keys of its
items ``key[].field``; a ``null`` counts as a key.

The rule, checked in both directions:

* every key a case emits must have a row in docs/results.md (the test fails listing the missing);
* every row whose *when present* column starts with "always" must be emitted by every case (a key
  counts as emitted when it or a key under it is), except the keys in ``PENDING``, which the native
  module does not emit yet;
* a conditional row that no case emitted is reported as a warning (the cases may not reach it, e.g.
  when the shared trace samples are absent), not a failure.

Trace cases skip themselves when the shared trace samples are absent; the others still run.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from ssdlab import api
from ssdlab.locations import shared_trace

DOC = Path(__file__).resolve().parents[1] / "docs" / "results.md"

# Maps whose keys are data (tier names), by dotted path: their keys become this placeholder.
DATA_KEYED = {"tiers": "<tier>", "write_heat.pages": "<tier>"}
# Documented "always" keys the native module does not emit yet (issue 32: the Rust side adds
# result_version). Remove a key from here once it is emitted.
PENDING: set[str] = set()

SMALL = "workload.synthetic.requests=1000"
NO_PRECONDITION = "ftl.precondition.enabled=false"
EVENTS = 'events=[{at_ns=100000000, action="retire_chip", chip=1}, {at_ns=200000000, action="suspend_and_copy", chip=2}]'

# (case name, preset, overrides, shared trace sample or None, use a trace cache)
CASES: list[tuple[str, str, list[str], str | None, bool]] = [
    (
        "default-observers",
        "default",
        [
            SMALL,
            NO_PRECONDITION,
            "verification.integrity_oracle=true",
            "output.time_series_interval_ms=5.0",
            "output.write_heat=true",
            'ftl.garbage_collection.mode="preemptible"',
            "workload.synthetic.delete_fraction=0.1",
            'host.delete_target="none"',
        ],
        None,
        False,
    ),
    ("mqsim-default", "mqsim-default", [SMALL, NO_PRECONDITION], None, False),
    ("two-flows-disjoint", "two-flows-disjoint", ["workload.synthetic.requests=2000", "host.queues.measure_alone=false"], None, False),
    (
        "mqsim-default-queued",
        "mqsim-default",
        [SMALL, NO_PRECONDITION, 'scheduler.policy="out_of_order"', 'scheduler.suspension.operations="program_and_erase"'],
        None,
        False,
    ),
    (
        "mlc-tlc-events",
        "mlc-tlc-demo",
        ["workload.synthetic.requests=2000", NO_PRECONDITION, EVENTS, "output.time_series_interval_ms=100.0"],
        None,
        False,
    ),
    (
        "tlc-mlc-aged",
        "seed004-tlc-mlc",
        [
            SMALL,
            "workload.synthetic.span_bytes=1048576",
            "ftl.precondition.fill_fraction=0.5",
            "ftl.precondition.live_fraction=0.8",
            "output.write_heat=true",
        ],
        None,
        False,
    ),
    ("aoa", "seed000-aoa", [SMALL], None, False),
    ("aoa-conventional", "seed000-aoa", [SMALL, 'read_path.strategy="conventional"'], None, False),
    (
        "ldpc-interleaved",
        "seed002-ldpc",
        [SMALL, NO_PRECONDITION, "read_path.look_ahead=true", "read_path.interleave_groups=[[0,1],[2,3]]"],
        None,
        False,
    ),
    ("hybrid-scm-oracle", "seed001-hybrid-scm", [SMALL, "verification.integrity_oracle=true"], None, False),
    (
        "data-cache-oracle",
        "default",
        [
            SMALL,
            NO_PRECONDITION,
            "verification.integrity_oracle=true",
            "device.data_cache={capacity_bytes=1048576, access_latency_ns=26, bandwidth_mb_per_s=400}",
            "workload.synthetic.delete_fraction=0.05",
            "output.time_series_interval_ms=5.0",
        ],
        None,
        False,
    ),
    (
        "mapping-cache-oracle",
        "default",
        [
            SMALL,
            "verification.integrity_oracle=true",
            "device.mapping_cache={capacity_entries=4096}",
            "device.data_cache={capacity_bytes=1048576, access_latency_ns=26, bandwidth_mb_per_s=400}",
        ],
        None,
        False,
    ),
    ("all-sscm", "seed001-all-sscm", [SMALL], None, False),
    ("two-flows", "two-flows", ["workload.synthetic.requests=1000"], None, False),
    (
        "scrambler-deletes",
        "seed003-scrambler",
        [
            "workload.synthetic.requests=3000",
            "workload.synthetic.delete_fraction=0.1",
            'host.delete_target="middleware"',
            'middleware.kind="lba_scrambler"',
        ],
        None,
        False,
    ),
    ("hm0-trace-cache", "default", ["verification.integrity_oracle=true"], "msr-hm_0.sample.csv.gz", True),
    (
        "tpcc-tlc-mlc",
        "seed004-tlc-mlc",
        ["host.loops=2", "host.tiles=4", "host.compact_addresses=true", "output.write_heat=true"],
        "mqsim-tpcc-small.trace.gz",
        False,
    ),
]


def flatten(value: Any, prefix: str = "", keys: set[str] | None = None) -> set[str]:
    """The dotted keys of a result, with the placeholders of docs/results.md."""
    keys = set() if keys is None else keys
    if isinstance(value, dict):
        if not value and prefix:
            keys.add(prefix)
        for key, item in value.items():
            name = DATA_KEYED.get(prefix, key)
            flatten(item, f"{prefix}.{name}" if prefix else name, keys)
    elif isinstance(value, list):
        keys.add(f"{prefix}[]")
        for item in value:
            if isinstance(item, (dict, list)):
                flatten(item, f"{prefix}[]", keys)
    else:
        keys.add(prefix)
    return keys


def null_keys(value: Any, prefix: str = "") -> set[str]:
    """The dotted keys (placeholders as in ``flatten``) whose value is ``null``."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            name = DATA_KEYED.get(prefix, key)
            found |= null_keys(item, f"{prefix}.{name}" if prefix else name)
    elif isinstance(value, list):
        for item in value:
            found |= null_keys(item, f"{prefix}[]")
    elif value is None:
        found.add(prefix)
    return found


def documented_rows() -> dict[str, list[str]]:
    """docs/results.md's table rows: key -> its cells (key, unit, meaning, when present)."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| `([^`]+)` \|", line)
        if match:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            assert match.group(1) not in rows, f"docs/results.md lists {match.group(1)} twice"
            rows[match.group(1)] = cells
    return rows


def documented() -> dict[str, str]:
    """docs/results.md's table rows: key -> its *when present* cell."""
    return {key: cells[-1] for key, cells in documented_rows().items()}


def emitted(key: str, keys: set[str]) -> bool:
    return key in keys or any(other.startswith((f"{key}.", f"{key}[")) for other in keys)


def test_flatten_uses_the_documented_placeholders():
    result = {"tiers": {"mlc": {"gc": {"invocations": 1}}}, "events": [], "read_path": None, "w": [{"a": 1}, {"b": [2]}]}
    assert flatten(result) == {"tiers.<tier>.gc.invocations", "events[]", "read_path", "w[]", "w[].a", "w[].b[]"}


def test_every_emitted_key_is_documented(tmp_path: Path):
    rows = documented()
    assert len(rows) > 250, "docs/results.md: key tables not found"
    seen: dict[str, set[str]] = {}
    nulls: dict[str, set[str]] = {}
    ran = []
    for name, preset, overrides, trace_name, cache in CASES:
        trace = None
        if trace_name is not None:
            trace = shared_trace(trace_name)
            if trace is None:
                print(f"{name}: skipped, shared trace sample {trace_name} not found (../shared/traces)")
                continue
        overrides = [*overrides, f'output.request_log_path="{(tmp_path / f"{name}.csv").as_posix()}"']
        result = api.run(preset, overrides=overrides, trace=trace, trace_cache=tmp_path / "cache" if cache else None)
        seen[name] = flatten(result.to_dict())
        nulls[name] = null_keys(result.to_dict())
        ran.append(name)
    assert ran, "no case ran"

    undocumented = sorted({key for keys in seen.values() for key in keys} - set(rows))
    missing_always = sorted(
        f"{key} (not emitted by {name})"
        for key, when in rows.items()
        if when.startswith("always") and key not in PENDING
        for name, keys in seen.items()
        if not emitted(key, keys)
    )
    never = sorted(
        key for key, when in rows.items() if not when.startswith("always") and not any(emitted(key, keys) for keys in seen.values())
    )
    if never:
        warnings.warn(f"documented keys no case emitted ({len(never)}): {', '.join(never)}", stacklevel=1)
    # An optional part is absent when off; null only where the unit column says "or null".
    units = {key: cells[1] for key, cells in documented_rows().items()}
    unexpected_nulls = sorted(f"{key} (in {name})" for name, keys in nulls.items() for key in keys if "or null" not in units.get(key, ""))
    problems = []
    if unexpected_nulls:
        problems.append(f"null where docs/results.md does not say 'or null' ({len(unexpected_nulls)}):\n  " + "\n  ".join(unexpected_nulls))
    if undocumented:
        problems.append(f"emitted but not in docs/results.md ({len(undocumented)}):\n  " + "\n  ".join(undocumented))
    if missing_always:
        problems.append(f"documented as always but not emitted ({len(missing_always)}):\n  " + "\n  ".join(missing_always))
    assert not problems, "\n".join(problems)


def test_a_plain_run_emits_no_optional_section():
    """With every optional feature off, a run emits only the keys documented as always present."""
    rows = documented()
    result = api.run("default", overrides=[SMALL, NO_PRECONDITION]).to_dict()
    optional = sorted(key for key in flatten(result) if key in rows and not rows[key].startswith("always"))
    assert not optional, f"optional keys in a plain run: {optional}"
    assert not null_keys(result), f"nulls in a plain run: {sorted(null_keys(result))}"


if __name__ == "__main__":
    pytest.main([__file__, "-q", "-s"])
