"""Pictures of the runs' data: the learning and tuning curves as PNG, drawn now and then, a note without matplotlib."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from plyground.apps import plots
from plyground.apps.plots import Redraw, learning_curve, tuning_curve
from plyground.errors import DependencyNotInstalled, install_command


def test_the_learning_curve_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    reach = {256: [0.1, 0.5, 0.9], 512: [0.0, 0.1, 0.3]}
    learning_curve(tmp_path / "a" / "curve.png", [100, 200, 300], [500, 900, 1500], reach, title="t", window=100)
    assert (tmp_path / "a" / "curve.png").read_bytes().startswith(b"\x89PNG")
    learning_curve(tmp_path / "small.png", [100], [60.0], {}, title="2x2: no reach tile", window=100)
    assert (tmp_path / "small.png").read_bytes().startswith(b"\x89PNG")


def test_the_tuning_curve_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    history = [(0, 0, 500.0, [1.0]), (0, 1, 700.0, [2.0]), (1, 0, 650.0, [1.5]), (1, 1, 800.0, [2.5])]
    tuning_curve(tmp_path / "curve.png", history, games=4)
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG")


def test_without_matplotlib_a_plot_raises_and_redraw_says_so_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(DependencyNotInstalled, match=re.escape(install_command("tune"))):
        plots.figure()
    notes: list[str] = []
    redraw = Redraw(plots.figure, name="curve.png", every=0.0, warn=notes.append)
    for _ in range(3):
        redraw()
    redraw(force=True)
    assert notes == [f"note: curve.png is not drawn: plots need matplotlib: {install_command('tune')}"]


def test_redraw_waits_between_drawings_unless_forced() -> None:
    drawn: list[int] = []
    redraw = Redraw(lambda: drawn.append(1), name="x.png", every=3600.0, warn=lambda text: None)
    redraw()
    redraw()
    assert drawn == []  # not an hour yet
    redraw(force=True)
    assert drawn == [1]
    always = Redraw(lambda: drawn.append(2), name="x.png", every=0.0)
    always()
    always()
    assert drawn == [1, 2, 2]
