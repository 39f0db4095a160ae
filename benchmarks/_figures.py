"""The performance table of the README and of the docs' benchmarks page, rendered from the recorded results.

Each row is written by a function of :data:`ROWS` from one recorded line of a results file
(the latest that measured what the row shows) and cites it: the file, the line's number, its
commit (marked "dirty" when the run had uncommitted changes). A results file is found in
``benchmarks/results/`` (the speed benchmarks) or in a campaign's folder ``experiments/*/``. A figure
is never typed by hand: a new run of a benchmark changes the table the next time it is rendered.

    python benchmarks/_figures.py            # print the table
    python benchmarks/_figures.py --write    # put it into README.md, between its markers
    python benchmarks/_figures.py --check    # exit 1 when README.md holds another table

The README holds the table between ``<!-- figures -->`` and ``<!-- /figures -->``; the docs'
page asks for it with ``<!-- figures -->`` alone (``docs/hooks/benchmarks.py`` renders it
when the site is built). ``tests/docs/test_figures.py`` checks that the README's table is
the one rendered from the committed results.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
EXPERIMENTS = ROOT / "experiments"
README = ROOT / "README.md"
START, END = "<!-- figures -->", "<!-- /figures -->"
HEADER = "| benchmark | plyground | baseline | ratio | results |\n|---|---|---|---|---|"


class MissingResult(LookupError):
    """No recorded line measures what a row shows."""


@dataclass(frozen=True)
class Line:
    """One recorded run: its file's name, its line number (from 1), commit, dirtiness and results, and its file's
    path from the checkout's root (the name alone for a file outside it)."""

    file: str
    number: int
    commit: str | None
    dirty: bool
    results: dict[str, Any]
    path: str = ""

    def cite(self, link: Callable[[str], str] | None) -> str:
        """``[engine.jsonl:1](…) 3fe6069`` (no link without ``link``), with "dirty" after a run of uncommitted code.

        ``link`` is given the file's :attr:`path` (its name when there is none).
        """
        commit = (self.commit or "no commit")[:7] + (", dirty" if self.dirty else "")
        where = f"{self.file}:{self.number}"
        return f"[{where}]({link(self.path or self.file)}) {commit}" if link is not None else f"`{where}` {commit}"


def results_folders(root: Path = ROOT) -> list[Path]:
    """Where the results files of the checkout ``root`` are: ``benchmarks/results``, then each ``experiments/*/``."""
    return [
        root / "benchmarks" / "results",
        *sorted(path for path in (root / "experiments").glob("*/") if path.is_dir()),
    ]


class Results:
    """The recorded lines of the results folders, read once each; a name is in one folder only."""

    def __init__(self, *folders: Path) -> None:
        self.folders = list(folders) if folders else results_folders()
        self._lines: dict[str, list[Line]] = {}

    def path(self, name: str) -> Path | None:
        """The file ``name.jsonl`` in the folders (None when there is none).

        Raises:
            ValueError: two folders hold such a file.
        """
        found = [folder / f"{name}.jsonl" for folder in self.folders if (folder / f"{name}.jsonl").is_file()]
        if len(found) > 1:
            raise ValueError(f"{name}.jsonl is in more than one results folder: {', '.join(map(str, found))}")
        return found[0] if found else None

    def lines(self, name: str) -> list[Line]:
        """Every line of ``name.jsonl``, oldest first (none when there is no such file)."""
        if name not in self._lines:
            path = self.path(name)
            found = []
            if path is not None:
                try:
                    shown = path.resolve().relative_to(ROOT.resolve()).as_posix()
                except ValueError:
                    shown = path.name
                for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                    if text.strip():
                        entry = json.loads(text)
                        commit, dirty = entry.get("commit"), bool(entry.get("dirty"))
                        found.append(Line(path.name, number, commit, dirty, entry["results"], shown))
            self._lines[name] = found
        return self._lines[name]

    def latest(self, name: str, where: Callable[[dict[str, Any]], bool] = lambda results: True) -> Line:
        """The latest line of ``name`` whose results pass ``where``."""
        for line in reversed(self.lines(name)):
            try:
                if where(line.results):
                    return line
            except (KeyError, TypeError, IndexError):
                continue
        raise MissingResult(f"no line of {name}.jsonl measures this row")


@dataclass(frozen=True)
class Row:
    """A row of the table and the line it was rendered from."""

    benchmark: str
    plyground: str
    baseline: str
    ratio: str
    line: Line


def _depths(rows: list[dict[str, Any]], depths: tuple[int, ...]) -> list[dict[str, Any]]:
    by_depth = {row["depth"]: row for row in rows}
    return [by_depth[depth] for depth in depths]


def random_play(results: Results) -> Row:
    line = results.latest("engine")
    rates = line.results["moves_per_s"]
    return Row(
        "random play, one core",
        f"{rates['numba'] / 1e6:.1f} M moves/s",
        f"native C {rates['native_C'] / 1e6:.1f} M; naive Python {rates['naive_Python'] / 1e6:.3f} M",
        f"{line.results['numba_vs_native']:.2f}× C; {line.results['numba_vs_naive']:.0f}× naive",
        line,
    )


def _with_native(results: dict[str, Any]) -> bool:
    return all(row["native_seconds"] is not None for row in _depths(results["rows"], (5, 6, 7)))


def expectimax_time(results: Results) -> Row:
    line = results.latest("search", _with_native)
    rows = _depths(line.results["rows"], (5, 6, 7))
    return Row(
        "expectimax wall time, heuristic, depth 5 / 6 / 7, one core",
        " / ".join(f"{row['seconds_1_core']:.3f}" for row in rows) + " s",
        "native C " + " / ".join(f"{row['native_seconds']:.3f}" for row in rows) + " s",
        " / ".join(f"{row['time_vs_native']:.2f}×" for row in rows),
        line,
    )


def two_cores(results: Results) -> Row:
    line = results.latest("search", _with_native)
    rows = _depths(line.results["rows"], (5, 6, 7))
    return Row(
        "two cores against one, heuristic, depth 5 / 6 / 7",
        " / ".join(f"{row['speedup_2_cores']:.2f}×" for row in rows),
        "one core",
        "",
        line,
    )


def busy(results: Results) -> Row:
    line = results.latest("busy", lambda r: r["positions"] >= 1000 and r["games"] == 0 and r.get("busy") == 2)
    rows = line.results["rows"]
    depth = " / ".join(f"{row['positions']['default']['mean_depth']:.2f}" for row in rows)
    alone = " / ".join(f"{row['positions']['one worker']['mean_depth']:.2f}" for row in rows)
    times = " / ".join(f"{row['time_ms']:g}" for row in rows)
    return Row(
        f"every core against one, two busy processes beside, {times} ms a move, mean depth on "
        f"{line.results['positions']:,} positions ({line.results['evaluator']})",
        depth,
        f"one worker {alone}",
        " / ".join(f"{row['positions_depth_ratio']:.2f}×" for row in rows),
        line,
    )


def solve_3x3(results: Results) -> Row:
    line = results.latest("solver", lambda r: any(row["size"] == "3x3" for row in r["rows"]))
    row = next(row for row in line.results["rows"] if row["size"] == "3x3")
    gib = row["peak_rss_bytes"] / 2**30
    return Row(
        "solve 3×3 from scratch, 2 cores",
        f"{row['seconds']:.1f} s, peak {gib:.2f} GiB",
        "target 3 min, 4 GB",
        f"{row['seconds'] / 180:.2f}× the time, {row['peak_rss_bytes'] / 4e9:.2f}× the memory",
        line,
    )


def mcts(results: Results) -> Row:
    line = results.latest("kinrow", lambda r: any(row["n"] == 7 for row in r["iterations"]))
    row = next(row for row in line.results["iterations"] if row["n"] == 7)
    return Row(
        f"MCTS iterations/s, 7×7, k = {row['k']}",
        f"{row['numba_per_s']:,.0f}",
        f"numpy {row['numpy_per_s']:,.0f}",
        f"{row['ratio']:.0f}×",
        line,
    )


def engine_nodes(results: Results) -> Row:
    line = results.latest("gomoku_engine", lambda r: r["search"]["alphabeta"]["nodes_per_s"] > 0)
    search = line.results["search"]
    engine, old = search["engine"]["nodes_per_s"], search["alphabeta"]["nodes_per_s"]
    return Row(
        "gomoku engine search, 15×15, one core",
        f"{engine:,.0f} nodes/s",
        f"old alpha-beta {old:,.0f} nodes/s",
        f"{engine / old:.1f}×",
        line,
    )


def _match(opponent: str) -> Callable[[dict[str, Any]], bool]:
    def where(results: dict[str, Any]) -> bool:
        return bool(
            results["a"] == "plyground:engine"
            and results["b"].startswith(opponent)
            and results["b_time_ms"] is None
            and results["games_played"] == results["games"]
            and not results["interrupted"]
        )

    return where


def _match_row(results: Results, opponent: str, who: str) -> Row:
    line = results.latest("gomoku", _match(opponent))
    r = line.results
    low, high = r["a_score_95"]
    return Row(
        f"gomoku engine against {who}, {r['time_ms'] / 1000:g} s a move, {r['games']} games from balanced openings",
        f"{r['a_wins']} wins, {r['draws']} draws, {r['a_losses']} losses",
        who,
        f"{100 * r['a_score']:.1f}% score (95%: {100 * low:.0f}%-{100 * high:.0f}%)",
        line,
    )


def against_pentazen(results: Results) -> Row:
    return _match_row(results, "pbrain-pentazen", "PentaZen (Gomocup 2021)")


def against_mcts(results: Results) -> Row:
    return _match_row(results, "plyground:mcts", "plyground's MCTS")


def _games(row: dict[str, Any]) -> str:
    reach = row["reach"]
    shares = ", ".join(f"{tile} in {100 * reach[tile]['share']:.0f}%" for tile in ("16384", "32768") if tile in reach)
    return f"median {row['median_score']:,.0f}; {shares}"


def _network(name: str) -> str:
    """The checksum of the network a row of ``versus_nneonneo`` played with (in parentheses in its name)."""
    return name.split("(", 1)[1].split(")", 1)[0] if "(" in name else "?"


def _shipped_alone(name: str) -> bool:
    return name.startswith("plyground alone: n-tuple network ntuple-4x4.pnet") and "20 ms, 2 workers" in name


def shipped_alone(results: Results) -> Row:
    line = results.latest("versus_nneonneo", lambda r: any(_shipped_alone(name) for name in r["rows"]))
    name, row = [(name, row) for name, row in line.results["rows"].items() if _shipped_alone(name)][-1]
    met = row["reach"]["16384"]["share"] >= 0.95 and row["reach"]["32768"]["share"] >= 0.30
    return Row(
        f"the network {_network(name)} alone, 20 ms a move, both cores, {row['games']} games",
        _games(row),
        "target: 16384 in 95%, 32768 in 30%",
        "met" if met else "not met",
        line,
    )


def _one_worker(name: str) -> bool:
    return name.startswith("plyground: n-tuple network") and "1 worker" in name


def against_nneonneo(results: Results) -> Row:
    line = results.latest(
        "versus_nneonneo", lambda r: "nneonneo" in r["rows"] and any(_one_worker(name) for name in r["rows"])
    )
    rows = line.results["rows"]
    name, ours = max(((name, row) for name, row in rows.items() if _one_worker(name)), key=lambda x: x[1]["games"])
    theirs = rows["nneonneo"]
    ratio = ours["median_score"] / theirs["median_score"]
    return Row(
        f"at nneonneo/2048-ai's time a move, one core each, {ours['games']} and {theirs['games']} games",
        f"the network {_network(name)}, {ours['ms_per_move']:.0f} ms: {_games(ours)}",
        f"nneonneo {theirs['ms_per_move']:.0f} ms: {_games(theirs)}",
        f"median {ratio:.2f}×",
        line,
    )


def packed(results: Results) -> Row:
    line = results.latest("ntuple_pack", lambda r: any("searched" in row for row in r["rows"]))
    row = next(row for row in line.results["rows"] if "searched" in row)
    searched = row["searched"]
    return Row(
        f"a network packed at step {row['step']:g}, {searched['positions']:,} positions under expectimax "
        f"{searched['depth']} deep",
        f"{row['bytes'] / 1e6:.1f} MB, loads in {row['load_s']:.1f} s; the full network's move on "
        f"{100 * searched['same']:.2f}%",
        "the full network's search, same depth",
        f"{searched['loss']:.4f} points lost a move",
        line,
    )


def _with_macroxue(results: dict[str, Any]) -> bool:
    return "search" in results["arms"] and any(name.startswith("macroxue-") for name in results["arms"])


def _from_positions(results: dict[str, Any]) -> bool:
    return _with_macroxue(results) and results["positions_file"].endswith(".jsonl")


def _whole_games(results: dict[str, Any]) -> bool:
    return _with_macroxue(results) and results["positions_file"].startswith("start of ")


def _made(row: dict[str, Any]) -> str:
    return f"{row['made']} of {row['games']} ({100 * row['share']:.0f}%)"


def against_macroxue(results: Results) -> Row:
    return _macroxue_row(
        results.latest("conversion", _from_positions), "saved boards of a game's first 16384, one core each"
    )


def whole_games_against_macroxue(results: Results) -> Row:
    """The whole-game run of the most games (the latest of those): a short run at another depth does not replace it."""
    most = max(
        (line.results["positions"] for line in results.lines("conversion") if _quietly(_whole_games, line)),
        default=None,
    )
    line = results.latest("conversion", lambda r: _whole_games(r) and r["positions"] == most)
    return _macroxue_row(line, "new games (whole games), one core each")


def _quietly(where: Callable[[dict[str, Any]], bool], line: Line) -> bool:
    """``where`` of a line's results, False where it lacks what ``where`` reads."""
    try:
        return where(line.results)
    except (KeyError, TypeError, IndexError):
        return False


def _macroxue_row(line: Line, where: str) -> Row:
    arms = line.results["arms"]
    ours = arms["search"]
    theirs = sorted((int(name.split("-")[1]), row) for name, row in arms.items() if name.startswith("macroxue-"))
    return Row(
        f"32768 made from {line.results['positions']} {where}",
        f"the shipped network, {ours['ms_per_move']:.2f} ms a move: {_made(ours)}",
        "macroxue/2048-ai (its tables) "
        + "; ".join(f"depth {depth}, {row['ms_per_move']:.2f} ms: {_made(row)}" for depth, row in theirs),
        " / ".join(f"{ours['made'] / row['made']:.2f}×" if row["made"] else "-" for _, row in theirs) + " the share",
        line,
    )


ROWS: tuple[Callable[[Results], Row], ...] = (
    random_play,
    expectimax_time,
    two_cores,
    busy,
    solve_3x3,
    mcts,
    engine_nodes,
    against_pentazen,
    against_mcts,
    shipped_alone,
    against_nneonneo,
    against_macroxue,
    whole_games_against_macroxue,
    packed,
)
"""The rows of the table, in order."""


def rows(results: Results | None = None) -> Iterator[Row]:
    """The table's rows, each rendered from its line."""
    results = Results() if results is None else results
    for row in ROWS:
        yield row(results)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _in_readme(path: str) -> str:
    return path


def render(results: Results | None = None, link: Callable[[str], str] | None = _in_readme) -> str:
    """The Markdown table; ``link`` turns a results file's path into the address its citations link to (None: none)."""
    lines = [HEADER]
    for row in rows(results):
        cells = (row.benchmark, row.plyground, row.baseline, row.ratio, row.line.cite(link))
        lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return "\n".join(lines)


def replace_block(text: str, table: str) -> str:
    """``text`` with the table between its markers replaced by ``table``.

    Raises:
        ValueError: the markers are not there once each, in order.
    """
    start, end = text.find(START), text.find(END)
    if text.count(START) != 1 or text.count(END) != 1 or end < start:
        raise ValueError(f"the text needs {START} and {END} once each, in that order")
    return text[: start + len(START)] + "\n" + table + "\n" + text[end:]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help=f"put the table into {README.name}")
    group.add_argument("--check", action="store_true", help=f"exit 1 when {README.name} holds another table")
    args = parser.parse_args(argv)
    try:
        table = render()
        if not (args.write or args.check):
            print(table)
            return
        text = README.read_text(encoding="utf-8")
        wanted = replace_block(text, table)
    except (MissingResult, ValueError, OSError, json.JSONDecodeError) as error:
        raise SystemExit(f"error: {error}") from None
    if args.write:
        temporary = README.with_name(README.name + ".tmp")
        temporary.write_text(wanted, encoding="utf-8")
        os.replace(temporary, README)  # all or nothing
        print(f"wrote the table into {README}", file=sys.stderr)
    elif wanted != text:
        raise SystemExit(f"error: {README.name}'s table is not the one rendered from the results (run --write)")


if __name__ == "__main__":
    main()
