"""k-in-a-row on an n×n board (tic-tac-toe, gomoku...): rules, symmetries, and players that search.

>>> from plyground.kinrow import State, X
>>> s = State(3, 3)
>>> for move in (0, 3, 1, 4, 2):
...     s.play(move)
>>> s.result == X
True
"""

from plyground.kinrow.board import DRAW, EMPTY, MAX_N, MIN_N, O, State, X, player_name, zobrist

__all__ = ["DRAW", "EMPTY", "MAX_N", "MIN_N", "O", "State", "X", "player_name", "zobrist"]
