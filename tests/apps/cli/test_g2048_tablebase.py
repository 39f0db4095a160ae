"""``plyground 2048 tablebase``: build, query (text and JSON, under a symmetry), list, info, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.apps.cli.test_main import assert_one_line_error, run_cli

FORMATION = "xxx/x../..T"
BOARD = "64 32 16/16 2 4/8 2 0"  # the formation as written: frozen tiles of 16 or more
TURNED = "16 16 8/32 2 2/64 4 0"  # the same board transposed


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from plyground.apps.cli.main import main

    folder = tmp_path_factory.mktemp("tablebases")
    assert main(["2048", "tablebase", "build", FORMATION, "--target", "16", "--dir", str(folder)]) == 0
    return folder


def test_build_says_what_it_built_and_builds_once(tables: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (tables / "xxx-x..-..T_T16_p0.1" / "tablebase.json").exists()
    status, out, err = run_cli(capsys, "2048", "tablebase", "build", FORMATION, "--target", "16", "--dir", str(tables))
    assert status == 0 and out.startswith("already built: ") and err == ""


def test_an_image_of_a_built_formation_is_not_built_again(tables: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mirrored = "xxx/..x/T.."  # FORMATION, xxx/x../..T, mirrored left to right
    status, out, _ = run_cli(capsys, "2048", "tablebase", "build", mirrored, "--target", "16", "--dir", str(tables))
    assert status == 0 and out.startswith("already built as its image xxx/x../..T (one table serves every image): ")
    assert not (tables / "xxx-..x-T.._T16_p0.1").exists()
    _, out, _ = run_cli(capsys, "2048", "tablebase", "query", "64 32 16/2 4 16/0 2 8", "--dir", str(tables), "--json")
    assert json.loads(out)["formation"] == mirrored  # the built table answers the mirrored board


def test_a_build_prints_its_estimate_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "2048", "tablebase", "build", "xx/.T", "--target", "8", "--p-four", "0",
                               "--dir", str(tmp_path))  # fmt: skip
    assert status == 0
    assert "xx/.T for 8 (p_four 0): 9 states:" in err and "MB of memory" in err
    assert out.startswith("built xx/.T for 8: 9 states in ") and (tmp_path / "xx-.T_T8_p0").is_dir()
    status, out, err = run_cli(capsys, "2048", "tablebase", "build", "xx/.T", "--target", "16", "--p-four", "0",
                               "--dir", str(tmp_path), "--workers", "1")  # fmt: skip
    assert status == 0 and out.startswith("built xx/.T for 16: 16 states in ") and " s on 1 thread, " in out
    status, out, err = run_cli(capsys, "2048", "tablebase", "build", "xxxx/xxxx/...T/....", "--target", "8",
                               "--dir", str(tmp_path), "--dask-local", "2")  # fmt: skip
    assert status == 0, err
    assert " s on 2 shards a layer on a local Dask cluster of 2 workers, " in " ".join(out.split())


def test_a_capped_formation_builds_and_says_its_caps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "2048", "tablebase", "build", "x./2T", "--target", "16", "--dir",
                               str(tmp_path))  # fmt: skip
    assert status == 0 and "x./2T for 16 (p_four 0.1): 48 states:" in err  # the capped cell holds 0, 2 or 4
    status, out, _ = run_cli(capsys, "2048", "tablebase", "info", "x.-2T_T16_p0.1", "--dir", str(tmp_path))
    assert status == 0 and "3 free cells, 1 cell with a cap, goal at row 2, column 2" in " ".join(out.split())
    _, out, _ = run_cli(capsys, "2048", "tablebase", "query", "32 8/4 8", "--dir", str(tmp_path), "--json")
    assert json.loads(out)["formation"] == "x./2T" and json.loads(out)["moves"]["down"] == 1.0  # 8 + 8 on the goal
    _, out, _ = run_cli(capsys, "2048", "tablebase", "query", "32 4/8 0", "--dir", str(tmp_path), "--json")
    assert json.loads(out)["value"] == 0.0  # an 8 above its cell's cap of 4


def test_query_gives_each_moves_odds(tables: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.g2048 import Board
    from plyground.g2048.tablebase import load_tablebase

    table = load_tablebase(tables / "xxx-x..-..T_T16_p0.1")
    status, out, _ = run_cli(capsys, "2048", "tablebase", "query", BOARD, "--dir", str(tables), "--json")
    assert status == 0
    answer = json.loads(out)
    assert answer["moves"] == table.move_values(Board.parse(BOARD)) and answer["best"] == table.best_move(
        Board.parse(BOARD)
    )
    assert (answer["formation"], answer["target"], answer["table"]) == (FORMATION, 16, "xxx-x..-..T_T16_p0.1")
    assert answer["chain"] == 16  # no frozen neighbour of the goal: the 16 merges into nothing
    status, out, _ = run_cli(capsys, "2048", "tablebase", "query", BOARD, "--dir", str(tables))
    assert status == 0 and f"table: {FORMATION} for 16 (p_four 0.1)" in out and "<- best" in out


def test_query_finds_the_table_under_a_symmetry(tables: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "2048", "tablebase", "query", BOARD, "--dir", str(tables), "--json")
    plain = json.loads(out)
    status, out, _ = run_cli(capsys, "2048", "tablebase", "query", TURNED, "--dir", str(tables), "--json")
    turned = json.loads(out)
    assert status == 0 and turned["formation"] == "xx./x../x.T"
    swap = {"up": "left", "left": "up", "down": "right", "right": "down"}  # a transpose swaps them
    assert turned["moves"] == {swap[move]: value for move, value in plain["moves"].items()}
    assert turned["value"] == plain["value"]


def test_list_and_info(tables: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "2048", "tablebase", "list", "--dir", str(tables))
    assert status == 0 and FORMATION in out and "xxx-x..-..T_T16_p0.1" in out and "states" in out
    status, out, _ = run_cli(capsys, "2048", "tablebase", "info", "xxx-x..-..T_T16_p0.1", "--dir", str(tables))
    assert status == 0 and "5 free cells, goal at row 3, column 3" in out and "target:    16" in out
    assert "checksums: ok" in out and "values within 7.6e-06 of exact" in out
    status, out, _ = run_cli(capsys, "2048", "tablebase", "list", "--dir", str(tables / "none"))
    assert status == 0 and out.startswith("no endgame table built yet")


def test_the_standard_set_fits_the_machine_it_is_sized_for(capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.g2048.tablebase import STANDARD_TABLES, Formation, estimate_formation

    status, out, _ = run_cli(capsys, "2048", "tablebase", "standard")
    assert status == 0 and len(out.splitlines()) == len(STANDARD_TABLES) + 1
    assert "in all" in out and "1,739,337,874 states" in out and "5,218.0 MB" in out
    estimates = [estimate_formation(Formation.parse(text), target) for text, target in STANDARD_TABLES]
    assert sum(e.table_bytes for e in estimates) <= 8e9 and max(e.memory_bytes for e in estimates) <= 16e9
    assert sum(e.seconds for e in estimates) <= 3600


def test_every_standard_set_is_sized_for_the_machine(capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.g2048.tablebase import STANDARD_SETS, Formation, estimate_formation

    assert set(STANDARD_SETS) == {"4x4", "4x3", "3x4", "3x3"}
    for size, tables in STANDARD_SETS.items():
        rows, cols = map(int, size.split("x"))
        formations = [Formation.parse(text) for text, _ in tables]
        assert all((f.rows, f.cols) == (rows, cols) for f in formations), size
        estimates = [estimate_formation(f, target) for f, (_, target) in zip(formations, tables, strict=True)]
        assert sum(e.table_bytes for e in estimates) <= 8e9 and max(e.memory_bytes for e in estimates) <= 16e9
        status, out, _ = run_cli(capsys, "2048", "tablebase", "standard", "--size", size)
        assert status == 0 and len(out.splitlines()) == len(tables) + 1
        assert f"{sum(e.states for e in estimates):,} states" in out.splitlines()[-1]


def test_a_standard_set_of_a_bad_size_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "2048", "tablebase", "standard", "--size", "4by4")
    assert status == 2
    assert_one_line_error(err.splitlines()[-1] + "\n", "a board size is written RxC")


def test_build_standard_of_a_size_builds_its_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.g2048 import Board
    from plyground.g2048.tablebase import STANDARD_SETS, Advisor, Formation, table_name

    status, out, err = run_cli(capsys, "2048", "tablebase", "build", "--standard", "--size", "3x3", "--dir",
                               str(tmp_path))  # fmt: skip
    assert status == 0, err
    built = sorted(path.name for path in tmp_path.iterdir() if (path / "tablebase.json").exists())
    assert built == sorted(table_name(Formation.parse(text), target, 0.1) for text, target in STANDARD_SETS["3x3"])
    advice = Advisor.load(tmp_path).advise(Board.parse("512 256 128/0 2 0/4 0 2"))
    assert advice is not None and advice.table.target == 128 and advice.formation == "xxx/..T/..."
    status, out, _ = run_cli(capsys, "2048", "tablebase", "build", "--standard", "--size", "3x3", "--dir",
                             str(tmp_path))  # fmt: skip
    assert status == 0 and out.count("already built") == len(STANDARD_SETS["3x3"])


def test_list_names_an_unfinished_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.g2048.tablebase import Formation, solve_formation

    solve_formation(Formation.parse("xx/.T"), 8, work=tmp_path / "xx-.T_T8_p0.1" / "work")
    status, out, _ = run_cli(capsys, "2048", "tablebase", "list", "--dir", str(tmp_path))
    assert status == 0 and out == "unfinished build: xx-.T_T8_p0.1 (the same build command goes on with it)\n"


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["build", "xxxx/xxxx/..../....", "--target", "64"], ["exactly one goal cell T"]),
        (["build", "..../..../..../...T", "--target", "64"], ["needs frozen cells"]),
        (["build", "xxxx/xxxx/...T/....", "--target", "48"], ["power of two"]),
        (["build", "xxxx/xxx./...T/....", "--target", "32768"], ["more than this machine has", "--force"]),
        (["build", "--standard", "--target", "64"], ["--standard builds the standard set: give it without"]),
        (["build", "xxxx/xxxx/...T/...."], ["give FORMATION and --target T, or --standard"]),
        (["build", "xx/.T", "--target", "8", "--size", "3x3"], ["--size names the standard set", "--standard"]),
        (["build", "--standard", "--size", "2x2"], ["no standard set of 2x2 boards; there are sets of 4x4"]),
        (["build", "xx/.T", "--target", "8", "--workers", "0"], ["--workers", "0"]),
        (["build", "xx/.T", "--target", "8", "--dask-local", "1", "--scheduler", "tcp://x:1"], ["choose one of"]),
        (["query", "2 2/0 0"], ["no endgame table fits 2 2/0 0 (1 in"]),
        (["query", "2 x/0 0"], ["cannot read cell"]),
        (["info", "nothing"], ["no endgame table in"]),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    tables: Path, capsys: pytest.CaptureFixture[str], args: list[str], parts: list[str]
) -> None:
    status, _, err = run_cli(capsys, "2048", "tablebase", *args, "--dir", str(tables))
    assert status == 2
    assert_one_line_error(err.splitlines()[-1] + "\n", *parts)


def test_a_damaged_table_is_one_line_and_status_2(tables: Path, capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:  # fmt: skip
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(tables, copy)
    values = copy / "xxx-x..-..T_T16_p0.1" / "values.npy"
    data = bytearray(values.read_bytes())
    data[-1] ^= 1  # one value changed: only the checksum tells
    values.write_bytes(bytes(data))
    status, _, err = run_cli(capsys, "2048", "tablebase", "info", "xxx-x..-..T_T16_p0.1", "--dir", str(copy))
    assert status == 2
    assert_one_line_error(err, "values.npy is damaged: its bytes do not match its checksum")
    values.write_bytes(b"broken")
    status, _, err = run_cli(capsys, "2048", "tablebase", "query", BOARD, "--dir", str(copy))
    assert status == 2
    assert_one_line_error(err, "values.npy: not an array of an endgame table")


def test_hint_names_the_tables_move_and_its_probability(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, _ = run_cli(
        capsys, "2048", "tablebase", "build", "xxx/x.T/...", "--target", "16", "--dir", str(tmp_path)
    )
    assert status == 0
    board = "64 32 16/128 0 8/0 2 8"
    status, out, _ = run_cli(capsys, "2048", "hint", board, "--depth", "1", "--tablebases", str(tmp_path), "--json")
    answer = json.loads(out)
    assert status == 0 and answer["best"] == "up" and answer["table"]["formation"] == "xxx/x.T/..."
    assert answer["table"]["probability"] == 1.0 and answer["table"]["target"] == 16
    assert answer["table"]["chain"] == 256  # 16 above the goal, then 32, 64 and 128 in a path: the 16 makes 256
    status, out, _ = run_cli(capsys, "2048", "tablebase", "query", board, "--dir", str(tmp_path))
    assert status == 0 and "the 16 then merges down the chain into 256: 1.000000 is its odds too" in out
    status, out, _ = run_cli(capsys, "2048", "hint", board, "--depth", "1", "--tablebases", str(tmp_path))
    assert status == 0 and "endgame table xxx/x.T/... for 16: up, which builds the 16 with probability 1.000000" in out
    status, out, _ = run_cli(capsys, "2048", "hint", board, "--depth", "1", "--tablebases", "none", "--json")
    assert status == 0 and "table" not in json.loads(out)
    status, _, err = run_cli(capsys, "2048", "hint", board, "--tablebases", str(tmp_path / "none"))
    assert status == 2
    assert_one_line_error(err, "no endgame table in")


def test_ai_plays_the_tables_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for formation, target in (("xxx/x.T/...", "16"), ("xxx/xxT/...", "32")):
        status, _, _ = run_cli(
            capsys, "2048", "tablebase", "build", formation, "--target", target, "--dir", str(tmp_path)
        )
        assert status == 0
    games = ["--rows", "3", "--cols", "3", "--games", "6", "--depth", "1", "--seed", "1", "--json"]
    status, out, _ = run_cli(capsys, "2048", "ai", *games, "--tablebases", str(tmp_path))
    with_tables = json.loads(out)
    assert status == 0 and with_tables["title"].endswith(", 2 endgame tables")
    assert sum(game["table_moves"] for game in with_tables["results"]) > 0
    assert all(game["mean_depth"] == 1.0 for game in with_tables["results"])  # over the moves searched only
    status, out, _ = run_cli(capsys, "2048", "ai", *games, "--tablebases", "none")
    without = json.loads(out)
    assert status == 0 and all(game["table_moves"] == 0 for game in without["results"])


def test_a_search_agent_plays_the_advice_unsearched() -> None:
    from plyground.g2048 import Board
    from plyground.g2048.agent import SearchAgent
    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.heuristic import Heuristic
    from plyground.g2048.state import State
    from plyground.g2048.tablebase import Advisor, Formation, solve_formation

    advisor = Advisor([solve_formation(Formation.parse("xxx/x.T/..."), 16)])
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as search:
        agent = SearchAgent(search, advisor)
        assert agent.name.endswith(" + endgame tables (play)")
        action = agent.choose(State.from_board(Board.parse("64 32 16/128 0 8/0 2 8")))
        assert action == 0 and agent.advice is not None and agent.advice.probability == 1.0
        assert agent.last is not None and agent.last.depth == 0 and agent.last.move == "up"
        agent.choose(State.from_board(Board.parse("2 2 0/0 0 0/0 0 0")))
        assert agent.advice is None and agent.last is not None and agent.last.depth == 1


def test_a_guarding_agent_plays_the_search_unless_the_table_sees_a_loss() -> None:
    from plyground.errors import InvalidInputError
    from plyground.g2048 import Board
    from plyground.g2048.agent import SearchAgent
    from plyground.g2048.expectimax import Decision, Expectimax
    from plyground.g2048.heuristic import Heuristic
    from plyground.g2048.state import State
    from plyground.g2048.tablebase import Advisor, Formation, answer, solve_formation

    table = solve_formation(Formation.parse("xxx/x.T/..."), 16)
    board = Board.parse("64 32 16/128 0 8/0 2 8")  # up builds 16 on the goal for sure
    found = answer(table, board)
    assert found is not None and found.moves == {"up": 1.0, "left": 0.0}
    close = Board.parse("64 32 16/128 0 2/4 2 4")  # up 0.081, left 0.132: within a margin of 0.06, not of 0.04

    class Fixed:  # a search that always wants one move
        def __init__(self, move: str) -> None:
            self.move, self.evaluator = move, Heuristic()

        def choose(self, board: Board) -> Decision:
            return Decision(self.move, depth=3)

    for wanted, played in (("left", "up"), ("up", "up"), ("down", "down")):  # down slides a frozen tile
        agent = SearchAgent(Fixed(wanted), Advisor([table]), table_use="guard", margin=0.05)  # type: ignore[arg-type]
        move = ("up", "right", "down", "left")[agent.choose(State.from_board(board))]
        assert move == played, wanted
        assert (agent.advice is not None) == (wanted != played) and agent.last is not None
        assert agent.last.depth == (0 if wanted != played else 3)
    for margin, played in ((0.06, "up"), (0.04, "left")):
        agent = SearchAgent(Fixed("up"), Advisor([table]), table_use="guard", margin=margin)  # type: ignore[arg-type]
        assert ("up", "right", "down", "left")[agent.choose(State.from_board(close))] == played, margin
    for use in ("guard", "play"):  # a table's best of 0.132 is not heeded with a confidence of 0.5
        agent = SearchAgent(Fixed("up"), Advisor([table]), table_use=use, margin=0.04, confidence=0.5)  # type: ignore[arg-type]
        assert agent.choose(State.from_board(close)) == 0 and agent.advice is None
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as search:
        assert SearchAgent(search, Advisor([table]), table_use="guard").name.endswith("(guard)")
        with pytest.raises(InvalidInputError, match="a table's use is one of play, guard, leaves, got 'blind'"):
            SearchAgent(search, Advisor([table]), table_use="blind")
        with pytest.raises(InvalidInputError, match="the margin is a probability"):
            SearchAgent(search, Advisor([table]), margin=float("nan"))
        with pytest.raises(InvalidInputError, match="the confidence is a probability"):
            SearchAgent(search, Advisor([table]), confidence=1.5)


def test_bench_records_the_tables_and_their_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tables = tmp_path / "tables"
    for formation, target in (("xxx/x.T/...", "16"), ("xxx/xxT/...", "32")):
        status, _, _ = run_cli(
            capsys, "2048", "tablebase", "build", formation, "--target", target, "--dir", str(tables)
        )
        assert status == 0
    db = str(tmp_path / "results.sqlite")
    games = ["--rows", "3", "--cols", "3", "--games", "6", "--depth", "1", "--seed", "1", "--workers", "1", "--db", db]
    status, _, err = run_cli(capsys, "2048", "bench", *games, "--tablebases", str(tables))
    assert status == 0, err
    status, _, err = run_cli(capsys, "2048", "bench", *games, "--tablebases", "none")
    assert status == 0, err
    status, out, _ = run_cli(capsys, "2048", "report", "--db", db, "--json")
    with_tables, without = json.loads(out)["runs"]
    assert with_tables["tablebases"] == ["xxx-x.T-..._T16_p0.1", "xxx-xxT-..._T32_p0.1"][::-1]  # the largest first
    assert sum(game["table_moves"] for game in with_tables["results"]) > 0
    assert without["tablebases"] == [] and all(game["table_moves"] == 0 for game in without["results"])
    status, out, _ = run_cli(capsys, "2048", "report", "--db", db)
    assert status == 0 and "endgame" in out  # "+ 2 endgame tables" beside the run's evaluator, wrapped in its cell


def test_tables_are_played_only_when_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    """Taken blindly, the tables measured weaker than the search: without --tablebases none is consulted, even
    where some are built; --tablebases built names those of the user data folder."""
    status, _, _ = run_cli(capsys, "2048", "tablebase", "build", "xxx/x.T/...", "--target", "16")  # the data folder
    assert status == 0
    board = "64 32 16/128 0 8/0 2 8"
    status, out, _ = run_cli(capsys, "2048", "hint", board, "--depth", "1", "--json")
    assert status == 0 and "table" not in json.loads(out)
    status, out, _ = run_cli(capsys, "2048", "hint", board, "--depth", "1", "--tablebases", "built", "--json")
    assert status == 0 and json.loads(out)["table"]["formation"] == "xxx/x.T/..."
