"""The Pillow renderer: pixel colours of a known board, PNG frames from the CLI, videos of replays."""

from __future__ import annotations

from pathlib import Path

import imageio.v3 as iio
import imageio_ffmpeg
import pytest

from plyground.apps.render import BACKGROUND, EMPTY_COLOUR, TILE_COLOURS, render_board, render_replay, tile_colour
from plyground.errors import InvalidInputError
from plyground.g2048 import Board, Replay
from plyground.g2048.autoplay import play_game
from plyground.g2048.expectimax import Expectimax
from tests.apps.test_cli import assert_one_line_error, run_cli


def test_tile_colours_cover_every_tile_up_to_65536() -> None:
    assert len(TILE_COLOURS) == 17 and len(set(TILE_COLOURS)) == 17
    assert tile_colour(0) == EMPTY_COLOUR and tile_colour(2048) == TILE_COLOURS[11]
    assert tile_colour(65536) == TILE_COLOURS[16] == tile_colour(2**20)


def test_a_known_board_has_the_expected_colours_at_its_tiles() -> None:
    board = Board.parse("2 0 8/0 2048 0/32768 0 4")
    cell, gap = 50, 6
    image = render_board(board, cell=cell, gap=gap)
    assert image.size == (gap + 3 * (cell + gap), gap + 3 * (cell + gap))
    assert image.getpixel((1, 1)) == BACKGROUND
    for r, row in enumerate(board.to_rows()):
        for c, value in enumerate(row):
            x0, y0 = gap + c * (cell + gap), gap + r * (cell + gap)
            # The centre of an empty cell, and inside a tile beside its number.
            probe = (x0 + cell // 2, y0 + cell // 2) if value == 0 else (x0 + cell // 2, y0 + 4)
            assert image.getpixel(probe) == tile_colour(value), (r, c)


def test_a_score_line_adds_a_header() -> None:
    plain = render_board(Board.parse("2 0/0 0"), cell=40)
    scored = render_board(Board.parse("2 0/0 0"), cell=40, score=1234)
    assert scored.height == plain.height + 20 and scored.width == plain.width


@pytest.fixture(scope="module")
def replay() -> Replay:
    return play_game(Expectimax(depth=1), rows=2, cols=3, seed=5).replay


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_a_replay_renders_one_frame_per_position(tmp_path: Path, replay: Replay, suffix: str) -> None:
    out = tmp_path / f"game{suffix}"
    frames = render_replay(replay, out, fps=5, cell=32)
    assert frames == len(replay.moves) + 1
    if suffix == ".gif":
        assert iio.imread(out, index=None).shape[0] == frames
    else:
        assert imageio_ffmpeg.count_frames_and_secs(str(out))[0] == frames


def test_bad_video_requests_are_refused(tmp_path: Path, replay: Replay) -> None:
    with pytest.raises(InvalidInputError, match=r"\.mp4 or \.gif"):
        render_replay(replay, tmp_path / "x.avi")
    with pytest.raises(InvalidInputError, match="fps"):
        render_replay(replay, tmp_path / "x.gif", fps=0)


def test_cli_frames_and_video(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run_cli(
        capsys, "2048", "ai", "--rows", "2", "--cols", "2", "--depth", "1", "--seed", "4", "--games", "1",
        "--save", str(tmp_path / "replays"), "--frames", str(tmp_path / "frames"),
    )  # fmt: skip
    assert status == 0, err
    replay = Replay.load(tmp_path / "replays" / "2048-2x2-seed4.json")
    pngs = sorted((tmp_path / "frames" / "2048-2x2-seed4").glob("*.png"))
    assert len(pngs) == len(replay.moves) + 1 and pngs[0].name == "00000.png"
    status, out, err = run_cli(
        capsys, "2048", "video", str(tmp_path / "replays" / "2048-2x2-seed4.json"), str(tmp_path / "v.gif")
    )
    assert status == 0, err
    assert f"{len(pngs)} frames" in out
    status, _, err = run_cli(capsys, "2048", "video", str(tmp_path / "missing.json"), str(tmp_path / "v.gif"))
    assert status != 0
    assert_one_line_error(err, "missing.json")
