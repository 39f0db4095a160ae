"""A 2048 program against plyground: nneonneo/2048-ai's games and plyground's, each in a process pinned to a core.

nneonneo/2048-ai (or a program that plays and prints as it does, at a path the user gives) is played
either through its library (``lib2048-ai.so``; ``benchmarks/opponents/build_nneonneo.sh`` builds it),
whose ``find_best_move(board)`` this module calls move by move on a game of its own, or as its
command-line program, which plays a whole game by itself and prints it (:func:`read_nneonneo`).
Its library and plyground play the same games: plyground's rules, its seeded spawns, one game a
seed. Such a game is saved as it goes (every ``save_s`` seconds, atomically) in a file of its own,
and after its move in progress when its process gets SIGTERM; a run stopped in the middle (Ctrl-C,
SIGTERM, ``kill -9``) resumes it where it was saved. A game of the program is lost.

Both sides' searches are timed alone: a move's time is that of the call that chose it.
``benchmarks/versus_nneonneo.py`` runs such games and logs them; :mod:`plyground.arena.versus2048_log`
sums the log up.
"""

from __future__ import annotations

import ctypes
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from plyground.core.files import FileFormat, read_json, write_json
from plyground.errors import CorruptFileError, PlygroundError
from plyground.g2048.board import Board, Direction
from plyground.g2048.game import Game, Replay

__all__ = [
    "LIBRARY_SUFFIXES",
    "NNEONNEO_MOVES",
    "SAVED_GAME",
    "SAVE_SECONDS",
    "Progress",
    "Stopped",
    "evaluator_label",
    "is_library",
    "keep_replay",
    "load_library",
    "nneonneo_child",
    "nneonneo_chooser",
    "pin",
    "play_nneonneo_program",
    "play_saved",
    "player_evaluator",
    "plyground_child",
    "read_nneonneo",
    "read_saved",
    "saved_position",
    "send_outcome",
    "start_child",
    "weights_checksum",
]

SAVED_GAME = FileFormat("plyground.bench.versus_game", 1, "a game in progress of versus_nneonneo.py", "saved game")
"""A game in progress: its settings, the game (replay and spawn generator) and the search time so far."""
SAVE_SECONDS = 30.0
"""How often a game in progress is saved: a run killed loses at most this much play."""
NNEONNEO_MOVES: tuple[Direction, ...] = ("up", "down", "left", "right")
"""nneonneo's move numbers 0-3. Its board is plyground's: cell (r, c) in the 4 bits at 16r + 4c."""
LIBRARY_SUFFIXES = (".so", ".dylib", ".dll")

_MOVE = re.compile(r"^Move #(\d+),(?: current score=(\d+))?")
_ROOT_TIME = re.compile(r"^Move \d: result .* in ([0-9.]+) seconds")
_OVER = re.compile(r"^Game over\. Your score is (\d+)\. The highest rank you achieved was (\d+)\.")


class Stopped(Exception):
    """The run was told to stop (Ctrl-C or SIGTERM); a game of its own was saved."""


def pin(core: int | None, pid: int = 0) -> None:
    """Run the process ``pid`` (0: this one) on ``core`` alone, where the platform allows."""
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(pid, {core})


_TERMINATED = threading.Event()
"""Set in a game's process by SIGTERM: the game is saved after the move in progress, and the process ends."""


def start_child(core: int | None) -> None:
    """Set up a game's process: on ``core``, deaf to Ctrl-C (the run stops its games itself), saving on SIGTERM."""
    pin(core)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: _TERMINATED.set())


class Progress:
    """Says on stderr, at most every ``every_s`` seconds, how ``player``'s game in progress goes.

    A game lasts up to an hour or two: the lines say how far it got.
    """

    def __init__(self, player: str, every_s: float) -> None:
        self.player, self.every_s = player, every_s
        self.start = self.last = time.monotonic()

    def __call__(self, moves: int, score: int) -> None:
        now = time.monotonic()
        if self.every_s > 0 and now - self.last >= self.every_s:
            self.last = now
            minutes = (now - self.start) / 60
            print(f"{self.player}: game in progress: move {moves:,}, {score:,} points, {minutes:.0f} min",
                  file=sys.stderr, flush=True)  # fmt: skip


# ---------------------------------------------------------------------------------------
# nneonneo's command-line program: a whole game, read from its output


def read_nneonneo(lines: Iterable[str], on_move: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """What one game of nneonneo's player printed, line by line: its result and its search time.

    ``on_move(moves, score)`` is called at each move it announces, with the score before it.

    >>> read_nneonneo(["Move #1, current score=0", "Move 0: result 1.0: eval'd 5 moves in 0.25 seconds",
    ...                "Move 1: result 2.0: eval'd 5 moves in 0.05 seconds",
    ...                "Game over. Your score is 16. The highest rank you achieved was 4."])
    {'score': 16, 'max_tile': 16, 'moves': 1, 'ms_per_move': 300.0}

    Raises:
        ValueError: the game did not end with its "Game over" line (the program is not nneonneo's, or it died).
    """
    moves, seconds, over = 0, 0.0, None
    for line in lines:
        if match := _MOVE.match(line):
            moves = int(match.group(1))
            if on_move is not None:
                on_move(moves, int(match.group(2) or 0))
        elif match := _ROOT_TIME.match(line):
            seconds += float(match.group(1))
        elif match := _OVER.match(line):
            over = match
    if over is None:
        raise ValueError("no 'Game over. Your score is N.' line: not nneonneo's 2048 player, or it died")
    return {
        "score": int(over.group(1)),
        "max_tile": 1 << int(over.group(2)),
        "moves": moves,
        "ms_per_move": 1000.0 * seconds / moves if moves else 0.0,
    }


def play_nneonneo_program(
    binary: Path, core: int | None, running: list[subprocess.Popen[str]], progress_s: float = 0.0
) -> dict[str, Any]:
    """One game of nneonneo's program on ``core``; its output is read as it comes (bounded memory).

    Its progress is said every ``progress_s`` seconds (0: never; see :class:`Progress`).
    """
    start = time.perf_counter()
    process = subprocess.Popen([str(binary)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    running.append(process)
    pin(core, process.pid)
    assert process.stdout is not None
    try:
        lines = (line.rstrip("\n") for line in process.stdout)
        result: dict[str, Any] | ValueError = read_nneonneo(lines, Progress("nneonneo", progress_s))
    except ValueError as error:
        result = error
    finally:
        code = process.wait()
        running.remove(process)
    if code < 0:
        raise Stopped
    if code != 0:
        raise PlygroundError(f"{binary} exited with status {code} in the middle of a game")
    if isinstance(result, ValueError):
        raise PlygroundError(f"{binary}: {result}")
    seconds = time.perf_counter() - start
    return {**result, "wall_ms_per_move": 1000.0 * seconds / max(1, result["moves"])}


# ---------------------------------------------------------------------------------------
# Games saved as they go


def is_library(path: Path) -> bool:
    """Whether ``path`` names nneonneo's library (played move by move) rather than its program."""
    return path.suffix in LIBRARY_SUFFIXES


def load_library(path: Path) -> Any:
    """nneonneo's library, its two functions typed (call ``init_tables()`` once before the first move).

    Its search prints to this process's standard output at every move.

    Raises:
        PlygroundError: not a library with ``init_tables`` and ``find_best_move``.
    """
    try:
        library = ctypes.CDLL(str(path.resolve()))
        library.init_tables.restype = None
        library.init_tables.argtypes = []
        library.find_best_move.restype = ctypes.c_int
        library.find_best_move.argtypes = [ctypes.c_uint64]
    except (OSError, AttributeError) as error:
        raise PlygroundError(f"cannot load nneonneo's library {path}: {error}") from None
    return library


def read_saved(path: Path) -> dict[str, Any] | None:
    """The game in progress saved in ``path`` (None if there is none).

    Raises:
        PlygroundError: the file is not a saved game (one line, naming it).
    """
    try:
        data = SAVED_GAME.check(read_json(path))
        if not (
            isinstance(data.get("settings"), dict)
            and isinstance(data.get("game"), dict)
            and isinstance(data.get("seconds"), float | int)
            and all(isinstance(data.get(key), int) and data[key] >= 0 for key in ("depths", "resumed"))
        ):
            raise CorruptFileError("not a saved game: its settings, game, seconds, depths or resumed are missing")
    except FileNotFoundError:
        return None
    except (OSError, CorruptFileError) as error:
        raise PlygroundError(f"{path}: {error} (delete it to drop the game in progress)") from None
    return data


def keep_replay(saved: dict[str, Any], path: Path) -> None:
    """Write the replay of the game read by :func:`read_saved` to ``path``, a replay of ``plyground 2048``
    (``plyground 2048 video`` draws it).

    Raises:
        PlygroundError: the saved game's replay is damaged, or ``path`` cannot be written.
    """
    try:
        Replay.from_dict(saved["game"].get("replay")).save(path)
    except (CorruptFileError, OSError) as error:
        raise PlygroundError(f"cannot keep the replay in {path}: {error}") from None


def saved_position(saved: dict[str, Any]) -> tuple[int, int]:
    """The moves played and the score of a game read by :func:`read_saved`."""
    replay = saved["game"].get("replay", {})
    return len(replay.get("moves", [])), int(replay.get("score", 0))


def play_saved(
    choose: Callable[[Board], tuple[Direction, int]],
    path: Path,
    settings: dict[str, Any],
    player: str,
    progress_s: float = 0.0,
    save_s: float = SAVE_SECONDS,
) -> dict[str, Any]:
    """Play the game of ``settings["seed"]`` to its end with ``choose``, saved in ``path`` every ``save_s`` seconds.

    ``choose(board)`` gives a move and the depth searched (0 when unknown). A game saved in ``path``
    with the same ``settings`` is resumed; the file is left in place at the end (the caller removes
    it once the game is logged). The game is saved and :class:`Stopped` raised after the move in
    progress when the process gets SIGTERM (see :func:`start_child`); the process stops, unsaved,
    when its parent is gone.

    Raises:
        PlygroundError: ``path`` holds another game, or is not a saved game; ``choose`` gave an illegal move.
    """
    parent = os.getppid()
    saved = read_saved(path)
    if saved is not None and saved["settings"] != settings:
        raise PlygroundError(f"{path} holds another game ({saved['settings']}), not {settings}")
    try:
        game = Game(seed=settings["seed"]) if saved is None else Game.from_dict(saved["game"])
    except CorruptFileError as error:
        raise PlygroundError(f"{path}: {error} (delete it to drop the game in progress)") from None
    seconds, depths = (0.0, 0) if saved is None else (float(saved["seconds"]), int(saved["depths"]))
    resumed = 0 if saved is None else int(saved["resumed"]) + 1

    def save() -> None:
        body = {"settings": settings, "seconds": seconds, "depths": depths, "resumed": resumed, "game": game.to_dict()}
        write_json(path, SAVED_GAME.stamp(body), compact=True)

    progress = Progress(player, progress_s)
    last_save = time.monotonic()
    while not game.over:
        start = time.perf_counter()
        move, depth = choose(game.board)
        seconds += time.perf_counter() - start
        try:
            game.step(move)
        except PlygroundError as error:
            raise PlygroundError(f"{player} chose an illegal move: {error}") from None
        depths += depth
        progress(game.move_count, game.score)
        if _TERMINATED.is_set():
            save()
            raise Stopped
        if time.monotonic() - last_save >= save_s:
            if os.getppid() != parent:  # the run was killed: a new one resumes from the file
                raise SystemExit(1)
            save()
            last_save = time.monotonic()
    save()
    moves = game.move_count
    result = {
        "seed": game.seed,
        "score": game.score,
        "max_tile": game.board.max_tile(),
        "moves": moves,
        "ms_per_move": 1000.0 * seconds / max(1, moves),
        "resumed": resumed,
    }
    if depths:  # a player that reports its depth
        result["mean_depth"] = depths / moves
    return result


def nneonneo_chooser(library: Any) -> Callable[[Board], tuple[Direction, int]]:
    """nneonneo's choice of move, through its library (its depth is not reported: 0)."""

    def choose(board: Board) -> tuple[Direction, int]:
        move = library.find_best_move(board.bits)
        if not 0 <= move < 4:
            raise PlygroundError(f"nneonneo's library gave move {move} on a board with a legal move")
        return NNEONNEO_MOVES[move], 0

    return choose


def send_outcome(sender: Any, play: Callable[[], dict[str, Any]]) -> None:
    """Play a game's process's game and send what came of it: its result, :class:`Stopped`, or the error."""
    try:
        outcome: Any = play()
    except Stopped as stopped:
        outcome = stopped
    except Exception as error:
        outcome = error if isinstance(error, PlygroundError) else PlygroundError(f"{type(error).__name__}: {error}")
    sender.send(outcome)
    sender.close()


def nneonneo_child(
    library_path: Path, settings: dict[str, Any], path: Path, times: tuple[float, float], core: int | None, sender: Any
) -> None:
    """The process of one of nneonneo's games through its library; ``times`` are (progress_s, save_s)."""
    start_child(core)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # its search prints the board and each root move's result at every move

    def play() -> dict[str, Any]:
        library = load_library(library_path)
        library.init_tables()
        return play_saved(nneonneo_chooser(library), path, settings, "nneonneo", *times)

    send_outcome(sender, play)


def plyground_child(
    settings: dict[str, Any], evaluator_name: str, path: Path, times: tuple[float, float], core: int | None, sender: Any
) -> None:
    """The process of one of plyground's games: its AI as ``settings`` say, with the evaluator of that name."""
    from plyground.g2048.expectimax import Expectimax

    start_child(core)

    def play() -> dict[str, Any]:
        evaluator = player_evaluator(evaluator_name, settings.get("downgrade", False))  # older games: without
        if evaluator_label(evaluator) != settings["evaluator"]:
            raise PlygroundError(f"the evaluator {evaluator_name!r} is not {settings['evaluator']} any more")
        bank = bool(settings.get("time_bank", False))
        budget, workers = settings["budget_ms"], settings["workers"]
        with Expectimax(time_ms=budget, workers=workers, evaluator=evaluator, time_bank=bank) as ai:

            def choose(board: Board) -> tuple[Direction, int]:
                decision = ai.choose(board)
                if decision.move is None:
                    raise PlygroundError("the search found no legal move on a live board")
                return decision.move, decision.depth

            return play_saved(choose, path, settings, "plyground", *times)

    send_outcome(sender, play)


def player_evaluator(name: str, downgrade: bool) -> Any:
    """The evaluator of that name; a network plays without tile-downgrading unless ``downgrade``."""
    from plyground.g2048.ntuple import NTupleNetwork
    from plyground.g2048.registry import load_evaluator

    evaluator = load_evaluator(name)
    if not downgrade and isinstance(evaluator, NTupleNetwork):
        evaluator.downgrade_from = None
    return evaluator


def evaluator_label(evaluator: Any) -> str:
    """How the log names an evaluator: a network with the checksum of its weights (retraining changes it),
    and the tile from which its searches downgrade the board, if they do."""
    from plyground.g2048.ntuple import NTupleNetwork

    label = str(evaluator.label)
    if isinstance(evaluator, NTupleNetwork):
        label += f" ({weights_checksum(evaluator.weights)})"
        if evaluator.downgrade_from is not None:
            label += f", downgraded from {evaluator.downgrade_from}"
    return label


def weights_checksum(weights: Any) -> str:
    """The first 12 hex digits of the SHA-256 of a network's weights: how the games logs name networks."""
    import hashlib

    import numpy as np

    return hashlib.sha256(np.ascontiguousarray(weights).data).hexdigest()[:12]
