"""The run summary's warnings on hand-made results (no simulation)."""

from __future__ import annotations

from ssdlab.summary import collapse_warning


def _result(amplification: float, erase_max: int, invocations: int, short: int, stuck: int = 0) -> dict:
    return {
        "write_amplification": amplification,
        "erase_count": {"min": 0, "mean": 1.0, "max": erase_max, "endurance_pe_cycles": 3000},
        "gc": {"invocations": invocations, "invocations_short": short, "invocations_stuck": stuck},
    }


def test_a_healthy_drive_gets_no_warning():
    assert collapse_warning(_result(3.2, 40, 100, 10)) is None
    assert collapse_warning({"write_amplification": 0.0}) is None


def test_a_collapsed_drive_is_named_with_each_reason():
    text = collapse_warning(_result(794.4, 4532, 1000, 900, 850))
    assert text is not None and text.startswith("the drive collapsed: ")
    assert "write amplification 794.4 is above 20" in text
    assert "erased 4,532 times, past the rated 3,000" in text
    assert "900 of 1,000 GC invocations ended short of the high watermark (850 on stuck planes)" in text
    # Each reason alone is enough.
    assert collapse_warning(_result(20.5, 40, 100, 0)) is not None
    assert collapse_warning(_result(2.0, 3001, 100, 0)) is not None
    assert collapse_warning(_result(2.0, 40, 100, 51)) is not None


def test_reads_of_an_empty_drive_are_explained_not_left_at_zero(cli):
    """A read-only run on a drive never written (MQSim's shipped read scenario) reads no flash: the
    summary says why its reads took no time; a preconditioned run gets no such note."""
    base = ["run", "default", "--set", "workload.synthetic.requests=2000", "--set", "workload.synthetic.read_fraction=1.0"]
    empty = cli(*base, "--set", "ftl.precondition.enabled=false")
    assert empty.returncode == 0, empty.stderr
    assert "every read was of a page never written" in " ".join(empty.stdout.split())
    written = cli(*base)
    assert written.returncode == 0, written.stderr
    assert "never written" not in written.stdout
