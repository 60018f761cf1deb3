"""Claim books: what each recipe grades, as data (``<recipe>.toml`` beside this file).

A recipe's claims are the seed's numbers, the sentences they are read from and the reading each is
measured under; none of that is computed, so it lives here as data instead of Python literals, and a
reviewer reads one file per seed. ``load(name)`` parses ``name.toml`` once and returns a
``ClaimBook``:

- ``[texts]``: named texts (reading clauses, fit notes) a claim or the recipe reuses. A text may name
  another as ``{other}``; names are resolved in file order, so a text names only those above it.
  A literal brace is written ``{{`` or ``}}``.
- ``[seed]``: the seed's numbers by name.
- ``[sentences.<key>]``: ``original`` (a list; an item that is itself a list is one sentence the text
  copy breaks across a page or figure, its pieces joined without a space), ``gloss`` (the English
  reading; empty for a seed in English), optionally ``note`` (ssdlab's reading of it, shown labelled as
  such), and any other fields the recipe wants (kept in ``extra``). A sentence's quote is the originals
  joined by " … ", then the gloss in parentheses (when there is one), then the note in brackets.
- ``[quotes]``: for each claim key, the sentence key (or list of keys) its quote is made of, joined by
  ``quote_separator`` (a top-level string, " … " unless given). ``quote(*keys)`` makes the same from
  any keys.
- ``[[claims]]``: the fields of ``base.Claim``; ``paper`` may name a ``[seed]`` entry as
  ``"seed:<name>"``, ``quote`` a sentence as ``"sentences:<key>"`` (or the claim's ``[quotes]`` entry
  gives it), and every other string field may use ``{text}`` references.
- ``[[fits]]``: the fields of ``base.Fit``.

Anything else in the file is kept in ``extra`` for the recipe's own use. Errors name the file and the
entry (a claim's key, a text's name), never a bare ``KeyError``."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ssdlab.reproduce.base import Claim, Fit

FOLDER = Path(__file__).resolve().parent
_CLAIM_FIELDS = {f.name for f in dataclasses.fields(Claim)}
_FIT_FIELDS = {f.name for f in dataclasses.fields(Fit)}
_KNOWN_SECTIONS = ("texts", "seed", "sentences", "quotes", "quote_separator", "claims", "fits")
DEFAULT_SEPARATOR = " … "


class ClaimBookError(ValueError):
    """A claim book that cannot be read: names the file and the entry."""


@dataclass(frozen=True)
class Sentences:
    """The seed's sentences for one key: the originals (a tuple item is one sentence broken across a
    page, its pieces in order), the gloss, and the recipe's own fields."""

    original: tuple[str | tuple[str, ...], ...]
    gloss: str
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def joined(self) -> tuple[str, ...]:
        """Each original sentence whole (a broken one's pieces joined)."""
        return tuple("".join(s) if isinstance(s, tuple) else s for s in self.original)

    @property
    def quote(self) -> str:
        text = " … ".join(self.joined)
        if self.gloss:
            text += f" ({self.gloss})"
        note = self.extra.get("note")
        if note:
            text += f" [ssdlab's reading, not the seed's text: {note}]"
        return text


@dataclass(frozen=True)
class ClaimBook:
    """One recipe's claim book (see the module)."""

    path: Path
    texts: Mapping[str, str]
    seed: Mapping[str, Any]
    sentences: Mapping[str, Sentences]
    claims: tuple[Claim, ...]
    fits: tuple[Fit, ...]
    extra: Mapping[str, Any]
    quote_separator: str = DEFAULT_SEPARATOR

    def quote(self, *keys: str) -> str:
        """The seed's sentences ``keys`` as one quote (each as the module says, joined by the book's
        ``quote_separator``)."""
        try:
            return self.quote_separator.join(self.sentences[key].quote for key in keys)
        except KeyError as error:
            raise ClaimBookError(f"{self.path.name}: no [sentences.{error.args[0]}]") from None

    def claim(self, key: str) -> Claim:
        for claim in self.claims:
            if claim.key == key:
                return claim
        raise ClaimBookError(f"{self.path.name}: no claim with key {key!r}")


def _format(text: str, texts: Mapping[str, str], where: str) -> str:
    try:
        return text.format_map(texts)
    except KeyError as error:
        raise ClaimBookError(f"{where}: names text {error.args[0]!r}, not defined above it in [texts]") from None
    except (ValueError, IndexError) as error:
        raise ClaimBookError(f"{where}: {error} (write a literal brace as {{{{ or }}}})") from None


def _original(items: Any, where: str) -> tuple[str | tuple[str, ...], ...]:
    if not isinstance(items, list) or not items:
        raise ClaimBookError(f"{where}.original: a non-empty list of sentences")
    sentences: list[str | tuple[str, ...]] = []
    for item in items:
        if isinstance(item, str):
            sentences.append(item)
        elif isinstance(item, list) and item and all(isinstance(piece, str) for piece in item):
            sentences.append(tuple(item))
        else:
            raise ClaimBookError(f"{where}.original: each item a sentence or a list of its pieces, not {item!r}")
    return tuple(sentences)


def parse(path: Path) -> ClaimBook:
    """Parses the claim book at ``path`` (see the module)."""
    name = path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ClaimBookError(f"{name}: {error}") from None
    texts: dict[str, str] = {}
    for key, text in data.get("texts", {}).items():
        if not isinstance(text, str):
            raise ClaimBookError(f"{name}: [texts].{key} must be a string")
        texts[key] = _format(text, texts, f"{name}: [texts].{key}")
    seed = dict(data.get("seed", {}))
    sentences: dict[str, Sentences] = {}
    for key, entry in data.get("sentences", {}).items():
        where = f"{name}: [sentences.{key}]"
        if "gloss" not in entry:
            raise ClaimBookError(f"{where}: needs a gloss")
        extra = {k: v for k, v in entry.items() if k not in ("original", "gloss")}
        sentences[key] = Sentences(_original(entry.get("original"), where), _format(entry["gloss"], texts, where), extra)
    separator = data.get("quote_separator", DEFAULT_SEPARATOR)
    if not isinstance(separator, str):
        raise ClaimBookError(f"{name}: quote_separator must be a string")
    quotes: dict[str, tuple[str, ...]] = {}
    for key, keys in data.get("quotes", {}).items():
        keys = (keys,) if isinstance(keys, str) else keys
        if not isinstance(keys, list | tuple) or not keys or not all(isinstance(k, str) for k in keys):
            raise ClaimBookError(f"{name}: [quotes].{key}: a sentence key or a non-empty list of them")
        missing = [k for k in keys if k not in sentences]
        if missing:
            raise ClaimBookError(f"{name}: [quotes].{key} names [sentences.{missing[0]}], which is not there")
        quotes[key] = tuple(keys)
    claims: list[Claim] = []
    for index, entry in enumerate(data.get("claims", [])):
        key = entry.get("key", f"#{index + 1}")
        where = f"{name}: claim {key}"
        unknown = set(entry) - _CLAIM_FIELDS
        if unknown:
            raise ClaimBookError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        values = dict(entry)
        paper = values.get("paper")
        if isinstance(paper, str) and paper.startswith("seed:"):
            seed_key = paper.removeprefix("seed:")
            if seed_key not in seed:
                raise ClaimBookError(f"{where}: paper names [seed].{seed_key}, which is not there")
            values["paper"] = seed[seed_key]
        quote = values.get("quote")
        if isinstance(quote, str) and quote.startswith("sentences:"):
            sentence_key = quote.removeprefix("sentences:")
            if sentence_key not in sentences:
                raise ClaimBookError(f"{where}: quote names [sentences.{sentence_key}], which is not there")
            values["quote"] = sentences[sentence_key].quote
        elif quote is None and key in quotes:
            values["quote"] = separator.join(sentences[k].quote for k in quotes[key])
        for field_name in ("figure", "reading", "calibrated", "unit"):
            if isinstance(values.get(field_name), str):
                values[field_name] = _format(values[field_name], texts, f"{where}.{field_name}")
        try:
            claims.append(Claim(**values))
        except (TypeError, ValueError) as error:
            raise ClaimBookError(f"{where}: {error}") from None
    fits: list[Fit] = []
    for index, entry in enumerate(data.get("fits", [])):
        where = f"{name}: fit #{index + 1}"
        unknown = set(entry) - _FIT_FIELDS
        if unknown:
            raise ClaimBookError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        values = {k: _format(v, texts, f"{where}.{k}") if isinstance(v, str) else v for k, v in entry.items()}
        values["claims"] = tuple(values.get("claims", ()))
        fits.append(Fit(**values))
    extra = {k: v for k, v in data.items() if k not in _KNOWN_SECTIONS}
    unquoted = set(quotes) - {claim.key for claim in claims}
    if unquoted:
        raise ClaimBookError(f"{name}: [quotes] names {', '.join(sorted(unquoted))}, not a claim of the book")
    return ClaimBook(path, texts, seed, sentences, tuple(claims), tuple(fits), extra, separator)


@cache
def load(name: str) -> ClaimBook:
    """The claim book ``name`` (``<name>.toml`` in this folder)."""
    path = FOLDER / f"{name}.toml"
    if not path.is_file():
        raise ClaimBookError(f"no claim book {name!r} ({path})")
    return parse(path)
