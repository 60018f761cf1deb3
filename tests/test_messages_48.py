"""Messages of issue 48 (items 5, 7 and 19): a bad ``--set`` is blamed on that ``--set`` with the
nearest valid name, a value TOML cannot read says why, an enum given a number lists its variants, a
column map's error names the map once, the All S-SCM summary shows no NAND figures, and ``ssdlab
bench`` says what it will run before it starts."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from ssdlab import bench


def _said(done) -> str:
    """The error output with the console's line wrapping undone."""
    return " ".join(done.stderr.split())


def _refused(done, *fragments: str) -> str:
    said = _said(done)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
    for fragment in fragments:
        assert fragment in said, said
    return said


def test_a_bad_set_value_names_the_set_and_the_nearest_variant(cli):
    done = cli("run", "default", "--set", 'ftl.garbage_collection.policy="cost-benefit"', "-q")
    said = _refused(done, '--set ftl.garbage_collection.policy="cost-benefit"', "unknown variant `cost-benefit`")
    assert "did you mean `cost_benefit`?" in said and "preset default" not in said


def test_an_unknown_set_key_suggests_the_nearest_key(cli):
    done = cli("run", "default", "--set", 'ftl.garbage_collection.polcy="greedy"', "-q")
    _refused(done, '--set ftl.garbage_collection.polcy="greedy"', "unknown field `polcy`", "did you mean `policy`?")


def test_a_set_value_refused_by_a_later_check_names_the_set(cli):
    done = cli("run", "default", "--set", "device.geometry.pages_per_block=0", "-q")
    said = _refused(done, "--set device.geometry.pages_per_block=0", "field `device.geometry.pages_per_block`")
    assert "preset default" not in said


def test_a_field_the_set_did_not_touch_is_still_found_in_the_file(cli, tmp_path: Path):
    config = tmp_path / "mine.toml"
    config.write_text(cli("presets", "show", "default").stdout.replace('policy = "greedy"', 'policy = "cost-benefit"'))
    done = cli("run", str(config), "--set", "workload.synthetic.requests=100", "-q")
    said = _refused(done, f"{config}:", "field `ftl.garbage_collection.policy`", "did you mean `cost_benefit`?")
    assert "--set" not in said


def test_an_ecc_spec_set_names_the_set(cli, tmp_path: Path):
    done = cli("ecc", "curve", "quick", "--set", "max_framez=5", "--out", str(tmp_path / "out"), "--no-cache", "-q")
    _refused(done, "--set max_framez=5", "did you mean `max_frames`?")


def test_an_inline_table_toml_cannot_read_reports_the_toml_error(cli):
    events = 'events=[{at_ns=99999999999999999999,action="retire_chip",chip=0}]'
    said = _refused(cli("run", "default", "--set", events, "-q"), "99999999999999999999", "beyond the integers a setting can hold")
    assert "invalid type: string" not in said
    events = 'events=[{at_ns=9,action="retire_chip",chip=0,chip=1}]'
    said = _refused(cli("run", "default", "--set", events, "-q"), "duplicate key", "`chip`")
    assert "invalid type: string" not in said


def test_an_integer_for_an_enum_lists_the_variants(cli):
    done = cli("run", "default", "--set", "ftl.garbage_collection.policy=3", "-q")
    said = _refused(done, "expected one of `greedy`, `round_robin`, `cost_benefit`, got integer 3")
    assert "unit variant" not in said


def test_a_column_map_error_names_the_map_once(cli, tmp_path: Path):
    trace = tmp_path / "t.csv"
    trace.write_text("0,W,0,4096\n1,R,0,4096\n")
    done = cli("run", "default", "--trace", str(trace), "--set", "workload.trace.columns={time=0,op=0,offset=2,size=3}", "-q")
    said = _refused(done, "field `workload.trace.columns`: op and time both name column 0")
    assert "columns.columns" not in said
    flow = f'host.flows=[{{name="replay",trace={{path="{trace}",format="columns",columns={{time=0,op=0,offset=2,size=3}}}}}}]'
    said = _refused(cli("run", "two-flows", "--set", flow, "-q"), "field `host.flows[0].trace.columns`: op and time both name column 0")
    assert "columns.columns" not in said


REPO = Path(__file__).resolve().parent.parent


def test_mqsim_default_describes_its_caches(cli):
    """Item 7a: the description ``presets list`` shows (the config's opening comment) names both caches."""
    listing = " ".join(cli("presets", "list").stdout.split())
    description = listing.split("mqsim-default ", 1)[1].split(" seed002-ldpc", 1)[0]
    assert "256 MiB data cache" in description and "2 MiB cached mapping table" in description, description


def _scrambler_runs(cli, tmp_path: Path) -> dict[str, dict]:
    """The three runs of docs/lba-scrambler.md's aged-drive example, as the page gives them."""
    text = (REPO / "docs" / "lba-scrambler.md").read_text(encoding="utf-8")
    block = text.split("AGED='", 1)[1].split("'\n", 1)[0]
    aged = block.split()  # as the shell splits an unquoted $AGED: quotes stay in the values
    commands = [line for line in text.splitlines() if line.startswith("ssdlab run seed003-scrambler $AGED")]
    assert len(commands) == 3, commands
    results = {}
    for index, command in enumerate(commands):
        words = shlex.split(command.replace("$AGED", ""))[2:]
        out = tmp_path / f"{index}.json"
        done = cli("run", *words[:1], *aged, *words[1:], "--json", str(out), "-q")
        assert done.returncode == 0, done.stderr
        result = json.loads(out.read_text())
        results[{"none": "conventional", "ftl": "trim", "middleware": "scrambler"}[result["deletes"]["target"]]] = result
    return results


def test_the_scrambler_example_shows_the_scrambler_at_work(cli, tmp_path: Path):
    """Item 7b: the page's example runs the scrambler where it changes something: fewer GC copies
    than the conventional drive, more than TRIM, through rule-2 writes."""
    runs = _scrambler_runs(cli, tmp_path)
    copied = {name: result["gc"]["pages_copied"] for name, result in runs.items()}
    assert copied["trim"] < copied["scrambler"] < copied["conventional"], copied
    assert runs["scrambler"]["middleware"]["rule2_victim_page_writes"] > 0
    assert runs["scrambler"]["write"]["mbps"] > runs["conventional"]["write"]["mbps"]


def test_the_readme_columns_example_shows_its_trace(cli, tmp_path: Path):
    """Item 7c: the README's --columns example says what its trace holds; a trace made from that
    description runs with the example's options."""
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if "--columns time=1" in line)
    described = re.findall(r'"([^"]+)"', lines[index - 1])
    assert lines[index - 1].startswith("# scsi.csv") and len(described) == 2, lines[index - 1]
    header, request = described
    trace = tmp_path / "scsi.csv"
    trace.write_text(f"{header}\n{request}\n")
    words = shlex.split(lines[index].split("#", 1)[0])[2:]
    words[words.index("scsi.csv")] = str(trace)
    out = tmp_path / "result.json"
    done = cli("run", *words, "--json", str(out), "-q")
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["requests"] == 1 and result["read"]["count"] == 1


def test_bench_says_what_it_runs_and_how_long_before_starting(cli):
    """Item 7d: every scenario has a measured time, the plan of a whole bench names each scenario
    and a total in minutes, and the CLI prints the plan before the first scenario."""
    assert all(seconds > 0 for seconds in bench.SECONDS_PER_RUN.values()) and set(bench.SECONDS_PER_RUN) == set(bench.SCENARIOS)
    everything = bench.plan(list(bench.SCENARIOS), bench.scenarios(Path("unused.csv")), 3)
    assert re.search(r"about \d+ min", everything), everything
    for key in bench.SCENARIOS:
        assert re.search(rf"\b{key} \d+ (s|min)\b", everything), (key, everything)
    done = cli("bench", "a", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert said.startswith("bench: scenarios a, one round: about"), said
    assert said.index("about") < said.index("a: 1M mixed requests")


def test_an_all_scm_summary_has_no_nand_figures(cli):
    """Item 7e: the All S-SCM SSD's summary leaves out NAND GC and write amplification and shows the
    SCM's own figures; a NAND device still shows them, and a run that wrote nothing to NAND says so."""
    small = ["--set", "workload.synthetic.requests=2000"]
    scm = " ".join(cli("run", "seed001-all-sscm", *small).stdout.split())
    assert "GC:" not in scm and "write amplification" not in scm and "die utilisation" not in scm, scm
    assert "S-SCM only" in scm and "SCM bank utilisation" in scm and "sectors written" in scm, scm
    hybrid = " ".join(cli("run", "seed001-hybrid-scm", *small).stdout.split())
    assert "write amplification" in hybrid and "GC:" in hybrid and "sectors written" in hybrid, hybrid
    reads = ["--set", "workload.synthetic.read_fraction=1.0", "--set", "ftl.precondition.enabled=false"]
    read_only = " ".join(cli("run", "default", *small, *reads).stdout.split())
    assert "NAND: nothing written during the run" in read_only and "GC:" not in read_only, read_only
    assert "write amplification 0.000" not in read_only, read_only
