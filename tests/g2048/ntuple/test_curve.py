"""The learning curve: curve.csv written and read, the reach columns of older runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from plyground.errors import CorruptFileError
from plyground.g2048.ntuple import (
    TrainingRun,
    read_curve,
)
from plyground.g2048.ntuple.curve import Report, curve_csv, read_curve_and_tiles
from tests.g2048.ntuple import SETTINGS


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


def test_curve_csv_round_trips_with_the_reach_tiles_of_its_columns(tmp_path: Path) -> None:
    rows = [
        Report(games=50, moves=900, seconds=0.25, window=0, mean_score=310.5, reach={256: 0.5, 512: 0.0}, max_tile=0),
        Report(games=100, moves=2000, seconds=0.5, window=0, mean_score=420.0, reach={256: 0.75, 512: 0.1}, max_tile=0),
    ]
    (tmp_path / "curve.csv").write_text(curve_csv(rows, (256, 512)))
    assert (tmp_path / "curve.csv").read_text().splitlines()[0] == "games,moves,seconds,mean_score,reach_256,reach_512"
    assert read_curve_and_tiles(tmp_path) == (rows, (256, 512))
    assert read_curve_and_tiles(tmp_path / "none") == ([], None)
    small = [Report(games=50, moves=600, seconds=0.1, window=0, mean_score=60.0, reach={}, max_tile=0)]
    (tmp_path / "curve.csv").write_text(curve_csv(small, ()))  # 2x2 holds no reach tile: no reach column
    assert read_curve_and_tiles(tmp_path) == (small, ())
    for header in ("games,moves,seconds,mean_score,reach_512,reach_256", "games,moves,seconds,reach_256"):
        (tmp_path / "curve.csv").write_text(header + "\n")
        with pytest.raises(CorruptFileError, match="not the curve of a training run"):
            read_curve_and_tiles(tmp_path)
    (tmp_path / "curve.csv").write_text("games,moves,seconds,mean_score,reach_256\n50,900,0.25,310.5\n")
    with pytest.raises(CorruptFileError, match="line 2 is not a row of the curve"):
        read_curve_and_tiles(tmp_path)
