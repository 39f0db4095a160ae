"""Heuristic features, weights files, and the search's table evaluation against the naive heuristic."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError
from plyground.g2048 import Board
from plyground.g2048 import _heuristic_kernels as HK
from plyground.g2048.heuristic import (
    FEATURES,
    MAX_WEIGHT,
    Weights,
    default_weights,
    evaluate,
    line_table,
    lost_value,
)
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
    value = HK._evaluate(
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
        (lambda d: d["weights"].update(empty=1e308), "'empty' must be a finite number from -1,000,000,000 to"),
        (lambda d: d["weights"].update(rank_sum=-(10**400)), "'rank_sum' must be a finite number from"),
        (lambda d: d["weights"]["position"][3].__setitem__(0, 1e10), "'position' must be a finite number from"),
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


def test_weights_are_checked_however_they_are_made() -> None:
    fields = default_weights().to_dict()
    with pytest.raises(InvalidInputError, match=r"^weight 'empty' must be a finite number from -1,000,000,000 to "):
        Weights(**{**fields, "empty": 1e308})
    with pytest.raises(InvalidInputError, match="'merges' must be a finite number"):
        dataclasses.replace(default_weights(), merges=float("nan"))
    with pytest.raises(InvalidInputError, match="'game_over' must be >= 0"):
        dataclasses.replace(default_weights(), game_over=-1.0)
    with pytest.raises(InvalidInputError, match="4x4 matrix"):
        dataclasses.replace(default_weights(), position=((0.0,) * 4,) * 3)
    exact = Weights(**{**fields, "empty": 1, "position": [[1, 0, 0, 0]] + [[0, 0, 0, 0]] * 3})
    assert exact.empty == 1.0 and isinstance(exact.empty, float) and exact.position[0] == (1.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_the_largest_weights_keep_every_value_below_2_to_the_53(sign: float) -> None:
    top = Weights(
        *(sign * MAX_WEIGHT for _ in range(5)), position=((sign * MAX_WEIGHT,) * 4,) * 4, game_over=MAX_WEIGHT
    )
    with pytest.raises(InvalidInputError, match="must be a finite number"):
        dataclasses.replace(top, smoothness=math.nextafter(sign * MAX_WEIGHT, sign * math.inf))
    zigzag = "32768 2 32768 2/2 32768 2 32768/32768 2 32768 2/2 32768 2 32768"  # the most monotonicity and rank_sum
    values = [
        lost_value(top, 4, 4),
        evaluate(Board.parse(zigzag), top).total,
        float(np.abs(line_table(top, 4, 4)).max()),
    ]
    assert all(math.isfinite(v) and abs(v) < 2**53 for v in values), values


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
