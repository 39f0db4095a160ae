"""k-in-a-row on an n×n board (tic-tac-toe, gomoku...): rules, symmetries, and players that search.

The names below come from :mod:`plyground.kinrow.board`, loaded (with its kernels) when one
is first used: importing a light module of the package, :mod:`~plyground.kinrow.rules` or
:mod:`~plyground.kinrow.limits`, loads no kernel, so a command checks its options first.

>>> from plyground.kinrow import State, X
>>> s = State(3, 3)
>>> for move in (0, 3, 1, 4, 2):
...     s.play(move)
>>> s.result == X
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plyground.kinrow.board import DRAW, EMPTY, MAX_N, MIN_N, O, State, X, player_name, zobrist

__all__ = ["DRAW", "EMPTY", "MAX_N", "MIN_N", "O", "State", "X", "player_name", "zobrist"]


def __getattr__(name: str) -> Any:
    """The board's names, loaded on first use."""
    if name in __all__:
        from plyground.kinrow import board

        return getattr(board, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
