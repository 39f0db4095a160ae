"""Endgame tables on disk: saved and read back through memory maps, damaged files refused in one line, and
boards of a game matched under the board's symmetries."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from plyground.errors import CorruptFileError, InvalidInputError, JobTooLargeError
from plyground.g2048 import Board
from plyground.g2048.tablebase import (
    Formation,
    Tablebase,
    estimate_formation,
    load_tablebase,
    save_tablebase,
    solve_formation,
    table_folders,
    table_name,
)
from plyground.g2048.tablebase.advice import answer, seen_as
from plyground.g2048.tablebase.formation import image_cell, image_direction

FORMATION = Formation.parse("xxx/x../..T")


@pytest.fixture(scope="module")
def table() -> Tablebase:
    return solve_formation(FORMATION, 16, p_four=0.1)


@pytest.fixture
def saved(table: Tablebase, tmp_path: Path) -> Path:
    return save_tablebase(table, tmp_path / "tables" / table_name(table.formation, table.target, table.p_four))


def _boards(table: Tablebase) -> list[Board]:
    rows, cols = table.formation.rows, table.formation.cols
    return [
        Board(int(code) | sum(5 << (16 * r + 4 * c) for r, c in table.formation.frozen), rows, cols)
        for code in table.codes[:: max(1, table.states // 200)]
    ]


def test_a_saved_table_reads_back_the_same(table: Tablebase, saved: Path) -> None:
    assert saved.name == "xxx-x..-..T_T16_p0.1"
    assert sorted(path.name for path in saved.iterdir()) == ["best.npy", "codes.npy", "tablebase.json", "values.npy"]
    again = load_tablebase(saved)
    assert (again.formation, again.target, again.p_four, again.sums) == (FORMATION, 16, 0.1, table.sums)
    assert isinstance(again.codes, np.memmap)
    for board in _boards(table):
        assert again.value(board) == table.value(board)
        assert again.move_values(board) == table.move_values(board)
    assert table_folders(saved.parent) == [saved] and table_folders(saved) == [saved]
    assert table_folders(saved.parent / "none") == []


def test_a_missing_or_damaged_table_is_refused_in_one_line(saved: Path, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no endgame table in"):
        load_tablebase(tmp_path / "nothing")
    (saved / "best.npy").unlink()
    with pytest.raises(CorruptFileError, match=r"best\.npy is missing"):
        load_tablebase(saved)
    (saved / "values.npy").write_bytes(b"not an array")
    with pytest.raises(CorruptFileError, match=r"values\.npy: not an array"):
        load_tablebase(saved)
    np.save(saved / "values.npy", np.zeros(3))
    with pytest.raises(CorruptFileError, match="expected"):
        load_tablebase(saved)
    description = json.loads((saved / "tablebase.json").read_text())
    description["sums"] = description["sums"][1:]
    (saved / "tablebase.json").write_text(json.dumps(description))
    with pytest.raises(CorruptFileError, match="tile sums do not cover"):
        load_tablebase(saved)
    (saved / "tablebase.json").write_text('{"format": "plyground.g2048.tablebase", "version": 1, "target": 16}')
    with pytest.raises(CorruptFileError, match="not an endgame table's description"):
        load_tablebase(saved)
    (saved / "tablebase.json").write_text("{")
    with pytest.raises(CorruptFileError, match="not valid JSON"):
        load_tablebase(saved)


def test_every_symmetry_maps_cells_and_moves_alike() -> None:
    steps = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
    for k in range(8):
        for d, (dr, dc) in steps.items():
            a, b = image_cell((1, 1), k, 4, 4), image_cell((1 + dr, 1 + dc), k, 4, 4)
            assert steps[image_direction(d, k)] == (b[0] - a[0], b[1] - a[1])
    assert sorted(image_direction(d, 5) for d in range(4)) == [0, 1, 2, 3]


def test_a_board_fits_a_table_under_any_of_its_symmetries(table: Tablebase) -> None:
    rows, cols = FORMATION.rows, FORMATION.cols
    base = {(1, 1): 2, (1, 2): 4, (2, 0): 8, (2, 1): 2}
    plain = Board.from_rows([[base.get((r, c), 32 if (r, c) in FORMATION.frozen else 0) for c in range(3)]
                             for r in range(3)])  # fmt: skip
    expected = answer(table, plain)
    assert expected is not None and expected.symmetry == 0 and expected.moves == table.move_values(plain)
    for k in range(8):
        cells = {image_cell(cell, k, rows, cols): plain[cell] for cell in ((r, c) for r in range(3) for c in range(3))}
        board = Board.from_rows([[cells[r, c] for c in range(3)] for r in range(3)])
        found = answer(table, board)
        assert found is not None and found.value == expected.value
        names = ("up", "right", "down", "left")
        seen = seen_as(table, board, found.symmetry)
        moved = {names[image_direction(names.index(m), found.symmetry)]: v for m, v in table.move_values(seen).items()}
        assert found.moves == moved
        assert sorted(found.moves.values()) == sorted(expected.moves.values())
    small = Board.parse("32 32 32/8 2 4/8 2 0")  # a frozen cell holds 8 < 16 in every image
    assert answer(table, small) is None and answer(table, Board.parse("2 0/0 0")) is None


def test_the_estimate_counts_every_state() -> None:
    estimate = estimate_formation(Formation.parse("xxxx/xxxx/...T/...."), 64)
    assert estimate.states == 6**8 and estimate.disk_bytes == 17 * 6**8
    assert "1,679,616 states" in estimate.describe()
    with pytest.raises(JobTooLargeError, match="more than the"):
        solve_formation(Formation.parse("xxxx/xxxx/...T/...."), 32768)


def test_an_advisor_takes_the_table_whose_goal_continues_the_chain(tmp_path: Path) -> None:
    from plyground.g2048.tablebase import Advisor

    formation = Formation.parse("xxx/x.T/...")  # the goal's frozen neighbour: the cell above it
    table = solve_formation(formation, 16, p_four=0.1)
    advisor = Advisor([table])
    chained = Board.parse("64 32 16/128 0 8/0 0 8")  # 16 above the goal: building 16 there merges on
    advice = advisor.advise(chained)
    found = answer(table, chained)
    assert advice is not None and found is not None
    assert (advice.move, advice.probability, advice.formation) == (found.best, found.moves[found.best], "xxx/x.T/...")
    assert 0.0 < advice.probability <= 1.0 and advice.answer == found
    assert advisor.advise(Board.parse("64 32 32/128 0 8/0 0 8")) is None  # 32 above the goal: no chain
    assert advisor.advise(Board.parse("2 0 0/0 0 0/0 0 0")) is None  # no table fits
    mirrored = Board.parse("16 32 64/8 0 128/8 0 0")  # the same board mirrored: the table fits it turned
    turned = advisor.advise(mirrored)
    mirror = {"left": "right", "right": "left", "up": "up", "down": "down"}
    assert turned is not None and turned.move == mirror[advice.move] and turned.probability == advice.probability
    save_tablebase(table, tmp_path / "t" / table_name(formation, 16, 0.1))
    assert len(Advisor.load(tmp_path / "t")) == 1 and len(Advisor.load(tmp_path / "t", p_four=0.5)) == 0
    assert Advisor.load(tmp_path / "t").folder == (tmp_path / "t").resolve() and Advisor([table]).folder is None
    with pytest.raises(InvalidInputError, match="no endgame table in"):
        Advisor.load(tmp_path / "empty")


def test_a_table_whose_boards_were_changed_is_refused_not_misread(table: Tablebase, saved: Path) -> None:
    codes = np.load(saved / "codes.npy")
    np.save(saved / "codes.npy", np.zeros_like(codes))  # the right length and type, the wrong boards
    damaged = load_tablebase(saved)
    board = _boards(table)[-1]
    with pytest.raises(CorruptFileError, match="is damaged: it lacks the board"):
        damaged.value(board)
    with pytest.raises(CorruptFileError, match="is damaged: a spawned board is missing"):
        damaged.move_values(Board.parse("32 32 32/32 0 0/0 0 2"))
