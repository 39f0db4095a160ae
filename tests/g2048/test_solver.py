"""The strong solver: values and counts against an independent brute force, files, resume, errors."""

from __future__ import annotations

import functools
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError, PlygroundError
from plyground.g2048 import Board, Solution, solve
from plyground.g2048.solution import AgeCounts, compact_codes, default_directory, pack_codes
from tests.naive import g2048 as naive
from tests.naive import solver_2048 as brute

# Per-age state counts of 4x3 (per class under its 4 symmetries), published with Kaneko & Yamashita,
# "Strongly Solving 2048 4x3" (arXiv:2510.04580).
PUBLISHED_4X3 = Path(__file__).resolve().parents[1] / "data" / "published_4x3_states_per_age.txt"


# (rows, cols, p_four, exact): checked against the brute force, exactly (fractions) or to 1e-9 (floats).
CASES = [
    (2, 2, 0.1, True),
    (2, 2, 0.5, True),
    (2, 2, 1.0, True),
    (2, 3, 0.1, False),
    (3, 2, 0.1, False),
    (2, 3, 0.0, False),
]
# The case that also runs with the JIT off (the others are too slow as plain Python).
KERNEL_CASE = CASES[0]
MARKED_CASES = [pytest.param(*case, marks=[pytest.mark.kernel] if case == KERNEL_CASE else []) for case in CASES]


@functools.cache
def brute_solution(rows: int, cols: int, p_four: float, exact: bool) -> brute.Solution:
    return brute.solve_all(rows, cols, p_four, exact)


def board(bits: int, rows: int, cols: int) -> Board:
    return Board(bits, rows, cols)


def close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance * max(1.0, abs(b))


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int, float], Solution]:
    base = tmp_path_factory.mktemp("solutions")
    return {(r, c, p): solve(r, c, p_four=p, directory=base / f"{r}x{c}-{p}") for r, c, p, _ in CASES}


@pytest.mark.parametrize(("rows", "cols", "p_four", "exact"), MARKED_CASES)
def test_values_equal_the_brute_force_on_every_reachable_state(
    solved: dict[tuple[int, int, float], Solution], rows: int, cols: int, p_four: float, exact: bool
) -> None:
    solution = solved[rows, cols, p_four]
    graph = brute_solution(rows, cols, p_four, exact)
    tolerance = 1e-12 if exact else 1e-9
    assert graph.states
    for state, value in graph.states.items():
        got = solution.value(board(state, rows, cols))
        assert close(got, float(value), tolerance), naive.from_bits(state, rows, cols)
    for after, value in graph.afterstates.items():
        assert close(solution.afterstate_value(board(after, rows, cols)), float(value), tolerance)
    expected = brute.expected_score(rows, cols, p_four, exact, values=graph.states)
    assert close(solution.expected_score(), float(expected), tolerance)
    assert close(solution.afterstate_value(Board(0, rows, cols)), float(expected), tolerance)


@pytest.mark.parametrize(("rows", "cols", "p_four", "exact"), MARKED_CASES)
def test_counts_equal_the_brute_force(
    solved: dict[tuple[int, int, float], Solution], rows: int, cols: int, p_four: float, exact: bool
) -> None:
    graph = brute_solution(rows, cols, p_four, exact)
    states, afterstates = set(graph.states), set(graph.afterstates)
    terminal = {state for state in states if not brute.moves(state, rows, cols)}
    totals = solved[rows, cols, p_four].totals()
    assert totals.states == brute.count_classes(states, rows, cols)
    assert totals.states_unreduced == len(states)
    assert totals.afterstates == brute.count_classes(afterstates, rows, cols)
    assert totals.afterstates_unreduced == len(afterstates)
    assert totals.terminal == brute.count_classes(terminal, rows, cols)
    assert totals.terminal_unreduced == len(terminal)
    per_age: dict[int, int] = {}
    for state in states:
        per_age[brute.age(state, rows, cols)] = per_age.get(brute.age(state, rows, cols), 0) + 1
    assert {c.age: c.states_unreduced for c in solved[rows, cols, p_four].counts() if c.states} == per_age


def test_move_values_best_move_and_start_classes_on_2x2(solved: dict[tuple[int, int, float], Solution]) -> None:
    solution = solved[2, 2, 0.1]
    values = brute_solution(2, 2, 0.1, True).states
    for state in values:
        b = board(state, 2, 2)
        expected = brute.move_values(state, values, 2, 2, Fraction(1, 10))
        got = solution.move_values(b)
        assert list(got) == list(expected)
        assert all(close(got[m], float(expected[m]), 1e-12) for m in expected)
        best = solution.best_move(b)
        if expected:
            assert best is not None and close(got[best], float(max(expected.values())), 1e-12)
        else:
            assert best is None
    starts = solution.start_classes()
    assert close(sum(s.probability for s in starts), 1.0, 1e-12)
    assert {brute.canonical(s.board.bits, 2, 2) for s in starts} == {
        brute.canonical(b, 2, 2) for b in brute.start_states(2, 2, 0.1)
    }


def test_value_of_any_image_of_a_board_is_the_same(solved: dict[tuple[int, int, float], Solution]) -> None:
    solution = solved[2, 3, 0.1]
    states = sorted(brute_solution(2, 3, 0.1, False).states, key=lambda s: (brute.age(s, 2, 3), s))
    state = next(s for s in reversed(states) if brute.moves(s, 2, 3))
    values = {solution.value(board(image, 2, 3)) for image in brute.images(state, 2, 3)}
    assert len(values) == 1


def test_unreachable_and_malformed_boards_are_refused(solved: dict[tuple[int, int, float], Solution]) -> None:
    solution = solved[2, 2, 0.1]
    with pytest.raises(InvalidBoardError, match="not a reachable 2x2 state"):
        solution.value(Board.parse("2 0/0 0"))  # one tile: never a state
    with pytest.raises(InvalidBoardError, match="not a reachable"):
        solution.value(Board.parse("2048 2/0 0"))
    with pytest.raises(InvalidBoardError, match="2x2, not of a 3x3"):
        solution.value(Board(0, 3, 3))
    with pytest.raises(InvalidInputError, match="expected a Board"):
        solution.value("2 2/0 0")  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="no empty cell"):
        solution.afterstate_value(Board.parse("2 4/4 2"))
    with pytest.raises(InvalidBoardError, match="reachable"):
        solution.move_values(Board.parse("2 2/2048 0"))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rows": 5, "cols": 2}, "2 to 4 rows"),
        ({"rows": 4, "cols": 4}, "at most 12 cells"),
        ({"rows": 2, "cols": 2, "p_four": 1.5}, "p_four"),
        ({"rows": 2, "cols": 2, "max_age": 10}, "forward_only"),
        ({"rows": 2, "cols": 2, "forward_only": True, "max_age": 3}, "max_age"),
        ({"rows": 2, "cols": 2, "workers": 0}, "workers"),
    ],
)
def test_bad_parameters_are_refused(tmp_path: Path, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        solve(directory=tmp_path / "s", **kwargs)  # type: ignore[arg-type]


def test_folders_of_other_things_are_refused(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(InvalidInputError, match="not empty and holds no solution"):
        solve(2, 2, directory=tmp_path / "other")
    solve(2, 2, directory=tmp_path / "two")
    with pytest.raises(InvalidInputError, match=re.escape("holds the solution of 2x2 with p_four 0.1")):
        solve(2, 3, directory=tmp_path / "two")
    with pytest.raises(InvalidInputError, match=re.escape("p_four 0.1, not 2x2 with p_four 0.2")):
        solve(2, 2, p_four=0.2, directory=tmp_path / "two")


def test_damaged_folders_give_one_line_errors(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    solve(2, 2, directory=folder)
    meta = folder / "solution.json"
    data = json.loads(meta.read_text())

    meta.write_text("{not json")
    with pytest.raises(CorruptFileError, match="not valid JSON"):
        Solution(folder)
    meta.write_text(json.dumps({**data, "version": 99}))
    with pytest.raises(CorruptFileError, match="unsupported solution version 99: written by a newer plyground"):
        Solution(folder)
    meta.write_text(json.dumps({**data, "format": "plyground.g2048.replay"}))
    with pytest.raises(CorruptFileError, match="not a plyground solution: expected format"):
        Solution(folder)
    meta.write_text(json.dumps({**data, "ages": [[4, "x"]]}))
    with pytest.raises(CorruptFileError, match="malformed count row"):
        Solution(folder)
    meta.write_text(json.dumps({key: value for key, value in data.items() if key != "forward"}))
    with pytest.raises(CorruptFileError, match="not a valid solution file"):
        Solution(folder)

    meta.write_text(json.dumps(data))
    good = np.load(folder / "values-0008.npy")
    (folder / "values-0008.npy").write_bytes(b"garbage")  # numpy would take it for a pickle, and say so
    with pytest.raises(CorruptFileError, match=re.escape("values-0008.npy is damaged: it is not a NumPy array file")):
        Solution(folder).value(Board.parse("4 2/2 0"))
    for bad, shown in ((np.nan, "nan"), (-1e300, "-1e+300"), (np.inf, "inf"), (1e300, "1e+300")):
        np.save(folder / "values-0008.npy", np.where(np.arange(good.shape[0]) == 1, bad, good))  # one bad value
        with pytest.raises(CorruptFileError, match=re.escape(f"values-0008.npy is damaged: it holds {shown}, not")):
            Solution(folder).value(Board.parse("4 2/2 0"))
    np.save(folder / "values-0008.npy", good)
    assert Solution(folder).value(Board.parse("4 2/2 0")) >= 0
    (folder / "values-0008.npy").unlink()
    with pytest.raises(CorruptFileError, match=re.escape("values-0008.npy is missing")):
        Solution(folder).value(Board.parse("4 2/2 0"))
    np.save(folder / "values-0008.npy", np.zeros(3, dtype=np.int32))
    with pytest.raises(CorruptFileError, match="expected a 1-D"):
        Solution(folder).value(Board.parse("4 2/2 0"))


class Interrupt(Exception):
    pass


def interrupt_at(phase: str, age: int) -> object:
    def progress(p: str, a: int, counts: AgeCounts | None) -> None:
        if p == phase and a == age:
            raise Interrupt

    return progress


def layers(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.npy"))}


def test_an_interrupted_solve_resumes_and_ends_with_identical_files(tmp_path: Path) -> None:
    reference = solve(2, 3, directory=tmp_path / "whole")
    folder = tmp_path / "interrupted"
    with pytest.raises(Interrupt):
        solve(2, 3, directory=folder, progress=interrupt_at("forward", 100))  # type: ignore[arg-type]
    meta = json.loads((folder / "solution.json").read_text())
    assert meta["forward"] == {"age": 100, "complete": False}
    with pytest.raises(Interrupt):
        solve(2, 3, directory=folder, progress=interrupt_at("backward", 120))  # type: ignore[arg-type]
    meta = json.loads((folder / "solution.json").read_text())
    assert meta["forward"]["complete"] and meta["backward"] == {"age": 120, "complete": False}
    ages_seen: list[int] = []
    resumed = solve(2, 3, directory=folder, progress=lambda phase, age, counts: ages_seen.append(age))
    assert ages_seen == list(range(118, 2, -2))  # only the ages left
    assert resumed.counts() == reference.counts()
    assert layers(folder) == layers(tmp_path / "whole")
    assert resumed.expected_score() == reference.expected_score()


def test_a_solved_folder_loads_without_solving_again(tmp_path: Path) -> None:
    solve(2, 2, directory=tmp_path)
    calls: list[int] = []
    again = solve(2, 2, directory=tmp_path, progress=lambda phase, age, counts: calls.append(age))
    assert calls == []
    assert again.solved and again.totals().states == 110


def test_compact_storage_gives_the_same_solution_in_fewer_bytes(
    tmp_path: Path, solved: dict[tuple[int, int, float], Solution]
) -> None:
    plain = solved[2, 3, 0.1]
    compact = solve(2, 3, directory=tmp_path, compact=True)
    assert compact.compact and not plain.compact
    assert compact.counts() == plain.counts()
    assert compact.expected_score() == plain.expected_score()
    for age in (20, 100, 200):
        assert list(compact.boards(age)) == list(plain.boards(age))
    small, big = compact.stored_bytes(), plain.stored_bytes()
    assert small["states"] < big["states"] / 2 and small["after"] < big["after"] / 2


def test_a_layer_is_the_sorted_states_of_an_age_with_their_values(
    solved: dict[tuple[int, int, float], Solution],
) -> None:
    solution = solved[2, 3, 0.1]
    for age in (4, 20, 100):
        codes, values = solution.layer(age)
        assert values is not None and codes.shape == values.shape and codes.shape[0] > 0
        assert np.all(codes[1:] > codes[:-1])
        boards = list(solution.boards(age))
        assert [board.bits for board, _ in boards] == [int(c) for c in codes]
        assert [solution.value(board) for board, _ in boards] == values.tolist()
        with pytest.raises(ValueError, match="read-only"):
            codes[0] = 0
        with pytest.raises(ValueError, match="read-only"):
            values[0] = 0.0
    codes, values = solution.layer(7)  # no state has an odd age
    assert codes.shape == (0,) and values is not None and values.shape == (0,)
    for bad in (-2, 4.0, "4", True):
        with pytest.raises(InvalidInputError, match="age must be a non-negative integer"):
            solution.layer(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidInputError, match="age must be a non-negative integer"):
            list(solution.boards(bad))  # type: ignore[arg-type]


def test_forward_only_counts_then_a_full_solve_continues(tmp_path: Path) -> None:
    counted = solve(2, 3, directory=tmp_path, forward_only=True, max_age=40)
    assert not counted.solved and not counted.complete
    assert [c.age for c in counted.counts()] == list(range(4, 42, 2))
    with pytest.raises(PlygroundError, match="forward pass only"):
        counted.value(Board.parse("2 2 0/0 0 0"))
    calls: list[tuple[str, int]] = []
    full = solve(2, 3, directory=tmp_path, progress=lambda phase, age, counts: calls.append((phase, age)))
    assert calls[0] == ("forward", 42)
    assert full.solved and full.totals().states == 21752


def test_the_4x3_forward_pass_matches_the_published_counts_to_age_60(tmp_path: Path) -> None:
    published = [[int(n) for n in line.split()] for line in PUBLISHED_4X3.read_text().splitlines() if line.strip()]
    counted = solve(4, 3, directory=tmp_path, forward_only=True, max_age=60)
    assert [[c.age, c.states] for c in counted.counts()] == [row for row in published if row[0] <= 60]


def test_default_directory_is_under_the_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path))
    assert default_directory(3, 3) == tmp_path / "solutions" / "3x3-p0.1"
    solution = solve(2, 2)
    assert solution.directory == tmp_path / "solutions" / "2x2-p0.1"
    assert (solution.directory / "solution.json").exists()


def test_pack_codes_and_compact_codes_give_what_a_compact_solution_stores(tmp_path: Path) -> None:
    plain = solve(2, 3, directory=tmp_path / "plain", forward_only=True, max_age=40)
    compact = solve(2, 3, directory=tmp_path / "compact", compact=True, forward_only=True, max_age=40)
    for age in (4, 20, 40):
        codes, _ = plain.layer(age)  # read-only: taken as it is
        packed = pack_codes(codes, 2, 3)
        cells = [[(int(code) >> (16 * r + 4 * c)) & 0xF for r in range(2) for c in range(3)] for code in codes]
        assert packed.tolist() == [sum(e << (4 * i) for i, e in enumerate(row)) for row in cells]
        stored = np.load(compact.directory / f"states-{age:04d}.ef.npy")
        assert np.array_equal(compact_codes(codes, 2, 3), stored)
        assert compact_codes(codes, 2, 3)[0] == codes.size
    assert compact_codes(np.zeros(0, dtype=np.uint64), 2, 2).tolist()[:2] == [0, 0]


@pytest.mark.parametrize(
    ("codes", "size", "message"),
    [
        ([0x1, 0x2], (2, 2), "codes must be a 1-D numpy array of uint64, got \\[1, 2\\]"),
        (np.array([1, 2], dtype=np.int64), (2, 2), "got an array of int64 of shape \\(2,\\)"),
        (np.zeros((2, 2), dtype=np.uint64), (2, 2), "got an array of uint64 of shape \\(2, 2\\)"),
        (np.array([0x1, 0x100], dtype=np.uint64), (2, 2), "codes\\[1\\] = 0x100 has tiles outside a 2x2 board"),
        (np.array([0x1], dtype=np.uint64), (4, 4), "at most 12 cells, got 4x4"),
        (np.array([0x1], dtype=np.uint64), (1, 3), "a board has 2 to 4 rows and columns, got 1x3"),
    ],
)
def test_pack_codes_and_compact_codes_refuse_bad_codes(codes: Any, size: tuple[int, int], message: str) -> None:
    for function in (pack_codes, compact_codes):
        with pytest.raises(InvalidInputError, match=message):
            function(codes, *size)
    with pytest.raises(InvalidInputError, match="non-decreasing order, got codes\\[2\\] = 0x1 < codes\\[1\\] = 0x11"):
        compact_codes(np.array([0x1, 0x11, 0x1], dtype=np.uint64), 2, 2)
