"""Report templates: each recipe's report prose as Jinja2 text (``<recipe>.md.j2`` beside this file),
filled from the values the recipe computed, so no number is typed into a sentence.

``render(name, **values)`` fills ``name`` (a file in this folder). Undefined names are errors (a
template that names a value the recipe did not pass fails loudly instead of printing nothing). Blocks
(``{% ... %}``) swallow their own line, so a template reads like the Markdown it writes. The filters
are the report's one way of writing numbers: ``fmt(kind)`` (``report.fmt``: ``pct``, ``share``,
``ratio``, ``times``, ``int``, ``us``, ``sig``), plus ``table`` for rows already formatted as a Markdown
table (it only strips the trailing newline). A recipe adds its own filters with ``filters=``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

FOLDER = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    from ssdlab.reproduce.report import fmt

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(FOLDER)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    environment.filters["fmt"] = fmt
    environment.filters["table"] = lambda text: str(text).rstrip("\n")
    return environment


def render(name: str, filters: Mapping[str, Callable[..., Any]] | None = None, **values: Any) -> str:
    """The template ``name`` filled with ``values`` (see the module); ``filters`` adds recipe-specific
    filters for this call only."""
    environment = _environment()
    if filters:
        environment = environment.overlay()
        environment.filters.update(filters)
    return environment.get_template(name).render(**values)
