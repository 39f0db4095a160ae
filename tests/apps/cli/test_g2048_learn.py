"""``plyground 2048 learn``: a run folder, resume of the latest run, evaluation, Ctrl-C, one-line errors."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plyground.apps.cli.options import cores
from plyground.errors import install_command
from plyground.g2048.ntuple import LearnSettings, NTupleNetwork, TrainingRun
from plyground.g2048.ntuple.packed import read_header
from tests.apps.cli.test_main import assert_one_line_error, run_cli

SMALL = ("--rows", "2", "--cols", "2", "--seed", "3")


def test_learn_writes_a_run_folder_and_resume_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path / "data"))
    status, out, err = run_cli(capsys, "2048", "learn", *SMALL, "--games", "1500", "--evaluate", "50")
    assert status == 0, err
    (folder,) = (tmp_path / "data" / "ntuple").iterdir()
    assert folder.name.endswith("-2x2-seed3")
    assert sorted(p.name for p in folder.iterdir()) == [
        "curve.csv",
        "curve.png",
        "network.npz",
        "recent.json",
        "run.json",
    ]
    assert f"learning in {folder}: 2x2, 1 tuple, alpha 0.1, seed 3; goal 1,500 games in all, 1 worker" in err
    summary, evaluation = out.strip().splitlines()
    assert summary.startswith("1,500 games, ") and summary.endswith(f"network in {folder / 'network.npz'}")
    assert "mean score" in summary and "over the last 1,000 games" in summary
    assert evaluation.startswith("greedy 1-ply play, 50 games: mean score ") and "95% interval" in evaluation
    assert len((folder / "curve.csv").read_text().splitlines()) == 1 + 2  # 1,000 and 1,500 games

    monkeypatch.setattr("plyground.apps.cli.options.cores", lambda: 2)  # two workers on a one-core machine too
    status, out, err = run_cli(capsys, "2048", "learn", "--resume", "--games", "2500", "--workers", "2")
    assert status == 0, err
    assert f"resuming {folder}: 1,500 games trained" in err and "2 workers" in err
    assert out.startswith("2,500 games, ")
    assert NTupleNetwork.load(folder / "network.npz").trained.games == 2500

    status, out, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(folder))  # the goal is reached
    assert status == 0, err
    assert out.startswith("2,500 games, ")


def test_learn_without_matplotlib_says_once_that_it_draws_no_curve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib... now fails
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    monkeypatch.setattr("plyground.apps.cli.g2048_learn._PLOT_SECONDS", 0.0)  # try at every checkpoint
    args = ("--games", "3000", "--checkpoint-minutes", "0.001", "--out", str(tmp_path / "run"))
    status, _, err = run_cli(capsys, "2048", "learn", *SMALL, *args)
    assert status == 0, err
    notes = [line for line in err.splitlines() if "curve.png" in line]
    assert notes == [f"note: curve.png is not drawn: plots need matplotlib: {install_command('tune')}"], err
    assert (tmp_path / "run" / "curve.csv").exists() and not (tmp_path / "run" / "curve.png").exists()


def test_counts_of_one_are_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TrainingRun, "run", lambda self, **kwargs: self.report())  # no minute of training here
    args = ("--minutes", "1", "--restarts", "1", "--out", str(tmp_path / "run"))
    status, out, err = run_cli(capsys, "2048", "learn", *SMALL, *args)
    assert status == 0, err
    assert "2x2, 1 tuple, alpha 0.1, 1 restart a game, seed 3; goal 1 minute of training in all, 1 worker" in err
    assert out.startswith("0 games, 0 moves in 0.0 s of training")


def test_a_run_in_the_background_logs_progress_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("plyground.apps.cli.g2048_learn._LOG_SECONDS", 0.0)
    args = ("--games", "3000", "--out", str(tmp_path / "run"))
    status, _, err = run_cli(capsys, "2048", "learn", *SMALL, *args)
    assert status == 0, err
    lines = [line for line in err.splitlines() if " of training: " in line]
    assert len(lines) >= 3, err  # a line after each batch of games here; one a minute by default
    assert "3,000 games, mean " in lines[-1] and "M moves/s" in lines[-1]
    monkeypatch.setattr("plyground.apps.cli.g2048_learn._LOG_SECONDS", 3600.0)
    status, _, err = run_cli(capsys, "2048", "learn", "--games", "3100", "--resume", "--out", str(tmp_path / "run"))
    assert status == 0, err
    assert " of training: " not in err


def test_alpha_steps_are_saved_and_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "run"
    args = ("--games", "300", "--out", str(out_dir), "--alpha-step", "100:0.05", "--alpha-step", "2_00:0.01")
    status, _, err = run_cli(capsys, "2048", "learn", *SMALL, *args)
    assert status == 0, err
    assert "alpha 0.1, 0.05 from game 100, 0.01 from game 200, seed" in err
    assert TrainingRun(out_dir).settings.alpha_steps == ((100, 0.05), (200, 0.01))
    status, _, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(out_dir), "--alpha-step", "250:0.5")
    assert status == 2
    assert_one_line_error(err, "must come after the 300 games trained so far")
    args = ("--resume", "--out", str(out_dir), "--games", "500", "--alpha-step", "400:0.02")
    status, _, err = run_cli(capsys, "2048", "learn", *args)
    assert status == 0, err
    assert "alpha 0.1, 0.05 from game 100, 0.01 from game 200, 0.02 from game 400, seed" in err
    assert TrainingRun(out_dir).settings.alpha_steps == ((100, 0.05), (200, 0.01), (400, 0.02))


def test_tc_and_a_given_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "run"
    args = ("2048", "learn", *SMALL, "--tc", "--games", "300", "--out", str(out_dir), "--checkpoint-minutes", "2")
    status, _, err = run_cli(capsys, *args)
    assert status == 0, err
    run = TrainingRun(out_dir)
    assert run.settings.tc and run.settings.alpha == 1.0 and run.settings.checkpoint_minutes == 2.0
    assert run.network.uses_tc and run.network.trained.games == 300
    status, _, err = run_cli(capsys, *args)
    assert status == 2
    assert_one_line_error(err, "already holds a training run")


def test_td_lambda_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "run"
    status, _, err = run_cli(
        capsys, "2048", "learn", *SMALL, "--lambda", "0.5", "--games", "200", "--out", str(out_dir)
    )
    assert status == 0, err
    assert "alpha 0.1, lambda 0.5 over 4 moves, seed 3" in err
    settings = TrainingRun(out_dir).settings
    assert (settings.td_lambda, settings.horizon) == (0.5, 4)
    args = ("2048", "learn", *SMALL, "--tc", "--lambda", "0.3", "--horizon", "6", "--games", "200")
    status, _, err = run_cli(capsys, *args, "--out", str(tmp_path / "other"))
    assert status == 0, err
    assert "alpha 1 with TC, lambda 0.3 over 6 moves, seed 3" in err
    assert TrainingRun(tmp_path / "other").network.trained.games == 200


def test_restarts_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "run"
    args = ("2048", "learn", *SMALL, "--tc", "--restarts", "2", "--games", "200", "--out", str(out_dir))
    status, _, err = run_cli(capsys, *args)
    assert status == 0, err
    assert "alpha 1 with TC, 2 restarts a game, seed 3" in err
    run = TrainingRun(out_dir)
    assert run.settings.restarts == 2
    status, _, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(out_dir), "--games", "300")
    assert status == 0, err
    assert TrainingRun(out_dir).network.trained.games == 300


def test_expected_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "run"
    args = ("2048", "learn", *SMALL, "--tc", "--expected", "--games", "200", "--out", str(out_dir))
    status, _, err = run_cli(capsys, *args)
    assert status == 0, err
    assert "alpha 1 with TC, expected updates, seed 3" in err
    assert TrainingRun(out_dir).settings.expected is True
    status, _, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(out_dir), "--games", "300")
    assert status == 0, err
    assert TrainingRun(out_dir).network.trained.games == 300


def test_stage_tile_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "run"
    args = ("2048", "learn", *SMALL, "--stage-tile", "8", "--stage-tile", "16", "--games", "300")
    status, _, err = run_cli(capsys, *args, "--out", str(out_dir))
    assert status == 0, err
    assert "2x2, 1 tuple, 3 stages (from 8, 16), alpha 0.1, seed 3" in err
    run = TrainingRun(out_dir)
    assert run.settings.stage_tiles == run.network.stage_tiles == (8, 16)
    assert run.network.weights[-(6**4) :].any()  # games reached 16 on the 2x2 board (radix 6): the last stage learnt
    status, _, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(out_dir), "--games", "400")
    assert status == 0, err
    assert TrainingRun(out_dir).network.trained.games == 400


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (("--stage-tile", "32", "--stage-tile", "16", "--games", "5"), ("stage tiles must increase",)),
        (
            ("--stage-tile", "64", "--rows", "2", "--cols", "2", "--games", "5"),
            ("stage tile 64 is not a power of two from 4 to 32",),
        ),
        (("--stage-tile", "ten", "--games", "5"), ("--stage-tile",)),
        (("--resume", "--stage-tile", "16"), ("drop --stage-tile",)),
        (("--lambda", "0.5", "--horizon", "1", "--games", "5"), ("needs a horizon of at least 2",)),
        (("--lambda", "1", "--games", "5"), ("td_lambda 1.0 has no default horizon: give one",)),
        (("--lambda", "1.5", "--games", "5"), ("--lambda",)),
        (("--horizon", "65", "--games", "5"), ("--horizon",)),
        (("--resume", "--lambda", "0.5"), ("drop --lambda",)),
        (("--restarts", "65", "--games", "5"), ("--restarts",)),
        (("--restarts", "-1", "--games", "5"), ("--restarts",)),
        (("--resume", "--restarts", "1"), ("drop --restarts",)),
        (("--expected", "--restarts", "1", "--games", "5"), ("expected updates are TD(0)",)),
        (("--expected", "--lambda", "0.5", "--games", "5"), ("expected updates are TD(0)", "takes no --lambda")),
        (
            ("--expected", "--horizon", "3", "--restarts", "2", "--games", "5"),
            ("--expected takes no --horizon and no --restarts",),
        ),
        (("--resume", "--expected"), ("drop --expected",)),
        (("--minutes", "1", "--games", "10"), ("--minutes or --games",)),
        (("--resume", "--alpha", "0.2", "--rows", "3"), ("a resumed run keeps its settings", "--alpha, --rows")),
        (("--resume", "--tc"), ("drop --tc/--no-tc",)),
        (("--alpha-step", "10=0.01", "--games", "5"), ("--alpha-step must be GAMES:ALPHA", "'10=0.01'")),
        (("--alpha-step", "ten:0.01", "--games", "5"), ("--alpha-step must be GAMES:ALPHA",)),
        (("--alpha-step", "10:0", "--games", "5"), ("the alpha of an alpha step must be a positive number",)),
        (("--alpha-step", "10:0.1", "--alpha-step", "5:0.01"), ("by increasing games", "5 after 10")),
        (("--resume",), ("no training run to resume",)),
        (("--alpha", "0", "--games", "5"), ("'--alpha': must be a number more than 0",)),
        (("--workers", "0"), ("--workers",)),
        (("--games", "0"), ("--games",)),
        (("--evaluate", "1"), ("--evaluate",)),
        (("--rows", "5"), ("--rows",)),
    ],
)
def test_bad_options_are_one_line(
    args: tuple[str, ...],
    parts: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path))
    status, _, err = run_cli(capsys, "2048", "learn", *args)
    assert status == 2
    assert_one_line_error(err, *parts)


def test_a_corrupt_network_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "run"
    status, _, err = run_cli(capsys, "2048", "learn", *SMALL, "--games", "100", "--out", str(folder))
    assert status == 0, err
    (folder / "network.npz").write_bytes(b"not a network")
    status, _, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(folder), "--games", "200")
    assert status == 2
    assert_one_line_error(err, "network.npz is not a readable n-tuple network file")
    assert "pickle" not in err  # numpy's advice on pickled files is not for a network file


@pytest.mark.parametrize(("workers", "signum"), [(1, signal.SIGINT), (2, signal.SIGINT), (1, signal.SIGTERM)])
def test_ctrl_c_or_sigterm_checkpoints_and_exits_128_plus_the_signal(
    tmp_path: Path, workers: int, signum: signal.Signals
) -> None:
    folder = tmp_path / "run"
    used = min(workers, cores())  # --workers 2 is lowered to 1 on a one-core machine
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "plyground.apps.cli.main",
            "2048",
            "learn",
            *SMALL,
            "--minutes",
            "5",
            "--workers",
            str(workers),
            "--out",
            str(folder),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PLYGROUND_DATA_DIR": str(tmp_path / "data")},
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()  # printed once Ctrl-C is handled
        if used < workers:
            assert line.startswith(f"--workers {workers}: using {used}"), line
            line = process.stderr.readline()
        assert line.startswith("learning in "), line
        time.sleep(0.5)
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 128 + signum, err  # 130 for Ctrl-C, 143 for SIGTERM
    assert "stopping: saving a checkpoint" in err
    again = f"--resume --out {folder}" + (f" --workers {used}" if used > 1 else "")  # the same speed again
    assert f"'plyground 2048 learn {again}' goes on" in err
    assert out == ""
    games = NTupleNetwork.load(folder / "network.npz").trained.games
    assert games > 0 and f"interrupted after {games:,} games" in err


def test_a_run_without_its_network_is_not_resumed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "run"
    status, _, err = run_cli(capsys, "2048", "learn", *SMALL, "--games", "5", "--out", str(folder))
    assert status == 0, err
    (folder / "network.npz").unlink()
    files = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert {"run.json", "curve.csv", "recent.json"} <= set(files)
    status, out, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(folder), "--games", "10")
    assert status == 2 and out == ""
    assert_one_line_error(err, f"{folder / 'network.npz'} is missing: the run cannot be resumed")
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == files  # the history is kept


def test_a_goal_already_reached_trains_nothing_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "run"
    status, _, err = run_cli(capsys, "2048", "learn", *SMALL, "--games", "5", "--out", str(folder))
    assert status == 0, err
    files = {path.name: path.read_bytes() for path in folder.iterdir()}
    for goal, reached in ((("--games", "2"), "2 games"), (("--games", "5"), "5 games"), ((), "5 games")):
        status, out, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(folder), *goal)
        assert status == 0, err
        assert f"nothing to train: {folder} already has 5 games in " in err
        assert f"of training, at or past the goal of {reached}" in err and "learning in" not in err
        assert out.startswith("5 games, ")
        assert {path.name: path.read_bytes() for path in folder.iterdir()} == files  # the goal saved stays 5 games


THREE = ("--rows", "3", "--cols", "3")


def _source_run(capsys: pytest.CaptureFixture[str], folder: Path, *more: str) -> None:
    status, _, err = run_cli(
        capsys, "2048", "learn", *THREE, "--seed", "5", "--games", "400", "--out", str(folder), *more
    )
    assert status == 0, err


def test_from_a_run_goes_on_from_its_network_and_packs_with_a_recipe_that_does_it_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "a"
    _source_run(capsys, source)
    start = NTupleNetwork.load(source / "network.npz")
    args = ("--from", str(source), "--seed", "7", "--alpha", "0.05", "--games", "600")
    status, out, err = run_cli(capsys, "2048", "learn", *args, "--out", str(tmp_path / "b"))
    assert status == 0, err
    assert f"3x3 from the network {source} (400 games), 2 tuples, alpha 0.05, seed 7; goal 600 games in all" in err
    assert out.startswith("600 games, ")
    warm = NTupleNetwork.load(tmp_path / "b" / "network.npz")
    by_hand = start.warm_start(seed=7)
    by_hand.learn(200, alpha=0.05)
    assert warm.trained.games == 600 and warm.weights.tobytes() == by_hand.weights.tobytes()
    saved = json.loads((tmp_path / "b" / "run.json").read_text())["settings"]["start"]
    assert saved["network"] == str(source) and saved["games"] == 400
    assert saved["recipe"]["command"] == "plyground 2048 learn --games 400 --workers 1 --seed 5 --rows 3 --cols 3"

    status, out, err = run_cli(capsys, "2048", "pack", str(tmp_path / "b"), "--out", str(tmp_path / "b.pnet"))
    assert status == 0, err
    recipe = read_header(tmp_path / "b.pnet")["recipe"]
    assert recipe["command"] == (
        f"plyground 2048 learn --games 600 --workers 1 --seed 7 --from {source} --rows 3 --cols 3 --alpha 0.05"
    )
    assert (
        recipe["from"] == saved and recipe["from"]["weights_sha256"] == hashlib.sha256(start.weights.data).hexdigest()
    )
    words = shlex.split(recipe["command"])  # the recipe, run again, learns the same weights
    status, _, err = run_cli(capsys, *words[1:], "--out", str(tmp_path / "again"))
    assert status == 0, err
    assert NTupleNetwork.load(tmp_path / "again" / "network.npz").weights.tobytes() == warm.weights.tobytes()


def test_from_the_shipped_network_with_stages_added_and_the_default_goal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _source_run(capsys, tmp_path / "a")
    status, _, err = run_cli(capsys, "2048", "pack", str(tmp_path / "a"), "--out", str(tmp_path / "a.pnet"))
    assert status == 0, err
    monkeypatch.setenv("PLYGROUND_NETWORK", str(tmp_path / "a.pnet"))  # what 'network' names
    monkeypatch.setattr(TrainingRun, "run", lambda self, **kwargs: self.report())  # no minutes of training here
    args = ("--from", "network", "--stage-tile", "256", "--seed", "2", "--out", str(tmp_path / "b"))
    status, _, err = run_cli(capsys, "2048", "learn", *args)
    assert status == 0, err
    assert "3x3 from the shipped network (400 games), 2 tuples, 2 stages (from 256)" in err
    data = json.loads((tmp_path / "b" / "run.json").read_text())
    packed = read_header(tmp_path / "a.pnet")
    seconds = packed["training"]["seconds"]
    assert data["goal"] == {"minutes": round(seconds / 60 + 10, 1)}  # ten minutes more than it has
    start = data["settings"]["start"]
    assert start["network"] == "network" and start["weights_sha256"] == packed["weights_sha256"]
    assert start["recipe"] == packed["recipe"] and data["settings"]["stage_tiles"] == [256]
    assert NTupleNetwork.load(tmp_path / "b" / "network.npz").stage_tiles == (256,)


@pytest.fixture(scope="module")
def staged_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a 3x3 run of two stages (from 256), 400 games trained."""
    folder = tmp_path_factory.mktemp("staged") / "run"
    TrainingRun(folder, LearnSettings(rows=3, cols=3, seed=5, stage_tiles=(256,))).run(games=400)
    return folder


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (("--games", "400"), ("--games 400: the network", "has 400 games of training already", "give more")),
        (("--minutes", "1.5"), ("--minutes 1.5: the network", "has 2.0 minutes of training already")),
        (
            ("--rows", "4"),
            (
                "--rows 4: the network",
                "is 3x3",
            ),
        ),
        (("--initial-value", "5"), ("--initial-value sets an untrained network",)),
        (("--alpha-step", "100:0.01"), ("must come after the 400 games of the network the run starts from",)),
        (("--stage-tile", "512"), ("has stages from 256: drop --stage-tile",)),
    ],
)
def test_bad_options_from_a_network_are_one_line_and_write_nothing(
    args: tuple[str, ...], parts: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _source_run(capsys, tmp_path / "a", "--stage-tile", "256")
    network = NTupleNetwork.load(tmp_path / "a" / "network.npz")  # two minutes of training, on any machine
    network.loaded_from(tmp_path / "a" / "network.npz", dataclasses.replace(network.trained, seconds=120.0))
    network.save(tmp_path / "a" / "network.npz")
    status, _, err = run_cli(
        capsys, "2048", "learn", "--from", str(tmp_path / "a"), *args, "--out", str(tmp_path / "b")
    )
    assert status == 2
    assert_one_line_error(err, *parts)
    assert not (tmp_path / "b").exists()


def test_from_nothing_or_with_resume_is_one_line_and_ntuple_names_a_network(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(capsys, "2048", "learn", "--from", str(tmp_path / "none"), "--out", str(tmp_path / "b"))
    assert status == 2
    assert_one_line_error(err, f"n-tuple network file {tmp_path / 'none'} does not exist")
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    status, _, err = run_cli(capsys, "2048", "learn", "--from", str(tmp_path / "bad.npz"), "--out", str(tmp_path / "b"))
    assert status == 2
    assert_one_line_error(err, "bad.npz is not a readable n-tuple network file")
    _source_run(capsys, tmp_path / "a")
    status, _, err = run_cli(capsys, "2048", "learn", "--resume", "--out", str(tmp_path / "a"), "--from", "network")
    assert status == 2
    assert_one_line_error(err, "a resumed run keeps its settings: drop --from")
    named = f"ntuple:{tmp_path / 'a'}"  # as --evaluator names it
    status, _, err = run_cli(capsys, "2048", "learn", "--from", named, "--games", "401", "--out", str(tmp_path / "c"))
    assert status == 0, err
    assert NTupleNetwork.load(tmp_path / "c" / "network.npz").trained.games == 401
