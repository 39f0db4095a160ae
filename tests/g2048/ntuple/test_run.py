"""Training runs: the folder, checkpoints, a SIGKILL resumed to the uninterrupted end, older runs, evaluation."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from plyground.core.stats import reach_tiles
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.ntuple import (
    LearnSettings,
    NTupleNetwork,
    TrainingRun,
    WarmStart,
    evaluation_seed,
    play_greedy_games,
)
from tests.g2048.ntuple import SETTINGS, SMALL


def test_a_run_folder_holds_the_network_the_curve_and_the_settings(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    reports = []
    last = run.run(games=230, on_progress=reports.append)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "curve.csv",
        "network.npz",
        "recent.json",
        "run.json",
    ]  # data only: the command line draws curve.png
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


def test_every_checkpoint_is_handed_on(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)  # a checkpoint every 100 games
    seen: list[int] = []
    run.run(games=250, on_checkpoint=lambda: seen.append(TrainingRun(tmp_path).network.trained.games))
    assert seen == [100, 200, 250]  # each once saved, the last one too


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
    from plyground.g2048.ntuple import LearnSettings, TrainingRun
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


def test_a_run_that_lost_its_network_is_not_resumed(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    run.run(games=60)
    (tmp_path / "network.npz").unlink()  # its curve and recent games stay: not a run killed before a checkpoint
    with pytest.raises(CorruptFileError, match=r"network\.npz is missing: the run cannot be resumed"):
        TrainingRun(tmp_path)


def test_done_is_for_the_saved_goal_or_the_one_given(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    run.run(games=60)
    assert run.done() and run.done(games=60) and run.done(games=2) and not run.done(games=61)
    assert not run.done(minutes=1) and run.done(minutes=1e-9)


def _trained(games: int = 300) -> NTupleNetwork:
    """A network of ``SETTINGS``'s size and tuples, trained for ``games`` games."""
    network = SETTINGS.new_network()
    network.learn(games, alpha=SETTINGS.alpha)
    return network


def _from(network: NTupleNetwork, **changes: object) -> LearnSettings:
    """``SETTINGS`` for a run that starts from ``network``."""
    return LearnSettings(**{**SETTINGS.__dict__, "start": WarmStart.of(network, "trained"), **changes})


def test_a_run_from_a_trained_network_goes_on_from_it_and_resumes(tmp_path: Path) -> None:
    network = _trained()
    settings = _from(network, seed=11)
    run = TrainingRun(tmp_path / "warm", settings, start=network)
    # It checkpoints at once: killed now, it resumes from the network, not from zero.
    assert sorted(p.name for p in (tmp_path / "warm").iterdir()) == [
        "curve.csv",
        "network.npz",
        "recent.json",
        "run.json",
    ]
    saved = TrainingRun(tmp_path / "warm")
    assert saved.settings == settings and saved.network.trained == network.trained
    assert saved.network.weights.tobytes() == network.weights.tobytes() and saved.network.rng_state == 11
    assert run.done(games=300) and not run.done(games=301)
    run.run(games=420)
    assert run.network.trained.games == 420 and [row.games for row in run.curve] == [350, 400, 420]
    assert network.trained.games == 300  # the network it started from did not learn
    by_hand = network.warm_start(seed=11)  # the run learns as the copy of the network does
    by_hand.learn(120, alpha=SETTINGS.alpha)
    assert run.network.weights.tobytes() == by_hand.weights.tobytes()
    saved.run(games=420)  # resumed from the first checkpoint: the same end
    assert saved.network.weights.tobytes() == run.network.weights.tobytes()


def test_a_run_from_a_trained_network_plays_better_than_one_from_zero(tmp_path: Path) -> None:
    network = _trained(2000)
    warm = TrainingRun(tmp_path / "warm", _from(network, seed=11), start=network)
    warm.run(games=2050)
    cold = TrainingRun(tmp_path / "cold", LearnSettings(**{**SETTINGS.__dict__, "seed": 11}))
    cold.run(games=50)
    seed = evaluation_seed(SETTINGS)
    a, b = play_greedy_games(warm.network, 200, seed=seed), play_greedy_games(cold.network, 200, seed=seed)
    assert a.mean_score > 1.2 * b.mean_score, (a.mean_score, b.mean_score)


def test_a_run_with_stages_from_a_network_of_one_values_boards_as_it_did(tmp_path: Path) -> None:
    network = _trained()
    run = TrainingRun(tmp_path / "staged", _from(network, stage_tiles=(128,)), start=network)
    assert run.network.stage_tiles == (128,) and TrainingRun(tmp_path / "staged").network.stage_tiles == (128,)
    seed = evaluation_seed(SETTINGS)
    assert play_greedy_games(run.network, 30, seed=seed) == play_greedy_games(network, 30, seed=seed)


def test_a_start_that_the_settings_do_not_describe_is_refused(tmp_path: Path) -> None:
    network = _trained()
    with pytest.raises(InvalidInputError, match="needs settings whose start describes it"):
        TrainingRun(tmp_path / "a", SETTINGS, start=network)
    other = _trained(301)
    with pytest.raises(InvalidInputError, match="has 301 games of training, not 300"):
        TrainingRun(tmp_path / "b", _from(network), start=other)
    twin = SETTINGS.new_network()  # the same games, other weights
    twin.learn(300, alpha=0.2)
    with pytest.raises(InvalidInputError, match="not those of trained"):
        TrainingRun(tmp_path / "c", _from(network), start=twin)
    small = NTupleNetwork(2, 2, seed=1)
    with pytest.raises(InvalidInputError, match="a 2x2 network of 1 tuples: the settings are for 3x3 and 2 tuples"):
        TrainingRun(tmp_path / "d", _from(network), start=small)
    with pytest.raises(InvalidInputError, match="give start only to a new run"):
        TrainingRun(tmp_path / "e", start=network)
    assert not any((tmp_path / name).exists() for name in "abcde")  # nothing written for a refused run


def test_a_run_from_a_trained_network_that_lost_it_is_not_started_over(tmp_path: Path) -> None:
    network = _trained()
    TrainingRun(tmp_path, _from(network), start=network)
    (tmp_path / "network.npz").unlink()
    with pytest.raises(CorruptFileError, match=r"network\.npz is missing: the run from the network trained cannot"):
        TrainingRun(tmp_path)
