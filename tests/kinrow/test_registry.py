"""The registry of player kinds: every kind is made by its factory, and the front ends offer what it lists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from plyground.kinrow import State, registry
from plyground.kinrow.players import Player, make_player

PACKAGE = Path(registry.__file__).parent


@pytest.mark.parametrize("name", registry.AI_KINDS)
def test_every_ai_kind_is_made_by_make_player_and_plays(name: str) -> None:
    player = make_player(name, time_ms=20.0, seed=1)
    assert isinstance(player, Player) and player.name == name
    state = State(5, 4)
    assert player.choose(state) in state.legal_moves()


def test_every_kernel_file_a_kind_names_is_there() -> None:
    named = {kernels for kind in registry.KINDS.values() for kernels in kind.kernels} | set(registry.BOARD_KERNELS)
    assert sorted(name for name in named if not (PACKAGE / name).is_file()) == []


def test_the_commands_and_the_web_lab_offer_the_registrys_kinds() -> None:
    from plyground.apps.cli.kinrow import AI
    from plyground.apps.web.sessions import OPPONENTS

    assert tuple(str(choice) for choice in AI) == registry.AI_KINDS
    assert OPPONENTS == registry.OPPONENTS and set(OPPONENTS) <= set(registry.AI_KINDS)


def test_the_help_lists_the_choices_from_the_registry() -> None:
    from typer.testing import CliRunner

    from plyground.apps.cli.main import app

    out = CliRunner().invoke(app, ["kinrow", "selfplay", "--help"], terminal_width=200).output
    shown = re.search(r"--x <([a-z_|]+)>", out)
    assert shown is not None and tuple(shown.group(1).split("|")) == registry.AI_KINDS


@pytest.mark.parametrize("name", registry.AI_KINDS)
def test_every_kind_reports_its_move_as_json(name: str) -> None:
    player = make_player(name, time_ms=20.0, seed=1)
    state = State.from_moves(7, 4, [24, 16])
    move = player.choose(state)
    report = player.report()
    json.dumps(dict(report.figures))  # a driver shows it as it is
    assert not report.forced
    if report.visits is not None:
        assert move in report.visits and sum(report.visits.values()) > 0
    if report.line:
        assert report.line[0] == move
    searching = bool(registry.KINDS[name].kernels)
    assert bool(report.figures) == searching  # a search says what it did; a simple player has nothing to say
    if searching:  # a win on the spot is played without a search, and said so
        assert player.choose(State.parse("XX../OO../..../....", k=3)) == 2 and player.report().forced
