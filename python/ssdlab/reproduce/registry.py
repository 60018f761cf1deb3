"""The recipe registry: every ``ssdlab reproduce`` subcommand, by name. ``RECIPES`` maps a subcommand
to its ``Recipe`` (``ssdlab.reproduce.base``); a recipe's module is imported when it is first looked up,
so the command line starts without importing the five."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

# Subcommand -> module defining ``RECIPE``, in the order ``ssdlab reproduce --help`` lists them.
MODULES: dict[str, str] = {
    "lba-scrambler": "ssdlab.reproduce.lba_scrambler",
    "ldpc-read": "ssdlab.reproduce.ldpc_read",
    "aoa-ecc": "ssdlab.reproduce.aoa_ecc",
    "tlc-mlc": "ssdlab.reproduce.tlc_mlc",
    "scm-hybrid": "ssdlab.reproduce.scm_hybrid",
}


class _Registry(Mapping[str, Any]):
    """Name -> Recipe, importing each recipe's module on first access."""

    def __getitem__(self, name: str) -> Any:
        module = MODULES[name]
        recipe = importlib.import_module(module).RECIPE
        if recipe.name != name:
            raise RuntimeError(f"{module}: RECIPE.name is {recipe.name!r}, registered as {name!r}")
        return recipe

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


RECIPES: Mapping[str, Any] = _Registry()
