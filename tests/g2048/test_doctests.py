"""The examples in the public docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module",
    [
        "plyground.g2048",
        "plyground.g2048.board",
        "plyground.g2048.game",
        "plyground.g2048.heuristic",
        "plyground.g2048.expectimax",
        "plyground.g2048.evaluator",
    ],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
