"""The options every command shares: numbers checked before any work, --workers bounded, help at 80 columns."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from plyground.apps.cli.main import app
from plyground.apps.cli.options import (
    MAX_SEED,
    backend_from_options,
    bound_workers,
    cores,
    number_check,
    range_text,
)
from tests.apps.cli.test_main import assert_one_line_error, run_cli

ROOT = typer.main.get_command(app)


def commands(group: Any = ROOT, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command of the command line, with its path (``("2048", "ai")``), the groups too."""
    yield path, group
    for name, command in getattr(group, "commands", {}).items():
        yield from commands(command, (*path, name))


LEAVES = [(path, command) for path, command in commands() if not hasattr(command, "commands")]


def annotation(param: Any) -> Any:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        return descriptor.annotation
    return {"float": float, "integer": int}.get(getattr(param.type, "name", ""))


def float_options() -> list[tuple[tuple[str, ...], str]]:
    return [
        (path, param.opts[0])
        for path, command in LEAVES
        for param in command.params
        if param.param_type_name == "option" and annotation(param) is float
    ]


def name(item: object) -> str:
    """A test id: ``2048 ai`` for a path."""
    return " ".join(item) if isinstance(item, tuple) else str(item)


def parse(path: tuple[str, ...], *args: str) -> None:
    """Parse ``args`` for the command at ``path`` as the command line would, without running it."""
    command = dict(LEAVES)[path]
    needed = ["x" for param in command.params if param.param_type_name == "argument"]
    command.make_context(" ".join(path), [*needed, *args])


def test_every_kind_of_numeric_option_is_found() -> None:
    found = set(float_options())
    assert {(("2048", "ai"), "--time-ms"), (("2048", "video"), "--fps"), (("2048", "learn"), "--alpha")} <= found
    assert len(found) >= 20


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
@pytest.mark.parametrize(("path", "option"), float_options(), ids=name)
def test_every_number_is_finite(path: tuple[str, ...], option: str, value: str) -> None:
    with pytest.raises(typer.BadParameter) as caught:
        parse(path, option, value)
    assert f"'{option}': must be a" in caught.value.format_message()


@pytest.mark.parametrize(
    ("path", "option"),
    [(path, option) for path, option in float_options() if path[0] != "kinrow"],
    ids=name,
)
def test_every_2048_number_has_a_finite_range(path: tuple[str, ...], option: str) -> None:
    with pytest.raises(typer.BadParameter, match="must be a number"):
        parse(path, option, "1e308")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("2048", "ai", "--time-ms", "inf"), "--time-ms"),
        (("2048", "hint", "2 0/0 2", "--time-ms", "inf"), "--time-ms"),
        (("2048", "hint", "2 0/0 2", "--time-ms", "1e308"), "--time-ms"),
        (("2048", "ai", "--p-four", "nan"), "--p-four"),
        (("2048", "video", "game.json", "game.gif", "--fps", "inf"), "--fps"),
        (("2048", "gui", "--time-ms", "nan"), "--time-ms"),
        (("2048", "learn", "--alpha", "nan"), "--alpha"),
        (("2048", "learn", "--minutes", "1e308"), "--minutes"),
        (("2048", "tune", "--sigma", "nan"), "--sigma"),
        (("2048", "solve", "2x2", "--p-four", "nan"), "--p-four"),
        (("2048", "optimal", "2 0/0 2", "--p-four", "nan"), "--p-four"),
        (("2048", "ai", "--seed", str(2**64 - 1)), "--seed"),
        (("2048", "ai", "--seed", str(MAX_SEED), "--games", "2"), "--seed"),
        (("web", "--port", "70000"), "--port"),
    ],
)
def test_bad_numbers_are_one_line_before_any_work(
    args: tuple[str, ...],
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path))
    status, out, err = run_cli(capsys, *args)
    assert status == 2
    assert out == ""
    assert_one_line_error(err, option)
    assert list(tmp_path.iterdir()) == []  # no run folder, no store, no save


def test_a_number_just_out_of_range_is_shown_with_every_digit(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "2048", "hint", "2 2/0 4", "--time-ms", "3600000.5")
    assert status == 2 and out == ""
    assert_one_line_error(err, "'--time-ms': must be a number more than 0, at most 3,600,000, got 3600000.5")
    status, _, err = run_cli(capsys, "2048", "ai", "--p-four", "1.0000000001")  # {:g} showed 1, in range
    assert status == 2
    assert_one_line_error(err, "got 1.0000000001")


def test_a_bench_with_an_infinite_budget_stores_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "results.sqlite"
    status, _, err = run_cli(capsys, "2048", "bench", "--games", "1", "--time-ms", "inf", "--db", str(db))
    assert status == 2
    assert_one_line_error(err, "'--time-ms'", "more than 0")
    assert not db.exists()


def test_a_bench_seed_must_leave_room_for_its_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "results.sqlite"
    args = ("--games", "3", "--seed", str(MAX_SEED - 1), "--rows", "2", "--cols", "2", "--depth", "1")
    status, _, err = run_cli(capsys, "2048", "bench", *args, "--db", str(db))
    assert status == 2
    assert_one_line_error(err, "--seed", "--games 3", "2**63-1")
    assert not db.exists()


def test_the_range_is_said_the_same_way_in_the_help_and_the_errors() -> None:
    assert range_text(0, 1) == "from 0 to 1"
    check = number_check(0, 1)
    assert check(None) is None and check(0.5) == 0.5 and check([0.0, 1.0]) == [0.0, 1.0]
    for bad in (float("nan"), float("inf"), -0.1, 1.5, [0.5, 2.0]):
        with pytest.raises(typer.BadParameter, match="must be a number from 0 to 1"):
            check(bad)
    just_over = "must be a number more than 0, at most 3,600,000, got 3600000.5$"  # not 3.6e+06, which looks in range
    with pytest.raises(typer.BadParameter, match=just_over):
        number_check(0, 3_600_000, above=True)(3_600_000.5)
    huge = 10**400  # more than a float holds
    with pytest.raises(typer.BadParameter, match="must be an integer at most 64, got 1000"):
        number_check(None, 64, integer=True)(1000)
    assert number_check(1, None, integer=True)(huge) == huge


# ---------------------------------------------------------------------------- --workers


def test_workers_beyond_what_helps_are_lowered_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert bound_workers(1000, 4, "one thread per root move") == 4
    assert capsys.readouterr().err == "--workers 1000: using 4, the most that can help (one thread per root move)\n"
    assert bound_workers(3, 4, "why") == 3 and bound_workers(None, 4, "why") is None
    assert capsys.readouterr().err == ""


def test_hint_with_a_thousand_workers_searches_with_four(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.g2048 import expectimax

    made: list[int] = []
    original = expectimax.Expectimax.__init__

    def spy(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        made.append(self.workers)

    monkeypatch.setattr(expectimax.Expectimax, "__init__", spy)
    status, out, err = run_cli(capsys, "2048", "hint", "2 2/0 0", "--depth", "1", "--workers", "1000")
    assert status == 0, err
    assert err == "--workers 1000: using 4, the most that can help (one thread per root move)\n"
    assert made == [4] and "best move" in out


@pytest.mark.parametrize("command", [("2048", "ai"), ("2048", "gui")])
def test_search_threads_default_to_the_cores_up_to_four(command: tuple[str, ...]) -> None:
    command_object = dict(LEAVES)[command]
    ctx = command_object.make_context(" ".join(command), [])
    assert ctx.params["workers"] == min(4, cores())


def test_bench_uses_at_most_a_process_per_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("plyground.apps.cli.options.cores", lambda: 4)  # more cores than games, on any machine
    args = ("--games", "1", "--seed", "3", "--rows", "2", "--cols", "2", "--depth", "1", "--workers", "1000")
    status, _, err = run_cli(capsys, "2048", "bench", *args, "--db", str(tmp_path / "r.sqlite"))
    assert status == 0, err
    assert err.splitlines()[0] == "--workers 1000: using 1, the most that can help (one process per game)"
    assert "on this process" in err


@pytest.mark.parametrize(
    "args",
    [("2048", "solve", "2x2", "--workers", "1000"), ("2048", "learn", "--workers", "64")],
)
def test_threads_that_keep_a_core_busy_are_one_per_core_at_most(
    args: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    command = dict(LEAVES)[args[:2]]
    ctx = command.make_context(" ".join(args[:2]), list(args[2:]))
    assert ctx.params["workers"] == min(cores(), int(args[-1]))
    if cores() < int(args[-1]):
        assert f"using {cores()}, the most that can help (one thread per core)" in capsys.readouterr().err


def test_processes_are_one_per_core_and_game_at_most(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert backend_from_options(1000, None, None).workers == cores()
    monkeypatch.setattr("plyground.apps.cli.options.cores", lambda: 4)  # more cores than games, on any machine
    assert backend_from_options(None, 1000, None, jobs=1).dask_local == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == "--dask-local 1000: using 1, the most that can help (one process per game)"
    assert backend_from_options(None, None, None, jobs=1).workers is None  # the default: every core, up to the jobs


# ---------------------------------------------------------------------------- help at 80 columns


@pytest.mark.parametrize("path", [path for path, _ in commands()], ids=lambda path: " ".join(path) or "root")
def test_help_fits_80_columns_and_cuts_nothing(
    path: tuple[str, ...], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    status, out, err = run_cli(capsys, *path, "--help")
    assert status == 0, err
    assert "Usage: plyground" in out
    for line in out.splitlines():
        assert len(line) <= 80, line
        assert "…" not in line, line
        assert line.startswith("Usage:") or not line.endswith("..."), line  # a command's summary cut short
    for placeholder in ("<bool>", "<int", "<float", "18446744073709551615", "9223372036854775807"):
        assert placeholder not in out
