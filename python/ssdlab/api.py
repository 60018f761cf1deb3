"""The Python API for notebooks and scripts: run a simulation, inspect its result, read trace stats."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ssdlab import _native


def _toml_string(text: str) -> str:
    # A JSON string literal is a valid TOML basic string (same escapes for quotes and backslashes).
    return json.dumps(text)


def column_map(
    columns: str,
    *,
    separator: str = ",",
    time_unit: str = "s",
    offset_unit_bytes: int = 1,
    size_unit_bytes: int = 1,
    read_ops: str | None = None,
    write_ops: str | None = None,
    delete_ops: str | None = None,
    header_lines: int = 0,
) -> dict[str, Any]:
    """A column map (``workload.trace.columns``) from ``time=0,op=1,offset=2,size=3`` (``device=N``
    optional); op lists are comma-separated values (``0x28,0x88``). The simulator checks the rest."""
    from ssdlab.usage import UsageError

    layout: dict[str, Any] = {}
    for item in columns.split(","):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in ("time", "op", "offset", "size", "device"):
            raise UsageError(f"--columns {columns!r}: expected NAME=INDEX pairs with NAME one of time, op, offset, size, device")
        try:
            layout[name] = int(value)
        except ValueError:
            raise UsageError(f"--columns {columns!r}: column of {name} must be a 0-based number, got {value!r}") from None
    missing = [name for name in ("time", "op", "offset", "size") if name not in layout]
    if missing:
        raise UsageError(f"--columns {columns!r}: missing {', '.join(missing)}")
    layout.update(
        separator=separator,
        time_unit=time_unit,
        offset_unit_bytes=offset_unit_bytes,
        size_unit_bytes=size_unit_bytes,
        header_lines=header_lines,
    )
    for name, values in (("read_ops", read_ops), ("write_ops", write_ops), ("delete_ops", delete_ops)):
        if values is not None:
            layout[name] = [v.strip() for v in values.split(",") if v.strip()]
    return layout


def column_map_override(columns: str, **options: Any) -> str:
    """The ``workload.trace.columns`` override for :func:`column_map`."""
    layout = column_map(columns, **options)

    def value(item: Any) -> str:
        if isinstance(item, str):
            return _toml_string(item)
        if isinstance(item, list):
            return "[" + ", ".join(value(v) for v in item) + "]"
        return str(item)

    return "workload.trace.columns={ " + ", ".join(f"{key} = {value(item)}" for key, item in layout.items()) + " }"


def _overrides(
    overrides: Iterable[str], trace: str | Path | None, trace_format: str | None, trace_cache: str | Path | None = None
) -> list[str]:
    items = [str(item) for item in overrides]
    if trace is not None:
        path = Path(trace).expanduser().resolve()
        items.append(f"workload.trace.path={_toml_string(str(path))}")
        if trace_format is not None:
            items.append(f"workload.trace.format={_toml_string(trace_format)}")
    if trace_cache is not None:
        items.append(f"workload.trace.cache_dir={_toml_string(str(Path(trace_cache).expanduser().resolve()))}")
    return items


class _AttributeView(Mapping[str, Any]):
    """Read-only attribute and key access over a JSON object."""

    def __init__(self, data: Mapping[str, Any]):
        self._data = data

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._data[name]
        except KeyError:
            raise AttributeError(name) from None
        return _AttributeView(value) if isinstance(value, Mapping) else value

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self._data)!r})"


def result_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    """A result as one row of named columns (``result.read.latency_us.p99``, ...): nested objects
    flattened with dots, lists as JSON text, integers as floats so that every run's row has the same
    column types. Sweep rows use the same columns."""
    columns: dict[str, Any] = {}

    def flatten(prefix: str, value: Any) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                flatten(f"{prefix}.{key}", item)
        elif isinstance(value, list):
            columns[prefix] = json.dumps(value)
        else:
            columns[prefix] = float(value) if isinstance(value, int) and not isinstance(value, bool) else value

    for key, value in result.items():
        flatten(f"result.{key}", value)
    return columns


class RunResult(_AttributeView):
    """The result of one run: ``result.read.latency_us.p99``, ``result["gc"]``, ``result.to_json()``,
    ``result.flat()`` / ``result.to_polars()`` (one row, a sweep row's columns); shown as a summary
    table in a notebook."""

    def to_dict(self) -> dict[str, Any]:
        return json.loads(json.dumps(self._data))

    def flat(self) -> dict[str, Any]:
        """One row: the same ``result.*`` columns as a sweep row."""
        return result_columns(self._data)

    def to_polars(self) -> Any:
        """The run as a one-row polars DataFrame (``flat()``)."""
        import polars as pl

        return pl.DataFrame([self.flat()])

    def time_series_frame(self) -> Any:
        """``result.time_series`` as a polars DataFrame (one row per interval), or None without one."""
        series = self._data.get("time_series")
        if not series:
            # Checked before importing polars: the import alone costs a run without a series 0.2 s.
            return None
        import polars as pl

        columns: dict[str, Any] = {"start_ms": series["start_ms"]}
        for op in ("read", "write"):
            for key, values in series[op].items():
                columns[f"{op}_{key}"] = values
        for key in (
            "gc_invocations",
            "gc_pages_copied",
            "free_blocks",
            "erased_blocks",
            "programs_held",
            "planes_holding_writes",
            "soft_reads",
            "die_utilisation",
            "channel_utilisation",
            "unsaved_bytes",
        ):
            if key in series:
                columns[key] = series[key]
        return pl.DataFrame(columns)

    def write_time_series(self, path: str | Path) -> Path | None:
        """Writes the time series as Parquet (None, and nothing written, without one)."""
        frame = self.time_series_frame()
        if frame is None:
            return None
        from ssdlab import outputs

        path = Path(path)
        # Atomically, onto the end of any symbolic link: a reader never sees half a file.
        partial = outputs.partial_beside(path, ".parquet")
        partial.parent.mkdir(parents=True, exist_ok=True)
        try:
            frame.write_parquet(partial)
            os.replace(partial, outputs.target(path))
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        return path

    def _repr_html_(self) -> str:
        import html

        data = self._data
        rows = []
        for op in ("read", "write", "all"):
            metrics = data.get(op) or {}
            latency = metrics.get("latency_us") or {}
            rows.append(
                f"<tr><td>{op}</td><td>{metrics.get('count', 0):,}</td><td>{metrics.get('iops', 0):,.0f}</td><td>{metrics.get('mbps', 0):,.1f}</td>"
                f"<td>{latency.get('mean', 0):,.1f}</td><td>{latency.get('p99', 0):,.1f}</td><td>{latency.get('max', 0):,.1f}</td></tr>"
            )
        gc = data.get("gc") or {}
        device = data.get("device") or {}
        return (
            f"<div><b>{html.escape(str(data.get('name', 'run')))}</b>: {data.get('requests', 0):,} requests; "
            f"GC {html.escape(str(device.get('gc_policy', '')))}: {gc.get('invocations', 0):,} invocations, {gc.get('pages_copied', 0):,} pages copied; "
            f"write amplification {data.get('write_amplification', 0):.3f}"
            "<table><tr><th></th><th>requests</th><th>IOPS</th><th>MB/s</th><th>mean µs</th><th>p99 µs</th><th>max µs</th></tr>"
            + "".join(rows)
            + "</table></div>"
        )

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self._data, indent=indent, sort_keys=False)

    def write_json(self, path: str | Path) -> None:
        write_text_atomically(Path(path), self.to_json() + "\n")


def write_text_atomically(path: Path, text: str) -> None:
    """Writes `text` to `path` through a temporary file beside it, then renames: a reader never sees
    half a file, and a failed write leaves the old one. A symbolic link is followed (its target is
    replaced); an existing FIFO or character device is written through, never replaced
    (``ssdlab.outputs``)."""
    from ssdlab import outputs

    outputs.write_text(Path(path), text)


def run(
    config: str | Path = "default",
    *,
    overrides: Iterable[str] = (),
    trace: str | Path | None = None,
    trace_format: str | None = None,
    trace_cache: str | Path | None = None,
    progress: Callable[..., object] | bool | None = None,
) -> RunResult:
    """Runs one simulation.

    ``config`` is a shipped preset name (see :func:`preset_names`) or a path to a TOML file.
    ``overrides`` are ``key=value`` strings (``ftl.garbage_collection.policy=cost_benefit``).
    ``trace`` replaces the config's workload with a trace file (format guessed unless given).
    ``trace_cache`` keeps the parsed trace in that folder (named by the trace's content hash), so
    later runs of the same trace read records instead of parsing text.
    ``progress(done, total, phase)`` is called every 65,536 units of work of each phase: ``scan``
    (trace records read; total 0, unknown), ``precondition`` (pages written) and ``replay``
    (requests); a callable taking two arguments gets ``(done, total)`` of the replay only. Without
    one, a run inside a Jupyter kernel shows a progress bar (``progress=False`` turns it off).
    """
    overrides = _overrides(overrides, trace, trace_format, trace_cache)
    if progress is None and in_notebook():
        with _NotebookBar() as bar:
            text = _native.run(str(config), overrides, bar.update)
    else:
        text = _native.run(str(config), overrides, _phase_reporter(progress) if progress else None)
    return RunResult(json.loads(text))


def _phase_reporter(progress: Callable[..., object]) -> Callable[[int, int, str], object]:
    """The native run's ``(done, total, phase)`` callback for a user's callable of two or three arguments."""
    import inspect

    try:
        parameters = inspect.signature(progress).parameters.values()
        positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        takes_phase = len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in parameters)
    except (TypeError, ValueError):
        takes_phase = True
    if takes_phase:
        return progress

    def replay_only(done: int, total: int, phase: str) -> object:
        return progress(done, total) if phase == "replay" else None

    return replay_only


# How each phase of a run is shown beside its progress bar.
PHASE_NAMES = {"scan": "reading trace (records)", "precondition": "preconditioning (pages)", "replay": "replay (requests)"}


def in_notebook() -> bool:
    """Whether this Python runs in a Jupyter kernel (where a bar is drawn by default)."""
    try:
        from IPython import get_ipython  # type: ignore[import-not-found]
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class _NotebookBar:
    """A rich progress bar with rate and ETA, rendered in the notebook's output cell."""

    def __enter__(self) -> _NotebookBar:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=False
        )
        self._progress.start()
        self._task = self._progress.add_task("scan", total=None)
        return self

    def update(self, done: int, total: int, phase: str = "replay") -> None:
        self._progress.update(self._task, completed=done, total=total or None, description=PHASE_NAMES.get(phase, phase))

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()


def export_workload(
    config: str | Path,
    path: str | Path,
    *,
    to: str = "csv",
    overrides: Iterable[str] = (),
    trace: str | Path | None = None,
    trace_format: str | None = None,
) -> int:
    """Writes a config's workload (its trace, or its synthetic generator's requests; loops, time scale
    and tiles applied) to ``path`` as a ``mqsim`` or ``csv`` trace (``.gz``/``.zst`` compress);
    returns the requests written."""
    return _native.export_workload(str(config), str(path), to, _overrides(overrides, trace, trace_format))


def build_trace_cache(
    trace: str | Path, cache_dir: str | Path, *, trace_format: str | None = None, overrides: Iterable[str] = ()
) -> dict[str, Any]:
    """Parses ``trace`` into a parsed-trace cache in ``cache_dir`` (``workload.trace.*`` overrides such as
    ``skip_bad_lines`` apply), so that runs given ``trace_cache=cache_dir`` read records from the first.
    Returns ``cache`` (the file), ``records``, ``skipped_lines`` and ``reused`` (it was already there)."""
    return json.loads(_native.build_trace_cache("default", str(cache_dir), _overrides(overrides, trace, trace_format)))


def csv_to_parquet(source: str | Path, target: str | Path) -> Path:
    """Converts a CSV file (a request log) to Parquet in bounded memory (streaming), then removes the CSV."""
    import polars as pl

    from ssdlab import outputs

    source, target = Path(source), Path(target)
    partial = outputs.partial_beside(target, ".parquet")
    try:
        pl.scan_csv(source).sink_parquet(partial)
        os.replace(partial, outputs.target(target))
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    source.unlink()
    return target


def run_text(toml_text: str, *, origin: str = "<string>", overrides: Iterable[str] = (), progress=None) -> RunResult:
    """Runs a simulation from TOML text (a config built in a notebook)."""
    text = _native.run(toml_text, list(overrides), progress, True, origin)
    return RunResult(json.loads(text))


def load_config(config: str | Path = "default", *, overrides: Iterable[str] = (), trace: str | Path | None = None) -> str:
    """Validates a config and returns it, with defaults filled in, as TOML text."""
    return _native.load_config(str(config), _overrides(overrides, trace, None))


def unset_optional_keys(config: str | Path = "default", *, overrides: Iterable[str] = (), trace: str | Path | None = None) -> list[str]:
    """The optional keys a config leaves unset (dotted paths): each can be given in the file or with
    ``--set KEY=VALUE``. Derived from the config types, so every settable optional key is here."""
    return [path for path, is_set in _native.config_keys(str(config), _overrides(overrides, trace, None)) if not is_set]


def preset_names() -> list[str]:
    return list(_native.preset_names())


def trace_stats(
    path: str | Path,
    *,
    format: str | None = None,
    skip_bad_lines: bool = False,
    merge_devices: bool = False,
    block_bytes: int = 4096,
    max_request_bytes: int = 1 << 30,
    columns: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Statistics of a trace file: requests, read share, footprint, sizes, timing, seed-000 class.

    ``block_bytes`` is a power of two of at least 512; requests above ``max_request_bytes`` are
    malformed lines; ``columns`` is a column map (:func:`column_map`) for any delimited layout."""
    if block_bytes < 512 or max_request_bytes < 1:
        raise _native.TraceError(
            f"block_bytes must be a power of two of at least 512 (got {block_bytes}) and max_request_bytes at least 1 (got {max_request_bytes})"
        )
    text = _native.trace_stats(
        str(path),
        format,
        skip_bad_lines,
        merge_devices,
        block_bytes,
        max_request_bytes,
        None if columns is None else json.dumps(dict(columns)),
    )
    return json.loads(text)
