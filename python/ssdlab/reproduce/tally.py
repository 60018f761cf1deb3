"""The verdict counts across recipe folders (``ssdlab reproduce summary OUT...``): one row per folder
from its ``headlines.json`` (the counts ``base.summary`` made when the recipe ran, recounted from the
headlines so that a hand-edited summary cannot disagree) and a total row."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ssdlab.reproduce.base import NOT_EVIDENCE, VERDICTS, summary_sentence
from ssdlab.reproduce.report import read_headlines

COLUMNS = ("reproduced", "direction only", "not reproduced", "calibrated or arithmetic", "regime shown", "claims")


def folder_row(folder: Path) -> dict[str, Any]:
    """One recipe folder's counts: recipe, seed, folder and the ``COLUMNS``."""
    document = read_headlines(folder)
    verdicts = [str(h.get("verdict")) for h in document["headlines"]]
    unknown = sorted(set(verdicts) - set(VERDICTS))
    if unknown:
        raise ValueError(f"{Path(folder) / 'headlines.json'}: unknown verdicts {', '.join(unknown)}")
    counts = {name: verdicts.count(name) for name in VERDICTS}
    return {
        "recipe": document.get("recipe") or Path(folder).name,
        "seed": document.get("seed", ""),
        "folder": str(folder),
        "reproduced": counts["reproduced"],
        "direction only": counts["direction only"],
        "not reproduced": counts["not reproduced"],
        "calibrated or arithmetic": sum(counts[name] for name in NOT_EVIDENCE),
        "regime shown": counts["regime shown"],
        "claims": len(verdicts),
        "_counts": counts,
    }


def tally(folders: Sequence[Path]) -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    """Each folder's row, the total row and the total's sentence ("N of M seed claims reproduced ...")."""
    rows = [folder_row(Path(folder)) for folder in folders]
    total: dict[str, Any] = {"recipe": "total", "seed": "", "folder": ""}
    for column in COLUMNS:
        total[column] = sum(row[column] for row in rows)
    counts = {name: sum(row["_counts"][name] for row in rows) for name in VERDICTS}
    return rows, total, summary_sentence(counts, total["claims"])
