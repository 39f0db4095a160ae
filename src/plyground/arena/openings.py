"""The openings of a match: a few stones near the centre drawn from a seed, none, or read from a file.

An openings file holds one opening a line: x,y stones in the order played, black first, ``#``
starting a comment::

    7,7 8,8 6,6     # three stones, white to move
    7,7 7,8

Each opening is played twice in a match, each brain once with black.
"""

from __future__ import annotations

from pathlib import Path

from plyground.arena.piskvork import new_state
from plyground.errors import InvalidInputError, PlygroundError

__all__ = ["OPENING_RADIUS", "generated_opening", "openings_for", "read_openings"]

OPENING_RADIUS = 2
"""Generated openings put their stones within this many cells of the centre."""


def generated_opening(size: int, stones: int, seed: int, index: int, rule: int = 0) -> list[tuple[int, int]]:
    """Opening ``index`` of ``seed``: ``stones`` distinct cells near the centre where no one threatens five.

    >>> generated_opening(15, 3, 1, 0) == generated_opening(15, 3, 1, 0)
    True

    Raises:
        InvalidInputError: no such opening was found (too many stones for the square around the centre).
    """
    import numpy as np

    centre, radius = size // 2, min(OPENING_RADIUS, (size - 1) // 2)
    cells = [
        (x, y) for y in range(centre - radius, centre + radius + 1) for x in range(centre - radius, centre + radius + 1)
    ]
    if stones > len(cells):
        raise InvalidInputError(f"no opening of {stones} stones near the centre of a {size}x{size} board")
    rng = np.random.default_rng([seed, index])
    for _ in range(1000):
        chosen = [cells[int(i)] for i in rng.choice(len(cells), size=stones, replace=False)]
        state = new_state(size, rule)
        try:
            for x, y in chosen:
                state.play(state.index(y, x))
        except PlygroundError:  # a forbidden point under renju
            continue
        if state.result is None and not state.winning_moves(1) and not state.winning_moves(2):
            return chosen
    raise InvalidInputError(f"no opening of {stones} stones near the centre without a threat of five")


def read_openings(path: Path, size: int, rule: int = 0) -> list[list[tuple[int, int]]]:
    """The openings of a file (see the module's docstring).

    Raises:
        InvalidInputError: the file cannot be read, has no opening, or a line is not an opening on this
            board (the message names the file and the line).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or error
        raise InvalidInputError(f"cannot read the openings {path}: {why}") from None
    openings = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        stones = []
        for word in line.replace(";", " ").split():
            x_text, comma, y_text = word.partition(",")
            if not comma or not x_text.isdigit() or not y_text.isdigit():
                raise InvalidInputError(f"{path}:{number}: {word!r} is not x,y")
            stones.append((int(x_text), int(y_text)))
        state = new_state(size, rule)
        for x, y in stones:
            if x >= size or y >= size or state.cells[state.index(y, x)] or state.is_over:
                raise InvalidInputError(f"{path}:{number}: {x},{y} is off the {size}x{size} board, taken or after five")
            try:
                state.play(state.index(y, x))
            except PlygroundError as error:
                raise InvalidInputError(f"{path}:{number}: {x},{y}: {error}") from None
        if state.is_over:
            raise InvalidInputError(f"{path}:{number}: the game is over after this opening")
        openings.append(stones)
    if not openings:
        raise InvalidInputError(f"{path}: no opening in the file")
    return openings


def openings_for(spec: str, games: int, size: int, seed: int, rule: int = 0) -> list[list[tuple[int, int]]]:
    """The opening of each pair of ``games``, by ``spec``: ``random:N``, ``empty`` or a file's path.

    ``random:N`` draws N stones (1 to 8) from ``seed`` (see :func:`generated_opening`); ``empty``
    starts every game on an empty board; a file's openings are used in turn (see :func:`read_openings`).

    >>> openings_for("empty", 3, 15, 1)
    [[], []]

    Raises:
        InvalidInputError: a bad ``spec``, or a bad file.
    """
    pairs = (games + 1) // 2
    if spec == "empty":
        return [[] for _ in range(pairs)]
    if spec.startswith("random:"):
        count = spec.removeprefix("random:")
        if not count.isdigit() or not 1 <= int(count) <= 8:
            raise InvalidInputError(f"--openings random:N needs N from 1 to 8 stones, got {spec!r}")
        return [generated_opening(size, int(count), seed, i, rule) for i in range(pairs)]
    listed = read_openings(Path(spec), size, rule)
    return [listed[i % len(listed)] for i in range(pairs)]
