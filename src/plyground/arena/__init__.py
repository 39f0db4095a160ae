"""Matches against other programs: a Piskvork manager for Gomocup brains, and a 2048 harness.

Gomoku: two brains, each an executable Gomocup brain or one of plyground's players run as its own
brain (:func:`parse_brain`), play a match from balanced openings, each opening with both colours
(:func:`play_match`), every game judged by :mod:`plyground.kinrow`'s rules (:mod:`~plyground.arena.piskvork`),
written as it ends (:func:`record_text`) and summed up (:func:`summarize`). ``plyground arena gomoku A B``
does all this from the command line.

2048: :mod:`plyground.arena.versus2048` plays an external 2048 program (nneonneo/2048-ai, as a program
or a loaded library) and plyground on the same seeds, and :mod:`plyground.arena.versus2048_log` sums
up their logged games; they are imported by name (they load the 2048 engine).

The names below are loaded on first use, so ``import plyground.arena`` is light.

>>> from plyground.arena import parse_brain
>>> parse_brain("plyground:random").name
'plyground:random'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plyground.arena.brain import BrainProcess, kill_all
    from plyground.arena.brains import Brain, parse_brain, plyground_brain
    from plyground.arena.match import MatchGame, MatchResult, game_json, play_match, schedule, summarize, wilson
    from plyground.arena.openings import generated_opening, openings_for, read_openings
    from plyground.arena.piskvork import RULE_NAMES, Game, Move, Settings, new_state, play_game
    from plyground.arena.records import read_records, record_text

_HOMES = {
    "BrainProcess": "brain",
    "kill_all": "brain",
    "Brain": "brains",
    "parse_brain": "brains",
    "plyground_brain": "brains",
    "MatchGame": "match",
    "MatchResult": "match",
    "game_json": "match",
    "play_match": "match",
    "schedule": "match",
    "summarize": "match",
    "wilson": "match",
    "generated_opening": "openings",
    "openings_for": "openings",
    "read_openings": "openings",
    "RULE_NAMES": "piskvork",
    "Game": "piskvork",
    "Move": "piskvork",
    "Settings": "piskvork",
    "new_state": "piskvork",
    "play_game": "piskvork",
    "read_records": "records",
    "record_text": "records",
}

__all__ = [
    "RULE_NAMES",
    "Brain",
    "BrainProcess",
    "Game",
    "MatchGame",
    "MatchResult",
    "Move",
    "Settings",
    "game_json",
    "generated_opening",
    "kill_all",
    "new_state",
    "openings_for",
    "parse_brain",
    "play_game",
    "play_match",
    "plyground_brain",
    "read_openings",
    "read_records",
    "record_text",
    "schedule",
    "summarize",
    "wilson",
]


def __getattr__(name: str) -> Any:
    """The package's names, loaded on first use."""
    if name in _HOMES:
        return getattr(importlib.import_module(f"plyground.arena.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
