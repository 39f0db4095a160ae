"""Make ``tests/data/gomoku_threats.jsonl``: gomoku positions whose VCF and VCT depths a brute force confirms.

Run from the repository root, on one core (about 6 minutes)::

    .venv/bin/python -m tests.data.make_threat_positions            # --seed 1 --out tests/data/gomoku_threats.jsonl

The same seed gives the same file. The procedure:

1. **Sample** a position (free-style, k = 5, 15x15): a square region of 6 to 8 cells a side is put anywhere on
   the board (so some touch an edge), and 8 to 22 stones are put in it, X, O, X, ... alternately, each on a
   random empty cell of the region, most next to a stone already there, never one that makes five. An even
   number of stones leaves X to move, an odd one O: the player to move is the attacker.
2. **Drop** it if the defender has two five cells already (the attacker has lost), if its symmetry class (the
   8 images under rotations and reflections) is in the file already, or if its kind and depth are full.
3. **Label** it with :mod:`tests.naive.threats`: the VCF depth within ``VCF_LIMIT`` attacker moves and the VCT
   depth within ``VCT_LIMIT``. Its kind is ``vcf`` if it has a VCF, else ``vct`` if it has a VCT, else ``none``;
   ``moves`` lists every first move of a win of that kind and depth.
4. **Keep** it if it is interesting: a ``none`` position must give the attacker a four and a three to try (it
   has threats, none wins); a ``vct`` position must have a winning first move that is a four or a three in one
   line (:func:`tests.naive.threats.is_line_three`), so a solver with the usual notion of a three finds it too.

Until every kind and depth has its quota (``QUOTAS``) or ``--tries`` samples are drawn. One JSON object per line,
positions sorted by kind, depth and board::

    {"board": ".............../...", "to_move": "X", "kind": "vct", "depth": 3, "vcf_depth": null,
     "vct_depth": 3, "vcf_limit": 7, "vct_limit": 3, "moves": ["h8"]}

``board`` is :meth:`plyground.kinrow.board.State.to_text` (rows of ``X``, ``O`` and ``.`` from the top, joined by
``/``; :meth:`State.parse` with k = 5 reads it back), ``to_move`` the attacker (X when the players have as many
stones, O when X has one more), ``vcf_depth`` and ``vct_depth`` the fewest attacker moves (the final five
included) of a VCF and of a VCT, or null when there is none within the limit, ``depth`` the one of ``kind`` (null
for ``none``), and ``moves`` cell names (``h8``: column letter, row number from the top; ``State.parse_move``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a file: make ``tests`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.naive import threats
from tests.naive.kinrow import windows

from plyground.core.files import atomic_write_text
from plyground.kinrow.board import O, State, X

N, K = 15, 5
VCF_LIMIT = 7
VCT_LIMIT = 3
OUT = Path(__file__).resolve().parent / "gomoku_threats.jsonl"
QUOTAS: dict[tuple[str, int | None], int] = {
    ("vcf", 1): 8,
    ("vcf", 2): 16,
    ("vcf", 3): 20,
    ("vcf", 4): 20,
    ("vcf", 5): 12,
    ("vcf", 6): 4,
    ("vcf", 7): 2,
    ("vct", 3): 40,
    ("none", None): 60,
}


def sample(rng: np.random.Generator) -> State:
    """A random game-like position: stones near one another in a small region, placed alternately, no five.

    Half the positions are *built*: each stone goes, more often than not, on one of the five cells that best
    extend its player's lines and cut the opponent's (:func:`_score`), as in a game; the others are random.
    Most of the time, a player blocks a five cell of the opponent.
    """
    side = int(rng.integers(6, 9))
    top, left = (int(v) for v in rng.integers(0, N - side + 1, size=2))
    region = [(top + r) * N + left + c for r in range(side) for c in range(side)]
    stones = int(rng.integers(8, 23))
    built = rng.random() < 0.5
    cells = [0] * (N * N)
    for i in range(stones):
        player = X if i % 2 == 0 else O
        fives = threats.scan(cells, N, K, player)[0]
        free = [c for c in region if cells[c] == 0 and c not in fives]
        near = [c for c in free if any(cells[m] for m in _neighbours(c))]
        pool = near if near and rng.random() < 0.85 else free
        if built and near and rng.random() < 0.7:
            pool = sorted(near, key=lambda c: (-_score(cells, c, player), c))[:5]
        blocks = [c for c in threats.scan(cells, N, K, 3 - player)[0] if c in free]
        if blocks and rng.random() < 0.9:
            pool = blocks
        cells[pool[int(rng.integers(len(pool)))]] = player
    return _state(cells)


def _score(cells: list[int], cell: int, player: int) -> int:
    """How much a stone of ``player`` on ``cell`` extends his lines (4 ** stones of each window it joins that
    the opponent has no stone in) and cuts the opponent's (half as much)."""
    total = 0
    for window in windows(N, K):
        if cell in window:
            values = [cells[i] for i in window]
            own, other = values.count(player), values.count(3 - player)
            total += 2 * 4**own if other == 0 else 4**other if own == 0 else 0
    return total


def _neighbours(cell: int) -> list[int]:
    r, c = divmod(cell, N)
    return [
        (r + dr) * N + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < N and 0 <= c + dc < N
    ]


def label(state: State) -> dict[str, object] | None:
    """The fixture line of ``state``, or None if it is not interesting (step 4 of the procedure)."""
    vcf = threats.vcf_depth(state, VCF_LIMIT)
    vct = threats.vct_depth(state, VCT_LIMIT)
    cells, attacker = [int(v) for v in state.cells], state.to_move
    if vcf is not None:
        kind, depth, moves = "vcf", vcf, threats.winning_moves(state, vcf, vct=False)
    elif vct is not None:
        kind, depth, moves = "vct", vct, threats.winning_moves(state, vct, vct=True)
        if not any(
            threats.is_four(cells, N, K, attacker, m) or threats.is_line_three(cells, N, K, attacker, m) for m in moves
        ):
            return None
    else:
        kind, depth, moves = "none", None, []
        empties = threats.empty_cells(cells)
        fours = [m for m in empties if threats.is_four(cells, N, K, attacker, m)]
        if not fours or not any(threats.is_three(cells, N, K, attacker, m) for m in empties if m not in fours):
            return None
    return {
        "board": state.to_text(),
        "to_move": "X" if attacker == X else "O",
        "kind": kind,
        "depth": depth,
        "vcf_depth": vcf,
        "vct_depth": vct,
        "vcf_limit": VCF_LIMIT,
        "vct_limit": VCT_LIMIT,
        "moves": threats.names(state, moves),
    }


def retractions(state: State) -> list[State]:
    """The positions a four and its block earlier: an attacker stone s and a defender stone b taken off where a
    window holds four attacker stones and b (so s is a four with five cell b, then the position is ``state``)."""
    cells, attacker = [int(v) for v in state.cells], state.to_move
    found: dict[tuple[int, int], State] = {}
    for window in windows(N, K):
        values = [cells[i] for i in window]
        if values.count(attacker) == K - 1 and values.count(3 - attacker) == 1:
            block = window[values.index(3 - attacker)]
            for stone in window:
                if stone != block and (stone, block) not in found:
                    board = list(cells)
                    board[stone] = board[block] = 0
                    found[stone, block] = _state(board)
    return [found[key] for key in sorted(found)]


def _state(cells: list[int]) -> State:
    return State.parse("/".join("".join(".XO"[v] for v in cells[r * N : (r + 1) * N]) for r in range(N)), K)


Key = tuple[str, int | None]


def generate(seed: int, tries: int, quotas: dict[Key, int]) -> list[dict[str, object]]:
    """Steps 1 to 4 of the procedure until the quotas are met or ``tries`` samples are drawn (one core).

    A ``vcf`` position whose deeper quotas are not met also proposes its :func:`retractions` (four of them,
    chosen at random), labelled in turn like samples: they tend to have a VCF one move longer.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([0x746872, seed])))
    kept: list[dict[str, object]] = []
    have: Counter[Key] = Counter()
    seen: set[int] = set()
    labelled, start, slowest = 0, time.perf_counter(), 0.0
    for i in range(tries):
        if all(have[key] >= count for key, count in quotas.items()):
            break
        pending = [sample(rng)]
        while pending:
            state = pending.pop()
            defender = O if state.to_move == X else X
            if state.canonical_key in seen or state.is_over or len(state.winning_moves(defender)) >= 2:
                continue
            seen.add(state.canonical_key)
            began = time.perf_counter()
            line = label(state)
            slowest = max(slowest, time.perf_counter() - began)
            labelled += 1
            if line is None:
                continue
            depth = line["depth"] if isinstance(line["depth"], int) else None
            key = (str(line["kind"]), depth)
            if line["kind"] == "vcf" and depth is not None:
                deeper = [d for kind, d in quotas if kind == "vcf" and d is not None and d > depth]
                if any(have["vcf", d] < quotas["vcf", d] for d in deeper):
                    options = retractions(state)
                    pending.extend(options[j] for j in rng.permutation(len(options))[:4].tolist())
            if have[key] >= quotas.get(key, 0):
                continue
            have[key] += 1
            kept.append(line)
            took = time.perf_counter() - start
            counts = " ".join(f"{kind}{'' if d is None else d}:{have[kind, d]}" for kind, d in quotas)
            print(
                f"try {i + 1}: {labelled} labelled in {took:.0f} s (slowest {slowest:.1f} s); {counts}", file=sys.stderr
            )
    kept.sort(key=lambda line: (str(line["kind"]), line["depth"] or 0, str(line["board"])))
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=2500, help="samples drawn at most")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.tries < 1:
        print(f"error: --tries must be at least 1, got {args.tries}", file=sys.stderr)
        return 2
    lines = generate(args.seed, args.tries, QUOTAS)
    atomic_write_text(args.out, "".join(json.dumps(line, separators=(", ", ": ")) + "\n" for line in lines))
    print(f"{len(lines)} positions written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
