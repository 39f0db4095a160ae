"""Game: seeded reproducibility, undo, the won flag, replays and saved games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plyground.errors import (
    CorruptFileError,
    GameOverError,
    IllegalMoveError,
    InvalidInputError,
    NothingToUndoError,
)
from plyground.g2048 import DIRECTIONS, Board, Game, Replay


def _play(game: Game, n: int, policy: int = 0) -> None:
    """Play ``n`` moves with a fixed preference order (rotated by ``policy``)."""
    order = DIRECTIONS[policy:] + DIRECTIONS[:policy]
    for _ in range(n):
        legal = game.board.legal_moves()
        if not legal:
            return
        game.step(next(d for d in order if d in legal))


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 3), (4, 3), (4, 4)])
def test_start_has_two_tiles(rows: int, cols: int) -> None:
    game = Game(rows, cols, seed=3)
    assert game.board.shape == (rows, cols)
    assert len(game.board.empty_cells()) == rows * cols - 2
    assert game.score == 0 and game.move_count == 0 and not game.won


def test_same_seed_same_game() -> None:
    a, b = Game(seed=42), Game(seed=42)
    _play(a, 200, policy=1)
    _play(b, 200, policy=1)
    assert a.board == b.board and a.score == b.score and a.move_count == b.move_count
    c = Game(seed=43)
    _play(c, 200, policy=1)
    assert c.replay.moves != a.replay.moves


def test_score_is_sum_of_move_points() -> None:
    game = Game(seed=5)
    total = 0
    for _ in range(100):
        legal = game.board.legal_moves()
        before = game.board
        points = game.step(legal[-1])
        expected_board, expected_points = before.move(legal[-1])
        assert points == expected_points
        assert game.board.tile_sum() - expected_board.tile_sum() in (2, 4)
        total += points
    assert game.score == total > 0


def test_undo_restores_board_and_score() -> None:
    game = Game(seed=9)
    _play(game, 30)
    snapshots = [(game.board, game.score)]
    for _ in range(5):
        game.step(game.board.legal_moves()[0])
        snapshots.append((game.board, game.score))
    for expected in reversed(snapshots[:-1]):
        game.undo()
        assert (game.board, game.score) == expected
    assert game.move_count == 30
    fresh = Game(seed=1)
    with pytest.raises(NothingToUndoError):
        fresh.undo()


def test_illegal_and_finished_moves_are_errors() -> None:
    game = Game(2, 2, seed=0)
    while not game.over:
        legal = game.board.legal_moves()
        illegal = [d for d in DIRECTIONS if d not in legal]
        if illegal:
            before = (game.board, game.score, game.move_count)
            with pytest.raises(IllegalMoveError, match=repr(illegal[0])):
                game.step(illegal[0])
            assert (game.board, game.score, game.move_count) == before  # nothing spawned
        game.step(legal[0])
    with pytest.raises(GameOverError):
        game.step("up")


def test_won_at_2048_and_play_continues() -> None:
    game = Game(seed=1)
    game._board = Board.parse("1024 1024 0 0/0 0 0 0/0 0 0 2/0 0 0 0")  # a position one merge from 2048
    assert not game.won
    game.step("left")
    assert game.won and game.board.max_tile() == 2048 and not game.over
    game.step(game.board.legal_moves()[0])
    assert game.won


@pytest.mark.parametrize(("rows", "cols", "p_four"), [(4, 4, 0.1), (3, 3, 0.5), (2, 4, 0.0)])
def test_replay_round_trip(tmp_path: Path, rows: int, cols: int, p_four: float) -> None:
    game = Game(rows, cols, seed=11, p_four=p_four)
    _play(game, 500, policy=2)
    path = tmp_path / "game.json"
    game.replay.save(path)
    replayed = Replay.load(path).play()
    assert replayed.board == game.board and replayed.score == game.score
    assert replayed.move_count == game.move_count and replayed.replay == game.replay
    # the replay holds the seed: the same seed and moves give the same spawns
    again = Game(rows, cols, seed=11, p_four=p_four)
    for move, _ in game.replay.moves:
        again.step(move)
    assert again.replay == game.replay


def test_saved_game_resumes_exactly(tmp_path: Path) -> None:
    game = Game(seed=21)
    _play(game, 40)
    path = tmp_path / "save.json"
    game.save(path)
    resumed = Game.load(path)
    assert (resumed.board, resumed.score, resumed.move_count) == (game.board, game.score, game.move_count)
    _play(game, 20, policy=3)
    _play(resumed, 20, policy=3)
    assert resumed.board == game.board  # the generator continues where it was
    resumed.undo()
    game.undo()
    assert resumed.board == game.board


def _replay_dict() -> dict[str, object]:
    game = Game(seed=2)
    _play(game, 10)
    return game.replay.to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(score=d["score"] + 4), "records a score of"),
        (lambda d: d.pop("seed"), "missing \\['seed'\\]"),
        (lambda d: d.update(extra=1), "unknown \\['extra'\\]"),
        (lambda d: d.update(format="chess"), "not a 2048 replay"),
        (lambda d: d.update(version=99), "unsupported replay version 99: written by a newer plyground"),
        (lambda d: d["moves"].__setitem__(0, ["north", 0, 0, 2]), "unknown direction 'north'"),
        (lambda d: d["moves"].__setitem__(0, ["left", 0, 0, 8]), "a spawned tile is 2 or 4"),
        (lambda d: d.update(rows=7), "7x4 board"),
        (lambda d: d.update(p_four=1.5), "p_four"),
        (lambda d: d["start"].pop(), "starts with 2 spawns"),
        (lambda d: d["start"].__setitem__(1, d["start"][0]), "replay start cannot be played.*not empty"),
        (lambda d: d["start"].__setitem__(1, [3, 9, 2]), "outside a 4x4 board"),
    ],
)
def test_corrupt_replays_are_reported(change: object, message: str) -> None:
    data = _replay_dict()
    change(data)  # type: ignore[operator]
    with pytest.raises(CorruptFileError, match=message):
        Replay.from_json(json.dumps(data)).play()


def test_corrupt_files(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"replay": ')
    with pytest.raises(CorruptFileError, match="not valid JSON") as info:
        Game.load(path)
    assert str(info.value).count(str(path)) == 1  # the file named once
    with pytest.raises(CorruptFileError, match="not valid JSON") as info:
        Replay.load(path)
    assert str(info.value).count(str(path)) == 1
    path.write_text('{"replay": {}, "rng": {}}')
    with pytest.raises(CorruptFileError, match=r"broken\.json") as info:
        Game.load(path)
    assert str(info.value).count(str(path)) == 1


def test_bad_parameters() -> None:
    with pytest.raises(InvalidInputError, match="p_four"):
        Game(p_four=-0.1)
    with pytest.raises(InvalidInputError, match="seed"):
        Game(seed=-1)
    with pytest.raises(InvalidInputError, match="5x4 board"):
        Game(5, 4)
