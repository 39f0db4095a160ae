"""Tuning the heuristic weights with CMA-ES, resumable after a kill at any moment.

The search runs over the scalar weights of :data:`TUNED`, around a base set (the shipped
weights by default). A weight that is not zero in the base keeps its sign and is searched
on a log scale (``w = sign · exp(x)``, so a step multiplies it); a weight that is zero in
the base is searched on a linear scale (``w = scale · x``; ``game_over`` takes ``|x|``,
as it must not be negative). The positional matrix stays as in the base.

Every candidate plays the same ``games`` seeds (common random numbers: the candidates of a
run differ only by their weights), and its fitness is the mean score. Candidates' games
run through :func:`plyground.core.run_many` (a process pool or Dask).

The run folder holds::

    tune.json          the settings (a resumed run takes them from here)
    state.pkl          CMA-ES and the current generation's candidates and finished evaluations
    evaluations.csv    every finished evaluation: generation, candidate, mean score, each weight
    best.json          the best weights so far, a weights file that ``plyground 2048 ai --weights`` loads

``state.pkl`` is written atomically after every finished evaluation (and at the start of
every generation), so a run killed at any moment loses at most the evaluations in
progress; :meth:`Tuner.run` on the same folder goes on from there. The random draws of
CMA-ES come from a generator saved inside the state, so a resumed run ends in exactly the
state of an uninterrupted one when the games are reproducible (``depth``, not ``time_ms``).
"""

from __future__ import annotations

import csv
import io
import math
import os
import pickle
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from plyground.core.files import FileFormat, atomic_write, atomic_write_text
from plyground.core.run_many import Backend, run_many
from plyground.core.seeding import make_rng
from plyground.core.stats import mean_interval
from plyground.errors import CorruptFileError, DependencyNotInstalled, InvalidInputError, install_command
from plyground.g2048.autoplay import GameResult, GameSpec, play_spec
from plyground.g2048.board import DEFAULT_P_FOUR, check_p_four
from plyground.g2048.heuristic import MAX_WEIGHT, Weights, default_weights

__all__ = [
    "TUNED",
    "Comparison",
    "Encoding",
    "TuneSettings",
    "TuneState",
    "Tuner",
    "compare_weights",
]

TUNED: tuple[str, ...] = ("empty", "merges", "monotonicity", "smoothness", "rank_sum", "game_over")
"""The weights CMA-ES searches; the positional matrix is kept as in the base weights."""

_LINEAR_SCALE = {"smoothness": 20.0, "game_over": 2000.0}  # weights that are zero in the base
_LOG_MAX_WEIGHT = math.log(MAX_WEIGHT) - 1e-9  # exp() of it stays within MAX_WEIGHT, rounding included
_SETTINGS_FILE = FileFormat("plyground.g2048.tune", 1, "the settings of a tuning run", "tuning run")
_STATE_VERSION = 1


@dataclass(frozen=True)
class Encoding:
    """The map between CMA-ES vectors and weights, around ``base``.

    >>> encoding = Encoding(default_weights())
    >>> back = encoding.decode(encoding.encode(default_weights()))
    >>> [round(getattr(back, name), 9) for name in TUNED] == [getattr(default_weights(), name) for name in TUNED]
    True
    """

    base: Weights

    def encode(self, weights: Weights) -> list[float]:
        """The vector of ``weights`` (the tuned ones, in the order of :data:`TUNED`)."""
        vector = []
        for name in TUNED:
            value, base = getattr(weights, name), getattr(self.base, name)
            if base != 0:
                magnitude = value * math.copysign(1.0, base)
                vector.append(math.log(magnitude) if magnitude > 0 else -30.0)
            else:
                vector.append(value / _LINEAR_SCALE.get(name, 1.0))
        return vector

    def decode(self, vector: Sequence[float]) -> Weights:
        """The weights of a vector: the base weights with the tuned ones replaced, each kept within
        ±:data:`~plyground.g2048.heuristic.MAX_WEIGHT` (a weight can take no larger value)."""
        data = self.base.to_dict()
        for name, x in zip(TUNED, vector, strict=True):
            base = getattr(self.base, name)
            if base != 0:
                data[name] = math.copysign(math.exp(min(float(x), _LOG_MAX_WEIGHT)), base)
            else:
                value = max(-MAX_WEIGHT, min(float(x) * _LINEAR_SCALE.get(name, 1.0), MAX_WEIGHT))
                data[name] = abs(value) if name == "game_over" else value
        return Weights.from_dict(data)


@dataclass(frozen=True)
class TuneSettings:
    """What a tuning run does; saved in ``tune.json`` and taken from there on resume.

    Attributes:
        generations: CMA-ES generations.
        population: candidates per generation.
        games: games per candidate (the same seeds for every candidate).
        time_ms: time budget per move of the candidates' games (or ``depth``).
        depth: a fixed search depth (reproducible games: a resumed run ends as an uninterrupted one).
        rows: rows of the board.
        cols: columns of the board.
        p_four: the probability of a 4.
        seed: seeds CMA-ES and the games (game seeds ``seed * 1000 + i``), 0 to 9999.
        sigma: CMA-ES's initial step size (on the log scale, 0.5 is a factor of about 1.6).
    """

    generations: int = 10
    population: int = 8
    games: int = 8
    time_ms: float | None = None
    depth: int | None = 2
    rows: int = 4
    cols: int = 4
    p_four: float = DEFAULT_P_FOUR
    seed: int = 0
    sigma: float = 0.5

    @classmethod
    def from_options(cls, **given: Any) -> TuneSettings:
        """The settings with the ``given`` ones, where a None is the setting's default.

        A time budget given without a depth searches to its time (no default depth). What a
        command line passes through, so that it restates no default.

        >>> TuneSettings.from_options(time_ms=20, depth=None, games=None).depth is None
        True
        """
        chosen = {name: value for name, value in given.items() if value is not None}
        if "time_ms" in chosen and "depth" not in chosen:
            chosen["depth"] = None
        return cls(**chosen)

    def __post_init__(self) -> None:
        for name in ("generations", "population", "games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidInputError(f"{name} must be a positive integer, got {value!r}")
        if self.population < 2:
            raise InvalidInputError(f"population must be at least 2, got {self.population}")
        if (self.time_ms is None) == (self.depth is None):
            raise InvalidInputError("give a time budget per move or a depth for the candidates' games (one of them)")
        if self.time_ms is not None and not (isinstance(self.time_ms, int | float) and 0 < self.time_ms <= 60_000):
            raise InvalidInputError(f"time_ms must be a number of milliseconds in (0, 60000], got {self.time_ms!r}")
        if self.depth is not None and (isinstance(self.depth, bool) or self.depth not in range(1, 31)):
            raise InvalidInputError(f"depth must be an integer from 1 to 30, got {self.depth!r}")
        for name in ("rows", "cols"):
            value = getattr(self, name)
            if isinstance(value, bool) or value not in (2, 3, 4):
                raise InvalidInputError(f"{name} must be 2, 3 or 4, got {value!r}")
        check_p_four(self.p_four)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 10_000:
            raise InvalidInputError(f"seed must be an integer from 0 to 9999, got {self.seed!r}")
        if self.games > 1000:
            raise InvalidInputError(f"games must be at most 1000 per candidate, got {self.games}")
        if not (isinstance(self.sigma, int | float) and 0 < self.sigma <= 5):
            raise InvalidInputError(f"sigma must be a number in (0, 5], got {self.sigma!r}")

    @property
    def seeds(self) -> list[int]:
        """The game seeds every candidate plays."""
        return [self.seed * 1000 + i for i in range(self.games)]

    @property
    def fresh_seed(self) -> int:
        """The first of the seeds that validation plays: none of them is a tuning seed."""
        return 1_000_000_000 + self.seed * 100_000

    def spec(self, seed: int, weights: Weights | None) -> GameSpec:
        """The game of ``seed`` played with ``weights``."""
        return GameSpec(
            seed=seed,
            rows=self.rows,
            cols=self.cols,
            time_ms=self.time_ms,
            depth=self.depth,
            p_four=self.p_four,
            weights=weights,
        )


class _Normal:
    """CMA-ES's source of normal draws: a seeded generator that is pickled with the state."""

    def __init__(self, seed: int) -> None:
        self.rng = make_rng(seed)

    def __call__(self, *shape: int) -> Any:
        return self.rng.standard_normal(shape)


@dataclass
class TuneState:
    """Where a run stands: CMA-ES, the generation, its candidates and their finished evaluations."""

    es: Any
    generation: int
    candidates: list[list[float]]
    scores: dict[int, float] = field(default_factory=dict)
    history: list[tuple[int, int, float, list[float]]] = field(default_factory=list)
    best: tuple[float, int, int, list[float]] | None = None
    version: int = _STATE_VERSION

    @property
    def done(self) -> bool:
        """Every generation has been told to CMA-ES."""
        return not self.candidates


@dataclass(frozen=True)
class Comparison:
    """Two weight sets played on the same fresh seeds: the paired difference of scores (b − a), its 95% interval."""

    games: int
    mean_a: float
    mean_b: float
    difference: float
    interval: tuple[float, float]

    @property
    def b_is_better(self) -> bool:
        """The whole 95% interval of the difference is above zero."""
        return self.interval[0] > 0


def _cma() -> Any:
    try:
        import cma
    except ImportError:
        raise DependencyNotInstalled(f"tuning needs the cma package: {install_command('tune')}") from None
    return cma


class Tuner:
    """A CMA-ES tuning run in ``folder``: a new run with ``settings``, or the saved one (``settings=None``).

    Raises:
        InvalidInputError: a new run in a folder that already holds one, or no run to resume.
        CorruptFileError: the saved files cannot be read.
        DependencyNotInstalled: the cma package is missing.
    """

    def __init__(
        self,
        folder: str | os.PathLike[str],
        settings: TuneSettings | None = None,
        *,
        base: Weights | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.encoding = Encoding(base if base is not None else default_weights())
        cma = _cma()
        if settings is None:
            self.settings, self.encoding = self._load_settings()
            self.state = self._load_state()
            return
        if (self.folder / "tune.json").exists():
            raise InvalidInputError(f"{self.folder} already holds a tuning run: resume it, or choose another folder")
        self.settings = settings
        body = {"settings": asdict(settings), "base": self.encoding.base.to_dict()}
        _SETTINGS_FILE.write(self.folder / "tune.json", body)
        options = {
            "popsize": settings.population,
            "seed": settings.seed + 1,
            "randn": _Normal(settings.seed),
            "verbose": -9,
            "verb_disp": 0,
            "verb_log": 0,
        }
        es = cma.CMAEvolutionStrategy(self.encoding.encode(self.encoding.base), settings.sigma, options)
        self.state = TuneState(es, 0, [list(map(float, x)) for x in es.ask()])
        self._checkpoint()

    def _load_settings(self) -> tuple[TuneSettings, Encoding]:
        path = self.folder / "tune.json"
        try:
            data = _SETTINGS_FILE.read(path)
        except FileNotFoundError:
            raise InvalidInputError(f"no tuning run to resume in {self.folder} (no tune.json)") from None
        try:
            settings = TuneSettings(**data["settings"])
            base = Weights.from_dict(data["base"])
        except (KeyError, TypeError, InvalidInputError) as exc:
            raise CorruptFileError(f"{path}: bad settings: {exc}") from None
        return settings, Encoding(base)

    def _load_state(self) -> TuneState:
        path = self.folder / "state.pkl"
        try:
            with path.open("rb") as handle:
                state = pickle.load(handle)
        except FileNotFoundError:
            raise CorruptFileError(f"{path} is missing: the run cannot be resumed") from None
        except (pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError) as exc:
            raise CorruptFileError(f"{path}: cannot be read ({exc})") from None
        if not isinstance(state, TuneState) or state.version != _STATE_VERSION:
            raise CorruptFileError(f"{path}: not the state of a tuning run of this version")
        return state

    def _checkpoint(self) -> None:
        data = pickle.dumps(self.state, protocol=pickle.HIGHEST_PROTOCOL)

        def write(handle: IO[bytes]) -> None:
            handle.write(data)

        atomic_write(self.folder / "state.pkl", write)

    @property
    def evaluations_done(self) -> int:
        """Finished evaluations, all generations together."""
        return len(self.state.history)

    @property
    def evaluations_total(self) -> int:
        """Evaluations of the whole run."""
        return self.settings.generations * self.settings.population

    def best_weights(self) -> tuple[Weights, float] | None:
        """The best candidate so far and its mean score (None before the first evaluation)."""
        if self.state.best is None:
            return None
        score, _, _, vector = self.state.best
        return self.encoding.decode(vector), score

    def run(
        self,
        *,
        backend: Backend | None = None,
        on_game: Callable[[GameResult], None] | None = None,
        on_evaluation: Callable[[int, int, float], None] | None = None,
        on_generation: Callable[[TuneState], None] | None = None,
    ) -> TuneState:
        """Run (or go on with) the remaining generations; return the final state.

        Args:
            backend: where the games run (default: a local pool on every core).
            on_game: called after every finished game.
            on_evaluation: called with ``(generation, candidate, mean score)`` after every
                finished evaluation, once it is saved.
            on_generation: called with the state after every generation, once it is saved
                (e.g. to draw the curve of ``state.history``).
        """
        while not self.state.done:
            self._evaluate_generation(backend, on_game, on_evaluation)
            self._next_generation()
            if on_generation is not None:
                on_generation(self.state)
        return self.state

    def _evaluate_generation(
        self,
        backend: Backend | None,
        on_game: Callable[[GameResult], None] | None,
        on_evaluation: Callable[[int, int, float], None] | None,
    ) -> None:
        """Play the games of the candidates not yet evaluated; each is recorded once its games are done."""
        settings, state = self.settings, self.state
        seeds = settings.seeds
        pending = [c for c in range(len(state.candidates)) if c not in state.scores]
        weights = {c: self.encoding.decode(state.candidates[c]) for c in pending}
        jobs = [(c, seed) for c in pending for seed in seeds]
        scores: dict[int, list[int]] = {c: [] for c in pending}

        def finished(index: int, result: GameResult) -> None:
            candidate = jobs[index][0]
            scores[candidate].append(result.score)
            if on_game is not None:
                on_game(result)
            if len(scores[candidate]) == len(seeds):
                self._record(candidate, statistics.fmean(scores[candidate]))
                if on_evaluation is not None:
                    on_evaluation(state.generation, candidate, state.scores[candidate])

        run_many(play_spec, [settings.spec(seed, weights[c]) for c, seed in jobs], backend=backend, on_result=finished)

    def _record(self, candidate: int, score: float) -> None:
        state = self.state
        vector = state.candidates[candidate]
        state.scores[candidate] = score
        state.history.append((state.generation, candidate, score, vector))
        # The best: the highest score; on a tie the earliest candidate, whatever order the games ended in.
        if state.best is None or (score, -state.generation, -candidate) > (
            state.best[0],
            -state.best[1],
            -state.best[2],
        ):
            state.best = (score, state.generation, candidate, vector)
            note = (
                f"tuned by CMA-ES: mean score {score:.1f} over {self.settings.games} games, "
                f"generation {state.generation}, candidate {candidate}"
            )
            self.encoding.decode(vector).save(self.folder / "best.json", note=note)
        self._checkpoint()
        self._write_csv()

    def _next_generation(self) -> None:
        state = self.state
        order = range(len(state.candidates))
        state.es.tell([np.asarray(state.candidates[c]) for c in order], [-state.scores[c] for c in order])
        state.generation += 1
        state.scores = {}
        state.candidates = (
            [list(map(float, x)) for x in state.es.ask()] if state.generation < self.settings.generations else []
        )
        self._checkpoint()

    def _write_csv(self) -> None:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["generation", "candidate", "mean_score", *TUNED])
        for generation, candidate, score, vector in sorted(self.state.history, key=lambda item: item[:2]):
            decoded = self.encoding.decode(vector)
            writer.writerow([generation, candidate, f"{score:.3f}", *(repr(getattr(decoded, n)) for n in TUNED)])
        atomic_write_text(self.folder / "evaluations.csv", out.getvalue())


def compare_weights(
    a: Weights | None,
    b: Weights | None,
    settings: TuneSettings,
    *,
    games: int,
    first_seed: int,
    backend: Backend | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> Comparison:
    """Play ``a`` and ``b`` on the same ``games`` seeds from ``first_seed``; the paired difference of scores.

    Raises:
        InvalidInputError: fewer than 2 games.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise InvalidInputError(f"a comparison needs at least 2 games, got {games!r}")
    seeds = [first_seed + i for i in range(games)]
    jobs = [settings.spec(seed, weights) for weights in (a, b) for seed in seeds]

    def finished(index: int, result: GameResult) -> None:
        if on_game is not None:
            on_game(result)

    results = run_many(play_spec, jobs, backend=backend, on_result=finished)
    scores_a = [float(r.score) for r in results[:games]]
    scores_b = [float(r.score) for r in results[games:]]
    differences = [y - x for x, y in zip(scores_a, scores_b, strict=True)]
    interval = mean_interval(differences)
    assert interval is not None  # two games at least
    mean = statistics.fmean(differences)
    return Comparison(games, statistics.fmean(scores_a), statistics.fmean(scores_b), mean, interval)
