"""The network: values, stages, compact tables, greedy play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from plyground.errors import InvalidBoardError, InvalidInputError
from plyground.g2048.board import Board
from plyground.g2048.ntuple import (
    DEFAULT_TUPLES,
    NTupleNetwork,
    default_tuples,
)
from tests.g2048.ntuple import RADIX, SMALL, TABLE, header_of, rewrite
from tests.naive import ntuple as naive_nt


def test_the_default_4x4_network() -> None:
    network = NTupleNetwork()
    assert network.tuples == DEFAULT_TUPLES == default_tuples()
    assert network.n_lookups == 4 * 8
    assert network.weights.shape == (4 * 16**6,) and network.weights.dtype == np.float32
    assert not network.weights.flags.writeable and not network.lookups.flags.writeable
    assert network.value(Board.parse("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 2")) == 0.0


def test_value_checks_the_board() -> None:
    network = NTupleNetwork(3, 3, SMALL)
    with pytest.raises(InvalidBoardError, match="network plays 3x3 boards, not 4x4 ones"):
        network.value(Board.empty())
    with pytest.raises(InvalidBoardError):
        network.value("2 2 0/0 0 0/0 0 0")  # type: ignore[arg-type]


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


def test_greedy_play_is_seeded_and_learns_nothing() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=2)
    network.learn(20, alpha=0.1)
    before = network.weights.tobytes(), network.rng_state
    a, b = network.play_greedy(20, seed=5), network.play_greedy(20, seed=5)
    assert a.scores.tolist() == b.scores.tolist() and a.max_tiles.tolist() == b.max_tiles.tolist()
    assert (network.weights.tobytes(), network.rng_state) == before
    assert a.games == 20 and a.mean_score > 0 and a.max_tile >= 8 and 0 < a.reach_rate(8) <= 1


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


def test_a_warm_start_copies_the_weights_and_totals_with_a_stream_of_its_own() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=6)
    network.learn(200, alpha=0.5, tc=True)
    before = network.weights.tobytes()
    warm = network.warm_start(seed=9, tc=True)
    assert warm.weights.tobytes() == before and warm.trained == network.trained and warm.uses_tc
    assert warm.rng_state == 9 and network.rng_state != 9
    assert warm.play_greedy(20, seed=2).scores.tolist() == network.play_greedy(20, seed=2).scores.tolist()
    warm.learn(50, alpha=0.5, tc=True)
    assert network.weights.tobytes() == before  # a copy: the original does not learn with it
    assert warm.trained.games == network.trained.games + 50
    twin, other = network.warm_start(seed=9, tc=True), network.warm_start(seed=10, tc=True)
    twin.learn(50, alpha=0.5, tc=True)
    other.learn(50, alpha=0.5, tc=True)
    assert twin.weights.tobytes() == warm.weights.tobytes() != other.weights.tobytes()  # the games come from seed
    plain = network.warm_start(seed=9)  # without tc, the TC sums are left behind
    assert not plain.uses_tc and plain.weights.tobytes() == before
    staged = network.warm_start(seed=9, stage_tiles=[128], tc=True)  # stages added, as by with_stages
    assert staged.stage_tiles == (128,) and staged.weights[: 2 * TABLE].tobytes() == before
    assert staged.rng_state == 9 and staged.uses_tc
    again = staged.warm_start(seed=1, stage_tiles=[128])
    assert again.stage_tiles == (128,) and again.weights.tobytes() == staged.weights.tobytes()
    with pytest.raises(InvalidInputError, match=r"has stages from 128: a run from it keeps them \(got 256\)"):
        staged.warm_start(seed=1, stage_tiles=[256])
    with pytest.raises(InvalidInputError, match=r"\(got none\)"):
        staged.warm_start(seed=1)
    with pytest.raises(InvalidInputError, match="seed"):
        network.warm_start(seed=-1)


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
    header = header_of(tmp_path / "old.npz")
    assert header.pop("radix") == 16
    rewrite(tmp_path / "old.npz", header)  # as written before compact tables: radix 16
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


def test_searches_downgrade_from_16384_by_default_and_the_setting_is_checked() -> None:
    net = NTupleNetwork(4, 4, seed=0)
    assert net.downgrade_from == 16384
    grid = [[16384, 8192, 4096, 64], [2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0]]  # 2048 is missing
    board = Board.from_rows(grid)
    assert net.downgraded(board) == Board.from_rows(naive_nt.downgraded(grid, 16384, 32))
    assert net.downgraded(board) == Board.from_rows([[8192, 4096, 2048, 64], [2, 4, 8, 16], [0] * 4, [0] * 4])
    assert net.with_stages([8192]).downgrade_from == 16384
    net.downgrade_from = 32768
    assert net.downgraded(board) == board
    assert net.with_stages([8192]).downgrade_from == 32768
    net.downgrade_from = None
    assert net.downgraded(board) == board
    for bad in (0, 32, 100, 65536, 16384.0, True, "16384"):
        with pytest.raises(InvalidInputError, match="downgrade_from must be None or a tile value from 64 to 32768"):
            net.downgrade_from = bad  # type: ignore[assignment]
    with pytest.raises(InvalidBoardError):
        net.downgraded(Board.from_rows([[2, 4], [8, 16]]))


def test_a_decision_names_the_downgraded_board_it_searched() -> None:
    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.heuristic import Heuristic

    net = NTupleNetwork(4, 4, seed=0)
    late = Board.from_rows([[16384, 8192, 4096, 64], [2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0]])
    early = Board.from_rows([[1024, 512, 256, 64], [2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0]])
    over = Board.from_rows([[16384, 8192, 4096, 2], [2, 4, 8, 16], [32, 64, 128, 256], [4, 2, 4, 8]])
    with Expectimax(depth=1, workers=1, evaluator=net) as ai:
        assert ai.choose(late).searched == net.downgraded(late) != late
        assert ai.choose(early).searched is None
        assert ai.choose(over).move is None and ai.choose(over).searched == net.downgraded(over) != over
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        assert ai.choose(late).searched is None
