"""What each player can play: the one check of every front end agrees with what the players do."""

from __future__ import annotations

import subprocess
import sys

import pytest

from plyground.errors import InvalidInputError
from plyground.kinrow.board import State
from plyground.kinrow.limits import PLAYER_KINDS, check_game
from plyground.kinrow.players import make_player
from plyground.kinrow.rules import Rule

AI_KINDS = [kind for kind in PLAYER_KINDS if kind != "human"]


@pytest.mark.parametrize(
    ("n", "k", "rule", "kinds", "patterns", "message"),
    [
        (2, 3, "freestyle", [], None, "n must be an integer from 3 to 20, got 2"),
        (21, 5, "freestyle", [], None, "n must be an integer from 3 to 20, got 21"),
        (True, 3, "freestyle", [], None, "n must be an integer"),
        (9, 10, "freestyle", [], None, "k must be an integer from 3 to n = 9, got 10"),
        (9, 2, "freestyle", [], None, "k must be an integer from 3 to n = 9, got 2"),
        (9, 5, "gomoku", [], None, "unknown rule 'gomoku'"),
        (15, 4, "renju", [], None, "renju is played with k = 5, got k = 4"),
        (15, 5, "renju", ["engine", "mcts"], None, "mcts plays free-style and standard, not renju: choose engine, "),
        (15, 5, 4, ["alphabeta"], None, "alphabeta plays free-style and standard, not renju"),
        (9, 7, "freestyle", ["random", "engine"], None, "engine plays k from 3 to 5, got k = 7: choose alphabeta, "),
        (9, 6, "standard", ["mcts"], True, "mcts with patterns plays k from 3 to 5, got k = 6"),
        (9, 5, "freestyle", ["deep_blue"], None, "unknown player 'deep_blue'"),
    ],
)
def test_what_no_player_can_play_is_refused_with_the_reason(
    n: int, k: int, rule: str | int, kinds: list[str], patterns: bool | None, message: str
) -> None:
    with pytest.raises(InvalidInputError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        check_game(n, k, rule, kinds, patterns=patterns)


def test_what_is_accepted_returns_the_rule() -> None:
    assert check_game(15, 5, "renju", ["engine", "random", "first_legal", "human"]) is Rule.RENJU
    assert check_game(9, 6, 1, ["mcts", "alphabeta", "random"], patterns=None) is Rule.STANDARD
    assert check_game(20, 20, "freestyle", ["mcts"], patterns=False) is Rule.FREESTYLE
    assert check_game(3, 3) is Rule.FREESTYLE


def game_of(kind: str, n: int, k: int, rule: Rule, patterns: bool | None) -> str | None:
    """What a player of ``kind`` says when asked for a move of that game: None (a move), or its error."""
    player = make_player(kind, depth=1, iterations=20, time_ms=20 if kind == "engine" else None, patterns=patterns)
    try:
        prepare = getattr(player, "prepare", None)
        if prepare is not None:
            prepare(State(n, k, rule=rule))
        player.choose(State(n, k, rule=rule))
    except InvalidInputError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("kind", AI_KINDS)
@pytest.mark.parametrize("rule", list(Rule))
def test_the_check_agrees_with_the_players(kind: str, rule: Rule) -> None:
    """Every game the check accepts, the player plays; every one it refuses, the player would refuse on its move."""
    for k in (3, 5, 6) if rule is not Rule.RENJU else (5,):
        for patterns in (None, True, False) if kind == "mcts" else (None,):
            try:
                check_game(9, k, rule, [kind], patterns=patterns)
                accepted = True
            except InvalidInputError:
                accepted = False
            assert (game_of(kind, 9, k, rule, patterns) is None) == accepted, (kind, k, rule, patterns)


def test_checking_loads_no_kernel() -> None:
    script = (
        "import sys\n"
        "from plyground.kinrow.limits import check_game\n"
        "check_game(15, 5, 'renju', ['engine'])\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('plyground.kinrow.')))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    loaded = ["['plyground.kinrow.limits',", "'plyground.kinrow.registry',", "'plyground.kinrow.rules']"]
    assert result.stdout.split() == loaded  # the kinds' table (no game code) and the rules, never numba


def test_the_registry_knows_every_kind_and_the_kernels_each_compiles() -> None:
    """Importing a kind's module loads the board's kernels and the kind's, and no other: what the commands
    compile (and announce) before the first move is what the game then uses."""
    import json
    import subprocess
    import sys

    from plyground.kinrow.limits import PLAYER_KINDS
    from plyground.kinrow.registry import BOARD_KERNELS, KINDS, PACKAGE, kernel_groups

    assert tuple(KINDS) == PLAYER_KINDS
    modules = {"engine": "engine", "mcts": "mcts", "alphabeta": "alphabeta"}
    assert {name for name, kind in KINDS.items() if kind.kernels} == set(modules)
    for name, module in modules.items():
        code = (
            f"import json, sys; import {PACKAGE}.{module}\n"
            f"print(json.dumps([m.rsplit('.', 1)[1] + '.py' for m in sys.modules if m.startswith('{PACKAGE}._')]))"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
        expected = {kernels for _, kernels, _ in kernel_groups([name])}
        assert loaded == expected, (name, loaded ^ expected)
        assert set(BOARD_KERNELS) <= loaded
