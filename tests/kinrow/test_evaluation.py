"""The engine's evaluation: cell features, the fitted tables, and the hand-made fallback."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import CorruptFileError
from plyground.kinrow import _pattern_kernels as P
from plyground.kinrow.evaluation import (
    FEATURES,
    FITTED,
    HAND_HOT,
    HAND_TEMPO,
    FeatureWeights,
    cell_features,
    evaluation_for,
    feature_table,
    read_feature_weights,
    write_feature_weights,
)
from plyground.kinrow.patterns import Pattern, combination_values
from plyground.kinrow.rules import Rule

B1, F2, B3, F3, B4, F4, F5 = Pattern.B1, Pattern.F2, Pattern.B3, Pattern.F3, Pattern.B4, Pattern.F4, Pattern.F5
NONE = Pattern.NONE


def classes(codes: tuple[int, ...]) -> list[str]:
    features = cell_features(codes)
    return [name for name, value in zip(FEATURES[7:], features[7:], strict=True) if value]


def test_cells_fall_in_the_strongest_double_threat_class_or_in_the_lesser_ones_they_hold() -> None:
    assert classes((F4, NONE, NONE, NONE)) == ["double four"]
    assert classes((B4, B4, F3, NONE)) == ["double four"]
    assert classes((B4, F3, F3, NONE)) == ["four three"]
    assert classes((F3, F3, B3, NONE)) == ["double three"]
    assert classes((B4, B3, NONE, NONE)) == ["four + three"]
    assert classes((F3, B3, NONE, NONE)) == ["open three + three"]
    assert classes((F3, B3, F2, NONE)) == ["open three + three", "open three + open two"]  # the lesser ones add up
    assert classes((B4, F2, NONE, NONE)) == ["four + open two"]
    assert classes((F3, F2, NONE, NONE)) == ["open three + open two"]
    assert classes((B3, B3, NONE, NONE)) == ["two threes"]
    assert classes((F2, F2, B1, NONE)) == ["two open twos"]
    assert classes((B3, F2, NONE, NONE)) == ["three + open two"]
    assert classes((F3, NONE, NONE, B1)) == []
    assert cell_features((F5, B4, F3, F3)) == (0,) * len(FEATURES)  # a five is the search's business


def test_single_codes_are_counted_line_by_line() -> None:
    features = cell_features((B1, B1, F3, B4))
    assert features[:7] == (2, 0, 0, 0, 0, 1, 1)


@given(st.tuples(*[st.integers(0, P.NPAT - 1)] * 4))
@settings(max_examples=200, deadline=None)
def test_the_feature_table_and_the_fitted_rows_follow_the_definition(codes: tuple[int, int, int, int]) -> None:
    index = ((codes[0] * P.NPAT + codes[1]) * P.NPAT + codes[2]) * P.NPAT + codes[3]
    features = cell_features(codes)
    assert tuple(feature_table()[index]) == features
    weights = evaluation_for(5, Rule.FREESTYLE).weights
    mover = sum(f * w for f, w in zip(features, FITTED.mover, strict=True))
    waiter = sum(f * w for f, w in zip(features, FITTED.waiter, strict=True))
    assert weights[2:, index].tolist() == [mover, mover, waiter, waiter]


def test_gomoku_uses_the_fit_and_other_games_the_hand_made_worth() -> None:
    for rule in (Rule.FREESTYLE, Rule.STANDARD):
        evaluation = evaluation_for(5, rule)
        assert evaluation.fitted and (evaluation.tempo_x, evaluation.tempo_o, evaluation.hot) == (
            FITTED.tempo_x, FITTED.tempo_o, FITTED.hot,
        )  # fmt: skip
        assert np.array_equal(evaluation.weights[:2], combination_values(rule))  # the move order is unchanged
    for k, rule in itertools.chain(((k, Rule.FREESTYLE) for k in (3, 4)), [(5, Rule.RENJU)]):
        evaluation = evaluation_for(k, rule)
        worth = combination_values(rule)
        assert not evaluation.fitted and (evaluation.tempo_x, evaluation.tempo_o, evaluation.hot) == (
            HAND_TEMPO, HAND_TEMPO, HAND_HOT,
        )  # fmt: skip
        assert np.array_equal(evaluation.weights[2:4], worth) and np.array_equal(evaluation.weights[4:], -worth)


@given(st.tuples(*[st.integers(0, P.NPAT - 1)] * 4))
@settings(max_examples=200, deadline=None)
def test_the_symmetric_rows_are_the_fit_averaged_over_the_two_sides_to_move(codes: tuple[int, int, int, int]) -> None:
    index = ((codes[0] * P.NPAT + codes[1]) * P.NPAT + codes[2]) * P.NPAT + codes[3]
    features = cell_features(codes)
    own = sum(f * ((m - w) // 2) for f, m, w in zip(features, FITTED.mover, FITTED.waiter, strict=True))
    evaluation = evaluation_for(5, Rule.FREESTYLE, "symmetric")
    assert evaluation.weights[2:, index].tolist() == [own, own, -own, -own]
    assert np.array_equal(evaluation.weights[:2], combination_values(Rule.FREESTYLE))  # the move order is unchanged


def test_the_symmetric_evaluation_is_the_fit_where_there_is_one_and_the_hand_made_worth_elsewhere() -> None:
    evaluation = evaluation_for(5, Rule.STANDARD, "symmetric")
    assert evaluation.fitted and evaluation.hot == 0
    assert evaluation.tempo_x == (FITTED.tempo_x - FITTED.tempo_o) // 2 == -evaluation.tempo_o
    for k, rule in ((4, Rule.FREESTYLE), (5, Rule.RENJU)):
        assert np.array_equal(evaluation_for(k, rule, "symmetric").weights, evaluation_for(k, rule, "hand").weights)


def test_the_tables_are_read_only() -> None:
    with pytest.raises(ValueError, match="read-only"):
        evaluation_for(5, Rule.FREESTYLE).weights[2, 0] = 1
    with pytest.raises(ValueError, match="read-only"):
        feature_table()[0, 0] = 1


def test_the_fit_values_threats_of_the_player_to_move_above_the_opponents() -> None:
    """What the fit learned, as a sanity check of its numbers: a four-three to make is worth more
    to the player to move than the opponent's is against it, and fours and threes count."""
    mover, waiter = dict(zip(FEATURES, FITTED.mover, strict=True)), dict(zip(FEATURES, FITTED.waiter, strict=True))
    assert mover["four three"] > -waiter["four three"] > 0
    assert mover["double four"] > 0 > waiter["double four"]
    assert mover["B4"] > 0 > waiter["B4"] and mover["F3"] > 0 > waiter["F3"]


def test_the_hand_made_evaluation_can_be_chosen_everywhere() -> None:
    from typer.testing import CliRunner

    from plyground.apps.cli.main import app
    from plyground.errors import InvalidInputError
    from plyground.kinrow.engine import Engine, EngineSettings
    from plyground.kinrow.players import make_player

    assert not evaluation_for(5, Rule.FREESTYLE, "hand").fitted
    known = "fitted, symmetric, hand"
    with pytest.raises(InvalidInputError, match=f"unknown evaluation 'best'; the evaluations are {known}"):
        evaluation_for(5, Rule.FREESTYLE, "best")
    with pytest.raises(InvalidInputError, match="unknown evaluation"):
        Engine(depth=1, settings=EngineSettings(evaluation="best"))
    assert make_player("engine").settings.evaluation == "fitted"  # type: ignore[attr-defined]
    assert make_player("engine", evaluation="hand").settings.evaluation == "hand"  # type: ignore[attr-defined]
    args = ["kinrow", "selfplay", "--n", "9", "--k", "5", "--x", "engine", "--o", "random", "--games", "1", "--quiet"]
    result = CliRunner().invoke(app, [*args, "--evaluation", "hand", "--time-ms", "20", "--seed", "1"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, [*args, "--evaluation", "best"])
    assert result.exit_code == 2 and "best" in result.output


TODAYS_FITTED = FeatureWeights(
    mover=(23, -3, 6, -18, 56, 127, 202, 2375, 2732, 43, 409, 235, 428, 153, -12, 104, 132),
    waiter=(-13, 8, 4, 21, -38, -93, -201, -795, -246, 97, -178, -5, -310, -130, 130, -39, -59),
    tempo_x=-4528,
    tempo_o=-6045,
    hot=1005,
)
"""The fitted weights as they were typed into the module before they moved to its data file."""


def test_the_fitted_weights_are_read_from_the_package_data_unchanged() -> None:
    assert FITTED == TODAYS_FITTED  # the engine plays exactly as before


def test_fitted_weights_are_written_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "fitted.json"
    write_feature_weights(path, TODAYS_FITTED, note="a test")
    assert read_feature_weights(path) == TODAYS_FITTED
    assert json.loads(path.read_text())["features"] == list(FEATURES)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "expected format"),
        ({"features": ["B1"]}, "its features are not these"),
        ({"mover": [1, 2]}, "'mover' must be a list of 17 integers"),
        ({"waiter": [0.5] * 17}, "'waiter' must be an integer"),
        ({"hot": "1005"}, "'hot' must be an integer"),
        ({"tempo_x": True}, "'tempo_x' must be an integer"),
    ],
)
def test_a_damaged_weights_file_is_refused_in_one_line(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    path = tmp_path / "fitted.json"
    write_feature_weights(path, TODAYS_FITTED)
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    with pytest.raises(CorruptFileError, match=message) as raised:
        read_feature_weights(path)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)
    path.write_text("{not json")
    with pytest.raises(CorruptFileError, match="not valid JSON"):
        read_feature_weights(path)
