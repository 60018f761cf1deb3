"""The command line end to end: summaries, JSON, exit codes and error messages."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from conftest import SMALL, trace_or_skip

REQUIRED_OP_FIELDS = {"count", "bytes", "iops", "mbps", "latency_us"}
REQUIRED_LATENCY_FIELDS = {"mean", "p50", "p99", "p999", "max"}


def test_config_says_which_unset_keys_the_run_derives(cli):
    """Issue 46 item 4: seed 000's switch points are unset in its preset and computed by each run."""
    done = cli("config", "seed000-aoa")
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "hot_switch_pe_cycles" in line)
    assert line.startswith("#") and "each run computes it" in line
    # Issue 48 item 1: never folded at the console's width, so the output stays TOML.
    import tomllib

    for columns in ("40", "80"):
        narrow = cli("config", "seed000-aoa", env={"COLUMNS": columns})
        tomllib.loads(narrow.stdout)
        shown = cli("presets", "show", "mlc-tlc-demo", env={"COLUMNS": columns})
        tomllib.loads(shown.stdout)


def test_a_ganged_run_says_what_its_gangs_did(cli):
    """Issue 45 item 7: the seed-002 preset is DiskSim's ganged device, and the summary says so."""
    done = cli("run", "seed002-ldpc", "--set", "workload.synthetic.requests=2000")
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    assert "DiskSim gangs (8 of 8 chips, serial)" in flat and "read-modify-writes" in flat
    off = cli("run", "seed002-ldpc", "--set", "workload.synthetic.requests=2000", "--set", "device.ganging.enabled=false")
    assert off.returncode == 0 and "DiskSim gangs" not in off.stdout


def test_run_default_prints_summary(cli):
    done = cli("run", *SMALL)
    assert done.returncode == 0, done.stderr
    assert "requests" in done.stdout and "write amplification" in done.stdout
    assert "5,000 requests completed" in done.stdout


def test_run_writes_json_with_every_required_field(cli, tmp_path: Path):
    out = tmp_path / "nested" / "result.json"
    done = cli("run", "default", *SMALL, "--json", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    result = json.loads(out.read_text())
    assert result["requests"] == result["requests_completed"] == 5000
    for op in ("read", "write"):
        assert REQUIRED_OP_FIELDS <= result[op].keys()
        assert REQUIRED_LATENCY_FIELDS <= result[op]["latency_us"].keys()
    assert {"invocations", "pages_copied", "blocks_erased"} <= result["gc"].keys()
    assert {"min", "mean", "max"} <= result["erase_count"].keys()
    for field in ("write_amplification", "simulated_seconds", "wall_seconds", "requests_per_wall_second"):
        assert isinstance(result[field], float)
    assert result["read"]["count"] + result["write"]["count"] == 5000


def test_unknown_config_key_names_file_line_and_field(cli, tmp_path: Path):
    config = tmp_path / "bad.toml"
    text = Path(__file__).resolve().parent.parent.joinpath("configs", "default.toml").read_text()
    config.write_text(text.replace("[ftl]\n", "[ftl]\nover_provisioning = 0.2\n"))
    done = cli("run", str(config))
    assert done.returncode == 2
    line = text.replace("[ftl]\n", "[ftl]\nover_provisioning = 0.2\n").splitlines().index("over_provisioning = 0.2") + 1
    assert f"bad.toml:{line}" in done.stderr
    assert "over_provisioning" in done.stderr
    assert "Traceback" not in done.stderr


def test_wrong_type_is_a_configuration_error(cli):
    done = cli("run", "default", "--set", 'device.geometry.channels="eight"')
    assert done.returncode == 2
    assert "device.geometry.channels" in done.stderr


def test_impossible_geometry_is_rejected(cli):
    done = cli("run", "default", "--set", "device.geometry.pages_per_block=0")
    assert done.returncode == 2
    assert "pages_per_block" in done.stderr


def test_unknown_preset_lists_the_known_ones(cli):
    done = cli("run", "no-such-preset")
    assert done.returncode == 2
    assert "mqsim-default" in done.stderr


def test_malformed_trace_line_names_file_line_and_field(cli, tmp_path: Path):
    trace = tmp_path / "broken.csv"
    trace.write_text("128166372000000000,web,0,Read,4096,4096,100\n128166372000010000,web,0,Read,notanumber,4096,100\n")
    done = cli("run", "default", "--trace", str(trace), "--format", "msr")
    assert done.returncode == 2
    assert "broken.csv:2" in done.stderr
    assert "offset" in done.stderr.lower()


def test_empty_trace_is_an_error_not_an_empty_success(cli, tmp_path: Path):
    trace = tmp_path / "empty.csv"
    trace.write_text("")
    done = cli("run", "default", "--trace", str(trace), "--format", "msr")
    assert done.returncode == 2
    assert "empty.csv" in done.stderr


def test_missing_trace_file(cli, tmp_path: Path):
    done = cli("run", "default", "--trace", str(tmp_path / "nope.csv"))
    assert done.returncode == 2
    assert "nope.csv" in done.stderr


def test_address_beyond_device_names_the_line(cli, tmp_path: Path):
    trace = tmp_path / "far.csv"
    # 1 PiB offset: beyond the 476 GiB logical capacity of the default drive.
    trace.write_text("128166372000000000,web,0,Write,1125899906842624,4096,100\n")
    done = cli("run", "default", "--trace", str(trace), "--format", "msr")
    assert done.returncode == 2
    assert "far.csv:1" in done.stderr
    assert "beyond" in done.stderr


def test_bad_override_syntax(cli):
    done = cli("run", "default", "--set", "no_equals_sign")
    assert done.returncode == 2
    assert "no_equals_sign" in done.stderr


def test_presets_list_and_show(cli):
    listed = cli("presets", "list")
    assert listed.returncode == 0
    for name in ("default", "mqsim-default", "seed002-ldpc", "seed003-scrambler", "bench-gc-steady"):
        assert name in listed.stdout
    shown = cli("presets", "show", "seed002-ldpc")
    assert shown.returncode == 0 and "[device.geometry]" in shown.stdout


def test_config_prints_defaults_filled_in(cli):
    done = cli("config", "default", "--set", 'ftl.garbage_collection.policy="cost_benefit"')
    assert done.returncode == 0, done.stderr
    assert 'policy = "cost_benefit"' in done.stdout
    assert "queue_depth" in done.stdout  # a default the file does not set


def test_config_lists_the_optional_keys_it_leaves_unset(cli):
    # Issue 36: --set accepted read_path.aoa_ecc.hot_switch_pe_cycles, but nothing listed it.
    done = cli("config", "seed000-aoa")
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split("# Optional keys not set above", 1)[1]
    assert "#   read_path.aoa_ecc.hot_switch_pe_cycles" in listed
    # A key given with --set is no longer listed as unset, and the output stays a valid config.
    done = cli("config", "seed000-aoa", "--set", "read_path.aoa_ecc.hot_switch_pe_cycles=1500.0")
    assert done.returncode == 0, done.stderr
    assert "hot_switch_pe_cycles = 1500.0" in done.stdout
    assert "#   read_path.aoa_ecc.hot_switch_pe_cycles" not in done.stdout
    tomllib.loads(done.stdout)


def test_trace_stats_of_a_shared_sample(cli, tmp_path: Path):
    trace = trace_or_skip("msr-web_0.segment100k.csv.gz")
    out = tmp_path / "stats.json"
    done = cli("trace", "stats", str(trace), "--json", str(out))
    assert done.returncode == 0, done.stderr
    stats = json.loads(out.read_text())["stats"]
    # ../shared/traces/README.md: 100,000 records, 61,553 reads / 38,447 writes.
    assert stats["requests"] == 100_000
    assert stats["reads"] == 61_553 and stats["writes"] == 38_447
    assert "workload class" in done.stdout


def test_run_a_real_trace_with_loops(cli, tmp_path: Path):
    trace = trace_or_skip("msr-hm_0.sample.csv.gz")
    out = tmp_path / "hm0.json"
    done = cli(
        "run",
        "seed003-scrambler",
        "--trace",
        str(trace),
        "--set",
        "host.loops=3",
        "--set",
        "verification.integrity_oracle=true",
        "--json",
        str(out),
        "--quiet",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    # README: 7,016 records.
    assert result["requests"] == result["requests_completed"] == 3 * 7016
    assert result["integrity"]["mismatches"] == 0
    assert result["integrity"]["reads_checked"] > 0


def test_synthetic_span_beyond_device_names_the_field(cli):
    done = cli("run", "bench-gc-steady", "--set", "device.geometry.blocks_per_plane=64")
    assert done.returncode == 2
    assert "workload.synthetic.span_bytes" in done.stderr


def test_summary_fits_80_columns_without_cutting_numbers(tmp_path: Path):
    """An overloaded run's latencies are seconds long; at 80 columns the table must still show every
    number whole (issue 13: the summary truncated them)."""
    import os
    import subprocess
    import sys

    out = tmp_path / "r.json"
    args = [
        "run",
        "default",
        "--set",
        "workload.synthetic.requests=20000",
        "--set",
        "workload.synthetic.arrival.mean_interarrival_ns=1000.0",
        "--json",
        str(out),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "ssdlab", *args], capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"}, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout
    assert all(len(line) <= 80 for line in done.stdout.splitlines()), max(done.stdout.splitlines(), key=len)
    result = json.loads(out.read_text())
    all_row = next(line for line in done.stdout.splitlines() if line.strip().startswith("all "))
    assert f"{result['all']['iops']:,.0f}" in all_row and f"{result['all']['latency_us']['max'] / 1e3:,.1f}" in all_row, all_row
    assert "host queue" not in done.stdout or "waited" in done.stdout


def test_footprint_sized_device_explains_logical_above_physical(cli, tmp_path: Path):
    trace = tmp_path / "sparse.csv"
    # Two pages touched far apart: the address space is large, the device sized to two pages.
    trace.write_text("time_us,op,offset,size\n0,W,0,8192\n10,W,68719476736,8192\n20,R,0,8192\n")
    done = cli("run", "default", "--trace", str(trace), "--set", 'ftl.sizing="footprint"')
    assert done.returncode == 0, done.stderr
    assert "logical capacity exceeds physical" in done.stdout, done.stdout


def test_deletes_in_a_csv_trace_reach_the_ftl_as_trim(cli, tmp_path):
    trace = tmp_path / "with-deletes.csv"
    lines = ["time_us,op,offset,size"]
    lines += [f"{i},W,{i * 8192},8192" for i in range(200)]
    lines += [f"{1000 + i},D,{i * 8192},8192" for i in range(100)]
    lines += [f"{2000 + i},R,{i * 8192},8192" for i in range(200)]
    trace.write_text("\n".join(lines) + "\n")
    out = tmp_path / "result.json"
    done = cli("run", "default", "--trace", str(trace), "--set", "verification.integrity_oracle=true", "--json", str(out))
    assert done.returncode == 0, done.stderr
    # 8 KiB pages on this drive: each delete covers one whole page; the first 100 pages are read back.
    assert "deletes: 100 requests over 100 whole pages, sent to ftl" in done.stdout
    import json

    result = json.loads(out.read_text())
    assert result["deletes"]["pages_trimmed"] == 100
    assert result["unmapped_page_reads"] == 100
    assert result["integrity"]["mismatches"] == 0
    kept = cli("run", "default", "--trace", str(trace), "--set", 'host.delete_target="none"', "--json", str(out))
    assert kept.returncode == 0, kept.stderr
    assert json.loads(out.read_text())["unmapped_page_reads"] == 0


def test_trace_generate_and_convert_round_trip(cli, tmp_path: Path):
    # A synthetic workload written as an MQSim trace replays the same requests and bytes.
    generated = tmp_path / "gen.mqsim"
    done = cli("trace", "generate", "mqsim-default", str(generated), "--to", "mqsim", "--set", "workload.synthetic.requests=3000")
    assert done.returncode == 0, done.stderr
    assert "3,000 requests written" in done.stdout
    synthetic = json.loads(_run_json(cli, tmp_path / "a.json", "mqsim-default", "--set", "workload.synthetic.requests=3000"))
    replayed = json.loads(_run_json(cli, tmp_path / "b.json", "mqsim-default", "--trace", str(generated), "--format", "mqsim"))
    for op in ("read", "write"):
        assert replayed[op]["count"] == synthetic[op]["count"] and replayed[op]["bytes"] == synthetic[op]["bytes"], op
    # ... and converting it to CSV and back keeps every request.
    as_csv = tmp_path / "gen.csv.gz"
    assert cli("trace", "convert", str(generated), str(as_csv), "--to", "csv").returncode == 0
    back = json.loads(_run_json(cli, tmp_path / "c.json", "mqsim-default", "--trace", str(as_csv), "--format", "csv"))
    assert back["read"] == replayed["read"] and back["write"] == replayed["write"]
    # A delete cannot be written in MQSim's format: a clear error, no partial success.
    deletes = tmp_path / "d.csv"
    deletes.write_text("time_us,op,offset,size\n0,W,0,4096\n1,D,0,4096\n")
    done = cli("trace", "convert", str(deletes), str(tmp_path / "d.mqsim"), "--to", "mqsim")
    assert done.returncode != 0 and "no delete" in done.stderr
    assert not (tmp_path / "d.mqsim").exists()
    done = cli("trace", "convert", str(deletes), str(tmp_path / "d.x"), "--to", "blkparse")
    assert done.returncode != 0 and "mqsim, csv" in done.stderr


def _run_json(cli, out: Path, *args: str) -> str:
    done = cli("run", *args, "--json", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return out.read_text()


def test_the_parsed_trace_cache_is_reused_and_changes_no_result(cli, tmp_path: Path):
    trace = tmp_path / "t.mqsim"
    assert (
        cli("trace", "generate", "mqsim-default", str(trace), "--to", "mqsim", "--set", "workload.synthetic.requests=2000").returncode == 0
    )
    cache = tmp_path / "cache"
    runs = [
        json.loads(_run_json(cli, tmp_path / f"{i}.json", "mqsim-default", "--trace", str(trace), "--format", "mqsim", *extra))
        for i, extra in enumerate([(), ("--trace-cache", str(cache)), ("--trace-cache", str(cache))])
    ]
    assert runs[1]["workload"]["trace_cache"] and not runs[1]["workload"]["trace_cache_reused"]
    assert runs[2]["workload"]["trace_cache_reused"]
    # One records file, its scan summary and the footprint for its 8 KiB pages: the third run read the
    # footprint instead of passing over the records before replay.
    names = sorted(path.name for path in cache.iterdir())
    assert len(names) == 3 and names[0].endswith(".records") and names[1:] == [names[0] + ".footprint-8192-0", names[0] + ".scan"], names
    # Same requests, same simulation: every result field but the timing of the run itself.
    for run in runs[1:]:
        for key in ("read", "write", "all", "gc", "requests", "write_amplification", "flash", "precondition"):
            if key == "precondition":
                run[key].pop("wall_seconds"), runs[0][key].pop("wall_seconds", None)
            assert run[key] == runs[0][key], key
    # A damaged footprint file is ignored (the records are scanned again), never trusted.
    (cache / names[1]).write_bytes(b"SSDLABFP" + bytes(5))
    damaged = json.loads(
        _run_json(cli, tmp_path / "d.json", "mqsim-default", "--trace", str(trace), "--format", "mqsim", "--trace-cache", str(cache))
    )
    assert (
        damaged["workload"]["trace_cache_reused"]
        and damaged["all"] == runs[0]["all"]
        and damaged["precondition"]["pages_written"] == runs[0]["precondition"]["pages_written"]
    )


def test_records_kept_in_memory_change_no_result(cli, tmp_path: Path):
    """The scan's records kept for the replay (default) or the text parsed again: the same run, and the
    result says which (`workload.kept_records_bytes`)."""
    trace = tmp_path / "t.mqsim"
    assert (
        cli("trace", "generate", "mqsim-default", str(trace), "--to", "mqsim", "--set", "workload.synthetic.requests=3000").returncode == 0
    )
    common = ("mqsim-default", "--trace", str(trace), "--format", "mqsim", "--set", "host.loops=2")
    kept = json.loads(_run_json(cli, tmp_path / "kept.json", *common))
    text = json.loads(_run_json(cli, tmp_path / "text.json", *common, "--set", "workload.trace.keep_records_bytes=0"))
    assert kept["workload"]["kept_records_bytes"] > 0 and text["workload"]["kept_records_bytes"] == 0
    assert kept["requests"] == text["requests"] == 6000
    for key in ("read", "write", "all", "gc", "write_amplification", "flash"):
        assert kept[key] == text[key], key


def test_column_mapped_traces_run_in_every_unit_without_conversion(cli, tmp_path: Path):
    # The same four requests (two 4 KiB writes, two reads) in layouts with different units.
    requests = [(0, "W", 0, 4096), (100, "R", 0, 4096), (250, "W", 32768, 8192), (400, "R", 32768, 8192)]  # time us, op, offset, size bytes
    layouts = {
        # A 5-column CSV with a version column and SCSI op codes, sectors, microseconds.
        "scsi": (
            [
                "--columns",
                "time=1,op=2,offset=3,size=4",
                "--time-unit",
                "us",
                "--offset-unit-bytes",
                "512",
                "--size-unit-bytes",
                "512",
                "--read-ops",
                "0x28,0x88",
                "--write-ops",
                "0x2a,0x8a",
                "--header-lines",
                "1",
            ],
            "version,time,opcode,lba,blocks\n"
            + "".join(f"3,{t},{'0x2a' if op == 'W' else '0x28'},{o // 512},{s // 512}\n" for t, op, o, s in requests),
        ),
        "seconds": (
            ["--columns", "op=0,time=1,size=2,offset=3", "--separator", "whitespace"],
            "".join(f"{op}  {t / 1e6:.6f}\t{s} {o}\n" for t, op, o, s in requests),
        ),
        "ms-blocks": (
            ["--columns", "time=0,offset=1,size=2,op=3", "--separator", ";", "--time-unit", "ms", "--offset-unit-bytes", "4096"],
            "".join(f"{t / 1e3};{o // 4096};{s};{'write' if op == 'W' else 'read'}\n" for t, op, o, s in requests),
        ),
        "ns": (
            ["--columns", "time=0,op=1,offset=2,size=3", "--time-unit", "ns"],
            "".join(f"{t * 1000},{op},{o},{s}\n" for t, op, o, s in requests),
        ),
    }
    results = {}
    for name, (options, text) in layouts.items():
        path = tmp_path / f"{name}.txt"
        path.write_text(text)
        done = cli("run", "mqsim-default", "--trace", str(path), *options, "--json", str(tmp_path / f"{name}.json"), "-q")
        assert done.returncode == 0, (name, done.stderr)
        results[name] = json.loads((tmp_path / f"{name}.json").read_text())
        assert results[name]["workload"]["format"] == "columns"
    first = results["scsi"]
    assert (first["read"]["count"], first["read"]["bytes"], first["write"]["bytes"]) == (2, 12288, 12288)
    for name, result in results.items():
        assert result["read"] == first["read"] and result["write"] == first["write"], name
    # A bad column map names its field; an op value outside the map names the line.
    bad = cli(
        "run", "mqsim-default", "--trace", str(tmp_path / "ns.txt"), "--columns", "time=0,op=1,offset=2,size=3", "--time-unit", "hours"
    )
    assert bad.returncode == 2 and "workload.trace.columns.time_unit" in bad.stderr
    unknown = cli(
        "run", "mqsim-default", "--trace", str(tmp_path / "scsi.txt"), "--columns", "time=1,op=2,offset=3,size=4", "--header-lines", "1"
    )
    assert unknown.returncode == 2 and "scsi.txt:2" in unknown.stderr and "`op`" in unknown.stderr
    missing = cli("run", "mqsim-default", "--trace", str(tmp_path / "ns.txt"), "--columns", "time=0,op=1")
    assert missing.returncode == 2 and "missing offset, size" in missing.stderr
    # trace stats reads the same map.
    stats_out = tmp_path / "stats.json"
    done = cli("trace", "stats", str(tmp_path / "scsi.txt"), *layouts["scsi"][0], "--json", str(stats_out))
    assert done.returncode == 0, done.stderr
    stats = json.loads(stats_out.read_text())["stats"]
    assert (stats["requests"], stats["bytes_read"], stats["bytes_written"]) == (4, 12288, 12288)


def test_time_series_is_written_beside_the_json_and_plotted(cli, tmp_path: Path):
    import polars as pl

    out = tmp_path / "run.json"
    # bench-gc-steady shrunk to 1 GiB with its 20 % free: GC from the start.
    done = cli(
        "run",
        "bench-gc-steady",
        "--set",
        "workload.synthetic.requests=30000",
        "--set",
        "device.geometry.blocks_per_plane=64",
        "--set",
        "workload.synthetic.span_bytes=800000000",
        "--time-series-ms",
        "20",
        "--json",
        str(out),
        "-q",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    frame = pl.read_parquet(tmp_path / "run.timeseries.parquet")
    assert frame.height == len(result["time_series"]["start_ms"]) > 5
    assert frame["write_count"].sum() == result["write"]["count"]
    assert frame["gc_pages_copied"].sum() == result["gc"]["pages_copied"] + result["gc"]["pages_migrated"] > 0
    done = cli("plot", str(out))
    assert done.returncode == 0, done.stderr
    for suffix in (".png", ".svg"):
        assert (tmp_path / f"run.timeseries{suffix}").stat().st_size > 1000
    plain = tmp_path / "plain.json"
    assert cli("run", "default", "--set", "workload.synthetic.requests=1000", "--json", str(plain), "-q").returncode == 0
    done = cli("plot", str(plain))
    assert done.returncode == 2 and "no time series" in done.stderr


def test_the_request_log_has_a_row_per_completed_request(cli, tmp_path: Path):
    import polars as pl

    out = tmp_path / "r.json"
    log = tmp_path / "log" / "requests.parquet"
    done = cli("run", "default", "--set", "workload.synthetic.requests=20000", "--request-log", str(log), "--json", str(out), "-q")
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    frame = pl.read_parquet(log)
    assert frame.height == result["requests_completed"] == result["request_log"]["rows"]
    assert result["request_log"]["path"] == str(log.resolve())
    assert not list((tmp_path / "log").glob("*.partial"))
    assert frame.filter(pl.col("op") == "R")["size_bytes"].sum() == result["read"]["bytes"]
    assert (frame["latency_ns"] == frame["completion_ns"] - frame["arrival_ns"]).all()
    csv = tmp_path / "requests.csv"
    assert cli("run", "default", "--set", "workload.synthetic.requests=1000", "--request-log", str(csv), "-q").returncode == 0
    assert len(csv.read_text().splitlines()) == 1001


@pytest.mark.parametrize(("preset", "requests"), [("bench-gc-steady", 20000), ("seed002-ldpc", 5000)])
def test_the_request_log_flags_add_up_to_the_run_totals(cli, tmp_path: Path, preset: str, requests: int):
    """Each row's soft reads and GC copies are what that request set off: they sum to the run's totals."""
    import polars as pl

    out, log = tmp_path / "r.json", tmp_path / "requests.parquet"
    done = cli("run", preset, "--set", f"workload.synthetic.requests={requests}", "--request-log", str(log), "--json", str(out), "-q")
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    frame = pl.read_parquet(log)
    assert frame["gc_pages_copied"].sum() == result["gc"]["pages_copied"]
    soft = (result.get("read_path") or {}).get("hard_decision_failures", 0)
    assert frame["soft_reads"].sum() == soft
    # The example shows what it claims: GC copies in one, soft reads in the other.
    assert (result["gc"]["pages_copied"] > 0) if preset == "bench-gc-steady" else (soft > 0)
    assert frame.filter(pl.col("soft_reads") > 0)["op"].unique().to_list() in ([], ["R"])


def test_trace_convert_builds_the_parsed_trace_cache_that_runs_reuse(cli, tmp_path: Path):
    trace = tmp_path / "t.csv"
    trace.write_text("time_us,op,offset,size\n0,W,0,4096\n5,R,0,4096\n7,X,0,4096\n9,W,8192,8192\n")
    cache = tmp_path / "cache"
    # A malformed line fails the conversion (naming its line) unless skipping is asked for.
    bad = cli("trace", "convert", str(trace), str(cache), "--to", "cache")
    assert bad.returncode == 2 and ":4" in bad.stderr and not list(cache.glob("*.records"))
    done = cli("trace", "convert", str(trace), str(cache), "--to", "cache", "--set", "workload.trace.skip_bad_lines=true")
    assert done.returncode == 0, done.stderr
    assert "3 records" in done.stdout and "1 malformed lines skipped" in done.stdout and "(built" in done.stdout
    again = cli("trace", "convert", str(trace), str(cache), "--to", "cache", "--set", "workload.trace.skip_bad_lines=true")
    assert "already there" in again.stdout
    out = tmp_path / "run.json"
    run = cli(
        "run",
        "default",
        "--trace",
        str(trace),
        "--trace-cache",
        str(cache),
        "--set",
        "workload.trace.skip_bad_lines=true",
        "--json",
        str(out),
        "--quiet",
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(out.read_text())
    assert result["workload"]["trace_cache_reused"] and result["requests"] == 3
