"""The 2048 evaluators by kind, as the commands, the web lab and the kernel warm-up know them.

Each kind says its name (as :func:`~plyground.g2048.evaluators.load_evaluator`, which makes
one, and ``--evaluator`` take it), its label (in the first-run compile line), the kernel files
of :data:`PACKAGE` its search compiles, and the prefix of the names that pick a file of that
kind (``ntuple:PATH``). The commands compile what an evaluator needs from here
(:func:`kernel_groups`) before the first search, saying so on a first run; the web lab offers
:data:`KINDS`. This module loads no game code (and so no numba): a command reads it before
anything is compiled.

>>> list(KINDS)
['network', 'heuristic']
>>> kind_of("ntuple:latest").name, kind_of("heuristic").label, kind_of("net.npz")
('network', 'heuristic search', None)
>>> default_for(4, 4), default_for(3, 3)
('network', 'heuristic')
>>> [group[1] for group in kernel_groups(["heuristic"])]
['_kernels.py', '_heuristic_kernels.py']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "BOARD_KERNELS",
    "KINDS",
    "PACKAGE",
    "SHIPPED_SHAPE",
    "EvaluatorKind",
    "default_for",
    "kernel_groups",
    "kind_of",
]

PACKAGE = "plyground.g2048"
SHIPPED_SHAPE = (4, 4)
"""The board the shipped network plays."""
BOARD_KERNELS = ("_kernels.py",)
"""The kernel files every search needs: the board's moves and spawns."""


@dataclass(frozen=True)
class EvaluatorKind:
    """A kind of evaluator.

    Attributes:
        name: as ``--evaluator`` and :func:`~plyground.g2048.evaluators.load_evaluator` take it.
        label: what the first-run compile line calls the kernels of its search.
        kernels: the kernel files of :data:`PACKAGE` its search compiles.
        prefix: names that start with it pick a file of this kind (``ntuple:PATH``); "" for none.
    """

    name: str
    label: str
    kernels: tuple[str, ...]
    prefix: str = ""


KINDS = {
    kind.name: kind
    for kind in (
        EvaluatorKind(
            "network", "n-tuple search", ("_ntuple_kernels.py", "_ntuple_leaf_kernels.py", "_packed_kernels.py"),
            prefix="ntuple:",
        ),
        EvaluatorKind("heuristic", "heuristic search", ("_heuristic_kernels.py",)),
    )
}  # fmt: skip
"""Every kind, the default on 4×4 first."""


def default_for(rows: int, cols: int) -> str:
    """The evaluator the applications use when none is named: the shipped network on its board, else the heuristic."""
    return KINDS["network"].name if (rows, cols) == SHIPPED_SHAPE else KINDS["heuristic"].name


def kind_of(name: str) -> EvaluatorKind | None:
    """The kind of evaluator that ``name`` names (a kind's name, or its prefix and a path); None for no kind."""
    if name in KINDS:
        return KINDS[name]
    return next((kind for kind in KINDS.values() if kind.prefix and name.startswith(kind.prefix)), None)


def kernel_groups(names: Iterable[str]) -> list[tuple[str, str, str]]:
    """``(package, kernel file, label)`` of the board and of the kind of each of ``names`` (known ones), each once."""
    groups = [(PACKAGE, kernels, "2048") for kernels in BOARD_KERNELS]
    seen = set(BOARD_KERNELS)
    kinds = [kind for kind in (kind_of(name) for name in dict.fromkeys(names)) if kind is not None]
    for kind in kinds:
        for kernels in kind.kernels:
            if kernels not in seen:
                seen.add(kernels)
                groups.append((PACKAGE, kernels, kind.label))
    return groups
