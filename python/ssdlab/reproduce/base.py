"""One recipe base: what every ``ssdlab reproduce`` recipe declares, and the verdict rule.

A recipe (``Recipe``) declares its seed and title, its workloads (``Workload``: one dataclass for the
five recipes; each overridable by ``--trace NAME=PATH``), its recipe-specific options (``Option``), and
its **headlines** (``Claim``): each seed figure with the paper's value, the unit and how ours is
compared. ``Recipe.reproduce(out, *, workloads, traces, scale, scheduler, workers, progress, ...)`` runs
its grid (a resumable sweep), turns rows into tables (``report.markdown_table``) and figures (through
``ssdlab.plotting``), measures each claim (``Claim.measure`` gives a ``Headline``) and ends with
``report.finish``, which writes ``report.md`` (with the "Seed vs ssdlab" table made from the headlines)
and ``headlines.json``. ``RECIPES`` (in ``ssdlab.reproduce.registry``) is the registry the command line
builds its ``ssdlab reproduce`` subcommands from.

The verdict rule (``verdict``), one for every recipe. A claim has a **form**, and the rule compares its
**gains**:

- ``ratio`` ("N x", "N times faster"): compared as its gain N - 1 (2.2x is +120 %; 1.07x is +7 %);
- ``change`` (a gain or a cut, "+56 %", "-36 %", a difference): compared as it stands;
- ``absolute`` (a quantity: MB/s, s, W, a share, a break-even point): relative to the paper's value,
  with no side to rescue it;
- ``bound`` (the paper gives a bound or a stated comparison as text: "< 0.01", "worse"): it holds or not.

Then:

- **reproduced**: our gain is within 30 % of the paper's (``|ours - paper| <= 0.3 x |paper|``, gains for
  ratios and changes, values for quantities) and on the paper's side (the sign of the paper's gain);
  or the paper's bound holds;
- **direction only**: a ratio or change whose gain is on the paper's side but not within 30 %; also the
  best a comparison can get when one of its sides is **degenerate** (``Health``: write amplification
  above 20, host writes held over 90 % of the run by an average plane, erases past the rated endurance, a window that did
  not settle, or a simulated time over 10x the trace's span): its size says nothing about the technique;
- **not reproduced**: anything else, including no result and a quantity outside 30 %;
- **regime shown**: a qualitative claim whose regime the recipe shows (tables and figures across the
  axis that decides it), not one number;
- **calibrated**: the model was fitted to this number, or the reading was solved from it or adopted
  because it matched (``Claim.calibrated`` says how; a recipe's ``fits`` name every such claim);
- **arithmetic**: the figure follows from the seed's own formula or constants with no simulation in it.

Calibrated and arithmetic figures are shown beside the paper's and never counted as reproduced. Each
claim is measured under **one reading**, the one the seed's text supports (``Claim.quote`` holds the
sentence); other readings are ``Reading`` rows of the report's readings table, never counted.
``summary`` counts the verdicts ("N of M seed claims reproduced (gain rule), ...") for report.md,
headlines.json and ``ssdlab reproduce summary``.
"""

from __future__ import annotations

import abc
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPRODUCED = "reproduced"
DIRECTION_ONLY = "direction only"
NOT_REPRODUCED = "not reproduced"
REGIME_SHOWN = "regime shown"
CALIBRATED = "calibrated"
ARITHMETIC = "arithmetic"
VERDICTS = (REPRODUCED, DIRECTION_ONLY, NOT_REPRODUCED, REGIME_SHOWN, CALIBRATED, ARITHMETIC)
# Verdicts that say nothing about whether the simulator reproduces the seed: never counted as reproduced.
NOT_EVIDENCE = (CALIBRATED, ARITHMETIC)
TOLERANCE = 0.30

RATIO = "ratio"
CHANGE = "change"
ABSOLUTE = "absolute"
BOUND = "bound"
FORMS = (RATIO, CHANGE, ABSOLUTE, BOUND)

# When one side of a comparison is degenerate (``Health.problems``): its numbers measure a collapsed
# drive, not the technique. Stated here once; the report prints them.
DEGENERATE_WRITE_AMPLIFICATION = 20.0
DEGENERATE_HELD_FRACTION = 0.90
DEGENERATE_SPAN_FACTOR = 10.0

_COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}


def side_holds(value: float, side: str) -> bool:
    """Whether ``value`` passes ``side``, a comparison with a number: ``"> 0"``, ``"< 1"``, ``">= 1"``."""
    text = side.strip()
    for symbol, compare in _COMPARISONS.items():
        if text.startswith(symbol):
            return compare(value, float(text[len(symbol) :]))
    raise ValueError(f"side {side!r}: expected a comparison such as '> 0' or '< 1'")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def default_form(paper: float | str | None, kind: str) -> str:
    """The form a claim takes when it does not say: text is a bound, ``times`` a ratio, ``pct`` a
    change, anything else an absolute quantity."""
    if not _is_number(paper):
        return BOUND
    return {"times": RATIO, "pct": CHANGE}.get(kind, ABSOLUTE)


def gain(value: float | None, form: str) -> float | None:
    """A value as the rule compares it: a ratio's gain N - 1, a change as it stands (None for the
    other forms, which have no gain)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if form == RATIO:
        return value - 1.0
    if form == CHANGE:
        return value
    return None


def verdict(
    paper: float | str | None,
    ours: float | None,
    *,
    form: str | None = None,
    side: str | None = None,
    regime: bool = False,
    arithmetic: bool = False,
    calibrated: bool = False,
    degenerate: bool = False,
) -> str:
    """The one verdict rule (see the module docstring). ``form`` defaults to a ratio for a number and a
    bound for text; ``side`` is only for bounds (a ratio's or change's side is the sign of the paper's
    gain); ``degenerate``: a side of the comparison collapsed, so the verdict is at best direction only."""
    if arithmetic:
        return ARITHMETIC
    if calibrated:
        return CALIBRATED
    if regime:
        return REGIME_SHOWN
    form = form or (RATIO if _is_number(paper) else BOUND)
    if form not in FORMS:
        raise ValueError(f"form {form!r}: expected one of {', '.join(FORMS)}")
    if ours is None or (isinstance(ours, float) and math.isnan(ours)):
        return NOT_REPRODUCED
    if form == BOUND:
        if side is None:
            raise ValueError(f"a bound ({paper!r}) needs a side to check, or regime=True")
        held = side_holds(ours, side)
        if held and degenerate:
            return DIRECTION_ONLY
        return REPRODUCED if held else NOT_REPRODUCED
    if not _is_number(paper):
        raise ValueError(f"a {form} claim needs a numeric paper value, not {paper!r}")
    if form == ABSOLUTE:
        close = abs(ours - float(paper)) <= TOLERANCE * abs(float(paper))
        return REPRODUCED if close and not degenerate else NOT_REPRODUCED
    paper_gain = gain(float(paper), form)
    ours_gain = gain(ours, form)
    assert paper_gain is not None and ours_gain is not None
    on_side = (ours_gain > 0) if paper_gain > 0 else (ours_gain < 0) if paper_gain < 0 else ours_gain == 0
    close = abs(ours_gain - paper_gain) <= TOLERANCE * abs(paper_gain)
    if close and on_side and not degenerate:
        return REPRODUCED
    return DIRECTION_ONLY if on_side else NOT_REPRODUCED


def rule_text(
    paper: float | str | None,
    form: str,
    side: str | None = None,
    *,
    regime: bool = False,
    arithmetic: bool = False,
    calibrated: str = "",
) -> str:
    """How ``verdict`` judged a claim, in words (the ``rule`` field of headlines.json)."""
    if arithmetic:
        return "arithmetic on the seed's own formula: not a reproduction"
    if calibrated:
        return f"calibrated ({calibrated}): not a reproduction"
    if regime:
        return "qualitative: the recipe shows the regime where it holds"
    if form == BOUND:
        return f"bound: ours {side}"
    if form == ABSOLUTE:
        return f"within 30 % of {paper:g} (a quantity: no direction)"
    paper_gain = gain(float(paper), form)  # type: ignore[arg-type]
    assert paper_gain is not None
    what = f"gain {paper_gain:+.3g} (the ratio {paper:g} - 1)" if form == RATIO else f"{paper_gain:+.3g} as it stands"
    direction = "> 0" if paper_gain > 0 else "< 0" if paper_gain < 0 else "= 0"
    return f"within 30 % of the {what}; else direction: our gain {direction}"


def _display(value: float | str | None, kind: str) -> str:
    from ssdlab.reproduce.report import fmt

    if isinstance(value, str):
        return value
    return fmt(value, kind)


def _gain_text(value: float | None) -> str:
    return "" if value is None else f"{100 * value:+.1f} %"


def _planes(device: Sequence[Any], tiers: Sequence[Sequence[Any]]) -> int:
    """Planes of a device from its one-tier geometry (channels, chips per channel, dies, planes) or,
    on a tiered device (those are 0), the sum of each tier's chips x dies x planes."""
    if all(device) and device:
        return int(math.prod(float(value) for value in device))
    return int(sum(math.prod(float(value or 0) for value in tier) for tier in tiers))


def planes_of(result: Mapping[str, Any]) -> int:
    """The planes of a run's device (0 when the result does not say)."""
    device = result.get("device") or {}
    tiers = result.get("tiers") or {}
    return _planes(
        [device.get(k) for k in ("channels", "chips_per_channel", "dies_per_chip", "planes_per_die")],
        [[tier.get(k) for k in ("chips", "dies_per_chip", "planes_per_die")] for tier in tiers.values() if isinstance(tier, Mapping)],
    )


def held_plane_share(plane_blocked_us: Any, planes: int, simulated_seconds: Any, any_plane_fraction: Any = None) -> float | None:
    """The share of the run an average plane held host writes for GC: the planes' summed holding time
    over planes x simulated time. Not "some plane held writes" (``any_plane_blocked_fraction``): on a
    write-bound drive one plane or another is nearly always collecting, which says nothing about
    collapse; a drive whose every plane holds writes most of the time has. Falls back to the any-plane
    share when the plane count or holding time is unknown."""
    if plane_blocked_us is not None and planes > 0 and simulated_seconds:
        return float(plane_blocked_us) / (planes * float(simulated_seconds) * 1e6)
    return None if any_plane_fraction is None else float(any_plane_fraction)


def held_share(result: Mapping[str, Any]) -> float | None:
    """``held_plane_share`` of a run's (nested) result."""
    held = (result.get("gc") or {}).get("host_writes_held") or {}
    return held_plane_share(
        held.get("plane_blocked_us"), planes_of(result), result.get("simulated_seconds"), held.get("any_plane_blocked_fraction")
    )


@dataclass(frozen=True)
class Health:
    """One side of a comparison as a skeptical reader checks it: its throughput (``mbps``, named by
    every "best case" headline), write amplification, the share of the run an average plane held host
    writes for GC (``held_plane_share``), whether its window settled (None: the recipe
    has no window), the most-erased block against the rated endurance, and the simulated time against
    the trace's span (None: a closed loop or a synthetic run with no span)."""

    side: str
    mbps: float | None = None
    write_amplification: float | None = None
    held_fraction: float | None = None
    settled: bool | None = None
    erase_max: float | None = None
    endurance: float | None = None
    simulated_seconds: float | None = None
    span_seconds: float | None = None

    @classmethod
    def from_result(
        cls,
        side: str,
        result: Mapping[str, Any] | None,
        *,
        settled: bool | None = None,
        span_seconds: float | None = None,
        op: str = "write",
    ) -> Health:
        """From a run's result (nested, as ``ssdlab.run`` returns it); ``op``: whose MB/s is named."""
        if not result:
            return cls(side, settled=settled, span_seconds=span_seconds)
        erases = result.get("erase_count") or {}
        return cls(
            side=side,
            mbps=(result.get(op) or {}).get("mbps"),
            write_amplification=result.get("write_amplification"),
            held_fraction=held_share(result),
            settled=settled,
            erase_max=erases.get("max"),
            endurance=erases.get("endurance_pe_cycles"),
            simulated_seconds=result.get("simulated_seconds"),
            span_seconds=span_seconds,
        )

    @classmethod
    def from_columns(
        cls, side: str, row: Mapping[str, Any], *, settled: bool | None = None, span_seconds: float | None = None, op: str = "write"
    ) -> Health:
        """From a sweep row's flat ``result.*`` columns."""

        def get(key: str) -> Any:
            return row.get(f"result.{key}")

        tiers = {key.split(".")[2] for key in row if key.startswith("result.tiers.") and key.endswith(".planes_per_die")}
        planes = _planes(
            [get(f"device.{k}") for k in ("channels", "chips_per_channel", "dies_per_chip", "planes_per_die")],
            [[get(f"tiers.{t}.{k}") for k in ("chips", "dies_per_chip", "planes_per_die")] for t in sorted(tiers)],
        )
        return cls(
            side=side,
            mbps=get(f"{op}.mbps"),
            write_amplification=get("write_amplification"),
            held_fraction=held_plane_share(
                get("gc.host_writes_held.plane_blocked_us"),
                planes,
                get("simulated_seconds"),
                get("gc.host_writes_held.any_plane_blocked_fraction"),
            ),
            settled=settled,
            erase_max=get("erase_count.max"),
            endurance=get("erase_count.endurance_pe_cycles"),
            simulated_seconds=get("simulated_seconds"),
            span_seconds=span_seconds,
        )

    def problems(self) -> list[str]:
        """Why this side is degenerate (empty: it is not), each reason with its threshold."""
        out: list[str] = []
        if self.write_amplification is not None and self.write_amplification > DEGENERATE_WRITE_AMPLIFICATION:
            out.append(f"write amplification {self.write_amplification:.1f} > {DEGENERATE_WRITE_AMPLIFICATION:g}")
        if self.held_fraction is not None and self.held_fraction > DEGENERATE_HELD_FRACTION:
            out.append(
                f"host writes held {100 * self.held_fraction:.1f} % of the run (mean over planes) > {100 * DEGENERATE_HELD_FRACTION:.0f} %"
            )
        if self.erase_max is not None and self.endurance and self.erase_max > self.endurance:
            out.append(f"erase count max {self.erase_max:,.0f} past the endurance {self.endurance:,.0f}")
        if self.settled is False:
            out.append("window not settled")
        if self.simulated_seconds is not None and self.span_seconds and self.simulated_seconds > DEGENERATE_SPAN_FACTOR * self.span_seconds:
            out.append(
                f"simulated {self.simulated_seconds:,.0f} s > {DEGENERATE_SPAN_FACTOR:g}x the reference span {self.span_seconds:,.0f} s"
            )
        return out

    @property
    def degenerate(self) -> bool:
        return bool(self.problems())

    def as_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "mbps": self.mbps,
            "write_amplification": self.write_amplification,
            "held_fraction": self.held_fraction,
            "settled": self.settled,
            "erase_max": self.erase_max,
            "endurance": self.endurance,
            "simulated_seconds": self.simulated_seconds,
            "span_seconds": self.span_seconds,
            "problems": self.problems(),
        }


def healthy(candidates: Sequence[Any], health: Callable[[Any], Sequence[Health]]) -> list[Any]:
    """The candidates of a "best case" / "up to N x" headline whose comparison has no degenerate side
    (``health(candidate)`` gives its sides): a collapsed baseline is never a best case."""
    return [c for c in candidates if not any(h.degenerate for h in health(c))]


@dataclass(frozen=True)
class Headline:
    """One seed figure beside ours, with its verdict (a row of the report's "Seed vs ssdlab" table
    and an object of headlines.json)."""

    figure: str
    paper: float | str | None
    ours: float | None
    unit: str
    verdict: str
    rule: str
    note: str = ""
    paper_text: str = ""
    ours_text: str = ""
    key: str = ""
    form: str = ""
    paper_gain: float | None = None
    ours_gain: float | None = None
    quote: str = ""
    reading: str = ""
    calibrated: str = ""
    health: tuple[Health, ...] = ()

    @property
    def degenerate(self) -> list[str]:
        """Each degenerate side with its reasons ("conventional: write amplification 794.0 > 20")."""
        return [f"{h.side}: {'; '.join(h.problems())}" for h in self.health if h.degenerate]

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "figure": self.figure,
            "paper": self.paper,
            "ours": self.ours,
            "unit": self.unit,
            "form": self.form,
            "paper_gain": self.paper_gain,
            "ours_gain": self.ours_gain,
            "verdict": self.verdict,
            "rule": self.rule,
            "note": self.note,
            "quote": self.quote,
            "reading": self.reading,
            "calibrated": self.calibrated,
            "health": [h.as_dict() for h in self.health],
            "degenerate": self.degenerate,
            "paper_text": self.paper_text,
            "ours_text": self.ours_text,
        }


@dataclass(frozen=True)
class Claim:
    """A headline a recipe declares: the seed figure (``figure``), the paper's value as the seed gives
    it (a number in ``unit``, or text for a bound or a qualitative claim), its ``form`` (``ratio``,
    ``change``, ``absolute`` or ``bound``; by default from the value and ``kind``), and whether the
    recipe shows a regime instead of one number. ``side`` is a bound's test (a ratio's or change's side
    is the sign of the paper's gain). ``kind`` is how numbers are shown (``report.fmt``: pct, share,
    times, ratio, int, us, num). ``quote`` is the seed's sentence that supports the reading the claim is
    measured under (``reading`` names it); ``calibrated`` says how the model or the reading was fitted to
    this number (its verdict is then "calibrated"); ``arithmetic`` marks a figure that follows from the
    seed's constants."""

    key: str
    figure: str
    paper: float | str
    unit: str
    kind: str = "num"
    side: str | None = None
    regime: bool = False
    arithmetic: bool = False
    calibrated: str = ""
    form: str | None = None
    quote: str = ""
    reading: str = ""

    def __post_init__(self) -> None:
        form = self.resolved_form
        if form not in FORMS:
            raise ValueError(f"claim {self.key}: form {form!r}, expected one of {', '.join(FORMS)}")
        if form == BOUND and self.side is None and not self.regime:
            raise ValueError(f"claim {self.key}: a bound ({self.paper!r}) needs a side to check, or regime=True")
        if form == ABSOLUTE and self.side is not None:
            raise ValueError(f"claim {self.key}: an absolute quantity has no side to rescue it (side {self.side!r})")
        if form in (RATIO, CHANGE) and self.side is not None:
            paper_gain = gain(float(self.paper), form)  # type: ignore[arg-type]
            expected = 1.0 if form == RATIO else 0.0
            value = expected + (1.0 if (paper_gain or 0) > 0 else -1.0)
            if not side_holds(value, self.side):
                raise ValueError(f"claim {self.key}: side {self.side!r} disagrees with the paper's {self.paper!r}")

    @property
    def resolved_form(self) -> str:
        return self.form or default_form(self.paper, self.kind)

    def measure(
        self,
        ours: float | None,
        *,
        where: str = "",
        note: str = "",
        ours_text: str | None = None,
        health: Sequence[Health] = (),
        reading: str | None = None,
    ) -> Headline:
        """This claim's headline for ``ours`` (``where``: the workload or regime it was measured on;
        ``health``: both sides of the comparison, a degenerate one caps the verdict at direction only)."""
        if ours is not None and not isinstance(ours, (int, float)):
            raise TypeError(f"{self.key}: ours must be a number or None, not {type(ours).__name__}")
        value = None if ours is None else float(ours)
        form = self.resolved_form
        sides = tuple(health)
        degenerate = any(h.degenerate for h in sides)
        paper_gain = gain(float(self.paper), form) if _is_number(self.paper) else None
        text = ours_text if ours_text is not None else _display(value, self.kind)
        rule = rule_text(self.paper, form, self.side, regime=self.regime, arithmetic=self.arithmetic, calibrated=self.calibrated)
        if degenerate and not (self.arithmetic or self.calibrated or self.regime):
            rule += "; a side of the comparison is degenerate: at best direction only"
        return Headline(
            figure=f"{self.figure} ({where})" if where else self.figure,
            paper=self.paper,
            ours=value,
            unit=self.unit,
            verdict=verdict(
                self.paper,
                value,
                form=form,
                side=self.side,
                regime=self.regime,
                arithmetic=self.arithmetic,
                calibrated=bool(self.calibrated),
                degenerate=degenerate,
            ),
            rule=rule,
            note=note,
            paper_text=_display(self.paper, self.kind),
            ours_text=text,
            key=self.key,
            form=form,
            paper_gain=paper_gain,
            ours_gain=gain(value, form),
            quote=self.quote,
            reading=self.reading if reading is None else reading,
            calibrated=self.calibrated,
            health=sides,
        )


@dataclass(frozen=True)
class Reading:
    """Another reading of a claim (never counted): its value, what it assumes, whether the seed's text
    supports it and why, and whether it was adopted because it matched the paper's number."""

    claim: str
    name: str
    value: float | None
    assumes: str
    supported: bool
    why: str
    value_text: str = ""
    matched: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "name": self.name,
            "value": self.value,
            "value_text": self.value_text,
            "assumes": self.assumes,
            "supported": self.supported,
            "why": self.why,
            "matched": self.matched,
        }


@dataclass(frozen=True)
class Fit:
    """A number of the seed the model (or a reading) was fitted to: ``what`` was fitted, ``claims`` the
    headline keys whose paper value was an input of the fit, and ``where`` the constant or preset field
    that holds the result. Every claim named here must be graded "calibrated" (a test checks)."""

    what: str
    claims: tuple[str, ...]
    where: str = ""


def trace_options(items: Sequence[str], trace_names: Sequence[str]) -> dict[str, Path]:
    """``--trace NAME=PATH`` options as {workload name: path} (``report.parse_trace_options``), with a
    workload named twice refused (the last would silently win) and a path that is a folder, a FIFO
    or a device called what it is, not "no such trace file"."""
    from ssdlab import outputs
    from ssdlab.reproduce.report import parse_trace_options
    from ssdlab.sweep import SweepError

    given: dict[str, str] = {}
    canonical = {name.lower(): name for name in trace_names}
    for item in items:
        name, separator, path = item.partition("=")
        key = canonical.get(name.strip().lower())
        if key is None or not separator or not path:
            continue  # parse_trace_options names the problem
        if key in given:
            raise SweepError(f"--trace {key}: given twice ({given[key]} and {path}); give each workload one trace")
        given[key] = path
        found = outputs.kind(Path(path).expanduser())
        if found not in ("missing", "regular"):
            raise outputs.InputRefused(f"--trace {item!r}: {path} is {outputs.describe(found)}, not a regular file; give a trace file")
    return parse_trace_options(items, trace_names)


def summary(headlines: Sequence[Headline]) -> dict[str, Any]:
    """The verdict counts of a recipe's headlines (or several recipes'), with the sentence report.md
    opens with: "N of M seed claims reproduced (gain rule), K direction only, J not reproduced, C
    calibrated or arithmetic, R regime shown"."""
    counts = {name: sum(1 for h in headlines if h.verdict == name) for name in VERDICTS}
    total = len(headlines)
    return {
        "claims": total,
        **{name.replace(" ", "_"): count for name, count in counts.items()},
        "sentence": summary_sentence(counts, total),
    }


def summary_sentence(counts: Mapping[str, int], total: int) -> str:
    not_evidence = sum(counts.get(name, 0) for name in NOT_EVIDENCE)
    return (
        f"{counts.get(REPRODUCED, 0)} of {total} seed claims reproduced (gain rule), "
        f"{counts.get(DIRECTION_ONLY, 0)} direction only, {counts.get(NOT_REPRODUCED, 0)} not reproduced, "
        f"{not_evidence} calibrated or arithmetic, {counts.get(REGIME_SHOWN, 0)} regime shown"
    )


@dataclass(frozen=True)
class Workload:
    """A workload of a recipe (the same dataclass for all five). ``kind``: ``sample`` (a real trace
    sample in ../shared/traces, ``sample`` names it), ``stand-in`` (synthetic, built from published
    statistics), ``synthetic`` (the seed's own synthetic mix), ``full`` (a whole trace found here) or
    ``user`` (a trace given with ``--trace NAME=PATH``). ``basis`` says what it is and what it rests on.
    ``overrides`` define it when the recipe builds it ahead; the stand-in shape (``data_bytes``,
    ``read_fraction``, ``sizes`` as (bytes, weight), hot/cold space and access shares) is for recipes
    that build it per point; ``extras`` holds anything else a recipe needs."""

    name: str
    kind: str
    basis: str = ""
    sample: str | None = None
    overrides: tuple[str, ...] = ()
    data_bytes: float = 0.0
    read_fraction: float = 0.0
    sizes: tuple[tuple[int, float], ...] = ()
    hot_space_fraction: float = 0.0
    hot_access_fraction: float = 0.0
    extras: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The name with its kind, as the sweeps' workload labels spell it."""
        suffix = {"sample": "sample", "stand-in": "stand-in", "full": "full trace", "user": "user trace"}.get(self.kind)
        return f"{self.name} ({suffix})" if suffix else self.name


@dataclass(frozen=True)
class Option:
    """A recipe-specific command-line option: ``flags`` as click spells them (``"--pe"``,
    ``"--churn/--no-churn"``), the Python type, the default, help, and ``param`` the keyword of
    ``Recipe.reproduce`` it fills (``convert`` turns the parsed value into that argument)."""

    param: str
    flags: tuple[str, ...]
    type: Any
    default: Any
    help: str
    convert: Callable[[Any], Any] | None = None


class Recipe(abc.ABC):
    """A reproduction recipe. Subclasses set the class attributes and implement ``workloads`` and
    ``run`` (a subclass missing either cannot be instantiated); the command line calls ``reproduce``
    (the one signature of every recipe)."""

    name: str = ""  # the ssdlab reproduce subcommand
    seed: str = ""  # seed id, e.g. "000"
    title: str = ""
    help: str = ""  # the subcommand's help
    claims: tuple[Claim, ...] = ()
    # The seed's numbers the model or a reading was fitted to: each names the claims it makes "calibrated".
    fits: tuple[Fit, ...] = ()
    options: tuple[Option, ...] = ()
    # Whether --scale applies (its help says what 1 means for this recipe); None: not offered.
    scale_help: str | None = None
    # Whether the recipe's figures are made of the host's writes (write throughput, GC, wear): a --trace
    # with no write is refused before the first run instead of failing after the grid.
    trace_needs_writes: bool = False

    @abc.abstractmethod
    def workloads(self) -> Sequence[Workload]:
        """The workloads the recipe runs by default (``--workloads`` picks, ``--trace`` replaces)."""

    def workload_names(self) -> list[str]:
        return [w.name for w in self.workloads()]

    def trace_names(self) -> list[str]:
        """The workloads ``--trace NAME=PATH`` may replace (all of them unless the recipe says)."""
        return self.workload_names()

    def default_out(self) -> Path:
        return Path("reproduce") / self.name

    def claim(self, key: str) -> Claim:
        for claim in self.claims:
            if claim.key == key:
                return claim
        raise KeyError(f"{self.name}: no claim {key!r}")

    def fitted_claims(self) -> dict[str, str]:
        """{claim key: what was fitted to it} over the recipe's ``fits``."""
        return {key: fit.what for fit in self.fits for key in fit.claims}

    def check_declarations(self) -> list[str]:
        """What is wrong with the recipe's claims and fits (empty: nothing): a fit naming no claim of
        the recipe, a fitted claim not marked calibrated, a duplicate key, a counted claim without the
        seed's sentence (``quote``) for its reading."""
        problems: list[str] = []
        keys = [claim.key for claim in self.claims]
        problems += [f"duplicate claim {key!r}" for key in sorted({k for k in keys if keys.count(k) > 1})]
        for key, what in self.fitted_claims().items():
            if key not in keys:
                problems.append(f"fit {what!r} names no claim {key!r}")
            elif not self.claim(key).calibrated:
                problems.append(f"claim {key!r} was an input of the fit {what!r} but is not marked calibrated")
        for claim in self.claims:
            if not (claim.arithmetic or claim.calibrated) and not claim.quote:
                problems.append(f"claim {claim.key!r} quotes no sentence of the seed for its reading")
        return problems

    def reproduce(
        self,
        out: str | Path,
        *,
        workloads: Sequence[str] | None = None,
        traces: Mapping[str, Path] | None = None,
        scale: float = 1.0,
        scheduler: str | None = None,
        workers: int | None = None,
        progress: Callable[..., object] | None = None,
        **options: Any,
    ) -> Any:
        """Runs the recipe into ``out`` (resuming what an earlier run there stored): tables, figures,
        report.md and headlines.json. Returns the ``report.Reproduction``."""
        self.check_inputs(out, workloads=workloads, traces=dict(traces or {}), scale=scale, scheduler=scheduler)
        unknown = set(options) - {option.param for option in self.options}
        if unknown:
            raise TypeError(f"{self.name}: unknown options {', '.join(sorted(unknown))}")
        problems = self.check_declarations()
        if problems:
            raise ValueError(f"recipe {self.name}: " + "; ".join(problems))
        reproduction = self.run(
            Path(out),
            workloads=workloads,
            traces=dict(traces or {}),
            scale=scale,
            scheduler=scheduler,
            workers=workers,
            progress=progress,
            **options,
        )
        from ssdlab.reproduce.report import write_headlines

        fitted = self.fitted_claims()
        wrong = [h.figure for h in reproduction.headlines if h.key in fitted and h.verdict != CALIBRATED]
        if wrong:
            raise ValueError(f"recipe {self.name}: fitted claims graded other than calibrated: {', '.join(wrong)}")
        write_headlines(reproduction.headlines, reproduction.out_dir, recipe=self.name, seed=self.seed, readings=reproduction.readings)
        return reproduction

    def check_inputs(
        self, out: str | Path, *, workloads: Sequence[str] | None, traces: Mapping[str, Path], scale: float, scheduler: str | None
    ) -> None:
        """Refuses, before the first simulation, every input the recipe's shared options can get wrong:
        a --scale that is not finite and positive (or given to a recipe that does not scale), a
        --scheduler that is no Dask address, an empty --workloads, a --trace for a workload --workloads
        leaves out, a trace that is not a readable regular file, does not parse with the native reader
        the runs use, or has no write when the recipe's figures are made of writes, and an --out that
        is not a folder that can be written."""
        from ssdlab import _native, api, outputs
        from ssdlab.sweep import SweepError, check_scheduler

        if self.scale_help is None and scale != 1.0:
            raise SweepError(f"--scale: {self.name} does not scale (see its own options)")
        if not (math.isfinite(scale) and scale > 0):
            raise SweepError(f"--scale {scale}: must be a finite positive number (1 is the recipe's full size)")
        check_scheduler(scheduler)
        if workloads is not None and not workloads:
            raise SweepError(f"--workloads: no workload named; give some of {', '.join(self.workload_names())}")
        for name, path in traces.items():
            option = f"--trace {name}={path}"
            if workloads is not None and name not in workloads:
                raise SweepError(f"{option}: {name} is not among --workloads ({', '.join(workloads)}), so the trace would not be read")
            outputs.check_input(option, Path(path))
            try:
                stats = api.trace_stats(path)["stats"]
            except _native.TraceError as error:
                raise SweepError(f"{option}: {error}") from None
            if self.trace_needs_writes and not stats.get("writes"):
                raise SweepError(
                    f"{option}: the trace has no write ({stats.get('reads', 0):,} reads); {self.name}'s figures are made of the "
                    "host's writes, so give a trace that writes"
                )
        outputs.check_folder("--out", Path(out))

    @abc.abstractmethod
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
        **options: Any,
    ) -> Any:
        """Runs the grid into ``out`` (resuming what is there) and writes tables, figures, report and headlines."""
