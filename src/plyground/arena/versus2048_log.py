"""The log of a 2048 program against plyground: a game a line, the table's rows by player and settings, the targets.

Each game logged is a dict (``benchmarks/versus_nneonneo.py`` keeps them as JSON lines of
``<results>/versus_nneonneo_games.jsonl``); a row of the table is nneonneo's games, or plyground's
with one mode, evaluator and number of workers (alone: one budget).
"""

from __future__ import annotations

import statistics
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.core.stats import median_interval, share_interval

__all__ = [
    "ALONE_GAMES",
    "ALONE_TARGETS",
    "TILES",
    "VERSUS_GAMES",
    "check_game",
    "group_key",
    "nneonneo_budget",
    "show",
    "summarize",
    "targets",
    "timed_games",
]

TILES = (16384, 32768)
VERSUS_GAMES, ALONE_GAMES = 20, 30
ALONE_TARGETS = ((16384, 0.95), (32768, 0.30))


def check_game(game: dict[str, Any]) -> None:
    """Check a logged game.

    Raises:
        ValueError, KeyError: not a game of the log.
    """
    if game["player"] not in ("nneonneo", "plyground") or not isinstance(game["score"], int):
        raise ValueError("not a game of nneonneo or plyground")


def group_key(game: dict[str, Any]) -> str:
    """The row a game belongs to: nneonneo's, or plyground's with its mode, evaluator and workers."""
    if game["player"] == "nneonneo":
        return "nneonneo"
    workers = f"{game['workers']} worker{'s' if game['workers'] > 1 else ''}"
    if game.get("time_bank"):  # its mean time a move is its budget (without, about 0.8-0.9 of it)
        workers += ", time bank"
    if game["mode"] == "alone":
        return f"plyground alone: {game['evaluator']}, {game['budget_ms']:g} ms, {workers}"
    return f"plyground: {game['evaluator']}, {workers}"


def timed_games(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """nneonneo's games whose time a move counts: those timed through its library when there are some.

    Each move's call to the library is timed in a process of its own on its core, while the program's
    printed times ran beside whatever shared its core.
    """
    theirs = [g for g in games if g["player"] == "nneonneo" and g["moves"]]
    return [g for g in theirs if "library" in g] or theirs


def nneonneo_budget(games: list[dict[str, Any]]) -> float | None:
    """nneonneo's mean time per move over its :func:`timed_games`, weighted by their moves (None without one)."""
    theirs = timed_games(games)
    if not theirs:
        return None
    return float(sum(g["ms_per_move"] * g["moves"] for g in theirs) / sum(g["moves"] for g in theirs))


def summarize(games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each row's statistics (see the module's docstring)."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for game in games:
        rows.setdefault(group_key(game), []).append(game)
    summary = {}
    for key, row in rows.items():
        scores = [g["score"] for g in row]
        reach = {}
        for tile in TILES:
            hits = sum(g["max_tile"] >= tile for g in row)
            reach[str(tile)] = {"share": hits / len(row), "interval": share_interval(hits, len(row))}
        timed = timed_games(row) if key == "nneonneo" else row  # nneonneo's: the time plyground is given
        summary[key] = {
            "games": len(row),
            "timed_games": len(timed),
            "ms_per_move": sum(g["ms_per_move"] * g["moves"] for g in timed) / max(1, sum(g["moves"] for g in timed)),
            "median_score": statistics.median(scores),
            "median_interval": median_interval(scores),
            "mean_score": statistics.fmean(scores),
            "reach": reach,
        }
    return summary


def targets(summary: dict[str, dict[str, Any]]) -> dict[str, bool | None]:
    """Each target: met, not met, or None (not enough games yet)."""
    met: dict[str, bool | None] = {}
    theirs = summary.get("nneonneo")
    for key, row in summary.items():
        if key.startswith("plyground:"):
            ready = theirs is not None and min(theirs["games"], row["games"]) >= VERSUS_GAMES
            met[f"{key}: median score >= nneonneo's"] = (
                row["median_score"] >= theirs["median_score"] if ready and theirs else None
            )
            met[f"{key}: 32768 share >= nneonneo's"] = (
                row["reach"]["32768"]["share"] >= theirs["reach"]["32768"]["share"] if ready and theirs else None
            )
        elif key.startswith("plyground alone:") and ", 20 ms," in key:
            for tile, share in ALONE_TARGETS:
                met[f"{key}: {tile} in >= {share:.0%}"] = (
                    row["reach"][str(tile)]["share"] >= share if row["games"] >= ALONE_GAMES else None
                )
    return met


def show(summary: dict[str, dict[str, Any]], met: dict[str, bool | None], console: Console) -> None:
    """Print the table and the targets."""

    def interval(pair: tuple[float, float] | None, form: str) -> str:
        return "-" if pair is None else f"{format(pair[0], form)}-{format(pair[1], form)}"

    table = Table(title="2048: plyground against nneonneo/2048-ai (games logged)")
    for name in ("player", "games", "ms/move", "median score", "95%", "mean score", *(f"{t}" for t in TILES)):
        table.add_column(name, justify="left" if name == "player" else "right")
    for key, row in summary.items():
        table.add_row(
            key,
            str(row["games"]),
            f"{row['ms_per_move']:.1f}",
            f"{row['median_score']:,.0f}",
            interval(row["median_interval"], ",.0f"),
            f"{row['mean_score']:,.0f}",
            *(
                f"{row['reach'][str(t)]['share']:.0%} ({interval(row['reach'][str(t)]['interval'], '.0%')})"
                for t in TILES
            ),
        )
    console.print(table)
    theirs = summary.get("nneonneo")
    if theirs is not None and theirs["timed_games"] < theirs["games"]:
        console.print(
            f"nneonneo's ms/move: its {theirs['timed_games']} of {theirs['games']} games timed through its library "
            "(the program's printed times ran beside other work); plyground plays at that time"
        )
    for name, ok in met.items():
        console.print(f"target {name}: {'not enough games yet' if ok is None else 'met' if ok else 'NOT met'}")
