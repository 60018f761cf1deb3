"""The ssdlab command line: ``ssdlab run | sweep | reproduce | trace stats | presets | config | bench | ecc``.

Exit codes: 0 success; 2 bad input (config, trace, arguments, an output path that cannot be
written); 1 the simulation could not complete (device full, integrity violation, incomplete run); 3 an
internal error (a bug); 130 interrupted (Ctrl-C stops a run within one progress interval and leaves no
partial output: the request log is written beside its target and moved there only on success). When
the reader of the output goes away (a broken pipe, as in `ssdlab trace stats T | head -1`) the command
stops quietly with 1.

Annotations are evaluated at definition (no ``from __future__ import annotations``): typer would
otherwise evaluate every option's annotation string of every command at each start, 0.04 s of every
invocation.
"""

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import rich.markup
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ssdlab import _native, api, outputs
from ssdlab.summary import render_run, render_trace_stats
from ssdlab.usage import UsageError

# Plain (click) help: the rich help of this typer version shows `<bool>` after flags that take no value.
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None, help="ssdlab: trace-driven SSD simulator.")
trace_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Trace files: statistics and workload class.")
presets_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Shipped configuration presets.")
app.add_typer(trace_app, name="trace")
app.add_typer(presets_app, name="presets")
ecc_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="ECC lab: frame-error-rate curves and raw bit error rates.")
app.add_typer(ecc_app, name="ecc")


class _RecipeGroup(typer.core.TyperGroup):
    """``ssdlab reproduce``: one subcommand per registered recipe (``ssdlab.reproduce.registry``),
    built when asked for, so other commands start without importing the recipes."""

    def list_commands(self, ctx: Any) -> list[str]:
        from ssdlab.reproduce.registry import MODULES

        return [*MODULES, "summary"]

    def get_command(self, ctx: Any, name: str) -> Any:
        from ssdlab.reproduce.registry import MODULES, RECIPES

        if name == "summary":
            single = typer.Typer(add_completion=False, rich_markup_mode=None)
            single.command("summary")(reproduce_summary)
            return typer.main.get_command(single)
        if name not in MODULES:
            return None
        return _recipe_command(RECIPES[name])


def reproduce_summary(
    folders: Annotated[list[Path], typer.Argument(help="Recipe output folders (each with its headlines.json).")],
) -> None:
    """The verdict counts of several recipe folders: one row each and the total (gain rule)."""
    from rich.table import Table

    from ssdlab.reproduce.tally import COLUMNS, tally

    try:
        rows, total, sentence = tally(folders)
    except FileNotFoundError as error:
        _fail(error)
        return
    except (OSError, ValueError) as error:
        _fail(UsageError(str(error)))
        return
    table = Table(title="Seed claims by verdict (ssdlab.reproduce.base.verdict: the gain rule)")
    for header in ("recipe", "seed", *COLUMNS, "folder"):
        table.add_column(header, justify="right" if header in COLUMNS else "left")
    for row in [*rows, total]:
        table.add_row(*(str(row[column]) for column in ("recipe", "seed", *COLUMNS, "folder")))
    console.print(table)
    console.print(f"{sentence}.", highlight=False)


reproduce_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Reproduce a seed study: run its grid, write its figures, a report and headlines.json.",
    cls=_RecipeGroup,
)
app.add_typer(reproduce_app, name="reproduce")

experiment_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Experiments beyond the seed studies.")
app.add_typer(experiment_app, name="experiment")


@experiment_app.command("flows-interference")
def flows_interference(
    out: Annotated[Path, typer.Option("--out", help="Folder for the table (Parquet, JSON) and the figure.")] = Path("flows-interference"),
    writer_interarrival_us: Annotated[
        str, typer.Option("--writer-interarrival-us", help="The writer's mean inter-arrival times to sweep, comma-separated (us).")
    ] = "800,400,200,100,50",
    arbitration: Annotated[
        list[str] | None,
        typer.Option(
            "--arbitration", help="round_robin and/or weighted_round_robin (default: both; weighted_round_robin with --compare-scheduling)."
        ),
    ] = None,
    device_queue_depth: Annotated[
        str | None,
        typer.Option(
            "--device-queue-depth",
            help="Commands the controller holds at once, comma-separated values to sweep (default: 65535,16; 65535 with --compare-scheduling).",
        ),
    ] = None,
    policies: Annotated[
        str | None,
        typer.Option(
            "--policies",
            help="Transaction scheduling policies to compare, comma-separated: fifo, out_of_order, priority_out_of_order (default: fifo).",
        ),
    ] = None,
    suspension: Annotated[
        str | None,
        typer.Option(
            "--suspension",
            help="Program/erase suspension settings to compare, comma-separated: none, program, erase, program_and_erase (default: none).",
        ),
    ] = None,
    compare_scheduling: Annotated[
        bool,
        typer.Option(
            "--compare-scheduling",
            help="Every policy, without and with program_and_erase suspension, at weighted_round_robin and device queue depth 65535 (each unless given).",
        ),
    ] = False,
) -> None:
    """Two flows on one drive (preset two-flows): the reader's latency and both flows' slowdowns as the writer's load grows."""
    from ssdlab import flows_interference as experiment

    try:
        rates = experiment.parse_interarrival_times(writer_interarrival_us)
        depths = experiment.parse_device_queue_depths(device_queue_depth) if device_queue_depth is not None else None
        chosen_policies = experiment.parse_policies(policies) if policies is not None else None
        chosen_suspensions = experiment.parse_suspensions(suspension) if suspension is not None else None
        if compare_scheduling:
            arbitrations, depths, chosen_policies, chosen_suspensions = experiment.scheduling_comparison(
                arbitration or None, depths, chosen_policies, chosen_suspensions
            )
        else:
            arbitrations = arbitration or list(experiment.ARBITRATIONS)
            depths = depths or list(experiment.DEFAULT_DEVICE_QUEUE_DEPTHS)
            chosen_policies = chosen_policies or list(experiment.DEFAULT_POLICIES)
            chosen_suspensions = chosen_suspensions or list(experiment.DEFAULT_SUSPENSIONS)

        def show(row: dict) -> None:
            scheduling = ""
            if (row["scheduler_policy"], row["suspension"]) != ("fifo", "none"):
                suspensions = (row.get("scheduler_program_suspensions") or 0) + (row.get("scheduler_erase_suspensions") or 0)
                scheduling = f" {row['scheduler_policy']} suspend {row['suspension']} ({suspensions:,} suspensions)"
            console.print(
                f"QD {row['device_queue_depth']:>5} {row['arbitration']:>21}{scheduling}  writer {row['writer_offered_iops']:>8,.0f} IOPS offered:"
                f"  reader mean {row['reader_mean_us']:,.1f} us p99 {row['reader_p99_us']:,.1f} us"
                f"  writer mean {row['writer_mean_us']:,.1f} us"
                f"  slowdowns reader {row['reader_slowdown']:.2f} writer {row['writer_slowdown']:.2f}"
                f"  fairness {row['fairness']:.2f}"
            )

        experiment.run_experiment(
            out,
            writer_interarrival_us=rates,
            arbitrations=arbitrations,
            device_queue_depths=depths,
            policies=chosen_policies,
            suspensions=chosen_suspensions,
            on_point=show,
        )
    except typer.BadParameter:
        raise
    except BaseException as error:
        _fail(error)
        return
    console.print(f"written to {out}/flows-interference.{{parquet,json,png,svg}}")


# Redirected output (files, CI logs) gets a fixed 120-column width so tables are not truncated,
# unless COLUMNS says otherwise.
console = Console(width=None if sys.stdout.isatty() or "COLUMNS" in os.environ else 120)
error_console = Console(stderr=True, width=None if sys.stderr.isatty() or "COLUMNS" in os.environ else 120)


def _fail(error: BaseException) -> None:
    if isinstance(error, KeyboardInterrupt):
        error_console.print("[red]interrupted[/red]")
        raise typer.Exit(130)
    if isinstance(error, (_native.ConfigurationError, _native.TraceError)):
        code = 2
    elif isinstance(error, _native.InternalError):
        code = 3
    elif isinstance(error, _native.SsdlabError):
        code = 1
    elif isinstance(error, (FileNotFoundError, IsADirectoryError, PermissionError)):
        code = 2
    elif type(error).__name__ == "SweepError" or isinstance(error, UsageError):
        code = 2
    elif isinstance(error, outputs.OutputFailed):
        # The work is done but its output could not be written where asked (the message says where it went).
        code = 1
    elif isinstance(error, OSError):
        # The system refused a read or write (a full disk, a vanished folder): not a bug, and its
        # message names the file.
        code = 1
    else:
        raise error
    # The message is user data (paths, TOML snippets): escape it so rich does not read it as markup.
    error_console.print("[red]error:[/red] " + rich.markup.escape(str(error)), highlight=False)
    raise typer.Exit(code)


def _check_output(path: Path | None, name: str = "--json", inputs: dict[str, Path | None] | None = None) -> None:
    """Fails (exit 2) before any work if `path` cannot be written or would clobber an input or a
    special file (``ssdlab.outputs``): results are never lost at the end."""
    outputs.check({name: path}, inputs)


def _write_json(path: Path, data: object) -> None:
    """Writes atomically: a reader never sees half a file, and a failed write leaves the old one."""
    api.write_text_atomically(path, json.dumps(data, indent=2) + "\n")


def _version_callback(value: bool) -> None:
    if value:
        console.print(f"ssdlab {_native.__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_version_callback, is_eager=True, metavar="")
    ] = False,
) -> None:
    """ssdlab: trace-driven SSD simulator."""


def _progress_bar(enabled: bool, what: str = ""):
    """A bar whose task description names what runs (a run: its phase, with its unit)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(what),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=error_console,
        transient=True,
        disable=not enabled,
    )


# The column-map options (`ssdlab run` and `ssdlab trace stats` take the same ones).
ColumnsOption = Annotated[
    str | None, typer.Option("--columns", help="Column map of any delimited trace: time=0,op=1,offset=2,size=3[,device=4] (0-based).")
]
SeparatorOption = Annotated[str, typer.Option("--separator", help="With --columns: , ; tab or whitespace.")]
TimeUnitOption = Annotated[str, typer.Option("--time-unit", help="With --columns: s, ms, us or ns.")]
OffsetUnitOption = Annotated[
    int, typer.Option("--offset-unit-bytes", help="With --columns: bytes per offset unit (512 for sectors, 4096 for blocks).")
]
SizeUnitOption = Annotated[int, typer.Option("--size-unit-bytes", help="With --columns: bytes per size unit.")]
ReadOpsOption = Annotated[
    str | None, typer.Option("--read-ops", help="With --columns: op values meaning read, comma-separated (e.g. 0x28,0x88).")
]
WriteOpsOption = Annotated[str | None, typer.Option("--write-ops", help="With --columns: op values meaning write (e.g. 0x2a,0x8a).")]
DeleteOpsOption = Annotated[str | None, typer.Option("--delete-ops", help="With --columns: op values meaning delete.")]
HeaderLinesOption = Annotated[int, typer.Option("--header-lines", help="With --columns: lines to skip at the top.")]


def _column_options(
    separator: str,
    time_unit: str,
    offset_unit_bytes: int,
    size_unit_bytes: int,
    read_ops: str | None,
    write_ops: str | None,
    delete_ops: str | None,
    header_lines: int,
) -> dict[str, Any]:
    return dict(
        separator=separator,
        time_unit=time_unit,
        offset_unit_bytes=offset_unit_bytes,
        size_unit_bytes=size_unit_bytes,
        read_ops=read_ops,
        write_ops=write_ops,
        delete_ops=delete_ops,
        header_lines=header_lines,
    )


@app.command()
def run(
    config: Annotated[str, typer.Argument(help="Preset name or TOML file.")] = "default",
    trace: Annotated[Path | None, typer.Option("--trace", help="Replay this trace instead of the config's workload.")] = None,
    trace_format: Annotated[str | None, typer.Option("--format", help="Trace format (guessed from content if absent).")] = None,
    trace_cache: Annotated[
        Path | None,
        typer.Option(
            "--trace-cache",
            help="Keep the parsed trace in this folder; later runs of the same trace skip parsing (default: $SSDLAB_TRACE_CACHE if set).",
        ),
    ] = None,
    columns: ColumnsOption = None,
    separator: SeparatorOption = ",",
    time_unit: TimeUnitOption = "s",
    offset_unit_bytes: OffsetUnitOption = 1,
    size_unit_bytes: SizeUnitOption = 1,
    read_ops: ReadOpsOption = None,
    write_ops: WriteOpsOption = None,
    delete_ops: DeleteOpsOption = None,
    header_lines: HeaderLinesOption = 0,
    request_log: Annotated[
        Path | None,
        typer.Option(
            "--request-log",
            help="Write one row per completed request here (.parquet: Parquet, converted in bounded memory; otherwise CSV).",
        ),
    ] = None,
    time_series_ms: Annotated[
        float | None,
        typer.Option(
            "--time-series-ms",
            help="Record the run over time at this interval of simulated time (ms, at least 0.001; at most 100,000 intervals); with --json it is also written as OUT.timeseries.parquet.",
        ),
    ] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a config field: key=value (repeatable).")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the full result as JSON here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
    mqsim_config: Annotated[
        Path | None,
        typer.Option("--mqsim-config", help="Run MQSim's SSD configuration (ssdconfig.xml) instead of CONFIG; with --mqsim-workload."),
    ] = None,
    mqsim_workload: Annotated[
        Path | None, typer.Option("--mqsim-workload", help="MQSim's workload file: each IO_Scenario is run in turn (docs/mqsim.md).")
    ] = None,
    scenario: Annotated[int | None, typer.Option("--scenario", help="With --mqsim-workload: run only this IO_Scenario (from 1).")] = None,
) -> None:
    """Run one simulation and print a summary (and optionally JSON)."""
    import os

    if mqsim_config is not None or mqsim_workload is not None or scenario is not None:
        _run_mqsim(config, mqsim_config, mqsim_workload, scenario, trace, list(set_ or []), json_out, request_log, time_series_ms, quiet)
        return

    if trace_cache is None and os.environ.get("SSDLAB_TRACE_CACHE"):
        trace_cache = Path(os.environ["SSDLAB_TRACE_CACHE"])
    if trace is not None:
        # A folder or a FIFO is refused by name before the reader opens it (a FIFO's second open waits forever).
        try:
            outputs.check_input("--trace", trace)
        except (FileNotFoundError, UsageError) as error:
            _fail(error)
    # The time series goes beside the JSON as a Parquet file (it is in the JSON as well); beside a
    # FIFO or device there is no such place.
    series_out = None
    if json_out is not None and not outputs.is_written_through(json_out):
        series_out = json_out.with_suffix(".timeseries.parquet")
    try:
        if json_out is not None and series_out is None and time_series_ms is not None:
            raise outputs.OutputRefused(
                f"--json {json_out}: is a {outputs.kind(json_out)}; with --time-series-ms the series is written beside the JSON, so give a regular file"
            )
        outputs.check(
            {"--json": json_out, "--request-log": request_log, "the time series (beside --json)": series_out},
            _run_inputs(config, trace, list(set_ or [])),
        )
    except UsageError as error:
        _fail(error)
    show_progress = not quiet and error_console.is_terminal
    # The request log is written to a temporary file beside its target and moved there when the run
    # succeeds (a failed or interrupted run leaves none); an existing FIFO or character device is
    # written through.
    log_partial = None
    # A request log the run wrote but that could not be moved to --request-log (kept, and reported).
    log_kept = None
    if request_log is not None:
        if outputs.is_written_through(request_log):
            log_partial = request_log
        else:
            log_partial = outputs.partial_beside(request_log, ".csv")
    try:
        with _progress_bar(show_progress) as bar:
            task = bar.add_task("starting", total=None)

            def report(done: int, total: int, phase: str = "replay") -> None:
                # Every phase of the run on one bar: trace scan (no total), preconditioning, replay.
                bar.update(task, completed=done, total=total or None, description=api.PHASE_NAMES.get(phase, phase))

            overrides = []
            if columns is not None:
                # The column map first, so that --set workload.trace.columns.FIELD refines it instead of
                # being replaced by it.
                overrides.append(
                    api.column_map_override(
                        columns,
                        **_column_options(
                            separator, time_unit, offset_unit_bytes, size_unit_bytes, read_ops, write_ops, delete_ops, header_lines
                        ),
                    )
                )
            overrides += list(set_ or [])
            if log_partial is not None:
                overrides.append(f"output.request_log_path={json.dumps(str(log_partial))}")
            if time_series_ms is not None:
                overrides.append(f"output.time_series_interval_ms={time_series_ms}")
            result = api.run(
                config,
                overrides=overrides,
                trace=trace,
                trace_format=trace_format,
                trace_cache=trace_cache if trace is not None else None,
                progress=report,
            )
        if request_log is not None and log_partial is not None and log_partial != request_log:
            try:
                if request_log.suffix == ".parquet":
                    api.csv_to_parquet(log_partial, request_log)
                else:
                    os.replace(log_partial, outputs.target(request_log))
                # The result names the file the user asked for, not the temporary one it was written to.
                result._data["request_log"] = {**result._data["request_log"], "path": str(request_log.resolve())}
            except Exception as error:
                # The run is done: its log stays where the run wrote it, and the JSON is still written.
                log_kept = outputs.OutputFailed(
                    f"--request-log {request_log}: cannot write the request log: {getattr(error, 'strerror', None) or error}; "
                    f"it is kept as {log_partial}"
                )
        series_path = None
        if json_out is not None:
            result.write_json(json_out)
            if series_out is not None:
                try:
                    series_path = result.write_time_series(series_out)
                except Exception as error:
                    raise outputs.OutputFailed(
                        f"{series_out}: cannot write the time series: {getattr(error, 'strerror', None) or error}; it is in {json_out}"
                    ) from None
        if log_kept is not None:
            raise log_kept
    except BaseException as error:
        if log_kept is not None and error is not log_kept:
            error_console.print("[red]error:[/red] " + rich.markup.escape(str(log_kept)), highlight=False)
        elif log_partial is not None and log_partial != request_log and log_kept is None:
            log_partial.unlink(missing_ok=True)
        _fail(error)
        return
    if not quiet:
        render_run(result, console)
        if json_out is not None:
            console.print(f"[dim]result written to {json_out}{f' (time series: {series_path})' if series_path else ''}[/dim]")


def _run_mqsim(
    config: str,
    ssd_config: Path | None,
    workload: Path | None,
    scenario: int | None,
    trace: Path | None,
    overrides: list[str],
    json_out: Path | None,
    request_log: Path | None,
    time_series_ms: float | None,
    quiet: bool,
) -> None:
    """``run --mqsim-config F --mqsim-workload W``: each IO_Scenario of W (or --scenario N) imported
    (``ssdlab.mqsim_import``) and run in turn, its per-flow results printed under its number."""
    from ssdlab import mqsim_import

    try:
        if ssd_config is None or workload is None:
            raise UsageError("--mqsim-config and --mqsim-workload go together (--scenario needs them too)")
        if config != "default" or trace is not None:
            raise UsageError("--mqsim-config/--mqsim-workload replace CONFIG and --trace: give one or the other")
        scenarios = mqsim_import.select(mqsim_import.read_scenarios(ssd_config, workload, only=scenario), scenario, workload)
        if len(scenarios) > 1 and (json_out is not None or request_log is not None):
            raise UsageError(f"{workload} has {len(scenarios)} IO_Scenarios: with --json or --request-log give --scenario N")
        outputs.check({"--json": json_out, "--request-log": request_log}, {"--mqsim-config": ssd_config, "--mqsim-workload": workload})
        extra = list(overrides)
        if request_log is not None:
            extra.append(f"output.request_log_path={json.dumps(str(request_log))}")
        if time_series_ms is not None:
            extra.append(f"output.time_series_interval_ms={time_series_ms}")
        for chosen in scenarios:
            if not quiet and len(scenarios) > 1:
                console.print(f"[bold]IO_Scenario {chosen.index} of {len(scenarios)}[/bold] ({workload})", highlight=False)
            with _progress_bar(not quiet and error_console.is_terminal) as bar:
                task = bar.add_task("starting", total=None)

                def report(done: int, total: int, phase: str = "replay", bar=bar, task=task) -> None:
                    bar.update(task, completed=done, total=total or None, description=api.PHASE_NAMES.get(phase, phase))

                result = api.run_text(chosen.toml, origin=f"{workload} (IO_Scenario {chosen.index})", overrides=extra, progress=report)
            if json_out is not None:
                result.write_json(json_out)
            if not quiet:
                render_run(result, console)
    except BaseException as error:
        _fail(error)


def _run_inputs(config: str, trace: Path | None, overrides: list[str]) -> dict[str, Path | None]:
    """The files a run reads, which no output may overwrite: the trace and the config file (a preset
    name is no file), and the trace the config names."""
    inputs: dict[str, Path | None] = {"--trace": trace}
    if Path(config).is_file():
        inputs["the config"] = Path(config)
    if trace is None:
        import tomllib

        try:
            named = tomllib.loads(api.load_config(config, overrides=overrides)).get("workload", {}).get("trace", {}).get("path")
        except Exception:
            # An invalid config is reported by the run itself, with its file, line and field.
            named = None
        if named:
            inputs["workload.trace.path"] = Path(named)
    return inputs


@trace_app.command("stats")
def trace_stats(
    path: Annotated[Path, typer.Argument(help="Trace file (.gz and .zst read transparently).")],
    trace_format: Annotated[str | None, typer.Option("--format", help="msr, umass, blkparse, disksim, mqsim, ssdsim, csv")] = None,
    skip_bad_lines: Annotated[bool, typer.Option("--skip-bad-lines", help="Count and skip malformed lines instead of failing.")] = False,
    merge_devices: Annotated[bool, typer.Option("--merge-devices", help="Overlay all devices/ASUs at offset 0.")] = False,
    block_bytes: Annotated[
        int, typer.Option("--block-bytes", help="Block size for footprint and write counts: a power of two, at least 512.")
    ] = 4096,
    max_request_bytes: Annotated[int, typer.Option("--max-request-bytes", help="Larger requests are malformed lines.")] = 1 << 30,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the statistics as JSON here.")] = None,
    columns: ColumnsOption = None,
    separator: SeparatorOption = ",",
    time_unit: TimeUnitOption = "s",
    offset_unit_bytes: OffsetUnitOption = 1,
    size_unit_bytes: SizeUnitOption = 1,
    read_ops: ReadOpsOption = None,
    write_ops: WriteOpsOption = None,
    delete_ops: DeleteOpsOption = None,
    header_lines: HeaderLinesOption = 0,
) -> None:
    """Statistics of a trace: requests, read share, footprint, sizes, timing and seed-000 workload class."""
    try:
        outputs.check_input("trace", path)
        if block_bytes < 512 or block_bytes & (block_bytes - 1):
            raise UsageError(f"--block-bytes: must be a power of two of at least 512 bytes, got {block_bytes}")
        if max_request_bytes < 1:
            raise UsageError(f"--max-request-bytes: must be at least 1, got {max_request_bytes}")
        _check_output(json_out, inputs={"the trace": path})
        layout = None
        if columns is not None:
            layout = api.column_map(
                columns,
                **_column_options(separator, time_unit, offset_unit_bytes, size_unit_bytes, read_ops, write_ops, delete_ops, header_lines),
            )
        report = api.trace_stats(
            path,
            format=trace_format,
            skip_bad_lines=skip_bad_lines,
            merge_devices=merge_devices,
            block_bytes=block_bytes,
            max_request_bytes=max_request_bytes,
            columns=layout,
        )
    except BaseException as error:
        _fail(error)
        return
    if json_out is not None:
        _write_json(json_out, report)
    render_trace_stats(report, console)


@trace_app.command("convert")
def trace_convert(
    path: Annotated[Path, typer.Argument(help="Trace file to read (.gz and .zst read transparently).")],
    out: Annotated[Path, typer.Argument(help="Trace file to write (.gz or .zst compress); with --to cache, the cache folder.")],
    to: Annotated[
        str,
        typer.Option(
            "--to",
            help="Format written: csv (time_ns,op,offset,size in bytes), mqsim, or cache (the parsed-trace cache in folder OUT, for --trace-cache OUT).",
        ),
    ] = "csv",
    trace_format: Annotated[str | None, typer.Option("--format", help="Format read (guessed from content if absent).")] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="Config overrides that shape the stream (host.loops, host.tiles, host.time_scale, workload.trace.*)."),
    ] = None,
) -> None:
    """Rewrite any readable trace as CSV or MQSim ASCII (requests as the replay reads them: devices laid out, times from 0), or parse it into a parsed-trace cache."""
    try:
        outputs.check_input("trace", path)
    except (FileNotFoundError, UsageError) as error:
        _fail(error)
    if to == "cache":
        try:
            built = api.build_trace_cache(path, out, trace_format=trace_format, overrides=set_ or [])
        except BaseException as error:
            _fail(error)
            return
        state = "already there" if built["reused"] else "built"
        skipped = f", {built['skipped_lines']:,} malformed lines skipped" if built["skipped_lines"] else ""
        console.print(
            f"{built['records']:,} records in {built['cache']} ({state}{skipped}); runs given --trace-cache {out} read them",
            soft_wrap=True,
            markup=False,
        )
        return
    try:
        _check_output(out, "OUT", {"the trace": path})
        written = api.export_workload("default", out, to=to, overrides=set_ or [], trace=path, trace_format=trace_format)
    except BaseException as error:
        _fail(error)
        return
    console.print(f"{written:,} requests written to {out} ({to})")


@trace_app.command("generate")
def trace_generate(
    config: Annotated[str, typer.Argument(help="Preset name or config file whose workload to write.")],
    out: Annotated[Path, typer.Argument(help="Trace file to write (.gz or .zst compress).")],
    to: Annotated[str, typer.Option("--to", help="Format written: csv or mqsim.")] = "csv",
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a config field: key=value (repeatable).")] = None,
) -> None:
    """Write a config's synthetic workload as a trace file (the same requests a run would replay, for the same seed)."""
    try:
        _check_output(out, "OUT", {"the config": Path(config) if Path(config).is_file() else None})
        written = api.export_workload(config, out, to=to, overrides=set_ or [])
    except BaseException as error:
        _fail(error)
        return
    console.print(f"{written:,} requests written to {out} ({to})")


@app.command("report")
def sweep_report_command(
    sweep_dir: Annotated[Path, typer.Argument(help="A sweep's output folder (ssdlab sweep SWEEP.toml --out DIR).")],
    metric: Annotated[
        list[str] | None,
        typer.Option("--metric", help="A result column to show, e.g. result.all.iops (repeatable; default: headline metrics)."),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Where report.md and the figures go (default: SWEEP_DIR/report).")] = None,
) -> None:
    """Table and figures of any sweep: one row per point, one bar figure per metric, as report.md."""
    from ssdlab import sweep_report

    try:
        if out is not None:
            outputs.check_folder("--out", out)
        path = sweep_report.report(sweep_dir, metric, out)
    except BaseException as error:
        _fail(error)
        return
    console.print(f"report: {path}")


@app.command("plot")
def plot(
    result_path: Annotated[Path, typer.Argument(help="A run's JSON result (ssdlab run --json OUT --time-series-ms N).")],
    out: Annotated[Path | None, typer.Option("--out", help="Figure path without suffix (default: beside the result).")] = None,
) -> None:
    """Draw a run's time series (IOPS, p99 latency, GC copies, free blocks) as PNG and SVG."""
    from ssdlab import run_plots

    try:
        if not result_path.exists():
            raise FileNotFoundError(f"{result_path}: no such result file")
        try:
            result = json.loads(result_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise UsageError(f"{result_path}: not a JSON result ({error})") from None
        paths = run_plots.plot_time_series(result, out if out is not None else result_path.with_suffix(".timeseries"))
    except ValueError as error:
        _fail(UsageError(str(error)))
        return
    except BaseException as error:
        _fail(error)
        return
    console.print("figures: " + ", ".join(str(path) for path in paths))


@presets_app.command("list")
def presets_list() -> None:
    """List the shipped presets with their whole descriptions (the comment block that opens each file)."""
    for name in api.preset_names():
        lines = []
        for line in _native.preset_text(name).splitlines():
            if not line.startswith("#"):
                break
            lines.append(line.lstrip("#").strip())
        console.print(f"[bold]{name}[/bold]")
        # Wrapped at the terminal's width, never cut.
        console.print(rich.markup.escape(" ".join(lines)), style="dim", highlight=False)
        console.print()


@presets_app.command("show")
def presets_show(name: str) -> None:
    """Print a preset's TOML."""
    try:
        console.print(_native.preset_text(name), markup=False, highlight=False, soft_wrap=True)
    except BaseException as error:
        _fail(error)


# Optional keys whose value the run derives when they are unset: said beside them, so that `config`
# does not look as if nothing were used there.
DERIVED_WHEN_UNSET = {
    "read_path.aoa_ecc.hot_switch_pe_cycles": (
        "  (unset: each run computes it per chip class from read_path.decoder_tables at hot_retention_hours and prints it in its summary)"
    ),
    "read_path.aoa_ecc.cold_switch_pe_cycles": (
        "  (unset: each run computes it per chip class from read_path.decoder_tables at cold_retention_hours and prints it in its summary)"
    ),
}


@app.command("config")
def config_check(
    config: Annotated[str, typer.Argument(help="Preset name or TOML file; or import-mqsim SSDCONFIG.xml WORKLOAD.xml.")] = "default",
    mqsim_files: Annotated[
        list[Path] | None, typer.Argument(help="With import-mqsim: MQSim's SSD configuration and workload files.", show_default=False)
    ] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a field: key=value.")] = None,
    scenario: Annotated[
        int | None, typer.Option("--scenario", help="With import-mqsim: the IO_Scenario to print (from 1; default 1).")
    ] = None,
) -> None:
    """Validate a config (with overrides) and print it with every default filled in, then the optional
    keys it leaves unset (as TOML comments: the output stays a valid config).

    `ssdlab config import-mqsim SSDCONFIG.xml WORKLOAD.xml [--scenario N]` prints MQSim's files as a
    commented ssdlab config instead (each key beside the MQSim element it comes from; docs/mqsim.md)."""
    if config == "import-mqsim" or mqsim_files or scenario is not None:
        _import_mqsim(config, list(mqsim_files or []), scenario, list(set_ or []))
        return
    try:
        text = api.load_config(config, overrides=set_ or [])
        unset = api.unset_optional_keys(config, overrides=set_ or [])
    except BaseException as error:
        _fail(error)
        return
    # soft_wrap: never fold a line at the console's width (a folded line is not TOML).
    console.print(text, markup=False, highlight=False, soft_wrap=True)
    if unset:
        listing = "\n".join(f"#   {key}{DERIVED_WHEN_UNSET.get(key, '')}" for key in unset)
        console.print(
            f"# Optional keys not set above (give them in the file or with --set KEY=VALUE; see the docs of each table):\n{listing}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def _import_mqsim(command: str, files: list[Path], scenario: int | None, overrides: list[str]) -> None:
    """``config import-mqsim``: the imported TOML, checked by the simulator's own loader (with any
    --set) before it is printed as written, comments and all."""
    from ssdlab import mqsim_import

    try:
        if command != "import-mqsim" or len(files) != 2:
            raise UsageError(
                "usage: ssdlab config import-mqsim SSDCONFIG.xml WORKLOAD.xml [--scenario N] (extra arguments go with import-mqsim only)"
            )
        text, count = mqsim_import.import_text(files[0], files[1], scenario)
        mqsim_import.validate(text, overrides)
    except BaseException as error:
        _fail(error)
        return
    console.print(text, markup=False, highlight=False, soft_wrap=True, end="")
    if count > 1 and scenario is None:
        error_console.print(f"{files[1]} has {count} IO_Scenarios; this is the 1st (--scenario N prints another)", highlight=False)


def _stream_counts(text: str) -> tuple[int, ...]:
    """`--stream-requests`: "0" (none) or two positive request counts, short then long."""
    if text.strip() == "0":
        return ()
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        counts = ()
    if len(counts) != 2 or not 0 < counts[0] < counts[1]:
        raise typer.BadParameter(
            f"expected SHORT,LONG request counts with 0 < SHORT < LONG, or 0; got {text!r}", param_hint="--stream-requests"
        )
    return counts


@app.command()
def bench(
    scenarios: Annotated[
        list[str] | None,
        typer.Argument(
            help="Scenarios to run: s (the headline: MQSim's drive as shipped, whole process by phase), a, b, c, o (overload), d (whole process, 5M-request trace), m (memory against drive size), k (scenario a with the DRAM data cache), l (with the data cache and the mapping-table cache) (default: all), or ecc for the ECC decoders."
        ),
    ] = None,
    trace: Annotated[
        Path | None, typer.Option("--trace", help="Trace for scenario c (default: the MSR web_0 sample in ../shared/traces).")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write measurements as JSON here.")] = None,
    repeat: Annotated[
        int, typer.Option("--repeat", help="Run every scenario this many times, interleaved; report the best and the range.")
    ] = 3,
    stream_requests: Annotated[
        str,
        typer.Option(
            "--stream-requests",
            help="Scenario m's bounded-memory streams on 512 GiB: SHORT,LONG request counts (peak RSS of LONG within 1.2x of SHORT); 0 skips them.",
        ),
    ] = "25000000,100000000",
) -> None:
    """Measure simulated host requests per CPU-second and peak memory (each scenario in its own process)."""
    from ssdlab import bench as bench_module

    streams = _stream_counts(stream_requests)
    try:
        _check_output(json_out)
        chosen = scenarios or list(bench_module.SCENARIOS)
        rows = []
        if "ecc" in chosen:
            rows.append(bench_module.run_ecc_benchmark(console))
        simulator = [key for key in chosen if key != "ecc"]
        if simulator:
            rows.extend(bench_module.run_benchmarks(simulator, trace, console, repeat=repeat, streams=streams))
    except BaseException as error:
        _fail(error)
        return
    if json_out is not None:
        _write_json(json_out, rows)


@ecc_app.command("curve")
def ecc_curve(
    spec: Annotated[str, typer.Argument(help="Shipped spec name (seed002-fig3, quick) or a TOML spec file.")] = "seed002-fig3",
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="Override a spec field: key=value (repeatable), e.g. max_frames=20000.")
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for the table (JSON, Parquet) and figures (PNG, SVG).")] = Path("ecc-curve"),
    cache_dir: Annotated[
        Path | None, typer.Option("--cache-dir", help="Table cache (default: $SSDLAB_CACHE_DIR/ecc or ~/.cache/ssdlab/ecc).")
    ] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Always simulate; do not read or write the cache.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
) -> None:
    """Frame error rate vs raw bit error rate for BCH, hard/Quick/EP/soft LDPC: table and figures (seed 002 Fig. 3, Fig. 10)."""
    from ssdlab import ecc
    from ssdlab.summary import render_ecc_curve

    try:
        # The folder is checked before the curve is simulated, so a bad --out costs no work.
        outputs.check_folder("--out", out)
        directory: Path | None | str = None if no_cache else (cache_dir if cache_dir is not None else "default")
        # Issue 48: the size and an estimate before the run, then a bar with the total and the time
        # left on a terminal, a line per decoder in a log.
        with ecc.LabProgress("curve point", console=error_console, interactive=error_console.is_terminal, quiet=quiet) as progress:
            result = ecc.curve_with_progress(spec, progress, overrides=set_ or [], cache_dir=directory)
        paths = result.write(out)
    except BaseException as error:
        _fail(error)
        return
    if not quiet:
        render_ecc_curve(result, paths, console)


@ecc_app.command("rber")
def ecc_rber(
    cell: Annotated[str, typer.Option("--cell", help="mlc or tlc.")] = "mlc",
    pe_cycles: Annotated[list[float] | None, typer.Option("--pe", help="P/E cycles (repeatable).")] = None,
    retention_hours: Annotated[list[float] | None, typer.Option("--retention-hours", help="Retention time in hours (repeatable).")] = None,
    chips: Annotated[list[int] | None, typer.Option("--chip", help="Chip index (repeatable).")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the rows as JSON here.")] = None,
) -> None:
    """Raw bit error rate of each page of the NAND channel model over P/E cycles and retention."""
    from ssdlab import ecc
    from ssdlab.summary import render_rber

    grid: dict[str, object] = {"cell": cell}
    if pe_cycles:
        grid["pe_cycles"] = pe_cycles
    if retention_hours:
        grid["retention_hours"] = retention_hours
    if chips:
        grid["chips"] = chips
    try:
        _check_output(json_out)
        rows = ecc.rber(**grid)
    except BaseException as error:
        _fail(error)
        return
    if json_out is not None:
        _write_json(json_out, rows)
    render_rber(rows, console)


@ecc_app.command("decoding-table")
def ecc_decoding_table(
    cell: Annotated[str, typer.Option("--cell", help="mlc or tlc.")] = "mlc",
    pe_cycles: Annotated[
        list[float] | None, typer.Option("--pe", help="P/E cycles (repeatable: one table per count, read by block wear). Default 10000.")
    ] = None,
    retention_hours: Annotated[float, typer.Option("--retention-hours", help="Retention time in hours.")] = 720.0,
    storage_temperature_c: Annotated[
        float, typer.Option("--storage-temperature-c", help="Storage temperature during retention (C).")
    ] = 40.0,
    frames: Annotated[int, typer.Option("--frames", help="Frames per chip, page type and sensing precision.")] = 2000,
    seed: Annotated[int, typer.Option("--seed", help="Monte Carlo seed.")] = 11,
    interleave_group: Annotated[
        list[str] | None,
        typer.Option(
            "--interleave-group",
            help="Chips sharing interleaved codewords, e.g. 0,2 (repeatable; seed 002's 2-way: 0,2 and 1,3; 4-way: 0,1,2,3).",
        ),
    ] = None,
    block_factor: Annotated[
        list[float] | None,
        typer.Option(
            "--block-factor",
            help="Block-to-block spread within a chip: one class of blocks per factor (wear-noise multiplier, equal shares; repeatable), e.g. 0.95 1.0 1.05 1.1.",
        ),
    ] = None,
    part_block_classes: Annotated[
        str,
        typer.Option(
            "--part-block-classes",
            help="With --interleave-group and --block-factor: independent (each part of a codeword in a block of its own; one row per "
            "multiset of the parts' classes) or shared (all parts in blocks of one class).",
        ),
    ] = "independent",
    out: Annotated[Path | None, typer.Option("--out", help="Write the [read_path.decoding] TOML table here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the full table as JSON here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress and no estimate (the table is still printed).")] = False,
) -> None:
    """Decoding-failure probabilities per chip and sensing precision at one stress, for `read_path.decoding` of a config."""
    from ssdlab import ecc
    from ssdlab.summary import render_decoding_table

    try:
        outputs.check({"--json": json_out, "--out": out})
        groups = []
        for text in interleave_group or []:
            try:
                groups.append([int(part) for part in text.split(",")])
            except ValueError:
                raise typer.BadParameter(f"--interleave-group {text!r}: expected chip indices separated by commas, e.g. 0,2") from None
        stress = dict(
            cell=cell,
            retention_hours=retention_hours,
            storage_temperature_c=storage_temperature_c,
            frames_per_case=frames,
            seed=seed,
            interleave_groups=groups,
            block_factors=list(block_factor or []),
            part_block_classes=part_block_classes,
        )
        with ecc.LabProgress("decoding case", console=error_console, interactive=error_console.is_terminal, quiet=quiet) as progress:
            result = ecc.decoding_tables_with_progress(pe_cycles or [10_000.0], progress, **stress)
    except BaseException as error:
        _fail(error)
        return
    if out is not None:
        api.write_text_atomically(out, result["config_toml"])
    if json_out is not None:
        _write_json(json_out, result["tables"][0] if len(result["tables"]) == 1 else result)
    for table in result["tables"]:
        render_decoding_table(table, console, with_toml=len(result["tables"]) == 1)
    if len(result["tables"]) > 1:
        console.print(result["config_toml"], highlight=False, markup=False, soft_wrap=True)


@ecc_app.command("decoder-tables")
def ecc_decoder_tables(
    cell: Annotated[str, typer.Option("--cell", help="mlc or tlc.")] = "mlc",
    chip: Annotated[
        str,
        typer.Option(
            "--chip",
            help="Whose measured chip the channel is calibrated to: seed002 (25 nm MLC, 10,000 P/E rated) or seed000 (2x-nm MLC; MLC only).",
        ),
    ] = "seed002",
    decoders: Annotated[
        list[str] | None,
        typer.Option(
            "--decoder",
            help="Decoder (repeatable): bch, ldpc-hard, quick-ldpc, ep-ldpc, ldpc-soft-K. Default: bch, quick-ldpc, ep-ldpc, ldpc-soft-6.",
        ),
    ] = None,
    pe_cycles: Annotated[list[float] | None, typer.Option("--pe", help="P/E grid point (repeatable). Default 0 to 10,000.")] = None,
    retention_hours: Annotated[
        list[float] | None,
        typer.Option("--retention-hours", help="Retention grid point in hours (repeatable). Default 1, 24, 144, 720."),
    ] = None,
    storage_temperature_c: Annotated[
        float, typer.Option("--storage-temperature-c", help="Storage temperature during retention (C).")
    ] = 40.0,
    frames: Annotated[int, typer.Option("--frames", help="Frames per case at most (decoder, chip, P/E, retention, page type).")] = 400,
    target_failures: Annotated[int, typer.Option("--target-failures", help="A case stops after this many failures.")] = 40,
    target: Annotated[float, typer.Option("--target", help="Failure probability that defines a decoder's tolerable P/E.")] = 1e-2,
    seed: Annotated[int, typer.Option("--seed", help="Monte Carlo seed.")] = 17,
    out: Annotated[Path | None, typer.Option("--out", help="Write the [read_path.decoder_tables] TOML here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the full result as JSON here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
) -> None:
    """Failure probability by decoder x P/E x retention per chip, and tolerable P/E (seed 000 Fig. 5), for `read_path.decoder_tables`."""
    from ssdlab import ecc
    from ssdlab.summary import render_decoder_tables

    spec: dict[str, object] = {
        "cell": cell,
        "chip": chip,
        "storage_temperature_c": storage_temperature_c,
        "frames_per_case": frames,
        "target_failures": target_failures,
        "target_failure_probability": target,
        "seed": seed,
    }
    if decoders:
        spec["decoders"] = decoders
    if pe_cycles:
        spec["pe_cycles"] = pe_cycles
    if retention_hours:
        spec["retention_hours"] = retention_hours
    try:
        outputs.check({"--json": json_out, "--out": out})
        with ecc.LabProgress("table row", console=error_console, interactive=error_console.is_terminal, quiet=quiet) as progress:
            result = ecc.decoder_tables_with_progress(progress, **spec)
    except BaseException as error:
        _fail(error)
        return
    if out is not None:
        api.write_text_atomically(out, result["config_toml"])
    if json_out is not None:
        _write_json(json_out, result)
    if not quiet:
        render_decoder_tables(result, console)


def _sweep_progress(enabled: bool):
    bar = Progress(
        TextColumn("[bold]sweep"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("points"),
        TextColumn("{task.fields[last]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=error_console,
        transient=True,
        disable=not enabled,
    )
    return bar


def _sweep_reporter(bar, task):
    def report(done: int, total: int, point, row) -> None:
        last = ""
        if point is not None and row is not None:
            last = ", ".join(f"{k}={v}" for k, v in point.labels) + ("" if row["status"] == "ok" else " [red]FAILED[/red]")
        bar.update(task, completed=done, total=total, last=last)

    return report


@app.command()
def sweep(
    sweep_file: Annotated[Path, typer.Argument(help="Sweep file (TOML): base config + grid of overrides.")],
    out: Annotated[Path | None, typer.Option("--out", help="Output folder (default: sweeps/<name>).")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run on this Dask distributed scheduler (tcp://host:8786).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Local processes, at least 1 (default: CPU cores).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
) -> None:
    """Run every point of a sweep (skipping points already stored); one Parquet row per point."""
    from ssdlab import sweep as sweeps
    from ssdlab.summary import render_sweep

    try:
        sweeps.check_scheduler(scheduler)
        definition = sweeps.Sweep.from_file(sweep_file)
        folder = out if out is not None else Path("sweeps") / definition.name
        with _sweep_progress(not quiet and error_console.is_terminal) as bar:
            task = bar.add_task("sweep", total=None, last="")
            outcome = sweeps.run_sweep(definition, folder, scheduler=scheduler, workers=workers, progress=_sweep_reporter(bar, task))
    except BaseException as error:
        _fail(error)
        return
    if not quiet:
        render_sweep(outcome, console)
    if outcome.failed:
        raise typer.Exit(1)


@app.command()
def optimize(
    base: Annotated[str, typer.Argument(help="Preset name or config file the search varies.")],
    axis: Annotated[
        list[str], typer.Option("--axis", help="A numeric key to search: KEY=LOW:HIGH[:int][:N] (N coarse points, default 5); repeatable.")
    ],
    objective: Annotated[
        str, typer.Option("--objective", help="Result column to optimise, e.g. result.write.mbps or result.write_amplification.")
    ] = "result.write.mbps",
    minimize: Annotated[bool, typer.Option("--minimize/--maximize", help="Minimise the objective instead of maximising it.")] = False,
    rounds: Annotated[
        int, typer.Option("--rounds", help="Refinement rounds after the coarse grid (each halves the step around the best point).")
    ] = 3,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override for every point: key=value; repeatable.")] = None,
    out: Annotated[Path, typer.Option("--out", help="Output folder (points are stored and reused: the search is resumable).")] = Path(
        "optimize"
    ),
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run on this Dask distributed scheduler (tcp://host:8786).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Local processes, at least 1 (default: CPU cores).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
) -> None:
    """Search numeric config keys for the best result: a coarse grid, then rounds refining around the best point; every point is a
    stored sweep point. Writes search.parquet/csv/json and the objective surface (surface.png/svg) to --out."""
    from ssdlab import optimize as optimizer
    from ssdlab import sweep as sweeps

    try:
        axes = optimizer.parse_axes(axis)
        if rounds < 0:
            raise optimizer.SweepError(f"--rounds {rounds}: must be 0 or more")
        sweeps.check_scheduler(scheduler)
        outputs.check_folder("--out", out)
        with _sweep_progress(not quiet and error_console.is_terminal) as bar:
            task = bar.add_task("sweep", total=None, last="")
            result = optimizer.optimize_sweep(
                base,
                axes,
                objective,
                out / "points",
                common=set_ or [],
                maximize=not minimize,
                rounds=rounds,
                scheduler=scheduler,
                workers=workers,
                progress=_sweep_reporter(bar, task),
            )
        try:
            paths = optimizer.write_search(result, out, objective, axes)
        except Exception as error:
            # The points are stored under --out/points (a rerun reads them back); the table is saved elsewhere.
            saved = outputs.rescue(json.dumps(result.rows(), indent=2) + "\n", "search.json")
            raise outputs.OutputFailed(outputs.failed_message(out, error, saved, "the search's table and surface")) from None
    except BaseException as error:
        _fail(error)
        return
    if result.best is None:
        error_console.print("[red]no point of the search gave a value[/red]")
        raise typer.Exit(1)
    if not quiet:
        point = ", ".join(f"{key}={value:g}" for key, value in result.best.point.items())
        console.print(
            f"best {objective} = {result.best.value:.6g} at {point} ({len(result.history)} points evaluated); surface: {paths.get('surface', '-')}"
        )


def _recipe_command(recipe: Any) -> Any:
    """The ``ssdlab reproduce NAME`` command of a registered recipe: the options every recipe shares
    (defined here once: --out, --trace, --workloads, --scale where the recipe scales, --scheduler,
    --workers, --quiet) and the recipe's own (``recipe.options``)."""
    import inspect

    keyword = inspect.Parameter.KEYWORD_ONLY
    names = ", ".join(recipe.trace_names())
    shared = [
        (
            "out",
            Annotated[Path, typer.Option("--out", help="Output folder: results, figures, report, headlines.json.")],
            recipe.default_out(),
        ),
        (
            "trace",
            Annotated[
                list[str] | None,
                typer.Option("--trace", help=f"Use a full trace for a workload: NAME=PATH ({names}); repeatable."),
            ],
            None,
        ),
        (
            "workloads",
            Annotated[
                str | None,
                typer.Option(
                    "--workloads", help=f"Comma-separated subset of the workloads (default: {', '.join(recipe.workload_names())})."
                ),
            ],
            None,
        ),
    ]
    if recipe.scale_help is not None:
        shared.append(("scale", Annotated[float, typer.Option("--scale", help=recipe.scale_help)], 1.0))
    own = [
        (option.param, Annotated[option.type, typer.Option(*option.flags, help=option.help)], option.default) for option in recipe.options
    ]
    shared += own + [
        ("scheduler", Annotated[str | None, typer.Option("--scheduler", help="Run the grid on this Dask distributed scheduler.")], None),
        (
            "workers",
            Annotated[int | None, typer.Option("--workers", min=1, help="Local processes, at least 1 (default: CPU cores).")],
            None,
        ),
        ("quiet", Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")], False),
    ]

    def command(**values: Any) -> None:
        from ssdlab.reproduce.base import trace_options

        def run(progress):
            traces = trace_options(values["trace"] or [], recipe.trace_names())
            text = values["workloads"]
            only = [name.strip() for name in text.split(",") if name.strip()] if text else None
            options = {o.param: (o.convert(values[o.param]) if o.convert else values[o.param]) for o in recipe.options}
            return recipe.reproduce(
                values["out"],
                workloads=only,
                traces=traces,
                scale=values.get("scale", 1.0),
                scheduler=values["scheduler"],
                workers=values["workers"],
                progress=progress,
                **options,
            )

        _run_reproduction(run, values["quiet"], values["out"])

    command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(name, keyword, annotation=annotation, default=default) for name, annotation, default in shared]
    )
    command.__doc__ = recipe.help
    single = typer.Typer(add_completion=False, rich_markup_mode=None)
    single.command(recipe.name)(command)
    return typer.main.get_command(single)


def _run_reproduction(run, quiet: bool, out: Path) -> None:
    """Runs a recipe under a progress bar, prints its table and report path; exit 1 if a point failed
    (said on stderr even with --quiet)."""
    try:
        with _sweep_progress(not quiet and error_console.is_terminal) as bar:
            task = bar.add_task("sweep", total=None, last="")
            report = run(_sweep_reporter(bar, task))
    except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
        _fail(error)
        return
    except OSError as error:
        # Inputs and --out are checked before the first run, so this is a write after runs (a full
        # disk): every point run so far is stored under --out, and a rerun there reuses them.
        _fail(
            outputs.OutputFailed(
                f"{out}: cannot write the recipe's output: {error}; the points run so far are stored there and a rerun with the same --out reuses them"
            )
        )
        return
    except BaseException as error:
        _fail(error)
        return
    if report.failed:
        error_console.print(
            f"[red]error:[/red] {report.failed} point(s) failed; their errors are in the point tables under {rich.markup.escape(str(report.out_dir))}",
            highlight=False,
        )
    if not quiet:
        console.print(report.summary_markdown())
        from ssdlab.reproduce.base import summary

        console.print(f"headlines: {summary(report.headlines)['sentence']} ({report.out_dir / 'headlines.json'})", highlight=False)
        console.print(f"[dim]report: {report.report_path}[/dim]")
    if report.failed:
        raise typer.Exit(1)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        error_console.print("[red]interrupted[/red]")
        sys.exit(130)
    except outputs.OutputFailed as error:
        # A write after the work (outside a command's own error handling) failed; the result was saved elsewhere.
        error_console.print("[red]error:[/red] " + rich.markup.escape(str(error)), highlight=False)
        sys.exit(1)
    except BrokenPipeError:
        # The reader (`| head`) stopped reading: no traceback; stdout is pointed at /dev/null so the
        # interpreter's final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":
    main()
