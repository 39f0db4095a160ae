"""What k-in-a-row games each player can play: board sizes, k and rules, checked before any work.

Every front end (the command line, the web lab, the Gomocup brain) asks :func:`check_game`
before it makes a board or a player, so that a game none of its players can play is refused
up front with the reason, never on the first move the player cannot make. The module
imports no game code (and so no numba): a command can check its options before it compiles
or loads a kernel.

>>> check_game(15, 5, "renju", ["engine", "random"]).label
'renju'
>>> check_game(9, 7, "freestyle", ["engine"])
Traceback (most recent call last):
...
plyground.errors.InvalidInputError: engine plays k from 3 to 5, got k = 7: choose alphabeta, mcts, random or first_legal
"""

from __future__ import annotations

from collections.abc import Iterable

from plyground.errors import InvalidInputError
from plyground.kinrow.registry import KINDS
from plyground.kinrow.rules import Rule, parse_rule

__all__ = ["MAX_N", "MIN_K", "MIN_N", "PATTERN_MAX_K", "PLAYER_KINDS", "RENJU_K", "RENJU_KINDS", "check_game"]

MIN_N, MAX_N = 3, 20
"""The sides of the boards, from tic-tac-toe's 3 to 20 (the columns a to t)."""
MIN_K = 3
"""The shortest winning line; the longest is the side of the board."""
RENJU_K = 5
"""Renju is gomoku: five in a row."""
PATTERN_MAX_K = 5
"""The longest line the pattern tables know (a line key sees five cells on each side): the engine's
limit, and that of MCTS with patterns."""
LONG_K = "alphabeta"
"""The strongest player of lines longer than :data:`PATTERN_MAX_K` (it beat MCTS in every decided game at k 6
and 7): named first among the choices there."""
PLAYER_KINDS = tuple(KINDS)
"""The kinds of player (see :func:`plyground.kinrow.players.make_player` and :mod:`plyground.kinrow.registry`)."""
RENJU_KINDS = tuple(name for name, kind in KINDS.items() if kind.renju)
"""The players that play renju (MCTS and alpha-beta play free-style and standard)."""
_PATTERN_KINDS = tuple(name for name, kind in KINDS.items() if kind.patterns)


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_game(
    n: int,
    k: int,
    rule: Rule | str | int = Rule.FREESTYLE,
    kinds: Iterable[str] = (),
    *,
    patterns: bool | None = None,
    offered: Iterable[str] = PLAYER_KINDS,
) -> Rule:
    """The rule of a game of k in a row on an n×n board, once checked against each player of ``kinds``.

    Args:
        n: the side of the board, :data:`MIN_N` to :data:`MAX_N`.
        k: stones in a row that win, :data:`MIN_K` to ``n`` (:data:`RENJU_K` under renju).
        rule: a :class:`~plyground.kinrow.rules.Rule`, its name or its number.
        kinds: the kinds of the game's players (:data:`PLAYER_KINDS`).
        patterns: the MCTS players' ``patterns`` (True needs k up to :data:`PATTERN_MAX_K`; None
            turns them on only where they apply).
        offered: the kinds the caller offers, which a refusal suggests instead (default: all).

    Returns:
        The rule, parsed.

    Raises:
        InvalidInputError: the first thing out of range or that a player cannot play, with
            the value in the message (and, for a player, the players that can).
    """
    if not _integer(n) or not MIN_N <= n <= MAX_N:
        raise InvalidInputError(f"n must be an integer from {MIN_N} to {MAX_N}, got {n!r}")
    if not _integer(k) or not MIN_K <= k <= n:
        raise InvalidInputError(f"k must be an integer from {MIN_K} to n = {n}, got {k!r}")
    chosen = parse_rule(rule)
    choices = tuple(offered)
    if chosen is Rule.RENJU and k != RENJU_K:
        raise InvalidInputError(f"renju is played with k = {RENJU_K}, got k = {k}")
    for kind in dict.fromkeys(kinds):
        if kind not in PLAYER_KINDS:
            raise InvalidInputError(f"unknown player {kind!r}; known players: {', '.join(PLAYER_KINDS)}")
        if chosen is Rule.RENJU and kind not in RENJU_KINDS:
            others = _others(tuple(kind for kind in choices if kind in RENJU_KINDS))
            raise InvalidInputError(f"{kind} plays free-style and standard, not renju: choose {others}")
        if k > PATTERN_MAX_K and kind in _PATTERN_KINDS:
            beyond = sorted((kind for kind in choices if kind not in _PATTERN_KINDS), key=lambda kind: kind != LONG_K)
            others = _others(tuple(beyond))
            raise InvalidInputError(f"{kind} plays k from {MIN_K} to {PATTERN_MAX_K}, got k = {k}: choose {others}")
        if k > PATTERN_MAX_K and kind == "mcts" and patterns:
            raise InvalidInputError(
                f"mcts with patterns plays k from {MIN_K} to {PATTERN_MAX_K}, got k = {k}: turn the patterns off"
            )
    return chosen


def _others(kinds: tuple[str, ...]) -> str:
    """``a, b or c``: the players to choose from, the person left out."""
    names = [kind for kind in kinds if kind != "human"]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
