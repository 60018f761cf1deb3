"""Writes the two MQSim ASCII traces of ``disjoint-trace.xml`` (a reader and a writer on disjoint
channels), deterministically, into ``traces/`` beside this file.

What it models: two open-loop hosts with Poisson arrivals. The reader first writes its 32 MiB region
once (8 KiB writes in logical order), then reads 4 KiB at random in it: the shipped ssdconfig.xml has
preconditioning off, MQSim 7ec40e3 cannot precondition a trace-based flow (``FTL::Perform_precondition``
switches on an address distribution ``IO_Flow_Trace_Based::Get_statistics`` never sets), and a read of
a page never written costs flash work in MQSim and none in ssdlab (docs/mqsim.md). The writer writes
16 KiB at random over the first 4 GiB of its range. Addresses are relative to the flow's range (MQSim
adds the range's start, as ssdlab's importer does with ``lba_offset_bytes``) and aligned to MQSim's
8 KiB page (16 sectors). Leaves out: anything but one device column (0). The format is MQSim's ASCII
trace: arrival ns, device, start sector, sectors, 1 for a read, 0 for a write.
"""

from __future__ import annotations

import random
from pathlib import Path

SECTOR_BYTES = 512
WRITER_SPAN_SECTORS = 4 * 1024**3 // SECTOR_BYTES  # 4 GiB of the writer's range
READER_SPAN_SECTORS = 32 * 1024**2 // SECTOR_BYTES  # 32 MiB of the reader's range
ALIGNMENT_SECTORS = 16  # MQSim's page (8 KiB) in sectors


def random_lines(
    generator: random.Random, start_ns: float, requests: int, mean_interarrival_ns: float, sectors: int, span: int, read: bool
) -> list[str]:
    """``requests`` lines at random aligned addresses in ``span`` sectors, arrivals exponential."""
    time_ns = start_ns
    lines = []
    for _ in range(requests):
        time_ns += generator.expovariate(1.0 / mean_interarrival_ns)
        start = generator.randrange(0, (span - sectors) // ALIGNMENT_SECTORS) * ALIGNMENT_SECTORS
        lines.append(f"{int(time_ns)} 0 {start} {sectors} {1 if read else 0}\n")
    return lines


def reader_lines() -> list[str]:
    """The reader: its region written once, 8 KiB pages in order 100 us apart, then 10,000 reads of
    4 KiB, 25 us apart on average (40,000 IOPS offered), from 10 ms after the last write."""
    generator = random.Random(49)
    pages = READER_SPAN_SECTORS // ALIGNMENT_SECTORS
    lines = [f"{page * 100_000} 0 {page * ALIGNMENT_SECTORS} {ALIGNMENT_SECTORS} 0\n" for page in range(pages)]
    return lines + random_lines(generator, pages * 100_000 + 10_000_000, 10_000, 25_000.0, 8, READER_SPAN_SECTORS, read=True)


def writer_lines() -> list[str]:
    """The writer: 5,000 writes of 16 KiB, 100 us apart on average (about 160 MB/s offered)."""
    return random_lines(random.Random(50), 0.0, 5_000, 100_000.0, 32, WRITER_SPAN_SECTORS, read=False)


def main() -> None:
    folder = Path(__file__).resolve().parent / "traces"
    folder.mkdir(exist_ok=True)
    (folder / "disjoint-reader.trace").write_text("".join(reader_lines()), encoding="ascii")
    (folder / "disjoint-writer.trace").write_text("".join(writer_lines()), encoding="ascii")


if __name__ == "__main__":
    main()
