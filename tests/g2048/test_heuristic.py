"""Heuristic features, weights files, and the search's table evaluation against the naive heuristic."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError
from plyground.g2048 import Board
from plyground.g2048 import _search_kernels as S
from plyground.g2048.heuristic import FEATURES, Weights, default_weights, evaluate, line_table, lost_value
from tests.g2048.strategies import grids
from tests.naive import heuristic_2048 as naive

scalars = st.floats(-1000, 1000, allow_nan=False).map(lambda x: round(x, 3))


@st.composite
def weights(draw: st.DrawFn) -> Weights:
    return Weights(
        empty=draw(scalars),
        merges=draw(scalars),
        monotonicity=draw(scalars),
        smoothness=draw(scalars),
        rank_sum=draw(scalars),
        position=tuple(tuple(draw(scalars) for _ in range(4)) for _ in range(4)),
        game_over=draw(st.floats(0, 1000)),
    )


def _naive_weights(w: Weights) -> dict[str, object]:
    data = w.to_dict()
    data.pop("game_over")
    return data


@given(grids(), weights())
def test_evaluate_matches_naive(grid: list[list[int]], w: Weights) -> None:
    total, contributions = evaluate(Board.from_rows(grid), w)
    expected_total, expected = naive.evaluate(grid, _naive_weights(w))
    assert list(contributions) == list(FEATURES)
    for name in FEATURES:
        assert contributions[name] == pytest.approx(expected[name], rel=1e-9, abs=1e-6), name
    assert total == pytest.approx(expected_total, rel=1e-9, abs=1e-6)


@pytest.mark.kernel
@given(grids(), weights())
def test_table_evaluation_matches_naive(grid: list[list[int]], w: Weights) -> None:
    board = Board.from_rows(grid)
    value = S._evaluate(
        np.uint64(board.bits), board.rows, board.cols, line_table(w, board.rows, board.cols), w.monotonicity
    )
    expected, contributions = naive.evaluate(grid, _naive_weights(w))
    scale = 1.0 + sum(abs(v) for v in contributions.values())
    assert abs(value - expected) <= 1e-9 * scale


@given(grids(), weights())
def test_lost_is_below_every_live_board(grid: list[list[int]], w: Weights) -> None:
    board = Board.from_rows(grid)
    assert lost_value(w, board.rows, board.cols) < evaluate(board, w).total - w.game_over


def test_default_weights_round_trip(tmp_path: Path) -> None:
    w = default_weights()
    path = tmp_path / "w.json"
    w.save(path)
    assert Weights.load(path) == w
    assert json.loads(path.read_text())["format"] == "plyground.g2048.weights"


def _file(tmp_path: Path, change: object) -> Path:
    data = json.loads(default_weights().to_json())
    change(data)  # type: ignore[operator]
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["weights"].pop("merges"), "missing merges"),
        (lambda d: d["weights"].update(corner=1.0), "unknown corner"),
        (lambda d: (d["weights"].pop("empty"), d["weights"].update(emptyy=1)), "missing empty; unknown emptyy"),
        (lambda d: d["weights"].update(empty="a lot"), "'empty' must be a finite number"),
        (lambda d: d["weights"].update(position=[[1, 2], [3, 4]]), "4x4 matrix"),
        (lambda d: d["weights"].update(game_over=-1), "'game_over' must be >= 0"),
        (lambda d: d.update(version=7), "unsupported weights version 7: written by a newer plyground"),
        (lambda d: d.update(version=0), "unsupported weights version 0, expected 1"),
        (lambda d: d.pop("version"), "unsupported weights version None, expected 1"),
        (lambda d: d.update(format="other"), "not a 2048 weights file"),
        (lambda d: d.update(extra=1), "unknown keys in weights file: extra"),
    ],
)
def test_bad_weights_files_name_the_problem(tmp_path: Path, change: object, message: str) -> None:
    path = _file(tmp_path, change)
    with pytest.raises(CorruptFileError, match=message) as info:
        Weights.load(path)
    assert str(info.value).count(str(path)) == 1 and "\n" not in str(info.value)


def test_weights_from_dict_errors_are_value_errors() -> None:
    with pytest.raises(InvalidInputError, match="missing"):
        Weights.from_dict({"empty": 1.0})
    with pytest.raises(ValueError, match="JSON object"):
        Weights.from_dict([1, 2])


def test_evaluate_refuses_what_is_not_a_board_or_weights_in_one_line() -> None:
    with pytest.raises(InvalidBoardError, match=r"^expected a Board, got str$"):
        evaluate("2 4/8 16")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=r"^weights must be a Weights object, got dict$"):
        evaluate(Board.parse("2 4/8 16"), {"empty": 1.0})  # type: ignore[arg-type]


def test_contributions_point_the_right_way() -> None:
    w = default_weights()
    ordered = evaluate(Board.parse("4096 2048 1024 512/256 128 64 32/16 8 4 2/0 0 0 0"), w)
    scattered = evaluate(Board.parse("2 256 8 16/4096 128 1024 32/512 4 2048 64/0 0 0 0"), w)
    assert ordered.contributions["monotonicity"] > scattered.contributions["monotonicity"]
    assert ordered.contributions["rank_sum"] == pytest.approx(scattered.contributions["rank_sum"])
    assert ordered.total > scattered.total


def test_every_shipped_weights_file_loads() -> None:
    from importlib import resources

    folder = resources.files("plyground.g2048").joinpath("weights")
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".json"))
    assert names == ["default.json", "tuned-depth2.json"]
    for name in names:
        with resources.as_file(folder.joinpath(name)) as path:
            assert Weights.load(path).empty > 0
