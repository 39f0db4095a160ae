"""``plyground 2048 pack``: a run packed with its recipe, and the recipe trains the same network again."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pytest

from plyground.apps.cli.g2048_pack import learn_command
from plyground.g2048 import Board
from plyground.g2048.ntuple import LearnSettings, NTupleNetwork
from plyground.g2048.ntuple.packed import read_header, unpack
from tests.apps.cli.test_main import assert_one_line_error, run_cli


def test_a_run_packs_with_the_recipe_that_trains_it_again(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    learn = ("2048", "learn", "--rows", "3", "--cols", "3", "--seed", "5", "--tc", "--restarts", "1")
    status, _, err = run_cli(capsys, *learn, "--games", "400", "--out", str(tmp_path / "run"))
    assert status == 0, err
    samples = tmp_path / "samples.json"
    args = ("--out", str(tmp_path / "a.pnet"), "--samples", str(samples))
    status, out, err = run_cli(capsys, "2048", "pack", str(tmp_path / "run"), *args)
    assert status == 0, err
    header = read_header(tmp_path / "a.pnet")
    recipe = header["recipe"]
    assert recipe["games"] == 400 and recipe["seed"] == 5 and recipe["minutes"] >= 0
    command = "plyground 2048 learn --games 400 --workers 1 --seed 5 --rows 3 --cols 3 --tc --restarts 1"
    assert recipe["command"] == command and f"recipe: {command}" in out
    assert "weights kept" in out and header["step"] == 1.0
    # The recipe, run again elsewhere, gives the same network: the same packed weights.
    words = shlex.split(recipe["command"])
    assert words[:3] == ["plyground", "2048", "learn"]
    status, _, err = run_cli(capsys, *words[1:], "--out", str(tmp_path / "again"))
    assert status == 0, err
    status, _, err = run_cli(capsys, "2048", "pack", str(tmp_path / "again"), "--out", str(tmp_path / "b.pnet"))
    assert status == 0, err
    assert read_header(tmp_path / "b.pnet")["weights_sha256"] == header["weights_sha256"]
    full = NTupleNetwork.load(tmp_path / "run" / "network.npz")
    assert np.abs(unpack(tmp_path / "a.pnet").weights - full.weights).max() <= 0.5
    sampled = json.loads(samples.read_text())  # afterstates of the full network's games, with its values
    assert sampled["packed_sha256"] == header["weights_sha256"] and len(sampled["boards"]) == 1000
    assert (sampled["rows"], sampled["cols"]) == (3, 3)
    boards = [Board(int(bits, 16), 3, 3) for bits in sampled["boards"]]
    assert [full.value(board) for board in boards] == sampled["values"]
    assert len(set(sampled["boards"])) > 500


def test_a_network_file_packs_without_a_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    net = NTupleNetwork(2, 3, seed=2)
    net.learn(50, alpha=0.1)
    net.save(tmp_path / "net.npz")
    status, _, err = run_cli(capsys, "2048", "pack", str(tmp_path / "net.npz"), "--out", str(tmp_path / "n.pnet"))
    assert status == 0, err
    recipe = read_header(tmp_path / "n.pnet")["recipe"]
    assert "command" not in recipe and recipe["games"] == 50


def test_prune_leaves_out_the_small_weights(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    net = NTupleNetwork(2, 3, seed=2)
    net.learn(200, alpha=0.1)
    net.save(tmp_path / "net.npz")
    touched = np.abs(net.weights[net.weights != 0])
    prune = float(np.median(touched))
    args = ("2048", "pack", str(tmp_path / "net.npz"), "--out", str(tmp_path / "n.pnet"), "--prune", f"{prune!r}")
    status, out, err = run_cli(capsys, *args)
    assert status == 0, err
    header = read_header(tmp_path / "n.pnet")
    assert header["prune"] == prune and header["count"] == int((touched >= prune).sum()) < touched.size
    assert f"{header['count']:,} of {header['size']:,} weights kept" in out
    status, _, err = run_cli(capsys, *args[:-1], "-0.5")
    assert status == 2
    assert_one_line_error(err, "Invalid value for '--prune': must be a number from 0 to 1,000,000, got -0.5")


def test_bad_packing_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = str(tmp_path / "x.pnet")
    status, _, err = run_cli(capsys, "2048", "pack", str(tmp_path), "--out", out_file, "--step", "3")
    assert status == 2
    assert_one_line_error(err, "--step must be a power of two")
    status, _, err = run_cli(capsys, "2048", "pack", str(tmp_path / "absent.npz"), "--out", out_file)
    assert status == 2
    assert_one_line_error(err, "does not exist")
    assert not (tmp_path / "x.pnet").exists()


def test_the_command_names_every_setting_that_is_not_a_default() -> None:
    settings = LearnSettings(
        rows=2, cols=4, seed=9, alpha=0.05, alpha_steps=((100, 0.01),), td_lambda=0.5, horizon=3, expected=False,
        stage_tiles=(256,), p_four=0.2, initial_value=100.0,
    )  # fmt: skip
    assert learn_command(settings, 7) == (
        "plyground 2048 learn --games 7 --workers 1 --seed 9 --rows 2 --cols 4 --alpha 0.05 --alpha-step 100:0.01 "
        "--lambda 0.5 --horizon 3 --stage-tile 256 --p-four 0.2 --initial-value 100"
    )


def _tiny_run(capsys: pytest.CaptureFixture[str], folder: Path) -> dict[str, bytes]:
    """A training run of 5 games on 2x2 in ``folder``; its files' contents."""
    status, _, err = run_cli(
        capsys, "2048", "learn", "--rows", "2", "--cols", "2", "--seed", "3", "--games", "5", "--out", str(folder)
    )
    assert status == 0, err
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def test_pack_never_writes_over_the_network_or_a_file_of_its_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _tiny_run(capsys, tmp_path / "run")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.npz").symlink_to(tmp_path / "run" / "network.npz")
    cases = [
        ("run", "run/network.npz", "is the network to pack"),
        ("run/network.npz", "./run/../run/network.npz", "is the network to pack"),
        ("run", "link.npz", "is the network to pack"),  # the network, through a link
        ("link.npz", str(tmp_path / "run" / "network.npz"), "is the network to pack"),
        ("run", "run/run.json", "is a file of the training run in run"),
        ("run", "run/curve.csv", "is a file of the training run in run"),
        ("run", "run/recent.json", "is a file of the training run in run"),
    ]
    for source, out, message in cases:
        status, out_text, err = run_cli(capsys, "2048", "pack", source, "--out", out)
        assert status == 2, (source, out, out_text)
        assert_one_line_error(err, f"--out {out} {message}")
        assert {path.name: path.read_bytes() for path in (tmp_path / "run").iterdir()} == files
    status, _, err = run_cli(capsys, "2048", "learn", "--resume", "--out", "run", "--games", "6")
    assert status == 0, err  # the run goes on
    # A plain network file is not written over either; a new file in a run's folder is fine.
    NTupleNetwork(2, 2, seed=1).save(tmp_path / "net.npz")
    net = (tmp_path / "net.npz").read_bytes()
    status, _, err = run_cli(capsys, "2048", "pack", "net.npz", "--out", "net.npz")
    assert status == 2
    assert_one_line_error(err, "--out net.npz is the network to pack")
    assert (tmp_path / "net.npz").read_bytes() == net
    status, _, err = run_cli(capsys, "2048", "pack", "run", "--out", "run/packed.pnet")
    assert status == 0, err
    assert read_header(tmp_path / "run" / "packed.pnet")["recipe"]["games"] == 6


def test_samples_never_write_over_the_packed_network_the_network_or_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = tmp_path / "run"
    files = _tiny_run(capsys, run)
    out = str(tmp_path / "z.pnet")
    cases = [
        (out, "is the --out file"),
        (str(tmp_path / "." / "z.pnet"), "is the --out file"),
        (str(run / "network.npz"), "is the network to pack"),
        (str(run / "run.json"), f"is a file of the training run in {run}"),
        (str(run / "curve.csv"), f"is a file of the training run in {run}"),
    ]
    for samples, message in cases:
        status, _, err = run_cli(capsys, "2048", "pack", str(run), "--out", out, "--samples", samples)
        assert status == 2, samples
        assert_one_line_error(err, f"--samples {samples} {message}")
        assert not (tmp_path / "z.pnet").exists()
        assert {path.name: path.read_bytes() for path in run.iterdir()} == files


def test_an_empty_path_or_a_folder_is_refused_before_anything_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = tmp_path / "run"
    _tiny_run(capsys, run)
    (tmp_path / "adir").mkdir()
    out = str(tmp_path / "z.pnet")
    cases = [
        (("--out", ""), "--out is empty"),
        (("--out", str(tmp_path / "adir")), f"--out {tmp_path / 'adir'} is a folder"),
        (("--out", str(run)), f"--out {run} is a folder"),
        (("--out", out, "--samples", ""), "--samples is empty"),
        (("--out", out, "--samples", str(tmp_path / "adir")), f"--samples {tmp_path / 'adir'} is a folder"),
    ]
    for args, message in cases:
        status, _, err = run_cli(capsys, "2048", "pack", str(run), *args)
        assert status == 2, args
        assert_one_line_error(err, message)
        assert sorted(path.name for path in tmp_path.iterdir()) == ["adir", "run"]  # no packed file, no temporary one
    assert list((tmp_path / "adir").iterdir()) == []
