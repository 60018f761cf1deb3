"""Property test of the no-data-lost promise across random small devices, policies and workloads.

Each example runs a whole simulation with the integrity oracle on: every read must return the latest
write through GC, preconditioning, aging and loops, and every request must complete.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ssdlab

policies = st.sampled_from(["greedy", "round_robin", "cost_benefit"])
wear = st.sampled_from(["round_robin", "least_worn"])
middleware = st.sampled_from(["none", "permutation"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    policy=policies,
    wear_leveling=wear,
    remap=middleware,
    read_fraction=st.floats(0.0, 0.9),
    free_fraction=st.floats(0.15, 0.5),
    skew=st.sampled_from(["uniform", "zipf"]),
    mode=st.sampled_from(["open_loop", "closed_loop"]),
    aged=st.integers(0, 2000),
    seed=st.integers(0, 2**32),
)
def test_every_read_returns_latest_write(policy, wear_leveling, remap, read_fraction, free_fraction, skew, mode, aged, seed):
    address = '{ distribution = "zipf", exponent = 0.9 }' if skew == "zipf" else '{ distribution = "uniform" }'
    result = ssdlab.run(
        "bench-gc-steady",
        overrides=[
            f"seed={seed}",
            "device.geometry.channels=2",
            "device.geometry.chips_per_channel=1",
            "device.geometry.blocks_per_plane=48",
            "device.geometry.pages_per_block=16",
            f"ftl.overprovisioning_fraction={free_fraction}",
            f'ftl.garbage_collection.policy="{policy}"',
            f'ftl.wear_leveling.policy="{wear_leveling}"',
            f'middleware.kind="{remap}"',
            f"ftl.aging.pe_cycles={aged}",
            f'host.mode="{mode}"',
            "host.queue_depth=4",
            "workload.synthetic.requests=3000",
            f"workload.synthetic.read_fraction={read_fraction}",
            f"workload.synthetic.span_bytes={int(4 * 48 * 16 * (1 - free_fraction)) * 4096}",
            f"workload.synthetic.address={address}",
            'workload.synthetic.size={ distribution = "uniform", min_bytes = 4096, max_bytes = 16384 }',
            "verification.integrity_oracle=true",
        ],
    )
    assert result.requests_completed == result.requests == 3000
    assert result.integrity.mismatches == 0
    assert result.integrity.pages_checked_at_end > 0
    assert result.gc.blocks_erased + result.precondition.blocks_erased > 0, "the example should exercise GC"
