"""A whole 3x3 solve, killed twice (SIGKILL) and resumed: published counts, expected score, identical values.

About two minutes on two cores: the 3x3 solution has 48.7 million states.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plyground.g2048 import Board, Solution, solve
from tests.kill import kill_when

REFERENCE = json.loads((Path(__file__).resolve().parents[1] / "data" / "solver_3x3.json").read_text())

pytestmark = pytest.mark.slow


def solve_until(folder: Path, stop: Callable[[dict[str, Any]], bool]) -> None:
    """Solve 3x3 in a child process and kill it (SIGKILL) as soon as ``stop(solution.json)`` holds."""
    code = f"from plyground.g2048.solver import solve; solve(3, 3, directory={str(folder)!r})"
    kill_when(code, folder / "solution.json", stop, poll_s=0.05)


@pytest.fixture(scope="module")
def resumed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Solution, list[tuple[str, int]]]:
    folder = tmp_path_factory.mktemp("solver") / "3x3"
    solve_until(folder, lambda meta: meta["forward"]["age"] >= 700)  # in the forward pass
    solve_until(folder, lambda meta: (meta["backward"]["age"] or 10**9) <= 1200)  # in the backward pass
    calls: list[tuple[str, int]] = []
    solution = solve(3, 3, directory=folder, progress=lambda phase, age, counts: calls.append((phase, age)))
    return solution, calls


def test_the_resumed_solve_went_on_from_where_it_was_killed(resumed: tuple[Solution, list[tuple[str, int]]]) -> None:
    _, calls = resumed
    assert calls[0][0] == "backward" and calls[0][1] <= 1200
    assert calls[-1] == ("backward", 4)


def test_counts_are_the_published_ones(resumed: tuple[Solution, list[tuple[str, int]]]) -> None:
    totals = resumed[0].totals()
    assert (totals.states, totals.afterstates, totals.terminal) == (48_713_519, 31_431_374, 7_388_502)
    assert (totals.states_unreduced, totals.afterstates_unreduced, totals.terminal_unreduced) == (
        REFERENCE["states_unreduced"],
        REFERENCE["afterstates_unreduced"],
        REFERENCE["terminal_unreduced"],
    )
    assert totals.age == REFERENCE["largest_age"]


def test_expected_score_is_about_5470_and_the_values_are_those_of_an_uninterrupted_solve(
    resumed: tuple[Solution, list[tuple[str, int]]],
) -> None:
    solution = resumed[0]
    assert abs(solution.expected_score() - 5470) < 5
    assert solution.expected_score() == REFERENCE["expected_score"]
    digest = hashlib.sha256()
    for counts in solution.counts():
        digest.update(np.load(solution.directory / f"states-{counts.age:04d}.npy").tobytes())
        digest.update(np.load(solution.directory / f"values-{counts.age:04d}.npy").tobytes())
    assert digest.hexdigest() == REFERENCE["sha256"]


def test_optimal_play_on_a_3x3_position(resumed: tuple[Solution, list[tuple[str, int]]]) -> None:
    solution = resumed[0]
    position = Board.parse("2 2 0/0 4 0/0 0 0")
    values = solution.move_values(position)
    assert set(values) == {"right", "down", "left"}  # up moves nothing
    assert solution.best_move(position) == max(values, key=lambda move: values[move])
    assert solution.value(position) == max(values.values())
