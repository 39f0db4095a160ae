"""Reading a 2048 web page: its board, score and state, from its saved game or from its tiles.

The original web game keeps its game as JSON in ``localStorage["gameState"]`` (``{"grid":
{"size": N, "cells": cells}, "score": S, "over": ..., "won": ..., "keepPlaying": ...}``, with
``cells[x][y]`` either ``null`` or ``{"position": {"x": x, "y": y}, "value": V}``, x the
column) and draws each tile as an element whose classes name its value and place
(``tile tile-8 tile-position-2-1``: column 2, row 1, counted from 1). :data:`SNAPSHOT_JS` reads
both in one call; :func:`read_snapshot` turns what it returns into a :class:`PageBoard`,
preferring the saved game, which the game writes as soon as a move is made, and falling back to
the tiles (a clone that saves nothing, or a finished game, whose saved game the original
removes). Where tiles overlap (two tiles sliding into one another during the merge
animation) the largest value is the cell's.

This module parses plain data only: the browser is driven in :mod:`~plyground.apps.browser.driver`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["SNAPSHOT_JS", "PageBoard", "read_snapshot", "score_text", "spawn_problem"]

SNAPSHOT_JS = """() => {
  const out = {saved: null, tiles: [], cells: 0, score: null, over: false, won: false, keepPlayingShown: false};
  try { out.saved = window.localStorage.getItem("gameState"); } catch (error) { out.saved = null; }
  for (const tile of document.querySelectorAll(".tile")) out.tiles.push(String(tile.className));
  out.cells = document.querySelectorAll(".grid-cell").length;
  const score = document.querySelector(".score-container");
  if (score) {
    const first = score.firstChild;
    out.score = first && first.nodeType === Node.TEXT_NODE ? first.textContent : score.textContent;
  }
  const message = document.querySelector(".game-message");
  if (message) {
    out.over = message.classList.contains("game-over");
    out.won = message.classList.contains("game-won");
  }
  const button = document.querySelector(".keep-playing-button");
  out.keepPlayingShown = Boolean(button) && out.won;
  return out;
}"""
"""A function for ``page.evaluate``: what :func:`read_snapshot` reads, as plain data."""

_VALUE = re.compile(r"^tile-(\d+)$")
_POSITION = re.compile(r"^tile-position-(\d+)-(\d+)$")
_SIZES = {4: 2, 9: 3, 16: 4}  # grid cells drawn -> board size


@dataclass(frozen=True)
class PageBoard:
    """A 2048 page's game as read.

    Attributes:
        rows: the tile values, row by row (0 for an empty cell), a square board of 2 to 4 cells a side.
        score: the score the page shows (or saved), None where it shows none.
        over: the page says the game is over.
        waiting: the page has made 2048 and waits for "keep playing" before taking moves (its
            saved game says so, or it shows the message).
        source: ``"saved game"`` (``localStorage``) or ``"tiles"`` (the page's elements).
        keep_playing_shown: the page shows its "you win" message with a "keep playing" button. (The
            original game saves its game only after a move: once the button is clicked, the saved game
            says it waits until the next move.)
    """

    rows: tuple[tuple[int, ...], ...]
    score: int | None
    over: bool
    waiting: bool
    source: str
    keep_playing_shown: bool = False


def score_text(text: Any) -> int | None:
    """The number a score element shows (``"12,345"`` is 12345; ``"1234+16"``, the text with its "+16" badge, 1234)."""
    if not isinstance(text, str):
        return None
    match = re.match(r"\s*(\d[\d,\s]*)", text)
    if match is None:
        return None
    digits = re.sub(r"[,\s]", "", match.group(1))
    return int(digits) if digits else None


def _tile_value(value: Any) -> int | None:
    """A tile's value if it is a power of two from 2 on, else None."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 2 or value & (value - 1):
        return None
    return value


def _from_saved(text: Any) -> PageBoard | None:
    """The saved game, or None where there is none or it is not in the original game's form."""
    if not isinstance(text, str):
        return None
    try:
        state = json.loads(text)
    except ValueError:
        return None
    if not isinstance(state, dict) or not isinstance(state.get("grid"), dict):
        return None
    size, cells = state["grid"].get("size"), state["grid"].get("cells")
    if isinstance(size, bool) or size not in (2, 3, 4) or not isinstance(cells, list) or len(cells) != size:
        return None
    rows = [[0] * size for _ in range(size)]
    for x, column in enumerate(cells):
        if not isinstance(column, list) or len(column) != size:
            return None
        for y, cell in enumerate(column):
            if cell is None:
                continue
            if not isinstance(cell, dict):
                return None
            value = _tile_value(cell.get("value"))
            if value is None:
                return None
            rows[y][x] = value
    score = state.get("score")
    if isinstance(score, bool) or not isinstance(score, int) or score < 0:
        return None
    flags = [state.get(key, False) for key in ("over", "won", "keepPlaying")]
    if not all(isinstance(flag, bool) for flag in flags):
        return None
    over, won, keep_playing = flags
    return PageBoard(tuple(map(tuple, rows)), score, over, won and not keep_playing, "saved game")


def _from_tiles(classes: Any, cells: Any, score: Any, over: bool, shown: bool) -> PageBoard | None:
    """The board the tiles show, or None where no tile names a value and a place."""
    if not isinstance(classes, list):
        return None
    found: dict[tuple[int, int], int] = {}
    for names in classes:
        if not isinstance(names, str):
            continue
        value = place = None
        for name in names.split():
            if (match := _VALUE.match(name)) is not None:
                value = _tile_value(int(match.group(1)))
            elif (match := _POSITION.match(name)) is not None:
                place = (int(match.group(2)) - 1, int(match.group(1)) - 1)  # (row, col) from "column-row"
        if value is not None and place is not None:
            found[place] = max(value, found.get(place, 0))
    if not found:
        return None
    size = _SIZES.get(cells if isinstance(cells, int) else 0)
    if size is None:  # no grid drawn: the smallest board that holds the tiles, 4x4 at most
        size = max(2, max(max(place) for place in found) + 1)
    if any(not (0 <= r < size and 0 <= c < size) for r, c in found):
        return None
    rows = [[found.get((r, c), 0) for c in range(size)] for r in range(size)]
    return PageBoard(tuple(map(tuple, rows)), score_text(score), over, shown, "tiles", shown)


def read_snapshot(snapshot: Any) -> PageBoard | None:
    """What :data:`SNAPSHOT_JS` returned, as a :class:`PageBoard`; None when the page shows no 2048 board.

    >>> tiles = ["tile tile-2 tile-position-1-1", "tile tile-4 tile-position-4-2 tile-new"]
    >>> page = read_snapshot({"saved": None, "tiles": tiles, "cells": 16, "score": "12+4"})
    >>> page.rows[0], page.rows[1], page.score, page.source
    ((2, 0, 0, 0), (0, 0, 0, 4), 12, 'tiles')
    """
    if not isinstance(snapshot, dict):
        return None
    over, shown = snapshot.get("over") is True, snapshot.get("keepPlayingShown") is True
    saved = _from_saved(snapshot.get("saved"))
    if saved is not None:
        return PageBoard(saved.rows, saved.score, saved.over or over, saved.waiting or shown, saved.source, shown)
    return _from_tiles(snapshot.get("tiles"), snapshot.get("cells"), snapshot.get("score"), over, shown)


def spawn_problem(after: tuple[tuple[int, ...], ...], seen: tuple[tuple[int, ...], ...]) -> str | None:
    """None when ``seen`` is the board ``after`` plus one new 2 or 4 on one of its empty cells; else what differs.

    >>> spawn_problem(((2, 0), (0, 0)), ((2, 0), (0, 4))) is None
    True
    >>> spawn_problem(((2, 0), (0, 0)), ((2, 0), (0, 8)))
    'a new 8 at row 2, column 2 (the rules spawn a 2 or a 4)'
    """
    if len(seen) != len(after) or any(len(a) != len(b) for a, b in zip(after, seen, strict=True)):
        return f"the page's board is {len(seen)}x{len(seen[0]) if seen else 0}, not {len(after)}x{len(after[0])}"
    changed = [(r, c) for r in range(len(after)) for c in range(len(after[r])) if after[r][c] != seen[r][c]]
    if not changed:
        return "no new tile appeared"
    if len(changed) == 1:
        r, c = changed[0]
        if after[r][c] == 0:
            if seen[r][c] in (2, 4):
                return None
            return f"a new {seen[r][c]} at row {r + 1}, column {c + 1} (the rules spawn a 2 or a 4)"
    parts = [
        f"row {r + 1}, column {c + 1} holds {seen[r][c] or 'nothing'} where {after[r][c] or 'nothing'} was expected"
        for r, c in changed
    ]
    return "; ".join(parts[:3]) + (f" (and {len(parts) - 3} more)" if len(parts) > 3 else "")
