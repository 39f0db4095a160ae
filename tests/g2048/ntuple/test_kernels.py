"""The n-tuple kernels against their slow twins in ``tests/naive/ntuple.py``, on boards of every size.

Networks here have small tuples (1 to 3 cells), so that tables stay tiny, and the radix of
a new network for their size or 16 (that of files written before compact tables). Weights are
multiples of 1/64 of modest size, so that sums of them are exact in any order. Some
networks have stages; about half the weights of a stage after the first are 0, so that
they read (and promote) the weight a stage before.
Run once more with ``NUMBA_DISABLE_JIT=1`` (see ``tests/test_kernels_without_jit.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.g2048 import _ntuple_kernels as NK
from plyground.g2048.ntuple.tuples import MAX_TUPLE_SIZE, compact_radix, lookup_layout
from tests.g2048.strategies import grids
from tests.naive import g2048 as naive
from tests.naive import ntuple as naive_nt

pytestmark = pytest.mark.kernel  # every test here checks kernels against their naive twins

Network = tuple[int, int, list[list[tuple[int, int]]], np.ndarray, tuple[int, ...], int]


def radixes(rows: int, cols: int) -> st.SearchStrategy[int]:
    """The radix of a new network for the size, or 16."""
    return st.sampled_from(sorted({compact_radix(rows, cols), 16}))


@st.composite
def networks(draw: st.DrawFn, rows: int | None = None, cols: int | None = None) -> Network:
    """A board size, 1 to 3 random tuples of 1 to 3 cells, 0 to 2 stage tiles, a radix, and random weights."""
    r = rows if rows is not None else draw(st.integers(2, 4))
    c = cols if cols is not None else draw(st.integers(2, 4))
    cells = [(i, j) for i in range(r) for j in range(c)]
    tuples = draw(
        st.lists(st.lists(st.sampled_from(cells), min_size=1, max_size=3, unique=True), min_size=1, max_size=3)
    )
    exponents = draw(st.lists(st.integers(2, min(r * c + 1, 15)), max_size=2, unique=True))
    stages = tuple(1 << e for e in sorted(exponents))
    radix = draw(radixes(r, c))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    size = naive_nt.size(tuples, radix)
    weights = (rng.integers(-4096, 4096, size * (len(stages) + 1)) / 64).astype(np.float32)
    weights[size:] *= rng.integers(0, 2, weights.shape[0] - size)  # promoted where 0
    return r, c, tuples, weights, stages, radix


@st.composite
def boards_and_networks(draw: st.DrawFn) -> tuple[list[list[int]], Network]:
    network = draw(networks())
    return draw(grids(network[0], network[1])), network


def _lookups(network: Network) -> np.ndarray:
    rows, cols, tuples, _, stages, radix = network
    return lookup_layout(tuple(tuple(cells) for cells in tuples), rows, cols, stages, radix)[0]


@given(boards_and_networks())
def test_positions_match_naive(case: tuple[list[list[int]], Network]) -> None:
    grid, network = case
    rows, cols, tuples, weights, stages, radix = network
    bits = naive.to_bits(grid)
    lookups = _lookups(network)
    assert lookups.shape[0] == len(naive_nt.lookups(rows, cols, tuples))
    out = np.full(lookups.shape[0] + 3, -1, dtype=np.int64)
    NK._indices(np.uint64(bits), rows, cols, lookups, out, 3)
    assert out[3:].tolist() == naive_nt.positions(bits, rows, cols, tuples, stages, radix)
    stride = lookup_layout(tuple(tuple(cells) for cells in tuples), rows, cols, stages, radix)[1]
    assert stride * (len(stages) + 1) == weights.shape[0]


@given(st.data())
def test_positions_of_long_tuples_match_naive(data: st.DataObject) -> None:
    # Indices only (no weights): tuples up to MAX_TUPLE_SIZE cells, in any order, so up to that many runs.
    rows, cols = data.draw(st.sampled_from([(3, 3), (4, 4), (3, 4)]))
    cells = [(i, j) for i in range(rows) for j in range(cols)]
    one_tuple = st.lists(st.sampled_from(cells), min_size=4, max_size=MAX_TUPLE_SIZE, unique=True)
    tuples = data.draw(st.lists(one_tuple, min_size=1, max_size=2))
    radix = data.draw(radixes(rows, cols))
    bits = naive.to_bits(data.draw(grids(rows, cols)))
    lookups = lookup_layout(tuple(tuple(t) for t in tuples), rows, cols, radix=radix)[0]
    out = np.empty(lookups.shape[0], dtype=np.int64)
    NK._indices(np.uint64(bits), rows, cols, lookups, out, 0)
    assert out.tolist() == naive_nt.positions(bits, rows, cols, tuples, radix=radix)


def test_positions_by_hand() -> None:
    # 2x2 board "2 4/8 0" (exponents 1 2/3 0) and the tuple (0,0) (0,1); table offset 0.
    bits = naive.to_bits([[2, 4], [8, 0]])
    tuples = [[(0, 0), (0, 1)]]
    # identity reads (0,0) (0,1): 1 + 16*2; rotate 90 reads (1,0) (0,0): 3 + 16*1;
    # rotate 180 reads (1,1) (1,0): 0 + 16*3; rotate 270 reads (0,1) (1,1): 2 + 16*0;
    # mirror left-right reads (0,1) (0,0): 2 + 16*1; mirror up-down (1,0) (1,1): 3 + 0;
    # transpose reads (0,0) (1,0): 1 + 16*3; anti-transpose (1,1) (0,1): 0 + 16*2.
    expected = [33, 19, 48, 2, 18, 3, 49, 32]
    assert naive_nt.positions(bits, 2, 2, tuples) == expected
    out = np.empty(8, dtype=np.int64)
    NK._indices(np.uint64(bits), 2, 2, lookup_layout((((0, 0), (0, 1)),), 2, 2)[0], out, 0)
    assert out.tolist() == expected


@given(grids())
def test_images_match_naive(grid: list[list[int]]) -> None:
    rows, cols = len(grid), len(grid[0])
    images = NK._images(np.uint64(naive.to_bits(grid)), rows, cols)
    for symmetry in naive_nt.cell_maps(rows, cols):
        assert int(images[symmetry]) == naive.to_bits(naive_nt.moved(grid, symmetry)), symmetry


@given(boards_and_networks())
def test_value_matches_naive(case: tuple[list[list[int]], Network]) -> None:
    grid, network = case
    rows, cols, tuples, weights, stages, radix = network
    bits = naive.to_bits(grid)
    expected = naive_nt.value(bits, rows, cols, tuples, weights, stages, radix)
    assert NK._value(np.uint64(bits), rows, cols, weights, _lookups(network)) == expected


@given(boards_and_networks(), st.sampled_from([0.5, -1.25, 1e-3, 3.0e4]))
def test_update_matches_naive(case: tuple[list[list[int]], Network], delta: float) -> None:
    grid, network = case
    rows, cols, tuples, weights, stages, radix = network
    bits = naive.to_bits(grid)
    expected = weights.copy()
    naive_nt.update(bits, rows, cols, tuples, expected, delta, stages, radix)
    NK._update(np.uint64(bits), rows, cols, weights, _lookups(network), delta)
    assert weights.tobytes() == expected.tobytes()


@given(boards_and_networks(), st.floats(-1e4, 1e4), st.sampled_from([0.01, 0.5, 1.0]), st.booleans())
def test_td_update_matches_naive(case: tuple[list[list[int]], Network], target: float, alpha: float, tc: bool) -> None:
    grid, network = case
    rows, cols, tuples, weights, stages, radix = network
    bits = naive.to_bits(grid)
    rng = np.random.default_rng(int(weights.shape[0]))
    errors = (rng.integers(-512, 512, weights.shape[0]) / 8).astype(np.float32)
    abs_errors = (np.abs(errors) + rng.integers(0, 2, weights.shape[0]) * rng.random(weights.shape[0])).astype(
        np.float32
    )
    expected = weights.copy(), errors.copy(), abs_errors.copy()
    expected_error = naive_nt.td_update(
        bits, target, rows, cols, tuples, expected[0], alpha, (expected[1], expected[2]) if tc else None, stages, radix
    )
    lookups = _lookups(network)
    positions = np.empty(lookups.shape[0], dtype=np.int64)
    NK._indices(np.uint64(bits), rows, cols, lookups, positions, 0)
    stride = lookups[0, NK.STRIDE]
    sums = np.empty(2 * weights.shape[0], dtype=np.float32)  # the kernel keeps both sums of weight i side by side
    sums[0::2], sums[1::2] = errors, abs_errors
    error = NK._td_update(weights, positions, 0, lookups.shape[0], stride, target, alpha, tc, sums)
    assert error == expected_error
    assert weights.tobytes() == expected[0].tobytes()
    assert sums[0::2].tobytes() == expected[1].tobytes()
    assert sums[1::2].tobytes() == expected[2].tobytes()


@given(boards_and_networks())
def test_value_is_the_same_for_every_symmetric_image(case: tuple[list[list[int]], Network]) -> None:
    grid, network = case
    rows, cols, _, weights, _, _ = network
    lookups = _lookups(network)
    value = NK._value(np.uint64(naive.to_bits(grid)), rows, cols, weights, lookups)
    symmetries = naive_nt.cell_maps(rows, cols)
    assert len(symmetries) == (8 if rows == cols else 4)
    for symmetry in symmetries:
        image = naive_nt.moved(grid, symmetry)
        assert NK._value(np.uint64(naive.to_bits(image)), rows, cols, weights, lookups) == value, symmetry


def test_a_tuple_mapped_onto_itself_is_looked_up_once() -> None:
    # The diagonal of a 2x2 board: the transposition reads it in the same order.
    rows, cols, tuples = 2, 2, [[(0, 0), (1, 1)]]
    lookups = lookup_layout((((0, 0), (1, 1)),), rows, cols)[0]
    assert lookups.shape[0] == len(naive_nt.lookups(rows, cols, tuples)) == 4


@given(grids())
def test_max_tile_matches_naive(grid: list[list[int]]) -> None:
    assert NK._max_tile(np.uint64(naive.to_bits(grid))) == naive.max_tile(grid)


@given(grids(), st.sampled_from([2, 8, 64, 1024, 16384, 32768]), st.sampled_from([2, 4, 32, 256]))
def test_downgrade_matches_naive(grid: list[list[int]], from_tile: int, lowest_gap: int) -> None:
    bits = np.uint64(naive.to_bits(grid))
    got = NK._downgrade(bits, from_tile.bit_length() - 1, lowest_gap.bit_length() - 1)
    assert int(got) == naive.to_bits(naive_nt.downgraded(grid, from_tile, lowest_gap))


@given(grids(rows=4, cols=4))
def test_downgrade_keeps_the_legal_moves_and_what_they_merge(grid: list[list[int]]) -> None:
    down = naive_nt.downgraded(grid, 16384, 32)
    for direction in ("up", "right", "down", "left"):
        after, _ = naive.move(grid, direction)
        down_after, _ = naive.move(down, direction)
        assert (after == grid) == (down_after == down)
        assert [[bool(v) for v in row] for row in after] == [[bool(v) for v in row] for row in down_after]


def test_downgrade_by_hand() -> None:
    grid = [[16384, 8192, 4096, 2048], [64, 128, 256, 1024], [32, 16, 8, 4], [2, 0, 0, 0]]  # 512 is missing
    down = [[8192, 4096, 2048, 1024], [64, 128, 256, 512], [32, 16, 8, 4], [2, 0, 0, 0]]
    assert int(NK._downgrade(np.uint64(naive.to_bits(grid)), 14, 5)) == naive.to_bits(down)
    full = [[16384, 8192, 4096, 2048], [64, 128, 256, 1024], [32, 16, 8, 4], [2, 512, 0, 0]]  # no gap from 32 up
    assert int(NK._downgrade(np.uint64(naive.to_bits(full)), 14, 5)) == naive.to_bits(full)
    assert int(NK._downgrade(np.uint64(naive.to_bits(grid)), 15, 5)) == naive.to_bits(grid)  # below 32768


def _results(games: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return np.zeros(games, np.int64), np.zeros(games, np.int64), np.zeros(games, np.int64)


LEARN_CASES = [
    # rows, cols, tuples, random start weights, alpha, tc, lambda, horizon, seed, games, stage tiles[, restarts]
    (2, 2, [[(0, 0), (0, 1)], [(0, 0), (1, 1)]], False, 0.1, False, 0.0, 1, 1, 20, ()),
    (2, 3, [[(0, 0), (0, 1), (1, 0)]], True, 0.05, False, 0.0, 1, 2, 5, ()),
    (3, 3, [[(0, 0), (0, 1), (0, 2)], [(1, 1), (0, 1)]], True, 0.5, True, 0.0, 1, 3, 4, ()),
    (3, 4, [[(0, 0), (0, 1)], [(2, 3)]], False, 0.1, False, 0.0, 1, 4, 2, ()),
    (2, 2, [[(0, 0), (0, 1), (1, 0), (1, 1)]], False, 1.0, True, 0.0, 1, 2**64 - 5, 10, ()),
    (2, 2, [[(0, 0), (0, 1)], [(0, 0), (1, 1)]], False, 0.1, False, 0.5, 3, 1, 20, ()),
    (3, 3, [[(0, 0), (0, 1), (0, 2)], [(1, 1), (0, 1)]], True, 0.5, True, 0.7, 5, 3, 4, ()),
    (2, 3, [[(0, 0), (0, 1), (1, 0)]], True, 0.05, False, 1.0, 2, 7, 6, ()),
    (2, 2, [[(0, 0), (0, 1), (1, 0), (1, 1)]], False, 1.0, True, 0.0, 4, 5, 10, ()),  # delayed TD(0)
    (2, 2, [[(0, 0), (0, 1)]], True, 0.2, True, 0.3, 64, 6, 8, ()),  # a horizon longer than most games
    (2, 2, [[(0, 0), (0, 1)], [(0, 0), (1, 1)]], True, 0.1, False, 0.0, 1, 1, 20, (8,)),
    (2, 3, [[(0, 0), (0, 1), (1, 0)]], False, 0.5, True, 0.0, 1, 2, 8, (16, 32)),
    (3, 3, [[(0, 0), (0, 1), (0, 2)], [(1, 1), (0, 1)]], True, 1.0, True, 0.5, 4, 3, 6, (64,)),
    (3, 3, [[(0, 0), (0, 1), (0, 2)]], False, 0.1, False, 0.0, 1, 10, 6, (8, 16, 32, 64)),
    # with restarts from the middle of each game: once, several times, with lambda, with stages
    (2, 2, [[(0, 0), (0, 1)], [(0, 0), (1, 1)]], False, 0.1, False, 0.0, 1, 1, 20, (), 1),
    (3, 3, [[(0, 0), (0, 1), (0, 2)], [(1, 1), (0, 1)]], True, 0.5, True, 0.0, 1, 3, 4, (), 5),
    (2, 3, [[(0, 0), (0, 1), (1, 0)]], True, 0.05, False, 0.6, 3, 7, 6, (), 3),
    (3, 3, [[(0, 0), (0, 1), (0, 2)]], False, 0.5, True, 0.0, 1, 10, 6, (16, 32), 20),
]


def _learn_both(
    rows: int,
    cols: int,
    tuples: list[list[tuple[int, int]]],
    random_start: bool,
    alpha: float,
    tc: bool,
    lam: float,
    horizon: int,
    seed: int,
    games: int,
    stages: tuple[int, ...],
    restarts: int = 0,
    radix: int = 16,
    expected_updates: bool = False,
) -> np.ndarray:
    """Learn ``games`` games with the kernel and with the naive loop from the same start; assert the same outcome.

    By sampled TD (``_learn``), or with ``expected_updates`` by expected updates (``_learn_expected``, which
    takes no lambda, horizon or restarts). Returns the weights learnt.
    """
    size = naive_nt.size(tuples, radix)
    weights = np.zeros(size * (len(stages) + 1), dtype=np.float32)
    if random_start:
        weights[:size] = np.random.default_rng(seed).integers(-64, 64, size) / 16
    sums = np.zeros(2 * weights.shape[0], dtype=np.float32)
    twin = weights.copy(), np.zeros_like(weights), np.zeros_like(weights)
    twin_tc = (twin[1], twin[2]) if tc else None
    lookups = lookup_layout(tuple(tuple(cells) for cells in tuples), rows, cols, stages, radix)[0]
    rng = np.array([seed], dtype=np.uint64)
    out = _results(games)
    threshold = np.uint64(naive.four_threshold(0.1))
    if expected_updates:
        assert (lam, horizon, restarts) == (0.0, 1, 0)
        scores, tiles, moves, learnt, state = naive_nt.play_expected(
            games, rows, cols, 0.1, tuples, twin[0], seed, alpha=alpha, tc=twin_tc, stages=stages, radix=radix
        )
        total = NK._learn_expected(games, rows, cols, threshold, weights, lookups, 0.1, alpha, tc, sums, rng, *out)
        assert weights.any()  # every legal move learns: the merges of the games reach the weights
    else:
        scores, tiles, moves, learnt, state = naive_nt.play(
            games, rows, cols, 0.1, tuples, twin[0], seed, alpha=alpha, tc=twin_tc, lam=lam, horizon=horizon,
            stages=stages, restarts=restarts, radix=radix,
        )  # fmt: skip
        learning = (alpha, tc, sums, lam, horizon, restarts)
        total = NK._learn(games, rows, cols, threshold, weights, lookups, *learning, rng, *out)
    assert [o.tolist() for o in out] == [scores, tiles, moves]
    assert total == learnt and int(rng[0]) == state
    assert total == sum(moves) if restarts == 0 else total >= sum(moves)
    assert weights.tobytes() == twin[0].tobytes()
    assert sums[0::2].tobytes() == twin[1].tobytes() and sums[1::2].tobytes() == twin[2].tobytes()
    assert tc or not sums.any()
    # No later stage reached: its tables untouched (restarts, and expected updates of moves not played, can reach
    # tiles that the game did not).
    if not stages or (max(tiles) < stages[0] and not restarts and not expected_updates):
        assert not weights[size:].any()
    return weights


@pytest.mark.parametrize("compact", [False, True], ids=["radix 16", "compact radix"])
@pytest.mark.parametrize("case", LEARN_CASES)
def test_learning_matches_a_naive_td_loop(case: tuple[Any, ...], compact: bool) -> None:
    radix = compact_radix(case[0], case[1]) if compact else 16
    rest = case[11:] or (0,)
    weights = _learn_both(*case[:11], *rest, radix=radix)
    stages, size = case[10], naive_nt.size(case[2], radix)
    for k in range(1, len(stages) + 1):  # every stage was reached and learnt (promoted weights moved)
        assert weights[k * size : (k + 1) * size].any(), k


@given(
    st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 2)]),
    st.booleans(),
    st.sampled_from([0.05, 0.5, 1.0]),
    st.booleans(),
    st.floats(0.0, 1.0, allow_nan=False),
    st.integers(2, 12),
    st.integers(0, 2**64 - 1),
    st.sampled_from([(), (8,), (16, 32)]),
    st.integers(0, 4),
    st.booleans(),
)
def test_td_lambda_learning_matches_naive(
    size: tuple[int, int],
    random_start: bool,
    alpha: float,
    tc: bool,
    lam: float,
    horizon: int,
    seed: int,
    stages: tuple[int, ...],
    restarts: int,
    compact: bool,
) -> None:
    rows, cols = size
    tuples = [[(0, 0), (0, 1), (1, 0)], [(1, 1), (0, 1)]]
    radix = compact_radix(rows, cols) if compact else 16
    _learn_both(rows, cols, tuples, random_start, alpha, tc, lam, horizon, seed, 3, stages, restarts, radix)


@given(boards_and_networks(), st.sampled_from([0.0, 0.1, 0.5, 1.0]))
def test_expected_target_matches_naive(case: tuple[list[list[int]], Network], p_four: float) -> None:
    """The mean over every spawn of the greedy move's value (0 on a full board or where no move is left)."""
    grid, network = case
    rows, cols, tuples, weights, stages, radix = network
    n = _lookups(network).shape[0]
    scratch = np.empty(4 * n, np.int64), np.empty(4, np.uint64), np.empty(4, np.int64)
    got = NK._expected_target(np.uint64(naive.to_bits(grid)), rows, cols, p_four, weights, _lookups(network), *scratch)
    assert got == naive_nt.expected_target(grid, p_four, tuples, weights, stages, radix)


@pytest.mark.parametrize("compact", [False, True], ids=["radix 16", "compact radix"])
@pytest.mark.parametrize(
    "case",
    [
        # rows, cols, tuples, random start weights, alpha, tc, seed, games, stage tiles
        (2, 2, [[(0, 0), (0, 1)], [(0, 0), (1, 1)]], False, 1.0, False, 1, 6, ()),
        (3, 3, [[(0, 0), (0, 1), (0, 2)], [(1, 1), (0, 1)]], True, 0.5, True, 3, 2, ()),
        (2, 3, [[(0, 0), (0, 1), (1, 0)]], False, 1.0, True, 7, 3, (16,)),
        (3, 3, [[(0, 0), (0, 1), (0, 2)]], False, 0.1, False, 10, 4, (16, 32)),
    ],
)
def test_expected_learning_matches_a_naive_loop(case: tuple[Any, ...], compact: bool) -> None:
    radix = compact_radix(case[0], case[1]) if compact else 16
    rows, cols, tuples, random_start, alpha, tc, seed, games, stages = case
    weights = _learn_both(
        rows, cols, tuples, random_start, alpha, tc, 0.0, 1, seed, games, stages, radix=radix, expected_updates=True
    )
    size = naive_nt.size(tuples, radix)
    for k in range(1, len(stages) + 1):  # every stage was reached and learnt
        assert weights[k * size : (k + 1) * size].any(), k


@settings(max_examples=40)
@given(
    st.sampled_from([(2, 2), (2, 3), (3, 2)]),
    st.booleans(),
    st.sampled_from([0.05, 0.5, 1.0]),
    st.booleans(),
    st.integers(0, 2**64 - 1),
    st.sampled_from([(), (8,), (16, 32)]),
    st.booleans(),
)
def test_expected_learning_matches_naive(
    size: tuple[int, int],
    random_start: bool,
    alpha: float,
    tc: bool,
    seed: int,
    stages: tuple[int, ...],
    compact: bool,
) -> None:
    rows, cols = size
    tuples = [[(0, 0), (0, 1), (1, 0)], [(1, 1), (0, 1)]]
    radix = compact_radix(rows, cols) if compact else 16
    _learn_both(
        rows, cols, tuples, random_start, alpha, tc, 0.0, 1, seed, 2, stages, radix=radix, expected_updates=True
    )


def test_restarts_learn_from_more_moves_of_the_same_first_game() -> None:
    """A game's restarts come after it: the first game is the same, the moves learnt from are more."""
    tuples = (((0, 0), (0, 1), (1, 0)), ((1, 1), (0, 1)))
    lookups = lookup_layout(tuples, 3, 3)[0]
    threshold = np.uint64(naive.four_threshold(0.1))
    runs = []
    for restarts in (0, 3):
        weights = np.zeros(2 * 16**3, dtype=np.float32)
        out = _results(5)
        learning = (0.5, False, np.zeros(0, np.float32), 0.0, 1, restarts)
        total = NK._learn(5, 3, 3, threshold, weights, lookups, *learning, np.array([11], np.uint64), *out)
        runs.append((total, [o.tolist() for o in out], weights))
    (plain, plain_out, plain_weights), (more, more_out, more_weights) = runs
    assert plain == sum(plain_out[2]) and more > sum(more_out[2])
    assert [o[0] for o in plain_out] == [o[0] for o in more_out]  # score, tile and moves of game 1
    assert plain_weights.tobytes() != more_weights.tobytes()


def _learnt(lam: float, horizon: int) -> bytes:
    """The weights of a 3x3 network of one 3-tuple after 30 games of TD at alpha 0.1 (no TC), seed 9."""
    tuples = (((0, 0), (0, 1), (1, 0)),)
    lookups = lookup_layout(tuples, 3, 3)[0]
    weights = np.zeros(16**3, dtype=np.float32)
    no_tc = np.zeros(0, dtype=np.float32)
    threshold = np.uint64(naive.four_threshold(0.1))
    rng = np.array([9], np.uint64)
    NK._learn(30, 3, 3, threshold, weights, lookups, 0.1, False, no_tc, lam, horizon, 0, rng, *_results(30))
    assert weights.any()
    return weights.tobytes()


def test_a_horizon_of_one_is_td0_whatever_lambda() -> None:
    """The kernel ignores lambda with a horizon of 1 (the wrapper refuses that pair): the same weights as lambda 0."""
    assert _learnt(0.0, 1) == _learnt(0.9, 1)


def test_lambda_changes_what_is_learnt() -> None:
    """With a horizon above 1, lambda 0 (delayed TD(0)) and lambda 0.5 learn different weights from the same games."""
    assert _learnt(0.0, 3) != _learnt(0.5, 3)


@given(networks(rows=3, cols=3) | networks(rows=2, cols=4), st.integers(0, 2**64 - 1))
def test_greedy_play_matches_naive(network: Network, seed: int) -> None:
    rows, cols, tuples, weights, stages, radix = network
    scores, tiles, moves, _, state = naive_nt.play(
        1, rows, cols, 0.1, tuples, weights, seed, stages=stages, radix=radix
    )
    rng = np.array([seed], dtype=np.uint64)
    out = _results(1)
    threshold = np.uint64(naive.four_threshold(0.1))
    total = NK._play_greedy(1, rows, cols, threshold, weights, _lookups(network), rng, *out)
    assert [o.tolist() for o in out] == [scores, tiles, moves]
    assert total == sum(moves) and int(rng[0]) == state
