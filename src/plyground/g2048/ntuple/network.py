"""The n-tuple network: a value for every board of its size, its use as an evaluator, greedy play.

The method (tuples, symmetric images, stages, TD learning) is explained on the docs' n-tuple
page (``docs/ntuple.md``); the kernels and the table layout in ``_ntuple_kernels.py``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048 import _ntuple_kernels as NK
from plyground.g2048.board import DEFAULT_P_FOUR, Board, check_p_four
from plyground.g2048.evaluator import Evaluator, Explanation, Leaf, MoveValue
from plyground.g2048.ntuple import fileformat
from plyground.g2048.ntuple.training import (
    GameResults,
    LearnStats,
    Tables,
    Training,
    check_count,
    check_finite,
    check_seed,
    learn,
    results_arrays,
)
from plyground.g2048.ntuple.tuples import (
    MAX_WEIGHTS,
    Cell,
    Tuples,
    check_stage_tiles,
    check_tuples,
    compact_radix,
    default_tuples,
    lookup_layout,
)

__all__ = ["DOWNGRADE_FROM", "LOWEST_GAP", "NTupleNetwork"]

_EMPTY = np.zeros(0, dtype=np.float32)

DOWNGRADE_FROM = 16384
"""The largest tile from which a search with a network plays the downgraded board (see
:meth:`NTupleNetwork.downgraded`)."""
LOWEST_GAP = 32
"""The smallest missing tile value that downgrading takes for the gap."""


class NTupleNetwork(Evaluator):
    """An n-tuple network for the R×C board: a value for every board, learnt by :meth:`learn`.

    As an :class:`~plyground.g2048.evaluator.Evaluator` it values the leaves of a search by
    the expected points still to come, on boards of its own size. From a tile of
    :attr:`downgrade_from` on, a search plays the :meth:`downgraded` board, whose largest
    tiles are halved into a range the network has learnt well.

    Args:
        rows: the board's rows (2 to 4).
        cols: the board's columns (2 to 4).
        tuples: lists of ``(row, col)`` cells; None for :func:`~plyground.g2048.ntuple.default_tuples` of the size.
        seed: the start of the stream of spawns that :meth:`learn` plays (None: from OS entropy).
        initial_value: the value of every board before learning, spread evenly over the
            lookups (a positive value is *optimistic initialisation*).
        stage_tiles: the tiles that start new stages (see :func:`~plyground.g2048.ntuple.check_stage_tiles`);
            ``initial_value`` is that of the first stage.
        radix: the radix of the table indices, from :func:`~plyground.g2048.ntuple.compact_radix` of the size
            (the default) to 16; a larger one only makes the tables larger (files written
            before small boards had compact tables hold radix 16).

    Raises:
        InvalidInputError: a bad size, bad tuples (see :func:`~plyground.g2048.ntuple.check_tuples`), bad stage
            tiles, a bad seed, initial value or radix.

    >>> net = NTupleNetwork(2, 2, seed=3)
    >>> stats = net.learn(200, alpha=0.1)
    >>> stats.results.games, net.trained.games
    (200, 200)
    """

    def __init__(
        self,
        rows: int = 4,
        cols: int = 4,
        tuples: Sequence[Sequence[Cell]] | None = None,
        *,
        seed: int | None = None,
        initial_value: float = 0.0,
        stage_tiles: Sequence[int] = (),
        radix: int | None = None,
    ) -> None:
        self._tuples = default_tuples(rows, cols) if tuples is None else check_tuples(tuples, rows, cols)
        self._rows, self._cols = rows, cols
        self._stage_tiles = check_stage_tiles(stage_tiles, rows, cols)
        compact = compact_radix(rows, cols)
        if radix is None:
            radix = compact
        elif isinstance(radix, bool) or not isinstance(radix, int | np.integer) or not compact <= radix <= 16:
            raise InvalidInputError(f"radix must be an integer from {compact} to 16 on {rows}x{cols}, got {radix!r}")
        self._radix = int(radix)
        self._lookups, size = lookup_layout(self._tuples, rows, cols, self._stage_tiles, self._radix)
        stages = len(self._stage_tiles) + 1
        if size * stages > MAX_WEIGHTS:
            raise InvalidInputError(
                f"{stages} stages of {size:,} weights make {size * stages:,}: at most {MAX_WEIGHTS:,} are allowed"
            )
        check_finite(initial_value, "initial_value")
        self._weights = np.zeros(size * stages, dtype=np.float32)  # calloc'd: a stage costs nothing until used
        if initial_value:
            self._weights[:size].fill(initial_value / self._lookups.shape[0])
        # TC sums, side by side: the errors of weight i at 2 * i, their absolute values at 2 * i + 1
        self._tc: npt.NDArray[np.float32] | None = None
        self._rng = np.array([check_seed(seed)], dtype=np.uint64)
        self._trained = Training()
        self._path: Path | None = None
        self._downgrade_from: int | None = DOWNGRADE_FROM

    @property
    def name(self) -> str:
        """``n-tuple network FILE`` (the file it was loaded from), or ``n-tuple network`` when it has none."""
        return f"n-tuple network {self._path}" if self._path is not None else "n-tuple network"

    @property
    def label(self) -> str:
        """``n-tuple network NAME``: the file's name (with its folder's when it is a training run's ``network.npz``)."""
        if self._path is None:
            return "n-tuple network"
        if self._path.name == "network.npz" and self._path.parent.name:
            return f"n-tuple network {self._path.parent.name}/{self._path.name}"
        return f"n-tuple network {self._path.name}"

    @property
    def kind(self) -> str:
        """``network``."""
        return "network"

    def to_json(self) -> dict[str, Any]:
        """The Evaluator's JSON, with the ``file`` it was loaded from (its name, or None), its ``tuples`` and the
        ``games`` it was trained on."""
        file = self._path.name if self._path is not None else None
        return {**super().to_json(), "file": file, "tuples": len(self._tuples), "games": self._trained.games}

    @property
    def path(self) -> Path | None:
        """The file it was loaded from (None for a network made in this process)."""
        return self._path

    @property
    def values_points(self) -> bool:
        """True: a network values an afterstate by the expected points still to come."""
        return True

    @property
    def rows(self) -> int:
        """The board's rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """The board's columns."""
        return self._cols

    @property
    def tuples(self) -> Tuples:
        """The tuples, as ``(row, col)`` cells."""
        return self._tuples

    @property
    def radix(self) -> int:
        """The radix of the table indices: a table of ``k`` cells has ``radix**k`` weights."""
        return self._radix

    @property
    def stage_tiles(self) -> tuple[int, ...]:
        """The tiles that start the stages after the first (empty for a network of one stage)."""
        return self._stage_tiles

    @property
    def n_lookups(self) -> int:
        """The number of weights summed to value a board (the tuples' distinct symmetric images)."""
        return int(self._lookups.shape[0])

    @property
    def weights(self) -> npt.NDArray[np.float32]:
        """A read-only view of all weights, stage by stage, tuple by tuple (``radix**len(tuple)`` each, first
        cell least significant); in a stage after the first, 0 stands for the weight a stage before."""
        view = self._weights.view()
        view.setflags(write=False)
        return view

    def set_weights(self, weights: npt.ArrayLike) -> None:
        """Replace every weight by those of ``weights`` (laid out as :attr:`weights`), e.g. to try given values.

        Raises:
            InvalidInputError: not an array of :attr:`weights`' shape, or values that are not finite.
        """
        array = np.asarray(weights)
        if array.shape != self._weights.shape or not np.issubdtype(array.dtype, np.number):
            raise InvalidInputError(
                f"weights must be numbers of shape {self._weights.shape}, got {array.dtype} of shape {array.shape}"
            )
        if not np.isfinite(array).all():
            raise InvalidInputError("weights must be finite numbers")
        self._weights[:] = array

    def kernel_tables(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        """``(weights, lookups)``: the network's own arrays, for a kernel of the ``_ntuple_kernels`` layout.

        They are the network itself, not copies: a kernel that learns updates the network in
        place. Anything else should read :attr:`weights` and :attr:`lookups` (read-only views).
        """
        return self._weights, self._lookups

    @property
    def lookups(self) -> npt.NDArray[np.int64]:
        """The kernels' description of the lookups (a read-only view; see ``_ntuple_kernels``)."""
        view = self._lookups.view()
        view.setflags(write=False)
        return view

    @property
    def downgrade_from(self) -> int | None:
        """The largest tile from which searches play the :meth:`downgraded` board (None: never).

        Raises (on setting):
            InvalidInputError: neither None nor a tile value from 64 to 32768.
        """
        return self._downgrade_from

    @downgrade_from.setter
    def downgrade_from(self, tile: int | None) -> None:
        if tile is not None and not (
            isinstance(tile, int) and not isinstance(tile, bool) and 64 <= tile <= 32768 and tile & (tile - 1) == 0
        ):
            raise InvalidInputError(f"downgrade_from must be None or a tile value from 64 to 32768, got {tile!r}")
        self._downgrade_from = tile

    def downgraded(self, board: Board) -> Board:
        """The board a search with this network plays in ``board``'s place (tile-downgrading).

        When ``board``'s largest tile is :attr:`downgrade_from` or more, the tiles above the
        largest tile value missing from the board (from :data:`LOWEST_GAP` up) are halved:
        16384, 8192, 4096 and 2048 above a missing 1024 become 8192, 4096, 2048 and 1024,
        a board of the kind every game goes through, where the network has learnt from many
        more boards than from those it replaces. No two tiles become equal, so the same
        moves are legal and merge the same tiles; only what lies above the gap is worth
        half. Otherwise (no such gap, or two 32768s) ``board`` itself.

        Raises:
            InvalidBoardError: the board is not a Board of the network's size.

        >>> net = NTupleNetwork(4, 4, seed=0)
        >>> print(net.downgraded(Board.parse("16384 8192 4096 2048/2 0 0 0/0 0 0 0/0 0 0 0")))
        8192 4096 2048 1024
           2    .    .    .
           .    .    .    .
           .    .    .    .
        """
        self.check_board(board)
        if self._downgrade_from is None:
            return board
        from_exponent = self._downgrade_from.bit_length() - 1
        bits = int(NK._downgrade(np.uint64(board.bits), from_exponent, LOWEST_GAP.bit_length() - 1))
        return board if bits == board.bits else Board(bits, board.rows, board.cols)

    def searched_board(self, board: Board) -> Board:
        """The :meth:`downgraded` board: what a search with this network plays in ``board``'s place."""
        return self.downgraded(board)

    @property
    def rng_state(self) -> int:
        """The state of the stream of spawns that the next :meth:`learn` continues."""
        return int(self._rng[0])

    @property
    def trained(self) -> Training:
        """The games, moves and seconds of training in all."""
        return self._trained

    @property
    def uses_tc(self) -> bool:
        """Whether the network holds temporal-coherence sums (it was trained with ``tc=True``)."""
        return self._tc is not None

    def __repr__(self) -> str:
        stages = f", stages at {', '.join(map(str, self._stage_tiles))}" if self._stage_tiles else ""
        return (
            f"NTupleNetwork({self._rows}x{self._cols}, {len(self._tuples)} tuples{stages}, "
            f"{self._weights.shape[0]:,} weights, {self._trained.games:,} games trained)"
        )

    def with_stages(self, stage_tiles: Sequence[int]) -> NTupleNetwork:
        """A copy of this network of one stage, with later stages from ``stage_tiles``.

        Its tables (and TC sums) become the first stage; the later stages start empty, so
        that by weight promotion the copy values every board as this network does until it
        learns. The stream of spawns and the training totals are copied too.

        Raises:
            InvalidInputError: this network already has stages, or bad stage tiles.
        """
        if self._stage_tiles:
            raise InvalidInputError(f"the network already has stages (from {', '.join(map(str, self._stage_tiles))})")
        out = NTupleNetwork(self._rows, self._cols, self._tuples, seed=0, stage_tiles=stage_tiles, radix=self._radix)
        size = self._weights.shape[0]
        out._weights[:size] = self._weights
        if self._tc is not None:
            out._tc = np.zeros(2 * out._weights.shape[0], np.float32)
            out._tc[: 2 * size] = self._tc
        out._rng[0] = self._rng[0]
        out._trained = self._trained
        out._downgrade_from = self._downgrade_from
        return out

    def warm_start(self, *, seed: int, stage_tiles: Sequence[int] = (), tc: bool = False) -> NTupleNetwork:
        """A copy of this network to go on learning from: its weights and training totals, a new stream of spawns.

        Args:
            seed: the start of the copy's stream of spawns.
            stage_tiles: the copy's stages: this network's own, or later ones added to a network of
                one stage (as by :meth:`with_stages`).
            tc: keep this network's temporal-coherence sums (a network without them, such as a
                packed one, starts new ones at its first TC update); without, the copy holds none.

        Raises:
            InvalidInputError: stages that this network cannot become, or a bad seed.
        """
        stage_tiles = check_stage_tiles(stage_tiles, self._rows, self._cols)
        if stage_tiles == self._stage_tiles:
            out = NTupleNetwork(
                self._rows, self._cols, self._tuples, seed=0, stage_tiles=stage_tiles, radix=self._radix
            )
            out._weights = self._weights.copy()
            out._tc = self._tc.copy() if self._tc is not None else None
            out._trained = self._trained
            out._downgrade_from = self._downgrade_from
        elif self._stage_tiles:
            raise InvalidInputError(
                f"the network has stages from {', '.join(map(str, self._stage_tiles))}: a run from it keeps them "
                f"(got {', '.join(map(str, stage_tiles)) or 'none'})"
            )
        else:
            out = self.with_stages(stage_tiles)
        if not tc:
            out._tc = None
        out._rng[0] = check_seed(seed)
        return out

    def value(self, board: Board) -> float:
        """The network's value of a board (meant for afterstates: the expected points still to come).

        Raises:
            InvalidBoardError: the board is not a Board of the network's size.
        """
        self.check_board(board)
        return float(NK._value(np.uint64(board.bits), self._rows, self._cols, self._weights, self._lookups))

    def explain(self, board: Board) -> Explanation:
        """Each legal move's value at depth 1: the points it scores plus V of the board it leaves.

        Raises:
            InvalidBoardError: the board is not a Board of the network's size.
        """
        self.check_board(board)
        moves = {}
        for move in board.legal_moves():
            after, points = board.move(move)
            moves[move] = MoveValue(points, self.value(after))
        return Explanation(self.name, self.unit, moves=moves)

    def leaf(self, rows: int, cols: int) -> Leaf:
        """The network's leaf kernels with its own arrays (see the Evaluator); ``rows`` x ``cols`` is its size."""
        from plyground.g2048 import _ntuple_leaf_kernels as LK  # here: learning does not load the search

        # The kernels' signatures take writable arrays; the search only reads them.
        return Leaf(LK.LEAF, (self._weights, self._lookups), 0.0, self._lookups.shape[0])

    def learn(
        self,
        games: int,
        *,
        alpha: float,
        tc: bool = False,
        td_lambda: float = 0.0,
        horizon: int = 1,
        restarts: int = 0,
        expected: bool = False,
        p_four: float = DEFAULT_P_FOUR,
        batch: int = 100,
        workers: int = 1,
        stop: Callable[[], bool] | None = None,
        on_progress: Callable[[LearnStats], None] | None = None,
    ) -> LearnStats:
        """Play ``games`` games by the greedy move and learn from every move (see :mod:`plyground.g2048.ntuple`).

        With one worker the games continue the network's stream of spawns (:attr:`rng_state`):
        learning in several calls, or saving and loading in between, gives the same weights
        as one call, bit for bit. With ``workers`` above 1, threads update the same weights
        without locks, each on a stream of its own derived from :attr:`rng_state` (which then
        moves on by ``workers`` draws): faster on as many cores, but the weights are **not**
        reproducible.

        Args:
            games: the number of games.
            alpha: the learning rate, the step of a board's value (typically 0.01 to 0.1, or
                about 1 with ``tc``).
            tc: temporal coherence (per-weight adaptive rates).
            td_lambda: the lambda of TD(lambda), 0 to 1; used with ``horizon`` above 1.
            horizon: the moves an afterstate waits for its update (1: TD(0), whatever
                ``td_lambda``; at most :data:`~plyground.g2048.ntuple.MAX_HORIZON`).
            restarts: more episodes learnt after each game, each from halfway through the
                last one (0 to :data:`~plyground.g2048.ntuple.MAX_RESTARTS`). The statistics are those of the games;
                :attr:`trained` counts the restarts' moves too.
            expected: expected updates of every legal move instead of sampled ones (TD(0)
                only: no ``horizon`` above 1, no ``restarts``; each move costs about
                ``8 * empty cells`` greedy choices more).
            p_four: the probability that a spawned tile is a 4.
            batch: games per kernel call (with several workers, at most this many); with
                one worker, ``on_progress`` is called after each.
            workers: threads learning at once (1: reproducible); at most one per game.
            stop: called before each kernel call (with several workers, after each and
                every 50 ms); when it returns True, no new kernel call starts and the call
                returns the games finished.
            on_progress: called with the statistics of this call so far. With several
                workers it is called, in the calling thread, after every finished kernel
                call, while the other threads go on learning: it must not save the network.

        Returns:
            The statistics of the games of this call (with several workers, in the order
            they finished, and ``seconds`` is wall-clock time).

        Raises:
            InvalidInputError: a bad number of games, batch or workers, ``alpha``,
                ``td_lambda``, ``horizon``, ``restarts``, ``expected`` or ``p_four``, or
                ``expected`` with a horizon above 1 or restarts; the network is unchanged.
        """
        return learn(
            self._tables,
            games,
            alpha=alpha,
            tc=tc,
            td_lambda=td_lambda,
            horizon=horizon,
            restarts=restarts,
            expected=expected,
            p_four=p_four,
            batch=batch,
            workers=workers,
            stop=stop,
            on_progress=on_progress,
        )

    def _tables(self, tc: bool) -> Tables:
        """The arrays that learning updates in place (with TC sums, made on first use, when ``tc``)."""
        if tc and self._tc is None:
            # np.zeros, not zeros_like: calloc'd pages cost no memory until a weight there is updated
            self._tc = np.zeros(2 * self._weights.shape[0], np.float32)
        sums = self._tc if tc and self._tc is not None else _EMPTY
        return Tables(
            self._rows, self._cols, self._weights, self._lookups, sums, self._rng, self._trained, self._set_trained
        )

    def _set_trained(self, trained: Training) -> None:
        self._trained = trained

    def loaded_from(self, path: Path, trained: Training) -> None:
        """Record that a reader of another format (:mod:`~plyground.g2048.ntuple.packed`) filled it from ``path``.

        ``trained`` are the training totals that file holds; :attr:`path` and :attr:`label` name the file.
        """
        self._path = path
        self._trained = trained

    def play_greedy(self, games: int, *, seed: int | None = None, p_four: float = DEFAULT_P_FOUR) -> GameResults:
        """Play ``games`` games by the greedy move (1-ply: largest ``points + V(afterstate)``), learning nothing.

        The games draw their spawns from ``seed``, not from the network's stream.

        Raises:
            InvalidInputError: a bad number of games, seed or ``p_four``.
        """
        games = check_count(games, "games", 0)
        threshold = np.uint64(min(int(check_p_four(p_four) * 2**32), 2**32))
        rng = np.array([check_seed(seed)], dtype=np.uint64)
        scores, tiles, moves = results_arrays(games)
        NK._play_greedy(
            games, self._rows, self._cols, threshold, self._weights, self._lookups, rng, scores, tiles, moves
        )
        return GameResults(scores, tiles, moves)

    # -----------------------------------------------------------------------------------
    # Files

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the network, its training totals and its stream state to a compressed file, atomically.

        The format is described in :mod:`plyground.g2048.ntuple.fileformat`.
        """
        head = fileformat.header(
            rows=self._rows,
            cols=self._cols,
            tuples=self._tuples,
            stage_tiles=self._stage_tiles,
            radix=self._radix,
            rng_state=self.rng_state,
            tc=self._tc is not None,
            trained=self._trained,
        )
        fileformat.write(path, head, self._weights, self._tc)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        rows: int | None = None,
        cols: int | None = None,
        tuples: Sequence[Sequence[Cell]] | None = None,
        stage_tiles: Sequence[int] | None = None,
    ) -> NTupleNetwork:
        """Read a network written by :meth:`save`.

        Args:
            path: the file.
            rows: when given, the file must hold a network of this many rows,
            cols: of this many columns,
            tuples: with these tuples,
            stage_tiles: and with these stages.

        Raises:
            FileNotFoundError: no such file.
            CorruptFileError: not a network file, damaged, or a network of another size or
                other tuples than asked for (one line, naming the file).
        """
        header, arrays = fileformat.read(path)
        try:
            network = cls._from_parts(header, arrays)
        except InvalidInputError as exc:
            raise CorruptFileError(f"{path}: {exc}") from None
        network._path = Path(path)
        fileformat.check_wanted(path, network, rows=rows, cols=cols, tuples=tuples, stage_tiles=stage_tiles)
        return network

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``: the network values boards of this size only."""
        return self._rows, self._cols

    @classmethod
    def _from_parts(cls, header: Mapping[str, Any], arrays: dict[str, npt.NDArray[Any]]) -> NTupleNetwork:
        """A network from a checked header and its arrays (raises InvalidInputError on any mismatch)."""
        network = cls(
            header["rows"],
            header["cols"],
            header["tuples"],
            seed=header["rng_state"],
            stage_tiles=header.get("stage_tiles", ()),
            radix=header.get("radix", 16),
        )
        fileformat.check_arrays(header, arrays, network._weights.shape[0])
        network._weights = np.ascontiguousarray(arrays["weights"])
        if header["tc"]:
            network._tc = np.empty(2 * network._weights.shape[0], np.float32)
            network._tc[0::2] = arrays.pop("tc_errors")  # popped: each file array is freed once copied
            network._tc[1::2] = arrays.pop("tc_abs_errors")
        training = header["training"]
        network._trained = Training(training["games"], training["moves"], float(training["seconds"]))
        return network
