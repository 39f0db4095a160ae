"""The options of ``plyground kinrow``'s commands that set up the engine, and the factory of players from them.

The commands that make players (``play``, ``selfplay``, ``pbrain``) share these; like the
commands, this module imports no game code at the top, so that ``--help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from plyground.apps.cli.options import number_option

if TYPE_CHECKING:
    from plyground.kinrow.players import Player

__all__ = [
    "AnswersOption",
    "EvaluationKind",
    "EvaluationOption",
    "NextDepthOption",
    "QuiescenceOption",
    "Reduction",
    "ReductionOption",
    "RootVctOption",
    "SelectiveOption",
    "VerifyWinsOption",
    "player_factory",
]


class EvaluationKind(StrEnum):
    """The engine's evaluations (see ``plyground.kinrow.evaluation``)."""

    fitted = "fitted"
    symmetric = "symmetric"
    hand = "hand"


class Reduction(StrEnum):
    """The engine's late-move reductions (see ``plyground.kinrow.engine.EngineSettings``)."""

    log = "log"
    adjusted = "adjusted"
    one = "one"
    none = "none"


EvaluationOption = Annotated[
    EvaluationKind,
    typer.Option(
        "--evaluation",
        help="The engine's evaluation: fitted to games (gomoku; elsewhere the hand-made one), the same fit "
        "averaged over the two sides to move (symmetric), or hand-made.",
    ),
]
SelectiveOption = Annotated[
    bool,
    typer.Option(
        "--selective/--no-selective",
        help="The engine prunes and reduces its search (off: the plainer search it had before).",
    ),
]
RootVctOption = Annotated[
    bool,
    typer.Option(
        "--root-vct/--no-root-vct",
        help="The engine looks for its own VCT at the root and keeps only the moves that stop the opponent's.",
    ),
]
AnswersOption = Annotated[
    bool,
    typer.Option(
        "--exact-answers/--no-exact-answers",
        help="The engine answers a four-three or open-four threat by its exact answers and its own fours only.",
    ),
]
NextDepthOption = Annotated[
    float | None,
    number_option(
        "--next-depth-share",
        help="The share of its time after which the engine starts no deeper iteration, {range} (default 0.7; 1: "
        "always, the clock cuts it).",
        low=0.0,
        high=1.0,
        above=True,
        metavar="SHARE",
    ),
]
QuiescenceOption = Annotated[
    int,
    number_option(
        "--quiescence",
        help="Plies of the engine's threat quiescence at its leaves (fours, answers to open threes), {range}; 0: none.",
        low=0,
        high=40,
        integer=True,
        metavar="PLIES",
    ),
]
ReductionOption = Annotated[
    Reduction | None,
    typer.Option(
        "--reduction",
        help="The engine's late-move reduction: log, adjusted (by the move's history and the threats), one ply "
        "or none (default: log; --no-selective: one).",
        show_default=False,
    ),
]
VerifyWinsOption = Annotated[
    bool,
    typer.Option(
        "--verify-wins/--no-verify-wins",
        help="The engine searches again a win or loss its table claims on the principal variation.",
    ),
]


def player_factory(
    kind: str,
    *,
    depth: int,
    iterations: int | None,
    time_ms: float | None,
    symmetry: bool,
    patterns: bool | None,
    evaluation: EvaluationKind = EvaluationKind.fitted,
    selective: bool = True,
    root_vct: bool = True,
    answers: bool = False,
    quiescence: int = 0,
    next_depth_share: float | None = None,
    reduction: Reduction | None = None,
    verify_wins: bool = False,
) -> Callable[[int | None], Player]:
    """Makes a player of ``kind`` with these options from a seed."""
    from plyground.kinrow.players import make_player

    def make(seed: int | None) -> Player:
        return make_player(
            str(kind),
            depth=depth,
            iterations=iterations,
            time_ms=time_ms,
            symmetry=symmetry,
            patterns=patterns,
            evaluation=evaluation.value,
            selective=selective,
            root_vct=root_vct,
            answers=answers,
            quiescence=quiescence,
            next_depth_share=next_depth_share,
            reduction=None if reduction is None else reduction.value,
            verify_wins=verify_wins,
            seed=seed,
        )

    return make
