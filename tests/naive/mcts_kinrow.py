"""A straightforward numpy implementation of the same UCT search as ``plyground.kinrow.mcts``.

The slow twin of the numba kernels, and the baseline of ``benchmarks/kinrow.py``: Python
node objects, a dict of statistics keyed by the position's bytes (the canonical form under
the 8 symmetries when sharing), a numpy board, numpy random playouts, and a win check that
counts stones along the four lines through the last move.
"""

from __future__ import annotations

import math

import numpy as np

from plyground.core.symmetry import canonical

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def wins_at(board: np.ndarray, k: int, row: int, col: int, player: int) -> bool:
    """Whether ``player`` has k or more in a line through (row, col)."""
    n = board.shape[0]
    for dr, dc in DIRECTIONS:
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < n and 0 <= c < n and board[r, c] == player:
                count += 1
                r, c = r + sign * dr, c + sign * dc
        if count >= k:
            return True
    return False


class Node:
    def __init__(self, move: int | None, result: int) -> None:
        self.move = move
        self.result = result  # 0 ongoing, 1 or 2 a win, 3 a draw
        self.children: list[Node] | None = None
        self.key: bytes = b""


class NaiveMCTS:
    """UCT: select (a child not looked at or unvisited first, in cell order), expand, random playout, back up."""

    def __init__(self, c: float = math.sqrt(2), symmetry: bool = True, seed: int = 0) -> None:
        self.c, self.symmetry = c, symmetry
        self.rng = np.random.default_rng(seed)
        self.visits: dict[bytes, float] = {}
        self.wins: dict[bytes, float] = {}

    def key(self, board: np.ndarray) -> bytes:
        flat = board.reshape(-1).astype(np.int8)
        return canonical(flat, board.shape[0])[0] if self.symmetry else flat.tobytes()

    def search(self, board: np.ndarray, k: int, player: int, iterations: int) -> dict[int, float]:
        """Visits of each root move after ``iterations`` iterations from ``board`` (``player`` to move)."""
        n = board.shape[0]
        root = Node(None, 0)
        root.key = self.key(board)
        for _ in range(iterations):
            work = board.copy()
            node, to_move, path = root, player, [root]
            result = root.result
            while result == 0:
                if node.children is None:  # the empty cells, looked at when first chosen
                    node.children = [Node(int(move), 0) for move in np.flatnonzero(work.reshape(-1) == 0)]
                log_parent = math.log(max(1.0, self.visits.get(node.key, 0.0)))
                best, best_score = None, -1.0
                for child in node.children:
                    v = self.visits.get(child.key, 0.0) if child.key else 0.0
                    if v == 0.0:
                        best = child
                        break
                    score = self.wins.get(child.key, 0.0) / v + self.c * math.sqrt(log_parent / v)
                    if score > best_score:
                        best, best_score = child, score
                assert best is not None and best.move is not None
                node = best
                r, c = divmod(node.move, n)
                work[r, c] = to_move
                if not node.key:  # first look: the position's key and whether the game ends here
                    node.key = self.key(work)
                    full = not (work == 0).any()
                    node.result = to_move if wins_at(work, k, r, c, to_move) else 3 if full else 0
                to_move = 3 - to_move
                path.append(node)
                result = node.result
                if self.visits.get(node.key, 0.0) == 0.0:
                    break
            if result == 0:
                result = self.playout(work, k, to_move)
            mover = 3 - player
            for node in path:
                self.visits[node.key] = self.visits.get(node.key, 0.0) + 1.0
                self.wins[node.key] = self.wins.get(node.key, 0.0) + (
                    1.0 if result == mover else 0.5 if result == 3 else 0.0
                )
                mover = 3 - mover
        assert root.children is not None
        return {child.move: self.visits.get(child.key, 0.0) for child in root.children if child.move is not None}

    def playout(self, board: np.ndarray, k: int, player: int) -> int:
        n = board.shape[0]
        empties = list(np.flatnonzero(board.reshape(-1) == 0))
        while empties:
            move = int(empties.pop(int(self.rng.integers(len(empties)))))
            r, c = divmod(move, n)
            board[r, c] = player
            if wins_at(board, k, r, c, player):
                return player
            player = 3 - player
        return 3
