"""The 8 symmetries of the square: a group, with board and point transforms that agree."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from plyground.core.symmetry import IDENTITY, SYMMETRIES, canonical, permutations

boards = st.integers(1, 7).flatmap(
    lambda n: st.lists(st.integers(0, 2), min_size=n * n, max_size=n * n).map(
        lambda cells: np.array(cells, dtype=np.int8).reshape(n, n)
    )
)


def compose(a: int, b: int, n: int) -> tuple[int, ...]:
    """The cell map of ``a`` after ``b``."""
    return tuple(SYMMETRIES[a].cell(SYMMETRIES[b].cell(i, n), n) for i in range(n * n))


def test_the_symmetries_form_the_dihedral_group_of_order_8() -> None:
    n = 4
    maps = [tuple(s.cell(i, n) for i in range(n * n)) for s in SYMMETRIES]
    assert len(set(maps)) == 8
    assert SYMMETRIES[0] is IDENTITY and maps[0] == tuple(range(n * n))
    for a, b in itertools.product(range(8), repeat=2):
        assert compose(a, b, n) in maps  # closed
    for s in SYMMETRIES:
        assert compose(s.index, s.inverse.index, n) == maps[0] == compose(s.inverse.index, s.index, n)
        assert SYMMETRIES[s.index] is s


@given(boards)
def test_board_and_point_transforms_agree_and_invert(board: np.ndarray) -> None:
    n = board.shape[0]
    for s in SYMMETRIES:
        image = s.board(board)
        for r, c in itertools.product(range(n), repeat=2):
            assert image[s.point(r, c, n)] == board[r, c]
        assert np.array_equal(s.inverse.board(image), board)
        assert np.array_equal(image.reshape(-1)[permutations(n)[s.index]], board.reshape(-1))


@given(boards)
def test_the_canonical_form_is_the_same_for_all_8_images(board: np.ndarray) -> None:
    n = board.shape[0]
    form, s = canonical(board.reshape(-1), n)
    assert form == SYMMETRIES[s].board(board).tobytes()
    for t in SYMMETRIES:
        assert canonical(t.board(board).reshape(-1), n)[0] == form
    assert form == min(t.board(board).tobytes() for t in SYMMETRIES)
