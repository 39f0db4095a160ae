"""MkDocs hook: the latest recorded run of each benchmark, where a page asks for it.

Every benchmark script appends one JSON line per run to ``benchmarks/results/<name>.jsonl``::

    {"benchmark": name, "date": ISO-8601 UTC, "commit": sha, "dirty": bool,
     "machine": {"cpu": str, "cores": int, "memory_gib": float, "python": str, "numba": str},
     "results": {... the script's own JSON ...}}

Where a page holds ``<!-- figures -->``, the README's performance table is put, rendered by
``benchmarks/_figures.py`` from the same files. Where a page holds ``<!-- benchmark-results -->``,
this hook puts a table per benchmark: the latest line's date, commit and machine, then its
results flattened to ``key: value`` rows. The benchmarks shown are every script of
``benchmarks/`` (``_*.py`` aside) and every results file;
``<!-- benchmark-results: engine search -->`` names them instead. A benchmark without a file, or
with an empty one, says "no results recorded yet". A line that cannot be read is a warning, so
``mkdocs build --strict`` fails on it.

The results folder is ``extra.benchmark_results`` in ``mkdocs.yml`` (relative to that file;
default ``benchmarks/results``).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import math
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.hooks.benchmarks")

MARKER = re.compile(r"<!--\s*benchmark-results(?::\s*(?P<names>[^>]*?))?\s*-->")
NO_RESULTS = "no results recorded yet"
FIGURES = "<!-- figures -->"


def figures_table(folder: Path) -> str:
    """The README's performance table, rendered by ``_figures.py`` beside the results folder ``benchmarks/results``
    from its lines and those of the campaigns' folders ``experiments/*/``."""
    spec = importlib.util.spec_from_file_location("plyground_bench_figures", folder.parent / "_figures.py")
    if spec is None or spec.loader is None:
        raise OSError(f"no _figures.py beside {folder}")
    figures = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = figures  # dataclasses look their module up
    spec.loader.exec_module(figures)
    table: str = figures.render(figures.Results(*figures.results_folders(folder.parents[1])), link=None)
    return table


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs event: replace each marker of the page by the benchmarks' tables."""
    if FIGURES in markdown:
        markdown = markdown.replace(FIGURES, figures_table(results_folder(config)))
    if MARKER.search(markdown) is None:
        return markdown
    folder = results_folder(config)
    source = getattr(getattr(page, "file", None), "src_uri", "a page")

    def replace(match: re.Match[str]) -> str:
        names = match.group("names")
        return render(folder, names.split() if names else None, where=source)

    return MARKER.sub(replace, markdown)


def results_folder(config: Any) -> Path:
    """The results folder named by the configuration (relative to ``mkdocs.yml``)."""
    root = Path(config["config_file_path"] or ".").resolve().parent
    extra = config.get("extra") or {}
    return root / str(extra.get("benchmark_results", "benchmarks/results"))


def benchmark_names(folder: Path) -> list[str]:
    """Every benchmark script beside the results folder and every results file, sorted."""
    names = {path.stem for path in folder.glob("*.jsonl")}
    names.update(path.stem for path in folder.parent.glob("*.py") if not path.name.startswith("_"))
    return sorted(names)


def render(folder: Path, names: Sequence[str] | None = None, *, where: str = "a page") -> str:
    """The Markdown for ``names`` (default: every benchmark), one section per benchmark."""
    sections = [render_one(folder, name, where=where) for name in names or benchmark_names(folder)]
    return "\n\n".join(sections) if sections else NO_RESULTS


def render_one(folder: Path, name: str, *, where: str = "a page") -> str:
    """One benchmark's section: a heading, then its latest run or "no results recorded yet"."""
    path = folder / f"{name}.jsonl"
    heading = f"### {name}"
    runs = list(read_runs(path, where=where)) if path.is_file() else []
    if not runs:
        return f"{heading}\n\n{NO_RESULTS} (`{path.name}`)."
    latest = runs[-1]
    about = [
        ("date", format_date(latest.get("date"))),
        ("commit", format_commit(latest.get("commit"), latest.get("dirty"))),
        ("machine", format_machine(latest.get("machine"))),
        ("runs recorded", f"{len(runs)} (the latest shown)"),
    ]
    results = latest.get("results")
    rows = list(flatten(results)) if isinstance(results, dict) else [("results", format_value(results))]
    lines = [heading, "", "| run | |", "|---|---|"]
    lines += [f"| {key} | {cell(value)} |" for key, value in about]
    lines += ["", "| result | value |", "|---|---|"]
    lines += [f"| `{cell(key)}` | {cell(value)} |" for key, value in rows] or ["| (none) | |"]
    return "\n".join(lines)


def read_runs(path: Path, *, where: str = "a page") -> Iterator[dict[str, Any]]:
    """The runs of a results file, oldest first; a line that is not a JSON object is a warning."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                run = json.loads(line)
            except json.JSONDecodeError as exc:
                log.warning("%s: %s line %d is not JSON (%s)", where, path, number, exc.msg)
                continue
            if not isinstance(run, dict):
                log.warning("%s: %s line %d is not a JSON object", where, path, number)
                continue
            yield run


def flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """``(key, readable value)`` pairs: nested keys joined by dots, list items by index."""
    if isinstance(value, dict):
        if not value:
            yield prefix or "(empty)", "—"
        for key, item in value.items():
            yield from flatten(item, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        for index, item in enumerate(value):
            yield from flatten(item, f"{prefix}[{index}]")
    else:
        yield prefix or "(value)", format_value(value)


def format_value(value: Any) -> str:
    """A scalar or a list of scalars as a person reads it: ``23,100,000``, ``1.35``, ``yes``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        if value.is_integer() and abs(value) < 1e15:
            return f"{int(value):,}"
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.4g}"
    if isinstance(value, list):
        return ", ".join(format_value(item) for item in value) if value else "—"
    return str(value)


def format_date(value: Any) -> str:
    """``2026-12-01T14:03:05Z`` as ``2026-12-01 14:03 UTC``; anything else as it is."""
    if not isinstance(value, str):
        return format_value(value)
    match = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]00:?00)?", value)
    if match is None:
        return value
    return f"{match.group(1)} {match.group(2)} UTC" if match.group(3) else f"{match.group(1)} {match.group(2)}"


def format_commit(commit: Any, dirty: Any) -> str:
    """The short commit, and whether the work tree had uncommitted changes."""
    text = f"`{commit[:12]}`" if isinstance(commit, str) and commit else "unknown"
    return f"{text} (with uncommitted changes)" if dirty else text


def format_machine(machine: Any) -> str:
    """``CPU, N cores, M GiB, Python X, numba Y`` from the machine object."""
    if not isinstance(machine, dict):
        return "unknown"
    parts = []
    if machine.get("cpu"):
        parts.append(str(machine["cpu"]))
    if isinstance(machine.get("cores"), int):
        parts.append(f"{machine['cores']} cores")
    if isinstance(machine.get("memory_gib"), int | float):
        parts.append(f"{machine['memory_gib']:.1f} GiB memory")
    for key, label in (("python", "Python"), ("numba", "numba")):
        if machine.get(key):
            parts.append(f"{label} {machine[key]}")
    return ", ".join(parts) or "unknown"


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")
