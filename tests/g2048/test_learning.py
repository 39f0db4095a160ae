"""Training runs of the n-tuple network: two-core learning, checkpoints, a SIGKILL resumed to the uninterrupted end."""

from __future__ import annotations

import doctest
import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from plyground.core.stats import reach_tiles
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048 import _kernels as K
from plyground.g2048 import learning
from plyground.g2048.learning import LearnSettings, TrainingRun, evaluation_seed, play_greedy_games, read_curve
from plyground.g2048.ntuple import LearnStats, NTupleNetwork
from tests.naive import g2048 as naive

SMALL = (((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (0, 0)))
"""Two 3-tuples for 3×3 boards: 11**3 weights each (radix 11)."""

SETTINGS = LearnSettings(
    rows=3, cols=3, tuples=SMALL, alpha=0.05, seed=5, checkpoint_minutes=None, checkpoint_games=100,
    report_games=50, window=80,
)  # fmt: skip


# ---------------------------------------------------------------------------------------
# Several workers


def _random_mean(rows: int, cols: int) -> float:
    games, points, _ = K._random_play(50_000, np.uint64(1), rows, cols, np.uint64(naive.four_threshold(0.1)))
    return int(points) / int(games)


def test_two_workers_learn_and_beat_random_play() -> None:
    network = NTupleNetwork(3, 3, seed=1)
    seen: list[LearnStats] = []
    stats = network.learn(400, alpha=0.1, workers=2, on_progress=seen.append)
    assert stats.results.games == network.trained.games == 400 and network.weights.any()
    assert stats.results.total_moves == network.trained.moves > 0
    assert sorted(s.results.games for s in seen) == [s.results.games for s in seen] and seen[-1].results.games == 400
    assert (stats.results.scores > 0).all()  # every game was played and recorded
    trained = network.play_greedy(300, seed=9).mean_score
    assert trained > 3 * _random_mean(3, 3), trained


def test_two_workers_move_the_stream_on_deterministically() -> None:
    one, two = NTupleNetwork(2, 2, seed=3), NTupleNetwork(2, 2, seed=3)
    one.learn(50, alpha=0.1, workers=2)
    two.learn(70, alpha=0.1, workers=2)
    assert one.rng_state == two.rng_state != NTupleNetwork(2, 2, seed=3).rng_state
    three = NTupleNetwork(2, 2, seed=3)
    three.learn(50, alpha=0.1, workers=3)
    assert three.rng_state != one.rng_state


def test_one_worker_is_as_before_and_workers_beyond_the_games_are_not_started() -> None:
    plain, one = NTupleNetwork(3, 3, SMALL, seed=11), NTupleNetwork(3, 3, SMALL, seed=11)
    plain.learn(60, alpha=0.05)
    one.learn(60, alpha=0.05, workers=1)
    assert plain.weights.tobytes() == one.weights.tobytes() and plain.rng_state == one.rng_state
    single = NTupleNetwork(3, 3, SMALL, seed=11)
    single.learn(1, alpha=0.05, workers=8)  # one game: played as with one worker
    reference = NTupleNetwork(3, 3, SMALL, seed=11)
    reference.learn(1, alpha=0.05)
    assert single.weights.tobytes() == reference.weights.tobytes()


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_bad_workers_are_refused(workers: object) -> None:
    with pytest.raises(InvalidInputError, match="workers must be an integer >= 1"):
        NTupleNetwork(2, 2, seed=1).learn(10, alpha=0.1, workers=workers)  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [1, 2])
def test_stop_ends_learning_early(workers: int) -> None:
    network = NTupleNetwork(2, 2, seed=1)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return network.trained.games >= 30

    stats = network.learn(10_000, alpha=0.1, batch=10, workers=workers, stop=stop)
    assert 30 <= stats.results.games == network.trained.games < 10_000 and calls


def test_an_error_in_on_progress_stops_the_threads_and_keeps_the_totals() -> None:
    network = NTupleNetwork(2, 2, seed=1)

    def fail(stats: LearnStats) -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        network.learn(10_000, alpha=0.1, batch=10, workers=2, on_progress=fail)
    games = network.trained.games
    assert 10 <= games < 10_000 and network.trained.moves > 0
    network.learn(5, alpha=0.1, workers=2)  # still usable
    assert network.trained.games == games + 5


# ---------------------------------------------------------------------------------------
# Run folders


def test_a_run_folder_holds_the_network_the_curve_and_the_settings(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    reports = []
    last = run.run(games=230, on_progress=reports.append)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "curve.csv",
        "curve.png",
        "network.npz",
        "recent.json",
        "run.json",
    ]
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG")
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert lines[0] == "games,moves,seconds,mean_score,reach_256,reach_512,reach_1024"  # the tiles 3x3 holds
    assert [int(line.split(",")[0]) for line in lines[1:]] == [50, 100, 150, 200, 230]
    assert last.games == 230 and last.window == 80 and last.mean_score > 0 and last.reach[1024] == 0.0
    assert tuple(last.reach) == run.reach_tiles == (256, 512, 1024)
    assert reports and reports[-1].games == 230
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["settings"]["tuples"] == [[list(c) for c in cells] for cells in SMALL]
    assert data["settings"]["alpha"] == 0.05 and data["goal"] == {"games": 230}
    network = NTupleNetwork.load(tmp_path / "network.npz")
    assert network.weights.tobytes() == run.network.weights.tobytes() and network.trained.games == 230
    again = TrainingRun(tmp_path)
    assert again.settings == SETTINGS and again.goal == (230, None) and again.done()
    assert [r.games for r in again.curve] == [50, 100, 150, 200, 230]
    assert again.report().mean_score == last.mean_score
    at_goal = again.run()  # nothing left to train: the report of the saved last games
    assert again.network.trained.games == 230
    assert (at_goal.games, at_goal.window, at_goal.mean_score, at_goal.reach, at_goal.max_tile) == (
        last.games, last.window, last.mean_score, last.reach, last.max_tile,
    )  # fmt: skip


def test_a_minutes_goal_and_a_new_goal_on_resume(tmp_path: Path) -> None:
    settings = LearnSettings(rows=2, cols=2, seed=2, report_games=100)
    run = TrainingRun(tmp_path, settings)
    run.run(minutes=0.002)
    assert run.network.trained.seconds >= 0.12 and run.goal == (None, 0.002)
    games = run.network.trained.games
    resumed = TrainingRun(tmp_path)
    resumed.run(games=games + 150)
    assert resumed.network.trained.games == games + 150
    assert TrainingRun(tmp_path).goal == (games + 150, None)


def test_two_workers_in_a_run(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    run.run(games=300, workers=2)
    assert run.network.trained.games == 300
    assert [r.games for r in TrainingRun(tmp_path).curve] == [50, 100, 150, 200, 250, 300]


def test_stop_checkpoints(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    run.run(games=10_000, stop=lambda: run.network.trained.games >= 120)
    saved = TrainingRun(tmp_path)
    assert 120 <= saved.network.trained.games < 10_000
    assert saved.network.weights.tobytes() == run.network.weights.tobytes()
    assert saved.curve[-1].games == saved.network.trained.games


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from plyground.g2048.learning import LearnSettings, TrainingRun
    run = TrainingRun(sys.argv[1], LearnSettings(**{settings}))
    def on_progress(report):
        if report.games >= {kill_at}:
            os.kill(os.getpid(), signal.SIGKILL)
    run.run(games={games}, on_progress=on_progress)
    """
)


@pytest.mark.parametrize(
    ("tc", "steps", "td_lambda", "stage_tiles"),
    [
        (False, (), 0.0, ()),
        (True, (), 0.0, ()),
        (False, ((250, 0.02), (500, 0.01)), 0.0, ()),
        (True, (), 0.5, ()),
        (True, (), 0.0, (128, 256)),
    ],
)
def test_a_run_killed_by_sigkill_resumes_to_the_uninterrupted_end(
    tmp_path: Path,
    tc: bool,
    steps: tuple[tuple[int, float], ...],
    td_lambda: float,
    stage_tiles: tuple[int, ...],
) -> None:
    changes = {
        "tc": tc,
        "alpha": 0.5 if tc else 0.05,
        "alpha_steps": steps,
        "td_lambda": td_lambda,
        "stage_tiles": stage_tiles,
    }
    settings = LearnSettings(**{**SETTINGS.__dict__, **changes, "horizon": None})
    whole = TrainingRun(tmp_path / "whole", settings)
    whole.run(games=600)

    killed = tmp_path / "killed"
    script = KILLER.format(settings=repr(settings.__dict__), kill_at=430, games=600)
    process = subprocess.run([sys.executable, "-c", script, str(killed)], capture_output=True, text=True, timeout=120)
    assert process.returncode == -signal.SIGKILL, process.stderr
    partial = TrainingRun(killed)
    assert partial.network.trained.games == 400  # the last checkpoint
    assert [r.games for r in partial.curve][-1] == 400
    assert partial.goal == (600, None)
    partial.run()  # the saved goal
    resumed = TrainingRun(killed)

    assert resumed.network.weights.tobytes() == whole.network.weights.tobytes()
    assert resumed.network.stage_tiles == whole.network.stage_tiles == stage_tiles
    if stage_tiles:  # the games reached the last stage: its tables were learnt (and survived the kill)
        assert resumed.network.weights[-(11**3) * len(SMALL) :].any()  # a stage of two tables of radix 11
    assert resumed.network.rng_state == whole.network.rng_state
    assert resumed.network.trained.games == whole.network.trained.games == 600
    assert resumed.network.trained.moves == whole.network.trained.moves

    def curve(folder: Path) -> list[list[str]]:  # all but the seconds
        lines = (folder / "curve.csv").read_text().splitlines()
        return [line.split(",")[:2] + line.split(",")[3:] for line in lines]

    assert curve(killed) == curve(tmp_path / "whole")
    assert (
        json.loads((killed / "recent.json").read_text())["checkpoints"][-1]
        == json.loads((tmp_path / "whole" / "recent.json").read_text())["checkpoints"][-1]
    )


def test_a_run_whose_curve_has_the_older_reach_columns_keeps_them(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    run.run(games=100)
    old = ["games,moves,seconds,mean_score,reach_2048,reach_4096,reach_8192,reach_16384"]  # as written before
    old += [f"{r.games},{r.moves},{r.seconds:.3f},{r.mean_score:.3f},0,0,0,0" for r in run.curve]
    (tmp_path / "curve.csv").write_text("\n".join(old) + "\n")
    resumed = TrainingRun(tmp_path)
    assert resumed.reach_tiles == (2048, 4096, 8192, 16384)
    assert [r.games for r in resumed.curve] == [50, 100]
    assert resumed.curve[0].reach == dict.fromkeys(resumed.reach_tiles, 0.0)
    resumed.run(games=150)
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert lines[0] == old[0] and lines[1:3] == old[1:3] and len(lines) == 4
    assert [r.games for r in read_curve(tmp_path)] == [50, 100, 150]
    (tmp_path / "curve.csv").write_text("games,moves,seconds,mean_score,reach_3\n")
    with pytest.raises(CorruptFileError, match="not the curve of a training run"):
        TrainingRun(tmp_path)


def test_killed_before_the_first_checkpoint_starts_over(tmp_path: Path) -> None:
    TrainingRun(tmp_path, SETTINGS)  # only run.json
    run = TrainingRun(tmp_path)
    assert run.network.trained.games == 0 and run.curve == []
    with pytest.raises(InvalidInputError, match="no goal saved"):
        run.run()
    run.run(games=100)
    reference = TrainingRun(tmp_path / "other", SETTINGS)
    reference.run(games=100)
    assert run.network.weights.tobytes() == reference.network.weights.tobytes()


def test_folders_and_files_are_checked(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no training run to resume"):
        TrainingRun(tmp_path / "empty")
    run = TrainingRun(tmp_path / "run", SETTINGS)
    with pytest.raises(InvalidInputError, match="already holds a training run"):
        TrainingRun(tmp_path / "run", SETTINGS)
    with pytest.raises(InvalidInputError, match="not both"):
        run.run(games=10, minutes=1)
    run.run(games=150)
    folder = tmp_path / "run"

    recent = (folder / "recent.json").read_text()
    (folder / "recent.json").write_text('{"format": "plyground.g2048.learn.recent", "checkpoints": []}')
    with pytest.raises(CorruptFileError, match=r"holds no results for the 150 games of network\.npz"):
        TrainingRun(folder)
    (folder / "recent.json").write_text(recent)
    (folder / "curve.csv").write_text("not,a,curve\n")
    with pytest.raises(CorruptFileError, match="not the curve of a training run"):
        TrainingRun(folder)
    (folder / "network.npz").write_bytes(b"garbage")
    with pytest.raises(CorruptFileError, match=r"network\.npz is not a readable n-tuple network file"):
        TrainingRun(folder)
    NTupleNetwork(3, 3, seed=1).save(folder / "network.npz")  # other tuples
    with pytest.raises(CorruptFileError, match="holds a network with other tuples"):
        TrainingRun(folder)
    (folder / "run.json").write_text('{"format": "plyground.g2048.learn", "version": 1, "goal": {}, "settings": {}}')
    with pytest.raises(CorruptFileError, match="bad settings"):
        TrainingRun(folder)
    (folder / "run.json").write_text('{"format": "something else"}')
    with pytest.raises(CorruptFileError, match="not the settings of a training run"):
        TrainingRun(folder)


def test_alpha_steps_change_the_rate_at_their_games(tmp_path: Path) -> None:
    settings = LearnSettings(**{**SETTINGS.__dict__, "alpha_steps": [[120, 0.02], [230, 0.2]]})  # as read from JSON
    assert settings.alpha_steps == ((120, 0.02), (230, 0.2))
    assert [settings.alpha_at(g) for g in (0, 119, 120, 229, 230, 10**9)] == [0.05, 0.05, 0.02, 0.02, 0.2, 0.2]
    assert [settings.next_step(g) for g in (0, 120, 229, 230)] == [120, 230, 230, None]
    run = TrainingRun(tmp_path / "run", settings)
    run.run(games=300)

    by_hand = settings.new_network()
    by_hand.learn(120, alpha=0.05)
    by_hand.learn(110, alpha=0.02)
    by_hand.learn(70, alpha=0.2)
    assert run.network.weights.tobytes() == by_hand.weights.tobytes()
    assert TrainingRun(tmp_path / "run").settings == settings  # saved in run.json and read back
    plain = settings.new_network()
    plain.learn(300, alpha=0.05)
    assert plain.weights.tobytes() != by_hand.weights.tobytes()


def test_reschedule_replaces_the_steps_to_come_and_keeps_the_run_reproducible(tmp_path: Path) -> None:
    settings = LearnSettings(**{**SETTINGS.__dict__, "alpha_steps": ((100, 0.02), (300, 0.01))})
    run = TrainingRun(tmp_path / "run", settings)
    run.run(games=200)
    with pytest.raises(InvalidInputError, match="after the 200 games trained so far, not at game 200"):
        run.reschedule([(200, 0.5)])
    run.reschedule([(250, 0.2)])
    assert run.settings.alpha_steps == ((100, 0.02), (250, 0.2))
    resumed = TrainingRun(tmp_path / "run")
    assert resumed.settings.alpha_steps == ((100, 0.02), (250, 0.2))  # saved
    resumed.run(games=320)

    fresh = TrainingRun(tmp_path / "fresh", resumed.settings)  # the saved schedule tells the whole story
    fresh.run(games=320)
    assert fresh.network.weights.tobytes() == resumed.network.weights.tobytes()
    unchanged = TrainingRun(tmp_path / "unchanged", settings)
    unchanged.run(games=320)
    assert unchanged.network.weights.tobytes() != resumed.network.weights.tobytes()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"alpha": 0}, "alpha must be a positive number"),
        ({"alpha_steps": [(10, 0.1), (10, 0.2)]}, "by increasing games, got 10 after 10"),
        ({"alpha_steps": [(0, 0.1)]}, "the games of an alpha step must be a positive integer"),
        ({"alpha_steps": [(10, -1.0)]}, "the alpha of an alpha step must be a positive number"),
        ({"alpha_steps": [(10, 0.1, 3)]}, "must be a pair"),
        ({"alpha_steps": "10:0.1"}, "must be a list of"),
        ({"rows": 5}, "not supported"),
        ({"tuples": [[(0, 0), (3, 3)]]}, "outside the 3x3 board"),
        ({"seed": -1}, "seed must be an integer in"),
        ({"checkpoint_minutes": 0}, "checkpoint_minutes"),
        ({"checkpoint_games": 0}, "checkpoint_games must be a positive integer"),
        ({"report_games": 0}, "report_games"),
        ({"window": 0}, "window"),
        ({"p_four": 1.5}, "p_four"),
        ({"initial_value": float("nan")}, "initial_value"),
        ({"td_lambda": 1.5}, "td_lambda must be a number from 0 to 1"),
        ({"td_lambda": "0.5", "horizon": None}, "td_lambda must be a number from 0 to 1, got '0.5'"),
        ({"td_lambda": 1.0, "horizon": None}, "td_lambda 1.0 has no default horizon: give one"),
        ({"td_lambda": 0.5, "horizon": 1}, "needs a horizon of at least 2"),
        ({"horizon": 0}, "horizon must be an integer from 1 to 64"),
        ({"td_lambda": 0.5, "horizon": 65}, "horizon must be an integer from 1 to 64"),
        ({"restarts": -1}, "restarts must be an integer from 0 to 64, got -1"),
        ({"restarts": "2"}, "restarts must be an integer from 0 to 64, got '2'"),
        ({"expected": 1}, "expected must be true or false, got 1"),
        ({"expected": True, "restarts": 1}, "expected updates are TD\\(0\\)"),
        ({"expected": True, "td_lambda": 0.5, "horizon": None}, "expected updates are TD\\(0\\)"),
        ({"stage_tiles": (256, 128)}, "stage tiles must increase: 128 comes after 256"),
        ({"stage_tiles": (2048,)}, "stage tile 2048 is not a power of two from 4 to 1024"),
        ({"stage_tiles": (100,)}, "stage tile 100 is not a power of two"),
        ({"stage_tiles": 128}, "stage tiles must be a list of tiles"),
    ],
)
def test_bad_settings_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        LearnSettings(**{**SETTINGS.__dict__, **changes})  # type: ignore[arg-type]


def test_td_lambda_settings_resolve_their_horizon_and_learn_as_the_network_does(tmp_path: Path) -> None:
    assert (SETTINGS.td_lambda, SETTINGS.horizon) == (0.0, 1)  # TD(0)
    assert LearnSettings(**{**SETTINGS.__dict__, "td_lambda": 0.5, "horizon": None}).horizon == 4
    assert LearnSettings(**{**SETTINGS.__dict__, "td_lambda": 0.5, "horizon": 7}).horizon == 7
    assert LearnSettings(**{**SETTINGS.__dict__, "td_lambda": 0, "horizon": 3}).horizon == 3  # delayed TD(0)
    settings = LearnSettings(**{**SETTINGS.__dict__, "td_lambda": 0.7, "horizon": None})
    run = TrainingRun(tmp_path / "run", settings)
    run.run(games=120)
    saved = json.loads((tmp_path / "run" / "run.json").read_text())["settings"]
    assert (saved["td_lambda"], saved["horizon"]) == (0.7, 7)
    assert TrainingRun(tmp_path / "run").settings == settings

    by_hand = settings.new_network()
    by_hand.learn(120, alpha=settings.alpha, td_lambda=0.7, horizon=7)
    assert run.network.weights.tobytes() == by_hand.weights.tobytes()
    plain = settings.new_network()
    plain.learn(120, alpha=settings.alpha)
    assert plain.weights.tobytes() != by_hand.weights.tobytes()


def test_a_run_saved_before_td_lambda_loads_as_td0(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    run.run(games=60)
    data = json.loads((tmp_path / "run.json").read_text())
    del data["settings"]["td_lambda"], data["settings"]["horizon"]
    (tmp_path / "run.json").write_text(json.dumps(data))
    assert TrainingRun(tmp_path).settings == SETTINGS


def test_restarts_are_saved_learn_as_the_network_does_and_a_run_saved_before_them_has_none(
    tmp_path: Path,
) -> None:
    settings = LearnSettings(**{**SETTINGS.__dict__, "restarts": 3})
    run = TrainingRun(tmp_path / "run", settings)
    run.run(games=100)
    assert json.loads((tmp_path / "run" / "run.json").read_text())["settings"]["restarts"] == 3
    assert TrainingRun(tmp_path / "run").settings == settings
    by_hand = settings.new_network()
    by_hand.learn(100, alpha=settings.alpha, restarts=3)
    assert run.network.weights.tobytes() == by_hand.weights.tobytes()
    assert (run.network.trained.games, run.network.trained.moves) == (by_hand.trained.games, by_hand.trained.moves)
    plain = settings.new_network()
    stats = plain.learn(100, alpha=settings.alpha)
    assert plain.weights.tobytes() != by_hand.weights.tobytes()
    assert plain.trained.moves == stats.results.moves.sum() < by_hand.trained.moves  # the restarts' moves count

    data = json.loads((tmp_path / "run" / "run.json").read_text())
    del data["settings"]["restarts"]
    (tmp_path / "run" / "run.json").write_text(json.dumps(data))
    assert TrainingRun(tmp_path / "run").settings.restarts == 0


def test_expected_updates_are_saved_learn_as_the_network_does_and_a_run_saved_before_them_has_none(
    tmp_path: Path,
) -> None:
    settings = LearnSettings(**{**SETTINGS.__dict__, "expected": True})
    run = TrainingRun(tmp_path / "run", settings)
    run.run(games=100)
    assert json.loads((tmp_path / "run" / "run.json").read_text())["settings"]["expected"] is True
    assert TrainingRun(tmp_path / "run").settings == settings
    by_hand = settings.new_network()
    by_hand.learn(100, alpha=settings.alpha, expected=True)
    assert run.network.weights.tobytes() == by_hand.weights.tobytes()
    sampled = settings.new_network()
    sampled.learn(100, alpha=settings.alpha)
    assert sampled.weights.tobytes() != by_hand.weights.tobytes()

    data = json.loads((tmp_path / "run" / "run.json").read_text())
    del data["settings"]["expected"]
    (tmp_path / "run" / "run.json").write_text(json.dumps(data))
    assert TrainingRun(tmp_path / "run").settings.expected is False


def test_stage_tiles_are_saved_and_a_run_saved_before_them_has_one_stage(tmp_path: Path) -> None:
    settings = LearnSettings(**{**SETTINGS.__dict__, "stage_tiles": [64, 256]})  # type: ignore[arg-type]
    assert settings.stage_tiles == (64, 256)
    run = TrainingRun(tmp_path / "staged", settings)
    run.run(games=150)
    assert json.loads((tmp_path / "staged" / "run.json").read_text())["settings"]["stage_tiles"] == [64, 256]
    again = TrainingRun(tmp_path / "staged")
    assert again.settings == settings and again.network.stage_tiles == (64, 256)
    assert again.network.weights.tobytes() == run.network.weights.tobytes()

    plain = TrainingRun(tmp_path / "plain", SETTINGS)
    plain.run(games=60)
    data = json.loads((tmp_path / "plain" / "run.json").read_text())
    del data["settings"]["stage_tiles"]
    (tmp_path / "plain" / "run.json").write_text(json.dumps(data))
    assert TrainingRun(tmp_path / "plain").settings == SETTINGS

    data["settings"]["stage_tiles"] = [256]  # the settings no longer match the saved network
    (tmp_path / "plain" / "run.json").write_text(json.dumps(data))
    with pytest.raises(CorruptFileError, match=r"holds a network with stage tiles \[\], not \[256\]"):
        TrainingRun(tmp_path / "plain")


def test_evaluation_is_seeded_and_has_an_interval() -> None:
    network = NTupleNetwork(3, 3, seed=1)
    network.learn(200, alpha=0.1)
    seed = evaluation_seed(SETTINGS)
    a, b = play_greedy_games(network, 100, seed=seed), play_greedy_games(network, 100, seed=seed)
    assert a == b and a.games == 100 and a.interval is not None and a.interval[0] < a.mean_score < a.interval[1]
    assert a.max_tile >= 128 and tuple(a.reach) == reach_tiles(3, 3)
    with pytest.raises(InvalidInputError, match="at least 2 games"):
        play_greedy_games(network, 1, seed=seed)


def test_docstring_examples() -> None:
    result = doctest.testmod(learning, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
