"""Game records of the arena: each game as a PGN-like text block, written as it ends and read back.

A record holds tag lines, a blank line, then the moves, eight a line, and the result::

    [Game "1"]
    [Black "plyground:engine"]
    [White "pbrain-rapfi"]
    [Size "15"]
    [Rule "freestyle"]
    [TimeMs "1000"]
    [Opening "7,7 8,8 6,7"]
    [Result "1-0"]
    [Termination "A (black) made five"]

    1. 7,7 {opening} 2. 8,8 {opening} 3. 6,7 {opening} 4. 9,9 {812 ms} ...
    1-0

Moves are x,y (column, row from 0), each with the milliseconds its brain took, or ``{opening}``.
``TimeMs`` is ``B/W`` where the colours had their own times. The result is ``1-0`` (black won),
``0-1`` (white won) or ``1/2-1/2``.
"""

from __future__ import annotations

import re
from typing import Any

from plyground.arena.piskvork import RULE_NAMES, Game, Settings
from plyground.errors import CorruptFileError

__all__ = ["read_records", "record_text"]


def record_text(game: Game, number: int, settings: Settings, players: dict[str, str]) -> str:
    """Game ``number`` as a record; ``players`` names the ``black`` and ``white`` brains for its tags."""
    result = {"black": "1-0", "white": "0-1", None: "1/2-1/2"}[game.winner]
    tags = {
        "Game": str(number),
        "Black": players["black"],
        "White": players["white"],
        "Size": str(settings.size),
        "Rule": RULE_NAMES.get(settings.rule, str(settings.rule)),
        "TimeMs": str(settings.time_ms) if settings.white_ms is None else f"{settings.time_ms}/{settings.white_ms}",
        "Opening": " ".join(f"{x},{y}" for x, y in game.opening),
        "Result": result,
        "Termination": game.reason,
    }
    head = "".join(f'[{key} "{value.replace(chr(34), chr(39))}"]\n' for key, value in tags.items())
    words = [
        f"{i + 1}. {move.x},{move.y}" + (" {opening}" if move.ms is None else f" {{{move.ms:.0f} ms}}")
        for i, move in enumerate(game.moves)
    ]
    lines = [" ".join(words[i : i + 8]) for i in range(0, len(words), 8)]
    return head + "\n" + "\n".join([*lines, result]) + "\n\n"


def read_records(text: str) -> list[dict[str, Any]]:
    """The games of a text of :func:`record_text` blocks: each its tags (``Black``, ``Result``...) and ``moves``.

    ``moves`` are (x, y) pairs, the opening's first.

    Raises:
        CorruptFileError: a block has no ``Game`` tag (the message quotes its start).
    """
    games = []
    for block in re.split(r"\n(?=\[Game )", text.strip()):
        if not block.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', block, flags=re.MULTILINE))
        if "Game" not in tags:
            raise CorruptFileError(f"not a game record: {block[:60]!r}")
        moves = [(int(x), int(y)) for x, y in re.findall(r"\b\d+\. (\d+),(\d+) \{", block)]
        games.append({**tags, "moves": moves})
    return games
