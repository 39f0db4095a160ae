"""The n-tuple network's public API: validation, learning, greedy play, files."""

from __future__ import annotations

import doctest
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError
from plyground.g2048 import _kernels as K
from plyground.g2048 import ntuple
from plyground.g2048.board import Board
from plyground.g2048.ntuple import (
    DEFAULT_TUPLES,
    MAX_TUPLE_SIZE,
    LearnStats,
    NTupleNetwork,
    check_tuples,
    default_tuples,
)
from plyground.g2048.solver import Solution, solve
from tests.naive import g2048 as naive
from tests.naive import ntuple as naive_nt

SMALL = [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (0, 0)]]
"""Two 3-tuples for 3×3 boards: ``TABLE`` weights each."""
RADIX = 11
"""The radix of a 3×3 network's tables (tiles up to 1024: exponents 0 to 10)."""
TABLE = RADIX**3
"""The weights of a 3-tuple's table on 3×3."""

SIZES = [(r, c) for r in range(2, 5) for c in range(2, 5)]


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_default_tuples_fit_every_board(rows: int, cols: int) -> None:
    tuples = default_tuples(rows, cols)
    assert check_tuples(tuples, rows, cols) == tuples
    assert all(len(cells) <= (6 if rows * cols >= 12 else 5) for cells in tuples)
    if rows > cols:
        assert tuples == tuple(tuple((c, r) for r, c in cells) for cells in default_tuples(cols, rows))


def test_the_default_4x4_network() -> None:
    network = NTupleNetwork()
    assert network.tuples == DEFAULT_TUPLES == default_tuples()
    assert network.n_lookups == 4 * 8
    assert network.weights.shape == (4 * 16**6,) and network.weights.dtype == np.float32
    assert not network.weights.flags.writeable and not network.lookups.flags.writeable
    assert network.value(Board.parse("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 2")) == 0.0


@pytest.mark.parametrize(
    ("tuples", "message"),
    [
        ([[(0, 0), (4, 0)]], "tuples[0] has cell (4, 0) outside the 4x4 board"),
        ([[(0, 0)], [(0, 1), (0, 1)]], "tuples[1] has cell (0, 1) twice"),
        ([[(0, 0)], []], "tuples[1] has 0 cells"),
        ([[(r, c) for r in range(3) for c in range(3)]], f"has 9 cells: a tuple has 1 to {MAX_TUPLE_SIZE}"),
        ([[(0, c) for c in range(4)] + [(1, c) for c in range(4)]], "1 tuples need 4,294,967,296 weights"),
        ([[(0, 0, 1)]], "tuples[0] has cell (0, 0, 1)"),
        ([[(0, True)]], "a cell is a (row, col) pair of integers"),
        ([[(-1, 0)]], "cell (-1, 0) outside"),
        ([], "non-empty list"),
        ("0,0", "non-empty list"),
        ([[(r, c) for r in range(2) for c in range(3)]] * 80, "weights: at most"),
    ],
)
def test_bad_tuples_are_refused_in_one_line(tuples: object, message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        NTupleNetwork(4, 4, tuples)  # type: ignore[arg-type]
    assert message in str(info.value) and "\n" not in str(info.value)


def test_tuples_must_fit_a_smaller_board() -> None:
    with pytest.raises(InvalidInputError, match=r"cell \(0, 3\) outside the 3x3 board"):
        NTupleNetwork(3, 3, DEFAULT_TUPLES)
    with pytest.raises(InvalidBoardError):
        NTupleNetwork(5, 4)


def test_value_checks_the_board() -> None:
    network = NTupleNetwork(3, 3, SMALL)
    with pytest.raises(InvalidBoardError, match="network plays 3x3 boards, not 4x4 ones"):
        network.value(Board.empty())
    with pytest.raises(InvalidBoardError):
        network.value("2 2 0/0 0 0/0 0 0")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"games": -1, "alpha": 0.1}, "games must be an integer >= 0"),
        ({"games": 1.5, "alpha": 0.1}, "games must be an integer"),
        ({"games": 1, "alpha": 0.0}, "alpha must be a positive number"),
        ({"games": 1, "alpha": float("nan")}, "alpha must be a positive number"),
        ({"games": 1, "alpha": 0.1, "batch": 0}, "batch must be an integer >= 1"),
        ({"games": 1, "alpha": 0.1, "p_four": 2.0}, "p_four must be a probability"),
        ({"games": 1, "alpha": 0.1, "td_lambda": -0.1, "horizon": 3}, "td_lambda must be a number from 0 to 1"),
        ({"games": 1, "alpha": 0.1, "td_lambda": 0.5}, "needs a horizon of at least 2"),
        ({"games": 1, "alpha": 0.1, "horizon": 2.5}, "horizon must be an integer from 1 to 64"),
        ({"games": 1, "alpha": 0.1, "horizon": True}, "horizon must be an integer"),
        ({"games": 1, "alpha": 0.1, "restarts": -1}, "restarts must be an integer from 0 to 64, got -1"),
        ({"games": 1, "alpha": 0.1, "restarts": 65}, "restarts must be an integer from 0 to 64"),
        ({"games": 1, "alpha": 0.1, "restarts": 1.0}, "restarts must be an integer"),
        ({"games": 1, "alpha": 0.1, "restarts": True}, "restarts must be an integer"),
        ({"games": 1, "alpha": 0.1, "expected": 1}, "expected must be True or False, got 1"),
        ({"games": 1, "alpha": 0.1, "expected": True, "restarts": 1}, "expected updates are TD\\(0\\)"),
        ({"games": 1, "alpha": 0.1, "expected": True, "td_lambda": 0.5, "horizon": 3}, "expected updates are TD"),
    ],
)
def test_learn_checks_its_arguments(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        NTupleNetwork(3, 3, SMALL, seed=1).learn(**arguments)  # type: ignore[arg-type]


def test_seeds_and_initial_values_are_checked() -> None:
    with pytest.raises(InvalidInputError, match="seed must be non-negative"):
        NTupleNetwork(3, 3, SMALL, seed=-1)
    with pytest.raises(InvalidInputError, match="seed must be below 2\\*\\*64"):
        NTupleNetwork(3, 3, SMALL).play_greedy(1, seed=1 << 64)
    with pytest.raises(InvalidInputError, match="initial_value must be a finite number"):
        NTupleNetwork(3, 3, SMALL, initial_value=float("inf"))


def test_optimistic_initial_value() -> None:
    network = NTupleNetwork(3, 3, SMALL, initial_value=320.0)
    assert network.n_lookups == 16
    assert network.value(Board.parse("2 0 0/0 4 0/0 0 8")) == 320.0


def test_value_matches_the_naive_network_after_learning() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=4)
    network.learn(30, alpha=0.1)
    board = Board.parse("2 4 8/16 0 2/0 0 4")
    expected = naive_nt.value(board.bits, 3, 3, SMALL, np.array(network.weights), radix=RADIX)
    assert network.value(board) == expected != 0.0


def test_learning_beats_random_play() -> None:
    games, points, _ = K._random_play(100_000, np.uint64(1), 3, 3, np.uint64(naive.four_threshold(0.1)))
    random_mean = int(points) / int(games)
    network = NTupleNetwork(3, 3, seed=1)
    untrained = network.play_greedy(300, seed=9).mean_score
    stats = network.learn(400, alpha=0.1)
    trained = network.play_greedy(300, seed=9).mean_score
    assert stats.results.games == 400 and stats.results.total_moves == network.trained.moves > 0
    assert trained > 3 * random_mean and trained > 1.5 * untrained, (random_mean, untrained, trained)


def _fraction_of_optimal(network: NTupleNetwork, solution: Solution, games: int, seed: int) -> float:
    """``1 - regret per game / optimal expected score`` of the network's greedy play (see ``benchmarks/regret.py``)."""
    rng = np.random.default_rng(seed)

    def spawn(board: Board) -> Board:
        cells = board.empty_cells()
        return board.with_tile(cells[rng.integers(len(cells))], 4 if rng.random() < 0.1 else 2)

    regret = 0.0
    for _ in range(games):
        board = spawn(spawn(Board(0, network.rows, network.cols)))
        while not board.is_terminal():
            exact = solution.move_values(board)
            move = max(board.legal_moves(), key=lambda m: board.move(m)[1] + network.value(board.move(m)[0]))
            regret += max(exact.values()) - exact[move]
            board = spawn(board.move(move)[0])
    return 1.0 - regret / games / solution.expected_score()


def test_expected_updates_learn_close_to_optimal_play_from_zero_values(tmp_path: Path) -> None:
    """On 2x3, with one tuple over the whole board, expected updates need no optimism; sampled TD does."""
    solution = solve(2, 3, directory=tmp_path)
    whole = (((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),)
    learnt = {}
    for name, settings in {"expected": {"expected": True, "tc": True}, "sampled": {"tc": True}}.items():
        network = NTupleNetwork(2, 3, whole, seed=1)
        stats = network.learn(3_000, alpha=1.0, **settings)
        assert stats.results.games == 3_000 and network.trained.moves == stats.results.total_moves
        learnt[name] = _fraction_of_optimal(network, solution, 300, seed=5)
    assert learnt["expected"] > 0.8 and learnt["sampled"] < learnt["expected"] - 0.2, learnt


def test_expected_updates_with_two_workers() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=3)
    stats = network.learn(40, alpha=1.0, expected=True, workers=2, batch=5)
    assert stats.results.games == network.trained.games == 40 and network.weights.any()
    assert network.trained.moves == stats.results.total_moves


def test_same_seed_same_tables_and_batches_do_not_matter() -> None:
    one = NTupleNetwork(3, 3, SMALL, seed=11)
    two = NTupleNetwork(3, 3, SMALL, seed=11)
    seen: list[LearnStats] = []
    first = one.learn(50, alpha=0.05)
    second = two.learn(50, alpha=0.05, batch=7, on_progress=seen.append)
    assert one.weights.tobytes() == two.weights.tobytes() and one.weights.any()
    assert one.rng_state == two.rng_state
    assert first.results.scores.tolist() == second.results.scores.tolist()
    assert [s.results.games for s in seen] == [*range(7, 50, 7), 50]
    other = NTupleNetwork(3, 3, SMALL, seed=12)
    other.learn(50, alpha=0.05)
    assert other.weights.tobytes() != one.weights.tobytes()


def test_greedy_play_is_seeded_and_learns_nothing() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=2)
    network.learn(20, alpha=0.1)
    before = network.weights.tobytes(), network.rng_state
    a, b = network.play_greedy(20, seed=5), network.play_greedy(20, seed=5)
    assert a.scores.tolist() == b.scores.tolist() and a.max_tiles.tolist() == b.max_tiles.tolist()
    assert (network.weights.tobytes(), network.rng_state) == before
    assert a.games == 20 and a.mean_score > 0 and a.max_tile >= 8 and 0 < a.reach_rate(8) <= 1


def test_save_and_load_round_trip_bit_for_bit(tmp_path: Path) -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=3)
    network.learn(40, alpha=0.1, tc=True)
    path = tmp_path / "net.npz"
    network.save(path)
    loaded = NTupleNetwork.load(path, rows=3, cols=3, tuples=SMALL)
    assert loaded.weights.tobytes() == network.weights.tobytes()
    assert loaded.tuples == network.tuples and loaded.shape == (3, 3) and loaded.uses_tc
    assert loaded.rng_state == network.rng_state and loaded.trained == network.trained
    assert loaded.trained.games == 40 and loaded.trained.moves > 0


def test_resuming_from_a_file_continues_like_an_uninterrupted_run(tmp_path: Path) -> None:
    for tc in (False, True):
        whole = NTupleNetwork(3, 3, SMALL, seed=21)
        whole.learn(60, alpha=0.5 if tc else 0.05, tc=tc)
        part = NTupleNetwork(3, 3, SMALL, seed=21)
        part.learn(25, alpha=0.5 if tc else 0.05, tc=tc)
        part.save(tmp_path / "part.npz")
        resumed = NTupleNetwork.load(tmp_path / "part.npz")
        resumed.learn(35, alpha=0.5 if tc else 0.05, tc=tc)
        assert resumed.weights.tobytes() == whole.weights.tobytes(), tc
        assert resumed.rng_state == whole.rng_state
        assert (resumed.trained.games, resumed.trained.moves) == (whole.trained.games, whole.trained.moves)


def test_a_file_of_another_network_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    NTupleNetwork(3, 3, SMALL, seed=1).save(path)
    with pytest.raises(CorruptFileError, match="holds a network with other tuples: 00-01-02/10-11-00, not 00-01"):
        NTupleNetwork.load(path, tuples=[[(0, 0), (0, 1)]])
    with pytest.raises(CorruptFileError, match="holds a network for the 3x3 board, not the 4x4 one"):
        NTupleNetwork.load(path, rows=4, cols=4)
    with pytest.raises(CorruptFileError, match="the tuples asked for are not valid"):
        NTupleNetwork.load(path, tuples=[[(5, 5)]])


def _rewrite(path: Path, new_header: dict[str, object] | None = None, **arrays: np.ndarray) -> None:
    """Rewrite a network file with its header or some arrays replaced."""
    with np.load(path) as archive:
        parts = {name: archive[name] for name in archive.files}
    if new_header is not None:
        parts["header"] = np.frombuffer(json.dumps(new_header).encode(), dtype=np.uint8)
    parts.update(arrays)
    with open(path, "wb") as handle:
        np.savez_compressed(handle, **parts)


def _header(path: Path) -> dict[str, object]:
    with np.load(path) as archive:
        header: dict[str, object] = json.loads(archive["header"].tobytes())
    return header


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("garbage", "is not a readable n-tuple network file"),
        ("truncated", "is not a readable n-tuple network file"),
        ("npy", "holds one array, not an archive"),
        ("corrupt data", "is not a readable n-tuple network file"),
        ("no weights", "is not an n-tuple network: no weights"),
        ("format", "not an n-tuple network: expected format"),
        ("version", "unsupported version 2"),
        ("tuples", "tuples[0] has cell (7, 0) outside the 3x3 board"),
        ("size", "a 9x3 board is not supported"),
        ("shape", "weights holds float32 of shape (10,), expected float32 of shape (2662,)"),
        ("dtype", "weights holds float64"),
        ("nan", "weights holds values that are not finite"),
        ("rng", "header 'rng_state' must be an integer in [0, 2**64)"),
        ("tc", "no tc_errors array"),
        ("keys", "bad header keys: missing [], unknown ['extra']"),
        ("stages", "stage tiles must increase: 64 comes after 128"),
        ("stage size", "expected float32 of shape (5324,)"),
        ("radix", "radix must be an integer from 11 to 16 on 3x3, got 9"),
        ("radix size", "expected float32 of shape (8192,)"),
        ("json", "the header is not UTF-8 JSON"),
    ],
)
def test_a_damaged_file_is_refused_in_one_line(tmp_path: Path, damage: str, message: str) -> None:
    path = tmp_path / "net.npz"
    NTupleNetwork(3, 3, SMALL, seed=1).save(path)
    header = _header(path)
    if damage == "garbage":
        path.write_bytes(b"not a zip file at all")
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    elif damage == "npy":
        with path.open("wb") as handle:
            np.save(handle, np.zeros(3))
    elif damage == "corrupt data":
        data = bytearray(path.read_bytes())
        middle = len(data) // 2
        data[middle : middle + 64] = bytes(64)
        path.write_bytes(bytes(data))
    elif damage == "no weights":
        with np.load(path) as archive:
            kept = {"header": archive["header"]}
        with open(path, "wb") as handle:
            np.savez_compressed(handle, **kept)
    elif damage == "format":
        _rewrite(path, {**header, "format": "something else"})
    elif damage == "version":
        _rewrite(path, {**header, "version": 2})
    elif damage == "tuples":
        _rewrite(path, {**header, "tuples": [[[7, 0]]]})
    elif damage == "size":
        _rewrite(path, {**header, "rows": 9})
    elif damage == "shape":
        _rewrite(path, weights=np.zeros(10, np.float32))
    elif damage == "dtype":
        _rewrite(path, weights=np.zeros(2 * TABLE, np.float64))
    elif damage == "nan":
        _rewrite(path, weights=np.full(2 * TABLE, np.nan, np.float32))
    elif damage == "rng":
        _rewrite(path, {**header, "rng_state": -3})
    elif damage == "tc":
        _rewrite(path, {**header, "tc": True})
    elif damage == "keys":
        _rewrite(path, {**header, "extra": 1})
    elif damage == "stages":
        _rewrite(path, {**header, "stage_tiles": [128, 64]})
    elif damage == "stage size":  # two stages need twice the weights
        _rewrite(path, {**header, "stage_tiles": [128]})
    elif damage == "radix":
        _rewrite(path, {**header, "radix": 9})
    elif damage == "radix size":  # 16**3 weights a table
        _rewrite(path, {**header, "radix": 16})
    elif damage == "json":
        _rewrite(path, header=np.frombuffer(b"\xff{", dtype=np.uint8))
    with pytest.raises(CorruptFileError) as info:
        NTupleNetwork.load(path)
    text = str(info.value)
    assert message in text and str(path) in text and "\n" not in text, text


@pytest.mark.parametrize(
    ("stage_tiles", "message"),
    [
        ("8192", "stage tiles must be a list of tiles"),
        ([3], "stage tile 3 is not a power of two from 4 to 1024 (the largest tile of 3x3)"),
        ([2], "stage tile 2 is not a power of two"),
        ([2048], "stage tile 2048 is not a power of two from 4 to 1024"),
        ([True], "stage tile True"),
        ([64, 64], "stage tiles must increase: 64 comes after 64"),
        ([4, 8, 16, 32, 64, 128, 256, 512], "8 stage tiles make 9 stages: at most 8 are allowed"),
    ],
)
def test_bad_stage_tiles_are_refused_in_one_line(stage_tiles: object, message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        NTupleNetwork(3, 3, SMALL, stage_tiles=stage_tiles)  # type: ignore[arg-type]
    assert message in str(info.value) and "\n" not in str(info.value)


def test_too_many_weights_for_the_stages_are_refused() -> None:
    seven = [[(0, c) for c in range(4)] + [(1, 0), (1, 1), (1, 2)]] * 4  # 4 * 16**7 = 2**30 weights: the most
    with pytest.raises(InvalidInputError, match="2 stages of 1,073,741,824 weights make 2,147,483,648"):
        NTupleNetwork(4, 4, seven, stage_tiles=[8192])


def test_a_new_stage_starts_as_a_copy_of_the_one_before() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=4, stage_tiles=[64, 128])
    assert network.stage_tiles == (64, 128) and network.weights.shape == (3 * 2 * TABLE,)
    assert "stages at 64, 128" in repr(network)
    network.learn(300, alpha=0.1)
    weights = network.weights
    late = [Board.parse("64 2 0/0 0 0/0 0 0"), Board.parse("128 4 2/0 2 0/0 0 0"), Board.parse("256 32 0/0 0 0/0 0 0")]
    for board in late:  # valued as the first stage's tables would, wherever a later stage has learnt nothing
        positions = naive_nt.positions(board.bits, 3, 3, SMALL, (64, 128), RADIX)
        expected = sum(naive_nt.weight(np.array(weights), i, SMALL, RADIX) for i in positions)
        assert network.value(board) == expected
    early = Board.parse("32 2 0/0 0 0/0 0 0")
    assert network.value(early) == naive_nt.value(early.bits, 3, 3, SMALL, np.array(weights), radix=RADIX)
    assert weights[2 * TABLE :].any() and not weights[2 * TABLE :].all()  # some promoted weights learnt, most still 0

    plain = NTupleNetwork(3, 3, SMALL, seed=4)
    plain.learn(300, alpha=0.1)
    assert plain.weights.tobytes() != weights[: 2 * TABLE].tobytes()  # the late game no longer moves the first stage


def test_stages_added_to_a_trained_network_value_every_board_as_before_until_it_learns() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=6)
    network.learn(200, alpha=0.5, tc=True)
    staged = network.with_stages([128])
    assert staged.stage_tiles == (128,) and staged.uses_tc and staged.trained == network.trained
    assert staged.rng_state == network.rng_state and staged.weights[: 2 * TABLE].tobytes() == network.weights.tobytes()
    rng = np.random.default_rng(1)
    for _ in range(200):
        cells = rng.integers(0, 10, 9)  # largest tiles up to 512: both stages
        board = Board.from_rows([[int(2**e) if e else 0 for e in cells[r * 3 : r * 3 + 3]] for r in range(3)])
        assert staged.value(board) == network.value(board)
    a, b = staged.play_greedy(20, seed=2), network.play_greedy(20, seed=2)
    assert a.scores.tolist() == b.scores.tolist()
    staged.learn(100, alpha=0.5, tc=True)
    assert staged.weights[2 * TABLE :].any()  # the new stage learnt
    unreached = network.with_stages([1024])  # its TC sums are carried over: until 1024, it learns as the original
    unreached.learn(50, alpha=0.5, tc=True)
    network.learn(50, alpha=0.5, tc=True)
    assert unreached.weights[: 2 * TABLE].tobytes() == network.weights.tobytes()
    with pytest.raises(InvalidInputError, match=r"already has stages \(from 128\)"):
        staged.with_stages([256])
    with pytest.raises(InvalidInputError, match="stage tiles must increase"):
        network.with_stages([256, 128])


def test_a_staged_network_round_trips_and_a_file_before_stages_has_one(tmp_path: Path) -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=3, stage_tiles=[128])
    network.learn(100, alpha=0.5, tc=True)
    network.save(tmp_path / "staged.npz")
    loaded = NTupleNetwork.load(tmp_path / "staged.npz", stage_tiles=[128])
    assert loaded.stage_tiles == (128,) and loaded.weights.tobytes() == network.weights.tobytes()
    with pytest.raises(CorruptFileError, match=r"holds a network with stage tiles \[128\], not \[\]"):
        NTupleNetwork.load(tmp_path / "staged.npz", stage_tiles=[])

    NTupleNetwork(3, 3, SMALL, seed=1).save(tmp_path / "old.npz")
    header = _header(tmp_path / "old.npz")
    assert header.pop("stage_tiles") == []
    _rewrite(tmp_path / "old.npz", header)  # as written before stages existed
    assert NTupleNetwork.load(tmp_path / "old.npz").stage_tiles == ()


def _as_radix_16(weights: np.ndarray, tuples: list[list[tuple[int, int]]], radix: int) -> np.ndarray:
    """The weights of tables in ``radix`` spread into tables of radix 16 (0 at the exponents they cannot hold)."""
    parts, start = [], 0
    for cells in tuples:
        k = len(cells)
        table = np.zeros((16,) * k, np.float32)  # axes from the last cell to the first: the first is least significant
        table[(slice(0, radix),) * k] = weights[start : start + radix**k].reshape((radix,) * k)
        parts.append(table.ravel())
        start += radix**k
    return np.concatenate(parts)


def test_compact_tables_learn_as_tables_of_radix_16(tmp_path: Path) -> None:
    compact, wide = NTupleNetwork(3, 3, SMALL, seed=5), NTupleNetwork(3, 3, SMALL, seed=5, radix=16)
    assert (compact.radix, wide.radix) == (RADIX, 16)
    assert compact.weights.shape == (2 * TABLE,) and wide.weights.shape == (2 * 16**3,)
    a, b = compact.learn(300, alpha=0.5, tc=True), wide.learn(300, alpha=0.5, tc=True)
    assert a.results.scores.tolist() == b.results.scores.tolist() and a.results.max_tile >= 256
    assert wide.weights.tobytes() == _as_radix_16(np.array(compact.weights), SMALL, RADIX).tobytes()
    assert compact.weights.any()

    wide.save(tmp_path / "old.npz")
    header = _header(tmp_path / "old.npz")
    assert header.pop("radix") == 16
    _rewrite(tmp_path / "old.npz", header)  # as written before compact tables: radix 16
    old = NTupleNetwork.load(tmp_path / "old.npz")
    assert old.radix == 16 and old.weights.tobytes() == wide.weights.tobytes()
    compact.save(tmp_path / "new.npz")
    assert NTupleNetwork.load(tmp_path / "new.npz").radix == RADIX
    board = Board.parse("256 128 4/8 2 0/0 2 0")
    assert old.value(board) == compact.value(board) != 0.0


def test_a_tile_too_large_for_compact_tables_reads_as_the_largest_they_hold() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=5)
    network.learn(100, alpha=0.5)
    assert network.value(Board.parse("4096 2 4/8 0 0/0 0 2")) == network.value(Board.parse("1024 2 4/8 0 0/0 0 2"))


@pytest.mark.parametrize(("radix", "message"), [(10, "got 10"), (17, "got 17"), (True, "got True"), (11.0, "got 11.0")])
def test_a_bad_radix_is_refused_in_one_line(radix: object, message: str) -> None:
    with pytest.raises(InvalidInputError, match=f"radix must be an integer from 11 to 16 on 3x3, {message}"):
        NTupleNetwork(3, 3, SMALL, radix=radix)  # type: ignore[arg-type]


def test_a_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        NTupleNetwork.load(tmp_path / "nothing.npz")


def test_saving_is_atomic_and_makes_folders(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "net.npz"
    NTupleNetwork(2, 2, seed=1).save(path)
    assert zipfile.is_zipfile(path) and sorted(p.name for p in path.parent.iterdir()) == ["net.npz"]


def test_docstring_examples() -> None:
    result = doctest.testmod(ntuple, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
