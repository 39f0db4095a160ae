"""Every benchmark script runs end to end at its smallest settings and ends with its JSON line.

Nothing else in the test-suite runs the scripts, so a change of the library that breaks one
(a script reading a name that is gone) would go unseen until its next run. Each runs here in a subprocess,
from a temporary folder, with settings that take a second or so: tiny boards (2x2, 2x3),
one game, a tenth of a second of training, networks of two 2-tuples and a 2x3 solution made
here. The measurements mean nothing at these sizes; what is checked is that the script
exits 0, prints its JSON line last and appends that line, and only it, to ``--results``.

The native C baseline (``../shared/bench/native2048.c``) is kept out of the main runs, as on
a machine without it; the runs with it are skipped where it (or a C compiler) is missing.
"""

from __future__ import annotations

import ast
import json
import math
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from plyground.core.measurements import NO_RECORD_ENV
from plyground.g2048 import Board
from plyground.g2048.registry import load_evaluator
from tests.benchmarks import BENCHMARKS, EXPERIMENTS, RECIPES, load_common, load_script, script_path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 300
"""A script taking longer hangs: at these settings each takes seconds (minutes only where the
numba cache is empty and its kernels compile)."""


common = load_common()


@dataclass(frozen=True)
class Data:
    """What the scripts are given, made once for the module."""

    network_4x4: Path
    """A 4x4 network of two 2-tuples (512 weights), trained for a few games."""
    network_2x3: Path
    solutions: Path
    """A folder with the 2x3 solution in ``2x3/``."""
    run: Path
    """A 2x4 training run folder with a learning curve of three rows."""
    replay: Path
    """A game of ``network_4x4`` searching one move deep (its greedy game), as a replay."""


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Data:
    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.game import Game
    from plyground.g2048.ntuple import LearnSettings, NTupleNetwork, TrainingRun
    from plyground.g2048.solver import solve

    folder = tmp_path_factory.mktemp("benchmark-data")
    pairs = (((0, 0), (0, 1)), ((1, 0), (1, 1)))
    paths = []
    for rows, cols in ((4, 4), (2, 3)):
        network = NTupleNetwork(rows, cols, pairs, seed=1)
        network.learn(20, alpha=0.1)
        paths.append(folder / f"network-{rows}x{cols}.npz")
        network.save(paths[-1])
    solve(2, 3, directory=folder / "solutions" / "2x3")
    TrainingRun(folder / "run", LearnSettings(rows=2, cols=4, seed=1, report_games=50)).run(games=150)
    game = Game(seed=3)
    with Expectimax(depth=1, workers=1, evaluator=load_evaluator(f"ntuple:{paths[0]}")) as ai:
        while not game.over:
            game.step(ai.choose(game.board).move)
    game.replay.save(folder / "replay.json")
    return Data(paths[0], paths[1], folder / "solutions", folder / "run", folder / "replay.json")


@dataclass(frozen=True)
class Script:
    """A benchmark script, the arguments of its smallest run, and a check of what that run printed."""

    file: str
    name: str
    """The ``benchmark`` of its JSON line (and its result file's name)."""
    args: Callable[[Data, Path], list[str]]
    """The arguments, given the module's data and the test's own folder."""
    check: Callable[[dict[str, Any], str, Path], None]
    """Checks of the JSON line, of all the standard output and of the test's folder."""


def _check_alphabeta(line: dict[str, Any], stdout: str, folder: Path) -> None:
    [match] = line["matches"]
    assert (match["n"], match["k"], match["depth"], line["games"]) == (7, 6, 1, 2)
    for side in ("mcts", "alphabeta"):
        assert match[side]["wins"] + match[side]["draws"] + match[side]["losses"] == 2
    assert match["mcts"]["wins"] == match["alphabeta"]["losses"] and 0 <= match["score"]["rate"] <= 1
    assert "MCTS against alpha-beta" in stdout


def _no_native(value: Any) -> None:
    assert value is None, "the native baseline ran, though its source is missing"


def _check_engine(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert set(line["moves_per_s"]) == {"numba", "naive_Python"}
    assert set(line["small_boards_moves_per_s"]) == {"2x2", "3x3", "3x4"}
    _no_native(line["numba_vs_native"])
    assert "native baseline skipped" in stdout


def _check_search(line: dict[str, Any], stdout: str, folder: Path) -> None:
    [row] = line["rows"]
    assert row["depth"] == 2 and row["evals_per_s"] > 0 and row["seconds_2_cores"] > 0 and row["root_split_bound"] > 0
    assert row["at_once_bound"] > 0
    _no_native(row["native_seconds"])
    [network] = line["network_rows"]
    assert network["depth"] == 2 and network["evaluations"] > 0 and network["time_vs_heuristic"] > 0
    assert line["network"].endswith("network-4x4.npz") and "against the heuristic" in stdout


def _check_pack(line: dict[str, Any], stdout: str, folder: Path) -> None:
    row, pruned = line["rows"]
    assert line["touched"] > 0 and row["step"] == 1.0 and row["bytes"] > 0 and row["max_error"] <= 0.5
    assert 0.0 <= row["agreement"] <= 1.0 and row["positions"] > 0 and row["greedy"]["games"] == 2
    assert (row["prune"], pruned["prune"], pruned["step"]) == (0.0, 1.0, 1.0)
    assert row["kept"] == line["touched"] > pruned["kept"] > 0
    assert 0.5 < pruned["max_error"] < 1.0 and pruned["greedy"]["games"] == 2
    for searched in (row["searched"], pruned["searched"]):
        assert (searched["depth"], searched["positions"]) == (2, 6)
        assert 0.0 <= searched["same"] <= 1.0 and searched["loss"] >= 0.0
        assert searched["same"] < 1.0 or searched["loss"] == 0.0
    assert "same move" in stdout and "weights kept" in stdout and "expectimax 2 deep" in stdout


def _check_versus(line: dict[str, Any], stdout: str, folder: Path) -> None:
    # The same network on both sides: the same games, seed by seed.
    assert line["games"] == 3 and line["checksums"]["candidate"] == line["checksums"]["baseline"]
    assert line["candidate"] == line["baseline"] and line["candidate"]["mean"] > 0
    assert (line["difference"], line["ratio"], line["targets"]) == (0.0, 1.0, {"candidate better": False})
    assert "target the candidate is better: NOT met" in stdout


def _check_strength(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["rows"], line["cols"], line["games"], line["interrupted"]) == (2, 2, 1, False)
    assert line["targets_met"] is False and not any(line["targets"].values())  # a 2x2 board holds no 4096
    assert [path.name for path in (folder / "replays").iterdir()] == ["2048-2x2-seed1.json"]


def _check_solver(line: dict[str, Any], stdout: str, folder: Path) -> None:
    [row] = line["rows"]
    assert row["size"] == "2x2" and row["expected_score"] > 0 and row["elias_fano"] > 0
    assert line["published_4x3"]["max_age"] == 20 and line["published_4x3"]["matches_published"] is True


def _check_shard_codec(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert line["rows"] == 2 and line["cols"] == 2 and line["layers"]
    assert 0 < line["median_codec_bits"] < 64 and line["encode_per_s"]["cpu"] > 0


def _check_shard_solver(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert [(row["size"], row["shards"], row["same_hash"]) for row in line["exactness"]] == [
        ("2x2", 1, True),
        ("2x2", 3, True),
    ]
    forward = line["forward_4x3"]
    assert forward["matches_published"] and forward["max_age"] == 24 and forward["ages_measured"] == 11
    assert forward["states"] == forward["states_measured"]  # no stop cut an age
    assert forward["states_per_s_per_worker_late"] > 0 and forward["sent_bytes_per_state_late"] > 0
    assert forward["peak_rss_bytes"] > 0 and line["projection"]["forward_days"] > 0
    assert len((folder / "4x3" / "forward-costs.jsonl").read_text().splitlines()) == 11
    assert not list((folder / "tmp").glob("plyground-shard-bench-*"))  # its solves' folders are removed


def _check_regret(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert [(row["size"], row["player"]) for row in line["rows"]] == [("2x3", "expectimax"), ("2x3", "random")]


def _check_kinrow(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert len(line["iterations"]) == 3 and len(line["matches"]) == 3 and len(line["patterns"]) == 2
    assert line["table_sizes"]["with_symmetry"] < line["table_sizes"]["without_symmetry"]


def _check_pbrain(line: dict[str, Any], stdout: str, folder: Path) -> None:
    [row] = line["rows"]
    assert (row["timeout_turn"], row["moves"], row["late"], line["busy_loops"]) == (100, 2, 0, 0)
    assert line["start_ms"] > 0 and row["worst_ms"] < 100


def _check_ntuple(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert line["trained_games"] > 20 and line["greedy_games"] == 2 and line["network"].endswith("network-4x4.npz")
    _no_native(line["native_random_moves_per_s"])
    assert "native yardstick skipped" in stdout


def _check_curve(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert [row["games"] for row in line["rows"]] == [50, 100, 150]
    assert {"reach_256", "reach_512"} <= set(line["rows"][0])  # the tiles a 2x4 board holds, from 256


def _check_workers(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert line["one_worker_moves_per_s"] > 0 and line["many_workers_moves_per_s"] > 0


def _small_table(folder: Path) -> Path:
    """A folder ``folder/tables`` with one small table built into it (a 4x4 formation, for 8)."""
    from plyground.g2048.tablebase import Formation, save_tablebase, solve_formation, table_name

    formation = Formation.parse("xxxx/xxxx/...T/....")
    save_tablebase(solve_formation(formation, 8), folder / "tables" / table_name(formation, 8, 0.1))
    return folder / "tables"


def _small_tables(folder: Path) -> list[str]:
    """The arguments of a quick run of tables_blind.py, with a small table built into ``folder``."""
    return ["--tables", str(_small_table(folder)), "--games", "2", "--time-ms", "1", "--max-moves", "30"]


def _check_tables_blind(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert line["tables"] == ["xxxx-xxxx-...T-...._T8_p0.1"] and line["games"] == 2 and line["max_moves"] == 30
    for side in ("with", "without"):
        assert [game["seed"] for game in line[side]["games"]] == [1, 2]
        assert all(game["moves"] == 30 and game["score"] > 0 for game in line[side]["games"])
    assert all(game["table_moves"] == 0 for game in line["without"]["games"])


def _positions_args(folder: Path, games: int = 2) -> list[str]:
    return ["--out", str(folder / "positions.jsonl"), "--tile", "64", "--games", str(games), "--time-ms", "1",
            "--workers", "1"]  # fmt: skip


def _check_positions(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["tile"], line["played"], line["positions"], line["seeds"]) == (64, 2, 2, [1, 2])
    saved = [json.loads(text) for text in (folder / "positions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [position["seed"] for position in saved] == [1, 2]
    for position in saved:
        board = Board.parse(position["board"])
        assert board.max_tile() == 64 and position["move"] > 0 and position["score"] > 0 and not board.is_terminal()
    again = run_script("endgame_positions.py", _positions_args(folder, games=3), folder)  # only seed 3 is played
    assert again.returncode == 0 and "1 games to play" in again.stderr, again.stderr
    assert (folder / "positions.jsonl").read_text(encoding="utf-8").count("\n") == 3


POSITIONS = ("2 4 8 64/0 2 4 32/0 0 0 2/0 0 0 0", "64 32 8 2/4 2 0 0/2 0 0 0/0 0 0 0")
"""Two boards a 64 was just made on, as endgame_positions.py saves them."""


def _conversion_args(folder: Path) -> list[str]:
    """The arguments of a quick run of conversion.py, once the positions and a small table are written."""
    return ["--positions", str(folder / "positions.jsonl"), "--tablebases", str(folder / "tables"), "--tile", "128",
            "--max-moves", "20", "--time-ms", "1", "--workers", "1", "--log", str(folder / "games.jsonl")]  # fmt: skip


def _conversion_files(folder: Path) -> list[str]:
    """Write :data:`POSITIONS` and a small table into ``folder``; the arguments that play from them."""
    lines = [{"seed": seed, "move": 50, "score": 500, "board": board} for seed, board in enumerate(POSITIONS, 1)]
    (folder / "positions.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    _small_table(folder)
    return _conversion_args(folder)


def _check_conversion(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["positions"], line["tile"], line["stop_at"], line["max_moves"]) == (2, 128, 128, 20)
    assert line["tables"] == ["xxxx-xxxx-...T-...._T8_p0.1"] and set(line["arms"]) == {"search", "tables", "guard"}
    for row in line["arms"].values():
        assert row["games"] == 2 and row["mean_moves"] <= 20 and row["mean_score"] > 500
        assert 0 <= row["made"] <= 2 and 0 <= row["table_move_share"] <= 1
    assert line["arms"]["search"]["table_move_share"] == 0
    assert [(pairs["arm"], pairs["against"], pairs["pairs"]) for pairs in line["paired"]] == [
        ("tables", "search", 2), ("guard", "search", 2)]  # fmt: skip
    for pairs in line["paired"]:
        assert pairs["both"] + pairs["neither"] + pairs["only_arm"] + pairs["only_against"] == 2
    logged = [json.loads(text) for text in (folder / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted((game["arm"], game["position"], game["seed"]) for game in logged) == [
        ("guard", 1, 1),
        ("guard", 2, 1),
        ("search", 1, 1),
        ("search", 2, 1),
        ("tables", 1, 1),
        ("tables", 2, 1),
    ]
    again = run_script("conversion.py", _conversion_args(folder), folder)  # the log holds every game: none is played
    said = " ".join(again.stderr.split())  # the console wraps its lines where they reach its width
    assert again.returncode == 0 and "6 games in" in said and "0 to play" in said, again.stderr


def _coverage_files(folder: Path) -> list[str]:
    """Write :data:`POSITIONS` into ``folder``; the arguments that count two formations on 20 moves of each."""
    lines = [{"seed": seed, "move": 50, "score": 500, "board": board} for seed, board in enumerate(POSITIONS, 1)]
    (folder / "positions.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return ["--positions", str(folder / "positions.jsonl"), "--max-moves", "20", "--time-ms", "1", "--workers", "1",
            "--formations", "xxx./..T./..../....:8", "xxxx/xxxx/...T/....:64"]  # fmt: skip


def _check_coverage(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["positions"], line["max_moves"], line["moves"]) == (2, 20, 40)
    fits = line["formations"]["xxx./..T./..../....:8"]  # the second position's first board: 64 32 8 on top
    assert 1 <= fits["moves"] <= 40 and fits["games"] >= 1 and fits["share"] == fits["moves"] / 40
    assert line["formations"]["xxxx/xxxx/...T/....:64"] == {"games": 0, "moves": 0, "share": 0.0}
    assert "moves it fits" in stdout


def _check_tablebase(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["formation"], line["target"], line["states"]) == ("xx/.T", 16, 16)
    assert line["disk_bytes"] > 16 * 17 and line["build_seconds"] > 0 and line["lookups"] == 50
    assert line["value_us"] > 0 and line["move_values_us"] > 0 and line["advise_us"] > 0
    assert line["workers"] == 2 and line["parallel_build_seconds"] > 0 and line["parallel_same_values"] is True


def _check_expectimax(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["rows"], line["cols"], line["heuristic"]["games"], line["network"]["games"]) == (2, 3, 1, 1)
    games = [json.loads(text) for text in (folder / "games.jsonl").read_text().splitlines()]
    assert sorted(game["evaluator"] for game in games) == ["heuristic", "network"]


def _check_optimal(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert [row["player"] for row in line["rows"]] == ["greedy", "expectimax depth 1"]
    assert line["rows"][0]["trained_games"] == 20
    assert [path.name for path in (folder / "networks").iterdir()] == ["ntuple-2x3.npz"]


def _check_exact_fit(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert [row["player"] for row in line["rows"]] == ["greedy", "expectimax depth 1"]
    assert line["rows"][0]["fit_games"] > 0 and "exact values checked on" in stdout


def _check_gomoku(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["a"], line["b"], line["size"], line["games_played"], line["interrupted"]) == (
        "plyground:random", "plyground:first_legal", 9, 2, False,
    )  # fmt: skip
    assert line["a_wins"] + line["draws"] + line["a_losses"] == 2 and 0 <= line["a_score"] <= 1
    assert [game["a_colour"] for game in line["game_list"]] == ["black", "white"]
    assert line["a_mean_ms"] >= 0 and line["b_max_ms"] >= line["b_mean_ms"]
    assert (folder / "games.txt").read_text(encoding="utf-8").count("[Game ") == 2


def _check_gomoku_engine(line: dict[str, Any], stdout: str, folder: Path) -> None:
    vcf = line["vcf"]
    assert {kind: vcf[kind]["positions"] for kind in vcf} == {"vcf": 78, "vct": 40, "none": 60}
    assert all(entry["agree"] == entry["positions"] for entry in vcf.values())
    search = line["search"]
    assert search["positions"] == 1 and search["engine"]["searches"] == 1 and search["engine"]["nodes_per_s"] > 0
    assert search["engine_plain"]["searches"] == 1 and search["engine_plain"]["nodes_per_s"] > 0


def random_games(folder: Path, games: int = 12) -> Path:
    """A JSON-lines file of random 15x15 games near the centre, played to a five (as ``gomoku_evaluation.py play``
    writes)."""
    import random

    from plyground.kinrow import State

    rng = random.Random(7)
    path = folder / "games.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for _ in range(games):
            state = State(15, 5)
            while not state.is_over:
                near = [m for m in state.legal_moves() if abs(m // 15 - 7) <= 4 and abs(m % 15 - 7) <= 4]
                state.play(rng.choice(near or state.legal_moves()))
            f.write(json.dumps({"stones": 0, "moves": list(state.history), "winner": int(state.result or 0)}) + "\n")
    return path


def _check_eval_fit(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert line["games"] == 12 and line["positions"] >= 100
    assert set(line["log_loss"]) == {"tempo only", "hand-made (scaled)", "fitted"}
    assert len(line["mover"]) == len(line["waiter"]) == 17 and "wrote the weights to" in stdout
    from plyground.kinrow.evaluation import read_feature_weights

    written = read_feature_weights(folder / "fitted.json")  # the recipe writes the data file the package reads
    assert list(written.mover) == line["mover"] and list(written.waiter) == line["waiter"]
    assert (written.tempo_x, written.tempo_o, written.hot) == (line["tempo_x"], line["tempo_o"], line["hot"])


WIN_MOVES = [112, 0, 113, 1, 114, 2]
"""X: h8 i8 j8, an open three to play into an open four; O: a1 b1 c1 far away. X to move wins in 5 plies."""


def win_positions(folder: Path) -> Path:
    """Two positions of the kind ``gomoku_wins.py collect`` writes: X to move, and a forced win."""
    path = folder / "wins.jsonl"
    shifted = [move + 15 for move in WIN_MOVES]  # one row down
    path.write_text(
        "".join(json.dumps({"moves": m, "plies": 5, "move": m[-2] - 1}) + "\n" for m in (WIN_MOVES, shifted))
    )
    return path


def _check_wins(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert line["positions"] == 2 and [row["player"] for row in line["rows"]] == ["engine", "engine, plain"]
    assert all(row["solved"] == 2 and row["mean_s"] >= 0 for row in line["rows"]), line["rows"]


def judged_positions(folder: Path) -> list[str]:
    """``gomoku_positions.py run``'s arguments: two balanced positions (an opening of three stones, and
    the same a row down) and the win of :data:`WIN_MOVES`, the engine judging at 100 ms."""
    opening = [112, 113, 127]
    rows = [{"moves": moves, "value": 0, "move": moves[-1] + 1} for moves in (opening, [m + 15 for m in opening])]
    (folder / "balanced.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    (folder / "wins.jsonl").write_text(json.dumps({"moves": WIN_MOVES, "plies": 5, "move": 111}) + "\n")
    return ["run", "plyground:engine", "plyground:engine --exact-answers", "--time-ms", "30", "--judge-ms", "100",
            "--wins-ms", "300", "--positions", str(folder / "balanced.jsonl"), "--wins", str(folder / "wins.jsonl"),
            "--cache", str(folder / "verdicts.jsonl")]  # fmt: skip


def _check_judged(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["command"], line["judge"], line["judge_ms"]) == ("run", "plyground:engine", 100)
    [row] = line["rows"]
    assert row["player"] == "plyground:engine --exact-answers" and row["positions"] == 2 and row["wins"] == 1
    assert 0 <= row["losing"] <= 2 and 0 <= row["same_as_judge"] <= 2
    assert row["wins_found"] == 1  # the open three to an open four: found in 300 ms
    assert "lose by force" in stdout and "1 of 1 at 300 ms" in " ".join(stdout.split())
    assert (folder / "verdicts.jsonl").read_text(encoding="utf-8").count("\n") == 2  # one a position after a move


TUNING = ["--iterations", "2", "--pairs", "1", "--depth", "1", "--workers", "1", "--seed", "3"]
"""The smallest tuning run: two iterations of two games, each engine one ply deep."""


def _check_tuning(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert (line["command"], line["iterations_done"], line["depth"], line["start"]) == ("run", 2, 1, "shipped")
    import dataclasses

    from plyground.kinrow.evaluation import FITTED

    assert len(line["weights"]["mover"]) == len(line["weights"]["waiter"]) == 17
    assert (line["distance"] < 1) == (line["weights"] == json.loads(json.dumps(dataclasses.asdict(FITTED))))
    state = json.loads((folder / "run" / "state.json").read_text(encoding="utf-8"))
    assert state["iteration"] == 2 and state["n"] == 1  # the mean is over the second half: the last iteration
    curve = (folder / "run" / "curve.csv").read_text(encoding="utf-8").splitlines()
    assert curve[0] == "iteration,score,distance" and [row.split(",")[0] for row in curve[1:]] == ["1", "2"]


def test_a_tuning_run_stopped_and_resumed_ends_with_the_weights_of_one_never_stopped(tmp_path: Path) -> None:
    from plyground.kinrow.evaluation import read_feature_weights

    whole = json_line(run_script("gomoku_tuning.py", ["run", "whole", *TUNING], tmp_path), "gomoku_tuning", tmp_path)
    (tmp_path / "results" / "gomoku_tuning.jsonl").unlink()
    sliced = run_script("gomoku_tuning.py", ["run", "sliced", *TUNING, "--for", "1"], tmp_path)
    assert sliced.returncode == 0, sliced.stderr
    assert json.loads(sliced.stdout.splitlines()[-1])["iterations_done"] == 1
    (tmp_path / "results" / "gomoku_tuning.jsonl").unlink()
    again = run_script("gomoku_tuning.py", ["run", "sliced", "--depth", "3"], tmp_path)  # its own settings hold
    resumed = json_line(again, "gomoku_tuning", tmp_path)
    assert resumed["weights"] == whole["weights"] and resumed["depth"] == 1
    (tmp_path / "results" / "gomoku_tuning.jsonl").unlink()
    written = run_script("gomoku_tuning.py", ["write", "sliced", "--write", "tuned.json"], tmp_path)
    line = json_line(written, "gomoku_tuning", tmp_path)
    weights = read_feature_weights(tmp_path / "tuned.json")
    assert list(weights.mover) == line["weights"]["mover"] == whole["weights"]["mover"]
    bad = run_script("gomoku_tuning.py", ["run", "other", "--a", "nan"], tmp_path)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: --a must be a finite number above 0, got nan"


def _check_blunders(line: dict[str, Any], stdout: str, folder: Path) -> None:
    assert line["positions"] == 2 and [row["player"] for row in line["rows"]] == [
        "oracle plyground:engine", "engine, fitted", "engine, hand",
    ]  # fmt: skip
    assert line["rows"][0]["same_as_oracle"] == 2 and all(0 <= row["blunders"] <= 2 for row in line["rows"])
    assert (folder / "verdicts.jsonl").read_text(encoding="utf-8").count("\n") >= 2


def _check_openings(line: dict[str, Any], stdout: str, folder: Path) -> None:
    from plyground.arena import read_openings

    openings = read_openings(folder / "openings.txt", 15)
    assert len(openings) == line["kept"] == 2 and all(len(opening) == 3 for opening in openings)
    assert line["judged"] >= 2 and line["forced_wins"] == 0 and not (folder / "openings.txt.judged").exists()


def _check_corners(line: dict[str, Any], stdout: str, folder: Path) -> None:
    [game] = line["games"]
    tiles = [int(tile) for tile in game["tiles"]]
    assert line["from"] == 8 and tiles[0] == 8 and tiles == [8 * 2**i for i in range(len(tiles))]
    moves = [game["tiles"][str(tile)]["move"] for tile in tiles]
    assert moves[0] > 0 and moves == sorted(moves) and moves[-1] <= game["moves"]
    assert [row["tile"] for row in line["rows"]] == tiles
    for row in line["rows"]:
        assert row["games"] == 1 == row["corner"] + row["off_corner"]
        went_on = row["corner_went_on"] + row["off_corner_went_on"]
        assert went_on == (row["tile"] != tiles[-1])  # every tile but the largest made the next
    assert "where each tile was first made" in stdout


def _check_busy(line: dict[str, Any], stdout: str, folder: Path) -> None:
    [row] = line["rows"]
    assert line["busy"] == 1 and row["time_ms"] == 2.0 and line["positions"] == 5 and line["same"] is False
    for side in ("default", "one worker"):
        assert row["positions"][side]["positions"] == 5 and row["positions"][side]["mean_depth"] >= 1
    assert row["positions_depth_ratio"] > 0 and -30 <= row["positions"]["depth_difference"] <= 30
    for side in ("default", "one worker"):  # the moves judged by a search of depth 3
        assert row["positions"][side]["mean_regret"] >= 0 and 0 <= row["positions"][side]["best_share"] <= 1
    regrets = row["positions"]["default"]["mean_regret"], row["positions"]["one worker"]["mean_regret"]
    assert row["positions"]["regret_difference"] == pytest.approx(regrets[0] - regrets[1])
    assert line["reference_depth"] == 3 and line["source_seed"] == 0 and line["source_time_ms"] is None
    assert line["largest_tile"] >= 4  # the positions come from a game at depth 2
    for side in ("default", "one worker"):
        assert row[side]["games"] == 1 and row[side]["mean_depth"] >= 1 and 0 <= row[side]["depth_1_share"] <= 1
    games = [json.loads(text) for text in (folder / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(game["side"] for game in games) == ["default", "one worker"]
    assert all(game["moves"] == 20 and game["seed"] == 1 for game in games)  # --max-moves and --seed
    again = run_script("busy.py", _busy_args(folder), folder)  # the log holds both games: none is played again
    assert again.returncode == 0 and "seed 1:" not in again.stderr
    assert (folder / "games.jsonl").read_text(encoding="utf-8").count("\n") == 2


def test_regret_is_what_a_move_loses_against_the_best() -> None:
    busy = load_script("busy.py")
    values = {"up": 3.5, "left": 1.0, "down": 3.5}
    assert [busy.regret(values, move) for move in ("up", "left", "down")] == [0.0, 2.5, 0.0]
    assert busy.regret(values, None) == math.inf  # no move: as bad as can be


def _check_tour(line: dict[str, Any], stdout: str, folder: Path) -> None:
    readme_tour = load_script("readme_tour.py")
    tour, until_stopped = readme_tour.tour, readme_tour.until_stopped

    [row] = line["rows"]
    assert row == {"command": ".venv/bin/plyground --help", "seconds": row["seconds"], "status": 0}
    assert line["met"] and 0 < line["longest_s"] == row["seconds"] <= line["target_s"] == 30
    commands = tour(common.ROOT / "README.md")
    assert commands[0] == ".venv/bin/plyground --help" and len(commands) > 15
    assert not any("#" in command or "pip install" in command for command in commands)  # comments and set-up out
    stopped = {command for command in commands if until_stopped(command)}
    assert "plyground 2048 play" in stopped and "plyground web" in stopped and "plyground kinrow pbrain" in stopped
    assert not any(command.startswith("plyground 2048 ai --games") for command in stopped)


def _check_search_versus(line: dict[str, Any], stdout: str, folder: Path) -> None:
    """A checkout against itself: the same trees searched, in times of the same order."""
    assert [(row["evaluator"], row["depth"]) for row in line["rows"]] == [("heuristic", 2), ("network", 1)]
    for row in line["rows"]:
        assert row["evaluations"] == row["other_evaluations"] > 0
        low, high = row["ratio_range"]
        assert 0 < low <= row["ratio"] <= high
    assert line["rounds"] == 2 and len(line["other_commit"]) == 40


def _check_kinrow_versus(line: dict[str, Any], stdout: str, folder: Path) -> None:
    """A checkout against itself: the same searches, with the same nodes, lines and visits."""
    assert [row["search"] for row in line["rows"]] == ["engine", "vcf", "mcts", "mcts patterns"]
    for row in line["rows"]:
        assert row["check"] == row["other_check"] > 0
        low, high = row["ratio_range"]
        assert 0 < low <= row["ratio"] <= high
    assert line["rounds"] == 2 and line["depth"] == 2 and len(line["other_commit"]) == 40


def _busy_args(folder: Path) -> list[str]:
    return ["--games", "1", "--positions", "5", "--time-ms", "2", "--busy", "1", "--evaluator", "heuristic",
            "--max-moves", "20", "--log", str(folder / "games.jsonl"), "--reference-depth", "3"]  # fmt: skip


SCRIPTS = [
    Script("engine.py", "engine", lambda d, f: ["--moves", "2000", "--naive-moves", "200", "--repeats", "1"],
           _check_engine),
    Script("busy.py", "busy", lambda d, f: _busy_args(f), _check_busy),
    Script("readme_tour.py", "readme_tour", lambda d, f: ["--busy", "0", "--first", "1"], _check_tour),
    Script("search.py", "search", lambda d, f: ["--depths", "2", "--repeats", "1", "--network", str(d.network_4x4)],
           _check_search),
    Script("search_versus.py", "search_versus",
           lambda d, f: ["--against", str(ROOT), "--rounds", "2", "--repeats", "1", "--heuristic-depths", "2",
                         "--network-depths", "1"],
           _check_search_versus),
    Script("kinrow_versus.py", "kinrow_versus",
           lambda d, f: ["--against", str(ROOT), "--rounds", "2", "--repeats", "1", "--positions", "2", "--depth", "2",
                         "--iterations", "300", "100"],
           _check_kinrow_versus),
    Script("strength.py", "strength",
           lambda d, f: ["--games", "1", "--time-ms", "1", "--rows", "2", "--cols", "2", "--workers", "1",
                         "--save", str(f / "replays")],
           _check_strength),
    Script("replay_corners.py", "replay_corners", lambda d, f: [str(d.replay), "--from", "8"], _check_corners),
    Script("solver.py", "solver", lambda d, f: ["--sizes", "2x2", "--published-age", "20"], _check_solver),
    Script("shard_codec.py", "shard_codec",
           lambda d, f: ["--rows", "2", "--cols", "2", "--repeats", "1", "--levels", "3", "--long-levels"],
           _check_shard_codec),
    Script("shard_solver.py", "shard_solver",
           lambda d, f: ["--sizes", "2x2", "--shards", "1", "3", "--dask-local", "1", "--forward-age", "24",
                         "--forward-shards", "2", "--workers", "1", "--dir", str(f / "4x3")],
           _check_shard_solver),
    Script("regret.py", "regret", lambda d, f: ["--sizes", "2x3", "--games", "2", "--depth", "1", "--dir",
                                                str(d.solutions)],
           _check_regret),
    Script("tables_blind.py", "tables_blind", lambda d, f: _small_tables(f), _check_tables_blind),
    Script("matches.py", "alphabeta_beyond_five",
           lambda d, f: ["--boards", "7x6", "--games", "2", "--time-ms", "5", "--depth", "1"], _check_alphabeta),
    Script("kinrow.py", "kinrow", lambda d, f: ["--quick", "--games", "1", "--time", "0.01"], _check_kinrow),
    Script("gomoku_engine.py", "gomoku_engine", lambda d, f: ["--positions", "1", "--time-ms", "50"],
           _check_gomoku_engine),
    Script("pbrain_latency.py", "pbrain_latency",
           lambda d, f: ["--timeouts", "100", "--moves", "2", "--no-load", "--player", "first_legal"], _check_pbrain),
    Script("ntuple.py", "ntuple",
           lambda d, f: ["--network", str(d.network_4x4), "--seconds", "0.1", "--games", "2", "--native-moves",
                         "1000"],
           _check_ntuple),
    Script("ntuple.py", "ntuple_curve", lambda d, f: ["--run", str(d.run), "--every", "0"], _check_curve),
    Script("ntuple_pack.py", "ntuple_pack",
           lambda d, f: [str(d.network_4x4), "--steps", "1", "--prunes", "0", "1", "--games", "2",
                         "--agreement-games", "1", "--search-depth", "2", "--search-positions", "6"], _check_pack),
    Script("ntuple_versus.py", "ntuple_versus",
           lambda d, f: [str(d.network_4x4), "--baseline", str(d.network_4x4), "--games", "3"], _check_versus),
    Script("endgame_positions.py", "endgame_positions", lambda d, f: _positions_args(f), _check_positions),
    Script("conversion.py", "conversion", lambda d, f: _conversion_files(f), _check_conversion),
    Script("table_coverage.py", "table_coverage", lambda d, f: _coverage_files(f), _check_coverage),
    Script("tablebase.py", "tablebase",
           lambda d, f: ["--formation", "xx/.T", "--target", "16", "--lookups", "50", "--workers", "2"],
           _check_tablebase),
    Script("ntuple_workers.py", "ntuple_workers",
           lambda d, f: ["--network", str(d.network_4x4), "--seconds", "0.1", "--warm", "0.05"],
           _check_workers),
    Script("ntuple_expectimax.py", "ntuple_expectimax",
           lambda d, f: ["--network", str(d.network_2x3), "--rows", "2", "--cols", "3", "--games", "1",
                         "--time-ms", "1", "--workers", "1", "--log", str(f / "games.jsonl")],
           _check_expectimax),
    Script("ntuple_optimal.py", "ntuple_optimal",
           lambda d, f: ["--sizes", "2x3", "--train-games", "20", "--games", "2", "--search-depth", "1",
                         "--dir", str(d.solutions), "--save", str(f / "networks")],
           _check_optimal),
    Script("ntuple_exact_fit.py", "ntuple_exact_fit",
           lambda d, f: ["--size", "2x3", "--tuples", "wide", "--seconds", "0.01", "--games", "2",
                         "--search-depth", "1", "--dir", str(d.solutions / "2x3")],
           _check_exact_fit),
    Script("gomoku_blunders.py", "gomoku_blunders",
           lambda d, f: ["plyground:engine", "--positions", "2", "--oracle-ms", "100", "--time-ms", "30",
                         "--cache", str(f / "verdicts.jsonl")],
           _check_blunders),
    Script("gomoku_wins.py", "gomoku_wins", lambda d, f: ["--positions", str(win_positions(f)), "--time-ms", "100"],
           _check_wins),
    Script("gomoku_evaluation.py", "gomoku_eval_fit",
           lambda d, f: ["fit", str(random_games(f)), "--write", str(f / "fitted.json")], _check_eval_fit),
    Script("gomoku_tuning.py", "gomoku_tuning", lambda d, f: ["run", str(f / "run"), *TUNING], _check_tuning),
    Script("gomoku_openings.py", "gomoku_openings",
           lambda d, f: ["plyground:engine", "--out", str(f / "openings.txt"), "--count", "2", "--candidates", "6",
                         "--judge-ms", "100", "--within", "5000"],
           _check_openings),
    Script("gomoku_positions.py", "gomoku_positions", lambda d, f: judged_positions(f), _check_judged),
    Script("gomoku.py", "gomoku",
           lambda d, f: ["plyground:random", "plyground:first_legal", "--games", "2", "--size", "9", "--time-ms",
                         "200", "--games-out", str(f / "games.txt")],
           _check_gomoku),
]  # fmt: skip


def run_script(file: str, args: list[str], folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the script ``file`` (:func:`script_path`) from ``folder`` (its temporary files there too),
    recording into ``folder/results``."""
    tmp = folder / "tmp"
    tmp.mkdir(exist_ok=True)
    # Recording on, the baseline as the test says, and the JIT on: the scripts are checked here, not the kernels.
    dropped = (NO_RECORD_ENV, common.NATIVE_ENV, "NUMBA_DISABLE_JIT")
    environment = {key: value for key, value in os.environ.items() if key not in dropped}
    environment.update(TMPDIR=str(tmp), COLUMNS="160", **env)
    return subprocess.run(
        [sys.executable, str(script_path(file)), *args, "--results", str(folder / "results")],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )


def json_line(done: subprocess.CompletedProcess[str], name: str, folder: Path) -> dict[str, Any]:
    """The script's JSON line, checked: printed last, and the one line appended to its result file."""
    assert done.returncode == 0, f"exit status {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stdout.rstrip("\n").splitlines()[-1]
    line = json.loads(last)
    assert isinstance(line, dict) and line["benchmark"] == name, last
    assert [path.name for path in (folder / "results").iterdir()] == [f"{name}.jsonl"]
    text = (folder / "results" / f"{name}.jsonl").read_text(encoding="utf-8")
    assert text.endswith("\n") and text.count("\n") == 1, text
    recorded = json.loads(text)
    assert recorded["benchmark"] == name
    printed = {key: value for key, value in line.items() if key != "benchmark"}
    assert json.dumps(recorded["results"], sort_keys=True) == json.dumps(printed, sort_keys=True)  # NaN as NaN
    return line


MEASURING = sorted(
    path.relative_to(ROOT).as_posix()
    for path in [*BENCHMARKS.glob("[!_]*.py"), *EXPERIMENTS.glob("*/[!_]*.py"), *RECIPES.glob("[!_]*.py")]
)


RUN_ELSEWHERE = {
    "benchmarks/versus_nneonneo.py": "tests/benchmarks/test_versus_nneonneo.py",
    "experiments/2026-12-02-default-weights-at-20ms/default_weights.py": "tests/experiments/test_default_weights.py",
}
"""The scripts run end to end by a test file of their own."""


def test_every_script_is_run_here_or_in_its_own_tests() -> None:
    here = {script_path(script.file).relative_to(ROOT).as_posix() for script in SCRIPTS}
    assert sorted(here | set(RUN_ELSEWHERE)) == MEASURING
    assert all((ROOT / test).is_file() for test in RUN_ELSEWHERE.values())


@pytest.mark.parametrize("script", MEASURING)
def test_every_script_records_its_line(script: str) -> None:
    """Each script adds the record options for its own path and ends with ``print_json(name, results, args)``."""
    tree = ast.parse((ROOT / script).read_text(encoding="utf-8"))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]
    options = [call for call in calls if call.func.id == "add_record_options"]
    assert options, f"{script} lacks add_record_options(parser, Path(__file__))"
    assert all(ast.unparse(call.args[1]) == "Path(__file__)" for call in options), f"{script}: pass Path(__file__)"
    printed = [call for call in calls if call.func.id == "print_json"]
    assert printed and all(len(call.args) == 3 for call in printed), f"{script}: print_json(name, results, args)"


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.name for script in SCRIPTS])
def test_script_runs_and_ends_with_its_json_line(script: Script, data: Data, tmp_path: Path) -> None:
    # The native baseline is missing here, as on a machine without ../shared/bench.
    done = run_script(
        script.file, script.args(data, tmp_path), tmp_path, **{common.NATIVE_ENV: str(tmp_path / "absent.c")}
    )
    line = json_line(done, script.name, tmp_path)
    script.check(line, done.stdout, tmp_path)


NATIVE_SCRIPTS = {script.name: script for script in SCRIPTS if script.name in ("engine", "search", "ntuple")}


def _native_rate(name: str, line: dict[str, Any]) -> Any:
    if name == "engine":
        return line["moves_per_s"].get("native_C")
    if name == "search":
        return line["rows"][0]["native_evaluations"]
    return line["native_random_moves_per_s"]


@pytest.mark.parametrize("name", NATIVE_SCRIPTS)
def test_with_the_native_baseline_its_rate_is_measured(name: str, data: Data, tmp_path: Path) -> None:
    source = common.native_source()
    if not source.is_file() or not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip(f"no native baseline source at {source} (set {common.NATIVE_ENV}) or no C compiler")
    script = NATIVE_SCRIPTS[name]
    done = run_script(script.file, script.args(data, tmp_path), tmp_path, **{common.NATIVE_ENV: str(source)})
    line = json_line(done, name, tmp_path)
    assert _native_rate(name, line) > 0
    assert not list((tmp_path / "tmp").iterdir())  # the compiled baseline is removed at exit


def test_a_native_source_that_does_not_compile_is_skipped_with_a_warning(data: Data, tmp_path: Path) -> None:
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler")
    broken = tmp_path / "native2048.c"
    broken.write_text("this is not C\n", encoding="utf-8")
    script = NATIVE_SCRIPTS["engine"]
    done = run_script(script.file, script.args(data, tmp_path), tmp_path, **{common.NATIVE_ENV: str(broken)})
    line = json_line(done, "engine", tmp_path)
    _check_engine(line, done.stdout, tmp_path)
    assert f"warning: cannot compile the native baseline {broken}" in done.stderr


def test_the_evaluation_games_are_appended_one_by_one_and_resumed(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    for games in (1, 2):
        done = subprocess.run(
            [sys.executable, str(script_path("gomoku_evaluation.py")), "play", "plyground:first_legal",
             "--games", str(games), "--time-ms", "200", "--out", str(out)],
            cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT_S,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [record["stones"] for record in records] == [3, 4]  # the second run played only the second game
    assert all(record["winner"] in (0, 1, 2) and len(record["moves"]) > record["stones"] for record in records)
    bad = subprocess.run(
        [sys.executable, str(script_path("gomoku_evaluation.py")), "play", "/nowhere/brain", "--out", str(out)],
        capture_output=True, text=True, timeout=TIMEOUT_S,
    )  # fmt: skip
    assert bad.returncode == 2 and "no executable brain" in bad.stderr


def test_a_big_tile_is_placed_where_it_was_first_made() -> None:
    from plyground.g2048.game import Replay, Spawn

    corners = load_script("replay_corners.py")
    assert [corners.place(r, c, 3, 4) for r, c in ((0, 0), (2, 3), (0, 1), (1, 3), (1, 1), (1, 2))] == [
        "corner", "corner", "edge", "edge", "middle", "middle"]  # fmt: skip
    # 3x3: two 2s merge upwards into a 4 at the top edge's middle; then two 4s would not be made yet.
    replay = Replay(rows=3, cols=3, seed=1, start=[Spawn(0, 1, 2), Spawn(2, 1, 2)],
                    moves=[("up", Spawn(2, 2, 2)), ("right", Spawn(1, 0, 4))], score=4)  # fmt: skip
    assert corners.big_tiles(replay, 4) == {4: {"move": 1, "place": "edge"}}
    assert corners.big_tiles(replay, 8) == {}
    games = [{"tiles": {4: {"move": 1, "place": "edge"}, 8: {"move": 9, "place": "corner"}}},
             {"tiles": {4: {"move": 2, "place": "corner"}}}]  # fmt: skip
    assert corners.summarize(games, 4) == [
        {"tile": 4, "games": 2, "corner": 1, "corner_went_on": 0, "off_corner": 1, "off_corner_went_on": 1},
        {"tile": 8, "games": 1, "corner": 1, "corner_went_on": 0, "off_corner": 0, "off_corner_went_on": 0},
    ]


def test_searched_agreement_counts_the_same_moves_and_what_the_others_cost(data: Data) -> None:
    from plyground.g2048.expectimax import Decision
    from plyground.g2048.ntuple import NTupleNetwork

    pack = load_script("ntuple_pack.py")
    network = NTupleNetwork.load(data.network_4x4)
    boards = pack.positions(network, 1, 3)
    assert pack.evenly(list(range(10)), 5) == [0, 2, 4, 6, 8] and pack.evenly(list(range(7)), 3) == [0, 2, 4]
    assert pack.evenly(boards[:3], 5) == boards[:3]
    chosen = pack.evenly(boards, 5)
    # The same network searched twice: the same moves, nothing lost (the search is deterministic at a fixed depth).
    first, again = (pack.searched(network, chosen, 2, "full") for _ in range(2))
    assert all(d.depth == 2 and d.move is not None for d in first)
    assert pack.searched_agreement(again, first) == {"positions": 5, "same": 1.0, "loss": 0.0}
    # Another choice costs the full search's value of its move minus its value of the other one.
    full = [Decision("up", {"up": 10.0, "left": 7.5}),
            Decision("up", {"up": 4.0, "left": 1.0})]  # fmt: skip
    other = [Decision("left", {"up": 9.0, "left": 12.0}),
             Decision("up", {"up": 3.0, "left": 3.5})]  # fmt: skip
    assert pack.searched_agreement(other, full) == {"positions": 2, "same": 0.5, "loss": 1.25}


def test_the_searched_games_of_a_packing_are_logged_one_by_one_and_resumed(data: Data, tmp_path: Path) -> None:
    log = tmp_path / "searched.jsonl"
    args = [str(data.network_4x4), "--steps", "1", "--games", "0", "--agreement-games", "0", "--search-games", "2",
            "--search-steps", "1", "--time-ms", "1", "--workers", "1", "--log", str(log)]  # fmt: skip
    first = json_line(run_script("ntuple_pack.py", args, tmp_path), "ntuple_pack", tmp_path)
    [row] = first["rows"]
    assert "greedy" not in row and "agreement" not in row and row["search"]["games"] == 2
    logged = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [(game["player"], game["seed"]) for game in logged] == [
        ("full", 1),
        ("step 1", 1),
        ("full", 2),
        ("step 1", 2),
    ]
    assert all(game["score"] > 0 and game["settings"]["time_ms"] == 1.0 for game in logged)

    # Run again: nothing is played, and the pairing is read from the log.
    shutil.rmtree(tmp_path / "results")
    again = run_script("ntuple_pack.py", args, tmp_path)
    assert "0 to play" in again.stderr
    assert json_line(again, "ntuple_pack", tmp_path)["rows"][0]["search"] == row["search"]
    assert log.read_text(encoding="utf-8").count("\n") == 4

    # A log of other settings (another network, or another time) is refused in one line.
    other = run_script("ntuple_pack.py", [*args, "--time-ms", "2"], tmp_path)
    assert other.returncode != 0 and "Traceback" not in other.stderr
    assert "has other settings" in other.stderr and len(other.stderr.strip().splitlines()) == 1


def test_networks_that_cannot_be_compared_are_refused_in_one_line(data: Data, tmp_path: Path) -> None:
    for args, message in (
        ([str(tmp_path / "missing.npz")], "missing.npz"),
        ([str(data.network_2x3), "--baseline", str(data.network_4x4)], "the networks play different boards: 2x3"),
    ):
        done = run_script("ntuple_versus.py", [*args, "--games", "2"], tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_game_records_are_read_back_and_the_won_games_give_their_critical_position(tmp_path: Path) -> None:
    """``plyground.arena.read_records`` reads what ``record_text`` writes; ``gomoku_wins.py collect`` asks who won."""
    from plyground.arena import Game, Move, Settings, read_records, record_text

    moves = [*WIN_MOVES, 111, 3, 110]  # X makes the open four g8-j8, O plays on, X's five f8-j8
    game = Game("a", "b", [], [Move(m % 15, m // 15, 5.0) for m in moves], winner="black", reason="A made five")
    text = "".join(
        record_text(game, number, Settings(size=15, rule=0, time_ms=100), {"black": black, "white": white})
        for number, (black, white) in enumerate([("plyground:engine", "other"), ("other", "plyground:engine")], 1)
    )
    records = read_records(text)
    assert [(r["Game"], r["Black"], r["Result"]) for r in records] == [
        ("1", "plyground:engine", "1-0"), ("2", "other", "1-0"),
    ]  # fmt: skip
    assert records[0]["moves"] == [(m % 15, m // 15) for m in moves]
    with pytest.raises(ValueError, match="not a game record"):
        read_records('[Black "x"]\n1. 7,7 {1 ms}')
    (tmp_path / "games.txt").write_text(text)
    out = tmp_path / "wins.jsonl"
    done = subprocess.run(
        [sys.executable, str(script_path("gomoku_wins.py")), "collect", "plyground:engine", str(tmp_path / "games.txt"),
         "--out", str(out), "--oracle-ms", "200"],
        capture_output=True, text=True, timeout=TIMEOUT_S,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(found) == 1  # only the game the engine won, at the first position it saw a win in
    cut = len(found[0]["moves"])
    assert found[0]["moves"] == moves[:cut] and cut in (4, 6) and found[0]["plies"] >= 1


def test_self_play_games_give_their_critical_positions_and_a_stopped_run_resumes(tmp_path: Path) -> None:
    """``gomoku_wins.py selfplay``: the first position a brain announces a win in, and ``.partial`` resumes."""
    games = tmp_path / "selfplay.jsonl"
    quiet = [112, 0, 14, 210, 224, 2, 12, 212, 222]  # stones in the corners: nobody wins soon
    lines = [{"stones": 3, "moves": [*WIN_MOVES, 111, 3, 110], "winner": 1}, {"stones": 3, "moves": quiet, "winner": 0}]
    games.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "wins.jsonl"
    command = [sys.executable, str(script_path("gomoku_wins.py")), "selfplay", "plyground:engine", str(games)]
    command += ["--out", str(out), "--oracle-ms", "200", "--seed", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(found) == 1 and found[0]["plies"] >= 1 and not (tmp_path / "wins.jsonl.partial").exists()
    assert found[0]["moves"] == [*WIN_MOVES, 111, 3, 110][: len(found[0]["moves"])]
    # a run stopped after its first game: that verdict is kept as it is, the second game is judged
    stopped = json.dumps({"game": 0, "moves": [1, 2], "plies": 9, "move": 3}) + '\n{"game": 1, "mo'  # cut mid-line
    (tmp_path / "wins.jsonl.partial").write_text(stopped)
    done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    assert next(json.loads(line)["moves"] for line in out.read_text().splitlines()) == [1, 2]
    bad = subprocess.run([*command[:4], str(out), "--out", str(tmp_path / "x.jsonl")], capture_output=True, text=True)
    assert bad.returncode == 2 and "not self-play games" in bad.stderr


def test_balanced_openings_keep_the_even_ones_and_a_stopped_run_resumes(tmp_path: Path) -> None:
    """``gomoku_openings.py``: the verdicts of a stopped run (``FILE.judged``) are read back, not asked again."""
    from plyground.arena import generated_opening

    out = tmp_path / "openings.txt"
    first = generated_opening(15, 3, 11, 0)
    key = ",".join(str(y * 15 + x) for x, y in first)  # the first candidate, judged even before the stop
    (tmp_path / "openings.txt.judged").write_text(json.dumps({"ms": 100, "key": key, "value": 3, "move": 0}) + "\n")
    command = [sys.executable, str(script_path("gomoku_openings.py")), "plyground:engine", "--out", str(out)]
    command += ["--judge-ms", "100", "--no-record", "--candidates"]
    done = subprocess.run(
        [*command, "1", "--count", "1", "--within", "5"], capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert done.returncode == 0, done.stderr  # kept from the verdict on file: the engine's own is not within 5
    lines = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert lines == [" ".join(f"{x},{y}" for x, y in first) + "  # +3"]
    assert "(seed 11) judged within 5" in out.read_text() and not (tmp_path / "openings.txt.judged").exists()
    none = subprocess.run(
        [*command, "3", "--count", "3", "--within", "0"], capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert none.returncode == 1 and "candidates within 0; judge more" in none.stderr


@pytest.mark.parametrize("script", ["kinrow_versus.py", "search_versus.py"])
def test_a_versus_script_imports_no_plyground_where_its_child_runs(script: str) -> None:
    """The child runs with the other checkout's plyground, older code: the module imports none of plyground's
    names at its top (the child imports what it times, the parent what records)."""
    tree = ast.parse((ROOT / "benchmarks" / script).read_text(encoding="utf-8"))
    top = [
        node.module for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("plyground")
    ]  # fmt: skip
    assert top == []


def test_macroxue_plays_from_the_positions_as_an_arm(tmp_path: Path) -> None:
    fake = Path(__file__).resolve().parents[1] / "data" / "fake_macroxue.py"
    program = tmp_path / "2048"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{fake}" "$@"\n', encoding="utf-8")
    program.chmod(0o755)
    args = [*_conversion_files(tmp_path), "--arms", "search", "macroxue-3"]
    refused = run_script("conversion.py", args, tmp_path)
    assert refused.returncode == 2 and "need --macroxue DEST/2048" in " ".join(refused.stderr.split())
    missing = run_script("conversion.py", [*args, "--macroxue", str(tmp_path / "nothing")], tmp_path)
    assert missing.returncode == 2 and "no macroxue/2048-ai program at" in " ".join(missing.stderr.split())
    line = json_line(run_script("conversion.py", [*args, "--macroxue", str(program)], tmp_path), "conversion", tmp_path)
    row = line["arms"]["macroxue-3"]
    assert row["games"] == 2 and row["mean_moves"] == 20 and row["table_move_share"] == 0
    assert row["ms_per_move"] > 0 and line["arms"]["search"]["ms_per_move"] > 0
    logged = [json.loads(text) for text in (tmp_path / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted((game["arm"], game["position"]) for game in logged) == [
        ("macroxue-3", 1), ("macroxue-3", 2), ("search", 1), ("search", 2)]  # fmt: skip
    failing = run_script("conversion.py", [*args, "--macroxue", str(program), "--seed", "2"], tmp_path,
                         FAKE_MACROXUE_ANSWER="x")  # fmt: skip
    said = " ".join(failing.stderr.split())
    assert failing.returncode == 1 and "Traceback" not in failing.stderr, failing.stderr
    assert "error: " in said and "macroxue/2048-ai answered 'x'" in said and "(the finished games are in" in said


def test_conversion_from_the_start_plays_whole_games(tmp_path: Path) -> None:
    args = ["--from-start", "2", "--arms", "search", "--max-moves", "10", "--time-ms", "1", "--workers", "1",
            "--log", str(tmp_path / "games.jsonl")]  # fmt: skip
    line = json_line(run_script("conversion.py", args, tmp_path), "conversion", tmp_path)
    assert (line["positions"], line["positions_file"]) == (2, "start of 2 games")
    logged = [json.loads(text) for text in (tmp_path / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(game["position"] for game in logged) == [1, 2] and all(game["moves"] == 10 for game in logged)
    starts = [Board.parse(game["board"]) for game in logged]
    assert all(len(board.empty_cells()) == 14 for board in starts) and starts[0] != starts[1]  # two tiles, two seeds
    refused = run_script("conversion.py", ["--from-start", "0"], tmp_path)
    assert refused.returncode == 2 and "--from-start is a number of games from 1" in refused.stderr


def test_conversion_arms_of_another_search_play_their_games(tmp_path: Path) -> None:
    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.state import State

    conversion = load_script("conversion.py")
    search = Expectimax(time_ms=2.0, workers=1)
    agent = conversion.ARMS["shaped-2"].agent(search, None)
    crowded = State.from_board(Board.parse("2 4 8 16/32 64 128 256/2 4 8 16/32 64 0 0"))
    sparse = State.from_board(Board.parse("2 0 0 0/0 0 0 0/0 0 0 2/0 0 0 0"))
    agent.choose(sparse)
    assert search.time_ms == 2.0  # the first move is the mean so far
    agent.choose(crowded)  # 2 empty cells against 14: weight 1/9 against 1/225, the mean moved 1% of the way
    assert search.time_ms == pytest.approx(2.0 * (1 / 9) / (0.99 / 225 + 0.01 / 9))
    banked = Expectimax(time_ms=2.0, workers=1)
    conversion.ARMS["bank"].agent(banked, None)
    assert banked.time_bank
    args = ["--from-start", "2", "--arms", "search", "heuristic", "bank", "shaped-1", "shaped-2", "--max-moves", "10",
            "--time-ms", "1", "--workers", "1", "--log", str(tmp_path / "games.jsonl")]  # fmt: skip
    line = json_line(run_script("conversion.py", args, tmp_path), "conversion", tmp_path)
    assert set(line["arms"]) == {"search", "heuristic", "bank", "shaped-1", "shaped-2"}
    for row in line["arms"].values():
        assert row["games"] == 2 and row["mean_moves"] == 10 and row["ms_per_move"] > 0
    logged = [json.loads(text) for text in (tmp_path / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    valued_by = {game["arm"]: game["evaluator"] for game in logged}
    assert valued_by["heuristic"] == "heuristic" and valued_by["search"] != "heuristic"  # the network


def test_conversion_plays_whole_games_of_another_size_with_its_tables(tmp_path: Path) -> None:
    from plyground.g2048.game import Game
    from plyground.g2048.tablebase import Formation, save_tablebase, solve_formation, table_name

    formation = Formation.parse("xxx/..T/...")
    save_tablebase(solve_formation(formation, 8), tmp_path / "tables" / table_name(formation, 8, 0.1))
    _small_table(tmp_path)  # a 4x4 table beside it, which 3x3 games leave out
    args = ["--from-start", "3", "--size", "3x3", "--arms", "search", "tables", "--tablebases",
            str(tmp_path / "tables"), "--tile", "64", "--stop-at", "0", "--time-ms", "1", "--workers", "1",
            "--log", str(tmp_path / "games.jsonl")]  # fmt: skip
    line = json_line(run_script("conversion.py", args, tmp_path), "conversion", tmp_path)
    assert (line["size"], line["evaluator"], line["tables"]) == ("3x3", "heuristic", ["xxx-..T-..._T8_p0.1"])
    logged = [json.loads(text) for text in (tmp_path / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    starts = [Board.parse(game["board"]) for game in logged]
    assert len(logged) == 6 and all(board.shape == (3, 3) and len(board.empty_cells()) == 7 for board in starts)
    assert all(Board.parse(game["board"]) == Game(3, 3, seed=game["position"]).board for game in logged)
    assert sum(game["table_moves"] for game in logged if game["arm"] == "tables") > 0  # whole games build an 8
    assert all(game["table_moves"] == 0 for game in logged if game["arm"] == "search")
    for args_, said in (
        (["--size", "3x3"], "--size is for whole games: give --from-start N"),
        (["--from-start", "2", "--size", "4x3", "--tablebases", str(tmp_path / "tables")], "no 4x3 tables in"),
        (["--from-start", "2", "--size", "3x3", "--arms", "macroxue-3", "--macroxue", sys.executable],
         "macroxue/2048-ai plays 4x4 boards only"),
        (["--from-start", "2", "--size", "5x5"], "invalid choice"),
    ):  # fmt: skip
        refused = run_script("conversion.py", args_, tmp_path)
        assert refused.returncode == 2 and said in " ".join(refused.stderr.split()), refused.stderr


def test_the_judged_positions_are_made_along_the_judges_play_and_the_wins_after_losing_moves(tmp_path: Path) -> None:
    (tmp_path / "openings.txt").write_text("7,7 8,8 7,8  # a three-stone opening\n")
    args = ["make", "plyground:engine", "--player", "plyground:first_legal", "--openings", "openings.txt",
            "--plies", "2", "--judge-ms", "100", "--time-ms", "30", "--out-dir", str(tmp_path)]  # fmt: skip
    line = json_line(run_script("gomoku_positions.py", args, tmp_path), "gomoku_positions", tmp_path)
    assert (line["command"], line["openings"], line["plies"]) == ("make", 1, 2)
    balanced = [json.loads(text) for text in (tmp_path / "gomoku_positions.jsonl").read_text().splitlines()]
    wins = [json.loads(text) for text in (tmp_path / "gomoku_wins.jsonl").read_text().splitlines()]
    assert len(balanced) == line["positions"] >= 1 and len(wins) == line["wins"] <= len(balanced)
    opening = [7 * 15 + 7, 8 * 15 + 8, 8 * 15 + 7]
    assert [row["moves"] for row in balanced][:1] == [opening]  # then the judge's own move, if still balanced
    assert all(row["moves"][:3] == opening and row["move"] not in row["moves"] for row in balanced)
    assert all(row["plies"] > 0 and len(row["moves"]) >= 4 for row in wins)
    bad = run_script("gomoku_positions.py", ["run", "plyground:engine", "plyground:random", "--wins-ms", "0"], tmp_path)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: --wins-ms must be from 1 to 600,000, got 0"
