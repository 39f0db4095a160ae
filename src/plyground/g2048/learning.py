"""Training runs of the n-tuple network: a folder that a run checkpoints to, killed and resumed at will.

A run trains one :class:`~plyground.g2048.ntuple.NTupleNetwork` towards a goal (games or
minutes of training *in all*) and keeps everything in its folder::

    run.json      the settings and the goal (a resumed run takes them from here)
    network.npz   the network at the last checkpoint (NTupleNetwork.save, atomic)
    recent.json   the results of the last ``window`` games at the last two checkpoints
    curve.csv     one row per report: games, moves, seconds, the mean score and the share
                  of games reaching 2048, 4096, 8192 and 16384 among the last ``window`` games
    curve.png     the curve (only when matplotlib is installed)

A report is made every ``report_games`` games (and at the end of :meth:`TrainingRun.run`).
A checkpoint is taken every ``checkpoint_minutes`` of wall-clock time (and, when set,
every ``checkpoint_games`` games), at the end and when ``stop`` says so. It writes
``curve.csv``, then ``recent.json``, then ``network.npz``, each atomically (and redraws
``curve.png`` at the end, or when a minute has gone since it was drawn), so a run
killed at any moment loses at most what it learnt since the last checkpoint:
:class:`TrainingRun` on the same folder goes on from the network's game count, dropping
the rows of the curve beyond it.

With one worker, learning is reproducible: a run killed and resumed ends with the same
network, bit for bit, as one that was never stopped (the checkpoints taken at the same
game counts give the same curve too). With two workers (two cores) it is faster but not
reproducible (see :meth:`NTupleNetwork.learn`).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     run = TrainingRun(folder, LearnSettings(rows=2, cols=2, seed=1, report_games=50))
...     last = run.run(games=120)
...     [row.games for row in run.curve], run.network.trained.games
([50, 100, 120], 120)
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import IO, Any, TypeGuard

import numpy as np
import numpy.typing as npt

from plyground.core.files import atomic_write, atomic_write_text, read_json, write_json
from plyground.core.stats import ScoreSummary, reach_tiles, summarize_scores
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.board import DEFAULT_P_FOUR, check_p_four
from plyground.g2048.ntuple import (
    MAX_HORIZON,
    Cell,
    GameResults,
    LearnStats,
    NTupleNetwork,
    Tuples,
    check_expected_updates,
    check_lambda,
    check_restarts,
    check_stage_tiles,
    check_tuples,
    default_tuples,
)

__all__ = [
    "LearnSettings",
    "Report",
    "TrainingRun",
    "default_horizon",
    "evaluation_seed",
    "play_greedy_games",
    "read_curve",
]

RUN_FORMAT = "plyground.g2048.learn"
RUN_VERSION = 1
_RECENT_FORMAT = "plyground.g2048.learn.recent"
_CURVE_COLUMNS = ["games", "moves", "seconds", "mean_score"]
"""The first columns of ``curve.csv``; a column ``reach_TILE`` follows for each tile of the run's reach."""


@dataclass(frozen=True)
class LearnSettings:
    """What a training run learns, and how often it reports and checkpoints; saved in ``run.json``.

    Attributes:
        rows, cols: the board (2 to 4 each).
        tuples: the network's tuples (None: :func:`~plyground.g2048.ntuple.default_tuples`;
            stored resolved).
        stage_tiles: the tiles that start the network's later stages (multi-stage; see
            :class:`~plyground.g2048.ntuple.NTupleNetwork`); empty for one stage, and for
            runs saved before stages existed.
        alpha: the learning rate (see :meth:`NTupleNetwork.learn`).
        alpha_steps: a schedule of later rates: ``(games, alpha)`` pairs, by increasing
            games; from the ``games``-th game trained (in all) on, the rate is ``alpha``.
            Counted in games, not time, so that a resumed run changes its rate at the same
            game as an uninterrupted one. Stored as lists in ``run.json``.
        tc: temporal coherence.
        td_lambda: TD(lambda) with delayed updates (0: TD(0); see :meth:`NTupleNetwork.learn`).
        horizon: the moves an afterstate waits for its update (None: 1 with ``td_lambda``
            0, else :func:`default_horizon`; stored resolved).
        restarts: episodes played again from the middle of each game (see
            :meth:`NTupleNetwork.learn`; 0 for none, and for runs saved before restarts).
        expected: learn by expected updates of every legal move (see
            :meth:`NTupleNetwork.learn`; TD(0) only; false for runs saved before them).
        p_four: the probability that a spawned tile is a 4.
        seed: the network's stream of spawns.
        initial_value: the value of every board before learning.
        checkpoint_minutes: wall-clock minutes between checkpoints (None: by games only).
        checkpoint_games: also checkpoint whenever the games trained reach a multiple of
            this (None: by time only); makes checkpoints happen at known game counts.
        report_games: a row of the curve every this many games.
        window: the curve's means and shares are over the last this many games.
    """

    rows: int = 4
    cols: int = 4
    tuples: Tuples | None = None
    stage_tiles: tuple[int, ...] = ()
    alpha: float = 0.1
    alpha_steps: tuple[tuple[int, float], ...] = ()
    tc: bool = False
    td_lambda: float = 0.0
    horizon: int | None = None
    restarts: int = 0
    expected: bool = False
    p_four: float = DEFAULT_P_FOUR
    seed: int = 0
    initial_value: float = 0.0
    checkpoint_minutes: float | None = 5.0
    checkpoint_games: int | None = None
    report_games: int = 1000
    window: int = 1000

    def __post_init__(self) -> None:
        tuples = default_tuples(self.rows, self.cols) if self.tuples is None else self.tuples
        object.__setattr__(self, "tuples", check_tuples(tuples, self.rows, self.cols))
        object.__setattr__(self, "stage_tiles", check_stage_tiles(self.stage_tiles, self.rows, self.cols))
        if not _positive(self.alpha):
            raise InvalidInputError(f"alpha must be a positive number, got {self.alpha!r}")
        object.__setattr__(self, "alpha_steps", _check_steps(self.alpha_steps))
        if not isinstance(self.tc, bool):
            raise InvalidInputError(f"tc must be true or false, got {self.tc!r}")
        horizon = self.horizon
        if horizon is None:
            check_lambda(self.td_lambda, 2)  # a number from 0 to 1, before its default horizon
            horizon = 1 if self.td_lambda == 0 else default_horizon(self.td_lambda)
        td_lambda, horizon = check_lambda(self.td_lambda, horizon)
        object.__setattr__(self, "td_lambda", td_lambda)
        object.__setattr__(self, "horizon", horizon)
        check_restarts(self.restarts)
        if not isinstance(self.expected, bool):
            raise InvalidInputError(f"expected must be true or false, got {self.expected!r}")
        check_expected_updates(self.expected, horizon, self.restarts)
        check_p_four(self.p_four)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 1 << 64:
            raise InvalidInputError(f"seed must be an integer in [0, 2**64), got {self.seed!r}")
        value = self.initial_value
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise InvalidInputError(f"initial_value must be a finite number, got {value!r}")
        if self.checkpoint_minutes is not None and not _positive(self.checkpoint_minutes):
            raise InvalidInputError(f"checkpoint_minutes must be a positive number, got {self.checkpoint_minutes!r}")
        if self.checkpoint_games is not None:
            _at_least_one(self.checkpoint_games, "checkpoint_games")
        _at_least_one(self.report_games, "report_games")
        _at_least_one(self.window, "window")

    @property
    def resolved_tuples(self) -> Tuples:
        """The tuples, never None."""
        assert self.tuples is not None  # resolved by __post_init__
        return self.tuples

    @property
    def resolved_horizon(self) -> int:
        """The horizon, never None."""
        assert self.horizon is not None  # resolved by __post_init__
        return self.horizon

    def alpha_at(self, games: int) -> float:
        """The learning rate of the game that follows ``games`` games trained."""
        alpha = self.alpha
        for start, rate in self.alpha_steps:
            if games >= start:
                alpha = rate
        return alpha

    def next_step(self, games: int) -> int | None:
        """The games trained at which the rate next changes after ``games`` (None: it does not)."""
        return next((start for start, _ in self.alpha_steps if start > games), None)

    def new_network(self) -> NTupleNetwork:
        """An untrained network of these settings."""
        return NTupleNetwork(
            self.rows,
            self.cols,
            self.resolved_tuples,
            seed=self.seed,
            initial_value=self.initial_value,
            stage_tiles=self.stage_tiles,
        )

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON data (tuples as lists of ``[row, col]``)."""
        data = asdict(self)
        data["tuples"] = [[list(cell) for cell in cells] for cells in self.resolved_tuples]
        data["alpha_steps"] = [list(step) for step in self.alpha_steps]
        data["stage_tiles"] = list(self.stage_tiles)
        return data


def default_horizon(td_lambda: float) -> int:
    """The horizon for ``td_lambda`` (0 < ``td_lambda`` < 1) when none is given.

    The fewest moves, at least 2, after which ``td_lambda ** moves`` (the weight the
    return would give to the moves beyond) is at most 0.1.

    >>> default_horizon(0.5), default_horizon(0.3), default_horizon(0.8)
    (4, 2, 11)

    Raises:
        InvalidInputError: ``td_lambda`` is not strictly between 0 and 1 (1 needs a horizon given).
    """
    if isinstance(td_lambda, bool) or not isinstance(td_lambda, int | float) or not 0.0 < td_lambda < 1.0:
        raise InvalidInputError(f"td_lambda {td_lambda!r} has no default horizon: give one (1 to {MAX_HORIZON})")
    return min(MAX_HORIZON, max(2, math.ceil(math.log(0.1) / math.log(td_lambda) - 1e-9)))


def _check_steps(steps: Any) -> tuple[tuple[int, float], ...]:
    """``steps`` as a tuple of ``(games, alpha)`` pairs, by strictly increasing positive games."""
    checked: list[tuple[int, float]] = []
    if isinstance(steps, str | bytes) or not isinstance(steps, Sequence):
        raise InvalidInputError(f"alpha_steps must be a list of [games, alpha] pairs, got {steps!r}")
    for step in steps:
        if isinstance(step, str | bytes) or not isinstance(step, Sequence) or len(step) != 2:
            raise InvalidInputError(f"an alpha step must be a pair [games, alpha], got {step!r}")
        games, alpha = step
        _at_least_one(games, "the games of an alpha step")
        if not _positive(alpha):
            raise InvalidInputError(f"the alpha of an alpha step must be a positive number, got {alpha!r}")
        if checked and games <= checked[-1][0]:
            raise InvalidInputError(f"alpha steps must be by increasing games, got {games} after {checked[-1][0]}")
        checked.append((games, float(alpha)))
    return tuple(checked)


def _positive(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 < value < math.inf


def _at_least_one(value: Any, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInputError(f"{name} must be a positive integer, got {value!r}")


@dataclass(frozen=True)
class Report:
    """Where training stands: the totals of the network and the results of its last ``window`` games.

    Attributes:
        games, moves, seconds: the network's training in all.
        window: the games the means and shares are over (fewer than the setting at the start).
        mean_score: the mean score of those games (0 without a game).
        reach: tile -> the share of those games that reached it, for the run's
            :attr:`TrainingRun.reach_tiles`.
        max_tile: the largest tile of those games.
    """

    games: int
    moves: int
    seconds: float
    window: int
    mean_score: float
    reach: dict[int, float]
    max_tile: int

    def csv_row(self) -> list[str]:
        """The row of ``curve.csv``."""
        shares = [f"{share:.6g}" for share in self.reach.values()]
        return [str(self.games), str(self.moves), f"{self.seconds:.3f}", f"{self.mean_score:.3f}", *shares]


class _Recent:
    """The scores and max tiles of the last ``size`` games, oldest first."""

    def __init__(self, size: int, reach: Sequence[int], scores: Sequence[int] = (), tiles: Sequence[int] = ()) -> None:
        self.size = size
        self.reach = tuple(reach)
        self.scores = np.asarray(scores, dtype=np.int64)[-size:]
        self.tiles = np.asarray(tiles, dtype=np.int64)[-size:]

    def add(self, results: GameResults) -> None:
        self.scores, self.tiles = self._with(results)

    def _with(self, results: GameResults) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        scores = np.concatenate([self.scores, results.scores[-self.size :]])[-self.size :]
        tiles = np.concatenate([self.tiles, results.max_tiles[-self.size :]])[-self.size :]
        return scores, tiles

    def report(self, network: NTupleNetwork, pending: GameResults | None = None) -> Report:
        """A report of the network with these games (and ``pending`` ones, not added)."""
        scores, tiles = (self.scores, self.tiles) if pending is None else self._with(pending)
        n = int(scores.shape[0])
        done = network.trained
        return Report(
            games=done.games,
            moves=done.moves,
            seconds=done.seconds,
            window=n,
            mean_score=float(scores.mean()) if n else 0.0,
            reach={tile: float((tiles >= tile).mean()) if n else 0.0 for tile in self.reach},
            max_tile=int(tiles.max()) if n else 0,
        )

    def to_json(self, games: int) -> dict[str, Any]:
        return {"games": games, "scores": self.scores.tolist(), "tiles": self.tiles.tolist()}


class TrainingRun:
    """A training run in ``folder``: a new one with ``settings``, or the saved one (``settings=None``).

    Raises:
        InvalidInputError: bad settings, a new run in a folder that already holds one, or
            no run to resume.
        CorruptFileError: a file of the folder cannot be read, or does not fit the others.
    """

    def __init__(self, folder: str | os.PathLike[str], settings: LearnSettings | None = None) -> None:
        self.folder = Path(folder)
        self._goal: dict[str, float] = {}
        self._plotted = time.monotonic()
        self.curve: list[Report]
        """The rows of ``curve.csv``."""
        self.reach_tiles: tuple[int, ...]
        """The tiles whose reach the curve records: those the board can hold (2048 to 16384 for older runs)."""
        if settings is None:
            self.settings = self._load_settings()
            self.network = self._load_network()
            self.curve, self.reach_tiles = self._load_curve()
            self._recent, self._recent_entries = self._load_recent()
            return
        if self.run_file.exists():
            raise InvalidInputError(f"{self.folder} already holds a training run: resume it, or choose another folder")
        self.settings = settings
        self.network = settings.new_network()
        self.reach_tiles = reach_tiles(settings.rows, settings.cols)
        self._recent, self._recent_entries = _Recent(settings.window, self.reach_tiles), []
        self.curve = []
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
        return self._recent.report(self.network)

    def done(self) -> bool:
        """Whether the network has reached the goal."""
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
    ) -> Report:
        """Train until the network has ``games`` games or ``minutes`` of training in all, then checkpoint.

        Args:
            games: the goal in games trained, in all (this run and the earlier ones).
            minutes: the goal in minutes of training, in all.
            workers: threads learning at once (see :meth:`NTupleNetwork.learn`).
            stop: checked between kernel calls; when it returns True, the run checkpoints
                and returns early (the Ctrl-C of the command line).
            on_progress: called after every kernel call with a report.

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
                on_progress(self._recent.report(network, stats.results))

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
                since_checkpoint = time.monotonic()
        if not self.curve or self.curve[-1].games != network.trained.games:
            self.curve.append(self.report())
        self.checkpoint(plot=True)
        return self.report()  # the curve's rows keep no window or largest tile

    def checkpoint(self, *, plot: bool = False) -> None:
        """Write ``curve.csv``, ``recent.json`` and ``network.npz`` (in this order, each atomically), then the plot.

        The plot is drawn when ``plot`` is true or a minute has gone since it last was.
        """
        games = self.network.trained.games
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([*_CURVE_COLUMNS, *(f"reach_{tile}" for tile in self.reach_tiles)])
        writer.writerows(row.csv_row() for row in self.curve)
        atomic_write_text(self.folder / "curve.csv", out.getvalue())
        entries = [entry for entry in self._recent_entries if entry["games"] != games][-1:]
        self._recent_entries = [*entries, self._recent.to_json(games)]
        write_json(self.folder / "recent.json", {"format": _RECENT_FORMAT, "checkpoints": self._recent_entries})
        self.network.save(self.network_file)
        if plot or time.monotonic() - self._plotted >= 60:
            self._write_plot()
            self._plotted = time.monotonic()

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
        checked = _check_steps(steps)
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
            _at_least_one(games, "games")
            self._goal = {"games": games}
        elif minutes is not None:
            if not _positive(minutes):
                raise InvalidInputError(f"minutes must be a positive number, got {minutes!r}")
            self._goal = {"minutes": float(minutes)}
        elif not self._goal:
            raise InvalidInputError(f"{self.folder}: no goal saved: give games or minutes")
        else:
            return
        self._write_settings()

    def _write_settings(self) -> None:
        data = {"format": RUN_FORMAT, "version": RUN_VERSION, "settings": self.settings.to_json(), "goal": self._goal}
        text = json.dumps(data, indent=1)
        number = r"(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
        text = re.sub(rf"\[\s+{number},\s+{number}\s+\]", r"[\1, \2]", text)  # a cell, an alpha step on one line
        text = re.sub(
            r"\[\s+((?:\[\d+, \d+\],?\s+)+)\]", lambda m: f"[{' '.join(m.group(1).split())}]", text
        )  # a tuple
        atomic_write_text(self.run_file, text + "\n")

    def _load_settings(self) -> LearnSettings:
        path = self.run_file
        try:
            data = read_json(path)
        except FileNotFoundError:
            raise InvalidInputError(f"no training run to resume in {self.folder} (no run.json)") from None
        if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
            raise CorruptFileError(f"{path}: not the settings of a training run")
        if data.get("version") != RUN_VERSION:
            raise CorruptFileError(f"{path}: unsupported version {data.get('version')!r}")
        goal = data.get("goal")
        if (
            not isinstance(goal, dict)
            or not set(goal) <= {"games", "minutes"}
            or len(goal) > 1
            or not all(_positive(value) for value in goal.values())
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
        if not self.network_file.exists():  # killed before the first checkpoint
            return settings.new_network()
        tuples: Sequence[Sequence[Cell]] = settings.resolved_tuples
        return NTupleNetwork.load(
            self.network_file, rows=settings.rows, cols=settings.cols, tuples=tuples, stage_tiles=settings.stage_tiles
        )

    def _load_recent(self) -> tuple[_Recent, list[dict[str, Any]]]:
        games = self.network.trained.games
        size = self.settings.window
        path = self.folder / "recent.json"
        try:
            data = read_json(path)
        except FileNotFoundError:
            if games == 0:
                return _Recent(size, self.reach_tiles), []
            raise CorruptFileError(f"{path} is missing: the run cannot be resumed") from None
        entries = data.get("checkpoints") if isinstance(data, dict) else None
        if not isinstance(data, dict) or data.get("format") != _RECENT_FORMAT or not isinstance(entries, list):
            raise CorruptFileError(f"{path}: not the recent games of a training run")
        for entry in entries:
            if isinstance(entry, dict) and entry.get("games") == games:
                scores, tiles = entry.get("scores"), entry.get("tiles")
                if not (_int_list(scores) and _int_list(tiles) and len(scores) == len(tiles)):
                    raise CorruptFileError(f"{path}: bad scores or tiles for {games} games")
                return _Recent(size, self.reach_tiles, scores, tiles), [entry]
        if games == 0:
            return _Recent(size, self.reach_tiles), []
        raise CorruptFileError(f"{path} holds no results for the {games:,} games of {self.network_file.name}")

    def _load_curve(self) -> tuple[list[Report], tuple[int, ...]]:
        """The curve's rows up to the network's games (later rows are redone), and its reach tiles.

        A run keeps the reach columns of its curve: a run started before they depended on the
        board goes on with 2048 to 16384.
        """
        games = self.network.trained.games
        curve, tiles = _read_curve(self.folder)
        if tiles is None:
            tiles = reach_tiles(self.settings.rows, self.settings.cols)
        return [report for report in curve if report.games <= games], tiles

    def _write_plot(self) -> None:
        try:
            from matplotlib.figure import Figure
        except ImportError:
            return  # the plot is a picture of curve.csv: without matplotlib, the CSV says it all
        figure = Figure(figsize=(8, 7), dpi=100, layout="constrained")
        top, bottom = figure.subplots(2, 1, sharex=True)
        games = [row.games for row in self.curve]
        window = self.settings.window
        top.plot(games, [row.mean_score for row in self.curve], color="tab:blue")
        top.set(
            title=f"n-tuple network, {self.settings.rows}x{self.settings.cols}",
            ylabel=f"mean score, last {window:,} games",
        )
        for tile in self.reach_tiles:
            bottom.plot(games, [row.reach[tile] for row in self.curve], label=str(tile))
        bottom.set(xlabel="games trained", ylabel=f"share reaching the tile, last {window:,} games", ylim=(0, 1))
        if self.reach_tiles:
            bottom.legend(loc="upper left")

        def write(handle: IO[bytes]) -> None:
            figure.savefig(handle, format="png")

        atomic_write(self.folder / "curve.png", write)


def read_curve(folder: str | os.PathLike[str]) -> list[Report]:
    """The learning curve of the run in ``folder`` (its ``curve.csv``; empty when there is none yet).

    The rows carry the running means and shares, not the window or the largest tile
    (``window`` and ``max_tile`` are 0); the reach is over the tiles of the file's columns.

    Raises:
        CorruptFileError: a file that is not such a curve.
    """
    return _read_curve(folder)[0]


def _read_curve(folder: str | os.PathLike[str]) -> tuple[list[Report], tuple[int, ...] | None]:
    """The rows of ``curve.csv`` and the tiles of its reach columns (None without a file)."""
    path = Path(folder) / "curve.csv"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], None
    except UnicodeDecodeError:
        raise CorruptFileError(f"{path} is not UTF-8 text") from None
    rows = list(csv.reader(io.StringIO(text)))
    tiles = _reach_columns(rows[0]) if rows else None
    if tiles is None:
        raise CorruptFileError(f"{path}: not the curve of a training run (its header is {rows[:1]!r})")
    curve = []
    for number, row in enumerate(rows[1:], start=2):
        try:
            games, moves, seconds, mean, *shares = row
            curve.append(
                Report(
                    games=int(games),
                    moves=int(moves),
                    seconds=float(seconds),
                    window=0,
                    mean_score=float(mean),
                    reach=dict(zip(tiles, map(float, shares), strict=True)),
                    max_tile=0,
                )
            )
        except ValueError:
            raise CorruptFileError(f"{path}: line {number} is not a row of the curve") from None
    return curve, tiles


def _reach_columns(header: list[str]) -> tuple[int, ...] | None:
    """The tiles of the ``reach_TILE`` columns of a curve's header (None: not a curve's header)."""
    if header[: len(_CURVE_COLUMNS)] != _CURVE_COLUMNS:
        return None
    tiles: list[int] = []
    for name in header[len(_CURVE_COLUMNS) :]:
        tile = name.removeprefix("reach_")
        if not tile.isdigit() or int(tile) < 2 or int(tile) & (int(tile) - 1) or (tiles and int(tile) <= tiles[-1]):
            return None
        tiles.append(int(tile))
    return tuple(tiles)


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
