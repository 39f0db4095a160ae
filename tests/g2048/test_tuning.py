"""CMA-ES tuning: the weight encoding, a run killed by SIGKILL mid-generation resumes to the uninterrupted end."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048 import Weights, default_weights
from plyground.g2048.heuristic import MAX_WEIGHT
from plyground.g2048.tuning import TUNED, Encoding, Tuner, TuneSettings, compare_weights

pytest.importorskip("cma")

SETTINGS = TuneSettings(generations=3, population=4, games=3, depth=1, rows=2, cols=3, seed=7)


@given(st.lists(st.floats(-5, 5), min_size=len(TUNED), max_size=len(TUNED)))
def test_decoding_keeps_signs_and_round_trips(vector: list[float]) -> None:
    encoding = Encoding(default_weights())
    weights = encoding.decode(vector)
    base = default_weights()
    for name in TUNED:
        value, start = getattr(weights, name), getattr(base, name)
        if start != 0:
            assert math.copysign(1, value) == math.copysign(1, start) and value != 0
    assert weights.game_over >= 0
    assert weights.position == base.position
    again = encoding.encode(weights)
    for name, x, y in zip(TUNED, vector, again, strict=True):
        assert y == pytest.approx(abs(x) if name == "game_over" else x, abs=1e-9), name


def test_decoding_keeps_every_weight_within_the_bound() -> None:
    encoding = Encoding(default_weights())
    far = encoding.decode([60.0] * len(TUNED))  # where CMA-ES might drift: weights are checked, so decoding clamps
    assert far.empty == pytest.approx(MAX_WEIGHT) and far.monotonicity == pytest.approx(-MAX_WEIGHT)
    for x in (1e6, -1e6):
        weights = encoding.decode([x] * len(TUNED))
        assert all(abs(getattr(weights, name)) <= MAX_WEIGHT for name in TUNED)
    assert encoding.decode([1e6] * len(TUNED)).game_over == MAX_WEIGHT


def test_log_scale_multiplies() -> None:
    encoding = Encoding(default_weights())
    vector = encoding.encode(default_weights())
    vector[TUNED.index("empty")] += math.log(2)
    assert encoding.decode(vector).empty == pytest.approx(2 * default_weights().empty)


def final_state(folder: Path) -> dict[str, object]:
    """Everything a finished run leaves, but timings: CMA-ES's mean, step and covariance, the files."""
    tuner = Tuner(folder)
    es = tuner.state.es
    return {
        "done": tuner.state.done,
        "generation": tuner.state.generation,
        "mean": np.asarray(es.mean).tolist(),
        "sigma": float(es.sigma),
        "covariance": np.asarray(es.C).tolist(),
        "history": sorted((g, c, s, v) for g, c, s, v in tuner.state.history),
        "best": tuner.state.best,
        "csv": (folder / "evaluations.csv").read_text(),
        "best.json": json.loads((folder / "best.json").read_text()),
    }


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from plyground.core.run_many import Backend
    from plyground.g2048.tuning import Tuner, TuneSettings
    settings = TuneSettings(**{settings})
    games = 0
    def on_game(result):
        global games
        games += 1
        if games == {kill_after}:
            os.kill(os.getpid(), signal.SIGKILL)
    Tuner(sys.argv[1], settings).run(backend=Backend(workers=1), on_game=on_game)
    """
)


def test_a_run_killed_mid_generation_resumes_to_the_same_end(tmp_path: Path) -> None:
    from plyground.core.run_many import Backend

    whole = tmp_path / "whole"
    Tuner(whole, SETTINGS).run(backend=Backend(workers=1))
    expected = final_state(whole)
    assert expected["done"] and expected["generation"] == 3 and len(expected["history"]) == 12  # type: ignore[arg-type]

    killed = tmp_path / "killed"
    # generation 1 (the second) has candidates 4-7 and games 13-24: kill after game 17, inside candidate 5
    script = KILLER.format(settings=repr(SETTINGS.__dict__), kill_after=17)
    process = subprocess.run([sys.executable, "-c", script, str(killed)], capture_output=True, text=True, timeout=120)
    assert process.returncode == -signal.SIGKILL, process.stderr
    partial = Tuner(killed)
    assert partial.state.generation == 1 and sorted(partial.state.scores) == [0]
    assert partial.evaluations_done == 5

    evaluations: list[tuple[int, int]] = []
    partial.run(backend=Backend(workers=1), on_evaluation=lambda g, c, s: evaluations.append((g, c)))
    assert evaluations[:3] == [(1, 1), (1, 2), (1, 3)]  # the finished evaluation is not redone
    assert len(evaluations) == 7
    assert final_state(killed) == expected


def test_a_run_on_the_process_pool_ends_as_in_one_process(tmp_path: Path) -> None:
    from plyground.core.run_many import Backend

    settings = TuneSettings(generations=2, population=3, games=2, depth=1, rows=2, cols=2, seed=3)
    Tuner(tmp_path / "one", settings).run(backend=Backend(workers=1))
    Tuner(tmp_path / "pool", settings).run(backend=Backend(workers=2))
    assert final_state(tmp_path / "one") == final_state(tmp_path / "pool")


def test_best_json_is_a_weights_file(tmp_path: Path) -> None:
    from plyground.core.run_many import Backend

    settings = TuneSettings(generations=1, population=3, games=2, depth=1, rows=2, cols=2)
    tuner = Tuner(tmp_path, settings)
    tuner.run(backend=Backend(workers=1))
    best = tuner.best_weights()
    assert best is not None
    weights, score = best
    assert Weights.load(tmp_path / "best.json") == weights
    assert score == max(s for _, _, s, _ in tuner.state.history)
    assert not (tmp_path / "curve.png").exists()  # the data only: the command line draws the curve


def test_every_generation_is_handed_on_once_saved(tmp_path: Path) -> None:
    from plyground.core.run_many import Backend

    settings = TuneSettings(generations=2, population=3, games=2, depth=1, rows=2, cols=2)
    tuner = Tuner(tmp_path, settings)
    seen: list[tuple[int, int]] = []
    tuner.run(
        backend=Backend(workers=1), on_generation=lambda state: seen.append((state.generation, len(state.history)))
    )
    assert seen == [(1, 3), (2, 6)]


def test_folders_are_checked(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no tuning run to resume"):
        Tuner(tmp_path / "empty")
    Tuner(tmp_path / "run", SETTINGS)
    with pytest.raises(InvalidInputError, match="already holds a tuning run"):
        Tuner(tmp_path / "run", SETTINGS)
    (tmp_path / "run" / "state.pkl").write_bytes(b"garbage")
    with pytest.raises(CorruptFileError, match=r"state\.pkl"):
        Tuner(tmp_path / "run")
    (tmp_path / "run" / "tune.json").write_text('{"format": "something else"}')
    with pytest.raises(CorruptFileError, match="not the settings of a tuning run"):
        Tuner(tmp_path / "run")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"population": 1}, "population must be at least 2"),
        ({"games": 0}, "games must be a positive integer"),
        ({"depth": None}, "one of them"),
        ({"time_ms": 5.0}, "one of them"),
        ({"depth": 31}, "depth must be an integer from 1 to 30"),
        ({"rows": 5}, "rows must be 2, 3 or 4"),
        ({"seed": -1}, "seed must be an integer from 0 to 9999"),
        ({"sigma": 0}, "sigma"),
        ({"p_four": 1.5}, "p_four"),
    ],
)
def test_bad_settings_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        TuneSettings(**{**SETTINGS.__dict__, **changes})  # type: ignore[arg-type]


def test_the_same_weights_compare_equal() -> None:
    from plyground.core.run_many import Backend

    comparison = compare_weights(None, default_weights(), SETTINGS, games=4, first_seed=100, backend=Backend(workers=1))
    assert comparison.difference == 0 and comparison.interval == (0.0, 0.0)
    assert comparison.mean_a == comparison.mean_b > 0 and not comparison.b_is_better


def test_much_worse_weights_compare_worse() -> None:
    from plyground.core.run_many import Backend

    bad = Weights.from_dict({**default_weights().to_dict(), "empty": -500.0, "merges": -700.0})
    comparison = compare_weights(None, bad, SETTINGS, games=12, first_seed=100, backend=Backend(workers=1))
    assert comparison.interval[1] < 0 and not comparison.b_is_better
