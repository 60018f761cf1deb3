"""Search on the sweep engine: a coarse grid over numeric axes, then rounds that refine around the best
point found so far (each axis's step halved, its neighbours at that step evaluated), until every
integer axis is at step 1 or the rounds run out; and ``bisect``, which finds where a quantity crosses
a target along one axis (a break-even point: seed 001's S-SCM latency at which the All S-SCM SSD
writes as fast as the hybrid).

Every evaluation is a sweep point stored in the search's folder, so a search is resumable like any
sweep: run it again and every point already computed is read back, not run. ``search`` takes the
evaluation as a function (a batch of points in, one objective value per point out), so recipes whose
objective needs several runs per point (seed 004's steady state: a warm-up run subtracted from a
longer one) use the same search; ``optimize_sweep`` is the plain case, a result column of one run
(``ssdlab optimize``).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssdlab.sweep import Sweep, SweepError, run_sweep


@dataclass(frozen=True)
class Axis:
    """A numeric config key searched over [low, high]: integers (chip counts, thresholds) or reals;
    ``coarse`` values on the first grid."""

    key: str
    low: float
    high: float
    integer: bool = False
    coarse: int = 5

    @classmethod
    def parse(cls, text: str) -> Axis:
        """``KEY=LOW:HIGH[:int][:N]``, e.g. ``device.tiers.tlc.chips=1:7:int:4``; anything else (an
        extra field, ``int`` after N, an int axis with fractional bounds) is refused, never dropped."""
        form = "expected KEY=LOW:HIGH[:int][:N], e.g. host.queue_depth=1:32:int:5"
        key, sep, spec = text.partition("=")
        parts = spec.split(":")
        if not sep or not key.strip() or len(parts) < 2:
            raise SweepError(f"--axis {text!r}: {form}")
        try:
            low, high = float(parts[0]), float(parts[1])
        except ValueError:
            raise SweepError(f"--axis {text!r}: LOW and HIGH must be numbers; {form}") from None
        extra = parts[2:]
        integer = bool(extra) and extra[0] == "int"
        if integer:
            extra = extra[1:]
        if len(extra) > 1:
            raise SweepError(f"--axis {text!r}: {len(parts)} fields ({':'.join(parts)}); {form}")
        try:
            coarse = int(extra[0]) if extra else 5
        except ValueError:
            hint = " (int is given once, before N)" if extra[0] == "int" else ""
            raise SweepError(f"--axis {text!r}: N (coarse points) must be an integer, got {extra[0]!r}{hint}; {form}") from None
        if not (math.isfinite(low) and math.isfinite(high)) or high < low:
            raise SweepError(f"--axis {text!r}: need finite LOW <= HIGH")
        if integer and not (low.is_integer() and high.is_integer()):
            raise SweepError(f"--axis {text!r}: an int axis needs integer bounds, got LOW {parts[0]} and HIGH {parts[1]}")
        if coarse < 2:
            raise SweepError(f"--axis {text!r}: at least 2 coarse points")
        return cls(key.strip(), low, high, integer, coarse)

    def grid(self) -> list[float]:
        values = [self.low + (self.high - self.low) * i / (self.coarse - 1) for i in range(self.coarse)]
        return sorted({self.snap(value) for value in values})

    def snap(self, value: float) -> float:
        value = min(self.high, max(self.low, value))
        return float(round(value)) if self.integer else value

    def first_step(self) -> float:
        return (self.high - self.low) / (self.coarse - 1)


def parse_axes(texts: Sequence[str]) -> list[Axis]:
    """Every ``--axis`` (``Axis.parse``); a key given twice is refused (one value per key per point)."""
    axes = [Axis.parse(text) for text in texts]
    _refuse_duplicate_keys(axes)
    return axes


def _refuse_duplicate_keys(axes: Sequence[Axis]) -> None:
    keys = [axis.key for axis in axes]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    if twice:
        raise SweepError(f"--axis {', '.join(twice)}: given more than once; give each key one --axis")


@dataclass
class Evaluation:
    point: dict[str, float]
    value: float | None
    round: int


@dataclass
class SearchResult:
    best: Evaluation | None
    history: list[Evaluation] = field(default_factory=list)
    maximize: bool = True

    def rows(self) -> list[dict[str, Any]]:
        return [
            {**e.point, "objective": e.value, "round": e.round, "best": self.best is not None and e.point == self.best.point}
            for e in self.history
        ]


def _key(point: Mapping[str, float]) -> tuple:
    return tuple(sorted(point.items()))


def search(
    axes: Sequence[Axis], evaluate: Callable[[list[dict[str, float]]], list[float | None]], *, maximize: bool = True, rounds: int = 3
) -> SearchResult:
    """Coarse grid, then up to ``rounds`` refinements around the best point (None values never win)."""
    if not axes:
        raise SweepError("a search needs at least one axis")
    _refuse_duplicate_keys(axes)
    seen: dict[tuple, Evaluation] = {}
    result = SearchResult(best=None, maximize=maximize)

    def better(a: float | None, b: float | None) -> bool:
        if a is None:
            return False
        return b is None or (a > b if maximize else a < b)

    def run(points: list[dict[str, float]], round_number: int) -> None:
        fresh = [p for p in points if _key(p) not in seen]
        if not fresh:
            return
        for point, value in zip(fresh, evaluate(fresh)):
            evaluation = Evaluation(point, value, round_number)
            seen[_key(point)] = evaluation
            result.history.append(evaluation)
            if better(value, result.best.value if result.best else None):
                result.best = evaluation

    run([dict(zip((a.key for a in axes), values)) for values in itertools.product(*(a.grid() for a in axes))], 0)
    steps = {a.key: a.first_step() for a in axes}
    for round_number in range(1, rounds + 1):
        if result.best is None:
            break
        steps = {a.key: (max(1.0, round(steps[a.key] / 2)) if a.integer else steps[a.key] / 2) for a in axes}
        centre = result.best.point
        choices = [sorted({a.snap(centre[a.key] + d * steps[a.key]) for d in (-1, 0, 1)}) for a in axes]
        candidates = [dict(zip((a.key for a in axes), values)) for values in itertools.product(*choices)]
        before = len(seen)
        run(candidates, round_number)
        if len(seen) == before and all(a.integer and steps[a.key] <= 1 for a in axes):
            break
    return result


@dataclass
class Crossing:
    """Where ``bisect`` found the crossing: the bracket it ends with (values on either side), the point
    interpolated linearly inside it, and every evaluation in order."""

    low: float
    high: float
    value_low: float
    value_high: float
    estimate: float
    history: list[tuple[float, float | None]]

    def rows(self) -> list[dict[str, Any]]:
        return [{"x": x, "value": value, "step": index} for index, (x, value) in enumerate(self.history)]


def bisect(
    low: float,
    high: float,
    evaluate: Callable[[list[float]], list[float | None]],
    *,
    target: float = 0.0,
    tolerance: float = 0.0,
    iterations: int = 8,
    log_scale: bool = False,
) -> Crossing | None:
    """Finds x in [low, high] where ``evaluate`` crosses ``target``: both ends first, then ``iterations``
    halvings of the bracket (in log x with ``log_scale``), stopping early when the bracket is narrower
    than ``tolerance``. ``evaluate`` takes a batch of x and returns one value each (a sweep: every
    evaluation is a stored point, so a bisection resumes like any sweep). None when the ends do not
    bracket a crossing or an evaluation failed."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low or (log_scale and low <= 0):
        raise SweepError(f"bisect: need 0 < LOW < HIGH for a log scale, LOW < HIGH otherwise (got {low}, {high})")
    history: list[tuple[float, float | None]] = []
    ends = evaluate([low, high])
    history += list(zip([low, high], ends))
    value_low, value_high = ends
    if value_low is None or value_high is None or (value_low - target) * (value_high - target) > 0:
        return None
    for _ in range(iterations):
        if high - low <= tolerance:
            break
        middle = math.sqrt(low * high) if log_scale else (low + high) / 2
        (value,) = evaluate([middle])
        history.append((middle, value))
        if value is None:
            return None
        if (value - target) * (value_low - target) <= 0:
            high, value_high = middle, value
        else:
            low, value_low = middle, value
    share = 0.5 if value_high == value_low else (target - value_low) / (value_high - value_low)
    if log_scale:
        estimate = math.exp(math.log(low) + share * (math.log(high) - math.log(low)))
    else:
        estimate = low + share * (high - low)
    return Crossing(low, high, value_low, value_high, estimate, history)


def _value_text(value: float, axis: Axis) -> str:
    return str(int(value)) if axis.integer else repr(value)


def optimize_sweep(
    base: str,
    axes: Sequence[Axis],
    objective: str,
    out_dir: str | Path,
    *,
    common: Sequence[str] = (),
    maximize: bool = True,
    rounds: int = 3,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[..., object] | None = None,
) -> SearchResult:
    """Searches ``axes`` of config ``base`` for the best ``objective`` (a result column such as
    ``result.write.mbps``); every point is stored in ``out_dir`` (resumable)."""
    by_key = {axis.key: axis for axis in axes}

    def evaluate(points: list[dict[str, float]]) -> list[float | None]:
        cases = {}
        for point in points:
            label = ",".join(f"{key}={_value_text(value, by_key[key])}" for key, value in point.items())
            cases[label] = [f"{key}={_value_text(value, by_key[key])}" for key, value in point.items()]
        sweep = Sweep(name="optimize", base=base, common=list(common), cases={"point": cases}, origin="optimize")
        outcome = run_sweep(sweep, out_dir, scheduler=scheduler, workers=workers, progress=progress)
        values = {}
        for row in outcome.rows:
            value = row.get(objective) if row["status"] == "ok" else None
            if row["status"] == "ok" and objective not in row:
                raise SweepError(f"--objective {objective}: no such result column (e.g. result.write.mbps, result.write_amplification)")
            values[row["point.point"]] = float(value) if isinstance(value, (int, float)) else None
        return [values.get(label) for label in cases]

    return search(axes, evaluate, maximize=maximize, rounds=rounds)


def write_search(result: SearchResult, out: Path, objective: str, axes: Sequence[Axis]) -> dict[str, Path]:
    """The search's table (Parquet, CSV), a JSON summary and the objective surface (one axis: a line;
    two: a scatter coloured by value; more: the first two)."""
    import polars as pl

    from ssdlab import plotting

    out.mkdir(parents=True, exist_ok=True)
    rows = result.rows()
    frame = pl.DataFrame(rows)
    frame.write_parquet(out / "search.parquet")
    frame.write_csv(out / "search.csv")
    (out / "search.json").write_text(
        json.dumps(
            {
                "objective": objective,
                "maximize": result.maximize,
                "best": result.best.point if result.best else None,
                "best_value": result.best.value if result.best else None,
                "evaluations": len(rows),
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    paths = {"table": out / "search.parquet"}
    done = [r for r in rows if r["objective"] is not None]
    if len(axes) == 1:
        xs = sorted(done, key=lambda r: r[axes[0].key])
        paths["surface"] = plotting.line_chart(
            {objective: ([r[axes[0].key] for r in xs], [r["objective"] for r in xs])},
            out / "surface",
            xlabel=axes[0].key,
            ylabel=objective,
            title="objective over the search",
        )[0]
    elif done:
        fig, axis = plotting.figure()
        points = axis.scatter(
            [r[axes[0].key] for r in done], [r[axes[1].key] for r in done], c=[r["objective"] for r in done], cmap="viridis", s=60
        )
        fig.colorbar(points, ax=axis, label=objective)
        if result.best is not None:
            axis.scatter(
                [result.best.point[axes[0].key]],
                [result.best.point[axes[1].key]],
                marker="*",
                s=300,
                facecolors="none",
                edgecolors="red",
                label="best",
            )
            axis.legend()
        axis.set_xlabel(axes[0].key)
        axis.set_ylabel(axes[1].key)
        axis.set_title("objective surface (every point evaluated)")
        paths["surface"] = plotting.save(fig, out / "surface")[0]
    return paths
