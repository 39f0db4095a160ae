"""Reading a page's game from plain data (no browser): the saved game, the tiles, the checks of a move."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.apps.browser.page import PageBoard, read_snapshot, score_text, spawn_problem


def saved(rows: list[list[int]], score: int = 0, **flags: bool) -> str:
    """The original game's saved game for ``rows`` (cells[x][y], x the column)."""
    size = len(rows)
    cells = [
        [None if rows[y][x] == 0 else {"position": {"x": x, "y": y}, "value": rows[y][x]} for y in range(size)]
        for x in range(size)
    ]
    state = {"grid": {"size": size, "cells": cells}, "score": score, "over": False, "won": False, "keepPlaying": False}
    return json.dumps({**state, **flags})


def tiles(rows: list[list[int]]) -> list[str]:
    return [
        f"tile tile-{v} tile-position-{c + 1}-{r + 1}" for r, row in enumerate(rows) for c, v in enumerate(row) if v
    ]


def snapshot(**fields: Any) -> dict[str, Any]:
    return {"saved": None, "tiles": [], "cells": 16, "score": None, "over": False, "won": False,
            "keepPlayingShown": False,
            **fields}  # fmt: skip


ROWS = [[2, 0, 0, 4], [0, 8, 0, 0], [0, 0, 16, 0], [2048, 0, 0, 32768]]


def test_the_saved_game_is_read_column_by_column() -> None:
    page = read_snapshot(snapshot(saved=saved(ROWS, score=1234)))
    assert page == PageBoard(tuple(map(tuple, ROWS)), 1234, False, False, "saved game")


def test_the_saved_game_is_preferred_to_the_tiles() -> None:
    other = [[4, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    page = read_snapshot(snapshot(saved=saved(ROWS, score=10), tiles=tiles(other), score="99"))
    assert page is not None and page.rows == tuple(map(tuple, ROWS)) and page.score == 10


def test_won_and_waiting_until_keep_playing() -> None:
    waiting = read_snapshot(snapshot(saved=saved(ROWS, won=True)))
    going_on = read_snapshot(snapshot(saved=saved(ROWS, won=True, keepPlaying=True)))
    over = read_snapshot(snapshot(saved=saved(ROWS, over=True)))
    assert waiting is not None and waiting.waiting and not waiting.over
    assert going_on is not None and not going_on.waiting
    assert over is not None and over.over
    # The original saves its game after moves only: after "keep playing" its saved game still waits, its page not.
    clicked = read_snapshot(snapshot(saved=saved(ROWS, won=True)))
    shown = read_snapshot(snapshot(saved=saved(ROWS, won=True), keepPlayingShown=True, won=True))
    assert clicked is not None and clicked.waiting and not clicked.keep_playing_shown
    assert shown is not None and shown.waiting and shown.keep_playing_shown
    from_tiles = read_snapshot(snapshot(tiles=tiles(ROWS), keepPlayingShown=True, won=True))
    assert from_tiles is not None and from_tiles.waiting and from_tiles.keep_playing_shown


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        json.dumps({"grid": {"size": 5, "cells": []}, "score": 0}),
        json.dumps({"grid": {"size": 2, "cells": [[None, None]]}, "score": 0}),
        saved([[2, 3], [0, 0]]),  # 3 is no tile
        saved([[2, 0], [0, 0]], score=-1),
        json.dumps({"score": 4}),
    ],
)
def test_a_saved_game_in_another_form_falls_back_to_the_tiles(text: str) -> None:
    page = read_snapshot(snapshot(saved=text, tiles=tiles(ROWS), score="1,234"))
    assert page is not None and page.source == "tiles" and page.rows == tuple(map(tuple, ROWS)) and page.score == 1234


def test_tiles_that_overlap_in_a_merge_give_the_largest() -> None:
    classes = ["tile tile-2 tile-position-1-1", "tile tile-2 tile-position-1-1",
               "tile tile-4 tile-position-1-1 tile-merged", "tile tile-8 tile-position-3-2 tile-new", "tile-inner",
               "tile tile-position-2-2"]  # fmt: skip
    page = read_snapshot(snapshot(tiles=classes, score="12+4", cells=9, over=True))
    assert page is not None
    assert page.rows == ((4, 0, 0), (0, 0, 8), (0, 0, 0)) and page.score == 12 and page.over


def test_without_a_grid_the_board_holds_the_tiles() -> None:
    page = read_snapshot(snapshot(tiles=["tile tile-2 tile-position-3-1"], cells=0))
    assert page is not None and len(page.rows) == 3
    assert read_snapshot(snapshot(tiles=["tile tile-2 tile-position-5-1"], cells=16)) is None  # off the board


@pytest.mark.parametrize("value", [None, [], "no snapshot", {"saved": None, "tiles": []}, {"tiles": ["tile"]}])
def test_no_board(value: Any) -> None:
    assert read_snapshot(value) is None


@pytest.mark.parametrize(("text", "number"), [("0", 0), ("1,234", 1234), (" 56+8", 56), ("", None), ("+4", None),
                                              (None, None)])  # fmt: skip
def test_score_text(text: Any, number: int | None) -> None:
    assert score_text(text) == number


AFTER = ((2, 0), (0, 4))


@pytest.mark.parametrize(
    ("seen", "problem"),
    [
        (((2, 2), (0, 4)), None),
        (((2, 0), (4, 4)), None),
        (((2, 0), (0, 4)), "no new tile appeared"),
        (((2, 8), (0, 4)), "a new 8 at row 1, column 2 (the rules spawn a 2 or a 4)"),
        (((2, 2), (2, 4)), "row 1, column 2 holds 2 where nothing was expected; row 2, column 1 holds 2 where nothing"),
        (((4, 0), (0, 4)), "row 1, column 1 holds 4 where 2 was expected"),
        (((2, 0, 0), (0, 4, 0), (0, 0, 0)), "the page's board is 3x3, not 2x2"),
    ],
)
def test_spawn_problem(seen: tuple[tuple[int, ...], ...], problem: str | None) -> None:
    found = spawn_problem(AFTER, seen)
    assert found == problem or (problem is not None and found is not None and found.startswith(problem))


@given(st.lists(st.sampled_from([0, 0, 2, 4, 8, 1024]), min_size=16, max_size=16), st.integers(0, 15),
       st.sampled_from([2, 4]))  # fmt: skip
def test_one_spawn_on_an_empty_cell_is_always_accepted(flat: list[int], cell: int, value: int) -> None:
    after = tuple(tuple(flat[r * 4 : r * 4 + 4]) for r in range(4))
    seen = [list(row) for row in after]
    r, c = divmod(cell, 4)
    seen[r][c] = value if after[r][c] == 0 else after[r][c]
    problem = spawn_problem(after, tuple(map(tuple, seen)))
    assert (problem is None) == (after[r][c] == 0)
    # The saved game and the tiles of any board read back the same board.
    rows = [list(row) for row in after]
    if any(flat):
        assert read_snapshot(snapshot(saved=saved(rows))).rows == after  # type: ignore[union-attr]
        assert read_snapshot(snapshot(tiles=tiles(rows))).rows == after  # type: ignore[union-attr]
