"""What the Gomocup brain does with its player beyond choosing a move: ready it, stop it, say what it found.

Whatever the kind of player, through its protocol (:class:`~plyground.kinrow.protocol.Player`):
get it ready for every rule it plays before a clock runs (:func:`warm_up`), stop its search
whatever it does (:func:`stop_player`), and write its :meth:`~plyground.kinrow.protocol.Player.report`
as the line a manager shows (:func:`search_report`).

>>> from plyground.kinrow.players import RandomPlayer
>>> search_report(RandomPlayer(1), 0, 9, str) is None  # a player that searches nothing has nothing to say
True
>>> warm_up(lambda: RandomPlayer(1), "random")
['freestyle', 'standard', 'renju']
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from plyground.errors import PlygroundError
from plyground.kinrow.board import State
from plyground.kinrow.limits import check_game
from plyground.kinrow.players import Player
from plyground.kinrow.rules import Rule

__all__ = ["search_report", "stop_player", "warm_up"]


def stop_player(player: Player) -> None:
    """Ask ``player`` to end its search now (``stop()``); a player that fails to is overruled at the deadline."""
    with contextlib.suppress(Exception):
        player.stop()


def warm_up(make_player: Callable[[], Player], kind: str | None = None) -> list[str]:
    """Do now what a brain's first ``START`` would: make a player and get it ready for each rule it plays.

    The player's kernels are compiled (or loaded) when its module is imported, before this is
    called; here its tables are built and each of its kernels run once, on a 15x15 board,
    for every rule ``kind`` plays (all of them without ``kind``). Returns the rules' names.
    """
    ready = []
    for rule in Rule:
        try:
            check_game(15, 5, rule, () if kind is None else (kind,))
        except PlygroundError:
            continue
        make_player().prepare(State(15, 5, rule=rule))
        ready.append(rule.label)
    return ready


def search_report(player: Player, move: int, cells: int, point: Callable[[int], str]) -> str | None:
    """``depth 9 score 123 nodes 45678 kind search time 950ms pv 7,7 8,8``: ``player``'s report of its search.

    Only for a search that says its ``depth`` and ``value`` (the engine's), about ``move`` (when it
    says which move); None otherwise. ``point`` writes a cell of the ``cells`` as x,y.
    """
    report = player.report()
    figures = report.figures
    if "depth" not in figures or "value" not in figures or report.move not in (None, move):
        return None
    parts = [f"depth {figures['depth']}", f"score {_shown(figures['value'])}"]
    for name in ("nodes", "kind"):
        if figures.get(name) is not None:
            parts.append(f"{name} {_shown(figures[name])}")
    seconds = figures.get("seconds")
    if isinstance(seconds, int | float):
        parts.append(f"time {round(1000 * seconds)}ms")
    line = [int(m) for m in report.line if 0 <= int(m) < cells]
    if line:
        parts.append("pv " + " ".join(point(m) for m in line))
    return " ".join(parts)


def _shown(value: object) -> str:
    """A number of a search report as the manager shows it: ``123``, ``0.52``, ``-inf``; text as it is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)
