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

The verdict rule (``verdict``), one for every recipe:

- **regime shown**: the claim is qualitative and the recipe declares that it shows the regime in which
  it holds (tables and figures across the axis that decides it), not one number;
- **reproduced**: the paper gives a number and ours is within 30 % of it, relative
  (``|ours - paper| <= 0.3 x |paper|``), and on the paper's side when the claim states one (a ratio of
  0.91 is not reproduced by 1.15: the seed's result is a loss, ours a gain); or the paper gives a bound
  or a stated comparison (text, such as ``< 0.01`` or "worse") and ours satisfies it;
- **direction only**: the paper gives a number, ours is not within 30 % but is on the paper's side
  (the claim's ``side``, e.g. a gain ``> 0``, a ratio ``> 1``, a cut ``< 0``);
- **not reproduced**: anything else, including no result (a failed or missing run) and numeric claims
  without a side (a throughput, a latency) outside 30 %;
- **arithmetic**: the figure follows from the seed's own formula or constants, with no simulation in
  it (seed 001's cost break-even 1 + 0.25 x 12 = 4): shown beside the paper's, never counted as
  reproduced.
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
ARITHMETIC = "arithmetic"
VERDICTS = (REPRODUCED, DIRECTION_ONLY, NOT_REPRODUCED, REGIME_SHOWN, ARITHMETIC)
TOLERANCE = 0.30

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


def verdict(
    paper: float | str | None, ours: float | None, *, side: str | None = None, regime: bool = False, arithmetic: bool = False
) -> str:
    """The one verdict rule (see the module docstring): arithmetic, regime shown, reproduced (within
    30 % of the paper's number and on its side, or the paper's bound holds), direction only (on the
    paper's side), not reproduced."""
    if arithmetic:
        return ARITHMETIC
    if regime:
        return REGIME_SHOWN
    if ours is None or (isinstance(ours, float) and math.isnan(ours)):
        return NOT_REPRODUCED
    if isinstance(paper, (int, float)) and not isinstance(paper, bool):
        on_side = side is None or side_holds(ours, side)
        close = abs(ours - paper) <= TOLERANCE * abs(paper)
        if close and on_side:
            return REPRODUCED
        return DIRECTION_ONLY if side is not None and on_side else NOT_REPRODUCED
    # A bound or stated comparison (the paper gives no number): it holds or it does not.
    if side is None:
        raise ValueError(f"a claim with a text paper value ({paper!r}) needs a side to check, or regime=True")
    return REPRODUCED if side_holds(ours, side) else NOT_REPRODUCED


def rule_text(paper: float | str | None, side: str | None, regime: bool, arithmetic: bool = False) -> str:
    """How ``verdict`` judged a claim, in words (the ``rule`` field of headlines.json)."""
    if arithmetic:
        return "arithmetic on the seed's own formula: not a reproduction"
    if regime:
        return "qualitative: the recipe shows the regime where it holds"
    if isinstance(paper, (int, float)) and not isinstance(paper, bool):
        return f"within 30 % of {paper:g}" + (f" and ours {side}; else direction: ours {side}" if side else " (no direction)")
    return f"bound: ours {side}"


def _display(value: float | str | None, kind: str) -> str:
    from ssdlab.reproduce.report import fmt

    if isinstance(value, str):
        return value
    return fmt(value, kind)


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

    def as_dict(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "paper": self.paper,
            "ours": self.ours,
            "unit": self.unit,
            "verdict": self.verdict,
            "rule": self.rule,
            "note": self.note,
            "paper_text": self.paper_text,
            "ours_text": self.ours_text,
        }


@dataclass(frozen=True)
class Claim:
    """A headline a recipe declares: the seed figure (``figure``), the paper's value as the seed gives
    it (a number in ``unit``, or text for a bound or a qualitative claim), the side ours must be on for
    "direction only" (or for a bound to hold), and whether the recipe shows a regime instead of one
    number. ``kind`` is how numbers are shown (``report.fmt``: pct, share, times, ratio, int, us, num)."""

    key: str
    figure: str
    paper: float | str
    unit: str
    kind: str = "num"
    side: str | None = None
    regime: bool = False
    # The figure is arithmetic on the seed's own formula (no simulation): verdict "arithmetic".
    arithmetic: bool = False

    def measure(self, ours: float | None, *, where: str = "", note: str = "", ours_text: str | None = None) -> Headline:
        """This claim's headline for ``ours`` (``where``: the workload or regime it was measured on)."""
        if ours is not None and not isinstance(ours, (int, float)):
            raise TypeError(f"{self.key}: ours must be a number or None, not {type(ours).__name__}")
        value = None if ours is None else float(ours)
        return Headline(
            figure=f"{self.figure} ({where})" if where else self.figure,
            paper=self.paper,
            ours=value,
            unit=self.unit,
            verdict=verdict(self.paper, value, side=self.side, regime=self.regime, arithmetic=self.arithmetic),
            rule=rule_text(self.paper, self.side, self.regime, self.arithmetic),
            note=note,
            paper_text=_display(self.paper, self.kind),
            ours_text=ours_text if ours_text is not None else _display(value, self.kind),
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
    options: tuple[Option, ...] = ()
    # Whether --scale applies (its help says what 1 means for this recipe); None: not offered.
    scale_help: str | None = None

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
        from ssdlab.sweep import SweepError

        if self.scale_help is None and scale != 1.0:
            raise SweepError(f"--scale: {self.name} does not scale (see its own options)")
        unknown = set(options) - {option.param for option in self.options}
        if unknown:
            raise TypeError(f"{self.name}: unknown options {', '.join(sorted(unknown))}")
        return self.run(
            Path(out),
            workloads=workloads,
            traces=dict(traces or {}),
            scale=scale,
            scheduler=scheduler,
            workers=workers,
            progress=progress,
            **options,
        )

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
