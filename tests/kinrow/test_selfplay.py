"""Self-play: one game and its record, seeded matches and their summaries, players that fail."""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from plyground.errors import InvalidInputError
from plyground.kinrow import selfplay
from plyground.kinrow.board import DRAW, O, State, X
from plyground.kinrow.players import FirstLegalPlayer, Player, RandomPlayer, make_player
from plyground.kinrow.selfplay import GameRecord, PlayerError, play_game, play_match, summarize, timed_choice

DRAWN_GAME = (4, 0, 2, 6, 3, 5, 1, 7, 8)  # a full 3x3 board without a line


class Scripted:
    """Plays the moves it is given, in order; counts resets."""

    def __init__(self, moves: list[object], name: str = "scripted") -> None:
        self.moves = list(moves)
        self.name = name
        self.time_ms: float | None = None
        self.resets = 0

    def choose(self, state: State) -> int:
        return self.moves.pop(0)  # type: ignore[return-value]

    def reset(self) -> None:
        self.resets += 1


class Broken:
    name = "broken"
    time_ms: float | None = None

    def choose(self, state: State) -> int:
        raise RuntimeError("out of ideas")

    def reset(self) -> None:
        pass


class Meddler(FirstLegalPlayer):
    """Plays a stone on the position it is given before answering: must not change the game."""

    def choose(self, state: State) -> int:
        move = super().choose(state)
        state.play(state.legal_moves()[-1])
        return move


def test_a_game_records_moves_result_and_times() -> None:
    record = play_game(FirstLegalPlayer(), FirstLegalPlayer(), 3, 3)
    assert record.moves == (0, 1, 2, 3, 4, 5, 6)  # X: a1 c1 b2 a3 on the diagonal
    assert record.result == X
    assert (record.n, record.k, record.x_name, record.o_name) == (3, 3, "first_legal", "first_legal")
    assert len(record.seconds) == 7 and all(s >= 0 for s in record.seconds)
    assert record.x_seconds == record.seconds[0::2] and len(record.x_seconds) == 4
    assert record.o_seconds == record.seconds[1::2] and len(record.o_seconds) == 3
    assert record.state().result == X
    assert record.describe() == "X (first_legal) wins after 7 moves"
    assert record.seed is None


def test_a_drawn_game() -> None:
    x = Scripted(list(DRAWN_GAME[0::2]), "x-script")
    o = Scripted(list(DRAWN_GAME[1::2]), "o-script")
    record = play_game(x, o, 3, 3)
    assert record.moves == DRAWN_GAME
    assert record.result == DRAW
    assert record.describe() == "draw after 9 moves"
    assert (x.resets, o.resets) == (1, 1)


def test_o_can_win() -> None:
    record = play_game(Scripted([0, 1, 8], "x-script"), Scripted([3, 4, 5], "o-script"), 3, 3)
    assert record.result == O
    assert record.describe() == "O (o-script) wins after 6 moves"


def test_on_move_sees_each_position() -> None:
    seen: list[tuple[int, int, tuple[int, ...]]] = []

    def on_move(state: State, move: int, seconds: float) -> None:
        assert seconds >= 0
        seen.append((move, len(state.history), state.history))

    record = play_game(FirstLegalPlayer(), FirstLegalPlayer(), 3, 3, on_move=on_move)
    assert [move for move, _, _ in seen] == list(record.moves)
    assert [count for _, count, _ in seen] == list(range(1, 8))
    assert seen[-1][2] == record.moves


def test_players_get_a_copy_of_the_position() -> None:
    record = play_game(Meddler(), FirstLegalPlayer(), 3, 3)
    assert record.moves == (0, 1, 2, 3, 4, 5, 6)


def test_a_player_that_raises_is_named_in_a_clear_error() -> None:
    with pytest.raises(PlayerError, match=r"^O \(broken\) failed on move 2: RuntimeError: out of ideas$") as info:
        play_game(FirstLegalPlayer(), Broken(), 3, 3)
    assert isinstance(info.value.__cause__, RuntimeError)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (0, r"^O \(scripted\) chose a1 on move 2: the cell is taken$"),
        (9, r"^O \(scripted\) chose 9 on move 2: not a cell of the 3x3 board$"),
        (-1, r"not a cell"),
        (True, r"chose True on move 2: not a cell"),
        ("b2", r"chose 'b2' on move 2: not a cell"),
        (None, r"chose None"),
        (4.0, r"chose 4.0"),
    ],
)
def test_an_illegal_move_is_an_error_not_a_forfeit(answer: object, message: str) -> None:
    with pytest.raises(PlayerError, match=message):
        play_game(FirstLegalPlayer(), Scripted([answer]), 3, 3)


def test_a_numpy_integer_move_is_accepted() -> None:
    move, seconds = timed_choice(Scripted([np.int64(4)]), State(3, 3))
    assert move == 4 and type(move) is int
    assert seconds >= 0


def test_keyboard_interrupt_is_not_wrapped() -> None:
    class Interrupted(Broken):
        def choose(self, state: State) -> int:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play_game(Interrupted(), FirstLegalPlayer(), 3, 3)


def test_bad_boards_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="k must be"):
        play_game(FirstLegalPlayer(), FirstLegalPlayer(), 3, 4)


def random_factory(seed: int) -> Player:
    return RandomPlayer(seed)


def test_a_seeded_match_is_reproducible_and_records_its_seeds() -> None:
    first = play_match(random_factory, random_factory, 4, 5, 4, seed=10)
    again = play_match(random_factory, random_factory, 4, 5, 4, seed=10)
    other = play_match(random_factory, random_factory, 4, 5, 4, seed=11)
    assert [g.moves for g in first.games] == [g.moves for g in again.games]
    assert [g.moves for g in first.games] != [g.moves for g in other.games]
    assert [g.seed for g in first.games] == [10, 11, 12, 13]
    assert [g.moves for g in first.games[1:]] == [g.moves for g in other.games[:3]]  # game i depends on seed + i


def test_players_are_made_from_seed_plus_i_and_games_reported_in_order() -> None:
    made: list[tuple[str, int]] = []
    reported: list[int] = []

    def factory(label: str) -> selfplay.PlayerFactory:
        def make(seed: int) -> Player:
            made.append((label, seed))
            return RandomPlayer(seed)

        return make

    summary = play_match(factory("x"), factory("o"), 3, 4, 3, seed=7, on_game=lambda i, record: reported.append(i))
    assert made == [("x", 7), ("o", 7), ("x", 8), ("o", 8), ("x", 9), ("o", 9)]
    assert reported == [0, 1, 2]
    assert len(summary.games) == 3


def test_an_unseeded_match_still_records_consecutive_seeds() -> None:
    summary = play_match(random_factory, random_factory, 3, 3, 3)
    seeds = [g.seed for g in summary.games]
    assert seeds[0] is not None and seeds == [seeds[0] + i for i in range(3)]
    replay = play_match(random_factory, random_factory, 3, 3, 3, seed=seeds[0])
    assert [g.moves for g in replay.games] == [g.moves for g in summary.games]


def test_the_summary_counts_each_side() -> None:
    summary = play_match(lambda seed: FirstLegalPlayer(), random_factory, 6, 4, 3, seed=0)
    first, second = summary.first, summary.second
    assert (first.name, second.name) == ("first_legal", "random")
    assert first.wins == second.losses and first.losses == second.wins and first.draws == second.draws
    assert first.games == second.games == 6
    assert summary.x_wins == first.wins and summary.o_wins == second.wins
    assert summary.x_wins + summary.o_wins + summary.draws == 6
    assert first.moves == sum(len(g.x_seconds) for g in summary.games)
    assert second.moves == sum(len(g.o_seconds) for g in summary.games)
    assert first.mean_seconds == pytest.approx(sum(sum(g.x_seconds) for g in summary.games) / first.moves)


def test_swapped_players_change_sides_each_game() -> None:
    summary = play_match(lambda seed: FirstLegalPlayer(), random_factory, 4, 4, 3, seed=3, swap=True)
    assert [(g.x_name, g.o_name) for g in summary.games] == [
        ("first_legal", "random"),
        ("random", "first_legal"),
    ] * 2
    assert summary.swap
    assert (summary.first.name, summary.second.name) == ("first_legal", "random")
    assert summary.first.wins == summary.second.losses and summary.first.games == 4
    wins_of_first = sum((g.result == X) == (i % 2 == 0) and g.result != DRAW for i, g in enumerate(summary.games))
    assert summary.first.wins == wins_of_first


def record(result: int, seconds: tuple[float, ...], x: str = "a", o: str = "b") -> GameRecord:
    return GameRecord(3, 3, x, o, tuple(range(len(seconds))), seconds, result)


def test_summarize_by_hand() -> None:
    games = [
        record(X, (1.0, 2.0, 1.0)),  # a (X) wins: a 2 moves 2 s, b 1 move 2 s
        record(O, (3.0, 1.0), "b", "a"),  # swapped: b is X, a (O) wins: a 1 move 1 s, b 1 move 3 s
        record(DRAW, (1.0, 1.0)),
    ]
    summary = summarize(games, swap=True)
    a, b = summary.first, summary.second
    assert (a.name, a.wins, a.draws, a.losses, a.moves, a.seconds) == ("a", 2, 1, 0, 4, 4.0)
    assert (b.name, b.wins, b.draws, b.losses, b.moves, b.seconds) == ("b", 0, 1, 2, 3, 6.0)
    assert a.mean_seconds == 1.0 and b.mean_seconds == 2.0
    assert (summary.x_wins, summary.o_wins, summary.draws) == (1, 1, 1)
    plain = summarize(games[:1])
    assert (plain.first.wins, plain.second.losses, plain.swap) == (1, 1, False)


def test_summaries_need_games() -> None:
    with pytest.raises(InvalidInputError, match="at least one game"):
        summarize([])
    empty = selfplay.SideSummary("p", 0, 0, 0, 0, 0.0)
    assert math.isnan(empty.mean_seconds)


@pytest.mark.parametrize("games", [0, -1, True, 2.0])
def test_a_match_needs_a_positive_number_of_games(games: object) -> None:
    with pytest.raises(InvalidInputError, match="games must be a positive integer"):
        play_match(random_factory, random_factory, games, 3, 3)  # type: ignore[arg-type]


def test_a_bad_board_fails_before_any_player_is_made() -> None:
    made: list[int] = []

    def factory(seed: int) -> Player:
        made.append(seed)
        return RandomPlayer(seed)

    with pytest.raises(InvalidInputError, match="n must be"):
        play_match(factory, factory, 2, 21, 5)
    with pytest.raises(InvalidInputError, match="seed must be non-negative"):
        play_match(factory, factory, 2, 5, 4, seed=-1)
    assert made == []


def test_a_failing_player_stops_the_match_with_its_error() -> None:
    with pytest.raises(PlayerError, match=r"X \(broken\) failed on move 1"):
        play_match(lambda seed: Broken(), random_factory, 3, 3, 3, seed=0)


def test_mcts_matches_are_reproducible_with_a_fixed_iteration_count() -> None:
    pytest.importorskip("plyground.kinrow.mcts")

    def mcts(seed: int) -> Player:
        return make_player("mcts", iterations=100, seed=seed)

    first = play_match(mcts, random_factory, 2, 5, 4, seed=1)
    again = play_match(mcts, random_factory, 2, 5, 4, seed=1)
    assert [g.moves for g in first.games] == [g.moves for g in again.games]
    assert first.first.name == "mcts" and first.first.moves > 0


def test_alphabeta_plays_a_match() -> None:
    pytest.importorskip("plyground.kinrow.alphabeta")
    summary = play_match(lambda seed: make_player("alphabeta", depth=1), random_factory, 2, 4, 3, seed=0)
    assert summary.first.name and summary.first.games == 2
    assert all(g.result in (X, O, DRAW) for g in summary.games)


def test_games_follow_the_rule_and_records_keep_it() -> None:
    from plyground.kinrow.rules import Rule

    summary = play_match(RandomPlayer, RandomPlayer, 3, 9, 5, seed=4, rule="renju")
    for record in summary.games:
        assert record.rule is Rule.RENJU
        replayed = record.state()  # every X move was legal under renju, or this raises
        assert replayed.rule is Rule.RENJU and replayed.result == record.result
    record = play_game(FirstLegalPlayer(), FirstLegalPlayer(), 5, 4, rule=Rule.STANDARD)
    assert record.rule is Rule.STANDARD and record.state().result == record.result


def test_a_forbidden_point_is_a_player_error() -> None:
    from plyground.kinrow.rules import Rule

    class Stubborn:
        name, time_ms = "stubborn", None

        def choose(self, state: State) -> int:
            return state.parse_move("e5")

        def reset(self) -> None:
            pass

    rows = "O.......O/........./....X..../....X..../..XX...../........./........./........./O.......O"
    state = State.parse(rows, 5, rule=Rule.RENJU)
    with pytest.raises(PlayerError, match=r"X \(stubborn\) chose e5 on move 9: forbidden under renju \(double-three\)"):
        timed_choice(Stubborn(), state)
    with pytest.raises(InvalidInputError, match="renju is played with k = 5"):
        play_match(FirstLegalPlayer, FirstLegalPlayer, 1, 9, 4, rule="renju")


# -- the score of a match, and records on disk -------------------------------------------------------


def test_the_score_counts_a_draw_as_half_and_its_elo_follows() -> None:
    from plyground.core.stats import share_interval
    from plyground.kinrow.selfplay import score_of

    even = score_of(3, 4, 3)
    assert even.rate == 0.5 and even.elo == 0.0
    assert even.interval[0] == pytest.approx(1 - even.interval[1])  # symmetric about an even score
    assert even.elo_interval[0] == pytest.approx(-even.elo_interval[1])
    three_to_one = score_of(3, 0, 1)
    assert three_to_one.elo == pytest.approx(400 * math.log10(3))  # 190.85: a 75% score
    assert score_of(2, 2, 1).rate == score_of(6, 0, 4).rate == 0.6
    for wins, games in ((19, 20), (0, 10), (10, 10), (7, 12)):  # without draws: Wilson's interval of a share
        assert score_of(wins, 0, games - wins).interval == pytest.approx(share_interval(wins, games))
    sweep = score_of(10, 0, 0)
    assert sweep.rate == 1 and sweep.interval[1] == 1 and 0.6 < sweep.interval[0] < 1
    assert sweep.elo == math.inf and math.isfinite(sweep.elo_interval[0]) and sweep.elo_interval[1] == math.inf
    assert sweep.to_json()["elo"] is None and sweep.to_json()["elo_interval"][1] is None
    assert "Elo +inf" in sweep.text()
    narrow, wide = score_of(60, 20, 20), score_of(6, 2, 2)  # the same share: more games, a narrower interval
    assert narrow.rate == wide.rate and narrow.interval[1] - narrow.interval[0] < wide.interval[1] - wide.interval[0]
    for bad in ((0, 0, 0), (-1, 2, 3), (1.5, 0, 0), (True, 0, 0)):
        with pytest.raises(InvalidInputError):
            score_of(*bad)  # type: ignore[arg-type]


def test_a_summary_scores_the_first_player_whatever_its_side() -> None:
    summary = summarize([record(X, (1.0,)), record(O, (1.0,)), record(DRAW, (1.0,))], swap=True)
    assert (summary.first.wins, summary.first.draws, summary.first.losses) == (2, 1, 0)  # won as X, then as O
    assert summary.score.rate == pytest.approx(5 / 6)


def test_a_record_is_saved_and_loaded_whole(tmp_path: Path) -> None:
    game = replace(play_game(RandomPlayer(1), RandomPlayer(2), 7, 4, rule="standard"), seed=12)
    path = tmp_path / "game.json"
    game.save(path)
    assert GameRecord.load(path) == game
    assert not [name for name in os.listdir(tmp_path) if name != "game.json"]  # nothing left half-written


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"moves": ["a1", "a1"]}, "not a game record: cell a1 is taken"),
        ({"result": "X"}, "the moves do not give its result"),
        ({"seconds": [0.1]}, "the moves do not give its result and times"),
        ({"rule": "gomoku"}, "unknown rule 'gomoku'"),
        ({"seed": "7"}, "seed '7'"),
        ({"version": 2}, "written by a newer plyground"),
        ({"format": "plyground.g2048.replay"}, "not a k-in-a-row game record"),
    ],
)
def test_a_damaged_record_is_refused_in_one_line(tmp_path: Path, change: dict[str, object], message: str) -> None:
    from plyground.errors import CorruptFileError

    game = GameRecord(3, 3, "a", "b", DRAWN_GAME, (0.5,) * 9, DRAW, seed=7)
    path = tmp_path / "game.json"
    game.save(path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, **change}))
    with pytest.raises(CorruptFileError, match=f"^{path}: .*{re.escape(message)}"):
        GameRecord.load(path)


def test_the_match_for_scripts() -> None:
    from plyground.kinrow.selfplay import games_csv, match_json

    def first_legal(seed: int) -> Player:
        return FirstLegalPlayer()

    summary = play_match(RandomPlayer, first_legal, 4, 5, 4, seed=3, swap=True)
    data = match_json(summary)
    assert (data["n"], data["k"], data["rule"], data["swap"], data["games"]) == (5, 4, "freestyle", True, 4)
    assert data["first"]["name"] == "random" and data["second"]["name"] == "first_legal"
    assert [data["first"][key] for key in ("wins", "draws", "losses")] == [
        summary.first.wins,
        summary.first.draws,
        summary.first.losses,
    ]
    assert data["score"] == summary.score.to_json()
    assert [game["seed"] for game in data["results"]] == [3, 4, 5, 6]
    assert [game["x"] for game in data["results"]] == ["random", "first_legal"] * 2  # sides change
    assert [game["result"] for game in data["results"]] == [
        {X: "X", O: "O", DRAW: "draw"}[g.result] for g in summary.games
    ]
    json.dumps(data, allow_nan=False)  # plain JSON: no NaN, no infinity
    lines = games_csv(summary).splitlines()
    assert lines[0] == "game,seed,x,o,result,moves,x_ms_per_move,o_ms_per_move" and len(lines) == 5
    assert [line.split(",")[:6] for line in lines[1:]] == [
        [str(g["game"]), str(g["seed"]), g["x"], g["o"], g["result"], str(g["moves"])] for g in data["results"]
    ]
