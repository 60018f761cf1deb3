"""The ECC lab from Python: frame-error-rate curves (seed 002 Fig. 3 and Fig. 10), raw bit error
rates of the NAND channel, and the decoder benchmark. Each call crosses into Rust once.

>>> from ssdlab import ecc
>>> result = ecc.curve("quick")                       # doctest: +SKIP
>>> result.summary_rows()                             # doctest: +SKIP
>>> result.write("out/ecc")                           # table (JSON + Parquet) and figures  # doctest: +SKIP
"""

from __future__ import annotations

import functools
import json
import math
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ssdlab import _native

DEFAULT_SPEC = "seed002-fig3"


def shipped_spec_names() -> list[str]:
    return [name for name, _ in _native.ecc_shipped_specs()]


def default_cache_dir() -> Path:
    """Where curve tables are cached: $SSDLAB_CACHE_DIR/ecc, else $XDG_CACHE_HOME/ssdlab/ecc, else ~/.cache/ssdlab/ecc."""
    if os.environ.get("SSDLAB_CACHE_DIR"):
        return Path(os.environ["SSDLAB_CACHE_DIR"]) / "ecc"
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ssdlab" / "ecc"


def _spec_text(spec: str | Path) -> tuple[str, str]:
    """(TOML text, origin) of a shipped spec name or a spec file."""
    shipped = dict(_native.ecc_shipped_specs())
    if isinstance(spec, str) and spec in shipped:
        return shipped[spec], f"<shipped spec {spec}>"
    path = Path(spec).expanduser()
    if not path.exists():
        raise _native.ConfigurationError(f"{spec}: no such spec file and no shipped spec of that name; shipped specs: {', '.join(shipped)}")
    return path.read_text(encoding="utf-8"), str(path)


def load_spec(spec: str | Path = DEFAULT_SPEC, overrides: Iterable[str] = ()) -> dict[str, Any]:
    """The validated spec with every default filled in."""
    text, origin = _spec_text(spec)
    return json.loads(_native.ecc_curve_spec(text, origin, [str(o) for o in overrides]))


@dataclass(frozen=True)
class CurveResult:
    """A frame-error-rate table: ``points`` (one row per simulated point), ``summaries`` (per
    decoder: tolerable RBER and how it was obtained), ``spec``, ``codes``, ``key``."""

    table: dict[str, Any]
    from_cache: bool

    @property
    def points(self) -> list[dict[str, Any]]:
        return self.table["points"]

    @property
    def summaries(self) -> list[dict[str, Any]]:
        return self.table["summaries"]

    def summary(self, label: str) -> dict[str, Any]:
        for row in self.summaries:
            if row["label"] == label:
                return row
        raise KeyError(label)

    def point_rows(self) -> list[dict[str, Any]]:
        """Flat rows (one per point) for data frames and Parquet."""
        rows = []
        for p in self.points:
            rows.append(
                {
                    "decoder": p["label"],
                    "target_rber": p["target_rber"],
                    "rber": p["rber"],
                    "measured_rber": p["measured_rber"],
                    "pe_cycles": p["pe_cycles"],
                    "retention_hours": p["retention_hours"],
                    "page": p["page"],
                    "chip": p["chip"],
                    "frames": p["frames"],
                    "failures": p["failures"],
                    "frame_error_rate": p["frame_error_rate"],
                    "ci95_low": p["ci95_low"],
                    "ci95_high": p["ci95_high"],
                    "mean_iterations": p["mean_iterations"],
                    "exact_frame_error_rate": p.get("exact_frame_error_rate"),
                    "table_key": self.table["key"],
                    "table_version": self.table["version"],
                }
            )
        return rows

    def summary_rows(self) -> list[dict[str, Any]]:
        bch = self.summary("bch") if any(s["label"] == "bch" for s in self.summaries) else None

        def rber_of(summary: dict[str, Any] | None, key: str) -> float | None:
            estimate = summary and summary.get(key)
            return estimate["rber"] if estimate else None

        rows = []
        for s in self.summaries:
            comparison = rber_of(s, "tolerable_rber_at_comparison")
            target = rber_of(s, "tolerable_rber_at_target")
            bch_comparison = rber_of(bch, "tolerable_rber_at_comparison")
            rows.append(
                {
                    "decoder": s["label"],
                    "lowest_measured_fer": s["lowest_measured_frame_error_rate"],
                    "rber_at_comparison_fer": comparison,
                    "vs_bch": comparison / bch_comparison if comparison and bch_comparison else None,
                    "comparison_method": (s.get("tolerable_rber_at_comparison") or {}).get("method"),
                    "rber_at_target_fer": target,
                    "target_method": (s.get("tolerable_rber_at_target") or {}).get("method"),
                }
            )
        return rows

    def write(self, directory: str | Path) -> dict[str, Path]:
        """Writes the table (JSON, and Parquet of the points) and the two figures (PNG and SVG)."""
        from ssdlab import ecc_plots

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths: dict[str, Path] = {}
        paths["table"] = out / "ecc_table.json"
        paths["table"].write_text(json.dumps(self.table, indent=2) + "\n", encoding="utf-8")
        import polars as pl

        paths["points"] = out / "ecc_points.parquet"
        pl.DataFrame(self.point_rows()).write_parquet(paths["points"])
        paths.update(ecc_plots.write_figures(self.table, out))
        return paths


def curve(
    spec: str | Path = DEFAULT_SPEC,
    *,
    overrides: Iterable[str] = (),
    cache_dir: str | Path | None = "default",
    progress: Callable[[int, int], object] | None = None,
) -> CurveResult:
    """Runs a curve spec (a shipped name such as ``"seed002-fig3"`` or ``"quick"``, or a TOML file),
    reusing a cached table with the same key. ``cache_dir=None`` disables the cache."""
    text, origin = _spec_text(spec)
    directory = default_cache_dir() if cache_dir == "default" else cache_dir
    raw = _native.ecc_curve(text, origin, [str(o) for o in overrides], None if directory is None else str(directory), progress)
    data = json.loads(raw)
    return CurveResult(table=data["table"], from_cache=bool(data["from_cache"]))


def rber(**grid: Any) -> list[dict[str, Any]]:
    """Raw bit error rate of every page over a grid of stresses: keyword arguments ``cell``,
    ``pe_cycles``, ``retention_hours``, ``chips``, ``storage_temperature_c``, ``channel``."""
    return json.loads(_native.ecc_rber(json.dumps(grid)))


def decoding_table(progress: Callable[[int, int], object] | None = None, **spec: Any) -> dict[str, Any]:
    """Decoding-failure probabilities per chip and sensing precision at one stress: keyword arguments
    ``cell``, ``pe_cycles``, ``retention_hours``, ``storage_temperature_c``, ``max_extra_levels``,
    ``frames_per_case``, ``seed``, ``channel``, ``interleave_groups``, ``block_factors``, ``part_block_classes``
    (``independent`` or ``shared``). The result's ``config_toml`` is the
    ``[read_path.decoding]`` table of a simulation config. ``progress(done, total)`` is called with
    the total first, then after each (row, sensing precision) case."""
    return json.loads(_native.ecc_decoding_table(json.dumps(spec), progress))


def decoding_tables(
    pe_cycles: list[float],
    progress: Callable[[int, int, float], object] | None = None,
    case_progress: Callable[[int, int, int], object] | None = None,
    **spec: Any,
) -> dict[str, Any]:
    """:func:`decoding_table` at each P/E count (ascending), and the ``[read_path.decoding]`` TOML of a
    wear-dependent read path (``pe_cycles`` with ``failure_probabilities_by_pe``).
    ``progress(done, total, pe_cycles)`` is called before each table (``done`` tables finished) and
    once after the last; ``case_progress(table, done, total)`` inside each table (its cases)."""
    if not pe_cycles:
        raise ValueError("decoding_tables: give at least one P/E count")
    counts = sorted(float(p) for p in pe_cycles)
    tables = []
    for index, count in enumerate(counts):
        if progress is not None:
            progress(index, len(counts), count)
        listener = None if case_progress is None else functools.partial(case_progress, index)
        tables.append(decoding_table(progress=listener, pe_cycles=count, **spec))
    if progress is not None:
        progress(len(counts), len(counts), counts[-1])
    if len(tables) == 1:
        return {"pe_cycles": counts, "tables": tables, "config_toml": tables[0]["config_toml"]}
    lines = [line for line in tables[0]["config_toml"].splitlines() if line.startswith("# ")]
    lines[0:1] = [lines[0].replace(f"{counts[0]:g} P/E", "P/E " + ", ".join(f"{p:g}" for p in counts)) if lines else ""]
    lines += ["[read_path.decoding]", f"pe_cycles = [{', '.join(f'{p:g}' for p in counts)}]", "failure_probabilities_by_pe = ["]
    for count, table in zip(counts, tables):
        lines.append(f"    [  # {count:g} P/E")
        lines += [f"        [{', '.join(f'{p:.4f}' for p in row)}]," for row in table["failure_probabilities"]]
        lines.append("    ],")
    lines.append("]")
    lines += [line for line in tables[0]["config_toml"].splitlines() if line.startswith(("chip_rows", "block_classes", "codeword_parts"))]
    return {"pe_cycles": counts, "tables": tables, "config_toml": "\n".join(lines) + "\n"}


def decoder_tables(progress: Callable[[int, int], object] | None = None, **spec: Any) -> dict[str, Any]:
    """Failure probability of each decoder (``decoders``: ``bch``, ``ldpc-hard``, ``quick-ldpc``,
    ``ep-ldpc``, ``ldpc-soft-K``) on a grid of ``pe_cycles`` x ``retention_hours``, per chip, and each
    decoder's tolerable P/E at each retention (seed 000 Fig. 5). Other keywords: ``cell``,
    ``storage_temperature_c``, ``frames_per_case``, ``target_failures``,
    ``target_failure_probability``, ``seed``, ``channel``, ``chip`` (``seed002`` or ``seed000``: whose
    measured chip the default channel is calibrated to). The result's ``config_toml`` is the
    ``[read_path.decoder_tables]`` table of a simulation config."""
    return json.loads(_native.ecc_decoder_tables(json.dumps(spec), progress))


def bench(**settings: Any) -> dict[str, Any]:
    """Decoder throughput (Mbit/s on one core and all cores) and Monte Carlo frames per second."""
    return json.loads(_native.ecc_bench(json.dumps(settings)))


# ---- Progress and estimates of the lab's long calls (issue 48: every long command tells its total and
# the time left: a bar on a terminal, a line per phase in a log).

# The Monte Carlo hands frames to threads this many at a time; a timing run of fewer would leave
# threads idle and overstate the time per frame.
FRAMES_PER_CHUNK = 16
# Below this many frames (about half a minute on 2 cores) a curve needs no timing run for its estimate.
CURVE_TIMING_THRESHOLD_FRAMES = 50_000
# Below this many frames per case a decoding table is over in seconds: no timing run.
DECODING_TIMING_THRESHOLD_FRAMES = 320


def format_duration(seconds: float) -> str:
    """``45 s``, ``7 min``, ``1 h 10 min``."""
    seconds = max(0.0, seconds)
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"{hours} h {minutes} min"


def _threads() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


@dataclass(frozen=True)
class CurvePlan:
    """The size of a curve spec, known before it runs: every decoder gets its RBER grid and its
    refinements (``points``, the total the run reports against), each point up to ``max_frames``
    frames or ``target_failures`` failures."""

    decoders: tuple[str, ...]
    rbers: int
    refinements: int
    max_frames: int
    target_failures: int
    clean_points_before_stop: int
    comparison_frame_error_rate: float

    @property
    def points_per_decoder(self) -> int:
        return self.rbers + self.refinements

    @property
    def points(self) -> int:
        return len(self.decoders) * self.points_per_decoder

    @property
    def frame_budget(self) -> int:
        """Frames if every point ran to ``max_frames``: the most the spec can cost."""
        return self.points * self.max_frames

    @property
    def expected_frames(self) -> int:
        """About how many frames the run simulates. A point above a decoder's waterfall stops after
        ``target_failures`` failures in a few hundred frames; the ones that run long are the clean
        points before the grid stops, the point in the waterfall, and each refinement at the
        comparison rate (``target_failures / comparison rate`` frames, at most ``max_frames``). On
        seed002-fig3 this gives 700,000 frames against the 666,352 simulated (issue 48)."""
        refinement = min(self.max_frames, math.ceil(self.target_failures / self.comparison_frame_error_rate))
        long_points = min(self.rbers, max(1, self.clean_points_before_stop) + 1)
        per_decoder = long_points * self.max_frames + self.refinements * refinement
        return len(self.decoders) * min(per_decoder, self.points_per_decoder * self.max_frames)

    def decoder_of(self, done: int) -> str:
        """The decoder whose points the run reports at ``done`` points finished (decoders run in turn)."""
        index = max(0, done - 1) // max(1, self.points_per_decoder)
        return self.decoders[min(index, len(self.decoders) - 1)]

    def describe(self) -> str:
        return (
            f"{self.points:,} points ({len(self.decoders)} decoder{'s' if len(self.decoders) > 1 else ''} x "
            f"({self.rbers} RBERs + {self.refinements} refinements)), "
            f"each up to {self.max_frames:,} frames or {self.target_failures} failures: "
            f"about {self.expected_frames:,} frames, at most {self.frame_budget:,}"
        )


def curve_plan(spec: str | Path = DEFAULT_SPEC, overrides: Iterable[str] = ()) -> CurvePlan:
    """The size of a curve spec (validated, so a bad spec is refused before anything runs)."""
    resolved = load_spec(spec, overrides)
    return CurvePlan(
        decoders=tuple(resolved["decoders"]),
        rbers=len(resolved["rbers"]),
        refinements=int(resolved["refinements"]),
        max_frames=int(resolved["max_frames"]),
        target_failures=int(resolved["target_failures"]),
        clean_points_before_stop=int(resolved["clean_points_before_stop"]),
        comparison_frame_error_rate=float(resolved["comparison_frame_error_rate"]),
    )


def curve_is_cached(spec: str | Path, overrides: Iterable[str], cache_dir: str | Path | None) -> bool:
    """Whether ``cache_dir`` holds a table of this spec (its key is made in Rust; a table whose spec
    matches field for field is taken as the one the run will reuse)."""
    directory = default_cache_dir() if cache_dir == "default" else cache_dir
    if directory is None or not Path(directory).is_dir():
        return False
    wanted = load_spec(spec, overrides)
    for path in Path(directory).glob("*.json"):
        try:
            stored = json.loads(path.read_text(encoding="utf-8")).get("spec", {})
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(stored, dict) and all(stored.get(k) == v for k, v in wanted.items() if not (k == "channel" and v is None)):
            return True
    return False


def time_curve_frames(spec: str | Path = DEFAULT_SPEC, overrides: Iterable[str] = (), frames: int | None = None) -> dict[str, float]:
    """Seconds per frame of each decoder of the spec on this machine now, from a short uncached run
    at the spec's lowest RBER (where points run longest): ``frames`` per decoder (default 16 per
    thread). The first decoder's time holds the run's set-up, so it takes the median of the others'."""
    plan = curve_plan(spec, overrides)
    count = frames or FRAMES_PER_CHUNK * _threads()
    lowest = min(load_spec(spec, overrides)["rbers"])
    marks = [time.perf_counter()]
    timing = [
        *overrides,
        f"rbers=[{lowest!r}]",
        "refinements=0",
        f"max_frames={count}",
        f"target_failures={count + 1}",
    ]
    curve(spec, overrides=timing, cache_dir=None, progress=lambda done, total: marks.append(time.perf_counter()))
    spans = [(b - a) / count for a, b in zip(marks, marks[1:])]
    rates = dict(zip(plan.decoders, spans))
    if len(spans) > 1:
        others = sorted(spans[1:])
        rates[plan.decoders[0]] = others[len(others) // 2]
    return rates


def curve_estimate(plan: CurvePlan, seconds_per_frame: dict[str, float]) -> tuple[float, float]:
    """(about, at most) seconds of a curve: its expected frames and its frame budget at each
    decoder's measured time per frame."""
    mean = sum(seconds_per_frame.get(d, 0.0) for d in plan.decoders) / max(1, len(plan.decoders))
    return plan.expected_frames * mean, plan.frame_budget * mean


def time_decoding_table(frames: int | None = None, **spec: Any) -> float:
    """Seconds per frame (of ``frames_per_case``) of :func:`decoding_table` with ``spec`` on this
    machine now, from a run of ``frames`` frames per case (default 16 per thread). Every case runs
    all its frames (no early stop), so the time grows in proportion to ``frames_per_case``."""
    count = frames or FRAMES_PER_CHUNK * _threads()
    started = time.perf_counter()
    decoding_table(**{**spec, "frames_per_case": count})
    return (time.perf_counter() - started) / count


class LabProgress:
    """Shows a long ECC lab call: on a terminal a bar with its total, the time elapsed and the time
    left; otherwise (a log, a pipe) a line per phase on ``stream``; nothing when ``quiet``. Lines
    come at each phase's end and at most every ``every_seconds`` between."""

    def __init__(
        self,
        unit: str,
        *,
        console: Any = None,
        interactive: bool = False,
        quiet: bool = False,
        stream: TextIO | None = None,
        every_seconds: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.unit = unit
        self.mode = "off" if quiet else "bar" if interactive else "lines"
        self.console = console
        self.stream = stream
        self.every_seconds = every_seconds
        self.clock = clock
        self.started = clock()
        self.total: int | None = None
        self.expected_seconds: float | None = None
        self.last_line = -math.inf
        self.last_done = 0
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> LabProgress:
        if self.mode == "bar":
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                TextColumn("{task.fields[count]}"),
                TimeElapsedColumn(),
                TextColumn("{task.fields[left]}"),
                console=self.console,
                transient=True,
            )
            self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    def _write(self, text: str) -> None:
        import sys

        print(text, file=self.stream or sys.stderr, flush=True)

    def say(self, text: str) -> None:
        """A line about the whole run (its size, its estimate), above the bar or in the log."""
        if self.mode == "bar":
            self._bar.console.print(text, highlight=False, markup=False)
        elif self.mode == "lines":
            self._write(text)

    def start(self, total: int | None, *, description: str = "", expected_seconds: float | None = None) -> None:
        """Counting starts: ``total`` units (None: known at the first update), ``expected_seconds``
        from a timing run if one was made."""
        self.started = self.clock()
        self.total = total
        self.expected_seconds = expected_seconds
        self.last_line = self.started
        if self._bar is not None:
            self._task = self._bar.add_task(description or self.unit, total=total, count=self._count(0), left=self._left_text(0))

    def _count(self, done: int) -> str:
        return f"{done:,}/{self.total:,} {self.unit}s" if self.total else f"{done:,} {self.unit}s"

    def remaining(self, done: int) -> float | None:
        """Seconds left: the pace so far over the units left, leaning on the timing run's estimate
        while little is done."""
        elapsed = self.clock() - self.started
        if not self.total:
            return None
        fraction = min(1.0, done / self.total)
        observed = elapsed * (1 - fraction) / fraction if fraction > 0 else None
        prior = max(0.0, self.expected_seconds - elapsed) if self.expected_seconds is not None else None
        if observed is None or prior is None:
            return observed if prior is None else prior
        return (1 - fraction) * prior + fraction * observed

    def _left_text(self, done: int) -> str:
        if self.total and done >= self.total:
            return ""
        left = self.remaining(done)
        return "time left: after the first " + self.unit if left is None else f"~{format_duration(left)} left"

    def update(self, done: int, total: int | None = None, *, label: str = "", phase_end: bool = False) -> None:
        """``done`` units finished (of ``total``, if it was not known); ``label`` names the current
        phase; a line is written at a phase's end, at the last unit, or after ``every_seconds``."""
        if total:
            self.total = total
        now = self.clock()
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, total=self.total, count=self._count(done), left=self._left_text(done))
        elif self.mode == "lines":
            finished = bool(self.total) and done >= self.total
            if phase_end or finished or now - self.last_line >= self.every_seconds:
                self.last_line = now
                counted = f"{done:,}/{self.total:,}" if self.total else f"{done:,}"
                text = f"{self.unit} {counted} done" + (f" ({label})" if label else "") + f", {format_duration(now - self.started)} elapsed"
                if not finished:
                    left = self.remaining(done)
                    text += f", ~{format_duration(left)} left" if left is not None else ""
                self._write(text)
        self.last_done = done


def curve_with_progress(
    spec: str | Path, progress: LabProgress, *, overrides: Iterable[str] = (), cache_dir: str | Path | None = "default"
) -> CurveResult:
    """:func:`curve` showing its size and an estimate before it runs (a timing run of a few frames
    when the spec is large and not cached), then each point on ``progress``."""
    overrides = list(overrides)
    plan = curve_plan(spec, overrides)
    expected = None
    if curve_is_cached(spec, overrides, cache_dir):
        progress.say(f"ecc curve {spec}: {plan.points:,} points, table in the cache")
    elif progress.mode != "off" and plan.frame_budget > CURVE_TIMING_THRESHOLD_FRAMES:
        rates = time_curve_frames(spec, overrides)
        expected, most = curve_estimate(plan, rates)
        per_frame = sum(rates.values()) / len(rates)
        progress.say(
            f"ecc curve {spec}: {plan.describe()}; at {per_frame * 1e3:.2f} ms per frame (measured now): "
            f"about {format_duration(expected)}, at most {format_duration(most)}"
        )
    else:
        progress.say(f"ecc curve {spec}: {plan.describe()}")
    progress.start(plan.points, description="ECC curve", expected_seconds=expected)

    def report(done: int, total: int) -> None:
        # Decoders run in turn, each over its points: a line as each decoder's points end.
        ended = done // plan.points_per_decoder > progress.last_done // plan.points_per_decoder
        progress.update(done, total, label=plan.decoder_of(done), phase_end=ended)

    return curve(spec, overrides=overrides, cache_dir=cache_dir, progress=report)


def decoding_tables_with_progress(pe_cycles: list[float], progress: LabProgress, **spec: Any) -> dict[str, Any]:
    """:func:`decoding_tables` showing its size first (with an estimate from a timing run of a few
    frames per case when it is large), then every (row, sensing precision) case of every table on
    ``progress``, a line as each table ends."""
    counts = sorted(float(p) for p in pe_cycles)
    frames = int(spec.get("frames_per_case", 2000))
    per_table = None
    if progress.mode != "off" and frames >= DECODING_TIMING_THRESHOLD_FRAMES:
        timing_frames = min(frames, FRAMES_PER_CHUNK * _threads())
        per_table = time_decoding_table(timing_frames, pe_cycles=counts[0], **spec) * frames
    estimate = f", about {format_duration(per_table * len(counts))} (timed now)" if per_table is not None else ""
    listed = ", ".join(f"{p:g}" for p in counts)
    progress.say(
        f"ecc decoding-table: {len(counts)} table{'s' if len(counts) > 1 else ''} (P/E {listed}), {frames:,} frames per case{estimate}"
    )
    progress.start(None, description="decoding tables", expected_seconds=per_table * len(counts) if per_table else None)

    def report(table: int, done: int, total: int) -> None:
        # Every table has the same cases (rows x sensing precisions): the run's total is known at
        # the first table's first call.
        overall = total * len(counts)
        label = f"table {table + 1}/{len(counts)}, {counts[table]:g} P/E"
        progress.update(table * total + done, overall, label=label, phase_end=done == total)

    return decoding_tables(counts, case_progress=report, **spec)


def decoder_tables_with_progress(progress: LabProgress, **spec: Any) -> dict[str, Any]:
    """:func:`decoder_tables` showing its rows (decoder x chip x P/E, each over the retention grid
    and page types) on ``progress``: the total comes with the first row, a line as each decoder's
    rows end."""
    chosen = spec.get("decoders") or ["bch", "quick-ldpc", "ep-ldpc", "ldpc-soft-6"]  # the lab's default decoders
    progress.start(None, description="decoder tables")

    def report(done: int, total: int) -> None:
        labelled = total % len(chosen) == 0
        rows = total // len(chosen) if labelled else total
        if progress.last_done == 0:
            progress.say(
                f"ecc decoder-tables: {total:,} rows ({len(chosen)} decoders x chips x P/E), each over the retention grid and "
                f"page types, up to {spec.get('frames_per_case', 400):,} frames per case (a case stops at {spec.get('target_failures', 40)} failures)"
            )
        ended = done == 1 or done // rows > progress.last_done // rows
        progress.update(done, total, label=chosen[(done - 1) // rows] if labelled else "", phase_end=ended)

    return decoder_tables(progress=report, **spec)
