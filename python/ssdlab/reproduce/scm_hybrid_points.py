"""Seed 001 (``scm_hybrid``): a sweep point as a typed record, how a table row of one is found, and how
a rendered section joins the report.

Every run of the recipe is a ``Point`` (study, workload, SSD, the study's axis value, TSV on or off);
the sweep knows it by its ``label`` (``study|workload|ssd|value|tsv``, the name its stored result is
kept under, so a rerun finds it), and a sweep row's label is read back with ``Point.parse``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ssdlab.reproduce.claims import load

# The NAND page of both presets (16 KB, the seed's): the unit a write is fragmented against.
PAGE_BYTES = 16384
# The data the drive holds: seed 003's 0.53 GB for Financial1 (seed 001 gives none), beside its quote in
# the claim book (claims/scm_hybrid.toml, ``[borrowed.data_003]``).
DATA_BYTES = load("scm_hybrid").extra["borrowed"]["data_003"]["data_bytes"]


class Point(NamedTuple):
    study: str
    workload: str
    ssd: str
    value: Any
    tsv: bool = False

    @property
    def label(self) -> str:
        # The value as the sweeps first spelled it (``str`` of the int or float): stored runs keep their names.
        return "|".join(map(str, self))

    @classmethod
    def parse(cls, label: str) -> Point:
        study, workload, ssd, value, tsv = label.split("|")
        return cls(study, workload, ssd, float(value), tsv == "True")


def labelled(cases: Mapping[Point, list[str]]) -> dict[str, list[str]]:
    """Points as the sweep's cases: {label: overrides}."""
    return {point.label: overrides for point, overrides in cases.items()}


def find(rows: Sequence[Mapping[str, Any]], **match: Any) -> Mapping[str, Any] | None:
    """The first row that ran (has a write throughput) and matches every ``key=value``."""
    for row in rows:
        if all(row.get(key) == value for key, value in match.items()) and "write_mbps" in row:
            return row
    return None


def lines_of(text: str) -> str:
    """A rendered section (every line ended by a newline) as the report joins its parts: its lines joined
    by newlines, the last line's newline dropped."""
    return text[:-1] if text.endswith("\n") else text
