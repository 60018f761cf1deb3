"""Sweeps: a base config plus a grid of overrides, run point by point in local processes or on a Dask
cluster, each point stored (Parquet, one row) as soon as it finishes.

A sweep file (TOML)::

    name = "gc-policies"
    base = "seed003-scrambler"          # preset name, or a path relative to this file
    set = ["host.loops=2"]              # overrides applied to every point
    [grid]                              # one axis per key; every combination is a point
    "ftl.footprint_free_fraction" = [0.2, 0.4]
    "middleware.kind" = ["none", "lba_scrambler"]
    [cases.workload]                    # an axis whose values are named groups of overrides
    financial1 = ["workload.trace.path='...'", "host.tiles=16"]
    synthetic = []

A point is identified by the SHA-256 of its fully resolved config (defaults filled in, as TOML), of
the simulator build (the native library's bytes) and of the contents of the files it reads (its trace:
an edited trace is a new point even at the same path), so a rerun with the same file, the same inputs
and the same build skips every point already stored, while a changed base, override, input or
simulator is a new point. A point that fails is stored with its error and retried on the next run; it
never stops the others. Results: ``OUT/points/<hash>.parquet`` (one row each, written when the point
finishes) and ``OUT/results.parquet`` + ``OUT/results.json`` (all rows) at the end.

A stored point is trusted by content, not by its file name: its row carries its config hash and a
digest of the whole row, and a file whose row is damaged, or that holds another point's row (a file
copied over another's name), is run again.

Interrupted (Ctrl-C), a sweep keeps every point finished so far (each is stored as it finishes, and
one that finished while the interrupt arrived is stored before it propagates), stops its workers at
once and raises KeyboardInterrupt. Workers ignore Ctrl-C themselves (the parent stops them, so they
print no tracebacks) and exit when their parent is gone, so a sweep killed outright leaves no worker,
and with the workers gone no resource tracker, behind.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import signal
import threading
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssdlab import _native

SWEEP_FORMAT_VERSION = 1

# The config key naming the trace a point reads (hashed by content into the point's identity).
_TRACE_PATH_KEY = ("workload", "trace", "path")


@functools.cache
def simulator_build() -> str:
    """A digest of the native library: results from another build are not reused."""
    digest = hashlib.sha256()
    with open(_native.__file__, "rb") as library:
        for block in iter(lambda: library.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


class SweepError(ValueError):
    """A malformed sweep file or an unusable output folder."""


# The schemes of Dask's communication layer a scheduler address may name (distributed.comm).
_SCHEDULER_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")


def check_scheduler(address: str | None) -> None:
    """Refuses, before any work, a ``--scheduler`` that is no Dask scheduler address: ``[SCHEME://]HOST:PORT``
    with SCHEME one of Dask's (tcp by default) and PORT in 1-65535 (``inproc://NAME`` has no port)."""
    if address is None:
        return
    expected = (
        f"expected a Dask scheduler address such as tcp://host:8786 ([SCHEME://]HOST:PORT, SCHEME one of {', '.join(_SCHEDULER_SCHEMES)})"
    )
    scheme, separator, rest = address.strip().partition("://")
    if not separator:
        scheme, rest = "tcp", address.strip()
    if scheme not in _SCHEDULER_SCHEMES:
        raise SweepError(f"--scheduler {address!r}: unknown scheme {scheme!r}; {expected}")
    if scheme == "inproc":
        if not rest:
            raise SweepError(f"--scheduler {address!r}: no address after inproc://; {expected}")
        return
    # An IPv6 host is bracketed ([::1]:8786); the port follows the last colon.
    host, colon, port = rest.rpartition(":")
    if not colon or not host or host in ("[]",) or "/" in host or " " in rest:
        raise SweepError(f"--scheduler {address!r}: no HOST:PORT; {expected}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise SweepError(f"--scheduler {address!r}: port {port!r} is not a number in 1-65535; {expected}")


@dataclass(frozen=True)
class Point:
    """One configuration of a sweep: its axis labels and the overrides that make it."""

    labels: tuple[tuple[str, str], ...]
    overrides: tuple[str, ...]
    config_text: str
    config_hash: str
    # The SHA-256 of each input file's contents, by the config key that names it.
    input_digests: tuple[tuple[str, str], ...] = ()

    def label_dict(self) -> dict[str, str]:
        return dict(self.labels)


@dataclass
class Sweep:
    name: str
    base: str
    common: list[str] = field(default_factory=list)
    grid: dict[str, list[Any]] = field(default_factory=dict)
    cases: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    origin: str = "<sweep>"

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_file(cls, path: str | Path) -> Sweep:
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SweepError(f"{path}: no such sweep file") from None
        except tomllib.TOMLDecodeError as error:
            raise SweepError(f"{path}: {error}") from None
        except UnicodeDecodeError as error:
            raise SweepError(f"{path}: not UTF-8 text (byte {error.start}): a sweep file is TOML") from None
        except IsADirectoryError:
            raise SweepError(f"{path}: is a folder, not a sweep file") from None
        return cls.from_dict(data, origin=str(path), relative_to=path.parent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, origin: str = "<sweep>", relative_to: Path | None = None) -> Sweep:
        known = {"name", "base", "set", "grid", "cases"}
        for key in data:
            if key not in known:
                raise SweepError(f"{origin}: field `{key}`: unknown (expected one of {', '.join(sorted(known))})")
        base = data.get("base")
        if not isinstance(base, str) or not base:
            raise SweepError(f"{origin}: field `base`: give a preset name or a config file path")
        if relative_to is not None and (base.endswith(".toml") or "/" in base):
            candidate = (relative_to / base).resolve()
            base = str(candidate)
            if not candidate.exists():
                raise SweepError(f"{origin}: field `base`: {candidate} does not exist")
        common = data.get("set", [])
        if not isinstance(common, list) or not all(isinstance(item, str) for item in common):
            raise SweepError(f'{origin}: field `set`: must be a list of "key=value" strings')
        grid = data.get("grid", {})
        if not isinstance(grid, dict):
            raise SweepError(f"{origin}: field `grid`: must be a table of key = [values]")
        for key, values in grid.items():
            if not isinstance(values, list) or not values:
                raise SweepError(f"{origin}: field `grid.{key}`: must be a non-empty list of values")
        cases = data.get("cases", {})
        if not isinstance(cases, dict):
            raise SweepError(f"{origin}: field `cases`: must be a table of axes, each a table of name = [overrides]")
        for axis, named in cases.items():
            if not isinstance(named, dict) or not named:
                raise SweepError(f'{origin}: field `cases.{axis}`: must be a non-empty table of name = ["key=value", ...]')
            for case, overrides in named.items():
                if not isinstance(overrides, list) or not all(isinstance(item, str) for item in overrides):
                    raise SweepError(f'{origin}: field `cases.{axis}.{case}`: must be a list of "key=value" strings')
        name = data.get("name", Path(origin).stem if origin != "<sweep>" else "sweep")
        return cls(
            name=str(name), base=base, common=list(common), grid=dict(grid), cases={a: dict(c) for a, c in cases.items()}, origin=origin
        )

    # -- expansion ----------------------------------------------------------------------------
    def points(self) -> list[Point]:
        """Every combination of the axes, each validated and hashed (a bad override fails here, before
        anything runs, naming the point)."""
        case_axes = [[(axis, name, tuple(overrides)) for name, overrides in named.items()] for axis, named in self.cases.items()]
        grid_axes = [[(key, value) for value in values] for key, values in self.grid.items()]
        digests: dict[str, str] = {}
        points = []
        for case_choice in itertools.product(*case_axes) if case_axes else [()]:
            for grid_choice in itertools.product(*grid_axes) if grid_axes else [()]:
                labels = tuple((axis, name) for axis, name, _ in case_choice) + tuple((key, _label(value)) for key, value in grid_choice)
                overrides = (
                    tuple(self.common)
                    + tuple(item for _, _, group in case_choice for item in group)
                    + tuple(f"{key}={_toml_value(value)}" for key, value in grid_choice)
                )
                try:
                    text = _native.load_config(self.base, list(overrides))
                except _native.SsdlabError as error:
                    where = ", ".join(f"{k}={v}" for k, v in labels) or "the base config"
                    raise type(error)(f"{self.origin}: point {where}: {error}") from None
                inputs = _input_digests(text, digests)
                identity = simulator_build() + "\n" + text + "".join(f"\ninput {key} sha256={digest}" for key, digest in inputs)
                digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
                points.append(Point(labels=labels, overrides=overrides, config_text=text, config_hash=digest, input_digests=inputs))
        hashes = [p.config_hash for p in points]
        if len(set(hashes)) != len(hashes):
            raise SweepError(f"{self.origin}: two points resolve to the same config; an axis has no effect")
        return points


def _input_digests(config_text: str, known: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The SHA-256 of the contents of each file a resolved config reads (its trace), by config key;
    ``known`` keeps the digests of the files already read in this expansion (one read per file)."""
    table: Any = tomllib.loads(config_text)
    for part in _TRACE_PATH_KEY:
        table = table.get(part) if isinstance(table, dict) else None
    if not isinstance(table, str):
        return ()
    path = str(Path(table).expanduser().resolve())
    if path not in known:
        try:
            with open(path, "rb") as file:
                known[path] = hashlib.file_digest(file, "sha256").hexdigest()
        except OSError as error:
            # The run reports the unreadable trace with its own message; the point stays distinct.
            known[path] = f"unreadable ({error.strerror or error})"
    return ((".".join(_TRACE_PATH_KEY), known[path]),)


def _label(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    raise SweepError(f"grid values must be numbers, booleans or strings, got {value!r}")


# -- running ----------------------------------------------------------------------------------


def run_point(config_text: str, origin: str) -> dict[str, Any]:
    """Runs one point in this process; never raises for a simulation failure (it is returned)."""
    started = time.perf_counter()
    try:
        text = _native.run(config_text, [], None, True, origin)
        return {"status": "ok", "error": None, "result": json.loads(text), "seconds": time.perf_counter() - started}
    except Exception as error:
        return {"status": "failed", "error": f"{type(error).__name__}: {error}", "result": None, "seconds": time.perf_counter() - started}


def point_row(sweep_name: str, point: Point, outcome: Mapping[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {
        "sweep": sweep_name,
        "config_hash": point.config_hash,
        "simulator_build": simulator_build(),
        "ssdlab_version": _native.__version__,
    }
    for key, value in point.labels:
        row[f"point.{key}"] = value
    row["status"] = outcome["status"]
    row["error"] = outcome["error"]
    row["point_seconds"] = float(outcome["seconds"])
    row["config_toml"] = point.config_text
    row["overrides"] = json.dumps(list(point.overrides))
    row["input_digests"] = json.dumps(dict(point.input_digests))
    if outcome["result"] is not None:
        from ssdlab.api import result_columns

        row.update(result_columns(outcome["result"]))
        row["result_json"] = json.dumps(outcome["result"])
    else:
        row["result_json"] = None
    row["row_digest"] = _row_digest(row)
    return row


def _row_digest(row: Mapping[str, Any]) -> str:
    """The SHA-256 of a row's values (all but this digest), as they read back from Parquet."""
    values = {key: value for key, value in row.items() if key != "row_digest"}
    return hashlib.sha256(json.dumps(values, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def _trusted_row(stored: Mapping[str, Any] | None, point: Point) -> bool:
    """Whether a stored row is this point's, whole: the row's own digest matches its values, and its
    config hash and config are the point's (a row copied under another point's name is not)."""
    return (
        stored is not None
        and stored.get("row_digest") == _row_digest(stored)
        and stored.get("config_hash") == point.config_hash
        and stored.get("config_toml") == point.config_text
    )


def _write_row(path: Path, row: Mapping[str, Any]) -> None:
    import polars as pl

    temporary = path.with_suffix(".parquet.partial")
    pl.DataFrame([dict(row)]).write_parquet(temporary)
    os.replace(temporary, path)  # a point's file is either absent or complete


def _read_row(path: Path) -> dict[str, Any] | None:
    import polars as pl

    try:
        rows = pl.read_parquet(path).to_dicts()
    except Exception:
        return None
    return rows[0] if rows else None


@dataclass
class SweepOutcome:
    out_dir: Path
    rows: list[dict[str, Any]]
    ran: int
    skipped: int
    failed: int
    wall_seconds: float

    def frame(self):
        import polars as pl

        return pl.DataFrame(self.rows) if self.rows else pl.DataFrame()


def run_sweep(
    sweep: Sweep,
    out_dir: str | Path,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[[int, int, Point | None, Mapping[str, Any] | None], object] | None = None,
    points: Sequence[Point] | None = None,
) -> SweepOutcome:
    """Runs every point not already stored in ``out_dir``; returns all rows (stored and new).

    ``scheduler`` is a Dask distributed scheduler address (``tcp://host:8786``); without it the
    points run in ``workers`` local processes (default: the number of CPU cores).
    ``progress(done, total, point, row)`` is called once at the start and after each point.
    """
    from ssdlab import outputs

    started = time.perf_counter()
    check_scheduler(scheduler)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        # 0 or a negative count used to mean one process, silently.
        raise SweepError(f"--workers {workers!r}: give a whole number of local processes, at least 1")
    out = Path(out_dir)
    outputs.check_folder("--out", out)
    point_dir = out / "points"
    point_dir.mkdir(parents=True, exist_ok=True)
    points = list(points) if points is not None else sweep.points()
    (out / "sweep.json").write_text(
        json.dumps(
            {
                "format_version": SWEEP_FORMAT_VERSION,
                "name": sweep.name,
                "base": sweep.base,
                "set": sweep.common,
                "grid": sweep.grid,
                "cases": sweep.cases,
                "points": len(points),
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    rows: dict[str, dict[str, Any]] = {}
    todo: list[Point] = []
    for point in points:
        stored = _read_row(point_dir / f"{point.config_hash}.parquet")
        if _trusted_row(stored, point) and stored is not None and stored.get("status") == "ok":
            rows[point.config_hash] = stored
        else:
            todo.append(point)
    skipped = len(points) - len(todo)
    done = skipped
    if progress:
        progress(done, len(points), None, None)

    # Points whose row could not be stored (a full disk): kept in memory and saved at the end.
    unstored: list[Exception] = []

    def finished(point: Point, outcome: Mapping[str, Any]) -> None:
        nonlocal done
        row = point_row(sweep.name, point, outcome)
        try:
            _write_row(point_dir / f"{point.config_hash}.parquet", row)
        except Exception as error:
            # Parquet's writer raises its own errors for a full disk as well as OSError. The point ran; losing its row to a failed write would lose the simulation. The sweep goes on.
            unstored.append(error)
        rows[point.config_hash] = row
        done += 1
        if progress:
            progress(done, len(points), point, row)

    origin = lambda point: f"{sweep.origin} [{', '.join(f'{k}={v}' for k, v in point.labels)}]"  # noqa: E731
    if todo:
        if scheduler:
            _run_on_dask(scheduler, todo, origin, finished)
        else:
            _run_locally(todo, origin, finished, workers)
    ordered = [rows[p.config_hash] for p in points if p.config_hash in rows]
    outcome = SweepOutcome(
        out_dir=out,
        rows=ordered,
        ran=len(todo),
        skipped=skipped,
        failed=sum(1 for r in ordered if r["status"] != "ok"),
        wall_seconds=time.perf_counter() - started,
    )
    try:
        _write_combined(out, ordered)
    except Exception as error:
        saved = outputs.rescue(_combined_json(ordered), "results.json")
        what = "the combined results" + (f" (nor the rows of {len(unstored)} points in {point_dir})" if unstored else "")
        raise outputs.OutputFailed(outputs.failed_message(out, error, saved, what)) from None
    if unstored:
        reason = getattr(unstored[0], "strerror", None) or unstored[0]
        raise outputs.OutputFailed(
            f"{point_dir}: cannot store the rows of {len(unstored)} points: {reason}; every row is in {out / 'results.parquet'}, "
            "but a rerun runs those points again"
        )
    return outcome


def _run_locally(todo: Sequence[Point], origin, finished, workers: int | None) -> None:
    workers = max(1, workers or os.cpu_count() or 1)
    if workers == 1 or len(todo) == 1:
        for point in todo:
            finished(point, run_point(point.config_text, origin(point)))
        return
    import multiprocessing

    # spawn: a fresh interpreter per worker, so no state of the parent (threads, open files) is forked.
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(todo)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_setup,
        initargs=(os.getpid(),),
    )
    pending = {pool.submit(run_point, point.config_text, origin(point)): point for point in todo}
    try:
        while pending:
            # A bounded wait: a signal delivered to one of the executor's threads only sets Python's
            # flag, which the main thread sees when it wakes (Ctrl-C is handled within this time).
            complete, _ = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in complete:
                point = pending.pop(future)
                try:
                    outcome = future.result()
                except Exception as error:
                    outcome = {
                        "status": "failed",
                        "error": f"worker failed: {type(error).__name__}: {error}",
                        "result": None,
                        "seconds": 0.0,
                    }
                finished(point, outcome)
    except BaseException:
        # Points that finished while the interrupt arrived are kept; the rest stop now.
        for future, point in list(pending.items()):
            if future.done() and not future.cancelled() and future.exception() is None:
                pending.pop(future)
                finished(point, future.result())
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)


def _worker_setup(parent_pid: int) -> None:
    """In each worker: leave Ctrl-C to the parent (which stops the workers), and exit when the parent
    is gone (killed outright, it cannot stop them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="ssdlab-parent-watch", daemon=True).start()


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stops a pool's workers without waiting for their points (the executor itself only waits)."""
    # The executor keeps its processes in a private mapping; there is no public way to stop running work.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)


def _run_on_dask(address: str, todo: Sequence[Point], origin, finished) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError as error:  # pragma: no cover - dask is a declared dependency
        raise SweepError(f"--scheduler needs dask.distributed: {error}") from None
    try:
        client = Client(address, timeout="20s")
    except OSError as error:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    with client:
        futures = {}
        for point in todo:
            # pure=False: a point is an experiment, never deduplicated or cached by Dask.
            futures[client.submit(run_point, point.config_text, origin(point), pure=False, key=f"ssdlab-{point.config_hash}")] = point
        try:
            for future in as_completed(list(futures)):
                point = futures[future]
                try:
                    outcome = future.result()
                except Exception as error:
                    outcome = {
                        "status": "failed",
                        "error": f"dask worker failed: {type(error).__name__}: {error}",
                        "result": None,
                        "seconds": 0.0,
                    }
                finished(point, outcome)
        except BaseException:
            # Interrupted: the cluster's workers stop the points not yet finished.
            client.cancel(list(futures))
            raise


def _write_combined(out: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    import polars as pl

    rows = list(rows)
    if not rows:
        return
    frame = pl.concat([pl.DataFrame([dict(row)]) for row in rows], how="diagonal_relaxed")
    frame.write_parquet(out / "results.parquet")
    (out / "results.json").write_text(_combined_json(rows), encoding="utf-8")


def _combined_json(rows: Iterable[Mapping[str, Any]]) -> str:
    """``results.json``'s text: every row without its config and raw JSON, with its result as an object."""
    slim = [
        {k: v for k, v in row.items() if k not in ("config_toml", "result_json")}
        | {"result": json.loads(row["result_json"]) if row.get("result_json") else None}
        for row in rows
    ]
    return json.dumps(slim, indent=1, default=str) + "\n"


def load_results(out_dir: str | Path):
    """The combined results of a finished sweep as a polars DataFrame."""
    import polars as pl

    return pl.read_parquet(Path(out_dir) / "results.parquet")
