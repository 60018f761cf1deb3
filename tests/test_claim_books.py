"""Claim books (``ssdlab.reproduce.claims``): every shipped book loads, and a malformed one is refused
with its file and entry named."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssdlab.reproduce import claims
from ssdlab.reproduce.claims import ClaimBookError, parse


@pytest.mark.parametrize("path", sorted(claims.FOLDER.glob("*.toml")), ids=lambda p: p.stem)
def test_every_shipped_claim_book_loads(path: Path) -> None:
    book = claims.load(path.stem)
    keys = [claim.key for claim in book.claims]
    assert len(keys) == len(set(keys)), f"{path.name}: duplicate claim keys"
    for fit in book.fits:
        for key in fit.claims:
            assert book.claim(key).calibrated, f"{path.name}: fit names {key}, which is not graded calibrated"


def _book(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_texts_resolve_in_order_and_claims_take_seed_values_and_quotes(tmp_path: Path) -> None:
    book = parse(
        _book(
            tmp_path,
            """
[texts]
wear = "at 1,500 P/E"
reading = "the largest ratio, {wear}"
[seed]
gain = 1.8
[sentences.fig6]
original = ["一文。", ["二つに", "割れた文。"]]
gloss = "One sentence. A broken one."
[[claims]]
key = "fig6"
figure = "Fig. 6"
paper = "seed:gain"
unit = "x"
kind = "times"
quote = "sentences:fig6"
reading = "{reading}"
""",
        )
    )
    claim = book.claim("fig6")
    assert claim.paper == 1.8
    assert claim.reading == "the largest ratio, at 1,500 P/E"
    assert claim.quote == "一文。 … 二つに割れた文。 (One sentence. A broken one.)"


def test_a_claims_quote_from_the_quotes_table_joins_its_sentences_with_gloss_and_note(tmp_path: Path) -> None:
    book = parse(
        _book(
            tmp_path,
            """
quote_separator = " / "
[sentences.english]
original = ["As written."]
gloss = ""
[sentences.japanese]
original = ["書いた。"]
gloss = "Written."
note = "ssdlab reads it as the fresh drive"
[quotes]
one = "english"
both = ["english", "japanese"]
[[claims]]
key = "one"
figure = "f"
paper = 1.0
unit = "x"
[[claims]]
key = "both"
figure = "f"
paper = 1.0
unit = "x"
""",
        )
    )
    assert book.claim("one").quote == "As written."
    japanese = "書いた。 (Written.) [ssdlab's reading, not the seed's text: ssdlab reads it as the fresh drive]"
    assert book.claim("both").quote == f"As written. / {japanese}"
    assert book.quote("japanese", "english") == f"{japanese} / As written."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[texts]\na = "{b}"\nb = "x"\n', "[texts].a: names text 'b'"),
        ('[[claims]]\nkey = "k"\nfigure = "f"\npaper = "seed:nope"\nunit = "x"\n', "claim k: paper names [seed].nope"),
        ('[[claims]]\nkey = "k"\nfigure = "f"\npaper = 1.0\nunit = "x"\nwhat = 1\n', "claim k: unknown field(s) what"),
        ('[sentences.s]\noriginal = ["a"]\n', "[sentences.s]: needs a gloss"),
        ("[texts\n", "mine.toml:"),
        ('[sentences.s]\noriginal = ["a"]\ngloss = ""\n[quotes]\nk = ["t"]\n', "[quotes].k names [sentences.t]"),
        ('[sentences.s]\noriginal = ["a"]\ngloss = ""\n[quotes]\nk = "s"\n', "[quotes] names k, not a claim"),
        ("quote_separator = 1\n", "quote_separator must be a string"),
    ],
)
def test_malformed_books_name_file_and_entry(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ClaimBookError, match=None) as caught:
        parse(_book(tmp_path, text))
    assert message in str(caught.value)
    assert "mine.toml" in str(caught.value)
