"""The settings of a training run: checked, resolved, saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plyground.errors import InvalidInputError
from plyground.g2048.ntuple import (
    LearnSettings,
    TrainingRun,
    WarmStart,
)
from tests.g2048.ntuple import SETTINGS


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"alpha": 0}, "alpha must be a positive number"),
        ({"alpha_steps": [(10, 0.1), (10, 0.2)]}, "by increasing games, got 10 after 10"),
        ({"alpha_steps": [(0, 0.1)]}, "the games of an alpha step must be a positive integer"),
        ({"alpha_steps": [(10, -1.0)]}, "the alpha of an alpha step must be a positive number"),
        ({"alpha_steps": [(10, 0.1, 3)]}, "must be a pair"),
        ({"alpha_steps": "10:0.1"}, "must be a list of"),
        ({"rows": 5}, "not supported"),
        ({"tuples": [[(0, 0), (3, 3)]]}, "outside the 3x3 board"),
        ({"seed": -1}, "seed must be an integer in"),
        ({"checkpoint_minutes": 0}, "checkpoint_minutes"),
        ({"checkpoint_games": 0}, "checkpoint_games must be a positive integer"),
        ({"report_games": 0}, "report_games"),
        ({"window": 0}, "window"),
        ({"p_four": 1.5}, "p_four"),
        ({"initial_value": float("nan")}, "initial_value"),
        ({"td_lambda": 1.5}, "td_lambda must be a number from 0 to 1"),
        ({"td_lambda": "0.5", "horizon": None}, "td_lambda must be a number from 0 to 1, got '0.5'"),
        ({"td_lambda": 1.0, "horizon": None}, "td_lambda 1.0 has no default horizon: give one"),
        ({"td_lambda": 0.5, "horizon": 1}, "needs a horizon of at least 2"),
        ({"horizon": 0}, "horizon must be an integer from 1 to 64"),
        ({"td_lambda": 0.5, "horizon": 65}, "horizon must be an integer from 1 to 64"),
        ({"restarts": -1}, "restarts must be an integer from 0 to 64, got -1"),
        ({"restarts": "2"}, "restarts must be an integer from 0 to 64, got '2'"),
        ({"expected": 1}, "expected must be true or false, got 1"),
        ({"expected": True, "restarts": 1}, "expected updates are TD\\(0\\)"),
        ({"expected": True, "td_lambda": 0.5, "horizon": None}, "expected updates are TD\\(0\\)"),
        ({"expected": True, "td_lambda": 0.5, "horizon": None}, "they take no td_lambda \\(0.5\\)$"),  # not horizon
        ({"expected": True, "td_lambda": 0.5, "horizon": 3}, "no td_lambda \\(0.5\\) and no horizon above 1 \\(3\\)$"),
        ({"stage_tiles": (256, 128)}, "stage tiles must increase: 128 comes after 256"),
        ({"stage_tiles": (2048,)}, "stage tile 2048 is not a power of two from 4 to 1024"),
        ({"stage_tiles": (100,)}, "stage tile 100 is not a power of two"),
        ({"stage_tiles": 128}, "stage tiles must be a list of tiles"),
    ],
)
def test_bad_settings_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        LearnSettings(**{**SETTINGS.__dict__, **changes})  # type: ignore[arg-type]


def test_td_lambda_settings_resolve_their_horizon_and_learn_as_the_network_does(tmp_path: Path) -> None:
    assert (SETTINGS.td_lambda, SETTINGS.horizon) == (0.0, 1)  # TD(0)
    assert LearnSettings(**{**SETTINGS.__dict__, "td_lambda": 0.5, "horizon": None}).horizon == 4
    assert LearnSettings(**{**SETTINGS.__dict__, "td_lambda": 0.5, "horizon": 7}).horizon == 7
    assert LearnSettings(**{**SETTINGS.__dict__, "td_lambda": 0, "horizon": 3}).horizon == 3  # delayed TD(0)
    settings = LearnSettings(**{**SETTINGS.__dict__, "td_lambda": 0.7, "horizon": None})
    run = TrainingRun(tmp_path / "run", settings)
    run.run(games=120)
    saved = json.loads((tmp_path / "run" / "run.json").read_text())["settings"]
    assert (saved["td_lambda"], saved["horizon"]) == (0.7, 7)
    assert TrainingRun(tmp_path / "run").settings == settings

    by_hand = settings.new_network()
    by_hand.learn(120, alpha=settings.alpha, td_lambda=0.7, horizon=7)
    assert run.network.weights.tobytes() == by_hand.weights.tobytes()
    plain = settings.new_network()
    plain.learn(120, alpha=settings.alpha)
    assert plain.weights.tobytes() != by_hand.weights.tobytes()


SHA = "ab" * 32
"""A checksum of the right form."""


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ({"network": "", "weights_sha256": SHA, "games": 10}, "must be named"),
        ({"network": "a", "weights_sha256": "AB" * 32, "games": 10}, "64 hexadecimal digits"),
        ({"network": "a", "weights_sha256": SHA[:-1], "games": 10}, "64 hexadecimal digits"),
        ({"network": "a", "weights_sha256": SHA, "games": -1}, "must be >= 0, got -1"),
        ({"network": "a", "weights_sha256": SHA, "games": True}, "must be >= 0, got True"),
        ({"network": "a", "weights_sha256": SHA, "games": 10, "recipe": [1]}, "must be an object"),
        ({"network": "a", "weights_sha256": SHA, "games": 10, "recipe": {"x": float("nan")}}, "finite JSON"),
        ({"network": "a", "weights_sha256": SHA}, "bad start: .*games"),
        ({"network": "a", "weights_sha256": SHA, "games": 10, "size": 3}, "bad start: .*size"),
        ("a", "start must be a WarmStart or None, got 'a'"),
    ],
)
def test_a_bad_start_is_refused(start: object, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        LearnSettings(**{**SETTINGS.__dict__, "start": start})  # type: ignore[arg-type]


def test_a_start_is_saved_and_read_back_and_its_games_come_before_the_alpha_steps(tmp_path: Path) -> None:
    start = WarmStart("runs/a", SHA, 300, {"seed": 5, "command": "plyground 2048 learn --games 300"})
    settings = LearnSettings(**{**SETTINGS.__dict__, "start": start, "alpha_steps": ((301, 0.01),)})
    data = settings.to_json()
    assert data["start"] == {"network": "runs/a", "weights_sha256": SHA, "games": 300, "recipe": dict(start.recipe)}
    assert LearnSettings(**json.loads(json.dumps(data))).start == start  # as a resumed run reads run.json
    assert "start" not in SETTINGS.to_json()  # run.json of a run from zero is as it was before starts
    with pytest.raises(InvalidInputError, match="these settings start from the network runs/a: none is made anew"):
        settings.new_network()
    with pytest.raises(InvalidInputError, match="must come after the 300 games of the network the run starts from"):
        LearnSettings(**{**SETTINGS.__dict__, "start": start, "alpha_steps": ((300, 0.01),)})
