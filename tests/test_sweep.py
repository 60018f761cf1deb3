"""Sweeps: expansion and validation, local processes, resume, failure recording, Dask, and the
seed-003 reproduction end to end."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from conftest import trace_or_skip
from ssdlab import _native
from ssdlab.sweep import Sweep, SweepError, run_sweep

REPO = Path(__file__).resolve().parent.parent
TINY = [
    "workload.synthetic.requests=3000",
    "workload.synthetic.span_bytes=67108864",
    "ftl.precondition.enabled=false",
]


def tiny_sweep(**grid) -> Sweep:
    return Sweep.from_dict(
        {"name": "tiny", "base": "default", "set": TINY, "grid": grid or {"ftl.garbage_collection.policy": ["greedy", "round_robin"]}}
    )


def test_every_shipped_sweep_file_expands():
    files = sorted((REPO / "configs" / "sweeps").glob("*.toml"))
    assert files, "configs/sweeps must ship at least one example"
    for path in files:
        points = Sweep.from_file(path).points()
        assert len(points) >= 2
        assert len({p.config_hash for p in points}) == len(points)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"base": "default", "gird": {}}, "field `gird`: unknown"),
        ({"grid": {}}, "field `base`"),
        ({"base": "default", "grid": {"ftl.overprovisioning_fraction": []}}, "field `grid.ftl.overprovisioning_fraction`"),
        ({"base": "default", "cases": {"workload": {"a": "not a list"}}}, "field `cases.workload.a`"),
        ({"base": "default", "set": "host.loops=2"}, "field `set`"),
    ],
)
def test_malformed_sweeps_name_the_field(data, message):
    with pytest.raises(SweepError, match=message.replace("(", r"\(").replace(".", r"\.")):
        Sweep.from_dict(data, origin="s.toml").points()


def test_a_bad_override_fails_before_anything_runs():
    sweep = Sweep.from_dict({"base": "default", "grid": {"ftl.no_such_field": [1, 2]}}, origin="s.toml")
    with pytest.raises(_native.ConfigurationError, match="no_such_field"):
        sweep.points()


def test_local_sweep_stores_each_point_resumes_and_records_failures(tmp_path: Path):
    # The 2 GiB span point fails at run time (beyond the device's logical capacity): recorded, not raised.
    sweep = tiny_sweep(**{"workload.synthetic.span_bytes": [33554432, 67108864, 2147483648000]})
    seen = []
    outcome = run_sweep(sweep, tmp_path, workers=2, progress=lambda done, total, point, row: seen.append((done, total)))
    assert (outcome.ran, outcome.skipped, outcome.failed) == (3, 0, 1)
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)
    assert len(list((tmp_path / "points").glob("*.parquet"))) == 3
    frame = pl.read_parquet(tmp_path / "results.parquet")
    assert frame.height == 3
    failed = frame.filter(pl.col("status") == "failed").row(0, named=True)
    assert "beyond the device's logical capacity" in failed["error"]
    ok = frame.filter(pl.col("status") == "ok")
    assert ok["result.requests"].to_list() == [3000.0, 3000.0]
    # Each row carries its full config and its hash.
    for row in ok.iter_rows(named=True):
        assert "[ftl.garbage_collection]" in row["config_toml"]
        assert json.loads(row["result_json"])["requests_completed"] == 3000
    # Rerun: finished points are skipped, the failed one is tried again (and fails again).
    again = run_sweep(sweep, tmp_path, workers=2)
    assert (again.ran, again.skipped, again.failed) == (1, 2, 1)
    assert [r["config_hash"] for r in again.rows] == frame["config_hash"].to_list()


def test_interrupted_sweep_loses_no_finished_point(tmp_path: Path):
    sweep = tiny_sweep(**{"ftl.overprovisioning_fraction": [0.1, 0.2, 0.3]})

    def interrupt_after_two(done, total, point, row):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(sweep, tmp_path, workers=1, progress=interrupt_after_two)
    assert len(list((tmp_path / "points").glob("*.parquet"))) == 2
    outcome = run_sweep(sweep, tmp_path, workers=1)
    assert (outcome.ran, outcome.skipped, outcome.failed) == (1, 2, 0)


def test_sweep_on_a_dask_local_cluster_matches_local(tmp_path: Path):
    distributed = pytest.importorskip("distributed")
    sweep = tiny_sweep()
    local = run_sweep(sweep, tmp_path / "local", workers=1)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", protocol="tcp", dashboard_address=None
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        remote = run_sweep(sweep, tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert (remote.ran, remote.failed) == (2, 0)
    assert _without_wall_clock(remote.rows) == _without_wall_clock(local.rows), "same config and seed must give the same results anywhere"


WALL_CLOCK_FIELDS = ("wall_seconds", "replay_cpu_seconds", "requests_per_wall_second", "requests_per_cpu_second", "phases")


def _without_wall_clock(rows):
    results = []
    for row in rows:
        result = json.loads(row["result_json"])
        for field in WALL_CLOCK_FIELDS:
            result.pop(field)
        result["precondition"].pop("wall_seconds")
        results.append(result)
    return results


def test_sweep_cli_exit_codes(cli, tmp_path: Path):
    sweep_file = tmp_path / "s.toml"
    sweep_file.write_text(
        'base = "default"\nset = ' + json.dumps(TINY) + '\n[grid]\n"ftl.garbage_collection.policy" = ["greedy", "cost_benefit"]\n'
    )
    done = cli("sweep", str(sweep_file), "--out", str(tmp_path / "out"), "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "2 run now" in done.stdout
    again = cli("sweep", str(sweep_file), "--out", str(tmp_path / "out"))
    assert again.returncode == 0 and "0 run now, 2 already stored" in again.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "default"\n[grid]\nx = 3\n')
    done = cli("sweep", str(bad))
    assert done.returncode == 2 and "grid.x" in done.stderr
    missing = cli("sweep", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2 and "no such sweep file" in missing.stderr


def test_reproduce_lba_scrambler_end_to_end(cli, tmp_path: Path):
    out = tmp_path / "repro"
    # One stand-in at the smallest cap keeps the suite quick; the default runs all five workloads.
    args = ("reproduce", "lba-scrambler", "--out", str(out), "--workloads", "prxy_0", "--stand-in-cap-gib", "0.25")
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    table = pl.read_parquet(out / "table.parquet")
    # 4 free-space levels x {fresh, aged, aged with its dead data mixed} x {greedy, round robin}.
    assert table.height == 4 * 3 * 2
    assert set(table["free_fraction"].to_list()) == {0.2, 0.4, 0.6, 0.8}
    assert set(table["drive"].to_list()) == {"fresh", "aged", "aged_mixed"}
    assert set(table["gc_policy"].to_list()) == {"greedy", "round_robin"}
    assert table["conventional_status"].to_list() == ["ok"] * 24
    assert table["scrambler_status"].to_list() == ["ok"] * 24
    aged = table.filter(pl.col("drive").is_in(["aged", "aged_mixed"]))
    assert aged["trim_status"].to_list() == ["ok"] * 16
    # TRIM is the upper bound: on an aged drive the FTL that learns every delete copies far less.
    assert (aged["trim_pages_copied"] < aged["conventional_pages_copied"]).all()
    # Without TRIM the aged drive's deleted data is still valid to the FTL and round-robin GC copies it.
    assert (aged.filter(pl.col("gc_policy") == "round_robin")["conventional_dead_pages_copied"] > 0).all()
    # Equal host writes: every variant and free-space level of the workload writes the same.
    assert table["conventional_host_pages_written"].n_unique() == 1
    rule1 = pl.read_parquet(out / "rule1" / "table.parquet")
    assert rule1.height == 4 * 4 and set(rule1["plentiful_free_fraction"].to_list()) == {0.3, 0.5, 0.7, 1.0}
    # Rule 1 off is the conventional system exactly.
    off = rule1.filter(pl.col("plentiful_free_fraction") == 1.0)
    assert (off["gc_count_reduction"] == 0.0).all() and (off["pages_copied_reduction"] == 0.0).all()
    churn = pl.read_parquet(out / "churn" / "table.parquet")
    assert churn.height == 2 * 2
    # The look-ahead sweep (issue 45): 4 free levels x 2 aged drives x 2 policies x (0, 4, 8, 16) victims per plane.
    victims = pl.read_parquet(out / "victims" / "table.parquet")
    assert victims.height == 4 * 2 * 2 * 4 and set(victims["victims_per_plane"].to_list()) == {0, 4, 8, 16}
    assert (churn["trim_pages_copied"] < churn["conventional_pages_copied"]).all()
    for regime in ("fresh-greedy", "fresh-round-robin", "aged-greedy", "aged-round-robin", "aged_mixed-greedy", "aged_mixed-round-robin"):
        for name in ("fig4a", "fig4b", "fig5"):
            assert (out / f"{name}-{regime}.png").stat().st_size > 1000
            assert (out / f"{name}-{regime}.svg").stat().st_size > 1000
    # Write performance per free-space level, per regime and workload: data, not a claim (the seed's text
    # says nothing of how its gain varies with free space).
    trends = pl.read_parquet(out / "trends" / "table.parquet")
    assert trends.height == 6 and "degenerate_at" in trends.columns and "grows_with_free_space" not in trends.columns
    # Every case carries both runs' health; a degenerate side is named in its own column.
    assert {"conventional_held_fraction", "scrambler_erase_max", "reference_seconds", "conventional_problems"} <= set(table.columns)
    report = (out / "report.md").read_text()
    assert "Write performance by free-space level" in report and "grows with free space" not in report
    assert "stand-in" in report and "Seed 003" in report and "prxy_0 (stand-in)" in report
    # The seed's four claims, once each, graded on the fresh drive with greedy GC; the other regimes are readings.
    document = json.loads((out / "headlines.json").read_text())
    assert [h["key"] for h in document["headlines"]] == ["fewer_gcs", "fewer_copies", "write_performance", "src1_0_write_performance"]
    # Each measured comparison carries both sides' health (src1_0 is not run here: no result, no sides).
    assert all("fresh drive, greedy GC" in h["figure"] and (h["health"] or h["ours"] is None) for h in document["headlines"])
    assert {r["name"] for r in document["readings"]} == {
        "fresh drive, round-robin GC",
        "aged drive, greedy GC",
        "aged drive, round-robin GC",
        "aged drive, dead data mixed, greedy GC",
        "aged drive, dead data mixed, round-robin GC",
    }
    assert "holds" in report and "TRIM" in report
    assert "scaled down to 0.25 GiB" in report
    again = cli(*args, "--quiet")
    assert again.returncode == 0
    assert "0 points run now, 140 reused" in (out / "report.md").read_text()


def test_reproduce_rejects_unknown_trace_names(cli, tmp_path: Path):
    done = cli("reproduce", "lba-scrambler", "--trace", "nosuch=/tmp/x", "--out", str(tmp_path))
    assert done.returncode == 2 and "unknown workload" in done.stderr


def test_reproduce_ldpc_read_end_to_end(cli, tmp_path: Path):
    for name in ("umass-financial1.ssdsim-ascii.first10k.txt.gz", "mqsim-wsrch-small.trace.gz", "disksim-postmark.trace.gz"):
        trace_or_skip(name)
    out = tmp_path / "ldpc"
    done = cli("reproduce", "ldpc-read", "--out", str(out), "--synthetic-requests", "20000", "--interleave-frames", "30")
    assert done.returncode == 0, done.stderr
    table = pl.read_parquet(out / "table.parquet")
    # 6 workloads x 2 channel counts x 4 readings (one rate for every read, graded; with block spread;
    # the chips' spread only; all on the ganged device, and the one rate on independent dies).
    assert table.height == 6 * 2 * 4
    interleaved = ("interleave_2", "interleave_4", "all")
    for variant in (
        "no_soft",
        "baseline",
        "look_ahead",
        "progressive",
        "both",
        *interleaved,
        *(f"{v}_reliability_only" for v in interleaved),
    ):
        assert table[f"{variant}_status"].to_list() == ["ok"] * 48, variant
    # The cost side (partner sensings, padded writes) only adds work to the same decoding draws.
    for variant in interleaved:
        assert table[f"{variant}_reliability_only_vs_baseline"].mean() < table[f"{variant}_vs_baseline"].mean(), variant
    # Seed 002's ranking on every workload, channel count and error model: soft reads cost time, each
    # technique recovers some, both together the most.
    assert (table["baseline_delay"] > 0.2).all()
    assert (table["look_ahead_vs_baseline"] < 1.0).all()
    assert (table["both_vs_baseline"] < table["progressive_vs_baseline"]).all()
    chips = table.filter(pl.col("errors") == "chips")
    # (The chips' spread is the preset's four classes, 28.5 % on average; the Finance1 sample's few reads
    # sit on fewer chips under the gangs' striping, so its share strays further.)
    assert (chips["hard_failure_fraction"] - 0.285).abs().median() < 0.03
    assert (chips["hard_failure_fraction"] - 0.285).abs().max() < 0.1
    # Block spread makes progressive reads need a second level: more decodes per read than without.
    blocks = table.filter(pl.col("errors") == "blocks")
    assert blocks["progressive_decode_increase"].mean() > chips["progressive_decode_increase"].mean()
    # Interleaving averages the weak chips' errors out (fewer hard failures) but senses every chip of
    # a group and pads writes to whole groups.
    tables = json.loads((out / "decoding_tables.json").read_text())
    assert tables["chips/interleave_4"]["mean"][0] < 0.2
    assert (chips["interleave_4_vs_baseline"] < 1.0).sum() >= 4
    # One rate for every read (the graded reading) draws once per request, the chips' rows per page: a
    # many-page read fails more often with independent pages.
    one_rate = table.filter(pl.col("errors") == "one_rate")
    assert len(tables["one_rate/base"]["failure_probabilities"]) == 1
    assert (table["interleave_4_write_amplification"] >= 1.0).all() and (table["interleave_4_write_amplification"] > 1.5).any()
    assert one_rate.height == 12
    # The gangs serve one piece at a time: no workload reads faster on them than on independent dies.
    dies = table.filter(pl.col("errors") == "one_rate_dies").sort(["workload", "channels"])
    ganged = one_rate.sort(["workload", "channels"])
    assert dies.height == 12 and (ganged["no_soft_read_mean_us"] >= dies["no_soft_read_mean_us"]).all()
    assert (ganged["no_soft_read_mean_us"] > dies["no_soft_read_mean_us"]).sum() >= 10
    for name in ("fig11", "fig12_14", "fig15", "fig17", "fig11-blocks", "fig15-blocks", "fig11-chips"):
        assert (out / f"{name}.png").stat().st_size > 1000
        assert (out / f"{name}.svg").stat().st_size > 1000
    report = (out / "report.md").read_text()
    assert "Each seed figure beside ours" in report and "Finance2 (stand-in)" in report and "WebSearch (sample)" in report
    assert report.count("| Fig. ") >= 6 and "+102.9 %" in report and "+35.2 %" in report
    again = cli("reproduce", "ldpc-read", "--out", str(out), "--quiet", "--synthetic-requests", "20000", "--interleave-frames", "30")
    assert again.returncode == 0
    assert "0 points run now, 540 reused" in (out / "report.md").read_text()
    # The one-property-at-a-time ladder from Synthetic2 towards Postmark, and its sentence.
    ordering = pl.read_parquet(out / "ordering" / "table.parquet")
    assert ordering.height == 18 and ordering["baseline_delay"].is_not_null().all()
    # The ganged device (issue 45 item 7) serves the graded runs: each reports its gangs, the independent
    # dies' reading none; the synthetic rate's effect is in the report.
    assert ordering["gang_utilisation"].is_not_null().all()
    assert "The synthetic rate (open in the seed) moves the delay" in report
    assert "the single change towards Postmark that moves the delay the most is" in report
    # One headline per claim, graded under the reading the seed's text supports; the others are readings.
    from ssdlab.reproduce import ldpc_read

    document = json.loads((out / "headlines.json").read_text())
    assert document["recipe"] == "ldpc-read" and document["seed"] == "002"
    headlines = {h["key"]: h for h in document["headlines"]}
    assert list(headlines) == [claim.key for claim in ldpc_read.CLAIMS]
    assert headlines["progressive_energy"]["verdict"] == "calibrated"
    assert all(
        len(headlines[key]["health"]) == 2 for key in ("baseline_postmark", "look_ahead", "progressive", "interleave", "write_response")
    )
    # Fig. 11's order is a bound on ranks; §2.3's write time a bound on the worst workload.
    assert headlines["ordering"]["form"] == "bound" and "places off" in headlines["ordering"]["ours_text"]
    assert headlines["write_response"]["form"] == "bound" and headlines["write_response"]["ours"] is not None
    # "Adopted because it matched" is computed from the value, not declared.
    solved = next(r for r in document["readings"] if r["name"] == "access_soft_read_3")
    assert solved["matched"] == (abs(solved["value"] - 1.029) <= 0.3 * 1.029)
    assert "## How the claims are graded" in report and "## Per workload: writes, energy and the cost side" in report
    assert document["summary"]["sentence"] in report


def test_reproduce_ldpc_read_rejects_a_tiny_workload(cli, tmp_path: Path):
    done = cli("reproduce", "ldpc-read", "--synthetic-requests", "10", "--out", str(tmp_path))
    assert done.returncode == 2 and "synthetic-requests" in done.stderr


def test_reproduce_ldpc_read_takes_the_users_full_traces(cli, tmp_path: Path):
    from ssdlab.reproduce import ldpc_read

    for name in ("umass-financial1.ssdsim-ascii.first10k.txt.gz", "disksim-postmark.trace.gz"):
        trace_or_skip(name)
    trace = tmp_path / "websearch-full.csv"
    trace.write_text("time_us,op,offset,size\n0,R,0,4096\n")
    traces = ldpc_read.parse_trace_options([f"websearch={trace}"])
    selected = ldpc_read.with_user_traces(ldpc_read.workloads(1000), traces)
    sweep = ldpc_read.build_sweep(selected, ldpc_read.decoding_tables(tmp_path / "tables", 10))
    assert "WebSearch (full trace)" in sweep.cases["workload"]
    assert any(str(trace) in override for override in sweep.cases["workload"]["WebSearch (full trace)"])
    done = cli("reproduce", "ldpc-read", "--trace", "nosuch=/tmp/x", "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "unknown workload" in done.stderr
    done = cli("reproduce", "ldpc-read", "--trace", f"postmark={tmp_path / 'missing.trace'}", "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "no such trace file" in done.stderr


def test_the_gc_policy_sweep_collects_garbage_and_tells_policies_apart(tmp_path: Path):
    """configs/sweeps/gc-policies.toml claims to compare GC policies: every point must run GC, and
    the policies must not give identical rows (issue 13: it once gave 9 identical rows)."""
    definition = Sweep.from_file(REPO / "configs" / "sweeps" / "gc-policies.toml")
    assert definition.base.endswith("bench-gc-steady.toml"), definition.base
    shrunk = Sweep.from_dict(
        {
            "name": "gc-policies-small",
            "base": str(REPO / "configs" / "bench-gc-steady.toml"),
            "set": [*definition.common, "workload.synthetic.requests=20000"],
            "grid": {
                "ftl.garbage_collection.policy": ["greedy", "cost_benefit", "round_robin"],
                "ftl.footprint_free_fraction": [0.07, 0.28],
            },
        }
    )
    outcome = run_sweep(shrunk, tmp_path / "out", workers=2)
    rows = pl.read_parquet(tmp_path / "out" / "results.parquet")
    assert rows.height == 6 and not outcome.failed
    invocations = [column for column in rows.columns if column.endswith("gc.invocations")][0]
    amplification = [column for column in rows.columns if column.endswith("write_amplification")][0]
    assert rows[invocations].min() > 0, rows.select(invocations)
    assert rows[amplification].n_unique() == 6, rows.select(amplification)
    # Any sweep gets a report: a row per point, a figure per metric.
    from ssdlab import sweep_report

    report = sweep_report.report(tmp_path / "out").read_text()
    assert report.count("| greedy |") + report.count("| cost_benefit |") + report.count("| round_robin |") == 6
    assert (tmp_path / "out" / "report" / "write_amplification.png").stat().st_size > 1000
    only = sweep_report.report(tmp_path / "out", ["result.gc.invocations"], tmp_path / "one")
    assert "gc.invocations" in only.read_text() and (tmp_path / "one" / "gc_invocations.svg").exists()
    with pytest.raises(Exception, match="unknown metric"):
        sweep_report.report(tmp_path / "out", ["result.nosuch"])


def test_tlc_share_sweep_moves_chips_between_tiers(tmp_path: Path):
    """configs/sweeps/tlc-share.toml claims one column per tier field, following the chip split."""
    definition = Sweep.from_file(REPO / "configs" / "sweeps" / "tlc-share.toml")
    assert definition.base == "mlc-tlc-demo" and set(definition.cases["split"]) == {"tlc_25", "tlc_50", "tlc_75"}
    shrunk = Sweep.from_dict(
        {
            "name": "tlc-share-small",
            "base": definition.base,
            "set": [*definition.common, "workload.synthetic.requests=5000", "ftl.precondition.overwrite_passes=0.2"],
            "cases": definition.cases,
        }
    )
    outcome = run_sweep(shrunk, tmp_path / "out", workers=2)
    rows = pl.read_parquet(tmp_path / "out" / "results.parquet")
    assert rows.height == 3 and not outcome.failed
    chips = next(column for column in rows.columns if column.endswith("tiers.tlc.chips"))
    migrated = next(column for column in rows.columns if column.endswith("tiers.mlc.pages_migrated_out"))
    split = next(column for column in rows.columns if column.endswith("split"))
    by_split = dict(zip(rows[split].to_list(), rows[chips].to_list()))
    assert by_split == {"tlc_25": 2, "tlc_50": 4, "tlc_75": 6}, by_split
    assert rows[migrated].min() > 0, rows.select(split, migrated)


def test_gc_mode_sweep_holds_writes_in_every_mode_but_background(tmp_path: Path):
    """configs/sweeps/gc-modes.toml claims: at a given load every mode serves the same throughput
    (the dies do the same work), `background` holds no write and has the lowest write latency, and
    the modes that hold writes hold some at every load, foreground (waiting for the erase) the most."""
    definition = Sweep.from_file(REPO / "configs" / "sweeps" / "gc-modes.toml")
    assert definition.base.endswith("bench-gc-steady.toml"), definition.base
    modes = ["foreground", "stop_servicing_writes", "preemptible", "background"]
    loads = [143000.0, 60000.0]
    shrunk = Sweep.from_dict(
        {
            "name": "gc-modes-small",
            "base": str(REPO / "configs" / "bench-gc-steady.toml"),
            "set": [*definition.common, "workload.synthetic.requests=20000"],
            "grid": {"ftl.garbage_collection.mode": modes, "workload.synthetic.arrival.mean_interarrival_ns": loads},
        }
    )
    outcome = run_sweep(shrunk, tmp_path / "out", workers=2)
    rows = pl.read_parquet(tmp_path / "out" / "results.parquet")
    assert rows.height == 8 and not outcome.failed

    def column(suffix: str) -> str:
        return next(name for name in rows.columns if name.endswith(suffix))

    mode, load = column("garbage_collection.mode"), column("mean_interarrival_ns")
    iops, latency, held = column("result.all.iops"), column("result.write.latency_us.mean"), column("host_writes_held.programs_held")
    for offered in loads:
        at = {row[mode]: row for row in rows.filter(pl.col(load).cast(pl.Float64) == offered).iter_rows(named=True)}
        assert len({round(row[iops], 6) for row in at.values()}) == 1, {m: row[iops] for m, row in at.items()}
        assert at["background"][held] == 0
        assert all(at[m][held] > 0 for m in modes[:3]), {m: row[held] for m, row in at.items()}
        assert at["background"][latency] < at["stop_servicing_writes"][latency] <= at["foreground"][latency], {
            m: row[latency] for m, row in at.items()
        }
        assert at["stop_servicing_writes"][held] <= at["foreground"][held]


def _simulated(row: dict) -> dict:
    """A row's values that the simulation decides (not the wall or CPU time it took)."""
    timing = ("point_seconds", "result_json", "row_digest")
    return {key: value for key, value in row.items() if key not in timing and "wall" not in key and "cpu" not in key}


def _csv_trace(path: Path, requests: int) -> None:
    lines = ["time_us,op,offset,size"] + [f"{i * 50},{'W' if i % 4 else 'R'},{(i * 7919 % 8192) * 4096},4096" for i in range(requests)]
    path.write_text("\n".join(lines) + "\n")


def test_an_edited_trace_reruns_its_points(tmp_path: Path):
    """Points are identified by the trace's contents, not its path (issue 33)."""
    trace = tmp_path / "t.csv"
    _csv_trace(trace, 1000)
    sweep = Sweep.from_dict(
        {
            "name": "edited",
            "base": "default",
            "set": [f"workload.trace.path={json.dumps(str(trace))}", "ftl.precondition.enabled=false"],
            "grid": {"ftl.garbage_collection.policy": ["greedy", "round_robin"]},
        }
    )
    first = run_sweep(sweep, tmp_path / "out", workers=1)
    assert [row["result.requests"] for row in first.rows] == [1000.0, 1000.0]
    _csv_trace(trace, 500)
    second = run_sweep(sweep, tmp_path / "out", workers=1)
    assert (second.ran, second.skipped) == (2, 0)
    assert [row["result.requests"] for row in second.rows] == [500.0, 500.0]
    # The same contents again: the stored points of the first run are found again.
    _csv_trace(trace, 1000)
    third = run_sweep(sweep, tmp_path / "out", workers=1)
    assert (third.ran, third.skipped) == (0, 2)
    assert (
        json.loads(third.rows[0]["input_digests"])["workload.trace.path"]
        == json.loads(first.rows[0]["input_digests"])["workload.trace.path"]
    )


def test_the_point_store_is_trusted_by_content_not_by_name(tmp_path: Path):
    """Fault injection on the sweep store (issue 33): a point file copied over another's name, flipped
    bytes, a truncated file: each such point runs again and the rows end as a clean run's."""
    sweep = tiny_sweep(**{"ftl.overprovisioning_fraction": [0.1, 0.2, 0.3]})
    clean = run_sweep(sweep, tmp_path, workers=1)
    expected = [_simulated(row) for row in clean.rows]
    files = [tmp_path / "points" / f"{row['config_hash']}.parquet" for row in clean.rows]
    pristine = [path.read_bytes() for path in files]

    def rerun_and_check(what: str, reran_at_least: int) -> None:
        outcome = run_sweep(sweep, tmp_path, workers=1)
        assert outcome.ran >= reran_at_least, f"{what}: a damaged or foreign point file was trusted"
        assert [_simulated(row) for row in outcome.rows] == expected, what
        for path, original in zip(files, pristine):
            path.write_bytes(original)

    # Point 0's file under point 1's name: one grid point twice and another missing, before.
    files[1].write_bytes(pristine[0])
    rerun_and_check("a point file copied over another's name", 1)
    # A point whose stored row was edited consistently (another result, same config): the row digest.
    import polars as pl

    edited = pl.read_parquet(files[2]).with_columns(pl.lit(1.0).alias("result.all.iops"))
    edited.write_parquet(files[2])
    rerun_and_check("an edited row", 1)
    # Flipped bytes at several places, and a cut file: rerun, or read back unchanged.
    for fraction in (0.1, 0.3, 0.5, 0.7, 0.9):
        damaged = bytearray(pristine[0])
        damaged[int(len(damaged) * fraction)] ^= 0x04
        files[0].write_bytes(bytes(damaged))
        rerun_and_check(f"a byte flipped at {fraction:.0%}", 0)
    files[0].write_bytes(pristine[0][: len(pristine[0]) // 2])
    rerun_and_check("a truncated point file", 1)
