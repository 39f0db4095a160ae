"""The evaluator interface: the heuristic and the n-tuple network behind one parser and one size check."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError
from plyground.g2048 import Board, Expectimax, default_weights, evaluate
from plyground.g2048.evaluator import Evaluator, Explanation, MoveValue
from plyground.g2048.heuristic import Heuristic
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.registry import UnknownEvaluatorError, load_evaluator, network_path

ROOT = Path(__file__).resolve().parents[2]
BOARD = Board.parse("2 4 0 0/0 8 0 2/0 0 16 0/0 2 0 4")


@pytest.fixture(scope="module")
def network_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    network = NTupleNetwork(4, 4, tuples=[[(0, 0), (0, 1), (1, 0)], [(1, 1), (1, 2), (2, 1)]], seed=1)
    network.learn(100, alpha=0.1)
    path = tmp_path_factory.mktemp("nets") / "net.npz"
    network.save(path)
    return path


def run_folder(root: Path, name: str, network_file: Path) -> Path:
    folder = root / "ntuple" / name
    folder.mkdir(parents=True)
    (folder / "network.npz").write_bytes(network_file.read_bytes())
    return folder


def test_both_evaluators_are_evaluators(network_file: Path) -> None:
    network = NTupleNetwork.load(network_file)
    for evaluator, shape, unit in ((Heuristic(), None, "heuristic units"), (network, (4, 4), "points")):
        assert isinstance(evaluator, Evaluator)
        assert evaluator.shape == shape and evaluator.unit == unit
        assert evaluator.values_points is (unit == "points")
    assert network.name == f"n-tuple network {network_file}" and network.label == "n-tuple network net.npz"
    assert NTupleNetwork(2, 2).name == "n-tuple network" and NTupleNetwork(2, 2).path is None


def test_the_heuristic_explains_the_board_feature_by_feature() -> None:
    weights = default_weights()
    explanation = Heuristic(weights).explain(BOARD)
    expected = evaluate(BOARD, weights)
    assert explanation.total == expected.total and dict(explanation.contributions) == expected.contributions
    assert explanation.moves == {} and explanation.unit == "heuristic units"
    assert Heuristic(weights).value(BOARD) == expected.total
    assert explanation.to_json()["afterstates"] is None
    assert explanation.to_json()["evaluation"]["contributions"] == expected.contributions


def test_the_network_explains_each_move_by_points_and_value(network_file: Path) -> None:
    network = NTupleNetwork.load(network_file)
    explanation = network.explain(BOARD)
    assert set(explanation.moves) == set(BOARD.legal_moves()) and explanation.total is None
    for move, part in explanation.moves.items():
        after, points = BOARD.move(move)
        assert part == MoveValue(points, network.value(after)) and part.total == points + network.value(after)
    as_json = explanation.to_json()
    assert as_json["evaluation"] is None
    assert as_json["afterstates"] == {
        move: {"points": part.points, "value": part.value, "total": part.total}
        for move, part in explanation.moves.items()
    }
    # depth 1 of the search is the network's greedy value: points + V
    values = Expectimax(depth=1, workers=1, evaluator=network).choose(BOARD).values
    assert values == pytest.approx({move: part.total for move, part in explanation.moves.items()})


def test_json_has_no_infinities() -> None:
    explanation = Explanation("heuristic", "heuristic units", float("-inf"), {"empty": float("nan"), "merges": 1.0})
    assert explanation.to_json()["evaluation"] == {"total": None, "contributions": {"empty": None, "merges": 1.0}}


def test_one_size_check_with_one_message(network_file: Path) -> None:
    network = NTupleNetwork.load(network_file)
    message = "the n-tuple network net.npz plays 4x4 boards, not 3x3 ones"
    for check in (
        lambda: network.check_size(3, 3),
        lambda: network.check_board(Board.empty(3, 3)),
        lambda: network.value(Board.empty(3, 3)),
        lambda: network.explain(Board.empty(3, 3)),
        lambda: Expectimax(depth=1, workers=1, evaluator=network).choose(Board.parse("2 0 0/0 2 0/0 0 0")),
    ):
        with pytest.raises(InvalidBoardError, match=f"^{re.escape(message)}$"):
            check()
    Heuristic().check_size(2, 3)  # the heuristic plays every size
    with pytest.raises(InvalidBoardError, match="expected a Board, got str"):
        Heuristic().check_board("2 2/0 0")  # type: ignore[arg-type]


def test_the_parser_takes_a_file_a_run_folder_latest_and_tilde(
    network_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = NTupleNetwork.load(network_file).weights
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path / "data"))
    home_file = tmp_path / "nets" / "mine.npz"
    home_file.parent.mkdir()
    home_file.write_bytes(network_file.read_bytes())
    older = run_folder(tmp_path / "data", "20261130-101010-4x4-seed1", network_file)
    newer = run_folder(tmp_path / "data", "20261201-141231-4x4-seed3421747690758829729", network_file)
    (tmp_path / "data" / "ntuple" / "20261202-000000-4x4-seed9").mkdir()  # a run that has not saved its network yet

    assert network_path("~/nets/mine.npz") == home_file
    assert network_path(str(older)) == older / "network.npz"
    assert network_path("latest") == newer / "network.npz"
    for text, path in (
        ("ntuple:~/nets/mine.npz", home_file),
        (f"ntuple:{older}", older / "network.npz"),
        ("ntuple:~/data/ntuple/20261130-101010-4x4-seed1", older / "network.npz"),
        ("ntuple:latest", newer / "network.npz"),
    ):
        network = load_evaluator(text)
        assert isinstance(network, NTupleNetwork) and network.path == path, text
        assert (network.weights == expected).all()
    assert NTupleNetwork.load(newer / "network.npz").label == (
        "n-tuple network 20261201-141231-4x4-seed3421747690758829729/network.npz"
    )


def test_the_parser_refuses_in_one_line(network_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path / "data"))
    cases = [
        ("network.npz", UnknownEvaluatorError, "got 'network.npz'; did you mean 'ntuple:network.npz'?"),
        ("heurstic", UnknownEvaluatorError, "did you mean 'heuristic'?"),
        ("network:net.npz", UnknownEvaluatorError, "did you mean 'ntuple:net.npz'?"),
        ("ntuple:", UnknownEvaluatorError, "evaluator must be 'network', 'heuristic' or 'ntuple:PATH'"),
        ("networks", UnknownEvaluatorError, "got 'networks'; did you mean 'network'?"),
        ("net.pnet", UnknownEvaluatorError, "did you mean 'ntuple:net.pnet'?"),
        ("ntuple:latest", InvalidInputError, f"no trained network in {tmp_path / 'data' / 'ntuple'} yet"),
        (f"ntuple:{tmp_path / 'none.npz'}", InvalidInputError, "none.npz does not exist"),
        (f"ntuple:{tmp_path}", InvalidInputError, "holds no network.npz: it is not a training run's folder"),
    ]
    for text, error, part in cases:
        with pytest.raises(error, match=re.escape(part)) as info:
            load_evaluator(text)
        assert "\n" not in str(info.value) and not isinstance(info.value, CorruptFileError)
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(CorruptFileError, match=r"bad\.npz"):
        load_evaluator(f"ntuple:{tmp_path / 'bad.npz'}")
    with pytest.raises(InvalidInputError, match="weights set the heuristic"):
        load_evaluator(f"ntuple:{network_file}", weights=default_weights())
    with pytest.raises(UnknownEvaluatorError, match="got a int"):
        load_evaluator(3)  # type: ignore[arg-type]


def test_reuse_reads_a_network_once_until_its_file_changes(network_file: Path, tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    path.write_bytes(network_file.read_bytes())
    first = load_evaluator(f"ntuple:{path}", reuse=True)
    assert load_evaluator(f"ntuple:{path}", reuse=True) is first
    assert load_evaluator(f"ntuple:{path}") is not first  # without reuse: a network of its own
    NTupleNetwork(4, 4, seed=2).save(path)  # another network in the same file
    again = load_evaluator(f"ntuple:{path}", reuse=True)
    assert again is not first and isinstance(again, NTupleNetwork) and again.tuples != first.tuples  # type: ignore[attr-defined]


def test_heuristics_compare_by_weights_and_pickle_without_tables() -> None:
    heuristic = Heuristic()
    heuristic.prepare(4, 4)
    copy = pickle.loads(pickle.dumps(heuristic))
    assert copy == heuristic and hash(copy) == hash(heuristic) and copy.explain(BOARD) == heuristic.explain(BOARD)
    assert len(pickle.dumps(heuristic)) < 10_000  # the 5 MB table is rebuilt where it is needed
    assert Heuristic(default_weights()) == load_evaluator(None) == load_evaluator("heuristic")
    with pytest.raises(InvalidInputError, match="weights must be a Weights object"):
        Heuristic({"empty": 1.0})  # type: ignore[arg-type]


def test_only_the_evaluator_module_parses_evaluator_names() -> None:
    """``ntuple:`` is read in one place (evaluators.py); only the network's module reads its private attributes."""
    parsing = re.compile(r"""(removeprefix|startswith|partition|split)\(\s*["']ntuple:""")
    private = re.compile(r"\b\w*net\w*\._[a-z]\w*")  # a network's _weights, _trained, ...
    offenders = []
    for path in [*ROOT.glob("src/**/*.py"), *ROOT.glob("benchmarks/*.py"), *ROOT.glob("tests/**/*.py")]:
        relative = path.relative_to(ROOT).as_posix()
        network_module = relative == "src/plyground/g2048/ntuple/network.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if parsing.search(line) and relative != "src/plyground/g2048/evaluators.py":
                offenders.append(f"{relative}:{number} parses 'ntuple:'")
            if private.search(line) and not network_module:
                offenders.append(f"{relative}:{number} reads a network's private attribute")
    assert offenders == []
