"""The ECC lab from Python: frame-error-rate curves (seed 002 Fig. 3 and Fig. 10), raw bit error
rates of the NAND channel, and the decoder benchmark. Each call crosses into Rust once.

>>> from ssdlab import ecc
>>> result = ecc.curve("quick")                       # doctest: +SKIP
>>> result.summary_rows()                             # doctest: +SKIP
>>> result.write("out/ecc")                           # table (JSON + Parquet) and figures  # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ssdlab import _native

DEFAULT_SPEC = "seed002-fig3"


def shipped_spec_names() -> list[str]:
    return [name for name, _ in _native.ecc_shipped_specs()]


def default_cache_dir() -> Path:
    """Where curve tables are cached: $SSDLAB_CACHE_DIR/ecc, else $XDG_CACHE_HOME/ssdlab/ecc, else ~/.cache/ssdlab/ecc."""
    if os.environ.get("SSDLAB_CACHE_DIR"):
        return Path(os.environ["SSDLAB_CACHE_DIR"]) / "ecc"
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ssdlab" / "ecc"


def _spec_text(spec: str | Path) -> tuple[str, str]:
    """(TOML text, origin) of a shipped spec name or a spec file."""
    shipped = dict(_native.ecc_shipped_specs())
    if isinstance(spec, str) and spec in shipped:
        return shipped[spec], f"<shipped spec {spec}>"
    path = Path(spec).expanduser()
    if not path.exists():
        raise _native.ConfigurationError(f"{spec}: no such spec file and no shipped spec of that name; shipped specs: {', '.join(shipped)}")
    return path.read_text(encoding="utf-8"), str(path)


def load_spec(spec: str | Path = DEFAULT_SPEC, overrides: Iterable[str] = ()) -> dict[str, Any]:
    """The validated spec with every default filled in."""
    text, origin = _spec_text(spec)
    return json.loads(_native.ecc_curve_spec(text, origin, [str(o) for o in overrides]))


@dataclass(frozen=True)
class CurveResult:
    """A frame-error-rate table: ``points`` (one row per simulated point), ``summaries`` (per
    decoder: tolerable RBER and how it was obtained), ``spec``, ``codes``, ``key``."""

    table: dict[str, Any]
    from_cache: bool

    @property
    def points(self) -> list[dict[str, Any]]:
        return self.table["points"]

    @property
    def summaries(self) -> list[dict[str, Any]]:
        return self.table["summaries"]

    def summary(self, label: str) -> dict[str, Any]:
        for row in self.summaries:
            if row["label"] == label:
                return row
        raise KeyError(label)

    def point_rows(self) -> list[dict[str, Any]]:
        """Flat rows (one per point) for data frames and Parquet."""
        rows = []
        for p in self.points:
            rows.append(
                {
                    "decoder": p["label"],
                    "target_rber": p["target_rber"],
                    "rber": p["rber"],
                    "measured_rber": p["measured_rber"],
                    "pe_cycles": p["pe_cycles"],
                    "retention_hours": p["retention_hours"],
                    "page": p["page"],
                    "chip": p["chip"],
                    "frames": p["frames"],
                    "failures": p["failures"],
                    "frame_error_rate": p["frame_error_rate"],
                    "ci95_low": p["ci95_low"],
                    "ci95_high": p["ci95_high"],
                    "mean_iterations": p["mean_iterations"],
                    "exact_frame_error_rate": p.get("exact_frame_error_rate"),
                    "table_key": self.table["key"],
                    "table_version": self.table["version"],
                }
            )
        return rows

    def summary_rows(self) -> list[dict[str, Any]]:
        bch = self.summary("bch") if any(s["label"] == "bch" for s in self.summaries) else None

        def rber_of(summary: dict[str, Any] | None, key: str) -> float | None:
            estimate = summary and summary.get(key)
            return estimate["rber"] if estimate else None

        rows = []
        for s in self.summaries:
            comparison = rber_of(s, "tolerable_rber_at_comparison")
            target = rber_of(s, "tolerable_rber_at_target")
            bch_comparison = rber_of(bch, "tolerable_rber_at_comparison")
            rows.append(
                {
                    "decoder": s["label"],
                    "lowest_measured_fer": s["lowest_measured_frame_error_rate"],
                    "rber_at_comparison_fer": comparison,
                    "vs_bch": comparison / bch_comparison if comparison and bch_comparison else None,
                    "comparison_method": (s.get("tolerable_rber_at_comparison") or {}).get("method"),
                    "rber_at_target_fer": target,
                    "target_method": (s.get("tolerable_rber_at_target") or {}).get("method"),
                }
            )
        return rows

    def write(self, directory: str | Path) -> dict[str, Path]:
        """Writes the table (JSON, and Parquet of the points) and the two figures (PNG and SVG)."""
        from ssdlab import ecc_plots

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths: dict[str, Path] = {}
        paths["table"] = out / "ecc_table.json"
        paths["table"].write_text(json.dumps(self.table, indent=2) + "\n", encoding="utf-8")
        import polars as pl

        paths["points"] = out / "ecc_points.parquet"
        pl.DataFrame(self.point_rows()).write_parquet(paths["points"])
        paths.update(ecc_plots.write_figures(self.table, out))
        return paths


def curve(
    spec: str | Path = DEFAULT_SPEC,
    *,
    overrides: Iterable[str] = (),
    cache_dir: str | Path | None = "default",
    progress: Callable[[int, int], object] | None = None,
) -> CurveResult:
    """Runs a curve spec (a shipped name such as ``"seed002-fig3"`` or ``"quick"``, or a TOML file),
    reusing a cached table with the same key. ``cache_dir=None`` disables the cache."""
    text, origin = _spec_text(spec)
    directory = default_cache_dir() if cache_dir == "default" else cache_dir
    raw = _native.ecc_curve(text, origin, [str(o) for o in overrides], None if directory is None else str(directory), progress)
    data = json.loads(raw)
    return CurveResult(table=data["table"], from_cache=bool(data["from_cache"]))


def rber(**grid: Any) -> list[dict[str, Any]]:
    """Raw bit error rate of every page over a grid of stresses: keyword arguments ``cell``,
    ``pe_cycles``, ``retention_hours``, ``chips``, ``storage_temperature_c``, ``channel``."""
    return json.loads(_native.ecc_rber(json.dumps(grid)))


def decoding_table(**spec: Any) -> dict[str, Any]:
    """Decoding-failure probabilities per chip and sensing precision at one stress: keyword arguments
    ``cell``, ``pe_cycles``, ``retention_hours``, ``storage_temperature_c``, ``max_extra_levels``,
    ``frames_per_case``, ``seed``, ``channel``, ``interleave_groups``, ``block_factors``, ``part_block_classes``
    (``independent`` or ``shared``). The result's ``config_toml`` is the
    ``[read_path.decoding]`` table of a simulation config."""
    return json.loads(_native.ecc_decoding_table(json.dumps(spec)))


def decoding_tables(pe_cycles: list[float], **spec: Any) -> dict[str, Any]:
    """:func:`decoding_table` at each P/E count (ascending), and the ``[read_path.decoding]`` TOML of a
    wear-dependent read path (``pe_cycles`` with ``failure_probabilities_by_pe``)."""
    if not pe_cycles:
        raise ValueError("decoding_tables: give at least one P/E count")
    counts = sorted(float(p) for p in pe_cycles)
    tables = [decoding_table(pe_cycles=p, **spec) for p in counts]
    if len(tables) == 1:
        return {"pe_cycles": counts, "tables": tables, "config_toml": tables[0]["config_toml"]}
    lines = [line for line in tables[0]["config_toml"].splitlines() if line.startswith("# ")]
    lines[0:1] = [lines[0].replace(f"{counts[0]:g} P/E", "P/E " + ", ".join(f"{p:g}" for p in counts)) if lines else ""]
    lines += ["[read_path.decoding]", f"pe_cycles = [{', '.join(f'{p:g}' for p in counts)}]", "failure_probabilities_by_pe = ["]
    for count, table in zip(counts, tables):
        lines.append(f"    [  # {count:g} P/E")
        lines += [f"        [{', '.join(f'{p:.4f}' for p in row)}]," for row in table["failure_probabilities"]]
        lines.append("    ],")
    lines.append("]")
    lines += [line for line in tables[0]["config_toml"].splitlines() if line.startswith(("chip_rows", "block_classes", "codeword_parts"))]
    return {"pe_cycles": counts, "tables": tables, "config_toml": "\n".join(lines) + "\n"}


def decoder_tables(progress: Callable[[int, int], object] | None = None, **spec: Any) -> dict[str, Any]:
    """Failure probability of each decoder (``decoders``: ``bch``, ``ldpc-hard``, ``quick-ldpc``,
    ``ep-ldpc``, ``ldpc-soft-K``) on a grid of ``pe_cycles`` x ``retention_hours``, per chip, and each
    decoder's tolerable P/E at each retention (seed 000 Fig. 5). Other keywords: ``cell``,
    ``storage_temperature_c``, ``frames_per_case``, ``target_failures``,
    ``target_failure_probability``, ``seed``, ``channel``, ``chip`` (``seed002`` or ``seed000``: whose
    measured chip the default channel is calibrated to). The result's ``config_toml`` is the
    ``[read_path.decoder_tables]`` table of a simulation config."""
    return json.loads(_native.ecc_decoder_tables(json.dumps(spec), progress))


def bench(**settings: Any) -> dict[str, Any]:
    """Decoder throughput (Mbit/s on one core and all cores) and Monte Carlo frames per second."""
    return json.loads(_native.ecc_bench(json.dumps(settings)))
