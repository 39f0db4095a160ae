"""A Gomocup brain as an oracle: its value and its move on positions, each asked on a board of its own.

:class:`Oracle` starts a brain once and, for each position (the moves from the empty board),
sends ``START``, the time per move, free-style rules and the position as ``BOARD`` (the player
to move is the brain), then reads ``MESSAGE`` lines for the value it reports until its move.
The values are the player to move's, read by :func:`parse_value`: PentaZen's ``ev`` (``+vN``: a
win in N plies, ``-vN``: a loss), Rapfi's ``Eval`` (``+MN``, ``-MN``) and plyground's brain's
``score``, on one scale where :data:`WIN` less the plies is a forced win. A brain is sent its next
position no sooner than :data:`SETTLE_S` after its answer (some, Rapfi among them, drop a command
that comes while they still count themselves thinking). Verdicts may be kept in a cache file, one JSON line
each, so that a stopped run asks nothing twice.

>>> parse_value("MESSAGE depth 12 ev +v7 nodes 45k"), parse_value("MESSAGE depth 9 ev -35"), parse_value("MESSAGE hi")
(9993, -35, None)
>>> parse_value("MESSAGE Speed 520K | Depth 18-38 | Eval -134 | Node 504K | Time 970ms")
-134
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

from plyground.arena.brain import BrainProcess
from plyground.errors import BrainError, CorruptFileError, InvalidInputError

__all__ = ["WIN", "Oracle", "Verdict", "parse_value"]

WIN = 10_000
"""A value of ``WIN - p`` is a forced win in ``p`` plies for the player to move (its negation a loss)."""
GRACE_S = 30.0
"""How long past its time per move an oracle may take before it is given up, by default."""
SETTLE_S = 0.05
"""How long after its answer a brain is sent nothing (as :attr:`plyground.arena.Settings.settle_ms`)."""


def parse_value(line: str) -> int | None:
    """The value in a brain's ``MESSAGE`` line (PentaZen's ``ev``, Rapfi's ``Eval``, plyground's ``score``), or None
    if it gives none."""
    if match := re.search(r"\b(?:ev|Eval) ([+-][vM])?(-?\d+)", line):
        sign, number = match.group(1), int(match.group(2))
        if sign is None:
            return number
        return WIN - number if sign[0] == "+" else -WIN + number
    if match := re.search(r"\bscore (-?\d+)", line):
        from plyground.kinrow.engine import WIN_VALUE  # plyground's brain: a win in p plies is WIN_VALUE - p

        value = int(match.group(1))
        if abs(value) >= WIN_VALUE - 1000:
            return (WIN - (WIN_VALUE - abs(value))) * (1 if value > 0 else -1)
        return value
    return None


class Verdict(NamedTuple):
    """What an oracle said of a position: its ``value`` for the player to move (None: none reported), its ``move``."""

    value: int | None
    move: int


class Oracle:
    """A brain asked for its value and move on positions (see the module).

    Args:
        command: the brain's command line (a :class:`~plyground.arena.brains.Brain`'s ``command``).
        time_ms: its time per position.
        size: the board's side.
        cache: a file of verdicts (JSON lines) read first and added to; None: none kept.
        grace_s: how long past ``time_ms`` a verdict may take before the brain is given up.

    Raises:
        InvalidInputError: a time, size or grace out of range.
        CorruptFileError: a cache file that is not one.
        BrainError: the brain does not start.
    """

    def __init__(
        self,
        command: Sequence[str],
        time_ms: int,
        *,
        size: int = 15,
        cache: str | os.PathLike[str] | None = None,
        grace_s: float = GRACE_S,
    ) -> None:
        if isinstance(time_ms, bool) or not isinstance(time_ms, int) or not 1 <= time_ms <= 3_600_000:
            raise InvalidInputError(f"time_ms must be a whole number from 1 to 3,600,000, got {time_ms!r}")
        if isinstance(size, bool) or not isinstance(size, int) or not 5 <= size <= 20:
            raise InvalidInputError(f"size must be a whole number from 5 to 20, got {size!r}")
        if not 0 < grace_s <= 3600:
            raise InvalidInputError(f"grace_s must be more than 0 and at most 3,600 seconds, got {grace_s!r}")
        self.time_ms = time_ms
        self.size = size
        self.grace_s = float(grace_s)
        self.cache_path = None if cache is None else Path(cache)
        self.verdicts = self._read_cache()
        self.brain = BrainProcess(command)
        self._answered = float("-inf")

    def _read_cache(self) -> dict[str, Verdict]:
        found: dict[str, Verdict] = {}
        if self.cache_path is None or not self.cache_path.exists():
            return found
        for number, line in enumerate(self.cache_path.read_text(encoding="utf-8").splitlines(), 1):
            try:
                record = json.loads(line)
                if record["ms"] == self.time_ms:
                    value = record["value"]
                    found[str(record["key"])] = Verdict(None if value is None else int(value), int(record["move"]))
            except (ValueError, KeyError, TypeError):
                raise CorruptFileError(f"{self.cache_path}:{number}: not an oracle's verdict") from None
        return found

    def judge(self, moves: Sequence[int]) -> Verdict:
        """The brain's verdict on the position after ``moves`` (cells ``row * size + col``), the player to move its.

        Raises:
            BrainError: the brain stopped, or gave no move within its time and the grace.
        """
        key = ",".join(map(str, moves))
        if key in self.verdicts:
            return self.verdicts[key]
        lines = [f"START {self.size}", f"INFO timeout_turn {self.time_ms}", "INFO timeout_match 1000000000"]
        lines += ["INFO rule 0", "BOARD"]
        for i, move in enumerate(moves):
            row, col = divmod(move, self.size)
            lines.append(f"{col},{row},{1 if i % 2 == len(moves) % 2 else 2}")
        lines.append("DONE")
        time.sleep(max(0.0, self._answered + SETTLE_S - time.monotonic()))
        self.brain.drain()
        if not self.brain.send(*lines):
            raise BrainError(f"the oracle stopped: {self.brain.exited()}")
        value = None
        deadline = time.monotonic() + self.time_ms / 1000 + self.grace_s
        while True:
            try:
                line = self.brain.next_line(deadline - time.monotonic())
            except TimeoutError:
                raise BrainError(f"the oracle gave no move within {self.time_ms / 1000 + self.grace_s:g} s") from None
            if line is None:
                raise BrainError(f"the oracle gave no move: {self.brain.exited()}")
            said = parse_value(line) if line.startswith("MESSAGE") else None
            value = value if said is None else said
            if re.fullmatch(r"\d+,\d+", line):
                x, y = map(int, line.split(","))
                self._answered = time.monotonic()
                break
        verdict = Verdict(value, y * self.size + x)
        self.verdicts[key] = verdict
        if self.cache_path is not None:
            with self.cache_path.open("a", encoding="utf-8") as file:
                file.write(json.dumps({"ms": self.time_ms, "key": key, "value": value, "move": verdict.move}) + "\n")
        return verdict

    def close(self) -> None:
        """End the brain."""
        self.brain.close()

    def __enter__(self) -> Oracle:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()
