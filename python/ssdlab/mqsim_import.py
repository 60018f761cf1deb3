"""MQSim's configuration files as ssdlab configs: ``ssdlab config import-mqsim`` and ``ssdlab run
--mqsim-config/--mqsim-workload``.

What it models: every element MQSim (CMU-SAFARI/MQSim at 7ec40e3) reads from its SSD configuration
(``Execution_Parameter_Set``: ``Host_Parameter_Set``, ``Device_Parameter_Set`` and its
``Flash_Parameter_Set``) and from its workload file (``MQSim_IO_Scenarios``: ``IO_Scenario``s of
``IO_Flow_Parameter_Set_Synthetic`` and ``IO_Flow_Parameter_Set_Trace_Based`` flows) is read and
either mapped to the ssdlab key it corresponds to (with its unit converted; the TOML names the
element beside the key), listed in a comment block as having no effect here (with why), or refused
with its name, its value and why. Each IO_Scenario becomes one config (one ``[[host.flows]]`` per
flow; MQSim gives each flow its own logical address range, reproduced with ``lba_offset_bytes``).
What it leaves out: MQSim's own defaults for the workload elements (MQSim leaves most of them
uninitialised when absent, so they are required here), and anything MQSim does not read (an unknown
element is an error here, where MQSim ignores it). Source: MQSim's ``src/exec/*_Parameter_Set.cpp``
(parsing, defaults), ``src/exec/SSD_Device.cpp``, ``src/exec/Host_System.cpp``,
``src/host/IO_Flow_Synthetic.cpp``, ``src/host/IO_Flow_Trace_Based.cpp``,
``src/utils/Logical_Address_Partitioning_Unit.cpp`` and ``src/ssd/*`` (meanings and units);
docs/mqsim.md has the table element by element.
"""

from __future__ import annotations

import json
import math
import xml.parsers.expat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssdlab.usage import UsageError

SECTOR_BYTES = 512  # MQSim's SECTOR_SIZE_IN_BYTE: request sizes, addresses and alignments are in sectors.
NANOSECONDS_PER_SECOND = 1_000_000_000  # MQSim's NanoSecondCoeff


class MqsimImportError(UsageError):
    """An MQSim file that cannot be imported: the message names the file, the element (its path)
    and its line, the value and why (the CLI exits 2)."""


@dataclass
class Element:
    """One XML element with the line it starts on."""

    tag: str
    line: int
    children: list[Element] = field(default_factory=list)
    text: str = ""


def parse_xml(path: Path) -> Element:
    """The document's root element, with the line of every element (expat; the stdlib's
    ElementTree keeps no line numbers)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise MqsimImportError(f"{path}: no such file") from None
    except OSError as error:
        raise MqsimImportError(f"{path}: cannot read: {error.strerror or error}") from None
    parser = xml.parsers.expat.ParserCreate()
    stack: list[Element] = []
    roots: list[Element] = []

    def start(tag: str, attributes: dict[str, str]) -> None:
        element = Element(tag, parser.CurrentLineNumber)
        if attributes:
            raise MqsimImportError(f"{path}:{element.line}: <{tag}> has attributes ({', '.join(attributes)}); MQSim reads elements only")
        (stack[-1].children if stack else roots).append(element)
        stack.append(element)

    def end(tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if stack:
            stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as error:
        raise MqsimImportError(f"{path}:{error.lineno}: not well-formed XML: {xml.parsers.expat.ErrorString(error.code)}") from None
    return roots[0]


@dataclass
class Mapped:
    """One ssdlab key and the MQSim elements it came from (for the comment beside it)."""

    key: str
    value: Any
    source: str


class Section:
    """The children of one parameter set, read element by element: each read marks the element
    used; :meth:`finish` refuses any element left (unknown to MQSim) and duplicates."""

    def __init__(self, file: Path, element: Element, path: str):
        self.file = file
        self.element = element
        self.path = path
        self.values: dict[str, Element] = {}
        self.used: set[str] = set()
        for child in element.children:
            if child.tag in self.values:
                raise self.error(child.tag, f"given twice (lines {self.values[child.tag].line} and {child.line})", child)
            self.values[child.tag] = child

    def where(self, name: str, child: Element | None = None) -> str:
        child = child or self.values.get(name)
        line = child.line if child is not None else self.element.line
        return f"{self.file}:{line}: {self.path}/{name}"

    def error(self, name: str, message: str, child: Element | None = None) -> MqsimImportError:
        return MqsimImportError(f"{self.where(name, child)}: {message}")

    def has(self, name: str) -> bool:
        return name in self.values

    def raw(self, name: str, default: str | None = None, required: bool = False) -> str | None:
        self.used.add(name)
        child = self.values.get(name)
        if child is None:
            if required:
                raise MqsimImportError(f"{self.file}:{self.element.line}: {self.path}/{name}: missing (MQSim has no default for it)")
            return default
        if child.children:
            raise self.error(name, f"holds elements ({', '.join(c.tag for c in child.children)}); a value is expected")
        return child.text.strip()

    def integer(
        self, name: str, default: int | None = None, *, minimum: int = 0, maximum: int | None = None, required: bool = False
    ) -> int:
        text = self.raw(name, None if default is None else str(default), required or default is None)
        try:
            value = int(text, 10)
        except (TypeError, ValueError):
            raise self.error(name, f"{text!r} is not a whole number") from None
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
            raise self.error(name, f"{value} is out of range: must be {bound}")
        return value

    def number(self, name: str, default: float | None = None, *, minimum: float = 0.0, maximum: float | None = None) -> float:
        text = self.raw(name, None if default is None else repr(default), default is None)
        try:
            value = float(text)
        except (TypeError, ValueError):
            raise self.error(name, f"{text!r} is not a number") from None
        if not math.isfinite(value) or value < minimum or (maximum is not None and value > maximum):
            bound = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
            raise self.error(name, f"{text} is out of range: must be {bound}")
        return value

    def flag(self, name: str, default: bool | None = None) -> bool:
        text = self.raw(name, None if default is None else str(default).lower(), default is None)
        upper = text.upper()
        # MQSim reads anything but FALSE as true; here only true and false are accepted, so a typo is not "true".
        if upper not in ("TRUE", "FALSE"):
            raise self.error(name, f"{text!r} is not true or false")
        return upper == "TRUE"

    def choice(self, name: str, choices: tuple[str, ...], default: str | None = None) -> str:
        text = self.raw(name, default, default is None)
        upper = text.upper()  # MQSim upper-cases these values before comparing
        if upper not in choices:
            raise self.error(name, f"{text!r} is not one of {', '.join(choices)}")
        return upper

    def id_list(self, name: str, count: int) -> list[int]:
        """A comma-separated list of ids below `count` (MQSim: a set, so sorted and without repeats)."""
        text = self.raw(name, required=True)
        ids: set[int] = set()
        for part in text.split(","):
            try:
                value = int(part.strip(), 10)
            except ValueError:
                raise self.error(
                    name, f"{text!r}: {part.strip()!r} is not an id (a comma-separated list of whole numbers is expected)"
                ) from None
            if not 0 <= value < count:
                raise self.error(name, f"{text!r}: id {value} is out of range 0..{count - 1}")
            ids.add(value)
        return sorted(ids)

    def value_of(self, name: str) -> str:
        child = self.values.get(name)
        return child.text.strip() if child is not None else "(absent)"

    def finish(self) -> None:
        for name, child in self.values.items():
            if name not in self.used:
                raise self.error(name, "not an element MQSim reads here (MQSim would ignore it silently); remove it or fix its name", child)


# Elements with no ssdlab counterpart: listed in the config's comment block with the reason.
@dataclass
class Unmodelled:
    element: str
    value: str
    why: str


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml_value(item)}" for key, item in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


@dataclass
class Device:
    """What the SSD configuration maps to: (table, key, value, source) entries and the elements
    with no effect."""

    entries: list[tuple[str, str, Any, str]]
    unmodelled: list[Unmodelled]
    geometry: dict[str, int]
    overprovisioning: float
    preconditioning: bool
    data_cache: bool
    sharing: dict[str, str]
    io_queue_depth: int
    queue_fetch_size: int
    seed: int


@dataclass
class Scenario:
    """One IO_Scenario as an ssdlab config."""

    index: int
    name: str
    toml: str
    unmodelled: list[Unmodelled]


# MQSim's values of its enumerations, as its parsers accept them (upper-cased).
SCHEDULING = {"OUT_OF_ORDER": "out_of_order", "PRIORITY_OUT_OF_ORDER": "priority_out_of_order", "FLIN": "flin"}
SUSPENSION = {"NONE": "none", "PROGRAM": "program", "ERASE": "erase", "PROGRAM_ERASE": "program_and_erase"}
SHARING = {"SHARED": "shared", "EQUAL_PARTITIONING": "equal_partitioning"}
PLANE_ALLOCATION = tuple(
    "".join(order)
    for order in (
        "CDPW CDWP CPDW CPWD CWDP CWPD DCPW DCWP DPCW DPWC DWCP DWPC PCDW PCWD PDCW PDWC PWCD PWDC WCDP WCPD WDCP WDPC WPCD WPDC".split()
    )
)
GC_POLICIES = ("GREEDY", "RGA", "RANDOM", "RANDOM_P", "RANDOM_PP", "FIFO")


def read_device(path: Path) -> Device:
    """Reads MQSim's SSD configuration file (``Execution_Parameter_Set``)."""
    root = parse_xml(path)
    if root.tag != "Execution_Parameter_Set":
        raise MqsimImportError(
            f"{path}:{root.line}: the root element is <{root.tag}>; an MQSim SSD configuration has <Execution_Parameter_Set>"
        )
    top = Section(path, root, "Execution_Parameter_Set")
    entries: list[tuple[str, str, Any, str]] = []
    unmodelled: list[Unmodelled] = []

    def put(table: str, key: str, value: Any, source: str) -> None:
        entries.append((table, key, value, source))

    # Host_Parameter_Set (MQSim's defaults where absent: Host_Parameter_Set.cpp).
    host_element = top.values.get("Host_Parameter_Set")
    top.used.add("Host_Parameter_Set")
    host = Section(path, host_element or Element("Host_Parameter_Set", root.line), "Host_Parameter_Set")
    lane_bandwidth = host.number("PCIe_Lane_Bandwidth", 0.4)
    lane_count = host.integer("PCIe_Lane_Count", 4, minimum=1)
    unmodelled.append(
        Unmodelled(
            "Host_Parameter_Set/PCIe_Lane_Bandwidth, PCIe_Lane_Count",
            f"{lane_bandwidth:g} GB/s x {lane_count}",
            "ssdlab has no host link: a command and its data reach the controller at no cost (MQSim's link adds "
            f"{4096 / (lane_bandwidth * lane_count):.2f} ns per 4 KiB at this bandwidth)",
        )
    )
    sata_delay = host.integer("SATA_Processing_Delay", 0)
    unmodelled.append(
        Unmodelled(
            "Host_Parameter_Set/SATA_Processing_Delay",
            str(sata_delay),
            "used by MQSim's SATA interface only; SATA is refused (HostInterface_Type)",
        )
    )
    logging = host.flag("Enable_ResponseTime_Logging", False)
    period = host.integer("ResponseTime_Logging_Period_Length", 400_000, minimum=1)
    if logging:
        # MQSim logs each flow's mean response time per period; ssdlab's time series records the run per interval.
        put(
            "output",
            "time_series_interval_ms",
            period / 1e6,
            f"Enable_ResponseTime_Logging = true, ResponseTime_Logging_Period_Length = {period} ns",
        )
    else:
        unmodelled.append(
            Unmodelled(
                "Host_Parameter_Set/ResponseTime_Logging_Period_Length",
                str(period),
                "Enable_ResponseTime_Logging is false: nothing is logged",
            )
        )
    host.finish()

    device_element = top.values.get("Device_Parameter_Set")
    top.used.add("Device_Parameter_Set")
    if device_element is None:
        raise MqsimImportError(f"{path}:{root.line}: Execution_Parameter_Set/Device_Parameter_Set: missing")
    top.finish()
    device = Section(path, device_element, "Device_Parameter_Set")
    seed = device.integer("Seed", 123)
    preconditioning = device.flag("Enabled_Preconditioning", True)
    memory = device.choice("Memory_Type", ("FLASH",), "FLASH")
    del memory  # FLASH is the only value MQSim knows; ssdlab's [device] is NAND flash
    interface = device.choice("HostInterface_Type", ("NVME", "SATA"), "NVME")
    if interface == "SATA":
        raise device.error(
            "HostInterface_Type",
            "SATA is refused: MQSim's SATA model merges every flow into one NCQ with SATA_Processing_Delay per message; ssdlab models NVMe submission queues only",
        )
    io_queue_depth = device.integer("IO_Queue_Depth", 1024, minimum=1, maximum=65535)
    queue_fetch_size = device.integer("Queue_Fetch_Size", 512, minimum=1, maximum=65535)
    caching = device.choice("Caching_Mechanism", ("SIMPLE", "ADVANCED"), "ADVANCED")
    if caching == "SIMPLE":
        raise device.error(
            "Caching_Mechanism",
            "SIMPLE is refused: ssdlab's data cache models MQSim's ADVANCED manager (LRU lines, background write-back); the simple one is not modelled",
        )
    data_cache_sharing = SHARING[device.choice("Data_Cache_Sharing_Mode", tuple(SHARING), "SHARED")]
    cache_capacity = device.integer("Data_Cache_Capacity", 512 * 1024 * 1024, minimum=1)
    row_size = device.integer("Data_Cache_DRAM_Row_Size", 8192, minimum=1)
    data_rate = device.integer("Data_Cache_DRAM_Data_Rate", 800, minimum=1)
    burst = device.integer("Data_Cache_DRAM_Data_Busrt_Size", 4, minimum=1)
    trcd = device.integer("Data_Cache_DRAM_tRCD", 13)
    tcl = device.integer("Data_Cache_DRAM_tCL", 13)
    trp = device.integer("Data_Cache_DRAM_tRP", 13)
    mapping = device.choice("Address_Mapping", ("PAGE_LEVEL", "HYBRID"), "PAGE_LEVEL")
    if mapping == "HYBRID":
        raise device.error(
            "Address_Mapping", "HYBRID is refused: ssdlab's FTL maps pages (PAGE_LEVEL); MQSim's hybrid unit is not modelled"
        )
    ideal_mapping = device.flag("Ideal_Mapping_Table", False)
    cmt_capacity = device.integer("CMT_Capacity", 2 * 1024 * 1024, minimum=1)
    cmt_sharing = SHARING[device.choice("CMT_Sharing_Mode", tuple(SHARING), "SHARED")]
    plane_allocation = device.choice("Plane_Allocation_Scheme", PLANE_ALLOCATION, "CWDP")
    scheduling = SCHEDULING[device.choice("Transaction_Scheduling_Policy", tuple(SCHEDULING), "OUT_OF_ORDER")]
    overprovisioning = device.number("Overprovisioning_Ratio", 0.07, maximum=0.95)
    gc_threshold = device.number("GC_Exec_Threshold", 0.05, maximum=1.0)
    gc_policy = device.choice("GC_Block_Selection_Policy", GC_POLICIES, "RGA")
    if gc_policy not in ("GREEDY", "RGA"):
        raise device.error(
            "GC_Block_Selection_Policy",
            f"{gc_policy} is refused: ssdlab's victim policies are greedy, round_robin and cost_benefit; MQSim's {gc_policy} picks blocks at random or by age, which none of them does",
        )
    copyback = device.flag("Use_Copyback_for_GC", False)
    preemptible = device.flag("Preemptible_GC_Enabled", True)
    hard_threshold = device.number("GC_Hard_Threshold", 0.005, maximum=1.0)
    dynamic_wear_leveling = device.flag("Dynamic_Wearleveling_Enabled", True)
    static_wear_leveling = device.flag("Static_Wearleveling_Enabled", True)
    static_threshold = device.integer("Static_Wearleveling_Threshold", 100)
    # MQSim's parser reads "Prefered_suspend_erase_time_for_read" (one r): the shipped file's
    # spelling is ignored there. Both are read here; the element's meaning is the same.
    erase_for_read_name = (
        "Prefered_suspend_erase_time_for_read"
        if device.has("Prefered_suspend_erase_time_for_read")
        else "Preferred_suspend_erase_time_for_read"
    )
    if device.has("Prefered_suspend_erase_time_for_read") and device.has("Preferred_suspend_erase_time_for_read"):
        raise device.error("Prefered_suspend_erase_time_for_read", "given under both spellings (Prefered_ and Preferred_); give one")
    erase_for_read = device.integer(erase_for_read_name, 700_000)
    erase_for_write = device.integer("Preferred_suspend_erase_time_for_write", 700_000)
    program_for_read = device.integer("Preferred_suspend_write_time_for_read", 100_000)
    channels = device.integer("Flash_Channel_Count", 8, minimum=1)
    channel_width = device.integer("Flash_Channel_Width", 1, minimum=1)
    transfer_rate = device.integer("Channel_Transfer_Rate", 300, minimum=1)
    chips = device.integer("Chip_No_Per_Channel", 4, minimum=1)
    device.choice("Flash_Comm_Protocol", ("NVDDR2",), "NVDDR2")

    flash_element = device.values.get("Flash_Parameter_Set")
    device.used.add("Flash_Parameter_Set")
    device.finish()
    flash = Section(path, flash_element or Element("Flash_Parameter_Set", device_element.line), "Device_Parameter_Set/Flash_Parameter_Set")
    technology = flash.choice("Flash_Technology", ("SLC", "MLC", "TLC"), "MLC")
    suspension = SUSPENSION[flash.choice("CMD_Suspension_Support", tuple(SUSPENSION), "ERASE")]
    read_lsb = flash.integer("Page_Read_Latency_LSB", 75_000, minimum=1)
    read_csb = flash.integer("Page_Read_Latency_CSB", 75_000, minimum=1)
    read_msb = flash.integer("Page_Read_Latency_MSB", 75_000, minimum=1)
    program_lsb = flash.integer("Page_Program_Latency_LSB", 750_000, minimum=1)
    program_csb = flash.integer("Page_Program_Latency_CSB", 750_000, minimum=1)
    program_msb = flash.integer("Page_Program_Latency_MSB", 750_000, minimum=1)
    erase = flash.integer("Block_Erase_Latency", 3_800_000, minimum=1)
    pe_limit = flash.integer("Block_PE_Cycles_Limit", 10_000, minimum=1)
    suspend_erase = flash.integer("Suspend_Erase_Time", 700_000)
    suspend_program = flash.integer("Suspend_Program_Time", 100_000)
    dies = flash.integer("Die_No_Per_Chip", 2, minimum=1)
    planes = flash.integer("Plane_No_Per_Die", 2, minimum=1)
    blocks = flash.integer("Block_No_Per_Plane", 2048, minimum=1)
    pages = flash.integer("Page_No_Per_Block", 256, minimum=1)
    page_bytes = flash.integer("Page_Capacity", 8192, minimum=1)
    metadata = flash.integer("Page_Metadat_Capacity", 1872)
    flash.finish()
    if page_bytes % SECTOR_BYTES:
        raise flash.error(
            "Page_Capacity", f"{page_bytes} is not a whole number of {SECTOR_BYTES}-byte sectors (MQSim divides it into sectors)"
        )

    put("", "seed", seed, "Device_Parameter_Set/Seed (the device's random streams: preconditioning, GC; each flow has its own Seed)")
    fp = "Flash_Parameter_Set/"
    put("device.geometry", "channels", channels, "Flash_Channel_Count")
    put("device.geometry", "chips_per_channel", chips, "Chip_No_Per_Channel")
    put("device.geometry", "dies_per_chip", dies, fp + "Die_No_Per_Chip")
    put("device.geometry", "planes_per_die", planes, fp + "Plane_No_Per_Die")
    put("device.geometry", "blocks_per_plane", blocks, fp + "Block_No_Per_Plane")
    put("device.geometry", "pages_per_block", pages, fp + "Page_No_Per_Block")
    put("device.geometry", "page_size_bytes", page_bytes, fp + "Page_Capacity")
    put("device.nand", "cell_type", technology.lower(), fp + "Flash_Technology")
    # MQSim's latency arrays per technology (SSD_Device.cpp): SLC [LSB], MLC [LSB, MSB], TLC [LSB, CSB, MSB];
    # ssdlab's page types in the same order (lower, upper, extra).
    by_technology = {
        "SLC": ([read_lsb], [program_lsb], "LSB", ("CSB", "MSB")),
        "MLC": ([read_lsb, read_msb], [program_lsb, program_msb], "LSB, MSB", ("CSB",)),
        "TLC": ([read_lsb, read_csb, read_msb], [program_lsb, program_csb, program_msb], "LSB, CSB, MSB", ()),
    }
    reads, programs, used_types, unused_types = by_technology[technology]
    put("device.nand", "read_latency_ns", reads, f"{fp}Page_Read_Latency_{{{used_types}}} (ns, per page type)")
    put("device.nand", "program_latency_ns", programs, f"{fp}Page_Program_Latency_{{{used_types}}}")
    for page_type in unused_types:
        unmodelled.append(
            Unmodelled(
                f"{fp}Page_Read_Latency_{page_type}, Page_Program_Latency_{page_type}",
                f"{flash.value_of('Page_Read_Latency_' + page_type)}, {flash.value_of('Page_Program_Latency_' + page_type)}",
                f"{technology} has no {page_type} page (MQSim does not use it either)",
            )
        )
    put("device.nand", "erase_latency_ns", erase, fp + "Block_Erase_Latency")
    put(
        "device.nand",
        "endurance_pe_cycles",
        pe_limit,
        fp + "Block_PE_Cycles_Limit (reported beside erase counts, as MQSim does not wear blocks out either)",
    )
    put("device.channel", "transfer_rate_mts", float(transfer_rate), "Channel_Transfer_Rate (MT/s)")
    put("device.channel", "bus_width_bits", channel_width * 8, f"Flash_Channel_Width = {channel_width} byte(s)")
    put("device.channel", "command_overhead_ns", 0, "Flash_Comm_Protocol = NVDDR2 (MQSim charges the command and address cycles no time)")
    unmodelled.append(
        Unmodelled(
            fp + "Page_Metadat_Capacity",
            str(metadata),
            "MQSim reads it and uses it nowhere (no spare-area transfer); ssdlab moves page data only",
        )
    )

    data_cache_on = True  # decided per scenario from the flows' caching modes
    put("device.data_cache", "capacity_bytes", cache_capacity, "Data_Cache_Capacity (bytes)")
    put("device.data_cache", "access_latency_ns", trcd + tcl, f"Data_Cache_DRAM_tRCD + Data_Cache_DRAM_tCL = {trcd} + {tcl} ns")
    # MQSim's estimate_dram_access_time: DDR, a burst of Data_Busrt_Size bytes per transfer at
    # Data_Rate MT/s (2 x rate x burst MB/s within a row), and an access over a row charged for half
    # its rows: about 4 x rate x burst MB/s for accesses above a row (configs/mqsim-default.toml).
    put(
        "device.data_cache",
        "bandwidth_mb_per_s",
        4 * data_rate * burst,
        f"4 x Data_Cache_DRAM_Data_Rate x Data_Cache_DRAM_Data_Busrt_Size = 4 x {data_rate} x {burst} (MQSim's rate over a row; within one row it is half)",
    )
    # MQSim writes a page back the first time it is written (configs/mqsim-default.toml): watermarks of 0.
    put("device.data_cache", "high_watermark_dirty_fraction", 0.0, "MQSim writes a cached page back at once (no dirty watermark)")
    put("device.data_cache", "low_watermark_dirty_fraction", 0.0, "")
    put("device.data_cache", "sharing", data_cache_sharing, "Data_Cache_Sharing_Mode")
    unmodelled.append(
        Unmodelled(
            "Device_Parameter_Set/Data_Cache_DRAM_Row_Size, Data_Cache_DRAM_tRP",
            f"{row_size} bytes, {trp} ns",
            "ssdlab's DRAM is one latency plus bytes at one rate, without rows: MQSim adds tRP per row only for accesses over a row, which the bandwidth above averages",
        )
    )
    if not ideal_mapping:
        put(
            "device.mapping_cache",
            "capacity_bytes",
            cmt_capacity,
            "CMT_Capacity (bytes; entry sizes by MQSim's formula, the unset keys' defaults)",
        )
        put("device.mapping_cache", "sharing", cmt_sharing, "CMT_Sharing_Mode")
    else:
        unmodelled.append(
            Unmodelled(
                "Device_Parameter_Set/CMT_Capacity, CMT_Sharing_Mode",
                f"{cmt_capacity}, {cmt_sharing}",
                "Ideal_Mapping_Table = true: the whole table is in DRAM (no [device.mapping_cache])",
            )
        )

    put("scheduler", "policy", scheduling, "Transaction_Scheduling_Policy")
    put("scheduler.suspension", "operations", suspension, fp + "CMD_Suspension_Support")
    put("scheduler.suspension", "suspend_program_ns", suspend_program, fp + "Suspend_Program_Time")
    put("scheduler.suspension", "suspend_erase_ns", suspend_erase, fp + "Suspend_Erase_Time")
    put("scheduler.suspension", "min_remaining_program_for_read_ns", program_for_read, "Preferred_suspend_write_time_for_read")
    put(
        "scheduler.suspension",
        "min_remaining_erase_for_read_ns",
        erase_for_read,
        erase_for_read_name + " (MQSim itself reads only the spelling Prefered_)",
    )
    put("scheduler.suspension", "min_remaining_erase_for_write_ns", erase_for_write, "Preferred_suspend_erase_time_for_write")

    put("ftl", "overprovisioning_fraction", overprovisioning, "Overprovisioning_Ratio")
    put("ftl", "plane_allocation", "static", "MQSim's page-level mapping places a logical page by its number")
    put(
        "ftl",
        "plane_allocation_order",
        plane_allocation.lower(),
        f"Plane_Allocation_Scheme = {plane_allocation} (the first letter the unit that changes fastest: C channel, W way (chip), D die, P plane)",
    )
    low = max(2, int(gc_threshold * blocks))
    put(
        "ftl.garbage_collection",
        "policy",
        "greedy",
        f"GC_Block_Selection_Policy = {gc_policy}"
        + (
            " (RGA: the best of a random sample of blocks; greedy is its limit, the whole plane as the sample)"
            if gc_policy == "RGA"
            else ""
        ),
    )
    put(
        "ftl.garbage_collection",
        "low_watermark_blocks",
        low,
        f"GC_Exec_Threshold = {gc_threshold:g}: GC when a plane's free blocks fall below {gc_threshold:g} x {blocks} (at least 2)",
    )
    put("ftl.garbage_collection", "high_watermark_blocks", low + 1, "MQSim reclaims one block per GC run")
    put("ftl.garbage_collection", "copyback", copyback, "Use_Copyback_for_GC")
    if preemptible:
        hard = max(1, min(low, int(hard_threshold * blocks)))
        put("ftl.garbage_collection", "mode", "preemptible", "Preemptible_GC_Enabled = true")
        put(
            "ftl.garbage_collection",
            "write_hold_threshold_blocks",
            hard,
            f"GC_Hard_Threshold = {hard_threshold:g} x {blocks} blocks (at least 1)",
        )
    else:
        put(
            "ftl.garbage_collection",
            "mode",
            "stop_servicing_writes",
            "Preemptible_GC_Enabled = false (GC_and_WL_Unit_Base::Stop_servicing_writes)",
        )
        put(
            "ftl.garbage_collection",
            "write_hold_threshold_blocks",
            min(10, low),
            "MQSim's max_ongoing_gc_reqs_per_plane (10, fixed in SSD_Device.cpp)",
        )
        unmodelled.append(
            Unmodelled(
                "Device_Parameter_Set/GC_Hard_Threshold",
                f"{hard_threshold:g}",
                "used by preemptible GC only (Preemptible_GC_Enabled is false)",
            )
        )
    put(
        "ftl.wear_leveling",
        "policy",
        "least_worn" if dynamic_wear_leveling else "round_robin",
        f"Dynamic_Wearleveling_Enabled = {str(dynamic_wear_leveling).lower()} (MQSim 7ec40e3 passes the device Seed in its place, so it is always on there)",
    )
    if static_wear_leveling:
        unmodelled.append(
            Unmodelled(
                "Device_Parameter_Set/Static_Wearleveling_Enabled, Static_Wearleveling_Threshold",
                f"true, {static_threshold}",
                "ssdlab does not move cold data (static wear leveling); in MQSim it starts only once erase counts differ by the threshold (MQSim 7ec40e3 always uses true and 100, whatever the file says)",
            )
        )
    else:
        unmodelled.append(
            Unmodelled("Device_Parameter_Set/Static_Wearleveling_Threshold", str(static_threshold), "Static_Wearleveling_Enabled is false")
        )
    del data_cache_on
    return Device(
        entries=entries,
        unmodelled=unmodelled,
        geometry={
            "channels": channels,
            "chips": chips,
            "dies": dies,
            "planes": planes,
            "blocks": blocks,
            "pages": pages,
            "page_bytes": page_bytes,
        },
        overprovisioning=overprovisioning,
        preconditioning=preconditioning,
        data_cache=True,
        sharing={"data_cache": data_cache_sharing, "mapping_cache": cmt_sharing},
        io_queue_depth=io_queue_depth,
        queue_fetch_size=queue_fetch_size,
        seed=seed,
    )


@dataclass
class Flow:
    """One flow's ssdlab table (`[[host.flows]]`), its workload spec and what it reads."""

    keys: list[Mapped]
    workload_kind: str  # "synthetic" or "trace"
    workload: list[Mapped]
    occupancy: float
    resources: dict[str, list[int]]
    working_set: float
    caching: str
    notes: list[str]


def _read_flow(path: Path, element: Element, where: str, device: Device, check_files: bool = True) -> Flow:
    section = Section(path, element, where)
    g = device.geometry
    keys: list[Mapped] = []
    workload: list[Mapped] = []
    notes: list[str] = []
    priority = section.choice("Priority_Class", ("URGENT", "HIGH", "MEDIUM", "LOW"))
    keys.append(Mapped("priority_class", priority.lower(), "Priority_Class"))
    caching = section.choice("Device_Level_Data_Caching_Mode", ("TURNED_OFF", "WRITE_CACHE", "READ_CACHE", "WRITE_READ_CACHE"))
    if caching in ("READ_CACHE", "WRITE_READ_CACHE"):
        raise section.error(
            "Device_Level_Data_Caching_Mode",
            f"{caching} is refused: ssdlab's data cache holds written data (a write cache, whose lines also serve reads); it does not fill lines with data read from flash",
        )
    resources = {
        "channels": section.id_list("Channel_IDs", g["channels"]),
        "chips": section.id_list("Chip_IDs", g["chips"]),
        "dies": section.id_list("Die_IDs", g["dies"]),
        "planes": section.id_list("Plane_IDs", g["planes"]),
    }
    # The unit keys are written per scenario (`_scenario_config`): whether a flow is confined
    # depends on the other flows and on the caches' sharing.
    occupancy = section.integer("Initial_Occupancy_Percentage", minimum=0, maximum=100) / 100.0
    if element.tag == "IO_Flow_Parameter_Set_Synthetic":
        kind = "synthetic"
        working_set = section.integer("Working_Set_Percentage", minimum=1, maximum=100) / 100.0
        generator = section.choice("Synthetic_Generator_Type", ("BANDWIDTH", "QUEUE_DEPTH"))
        read_percentage = section.integer("Read_Percentage", minimum=0, maximum=100)
        distribution = section.choice("Address_Distribution", ("STREAMING", "RANDOM_HOTCOLD", "RANDOM_UNIFORM"))
        hot = section.integer("Percentage_of_Hot_Region", minimum=0, maximum=100)
        aligned = section.flag("Generated_Aligned_Addresses")
        alignment_unit = section.integer("Address_Alignment_Unit", minimum=1)
        size_distribution = section.choice("Request_Size_Distribution", ("FIXED", "NORMAL"))
        average_size = section.integer("Average_Request_Size", minimum=1)
        variance = section.integer("Variance_Request_Size", minimum=0)
        flow_seed = section.integer("Seed", minimum=0)
        depth = (
            section.integer("Average_No_of_Reqs_in_Queue", minimum=1, maximum=65535)
            if generator == "QUEUE_DEPTH" or section.has("Average_No_of_Reqs_in_Queue")
            else None
        )
        # "Intensity" is the name MQSim used for Bandwidth before commit f096db7 (the shipped
        # workload.xml still has it; MQSim 7ec40e3 ignores it): the same quantity, bytes per second.
        bandwidth_name = "Bandwidth" if section.has("Bandwidth") else "Intensity"
        if section.has("Bandwidth") and section.has("Intensity"):
            section.raw("Intensity")
            if section.value_of("Intensity") != section.value_of("Bandwidth"):
                raise section.error(
                    "Intensity",
                    f"{section.value_of('Intensity')} differs from Bandwidth = {section.value_of('Bandwidth')}: Intensity is Bandwidth's earlier name; give one",
                )
        bandwidth = section.integer(bandwidth_name, minimum=0) if generator == "BANDWIDTH" or section.has(bandwidth_name) else None
        stop_time = section.integer("Stop_Time", minimum=0)
        total = section.integer("Total_Requests_To_Generate", minimum=0)
        section.finish()
        span_note = ""
        if aligned:
            alignment = alignment_unit * SECTOR_BYTES
            alignment_source = f"Generated_Aligned_Addresses = true, Address_Alignment_Unit = {alignment_unit} sectors"
        else:
            alignment = SECTOR_BYTES
            alignment_source = "Generated_Aligned_Addresses = false: any sector"
            notes.append(f"{where}/Address_Alignment_Unit = {alignment_unit}: no effect, Generated_Aligned_Addresses is false")
        workload.append(Mapped("read_fraction", read_percentage / 100.0, "Read_Percentage"))
        workload.append(Mapped("alignment_bytes", alignment, alignment_source))
        if distribution == "RANDOM_UNIFORM":
            workload.append(Mapped("address", {"distribution": "uniform"}, "Address_Distribution = RANDOM_UNIFORM"))
            notes.append(f"{where}/Percentage_of_Hot_Region = {hot}: no effect, Address_Distribution is RANDOM_UNIFORM")
        elif distribution == "RANDOM_HOTCOLD":
            if not 0 < hot < 100:
                raise section.error(
                    "Percentage_of_Hot_Region", f"{hot}: with RANDOM_HOTCOLD the hot region must be 1 to 99 % of the working set"
                )
            # IO_Flow_Synthetic: (100 - H) % of the requests go to the first H % of the working set.
            workload.append(
                Mapped(
                    "address",
                    {"distribution": "hot_cold", "hot_space_fraction": hot / 100.0, "hot_access_fraction": (100 - hot) / 100.0},
                    f"Address_Distribution = RANDOM_HOTCOLD, Percentage_of_Hot_Region = {hot}: {100 - hot} % of requests to the first {hot} %",
                )
            )
        else:
            # One run over the whole stream: MQSim starts at a random address and goes on in order.
            workload.append(
                Mapped(
                    "address",
                    {"distribution": "sequential", "run_requests": 1 << 62},
                    "Address_Distribution = STREAMING (one run from a random start)",
                )
            )
            notes.append(f"{where}/Percentage_of_Hot_Region = {hot}: no effect, Address_Distribution is STREAMING")
        if size_distribution == "FIXED":
            workload.append(
                Mapped(
                    "size",
                    {"distribution": "fixed", "bytes": average_size * SECTOR_BYTES},
                    f"Request_Size_Distribution = FIXED, Average_Request_Size = {average_size} sectors",
                )
            )
            notes.append(f"{where}/Variance_Request_Size = {variance}: no effect, Request_Size_Distribution is FIXED")
        else:
            workload.append(
                Mapped(
                    "size",
                    _normal_sizes(average_size, variance),
                    f"Request_Size_Distribution = NORMAL, Average_Request_Size = {average_size}, Variance_Request_Size = {variance} sectors (MQSim draws ceil(Normal(mean, {variance})) sectors, at least 1: here as its probabilities per size)",
                )
            )
        workload.append(Mapped("seed", flow_seed, "Seed (this flow's own stream)"))
        if generator == "BANDWIDTH":
            per_second = bandwidth // SECTOR_BYTES // average_size if bandwidth else 0
            if per_second == 0:
                raise section.error(
                    bandwidth_name,
                    f"{bandwidth} bytes/s is less than one {average_size}-sector request per second: MQSim divides by zero here (Host_System.cpp)",
                )
            interarrival = NANOSECONDS_PER_SECOND // per_second
            workload.append(
                Mapped(
                    "arrival",
                    {"process": "poisson", "mean_interarrival_ns": float(interarrival)},
                    f"Synthetic_Generator_Type = BANDWIDTH, {bandwidth_name} = {bandwidth} B/s: 1e9 / ({bandwidth} / 512 / {average_size}) ns, MQSim's integer arithmetic, exponential gaps",
                )
            )
            if depth is not None:
                notes.append(f"{where}/Average_No_of_Reqs_in_Queue = {depth}: no effect, Synthetic_Generator_Type is BANDWIDTH")
            if stop_time > 0 and total == 0:
                # No bound in MQSim: one the stop time reaches first (the expected arrivals plus ten
                # standard deviations of their Poisson count, and 100).
                expected = stop_time / interarrival
                requests = int(math.ceil(expected + 10 * math.sqrt(expected) + 100))
                request_source = (
                    f"Total_Requests_To_Generate = 0: a bound past the stop time ({stop_time} / {interarrival} ns expected arrivals "
                    "+ 10 standard deviations + 100); stop_time_ns ends the flow"
                )
            keys.append(Mapped("mode", "open_loop", "Synthetic_Generator_Type = BANDWIDTH"))
            keys.append(
                Mapped(
                    "submission_queue_depth",
                    min(device.io_queue_depth, device.queue_fetch_size),
                    "min(IO_Queue_Depth, Queue_Fetch_Size): the flow's commands in the device at once",
                )
            )
        else:
            if bandwidth is not None:
                notes.append(f"{where}/{bandwidth_name} = {bandwidth}: no effect, Synthetic_Generator_Type is QUEUE_DEPTH")
            keys.append(
                Mapped(
                    "mode",
                    "closed_loop",
                    f"Synthetic_Generator_Type = QUEUE_DEPTH: the flow keeps Average_No_of_Reqs_in_Queue = {depth} requests outstanding",
                )
            )
            queue = min(depth, device.io_queue_depth, device.queue_fetch_size)
            keys.append(Mapped("submission_queue_depth", queue, "min(Average_No_of_Reqs_in_Queue, IO_Queue_Depth, Queue_Fetch_Size)"))
            if stop_time > 0 and total == 0:
                smallest = average_size * SECTOR_BYTES if size_distribution == "FIXED" else SECTOR_BYTES
                fastest = _fastest_request_ns(read_percentage / 100.0, smallest, caching == "WRITE_CACHE", device)
                # No bound in MQSim: one the stop time reaches first unless requests take no time.
                requests = queue * int(math.ceil(stop_time / fastest)) + queue
                request_source = (
                    f"Total_Requests_To_Generate = 0: a bound past the stop time ({queue} outstanding x {stop_time} ns / {fastest:g} ns, "
                    "the fastest a request is served here); stop_time_ns ends the flow"
                )
                if read_percentage > 0 and not device.preconditioning:
                    notes.append(
                        f"{where}/Total_Requests_To_Generate = 0: reads of pages never written take no time here (Enabled_Preconditioning "
                        f"is false), so a flow of such reads may end at its bound ({requests:,} requests) before its stop time"
                    )
        if stop_time == 0 and total == 0:
            raise section.error("Total_Requests_To_Generate", "0 with Stop_Time = 0: MQSim would generate no request")
        if stop_time == 0 or total > 0:
            requests = total
            request_source = "Total_Requests_To_Generate" + (
                " (Stop_Time = 0)"
                if stop_time == 0
                else " (the bound beside stop_time_ns; MQSim 7ec40e3 ignores it when Stop_Time is set: raise it with --set to match)"
            )
        workload.insert(0, Mapped("requests", requests, request_source))
        if stop_time > 0:
            workload.insert(
                1,
                Mapped(
                    "stop_time_ns",
                    stop_time,
                    "Stop_Time (ns): no request "
                    + ("arrives" if generator == "BANDWIDTH" else "is issued")
                    + " at or after it (MQSim generates none after it)",
                ),
            )
        del span_note
        return Flow(keys, kind, workload, occupancy, resources, working_set, caching, notes)
    kind = "trace"
    file_path = section.raw("File_Path", required=True)
    percentage = section.integer("Percentage_To_Be_Executed", minimum=1, maximum=100)
    relay = section.integer("Relay_Count", minimum=1)
    unit = section.choice("Time_Unit", ("PICOSECOND", "NANOSECOND", "MICROSECOND"))
    section.finish()
    if percentage != 100:
        raise section.error(
            "Percentage_To_Be_Executed",
            f"{percentage} is refused: ssdlab replays the whole trace; cut the trace to its first {percentage} % instead",
        )
    if relay != 1:
        raise section.error("Relay_Count", f"{relay} is refused: a flow replays its trace once (host.loops is not supported with flows)")
    trace = Path(file_path)
    if not trace.is_absolute():
        trace = path.parent / trace
    if check_files and not trace.is_file():
        raise section.error(
            "File_Path", f"{file_path!r}: no such trace file ({trace}; a relative File_Path is read from the workload file's folder)"
        )
    workload.append(Mapped("path", str(trace.resolve()), f"File_Path = {file_path} (relative to the workload file's folder)"))
    workload.append(Mapped("format", "mqsim", "MQSim's ASCII trace"))
    workload.append(Mapped("merge_devices", True, "MQSim ignores the trace's device column"))
    scale = {"PICOSECOND": 0.001, "NANOSECOND": 1.0, "MICROSECOND": 1000.0}[unit]
    keys.append(Mapped("mode", "open_loop", "a trace's requests arrive at their times"))
    keys.append(
        Mapped("submission_queue_depth", min(device.io_queue_depth, device.queue_fetch_size), "min(IO_Queue_Depth, Queue_Fetch_Size)")
    )
    keys.append(Mapped("time_scale", scale, f"Time_Unit = {unit} (ssdlab reads MQSim traces in nanoseconds)"))
    notes.append(f"{where}/Percentage_To_Be_Executed = 100, Relay_Count = 1: the whole trace once")
    return Flow(keys, kind, workload, occupancy, resources, 1.0, caching, notes)


def _normal_sizes(mean: int, deviation: int) -> dict[str, Any]:
    """MQSim's NORMAL request size (ceil of a normal draw, at least one sector) as a choice of sizes
    with their probabilities: P(k) = P(k - 1 < X <= k), every draw at or below one sector is one."""
    if deviation == 0:
        return {"distribution": "fixed", "bytes": mean * SECTOR_BYTES}

    def cdf(x: float) -> float:
        return 0.5 * (1.0 + math.erf((x - mean) / (deviation * math.sqrt(2.0))))

    top = int(math.ceil(mean + 6 * deviation))
    sizes, weights = [], []
    for k in range(1, top + 1):
        low = cdf(k - 1) if k > 1 else 0.0
        weight = cdf(k) - low
        if weight > 1e-9:
            sizes.append(k * SECTOR_BYTES)
            weights.append(round(weight, 9))
    return {"distribution": "choice", "bytes": sizes, "weights": weights}


def _fastest_request_ns(read_fraction: float, smallest_bytes: int, cache_on: bool, device: Device) -> float:
    """The least simulated time a request of `smallest_bytes` can take here: a write, its DRAM time
    with the data cache, else the shortest program time; a read, its DRAM time when the cache may
    hold a page the flow wrote (MQSim's flows have ranges of their own: a flow that only reads hits
    no line), else the shortest read time (a read of a page never written takes none: not counted)."""
    entries = {(table, key): value for table, key, value, _ in device.entries}
    dram = None
    if cache_on:
        latency = entries[("device.data_cache", "access_latency_ns")]
        dram = latency + smallest_bytes / (entries[("device.data_cache", "bandwidth_mb_per_s")] / 1000.0)
    times = []
    if read_fraction < 1:
        times.append(dram if dram is not None else min(entries[("device.nand", "program_latency_ns")]))
    if read_fraction > 0:
        times.append(dram if dram is not None and read_fraction < 1 else min(entries[("device.nand", "read_latency_ns")]))
    return max(1.0, float(min(times)))


UNIT_ELEMENTS = {"channels": "Channel_IDs", "chips": "Chip_IDs", "dies": "Die_IDs", "planes": "Plane_IDs"}


def _is_subset(flow: Flow, device: Device) -> bool:
    """Whether the flow uses some of the device's units only (one of its id lists is not all)."""
    g = device.geometry
    return any(len(flow.resources[key]) < g[key] for key in UNIT_ELEMENTS)


def _confined_ranges(flows: list[Flow], device: Device) -> list[tuple[int, int]]:
    """Each confined flow's range as ssdlab sizes it (`host/flows/resources.rs`), in pages: (first
    page, pages), back to back in flow order. A plane holds logical pages / planes pages (MQSim:
    its sectors x (1 - Overprovisioning_Ratio)), split evenly between the flows using it: MQSim's
    ranges, in whole pages."""
    g = device.geometry
    planes_total = g["channels"] * g["chips"] * g["dies"] * g["planes"]
    logical_pages = int(planes_total * g["blocks"] * g["pages"] * (1.0 - device.overprovisioning))
    per_plane = logical_pages // planes_total

    def planes_of(flow: Flow) -> list[tuple[int, int, int, int]]:
        r = flow.resources
        return [(c, w, d, p) for c in r["channels"] for w in r["chips"] for d in r["dies"] for p in r["planes"]]

    sharers: dict[tuple[int, int, int, int], int] = {}
    for flow in flows:
        for unit in planes_of(flow):
            sharers[unit] = sharers.get(unit, 0) + 1
    ranges, first = [], 0
    for flow in flows:
        pages = sum(per_plane // sharers[unit] for unit in planes_of(flow))
        ranges.append((first, pages))
        first += pages
    return ranges


def _flow_ranges(flows: list[Flow], device: Device) -> list[tuple[int, int]]:
    """Each flow's logical range in sectors [start, end] (Logical_Address_Partitioning_Unit.cpp):
    every plane's logical sectors are shared equally by the flows that use it, and the flows' ranges
    follow each other in flow order."""
    g = device.geometry
    sectors_per_page = g["page_bytes"] // SECTOR_BYTES
    sharers: dict[tuple[int, int, int, int], int] = {}
    for flow in flows:
        r = flow.resources
        for unit in ((c, w, d, p) for c in r["channels"] for w in r["chips"] for d in r["dies"] for p in r["planes"]):
            sharers[unit] = sharers.get(unit, 0) + 1
    plane_sectors = g["blocks"] * g["pages"] * sectors_per_page * (1.0 - device.overprovisioning)
    ranges, start = [], 0
    for flow in flows:
        r = flow.resources
        count = sum(
            int(plane_sectors / sharers[(c, w, d, p)]) for c in r["channels"] for w in r["chips"] for d in r["dies"] for p in r["planes"]
        )
        ranges.append((start, start + count - 1))
        start += count
    return ranges


def read_scenarios(config_path: str | Path, workload_path: str | Path, only: int | None = None) -> list[Scenario]:
    """Every IO_Scenario of the workload file on the SSD configuration, as ssdlab configs. Every
    element of every scenario is checked; with `only` (1-based), the trace files of that scenario
    alone must exist (another scenario's missing trace does not stop this one)."""
    config_path, workload_path = Path(config_path), Path(workload_path)
    device = read_device(config_path)
    root = parse_xml(workload_path)
    if root.tag != "MQSim_IO_Scenarios":
        raise MqsimImportError(
            f"{workload_path}:{root.line}: the root element is <{root.tag}>; an MQSim workload file has <MQSim_IO_Scenarios>"
        )
    scenarios = []
    for child in root.children:
        if child.tag != "IO_Scenario":
            raise MqsimImportError(
                f"{workload_path}:{child.line}: MQSim_IO_Scenarios/{child.tag}: not an element MQSim reads here (IO_Scenario is expected)"
            )
    elements = root.children
    if not elements:
        raise MqsimImportError(f"{workload_path}:{root.line}: MQSim_IO_Scenarios: no IO_Scenario")
    for index, scenario in enumerate(elements, start=1):
        flows = []
        for number, flow in enumerate(scenario.children, start=1):
            where = f"MQSim_IO_Scenarios/IO_Scenario[{index}]/{flow.tag}[{number}]"
            if flow.tag not in ("IO_Flow_Parameter_Set_Synthetic", "IO_Flow_Parameter_Set_Trace_Based"):
                raise MqsimImportError(
                    f"{workload_path}:{flow.line}: MQSim_IO_Scenarios/IO_Scenario[{index}]/{flow.tag}: not a flow (IO_Flow_Parameter_Set_Synthetic or IO_Flow_Parameter_Set_Trace_Based)"
                )
            flows.append((flow, _read_flow(workload_path, flow, where, device, check_files=only in (None, index))))
        if not flows:
            raise MqsimImportError(f"{workload_path}:{scenario.line}: MQSim_IO_Scenarios/IO_Scenario[{index}]: no flow")
        scenarios.append(_scenario_config(index, [f for _, f in flows], [e for e, _ in flows], device, config_path, workload_path))
    return scenarios


def _scenario_config(
    index: int, flows: list[Flow], elements: list[Element], device: Device, config_path: Path, workload_path: Path
) -> Scenario:
    g = device.geometry
    page_bytes = g["page_bytes"]
    notes = [Unmodelled(u.element, u.value, u.why) for u in device.unmodelled]
    for flow in flows:
        for note in flow.notes:
            element, _, rest = note.partition(" = ")
            value, _, why = rest.partition(": ")
            notes.append(Unmodelled(element, value, why))
    entries = list(device.entries)
    modes = {flow.caching for flow in flows}
    if len(modes) > 1:
        line = elements[0].line
        raise MqsimImportError(
            f"{workload_path}:{line}: MQSim_IO_Scenarios/IO_Scenario[{index}]/*/Device_Level_Data_Caching_Mode: the flows differ ({', '.join(sorted(modes))}); "
            "ssdlab's data cache serves every flow alike, so give the flows one mode"
        )
    cache_on = modes == {"WRITE_CACHE"}
    if not cache_on:
        entries = [e for e in entries if e[0] != "device.data_cache"]
        notes.append(
            Unmodelled(
                "Device_Parameter_Set/Data_Cache_*",
                "(all)",
                "Device_Level_Data_Caching_Mode = TURNED_OFF for every flow: no data cache ([device.data_cache] left out)",
            )
        )
    # Preconditioning (Enabled_Preconditioning): MQSim fills each flow's range to its
    # Initial_Occupancy_Percentage; ssdlab fills one fraction of the whole logical space.
    # Confinement (Channel_IDs, Chip_IDs, Die_IDs, Plane_IDs): MQSim counts every flow on the units
    # it lists, so once one flow uses a subset every flow is confined here (a flow using all units
    # gets `channels` = all of them), and EQUAL_PARTITIONING of a cache between two flows or more
    # needs every flow confined (a page's part is the flow whose range holds it).
    mapping_cache_on = any(e[0] == "device.mapping_cache" and e[1] == "capacity_bytes" for e in entries)
    partitioned = len(flows) >= 2 and (
        (cache_on and device.sharing["data_cache"] == "equal_partitioning")
        or (mapping_cache_on and device.sharing["mapping_cache"] == "equal_partitioning")
    )
    confined = partitioned or any(_is_subset(flow, device) for flow in flows)
    sectors_per_page = page_bytes // SECTOR_BYTES
    if confined:
        page_ranges = _confined_ranges(flows, device)
        ranges = [(first * sectors_per_page, (first + pages) * sectors_per_page - 1) for first, pages in page_ranges]
    else:
        ranges = _flow_ranges(flows, device)
    total_sectors = sum(end - start + 1 for start, end in ranges)
    if device.preconditioning:
        occupancy = sum(f.occupancy * (end - start + 1) for f, (start, end) in zip(flows, ranges)) / max(1, total_sectors)
        same = len({f.occupancy for f in flows}) == 1
        entries.append(("ftl.precondition", "enabled", True, "Enabled_Preconditioning = true"))
        entries.append(
            (
                "ftl.precondition",
                "fill_fraction",
                round(occupancy, 6),
                "Initial_Occupancy_Percentage"
                + (
                    "" if same else " (the flows differ: their mean weighted by their ranges; ssdlab fills one fraction of the whole space)"
                ),
            )
        )
        entries.append(("ftl.precondition", "overwrite_passes", 0.0, "MQSim writes the occupancy once (no overwrite passes)"))
    else:
        entries.append(("ftl.precondition", "enabled", False, "Enabled_Preconditioning = false: the run starts on an empty drive"))
        values = ", ".join(str(round(f.occupancy * 100)) for f in flows)
        notes.append(
            Unmodelled(
                "*/Initial_Occupancy_Percentage",
                values,
                "Enabled_Preconditioning is false: nothing is written before the run (MQSim uses it only for its GC's rho)",
            )
        )
        notes.append(
            Unmodelled(
                "Enabled_Preconditioning",
                "false",
                "a read of a page never written is an unmapped read here (no flash work, result.unmapped_page_reads); "
                "MQSim maps such a page at its first read and reads flash (online_create_entry_for_reads)",
            )
        )
    logical_pages = int(g["channels"] * g["chips"] * g["dies"] * g["planes"] * g["blocks"] * g["pages"] * (1.0 - device.overprovisioning))
    host_entries = [
        ("host", "device_queue_depth", 0, "MQSim has no limit over all queues: the flows' queue depths summed"),
    ]
    host_entries.append(
        ("host.queues", "arbitration", "round_robin", "MQSim fetches from every submission queue as it has room (no arbitration wait)")
    )
    host_entries.append(("host.queues", "measure_alone", False, "MQSim runs the scenario once"))
    flow_tables = []
    device_depth = 0
    why_confined = (
        "EQUAL_PARTITIONING between the flows needs every flow confined"
        if partitioned and not any(_is_subset(flow, device) for flow in flows)
        else "a flow uses some units only: every flow is confined, as MQSim counts every flow on its units"
    )
    for number, (flow, (start, end)) in enumerate(zip(flows, ranges)):
        offset = min(-(-start * SECTOR_BYTES // page_bytes) * page_bytes, logical_pages * page_bytes)
        table = [Mapped("name", f"flow{number + 1}", f"MQSim's flow {number} (IO_Flow_No_{number})")]
        table.extend(flow.keys)
        if confined:
            subsets = [key for key in UNIT_ELEMENTS if len(flow.resources[key]) < g[key]]
            for key in subsets or ["channels"]:
                source = UNIT_ELEMENTS[key] + ("" if subsets else f" (all: {why_confined})")
                table.append(Mapped(key, flow.resources[key], source))
        table.append(
            Mapped(
                "lba_offset_bytes",
                offset,
                f"MQSim's range for this flow starts at sector {start} (Logical_Address_Partitioning_Unit; "
                + (
                    "its units' share of the logical pages, in whole pages, as ssdlab sizes a confined flow)"
                    if confined
                    else "page-aligned)"
                ),
            )
        )
        for key in (m for m in table if m.key == "submission_queue_depth"):
            device_depth += key.value
        workload = list(flow.workload)
        if flow.workload_kind == "synthetic":
            range_bytes = (end - start + (1 if confined else 0)) * SECTOR_BYTES
            span = int(range_bytes * flow.working_set)
            alignment = next(m.value for m in workload if m.key == "alignment_bytes")
            room = logical_pages * page_bytes - offset
            span = max(alignment, min(span, room) // alignment * alignment)
            workload.insert(
                2,
                Mapped(
                    "span_bytes",
                    span,
                    f"Working_Set_Percentage = {round(flow.working_set * 100)} % of the flow's range ({end - start + 1} sectors)",
                ),
            )
        flow_tables.append((table, flow.workload_kind, workload))
    host_entries[0] = ("host", "device_queue_depth", min(device_depth, 1 << 20), host_entries[0][3])
    name = f"mqsim-{workload_path.stem}-scenario-{index}"
    lines = [
        "# Imported from MQSim's files by `ssdlab config import-mqsim` (MQSim 7ec40e3's meanings; docs/mqsim.md):",
        f"#   SSD configuration: {config_path}",
        f"#   workload: {workload_path}, IO_Scenario {index} of its flows: {len(flows)}",
        "# Beside each key, the MQSim element(s) it comes from.",
        f"name = {_toml_value(name)}",
    ]
    tables: dict[str, list[tuple[str, Any, str]]] = {}
    for table, key, value, source in entries + host_entries:
        tables.setdefault(table, []).append((key, value, source))
    for key, value, source in tables.pop("", []):
        lines.append(_line(key, value, source))
    for table, items in tables.items():
        lines.append("")
        lines.append(f"[{table}]")
        for key, value, source in items:
            lines.append(_line(key, value, source))
    # The first flow's workload is [workload] (which sizes and preconditions the drive); the flow replays it.
    first_table, first_kind, first_workload = flow_tables[0]
    lines.append("")
    lines.append("# Flow 1's workload ([[host.flows]] 1 replays it; [workload] also sizes the preconditioning).")
    lines.append(f"[workload.{first_kind}]")
    for mapped in first_workload:
        lines.append(_line(mapped.key, mapped.value, mapped.source))
    for number, (table, kind, workload) in enumerate(flow_tables):
        lines.append("")
        lines.append(f"[[host.flows]]  # {elements[number].tag} on line {elements[number].line}")
        for mapped in table:
            lines.append(_line(mapped.key, mapped.value, mapped.source))
        if number > 0:
            lines.append(f"[host.flows.{kind}]")
            for mapped in workload:
                lines.append(_line(mapped.key, mapped.value, mapped.source))
    lines.append("")
    lines.append("# MQSim elements with no effect here, or mapped with a difference, and why:")
    for note in notes:
        lines.append(f"#   {note.element} = {note.value}: {note.why}")
    return Scenario(index, name, "\n".join(lines) + "\n", notes)


# Keys written only when they differ from ssdlab's default (their default is MQSim's SHARED), so a
# config that needs none of them loads where the key is not known yet; at the default the line is
# kept as a comment, with its element.
WRITTEN_WHEN_NOT_DEFAULT = {"sharing": "shared"}


def _line(key: str, value: Any, source: str) -> str:
    text = f"{key} = {_toml_value(value)}"
    if WRITTEN_WHEN_NOT_DEFAULT.get(key) == value:
        return f"# {text}  # <- {source} (ssdlab's default)"
    return f"{text}  # <- {source}" if source else text


def import_text(config_path: str | Path, workload_path: str | Path, scenario: int | None = None) -> tuple[str, int]:
    """The TOML of one IO_Scenario (1-based; None: the first) and how many scenarios the workload has."""
    scenarios = read_scenarios(config_path, workload_path, only=1 if scenario is None else scenario)
    chosen = select(scenarios, 1 if scenario is None else scenario, workload_path)[0]
    return chosen.toml, len(scenarios)


def select(scenarios: list[Scenario], scenario: int | None, workload_path: str | Path) -> list[Scenario]:
    if scenario is None:
        return scenarios
    if not 1 <= scenario <= len(scenarios):
        raise MqsimImportError(f"--scenario {scenario}: {workload_path} has {len(scenarios)} IO_Scenario(s), numbered from 1")
    return [scenarios[scenario - 1]]


def validate(toml_text: str, overrides: list[str] | tuple[str, ...] = ()) -> str:
    """Loads an imported config with the simulator's own checks (the run's loader), through a
    temporary file: its trace paths are absolute, so the file's folder does not matter. Returns the
    config with its defaults filled in."""
    import tempfile

    from ssdlab import api

    with tempfile.TemporaryDirectory(prefix="ssdlab-mqsim-") as folder:
        path = Path(folder) / "imported.toml"
        path.write_text(toml_text)
        try:
            return api.load_config(path, overrides=list(overrides))
        except Exception as error:
            # The temporary file means nothing to the user: the message names the imported config.
            message = str(error).replace(str(path), "the imported config")
            raise type(error)(message) from None
