"""The request log's latency breakdown (issue 49 item 5): per request, the host queue and the device
time split along the critical path add up to the latency, and the means reach the result."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ssdlab import api

PARTS = ("host_queue_ns", "before_flash_ns", "die_wait_ns", "array_ns", "channel_wait_ns", "channel_ns", "dram_ns", "controller_ns")


def rows_of(path: Path) -> list[dict[str, str]]:
    with path.open() as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize(
    "overrides",
    [
        # MQSim's drive with its data cache and mapping-table cache (preconditioned: reads find data
        # in flash): DRAM, gates and flash on the path.
        ["workload.synthetic.requests=3000"],
        # Queued dies with suspension: die waits and suspended programs.
        [
            "workload.synthetic.requests=3000",
            "ftl.precondition.enabled=false",
            "device.data_cache.enabled=false",
            'scheduler.policy="out_of_order"',
            'scheduler.suspension.operations="program_and_erase"',
        ],
    ],
    ids=["caches", "queued-suspension"],
)
def test_the_parts_add_up_to_each_latency(tmp_path: Path, overrides: list[str]):
    log = tmp_path / "log.csv"
    result = api.run("mqsim-default", overrides=[*overrides, f'output.request_log_path="{log.as_posix()}"']).to_dict()
    rows = rows_of(log)
    assert len(rows) == 3000
    for row in rows:
        parts = [int(row[name]) for name in PARTS]
        assert sum(parts) == int(row["latency_ns"]), row
    # Flash work is on the path of most requests, and the means are those of the columns.
    assert sum(int(row["array_ns"]) > 0 for row in rows) > 1000
    means = result["request_log"]["mean_breakdown_us"]
    for name in PARTS:
        expected = sum(int(row[name]) for row in rows) / len(rows) / 1000
        assert means[name.replace("_ns", "_us")] == pytest.approx(expected)
