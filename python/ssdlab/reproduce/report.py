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
    readings: list[Any] = field(default_factory=list)

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
    'Verdicts, one rule for every recipe (`ssdlab.reproduce.base.verdict`), on **gains**: a ratio claim ("N x") is compared as '
    "its gain N - 1, a change (+56 %, -36 %) as it stands, a quantity (MB/s, s, W, a share) relative to the paper's value. "
    "**reproduced**: within 30 % of the paper's gain (or value) and on its side, or the paper's bound holds; **direction only**: "
    "a gain on the paper's side but not within 30 %, or any comparison one of whose sides is degenerate; **not reproduced**: "
    "anything else, a quantity outside 30 % or no result; **regime shown**: a qualitative claim shown across the axis that "
    "decides it; **calibrated**: the model or the reading was fitted to this number; **arithmetic**: it follows from the "
    "seed's own constants. Calibrated and arithmetic figures are never counted as reproduced. Each claim is graded under one "
    'reading, the one the seed\'s quoted sentence supports; other readings are listed under "Readings" and never counted.'
)

DEGENERATE_RULE = (
    "A side of a comparison is **degenerate** when its write amplification is above {wa:g}, host writes are held over "
    "{held:.0f} % of the run (mean over planes), a block is erased past the rated endurance, its window did not settle, or it simulates over "
    "{span:g}x the trace's span. Its size then measures a collapsed drive, not the technique: the verdict is at most "
    '"direction only" and no "best case" or "up to" headline rests on it.'
)


def counts_line(headlines: Sequence[Any]) -> str:
    """The report's first line of results: the verdict counts (``base.summary``)."""
    from ssdlab.reproduce.base import summary

    return f"**{summary(headlines)['sentence']}.**"


def _health_cell(headline: Any) -> str:
    if not headline.health:
        return ""
    parts = []
    for h in headline.health:
        bits = []
        if h.mbps is not None:
            bits.append(f"{fmt(h.mbps, 'sig')} MB/s")
        if h.write_amplification is not None:
            bits.append(f"WA {h.write_amplification:.2f}")
        if h.held_fraction is not None:
            bits.append(f"held {100 * h.held_fraction:.1f} %")
        if h.erase_max is not None and h.endurance:
            bits.append(f"erases {h.erase_max:,.0f}/{h.endurance:,.0f}")
        if h.settled is not None:
            bits.append("settled" if h.settled else "NOT settled")
        if h.simulated_seconds is not None and h.span_seconds:
            bits.append(
                f"{fmt(h.simulated_seconds, 'sig')} s simulated, {fmt(h.simulated_seconds / h.span_seconds, 'sig')}x the trace's span"
            )
        flag = " **DEGENERATE**" if h.degenerate else ""
        parts.append(f"{h.side}: {', '.join(bits)}{flag}")
    return "; ".join(parts)


def headline_section(headlines: Sequence[Any], readings: Sequence[Any] = (), *, counts: bool = True) -> str:
    """The report's "Seed vs ssdlab" section, made from the recipe's headlines: the counts, the table
    (values as printed and the two gains), the readings each claim was graded under (with the seed's
    sentence), both sides' health where a claim is a comparison, and the other readings (never counted)."""
    from ssdlab.reproduce.base import DEGENERATE_HELD_FRACTION, DEGENERATE_SPAN_FACTOR, DEGENERATE_WRITE_AMPLIFICATION

    def gain_cell(value: float | None) -> str:
        return "" if value is None else f"{100 * value:+.1f} %"

    table = markdown_grid(
        ["figure", "seed", "ssdlab", "unit", "seed gain", "ssdlab gain", "verdict", "note"],
        [
            [
                h.figure,
                h.paper_text,
                h.ours_text,
                h.unit,
                gain_cell(h.paper_gain),
                gain_cell(h.ours_gain),
                h.verdict + (" (degenerate side)" if h.degenerate else ""),
                h.note,
            ]
            for h in headlines
        ],
    )
    opening = f"{counts_line(headlines)}\n\n" if counts else ""
    parts = [f"## Seed vs ssdlab\n\n{opening}{table}\n\n{VERDICT_RULE}\n"]
    quoted = [h for h in headlines if h.quote or h.calibrated]
    if quoted:
        rows = [[h.figure, h.reading or "", f'"{h.quote}"' if h.quote else "", h.calibrated] for h in quoted]
        parts.append(
            "### The reading each claim is graded under\n\n"
            + markdown_grid(["figure", "reading", "the seed's text", "calibrated"], rows)
            + "\n"
        )
    compared = [h for h in headlines if h.health]
    if compared:
        rows = [[h.figure, _health_cell(h), h.verdict] for h in compared]
        rule = DEGENERATE_RULE.format(wa=DEGENERATE_WRITE_AMPLIFICATION, held=100 * DEGENERATE_HELD_FRACTION, span=DEGENERATE_SPAN_FACTOR)
        parts.append("### Both sides of each comparison\n\n" + markdown_grid(["figure", "sides", "verdict"], rows) + f"\n\n{rule}\n")
    if readings:
        rows = [
            [
                r.claim,
                r.name,
                r.value_text or fmt(r.value, "sig"),
                r.assumes,
                ("yes" if r.supported else "no") + (" (adopted because it matched)" if r.matched else ""),
                r.why,
            ]
            for r in readings
        ]
        parts.append(
            "### Readings (shown, never counted)\n\n"
            + markdown_grid(["claim", "reading", "value", "what it assumes", "the seed's text supports it", "why"], rows)
            + "\n"
        )
    return "\n".join(parts)


def write_headlines(headlines: Sequence[Any], out: Path, *, recipe: str = "", seed: str = "", readings: Sequence[Any] = ()) -> Path:
    """``headlines.json``: the verdict counts (``summary``), the recipe's headlines, one object each
    (key, figure, paper, ours, unit, form, the two gains, verdict, rule, note, the seed's sentence,
    reading, calibration, both sides' health, and the two values as the report prints them), and the
    other readings (never counted)."""
    import json

    from ssdlab.reproduce.base import summary

    path = out / "headlines.json"
    document = {
        "recipe": recipe,
        "seed": seed,
        "summary": summary(headlines),
        "headlines": [h.as_dict() for h in headlines],
        "readings": [r.as_dict() for r in readings],
    }
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_headlines(folder: Path) -> dict[str, Any]:
    """A recipe folder's ``headlines.json`` (``write_headlines``'s document); a missing or unreadable
    file is an error naming it."""
    import json

    path = Path(folder) / "headlines.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no headlines.json (run `ssdlab reproduce RECIPE --out {folder}` first)")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: not a headlines.json: {error}") from error
    if not isinstance(document, dict) or not isinstance(document.get("headlines"), list):
        raise ValueError(f"{path}: not a headlines.json of this version (no 'headlines' list); rerun the recipe into {folder}")
    return document


def _with_headlines(report_text: str, headlines: Sequence[Any], readings: Sequence[Any] = ()) -> str:
    """The report with the counts line right under its title paragraph and the headline section
    before its first second-level heading."""
    # The counts open the report (under its title when it has one), once.
    titled = report_text.startswith("# ")
    section = headline_section(headlines, readings, counts=not titled)
    if titled:
        title, _, rest = report_text.partition("\n")
        report_text = f"{title}\n\n{counts_line(headlines)}\n{rest}"
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
    readings: Sequence[Any] = (),
    recipe: str = "",
    seed: str = "",
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
    write_headlines(headlines, out, recipe=recipe, seed=seed, readings=readings)
    report_path = out / "report.md"
    report_path.write_text(_with_headlines(report_text, headlines, readings), encoding="utf-8")
    return Reproduction(
        out_dir=out,
        report_path=report_path,
        table=list(tables[main]),
        summary=summary,
        figures=figures,
        failed=sum(outcome.failed for outcome in outcomes),
        wall_seconds=sum(outcome.wall_seconds for outcome in outcomes),
        headlines=list(headlines),
        readings=list(readings),
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
