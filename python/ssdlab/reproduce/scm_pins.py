"""Seed 001's I/O power readings: which model of the channels' pins gives Table 2's power pair and the
All S-SCM SSD's -74 % with TSV together.

What it models: the readings the seed leaves open (``crates/ssdlab-ssd/src/io_pins.rs``): whether pins
cycle only while data moves or all run long at the transfer rate, how often a pin switches (activity),
whether control pins count beside the 8 data pins, and whether the controller's pads count too (both
ends of the link). Each reading applies to the NAND and the SCM channels alike; a run per reading, SSD
and TSV setting.

What the seed states (Table 1, Table 2, Fig. 3): pin capacitance 8 pF (NAND) and 5 pF (SCM), 0.3 pF
with TSV; I/O voltages 1.8 V and 1.2 V; the SCM's I/O at "1066MHz"; Table 2's power 0.361 W without
and 0.277 W with TSV (the SSD is not named; -23 %, so most likely the hybrid's); the All S-SCM SSD's
power falls 74 % with TSV. It gives no pin count, activity, toggling or core currents.

What those quantities give alone (``seed_quantities``): a pin toggling at the clock draws C·V²·f, so
TSV cuts the SCM's pin power by 1 - 0.3/5 = 94 % whatever the pin count, and the SSD's power by that
times the I/O share of it: -74 % needs the I/O to be 78.7 % of the All S-SCM SSD's power. No watts
follow without a pin count, activity and core currents.

How a reading is judged: TSV changes the pins' capacitance only, so the power it saves depends on the
reading and on nothing else; the core currents (busy time x VDD x current) shift both powers alike.
The hybrid's saving (0.361 - 0.277 = 0.084 W) therefore tests a reading; the core currents then have
one value each that meets 0.361 W (hybrid) and -74 % (All S-SCM). Power is linear in the currents in
this model, so they are solved by arithmetic from the runs and then checked by running them. The
reading so fitted (pins toggling all run, the activity and both currents solved) is the one the power
claims are graded under, and so they are calibrated: three numbers fitted to three targets.

Leaves out: static, termination and clock-tree power; readings per channel kind (NAND and SCM pins
follow the same reading here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import product
from typing import Any

from ssdlab.reproduce.claims import load
from ssdlab.reproduce.report import markdown_table
from ssdlab.reproduce.scm_hybrid_points import Point, lines_of
from ssdlab.reproduce.templates import render

# The seed's numbers (the claim book claims/scm_hybrid.toml): Table 1's and Table 2's pin quantities,
# capacitance without and with TSV (pF), I/O voltage (V), the SCM's I/O clock (MHz); the 8 data pins of
# a byte-wide channel are ssdlab's. Table 2's pair implies the hybrid's TSV saving (W); the All S-SCM
# SSD's TSV change is the text's.
SEED = load("scm_hybrid").seed
SCM_PIN_PF = SEED["scm_pin_pf"]
NAND_PIN_PF = SEED["nand_pin_pf"]
TSV_PIN_PF = SEED["tsv_pin_pf"]
SCM_IO_V = SEED["scm_io_v"]
SCM_CLOCK_MHZ = SEED["scm_clock_mhz"]
DATA_PINS = 8
PAIR_WITHOUT_W = SEED["power_without_tsv_w"]
PAIR_WITH_W = SEED["power_with_tsv_w"]
PAIR_SAVING_W = PAIR_WITHOUT_W - PAIR_WITH_W
ALL_SSCM_CUT = SEED["tsv_power_cut"]
# The presets' active current for every memory (mA): the solved currents scale it.
PRESET_CURRENT_MA = 25.0
# A reading "gives the pair's saving" within this share of 0.084 W.
SAVING_TOLERANCE = 0.25

TOGGLINGS = ("data_only", "continuous")
ACTIVITIES = (0.5, 1.0)
CONTROL_PINS = (0, 4)
LINK_ENDS = (1, 2)


# The presets' reading: one pin cycle per bit moved.
PRESET_READING = {"toggling": "data_only", "activity": 1.0, "control_pins": 0, "link_ends": 1}


def seed_quantities() -> dict[str, float]:
    """What the seed's stated pin quantities give on their own: one SCM pin toggling at the 1066 MHz
    clock draws C·V²·f without and with TSV; TSV cuts the SCM's (and the NAND's) pin power by
    1 - C_TSV / C whatever the pin count and activity; the SSD's power falls by that times the I/O share
    of it, so -74 % needs an I/O share of 0.74 / 0.94; with the 8 data pins toggling all run, the rest
    of the All S-SCM SSD may draw at most what leaves that share."""
    per_pin = SCM_PIN_PF * 1e-12 * SCM_IO_V**2 * SCM_CLOCK_MHZ * 1e6
    per_pin_tsv = TSV_PIN_PF * 1e-12 * SCM_IO_V**2 * SCM_CLOCK_MHZ * 1e6
    cut = 1.0 - TSV_PIN_PF / SCM_PIN_PF
    share = -ALL_SSCM_CUT / cut
    pins = DATA_PINS * per_pin
    return {
        "per_pin_w": per_pin,
        "per_pin_tsv_w": per_pin_tsv,
        "scm_pin_cut": cut,
        "nand_pin_cut": 1.0 - TSV_PIN_PF / NAND_PIN_PF,
        "io_share_needed": share,
        "data_pins_w": pins,
        "data_pins_tsv_w": DATA_PINS * per_pin_tsv,
        "rest_allowed_w": pins * (1.0 / share - 1.0),
    }


FITTED_COLUMNS = (
    ("workload", "workload", "text"),
    ("fitted reading", "reading", "text"),
    ("hybrid memories' current (mA)", "hybrid_current_ma", "sig"),
    ("S-SCM current (mA)", "sscm_current_ma", "sig"),
    ("hybrid W (w/o / with TSV)", lambda r: f"{r['hybrid_w']:.3f} / {r['hybrid_tsv_w']:.3f}", "text"),
    ("hybrid TSV change", lambda r: r["hybrid_tsv_w"] / r["hybrid_w"] - 1.0, "pct"),
    ("All S-SCM W (w/o / with TSV)", lambda r: f"{r['all_w']:.3f} / {r['all_tsv_w']:.3f}", "text"),
    ("All S-SCM TSV change", "all_cut", "pct"),
)


def readings() -> list[dict[str, Any]]:
    """Every reading of the grid, the presets' own (data only, 8 pins, activity 1, one end) first."""
    return [
        {"toggling": toggling, "activity": activity, "control_pins": control, "link_ends": ends}
        for toggling, activity, control, ends in product(TOGGLINGS, reversed(ACTIVITIES), CONTROL_PINS, LINK_ENDS)
    ]


def name_of(reading: Mapping[str, Any]) -> str:
    pins = "8" if not reading["control_pins"] else f"8+{reading['control_pins']}"
    ends = "memory pins" if reading["link_ends"] == 1 else "both ends"
    return f"{reading['toggling'].replace('_', ' ')}, {pins} pins, activity {reading['activity']:g}, {ends}"


def overrides_of(reading: Mapping[str, Any]) -> list[str]:
    """The reading as settings of the NAND and the SCM channels."""
    settings = []
    for channel in ("device.channel", "device.scm.channel"):
        settings += [
            f'{channel}.pin_toggling="{reading["toggling"]}"',
            f"{channel}.pin_activity_factor={reading['activity']!r}",
            f"{channel}.control_pins={reading['control_pins']}",
            f"{channel}.link_ends={reading['link_ends']}",
        ]
    return settings


def currents_overrides(nand_ma: float | None, scm_ma: float | None) -> list[str]:
    settings = []
    if nand_ma is not None:
        settings.append(f"device.energy.active_current_ma={round(nand_ma, 4)!r}")
    if scm_ma is not None:
        settings.append(f"device.scm.active_current_ma={round(scm_ma, 4)!r}")
    return settings


def points(
    workload: str,
    hybrid: Callable[..., list[str]],
    all_sscm: Callable[..., list[str]],
    tsv: Callable[[bool], list[str]],
) -> dict[Point, list[str]]:
    """A run per reading, SSD and TSV setting (labels ``pins|workload|ssd|reading index|tsv``)."""
    cases: dict[Point, list[str]] = {}
    for index, reading in enumerate(readings()):
        if reading == PRESET_READING:
            continue  # the main runs (a sweep refuses two identical points)
        for on in (False, True):
            cases[Point("pins", workload, "hybrid", index, on)] = hybrid(*overrides_of(reading), *tsv(on))
            cases[Point("pins", workload, "all_sscm", index, on)] = all_sscm(*overrides_of(reading), *tsv(on))
    return cases


def rows(table: Sequence[Mapping[str, Any]], workload: str) -> list[dict[str, Any]]:
    """One row per reading of the grid: both SSDs' power without and with TSV, the hybrid's TSV saving
    against the pair's, and the currents that meet 0.361 W and -74 % under the reading (solved, see
    the module)."""
    found = []
    for index, reading in enumerate(readings()):
        run = {
            (r["ssd"], r["tsv"]): r
            for r in table
            if "power_w" in r
            and r["workload"] == workload
            and r["ssd"] in ("hybrid", "all_sscm")
            and (
                (r["study"] == "pins" and r["value"] == index)
                # The presets' reading is the main runs (the hybrid's at its main M-SCM share).
                or (reading == PRESET_READING and r["study"] == "main")
            )
        }
        if len(run) == 4:
            found.append(_row(workload, reading, index, run))
    return found


def _row(workload: str, reading: Mapping[str, Any], index: int, run: Mapping[tuple[str, bool], Mapping[str, Any]]) -> dict[str, Any]:
    hybrid, hybrid_tsv = run[("hybrid", False)], run[("hybrid", True)]
    everything, everything_tsv = run[("all_sscm", False)], run[("all_sscm", True)]
    saving = hybrid["power_w"] - hybrid_tsv["power_w"]
    # The hybrid: every memory's current scaled by s so that its power without TSV is 0.361 W.
    core = hybrid["core_power_w"]
    scale = (PAIR_WITHOUT_W - (hybrid["power_w"] - core)) / core if core > 0 else None
    # The All S-SCM SSD: the S-SCM current at which TSV cuts 74 % (None: the I/O is too small a share
    # even with no core current).
    sscm_core = everything["core_power_w"]
    rest = everything["power_w"] - everything["io_power_w"] - sscm_core
    keep = 1.0 + ALL_SSCM_CUT
    numerator = keep * everything["io_power_w"] - everything_tsv["io_power_w"] - (1.0 - keep) * rest
    sscm_ma = PRESET_CURRENT_MA * numerator / ((1.0 - keep) * sscm_core) if sscm_core > 0 and numerator >= 0 else None
    return {
        "workload": workload,
        "reading": name_of(reading),
        "index": index,
        **reading,
        "hybrid_w": hybrid["power_w"],
        "hybrid_tsv_w": hybrid_tsv["power_w"],
        "hybrid_io_share": hybrid["io_power_w"] / hybrid["power_w"] if hybrid["power_w"] else None,
        "hybrid_saving_w": saving,
        "saving_vs_pair": saving / PAIR_SAVING_W,
        "gives_pair_saving": abs(saving / PAIR_SAVING_W - 1.0) <= SAVING_TOLERANCE,
        "all_w": everything["power_w"],
        "all_tsv_w": everything_tsv["power_w"],
        "all_cut": everything_tsv["power_w"] / everything["power_w"] - 1.0 if everything["power_w"] else None,
        "hybrid_current_ma": PRESET_CURRENT_MA * scale if scale is not None and scale >= 0 else None,
        "sscm_current_ma": sscm_ma,
    }


def pair_reading(pin_rows: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Pins toggling all run on the 8 memory pins at the activity that saves the pair's 0.084 W on the
    hybrid: the saving is linear in pins x activity x ends under continuous toggling (span-based, the
    same for any workload), so one continuous row of the grid gives it."""
    row = next((r for r in pin_rows if r["toggling"] == "continuous" and r["saving_vs_pair"] > 0), None)
    if row is None:
        return None
    units = (8 + row["control_pins"]) * row["activity"] * row["link_ends"]
    return {"toggling": "continuous", "activity": round(units / row["saving_vs_pair"] / 8, 4), "control_pins": 0, "link_ends": 1}


def fitted_points(
    workload: str,
    reading: Mapping[str, Any],
    hybrid: Callable[..., list[str]],
    all_sscm: Callable[..., list[str]],
    tsv: Callable[[bool], list[str]],
) -> dict[Point, list[str]]:
    """The pair's reading at the presets' currents (labels ``pins_fit|workload|ssd|0|tsv``)."""
    return {
        Point("pins_fit", workload, ssd, 0, on): build(*overrides_of(reading), *tsv(on))
        for ssd, build in (("hybrid", hybrid), ("all_sscm", all_sscm))
        for on in (False, True)
    }


def fitted_row(table: Sequence[Mapping[str, Any]], workload: str, reading: Mapping[str, Any]) -> dict[str, Any] | None:
    run = {(r["ssd"], r["tsv"]): r for r in table if r["study"] == "pins_fit" and r["workload"] == workload and "power_w" in r}
    return _row(workload, reading, -1, run) if len(run) == 4 else None


def best(pin_rows: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The reading whose hybrid TSV saving is nearest the pair's (ties: the earlier reading)."""
    candidates = [row for row in pin_rows if row["hybrid_current_ma"] is not None and row["sscm_current_ma"] is not None]
    return min(candidates, key=lambda row: abs(row["saving_vs_pair"] - 1.0), default=None)


def check_points(
    row: Mapping[str, Any],
    hybrid: Callable[..., list[str]],
    all_sscm: Callable[..., list[str]],
    tsv: Callable[[bool], list[str]],
) -> dict[Point, list[str]]:
    """Runs of the chosen reading at its solved currents (labels ``pins_check|workload|ssd|index|tsv``)."""
    reading = {key: row[key] for key in PRESET_READING}
    cases: dict[Point, list[str]] = {}
    for on in (False, True):
        hybrid_currents = currents_overrides(row["hybrid_current_ma"], row["hybrid_current_ma"])
        cases[Point("pins_check", row["workload"], "hybrid", 0, on)] = hybrid(*overrides_of(reading), *hybrid_currents, *tsv(on))
        cases[Point("pins_check", row["workload"], "all_sscm", 0, on)] = all_sscm(
            *overrides_of(reading), *currents_overrides(None, row["sscm_current_ma"]), *tsv(on)
        )
    return cases


def checked(table: Sequence[Mapping[str, Any]], row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The chosen reading's runs at its solved currents: both SSDs' power without and with TSV."""
    run = {
        (r["ssd"], r["tsv"]): r["power_w"]
        for r in table
        if r["study"] == "pins_check" and r["workload"] == row["workload"] and "power_w" in r
    }
    if len(run) != 4:
        return None
    return {
        "workload": row["workload"],
        "reading": row["reading"],
        "hybrid_current_ma": row["hybrid_current_ma"],
        "sscm_current_ma": row["sscm_current_ma"],
        "hybrid_w": run[("hybrid", False)],
        "hybrid_tsv_w": run[("hybrid", True)],
        "all_w": run[("all_sscm", False)],
        "all_tsv_w": run[("all_sscm", True)],
        "all_cut": run[("all_sscm", True)] / run[("all_sscm", False)] - 1.0,
    }


COLUMNS = (
    ("workload", "workload", "text"),
    ("reading", "reading", "text"),
    ("hybrid W (w/o / with TSV)", "hybrid_pair", "text"),
    ("hybrid TSV saving / 0.084 W", "saving_vs_pair", "times"),
    ("All S-SCM W (w/o / with TSV)", "all_pair", "text"),
    ("All S-SCM TSV change", "all_cut", "pct"),
    ("current for 0.361 W (mA)", "hybrid_current_ma", "ratio"),
    ("S-SCM current for -74 % (mA)", "sscm_current_ma", "ratio"),
)


def display(pin_rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            **row,
            "hybrid_pair": f"{row['hybrid_w']:.3f} / {row['hybrid_tsv_w']:.3f}",
            "all_pair": f"{row['all_w']:.3f} / {row['all_tsv_w']:.3f}",
        }
        for row in pin_rows
    ]


def report_text(pin_rows: Sequence[Mapping[str, Any]], checks: Sequence[Mapping[str, Any]]) -> str:
    """The report's section (``scm_hybrid_pins.md.j2``): the readings' table, what holds under which,
    and the check runs; empty without readings."""
    if not pin_rows:
        return ""
    workloads = []
    for workload in dict.fromkeys(row["workload"] for row in pin_rows):
        mine = [row for row in pin_rows if row["workload"] == workload and row["index"] >= 0]
        workloads.append(
            {
                "workload": workload,
                "readings": len(mine),
                "giving": [row["reading"] for row in mine if row["gives_pair_saving"]],
                "reaching": [row["reading"] for row in mine if row["sscm_current_ma"] is not None],
                "both": [row["reading"] for row in mine if row["gives_pair_saving"] and row["sscm_current_ma"] is not None],
                "at_presets": [row for row in mine if row["all_cut"] is not None and abs(row["all_cut"] - ALL_SSCM_CUT) <= 0.01],
                "fitted": next((row for row in pin_rows if row["workload"] == workload and row["index"] < 0), None),
            }
        )
    grid = [row for row in pin_rows if row["index"] >= 0]
    savings = {toggling: [row["saving_vs_pair"] for row in grid if row["toggling"] == toggling] for toggling in TOGGLINGS}
    return lines_of(
        render(
            "scm_hybrid_pins.md.j2",
            table=markdown_table(display(pin_rows), COLUMNS),
            workloads=workloads,
            checks=checks,
            spans=[(toggling.replace("_", " "), min(values), max(values)) for toggling, values in savings.items() if values],
            preset_ma=PRESET_CURRENT_MA,
            pair_saving_w=PAIR_SAVING_W,
            pair_without_w=PAIR_WITHOUT_W,
            all_sscm_cut=ALL_SSCM_CUT,
            saving_tolerance=SAVING_TOLERANCE,
        )
    )
