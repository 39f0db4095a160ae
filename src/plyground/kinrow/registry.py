"""The k-in-a-row players by kind, as the commands, the web lab and the kernel warm-up know them.

Each kind says its name (as :func:`~plyground.kinrow.players.make_player`, which makes one, and
the commands take it), its label (in the first-run compile line), the kernel files of
:mod:`plyground.kinrow` its player compiles, and where it is offered and what it plays. The
commands compile what a game needs from here (:func:`kernel_groups`) before the first move, saying
so on a first run; their choices of AI (:data:`AI_KINDS`), the web lab's opponents
(:data:`OPPONENTS`) and the checks of :mod:`~plyground.kinrow.limits` are read from here too. This
module loads no game code (and so no numba): a command reads it before anything is compiled.

>>> [kind.name for kind in KINDS.values() if kind.kernels]
['engine', 'mcts', 'alphabeta']
>>> AI_KINDS, OPPONENTS
(('engine', 'mcts', 'alphabeta', 'random', 'first_legal'), ('engine', 'mcts', 'alphabeta', 'random'))
>>> kernel_groups(["random"])
[('plyground.kinrow', '_kernels.py', 'k-in-a-row'), ('plyground.kinrow', '_renju_kernels.py', 'k-in-a-row')]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["AI_KINDS", "BOARD_KERNELS", "KINDS", "OPPONENTS", "PACKAGE", "PlayerKind", "kernel_groups"]

PACKAGE = "plyground.kinrow"
BOARD_KERNELS = ("_kernels.py", "_renju_kernels.py")
"""The kernel files every game needs: the board and the renju rule's forbidden points."""


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player.

    Attributes:
        name: as :func:`~plyground.kinrow.players.make_player` and the commands take it.
        label: what the first-run compile line calls its kernels.
        kernels: the kernel files of :data:`PACKAGE` it compiles.
        ai: a command can make it as a computer player (``--opponent``, ``--x``, ``--o``).
        opponent: the web lab offers it as an opponent.
        renju: it plays renju (it knows the forbidden points).
        patterns: it reads line patterns, so it plays lines of up to
            :data:`~plyground.kinrow.limits.PATTERN_MAX_K` stones only.
    """

    name: str
    label: str
    kernels: tuple[str, ...] = ()
    ai: bool = True
    opponent: bool = True
    renju: bool = False
    patterns: bool = False


KINDS = {
    kind.name: kind
    for kind in (
        PlayerKind(
            "engine", "engine",
            ("_pattern_kernels.py", "_table_kernels.py", "_threat_kernels.py", "_defence_kernels.py",
             "_leaf_kernels.py", "_engine_kernels.py"),
            renju=True, patterns=True,
        ),
        PlayerKind("mcts", "MCTS", ("_pattern_kernels.py", "_mcts_kernels.py", "_mcts_pattern_kernels.py")),
        PlayerKind("alphabeta", "alpha-beta", ("_table_kernels.py", "_alphabeta_kernels.py")),
        PlayerKind("random", "random", renju=True),
        PlayerKind("first_legal", "first legal", opponent=False, renju=True),
        PlayerKind("human", "human", ai=False, opponent=False, renju=True),
    )
}  # fmt: skip
"""Every kind, the strongest first."""
AI_KINDS = tuple(name for name, kind in KINDS.items() if kind.ai)
"""The kinds a command can make as a computer player."""
OPPONENTS = tuple(name for name, kind in KINDS.items() if kind.opponent)
"""The kinds the web lab offers as opponents."""


def kernel_groups(kinds: Iterable[str]) -> list[tuple[str, str, str]]:
    """``(package, kernel file, label)`` of the board and of each kind of ``kinds`` (known ones), each file once."""
    groups = [(PACKAGE, kernels, "k-in-a-row") for kernels in BOARD_KERNELS]
    seen = set(BOARD_KERNELS)
    for kind in (KINDS[name] for name in dict.fromkeys(kinds) if name in KINDS):
        for kernels in kind.kernels:
            if kernels not in seen:
                seen.add(kernels)
                groups.append((PACKAGE, kernels, kind.label))
    return groups
