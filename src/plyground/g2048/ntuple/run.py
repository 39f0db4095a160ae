"""Training runs of an n-tuple network: a folder that a run checkpoints to, killed and resumed at will.

A run trains one :class:`~plyground.g2048.ntuple.NTupleNetwork` towards a goal (games or
minutes of training *in all*) and keeps everything in its folder::

    run.json      the settings and the goal (a resumed run takes them from here)
    network.npz   the network at the last checkpoint (NTupleNetwork.save, atomic)
    recent.json   the results of the last ``window`` games at the last two checkpoints
    curve.csv     one row per report (see :mod:`plyground.g2048.ntuple.curve`)

A report is made every ``report_games`` games (and at the end of :meth:`TrainingRun.run`).
A checkpoint is taken every ``checkpoint_minutes`` of wall-clock time (and, when set,
every ``checkpoint_games`` games), at the end and when ``stop`` says so. It writes
``curve.csv``, then ``recent.json``, then ``network.npz``, each atomically, so a run
killed at any moment loses at most what it learnt since the last checkpoint:
:class:`TrainingRun` on the same folder goes on from the network's game count, dropping
the rows of the curve beyond it.

With one worker, learning is reproducible: a run killed and resumed ends with the same
network, bit for bit, as one that was never stopped (the checkpoints taken at the same
game counts give the same curve too). With two workers it is faster but not reproducible.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     run = TrainingRun(folder, LearnSettings(rows=2, cols=2, seed=1, report_games=50))
...     last = run.run(games=120)
...     [row.games for row in run.curve], run.network.trained.games
([50, 100, 120], 120)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeGuard

from plyground.core.files import FileFormat, atomic_write_text
from plyground.core.stats import ScoreSummary, reach_tiles, summarize_scores
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.board import DEFAULT_P_FOUR
from plyground.g2048.ntuple.curve import RecentGames, Report, curve_csv, read_curve_and_tiles
from plyground.g2048.ntuple.network import NTupleNetwork
from plyground.g2048.ntuple.settings import LearnSettings, check_steps
from plyground.g2048.ntuple.training import LearnStats, check_positive_int, is_positive
from plyground.g2048.ntuple.tuples import Cell

__all__ = ["RUN_FILES", "TrainingRun", "evaluation_seed", "play_greedy_games"]

RUN_FILES = ("run.json", "network.npz", "recent.json", "curve.csv", "curve.png")
"""The files of a run's folder: the four that :class:`TrainingRun` writes, and the plot that ``learn`` draws."""

RUN_FILE = FileFormat("plyground.g2048.learn", 1, "the settings of a training run", "training run")
"""``run.json``: ``{"format": ..., "version": 1, "settings": {...}, "goal": {"games": N} or {"minutes": M}}``."""
_RECENT_FILE = FileFormat(
    "plyground.g2048.learn.recent", 1, "the recent games of a training run", "recent games", unversioned=1
)  # files written before it had a version are version 1


class TrainingRun:
    """A training run in ``folder``: a new one with ``settings``, or the saved one (``settings=None``).

    A new run whose settings have a :attr:`~LearnSettings.start` goes on from ``start``, that
    trained network (see :meth:`NTupleNetwork.warm_start`): the run counts its games and time of
    training on from the network's, and checkpoints at once, so that it resumes from there.

    Raises:
        InvalidInputError: bad settings, a new run in a folder that already holds one, no run
            to resume, or a ``start`` that the settings do not describe (its size, tuples,
            stages, games or weights).
        CorruptFileError: a file of the folder cannot be read, or does not fit the others (``network.npz``
            missing beside a checkpoint's ``curve.csv`` or ``recent.json``, or in a run from a trained network).
    """

    def __init__(
        self,
        folder: str | os.PathLike[str],
        settings: LearnSettings | None = None,
        *,
        start: NTupleNetwork | None = None,
    ) -> None:
        self.folder = Path(folder)
        self._goal: dict[str, float] = {}
        self.curve: list[Report]
        """The rows of ``curve.csv``."""
        self.reach_tiles: tuple[int, ...]
        """The tiles whose reach the curve records: those the board can hold (2048 to 16384 for older runs)."""
        if settings is None:
            if start is not None:
                raise InvalidInputError("a saved run goes on from its own network: give start only to a new run")
            self.settings = self._load_settings()
            self.network = self._load_network()
            self.curve, self.reach_tiles = self._load_curve()
            self._recent, self._recent_entries = self._load_recent()
            return
        if self.run_file.exists():
            raise InvalidInputError(f"{self.folder} already holds a training run: resume it, or choose another folder")
        self.settings = settings
        self.network = settings.new_network() if start is None else _warm_network(settings, start)
        self.reach_tiles = reach_tiles(settings.rows, settings.cols)
        self._recent, self._recent_entries = RecentGames(settings.window, self.reach_tiles), []
        self.curve = []
        if start is not None:  # the network first: a run.json always has its network.npz
            self.folder.mkdir(parents=True, exist_ok=True)
            self.checkpoint()
        self._write_settings()

    @property
    def run_file(self) -> Path:
        """``run.json``."""
        return self.folder / "run.json"

    @property
    def network_file(self) -> Path:
        """``network.npz``, the network at the last checkpoint."""
        return self.folder / "network.npz"

    @property
    def goal(self) -> tuple[int | None, float | None]:
        """The goal of the run as saved: ``(games, minutes)`` in all, one of them None (both before any)."""
        games, minutes = self._goal.get("games"), self._goal.get("minutes")
        return (None if games is None else int(games)), minutes

    def report(self) -> Report:
        """Where training stands now."""
        return self._recent.report(self.network.trained)

    def done(self, *, games: int | None = None, minutes: float | None = None) -> bool:
        """Whether the network has reached the goal: ``games`` or ``minutes`` of training in all, else the saved one."""
        if games is None and minutes is None:
            games, minutes = self.goal
        trained = self.network.trained
        if games is not None:
            return trained.games >= games
        return minutes is not None and trained.seconds >= minutes * 60

    def run(
        self,
        *,
        games: int | None = None,
        minutes: float | None = None,
        workers: int = 1,
        stop: Callable[[], bool] | None = None,
        on_progress: Callable[[Report], None] | None = None,
        on_checkpoint: Callable[[], None] | None = None,
    ) -> Report:
        """Train until the network has ``games`` games or ``minutes`` of training in all, then checkpoint.

        Args:
            games: the goal in games trained, in all (this run and the earlier ones).
            minutes: the goal in minutes of training, in all.
            workers: threads learning at once (see :meth:`NTupleNetwork.learn`).
            stop: checked between kernel calls; when it returns True, the run checkpoints
                and returns early (the Ctrl-C of the command line).
            on_progress: called after every kernel call with a report.
            on_checkpoint: called after every checkpoint, the last one too (e.g. to draw the curve).

        Without ``games`` and ``minutes``, the goal saved in ``run.json`` holds; a new goal
        replaces it there.

        Returns:
            The last report.

        Raises:
            InvalidInputError: both goals, none and none saved, or bad values.
        """
        self.set_goal(games=games, minutes=minutes)
        settings, network = self.settings, self.network
        goal_games, goal_minutes = self.goal
        since_checkpoint = time.monotonic()

        def halt() -> bool:
            if goal_minutes is not None and network.trained.seconds >= goal_minutes * 60:
                return True
            return stop is not None and stop()

        def progress(stats: LearnStats) -> None:
            if on_progress is not None:
                on_progress(self._recent.report(network.trained, stats.results))

        while not self.done() and not (stop is not None and stop()):
            done = network.trained.games
            boundaries = [_next_multiple(done, settings.report_games)]
            if settings.checkpoint_games is not None:
                boundaries.append(_next_multiple(done, settings.checkpoint_games))
            if goal_games is not None:
                boundaries.append(goal_games)
            step = settings.next_step(done)
            if step is not None:
                boundaries.append(step)
            stats = network.learn(
                min(boundaries) - done,
                alpha=settings.alpha_at(done),
                tc=settings.tc,
                td_lambda=settings.td_lambda,
                horizon=settings.resolved_horizon,
                restarts=settings.restarts,
                expected=settings.expected,
                p_four=settings.p_four,
                workers=workers,
                stop=halt,
                on_progress=progress,
            )
            self._recent.add(stats.results)
            games_now = network.trained.games
            if games_now % settings.report_games == 0 and stats.results.games:
                self.curve.append(self.report())
            minutes_gone = (time.monotonic() - since_checkpoint) / 60
            if (settings.checkpoint_games is not None and games_now % settings.checkpoint_games == 0) or (
                settings.checkpoint_minutes is not None and minutes_gone >= settings.checkpoint_minutes
            ):
                self.checkpoint()
                if on_checkpoint is not None:
                    on_checkpoint()
                since_checkpoint = time.monotonic()
        if not self.curve or self.curve[-1].games != network.trained.games:
            self.curve.append(self.report())
        self.checkpoint()
        if on_checkpoint is not None:
            on_checkpoint()
        return self.report()  # the curve's rows keep no window or largest tile

    def checkpoint(self) -> None:
        """Write ``curve.csv``, ``recent.json`` and ``network.npz``, in this order, each atomically."""
        games = self.network.trained.games
        atomic_write_text(self.folder / "curve.csv", curve_csv(self.curve, self.reach_tiles))
        entries = [entry for entry in self._recent_entries if entry["games"] != games][-1:]
        self._recent_entries = [*entries, self._recent.to_json(games)]
        _RECENT_FILE.write(self.folder / "recent.json", {"checkpoints": self._recent_entries})
        self.network.save(self.network_file)

    # -----------------------------------------------------------------------------------
    # The folder

    def reschedule(self, steps: Sequence[tuple[int, float]]) -> None:
        """Replace the learning-rate steps not reached yet by ``steps``, and save them in ``run.json``.

        The steps already taken stay, so the schedule in ``run.json`` still describes the
        whole run: with one worker, a fresh run of the saved settings learns the same weights.

        Raises:
            InvalidInputError: a step at or below the games trained so far, or bad steps.
        """
        games = self.network.trained.games
        checked = check_steps(steps)
        if checked and checked[0][0] <= games:
            raise InvalidInputError(
                f"a new alpha step must come after the {games:,} games trained so far, not at game {checked[0][0]:,}"
            )
        taken = tuple(step for step in self.settings.alpha_steps if step[0] <= games)
        self.settings = replace(self.settings, alpha_steps=taken + checked)
        self._write_settings()

    def set_goal(self, *, games: int | None = None, minutes: float | None = None) -> None:
        """Set the goal (games or minutes of training, in all) and save it in ``run.json``; none: keep the saved one.

        Raises:
            InvalidInputError: both, none and none saved, or a value that is not positive.
        """
        if games is not None and minutes is not None:
            raise InvalidInputError("give a goal in games or in minutes, not both")
        if games is not None:
            check_positive_int(games, "games")
            self._goal = {"games": games}
        elif minutes is not None:
            if not is_positive(minutes):
                raise InvalidInputError(f"minutes must be a positive number, got {minutes!r}")
            self._goal = {"minutes": float(minutes)}
        elif not self._goal:
            raise InvalidInputError(f"{self.folder}: no goal saved: give games or minutes")
        else:
            return
        self._write_settings()

    def _write_settings(self) -> None:
        RUN_FILE.write(self.run_file, {"settings": self.settings.to_json(), "goal": self._goal}, dumps=_run_json)

    def _load_settings(self) -> LearnSettings:
        path = self.run_file
        try:
            data = RUN_FILE.read(path)
        except FileNotFoundError:
            raise InvalidInputError(f"no training run to resume in {self.folder} (no run.json)") from None
        goal = data.get("goal")
        if (
            not isinstance(goal, dict)
            or not set(goal) <= {"games", "minutes"}
            or len(goal) > 1
            or not all(is_positive(value) for value in goal.values())
        ):
            raise CorruptFileError(f"{path}: bad goal {goal!r}")
        self._goal = goal
        try:
            raw = dict(data["settings"])
            raw["tuples"] = [[tuple(cell) for cell in cells] for cells in raw["tuples"]]
            return LearnSettings(**raw)
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptFileError(f"{path}: bad settings: {' '.join(str(exc).split())}") from None

    def _load_network(self) -> NTupleNetwork:
        settings = self.settings
        if not self.network_file.exists():
            if settings.start is not None:
                raise CorruptFileError(
                    f"{self.network_file} is missing: the run from the network {settings.start.network} cannot be "
                    "resumed (start it again in another folder)"
                )
            if any((self.folder / name).exists() for name in ("curve.csv", "recent.json")):  # it had a checkpoint
                # (or was killed inside its first one, which the files cannot tell apart: the user can)
                raise CorruptFileError(
                    f"{self.network_file} is missing: the run cannot be resumed "
                    "(to start it over, delete its curve.csv and recent.json)"
                )
            return settings.new_network()  # killed before the first checkpoint
        tuples: Sequence[Sequence[Cell]] = settings.resolved_tuples
        return NTupleNetwork.load(
            self.network_file, rows=settings.rows, cols=settings.cols, tuples=tuples, stage_tiles=settings.stage_tiles
        )

    def _load_recent(self) -> tuple[RecentGames, list[dict[str, Any]]]:
        games = self.network.trained.games
        size = self.settings.window
        path = self.folder / "recent.json"
        try:
            data = _RECENT_FILE.read(path)
        except FileNotFoundError:
            if games == 0:
                return RecentGames(size, self.reach_tiles), []
            raise CorruptFileError(f"{path} is missing: the run cannot be resumed") from None
        entries = data.get("checkpoints")
        if not isinstance(entries, list):
            raise CorruptFileError(f"{path}: not the recent games of a training run (no list of checkpoints)")
        for entry in entries:
            if isinstance(entry, dict) and entry.get("games") == games:
                scores, tiles = entry.get("scores"), entry.get("tiles")
                if not (_int_list(scores) and _int_list(tiles) and len(scores) == len(tiles)):
                    raise CorruptFileError(f"{path}: bad scores or tiles for {games} games")
                return RecentGames(size, self.reach_tiles, scores, tiles), [entry]
        if games == 0:
            return RecentGames(size, self.reach_tiles), []
        raise CorruptFileError(f"{path} holds no results for the {games:,} games of {self.network_file.name}")

    def _load_curve(self) -> tuple[list[Report], tuple[int, ...]]:
        """The curve's rows up to the network's games (later rows are redone), and its reach tiles.

        A run keeps the reach columns of its curve: a run started before they depended on the
        board goes on with 2048 to 16384.
        """
        games = self.network.trained.games
        curve, tiles = read_curve_and_tiles(self.folder)
        if tiles is None:
            tiles = reach_tiles(self.settings.rows, self.settings.cols)
        return [report for report in curve if report.games <= games], tiles


def _warm_network(settings: LearnSettings, start: NTupleNetwork) -> NTupleNetwork:
    """The network a run of ``settings`` starts from: a copy of ``start``, checked against ``settings.start``."""
    warm = settings.start
    if warm is None:
        raise InvalidInputError("a run from a trained network needs settings whose start describes it")
    if start.shape != (settings.rows, settings.cols) or start.tuples != settings.resolved_tuples:
        raise InvalidInputError(
            f"the network is a {start.rows}x{start.cols} network of {len(start.tuples)} tuples: the settings "
            f"are for {settings.rows}x{settings.cols} and {len(settings.resolved_tuples)} tuples"
        )
    if start.trained.games != warm.games:
        raise InvalidInputError(f"the network has {start.trained.games:,} games of training, not {warm.games:,}")
    if hashlib.sha256(start.weights.data).hexdigest() != warm.weights_sha256:
        raise InvalidInputError(f"the network's weights are not those of {warm.network} (weights_sha256 differs)")
    return start.warm_start(seed=settings.seed, stage_tiles=settings.stage_tiles, tc=settings.tc)


def _run_json(data: Any) -> str:
    """``run.json``'s text: indented JSON with each cell, alpha step and tuple on one line."""
    text = json.dumps(data, indent=1)
    number = r"(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
    text = re.sub(rf"\[\s+{number},\s+{number}\s+\]", r"[\1, \2]", text)  # a cell, an alpha step on one line
    text = re.sub(r"\[\s+((?:\[\d+, \d+\],?\s+)+)\]", lambda m: f"[{' '.join(m.group(1).split())}]", text)  # a tuple
    return text + "\n"


def _next_multiple(value: int, step: int) -> int:
    """The smallest multiple of ``step`` above ``value``."""
    return (value // step + 1) * step


def _int_list(value: Any) -> TypeGuard[list[int]]:
    return isinstance(value, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in value)


def evaluation_seed(settings: LearnSettings) -> int:
    """The seed of the evaluation games of a run: far from the run's own stream of spawns."""
    return (settings.seed + (1 << 63)) % (1 << 64)


def play_greedy_games(network: NTupleNetwork, games: int, *, seed: int, p_four: float = DEFAULT_P_FOUR) -> ScoreSummary:
    """Play ``games`` greedy 1-ply games from ``seed`` (learning nothing); their summary.

    The reach is over the tiles that the network's board can hold.

    Raises:
        InvalidInputError: fewer than 2 games, a bad seed or ``p_four``.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise InvalidInputError(f"an evaluation needs at least 2 games, got {games!r}")
    results = network.play_greedy(games, seed=seed, p_four=p_four)
    return summarize_scores(results.scores, results.max_tiles, tiles=reach_tiles(network.rows, network.cols))
