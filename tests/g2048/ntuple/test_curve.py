"""The learning curve: curve.csv written and read, the reach columns of older runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from plyground.errors import CorruptFileError
from plyground.g2048.ntuple import (
    LearnSettings,
    TrainingRun,
    read_curve,
)

SMALL = (((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (0, 0)))
"""Two 3-tuples for 3×3 boards: 11**3 weights each (radix 11)."""


SETTINGS = LearnSettings(
    rows=3, cols=3, tuples=SMALL, alpha=0.05, seed=5, checkpoint_minutes=None, checkpoint_games=100,
    report_games=50, window=80,
)  # fmt: skip


def test_a_run_whose_curve_has_the_older_reach_columns_keeps_them(tmp_path: Path) -> None:
    run = TrainingRun(tmp_path, SETTINGS)
    run.run(games=100)
    old = ["games,moves,seconds,mean_score,reach_2048,reach_4096,reach_8192,reach_16384"]  # as written before
    old += [f"{r.games},{r.moves},{r.seconds:.3f},{r.mean_score:.3f},0,0,0,0" for r in run.curve]
    (tmp_path / "curve.csv").write_text("\n".join(old) + "\n")
    resumed = TrainingRun(tmp_path)
    assert resumed.reach_tiles == (2048, 4096, 8192, 16384)
    assert [r.games for r in resumed.curve] == [50, 100]
    assert resumed.curve[0].reach == dict.fromkeys(resumed.reach_tiles, 0.0)
    resumed.run(games=150)
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert lines[0] == old[0] and lines[1:3] == old[1:3] and len(lines) == 4
    assert [r.games for r in read_curve(tmp_path)] == [50, 100, 150]
    (tmp_path / "curve.csv").write_text("games,moves,seconds,mean_score,reach_3\n")
    with pytest.raises(CorruptFileError, match="not the curve of a training run"):
        TrainingRun(tmp_path)
