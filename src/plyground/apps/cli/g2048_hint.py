"""``plyground 2048 hint``: the AI's best move on a board, explained, and an endgame table's when one fits.

Registered on the ``2048`` sub-app by :mod:`plyground.apps.cli.g2048`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from plyground.apps.cli import announce_compilation
from plyground.apps.cli.options import (
    DEFAULT_P_FOUR,
    DepthOption,
    EvaluatorOption,
    PFourOption,
    TablebasesOption,
    ThreadsOption,
    TimeOption,
    WeightsOption,
    evaluator_name,
    load_evaluator_option,
    load_tablebases,
)
from plyground.apps.text import format_grid, table_json, table_line

if TYPE_CHECKING:
    from plyground.g2048 import Decision

__all__ = ["hint"]

_PACKAGE = "plyground.g2048"


def hint(
    board: Annotated[str, typer.Argument(metavar="BOARD", help='The board, as for "show": "2 2 0 0/0 4 0 0/...".')],
    time_ms: TimeOption = None,
    depth: DepthOption = None,
    workers: ThreadsOption = None,
    weights: WeightsOption = None,
    p_four: PFourOption = DEFAULT_P_FOUR,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one JSON object instead of text: the best move is 'best' (also 'move', its old name), "
            "the values' unit 'unit'.",
        ),
    ] = False,
    evaluator: EvaluatorOption = None,
    tablebases: TablebasesOption = None,
) -> None:
    """Search a board (200 ms unless --time-ms or --depth says otherwise) and explain the best move.

    Prints each legal move's expected value, best first, the depth searched, nodes and time.
    On 4x4 the search uses the n-tuple network shipped with plyground (--evaluator heuristic,
    or ntuple:PATH for another network, chooses; other boards use the heuristic): its values
    are expected future scores, the points still to come, and the network's value of each
    legal move is shown too: its points plus the value V of the board it leaves. From a
    16384 on, the network searches the board with the tiles above the largest missing one
    halved (tile-downgrading; the same moves are legal), and says so. The heuristic's values
    are heuristic units, not points; with it the board's heuristic value is shown feature by
    feature.
    """
    announce_compilation(_PACKAGE, "2048")
    from plyground.g2048 import DIRECTIONS, Board
    from plyground.g2048.expectimax import Expectimax

    parsed = Board.parse(board)
    evaluator = evaluator_name(evaluator, weights, (parsed.rows, parsed.cols))
    chosen = load_evaluator_option(evaluator, weights, size=(parsed.rows, parsed.cols), board_given=True)
    chosen.check_board(parsed)
    if time_ms is None and depth is None:
        time_ms = 200.0
    advisor = load_tablebases(tablebases, p_four)
    with Expectimax(time_ms=time_ms, depth=depth, workers=workers, p_four=p_four, evaluator=chosen) as engine:
        decision = engine.choose(parsed)
    advice = advisor.advise(parsed) if advisor is not None else None
    ranked = sorted(decision.values.items(), key=lambda item: (-item[1], DIRECTIONS.index(item[0])))
    explanation = chosen.explain(parsed)
    searched = decision.searched
    answer: dict[str, Any] = {
        "board": parsed.to_text(),
        "searched": searched.to_text() if searched is not None else None,
        "evaluator": evaluator,
        "best": decision.move,
        "unit": chosen.unit,
        "depth": decision.depth,
        "move_depths": decision.move_depths,
        "values": {move: value + 0.0 for move, value in ranked},  # + 0.0: no -0.0
        "nodes": decision.nodes,
        "tt_hits": decision.tt_hits,
        "seconds": decision.seconds,
        **{part: value for part, value in explanation.to_json().items() if value is not None},
    }
    if advice is not None:
        answer["best"] = advice.move
        answer["table"] = table_json(advice)
    if as_json:
        typer.echo(json.dumps(answer))
        return
    typer.echo(format_grid(parsed.to_rows()))
    if advice is not None:
        typer.echo(f"{table_line(advice)}; the search says:")
    if searched is not None:
        halved = "the tiles above the largest missing one halved (tile-downgrading)"
        typer.echo(f"searched as {searched.to_text()}: {halved}")
    typer.echo(_hint_text(decision, ranked, chosen.unit, empty=parsed.tile_sum() == 0, downgraded=searched is not None))
    if explanation.total is None:  # a network: it values each legal move (none on a finished board)
        if explanation.moves:
            tiles = ", tiles as they are" if searched is not None else ""
            typer.echo(f"network value of each move (points + V of the board it leaves{tiles}):")
            typer.echo(f"  move    {'points':>8}  {'V':>14}  {'total':>14}")
        for name, parts in explanation.moves.items():
            typer.echo(f"  {name:<6}  {parts.points:>8,.0f}  {_number(parts.value):>14}  {_number(parts.total):>14}")
        return
    typer.echo(f"heuristic value of the board, in {explanation.unit}:")
    width = max(len(feature) for feature in explanation.contributions)
    for feature, value in explanation.contributions.items():
        typer.echo(f"  {feature:<{width}}  {_number(value):>14}")
    typer.echo(f"  {'total':<{width}}  {_number(explanation.total):>14}")


def _number(value: float) -> str:
    """``1,234.5``, with one decimal; ``0.0``, never ``-0.0``.

    >>> _number(-1234.56), _number(-0.0), _number(-0.04)
    ('-1,234.6', '0.0', '0.0')
    """
    text = f"{value:,.1f}"
    return text.removeprefix("-") if text.strip("-0.,") == "" else text


def _hint_text(
    decision: Decision, ranked: Sequence[tuple[str, float]], unit: str, *, empty: bool, downgraded: bool = False
) -> str:
    """The moves, best first, their values' unit (``downgraded``: those of the board searched), what the search did."""
    if decision.move is None:
        return "no legal move: the board is empty, no tile to move" if empty else "no legal move: the game is over"
    heading = (
        f"expected future score{' of the board searched' if downgraded else ''}, in points (the move's points and "
        "those still to come)"
        if unit == "points"
        else f"expected value, in {unit} (not points)"
    )
    lines = [f"best move: {decision.move}", f"  move    {heading}"]
    deeper = [move for move, depth in decision.move_depths.items() if depth > decision.depth]
    for move, value in ranked:
        mark = f"  (depth {decision.depth + 1})" if move in deeper else ""
        mark += "  <- chosen" if move == decision.move else ""
        lines.append(f"  {move:<6}  {_number(value):>14}{mark}")
    further = f" ({len(deeper)} of the moves to depth {decision.depth + 1})" if deeper else ""
    lines.append(
        f"depth {decision.depth} completed{further}: {decision.nodes:,} nodes, {decision.tt_hits:,} TT hits, "
        f"{decision.seconds:.3f} s"
    )
    return "\n".join(lines)
