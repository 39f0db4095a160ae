"""The network shipped with plyground: it loads, matches its checksum and recipe, equals the full one within its
rounding, and is what the commands use on 4×4 when no evaluator is named."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from plyground.g2048 import Board
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.ntuple import NTupleNetwork, default_tuples
from plyground.g2048.ntuple.packed import read_header, unpack
from plyground.g2048.registry import SHIPPED_FILE, load_evaluator, shipped_network_path
from tests.apps.cli.test_main import run_cli

SHIPPED = Path(__file__).resolve().parents[3] / "src" / "plyground" / "g2048" / "networks" / SHIPPED_FILE
SAMPLES = Path(__file__).resolve().parents[2] / "data" / "shipped_network_samples.json"
"""1,000 afterstates of the full network's greedy games with its values, written when the network was packed
(``plyground 2048 pack RUN --out FILE --samples SAMPLES``)."""
MAX_BYTES = 40_000_000


@pytest.fixture(scope="module")
def shipped() -> NTupleNetwork:
    return unpack(SHIPPED)


def test_the_shipped_file_is_in_the_package_and_small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLYGROUND_NETWORK", raising=False)
    assert shipped_network_path() == SHIPPED.resolve()
    assert SHIPPED.is_file() and SHIPPED.stat().st_size <= MAX_BYTES
    network = load_evaluator("network")
    assert isinstance(network, NTupleNetwork) and network.path == SHIPPED.resolve()


def test_it_loads_with_its_checksum_and_its_recipe(shipped: NTupleNetwork) -> None:
    header = read_header(SHIPPED)  # unpack() checked the body's and the weights' checksums
    recipe = header["recipe"]
    assert shipped.shape == (4, 4) and shipped.tuples == default_tuples(4, 4)
    assert recipe["games"] == shipped.trained.games > 0 and recipe["minutes"] > 0
    assert re.fullmatch(r"[0-9a-f]{40}", recipe["commit"])
    assert recipe["command"].startswith(f"plyground 2048 learn --games {recipe['games']} --workers 1 --seed ")
    assert f"--seed {recipe['seed']}" in recipe["command"]


def test_it_equals_the_full_network_within_its_rounding(shipped: NTupleNetwork) -> None:
    samples = json.loads(SAMPLES.read_text())
    header = read_header(SHIPPED)
    assert samples["packed_sha256"] == header["weights_sha256"]  # the samples of this very packing
    bound = shipped.n_lookups * header["max_error"]  # each lookup's weight is within max_error of the full one
    boards = [Board(int(bits, 16)) for bits in samples["boards"]]
    errors = [abs(shipped.value(board) - value) for board, value in zip(boards, samples["values"], strict=True)]
    assert len(errors) == 1000 and max(errors) <= bound + 1e-6 * max(map(abs, samples["values"]))
    assert sum(errors) > 0  # rounded: not the full network's file shipped as it is


def test_the_commands_use_it_on_4x4_and_the_heuristic_elsewhere(capsys: pytest.CaptureFixture[str]) -> None:
    board = "2 2 0 4/0 4 8 16/0 0 0 32/0 0 2 64"
    status, out, err = run_cli(capsys, "2048", "hint", board, "--depth", "2", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert (
        data["evaluator"] == "network" and data["unit"] == "points" and set(data["afterstates"]) == set(data["values"])
    )
    with Expectimax(depth=2, workers=1, evaluator=load_evaluator("network", reuse=True)) as ai:
        assert data["values"] == pytest.approx(ai.choose(Board.parse(board)).values)
    status, out, err = run_cli(capsys, "2048", "hint", "2 2 0/0 4 0/0 0 8", "--depth", "1", "--json")
    assert status == 0, err
    assert json.loads(out)["evaluator"] == "heuristic"
    status, out, err = run_cli(capsys, "2048", "ai", "--games", "1", "--depth", "1", "--seed", "3", "--json")
    assert status == 0, err
    assert json.loads(out)["title"].endswith(f"n-tuple network {SHIPPED_FILE}")
    status, out, err = run_cli(capsys, "2048", "ai", "--games", "1", "--depth", "1", "--seed", "3", "--json",
                               "--evaluator", "heuristic")  # fmt: skip
    assert status == 0, err
    assert "n-tuple" not in json.loads(out)["title"]
