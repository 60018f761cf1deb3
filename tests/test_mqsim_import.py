"""MQSim's files imported (``ssdlab.mqsim_import``, ``ssdlab config import-mqsim``, ``ssdlab run
--mqsim-config/--mqsim-workload``): every element maps to its key, is listed as having no effect, or
is refused by name; malformed files exit 2 naming the file, the element's path and its line; the
shipped files (tests/data/mqsim, MQSim 7ec40e3) import, validate and, shrunken, run."""

from __future__ import annotations

import json
import math
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from ssdlab import mqsim_import
from ssdlab.mqsim_import import MqsimImportError

DATA = Path(__file__).parent / "data" / "mqsim"
# The shipped drive's logical pages per plane as ssdlab sizes a confined flow's range
# (host/flows/resources.rs): 8 x 4 x 2 x 2 planes of 2048 x 256 pages, 7 % over-provisioned.
PER_PLANE = int(8 * 4 * 2 * 2 * 2048 * 256 * (1.0 - 0.07)) // 128
SSD = DATA / "ssdconfig.xml"
WORKLOAD = DATA / "workload.xml"


def scenario(ssd: Path = SSD, workload: Path = WORKLOAD, number: int = 1) -> dict:
    text, _ = mqsim_import.import_text(ssd, workload, number)
    return tomllib.loads(text)


def edited(tmp_path: Path, source: Path, element: str, value: str, occurrence: int | None = None) -> Path:
    """A copy of `source` with `element`'s value replaced (every occurrence, or the n-th)."""
    text = source.read_text()
    pattern = re.compile(rf"<{element}>[^<]*</{element}>")
    matches = list(pattern.finditer(text))
    assert matches, f"{element} not in {source.name}"
    chosen = matches if occurrence is None else [matches[occurrence]]
    for match in reversed(chosen):
        text = text[: match.start()] + f"<{element}>{value}</{element}>" + text[match.end() :]
    path = tmp_path / source.name
    path.write_text(text)
    if source.parent == DATA and (DATA / "traces").exists() and not (tmp_path / "traces").exists():
        shutil.copytree(DATA / "traces", tmp_path / "traces")
    return path


def lookup(config: dict, key: str):
    """The value at a dotted key (`host.flows[1].mode`), or None where the config has none."""
    value = config
    for part in re.findall(r"[^.\[\]]+", key):
        try:
            value = value[int(part)] if isinstance(value, list) else value[part]
        except (KeyError, IndexError):
            return None
    return value


def test_shipped_files_import_every_scenario():
    scenarios = mqsim_import.read_scenarios(SSD, WORKLOAD)
    assert [s.index for s in scenarios] == [1, 2, 3]
    first = tomllib.loads(scenarios[0].toml)
    assert first["device"]["geometry"]["blocks_per_plane"] == 2048
    assert [flow["name"] for flow in first["host"]["flows"]] == ["flow1", "flow2"]
    assert first["host"]["flows"][0]["mode"] == "closed_loop" and first["host"]["flows"][0]["submission_queue_depth"] == 16
    # MQSim splits the logical space between the flows; the second flow starts where the first ends.
    assert first["host"]["flows"][1]["lba_offset_bytes"] == 499_289_856 * 512
    assert first["workload"]["synthetic"]["seed"] == 798 and first["host"]["flows"][1]["synthetic"]["seed"] == 6533
    assert first["ftl"]["precondition"]["enabled"] is False  # Enabled_Preconditioning = false
    third = tomllib.loads(scenarios[2].toml)
    assert third["workload"]["trace"]["path"] == str((DATA / "traces" / "tpcc-small.trace").resolve())
    # Each key names its element beside it, and the block of elements with no effect is there.
    assert "channels = 8  # <- Flash_Channel_Count" in scenarios[0].toml
    assert "Host_Parameter_Set/PCIe_Lane_Bandwidth, PCIe_Lane_Count = 1 GB/s x 4: ssdlab has no host link" in scenarios[0].toml


# (file, element, new value, key in the config, expected value); occurrence None: every one.
DEVICE_CHANGES = [
    ("Seed", "5", "seed", 5),
    ("Enabled_Preconditioning", "true", "ftl.precondition.fill_fraction", 0.75),
    ("IO_Queue_Depth", "8", "host.flows[0].submission_queue_depth", 8),
    ("Queue_Fetch_Size", "4", "host.flows[0].submission_queue_depth", 4),
    ("Data_Cache_Sharing_Mode", "EQUAL_PARTITIONING", "device.data_cache.sharing", "equal_partitioning"),
    ("Data_Cache_Capacity", "1048576", "device.data_cache.capacity_bytes", 1048576),
    ("Data_Cache_DRAM_Data_Rate", "200", "device.data_cache.bandwidth_mb_per_s", 800),
    ("Data_Cache_DRAM_Data_Busrt_Size", "2", "device.data_cache.bandwidth_mb_per_s", 800),
    ("Data_Cache_DRAM_tRCD", "20", "device.data_cache.access_latency_ns", 33),
    ("Data_Cache_DRAM_tCL", "20", "device.data_cache.access_latency_ns", 33),
    ("CMT_Capacity", "4194304", "device.mapping_cache.capacity_bytes", 4194304),
    ("CMT_Sharing_Mode", "EQUAL_PARTITIONING", "device.mapping_cache.sharing", "equal_partitioning"),
    ("Transaction_Scheduling_Policy", "OUT_OF_ORDER", "scheduler.policy", "out_of_order"),
    ("Transaction_Scheduling_Policy", "FLIN", "scheduler.policy", "flin"),
    ("Overprovisioning_Ratio", "0.2", "ftl.overprovisioning_fraction", 0.2),
    ("GC_Exec_Threshold", "0.1", "ftl.garbage_collection.low_watermark_blocks", 204),
    ("Use_Copyback_for_GC", "true", "ftl.garbage_collection.copyback", True),
    ("Preemptible_GC_Enabled", "true", "ftl.garbage_collection.mode", "preemptible"),
    ("Dynamic_Wearleveling_Enabled", "false", "ftl.wear_leveling.policy", "round_robin"),
    ("Preferred_suspend_erase_time_for_read", "500000", "scheduler.suspension.min_remaining_erase_for_read_ns", 500000),
    ("Preferred_suspend_erase_time_for_write", "400000", "scheduler.suspension.min_remaining_erase_for_write_ns", 400000),
    ("Preferred_suspend_write_time_for_read", "50000", "scheduler.suspension.min_remaining_program_for_read_ns", 50000),
    ("Flash_Channel_Count", "16", "device.geometry.channels", 16),
    ("Flash_Channel_Width", "2", "device.channel.bus_width_bits", 16),
    ("Channel_Transfer_Rate", "800", "device.channel.transfer_rate_mts", 800.0),
    ("Chip_No_Per_Channel", "4", "device.geometry.chips_per_channel", 4),
    ("Flash_Technology", "TLC", "device.nand.cell_type", "tlc"),
    ("CMD_Suspension_Support", "PROGRAM_ERASE", "scheduler.suspension.operations", "program_and_erase"),
    ("Page_Read_Latency_LSB", "50000", "device.nand.read_latency_ns", [50000, 75000]),
    ("Page_Read_Latency_MSB", "90000", "device.nand.read_latency_ns", [75000, 90000]),
    ("Page_Program_Latency_LSB", "500000", "device.nand.program_latency_ns", [500000, 750000]),
    ("Page_Program_Latency_MSB", "900000", "device.nand.program_latency_ns", [750000, 900000]),
    ("Block_Erase_Latency", "3000000", "device.nand.erase_latency_ns", 3000000),
    ("Block_PE_Cycles_Limit", "3000", "device.nand.endurance_pe_cycles", 3000),
    ("Suspend_Erase_Time", "600000", "scheduler.suspension.suspend_erase_ns", 600000),
    ("Suspend_Program_Time", "80000", "scheduler.suspension.suspend_program_ns", 80000),
    ("Die_No_Per_Chip", "4", "device.geometry.dies_per_chip", 4),
    ("Plane_No_Per_Die", "4", "device.geometry.planes_per_die", 4),
    ("Block_No_Per_Plane", "1024", "device.geometry.blocks_per_plane", 1024),
    ("Page_No_Per_Block", "128", "device.geometry.pages_per_block", 128),
    ("Page_Capacity", "4096", "device.geometry.page_size_bytes", 4096),
    ("Enable_ResponseTime_Logging", "true", "output.time_series_interval_ms", 1.0),
    # EQUAL_PARTITIONING between two flows confines every flow (all its channels); SHARED does not.
    ("Data_Cache_Sharing_Mode", "EQUAL_PARTITIONING", "host.flows[1].channels", list(range(8))),
    ("CMT_Sharing_Mode", "EQUAL_PARTITIONING", "host.flows[0].channels", list(range(8))),
]
# Every one of MQSim's 24 plane allocation orders but the default CWDP, in lower case.
DEVICE_CHANGES += [
    ("Plane_Allocation_Scheme", order, "ftl.plane_allocation_order", order.lower())
    for order in mqsim_import.PLANE_ALLOCATION
    if order != "CWDP"
]


@pytest.mark.parametrize(("element", "value", "key", "expected"), DEVICE_CHANGES, ids=[f"{c[0]}={c[1]}" for c in DEVICE_CHANGES])
def test_each_device_element_changes_its_key(tmp_path, element, value, key, expected):
    assert lookup(scenario(), key) != expected or element == "Chip_No_Per_Channel"
    changed = scenario(ssd=edited(tmp_path, SSD, element, value))
    assert lookup(changed, key) == expected


def test_logging_period_and_hard_threshold_map_when_they_apply(tmp_path):
    ssd = edited(tmp_path, SSD, "Enable_ResponseTime_Logging", "true")
    ssd = edited(tmp_path, ssd, "ResponseTime_Logging_Period_Length", "5000000")
    assert scenario(ssd=ssd)["output"]["time_series_interval_ms"] == 5.0
    ssd = edited(tmp_path, ssd, "Preemptible_GC_Enabled", "true")
    ssd = edited(tmp_path, ssd, "GC_Hard_Threshold", "0.01")
    assert scenario(ssd=ssd)["ftl"]["garbage_collection"]["write_hold_threshold_blocks"] == 20
    # RGA and GREEDY both map to greedy (RGA samples blocks at random; greedy takes the whole plane).
    greedy, _ = mqsim_import.import_text(edited(tmp_path, ssd, "GC_Block_Selection_Policy", "GREEDY"), WORKLOAD, 1)
    assert 'policy = "greedy"  # <- GC_Block_Selection_Policy = GREEDY' in greedy
    ssd = edited(tmp_path, ssd, "Ideal_Mapping_Table", "true")
    assert "mapping_cache" not in scenario(ssd=ssd)["device"]


# Elements with no ssdlab counterpart: listed, with their value, in the comment block.
NO_EFFECT = [
    ("PCIe_Lane_Bandwidth", "2.5", "PCIe_Lane_Bandwidth, PCIe_Lane_Count = 2.5 GB/s x 4"),
    ("PCIe_Lane_Count", "8", "PCIe_Lane_Bandwidth, PCIe_Lane_Count = 1 GB/s x 8"),
    ("SATA_Processing_Delay", "5", "SATA_Processing_Delay = 5"),
    ("ResponseTime_Logging_Period_Length", "7", "ResponseTime_Logging_Period_Length = 7"),
    ("Data_Cache_DRAM_Row_Size", "4096", "Data_Cache_DRAM_Row_Size, Data_Cache_DRAM_tRP = 4096 bytes, 13 ns"),
    ("Data_Cache_DRAM_tRP", "20", "Data_Cache_DRAM_Row_Size, Data_Cache_DRAM_tRP = 8192 bytes, 20 ns"),
    ("GC_Hard_Threshold", "0.01", "GC_Hard_Threshold = 0.01"),
    ("Static_Wearleveling_Threshold", "50", "Static_Wearleveling_Enabled, Static_Wearleveling_Threshold = true, 50"),
    ("Static_Wearleveling_Enabled", "false", "Static_Wearleveling_Threshold = 100: Static_Wearleveling_Enabled is false"),
    ("Page_Metadat_Capacity", "224", "Page_Metadat_Capacity = 224"),
    ("Page_Read_Latency_CSB", "1", "Page_Read_Latency_CSB, Page_Program_Latency_CSB = 1, 750000"),
    ("Page_Program_Latency_CSB", "2", "Page_Read_Latency_CSB, Page_Program_Latency_CSB = 75000, 2"),
    ("Memory_Type", "flash", None),
    ("HostInterface_Type", "NVME", None),
    ("Caching_Mechanism", "ADVANCED", None),
    ("Address_Mapping", "PAGE_LEVEL", None),
    ("Plane_Allocation_Scheme", "CWDP", None),
    ("Flash_Comm_Protocol", "NVDDR2", None),
]


@pytest.mark.parametrize(("element", "value", "listed"), NO_EFFECT, ids=[f"{c[0]}={c[1]}" for c in NO_EFFECT])
def test_elements_without_effect_are_listed_with_their_value(tmp_path, element, value, listed):
    text, _ = mqsim_import.import_text(edited(tmp_path, SSD, element, value), WORKLOAD, 1)
    if listed is not None:
        assert listed in text
    # Whatever the value, the config's keys are those of the shipped file (only comments differ).
    strip = lambda t: tomllib.loads(t)  # noqa: E731
    assert strip(text) == strip(mqsim_import.import_text(SSD, WORKLOAD, 1)[0])


REFUSED = [
    ("HostInterface_Type", "SATA", "SATA is refused"),
    ("Caching_Mechanism", "SIMPLE", "SIMPLE is refused"),
    ("Address_Mapping", "HYBRID", "HYBRID is refused"),
    ("GC_Block_Selection_Policy", "RANDOM_PP", "RANDOM_PP is refused"),
    ("GC_Block_Selection_Policy", "FIFO", "FIFO is refused"),
    ("Memory_Type", "PCM", "'PCM' is not one of FLASH"),
    ("Flash_Comm_Protocol", "TOGGLE", "'TOGGLE' is not one of NVDDR2"),
]


@pytest.mark.parametrize(("element", "value", "why"), REFUSED, ids=[f"{c[0]}={c[1]}" for c in REFUSED])
def test_device_values_ssdlab_cannot_honour_are_refused_by_name(tmp_path, element, value, why):
    with pytest.raises(MqsimImportError, match=re.escape(f"/{element}: ")) as error:
        mqsim_import.read_scenarios(edited(tmp_path, SSD, element, value), WORKLOAD)
    assert why in str(error.value)


# Workload elements: (element, value, occurrence, key, expected).
FLOW_CHANGES = [
    ("Priority_Class", "LOW", 1, "host.flows[1].priority_class", "low"),
    ("Device_Level_Data_Caching_Mode", "TURNED_OFF", None, "device.data_cache", None),
    ("Channel_IDs", "0,1", 0, "host.flows[0].channels", [0, 1]),
    ("Chip_IDs", "3", 0, "host.flows[0].chips", [3]),
    ("Die_IDs", "1", 0, "host.flows[0].dies", [1]),
    ("Plane_IDs", "0", 0, "host.flows[0].planes", [0]),
    # A flow on a subset confines the other flow too (MQSim counts every flow on its units), and
    # moves its range: 128 planes of 487,587 logical pages (8 KiB), the first flow's planes shared.
    ("Channel_IDs", "0,1", 0, "host.flows[1].channels", list(range(8))),
    ("Chip_IDs", "3", 1, "host.flows[0].channels", list(range(8))),
    ("Channel_IDs", "0,1", 0, "host.flows[1].lba_offset_bytes", 32 * (PER_PLANE // 2) * 8192),
    ("Chip_IDs", "3", 0, "host.flows[1].lba_offset_bytes", 32 * (PER_PLANE // 2) * 8192),
    ("Die_IDs", "1", 0, "host.flows[1].lba_offset_bytes", 64 * (PER_PLANE // 2) * 8192),
    ("Plane_IDs", "0", 0, "host.flows[1].lba_offset_bytes", 64 * (PER_PLANE // 2) * 8192),
    ("Plane_IDs", "0", 1, "host.flows[1].planes", [0]),
    ("Working_Set_Percentage", "25", 0, "workload.synthetic.span_bytes", 63909093376),
    ("Synthetic_Generator_Type", "BANDWIDTH", 1, "host.flows[1].mode", "open_loop"),
    ("Read_Percentage", "30", 1, "host.flows[1].synthetic.read_fraction", 0.3),
    ("Address_Distribution", "STREAMING", 0, "workload.synthetic.address.distribution", "sequential"),
    ("Generated_Aligned_Addresses", "false", 0, "workload.synthetic.alignment_bytes", 512),
    ("Address_Alignment_Unit", "8", 0, "workload.synthetic.alignment_bytes", 4096),
    ("Average_Request_Size", "16", 0, "workload.synthetic.size.bytes", 8192),
    ("Seed", "11", 1, "host.flows[1].synthetic.seed", 11),
    ("Average_No_of_Reqs_in_Queue", "4", 0, "host.flows[0].submission_queue_depth", 4),
    ("Stop_Time", "1000000000", 0, "workload.synthetic.stop_time_ns", 1_000_000_000),
    ("Stop_Time", "1000000000", 1, "host.flows[1].synthetic.stop_time_ns", 1_000_000_000),
    ("Total_Requests_To_Generate", "1234", 0, "workload.synthetic.requests", 1234),
]


@pytest.mark.parametrize(("element", "value", "occurrence", "key", "expected"), FLOW_CHANGES, ids=[f"{c[0]}={c[1]}" for c in FLOW_CHANGES])
def test_each_flow_element_changes_its_key(tmp_path, element, value, occurrence, key, expected):
    changed = scenario(workload=edited(tmp_path, WORKLOAD, element, value, occurrence))
    assert lookup(scenario(), key) != expected
    assert lookup(changed, key) == expected


def test_flow_elements_that_depend_on_others(tmp_path):
    workload = edited(tmp_path, WORKLOAD, "Address_Distribution", "RANDOM_HOTCOLD", 0)
    workload = edited(tmp_path, workload, "Percentage_of_Hot_Region", "20", 0)
    assert scenario(workload=workload)["workload"]["synthetic"]["address"] == {
        "distribution": "hot_cold",
        "hot_space_fraction": 0.2,
        "hot_access_fraction": 0.8,
    }
    workload = edited(tmp_path, workload, "Request_Size_Distribution", "NORMAL", 0)
    workload = edited(tmp_path, workload, "Variance_Request_Size", "4", 0)
    size = scenario(workload=workload)["workload"]["synthetic"]["size"]
    assert size["distribution"] == "choice" and abs(sum(size["weights"]) - 1.0) < 1e-6
    assert sum(b * w for b, w in zip(size["bytes"], size["weights"])) == pytest.approx(8.5 * 512, rel=0.02)  # E[ceil(X)]
    bandwidth = edited(tmp_path, WORKLOAD, "Synthetic_Generator_Type", "BANDWIDTH", 1)
    bandwidth = edited(tmp_path, bandwidth, "Intensity", "4096000", 1)
    flow = scenario(workload=bandwidth)["host"]["flows"][1]
    # 4,096,000 B/s of 8-sector requests: 1,000 a second, 1 ms apart; Stop_Time 10 s: about 10,000
    # arrivals, the bound 10 standard deviations (1,000) and 100 past them.
    assert flow["synthetic"]["arrival"] == {"process": "poisson", "mean_interarrival_ns": 1_000_000.0}
    assert flow["synthetic"]["stop_time_ns"] == 10_000_000_000
    assert flow["synthetic"]["requests"] == 11_100
    total = edited(tmp_path, WORKLOAD, "Stop_Time", "0", 0)
    total = edited(tmp_path, total, "Total_Requests_To_Generate", "1234", 0)
    assert scenario(workload=total)["workload"]["synthetic"]["requests"] == 1234
    assert "stop_time_ns" not in scenario(workload=total)["workload"]["synthetic"]
    occupancy = edited(tmp_path, SSD, "Enabled_Preconditioning", "true")
    assert scenario(ssd=occupancy, workload=edited(tmp_path, WORKLOAD, "Initial_Occupancy_Percentage", "40"))["ftl"]["precondition"][
        "fill_fraction"
    ] == pytest.approx(0.4)


def test_stop_time_becomes_the_flows_stop_with_requests_as_its_bound(tmp_path):
    first = scenario()["workload"]["synthetic"]
    # Shipped: Stop_Time 10 s, Total_Requests_To_Generate 0. QUEUE_DEPTH 16 of 4 KiB writes through the
    # data cache: the fastest a request is served is its DRAM time, 26 ns + 4096 B at 400 MB/s.
    assert first["stop_time_ns"] == 10_000_000_000
    assert first["requests"] == 16 * math.ceil(10_000_000_000 / (26 + 4096 / 0.4)) + 16
    # Without the data cache, the shortest program time (750 us).
    off = scenario(workload=edited(tmp_path, WORKLOAD, "Device_Level_Data_Caching_Mode", "TURNED_OFF"))
    assert off["workload"]["synthetic"]["requests"] == 16 * math.ceil(10_000_000_000 / 750_000) + 16
    # A non-zero Total_Requests_To_Generate is the bound beside the stop time.
    bounded = scenario(workload=edited(tmp_path, WORKLOAD, "Total_Requests_To_Generate", "500", 1))["host"]["flows"][1]["synthetic"]
    assert (bounded["requests"], bounded["stop_time_ns"]) == (500, 10_000_000_000)
    # Both 0: MQSim would generate nothing.
    nothing = edited(tmp_path, WORKLOAD, "Stop_Time", "0", 0)
    with pytest.raises(
        MqsimImportError,
        match=re.escape("IO_Scenario[1]/IO_Flow_Parameter_Set_Synthetic[1]/Total_Requests_To_Generate: 0 with Stop_Time = 0"),
    ):
        scenario(workload=nothing)
    # Reads of a drive never written take no time here: the comment block says the bound may end them.
    text, _ = mqsim_import.import_text(SSD, WORKLOAD, 2)
    assert "reads of pages never written take no time here" in text
    assert "stop_time_ns = 10000000000  # <- Stop_Time (ns): no request is issued at or after it" in text


def test_confined_and_partitioned_imports_load(tmp_path):
    """Subsets of units and EQUAL_PARTITIONING give configs the simulator's own loader accepts:
    every flow confined, ranges back to back, spans within them."""
    subsets = edited(tmp_path, WORKLOAD, "Channel_IDs", "0,1,2", 0)
    subsets = edited(tmp_path, subsets, "Plane_IDs", "1", 1)
    partitioned = edited(tmp_path, SSD, "Data_Cache_Sharing_Mode", "EQUAL_PARTITIONING")
    partitioned = edited(tmp_path, partitioned, "CMT_Sharing_Mode", "EQUAL_PARTITIONING")
    (tmp_path / "pdwc").mkdir()
    pdwc = edited(tmp_path / "pdwc", SSD, "Plane_Allocation_Scheme", "PDWC")
    for ssd, workload in ((SSD, subsets), (partitioned, WORKLOAD), (pdwc, subsets)):
        text, _ = mqsim_import.import_text(ssd, workload, 1)
        loaded = tomllib.loads(mqsim_import.validate(text))
        flows = loaded["host"]["flows"]
        assert all(any(key in flow for key in ("channels", "chips", "dies", "planes")) for flow in flows), flows
        first = scenario(ssd=ssd, workload=workload)["host"]["flows"]
        assert first[0]["lba_offset_bytes"] == 0 and first[1]["lba_offset_bytes"] > 0
    assert scenario(ssd=partitioned)["device"]["data_cache"]["sharing"] == "equal_partitioning"
    assert scenario(ssd=pdwc)["ftl"]["plane_allocation_order"] == "pdwc"
    # One flow alone: nothing to partition, no confinement.
    alone = scenario(ssd=partitioned, number=3)["host"]["flows"][0]
    assert "channels" not in alone


def test_trace_flow_elements(tmp_path):
    unit = edited(tmp_path, WORKLOAD, "Time_Unit", "MICROSECOND")
    assert scenario(workload=unit, number=3)["host"]["flows"][0]["time_scale"] == 1000.0
    for element, value, why in (
        ("Percentage_To_Be_Executed", "50", "ssdlab replays the whole trace"),
        ("Relay_Count", "2", "a flow replays its trace once"),
    ):
        with pytest.raises(MqsimImportError, match=re.escape(f"IO_Scenario[3]/IO_Flow_Parameter_Set_Trace_Based[1]/{element}: ")) as error:
            scenario(workload=edited(tmp_path, WORKLOAD, element, value), number=3)
        assert why in str(error.value)


def test_flow_values_ssdlab_cannot_honour_are_refused(tmp_path):
    with pytest.raises(MqsimImportError, match="READ_CACHE is refused"):
        scenario(workload=edited(tmp_path, WORKLOAD, "Device_Level_Data_Caching_Mode", "READ_CACHE", 0))
    with pytest.raises(MqsimImportError, match="Device_Level_Data_Caching_Mode: the flows differ"):
        scenario(workload=edited(tmp_path, WORKLOAD, "Device_Level_Data_Caching_Mode", "TURNED_OFF", 0))
    with pytest.raises(MqsimImportError, match="Channel_IDs: '0,9': id 9 is out of range 0..7"):
        scenario(workload=edited(tmp_path, WORKLOAD, "Channel_IDs", "0,9", 0))


MALFORMED = [
    ("ssd", "Page_Capacity", "abc", "Device_Parameter_Set/Flash_Parameter_Set/Page_Capacity: 'abc' is not a whole number", 66),
    ("ssd", "Block_No_Per_Plane", "-5", "Device_Parameter_Set/Flash_Parameter_Set/Block_No_Per_Plane: -5 is out of range", 64),
    ("ssd", "Overprovisioning_Ratio", "lots", "Device_Parameter_Set/Overprovisioning_Ratio: 'lots' is not a number", 32),
    ("workload", "Read_Percentage", "140", "IO_Scenario[1]/IO_Flow_Parameter_Set_Synthetic[1]/Read_Percentage: 140 is out of range", 14),
    ("workload", "Generated_Aligned_Addresses", "yes", "Generated_Aligned_Addresses: 'yes' is not true or false", 17),
]


@pytest.mark.parametrize(("which", "element", "value", "message", "line"), MALFORMED, ids=[c[1] for c in MALFORMED])
def test_malformed_values_exit_2_naming_file_element_and_line(cli, tmp_path, which, element, value, message, line):
    ssd = edited(tmp_path, SSD, element, value, 0) if which == "ssd" else SSD
    workload = edited(tmp_path, WORKLOAD, element, value, 0) if which == "workload" else WORKLOAD
    out = cli("config", "import-mqsim", str(ssd), str(workload))
    assert out.returncode == 2, out.stderr
    path = ssd if which == "ssd" else workload
    flat = " ".join(out.stderr.split())
    assert f"{path}:{line}:" in flat and message in flat, flat


def test_structural_errors_exit_2(cli, tmp_path):
    cases = {
        "unknown": SSD.read_text().replace("<Seed>321</Seed>", "<Seed>321</Seed><Sead>1</Sead>"),
        "broken": SSD.read_text().replace("</Flash_Parameter_Set>", ""),
        "root": "<Something/>",
    }
    expected = {
        "unknown": "Device_Parameter_Set/Sead: not an element MQSim reads here",
        "broken": "not well-formed XML",
        "root": "an MQSim SSD configuration has <Execution_Parameter_Set>",
    }
    for name, text in cases.items():
        path = tmp_path / f"{name}.xml"
        path.write_text(text)
        out = cli("config", "import-mqsim", str(path), str(WORKLOAD))
        assert out.returncode == 2 and expected[name] in " ".join(out.stderr.split()), (name, out.stderr)
    missing = tmp_path / "missing.xml"
    missing.write_text(WORKLOAD.read_text().replace("<Read_Percentage>0</Read_Percentage>", "", 1))
    out = cli("config", "import-mqsim", str(SSD), str(missing))
    assert out.returncode == 2
    assert "IO_Scenario[1]/IO_Flow_Parameter_Set_Synthetic[1]/Read_Percentage: missing" in " ".join(out.stderr.split())
    assert cli("config", "import-mqsim", str(SSD)).returncode == 2
    assert cli("config", "import-mqsim", str(SSD), str(WORKLOAD), "--scenario", "4").returncode == 2


def test_missing_trace_names_file_path(cli, tmp_path):
    workload = tmp_path / "workload.xml"
    shutil.copy(WORKLOAD, workload)
    # Scenario 1 does not need the trace; scenario 3 names the element and where it looked.
    with pytest.raises(MqsimImportError) as error:
        scenario(workload=workload, number=3)
    assert "IO_Scenario[3]/IO_Flow_Parameter_Set_Trace_Based[1]/File_Path: 'traces/tpcc-small.trace': no such trace file" in str(
        error.value
    )
    assert f"{tmp_path}/traces/tpcc-small.trace" in str(error.value)
    assert scenario(workload=workload, number=1)["name"] == "mqsim-workload-scenario-1"
    out = cli("run", "--mqsim-config", str(SSD), "--mqsim-workload", str(workload), "--scenario", "3", "-q")
    assert out.returncode == 2 and "File_Path" in out.stderr


def test_shipped_scenarios_validate(cli):
    for number in (1, 2, 3):
        out = cli("config", "import-mqsim", str(SSD), str(WORKLOAD), "--scenario", str(number))
        assert out.returncode == 0, out.stderr
        tomllib.loads(out.stdout)


def shrunken(tmp_path: Path) -> tuple[Path, Path]:
    """MQSim's shipped files on a tiny drive (2 channels x 1 chip x 1 die x 2 planes x 64 blocks x 32
    pages) with stops of 2 ms: the same elements, seconds less."""
    ssd = SSD
    for element, value in (
        ("Flash_Channel_Count", "2"),
        ("Chip_No_Per_Channel", "1"),
        ("Die_No_Per_Chip", "1"),
        ("Block_No_Per_Plane", "64"),
        ("Page_No_Per_Block", "32"),
        ("Data_Cache_Capacity", "1048576"),
        ("CMT_Capacity", "65536"),
        ("Overprovisioning_Ratio", "0.2"),
    ):
        ssd = edited(tmp_path, ssd, element, value)
    workload = WORKLOAD
    for element, value in (("Channel_IDs", "0,1"), ("Chip_IDs", "0"), ("Die_IDs", "0"), ("Stop_Time", "2000000")):
        workload = edited(tmp_path, workload, element, value)
    return ssd, workload


def test_shrunken_shipped_scenario_runs_and_prints_each_flow(cli, tmp_path):
    ssd, workload = shrunken(tmp_path)
    out = cli("run", "--mqsim-config", str(ssd), "--mqsim-workload", str(workload), "--scenario", "1")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "2 flows" in text and "flow1 (high):" in text and "flow2 (high):" in text
    out = cli("run", "--mqsim-config", str(ssd), "--mqsim-workload", str(workload), "--scenario", "2")
    assert out.returncode == 0, out.stderr
    assert "flow1 (urgent):" in " ".join(out.stdout.split())


def test_two_flows_on_disjoint_channels_run_end_to_end(cli, tmp_path):
    """The shrunken scenario 1 with flow 1 on channel 0 and flow 2 on channel 1: both confined,
    each on its own channel, run through the CLI, each flow printed, each stopped at 2 ms."""
    ssd, workload = shrunken(tmp_path)
    workload = edited(tmp_path, workload, "Channel_IDs", "0", 0)
    workload = edited(tmp_path, workload, "Channel_IDs", "1", 1)
    flows = scenario(ssd=ssd, workload=workload)["host"]["flows"]
    assert [flow["channels"] for flow in flows] == [[0], [1]]
    result_path = tmp_path / "result.json"
    out = cli("run", "--mqsim-config", str(ssd), "--mqsim-workload", str(workload), "--scenario", "1", "--json", str(result_path))
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "flow1 (high):" in text and "flow2 (high):" in text
    per_flow = {flow["name"]: flow for flow in json.loads(result_path.read_text())["flows"]["per_flow"]}
    assert set(per_flow) == {"flow1", "flow2"} and all(flow["requests"] > 0 for flow in per_flow.values())
    # Closed loop with a stop time of 2 ms: nothing issued at or after it, far fewer than the bound.
    bounds = [flow["synthetic"]["requests"] if "synthetic" in flow else None for flow in flows]
    assert per_flow["flow2"]["requests"] < bounds[1]


def test_run_options_go_together(cli):
    out = cli("run", "--mqsim-config", str(SSD))
    assert out.returncode == 2 and "go together" in out.stderr
    out = cli("run", "default", "--mqsim-config", str(SSD), "--mqsim-workload", str(WORKLOAD), "--trace", str(SSD))
    assert out.returncode == 2
