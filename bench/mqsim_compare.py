"""Replays one MQSim ASCII trace on ssdlab and prints it beside MQSim's results for the same trace.

MQSim is not a dependency: run it yourself and pass its results XML. The script can write the MQSim
workload XML for the trace (``--write-workload-xml``), so that both simulators replay the same
requests:

    .venv/bin/ssdlab trace generate mqsim-default /tmp/a.trace --to mqsim
    .venv/bin/python bench/mqsim_compare.py --trace /tmp/a.trace --write-workload-xml /tmp/a-workload.xml
    ./MQSim -i ssdconfig.xml -w /tmp/a-workload.xml          # in MQSim's folder; writes /tmp/a-workload_scenario_1.xml
    .venv/bin/python bench/mqsim_compare.py --trace /tmp/a.trace --mqsim-xml /tmp/a-workload_scenario_1.xml

What is compared (MQSim's names in brackets; docs/mqsim.md reads the differences):
- requests and IOPS of the flow [Host.IO_Flow Request_Count, IOPS];
- mean response time of all requests, end to end [End_to_End_Request_Delay, us] and from the device's
  submission queue [Device_Response_Time]; ssdlab's is from arrival to completion, split into reads
  and writes as well (MQSim reports one mean per flow);
- flash commands [SSDDevice.FTL Issued_Flash_*_CMD]: reads, programs and erases, single-plane and
  multi-plane, beside ssdlab's page operations and multi-plane commands.
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

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


class InputError(Exception):
    """A bad argument or an unreadable results file, named."""


def mqsim_results(path: Path) -> dict[str, float]:
    """The flow's and the FTL's numbers from MQSim's results XML (its first flow)."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as error:
        raise InputError(f"--mqsim-xml {path}: cannot read MQSim's results ({error})") from None
    flow = next(root.iter("Host.IO_Flow"), None)
    ftl = next(root.iter("SSDDevice.FTL"), None)
    if flow is None or ftl is None:
        raise InputError(f"--mqsim-xml {path}: no Host.IO_Flow or SSDDevice.FTL element; is this MQSim's *_scenario_N.xml?")

    def number(element: ElementTree.Element, name: str) -> float:
        # MQSim writes a flow's numbers as child elements and the FTL's as attributes.
        child = element.find(name)
        value = element.get(name) if child is None else child.text
        if value is None:
            raise InputError(f"--mqsim-xml {path}: {element.tag} has no attribute {name}")
        try:
            return float(value)
        except ValueError:
            raise InputError(f"--mqsim-xml {path}: {element.tag}.{name} = {value!r} is not a number") from None

    return {
        "requests": number(flow, "Request_Count"),
        "read_requests": number(flow, "Read_Request_Count"),
        "write_requests": number(flow, "Write_Request_Count"),
        "iops": number(flow, "IOPS"),
        "end_to_end_us": number(flow, "End_to_End_Request_Delay"),
        "device_response_us": number(flow, "Device_Response_Time"),
        "read_commands": number(ftl, "Issued_Flash_Read_CMD"),
        "multi_plane_read_commands": number(ftl, "Issued_Flash_Multiplane_Read_CMD"),
        "program_commands": number(ftl, "Issued_Flash_Program_CMD"),
        "multi_plane_program_commands": number(ftl, "Issued_Flash_Multiplane_Program_CMD"),
        "erase_commands": number(ftl, "Issued_Flash_Erase_CMD"),
        "multi_plane_erase_commands": number(ftl, "Issued_Flash_Multiplane_Erase_CMD"),
        "mapping_reads": number(ftl, "Issued_Flash_Read_CMD_For_Mapping"),
        "mapping_programs": number(ftl, "Issued_Flash_Program_CMD_For_Mapping"),
        "cmt_hits": number(ftl, "CMT_Hits"),
        "cmt_misses": number(ftl, "CMT_Misses"),
    }


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


def table(ours: dict[str, float], theirs: dict[str, float] | None) -> str:
    """The side-by-side table (MQSim's column empty without its results)."""

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", type=Path, required=True, help="MQSim ASCII trace both simulators replay")
    parser.add_argument("--mqsim-xml", type=Path, help="MQSim's results XML for that trace (*_scenario_1.xml)")
    parser.add_argument("--config", default=DEFAULT_CONFIG, help=f"ssdlab preset or config file (default {DEFAULT_CONFIG})")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="ssdlab config override (repeatable)")
    parser.add_argument("--write-workload-xml", type=Path, help="write MQSim's workload XML for the trace here and stop")
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
        if not args.trace.is_file():
            raise InputError(f"--trace {args.trace}: no such file")
        if args.write_workload_xml is not None:
            if not 0 <= args.occupancy <= 100:
                raise InputError(f"--occupancy {args.occupancy}: must be a percentage, 0..100")
            args.write_workload_xml.write_text(WORKLOAD_XML.format(occupancy=args.occupancy, trace=args.trace.resolve()), encoding="ascii")
            print(f"wrote {args.write_workload_xml}: run MQSim -i ssdconfig.xml -w {args.write_workload_xml} in MQSim's folder")
            return 0
        theirs = mqsim_results(args.mqsim_xml) if args.mqsim_xml is not None else None
        ours = ssdlab_results(args.trace, args.config, args.set)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(table(ours, theirs))
    if args.json is not None:
        args.json.write_text(json.dumps({"ssdlab": ours, "mqsim": theirs}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
