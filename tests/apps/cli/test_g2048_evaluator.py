"""``plyground 2048 ai`` and ``hint`` with ``--evaluator ntuple:PATH``: a tiny network trained here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plyground.g2048 import DIRECTIONS, Board
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.ntuple import NTupleNetwork
from tests.apps.cli.test_g2048_ai import table_rows
from tests.apps.cli.test_main import assert_one_line_error, run_cli

BOARD = "2 2 0/0 4 0/0 0 8"


@pytest.fixture(scope="module")
def network_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    net = NTupleNetwork(3, 3, seed=7)
    net.learn(300, alpha=0.1)
    path = tmp_path_factory.mktemp("net") / "net-3x3.npz"
    net.save(path)
    return path


def test_ai_plays_with_the_network(capsys: pytest.CaptureFixture[str], network_file: Path) -> None:
    args = ("--rows", "3", "--cols", "3", "--depth", "1", "--seed", "4", "--games", "2")
    status, out, err = run_cli(capsys, "2048", "ai", *args, "--evaluator", f"ntuple:{network_file}")
    assert status == 0, err
    assert "n-tuple network" in out
    net = NTupleNetwork.load(network_file)
    from plyground.g2048.autoplay import play_game

    with Expectimax(depth=1, workers=1, evaluator=net) as ai:
        expected = {seed: play_game(ai, rows=3, cols=3, seed=seed) for seed in (4, 5)}
    rows = table_rows(out)
    assert sorted(rows) == [4, 5]
    for seed, result in expected.items():
        assert rows[seed][2:5] == [f"{result.score:,}", str(result.max_tile), f"{result.moves:,}"]


def test_hint_with_the_network(capsys: pytest.CaptureFixture[str], network_file: Path) -> None:
    status, out, err = run_cli(capsys, "2048", "hint", BOARD, "--depth", "2", "--evaluator", f"ntuple:{network_file}")
    assert status == 0, err
    net = NTupleNetwork.load(network_file)
    with Expectimax(depth=2, workers=1, evaluator=net) as ai:
        decision = ai.choose(Board.parse(BOARD))
    lines = out.splitlines()
    assert f"best move: {decision.move}" in lines
    assert "network value of each move (points + V of the board it leaves):" in lines
    assert not any(line.startswith("heuristic value of the board") for line in lines)
    assert "  move    expected future score, in points (the move's points and those still to come)" in lines
    for move in Board.parse(BOARD).legal_moves():
        after, points = Board.parse(BOARD).move(move)
        value = net.value(after)
        assert any(line.split() == [move, f"{points:,}", f"{value:,.1f}", f"{points + value:,.1f}"] for line in lines)


def test_hint_json_with_the_network(capsys: pytest.CaptureFixture[str], network_file: Path) -> None:
    evaluator = f"ntuple:{network_file}"
    status, out, _ = run_cli(capsys, "2048", "hint", BOARD, "--depth", "1", "--json", "--evaluator", evaluator)
    assert status == 0
    data = json.loads(out)
    assert data["evaluator"] == evaluator and "evaluation" not in data
    board = Board.parse(BOARD)
    assert set(data["afterstates"]) == set(board.legal_moves()) == set(data["values"])
    for move, parts in data["afterstates"].items():
        assert parts["points"] == board.move(move)[1]
        assert parts["total"] == parts["points"] + parts["value"]
        assert data["values"][move] == pytest.approx(parts["total"])  # depth 1: points + V
    best = max(data["values"], key=lambda m: (data["values"][m], -DIRECTIONS.index(m)))
    assert data["best"] == best and data["unit"] == "points"
    assert data["searched"] is None  # no 16384: the board searched is the board


def test_hint_says_when_the_network_searched_a_downgraded_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    net = NTupleNetwork(4, 4, [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1)]], seed=3)
    net.learn(50, alpha=0.1)
    path = tmp_path / "net-4x4.npz"
    net.save(path)
    board = "16384 8192 4096 64/2 4 8 16/0 0 0 0/0 0 0 2"  # 2048 missing: the three largest tiles are halved
    searched = "8192 4096 2048 64/2 4 8 16/0 0 0 0/0 0 0 2"
    args = ("2048", "hint", board, "--depth", "2", "--evaluator", f"ntuple:{path}")
    status, out, err = run_cli(capsys, *args, "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["searched"] == Board.parse(searched).to_text() and data["board"] == Board.parse(board).to_text()
    with Expectimax(depth=2, workers=1, evaluator=NTupleNetwork.load(path)) as ai:
        assert data["values"] == pytest.approx(ai.choose(Board.parse(searched)).values)
    status, out, err = run_cli(capsys, *args)
    assert status == 0, err
    assert f"searched as {Board.parse(searched).to_text()}: the tiles above the largest missing one halved" in out
    assert "expected future score of the board searched, in points" in out  # not the board's own points
    assert "network value of each move (points + V of the board it leaves, tiles as they are):" in out


def test_a_time_budget_with_the_network(capsys: pytest.CaptureFixture[str], network_file: Path) -> None:
    status, out, _ = run_cli(
        capsys, "2048", "hint", BOARD, "--time-ms", "20", "--json", "--evaluator", f"ntuple:{network_file}"
    )
    assert status == 0
    data = json.loads(out)
    assert data["depth"] >= 1 and data["best"] in DIRECTIONS


def _corrupt(tmp: Path) -> Path:
    path = tmp / "bad.npz"
    path.write_bytes(b"not a network at all")
    return path


@pytest.mark.parametrize(
    ("make", "part"),
    [
        (lambda tmp: tmp / "missing.npz", "does not exist"),
        (_corrupt, "is not a readable n-tuple network file"),
    ],
)
@pytest.mark.parametrize("command", [["ai", "--rows", "3", "--cols", "3", "--depth", "1"], ["hint", BOARD]])
def test_a_bad_network_file_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: object, part: str, command: list[str]
) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    status, out, err = run_cli(capsys, "2048", *command, "--evaluator", f"ntuple:{path}")
    assert status == 2
    assert out == ""
    assert_one_line_error(err, part, str(path))


@pytest.mark.parametrize(
    ("args", "part"),
    [
        (["ai", "--depth", "1", "--evaluator", "networks"], "--evaluator must be"),
        (["ai", "--rows", "3", "--cols", "3", "--evaluator", "network"], "plays 4x4 boards, not 3x3 ones"),
        (["ai", "--depth", "1", "--evaluator", "ntuple:{net}"], "not 4x4 ones: use --rows 3 --cols 3"),
        (
            ["hint", "2 2/0 0", "--evaluator", "ntuple:{net}"],
            "net-3x3.npz plays 3x3 boards, not 2x2 ones: search it with --evaluator heuristic, or give a 3x3 board",
        ),
        (["hint", BOARD, "--evaluator", "ntuple:{net}", "--weights", "w.json"], "--weights sets the heuristic"),
    ],
)
def test_bad_evaluator_options(
    capsys: pytest.CaptureFixture[str], network_file: Path, args: list[str], part: str
) -> None:
    status, out, err = run_cli(capsys, "2048", *(arg.format(net=network_file) for arg in args))
    assert status == 2
    assert out == ""
    assert_one_line_error(err, part)


@pytest.mark.parametrize("evaluator", ["networks", "heuristics", "net.npz"])
def test_a_name_of_no_evaluator_is_refused_before_the_network_kernels_compile(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, network_file: Path, evaluator: str
) -> None:
    from plyground.apps.cli import options

    compiled: list[tuple[str, str, str]] = []
    monkeypatch.setattr(options, "compile_kernels", lambda *groups: compiled.extend(groups))
    status, _, err = run_cli(capsys, "2048", "hint", BOARD, "--depth", "1", "--evaluator", evaluator)
    assert status == 2
    assert_one_line_error(err, "--evaluator must be")
    assert compiled == []  # a typo costs no compilation (about 7 s on a first run), and says none
    status, _, err = run_cli(capsys, "2048", "hint", BOARD, "--depth", "1", "--evaluator", f"ntuple:{network_file}")
    assert status == 0, err
    assert [(kernels, label) for _, kernels, label in compiled] == [
        ("_kernels.py", "2048"),  # loaded already: said once, by the command
        ("_ntuple_kernels.py", "n-tuple search"),
        ("_ntuple_leaf_kernels.py", "n-tuple search"),
        ("_packed_kernels.py", "n-tuple search"),
    ]


def test_the_network_named_as_the_readme_does(
    capsys: pytest.CaptureFixture[str], network_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``~`` is expanded, a training run's folder names its network, ``latest`` the newest run's."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path / ".local" / "share" / "plyground"))
    run = tmp_path / ".local" / "share" / "plyground" / "ntuple" / "20261201-141231-3x3-seed3421747690758829729"
    run.mkdir(parents=True)
    (run / "network.npz").write_bytes(network_file.read_bytes())
    expected = None
    for name in (
        f"ntuple:~/.local/share/plyground/ntuple/{run.name}/network.npz",
        f"ntuple:~/.local/share/plyground/ntuple/{run.name}",
        f"ntuple:{run}",
        "ntuple:latest",
    ):
        status, out, err = run_cli(capsys, "2048", "hint", BOARD, "--depth", "2", "--json", "--evaluator", name)
        assert status == 0, (name, err)
        values = json.loads(out)["values"]
        expected = expected or values
        assert values == expected, name
    status, _, err = run_cli(capsys, "2048", "hint", BOARD, "--evaluator", "network.npz")
    assert status == 2
    assert_one_line_error(err, "--evaluator must be", "did you mean 'ntuple:network.npz'?")
