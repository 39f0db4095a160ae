"""Game: seeded reproducibility, undo, the won flag, replays and saved games."""

from __future__ import annotations

import json
import random
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
from plyground.g2048.game import replay_of
from tests.g2048.positions import game_at
from tests.naive.game_2048 import NaiveGame


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
    game = game_at(Board.parse("1024 1024 0 0/0 0 0 0/0 0 0 2/0 0 0 0"), seed=1)  # one merge from 2048
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


LONG_REPLAY = Path(__file__).parents[1] / "data" / "replay_4x4_long.json"


def test_a_long_replay_is_saved_compactly_a_move_a_line(tmp_path: Path) -> None:
    replay = Replay.load(LONG_REPLAY)
    assert len(replay.moves) == 8217
    path = tmp_path / "game.json"
    replay.save(path)
    indented = json.dumps(replay.to_dict(), indent=1)  # how replays were written before: a number a line
    size = path.stat().st_size
    assert size < 18 * len(replay.moves) + 400 and size < len(indented) / 2  # 145 KB, was 301 KB
    lines = path.read_text().splitlines()
    assert len(lines) == len(replay.moves) + 12
    assert lines[9] == f"  {json.dumps([replay.moves[0][0], *replay.moves[0][1].to_list()], separators=(',', ':'))},"
    assert Replay.load(path) == replay  # the round trip is exact
    assert Replay.load(path).play().board == replay.play().board


def test_replays_and_games_in_the_old_indented_form_still_load(tmp_path: Path) -> None:
    game = Game(seed=5)
    _play(game, 120)
    old_replay, old_game = tmp_path / "replay.json", tmp_path / "game.json"
    old_replay.write_text(json.dumps(game.replay.to_dict(), indent=1) + "\n")
    old_game.write_text(json.dumps(game.to_dict(), indent=1) + "\n")
    assert len(old_replay.read_text().splitlines()) > 5 * game.move_count  # really the old form
    assert Replay.load(old_replay) == game.replay
    resumed = Game.load(old_game)
    assert (resumed.board, resumed.score, resumed.replay) == (game.board, game.score, game.replay)
    _play(resumed, 10, policy=3)
    _play(game, 10, policy=3)
    assert resumed.board == game.board


def test_a_saved_game_is_compact_and_resumes_identically(tmp_path: Path) -> None:
    game = Game(seed=8)
    _play(game, 300)
    path = tmp_path / "save.json"
    game.save(path)
    assert path.stat().st_size < len(json.dumps(game.to_dict(), indent=1)) / 2
    assert len(path.read_text().splitlines()) < game.move_count + 40
    resumed = Game.load(path)
    assert resumed.to_dict() == game.to_dict()


def test_a_file_error_names_the_path_once(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    for load in (Replay.load, Game.load):
        with pytest.raises(CorruptFileError) as error:
            load(path)
        assert str(error.value).count(str(path)) == 1 and "not valid JSON" in str(error.value)
    path.write_text('{"format": "chess"}')
    with pytest.raises(CorruptFileError) as error:
        Replay.load(path)
    assert str(error.value) == f"{path}: not a 2048 replay: expected format 'plyground.g2048.replay', got 'chess'"


@pytest.mark.parametrize("spelling", ["{folder}//broken.json", "{folder}/./broken.json"])
def test_a_path_spelt_another_way_is_named_once_too(tmp_path: Path, spelling: str) -> None:
    (tmp_path / "broken.json").write_text("{not json")
    path = spelling.format(folder=tmp_path)  # read_json names it as Path spells it
    for load in (Replay.load, Game.load):
        with pytest.raises(CorruptFileError) as error:
            load(path)
        assert str(error.value).count("broken.json") == 1 and "not valid JSON" in str(error.value), error.value


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


def test_a_replay_without_its_two_starting_spawns_cannot_be_played() -> None:
    with pytest.raises(CorruptFileError, match="a replay starts with 2 spawns, this one has 0"):
        Replay().play()


def test_a_seed_gives_the_game_it_always_gave() -> None:
    game = Game(3, 3, seed=2026, p_four=0.25)
    for i in range(10):
        legal = game.board.legal_moves()
        game.step(legal[i % len(legal)])
        if i == 5:
            game.undo()  # the generator is not rewound: the next spawn is the next draw
    data = game.replay.to_dict()
    assert data["start"] == [[2, 1, 2], [0, 1, 2]]
    assert data["moves"] == [
        ["up", 0, 0, 2], ["down", 0, 2, 2], ["down", 1, 1, 4], ["left", 1, 2, 2], ["up", 1, 1, 2],
        ["right", 1, 0, 2], ["left", 2, 1, 2], ["left", 2, 1, 2], ["right", 2, 1, 2],
    ]  # fmt: skip
    assert (data["score"], game.board.to_text(), game.move_count) == (24, "0 4 8/0 2 4/0 2 4", 9)
    naive = NaiveGame(3, 3, 2026, 0.25)
    for i in range(10):
        legal = naive.legal_moves()
        naive.step(legal[i % len(legal)])
        if i == 5:
            naive.undo()
    assert [list(spawn) for spawn in naive.start] == data["start"]
    assert [[move, *spawn] for move, spawn in naive.moves] == data["moves"]


@pytest.mark.parametrize(
    ("rows", "cols", "p_four"), [(2, 2, 0.1), (2, 2, 1.0), (3, 3, 0.1), (4, 4, 0.1), (2, 4, 0.5), (2, 4, 0.0)]
)
def test_games_with_random_moves_and_undos_match_the_naive_game(rows: int, cols: int, p_four: float) -> None:
    chooser = random.Random(100 * rows + cols)
    for seed in range(10):
        game, naive = Game(rows, cols, seed=seed, p_four=p_four), NaiveGame(rows, cols, seed, p_four)
        assert [spawn.to_list() for spawn in game.replay.start] == [list(spawn) for spawn in naive.start]
        for _ in range(400):
            if naive.over():
                break
            choice = chooser.random()
            if choice < 0.15 and naive.moves:
                game.undo()
                naive.undo()
            elif choice < 0.2:  # saved and resumed: the same game goes on
                game = Game.from_dict(json.loads(json.dumps(game.to_dict())))
            else:
                direction = chooser.choice(naive.legal_moves())
                assert game.step(direction) == naive.step(direction)
                move, spawn = game.replay.moves[-1]
                assert (move, *spawn.to_list()) == (direction, *naive.moves[-1][1])
            assert (game.board.to_rows(), game.score, game.move_count) == (naive.grid, naive.score, len(naive.moves))
            assert game.board.legal_moves() == naive.legal_moves()
        assert game.over == naive.over()
        replay = game.replay
        assert [(move, tuple(spawn.to_list())) for move, spawn in replay.moves] == naive.moves
        state = game.state
        assert (state.board, state.score, state.move_count) == (game.board, game.score, game.move_count)
        assert replay_of(state.history, rows=rows, cols=cols, p_four=p_four, seed=seed, score=game.score) == replay
        state.undo_action()  # a copy: the game stays where it is
        assert game.board.to_rows() == naive.grid and len(game.state.history) == len(state.history) + 1
        assert replay.play().board == game.board


@pytest.mark.parametrize(("p_four", "tile"), [(0.0, 4), (1.0, 2)])
def test_a_replay_with_a_spawn_its_p_four_never_makes_is_corrupt(p_four: float, tile: int) -> None:
    game = Game(2, 3, seed=4, p_four=p_four)
    _play(game, 3)
    data = game.replay.to_dict()
    data["moves"][1][3] = tile
    with pytest.raises(CorruptFileError, match=f"replay move 2 .* a {tile} never spawns when p_four is {p_four}"):
        Replay.from_dict(data).play()
    data = game.replay.to_dict()
    data["start"][0][2] = tile
    with pytest.raises(CorruptFileError, match=f"replay start cannot be played: a {tile} never spawns"):
        Replay.from_dict(data).play()
