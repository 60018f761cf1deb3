"""Runs the same input on ssdlab and MQSim and prints ssdlab's numbers beside MQSim's results XML.

MQSim is not a dependency: run it yourself and pass its results XML (or give ``--time MQSIM`` to have
the script run it). Two modes:

1. One MQSim ASCII trace on ssdlab's ``mqsim-default`` preset (issue 37). The script can write the
   MQSim workload XML that replays the trace (``--write-workload-xml``):

    .venv/bin/ssdlab trace generate mqsim-default /tmp/a.trace --to mqsim
    .venv/bin/python bench/mqsim_compare.py --trace /tmp/a.trace --write-workload-xml /tmp/a-workload.xml
    ./MQSim -i ssdconfig.xml -w /tmp/a-workload.xml          # in MQSim's folder; writes /tmp/a-workload_scenario_1.xml
    .venv/bin/python bench/mqsim_compare.py --trace /tmp/a.trace --mqsim-xml /tmp/a-workload_scenario_1.xml
    .venv/bin/python bench/mqsim_compare.py --trace /tmp/a.trace --time /path/to/MQSim   # CPU and memory of both, alternating

2. MQSim's own files through ssdlab's importer (issue 49): one IO_Scenario of a workload XML, every
   flow of it compared with the same flow of MQSim's results (flows matched in file order):

    .venv/bin/python bench/mqsim_compare.py --mqsim-config ssdconfig.xml --mqsim-workload workload.xml \\
        --scenario 1 --mqsim-xml workload_scenario_1.xml
    .venv/bin/python bench/mqsim_compare.py --mqsim-config ssdconfig.xml --mqsim-workload workload.xml \\
        --scenario 3 --time /path/to/MQSim                 # CPU time and peak memory of both, alternating

What is compared (MQSim's names in brackets, from ``IO_Flow_Base::Report_results_in_XML`` and the
FTL's report; docs/mqsim.md reads the differences):
- requests of each flow, reads and writes [Request_Count, Read_Request_Count, Write_Request_Count:
  requests generated];
- IOPS [IOPS]: MQSim divides by its simulated time in whole seconds (an integer division of its
  nanosecond clock, which starts at 0 and, for a trace, at time 0 of the trace, not its first
  arrival); ssdlab's is over the flow's span (first arrival to last completion);
- mean response time [End_to_End_Request_Delay: arrival to completion; Device_Response_Time: from
  the submission queue; both whole microseconds, truncated]; ssdlab's is from arrival to completion,
  split into reads and writes as well (MQSim reports one mean per flow);
- in the trace mode, flash commands [SSDDevice.FTL Issued_Flash_*_CMD] beside ssdlab's page operations.

``--time`` measures each whole process (user + system CPU seconds and peak resident memory, from the
operating system's accounting of the finished child, ``os.wait4``), running ssdlab and MQSim in turn
on the same files, ssdlab first, ``--repeat`` times each; MQSim runs a copy of the workload holding
the chosen IO_Scenario only, in a temporary folder (where it writes its results).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import NamedTuple

# MQSim's shipped drive as ssdlab's preset, and MQSim's trace-flow defaults for it.
DEFAULT_CONFIG = "mqsim-default"
WORKLOAD_XML = """<?xml version="1.0" encoding="us-ascii"?>
<MQSim_IO_Scenarios>
  <IO_Scenario>
    <IO_Flow_Parameter_Set_Trace_Based>
      <Priority_Class>HIGH</Priority_Class>
      <Device_Level_Data_Caching_Mode>WRITE_CACHE</Device_Level_Data_Caching_Mode>
      <Channel_IDs>0,1,2,3,4,5,6,7</Channel_IDs>
      <Chip_IDs>0,1,2,3</Chip_IDs>
      <Die_IDs>0,1</Die_IDs>
      <Plane_IDs>0,1</Plane_IDs>
      <Initial_Occupancy_Percentage>{occupancy}</Initial_Occupancy_Percentage>
      <File_Path>{trace}</File_Path>
      <Percentage_To_Be_Executed>100</Percentage_To_Be_Executed>
      <Relay_Count>1</Relay_Count>
      <Time_Unit>NANOSECOND</Time_Unit>
    </IO_Flow_Parameter_Set_Trace_Based>
  </IO_Scenario>
</MQSim_IO_Scenarios>
"""

# A flow's numbers in MQSim's results XML (Host.IO_Flow children), by our name.
MQSIM_FLOW_FIELDS = {
    "requests": "Request_Count",
    "read_requests": "Read_Request_Count",
    "write_requests": "Write_Request_Count",
    "iops": "IOPS",
    "read_iops": "IOPS_Read",
    "write_iops": "IOPS_Write",
    "bytes": "Bytes_Transferred",
    "device_response_us": "Device_Response_Time",
    "end_to_end_us": "End_to_End_Request_Delay",
    "max_end_to_end_us": "Max_End_to_End_Request_Delay",
}


class InputError(Exception):
    """A bad argument or an unreadable results file, named."""


def _read_results(path: Path) -> ElementTree.Element:
    try:
        return ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as error:
        raise InputError(f"--mqsim-xml {path}: cannot read MQSim's results ({error})") from None


def _number(path: Path, element: ElementTree.Element, name: str) -> float:
    """A number of MQSim's results: a flow's are child elements (``XmlWriter::Write_attribute_string``
    writes ``<name>value</name>``), the FTL's are attributes."""
    child = element.find(name)
    value = element.get(name) if child is None else child.text
    if value is None:
        raise InputError(f"--mqsim-xml {path}: {element.tag} has no attribute {name}")
    try:
        return float(value)
    except ValueError:
        raise InputError(f"--mqsim-xml {path}: {element.tag}.{name} = {value!r} is not a number") from None


def mqsim_results(path: Path) -> dict[str, float]:
    """The flow's and the FTL's numbers from MQSim's results XML (its first flow)."""
    root = _read_results(path)
    flow = next(root.iter("Host.IO_Flow"), None)
    ftl = next(root.iter("SSDDevice.FTL"), None)
    if flow is None or ftl is None:
        raise InputError(f"--mqsim-xml {path}: no Host.IO_Flow or SSDDevice.FTL element; is this MQSim's *_scenario_N.xml?")
    return {
        "requests": _number(path, flow, "Request_Count"),
        "read_requests": _number(path, flow, "Read_Request_Count"),
        "write_requests": _number(path, flow, "Write_Request_Count"),
        "iops": _number(path, flow, "IOPS"),
        "end_to_end_us": _number(path, flow, "End_to_End_Request_Delay"),
        "device_response_us": _number(path, flow, "Device_Response_Time"),
        "read_commands": _number(path, ftl, "Issued_Flash_Read_CMD"),
        "multi_plane_read_commands": _number(path, ftl, "Issued_Flash_Multiplane_Read_CMD"),
        "program_commands": _number(path, ftl, "Issued_Flash_Program_CMD"),
        "multi_plane_program_commands": _number(path, ftl, "Issued_Flash_Multiplane_Program_CMD"),
        "erase_commands": _number(path, ftl, "Issued_Flash_Erase_CMD"),
        "multi_plane_erase_commands": _number(path, ftl, "Issued_Flash_Multiplane_Erase_CMD"),
        "mapping_reads": _number(path, ftl, "Issued_Flash_Read_CMD_For_Mapping"),
        "mapping_programs": _number(path, ftl, "Issued_Flash_Program_CMD_For_Mapping"),
        "cmt_hits": _number(path, ftl, "CMT_Hits"),
        "cmt_misses": _number(path, ftl, "CMT_Misses"),
    }


def mqsim_flow_results(path: Path) -> list[dict[str, float | str]]:
    """Every flow of MQSim's results XML (``Host.IO_Flow``, in MQSim's flow order), by our names,
    with ``clock_seconds``: the whole seconds MQSim divided by (Request_Count / IOPS), None when no
    request was generated."""
    root = _read_results(path)
    flows = []
    for element in root.iter("Host.IO_Flow"):
        name = element.find("Name")
        flow: dict[str, float | str | None] = {"name": "" if name is None or name.text is None else name.text}
        for ours, theirs in MQSIM_FLOW_FIELDS.items():
            flow[ours] = _number(path, element, theirs)
        # IOPS is "inf" when MQSim's clock ends before one second (a division by 0 whole seconds).
        iops = flow["iops"]
        flow["clock_seconds"] = (0 if math.isinf(iops) else round(flow["requests"] / iops)) if iops else None
        flows.append(flow)
    if not flows:
        raise InputError(f"--mqsim-xml {path}: no Host.IO_Flow element; is this MQSim's *_scenario_N.xml?")
    return flows


def ssdlab_results(trace: Path, config: str, overrides: list[str]) -> dict[str, float]:
    """ssdlab's run of the trace on ``config`` (one crossing into Rust)."""
    from ssdlab import api

    result = api.run(config, overrides=[f"workload.trace.path={json.dumps(str(trace))}", *overrides])
    flash = result["flash"]
    return {
        "requests": result["requests_completed"],
        "read_requests": result["read"]["count"],
        "write_requests": result["write"]["count"],
        "iops": result["requests_completed"] / result["host_span_seconds"] if result["host_span_seconds"] else 0.0,
        "end_to_end_us": result["all"]["latency_us"]["mean"],
        "read_us": result["read"]["latency_us"]["mean"],
        "write_us": result["write"]["latency_us"]["mean"],
        "page_reads": flash["page_reads"],
        "multi_plane_reads": flash["multi_plane_reads"],
        "page_programs": flash["page_programs"],
        "multi_plane_programs": flash["multi_plane_programs"],
        "block_erases": flash["block_erases"],
        "gc_pages_copied": result["gc"]["pages_copied"],
        "data_cache_write_page_hits": (result.get("data_cache") or {}).get("write_page_hits", 0),
        "data_cache_read_page_hits": (result.get("data_cache") or {}).get("read_page_hits", 0),
        "wall_seconds": result["wall_seconds"],
        **_mapping_cache(result.get("mapping_cache")),
    }


def _mapping_cache(cmt: dict | None) -> dict[str, float]:
    """ssdlab's mapping-table cache numbers (none with the ideal mapping)."""
    if not cmt:
        return {}
    return {
        "mapping_reads": cmt["translation_page_reads"] + cmt["translation_page_reads_for_write_back"],
        "mapping_programs": cmt["translation_page_programs"],
        "cmt_hits": cmt["hits"],
        "cmt_misses": cmt["read_misses"] + cmt["write_misses"],
        "cmt_die_time_share": cmt["translation_die_time_share"],
    }


def imported_run(config: Path, workload: Path, scenario: int, overrides: list[str]) -> dict:
    """ssdlab's run of one IO_Scenario of MQSim's files through the importer (the whole result)."""
    from ssdlab import api, mqsim_import

    chosen = mqsim_import.select(mqsim_import.read_scenarios(config, workload, only=scenario), scenario, workload)[0]
    return api.run_text(chosen.toml, origin=f"{workload} (IO_Scenario {scenario})", overrides=overrides).to_dict()


def ssdlab_flow_results(result: dict) -> list[dict[str, float | str]]:
    """Each flow of an imported run, by the names ``mqsim_flow_results`` uses."""
    flows = result.get("flows")
    if not flows:
        raise InputError("ssdlab's result has no flows section (not an imported MQSim scenario?)")
    out = []
    for flow in flows["per_flow"]:
        out.append(
            {
                "name": flow["name"],
                "requests": flow["requests"],
                "read_requests": flow["read"]["count"],
                "write_requests": flow["write"]["count"],
                "iops": flow["iops"],
                "span_seconds": flow["span_seconds"],
                "end_to_end_us": flow["all"]["latency_us"]["mean"],
                "read_us": flow["read"]["latency_us"]["mean"],
                "write_us": flow["write"]["latency_us"]["mean"],
                "p99_us": flow["all"]["latency_us"]["p99"],
                "max_end_to_end_us": flow["all"]["latency_us"]["max"],
                "bytes": flow["all"]["bytes"],
            }
        )
    return out


def table(ours: dict[str, float], theirs: dict[str, float] | None) -> str:
    """The side-by-side table of the trace mode (MQSim's column empty without its results)."""

    def cell(source: dict[str, float] | None, key: str | None, digits: int = 1) -> str:
        if source is None or key is None or key not in source:
            return "-"
        value = source[key]
        return f"{value:,.{digits}f}" if digits else f"{value:,.0f}"

    rows = [
        ("requests", "requests", "requests", 0),
        ("read requests", "read_requests", "read_requests", 0),
        ("write requests", "write_requests", "write_requests", 0),
        ("IOPS", "iops", "iops", 0),
        ("mean response time, all requests, us (end to end)", "end_to_end_us", "end_to_end_us", 1),
        ("mean response time from the device queue, us (MQSim)", None, "device_response_us", 1),
        ("mean read latency, us (ssdlab)", "read_us", None, 1),
        ("mean write latency, us (ssdlab)", "write_us", None, 1),
        ("flash reads: ssdlab pages / MQSim single-plane commands", "page_reads", "read_commands", 0),
        ("multi-plane read commands", "multi_plane_reads", "multi_plane_read_commands", 0),
        ("flash programs: ssdlab pages / MQSim single-plane commands", "page_programs", "program_commands", 0),
        ("multi-plane program commands", "multi_plane_programs", "multi_plane_program_commands", 0),
        ("erases: ssdlab blocks / MQSim single-plane commands", "block_erases", "erase_commands", 0),
        ("multi-plane erase commands (MQSim)", None, "multi_plane_erase_commands", 0),
        ("GC pages copied (ssdlab)", "gc_pages_copied", None, 0),
        ("mapping-table (translation page) reads", "mapping_reads", "mapping_reads", 0),
        ("mapping-table (translation page) programs", "mapping_programs", "mapping_programs", 0),
        ("mapping-cache (CMT) hits", "cmt_hits", "cmt_hits", 0),
        ("mapping-cache (CMT) misses (MQSim: those served without a flash read)", "cmt_misses", "cmt_misses", 0),
        ("share of die time in translation reads and programs (ssdlab)", "cmt_die_time_share", None, 3),
        ("data cache write page hits (ssdlab)", "data_cache_write_page_hits", None, 0),
        ("data cache read page hits (ssdlab)", "data_cache_read_page_hits", None, 0),
    ]
    lines = ["| quantity | ssdlab | MQSim |", "|---|---|---|"]
    for label, our_key, their_key, digits in rows:
        lines.append(f"| {label} | {cell(ours, our_key, digits)} | {cell(theirs, their_key, digits)} |")
    if theirs is not None and theirs.get("end_to_end_us"):
        ratio = ours["end_to_end_us"] / theirs["end_to_end_us"]
        lines.append(f"\nssdlab / MQSim mean response time: {ratio:.2f}x (target: within 25 %, issue 37)")
    lines.append(f"ssdlab's run took {ours['wall_seconds']:.1f} s of wall time.")
    return "\n".join(lines)


def _fmt(value: float | str | None, digits: int) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return f"{value:,.{digits}f}" if digits else f"{value:,.0f}"


def _ratio(ours: float | str | None, theirs: float | str | None) -> str:
    # MQSim writes IOPS "inf" for a run shorter than one second (its division by whole seconds).
    if not isinstance(ours, (int, float)) or not isinstance(theirs, (int, float)) or theirs == 0 or not math.isfinite(theirs):
        return "-"
    return f"{ours / theirs:.2f}"


def flow_tables(ours: list[dict], theirs: list[dict] | None, simulated_seconds: float) -> str:
    """One table per flow (ssdlab, MQSim, ssdlab / MQSim); flows matched in file order."""
    if theirs is not None and len(theirs) != len(ours):
        raise InputError(f"--mqsim-xml has {len(theirs)} flow(s), ssdlab's run of the scenario {len(ours)}: not the same scenario?")
    rows = [
        # label, ssdlab key, MQSim key, digits, with a ratio
        ("requests", "requests", "requests", 0, True),
        ("read requests", "read_requests", "read_requests", 0, True),
        ("write requests", "write_requests", "write_requests", 0, True),
        ("IOPS (ssdlab: over the flow's span; MQSim: over its clock in whole seconds)", "iops", "iops", 0, True),
        ("seconds divided by (ssdlab: the flow's span; MQSim: Request_Count / IOPS)", "span_seconds", "clock_seconds", 3, False),
        ("mean response time, us (end to end)", "end_to_end_us", "end_to_end_us", 1, True),
        ("mean response time from the submission queue, us (MQSim)", None, "device_response_us", 1, False),
        ("mean read response time, us (ssdlab)", "read_us", None, 1, False),
        ("mean write response time, us (ssdlab)", "write_us", None, 1, False),
        ("p99 response time, us (ssdlab)", "p99_us", None, 1, False),
        ("max response time, us", "max_end_to_end_us", "max_end_to_end_us", 1, True),
        ("bytes transferred", "bytes", "bytes", 0, True),
    ]
    blocks = []
    for index, flow in enumerate(ours):
        other = theirs[index] if theirs is not None else None
        title = f"flow {index + 1}: ssdlab {flow['name']}" + (f", MQSim {other['name']}" if other else "")
        lines = [f"### {title}", "", "| quantity | ssdlab | MQSim | ssdlab / MQSim |", "|---|---|---|---|"]
        for label, our_key, their_key, digits, with_ratio in rows:
            mine = flow.get(our_key) if our_key else None
            yours = other.get(their_key) if other is not None and their_key else None
            ratio = _ratio(mine, yours) if with_ratio else "-"
            lines.append(f"| {label} | {_fmt(mine, digits)} | {_fmt(yours, digits)} | {ratio} |")
        blocks.append("\n".join(lines))
    blocks.append(f"ssdlab simulated {simulated_seconds:.3f} s.")
    return "\n\n".join(blocks)


class Measured(NamedTuple):
    """One finished process: user + system CPU seconds and peak resident memory (bytes). (A named
    tuple, not a dataclass: the tests load this script by path, outside ``sys.modules``.)"""

    cpu_seconds: float
    peak_rss_bytes: int
    exit_code: int


def measure(command: list[str], cwd: Path | None = None) -> Measured:
    """Runs ``command`` to its end and returns the operating system's accounting of that child
    (``os.wait4``: its CPU and its peak resident set, ``ru_maxrss`` in KiB on Linux)."""
    try:
        child = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError as error:
        raise InputError(f"cannot start {command[0]}: {error.strerror or error}") from None
    # Read stderr before waiting (a full pipe would block the child); wait4 then reaps it.
    with child.stderr:
        error_text = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise InputError(f"{' '.join(command)} exited {child.returncode}: {error_text.strip()[-500:]}")
    return Measured(usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, child.returncode)


def one_scenario_workload(workload: Path, scenario: int, folder: Path) -> Path:
    """A copy of ``workload`` holding its IO_Scenario ``scenario`` only, in ``folder``, with every
    relative File_Path made absolute (against the workload's folder, as the importer reads it), so
    that MQSim runs the same scenario from any folder and writes its results into ``folder``."""
    text = workload.read_text(encoding="ascii", errors="replace")
    scenarios = re.findall(r"<IO_Scenario>.*?</IO_Scenario>", text, re.S)
    if not 1 <= scenario <= len(scenarios):
        raise InputError(f"--scenario {scenario}: {workload} has {len(scenarios)} IO_Scenario(s), numbered from 1")

    def absolute(match: re.Match) -> str:
        path = Path(match.group(1).strip())
        return f"<File_Path>{path if path.is_absolute() else (workload.resolve().parent / path)}</File_Path>"

    chosen = re.sub(r"<File_Path>(.*?)</File_Path>", absolute, scenarios[scenario - 1], flags=re.S)
    copy = folder / "workload.xml"
    copy.write_text(f'<?xml version="1.0" encoding="us-ascii"?>\n<MQSim_IO_Scenarios>\n{chosen}\n</MQSim_IO_Scenarios>\n', encoding="ascii")
    return copy


def time_both(mqsim: Path, config: Path, workload: Path, scenario: int, overrides: list[str], repeat: int) -> str:
    """Runs ssdlab (its CLI, ``run --mqsim-config ... --quiet``) and MQSim in turn, ``repeat`` times
    each, and returns the table of CPU seconds and peak memory with the medians' ratio."""
    _check_binary(mqsim)
    ssdlab_command = [sys.executable, "-m", "ssdlab.cli", "run", "--mqsim-config", str(config), "--mqsim-workload", str(workload)]
    ssdlab_command += ["--scenario", str(scenario), "--quiet"]
    for override in overrides:
        ssdlab_command += ["--set", override]
    with tempfile.TemporaryDirectory(prefix="mqsim-compare-") as folder:
        copy = one_scenario_workload(workload, scenario, Path(folder))
        mqsim_command = [str(Path(mqsim).resolve()), "-i", str(config.resolve()), "-w", str(copy)]
        runs = _alternate(ssdlab_command, mqsim_command, Path(folder), repeat, mqsim)
    return _timing_table(runs)


def time_trace(
    mqsim: Path, ssdconfig: Path, trace: Path, config: str, overrides: list[str], occupancy: int, repeat: int
) -> tuple[str, dict[str, float]]:
    """Trace mode's timing: ssdlab's ``run CONFIG`` on the trace and MQSim with ``ssdconfig`` on a
    workload XML that replays it (the one ``--write-workload-xml`` writes), in turn, ``repeat``
    times each; returns the table of CPU seconds and peak memory with the medians' ratio, and
    MQSim's results (its last run's)."""
    _check_binary(mqsim)
    if not ssdconfig.is_file():
        raise InputError(f"--mqsim-config {ssdconfig}: no such file (MQSim's drive; its shipped ssdconfig.xml is in its folder)")
    ssdlab_command = [sys.executable, "-m", "ssdlab.cli", "run", config, "--set", f"workload.trace.path={json.dumps(str(trace.resolve()))}"]
    ssdlab_command += ["--quiet"]
    for override in overrides:
        ssdlab_command += ["--set", override]
    with tempfile.TemporaryDirectory(prefix="mqsim-compare-") as folder:
        workload = Path(folder) / "workload.xml"
        workload.write_text(WORKLOAD_XML.format(occupancy=occupancy, trace=trace.resolve()), encoding="ascii")
        mqsim_command = [str(Path(mqsim).resolve()), "-i", str(ssdconfig.resolve()), "-w", str(workload)]
        runs = _alternate(ssdlab_command, mqsim_command, Path(folder), repeat, mqsim)
        results = mqsim_results(Path(folder) / "workload_scenario_1.xml")
    return _timing_table(runs), results


def _check_binary(mqsim: Path) -> None:
    if shutil.which(str(mqsim)) is None:
        raise InputError(f"--time {mqsim}: not an executable file")


def _alternate(ssdlab_command: list[str], mqsim_command: list[str], folder: Path, repeat: int, mqsim: Path) -> dict[str, list[Measured]]:
    """Each simulator ``repeat`` times, in turn (ssdlab first), so a machine's drift from minute to
    minute falls on both alike. MQSim runs in ``folder``, where it writes ``workload_scenario_1.xml``."""
    runs: dict[str, list[Measured]] = {"ssdlab": [], "MQSim": []}
    for _ in range(repeat):
        runs["ssdlab"].append(measure(ssdlab_command))
        runs["MQSim"].append(measure(mqsim_command, cwd=folder))
        if not (folder / "workload_scenario_1.xml").is_file():
            raise InputError(f"--time {mqsim}: MQSim wrote no results (workload_scenario_1.xml) in {folder}")
    return runs


def _timing_table(runs: dict[str, list[Measured]]) -> str:
    """The runs side by side, their medians and the medians' ratios."""
    lines = ["| run | ssdlab CPU s | ssdlab peak MB | MQSim CPU s | MQSim peak MB |", "|---|---|---|---|---|"]
    for index, (mine, theirs) in enumerate(zip(runs["ssdlab"], runs["MQSim"]), start=1):
        lines.append(
            f"| {index} | {mine.cpu_seconds:.2f} | {mine.peak_rss_bytes / 1e6:,.0f} | {theirs.cpu_seconds:.2f} | {theirs.peak_rss_bytes / 1e6:,.0f} |"
        )
    ours_cpu = statistics.median(m.cpu_seconds for m in runs["ssdlab"])
    theirs_cpu = statistics.median(m.cpu_seconds for m in runs["MQSim"])
    ours_rss = statistics.median(m.peak_rss_bytes for m in runs["ssdlab"])
    theirs_rss = statistics.median(m.peak_rss_bytes for m in runs["MQSim"])
    lines.append(
        f"| median | {ours_cpu:.2f} | {ours_rss / 1e6:,.0f} | {theirs_cpu:.2f} | {theirs_rss / 1e6:,.0f} |\n\n"
        f"MQSim / ssdlab, whole process: CPU {theirs_cpu / ours_cpu:.1f}x, peak memory {theirs_rss / ours_rss:.1f}x"
        if ours_cpu > 0 and ours_rss > 0
        else f"| median | {ours_cpu:.2f} | {ours_rss / 1e6:,.0f} | {theirs_cpu:.2f} | {theirs_rss / 1e6:,.0f} |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", type=Path, help="trace mode: the MQSim ASCII trace both simulators replay")
    parser.add_argument(
        "--mqsim-config", type=Path, help="MQSim's SSD configuration (ssdconfig.xml): scenario mode's drive, or trace mode's with --time"
    )
    parser.add_argument("--mqsim-workload", type=Path, help="scenario mode: MQSim's workload file (its IO_Scenarios)")
    parser.add_argument("--scenario", type=int, default=1, help="scenario mode: the IO_Scenario to compare (from 1; default 1)")
    parser.add_argument("--mqsim-xml", type=Path, help="MQSim's results XML for that input (*_scenario_N.xml)")
    parser.add_argument(
        "--time",
        type=Path,
        metavar="MQSIM_BINARY",
        help="time ssdlab and this MQSim binary on the same input, alternating (trace mode: MQSim's drive is --mqsim-config, "
        "default ssdconfig.xml beside the binary)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="with --time: runs of each (default 3)")
    parser.add_argument("--config", default=DEFAULT_CONFIG, help=f"trace mode: ssdlab preset or config file (default {DEFAULT_CONFIG})")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="ssdlab config override (repeatable)")
    parser.add_argument("--write-workload-xml", type=Path, help="trace mode: write MQSim's workload XML for the trace here and stop")
    parser.add_argument(
        "--occupancy",
        type=int,
        default=2,
        help="MQSim's Initial_Occupancy_Percentage in that XML (default 2: about the 8 GiB footprint ssdlab's mqsim-default "
        "preconditions, of the 512 GiB drive)",
    )
    parser.add_argument("--json", type=Path, help="also write both sides as JSON here")
    args = parser.parse_args(argv)
    try:
        if args.trace is not None:
            return _trace_mode(args)
        return _scenario_mode(args)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _trace_mode(args: argparse.Namespace) -> int:
    if args.mqsim_workload is not None:
        raise InputError("--trace goes without --mqsim-workload (give one mode)")
    if args.mqsim_config is not None and args.time is None:
        raise InputError("--trace takes --mqsim-config only with --time (MQSim's drive for the timed runs)")
    if not args.trace.is_file():
        raise InputError(f"--trace {args.trace}: no such file")
    if args.repeat < 1:
        raise InputError(f"--repeat {args.repeat}: at least 1")
    if args.write_workload_xml is not None:
        if not 0 <= args.occupancy <= 100:
            raise InputError(f"--occupancy {args.occupancy}: must be a percentage, 0..100")
        args.write_workload_xml.write_text(WORKLOAD_XML.format(occupancy=args.occupancy, trace=args.trace.resolve()), encoding="ascii")
        print(f"wrote {args.write_workload_xml}: run MQSim -i ssdconfig.xml -w {args.write_workload_xml} in MQSim's folder")
        return 0
    theirs = mqsim_results(args.mqsim_xml) if args.mqsim_xml is not None else None
    timing = None
    if args.time is not None:
        # Timed first: MQSim's last timed run gives its results for the table when none are given.
        ssdconfig = args.mqsim_config if args.mqsim_config is not None else Path(args.time).resolve().parent / "ssdconfig.xml"
        timing, timed_results = time_trace(args.time, ssdconfig, args.trace, args.config, args.set, args.occupancy, args.repeat)
        theirs = theirs if theirs is not None else timed_results
    from ssdlab._native import ConfigurationError, TraceError

    try:
        ours = ssdlab_results(args.trace, args.config, args.set)
    except (ConfigurationError, TraceError) as error:
        # The simulator's message names the trace's line or the config's key, and why.
        raise InputError(str(error)) from None
    print(table(ours, theirs))
    if args.json is not None:
        args.json.write_text(json.dumps({"ssdlab": ours, "mqsim": theirs}, indent=2) + "\n", encoding="utf-8")
    if timing is not None:
        print()
        print(timing)
    return 0


def _scenario_mode(args: argparse.Namespace) -> int:
    if args.mqsim_config is None or args.mqsim_workload is None:
        raise InputError("give --trace TRACE, or --mqsim-config SSDCONFIG and --mqsim-workload WORKLOAD")
    for flag, path in (("--mqsim-config", args.mqsim_config), ("--mqsim-workload", args.mqsim_workload)):
        if not path.is_file():
            raise InputError(f"{flag} {path}: no such file")
    if args.scenario < 1:
        raise InputError(f"--scenario {args.scenario}: IO_Scenarios are numbered from 1")
    if args.repeat < 1:
        raise InputError(f"--repeat {args.repeat}: at least 1")
    if args.mqsim_xml is None and args.time is None:
        raise InputError("with --mqsim-config: give --mqsim-xml RESULTS.xml, --time MQSIM_BINARY, or both")
    if args.mqsim_xml is not None:
        from ssdlab._native import ConfigurationError, TraceError
        from ssdlab.usage import UsageError

        theirs = mqsim_flow_results(args.mqsim_xml)
        try:
            result = imported_run(args.mqsim_config, args.mqsim_workload, args.scenario, args.set)
        except (UsageError, ConfigurationError, TraceError) as error:
            # The importer's and the loader's messages name the file (and scenario), the element or key, and why.
            raise InputError(str(error)) from None
        ours = ssdlab_flow_results(result)
        print(flow_tables(ours, theirs, result["simulated_seconds"]))
        if args.json is not None:
            args.json.write_text(
                json.dumps({"ssdlab": ours, "ssdlab_simulated_seconds": result["simulated_seconds"], "mqsim": theirs}, indent=2) + "\n",
                encoding="utf-8",
            )
    if args.time is not None:
        print()
        print(time_both(args.time, args.mqsim_config, args.mqsim_workload, args.scenario, args.set, args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
