"""Two I/O flows from Python (issue 37, docs/flows.md): the interference experiment writes its table
and figure and shows the reader's tail rising with the writer's load; flow config errors reach
Python as ConfigurationError naming the field."""

from __future__ import annotations

import json

import polars as pl
import pytest

import ssdlab
from ssdlab import flows_interference


def test_the_reader_suffers_more_as_the_writer_writes_more(tmp_path):
    rows = flows_interference.run_experiment(
        tmp_path, writer_interarrival_us=(800.0, 100.0), arbitrations=("round_robin",), device_queue_depths=(65535,)
    )
    light, heavy = rows
    assert heavy["reader_p99_us"] > 2 * light["reader_p99_us"]
    assert heavy["reader_slowdown"] > light["reader_slowdown"] > 1.0
    assert 0.0 < heavy["fairness"] < light["fairness"] <= 1.0
    assert light["reader_requests"] == flows_interference.READER_REQUESTS
    table = pl.read_parquet(tmp_path / "flows-interference.parquet")
    assert table.height == 2 and "writer_slowdown" in table.columns
    assert json.loads((tmp_path / "flows-interference.json").read_text())[1]["writer_interarrival_us"] == 100.0
    assert (tmp_path / "flows-interference.png").stat().st_size > 0


def test_the_two_flows_preset_has_a_section_per_flow():
    result = ssdlab.run("two-flows", overrides=["workload.synthetic.requests=2000", "host.queues.measure_alone=false"]).to_dict()
    flows = result["flows"]
    assert [flow["name"] for flow in flows["per_flow"]] == ["reader", "writer"]
    assert flows["arbitration"] == "weighted_round_robin" and "fairness" not in flows
    assert sum(flow["requests"] for flow in flows["per_flow"]) == result["requests"]


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ("host.queues.weight_low=0", "host.queues.weight_low"),
        ("host.loops=2", "host.loops"),
        ('host.queues.arbitration="fifo"', "arbitration"),
    ],
)
def test_bad_flow_settings_name_the_field(override, field):
    with pytest.raises(ssdlab.ConfigurationError, match=field.replace(".", r"\.")):
        ssdlab.run("two-flows", overrides=[override])
