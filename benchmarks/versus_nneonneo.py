"""plyground against nneonneo/2048-ai at equal time per move, one core each, games added up across runs.

nneonneo/2048-ai (built by ``benchmarks/opponents/build_nneonneo.sh`` in a folder outside this
repository) plays its games on one core while plyground plays its own on another, at the same
time. ``--nneonneo DEST/lib2048-ai.so``, its library, plays it move by move on plyground's games
(the same rules and seeded spawns); ``--nneonneo DEST/2048-ai``, its program, plays whole games
by itself. nneonneo searches as deep as its board asks, so its time per move is measured (the
time of its library's call, or the search time its program prints for each root move); plyground
then plays at that budget, as a mean (its search's time bank: what a move leaves goes to the
next moves): ``--time-ms`` if given, else the mean of nneonneo's games logged so
far (move-weighted; those of its library alone when there are some), else 180 ms until one is logged.

Every finished game is appended at once, as one line, to ``--results``/``versus_nneonneo_games.jsonl``
(with the date, commit and machine), so that runs add up across sessions: commit the file.
``--games`` counts the games of each row of the table: plyground's with another evaluator or
number of workers (alone: another budget) are another row, and do not count. With a network,
plyground's searches downgrade boards from 16384 on (see ``NTupleNetwork.downgraded``), as
``plyground 2048 ai`` plays; ``--no-downgrade`` plays without, in a row of its own. A game
in progress is saved every ``--save-seconds`` (30) in ``--saved`` (plyground's data folder), and
at once when the run is stopped by Ctrl-C or SIGTERM; the next run resumes it where it was saved
(``kill -9`` loses at most the last interval). Only a game of nneonneo's program is lost when
stopped. The replay of every finished game of the library or of plyground is kept in ``--saved``/replays
(``plyground 2048 video`` draws it). ``--alone`` plays plyground by itself on every core (``--workers``, default 2) at
``--time-ms`` (default 20), logged apart (the shipped network's target at 20 ms). Once a side
has its games, its core plays the other side's (a second lane, as ``--both-cores``), so that neither core idles
while the match needs games. ``--only
nneonneo`` (or ``plyground``) plays one side's games alone on its core, so that the side behind
catches up while the other core does other work; with ``--both-cores`` it plays two of that side's
games at once, one on each core (each with its own seed and saved game), so that the side behind
catches up on the whole machine, as busy as during the match. ``--report`` only prints the table of the games
logged, and the games saved in progress. Every ``--progress-minutes`` (10) each game in progress
says on stderr how far it got (move, score, minutes).

    python benchmarks/versus_nneonneo.py --nneonneo DEST/lib2048-ai.so [--games 20] [--time-ms MS]
                                         [--evaluator E] [--no-downgrade] [--cores 0,1]
                                         [--only SIDE [--both-cores]]
    python benchmarks/versus_nneonneo.py --alone [--games 30] [--time-ms 20] [--workers 2]
    python benchmarks/versus_nneonneo.py --report

The table gives, for each player (and each plyground setting), the games, the mean time per move,
the median score with its distribution-free 95% interval, the mean score, and the share of games
reaching 16384 and 32768 with Wilson 95% intervals; then the targets. One of nneonneo's games takes
an hour or more here: run it in the background (``nohup ... &``).

Targets: plyground's median score and its share of games reaching 32768 at least nneonneo's (>= 20
games each); alone at 20 ms on both cores: >= 95% of games reach 16384 and >= 30% reach 32768
(>= 30 games).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from plyground.arena.versus2048 import (
    SAVE_SECONDS,
    Stopped,
    evaluator_label,
    is_library,
    keep_replay,
    load_library,
    nneonneo_child,
    play_nneonneo_program,
    player_evaluator,
    plyground_child,
    read_saved,
    saved_position,
)
from plyground.arena.versus2048_log import (
    ALONE_GAMES,
    VERSUS_GAMES,
    check_game,
    group_key,
    nneonneo_budget,
    show,
    summarize,
    targets,
)
from plyground.core.files import data_dir
from plyground.core.measurements import add_record_options, checkout_root, print_json, read_games, record
from plyground.errors import PlygroundError

GAMES_LOG = "versus_nneonneo_games"
"""The per-game log: ``<results>/versus_nneonneo_games.jsonl``, one line a game."""
FIRST_BUDGET_MS = 180.0
"""plyground's time per move before any game of nneonneo is logged (its mean in a first game here)."""
LANES = 2
"""Games of one side at once at most (``--both-cores``: one on each core)."""
STOP_SECONDS = 30.0
"""How long a stopped run waits for its games to save after their move in progress."""

# ---------------------------------------------------------------------------------------
# The run


class Run:
    """The games still to play, the log, the games in progress, and how to stop everything at once."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.log = args.results / f"{GAMES_LOG}.jsonl"
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.running: list[subprocess.Popen[str]] = []
        self.errors: list[BaseException] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        self.times = (60.0 * args.progress_minutes, args.save_seconds)
        self.claiming = threading.Lock()
        self.playing: dict[tuple[str, int], int | None] = {}  # the seed of each side's lane's game in progress

    def games(self) -> list[dict[str, Any]]:
        with self.lock:
            return read_games(self.log, check_game)

    def append(self, game: dict[str, Any]) -> None:
        with self.lock:
            record(GAMES_LOG, game, self.args.results, root=checkout_root(Path(__file__)))
        print(f"{game['player']}: {game['score']:,} points, {game['max_tile']}, {game['moves']:,} moves, "
              f"{game['ms_per_move']:.1f} ms a move", file=sys.stderr)  # fmt: skip

    def saved_path(self, side: str, lane: int = 0) -> Path:
        """Where ``side``'s game in progress is saved: one file a side, lane (``--both-cores``) and log."""
        tag = hashlib.sha256(str(self.log.resolve()).encode()).hexdigest()[:8]
        return Path(self.args.saved) / f"{side}{f'-{lane + 1}' if lane else ''}-{tag}.json"

    def claim(
        self,
        side: str,
        lane: int,
        counted: Callable[[dict[str, Any]], bool],
        mine: Callable[[dict[str, Any]], bool],
        fresh: dict[str, Any] | None,
    ) -> dict[str, Any] | None:
        """The settings of the next game of ``side``'s ``lane``, or None when its row has its ``--games``.

        The row counts the games logged in it (``counted``) and those the other lanes are playing;
        ``fresh`` is None for nneonneo's program (no seed, nothing saved). The game is the lane's own
        saved game, else a new one on the seed after every seed of the side's games (``mine``) logged,
        played or saved by another lane.
        """
        path = self.saved_path(side, lane)
        with self.claiming:
            others = [seed for (who, where), seed in self.playing.items() if who == side and where != lane]
            if sum(1 for g in self.games() if counted(g)) + len(others) >= self.args.games:
                return None
            settings: dict[str, Any] = {}
            if fresh is not None:
                for where in (self.saved_path(side, other) for other in range(LANES) if other != lane):
                    if (kept := read_saved(where)) is not None:  # resumed by its lane: its seed is taken
                        others.append(kept["settings"].get("seed"))
                settings = self.next_game(side, path, mine, fresh, others)
            self.playing[side, lane] = settings.get("seed")
            return settings

    def release(self, side: str, lane: int) -> None:
        """``side``'s ``lane`` plays no game now."""
        with self.claiming:
            self.playing.pop((side, lane), None)

    def next_game(
        self,
        side: str,
        path: Path,
        mine: Callable[[dict[str, Any]], bool],
        fresh: dict[str, Any],
        taken: tuple[int | None, ...] | list[int | None] = (),
    ) -> dict[str, Any]:
        """The settings of the side's next game: those of its game saved in ``path``, else ``fresh`` and a new seed.

        The new seed follows the seeds logged and those ``taken`` (the other lanes' games). A saved game
        already logged (the run was killed between the two) is dropped. A saved game of plyground with
        another evaluator is an error: it is finished with the one it started with.
        """
        logged = [g for g in self.games() if mine(g)]
        saved = read_saved(path)
        if saved is not None and any(g.get("seed") == saved["settings"].get("seed") for g in logged):
            self.retire(side, path)
            saved = None
        if saved is None:
            seeds = [g.get("seed") or 0 for g in logged] + [seed or 0 for seed in taken]
            return {**fresh, "seed": 1 + max(seeds, default=0)}
        settings: dict[str, Any] = saved["settings"]
        if settings.get("evaluator") != fresh.get("evaluator"):
            raise PlygroundError(
                f"{path} holds a game in progress played with {settings.get('evaluator')}, not "
                f"{fresh.get('evaluator')}: finish it with that evaluator (--evaluator), or delete the file to drop it"
            )
        moves, _ = saved_position(saved)
        print(f"resuming the game in progress of seed {settings.get('seed')} at move {moves:,} ({path})",
              file=sys.stderr, flush=True)  # fmt: skip
        return settings

    def in_progress(self) -> dict[str, dict[str, Any]]:
        """The games saved in progress for this log, by side (and lane after the first): seed, moves, score, file."""
        playing = {}
        for side in ("nneonneo", "plyground-versus", "plyground-alone"):
            for lane in range(LANES):
                path = self.saved_path(side, lane)
                saved = read_saved(path)
                if saved is None:
                    continue
                moves, score = saved_position(saved)
                seed = saved["settings"].get("seed")
                name = f"{side} ({lane + 1})" if lane else side
                playing[name] = {"seed": seed, "moves": moves, "score": score, "file": str(path)}
        return playing

    def replay_path(self, side: str, seed: Any) -> Path:
        """Where the replay of ``side``'s finished game of ``seed`` is kept: ``--saved``/replays, one file a game."""
        return Path(self.args.saved) / "replays" / self.saved_path(f"{side}-seed{seed}").name

    def finish(self, side: str, path: Path, game: dict[str, Any]) -> None:
        """Log a game played to its end, keep its replay, then drop its saved copy."""
        self.append(game)
        self.retire(side, path)

    def retire(self, side: str, path: Path) -> None:
        """Keep the replay of ``side``'s finished game saved in ``path`` (see :meth:`replay_path`), then delete
        the file. A replay that cannot be written is said on stderr: the game is logged all the same."""
        try:
            if (saved := read_saved(path)) is not None:
                kept = self.replay_path(side, saved["settings"].get("seed"))
                keep_replay(saved, kept)
                print(f"its replay: {kept}", file=sys.stderr, flush=True)
        except PlygroundError as error:
            print(f"warning: the replay is not kept: {error}", file=sys.stderr, flush=True)
        path.unlink(missing_ok=True)

    def child(self, target: Callable[..., None], args: tuple[Any, ...]) -> Any:
        """Run ``target(*args, sender)`` in a process of its own; what it sent, or None when the run stops."""
        context = multiprocessing.get_context("spawn")
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=target, args=(*args, sender), daemon=True)
        process.start()
        sender.close()
        self.processes.append(process)
        try:
            outcome = receiver.recv()
        except EOFError:  # killed: stopped, or died
            outcome = None
        finally:
            process.join()
            self.processes.remove(process)
        if self.stop.is_set() or isinstance(outcome, Stopped):  # the game was saved: the next run resumes it
            return None
        if outcome is None:
            raise PlygroundError(f"a game's process died (exit status {process.exitcode}); its game stays saved")
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def nneonneo_loop(self, binary: Path, core: int | None, lane: int = 0) -> None:
        def mine(g: dict[str, Any]) -> bool:
            return bool(g["player"] == "nneonneo")

        library = is_library(binary)  # else its program: whole games, lost if stopped
        path = self.saved_path("nneonneo", lane)
        while not self.stop.is_set():
            settings = self.claim("nneonneo", lane, mine, mine, {} if library else None)
            if settings is None:
                return
            try:
                if not library:
                    try:
                        game = play_nneonneo_program(binary, core, self.running, self.times[0])
                    except Stopped:
                        return
                    self.append({"player": "nneonneo", "binary": str(binary), **game})
                    continue
                outcome = self.child(nneonneo_child, (binary, settings, path, self.times, core))
                if outcome is None:
                    return
                self.finish("nneonneo", path, {"player": "nneonneo", "library": str(binary), **settings, **outcome})
            finally:
                self.release("nneonneo", lane)

    def plyground_loop(self, mode: str, core: int | None, lane: int = 0) -> None:
        def mine(g: dict[str, Any]) -> bool:
            return g["player"] == "plyground" and g["mode"] == mode

        side = f"plyground-{mode}"
        path = self.saved_path(side, lane)
        while not self.stop.is_set():
            budget = self.args.time_ms
            if budget is None:
                budget = nneonneo_budget(self.games()) or FIRST_BUDGET_MS
            fresh = {"mode": mode, "budget_ms": round(budget, 1), "workers": self.args.workers,
                     "evaluator": self.args.evaluator_label, "time_bank": True,
                     "downgrade": self.args.downgrade}  # fmt: skip
            row = group_key({"player": "plyground", **fresh})  # games of other settings are other rows
            settings = self.claim(side, lane, lambda g, row=row: group_key(g) == row, mine, fresh)
            if settings is None:
                return
            try:
                outcome = self.child(plyground_child, (settings, self.args.evaluator, path, self.times, core))
                if outcome is None:
                    return
                self.finish(side, path, {"player": "plyground", **settings, **outcome})
            finally:
                self.release(side, lane)

    def play(self) -> None:
        """Play until every player has its games, or until told to stop."""
        cores = self.args.cores
        jobs: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        if self.args.alone:
            jobs.append((self.plyground_loop, ("alone", None)))
        elif self.args.only is None:  # nneonneo on the first core, plyground on the second, then the other side
            nneonneo = functools.partial(self.nneonneo_loop, self.args.nneonneo)
            plyground = functools.partial(self.plyground_loop, "versus")
            jobs.append((self.hand_over, (("nneonneo", nneonneo), ("plyground", plyground), cores[0])))
            jobs.append((self.hand_over, (("plyground", plyground), ("nneonneo", nneonneo), cores[1])))
        else:  # one side, on its core; with --both-cores, a second lane on the other
            lanes = range(LANES if self.args.both_cores else 1)
            if self.args.only == "nneonneo":
                jobs += [(self.nneonneo_loop, (self.args.nneonneo, cores[lane], lane)) for lane in lanes]
            else:
                jobs += [(self.plyground_loop, ("versus", cores[1 - lane], lane)) for lane in lanes]

        def guarded(job: Callable[..., None], job_args: tuple[Any, ...]) -> None:
            try:
                job(*job_args)
            except BaseException as error:  # shown by the main thread
                self.errors.append(error)
                self.halt()

        threads = [threading.Thread(target=guarded, args=job, daemon=True) for job in jobs]
        for thread in threads:
            thread.start()
        try:
            for thread in threads:
                while thread.is_alive():
                    thread.join(0.5)
        finally:
            self.halt()
            deadline = time.monotonic() + STOP_SECONDS
            for thread in threads:
                thread.join(max(0.0, deadline - time.monotonic()))
            for child in list(self.processes):  # a game that did not save in time resumes from its last save
                child.kill()
            for thread in threads:
                thread.join(10)

    def hand_over(
        self, first: tuple[str, Callable[..., None]], then: tuple[str, Callable[..., None]], core: int
    ) -> None:
        """Play ``first``'s games on ``core`` (its first lane) until its row is full, then ``then``'s (a second
        lane of the other side, as ``--both-cores``) until theirs is: a core is never idle while a side needs games.
        """
        (name, loop), (other, other_loop) = first, then
        loop(core, 0)
        if not self.stop.is_set():
            print(f"{name} has its games: its core plays {other}'s too", file=sys.stderr, flush=True)
            other_loop(core, 1)

    def halt(self) -> None:
        """Stop every game in progress: a saved game is saved after its move in progress; a game of the program
        is lost."""
        self.stop.set()
        for process in list(self.running):
            process.kill()
        for child in list(self.processes):
            child.terminate()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--nneonneo",
        type=Path,
        metavar="PATH",
        help="nneonneo's library (DEST/lib2048-ai.so: its games resume) or program (DEST/2048-ai), "
        "built by build_nneonneo.sh",
    )
    parser.add_argument("--alone", action="store_true", help="plyground alone on every core, at --time-ms (20)")
    parser.add_argument("--report", action="store_true", help="only print the table of the games logged")
    parser.add_argument(
        "--games",
        type=int,
        help=f"games of each row (player and settings) in the log, in all ({VERSUS_GAMES}; alone {ALONE_GAMES})",
    )
    parser.add_argument("--time-ms", type=float, help="plyground's time per move (default: nneonneo's measured mean)")
    parser.add_argument("--evaluator", help="plyground's evaluator (default: that of 'plyground 2048 ai' on 4x4)")
    parser.add_argument(
        "--no-downgrade",
        dest="downgrade",
        action="store_false",
        help="a network searches its boards as they are, not downgraded from 16384 (as plyground plays)",
    )
    parser.add_argument("--workers", type=int, help="plyground's search threads (1 against nneonneo; alone 2)")
    parser.add_argument("--cores", default="0,1", help="the cores of nneonneo and of plyground (default 0,1)")
    parser.add_argument(
        "--only",
        choices=("nneonneo", "plyground"),
        help="play the games of one side only, on its core (the side behind catches up; the other core is free)",
    )
    parser.add_argument(
        "--both-cores",
        action="store_true",
        help="with --only: play two of that side's games at once, one on each core of --cores",
    )
    parser.add_argument(
        "--progress-minutes",
        type=float,
        default=10.0,
        metavar="M",
        help="say how each game in progress goes every M minutes, on stderr (default 10; 0: never)",
    )
    parser.add_argument(
        "--saved",
        type=Path,
        metavar="DIR",
        help="where the games in progress are saved (default: versus_nneonneo in plyground's data folder)",
    )
    parser.add_argument(
        "--save-seconds",
        type=float,
        default=SAVE_SECONDS,
        metavar="S",
        help=f"save each game in progress every S seconds (default {SAVE_SECONDS:g})",
    )
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()

    modes = sum(bool(x) for x in (args.nneonneo, args.alone, args.report))
    if modes != 1:
        parser.error("give one of --nneonneo PATH, --alone and --report")
    build = "build it with benchmarks/opponents/build_nneonneo.sh"
    if args.nneonneo is not None and is_library(args.nneonneo):
        if not args.nneonneo.is_file():
            parser.error(f"{args.nneonneo} is not a file: {build}")
        try:
            load_library(args.nneonneo)
        except PlygroundError as error:
            parser.error(str(error))
    elif args.nneonneo is not None and not (args.nneonneo.is_file() and os.access(args.nneonneo, os.X_OK)):
        parser.error(f"{args.nneonneo} is not a program: {build}")
    if args.only is not None and args.nneonneo is None:
        parser.error("--only chooses a side of the match against nneonneo: give it with --nneonneo PATH")
    if args.both_cores and args.only is None:
        parser.error("--both-cores plays one side's games on both cores: give the side with --only")
    if args.alone and args.time_ms is None:
        args.time_ms = 20.0
    if not 0 <= args.progress_minutes <= 10_000:  # NaN fails too
        parser.error("--progress-minutes is a number of minutes from 0 to 10,000")
    if not 0 <= args.save_seconds <= 3600:
        parser.error("--save-seconds is a number of seconds from 0 to 3,600")
    args.saved = args.saved if args.saved is not None else data_dir() / "versus_nneonneo"
    if args.time_ms is not None and not 0 < args.time_ms <= 60_000:
        parser.error("--time-ms is a number of milliseconds above 0, at most 60,000")
    args.games = args.games if args.games is not None else ALONE_GAMES if args.alone else VERSUS_GAMES
    if not 1 <= args.games <= 100_000:
        parser.error("--games goes from 1 to 100,000")
    args.workers = args.workers if args.workers is not None else 2 if args.alone else 1
    if args.evaluator is None:
        from plyground.g2048.registry import default_evaluator

        args.evaluator = default_evaluator(4, 4)  # what 'plyground 2048 ai' plays with
    if not 1 <= args.workers <= 4:
        parser.error("--workers goes from 1 to 4")
    try:
        args.cores = [int(core) for core in args.cores.split(",")]
        if len(args.cores) != 2 or min(args.cores) < 0:
            raise ValueError
    except ValueError:
        parser.error(f"--cores is two core numbers, as 0,1; got {args.cores!r}")

    run = Run(args)
    try:
        run.games()  # a damaged log is refused before anything is played
    except PlygroundError as error:
        parser.exit(2, f"error: {error}\n")
    if not args.report:
        args.evaluator_label = None
        if args.only != "nneonneo":  # plyground plays: its evaluator is loaded (and checked) once here
            try:
                args.evaluator_label = evaluator_label(player_evaluator(args.evaluator, args.downgrade))
            except PlygroundError as error:
                parser.exit(2, f"error: {error}\n")
        signal.signal(signal.SIGTERM, lambda *_: run.halt())
        try:
            run.play()
        except KeyboardInterrupt:
            print("stopped: the games in progress resume from their last save (not a game of nneonneo's program)",
                  file=sys.stderr)  # fmt: skip
        if run.errors:
            error = run.errors[0]
            parser.exit(1, f"error: {error}\n" if isinstance(error, PlygroundError) else f"error: {error!r}\n")

    games = run.games()
    summary = summarize(games)
    met = targets(summary)
    console = Console(width=max(Console().width, 150))  # a row a line, in a log file too
    show(summary, met, console)
    try:
        playing = run.in_progress()
    except PlygroundError as error:
        parser.exit(1, f"error: {error}\n")
    for side, game in playing.items():
        console.print(f"in progress: {side}, seed {game['seed']}, move {game['moves']:,}, {game['score']:,} points "
                      f"({game['file']})")  # fmt: skip
    print_json("versus_nneonneo", {"log": str(run.log), "rows": summary, "targets": met, "in_progress": playing}, args)


if __name__ == "__main__":
    main()
