"""Seed 000 (AOA-ECC): decoders chosen by wear and workload class, against the conventional BCH-then-
soft-LDPC controller.

The device and decoders are the preset ``seed000-aoa`` (its comments say what the seed gives and what
is chosen). Three parts:

- Fig. 5: tolerable P/E of BCH, Quick-LDPC, EP-LDPC (and soft LDPC) against data retention, from the
  ECC lab's tables in the preset (``ssdlab ecc decoder-tables``; mean over chips, 1 % failure).
- Fig. 6: IOPS against P/E (every block aged to the same count) on the prxy_1 stand-in, closed loop,
  conventional against AOA-ECC; the adaptive conventional controller (BCH per read by data age) beside.
- Fig. 7 / Table 1: every MSR trace in ../shared/traces (real samples and full traces, replayed closed
  loop, looped to at least ``min_requests``), the prxy_1 stand-in and labelled stand-ins for web_1 and
  proj_3, at one P/E count (``table_pe``); the class each gets online, and AOA-ECC's IOPS over the
  conventional controller's.

Real traces keep their own timestamps: a page's initial data age comes from how often the trace
rewrites it (``rewrite_interval``) and the online class from the same timeline, so a sample of minutes
is classed as ``ssdlab trace stats`` classes it (rates extrapolated to a week).

Grading (``ssdlab.reproduce.base``): each claim quotes the seed's sentence its reading rests on; the
numbers a fit or a reading was solved from (``AoaEcc.fits``: prxy_1's switch point, the chip's anchor; the
hot/cold switch ratio, whose numerator is that anchor; web_1's 0.91x, which chose Table 1's wear) are
"calibrated", the gate saving is arithmetic on the seed's own gate counts, and the other readings of a
claim are ``Reading`` rows, never counted. Every comparison headline carries both sides' ``Health``, read
off the rows the tables store (``{policy}_write_amplification`` and so on), and its "up to" claims take
their best over healthy comparisons only. The report is composed (``compose``) from the tables alone, so a
test can build it from hand-made rows and check that every number in its prose is the tables'.

The recipe is data plus templates. The claim book ``claims/aoa_ecc.toml`` holds the seed's numbers and
sentences (``SEED``, ``SEED_SENTENCES``, ``QUOTES``), the claims and their readings (``CLAIMS``), the fits
(``FITS``) and the readings' texts without a number (``TEXTS``). The grids (``grids``, one ``Sweep`` per
folder), the tables' columns (``*_COLUMNS``) and the figures' series are declared here. The report's prose
is the template ``templates/aoa_ecc.md.j2``; the headlines' notes, the readings' texts with numbers and the
workloads' descriptions ``templates/aoa_ecc_notes.md.j2`` (``say``); a class's caveats
``templates/aoa_ecc_class_caveats.md.j2``; all filled from the values computed here (``derived``).
"""

from __future__ import annotations

import dataclasses
import json
import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ssdlab import api, plotting
from ssdlab.locations import shared_dir
from ssdlab.reproduce import report
from ssdlab.reproduce.base import (
    TOLERANCE,
    Claim,
    Headline,
    Health,
    Option,
    Reading,
    Recipe,
    Workload,
    healthy,
)
from ssdlab.reproduce.claims import load
from ssdlab.reproduce.report import fmt, markdown_grid, markdown_table, provenance
from ssdlab.reproduce.templates import render
from ssdlab.sweep import Sweep, SweepError, run_sweep

PRESET = "seed000-aoa"
POLICIES: dict[str, list[str]] = {
    "conventional": ['read_path.strategy="conventional"'],
    "aoa_ecc": ['read_path.strategy="aoa_ecc"'],
}
# AOA-ECC's rule before issue 36: every class by its hot/cold switch P/E, read/write dominance ignored
# (the preset's rule is seed 000 §2's: write-dominant workloads read with EP-LDPC at every wear).
WEAR_ONLY = {"aoa_ecc_wear_only": ['read_path.strategy="aoa_ecc"', 'read_path.aoa_ecc.decision_rule="wear_only"']}
# BCH decided per read by data age: a stronger baseline than the seed's (see read_path/conventional.rs).
ADAPTIVE = {"adaptive_conventional": ['read_path.strategy="conventional"', 'read_path.conventional_switch="data_age"']}
# Seed 000's chip is rated about 3,000 P/E; the preset's decoder tables end there (a point past them
# would repeat the last one).
PE_POINTS = tuple(range(0, 3_001, 250))
# The regime: the prxy_1 stand-in's read share (not published; 65 % in the preset) at Fig. 7's P/E.
READ_SHARES = (0.5, 0.65, 0.8, 0.95)
# Fig. 7's wear: the conventional controller on soft LDPC, AOA-ECC still mostly on Quick-LDPC for hot data.
TABLE_PE = 1_500
# Table 1's wear: below the conventional controller's BCH switch point. Chosen because the seed's web_1
# (0.91x) is below 1, which this model allows only while the conventional controller reads with BCH:
# web_1's direction follows from this choice, so its claim is "calibrated" (see FITS).
TABLE1_PE = 500
MIN_REQUESTS = 50_000
WEEK_HOURS = 168.0
# The real prxy_1 trace (../shared/traces/STANDINS.md): its requests and distinct 4 KiB blocks in a week.
PRXY_1_REQUESTS = 168_638_964
PRXY_1_BLOCKS = 3_593_602
# Seed 000 Fig. 4: a workload whose reads are more than half of its requests is read-dominant.
READ_DOMINANT_SHARE = 0.5
# Seed 000 classes a week of each MSR workload (§3: "1 週間のワークロードを使用し"); an excerpt may not
# have the week's mix. The whole traces' published write shares (Wu et al., TPDS 2017, Table 4; in
# ../shared/traces/STANDINS.md) for the excerpts that have one (issue 46 item 3). An excerpt whose own
# mix puts it in the other class is left out of both classes' graded figures and shown as a reading.
PUBLISHED_WRITE_SHARE = {"hm_0": 0.645, "mds_0": 0.881}
# What the report calls an almost write-only trace, and a short one (its own timeline, one pass).
ALMOST_WRITE_ONLY_SHARE = 0.02
SHORT_TRACE_HOURS = 1.0
# Kinds of workload whose read share and timeline are a real trace's (not chosen here).
REAL_KINDS = ("sample", "full", "user")

# The claim book (claims/aoa_ecc.toml): the seed's numbers and sentences, the claims and their readings,
# the fits, and the readings' texts that carry no number (``TEXTS``).
BOOK = load("aoa_ecc")
SEED = BOOK.seed
TEXTS = BOOK.texts
SEED_SENTENCES = {key: sentences.original for key, sentences in BOOK.sentences.items()}
QUOTES = {key: sentences.quote for key, sentences in BOOK.sentences.items()}
CLAIMS = BOOK.claims
CLAIM = {claim.key: claim for claim in CLAIMS}
FITS = BOOK.fits

# The other conventional controllers (issue 47 item 1; the graded one is the preset's, see the claim book's
# ``conventional_reading``): readings, each run on Fig. 6's and Fig. 7's grids ("data_age" on Fig. 6 is the
# graded grid's adaptive controller).
CONVENTIONAL_VARIANTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "retention_24h": (
        "switch at BCH's tolerable P/E for 24 h old data",
        ('read_path.strategy="conventional"', "read_path.conventional_retention_hours=24.0"),
    ),
    "retention_72h": (
        "switch at BCH's tolerable P/E for 72 h old data",
        ('read_path.strategy="conventional"', "read_path.conventional_retention_hours=72.0"),
    ),
    "data_age": (
        "switch per read, at BCH's tolerable P/E for the page's own age",
        ('read_path.strategy="conventional"', 'read_path.conventional_switch="data_age"'),
    ),
    # BCH first, soft LDPC only when BCH fails: the conventional strategy whose design retention is the
    # tables' youngest age, where BCH's tolerable P/E is beyond the grid (checked in the report): it
    # never switches, and its ladder (BCH, then soft LDPC on a failure) is the strategy's own.
    "bch_first": (
        "BCH first at every wear, soft LDPC only when BCH fails",
        ('read_path.strategy="conventional"', "read_path.conventional_retention_hours=1.0"),
    ),
}
BCH_FIRST_HOURS = 1.0
# Fig. 7 at other wears than TABLE_PE (issue 47 item 2; why TABLE_PE: the claim book's ``fig7_wear_reading``).
FIG7_WEAR_READINGS = (1_000, 2_000, 2_500, 3_000)
# BCH's decode time (issue 46 item 1; docs/aoa-ecc.md, "BCH's decode time"): the seed gives none. The
# preset's 11.264 us is the ECC lab's cycle model of its own t = 256 BCH (n = 36,856 over GF(2^16)) at
# the LDPC decoder's throughput; these are the model's ends (64 bits a cycle at 400 MHz with a t-cycle
# key equation; byte-serial at 200 MHz with no overlap), run on Table 1's conventional side: readings.
BCH_DECODE_READINGS_NS = (2_080, 55_065)


# Seed 000 classes workloads by "読み出しデータの割合" (the share of read data, §3 and Fig. 4), which may
# count requests (the graded reading, the preset's) or data (issue 46 item 4): Fig. 7's AOA-ECC side is
# run again with the controller's class measured by data, and grouped by the run's read share of data.
DATA_SHARE = 'read_path.workload_class.read_share="data"'


# The SSD around the decoders (issue 46 item 2). The seed ran a TLM emulator ([2], "TLM (Transaction Level
# Modeling)ベースの SSD エミュレータ [2]") and names neither its bus nor a buffer. Its conventional
# controller's soft LDPC and its chip are its reference [1], "A 2nm High Performance 64Gb MLC NAND Flash Memory with
# 400 MB/s Asynchronous Toggle DDR Interface": the preset's 400 MB/s bus, graded. No write buffer: the
# seed names none. The other readings, Fig. 6 and Fig. 7 run again under each: seed 002's 200 MB/s bus
# (the preset before issue 46), and each bus with a 1 MiB write-back buffer in DRAM (a DDR3-1600 x16
# part, 3,200 MB/s, MQSim's tRCD + tCL of 26 ns; lines destaged in the background from 90 % dirty).
WRITE_BUFFER = (
    "device.data_cache.capacity_bytes=1048576",
    "device.data_cache.access_latency_ns=26",
    "device.data_cache.bandwidth_mb_per_s=3200",
)
SEED002_BUS = ("device.channel.transfer_rate_mts=200.0",)
GRADED_WRITE_PATH = "toggle_400"
WRITE_PATHS: dict[str, tuple[str, tuple[str, ...]]] = {
    GRADED_WRITE_PATH: ("400 MB/s toggle bus ([1]), no write buffer", ()),
    "bus_200": ("200 MB/s bus (seed 002's), no write buffer", SEED002_BUS),
    "toggle_400_buffer": ("400 MB/s toggle bus, 1 MiB write-back buffer", WRITE_BUFFER),
    "bus_200_buffer": ("200 MB/s bus, 1 MiB write-back buffer", SEED002_BUS + WRITE_BUFFER),
}


CONVENTIONAL_GRADED_LABEL = "switch at BCH's tolerable P/E for {hours:g} h old data"


# One side of a comparison as ``base.Health`` checks it, stored in every row as ``{policy}_{field}``
# (MB/s of all requests: the recipe compares IOPS of the whole mix), so a headline's health is read
# off the same table the report shows. Each row also keeps ``span_seconds``, the workload's own timeline.
HEALTH_FIELDS = ("mbps", "write_amplification", "held_fraction", "erase_max", "endurance", "simulated_seconds")
SIDES = {"conventional": "conventional", "aoa_ecc": "AOA-ECC"}


WORKLOAD_NAMES = ("prxy_1", "web_1", "proj_3")


# The report's tables, declared: (header, row key or function, ``report.fmt`` kind) per column.
def _shares(*keys: str, kind: str = "share") -> Callable[[Mapping[str, Any]], str]:
    """A cell of several of a row's values, " / " between them."""
    return lambda row: " / ".join(fmt(row.get(key), kind) for key in keys)


FIG6_POLICIES = ("conventional", "aoa_ecc", "adaptive_conventional")
# Fig. 6's curves: (policy, legend, line style); a policy's points with uncorrectable reads are marked too.
FIG6_SERIES = (
    ("conventional", "conventional (BCH → soft LDPC)", "s-"),
    ("aoa_ecc", "AOA-ECC (Quick → EP-LDPC)", "o-"),
    ("adaptive_conventional", "BCH chosen per read by data age", "^--"),
)
FIG6_COLUMNS = (
    ("P/E", "pe_cycles", "int"),
    ("conventional IOPS", "conventional_iops", "int"),
    ("AOA-ECC IOPS", "aoa_ecc_iops", "int"),
    ("AOA / conventional", "aoa_over_conventional", "times"),
    ("adaptive conventional IOPS", "adaptive_conventional_iops", "int"),
    ("conventional: BCH / soft reads", _shares("conventional_bch_share", "conventional_soft_share"), "text"),
    ("AOA: Quick / EP reads", _shares("aoa_quick_share", "aoa_ep_share"), "text"),
    ("adaptive: BCH reads", "adaptive_conventional_bch_share", "share"),
    (
        "uncorrectable reads: conventional / AOA / adaptive",
        _shares(*(f"{policy}_uncorrectable" for policy in FIG6_POLICIES), kind="int"),
        "text",
    ),
    ("health: conventional / AOA", lambda row: _health_text(row), "text"),
)
# Fig. 6's reads looked up outside the decoder tables' grid: (column header, key of each policy's count).
OUTSIDE_GRID_COLUMNS = (
    ("ECC-path reads: conventional / AOA / adaptive", "sampled_reads"),
    ("younger than the youngest age", "reads_younger_than_age_grid"),
    ("older than the oldest age", "reads_older_than_age_grid"),
    ("oldest such age (h)", "max_age_hours_past_grid"),
    ("worn past the last P/E", "reads_past_pe_grid"),
)
FIG7_COLUMNS = (
    ("workload", "workload", "text"),
    ("requests", "requests", "int"),
    ("reads", "read_share", "share"),
    ("hours (one pass)", "trace_hours", "sig"),
    ("class (online)", lambda row: row["class"] or "n/a", "text"),
    ("conventional IOPS", "conventional_iops", "int"),
    ("AOA-ECC IOPS", "aoa_ecc_iops", "int"),
    ("AOA / conventional", "aoa_over_conventional", "times"),
    ("AOA wear-only rule / conventional", "wear_only_over_conventional", "times"),
    ("AOA: Quick reads (seed rule / wear only)", _shares("aoa_quick_share", "aoa_wear_only_quick_share"), "text"),
    ("conventional: BCH reads", "conventional_bch_share", "share"),
    ("ECC-path page reads", "ecc_path_reads", "int"),
    ("uncorrectable: conventional / AOA", _shares("conventional_uncorrectable", "aoa_ecc_uncorrectable", kind="int"), "text"),
    ("health: conventional / AOA", lambda row: _health_text(row), "text"),
    ("status", "status", "text"),
)
REGIME_COLUMNS = (
    ("reads", "read_share", "share"),
    ("conventional IOPS", "conventional_iops", "int"),
    ("AOA-ECC IOPS", "aoa_ecc_iops", "int"),
    ("AOA / conventional", "aoa_over_conventional", "times"),
    ("conventional read mean us", "conventional_read_mean_us", "us"),
    ("AOA-ECC read mean us", "aoa_ecc_read_mean_us", "us"),
)
DATA_SHARE_COLUMNS = (
    ("workload", "workload", "text"),
    ("reads, share of requests", "read_share", "share"),
    ("reads, share of data", "data_read_share", "share"),
    ("class by requests (graded)", "class", "text"),
    ("class by data", "class_by_data", "text"),
    ("AOA-ECC / conventional (graded)", "aoa_over_conventional", "times"),
    ("AOA-ECC / conventional, by data", "aoa_over_conventional_by_data", "times"),
)
# "{table_pe}" in a header is Fig. 7's wear.
CONVENTIONAL_COLUMNS = (
    ("conventional controller", "label", "text"),
    ("Fig. 6 mean (same P/E points)", "fig6_mean", "times"),
    ("Fig. 6 best", "fig6_max", "times"),
    ("at P/E", "fig6_max_pe", "int"),
    ("prxy_1 at {table_pe:,} P/E: conventional first reads soft LDPC", "soft_share_at_table_pe", "share"),
    ("read-dominant best", "read_dominant_best", "times"),
    ("write-dominant best", "write_dominant_best", "times"),
)
FIG7_WEAR_COLUMNS = (
    ("P/E", "pe", "text"),
    ("prxy_1: conventional first reads soft LDPC", "conventional_soft_share", "share"),
    ("prxy_1: AOA-ECC first reads Quick-LDPC", "aoa_quick_share", "share"),
    ("read-dominant best", "read_dominant_best", "times"),
    ("workload", lambda row: row.get("read_dominant_best_workload"), "text"),
    ("verdict", "read_dominant_verdict", "text"),
    ("write-dominant best", "write_dominant_best", "times"),
    ("workload", lambda row: row.get("write_dominant_best_workload"), "text"),
    ("verdict", "write_dominant_verdict", "text"),
)
WRITE_PATH_COLUMNS = (
    ("write path", "label", "text"),
    ("Fig. 6 mean", "fig6_mean", "times"),
    ("Fig. 6 best", "fig6_max", "times"),
    ("at P/E", "fig6_max_pe", "int"),
    ("healthy Fig. 6 points", "fig6_healthy", "int"),
    ("read-dominant best", "read_dominant_best", "times"),
    ("write-dominant best", "write_dominant_best", "times"),
)
# The sweeps after the first four, as the opening paragraph counts them: (what, first, end) in ``outcomes``.
LATER_SWEEPS = (
    ("Table 1 with other BCH decode times", 4, 5),
    ("Fig. 7's AOA-ECC side classed by the read share of data", 5, 6),
    ("Fig. 6 and Fig. 7 under other write paths", 6, 8),
    ("Fig. 6 and Fig. 7 against other conventional controllers", 8, 10),
    ("Fig. 7 at other wears", 10, 11),
)
SWEEP_FOLDERS = (
    "sweep-fig6",
    "sweep-fig7",
    "sweep-regime",
    "sweep-table1",
    "sweep-table1-bch",
    "sweep-fig7-data-share",
    "sweep-fig6-write-path",
    "sweep-fig7-write-path",
    "sweep-fig6-conventional",
    "sweep-fig7-conventional",
    "sweep-fig7-wear",
)
# Each buffered write path and the same bus without the buffer (issue 47 item 4: what the runs show).
BUFFER_PAIRS = (("toggle_400_buffer", GRADED_WRITE_PATH), ("bus_200_buffer", "bus_200"))


def preset_config() -> dict[str, Any]:
    """The preset as a dict (its device, workload and read path)."""
    return tomllib.loads(api.load_config(PRESET))


def preset_tables() -> dict[str, Any]:
    """The preset's decoder tables and settings (the ECC lab's numbers, see the preset)."""
    return preset_config()["read_path"]


def _synthetic_seconds(requests: int, mean_interarrival_ns: float) -> float:
    """How long a synthetic workload's own timeline lasts (its arrivals), in seconds."""
    return requests * mean_interarrival_ns / 1e9


def _stand_in(read_fraction: float, requests: int, span_bytes: int) -> tuple[str, ...]:
    """A variation of the preset's prxy_1 stand-in (same locality, sizes and week-long timeline)."""
    return (
        f"workload.synthetic.requests={requests}",
        f"workload.synthetic.read_fraction={read_fraction}",
        f"workload.synthetic.span_bytes={span_bytes}",
        f'workload.synthetic.arrival={{ process = "poisson", mean_interarrival_ns = {WEEK_HOURS * 3.6e12 / requests:.1f} }}',
    )


def _trace_overrides(path: Path, requests: int, min_requests: int) -> tuple[str, ...]:
    return (f"workload.trace.path={json.dumps(str(path))}", f"host.loops={_loops(requests, min_requests)}")


def _loops(requests: int, min_requests: int) -> int:
    return max(1, math.ceil(min_requests / max(requests, 1)))


def _prxy_1_stand_in() -> Workload:
    """The preset's own workload, described from the preset (nothing here is typed twice)."""
    config = preset_config()
    synthetic = config["workload"]["synthetic"]
    seconds = _synthetic_seconds(synthetic["requests"], synthetic["arrival"]["mean_interarrival_ns"])
    basis = say(
        "prxy_1_basis",
        synthetic=synthetic,
        seconds=seconds,
        preset=PRESET,
        page_bytes=config["device"]["geometry"]["page_size_bytes"],
        real=(PRXY_1_REQUESTS, PRXY_1_BLOCKS),
    )
    return Workload("prxy_1", "stand-in", basis, extras={"duration_s": seconds, "loops": 1})


def _stand_in_workload(name: str, read_fraction: float, requests: int, span_bytes: int, why: str) -> Workload:
    """A labelled stand-in for a trace of the seed that is not available (nothing of it is published):
    the prxy_1 stand-in's locality and week of arrivals with its own read share, requests and space."""
    basis = say("stand_in_basis", read_fraction=read_fraction, requests=requests, span_bytes=span_bytes, why=why)
    extras = {"duration_s": _synthetic_seconds(requests, WEEK_HOURS * 3.6e12 / requests), "loops": 1}
    return Workload(name, "stand-in", basis, overrides=_stand_in(read_fraction, requests, span_bytes), extras=extras)


def _trace_basis(file_name: str, kind: str, stats: Mapping[str, Any]) -> str:
    """A real trace's line in the report's workload list, its numbers printed as Fig. 7's table prints them."""
    return say("trace_basis", file_name=file_name, kind=kind, stats=stats)


def workloads(min_requests: int = MIN_REQUESTS, traces: Mapping[str, Path] | None = None) -> tuple[Workload, ...]:
    """The prxy_1 stand-in, every MSR trace in ../shared/traces, and stand-ins for web_1 and proj_3
    (not available); a user's trace replaces a stand-in of the same name. ``extras``: the workload's own
    timeline for one pass (``duration_s``) and how many passes run (``loops``): the span a replay's
    simulated time is checked against."""
    traces = dict(traces or {})
    chosen: list[Workload] = [
        _prxy_1_stand_in(),
        _stand_in_workload("web_1", 0.30, 600_000, 52_428_800, "seed 000: write-dominant"),
        _stand_in_workload(
            "proj_3", 0.90, 200_000, 209_715_200, "seed 000: read-dominant; fewer writes per page: the class comes out as measured"
        ),
    ]
    where = shared_dir()
    folder = where / "traces" if where else None
    if folder is not None and folder.is_dir():
        for path in sorted(folder.glob("msr-*.csv.gz")):
            name = path.name.removeprefix("msr-").split(".")[0]
            stats = api.trace_stats(path)["stats"]
            kind = "full" if ".full." in path.name else "sample"
            basis = _trace_basis(path.name, kind, stats)
            extras = {"duration_s": stats["duration_s"], "loops": _loops(stats["requests"], min_requests)}
            chosen.append(Workload(name, kind, basis, overrides=_trace_overrides(path, stats["requests"], min_requests), extras=extras))
    result = []
    for workload in chosen:
        if workload.name in traces:
            path = traces.pop(workload.name)
            result.append(
                Workload(
                    workload.name,
                    "user",
                    f"full trace given by the user: {path}",
                    overrides=(f"workload.trace.path={json.dumps(str(path))}",),
                    extras={"duration_s": None, "loops": 1},
                )
            )
        else:
            result.append(workload)
    return tuple(result)


def parse_trace_options(items: Sequence[str]) -> dict[str, Path]:
    """``--trace NAME=PATH``: the user's full trace replaces the stand-in of that workload."""
    return report.parse_trace_options(items, WORKLOAD_NAMES)


def _span_seconds(workload: Workload) -> float | None:
    """The workload's own timeline over every pass the run makes (None: unknown, e.g. a user's trace)."""
    duration = workload.extras.get("duration_s")
    return duration * workload.extras.get("loops", 1) if duration else None


def _crossing(x: Sequence[float], y: Sequence[float], target: float) -> float | None:
    if y[0] >= target:
        return x[0]
    for i in range(1, len(x)):
        if y[i] >= target:
            fraction = (target - y[i - 1]) / (y[i] - y[i - 1]) if y[i] > y[i - 1] else 1.0
            return x[i - 1] + fraction * (x[i] - x[i - 1])
    return None


def tolerable_pe(read_path: Mapping[str, Any], which: str = "failure_probabilities") -> dict[str, list[float | None]]:
    """Each decoder's tolerable P/E at each retention of the grid (mean over chip classes), from the
    estimates or (``which``) from their lower or upper bounds."""
    tables = read_path["decoder_tables"]
    pes, hours = tables["pe_cycles"], tables["retention_hours"]
    target = read_path["target_failure_probability"]
    out = {}
    for decoder, chips in tables.get(which, {}).items():
        row = []
        for r in range(len(hours)):
            mean = [sum(chip[p][r] for chip in chips) / len(chips) for p in range(len(pes))]
            row.append(_crossing(pes, mean, target))
        out[decoder] = row
    return out


Interval = tuple[float | None, float | None]


def tolerable_intervals(read_path: Mapping[str, Any]) -> dict[str, list[Interval]]:
    """The 95 % interval of each tolerable P/E (``ssdlab ecc decoder-tables`` writes the bounds): from
    where the upper-bound curve reaches the target to where the lower-bound curve does (None: beyond
    the grid). Empty without bounds in the preset."""
    upper = tolerable_pe(read_path, "failure_probability_upper_bounds")
    lower = tolerable_pe(read_path, "failure_probability_lower_bounds")
    return {decoder: list(zip(upper[decoder], lower.get(decoder, [None] * len(upper[decoder])))) for decoder in upper}


def ratio_interval(numerator: Interval | None, denominator: Interval | None) -> Interval:
    """The interval of a ratio of two independent intervals (None where an end is beyond the grid)."""
    if not numerator or not denominator:
        return (None, None)
    (n_low, n_high), (d_low, d_high) = numerator, denominator
    low = n_low / d_high if n_low is not None and d_high else None
    high = n_high / d_low if n_high is not None and d_low else None
    return (low, high)


def decoder_costs(read_path: Mapping[str, Any]) -> dict[str, int | None]:
    """Gates of the decoder hardware each policy needs (hardware shared between kinds counted once)."""
    decoders = read_path.get("decoders", {})

    def cost(kinds: Sequence[str]) -> int | None:
        hardware: dict[str, int] = {}
        for kind in kinds:
            entry = decoders.get(kind, {})
            if "gates" not in entry:
                return None
            hardware[entry.get("hardware", kind)] = entry["gates"]
        return sum(hardware.values())

    return {"conventional": cost(["bch", "ldpc_soft"]), "aoa_ecc": cost(["quick_ldpc", "ep_ldpc", "ldpc_soft"])}


def grid_brackets(read_path: Mapping[str, Any], decoder: str) -> list[tuple[float, float, float, float] | None]:
    """Per retention of the tables, the two P/E grid points around ``decoder``'s tolerable P/E (mean over
    chip classes) with their failure probabilities: (P/E below, P/E at or above, p below, p above);
    None when the crossing is at the grid's first point or beyond its last."""
    tables = read_path["decoder_tables"]
    pes, hours = tables["pe_cycles"], tables["retention_hours"]
    target = read_path["target_failure_probability"]
    chips = tables["failure_probabilities"].get(decoder, [])
    out: list[tuple[float, float, float, float] | None] = []
    for r in range(len(hours)):
        mean = [sum(chip[p][r] for chip in chips) / len(chips) for p in range(len(pes))] if chips else []
        first = next((i for i, value in enumerate(mean) if value >= target), None)
        out.append(None if not first else (pes[first - 1], pes[first], mean[first - 1], mean[first]))
    return out


def ep_gain_grid(read_path: Mapping[str, Any], tolerable: Mapping[str, Sequence[float | None]]) -> list[dict[str, Any]]:
    """EP-LDPC's gain over BCH per retention against the tables' P/E grid (issue 47 item 6): where in its
    grid step each crossing falls (0: at the point below), the gain of the two grid points below the
    crossings, and the bracket the grid allows (EP-LDPC's low point over BCH's high, and the reverse)."""
    hours = read_path["decoder_tables"]["retention_hours"]
    bch, ep = grid_brackets(read_path, "bch"), grid_brackets(read_path, "ep_ldpc")
    out = []
    for i, h in enumerate(hours):
        b, e = bch[i], ep[i]
        pb, pe = tolerable.get("bch", [None] * len(hours))[i], tolerable.get("ep_ldpc", [None] * len(hours))[i]
        if not (b and e and pb and pe):
            continue
        out.append(
            {
                "hours": h,
                "gain": pe / pb - 1,
                "bch_step": (pb - b[0]) / (b[1] - b[0]),
                "ep_step": (pe - e[0]) / (e[1] - e[0]),
                "bch_points": (b[0], b[1]),
                "ep_points": (e[0], e[1]),
                "p_below": max(b[2], e[2]),
                "p_above": (min(b[3], e[3]), max(b[3], e[3])),
                "grid_gain": e[0] / b[0] - 1 if b[0] else None,
                "bracket": (e[0] / b[1] - 1, e[1] / b[0] - 1 if b[0] else None),
            }
        )
    return out


def switch_ratios(
    tolerable: Mapping[str, Sequence[float | None]], hours: Sequence[float], hot_hours: float
) -> list[tuple[float, float | None]]:
    """Quick-LDPC's hot switch point over its switch point at each longer retention (the cold class's
    retention is a definition: seed 000 says only "six days or more")."""
    quick = dict(zip(hours, tolerable.get("quick_ldpc", [])))
    hot = quick.get(hot_hours)
    return [(h, hot / pe if hot and pe else None) for h, pe in quick.items() if h > hot_hours]


def _sweep(folder: str, what: str, common: Sequence[str], cases: Mapping[str, Mapping[str, Sequence[str]]]) -> Sweep:
    """One of the recipe's sweeps, named after its folder (``sweep-fig6``: ``seed000-fig6``)."""
    name = folder.removeprefix("sweep-")
    copied = {axis: {case: list(overrides) for case, overrides in named.items()} for axis, named in cases.items()}
    return Sweep(name=f"seed000-{name}", base=PRESET, common=list(common), cases=copied, origin=f"reproduce aoa-ecc ({what})")


def _wear(pe: int) -> list[str]:
    return [f"ftl.aging.pe_cycles={pe}"]


def _by_wear(pes: Sequence[int]) -> dict[str, list[str]]:
    return {str(pe): _wear(pe) for pe in pes}


def _by_workload(chosen: Sequence[Workload]) -> dict[str, list[str]]:
    return {w.label: list(w.overrides) for w in chosen}


def grids(
    every: Sequence[Workload],
    selected: Sequence[Workload],
    pe_points: Sequence[int],
    table_pe: int,
    table1_pe: int,
    paths: Sequence[str],
    wears: Sequence[int],
) -> dict[str, Sweep]:
    """Every sweep of the recipe by its folder, in the order the report counts them: Fig. 6 (the prxy_1
    stand-in against wear), Fig. 7 (``selected`` at Fig. 7's wear), the read-share regime, Table 1 (web_1
    and proj_3 at its own wear) and the readings' grids: BCH's decode time, the read share counted in
    data, the other write paths (``paths``), the other conventional controllers (issue 47 item 1; Fig.
    6's "data_age" is the graded grid's adaptive controller, not run twice) and Fig. 7 at other ``wears``."""
    prxy = next(w for w in every if w.name == "prxy_1").overrides
    table1 = _by_workload([w for w in every if w.name in ("web_1", "proj_3")])
    variants = {name: list(overrides) for name, (_, overrides) in CONVENTIONAL_VARIANTS.items()}
    write_paths = {name: list(WRITE_PATHS[name][1]) for name in paths}
    fig7, table1_wear, chosen, pes = _wear(table_pe), _wear(table1_pe), _by_workload(selected), _by_wear(pe_points)
    shares = {f"{share:g}": [f"workload.synthetic.read_fraction={share}"] for share in READ_SHARES}
    bch = {str(ns): [f"read_path.decoders.bch.decode_latency_ns={ns}"] for ns in BCH_DECODE_READINGS_NS}
    conventional, data_share = {"conventional": POLICIES["conventional"]}, {"aoa_ecc": [*POLICIES["aoa_ecc"], DATA_SHARE]}
    fig6_variants = {name: overrides for name, overrides in variants.items() if name != "data_age"}
    # (folder, what, common overrides, cases by axis in the order they nest)
    declared = [
        ("sweep-fig6", "Fig. 6", prxy, {"pe": pes, "policy": {**POLICIES, **ADAPTIVE}}),
        ("sweep-fig7", "Fig. 7", fig7, {"workload": chosen, "policy": {**POLICIES, **WEAR_ONLY}}),
        ("sweep-regime", "regime", fig7, {"read_share": shares, "policy": POLICIES}),
        ("sweep-table1", "Table 1", table1_wear, {"workload": table1, "policy": {**POLICIES, **WEAR_ONLY}}),
        ("sweep-table1-bch", "Table 1, BCH decode time", table1_wear, {"workload": table1, "bch_decode_ns": bch, "policy": conventional}),
        ("sweep-fig7-data-share", "Fig. 7, read share of data", fig7, {"workload": chosen, "policy": data_share}),
        ("sweep-fig6-write-path", "Fig. 6, write path", prxy, {"write_path": write_paths, "pe": pes, "policy": POLICIES}),
        ("sweep-fig7-write-path", "Fig. 7, write path", fig7, {"write_path": write_paths, "workload": chosen, "policy": POLICIES}),
        ("sweep-fig6-conventional", "Fig. 6, conventional switch", prxy, {"conventional": fig6_variants, "pe": pes}),
        ("sweep-fig7-conventional", "Fig. 7, conventional switch", fig7, {"conventional": variants, "workload": chosen}),
    ]
    if wears:
        declared.append(("sweep-fig7-wear", "Fig. 7, other wears", (), {"pe": _by_wear(wears), "workload": chosen, "policy": POLICIES}))
    return {folder: _sweep(folder, what, common, cases) for folder, what, common, cases in declared}


def _result(row: Mapping[str, Any]) -> dict[str, Any] | None:
    return json.loads(row["result_json"]) if row["status"] == "ok" else None


def _decoder_share(result: Mapping[str, Any] | None, decoder: str) -> float | None:
    if not result or not result.get("read_path"):
        return None
    statistics = result["read_path"]
    reads = statistics.get("sampled_reads", 0)
    first = sum(d["first_choice_reads"] for d in statistics.get("decoders", []) if d["decoder"] == decoder)
    return first / reads if reads else None


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    return numerator / denominator if numerator and denominator else None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _health_columns(policy: str, result: Mapping[str, Any] | None) -> dict[str, Any]:
    health = Health.from_result(policy, result, op="all")
    return {f"{policy}_{name}": getattr(health, name) for name in HEALTH_FIELDS}


def side_health(row: Mapping[str, Any], policy: str) -> Health:
    """One side of a row's comparison (no settling window in this recipe: ``settled`` is None)."""
    return Health(
        SIDES.get(policy, policy), **{name: row.get(f"{policy}_{name}") for name in HEALTH_FIELDS}, span_seconds=row.get("span_seconds")
    )


def comparison_health(row: Mapping[str, Any]) -> tuple[Health, Health]:
    """Both sides of a row's AOA-ECC-over-conventional comparison: the baseline first."""
    return (side_health(row, "conventional"), side_health(row, "aoa_ecc"))


def worst_health(rows: Sequence[Mapping[str, Any]], policy: str) -> Health:
    """One side over several points (Fig. 6's mean): every check at its worst point, the lowest MB/s."""
    sides = [side_health(row, policy) for row in rows]

    def worst(name: str, pick: Callable[[Sequence[float]], float] = max) -> float | None:
        values = [getattr(h, name) for h in sides if getattr(h, name) is not None]
        return pick(values) if values else None

    timed = [h for h in sides if h.simulated_seconds is not None and h.span_seconds]
    longest = max(timed, key=lambda h: h.simulated_seconds / h.span_seconds) if timed else None  # type: ignore[operator]
    return Health(
        f"{SIDES.get(policy, policy)} (worst of {len(rows)} points)",
        mbps=worst("mbps", min),
        write_amplification=worst("write_amplification"),
        held_fraction=worst("held_fraction"),
        erase_max=worst("erase_max"),
        endurance=worst("endurance", min),
        simulated_seconds=longest.simulated_seconds if longest else None,
        span_seconds=longest.span_seconds if longest else None,
    )


def fig6_rows(rows: Sequence[Mapping[str, Any]], span_seconds: float | None = None) -> list[dict[str, Any]]:
    """Fig. 6's table: one row per P/E count, each policy's IOPS, decoder shares, uncorrectable and
    clamped reads and health (``span_seconds``: the prxy_1 stand-in's own timeline)."""
    grouped: dict[int, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(int(row["point.pe"]), {})[row["point.policy"]] = row
    table = []
    for pe in sorted(grouped):
        entry: dict[str, Any] = {"pe_cycles": pe, "span_seconds": span_seconds}
        results = {policy: _result(grouped[pe][policy]) if policy in grouped[pe] else None for policy in (*POLICIES, *ADAPTIVE)}
        for policy, result in results.items():
            entry[f"{policy}_iops"] = result["all"]["iops"] if result else None
            entry[f"{policy}_read_mean_us"] = result["read"]["latency_us"]["mean"] if result else None
            entry[f"{policy}_uncorrectable"] = result["read_path"]["uncorrectable_reads"] if result and result.get("read_path") else None
            outside = ((result or {}).get("read_path") or {}).get("outside_decoder_tables") or {}
            # Reads looked up outside the decoder tables' grid (the edge row or column used instead).
            for key in ("reads_past_pe_grid", "reads_younger_than_age_grid", "reads_older_than_age_grid", "max_age_hours_past_grid"):
                entry[f"{policy}_{key}"] = outside.get(key) if outside else None
            entry[f"{policy}_sampled_reads"] = ((result or {}).get("read_path") or {}).get("sampled_reads")
            entry.update(_health_columns(policy, result))
        aoa, conv = results["aoa_ecc"], results["conventional"]
        entry["read_share"] = aoa["read"]["count"] / aoa["requests"] if aoa and aoa["requests"] else None
        entry["aoa_quick_share"] = _decoder_share(aoa, "quick_ldpc")
        entry["aoa_ep_share"] = _decoder_share(aoa, "ep_ldpc")
        entry["conventional_bch_share"] = _decoder_share(conv, "bch")
        entry["conventional_soft_share"] = _decoder_share(conv, "ldpc_soft")
        entry["adaptive_conventional_bch_share"] = _decoder_share(results["adaptive_conventional"], "bch")
        entry["aoa_over_conventional"] = _ratio(entry["aoa_ecc_iops"], entry["conventional_iops"])
        entry["class"] = (aoa or {}).get("workload_class", {}).get("final_class")
        table.append(entry)
    return table


def fig7_rows(rows: Sequence[Mapping[str, Any]], selected: Sequence[Workload]) -> list[dict[str, Any]]:
    """Fig. 7's (and Table 1's) table: one row per workload, the three policies' IOPS, the class, the
    decoder shares, the workload's own timeline and both compared sides' health."""
    grouped: dict[str, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(row["point.workload"], {})[row["point.policy"]] = row
    table = []
    for workload in selected:
        label = workload.label
        runs = grouped.get(label, {})
        aoa = _result(runs["aoa_ecc"]) if "aoa_ecc" in runs else None
        conv = _result(runs["conventional"]) if "conventional" in runs else None
        wear_only = _result(runs["aoa_ecc_wear_only"]) if "aoa_ecc_wear_only" in runs else None
        reads = aoa["read"]["count"] if aoa else 0
        requests = aoa["requests"] if aoa else 0
        duration = workload.extras.get("duration_s")
        entry = {
            "workload": label,
            "kind": workload.kind,
            "requests": requests,
            "read_share": reads / requests if requests else None,
            # The workload's own timeline: one pass (hours) and every pass the run makes (seconds).
            "trace_hours": duration / 3600 if duration else None,
            "loops": workload.extras.get("loops", 1),
            "span_seconds": _span_seconds(workload),
            "class": aoa["workload_class"]["final_class"] if aoa and aoa.get("workload_class") else None,
            "conventional_iops": conv["all"]["iops"] if conv else None,
            "aoa_ecc_iops": aoa["all"]["iops"] if aoa else None,
            "aoa_wear_only_iops": wear_only["all"]["iops"] if wear_only else None,
            "aoa_quick_share": _decoder_share(aoa, "quick_ldpc"),
            "aoa_wear_only_quick_share": _decoder_share(wear_only, "quick_ldpc"),
            "conventional_bch_share": _decoder_share(conv, "bch"),
            "conventional_soft_share": _decoder_share(conv, "ldpc_soft"),
            # Page reads through the ECC path: host reads plus the reads of read-modify-write
            # (partial-page writes), so a workload without host reads still has some.
            "ecc_path_reads": (aoa.get("read_path") or {}).get("sampled_reads") if aoa else None,
            **{
                f"{policy}_uncorrectable": (result.get("read_path") or {}).get("uncorrectable_reads") if result else None
                for policy, result in (("conventional", conv), ("aoa_ecc", aoa), ("aoa_ecc_wear_only", wear_only))
            },
            **_health_columns("conventional", conv),
            **_health_columns("aoa_ecc", aoa),
            "status": "ok" if aoa and conv else "; ".join(str(runs[p]["error"]) for p in runs if runs[p]["status"] != "ok") or "missing",
        }
        entry["aoa_over_conventional"] = _ratio(entry["aoa_ecc_iops"], entry["conventional_iops"])
        published = PUBLISHED_WRITE_SHARE.get(workload.name) if workload.kind == "sample" else None
        entry["published_read_share"] = 1 - published if published is not None else None
        entry["representative"] = (
            published is None
            or entry["read_share"] is None
            or (entry["read_share"] > READ_DOMINANT_SHARE) == (1 - published > READ_DOMINANT_SHARE)
        )
        entry["wear_only_over_conventional"] = _ratio(entry["aoa_wear_only_iops"], entry["conventional_iops"])
        table.append(entry)
    return table


def _class_values(rows: Sequence[Mapping[str, Any]], read_dominant: bool) -> dict[str, Any]:
    """Fig. 7's figures for one class (by the run's read share, seed 000 Fig. 4): its rows, the healthy
    ones, the best healthy comparison (the seed's "up to"), the class mean and the best on real traces."""
    by_own_mix = [
        r
        for r in rows
        if r["aoa_over_conventional"] and r["read_share"] is not None and (r["read_share"] > READ_DOMINANT_SHARE) == read_dominant
    ]
    members = [r for r in by_own_mix if r.get("representative", True)]
    fit = healthy(members, comparison_health)
    fit_own = healthy(by_own_mix, comparison_health)

    def best(candidates: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
        return max(candidates, key=lambda r: r["aoa_over_conventional"]) if candidates else None

    return {
        "rows": members,
        "healthy": fit,
        "best": best(fit),
        "best_real": best([r for r in fit if r["kind"] in REAL_KINDS]),
        "mean": _mean([r["aoa_over_conventional"] for r in members]),
        "wear_only_mean": _mean([r["wear_only_over_conventional"] for r in members if r["wear_only_over_conventional"]]),
        # Excerpts whose own mix is this class but whose whole trace's is the other (left out above).
        "unrepresentative": [r for r in by_own_mix if not r.get("representative", True)],
        "best_by_own_mix": best(fit_own),
    }


def regime_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    grouped: dict[float, dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(float(row["point.read_share"]), {})[row["point.policy"]] = row
    table = []
    for share in sorted(grouped):
        runs = grouped[share]
        conv = _result(runs["conventional"]) if "conventional" in runs else None
        aoa = _result(runs["aoa_ecc"]) if "aoa_ecc" in runs else None
        entry = {
            "read_share": share,
            "conventional_iops": conv["all"]["iops"] if conv else None,
            "aoa_ecc_iops": aoa["all"]["iops"] if aoa else None,
            "conventional_read_mean_us": conv["read"]["latency_us"]["mean"] if conv else None,
            "aoa_ecc_read_mean_us": aoa["read"]["latency_us"]["mean"] if aoa else None,
            "conventional_soft_share": _decoder_share(conv, "ldpc_soft"),
            "aoa_quick_share": _decoder_share(aoa, "quick_ldpc"),
        }
        entry["aoa_over_conventional"] = _ratio(entry["aoa_ecc_iops"], entry["conventional_iops"])
        table.append(entry)
    return table


def bch_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per (workload, BCH decode time): the conventional controller's IOPS."""
    table = []
    for row in rows:
        result = _result(row)
        table.append(
            {
                "workload": row["point.workload"],
                "bch_decode_ns": int(row["point.bch_decode_ns"]),
                "conventional_iops": result["all"]["iops"] if result else None,
            }
        )
    return table


def data_share_rows(rows: Sequence[Mapping[str, Any]], fig7: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per workload: its read share of data (pages read over pages moved by the host), the class
    the controller measured by data, and AOA-ECC's IOPS that way over Fig. 7's conventional IOPS."""
    conventional = {r["workload"]: r.get("conventional_iops") for r in fig7}
    table = []
    for row in rows:
        result = _result(row)
        read_bytes = result["read"]["bytes"] if result else 0
        write_bytes = result["write"]["bytes"] if result else 0
        moved = read_bytes + write_bytes
        aoa_iops = result["all"]["iops"] if result else None
        table.append(
            {
                "workload": row["point.workload"],
                "data_read_share": read_bytes / moved if moved else None,
                "class_by_data": (result.get("workload_class") or {}).get("final_class") if result else None,
                "aoa_ecc_iops_by_data": aoa_iops,
                "aoa_over_conventional_by_data": _ratio(aoa_iops, conventional.get(row["point.workload"])),
            }
        )
    return table


def write_path_tables(
    fig6: Sequence[Mapping[str, Any]], fig7: Sequence[Mapping[str, Any]], selected: Sequence[Workload], span_seconds: float | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Fig. 6's and Fig. 7's tables of the write-path sweeps, each row tagged with its write path."""
    return (
        [{"write_path": n, **r} for n in WRITE_PATHS for r in fig6_rows([p for p in fig6 if p["point.write_path"] == n], span_seconds)],
        [{"write_path": n, **r} for n in WRITE_PATHS for r in fig7_rows([p for p in fig7 if p["point.write_path"] == n], selected)],
    )


def _summary(best6: Mapping[str, Any] | None, table7: Sequence[Mapping[str, Any]], **fields: Any) -> dict[str, Any]:
    """A variant's row in the report's summary tables (write paths, conventional controllers, Fig. 7's
    wears): ``fields``, Fig. 6's best healthy point, and each class's best healthy workload (and its
    row), mean and number of healthy comparisons."""
    row = {**fields, "fig6_max": (best6 or {}).get("aoa_over_conventional"), "fig6_max_pe": (best6 or {}).get("pe_cycles")}
    for key in ("read_dominant", "write_dominant"):
        group = _class_values(table7, key == "read_dominant")
        best = group["best"] or {}
        row[f"{key}_best"], row[f"{key}_best_workload"] = best.get("aoa_over_conventional"), best.get("workload")
        row[f"{key}_best_row"], row[f"{key}_mean"], row[f"{key}_healthy"] = group["best"], group["mean"], len(group["healthy"])
    return row


def write_path_rows(
    read_path: Mapping[str, Any],
    tolerable: Mapping[str, Sequence[float | None]],
    graded: Mapping[str, Any],
    fig6: Sequence[Mapping[str, Any]],
    fig7: Sequence[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """One row per write path: Fig. 6's mean (after the conventional switch) and best, each class's best
    and how many comparisons were healthy. ``graded`` is the graded run's ``derived`` values (its row
    is built from them, not run twice); ``fig6``/``fig7`` are ``write_path_tables``."""
    rows = []
    for name in WRITE_PATHS:
        table6 = [r for r in fig6 if r["write_path"] == name]
        table7 = [r for r in fig7 if r["write_path"] == name]
        if name == GRADED_WRITE_PATH or table6 or table7:
            values = graded if name == GRADED_WRITE_PATH else derived(read_path, tolerable, table6, table7)
            label, fig6_mean = WRITE_PATHS[name][0], values["mean_ratio_switched"]
            fig6_counts = {"fig6_healthy": len(values["fig6_healthy"]), "fig6_points": len(values["fig6_candidates"])}
            fields = {"write_path": name, "label": label, "graded": name == GRADED_WRITE_PATH, "fig6_mean": fig6_mean, **fig6_counts}
            rows.append(_summary(values["fig6_best"], values["table7"], **fields))
    return rows


def conventional_tables(
    fig6: Sequence[Mapping[str, Any]],
    fig6_variants: Sequence[Mapping[str, Any]],
    fig7: Sequence[Mapping[str, Any]],
    fig7_variants: Sequence[Mapping[str, Any]],
    selected: Sequence[Workload],
    span_seconds: float | None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Fig. 6's and Fig. 7's tables with each variant's conventional runs against the graded AOA-ECC
    runs (the sweeps' raw rows), each row tagged ``conventional_variant``."""

    def as_conventional(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [{**r, "point.policy": "conventional"} for r in rows]

    aoa6 = [r for r in fig6 if r["point.policy"] == "aoa_ecc"]
    aoa7 = [r for r in fig7 if r["point.policy"] == "aoa_ecc"]
    rows6: list[dict[str, Any]] = []
    rows7: list[dict[str, Any]] = []
    for name in CONVENTIONAL_VARIANTS:
        if name == "data_age":
            conv6 = as_conventional([r for r in fig6 if r["point.policy"] == "adaptive_conventional"])
        else:
            conv6 = as_conventional([r for r in fig6_variants if r.get("point.conventional") == name])
        conv7 = as_conventional([r for r in fig7_variants if r.get("point.conventional") == name])
        rows6 += [{"conventional_variant": name, **r} for r in (fig6_rows([*aoa6, *conv6], span_seconds) if conv6 else ())]
        rows7 += [{"conventional_variant": name, **r} for r in (fig7_rows([*aoa7, *conv7], selected) if conv7 else ())]
    return rows6, rows7


def conventional_rows(
    values: Mapping[str, Any], fig6: Sequence[Mapping[str, Any]], fig7: Sequence[Mapping[str, Any]], table_pe: int
) -> list[dict[str, Any]]:
    """One row per conventional controller (the graded one first): Fig. 6's mean over the P/E points
    where the graded controller reads with soft LDPC (the same points for every controller), Fig. 6's
    best healthy point, the prxy_1 stand-in's soft-LDPC first reads at Fig. 7's wear, each class's best."""
    graded_pes = {r["pe_cycles"] for r in values["switched_rows"]}

    def at_table_pe(table7: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        prxy = next((r for r in table7 if r["workload"].startswith("prxy_1")), {})
        return {"soft_share_at_table_pe": prxy.get("conventional_soft_share"), "bch_share_at_table_pe": prxy.get("conventional_bch_share")}

    label = "the preset's: " + CONVENTIONAL_GRADED_LABEL.format(hours=values.get("conventional_hours", 144.0))
    graded = {"variant": "graded", "label": label, "graded": True, "fig6_mean": values["mean_ratio_switched"]}
    rows = [_summary(values["fig6_best"], values["table7"], **graded, **at_table_pe(values["table7"]))]
    for name, (label, _) in CONVENTIONAL_VARIANTS.items():
        table6 = [r for r in fig6 if r["conventional_variant"] == name]
        table7 = [r for r in fig7 if r["conventional_variant"] == name]
        if not (table6 or table7):
            continue
        compared = [r for r in table6 if r["aoa_over_conventional"]]
        fit = healthy(compared, comparison_health)
        fig6_mean = _mean([r["aoa_over_conventional"] for r in compared if r["pe_cycles"] in graded_pes])
        best6 = max(fit, key=lambda r: r["aoa_over_conventional"]) if fit else None
        fields = {"variant": name, "label": label, "graded": False, "fig6_mean": fig6_mean, **at_table_pe(table7)}
        rows.append(_summary(best6, table7, **fields))
    return rows


def fig7_wear_tables(rows: Sequence[Mapping[str, Any]], selected: Sequence[Workload]) -> list[dict[str, Any]]:
    """Fig. 7's table at each wear of the wear sweep, each row tagged ``wear_pe``."""
    wears = sorted({int(r["point.pe"]) for r in rows})
    return [{"wear_pe": pe, **r} for pe in wears for r in fig7_rows([p for p in rows if int(p["point.pe"]) == pe], selected)]


def fig7_wear_rows(values: Mapping[str, Any], table: Sequence[Mapping[str, Any]], table_pe: int) -> list[dict[str, Any]]:
    """One row per wear (Fig. 7's graded wear among them): each class's best healthy ratio and the verdict
    it would get, and the prxy_1 stand-in's conventional soft-LDPC and AOA-ECC Quick-LDPC first reads."""
    by_wear: dict[int, list[Mapping[str, Any]]] = {table_pe: list(values["table7"])}
    for row in table:
        if row["wear_pe"] != table_pe:
            by_wear.setdefault(row["wear_pe"], []).append(row)
    out = []
    for pe in sorted(by_wear):
        prxy = next((r for r in by_wear[pe] if r["workload"].startswith("prxy_1")), {})
        shares = {"conventional_soft_share": prxy.get("conventional_soft_share"), "aoa_quick_share": prxy.get("aoa_quick_share")}
        entry = _summary(None, by_wear[pe], pe_cycles=pe, graded=pe == table_pe, **shares)
        for key in ("read_dominant", "write_dominant"):
            best = entry[f"{key}_best_row"]
            entry[f"{key}_verdict"] = (
                CLAIM[key].measure(best["aoa_over_conventional"], health=comparison_health(best)).verdict if best else "no result"
            )
        out.append(entry)
    return out


def derived(
    read_path: Mapping[str, Any],
    tolerable: Mapping[str, Sequence[float | None]],
    table6: Sequence[Mapping[str, Any]],
    table7: Sequence[Mapping[str, Any]],
    table1: Sequence[Mapping[str, Any]] = (),
    table1_pe: int | None = None,
) -> dict[str, Any]:
    """The figures the report and the headlines read off the tables."""
    hours = read_path["decoder_tables"]["retention_hours"]
    aoa = read_path.get("aoa_ecc", {})
    hot_hours, cold_hours = aoa.get("hot_retention_hours", 24.0), aoa.get("cold_retention_hours", 144.0)

    def at(decoder: str, h: float) -> float | None:
        return tolerable.get(decoder, [None] * len(hours))[hours.index(h)] if h in hours else None

    ep_gain = {h: (at("ep_ldpc", h) / at("bch", h) - 1) if at("ep_ldpc", h) and at("bch", h) else None for h in hours}
    hot_switch, cold_switch = at("quick_ldpc", hot_hours), at("quick_ldpc", cold_hours)
    intervals = tolerable_intervals(read_path)

    def interval(decoder: str, h: float) -> Interval | None:
        return intervals[decoder][hours.index(h)] if decoder in intervals and h in hours else None

    ep_gain_low, ep_gain_high = ratio_interval(interval("ep_ldpc", cold_hours), interval("bch", cold_hours))
    compared = [r for r in table6 if r["aoa_over_conventional"]]
    ratios = [r["aoa_over_conventional"] for r in compared]
    # Fig. 6's mean as the seed's sentence reads it: once the conventional controller has switched to
    # soft LDPC (for any block: the switch point is per chip class).
    switched = [r for r in compared if (r["conventional_soft_share"] or 0) > 0]
    fig6_healthy = healthy(compared, comparison_health)
    costs = decoder_costs(read_path)
    # The conclusion's "信頼性を 57%改善した" read against the whole conventional controller (a reading):
    # uncorrectable reads over Fig. 6's points, and EP-LDPC against the controller's strong code.
    uncorrectable = {p: sum(r[f"{p}_uncorrectable"] or 0 for r in table6) for p in ("conventional", "aoa_ecc")}
    ep_soft = (at("ep_ldpc", cold_hours), at("ldpc_soft", cold_hours))
    return {
        "hours": hours,
        "decode_us": read_path.get("decode_latency_ns", 0) / 1000,
        "uncorrectable_totals": uncorrectable,
        "uncorrectable_equal_everywhere": all(r["conventional_uncorrectable"] == r["aoa_ecc_uncorrectable"] for r in table6),
        "fewer_uncorrectable": 1 - uncorrectable["aoa_ecc"] / uncorrectable["conventional"] if uncorrectable["conventional"] else None,
        "ep_over_soft": ep_soft[0] / ep_soft[1] - 1 if ep_soft[0] and ep_soft[1] else None,
        "hot_hours": hot_hours,
        "cold_hours": cold_hours,
        "ep_gain": ep_gain,
        "hot_switch": hot_switch,
        "cold_switch": cold_switch,
        "switch_ratio": _ratio(hot_switch, cold_switch),
        "switch_ratios": switch_ratios(tolerable, hours, hot_hours),
        "intervals": intervals,
        "hot_switch_interval": interval("quick_ldpc", hot_hours),
        "cold_switch_interval": interval("quick_ldpc", cold_hours),
        "switch_ratio_interval": ratio_interval(interval("quick_ldpc", hot_hours), interval("quick_ldpc", cold_hours)),
        "ep_gain_interval": (
            ep_gain_low - 1 if ep_gain_low is not None else None,
            ep_gain_high - 1 if ep_gain_high is not None else None,
        ),
        "ratios": ratios,
        "mean_ratio": _mean(ratios),
        "switched_rows": switched,
        "switched_pe": (switched[0]["pe_cycles"], switched[-1]["pe_cycles"]) if switched else None,
        "mean_ratio_switched": _mean([r["aoa_over_conventional"] for r in switched]),
        "fig6_candidates": compared,
        "fig6_healthy": fig6_healthy,
        "fig6_best": max(fig6_healthy, key=lambda r: r["aoa_over_conventional"]) if fig6_healthy else None,
        "uncorrectable_from_pe": next(
            (
                r["pe_cycles"]
                for r in table6
                if any((r[f"{p}_uncorrectable"] or 0) > 0 for p in ("conventional", "aoa_ecc", "adaptive_conventional"))
            ),
            None,
        ),
        "costs": costs,
        "saving": 1 - costs["aoa_ecc"] / costs["conventional"] if costs["aoa_ecc"] and costs["conventional"] else None,
        "by_name": {r["workload"].split(" ")[0]: r for r in table7},
        "table7": list(table7),
        "conventional_hours": read_path.get("conventional_retention_hours", 144.0),
        "ep_grid": ep_gain_grid(read_path, tolerable),
        "table1_by_name": {r["workload"].split(" ")[0]: r for r in table1},
        "table1_pe": table1_pe,
        "table1_rows": list(table1),
        "read_dominant": _class_values(table7, True),
        "write_dominant": _class_values(table7, False),
    }


def gain_cuts(paper_ratio: float) -> tuple[float, float]:
    """The ratios where the gain rule's 30 % band around a ratio claim's gain ends (2.3x: 1.91x and 2.69x)."""
    gain = paper_ratio - 1.0
    return 1.0 + (1.0 - TOLERANCE) * gain, 1.0 + (1.0 + TOLERANCE) * gain


def within_cuts(ratio: float | None, paper_ratio: float) -> bool:
    low, high = gain_cuts(paper_ratio)
    return ratio is not None and min(low, high) <= ratio <= max(low, high)


def straddled_cut(interval: Any, paper_ratio: float) -> float | None:
    """The gain rule's 30 % cut a ratio's interval crosses (None: it crosses none, or an end is unknown)."""
    if not interval or interval[0] is None or interval[1] is None:
        return None
    return next((cut for cut in gain_cuts(paper_ratio) if interval[0] < cut < interval[1]), None)


def _bch_flips(values: Mapping[str, Any], name: str) -> list[tuple[float, float]]:
    """A Table 1 workload under the BCH decode readings: (BCH decode us, AOA-ECC over conventional) at each
    end of the cycle model."""
    aoa = (values["table1_by_name"].get(name) or {}).get("aoa_ecc_iops")
    ratios = [
        (bch["bch_decode_ns"] / 1000, _ratio(aoa, bch["conventional_iops"]))
        for bch in values.get("bch_rows", ())
        if bch["workload"].split(" ")[0] == name
    ]
    return [(us, r) for us, r in ratios if r is not None]


def say(part: str, values: Mapping[str, Any] | None = None, **context: Any) -> str:
    """A short text with computed numbers (a headline's note or ``where``, a reading's name, assumes and
    why, one a line): the part ``part`` of ``aoa_ecc_notes.md.j2``, from ``values`` (``derived``)."""
    return render("aoa_ecc_notes.md.j2", filters=FILTERS, part=part, v=values or {}, t=TEXTS, **context).rstrip("\n")


def _said(claim: str, part: str, value: float | None, supported: bool, text: str, values: Mapping[str, Any], **context: Any) -> Reading:
    """A reading whose name, assumes and why are the three lines ``say`` writes for ``part``."""
    name, assumes, why = say(part, values, **context).split("\n")
    return Reading(claim, name, value, assumes, supported, why, text)


def _plain(claim: str, name: str, value: float | None, assumes: str, supported: bool, why: str, text: str | None = None) -> Reading:
    """A reading whose assumes and why carry no number: the claim book's texts named ``assumes`` and ``why``."""
    return Reading(claim, name, value, TEXTS[assumes], supported, TEXTS[why], fmt(value, "times") if text is None else text)


def _best_text(value: float | None, row: Mapping[str, Any] | None, missing: str = "n/a") -> str:
    """A best ratio as the tables print it, with its workload ("n/a" when no row)."""
    return f"{fmt(value, 'times')} ({row['workload']})" if row else missing


def _stand_in_caveat(claim: Claim, group: Mapping[str, Any], verdict: str) -> dict[str, Any] | None:
    """When a class's best is a stand-in, its read share was chosen by ssdlab (the ratio grows with it):
    the gain rule's cut nearest the best, and the verdict the best over real traces only would get."""
    best, real = group["best"], group["best_real"]
    if not best or best["kind"] in REAL_KINDS:
        return None
    return {
        "cut": min(gain_cuts(float(claim.paper)), key=lambda c: abs(c - best["aoa_over_conventional"])),
        "real_verdict": claim.measure(real["aoa_over_conventional"], health=comparison_health(real)).verdict if real else None,
    }


def headlines(values: Mapping[str, Any]) -> list[Headline]:
    """Seed 000's figures beside ours, each under the reading its quoted sentence supports."""
    switched, best6 = values["switched_rows"], values["fig6_best"]
    # The 57 % names no retention: say whether the verdict depends on the graded reading's 144 h.
    ep_verdicts = [CLAIM["ep_over_bch"].measure(g).verdict for g in values["ep_gain"].values() if g is not None]
    switch_paper = SEED["hot_over_cold_switch"]
    passing = [h for h, r in values["switch_ratios"] if within_cuts(r, switch_paper)]
    out = [
        CLAIM["ep_over_bch"].measure(
            values["ep_gain"].get(values["cold_hours"]),
            where=say("ep_where", values),
            note=say(
                "ep_over_bch", values, grid_row=next((r for r in values.get("ep_grid", ()) if r["hours"] == values["cold_hours"]), None)
            ),
            reading=say("ep_over_bch_reading", values, reading=CLAIM["ep_over_bch"].reading, verdicts=list(dict.fromkeys(ep_verdicts))),
        ),
        CLAIM["hot_over_cold_switch"].measure(
            values["switch_ratio"],
            where=say("switch_where", values),
            note=say(
                "hot_over_cold_switch",
                values,
                anchor=SEED["prxy1_switch_pe"],
                straddled=straddled_cut(values["switch_ratio_interval"], switch_paper),
                passing=passing,
                others=[(h, r) for h, r in values["switch_ratios"] if h not in passing and r is not None],
            ),
        ),
        CLAIM["prxy1_switch_pe"].measure(values["hot_switch"], note=say("prxy1_switch_pe", values)),
        CLAIM["fig6_mean"].measure(
            values["mean_ratio_switched"],
            where="prxy_1 stand-in",
            note=say("fig6_mean", values),
            health=(worst_health(switched, "conventional"), worst_health(switched, "aoa_ecc")) if switched else (),
        ),
        CLAIM["fig6_max"].measure(
            best6["aoa_over_conventional"] if best6 else None,
            where=say("fig6_max_where", values, best=best6),
            note=say("fig6_max", values, best=best6),
            health=comparison_health(best6) if best6 else (),
        ),
    ]
    for key, what in (("read_dominant", "read-dominant workloads"), ("write_dominant", "write-dominant workloads")):
        group = values[key]
        best = group["best"]
        graded = CLAIM[key].measure(
            best["aoa_over_conventional"] if best else None,
            where="" if best is None else str(best["workload"]),
            health=comparison_health(best) if best else (),
        )
        caveat = _stand_in_caveat(CLAIM[key], group, graded.verdict)
        out.append(dataclasses.replace(graded, note=say("class", values, group=group, what=what, caveat=caveat, verdict=graded.verdict)))
    for name in ("web_1", "proj_3"):
        row = values["table1_by_name"].get(name) or {}
        identical = name == "proj_3" and _identical_runs(row)
        flips = _bch_flips(values, name) if name == "proj_3" else []
        out.append(
            CLAIM[name].measure(
                row.get("aoa_over_conventional"),
                where=say("table1_where", values),
                note=say("table1", values, workload=name, row=row, identical=identical, flips=flips),
                health=comparison_health(row) if row else (),
            )
        )
    out.append(CLAIM["decoder_cost_saving"].measure(values["saving"], note=TEXTS["decoder_cost_note"]))
    return out


def readings(values: Mapping[str, Any]) -> list[Reading]:
    """The other readings of each claim, shown beside the graded one and never counted."""
    cold = values["cold_hours"]
    out: list[Reading] = []
    for h, g in values["ep_gain"].items():
        if g is not None and h != cold:
            verdict = CLAIM["ep_over_bch"].measure(g).verdict
            out.append(_said("ep_over_bch", "ep_at_hours", g, False, fmt(g, "pct"), values, h=h, verdict=verdict))
    known = [g for g in values["ep_gain"].values() if g is not None]
    if known:
        mean = _mean(known)
        out.append(_plain("ep_over_bch", "mean over the grid's retentions", mean, "ep_mean_assumes", False, "ep_no_age", fmt(mean, "pct")))
    # The conclusion's "信頼性を 57%改善した" read against the whole conventional controller.
    fewer, over_soft = values["fewer_uncorrectable"], values["ep_over_soft"]
    out.append(_said("ep_over_bch", "reliability_uncorrectable", fewer, True, fmt(fewer, "pct"), values))
    out.append(_said("ep_over_bch", "reliability_soft", over_soft, True, fmt(over_soft, "pct"), values))
    for h, ratio in values["switch_ratios"]:
        if h != cold and ratio is not None:
            out.append(_said("hot_over_cold_switch", "cold_at_hours", ratio, False, fmt(ratio, "times"), values, h=h))
    out.append(_said("fig6_mean", "fig6_all_points", values["mean_ratio"], False, fmt(values["mean_ratio"], "times"), values))
    for key in ("read_dominant", "write_dominant"):
        out += _class_readings(values, key)
    out += _variant_readings(
        values.get("write_paths", ()),
        "write path: {label}",
        "{what}, with {label} around the same decoders",
        "Fig. 6's mean after the conventional switch",
        supported=False,
        why=TEXTS["write_path_why"],
    )
    out += _variant_readings(
        values.get("conventional", ()),
        "conventional controller: {label}",
        "{what}, AOA-ECC against a conventional controller: {label}",
        "Fig. 6's mean over the P/E points where the graded controller reads with soft LDPC",
        supported=True,
        why=TEXTS["conventional_why"],
        at_pe=True,
    )
    # Fig. 7's class bests at other wears (issue 47 item 2).
    for row in values.get("fig7_wears", ()):
        for key in ("read_dominant", "write_dominant") if not row["graded"] else ():
            value, where = row[f"{key}_best"], row.get(f"{key}_best_workload")
            text = fmt(value, "times") + (f" ({where})" if where else "")
            switched = (row["conventional_soft_share"] or 0) > 0
            out.append(_said(key, "fig7_wear", value, switched, text, values, row=row, verdict=row[f"{key}_verdict"]))
    # EP-LDPC's gain over BCH as the ratio of the P/E grid points below the crossings (issue 47 item 6):
    # the interpolation inside a grid step is not a measurement.
    for row in values.get("ep_grid", ()):
        out.append(_said("ep_over_bch", "grid", row["grid_gain"], False, fmt(row["grid_gain"], "pct"), values, row=row))
    for name in ("web_1", "proj_3"):
        at_fig7 = (values["by_name"].get(name) or {}).get("aoa_over_conventional")
        table1 = values["table1_by_name"].get(name) or {}
        out.append(_plain(name, "at Fig. 7's wear", at_fig7, "table1_at_fig7_assumes", False, "table1_at_fig7_why"))
        for bch in values.get("bch_rows", ()):
            if bch["workload"].split(" ")[0] == name:
                ratio = _ratio(table1.get("aoa_ecc_iops"), bch["conventional_iops"])
                out.append(_said(name, "bch_decode", ratio, False, fmt(ratio, "times"), values, us=bch["bch_decode_ns"] / 1000))
        wear_only = table1.get("wear_only_over_conventional")
        out.append(_plain(name, "wear-only rule at Table 1's wear", wear_only, "wear_only_table1_assumes", False, "wear_only_why"))
    return out


def _class_readings(values: Mapping[str, Any], key: str) -> list[Reading]:
    """A class's other readings (Fig. 7): classed by the read share of data, excerpts by their own mix,
    the class mean, the best over real traces (and over those whose week's mix is known), the wear-only rule."""
    group, out = values[key], []
    if values.get("data_share_rows"):
        by_data = [
            r
            for r in values["data_share_rows"]
            if r["aoa_over_conventional_by_data"] is not None
            and r["data_read_share"] is not None
            and (r["data_read_share"] > READ_DOMINANT_SHARE) == (key == "read_dominant")
        ]
        best = max(by_data, key=lambda r: r["aoa_over_conventional_by_data"]) if by_data else None
        value = best["aoa_over_conventional_by_data"] if best else None
        out.append(_said(key, "data_share", value, False, _best_text(value, best), values, count=len(by_data), override=DATA_SHARE))
    if group.get("unrepresentative"):
        own = group["best_by_own_mix"]
        value = own["aoa_over_conventional"] if own else None
        out.append(_said(key, "excerpts", value, False, _best_text(value, own), values, group=group))
    out.append(_said(key, "class_mean", group["mean"], False, fmt(group["mean"], "times"), values, group=group))
    real = group["best_real"]
    value = real["aoa_over_conventional"] if real else None
    out.append(_said(key, "real_only", value, True, fmt(value, "times"), values, group=group))
    known = [
        r for r in group["healthy"] if r["kind"] in REAL_KINDS and not (r["kind"] == "sample" and r.get("published_read_share") is None)
    ]
    best_known = max(known, key=lambda r: r["aoa_over_conventional"]) if known else None
    value = best_known["aoa_over_conventional"] if best_known else None
    known_text = _best_text(value, best_known, "n/a (none)")
    out.append(_plain(key, "up to, real traces whose week's mix is known", value, "known_mix_assumes", True, "known_mix_why", known_text))
    out.append(_plain(key, "wear-only rule, class mean", group["wear_only_mean"], "wear_only_assumes", False, "wear_only_why"))
    return out


def _variant_readings(
    rows: Sequence[Mapping[str, Any]], name: str, assumes: str, mean_what: str, *, supported: bool, why: str, at_pe: bool = False
) -> list[Reading]:
    """Fig. 6's and Fig. 7's claims under each variant run that is not graded (another write path, issue
    46 item 2; another conventional controller, issue 47 item 1): ``name`` and ``assumes`` with the
    variant's ``{label}`` and the figure's ``{what}``; ``at_pe``: Fig. 6's best names its P/E count."""
    claims = (
        ("fig6_mean", "fig6_mean", mean_what),
        ("fig6_max", "fig6_max", "Fig. 6's best healthy point"),
        ("read_dominant", "read_dominant_best", "the read-dominant class's best healthy workload"),
        ("write_dominant", "write_dominant_best", "the write-dominant class's best healthy workload"),
    )
    out = []
    for row in (r for r in rows if not r["graded"]):
        for claim, field, what in claims:
            where = row.get(f"{claim}_best_workload") if claim.endswith("dominant") else None
            at = f" at {fmt(row['fig6_max_pe'], 'int')} P/E" if at_pe and claim == "fig6_max" and row.get("fig6_max_pe") is not None else ""
            text = fmt(row[field], "times") + (f" ({where})" if where else at)
            label = row["label"]
            out.append(Reading(claim, name.format(label=label), row[field], assumes.format(what=what, label=label), supported, why, text))
    return out


def _fig7_markdown(table: Sequence[Mapping[str, Any]]) -> str:
    return markdown_table(table, FIG7_COLUMNS)


def _health_text(row: Mapping[str, Any]) -> str:
    """A row's two compared sides in one cell: write amplification, held share, most-erased block
    against the endurance, simulated time against the workload's own timeline, and any degeneracy."""

    def side(health: Health) -> str:
        bits = [
            f"WA {fmt(health.write_amplification, 'ratio')}",
            f"held {fmt(health.held_fraction, 'share')}",
            f"erases {fmt(health.erase_max, 'int')}/{fmt(health.endurance, 'int')}",
        ]
        if health.simulated_seconds is not None and health.span_seconds:
            bits.append(f"{fmt(health.simulated_seconds, 'sig')} s of {fmt(health.span_seconds, 'int')} s")
        return ", ".join(bits) + (" DEGENERATE" if health.degenerate else "")

    return " / ".join(side(h) for h in comparison_health(row))


def _outside_grid_markdown(table: Sequence[Mapping[str, Any]]) -> str:
    """Fig. 6's reads looked up outside the decoder tables' grid: one row per run of P/E points whose
    counts are the same (the workload and its data ages do not change with wear), each cell
    conventional / AOA-ECC / adaptive."""
    groups: list[tuple[list[int], list[str]]] = []
    for row in table:
        cells = [_shares(*(f"{policy}_{key}" for policy in FIG6_POLICIES), kind="int")(row) for _, key in OUTSIDE_GRID_COLUMNS]
        if groups and groups[-1][1] == cells:
            groups[-1][0].append(row["pe_cycles"])
        else:
            groups.append(([row["pe_cycles"]], cells))
    return markdown_grid(
        ["P/E", *(header for header, _ in OUTSIDE_GRID_COLUMNS)],
        [[_pe_range((pes[0], pes[-1])).strip("()").removesuffix(" P/E"), *cells] for pes, cells in groups],
    )


def _outside_grid_spans(table6: Sequence[Mapping[str, Any]]) -> dict[str, tuple[float, float] | None]:
    """Per count of reads outside the tables' grid, its (least, most) over Fig. 6's points and policies
    (None: no run has any)."""
    spans = {}
    for _, key in OUTSIDE_GRID_COLUMNS:
        found = [r[f"{p}_{key}"] for r in table6 for p in FIG6_POLICIES if r.get(f"{p}_{key}")]
        spans[key] = (min(found), max(found)) if found else None
    return spans


def _interval_text(interval: Interval | None, kind: str) -> str:
    """[low, high] (an end beyond the tables' grid shown as such; no bounds: n/a)."""
    if not interval:
        return "n/a (no bounds in the tables)"
    low, high = interval
    return f"[{'beyond grid' if low is None else fmt(low, kind)}, {'beyond grid' if high is None else fmt(high, kind)}]"


def _pe_range(bounds: tuple[int, int] | None) -> str:
    if not bounds:
        return "(none)"
    return f"({bounds[0]:,} P/E)" if bounds[0] == bounds[1] else f"({bounds[0]:,}-{bounds[1]:,} P/E)"


def _span_text(values: Sequence[float], kind: str = "times") -> str:
    """A range of values as the tables print them ("1.000x" or "1.000x-1.001x")."""
    if not values:
        return "n/a"
    low, high = fmt(min(values), kind), fmt(max(values), kind)
    return low if low == high else f"{low}-{high}"


def _names(rows: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(r["workload"].split(" ")[0] for r in rows) or "none"


def _by_hours(pairs: Any, kind: str, known_only: bool = True) -> str:
    """ "24 h +57.0 %, 144 h ..." from (hours, value) pairs (unknown values left out unless ``known_only`` is off)."""
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    return ", ".join(f"{h:g} h {fmt(value, kind)}" for h, value in items if value is not None or not known_only)


def _trend(values: Sequence[float]) -> str:
    """ "grows" or "falls" (with every step) or "unsteady"."""
    if all(a < b for a, b in zip(values, values[1:])):
        return "grows"
    return "falls" if all(a > b for a, b in zip(values, values[1:])) else "unsteady"


def _identical_runs(row: Mapping[str, Any]) -> bool:
    """proj_3 at Table 1's wear: both runs gave the same IOPS (1.000x by construction, not a result)."""
    return bool(row) and row.get("conventional_iops") is not None and row.get("conventional_iops") == row.get("aoa_ecc_iops")


FILTERS = {
    "g": lambda value: f"{value:g}",
    "thousands": lambda value: f"{value:,}",
    "interval": _interval_text,
    "pe_range": _pe_range,
    "span": _span_text,
    "names": _names,
    "by_hours": _by_hours,
    "us_list": lambda nanoseconds: "/".join(f"{ns / 1000:g}" for ns in nanoseconds),
}


def _class_caveats(rows: Sequence[Mapping[str, Any]], best: Mapping[str, Any] | None, table_pe: int, values: Mapping[str, Any]) -> str:
    """What a class's figures rest on (issue 46 item 3): how many of its workloads barely read (their
    ratio then comes from read-modify-write page reads, not host reads), excerpts classed by their own
    mix, and whether its best is past its class's switch point at Fig. 7's wear."""
    sparse = [r for r in rows if r["read_share"] is not None and r["read_share"] <= ALMOST_WRITE_ONLY_SHARE]
    cold = best is not None and str(best.get("class") or "").startswith("cold")
    return render(
        "aoa_ecc_class_caveats.md.j2",
        filters=FILTERS,
        rows=rows,
        sparse=sparse,
        published=[r for r in sparse if r.get("published_read_share") is not None],
        unknown=[r for r in rows if r.get("kind") == "sample" and r.get("published_read_share") is None],
        best=best,
        switch=values["cold_switch"] if cold else values["hot_switch"],
        table_pe=table_pe,
        almost_write_only=ALMOST_WRITE_ONLY_SHARE,
    ).rstrip("\n")


def _phases(table6: Sequence[Mapping[str, Any]]) -> list[tuple[list[float], tuple[int, int]] | None]:
    """Fig. 6's ratio in its three phases, (ratios, P/E bounds) each: both policies on their low-wear
    decoder; the conventional controller on soft LDPC while AOA-ECC reads mostly Quick-LDPC; AOA-ECC
    mostly on EP-LDPC."""
    compared = [r for r in table6 if r["aoa_over_conventional"]]
    phases = (
        [r for r in compared if not (r["conventional_soft_share"] or 0) and not (r["aoa_ep_share"] or 0)],
        [r for r in compared if (r["conventional_soft_share"] or 0) > 0 and (r["aoa_ep_share"] or 0) < 0.5],
        [r for r in compared if (r["aoa_ep_share"] or 0) >= 0.5],
    )
    return [
        ([r["aoa_over_conventional"] for r in rows], (rows[0]["pe_cycles"], rows[-1]["pe_cycles"])) if rows else None for rows in phases
    ]


def _ep_grid_summary(values: Mapping[str, Any], read_path: Mapping[str, Any]) -> dict[str, Any] | None:
    """EP-LDPC's gain over BCH against the tables' P/E grid (issue 47 item 6), for the paragraph on it."""
    rows = values.get("ep_grid", ())
    if not rows:
        return None
    pes = read_path["decoder_tables"]["pe_cycles"]
    return {
        "rows": rows,
        "step": pes[1] - pes[0] if len(pes) > 1 else 0,
        "most_step": max(x for r in rows for x in (r["bch_step"], r["ep_step"])),
        "below": max(r["p_below"] for r in rows),
        "above": (min(r["p_above"][0] for r in rows), max(r["p_above"][1] for r in rows)),
    }


def _buffer_pairs(table6: Sequence[Mapping[str, Any]], paths6: Sequence[Mapping[str, Any]], table_pe: int) -> list[dict[str, Any]]:
    """Each buffered write path against the same bus without it, on Fig. 6's prxy_1 stand-in at Fig. 7's
    wear: the two rows of the per-point tables and the change in ECC-path page reads."""
    by_path = {GRADED_WRITE_PATH: [r for r in table6 if r["pe_cycles"] == table_pe]}
    for row in paths6:
        if row["pe_cycles"] == table_pe:
            by_path.setdefault(row["write_path"], []).append(row)
    pairs = []
    for buffered, plain in BUFFER_PAIRS:
        if by_path.get(buffered) and by_path.get(plain):
            b, n = by_path[buffered][0], by_path[plain][0]
            reads_b, reads_n = b.get("aoa_ecc_sampled_reads"), n.get("aoa_ecc_sampled_reads")
            change = reads_b / reads_n - 1 if reads_b is not None and reads_n else None
            pairs.append({"buffered": WRITE_PATHS[buffered][0], "plain": WRITE_PATHS[plain][0], "b": b, "n": n, "change": change})
    return pairs


def _msr(table7: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """The real MSR traces of Fig. 7, and those that are short, about a week long, or almost write-only."""
    traces = [r for r in table7 if r["kind"] in ("sample", "full")]
    return {
        "traces": traces,
        "short": [r for r in traces if r["trace_hours"] is not None and r["trace_hours"] < SHORT_TRACE_HOURS],
        "week": [r for r in traces if r["trace_hours"] is not None and r["trace_hours"] >= 0.9 * WEEK_HOURS],
        "sparse": [r for r in traces if r["read_share"] is not None and r["read_share"] <= ALMOST_WRITE_ONLY_SHARE],
    }


def _labelled(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "label": r["label"] + (" (graded)" if r["graded"] else "")} for r in rows]


def compose(
    config: Mapping[str, Any],
    selected: Sequence[Workload],
    tables: Mapping[str, Sequence[Mapping[str, Any]]],
    *,
    table_pe: int,
    table1_pe: int,
    figures: Mapping[str, Path],
    outcomes: Sequence[Any],
    scheduler: str | None,
) -> tuple[str, list[Headline], list[Reading]]:
    """The report, headlines and readings from the tables alone (``tables``: fig6, fig7, regime and
    table1 rows as the recipe builds them), so they can be built from hand-made rows."""
    read_path = config["read_path"]
    tolerable = tolerable_pe(read_path)
    values = derived(read_path, tolerable, tables["fig6"], tables["fig7"], tables["table1"], table1_pe)
    values["bch_rows"] = list(tables.get("bch", ()))
    values["data_share_rows"] = list(tables.get("data_share", ()))
    values["bch_decode_us"] = ((read_path.get("decoders") or {}).get("bch") or {}).get("decode_latency_ns", 0) / 1000
    values["write_paths"] = write_path_rows(
        read_path, tolerable, values, tables.get("fig6_write_path", ()), tables.get("fig7_write_path", ())
    )
    values["conventional"] = (
        conventional_rows(values, tables.get("fig6_conventional", ()), tables.get("fig7_conventional", ()), table_pe)
        if tables.get("fig6_conventional") or tables.get("fig7_conventional")
        else []
    )
    values["fig7_wears"] = fig7_wear_rows(values, tables.get("fig7_wear", ()), table_pe) if tables.get("fig7_wear") else []
    values["table_pe"] = table_pe
    hours = values["hours"]
    values["bch_first_never_switches"] = (
        BCH_FIRST_HOURS in hours and tolerable.get("bch", [0.0] * len(hours))[hours.index(BCH_FIRST_HOURS)] is None
    )
    # report.md's text before the "Seed vs ssdlab" section: the tables as Markdown and the values the
    # template ``aoa_ecc.md.j2`` writes its sentences from.
    table6, table7 = tables["fig6"], tables["fig7"]
    intervals = values["intervals"]
    tolerable_table = markdown_grid(
        ["decoder", *(f"{h:g} h" for h in values["hours"])],
        [
            [
                decoder,
                *(
                    ("beyond grid" if pe is None else f"{pe:,.0f}")
                    + (f" {_interval_text(intervals[decoder][i], 'int')}" if decoder in intervals and pe is not None else "")
                    for i, pe in enumerate(row)
                ),
            ]
            for decoder, row in tolerable.items()
        ],
    )
    opening = provenance("ssdlab reproduce aoa-ecc", outcomes[0], scheduler).replace(
        "`sweep/results.parquet`",
        ", ".join(f"`{folder}/`" for folder in SWEEP_FOLDERS[:-1]) + f" and `{SWEEP_FOLDERS[-1]}/` (`results.parquet` each)",
    )
    later = [
        (what, *(sum(getattr(o, field) for o in outcomes[first:end]) for field in ("ran", "skipped", "failed")))
        for what, first, end in LATER_SWEEPS
        if len(outcomes) >= end
    ]
    regime = [r for r in tables["regime"] if r["aoa_over_conventional"]]
    stand_in_share = config.get("workload", {}).get("synthetic", {}).get("read_fraction")
    ratios = values["switch_ratios"]
    ep_known = [(h, g) for h, g in values["ep_gain"].items() if g is not None]
    data_share = [
        {**row, **{key: (by_workload.get(row["workload"]) or {}).get(key) for key in ("read_share", "class", "aoa_over_conventional")}}
        for by_workload in [{r["workload"]: r for r in table7}]
        for row in values["data_share_rows"]
    ]
    conventional, wears, paths = values.get("conventional", ()), values.get("fig7_wears", ()), values.get("write_paths", ())
    reads = sum(r.get("conventional_sampled_reads") or 0 for r in table6)
    classes = [
        (key, label, values[key], _class_caveats(values[key]["rows"], values[key]["best"], table_pe, values))
        for key, label in (
            ("read_dominant", "Read-dominant workloads (reads > " + fmt(READ_DOMINANT_SHARE, "share") + ")"),
            ("write_dominant", "Write-dominant workloads"),
        )
    ]
    text = render(
        "aoa_ecc.md.j2",
        filters=FILTERS,
        opening=opening,
        outcomes=outcomes,
        later=later,
        config=config,
        read_path=read_path,
        decoders=read_path.get("decoders", {}),
        endurance=config.get("device", {}).get("nand", {}).get("endurance_pe_cycles"),
        selected=selected,
        v=values,
        seed=SEED,
        table_pe=table_pe,
        table1_pe=table1_pe,
        read_dominant_share=READ_DOMINANT_SHARE,
        tolerable_table=tolerable_table,
        switch_reached=next(((h, r) for h, r in ratios if r is not None and r >= SEED["hot_over_cold_switch"]), None),
        switch_known=[(h, r) for h, r in ratios if r is not None],
        ep_known=ep_known,
        ep_values=[g for _, g in ep_known],
        ep_trend=_trend([g for _, g in ep_known]),
        ep_peak=max(ep_known, key=lambda item: item[1]) if ep_known else None,
        grid=_ep_grid_summary(values, read_path),
        fig6_table=markdown_table(table6, FIG6_COLUMNS),
        outside_grid_table=_outside_grid_markdown(table6),
        outside=_outside_grid_spans(table6),
        phases=_phases(table6),
        first6=table6[0] if table6 else {},
        last6=table6[-1] if table6 else {},
        stand_in_share=stand_in_share,
        regime_table=markdown_table(tables["regime"], REGIME_COLUMNS),
        regime=regime,
        regime_grows=_trend([r["aoa_over_conventional"] for r in regime]) == "grows",
        regime_own=min(regime, key=lambda r: abs(r["read_share"] - (stand_in_share or 0))) if regime else None,
        regime_reached=[
            (label, next((r for r in regime if r["aoa_over_conventional"] >= SEED[key]), None))
            for label, key in (("1.8x", "fig6_mean"), ("2.1x", "fig6_max"))
        ],
        conventional_table=markdown_table(
            _labelled(conventional), [(header.format(table_pe=table_pe), key, kind) for header, key, kind in CONVENTIONAL_COLUMNS]
        ),
        conventional=conventional,
        conventional_sentences=SEED_SENTENCES["conventional_controller"],
        conventional_gloss=BOOK.sentences["conventional_controller"].gloss.split(" … ")[0],
        young_share=sum(r.get("conventional_reads_younger_than_age_grid") or 0 for r in table6) / reads if reads else None,
        bch_first=CONVENTIONAL_VARIANTS["bch_first"][0],
        bch_first_hours=BCH_FIRST_HOURS,
        write_path_table=markdown_table(_labelled(paths), WRITE_PATH_COLUMNS),
        write_paths=paths,
        write_path_spread=[r["fig6_mean"] for r in paths if r["fig6_mean"] is not None],
        buffers=_buffer_pairs(table6, tables.get("fig6_write_path", ()), table_pe),
        fig7_table=_fig7_markdown(table7),
        classes=classes,
        wear_sentences=SEED_SENTENCES["fig7_wear"],
        wears=wears,
        wear_verdicts_same=len({(r["read_dominant_verdict"], r["write_dominant_verdict"]) for r in wears}) == 1,
        wear_table=markdown_table(
            [{**r, "pe": f"{r['pe_cycles']:,}" + (" (graded)" if r["graded"] else "")} for r in wears], FIG7_WEAR_COLUMNS
        ),
        data_share_table=markdown_table(data_share, DATA_SHARE_COLUMNS) if data_share else "",
        data_share_override=DATA_SHARE,
        proj_3_flips=_bch_flips(values, "proj_3"),
        identical=_identical_runs(values["table1_by_name"].get("proj_3") or {}),
        table1_table=_fig7_markdown(values["table1_rows"]),
        table1_kinds=sorted({r["kind"] for r in values["table1_rows"]}),
        msr=_msr(table7),
        short_trace_hours=SHORT_TRACE_HOURS,
        almost_write_only=ALMOST_WRITE_ONLY_SHARE,
        week_hours=WEEK_HOURS,
        write_dominant_quick=[r["aoa_quick_share"] for r in values["write_dominant"]["rows"] if r["aoa_quick_share"] is not None],
        cost_table=markdown_grid(
            ["policy", "decoder hardware", "gates"],
            [
                ["conventional", "BCH + LDPC", fmt(values["costs"]["conventional"], "int")],
                ["AOA-ECC", "one LDPC decoder (Quick, EP and soft inputs)", fmt(values["costs"]["aoa_ecc"], "int")],
            ],
        ),
        figures=figures,
    )
    return text, headlines(values), readings(values)


def figures(
    hours: Sequence[float],
    tolerable: Mapping[str, Sequence[float | None]],
    table6: Sequence[Mapping[str, Any]],
    table7: Sequence[Mapping[str, Any]],
    out: Path,
) -> dict[str, Path]:
    """Fig. 5 (tolerable P/E against retention), Fig. 6 (IOPS against P/E) and Fig. 7 (AOA-ECC over
    conventional by workload), through ``ssdlab.plotting``."""
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    paths["fig5_tolerable_pe"] = plotting.line_chart(
        {decoder: (list(hours), list(row)) for decoder, row in tolerable.items()},
        out / "fig5_tolerable_pe",
        xlabel="data retention (hours, 40 C)",
        ylabel="tolerable P/E cycles",
        title="Fig. 5: tolerable P/E against retention (points beyond the grid left out)",
        logx=True,
    )[0]
    pes = [r["pe_cycles"] for r in table6]
    series = {}
    styles = {}
    for policy, label, style in FIG6_SERIES:
        series[label] = (pes, [r[f"{policy}_iops"] or None for r in table6])
        styles[label] = style
    # Points where a policy has uncorrectable reads are marked: their IOPS counts reads that
    # returned no data (each completes after the whole decoder ladder).
    for policy, _, _ in FIG6_SERIES:
        marked = [(r["pe_cycles"], r[f"{policy}_iops"]) for r in table6 if (r[f"{policy}_uncorrectable"] or 0) > 0]
        if marked:
            label = f"{policy.replace('_', ' ')}: has uncorrectable reads"
            series[label] = ([m[0] for m in marked], [m[1] for m in marked])
            styles[label] = "rx"
    paths["fig6_iops_vs_pe"] = plotting.line_chart(
        series,
        out / "fig6_iops_vs_pe",
        xlabel="P/E cycles",
        ylabel="IOPS (closed loop, queue depth 32)",
        title="Fig. 6: IOPS against wear, prxy_1 stand-in (red x: uncorrectable reads at that point)",
        styles=styles,
        ybottom=0,
    )[0]
    rows = [r for r in table7 if r.get("aoa_over_conventional")]
    paths["fig7_by_workload"] = plotting.bar_chart(
        [r["workload"] for r in rows],
        [r["aoa_over_conventional"] for r in rows],
        out / "fig7_by_workload",
        ylabel="AOA-ECC IOPS / conventional IOPS",
        title="Fig. 7: by workload (green: read-dominant, orange: write-dominant)",
        colours=["#1b9e77" if (r["read_share"] or 0) > 0.5 else "#d95f02" for r in rows],
        reference=1.0,
    )[0]
    return paths


def _write_path_names(values: list[str] | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values)) if values else tuple(name for name in WRITE_PATHS if name != GRADED_WRITE_PATH)


def _fig7_wear_points(values: list[int] | None) -> tuple[int, ...]:
    return tuple(sorted(set(values))) if values else FIG7_WEAR_READINGS


def _pe_points(values: list[int] | None) -> tuple[int, ...]:
    return tuple(sorted(set(values))) if values else PE_POINTS


class AoaEcc(Recipe):
    name = "aoa-ecc"
    seed = "000"
    title = "AOA-ECC"
    help = (
        "Seed 000: AOA-ECC vs conventional BCH-then-soft-LDPC; Fig. 5 (tolerable P/E), Fig. 6 (IOPS vs P/E), Fig. 7 / Table 1 and a report."
    )
    claims = CLAIMS
    fits = FITS
    options = (
        Option(
            "pe_points",
            ("--pe",),
            list[int] | None,
            None,
            f"P/E count of Fig. 6 (repeatable; default {PE_POINTS[0]:,} to {PE_POINTS[-1]:,} in steps of {PE_POINTS[1] - PE_POINTS[0]:,}).",
            convert=_pe_points,
        ),
        Option("table_pe", ("--table-pe",), int, TABLE_PE, "P/E count of Fig. 7 (and of the read-share regime)."),
        Option(
            "table1_pe",
            ("--table1-pe",),
            int,
            TABLE1_PE,
            "P/E count of Table 1 (web_1, proj_3): a wear where the conventional controller still reads with BCH.",
        ),
        Option("min_requests", ("--min-requests",), int, MIN_REQUESTS, "Loop short traces to at least this many requests."),
        Option(
            "write_paths",
            ("--write-path",),
            list[str] | None,
            None,
            "A write path to rerun Fig. 6 and Fig. 7 under, beside the graded one (repeatable; default all: "
            + ", ".join(name for name in WRITE_PATHS if name != GRADED_WRITE_PATH)
            + ").",
            convert=_write_path_names,
        ),
        Option(
            "fig7_wears",
            ("--fig7-wear",),
            list[int] | None,
            None,
            "Another P/E count to rerun Fig. 7 at, a reading (repeatable; default "
            + ", ".join(f"{pe:,}" for pe in FIG7_WEAR_READINGS)
            + ").",
            convert=_fig7_wear_points,
        ),
    )

    def workloads(self, min_requests: int = MIN_REQUESTS, traces: Mapping[str, Path] | None = None) -> Sequence[Workload]:
        return workloads(min_requests, traces)

    def workload_names(self) -> list[str]:
        # The stand-ins, then the MSR traces found in ../shared/traces (named without reading them).
        where = shared_dir()
        folder = where / "traces" if where else None
        found = (
            [p.name.removeprefix("msr-").split(".")[0] for p in sorted(folder.glob("msr-*.csv.gz"))] if folder and folder.is_dir() else []
        )
        return list(dict.fromkeys([*WORKLOAD_NAMES, *found]))

    def trace_names(self) -> list[str]:
        return list(WORKLOAD_NAMES)

    def run(
        self,
        out: Path,
        *,
        workloads: Sequence[str] | None,
        traces: Mapping[str, Path],
        scale: float,
        scheduler: str | None,
        workers: int | None,
        progress: Callable[..., object] | None,
        pe_points: Sequence[int] = PE_POINTS,
        table_pe: int = TABLE_PE,
        table1_pe: int = TABLE1_PE,
        min_requests: int = MIN_REQUESTS,
        write_paths: Sequence[str] | None = None,
        fig7_wears: Sequence[int] | None = None,
    ) -> report.Reproduction:
        """Runs the grids (resuming a previous run in ``out``), writes tables, figures and report.
        ``workloads`` keeps some of Fig. 7's workloads (Fig. 6 always runs the prxy_1 stand-in)."""
        if len(pe_points) < 2:
            raise SweepError("--pe: give at least two P/E counts for Fig. 6")
        if min_requests < 1000:
            raise SweepError(f"--min-requests {min_requests}: at least 1,000 requests are needed for a meaningful IOPS")
        paths = _write_path_names(list(write_paths) if write_paths else None)
        unknown = [name for name in paths if name not in WRITE_PATHS or name == GRADED_WRITE_PATH]
        if unknown:
            raise SweepError(
                f"--write-path {unknown[0]}: not a write path to compare (choose from "
                f"{', '.join(name for name in WRITE_PATHS if name != GRADED_WRITE_PATH)}; {GRADED_WRITE_PATH} is the graded one, always run)"
            )
        every = self.workloads(min_requests, traces)
        selected = report.selected(every, workloads)
        config = preset_config()
        read_path = config["read_path"]
        wears = [pe for pe in (fig7_wears if fig7_wears is not None else FIG7_WEAR_READINGS) if pe != table_pe]
        sweeps = grids(every, selected, pe_points, table_pe, table1_pe, paths, wears)
        done = {
            folder.removeprefix("sweep-"): run_sweep(sweep, out / folder, scheduler=scheduler, workers=workers, progress=progress)
            for folder, sweep in sweeps.items()
        }
        rows = {name: outcome.rows for name, outcome in done.items()}
        span = _span_seconds(next(w for w in every if w.name == "prxy_1"))
        table1_workloads = [w for w in every if w.name in ("web_1", "proj_3")]
        tables = {
            "fig6": fig6_rows(rows["fig6"], span),
            "fig7": fig7_rows(rows["fig7"], selected),
            "regime": regime_rows(rows["regime"]),
            "table1": fig7_rows(rows["table1"], table1_workloads),
            "bch": bch_rows(rows["table1-bch"]),
        }
        tables["data_share"] = data_share_rows(rows["fig7-data-share"], tables["fig7"])
        tables["fig6_write_path"], tables["fig7_write_path"] = write_path_tables(
            rows["fig6-write-path"], rows["fig7-write-path"], selected, span
        )
        tables["fig6_conventional"], tables["fig7_conventional"] = conventional_tables(
            rows["fig6"], rows["fig6-conventional"], rows["fig7"], rows["fig7-conventional"], selected, span
        )
        if "fig7-wear" in rows:
            tables["fig7_wear"] = fig7_wear_tables(rows["fig7-wear"], selected)
        figures_made = figures(read_path["decoder_tables"]["retention_hours"], tolerable_pe(read_path), tables["fig6"], tables["fig7"], out)
        outcomes = list(done.values())
        text, heads, other_readings = compose(
            config, selected, tables, table_pe=table_pe, table1_pe=table1_pe, figures=figures_made, outcomes=outcomes, scheduler=scheduler
        )
        return report.finish(
            out,
            tables=tables,
            main="fig7",
            report_text=text,
            summary=_fig7_markdown(tables["fig7"]),
            figures=figures_made,
            outcomes=outcomes,
            headlines=heads,
            readings=other_readings,
            recipe=self.name,
            seed=self.seed,
        )


RECIPE = AoaEcc()
reproduce = RECIPE.reproduce
