"""The recipe base: what every reproduction recipe does the same way. A recipe plans its workloads
(user traces given as NAME=PATH: ``parse_trace_options``), runs its sweeps (``ssdlab.sweep``), turns
their rows into tables, draws figures (``ssdlab.plotting``), and ends with ``finish``: the tables as
Parquet and CSV, ``report.md`` opened by the ``provenance`` paragraph, and the ``Reproduction`` it
returns, with the "Seed vs ssdlab" table and ``headlines.json`` made from the recipe's headlines
(``ssdlab.reproduce.base``). ``fmt`` formats a cell; ``markdown_table`` (rows of mappings) and
``markdown_grid`` (cells already formatted) are the one way a report's tables are written. What is left
to a recipe is what is its own: which points, which rows, which figures, and what the report says
about them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Reproduction:
    """What a recipe leaves behind: its folder, report, per-case table (and that table as Markdown),
    figures, and how the sweep went."""

    out_dir: Path
    report_path: Path
    table: list[dict[str, Any]]
    summary: str
    figures: dict[str, Path]
    failed: int
    wall_seconds: float
    headlines: list[Any] = field(default_factory=list)

    def summary_markdown(self) -> str:
        return self.summary


def parse_trace_options(items: Sequence[str], workload_names: Sequence[str]) -> dict[str, Path]:
    """``--trace NAME=PATH`` options: the user's full trace for a workload of the recipe (name matched
    without case), as {workload name: resolved path}."""
    from ssdlab.sweep import SweepError

    names = {name.lower(): name for name in workload_names}
    traces: dict[str, Path] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not path:
            raise SweepError(f"--trace {item!r}: expected NAME=PATH with NAME one of {', '.join(names.values())}")
        key = names.get(name.strip().lower())
        if key is None:
            raise SweepError(f"--trace {item!r}: unknown workload {name!r}; expected one of {', '.join(names.values())}")
        file = Path(path).expanduser()
        if not file.is_file():
            raise FileNotFoundError(f"--trace {item!r}: {file}: no such trace file")
        traces[key] = file.resolve()
    return traces


def selected(workloads: Sequence[Any], only: Sequence[str] | None) -> list[Any]:
    """The recipe's workloads (objects with a ``name``) that ``--workloads`` keeps (all without it); an
    unknown name is an error naming the known ones."""
    from ssdlab.sweep import SweepError

    unknown = set(only or ()) - {w.name for w in workloads}
    if unknown:
        raise SweepError(f"--workloads: unknown {', '.join(sorted(unknown))}; expected some of {', '.join(w.name for w in workloads)}")
    return [w for w in workloads if not only or w.name in only]


def workload_trace(name: str, sample: str | None, traces: Mapping[str, Path]) -> Path:
    """The trace a workload replays: the user's (``--trace NAME=PATH``) or the real sample in
    ../shared/traces; a missing sample is an error that says where it was looked for and what to do."""
    from ssdlab.locations import shared_dir, shared_trace

    path = traces.get(name) or shared_trace(sample or "")
    if path is None:
        where = shared_dir()
        raise FileNotFoundError(
            f"{name}: the real sample {sample} is not in {where / 'traces' if where else '../shared/traces'}; "
            f"put ../shared beside the checkout (or set SSDLAB_SHARED_DIR), or pass --trace {name}=PATH"
        )
    return path


def fmt(value: Any, kind: str) -> str:
    """A table cell: ``pct`` signed percent of a fraction, ``share`` unsigned percent, ``ratio`` three
    decimals, ``times`` three decimals with an x, ``int`` thousands-separated, ``us`` one decimal with
    separators, ``sig`` two decimals, or three significant digits below 1, anything else one decimal; None is "n/a"."""
    if value is None:
        return "n/a"
    if kind == "pct":
        return f"{100 * value:+.1f} %"
    if kind == "share":
        return f"{100 * value:.1f} %"
    if kind == "ratio":
        return f"{value:.3f}"
    if kind == "times":
        return f"{value:.3f}x"
    if kind == "int":
        return f"{value:,.0f}"
    if kind == "us":
        return f"{value:,.1f}"
    if kind == "sig":
        return f"{value:.2f}" if abs(value) >= 1 else f"{value:.3g}"
    return f"{value:.1f}"


def markdown_grid(headers: Sequence[str], rows: Sequence[Sequence[Any]], align: Sequence[str] | None = None) -> str:
    """A Markdown table of cells already formatted (``str()`` of each); ``align`` per column: ``l``,
    ``r``, ``c`` or ``""`` (the default, no alignment)."""
    marks = {"": "---", "l": ":---", "r": "---:", "c": ":---:"}
    rule = [marks[a] for a in (align or [""] * len(headers))]
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(rule) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(cell) for cell in row) + " |")
    return "\n".join(lines)


def markdown_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[tuple[str, Any, str]], align: Sequence[str] | None = None) -> str:
    """A Markdown table of ``rows``: one column per (header, key, ``fmt`` kind). The key is a row's key
    or a function of the row; kind ``text`` prints the value as it is (None as "n/a" for functions)."""

    def cell(row: Mapping[str, Any], key: Any, kind: str) -> str:
        value = key(row) if callable(key) else row.get(key, "")
        if kind == "text":
            return "n/a" if value is None and callable(key) else str(value)
        return fmt(value, kind)

    return markdown_grid([header for header, _, _ in columns], [[cell(row, key, kind) for _, key, kind in columns] for row in rows], align)


VERDICT_RULE = (
    "Verdicts, one rule for every recipe (`ssdlab.reproduce.base.verdict`): **reproduced** when ours is within 30 % of the "
    "paper's number (relative) and on its side, or satisfies the bound the paper states; **direction only** when it is not within 30 % but on "
    "the paper's side (a gain > 0, a ratio > 1, a cut < 0, as the claim says); **not reproduced** otherwise (or no result); "
    "**regime shown** for a qualitative claim where the recipe shows the regime in which it holds; **arithmetic** for a figure "
    "that follows from the seed's own formula with no simulation in it (never counted as reproduced). The same list is in "
    "`headlines.json`."
)


def headline_section(headlines: Sequence[Any]) -> str:
    """The report's "Seed vs ssdlab" section, made from the recipe's headlines."""
    table = markdown_grid(
        ["figure", "seed", "ssdlab", "unit", "verdict", "note"],
        [[h.figure, h.paper_text, h.ours_text, h.unit, h.verdict, h.note] for h in headlines],
    )
    return f"## Seed vs ssdlab\n\n{table}\n\n{VERDICT_RULE}\n"


def write_headlines(headlines: Sequence[Any], out: Path) -> Path:
    """``headlines.json``: the recipe's headlines, one object each (figure, paper, ours, unit, verdict,
    rule, note, and the two values as the report prints them)."""
    import json

    path = out / "headlines.json"
    path.write_text(json.dumps([h.as_dict() for h in headlines], indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _with_headlines(report_text: str, headlines: Sequence[Any]) -> str:
    """The report with the headline section before its first second-level heading."""
    section = headline_section(headlines)
    at = report_text.find("\n## ")
    if at < 0:
        return report_text.rstrip("\n") + "\n\n" + section
    return report_text[: at + 1] + section + "\n" + report_text[at + 1 :]


def finish(
    out: Path,
    *,
    tables: Mapping[str, Sequence[Mapping[str, Any]]],
    main: str,
    report_text: str,
    summary: str,
    figures: dict[str, Path],
    outcomes: Sequence[Any],
    headlines: Sequence[Any],
) -> Reproduction:
    """Ends a recipe: writes each non-empty table (``""`` into ``out`` itself, any other name into
    ``out/NAME``) as Parquet and CSV, the headlines as ``out/headlines.json`` and as the report's "Seed
    vs ssdlab" section (before its first section), the report as ``out/report.md``, and returns the
    Reproduction (``main`` names its per-case table; failures and wall time summed over the sweeps'
    outcomes)."""
    for name, rows in tables.items():
        if rows or name == main:
            write_table(rows, out / name if name else out)
    out.mkdir(parents=True, exist_ok=True)
    write_headlines(headlines, out)
    report_path = out / "report.md"
    report_path.write_text(_with_headlines(report_text, headlines), encoding="utf-8")
    return Reproduction(
        out_dir=out,
        report_path=report_path,
        table=list(tables[main]),
        summary=summary,
        figures=figures,
        failed=sum(outcome.failed for outcome in outcomes),
        wall_seconds=sum(outcome.wall_seconds for outcome in outcomes),
        headlines=list(headlines),
    )


def write_table(table: Sequence[Mapping[str, Any]], out: Path) -> None:
    """The recipe's per-case table as ``table.parquet`` and ``table.csv``."""
    import polars as pl

    out.mkdir(parents=True, exist_ok=True)
    frame = pl.DataFrame(list(table))
    frame.write_parquet(out / "table.parquet")
    frame.write_csv(out / "table.csv")


def combined(outcomes: Sequence[Any]) -> Any:
    """Several sweeps' outcomes as one for ``provenance``: runs and wall time summed, rows once per
    configuration (a point several sweeps share, e.g. a bisection's ends, counts once; those not run
    now were reused)."""
    from types import SimpleNamespace

    rows = {row.get("config_hash", str(index)): row for index, row in enumerate(row for outcome in outcomes for row in outcome.rows)}
    ran = sum(o.ran for o in outcomes)
    return SimpleNamespace(
        ran=ran,
        skipped=max(0, len(rows) - ran),
        failed=sum(1 for row in rows.values() if row.get("status") != "ok"),
        wall_seconds=sum(o.wall_seconds for o in outcomes),
        rows=list(rows.values()),
    )


def provenance(command: str, outcome: Any, scheduler: str | None) -> str:
    """The report's opening paragraph: what ran now, what was reused, where, and where the results are."""
    where = f"on the Dask scheduler {scheduler}" if scheduler else "in local processes"
    own = sum(r["point_seconds"] for r in outcome.rows)
    return (
        f"Generated by `{command}` ({outcome.ran} points run now, {outcome.skipped} reused from an earlier run of this folder,\n"
        f"{outcome.failed} failed; {outcome.wall_seconds:.0f} s of wall time {where} this time; the points' own run times add up to\n"
        f"{own:.0f} s). Every number below comes from these runs; the per-point results, each with its full configuration and hash,\n"
        "are in `sweep/results.parquet`."
    )
