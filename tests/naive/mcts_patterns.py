"""Slow twins of the pattern-guided MCTS kernels: move lists from rescanned codes, playouts, and the PUCT search.

Every position is a plain list of cells; its codes come from :func:`tests.naive.patterns.board_codes`
(a rescan of every line), its weights from
:func:`plyground.kinrow.patterns.combination_value`, its keys from the Zobrist tables by a
loop over the stones of each symmetric image. The random stream is SplitMix64 in Python
ints, drawn as the kernels draw it, so that a twin gives exactly the kernels' results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from plyground.core.splitmix import GOLDEN_INT, MASK64, mix64
from plyground.core.symmetry import permutations
from plyground.kinrow.board import zobrist
from plyground.kinrow.patterns import combination_value
from plyground.kinrow.rules import Rule
from tests.naive import patterns as naive

B4, F4, F5 = 7, 8, 9


class Stream:
    """SplitMix64: ``below(n)`` is the kernels' ``_below``."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def below(self, n: int) -> int:
        self.state = (self.state + GOLDEN_INT) & MASK64
        return ((mix64(self.state) >> 33) * n & MASK64) >> 31


def candidates(cells: list[int], n: int, k: int, rule: Rule, player: int) -> list[tuple[int, int]]:
    """The (move, weight) pairs of ``player`` in cell order, by the rules of ``_mcts_pattern_kernels``."""
    codes = naive.board_codes(cells, n, k, (rule.exact(1), rule.exact(2)))
    near = naive.near_counts(cells, n)
    me, you = player - 1, 2 - player
    empty = [cell for cell in range(n * n) if cells[cell] == 0]

    def of(side: int, cell: int) -> list[int]:
        return codes[side][cell * 4 : cell * 4 + 4]

    def weight(cell: int) -> int:
        return 1 + combination_value(tuple(of(me, cell))) + combination_value(tuple(of(you, cell)))

    for side in (me, you):
        fives = [cell for cell in empty if F5 in of(side, cell)]
        if fives:
            return [(cell, 1) for cell in fives]
    if any(F4 in of(you, cell) for cell in empty):
        moves = [
            cell
            for cell in empty
            if any(B4 <= code <= F5 for code in of(you, cell)) or any(B4 <= code <= F4 for code in of(me, cell))
        ]
    else:
        moves = [cell for cell in empty if near[cell] > 0]
    if not moves:
        moves = empty
        if not any(v in (1, 2) for v in cells):

            def far(cell: int) -> int:
                r, c = divmod(cell, n)
                return max(abs(2 * r - (n - 1)), abs(2 * c - (n - 1)))

            nearest = min(map(far, empty), default=0)
            moves = [cell for cell in empty if far(cell) == nearest]
    return [(cell, weight(cell)) for cell in moves]


def pick(stream: Stream, weights: list[int]) -> int:
    """An index drawn with probability proportional to ``weights`` (the kernels' ``_pick``)."""
    r = stream.below(sum(weights))
    i = 0
    while r >= weights[i]:
        r -= weights[i]
        i += 1
    return i


def playout(cells: list[int], n: int, k: int, rule: Rule, player: int, stream: Stream) -> int:
    """Weighted moves to the end of the game (``cells`` changes): 1 or 2 a win, 3 a draw."""
    while True:
        if any(cells[cell] == 0 and _makes_five(cells, n, k, rule, player, cell) for cell in range(n * n)):
            return player
        moves = candidates(cells, n, k, rule, player)
        if not moves:
            return 3
        cells[moves[pick(stream, [w for _, w in moves])][0]] = player
        player = 3 - player


def _makes_five(cells: list[int], n: int, k: int, rule: Rule, player: int, cell: int) -> bool:
    return any(naive.line_code(naive.line_of(cells, n, cell, d), player, k, rule.exact(player)) == F5 for d in range(4))


def position_key(cells: list[int], n: int, symmetry: bool) -> int:
    """The statistics key: the smallest Zobrist key of the symmetric images (the plain one without sharing)."""
    zob, perm = zobrist(n), permutations(n)
    keys = []
    for s in range(8 if symmetry else 1):
        h = 0
        for cell, v in enumerate(cells):
            if v:
                h ^= int(zob[perm[s, cell], v])
        keys.append(h)
    return min(keys) or 1


@dataclass
class Node:
    move: int
    prior: float
    key: int = 0
    result: int = 0
    children: list[Node] | None = None


@dataclass
class PatternMCTS:
    """The PUCT search of ``_mcts_pattern_kernels._iterate``: ``stats[key] = [visits, wins]``."""

    n: int
    k: int
    rule: Rule
    c: float
    symmetry: bool
    stream: Stream
    stats: dict[int, list[float]] = field(default_factory=dict)

    def search(self, cells: list[int], player: int, iterations: int) -> dict[int, tuple[float, float]]:
        """Run ``iterations`` iterations from ``cells``; the root children's (visits, wins) by move."""
        n = self.n
        root = Node(-1, 1.0, position_key(cells, n, self.symmetry))
        for _ in range(iterations):
            work = list(cells)
            node, to_move, path = root, player, [root]
            result = root.result
            while result == 0:
                if node.children is None:
                    moves = candidates(work, n, self.k, self.rule, to_move)
                    total = float(sum(w for _, w in moves))
                    node.children = [Node(move, w / total) for move, w in moves]
                parent = self.stats.get(node.key, [0.0, 0.0])
                fpu = 1.0 - parent[1] / parent[0] if parent[0] > 0.0 else 0.5
                explore = self.c * math.sqrt(max(parent[0], 1.0))
                best, best_score = node.children[0], -1.0
                for child in node.children:
                    v, w = self.stats.get(child.key, [0.0, 0.0]) if child.key else (0.0, 0.0)
                    q = w / v if v > 0.0 else fpu
                    score = q + explore * child.prior / (1.0 + v)
                    if score > best_score:
                        best, best_score = child, score
                node = best
                won = _makes_five(work, n, self.k, self.rule, to_move, node.move)
                work[node.move] = to_move
                if not node.key:
                    node.key = position_key(work, n, self.symmetry)
                    node.result = to_move if won else 3 if all(work) else 0
                to_move = 3 - to_move
                path.append(node)
                result = node.result
                if self.stats.get(node.key, [0.0, 0.0])[0] == 0.0:
                    break
            if result == 0:
                result = playout(work, n, self.k, self.rule, to_move, self.stream)
            mover = 3 - player
            for node in path:
                entry = self.stats.setdefault(node.key, [0.0, 0.0])
                entry[0] += 1.0
                entry[1] += 1.0 if result == mover else 0.5 if result == 3 else 0.0
                mover = 3 - mover
        assert root.children is not None
        return {
            child.move: tuple(self.stats.get(child.key, [0.0, 0.0])) if child.key else (0.0, 0.0)  # type: ignore[misc]
            for child in root.children
        }
