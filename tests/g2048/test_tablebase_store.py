"""Endgame tables on disk: saved and read back through memory maps within the stated error, damaged files refused
in one line, builds that resume after a kill, and boards of a game matched under the board's symmetries."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plyground.core.run_many import Backend
from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError, JobTooLargeError
from plyground.g2048 import Board
from plyground.g2048.tablebase import (
    VALUE_ERROR,
    Formation,
    Tablebase,
    build_tablebase,
    estimate_formation,
    load_tablebase,
    save_tablebase,
    solve_formation,
    table_folders,
    table_name,
    verify_tablebase,
)
from plyground.g2048.tablebase import solve as solve_module
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
    return [table.state(index) for index in range(0, table.states, max(1, table.states // 200))]


def test_a_saved_table_reads_back_within_the_stated_error(table: Tablebase, saved: Path) -> None:
    assert saved.name == "xxx-x..-..T_T16_p0.1"
    assert sorted(path.name for path in saved.iterdir()) == ["best.npy", "tablebase.json", "values.npy"]
    again = verify_tablebase(saved)
    assert (again.formation, again.target, again.p_four, again.states) == (FORMATION, 16, 0.1, table.states)
    assert isinstance(again.values, np.memmap) and again.values.dtype == np.uint16 and not again.exact
    assert table.exact and (saved / "values.npy").stat().st_size < 2 * table.states + 200
    errors = np.abs(again.values * again.scale - table.values)
    assert errors.max() <= VALUE_ERROR and errors.max() > 0  # quantised: not exact, never off by more
    assert np.array_equal(again.best, table.best)
    for board in _boards(table):
        assert again.value(board) == pytest.approx(table.value(board), abs=VALUE_ERROR)
        mine, exact = again.move_values(board), table.move_values(board)
        assert mine.keys() == exact.keys() and all(abs(mine[m] - exact[m]) <= VALUE_ERROR for m in mine)
        assert again.best_move(board) == table.best_move(board)
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
    description["states"] = 5
    (saved / "tablebase.json").write_text(json.dumps(description))
    with pytest.raises(CorruptFileError, match="5 states of quantum 65535 do not make a table"):
        load_tablebase(saved)
    description["version"] = 1
    (saved / "tablebase.json").write_text(json.dumps(description))
    with pytest.raises(CorruptFileError, match="version 1"):
        load_tablebase(saved)
    (saved / "tablebase.json").write_text('{"format": "plyground.g2048.tablebase", "version": 2, "target": 16}')
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
    assert estimate.states == 6**8 and estimate.disk_bytes == 12 * 6**8 and estimate.table_bytes == 3 * 6**8
    assert estimate.memory_bytes > 13 * 6**8
    assert "1,679,616 states" in estimate.describe() and "(5.0 MB kept)" in estimate.describe()
    with pytest.raises(JobTooLargeError, match="more than the"):
        solve_formation(Formation.parse("xxxx/xxx./..../...T"), 32768)  # 15 ** 9 states


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
    assert advisor.advise(Board.parse("64 32 16/128 2 16/2 0 0")) is None  # built: the table has nothing to add
    assert advisor.advise(Board.parse("64 64 16/128 0 8/0 0 8")) is None  # two big tiles the game would merge
    assert answer(table, Board.parse("64 32 16/128 2 16/2 0 0")) is not None  # though it still answers
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


def test_a_table_whose_bytes_changed_is_refused_not_misread(table: Tablebase, saved: Path) -> None:
    values = np.load(saved / "values.npy")
    values[len(values) // 2] ^= 1  # the right length and type, one value changed
    np.save(saved / "values.npy", values)
    load_tablebase(saved)  # what a load checks: sizes and types
    with pytest.raises(CorruptFileError, match=r"values\.npy is damaged: its bytes do not match its checksum"):
        verify_tablebase(saved)
    best = np.load(saved / "best.npy")
    best[:] = 7
    np.save(saved / "best.npy", best)
    damaged = load_tablebase(saved)
    with pytest.raises(CorruptFileError, match="is damaged: a best move of 7"):
        damaged.best_move(_boards(table)[-1])


# -- builds that resume -----------------------------------------------------------------

_KILLED_BUILD = """
import os, signal, sys
from plyground.g2048.tablebase import Formation, build_tablebase
from plyground.g2048.tablebase import solve
solve.CHECKPOINT_SECONDS = 0.0
solve.SHARD_STATES = 64  # every layer of 128 states or more in two shards, one a thread
layers = []
def on_layer(done, states):
    layers.append(done)
    if len(layers) == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)
build_tablebase(Formation.parse("xxxx/xxxx/...T/...."), 32, sys.argv[1], p_four=0.1, on_layer=on_layer, workers=2)
"""


def test_a_build_killed_with_sigkill_resumes_to_the_same_table(tmp_path: Path) -> None:
    """Killed twice while two threads solve each layer, resumed on one: the table of a one-thread solve."""
    formation = Formation.parse("xxxx/xxxx/...T/....")
    exact = solve_formation(formation, 32, p_four=0.1)
    folder = tmp_path / "t" / table_name(formation, 32, 0.1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for layers in (20, 20):  # killed twice, the second time 20 layers after resuming
        done = subprocess.run([sys.executable, "-c", _KILLED_BUILD, str(folder), str(layers)], env=env, check=False)
        assert done.returncode == -signal.SIGKILL
        assert (folder / "work" / "progress.json").exists() and not (folder / "tablebase.json").exists()
        assert table_folders(folder.parent) == []  # no table until it is whole
    progress = json.loads((folder / "work" / "progress.json").read_text())
    assert 0 < progress["below"] < 8 * 16 + 1  # some layers done, not all
    layers: list[int] = []
    table = build_tablebase(formation, 32, folder, p_four=0.1, on_layer=lambda done, _: layers.append(done))
    assert layers[-1] == exact.states and len(layers) < 30  # the layers done before were not solved again
    assert not (folder / "work").exists() and table_folders(folder.parent) == [folder]
    assert np.array_equal(table.best, exact.best)
    assert np.array_equal(table.values, np.rint(exact.values * 65535).astype(np.uint16))


def test_threads_solving_a_layers_shards_side_by_side_find_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    formation = Formation.parse("xxxx/xxxx/...T/....")
    one = solve_formation(formation, 16, p_four=0.1)
    monkeypatch.setattr(solve_module, "SHARD_STATES", 16)
    sizes: list[int] = []
    original = solve_module._shards

    def shards(start: int, count: int, workers: int) -> list[tuple[int, int]]:
        found = original(start, count, workers)
        sizes.append(len(found))
        return found

    monkeypatch.setattr(solve_module, "_shards", shards)
    three = solve_formation(formation, 16, p_four=0.1, workers=3)
    assert max(sizes) == 3  # the large layers were split in three
    assert np.array_equal(one.values, three.values) and np.array_equal(one.best, three.best)
    for workers in (0, -1, 1.5, True):
        with pytest.raises(InvalidInputError, match="workers is a number of threads from 1"):
            solve_formation(formation, 16, workers=workers)  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", [Backend(workers=2), Backend(dask_local=2)], ids=["processes", "dask"])
def test_other_processes_solving_a_layers_shards_find_the_same_values(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if backend.uses_dask:
        pytest.importorskip("distributed")
    formation = Formation.parse("xxxx/xxxx/...T/....")
    one = solve_formation(formation, 16, p_four=0.1)
    monkeypatch.setattr(solve_module, "SHARD_STATES", 16)  # here, where the shards are cut: most layers in two,
    monkeypatch.setattr(solve_module, "REMOTE_STATES", 16)  # sent to the workers
    from plyground.core import run_many

    sent: list[int] = []
    original = run_many.Pool.map

    def counted(pool: run_many.Pool, func: Any, jobs: Any, **kwargs: Any) -> Any:
        sent.append(len(jobs))
        return original(pool, func, jobs, **kwargs)

    monkeypatch.setattr(run_many.Pool, "map", counted)
    work = tmp_path / "work"
    two = solve_formation(formation, 16, p_four=0.1, work=work, workers=2, backend=backend)
    assert sent and set(sent) == {2}  # layers went to the workers, two shards each
    assert np.array_equal(one.values, two.values) and np.array_equal(one.best, two.best)
    assert (work / "order.u4.npy").is_file()  # what the workers read the states of their shards from
    with pytest.raises(InvalidInputError, match="needs a work folder"):
        solve_formation(formation, 16, backend=backend)


def test_a_build_resumes_from_its_checkpoint_and_refuses_another_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    formation = Formation.parse("xxx/x../..T")
    exact = solve_formation(formation, 16, p_four=0.1)
    monkeypatch.setattr(solve_module, "CHECKPOINT_SECONDS", 0.0)

    def stop(done: int, _states: int) -> None:
        if done > exact.states // 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_formation(formation, 16, p_four=0.1, work=tmp_path / "work", on_layer=stop)
    resumed = solve_formation(formation, 16, p_four=0.1, work=tmp_path / "work")
    assert np.array_equal(resumed.values, exact.values) and np.array_equal(resumed.best, exact.best)
    with pytest.raises(InvalidInputError, match=r"holds the build of another table \(xxx/x../..T for 16, p_four 0.1\)"):
        solve_formation(formation, 16, p_four=0.5, work=tmp_path / "work")
    (tmp_path / "work" / "values.f8.npy").write_bytes(b"nothing")
    with pytest.raises(CorruptFileError, match="a build's files are damaged"):
        solve_formation(formation, 16, p_four=0.1, work=tmp_path / "work")


def test_batches_answer_as_the_table_does(table: Tablebase, saved: Path) -> None:
    """The lookups a search makes inside a kernel, a batch at a time: each board's value and its moves', from a
    solve and from disk."""
    names = ("up", "right", "down", "left")
    for source in (table, load_tablebase(saved)):
        boards = [*_boards(source), Board.parse("32 32 32/32 16 0/0 0 0"), Board.parse("32 32 32/32 0 0/0 0 16")]
        bits = np.array([board.bits for board in boards], dtype=np.uint64)
        values, moves = source.values_of(bits), source.move_values_of(bits)
        assert values.tolist() == [source.value(board) for board in boards]
        assert values[-2:].tolist() == [0.0, 1.0]  # a 16 off the goal, and on it
        for row, board in zip(moves, boards, strict=True):
            assert {names[d]: row[d] for d in range(4) if row[d] >= 0} == source.move_values(board)
    with pytest.raises(
        InvalidBoardError, match=r"board 1 of the batch holds a tile below 16 on the frozen cell at row 1"
    ):
        table.values_of(np.array([bits[0], Board.parse("8 32 32/32 0 0/0 0 0").bits], dtype=np.uint64))
    with pytest.raises(InvalidBoardError, match="expected a 1-d array of uint64 bitboards"):
        table.move_values_of(np.zeros((2, 2), dtype=np.uint64))
    assert table.state(0) == Board.parse("16 16 16/16 0 0/0 0 0") and table.value(table.state(table.states - 1)) == 0
    with pytest.raises(InvalidInputError, match="a state's index is from 0 to 1,023"):
        table.state(table.states)
