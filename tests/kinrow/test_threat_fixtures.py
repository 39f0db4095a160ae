"""The gomoku threat positions of ``tests/data/gomoku_threats.jsonl`` and the brute force that labels them.

The brute force (``tests/naive/threats.py``) is checked on hand-made positions with depths reasoned out
below, and against a plain game-tree search on small boards (every move of both players, no threat
notions at all). The fixture is checked for its shape and counts, and a stratified sample of its labels
(fixed seed) is labelled again; ``tests/data/make_threat_positions.py`` remakes the whole file.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from plyground.core.run_many import run_many
from plyground.kinrow.board import O, State, X
from tests.naive import kinrow as naive
from tests.naive import threats

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "gomoku_threats.jsonl"
FIELDS = ["board", "to_move", "kind", "depth", "vcf_depth", "vct_depth", "vcf_limit", "vct_limit", "moves"]
CORNERS = ("a1", "o1", "a15", "o15", "a8", "o8")  # far from the stones of the tests: they touch nothing


def position(x: str, o: str, *, n: int = 15) -> State:
    """The position with X's stones on the cells named in ``x`` and O's in ``o`` (``"h8 i8"``); O's list is
    filled up from far corners to give X as many stones (X to move), or one more if it ends with ``+``."""
    xs, os_ = x.split(), o.split()
    extra = os_[-1] == "+" if os_ else False
    os_ = [name for name in os_ if name != "+"]
    empty = State(n, 5)
    padding = [c for c in CORNERS if c not in xs + os_]
    os_ += padding[: len(xs) - len(os_) - extra]
    grid = ["."] * (n * n)
    for names, symbol in ((xs, "X"), (os_, "O")):
        for name in names:
            grid[empty.parse_move(name)] = symbol
    return State.parse("/".join("".join(grid[r * n : (r + 1) * n]) for r in range(n)), 5)


def moves(state: State, depth: int, *, vct: bool) -> list[str]:
    return sorted(threats.names(state, threats.winning_moves(state, depth, vct=vct)))


# -- the brute force on hand-made positions ------------------------------------------------------------------------


def test_four_with_an_open_end_is_a_vcf_of_depth_1() -> None:
    state = position("h8 i8 j8 k8", "g8")  # O closes the left end: l8 makes five
    assert threats.vcf_depth(state, 7) == 1
    assert threats.vct_depth(state, 3) == 1
    assert moves(state, 1, vct=False) == ["l8"]


def test_an_overline_wins_in_free_style() -> None:
    state = position("f8 g8 h8 j8 k8", "e8 l8")  # i8 makes six in a row
    assert threats.vcf_depth(state, 7) == 1
    assert moves(state, 1, vct=False) == ["i8"]


def test_an_open_three_to_move_is_a_vcf_of_depth_2() -> None:
    # g8 or k8 makes a straight four (two five cells); f8 and l8 make fours with one five cell only.
    state = position("h8 i8 j8", "")
    assert threats.vcf_depth(state, 7) == 2
    assert threats.vct_depth(state, 3) == 2
    assert moves(state, 2, vct=False) == ["g8", "k8"]
    assert moves(state, 2, vct=True) == ["g8", "k8"]


def test_a_closed_three_alone_wins_nothing() -> None:
    # k8 and l8 are fours with one five cell each; O blocks it and X has no other line.
    state = position("h8 i8 j8", "g8")
    assert threats.vcf_depth(state, 7) is None
    assert threats.vct_depth(state, 3) is None


def test_two_crossing_twos_are_a_vct_of_depth_3_and_no_vcf() -> None:
    # No window holds three X: no four at all. i8 makes two open threes (g8 h8 i8 and i6 i7 i8) that share
    # no defending cell: whatever O plays, one of them becomes a straight four, then five.
    state = position("g8 h8 i6 i7", "")
    assert threats.vcf_depth(state, 7) is None
    assert threats.vct_depth(state, 3) == 3
    assert moves(state, 3, vct=True) == ["i8"]


def test_one_open_two_is_no_vct_within_three_moves() -> None:
    # A three from two stones is answered at its end; three moves cannot make two five cells then.
    state = position("h8 i8", "")
    assert threats.vct_depth(state, 3) is None


def test_a_four_three_is_a_vcf_of_depth_3() -> None:
    # i8 makes the four f8..i8 (five cell j8, e8 is O's) and the open three i6 i7 i8; O must block j8, then
    # i5 or i9 makes a straight four. No move makes two five cells now, so nothing is faster; j8, the other
    # four, is blocked at i8, which also cuts the column.
    state = position("f8 g8 h8 i6 i7", "e8")
    assert threats.vcf_depth(state, 7) == 3
    assert threats.vct_depth(state, 3) == 3
    assert moves(state, 3, vct=False) == ["i8"]
    assert "i8" in moves(state, 3, vct=True)


def test_a_block_that_makes_a_four_for_the_defender_stops_the_vcf() -> None:
    # As above, but O's block j8 makes the four j8..j11 (j12 is X's): X must answer j7, which is no four.
    state = position("f8 g8 h8 i6 i7 j12", "e8 j9 j10 j11")
    assert threats.vcf_depth(state, 7) is None


def test_the_attacker_must_block_a_four_and_a_block_that_is_no_threat_ends_the_attack() -> None:
    # X's open three would win in 2, but O's four c3..f3 (b3 is X's) must be blocked at g3, far from X's lines.
    state = position("b3 h8 i8 j8", "c3 d3 e3 f3")
    assert threats.vcf_depth(state, 7) is None
    assert threats.vct_depth(state, 3) is None


def test_a_block_that_is_a_four_goes_on() -> None:
    # The forced block g3 makes the straight four g3..g6 (g2 and g7 free): the five follows.
    state = position("b3 g4 g5 g6", "c3 d3 e3 f3")
    assert threats.vcf_depth(state, 7) == 2
    assert threats.vct_depth(state, 3) == 2
    assert moves(state, 2, vct=False) == ["g3"]


def test_the_attackers_five_comes_before_the_defenders() -> None:
    state = position("h8 i8 j8 k8 b3", "g8 c3 d3 e3 f3")  # both have a five cell; X moves first
    assert threats.vcf_depth(state, 7) == 1


def test_a_defender_with_two_five_cells_wins() -> None:
    state = position("h8 i8 j8 a3", "c3 d3 e3 f3")  # O's straight four b3..g3 beats X's open three
    assert threats.vcf_depth(state, 7) is None
    assert threats.vct_depth(state, 3) is None


def test_o_attacks_when_o_is_to_move() -> None:
    state = position("a1 a3 a5 a7", "h8 i8 j8 +")  # X has one more stone: O to move, with an open three
    assert state.to_move == O
    assert threats.vcf_depth(state, 7) == 2


def test_a_depth_limit_below_the_win_finds_none() -> None:
    state = position("f8 g8 h8 i6 i7", "e8")
    assert threats.vcf_depth(state, 2) is None
    assert threats.vcf_depth(state, 3) == 3


# -- the brute force against a plain game-tree search on small boards ----------------------------------------------


def _makes_line(board: list[int], n: int, k: int, move: int, player: int) -> bool:
    """Whether a ``player`` stone on ``move`` has k or more in a row: it counts his stones each way from it."""
    r0, c0 = divmod(move, n)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < n and 0 <= c < n and board[r * n + c] == player:
                count, r, c = count + 1, r + sign * dr, c + sign * dc
        if count >= k:
            return True
    return False


@functools.cache
def _plain_win(cells: tuple[int, ...], n: int, k: int, attacker: int, depth: int, fours_only: bool) -> bool:
    """Whether ``attacker`` (to move) wins within ``depth`` moves against every defence, trying every empty
    cell for both players (``fours_only``: the attacker's moves but the last are moves after which he could
    make k in a row; that is a VCF); the defender wins by making k in a row first."""
    defender = 3 - attacker
    empties = [i for i, v in enumerate(cells) if v == 0]
    if any(_makes_line(list(cells), n, k, m, attacker) for m in empties):
        return True
    if depth == 1:
        return False
    for move in empties:
        board = list(cells)
        board[move] = attacker
        after = [i for i in empties if i != move]
        if fours_only and not any(_makes_line(board, n, k, f, attacker) for f in after):
            continue
        if not after:
            continue
        won = True
        for reply in after:
            if _makes_line(board, n, k, reply, defender):
                won = False
                break
            board[reply] = defender
            won = _plain_win(tuple(board), n, k, attacker, depth - 1, fours_only)
            board[reply] = 0
            if not won:
                break
        if won:
            return True
    return False


def _plain_depth(state: State, max_depth: int, *, fours_only: bool) -> int | None:
    cells = tuple(int(v) for v in state.cells)
    return next(
        (d for d in range(1, max_depth + 1) if _plain_win(cells, state.n, state.k, state.to_move, d, fours_only)),
        None,
    )


def _random_position(rng: random.Random, n: int, k: int, stones: int) -> State | None:
    cells = [0] * (n * n)
    for i in range(stones):
        player = X if i % 2 == 0 else O
        free = [c for c in range(n * n) if cells[c] == 0 and not naive.wins_at(cells, n, k, c, player)]
        cells[rng.choice(free)] = player
    state = State.parse("/".join("".join(".XO"[v] for v in cells[r * n : (r + 1) * n]) for r in range(n)), k)
    return None if len(state.winning_moves(3 - state.to_move)) >= 2 else state


def test_depths_match_a_plain_game_tree_search() -> None:
    """At depth 3 or less a VCT is the fastest forced win (see tests/naive/threats.py): the plain search, which
    knows no threats, must give the same depths; with the attacker held to fours it must give the VCF depths."""
    found: Counter[tuple[int | None, int | None]] = Counter()
    for n, k, stones, seed in [(6, 4, 8, 9), (6, 4, 10, 9), (6, 4, 10, 10), (7, 5, 20, 3)]:
        rng = random.Random(seed)
        for _ in range(20):
            state = _random_position(rng, n, k, stones)
            if state is None:
                continue
            vcf, vct = threats.vcf_depth(state, 4), threats.vct_depth(state, 3)
            assert vcf == _plain_depth(state, 4, fours_only=True), state.to_text()
            assert vct == _plain_depth(state, 3, fours_only=False), state.to_text()
            found[vcf, vct] += 1
    # every kind of answer comes up: a VCT without a VCF, VCFs deeper than the VCT limit, no win
    assert {(1, 1), (2, 2), (3, 3), (4, None), (4, 3), (None, 3), (None, None)} <= set(found), found


# -- the fixture ---------------------------------------------------------------------------------------------------


@functools.cache
def fixture() -> list[dict[str, object]]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def test_the_fixture_has_its_fields_and_counts() -> None:
    lines = fixture()
    kinds = Counter(str(line["kind"]) for line in lines)
    assert kinds["vcf"] + kinds["vct"] >= 100 and kinds["vct"] >= 30 and kinds["none"] >= 50, kinds
    vcf_depths = {line["depth"] for line in lines if line["kind"] == "vcf"}
    assert {1, 2, 3, 4, 5} <= vcf_depths, vcf_depths
    boards = set()
    for line in lines:
        assert list(line) == FIELDS, line
        state = State.parse(str(line["board"]), 5)
        assert state.n == 15 and not state.is_over and state.to_text() == line["board"]
        assert line["to_move"] == ("X" if state.to_move == X else "O"), line
        vcf, vct, depth = line["vcf_depth"], line["vct_depth"], line["depth"]
        assert line["vcf_limit"] == 7 and line["vct_limit"] == 3
        if line["kind"] == "vcf":
            assert isinstance(vcf, int) and depth == vcf and 1 <= vcf <= 7
            if vcf <= 3:
                assert vct == vcf, line  # a VCF is a VCT; a VCT shorter than 3 is a VCF
            else:
                assert vct is None or (isinstance(vct, int) and vct == 3), line
        elif line["kind"] == "vct":
            assert vcf is None and depth == vct == 3, line  # a VCT of depth 2 or less is a VCF
        else:
            assert line["kind"] == "none" and vcf is None and vct is None and depth is None, line
        names = line["moves"]
        assert isinstance(names, list) and (bool(names) == (line["kind"] != "none")), line
        for name in names:
            assert state.cells[state.parse_move(str(name))] == 0, line
        boards.add(state.canonical_key)
    assert len(boards) == len(lines)  # no position twice, even up to symmetry


def _sample(per_kind: int, seed: int) -> list[dict[str, object]]:
    """A few positions of every kind and depth, drawn with a fixed seed."""
    groups: dict[tuple[str, object], list[dict[str, object]]] = {}
    for line in fixture():
        groups.setdefault((str(line["kind"]), line["depth"]), []).append(line)
    rng = random.Random(seed)
    return [
        line for key in sorted(groups, key=str) for line in rng.sample(groups[key], min(per_kind, len(groups[key])))
    ]


def check_label(line: dict[str, object]) -> None:
    """Label the position again with the brute force: both depths and the winning first moves."""
    state = State.parse(str(line["board"]), 5)
    vcf_limit, vct_limit = int(str(line["vcf_limit"])), int(str(line["vct_limit"]))
    assert threats.vcf_depth(state, vcf_limit) == line["vcf_depth"], line
    assert threats.vct_depth(state, vct_limit) == line["vct_depth"], line
    if line["kind"] != "none":
        depth = int(str(line["depth"]))
        names = line["moves"]
        assert isinstance(names, list) and moves(state, depth, vct=line["kind"] == "vct") == sorted(names), line


@pytest.mark.parametrize("line", _sample(1, seed=2026), ids=lambda line: f"{line['kind']}{line['depth'] or ''}")
def test_a_sample_of_labels_is_confirmed(line: dict[str, object]) -> None:
    check_label(line)


def test_labels_do_not_change_under_a_symmetry() -> None:
    """The brute force gives the image of a position under a rotation or reflection the same depths."""
    for index, line in enumerate(_sample(1, seed=7)):
        state = State.parse(str(line["board"]), 5)
        grid = str(line["board"]).split("/")
        image = ["".join(row[c] for row in grid) for c in range(15)]  # the transpose
        if index % 2:
            image = [row[::-1] for row in image]  # and a mirror: a rotation by a quarter turn
        turned = State.parse("/".join(image), 5)
        assert turned.canonical_key == state.canonical_key
        assert threats.vcf_depth(turned, 7) == line["vcf_depth"], line
        assert threats.vct_depth(turned, 3) == line["vct_depth"], line


@pytest.mark.slow
def test_every_label_is_confirmed() -> None:
    """The whole file labelled again (about 35 s on one core), on every core: a wrong label fails here."""
    run_many(check_label, fixture())
