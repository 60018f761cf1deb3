"""The report templates (``ssdlab/reproduce/templates``): every shipped template parses (its syntax;
the filters a recipe adds with ``render(filters=...)`` are checked when the recipe renders it),
undefined values are errors, and the number filters are ``report.fmt``."""

from __future__ import annotations

import jinja2
import pytest

from ssdlab.reproduce import templates
from ssdlab.reproduce.templates import FOLDER, render


def shipped() -> list[str]:
    return sorted(str(path.relative_to(FOLDER)) for path in FOLDER.rglob("*.j2"))


@pytest.mark.parametrize("name", shipped() or ["(none shipped)"])
def test_every_shipped_template_parses(name: str) -> None:
    if name == "(none shipped)":
        pytest.skip("no template shipped yet")
    environment = templates._environment()
    source = (FOLDER / name).read_text(encoding="utf-8")
    environment.parse(source, name=name, filename=str(FOLDER / name))


def test_undefined_value_is_an_error(tmp_path, monkeypatch) -> None:
    (tmp_path / "probe.md.j2").write_text("{% if shown %}\nshare {{ share | fmt('share') }}\n{% endif %}\ndone\n")
    monkeypatch.setattr(templates, "FOLDER", tmp_path)
    templates._environment.cache_clear()
    try:
        assert render("probe.md.j2", shown=True, share=0.25) == "share 25.0 %\ndone\n"
        assert render("probe.md.j2", shown=False) == "done\n"
        with pytest.raises(jinja2.UndefinedError):
            render("probe.md.j2", shown=True)
        assert render("probe.md.j2", filters={"fmt": lambda value, kind: "x"}, shown=True, share=1) == "share x\ndone\n"
    finally:
        templates._environment.cache_clear()
