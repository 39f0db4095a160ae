"""The k-in-a-row players by kind, as the commands, the web lab and the kernel warm-up know them.

Each kind says its name (as :func:`~plyground.kinrow.players.make_player` and the commands take
it), its label (in the first-run compile line) and the kernel files of :mod:`plyground.kinrow` its
player compiles. The commands compile what a game needs from here (:func:`kernel_groups`) before
the first move, saying so on a first run. Like :mod:`~plyground.kinrow.limits`, this module loads
no game code (and so no numba): a command reads it before anything is compiled.

>>> [kind.name for kind in KINDS.values() if kind.kernels]
['engine', 'mcts', 'alphabeta']
>>> kernel_groups(["random"])
[('plyground.kinrow', '_kernels.py', 'k-in-a-row'), ('plyground.kinrow', '_renju_kernels.py', 'k-in-a-row')]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["BOARD_KERNELS", "KINDS", "PACKAGE", "PlayerKind", "kernel_groups"]

PACKAGE = "plyground.kinrow"
BOARD_KERNELS = ("_kernels.py", "_renju_kernels.py")
"""The kernel files every game needs: the board and the renju rule's forbidden points."""


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player: its ``name``, its ``label`` in the compile line, and the ``kernels`` it compiles."""

    name: str
    label: str
    kernels: tuple[str, ...] = ()


KINDS = {
    kind.name: kind
    for kind in (
        PlayerKind("engine", "engine", ("_pattern_kernels.py", "_threat_kernels.py", "_engine_kernels.py")),
        PlayerKind("mcts", "MCTS", ("_pattern_kernels.py", "_mcts_kernels.py", "_mcts_pattern_kernels.py")),
        PlayerKind("alphabeta", "alpha-beta", ("_alphabeta_kernels.py",)),
        PlayerKind("random", "random"),
        PlayerKind("first_legal", "first legal"),
        PlayerKind("human", "human"),
    )
}
"""Every kind, in the order of :data:`~plyground.kinrow.limits.PLAYER_KINDS`."""


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
